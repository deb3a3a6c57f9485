"""The conditional kernels against Spark: NULLs, NaN, ``-0.0``, mixed types compared as Spark's ``=`` does.

``nullif`` and ``equal_null`` compare in the type both sides convert to (a
``bigint`` beside a ``double`` as a double, so 2**53 + 1 equals 2.0**53; a date
beside a timestamp as midnight in the session's zone); ``typeof`` names every
kind of type as Spark's ``catalogString`` does, odd field names included.
"""

from __future__ import annotations

import datetime
import math
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import pytest
from test_kernels_collections import assert_same_on_both_engines, frame_of

from pydantable_spark import F
from pydantable_spark import dtypes as dt

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

    from pydantable_spark import DataFrame
    from pydantable_spark.expr.api import Expr

pytestmark = pytest.mark.spark

NAN = math.nan
UTC = datetime.timezone.utc
ODD = dt.Struct(
    (
        dt.Field("a b", dt.Int64(), True),
        dt.Field("c:d", dt.List(dt.Map(dt.String(), dt.Decimal(5, 2), True), True), True),
        dt.Field("é`x", dt.DatetimeNTZ(), True),
    )
)


def rows() -> DataFrame[Any]:
    day = datetime.date
    return frame_of(
        {
            "x": (dt.Float64(), True, [NAN, -0.0, 0.0, None, 1.0, 9007199254740992.0]),
            "y": (dt.Float64(), True, [NAN, 0.0, None, None, 2.0, 1.0]),
            "n": (dt.Int64(), True, [None, 0, 0, 5, 1, 9007199254740993]),
            "t": (dt.Int8(), True, [None, 0, -128, 127, 1, None]),
            "f": (dt.Float32(), True, [None, -0.0, NAN, 1.5, 0.0, 3.0e38]),
            "dec": (
                dt.Decimal(12, 3),
                True,
                [Decimal("0.000"), None, Decimal("-1.500"), Decimal("999999999.999"), Decimal("0.001"), None],
            ),
            "s": (dt.String(), True, ["", "a", None, "😀", "A", "a"]),
            "s2": (dt.String(), False, ["", "A", "x", "😀", "A", "a"]),
            "l": (dt.List(dt.Float64(), True), True, [[NAN], [-0.0], [None], None, [1.0], []]),
            "l2": (dt.List(dt.Float64(), True), True, [[NAN], [0.0], [None], [1.0], None, []]),
            "day": (
                dt.Date(),
                True,
                [day(2024, 1, 1), None, day(1970, 1, 1), day(2024, 3, 10), day(1, 1, 1), day(2000, 2, 29)],
            ),
            "at": (
                dt.Datetime(),
                True,
                [
                    datetime.datetime(2024, 1, 1, tzinfo=UTC),
                    datetime.datetime(2024, 1, 1, tzinfo=UTC),
                    None,
                    datetime.datetime(2024, 3, 9, 15, tzinfo=UTC),
                    datetime.datetime(2000, 1, 1, tzinfo=UTC),
                    datetime.datetime(2000, 2, 28, 15, tzinfo=UTC),
                ],
            ),
            "odd": (
                ODD,
                True,
                [None, {"a b": 1, "c:d": [[("k", Decimal("1.00"))]], "é`x": None}, None, None, None, None],
            ),
            "b": (dt.Binary(), True, [b"", None, b"\x00", b"a", b"a", b"\xff"]),
        }
    )


def _calls() -> dict[str, Expr[Any]]:
    c = F.col
    return {
        "nvl": F.nvl("x", "y"),
        "ifnull": F.ifnull("n", "x"),
        "nvl_lists": F.nvl("l", "l2"),
        "nvl2": F.nvl2("s", "x", "n"),
        "nullif": F.nullif("x", "y"),
        "nullif_mixed": F.nullif("n", "x"),
        "nullif_str": F.nullif("s", "s2"),
        "nullif_lists": F.nullif("l", "l2"),
        "nullif_bytes": F.nullif("b", F.lit(b"a")),
        "nullif_tiny": F.nullif("t", 0),
        "nullifzero_x": F.nullifzero("x"),
        "nullifzero_f": F.nullifzero("f"),
        "nullifzero_dec": F.nullifzero("dec"),
        "nullifzero_t": F.nullifzero("t"),
        "zeroifnull_t": F.zeroifnull("t"),
        "zeroifnull_f": F.zeroifnull("f"),
        "zeroifnull_dec": F.zeroifnull("dec"),
        "zeroifnull_x": F.zeroifnull("x"),
        "equal_null": F.equal_null("x", "y"),
        "equal_null_mixed": F.equal_null("n", "x"),
        "equal_null_lists": F.equal_null("l", "l2"),
        "equal_null_dec": F.equal_null("dec", "n"),
        "isnull": F.isnull("l"),
        "isnotnull": F.isnotnull("odd"),
        "typeof_odd": F.typeof("odd"),
        "typeof_l": F.typeof("l"),
        "typeof_dec": F.typeof("dec"),
        "typeof_t": F.typeof("t"),
        "typeof_b": F.typeof("b"),
        "typeof_map": F.typeof(F.create_map(c("s2"), c("day"))),
        "typeof_at": F.typeof("at"),
        "typeof_f": F.typeof("f"),
    }


def test_conditional_kernels_give_sparks_values(spark: SparkSession) -> None:
    assert_same_on_both_engines(rows().select(**_calls()))


def test_a_date_meets_a_timestamp_at_midnight_in_the_session_zone(spark: SparkSession) -> None:
    previous = spark.conf.get("spark.sql.session.timeZone")
    spark.conf.set("spark.sql.session.timeZone", "Asia/Tokyo")
    try:
        out = rows().select(
            equal=F.equal_null("day", "at"),
            nullif=F.nullif("day", "at"),
        )
        assert_same_on_both_engines(out)
    finally:
        spark.conf.set("spark.sql.session.timeZone", previous)
