"""The math kernels give Spark's values exactly (``kernels/math.py``, ``strictmath.py``, ``doubletext.py``).

Each test is one frame of edge rows and one ``select`` of many calls, run on Spark and on the local
engine and compared bit for bit (``kernels_compare``); where Spark fails on a value (ANSI), the local engine
fails with the same error class. ``sin``, ``cos`` and ``tan`` are refused: HotSpot computes Spark's
``Math.sin`` with its own routines on x86-64.
"""

from __future__ import annotations

import datetime
import math
import random
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

INF, NAN = math.inf, math.nan

EDGE_DOUBLES = [
    0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, 2.5, -2.5, 3.0, 10.0, 0.1, 1e-8, 3.725290298461914e-09,
    1e-300, 5e-324, 2.2250738585072014e-308, 1e300, -1e300, 1.7976931348623157e308, INF, -INF, NAN,
    math.pi, math.e, 2.675, 0.9999999999999999, 1.0000000000000002, 22.0, 22.5, 709.782712893384,
    709.79, -745.1332191019411, -745.2, 710.4758600739439, 710.48, 268435456.0, 268435457.5,
    0.34657359027997264, 1.0397207708399179, 1e16, 2.0**60, 4.2893058791500518e18, -0.4, 123456.789,
]  # fmt: skip
"""fdlibm's branch points (2**-28, 22, the overflow thresholds, 0.5 ln2...), zeros, subnormals, ±inf, NaN."""


def _random_doubles(count: int, seed: int) -> list[float]:
    rnd = random.Random(seed)
    values = []
    for _ in range(count):
        kind = rnd.random()
        if kind < 0.35:
            values.append(rnd.uniform(-10, 10))
        elif kind < 0.55:
            values.append(rnd.uniform(-1.2, 1.2))
        elif kind < 0.8:
            values.append(math.copysign(10 ** rnd.uniform(-310, 308), rnd.random() - 0.5))
        elif kind < 0.9:
            values.append(1.0 + rnd.uniform(-1e-6, 1e-6))
        else:
            values.append(rnd.uniform(-800, 800))
    return values


def _frame(columns: dict[str, tuple[pa.DataType, list[Any]]]) -> DataFrame[Any]:
    return DataFrame.from_arrow(pa.table({name: pa.array(values, kind) for name, (kind, values) in columns.items()}))


def test_functions_of_doubles_are_javas_strictmath(spark: SparkSession) -> None:
    """exp, log, pow, cbrt, the inverse and hyperbolic functions... bit for bit, on 1500 drawn doubles and fdlibm's
    edge values (the C library's results differ in the last bit for a few percent of them: measured)."""
    xs = EDGE_DOUBLES + _random_doubles(1500, seed=7)
    ys = [*xs[7:], *xs[:7]]
    ys[::5] = [[0.5, 2.0, 3.0, -3.0, 1e10, -1e10, 2.0**31 + 1, 53.0, 1.5, 1 / 3][i % 10] for i in range(len(ys[::5]))]
    frame = _frame({"x": (pa.float64(), xs), "y": (pa.float64(), ys)})
    x, y = F.col("x"), F.col("y")
    unary = [
        "sqrt", "cbrt", "exp", "expm1", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
        "degrees", "radians", "signum", "sign", "rint", "ln", "log10", "log2", "log1p",
    ]  # fmt: skip
    calls = {name: getattr(F, name)(x) for name in unary}
    calls |= {
        "log": F.log(x),
        "log_2": F.log(2.0, x),
        "log_half": F.log(0.5, x),
        "log_one": F.log(1.0, x),
        "pow": F.pow(x, y),
        "power": F.power(y, x),
        "hypot": F.hypot(x, y),
        "atan2": F.atan2(x, y),
        "atan2_zeros": F.atan2(x * 0.0, y * 0.0),
        "e": F.e() + x * 0.0,
        "pi": F.pi(),
    }
    found = differences(frame.select(**calls))
    assert not found, "\n".join(found)


