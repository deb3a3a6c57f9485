"""Spark's physical controls: cache/persist/unpersist, repartition, coalesce, sample, join hints, checkpoints.

None changes the schema (``agrees``); each is checked in Spark's own plan
(``explain(spark=True)``) and by its results, and every parameter is refused
when the call is made if it has the wrong type or value.
"""

from __future__ import annotations

import functools
import re
import warnings
from typing import TYPE_CHECKING, Annotated, Any

import pytest
from pyspark.storagelevel import StorageLevel

from pydantable_spark import DataFrameModel, F
from pydantable_spark import dtypes as dt
from pydantable_spark._spark.session import is_connect
from pydantable_spark.errors import (
    ArgumentTypeError,
    ArgumentValueError,
    ColumnTypeError,
    NullCheckError,
    SparkJobError,
    UnknownColumnError,
)

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from pyspark.sql import SparkSession


class Event(DataFrameModel):
    id: int
    kind: str
    amount: float | None


class Kind(DataFrameModel):
    kind: str
    label: str


EVENTS = [{"id": i, "kind": "abc"[i % 3], "amount": None if i % 5 == 0 else i * 1.5} for i in range(60)]
KINDS = [{"kind": "a", "label": "A"}, {"kind": "b", "label": "B"}, {"kind": "z", "label": "Z"}]


@pytest.fixture(scope="module")
def events(spark: SparkSession) -> Any:
    return Event.from_rows(EVENTS)


@pytest.fixture(scope="module")
def kinds(spark: SparkSession) -> Any:
    return Kind.from_rows(KINDS)


@pytest.fixture
def no_auto_broadcast(spark: SparkSession) -> Iterator[None]:
    """Spark broadcasts small frames by itself; without that, only a hint makes it broadcast."""
    key = "spark.sql.autoBroadcastJoinThreshold"
    before = spark.conf.get(key, None)
    spark.conf.set(key, "-1")
    try:
        yield
    finally:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if before is None:
                spark.conf.unset(key)
            else:
                spark.conf.set(key, before)


def _physical(frame: Any) -> str:
    """Spark's physical plan of the frame (the part of ``explain(spark=True)`` after '== Physical Plan ==')."""
    text = frame.explain(spark=True)
    return text.split("== Physical Plan ==", 1)[1]


def test_the_controls_keep_schema_model_and_rows(events: Any, agrees: Any) -> None:
    expected = sorted(events.to_dict()["id"])
    for frame in (
        events.cache(),
        events.persist("DISK_ONLY"),
        events.repartition(7),
        events.repartition(3, "kind", Event.id % 2),
        events.repartition(Event.kind),
        events.coalesce(1),
        events.hint("broadcast"),
        events.local_checkpoint(),
    ):
        assert frame.schema == events.schema
        assert frame.model is Event
        assert sorted(frame.to_dict()["id"]) == expected
        agrees(frame)
        frame.unpersist()


class Reading(DataFrameModel):
    id: int
    x: float | None
    y: Annotated[float, dt.Float32]


def test_a_cache_keeps_nan_rows_for_every_filter(spark: SparkSession) -> None:
    """Spark's min/max of a cached batch leave NaN out, and pruning by them lost NaN rows (x == NaN, x > 1e308)."""
    key = "spark.sql.inMemoryColumnarStorage.partitionPruning"
    before = spark.conf.get(key, None)
    spark.conf.set(key, "true")  # Spark's default, whatever an earlier test left
    nan, inf = float("nan"), float("inf")
    rows = [{"id": 1, "x": 1.0, "y": 1.0}, {"id": 2, "x": nan, "y": nan}, {"id": 3, "x": None, "y": 2.0}]
    try:
        cached = Reading.from_rows(rows).coalesce(1).cache()  # one batch: min 1.0, max 1.0 (NaN left out)
        filters = {
            "x == NaN": Reading.x == nan,
            "x isin NaN": Reading.x.is_in([nan, 5.0]),
            "x > 1e308": Reading.x > 1e308,
            "x >= 2": Reading.x >= 2.0,
            "x <=> NaN": Reading.x.eq_null_safe(nan),
            "y == NaN": Reading.y == nan,
            "y > 1e30": Reading.y > 1e30,
            "x < inf": Reading.x < inf,
        }
        parts = [cached.filter(f).select(Reading.id, F.lit(name).alias("case")) for name, f in filters.items()]
        found = functools.reduce(lambda a, b: a.union(b), parts).to_dict()
        got = {
            name: sorted(i for i, c in zip(found["id"], found["case"], strict=True) if c == name) for name in filters
        }
        # Spark's NaN semantics: NaN equals NaN and is greater than every other value
        assert got == {
            "x == NaN": [2], "x isin NaN": [2], "x > 1e308": [2], "x >= 2": [2], "x <=> NaN": [2],
            "y == NaN": [2], "y > 1e30": [2], "x < inf": [1],
        }  # fmt: skip
        assert spark.conf.get(key) == "false"  # what the façade set for the cache's session
        cached.unpersist()
    finally:
        if before is None:
            spark.conf.unset(key)
        else:
            spark.conf.set(key, before)


