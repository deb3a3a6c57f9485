"""Java's ``java.util.Formatter`` (Locale.US) for Spark's ``format_string``/``printf``: a subset, exactly.

Spark passes its own values to the formatter: a string, a ``java.lang``
number or boolean, a ``Decimal`` (printed by ``%s`` as ``BigDecimal.toString``),
a date as its day number, a timestamp as its microseconds. ``parse`` reads a
format into pieces and raises ``Unsupported`` for what is not computed here
(``%e``, ``%g``, ``%a``, ``%c``, ``%h``, ``%t``, ``%S``, the ``#`` flag on
``%s``/``%d``, ``<``); ``render`` fills it, failing where Java fails (a
conversion the argument's type does not take, a missing argument).

>>> render(parse("%5.2f|%-4d|%x|%s"), [2.675, 7, -1, 1e10], ["double", "int", "int", "double"])
' 2.68|7   |ffffffff|1.0E10'
"""

from __future__ import annotations

import datetime
import decimal
import math
import re
from dataclasses import dataclass
from typing import Any

from pydantable_spark.substrait.kernels.math import float32_text
from pydantable_spark.substrait.kernels.numbers import java_double_text
from pydantable_spark.substrait.kernels.spec import SparkError

__all__ = ["JAVA_FORMAT_ERROR", "Spec", "Unsupported", "java_digits", "java_double_string", "parse", "render"]

JAVA_FORMAT_ERROR = "java.util.IllegalFormatException"
"""What Spark fails with on a format Java rejects (a Java exception, no Spark error class)."""

_SPEC = re.compile(r"%(\d+\$)?([-#+ 0,(<]*)?(\d+)?(\.\d+)?([tT])?([a-zA-Z%])")
_WIDTHS = {"tinyint": 8, "smallint": 16, "int": 32, "bigint": 64}


class Unsupported(ValueError):
    """A format (or a part of it) the local engine does not compute as Java does."""


@dataclass(frozen=True, slots=True)
class Spec:
    """One ``%`` conversion: its argument (None: the next one), flags, width, precision and conversion."""

    index: int | None
    flags: str
    width: int | None
    precision: int | None
    conversion: str


def parse(text: str) -> list[str | Spec]:
    """The literal text and conversions of a format; ``Unsupported`` names the first one not computed here."""
    pieces: list[str | Spec] = []
    at = 0
    while at < len(text):
        percent = text.find("%", at)
        if percent < 0:
            pieces.append(text[at:])
            break
        if percent > at:
            pieces.append(text[at:percent])
        found = _SPEC.match(text, percent)
        if found is None:
            msg = f"the format {text!r} ends in an incomplete conversion (Java rejects it)"
            raise Unsupported(msg)
        index, flags, width, precision, time, conversion = found.groups()
        if time or conversion not in "sdfxXobn%" or "#" in (flags or "") or "<" in (flags or ""):
            msg = f"the conversion {found.group()!r} (the local engine formats %s %d %f %x %X %o %b %n %%)"
            raise Unsupported(msg)
        spec = Spec(
            int(index[:-1]) if index else None,
            flags or "",
            int(width) if width else None,
            int(precision[1:]) if precision else None,
            conversion,
        )
        _check_flags(spec, found.group())
        pieces.append(spec)
        at = found.end()
    return pieces


def _check_flags(spec: Spec, written: str) -> None:
    """Java's checks of flags against the conversion (an error there is refused here)."""
    flags, conversion = spec.flags, spec.conversion
    bad = ""
    if len(set(flags)) != len(flags) or ("-" in flags and "0" in flags) or ("+" in flags and " " in flags):
        bad = "repeated or conflicting flags"
    elif ("-" in flags or "0" in flags) and spec.width is None:
        bad = "a '-' or '0' flag without a width"
    elif (conversion in "sbn%" and set(flags) - {"-"}) or (conversion in "xXo" and set(flags) & set("+ (,")):
        bad = f"flags {flags!r} on %{conversion}"
    elif conversion in "dxXo" and spec.precision is not None:
        bad = "a precision on an integer conversion"
    elif conversion == "n" and (spec.width is not None or spec.precision is not None or flags):
        bad = "a width on %n"
    elif conversion == "%" and spec.precision is not None:
        bad = "a precision on %%"
    if bad:
        msg = f"{written!r} has {bad} (Java rejects it)"
        raise Unsupported(msg)


