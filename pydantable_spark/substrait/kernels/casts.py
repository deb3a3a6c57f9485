"""The cast kernel: ``CAST(x AS type)`` as Spark computes it under ANSI, for the casts DataFusion does otherwise.

The local engine casts natively only where no value can convert differently
(widening numbers, ``expressions._safe_cast``); every other cast is this
kernel, which refuses (``refusal``) the pairs of types it does not compute yet.

Spark's rules (ANSI mode):

- integers narrow with a ``CAST_OVERFLOW`` error where the value does not fit;
  doubles, floats and decimals become integers truncated toward zero (NaN,
  infinities and values out of range fail);
- numbers become decimals rounded half up (a double through its shortest
  decimal text, as Scala's ``BigDecimal(d)``), failing with
  ``NUMERIC_VALUE_OUT_OF_RANGE`` where the digits do not fit;
- text becomes a number, boolean, date or timestamp after trimming control
  characters and spaces, in the forms Spark reads (``CAST_INVALID_INPUT``
  otherwise), and numbers become text as Java writes them (``1.0E10``);
- dates, timestamps and ``timestamp_ntz`` convert through the session time zone.

>>> from pydantable_spark import dtypes as dt
>>> refusal(dt.Date(), dt.Int64()) is not None
True
>>> java_double_string(1e10), java_double_string(-0.0), java_double_string(0.001)
('1.0E10', '-0.0', '0.001')
"""

from __future__ import annotations

import decimal
import math
import re
import struct
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pydantable_spark import dtypes as dt
from pydantable_spark.substrait.kernels.numbers import fit_decimal
from pydantable_spark.substrait.kernels.spec import CAST_INVALID_INPUT, CAST_OVERFLOW, Scalar, SparkError
from pydantable_spark.substrait.kernels.temporal import (
    MICROS_PER_DAY,
    MICROS_PER_SECOND,
    civil_of,
    date_days,
    date_value,
    instant_of,
    micros_of,
    ntz_value,
    parse_date,
    parse_timestamp,
    timestamp_value,
    wall_of,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from pydantable_spark.substrait.kernels.spec import Site

    Maker = Callable[[Site], Callable[[Any], Any]]
__all__ = [
    "CAST",
    "double_to_decimal",
    "float32_of",
    "java_double_string",
    "java_float_string",
    "refusal",
    "spark_trim",
    "timestamp_string",
]

_INTEGERS: dict[type[dt.DType], int] = {dt.Int8: 7, dt.Int16: 15, dt.Int32: 31, dt.Int64: 63}


def _overflow(value: Any, source: dt.DType, target: dt.DType) -> SparkError:
    shown = java_double_string(value) if isinstance(value, float) else str(value)
    msg = (
        f"The value {shown} of the type {source.sql_name.upper()} cannot be cast to {target.sql_name.upper()} "
        "due to an overflow. Use `try_cast` to tolerate overflow and return NULL instead"
    )
    return SparkError(CAST_OVERFLOW, msg)


def _invalid(text: str, target: dt.DType) -> SparkError:
    msg = (
        f'The value \'{text}\' of the type "STRING" cannot be cast to "{target.sql_name.upper()}" because it is '
        "malformed. Correct the value as per the syntax, or change its target type. Use `try_cast` to tolerate "
        "malformed input and return NULL instead"
    )
    return SparkError(CAST_INVALID_INPUT, msg)


# --- numbers ------------------------------------------------------------------------------------------------


def float32_of(value: Fraction | int | float) -> float:
    """The float32 nearest ``value`` (halves to even), as Java rounds a long, a decimal or a text to a float.

    >>> float32_of(16777217), float32_of(Fraction(1, 10)) == struct.unpack("f", struct.pack("f", 0.1))[0]
    (16777216.0, True)
    """
    exact = Fraction(value)
    if exact == 0:
        return math.copysign(0.0, value) if isinstance(value, float) else 0.0
    sign = -1 if exact < 0 else 1
    magnitude = abs(exact)
    exponent = magnitude.numerator.bit_length() - magnitude.denominator.bit_length()
    while Fraction(2) ** exponent > magnitude:
        exponent -= 1
    while Fraction(2) ** (exponent + 1) <= magnitude:
        exponent += 1
    step = max(exponent - 23, -149)  # 24 significant bits, or a subnormal's fixed step
    scaled = magnitude / Fraction(2) ** step
    whole = math.floor(scaled)
    rest = scaled - whole
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and whole % 2 == 1):
        whole += 1
    result = Fraction(whole) * Fraction(2) ** step
    if result > Fraction(struct.unpack("f", b"\xff\xff\x7f\x7f")[0]):
        return sign * math.inf
    return sign * float(result)


