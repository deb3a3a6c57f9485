"""Delta Lake and Iceberg tables on real jars: round trips, time travel, all-or-nothing writes.

The tests marked ``lakehouse`` run in the lakehouse tier of ``.ci/run`` (PySpark 4.1 with the jars
Maven fetched into ``.ci/cache/lakehouse-jars``; no Delta or Iceberg release runs on Spark 4.3 yet,
see ``docs/lakehouse.md``) and are skipped elsewhere, saying so. The argument checks need no JVM.
"""

from __future__ import annotations

import datetime
import os
import runpy
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import pytest
from pydantic import Field

from pydantable_spark import DataFrame, DataFrameModel
from pydantable_spark.errors import (
    ArgumentTypeError,
    ArgumentValueError,
    ConstraintError,
    MissingColumnError,
    NullabilityError,
    NullCheckError,
    TargetExistsError,
)

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

LAKEHOUSE = pytest.mark.lakehouse


class Item(DataFrameModel):
    id: int
    name: str
    price: float | None


OLD = [{"id": 1, "name": "a", "price": 1.5}, {"id": 2, "name": "b", "price": None}]
NEW = [{"id": 3, "name": "c", "price": 7.25}]


def _rows(frame: DataFrame[Any]) -> list[dict[str, object]]:
    return [row.model_dump() for row in frame.sort("id").collect()]


def _failing(spark: SparkSession) -> DataFrame[Item]:
    """Rows whose run-time NULL check fails while Spark writes them (the NULL is in the second partition)."""
    sdf = spark.createDataFrame([(3, "c", 1.0), (4, None, 2.0)], "id bigint, name string, price double")
    return Item.from_spark(sdf.repartition(2), null_check=True)


def _table(catalog: str = "") -> str:
    name = f"t_{uuid.uuid4().hex[:10]}"
    return f"{catalog}.db.{name}" if catalog else name


def _delta_versions(spark: SparkSession, where: str) -> list[tuple[int, str]]:
    rows = spark.sql(f"DESCRIBE HISTORY {where}").select("version", "operation").collect()
    return sorted((int(row[0]), str(row[1])) for row in rows)


def _snapshots(spark: SparkSession, table: str) -> list[tuple[int, str]]:
    rows = spark.sql(f"SELECT snapshot_id, operation FROM {table}.snapshots ORDER BY committed_at").collect()
    return [(int(row[0]), str(row[1])) for row in rows]


# --- Delta Lake: files -------------------------------------------------------------------------


@LAKEHOUSE
def test_delta_round_trip_keeps_types_and_values(tmp_path: Path) -> None:
    Item.from_rows(OLD).write_delta(tmp_path / "d")
    back = Item.read_delta(tmp_path / "d")
    assert back.schema == Item.frame_schema()
    assert _rows(back) == OLD


@LAKEHOUSE
def test_delta_time_travel_by_version_and_timestamp(tmp_path: Path, spark: SparkSession) -> None:
    where = str(tmp_path / "d")
    Item.from_rows(OLD).write_delta(where)
    Item.from_rows(NEW).write_delta(where, mode="overwrite")
    Item.from_rows(OLD[:1]).write_delta(where, mode="append")
    assert _rows(Item.read_delta(where)) == [OLD[0], NEW[0]]
    assert _rows(Item.read_delta(where, version=1)) == OLD  # version 0 created the table (NOT NULL columns)
    assert _rows(Item.read_delta(where, version=2)) == NEW
    history = spark.sql(f"DESCRIBE HISTORY delta.`{where}`").select("version", "timestamp").collect()
    first = next(row[1] for row in history if row[0] == 1)
    assert _rows(Item.read_delta(where, timestamp=first)) == OLD
    aware = first.replace(tzinfo=datetime.timezone.utc)  # the session's time zone is UTC
    assert _rows(Item.read_delta(where, timestamp=aware)) == OLD


