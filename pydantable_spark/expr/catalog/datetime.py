"""Date and time functions (PySpark's), and the ``.dt`` namespace's own methods.

Fields of a ``datetime`` (instant) column are read in the session time zone,
which the embedded session sets to UTC: those entries are ``session=True``.
Spark converts a ``timestamp_ntz`` value to a date with a cast it marks as
possibly failing, so functions of such a column are nullable.

Spark runs with ANSI mode on: a value that does not exist (``make_date(2024, 2,
30)``, a string a pattern cannot parse, an overflow) is an error, not NULL, so
those functions are non-null for non-null inputs; their ``try_`` forms give
NULL instead and are always nullable. A datetime pattern (``'yyyy-MM-dd'``) is
checked when the call is made for the letters Spark never takes
(``check_pattern``); a time zone for its characters (Spark checks the name);
a unit or field (``'year'``, ``'hour'``) against Spark's list, and the units
``timestamp_add``/``timestamp_diff`` spell as SQL keywords come from
``TIMESTAMP_UNITS``, never from the text passed.
"""

from __future__ import annotations

import decimal
import re
from typing import TYPE_CHECKING

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ColumnTypeError
from pydantable_spark.expr.catalog import accepts, returns
from pydantable_spark.expr.catalog.spec import (
    ABSENT,
    Accepts,
    Args,
    DTypeRule,
    EntryOptions,
    Function,
    Lit,
    Param,
    always,
    any_null,
    column,
    either,
    entry,
    fixed,
    never,
    one_of,
    value,
)
from pydantable_spark.expr.core import describe
from pydantable_spark.typerules import cast_forces_nullable, decimal_for_number

if TYPE_CHECKING:
    from collections.abc import Callable

    from typing_extensions import Unpack

    from pydantable_spark.expr.core import Node

__all__ = ["DATE_PART_FIELDS", "ENTRIES", "TIMESTAMP_UNITS", "check_pattern", "spark_pattern"]

WHEN = column("col", accepts.DATE_LIKE)


def date_nullable(args: Args) -> bool:
    """NULL in, NULL out; a ``timestamp_ntz`` argument is also cast to a date, a cast Spark marks nullable."""
    return any(t.nullable or isinstance(t.dtype, dt.DatetimeNTZ) for t in args.types)


def _entry(
    name: str, *params: Param, returns: DTypeRule = returns.INT, summary: str, **options: Unpack[EntryOptions]
) -> Function:
    options.setdefault("nullable", date_nullable)
    return entry(name, params, returns, summary, "datetime", **options)


def _part(name: str, summary: str, **options: Unpack[EntryOptions]) -> Function:
    options.setdefault("session", True)
    return _entry(name, WHEN, summary=summary, **options)


def _time_part(name: str, summary: str, **options: Unpack[EntryOptions]) -> Function:
    options.setdefault("session", True)
    options.setdefault("nullable", any_null)
    return _entry(name, column("col", accepts.DATE_LIKE), summary=summary, **options)


_TIME_UNITS = ("year", "quarter", "month", "week", "day", "hour", "minute", "second")


def _parsed_nullable(args: Args) -> bool:
    """Parsing: with a format, NULL only from a NULL (ANSI fails on bad text); without, always.

    Spark marks the format-less forms nullable though they fail on bad text too.
    """
    return len(args.nodes) < 2 or any_null(args)


def _to_date_nullable(args: Args) -> bool:
    """``to_date``: of a date or datetime without a format, a cast (the cast's nullability); else parsing's rule."""
    source = args.dtype(0)
    if len(args.nodes) < 2 and not isinstance(source, dt.String):
        return any_null(args) or cast_forces_nullable(source, dt.Date())
    return _parsed_nullable(args)


def _truncate_check(args: Args) -> None:
    unit = args.value(1)
    allowed = _TIME_UNITS[:4] if isinstance(args.dtype(0), dt.Date) else _TIME_UNITS
    if unit not in allowed:
        msg = f"{args.name}({unit!r}) on {args.types[0]}: use one of {', '.join(allowed)}"
        raise ColumnTypeError(msg)


_STRFTIME = {
    "%Y": "yyyy", "%y": "yy", "%m": "MM", "%d": "dd", "%H": "HH", "%I": "hh", "%M": "mm", "%S": "ss",
    "%f": "SSSSSS", "%b": "MMM", "%B": "MMMM", "%a": "EEE", "%A": "EEEE", "%j": "DDD", "%p": "a", "%z": "xx",
    "%Z": "z", "%%": "%",
}  # fmt: skip


