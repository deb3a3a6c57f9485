"""Values as Spark writes them in JSON and CSV text: Java's number text, dates and timestamps in the session's zone.

- doubles and floats as Java 17's ``Double.toString``/``Float.toString``
  (Spark's JVM here), whose ``FloatingDecimal`` does not always give the
  shortest digits: ``1.0E23`` is ``9.999999999999999E22``, a whole number
  below 2^63 keeps its digits (``1.37342863480957901E18``), ``Double.MIN_VALUE``
  is ``4.9E-324``. Its algorithm is reproduced here, the ``int`` and ``long``
  arithmetic wrapping around as Java's does (checked on 3,000 random doubles
  and 2,000 floats against Spark: no difference);
- decimals as ``BigDecimal.toString`` (``1E-8`` for ``0.00000001``);
- dates ``yyyy-MM-dd``; timestamps ``yyyy-MM-dd'T'HH:mm:ss.SSSXXX`` in the
  session's zone (milliseconds, truncated; ``Z`` for a zero offset, seconds of
  an offset when it has them), ``timestamp_ntz`` without the offset.

>>> java_double(1e10), java_double(0.001), java_double(1e23), java_double(5e-324), java_float(16777216.0)
('1.0E10', '0.001', '9.999999999999999E22', '4.9E-324', '1.6777216E7')
>>> import datetime
>>> timestamp_text(datetime.datetime(2024, 2, 29, 13, 5, 9, 123456, tzinfo=datetime.timezone.utc), zone_of("+09:00"))
'2024-02-29T22:05:09.123+09:00'
"""

from __future__ import annotations

import math
import struct
from typing import TYPE_CHECKING, Any

from pydantable_spark import dtypes as dt
from pydantable_spark.substrait.kernels.elements import instant_offset, micros
from pydantable_spark.substrait.kernels.spec import zone_of

if TYPE_CHECKING:
    import datetime
    import decimal
    from collections.abc import Callable

__all__ = [
    "TEXT_TYPES",
    "date_text",
    "decimal_text",
    "java_double",
    "java_float",
    "ntz_text",
    "timestamp_text",
    "value_text",
    "zone_of",
]

_EXP_SHIFT = 52
_FRACT_HOB = 1 << _EXP_SHIFT
_N_5_BITS = tuple((5**i).bit_length() for i in range(27))
"""The bits of 5^i (Java's ``FloatingDecimal.N_5_BITS``)."""
_INSIGNIFICANT = (
    0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9,
    9, 9, 10, 10, 10, 11, 11, 11, 12, 12, 12, 12, 13, 13, 13, 14, 14, 14, 15, 15, 15, 15, 16, 16, 16,
    17, 17, 17, 18, 18, 18, 19,
)  # fmt: skip
"""Java's ``FloatingDecimal.insignificantDigitsNumber``: about ceil(log2(5^i))."""


def _wrap(value: int, bits: int) -> int:
    """``value`` in Java's ``int`` (32 bits) or ``long`` (64 bits) arithmetic, which wraps around."""
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def _whole_digits(fraction: int, bin_exp: int, significant_bits: int) -> tuple[str, int]:
    """A whole number below 2^63: its digits, less the last ones Java counts insignificant (rounded half up)."""
    value = fraction << (bin_exp - _EXP_SHIFT) if bin_exp >= _EXP_SHIFT else fraction >> (_EXP_SHIFT - bin_exp)
    power = bin_exp - significant_bits - 1
    dropped = _INSIGNIFICANT[power] if bin_exp > significant_bits and 1 < power < len(_INSIGNIFICANT) else 0
    if dropped:
        value, residue = divmod(value, 10**dropped)
        if residue >= 10**dropped // 2:
            value += 1
    text = str(value)
    return text.rstrip("0"), len(text) + dropped


def _estimate_exponent(fraction: int, bin_exp: int) -> int:
    """``FloatingDecimal.estimateDecExp``: about floor(log10(value)), computed in doubles as Java does."""
    mantissa: float = struct.unpack("d", struct.pack("Q", 0x3FF0000000000000 | (fraction & (_FRACT_HOB - 1))))[0]
    return math.floor((mantissa - 1.5) * 0.289529654 + 0.176091259 + bin_exp * 0.301029995663981)


