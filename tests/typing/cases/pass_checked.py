"""Frames typed by the runtime's own result, and valid code the column and structure checks accept."""

from __future__ import annotations

import datetime
from typing import Any, Literal

from models import Address, Dept, Shipment, User
from typing_extensions import assert_type

from pydantable_spark import DataFrame, Expr, F, Window, cs
from pydantable_spark.expr.windowspec import WindowSpec

users = User.from_rows([])
shipments = Shipment.from_rows([])

# methods the typing rules do not cover are typed by the runtime's result (columns they keep keep their types)
assert_type(users.drop_nulls().collect()[0].age, int)
assert_type(users.drop_nulls().collect()[0].address, Address | None)  # a struct column stays nullable
assert_type(users.explode("tags").collect()[0].tags, str)
assert_type(users.with_row_count().collect()[0].row_nr, int)
assert_type(users.fill_null(0, subset=["age"]).collect()[0].age, int)
assert_type(users.unnest("address").collect()[0].address_city, str | None)
assert_type(users.union(users), DataFrame[User])
assert_type(users.melt(id_vars=["id"], value_vars=["age"]).collect()[0].value, int | None)
assert_type(shipments.drop_nulls().collect()[0].kind, Literal["parcel", "letter"])
assert_type(shipments.drop_nulls().collect()[0].trackingNo, str)
# outputs the typing rules cannot name or type
assert_type(users.with_columns(y=F.col("score") * 2).collect()[0].y, float)
assert_type(users.select(F.col("age") + 1).collect()[0].age, int | None)
assert_type(users.group_by("name").agg(t=("sum", "score")).collect()[0].t, float | None)
assert_type(users.select(cs.numeric() - cs.by_name("price")).collect()[0].small, int)
keys = ["name", "active"]
assert_type(users.group_by(*keys).agg(n=F.count()).collect()[0].active, bool)
held = User.age + 1  # an expression assigned once is known where it is used
assert_type(users.select(held).collect()[0].age, int | None)


def unknown(expression: Any, frame: DataFrame[Any]) -> None:
    assert_type(users.select(expression), DataFrame[Any])  # a name mypy cannot know: unchecked, never wrong
    assert_type(frame.filter(F.col("anything") > 1), DataFrame[Any])


# valid code: nothing reported
w = Window.partition_by(User.name).order_by(User.joined)
ranked = users.with_columns(rank=F.rank().over(w), running=F.sum(User.score).over(w.rows_between(None, 0)))
ranked.filter(F.col("rank") == 1).sort(User.name, F.col("running"), descending=[False, True])
users.with_columns(total=F.sum(User.score))  # an aggregate in with_columns: the total on every row
users.with_columns(share=User.score / F.sum(User.score).over(Window.partition_by("name")))
users.select(total=F.sum(User.score), rows=F.count())  # aggregates only: one row
users.group_by("name").agg(F.sum(User.age) / F.count(), spread=F.max(User.score) - F.min(User.score))
users.with_columns(since=F.datediff(F.lit(datetime.date(2024, 1, 1)), User.joined)).filter(F.col("since") > 30)
users.join(users.select(User.id, User.name), on="id", how="left").select(F.col("name_right"))
by_value = Window.partition_by("name").order_by("score").range_between(-1, 1)
users.with_columns(near=F.count().over(by_value))
# a range frame without offsets takes any order keys (dates, several); ranking over the frame Spark fixes
users.with_columns(upto=F.sum(User.score).over(Window.order_by(User.joined, User.id).range_between(None, 0)))
users.with_columns(n=F.row_number().over(w.rows_between(None, 0)), c=F.cume_dist().over(w.range_between(None, 0)))
shipments.select(Shipment.tracking, "status").filter(F.col("trackingNo").is_not_null())


def choose(by_name: bool) -> WindowSpec:
    window = Window.partition_by("id")
    if by_name:
        window = window.order_by("name")
    return window


def helpers(total: Expr[Any], window: WindowSpec, flag: bool) -> None:
    users.group_by("name").agg(total)  # total may well be an aggregate
    users.with_columns(n=F.row_number().over(window))  # a window from elsewhere: its order is not known
    users.with_columns(n=F.row_number().over(choose(flag)))
    frame = users.with_columns(x=User.id)
    if flag:
        frame = frame.drop("x")
    frame.filter(User.id > 1)
    for column in ("age", "score"):
        frame = frame.drop(column)  # an unknown name: this variable's frame is not checked anywhere
    frame.filter(F.col("name") > 1)
    added = users.with_columns(x=User.id)
    for name in ("a", "b"):
        added = added.with_columns(**{name: F.lit(1)})
    added.filter(F.col("a") > 0)  # after the loop mypy gives it the columns from before the loop


# after an outer join a model attribute is the frame's column of its name, with the frame's nullability,
# and what is derived from it follows (also next to an expression the plugin knows only by type)
left = users.join(Dept.from_rows([]), on="id", how="left")
assert_type(left.filter(Dept.budget > 1).collect()[0].budget, float | None)
by_name = left.group_by(User.name).agg(n=F.count(Dept.budget), top=F.max(Dept.budget * 2))
assert_type(by_name.collect()[0].n, int)
assert_type(by_name.collect()[0].top, float | None)
assert_type(left.select(User.id, Dept.budget).collect()[0].budget, float | None)
assert_type(left.with_columns(more=Dept.budget + 1).collect()[0].more, float | None)
assert_type(left.group_by(Dept.budget, drop_nulls=False).agg(n=F.count()).collect()[0].budget, float | None)
assert_type(left.group_by(Dept.budget).agg(n=F.count()).collect()[0].budget, float)  # NULL keys dropped


def with_opaque(extra: Expr[float]) -> None:
    assert_type(left.select(Dept.budget * 2, extra.alias("extra")).collect()[0].budget, float | None)
    assert_type(left.group_by(User.name).agg(top=F.max(Dept.budget), e=F.max(extra)).collect()[0].top, float | None)


# a list filled in place is not the empty list it was assigned: the columns it holds are not known
wanted: list[Any] = []
wanted.append(F.col("name"))
User.from_rows([]).select(*wanted)
