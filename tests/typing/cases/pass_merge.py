"""Valid MERGEs: mypy with the plugin reports nothing, and ``merge_into`` is ``MergeMetrics``."""

from __future__ import annotations

import datetime
from pathlib import Path

from typing_extensions import assert_type

from pydantable_spark import DataFrame, DataFrameModel, Expr, F
from pydantable_spark.merge import (
    Delete,
    MergeMetrics,
    Update,
    delete,
    insert,
    insert_all,
    source,
    target,
    update,
    update_all,
)


class Item(DataFrameModel):
    id: int
    name: str
    price: float | None


class Change(DataFrameModel):
    id: int
    name: str
    price: float | None
    gone: bool


class Visit(DataFrameModel):
    id: int
    city: str
    seen: datetime.date | None
    since: datetime.date


changes = Change.from_rows([])
TABLE = "lake.shop.items"

# the docs' example: a list of clauses tried in order, each side's columns, a model attribute of the source
assert_type(
    changes.merge_into(
        path="/data/items", model=Item, on="id",
        when_matched=[delete(condition=source.col("gone")), update_all()],
        when_not_matched=insert_all(condition=~source.col("gone")),
        when_not_matched_by_source=update(price=target.col("price") * 0.9),
    ),
    MergeMetrics,
)  # fmt: skip
changes.merge_into(TABLE, model=Item, on=source.col("id") == target.col("id"), when_matched=update(price=Change.price))
changes.merge_into(TABLE, model=Item, on=["id", "name"], when_matched=update({"price": None}))
changes.merge_into(TABLE, model=Item, on="id", when_not_matched=insert(id=source.col("id"), name="?"))
changes.merge_into(TABLE, model=Item, on="id", when_matched=update(name=F.coalesce(source.col("name"), F.lit("?"))))
changes.merge_into(TABLE, model=Item, on="id", when_matched=update(price=F.coalesce(source.col("price"), 0) * 2))
changes.merge_into(TABLE, model=Item, on="id", when_matched=delete(condition=target.col("price") > source.col("price")))
changes.merge_into(path=Path("/data/items"), model=Item, on="id", when_matched=delete())
changes.drop("gone").merge_into(TABLE, on="id", when_matched=update_all(), when_not_matched=insert_all())
priced = changes.with_columns(price=F.coalesce(Change.price, 0.0))
priced.merge_into(TABLE, model=Item, on="id", when_matched=update_all())
changes.merge_into(TABLE, on="id", when_matched=update_all(), when_not_matched_by_source=delete())  # the frame's model
fixed: list[Update | Delete] = [delete(condition=source.col("gone")), update(name=source.col("name"))]
changes.merge_into(TABLE, model=Item, on="id", when_matched=fixed)


def upsert(frame: DataFrame[Change], table: str, today: datetime.date, price: Expr[float]) -> MergeMetrics:
    frame.merge_into(table, model=Item, on="id", when_matched=update(price=price))  # an expression known by type
    visits = Visit.from_rows([])
    visits.merge_into(table, on="id", when_matched=update(seen=today), when_not_matched=insert_all(since=today))
    return frame.merge_into(table, model=Item, on="id", when_matched=update_all(), when_not_matched=insert_all())


def apply(frame: DataFrame[Change], purge: bool) -> MergeMetrics:
    clauses: list[Update | Delete] = []  # filled in place: not the empty list it was assigned
    if purge:
        clauses.append(delete(condition=source.col("gone")))
    clauses.append(update_all())
    return frame.merge_into(TABLE, model=Item, on="id", when_matched=clauses)
