"""The operators DataFusion computes otherwise than Spark: ``/``, ``%``, ``//`` and decimal results Spark rounds.

- ``/`` fails on a zero divisor under ANSI, for doubles too (DataFusion gives
  infinity); integers divide as doubles; decimals divide to 38 places half up,
  then to the result type half up (``numbers.divide_decimals``).
- ``%`` and ``//`` are Python's (the façade lowers them so: the sign of the
  divisor, the floor), over Spark's ``%`` and ``div`` (which fail on zero).
- ``+ - *`` of decimals whose exact result has more than 38 digits: Spark fits
  it to its type half up, failing where the integer digits do not fit.

>>> from decimal import Decimal
>>> remainder(-7, 3)
2
>>> floor_divide(-7, 2)
-4
"""

from __future__ import annotations

import decimal
import math
from typing import TYPE_CHECKING, Any

from pydantable_spark import dtypes as dt
from pydantable_spark.substrait.kernels.numbers import EXACT, divide_decimals, fit_decimal, fit_integer
from pydantable_spark.substrait.kernels.spec import DIVIDE_BY_ZERO, Scalar, SparkError
from pydantable_spark.typerules import ArithmeticOp

if TYPE_CHECKING:
    from collections.abc import Callable

    from pydantable_spark.substrait.kernels.spec import Site

__all__ = ["OPERATORS", "floor_divide", "remainder"]

_ZERO = "Division by zero. Use `try_divide` to tolerate divisor being 0 and return NULL instead"


def _number(value: Any, dtype: dt.DType) -> Any:
    """An operand as the type Spark computes in: a double, or an exact decimal."""
    if isinstance(dtype, dt.Floating):
        return float(value)
    if isinstance(dtype, dt.Decimal):
        return value if isinstance(value, decimal.Decimal) else decimal.Decimal(value)
    return float(value)


def _divide(site: Site) -> Callable[[Any, Any], Any]:
    result = site.result.dtype
    if isinstance(result, dt.Decimal):
        return lambda a, b: divide_decimals(decimal.Decimal(a), decimal.Decimal(b), result)

    def run(a: Any, b: Any) -> float:
        x, y = float(a), float(b)
        if y == 0:
            raise SparkError(DIVIDE_BY_ZERO, _ZERO)
        return x / y

    return run


def _spark_remainder(a: Any, b: Any, dtype: dt.DType) -> Any:
    """Spark's ``a % b`` in ``dtype``: the sign of the dividend; an error on a zero divisor (ANSI)."""
    if b == 0:
        raise SparkError(DIVIDE_BY_ZERO, _ZERO)
    if isinstance(dtype, dt.Integral):
        magnitude = abs(a) % abs(b)
        return -magnitude if a < 0 else magnitude
    if isinstance(dtype, dt.Decimal):
        return fit_decimal(EXACT.remainder(decimal.Decimal(a), decimal.Decimal(b)), dtype)
    x, y = float(a), float(b)
    if math.isnan(x) or math.isnan(y) or math.isinf(x):
        return math.nan
    return math.fmod(x, y)


def remainder(a: Any, b: Any, dtype: dt.DType | None = None) -> Any:
    """Python's ``a % b`` over Spark's: where Spark's remainder has the dividend's sign, the divisor is added."""
    dtype = dtype or dt.Int64()
    rem = _spark_remainder(a, b, dtype)
    if rem != 0 and (rem < 0) != (b < 0):
        if isinstance(dtype, dt.Decimal):
            return fit_decimal(EXACT.add(rem, decimal.Decimal(b)), dtype)
        if isinstance(dtype, dt.Integral):
            return fit_integer(rem + b, dtype)
        return rem + float(b)
    return rem


def floor_divide(a: int, b: int) -> int:
    """Python's ``a // b`` over Spark's ``div`` (bigint): the truncated quotient, less one where inexact, negative."""
    if b == 0:
        raise SparkError(DIVIDE_BY_ZERO, _ZERO)
    quotient = abs(a) // abs(b)
    quotient = -quotient if (a < 0) != (b < 0) else quotient
    quotient = fit_integer(quotient, dt.Int64())
    rem = _spark_remainder(a, b, dt.Int64())
    return quotient - 1 if rem != 0 and (rem < 0) != (b < 0) else quotient


def _remainder(site: Site) -> Callable[[Any, Any], Any]:
    return lambda a, b: remainder(a, b, site.result.dtype)


def _exact(op: ArithmeticOp) -> Callable[[Site], Callable[[Any, Any], Any]]:
    """Decimal ``+ - *``: exact, then fitted to Spark's result type (half up, an error past its digits)."""
    compute = {ArithmeticOp.ADD: EXACT.add, ArithmeticOp.SUB: EXACT.subtract, ArithmeticOp.MUL: EXACT.multiply}[op]

    def make(site: Site) -> Callable[[Any, Any], Any]:
        result = site.result.dtype
        assert isinstance(result, dt.Decimal)
        return lambda a, b: fit_decimal(compute(decimal.Decimal(a), decimal.Decimal(b)), result)

    return make


OPERATORS: dict[ArithmeticOp, Scalar] = {
    ArithmeticOp.DIV: Scalar("divide", _divide),
    ArithmeticOp.MOD: Scalar("remainder", _remainder),
    ArithmeticOp.FLOORDIV: Scalar("floor_divide", lambda site: floor_divide),
    ArithmeticOp.ADD: Scalar("decimal_add", _exact(ArithmeticOp.ADD)),
    ArithmeticOp.SUB: Scalar("decimal_subtract", _exact(ArithmeticOp.SUB)),
    ArithmeticOp.MUL: Scalar("decimal_multiply", _exact(ArithmeticOp.MUL)),
}
"""The operators the local engine computes with a kernel (``+ - *`` only for decimals Spark rounds)."""
