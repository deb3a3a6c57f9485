"""Every kind of dataset check, valid, in a model's ``checks`` classmethod: the plugin resolves them without error.

The same resolver the model's class runs when it is defined (``checks.declare.resolve_check``) runs here on
the static schema; none of these is refused by either.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Annotated

from pydantic import Field
from typing_extensions import assert_type

from pydantable_spark import Check, DataFrameModel, F
from pydantable_spark import dtypes as dt
from pydantable_spark.constraints import ValidationReport


class Region(DataFrameModel):
    code: str
    number: Annotated[int, dt.Int32]


class Customer(DataFrameModel):
    id: int
    region: str


class Order(DataFrameModel):
    id: int
    customer_id: int | None
    region: str | None
    region_number: int
    parent: int | None
    start: datetime.date
    end: datetime.date | None
    qty: int
    note: str = Field("", alias="n.o`te")

    @classmethod
    def checks(cls) -> Sequence[Check]:
        return (
            Check.unique(cls.id, name="order_id"),
            Check.unique("n.o`te", cls.qty, name="odd_key", action="warn"),
            Check.primary_key(cls.id, "customer_id", name="pk"),
            Check.row(cls.end >= cls.start, name="ends_after_start", action="drop"),
            Check.row(cls.end.is_null() | (cls.end >= cls.start), name="ends_or_open", action="warn"),
            Check.row(F.when(cls.qty > 10, cls.note != "").otherwise(True), name="big_orders_noted"),
            Check.row(F.col("qty") >= 0, name="by_name"),
            Check.rows(min=1, name="not_empty"),
            Check.rows(min=1, max=10_000, name="bounded", action="warn"),
            Check.agg(F.max(cls.qty) <= 1000, name="qty_max"),
            Check.agg(F.coalesce(F.mean(cls.qty), F.lit(0.0)) < 50, name="qty_mean", action="warn"),
            Check.agg(F.count() >= 1, name="counted"),
            Check.agg(F.max(cls.start) >= F.current_date() - datetime.timedelta(days=7), name="fresh"),
            Check.references(cls.customer_id, Customer.id, name="customer_fk", action="drop"),
            Check.references((cls.customer_id, cls.region), (Customer.id, Customer.region), name="customer_region"),
            Check.references(cls.region_number, Region.number, name="region_number", action="warn"),
            Check.references(cls.parent, cls.id, name="parent_fk"),
        )


orders = Order.from_rows([])
report = orders.validate(key="id", references={Customer: Customer.from_rows([]), "region_number": Region.from_rows([])})
assert_type(report, ValidationReport)
assert_type(Check.references(Order.customer_id, Customer.id, name="fk"), Check)