_EXACT_DIGITS_BELOW = 2.0**53
"""Java 17's ``Double.toString`` gives the shortest digits (Python's ``repr``) for normal doubles below 2**53
(measured on 350,000 values); above, it may print more (``2.82879384806159008E17``), and for subnormals other
ones (``4.9E-324``): those are refused."""
_SMALLEST_NORMAL = 2.2250738585072014e-308


def java_digits(value: float, *, fixed_places: int | None = None) -> str:
    """The digits Java 17 prints for the double ``value`` (``Unsupported`` where they may not be ``repr``'s).

    ``fixed_places``: the digits are only rounded to that many places, so a subnormal's do not matter.
    """
    magnitude = abs(value)
    subnormal = 0 < magnitude < _SMALLEST_NORMAL
    if magnitude >= _EXACT_DIGITS_BELOW or (subnormal and (fixed_places is None or fixed_places > 300)):
        msg = f"the double {value!r} (Java 17's Double.toString digits differ from the shortest ones there)"
        raise Unsupported(msg)
    return java_double_text(magnitude)


def java_double_string(value: float, single: bool = False) -> str:
    """Java's ``Double.toString`` (``Float.toString`` for ``single``): plain from 1e-3 to 1e7, else ``1.0E10``.

    >>> java_double_string(1e7), java_double_string(123.0), java_double_string(1e-4), java_double_string(-0.0)
    ('1.0E7', '123.0', '1.0E-4', '-0.0')
    """
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    sign = "-" if math.copysign(1.0, value) < 0 else ""
    magnitude = abs(value)
    if magnitude == 0:
        return f"{sign}0.0"
    digits_text = float32_text(magnitude) if single else java_digits(magnitude)
    number = decimal.Decimal(digits_text)
    if 1e-3 <= magnitude < 1e7:
        plain = f"{number:f}"
        return sign + (plain if "." in plain else plain + ".0")
    _, digits, exponent = number.normalize().as_tuple()
    assert isinstance(exponent, int)
    shown = "".join(map(str, digits))
    power = exponent + len(shown) - 1
    return f"{sign}{shown[0]}.{shown[1:] or '0'}E{power}"


def _fail(message: str) -> None:
    raise SparkError(JAVA_FORMAT_ERROR, message)


def _justify(text: str, spec: Spec) -> str:
    units = len(text.encode("utf-16-le")) // 2
    if spec.width is None or units >= spec.width:
        return text
    padding = " " * (spec.width - units)
    return text + padding if "-" in spec.flags else padding + text


def _grouped(digits: str, spec: Spec) -> str:
    return f"{int(digits):,}" if "," in spec.flags else digits


def _signed(negative: bool, body: str, spec: Spec) -> str:
    """The sign, the magnitude zero-padded to the width (less a ')' taken by ``(``), then ``)``."""
    lead = (
        ("(" if "(" in spec.flags else "-") if negative else ("+" if "+" in spec.flags else " " * (" " in spec.flags))
    )
    trail = ")" if negative and "(" in spec.flags else ""
    if "0" in spec.flags and spec.width is not None:
        body = body.rjust(spec.width - len(trail) - len(lead), "0")
    return lead + body + trail


def _integer(value: int, kind: str, spec: Spec) -> str:
    if spec.conversion == "d":
        return _signed(value < 0, _grouped(str(abs(value)), spec), spec)
    if value < 0:
        value += 1 << _WIDTHS[kind]
    text = format(value, "o" if spec.conversion == "o" else "x")
    text = text.upper() if spec.conversion == "X" else text
    return text.rjust(spec.width, "0") if "0" in spec.flags and spec.width is not None else text