@LAKEHOUSE
@pytest.mark.parametrize("mode", ["overwrite", "append"])
def test_a_failing_delta_write_leaves_the_current_version(tmp_path: Path, spark: SparkSession, mode: str) -> None:
    where = str(tmp_path / "d")
    Item.from_rows(OLD).write_delta(where)
    before = _delta_versions(spark, f"delta.`{where}`")
    with pytest.raises(NullCheckError, match="name"):
        _failing(spark).write_delta(where, mode=mode)  # type: ignore[arg-type]
    assert _delta_versions(spark, f"delta.`{where}`") == before == [(0, "CREATE TABLE"), (1, "WRITE")]
    assert _rows(Item.read_delta(where)) == OLD


@LAKEHOUSE
def test_a_delta_write_whose_constraint_fails_commits_nothing(tmp_path: Path, spark: SparkSession) -> None:
    from pydantic import Field

    class Bounded(DataFrameModel):
        id: int
        name: str
        price: float | None = Field(default=None, ge=0)

    where = str(tmp_path / "d")
    Bounded.from_rows(OLD).write_delta(where)
    bad = Item.from_rows([{"id": 9, "name": "z", "price": -1.0}]).as_model(Bounded)
    with pytest.raises(ConstraintError, match="price"):
        bad.write_delta(where, mode="append")
    assert _delta_versions(spark, f"delta.`{where}`") == [(0, "CREATE TABLE"), (1, "WRITE")]
    report = bad.write_delta(where, mode="append", constraints="report")
    assert report is not None
    assert report.rows == 1
    assert [v.count for v in report.errors] == [1]
    assert _delta_versions(spark, f"delta.`{where}`") == [(0, "CREATE TABLE"), (1, "WRITE"), (2, "WRITE")]


@LAKEHOUSE
def test_delta_modes_error_and_ignore_on_an_existing_table(tmp_path: Path, spark: SparkSession) -> None:
    where = str(tmp_path / "d")
    Item.from_rows(OLD).write_delta(where)
    with pytest.raises(TargetExistsError, match="already exists"):
        Item.from_rows(NEW).write_delta(where)
    Item.from_rows(NEW).write_delta(where, mode="ignore")
    assert _delta_versions(spark, f"delta.`{where}`") == [(0, "CREATE TABLE"), (1, "WRITE")]
    assert _rows(Item.read_delta(where)) == OLD


@LAKEHOUSE
def test_an_old_delta_version_is_reconciled_with_the_model(tmp_path: Path) -> None:
    class Before(DataFrameModel):
        id: int
        name: str

    where = str(tmp_path / "d")
    Before.from_rows([{"id": 1, "name": "a"}]).write_delta(where)
    Item.from_rows(NEW).write_delta(where, mode="overwrite", overwriteSchema=True)
    assert _rows(Item.read_delta(where)) == NEW
    with pytest.raises(MissingColumnError, match="price"):
        Item.read_delta(where, version=0)


@LAKEHOUSE
def test_a_field_added_with_default_none_reads_null_from_older_delta_versions(tmp_path: Path) -> None:
    class Before(DataFrameModel):
        id: int
        name: str

    class After(DataFrameModel):
        id: int
        name: str
        price: float | None = None

    where = str(tmp_path / "d")
    Before.from_rows([{"id": 1, "name": "a"}]).write_delta(where)
    After.from_rows([{"id": 2, "name": "b", "price": 2.5}]).write_delta(where, mode="append", mergeSchema=True)
    assert [r.model_dump() for r in After.read_delta(where, version=1).collect()] == [
        {"id": 1, "name": "a", "price": None}
    ]
    assert _rows(After.read_delta(where)) == [
        {"id": 1, "name": "a", "price": None},
        {"id": 2, "name": "b", "price": 2.5},
    ]
    with pytest.raises(MissingColumnError, match="price"):
        Item.read_delta(where, version=1)  # price without a default: required


