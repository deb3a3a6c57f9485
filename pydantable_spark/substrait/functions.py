"""Which operations and catalog functions have a Substrait function, and which of them the local engine runs.

Every function a plan calls is one of Substrait's standard extension
functions (``functions_arithmetic``, ``functions_arithmetic_decimal``,
``functions_comparison``...) or one of this project's extension
(``functions_spark``, shipped as ``extensions/functions_spark.yaml``), named by
its extension file and name; a call with no entry here is refused by
``to_substrait`` with an ``UnsupportedEngineError`` naming it. Each entry says
what its definition derives (result type, nullability handling, the options a
call states), so that a portable plan's calls fit their definitions: where
Spark's type differs, the plan casts the call's value to Spark's type
(``tests/substrait/test_portable.py`` checks every call against the YAMLs).

``local`` says whether the local engine (DataFusion) gives Spark's answer for
it: True only for functions the differential tests compare with Spark
(``tests/substrait/test_local_engine.py``). A mapped function whose semantics
differ is still exported (the plan says what Spark computes) but refused by the
local engine, with the difference in ``why``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantable_spark import dtypes as dt
from pydantable_spark.expr.core import Literal, Typed
from pydantable_spark.expr.operators import ArithmeticOp, ComparisonOp

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from pydantable_spark.expr.call import Call
    from pydantable_spark.expr.catalog.spec import Function

__all__ = [
    "ARITHMETIC",
    "CATALOG_FUNCTIONS",
    "COMPARISON",
    "DATE_PART",
    "DECIMAL_DIVISION",
    "SPARK_AVERAGE",
    "SubstraitFunction",
    "mapping_of",
]

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


Option = tuple[str, str]
"""A function option a call states and the value it prefers (``("overflow", "ERROR")``)."""

OVERFLOW_ERROR: tuple[Option, ...] = (("overflow", "ERROR"),)
"""Spark's (ANSI) answer to an integer or decimal overflow: an error."""


@dataclass(frozen=True, slots=True)
class SubstraitFunction:
    """A Substrait function: its extension file, its name, what its definition says, and the local engine's verdict.

    A call is written with the result type its definition derives (``returns``, nullability by
    ``declared``); where Spark's type differs (``row_number`` is Spark's ``int``, the definition's
    ``i64?``), the portable plan casts the call's value to Spark's type. ``variants`` name other
    definitions by the type of the first argument (decimal ``add`` lives in
    ``functions_arithmetic_decimal``): ``resolve`` picks one.
    """

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
    indexing: str | None = None
    """A second enum argument, ``extract``'s ``indexing`` (``ONE``: months and days counted from 1, as Spark)."""
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
    characters: str | None = None
    """A last argument the definition requires and Spark's call leaves implicit (``trim``'s characters: a space)."""
    options: tuple[Option, ...] = ()
    """The options a call states, each one its definition defines (``overflow: ERROR``: Spark's ANSI answer)."""
    returns: Callable[[Sequence[dt.DType]], dt.DType] | None = None
    """The definition's result type from the argument types, where it may differ from Spark's (None: Spark's)."""
    declared: bool | None = None
    """``DECLARED_OUTPUT``: the result's nullability as the definition declares it; None: ``MIRROR`` (nullable
    when an argument is)."""
    variants: tuple[tuple[tuple[type[dt.DType], ...], SubstraitFunction], ...] = ()
    """Definitions for other argument types, by the first argument's type; the first that fits is taken."""

    def resolve(self, first: dt.DType | None) -> SubstraitFunction:
        """The definition for a call whose first argument (as the plan passes it) has type ``first``."""
        for kinds, variant in self.variants:
            if isinstance(first, kinds):
                return variant
        return self

    def defined(self, args: Sequence[Typed], spark: Typed) -> Typed:
        """The result type the definition derives for ``args`` (Spark's type ``spark`` where it says nothing)."""
        dtype = self.returns([a.dtype for a in args]) if self.returns is not None else spark.dtype
        nullable = any(a.nullable for a in args) if self.declared is None else self.declared
        return Typed(dtype, nullable)


MAX_DECIMAL_DIGITS = 38


def _f(extension: str, name: str, **fields: Any) -> SubstraitFunction:
    return SubstraitFunction(f"functions_{extension}", name, **fields)


def _spark(name: str, **fields: Any) -> SubstraitFunction:
    """A function of this project's extension (``functions_spark.yaml``)."""
    return SubstraitFunction(SPARK_EXTENSION, name, **fields)


def fixed(dtype: dt.DType) -> Callable[[Sequence[dt.DType]], dt.DType]:
    """A definition's result rule: always ``dtype``."""
    return lambda args: dtype


def _sum_of_decimals(args: Sequence[dt.DType]) -> dt.DType:
    """``functions_arithmetic_decimal``'s ``sum`` and ``avg``: ``DECIMAL?<38,S>`` (Spark's sum has ``P+10`` digits)."""
    given = args[0]
    assert isinstance(given, dt.Decimal)
    return dt.Decimal(38, given.scale)


