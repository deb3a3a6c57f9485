"""Spark's ``hash`` (Murmur3, seed 42) and ``xxhash64`` (XXH64, seed 42), over every type as Spark hashes it.

Spark hashes the arguments in turn, each one's hash the seed of the next, and
a NULL leaves the running hash as it was (``HashExpression``): booleans as the
int 1 or 0; bytes, shorts, ints and dates (days) as an int; longs and
timestamps (microseconds) as a long; a float or a double by its bits
(``floatToIntBits``: one NaN, and -0.0 hashed as 0); a decimal of up to 18
digits as its unscaled long, a wider one as its unscaled ``BigInteger``'s
bytes; a string by its UTF-8 bytes; a list element by element and a struct
field by field, with the running hash as seed.

Spark's Murmur3 is the standard one for ints and longs, but hashes the 1 to 3
bytes after the last whole 4-byte block of a string one at a time, each
sign-extended to an int (``Murmur3_x86_32.hashUnsafeBytes``, kept for
compatibility); its XXH64 is the standard one.

>>> hash_values((1,), (dt.Int32(),)), hash_values(("abc",), (dt.String(),)), hash_values((None,), (dt.Int32(),))
(-559580957, 1322437556, 42)
>>> xxhash64_values(("abcdefghijklmnopqrstuvwxyz0123456789",), (dt.String(),))
2724237963427677065
"""

from __future__ import annotations

import datetime
import decimal
import math
import struct
from typing import TYPE_CHECKING, Any

from pydantable_spark import dtypes as dt
from pydantable_spark.substrait.kernels.numbers import EXACT, wrap_integer
from pydantable_spark.substrait.kernels.spec import Scalar

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from pydantable_spark.substrait.kernels.spec import Site

__all__ = ["KERNELS", "hash_values", "murmur3_bytes", "xxh64", "xxhash64_values"]

_M32 = 0xFFFF_FFFF
_M64 = 0xFFFF_FFFF_FFFF_FFFF


# --- Murmur3 x86 32 (Spark's) -------------------------------------------------------------------------


def _rotl32(value: int, bits: int) -> int:
    return ((value << bits) | (value >> (32 - bits))) & _M32


def _mix_k1(k1: int) -> int:
    k1 = (k1 * 0xCC9E2D51) & _M32
    return (_rotl32(k1, 15) * 0x1B873593) & _M32


def _mix_h1(h1: int, k1: int) -> int:
    h1 = _rotl32(h1 ^ k1, 13)
    return (h1 * 5 + 0xE6546B64) & _M32


def _fmix32(h1: int, length: int) -> int:
    h1 ^= length
    h1 ^= h1 >> 16
    h1 = (h1 * 0x85EBCA6B) & _M32
    h1 ^= h1 >> 13
    h1 = (h1 * 0xC2B2AE35) & _M32
    h1 ^= h1 >> 16
    return h1


def _murmur3_int(value: int, seed: int) -> int:
    return _fmix32(_mix_h1(seed & _M32, _mix_k1(value & _M32)), 4)


def _murmur3_long(value: int, seed: int) -> int:
    h1 = _mix_h1(seed & _M32, _mix_k1(value & _M32))
    h1 = _mix_h1(h1, _mix_k1((value >> 32) & _M32))
    return _fmix32(h1, 8)


def murmur3_bytes(data: bytes, seed: int) -> int:
    """Spark's ``Murmur3_x86_32.hashUnsafeBytes``: whole 4-byte blocks, then each last byte as an int.

    >>> wrap_integer(murmur3_bytes(b"abcde", 42), 32)
    814637928
    """
    h1 = seed & _M32
    aligned = len(data) - len(data) % 4
    for (block,) in struct.iter_unpack("<I", data[:aligned]):
        h1 = _mix_h1(h1, _mix_k1(block))
    for byte in data[aligned:]:
        h1 = _mix_h1(h1, _mix_k1(byte - 256 if byte > 127 else byte))
    return _fmix32(h1, len(data))


# --- XXH64 --------------------------------------------------------------------------------------------

