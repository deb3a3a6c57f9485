"""Window functions and aggregates over windows: values, types and nullability, frames, errors."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from pyspark.sql import SparkSession
from pyspark.sql import Window as SparkWindow
from pyspark.sql import functions as sf

from pydantable_spark import DataFrameModel, F, Window
from pydantable_spark.errors import ArgumentValueError, ColumnTypeError
from pydantable_spark.expr.over import FIXED_FRAMES


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
    with pytest.raises(ColumnTypeError, match=r"range_between\(-1, 1\) needs exactly one numeric"):
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


# --- frames Spark's analyzer refuses are refused when the plan is built (Spark 4.3's rules) ----------


class Event(DataFrameModel):
    kind: str
    day: datetime.date
    at: datetime.datetime
    n: int


EVENTS = [
    {"kind": "a", "day": datetime.date(2024, 1, d), "at": datetime.datetime(2024, 1, d, tzinfo=datetime.UTC), "n": d}
    for d in (1, 2, 4)
]


@pytest.mark.parametrize("name", ["row_number", "rank", "dense_rank", "percent_rank", "ntile", "cume_dist"])
def test_a_ranking_function_takes_only_the_frame_spark_fixes(spark: SparkSession, name: str) -> None:
    fixed = FIXED_FRAMES[name]
    assert fixed is not None
    function = F.ntile(2) if name == "ntile" else getattr(F, name)()
    frame = Window.partition_by("kind").order_by("n")
    with pytest.raises(
        ColumnTypeError, match=rf"{name}\(\) runs over a frame Spark fixes: .*not rows_between\(-1, 1\)"
    ):
        Event.from_rows(EVENTS).with_columns(r=function.over(frame.rows_between(-1, 1)))
    spelled = frame.rows_between(None, 0) if fixed.kind == "rows" else frame.range_between(None, 0)
    ours = Event.from_rows(EVENTS).with_columns(r=function.over(spelled)).sort("n").to_dict()["r"]
    raw = getattr(sf, name)(2) if name == "ntile" else getattr(sf, name)()
    spark_frame = SparkWindow.partitionBy("kind").orderBy("n")
    spark_frame = (
        spark_frame.rowsBetween(SparkWindow.unboundedPreceding, 0)
        if fixed.kind == "rows"
        else spark_frame.rangeBetween(SparkWindow.unboundedPreceding, 0)
    )
    theirs = spark.createDataFrame([(e["kind"], e["n"]) for e in EVENTS], "kind string, n long")
    assert ours == [row["r"] for row in theirs.select("n", raw.over(spark_frame).alias("r")).sort("n").collect()]


@pytest.mark.parametrize("name", ["lag", "lead"])
def test_lag_and_lead_take_no_frame(name: str) -> None:
    window = Window.order_by("n").rows_between(-1, -1)
    with pytest.raises(ColumnTypeError, match=rf"{name}\(\) runs over a frame Spark fixes: its window takes no frame"):
        Event.from_rows(EVENTS).with_columns(x=getattr(F, name)(Event.n).over(window))


def test_a_range_frame_with_offsets_needs_one_numeric_order_key() -> None:
    events = Event.from_rows(EVENTS)
    for key in ("day", "at", "kind"):
        with pytest.raises(ColumnTypeError, match=r"range_between\(-1, 1\) needs exactly one numeric order key"):
            events.with_columns(s=F.sum(Event.n).over(Window.order_by(key).range_between(-1, 1)))
    days = events.with_columns(s=F.sum(Event.n).over(Window.order_by(F.unix_date(Event.day)).range_between(-1, 0)))
    assert days.sort("n").to_dict()["s"] == [1, 3, 4]  # the way the message offers: Jan 2 sums Jan 1 and 2 only


def test_a_range_frame_without_offsets_takes_any_order_keys(spark: SparkSession) -> None:
    events = Event.from_rows(EVENTS)
    running = Window.order_by("day", "kind").range_between(None, 0)
    out = events.with_columns(
        s=F.sum(Event.n).over(running), t=F.sum(Event.n).over(Window.order_by("at").range_between(0, None))
    )
    assert out.sort("n").to_dict()["s"] == [1, 3, 7]
    assert out.sort("n").to_dict()["t"] == [7, 6, 4]
    with pytest.raises(ColumnTypeError, match=r"range_between\(None, 0\) needs an ordered window"):
        events.with_columns(s=F.sum(Event.n).over(Window.partition_by("kind").range_between(None, 0)))
    whole = events.with_columns(s=F.sum(Event.n).over(Window.partition_by("kind").range_between(None, None)))
    assert whole.to_dict()["s"] == [7, 7, 7]
