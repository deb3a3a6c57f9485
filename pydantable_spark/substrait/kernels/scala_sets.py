"""The order of a Scala ``mutable.HashSet`` of Spark values: what ``collect_set`` returns its elements in.

Spark's ``collect_set`` (and ``collect_union``) gathers a group's values in a
Scala 2.13 ``mutable.HashSet`` and returns them in the set's iteration order:
the order of the hash table's buckets, and within a bucket, of the improved
hashes. The hash of a value is Scala's ``##`` of Spark's internal value: the
number itself for an ``int`` (a ``bigint`` that fits one too), ``Long.hashCode``
for a larger ``bigint``, Spark's Murmur3 of the UTF-8 bytes (seed 42,
``hashing.murmur3_bytes``) for a string.

The table starts with 16 buckets and doubles when an addition would reach
three quarters of them; with at most 11 distinct values it never grows, and
the order depends on the values only. Beyond that it depends on when
duplicates arrive: a window frame adds its rows one by one, a group rebuilds its
set from the distinct values of its partial sets (whose merging across several
partitions may grow the table otherwise again).

>>> from pydantable_spark import dtypes as dt
>>> hash_set_order([3, 1, 2, 1], scala_hash_of(dt.Int64()))
[1, 2, 3]
>>> hash_set_order(["b", "a", "c"], scala_hash_of(dt.String()))
['a', 'c', 'b']
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any

from pydantable_spark import dtypes as dt
from pydantable_spark.substrait.kernels.hashing import murmur3_bytes
from pydantable_spark.substrait.kernels.numbers import wrap_integer

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

__all__ = ["hash_set_order", "scala_hash_of", "set_hashable"]


def _long_hash(value: int) -> int:
    """Scala's ``##`` of a ``java.lang.Long``: the value if it fits an ``int``, else ``Long.hashCode``."""
    if -(1 << 31) <= value < 1 << 31:
        return value
    bits = value & 0xFFFFFFFFFFFFFFFF
    return wrap_integer(bits ^ (bits >> 32), 32)


_EPOCH_DAY = datetime.date(1970, 1, 1)
_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
_NAIVE_EPOCH = datetime.datetime(1970, 1, 1)


def _micros(moment: datetime.datetime) -> int:
    """A timestamp as Spark holds it: microseconds since the epoch (a ``bigint``)."""
    delta = moment - (_EPOCH if moment.tzinfo is not None else _NAIVE_EPOCH)
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


_HASHES: dict[type[dt.DType], Callable[[Any], int]] = {
    dt.Int8: int,
    dt.Int16: int,
    dt.Int32: int,
    dt.Int64: _long_hash,
    dt.Date: lambda day: (day - _EPOCH_DAY).days,
    dt.Datetime: lambda moment: _long_hash(_micros(moment)),
    dt.DatetimeNTZ: lambda moment: _long_hash(_micros(moment)),
    dt.Boolean: lambda flag: 1231 if flag else 1237,
    dt.String: lambda text: wrap_integer(murmur3_bytes(text.encode("utf-8"), 42), 32),
}
"""Scala's ``##`` of Spark's internal value, by the column's type (a date is its day number, an ``int``)."""


def set_hashable(dtype: dt.DType) -> bool:
    """Whether this module knows the hash Spark's set gives values of ``dtype``."""
    return type(dtype) in _HASHES


def scala_hash_of(dtype: dt.DType) -> Callable[[Any], int]:
    """The function giving Scala's ``##`` of a value of ``dtype`` (see ``set_hashable``)."""
    return _HASHES[type(dtype)]


def _improve(hash_code: int) -> int:
    """``mutable.HashSet.improveHash``: the hash XOR its upper half, as a signed ``int``."""
    unsigned = hash_code & 0xFFFFFFFF
    return wrap_integer(unsigned ^ (unsigned >> 16), 32)


def hash_set_order(values: Iterable[Any], hashed: Callable[[Any], int]) -> list[Any]:
    """The distinct ``values`` in the iteration order of a ``mutable.HashSet`` they were added to one by one.

    Each ``add`` first grows the table (doubling it) when ``size + 1`` reaches three quarters of it,
    duplicates included, as Scala's does.
    """
    capacity, size = 16, 0
    seen: dict[Any, tuple[int, Any]] = {}
    for value in values:
        if size + 1 >= capacity * 3 // 4:
            capacity *= 2
        if value not in seen:
            seen[value] = (_improve(hashed(value)), value)
            size += 1
    entries = sorted(seen.values(), key=lambda entry: (entry[0] & (capacity - 1), entry[0]))
    return [value for _, value in entries]