ROUNDED = [
    2.675, -2.675, 0.5, 1.5, 2.5, -2.5, -0.4, -0.0, 0.125, 0.005, 1.0000000000000002, 123456.789, 2.0**60,
    4.2893058791500518e18, 1e300, -1e300, 5e-324, 1e-300, INF, -INF, NAN, 0.1, 1e15 + 0.3, 9.995, 1.45,
]  # fmt: skip
"""Halves, values Java 17 writes with more digits than the shortest (2**60, 4.2893058791500518E18)..."""
FLOATS = [0.13436425, 1.15, 2.5, -2.5, 16777217.0, 1e-45, 3.4e38, -0.0, 0.1, 9.995, NAN, INF, -INF, 1.45, 7.0]
"""float32 values (rounded through the double they widen to: Spark writes 1.15f as 1.149999976158142)."""
MODERATE = [
    2.675, -2.675, 0.5, -0.5, 1e14 + 0.25, -1e14 - 0.75, 0.0, -0.0, NAN, 1.0000001, 999999.9999995, 0.1, -7.5,
    1e-20, 12.345, -1e-9, 3.0, 8.5, -8.5, 0.999, 1e-15, 42.0, 5e-16, -0.3, 2.5,
]  # fmt: skip
"""Doubles that fit ``decimal(30,15)`` (ceil/floor with a scale cast them to it) and a bigint."""


def test_rounding_is_sparks(spark: SparkSession) -> None:
    """round/bround through Java 17's Double.toString (a float widened first), ints with negative scales, decimals
    to the analyzer's type; ceil/floor of doubles, ints and decimals, with and without a scale."""
    rows = len(ROUNDED)
    frame = _frame(
        {
            "x": (pa.float64(), ROUNDED),
            "f": (pa.float32(), (FLOATS * 2)[:rows]),
            "m": (pa.float64(), MODERATE[:rows]),
            "b": (pa.int8(), ([124, -124, 0, 5, -5, 15, -15, 95, -95, 45, 1, -1] * 3)[:rows]),
            "n": (pa.int64(), ([2**63 - 808, -(2**63) + 808, 0, 15, -15, 25, -25, 10**17 + 5, 7] * 3)[:rows]),
            "d": (pa.decimal128(10, 2), [Decimal(v) for v in ("1.15", "-2.25", "0.05", "99999999.99", "-0.50") * 5]),
            "w": (
                pa.decimal128(38, 18),
                [
                    Decimal(v)
                    for v in ("1.5", "-2.25", "12345678901234567890.123456789012345678", "0", "-0.000000000000000005")
                    * 5
                ],
            ),
            "g": (
                pa.decimal128(38, 0),
                [
                    Decimal(v)
                    for v in (
                        "12345678901234567890123456789012345675",
                        "-5",
                        "15",
                        "0",
                        "-12345678901234567890123456789012345674",
                    )
                    * 5
                ],
            ),
        }
    )
    calls: dict[str, Any] = {}
    for scale in (-20, -3, -1, 0, 1, 2, 7, 15, 400):
        for col in ("x", "f", "b", "n", "d", "w", "g"):
            if scale < -3 and col == "g":
                continue  # past 38 digits: an error (test_spark_errors_are_the_local_engines)
            calls[f"round_{col}_{scale}"] = F.round(F.col(col), scale)
            calls[f"bround_{col}_{scale}"] = F.bround(F.col(col), scale)
        for col in ("m", "b", "n", "d", "w"):
            if scale > 15 and col == "m":
                continue
            calls[f"ceil_{col}_{scale}"] = F.ceil(F.col(col), scale)
            calls[f"floor_{col}_{scale}"] = F.floor(F.col(col), scale)
    for col in ("m", "b", "n", "d", "w", "g"):
        calls[f"ceil_{col}"] = F.ceil(F.col(col))
        calls[f"ceiling_{col}"] = F.ceiling(F.col(col))
        calls[f"floor_{col}"] = F.floor(F.col(col))
    calls["round_default"] = F.round("x")
    calls["bround_default"] = F.bround("f")
    found = differences(frame.select(**calls))
    assert not found, "\n".join(found)


INT32 = [2**31 - 1, -(2**31), -1, 0, 1, 7, -7, 2**30, 46341, -46341, 13, 100]
INT64 = [2**63 - 1, -(2**63), -1, 0, 1, 7, -7, 2**62, 3037000500, -3037000500, 13, 10**18]
INT8 = [127, -128, -1, 0, 1, 7, -7, 64, 12, -12, 13, 100]


