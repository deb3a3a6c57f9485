"""Writes are all-or-nothing (DESIGN §3.8): every failure point leaves the old data as it was, row for row."""

from __future__ import annotations

import gc
import os
import pathlib
import re
import threading
from typing import TYPE_CHECKING, Any

import pytest

from pydantable_spark import DataFrame, DataFrameModel
from pydantable_spark._spark import writes
from pydantable_spark.errors import NullCheckError, TargetExistsError, WriteError

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from pyspark.sql import SparkSession


CLASSIC_ONLY = pytest.mark.skipif(
    os.environ.get("PYDANTABLE_TEST_CONNECT", "") not in ("", "0"),
    reason="injects faults into the swap through the driver's JVM (Hadoop FileSystem API): classic Spark only",
)


class Item(DataFrameModel):
    id: int
    name: str


OLD = [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]
NEW = [{"id": 3, "name": "c"}]
FORMATS = ["parquet", "orc", "csv", "json"]


def _write(frame: DataFrame[Any], fmt: str, path: Path, **kwargs: Any) -> None:
    getattr(frame, f"write_{fmt}")(path, **kwargs)


def _rows(fmt: str, path: Path) -> list[dict[str, object]]:
    frame = getattr(Item, f"read_{fmt}")(path).sort(Item.id).to_dict()
    return [dict(zip(frame, values, strict=True)) for values in zip(*frame.values(), strict=True)]


def _failing(spark: SparkSession) -> DataFrame[Item]:
    """Rows whose run-time NULL check fails while Spark writes them (the NULL is in the second partition)."""
    sdf = spark.createDataFrame([(3, "c"), (4, None)], "id bigint, name string").repartition(2)
    return Item.from_spark(sdf, null_check=True)


def _listing(path: Path) -> list[str]:
    """Every file and directory under ``path``'s parent (hidden ones included), relative to it."""
    return sorted(str(p.relative_to(path.parent)) for p in path.parent.rglob("*"))


@pytest.fixture
def old(tmp_path: Path) -> Path:
    return tmp_path / "data"


def _with_old(fmt: str, path: Path, **kwargs: Any) -> list[str]:
    _write(Item.from_rows(OLD), fmt, path, **kwargs)
    return _listing(path)


# --- a failing run-time check -----------------------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_failed_overwrite_leaves_the_old_data(spark: SparkSession, old: Path, fmt: str) -> None:
    before = _with_old(fmt, old)
    with pytest.raises(NullCheckError, match=rf"write_{fmt}\(.*\): column 'name' holds a NULL"):
        _write(_failing(spark), fmt, old, mode="overwrite")
    assert _rows(fmt, old) == OLD
    assert _listing(old) == before  # same files, and no staging or backup left next to them


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_failed_append_adds_no_file(spark: SparkSession, old: Path, fmt: str) -> None:
    before = _with_old(fmt, old)
    with pytest.raises(NullCheckError):
        _write(_failing(spark), fmt, old, mode="append")
    assert _rows(fmt, old) == OLD
    assert _listing(old) == before


def test_a_failed_write_to_a_new_path_leaves_no_path(spark: SparkSession, old: Path) -> None:
    with pytest.raises(NullCheckError):
        _failing(spark).write_parquet(old)
    assert not old.exists()  # Spark alone leaves an empty directory, and the retry then fails with "exists"
    assert _listing(old) == []
    Item.from_rows(OLD).write_parquet(old)
    assert _rows("parquet", old) == OLD


def test_overwrite_and_append_that_succeed(old: Path) -> None:
    _with_old("parquet", old)
    Item.from_rows(NEW).write_parquet(old, mode="append")
    assert _rows("parquet", old) == OLD + NEW
    Item.from_rows(NEW).write_parquet(old, mode="overwrite")
    assert _rows("parquet", old) == NEW
    assert sorted(p.name for p in old.parent.iterdir()) == ["data"]


