"""Kernels of the math functions: Java's doubles, Spark's rounding, integer and decimal rules.

- Functions of doubles compute as Spark does in Java's ``StrictMath`` (fdlibm,
  ported bit for bit in ``strictmath``): ``exp``, ``ln``, ``pow``, ``cbrt``,
  ``asin``, ``sinh``... and Spark's own formulas on top (``log2`` is
  ``ln(x) / ln(2)``, ``asinh`` Spark's ``ExpressionImplUtils.asinh``). ``sin``,
  ``cos``, ``tan`` (and ``cot``, ``sec``, ``csc``) have no kernel: Spark calls
  ``java.lang.Math``, which HotSpot computes with Intel's routines on x86-64.
- Spark rounds a double through its decimal text (``BigDecimal(Double.toString(x))``,
  Java 17's digits: ``doubletext``), so ``round(2.675, 2)`` is ``2.68`` where
  Python's ``round`` gives ``2.67``; a float is widened to a double first.
  Decimals round to the result type the analyzer gave
  (``typerules.rounded_decimal``), half up (``round``) or half to even
  (``bround``); ``ceil``/``floor`` with a scale cast the number to a decimal
  first, as Spark does.
- Under ANSI, an integer result that leaves its type fails
  (``ARITHMETIC_OVERFLOW``), as ``abs``/``negative`` of the smallest value do;
  ``pmod`` by zero fails (``REMAINDER_BY_ZERO``); the ``try_`` functions give NULL
  instead.

>>> spark_round(2.675, 2), spark_round(-0.5, 0), spark_round(25, -1)
(2.68, -1.0, 30)
>>> spark_round(2.0**60, -2) == 1152921504606847000.0  # Java 17 writes 2**60 as 1.15292150460684698E18
True
"""

from __future__ import annotations

import datetime
import decimal
import fractions
import math
import struct
from typing import TYPE_CHECKING, Any

from pydantable_spark import dtypes as dt
from pydantable_spark.substrait.kernels import strictmath
from pydantable_spark.substrait.kernels.doubletext import java_double_decimal
from pydantable_spark.substrait.kernels.numbers import (
    EXACT,
    divide_decimals,
    fit_decimal,
    fit_integer,
    java_divide,
    java_fmod,
    java_long,
    nearest_float32,
    wrap_integer,
)
from pydantable_spark.substrait.kernels.spec import (
    ARITHMETIC_OVERFLOW,
    CAST_OVERFLOW,
    DIVIDE_BY_ZERO,
    NOT_LITERAL,
    Scalar,
    SparkError,
    rows,
)
from pydantable_spark.typerules import ArithmeticOp, decimal_for_number

if TYPE_CHECKING:
    from collections.abc import Callable

    from pydantable_spark.expr.call import Call
    from pydantable_spark.substrait.kernels.spec import Site

__all__ = ["KERNELS", "REFUSED", "float32_text", "spark_round"]

REMAINDER_BY_ZERO = "REMAINDER_BY_ZERO"

# --- functions of doubles (Java's StrictMath, Spark's formulas) ---------------------------------------

_LN2 = strictmath.log(2.0)


def _asinh(x: float) -> float:
    """Spark's ``ExpressionImplUtils.asinh``: fdlibm's method, in StrictMath's ``log``/``log1p``."""
    a = abs(x)
    if math.isinf(a) or math.isnan(a) or a < 2.0**-28:
        r = a
    elif a > 2.0**28:
        r = strictmath.log(a) + _LN2
    elif a > 2.0:
        r = strictmath.log(2.0 * a + 1.0 / (math.sqrt(x * x + 1.0) + a))
    else:
        t = x * x
        r = strictmath.log1p(a + t / (1.0 + math.sqrt(1.0 + t)))
    return math.copysign(r, x)


