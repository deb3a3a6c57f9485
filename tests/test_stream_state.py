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
from pyspark.sql import functions as sf

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


class Impression(DataFrameModel):
    at: datetime.datetime
    ad: int


class Click(DataFrameModel):
    clicked: datetime.datetime
    click_ad: int


def _impressions(path: str | Path = "/nonexistent/impressions", *, marked: bool = True) -> Any:
    frame = Impression.read_stream_json(path)
    return frame.with_watermark(Impression.at, "1 minute") if marked else frame


def _clicks(path: str | Path = "/nonexistent/clicks", *, marked: bool = True) -> Any:
    frame = Click.read_stream_json(path)
    return frame.with_watermark(Click.clicked, "1 minute") if marked else frame


HOWS = ("inner", "right", "semi", "full")
"""The other kinds a join of two streams takes with a time bound of each side (``left`` is run)."""
SAME_AD = Impression.ad == Click.click_ad
AFTER = Click.clicked >= Impression.at  # bounds the clicks' time from below by the impressions' watermark
WITHIN = Click.clicked <= Impression.at + datetime.timedelta(minutes=1)  # bounds the impressions' time
"""A click counts within a minute after its impression: the time range of Spark's guide."""


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
    "dedup within the watermark, two watermarked columns": (
        lambda: _impressions().join(_clicks(), on=SAME_AD & AFTER & WITHIN).drop_duplicates_within_watermark("ad"),
        StreamingError,
        "drop_duplicates_within_watermark('ad') on a stream: Spark takes a row's event time from one watermarked "
        "column, and this frame has 2 (at, clicked)",
    ),
    "unique() after a join of two streams": (
        lambda: _impressions().join(_clicks(), on=SAME_AD & AFTER & WITHIN).unique(subset=["ad", "at"]),
        StreamingError,
        "unique() (subset=['ad', 'at']) on a stream: Spark takes a row's event time from one watermarked column, "
        "and this frame has 2 (at, clicked); Spark would fail the query with MULTIPLE_EVENT_TIME_COLUMNS",
    ),
    "a session window in update mode": (
        lambda: (
            _marked()
            .group_by(F.session_window(Reading.at, "2 minutes"), "sensor")
            .agg(n=F.count())
            .write_stream_memory("q", output_mode="update")
        ),
        StreamingError,
        "write_stream_memory('q'): Spark refuses output_mode='update' for an aggregation by a session window "
        "(session_window(at, '2 minutes'))",
    ),
    "a session window in append mode without a watermark": (
        lambda: (
            _readings().group_by(F.session_window(Reading.at, "2 minutes")).agg(n=F.count()).write_stream_memory("q")
        ),
        StreamingError,
        "no key of the aggregation carries a watermark",
    ),
    "a join of two streams without an equality": (
        lambda: _impressions().join(_clicks(), on=AFTER & WITHIN),
        StreamingError,
        "join(how='inner') on two streams: Spark joins two streams only on an equality between them",
    ),
    "a cross join of two streams": (
        lambda: _impressions().join(_clicks(), how="cross"),
        StreamingError,
        "Spark joins two streams only on an equality between them",
    ),
    "an anti join of two streams": (
        lambda: _impressions().join(_clicks(), on=SAME_AD & AFTER & WITHIN, how="anti"),
        StreamingError,
        "join(how='anti') on two streams: Spark refuses an anti join whose right side is a stream",
    ),
    "a left join of two streams without watermarks": (
        lambda: _impressions(marked=False).join(_clicks(), on=SAME_AD & AFTER & WITHIN, how="left"),
        StreamingError,
        "a left join of two streams writes a row without a match only once the watermarks pass it, so both sides "
        "need one; the left side has none",
    ),
    "a left join of two streams without a time bound": (
        lambda: _impressions().join(_clicks(), left_on="ad", right_on="click_ad", how="left"),
        StreamingError,
        "Spark keeps a left join's unmatched left rows until a time bound says no row of the other stream can "
        "match them",
    ),
    "a left join bounding the wrong side": (
        lambda: _impressions().join(_clicks(), on=SAME_AD & AFTER, how="left"),
        StreamingError,
        "the conditions given: (left.ad == right.click_ad) & (right.clicked >= left.at))",
    ),
    "a right join bounding the left side only": (
        lambda: _impressions().join(_clicks(), on=SAME_AD & WITHIN, how="right"),
        StreamingError,
        "unmatched right rows",
    ),
    "a full join bounding one side": (
        lambda: _impressions().join(_clicks(), on=SAME_AD & WITHIN, how="full"),
        StreamingError,
        "unmatched right rows",
    ),
    "a bound whose other column carries no watermark": (
        lambda: _impressions().join(_clicks(marked=False), on=SAME_AD & WITHIN, how="left"),
        StreamingError,
        "the right side has none",
    ),
    "a join of two streams over an aggregation": (
        lambda: (
            _impressions()
            .group_by(F.window(Impression.at, "1 minute"), "ad")
            .agg(n=F.count())
            .join(_clicks(), left_on="ad", right_on="click_ad")
        ),
        NotImplementedError,
        "join(how='inner') of two streams over an aggregation is not offered yet",
    ),
    "a join of two streams that keeps an order": (
        lambda: _impressions().join(_clicks(), left_on="ad", right_on="click_ad", maintain_order="left"),
        StreamingError,
        "a stream has no row order to keep",
    ),
    "a join of two streams in update mode": (
        lambda: (
            _impressions()
            .join(_clicks(), left_on="ad", right_on="click_ad")
            .write_stream_memory("q", output_mode="update")
        ),
        StreamingError,
        "Spark writes a join of two streams in output_mode='append' only",
    ),
    "an aggregation after a join of two streams, complete mode": (
        lambda: (
            _impressions()
            .join(_clicks(), on=SAME_AD & AFTER & WITHIN, how="left")
            .group_by(F.window(Impression.at, "1 minute"))
            .agg(n=F.count())
            .write_stream_memory("q", output_mode="complete")
        ),
        StreamingError,
        "Spark writes a join of two streams in output_mode='append' only (each joined row once, when it is "
        "final), also with an aggregation after it; got output_mode='complete'",
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


@pytest.mark.jvm_free
def test_what_spark_takes_of_a_join_of_two_streams_is_built() -> None:
    inner = _impressions(marked=False).join(_clicks(marked=False), left_on="ad", right_on="click_ad")
    assert inner.is_streaming  # no watermark needed: the state grows without end
    assert _impressions().join(_clicks(), on=SAME_AD & (Impression.at > Click.clicked)).is_streaming  # any condition
    bounded = {
        "left": SAME_AD & AFTER & WITHIN,
        "semi": SAME_AD & WITHIN,  # the left's rows bounded is enough
        "right": SAME_AD & AFTER,
        "full": SAME_AD & (Impression.at - datetime.timedelta(seconds=30) < Click.clicked) & WITHIN,
    }
    for how, condition in bounded.items():
        assert _impressions().join(_clicks(), on=condition, how=how).is_streaming, how
    on_window = _impressions().join(_clicks(), left_on=["ad", "at"], right_on=["click_ad", "clicked"], how="left")
    assert on_window.is_streaming  # Spark's other way: a watermarked column among the equal keys
    joined = _impressions().join(_clicks(), on=SAME_AD & AFTER & WITHIN, how="left")
    assert [(f.name, f.nullable) for f in joined.schema] == [
        ("at", False), ("ad", False), ("clicked", True), ("click_ad", True)
    ]  # fmt: skip
    counted = joined.group_by(F.window(Impression.at, "1 minute")).agg(n=F.count(), clicks=F.count(Click.clicked))
    assert counted.is_streaming  # an aggregation after it, in append mode with a watermarked key (checked at start)
    assert joined.drop("clicked").drop_duplicates_within_watermark("ad").is_streaming  # one event time left


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
    for frame in (once, _marked(source).unique(), _marked(source).unique(subset=["at", "id"])):
        assert Schema(fields_of_struct(lower(frame.plan).schema)) == frame.plan.schema  # derived schema = Spark's

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


def _parquet_rows(spark: SparkSession, path: Path) -> list[tuple[Any, ...]]:
    return sorted((tuple(row) for row in spark.read.parquet(str(path)).collect()), key=repr)


def test_joins_of_two_streams_equal_plain_pyspark_and_write_unmatched_rows_once_the_watermark_passes(
    spark: SparkSession, tmp_path: Path
) -> None:
    imps, clicks = tmp_path / "imps", tmp_path / "clicks"
    _json_lines(imps, "0.json", [{"at": _at(0), "ad": 1}, {"at": _at(0.25), "ad": 2}, {"at": _at(0.5), "ad": 3}])
    _json_lines(clicks, "0.json", [{"clicked": _at(0.5), "click_ad": 1}, {"clicked": _at(3), "click_ad": 3}])
    raw_imps = spark.readStream.schema("at TIMESTAMP, ad BIGINT").json(str(imps)).withWatermark("at", "1 minute")
    raw_clicks = spark.readStream.schema("clicked TIMESTAMP, click_ad BIGINT").json(str(clicks))
    raw_clicks = raw_clicks.withWatermark("clicked", "1 minute")
    by_hand = raw_imps.join(
        raw_clicks,
        (raw_imps.ad == raw_clicks.click_ad)
        & (raw_clicks.clicked >= raw_imps.at)
        & (raw_clicks.clicked <= raw_imps.at + datetime.timedelta(minutes=1)),
        "left",
    )
    typed = _impressions(imps).join(_clicks(clicks), on=SAME_AD & AFTER & WITHIN, how="left")
    inner = _impressions(imps, marked=False).join(_clicks(clicks, marked=False), left_on="ad", right_on="click_ad")
    kinds = [_impressions(imps).join(_clicks(clicks), on=SAME_AD & AFTER & WITHIN, how=how) for how in HOWS]
    counted = typed.group_by(F.window(Impression.at, "1 minute")).agg(n=F.count(), clicks=F.count(Click.clicked))
    for frame in (typed, inner, *kinds, counted):  # derived schema = Spark's (an analysis each, no job)
        assert Schema(fields_of_struct(lower(frame.plan).schema)) == frame.plan.schema

    def run() -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        """One available_now run of the façade's left join and of the same query by hand, each from its checkpoint."""
        typed.write_stream_parquet(
            tmp_path / "typed", checkpoint=tmp_path / "typed-cp", available_now=True
        ).await_termination(120)
        writer = by_hand.writeStream.format("parquet").option("checkpointLocation", str(tmp_path / "plain-cp"))
        writer.trigger(availableNow=True).start(str(tmp_path / "plain")).awaitTermination(120)
        return _parquet_rows(spark, tmp_path / "typed"), _parquet_rows(spark, tmp_path / "plain")

    first, plain = run()
    assert first == plain
    assert [(row[1], row[3]) for row in first] == [(1, 1)]  # ad 1 matched; 2 and 3 may still meet a click
    _json_lines(imps, "1.json", [{"at": _at(10), "ad": 4}])  # both watermarks pass 00:09
    _json_lines(clicks, "1.json", [{"clicked": _at(10.25), "click_ad": 4}])
    second, plain = run()
    assert second == plain
    assert sorted((row[1], row[3]) for row in second) == [(1, 1), (2, None), (3, None), (4, 4)]  # ad 3's click: late

    # the inner join without watermarks: one run, every match, as by hand
    assert inner.write_stream_memory("inner_typed", available_now=True).await_termination(120) is True
    plain_inner = (
        spark.readStream.schema("at TIMESTAMP, ad BIGINT")
        .json(str(imps))
        .join(
            spark.readStream.schema("clicked TIMESTAMP, click_ad BIGINT").json(str(clicks)),
            sf.col("ad") == sf.col("click_ad"),
        )
    )
    rows = sorted(tuple(row) for row in spark.table("inner_typed").collect())
    assert rows == _run(plain_inner, "inner_plain")
    assert [(row[1], row[3]) for row in rows] == [(1, 1), (3, 3), (4, 4)]


def test_session_windows_over_a_stream_equal_plain_pyspark(spark: SparkSession, tmp_path: Path) -> None:
    source = tmp_path / "in"
    _json_lines(source, "0.json", [{"at": _at(0), "id": 1, "sensor": "a"}, {"at": _at(1), "id": 2, "sensor": "a"},
                                   {"at": _at(1.5), "id": 3, "sensor": "b"}])  # fmt: skip
    _json_lines(source, "1.json", [{"at": _at(2.5), "id": 4, "sensor": "a"}])  # a's session grows to 00:04:30
    _json_lines(source, "2.json", [{"at": _at(20), "id": 5, "sensor": "a"}])  # the watermark passes 00:19
    _json_lines(source, "3.json", [{"at": _at(21), "id": 6, "sensor": "b"}])
    sessions = (
        _marked(source, "1 minute")
        .group_by(F.session_window(Reading.at, "2 minutes"), "sensor")
        .agg(n=F.count(), ids=F.sum(Reading.id))
    )
    assert Schema(fields_of_struct(lower(sessions.plan).schema)) == sessions.plan.schema  # derived schema = Spark's
    typed = _typed(sessions, "sessions_typed", spark)
    raw = spark.readStream.schema("at TIMESTAMP, id BIGINT, sensor STRING").option("maxFilesPerTrigger", 1)
    by_hand = (
        raw.json(str(source))
        .withWatermark("at", "1 minute")
        .groupBy(sf.session_window("at", "2 minutes"), "sensor")
        .agg(sf.count("*").alias("n"), sf.sum("id").alias("ids"))
    )
    assert typed == _run(by_hand, "sessions_plain")
    shown = [(w.start.strftime("%H:%M:%S"), w.end.strftime("%H:%M:%S"), sensor, n, ids) for w, sensor, n, ids in typed]
    assert shown == [("00:00:00", "00:04:30", "a", 3, 7), ("00:01:30", "00:03:30", "b", 1, 3)]  # the final sessions
    with pytest.raises(AnalysisException, match="not supported for session window"):
        _run(by_hand, "sessions_update", mode="update")  # as the façade refuses