def double_to_decimal(value: float, target: dt.Decimal) -> decimal.Decimal | None:
    """A double as Spark casts it to a decimal: its shortest decimal text, rounded half up to ``target``.

    NaN and the infinities are NULL (under ANSI too).
    """
    if math.isnan(value) or math.isinf(value):
        return None
    return fit_decimal(decimal.Decimal(repr(value)), target)


def _to_integer(site: Site) -> Callable[[Any], Any]:
    source, target = site.args[0].dtype, site.result.dtype
    bits = _INTEGERS[type(target)]
    low, high = -(1 << bits), (1 << bits) - 1
    if isinstance(source, dt.Integral | dt.Boolean):

        def narrow(value: Any) -> int:
            number = int(value)
            if not low <= number <= high:
                raise _overflow(number, source, target)
            return number

        return narrow
    if isinstance(source, dt.Floating):
        # Spark: floor(x) <= MaxValue and ceil(x) >= MinValue in doubles (2^63 - 1 is 2^63 there: it saturates)
        top, bottom = float(high), float(low)

        def truncate(value: float) -> int:
            if math.isnan(value) or math.isinf(value) or not (math.floor(value) <= top and math.ceil(value) >= bottom):
                raise _overflow(value, source, target)
            return max(low, min(high, int(value)))

        return truncate
    assert isinstance(source, dt.Decimal)
    through_double = source.precision > 18 and bits < 63

    def from_decimal(value: decimal.Decimal) -> int:
        if through_double:  # Spark's Decimal of more than 18 digits checks the double's bounds
            approximate = float(value)
            if not (math.floor(approximate) <= high and math.ceil(approximate) >= low):
                raise _overflow(value, source, target)
            return int(approximate)
        number = int(value)  # truncated toward zero
        if not low <= number <= high:
            raise _overflow(value, source, target)
        return number

    return from_decimal


def _to_decimal(site: Site) -> Callable[[Any], Any]:
    source, target = site.args[0].dtype, site.result.dtype
    assert isinstance(target, dt.Decimal)
    if isinstance(source, dt.Float64):
        return lambda value: double_to_decimal(value, target)
    if isinstance(source, dt.Float32):
        return lambda value: double_to_decimal(value, target)
    if isinstance(source, dt.Boolean):
        return lambda value: fit_decimal(decimal.Decimal(int(value)), target)
    return lambda value: fit_decimal(decimal.Decimal(value), target)


def _to_double(site: Site) -> Callable[[Any], Any]:
    return float


def _to_float(site: Site) -> Callable[[Any], Any]:
    source = site.args[0].dtype
    if isinstance(source, dt.Float64):
        return lambda value: value if math.isnan(value) or math.isinf(value) else float32_of(value)
    if isinstance(source, dt.Decimal):
        return lambda value: float32_of(Fraction(value))
    return lambda value: float32_of(int(value))


def _to_boolean(site: Site) -> Callable[[Any], Any]:
    return lambda value: value != 0


# --- text -----------------------------------------------------------------------------------------------------


def spark_trim(text: str) -> str:
    """``text`` without the leading and trailing spaces and control characters Spark's casts skip (code <= 32)."""
    start, end = 0, len(text)
    while start < end and (ord(text[start]) <= 32 or text[start] == "\x7f"):
        start += 1
    while end > start and (ord(text[end - 1]) <= 32 or text[end - 1] == "\x7f"):
        end -= 1
    return text[start:end]


def java_double_string(value: float) -> str:
    """Java's ``Double.toString`` (``FloatingDecimal``): plain between 10^-3 and 10^7, else ``d.dddE±n``.

    Java 17's digits are not always the shortest that read back: a whole number below 2^63 is written
    from the integer (``2.82879384806159008E17``), the E form always develops a second digit
    (``4.9E-324``), and the stopping test is symmetric (``7.729999999999999E21`` for 7.73E21).
    """
    return _java_text(value, single=False)


def java_float_string(value: float) -> str:
    """Java's ``Float.toString`` of a float32 value (``FloatingDecimal`` on its 24 bits)."""
    return _java_text(value, single=True)