@LAKEHOUSE
def test_a_misspelt_field_with_default_none_is_missing_in_delta_and_iceberg_reads(
    tmp_path: Path, spark: SparkSession
) -> None:
    """Issue 36: the near-name guard of every reader, on Delta files, Delta and Iceberg tables, time travel too."""

    class Misspelt(DataFrameModel):
        id: int
        name: str
        prise: float | None = None

    where, delta, iceberg = str(tmp_path / "d"), _table(), _table("lake")
    Item.from_rows(OLD).write_delta(where)
    Item.from_rows(OLD).save_as_table(delta, format="delta")
    Item.from_rows(OLD).save_as_table(iceberg, format="iceberg")
    (snapshot,) = _snapshots(spark, iceberg)
    reads = {
        "delta files": lambda **kw: Misspelt.read_delta(where, **kw),
        "delta files, version 0": lambda **kw: Misspelt.read_delta(where, version=0, **kw),
        "delta table": lambda **kw: Misspelt.read_table(delta, **kw),
        "iceberg table": lambda **kw: Misspelt.read_table(iceberg, **kw),
        "iceberg snapshot": lambda **kw: Misspelt.read_table(iceberg, version=snapshot[0], **kw),
    }
    for label, read in reads.items():
        with pytest.raises(MissingColumnError, match=r"prise: missing from the data, which has column 'price'"):
            read()
        assert read(absent=["prise"]).schema == Misspelt.frame_schema(), label


# --- Delta Lake and Iceberg: catalog tables ----------------------------------------------------


@LAKEHOUSE
def test_delta_catalog_table_round_trip_and_time_travel(spark: SparkSession) -> None:
    name = _table()
    Item.from_rows(OLD).save_as_table(name, format="delta")
    Item.from_rows(NEW).save_as_table(name, mode="append")  # the table's own format: no staging table
    assert _rows(Item.read_table(name)) == [*OLD, *NEW]
    assert _rows(Item.read_table(name, version=1)) == OLD
    assert _delta_versions(spark, name) == [(0, "CREATE TABLE"), (1, "WRITE"), (2, "WRITE")]
    assert not [t for t in spark.catalog.listTables() if "__pydantable_" in t.name]


@LAKEHOUSE
def test_iceberg_table_round_trip_modes_and_time_travel(spark: SparkSession) -> None:
    name = _table("lake")
    Item.from_rows(OLD).save_as_table(name, format="iceberg")
    Item.from_rows(NEW).save_as_table(name, mode="append")  # found to be Iceberg: written in place
    assert _rows(Item.read_table(name)) == [*OLD, *NEW]
    first, second = _snapshots(spark, name)
    assert _rows(Item.read_table(name, version=first[0])) == OLD
    assert _rows(Item.read_table(name, version=second[0])) == [*OLD, *NEW]
    Item.from_rows(NEW).save_as_table(name, mode="overwrite")
    assert _rows(Item.read_table(name)) == NEW
    with pytest.raises(TargetExistsError, match="already exists"):
        Item.from_rows(NEW).save_as_table(name)
    Item.from_rows(OLD).save_as_table(name, mode="ignore")
    assert _rows(Item.read_table(name)) == NEW


@LAKEHOUSE
@pytest.mark.parametrize("mode", ["overwrite", "append"])
def test_a_failing_iceberg_write_leaves_the_current_snapshot(spark: SparkSession, mode: str) -> None:
    name = _table("lake")
    Item.from_rows(OLD).save_as_table(name, format="iceberg")
    before = _snapshots(spark, name)
    with pytest.raises(NullCheckError, match="name"):
        _failing(spark).save_as_table(name, mode=mode)  # type: ignore[arg-type]
    assert _snapshots(spark, name) == before
    assert _rows(Item.read_table(name)) == OLD


@LAKEHOUSE
def test_iceberg_time_travel_by_timestamp(spark: SparkSession) -> None:
    name = _table("lake")
    Item.from_rows(OLD).save_as_table(name, format="iceberg")
    (made,) = [row[0] for row in spark.sql(f"SELECT made_current_at FROM {name}.history").collect()]
    Item.from_rows(NEW).save_as_table(name, mode="append")
    assert _rows(Item.read_table(name, timestamp=made)) == OLD


