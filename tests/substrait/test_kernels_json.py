"""The JSON and CSV kernels against Spark: Jackson's reading and writing, Java's number text, the session's zone.

One frame of JSON texts (valid, lenient, broken, 1,000 levels deep, numbers
of 1,000 digits, surrogate escapes, characters outside the BMP, text after
the value) read by every path form; one frame of typed values written by
``to_json`` and ``to_csv`` (doubles Java 17 writes with other digits than the
shortest, subnormals, float32, decimals, escapes, bytes, dates, timestamps)
in UTC and in zones with offsets of half hours and of seconds.
"""

from __future__ import annotations

import datetime
import math
import random
import struct
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import pytest
from test_kernels_collections import assert_same_on_both_engines, frame_of

from pydantable_spark import F
from pydantable_spark import dtypes as dt
from pydantable_spark.errors import UnsupportedEngineError

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

    from pydantable_spark import DataFrame

pytestmark = pytest.mark.spark

UTC = datetime.timezone.utc
DEEP = 1000

TEXTS = [
    '{"a":{"b":[1,2,{"c":"x"}]}}',
    '{"a" : { "b" :  [ 1 , 2 ] } , "c": 1.50, "d": 1e2, "e": -0, "f": -0.0}',
    '{"a":[1.50, 1E+2, 123456789012345678901234567890, 1.2345678901234567890123, 1e400, 5e-324, 1e23]}',
    '{"a":"\\u00e9\\n\\"x\\/\\t","b":["\\ud83d\\ude00","😀","\\ud800","\\u001f\\u007f\\u2028"]}',
    '{"a":null,"a":2,"b":[null],"c":[null,2],"d":[],"e":[[1,2],[3]],"f":[[1,[2]],3]}',
    '{"a":1,"a":{"b":2}}',
    '{"a":[{"b":1},{"b":2},{"c":3}],"c":[{"b":[1,2]},{"b":[3]}]}',
    "{'a':'x\"y','b':[1]}",
    '{"a":"tab\there\u0001"}',
    '{"a":1} trailing',
    '{"a":1,"b":}',
    '{"a":1,}',
    "[1,2,]",
    "[1 2]",
    "{a:1}",
    '{"a":NaN}',
    '{"a":01}',
    '{"a":.5}',
    '{"a":"x\\qy"}',
    '\ufeff{"a":1}',
    '\f{"a":1}',
    '  [1, [2, 3], {"a": [4]}]  ',
    "[]",
    "{}",
    "",
    "   ",
    "null",
    '"just a string"',
    "1 x",
    "1x",
    "truex",
    "true]",
    "[truex]",
    '{"a":tru}',
    "[" * DEEP + "]" * DEEP,
    "[" * (DEEP + 1) + "]" * (DEEP + 1),
    "[" + "1" * 1000 + "]",
    "[" + "1" * 1001 + "]",
    "[" + "1" * 500 + "." + "1" * 500 + "]",
    "[" + "1" * 500 + "." + "1" * 501 + "]",
    '{"\\ud800":1,"\\u00e9":2,"x\\"y":3,"":4,"a b ":5,"a.b":6,"a?":7}',
    '{"a":[1,2,3],"b":{"c":{"d":[{"e":"deep"}]}}}',
    '{"a":"\\ud800","b":["😀",1],"c":["\\ud83d\\ude00"],"d":["\\ud800",1],"e":"😀\\udc00x"}',
    '{"a":"\\ud83d\\ude00","b":["\\udc00"],"c":[["😀"],["\\ud800"]],"e":"\\ud83dx"}',
]

PATHS = [
    "$",
    "$.a",
    "$.a.b",
    "$.a.b[2].c",
    "$.a[0]",
    "$.a[1]",
    "$.a[*]",
    "$.a[*].b",
    "$.a[*][0]",
    "$.a[*][*]",
    "$.b[*]",
    "$.c[*]",
    "$.c[*].b[*]",
    "$.d[*]",
    "$.e[*][*]",
    "$.f[*][*]",
    "$[0]",
    "$[1]",
    "$[*]",
    "$[01]",
    "$[9999999999999999999]",
    "$[-1]",
    "$['a']",
    '$["a"]',
    "$['a b ']",
    "$['a.b']",
    "$['a?']",
    "$[' a']",
    "$.a.*",
    "$.*",
    "$..a",
    "$.",
    "$ .a",
    "$. a",
    "$.a ",
    "$[ 1 ]",
    "$[0] ",
    "a",
    "",
    "$.b.c.d[0].e",
    "$.b['c'].d[*].e",
    "$.a[0][*]",
    "$.e",
    "$.c[*][*]",
    "$.c[0]",
]


def test_json_readers_give_sparks_values(spark: SparkSession) -> None:
    frame = frame_of({"j": (dt.String(), True, [*TEXTS, None])})
    calls = {f"p{i}": F.get_json_object("j", path) for i, path in enumerate(PATHS)}
    out = frame.select(length=F.json_array_length("j"), keys=F.json_object_keys("j"), **calls)
    assert_same_on_both_engines(out)


def _doubles() -> list[float]:
    """Doubles Java 17 writes otherwise than with the shortest digits, subnormals, and random bit patterns."""
    found = [1e23, 2e23, 7e22, 1.3734286348095790e18, 5.299064834871378e16, 2.82879384806159e17, 9007199254740993.0]
    found += [5e-324 * k for k in (1, 2, 3, 7, 32, 33)] + [1e-320, 2.2250738585072014e-308, 1e-3, 9999999.0, 1e7]
    found += [0.1, 1 / 3, -0.0, 100.0, 123456789.125, 1e21, -1e-5]
    generator = random.Random(20240229)
    while len(found) < 400:
        value = struct.unpack("d", struct.pack("Q", generator.getrandbits(64)))[0]
        if math.isfinite(value):
            found.append(value)
    return found


