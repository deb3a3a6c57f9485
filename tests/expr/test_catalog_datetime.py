"""Date and time functions past what the generated catalog test tries.

The generated test (``test_catalog.py``) types every entry against Spark's
analyzer and compares values on its samples. Here: every ``date_part`` field
and ``timestamp_add``/``timestamp_diff`` unit (types as Spark's analyzer says,
values as PySpark's), edge values (a 60th second, month ends, an invalid date
failing under ANSI where the ``try_`` form gives NULL), what ``None`` stands
for (``unix_timestamp()``, ``convert_timezone(None, ...)``), typing under
another session time zone, the datetime-pattern check against Spark's own, and
the calls refused when they are built, each with a message naming the call,
the parameter and what is valid.
"""

from __future__ import annotations

import datetime
import decimal
import re
import string
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
import test_catalog as catalog_tests
from test_catalog import Wide

from pydantable_spark import DataFrameModel, F
from pydantable_spark import dtypes as dt
from pydantable_spark._spark.sql import to_sql
from pydantable_spark.errors import ArgumentError, ColumnTypeError, PydantableSparkError
from pydantable_spark.expr.api import Expr
from pydantable_spark.expr.catalog import CATALOG
from pydantable_spark.expr.catalog.datetime import DATE_PART_FIELDS, TIMESTAMP_UNITS, check_pattern

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

pytestmark = pytest.mark.jvm_free
"""These tests run without a JVM (pytest -m "not spark"); the ones marked spark get the session."""


UTC = datetime.timezone.utc
MOMENTS = (dt.Date(), dt.Datetime(), dt.DatetimeNTZ())


@pytest.fixture(scope="module")
def wide(spark: SparkSession) -> Wide:
    """A column per date and time type and per integer type, nullable and not."""
    return catalog_tests.wide_frame([*MOMENTS, dt.Int8(), dt.Int32(), dt.Int64(), dt.String()])


def _column(dtype: dt.DType, nullable: bool = False) -> tuple[str, Any]:
    return ("column", (dtype, nullable))


def _check(wide: Wide, calls: list[tuple[str, list[Any]]]) -> None:
    """Every call is taken, types as Spark's analyzer says and gives PySpark's values."""
    candidates = {}
    for index, (name, combination) in enumerate(calls):
        expr = catalog_tests._build(CATALOG[name], combination, wide, "row")
        candidates[f"{name}__x{index}"] = catalog_tests.Candidate(CATALOG[name], combination, "row", expr)
    assert catalog_tests.type_mismatches(wide, candidates) == []
    assert catalog_tests.value_differences(wide, candidates) == []


# --- every field and unit, as Spark -----------------------------------------------------------------


@pytest.mark.spark
def test_every_date_part_field_types_and_reads_as_spark(wide: Wide) -> None:
    calls = [
        (name, [("value", spelling), _column(moment, nullable)])
        for name in ("date_part", "datepart", "extract")
        for spelling in DATE_PART_FIELDS
        for moment in MOMENTS
        for nullable in (False, True)
        if name == "date_part" or spelling in ("year", "SECOND", "dow")
    ]
    calls += [("date_part", [("value", spelling.upper()), _column(dt.DatetimeNTZ())]) for spelling in DATE_PART_FIELDS]
    _check(wide, calls)


@pytest.mark.spark
def test_every_timestamp_unit_adds_and_counts_as_spark(wide: Wide) -> None:
    calls = [
        ("timestamp_add", [("value", unit), _column(quantity, nullable), _column(moment, not nullable)])
        for unit in TIMESTAMP_UNITS
        for moment in MOMENTS
        for quantity in (dt.Int8(), dt.Int64())
        for nullable in (False, True)
    ]
    calls += [
        ("timestamp_diff", [("value", unit.upper()), _column(start, nullable), _column(end)])
        for unit in TIMESTAMP_UNITS
        for start in MOMENTS
        for end in MOMENTS
        for nullable in (False, True)
    ]
    _check(wide, calls)


@pytest.mark.spark
def test_to_date_of_a_date_or_datetime_types_and_reads_as_spark(wide: Wide) -> None:
    """PySpark's ``to_date`` takes a date or datetime column too: a cast without a format, parsed with one."""
    calls = [("to_date", [_column(moment, nullable)]) for moment in MOMENTS for nullable in (False, True)]
    calls += [
        ("to_date", [_column(moment, nullable), ("value", "yyyy-MM-dd")])
        for moment in MOMENTS
        for nullable in (False, True)
    ]
    _check(wide, calls)