@LAKEHOUSE
def test_models_of_delta_and_iceberg_tables_keep_their_not_null_columns(spark: SparkSession) -> None:
    """``pydantable-spark models`` (issue 34): the table's NOT NULL columns are the model's non-Optional fields."""
    from pydantable_spark.modelgen import source_of_path, source_of_table

    delta, iceberg = _table(), _table("lake")
    for name, format in ((delta, "delta"), (iceberg, "iceberg")):
        spark.sql(f"CREATE TABLE {name} (id BIGINT NOT NULL, note STRING, ship STRUCT<city: STRING NOT NULL>) "
                  f"USING {format}")  # fmt: skip
    location = spark.sql(f"DESCRIBE DETAIL {delta}").collect()[0]["location"]
    sources = [source_of_table(delta, "Row"), source_of_table(iceberg, "Row")]
    sources.append(source_of_path(location, "Row", format="delta"))
    for source in sources:
        assert "class Ship(DataFrameModel):\n    city: str\n" in source, source
        assert source.endswith("    id: int\n    note: str | None\n    ship: Ship | None\n"), source


@LAKEHOUSE
def test_a_delta_table_can_be_overwritten_from_itself(tmp_path: Path, spark: SparkSession) -> None:
    where = str(tmp_path / "d")
    Item.from_rows(OLD).write_delta(where)
    Item.read_delta(where).filter(Item.id == 1).write_delta(where, mode="overwrite")
    assert _rows(Item.read_delta(where)) == OLD[:1]
    assert _delta_versions(spark, f"delta.`{where}`") == [(0, "CREATE TABLE"), (1, "WRITE"), (2, "WRITE")]


@LAKEHOUSE
def test_the_docs_example_runs() -> None:
    runpy.run_path(str(Path(__file__).parent / "examples" / "lakehouse_tables.py"))


# --- tables carry the model: NOT NULL on creation, refused other writers (issue 36) ------------------


class Ship(DataFrameModel):
    city: str
    zip: str | None


class Order(DataFrameModel):
    id: int
    note: str | None
    ship: Ship
    tags: list[str]
    scores: dict[str, int] | None


ORDERS = [{"id": 1, "note": None, "ship": {"city": "Oslo", "zip": None}, "tags": ["a"], "scores": {"x": 1}}]

_OTHER_WRITERS = {  # Spark SQL inserts that break one NOT NULL each: column, struct field, list element, map value
    "id": "NULL, 'n', named_struct('city', 'c', 'zip', 'z'), array('a'), map('x', 1)",
    "ship.city": "2, 'n', named_struct('city', CAST(NULL AS STRING), 'zip', 'z'), array('a'), map('x', 1)",
    "tags[]": "2, 'n', named_struct('city', 'c', 'zip', 'z'), array(CAST(NULL AS STRING)), map('x', 1)",
    "scores{value}": "2, 'n', named_struct('city', 'c', 'zip', 'z'), array('a'), map('x', CAST(NULL AS INT))",
}


def _nullability(spark: SparkSession, table: str) -> dict[str, bool]:
    from pydantable_spark._spark.types import fields_of_struct

    def walk(where: str, dtype: Any, nullable: bool) -> dict[str, bool]:
        from pydantable_spark import dtypes as dt

        found = {where: nullable}
        if isinstance(dtype, dt.Struct):
            for f in dtype.fields:
                found |= walk(f"{where}.{f.name}", f.dtype, f.nullable)
        elif isinstance(dtype, dt.List):
            found |= walk(f"{where}[]", dtype.inner, dtype.contains_null)
        elif isinstance(dtype, dt.Map):
            found |= walk(f"{where}{{value}}", dtype.value, dtype.value_contains_null)
        return found

    out: dict[str, bool] = {}
    for f in fields_of_struct(spark.read.table(table).schema):
        out |= walk(f.name, f.dtype, f.nullable)
    return out


