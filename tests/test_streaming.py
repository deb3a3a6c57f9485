"""Typed Structured Streaming: sources, the refusals of a streaming plan, output modes, sinks and query handles.

The plan tests are JVM-free (a stream is typed without Spark: its source is opened when the query starts); the
Spark tests read tiny file sources with ``available_now=True`` and check that Spark itself refuses what the façade
refuses, by starting the same plan written in plain PySpark.
"""

from __future__ import annotations

import datetime
import json
import logging
import os
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from pydantic import Field, NaiveDatetime
from pyspark.errors import AnalysisException
from pyspark.sql import SparkSession
from pyspark.sql import functions as sf
from pyspark.sql import types as st

from pydantable_spark import Check, DataFrame, DataFrameModel, F, Window
from pydantable_spark._spark.lower import lower
from pydantable_spark._spark.session import is_connect
from pydantable_spark._spark.types import fields_of_struct
from pydantable_spark.errors import (
    ArgumentTypeError,
    ArgumentValueError,
    BatchFunctionError,
    CheckError,
    ColumnTypeError,
    ConstraintError,
    IncompatibleCastError,
    MalformedDataError,
    NullCheckError,
    SparkJobError,
    StreamingError,
    UnknownColumnError,
)
from pydantable_spark.schema import Schema


class Event(DataFrameModel):
    at: datetime.datetime
    user: str
    ms: int | None


class Local(DataFrameModel):
    at: NaiveDatetime
    day: datetime.date
    user: str


class Tick(DataFrameModel):
    timestamp: datetime.datetime
    value: int


class Checked(DataFrameModel):
    at: datetime.datetime
    user: str
    ms: int | None = Field(default=None, ge=0)


class RowChecked(DataFrameModel):
    at: datetime.datetime
    user: str
    ms: int | None

    @classmethod
    def checks(cls) -> Sequence[Check]:
        return (
            Check.row(F.length(cls.user) < 3, name="short_user"),
            Check.unique(cls.user, cls.at, name="one_event_per_user_and_time"),
        )


class Screened(DataFrameModel):
    at: datetime.datetime
    user: str
    ms: int | None = Field(default=None, le=40)

    @classmethod
    def checks(cls) -> Sequence[Check]:
        return (
            Check.row(cls.user != "u1", name="not_u1", action="warn"),
            Check.row(cls.ms % 20 == 0, name="even_tens", action="drop"),
        )


def _stream(tmp_path: Path | None = None) -> Any:
    return Event.read_stream_json(tmp_path or "/nonexistent/events")


def _batch() -> Any:
    return Event.from_rows([])


def _watermarked() -> Any:
    return _stream().with_watermark(Event.at, "10 minutes")


# --- JVM-free: what a stream is, and what its plan refuses ---------------------------------------


@pytest.mark.jvm_free
def test_a_stream_is_a_typed_frame_that_knows_it_is_one() -> None:
    events, ticks = _stream(), Tick.read_stream_rate(rows_per_second=5, num_partitions=2)
    assert events.is_streaming
    assert ticks.is_streaming
    assert not _batch().is_streaming
    derived = events.filter(Event.ms > 1).select("user", slow=Event.ms * 2).join(_batch(), on="user", how="left")
    assert derived.is_streaming
    assert str(events.schema) == str(_batch().schema)  # the model's schema, nothing inferred
    shown = events.explain()  # no JVM: the source is opened when a query starts
    assert "scan read_stream_json('/nonexistent/events'), a stream" in shown
    assert "null_check(`at`)" in shown
    assert "null_check(`user`)" in shown
    assert "withWatermark 'at', '600000000 microseconds'" in _watermarked().explain()