def _acosh(x: float) -> float:
    """Spark's ``ExpressionImplUtils.acosh`` (NaN below 1)."""
    if x < 1.0:
        return math.nan
    if x >= 2.0**28:
        return strictmath.log(x) + _LN2
    if x == 1.0:
        return 0.0
    if x > 2.0:
        return strictmath.log(2.0 * x - 1.0 / (x + math.sqrt(x * x - 1.0)))
    t = x - 1.0
    return strictmath.log1p(t + strictmath.sqrt(2.0 * t + t * t))


def _atanh(x: float) -> float:
    return 0.5 * (strictmath.log1p(x) - strictmath.log1p(-x))


def _signum(x: float) -> float:
    """``Math.signum``: the argument itself for ±0 and NaN."""
    return x if x == 0.0 or math.isnan(x) else math.copysign(1.0, x)


def _rint(x: float) -> float:
    """``Math.rint``: the nearest whole double, halves to even, keeping the sign (``rint(-0.4)`` is -0.0)."""
    return x if not math.isfinite(x) else math.copysign(float(round(x)), x)


_DOUBLES: dict[str, Callable[[float], float]] = {
    "sqrt": strictmath.sqrt,
    "cbrt": strictmath.cbrt,
    "exp": strictmath.exp,
    "expm1": strictmath.expm1,
    "asin": strictmath.asin,
    "acos": strictmath.acos,
    "atan": strictmath.atan,
    "sinh": strictmath.sinh,
    "cosh": strictmath.cosh,
    "tanh": strictmath.tanh,
    "asinh": _asinh,
    "acosh": _acosh,
    "atanh": _atanh,
    "degrees": lambda x: x * 57.29577951308232,  # Math.toDegrees: times RADIANS_TO_DEGREES
    "radians": lambda x: x * 0.017453292519943295,  # Math.toRadians: times DEGREES_TO_RADIANS
    "signum": _signum,
    "rint": _rint,
}
"""Catalog entry → Spark's function of one double."""


def _above(asymptote: float, function: Callable[[float], float]) -> Callable[[float], float | None]:
    """Spark's logarithms: NULL at or below ``asymptote`` (Hive's rule), else ``function``."""
    return lambda x: None if x <= asymptote else function(x)


_LOGARITHMS: dict[str, Callable[[float], float | None]] = {
    "ln": _above(0.0, strictmath.log),
    "log10": _above(0.0, strictmath.log10),
    "log2": _above(0.0, lambda x: strictmath.log(x) / _LN2),
    "log1p": _above(-1.0, strictmath.log1p),
}


def _log(*args: float) -> float | None:
    """``log(x)`` or ``log(base, x)``: NULL for a base or an argument <= 0."""
    if len(args) == 1:
        return None if args[0] <= 0.0 else strictmath.log(args[0])
    base, x = args
    if base <= 0.0 or x <= 0.0:
        return None
    return java_divide(strictmath.log(x), strictmath.log(base))


# --- rounding -----------------------------------------------------------------------------------------

_CEILING_FLOOR = {"ceil": decimal.ROUND_CEILING, "floor": decimal.ROUND_FLOOR}


def float32_text(value: float) -> str:
    """The shortest decimal text that reads back as the float32 ``value`` (for the formatter: ``%s`` of a float).

    Spark's ``round`` of a float does not read it so: it widens the float to a double first.
    """
    for digits in range(1, 18):
        text = f"{value:.{digits}g}"
        if struct.unpack("f", struct.pack("f", float(text)))[0] == value:
            return text
    return repr(value)  # pragma: no cover - 9 digits always read back


def _set_scale(value: decimal.Decimal, scale: int, mode: str) -> decimal.Decimal:
    """``BigDecimal.setScale(scale, mode)``'s value (a scale past the value's own digits changes nothing)."""
    exponent = value.as_tuple().exponent
    assert isinstance(exponent, int)
    if -scale <= exponent:
        return value
    return value.quantize(decimal.Decimal(1).scaleb(-scale), rounding=mode, context=EXACT)


