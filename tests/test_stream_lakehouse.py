"""Streams into Delta Lake and Iceberg tables on real jars: the model's NOT NULL, the comparison, the restart.

Marked ``lakehouse``: they run in the lakehouse tier of ``.ci/run`` (PySpark 4.1 with the Delta Lake and
Iceberg jars, see ``docs/lakehouse.md``) and are skipped elsewhere, saying so.
"""

from __future__ import annotations

import datetime
import json
import os
import runpy
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from pydantic import Field
from pyspark.sql import functions as sf
from pyspark.sql import types as st

from pydantable_spark import Check, DataFrameModel, F
from pydantable_spark.errors import NullabilityError, WriteError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from pyspark.sql import SparkSession

    from pydantable_spark.testing.kafka import LocalKafka

pytestmark = pytest.mark.lakehouse


class Event(DataFrameModel):
    at: datetime.datetime
    user: str
    ms: int | None


def _files(path: Path, first: int, files: int, rows: int) -> list[dict[str, Any]]:
    """``files`` JSON Lines files of ``rows`` events each, numbered from ``first``; the events written."""
    path.mkdir(parents=True, exist_ok=True)
    written = []
    for number in range(first, first + files):
        events = [
            {"at": f"2026-01-01T{number % 24:02d}:{i:02d}:00Z", "user": f"u{number}-{i}", "ms": number * 100 + i}
            for i in range(rows)
        ]
        (path / f"f{number:03d}.json").write_text("".join(json.dumps(e) + "\n" for e in events))
        written += events
    return written


def _nullable(spark: SparkSession, path: Path) -> dict[str, bool]:
    return {f.name: f.nullable for f in spark.read.format("delta").load(str(path)).schema.fields}


def test_a_delta_stream_stopped_mid_stream_and_restarted_writes_every_row_once(
    spark: SparkSession, tmp_path: Path
) -> None:
    source, out, checkpoint = tmp_path / "in", tmp_path / "out", tmp_path / "checkpoint"
    sent = _files(source, 0, 6, 5)
    events = Event.read_stream_json(source, max_files_per_trigger=1)
    query = events.write_stream_delta(out, checkpoint=checkpoint, processing_time="100 milliseconds")
    try:
        for _ in range(1200):  # stop it while it runs: after the first micro-batch (a file each), before the sixth
            last = query.last_progress
            if last is not None and last["batchId"] >= 0:
                break
            assert query.await_termination(0.1) is False
    finally:
        query.stop()
    done = spark.read.format("delta").load(str(out)).count()
    assert 0 < done < len(sent)  # it stopped mid-stream
    assert _nullable(spark, out) == {"at": False, "user": False, "ms": True}  # the model's NOT NULL, kept

    sent += _files(source, 6, 3, 5)
    again = Event.read_stream_json(source, max_files_per_trigger=4)
    again.write_stream_delta(out, checkpoint=checkpoint, available_now=True).await_termination(120)
    rows = spark.read.format("delta").load(str(out)).collect()
    got = sorted((r.at.isoformat(), r.user, r.ms) for r in rows)
    want = sorted((e["at"].removesuffix("Z"), e["user"], e["ms"]) for e in sent)  # the session's zone is UTC
    assert len(rows) == len(sent) == 45
    assert got == want

    # complete: the whole result replaces the table each trigger
    per_user = Event.read_stream_json(source).group_by("user").agg(n=F.count())
    totals = tmp_path / "totals"
    per_user.write_stream_delta(
        totals, checkpoint=tmp_path / "cp-totals", output_mode="complete", available_now=True
    ).await_termination(120)
    assert spark.read.format("delta").load(str(totals)).count() == len(sent)  # one micro-batch: every user once


def test_an_existing_table_is_compared_with_the_model_before_the_stream_starts(
    spark: SparkSession, tmp_path: Path
) -> None:
    strict = st.StructType(
        [
            st.StructField("at", st.TimestampType(), False),
            st.StructField("user", st.StringType(), False),
            st.StructField("ms", st.LongType(), False),
        ]
    )
    out = tmp_path / "strict"
    spark.catalog.createTable(f"delta.`{out}`", source="delta", schema=strict)  # Spark's writer would relax it
    before = spark.sql(f"DESCRIBE HISTORY delta.`{out}`").count()
    (tmp_path / "in").mkdir()
    events = Event.read_stream_json(tmp_path / "in")
    with pytest.raises(NullabilityError, match=r"write_stream_delta\(.*the table declares 'ms' NOT NULL"):
        events.write_stream_delta(out, checkpoint=tmp_path / "cp", available_now=True)
    assert not (tmp_path / "cp").exists()  # refused before start
    assert spark.sql(f"DESCRIBE HISTORY delta.`{out}`").count() == before

    name = f"parquet_{uuid.uuid4().hex[:8]}"
    spark.createDataFrame([], strict).write.format("parquet").saveAsTable(name)
    with pytest.raises(WriteError, match=r"exists as a parquet table, and this sink writes 'delta'"):
        events.write_stream_table(name, checkpoint=tmp_path / "cp2")