def spark_pattern(fmt: str) -> str:
    """A Python ``strftime`` format as a Spark datetime pattern (literal text quoted).

    >>> spark_pattern("%Y-%m-%d at %H:%M")
    "yyyy'-'MM'-'dd' at 'HH':'mm"
    """
    out: list[str] = []
    text: list[str] = []
    i = 0
    while i < len(fmt):
        code = fmt[i : i + 2]
        if fmt[i] == "%":
            if code not in _STRFTIME:
                msg = f"dt.strftime(): {code!r} has no Spark equivalent; supported: {' '.join(_STRFTIME)}"
                raise ColumnTypeError(msg)
            if text:
                out.append("'" + "".join(text).replace("'", "''") + "'")
                text = []
            out.append(_STRFTIME[code])
            i += 2
        else:
            text.append(fmt[i])
            i += 1
    if text:
        out.append("'" + "".join(text).replace("'", "''") + "'")
    return "".join(out)


def _strftime_format(fmt: str) -> str | None:
    try:
        spark_pattern(fmt)
    except ColumnTypeError as error:
        return str(error).split(": ", 1)[1]
    return None


# --- datetime patterns, time zones, units and fields ------------------------------------------------

_NEVER_LETTERS = frozenset("bcefijlnoprtuwABCIJNPRTUWY")
"""Letters Spark refuses in every datetime pattern (week-based ``Y w W u e c``; ``n N A B p`` and
letters Java has no field for); counts Spark also refuses (``MMMMMM``) are left to Spark."""
_FORMATTING_ONLY = frozenset("qQEF")
"""Letters Spark formats but cannot parse with."""
_PATTERN_LETTERS = "G y M L d D Q q E F a h K k H m s S z V O X x Z"


def check_pattern(pattern: str, *, parsing: bool) -> str | None:
    """What is wrong with a Spark datetime pattern that Spark would refuse whatever the data, or None.

    Text between single quotes is literal (``''`` is a quote); ``[...]`` is an
    optional section.

    >>> check_pattern("yyyy-MM-dd'T'HH:mm", parsing=True) is None
    True
    >>> check_pattern("YYYY-MM-dd", parsing=True).split(" (")[0]
    "is not a Spark datetime pattern: 'Y' is no pattern letter of Spark's"
    """
    refused = _NEVER_LETTERS | _FORMATTING_ONLY if parsing else _NEVER_LETTERS
    quoted, depth, i = False, 0, 0
    while i < len(pattern):
        char = pattern[i]
        if char == "'":
            if pattern[i + 1 : i + 2] == "'":
                i += 2
                continue
            quoted = not quoted
        elif not quoted:
            if char in refused or char in "#{}":
                letters = (
                    _PATTERN_LETTERS
                    if not parsing
                    else " ".join(c for c in _PATTERN_LETTERS.split() if c not in _FORMATTING_ONLY)
                )
                known = char in _FORMATTING_ONLY and parsing
                why = "is a letter Spark formats with but cannot parse" if known else "is no pattern letter of Spark's"
                return f"is not a Spark datetime pattern: {char!r} {why} ({letters}; quote other text: 'T')"
            if char == "[":
                depth += 1
            elif char == "]":
                if depth == 0:
                    return "is not a Spark datetime pattern: ']' closes no optional section '['"
                depth -= 1
        i += 1
    if quoted:
        return "is not a Spark datetime pattern: a quote ' is not closed (write '' for a quote character)"
    return None


def _parse_pattern(pattern: str) -> str | None:
    return check_pattern(pattern, parsing=True)


def _format_pattern(pattern: str) -> str | None:
    return check_pattern(pattern, parsing=False)


_ZONE = re.compile(r"[A-Za-z0-9_+\-/:.]+")


def _zone(name: str) -> str | None:
    """A ``check``: a time zone ID's characters (Spark itself knows which IDs exist)."""
    if _ZONE.fullmatch(name):
        return None
    return "must be a time zone ID such as 'UTC', 'Europe/Paris' or '+02:00'"


def _literal_checks(*checks: tuple[int, str, Callable[[str], str | None]]) -> Callable[[Args], None]:
    """A function ``check``: argument ``index`` (parameter ``name``), when a string literal, passes ``rule``.

    For parameters PySpark takes as columns only (a ``str`` names a column), so a
    value arrives as ``F.lit(...)`` and is checked once the call is typed.
    """

    def check(args: Args) -> None:
        for index, name, rule in checks:
            if index < len(args) and args.is_literal(index) and isinstance(args.value(index), str):
                problem = rule(args.value(index))
                if problem is not None:
                    msg = f"{args.name}(): {name} {problem}, got {args.value(index)!r}"
                    raise ColumnTypeError(msg)

    return check


