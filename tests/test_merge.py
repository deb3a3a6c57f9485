"""Typed MERGE into Delta Lake and Iceberg tables (``frame.merge_into``, ``pydantable_spark.merge``).

The tests marked ``lakehouse`` run real MERGE statements on real tables (the lakehouse tier of
``.ci/run``; see ``tests/test_lakehouse.py``); the type checks and argument checks need no JVM.
Every expected table and count is computed here in Python from the rows, independently of Spark.
"""

from __future__ import annotations

import runpy
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from pydantic import Field

from pydantable_spark import Check, DataFrame, DataFrameModel, F
from pydantable_spark.errors import (
    AmbiguousSideError,
    ArgumentTypeError,
    ArgumentValueError,
    CardinalityError,
    CheckError,
    ColumnTypeError,
    ConstraintError,
    IncompatibleCastError,
    LossyCastError,
    NullabilityError,
    UnknownColumnError,
    WriteError,
)
from pydantable_spark.merge import MergeMetrics, delete, insert, insert_all, source, target, update, update_all

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

LAKEHOUSE = pytest.mark.lakehouse


class Item(DataFrameModel):
    id: int
    name: str
    price: float | None


class Change(DataFrameModel):
    id: int
    name: str
    price: float | None
    gone: bool


OLD = [
    {"id": 1, "name": "a", "price": 1.0},
    {"id": 2, "name": "b", "price": 2.0},
    {"id": 3, "name": "c", "price": None},
]
CHANGES = [
    {"id": 2, "name": "B", "price": 20.0, "gone": False},
    {"id": 3, "name": "c", "price": None, "gone": True},
    {"id": 4, "name": "d", "price": 4.0, "gone": False},
]


def _rows(frame: DataFrame[Any]) -> list[dict[str, object]]:
    return [row.model_dump() for row in frame.sort("id").collect()]


def _table(catalog: str = "") -> str:
    name = f"m_{uuid.uuid4().hex[:10]}"
    return f"{catalog}.db.{name}" if catalog else name


def _delta_versions(spark: SparkSession, where: str) -> list[int]:
    return sorted(int(row[0]) for row in spark.sql(f"DESCRIBE HISTORY {where}").select("version").collect())


def _upsert_by_hand(
    old: list[dict[str, Any]], changes: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], MergeMetrics]:
    """The MERGE of the tests, computed in Python: matched and gone → delete, matched → update, new → insert."""
    table = {row["id"]: dict(row) for row in old}
    inserted = updated = deleted = 0
    for change in changes:
        row = {k: change[k] for k in ("id", "name", "price")}
        if change["id"] in table and change["gone"]:
            del table[change["id"]]
            deleted += 1
        elif change["id"] in table:
            table[change["id"]] = row
            updated += 1
        elif not change["gone"]:
            table[change["id"]] = row
            inserted += 1
    return sorted(table.values(), key=lambda r: r["id"]), MergeMetrics(inserted, updated, deleted)


def _upsert(changes: DataFrame[Change], **target: Any) -> MergeMetrics:
    return changes.merge_into(
        **target,
        model=Item,
        on="id",
        when_matched=[delete(condition=source.col("gone")), update_all()],
        when_not_matched=insert_all(condition=~source.col("gone")),
    )


# --- Delta Lake ---------------------------------------------------------------------------------


@LAKEHOUSE
def test_delta_path_upsert_updates_inserts_deletes_and_counts(tmp_path: Path, spark: SparkSession) -> None:
    where = str(tmp_path / "d")
    Item.from_rows(OLD).write_delta(where)
    metrics = _upsert(Change.from_rows(CHANGES), path=where)
    expected, counts = _upsert_by_hand(OLD, CHANGES)
    assert metrics == counts == MergeMetrics(inserted=1, updated=1, deleted=1)
    assert _rows(Item.read_delta(where)) == expected
    assert _delta_versions(spark, f"delta.`{where}`") == [0, 1, 2]  # CREATE TABLE, WRITE, MERGE