@pytest.mark.parametrize("fmt", ["delta", "iceberg"])
def test_a_stream_into_a_new_catalog_table_keeps_the_models_not_null(
    spark: SparkSession, tmp_path: Path, fmt: str
) -> None:
    name = f"stream_{uuid.uuid4().hex[:8]}" if fmt == "delta" else f"lake.db.stream_{uuid.uuid4().hex[:8]}"
    sent = _files(tmp_path / "in", 0, 2, 3)
    query = Event.read_stream_json(tmp_path / "in").write_stream_table(
        name, checkpoint=tmp_path / "cp", format=fmt, available_now=True
    )
    query.await_termination(120)
    table = spark.read.table(name)
    assert {f.name: f.nullable for f in table.schema.fields} == {"at": False, "user": False, "ms": True}
    assert sorted(r.ms for r in table.collect()) == sorted(e["ms"] for e in sent)


class Checked(DataFrameModel):
    at: datetime.datetime
    user: str
    ms: int | None = Field(default=None, ge=0)


def test_a_quarantined_micro_batch_run_again_on_restart_puts_every_row_in_one_table_once(
    spark: SparkSession, tmp_path: Path
) -> None:
    source, out, bad, checkpoint = tmp_path / "in", tmp_path / "out", tmp_path / "bad", tmp_path / "cp"
    sent = _files(source, 0, 2, 4)
    for event in sent[1::3]:  # every third event from the second: a negative ms
        event["ms"] = -event["ms"]
    sent[2]["ms"] = None  # NULL holds ge 0
    for number in range(2):
        (source / f"f{number:03d}.json").write_text(
            "".join(json.dumps(e) + "\n" for e in sent[number * 4 : number * 4 + 4])
        )

    def run() -> None:
        Checked.read_stream_json(source, max_files_per_trigger=1).write_stream_delta(
            out, checkpoint=checkpoint, constraints="quarantine", quarantine=bad, available_now=True
        ).await_termination(120)

    run()
    for name in ("1", ".1.crc"):  # the checkpoint forgets micro-batch 1's commit, as after a crash before it:
        (checkpoint / "commits" / name).unlink(missing_ok=True)
    run()  # the restart runs micro-batch 1 again; both tables skip the writes they committed for it
    kept = spark.read.format("delta").load(str(out)).collect()
    aside = spark.read.format("delta").load(str(bad)).collect()
    assert sorted((r.user, r.ms) for r in kept) == sorted(
        (e["user"], e["ms"]) for e in sent if e["ms"] is None or e["ms"] >= 0
    )
    assert sorted((r.user, r.ms, tuple(r.violations)) for r in aside) == sorted(
        (e["user"], e["ms"], ("ms: ge 0",)) for e in sent if e["ms"] is not None and e["ms"] < 0
    )
    assert len(kept) + len(aside) == len(sent) == 8
    assert _nullable(spark, out) == {"at": False, "user": False, "ms": True}
    assert _nullable(spark, bad)["user"] is False  # the quarantine is created as write_delta creates a table


class Screened(DataFrameModel):
    at: datetime.datetime
    user: str
    ms: int | None = Field(default=None, ge=0)

    @classmethod
    def checks(cls) -> Sequence[Check]:
        return (
            Check.row(cls.user != "u0-0", name="not_the_first", action="warn"),
            Check.row(cls.ms % 2 == 0, name="even", action="drop"),
        )


def test_a_quarantining_delta_stream_sets_a_drop_checks_rows_apart_and_counts_its_checks(
    spark: SparkSession, tmp_path: Path
) -> None:
    source, out, bad = tmp_path / "in", tmp_path / "out", tmp_path / "bad"
    sent = _files(source, 0, 2, 4)  # ms 0, 1, 2, 3 then 100, 101, 102, 103
    sent[1]["ms"] = -1  # violates ge 0, and is odd
    (source / "f000.json").write_text("".join(json.dumps(e) + "\n" for e in sent[:4]))
    later = (source / "f000.json").stat().st_mtime + 1  # files are read oldest first: f000 in micro-batch 0
    os.utime(source / "f001.json", (later, later))
    query = Screened.read_stream_json(source, max_files_per_trigger=1).write_stream_delta(
        out, checkpoint=tmp_path / "cp", constraints="quarantine", quarantine=bad, available_now=True
    )
    query.await_termination(120)
    kept = spark.read.format("delta").load(str(out)).collect()
    aside = spark.read.format("delta").load(str(bad)).collect()
    assert sorted(r.ms for r in kept) == [0, 2, 100, 102]
    assert sorted((r.ms, tuple(r.violations)) for r in aside) == [
        (-1, ("ms: ge 0", "even")), (3, ("even",)), (101, ("even",)), (103, ("even",))
    ]  # fmt: skip
    assert set(_nullable(spark, out)) == {"at", "user", "ms"}  # no flag column reached either table
    assert set(_nullable(spark, bad)) == {"at", "user", "ms", "violations"}
    counts = [(batch, {c.check.name: c.count for c in r.checks}) for batch, r in query.constraint_reports]
    assert counts == [(0, {"not_the_first": 1, "even": 2}), (1, {"not_the_first": 0, "even": 2})]