TIMESTAMP_UNITS: dict[str, str] = {
    unit: unit.upper()
    for unit in (
        "year", "quarter", "month", "week", "day", "dayofyear", "hour", "minute", "second", "millisecond",
        "microsecond",
    )
}  # fmt: skip
"""The units of ``timestamp_add``/``timestamp_diff`` (any case) and the SQL keyword each is spelled as."""

DATE_PART_FIELDS: dict[str, str] = {
    spelling: field
    for field, spellings in {
        "year": ("year", "y", "years", "yr", "yrs"),
        "yearofweek": ("yearofweek",),
        "quarter": ("quarter", "qtr"),
        "month": ("month", "mon", "mons", "months"),
        "week": ("week", "w", "weeks"),
        "day": ("day", "d", "days"),
        "dayofweek": ("dayofweek", "dow"),
        "dayofweek_iso": ("dayofweek_iso", "dow_iso"),
        "doy": ("doy",),
        "hour": ("hour", "h", "hours", "hr", "hrs"),
        "minute": ("minute", "m", "min", "mins", "minutes"),
        "second": ("second", "s", "sec", "seconds", "secs"),
    }.items()
    for spelling in spellings
}
"""Every spelling of a ``date_part`` field Spark takes (any case) → the field it means."""

_CLOCK_FIELDS = ("hour", "minute", "second")
_check_field = one_of(*DATE_PART_FIELDS)


def _field(args: Args) -> str:
    return DATE_PART_FIELDS[str(args.value(0)).lower()]


def _date_part_check(args: Args) -> None:
    """The field must be known when the plan is built: its type depends on it (``second``: a decimal)."""
    if not args.is_literal(0) or not isinstance(args.value(0), str):
        got = describe(args.nodes[0])
        msg = f"{args.name}(): field must be a string such as 'year' or F.lit('year'); got {got}"
        raise ColumnTypeError(msg)
    problem = _check_field(args.value(0))
    if problem is not None:
        msg = f"{args.name}(): field {problem}, got {args.value(0)!r}"
        raise ColumnTypeError(msg)


def _date_part(args: Args) -> dt.DType:
    return dt.Decimal(8, 6) if _field(args) == "second" else dt.Int32()


def _date_part_nullable(args: Args) -> bool:
    """NULL in, NULL out; a date field of a ``timestamp_ntz`` is read through a cast to a date (nullable)."""
    ntz = isinstance(args.dtype(1), dt.DatetimeNTZ) and _field(args) not in _CLOCK_FIELDS
    return any_null(args) or ntz


def _instant_of(index: int) -> Callable[[Args], dt.DType]:
    """The type of datetime argument ``index``; a date becomes a ``datetime`` (an instant)."""
    return lambda args: dt.Datetime() if isinstance(args.dtype(index), dt.Date) else args.dtype(index)


def _fits_decimal(dtype: dt.DType, precision: int, scale: int) -> bool:
    """Whether every value of number type ``dtype`` converts to ``decimal(precision, scale)`` exactly."""
    if not isinstance(dtype, dt.Integral | dt.Decimal):
        return False
    as_decimal = decimal_for_number(dtype)
    return as_decimal.scale <= scale and as_decimal.precision - as_decimal.scale <= precision - scale


def _seconds_nullable(index: int, precision: int) -> Callable[[Args], bool]:
    """NULL in, NULL out, or where the seconds argument ``index`` does not fit ``decimal(precision, 6)``.

    Spark converts the seconds to that decimal and marks the result nullable
    where the conversion may fail (a float, a bigint, a wider decimal).
    """

    def rule(args: Args) -> bool:
        return any_null(args) or (index < len(args) and not _fits_decimal(args.dtype(index), precision, 6))

    return rule


def _now() -> Node:
    from pydantable_spark.expr.call import Call

    return Call(CURRENT_TIMESTAMP, ())


def _session_zone() -> Node:
    from pydantable_spark.expr.call import Call

    return Call(CURRENT_TIMEZONE, ())


def _zero() -> Node:
    from pydantable_spark.expr.core import Literal

    return Literal(0, dt.Int32())


STRING_OR_TIME = Accepts(
    "a string, date or datetime",
    lambda t: isinstance(t, dt.String | dt.Date | dt.Datetime | dt.DatetimeNTZ),
    examples=(dt.String(), dt.Date(), dt.Datetime(), dt.DatetimeNTZ()),
)
SECONDS = column("secs", accepts.NUMBER)
"""Seconds with a fraction: Spark converts the number to ``decimal(16, 6)`` (``decimal(18, 6)`` for durations)."""
_ZONE_COLUMN = column("timezone", accepts.STRING, default=ABSENT)
_LAST_DAY_OF_2024 = (Lit(2024), Lit(12), Lit(31), Lit(23), Lit(59))
_SECONDS = decimal.Decimal("59.999999")