@LAKEHOUSE
def test_delta_catalog_table_with_by_source_clauses(spark: SparkSession) -> None:
    name = _table()
    Item.from_rows(OLD).save_as_table(name, format="delta")
    changes = Item.from_rows([{"id": 1, "name": "A", "price": 10.0}])
    metrics = changes.merge_into(
        name,
        on="id",
        when_matched=update(price=target.col("price") + source.col("price")),
        when_not_matched_by_source=[
            delete(condition=target.col("price").is_null()),
            update(name=F.concat(F.coalesce(target.col("name"), F.lit("")), F.lit("!"))),  # nullable in the table
        ],
    )
    assert metrics == MergeMetrics(inserted=0, updated=2, deleted=1)  # id 1 matched, id 2 renamed, id 3 deleted
    assert _rows(Item.read_table(name)) == [
        {"id": 1, "name": "a", "price": 11.0},
        {"id": 2, "name": "b!", "price": 2.0},
    ]


@LAKEHOUSE
def test_several_source_rows_matching_one_target_row_are_named_and_write_nothing(
    tmp_path: Path, spark: SparkSession
) -> None:
    where = str(tmp_path / "d")
    Item.from_rows(OLD).write_delta(where)
    twice = Item.from_rows([{"id": 2, "name": "x", "price": 1.0}, {"id": 2, "name": "y", "price": None}])
    with pytest.raises(CardinalityError, match=r"several source rows match one target row on keys 'id'"):
        twice.merge_into(path=where, on="id", when_matched=update_all())
    assert _delta_versions(spark, f"delta.`{where}`") == [0, 1]
    # one source row matching several target rows is MERGE's ordinary case: each target row is updated once
    Item.from_rows([{"id": 2, "name": "again", "price": None}]).write_delta(where, mode="append")
    metrics = Item.from_rows([{"id": 2, "name": "x", "price": 1.0}]).merge_into(
        path=where, on="id", when_matched=update_all()
    )
    assert metrics == MergeMetrics(inserted=0, updated=2, deleted=0)


@LAKEHOUSE
def test_a_value_violating_the_model_constraint_fails_the_whole_merge(tmp_path: Path, spark: SparkSession) -> None:
    class Priced(DataFrameModel):
        id: int
        name: str
        price: float | None = Field(default=None, ge=0)

    where = str(tmp_path / "d")
    Priced.from_rows(OLD).write_delta(where)
    changes = Priced.from_rows([{"id": 1, "name": "a", "price": 5.0}, {"id": 9, "name": "z", "price": 1.0}])
    with pytest.raises(ConstraintError, match=r"column 'price' violates the model's constraint ge 0"):
        changes.merge_into(
            path=where,
            on="id",
            when_matched=update(price=source.col("price") - 10.0),  # 5 - 10 < 0
            when_not_matched=insert_all(),
        )
    assert _delta_versions(spark, f"delta.`{where}`") == [0, 1]
    assert _rows(Priced.read_delta(where)) == OLD
    # the check is per clause: the same values inserted pass
    metrics = changes.merge_into(path=where, on="id", when_not_matched=insert_all())
    assert metrics == MergeMetrics(1, 0, 0)


class CheckedChange(Change):
    @classmethod
    def checks(cls) -> Sequence[Check]:
        return (
            Check.agg(F.max(cls.price) <= 100.0, name="price_cap"),
            Check.row(cls.price.is_null() | (cls.price >= 0), name="priced", action="drop"),
        )


@LAKEHOUSE
def test_the_sources_checks_run_before_the_merge(tmp_path: Path, spark: SparkSession) -> None:
    where = str(tmp_path / "d")
    Item.from_rows(OLD).write_delta(where)
    costly = [*CHANGES, {"id": 5, "name": "e", "price": 500.0, "gone": False}]
    with pytest.raises(CheckError) as raised:
        _upsert(CheckedChange.from_rows(costly), path=where)
    message = str(raised.value)
    assert (
        "check 'price_cap' (agg: (max(price) <= 100.0)) failed: 1 violation(s) (examples: max(price)=500.0)" in message
    )
    assert message.endswith("(nothing was written, the table is as it was)")
    assert _delta_versions(spark, f"delta.`{where}`") == [0, 1]
    # a drop check's rows leave the source: the negative price is neither updated nor inserted
    changes = [*CHANGES, {"id": 1, "name": "A", "price": -1.0, "gone": False}]
    metrics = _upsert(CheckedChange.from_rows(changes), path=where)
    expected, counts = _upsert_by_hand(OLD, CHANGES)
    assert metrics == counts
    assert _rows(Item.read_delta(where)) == expected
    # constraints="skip" runs none
    assert _upsert(CheckedChange.from_rows(costly[-1:]), path=where, constraints="skip") == MergeMetrics(1, 0, 0)