def test_error_and_ignore_modes_never_touch_existing_data(old: Path) -> None:
    before = _with_old("parquet", old)
    with pytest.raises(TargetExistsError, match=r"already exists and mode='errorifexists'; pass mode='overwrite'"):
        Item.from_rows(NEW).write_parquet(old, mode="errorifexists")
    assert isinstance(TargetExistsError("x"), FileExistsError)
    Item.from_rows(NEW).write_parquet(old, mode="ignore")
    assert _rows("parquet", old) == OLD
    assert _listing(old) == before


CONNECT_ONLY = pytest.mark.skipif(
    os.environ.get("PYDANTABLE_TEST_CONNECT", "") in ("", "0"),
    reason="only Spark Connect materializes a write through a server-side checkpoint",
)


def _unreleased_checkpoints() -> list[object]:
    from pyspark.sql.connect.plan import CachedRemoteRelation

    return [o for o in gc.get_objects() if isinstance(o, CachedRemoteRelation) and o._relation_id is not None]


@CONNECT_ONLY
def test_a_connect_write_frees_its_checkpoint_at_once_even_when_it_fails(old: Path) -> None:
    # left to the client's finalizer, a failed write's checkpoint (held by the traceback) would be
    # freed by the cyclic garbage collector at some later point, possibly inside another RPC
    gc.collect()
    assert _unreleased_checkpoints() == []
    _with_old("parquet", old)
    with pytest.raises(TargetExistsError) as info:
        Item.from_rows(NEW).write_parquet(old, mode="error")
    assert info.value.__traceback__ is not None
    assert _unreleased_checkpoints() == []
    assert _rows("parquet", old) == OLD


# --- a frame that reads its own target -------------------------------------------------------------


def test_overwriting_the_path_a_frame_reads_is_refused_up_front(old: Path) -> None:
    before = _with_old("parquet", old)
    frame = Item.read_parquet(old)
    refused = r"refusing to overwrite a path that this frame reads \(\d+ of its files, e.g. file:"
    with pytest.raises(WriteError, match=refused):
        frame.write_parquet(old, mode="overwrite")
    with pytest.raises(WriteError, match="refusing to overwrite"):  # through a union with other data too
        Item.from_rows(NEW).concat(frame).write_parquet(old, mode="overwrite")
    assert _rows("parquet", old) == OLD
    assert _listing(old) == before
    frame.filter(Item.id > 1).write_parquet(old, mode="append")  # appending from itself is fine
    assert _rows("parquet", old) == [*OLD, OLD[1]]


def test_overwriting_a_directory_that_holds_what_the_frame_reads_is_refused(old: Path) -> None:
    _with_old("parquet", old / "inner")
    with pytest.raises(WriteError, match="refusing to overwrite"):
        Item.read_parquet(old / "inner").write_parquet(old, mode="overwrite")
    assert _rows("parquet", old / "inner") == OLD


# --- partitions -------------------------------------------------------------------------------------


class Sale(DataFrameModel):
    id: int
    day: str
    region: str


SALES = [{"id": 1, "day": "d1", "region": "eu"}, {"id": 2, "day": "d2", "region": "us"}]


def _sales(path: Path) -> list[dict[str, object]]:
    frame = Sale.read_parquet(path).sort(Sale.id).to_dict()
    return [dict(zip(frame, values, strict=True)) for values in zip(*frame.values(), strict=True)]


def test_partitioned_append_moves_new_partitions_in(old: Path) -> None:
    Sale.from_rows(SALES).write_parquet(old, partition_by=["day", "region"])
    Sale.from_rows([{"id": 3, "day": "d3", "region": "eu"}]).write_parquet(
        old, mode="append", partition_by=["day", "region"]
    )
    assert [r["id"] for r in _sales(old)] == [1, 2, 3]
    assert sorted(p.name for p in old.iterdir() if p.is_dir()) == ["day=d1", "day=d2", "day=d3"]