def _adjusted(precision: int, scale: int) -> dt.Decimal:
    """A decimal result fitted to 38 digits, keeping at least 6 decimals, as the decimal YAML (and Spark) does."""
    if precision <= MAX_DECIMAL_DIGITS:
        return dt.Decimal(precision, scale)
    kept = max(scale - (precision - MAX_DECIMAL_DIGITS), min(scale, 6))
    return dt.Decimal(MAX_DECIMAL_DIGITS, kept)


def standard_decimal_division(args: Sequence[dt.DType]) -> dt.DType:
    """``functions_arithmetic_decimal``'s ``divide``: its integer digits count ``P2`` where Spark's count ``S2``.

    >>> print(standard_decimal_division([dt.Decimal(15, 2), dt.Decimal(15, 2)]))
    decimal(38,10)
    """
    left, right = args[0], args[1]
    assert isinstance(left, dt.Decimal)
    assert isinstance(right, dt.Decimal)
    scale = max(6, left.scale + right.precision + 1)
    return _adjusted(left.precision - left.scale + right.precision + scale, scale)


_NUMBERS = (dt.Integral, dt.Floating)
_I64 = fixed(dt.Int64())

DATE_PART = _f("datetime", "date_part")
"""DataFusion's spelling of ``extract`` (its Substrait consumer takes no enum argument): local plans only."""


def _arithmetic(name: str, **fields: Any) -> SubstraitFunction:
    """``+ - *``: integers fail on overflow (ANSI); decimals in the decimal file; floats state no option."""
    return _f(
        "arithmetic",
        name,
        options=OVERFLOW_ERROR,
        variants=(
            ((dt.Decimal,), _f("arithmetic_decimal", name, options=OVERFLOW_ERROR, **fields)),
            ((dt.Floating,), _f("arithmetic", name, **fields)),
        ),
        **fields,
    )


_DIVISION = "Spark (ANSI) raises on a division by zero where DataFusion gives infinity for doubles (measured)"

DECIMAL_DIVISION = _spark("divide", local=False, why=_DIVISION, declared=True)
"""Spark's decimal ``/`` where its result type is not the decimal YAML's (Spark counts the divisor's scale,
the YAML its precision): this project's extension, Spark's rule."""

ARITHMETIC = {
    ArithmeticOp.ADD: _arithmetic("add"),
    ArithmeticOp.SUB: _arithmetic("subtract"),
    ArithmeticOp.MUL: _arithmetic("multiply"),
    ArithmeticOp.DIV: _f(
        "arithmetic",
        "divide",
        local=False,
        why=_DIVISION,
        options=(("on_division_by_zero", "ERROR"),),
        variants=(
            (
                (dt.Decimal,),
                _f(
                    "arithmetic_decimal",
                    "divide",
                    local=False,
                    why=_DIVISION,
                    options=OVERFLOW_ERROR,
                    returns=standard_decimal_division,
                ),
            ),
        ),
    ),
}
"""The operators ``+ - * /`` (Spark's ``/`` divides doubles or decimals: ``on_division_by_zero: ERROR``)."""

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
IS_NULL = _f("comparison", "is_null", declared=False)
IS_NOT_NULL = _f("comparison", "is_not_null", declared=False)
IS_NOT_DISTINCT_FROM = _f("comparison", "is_not_distinct_from", declared=False)
COALESCE = _f("comparison", "coalesce")
NEGATE = _f(
    "arithmetic",
    "negate",
    options=OVERFLOW_ERROR,
    variants=(((dt.Decimal,), _f("arithmetic_decimal", "negate")), ((dt.Floating,), _f("arithmetic", "negate"))),
)
IS_NAN = _f("comparison", "is_nan")


def _aggregate(name: str, *, options: tuple[Option, ...] = (), **fields: Any) -> SubstraitFunction:
    """``sum``, ``avg``, ``min``, ``max``, whose result may be NULL, by the type aggregated.

    Numbers in the arithmetic file, decimals in the decimal file, dates and timestamps in the datetime file
    (``min``/``max``), the other types ``min``/``max`` order (strings, booleans...) in this project's.
    """
    decimal = _f("arithmetic_decimal", name, declared=True, options=options, **fields)
    variants: list[tuple[tuple[type[dt.DType], ...], SubstraitFunction]] = [((dt.Decimal,), decimal)]
    if name in ("min", "max"):
        variants += [
            ((dt.Date, dt.Datetime, dt.DatetimeNTZ), _f("datetime", name, declared=True)),
            (_NUMBERS, _f("arithmetic", name, declared=True)),
            ((dt.DType,), _spark(name, declared=True)),
        ]
    else:
        variants.append(((dt.Floating,), _f("arithmetic", name, declared=True)))
    return _f("arithmetic", name, declared=True, options=options, variants=tuple(variants))


def _extract(component: str, indexing: str | None = None) -> SubstraitFunction:
    """``extract``: an ``i64`` (the plan casts it to Spark's ``int``); months, days and quarters counted from 1."""
    return _f("datetime", "extract", component=component, indexing=indexing, returns=_I64)


