"""Stateful operators on streams: duplicates dropped within the watermark, session windows, joins of two streams.

The rules are JVM-free (checked when the plan is built, or before a query starts); the Spark tests run each
operator on small JSON file streams, several micro-batches each (``max_files_per_trigger=1``), and compare every
row with the same query written by hand in plain PySpark.
"""

from __future__ import annotations

import datetime
import json
import os
import re
import time
from pathlib import Path
from typing import Any

import pytest
from pyspark.errors import AnalysisException
from pyspark.sql import DataFrame as SparkDataFrame
from pyspark.sql import SparkSession

from pydantable_spark import DataFrameModel, F
from pydantable_spark._spark.lower import lower
from pydantable_spark._spark.types import fields_of_struct
from pydantable_spark.errors import ColumnTypeError, StreamingError, UnknownColumnError
from pydantable_spark.schema import Schema


class Reading(DataFrameModel):
    at: datetime.datetime
    id: int
    sensor: str


def _readings(path: str | Path = "/nonexistent/readings") -> Any:
    return Reading.read_stream_json(path, max_files_per_trigger=1)


def _marked(path: str | Path = "/nonexistent/readings", delay: str = "5 minutes") -> Any:
    return _readings(path).with_watermark(Reading.at, delay)


def _json_lines(path: Path, name: str, rows: list[dict[str, Any]]) -> None:
    """A JSON Lines file, its modification time a second after the directory's last (Spark reads them in that order)."""
    path.mkdir(parents=True, exist_ok=True)
    last = max((f.stat().st_mtime for f in path.iterdir()), default=time.time() - 3600)
    (path / name).write_text("".join(json.dumps(row) + "\n" for row in rows))
    os.utime(path / name, (last + 1, last + 1))


def _at(minutes: float) -> str:
    return (datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(minutes=minutes)).strftime(
        "%Y-%m-%dT%H:%M:%SZ"
    )


def _run(frame: SparkDataFrame, name: str, mode: str = "append") -> list[tuple[Any, ...]]:
    """Plain PySpark: ``frame`` into the memory sink, what is there now, then its rows as sorted tuples."""
    query = frame.writeStream.format("memory").queryName(name).outputMode(mode).trigger(availableNow=True).start()
    query.awaitTermination(120)
    spark = frame.sparkSession
    return sorted(tuple(row) for row in spark.table(name).collect())


def _typed(frame: Any, name: str, spark: SparkSession, mode: str = "append") -> list[tuple[Any, ...]]:
    """The façade: ``frame`` into the memory sink, then its rows as sorted tuples."""
    assert frame.write_stream_memory(name, output_mode=mode, available_now=True).await_termination(120) is True
    return sorted(tuple(row) for row in spark.table(name).collect())


def _escaped(text: str) -> str:
    return re.escape(text)


# --- JVM-free: what is refused when the plan is built, or before start -------------------------------------


REFUSED: dict[str, tuple[Any, type[Exception], str]] = {
    "dedup within the watermark, no watermark": (
        lambda: _readings().drop_duplicates_within_watermark("id"),
        StreamingError,
        "drop_duplicates_within_watermark('id') on a stream: Spark drops duplicates within the watermark only on "
        "a stream that carries an event-time watermark",
    ),
    "dedup within the watermark, after an aggregation": (
        lambda: (
            _marked().group_by(F.window(Reading.at, "1 minute")).agg(n=F.count()).drop_duplicates_within_watermark("n")
        ),
        NotImplementedError,
        "drop_duplicates_within_watermark('n') over an aggregation of a stream is not offered yet",
    ),
    "dedup within the watermark, an unknown key": (
        lambda: _marked().drop_duplicates_within_watermark("idd"),
        UnknownColumnError,
        "'idd'",
    ),
    "dedup within the watermark, an unknown key on a batch frame": (
        lambda: Reading.from_rows([]).drop_duplicates_within_watermark(Reading.id, "sensr"),
        UnknownColumnError,
        "'sensr'",
    ),
}