def test_the_docs_example_of_a_quarantining_delta_stream_runs(spark: SparkSession) -> None:
    runpy.run_path(str(Path(__file__).parent / "examples" / "lakehouse_stream.py"))


class Click(DataFrameModel):
    id: int
    page: str
    ms: int | None
    at: datetime.datetime


CLICK_SCHEMA = "id BIGINT, page STRING, ms BIGINT, at TIMESTAMP"


@pytest.mark.kafka
def test_a_typed_kafka_stream_into_delta_equals_the_same_query_in_plain_pyspark(
    spark: SparkSession, kafka_broker: LocalKafka, tmp_path: Path
) -> None:
    """Kafka JSON → filter → watermarked windowed aggregate → Delta, in append mode, micro-batch by micro-batch."""
    topic = f"clicks-delta-{uuid.uuid4().hex[:8]}"
    clicks = [
        {"id": i, "page": f"/p{i % 3}", "ms": None if i % 7 == 0 else i * 10, "at": f"2026-01-01T10:{i // 2:02d}:00Z"}
        for i in range(80)
    ]
    clicks.append({"id": 80, "page": "/p0", "ms": 5000, "at": "2026-01-01T12:00:00Z"})  # moves the watermark on
    # in time order: every window of 10:00-10:40 is written once the watermark passes its end
    # one key: one partition; one writing task (two would interleave their records): read in time order, none late
    records = spark.createDataFrame(
        [(topic, "k", json.dumps(c)) for c in clicks], "topic string, key string, value string"
    ).coalesce(1)
    records.write.format("kafka").option("kafka.bootstrap.servers", kafka_broker.bootstrap_servers).save()

    typed = (
        Click.read_stream_kafka(
            kafka_broker.bootstrap_servers, topic=topic, starting_offsets="earliest", max_offsets_per_trigger=20
        )
        .filter(Click.ms > 100)
        .with_watermark(Click.at, "5 minutes")
        .group_by(F.window(Click.at, "10 minutes"), "page")
        .agg(n=F.count(), slowest=F.max(Click.ms))
    )
    query = typed.write_stream_delta(tmp_path / "typed", checkpoint=tmp_path / "typed-cp", available_now=True)
    plain = (
        spark.readStream.format("kafka")
        .option("kafka.bootstrap.servers", kafka_broker.bootstrap_servers)
        .option("subscribe", topic).option("startingOffsets", "earliest").option("maxOffsetsPerTrigger", 20)
        .load()
        .select(sf.from_json(sf.col("value").cast("string"), CLICK_SCHEMA).alias("v"))
        .select("v.*")
        .filter(sf.col("ms") > 100)
        .withWatermark("at", "5 minutes")
        .groupBy(sf.window("at", "10 minutes"), "page")
        .agg(sf.count(sf.lit(1)).alias("n"), sf.max("ms").alias("slowest"))
        .writeStream.format("delta").trigger(availableNow=True)
        .option("checkpointLocation", str(tmp_path / "plain-cp")).start(str(tmp_path / "plain"))
    )  # fmt: skip
    assert query.await_termination(180)
    plain.awaitTermination(180)

    def rows(path: Path) -> list[tuple[Any, ...]]:
        read = spark.read.format("delta").load(str(path))
        return sorted((r.window.start, r.page, r.n, r.slowest) for r in read.collect())

    written = rows(tmp_path / "typed")
    assert written == rows(tmp_path / "plain")
    expected: dict[tuple[int, str], list[int]] = {}
    for click in clicks[:80]:
        if click["ms"] is not None and click["ms"] > 100:
            minute = int(click["at"][14:16])
            expected.setdefault((minute // 10 * 10, click["page"]), []).append(click["ms"])
    assert [(w.minute, page, n, slowest) for w, page, n, slowest in written] == sorted(
        (minute, page, len(ms), max(ms)) for (minute, page), ms in expected.items()
    )  # each once; the 12:00 window is still open
    assert _nullable(spark, tmp_path / "typed")["n"] is False  # the new table keeps the derived NOT NULL