def _java_double(exact: decimal.Decimal, dtype: dt.DType) -> float:
    """``BigDecimal.doubleValue()`` (or ``floatValue()`` for a float): rounded once; Java has no -0 decimal."""
    return (nearest_float32(exact) if isinstance(dtype, dt.Float32) else float(exact)) + 0.0


def spark_round(value: Any, scale: int, mode: str = decimal.ROUND_HALF_UP, dtype: dt.DType | None = None) -> Any:
    """``value`` rounded to ``scale`` places as Spark rounds a value of type ``dtype`` (inferred when None).

    A double (a float widened to one) is read as Java 17 writes it; an integer keeps its type (an ANSI
    overflow error where the result leaves it); a decimal is rounded to ``scale`` places, no further.
    """
    if dtype is None:
        dtype = dt.Float64() if isinstance(value, float) else dt.Int64()
    if isinstance(dtype, dt.Floating):
        if not math.isfinite(value):
            return value
        rounded = _set_scale(java_double_decimal(value), max(scale, -400), mode)
        return _java_double(rounded, dtype)
    if isinstance(dtype, dt.Integral):
        if scale >= 0:
            return value
        return fit_integer(int(_set_scale(decimal.Decimal(value), max(scale, -40), mode)), dtype)
    assert isinstance(dtype, dt.Decimal)
    return _set_scale(value, max(scale, -40), mode)


def _round(mode: str) -> Callable[[Site], Callable[..., Any]]:
    def make(site: Site) -> Callable[..., Any]:
        given, result = site.args[0].dtype, site.result.dtype
        scale = site.literals[1] if len(site.literals) > 1 else 0

        def run(value: Any, *_: Any) -> Any:
            rounded = spark_round(value, scale, mode, given)
            return fit_decimal(rounded, result) if isinstance(result, dt.Decimal) else rounded

        return run

    return make


def _as_spark_decimal(value: Any, dtype: dt.DType) -> decimal.Decimal | None:
    """A number cast to the decimal Spark gives it for a function of decimals (``CAST``, ANSI).

    A double is read through its text (a float widened first); NaN and the infinities become NULL; digits
    the decimal type cannot hold fail (``NUMERIC_VALUE_OUT_OF_RANGE``).
    """
    target = decimal_for_number(dtype)  # type: ignore[arg-type]
    if isinstance(dtype, dt.Floating):
        if not math.isfinite(value):
            return None
        return fit_decimal(java_double_decimal(value), target)
    return fit_decimal(decimal.Decimal(value), target)


def _ceiling_floor(name: str) -> Callable[[Site], Callable[..., Any]]:
    """``ceil``/``floor``: a bigint (``Math.ceil``, then ``MathUtils.doubleToLong``) or a decimal.

    With a scale, the number cast to a decimal and rounded toward ±infinity.
    """
    mode = _CEILING_FLOOR[name]
    rounding = math.ceil if name == "ceil" else math.floor

    def make(site: Site) -> Callable[..., Any]:
        given, result = site.args[0].dtype, site.result.dtype
        if len(site.args) > 1:
            scale = site.literals[1]
            assert isinstance(result, dt.Decimal)

            def scaled(value: Any, *_: Any) -> decimal.Decimal | None:
                number = _as_spark_decimal(value, given)
                if number is None:
                    return None
                return fit_decimal(_set_scale(number, max(scale, -40), mode), result)

            return scaled
        if isinstance(given, dt.Decimal):
            return lambda value: _set_scale(value, 0, mode)
        if isinstance(given, dt.Integral):
            return lambda value: value

        def whole(value: float) -> int:
            if math.isnan(value):
                return 0
            if not -(2.0**63) <= value < 2.0**63:
                raise SparkError(ARITHMETIC_OVERFLOW, "long overflow")
            return int(rounding(value))

        return whole

    return make