EXPECTED_NULLABILITY = {
    "id": False, "note": True, "ship": False, "ship.city": False, "ship.zip": True, "tags": False,
    "tags[]": False, "scores": True, "scores{value}": False,
}  # fmt: skip
DELTA_NULLABILITY = EXPECTED_NULLABILITY | {"tags[]": True, "scores{value}": True}  # Delta enforces neither


class DeltaOrder(DataFrameModel):
    id: int
    note: str | None
    ship: Ship
    tags: list[str | None]
    scores: dict[str, int | None] | None


def _refusals(spark: SparkSession, table: str) -> dict[str, bool]:
    """Which of the other writers' inserts the table refuses, with Spark's NULL or cast error."""
    refused = {}
    for location, values in _OTHER_WRITERS.items():
        try:
            spark.sql(f"INSERT INTO {table} VALUES ({values})").collect()
            refused[location] = False
        except Exception as error:  # the table's own refusal: Spark's error, checked below
            text = str(error)
            refused[location] = any(code in text for code in ("NOT_NULL", "NOT NULL", "CAST")) or text
    return refused


@LAKEHOUSE
def test_new_delta_and_iceberg_tables_declare_the_models_not_null_and_refuse_other_writers(
    tmp_path: Path, spark: SparkSession
) -> None:
    from pydantable_spark.modelgen import source_of_table

    where = str(tmp_path / "orders")
    delta_path, delta_table, iceberg = f"delta.`{where}`", _table(), _table("lake")
    Order.from_rows(ORDERS).write_delta(where)
    Order.from_rows(ORDERS).save_as_table(delta_table, format="delta")
    Order.from_rows(ORDERS).save_as_table(iceberg, format="iceberg")
    Order.from_rows(ORDERS).save_as_table(iceberg, mode="overwrite")  # Iceberg replaces the table: still NOT NULL
    Order.from_rows(ORDERS).write_delta(where, mode="overwrite")  # Delta keeps the table's schema
    assert _delta_versions(spark, delta_path) == [(0, "CREATE TABLE"), (1, "WRITE"), (2, "WRITE")]
    for name in (delta_path, delta_table, iceberg):
        assert _rows(Order.read_table(name)) == ORDERS
    every = dict.fromkeys(_OTHER_WRITERS, True)
    delta_refuses = every | {"tags[]": False, "scores{value}": False}  # nullable there: Delta enforces neither
    for name, nullability, refusals in (
        (delta_path, DELTA_NULLABILITY, delta_refuses),
        (delta_table, DELTA_NULLABILITY, delta_refuses),
        (iceberg, EXPECTED_NULLABILITY, every),
    ):
        assert _nullability(spark, name) == nullability, name
        assert _refusals(spark, name) == refusals, name
    # a model generated back from the table has the original's fields, non-null where the table keeps it
    for name, model in ((delta_table, DeltaOrder), (iceberg, Order)):
        space: dict[str, Any] = {"__name__": "generated_order"}
        exec(compile(source_of_table(name, "Order"), "<generated>", "exec", dont_inherit=True), space)
        assert space["Order"].frame_schema() == model.frame_schema(), name


@LAKEHOUSE
def test_a_new_delta_table_whose_write_fails_is_removed(tmp_path: Path, spark: SparkSession) -> None:
    where, name = str(tmp_path / "d"), _table()
    with pytest.raises(NullCheckError, match="name"):
        _failing(spark).write_delta(where)
    with pytest.raises(NullCheckError, match="name"):
        _failing(spark).save_as_table(name, format="delta")
    assert not (tmp_path / "d").exists()
    assert not spark.catalog.tableExists(name)


class LooseShip(DataFrameModel):
    city: str | None
    zip: str | None


class LooseOrder(DataFrameModel):  # Order with ship.city nullable
    id: int
    note: str | None
    ship: LooseShip
    tags: list[str]
    scores: dict[str, int] | None


