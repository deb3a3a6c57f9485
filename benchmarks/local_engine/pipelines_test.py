"""A typical unit-test module of a pipeline: 20 small pipelines, each checked on its result.

Run by ``run.py`` once with ``PIPELINE_ENGINE=local`` (DataFusion, no JVM) and once with ``spark`` (the embedded
local SparkSession the library starts); ``run.py`` times the whole process, start included.
"""

from __future__ import annotations

import datetime
import os

import pytest

from pydantable_spark import DataFrame, DataFrameModel, F

ENGINE = os.environ.get("PIPELINE_ENGINE", "local")


class Order(DataFrameModel):
    id: int
    customer: str
    amount: int
    price: float
    coupon: str | None
    day: datetime.date


class Customer(DataFrameModel):
    customer: str
    country: str | None


ORDERS = [
    {"id": i, "customer": f"c{i % 5}", "amount": (i * 7) % 11 - 3, "price": i * 1.25,
     "coupon": None if i % 3 else f"K{i}", "day": datetime.date(2024, 1 + i % 12, 1 + i % 28)}
    for i in range(40)
]  # fmt: skip
CUSTOMERS = [{"customer": f"c{i}", "country": None if i == 3 else ["no", "it", "fr"][i % 3]} for i in range(6)]


def orders() -> DataFrame[Order]:
    return Order.from_rows(ORDERS)


def customers() -> DataFrame[Customer]:
    return Customer.from_rows(CUSTOMERS)


def rows(frame: DataFrame[object]) -> dict[str, list[object]]:
    return frame.to_dict(engine=ENGINE)  # type: ignore[arg-type]


PIPELINES = {
    "positive": lambda: orders().filter(Order.amount > 0).select(Order.id),
    "coupons": lambda: orders().filter(Order.coupon.is_not_null()).select(Order.id, F.upper(Order.coupon).alias("c")),
    "revenue": lambda: orders().select((Order.price * Order.amount).alias("revenue"), Order.id),
    "by_customer": lambda: orders().group_by("customer").agg(F.sum(Order.amount).alias("total")).sort("customer"),
    "averages": lambda: orders().group_by("customer").agg(F.avg(Order.price).alias("mean")).sort("customer"),
    "counts": lambda: orders().group_by("customer").agg(F.count(Order.coupon).alias("n")).sort("customer"),
    "top3": lambda: orders().sort(Order.price, descending=True).limit(3).select(Order.id),
    "skip": lambda: orders().sort(Order.id).offset(35).select(Order.id),
    "with_country": lambda: orders().join(customers(), on="customer").select(Order.id, Customer.country),
    "left": lambda: orders().join(customers(), on="customer", how="left").filter(Customer.country.is_null()),
    "no_orders": lambda: customers().join(orders(), on="customer", how="anti"),
    "buyers": lambda: customers().join(orders(), on="customer", how="semi"),
    "distinct_days": lambda: orders().select(Order.day).unique().sort(Order.day),
    "labels": lambda: orders().select(
        Order.id, F.when(Order.amount > 3, "big").when(Order.amount < 0, "refund").otherwise("small").alias("size")
    ),
    "coalesced": lambda: orders().select(Order.id, F.coalesce(Order.coupon, Order.customer).alias("tag")),
    "in_list": lambda: orders().filter(Order.customer.is_in(["c1", "c2"])).select(Order.id),
    "early": lambda: orders().filter(Order.day < datetime.date(2024, 3, 1)).select(Order.id),
    "union": lambda: orders().filter(Order.id < 3).union(orders().filter(Order.id > 37)).select(Order.id),
    "lengths": lambda: orders().select(Order.id, F.length(Order.customer).alias("n")),
    "totals": lambda: orders().select(F.sum(Order.amount).alias("units"), F.max(Order.amount).alias("top")),
}


@pytest.mark.parametrize("name", list(PIPELINES))
def test_pipeline(name: str) -> None:
    result = rows(PIPELINES[name]())
    assert result, name
    assert all(len(values) == len(next(iter(result.values()))) for values in result.values())