def _factorial(n: int) -> int | None:
    """The factorial for 0 to 20, else NULL; a bigint argument is cast to int first (ANSI: an error past it)."""
    if not -(2**31) <= n < 2**31:
        msg = f'The value {n}L of the type "BIGINT" cannot be cast to "INT" due to an overflow'
        raise SparkError(CAST_OVERFLOW, msg)
    return math.factorial(n) if 0 <= n <= 20 else None


# --- sign, absolute value -----------------------------------------------------------------------------


def _sign(name: str) -> Callable[[Site], Callable[[Any], Any]]:
    """``abs``, ``negative``, ``positive``: the type kept; the smallest integer of a type overflows (ANSI)."""

    def make(site: Site) -> Callable[[Any], Any]:
        dtype = site.args[0].dtype
        if name == "positive":
            return lambda value: value
        if isinstance(dtype, dt.Decimal):  # exactly, past the 28 digits of Python's default context
            return (lambda value: value.copy_abs()) if name == "abs" else (lambda value: value.copy_negate())
        compute: Callable[[Any], Any] = abs if name == "abs" else (lambda value: -value)
        if isinstance(dtype, dt.Integral):
            return lambda value: fit_integer(compute(value), dtype)
        return compute

    return make


def _no_durations(call: Call) -> str | None:
    if any(isinstance(arg.type.dtype, dt.Duration) for arg in call.args):
        return f"the local engine does not hold durations ({call.function.name}() of one)"
    return None


# --- arithmetic that does not fail, and pmod ----------------------------------------------------------

_WIDTH = {dt.Int8: 32, dt.Int16: 32, dt.Int32: 32, dt.Int64: 64}
"""The width Java computes an integer type's arithmetic in (bytes and shorts as ints)."""


def _as_type(value: Any, dtype: dt.DType) -> Any:
    """An operand converted to the type Spark computes in (``CAST``: exact, or rounded once)."""
    if isinstance(dtype, dt.Float32):
        return value if isinstance(value, float) else nearest_float32(value)  # a float32 value, or an integer
    if isinstance(dtype, dt.Floating):
        return float(value)
    if isinstance(dtype, dt.Decimal):
        return value if isinstance(value, decimal.Decimal) else decimal.Decimal(value)
    return value


def _truncated_remainder(a: int, b: int) -> int:
    """Java's ``a % b`` of integers: the sign of the dividend (``MIN % -1`` is 0)."""
    magnitude = abs(a) % abs(b)
    return -magnitude if a < 0 else magnitude


def _remainder(a: Any, b: Any, dtype: dt.DType) -> Any:
    """Spark's ``a % b`` in ``dtype`` for a nonzero ``b``."""
    if isinstance(dtype, dt.Integral):
        return _truncated_remainder(a, b)
    if isinstance(dtype, dt.Decimal):
        return fit_decimal(EXACT.remainder(a, b), dtype)
    return java_fmod(a, b)


def _float32_arithmetic(op: ArithmeticOp, a: float, b: float) -> float:
    """``a op b`` (``+ - *``) of float32 values as Java computes it: exactly, then rounded once to a float32.

    Where the exact result is zero, or an operand is not finite, the double operation gives Java's answer
    (the sign of a zero, NaN, infinity).
    """
    double = a * b if op is ArithmeticOp.MUL else a - b if op is ArithmeticOp.SUB else a + b
    if not (math.isfinite(a) and math.isfinite(b)):
        return double
    x, y = fractions.Fraction(a), fractions.Fraction(b)
    exact = x * y if op is ArithmeticOp.MUL else x - y if op is ArithmeticOp.SUB else x + y
    return double if exact == 0 else nearest_float32(exact)


def _add(a: Any, b: Any, dtype: dt.DType) -> Any:
    """``a + b`` in ``dtype``, as Java computes it: a float32 sum rounded once, Java's int/long wrapping."""
    if isinstance(dtype, dt.Float32):
        return _float32_arithmetic(ArithmeticOp.ADD, a, b)
    if isinstance(dtype, dt.Decimal):
        return EXACT.add(a, b)
    if isinstance(dtype, dt.Integral):
        return wrap_integer(a + b, _WIDTH[type(dtype)])
    return a + b


