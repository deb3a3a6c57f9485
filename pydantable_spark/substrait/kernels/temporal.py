"""Spark's dates and timestamps as the kernels share them: epoch counts, the session's wall clock, Java's zone rules.

Spark holds a date as days since 1970-01-01 and a timestamp as microseconds
since 1970-01-01 00:00:00 UTC; a ``timestamp_ntz`` is a wall-clock time held the
same way, read as if in UTC. Kernels compute on those counts (Python's
``datetime`` stops at year 9999, Spark's does not) and give back Python values
where they exist (``date_value``, ``timestamp_value``), the count otherwise
(Arrow takes both).

A wall-clock time becomes an instant in a zone as ``java.time`` resolves it
(``ZonedDateTime.ofLocal``): in a gap (a spring-forward hour) it moves later by
the gap's length, in an overlap it takes the earlier offset unless a preferred
one is valid.

>>> import zoneinfo
>>> new_york = zoneinfo.ZoneInfo("America/New_York")
>>> wall = datetime.datetime(2024, 3, 10, 2, 30)  # no such time in New York
>>> timestamp_value(instant_micros(wall, new_york))
datetime.datetime(2024, 3, 10, 7, 30, tzinfo=datetime.timezone.utc)
"""

from __future__ import annotations

import datetime
import functools
import re
import zoneinfo
from typing import TYPE_CHECKING, Any

from pydantable_spark import dtypes as dt

if TYPE_CHECKING:
    from pydantable_spark.substrait.kernels.spec import Site

__all__ = [
    "MICROS_PER_DAY",
    "MICROS_PER_SECOND",
    "UTC",
    "civil_days",
    "civil_of",
    "date_days",
    "date_value",
    "day_of",
    "instant_micros",
    "instant_of",
    "micros_of",
    "ntz_value",
    "parse_date",
    "parse_timestamp",
    "timestamp_value",
    "valid_civil",
    "wall_micros",
    "wall_of",
    "zone_named",
    "zone_offset",
]

UTC = datetime.timezone.utc
MICROS_PER_SECOND = 1_000_000
MICROS_PER_DAY = 86_400 * MICROS_PER_SECOND
_EPOCH_ORDINAL = datetime.date(1970, 1, 1).toordinal()
_EPOCH_WALL = datetime.datetime(1970, 1, 1)
_MIN_DAYS = datetime.date.min.toordinal() - _EPOCH_ORDINAL
_MAX_DAYS = datetime.date.max.toordinal() - _EPOCH_ORDINAL
_FIRST_SAFE = (_MIN_DAYS + 2) * 86_400_000_000
_LAST_SAFE = (_MAX_DAYS - 2) * 86_400_000_000


def day_of(value: datetime.date) -> int:
    """Days since 1970-01-01 of a date."""
    return value.toordinal() - _EPOCH_ORDINAL


def date_value(days: int) -> datetime.date | int:
    """The date ``days`` after 1970-01-01 (the count itself past Python's years 1-9999)."""
    if _MIN_DAYS <= days <= _MAX_DAYS:
        return datetime.date.fromordinal(days + _EPOCH_ORDINAL)
    return days


def micros_of(value: datetime.datetime) -> int:
    """Microseconds since the epoch: of an instant (aware), or of a wall-clock time read as UTC (naive)."""
    wall = value.astimezone(UTC).replace(tzinfo=None) if value.tzinfo is not None else value
    delta = wall - _EPOCH_WALL
    return (delta.days * 86_400 + delta.seconds) * MICROS_PER_SECOND + delta.microseconds


def ntz_value(micros: int) -> datetime.datetime | int:
    """The wall-clock time ``micros`` after 1970-01-01 00:00 (the count itself past Python's range)."""
    days, rest = divmod(micros, MICROS_PER_DAY)
    if not _MIN_DAYS <= days <= _MAX_DAYS:
        return micros
    return datetime.datetime.combine(date_value(days), datetime.time()) + datetime.timedelta(microseconds=rest)  # type: ignore[arg-type]


def timestamp_value(micros: int) -> datetime.datetime | int:
    """The instant ``micros`` after the epoch, an aware UTC ``datetime`` (the count past Python's range)."""
    wall = ntz_value(micros)
    return wall.replace(tzinfo=UTC) if isinstance(wall, datetime.datetime) else wall


def wall_micros(micros: int, zone: datetime.tzinfo) -> int:
    """The wall-clock time (as microseconds read as UTC) that the instant ``micros`` shows in ``zone``."""
    if zone is UTC:
        return micros
    return micros + _micros(zone_offset(micros, zone))