def _java_digits(fraction: int, bin_exp: int, significant_bits: int) -> tuple[str, int]:
    """The digits Java 17's ``FloatingDecimal.dtoa`` gives, and the decimal exponent (value = 0.digits x 10^exp).

    Not always the shortest digits (``1.0E23`` is written ``9.999999999999999E22``): the stopping test
    differs between its ``int``, ``long`` and big-integer arithmetic, and the first two wrap around.
    """
    tail_zeros = (fraction & -fraction).bit_length() - 1
    fract_bits = _EXP_SHIFT + 1 - tail_zeros
    tiny_bits = max(0, fract_bits - bin_exp - 1)
    if -21 <= bin_exp <= 62 and tiny_bits == 0 and fract_bits + _N_5_BITS[0] < 64:
        return _whole_digits(fraction, bin_exp, significant_bits)
    dec_exp = _estimate_exponent(fraction, bin_exp)
    b5 = max(0, -dec_exp)
    b2 = b5 + tiny_bits + bin_exp
    s5 = max(0, dec_exp)
    s2 = s5 + tiny_bits
    m5, m2 = b5, b2 - significant_bits
    fraction >>= tail_zeros
    b2 -= fract_bits - 1
    common = min(b2, s2)
    b2, s2, m2 = b2 - common, s2 - common, m2 - common
    if fract_bits == 1:
        m2 -= 1
    if m2 < 0:
        b2, s2, m2 = b2 - m2, s2 - m2, 0
    b_bits = fract_bits + b2 + (_N_5_BITS[b5] if b5 < len(_N_5_BITS) else b5 * 3)
    ten_s_bits = s2 + 1 + (_N_5_BITS[s5 + 1] if s5 + 1 < len(_N_5_BITS) else (s5 + 1) * 3)
    bits = 32 if b_bits < 32 and ten_s_bits < 32 else 64 if b_bits < 64 and ten_s_bits < 64 else 0
    b, s, m = fraction * 5**b5 << b2, 5**s5 << s2, 5**m5 << m2
    tens = s * 10
    digits: list[int] = []

    def step(first: bool) -> tuple[bool, bool]:
        nonlocal b, m
        quotient, b = divmod(b, s)
        b *= 10
        m = _wrap(m * 10, bits) if bits else m * 10
        if not bits:
            low, high = b < m, b + m >= tens
        elif m > 0:
            low, high = b < m, _wrap(b + m, bits) > tens
        else:  # m overflowed (Java's "hack")
            low = high = True
        if quotient or high or not first:
            digits.append(quotient)
        return low, high

    low, high = step(first=True)
    if not digits:  # the estimate was one too high: the leading zero is dropped
        dec_exp -= 1
    if dec_exp < -3 or dec_exp >= 8:  # E-form: at least two digits
        low = high = False
    while not low and not high:
        low, high = step(first=False)
    if bits:
        difference = _wrap(_wrap(b << 1, bits) - tens, bits)
    else:
        difference = (2 * b > tens) - (2 * b < tens) if high and low else 0
    if high and (not low or difference > 0 or (difference == 0 and digits[-1] % 2)):
        dec_exp = _round_up(digits, dec_exp)
    return "".join(map(str, digits)), dec_exp + 1


def _round_up(digits: list[int], dec_exp: int) -> int:
    """Java's ``roundup``: the last digit up, nines carried; a carry out of the first makes it ``1``."""
    i = len(digits) - 1
    while digits[i] == 9 and i > 0:
        digits[i] = 0
        i -= 1
    if digits[i] == 9:
        digits[0] = 1
        return dec_exp + 1
    digits[i] += 1
    return dec_exp


def _java_format(negative: bool, digits: str, exponent: int) -> str:
    """``FloatingDecimal``'s text: plain from 10^-3 to 10^7, else ``d.dddE±n`` (value = 0.digits x 10^exponent)."""
    sign = "-" if negative else ""
    if 0 < exponent < 8:
        whole = digits[:exponent].ljust(exponent, "0")
        return f"{sign}{whole}.{digits[exponent:] or '0'}"
    if -3 < exponent <= 0:
        return f"{sign}0.{'0' * -exponent}{digits}"
    return f"{sign}{digits[0]}.{digits[1:] or '0'}E{exponent - 1}"


def _special(value: float) -> str | None:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "-0.0" if math.copysign(1.0, value) < 0 else "0.0"
    return None


def java_double(value: float) -> str:
    """``Double.toString(value)`` as Java 17 (Spark's JVM here) writes it."""
    special = _special(value)
    if special is not None:
        return special
    bits = struct.unpack("Q", struct.pack("d", value))[0]
    exponent, fraction = (bits >> 52) & 0x7FF, bits & (_FRACT_HOB - 1)
    if exponent == 0:  # subnormal: normalized, fewer significant bits
        shift = fraction.bit_length() - 1
        significant, fraction, exponent = shift + 1, fraction << (_EXP_SHIFT - shift), 1 - (_EXP_SHIFT - shift)
    else:
        significant, fraction = _EXP_SHIFT + 1, fraction | _FRACT_HOB
    digits, dec_exp = _java_digits(fraction, exponent - 1023, significant)
    return _java_format(value < 0, digits, dec_exp)