@LAKEHOUSE
def test_writes_into_a_table_stricter_than_the_model_are_refused_before_the_commit(
    tmp_path: Path, spark: SparkSession, caplog: pytest.LogCaptureFixture
) -> None:
    from pydantable_spark.merge import update_all

    class Loose(DataFrameModel):
        id: int | None
        name: str
        price: float | None

    where, iceberg = str(tmp_path / "d"), _table("lake")
    Item.from_rows(OLD).write_delta(where)
    Item.from_rows(OLD).save_as_table(iceberg, format="iceberg")
    before = (_delta_versions(spark, f"delta.`{where}`"), _snapshots(spark, iceberg))
    loose = Loose.from_rows([{"id": 5, "name": "e", "price": None}])
    for write in (
        lambda: loose.write_delta(where, mode="append"),
        lambda: loose.write_delta(where, mode="overwrite"),
        lambda: loose.save_as_table(iceberg, mode="append"),
    ):
        with pytest.raises(NullabilityError, match=r"the table declares 'id' NOT NULL, and this frame may hold NULL"):
            write()
    assert (_delta_versions(spark, f"delta.`{where}`"), _snapshots(spark, iceberg)) == before
    # nested: a struct field the table declares NOT NULL, in an append and in a MERGE
    orders = str(tmp_path / "orders")
    Order.from_rows(ORDERS).write_delta(orders)
    loose_orders = LooseOrder.from_rows(ORDERS)
    with pytest.raises(NullabilityError, match=r"the table declares 'ship.city' NOT NULL"):
        loose_orders.write_delta(orders, mode="append")
    with pytest.raises(NullabilityError, match=r"sets column 'ship' to a value that may hold NULL at 'ship.city'"):
        loose_orders.merge_into(path=orders, on="id", when_matched=update_all())
    assert [op for _, op in _delta_versions(spark, f"delta.`{orders}`")] == ["CREATE TABLE", "WRITE"]
    # a table looser than the model is written, and the difference logged
    loose.write_delta(str(tmp_path / "loose"))
    with caplog.at_level("WARNING", logger="pydantable_spark"):
        Item.from_rows(NEW).write_delta(str(tmp_path / "loose"), mode="append")
    assert "the model declares 'id' non-null, and the table lets it be NULL" in caplog.text


class Stock(DataFrameModel):
    sku: str = Field(pattern=r"^[A-Z]+-[0-9]+$")
    qty: int = Field(ge=0)
    tags: list[Annotated[str, Field(max_length=3)]]


STOCK = [{"sku": "AB-1", "qty": 3, "tags": ["x"]}, {"sku": "C-22", "qty": 0, "tags": []}]


@LAKEHOUSE
def test_table_constraints_are_delta_checks_that_refuse_other_writers(tmp_path: Path, spark: SparkSession) -> None:
    from pydantable_spark._spark.tables import declared_checks
    from pydantable_spark.merge import update_all

    class Plain(DataFrameModel):  # Stock without its constraints
        sku: str
        qty: int
        tags: list[str]

    where = str(tmp_path / "stock")
    table = f"delta.`{where}`"
    Stock.from_rows(STOCK).write_delta(where, table_constraints=True)
    declared = declared_checks(spark, table)
    assert sorted(declared) == ["pydantable_qty_ge", "pydantable_sku_pattern"]  # tags[]: a lambda, Delta cannot keep it
    assert [op for _, op in _delta_versions(spark, table)] == ["CREATE TABLE", *["ADD CONSTRAINT"] * 2, "WRITE"]
    refused = {}
    for label, values in {
        "qty ge 0": "'A-1', -1, array('ab')",
        "sku pattern": "'a-1', 1, array('ab')",
    }.items():
        try:
            spark.sql(f"INSERT INTO {table} VALUES ({values})").collect()
            refused[label] = ""
        except Exception as error:  # the table's own refusal: Delta's error
            refused[label] = "DELTA_VIOLATE_CONSTRAINT" if "DELTA_VIOLATE_CONSTRAINT" in str(error) else str(error)
    assert refused == dict.fromkeys(refused, "DELTA_VIOLATE_CONSTRAINT")
    spark.sql(f"INSERT INTO {table} VALUES ('Z-9', 0, array('abcd'))").collect()  # the list's is not declared
    before = _delta_versions(spark, table)
    # a model without the table's constraints is refused before anything is written, naming them
    with pytest.raises(
        ConstraintError, match=r"the table declares CHECK constraint\(s\) pydantable_qty_ge \(NOT .*`qty` >="
    ):
        Plain.from_rows([{"sku": "x", "qty": -5, "tags": []}]).write_delta(where, mode="append")
    with pytest.raises(ConstraintError, match=r"merge_into\(path=.*CHECK constraint\(s\) pydantable_qty_ge"):
        Plain.from_rows([{"sku": "x", "qty": -5, "tags": []}]).merge_into(
            path=where, on="sku", when_matched=update_all()
        )
    assert _delta_versions(spark, table) == before
    Stock.from_rows(STOCK).write_delta(where, mode="append")  # the same model: written, its checks run here too
    assert Stock.read_delta(where).count() == 5


