"""Which operations and catalog functions have a Substrait function, and which of them the local engine runs.

Every function a plan calls is one of Substrait's standard extension
functions (``functions_arithmetic``, ``functions_comparison``...), named by
its extension file and name; a call with no entry here is refused by
``to_substrait`` with an ``UnsupportedEngineError`` naming it.

``local`` says whether the local engine (DataFusion) gives Spark's answer for
it: True only for functions the differential tests compare with Spark
(``tests/substrait/test_local_engine.py``). A mapped function whose semantics
differ is still exported (the plan says what Spark computes) but refused by the
local engine, with the difference in ``why``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantable_spark.expr.operators import ArithmeticOp, ComparisonOp

if TYPE_CHECKING:
    from pydantable_spark.expr.call import Call

__all__ = ["ARITHMETIC", "CATALOG_FUNCTIONS", "COMPARISON", "EXTENSIONS", "SubstraitFunction", "mapping_of"]

URI_BASE = "https://github.com/substrait-io/substrait/blob/main/extensions/"
"""Where the standard extension files live (a plan names them by URI and, since Substrait 0.7x, by URN)."""

EXTENSIONS = (
    "functions_arithmetic",
    "functions_comparison",
    "functions_boolean",
    "functions_string",
    "functions_aggregate_generic",
)


@dataclass(frozen=True, slots=True)
class SubstraitFunction:
    """A Substrait function: its extension file, its name and whether the local engine runs it as Spark does."""

    extension: str
    name: str
    local: bool = True
    why: str = ""
    """For ``local=False``: how the local engine's answer would differ from Spark's."""
    arity: int | None = None
    """The number of arguments the mapping covers (None: any); another count is refused."""


def _f(extension: str, name: str, *, local: bool = True, why: str = "", arity: int | None = None) -> SubstraitFunction:
    return SubstraitFunction(f"functions_{extension}", name, local, why, arity)


_INTEGER_OVERFLOW = "Spark (ANSI) raises on integer overflow; the local engine's result on overflow is not proven equal"

ARITHMETIC = {
    ArithmeticOp.ADD: _f("arithmetic", "add"),
    ArithmeticOp.SUB: _f("arithmetic", "subtract"),
    ArithmeticOp.MUL: _f("arithmetic", "multiply"),
}
"""The operators ``+ - *`` (numbers; decimals are refused: Spark's decimal result types are its own)."""

COMPARISON = {
    ComparisonOp.EQ: _f("comparison", "equal"),
    ComparisonOp.NE: _f("comparison", "not_equal"),
    ComparisonOp.LT: _f("comparison", "lt"),
    ComparisonOp.LE: _f("comparison", "lte"),
    ComparisonOp.GT: _f("comparison", "gt"),
    ComparisonOp.GE: _f("comparison", "gte"),
}

AND = _f("boolean", "and")
OR = _f("boolean", "or")
NOT = _f("boolean", "not")
IS_NULL = _f("comparison", "is_null")
IS_NOT_NULL = _f("comparison", "is_not_null")
IS_NOT_DISTINCT_FROM = _f("comparison", "is_not_distinct_from")
COALESCE = _f("comparison", "coalesce")
NEGATE = _f("arithmetic", "negate")

CATALOG_FUNCTIONS: dict[str, SubstraitFunction] = {
    "abs": _f("arithmetic", "abs"),
    "upper": _f("string", "upper"),
    "lower": _f("string", "lower"),
    "length": _f("string", "char_length"),
    "char_length": _f("string", "char_length"),
    "trim": _f("string", "trim", arity=1),
    "ltrim": _f("string", "ltrim", arity=1),
    "rtrim": _f("string", "rtrim", arity=1),
    "startswith": _f("string", "starts_with"),
    "endswith": _f("string", "ends_with"),
    "contains": _f("string", "contains"),
    "sum": _f("arithmetic", "sum"),
    "min": _f("arithmetic", "min"),
    "max": _f("arithmetic", "max"),
    "avg": _f("arithmetic", "avg"),
    "mean": _f("arithmetic", "avg"),
    "count": _f("aggregate_generic", "count"),
}
"""Catalog entries (``pydantable_spark.expr.catalog``) by name → their Substrait function."""


def mapping_of(call: Call) -> SubstraitFunction | None:
    """The Substrait function for a catalog call, or None when it has none (for these arguments)."""
    found = CATALOG_FUNCTIONS.get(call.function.name)
    if found is None or (found.arity is not None and len(call.args) != found.arity):
        return None
    return found
