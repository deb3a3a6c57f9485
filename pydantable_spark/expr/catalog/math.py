"""Numeric functions (PySpark's math functions).

Spark computes most of them in ``double`` (``sqrt``, ``sin``, ``log``...) and
casts any number to it; the façade writes that cast itself, so every number
type is admitted and the result is a ``double``. Rounding keeps the
argument's type, a decimal's precision following ``typerules.rounded_decimal``;
``ceil``/``floor`` give a ``bigint`` (a decimal for decimals or with a scale).
Spark marks the one-argument math functions and all rounding nullable
whatever the input (NULL for the logarithm of a non-positive number; for the
others Spark's analyzer says so): those entries say ``always``. Strings are
never numbers here: ``conv`` and ``unhex`` take strings, the rest refuse them.

Each entry is checked against Spark's analyzer and against plain PySpark's
values by ``tests/expr/test_catalog.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ColumnTypeError
from pydantable_spark.expr.catalog import accepts, returns
from pydantable_spark.expr.catalog.spec import (
    ABSENT,
    Accepts,
    Args,
    DTypeRule,
    EntryOptions,
    Function,
    Param,
    always,
    any_null,
    column,
    either,
    entry,
    fixed,
    never,
    same,
    value,
)
from pydantable_spark.expr.core import describe
from pydantable_spark.typerules import (
    ArithmeticOp,
    arithmetic_hint,
    arithmetic_result,
    decimal_for_number,
    rounded_decimal,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from typing_extensions import Unpack

__all__ = ["ENTRIES"]

X = column("col", accepts.DOUBLE)
NUMBER_OR_DURATION = Accepts(
    "a number or a duration",
    lambda t: isinstance(t, dt.Numeric | dt.Duration),
    examples=(*accepts.NUMBER.examples, dt.Duration()),
)
FLOATING = Accepts(
    "a number",
    lambda t: isinstance(t, dt.Numeric),
    to=lambda t: t if isinstance(t, dt.Float32) else dt.Float64(),
    examples=accepts.NUMBER.examples,
)
"""Spark takes ``float`` or ``double`` (``isnan``, ``nanvl``) and casts other numbers to ``double``."""
ARITHMETIC = Accepts(
    "a number, a datetime or a duration",
    lambda t: isinstance(t, dt.Numeric | dt.Date | dt.Datetime | dt.DatetimeNTZ | dt.Duration),
    examples=(*accepts.NUMBER.examples, dt.Date()),
)
HEXABLE = Accepts(
    "an integer, a string or bytes",
    lambda t: isinstance(t, dt.Integral | dt.String | dt.Binary),
    examples=(dt.Int64(), dt.Int8(), dt.String(), dt.Binary()),
)


def _entry(
    name: str, *params: Param, returns: DTypeRule = returns.DOUBLE, summary: str, **options: Unpack[EntryOptions]
) -> Function:
    return entry(name, params, returns, summary, "math", **options)


def _unary(name: str, summary: str, **options: Unpack[EntryOptions]) -> Function:
    """A function of one number computed in ``double`` (Spark marks the result nullable)."""
    options.setdefault("nullable", always)
    return _entry(name, X, summary=summary, **options)


def _binary(name: str, summary: str, **options: Unpack[EntryOptions]) -> Function:
    """A function of two numbers computed in ``double`` (PySpark's ``col1``, ``col2``)."""
    return _entry(name, column("col1", accepts.DOUBLE), column("col2", accepts.DOUBLE), summary=summary, **options)


# --- rules ----------------------------------------------------------------------------------------


def _round(args: Args) -> dt.DType:
    """``round``/``bround``: the argument's type; a decimal's scale drops to ``scale``."""
    dtype = args.dtype(0)
    scale = args.value(1) if len(args) > 1 else 0
    return rounded_decimal(dtype, scale) if isinstance(dtype, dt.Decimal) else dtype


def _ceil_floor(args: Args) -> dt.DType:
    """``ceil``/``floor``: a ``bigint`` (a decimal of a decimal); with a scale, the number as a decimal, rounded."""
    dtype = args.dtype(0)
    assert isinstance(dtype, dt.Numeric)
    if len(args) == 1:
        return rounded_decimal(dtype, 0) if isinstance(dtype, dt.Decimal) else dt.Int64()
    return rounded_decimal(decimal_for_number(dtype), args.value(1))


def date_days(op: ArithmeticOp, left: dt.DType, right: dt.DType) -> bool:
    """Whether ``try_add``/``try_subtract`` add days to a date: date ± integer, integer + date (``date_add``)."""
    if op is ArithmeticOp.ADD:
        pairs = [(left, right), (right, left)]
    elif op is ArithmeticOp.SUB:
        pairs = [(left, right)]
    else:
        return False
    return any(isinstance(a, dt.Date) and isinstance(b, dt.Integral) for a, b in pairs)


def _arithmetic(op: ArithmeticOp) -> tuple[Callable[[Args], dt.DType], Callable[[Args], None]]:
    """The result rule and the check of an arithmetic function (Spark's operator ``op``, and days on a date)."""

    def check(args: Args) -> None:
        if date_days(op, args.dtype(0), args.dtype(1)):
            return
        if arithmetic_result(op, args.dtype(0), args.dtype(1)) is None:
            hint = arithmetic_hint(op, args.dtype(0), args.dtype(1)) if op is not ArithmeticOp.FLOORDIV else ""
            msg = f"{args.name}(): no {op.value} for {describe(args.nodes[0])} and {describe(args.nodes[1])}{hint}"
            raise ColumnTypeError(msg)

    def rule(args: Args) -> dt.DType:
        if date_days(op, args.dtype(0), args.dtype(1)):
            return dt.Date()
        result = arithmetic_result(op, args.dtype(0), args.dtype(1))
        assert result is not None
        return result

    return rule, check


def _try(name: str, op: ArithmeticOp, admits: Accepts, summary: str) -> Function:
    """``try_add`` and co.: the operator's type, NULL where the operator would fail (Spark: always nullable)."""
    rule, check = _arithmetic(op)
    return _entry(
        name,
        column("left", admits),
        column("right", admits),
        returns=rule,
        check=check,
        weak=(0, 1),
        nullable=always,
        special=op in (ArithmeticOp.ADD, ArithmeticOp.SUB),  # days on a date are an int (_spark.sql)
        summary=summary,
    )


def _numeric_base(args: Args) -> None:
    """PySpark's two-argument ``log`` takes the base as a number (a column there is its one-argument form)."""
    if len(args) == 2 and not args.is_literal(0):
        msg = f"{args.name}(): with two arguments the first is the base, a number; got {describe(args.nodes[0])}"
        raise ColumnTypeError(msg)


def _at_least_two(args: Args) -> None:
    if len(args) < 2:
        msg = f"{args.name}() needs at least two columns, got {len(args)}"
        raise ColumnTypeError(msg)


def _all_null(args: Args) -> bool:
    """NULL only when every argument is (``greatest``/``least`` skip NULLs)."""
    return all(t.nullable for t in args.types)


def _uniform(args: Args) -> dt.DType:
    """Integers for integer bounds, else ``double`` (Python ``int`` bounds are ``bigint``)."""
    both = (args.dtype(0), args.dtype(1))
    return dt.Int64() if all(isinstance(t, dt.Integral) for t in both) else dt.Float64()


def _radix(*, signed: bool) -> Callable[[int], str | None]:
    def check(base: int) -> str | None:
        if 2 <= (abs(base) if signed else base) <= 36:
            return None
        return "must be between 2 and 36" + (" (or -36 and -2)" if signed else "")

    return check


_ROUND_SCALE = value("scale", int, literal=dt.Int32(), default=ABSENT, sample=1)
_SEED = value("seed", int, default=ABSENT, sample=7)
_PMOD = _arithmetic(ArithmeticOp.MOD)

ENTRIES: tuple[Function, ...] = (
    # --- sign and magnitude ---
    _entry(
        "abs",
        column("col", NUMBER_OR_DURATION),
        returns=same(0),
        nullable=any_null,
        summary="The absolute value (an error for the smallest integer of its type).",
    ),
    _entry(
        "negate",
        column("col", NUMBER_OR_DURATION),
        returns=same(0),
        nullable=any_null,
        sql="negative",
        aliases=("negative",),
        summary="The value with its sign flipped.",
    ),
    _entry(
        "positive",
        column("col", NUMBER_OR_DURATION),
        returns=same(0),
        nullable=any_null,
        summary="The value itself.",
    ),
    _unary("signum", "-1.0, 0.0 or 1.0 by the sign of the number.", aliases=("sign",)),
    # --- rounding ---
    _entry(
        "round",
        column("col", accepts.NUMBER),
        _ROUND_SCALE,
        returns=_round,
        nullable=always,
        summary="Rounded to ``scale`` decimal places (default 0; negative: left of the point), halves up.",
    ),
    _entry(
        "bround",
        column("col", accepts.NUMBER),
        _ROUND_SCALE,
        returns=_round,
        nullable=always,
        summary="Rounded to ``scale`` decimal places (default 0), halves to the even neighbour.",
    ),
    _entry(
        "ceil",
        column("col", accepts.NUMBER),
        _ROUND_SCALE,
        returns=_ceil_floor,
        nullable=always,
        aliases=("ceiling",),
        summary="Rounded up (to ``scale`` decimal places, as a decimal, when given).",
    ),
    _entry(
        "floor",
        column("col", accepts.NUMBER),
        _ROUND_SCALE,
        returns=_ceil_floor,
        nullable=always,
        summary="Rounded down (to ``scale`` decimal places, as a decimal, when given).",
    ),
    _unary("rint", "The closest whole number, as a double (halves to even)."),
    # --- powers and logarithms ---
    _unary("sqrt", "The square root (NaN for a negative number)."),
    _unary("cbrt", "The cube root."),
    _unary("exp", "e raised to the number."),
    _unary("expm1", "e raised to the number, minus 1 (exact near 0)."),
    _entry(
        "log",
        column("arg1", accepts.DOUBLE),
        column("arg2", accepts.DOUBLE, default=ABSENT),
        check=_numeric_base,
        nullable=always,
        summary="The natural logarithm of ``arg1``; with ``arg2``, the logarithm of ``arg2`` to base ``arg1``.",
    ),
    _unary("ln", "The natural logarithm (NULL for a number <= 0)."),
    _unary("log10", "The base-10 logarithm (NULL for a number <= 0)."),
    _unary("log2", "The base-2 logarithm (NULL for a number <= 0)."),
    _unary("log1p", "The natural logarithm of the number plus 1 (NULL for a number <= -1)."),
    _binary("pow", "``col1`` raised to the power ``col2``.", aliases=("power",)),
    _binary("hypot", "``sqrt(col1² + col2²)`` without overflow in between."),
    _entry(
        "factorial",
        column("col", accepts.INTEGER),
        returns=fixed(dt.Int64()),
        nullable=always,
        summary="The factorial, for 0 to 20 (NULL outside).",
    ),
    # --- trigonometry ---
    _unary("sin", "The sine (radians)."),
    _unary("cos", "The cosine (radians)."),
    _unary("tan", "The tangent (radians)."),
    _unary("cot", "The cotangent (radians)."),
    _unary("sec", "The secant (radians)."),
    _unary("csc", "The cosecant (radians)."),
    _unary("asin", "The arc sine, in radians (NaN outside [-1, 1])."),
    _unary("acos", "The arc cosine, in radians (NaN outside [-1, 1])."),
    _unary("atan", "The arc tangent, in radians."),
    _binary("atan2", "The angle of the point (``col2``, ``col1``) in radians, in (-π, π]."),
    _unary("sinh", "The hyperbolic sine."),
    _unary("cosh", "The hyperbolic cosine."),
    _unary("tanh", "The hyperbolic tangent."),
    _unary("asinh", "The inverse hyperbolic sine."),
    _unary("acosh", "The inverse hyperbolic cosine (NaN below 1)."),
    _unary("atanh", "The inverse hyperbolic tangent (NaN outside [-1, 1])."),
    _unary("degrees", "The angle in radians, in degrees."),
    _unary("radians", "The angle in degrees, in radians."),
    _entry("e", nullable=never, summary="Euler's number e."),
    _entry("pi", nullable=never, summary="π."),
    # --- arithmetic that does not fail ---
    _entry(
        "pmod",
        column("dividend", accepts.NUMBER),
        column("divisor", accepts.NUMBER),
        returns=_PMOD[0],
        check=_PMOD[1],
        weak=(0, 1),
        nullable=always,
        summary="The remainder of ``dividend / divisor``, never negative for a positive divisor.",
    ),
    _try("try_add", ArithmeticOp.ADD, ARITHMETIC, "``left + right``, NULL on overflow."),
    _try("try_subtract", ArithmeticOp.SUB, ARITHMETIC, "``left - right``, NULL on overflow."),
    _try("try_multiply", ArithmeticOp.MUL, accepts.NUMBER, "``left * right``, NULL on overflow."),
    _try("try_divide", ArithmeticOp.DIV, accepts.NUMBER, "``left / right``, NULL for a zero divisor."),
    _try(
        "try_mod", ArithmeticOp.MOD, accepts.NUMBER, "The remainder of ``left / right`` (sign of ``left``), NULL for 0."
    ),
    # --- comparing ---
    _entry(
        "greatest",
        column("cols", accepts.ORDERABLE, variadic=True),
        returns=same(0),
        common=(0,),
        check=_at_least_two,
        nullable=_all_null,
        summary="The largest of the values, NULLs skipped (NULL only when all are).",
    ),
    _entry(
        "least",
        column("cols", accepts.ORDERABLE, variadic=True),
        returns=same(0),
        common=(0,),
        check=_at_least_two,
        nullable=_all_null,
        summary="The smallest of the values, NULLs skipped (NULL only when all are).",
    ),
    _entry(
        "width_bucket",
        column("v", accepts.DOUBLE),
        column("min", accepts.DOUBLE),
        column("max", accepts.DOUBLE),
        either("numBucket", accepts.INTEGER, int, names=True),
        returns=fixed(dt.Int64()),
        nullable=always,
        summary="The bucket ``v`` falls in among ``numBucket`` equal ones from ``min`` to ``max`` (0 and n+1 outside).",
    ),
    # --- NaN ---
    _entry(
        "isnan",
        column("col", FLOATING),
        returns=fixed(dt.Boolean()),
        nullable=never,
        summary="Whether the number is NaN (false for NULL).",
    ),
    _entry(
        "nanvl",
        column("col1", FLOATING),
        column("col2", FLOATING),
        returns=same(0),
        common=(0, 1),
        summary="``col1``, or ``col2`` where ``col1`` is NaN.",
    ),
    # --- bases ---
    _entry(
        "bin",
        column("col", accepts.INTEGER),
        returns=fixed(dt.String()),
        summary="The integer in binary digits (two's complement of the bigint for negatives).",
    ),
    _entry(
        "hex",
        column("col", HEXABLE),
        returns=fixed(dt.String()),
        summary="The integer, string (UTF-8) or bytes in hexadecimal digits, upper case.",
    ),
    _entry(
        "unhex",
        column("col", accepts.STRING),
        returns=fixed(dt.Binary()),
        nullable=always,
        summary="The bytes the hexadecimal digits spell (NULL for other characters).",
    ),
    _entry(
        "conv",
        column("col", accepts.STRING),
        value("fromBase", int, literal=dt.Int32(), check=_radix(signed=False), sample=16),
        value("toBase", int, literal=dt.Int32(), check=_radix(signed=True), sample=10),
        returns=fixed(dt.String()),
        nullable=always,
        summary="The number written in ``fromBase`` digits, written in ``toBase`` (negative: signed).",
    ),
    # --- random ---
    _entry(
        "rand",
        _SEED,
        nullable=never,
        deterministic=False,
        aliases=("random",),
        summary="A uniform random double in [0, 1) (reproducible with ``seed``).",
    ),
    _entry(
        "randn",
        _SEED,
        nullable=never,
        deterministic=False,
        summary="A standard normal random double (reproducible with ``seed``).",
    ),
    _entry(
        "uniform",
        value("min", int, float),
        value("max", int, float),
        _SEED,
        returns=_uniform,
        nullable=never,
        deterministic=False,
        summary="A uniform random number in [``min``, ``max``): a bigint for int bounds, else a double.",
    ),
)