def _pmod(site: Site) -> Callable[[Any, Any], Any]:
    """Spark's ``pmod``: ``r = a % n; if r < 0 then (r + n) % n`` in the result type, Java's overflows kept."""
    dtype = site.result.dtype

    def run(a: Any, n: Any) -> Any:
        a, n = _as_type(a, dtype), _as_type(n, dtype)
        if n == 0:
            msg = "Remainder by zero. Use `try_mod` to tolerate divisor being 0 and return NULL instead"
            raise SparkError(REMAINDER_BY_ZERO, msg)
        r = _remainder(a, n, dtype)
        if r < 0:
            r = _remainder(_add(r, n, dtype), n, dtype)
        return r

    return run


def _exactly(op: ArithmeticOp, a: Any, b: Any, dtype: dt.DType) -> Any:
    """``a op b`` as Spark computes it in the result type ``dtype`` (ANSI: a ``SparkError`` where it fails)."""
    if op is ArithmeticOp.DIV:
        if isinstance(dtype, dt.Decimal):
            return divide_decimals(a, b, dtype)
        if b == 0:
            raise SparkError(DIVIDE_BY_ZERO, "Division by zero")
        return a / b
    if op is ArithmeticOp.MOD:
        if b == 0:
            raise SparkError(DIVIDE_BY_ZERO, "Division by zero")
        return _remainder(a, b, dtype)
    if isinstance(dtype, dt.Float32):
        return _float32_arithmetic(op, a, b)
    if isinstance(dtype, dt.Decimal):
        compute = {ArithmeticOp.ADD: EXACT.add, ArithmeticOp.SUB: EXACT.subtract, ArithmeticOp.MUL: EXACT.multiply}
        return fit_decimal(compute[op](a, b), dtype)
    value = a * b if op is ArithmeticOp.MUL else a - b if op is ArithmeticOp.SUB else a + b
    return fit_integer(value, dtype) if isinstance(dtype, dt.Integral) else value


_EPOCH = datetime.date(1970, 1, 1)


def _days(value: datetime.date) -> int:
    return (value - _EPOCH).days


def _try(op: ArithmeticOp) -> Callable[[Site], Callable[[Any, Any], Any]]:
    """``try_add`` and co.: the operator's result, NULL where Spark's operator fails (overflow, zero divisor).

    A date plus or minus days is Spark's ``date_add``/``date_sub``, whose ``int`` of days wraps as Java's does
    (the result is given as days since the epoch, which Arrow holds past year 9999).
    """

    def make(site: Site) -> Callable[[Any, Any], Any]:
        dtype = site.result.dtype
        if isinstance(dtype, dt.Date):
            date_first = isinstance(site.args[0].dtype, dt.Date)
            sign = -1 if op is ArithmeticOp.SUB else 1

            def shifted(a: Any, b: Any) -> int:
                day, count = (a, b) if date_first else (b, a)
                return wrap_integer(_days(day) + sign * count, 32)

            return shifted

        def run(a: Any, b: Any) -> Any:
            try:
                return _exactly(op, _as_type(a, dtype), _as_type(b, dtype), dtype)
            except SparkError:
                return None

        return run

    return make


def _only_numbers_and_days(call: Call) -> str | None:
    """The ``try_`` functions of numbers, and of a date and days; timestamps and durations are refused."""
    for arg in call.args:
        if isinstance(arg.type.dtype, dt.Datetime | dt.DatetimeNTZ | dt.Duration):
            return f"the local engine does not compute {call.function.name}() of timestamps or durations yet"
    return None


# --- comparing ----------------------------------------------------------------------------------------


def _order_key(dtype: dt.DType) -> Callable[[Any], Any]:
    """How Spark orders values of an atomic type: NaN above every double, -0.0 equal to 0.0."""
    if isinstance(dtype, dt.Floating):
        return lambda value: (1, 0.0) if math.isnan(value) else (0, value)
    return lambda value: value


