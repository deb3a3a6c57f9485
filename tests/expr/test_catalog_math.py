"""Math, bit and hash functions past what the generated catalog test tries.

The generated test (``test_catalog.py``) calls every entry with one sample of
each Python parameter. Here: rounding at many scales (the decimal precision
rule), ``log`` with a base, ``greatest``/``least`` of three mixed types,
``try_add``/``try_subtract`` on datetimes and durations, weak literals, and the
calls refused when they are built, each with a message naming the call.
"""

from __future__ import annotations

import datetime
import decimal
from typing import TYPE_CHECKING, Annotated, Any

import pytest
import test_catalog as catalog_tests
from test_catalog import Wide

from pydantable_spark import DataFrameModel, F
from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ArgumentError, ColumnTypeError
from pydantable_spark.expr.api import Expr
from pydantable_spark.expr.catalog import CATALOG, accepts

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

pytestmark = pytest.mark.jvm_free
"""These tests run without a JVM (pytest -m "not spark"); the ones marked spark get the session."""


NUMBERS = accepts.NUMBER.examples
SCALES = (-40, -3, -1, 0, 1, 2, 5, 17, 20, 40)


@pytest.fixture(scope="module")
def wide(spark: SparkSession) -> Wide:
    """The generated test's frame: a column per example type, nullable and not."""
    frame: Wide = catalog_tests.wide.__wrapped__(spark)
    return frame


def _column(dtype: dt.DType, nullable: bool = False) -> tuple[str, Any]:
    return ("column", (dtype, nullable))


def _candidates(wide: Wide, calls: list[tuple[str, list[Any]]]) -> dict[str, Any]:
    """The calls (entry name, test-style arguments) bound to the wide frame, as the generated test names them."""
    found = {}
    for index, (name, combination) in enumerate(calls):
        entry = CATALOG[name]
        expr = catalog_tests._build(entry, combination, wide, "row")
        found[f"{name}__x{index}"] = catalog_tests.Candidate(entry, combination, "row", expr)
    return found


def _check(wide: Wide, calls: list[tuple[str, list[Any]]], *, values: bool = True) -> None:
    candidates = _candidates(wide, calls)
    assert catalog_tests.type_mismatches(wide, candidates) == []
    if values:
        assert catalog_tests.value_differences(wide, candidates) == []


@pytest.mark.spark
def test_rounding_at_every_scale_types_and_rounds_as_spark(wide: Wide) -> None:
    calls = [
        (name, [_column(dtype, nullable), *([("value", scale)] if scale is not None else [])])
        for name in ("round", "bround", "ceil", "floor")
        for dtype in NUMBERS
        for nullable in (False, True)
        for scale in (None, *SCALES)
    ]
    _check(wide, calls)


@pytest.mark.spark
def test_log_with_a_base_is_the_logarithm_to_that_base(wide: Wide) -> None:
    calls = [
        ("log", [("value", base), _column(dtype, nullable)])
        for base in (2.0, 10.0)
        for dtype in NUMBERS
        for nullable in (False, True)
    ]
    _check(wide, calls)


@pytest.mark.spark
def test_greatest_and_least_of_three_meet_in_one_type(wide: Wide) -> None:
    mixes = [
        [_column(dt.Int8()), _column(dt.Decimal(10, 2)), _column(dt.Int64(), True)],
        [_column(dt.Float32()), _column(dt.Int32(), True), _column(dt.Float32())],
        [_column(dt.Decimal(38, 18), True), _column(dt.Decimal(10, 2), True), _column(dt.Int16(), True)],
        [_column(dt.String(), True), _column(dt.String(), True), _column(dt.String())],
        [_column(dt.Date()), _column(dt.Datetime(), True), _column(dt.Date(), True)],
    ]
    _check(wide, [(name, mix) for name in ("greatest", "least") for mix in mixes])


@pytest.mark.spark
def test_arithmetic_functions_follow_sparks_decimal_and_float_promotion(wide: Wide) -> None:
    pairs = [
        (dt.Decimal(10, 2), dt.Decimal(38, 18)),
        (dt.Decimal(38, 18), dt.Decimal(38, 18)),
        (dt.Decimal(38, 18), dt.Decimal(10, 2)),
        (dt.Int64(), dt.Decimal(38, 18)),
        (dt.Decimal(10, 2), dt.Int32()),
        (dt.Float32(), dt.Float32()),
        (dt.Float32(), dt.Int64()),
        (dt.Int8(), dt.Int16()),
    ]
    names = ("pmod", "try_add", "try_subtract", "try_multiply", "try_divide", "try_mod")
    calls = [(name, [_column(left), _column(right, True)]) for name in names for left, right in pairs]
    _check(wide, calls)