_P1 = 0x9E3779B185EBCA87
_P2 = 0xC2B2AE3D27D4EB4F
_P3 = 0x165667B19E3779F9
_P4 = 0x85EBCA77C2B2AE63
_P5 = 0x27D4EB2F165667C5


def _rotl64(value: int, bits: int) -> int:
    return ((value << bits) | (value >> (64 - bits))) & _M64


def _round64(accumulator: int, lane: int) -> int:
    return (_rotl64((accumulator + lane * _P2) & _M64, 31) * _P1) & _M64


def _merge64(hash_: int, accumulator: int) -> int:
    hash_ ^= _round64(0, accumulator)
    return (hash_ * _P1 + _P4) & _M64


def xxh64(data: bytes, seed: int) -> int:
    """XXH64 of ``data`` (unsigned 64 bits), as Spark's ``XXH64.hashUnsafeBytes`` computes it.

    >>> wrap_integer(xxh64(b"abc", 42), 64)
    1423657621850124518
    """
    seed &= _M64
    length, offset = len(data), 0
    if length >= 32:
        v1, v2, v3, v4 = (seed + _P1 + _P2) & _M64, (seed + _P2) & _M64, seed, (seed - _P1) & _M64
        while offset <= length - 32:
            a, b, c, d = struct.unpack_from("<QQQQ", data, offset)
            v1, v2, v3, v4 = _round64(v1, a), _round64(v2, b), _round64(v3, c), _round64(v4, d)
            offset += 32
        hash_ = (_rotl64(v1, 1) + _rotl64(v2, 7) + _rotl64(v3, 12) + _rotl64(v4, 18)) & _M64
        for lane in (v1, v2, v3, v4):
            hash_ = _merge64(hash_, lane)
    else:
        hash_ = (seed + _P5) & _M64
    hash_ = (hash_ + length) & _M64
    while offset + 8 <= length:
        (word,) = struct.unpack_from("<Q", data, offset)
        hash_ ^= _round64(0, word)
        hash_ = (_rotl64(hash_, 27) * _P1 + _P4) & _M64
        offset += 8
    if offset + 4 <= length:
        (word,) = struct.unpack_from("<I", data, offset)
        hash_ ^= (word * _P1) & _M64
        hash_ = (_rotl64(hash_, 23) * _P2 + _P3) & _M64
        offset += 4
    while offset < length:
        hash_ ^= (data[offset] * _P5) & _M64
        hash_ = (_rotl64(hash_, 11) * _P1) & _M64
        offset += 1
    hash_ ^= hash_ >> 33
    hash_ = (hash_ * _P2) & _M64
    hash_ ^= hash_ >> 29
    hash_ = (hash_ * _P3) & _M64
    hash_ ^= hash_ >> 32
    return hash_


# --- values as Spark hashes them ----------------------------------------------------------------------

_EPOCH_DAY = datetime.date(1970, 1, 1)
_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
_MICROSECOND = datetime.timedelta(microseconds=1)


def _float_bits(value: float, layout: str, nan: int) -> int:
    """``floatToIntBits``/``doubleToLongBits``: one NaN; -0.0 as 0.0 (Spark's normalization)."""
    if value == 0.0:
        return 0
    if math.isnan(value):
        return nan
    bits: int = struct.unpack(layout.replace("f", "i").replace("d", "q"), struct.pack(layout, value))[0]
    return bits