def test_integers_decimals_and_bases_are_sparks(spark: SparkSession) -> None:
    """abs/negative without their overflow, pmod (Java's wrapping ``r + n``), the try_ functions at the edges of
    their types (NULL where Spark's operator fails), date plus days past year 9999, greatest/least with NaN
    and -0.0, width_bucket, factorial, isnan/nanvl, and bin/hex/unhex/conv."""
    big, small = Decimal("9" * 38), Decimal("-" + "9" * 38)
    frame = _frame(
        {
            "i": (pa.int32(), INT32),
            "nz": (pa.int32(), [3 if v == 0 else v for v in INT32]),
            "one": (pa.int32(), [-1] * len(INT32)),
            "j": (pa.int32(), [*INT32[3:], *INT32[:3]]),
            "l": (pa.int64(), INT64),
            "k": (pa.int64(), [*INT64[5:], *INT64[:5]]),
            "b": (pa.int8(), INT8),
            "c": (pa.int8(), [*INT8[4:], *INT8[:4]]),
            "x": (pa.float64(), [0.0, -0.0, NAN, INF, -INF, 1.5, -7.5, 1e308, -1e-320, 2.5, 3.0, -1.0]),
            "y": (pa.float64(), [-0.0, 0.0, 1.0, 2.0, INF, NAN, 2.0, 1e-308, 3.0, -0.0, 0.0, -1.0]),
            "f": (pa.float32(), [1.5, -1.5, 3.4e38, NAN, -0.0, 16777216.0, 1e-45, 0.1, -0.1, 7.0, 2.0, INF]),
            "g": (pa.float32(), [1e-30, 0.5, 3.4e38, 1.0, 2.0, 1.0, 3.0, 0.3, 0.0, -7.0, -0.0, 2.0]),
            "d": (pa.decimal128(38, 0), [big, small, Decimal(0), Decimal(1), Decimal(-7), Decimal(10**19)] * 2),
            "e": (pa.decimal128(38, 0), [Decimal(1), Decimal(2), Decimal(0), big, Decimal(3), Decimal(-(10**19))] * 2),
            "p": (
                pa.decimal128(10, 2),
                [Decimal(v) for v in ("1.15", "-2.25", "0.05", "99999999.99", "-0.50", "7")] * 2,
            ),
            "day": (pa.date32(), [datetime.date(9999, 12, 31), datetime.date(1, 1, 1), datetime.date(2024, 2, 29)] * 4),
            "s": (
                pa.string(),
                [
                    "",
                    " -12 ",
                    "ff",
                    "zz",
                    "7fffffffffffffff",
                    "-9223372036854775809",
                    "18446744073709551615",
                    "ÿ",
                    "abc",
                    "0g",
                    "\t1",
                    "1A",
                ],
            ),
            "t": (pa.string(), ["a", "b", None, "é", "", "😀", "zz", "A", "aa", "b", None, "ÿ"]),
            "o": (
                pa.binary(),
                [b"", b"\x00\xff", b"abc", None, b"\x80", b"z", b"", b"\x01", b"ab", b"a", b"\xff", b"b"],
            ),
        }
    )
    col = F.col
    calls: dict[str, Any] = {
        "abs_j": F.abs(col("j") % 1000),
        "abs_x": F.abs("x"),
        "abs_f": F.abs("f"),
        "abs_p": F.abs("p"),
        "negative_x": F.negative("x"),
        "negate_p": F.negate("p"),
        "negate_c": F.negate(col("c") % 100),
        "positive_d": F.positive("d"),
        "pmod_ij": F.pmod("i", F.when(col("j") == 0, 5).otherwise(col("j"))),
        "pmod_lk": F.pmod("l", F.when(col("k") == 0, -3).otherwise(col("k"))),
        "pmod_bc": F.pmod("b", F.when(col("c") == 0, 3).otherwise(col("c"))),
        "pmod_xy": F.pmod("x", F.when(col("y") == 0.0, 2.0).otherwise(col("y"))),
        "pmod_fg": F.pmod("f", F.when(col("g") == 0.0, 2.0).otherwise(col("g"))),
        "pmod_pd": F.pmod("p", F.lit(Decimal("0.3"))),
        "pmod_de": F.pmod("d", F.when(col("e") == 0, 7).otherwise(col("e"))),
        "pmod_wraps": F.pmod("one", "nz"),  # pmod(-1, -2147483648): Java's r + n wraps to 2147483647
        "e": F.e(),
        "pi": F.pi(),
        "isnan_x": F.isnan("x"),
        "isnan_f": F.isnan("f"),
        "nanvl_xy": F.nanvl("x", "y"),
        "nanvl_fg": F.nanvl("f", "g"),
        "factorial": F.factorial(col("i") % 23),
        "width_bucket": F.width_bucket("x", "y", F.lit(10.0), col("b")),
        "width_bucket_l": F.width_bucket(col("y"), F.lit(-1e308), F.lit(1e308), col("l")),
        "bin_l": F.bin("l"),
        "bin_b": F.bin("b"),
        "hex_l": F.hex("l"),
        "hex_b": F.hex("b"),
        "hex_t": F.hex("t"),
        "hex_o": F.hex("o"),
        "unhex": F.unhex("s"),
        "unhex_hex": F.unhex(F.hex("t")),
        "conv_16_10": F.conv("t", 16, 10),
        "conv_10_m16": F.conv("s", 10, -16),
        "conv_36_2": F.conv("t", 36, 2),
        "conv_10_m10": F.conv("s", 10, -10),
        "greatest_xy": F.greatest("x", "y"),
        "least_xy": F.least("x", "y"),
        "greatest_ijl": F.greatest("i", "j", "l"),
        "least_fg": F.least("f", "g"),
        "greatest_t": F.greatest("t", "s"),
        "least_t": F.least("t", F.lit(None).cast(str)),
        "greatest_o": F.greatest("o", F.lit(b"b")),
        "least_day": F.least("day", F.lit(datetime.date(2000, 1, 1))),
        "least_p": F.least("p", F.lit(Decimal("0.10"))),
    }
    for op in ("add", "subtract", "multiply", "divide", "mod"):
        function: Callable[..., Any] = getattr(F, f"try_{op}")
        for left, right in (
            ("i", "j"),
            ("l", "k"),
            ("b", "c"),
            ("x", "y"),
            ("f", "g"),
            ("d", "e"),
            ("p", "d"),
            ("i", "f"),
            ("p", "x"),
        ):
            calls[f"try_{op}_{left}{right}"] = function(left, right)
    calls["try_add_day"] = F.try_add("day", "i")
    calls["try_add_day_b"] = F.try_add("b", "day")
    calls["try_subtract_day"] = F.try_subtract("day", "j")
    found = differences(frame.select(**calls))
    assert not found, "\n".join(found)


