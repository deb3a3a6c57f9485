"""How Spark compares, orders and converts the values inside lists, maps and structs (the collection kernels share it).

- *Equal* (``ordering.equiv``, what ``array_contains``, ``array_remove``,
  ``nullif``... test): NaN equals NaN and ``-0.0`` equals ``0.0``; lists and
  structs equal element by element, a NULL equal to a NULL inside them.
- *Ordered* (``array_max``, ``sort_array``...): NaN above every number, ``-0.0``
  level with ``0.0``, NULL below everything inside a nested value; strings by
  code point (their UTF-8 bytes' order), bytes unsigned.
- *Set keys* (``array_distinct``, ``array_union``...): Spark normalizes floats
  first, so a ``-0.0`` comes out as ``0.0`` (measured, nested ones too).
- *Converted* to the type arguments meet in (``array(int, double)`` holds
  doubles): only the conversions that cannot round otherwise than Spark's cast
  (``convertible``); a call needing another is refused when the plan is exported.

>>> equal(float("nan"), float("nan")), equal(-0.0, 0.0), equal([1, None], [1, None])
(True, True, True)
>>> sorted([2.0, float("nan"), -1.0], key=order_key)
[-1.0, 2.0, nan]
>>> normalized([-0.0, {"x": -0.0}])
[0.0, {'x': 0.0}]
"""

from __future__ import annotations

import datetime
import decimal
import math
import struct
from typing import TYPE_CHECKING, Any

from pydantable_spark import dtypes as dt

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

__all__ = [
    "MAX_ARRAY_LENGTH",
    "MICROS_PER_DAY",
    "converter",
    "convertible",
    "equal",
    "instant_offset",
    "micros",
    "moment",
    "normalized",
    "order_key",
    "resolved",
    "to_float32",
    "wall_offset",
]

MAX_ARRAY_LENGTH = 2_147_483_632
"""Spark's largest array (``ByteArrayMethods.MAX_ROUNDED_ARRAY_LENGTH``)."""


