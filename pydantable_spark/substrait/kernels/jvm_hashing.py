"""The order of a Scala ``mutable.HashSet`` of Spark values: what ``collect_set`` returns its elements in.

Spark's ``collect_set`` (and ``collect_union``) gathers a group's values in a
Scala 2.13 ``mutable.HashSet`` and returns them in the set's iteration order:
the order of the hash table's buckets, and within a bucket, of the improved
hashes. The hash of a value is Scala's ``##`` of Spark's internal value: the
number itself for an ``int`` (a ``bigint`` that fits one too), ``Long.hashCode``
for a larger ``bigint``, Spark's Murmur3 of the UTF-8 bytes (seed 42) for a
string.

The table starts with 16 buckets and doubles when an addition would reach
three quarters of them; with at most 11 distinct values it never grows, and
the order depends on the values only. Beyond that it depends on when
duplicates arrive, and Spark's merging of partial sets across partitions may
grow the table otherwise than one pass over the rows does (this module follows
one pass, in row order: what a window frame does).

>>> from pydantable_spark import dtypes as dt
>>> hash_set_order([3, 1, 2, 1], scala_hash_of(dt.Int64()))
[1, 2, 3]
>>> hash_set_order(["b", "a", "c"], scala_hash_of(dt.String()))
['a', 'c', 'b']
"""

from __future__ import annotations

import datetime
import decimal
import math
import struct
from typing import TYPE_CHECKING, Any

from pydantable_spark import dtypes as dt

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

__all__ = ["hash_set_order", "murmur3_bytes", "scala_hash_of", "set_hashable", "xxhash64", "xxhash_of"]

_MASK = 0xFFFFFFFF
_C1, _C2 = 0xCC9E2D51, 0x1B873593


def _int32(value: int) -> int:
    value &= _MASK
    return value - (1 << 32) if value >= 1 << 31 else value


def _rotl(value: int, shift: int) -> int:
    return ((value << shift) | (value >> (32 - shift))) & _MASK


def _mix_k1(k1: int) -> int:
    k1 = (k1 * _C1) & _MASK
    return (_rotl(k1, 15) * _C2) & _MASK


def _mix_h1(h1: int, k1: int) -> int:
    h1 = _rotl(h1 ^ k1, 13)
    return (h1 * 5 + 0xE6546B64) & _MASK


def murmur3_bytes(data: bytes, seed: int = 42) -> int:
    """Spark's ``Murmur3_x86_32.hashUnsafeBytes``: 4-byte little-endian words, then each trailing byte alone.

    (Not the standard Murmur3 tail: Spark mixes each remaining byte, sign-extended, as a whole word.)

    >>> murmur3_bytes(b"")
    142593372
    """
    h1 = seed & _MASK
    aligned = len(data) - len(data) % 4
    for i in range(0, aligned, 4):
        h1 = _mix_h1(h1, _mix_k1(int.from_bytes(data[i : i + 4], "little")))
    for byte in data[aligned:]:
        h1 = _mix_h1(h1, _mix_k1((byte - 256 if byte > 127 else byte) & _MASK))
    h1 ^= len(data)
    h1 ^= h1 >> 16
    h1 = (h1 * 0x85EBCA6B) & _MASK
    h1 ^= h1 >> 13
    h1 = (h1 * 0xC2B2AE35) & _MASK
    h1 ^= h1 >> 16
    return _int32(h1)


def _long_hash(value: int) -> int:
    """Scala's ``##`` of a ``java.lang.Long``: the value if it fits an ``int``, else ``Long.hashCode``."""
    if -(1 << 31) <= value < 1 << 31:
        return value
    bits = value & 0xFFFFFFFFFFFFFFFF
    return _int32(bits ^ (bits >> 32))


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
    dt.String: lambda text: murmur3_bytes(text.encode("utf-8")),
}
"""Scala's ``##`` of Spark's internal value, by the column's type (a date is its day number, an ``int``)."""


def set_hashable(dtype: dt.DType) -> bool:
    """Whether this module knows the hash Spark's set gives values of ``dtype``."""
    return type(dtype) in _HASHES


def scala_hash_of(dtype: dt.DType) -> Callable[[Any], int]:
    """The function giving Scala's ``##`` of a value of ``dtype`` (see ``set_hashable``)."""
    return _HASHES[type(dtype)]


_U64 = (1 << 64) - 1
_P1, _P2, _P3, _P4, _P5 = (
    0x9E3779B185EBCA87,
    0xC2B2AE3D27D4EB4F,
    0x165667B19E3779F9,
    0x85EBCA77C2B2AE63,
    0x27D4EB2F165667C5,
)


def _rotl64(value: int, shift: int) -> int:
    return ((value << shift) | (value >> (64 - shift))) & _U64


def _xxh_round(acc: int, lane: int) -> int:
    acc = (acc + lane * _P2) & _U64
    return (_rotl64(acc, 31) * _P1) & _U64


