"""Time buckets: ``F.window``, ``F.session_window`` as ``group_by`` keys, ``F.window_time``, ``F.time_bucket``.

``F.time_bucket(size, ts, origin)`` is a row-by-row function (the start of the
bucket of a fixed size a time falls in), no group key; its size is a positive
``timedelta`` constant (Spark also takes a year-month interval, which no
column type holds) and its origin a constant of the time column's type.

A bucket is a struct of ``start`` and ``end`` (both nullable, of the time
column's type: ``timestamp_ntz`` for a naive column, ``timestamp`` otherwise),
and stands only as a key of ``group_by`` (``Kind.GROUP_KEY``): Spark gives it
no other meaning, and a sliding window puts a row in several windows.

Durations are Python values, checked when the call is made: a ``timedelta``,
or Spark's interval text (``"10 minutes"``, ``"1 hour 30 minutes"``, an
optional ``interval`` first; units from week down to microsecond, whole
numbers). Months and years are refused, as Spark refuses them (their length
varies); so is a duration that is not positive, a slide longer than the window
and a start not shorter than the slide. Spark never sees the text passed: the
lowering writes each duration as the number of microseconds it parsed
(``'600000000 microseconds'``). The session gap is a value too: a gap read
from a column is not offered, since Spark leaves out, silently, a row whose
gap text does not parse.

Spark leaves out the rows whose time is NULL when it groups by a bucket, so
``group_by(..., drop_nulls=False)`` over a nullable time column is refused.

```pycon
>>> interval_micros("1 hour 30 minutes")
5400000000
>>> interval_micros("2 months")
Traceback (most recent call last):
...
ValueError: holds months or years, whose length varies; Spark takes weeks down to microseconds
>>> window_shapes("10 minutes", "5 minutes", None)
(600000000, 300000000, 0)

```
"""

from __future__ import annotations

import datetime
import re

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ColumnTypeError
from pydantable_spark.expr.catalog import accepts
from pydantable_spark.expr.catalog.spec import (
    ABSENT,
    Accepts,
    Args,
    Function,
    Kind,
    always,
    column,
    either,
    entry,
    never,
    same,
    value,
)
from pydantable_spark.expr.core import Literal, literal_of

__all__ = ["ENTRIES", "interval_micros", "micros_text", "window_shapes"]

_MICROS = {
    "week": 7 * 86_400_000_000,
    "day": 86_400_000_000,
    "hour": 3_600_000_000,
    "minute": 60_000_000,
    "second": 1_000_000,
    "millisecond": 1_000,
    "microsecond": 1,
}
_VARYING = ("month", "year")
_PART = re.compile(r"([+-]?\d+)\s+([a-z]+)")
_TEXT = re.compile(r"(?:interval\s+)?(?:[+-]?\d+\s+[a-z]+\s*)+")
_COMPACT_PART = re.compile(r"(\d+)([a-zµ]+)")
_COMPACT = re.compile(r"(?:\d+[a-zµ]+)+")
_COMPACT_UNITS = {"us": 1, "µs": 1, "ms": 1_000, "s": 1_000_000, "m": 60_000_000, "h": 3_600_000_000}
_COMPACT_UNITS |= {"d": _MICROS["day"], "w": _MICROS["week"]}


def interval_micros(duration: str | datetime.timedelta) -> int:
    """The microseconds of a duration; ValueError if invalid.

    A ``timedelta``, Spark's interval text (``"1 hour 30 minutes"``) or Polars'
    compact one (``"1h30m"``: ``ns``, ``us``, ``ms``, ``s``, ``m``, ``h``,
    ``d``, ``w``; a day is 24 hours, as in Spark).

    >>> interval_micros("1h30m") == interval_micros("1 hour 30 minutes") == 5_400_000_000
    True
    """
    if isinstance(duration, datetime.timedelta):
        return duration // datetime.timedelta(microseconds=1)
    text = duration.strip().lower()
    if _COMPACT.fullmatch(text):
        return _compact_micros(text)
    if not _TEXT.fullmatch(text):
        msg = (
            "is not an interval: write whole numbers with units, as '10 minutes' or '1 hour 30 minutes' "
            "(or Polars' '10m', '1h30m')"
        )
        raise ValueError(msg)
    total = 0
    for count, word in _PART.findall(text.removeprefix("interval")):
        unit = word.removesuffix("s")
        if unit in _VARYING:
            msg = "holds months or years, whose length varies; Spark takes weeks down to microseconds"
            raise ValueError(msg)
        if unit not in _MICROS:
            msg = f"has the unit {word!r}; the units are {', '.join(_MICROS)} (or their plurals)"
            raise ValueError(msg)
        total += int(count) * _MICROS[unit]
    return total