def _make(name: str, result: dt.DType, summary: str, *, zone: bool, attempt: bool) -> Function:
    """``make_timestamp`` and its variants: six fields (and a time zone); ``try_`` ones NULL where no such time."""
    fields = tuple(column(n, accepts.INT32) for n in ("years", "months", "days", "hours", "mins"))
    params = (*fields, SECONDS, *((_ZONE_COLUMN,) if zone else ()))
    samples: list[tuple[object, ...]] = [(*_LAST_DAY_OF_2024, Lit(59.5)), (*_LAST_DAY_OF_2024, Lit(_SECONDS))]
    if zone:
        samples += [(*_LAST_DAY_OF_2024, Lit(_SECONDS), Lit("Asia/Tokyo")), (*_LAST_DAY_OF_2024, Lit(7), Lit("UTC"))]
    if attempt:  # the test frame's fields: 1 and 7 make a time, -2 and 0 none (NULL)
        samples += [(dt.Int32(), dt.Int8(), (dt.Int64(), True), dt.Int16(), dt.Int32(), (dt.Float64(), True))]
        samples += [(dt.Int32(),) * 5 + (dt.Decimal(10, 2), Lit("-05:00"))] if zone else []
    return _entry(
        name,
        *params,
        returns=fixed(result),
        nullable=always if attempt else _seconds_nullable(5, 16),
        session=zone,
        summary=summary,
        samples=tuple(samples),
        samples_only=True,  # the test frame's months of -2 and 0 fail, its strings are no time zones
        check=_literal_checks((6, "timezone", _zone)) if zone else None,
    )


CURRENT_TIMESTAMP = _entry(
    "current_timestamp",
    returns=fixed(dt.Datetime()),
    nullable=never,
    deterministic=False,
    aliases=("now",),
    summary="The time at the start of the query.",
)
CURRENT_TIMEZONE = _entry(
    "current_timezone",
    returns=fixed(dt.String()),
    nullable=never,
    session=True,
    summary="The session time zone's ID (``'UTC'`` in the embedded session).",
)

_WHEN_TEXT = Lit("2024-02-29 13:05:09")
_DAY_TEXT = Lit("2024-02-29")

