"""CSV text functions: a struct as a CSV line, and the schema of a CSV line (``F.from_csv`` is a special form).

Measured on Spark 4.3 (and checked by ``tests/expr/test_catalog.py``):

- ``to_csv`` takes a struct (a list or map field is written as Spark prints it,
  ``[1]``); its result is typed nullable whatever the input, and a NULL field
  is an empty value.
- ``schema_of_csv`` needs a constant text, not NULL (Spark's analyzer refuses a
  column or a NULL); it names the fields ``_c0``, ``_c1``...
"""

from __future__ import annotations

from pydantable_spark import dtypes as dt
from pydantable_spark.expr.catalog import accepts
from pydantable_spark.expr.catalog.json_text import not_null_text
from pydantable_spark.expr.catalog.spec import (
    Accepts,
    Function,
    always,
    column,
    either,
    entry,
    fixed,
    never,
    options,
)

__all__ = ["ENTRIES", "STRUCT"]

STRUCT = Accepts(
    "a struct",
    lambda t: isinstance(t, dt.Struct),
    examples=(
        dt.Struct((dt.Field("a", dt.Int64(), False), dt.Field("b", dt.String(), True))),
        dt.Struct((dt.Field("d", dt.Date(), True), dt.Field("x", dt.Float64(), False))),
    ),
)

ENTRIES: tuple[Function, ...] = (
    entry(
        "to_csv",
        (column("col", STRUCT), options(sample={"sep": ";"})),
        fixed(dt.String()),
        "The struct's fields as one CSV line (NULL for NULL); ``options`` are Spark's CSV options (``sep``...).",
        "csv",
        nullable=always,
    ),
    entry(
        "schema_of_csv",
        (either("csv", accepts.STRING, str, foldable=True, sample="1,abc,2.5"), options(sample={"sep": ","})),
        fixed(dt.String()),
        "The schema Spark infers for a constant CSV line, as DDL (``STRUCT<_c0: INT, _c1: STRING>``); not a column.",
        "csv",
        nullable=never,
        check=not_null_text,
    ),
)
"""The CSV entries."""
