"""Kernels of the math functions: rounding as Spark rounds, and Java's double functions.

Spark rounds a double through its decimal text (``BigDecimal(Double.toString(x))``),
so ``round(2.675, 2)`` is ``2.68`` where Python's ``round`` gives ``2.67``; NaN
and the infinities stay as they are. Decimals round to the result type the
analyzer gave (``typerules.rounded_decimal``), half up (``round``) or half to
even (``bround``).

>>> spark_round(2.675, 2), spark_round(-0.5, 0), spark_round(25, -1)
(2.68, -1.0, 30)
"""

from __future__ import annotations

import decimal
import math
import struct
from typing import TYPE_CHECKING, Any

from pydantable_spark import dtypes as dt
from pydantable_spark.substrait.kernels.numbers import EXACT, fit_decimal, fit_integer
from pydantable_spark.substrait.kernels.spec import Scalar

if TYPE_CHECKING:
    from collections.abc import Callable

    from pydantable_spark.substrait.kernels.spec import Site

__all__ = ["KERNELS", "float32_text", "spark_round"]


def float32_text(value: float) -> str:
    """The shortest decimal text that reads back as the float32 ``value`` (Java's ``Float.toString`` digits)."""
    for digits in range(1, 18):
        text = f"{value:.{digits}g}"
        if struct.unpack("f", struct.pack("f", float(text)))[0] == value:
            return text
    return repr(value)  # pragma: no cover - 9 digits always read back


def _rounded(value: decimal.Decimal, scale: int, mode: str) -> decimal.Decimal:
    return value.quantize(decimal.Decimal(1).scaleb(-scale), rounding=mode, context=EXACT)


def spark_round(value: Any, scale: int, mode: str = decimal.ROUND_HALF_UP, dtype: dt.DType | None = None) -> Any:
    """``value`` rounded to ``scale`` places as Spark rounds a value of type ``dtype`` (inferred when None)."""
    if dtype is None:
        dtype = dt.Float64() if isinstance(value, float) else dt.Int64()
    if isinstance(dtype, dt.Floating):
        if math.isnan(value) or math.isinf(value):
            return value
        text = float32_text(value) if isinstance(dtype, dt.Float32) else repr(value)
        return float(_rounded(decimal.Decimal(text), scale, mode))
    if isinstance(dtype, dt.Integral):
        if scale >= 0:
            return value
        return fit_integer(int(_rounded(decimal.Decimal(value), scale, mode)), dtype)
    assert isinstance(dtype, dt.Decimal)
    return _rounded(value, scale, mode)


def _round(mode: str) -> Callable[[Site], Callable[..., Any]]:
    def make(site: Site) -> Callable[..., Any]:
        given, result = site.args[0].dtype, site.result.dtype
        scale = site.literals[1] if len(site.literals) > 1 else 0

        def run(value: Any, *_: Any) -> Any:
            rounded = spark_round(value, scale, mode, given)
            return fit_decimal(rounded, result) if isinstance(result, dt.Decimal) else rounded

        return run

    return make


KERNELS = (
    Scalar("round", _round(decimal.ROUND_HALF_UP)),
    Scalar("bround", _round(decimal.ROUND_HALF_EVEN)),
)
