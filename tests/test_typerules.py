"""Type rules in Python, and the same rules checked against Spark's analyzer on every pair of types."""

from __future__ import annotations

import datetime
import decimal
import itertools
from typing import TYPE_CHECKING, Annotated, Any

import pytest
from pyspark.errors import AnalysisException

from pydantable_spark import DataFrameModel, F
from pydantable_spark import dtypes as dt
from pydantable_spark._spark.lower import lower
from pydantable_spark._spark.sql import column_sql, type_sql
from pydantable_spark._spark.types import fields_of_struct
from pydantable_spark.errors import ColumnTypeError
from pydantable_spark.typerules import (
    ArithmeticOp,
    Conversion,
    arithmetic_result,
    cast_forces_nullable,
    classify_conversion,
    is_castable,
    supertype,
)

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


pytestmark = pytest.mark.jvm_free
"""These tests run without a JVM (pytest -m "not spark"); the ones marked spark get the session."""


class Wide(DataFrameModel):
    """One non-null column of every atomic type."""

    b: Annotated[int, dt.Int8]
    s: Annotated[int, dt.Int16]
    i: Annotated[int, dt.Int32]
    l: int  # noqa: E741
    f: Annotated[float, dt.Float32]
    d: float
    dec: Annotated[decimal.Decimal, dt.Decimal(10, 2)]
    dec2: Annotated[decimal.Decimal, dt.Decimal(5, 3)]
    dec3: Annotated[decimal.Decimal, dt.Decimal(38, 10)]
    str_: str
    date: datetime.date
    ts: datetime.datetime
    ntz: Annotated[datetime.datetime, dt.DatetimeNTZ]
    bo: bool
    bin: bytes
    dur: datetime.timedelta


ROW = {
    "b": 1,
    "s": 2,
    "i": 3,
    "l": 4,
    "f": 1.5,
    "d": 2.5,
    "dec": decimal.Decimal("1.25"),
    "dec2": decimal.Decimal("2.125"),
    "dec3": decimal.Decimal("3.5"),
    "str_": "7",
    "date": datetime.date(2024, 1, 2),
    "ts": datetime.datetime(2024, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc),
    "ntz": datetime.datetime(2024, 1, 2, 3, 4, 5),
    "bo": True,
    "bin": b"\x01",
    "dur": datetime.timedelta(days=1, seconds=3),
}
NUMERIC = ["b", "s", "i", "l", "f", "d", "dec", "dec2", "dec3"]
ATOMIC = [*NUMERIC, "str_", "date", "ts", "ntz", "bo", "bin", "dur"]
TARGETS: list[dt.DType] = [
    dt.Boolean(), dt.Int8(), dt.Int16(), dt.Int32(), dt.Int64(), dt.Float32(), dt.Float64(),
    dt.Decimal(10, 2), dt.Decimal(3, 0), dt.Decimal(20, 0), dt.Decimal(38, 18), dt.Decimal(4, 3),
    dt.String(), dt.Binary(), dt.Date(), dt.Datetime(), dt.DatetimeNTZ(), dt.Duration(),
]  # fmt: skip


@pytest.fixture(scope="module")
def wide(spark: SparkSession) -> Any:
    return Wide.from_rows([ROW])


def _spark_fields(frame: Any) -> dict[str, tuple[dt.DType, bool]]:
    return {f.name: (f.dtype, f.nullable) for f in fields_of_struct(lower(frame.plan).schema)}


def _derived(frame: Any) -> dict[str, tuple[dt.DType, bool]]:
    return {f.name: (f.dtype, f.nullable) for f in frame.schema}


# --- pure rules ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("op", "a", "b", "expected"),
    [
        (ArithmeticOp.ADD, dt.Int8(), dt.Int8(), dt.Int8()),
        (ArithmeticOp.ADD, dt.Int32(), dt.Int64(), dt.Int64()),
        (ArithmeticOp.ADD, dt.Float32(), dt.Float32(), dt.Float32()),
        (ArithmeticOp.ADD, dt.Int32(), dt.Float32(), dt.Float64()),
        (ArithmeticOp.DIV, dt.Int64(), dt.Int64(), dt.Float64()),
        (ArithmeticOp.DIV, dt.Float32(), dt.Float32(), dt.Float64()),
        (ArithmeticOp.FLOORDIV, dt.Int8(), dt.Int16(), dt.Int64()),
        (ArithmeticOp.FLOORDIV, dt.Float64(), dt.Int64(), None),
        (ArithmeticOp.ADD, dt.Decimal(10, 2), dt.Int32(), dt.Decimal(13, 2)),
        (ArithmeticOp.MUL, dt.Decimal(38, 10), dt.Decimal(38, 10), dt.Decimal(38, 6)),
        (ArithmeticOp.ADD, dt.Decimal(10, 2), dt.Float64(), dt.Float64()),
        (ArithmeticOp.ADD, dt.String(), dt.Int64(), None),
        (ArithmeticOp.SUB, dt.Date(), dt.Date(), None),
    ],
)
def test_arithmetic_result(op: ArithmeticOp, a: dt.DType, b: dt.DType, expected: dt.DType | None) -> None:
    assert arithmetic_result(op, a, b) == expected


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (dt.Int8(), dt.Int64(), dt.Int64()),
        (dt.Int32(), dt.Float32(), dt.Float64()),
        (dt.Decimal(10, 2), dt.Int64(), dt.Decimal(22, 2)),
        (dt.Decimal(10, 2), dt.Decimal(5, 4), dt.Decimal(12, 4)),
        (dt.Date(), dt.Datetime(), dt.Datetime()),
        (dt.String(), dt.Int64(), None),
        (dt.List(dt.Int64(), False), dt.List(dt.Int64(), True), dt.List(dt.Int64(), True)),
        (dt.List(dt.Int64(), False), dt.List(dt.Int32(), False), None),
    ],
)
def test_supertype(a: dt.DType, b: dt.DType, expected: dt.DType | None) -> None:
    assert supertype(a, b) == expected
    assert supertype(b, a) == expected


