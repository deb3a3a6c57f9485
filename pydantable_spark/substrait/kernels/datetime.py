"""Kernels of the catalog's datetime functions (see ``spec`` for what a kernel is).

Spark reads a timestamp's calendar fields in the session time zone: a function
of dates given a timestamp casts it to a date there, a function of timestamps
given a date takes the date's midnight there, and a ``timestamp_ntz`` given
where a timestamp is wanted is read as a wall-clock time there
(``temporal.instant_of``). ``timestamp_add`` adds days and months on the wall
clock (``java.time``'s ``plusDays``) and hours and smaller units to the instant;
``timestamp_diff`` counts every unit on the wall clock (``LocalDateTime.until``).

>>> dayofweek_of(0), iso_week(civil_days(2021, 1, 3))
(5, (2020, 53))
"""

from __future__ import annotations

import datetime
import decimal
import math
from typing import TYPE_CHECKING, Any

from pydantable_spark import dtypes as dt
from pydantable_spark.substrait.kernels import datetime_patterns as patterns
from pydantable_spark.substrait.kernels.casts import double_to_decimal
from pydantable_spark.substrait.kernels.numbers import fit_decimal
from pydantable_spark.substrait.kernels.spec import ARITHMETIC_OVERFLOW, Scalar, SparkError
from pydantable_spark.substrait.kernels.temporal import (
    MICROS_PER_DAY,
    MICROS_PER_SECOND,
    UTC,
    civil_days,
    civil_of,
    date_days,
    date_value,
    day_of,
    instant_micros,
    instant_of,
    micros_of,
    ntz_value,
    timestamp_value,
    valid_civil,
    wall_micros,
    wall_of,
    zone_named,
    zone_offset,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from pydantable_spark.expr.call import Call
    from pydantable_spark.substrait.kernels.spec import Site

__all__ = ["KERNELS", "dayofweek_of", "iso_week"]

DATETIME_OVERFLOW = "DATETIME_OVERFLOW"
DATETIME_FIELD_OUT_OF_BOUNDS = "DATETIME_FIELD_OUT_OF_BOUNDS"
INVALID_FRACTION_OF_SECOND = "INVALID_FRACTION_OF_SECOND"
ILLEGAL_DAY_OF_WEEK = "ILLEGAL_DAY_OF_WEEK"

# --- calendar arithmetic on day counts --------------------------------------------------------------


def dayofweek_of(days: int) -> int:
    """Spark's ``dayofweek``: Sunday = 1 ... Saturday = 7 (1970-01-01 was a Thursday)."""
    return (days + 4) % 7 + 1


def _weekday(days: int) -> int:
    """Monday = 0 ... Sunday = 6."""
    return (days + 3) % 7


def iso_week(days: int) -> tuple[int, int]:
    """(ISO week-based year, ISO week) of a date: the week holding the date's Thursday."""
    thursday = days - _weekday(days) + 3
    year = civil_of(thursday)[0]
    return year, (thursday - civil_days(year, 1, 1)) // 7 + 1


def _last_of_month(year: int, month: int) -> int:
    return civil_days(year + month // 12, month % 12 + 1, 1) - civil_days(year, month, 1)


def add_months(days: int, months: int) -> int:
    """``LocalDate.plusMonths``: the same day of the month ``months`` later, clamped to its last day."""
    year, month, day = civil_of(days)
    total = year * 12 + month - 1 + months
    new_year, new_month = divmod(total, 12)
    return civil_days(new_year, new_month + 1, min(day, _last_of_month(new_year, new_month + 1)))


def _months_until(start: int, end: int) -> int:
    """``LocalDate.until(end, MONTHS)``: whole months, truncated toward zero."""
    y1, m1, d1 = civil_of(start)
    y2, m2, d2 = civil_of(end)
    packed1, packed2 = (y1 * 12 + m1 - 1) * 32 + d1, (y2 * 12 + m2 - 1) * 32 + d2
    return int((packed2 - packed1) / 32) if abs(packed2 - packed1) < 2**52 else (packed2 - packed1) // 32


def _truncated_days(days: int, level: str) -> int:
    """Spark's ``truncDate``: the first day of the date's year, quarter, month or (Monday) week."""
    year, month, _ = civil_of(days)
    if level in ("year", "yyyy", "yy"):
        return civil_days(year, 1, 1)
    if level == "quarter":
        return civil_days(year, month - (month - 1) % 3, 1)
    if level in ("month", "mon", "mm"):
        return civil_days(year, month, 1)
    assert level == "week"
    return days - _weekday(days)


def _checked_date(days: int) -> datetime.date | int:
    if not -(2**31) <= days < 2**31:
        msg = f"the date {days} days after 1970-01-01 is out of range"
        raise SparkError(DATETIME_OVERFLOW, msg)
    return date_value(days)


# --- makers ------------------------------------------------------------------------------------------


def _of_date(compute: Callable[[int], Any]) -> Callable[[Site], Callable[..., Any]]:
    """A function of its first argument's date (a timestamp's date in the session zone)."""

    def make(site: Site) -> Callable[..., Any]:
        dtype = site.args[0].dtype
        return lambda value, *_: compute(date_days(value, dtype, site))

    return make


def _of_clock(compute: Callable[[int], Any]) -> Callable[[Site], Callable[..., Any]]:
    """A function of its first argument's wall-clock micros (a date's midnight, an instant in the session zone)."""

    def make(site: Site) -> Callable[..., Any]:
        dtype = site.args[0].dtype
        return lambda value, *_: compute(wall_of(value, dtype, site))

    return make


_DAY_NAMES = ("Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat")
_MONTH_NAMES = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _second_with_fraction(wall: int) -> decimal.Decimal:
    return decimal.Decimal(wall % (60 * MICROS_PER_SECOND)).scaleb(-6)


_FIELDS: dict[str, Callable[[int], Any]] = {
    "year": lambda w: civil_of(w // MICROS_PER_DAY)[0],
    "yearofweek": lambda w: iso_week(w // MICROS_PER_DAY)[0],
    "quarter": lambda w: (civil_of(w // MICROS_PER_DAY)[1] + 2) // 3,
    "month": lambda w: civil_of(w // MICROS_PER_DAY)[1],
    "week": lambda w: iso_week(w // MICROS_PER_DAY)[1],
    "day": lambda w: civil_of(w // MICROS_PER_DAY)[2],
    "dayofweek": lambda w: dayofweek_of(w // MICROS_PER_DAY),
    "dayofweek_iso": lambda w: _weekday(w // MICROS_PER_DAY) + 1,
    "doy": lambda w: w // MICROS_PER_DAY - civil_days(civil_of(w // MICROS_PER_DAY)[0], 1, 1) + 1,
    "hour": lambda w: w // 3_600_000_000 % 24,
    "minute": lambda w: w // 60_000_000 % 60,
    "second": _second_with_fraction,
}
"""``date_part``'s fields of a wall-clock time (micros)."""


def _date_part(site: Site) -> Callable[..., Any]:
    from pydantable_spark.expr.catalog.datetime import DATE_PART_FIELDS

    field = DATE_PART_FIELDS[str(site.literals[0]).lower()]
    compute = _FIELDS[field]
    dtype = site.args[1].dtype
    return lambda _, value: compute(wall_of(value, dtype, site))


def _day_of_field(field: str) -> Callable[[int], Any]:
    compute = _FIELDS[field]
    return lambda days: compute(days * MICROS_PER_DAY)


# --- arithmetic --------------------------------------------------------------------------------------


def _date_shift(sign: int) -> Callable[[Site], Callable[..., Any]]:
    def make(site: Site) -> Callable[..., Any]:
        dtype = site.args[0].dtype
        return lambda start, days: _checked_date(date_days(start, dtype, site) + sign * days)

    return make


def _datediff(site: Site) -> Callable[..., Any]:
    end, start = site.args[0].dtype, site.args[1].dtype
    return lambda a, b: date_days(a, end, site) - date_days(b, start, site)


def _add_months(site: Site) -> Callable[..., Any]:
    dtype = site.args[0].dtype
    return lambda start, months: _checked_date(add_months(date_days(start, dtype, site), months))


def _java_round(value: float) -> float:
    """``Math.round`` of a double, as a double: the nearest integer, halves up."""
    floor = math.floor(value)
    return float(floor + 1 if value - floor >= 0.5 else floor)


def _months_between(site: Site) -> Callable[..., Any]:
    first, second = site.args[0].dtype, site.args[1].dtype
    zone = site.session.tzinfo
    round_off = site.literals[2] if len(site.literals) > 2 else True

    def seconds_in_day(micros: int, days: int) -> int:
        return int((micros - instant_micros(days * MICROS_PER_DAY, zone)) / MICROS_PER_SECOND)

    def run(a: Any, b: Any, *_: Any) -> float:
        micros1, micros2 = instant_of(a, first, site), instant_of(b, second, site)
        days1, days2 = wall_micros(micros1, zone) // MICROS_PER_DAY, wall_micros(micros2, zone) // MICROS_PER_DAY
        (y1, m1, d1), (y2, m2, d2) = civil_of(days1), civil_of(days2)
        month_diff = float((y1 * 12 + m1) - (y2 * 12 + m2))
        last1, last2 = d1 == _last_of_month(y1, m1), d2 == _last_of_month(y2, m2)
        if d1 == d2 or (last1 and last2):
            return month_diff
        seconds = (d1 - d2) * 86_400 + seconds_in_day(micros1, days1) - seconds_in_day(micros2, days2)
        diff = month_diff + seconds / (31 * 86_400)
        return _java_round(diff * 1e8) / 1e8 if round_off else diff

    return run


_MICRO_UNITS = {"microsecond": 1, "millisecond": 1000, "second": 10**6, "minute": 60 * 10**6, "hour": 3600 * 10**6}
_LONG = 2**63


def _overflow(micros: int, quantity: int, unit: str) -> SparkError:
    msg = f"The function timestampadd() overflows adding {quantity} {unit.upper()} to {micros}"
    return SparkError(DATETIME_OVERFLOW, msg)


def timestamp_add(unit: str, quantity: int, micros: int, zone: datetime.tzinfo) -> int:
    """Spark's ``timestampadd``: days and longer on the wall clock in ``zone``, shorter units on the instant."""
    unit = unit.lower()
    if unit in _MICRO_UNITS:
        step = quantity * _MICRO_UNITS[unit]
        if not -_LONG <= step < _LONG or not -_LONG <= micros + step < _LONG:
            raise _overflow(micros, quantity, unit)
        return micros + step
    wall = wall_micros(micros, zone)
    days, time = divmod(wall, MICROS_PER_DAY)
    if unit in ("day", "dayofyear", "week"):
        count = quantity * (7 if unit == "week" else 1)
        if not -(2**31) <= count < 2**31:
            raise _overflow(micros, quantity, unit)
        days += count
    else:
        months = quantity * {"month": 1, "quarter": 3, "year": 12}[unit]
        if not -(2**31) <= months < 2**31:
            raise _overflow(micros, quantity, unit)
        days = add_months(days, months)
    if not civil_days(-999_999_999, 1, 1) <= days <= civil_days(999_999_999, 12, 31):
        raise _overflow(micros, quantity, unit)
    result = instant_micros(days * MICROS_PER_DAY + time, zone, zone_offset(micros, zone) if zone is not UTC else None)
    if not -_LONG <= result < _LONG:
        raise _overflow(micros, quantity, unit)
    return result


def _instant_and_zone(dtype: dt.DType, site: Site) -> tuple[Callable[[Any], int], datetime.tzinfo]:
    """How a ``timestamp_add``/``diff`` argument becomes micros, and the zone its wall clock is read in."""
    if isinstance(dtype, dt.DatetimeNTZ):
        return micros_of, UTC
    return (lambda value: instant_of(value, dtype, site)), site.session.tzinfo


def _timestamp_add(site: Site) -> Callable[..., Any]:
    dtype = site.args[2].dtype
    to_micros, zone = _instant_and_zone(dtype, site)
    out = ntz_value if isinstance(site.result.dtype, dt.DatetimeNTZ) else timestamp_value
    unit = str(site.literals[0])
    return lambda _, quantity, ts: out(timestamp_add(unit, quantity, to_micros(ts), zone))


def timestamp_diff(unit: str, start: int, end: int, zone: datetime.tzinfo) -> int:
    """Spark's ``timestampdiff``: whole units from ``start`` to ``end`` (micros), truncated toward zero.

    Every unit counts on the wall clock in ``zone`` (``java.time``'s ``LocalDateTime.until``).
    """
    unit = unit.lower()
    wall_start, wall_end = wall_micros(start, zone), wall_micros(end, zone)
    if unit in _MICRO_UNITS:
        span, size = wall_end - wall_start, _MICRO_UNITS[unit]
        return span // size if span >= 0 else -(-span // size)
    days_start, time_start = divmod(wall_start, MICROS_PER_DAY)
    days_end, time_end = divmod(wall_end, MICROS_PER_DAY)
    if days_end > days_start and time_end < time_start:
        days_end -= 1
    elif days_end < days_start and time_end > time_start:
        days_end += 1
    if unit in ("day", "dayofyear"):
        return days_end - days_start
    if unit == "week":
        return int((days_end - days_start) / 7)
    months = _months_until(days_start, days_end)
    divisor = {"month": 1, "quarter": 3, "year": 12}[unit]
    return int(months / divisor)


def _timestamp_diff(site: Site) -> Callable[..., Any]:
    first, second = site.args[1].dtype, site.args[2].dtype
    ntz = isinstance(first, dt.DatetimeNTZ) and isinstance(second, dt.DatetimeNTZ)
    zone = UTC if ntz else site.session.tzinfo
    unit = str(site.literals[0])

    def micros(value: Any, dtype: dt.DType) -> int:
        return micros_of(value) if ntz else instant_of(value, dtype, site)

    return lambda _, start, end: timestamp_diff(unit, micros(start, first), micros(end, second), zone)


_DAYS_OF_WEEK = {
    name: index
    for index, names in enumerate(
        (
            ("mo", "mon", "monday"),
            ("tu", "tue", "tuesday"),
            ("we", "wed", "wednesday"),
            ("th", "thu", "thursday"),
            ("fr", "fri", "friday"),
            ("sa", "sat", "saturday"),
            ("su", "sun", "sunday"),
        )
    )
    for name in names
}


def _next_day(site: Site) -> Callable[..., Any]:
    dtype = site.args[0].dtype

    def run(start: Any, name: str) -> Any:
        target = _DAYS_OF_WEEK.get(name.strip().lower()) if isinstance(name, str) else None
        if target is None:
            msg = f"Illegal input for day of week: {name}"
            raise SparkError(ILLEGAL_DAY_OF_WEEK, msg)
        days = date_days(start, dtype, site)
        return date_value(days + (target - _weekday(days) - 1) % 7 + 1)

    return run


def _trunc(site: Site) -> Callable[..., Any]:
    dtype = site.args[0].dtype
    level = str(site.literals[1]).lower()
    return lambda value, _: date_value(_truncated_days(date_days(value, dtype, site), level))


_CLOCK_UNITS = {"minute": 60 * MICROS_PER_SECOND, "hour": 3600 * MICROS_PER_SECOND, "day": MICROS_PER_DAY}
_CLOCK_UNITS["dd"] = MICROS_PER_DAY


def truncate_instant(micros: int, level: str, zone: datetime.tzinfo) -> int:
    """Spark's ``truncTimestamp``: sub-second units on the instant, others on the wall clock in ``zone``."""
    sizes = {"microsecond": 1, "millisecond": 1000, "second": MICROS_PER_SECOND}
    if level in sizes:
        return micros - micros % sizes[level]
    wall = wall_micros(micros, zone)
    if level in _CLOCK_UNITS:
        truncated = wall - wall % _CLOCK_UNITS[level]
        return instant_micros(truncated, zone, zone_offset(micros, zone) if zone is not UTC else None)
    days = _truncated_days(wall // MICROS_PER_DAY, level)
    return instant_micros(days * MICROS_PER_DAY, zone)


def _date_trunc(site: Site) -> Callable[..., Any]:
    dtype = site.args[1].dtype
    level = str(site.literals[0]).lower()
    zone = site.session.tzinfo
    return lambda _, value: timestamp_value(truncate_instant(instant_of(value, dtype, site), level, zone))


def _dt_truncate(site: Site) -> Callable[..., Any]:
    dtype = site.args[0].dtype
    unit = str(site.literals[1])
    if isinstance(dtype, dt.Date):
        return lambda value, _: date_value(_truncated_days(day_of(value), unit))
    if isinstance(dtype, dt.Datetime):
        zone = site.session.tzinfo
        return lambda value, _: timestamp_value(truncate_instant(micros_of(value), unit, zone))
    return lambda value, _: ntz_value(truncate_instant(micros_of(value), unit, UTC))


# --- construction ------------------------------------------------------------------------------------


def _make_date(site: Site) -> Callable[..., Any]:
    def run(year: int, month: int, day: int) -> Any:
        if not valid_civil(year, month, day):
            msg = f"Invalid date: year {year}, month {month}, day {day}"
            raise SparkError(DATETIME_FIELD_OUT_OF_BOUNDS, msg)
        return date_value(civil_days(year, month, day))

    return run


def _seconds_decimal(value: Any, precision: int) -> decimal.Decimal | None:
    """The seconds argument as Spark casts it to ``decimal(precision, 6)``."""
    target = dt.Decimal(precision, 6)
    if isinstance(value, float):
        return double_to_decimal(value, target)
    return fit_decimal(decimal.Decimal(value), target)


def make_wall(fields: tuple[int, int, int, int, int], seconds: decimal.Decimal) -> int:
    """Spark's ``make_timestamp`` fields as wall-clock micros (60 seconds: the next minute, without a fraction)."""
    year, month, day, hour, minute = fields
    total = int(seconds.scaleb(6))
    whole, fraction = divmod(total, MICROS_PER_SECOND)
    carry = 0
    if whole == 60:
        if fraction:
            msg = "Valid range for seconds is [0, 60] (inclusive), but the fraction is not 0 with 60 seconds"
            raise SparkError(INVALID_FRACTION_OF_SECOND, msg)
        whole, carry = 0, 60 * MICROS_PER_SECOND
    if not (valid_civil(year, month, day) and 0 <= hour < 24 and 0 <= minute < 60 and 0 <= whole < 60):
        msg = f"Invalid time: {year}-{month}-{day} {hour}:{minute}:{seconds}"
        raise SparkError(DATETIME_FIELD_OUT_OF_BOUNDS, msg)
    clock = ((hour * 60 + minute) * 60 + whole) * MICROS_PER_SECOND + fraction
    return civil_days(year, month, day) * MICROS_PER_DAY + clock + carry


def _make_timestamp(*, ntz: bool, attempt: bool) -> Callable[[Site], Callable[..., Any]]:
    def make(site: Site) -> Callable[..., Any]:
        def compute(*values: Any) -> Any:
            year, month, day, hour, minute, secs = values[:6]
            zone = values[6] if len(values) > 6 else None
            wall = make_wall((year, month, day, hour, minute), secs)
            if ntz:
                return ntz_value(wall)
            tz = site.session.tzinfo if zone is None else zone_named(zone)
            return timestamp_value(instant_micros(wall, tz))

        def run(*values: Any) -> Any:
            seconds = _seconds_decimal(values[5], 16)  # NULL for a NaN or infinite double
            return None if seconds is None else compute(*values[:5], seconds, *values[6:])

        if not attempt:
            return run

        def attempted(*values: Any) -> Any:
            if None in values[:6] or (len(values) > 6 and values[6] is None):
                return None
            seconds = _seconds_decimal(values[5], 16)  # Spark's cast of the seconds fails in try_ forms too
            if seconds is None:
                return None
            if len(values) > 6:
                zone_named(values[6])  # and so does an unknown time zone
            try:
                return compute(*values[:5], seconds, *values[6:])
            except SparkError:
                return None

        return attempted

    return make


def _make_dt_interval(site: Site) -> Callable[..., Any]:
    def run(days: int, hours: int, minutes: int, seconds: Any) -> datetime.timedelta | None:
        exact = _seconds_decimal(seconds, 18)
        if exact is None:
            return None
        micros = int(exact.scaleb(6)) + ((days * 24 + hours) * 60 + minutes) * 60 * MICROS_PER_SECOND
        if not -_LONG <= micros < _LONG:
            msg = f"make_dt_interval({days}, {hours}, {minutes}, {seconds}) overflows"
            raise SparkError(ARITHMETIC_OVERFLOW, msg)
        return datetime.timedelta(microseconds=micros)

    return run


# --- epochs --------------------------------------------------------------------------------------------


def _unix(divisor: int) -> Callable[[Site], Callable[..., Any]]:
    return lambda site: lambda value: micros_of(value) // divisor  # a timestamp_ntz is read as UTC


def _exact_micros(value: int) -> int:
    if not -_LONG <= value < _LONG:
        msg = f"{value} microseconds overflow a timestamp"
        raise SparkError(ARITHMETIC_OVERFLOW, msg)
    return value


def _timestamp_seconds(site: Site) -> Callable[..., Any]:
    dtype = site.args[0].dtype

    def run(value: Any) -> Any:
        if isinstance(dtype, dt.Floating):
            if math.isnan(value) or math.isinf(value):
                return None
            micros = int(value * MICROS_PER_SECOND)  # a double's toLong: truncated, saturated
            return timestamp_value(max(-_LONG, min(_LONG - 1, micros)))
        if isinstance(dtype, dt.Decimal):
            exact = value.scaleb(6)
            if exact != exact.to_integral_value():
                msg = f"Rounding necessary: {value} seconds have more than 6 decimal places"
                raise SparkError(ARITHMETIC_OVERFLOW, msg)
            return timestamp_value(_exact_micros(int(exact)))
        return timestamp_value(_exact_micros(value * MICROS_PER_SECOND))

    return run


def _epoch_count(per: int) -> Callable[[Site], Callable[..., Any]]:
    def run(value: int) -> Any:
        if not -_LONG <= value * per < _LONG:
            msg = f"{value} overflows a timestamp"
            raise SparkError(DATETIME_OVERFLOW, msg)
        return timestamp_value(value * per)

    return lambda site: run


# --- time zones ----------------------------------------------------------------------------------------


def _shift_zone(*, to_utc: bool) -> Callable[[Site], Callable[..., Any]]:
    """``from_utc_timestamp``/``to_utc_timestamp``: a wall clock read in one zone, shown in the other."""

    def make(site: Site) -> Callable[..., Any]:
        dtype = site.args[0].dtype

        def run(value: Any, name: str) -> Any:
            micros, zone = instant_of(value, dtype, site), zone_named(name)
            if to_utc:  # the UTC wall clock, as the instant at which ``zone`` shows it
                return timestamp_value(instant_micros(micros, zone))
            return timestamp_value(wall_micros(micros, zone))

        return run

    return make


def _convert_timezone(site: Site) -> Callable[..., Any]:
    dtype = site.args[2].dtype

    def wall(value: Any) -> int:
        if isinstance(dtype, dt.DatetimeNTZ):
            return micros_of(value)
        return wall_of(value, dtype, site)

    def run(source: str, target: str, value: Any) -> Any:
        instant = instant_micros(wall(value), zone_named(source))
        return ntz_value(wall_micros(instant, zone_named(target)))

    return run


def _session_zone_refusal(*indexes: int) -> Callable[[Call], str | None]:
    """Refuses a call whose source zone is the session's ``current_timezone()`` (no kernel reads it)."""

    def refuse(call: Call) -> str | None:
        from pydantable_spark.expr.call import Call as CallNode

        for index in indexes:
            arg = call.args[index]
            if isinstance(arg, CallNode) and arg.function.name == "current_timezone":
                what = f"{arg.function.name}() as an argument of {call.function.name}()"
                return f"the local engine does not compute {what} yet"
        return None

    return refuse


# --- formatting and parsing --------------------------------------------------------------------------


def _pattern_refusal(index: int, *, parsing: bool, default: str | None = None) -> Callable[[Call], str | None]:
    """Refuses a call whose pattern (argument ``index``) is not a literal or has letters not translated."""

    def refuse(call: Call) -> str | None:
        from pydantable_spark.expr import core

        name = call.function.name
        if index >= len(call.args):
            pattern = default
        else:
            arg = call.args[index]
            if not isinstance(arg, core.Literal) or not isinstance(arg.value, str):
                return f"the local engine computes {name}() with a literal pattern only"
            pattern = arg.value
        if pattern is None:
            return None
        if name == "dt.strftime":
            from pydantable_spark.expr.catalog.datetime import spark_pattern

            pattern = spark_pattern(pattern)
        why = patterns.refusal(pattern, parsing=parsing)
        if why is None and name == "to_timestamp_ntz" and any(t.letter in "XxZ" for t in patterns.tokens(pattern)):
            why = "an offset (X, x, Z) into a timestamp_ntz"
        if why is None:
            return None
        return f"the local engine does not {'parse' if parsing else 'format'} {why} of {pattern!r} in {name}() yet"

    return refuse


def _date_format(site: Site) -> Callable[..., Any]:
    text = site.literals[1]
    formatter = patterns.formatter(text)
    dtype, zone = site.args[0].dtype, site.session.tzinfo
    return lambda value, _: formatter(instant_of(value, dtype, site), zone)


def _strftime(site: Site) -> Callable[..., Any]:
    from pydantable_spark.expr.catalog.datetime import spark_pattern

    formatter = patterns.formatter(spark_pattern(site.literals[1]))
    dtype, zone = site.args[0].dtype, site.session.tzinfo
    return lambda value, _: formatter(instant_of(value, dtype, site), zone)


_DEFAULT_PATTERN = "yyyy-MM-dd HH:mm:ss"


def _from_unixtime(site: Site) -> Callable[..., Any]:
    text = site.literals[1] if len(site.literals) > 1 else _DEFAULT_PATTERN
    formatter = patterns.formatter(text)
    zone = site.session.tzinfo

    def run(seconds: Any, *_: Any) -> str:
        micros = (int(seconds) * MICROS_PER_SECOND + _LONG) % (2 * _LONG) - _LONG  # a long's product: it wraps
        return formatter(micros, zone)

    return run


CANNOT_PARSE_TIMESTAMP = "CANNOT_PARSE_TIMESTAMP"


def _parse_failure(text: str, pattern: str) -> SparkError:
    msg = f"Text '{text}' could not be parsed with the pattern '{pattern}'"
    return SparkError(CANNOT_PARSE_TIMESTAMP, msg)


def _parsing(site: Site, index: int, *, attempt: bool, default: str | None) -> Callable[[str], int | None]:
    """Text → the instant (micros) the pattern reads in the session zone; None (``attempt``) or an error if none."""
    pattern = site.literals[index] if index < len(site.literals) else default
    assert isinstance(pattern, str)
    parse = patterns.parser(pattern)
    zone = site.session.tzinfo

    def run(text: str) -> int | None:
        try:
            return parse(text).instant(zone)
        except patterns.ParseFailure:
            if attempt:
                return None
            raise _parse_failure(text, pattern) from None

    return run


def _unix_timestamp(site: Site) -> Callable[..., Any]:
    dtype = site.args[0].dtype
    if isinstance(dtype, dt.String):
        parse = _parsing(site, 1, attempt=False, default=_DEFAULT_PATTERN)
        return lambda text, *_: _seconds_toward_zero(parse(text))
    if isinstance(dtype, dt.DatetimeNTZ):
        return lambda value, *_: _seconds_toward_zero(micros_of(value))
    return lambda value, *_: _seconds_toward_zero(instant_of(value, dtype, site))


def _seconds_toward_zero(micros: int | None) -> int | None:
    """Micros to whole seconds as Java's long division does: truncated toward zero."""
    if micros is None:
        return None
    whole = abs(micros) // MICROS_PER_SECOND
    return whole if micros >= 0 else -whole


def _cast_text(site: Site, target: dt.DType, *, attempt: bool) -> Callable[[str], Any]:
    """Text cast to ``target`` as Spark's ``CAST`` (the pattern-less forms of ``to_date``/``to_timestamp``)."""
    from pydantable_spark.substrait.kernels.casts import CAST
    from pydantable_spark.substrait.kernels.spec import Site as SiteOf

    cast = CAST.make(SiteOf(site.args[:1], site.result, site.literals[:1], site.session))
    if not attempt:
        return cast

    def attempted(text: str) -> Any:
        try:
            return cast(text)
        except SparkError:
            return None

    return attempted


def _to_date(*, attempt: bool) -> Callable[[Site], Callable[..., Any]]:
    def make(site: Site) -> Callable[..., Any]:
        dtype = site.args[0].dtype
        if not isinstance(dtype, dt.String):
            return lambda value, *_: date_value(date_days(value, dtype, site))
        if len(site.literals) < 2:
            return _cast_text(site, dt.Date(), attempt=attempt)
        parse = _parsing(site, 1, attempt=attempt, default=None)
        zone = site.session.tzinfo

        def run(text: str, *_: Any) -> Any:
            micros = parse(text)
            return None if micros is None else date_value(wall_micros(micros, zone) // MICROS_PER_DAY)

        return run

    return make


def _to_timestamp(*, attempt: bool, ntz: bool = False) -> Callable[[Site], Callable[..., Any]]:
    def make(site: Site) -> Callable[..., Any]:
        if len(site.literals) < 2:
            return _cast_text(site, site.result.dtype, attempt=attempt)
        pattern = site.literals[1]
        parse = patterns.parser(pattern)
        zone = site.session.tzinfo

        def run(text: str, *_: Any) -> Any:
            try:
                parsed = parse(text)
            except patterns.ParseFailure:
                if attempt:
                    return None
                raise _parse_failure(text, pattern) from None
            return ntz_value(parsed.wall) if ntz else timestamp_value(parsed.instant(zone))

        return run

    return make


_PARSED_REFUSAL = _pattern_refusal(1, parsing=True)


KERNELS = (
    Scalar("year", _of_date(_day_of_field("year"))),
    Scalar("quarter", _of_date(_day_of_field("quarter"))),
    Scalar("month", _of_date(_day_of_field("month"))),
    Scalar("dayofmonth", _of_date(_day_of_field("day"))),
    Scalar("dayofweek", _of_date(dayofweek_of)),
    Scalar("weekday", _of_date(_weekday)),
    Scalar("dayofyear", _of_date(_day_of_field("doy"))),
    Scalar("weekofyear", _of_date(_day_of_field("week"))),
    Scalar("hour", _of_clock(_FIELDS["hour"])),
    Scalar("minute", _of_clock(_FIELDS["minute"])),
    Scalar("second", _of_clock(lambda w: w // MICROS_PER_SECOND % 60)),
    Scalar("dayname", _of_date(lambda d: _DAY_NAMES[dayofweek_of(d) - 1])),
    Scalar("monthname", _of_date(lambda d: _MONTH_NAMES[civil_of(d)[1] - 1])),
    Scalar("date_part", _date_part),
    Scalar("date_add", _date_shift(1)),
    Scalar("date_sub", _date_shift(-1)),
    Scalar("datediff", _datediff),
    Scalar("add_months", _add_months),
    Scalar("months_between", _months_between),
    Scalar("timestamp_add", _timestamp_add),
    Scalar("timestamp_diff", _timestamp_diff),
    Scalar("last_day", _of_date(lambda d: date_value(d - civil_of(d)[2] + _last_of_month(*civil_of(d)[:2])))),
    Scalar("next_day", _next_day),
    Scalar("trunc", _trunc),
    Scalar("date_trunc", _date_trunc),
    Scalar("dt.truncate", _dt_truncate),
    Scalar("make_date", _make_date),
    Scalar("make_timestamp", _make_timestamp(ntz=False, attempt=False)),
    Scalar("make_timestamp_ltz", _make_timestamp(ntz=False, attempt=False)),
    Scalar("make_timestamp_ntz", _make_timestamp(ntz=True, attempt=False)),
    Scalar("try_make_timestamp", _make_timestamp(ntz=False, attempt=True), strict=False),
    Scalar("try_make_timestamp_ltz", _make_timestamp(ntz=False, attempt=True), strict=False),
    Scalar("try_make_timestamp_ntz", _make_timestamp(ntz=True, attempt=True), strict=False),
    Scalar("make_dt_interval", _make_dt_interval),
    Scalar("unix_date", lambda site: day_of),
    Scalar("date_from_unix_date", lambda site: _checked_date),
    Scalar("unix_seconds", _unix(MICROS_PER_SECOND)),
    Scalar("unix_millis", _unix(1000)),
    Scalar("unix_micros", _unix(1)),
    Scalar("timestamp_seconds", _timestamp_seconds),
    Scalar("timestamp_millis", _epoch_count(1000)),
    Scalar("timestamp_micros", _epoch_count(1)),
    Scalar("from_utc_timestamp", _shift_zone(to_utc=False)),
    Scalar("to_utc_timestamp", _shift_zone(to_utc=True)),
    Scalar("convert_timezone", _convert_timezone, refuse=_session_zone_refusal(0)),
    Scalar("date_format", _date_format, refuse=_pattern_refusal(1, parsing=False)),
    Scalar("dt.strftime", _strftime, refuse=_pattern_refusal(1, parsing=False)),
    Scalar("from_unixtime", _from_unixtime, refuse=_pattern_refusal(1, parsing=False, default=_DEFAULT_PATTERN)),
    Scalar("unix_timestamp", _unix_timestamp, refuse=_pattern_refusal(1, parsing=True, default=_DEFAULT_PATTERN)),
    Scalar("to_unix_timestamp", _unix_timestamp, refuse=_pattern_refusal(1, parsing=True, default=_DEFAULT_PATTERN)),
    Scalar("to_date", _to_date(attempt=False), refuse=_PARSED_REFUSAL),
    Scalar("try_to_date", _to_date(attempt=True), refuse=_PARSED_REFUSAL),
    Scalar("to_timestamp", _to_timestamp(attempt=False), refuse=_PARSED_REFUSAL),
    Scalar("try_to_timestamp", _to_timestamp(attempt=True), refuse=_PARSED_REFUSAL),
    Scalar("to_timestamp_ltz", _to_timestamp(attempt=False), refuse=_PARSED_REFUSAL),
    Scalar("to_timestamp_ntz", _to_timestamp(attempt=False, ntz=True), refuse=_PARSED_REFUSAL),
)
