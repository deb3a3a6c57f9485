"""Column references and aggregate/window structure, checked against the frame they are used on.

The plugin runs the runtime's own frame method on a frame of the static schema, so
the messages are the runtime's (prefixed with the method where they do not name it).
"""

from __future__ import annotations

from typing import Any

from models import Dept, User

from pydantable_spark import DataFrame, F, Window, cs

u = User.from_rows([])
d = Dept.from_rows([])
w = Window.partition_by(User.name).order_by(User.id)

# --- model attributes: the owner model's columns and the frame's current ones ----------------------
u.select(User.id, Dept.budget)  # E: select(): unknown column 'Dept.budget' in the frame; existing columns: id, name
u.drop("age").filter(User.age > 1)  # E: filter(): unknown column 'User.age' in the frame; existing columns: id, name
u.select(User.id).with_columns(x=User.name)  # E: with_columns(): unknown column 'User.name' in the frame
u.rename({"age": "years"}).sort(User.age)  # E: sort(): unknown column 'User.age'
u.group_by(User.name).agg(n=F.count()).select(User.score)  # E: unknown column 'User.score' in the frame
u.join(d, on="id", how="semi").select(Dept.budget)  # E: unknown column 'Dept.budget'
u.select(User.id, User.address).with_columns(c=User.address.struct.field("city"))
as_text = u.with_columns(age=User.age.cast(str))
as_text.filter(User.age > 1)  # E: column 'User.age' is declared as int | None (bigint) but the frame's column
left = u.join(d, on="id", how="left")
left.filter(Dept.budget.str.upper() == "X")  # E: str.upper(): col must be a string; got column 'Dept.budget'
u.filter(F.col("joined") >= "2024-03-01")  # E: pass a datetime.date, not a string: datetime.date(2024, 3, 1)
left.with_columns(budget=Dept.budget.cast(str)).filter(Dept.budget > 1)  # E: column 'Dept.budget' is declared as float


@F.udf
def halved(x: float) -> float:
    return x / 2


# a UDF call is checked on the frame too: its argument after an outer join, a column name, F.col
left.select(h=halved(Dept.budget))  # E: halved(): column 'Dept.budget' of type float | None (double) can be NULL
u.select(h=halved("name"))  # E: halved(): parameter x is float (double); got column 'name' of type str
u.with_columns(h=halved(F.col("age")))  # E: halved(): parameter x is float (double); got column 'age' of type int

# --- F.col("...") in every position --------------------------------------------------------------
u.filter(F.col("agee") > 1)  # E: filter(): unknown column 'agee' in the frame; existing columns: id, name, age
u.filter(F.col("agee") > 1)  # E: did you mean 'age'?
u.with_columns(x=F.col("nme").str.upper())  # E: with_columns(): unknown column 'nme'
u.select(total=F.col("scor") * 2)  # E: select(): unknown column 'scor'
u.group_by("name").agg(F.sum(F.col("scre")))  # E: agg(): unknown column 'scre'
u.group_by(F.col("nam")).agg(n=F.count())  # E: group_by(): unknown column 'nam'
u.sort(F.col("ag"))  # E: sort(): unknown column 'ag'
u.with_columns(r=F.row_number().over(Window.partition_by(F.col("nam")).order_by("id")))  # E: column 'nam'
u.with_columns(x=F.when(F.col("activ"), 1).otherwise(0))  # E: unknown column 'activ'
u.with_columns(x=F.when(User.active, F.col("scor")).otherwise(0.0))  # E: unknown column 'scor'
u.with_columns(x=F.sum("scor"))  # E: unknown column 'scor'
u.join(d, left_on=F.col("idd"), right_on=Dept.id)  # E: unknown column 'idd'
u.join(d, left_on=User.id, right_on=F.col("ident"))  # E: unknown column 'ident' in the frame; existing columns: id
name = F.col("nmae")
u.filter(name == "x")  # E: unknown column 'nmae'
u.filter(F.col("name"))  # E: filter() needs a boolean expression; got column 'name' of type str (string)
u.with_columns(x=F.col("name") + 1)  # E: unsupported operand types for +: column 'name' of type str (string)

# --- string names ---------------------------------------------------------------------------------
u.sort("agee")  # E: sort(): unknown column 'agee' in the frame
u.unique(subset=["nam"])  # E: unknown column 'nam' in unique(subset=...); existing columns: id, name
u.drop("nope")  # E: unknown column 'nope' in drop()
u.rename({"nope": "x"})  # E: unknown column 'nope' in rename()
u.with_columns(r=F.rank().over(Window.partition_by("nam").order_by("id")))  # E: unknown column 'nam'
u.with_columns(r=F.rank().over(Window.partition_by("name").order_by("idd")))  # E: unknown column 'idd'
u.join(d, on="nme")  # E: unknown column 'nme' in join(on=...)
u.join(d, on="age")  # E: unknown column 'age' in the right frame (join on=)
u.drop_nulls(subset=["agee"])  # E: unknown column 'agee' in drop_nulls(subset=...)
u.select(cs.by_name("id", "nme"))  # E: unknown column 'nme' in cs.by_name()
u.select(cs.starts_with("zz"))  # E: selector cs.starts_with('zz') matches no column
keys = ["name", "agee"]
u.group_by(*keys).agg(n=F.count())  # E: unknown column 'agee'

