"""Models declared in this file with ``ModelColumn[T]``, mixed with plain fields: the plugin reads them as ``T``.

basedpyright (no stub) checks this file too (``tests/typing/test_samefile.py``): for it the ``ModelColumn``
fields are the descriptor; its claims are the lines marked ``# both``.
"""

from __future__ import annotations

import datetime
import enum
from typing import Annotated, Any

from pydantic import Field
from typing_extensions import assert_type

from pydantable_spark import Col, DataFrame, DataFrameModel, Expr, F, ModelColumn, dtypes


class Tier(str, enum.Enum):
    GOLD = "gold"
    SILVER = "silver"


class Point(DataFrameModel):
    x: ModelColumn[float]
    y: ModelColumn[float | None] = ModelColumn(default=None)


class Order(DataFrameModel):
    id: ModelColumn[int]
    day: ModelColumn[datetime.date | None] = ModelColumn(default=None)
    qty: ModelColumn[int] = Field(ge=0)
    small: ModelColumn[Annotated[int, dtypes.Int32]] = ModelColumn(default=1, ge=0)
    tier: ModelColumn[Tier] = ModelColumn(default=Tier.GOLD)
    tags: ModelColumn[list[str]] = ModelColumn(default_factory=list)
    at: ModelColumn[Point | None] = ModelColumn(default=None)
    note: ModelColumn[str | None] = ModelColumn(default=None, alias="orderNote", max_length=20)
    plain: int = 0


assert_type(Order.id, Col[int])  # both
assert_type(Order.day, Col[datetime.date | None])  # both
assert_type(Order.tags, Col[list[str]])  # both
assert_type(Order.at, Col[Point | None])  # both
order = Order(id=1, qty=2)
assert_type(order.id, int)  # both
assert_type(order.day, datetime.date | None)  # both
assert_type(order.tags, list[str])  # both
assert_type(Order.plain, Col[int])

orders: DataFrame[Order] = Order.from_rows([{"id": 1, "qty": 2}])
late = orders.filter(Order.day.is_null() | (Order.id > 3))
assert_type(late, DataFrame[Order])  # both
assert_type(Order.id + 1, Expr[int])  # both
assert_type(Order.day.dt.year(), Expr[int | None])
totals = orders.group_by(Order.tier).agg(n=F.count(Order.qty))
assert_type(totals.collect()[0].n, int)
points: DataFrame[Any] = orders.join(Point.from_rows([]), left_on=Order.id, right_on=Point.x)
