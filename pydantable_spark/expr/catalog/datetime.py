"""Date and time functions (PySpark's), and the ``.dt`` namespace's own methods.

Fields of a ``datetime`` (instant) column are read in the session time zone,
which the embedded session sets to UTC: those entries are ``session=True``.
Spark converts a ``timestamp_ntz`` value to a date with a cast it marks as
possibly failing, so functions of such a column are nullable.
"""

from __future__ import annotations

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ColumnTypeError
from pydantable_spark.expr.catalog.spec import (
    ABSENT,
    DATE_LIKE,
    INT32,
    NUMBER,
    STRING,
    Args,
    Function,
    always,
    any_null,
    column,
    either,
    fixed,
    never,
    one_of,
    value,
)

__all__ = ["ENTRIES", "spark_pattern"]

INT = fixed(dt.Int32())
DATE = fixed(dt.Date())
WHEN = column("col", DATE_LIKE)


def date_nullable(args: Args) -> bool:
    """NULL in, NULL out; a ``timestamp_ntz`` argument is also cast to a date, a cast Spark marks nullable."""
    return any(t.nullable or isinstance(t.dtype, dt.DatetimeNTZ) for t in args.types)


def _entry(name: str, *params: object, returns: object = INT, summary: str, **options: object) -> Function:
    options.setdefault("nullable", date_nullable)
    return Function(name, params, returns, summary, "datetime", **options)  # type: ignore[arg-type]


def _part(name: str, summary: str, **options: object) -> Function:
    return _entry(name, WHEN, summary=summary, session=True, **options)


def _time_part(name: str, summary: str) -> Function:
    return _entry(name, column("col", DATE_LIKE), summary=summary, session=True, nullable=any_null)


_TIME_UNITS = ("year", "quarter", "month", "week", "day", "hour", "minute", "second")


def _parsed_nullable(args: Args) -> bool:
    """``to_date``/``to_timestamp``: with a format, NULL only from a NULL (ANSI fails on bad text); without, always."""
    return len(args.nodes) < 2 or any_null(args)


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
    _time_part("hour", "The hour (0-23)."),
    _time_part("minute", "The minute (0-59)."),
    # --- arithmetic ---
    _entry(
        "date_add",
        column("start", DATE_LIKE),
        either("days", INT32, int, literal=dt.Int32(), names=True),
        returns=DATE,
        summary="The date ``days`` days after ``start`` (a datetime is truncated to its date).",
        aliases=("dateadd",),
    ),
    _entry(
        "date_sub",
        column("start", DATE_LIKE),
        either("days", INT32, int, literal=dt.Int32(), names=True),
        returns=DATE,
        summary="The date ``days`` days before ``start``.",
    ),
    _entry(
        "datediff",
        column("end", DATE_LIKE),
        column("start", DATE_LIKE),
        summary="Days from ``start`` to ``end`` (PySpark's order: end first).",
        aliases=("date_diff",),
    ),
    _entry(
        "add_months",
        column("start", DATE_LIKE),
        either("months", INT32, int, literal=dt.Int32(), names=True),
        returns=DATE,
        summary="The date ``months`` months after ``start`` (clamped to the month's last day).",
    ),
    _entry("last_day", column("date", DATE_LIKE), returns=DATE, summary="The last day of the date's month."),
    _entry(
        "next_day",
        column("date", DATE_LIKE),
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
        returns=DATE,
        nullable=always,
        summary="The first date after ``date`` that falls on ``dayOfWeek``.",
    ),
    # --- truncation and formatting ---
    _entry(
        "trunc",
        column("date", DATE_LIKE),
        value(
            "format", str, check=one_of("year", "yyyy", "yy", "quarter", "month", "mon", "mm", "week"), sample="month"
        ),
        returns=DATE,
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
        column("timestamp", DATE_LIKE),
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
        column("date", DATE_LIKE),
        value("format", str),
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
    # --- construction and parsing ---
    _entry(
        "make_date",
        column("year", INT32),
        column("month", INT32),
        column("day", INT32),
        returns=DATE,
        summary="The date of the year, month and day (an error where it does not exist).",
    ),
    _entry(
        "to_date",
        column("col", STRING),
        value("format", str, default=ABSENT, sample="yyyy-MM-dd"),
        returns=DATE,
        nullable=_parsed_nullable,
        summary="The string parsed as a date (with ``format``, a Spark datetime pattern).",
    ),
    _entry(
        "to_timestamp",
        column("col", STRING),
        value("format", str, default=ABSENT, sample="yyyy-MM-dd"),
        returns=fixed(dt.Datetime()),
        nullable=_parsed_nullable,
        session=True,
        summary="The string parsed as a datetime (in the session time zone).",
    ),
    _entry(
        "from_unixtime",
        column("timestamp", NUMBER),
        value("format", str, default="yyyy-MM-dd HH:mm:ss"),
        returns=fixed(dt.String()),
        session=True,
        summary="Seconds since the epoch as text in ``format``.",
        nullable=always,
    ),
    # --- now ---
    _entry(
        "current_date",
        returns=DATE,
        nullable=never,
        deterministic=False,
        session=True,
        aliases=("curdate",),
        summary="Today's date at the start of the query (session time zone).",
    ),
    _entry(
        "current_timestamp",
        returns=fixed(dt.Datetime()),
        nullable=never,
        deterministic=False,
        aliases=("now",),
        summary="The time at the start of the query.",
    ),
)
