"""Spark's number rules the kernels share: decimal rounding (HALF_UP) and overflow, Java's float arithmetic.

Spark computes decimals exactly (Java's ``BigDecimal``) and then fits the
result to the type the analyzer gave it: rounded half up to its scale, and,
under ANSI, an error when the digits left of the point do not fit. Integer
results that leave their type fail the same way.

>>> from decimal import Decimal
>>> from pydantable_spark import dtypes as dt
>>> fit_decimal(Decimal("2.675"), dt.Decimal(5, 2))
Decimal('2.68')
>>> fit_decimal(Decimal("-0.125"), dt.Decimal(5, 2))
Decimal('-0.13')
"""

from __future__ import annotations

import decimal
import fractions
import math
import struct
from typing import TYPE_CHECKING

from pydantable_spark import dtypes as dt
from pydantable_spark.substrait.kernels.doubletext import java_double_text
from pydantable_spark.substrait.kernels.spec import (
    ARITHMETIC_OVERFLOW,
    DIVIDE_BY_ZERO,
    NUMERIC_VALUE_OUT_OF_RANGE,
    SparkError,
)

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = [
    "EXACT",
    "divide_decimals",
    "fit_decimal",
    "fit_integer",
    "java_divide",
    "java_double_text",
    "java_fmod",
    "java_long",
    "nearest_float32",
    "wrap_integer",
]

EXACT = decimal.Context(prec=400, rounding=decimal.ROUND_HALF_UP, Emax=999_999, Emin=-999_999)
"""A context in which every sum, difference and product of two decimals of 38 digits is exact."""

_BOUNDS: dict[type[dt.DType], int] = {dt.Int8: 7, dt.Int16: 15, dt.Int32: 31, dt.Int64: 63}


def fit_decimal(value: decimal.Decimal, dtype: dt.Decimal) -> decimal.Decimal:
    """``value`` rounded half up to ``dtype``'s scale; Spark's ANSI error where it has too many digits."""
    step = decimal.Decimal(1).scaleb(-dtype.scale)
    rounded = value.quantize(step, rounding=decimal.ROUND_HALF_UP, context=EXACT)
    if rounded.adjusted() >= dtype.precision - dtype.scale and rounded != 0:
        msg = (
            f"{value} cannot be represented as Decimal({dtype.precision}, {dtype.scale}). If necessary set "
            '"spark.sql.ansi.enabled" to "false" to bypass this error'
        )
        raise SparkError(NUMERIC_VALUE_OUT_OF_RANGE, msg)
    return rounded


def fit_integer(value: int, dtype: dt.DType) -> int:
    """``value`` if it fits the integer type ``dtype``; Spark's ANSI overflow error otherwise."""
    bits = _BOUNDS[type(dtype)]
    if -(1 << bits) <= value < (1 << bits):
        return value
    msg = f"{value} overflows {dtype.sql_name}"
    raise SparkError(ARITHMETIC_OVERFLOW, msg)


def divide_decimals(left: decimal.Decimal, right: decimal.Decimal, dtype: dt.Decimal) -> decimal.Decimal:
    """``left / right`` as Spark divides decimals: to 38 places half up, then to ``dtype`` half up.

    (Spark's ``Decimal./`` is ``BigDecimal.divide(that, 38, HALF_UP)``; the result is then fitted to the
    analyzer's type.) Integer arithmetic keeps both roundings exact.
    """
    if right == 0:
        msg = "Division by zero. Use `try_divide` to tolerate divisor being 0 and return NULL instead"
        raise SparkError(DIVIDE_BY_ZERO, msg)
    quotient = _divide_to_scale(left, right, 38)
    return fit_decimal(quotient, dtype)


def _divide_to_scale(left: decimal.Decimal, right: decimal.Decimal, scale: int) -> decimal.Decimal:
    """``left / right`` rounded half up to ``scale`` places, exactly."""
    a_sign, a_digits, a_exp = left.as_tuple()
    b_sign, b_digits, b_exp = right.as_tuple()
    a = int("".join(map(str, a_digits)) or "0")
    b = int("".join(map(str, b_digits)) or "0")
    assert isinstance(a_exp, int)
    assert isinstance(b_exp, int)
    # left / right = (a / b) * 10^(a_exp - b_exp); times 10^scale:
    shift = a_exp - b_exp + scale
    numerator, denominator = (a * 10**shift, b) if shift >= 0 else (a, b * 10**-shift)
    quotient, remainder = divmod(numerator, denominator)
    if 2 * remainder >= denominator:
        quotient += 1
    negative = a_sign != b_sign and quotient != 0
    return decimal.Decimal((1 if negative else 0, tuple(int(c) for c in str(quotient)), -scale))


