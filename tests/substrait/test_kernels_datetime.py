"""The datetime kernels and the cast kernel against Spark: one frame of edge rows, a few selects, three session zones.

Each select runs on Spark and on the local engine (``to_arrow`` of both), and
every column must agree, row by row; where Spark fails on a value (ANSI), the
local engine must fail with the same error class. Calendar fields, formatting
and parsing read the session time zone: the frame is compared in UTC, in
``Asia/Tokyo`` (a fixed +09:00 without DST) and in ``America/New_York`` (DST
gaps and overlaps in the rows).
"""

from __future__ import annotations

import datetime
import math
import re
from decimal import Decimal
from typing import TYPE_CHECKING, Annotated, Any

import pyarrow as pa
import pydantic
import pytest

from pydantable_spark import DataFrameModel, F
from pydantable_spark import dtypes as dt
from pydantable_spark.errors import LocalEngineError, SparkJobError, UnsupportedEngineError

if TYPE_CHECKING:
    from collections.abc import Iterator

    from pyspark.sql import SparkSession

    from pydantable_spark import DataFrame

UTC = datetime.timezone.utc


class Moment(DataFrameModel):
    id: int
    d: datetime.date | None
    ts: datetime.datetime | None
    ntz: pydantic.NaiveDatetime | None
    n: int | None
    i: Annotated[int, dt.Int32()] | None
    x: float | None
    s: str | None


def _ts(*parts: int) -> datetime.datetime:
    return datetime.datetime(*parts, tzinfo=UTC)  # type: ignore[misc]


_MOMENTS = [
    (datetime.date(2024, 2, 29), _ts(2024, 2, 29, 13, 5, 9, 123456), datetime.datetime(2024, 2, 29, 13, 5, 9, 123456)),
    (datetime.date(1970, 1, 1), _ts(1970, 1, 1), datetime.datetime(1970, 1, 1)),
    (
        datetime.date(1969, 12, 31),
        _ts(1969, 12, 31, 23, 59, 59, 999999),
        datetime.datetime(1969, 12, 31, 23, 59, 59, 999999),
    ),
    (datetime.date(1, 1, 3), _ts(1, 1, 3, 4, 5, 6), datetime.datetime(1, 1, 3, 4, 5, 6)),
    (datetime.date(9999, 12, 29), _ts(9999, 12, 29, 23, 59, 59), datetime.datetime(9999, 12, 29, 23, 59, 59)),
    (datetime.date(2024, 3, 10), _ts(2024, 3, 10, 7, 30), datetime.datetime(2024, 3, 10, 2, 30)),  # NY's gap
    (datetime.date(2024, 11, 3), _ts(2024, 11, 3, 5, 30), datetime.datetime(2024, 11, 3, 1, 30)),  # NY's overlap
    (datetime.date(2024, 11, 3), _ts(2024, 11, 3, 6, 30), datetime.datetime(2024, 11, 3, 1, 30, 0, 1)),
    (datetime.date(1883, 11, 18), _ts(1883, 11, 18, 16, 59), datetime.datetime(1883, 11, 18, 11, 59)),  # NY's LMT
    (datetime.date(2021, 1, 3), _ts(2021, 1, 3, 23), datetime.datetime(2021, 1, 3)),  # ISO week 53 of 2020
    (datetime.date(2020, 12, 31), _ts(2020, 12, 31, 15, 0, 0, 1), datetime.datetime(2020, 12, 31, 12)),
    (datetime.date(2023, 1, 31), _ts(2023, 1, 31, 0, 0, 0, 500000), datetime.datetime(2023, 5, 31, 23, 59)),
]
_NUMBERS: list[tuple[int, int, float]] = [
    (1, 1, 1.5), (-2, -2, -0.25), (0, 0, 0.0), (7, 7, 100.0), (13, 13, -1e10), (-14, -14, 2.5e-7),
    (1000, 1000, 59.9999999), (-1000, -1000, 60.0), (2**31 - 1, 29, math.nan), (-(2**31), 31, math.inf),
    (12, 12, -math.inf), (1709211909, 3, -0.0),
]  # fmt: skip
_TEXTS = [
    "2024-02-29 13:05:09.123456", " 2024-2-9T1:2:3Z ", "1970-01-01", "2024-02-29T13:05:09+09:00", "", "Ab c1",
    "2024-03-10 02:30:00", "2024-11-03 01:30", "+12024-01-01", "2024-02-30", "2024-01-01 10:00:00 Europe/Paris",
    "\t1999-12-31 23:59:59.9999999\n",
]  # fmt: skip