REFUSED: dict[str, tuple[Any, type[Exception], str]] = {
    "sort": (lambda: _stream().sort("user"), StreamingError, "sort() on a stream: Spark sorts a stream only after"),
    "sort, stable": (lambda: _stream().sort("user", maintain_order=True), StreamingError, "on a stream"),
    "offset": (lambda: _stream().offset(1), StreamingError, "offset() on a stream: Spark offers no offset"),
    "unique without a watermark": (lambda: _stream().unique(), StreamingError, "unique() (all columns) on a stream"),
    "unique, key without the watermark": (
        lambda: _watermarked().unique(subset="user"),
        StreamingError,
        "keep that column among the keys",
    ),
    "unique keep=first": (lambda: _watermarked().unique(keep="first"), StreamingError, "no window over rows"),
    "window over rows": (
        lambda: _stream().with_columns(n=F.row_number().over(Window.partition_by("user").order_by("at"))),
        StreamingError,
        "Spark computes no window over rows",
    ),
    "row count": (lambda: _stream().with_row_count(), StreamingError, "no window over rows"),
    "aggregation of an aggregation": (
        lambda: _stream().group_by("user").agg(n=F.count()).group_by("n").agg(k=F.count()),
        NotImplementedError,
        "over another aggregation of a stream is not offered yet",
    ),
    "distinct aggregate": (
        lambda: _stream().group_by("user").agg(n=F.count_distinct(Event.ms)),
        StreamingError,
        "Spark refuses distinct aggregations on streams",
    ),
    "ordered groups": (
        lambda: _stream().group_by("user", maintain_order=True).agg(n=F.count()),
        StreamingError,
        "group_by(maintain_order=True) on a stream",
    ),
    "sample": (lambda: _stream().sample(0.5, seed=1), StreamingError, "Spark refuses sampling on streams"),
    "cache": (lambda: _stream().cache(), StreamingError, "no finite result to cache"),
    "union with a batch frame": (lambda: _stream().union(_batch()), StreamingError, "a stream and a batch frame"),
    "intersect": (lambda: _stream().intersect(_batch()), StreamingError, "intersections of streams"),
    "except, stream on the right": (lambda: _batch().subtract(_stream()), StreamingError, "on the right of an except"),
    "right join, stream on the left": (
        lambda: _stream().join(_batch(), on="user", how="right"),
        StreamingError,
        "right outer join whose stream is on the left",
    ),
    "full join": (lambda: _stream().join(_batch(), on="user", how="full"), StreamingError, "full outer join"),
    "left join, stream on the right": (
        lambda: _batch().join(_stream(), on="user", how="left"),
        StreamingError,
        "left outer join whose stream is on the right",
    ),
    "validated join": (
        lambda: _stream().join(_batch(), on="user", validate="m:1"),
        StreamingError,
        "runs a batch job over both sides",
    ),
}


@pytest.mark.jvm_free
@pytest.mark.parametrize("case", list(REFUSED))
def test_what_spark_refuses_on_a_stream_is_refused_when_the_plan_is_built(case: str) -> None:
    build, error, message = REFUSED[case]
    with pytest.raises(error, match=_escaped(message)) as raised:
        build()
    if error is StreamingError:
        assert "docs/streaming.md" in str(raised.value)  # every refusal points to the way out


def _escaped(text: str) -> str:
    return re.escape(text)


@pytest.mark.jvm_free
def test_what_spark_takes_on_a_stream_is_built() -> None:
    counted = _watermarked().group_by(F.window(Event.at, "5 minutes"), "user").agg(n=F.count())
    assert counted.sort("n").is_streaming  # a sort after an aggregation (complete mode, checked at start)
    assert _watermarked().unique().is_streaming  # every column: the watermarked one among them
    assert _watermarked().unique(subset=["at", "user"]).is_streaming
    assert _watermarked().rename({"at": "when"}).unique(subset=["when"]).is_streaming  # a rename keeps it
    assert _stream().limit(3).is_streaming  # Spark limits a stream in append and complete modes
    assert _stream().join(_batch(), on="user", how="left").is_streaming
    assert _batch().join(_stream(), on="user", how="right").is_streaming
    assert _stream().union(_stream()).is_streaming
    assert _stream().join(_stream(), on="user").is_streaming  # two streams: tests/test_stream_state.py
    assert not _batch().sort("user").unique().offset(1).sample(0.5).is_streaming  # batch frames: nothing refused


class Seen(DataFrameModel):
    seen: datetime.datetime | None
    user: str


@pytest.mark.jvm_free
def test_a_streams_group_key_stays_a_bare_column_so_spark_sees_its_watermark() -> None:
    seen = Seen.read_stream_json("/nonexistent/seen").with_watermark(Seen.seen, "1 minute")
    counted = seen.group_by("seen").agg(n=F.count())
    assert not counted.schema["seen"].nullable  # NULL keys are left out, as in batch
    shown = counted.explain()
    assert "groupBy `seen` AS `seen`" in shown  # not coalesce(`seen`, ...): Spark would lose the watermark
    assert "where (`seen` IS NOT NULL)" in shown
    assert "null_check(`seen`) AS `seen`" in shown  # the non-null claim made to Spark after the aggregation