# --- edge values ------------------------------------------------------------------------------------


class When(DataFrameModel):
    day: datetime.date
    at: datetime.datetime
    n: int
    text: str


def _when(**overrides: Any) -> Any:
    row = {
        "day": datetime.date(2024, 1, 31),
        "at": datetime.datetime(2024, 2, 29, 13, 5, 9, 123456, tzinfo=UTC),
        "n": 1,
        "text": "2024-02-29 13:05:09",
    }
    return When.from_rows([{**row, **overrides}])


@pytest.mark.spark
def test_datetime_edge_values(agrees: Any) -> None:
    frame = _when().select(
        minute_after=F.make_timestamp(2024, 2, 29, 23, 59, 60),
        tokyo=F.make_timestamp(2024, 1, 1, 9, 0, decimal.Decimal("0.5"), F.lit("Asia/Tokyo")),
        wall=F.make_timestamp_ntz(2024, 1, 1, 9, 0, 0),
        invalid=F.try_make_timestamp(2024, 2, 30, 0, 0, 0),
        month_end=F.timestamp_add("month", 1, When.day),
        months=F.timestamp_diff("MONTH", When.day, F.lit(datetime.date(2024, 2, 29))),
        back=F.timestamp_diff("day", When.at, When.day),
        second=F.date_part("second", When.at),
        iso_day=F.extract(F.lit("dow_iso"), When.at),
        epoch=F.unix_seconds(When.at),
        round_trip=F.timestamp_seconds(F.unix_seconds(When.at)),
        days=F.date_from_unix_date(F.unix_date(When.day)),
        parsed=F.unix_timestamp(When.text),
        with_format=F.to_unix_timestamp(F.lit("29/02/2024"), F.lit("dd/MM/yyyy")),
        not_a_date=F.try_to_date(When.text, "dd/MM/yyyy"),
        names=F.concat(F.dayname(When.day), F.lit(" "), F.monthname(When.day)),
        between=F.months_between(F.lit(datetime.date(2024, 2, 29)), When.day),
        paris=F.from_utc_timestamp(When.at, "Europe/Paris"),
        converted=F.convert_timezone(F.lit("UTC"), F.lit("Asia/Kolkata"), F.to_timestamp_ntz(When.text)),
        duration=F.make_dt_interval(1, secs=decimal.Decimal("1.5")),
        clock=F.concat_ws(":", When.at.dt.hour().cast(str), When.at.dt.minute().cast(str), F.second(When.at).cast(str)),
    )
    agrees(frame)
    got = {name: values[0] for name, values in frame.to_dict().items()}
    assert got == {
        "minute_after": datetime.datetime(2024, 3, 1, tzinfo=UTC),
        "tokyo": datetime.datetime(2024, 1, 1, 0, 0, 0, 500000, tzinfo=UTC),
        "wall": datetime.datetime(2024, 1, 1, 9),
        "invalid": None,
        "month_end": datetime.datetime(2024, 2, 29, tzinfo=UTC),  # a date becomes a datetime, the month end kept
        "months": 0,  # 2024-01-31 to 2024-02-29 is no whole month
        "back": -29,  # whole days back from 2024-02-29 13:05 to 2024-01-31
        "second": decimal.Decimal("9.123456"),
        "iso_day": 4,
        "epoch": 1709211909,
        "round_trip": datetime.datetime(2024, 2, 29, 13, 5, 9, tzinfo=UTC),
        "days": datetime.date(2024, 1, 31),
        "parsed": 1709211909,
        "with_format": 1709164800,
        "not_a_date": None,
        "names": "Wed Jan",
        "between": 1.0,  # both month ends: a whole month
        "paris": datetime.datetime(2024, 2, 29, 14, 5, 9, 123456, tzinfo=UTC),
        "converted": datetime.datetime(2024, 2, 29, 18, 35, 9),
        "duration": datetime.timedelta(days=1, seconds=1.5),
        "clock": "13:5:9",
    }
    types = {f.name: str(f.dtype) for f in frame.schema if not f.nullable}
    assert types["second"] == "decimal(8,6)"
    assert types["month_end"] == "timestamp"
    assert "invalid" not in types  # the try_ form is nullable, make_timestamp not