def _extreme(largest: bool) -> Callable[[Site], Callable[..., Any]]:
    """``greatest``/``least``: NULLs skipped; of equal values the first (Spark keeps one unless another beats it)."""

    def make(site: Site) -> Callable[..., Any]:
        key = _order_key(site.args[0].dtype)

        def run(*values: Any) -> Any:
            best = None
            for value in values:
                if value is None:
                    continue
                if best is None or (key(value) > key(best) if largest else key(value) < key(best)):
                    best = value
            return best

        return run

    return make


def _atomic_only(call: Call) -> str | None:
    if any(isinstance(arg.type.dtype, dt.List | dt.Struct | dt.Map) for arg in call.args):
        return f"the local engine compares atomic values only in {call.function.name}(), not lists or structs"
    return None


def _width_bucket(value: float, low: float, high: float, buckets: int) -> int | None:
    """Spark's ``WidthBucket.computeBucketNumber``: NULL for a bad range or count; 0 and n + 1 outside."""
    if (
        buckets <= 0
        or buckets == 2**63 - 1
        or math.isnan(value)
        or low == high
        or not math.isfinite(low)
        or not math.isfinite(high)
    ):
        return None
    lower, upper = min(low, high), max(low, high)
    if low < high:
        if value < lower:
            return 0
        if value >= upper:
            return buckets + 1
        return wrap_integer(java_long(float(buckets) * (value - lower) / (upper - lower)) + 1, 64)
    if value > upper:
        return 0
    if value <= lower:
        return buckets + 1
    return wrap_integer(java_long(float(buckets) * (upper - value) / (upper - lower)) + 1, 64)


# --- NaN ----------------------------------------------------------------------------------------------


def _nanvl(first: float | None, second: float | None) -> float | None:
    """``first``, or ``second`` where ``first`` is NaN (NULL where ``first`` is; ``second`` is read only then)."""
    if first is None or not math.isnan(first):
        return first
    return second


# --- bases --------------------------------------------------------------------------------------------

_UNSIGNED = (1 << 64) - 1


def _hex(site: Site) -> Callable[[Any], str]:
    """``hex``, upper case: an integer's 64-bit two's complement; text (its UTF-8) or bytes byte by byte."""
    dtype = site.args[0].dtype
    if isinstance(dtype, dt.Integral):
        return lambda value: format(value & _UNSIGNED, "X")
    if isinstance(dtype, dt.String):
        return lambda value: value.encode("utf-8").hex().upper()
    return lambda value: bytes(value).hex().upper()


_HEX_DIGITS = {c: int(c, 16) for c in "0123456789abcdefABCDEF"}


def _unhex(text: str) -> bytes | None:
    """Spark's ``Hex.unhex``: two digits a byte (an odd first digit alone), NULL for any other character."""
    digits = [_HEX_DIGITS.get(c) for c in text]
    if None in digits:
        return None
    values: list[int] = digits  # type: ignore[assignment]
    if len(values) % 2:
        values = [0, *values]
    return bytes(16 * values[i] + values[i + 1] for i in range(0, len(values), 2))


def _digit(byte: int, base: int) -> int:
    """``Character.digit`` of one UTF-8 byte (``-1`` for anything but an ASCII digit or letter of ``base``)."""
    char = chr(byte)
    if char.isascii() and char.isalnum():
        value = int(char, 36)
        return value if value < base else -1
    return -1


