"""The binary and vector kernels give Spark's values exactly (``kernels/binary.py``, ``hashing.py``, ``vectors.py``).

One frame of edge rows and one ``select`` of many calls per test, on Spark and on the local engine, compared
exactly (``kernels_compare``); where Spark fails on a value, the local engine fails with its error class.
"""

from __future__ import annotations

import datetime
import math
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pytest
from kernels_compare import differences

from pydantable_spark import DataFrame, F
from pydantable_spark.errors import LocalEngineError, SparkJobError, UnsupportedEngineError

if TYPE_CHECKING:
    from collections.abc import Callable

    from pyspark.sql import SparkSession

UTC = datetime.timezone.utc
NAN, INF = math.nan, math.inf


def _frame(columns: dict[str, tuple[pa.DataType, list[Any]]]) -> DataFrame[Any]:
    return DataFrame.from_arrow(pa.table({name: pa.array(values, kind) for name, (kind, values) in columns.items()}))


TEXTS = ["", "a", "abc", "abcd", "abcde", "Ünï 42", "😀", "x" * 33, "Spark", None, "\x00", "ÿÿÿ"]
"""Strings of 0 to 5 bytes (Murmur3 hashes the bytes after the last 4-byte block one by one), over 32 (XXH64's
lanes), outside the BMP, NULL."""


def test_bits_bitmaps_digests_and_hashes_are_sparks(spark: SparkSession) -> None:
    """bit_count (64-bit two's complement), bit_get, shifts (distance modulo the width), bitmap positions, md5,
    sha1/sha2, crc32, hmac under Spark's algorithm names, and hash/xxhash64 of every hashable type."""
    rows = len(TEXTS)
    frame = _frame(
        {
            "b": (pa.int8(), [127, -128, -1, 0, 1, 7, -7, 64, 12, -12, 13, 100]),
            "h": (pa.int16(), [32767, -32768, -1, 0, 1, 255, -256, 4096, 12, -12, 13, 100]),
            "i": (pa.int32(), [2**31 - 1, -(2**31), -1, 0, 1, 32768, 32769, -32768, -32769, 65536, 13, 100]),
            "l": (pa.int64(), [2**63 - 1, -(2**63), -1, 0, 1, 32768, 32769, -32768, -32769, 2**40, 13, 10**18]),
            "n": (pa.int32(), [0, 1, 31, 32, 33, -1, 63, 64, 65, 7, -33, 100]),
            "p": (pa.int32(), [0, 7, 3, 1, 6, 5, 4, 2, 0, 7, 6, 1]),
            "t": (pa.bool_(), [True, False, None, True, False, True, False, True, None, False, True, False]),
            "f": (pa.float32(), [0.0, -0.0, NAN, INF, -INF, 1.5, -1.5, 3.4e38, 1e-45, None, 0.1, 7.0]),
            "x": (pa.float64(), [0.0, -0.0, NAN, INF, -INF, 1.5, -1.5, 1e308, 5e-324, None, 0.1, 7.0]),
            "d": (pa.decimal128(10, 2), [Decimal(v) for v in ("1.5", "-1.5", "0", "99999999.99", "-0.01", "7")] * 2),
            "w": (
                pa.decimal128(38, 18),
                [Decimal(v) for v in ("1.5", "-1.5", "0", "12345678901234567890.123456789012345678", "-1E-18", "7")]
                * 2,
            ),
            "s": (pa.string(), TEXTS),
            "y": (pa.binary(), [None if t is None else t.encode() for t in TEXTS]),
            "day": (pa.date32(), [datetime.date(1970, 1, 1), datetime.date(1, 1, 1), datetime.date(9999, 12, 31)] * 4),
            "ts": (
                pa.timestamp("us", tz="UTC"),
                [
                    datetime.datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
                    None,
                    datetime.datetime(2024, 3, 10, 2, 30, tzinfo=UTC),
                ]
                * 4,
            ),
            "ntz": (pa.timestamp("us"), [datetime.datetime(1, 1, 1), datetime.datetime(2024, 2, 29, 12), None] * 4),
            "arr": (pa.list_(pa.int32()), [[1, None, 3], [], None, [2**31 - 1]] * 3),
            "nested": (
                pa.struct([("a", pa.int64()), ("s", pa.list_(pa.string()))]),
                [{"a": 1, "s": ["x", None]}, {"a": None, "s": []}, None, {"a": -1, "s": None}] * 3,
            ),
            "key": (pa.binary(), [b"k", b"\x00", b"key" * 30, b"x", b"k", b"k"] * 2),
            "alg": (pa.string(), ["sha256", "SHA-224", "Sha384", "SHA-512", "sha1", "md5"] * 2),
        }
    )
    assert rows == 12
    calls: dict[str, Any] = {}
    for col in ("b", "h", "i", "l", "t"):
        calls[f"bit_count_{col}"] = F.bit_count(col)
    for col in ("b", "h", "i", "l"):
        calls[f"bit_get_{col}"] = F.bit_get(col, "p")
        calls[f"bitwise_not_{col}"] = F.bitwise_not(col)
        for distance in (0, 31, 33, 65, -1):
            calls[f"shiftleft_{col}_{distance}"] = F.shiftleft(col, distance)
            calls[f"shiftright_{col}_{distance}"] = F.shiftright(col, distance)
            calls[f"shiftrightunsigned_{col}_{distance}"] = F.shiftrightunsigned(col, distance)
        calls[f"bitmap_bit_position_{col}"] = F.bitmap_bit_position(col)
        calls[f"bitmap_bucket_number_{col}"] = F.bitmap_bucket_number(col)
    calls["getbit"] = F.getbit("i", "p")
    calls["bitmap_count"] = F.bitmap_count("y")
    for col in ("y",):  # a string reaches these through a cast to binary (the cast kernel's, not tested here)
        calls[f"md5_{col}"] = F.md5(col)
        calls[f"sha1_{col}"] = F.sha1(col)
        calls[f"sha_{col}"] = F.sha(col)
        calls[f"crc32_{col}"] = F.crc32(col)
        for bits in (0, 224, 256, 384, 512):
            calls[f"sha2_{col}_{bits}"] = F.sha2(col, bits)
    calls["hmac"] = F.hmac("key", "y")
    calls["hmac_alg"] = F.hmac("key", "y", "alg")
    calls["hmac_null_alg"] = F.hmac("key", "y", F.when(F.col("b") > 0, F.col("alg")))
    hashable = ("b", "h", "i", "l", "t", "f", "x", "d", "w", "s", "y", "day", "ts", "ntz", "arr", "nested")
    for col in hashable:
        calls[f"hash_{col}"] = F.hash(col)
        calls[f"xxhash64_{col}"] = F.xxhash64(col)
    calls["hash_all"] = F.hash(*hashable)
    calls["xxhash64_all"] = F.xxhash64(*hashable)
    found = differences(frame.select(**calls))
    assert not found, "\n".join(found)


