"""Time buckets as group_by keys: F.window, F.session_window and F.window_time against PySpark's own."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from pydantic import NaiveDatetime
from pyspark.sql import SparkSession
from pyspark.sql import functions as sf

from pydantable_spark import DataFrame, DataFrameModel, F
from pydantable_spark.errors import ArgumentTypeError, ArgumentValueError, ColumnTypeError


class Event(DataFrameModel):
    at: datetime.datetime
    seen: datetime.datetime | None
    local: NaiveDatetime | None
    v: int


def _at(minute: int) -> datetime.datetime:
    return datetime.datetime(2024, 1, 1, 10, minute, tzinfo=datetime.UTC)


ROWS = [
    {"at": _at(1), "seen": _at(2), "local": datetime.datetime(2024, 1, 1, 9, 1), "v": 1},
    {"at": _at(4), "seen": None, "local": datetime.datetime(2024, 1, 1, 9, 4), "v": 2},
    {"at": _at(12), "seen": _at(30), "local": None, "v": 4},
    {"at": _at(29), "seen": _at(31), "local": datetime.datetime(2024, 1, 1, 9, 40), "v": 8},
    {"at": _at(47), "seen": None, "local": datetime.datetime(2024, 1, 1, 9, 41), "v": 16},
]


@pytest.fixture(scope="module")
def events(spark: SparkSession) -> Any:
    return Event.from_rows(ROWS)


def _rows(frame: Any) -> list[tuple[Any, ...]]:
    """A frame's rows as sorted tuples, a struct as its values: the same shape on both sides."""
    table = frame.to_arrow() if isinstance(frame, DataFrame) else frame.toArrow()  # a Connect frame has any attribute
    rows = []
    for row in table.to_pylist():
        rows.append(tuple(tuple(v.values()) if isinstance(v, dict) else v for v in row.values()))
    return sorted(rows, key=repr)


def test_a_tumbling_window_groups_as_pysparks(events: Any, agrees: Any) -> None:
    out = events.group_by(F.window(Event.at, "10 minutes")).agg(F.sum(Event.v).alias("total"))
    agrees(out)
    assert str(out.schema["window"]) == "window: struct<start:timestamp,end:timestamp> not null"
    plain = events.to_spark().groupBy(sf.window("at", "10 minutes")).agg(sf.sum("v").alias("total"))
    assert _rows(out) == _rows(plain)
    assert len(_rows(out)) == 4


def test_a_sliding_window_with_a_start_given_as_timedeltas(events: Any, agrees: Any) -> None:
    """A row falls in several sliding windows; Spark types the key nullable (a tumbling one not)."""
    minutes = datetime.timedelta(minutes=1)
    bucket = F.window("at", 20 * minutes, 10 * minutes, startTime=-3 * minutes).alias("w")
    out = events.group_by(bucket).agg(F.count().alias("n"), F.max("v").alias("top"))
    agrees(out)
    plain = (
        events.to_spark()
        .groupBy(sf.window("at", "20 minutes", "10 minutes", "-3 minutes").alias("w"))
        .agg(sf.count("*").alias("n"), sf.max("v").alias("top"))
    )
    assert _rows(out) == _rows(plain)
    assert sum(row[1] for row in _rows(out)) == 2 * len(ROWS)  # every row falls in two windows


def test_a_session_window_and_its_window_time(events: Any, agrees: Any) -> None:
    out = (
        events.group_by(F.session_window(Event.at, "10 minutes"), "v")
        .agg(F.count().alias("n"))
        .with_columns(last=F.window_time("session_window"))
    )
    agrees(out)
    assert out.schema["session_window"].nullable is False
    plain = (
        events.to_spark()
        .groupBy(sf.session_window("at", "10 minutes"), "v")
        .agg(sf.count("*").alias("n"))
        .withColumn("last", sf.window_time("session_window"))
    )
    assert _rows(out) == _rows(plain)


def test_sessions_merge_times_at_most_the_gap_apart(events: Any) -> None:
    out = events.group_by(F.session_window("at", datetime.timedelta(minutes=18))).agg(F.sum("v").alias("total"))
    got = sorted(out.to_dict()["total"])
    plain = events.to_spark().groupBy(sf.session_window("at", "18 minutes")).agg(sf.sum("v").alias("total"))
    assert got == sorted(r.total for r in plain.collect()) == [1 + 2 + 4 + 8 + 16]