def _conv(text: str, from_base: int, to_base: int) -> str | None:
    """Spark's ``NumberConverter.convert`` (``conv``), through an unsigned 64-bit integer; ANSI: overflow fails.

    The text (trimmed of spaces) is read up to its first character that is not a digit of ``from_base``; a
    leading ``-`` negates it (two's complement for a positive ``to_base``, a sign for a negative one).
    """
    raw = text.strip(" ").encode("utf-8")
    if not raw:
        return None
    negative = raw[:1] == b"-"
    value = 0
    for byte in raw[1 if negative else 0 :]:
        digit = _digit(byte, from_base)
        if digit < 0:
            break
        value = value * from_base + digit
        if value > _UNSIGNED:
            raise SparkError(ARITHMETIC_OVERFLOW, "Overflow in function conv()")
    signed = wrap_integer(value, 64)
    if negative and to_base > 0:
        signed = -1 if signed < 0 else -signed
    if to_base < 0 and signed < 0:
        signed = wrap_integer(-signed, 64)
        negative = True
    magnitude = signed & _UNSIGNED
    base = abs(to_base)
    out = ""
    while magnitude:
        magnitude, digit = divmod(magnitude, base)
        out = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[digit] + out
    out = out or "0"
    return f"-{out}" if negative and to_base < 0 else out


def _conv_kernel(site: Site) -> Callable[..., str | None]:
    from_base, to_base = site.literals[1], site.literals[2]
    assert from_base is not NOT_LITERAL
    assert to_base is not NOT_LITERAL
    return lambda text, *_: _conv(text, from_base, to_base)


KERNELS = (
    *(Scalar(name, rows(function)) for name, function in _DOUBLES.items()),
    *(Scalar(name, rows(function)) for name, function in _LOGARITHMS.items()),
    Scalar("log", rows(_log)),
    Scalar("pow", rows(strictmath.pow)),
    Scalar("hypot", rows(strictmath.hypot)),
    Scalar("atan2", rows(lambda y, x: strictmath.atan2(y + 0.0, x + 0.0))),
    Scalar("e", rows(lambda: math.e)),
    Scalar("pi", rows(lambda: math.pi)),
    Scalar("round", _round(decimal.ROUND_HALF_UP)),
    Scalar("bround", _round(decimal.ROUND_HALF_EVEN)),
    Scalar("ceil", _ceiling_floor("ceil")),
    Scalar("floor", _ceiling_floor("floor")),
    Scalar("factorial", rows(_factorial)),
    *(Scalar(name, _sign(name), refuse=_no_durations) for name in ("abs", "negate", "positive")),
    Scalar("pmod", _pmod),
    Scalar("try_add", _try(ArithmeticOp.ADD), refuse=_only_numbers_and_days),
    Scalar("try_subtract", _try(ArithmeticOp.SUB), refuse=_only_numbers_and_days),
    Scalar("try_multiply", _try(ArithmeticOp.MUL)),
    Scalar("try_divide", _try(ArithmeticOp.DIV)),
    Scalar("try_mod", _try(ArithmeticOp.MOD)),
    Scalar("greatest", _extreme(largest=True), strict=False, refuse=_atomic_only),
    Scalar("least", _extreme(largest=False), strict=False, refuse=_atomic_only),
    Scalar("width_bucket", rows(_width_bucket)),
    Scalar("isnan", rows(lambda x: x is not None and math.isnan(x)), strict=False),
    Scalar("nanvl", rows(_nanvl), strict=False),
    Scalar("bin", rows(lambda value: format(value & _UNSIGNED, "b"))),
    Scalar("hex", _hex),
    Scalar("unhex", rows(_unhex)),
    Scalar("conv", _conv_kernel),
)
"""The math functions the local engine computes as Spark does."""

_INTRINSIC = (
    "Spark calls java.lang.Math.{0}, which HotSpot computes with its own x86-64 routines; their last bit differs "
    "from the C library's for 0.2 to 0.5% of arguments and from fdlibm's for about 3% (measured on Java 17)"
)
REFUSED = {
    name: _INTRINSIC.format(method)
    for name, method in (("sin", "sin"), ("cos", "cos"), ("tan", "tan"), ("cot", "tan"), ("sec", "cos"), ("csc", "sin"))
}
"""The trigonometric functions: Spark's doubles come from HotSpot's intrinsics, which Python cannot reproduce."""
