"""group_by().agg(), global aggregates, broadcast aggregates; all-NULL groups as the contract says."""

from __future__ import annotations

import decimal
from typing import Annotated, Any

import pytest
from pyspark.sql import SparkSession

from pydantable_spark import DataFrameModel, F
from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ArgumentTypeError, ArgumentValueError, ColumnTypeError


class Sale(DataFrameModel):
    shop: str | None
    amount: float | None
    qty: int
    price: Annotated[decimal.Decimal, dt.Decimal(10, 2)]


ROWS = [
    {"shop": "a", "amount": 1.0, "qty": 1, "price": "1.00"},
    {"shop": "a", "amount": 3.0, "qty": 2, "price": "2.00"},
    {"shop": "b", "amount": None, "qty": 3, "price": "3.00"},
    {"shop": None, "amount": 4.0, "qty": 4, "price": "4.00"},
]


@pytest.fixture(scope="module")
def sales(spark: SparkSession) -> Any:
    return Sale.from_rows(ROWS)


def test_every_aggregate_with_all_null_groups(sales: Any, agrees: Any) -> None:
    out = sales.group_by("shop").agg(
        rows=F.count(),
        amounts=F.count(Sale.amount),
        total=F.sum(Sale.amount),
        qty=F.sum(Sale.qty),
        price=F.sum(Sale.price),
        mean=F.mean(Sale.amount),
        avg_price=F.avg(Sale.price),
        low=F.min(Sale.amount),
        high=F.max(Sale.amount),
        median=F.median(Sale.qty),
        std=F.std(Sale.qty),
        var=F.var(Sale.qty),
        first=F.first(Sale.amount),
        last=F.last(Sale.qty),
        distinct=F.count_distinct(Sale.amount),
        listed=F.collect_list(Sale.amount),
        kinds=F.collect_set(Sale.qty),
    )
    agrees(out)
    schema = out.schema
    assert not schema["shop"].nullable  # NULL keys are dropped by default
    assert [schema[c].nullable for c in ("rows", "amounts", "distinct", "listed", "kinds")] == [False] * 5
    assert [schema[c].nullable for c in ("total", "mean", "low", "median", "first")] == [True] * 5
    assert str(schema["price"].dtype) == "decimal(20,2)"
    assert str(schema["avg_price"].dtype) == "decimal(14,6)"
    got = {row.shop: row for row in out.collect()}
    assert set(got) == {"a", "b"}
    assert (got["a"].rows, got["a"].total, got["a"].qty, got["a"].listed) == (2, 4.0, 3, [1.0, 3.0])
    b = got["b"]  # a group whose amounts are all NULL
    assert (b.amounts, b.total, b.mean, b.low, b.distinct, b.listed) == (0, None, None, None, 0, [])


def test_null_keys_kept_when_asked_and_order_maintained(sales: Any, agrees: Any) -> None:
    out = sales.group_by(Sale.shop, drop_nulls=False, maintain_order=True).agg(n=F.count())
    assert out.schema["shop"].nullable
    assert out.to_dict() == {"shop": ["a", "b", None], "n": [2, 1, 1]}
    agrees(out)


def test_tuple_form_computed_keys_and_count(sales: Any, agrees: Any) -> None:
    out = sales.group_by((Sale.qty % 2).alias("odd")).agg(total=("sum", "qty"), top=("max", "amount"))
    assert out.sort("odd").to_dict() == {"odd": [0, 1], "total": [6, 4], "top": [4.0, 1.0]}
    agrees(out)
    assert sales.group_by("shop").count().sort("shop").to_dict() == {"shop": ["a", "b"], "count": [2, 1]}


def test_global_aggregates_in_select(sales: Any, agrees: Any) -> None:
    out = sales.select(F.sum(Sale.qty), n=F.count(), ratio=F.sum(Sale.qty) / F.count())
    assert out.to_dict() == {"qty": [10], "n": [4], "ratio": [2.5]}
    agrees(out)
    with pytest.raises(ColumnTypeError, match="shop is not an aggregate"):
        sales.select(Sale.shop, F.count())


def test_aggregates_in_with_columns_repeat_the_total(sales: Any, agrees: Any) -> None:
    out = sales.with_columns(share=Sale.qty / F.sum(Sale.qty))
    assert sorted(out.to_dict()["share"]) == [0.1, 0.2, 0.3, 0.4]
    agrees(out)


def test_aggregation_errors(sales: Any) -> None:
    grouped = sales.group_by("shop")
    with pytest.raises(ColumnTypeError, match="is not an aggregate"):
        grouped.agg(x=Sale.qty + 1)
    with pytest.raises(ColumnTypeError, match="outside an aggregate function"):
        grouped.agg(x=F.sum(Sale.qty) + Sale.qty)
    with pytest.raises(ColumnTypeError, match="cannot be nested"):
        grouped.agg(x=F.sum(F.max(Sale.qty)))
    with pytest.raises(ArgumentValueError, match="unknown aggregation"):
        grouped.agg(x=("total", "qty"))
    with pytest.raises(ArgumentTypeError, match="at least one aggregate"):
        grouped.agg()
    with pytest.raises(ColumnTypeError, match=r"F.sum\(\): col must be a number; got column .Sale.shop."):
        F.sum(Sale.shop)
    with pytest.raises(ArgumentTypeError, match="at least one key"):
        sales.group_by()
    with pytest.raises(ColumnTypeError, match="aggregates rows"):
        sales.filter(F.sum(Sale.qty) > 1)
    with pytest.raises(ColumnTypeError, match="aggregates rows"):
        sales.sort(F.count())


def test_approx_count_distinct_takes_only_errors_hyperloglog_can_hold(sales: Any) -> None:
    # Spark refuses 0.3911 when the plan runs, and a tiny error such as 1e-6 (2 ** 41 registers) crashes its JVM
    for rsd in (0.3911, 0.5, 0.0, -0.1, 1e-6, 0.000999):
        with pytest.raises(ArgumentValueError, match=r"rsd must be at least 0.001 and below 0.391"):
            F.approx_count_distinct("shop", rsd)
    got = sales.select(exact=F.count_distinct("shop"), near=F.approx_count_distinct("shop", 0.39))
    assert got.to_dict()["near"] == got.to_dict()["exact"]