@pytest.mark.spark
@pytest.mark.parametrize(
    "build",
    [
        lambda: F.make_timestamp(2024, 2, 30, 0, 0, decimal.Decimal(0)),  # an int is a bigint: nullable seconds
        lambda: F.make_timestamp_ntz(2024, 1, 1, 24, 0, decimal.Decimal(0)),
        lambda: F.make_date(2023, 2, 29),
        lambda: F.unix_timestamp(When.text, "dd/MM/yyyy"),
        lambda: F.timestamp_add("year", 2**62, When.at),
    ],
)
def test_invalid_datetimes_fail_under_ansi(build: Any) -> None:
    frame = _when().select(x=build())
    assert not frame.schema["x"].nullable
    with pytest.raises(PydantableSparkError):
        frame.to_dict()


# --- what None stands for -----------------------------------------------------------------------------


@pytest.mark.spark
def test_unix_timestamp_without_a_timestamp_is_now_and_not_deterministic(agrees: Any) -> None:
    now = F.unix_timestamp()
    assert not all(node.deterministic for node in now.node.walk())  # filters do not move across it
    assert str(now.typed) == "int (bigint)"
    frame = _when().select(now=now)
    agrees(frame)
    (value,) = frame.to_dict()["now"]
    assert abs(value - time.time()) < 600


@pytest.mark.spark
def test_convert_timezone_from_none_is_from_the_session_time_zone(agrees: Any) -> None:
    wall = F.to_timestamp_ntz(When.text)
    frame = _when().select(
        implicit=F.convert_timezone(None, F.lit("America/New_York"), wall),
        explicit=F.convert_timezone(F.lit("UTC"), F.lit("America/New_York"), wall),
        zone=F.current_timezone(),
    )
    agrees(frame)
    assert frame.to_dict() == {
        "implicit": [datetime.datetime(2024, 2, 29, 8, 5, 9)],
        "explicit": [datetime.datetime(2024, 2, 29, 8, 5, 9)],
        "zone": ["UTC"],
    }


@pytest.fixture
def los_angeles(spark: SparkSession) -> Iterator[None]:
    before = spark.conf.get("spark.sql.session.timeZone")
    spark.conf.set("spark.sql.session.timeZone", "America/Los_Angeles")
    try:
        yield
    finally:
        spark.conf.set("spark.sql.session.timeZone", before)


@pytest.mark.spark
@pytest.mark.usefixtures("los_angeles")
def test_session_time_zone_changes_values_never_types(agrees: Any) -> None:
    exprs = {
        "zone": F.current_timezone(),
        "local": F.localtimestamp(),
        "made": F.make_timestamp(2024, 1, 1, 0, 0, 0),
        "hour": F.date_part("hour", When.at),
        "parsed": F.to_timestamp_ltz(When.text),
        "epoch": F.unix_timestamp(When.text),
        "converted": F.convert_timezone(None, F.lit("UTC"), F.to_timestamp_ntz(When.text)),
        "added": F.timestamp_add("day", 1, When.day),
    }
    frame = _when().select(**exprs)
    agrees(frame)
    got = {name: values[0] for name, values in frame.to_dict().items()}
    assert got["zone"] == "America/Los_Angeles"
    assert got["made"] == datetime.datetime(2024, 1, 1, 8, tzinfo=UTC)
    assert got["hour"] == 5
    assert got["epoch"] == 1709211909 + 8 * 3600
    assert got["converted"] == datetime.datetime(2024, 2, 29, 21, 5, 9)
    assert got["added"] == datetime.datetime(2024, 2, 1, 8, tzinfo=UTC)


# --- patterns: the façade refuses only what Spark refuses ---------------------------------------------


def _spark_refuses(spark: SparkSession, sql: str) -> bool:
    try:
        spark.sql(sql).collect()
    except Exception:  # any Spark error is a refusal here
        return True
    return False


@pytest.mark.spark
def test_pattern_letters_refused_are_letters_spark_refuses(spark: SparkSession) -> None:
    refused_formatting = [c for c in string.ascii_letters + "#{}" if check_pattern(c, parsing=False)]
    refused_parsing_only = [
        c for c in string.ascii_letters if check_pattern(c, parsing=True) and c not in refused_formatting
    ]
    assert set(refused_parsing_only) == {"E", "F", "Q", "q"}
    at = "TIMESTAMP'2024-02-29 13:05:09'"
    wrongly = [c for c in refused_formatting if not _spark_refuses(spark, f"SELECT date_format({at}, '{c}')")]
    wrongly += [c for c in refused_parsing_only if not _spark_refuses(spark, f"SELECT to_timestamp('2024', '{c}')")]
    assert wrongly == []
    taken = [c for c in string.ascii_letters if not check_pattern(c, parsing=True)]
    columns = ", ".join(f"date_format({at}, '{c * (2 if c == 'V' else 1)}')" for c in taken)  # V alone is no pattern
    spark.sql(f"SELECT {columns}").collect()  # every letter the façade takes, Spark takes