@LAKEHOUSE
def test_non_lakehouse_targets_are_refused(tmp_path: Path, spark: SparkSession) -> None:
    name = _table()
    Item.from_rows(OLD).save_as_table(name, format="parquet")
    try:
        with pytest.raises(WriteError, match=r"is a parquet table; MERGE needs a Delta Lake or Iceberg table"):
            Item.from_rows(OLD).merge_into(name, on="id", when_matched=update_all())
    finally:
        spark.sql(f"DROP TABLE IF EXISTS {name}")
    Item.from_rows(OLD).write_parquet(tmp_path / "p")
    with pytest.raises(WriteError, match=r"is not a Delta table"):
        Item.from_rows(OLD).merge_into(path=tmp_path / "p", on="id", when_matched=update_all())


@LAKEHOUSE
def test_the_target_table_is_reconciled_with_the_model(tmp_path: Path) -> None:
    class Other(DataFrameModel):
        id: int
        name: int

    where = str(tmp_path / "d")
    Item.from_rows(OLD).write_delta(where)
    with pytest.raises(IncompatibleCastError, match=r"the target table and the target model"):
        Other.from_rows([{"id": 1, "name": 2}]).merge_into(path=where, on="id", when_matched=update_all())


@LAKEHOUSE
def test_a_target_column_the_table_lets_be_null_reads_as_nullable(tmp_path: Path, spark: SparkSession) -> None:
    """The model says ``name`` is non-null, the table does not: a value computed from it may be NULL."""
    where = str(tmp_path / "d")
    spark.createDataFrame([(1, None, 1.0)], "id bigint, name string, price double").write.format("delta").save(where)
    change = Item.from_rows([{"id": 1, "name": "x", "price": 2.0}])
    with pytest.raises(NullabilityError, match=r"reads as nullable when the table does not declare it NOT NULL"):
        change.merge_into(
            path=where, on="id", when_matched=update(name=F.concat(target.col("name"), source.col("name")))
        )
    assert _delta_versions(spark, f"delta.`{where}`") == [0]
    filled = F.concat(F.coalesce(target.col("name"), F.lit("")), source.col("name"))
    assert change.merge_into(path=where, on="id", when_matched=update(name=filled)) == MergeMetrics(0, 1, 0)
    assert _rows(Item.read_delta(where)) == [{"id": 1, "name": "x", "price": 1.0}]


@LAKEHOUSE
def test_a_null_into_a_non_null_column_is_refused_and_commits_nothing(tmp_path: Path, spark: SparkSession) -> None:
    """The model says ``current: bool``: ``update(current=None)`` and a nullable value never reach Delta."""

    class Version(DataFrameModel):
        id: int
        current: bool
        note: str | None

    where = str(tmp_path / "d")
    rows = [{"id": 1, "current": True, "note": "a"}, {"id": 2, "current": True, "note": None}]
    Version.from_rows(rows).write_delta(where)
    changes = Version.from_rows(rows)
    refused = [
        update(current=None),
        update(current=F.lit(None, dtype=bool)),
        update(current=F.when(source.col("note").is_not_null(), False)),  # NULL where note is NULL
        update(current=source.col("note").is_not_null() & F.lit(None, dtype=bool)),
    ]
    for clause in refused:
        with pytest.raises(NullabilityError, match=r"sets column 'current', which the target model declares non-null"):
            changes.merge_into(path=where, on="id", when_matched=clause)
    with pytest.raises(NullabilityError, match=r"to NULL \(None\)"):
        changes.merge_into(path=where, on="id", when_not_matched=insert_all(current=None))
    assert _delta_versions(spark, f"delta.`{where}`") == [0, 1]  # CREATE TABLE, WRITE: nothing committed
    assert _rows(Version.read_delta(where)) == rows  # and the table still reads with its model
    # what the model allows goes through: a NULL into the nullable column, a non-null value into the other
    assert changes.merge_into(path=where, on="id", when_matched=update(note=None, current=False)) == MergeMetrics(
        0, 2, 0
    )
    assert _rows(Version.read_delta(where)) == [{**row, "current": False, "note": None} for row in rows]