# --- join hints ----------------------------------------------------------------------------------


@pytest.mark.usefixtures("no_auto_broadcast")
def test_a_broadcast_hint_makes_a_broadcast_join(events: Any, kinds: Any, agrees: Any) -> None:
    plain = events.join(kinds, on="kind")
    assert "BroadcastHashJoin" not in _physical(plain)
    assert "SortMergeJoin" in _physical(plain)
    hinted = events.join(kinds, on="kind", hint="broadcast")
    assert "BroadcastHashJoin" in _physical(hinted)
    assert re.search(r"BroadcastExchange", _physical(hinted))
    assert sorted(hinted.to_dict()["id"]) == sorted(plain.to_dict()["id"])
    agrees(hinted)
    on_the_left = kinds.hint("BROADCAST").join(events, on="kind", how="inner")  # Spark's names ignore case
    assert "BroadcastHashJoin" in _physical(on_the_left)
    conditioned = events.join(kinds, on=Event.kind < Kind.kind, hint="broadcast")
    assert "BroadcastNestedLoopJoin" in _physical(conditioned)


def test_a_merge_hint_overrides_the_automatic_broadcast(events: Any, kinds: Any) -> None:
    assert "BroadcastHashJoin" in _physical(events.join(kinds, on="kind"))  # small: Spark broadcasts it
    merged = events.join(kinds, on="kind", hint="merge")
    assert "SortMergeJoin" in _physical(merged)
    assert "BroadcastHashJoin" not in _physical(merged)
    assert "ShuffledHashJoin" in _physical(events.join(kinds, on="kind", hint="shuffle_hash"))


# --- partitions ----------------------------------------------------------------------------------


def test_repartition_and_coalesce_in_the_plan(events: Any) -> None:
    assert re.search(r"Exchange hashpartitioning\(kind#\d+, 5\)", _physical(events.repartition(5, "kind")))
    assert re.search(r"Exchange RoundRobinPartitioning\(4\)", _physical(events.repartition(4)))
    assert re.search(r"Coalesce 1", _physical(events.coalesce(1)))
    by_default = _physical(events.repartition("kind"))
    assert re.search(r"Exchange hashpartitioning\(kind#\d+, \d+\)", by_default)


class StoredEvent(DataFrameModel):
    """Spark writes every Parquet column nullable; reading them as such needs no NULL check in the scan."""

    id: int | None
    kind: str | None
    amount: float | None


def _parquet(spark: SparkSession, tmp_path: Path) -> Any:
    path = tmp_path / "events"
    Event.from_rows(EVENTS).write_parquet(path)
    return StoredEvent.read_parquet(path)


def test_filters_after_a_repartition_still_reach_the_scan(spark: SparkSession, tmp_path: Path) -> None:
    """The filter is written after the repartition; Spark moves it below the shuffle, into the Parquet scan."""
    frame = _parquet(spark, tmp_path).repartition(4, "kind").coalesce(2).hint("broadcast").filter(StoredEvent.id > 50)
    plan = _physical(frame)
    assert re.search(r"PushedFilters: \[IsNotNull\(id\), GreaterThan\(id,50\)\]", plan), plan
    assert sorted(frame.to_dict()["id"]) == list(range(51, 60))


def test_a_cached_frame_is_read_from_the_cache(spark: SparkSession, tmp_path: Path) -> None:
    """Filters before the cache reach the scan; filters after it read the cached rows, all of them kept."""
    source = _parquet(spark, tmp_path)
    cached = source.filter(StoredEvent.id > 10).persist("MEMORY_ONLY")
    assert cached.count() == 49
    later = cached.filter(StoredEvent.kind == "a")
    plan = _physical(later)
    assert "InMemoryTableScan" in plan, plan
    assert re.search(r"StorageLevel\(memory, deserialized, 1 replicas\)|InMemoryRelation", plan), plan
    assert re.search(r"PushedFilters: \[IsNotNull\(id\), GreaterThan\(id,10\)\]", plan), plan
    assert "EqualTo(kind,a)" not in plan  # the cache holds every kind; the filter is applied to it
    assert sorted(later.to_dict()["id"]) == [i for i in range(11, 60) if i % 3 == 0]
    uncached = cached.unpersist(blocking=True)
    assert "InMemoryTableScan" not in _physical(uncached)
    assert uncached.count() == 49
    assert "InMemoryTableScan" in _physical(cached)  # the cached frame itself caches again when used


