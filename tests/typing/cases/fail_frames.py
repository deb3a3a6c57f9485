"""Frame mistakes mypy must report (expected messages after "# E:")."""

from __future__ import annotations

import datetime
import decimal

from models import Dept, Out, User

from pydantable_spark import DataFrame, DataFrameModel, F

users = User.from_rows([])
users.filter(User.age)  # E: Argument 1 to "filter" of "DataFrame" has incompatible type "Col[int | None]"
users.filter(User.name.str.length())  # E: Argument 1 to "filter" of "DataFrame" has incompatible type "Expr[int]"
# == and != between incomparable types fall back to Python's bool (mypy tries the other operand's
# __eq__ when ours reports an error), which the frame then refuses:
users.filter(User.joined == 1)  # E: Argument 1 to "filter" of "DataFrame" has incompatible type "bool"
users.filter(User.age == None)  # E: Argument 1 to "filter" of "DataFrame" has incompatible type "bool"
users.select("nope")  # E: select(): unknown column 'nope' in the frame; existing columns: id, name, age
users.select("agee")  # E: did you mean 'age'?
users.with_columns(x=User.id, y=User.id).select("z")  # E: select(): unknown column 'z' in the frame
users.drop("nope")  # E: unknown column 'nope' in drop()
users.rename({"nope": "x"})  # E: unknown column 'nope' in rename()
users.select(User.id, User.id + 1)  # E: select(): two output columns are named 'id' (id and (id + 1))
users.rename({"age": "id"})  # E: rename(): 'age' → 'id' would give two columns one name (column 'id' has it)

out = users.select(User.id, (User.age + 1).alias("next"))
out.collect()[0].missing  # E: "Row[id: int, next: int | None]" has no attribute "missing"
out.collect()[0].age  # E: "Row[id: int, next: int | None]" has no attribute "age"


class Wrong(DataFrameModel):
    id: str
    next: int | None


class Missing(DataFrameModel):
    id: int
    other: int


class Stricter(DataFrameModel):
    id: int
    next: int


class Lossy(DataFrameModel):
    id: int
    score: int


out.as_model(Out)
out.as_model(Wrong)  # E: as_model(Wrong): id: cannot convert bigint (int) to string (str)
out.as_model(Missing)  # E: as_model(Missing): other: missing from the source; source has: id, next
out.as_model(Stricter)  # E: as_model(Stricter): next: nullable in the source but not null in the target
users.as_model(Lossy)  # E: as_model(Lossy): score: converting double (float) to bigint (int) can silently
# null_check and allow_lossy excuse the fields they name, as at run time (pass_frames.py), and no other
out.as_model(Stricter, null_check=["id"])  # E: as_model(Stricter): next: nullable in the source but not null
out.as_model(Stricter, null_check=["nxt"])  # E: null_check names columns the target does not have: nxt
users.as_model(Lossy, allow_lossy=["id"])  # E: as_model(Lossy): score: converting double (float) to bigint (int)
users.as_model(Lossy, allow_lossy=("scor",))  # E: allow_lossy names columns the target does not have: scor
users.as_model(Lossy, null_check=True)  # E: as_model(Lossy): score: converting double (float) to bigint (int)

users.join(Dept.from_rows([]), on="age")  # E: join(): unknown column 'age' in the right frame
users.join(Dept.from_rows([]), left_on="name", right_on="budget")  # E: join keys cannot be compared
users.group_by("nope").agg(n=F.count())  # E: group_by(): unknown column 'nope' in the frame
users.group_by("name").agg(n=F.count(), name=F.count())  # E: agg(): duplicate column 'name'
F.sum(User.name)  # E: F.sum(): col must be a number; got column 'User.name'

# the constructors, results and writers (mixins of DataFrame) are named as DataFrame's methods, derived frames' too
DataFrame[User].from_rows(3)  # E: No overload variant of "from_rows" of "DataFrame" matches argument type "int"
users.collect(trusted=1)  # E: No overload variant of "collect" of "DataFrame" matches argument type "int"
out.to_arrow(1)  # E: Too many positional arguments for "to_arrow" of "DataFrame"
out.write_parquet("p", mode="bogus")  # E: Argument "mode" to "write_parquet" of "DataFrame" has incompatible type


# a field-less base model: fine to subclass; the plugin types frames of it without crashing (the runtime refuses them)
class NoFields(DataFrameModel):
    pass


class WithFields(NoFields):
    sku: str


def no_fields(bare: DataFrame[NoFields], items: DataFrame[WithFields]) -> None:
    bare.select("sku")  # E: unknown column 'sku' in select(); existing columns: (none)
    items.join(bare, how="cross")
    items.as_model(NoFields)


# a column replaced by with_columns, then compared with a value written in place (a date, a Decimal)
restamped = users.with_columns(joined=F.lit("2024-01-01"))
restamped.filter(User.joined > datetime.date(2024, 1, 1))  # E: column 'User.joined' is declared as date (date)
repriced = users.with_columns(price=F.lit(1.5))
repriced.filter(User.price > decimal.Decimal("0.5"))  # E: column 'User.price' is declared as Decimal (decimal(