def _rows() -> list[dict[str, Any]]:
    rows = []
    for index, ((day, ts, ntz), (n, i, x), s) in enumerate(zip(_MOMENTS, _NUMBERS, _TEXTS, strict=True)):
        rows.append({"id": index, "d": day, "ts": ts, "ntz": ntz, "n": n, "i": i, "x": x, "s": s})
    rows.append({"id": len(rows), "d": None, "ts": None, "ntz": None, "n": None, "i": None, "x": None, "s": None})
    return rows


def _frame() -> DataFrame[Moment]:
    return Moment.from_rows(_rows())


@pytest.fixture
def zone(spark: SparkSession, request: pytest.FixtureRequest) -> Iterator[str]:
    name = request.param
    before = spark.conf.get("spark.sql.session.timeZone")
    spark.conf.set("spark.sql.session.timeZone", name)
    try:
        yield name
    finally:
        spark.conf.set("spark.sql.session.timeZone", before)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))
    return type(a) is type(b) and a == b


def _values(column: pa.ChunkedArray) -> list[Any]:
    """A column's values; dates and timestamps as their epoch counts (Spark's reach past Python's year 9999)."""
    if pa.types.is_date32(column.type):
        return column.cast(pa.int32()).to_pylist()
    if pa.types.is_timestamp(column.type):
        return column.cast(pa.int64()).to_pylist()
    return column.to_pylist()


def _differences(frame: DataFrame[Any]) -> list[str]:
    """Each column whose values differ between Spark and the local engine, with the first differing row."""
    theirs = frame.to_arrow()
    mine = frame.to_arrow(engine="local")
    found = []
    if mine.schema != theirs.schema:
        found.append(f"schema: {mine.schema} vs Spark {theirs.schema}")
    for name in theirs.column_names:
        ours, spark_values = _values(mine.column(name)), _values(theirs.column(name))
        for row, (a, b) in enumerate(zip(ours, spark_values, strict=True)):
            if not _same(a, b):
                found.append(f"{name} row {row}: local {a!r} vs Spark {b!r}")
                break
    return found


def _error_class(error: BaseException) -> str:
    text = str(error) + " " + str(error.__cause__ or "")
    found = re.search(r"\[([A-Z_]+)", text)
    return found.group(1) if found else text[:200]


def _failures(frame: DataFrame[Any], cases: dict[str, Any]) -> list[str]:
    """Each case (an expression over the frame) must fail on both engines with Spark's error class."""
    found = []
    for name, expr in cases.items():
        selected = frame.select(expr.alias(name))
        try:
            selected.to_arrow()
        except SparkJobError as error:
            spark_class = _error_class(error)
        else:
            found.append(f"{name}: Spark did not fail")
            continue
        try:
            selected.to_arrow(engine="local")
        except LocalEngineError as error:
            if _error_class(error) != spark_class:
                found.append(f"{name}: local {_error_class(error)} vs Spark {spark_class}")
        else:
            found.append(f"{name}: the local engine did not fail (Spark: {spark_class})")
    return found