class _Hasher:
    """One of Spark's hash functions over an int, a long and bytes (all three take the running hash as seed)."""

    def __init__(
        self,
        of_int: Callable[[int, int], int],
        of_long: Callable[[int, int], int],
        of_bytes: Callable[[bytes, int], int],
    ) -> None:
        self.of_int, self.of_long, self.of_bytes = of_int, of_long, of_bytes

    def value(self, value: Any, dtype: dt.DType, seed: int) -> int:
        """``InterpretedHashFunction.hash``: ``value`` of type ``dtype`` hashed with ``seed``."""
        if value is None:
            return seed
        if isinstance(dtype, dt.Boolean):
            return self.of_int(1 if value else 0, seed)
        if isinstance(dtype, dt.Int8 | dt.Int16 | dt.Int32):
            return self.of_int(value, seed)
        if isinstance(dtype, dt.Int64):
            return self.of_long(value, seed)
        if isinstance(dtype, dt.Float32):
            bits = (
                0
                if value == 0.0
                else 0x7FC0_0000
                if math.isnan(value)
                else struct.unpack("<i", struct.pack("<f", value))[0]
            )
            return self.of_int(bits, seed)
        if isinstance(dtype, dt.Float64):
            bits = (
                0
                if value == 0.0
                else 0x7FF8_0000_0000_0000
                if math.isnan(value)
                else struct.unpack("<q", struct.pack("<d", value))[0]
            )
            return self.of_long(bits, seed)
        if isinstance(dtype, dt.Decimal):
            unscaled = int(decimal.Decimal(value).scaleb(dtype.scale, context=EXACT))
            if dtype.precision <= 18:
                return self.of_long(unscaled, seed)
            size = (unscaled if unscaled >= 0 else ~unscaled).bit_length() // 8 + 1  # BigInteger.toByteArray
            return self.of_bytes(unscaled.to_bytes(size, "big", signed=True), seed)
        if isinstance(dtype, dt.String):
            return self.of_bytes(value.encode("utf-8"), seed)
        if isinstance(dtype, dt.Binary):
            return self.of_bytes(bytes(value), seed)
        if isinstance(dtype, dt.Date):
            return self.of_int((value - _EPOCH_DAY).days, seed)
        if isinstance(dtype, dt.Datetime):
            return self.of_long((value - _EPOCH) // _MICROSECOND, seed)
        if isinstance(dtype, dt.DatetimeNTZ):
            return self.of_long((value - _EPOCH.replace(tzinfo=None)) // _MICROSECOND, seed)
        if isinstance(dtype, dt.List):
            for element in value:
                seed = self.value(element, dtype.inner, seed)
            return seed
        if isinstance(dtype, dt.Struct):
            for field in dtype.fields:
                seed = self.value(value[field.name], field.dtype, seed)
            return seed
        msg = f"Spark's hash of {dtype.sql_name} is not computed locally"
        raise NotImplementedError(msg)

    def values(self, values: Sequence[Any], dtypes: Sequence[dt.DType], seed: int) -> int:
        for value, dtype in zip(values, dtypes, strict=True):
            seed = self.value(value, dtype, seed)
        return seed


_MURMUR3 = _Hasher(
    lambda i, seed: wrap_integer(_murmur3_int(i, seed), 32),
    lambda i, seed: wrap_integer(_murmur3_long(i, seed), 32),
    lambda b, seed: wrap_integer(murmur3_bytes(b, seed), 32),
)
_XXH64 = _Hasher(
    lambda i, seed: wrap_integer(xxh64(struct.pack("<i", i), seed), 64),
    lambda i, seed: wrap_integer(xxh64(struct.pack("<q", i), seed), 64),
    lambda b, seed: wrap_integer(xxh64(b, seed), 64),
)
_SEED = 42


def hash_values(values: Sequence[Any], dtypes: Sequence[dt.DType]) -> int:
    """Spark's ``hash(values...)``: Murmur3 with seed 42, an int."""
    return _MURMUR3.values(values, dtypes, _SEED)


def xxhash64_values(values: Sequence[Any], dtypes: Sequence[dt.DType]) -> int:
    """Spark's ``xxhash64(values...)``: XXH64 with seed 42, a bigint."""
    return _XXH64.values(values, dtypes, _SEED)


def _hashing(function: Callable[[Sequence[Any], Sequence[dt.DType]], int]) -> Callable[[Site], Callable[..., int]]:
    def make(site: Site) -> Callable[..., int]:
        dtypes = [typed.dtype for typed in site.args]
        return lambda *values: function(values, dtypes)

    return make


KERNELS = (
    Scalar("hash", _hashing(hash_values), strict=False),
    Scalar("xxhash64", _hashing(xxhash64_values), strict=False),
)
"""Spark's hash functions (never NULL: a NULL argument leaves the hash as it was)."""
