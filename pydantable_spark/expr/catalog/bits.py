"""Bitwise, bitmap and hash functions (PySpark's).

The bit functions take integers (``bit_count`` also booleans); a shift gives
an ``int`` for the narrower integer types, as Spark does. The hash functions
read strings as their UTF-8 bytes: the façade writes the ``CAST(... AS
BINARY)`` Spark would. ``hash`` and ``xxhash64`` hash NULL too (to the seed),
so they are never NULL; maps cannot be hashed. ``bit_length``,
``octet_length``, ``base64``, ``unbase64``, ``encode`` and ``decode`` are string
functions (``strings``).

Each entry is checked against Spark's analyzer and against plain PySpark's
values by ``tests/expr/test_catalog.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantable_spark import dtypes as dt
from pydantable_spark.expr.catalog import accepts, returns
from pydantable_spark.expr.catalog.spec import (
    ABSENT,
    Accepts,
    Args,
    Built,
    DTypeRule,
    EntryOptions,
    Function,
    Kind,
    Param,
    always,
    column,
    entry,
    fixed,
    never,
    same,
    value,
)

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["ENTRIES"]

INTEGER_OR_BOOLEAN = Accepts(
    "an integer or a boolean",
    lambda t: isinstance(t, dt.Integral | dt.Boolean),
    examples=(*accepts.INTEGER.examples, dt.Boolean()),
)
BYTES = Accepts(
    "bytes or a string (its UTF-8 bytes)",
    lambda t: isinstance(t, dt.String | dt.Binary),
    to=lambda t: dt.Binary(),
    examples=(dt.Binary(), dt.String()),
)
HASHABLE = Accepts(
    "a value without maps or VARIANTs",
    dt.has_equality,
    examples=(dt.Int64(), dt.String(), dt.Date(), dt.Decimal(10, 2), dt.List(dt.String(), True)),
)


def _entry(
    name: str, *params: Param, returns: DTypeRule = returns.BIGINT, summary: str, **options: Unpack[EntryOptions]
) -> Function:
    return entry(name, params, returns, summary, "binary", **options)


def _shifted(args: Args) -> dt.DType:
    """A ``bigint`` stays one; narrower integers are shifted as ``int``."""
    return dt.Int64() if isinstance(args.dtype(0), dt.Int64) else dt.Int32()


def _shift(name: str, summary: str) -> Function:
    return _entry(
        name,
        column("col", accepts.INTEGER),
        value("numBits", int, literal=dt.Int32()),
        returns=_shifted,
        summary=summary,
    )


BITMAP = fixed(dt.Binary())


def _sha2_bits(bits: int) -> str | None:
    return None if bits in (0, 224, 256, 384, 512) else "must be one of 0 (= 256), 224, 256, 384, 512"


ENTRIES: tuple[Function, ...] = (
    # --- bits ---
    _entry(
        "bit_count",
        column("col", INTEGER_OR_BOOLEAN),
        returns=fixed(dt.Int32()),
        summary="How many bits are set (in two's complement).",
    ),
    _entry(
        "bit_get",
        column("col", accepts.INTEGER),
        column("pos", accepts.INTEGER),
        returns=fixed(dt.Int8()),
        aliases=("getbit",),
        summary="The bit (0 or 1) at 0-based position ``pos`` from the right (an error outside the type).",
    ),
    _entry(
        "bitwise_not",
        column("col", accepts.INTEGER),
        returns=same(0),
        template="(~{0})",
        summary="Every bit flipped.",
    ),
    _shift("shiftleft", "The bits moved left by ``numBits``."),
    _shift("shiftright", "The bits moved right by ``numBits``, keeping the sign."),
    _shift("shiftrightunsigned", "The bits moved right by ``numBits``, zeros coming in."),
    # --- bitmaps ---
    _entry(
        "bitmap_bit_position",
        column("col", accepts.INTEGER),
        summary="The position of the number in its bitmap bucket (for ``bitmap_construct_agg``).",
    ),
    _entry(
        "bitmap_bucket_number",
        column("col", accepts.INTEGER),
        summary="The bitmap bucket of the number (for ``bitmap_construct_agg``).",
    ),
    _entry("bitmap_count", column("col", accepts.BINARY), summary="How many bits a bitmap has set."),
    _entry(
        "bitmap_construct_agg",
        column("col", accepts.INTEGER),
        returns=BITMAP,
        nullable=never,
        kind=Kind.AGGREGATE,
        samples=((Built("lambda c: F.bitmap_bit_position(c)", (dt.Int64(),)),),),
        summary="A bitmap with the bit at each position set (positions from ``bitmap_bit_position``; never NULL).",
    ),
    *(
        _entry(
            f"bitmap_{kind}_agg",
            column("col", accepts.BINARY),
            returns=BITMAP,
            nullable=never,
            kind=Kind.AGGREGATE,
            summary=f"The bitwise {kind.upper()} of a column of bitmaps (``bitmap_construct_agg``'s; never NULL).",
        )
        for kind in ("or", "and")
    ),
    # --- hashes ---
    _entry("md5", column("col", BYTES), returns=returns.STRING, summary="The MD5 digest, in hexadecimal."),
    _entry(
        "sha1",
        column("col", BYTES),
        returns=returns.STRING,
        aliases=("sha",),
        summary="The SHA-1 digest, in hexadecimal.",
    ),
    _entry(
        "sha2",
        column("col", BYTES),
        value("numBits", int, literal=dt.Int32(), check=_sha2_bits, sample=256),
        returns=returns.STRING,
        nullable=always,
        summary="The SHA-2 digest of ``numBits`` bits (224, 256, 384, 512; 0 = 256), in hexadecimal.",
    ),
    _entry("crc32", column("col", BYTES), summary="The CRC-32 checksum, as a bigint."),
    _entry(
        "hash",
        column("cols", HASHABLE, variadic=True),
        returns=fixed(dt.Int32()),
        nullable=never,
        summary="Spark's Murmur3 hash of the values, an int (NULLs hash too).",
    ),
    _entry(
        "xxhash64",
        column("cols", HASHABLE, variadic=True),
        nullable=never,
        summary="The xxHash64 of the values, a bigint (NULLs hash too).",
    ),
    _entry(
        "hmac",
        column("key", BYTES),
        column("message", BYTES),
        column("algorithm", accepts.STRING, default=ABSENT),
        returns=fixed(dt.Binary()),
        nullable=always,
        summary="The HMAC of ``message`` with ``key`` (``algorithm`` SHA224, SHA256 (default), SHA384, SHA512).",
    ),
)