_INSIGNIFICANT = tuple(p * 30103 // 100_000 for p in range(40))
"""``FloatingDecimal.insignificantDigitsNumber``: decimal digits below 2^p that carry no information (its table is
floor(p·log10 2) at every p it is read at: p < 40 for a double's or a float's whole numbers below 2^63)."""


def _bits_of(value: float, *, single: bool) -> tuple[int, int, int]:
    """(fraction bits, the leading 1 at bit 52; binary exponent; significant bits) as ``FloatingDecimal`` has them."""
    if single:
        raw = struct.unpack(">I", struct.pack(">f", value))[0]
        fraction, exponent, width, bias, shift = raw & 0x7FFFFF, (raw >> 23) & 0xFF, 23, 127, 29
    else:
        raw = struct.unpack(">Q", struct.pack(">d", value))[0]
        fraction, exponent, width, bias, shift = raw & ((1 << 52) - 1), (raw >> 52) & 0x7FF, 52, 1023, 0
    if exponent == 0:  # subnormal: normalized, fewer significant bits
        significant = fraction.bit_length()
        move = width + 1 - significant
        fraction <<= move
        exponent = 1 - move
    else:
        fraction |= 1 << width
        significant = width + 1
    return fraction << shift, exponent - bias, significant


def _estimate_exponent(fraction: int, bin_exp: int) -> int:
    """``FloatingDecimal.estimateDecExp``: floor of an estimate of log10, computed in doubles as Java does."""
    mantissa: float = struct.unpack(">d", struct.pack(">Q", 0x3FF0000000000000 | (fraction & ((1 << 52) - 1))))[0]
    return math.floor((mantissa - 1.5) * 0.289529654 + 0.176091259 + bin_exp * 0.301029995663981)


def _java_digits(value: float, *, single: bool) -> tuple[list[int], int]:
    """(digits, decimal exponent) as ``FloatingDecimal.BinaryToASCIIBuffer.dtoa`` develops them: 0.digits × 10^exp."""
    fraction, bin_exp, significant = _bits_of(abs(value), single=single)
    tail = (fraction & -fraction).bit_length() - 1
    fraction_bits = 53 - tail
    tiny = max(0, fraction_bits - bin_exp - 1)
    if -21 <= bin_exp <= 62 and tiny == 0:  # a whole number: written from the integer
        whole = fraction >> (52 - bin_exp) if bin_exp <= 52 else fraction << (bin_exp - 52)
        p2 = bin_exp - significant - 1
        dropped = _INSIGNIFICANT[p2] if bin_exp > significant and 1 < p2 < len(_INSIGNIFICANT) else 0
        if dropped:
            whole, residue = divmod(whole, 10**dropped)
            whole += residue >= 10**dropped // 2
        text = str(whole)
        return [int(c) for c in text.rstrip("0")], len(text) + dropped
    dec_exp = _estimate_exponent(fraction, bin_exp)
    b5 = max(0, -dec_exp)
    b2 = b5 + tiny + bin_exp
    s5 = max(0, dec_exp)
    s2 = s5 + tiny
    m5, m2 = b5, b2 - significant
    fraction >>= tail
    b2 -= fraction_bits - 1
    common = min(b2, s2)
    b2, s2, m2 = b2 - common, s2 - common, m2 - common
    if fraction_bits == 1:
        m2 -= 1
    if m2 < 0:
        b2, s2, m2 = b2 - m2, s2 - m2, 0
    b_bits = fraction_bits + b2 + (5**b5).bit_length()
    ten_s_bits = s2 + 1 + (5 ** (s5 + 1)).bit_length()
    strict_high = b_bits < 64 and ten_s_bits < 64  # the int and long variants test b + m > 10s
    b, s, m = fraction * 5**b5 << b2, 5**s5 << s2, 5**m5 << m2
    ten_s = 10 * s

    def step() -> tuple[int, bool, bool]:
        nonlocal b
        q, b = divmod(b, s)
        b *= 10
        return q, b < m, (b + m > ten_s) if strict_high else (b + m >= ten_s)

    m *= 10
    digits: list[int] = []
    q, low, high = step()
    if q == 0 and not high:
        dec_exp -= 1
    else:
        digits.append(q)
    if dec_exp < -3 or dec_exp >= 8:  # the E form: at least two digits
        low = high = False
    while not low and not high:
        q, _, _ = step()
        m *= 10
        low, high = b < m, (b + m > ten_s) if strict_high else (b + m >= ten_s)
        digits.append(q)
    exponent = dec_exp + 1
    if high and (not low or (2 * b > ten_s) or (2 * b == ten_s and digits[-1] % 2 == 1)):
        index = len(digits) - 1
        while digits[index] == 9 and index > 0:
            digits[index] = 0
            index -= 1
        if digits[index] == 9:
            digits[0], exponent = 1, exponent + 1
        else:
            digits[index] += 1
    return digits, exponent


def _java_text(value: float, *, single: bool) -> str:
    """A double or float in Java's layout (``FloatingDecimal.toJavaFormatString``)."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "-0.0" if math.copysign(1.0, value) < 0 else "0.0"
    sign = "-" if value < 0 else ""
    numbers, exponent = _java_digits(value, single=single)
    digits = "".join(map(str, numbers))
    if 0 < exponent < 8:
        whole, rest = digits[:exponent].ljust(exponent, "0"), digits[exponent:]
        return f"{sign}{whole}.{rest or '0'}"
    if -3 < exponent <= 0:
        return f"{sign}0.{'0' * -exponent}{digits}"
    return f"{sign}{digits[0]}.{digits[1:] or '0'}E{exponent - 1}"


def _integer_text(text: str, target: dt.DType) -> int:
    match = re.fullmatch(r"[+-]?\d+", text)
    if match is None:
        raise _invalid(text, target)
    return int(text)


def _from_string_to_integer(site: Site) -> Callable[[Any], Any]:
    target = site.result.dtype
    bits = _INTEGERS[type(target)]

    def run(value: str) -> int:
        number = _integer_text(spark_trim(value), target)
        if not -(1 << bits) <= number < (1 << bits):
            raise _invalid(value, target)
        return number

    return run


_JAVA_DOUBLE = re.compile(
    r"[+-]?(?:NaN|Infinity|(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)"
    r"|(?:0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?\d+))[fFdD]?"
)
"""What ``Double.parseDouble`` reads: decimal and hexadecimal forms, ``NaN``, ``Infinity``, a type suffix."""
_JAVA_SPACE = "".join(map(chr, range(33)))
"""What Java's ``String.trim`` removes (``Double.parseDouble`` trims so): code points up to the space."""
_SPECIAL = {"inf": math.inf, "+inf": math.inf, "infinity": math.inf, "+infinity": math.inf, "nan": math.nan}
_SPECIAL |= {"-inf": -math.inf, "-infinity": -math.inf}


def _number_text(value: str, target: dt.DType) -> Fraction | float:
    """A text as Java's ``Double.parseDouble`` reads it (exactly), or Spark's special spellings."""
    java = value.strip(_JAVA_SPACE)
    if _JAVA_DOUBLE.fullmatch(java):
        body = java.rstrip("fFdD") if not java.endswith("Infinity") else java
        if body.lstrip("+-") == "NaN":
            return math.nan
        if body.lstrip("+-") == "Infinity":
            return -math.inf if body.startswith("-") else math.inf
        if "x" in body or "X" in body:
            return Fraction(float.fromhex(body))
        exact = Fraction(decimal.Decimal(body))
        return -0.0 if exact == 0 and body.startswith("-") else exact
    special = _SPECIAL.get(spark_trim(value).lower())
    if special is None:
        raise _invalid(value, target)
    return special


def _from_string_to_double(site: Site) -> Callable[[Any], Any]:
    target = site.result.dtype
    to_float32 = isinstance(target, dt.Float32)

    def run(value: str) -> float:
        number = _number_text(value, target)
        if isinstance(number, float):
            return number
        return float32_of(number) if to_float32 else float(number)

    return run


_DECIMAL_TEXT = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def _from_string_to_decimal(site: Site) -> Callable[[Any], Any]:
    target = site.result.dtype
    assert isinstance(target, dt.Decimal)

    def run(value: str) -> decimal.Decimal:
        text = spark_trim(value)
        if not _DECIMAL_TEXT.fullmatch(text):
            raise _invalid(value, target)
        return fit_decimal(decimal.Decimal(text), target)

    return run


_TRUE = frozenset(("t", "true", "y", "yes", "1"))
_FALSE = frozenset(("f", "false", "n", "no", "0"))


def _from_string_to_boolean(site: Site) -> Callable[[Any], Any]:
    target = site.result.dtype

    def run(value: str) -> bool:
        text = spark_trim(value).lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise _invalid(value, target)

    return run


def _from_string_to_date(site: Site) -> Callable[[Any], Any]:
    target = site.result.dtype

    def run(value: str) -> Any:
        days = parse_date(value)
        if days is None:
            raise _invalid(value, target)
        return date_value(days)

    return run


def _from_string_to_timestamp(site: Site) -> Callable[[Any], Any]:
    target = site.result.dtype
    ntz = isinstance(target, dt.DatetimeNTZ)
    zone = site.session.tzinfo

    def run(value: str) -> Any:
        micros = parse_timestamp(value, zone, ntz=ntz)
        if micros is None:
            raise _invalid(value, target)
        return ntz_value(micros) if ntz else timestamp_value(micros)

    return run


def date_string(days: int) -> str:
    """A date as Spark writes it: ``yyyy-MM-dd``."""
    year, month, day = civil_of(days)
    shown = f"{year:04d}" if 0 <= year <= 9999 else f"{'+' if year > 0 else '-'}{abs(year):04d}"
    return f"{shown}-{month:02d}-{day:02d}"


def timestamp_string(wall: int) -> str:
    """A wall-clock time (micros) as Spark writes a timestamp: ``yyyy-MM-dd HH:mm:ss[.ffffff]``, zeros trimmed."""
    days, time = divmod(wall, MICROS_PER_DAY)
    seconds, fraction = divmod(time, MICROS_PER_SECOND)
    text = f"{date_string(days)} {seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
    return text + (f".{fraction:06d}".rstrip("0") if fraction else "")


def _to_string(site: Site) -> Callable[[Any], Any]:
    source = site.args[0].dtype
    if isinstance(source, dt.Boolean):
        return lambda value: "true" if value else "false"
    if isinstance(source, dt.Float64):
        return java_double_string
    if isinstance(source, dt.Float32):
        return java_float_string
    if isinstance(source, dt.Decimal):
        return _decimal_string
    if isinstance(source, dt.Integral):
        return str
    if isinstance(source, dt.Date):
        return lambda value: date_string(date_days(value, source, site))
    if isinstance(source, dt.Datetime | dt.DatetimeNTZ):
        return lambda value: timestamp_string(wall_of(value, source, site))
    assert isinstance(source, dt.Binary)
    return _utf8_text


def _utf8_text(value: bytes) -> str:
    """Bytes as text. Spark keeps bytes that are not UTF-8 as they are, a string Arrow in Python cannot hold."""
    try:
        return bytes(value).decode("utf-8")
    except UnicodeDecodeError:
        msg = f"the local engine cannot cast the bytes {bytes(value)!r} to a string: not UTF-8 (Spark keeps them)"
        raise ValueError(msg) from None


def _decimal_string(value: decimal.Decimal) -> str:
    """A decimal as Spark writes it: plain digits, the scale's zeros kept (``BigDecimal.toPlainString``)."""
    return format(value, "f")


def _to_binary(site: Site) -> Callable[[Any], Any]:
    return lambda value: value.encode("utf-8")


# --- dates and timestamps -------------------------------------------------------------------------------------------


def _to_date(site: Site) -> Callable[[Any], Any]:
    source = site.args[0].dtype
    return lambda value: date_value(date_days(value, source, site))


def _to_timestamp(site: Site) -> Callable[[Any], Any]:
    source = site.args[0].dtype
    return lambda value: timestamp_value(instant_of(value, source, site))


def _to_ntz(site: Site) -> Callable[[Any], Any]:
    source = site.args[0].dtype
    return lambda value: ntz_value(wall_of(value, source, site))


def _seconds_to_timestamp(site: Site) -> Callable[[Any], Any]:
    """Seconds since the epoch as an instant: doubles truncated to micros (NaN fails), integers saturated."""
    source, target = site.args[0].dtype, site.result.dtype
    if isinstance(source, dt.Floating):

        def from_double(value: float) -> Any:
            if math.isnan(value) or math.isinf(value):
                msg = f"The value {java_double_string(value)} of the type DOUBLE cannot be cast to TIMESTAMP"
                raise SparkError(CAST_INVALID_INPUT, msg)
            micros = value * MICROS_PER_SECOND
            if not (math.floor(micros) <= float(_LONG - 1) and math.ceil(micros) >= float(-_LONG)):
                raise _overflow(value, source, target)
            return timestamp_value(max(-_LONG, min(_LONG - 1, int(micros))))

        return from_double
    if isinstance(source, dt.Decimal):  # BigDecimal.longValue: truncated, then the low 64 bits
        return lambda value: timestamp_value((int(value.scaleb(6)) + _LONG) % (2 * _LONG) - _LONG)
    return lambda value: timestamp_value(max(-_LONG, min(_LONG - 1, int(value) * MICROS_PER_SECOND)))


def _timestamp_to_number(site: Site) -> Callable[[Any], Any]:
    """An instant as seconds since the epoch: whole (floored) for integers, else through the double micros / 10^6."""
    target = site.result.dtype
    if isinstance(target, dt.Integral):
        bits = _INTEGERS[type(target)]

        def whole(value: Any) -> int:
            seconds = micros_of(value) // MICROS_PER_SECOND
            if not -(1 << bits) <= seconds < (1 << bits):
                raise _overflow(value, site.args[0].dtype, target)
            return seconds

        return whole
    if isinstance(target, dt.Float64):
        return lambda value: micros_of(value) / MICROS_PER_SECOND
    if isinstance(target, dt.Float32):
        return lambda value: float32_of(micros_of(value) / MICROS_PER_SECOND)
    assert isinstance(target, dt.Decimal)
    return lambda value: double_to_decimal(micros_of(value) / MICROS_PER_SECOND, target)


_LONG = 2**63

_NUMBERS: tuple[type[dt.DType], ...] = (dt.Int8, dt.Int16, dt.Int32, dt.Int64, dt.Float32, dt.Float64, dt.Decimal)


def _table() -> dict[tuple[type[dt.DType], type[dt.DType]], Maker]:
    table: dict[tuple[type[dt.DType], type[dt.DType]], Maker] = {}
    for source in (*_NUMBERS, dt.Boolean):
        for target in _INTEGERS:
            table[source, target] = _to_integer
        table[source, dt.Decimal] = _to_decimal
        table[source, dt.Float64] = _to_double
        table[source, dt.Float32] = _to_float
        table[source, dt.Boolean] = _to_boolean
        table[source, dt.String] = _to_string
    for target in _INTEGERS:
        table[dt.String, target] = _from_string_to_integer
    table[dt.String, dt.Float64] = _from_string_to_double
    table[dt.String, dt.Float32] = _from_string_to_double
    table[dt.String, dt.Decimal] = _from_string_to_decimal
    table[dt.String, dt.Boolean] = _from_string_to_boolean
    table[dt.String, dt.Date] = _from_string_to_date
    table[dt.String, dt.Datetime] = _from_string_to_timestamp
    table[dt.String, dt.DatetimeNTZ] = _from_string_to_timestamp
    table[dt.String, dt.Binary] = _to_binary
    for source in (dt.Date, dt.Datetime, dt.DatetimeNTZ, dt.Binary):
        table[source, dt.String] = _to_string
    for source in (dt.Datetime, dt.DatetimeNTZ):
        table[source, dt.Date] = _to_date
    table[dt.Date, dt.Datetime] = _to_timestamp
    table[dt.DatetimeNTZ, dt.Datetime] = _to_timestamp
    table[dt.Date, dt.DatetimeNTZ] = _to_ntz
    table[dt.Datetime, dt.DatetimeNTZ] = _to_ntz
    for number in _NUMBERS:
        table[number, dt.Datetime] = _seconds_to_timestamp
        table[dt.Datetime, number] = _timestamp_to_number
    return table


_CASTS: dict[tuple[type[dt.DType], type[dt.DType]], Maker] = _table()
"""(source type class, target type class) → the maker of that conversion."""


def refusal(source: dt.DType, target: dt.DType) -> str | None:
    """Why the local engine does not cast ``source`` to ``target`` (None: the kernel does)."""
    if (type(source), type(target)) in _CASTS:
        return None
    return f"the local engine does not cast {source.sql_name} to {target.sql_name} yet"


def _make(site: Site) -> Callable[[Any], Any]:
    source, target = site.args[0].dtype, site.result.dtype
    return _CASTS[type(source), type(target)](site)


CAST = Scalar("cast", _make)
"""The kernel of every cast ``refusal`` accepts; its site's argument is the source, its result the target."""
