"""Java 17's ``Double.toString``: the decimal digits Spark reads a double by.

Spark turns a double into a decimal through its text (``BigDecimal(Double.toString(d))``:
``round``, ``bround``, a cast to a decimal or to a string). Java 17's
``Double.toString`` (``jdk.internal.math.FloatingDecimal``, unchanged from
Java 8 to 18) does not always give the shortest digits that read back, as
Python's ``repr`` does: integral values from 2**52 to 2**63 keep more digits
(``2.0**60`` is ``1.15292150460684698E18``) and a few others end one digit
longer, about 0.14% of all doubles (measured). This module reproduces its
digit generation step by step, Java's 32- and 64-bit overflows included, and
was checked against Java 17 on millions of doubles.

>>> java_double_text(2.0**60), repr(2.0**60)
('1.15292150460684698E18', '1.152921504606847e+18')
>>> java_double_text(0.1), java_double_text(1e7), java_double_text(-0.0)
('0.1', '1.0E7', '-0.0')
"""

from __future__ import annotations

import decimal
import math
import struct

__all__ = ["java_double_decimal", "java_double_text"]

_BITS = struct.Struct("<Q")
_DOUBLE = struct.Struct("<d")
_N_5_BITS = (0, 3, 5, 7, 10, 12, 14, 17, 19, 21, 24, 26, 28, 31, 33, 35, 38, 40, 42, 45, 47, 49, 52, 54, 56, 59, 61)
"""About ceil(log2(5**i)): how FloatingDecimal sizes its integers."""


def _wrap(value: int, bits: int) -> int:
    """``value`` as Java's ``int`` (32) or ``long`` (64) holds it after an overflow."""
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def _estimate_exponent(fraction: int, exponent: int) -> int:
    """FloatingDecimal's estimate of floor(log10(x)), computed in doubles as Java does."""
    scaled = _DOUBLE.unpack(_BITS.pack(0x3FF0_0000_0000_0000 | (fraction & 0xF_FFFF_FFFF_FFFF)))[0]
    estimate: float = (scaled - 1.5) * 0.289529654 + 0.176091259 + exponent * 0.301029995663981
    return math.floor(estimate)


def _long_digits(value: int, insignificant: int) -> tuple[str, int]:
    """The digits of an integral double (``value``), its ``insignificant`` last digits rounded off half up."""
    exponent = 0
    if insignificant:
        power = 10**insignificant
        value, residue = divmod(value, power)
        exponent = insignificant
        if residue >= power >> 1:
            value += 1
    text = str(value)
    stripped = text.rstrip("0")
    return stripped, exponent + len(text)


def _digits(fraction: int, exponent: int, significant: int) -> tuple[str, int]:
    """The digits and decimal exponent (value = 0.digits * 10**exponent) of the double 1.f * 2**exponent.

    ``fraction`` holds the significand with its leading bit at bit 52; ``significant`` is 53 (fewer for a
    subnormal). This is ``FloatingDecimal.BinaryToASCIIBuffer.dtoa`` for ``Double.toString``.
    """
    tail_zeros = (fraction & -fraction).bit_length() - 1
    fraction_bits = 53 - tail_zeros
    tiny_bits = max(0, fraction_bits - exponent - 1)
    if -21 <= exponent <= 62 and tiny_bits == 0:  # an integer that fits a long: the easy case
        insignificant = 0
        if exponent > significant:
            p2 = exponent - significant - 1
            insignificant = len(str(1 << p2)) - 1 if p2 > 1 else 0  # the digits of 2**p2 after its first
        value = fraction << (exponent - 52) if exponent >= 52 else fraction >> (52 - exponent)
        return _long_digits(value, insignificant)
    dec = _estimate_exponent(fraction, exponent)
    b5 = max(0, -dec)
    b2 = b5 + tiny_bits + exponent
    s5 = max(0, dec)
    s2 = s5 + tiny_bits
    m5 = b5
    m2 = b2 - significant
    fraction >>= tail_zeros
    b2 -= fraction_bits - 1
    common = min(b2, s2)
    b2, s2, m2 = b2 - common, s2 - common, m2 - common
    if fraction_bits == 1:  # an exact power of two: the next smaller double is half as far
        m2 -= 1
    if m2 < 0:
        b2, s2, m2 = b2 - m2, s2 - m2, 0
    b_bits = fraction_bits + b2 + (_N_5_BITS[b5] if b5 < len(_N_5_BITS) else b5 * 3)
    ten_s_bits = s2 + 1 + (_N_5_BITS[s5 + 1] if s5 + 1 < len(_N_5_BITS) else (s5 + 1) * 3)
    # Java's int or long arithmetic (overflows and all) where the numbers fit one, else FDBigInteger's
    width = (32 if b_bits < 32 and ten_s_bits < 32 else 64) if b_bits < 64 and ten_s_bits < 64 else None
    b = (fraction * 5**b5) << b2
    digits, dec, low, high, difference = _develop(b, 5**s5 << s2, 5**m5 << m2, dec, width)
    dec_exponent = dec + 1
    if high and (not low or difference > 0 or (difference == 0 and digits[-1] % 2 == 1)):
        dec_exponent += _round_up(digits)
    return "".join(map(str, digits)), dec_exponent