def _fields(m: type[Moment]) -> dict[str, Any]:
    exprs: dict[str, Any] = {}
    for column in ("d", "ts", "ntz"):
        value = getattr(m, column)
        for name in ("year", "quarter", "month", "dayofmonth", "dayofweek", "weekday", "dayofyear", "weekofyear"):
            exprs[f"{name}_{column}"] = getattr(F, name)(value)
        for name in ("hour", "minute", "second", "dayname", "monthname", "last_day"):
            exprs[f"{name}_{column}"] = getattr(F, name)(value)
        for field in ("YEAR", "yearofweek", "qtr", "mon", "week", "d", "dow", "dow_iso", "doy", "h", "min", "Second"):
            exprs[f"part_{field}_{column}"] = F.date_part(field, value)
        exprs[f"date_add_{column}"] = F.date_add(value, m.i)
        exprs[f"date_sub_{column}"] = F.date_sub(value, 3)
        exprs[f"add_months_{column}"] = F.add_months(value, m.i)
        exprs[f"datediff_{column}"] = F.datediff(value, m.d)
        exprs[f"months_between_{column}"] = F.months_between(value, m.ts)
        exprs[f"months_between_raw_{column}"] = F.months_between(m.ntz, value, False)
        for unit in ("year", "quarter", "month", "week", "day", "hour", "minute", "second", "millisecond"):
            exprs[f"add_{unit}_{column}"] = F.timestamp_add(unit, m.i, value)
            exprs[f"diff_{unit}_{column}"] = F.timestamp_diff(unit, value, m.ts)
            exprs[f"diff_ntz_{unit}_{column}"] = F.timestamp_diff(unit, m.ntz, value)
        exprs[f"next_day_{column}"] = F.next_day(value, "Sun")
        for level in ("year", "quarter", "month", "week"):
            exprs[f"trunc_{level}_{column}"] = F.trunc(value, level)
            exprs[f"truncate_{level}_{column}"] = value.dt.truncate(level)
        for level in ("year", "quarter", "month", "week", "day", "hour", "minute", "second", "millisecond"):
            exprs[f"date_trunc_{level}_{column}"] = F.date_trunc(level, value)
            if column != "d" and level not in ("millisecond",):
                exprs[f"truncate_{level}_{column}"] = value.dt.truncate(level)
        exprs[f"from_utc_{column}"] = F.from_utc_timestamp(value, "America/New_York")
        exprs[f"to_utc_{column}"] = F.to_utc_timestamp(value, "Asia/Tokyo")
        exprs[f"convert_{column}"] = F.convert_timezone(F.lit("Europe/Paris"), F.lit("America/New_York"), value)
        exprs[f"format_{column}"] = F.date_format(
            value, "yyyy-MM-dd HH:mm:ss.SSSSSS EEE EEEE MMM MMMM a h K k D Q XXX xx Z"
        )
        exprs[f"format2_{column}"] = F.date_format(value, "y yy yyy yyyyy G d M L H m s S SSSSSSSSS 'o''clock' X x QQQ")
        exprs[f"format3_{column}"] = F.date_format(
            value, "GGGG QQQQ qq DD DDD dd hh KK kk ZZZZZ XX xxx ZZ LL LLL LLLL yyyyyy"
        )
        exprs[f"strftime_{column}"] = value.dt.strftime("%Y/%m/%d %H:%M:%S.%f %j %a %b %p %I %y %%")
        exprs[f"unix_timestamp_{column}"] = F.unix_timestamp(value)
    for column in ("ts", "ntz"):
        value = getattr(m, column)
        for name in ("unix_seconds", "unix_millis", "unix_micros"):
            exprs[f"{name}_{column}"] = getattr(F, name)(value)
    exprs["unix_date"] = F.unix_date(m.d)
    exprs["date_from_unix_date"] = F.date_from_unix_date(m.i)
    exprs["timestamp_seconds_int"] = F.timestamp_seconds(m.i)
    exprs["timestamp_seconds_double"] = F.timestamp_seconds(m.x)
    exprs["timestamp_seconds_saturated"] = F.timestamp_seconds(m.x * 1e20)
    exprs["timestamp_millis"] = F.timestamp_millis(m.n)
    exprs["timestamp_micros"] = F.timestamp_micros(m.n)
    exprs["from_unixtime"] = F.from_unixtime(m.n)
    exprs["from_unixtime_pattern"] = F.from_unixtime(m.n, "yyyy-MM-dd'T'HH:mm:ssXXX")
    exprs["make_date"] = F.make_date(F.lit(2024), F.lit(2), F.abs(m.i) % 28 + 1)
    exprs["make_timestamp"] = F.make_timestamp(
        F.lit(2024), F.lit(3), F.lit(10), F.lit(2), F.lit(30), F.lit(Decimal("59.999999"))
    )
    exprs["make_timestamp_tz"] = F.make_timestamp(
        F.lit(2024), F.lit(11), F.lit(3), F.lit(1), F.abs(m.i) % 60, F.lit(60), F.lit("America/New_York")
    )
    exprs["make_timestamp_ntz"] = F.make_timestamp_ntz(
        F.lit(2024), F.lit(12), F.lit(31), F.lit(23), F.lit(59), F.lit(59.5)
    )
    exprs["try_make_timestamp"] = F.try_make_timestamp(m.i, m.i, m.i, m.i, m.i, m.x % 100)
    exprs["try_make_timestamp_ntz"] = F.try_make_timestamp_ntz(
        F.lit(2024), m.i, F.lit(1), F.lit(0), F.lit(0), m.x % 100
    )
    exprs["try_make_timestamp_ltz"] = F.try_make_timestamp_ltz(
        F.lit(2000), F.lit(1), m.i, F.lit(0), F.lit(0), F.lit(1), F.lit("+05:30")
    )
    return exprs


