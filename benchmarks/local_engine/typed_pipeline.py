"""A typed pipeline as users write one: ``as_model`` stages, explode, windows, the common string and date functions.

Shared by ``tests/substrait/test_typed_pipeline.py`` (each stage on both engines, compared) and
``typed_pipeline_test.py`` here (a user's unit-test module of it, timed by ``run.py`` on each engine).
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Annotated, Any

from pydantic import Field

from pydantable_spark import DataFrame, DataFrameModel, F, Window

UTC = datetime.timezone.utc
Money = Annotated[Decimal, Field(max_digits=10, decimal_places=2)]


class RawOrder(DataFrameModel):
    order_id: int
    customer: str
    placed_at: datetime.datetime
    items: list[str]
    quantities: list[int]
    unit_price: Money
    note: str | None


class OrderLine(DataFrameModel):
    order_id: int
    customer: str
    placed_at: datetime.datetime
    item: str
    quantity: int
    unit_price: Money
    note: str | None


class DailyCustomer(DataFrameModel):
    customer: str
    day: datetime.date
    lines: int
    quantity: int
    revenue: Decimal
    mean_quantity: float | None
    tags: str


RAW = [
    {
        "order_id": i,
        "customer": [" ann ", "Bob", "cid  ", "dee"][i % 4],
        "placed_at": datetime.datetime(2024, 2, 27, tzinfo=UTC) + datetime.timedelta(days=i % 4, minutes=i * 317),
        "items": [f"{kind}-{i % 7}" for kind in ("apple", "pear", "fig")[: 1 + i % 3]],
        "quantities": [1 + (i + k) % 5 for k in range(1 + i % 3)],
        "unit_price": Decimal(f"{(i * 37) % 200 + 0.5:.2f}"),
        "note": [None, "gift", "gift,urgent", " urgent "][i % 4],
    }
    for i in range(24)
]


def raw_orders() -> DataFrame[RawOrder]:
    return RawOrder.from_rows(RAW)


def order_lines() -> DataFrame[OrderLine]:
    """Stage 1: one row per item, customer names cleaned, typed as ``OrderLine``."""
    exploded = raw_orders().explode(["items", "quantities"]).rename({"items": "item", "quantities": "quantity"})
    cleaned = exploded.with_columns(customer=F.initcap(F.trim(RawOrder.customer)))
    return cleaned.as_model(OrderLine, null_check=["item", "quantity"])  # zipped lists may pad with NULL


def enriched() -> DataFrame[Any]:
    """Stage 2: dates, text and amounts, then windows over each customer's lines."""
    lines = order_lines()
    by_customer = Window.partition_by(OrderLine.customer).order_by(OrderLine.placed_at, OrderLine.item)
    return lines.with_columns(
        day=F.to_date(OrderLine.placed_at),
        month=F.date_format(OrderLine.placed_at, "yyyy-MM"),
        weekday=F.dayofweek(OrderLine.placed_at),
        hour=F.hour(OrderLine.placed_at),
        kind=F.split(OrderLine.item, "-").list.get(0),
        number=F.regexp_extract(OrderLine.item, r"([a-z]+)-(\d+)", 2),
        tags=F.split(F.lower(F.trim(F.coalesce(OrderLine.note, F.lit("none")))), ","),
        revenue=OrderLine.unit_price * OrderLine.quantity,
        previous=F.lag(OrderLine.quantity, 1).over(by_customer),
        running=F.sum(OrderLine.quantity).over(by_customer),
        line_number=F.row_number().over(by_customer),
    )


def daily() -> DataFrame[DailyCustomer]:
    """Stage 3: a row per customer and day, typed as ``DailyCustomer`` (NULLs checked)."""
    frame = enriched()
    return (
        frame.group_by("customer", "day")
        .agg(
            F.count(F.col("item")).alias("lines"),
            F.sum(F.col("quantity")).alias("quantity"),
            F.sum(F.col("revenue")).alias("revenue"),
            F.round(F.avg(F.col("quantity")), 2).alias("mean_quantity"),
            F.concat_ws("|", F.sort_array(F.collect_set(F.col("kind")))).alias("tags"),
        )
        .sort("customer", "day")
        .as_model(DailyCustomer, null_check=True)
    )


STAGES = {"order_lines": order_lines, "enriched": enriched, "daily": daily}
"""Each stage of the pipeline, by name."""