@pytest.mark.spark
def test_try_add_and_try_subtract_shift_datetimes_by_durations(wide: Wide) -> None:
    pairs = [
        (dt.Datetime(), dt.Duration()),
        (dt.DatetimeNTZ(), dt.Duration()),
        (dt.Duration(), dt.Duration()),
        (dt.Date(), dt.Duration()),
    ]
    calls = [
        (name, [_column(left, nullable), _column(right)])
        for name in ("try_add", "try_subtract")
        for left, right in pairs
        for nullable in (False, True)
    ]
    calls += [("try_add", [_column(dt.Duration()), _column(dt.Datetime())])]
    calls += [("try_subtract", [_column(t), _column(t, True)]) for t in (dt.Datetime(), dt.DatetimeNTZ())]
    _check(wide, calls)


@pytest.mark.spark
def test_weak_literals_take_the_columns_type(wide: Wide) -> None:
    calls = [
        ("pmod", [_column(dt.Int8()), ("value", 3)]),
        ("pmod", [("value", 100), _column(dt.Int16(), True)]),
        ("pmod", [_column(dt.Decimal(10, 2)), ("value", 3)]),
        ("pmod", [_column(dt.Float32()), ("value", 2.5)]),
    ]
    _check(wide, calls)
    typed_only = [
        ("try_add", [_column(dt.Int16()), ("value", 1)]),
        ("try_multiply", [_column(dt.Decimal(10, 2)), ("value", 2)]),
        ("try_divide", [("value", 1), _column(dt.Int8(), True)]),
        ("greatest", [_column(dt.Int8()), ("value", 1), ("value", 2)]),
        ("nullif", [_column(dt.Int8(), True), ("value", 0)]),
        ("equal_null", [_column(dt.Int32(), True), ("value", 5)]),
        ("nvl", [_column(dt.Int8(), True), ("value", 0)]),
        ("nvl2", [_column(dt.String(), True), _column(dt.Int16(), True), ("value", 0)]),
        ("width_bucket", [_column(dt.Int8()), ("value", 0), ("value", 10), ("value", 4)]),
        ("atan2", [("value", 1), _column(dt.Decimal(10, 2))]),
    ]
    _check(wide, typed_only, values=False)  # PySpark takes no bare numbers there
    (candidate,) = _candidates(wide, typed_only[:1]).values()
    (field,) = wide.frame.select(x=candidate.expr).schema
    assert field.dtype == dt.Int16()  # as for try_add(x, F.lit(1).cast(Int16)), not the bigint of F.lit(1)


@pytest.mark.spark
def test_hmac_with_an_algorithm_and_random_numbers_type_as_spark(wide: Wide) -> None:
    binary, text = wide.column(dt.Binary(), False), wide.column(dt.String(), True)
    exprs = {
        "hmac_sha512": F.hmac(binary, text, F.lit("SHA512")),
        "hmac_column": F.hmac(text, binary, text),
        "rand_seeded": F.rand(7),
        "randn": F.randn(),
        "random": F.random(3),
        "uniform_ints": F.uniform(0, 10),
        "uniform_mixed": F.uniform(0, 1.5, 3),
        "uniform_floats": F.uniform(-1.0, 1.0),
    }
    candidates = {
        name: catalog_tests.Candidate(expr.node.function, [], "row", expr)  # type: ignore[attr-defined]
        for name, expr in exprs.items()
    }
    assert catalog_tests.type_mismatches(wide, candidates) == []


# --- refused when built --------------------------------------------------------------------------