def _parsing(m: type[Moment]) -> dict[str, Any]:
    exprs: dict[str, Any] = {
        "try_to_date": F.try_to_date(m.s),
        "try_to_date_pattern": F.try_to_date(m.s, "yyyy-MM-dd"),
        "try_to_timestamp": F.try_to_timestamp(m.s),
        "try_to_timestamp_pattern": F.try_to_timestamp(m.s, F.lit("yyyy-MM-dd HH:mm:ss.SSSSSS")),
        "try_to_timestamp_pattern2": F.try_to_timestamp(m.s, F.lit("yyyy-MM-dd HH:mm")),
        "to_date_ts": F.to_date(m.ts),
        "to_date_ntz": F.to_date(m.ntz),
        "to_date_d": F.to_date(m.d),
        "to_timestamp_fixed": F.to_timestamp(F.date_format(m.ts, "dd/MM/yyyy hh:mm:ss a"), "dd/MM/yyyy hh:mm:ss a"),
        "to_timestamp_ntz_fixed": F.to_timestamp_ntz(F.date_format(m.ts, "yyyyMMddHHmmss"), F.lit("yyyyMMddHHmmss")),
        "to_timestamp_ltz_fixed": F.to_timestamp_ltz(
            F.date_format(m.ts, "MMM d yyyy HH:mm XXX"), F.lit("MMM d yyyy HH:mm XXX")
        ),
        "unix_timestamp_fixed": F.unix_timestamp(F.date_format(m.ntz, "yyyy-MM-dd HH:mm:ss"), "yyyy-MM-dd HH:mm:ss"),
        "to_unix_timestamp_fixed": F.to_unix_timestamp(F.date_format(m.d, "yy.M.d"), F.lit("yy.M.d")),
        "to_date_fixed": F.to_date(F.date_format(m.ts, "yyyy-MM-dd HH:mm:ss.SSS"), "yyyy-MM-dd HH:mm:ss.SSS"),
    }
    return exprs


@pytest.mark.spark
@pytest.mark.parametrize("zone", ["UTC", "Asia/Tokyo", "America/New_York"], indirect=True)
def test_datetime_kernels_give_sparks_values(zone: str) -> None:
    frame = _frame()
    problems = _differences(frame.select(**_fields(Moment)))
    assert problems == [], "\n".join(problems)