def equal(a: Any, b: Any) -> bool:
    """Whether two non-NULL values of one type are equal as Spark's ordering says (``ordering.equiv``)."""
    if isinstance(a, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, list):
        return len(a) == len(b) and all(_equal_or_null(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return all(_equal_or_null(x, y) for x, y in zip(a.values(), b.values(), strict=True))
    return bool(a == b)


def _equal_or_null(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return equal(a, b)


def order_key(value: Any) -> Any:
    """A key sorting non-NULL values as Spark orders them (NaN largest, ``-0.0`` level with ``0.0``)."""
    if isinstance(value, float):
        return (1, 0.0) if math.isnan(value) else (0, value + 0.0)
    if isinstance(value, list):
        return tuple(_nested_key(v) for v in value)
    if isinstance(value, dict):
        return tuple(_nested_key(v) for v in value.values())
    return value


def _nested_key(value: Any) -> Any:
    """Inside a list or struct, NULL sorts below every value."""
    return (0,) if value is None else (1, order_key(value))


def normalized(value: Any) -> Any:
    """``value`` with every ``-0.0`` made ``0.0``, as Spark's set functions give their elements back."""
    if isinstance(value, float):
        return value + 0.0
    if isinstance(value, list):
        return [None if v is None else normalized(v) for v in value]
    if isinstance(value, dict):
        return {k: None if v is None else normalized(v) for k, v in value.items()}
    return value


def to_float32(value: int) -> float:
    """The float nearest an integer, half to even, as Java's ``(float)`` cast rounds (once, not through a double)."""
    magnitude = abs(value)
    excess = magnitude.bit_length() - 24
    if excess > 0:
        quotient, rest = divmod(magnitude, 1 << excess)
        half = 1 << (excess - 1)
        if rest > half or (rest == half and quotient & 1):
            quotient += 1
        magnitude = quotient << excess
    rounded: float = struct.unpack("f", struct.pack("f", float(magnitude)))[0]
    return -rounded if value < 0 else rounded


def convertible(source: dt.DType, target: dt.DType) -> bool:
    """Whether ``converter`` converts values of ``source`` to ``target`` exactly as Spark's cast does."""
    return _converter(source, target) is not None


def converter(source: dt.DType, target: dt.DType, zone: datetime.tzinfo) -> Callable[[Any], Any]:
    """The conversion of non-NULL ``source`` values to ``target`` (``convertible`` must hold).

    ``zone`` is the session's time zone (a date meets a timestamp at midnight there).
    """
    made = _converter(source, target, zone)
    assert made is not None, f"no conversion from {source} to {target}"
    return made


def _same(value: Any) -> Any:
    return value


def _converter(
    source: dt.DType, target: dt.DType, zone: datetime.tzinfo = datetime.timezone.utc
) -> Callable[[Any], Any] | None:
    """The conversion, or None where Spark's cast is not matched here (a decimal to a float rounds its own way)."""
    if source == target:
        return _same
    if isinstance(source, dt.Integral):
        if isinstance(target, dt.Integral) and target.bounds()[1] >= source.bounds()[1]:
            return _same
        if isinstance(target, dt.Float64):
            return float
        if isinstance(target, dt.Float32):
            return to_float32
        if isinstance(target, dt.Decimal):
            return decimal.Decimal
        return None
    if isinstance(source, dt.Float32) and isinstance(target, dt.Float64):
        return _same
    if isinstance(source, dt.Decimal) and isinstance(target, dt.Decimal):
        widens = target.scale >= source.scale and target.integer_digits >= source.integer_digits
        return _same if widens else None
    if isinstance(source, dt.Date):
        if isinstance(target, dt.DatetimeNTZ):
            return lambda day: datetime.datetime.combine(day, datetime.time())
        if isinstance(target, dt.Datetime):
            return lambda day: _instant(datetime.datetime.combine(day, datetime.time()), zone)
        return None
    if isinstance(source, dt.DatetimeNTZ) and isinstance(target, dt.Datetime):
        return lambda wall: _instant(wall, zone)
    return _nested_converter(source, target, zone)


def _nested_converter(source: dt.DType, target: dt.DType, zone: datetime.tzinfo) -> Callable[[Any], Any] | None:
    if isinstance(source, dt.List) and isinstance(target, dt.List):
        inner = _converter(source.inner, target.inner, zone)
        return None if inner is None else _each(inner)
    if isinstance(source, dt.Map) and isinstance(target, dt.Map):
        key = _converter(source.key, target.key, zone)
        value = _converter(source.value, target.value, zone)
        if key is None or value is None:
            return None
        return lambda pairs: [(key(k), None if v is None else value(v)) for k, v in pairs]
    if isinstance(source, dt.Struct) and isinstance(target, dt.Struct) and len(source.fields) == len(target.fields):
        fields = [_converter(a.dtype, b.dtype, zone) for a, b in zip(source.fields, target.fields, strict=True)]
        if any(f is None for f in fields):
            return None
        names = [f.name for f in target.fields]
        return lambda row: _struct(row, names, fields)  # type: ignore[arg-type]
    return None


def _each(inner: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda values: [None if v is None else inner(v) for v in values]


def _struct(row: dict[str, Any], names: Sequence[str], fields: Sequence[Callable[[Any], Any]]) -> dict[str, Any]:
    return {n: None if v is None else f(v) for n, v, f in zip(names, row.values(), fields, strict=True)}


_UTC_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
_NAIVE_EPOCH = datetime.datetime(1970, 1, 1)
MICROS_PER_DAY = 86_400_000_000
_MICRO = datetime.timedelta(microseconds=1)


def micros(moment: datetime.datetime) -> int:
    """A timestamp (aware) or a wall-clock time (naive) as microseconds since 1970-01-01 (UTC)."""
    return (moment - (_UTC_EPOCH if moment.tzinfo is not None else _NAIVE_EPOCH)) // _MICRO


def moment(count: int) -> datetime.datetime | int:
    """An instant given in microseconds since 1970 as Arrow takes it: a ``datetime``, or the count past year 9999."""
    try:
        return _UTC_EPOCH + datetime.timedelta(microseconds=count)
    except OverflowError:
        return count


def _nearby(count: int) -> datetime.datetime:
    """The naive time ``count`` microseconds after 1970, or two days inside Python's range where it is past it.

    No zone changes its offset on the last or first two days of a year, so the offset there is the one sought.
    """
    for shift in (0, -2 * MICROS_PER_DAY, 2 * MICROS_PER_DAY):
        try:
            return _NAIVE_EPOCH + datetime.timedelta(microseconds=count + shift)
        except OverflowError:
            continue
    msg = f"no time near {count} microseconds after 1970"  # pragma: no cover - Arrow holds no such value
    raise OverflowError(msg)


def wall_offset(wall: int, zone: datetime.tzinfo, fold: int = 0) -> int:
    """The offset (microseconds) ``zone`` gives the wall-clock time ``wall`` (``fold`` as in PEP 495)."""
    offset = _nearby(wall).replace(tzinfo=zone, fold=fold).utcoffset()
    assert offset is not None
    return offset // _MICRO


def instant_offset(instant: int, zone: datetime.tzinfo) -> int:
    """The offset (microseconds) of ``zone`` at the instant ``instant`` (within two days of Python's range too)."""
    for shift in (0, 2 * MICROS_PER_DAY, -2 * MICROS_PER_DAY):
        try:
            offset = (_UTC_EPOCH + datetime.timedelta(microseconds=instant + shift)).astimezone(zone).utcoffset()
        except OverflowError:
            continue
        assert offset is not None
        return offset // _MICRO
    msg = f"no instant near {instant} microseconds after 1970"  # pragma: no cover - Arrow holds no such value
    raise OverflowError(msg)


def resolved(wall: int, zone: datetime.tzinfo, preferred: int | None = None) -> int:
    """The instant of the wall-clock time ``wall`` in ``zone``, as ``java.time`` resolves it (``ofLocal``).

    In a gap the time moves later by the gap's length (the offset before it applies); in an overlap the
    ``preferred`` offset is kept where it is one of the two, else the earlier offset applies.
    """
    earlier, later = wall_offset(wall, zone, 0), wall_offset(wall, zone, 1)
    if earlier != later and preferred == later and instant_offset(wall - later, zone) == later:
        return wall - later
    return wall - earlier


def _instant(wall: datetime.datetime, zone: datetime.tzinfo) -> datetime.datetime | int:
    """A wall-clock time in ``zone`` as an instant (``LocalDateTime.atZone``: the earlier offset in an overlap)."""
    return moment(resolved(micros(wall), zone))
