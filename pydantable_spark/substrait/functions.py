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

from pydantable_spark import dtypes as dt
from pydantable_spark.expr.core import Literal
from pydantable_spark.expr.operators import ArithmeticOp, ComparisonOp

if TYPE_CHECKING:
    from pydantable_spark.expr.call import Call

__all__ = ["ARITHMETIC", "CATALOG_FUNCTIONS", "COMPARISON", "DATE_PART", "SubstraitFunction", "mapping_of"]

URI_BASE = "https://github.com/substrait-io/substrait/blob/main/extensions/"
"""Where the standard extension files live (a plan names them by URI and, since Substrait 0.7x, by URN)."""

SPARK_EXTENSION = "functions_spark"
"""This project's extension: Spark's functions that Substrait's standard files lack, under their Spark names
(``pydantable_spark/substrait/extensions/functions_spark.yaml``)."""

LOCAL_EXTENSION = "functions_spark_local"
"""In a plan for the local engine only: each kernel call site, by the name it is registered under."""

OWN_URI_BASE = "https://pydantable-spark.invalid/extensions/"
"""Where this project's extension files are named from (they ship in the package, not on a web server)."""


def uri_of(extension: str) -> str:
    """The URI a plan names an extension file by."""
    own = extension in (SPARK_EXTENSION, LOCAL_EXTENSION)
    return f"{OWN_URI_BASE if own else URI_BASE}{extension}.yaml"


def urn_of(extension: str) -> str:
    """The URN a plan names an extension file by (Substrait 0.7x and later)."""
    own = extension in (SPARK_EXTENSION, LOCAL_EXTENSION)
    return f"extension:{'dev.pydantable-spark' if own else 'io.substrait'}:{extension}"


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
    component: str | None = None
    """A leading enum argument (``extract``'s ``YEAR``); DataFusion takes none, so the local engine writes
    ``date_part('<component>', ...)`` instead."""
    literal_from: int | None = None
    """The arguments from this index on must be positive integer literals (``substring``'s position and length:
    Spark counts a negative position from the end, Substrait and DataFusion do not)."""
    plain_pattern: bool = False
    """The second argument must be a string literal without a backslash (Spark refuses a LIKE pattern whose
    backslash escapes nothing, DataFusion runs it: measured)."""
    false_at: int | None = None
    """An argument at this index must be the literal False (a flag left at Spark's default: ``nth_value``'s
    ``ignoreNulls``); it is left out of the plan."""
    strings: bool = False
    """The function's standard definition takes strings only: a call on bytes has no mapping (Spark's
    ``startswith``, ``contains``... also take binary arguments; DataFusion's refuse them)."""


def _f(
    extension: str,
    name: str,
    *,
    local: bool = True,
    why: str = "",
    arity: int | None = None,
    component: str | None = None,
    literal_from: int | None = None,
    plain_pattern: bool = False,
    strings: bool = False,
) -> SubstraitFunction:
    return SubstraitFunction(
        f"functions_{extension}",
        name,
        local=local,
        why=why,
        arity=arity,
        component=component,
        literal_from=literal_from,
        plain_pattern=plain_pattern,
        strings=strings,
    )


DATE_PART = _f("datetime", "date_part")
"""DataFusion's spelling of ``extract`` (its Substrait consumer takes no enum argument)."""


_INTEGER_OVERFLOW = "Spark (ANSI) raises on integer overflow; the local engine's result on overflow is not proven equal"

ARITHMETIC = {
    ArithmeticOp.ADD: _f("arithmetic", "add"),
    ArithmeticOp.SUB: _f("arithmetic", "subtract"),
    ArithmeticOp.MUL: _f("arithmetic", "multiply"),
    ArithmeticOp.DIV: _f(
        "arithmetic",
        "divide",
        local=False,
        why="Spark (ANSI) raises on a division by zero where DataFusion gives infinity for doubles (measured)",
    ),
}
"""The operators ``+ - * /`` (``/`` with the option ``on_division_by_zero: ERROR``, Spark's ANSI behaviour)."""

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
IS_NAN = _f("comparison", "is_nan")

