"""Scans keep Spark's optimizations: filters, partition pruning and column pruning reach the scan.

Files hold every column nullable, so a non-null model field is checked at run
time (``_spark/checks.py``). That check runs above the frame's filters: a
filter reads the stored value, Spark pushes it into the scan as it would for a
raw read of the same files, and a NULL in a row the filters keep still fails
the job naming the column. A NULL in a row that a filter removes is not
reported (docs/reconciliation.md). Each test reads the executed plan
(``explain(spark=True)``) and the rows.
"""

from __future__ import annotations

import contextlib
import decimal
import io
import re
from typing import TYPE_CHECKING, Annotated, Any

import pytest
from pydantic import BaseModel, Field

from pydantable_spark import DataFrameModel, F
from pydantable_spark.errors import NullCheckError

if TYPE_CHECKING:
    from pathlib import Path

    from pyspark.sql import SparkSession


class Ev(DataFrameModel):
    id: int
    day: str
    v: int
    note: str


class LooseEv(DataFrameModel):
    """The same columns, every one nullable: the rows written with NULLs in them."""

    id: int | None
    day: str | None
    v: int | None
    note: str | None


ROWS = [{"id": i, "day": f"d{i % 3}", "v": i, "note": "n" * (i % 4)} for i in range(30)]


def _physical(frame: Any) -> str:
    return frame.explain(spark=True).split("== Physical Plan ==", 1)[1]


def _scan(plan: str) -> str:
    """The line of the file scan in a physical plan."""
    lines = [line for line in plan.splitlines() if "FileScan" in line or "BatchScan" in line]
    assert len(lines) == 1, plan
    return lines[0]