def _micros(delta: datetime.timedelta) -> int:
    return (delta.days * 86_400 + delta.seconds) * MICROS_PER_SECOND + delta.microseconds


_CYCLE = 146_097 * MICROS_PER_DAY
"""400 Gregorian years: the calendar, weekdays included, repeats, and so do a zone's yearly rules."""


def _in_range(micros: int) -> int:
    """``micros`` moved by whole 400-year cycles into Python's years (offsets before year 1 are local mean time)."""
    if micros > _LAST_SAFE:
        return micros - -(-(micros - _LAST_SAFE) // _CYCLE) * _CYCLE
    if micros < _FIRST_SAFE:
        return micros + -(-(_FIRST_SAFE - micros) // _CYCLE) * _CYCLE
    return micros


def zone_offset(micros: int, zone: datetime.tzinfo) -> datetime.timedelta:
    """The offset from UTC ``zone`` has at the instant ``micros`` (any year: see ``_in_range``)."""
    if isinstance(zone, datetime.timezone):
        return zone.utcoffset(None)
    wall = ntz_value(_in_range(micros))
    assert isinstance(wall, datetime.datetime)
    offset = wall.replace(tzinfo=UTC).astimezone(zone).utcoffset()
    assert offset is not None
    return offset


def instant_micros(
    wall: datetime.datetime | int, zone: datetime.tzinfo, preferred: datetime.timedelta | None = None
) -> int:
    """The instant at which ``zone`` shows the wall-clock time ``wall`` (a naive ``datetime`` or its micros).

    As Java's ``ZonedDateTime.ofLocal``: a time in a gap moves later by the gap; in an overlap the
    ``preferred`` offset if it is one of the two, else the earlier (the offset before the change).
    """
    micros = wall if isinstance(wall, int) else micros_of(wall)
    if zone is UTC:
        return micros
    if isinstance(zone, datetime.timezone):
        return micros - _micros(zone.utcoffset(None))
    if not _FIRST_SAFE <= micros <= _LAST_SAFE:  # the same wall clock 400 years (one calendar cycle) nearer
        moved = _in_range(micros)
        return instant_micros(moved, zone, preferred) + (micros - moved)
    naive = ntz_value(micros)
    assert isinstance(naive, datetime.datetime)
    offsets = [naive.replace(tzinfo=zone, fold=f).utcoffset() for f in (0, 1)]
    valid = [o for o in offsets if o is not None and wall_micros(micros - _micros(o), zone) == micros]
    if not valid:  # a gap: the offset before it, which lands past the gap by its length
        before = offsets[0]
        assert before is not None
        return micros - _micros(before)
    if preferred is not None and preferred in valid:
        return micros - _micros(preferred)
    return micros - _micros(max(valid))  # in an overlap the earlier instant: the larger offset


def wall_of(value: Any, dtype: dt.DType, site: Site) -> int:
    """The wall-clock micros Spark reads a value's fields from: a date's midnight, an instant in the session zone."""
    if isinstance(dtype, dt.Date):
        return day_of(value) * MICROS_PER_DAY
    if isinstance(dtype, dt.DatetimeNTZ):
        return micros_of(value)
    return wall_micros(micros_of(value), site.session.tzinfo)


def instant_of(value: Any, dtype: dt.DType, site: Site) -> int:
    """A value as the instant Spark casts it to (``CAST(x AS TIMESTAMP)``): dates, wall clocks in the session zone."""
    if isinstance(dtype, dt.Datetime):
        return micros_of(value)
    return instant_micros(wall_of(value, dtype, site), site.session.tzinfo)


def date_days(value: Any, dtype: dt.DType, site: Site) -> int:
    """A value as the date Spark casts it to (``CAST(x AS DATE)``), in days: an instant's date in the session zone."""
    if isinstance(dtype, dt.Date):
        return day_of(value)
    return wall_of(value, dtype, site) // MICROS_PER_DAY


def civil_days(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date, for any year (no check: see ``valid_civil``).

    >>> civil_days(1970, 1, 1), civil_days(2000, 3, 1), civil_days(0, 1, 1)
    (0, 11017, -719528)
    """
    y = year - (month <= 2)
    era = y // 400
    year_of_era = y - era * 400
    day_of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146097 + day_of_era - 719468


def valid_civil(year: int, month: int, day: int) -> bool:
    """Whether the date exists (Java's ``LocalDate.of``, years -999999999 to 999999999)."""
    if not (-999_999_999 <= year <= 999_999_999 and 1 <= month <= 12 and day >= 1):
        return False
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return day <= (31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)[month - 1]


def civil_of(days: int) -> tuple[int, int, int]:
    """(year, month, day) of a day count, for any year.

    >>> civil_of(0), civil_of(-719528)
    ((1970, 1, 1), (0, 1, 1))
    """
    z = days + 719468
    era = z // 146097
    day_of_era = z - era * 146097
    year_of_era = (day_of_era - day_of_era // 1460 + day_of_era // 36524 - day_of_era // 146096) // 365
    day_of_year = day_of_era - (365 * year_of_era + year_of_era // 4 - year_of_era // 100)
    mp = (5 * day_of_year + 2) // 153
    day = day_of_year - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    return year_of_era + era * 400 + (month <= 2), month, day


# --- time zone names and Spark's own datetime texts ------------------------------------------------------

INVALID_TIMEZONE = "INVALID_TIMEZONE"

_SHORT_IDS = {
    "EST": "-05:00", "MST": "-07:00", "HST": "-10:00", "ACT": "Australia/Darwin", "AET": "Australia/Sydney",
    "AGT": "America/Argentina/Buenos_Aires", "ART": "Africa/Cairo", "AST": "America/Anchorage",
    "BET": "America/Sao_Paulo", "BST": "Asia/Dhaka", "CAT": "Africa/Harare", "CNT": "America/St_Johns",
    "CST": "America/Chicago", "CTT": "Asia/Shanghai", "EAT": "Africa/Addis_Ababa", "ECT": "Europe/Paris",
    "IET": "America/Indiana/Indianapolis", "IST": "Asia/Kolkata", "JST": "Asia/Tokyo", "MIT": "Pacific/Apia",
    "NET": "Asia/Yerevan", "NST": "Pacific/Auckland", "PLT": "Asia/Karachi", "PNT": "America/Phoenix",
    "PRT": "America/Puerto_Rico", "PST": "America/Los_Angeles", "SST": "Pacific/Guadalcanal",
    "VST": "Asia/Ho_Chi_Minh",
}  # fmt: skip
"""Java's ``ZoneId.SHORT_IDS``, which Spark's ``getZoneId`` reads three-letter names with."""

_OFFSET_ID = re.compile(r"(?:UTC|GMT|UT)?([+-])(\d{1,2})(?::?(\d\d))?(?::?(\d\d))?")


@functools.cache
def zone_named(name: str) -> datetime.tzinfo:
    """A time zone as Spark's ``getZoneId`` reads its ID: a region, ``UTC``/``Z``, an offset, a short ID.

    An unknown ID is Spark's ``INVALID_TIMEZONE`` error.
    """
    from pydantable_spark.substrait.kernels.spec import SparkError

    text = _SHORT_IDS.get(name, name)
    if text in ("Z", "UTC", "GMT", "UT", "UTC0", "GMT0"):
        return UTC
    found = _OFFSET_ID.fullmatch(text)
    if found is not None:
        sign = -1 if found.group(1) == "-" else 1
        hours, minutes, seconds = (int(g or 0) for g in found.groups()[1:])
        if hours <= 18 and minutes < 60 and seconds < 60:
            return datetime.timezone(sign * datetime.timedelta(hours=hours, minutes=minutes, seconds=seconds))
    elif text[:1].isalpha():
        try:
            return zoneinfo.ZoneInfo(text)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            pass
    msg = f"The datetime zone id '{name}' is not valid"
    raise SparkError(INVALID_TIMEZONE, msg)


def _trimmed(text: str) -> str:
    start, end = 0, len(text)
    while start < end and (ord(text[start]) <= 32 or text[start] == "\x7f"):
        start += 1
    while end > start and (ord(text[end - 1]) <= 32 or text[end - 1] == "\x7f"):
        end -= 1
    return text[start:end]


def parse_date(text: str) -> int | None:
    """A text as Spark casts it to a date (``yyyy``, ``yyyy-[m]m``, ``yyyy-[m]m-[d]d[( |T)...]``), or None.

    >>> parse_date(" 2024-2-29T10:00 "), parse_date("2024-02-30"), parse_date("24-01-01")
    (19782, None, None)
    """
    body = _trimmed(text)
    if not body:
        return None
    sign = 1
    if body[0] in "+-":
        sign = -1 if body[0] == "-" else 1
        body = body[1:]
    segments = [1, 1, 1]
    index, value, digits, position = 0, 0, 0, 0
    while position < len(body) and index < 3 and body[position] not in " T":
        char = body[position]
        if index < 2 and char == "-":
            if not _date_digits(index, digits):
                return None
            segments[index], value, digits = value, 0, 0
            index += 1
        elif "0" <= char <= "9":
            value, digits = value * 10 + int(char), digits + 1
        else:
            return None
        position += 1
    if not _date_digits(index, digits) or (index < 2 and position < len(body)):
        return None
    segments[index] = value
    year, month, day = sign * segments[0], segments[1], segments[2]
    return civil_days(year, month, day) if valid_civil(year, month, day) else None


def _date_digits(segment: int, digits: int) -> bool:
    return 4 <= digits <= 7 if segment == 0 else 0 < digits <= 2


def parse_timestamp(text: str, zone: datetime.tzinfo, *, ntz: bool = False) -> int | None:
    """A text as Spark casts it to a timestamp (micros; read in ``zone`` unless it names one), or None.

    The forms are ``[+-]yyyy[-[m]m[-[d]d]]`` with a time ``[h]h:[m]m[:[s]s[.fraction]]`` after a space
    or ``T``, then a zone (``Z``, an offset, a region ID); for ``ntz`` the zone is read and ignored.

    >>> parse_timestamp("2024-02-29 13:05:09.1234567Z", UTC)
    1709211909123456
    """
    body = _trimmed(text)
    if not body:
        return None
    segments = [1, 1, 1, 0, 0, 0, 0, 0, 0]
    index, value, digits, fraction_digits, position = 0, 0, 0, 0, 0
    just_time = False
    sign: int | None = None
    zone_text: str | None = None
    if body[0] in "+-":
        sign = -1 if body[0] == "-" else 1
        position = 1
    while position < len(body):
        char = body[position]
        if "0" <= char <= "9":
            if index == 6:
                fraction_digits += 1
            if index != 6 or digits < 6:
                value = value * 10 + int(char)
            digits += 1
        elif position == 0 and char == "T":
            just_time = True
            index += 3
        elif index < 2:
            if char == "-":
                if not _time_digits(index, digits):
                    return None
                segments[index], value, digits = value, 0, 0
                index += 1
            elif index == 0 and char == ":" and sign is None:
                just_time = True
                if not _time_digits(3, digits):
                    return None
                segments[3], value, digits = value, 0, 0
                index = 4
            else:
                return None
        elif index == 2:
            if char not in " T" or not _time_digits(index, digits):
                return None
            segments[index], value, digits = value, 0, 0
            index += 1
        elif index in (3, 4):
            if char != ":" or not _time_digits(index, digits):
                return None
            segments[index], value, digits = value, 0, 0
            index += 1
        elif index in (5, 6):
            if not _time_digits(index, digits):
                return None
            segments[index], value, digits = value, 0, 0
            index += 1
            if char == "." and index == 6:
                pass
            else:
                zone_text = body[position:]
                position = len(body)
                if index == 6:
                    index += 1
                break
        else:
            return None
        position += 1
    if zone_text is None:
        if not _time_digits(index, digits):
            return None
        segments[index] = value
    while fraction_digits < 6:
        segments[6] *= 10
        fraction_digits += 1
    if zone_text is not None:
        try:
            zone_of_text = zone_named(_spark_zone_text(zone_text.strip()))
        except Exception:
            return None
        if not ntz:
            zone = zone_of_text
    year = segments[0] * (sign or 1)
    hour, minute, second = segments[3], segments[4], segments[5]
    if not (0 <= hour < 24 and 0 <= minute < 60 and 0 <= second < 60):
        return None
    if just_time:
        today = datetime.datetime.now(zone if not ntz else UTC).date()
        year, month, day = today.year, today.month, today.day
    else:
        month, day = segments[1], segments[2]
        if not valid_civil(year, month, day):
            return None
    wall = civil_days(year, month, day) * MICROS_PER_DAY + (
        ((hour * 60 + minute) * 60 + second) * MICROS_PER_SECOND + segments[6]
    )
    return wall if ntz else instant_micros(wall, zone)


def _time_digits(segment: int, digits: int) -> bool:
    if segment == 0:
        return 4 <= digits <= 6
    if segment == 6:
        return True
    if segment == 7:
        return digits <= 2
    return 0 < digits <= 2


def _spark_zone_text(text: str) -> str:
    """Spark's ``getZoneId`` rewrites of the pre-3.0 forms ``+h:mm`` and ``+hh:m``."""
    text = re.sub(r"^([+-])(\d):", r"\g<1>0\2:", text, count=1)
    return re.sub(r"([+-]\d\d):(\d)$", r"\1:0\2", text, count=1)