@pytest.mark.jvm_free
def test_with_watermark_takes_a_timestamp_column_and_a_duration() -> None:
    local = Local.read_stream_parquet("/nonexistent/local")
    with pytest.raises(ColumnTypeError, match=r"column 'at' is datetime \(timestamp_ntz\).*needs a timestamp column"):
        local.with_watermark("at", "1 minute")
    with pytest.raises(ColumnTypeError, match="column 'day' is date"):
        local.with_watermark(Local.day, "1 minute")
    with pytest.raises(UnknownColumnError, match="'when'"):
        _stream().with_watermark("when", "1 minute")
    with pytest.raises(ArgumentValueError, match="months or years"):
        _stream().with_watermark(Event.at, "1 month")
    with pytest.raises(ArgumentValueError, match="must be a positive duration"):
        _stream().with_watermark(Event.at, "-1 minute")
    with pytest.raises(ArgumentTypeError, match="must be a duration"):
        _stream().with_watermark(Event.at, 60)
    assert _stream().with_watermark(Event.at, datetime.timedelta(0)).is_streaming  # no delay is a delay
    assert not _batch().with_watermark(Event.at, "1m").is_streaming  # as in Spark, nothing on a batch frame


@pytest.mark.jvm_free
@pytest.mark.parametrize(
    "action",
    [
        lambda s: s.collect(),
        lambda s: s.to_dict(),
        lambda s: s.to_arrow(),
        lambda s: s.count(),
        lambda s: s.show(),
        lambda s: s.stream(),
        lambda s: s.validate(),
        lambda s: s.submit("collect"),
        lambda s: s.write_parquet("/nonexistent/out"),
    ],
)
def test_a_batch_action_on_a_stream_points_to_write_stream(action: Any) -> None:
    with pytest.raises(StreamingError, match=r"on a stream: a stream has no last row.*write_stream_parquet"):
        action(_stream().filter(Event.ms > 1))


