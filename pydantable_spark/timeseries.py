"""The interface contract's time-series spellings, over Spark's own windows.

* ``group_by_dynamic(index_column, every=, period=, offset=, by=)`` groups by
  ``F.window(index_column, period, every, offset)`` (a window of ``period``
  every ``every``, shifted by ``offset``), and ``by``; ``agg`` gives each
  window's start under the index column's name (``groupby.DynamicGroupBy``).
* ``rolling_agg(on=, column=, window_size=, op=, out_name=, by=)`` is one
  aggregate over ``Window.partition_by(by).order_by(on).range_between(-window_size, 0)``:
  for each row, the rows of its partition whose ``on`` is at most
  ``window_size`` before its own (itself and its ties included).

Durations are ``timedelta``s, Spark's interval text (``"1 hour"``) or Polars'
compact text (``"1h"``, ``"30m"``, ``"1d"``), parsed when the call is made
(``catalog.time_windows.interval_micros``); months and years are refused, as
Spark refuses them.

```pycon
>>> import datetime
>>> from pydantable_spark import DataFrameModel, F
>>> class Tick(DataFrameModel):
...     at: datetime.datetime
...     sym: str
...     px: float
>>> ticks = Tick.from_rows([])
>>> print(ticks.group_by_dynamic("at", every="1h", by="sym").agg(n=F.count(), hi=F.max(Tick.px)).schema)
sym: str (string)
at: datetime (timestamp)
n: int (bigint)
hi: float | None (double)
>>> print(ticks.rolling_agg(on="at", column="px", window_size="2h", op="mean", out_name="avg", by="sym").schema)
at: datetime (timestamp)
sym: str (string)
px: float (double)
avg: float | None (double)

```
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any, Literal

from pydantable_spark import dtypes as dt
from pydantable_spark import functions as F
from pydantable_spark.errors import ArgumentTypeError, ArgumentValueError, ColumnTypeError, UnknownColumnError, shown
from pydantable_spark.expr.catalog.spec import kind_label
from pydantable_spark.expr.catalog.time_windows import interval_micros
from pydantable_spark.expr.core import check_param
from pydantable_spark.expr.windowspec import Window
from pydantable_spark.into import items_of, name_of, names_of

if TYPE_CHECKING:
    from collections.abc import Sequence

    from pydantable_spark.expr.api import Expr
    from pydantable_spark.frame import DataFrame
    from pydantable_spark.groupby import DynamicGroupBy
    from pydantable_spark.schema import Schema
    from pydantable_spark.selectors import Selector

__all__ = ["ROLLING_OPS", "Duration", "RollingOp", "dynamic_groups", "rolling_column"]

Duration = str | datetime.timedelta
"""A duration: a ``timedelta``, Spark's interval text (``"1 hour"``) or Polars' (``"1h"``)."""
RollingOp = Literal["sum", "mean", "min", "max", "count"]
ROLLING_OPS: tuple[str, ...] = ("sum", "mean", "min", "max", "count")
"""The aggregates ``rolling_agg`` takes (the interface contract's)."""

_TIMES = (dt.Date, dt.Datetime, dt.DatetimeNTZ)


def _micros(value: object, what: str, name: str, *, zero: bool = False) -> int:
    """A positive duration in microseconds (``zero``: 0 allowed), or a clear error naming the argument."""
    if isinstance(value, bool) or not isinstance(value, str | datetime.timedelta):
        msg = (
            f"{what}: {name} must be a duration, a timedelta or text as '1h', '30m' or '1 hour', "
            f"got {shown(value)} ({type(value).__name__})"
        )
        raise ArgumentTypeError(msg)
    try:
        micros = interval_micros(value)
    except ValueError as error:
        msg = f"{what}: {name} {error}, got {shown(value)}"
        raise ArgumentValueError(msg) from None
    if micros < 0 or (micros == 0 and not zero):
        msg = f"{what}: {name} must be a positive duration, got {shown(value)}"
        raise ArgumentValueError(msg)
    return micros


def _time_column(schema: Schema, item: object, what: str, name: str) -> dt.Field:
    """The date or datetime column ``item`` names."""
    column = name_of(item, f"{what}: {name}")
    found = schema.get(column)
    if found is None:
        raise UnknownColumnError(column, schema.names, where=f"{what}: {name}")
    if not isinstance(found.dtype, _TIMES):
        msg = (
            f"{what}: {name} {column!r} is {kind_label(found.dtype)}; it must be a date or a datetime "
            "(Spark's windows are spans of time)"
        )
        raise ColumnTypeError(msg)
    return found


def dynamic_groups(
    frame: DataFrame[Any],
    index_column: str | Expr[Any],
    *,
    every: Duration,
    period: Duration | None,
    offset: Duration | None,
    by: str | Expr[Any] | Selector | Sequence[str | Expr[Any] | Selector] | None,
    drop_nulls: bool,
) -> DynamicGroupBy[Any]:
    """The groups of ``group_by_dynamic``: the ``by`` keys, then ``F.window`` over the index column, named after it.

    Windows of ``period`` start every ``every`` at ``offset`` past 1970-01-01
    00:00 UTC; an offset of a whole ``every`` or more gives the same windows, so
    it is taken modulo ``every`` (Spark takes an offset shorter than the slide only).
    """
    from pydantable_spark.groupby import DynamicGroupBy

    what = "group_by_dynamic()"
    check_param(what, "drop_nulls", drop_nulls, bool)
    index = _time_column(frame.schema, index_column, what, "index_column")
    slide = _micros(every, what, "every")
    length = slide if period is None else _micros(period, what, "period")
    start = 0 if offset is None else _signed_micros(offset, what)
    if length < slide:
        msg = (
            f"{what}: period ({shown(period)}) is shorter than every ({shown(every)}): the windows would leave "
            "gaps, which Spark's windows cannot; make period at least every"
        )
        raise ArgumentValueError(msg)
    keys = names_of(items_of(by, f"{what}: by") if by is not None else [], frame.schema, f"{what}: by")
    if index.name in keys:
        msg = f"{what}: {index.name!r} is the index column; it cannot also be a key in by="
        raise ArgumentValueError(msg)
    micros = datetime.timedelta(microseconds=1)
    window = F.window(F.col(index.name), length * micros, slide * micros, (start % slide) * micros).alias(index.name)
    nodes = frame._items([*keys, window], {}, what)
    return DynamicGroupBy(frame, tuple(nodes), drop_nulls, index.name)


def _signed_micros(value: object, what: str) -> int:
    """``offset``: a duration, negative ones too (``"-1h"`` is not Polars' text: pass ``-timedelta(hours=1)``)."""
    if isinstance(value, datetime.timedelta) and value < datetime.timedelta(0):
        return -_micros(-value, what, "offset", zero=True)
    return _micros(value, what, "offset", zero=True)


def rolling_column(
    schema: Schema,
    *,
    on: str | Expr[Any],
    column: str | Expr[Any],
    window_size: int | Duration,
    op: str,
    by: str | Expr[Any] | Selector | Sequence[str | Expr[Any] | Selector] | None,
    min_periods: int,
) -> Expr[Any]:
    """The expression of ``rolling_agg``: ``op`` of ``column`` over the trailing range of ``on`` ending at each row.

    ``on`` is a date, datetime or integer column, not nullable (Spark would put
    the rows whose ``on`` is NULL in one window of their own); ``window_size``
    is a duration for dates and datetimes (whole days for a date), an ``int``
    for an integer ``on``. ``min_periods``: fewer non-NULL values in the
    window make the result NULL (``count`` counts them and is never NULL).
    """
    what = "rolling_agg()"
    if op not in ROLLING_OPS:
        msg = f"{what}: op={shown(op)} is not a rolling aggregate; use one of {', '.join(ROLLING_OPS)}"
        raise ArgumentValueError(msg)
    check_param(what, "min_periods", min_periods, int)
    if min_periods < 1:
        msg = f"{what}: min_periods must be at least 1, got {min_periods}"
        raise ArgumentValueError(msg)
    if op == "count" and min_periods != 1:
        msg = (
            f"{what}: op='count' counts the non-NULL values of the window and is never NULL (0 for a window "
            f"of NULLs), so min_periods={min_periods} does not apply; compare the count with it instead"
        )
        raise ArgumentValueError(msg)
    key, size = _order_key(schema, on, window_size, what)
    values = name_of(column, f"{what}: column")
    if values not in schema:
        raise UnknownColumnError(values, schema.names, where=f"{what}: column")
    keys = names_of(items_of(by, f"{what}: by") if by is not None else [], schema, f"{what}: by")
    window = Window.partition_by(*keys).order_by(key).range_between(-size, 0)
    aggregate = {"sum": F.sum, "mean": F.mean, "min": F.min, "max": F.max, "count": F.count}[op]
    result = aggregate(F.col(values)).over(window)
    if min_periods == 1:
        return result  # an aggregate of a window of NULLs is NULL already
    return F.when(F.count(F.col(values)).over(window) >= min_periods, result)


def _order_key(schema: Schema, on: object, window_size: object, what: str) -> tuple[Expr[Any], int]:
    """The numeric order key the range frame is counted in, and ``window_size`` in its unit."""
    name = name_of(on, f"{what}: on")
    found = schema.get(name)
    if found is None:
        raise UnknownColumnError(name, schema.names, where=f"{what}: on")
    if found.nullable:
        msg = (
            f"{what}: on {name!r} is nullable ({kind_label(found.dtype)} | None); Spark's range windows put the "
            f"rows whose {name!r} is NULL in one window of their own. Leave them out first: "
            f"df.drop_nulls(subset=[{name!r}])"
        )
        raise ColumnTypeError(msg)
    dtype = found.dtype
    if isinstance(dtype, dt.Integral):
        if isinstance(window_size, bool) or not isinstance(window_size, int):
            msg = (
                f"{what}: on {name!r} is {kind_label(dtype)}, so window_size is an int in its unit; "
                f"got {shown(window_size)} ({type(window_size).__name__})"
            )
            raise ArgumentTypeError(msg)
        if window_size <= 0:
            msg = f"{what}: window_size must be positive, got {window_size}"
            raise ArgumentValueError(msg)
        return F.col(name), window_size
    if not isinstance(dtype, _TIMES):
        msg = f"{what}: on {name!r} is {kind_label(dtype)}; it must be a date, a datetime or an integer column"
        raise ColumnTypeError(msg)
    micros = _micros(window_size, what, "window_size")
    if isinstance(dtype, dt.Date):
        day = 86_400_000_000
        if micros % day:
            msg = f"{what}: on {name!r} is a date, so window_size must be whole days, got {shown(window_size)}"
            raise ArgumentValueError(msg)
        return F.unix_date(F.col(name)), micros // day
    if isinstance(dtype, dt.DatetimeNTZ):  # counted without a time zone (unix_micros would read it in the session's)
        epoch = F.lit(datetime.datetime(1970, 1, 1), dt.DatetimeNTZ())
        return F.timestamp_diff("microsecond", epoch, F.col(name)), micros
    return F.unix_micros(F.col(name)), micros