@pytest.mark.parametrize(
    ("pattern", "parsing", "problem"),
    [
        ("yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX", True, None),
        ("yyyy''MM [HH]", True, None),
        ("'week' w", False, r"'w' is no pattern letter"),
        ("YYYY-MM-dd", True, r"'Y' is no pattern letter"),
        ("yyyy 'at", True, r"a quote ' is not closed"),
        ("yyyy]", False, r"'\]' closes no optional section"),
        ("QQQ yyyy", False, None),
        ("QQQ yyyy", True, r"'Q' is a letter Spark formats with but cannot parse"),
    ],
)
def test_check_pattern(pattern: str, parsing: bool, problem: str | None) -> None:
    found = check_pattern(pattern, parsing=parsing)
    if problem is None:
        assert found is None
    else:
        assert found is not None
        assert re.search(problem, found), found


# --- refused when built -------------------------------------------------------------------------------


class T(DataFrameModel):
    day: datetime.date
    at: datetime.datetime
    n: int
    x: float
    s: str


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (
            lambda: F.timestamp_add("fortnight", 1, T.at),
            r"F\.timestamp_add\(\): unit must be one of year, quarter, month, week, day, dayofyear, hour, minute, "
            r"second, millisecond, microsecond, got 'fortnight'",
        ),
        (lambda: F.timestamp_add("MONTH) FROM x --", 1, T.at), r"F\.timestamp_add\(\): unit must be one of"),
        (lambda: F.timestamp_add(1, 1, T.at), r"F\.timestamp_add\(\): unit must be str, got 1"),
        (lambda: F.timestamp_add("day", T.x, T.at), r"F\.timestamp_add\(\): quantity must be an integer"),
        (lambda: F.timestamp_add("day", 1, T.s), r"F\.timestamp_add\(\): ts must be a date or datetime"),
        (lambda: F.timestamp_diff("nanosecond", T.at, T.at), r"F\.timestamp_diff\(\): unit must be one of year"),
        (lambda: F.date_part("epoch", T.at), r"F\.date_part\(\): field must be one of year, y, years"),
        (lambda: F.date_part(F.lit("millisecond"), T.at), r"F\.date_part\(\): field must be one of year"),
        (lambda: F.datepart(T.s, T.at), r"F\.datepart\(\): field must be a constant"),  # an alias: its own name
        (lambda: F.extract(F.lit(1), T.at), r"F\.extract\(\): field must be a string"),
        (lambda: F.date_part("year", T.s), r"F\.date_part\(\): source must be a date or datetime"),
        (lambda: F.unix_date(T.at), r"F\.unix_date\(\): col must be a date"),
        (lambda: F.unix_seconds(T.day), r"F\.unix_seconds\(\): col must be a datetime"),
        (lambda: F.timestamp_millis(T.x), r"F\.timestamp_millis\(\): col must be an integer"),
        (lambda: F.timestamp_seconds(T.s), r"F\.timestamp_seconds\(\): col must be a number"),
        (lambda: F.make_timestamp(T.x, 1, 1, 0, 0, 0), r"F\.make_timestamp\(\): years must be an integer"),
        (
            lambda: F.make_timestamp(2024, 1, 1, 0, 0, 0, F.lit("Europe/Paris'; --")),
            r"F\.make_timestamp\(\): timezone must be a time zone ID such as 'UTC'",
        ),
        (lambda: F.from_utc_timestamp(T.at, "Paris time"), r"F\.from_utc_timestamp\(\): tz must be a time zone ID"),
        (lambda: F.to_utc_timestamp(T.at, 2), r"F\.to_utc_timestamp\(\): tz must be a string"),
        (
            lambda: F.convert_timezone(F.lit("UTC"), F.lit("${x}"), T.at),
            r"F\.convert_timezone\(\): targetTz must be a time zone ID",
        ),
        (lambda: F.unix_timestamp(T.s, "YYYY-MM-dd"), r"F\.unix_timestamp\(\): format is not a Spark datetime pattern"),
        (lambda: F.to_date(T.s, "dd.MM.yyyy 'at"), r"F\.to_date\(\): format is not a Spark datetime pattern"),
        (lambda: F.to_timestamp(T.s, "QQ yyyy"), r"F\.to_timestamp\(\): format .*'Q' is a letter Spark formats with"),
        (lambda: F.to_timestamp_ntz(T.s, F.lit("uuuu")), r"F\.to_timestamp_ntz\(\): format is not a Spark datetime"),
        (lambda: F.try_to_timestamp(T.s, F.lit("yyyy-ww")), r"F\.try_to_timestamp\(\): format is not a Spark"),
        (lambda: F.date_format(T.at, "yyyy-MM-dd 'T"), r"F\.date_format\(\): format is not a Spark datetime pattern"),
        (lambda: F.from_unixtime(T.n, "eee"), r"F\.from_unixtime\(\): format is not a Spark datetime pattern"),
        (lambda: F.months_between(T.day, T.day, "yes"), r"F\.months_between\(\): roundOff must be bool"),
        (lambda: F.months_between(T.day, T.s), r"F\.months_between\(\): date2 must be a date or datetime"),
        (lambda: F.dayname(T.n), r"F\.dayname\(\): col must be a date or datetime"),
        (lambda: F.to_timestamp_ltz(T.day), r"F\.to_timestamp_ltz\(\): timestamp must be a string"),
    ],
)
def test_calls_spark_would_refuse_are_refused_when_built(build: Any, message: str) -> None:
    with pytest.raises((ColumnTypeError, ArgumentError), match=message):  # a column's type, or a Python argument
        T.from_rows([]).select(x=build())