@pytest.mark.parametrize("dynamic", [True, False])
def test_overwrite_honours_dynamic_partition_overwrite(spark: SparkSession, old: Path, dynamic: bool) -> None:
    Sale.from_rows(SALES).write_parquet(old, partition_by="day")
    options = {"partitionOverwriteMode": "dynamic"} if dynamic else {}
    Sale.from_rows([{"id": 9, "day": "d2", "region": "jp"}]).write_parquet(
        old, mode="overwrite", partition_by="day", **options
    )
    kept = [1] if dynamic else []  # dynamic: only partition day=d2 is replaced, as Spark does
    assert [r["id"] for r in _sales(old)] == [*kept, 9]


def test_a_failed_dynamic_overwrite_leaves_every_partition(spark: SparkSession, old: Path) -> None:
    Sale.from_rows(SALES).write_parquet(old, partition_by="day")
    before = _listing(old)
    spark.conf.set("spark.sql.sources.partitionOverwriteMode", "dynamic")
    try:
        sdf = spark.createDataFrame([(5, "d2", "x"), (6, "d3", None)], "id bigint, day string, region string")
        with pytest.raises(NullCheckError):
            Sale.from_spark(sdf, null_check=True).write_parquet(old, mode="overwrite", partition_by="day")
    finally:
        spark.conf.unset("spark.sql.sources.partitionOverwriteMode")
    assert _sales(old) == SALES
    assert _listing(old) == before


# --- the swap itself fails ----------------------------------------------------------------------------


@CLASSIC_ONLY
@pytest.mark.parametrize("failing_rename", [1, 2])
def test_a_failure_while_swapping_puts_the_old_data_back(
    monkeypatch: pytest.MonkeyPatch, old: Path, failing_rename: int
) -> None:
    """Fault injection in the façade's own swap (rename 1 moves the old data aside, rename 2 the new data in)."""
    before = _with_old("parquet", old)
    real = writes._FileSystem._rename
    calls = []

    def rename(self: writes._FileSystem, source: object, destination: object) -> None:
        calls.append(source)
        if len(calls) == failing_rename:
            raise OSError("disk gone")
        real(self, source, destination)

    monkeypatch.setattr(writes._FileSystem, "_rename", rename)
    with pytest.raises(WriteError, match="moving the written files into place failed; the target is as it was"):
        Item.from_rows(NEW).write_parquet(old, mode="overwrite")
    monkeypatch.undo()
    assert _rows("parquet", old) == OLD
    assert _listing(old) == before


@CLASSIC_ONLY
def test_a_failure_while_moving_appended_files_takes_them_back(monkeypatch: pytest.MonkeyPatch, old: Path) -> None:
    Sale.from_rows(SALES).write_parquet(old, partition_by="day")
    before = _listing(old)
    real = writes._FileSystem._rename
    calls = []

    def rename(self: writes._FileSystem, source: object, destination: object) -> None:
        calls.append(source)
        if len(calls) == 3:  # two files moved in (one into a new partition directory), then a failure
            raise OSError("disk gone")
        real(self, source, destination)

    monkeypatch.setattr(writes._FileSystem, "_rename", rename)
    more = [{"id": 3, "day": "d1", "region": "a"}, {"id": 4, "day": "d4", "region": "b"}, {"id": 5, "day": "d5"}]
    frame = Sale.from_rows([{"region": "c", **row} for row in more]).sort(Sale.id).limit(3)
    with pytest.raises(WriteError):
        frame.write_parquet(old, mode="append", partition_by="day")
    monkeypatch.undo()
    assert len(calls) == 3
    assert _sales(old) == SALES
    assert _listing(old) == before  # the partition directory made for the moved file is gone too


# --- two writes at one target -------------------------------------------------------------------------

OTHER = [{"id": 7, "name": "other"}, {"id": 8, "name": "other"}]