VECTORS = [
    [1.0, 2.0, 3.0],
    [0.1] * 9,
    [3.4e38, 3.4e38],
    [1e-45, -1e-45],
    [],
    [0.0, 0.0, 0.0],
    [1.5, None, 2.0],
    [INF, 1.0],
    [NAN, 1.0],
    None,
    [0.3, -0.7, 1e10, -1e-10, 7.0, 0.25, -3.5, 1e-3, 2.0, 9.0, -0.1, 123.456, 1e20, -1e20, 0.5, 8.0, 1.0],
]


def test_vector_functions_are_sparks(spark: SparkSession) -> None:
    """Cosine similarity, inner product, L2 distance, norms (1, 2, infinity) and normalization: accumulated in
    doubles eight at a time as Spark does, rounded to float32 once; NULL for a NULL element or a zero norm."""
    rights = [
        [v * 0.5 - 1.0 if v is not None else None for v in vector] if vector is not None else None for vector in VECTORS
    ]
    rights[3] = [0.0, 0.0]
    frame = _frame(
        {
            "v": (pa.list_(pa.float32()), VECTORS),
            "u": (pa.list_(pa.float32()), rights),
            "deg": (pa.float32(), [1.0, 2.0, INF, 2.0, 1.0, INF, 2.0, 1.0, 2.0, INF, 1.0]),
        }
    )
    calls = {
        "cosine": F.vector_cosine_similarity("v", "u"),
        "inner": F.vector_inner_product("v", "u"),
        "l2": F.vector_l2_distance("v", "u"),
        "norm": F.vector_norm("v"),
        "norm_deg": F.vector_norm("v", "deg"),
        "normalize": F.vector_normalize("v"),
        "normalize_deg": F.vector_normalize("u", "deg"),
    }
    found = differences(frame.select(**calls))
    assert not found, "\n".join(found)


ERRORS: dict[str, tuple[Callable[[], Any], str]] = {
    "bit_get past the type": (lambda: F.bit_get("b", F.col("i") + 1), "BIT_POSITION_RANGE"),
    "hmac with an empty key": (lambda: F.hmac("k", "k"), "HMAC_CRYPTO_ERROR"),
    "hmac of an unknown algorithm": (lambda: F.hmac("m", "m", "alg"), "HMAC_ALGORITHM"),
    "vectors of two lengths": (lambda: F.vector_inner_product("v", "u"), "VECTOR_DIMENSION_MISMATCH"),
    "a norm degree Spark has not": (lambda: F.vector_norm("v", "deg"), "INVALID_VECTOR_NORM_DEGREE"),
}


@pytest.mark.parametrize("case", list(ERRORS))
def test_spark_errors_are_the_local_engines(spark: SparkSession, case: str) -> None:
    """Where Spark fails on the second row, the local engine fails with Spark's error class."""
    call, condition = ERRORS[case]
    frame = _frame(
        {
            "b": (pa.int8(), [1, 1]),
            "i": (pa.int32(), [0, 7]),
            "k": (pa.binary(), [b"k", b""]),
            "m": (pa.binary(), [b"m", b"m"]),
            "alg": (pa.string(), ["MD5", "SHA-3"]),
            "v": (pa.list_(pa.float32()), [[1.0], [1.0, 2.0]]),
            "u": (pa.list_(pa.float32()), [[1.0], [1.0]]),
            "deg": (pa.float32(), [1.0, 3.0]),
        }
    ).select(r=call())
    with pytest.raises(SparkJobError, match=condition):
        frame.to_arrow()
    with pytest.raises(LocalEngineError, match=condition):
        frame.to_arrow(engine="local")


@pytest.mark.jvm_free
@pytest.mark.parametrize("name", ["vector_sum", "vector_avg"])
def test_vector_aggregates_are_left_to_spark(name: str) -> None:
    """Spark merges float32 partial sums (weighted averages) per partition: their last bits depend on it."""
    frame = _frame({"k": (pa.int32(), [1]), "v": (pa.list_(pa.float32()), [[1.0]])})
    with pytest.raises(UnsupportedEngineError, match=rf"{name}\(\)"):
        frame.group_by("k").agg(getattr(F, name)("v").alias("s")).to_arrow(engine="local")