def _ranking(name: str, returns: dt.DType) -> SubstraitFunction:
    return _f("arithmetic", name, returns=fixed(returns), declared=True)


def _offset(name: str, **fields: Any) -> SubstraitFunction:
    """``lag``, ``lead``, ``ntile``, ``nth_value``: window functions of the arithmetic file, whose result may be NULL.

    DataFusion's functions of these names compute Spark's answer (each compared with Spark by the catalog tests).
    """
    return _f("arithmetic", name, declared=True, **fields)


CATALOG_FUNCTIONS: dict[str, SubstraitFunction] = {
    "abs": _f(
        "arithmetic",
        "abs",
        local=False,
        why="Spark (ANSI) fails on the smallest integer with ARITHMETIC_OVERFLOW; DataFusion's error names no class",
        options=OVERFLOW_ERROR,
        variants=(((dt.Decimal,), _f("arithmetic_decimal", "abs")), ((dt.Floating,), _f("arithmetic", "abs"))),
    ),
    "upper": _f("string", "upper"),
    "lower": _f("string", "lower"),
    "length": _f("string", "char_length", strings=True, returns=_I64),
    "char_length": _f("string", "char_length", strings=True, returns=_I64),
    "trim": _f("string", "trim", arity=1, characters=" "),
    "ltrim": _f("string", "ltrim", arity=1, characters=" "),
    "rtrim": _f("string", "rtrim", arity=1, characters=" "),
    "startswith": _f("string", "starts_with", strings=True),
    "endswith": _f("string", "ends_with", strings=True),
    "contains": _f("string", "contains", strings=True),
    "like": _f("string", "like", arity=2, plain_pattern=True),
    "substring": _f("string", "substring", arity=3, literal_from=1, strings=True),
    "substr": _f("string", "substring", arity=3, literal_from=1, strings=True),
    "year": _extract("YEAR"),
    "month": _extract("MONTH", "ONE"),
    "dayofmonth": _extract("DAY", "ONE"),
    "quarter": _extract("QUARTER", "ONE"),
    "row_number": _ranking("row_number", dt.Int64()),
    "lag": _offset("lag"),
    "lead": _offset("lead"),
    "ntile": _offset("ntile"),
    "nth_value": _offset("nth_value", false_at=2),
    "rank": _ranking("rank", dt.Int64()),
    "dense_rank": _ranking("dense_rank", dt.Int64()),
    "percent_rank": _ranking("percent_rank", dt.Float64()),
    "cume_dist": _ranking("cume_dist", dt.Float64()),
    "sum": _aggregate("sum", options=OVERFLOW_ERROR, returns=_sum_of_decimals),
    "min": _aggregate("min"),
    "max": _aggregate("max"),
    "avg": _aggregate("avg", options=OVERFLOW_ERROR, returns=_sum_of_decimals),
    "mean": _aggregate("avg", options=OVERFLOW_ERROR, returns=_sum_of_decimals),
    "count": _f("aggregate_generic", "count", declared=False),
    "count_distinct": _f("aggregate_generic", "count", arity=1, declared=False),  # invocation DISTINCT
    # count() of the rows its condition holds for (a measure filter)
    "count_if": _f("aggregate_generic", "count", declared=False),
}
"""Catalog entries (``pydantable_spark.expr.catalog``) by name → their Substrait function."""

SPARK_AVERAGE = _spark("avg", declared=True)
"""Spark's average of decimals too wide for the decimal YAML's ``avg`` to keep Spark's digits (above 34 digits:
the input cast to Spark's result scale would lose integer digits): this project's extension, Spark's rule."""


SPARK_OPERATORS = {
    ArithmeticOp.MOD: _spark("remainder", declared=True),
    ArithmeticOp.FLOORDIV: _spark("floor_divide", declared=True),
}
"""Python's ``%`` and ``//`` over Spark's (the divisor's sign, the floor): this project's extension, named as
the kernels that compute them (Spark marks both results nullable)."""


def declared_nullability(rule: Callable[..., bool]) -> bool | None:
    """How this project's extension states a catalog entry's nullability rule.

    None for ``MIRROR`` (``any_null``), else the nullability ``DECLARED_OUTPUT`` gives: a rule of its own
    (``null_if(0)``) is declared "may be NULL", and the plan casts the call to Spark's nullability.
    """
    from pydantable_spark.expr.catalog import spec

    if rule is spec.any_null:
        return None
    return rule is not spec.never


def spark_function(name: str) -> SubstraitFunction:
    """The function of this project's extension computed by the kernel ``name`` (a catalog entry or an operator)."""
    for operator in SPARK_OPERATORS.values():
        if operator.name == name:
            return operator
    return _spark(name, declared=declared_nullability(catalog_entry(name).rules.nullable))


def catalog_entry(name: str) -> Function:
    """The catalog entry a kernel is named after: an ``F`` function or a namespace method (``str.extract``)."""
    from pydantable_spark.expr.catalog import CATALOG, METHODS

    found = CATALOG.get(name)
    if found is None:
        found = next(entry for entry in METHODS.values() if entry.name == name)
    return found


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