class N(DataFrameModel):
    n: int
    x: float | None
    s: str
    d: Annotated[decimal.Decimal, dt.Decimal(10, 2)]
    day: datetime.date
    m: dict[str, int]


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: F.sqrt(N.s), r"F\.sqrt\(\): col must be a number; got column 'N\.s' of type str"),
        (lambda: F.abs(N.day), r"F\.abs\(\): col must be a number or a duration"),
        (lambda: F.round(N.x, N.n), r"F\.round\(\): scale takes a Python value \(int\)"),
        (lambda: F.round(N.x, 2**40), "does not fit"),
        (lambda: F.ceil(N.x, 1.5), r"F\.ceil\(\): scale must be int"),
        (lambda: F.log(N.x, N.x), r"F\.log\(\): with two arguments the first is the base, a number"),
        (lambda: F.greatest(N.n), r"F\.greatest\(\) needs at least two columns, got 1"),
        (lambda: F.greatest(N.n, N.s), r"F\.greatest\(\): no common type"),
        (lambda: F.least(N.m, N.m), r"F\.least\(\): cols must be a value with an order"),
        (lambda: F.pmod(N.n, N.s), r"F\.pmod\(\): divisor must be a number"),
        (lambda: F.try_add(N.day, N.x), r"F\.try_add\(\): no \+ for column 'N\.day'"),
        (lambda: F.try_subtract(N.day, N.day), r"F\.try_subtract\(\): no - .* F\.datediff\(end, start\) gives"),
        (lambda: N.day - N.day, r"unsupported operand types for -: .* F\.datediff\(end, start\) gives the days"),
        (lambda: F.try_multiply(N.day, N.n), r"F\.try_multiply\(\): left must be a number"),
        (lambda: F.isnan(N.s), r"F\.isnan\(\): col must be a number"),
        (lambda: F.bin(N.x), r"F\.bin\(\): col must be an integer"),
        (lambda: F.hex(N.d), r"F\.hex\(\): col must be an integer, a string or bytes"),
        (lambda: F.conv(N.n, 10, 2), r"F\.conv\(\): col must be a string"),
        (lambda: F.conv(N.s, 1, 2), r"F\.conv\(\): fromBase must be between 2 and 36, got 1"),
        (lambda: F.conv(N.s, 10, -37), r"F\.conv\(\): toBase must be between 2 and 36 \(or -36 and -2\)"),
        (lambda: F.factorial(N.d), r"F\.factorial\(\): col must be an integer"),
        (lambda: F.uniform(N.n, 1), r"F\.uniform\(\): min takes a Python value"),
        (lambda: F.rand(1.5), r"F\.rand\(\): seed must be int"),
        (lambda: F.bit_count(N.d), r"F\.bit_count\(\): col must be an integer or a boolean"),
        (lambda: F.shiftleft(N.n, N.n), r"F\.shiftleft\(\): numBits takes a Python value"),
        (lambda: F.sha2(N.s, 100), r"F\.sha2\(\): numBits must be one of 0 \(= 256\), 224, 256, 384, 512, got 100"),
        (lambda: F.md5(N.n), r"F\.md5\(\): col must be bytes or a string"),
        (lambda: F.hash(N.n, N.m), r"F\.hash\(\): cols must be a value without maps"),
        (lambda: F.hash(), r"F\.hash\(\) needs at least one cols"),
    ],
)
def test_calls_spark_would_refuse_or_cast_silently_are_refused_when_built(build: Any, message: str) -> None:
    with pytest.raises((ColumnTypeError, ArgumentError), match=message):  # a column's type, or a Python argument
        build()


def test_the_result_types_a_user_reads() -> None:
    def typed(expr: Expr[Any]) -> str:
        return str(expr.typed)

    assert typed(F.round(N.d, 1)) == "Decimal | None (decimal(10,1))"  # Spark: rounding is always nullable
    assert typed(F.ceil(N.d)) == "Decimal | None (decimal(9,0))"
    assert typed(F.floor(N.x)) == "int | None (bigint)"
    assert typed(F.ceil(N.n, -2)) == "Decimal | None (decimal(21,0))"
    assert typed(F.sqrt(N.n)) == "float | None (double)"
    assert typed(F.pmod(N.n, 7)) == "int | None (bigint)"
    assert typed(F.greatest(N.n, N.x)) == "float (double)"  # NULL only when all are
    assert typed(F.greatest(N.n, N.d)) == "Decimal (decimal(22,2))"
    assert typed(F.isnan(N.x)) == "bool (boolean)"
    assert typed(F.uniform(0, 10)) == "int (bigint)"
    assert typed(F.uniform(0, 1.5)) == "float (double)"
    assert typed(F.shiftleft(N.n, 3)) == "int (bigint)"
    assert typed(F.hash(N.n, N.s, N.day)) == "int (int)"
    assert typed(F.sha2(N.s, 256)) == "str | None (string)"
    assert not F.rand().node.deterministic
    assert F.pi().node.is_constant


@pytest.mark.spark
def test_try_add_and_try_subtract_add_days_to_a_date_as_spark(wide: Wide) -> None:
    date = _column(dt.Date(), True)
    calls = [
        ("try_add", [date, _column(dt.Int32())]),
        ("try_add", [_column(dt.Int16(), True), date]),
        ("try_subtract", [date, _column(dt.Int8())]),
    ]
    _check(wide, calls)
    # Spark takes an int number of days only: a bigint (a Python int) is cast, overflow-checked
    (candidate,) = _candidates(wide, [("try_add", [date, _column(dt.Int64())])]).values()
    assert wide.frame.select(x=candidate.expr).schema["x"].dtype == dt.Date()
    assert catalog_tests.type_mismatches(wide, _candidates(wide, [("try_subtract", [date, ("value", 1)])])) == []
    with pytest.raises(ColumnTypeError, match=r"no - for column '.*' of type int \(int\) and column"):
        wide.frame.select(F.try_subtract(F.col(wide.column(dt.Int32(), False)), F.col(wide.column(dt.Date(), True))))
