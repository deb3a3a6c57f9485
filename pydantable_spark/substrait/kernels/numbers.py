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
import math
from typing import TYPE_CHECKING

from pydantable_spark import dtypes as dt
from pydantable_spark.substrait.kernels.spec import (
    ARITHMETIC_OVERFLOW,
    DIVIDE_BY_ZERO,
    NUMERIC_VALUE_OUT_OF_RANGE,
    SparkError,
)

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["EXACT", "divide_decimals", "fit_decimal", "fit_integer", "java_double_text", "java_pow"]

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


def java_double_text(value: float) -> str:
    """The digits Java's ``Double.toString`` gives ``value`` (the shortest that reads back, as Python's ``repr``)."""
    return repr(value)


def java_pow(base: float, exponent: float) -> float:
    """``Math.pow`` as Java computes it (Python's ``math.pow`` raises where Java gives NaN or infinity).

    Java differs from C's ``pow`` in one case too: ``pow(1.0, NaN)`` is NaN.
    """
    if math.isnan(exponent):
        return math.nan if exponent != 0 else 1.0
    try:
        return math.pow(base, exponent)
    except ValueError:  # a negative base to a non-integer power
        return math.nan
    except OverflowError:
        negative = base < 0 and float(exponent).is_integer() and int(exponent) % 2 == 1
        return -math.inf if negative else math.inf


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