def _develop(b: int, s: int, m: int, dec: int, width: int | None) -> tuple[list[int], int, bool, bool, int]:
    """FloatingDecimal's digit loop: digits of b/s until the remainder is within m (half a unit) of an end.

    ``width`` 32 or 64 computes in Java's ``int``/``long``, whose overflows it keeps (an overflowed ``m``
    stops the loop; the stopping test is strict); None in FDBigInteger, whose test stops where the
    remainder plus ``m`` reaches ``10 s`` too. Returns the digits, the decimal exponent (one less where the
    first digit was 0), the two stopping tests and the sign of ``2 b - 10 s`` (how the last digit rounds).
    """

    def fixed(value: int) -> int:
        return value if width is None else _wrap(value, width)

    def stops(b: int, m: int) -> tuple[bool, bool]:
        if width is None:
            return b < m, b + m >= tens
        return b < m, fixed(b + m) > tens

    tens = 10 * s
    digits: list[int] = []
    q, b = b // s, 10 * (b % s)
    m = fixed(m * 10)
    low, high = stops(b, m)
    if q == 0 and not high:
        dec -= 1
    else:
        digits.append(q)
    if dec < -3 or dec >= 8:
        low = high = False
    while not low and not high:
        q, b = b // s, 10 * (b % s)
        m = fixed(m * 10)
        low, high = stops(b, m) if m > 0 else (True, True)  # an overflowed m: Java stops there
        digits.append(q)
    twice = fixed(fixed(b << 1) - tens)
    return digits, dec, low, high, (twice > 0) - (twice < 0)


def _round_up(digits: list[int]) -> int:
    """Add one to the last digit, carrying; 1 when the carry leaves the first digit (then "10...0")."""
    i = len(digits) - 1
    while digits[i] == 9 and i > 0:
        digits[i] = 0
        i -= 1
    if digits[i] == 9:
        digits[0] = 1
        return 1
    digits[i] += 1
    return 0


def _decompose(value: float) -> tuple[bool, str, int] | None:
    """(negative, digits, decimal exponent) of a finite nonzero double, as Java 17 develops them."""
    bits = _BITS.unpack(_DOUBLE.pack(value))[0]
    negative = bool(bits >> 63)
    fraction = bits & 0xF_FFFF_FFFF_FFFF
    exponent = (bits >> 52) & 0x7FF
    if exponent == 0:
        if fraction == 0:
            return None
        leading = 64 - fraction.bit_length()
        shift = leading - 11
        fraction <<= shift
        exponent = 1 - shift
        significant = 64 - leading
    else:
        fraction |= 1 << 52
        significant = 53
    digits, dec_exponent = _digits(fraction, exponent - 1023, significant)
    return negative, digits, dec_exponent


def java_double_decimal(value: float) -> decimal.Decimal:
    """The exact decimal ``Double.toString(value)`` spells (finite ``value``), as ``BigDecimal`` reads it."""
    parts = _decompose(value)
    if parts is None:
        return decimal.Decimal("-0.0" if math.copysign(1.0, value) < 0 else "0.0")
    negative, digits, dec_exponent = parts
    return decimal.Decimal((int(negative), tuple(map(int, digits)), dec_exponent - len(digits)))


def java_double_text(value: float) -> str:
    """``Double.toString(value)`` as Java 17 writes it (``1.0E10``, ``0.001``, ``NaN``, ``-Infinity``)."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    parts = _decompose(value)
    if parts is None:
        return "-0.0" if math.copysign(1.0, value) < 0 else "0.0"
    negative, digits, dec_exponent = parts
    sign = "-" if negative else ""
    if 0 < dec_exponent < 8:
        whole, rest = digits[:dec_exponent], digits[dec_exponent:]
        return f"{sign}{whole.ljust(dec_exponent, '0')}.{rest or '0'}"
    if -3 < dec_exponent <= 0:
        return f"{sign}0.{'0' * -dec_exponent}{digits}"
    return f"{sign}{digits[0]}.{digits[1:] or '0'}E{dec_exponent - 1}"