class Text(DataFrameModel):
    id: int
    s: str | None


_PARSED = [
    "2024-02-29 13:05:09", "2024-2-29 13:05:09", "2024-02-29 13:05:09 extra", "2024-02-29 13:05", "24-02-29 01:05:09",
    "29/02/2024 01:05:09 pm", "Feb 29 2024", "feb 29 2024", "February 29 2024", "2024-02-30 00:00:00",
    "2024-02-29T13:05:09.1", "2024-02-29T13:05:09.123456789", "20240229130509", "2024-02-29 13:05:09+09:00",
    "2024-02-29 13:05:09Z", "12024-02-29 13:05:09", "+2024-02-29 13:05:09", " 2024-02-29 13:05:09", "",
    "2024-03-10 02:30:00", "2024-11-03 01:30:00", "2024-02-29 24:00:00", "2024-02-29 12:00:00 AM", "1:2:3",
]  # fmt: skip
_PATTERNS = [
    "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm", "yy-MM-dd hh:mm:ss", "dd/MM/yyyy hh:mm:ss a", "MMM d yyyy",
    "MMMM d yyyy", "yyyy-MM-dd'T'HH:mm:ss.SSS", "yyyy-MM-dd'T'HH:mm:ss.SSSSSS", "yyyyMMddHHmmss",
    "yyyy-MM-dd HH:mm:ssXXX", "yyyy-MM-dd HH:mm:ssX", "y-M-d H:m:s", "yyyy-MM-dd hh:mm:ss a", "H:m:s", "yyyy-MM-dd",
]  # fmt: skip


def _texts() -> DataFrame[Text]:
    return Text.from_rows([{"id": i, "s": s} for i, s in enumerate([*_PARSED, None])])


def _attempts(m: type[Text]) -> dict[str, Any]:
    exprs: dict[str, Any] = {}
    for k, pattern in enumerate(_PATTERNS):
        exprs[f"try_ts_{k}"] = F.try_to_timestamp(m.s, F.lit(pattern))
        exprs[f"try_date_{k}"] = F.try_to_date(m.s, pattern)
    return exprs


@pytest.mark.spark
@pytest.mark.parametrize("zone", ["UTC", "America/New_York"], indirect=True)
def test_parsing_kernels_give_sparks_values(zone: str) -> None:
    problems = _differences(_frame().select(**_parsing(Moment)))
    problems += _differences(_texts().select(**_attempts(Text)))
    assert problems == [], "\n".join(problems)


# --- casts -----------------------------------------------------------------------------------------------------


class Castable(DataFrameModel):
    id: int
    i8: Annotated[int, dt.Int8()] | None
    i16: Annotated[int, dt.Int16()] | None
    i32: Annotated[int, dt.Int32()] | None
    i64: int | None
    n16: Annotated[int, dt.Int16()] | None
    n32: Annotated[int, dt.Int32()] | None
    n64: int | None
    f64: float | None
    fi: float | None
    huge: float | None
    f32: Annotated[float, dt.Float32()] | None
    fi32: Annotated[float, dt.Float32()] | None
    dec: Annotated[Decimal, dt.Decimal(10, 2)] | None
    wide: Annotated[Decimal, dt.Decimal(38, 18)] | None
    bo: bool | None
    s_int: str | None
    s_num: str | None
    s_dec: str | None
    s_bool: str | None
    s_date: str | None
    s_ts: str | None
    s: str | None
    bin: bytes | None
    d: datetime.date | None
    ts: datetime.datetime | None
    ntz: pydantic.NaiveDatetime | None