class Counted(DataFrameModel):
    id: int
    qty: int = Field(ge=0)
    note: str | None


@LAKEHOUSE
def test_delta_rs_is_refused_by_the_tables_not_null_and_check_constraints(tmp_path: Path) -> None:
    """Another engine (delta-rs, Rust) writing to the table the façade made: the table's own rules refuse it."""
    import pyarrow as pa
    from deltalake import write_deltalake

    where = str(tmp_path / "counted")
    Counted.from_rows([{"id": 1, "qty": 3, "note": None}]).write_delta(where, table_constraints=True)
    refused = {}
    for label, rows in {
        "valid": {"id": [2], "qty": [4], "note": ["x"]},
        "id NULL": {"id": [None], "qty": [4], "note": ["x"]},
        "qty ge 0": {"id": [3], "qty": [-1], "note": [None]},
    }.items():
        data = pa.table({"id": pa.array(rows["id"], pa.int64()), "qty": pa.array(rows["qty"], pa.int64()),
                         "note": pa.array(rows["note"], pa.string())})  # fmt: skip
        try:
            write_deltalake(where, data, mode="append")
            refused[label] = ""
        except Exception as error:  # delta-rs's own refusal: its invariant or constraint check
            refused[label] = "refused" if "failed validation" in str(error) else str(error)
    assert refused == {"valid": "", "id NULL": "refused", "qty ge 0": "refused"}
    assert sorted(r.id for r in Counted.read_delta(where).collect()) == [1, 2]


@LAKEHOUSE
def test_table_constraints_on_iceberg_are_refused(spark: SparkSession) -> None:
    name = _table("lake")
    with pytest.raises(ArgumentValueError, match="Iceberg keeps only required fields"):
        Stock.from_rows(STOCK).save_as_table(name, format="iceberg", table_constraints=True)
    assert not spark.catalog.tableExists(name)
    Stock.from_rows(STOCK).save_as_table(name, format="iceberg")
    with pytest.raises(ArgumentValueError, match="Iceberg tables have none"):
        Stock.from_rows(STOCK).save_as_table(name, mode="append", table_constraints=True)  # format found
    assert len(_snapshots(spark, name)) == 1


@pytest.mark.jvm_free
def test_table_constraints_is_checked_when_called(tmp_path: Path) -> None:
    stock = Stock.from_rows(STOCK)
    with pytest.raises(ArgumentTypeError, match=r"table_constraints= must be True or False, got 'yes'"):
        stock.write_delta(tmp_path / "d", table_constraints="yes")  # type: ignore[arg-type]
    with pytest.raises(ArgumentValueError, match="a parquet table has none"):
        stock.save_as_table("t_x", format="parquet", table_constraints=True)


# --- arguments (no JVM) ------------------------------------------------------------------------