@CLASSIC_ONLY
@pytest.mark.parametrize(
    ("mode", "outcome", "kept"),
    [
        ("error", "TargetExistsError", OTHER),
        ("errorifexists", "TargetExistsError", OTHER),
        ("ignore", None, OTHER),
        ("append", None, OTHER + NEW),
        ("overwrite", "WriteError", OTHER),
    ],
)
def test_a_path_another_write_makes_meanwhile_is_never_replaced(
    spark: SparkSession, monkeypatch: pytest.MonkeyPatch, old: Path, mode: str, outcome: str | None, kept: Any
) -> None:
    """The other write lands between this write's existence check and its rename (injected, deterministic)."""
    real = writes._FileSystem._renamed_into_place
    other = spark.createDataFrame([(r["id"], r["name"]) for r in OTHER], "id bigint, name string")

    def racing(self: writes._FileSystem, source: Any, destination: Any) -> bool:
        if not old.exists():
            other.write.parquet(str(old))  # Spark's own writer, as another program would
        return real(self, source, destination)

    monkeypatch.setattr(writes._FileSystem, "_renamed_into_place", racing)
    if outcome is None:
        Item.from_rows(NEW).write_parquet(old, mode=mode)
    else:
        error = TargetExistsError if outcome == "TargetExistsError" else WriteError
        with pytest.raises(error, match="this write's rows were not written") as raised:
            Item.from_rows(NEW).write_parquet(old, mode=mode)
        assert type(raised.value).__name__ in (outcome, "_Appeared")
    monkeypatch.undo()
    assert sorted(_rows("parquet", old), key=lambda r: str(r["id"])) == sorted(kept, key=lambda r: str(r["id"]))
    assert [p.name for p in old.iterdir() if p.name.startswith(".") and not p.name.endswith(".crc")] == []
    assert [p.name for p in old.parent.iterdir() if "pydantable" in p.name] == []


@CLASSIC_ONLY
def test_an_overwrite_raced_by_another_keeps_the_old_data_it_set_aside(
    spark: SparkSession, monkeypatch: pytest.MonkeyPatch, old: Path
) -> None:
    _with_old("parquet", old)
    real = writes._FileSystem._renamed_into_place
    other = spark.createDataFrame([(r["id"], r["name"]) for r in OTHER], "id bigint, name string")

    def racing(self: writes._FileSystem, source: Any, destination: Any) -> bool:
        other.write.mode("error").parquet(str(old))  # the old data is aside now: the other write makes the path
        return real(self, source, destination)

    monkeypatch.setattr(writes._FileSystem, "_renamed_into_place", racing)
    with pytest.raises(WriteError, match=r"the data that was there before is kept at (\S+)") as raised:
        Item.from_rows(NEW).write_parquet(old, mode="overwrite")
    monkeypatch.undo()
    assert _rows("parquet", old) == OTHER
    kept = re.search(r"kept at (\S+)$", str(raised.value))
    assert kept is not None
    assert sorted(r["id"] for r in spark.read.parquet(kept.group(1)).collect()) == [1, 2]