_CAST_COLUMNS: dict[str, list[Any]] = {
    "i8": [-128, 127, 0, -1, 5],
    "i16": [-(2**15), 2**15 - 1, 0, -1, 300],
    "i32": [-(2**31), 2**31 - 1, 0, -1, 70000],
    "i64": [-(2**63), 2**63 - 1, 0, -1, 2**53 + 1],
    "n16": [-128, 127, 0, -1, 5],
    "n32": [-128, 127, 0, -1, 5],
    "n64": [-128, 127, 0, -1, 5],
    "f64": [1e10, -0.0, 1e-5, 123456789.0, 1e300, math.nan, math.inf, -math.inf, 0.1, 1e7, 9999999.999, 0.001, 0.00099,
            5e-324, 1.7976931348623157e308, 100.0, 2.675, -1.5],
    "fi": [127.9, -128.9, -0.5, 0.5, 2.675, 0.125, -0.125, -0.0, 99.995],
    "huge": [9.223372036854775807e18, -9.223372036854775808e18, -9.2e18, 2.0**62 + 2.0**11],
    "f32": [0.1, 1e10, -0.0, 3.4028234663852886e38, math.nan, math.inf, 1.5, 16777217.0, 1e-45, 0.001],
    "fi32": [127.5, -128.75, -0.5, 2.675, 0.125],
    "dec": [Decimal("1.25"), Decimal("-1.25"), Decimal("0.00"), Decimal("127.99"), Decimal("-128.99"), Decimal("0.05")],
    "wide": [Decimal("12345678901234567890.123456789012345678"), Decimal("-0.000000000000000001"), Decimal("0E-18"),
             Decimal("99999999999999999999.999999999999999999")],
    "bo": [True, False],
    "s_int": [" 12 ", "-0", "+7", "2147483647", "-2147483648", "\t1\n", "0012"],
    "s_num": ["1e3", " nan ", "Infinity", "0x1p3", "1d", ".5", "5.", "1.5", "-0.0", "3.4028235e38", "1e-50", "-inf",
              "+Infinity", "1E+2f", "0.1", "123456789012345678901234567890", "4.9e-324"],
    "s_dec": [" 1.50 ", "1e2", ".5", "5.", "-0.001", "+3", "99.994", "-99.995"],
    "s_bool": [" yes ", "T", "n", "0", "FALSE", "1", "True"],
    "s_date": ["2024-02-29", " 2024-2-9T10:00 ", "2024", "2024-03", "0001-01-01", "9999-12-31", "2024-02-29 junk"],
    "s_ts": ["2024-02-29 13:05:09.123456", "2024-02-29T13:05:09+09:00", "2024-03-10 02:30", "2024-11-03 01:30:00",
             "2024-01-01 10:00:00 Europe/Paris", "2024-01-01 10:00:00Z", "1999-12-31 23:59:59.9999999", "2024-02-29",
             "2024", "2024-02-29 1:2:3.5", "2024-01-01T00:00:00-08:00", "2024-06-01 12:00:00 UTC+05:30"],
    "s": ["Ab c1", "", "Ünï 42", "\U0001f600 x"],
    "bin": [b"ab", b"", b"\x00A", "é\U0001f600".encode()],
    "d": [datetime.date(2024, 2, 29), datetime.date(1, 1, 1), datetime.date(9999, 12, 31), datetime.date(2024, 3, 10)],
    "ts": [_ts(2024, 2, 29, 13, 5, 9, 123456), _ts(1970, 1, 1), _ts(1969, 12, 31, 23, 59, 59, 999999),
           _ts(2024, 11, 3, 5, 30), _ts(2024, 3, 10, 7, 30, 0, 100000)],
    "ntz": [datetime.datetime(2024, 2, 29, 13, 5, 9, 123456), datetime.datetime(2024, 3, 10, 2, 30),
            datetime.datetime(2024, 11, 3, 1, 30), datetime.datetime(1, 1, 1), datetime.datetime(9999, 12, 31, 23)],
}  # fmt: skip