@pytest.mark.parametrize(
    ("src", "dst", "kind"),
    [
        (dt.Int32(), dt.Int64(), Conversion.WIDENING),
        (dt.Int64(), dt.Int32(), Conversion.NARROWING),
        (dt.Int64(), dt.Float64(), Conversion.WIDENING),
        (dt.Int64(), dt.Decimal(20, 0), Conversion.WIDENING),
        (dt.Int64(), dt.Decimal(10, 2), Conversion.NARROWING),
        (dt.Float32(), dt.Float64(), Conversion.WIDENING),
        (dt.Float64(), dt.Float32(), Conversion.LOSSY),
        (dt.Float64(), dt.Int64(), Conversion.LOSSY),
        (dt.Decimal(10, 2), dt.Int64(), Conversion.LOSSY),
        (dt.Decimal(10, 2), dt.Decimal(12, 2), Conversion.WIDENING),
        (dt.Decimal(10, 2), dt.Decimal(9, 2), Conversion.NARROWING),
        (dt.Decimal(10, 2), dt.Decimal(10, 1), Conversion.LOSSY),
        (dt.Date(), dt.Datetime(), Conversion.WIDENING),
        (dt.Datetime(), dt.Date(), Conversion.LOSSY),
        (dt.Datetime(), dt.DatetimeNTZ(), Conversion.LOSSY),
        (dt.Int64(), dt.String(), Conversion.INCOMPATIBLE),
        (dt.String(), dt.Date(), Conversion.INCOMPATIBLE),
        (dt.Boolean(), dt.Int64(), Conversion.INCOMPATIBLE),
        (dt.String(), dt.String(), Conversion.IDENTICAL),
    ],
)
def test_classify_conversion(src: dt.DType, dst: dt.DType, kind: Conversion) -> None:
    assert classify_conversion(src, dst) is kind


# --- the same rules, asked of Spark ------------------------------------------------------------


@pytest.mark.spark
@pytest.mark.parametrize("op", list(ArithmeticOp))
def test_arithmetic_types_and_nullability_match_spark(wide: Any, op: ArithmeticOp) -> None:
    exprs = {}
    for a, b in itertools.product(NUMERIC, NUMERIC):
        if arithmetic_result(op, Wide.frame_schema()[a].dtype, Wide.frame_schema()[b].dtype) is None:
            with pytest.raises(ColumnTypeError, match="unsupported operand types"):
                getattr(Wide, a)._arith(op, getattr(Wide, b))
            untyped = F.col(a)._arith(op, F.col(b))  # by name: the rule runs when the frame binds it
            with pytest.raises(ColumnTypeError, match="unsupported operand types"):
                wide.select(untyped)
            continue
        exprs[f"{a}_{b}"] = getattr(Wide, a)._arith(op, getattr(Wide, b))
    out = wide.select(**exprs)
    assert _spark_fields(out) == _derived(out)
    if op is not ArithmeticOp.FLOORDIV:
        assert out.collect()  # runs: no Spark error at execution either


@pytest.mark.spark
def test_cast_legality_and_nullability_match_spark(wide: Any) -> None:
    legal = {}
    illegal = []
    for column, target in itertools.product(ATOMIC, TARGETS):
        source = Wide.frame_schema()[column].dtype
        name = f"{column}_to_{str(target).replace(' ', '_')}"
        if is_castable(source, target):
            legal[name] = getattr(Wide, column).cast(target)
        else:
            illegal.append((column, target))
            with pytest.raises(ColumnTypeError, match="legal targets"):
                getattr(Wide, column).cast(target)
    out = wide.select(**legal)
    assert _spark_fields(out) == _derived(out)
    base = lower(wide.plan)
    for column, target in illegal:
        with pytest.raises(AnalysisException):
            base.selectExpr(f"CAST({column_sql(column)} AS {type_sql(target)})").schema  # noqa: B018


def test_cast_forces_nullable_is_false_for_identity() -> None:
    for target in TARGETS:
        assert not cast_forces_nullable(target, target)


@pytest.mark.spark
def test_coalesce_and_when_supertypes_match_spark(wide: Any) -> None:
    exprs = {}
    for a, b in itertools.combinations(ATOMIC, 2):
        left, right = Wide.frame_schema()[a].dtype, Wide.frame_schema()[b].dtype
        if supertype(left, right) is None:
            with pytest.raises(ColumnTypeError, match="no common type"):
                F.coalesce(getattr(Wide, a), getattr(Wide, b))
            continue
        exprs[f"c_{a}_{b}"] = F.coalesce(getattr(Wide, a), getattr(Wide, b))
        exprs[f"w_{a}_{b}"] = F.when(Wide.bo, getattr(Wide, a)).otherwise(getattr(Wide, b))
    out = wide.select(**exprs)
    assert _spark_fields(out) == _derived(out)
