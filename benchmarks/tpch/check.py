"""Does a typed query give what Spark SQL gives? Names, Spark types and rows, compared."""

from __future__ import annotations

import contextlib
import io
import math
import re
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from pyspark.sql import DataFrame as SparkDataFrame

    from pydantable_spark import DataFrame

REL_TOL = 1e-9
"""Doubles (averages, Q8's share) may differ in the last bits: Spark's sums depend on the order of their rows."""


def differences(
    typed: DataFrame[Any], sql: SparkDataFrame, *, ordered: bool, engine: Literal["spark", "local"] = "spark"
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
    theirs = [tuple(row) for row in sql.collect()]
    if len(mine) != len(theirs):
        problems.append(f"row counts differ: typed {len(mine)} != SQL {len(theirs)}")
        return problems
    if not ordered:
        mine, theirs = sorted(mine, key=_sort_key), sorted(theirs, key=_sort_key)
    for index, (a, b) in enumerate(zip(mine, theirs, strict=True)):
        if not all(_same(x, y) for x, y in zip(a, b, strict=True)):
            problems.append(f"row {index} differs: typed {a} != SQL {b}")
            if len(problems) >= 5:
                break
    return problems


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