def _compact_micros(text: str) -> int:
    """Polars' duration text (``"1h30m"``) in microseconds."""
    total = 0
    for count, unit in _COMPACT_PART.findall(text):
        if unit in ("mo", "q", "y"):
            msg = "holds months, quarters or years, whose length varies; Spark takes weeks down to microseconds"
            raise ValueError(msg)
        if unit == "ns":
            if int(count) % 1000:
                msg = f"holds {count} nanoseconds; Spark counts whole microseconds"
                raise ValueError(msg)
            total += int(count) // 1000
            continue
        if unit not in _COMPACT_UNITS:
            msg = f"has the unit {unit!r}; Polars' units Spark takes are ns, us, ms, s, m, h, d, w"
            raise ValueError(msg)
        total += int(count) * _COMPACT_UNITS[unit]
    return total


def micros_text(micros: int) -> str:
    """A duration as Spark reads it, from the microseconds the façade parsed."""
    return f"{micros} microseconds"


def _check_duration(duration: str | datetime.timedelta, *, signed: bool = False) -> str | None:
    try:
        micros = interval_micros(duration)
    except ValueError as error:
        return str(error)
    if micros <= 0 and not signed:
        return f"must be a positive duration (it is {micros} microseconds)"
    return None


def _positive(duration: str | datetime.timedelta) -> str | None:
    return _check_duration(duration)


def _signed(duration: str | datetime.timedelta) -> str | None:
    return _check_duration(duration, signed=True)


def window_shapes(
    duration: str | datetime.timedelta,
    slide: str | datetime.timedelta | None,
    start: str | datetime.timedelta | None,
) -> tuple[int, int, int]:
    """The window's length, slide and start in microseconds (a missing slide is the length, a start 0)."""
    length = interval_micros(duration)
    return length, length if slide is None else interval_micros(slide), 0 if start is None else interval_micros(start)


def _check_window(args: Args) -> None:
    length, slide, start = window_shapes(args.value(1), args.value(2), args.value(3))
    if slide > length:
        msg = f"{args.name}(): slideDuration ({slide} microseconds) is longer than windowDuration ({length})"
        raise ColumnTypeError(msg)
    if abs(start) >= slide:
        msg = (
            f"{args.name}(): startTime ({start} microseconds) must be shorter than the slide ({slide}); "
            "a start of a whole slide or more is the same windows"
        )
        raise ColumnTypeError(msg)


def _sliding(args: Args) -> bool:
    """Spark types a sliding window nullable (it expands each row), a tumbling one not (NULL times are left out)."""
    length, slide, _ = window_shapes(args.value(1), args.value(2), args.value(3))
    return slide < length


def _unset() -> Literal:
    """What None stands for in window's optional durations (the slide is then the length, the start 0)."""
    return literal_of(None, dt.String())


def _time_type(args: Args) -> dt.DType:
    return dt.DatetimeNTZ() if isinstance(args.dtype(0), dt.DatetimeNTZ) else dt.Datetime()


def _bucket(args: Args) -> dt.DType:
    """``struct<start, end>`` of the time column's type (a date is read as a timestamp), fields nullable."""
    time = _time_type(args)
    return dt.Struct((dt.Field("start", time, True), dt.Field("end", time, True)))