def _fixed(value: float, spec: Spec) -> str:
    if math.isnan(value):
        return "NaN"
    negative = math.copysign(1.0, value) < 0  # -0.0 too (Double.compare)
    if math.isinf(value):
        return _signed(negative, "Infinity", Spec(spec.index, spec.flags.replace("0", ""), None, None, "f"))
    places = 6 if spec.precision is None else spec.precision
    shortest = decimal.Decimal(java_digits(value, fixed_places=places))
    rounded = shortest.quantize(decimal.Decimal(1).scaleb(-places), rounding=decimal.ROUND_HALF_UP)
    whole, _, fraction = f"{rounded:f}".partition(".")
    body = _grouped(whole, spec) + (f".{fraction}" if places else "")
    return _signed(negative, body, spec)


def _text(value: Any, kind: str) -> str:
    """``String.valueOf`` of the Java value Spark passes for a value of SQL type ``kind``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if kind in ("double", "float"):
        return java_double_string(value, single=kind == "float")
    if isinstance(value, datetime.datetime):
        moment = value if value.tzinfo is not None else value.replace(tzinfo=datetime.timezone.utc)
        delta = moment - datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
        return str((delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds)
    if isinstance(value, datetime.date):
        return str((value - datetime.date(1970, 1, 1)).days)
    return str(value)


_JAVA_CLASSES = {
    "string": "org.apache.spark.unsafe.types.UTF8String",
    "decimal": "org.apache.spark.sql.types.Decimal",
    "boolean": "java.lang.Boolean",
    "double": "java.lang.Double",
    "float": "java.lang.Float",
    "date": "java.lang.Integer",
    "timestamp": "java.lang.Long",
    "tinyint": "java.lang.Byte",
    "smallint": "java.lang.Short",
    "int": "java.lang.Integer",
    "bigint": "java.lang.Long",
}
"""The Java class of the value Spark passes for each SQL type the kernel takes."""


def _convert(spec: Spec, value: Any, kind: str) -> str:
    conversion = spec.conversion
    if conversion == "b":
        text = "false" if value is None else ("true" if value else "false") if kind == "boolean" else "true"
    elif value is None:
        text = "null"
    elif conversion == "s":
        text = _text(value, kind)
    elif conversion in "dxXo" and kind in _WIDTHS:
        text = _integer(value, kind, spec)
    elif conversion == "f" and kind in ("double", "float"):
        text = _fixed(value, spec)
    else:
        _fail(f"{conversion} != {_JAVA_CLASSES.get(kind, kind)}")
    if (
        conversion in "sb" or value is None
    ) and spec.precision is not None:  # Java cuts UTF-16 units; a lone surrogate becomes '?'
        cut = text.encode("utf-16-le", "surrogatepass")[: 2 * spec.precision].decode("utf-16-le", "surrogatepass")
        text = "".join("?" if 0xD800 <= ord(c) <= 0xDFFF else c for c in cut)
    return _justify(text, spec)


def render(pieces: list[str | Spec], values: list[Any], kinds: list[str]) -> str:
    """The format filled with ``values`` (of SQL types ``kinds``) as Java's Formatter fills it."""
    out: list[str] = []
    ordinary = 0
    for piece in pieces:
        if isinstance(piece, str):
            out.append(piece)
            continue
        if piece.conversion == "n":
            out.append("\n")
            continue
        if piece.conversion == "%":
            out.append(_justify("%", piece))
            continue
        if piece.index is not None:
            at = piece.index - 1
        else:
            at = ordinary
            ordinary += 1
        if not 0 <= at < len(values):
            _fail(f"Format specifier '%{piece.conversion}'")
        out.append(_convert(piece, values[at], kinds[at]))
    return "".join(out)