def test_persist_takes_a_storage_level_or_its_name(events: Any) -> None:
    for n, level in enumerate(("DISK_ONLY", "disk_only", StorageLevel.DISK_ONLY, "MEMORY_ONLY_2")):
        frame = events.filter(Event.id >= n).persist(level)  # another plan each: Spark caches a plan once
        shown = "memory, 2 replicas" if level == "MEMORY_ONLY_2" else "disk, 1 replicas"
        assert f"StorageLevel({shown})" in _physical(frame)
        frame.unpersist(blocking=True)
    assert "Persist [MEMORY_AND_DISK_DESER]" in events.cache().explain()
    assert events.unpersist() is events  # not cached: nothing to do, as in PySpark


# --- sampling --------------------------------------------------------------------------------------


def test_sample_is_pysparks_sample_with_the_same_seed(events: Any) -> None:
    source = events.to_spark()
    for fraction, seed, replacement in [(0.3, 7, False), (0.5, 42, False), (1.5, 3, True)]:
        sampled = events.sample(fraction, seed=seed, with_replacement=replacement)
        expected = sorted(
            r.id for r in source.sample(withReplacement=replacement, fraction=fraction, seed=seed).collect()
        )
        assert sorted(sampled.to_dict()["id"]) == expected
        assert 0 < len(expected) < 90
    unseeded = events.sample(0.5)
    assert unseeded.to_dict() == unseeded.to_dict()  # the seed is drawn once, when the frame is made
    assert events.sample(0.0).count() == 0
    assert events.sample(1.0).count() == 60


def test_filters_stay_above_a_sample(events: Any) -> None:
    sampled = events.sample(0.5, seed=11)
    filtered = sampled.filter(Event.kind == "a")
    rows = sampled.to_dict()
    kept = [i for i, k in zip(rows["id"], rows["kind"], strict=True) if k == "a"]
    assert sorted(filtered.to_dict()["id"]) == sorted(kept)
    assert kept  # the sample has rows of kind a
    plan = _physical(filtered)
    assert plan.index("Filter") < plan.index("Sample"), plan  # the filter reads the sample (printed above it)


# --- checkpoints -----------------------------------------------------------------------------------


def test_local_checkpoint_keeps_the_computed_rows(events: Any) -> None:
    drawn = events.with_columns(r=F.rand()).local_checkpoint()
    assert drawn.to_dict() == drawn.to_dict()  # computed once: the same random values every time
    lazy = events.filter(Event.id < 5).local_checkpoint(eager=False)
    assert lazy.count() == 5


def test_checkpoint_needs_a_directory(spark: SparkSession, events: Any, tmp_path: Path) -> None:
    if is_connect(spark) or spark.sparkContext.getCheckpointDir() is None:
        with pytest.raises(SparkJobError, match="Spark has no checkpoint directory: set one with"):
            events.checkpoint()
    if is_connect(spark):  # a Connect client cannot set the server's directory
        return
    context = spark.sparkContext
    context.setCheckpointDir(str(tmp_path / "checkpoints"))
    kept = events.filter(Event.id < 10).checkpoint()
    assert kept.count() == 10
    assert sorted(kept.to_dict()["id"]) == list(range(10))


class Loose(DataFrameModel):
    id: int
    v: int | None


class Strict(DataFrameModel):
    id: int
    v: int


def test_a_failed_null_check_in_a_checkpoint_is_null_check_error(spark: SparkSession, tmp_path: Path) -> None:
    """Eager checkpoints ran the NULL check of ``as_model(..., null_check=True)`` outside the error translation."""
    checked = Loose.from_rows([{"id": 1, "v": 1}, {"id": 2, "v": None}]).as_model(Strict, null_check=True)
    calls = {
        "local_checkpoint()": lambda: checked.local_checkpoint(),
        "local_checkpoint(eager=False)": lambda: checked.local_checkpoint(eager=False).collect(),
    }
    if not is_connect(spark):  # a Connect client cannot set the server's checkpoint directory
        spark.sparkContext.setCheckpointDir(str(tmp_path / "checkpoints"))
        calls["checkpoint()"] = lambda: checked.checkpoint()
    for what, call in calls.items():
        with pytest.raises(
            NullCheckError, match=r"column 'v' holds a NULL, but the model declares it non-null"
        ) as info:
            call()
        action = "collect()" if "eager=False" in what else what
        assert str(info.value).startswith(f"{action}: "), what
        assert info.value.column == "v"