def test_a_naive_time_column_gives_naive_bounds(events: Any, agrees: Any) -> None:
    out = events.group_by(F.window(F.col("local"), "30 minutes")).agg(F.count().alias("n"))
    agrees(out)
    assert str(out.schema["window"].dtype) == "struct<start:timestamp_ntz,end:timestamp_ntz>"
    assert out.schema["window"].nullable is False  # a tumbling window: Spark leaves the NULL times out
    plain = events.to_spark().groupBy(sf.window("local", "30 minutes")).agg(sf.count("*").alias("n"))
    assert _rows(out) == _rows(plain)
    assert sum(row[1] for row in _rows(out)) == 4  # the row whose time is NULL is in no window


def test_window_time_is_the_last_instant_of_each_window(events: Any, agrees: Any) -> None:
    out = events.group_by(F.window(Event.at, "1 hour").alias("hour")).agg(F.count().alias("n"))
    last = out.select(F.window_time(F.col("hour")).alias("last"))
    agrees(last)
    assert last.to_dict()["last"] == [datetime.datetime(2024, 1, 1, 10, 59, 59, 999999, tzinfo=datetime.UTC)]


def test_rows_whose_time_is_null_cannot_be_kept(events: Any) -> None:
    with pytest.raises(ColumnTypeError, match=r"leaves out the rows whose time is NULL.*fill or filter the NULL times"):
        events.group_by(F.window("seen", "10 minutes"), drop_nulls=False).agg(F.count().alias("n"))
    kept = events.group_by(F.window("at", "10 minutes"), drop_nulls=False).agg(F.count().alias("n"))
    assert sum(kept.to_dict()["n"]) == len(ROWS)  # a non-null time column: nothing to keep


@pytest.mark.parametrize(
    ("use", "where"),
    [
        (lambda f, b: f.select(b), "select()"),
        (lambda f, b: f.with_columns(w=b), "select()"),
        (lambda f, b: f.filter(b.struct.field("start") > _at(0)), "filter()"),
        (lambda f, b: f.sort(b), "sort()"),
        (lambda f, b: f.group_by("v").agg(F.max(b.struct.field("end")).alias("m")), "agg()"),
        (lambda f, b: f.group_by(b.struct.field("start")).agg(F.count().alias("n")), "inside another expression"),
        (lambda f, b: f.group_by(b, F.session_window("at", "5 minutes")).agg(F.count().alias("n")), "two time buckets"),
    ],
)
def test_a_time_bucket_stands_only_as_a_group_key(events: Any, use: Any, where: str) -> None:
    with pytest.raises(ColumnTypeError, match=where) as error:
        use(events, F.window(Event.at, "10 minutes"))
    assert "time bucket" in str(error.value)


def test_a_time_bucket_is_no_window_function(events: Any) -> None:
    from pydantable_spark import Window

    with pytest.raises(ColumnTypeError, match="window"):
        F.window(Event.at, "10 minutes").over(Window.order_by(Event.v))


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: F.window("at", "1 month"), ArgumentValueError, "windowDuration holds months or years"),
        (lambda: F.window("at", "10 mins"), ArgumentValueError, "has the unit 'mins'"),
        (lambda: F.window("at", "1.5 hours"), ArgumentValueError, "is not an interval"),
        (lambda: F.window("at", "0 seconds"), ArgumentValueError, "must be a positive duration"),
        (lambda: F.window("at", datetime.timedelta(0)), ArgumentValueError, "must be a positive duration"),
        (lambda: F.window(Event.at, "5 minutes", "10 minutes"), ColumnTypeError, "slideDuration .* is longer than"),
        (lambda: F.window(Event.at, "10 minutes", None, "10 minutes"), ColumnTypeError, "startTime .* must be shorter"),
        (lambda: F.window("at", 600), ArgumentTypeError, "windowDuration must be str or timedelta"),
        (lambda: F.window(Event.v, "1 day"), ColumnTypeError, "timeColumn must be a date or datetime"),
        (lambda: F.session_window("at", "-5 minutes"), ArgumentValueError, "gapDuration must be a positive"),
        (lambda: F.session_window("at", Event.v), ArgumentTypeError, "gapDuration takes a Python value"),
        (lambda: F.window_time(Event.at), ColumnTypeError, "windowColumn must be a time bucket"),
    ],
)
def test_bad_durations_and_columns_are_refused_when_called(call: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        call()


def test_a_duration_reaches_spark_as_the_microseconds_parsed() -> None:
    from pydantable_spark._spark.sql import to_sql

    text = to_sql(F.window(Event.at, "interval 1 HOUR 30 minutes", "45 minutes").node)
    assert text == "window(`at`, 5400000000L, 2700000000L, 0L)"
    gap = to_sql(F.session_window(Event.at, datetime.timedelta(seconds=90)).node)
    assert b"90000000 microseconds".hex() in gap.lower()
