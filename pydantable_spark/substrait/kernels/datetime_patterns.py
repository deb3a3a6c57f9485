"""Spark's datetime patterns (``yyyy-MM-dd HH:mm:ss.SSS``): one formatter and one parser for the kernels.

Spark 3+ formats and parses with ``java.time``'s ``DateTimeFormatter``, built
from the pattern by its ``DateTimeFormatterHelper``: ``y`` is read as the
proleptic year ``u`` unless the pattern has an era ``G``, parsing is strict
(``MM`` takes exactly two digits, the whole text must match, no field out of
range) and case-insensitive, a run of ``S`` parses one to that many digits of
fraction, and a field the text lacks takes Spark's default (1970-01-01
00:00:00). This module implements the letters whose output it can match
exactly; ``refusal`` names any other letter (and the counts Java reads
otherwise), so a call with one runs on Spark.

>>> import datetime
>>> format_pattern("yyyy-MM-dd HH:mm:ss.SSS EEE MMM a XXX", 1709211909123456, datetime.timezone.utc)
'2024-02-29 13:05:09.123 Thu Feb PM Z'
>>> refusal("yyyy-MM-dd VV", parsing=False)
"the pattern letter 'V' (count 2)"
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantable_spark.substrait.kernels.temporal import (
    MICROS_PER_DAY,
    MICROS_PER_SECOND,
    civil_days,
    civil_of,
    instant_micros,
    valid_civil,
    wall_micros,
)

if TYPE_CHECKING:
    import datetime
    from collections.abc import Callable

__all__ = ["ParseFailure", "Parsed", "format_pattern", "formatter", "parser", "refusal", "tokens"]

_MONTHS: tuple[str, ...] = ("January", "February", "March", "April", "May", "June", "July", "August", "September")
_MONTHS += ("October", "November", "December")
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_QUARTERS = ("1st quarter", "2nd quarter", "3rd quarter", "4th quarter")

_FORMAT_COUNTS: dict[str, tuple[int, ...]] = {
    "G": (1, 2, 3, 4),
    "y": (1, 2, 3, 4, 5, 6),
    "M": (1, 2, 3, 4),
    "L": (1, 2, 3, 4),
    "d": (1, 2),
    "D": (1, 2, 3),
    "Q": (1, 2, 3, 4),
    "q": (1, 2),
    "E": (1, 2, 3, 4),
    "a": (1,),
    "h": (1, 2),
    "K": (1, 2),
    "k": (1, 2),
    "H": (1, 2),
    "m": (1, 2),
    "s": (1, 2),
    "S": (1, 2, 3, 4, 5, 6, 7, 8, 9),
    "X": (1, 2, 3),
    "x": (1, 2, 3),
    "Z": (1, 2, 3, 5),
}
"""The letters (and counts) the formatter writes as Spark does (Spark refuses ``GGGGG``, ``MMMMM``, ``EEEEE``)."""

_PARSE_COUNTS: dict[str, tuple[int, ...]] = {
    "y": (1, 2, 3, 4),
    "M": (1, 2, 3, 4),
    "d": (1, 2),
    "a": (1,),
    "h": (1, 2),
    "K": (1, 2),
    "k": (1, 2),
    "H": (1, 2),
    "m": (1, 2),
    "s": (1, 2),
    "S": (1, 2, 3, 4, 5, 6, 7, 8, 9),
    "X": (1, 2, 3),
    "x": (1, 2, 3),
    "Z": (1, 2, 3),
}
"""The letters (and counts) the parser reads as Spark does."""


@dataclass(frozen=True, slots=True)
class Token:
    """A run of one pattern letter (``letter``, ``count``), or literal text (``letter`` empty)."""

    letter: str
    count: int = 0
    text: str = ""


@functools.cache
def tokens(pattern: str) -> tuple[Token, ...]:
    """The pattern as letter runs and literal text (``'...'`` quoted, ``''`` a quote); ``[``/``]`` kept as text."""
    found: list[Token] = []
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "'":
            end = i + 1
            text: list[str] = []
            while end < len(pattern):
                if pattern[end] == "'":
                    if pattern[end + 1 : end + 2] == "'":
                        text.append("'")
                        end += 2
                        continue
                    break
                text.append(pattern[end])
                end += 1
            found.append(Token("", 0, "".join(text) if end > i + 1 else "'"))
            i = end + 1
        elif char.isascii() and char.isalpha():
            end = i
            while end < len(pattern) and pattern[end] == char:
                end += 1
            found.append(Token(char, end - i))
            i = end
        else:
            found.append(Token("", 0, char))
            i += 1
    return tuple(found)


def refusal(pattern: str, *, parsing: bool) -> str | None:
    """What of ``pattern`` this module does not format (or parse) as Spark does, or None.

    >>> refusal("yyyy-MM-dd", parsing=True) is None, refusal("EEE d", parsing=True)
    (True, "the pattern letter 'E' (count 3)")
    """
    counts = _PARSE_COUNTS if parsing else _FORMAT_COUNTS
    for token in tokens(pattern):
        if not token.letter and token.text in ("[", "]", "#", "{", "}"):
            return f"the optional section or reserved character {token.text!r}"
        if token.letter and token.count not in counts.get(token.letter, ()):
            return f"the pattern letter {token.letter!r} (count {token.count})"
    if not parsing:
        return None
    letters = [t.letter for t in tokens(pattern) if t.letter]
    if len(set(letters)) != len(letters):
        return "a pattern letter twice"
    if "a" in letters and not {"h", "K"} & set(letters):
        return "the pattern letter 'a' without 'h' or 'K'"
    if {"H", "k"} & set(letters) and {"h", "K", "a"} & set(letters):
        return "the hour of the day ('H', 'k') with the hour of the half day ('h', 'K', 'a')"
    return None


# --- formatting ------------------------------------------------------------------------------------------


def _pad(value: int, width: int, *, exceeds: bool = False) -> str:
    digits = str(abs(value)).rjust(width, "0")
    if value < 0:
        return "-" + digits
    return "+" + digits if exceeds and len(digits) > width else digits


def _offset_text(seconds: int, *, colon: bool, minutes: str, zero: str | None, with_seconds: bool = False) -> str:
    """An offset as Java's ``appendOffset``.

    ``minutes`` is "always" or "optional" (when non-zero); seconds are written if asked and non-zero (local
    mean times: ``-04:56:02``).
    """
    if seconds == 0 and zero is not None:
        return zero
    sign = "-" if seconds < 0 else "+"
    total = abs(seconds)
    hours, mins = total // 3600, total // 60 % 60
    text = f"{sign}{hours:02d}"
    if minutes == "always" or mins:
        text += (":" if colon else "") + f"{mins:02d}"
    if with_seconds and total % 60:
        text += (":" if colon else "") + f"{total % 60:02d}"
    return text


def _field_text(token: Token, wall: int, offset: int, *, era: bool) -> str:
    """One letter run of ``token`` for the wall-clock micros ``wall`` at UTC offset ``offset`` (seconds)."""
    days, time = divmod(wall, MICROS_PER_DAY)
    year, month, day = civil_of(days)
    letter, count = token.letter, token.count
    hour = time // 3_600_000_000
    if letter == "G":
        names = ("BC", "AD") if count <= 3 else ("Before Christ", "Anno Domini")
        return names[year > 0]
    if letter == "y":
        shown = (year if year > 0 else 1 - year) if era else year
        if count == 2:
            return f"{shown % 100:02d}"
        return _pad(shown, count, exceeds=count >= 4)
    if letter in "ML":
        if count <= 2:
            return _pad(month, count)
        name = _MONTHS[month - 1]
        return name[:3] if count == 3 else name
    if letter == "d":
        return _pad(day, count)
    if letter == "D":
        return _pad(days - civil_days(year, 1, 1) + 1, count)
    if letter in "Qq":
        quarter = (month + 2) // 3
        return _pad(quarter, count) if count <= 2 else f"Q{quarter}" if count == 3 else _QUARTERS[quarter - 1]
    if letter == "E":
        name = _DAYS[(days + 3) % 7]
        return name[:3] if count <= 3 else name
    if letter == "a":
        return "AM" if hour < 12 else "PM"
    clock = {"h": (hour % 12) or 12, "K": hour % 12, "k": hour or 24, "H": hour}
    if letter in clock:
        return _pad(clock[letter], count)
    if letter == "m":
        return _pad(time // 60_000_000 % 60, count)
    if letter == "s":
        return _pad(time // MICROS_PER_SECOND % 60, count)
    if letter == "S":
        return f"{time % MICROS_PER_SECOND:06d}000"[:count]
    if letter == "X":
        minutes = ("optional", "always", "always")[count - 1]
        return _offset_text(offset, colon=count == 3, minutes=minutes, zero="Z")
    if letter == "x":
        minutes = ("optional", "always", "always")[count - 1]
        return _offset_text(offset, colon=count == 3, minutes=minutes, zero=None)
    assert letter == "Z"
    if count == 5:
        return _offset_text(offset, colon=True, minutes="always", zero="Z", with_seconds=True)
    return _offset_text(offset, colon=False, minutes="always", zero=None)


def formatter(pattern: str) -> Callable[[int, datetime.tzinfo], str]:
    """The function writing an instant (micros) in ``zone`` as ``pattern`` does (``refusal`` is None for it)."""
    parts = tokens(pattern)
    era = any(t.letter == "G" for t in parts)
    offsets = any(t.letter in "XxZ" for t in parts)

    def run(micros: int, zone: datetime.tzinfo) -> str:
        wall = wall_micros(micros, zone)
        offset = (wall - micros) // MICROS_PER_SECOND if offsets else 0
        return "".join(_field_text(t, wall, offset, era=era) if t.letter else t.text for t in parts)

    return run


def format_pattern(pattern: str, micros: int, zone: datetime.tzinfo) -> str:
    """``micros`` (an instant) shown in ``zone`` with ``pattern``."""
    return formatter(pattern)(micros, zone)


# --- parsing ------------------------------------------------------------------------------------------------


class ParseFailure(ValueError):
    """The text does not match the pattern, or names a date or time that does not exist."""


@dataclass(frozen=True, slots=True)
class Parsed:
    """What a pattern read from a text: the wall-clock micros and the UTC offset it named (seconds), if any."""

    wall: int
    offset: int | None

    def instant(self, zone: datetime.tzinfo) -> int:
        """The instant: at the parsed offset, else the wall clock read in ``zone``."""
        if self.offset is not None:
            return self.wall - self.offset * MICROS_PER_SECOND
        return instant_micros(self.wall, zone)


def _widths(token: Token) -> tuple[int, int, str]:
    """(min digits, max digits, sign style) of a numeric letter run, as ``appendPattern`` builds it."""
    letter, count = token.letter, token.count
    if letter == "y":
        if count == 2:
            return 2, 2, "reduced"
        return (count, 19, "exceeds") if count >= 4 else (count, 19, "normal")
    if letter == "S":
        return 1, count, "fraction"
    return (1, 19, "normal") if count == 1 else (count, count, "not_negative")


def _numeric(token: Token) -> bool:
    return token.letter in "yMdhKkHmsS" and not (token.letter == "M" and token.count >= 3)


def parser(pattern: str) -> Callable[[str], Parsed]:
    """The function reading a text as ``pattern`` does (``refusal(pattern, parsing=True)`` is None)."""
    parts = tokens(pattern)
    # adjacent value parsing: a variable-width number followed by fixed-width ones leaves them their digits
    reserved = [0] * len(parts)
    for index, token in enumerate(parts):
        if token.letter and _numeric(token):
            width = 0
            for after in parts[index + 1 :]:
                if not (after.letter and _numeric(after)):
                    break
                low, high, _ = _widths(after)
                if low != high:
                    break
                width += high
            reserved[index] = width

    def run(text: str) -> Parsed:
        fields: dict[str, int] = {}
        offset: int | None = None
        position = 0
        for index, token in enumerate(parts):
            if not token.letter:
                end = position + len(token.text)
                if text[position:end].lower() != token.text.lower():
                    raise ParseFailure(text)
                position = end
            elif _numeric(token):
                position = _read_number(text, position, token, reserved[index], fields)
            elif token.letter == "M":
                names = [m[:3] if token.count == 3 else m for m in _MONTHS]
                position = _read_name(text, position, names, "M", fields)
            elif token.letter == "a":
                position = _read_name(text, position, ["AM", "PM"], "a", fields)
            else:
                position, offset = _read_offset(text, position, token)
        if position != len(text):
            raise ParseFailure(text)
        return Parsed(_resolve(fields), offset)

    return run


def _read_number(text: str, position: int, token: Token, reserved: int, fields: dict[str, int]) -> int:
    low, high, style = _widths(token)
    negative = False
    start = position
    if style in ("normal", "exceeds") and position < len(text) and text[position] in "+-":
        if text[position] == "+" and style == "normal":
            raise ParseFailure(text)
        negative = text[position] == "-"
        position += 1
    end = position
    limit = high + reserved
    while end < len(text) and end - position < limit and "0" <= text[end] <= "9":
        end += 1
    if reserved:  # Java's second pass: leave the fixed-width numbers after this one their digits
        end = position + min(end - position, max(low, end - position - reserved), high)
    digits = text[position:end]
    if len(digits) < low:
        raise ParseFailure(text)
    if style == "exceeds" and start == position and len(digits) > low:
        raise ParseFailure(text)
    if style == "exceeds" and start != position and not negative and len(digits) <= low:
        raise ParseFailure(text)
    if token.letter == "S":
        fields["S"] = int(digits.ljust(9, "0")[:6])
        return end
    value = -int(digits) if negative else int(digits)
    if style == "reduced":
        value += 2000
    key = token.letter
    if key in fields and fields[key] != value:
        raise ParseFailure(text)
    fields[key] = value
    return end


def _read_name(text: str, position: int, names: list[str], key: str, fields: dict[str, int]) -> int:
    for index, name in enumerate(names):
        if text[position : position + len(name)].lower() == name.lower():
            fields[key] = index + 1 if key == "M" else index
            return position + len(name)
    raise ParseFailure(text)


def _read_offset(text: str, position: int, token: Token) -> tuple[int, int]:
    letter, count = token.letter, token.count
    if letter == "X" and text[position : position + 1] in ("Z", "z"):
        return position + 1, 0
    if letter == "Z":
        count = 2  # +HHMM
    colon = count == 3
    pattern = r"([+-])(\d\d)" + ("" if count == 1 else (":" if colon else "") + r"(\d\d)")
    if count == 1:
        pattern += r"(\d\d)?"
    found = re.compile(pattern).match(text, position)
    if found is None:
        raise ParseFailure(text)
    sign = -1 if found.group(1) == "-" else 1
    hours, minutes = int(found.group(2)), int(found.group(3) or 0)
    if hours > 18 or minutes > 59:
        raise ParseFailure(text)
    return found.end(), sign * (hours * 3600 + minutes * 60)


def _resolve(fields: dict[str, int]) -> int:
    """The wall-clock micros of the parsed fields, with Spark's defaults; ``ParseFailure`` where none exists."""
    year, month, day = fields.get("y", 1970), fields.get("M", 1), fields.get("d", 1)
    if not (1 <= month <= 12 and 1 <= day <= 31) or not valid_civil(year, month, day):
        raise ParseFailure(str(fields))
    if "H" in fields:
        hour = fields["H"]
        if not 0 <= hour <= 23:
            raise ParseFailure(str(fields))
    elif "k" in fields:
        if not 1 <= fields["k"] <= 24:
            raise ParseFailure(str(fields))
        hour = fields["k"] % 24
    elif "h" in fields or "K" in fields:
        if "h" in fields and not 1 <= fields["h"] <= 12:
            raise ParseFailure(str(fields))
        if "K" in fields and not 0 <= fields["K"] <= 11:
            raise ParseFailure(str(fields))
        hour = fields["h"] % 12 if "h" in fields else fields["K"]
        hour += 12 * fields.get("a", 0)
    else:
        hour = 0
    minute, second = fields.get("m", 0), fields.get("s", 0)
    if not (0 <= minute <= 59 and 0 <= second <= 59):
        raise ParseFailure(str(fields))
    clock = ((hour * 60 + minute) * 60 + second) * MICROS_PER_SECOND + fields.get("S", 0)
    return civil_days(year, month, day) * MICROS_PER_DAY + clock