ENTRIES: tuple[Function, ...] = (
    # --- fields ---
    _part("year", "The year.", methods=("dt.year",)),
    _part("quarter", "The quarter of the year (1-4).", methods=("dt.quarter",)),
    _part("month", "The month (1-12).", methods=("dt.month",)),
    _part("dayofmonth", "The day of the month (1-31).", methods=("dt.day",), aliases=("day",)),
    _part("dayofweek", "The day of the week, Sunday = 1 ... Saturday = 7."),
    _part("weekday", "The day of the week, Monday = 0 ... Sunday = 6."),
    _part("dayofyear", "The day of the year (1-366).", methods=("dt.ordinal_day",)),
    _part("weekofyear", "The ISO week of the year (1-53).", methods=("dt.week",)),
    _time_part("hour", "The hour (0-23).", methods=("dt.hour",)),
    _time_part("minute", "The minute (0-59).", methods=("dt.minute",)),
    _time_part("second", "The second (0-59), without its fraction.", methods=("dt.second",)),
    _entry(
        "dayname",
        column("col", accepts.DATE_LIKE),
        returns=fixed(dt.String()),
        session=True,
        summary="The day of the week's three-letter English name (``'Mon'`` ... ``'Sun'``).",
    ),
    _entry(
        "monthname",
        column("col", accepts.DATE_LIKE),
        returns=fixed(dt.String()),
        session=True,
        summary="The month's three-letter English name (``'Jan'`` ... ``'Dec'``).",
    ),
    _entry(
        "date_part",
        either("field", accepts.STRING, str, check=_check_field, sample="year", foldable=True, column_in_pyspark=True),
        column("source", accepts.DATE_LIKE),
        returns=_date_part,
        nullable=_date_part_nullable,
        check=_date_part_check,
        session=True,
        aliases=("datepart", "extract"),
        samples=(
            ("SECOND", dt.Datetime()),
            ("dow_iso", dt.Date()),
            ("Hours", dt.DatetimeNTZ()),
            ("yearofweek", (dt.DatetimeNTZ(), True)),
            (Lit("doy"), dt.Datetime()),
        ),
        summary=(
            "The ``field`` of the date or datetime: ``'year'``, ``'yearofweek'``, ``'quarter'``, ``'month'``, "
            "``'week'``, ``'day'``, ``'dayofweek'`` (Sunday = 1), ``'dayofweek_iso'`` (Monday = 1), ``'doy'``, "
            "``'hour'``, ``'minute'`` (an ``int``) or ``'second'`` (with its fraction, a ``decimal(8, 6)``), "
            "or Spark's abbreviations of them (``'yr'``, ``'mon'``, ``'dow'``...). PySpark takes the field as "
            "``F.lit('year')`` only; both are taken here."
        ),
    ),
    # --- arithmetic ---
    _entry(
        "date_add",
        column("start", accepts.DATE_LIKE),
        either("days", accepts.INT32, int, literal=dt.Int32(), names=True),
        returns=returns.DATE,
        summary="The date ``days`` days after ``start`` (a datetime is truncated to its date).",
        aliases=("dateadd",),
    ),
    _entry(
        "date_sub",
        column("start", accepts.DATE_LIKE),
        either("days", accepts.INT32, int, literal=dt.Int32(), names=True),
        returns=returns.DATE,
        summary="The date ``days`` days before ``start``.",
    ),
    _entry(
        "datediff",
        column("end", accepts.DATE_LIKE),
        column("start", accepts.DATE_LIKE),
        summary="Days from ``start`` to ``end`` (PySpark's order: end first).",
        aliases=("date_diff",),
    ),
    _entry(
        "add_months",
        column("start", accepts.DATE_LIKE),
        either("months", accepts.INT32, int, literal=dt.Int32(), names=True),
        returns=returns.DATE,
        summary="The date ``months`` months after ``start`` (clamped to the month's last day).",
    ),
    _entry(
        "months_between",
        column("date1", accepts.DATE_LIKE),
        column("date2", accepts.DATE_LIKE),
        value("roundOff", bool, default=True),
        returns=fixed(dt.Float64()),
        nullable=any_null,
        session=True,
        summary=(
            "Months from ``date2`` to ``date1`` (PySpark's order): whole months when both fall on the same day "
            "of the month or the last days, else with a fraction of 31-day months (rounded to 8 places unless "
            "``roundOff`` is false)."
        ),
    ),
    _entry(
        "timestamp_add",
        value("unit", str, check=one_of(*TIMESTAMP_UNITS), sample="month"),
        column("quantity", accepts.INTEGER),
        column("ts", accepts.DATE_LIKE),
        returns=_instant_of(2),
        nullable=any_null,
        special=True,
        session=True,
        samples=(("MICROSECOND", Lit(-1), dt.DatetimeNTZ()), ("dayofyear", dt.Int64(), (dt.Datetime(), True))),
        summary=(
            "``ts`` plus ``quantity`` units: ``'year'``, ``'quarter'``, ``'month'``, ``'week'``, ``'day'``, "
            "``'dayofyear'`` (a day), ``'hour'``, ``'minute'``, ``'second'``, ``'millisecond'`` or "
            "``'microsecond'`` (any case); a month past the end of the next keeps to its last day. A date "
            "becomes a ``datetime``; a ``timestamp_ntz`` stays one. Overflow is an error."
        ),
    ),
    _entry(
        "timestamp_diff",
        value("unit", str, check=one_of(*TIMESTAMP_UNITS), sample="day"),
        column("start", accepts.DATE_LIKE),
        column("end", accepts.DATE_LIKE),
        returns=returns.BIGINT,
        nullable=any_null,
        special=True,
        session=True,
        samples=(("MONTH", dt.Date(), (dt.Datetime(), True)), ("microsecond", dt.DatetimeNTZ(), dt.Date())),
        summary=(
            "Whole ``unit``s from ``start`` to ``end`` (the units of ``timestamp_add``), negative when ``end`` "
            "is earlier."
        ),
    ),
    _entry(
        "last_day", column("date", accepts.DATE_LIKE), returns=returns.DATE, summary="The last day of the date's month."
    ),
    _entry(
        "next_day",
        column("date", accepts.DATE_LIKE),
        value(
            "dayOfWeek",
            str,
            check=one_of(
                "mo",
                "mon",
                "monday",
                "tu",
                "tue",
                "tuesday",
                "we",
                "wed",
                "wednesday",
                "th",
                "thu",
                "thursday",
                "fr",
                "fri",
                "friday",
                "sa",
                "sat",
                "saturday",
                "su",
                "sun",
                "sunday",
            ),
            sample="mon",
        ),
        returns=returns.DATE,
        nullable=always,
        summary="The first date after ``date`` that falls on ``dayOfWeek``.",
    ),
    # --- truncation and formatting ---
    _entry(
        "trunc",
        column("date", accepts.DATE_LIKE),
        value(
            "format", str, check=one_of("year", "yyyy", "yy", "quarter", "month", "mon", "mm", "week"), sample="month"
        ),
        returns=returns.DATE,
        nullable=always,
        summary="The date truncated to the year, quarter, month or week.",
    ),
    _entry(
        "date_trunc",
        value(
            "format",
            str,
            check=one_of(
                "year",
                "yyyy",
                "yy",
                "quarter",
                "month",
                "mon",
                "mm",
                "week",
                "day",
                "dd",
                "hour",
                "minute",
                "second",
                "millisecond",
                "microsecond",
            ),
            sample="month",
        ),
        column("timestamp", accepts.DATE_LIKE),
        returns=fixed(dt.Datetime()),
        nullable=always,
        session=True,
        summary="The datetime truncated to the unit (``'hour'``, ``'day'``, ``'month'``...).",
    ),
    _entry(
        "dt.truncate",
        WHEN,
        value("unit", str, sample="month"),
        returns=lambda a: a.dtype(0),
        nullable=always,
        in_f=False,
        methods=("dt.truncate",),
        special=True,
        check=_truncate_check,
        session=True,
        summary="The start of the year, quarter, month, week (dates) or also day, hour, minute, second.",
    ),
    _entry(
        "date_format",
        column("date", accepts.DATE_LIKE),
        value("format", str, check=_format_pattern),
        returns=fixed(dt.String()),
        nullable=any_null,
        session=True,
        summary="The value as text in a Spark datetime pattern (``'yyyy-MM-dd'``).",
    ),
    _entry(
        "dt.strftime",
        WHEN,
        value("format", str, check=_strftime_format),
        returns=fixed(dt.String()),
        nullable=any_null,
        in_f=False,
        methods=("dt.strftime",),
        special=True,
        session=True,
        summary="The value as text with Python ``strftime`` codes (``'%Y-%m-%d'``).",
    ),
    # --- construction ---
    _entry(
        "make_date",
        column("year", accepts.INT32),
        column("month", accepts.INT32),
        column("day", accepts.INT32),
        returns=returns.DATE,
        samples=((Lit(2024), Lit(2), Lit(29)), (Lit(1999), Lit(12), Lit(31))),
        samples_only=True,  # the test frame's months of -2 and 0 fail on every row
        summary="The date of the year, month and day (an error where it does not exist).",
    ),
    _make(
        "make_timestamp",
        dt.Datetime(),
        "The datetime of the fields read in ``timezone`` (default: the session's); ``secs`` may have a "
        "fraction, 60 is the next minute's 0. An error where no such time exists. (PySpark's form from a date "
        "and a time needs time values, which the façade has no type for.)",
        zone=True,
        attempt=False,
    ),
    _make(
        "make_timestamp_ltz",
        dt.Datetime(),
        "The datetime of the fields read in ``timezone`` (default: the session's), as ``make_timestamp``.",
        zone=True,
        attempt=False,
    ),
    _make(
        "make_timestamp_ntz",
        dt.DatetimeNTZ(),
        "The wall-clock datetime (no time zone) of the fields; an error where no such time exists.",
        zone=False,
        attempt=False,
    ),
    _make(
        "try_make_timestamp",
        dt.Datetime(),
        "``make_timestamp``, NULL where no such time exists.",
        zone=True,
        attempt=True,
    ),
    _make(
        "try_make_timestamp_ltz",
        dt.Datetime(),
        "``make_timestamp_ltz``, NULL where no such time exists.",
        zone=True,
        attempt=True,
    ),
    _make(
        "try_make_timestamp_ntz",
        dt.DatetimeNTZ(),
        "``make_timestamp_ntz``, NULL where no such time exists.",
        zone=False,
        attempt=True,
    ),
    _entry(
        "make_dt_interval",
        column("days", accepts.INT32, default=None, none=_zero),
        column("hours", accepts.INT32, default=None, none=_zero),
        column("mins", accepts.INT32, default=None, none=_zero),
        column("secs", accepts.NUMBER, default=None, none=_zero),
        returns=fixed(dt.Duration()),
        nullable=_seconds_nullable(3, 18),
        samples=((Lit(1), Lit(-2), Lit(30), Lit(_SECONDS)), (dt.Int32(), (dt.Int64(), True))),
        summary="The duration of the days, hours, minutes and seconds (each may be negative; omitted ones are 0).",
    ),
    # --- epochs ---
    _entry(
        "unix_date",
        column("col", accepts.DATE),
        nullable=any_null,
        summary="Days since 1970-01-01.",
    ),
    _entry(
        "date_from_unix_date",
        column("days", accepts.INT32),
        returns=returns.DATE,
        nullable=any_null,
        summary="The date ``days`` days after 1970-01-01.",
    ),
    *(
        _entry(
            f"unix_{unit}",
            column("col", accepts.TIMESTAMP),
            returns=returns.BIGINT,
            nullable=any_null,
            summary=f"Whole {words} since 1970-01-01 00:00:00 UTC (a ``timestamp_ntz`` read as UTC).",
        )
        for unit, words in (("seconds", "seconds"), ("millis", "milliseconds"), ("micros", "microseconds"))
    ),
    _entry(
        "timestamp_seconds",
        column("col", accepts.NUMBER),
        returns=returns.TIMESTAMP,
        nullable=lambda a: any_null(a) or isinstance(a.dtype(0), dt.Floating),
        summary="The instant ``col`` seconds (with a fraction) after 1970-01-01 00:00:00 UTC (NULL for NaN).",
    ),
    *(
        _entry(
            f"timestamp_{unit}",
            column("col", accepts.INTEGER),
            returns=returns.TIMESTAMP,
            nullable=any_null,
            summary=f"The instant ``col`` {words} after 1970-01-01 00:00:00 UTC.",
        )
        for unit, words in (("millis", "milliseconds"), ("micros", "microseconds"))
    ),
    _entry(
        "unix_timestamp",
        column("timestamp", STRING_OR_TIME, default=None, none=_now),
        value("format", str, default="yyyy-MM-dd HH:mm:ss", check=_parse_pattern, sample="yyyy-MM-dd"),
        returns=returns.BIGINT,
        nullable=any_null,
        session=True,
        samples=(
            (_WHEN_TEXT,),
            (_DAY_TEXT, "yyyy-MM-dd"),
            (dt.Date(), "yyyy"),
            ((dt.Datetime(), True),),
            (dt.DatetimeNTZ(), "yyyy-MM-dd"),
        ),
        samples_only=True,  # the test frame's strings parse as no time
        summary=(
            "Seconds since 1970-01-01 00:00:00 UTC of the datetime, or of the string parsed with ``format`` in the "
            "session time zone (an error where it does not parse); without ``timestamp``, of the current time."
        ),
    ),
    _entry(
        "to_unix_timestamp",
        column("timestamp", STRING_OR_TIME),
        column("format", accepts.STRING, default=ABSENT),
        returns=returns.BIGINT,
        nullable=any_null,
        session=True,
        check=_literal_checks((1, "format", _parse_pattern)),
        samples=(
            (_WHEN_TEXT,),
            (_DAY_TEXT, Lit("yyyy-MM-dd")),
            ((dt.Date(), True),),
            (dt.Datetime(), Lit("yyyy")),
            ((dt.DatetimeNTZ(), True),),
        ),
        samples_only=True,  # the test frame's strings parse as no time
        summary=(
            "``unix_timestamp`` with PySpark's column ``format`` (``F.lit('yyyy-MM-dd')``; default "
            "``yyyy-MM-dd HH:mm:ss``)."
        ),
    ),
    _entry(
        "from_unixtime",
        column("timestamp", accepts.NUMBER),
        value("format", str, default="yyyy-MM-dd HH:mm:ss", check=_format_pattern),
        returns=fixed(dt.String()),
        session=True,
        summary="Seconds since the epoch as text in ``format``.",
        nullable=always,
    ),
    # --- parsing ---
    _entry(
        "to_date",
        column("col", STRING_OR_TIME),
        value("format", str, default=ABSENT, sample="yyyy-MM-dd", check=_parse_pattern),
        returns=returns.DATE,
        nullable=_to_date_nullable,
        summary=("The string parsed as a date (with ``format``, a Spark datetime pattern); a date or datetime's date."),
    ),
    _entry(
        "try_to_date",
        column("col", accepts.STRING),
        value("format", str, default=ABSENT, sample="yyyy-MM-dd", check=_parse_pattern),
        returns=returns.DATE,
        nullable=always,
        samples=((_DAY_TEXT,), (_DAY_TEXT, "dd/MM/yyyy")),
        summary="``to_date``, NULL where the string does not parse.",
    ),
    _entry(
        "to_timestamp",
        column("col", accepts.STRING),
        value("format", str, default=ABSENT, sample="yyyy-MM-dd", check=_parse_pattern),
        returns=fixed(dt.Datetime()),
        nullable=_parsed_nullable,
        session=True,
        summary="The string parsed as a datetime (in the session time zone).",
    ),
    _entry(
        "try_to_timestamp",
        column("col", accepts.STRING),
        column("format", accepts.STRING, default=ABSENT),
        returns=returns.TIMESTAMP,
        nullable=always,
        session=True,
        check=_literal_checks((1, "format", _parse_pattern)),
        samples=((_WHEN_TEXT,), (_DAY_TEXT, Lit("yyyy-MM-dd")), (_DAY_TEXT, Lit("HH:mm")), ((dt.String(), True),)),
        samples_only=True,  # the test frame's strings are no datetime patterns
        summary="``to_timestamp``, NULL where the string does not parse (PySpark's column ``format``: ``F.lit(...)``).",
    ),
    _entry(
        "to_timestamp_ltz",
        column("timestamp", accepts.STRING),
        column("format", accepts.STRING, default=ABSENT),
        returns=returns.TIMESTAMP,
        nullable=_parsed_nullable,
        session=True,
        check=_literal_checks((1, "format", _parse_pattern)),
        samples=((_WHEN_TEXT,), (_DAY_TEXT, Lit("yyyy-MM-dd")), (Lit("2024-02-29T13:05"), Lit("yyyy-MM-dd'T'HH:mm"))),
        samples_only=True,  # the test frame's strings parse as no time
        summary="The string parsed as a datetime (an instant) in the session time zone (``format``: ``F.lit(...)``).",
    ),
    _entry(
        "to_timestamp_ntz",
        column("timestamp", accepts.STRING),
        column("format", accepts.STRING, default=ABSENT),
        returns=returns.TIMESTAMP_NTZ,
        nullable=_parsed_nullable,
        check=_literal_checks((1, "format", _parse_pattern)),
        samples=((_WHEN_TEXT,), (_DAY_TEXT, Lit("yyyy-MM-dd")), (Lit("2024-02-29T13:05"), Lit("yyyy-MM-dd'T'HH:mm"))),
        samples_only=True,  # the test frame's strings parse as no time
        summary="The string parsed as a wall-clock datetime, no time zone (``format``: ``F.lit(...)``).",
    ),
    # --- time zones ---
    _entry(
        "from_utc_timestamp",
        column("timestamp", accepts.DATE_LIKE),
        either("tz", accepts.STRING, str, check=_zone, sample="Asia/Tokyo"),
        returns=returns.TIMESTAMP,
        nullable=any_null,
        session=True,
        samples=(
            (dt.Datetime(), "Asia/Tokyo"),
            ((dt.Date(), True), "-08:00"),
            (dt.DatetimeNTZ(), Lit("Europe/Paris")),
            ((dt.Datetime(), True), "America/Los_Angeles"),
        ),
        samples_only=True,  # the test frame's strings are no time zones
        summary=(
            "The UTC wall-clock time ``timestamp`` shows, as the instant at which ``tz`` shows it (a time zone "
            "ID: ``'Europe/Paris'``, ``'+02:00'``)."
        ),
    ),
    _entry(
        "to_utc_timestamp",
        column("timestamp", accepts.DATE_LIKE),
        either("tz", accepts.STRING, str, check=_zone, sample="Asia/Tokyo"),
        returns=returns.TIMESTAMP,
        nullable=any_null,
        session=True,
        samples=(
            (dt.Datetime(), "Asia/Tokyo"),
            ((dt.Date(), True), "-08:00"),
            (dt.DatetimeNTZ(), Lit("Europe/Paris")),
            ((dt.Datetime(), True), "America/Los_Angeles"),
        ),
        samples_only=True,  # the test frame's strings are no time zones
        summary="The wall-clock time ``timestamp`` shows in ``tz``, as the instant at which UTC shows it.",
    ),
    _entry(
        "convert_timezone",
        column("sourceTz", accepts.STRING, none=_session_zone),
        column("targetTz", accepts.STRING),
        column("sourceTs", accepts.DATE_LIKE),
        returns=returns.TIMESTAMP_NTZ,
        nullable=lambda a: any_null(a) or isinstance(a.dtype(2), dt.Date),
        session=True,
        check=_literal_checks((0, "sourceTz", _zone), (1, "targetTz", _zone)),
        samples=(
            (Lit("America/New_York"), Lit("Asia/Tokyo"), dt.DatetimeNTZ()),
            (None, Lit("+05:30"), (dt.Datetime(), True)),
            (Lit("UTC"), Lit("Europe/Paris"), dt.Date()),
            (Lit("Australia/Sydney"), Lit("UTC"), (dt.DatetimeNTZ(), True)),
        ),
        samples_only=True,  # the test frame's strings are no time zones
        summary=(
            "The wall-clock time in ``targetTz`` of the wall-clock time ``sourceTs`` in ``sourceTz`` (None: the "
            "session time zone), PySpark's column arguments (``F.lit('Europe/Paris')``); a ``timestamp_ntz``."
        ),
    ),
    # --- now ---
    _entry(
        "current_date",
        returns=returns.DATE,
        nullable=never,
        deterministic=False,
        session=True,
        aliases=("curdate",),
        summary="Today's date at the start of the query (session time zone).",
    ),
    CURRENT_TIMESTAMP,
    CURRENT_TIMEZONE,
    _entry(
        "localtimestamp",
        returns=returns.TIMESTAMP_NTZ,
        nullable=never,
        deterministic=False,
        session=True,
        summary="The session time zone's wall-clock time at the start of the query (a ``timestamp_ntz``).",
    ),
)