def xxhash64(data: bytes, seed: int = 42) -> int:
    """XXH64 of ``data`` (Spark's ``XXH64``, the standard algorithm), as a signed ``long``.

    >>> xxhash64(b"")
    -7444071767201028348
    """
    n, i = len(data), 0
    seed &= _U64
    if n >= 32:
        lanes = [(seed + _P1 + _P2) & _U64, (seed + _P2) & _U64, seed, (seed - _P1) & _U64]
        while i + 32 <= n:
            for j in range(4):
                lanes[j] = _xxh_round(lanes[j], int.from_bytes(data[i : i + 8], "little"))
                i += 8
        h = (_rotl64(lanes[0], 1) + _rotl64(lanes[1], 7) + _rotl64(lanes[2], 12) + _rotl64(lanes[3], 18)) & _U64
        for lane in lanes:
            h = ((h ^ _xxh_round(0, lane)) * _P1 + _P4) & _U64
    else:
        h = (seed + _P5) & _U64
    h = (h + n) & _U64
    while i + 8 <= n:
        h ^= _xxh_round(0, int.from_bytes(data[i : i + 8], "little"))
        h = (_rotl64(h, 27) * _P1 + _P4) & _U64
        i += 8
    if i + 4 <= n:
        h ^= (int.from_bytes(data[i : i + 4], "little") * _P1) & _U64
        h = (_rotl64(h, 23) * _P2 + _P3) & _U64
        i += 4
    while i < n:
        h ^= (data[i] * _P5) & _U64
        h = (_rotl64(h, 11) * _P1) & _U64
        i += 1
    h ^= h >> 33
    h = (h * _P2) & _U64
    h ^= h >> 29
    h = (h * _P3) & _U64
    h ^= h >> 32
    return h - (1 << 64) if h >= 1 << 63 else h


def _int_bytes(value: int) -> bytes:
    return (value & 0xFFFFFFFF).to_bytes(4, "little")


def _long_bytes(value: int) -> bytes:
    return (value & _U64).to_bytes(8, "little")


def _double_bytes(value: float) -> bytes:
    """``doubleToLongBits`` (one NaN), with ``-0.0`` as ``0.0`` (Spark hashes them alike)."""
    if math.isnan(value):
        return _long_bytes(0x7FF8000000000000)
    return struct.pack("<d", 0.0 if value == 0 else value)


def _float_bytes(value: float) -> bytes:
    if math.isnan(value):
        return _int_bytes(0x7FC00000)
    return struct.pack("<f", 0.0 if value == 0 else value)


def _decimal_bytes(value: decimal.Decimal, dtype: dt.Decimal) -> bytes:
    """A decimal as Spark hashes it: its unscaled ``long``, or beyond 18 digits ``BigInteger.toByteArray``."""
    unscaled = int(value.scaleb(dtype.scale, context=_EXACT))
    if dtype.precision <= 18:
        return _long_bytes(unscaled)
    return unscaled.to_bytes((unscaled + (unscaled < 0)).bit_length() // 8 + 1, "big", signed=True)


_EXACT = decimal.Context(prec=100)


def _hashed_bytes(dtype: dt.DType) -> Callable[[Any], bytes] | None:
    """The bytes Spark's ``xxhash64`` (and ``approx_count_distinct``) hashes for a value of ``dtype``."""
    if isinstance(dtype, dt.Boolean):
        return lambda flag: _int_bytes(1 if flag else 0)
    if isinstance(dtype, dt.Int8 | dt.Int16 | dt.Int32):
        return _int_bytes
    if isinstance(dtype, dt.Int64):
        return _long_bytes
    if isinstance(dtype, dt.Float32):
        return _float_bytes
    if isinstance(dtype, dt.Float64):
        return _double_bytes
    if isinstance(dtype, dt.Decimal):
        return lambda value: _decimal_bytes(value, dtype)
    if isinstance(dtype, dt.String):
        return lambda text: text.encode("utf-8")
    if isinstance(dtype, dt.Binary):
        return bytes
    if isinstance(dtype, dt.Date):
        return lambda day: _int_bytes((day - _EPOCH_DAY).days)
    if isinstance(dtype, dt.Datetime | dt.DatetimeNTZ):
        return lambda moment: _long_bytes(_micros(moment))
    return None


def xxhash_of(dtype: dt.DType) -> Callable[[Any], int] | None:
    """Spark's ``xxhash64`` (seed 42) of one value of ``dtype``, or None for a type it hashes otherwise (nested)."""
    to_bytes = _hashed_bytes(dtype)
    if to_bytes is None:
        return None
    return lambda value: xxhash64(to_bytes(value))


def _improve(hash_code: int) -> int:
    """``mutable.HashSet.improveHash``: the hash XOR its upper half, as a signed ``int``."""
    unsigned = hash_code & _MASK
    return _int32(unsigned ^ (unsigned >> 16))


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