ERRORS: dict[str, tuple[Callable[[], Any], str]] = {
    "abs of the smallest int": (lambda: F.abs("i"), "ARITHMETIC_OVERFLOW"),
    "negative of the smallest tinyint": (lambda: F.negative("b"), "ARITHMETIC_OVERFLOW"),
    "pmod by zero": (lambda: F.pmod(F.col("x"), F.col("x") * 0.0), "REMAINDER_BY_ZERO"),
    "ceil past a bigint": (lambda: F.ceil(F.col("x") * 1e300), "ARITHMETIC_OVERFLOW"),
    "ceil with a scale past decimal(30,15)": (lambda: F.ceil(F.col("x") * 1e20, 2), "NUMERIC_VALUE_OUT_OF_RANGE"),
    "round past 38 digits": (lambda: F.round("d", -1), "NUMERIC_VALUE_OUT_OF_RANGE"),
    "round of a tinyint past its type": (lambda: F.round("c", -1), "ARITHMETIC_OVERFLOW"),
    "factorial of a bigint past an int": (lambda: F.factorial("l"), "CAST_OVERFLOW"),
    "conv past 64 bits": (lambda: F.conv("s", 16, 10), "ARITHMETIC_OVERFLOW"),
}
"""Each failing on the second row of ``_failing``."""


def _failing() -> DataFrame[Any]:
    """A first row every call computes, a second on which Spark fails."""
    return _frame(
        {
            "x": (pa.float64(), [1.0, 2.0]),
            "i": (pa.int32(), [7, -(2**31)]),
            "b": (pa.int8(), [7, -128]),
            "c": (pa.int8(), [7, 127]),
            "l": (pa.int64(), [7, 2**32 + 5]),
            "d": (pa.decimal128(38, 0), [Decimal(7), Decimal("9" * 38)]),
            "s": (pa.string(), ["ff", "f" * 18]),
        }
    )


@pytest.mark.parametrize("case", list(ERRORS))
def test_spark_errors_are_the_local_engines(spark: SparkSession, case: str) -> None:
    """Where Spark (ANSI) fails on a value, the local engine fails with Spark's error class."""
    call, condition = ERRORS[case]
    frame = _failing().select(r=call())
    with pytest.raises(SparkJobError, match=condition):
        frame.to_arrow()
    with pytest.raises(LocalEngineError, match=rf"\[{condition}\]"):
        frame.to_arrow(engine="local")


@pytest.mark.jvm_free
@pytest.mark.parametrize("name", ["sin", "cos", "tan", "cot", "sec", "csc"])
def test_javas_intrinsic_trigonometry_is_refused_by_name(name: str) -> None:
    frame = _frame({"x": (pa.float64(), [1.0])}).select(r=getattr(F, name)("x"))
    with pytest.raises(UnsupportedEngineError, match=rf"{name}\(\)"):
        frame.to_arrow(engine="local")
