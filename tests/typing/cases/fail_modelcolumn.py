"""``ModelColumn[T]`` mistakes: every rule of the plugin applies to the ``T``, and ``ModelColumn`` outside a model."""

from __future__ import annotations

import datetime

from pydantable_spark import DataFrameModel, F, ModelColumn


class Order(DataFrameModel):
    id: ModelColumn[int]
    name: ModelColumn[str]
    day: ModelColumn[datetime.date | None] = ModelColumn(default=None)
    qty: ModelColumn[int] = ModelColumn(default="x")  # E: Incompatible types in assignment


class NotAModel:
    x: ModelColumn[int]  # E: declares a column of a DataFrameModel, but class NotAModel is no DataFrameModel


orders = Order.from_rows([])
Order(id="x", name="a")  # E: Argument "id" to "Order" has incompatible type "str"
Order(id=1)  # E: Missing named argument "name"
_ = Order.name + 1  # E: Unsupported operand types for +
orders.select(F.col("nmae"))  # E: unknown column 'nmae'
orders.with_columns(d=Order.day.dt.year()).select(Order.nope)  # E: has no attribute "nope"
