"""DuckDB as a second consumer of the portable plans: every frame it accepts gives Spark's rows, or is listed.

Each frame of ``frames.py`` that exports is run on DuckDB (``tools/duckdb_substrait.py``: its substrait
extension loaded from the ``duckdb-extension-substrait`` wheel) and compared with Spark's answer, the one the
local engine's test compares with (``frames.spark_answer``: one Spark job per frame for both). What DuckDB
refuses is listed with DuckDB's reason, and what it computes otherwise with the difference; the TPC-H
queries are run the same way in ``tests/test_tpch.py``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import duckdb
import pytest
from frames import frames, local_frames, spark_answer

from pydantable_spark.errors import UnsupportedEngineError
from pydantable_spark.substrait.relations import export
from tools import duckdb_substrait

if TYPE_CHECKING:
    from collections.abc import Iterator

    import pyarrow as pa
    from pyspark.sql import SparkSession

REFUSED = {
    "select_arithmetic": "Scalar Function with name negate does not exist",
    "conditionals": "Scalar Function with name coalesce does not exist",
    "join_full": "Scalar Function with name coalesce does not exist",
    "join_full_apart": "Scalar Function with name coalesce does not exist",
    "windows": "Unsupported expression type 5",
    "range_offsets": "Unsupported expression type 5",
    "join_anti": "Unsupported join type",
    "intersect": "SetOperationType transform not implemented for SetRel_SetOp type 4",
    "intersect_all": "SetOperationType transform not implemented for SetRel_SetOp type 8",
    "except_all": "SetOperationType transform not implemented for SetRel_SetOp type 7",
    "python_mod_and_floor": "Scalar Function with name remainder does not exist",
    "rounding": "Scalar Function with name bround does not exist",
}
"""Frames DuckDB 1.1's substrait extension refuses, with its reason (measured): ``negate`` and ``coalesce`` are
no functions of its own by those names, it reads no window function nor anti join, no set operation but
union and minus, and none of this project's extension (Python's ``%``, Spark's rounding)."""

DIFFERS = {
    "count_if": "row 1: ('b', 2, 2) != Spark's ('b', 1, 0)",
    "group_by": "row 0: ('a', Decimal('3'), 1, None, 3.0, 1) != Spark's ('a', 3, 1, None, 3.0, 1)",
    "group_by_nullable_key": "row 0: (1, Decimal('3')) != Spark's (1, 3)",
    "over_aggregates": (
        "row 0: ('a', datetime.date(2024, 1, 2), Decimal('6'), 3, Decimal('0')) != "
        "Spark's ('a', datetime.date(2024, 1, 2), 6, 3, 0)"
    ),
    "pivot": "row 0: ('a', None, Decimal('3')) != Spark's ('a', None, 3)",
    "offset": "0 rows != Spark's 3",
    "union": "4 rows != Spark's 6",
}
"""Frames DuckDB runs with another answer than Spark's, with the first difference (measured): it ignores a
measure's filter (``count_if``), gives ``sum`` of bigint its own type (``group_by``, ``pivot``...; the values
are Spark's), reads a fetch without a count as ``LIMIT 0`` (``offset``) and a ``UNION ALL`` as a distinct
union (``union``)."""

ORDERED = {"sort_limit", "offset"}


def _rows(table: pa.Table, *, ordered: bool) -> list[tuple[Any, ...]]:
    rows = [tuple(row.values()) for row in table.to_pylist()]
    return rows if ordered else sorted(rows, key=lambda row: [(v is None, repr(v)) for v in row])


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-12) or (math.isnan(a) and math.isnan(b))
    return type(a) is type(b) and a == b


def difference(ours: pa.Table, spark: pa.Table, *, ordered: bool) -> str:
    """The first difference between DuckDB's rows and Spark's ("" when equal): names, then typed values."""
    if ours.column_names != spark.column_names:
        return f"columns {ours.column_names} != Spark's {spark.column_names}"
    mine, theirs = _rows(ours, ordered=ordered), _rows(spark, ordered=ordered)
    if len(mine) != len(theirs):
        return f"{len(mine)} rows != Spark's {len(theirs)}"
    for index, (a, b) in enumerate(zip(mine, theirs, strict=True)):
        if not all(_same(x, y) for x, y in zip(a, b, strict=True)):
            return f"row {index}: {a} != Spark's {b}"
    return ""


def _exported_frames() -> list[str]:
    names = []
    for name, frame in {**frames(), **local_frames()}.items():
        try:
            export(frame._plan)
        except UnsupportedEngineError:
            continue
        names.append(name)
    return sorted(names)


@pytest.fixture(scope="module")
def duck() -> Iterator[duckdb_substrait.Consumer]:
    consumer = duckdb_substrait.Consumer()
    yield consumer
    consumer.close()


@pytest.mark.parametrize("name", _exported_frames())
def test_duckdb_gives_sparks_rows_or_is_listed(spark: SparkSession, duck: duckdb_substrait.Consumer, name: str) -> None:
    frame = {**frames(), **local_frames()}[name]
    try:
        ours = duck.run(export(frame._plan))
    except duckdb.Error as error:
        refusal = str(error)
    else:
        refusal = ""
    if refusal:
        assert REFUSED.get(name, "DuckDB runs it") in refusal, f"DuckDB refuses {name}: {refusal}"
        return
    assert name not in REFUSED, f"DuckDB now runs {name}"
    found = difference(ours, spark_answer(name), ordered=name in ORDERED)
    assert found == DIFFERS.get(name, ""), found


@pytest.mark.jvm_free
def test_the_comparison_sees_a_different_value_or_order() -> None:
    import pyarrow as pa

    spark = pa.table({"a": [1, 2], "b": [0.5, None]})
    assert difference(pa.table({"a": [2, 1], "b": [None, 0.5]}), spark, ordered=False) == ""
    assert difference(pa.table({"a": [2, 1], "b": [None, 0.5]}), spark, ordered=True).startswith("row 0")
    assert difference(pa.table({"a": [1.0, 2.0], "b": [0.5, None]}), spark, ordered=True).startswith("row 0")
    assert difference(pa.table({"x": [1, 2], "b": [0.5, None]}), spark, ordered=True).startswith("columns")