@pytest.mark.jvm_free
@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: Item.read_delta("/x", version=-1), ArgumentValueError, r"version=-1 is not a version"),
        (lambda: Item.read_delta("/x", version="v1"), ArgumentTypeError, r"version= must be int \(a version number\)"),
        (lambda: Item.read_delta("/x", version=True), ArgumentTypeError, r"version= must be int"),
        (lambda: Item.read_delta("/x", version=1.0), ArgumentTypeError, r"got 1\.0 \(float\)"),
        (
            lambda: Item.read_delta("/x", version=1, timestamp=datetime.datetime(2026, 1, 1)),
            ArgumentValueError,
            r"give version= or timestamp=, not both",
        ),
        (
            lambda: Item.read_delta("/x", timestamp="2026-01-01' OR '1'='1"),
            ArgumentTypeError,
            r"timestamp= must be a datetime.datetime",
        ),
        (lambda: Item.read_delta("/x", timestamp=datetime.date(2026, 1, 1)), ArgumentTypeError, r"\(date\)"),
        (lambda: Item.read_table("t", version=""), ArgumentValueError, r"version='' names no tag"),
        (lambda: Item.read_table("t", version=[1]), ArgumentTypeError, r"int \(a version or snapshot id\) or str"),
        (lambda: Item.read_table("t", version=-3), ArgumentValueError, r"versions count from 0"),
        (
            lambda: Item.read_table("t", version="123"),
            ArgumentValueError,
            r"reads such a version as the snapshot id 123",
        ),
    ],
)
def test_time_travel_arguments_are_checked_when_called(call: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        call()


def test_time_travel_of_a_table_without_versions_is_a_clear_error(spark: SparkSession) -> None:
    name = _table()
    Item.from_rows(OLD).save_as_table(name, format="parquet")
    try:
        with pytest.raises(
            ArgumentValueError, match=r"read_table\('t_[0-9a-f]+'\): this table keeps no versions"
        ) as raised:
            Item.read_table(name, version=0)
        assert raised.value.__cause__ is not None
    finally:
        spark.sql(f"DROP TABLE IF EXISTS {name}")


# --- jars built for another Spark --------------------------------------------------------------

_JARS = os.environ.get("PYDANTABLE_LAKEHOUSE_JARS") or str(Path(__file__).parents[1] / ".ci/cache/lakehouse-jars")


@pytest.mark.slow
@pytest.mark.skipif(
    not list(Path(_JARS).glob("delta-spark*.jar")), reason="no Delta jars fetched (the Maven step of .ci/run)"
)
def test_delta_jars_built_for_another_spark_are_named(tmp_path: Path) -> None:
    """The fetched Delta jars (built for another Spark than the main tier's) fail with the library's error."""
    from pyspark import __version__

    if __version__.startswith("4.1."):
        pytest.skip("this Spark is the one the fetched jars were built for")
    jars = ",".join(str(p) for p in sorted(Path(_JARS).glob("delta-*.jar")))
    program = textwrap.dedent(
        f"""
        from pyspark.sql import SparkSession
        from pydantable_spark import DataFrameModel
        from pydantable_spark.errors import PydantableSparkError

        class Item(DataFrameModel):
            id: int

        spark = (SparkSession.builder.master("local[1]").config("spark.jars", {jars!r})
                 .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
                 .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
                 .config("spark.ui.enabled", "false").getOrCreate())
        try:
            Item.from_rows([{{"id": 1}}]).write_delta({str(tmp_path / "d")!r})
            Item.read_delta({str(tmp_path / "d")!r}).collect()
        except PydantableSparkError as error:
            print("ERROR", type(error).__name__, error)
        """
    )
    # a classic session of its own, whatever this run's is (a Connect run leaves its settings in the environment)
    connect = ("SPARK_CONNECT", "SPARK_REMOTE", "SPARK_LOCAL_REMOTE")
    env = {k: v for k, v in os.environ.items() if not k.startswith(connect)}
    out = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=300, check=False, env=env
    )
    assert "ERROR PydantableSparkError" in out.stdout, out.stdout + out.stderr[-3000:]
    assert "the Delta Lake jars on this Spark session's classpath were built for another Spark version" in out.stdout
    assert "docs/lakehouse.md" in out.stdout