# --- parameters ------------------------------------------------------------------------------------


ARGUMENT_MISTAKES: dict[str, tuple[Any, type[Exception], str]] = {
    "hint of another type": (lambda df: df.hint(1), ArgumentTypeError, r"hint\(\): the hint must be a str, got 1"),
    "an unknown hint": (lambda df: df.hint("brodcast"), ArgumentValueError, "'brodcast' is not a Spark join hint"),
    "an unknown join hint": (
        lambda df: df.join(df, on="id", hint="nested"),
        ArgumentValueError,
        r"join\(hint=...\): 'nested' is not a Spark join hint",
    ),
    "an unknown storage level": (
        lambda df: df.persist("MEMORY"),
        ArgumentValueError,
        r"persist\(level=...\): 'MEMORY' is not a storage level; use a name of pyspark's StorageLevel",
    ),
    "a storage level of another type": (
        lambda df: df.persist(3),
        ArgumentTypeError,
        "the level must be a str or a pyspark StorageLevel, got 3",
    ),
    "a storage level Spark has no name for": (
        lambda df: df.persist(StorageLevel(True, True, False, True, 5)),
        ArgumentValueError,
        "is not one of pyspark's StorageLevel constants",
    ),
    "no partitions": (lambda df: df.repartition(0), ArgumentValueError, r"repartition\(\) needs n >= 1, got 0"),
    "partitions of another type": (lambda df: df.repartition(2.5), ArgumentTypeError, "n must be int"),
    "partitions as a bool": (lambda df: df.repartition(True), ArgumentTypeError, "n must be int"),
    "nothing to repartition by": (
        lambda df: df.repartition(),
        TypeError,
        "missing 1 required positional argument",
    ),
    "coalesce to no partitions": (lambda df: df.coalesce(0), ArgumentValueError, r"coalesce\(\) needs n >= 1"),
    "coalesce of another type": (lambda df: df.coalesce("2"), ArgumentTypeError, r"coalesce\(\): n must be int"),
    "a fraction above 1": (
        lambda df: df.sample(1.5),
        ArgumentValueError,
        r"sample\(\) needs 0 <= fraction <= 1 \(without replacement\), got fraction=1.5",
    ),
    "a negative fraction": (lambda df: df.sample(-0.1, with_replacement=True), ArgumentValueError, "0 <= fraction"),
    "a fraction that is not a number": (lambda df: df.sample(float("nan")), ArgumentValueError, "fraction=nan"),
    "a fraction of another type": (lambda df: df.sample("0.5"), ArgumentTypeError, "fraction must be float or int"),
    "a seed of another type": (lambda df: df.sample(0.5, seed=1.5), ArgumentTypeError, "seed must be int or None"),
    "a seed beyond a bigint": (lambda df: df.sample(0.5, seed=2**64), ArgumentValueError, "seed must fit in a bigint"),
    "with_replacement of another type": (
        lambda df: df.sample(0.5, with_replacement="yes"),
        ArgumentTypeError,
        "with_replacement must be bool",
    ),
    "eager of another type": (lambda df: df.local_checkpoint(eager="no"), ArgumentTypeError, "eager must be bool"),
    "blocking of another type": (lambda df: df.unpersist(blocking=1), ArgumentTypeError, "blocking must be bool"),
}


@pytest.mark.parametrize("case", list(ARGUMENT_MISTAKES))
def test_parameters_are_checked_when_the_call_is_made(events: Any, case: str) -> None:
    make, kind, message = ARGUMENT_MISTAKES[case]
    with pytest.raises(kind, match=message):
        make(events)


def test_partition_keys_are_checked(events: Any) -> None:
    with pytest.raises(UnknownColumnError, match="unknown column 'nope'"):
        events.repartition(2, "nope")
    with pytest.raises(ColumnTypeError, match="gives another value each time it runs"):
        events.repartition(2, F.rand())
    with pytest.raises(ColumnTypeError, match="maps cannot be hashed"):
        events.repartition(2, F.create_map(Event.kind, Event.id))
    with pytest.raises(ColumnTypeError, match="aggregate"):
        events.repartition(2, F.sum(Event.id))