SINK_REFUSALS: dict[str, tuple[Any, type[Exception], str]] = {
    "append, aggregation without a watermark": (
        lambda: _stream().group_by("user").agg(n=F.count()).write_stream_memory("q"),
        StreamingError,
        "no key of the aggregation carries a watermark",
    ),
    "append, watermark not among the keys": (
        lambda: _watermarked().group_by("user").agg(n=F.count()).write_stream_memory("q"),
        StreamingError,
        "no key of the aggregation carries a watermark",
    ),
    "complete without an aggregation": (
        lambda: _stream().write_stream_memory("q", output_mode="complete"),
        StreamingError,
        "output_mode='complete' writes the whole result every trigger",
    ),
    "sort outside complete": (
        lambda: _stream().group_by("user").agg(n=F.count()).sort("n").write_stream_memory("q", output_mode="update"),
        StreamingError,
        "a sorted stream is written with output_mode='complete' only",
    ),
    "limit in update": (
        lambda: _stream().limit(2).write_stream_memory("q", output_mode="update"),
        StreamingError,
        "limit() on a stream in output_mode='update'",
    ),
    "unknown output mode": (
        lambda: _stream().write_stream_memory("q", output_mode="upsert"),
        ArgumentValueError,
        "output_mode='upsert' is not one of",
    ),
    "a batch frame": (
        lambda: _batch().write_stream_memory("q"),
        StreamingError,
        "the frame is not a stream",
    ),
    "file sink without a checkpoint": (
        lambda: _stream().write_stream_parquet("/nonexistent/out", checkpoint=None),
        ArgumentTypeError,
        "needs checkpoint=",
    ),
    "two triggers": (
        lambda: _stream().write_stream_memory("q", available_now=True, processing_time="1 second"),
        ArgumentValueError,
        "give one trigger, not available_now and processing_time",
    ),
    "a trigger of the wrong type": (
        lambda: _stream().write_stream_memory("q", once="yes"),
        ArgumentTypeError,
        "once",
    ),
    "a processing time in months": (
        lambda: _stream().write_stream_memory("q", processing_time="1 month"),
        ArgumentValueError,
        "months or years",
    ),
    "a query name that is no table name": (
        lambda: _stream().write_stream_memory("my table"),
        ArgumentValueError,
        "query_name must be an identifier",
    ),
    "per-batch quarantine into files": (
        lambda: _stream().write_stream_json("/nonexistent/out", checkpoint="/nonexistent/cp", constraints="quarantine"),
        NotImplementedError,
        "constraints='quarantine' on a stream is offered on Delta Lake sinks only",
    ),
    "per-batch quarantine into Iceberg": (
        lambda: _stream().write_stream_table("lake.db.t", checkpoint="/c", format="iceberg", constraints="quarantine"),
        NotImplementedError,
        "write_stream_table('lake.db.t'): constraints='quarantine' on a stream is offered on Delta Lake sinks only",
    ),
    "quarantine without its path": (
        lambda: _stream().write_stream_delta("/out", checkpoint="/c", constraints="quarantine"),
        ArgumentTypeError,
        "constraints='quarantine' needs quarantine= (where violating rows go), got None",
    ),
    "a quarantine path without quarantine": (
        lambda: _stream().write_stream_delta("/out", checkpoint="/c", quarantine="/bad"),
        ArgumentTypeError,
        "quarantine= needs constraints='quarantine', got constraints='raise'",
    ),
    "quarantine of a complete result": (
        lambda: (
            _stream()
            .group_by("user")
            .agg(n=F.count())
            .write_stream_delta(
                "/out", checkpoint="/c", output_mode="complete", constraints="quarantine", quarantine="/q"
            )
        ),
        ArgumentValueError,
        "output_mode='complete' would replace the table",
    ),
    "a constraints mode streams do not know": (
        lambda: _stream().write_stream_parquet("/out", checkpoint="/c", constraints="warn"),
        ArgumentValueError,
        "constraints='warn' is not one of 'raise', 'report', 'quarantine', 'skip'",
    ),
    "update into Delta": (
        lambda: _stream().write_stream_delta("/x", checkpoint="/c", output_mode="update"),
        StreamingError,
        "takes output_mode 'append' or 'complete', not 'update' (a table sink appends micro-batches or replaces",
    ),
    "Delta without a checkpoint": (
        lambda: _stream().write_stream_delta("/nonexistent/out", checkpoint=None),
        ArgumentTypeError,
        "write_stream_delta('/nonexistent/out') needs checkpoint=",
    ),
    "a table sink of another format": (
        lambda: _stream().write_stream_table("db.t", checkpoint="/c", format="hudi"),
        ArgumentValueError,
        "write_stream_table('db.t'): format='hudi' is not one of 'delta', 'iceberg'",
    ),
    "a table name that is not text": (
        lambda: _stream().write_stream_table(None, checkpoint="/c"),
        ArgumentTypeError,
        "write_stream_table: name must be a table name",
    ),
    "an output mode as a Delta option": (
        lambda: _stream().write_stream_delta("/x", checkpoint="/c", outputMode="complete"),
        ArgumentTypeError,
        "pass outputMode as output_mode=",
    ),
    "foreach_batch of no function": (
        lambda: _stream().foreach_batch("print", checkpoint="/c"),
        ArgumentTypeError,
        "foreach_batch: fn must be a function of (frame, batch_id), got 'print'",
    ),
    "foreach_batch without a checkpoint": (
        lambda: _stream().foreach_batch(print, checkpoint=None),
        ArgumentTypeError,
        "foreach_batch(print) needs checkpoint=",
    ),
    "a Spark option a keyword types": (
        lambda: _stream().write_stream_csv("/nonexistent/out", checkpoint="/x", checkpointLocation="/y"),
        ArgumentTypeError,
        "pass checkpointLocation as checkpoint=",
    ),
    "an unknown partition column": (
        lambda: _stream().write_stream_parquet("/nonexistent/out", checkpoint="/x", partition_by="day"),
        UnknownColumnError,
        "'day'",
    ),
}


@pytest.mark.jvm_free
@pytest.mark.parametrize("case", list(SINK_REFUSALS))
def test_a_sink_checks_its_output_mode_and_arguments_before_the_query_starts(case: str) -> None:
    start, error, message = SINK_REFUSALS[case]
    with pytest.raises(error, match=_escaped(message)):
        start()


@pytest.mark.jvm_free
def test_a_source_checks_its_arguments_when_called() -> None:
    with pytest.raises(ArgumentTypeError, match="max_files_per_trigger must be int"):
        Event.read_stream_json("/in", max_files_per_trigger="10")  # type: ignore[arg-type]
    with pytest.raises(ArgumentValueError, match="max_files_per_trigger must be at least 1, got 0"):
        Event.read_stream_json("/in", max_files_per_trigger=0)
    with pytest.raises(ArgumentTypeError, match="pass maxFilesPerTrigger as max_files_per_trigger="):
        Event.read_stream_parquet("/in", maxFilesPerTrigger=10)
    with pytest.raises(ArgumentValueError, match="mode='PERMISSIVE' would turn unparsable values into NULLs"):
        Event.read_stream_csv("/in", mode="PERMISSIVE")
    with pytest.raises(ArgumentTypeError, match="path must be one directory"):
        Event.read_stream_json(["/a", "/b"])  # type: ignore[arg-type]
    with pytest.raises(ArgumentValueError, match="rows_per_second and num_partitions must be at least 1"):
        Tick.read_stream_rate(rows_per_second=0)

    class WrongTick(DataFrameModel):
        timestamp: datetime.datetime
        value: str

    with pytest.raises(IncompatibleCastError, match="value"):
        WrongTick.read_stream_rate()