def test_the_result_types_a_user_reads() -> None:
    def typed(expr: Expr[Any]) -> str:
        return str(expr.typed)

    assert typed(F.date_part("year", T.day)) == "int (int)"
    assert typed(F.date_part("Sec", T.at)) == "Decimal (decimal(8,6))"
    assert typed(F.timestamp_add("day", T.n, T.day)) == "datetime (timestamp)"
    assert typed(F.timestamp_diff("hour", T.day, T.at)) == "int (bigint)"
    assert typed(F.make_timestamp(2024, 1, 1, 0, 0, T.x)) == "datetime | None (timestamp)"  # a double's seconds
    assert typed(F.make_timestamp(2024, 1, 1, 0, 0, 30)) == "datetime | None (timestamp)"  # a bigint's too
    assert typed(F.make_timestamp(2024, 1, 1, 0, 0, F.lit(30).cast(dt.Int32))) == "datetime (timestamp)"
    assert typed(F.make_timestamp_ntz(2024, 1, 1, 0, 0, decimal.Decimal("1.5"))) == "datetime (timestamp_ntz)"
    assert typed(F.try_make_timestamp(2024, 1, 1, 0, 0, decimal.Decimal("1.5"))) == "datetime | None (timestamp)"
    assert typed(F.timestamp_seconds(T.x)) == "datetime | None (timestamp)"  # NaN gives NULL
    assert typed(F.timestamp_seconds(T.n)) == "datetime (timestamp)"
    assert typed(F.to_timestamp_ntz(T.s)) == "datetime | None (timestamp_ntz)"
    assert typed(F.to_timestamp_ntz(T.s, F.lit("yyyy"))) == "datetime (timestamp_ntz)"
    assert typed(F.try_to_date(T.s, "yyyy")) == "date | None (date)"
    assert typed(F.convert_timezone(None, F.lit("UTC"), T.at)) == "datetime (timestamp_ntz)"
    assert typed(F.convert_timezone(None, F.lit("UTC"), T.day)) == "datetime | None (timestamp_ntz)"
    assert typed(F.make_dt_interval()) == "timedelta (interval day to second)"
    assert typed(F.current_timezone()) == "str (string)"
    assert T.at.dt.second().node.function is CATALOG["second"]  # type: ignore[attr-defined]


def test_units_are_spelled_from_the_fixed_table() -> None:
    sql = to_sql(T.from_rows([]).select(x=F.timestamp_add("Month", 1, T.at)).plan.exprs[0])  # type: ignore[attr-defined]
    assert sql.startswith("timestampadd(MONTH, ")
    sql = to_sql(T.from_rows([]).select(x=F.timestamp_diff("dayOfYear", T.day, T.at)).plan.exprs[0])  # type: ignore[attr-defined]
    assert sql.startswith("timestampdiff(DAYOFYEAR, ")
