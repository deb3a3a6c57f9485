"""Window functions and aggregates over windows: values, types and nullability, frames, errors."""

from __future__ import annotations

from typing import Any

import pytest
from pyspark.sql import SparkSession

from pydantable_spark import DataFrameModel, F, Window
from pydantable_spark.errors import ArgumentValueError, ColumnTypeError


class Pay(DataFrameModel):
    dept: str
    name: str
    salary: int
    bonus: float | None


ROWS = [
    {"dept": "a", "name": "x", "salary": 10, "bonus": 1.0},
    {"dept": "a", "name": "y", "salary": 20, "bonus": None},
    {"dept": "a", "name": "z", "salary": 20, "bonus": 3.0},
    {"dept": "b", "name": "w", "salary": 5, "bonus": 2.0},
]


@pytest.fixture(scope="module")
def pay(spark: SparkSession) -> Any:
    return Pay.from_rows(ROWS)


def test_ranking_and_offset_functions(pay: Any, agrees: Any) -> None:
    w = Window.partition_by("dept").order_by(Pay.salary, "name")
    out = pay.with_columns(
        rn=F.row_number().over(w),
        rank=F.rank().over(Window.partition_by("dept").order_by("salary")),
        dense=F.dense_rank().over(Window.partition_by("dept").order_by("salary")),
        pct=F.percent_rank().over(w),
        cume=F.cume_dist().over(w),
        tile=F.ntile(2).over(w),
        prev=F.lag(Pay.salary).over(w),
        prev0=F.lag(Pay.salary, 1, 0).over(w),
        nxt=F.lead("salary", 2).over(w),
        first=F.first_value(Pay.name).over(w),
        second=F.nth_value(Pay.name, 2).over(w),
    )
    agrees(out)
    schema = out.schema
    assert [schema[c].nullable for c in ("rn", "rank", "dense", "pct", "cume", "tile", "prev0")] == [False] * 7
    assert [schema[c].nullable for c in ("prev", "nxt", "first", "second")] == [True] * 4
    got = out.filter(F.col("dept") == "a").sort("name").to_dict()
    assert got["rn"] == [1, 2, 3]
    assert got["rank"] == [1, 2, 2]
    assert got["dense"] == [1, 2, 2]
    assert got["prev"] == [None, 10, 20]
    assert got["prev0"] == [0, 10, 20]
    assert got["nxt"] == [20, None, None]
    assert got["first"] == ["x", "x", "x"]
    assert got["second"] == [None, "y", "y"]


def test_aggregates_over_windows_and_frames(pay: Any, agrees: Any) -> None:
    running = Window.partition_by("dept").order_by("salary", "name").rows_between(None, 0)
    around = Window.order_by("salary").range_between(-5, 5)
    out = pay.with_columns(
        running=F.sum(Pay.salary).over(running),
        n=F.count().over(Window.partition_by("dept")),
        near=F.count().over(around),
        last=F.last_value(Pay.bonus, ignoreNulls=True).over(
            Window.partition_by("dept").order_by("name").rows_between(None, None)
        ),
    )
    agrees(out)
    got = out.sort("dept", "salary", "name").to_dict()
    assert got["running"] == [10, 30, 50, 5]
    assert got["n"] == [3, 3, 3, 1]
    assert got["near"] == [2, 2, 2, 2]
    assert got["last"] == [3.0, 3.0, 3.0, 2.0]


def test_filtering_on_a_window_column(pay: Any, agrees: Any) -> None:
    top = (
        pay.with_columns(rn=F.row_number().over(Window.partition_by("dept").order_by("salary", descending=True)))
        .filter(F.col("rn") == 1)
        .select("dept", "salary")
    )
    assert top.sort("dept").to_dict() == {"dept": ["a", "b"], "salary": [20, 5]}
    agrees(top)


def test_window_errors(pay: Any) -> None:
    with pytest.raises(ColumnTypeError, match="row_number.. needs a window"):
        pay.with_columns(rn=F.row_number())
    with pytest.raises(ColumnTypeError, match="needs an ordered window"):
        pay.with_columns(rn=F.rank().over(Window.partition_by("dept")))
    with pytest.raises(ColumnTypeError, match="over.. applies to window functions and aggregates"):
        pay.with_columns(x=(Pay.salary + 1).over(Window.partition_by("dept")))
    with pytest.raises(ColumnTypeError, match="range_between.. needs exactly one numeric"):
        pay.with_columns(x=F.sum(Pay.salary).over(Window.order_by("salary", "name").range_between(-1, 1)))
    with pytest.raises(ColumnTypeError, match="uses a window"):
        pay.filter(F.row_number().over(Window.order_by("salary")) == 1)
    with pytest.raises(ValueError, match="must not end"):
        Window.order_by("salary").rows_between(2, 1)
    with pytest.raises(ValueError, match="2 column"):
        Window.order_by("salary", "name", descending=[True])
    with pytest.raises(ArgumentValueError, match=r"ntile\(\): n must be between 1 and"):
        pay.with_columns(t=F.ntile(0).over(Window.order_by("salary")))
    with pytest.raises(ColumnTypeError, match="default"):
        pay.with_columns(p=F.lag(Pay.salary, 1, "x").over(Window.order_by("salary")))