def _is_bucket(dtype: dt.DType) -> bool:
    return (
        isinstance(dtype, dt.Struct)
        and [f.name for f in dtype.fields] == ["start", "end"]
        and all(isinstance(f.dtype, dt.Datetime | dt.DatetimeNTZ) for f in dtype.fields)
        and dtype.fields[0].dtype == dtype.fields[1].dtype
    )


_BUCKETS = tuple(
    dt.Struct((dt.Field("start", time, True), dt.Field("end", time, True)))
    for time in (dt.Datetime(), dt.DatetimeNTZ())
)
BUCKET = Accepts("a time bucket (a group_by key made by F.window or F.session_window)", _is_bucket, examples=_BUCKETS)


def _bucket_end(args: Args) -> dt.DType:
    dtype = args.dtype(0)
    assert isinstance(dtype, dt.Struct)
    return dtype.fields[1].dtype


_DURATION = (str, datetime.timedelta)
DURATION = Accepts("a timedelta", lambda t: isinstance(t, dt.Duration), examples=(dt.Duration(),))


def _positive_interval(size: datetime.timedelta) -> str | None:
    return None if size > datetime.timedelta(0) else "must be a positive timedelta"


def _origin_like_time(args: Args) -> None:
    if len(args) > 2 and args.dtype(2) != args.dtype(1):
        msg = (
            f"{args.name}(): origin is {args.dtype(2)} where ts is {args.dtype(1)}; they must be the same type "
            "(a naive datetime for a timestamp_ntz, an aware one for a timestamp)"
        )
        raise ColumnTypeError(msg)


ENTRIES: tuple[Function, ...] = (
    entry(
        "window",
        (
            column("timeColumn", accepts.DATE_LIKE),
            value("windowDuration", *_DURATION, check=_positive, sample="1 day"),
            value("slideDuration", *_DURATION, default=None, check=_positive, sample="12 hours", none=_unset),
            value("startTime", *_DURATION, default=None, check=_signed, sample="1 hour", none=_unset),
        ),
        _bucket,
        "The fixed windows a time falls in (tumbling, or sliding with a slide), as a group_by key.",
        "datetime",
        nullable=_sliding,
        kind=Kind.GROUP_KEY,
        special=True,
        check=_check_window,
        output=lambda args: "window",
        example='df.group_by(F.window(Event.at, "10 minutes")).agg(F.count().alias("n"))',
    ),
    entry(
        "session_window",
        (
            column("timeColumn", accepts.DATE_LIKE),
            value("gapDuration", *_DURATION, check=_positive, sample="1 hour"),
        ),
        _bucket,
        "Sessions of times at most gapDuration apart, as a group_by key.",
        "datetime",
        nullable=never,
        kind=Kind.GROUP_KEY,
        special=True,
        output=lambda args: "session_window",
        example='df.group_by(F.session_window(Event.at, "30 minutes")).agg(F.count().alias("n"))',
    ),
    entry(
        "time_bucket",
        (
            either(
                "bucket_size",
                DURATION,
                datetime.timedelta,
                check=_positive_interval,
                foldable=True,
                column_in_pyspark=True,
                sample=datetime.timedelta(minutes=15),
            ),
            column("ts", accepts.TIMESTAMP),
            either(
                "origin",
                accepts.TIMESTAMP,
                datetime.datetime,
                default=ABSENT,
                foldable=True,
                column_in_pyspark=True,
                sample=datetime.datetime(1970, 1, 1, 0, 5, tzinfo=datetime.timezone.utc),
            ),
        ),
        same(1),
        "The start of the bucket of ``bucket_size`` a time falls in, buckets counted from ``origin`` (1970).",
        "datetime",
        check=_origin_like_time,
        session=True,
        example="F.time_bucket(datetime.timedelta(minutes=15), Event.at)",
    ),
    entry(
        "window_time",
        (column("windowColumn", BUCKET),),
        _bucket_end,
        "The last instant of a time bucket's window (its end less one microsecond).",
        "datetime",
        nullable=always,
        labels={"surprise": "Spark takes only a column made by a time bucket, not a struct built otherwise."},
    ),
)
"""The time-bucket entries (``datetime`` in the reference page)."""