# --- Spark: queries run, fail as the library's errors, and Spark refuses what the façade refuses ----------


def _json_lines(path: Path, name: str, rows: list[dict[str, Any]]) -> None:
    path.mkdir(parents=True, exist_ok=True)
    (path / name).write_text("".join(json.dumps(row) + "\n" for row in rows))


def _events(first: int, count: int) -> list[dict[str, Any]]:
    return [
        {"at": f"2026-01-01T00:{m:02d}:00Z", "user": f"u{m % 2}", "ms": m * 10} for m in range(first, first + count)
    ]


def test_a_file_stream_runs_into_the_memory_and_parquet_sinks(spark: SparkSession, tmp_path: Path) -> None:
    _json_lines(tmp_path / "in", "a.json", _events(0, 5))
    events = Event.read_stream_json(tmp_path / "in", max_files_per_trigger=1)
    per_window = (
        events.with_watermark(Event.at, "1 minute")
        .group_by(F.window(Event.at, "2 minutes"))
        .agg(n=F.count(), total=F.sum(Event.ms))
    )
    for frame in (events, per_window):  # derived schema = Spark's (a stream's aggregate made non-null again)
        assert Schema(fields_of_struct(lower(frame.plan).schema)) == frame.plan.schema

    query = events.filter(Event.ms >= 10).write_stream_memory("stream_filtered", available_now=True)
    assert query.await_termination(60) is True
    assert not query.is_active
    assert query.name == "stream_filtered"
    assert query.last_progress is not None
    assert query.last_progress["batchId"] == 0  # one file, one micro-batch
    assert Event.read_table("stream_filtered").sort("at").to_dict()["ms"] == [10, 20, 30, 40]

    out, checkpoint = tmp_path / "out", tmp_path / "checkpoint"
    per_window.write_stream_parquet(out, checkpoint=checkpoint, available_now=True).await_termination(60)
    rows = spark.read.parquet(str(out)).collect()  # append mode: the windows the watermark (00:03) has closed
    assert [(r.window.start.minute, r.n, r.total) for r in rows] == [(0, 2, 10)]


def test_a_stream_restarted_from_its_checkpoint_loses_and_repeats_no_row(tmp_path: Path) -> None:
    source, out, checkpoint = tmp_path / "in", tmp_path / "out", tmp_path / "checkpoint"
    _json_lines(source, "a.json", _events(0, 3))

    def run() -> None:
        Event.read_stream_json(source).write_stream_parquet(
            out, checkpoint=checkpoint, available_now=True
        ).await_termination(60)

    run()
    _json_lines(source, "b.json", _events(3, 4))
    run()  # a new query from the same checkpoint reads only the new file
    written = Event.read_parquet(out).sort("at").to_dict()
    assert written["ms"] == [m * 10 for m in range(7)]


def test_a_failed_micro_batch_is_the_librarys_error_naming_the_column(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    _json_lines(tmp_path / "nulls", "a.json", [{"at": "2026-01-01T00:00:00Z", "ms": 1}])
    query = Event.read_stream_json(tmp_path / "nulls").write_stream_memory("stream_nulls", available_now=True)
    with pytest.raises(NullCheckError, match=r"write_stream_memory\('stream_nulls'\).*micro-batch 0: column 'user'"):
        query.await_termination(60)
    assert isinstance(query.exception(), NullCheckError)

    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "a.json").write_text('{"at": "2026-01-01T00:00:00Z", "user": "a", "ms": "many"}\n')
    query = Event.read_stream_json(tmp_path / "bad").write_stream_memory("stream_bad", available_now=True)
    with pytest.raises(MalformedDataError, match="does not parse as the model's types"):
        query.await_termination(60)

    _json_lines(tmp_path / "negative", "a.json", [{"at": "2026-01-01T00:00:00Z", "user": "a", "ms": -1}])
    checked = Checked.read_stream_json(tmp_path / "negative")
    query = checked.write_stream_json(tmp_path / "out", checkpoint=tmp_path / "cp", available_now=True)
    with pytest.raises(ConstraintError, match="column 'ms' violates the model's constraint ge 0"):
        query.await_termination(60)
    assert not list((tmp_path / "out").glob("*.json"))  # the micro-batch was not committed

    _json_lines(tmp_path / "long", "a.json", [{"at": "2026-01-01T00:00:00Z", "user": "abcd", "ms": 1}])
    with caplog.at_level(logging.WARNING, logger="pydantable_spark"):
        stream = RowChecked.read_stream_json(tmp_path / "long")
        query = stream.write_stream_json(tmp_path / "out-rows", checkpoint=tmp_path / "cp-rows", available_now=True)
    assert "check(s) 'one_event_per_user_and_time' (unique(user, at)) cover the whole table" in caplog.text
    said = r"a row violates the model's check 'short_user' \(row: \(length\(user\) < 3\)\) \(the micro-batch"
    with pytest.raises(CheckError, match=said):
        query.await_termination(60)
    assert not list((tmp_path / "out-rows").glob("*.json"))
    RowChecked.read_stream_json(tmp_path / "long").write_stream_json(
        tmp_path / "out-skip", checkpoint=tmp_path / "cp-skip", available_now=True, constraints="skip"
    ).await_termination(60)  # constraints="skip" runs no check
    assert len(list((tmp_path / "out-skip").glob("*.json"))) == 1