def java_float(value: float) -> str:
    """``Float.toString(value)`` as Java 17 writes it (``value``: a float32 held in a Python float)."""
    special = _special(value)
    if special is not None:
        return special
    bits = struct.unpack("I", struct.pack("f", value))[0]
    exponent, fraction = (bits >> 23) & 0xFF, bits & ((1 << 23) - 1)
    if exponent == 0:
        shift = fraction.bit_length() - 1
        significant, fraction, exponent = shift + 1, fraction << (23 - shift), 1 - (23 - shift)
    else:
        significant, fraction = 24, fraction | (1 << 23)
    digits, dec_exp = _java_digits(fraction << (_EXP_SHIFT - 23), exponent - 127, significant)
    return _java_format(value < 0, digits, dec_exp)


def decimal_text(value: decimal.Decimal) -> str:
    """``BigDecimal.toString``: plain unless the exponent is positive or the number is below 10^-6."""
    return str(value.copy_abs() if value == 0 else value)


def _civil(days: int) -> tuple[int, int, int]:
    """The proleptic Gregorian (year, month, day) of a day count since 1970-01-01 (any year, 0 and 10000 too)."""
    days += 719468
    era = days // 146097
    of_era = days - era * 146097
    year_of_era = (of_era - of_era // 1460 + of_era // 36524 - of_era // 146096) // 365
    of_year = of_era - (365 * year_of_era + year_of_era // 4 - year_of_era // 100)
    shifted_month = (5 * of_year + 2) // 153
    day = of_year - (153 * shifted_month + 2) // 5 + 1
    month = shifted_month + 3 if shifted_month < 10 else shifted_month - 9
    return year_of_era + era * 400 + (month <= 2), month, day


def _year(year: int) -> str:
    """``yyyy``: four digits; past 9999 with a sign, as ``java.time`` prints a proleptic year."""
    return f"{year:04d}" if 0 <= year <= 9999 else f"{year:+05d}"


def date_text(value: datetime.date) -> str:
    return f"{_year(value.year)}-{value.month:02d}-{value.day:02d}"


def _clock(wall: int) -> str:
    """A wall-clock time given in microseconds since 1970-01-01T00:00 as ``yyyy-MM-dd'T'HH:mm:ss.SSS``."""
    days, micros_of_day = divmod(wall, 86_400_000_000)
    year, month, day = _civil(days)
    seconds, fraction = divmod(micros_of_day, 1_000_000)
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{_year(year)}-{month:02d}-{day:02d}T{hours:02d}:{minutes:02d}:{seconds:02d}.{fraction // 1000:03d}"


def _offset_text(offset: int) -> str:
    """``XXX``: ``Z`` for zero, else ``±HH:MM`` with ``:SS`` where the offset has seconds."""
    if offset == 0:
        return "Z"
    sign = "-" if offset < 0 else "+"
    seconds = abs(offset) // 1_000_000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{sign}{hours:02d}:{minutes:02d}" + (f":{seconds:02d}" if seconds else "")


def timestamp_text(value: datetime.datetime, zone: datetime.tzinfo) -> str:
    """A timestamp as ``yyyy-MM-dd'T'HH:mm:ss.SSSXXX`` in ``zone``."""
    instant = micros(value)
    offset = instant_offset(instant, zone)
    return _clock(instant + offset) + _offset_text(offset)


def ntz_text(value: datetime.datetime) -> str:
    """A ``timestamp_ntz`` as ``yyyy-MM-dd'T'HH:mm:ss.SSS``."""
    return _clock(micros(value))


TEXT_TYPES: tuple[type[dt.DType], ...] = (
    dt.String,
    dt.Boolean,
    dt.Integral,
    dt.Floating,
    dt.Decimal,
    dt.Date,
    dt.Datetime,
    dt.DatetimeNTZ,
)
"""The types ``value_text`` writes."""


def value_text(dtype: dt.DType, zone: datetime.tzinfo) -> Callable[[Any], str]:
    """The text of a non-NULL value of ``dtype`` (one of ``TEXT_TYPES``) in JSON and CSV, before any quoting."""
    if isinstance(dtype, dt.String):
        return str
    if isinstance(dtype, dt.Boolean):
        return lambda v: "true" if v else "false"
    if isinstance(dtype, dt.Integral):
        return str
    if isinstance(dtype, dt.Float64):
        return java_double
    if isinstance(dtype, dt.Float32):
        return java_float
    if isinstance(dtype, dt.Decimal):
        return decimal_text
    if isinstance(dtype, dt.Date):
        return date_text
    if isinstance(dtype, dt.Datetime):
        return lambda v: timestamp_text(v, zone)
    assert isinstance(dtype, dt.DatetimeNTZ), dtype
    return ntz_text
