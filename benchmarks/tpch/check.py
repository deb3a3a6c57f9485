"""Does a typed query give what Spark SQL gives? Names, Spark types and rows, compared."""

from __future__ import annotations

import contextlib
import io
import math
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    import pyarrow as pa
    from pyspark.sql import DataFrame as SparkDataFrame
    from pyspark.sql import Row
    from pyspark.sql.types import StructType

    from pydantable_spark import DataFrame

REL_TOL = 1e-9
"""Doubles (averages, Q8's share) may differ in the last bits: Spark's sums depend on the order of their rows."""


@dataclass(frozen=True)
class Answer:
    """Spark SQL's answer to a query, collected once (its schema and rows); ``differences`` takes it as the query."""

    schema: StructType
    rows: list[Row]

    @classmethod
    def of(cls, sql: SparkDataFrame) -> Answer:
        """Run ``sql`` and keep its answer."""
        return cls(sql.schema, sql.collect())

    def collect(self) -> list[Row]:
        """The rows, as ``DataFrame.collect()`` gives them."""
        return self.rows


def differences(
    typed: DataFrame[Any],
    sql: SparkDataFrame | Answer,
    *,
    ordered: bool,
    engine: Literal["spark", "local"] = "spark",
) -> list[str]:
    """What differs between the typed query's result and Spark SQL's (empty when they are equal).

    Column names and Spark types must be equal (nullability may differ: the
    façade derives it, Spark marks file columns nullable); rows are compared
    as the façade's validated ``collect()`` gives them against Spark's
    ``collect()``, decimals exactly, doubles within ``REL_TOL``; in order when
    the query has an ORDER BY (``ordered``), as multisets otherwise.
    """
    problems: list[str] = []
    typed_schema = typed.to_spark().schema
    typed_types = [(f.name, f.dataType.simpleString()) for f in typed_schema.fields]
    sql_types = [(f.name, f.dataType.simpleString()) for f in sql.schema.fields]
    if typed_types != sql_types:
        problems.append(f"columns differ: typed {typed_types} != SQL {sql_types}")
        return problems
    names = typed.columns
    mine = [tuple(getattr(row, name) for name in names) for row in typed.collect(engine=engine)]
    return row_differences(mine, [tuple(row) for row in sql.collect()], ordered=ordered)


def row_differences(
    mine: list[tuple[Any, ...]], theirs: list[tuple[Any, ...]], *, ordered: bool, label: str = "typed"
) -> list[str]:
    """The rows that differ (at most 5), or the row counts; ``label`` names the side compared with SQL's."""
    if len(mine) != len(theirs):
        return [f"row counts differ: {label} {len(mine)} != SQL {len(theirs)}"]
    if not ordered:
        mine, theirs = sorted(mine, key=_sort_key), sorted(theirs, key=_sort_key)
    problems = []
    for index, (a, b) in enumerate(zip(mine, theirs, strict=True)):
        if not all(_same(x, y) for x, y in zip(a, b, strict=True)):
            problems.append(f"row {index} differs: {label} {a} != SQL {tuple(b)}")
            if len(problems) >= 5:
                break
    return problems


def table_differences(table: pa.Table, sql: Answer, *, ordered: bool, label: str) -> list[str]:
    """What differs between engine ``label``'s Arrow result and Spark SQL's: column names, then rows as above."""
    names = [f.name for f in sql.schema.fields]
    if table.column_names != names:
        return [f"columns differ: {label} {table.column_names} != SQL {names}"]
    rows = [tuple(row.values()) for row in table.to_pylist()]
    return row_differences(rows, [tuple(row) for row in sql.rows], ordered=ordered, label=label)


def _same(a: object, b: object) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=REL_TOL, abs_tol=0.0) or (math.isnan(a) and math.isnan(b))
    if isinstance(a, Decimal) and isinstance(b, Decimal):
        return a == b and a.as_tuple().exponent == b.as_tuple().exponent
    return type(a) is type(b) and a == b


def _sort_key(row: tuple[Any, ...]) -> tuple[tuple[bool, str], ...]:
    return tuple((value is None, repr(value)) for value in row)


def pushed_filters(typed: DataFrame[Any], sql: SparkDataFrame, table: str) -> tuple[str, str]:
    """The ``PushedFilters`` of ``table``'s Parquet scan in the typed query's executed plan and in Spark SQL's.

    Column ids (``#12``) are left out, so equal pushdowns read the same. Spark
    cuts the list at ``spark.sql.maxMetadataStringLength`` characters (100 by
    default; ``run.py`` raises it), the same way on both sides.
    """
    shown = io.StringIO()
    with contextlib.redirect_stdout(shown):
        sql.explain()
    return _pushed(typed.explain(spark=True), table), _pushed(shown.getvalue(), table)


def _pushed(explained: str, table: str) -> str:
    physical = explained.split("== Physical Plan ==", 1)[-1]
    scans = [line for line in physical.splitlines() if "FileScan" in line and f"/{table}.parquet" in line]
    if not scans:
        msg = f"no Parquet scan of {table!r} in the plan:\n{physical}"
        raise ValueError(msg)
    found = re.search(r"PushedFilters: (.*?), ReadSchema:", scans[0])
    return re.sub(r"#\d+", "", found[1]) if found else "(none shown)"