def wrap_integer(value: int, bits: int) -> int:
    """``value`` as Java's ``int`` (``bits`` 32) or ``long`` (64) holds it: its low bits, two's complement.

    >>> wrap_integer(2**31, 32), wrap_integer(-1, 64)
    (-2147483648, -1)
    """
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def java_long(value: float) -> int:
    """Java's ``(long) value``: toward zero, NaN to 0, saturating at the ends of ``long``.

    >>> java_long(-2.5), java_long(float("nan")), java_long(1e300)
    (-2, 0, 9223372036854775807)
    """
    if math.isnan(value):
        return 0
    if value >= 2.0**63:
        return (1 << 63) - 1
    if value <= -(2.0**63):
        return -(1 << 63)
    return int(value)


def java_divide(a: float, b: float) -> float:
    """``a / b`` in Java's doubles: ±infinity or NaN for a zero divisor (where Python raises).

    >>> java_divide(1.0, -0.0), java_divide(0.0, 0.0)
    (-inf, nan)
    """
    if b == 0.0:
        if a == 0.0 or math.isnan(a):
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


def java_fmod(a: float, b: float) -> float:
    """Java's ``a % b`` of doubles (or floats: exact either way): NaN for an infinite ``a`` or a zero ``b``."""
    if math.isnan(a) or math.isnan(b) or math.isinf(a) or b == 0.0:
        return math.nan
    return math.fmod(a, b)


_FLOAT32 = struct.Struct("<f")
_FLOAT32_MAX = float.fromhex("0x1.fffffep127")
_FLOAT32_OVERFLOW = fractions.Fraction(_FLOAT32_MAX) + 2**103
"""Half a unit past the largest float32: from here on, a number rounds to infinity."""


def _float32_step(value: float, up: bool) -> float:
    """The float32 next to the float32 ``value``, toward +infinity (``up``) or -infinity."""
    bits = int.from_bytes(_FLOAT32.pack(value), "little")
    if value == 0.0:
        bits = 1 if up else 0x8000_0001
    elif (value > 0.0) == up:
        bits += 1
    else:
        bits -= 1
    return float(_FLOAT32.unpack(bits.to_bytes(4, "little"))[0])


def nearest_float32(exact: decimal.Decimal | fractions.Fraction | int | float) -> float:
    """The float32 nearest to an exact number (ties to an even significand), as Java rounds to ``float``.

    NaN, the infinities and a float zero (its sign kept) are themselves.

    Rounding to a double first and then to a float32 can round twice; this rounds once.

    >>> nearest_float32(fractions.Fraction(1, 3)) == 0.3333333432674408
    True
    """
    if isinstance(exact, float) and (exact == 0.0 or not math.isfinite(exact)):
        return exact
    target = fractions.Fraction(exact)
    if abs(target) >= _FLOAT32_OVERFLOW:
        return math.copysign(math.inf, target)
    if abs(target) > _FLOAT32_MAX:
        return math.copysign(_FLOAT32_MAX, target)
    guess = float(_FLOAT32.unpack(_FLOAT32.pack(float(target)))[0])
    best, best_error = guess, abs(fractions.Fraction(guess) - target)
    for up in (False, True):
        neighbour = _float32_step(guess, up)
        if math.isinf(neighbour) or math.isnan(neighbour):
            continue
        error = abs(fractions.Fraction(neighbour) - target)
        even = int.from_bytes(_FLOAT32.pack(neighbour), "little") % 2 == 0
        if error < best_error or (error == best_error and even):
            best, best_error = neighbour, error
    return best


def checked(function: Callable[..., float]) -> Callable[..., float]:
    """``function`` with Python's float errors turned into Java's values (NaN for a domain error, ±inf)."""

    def run(*values: float) -> float:
        try:
            return function(*values)
        except ValueError:
            return math.nan
        except OverflowError:
            return math.inf

    return run