@LAKEHOUSE
def test_a_value_the_tables_type_cannot_hold_and_a_struct_lacking_a_field_name_the_column(
    tmp_path: Path, spark: SparkSession
) -> None:
    """The table's ``qty`` is INT and its ``ship`` has ``zip``; the model's are ``int`` (64-bit) and ``Ship{city}``.

    Before: a ``SparkJobError`` "[TASK_WRITE_FAILED]" with the overflow only in
    its cause, and Spark's "cannot cast STRUCT<city> ..." naming a private column.
    """

    class Ship(DataFrameModel):
        city: str

    class Line(DataFrameModel):
        id: int
        qty: int | None
        ship: Ship | None

    where, iceberg = str(tmp_path / "d"), _table("lake")
    schema = "id bigint, qty int, ship struct<city: string, zip: string>"
    spark.createDataFrame([(1, 5, ("Oslo", "0150"))], schema).write.format("delta").save(where)
    spark.createDataFrame([(1, 5, ("Oslo", "0150"))], schema).writeTo(iceberg).using("iceberg").create()
    big = Line.from_rows([{"id": 1, "qty": 2**40, "ship": None}])
    for target_kw in ({"path": where}, {"table": iceberg}):
        with pytest.raises(WriteError) as info:
            big.merge_into(**target_kw, on="id", when_matched=update(qty=source.col("qty")))
        said = str(info.value)
        assert "column 'qty' gets a value that the table's INT cannot hold (the model's type is BIGINT)" in said, said
        assert said.endswith("the row's value: 1099511627776"), said
        with pytest.raises(WriteError, match=r"sets column 'ship' to the model's value, which lacks the table's "
                           r"field\(s\) ship\.zip \(STRING\)"):  # fmt: skip
            big.merge_into(**target_kw, on="id", when_matched=update_all())
    assert _delta_versions(spark, f"delta.`{where}`") == [0]
    assert len(spark.sql(f"SELECT * FROM {iceberg}.snapshots").collect()) == 1
    # what fits is written, narrowed to the table's type
    small = Line.from_rows([{"id": 1, "qty": 7, "ship": None}])
    assert small.merge_into(path=where, on="id", when_matched=update(qty=source.col("qty"))) == MergeMetrics(0, 1, 0)
    assert spark.read.format("delta").load(where).select("qty").collect()[0][0] == 7


# --- Iceberg ------------------------------------------------------------------------------------


@LAKEHOUSE
def test_iceberg_upsert_and_its_snapshot_counts(spark: SparkSession) -> None:
    name = _table("lake")
    Item.from_rows(OLD).save_as_table(name, format="iceberg")
    metrics = _upsert(Change.from_rows(CHANGES), table=name)
    expected, counts = _upsert_by_hand(OLD, CHANGES)
    assert metrics == counts
    assert _rows(Item.read_table(name)) == expected
    nothing = Change.from_rows([{"id": 99, "name": "x", "price": None, "gone": True}])
    assert _upsert(nothing, table=name) == MergeMetrics(0, 0, 0)


@LAKEHOUSE
def test_iceberg_multiple_matches_are_named(spark: SparkSession) -> None:
    name = _table("lake")
    Item.from_rows(OLD).save_as_table(name, format="iceberg")
    before = spark.sql(f"SELECT snapshot_id FROM {name}.snapshots").count()
    twice = Item.from_rows([{"id": 1, "name": "x", "price": 1.0}, {"id": 1, "name": "y", "price": 2.0}])
    with pytest.raises(CardinalityError, match="keys 'id'"):
        twice.merge_into(name, on="id", when_matched=update_all())
    assert spark.sql(f"SELECT snapshot_id FROM {name}.snapshots").count() == before


@LAKEHOUSE
def test_the_scd2_recipe_runs() -> None:
    runpy.run_path(str(Path(__file__).parent / "examples" / "lakehouse_scd2.py"))


# --- type checks and arguments, before any Spark job (no JVM) -----------------------------------


def _changes() -> DataFrame[Change]:
    return Change.from_rows([])