def _castables() -> DataFrame[Castable]:
    count = max(len(v) for v in _CAST_COLUMNS.values()) + 1  # and a row of NULLs
    rows = [{"id": k} | {c: (v[k] if k < len(v) else None) for c, v in _CAST_COLUMNS.items()} for k in range(count)]
    return Castable.from_rows(rows)


_INTS = (dt.Int8(), dt.Int16(), dt.Int32(), dt.Int64())
_DECIMALS = (dt.Decimal(5, 2), dt.Decimal(38, 18), dt.Decimal(3, 0))


def _casts(m: type[Castable]) -> dict[str, Any]:
    pairs: list[tuple[str, dt.DType]] = []
    pairs += [(c, t) for c in ("n16", "n32", "n64", "fi", "fi32", "dec", "bo") for t in _INTS]
    pairs += [(c, t) for c in ("i8", "n16", "n32", "n64", "fi", "fi32", "dec", "bo") for t in _DECIMALS[:1]]
    pairs += [(c, t) for c in ("i8", "i16", "i32", "i64", "wide", "dec") for t in _DECIMALS[1:2]]
    pairs += [(c, dt.Decimal(4, 1)) for c in ("dec", "fi", "fi32")]
    pairs += [(c, t) for c in ("i64", "f64", "f32", "dec", "wide", "bo") for t in (dt.Float32(), dt.Float64())]
    pairs += [(c, dt.Boolean()) for c in ("i8", "i64", "f64", "f32", "dec", "wide")]
    pairs += [(c, dt.String()) for c in ("i8", "i64", "f64", "f32", "dec", "wide", "bo", "d", "ts", "ntz", "bin")]
    pairs += [("s_int", t) for t in (dt.Int32(), dt.Int64())] + [("n64", dt.Int8()), ("huge", dt.Int64())]
    pairs += [("s_num", t) for t in (dt.Float64(), dt.Float32())] + [("s_dec", dt.Decimal(5, 2))]
    pairs += [("s_bool", dt.Boolean()), ("s_date", dt.Date()), ("s", dt.Binary())]
    pairs += [("s_ts", t) for t in (dt.Datetime(), dt.DatetimeNTZ(), dt.Date())]
    pairs += [("d", dt.Datetime()), ("d", dt.DatetimeNTZ()), ("ts", dt.Date()), ("ts", dt.DatetimeNTZ())]
    pairs += [("ntz", dt.Date()), ("ntz", dt.Datetime())]
    pairs += [(c, dt.Datetime()) for c in ("i8", "i32", "i64", "fi", "fi32", "dec", "wide")]
    pairs += [("ts", t) for t in (dt.Int32(), dt.Int64(), dt.Float64(), dt.Float32(), dt.Decimal(20, 6))]
    return {
        f"{c}_as_{t.sql_name.replace('(', '_').replace(',', '_').replace(')', '')}": getattr(m, c).cast(t)
        for c, t in pairs
    }


@pytest.mark.spark
@pytest.mark.parametrize("zone", ["UTC", "America/New_York"], indirect=True)
def test_cast_kernel_gives_sparks_values(zone: str) -> None:
    problems = _differences(_castables().select(**_casts(Castable)))
    assert problems == [], "\n".join(problems)


# --- failures --------------------------------------------------------------------------------------------------


class Bad(DataFrameModel):
    id: int
    big: int
    x: float
    f32: Annotated[float, dt.Float32()]
    dec: Annotated[Decimal, dt.Decimal(10, 2)]
    s: str
    d: datetime.date
    ts: datetime.datetime
    tz: str


def _bad() -> DataFrame[Bad]:
    row = {"id": 0, "big": 2**62, "x": 1e10, "f32": 2.0**31, "dec": Decimal("999.99"), "s": "Ab c1"}
    row |= {"d": datetime.date(2024, 2, 29), "ts": _ts(2024, 2, 29, 13), "tz": "Mars/Olympus"}
    return Bad.from_rows([row])