def _floats() -> list[float]:
    found = [16777216.0, 123456792.0, 3.4e38, 1e-7, 1.1, 0.001, 1e10, 1.4e-45, 2.8e-45, 1.1754942e-38]
    generator = random.Random(1)
    while len(found) < 200:
        value = struct.unpack("f", struct.pack("I", generator.getrandbits(32)))[0]
        if math.isfinite(value):
            found.append(value)
    return [struct.unpack("f", struct.pack("f", v))[0] for v in found]


RECORD = dt.Struct(
    (
        dt.Field("d", dt.Float64(), True),
        dt.Field("f", dt.Float32(), True),
        dt.Field("n", dt.Decimal(10, 8), True),
        dt.Field("s", dt.String(), True),
        dt.Field("b", dt.Binary(), True),
        dt.Field("t", dt.Boolean(), True),
        dt.Field("day", dt.Date(), True),
        dt.Field("at", dt.Datetime(), True),
        dt.Field("wall", dt.DatetimeNTZ(), True),
        dt.Field("i", dt.Int64(), True),
    )
)
PLAIN = dt.Struct(tuple(f for f in RECORD.fields if f.name != "b"))
STRINGS = [
    'q"b\\s/<>\n\t\r\b\f\x01\x1f\x7fé😀\u2028\x00',
    "",
    " ",
    " lead, trail ",
    "x,\\y",
    'a\\"b',
    "\\",
    "#x",
    "\tx\x01",
    "a\rb",
    None,
]


def _records() -> list[dict[str, object] | None]:
    moments = [
        datetime.datetime(2024, 2, 29, 13, 5, 9, 123456, tzinfo=UTC),
        datetime.datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
        datetime.datetime(1850, 1, 1, tzinfo=UTC),
        datetime.datetime(1, 1, 1, tzinfo=UTC),
        datetime.datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC),
        datetime.datetime(2024, 3, 10, 6, 59, 59, tzinfo=UTC),
    ]
    decimals = [Decimal("0.00000001"), Decimal(0).scaleb(-8), Decimal("12.5"), Decimal("-0.000001"), None]
    rows: list[dict[str, object] | None] = [None]
    doubles, floats = _doubles(), _floats()
    for i in range(max(len(doubles), len(floats))):
        rows.append(
            {
                "d": doubles[i] if i < len(doubles) else None,
                "f": floats[i] if i < len(floats) else None,
                "n": decimals[i % len(decimals)],
                "s": STRINGS[i % len(STRINGS)],
                "b": bytes([i % 256, 0, 255]) if i % 3 else None,
                "t": bool(i % 2) if i % 5 else None,
                "day": datetime.date(1, 1, 1) + datetime.timedelta(days=i * 997) if i % 4 else None,
                "at": moments[i % len(moments)],
                "wall": moments[(i + 1) % len(moments)].replace(tzinfo=None) if i % 6 else None,
                "i": -(2**63) if i == 7 else i,
            }
        )
    rows.append({name: None for name in ("d", "f", "n", "s", "b", "t", "day", "at", "wall", "i")})
    return rows


def _written() -> DataFrame[Any]:
    records = _records()
    plain = [None if r is None else {k: v for k, v in r.items() if k != "b"} for r in records]
    lists = [None if r is None else [r["d"], None, r["d"]] for r in records]
    maps = [None if r is None else [("x", r["s"]), ("y", None)] for r in records]
    frame = frame_of(
        {
            "r": (RECORD, True, records),
            "p": (PLAIN, True, plain),
            "l": (dt.List(dt.Float64(), True), True, lists),
            "m": (dt.Map(dt.String(), dt.String(), True), True, maps),
            "single": (
                dt.Struct((dt.Field("s", dt.String(), True),)),
                True,
                [{"s": r["s"]} if r else None for r in records],
            ),
        }
    )
    return frame.select(
        json=F.to_json("r"),
        json_nulls=F.to_json("r", {"ignoreNullFields": "false"}),
        json_list=F.to_json("l"),
        json_map=F.to_json("m"),
        json_nested=F.to_json(F.struct("r", "l", "m")),
        csv=F.to_csv("p"),
        csv_semicolon=F.to_csv("p", {"sep": ";"}),
        csv_single=F.to_csv("single"),
    )


@pytest.mark.parametrize("zone", ["UTC", "Asia/Tokyo", "America/St_Johns"])
def test_json_and_csv_writers_give_sparks_text(spark: SparkSession, zone: str) -> None:
    previous = spark.conf.get("spark.sql.session.timeZone")
    spark.conf.set("spark.sql.session.timeZone", zone)
    try:
        assert_same_on_both_engines(_written())
    finally:
        spark.conf.set("spark.sql.session.timeZone", previous)


@pytest.mark.jvm_free
def test_options_and_fields_the_writers_do_not_take_are_refused() -> None:
    frame = frame_of({"r": (RECORD, True, [None]), "p": (PLAIN, True, [None])})
    cases = {
        r"no to_json\(\) option but ignoreNullFields \(got pretty\)": F.to_json("r", {"pretty": "true"}),
        r"only a one-character sep": F.to_csv("p", {"sep": "ab"}),
        r"does not write a binary field as CSV": F.to_csv("r"),
        r"no kernel for schema_of_json": F.schema_of_json('{"a": 1}'),
    }
    for message, call in cases.items():
        with pytest.raises(UnsupportedEngineError, match=message):
            frame.select(x=call).to_arrow(engine="local")
