"""Result rules entries share: ``returns.DOUBLE`` (a double results), ``returns.same(0)``, ``returns.fixed(t)``.

An entry's result type is a rule over its arguments (``spec.DTypeRule``); the
argument type sets live apart, in ``accepts`` (``accepts.DOUBLE`` admits a
number and converts it to a double), so the same word never means both.
"""

from __future__ import annotations

from pydantable_spark import dtypes as dt
from pydantable_spark.expr.catalog.spec import element, fixed, same

__all__ = [
    "BIGINT",
    "BINARY",
    "BOOLEAN",
    "DATE",
    "DOUBLE",
    "INT",
    "STRING",
    "TIMESTAMP",
    "TIMESTAMP_NTZ",
    "element",
    "fixed",
    "same",
]

BOOLEAN = fixed(dt.Boolean())
STRING = fixed(dt.String())
BINARY = fixed(dt.Binary())
INT = fixed(dt.Int32())
BIGINT = fixed(dt.Int64())
DOUBLE = fixed(dt.Float64())
DATE = fixed(dt.Date())
TIMESTAMP = fixed(dt.Datetime())
TIMESTAMP_NTZ = fixed(dt.DatetimeNTZ())