def _failing(m: type[Bad]) -> dict[str, Any]:
    day = F.dayofmonth(m.d)  # 29
    return {
        "make_date": F.make_date(F.lit(2023), F.lit(2), day),
        "make_timestamp_fraction": F.make_timestamp(
            F.lit(2024), F.lit(1), F.lit(1), F.lit(0), F.lit(0), m.x / m.x + 59.5
        ),
        "make_timestamp_zone": F.make_timestamp(F.lit(2024), F.lit(1), F.lit(1), F.lit(0), F.lit(0), F.lit(0), m.tz),
        "try_make_timestamp_seconds": F.try_make_timestamp(F.lit(2024), F.lit(1), F.lit(1), F.lit(0), F.lit(0), m.x),
        "timestamp_add_years": F.timestamp_add("year", m.big, m.ts),
        "timestamp_millis": F.timestamp_millis(m.big),
        "to_timestamp_pattern": F.to_timestamp(m.s, "yyyy-MM-dd"),
        "unix_timestamp": F.unix_timestamp(F.date_format(m.d, "yyyy-MM-30"), "yyyy-MM-dd"),
        "int_overflow": m.big.cast(dt.Int32()),
        "double_to_int": m.x.cast(dt.Int32()),
        "nan_to_long": (m.x - m.x * 2 + float("nan")).cast(dt.Int64()),
        "float_to_int": m.f32.cast(dt.Int32()),
        "decimal_to_byte": m.dec.cast(dt.Int8()),
        "double_to_decimal": m.x.cast(dt.Decimal(5, 2)),
        "text_to_int": m.s.cast(dt.Int32()),
        "text_to_decimal": m.s.cast(dt.Decimal(10, 2)),
        "text_to_date": m.s.cast(dt.Date()),
        "text_to_timestamp": m.s.cast(dt.Datetime()),
        "fraction_text_to_int": F.date_format(m.d, "yyyy.MM").cast(dt.Int32()),
        "nan_to_timestamp": (m.x - m.x * 2 + float("nan")).cast(dt.Datetime()),
        "timestamp_to_short": m.ts.cast(dt.Int16()),
    }


@pytest.mark.spark
def test_failures_are_sparks(spark: SparkSession) -> None:
    """Where Spark (ANSI) fails on a value, the local engine fails with Spark's error class."""
    problems = _failures(_bad(), _failing(Bad))
    assert problems == [], "\n".join(problems)


@pytest.mark.spark
def test_bytes_that_are_not_utf8_fail_by_name(spark: SparkSession) -> None:
    """Spark keeps such bytes in a string as they are; Arrow in Python cannot hold that, so the engine says so."""
    row = {"id": 0} | dict.fromkeys(_CAST_COLUMNS) | {"bin": b"\x00\xff"}
    frame = Castable.from_rows([row]).select(Castable.bin.cast(dt.String()).alias("s"))
    with pytest.raises(LocalEngineError, match="not UTF-8"):
        frame.to_arrow(engine="local")


@pytest.mark.jvm_free
def test_what_the_kernels_do_not_translate_is_refused_by_name() -> None:
    frame = _frame()
    refused = {
        "the pattern letter 'V' (count 2) of 'yyyy VV' in date_format()": F.date_format(Moment.ts, "yyyy VV"),
        "parse the pattern letter 'G' (count 1) of 'yyyy G'": F.to_timestamp(Moment.s, "yyyy G"),
        "the optional section or reserved character '['": F.to_date(Moment.s, "yyyy[-MM]"),
        "a literal pattern only": F.try_to_timestamp(Moment.s, Moment.s),
        "current_timezone() as an argument of convert_timezone()": F.convert_timezone(None, F.lit("UTC"), Moment.ntz),
        "does not cast bigint to interval": Moment.n.cast(dt.Duration()),
    }
    for why, expr in refused.items():
        with pytest.raises(UnsupportedEngineError, match=re.escape(why)):
            frame.select(expr.alias("v")).to_arrow(engine="local")