@pytest.mark.jvm_free
@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (
            lambda: _changes().merge_into("t", model=Item, on="sku", when_matched=update_all()),
            UnknownColumnError,
            r"unknown column 'sku' in the source frame \(on=\)",
        ),
        (
            lambda: Item.from_rows([]).merge_into("t", model=Change, on="gone", when_matched=delete()),
            UnknownColumnError,
            r"unknown column 'gone' in the source frame",
        ),
        (
            lambda: _changes().merge_into("t", model=Item, on=["id", "nme"], when_matched=delete()),
            UnknownColumnError,
            r"did you mean 'name'\?",
        ),
        (
            lambda: _changes().merge_into(
                "t", model=Item, on=source.col("id") == target.col("name"), when_matched=delete()
            ),
            ColumnTypeError,
            r"cannot compare",
        ),
        (
            lambda: _changes().merge_into(
                "t", model=Item, on=source.col("id") + target.col("id"), when_matched=delete()
            ),
            ColumnTypeError,
            r"on= needs a boolean expression",
        ),
        (
            lambda: _changes().merge_into("t", model=Item, on="id", when_matched=update(nmae=source.col("name"))),
            UnknownColumnError,
            r"unknown column 'nmae' in the target model Item .* did you mean 'name'\?",
        ),
        (
            lambda: _changes().merge_into("t", model=Item, on="id", when_matched=update(name=source.col("id"))),
            IncompatibleCastError,
            r"sets column 'name' to column 'source.id'",
        ),
        (
            lambda: _changes().merge_into("t", model=Item, on="id", when_matched=update(name=source.col("price"))),
            IncompatibleCastError,
            r"name",
        ),
        (
            lambda: _changes().merge_into("t", model=Item, on="id", when_matched=update(id=source.col("price"))),
            LossyCastError,
            r"converting double \(float\) to bigint \(int\) can silently round",
        ),
        (
            lambda: _changes().merge_into(
                "t", model=Item, on="id", when_matched=update(name=F.when(source.col("gone"), "x"))
            ),
            NullabilityError,
            r"a nullable value into a non-null column",
        ),
        (  # a NULL literal into a non-null column: refused as a nullable expression is
            lambda: _changes().merge_into("t", model=Item, on="id", when_matched=update(name=None)),
            NullabilityError,
            r"update\(\) sets column 'name', which the target model declares non-null, to NULL \(None\)",
        ),
        (
            lambda: _changes().merge_into("t", model=Item, on="id", when_not_matched=insert_all(name=None)),
            NullabilityError,
            r"insert_all\(\) sets column 'name', which the target model declares non-null, to NULL",
        ),
        (
            lambda: _changes().merge_into(
                "t", model=Item, on="id", when_not_matched=insert(id=source.col("id"), name=None)
            ),
            NullabilityError,
            r"when_not_matched insert\(\) sets column 'name'.* to NULL \(None\): every row must hold a str",
        ),
        (
            lambda: _changes().merge_into(
                "t", model=Item, on="id", when_not_matched_by_source=update(name=F.lit(None, dtype=str))
            ),
            NullabilityError,
            r"when_not_matched_by_source update\(\) sets column 'name'.* to NULL \(None\)",
        ),
        (
            lambda: _changes().merge_into("t", model=Item, on="id", when_matched=update(name=1)),
            ColumnTypeError,
            r"sets column 'name'",
        ),
        (
            lambda: _changes().merge_into("t", model=Item, on="id", when_matched=delete(condition=source.col("id"))),
            ColumnTypeError,
            r"needs a boolean expression; got column 'source.id'",
        ),
        (
            lambda: _changes().merge_into("t", model=Item, on="id", when_matched=delete(condition=F.rand() > 0.5)),
            ColumnTypeError,
            r"gives another value each time it runs",
        ),
        (
            lambda: _changes().merge_into("t", model=Item, on="id", when_not_matched=insert(id=source.col("id"))),
            ColumnTypeError,
            r"leaves out non-null column\(s\) 'name'",
        ),
        (
            lambda: _changes().merge_into(
                "t", model=Item, on="id", when_not_matched=insert_all(condition=target.col("price") > 0)
            ),
            ColumnTypeError,
            r"target.price is a column of the target, and when_not_matched has no target row",
        ),
        (
            lambda: _changes().merge_into("t", model=Item, on="id", when_matched=update(name=F.col("name"))),
            AmbiguousSideError,
            r"say which: source.col\('name'\) or target.col\('name'\)",
        ),
        (
            lambda: _changes().merge_into("t", model=Item, on="id", when_matched=[update_all(), delete()]),
            ArgumentValueError,
            r"update_all\(\) has no condition but is not the last when_matched clause",
        ),
        (
            lambda: _changes().merge_into("t", model=Item, on="id", when_not_matched_by_source=update_all()),
            ArgumentTypeError,
            r"cannot update_all\(\)",
        ),
        (
            lambda: _changes().merge_into("t", model=Item, on="id", when_not_matched=delete()),
            ArgumentTypeError,
            r"when_not_matched= takes insert\(...\) or insert_all\(...\)",
        ),
        (lambda: _changes().merge_into("t", model=Item, on="id"), ArgumentTypeError, r"no clause"),
        (
            lambda: _changes().merge_into("t", model=Item, on=1, when_matched=delete()),
            ArgumentTypeError,
            r"on= takes key column names",
        ),
        (
            lambda: _changes().merge_into("t", path="/x", on="id", when_matched=delete()),
            ArgumentTypeError,
            r"\(both given\)",
        ),
        (lambda: _changes().merge_into(on="id", when_matched=delete()), ArgumentTypeError, r"\(neither given\)"),
        (
            lambda: _changes().merge_into(3, on="id", when_matched=delete()),
            ArgumentTypeError,  # type: ignore[arg-type]
            r"the table name must be a str",
        ),
        (
            lambda: _changes().merge_into("t", model=int, on="id", when_matched=delete()),
            ArgumentTypeError,  # type: ignore[arg-type]
            r"model= must be a DataFrameModel class",
        ),
        (
            lambda: _changes().merge_into("t", model=Item, on="id", when_matched=delete(), constraints="report"),  # type: ignore[arg-type]
            ArgumentValueError,
            r"constraints='report' is not one of 'raise', 'skip'",
        ),
        (lambda: update(), ArgumentValueError, r"update\(\): sets no column"),
        (lambda: update({1: 2}), ArgumentTypeError, r"target column names must be str"),
        (lambda: update({"a": 1}, a=2), ArgumentValueError, r"column 'a' is given twice"),
        (lambda: update(a=object()), ColumnTypeError, r"object"),
        (lambda: delete(condition="id > 1"), ArgumentTypeError, r"condition= must be a boolean expression"),  # type: ignore[arg-type]
        (lambda: source.col(1), ArgumentTypeError, r"source.col\(\): name must be str"),  # type: ignore[arg-type]
    ],
)
def test_merges_are_checked_when_built(call: Any, error: Any, message: str) -> None:
    with pytest.raises(error, match=message):
        call()