CATALOG_FUNCTIONS: dict[str, SubstraitFunction] = {
    "abs": _f(
        "arithmetic",
        "abs",
        local=False,
        why="Spark (ANSI) fails on the smallest integer with ARITHMETIC_OVERFLOW; DataFusion's error names no class",
    ),
    "upper": _f("string", "upper"),
    "lower": _f("string", "lower"),
    "length": _f("string", "char_length", strings=True),
    "char_length": _f("string", "char_length", strings=True),
    "trim": _f("string", "trim", arity=1),
    "ltrim": _f("string", "ltrim", arity=1),
    "rtrim": _f("string", "rtrim", arity=1),
    "startswith": _f("string", "starts_with", strings=True),
    "endswith": _f("string", "ends_with", strings=True),
    "contains": _f("string", "contains", strings=True),
    "like": _f("string", "like", arity=2, plain_pattern=True),
    "substring": _f("string", "substring", arity=3, literal_from=1, strings=True),
    "substr": _f("string", "substring", arity=3, literal_from=1, strings=True),
    "year": _f("datetime", "extract", component="YEAR"),
    "month": _f("datetime", "extract", component="MONTH"),
    "dayofmonth": _f("datetime", "extract", component="DAY"),
    "quarter": _f("datetime", "extract", component="QUARTER"),
    "row_number": _f("arithmetic", "row_number"),
    # offset functions: not in Substrait's standard files; this project's extension names them as Spark does, and
    # DataFusion's functions of these names compute Spark's answer (each compared with Spark by the catalog tests)
    "lag": SubstraitFunction(SPARK_EXTENSION, "lag"),
    "lead": SubstraitFunction(SPARK_EXTENSION, "lead"),
    "ntile": SubstraitFunction(SPARK_EXTENSION, "ntile"),
    "nth_value": SubstraitFunction(SPARK_EXTENSION, "nth_value", false_at=2),
    "rank": _f("arithmetic", "rank"),
    "dense_rank": _f("arithmetic", "dense_rank"),
    "percent_rank": _f("arithmetic", "percent_rank"),
    "cume_dist": _f("arithmetic", "cume_dist"),
    "sum": _f("arithmetic", "sum"),
    "min": _f("arithmetic", "min"),
    "max": _f("arithmetic", "max"),
    "avg": _f("arithmetic", "avg"),
    "mean": _f("arithmetic", "avg"),
    "count": _f("aggregate_generic", "count"),
    "count_distinct": _f("aggregate_generic", "count", arity=1),  # invocation DISTINCT
    "count_if": _f("aggregate_generic", "count"),  # count() of the rows its condition holds for (a measure filter)
}
"""Catalog entries (``pydantable_spark.expr.catalog``) by name → their Substrait function."""


def mapping_of(call: Call) -> SubstraitFunction | None:
    """The Substrait function for a catalog call, or None when it has none (for these arguments)."""
    found = CATALOG_FUNCTIONS.get(call.function.name)
    if found is None or (found.arity is not None and len(call.args) != found.arity):
        return None
    if found.false_at is not None and len(call.args) > found.false_at:
        flag = call.args[found.false_at]
        if not isinstance(flag, Literal) or flag.value is not False:
            return None
    if found.strings and any(isinstance(a.type.dtype, dt.Binary) for a in call.args):
        return None
    if found.literal_from is not None:
        for arg in call.args[found.literal_from :]:
            value = getattr(arg, "value", None)
            if not isinstance(arg, Literal) or type(value) is not int or value < 1:
                return None
    if found.plain_pattern:
        pattern = call.args[1]
        if not isinstance(pattern, Literal) or type(pattern.value) is not str or "\\" in pattern.value:
            return None
    return found