@pytest.fixture(scope="module")
def lake(spark: SparkSession, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("pushdown")
    Ev.from_rows(ROWS).write_parquet(root / "parquet", partition_by="day")
    Ev.from_rows(ROWS).write_orc(root / "orc", partition_by="day")
    Ev.from_rows(ROWS).write_json(root / "json")
    return root


def test_a_non_null_model_keeps_filters_and_partition_pruning_in_the_parquet_scan(lake: Path) -> None:
    frame = Ev.read_parquet(lake / "parquet").filter((Ev.day == "d1") & (Ev.v > 10))
    scan = _scan(_physical(frame))
    assert re.search(r"PartitionFilters: \[isnotnull\(day#\d+\), \(day#\d+ = d1\)\]", scan), scan
    assert "PushedFilters: [IsNotNull(v), GreaterThan(v,10)]" in scan, scan
    assert sorted(r.id for r in frame.collect()) == [i for i in range(11, 30) if i % 3 == 1]


def test_the_pushed_filters_are_the_ones_of_a_raw_pyspark_read(spark: SparkSession, lake: Path) -> None:
    from pyspark.sql import functions as sf

    ours = _scan(_physical(Ev.read_parquet(lake / "parquet").filter((Ev.day == "d2") & (Ev.id <= 20))))
    raw = spark.read.parquet(str(lake / "parquet")).filter((sf.col("day") == "d2") & (sf.col("id") <= 20))
    shown = io.StringIO()
    with contextlib.redirect_stdout(shown):
        raw.explain()
    theirs = _scan(shown.getvalue())
    for part in ("PushedFilters", "PartitionFilters"):
        pattern = part + r": \[[^\]]*\]"
        assert re.sub(r"#\d+", "", re.search(pattern, ours)[0]) == re.sub(r"#\d+", "", re.search(pattern, theirs)[0])


def test_only_the_columns_read_reach_the_read_schema(lake: Path) -> None:
    frame = Ev.read_parquet(lake / "parquet").filter(Ev.v > 25).select("id")
    scan = _scan(_physical(frame))
    assert "ReadSchema: struct<id:bigint,v:bigint>" in scan, scan
    assert sorted(frame.to_dict()["id"]) == [26, 27, 28, 29]


def test_a_filter_over_computed_columns_still_reaches_the_scan(lake: Path) -> None:
    frame = (
        Ev.read_parquet(lake / "parquet")
        .with_columns(w=Ev.v * 2, shout=F.upper(Ev.note))
        .filter((F.col("w") > 50) & (F.col("day") == "d0"))
    )
    scan = _scan(_physical(frame))
    assert "IsNotNull(v)" in scan, scan
    assert re.search(r"PartitionFilters: \[isnotnull\(day#\d+\), \(day#\d+ = d0\)\]", scan), scan
    assert sorted(frame.to_dict()["id"]) == [27]


class Note(BaseModel):
    text: str | None = None
    amount: Annotated[decimal.Decimal, Field(max_digits=10, decimal_places=2)] | None = None


def test_a_filter_past_the_strict_text_functions_still_reaches_the_scan(lake: Path) -> None:
    frame = (
        Ev.read_parquet(lake / "parquet")
        .with_columns(
            loose=F.from_json(Ev.note, Note),
            strict=F.from_json(Ev.note, Note, {"mode": "FAILFAST"}),
            line=F.from_csv(Ev.note, Note, {"mode": "FAILFAST"}),
        )
        .filter((Ev.v > 25) & (F.col("day") == "d0"))
    )
    scan = _scan(_physical(frame))
    assert "PushedFilters: [IsNotNull(v), GreaterThan(v,25)]" in scan, scan
    assert re.search(r"PartitionFilters: \[isnotnull\(day#\d+\), \(day#\d+ = d0\)\]", scan), scan


@pytest.mark.parametrize("fmt", ["orc", "json"])
def test_other_file_formats_keep_their_pushed_filters(lake: Path, fmt: str) -> None:
    frame = getattr(Ev, f"read_{fmt}")(lake / fmt).filter(Ev.v > 25)
    scan = _scan(_physical(frame))
    assert "PushedFilters: [IsNotNull(v), GreaterThan(v,25)]" in scan, scan
    assert sorted(frame.to_dict()["id"]) == [26, 27, 28, 29]


def test_a_catalog_table_keeps_its_pushed_filters(spark: SparkSession) -> None:
    Ev.from_rows(ROWS).save_as_table("pushdown_events", partition_by="day")
    try:
        frame = Ev.read_table("pushdown_events").filter((Ev.day == "d1") & (Ev.v > 20))
        scan = _scan(_physical(frame))
        assert "PushedFilters: [IsNotNull(v), GreaterThan(v,20)]" in scan, scan
        assert re.search(r"PartitionFilters: \[isnotnull\(day#\d+\), \(day#\d+ = d1\)\]", scan), scan
        assert sorted(frame.to_dict()["id"]) == [22, 25, 28]
    finally:
        spark.sql("DROP TABLE IF EXISTS pushdown_events")


# --- the NULL check still fires where it must ----------------------------------------------------


@pytest.fixture(scope="module")
def holes(lake: Path) -> Path:
    """Parquet where ``v`` is NULL in the row id=7 and ``note`` in the row id=8 (the model says non-null)."""
    rows = [{**r, "v": None if r["id"] == 7 else r["v"], "note": None if r["id"] == 8 else r["note"]} for r in ROWS]
    LooseEv.from_rows(rows).write_parquet(lake / "holes")
    return lake / "holes"


def test_a_null_in_a_row_the_filter_keeps_fails_naming_the_column(holes: Path) -> None:
    with pytest.raises(NullCheckError, match="'v'"):
        Ev.read_parquet(holes).filter(Ev.id < 10).collect()
    with pytest.raises(NullCheckError, match="'note'"):
        Ev.read_parquet(holes).filter(Ev.id == 8).collect()


def test_a_filter_that_asks_for_the_null_keeps_the_row_and_the_check_fires(holes: Path) -> None:
    for predicate in (Ev.v.is_null(), F.coalesce(Ev.v, F.lit(-1)) == -1, ~(Ev.v >= 0) | Ev.v.is_null()):
        with pytest.raises(NullCheckError, match="'v'"):
            Ev.read_parquet(holes).filter(predicate).collect()


def test_a_null_in_a_row_that_a_filter_removes_is_not_reported(holes: Path) -> None:
    frame = Ev.read_parquet(holes).filter(Ev.id > 20)
    assert sorted(r.id for r in frame.collect()) == list(range(21, 30))
    assert sorted(frame.filter(Ev.v > 25).to_dict()["id"]) == [26, 27, 28, 29]


def test_a_null_in_a_column_the_result_reads_after_the_filter_fails(holes: Path) -> None:
    frame = Ev.read_parquet(holes).filter(Ev.v > 5).select("id", "note")
    with pytest.raises(NullCheckError, match="'note'"):
        frame.collect()
    # the column is not in the result and no filter reads it: the NULL never reaches a value
    assert 8 in Ev.read_parquet(holes).filter(Ev.v > 5).select("id").to_dict()["id"]


def test_the_checked_columns_keep_the_model_nullability_for_spark(holes: Path, agrees: Any) -> None:
    frame = Ev.read_parquet(holes).filter(Ev.id > 20).with_columns(w=Ev.v + 1)
    agrees(frame)
    assert frame.schema["w"].nullable is False


# --- through joins and row-preserving steps -------------------------------------------------------


class Day(DataFrameModel):
    day: str
    label: str


DAYS = [{"day": "d0", "label": "zero"}, {"day": "d1", "label": "one"}]


@pytest.fixture(scope="module")
def days(lake: Path) -> Path:
    Day.from_rows(DAYS).write_parquet(lake / "days")
    return lake / "days"


def _scans(plan: str) -> list[str]:
    return [line for line in plan.splitlines() if "FileScan" in line]


def test_a_filter_after_a_join_reaches_the_scan_of_its_side(lake: Path, days: Path) -> None:
    joined = Ev.read_parquet(lake / "parquet").join(Day.read_parquet(days), on="day")
    frame = joined.filter((Ev.v > 20) & (Day.label == "one"))
    scans = _scans(_physical(frame))
    events = next(s for s in scans if "ReadSchema: struct<id:bigint,v:bigint,note:string>" in s)
    assert "GreaterThan(v,20)" in events, scans
    labels = next(s for s in scans if "struct<day:string,label:string>" in s)
    assert "EqualTo(label,one)" in labels, scans
    assert sorted(frame.to_dict()["id"]) == [22, 25, 28]


def test_a_filter_after_a_sort_and_a_repartition_reaches_the_scan(lake: Path) -> None:
    frame = Ev.read_parquet(lake / "parquet").sort(Ev.id).repartition(3).filter(Ev.v > 26)
    assert "PushedFilters: [IsNotNull(v), GreaterThan(v,26)]" in _scan(_physical(frame))
    assert sorted(frame.to_dict()["id"]) == [27, 28, 29]


def test_a_null_read_through_a_join_or_a_sort_still_fails(holes: Path, days: Path) -> None:
    # row 7 (v NULL) has day d1, which Day holds: the joined row reaches the result
    with pytest.raises(NullCheckError, match="'v'"):
        Ev.read_parquet(holes).join(Day.read_parquet(days), on="day").collect()
    with pytest.raises(NullCheckError, match="'v'"):
        Ev.read_parquet(holes).sort(Ev.id).collect()
    loose = LooseEv.from_rows([{"id": 1, "day": "d1", "v": 1, "note": "x"}])
    right = Ev.read_parquet(holes).filter(Ev.id < 10)
    with pytest.raises(NullCheckError, match="'v'"):  # the right side of a left join keeps its check
        loose.join(right, on="day", how="left").collect()


def test_a_join_key_holding_a_null_fails_instead_of_dropping_the_row(lake: Path, days: Path) -> None:
    rows = [{**r, "day": None if r["id"] == 4 else r["day"]} for r in ROWS]
    LooseEv.from_rows(rows).write_parquet(lake / "null_key")
    with pytest.raises(NullCheckError, match="'day'"):
        Ev.read_parquet(lake / "null_key").join(Day.read_parquet(days), on="day").collect()


def test_a_join_reads_and_checks_only_the_columns_its_result_uses(holes: Path, days: Path) -> None:
    joined = Ev.read_parquet(holes).join(Day.read_parquet(days), on="day")
    frame = joined.select("id", "label")
    assert 7 in frame.to_dict()["id"]  # row 7 holds a NULL v, which no result of this frame holds
    events = next(s for s in _scans(_physical(frame)) if "ReadSchema: struct<id:bigint,day:string>" in s)
    assert "v:" not in events.split("ReadSchema")[1]
    with pytest.raises(NullCheckError, match="'v'"):
        joined.select("id", "v").collect()