def _race(frames: list[DataFrame[Item]], target: Path | str, mode: str = "error") -> dict[int, BaseException | None]:
    """Each frame written to ``target`` (a path, or a table's name) in ``mode`` by its own thread, started together."""
    barrier = threading.Barrier(len(frames))
    outcomes: dict[int, BaseException | None] = {}

    def write(i: int) -> None:
        barrier.wait()
        try:
            if isinstance(target, str):
                frames[i].save_as_table(target, mode=mode)  # type: ignore[arg-type]
            else:
                frames[i].write_parquet(target, mode=mode)  # type: ignore[arg-type]
            outcomes[i] = None
        except BaseException as error:
            outcomes[i] = error

    threads = [threading.Thread(target=write, args=(i,)) for i in range(len(frames))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def test_two_writers_racing_for_a_new_path_never_both_succeed(spark: SparkSession, tmp_path: Path) -> None:
    """Real threads, as two jobs of one application would race: one wins, the other is told."""
    frames = [Item.from_rows([{"id": i * 10 + j, "name": str(i)} for j in range(3)]) for i in range(2)]
    for frame in frames:
        frame.count()  # uploaded once, so both writes start together
    for attempt in range(4):
        target = tmp_path / f"race{attempt}"
        outcomes = _race(frames, target)
        winners = [i for i, error in outcomes.items() if error is None]
        assert len(winners) == 1, outcomes
        loser = outcomes[1 - winners[0]]
        assert isinstance(loser, TargetExistsError), loser
        written = Item.read_parquet(target).sort(Item.id).to_dict()
        assert written == frames[winners[0]].sort(Item.id).to_dict()


# --- catalog tables -----------------------------------------------------------------------------------


@pytest.fixture
def table(spark: SparkSession) -> Iterator[str]:
    name = "pydantable_writes_items"
    spark.sql(f"DROP TABLE IF EXISTS {name}")
    yield name
    spark.sql(f"DROP TABLE IF EXISTS {name}")


def _table_rows(name: str) -> list[dict[str, object]]:
    frame = Item.read_table(name).sort(Item.id).to_dict()
    return [dict(zip(frame, values, strict=True)) for values in zip(*frame.values(), strict=True)]


def _tables(spark: SparkSession) -> list[str]:
    return sorted(t.name for t in spark.catalog.listTables() if t.name.startswith("pydantable_writes"))


@pytest.mark.parametrize("mode", ["overwrite", "append"])
def test_a_failed_save_as_table_leaves_the_table(spark: SparkSession, table: str, mode: str) -> None:
    Item.from_rows(OLD).save_as_table(table)
    with pytest.raises(NullCheckError, match=r"save_as_table\('pydantable_writes_items'\): column 'name'"):
        _failing(spark).save_as_table(table, mode=mode)  # type: ignore[arg-type]
    assert _table_rows(table) == OLD
    assert _tables(spark) == [table]  # no staging table left behind


def test_a_failed_save_as_new_table_creates_nothing(spark: SparkSession, table: str) -> None:
    with pytest.raises(NullCheckError):
        _failing(spark).save_as_table(table)
    assert _tables(spark) == []
    Item.from_rows(OLD).save_as_table(table)  # the name is free: nothing was left at its location
    assert _table_rows(table) == OLD


def test_save_as_table_modes(spark: SparkSession, table: str) -> None:
    Item.from_rows(OLD).save_as_table(table)
    with pytest.raises(TargetExistsError, match="the table already exists and mode='error'"):
        Item.from_rows(NEW).save_as_table(table)
    Item.from_rows(NEW).save_as_table(table, mode="ignore")
    assert _table_rows(table) == OLD
    Item.from_rows(NEW).save_as_table(table, mode="append")
    assert _table_rows(table) == OLD + NEW
    Item.from_rows(NEW).save_as_table(table, mode="overwrite")
    assert _table_rows(table) == NEW
    assert _tables(spark) == [table]


def test_a_partitioned_table_reads_its_rows_after_each_mode(spark: SparkSession) -> None:
    """The write renames a staging table into place; its partitions must follow (they used to read no row)."""
    name = "pydantable_writes_sales"
    spark.sql(f"DROP TABLE IF EXISTS {name}")
    more = [{"id": 3, "day": "d3", "region": "eu"}]
    try:
        Sale.from_rows(SALES).save_as_table(name, partition_by="day")
        assert sorted(Sale.read_table(name).to_dict()["id"]) == [1, 2]
        Sale.from_rows(more).save_as_table(name, mode="append", partition_by="day")
        assert sorted(Sale.read_table(name).to_dict()["id"]) == [1, 2, 3]
        Sale.from_rows(more).save_as_table(name, mode="overwrite", partition_by="day")
        assert sorted(Sale.read_table(name).to_dict()["id"]) == [3]
        assert [r.partition for r in spark.sql(f"SHOW PARTITIONS {name}").collect()] == ["day=d3"]
    finally:
        spark.sql(f"DROP TABLE IF EXISTS {name}")


@pytest.mark.parametrize("mode", ["error", "append", "overwrite"])
def test_two_writers_racing_for_a_new_table_lose_no_row(spark: SparkSession, table: str, mode: str) -> None:
    frames = [Item.from_rows([{"id": i * 10 + j, "name": str(i)} for j in range(3)]) for i in range(2)]
    for frame in frames:
        frame.count()
    rows = [sorted(frame.to_dict()["id"]) for frame in frames]
    for _ in range(3):
        spark.sql(f"DROP TABLE IF EXISTS {table}")
        outcomes = _race(frames, table, mode)
        written = sorted(_table_rows(table), key=lambda r: str(r["id"]))
        ids = sorted(int(str(r["id"])) for r in written)
        winners = [i for i, error in outcomes.items() if error is None]
        if mode == "append":
            assert sorted(winners) == [0, 1], outcomes
            assert ids == sorted(rows[0] + rows[1])
        elif mode == "error":
            assert len(winners) == 1, outcomes
            assert isinstance(outcomes[1 - winners[0]], TargetExistsError), outcomes
            assert ids == rows[winners[0]]
        else:  # the last overwrite wins; a loser is told, never silently dropped
            assert winners, outcomes
            assert all(isinstance(e, WriteError) for e in outcomes.values() if e is not None), outcomes
            assert ids in [rows[i] for i in winners]
        assert _tables(spark) == [table]  # no staging or set-aside table left behind


def test_overwriting_the_table_a_frame_reads_is_refused(spark: SparkSession, table: str) -> None:
    Item.from_rows(OLD).save_as_table(table)
    with pytest.raises(WriteError, match="refusing to overwrite a table that this frame reads"):
        Item.read_table(table).filter(Item.id > 1).save_as_table(table, mode="overwrite")
    assert _table_rows(table) == OLD


def test_save_as_table_refuses_an_external_path(tmp_path: Path, table: str) -> None:
    with pytest.raises(WriteError, match="the 'path' option makes an external table"):
        Item.from_rows(OLD).save_as_table(table, path=str(tmp_path / "ext"))
    assert not (tmp_path / "ext").exists()


def _failing_sql(monkeypatch: pytest.MonkeyPatch, spark: SparkSession, before: Any) -> None:
    """Run ``before(statement)`` ahead of the SQL statement that renames the staging table into place."""
    real_sql = type(spark).sql

    def sql(self: SparkSession, statement: str, *args: Any, **kwargs: Any) -> Any:
        if statement.startswith("ALTER TABLE") and "staging" in statement.split("RENAME TO")[0]:
            before(statement)
        return real_sql(self, statement, *args, **kwargs)

    monkeypatch.setattr(type(spark), "sql", sql)


def test_a_failed_table_swap_puts_the_old_table_back(
    monkeypatch: pytest.MonkeyPatch, spark: SparkSession, table: str
) -> None:
    """Fault injection: the rename of the written table into place fails."""
    Item.from_rows(OLD).save_as_table(table)

    def fail(statement: str) -> None:
        raise OSError("metastore gone")

    _failing_sql(monkeypatch, spark, fail)
    with pytest.raises(WriteError, match="renaming the written table into place failed; the table is as it was"):
        Item.from_rows(NEW).save_as_table(table, mode="overwrite")
    monkeypatch.undo()
    assert _table_rows(table) == OLD
    assert _tables(spark) == [table]


def test_a_blocked_table_swap_keeps_the_old_data_and_says_where(
    monkeypatch: pytest.MonkeyPatch, spark: SparkSession, table: str
) -> None:
    """A real Spark failure: a directory sits where the table's files go, so neither rename can happen."""
    Item.from_rows(OLD).save_as_table(table)
    location = spark.sql(f"DESCRIBE TABLE EXTENDED {table}").where("col_name = 'Location'").collect()[0][1]

    def block(statement: str) -> None:
        pathlib.Path(location.removeprefix("file:")).mkdir(parents=True)  # where the old table's files were

    _failing_sql(monkeypatch, spark, block)
    try:
        with pytest.raises(
            WriteError, match="its data is intact in table `(pydantable_writes_items__pydantable_old_[0-9a-f]+)`"
        ) as info:
            Item.from_rows(NEW).save_as_table(table, mode="overwrite")
        monkeypatch.undo()
        aside = re.search(r"intact in table `(\w+)`", str(info.value)).group(1)  # type: ignore[union-attr]
        assert _table_rows(aside) == OLD
        assert "LOCATION_ALREADY_EXISTS" in str(info.value.__cause__)  # what Spark said about the rename
    finally:
        monkeypatch.undo()
        pathlib.Path(location.removeprefix("file:")).rmdir()
        for name in _tables(spark):
            spark.sql(f"DROP TABLE IF EXISTS {name}")


# --- appends that change the schema -----------------------------------------------------------------


class SaleV2(DataFrameModel):
    id: int
    day: str
    region: str
    channel: str | None = None


class SaleWide(DataFrameModel):
    id: float
    day: str
    region: str


@pytest.mark.parametrize("fmt", ["parquet", "orc"])
def test_an_append_that_adds_a_column_needs_merge_schema(tmp_path: Path, fmt: str) -> None:
    target = tmp_path / "sales"
    getattr(Sale.from_rows(SALES), f"write_{fmt}")(target)
    files = sorted(p.name for p in target.iterdir())
    newer = SaleV2.from_rows([{"id": 3, "day": "d3", "region": "eu", "channel": "web"}])
    with pytest.raises(WriteError, match=r"would add column\(s\) 'channel'.*pass mergeSchema=True"):
        getattr(newer, f"write_{fmt}")(target, mode="append")
    assert sorted(p.name for p in target.iterdir()) == files  # nothing written
    getattr(newer, f"write_{fmt}")(target, mode="append", mergeSchema=True)
    rows = getattr(SaleV2, f"read_{fmt}")(target, mergeSchema=True).sort(SaleV2.id).to_dict()
    assert rows["channel"] == [None, None, "web"]


def test_an_append_that_changes_a_type_is_refused_even_with_merge_schema(tmp_path: Path) -> None:
    Sale.from_rows(SALES).write_parquet(tmp_path / "sales")
    wide = SaleWide.from_rows([{"id": 3.5, "day": "d3", "region": "eu"}])
    for options in ({}, {"mergeSchema": True}):
        with pytest.raises(WriteError, match=r"'id' is bigint in the files there and double in this frame"):
            wide.write_parquet(tmp_path / "sales", mode="append", **options)
    assert sorted(Sale.read_parquet(tmp_path / "sales").to_dict()["id"]) == [1, 2]


def test_an_append_with_the_same_columns_or_fewer_is_not_refused(tmp_path: Path) -> None:
    SaleV2.from_rows([{"id": 1, "day": "d1", "region": "eu", "channel": "web"}]).write_parquet(tmp_path / "s")
    Sale.from_rows(SALES[1:]).write_parquet(tmp_path / "s", mode="append")
    Sale.from_rows(SALES[:1]).write_parquet(tmp_path / "s", mode="append", partition_by=None)
    assert sorted(Sale.read_parquet(tmp_path / "s").to_dict()["id"]) == [1, 1, 2]


# --- column comments ----------------------------------------------------------------------------


def test_descriptions_are_kept_by_parquet_files_and_tables_but_not_by_orc_files(
    spark: SparkSession, tmp_path: Path, table: str
) -> None:
    """docs/io.md says exactly this: Spark's ORC writer stores no column metadata in the files (measured here)."""
    from pydantic import Field

    class Described(DataFrameModel):
        id: int = Field(description="the key")
        name: str

    frame = Described.from_rows(OLD)
    frame.write_parquet(tmp_path / "p")
    frame.write_orc(tmp_path / "o")
    frame.save_as_table(table, format="orc")
    kept = {
        "parquet files": spark.read.parquet(str(tmp_path / "p")).schema,
        "orc files": spark.read.orc(str(tmp_path / "o")).schema,
        "orc table": spark.read.table(table).schema,
    }
    comments = {where: {f.name: f.metadata.get("comment") for f in schema.fields} for where, schema in kept.items()}
    assert comments == {
        "parquet files": {"id": "the key", "name": None},
        "orc files": {"id": None, "name": None},
        "orc table": {"id": "the key", "name": None},
    }