@pytest.mark.jvm_free
def test_a_model_shared_by_both_sides_names_the_side_a_clause_reads() -> None:
    """``Item.price`` in an insert can only be the source's; in a by-source update only the target's."""
    from pydantable_spark.merge import bind_merge, clauses_of

    schema = Item.frame_schema()
    spec = bind_merge(
        "m", schema, schema, ("Item", "Item"), "id",
        {
            "when_not_matched": clauses_of(insert_all(price=Item.price * 2), "when_not_matched", "m"),
            "when_not_matched_by_source": clauses_of(update(price=Item.price + 1), "when_not_matched_by_source", "m"),
        },
    )  # fmt: skip
    sides = [{c.side for c in v.refs} for clause in spec.clauses for name, v in clause.values if name == "price"]  # type: ignore[attr-defined]
    assert sides == [{"source"}, {"target"}]


@pytest.mark.jvm_free
def test_a_null_literal_binds_only_where_the_target_model_allows_null() -> None:
    """``None`` is a typed NULL of the column's type in a nullable column; the rule is ``assigned_value``'s."""
    from pydantable_spark.merge import bind_merge, clauses_of

    schema = Item.frame_schema()
    spec = bind_merge(
        "m", schema, schema, ("Item", "Item"), "id",
        {"when_matched": clauses_of(update(price=None, name=source.col("name")), "when_matched", "m")},
    )  # fmt: skip
    values = dict(spec.clauses[0].values)
    assert str(values["price"].type) == "float | None (double)"
    assert str(values["name"].type) == "str (string)"
