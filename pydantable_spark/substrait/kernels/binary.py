"""Kernels of the catalog's binary functions: bits, bitmap positions, digests, HMAC.

Spark computes bits in Java's ``int`` and ``long``: ``bit_count`` counts the bits
of the 64-bit two's complement (``bit_count(-1Y)`` is 64); a shift's distance
is taken modulo the width (``shiftleft(1, 33)`` is 2) and bytes and shorts are
shifted as ints; ``bit_get`` fails outside the type's bits. A bitmap bucket
holds 32768 positions (``BitmapExpressionUtils``). Digests are lower-case
hexadecimal; ``hmac`` takes Spark's algorithm names (``SHA-256``, ``sha256``,
``MD5``...) and, as Java's ``SecretKeySpec``, refuses an empty key.

>>> bit_count(-1), shifted(1, 33, 32, "left"), bitmap_position(-32769), bitmap_bucket(-32769)
(64, 2, 1, -1)
"""

from __future__ import annotations

import hashlib
import hmac
import zlib
from typing import TYPE_CHECKING

from pydantable_spark import dtypes as dt
from pydantable_spark.substrait.kernels.numbers import wrap_integer
from pydantable_spark.substrait.kernels.spec import Scalar, SparkError, rows

if TYPE_CHECKING:
    from collections.abc import Callable

    from pydantable_spark.substrait.kernels.spec import Site

__all__ = ["KERNELS", "bit_count", "bitmap_bucket", "bitmap_position", "shifted"]

BIT_POSITION_RANGE = "INVALID_PARAMETER_VALUE.BIT_POSITION_RANGE"
HMAC_ALGORITHM = "INVALID_PARAMETER_VALUE.HMAC_ALGORITHM"
HMAC_CRYPTO_ERROR = "INVALID_PARAMETER_VALUE.HMAC_CRYPTO_ERROR"
_BITS: dict[type[dt.DType], int] = {dt.Int8: 8, dt.Int16: 16, dt.Int32: 32, dt.Int64: 64}
_BITMAP_BITS = 4 * 1024 * 8
"""Positions in one bitmap bucket (``BitmapExpressionUtils.NUM_BYTES * 8``)."""


def bit_count(value: int | bool) -> int:
    """``bit_count``: a boolean as 1 or 0; an integer's set bits in its 64-bit two's complement."""
    return bin(int(value) & 0xFFFF_FFFF_FFFF_FFFF).count("1")


def _bit_get(site: Site) -> Callable[[int, int], int]:
    width = _BITS[type(site.args[0].dtype)]

    def run(value: int, position: int) -> int:
        if not 0 <= position < width:
            msg = (
                f"The value of parameter(s) `pos` in `bit_get` is invalid: expects an integer value in [0, {width}), "
                f"but got {position}"
            )
            raise SparkError(BIT_POSITION_RANGE, msg)
        return (value >> position) & 1

    return run


def shifted(value: int, distance: int, width: int, how: str) -> int:
    """Java's ``<<``, ``>>`` or ``>>>`` of an ``int`` (``width`` 32) or ``long`` (64): the distance modulo the width."""
    distance &= width - 1
    if how == "left":
        return wrap_integer(value << distance, width)
    if how == "right":
        return value >> distance
    return wrap_integer((value & ((1 << width) - 1)) >> distance, width)


def _shift(how: str) -> Callable[[Site], Callable[..., int]]:
    def make(site: Site) -> Callable[..., int]:
        width = 64 if isinstance(site.args[0].dtype, dt.Int64) else 32
        return lambda value, distance: shifted(value, distance, width, how)

    return make


def bitmap_position(value: int) -> int:
    """``bitmap_bit_position``: the position of ``value`` in its bucket (Java's ``long`` arithmetic)."""
    if value > 0:
        return (value - 1) % _BITMAP_BITS
    magnitude = wrap_integer(-value, 64)  # -Long.MIN_VALUE is itself
    return -(-magnitude % _BITMAP_BITS) if magnitude < 0 else magnitude % _BITMAP_BITS


def bitmap_bucket(value: int) -> int:
    """``bitmap_bucket_number``: 1 + (value - 1) / 32768 for a positive value, else value / 32768 (truncated)."""
    if value > 0:
        return 1 + (value - 1) // _BITMAP_BITS
    return -(-value // _BITMAP_BITS)


_HMAC_ALGORITHMS = {
    "SHA-224": "sha224",
    "SHA224": "sha224",
    "SHA-256": "sha256",
    "SHA256": "sha256",
    "SHA-384": "sha384",
    "SHA384": "sha384",
    "SHA-512": "sha512",
    "SHA512": "sha512",
    "SHA-1": "sha1",
    "SHA1": "sha1",
    "MD5": "md5",
}
"""Spark's algorithm names for ``hmac`` (upper-cased) → Python's (``ExpressionImplUtils.hmacName``)."""


def _hmac(key: bytes, message: bytes, algorithm: str = "SHA-256") -> bytes:
    """``hmac``: Spark's error for an unknown algorithm or an empty key (Java's ``SecretKeySpec`` refuses one)."""
    name = _HMAC_ALGORITHMS.get(algorithm.upper())
    if name is None:
        msg = (
            "The value of parameter(s) `algorithm` in `hmac` is invalid: expects one of the algorithms 'SHA-224', "
            f"'SHA-256', 'SHA-384', 'SHA-512', 'SHA-1', 'MD5', but got '{algorithm}'"
        )
        raise SparkError(HMAC_ALGORITHM, msg)
    if not key:
        msg = "The value of parameter(s) `key` in `hmac` is invalid: detail message: Empty key"
        raise SparkError(HMAC_CRYPTO_ERROR, msg)
    return hmac.new(bytes(key), bytes(message), name).digest()


def _sha2(site: Site) -> Callable[..., str | None]:
    bits = site.literals[1]
    name = {0: "sha256", 224: "sha224", 256: "sha256", 384: "sha384", 512: "sha512"}.get(bits)
    return lambda data, *_: None if name is None else hashlib.new(name, bytes(data)).hexdigest()


def _digest(name: str) -> Callable[[bytes], str]:
    return lambda data: hashlib.new(name, bytes(data)).hexdigest()


KERNELS = (
    Scalar("bit_count", rows(bit_count)),
    Scalar("bit_get", _bit_get),
    Scalar("bitwise_not", rows(lambda value: ~value)),
    Scalar("shiftleft", _shift("left")),
    Scalar("shiftright", _shift("right")),
    Scalar("shiftrightunsigned", _shift("unsigned")),
    Scalar("bitmap_bit_position", rows(bitmap_position)),
    Scalar("bitmap_bucket_number", rows(bitmap_bucket)),
    Scalar("bitmap_count", rows(lambda data: sum(bin(byte).count("1") for byte in bytes(data)))),
    Scalar("md5", rows(_digest("md5"))),
    Scalar("sha1", rows(_digest("sha1"))),
    Scalar("sha2", _sha2),
    Scalar("crc32", rows(lambda data: zlib.crc32(bytes(data)))),
    Scalar("hmac", rows(_hmac)),
)
"""The binary category's scalar functions (the bitmap aggregates are aggregates', not here)."""