# --- aggregation structure --------------------------------------------------------------------------
u.group_by("name").agg(User.age)  # E: agg(): age is not an aggregate; use F.sum, F.count, F.first, ...
u.group_by("name").agg(top=F.max(F.sum(User.age)))  # E: agg(): aggregates cannot be nested (sum(age) inside
u.group_by("name").agg(x=F.sum(User.age) / User.age)  # E: agg(): column 'age' is used outside an aggregate
u.group_by("name").agg(r=F.rank())  # E: agg(): rank().alias('r') is not an aggregate
u.group_by("name").agg(s=F.sum(User.age).over(w))  # E: agg(): sum(age).over(...).alias('s') uses a window
u.filter(F.sum(User.age) > 1)  # E: filter(): (sum(age) > 1) aggregates rows
u.sort(F.max(User.age))  # E: sort(): max(age) aggregates rows
u.select(User.id, F.sum(User.age))  # E: select(): id is not an aggregate
u.group_by(F.sum(User.age)).agg(n=F.count())  # E: cannot group by sum(age): it aggregates or uses a window
total = F.sum(User.age)
u.group_by("name").agg(x=F.max(total))  # E: aggregates cannot be nested

# --- window structure ------------------------------------------------------------------------------
u.with_columns(r=F.row_number())  # E: row_number() needs a window: F.row_number(...).over(Window...)
u.with_columns(p=F.lag(User.age))  # E: lag() needs a window
u.with_columns(r=F.row_number().over(Window.partition_by("name")))  # E: row_number() needs an ordered window
u.with_columns(p=F.lag(User.age).over(Window.partition_by("name")))  # E: lag() needs an ordered window
u.with_columns(r=F.rank().over(Window.unbounded()))  # E: rank() needs an ordered window
unordered = Window.partition_by(User.name)
u.with_columns(q=F.ntile(3).over(unordered))  # E: ntile() needs an ordered window
F.count_distinct(User.name).over(w)  # E: count_distinct() cannot run over a window
(User.age + 1).over(w)  # E: over() applies to window functions and aggregates; got expression on 'age'
by_name = Window.order_by(User.name).range_between(-1, 0)
u.with_columns(s=F.sum(User.age).over(by_name))  # E: range_between(-1, 0) needs exactly one numeric order key
by_two = Window.order_by("id", "age").range_between(-1, 0)
u.with_columns(s=F.sum(User.age).over(by_two))  # E: range_between(-1, 0) needs exactly one numeric order key
Window.order_by(User.id).rows_between(0, -1)  # E: a window frame must not end (-1) before it starts (0)
Window.order_by(User.id).range_between(3, 1)  # E: a window frame must not end (1) before it starts (3)
u.filter(F.row_number().over(w) == 1)  # E: filter(): (row_number().over(...) == 1) uses a window
u.sort(F.rank().over(w))  # E: sort(): rank().over(...) uses a window


# --- argument values the runtime refuses when the call is made ---------------------------------------
User.name.is_in("abc")  # E: is_in() takes a collection of values, not a single str
User.score.cast(dict)  # E: annotation dict has no Spark type
u.join(d, on="id", validate="1:one")  # E: join(validate='1:one') is not known; use one of m:m, 1:1
u.limit(-1)  # E: limit() needs n >= 0, got -1
u.with_columns(big=F.lit(10**20))  # E: integer literal 100000000000000000000 does not fit in bigint
u.with_columns(q=F.ntile(0).over(w))  # E: F.ntile(): n must be between 1 and 2147483647, got 0
u.sort("id", "name", descending=[True])  # E: sort() got 2 key(s) but 1 descending flag(s)
u.with_columns(o=F.lit(object()))  # E: cannot use a value of type "object" as a literal; expected bool, int
u.with_columns(o=F.lit([1, 2]))  # E: cannot use a value of type "list[int]" as a literal
User.from_rows([Dept(id=1, name="x", budget=1.0)])  # E: from_rows(): rows of Dept are not rows for User
DataFrame.from_rows([Dept(id=1, name="x", budget=1.0)], model=User)  # E: rows of Dept are not rows for User


def not_reported(value: object, values: list[Any], rows: list[User]) -> None:
    u.with_columns(o=F.lit(value))  # a variable declared object may hold a literal value
    User.from_rows(values)
    User.from_rows(rows)
    User.from_rows([{"id": 1}])


# --- a union of frames: an error only where every member fails ---------------------------------------
def maybe_narrowed(flag: bool) -> None:
    frame = u.with_columns(x=User.id)
    try:
        frame = frame.select(User.id)
    except ValueError:
        frame = frame.select(User.id, User.name)  # no error: the frame may still have every column
    frame.filter(F.col("nothing") > 1)  # E: filter(): unknown column 'nothing'


# --- what is only known by type is checked for the columns it names ---------------------------------
def with_parameters(total: Any, frame: DataFrame[Any]) -> None:
    u.group_by("name").agg(total)  # no error: total may be an aggregate
    u.group_by("name").agg(t=total, bad=F.sum(F.col("scor")))  # E: agg(): unknown column 'scor'
    u.filter(F.col("agee") > total)  # E: filter(): unknown column 'agee'
    u.sort("id", total, descending=[True, False])  # no error: one flag per key, total among them
    frame.filter(F.col("whatever") > 1)  # no error: the frame's columns are not known


around = Window.order_by(User.id).rows_between(-1, 1)
u.with_columns(n=F.row_number().over(around))  # E: row_number() runs over a frame Spark fixes
u.with_columns(p=F.lag(User.age).over(around))  # E: lag() runs over a frame Spark fixes
last_week = Window.order_by(User.joined).range_between(-7, 0)
u.with_columns(s=F.sum(User.age).over(last_week))  # E: needs exactly one numeric order key