@pytest.mark.jvm_free
@pytest.mark.parametrize("case", list(REFUSED))
def test_what_spark_refuses_of_a_stateful_operator_is_refused_when_the_plan_is_built(case: str) -> None:
    build, error, message = REFUSED[case]
    with pytest.raises(error, match=_escaped(message)) as raised:
        build()
    if error is StreamingError:
        assert "docs/streaming.md" in str(raised.value)


class Tagged(DataFrameModel):
    at: datetime.datetime
    tags: dict[str, str]


@pytest.mark.jvm_free
def test_drop_duplicates_within_the_watermark_is_typed_by_its_keys() -> None:
    once = _marked().drop_duplicates_within_watermark(Reading.id, "sensor")
    assert once.is_streaming
    assert once.schema == _readings().schema
    assert "dropDuplicatesWithinWatermark ['id', 'sensor']" in once.explain()
    every = _marked().rename({"at": "when"}).drop_duplicates_within_watermark()  # a renamed watermark still counts
    assert "dropDuplicatesWithinWatermark ['when', 'id', 'sensor']" in every.explain()
    batch = Reading.from_rows([]).drop_duplicates_within_watermark("id")  # a batch frame: unique(subset=...)
    assert "dropDuplicates ['id']" in batch.explain()
    tagged = Tagged.read_stream_json("/nonexistent/tagged").with_watermark(Tagged.at, "1 minute")
    with pytest.raises(ColumnTypeError, match=r"key 'tags' is dict\[str, str\] .*, which has no equality"):
        tagged.drop_duplicates_within_watermark("tags")


# --- Spark: the same rows as plain PySpark ---------------------------------------------------------------


def test_drop_duplicates_within_the_watermark_equals_plain_pyspark(spark: SparkSession, tmp_path: Path) -> None:
    source = tmp_path / "in"
    _json_lines(source, "0.json", [{"at": _at(0), "id": 1, "sensor": "a"}, {"at": _at(0.5), "id": 1, "sensor": "b"},
                                   {"at": _at(1), "id": 2, "sensor": "a"}])  # fmt: skip
    _json_lines(source, "1.json", [{"at": _at(20), "id": 3, "sensor": "a"}])  # the watermark passes 00:15
    _json_lines(source, "2.json", [{"at": _at(20.25), "id": 1, "sensor": "c"},
                                   {"at": _at(20.5), "id": 3, "sensor": "d"}])  # fmt: skip
    _json_lines(source, "3.json", [{"at": _at(20.75), "id": 1, "sensor": "e"}])  # batch 2 ended by forgetting key 1
    once = _marked(source).drop_duplicates_within_watermark(Reading.id)
    assert Schema(fields_of_struct(lower(once.plan).schema)) == once.plan.schema  # derived schema = Spark's

    typed = _typed(once, "dedup_typed", spark)
    raw = spark.readStream.schema("at TIMESTAMP, id BIGINT, sensor STRING").option("maxFilesPerTrigger", 1)
    by_hand = raw.json(str(source)).withWatermark("at", "5 minutes").dropDuplicatesWithinWatermark(["id"])
    assert typed == _run(by_hand, "dedup_plain")
    # key 1 is dropped at 00:00:30 and 00:20:15 (its state holds until a micro-batch ends with the watermark past
    # 00:05, its first time plus the delay), then kept again at 00:20:45; key 3 is dropped at 00:20:30
    assert [(row[0].strftime("%H:%M:%S"), row[1]) for row in typed] == [
        ("00:00:00", 1), ("00:01:00", 2), ("00:20:00", 3), ("00:20:45", 1)
    ]  # fmt: skip
    with pytest.raises(AnalysisException, match="dropDuplicatesWithinWatermark is not supported on streaming"):
        _run(raw.json(str(source)).dropDuplicatesWithinWatermark(["id"]), "dedup_refused")  # as the façade refuses
