"""Frames: kept row types, derived row types, model checks."""

from __future__ import annotations

from typing import Any

from models import Dept, Out, User
from typing_extensions import assert_type

from pydantable_spark import DataFrame, DataFrameModel, F, Window

users = User.from_rows([])
assert_type(users, DataFrame[User])
assert_type(DataFrame[User].from_rows([]), DataFrame[User])
assert_type(DataFrame.from_rows([], model=User), DataFrame[User])
assert_type(users.filter(User.age > 1), DataFrame[User])
assert_type(users.filter(User.active), DataFrame[User])
assert_type(users.filter(F.col("active")), DataFrame[User])
assert_type(users.sort(User.id).limit(3).head(2).unique(), DataFrame[User])
assert_type(users.collect(), list[User])
assert_type(users.collect()[0].age, int | None)

out = users.select(User.id, (User.age + 1).alias("next"))
assert_type(out.collect()[0].next, int | None)
assert_type(out.collect()[0].id, int)
assert_type(out.as_model(Out), DataFrame[Out])
assert_type(out.as_model(Out).collect(), list[Out])


class NotNull(DataFrameModel):
    id: int
    next: int


class Narrowed(DataFrameModel):
    id: int
    score: int


# the options of as_model excuse what they name: a nullable column checked for NULLs, a lossy cast
assert_type(out.as_model(NotNull, null_check=["next"]), DataFrame[NotNull])
assert_type(out.as_model(NotNull, null_check=("next", "id")), DataFrame[NotNull])
assert_type(out.as_model(NotNull, null_check=True), DataFrame[NotNull])
assert_type(users.as_model(Narrowed, allow_lossy=["score"]), DataFrame[Narrowed])
assert_type(users.as_model(Narrowed, allow_lossy=True, null_check=False), DataFrame[Narrowed])
checked = ["next"]
assert_type(out.as_model(NotNull, null_check=checked), DataFrame[NotNull])

named = users.select("name", doubled=User.id * 2, one=1, label=F.lit("x"))
row = named.collect()[0]
assert_type(row.name, str)
assert_type(row.doubled, int)
assert_type(row.one, int)
assert_type(row.label, str)

computed = users.select(User.age + 1, User.name.str.upper(), F.coalesce(User.score, 0))
assert_type(computed.collect()[0].age, int | None)
assert_type(computed.collect()[0].name, str)
assert_type(computed.collect()[0].score, float)

# any catalog function names its result after its first argument that is no constant, as the runtime does
named_by_catalog = users.select(F.initcap(User.name), F.abs(User.age), F.datediff(User.joined, "joined"))
assert_type(named_by_catalog.collect()[0].name, str)
assert_type(named_by_catalog.collect()[0].age, int | None)
assert_type(named_by_catalog.collect()[0].joined, int)
assert_type(users.select(F.row_number().over(Window.order_by(User.id))).collect()[0].row_number, int)

with_cols = users.with_columns(User.age.fill_null(0), flag=User.score > 1)
assert_type(with_cols.collect()[0].age, int)
assert_type(with_cols.collect()[0].flag, bool)
assert_type(with_cols.collect()[0].name, str)

dropped = users.drop("age", User.score)
assert_type(dropped.collect()[0].id, int)
renamed = users.rename({"age": "years"})
assert_type(renamed.collect()[0].years, int | None)
by_name = users.select(F.col("age"))
assert_type(by_name.collect()[0].age, int | None)

chained = users.with_columns(x=User.id + 1).select("x", F.col("name"))
assert_type(chained.collect()[0].x, int)


def unknown_select(expression: Any) -> None:
    assert_type(users.select(expression), DataFrame[Any])  # a name mypy cannot know: unchecked, never wrong


held = User.age + 1  # an expression assigned once is known where it is used
assert_type(users.select(held).collect()[0].age, int | None)

# joins: outer sides become Optional, keys are merged, collisions get the suffix
depts = Dept.from_rows([])
joined = users.join(depts, left_on="id", right_on="id", how="left")
assert_type(joined.collect()[0].budget, float | None)
assert_type(joined.collect()[0].id_right, int | None)
merged = users.join(depts, on="id", how="full")
assert_type(merged.collect()[0].id, int | None)
assert_type(merged.collect()[0].name_right, str | None)
assert_type(users.join(depts, on="id", how="anti").collect()[0].name, str)

# aggregation: counts are never NULL, other aggregates are
grouped = users.group_by(User.name).agg(n=F.count(), total=F.sum(User.age), top=F.max(User.score))
assert_type(grouped.collect()[0].name, str)
assert_type(grouped.collect()[0].n, int)
assert_type(grouped.collect()[0].total, int | None)
assert_type(grouped.collect()[0].top, float | None)
keyed = users.group_by("age").agg(F.count_distinct(User.name))
assert_type(keyed.collect()[0].age, int)  # NULL keys are dropped by default
kept = users.group_by("age", drop_nulls=False).agg(F.collect_list(User.id))
assert_type(kept.collect()[0].age, int | None)
assert_type(kept.collect()[0].id, list[int])
totals = users.select(F.sum(User.age), F.count())
assert_type(totals.collect()[0].count, int)
windowed = users.with_columns(
    rn=F.row_number().over(Window.order_by("id")), prev=F.lag(User.age).over(Window.order_by("id"))
)
assert_type(windowed.collect()[0].rn, int)
assert_type(windowed.collect()[0].prev, int | None)

# an intersection keeps the model unless a column narrows (nullable only where it is in both frames)
assert_type(users.intersect(users), DataFrame[User])
assert_type(users.intersect_all(users.drop_nulls("age")).collect()[0].age, int)