def test_foreach_batch_hands_each_micro_batch_over_as_a_typed_frame_and_names_the_one_that_failed(
    spark: SparkSession, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    _json_lines(tmp_path / "in", "a.json", _events(0, 3))
    _json_lines(tmp_path / "in", "b.json", _events(3, 2))

    def keep(frame: DataFrame[Event], batch_id: int) -> None:  # on Spark Connect it runs in the server's worker
        rows = frame.sort("at").collect()  # a batch frame: collect() and the writers work
        assert all(isinstance(row, Event) for row in rows)
        (tmp_path / f"seen-{batch_id}.json").write_text(json.dumps([row.ms for row in rows]))
        frame.write_parquet(tmp_path / "out" / str(batch_id))

    if is_connect(spark):  # the server's worker unpickles fn and the model: this module is not importable there
        from pyspark import cloudpickle

        cloudpickle.register_pickle_by_value(sys.modules[__name__])
        request.addfinalizer(lambda: cloudpickle.unregister_pickle_by_value(sys.modules[__name__]))
    events = Event.read_stream_json(tmp_path / "in", max_files_per_trigger=1)
    query = events.filter(Event.ms >= 10).foreach_batch(keep, checkpoint=tmp_path / "cp", available_now=True)
    assert query.await_termination(60) is True
    seen = {path.name: json.loads(path.read_text()) for path in tmp_path.glob("seen-*.json")}
    assert seen == {"seen-0.json": [10, 20], "seen-1.json": [30, 40]}
    assert sorted(Event.read_parquet(tmp_path / "out" / "1").to_dict()["ms"]) == [30, 40]

    def fail_second(frame: DataFrame[Event], batch_id: int) -> None:
        if batch_id == 1:
            msg = f"no room for {frame.count()} events"
            raise OSError(msg)

    query = events.foreach_batch(fail_second, checkpoint=tmp_path / "cp-fail", available_now=True)
    said = r"foreach_batch\(.*fail_second\).*micro-batch 1: the function raised OSError: no room for 2 events"
    with pytest.raises(BatchFunctionError, match=said) as failed:
        query.await_termination(60)
    assert (failed.value.batch_id, failed.value.raised) == (1, "OSError")
    if is_connect(spark):  # the function ran in the server's worker: the cause is Spark's report, with its traceback
        assert "Found error inside foreachBatch Python process" in str(failed.value.__cause__)
        assert "raise OSError(msg)" in str(failed.value.__cause__)
    else:
        assert isinstance(failed.value.__cause__, OSError)


def test_a_report_sink_writes_every_row_and_counts_each_micro_batchs_violations(tmp_path: Path) -> None:
    _json_lines(tmp_path / "in", "a.json", [{**e, "ms": -e["ms"]} for e in _events(1, 2)])
    _json_lines(tmp_path / "in", "b.json", [{**e, "ms": -e["ms"]} for e in _events(3, 1)] + _events(4, 2))
    checked = Checked.read_stream_json(tmp_path / "in", max_files_per_trigger=1)
    query = checked.write_stream_parquet(tmp_path / "out", checkpoint=tmp_path / "cp", constraints="report")
    try:
        query.process_all_available()
        reports = query.constraint_reports
    finally:
        query.stop()
    assert [(batch, report.rows, [v.count for v in report.results]) for batch, report in reports] == [
        (0, 2, [2]),
        (1, 3, [1]),
    ]
    assert sorted(Event.read_parquet(tmp_path / "out").to_dict()["ms"]) == [-30, -20, -10, 40, 50]
    plain = Checked.read_stream_json(tmp_path / "in").write_stream_memory("stream_plain", constraints="skip")
    plain.stop()
    with pytest.raises(StreamingError, match=r"constraint_reports needs a query started with constraints='report'"):
        plain.constraint_reports  # noqa: B018


def test_warn_and_drop_row_checks_are_counted_per_micro_batch_and_dropped_rows_are_not_written(
    spark: SparkSession, tmp_path: Path
) -> None:
    _json_lines(tmp_path / "in", "a.json", _events(0, 3))  # ms 0, 10, 20; users u0, u1, u0
    _json_lines(tmp_path / "in", "b.json", _events(3, 2))  # ms 30, 40; users u1, u0
    screened = Screened.read_stream_json(tmp_path / "in", max_files_per_trigger=1)
    query = screened.write_stream_parquet(tmp_path / "out", checkpoint=tmp_path / "cp", available_now=True)
    assert query.await_termination(60) is True
    assert sorted(Event.read_parquet(tmp_path / "out").to_dict()["ms"]) == [0, 20, 40]  # 10 and 30 dropped
    counts = [
        (batch, r.rows, r.results, {c.check.name: c.count for c in r.checks}, r.ok)
        for batch, r in query.constraint_reports
    ]
    assert counts == [
        (0, 3, (), {"not_u1": 1, "even_tens": 1}, True),  # constraints="raise": no constraint count, none violated
        (1, 2, (), {"not_u1": 1, "even_tens": 1}, True),
    ]
    assert "2 of 2 checks violated" in str(query.constraint_reports[0][1])

    _json_lines(tmp_path / "more", "a.json", _events(5, 2))  # ms 50 (dropped), 60 (kept, above le 40); u1, u0
    reported = Screened.read_stream_json(tmp_path / "more").write_stream_memory(
        "stream_screened", constraints="report", available_now=True
    )
    reported.await_termination(60)
    [(batch, report)] = reported.constraint_reports
    assert (batch, report.rows, [v.count for v in report.results]) == (0, 2, [2])  # counted before the drop
    assert [(c.check.name, c.check.action, c.count) for c in report.checks] == [
        ("not_u1", "warn", 1),
        ("even_tens", "drop", 1),
    ]
    assert [r.ms for r in spark.table("stream_screened").collect()] == [60]

    skipped = Screened.read_stream_json(tmp_path / "more").write_stream_memory(
        "stream_unscreened", constraints="skip", available_now=True
    )
    skipped.await_termination(60)
    assert sorted(r.ms for r in spark.table("stream_unscreened").collect()) == [50, 60]  # no check ran
    with pytest.raises(
        StreamingError, match=r"needs a query started with constraints='report', or a model with 'warn'"
    ):
        skipped.constraint_reports  # noqa: B018


def test_a_source_whose_files_change_schema_mid_stream_fails_at_the_changed_file_and_keeps_what_was_committed(
    spark: SparkSession, tmp_path: Path
) -> None:
    """The schema is the model's: a new field is not read, a changed type fails its micro-batch naming the file."""
    stamp = time.time()
    files = [
        ("a.json", {"at": "2026-01-01T00:00:00Z", "user": "a", "ms": 1}),
        ("b.json", {"at": "2026-01-01T00:01:00Z", "user": "b", "ms": 2, "device": "phone"}),  # a field is added
        ("c.json", {"at": "2026-01-01T00:02:00Z", "user": "c", "ms": "fast"}),  # a field changes type
    ]
    for k, (name, row) in enumerate(files):  # read oldest first, a file a micro-batch
        _json_lines(tmp_path / "in", name, [row])
        os.utime(tmp_path / "in" / name, (stamp + k, stamp + k))
    events = Event.read_stream_json(tmp_path / "in", max_files_per_trigger=1)
    query = events.write_stream_parquet(tmp_path / "out", checkpoint=tmp_path / "cp", available_now=True)
    with pytest.raises(MalformedDataError, match=r"micro-batch 2: a record in .*c\.json does not parse as the model"):
        query.await_termination(60)
    assert sorted(Event.read_parquet(tmp_path / "out").to_dict()["ms"]) == [1, 2]  # micro-batches 0 and 1 kept

    (tmp_path / "parquet").mkdir()
    for k, (name, ms, kind) in enumerate([("one", 1, "bigint"), ("two", "fast", "string")]):
        rows = spark.createDataFrame(
            [(datetime.datetime(2026, 1, 1), name, ms)], f"at timestamp, user string, ms {kind}"
        )
        rows.coalesce(1).write.parquet(str(tmp_path / name))
        [part] = (tmp_path / name).glob("part-*.parquet")
        part.rename(tmp_path / "parquet" / f"{name}.parquet")
        os.utime(tmp_path / "parquet" / f"{name}.parquet", (stamp + k, stamp + k))
    events = Event.read_stream_parquet(tmp_path / "parquet", max_files_per_trigger=1)
    query = events.write_stream_parquet(tmp_path / "out-p", checkpoint=tmp_path / "cp-p", available_now=True)
    said = (
        r"micro-batch 1: Spark could not read .*two\.parquet of the source: .*PARQUET_COLUMN_DATA_TYPE_MISMATCH.*\[ms\]"
    )
    with pytest.raises(SparkJobError, match=said):
        query.await_termination(60)
    assert Event.read_parquet(tmp_path / "out-p").to_dict()["ms"] == [1]


def test_spark_refuses_the_plans_the_facade_refuses(spark: SparkSession, tmp_path: Path) -> None:
    """The same plans in plain PySpark: ``start()`` fails with Spark's rule (an analysis, no job runs)."""
    schema = st.StructType([st.StructField("at", st.TimestampType()), st.StructField("user", st.StringType())])
    raw = spark.readStream.schema(schema).json(str(tmp_path))
    batch = spark.createDataFrame([], schema)
    counted = raw.groupBy("user").count()
    plans = [
        (raw.sort("user"), "append", "Sorting is not supported on streaming"),
        (counted.sort("count"), "update", "Sorting is not supported"),
        (raw.limit(1), "update", "Limits are not supported on streaming DataFrames/Datasets in Update"),
        (counted, "append", "streaming aggregations without watermark on streaming DataFrames/DataSets"),
        (raw, "complete", "not supported for no streaming aggregations"),
        (raw.sample(0.5), "append", "Sampling is not supported on streaming"),
        (raw.withColumn("n", sf.row_number().over(_spark_window())), "append", "NON_TIME_WINDOW_NOT_SUPPORTED"),
        (raw.union(batch), "append", "Union between streaming and batch"),
        (raw.groupBy("user").agg(sf.count_distinct("at")), "update", "Distinct aggregations are not supported"),
        (raw.join(batch, "user", "right"), "append", "RightOuter join with a streaming DataFrame/Dataset on the left"),
    ]
    said = {}
    for frame, mode, rule in plans:  # each a plan the façade refuses (REFUSED, SINK_REFUSALS)
        try:
            frame.writeStream.format("memory").queryName("refused").outputMode(mode).start().stop()
            said[rule] = "(started)"
        except AnalysisException as refused:
            said[rule] = str(refused)
    assert [rule for rule, text in said.items() if rule not in text] == []
    # and Spark takes what the façade takes: a nullable watermarked key grouped as it is, in append mode
    counted = Seen.read_stream_json(tmp_path).with_watermark(Seen.seen, "1 minute").group_by("seen").agg(n=F.count())
    assert counted.write_stream_memory("stream_seen", available_now=True).await_termination(60) is True
    for column in ("day", "local"):  # the watermark's column type
        typed = spark.readStream.schema("day DATE, local TIMESTAMP_NTZ").json(str(tmp_path))
        with pytest.raises(AnalysisException, match="EVENT_TIME_IS_NOT_ON_TIMESTAMP_TYPE"):
            typed.withWatermark(column, "1 minute").schema  # noqa: B018  -- Spark Connect analyses it here


def _spark_window() -> Any:
    """PySpark's window, written by hand."""
    from pyspark.sql import Window as SparkWindow

    return SparkWindow.partitionBy("user").orderBy("at")


def test_a_rate_stream_runs_on_a_processing_time_trigger_until_stopped(spark: SparkSession) -> None:
    ticks = Tick.read_stream_rate(rows_per_second=100)
    assert Schema(fields_of_struct(lower(ticks.plan).schema)) == ticks.plan.schema
    query = ticks.filter(Tick.value % 2 == 0).write_stream_memory("stream_ticks", processing_time="100 milliseconds")
    try:
        assert query.is_active
        assert query.status["message"]
        for _ in range(600):  # a rate source never ends: wait for micro-batches after the first (which reads none)
            last = query.last_progress
            if last is not None and last["batchId"] >= 2:
                break
            assert query.await_termination(0.1) is False
        progress = query.recent_progress
    finally:
        query.stop()
    assert not query.is_active
    assert query.exception() is None
    assert [p["batchId"] for p in progress] == sorted(p["batchId"] for p in progress)
    values = Tick.read_table("stream_ticks").to_dict()["value"]
    assert values
    assert all(v % 2 == 0 for v in values)
