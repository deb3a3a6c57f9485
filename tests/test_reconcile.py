"""Strict reconciliation: the rules in Python, and the ten differential cases of specs/to-schema.md on Spark."""

from __future__ import annotations

import datetime
import decimal
from typing import Annotated

import pytest
from pyspark.errors import AnalysisException
from pyspark.sql import SparkSession
from pyspark.sql import types as st

from pydantable_spark import DataFrame, DataFrameModel, Schema
from pydantable_spark import dtypes as dt
from pydantable_spark.errors import (
    IncompatibleCastError,
    LossyCastError,
    MissingColumnError,
    NullabilityError,
    ReconciliationError,
)
from pydantable_spark.reconcile import reconcile

pytestmark = pytest.mark.jvm_free
"""These tests run without a JVM (pytest -m "not spark"); the ones marked spark get the session."""


def schema(*fields: tuple[str, dt.DType, bool]) -> Schema:
    return Schema(tuple(dt.Field(*f) for f in fields))


# --- rules in Python ------------------------------------------------------------------------------


def test_every_problem_is_reported_with_a_diff() -> None:
    source = schema(("a", dt.Int64(), True), ("b", dt.String(), False), ("c", dt.Float64(), False))
    target = schema(
        ("a", dt.Int64(), False), ("b", dt.Int64(), False), ("c", dt.Float32(), False), ("d", dt.Date(), True)
    )
    with pytest.raises(ReconciliationError) as info:
        reconcile(source.fields, target)
    kinds = [p.kind.__name__ for p in info.value.problems]
    assert kinds == ["NullabilityError", "IncompatibleCastError", "LossyCastError", "MissingColumnError"]
    assert isinstance(info.value, NullabilityError)
    text = str(info.value)
    assert "cannot reconcile the schemas (4 problems)" in text
    assert "! b: str (string)" in text
    assert "| d: date | None (date)" in text


@pytest.mark.parametrize(
    ("src", "dst", "error"),
    [
        (dt.Float64(), dt.Float32(), LossyCastError),
        (dt.Float64(), dt.Int64(), LossyCastError),
        (dt.Decimal(10, 2), dt.Int64(), LossyCastError),
        (dt.Decimal(10, 4), dt.Decimal(12, 2), LossyCastError),
        (dt.Datetime(), dt.Date(), LossyCastError),
        (dt.Int64(), dt.String(), IncompatibleCastError),
        (dt.String(), dt.Int64(), IncompatibleCastError),
        (dt.String(), dt.Date(), IncompatibleCastError),
        (dt.Boolean(), dt.Int32(), IncompatibleCastError),
        (dt.List(dt.Int64(), False), dt.Int64(), IncompatibleCastError),
        (
            dt.Struct((dt.Field("x", dt.Int64(), False),)),
            dt.Struct((dt.Field("y", dt.Int64(), False),)),
            MissingColumnError,
        ),
        (dt.List(dt.Int64(), True), dt.List(dt.Int64(), False), NullabilityError),
        (dt.Map(dt.String(), dt.Int64(), True), dt.Map(dt.String(), dt.Int64(), False), NullabilityError),
        (
            dt.Struct((dt.Field("x", dt.Int64(), True),)),
            dt.Struct((dt.Field("x", dt.Int64(), False),)),
            NullabilityError,
        ),
    ],
)
def test_refused_conversions(src: dt.DType, dst: dt.DType, error: type[ReconciliationError]) -> None:
    with pytest.raises(error):
        reconcile(schema(("c", src, False)).fields, schema(("c", dst, False)))


def test_lossy_conversions_are_accepted_when_named() -> None:
    source = schema(("a", dt.Float64(), False), ("b", dt.Float64(), False))
    target = schema(("a", dt.Float32(), False), ("b", dt.Float32(), False))
    with pytest.raises(LossyCastError, match="b: converting"):
        reconcile(source.fields, target, allow_lossy=["a"])
    assert reconcile(source.fields, target, allow_lossy=True).schema == target


def test_option_names_must_exist() -> None:
    with pytest.raises(ValueError, match="allow_lossy names columns the target does not have: zz"):
        reconcile(schema(("a", dt.Int64(), False)).fields, schema(("a", dt.Int64(), False)), allow_lossy=["zz"])


def test_null_check_reaches_nested_values_and_takes_the_target_nullability() -> None:
    loose = dt.Struct((dt.Field("x", dt.Int64(), True), dt.Field("xs", dt.List(dt.Int64(), True), True)))
    tight = dt.Struct((dt.Field("x", dt.Int64(), False), dt.Field("xs", dt.List(dt.Int64(), False), False)))
    with pytest.raises(NullabilityError) as info:
        reconcile(schema(("s", loose, False)).fields, schema(("s", tight, False)))
    assert {p.path for p in info.value.problems} == {"s.x", "s.xs", "s.xs[]"}
    assert "or pass null_check for its column" in str(info.value)
    rec = reconcile(schema(("s", loose, True)).fields, schema(("s", tight, False)), null_check=["s"])
    assert rec.schema == schema(("s", tight, False))
    assert rec.columns[0].null_check
    same = reconcile(schema(("s", tight, False)).fields, schema(("s", tight, False)), null_check=True)
    assert not same.columns[0].null_check  # nothing to check: no run-time cost


def test_result_keeps_the_source_non_nullability() -> None:
    nested = dt.Struct((dt.Field("x", dt.Int64(), False),))
    loose = dt.Struct((dt.Field("x", dt.Int64(), True),))
    result = reconcile(schema(("s", nested, False)).fields, schema(("s", loose, True))).schema
    assert result == schema(("s", nested, False))


# --- the ten differential cases, on Spark -------------------------------------------------------


class XYZ(DataFrameModel):
    z: float
    x: int
    y: str


def test_1_reorder(spark: SparkSession) -> None:
    sdf = spark.createDataFrame([(1, "a", 3.0)], "x bigint not null, y string not null, z double not null")
    frame = XYZ.from_spark(sdf)
    assert frame.to_spark().columns == ["z", "x", "y"]
    assert frame.collect() == [XYZ(z=3.0, x=1, y="a")]


def test_2_widening_cast(spark: SparkSession) -> None:
    class Value(DataFrameModel):
        value: int

    sdf = spark.createDataFrame([(1,)], "value int not null")
    frame = Value.from_spark(sdf)
    assert frame.to_spark().schema["value"].dataType == st.LongType()
    assert frame.collect() == [Value(value=1)]


def test_3_missing_column_fails_even_where_spark_would_fill_null(spark: SparkSession) -> None:
    class XY(DataFrameModel):
        x: int
        y: str | None

    sdf = spark.createDataFrame([(1,)], "x bigint not null")
    filled = sdf.to(XY.spark_schema())  # Spark 4.3 fills the missing nullable column with NULL
    assert filled.collect()[0]["y"] is None
    with pytest.raises(MissingColumnError, match="y: missing from the source; source has: x"):
        XY.from_spark(sdf)


def test_4_nullable_to_non_nullable_fails(spark: SparkSession) -> None:
    class X(DataFrameModel):
        x: Annotated[int, dt.Int32]

    sdf = spark.createDataFrame([(1,)], "x int")
    with pytest.raises(AnalysisException):
        sdf.to(X.spark_schema()).collect()  # on Spark Connect, to() is checked when the plan runs
    with pytest.raises(NullabilityError, match="x: nullable in the source but not null in the target"):
        X.from_spark(sdf)


def test_5_projection_drops_extra_columns(spark: SparkSession) -> None:
    class XZ(DataFrameModel):
        x: int
        z: float

    sdf = spark.createDataFrame([(1, "a", 3.0)], "x bigint not null, y string, z double not null")
    frame = XZ.from_spark(sdf)
    assert frame.to_spark().columns == ["x", "z"]
    assert frame.collect() == [XZ(x=1, z=3.0)]


def test_6_nested_struct_reordered_and_projected(spark: SparkSession) -> None:
    class Address(DataFrameModel):
        city: str | None
        street: str | None

    class Person(DataFrameModel):
        id: Annotated[int, dt.Int32] | None
        address: Address | None

    sdf = spark.createDataFrame(
        [(1, ("123 Main St", "Boston", 12345))],
        "id int, address struct<street: string, city: string, zip: int>",
    )
    frame = Person.from_spark(sdf)
    assert frame.to_spark().schema["address"].dataType.fieldNames() == ["city", "street"]
    [row] = frame.collect()
    assert row.address == Address(city="Boston", street="123 Main St")


def test_7_empty_frame(spark: SparkSession) -> None:
    class X(DataFrameModel):
        x: int | None

    sdf = spark.createDataFrame([], "x int")
    frame = X.from_spark(sdf)
    assert frame.count() == 0
    assert frame.collect() == []
    assert frame.to_spark().schema["x"].dataType == st.LongType()


def test_8_identical_schema_is_a_no_op(spark: SparkSession) -> None:
    class X(DataFrameModel):
        x: Annotated[int, dt.Int32]

    # a non-null column Spark derived itself (rows made from Python data with a schema are checked at run
    # time instead: createDataFrame(..., verifySchema=False) can claim non-null wrongly)
    sdf = spark.range(1).selectExpr("CAST(id + 1 AS INT) AS x")
    frame = X.from_spark(sdf)
    assert frame.to_spark().schema == X.spark_schema()
    assert "selectExpr" not in frame.explain()


def test_9_incompatible_cast_fails_where_spark_would_cast(spark: SparkSession) -> None:
    class X(DataFrameModel):
        x: str

    sdf = spark.createDataFrame([(1,)], "x bigint not null")
    assert sdf.to(X.spark_schema()).collect()[0]["x"] == "1"  # Spark 4.3 turns the number into a string
    with pytest.raises(IncompatibleCastError, match="x: cannot convert bigint .int. to string .str."):
        X.from_spark(sdf)


def test_10_narrowing_overflow_fails_at_run_time(spark: SparkSession) -> None:
    class X(DataFrameModel):
        x: Annotated[int, dt.Int32]

    sdf = spark.createDataFrame([(2147483648,)], "x bigint not null")
    frame = X.from_spark(sdf)  # narrowing is allowed by the rules...
    with pytest.raises(Exception, match="CAST_OVERFLOW"):
        frame.collect()  # ...and fails loudly when a value does not fit
    fits = X.from_spark(spark.createDataFrame([(7,)], "x bigint not null"))
    assert fits.collect() == [X(x=7)]


def test_lossy_casts_spark_would_do_silently_are_refused(spark: SparkSession) -> None:
    class Narrow(DataFrameModel):
        f: Annotated[float, dt.Float32]
        i: int
        d: Annotated[decimal.Decimal, dt.Decimal(5, 1)]
        day: datetime.date

    sdf = spark.sql("select 1e300D as f, 1.7D as i, 1.25BD as d, timestamp_ltz'2024-01-01 10:00:00' as day")
    silently = sdf.to(Narrow.spark_schema()).collect()[0]
    assert silently["i"] == 1  # what Spark does without asking
    with pytest.raises(LossyCastError) as info:
        Narrow.from_spark(sdf)
    assert [p.path for p in info.value.problems] == ["f", "i", "d", "day"]
    accepted = Narrow.from_spark(sdf, allow_lossy=True).collect()[0]
    assert accepted.i == 1
    assert accepted.day == datetime.date(2024, 1, 1)


def test_reconciliation_gate_at_collect_matches_derived_schema(spark: SparkSession) -> None:
    sdf = spark.sql("select 1L as id")
    frame = DataFrame.from_spark(sdf)
    assert frame.to_spark().schema == sdf.schema


class _Totals(DataFrameModel):
    key: str
    total: Annotated[decimal.Decimal, dt.Decimal(38, 2)] | None


class _CheckedTotals(DataFrameModel):
    key: str
    total: decimal.Decimal  # decimal(38,18): a cast Spark marks as possibly failing


def test_a_checked_column_is_non_null_whatever_its_cast(spark: SparkSession, agrees: object) -> None:
    """A top-level NULL check applies to the converted value, so the column is non-null even where the cast alone
    is nullable (decimal(38,2) to decimal(38,18)); the derived schema said nullable (found by the local engine)."""
    totals = _Totals.from_rows([{"key": "a", "total": decimal.Decimal("1.50")}])
    checked = totals.as_model(_CheckedTotals, null_check=True)
    assert not checked.schema["total"].nullable
    agrees(checked)  # type: ignore[operator]
    agrees(checked.sort("key"))  # type: ignore[operator]


# --- the evolution guard: near names (issue 36) ---------------------------------------------------


def test_edit_distance_counts_insertions_deletions_substitutions_and_adjacent_swaps() -> None:
    from pydantable_spark.reconcile import edit_distance

    pairs = {
        ("chanel", "channel"): 1,  # insertion
        ("channel", "chanel"): 1,  # deletion
        ("colour", "colout"): 1,  # substitution
        ("cahnnel", "channel"): 1,  # adjacent swap: one edit (plain Levenshtein says 2)
        ("ca", "abc"): 3,  # optimal string alignment: no substring edited twice
        ("", "abc"): 3,
        ("same", "same"): 0,
    }
    assert {pair: edit_distance(*pair) for pair in pairs} == pairs


def test_the_near_name_limit_at_its_boundaries() -> None:
    from pydantable_spark.reconcile import near_name_limit

    lengths = {n: near_name_limit("x" * n) for n in (1, 2, 3, 5, 6, 20)}
    assert lengths == {1: 0, 2: 0, 3: 1, 5: 1, 6: 2, 20: 2}


def test_a_field_about_to_read_null_near_an_unread_column_is_missing_with_both_names() -> None:
    from pydantable_spark.reconcile import check_near_names

    def outcome(field: str, columns: list[str], absent: tuple[str, ...] = ()) -> str:
        target = schema(("id", dt.Int64(), False), (field, dt.String(), True))
        try:
            check_near_names([target[field]], ["id", *columns], target, absent, "read_parquet('x')")
        except MissingColumnError as error:
            return str(error)
        return "NULL"

    # each length class at its limit is an error, one edit further is a NULL column
    assert "did you mean 'dya'?" in outcome("day", ["dya"])  # 3 characters: 1 edit (a swap)
    assert outcome("day", ["dxz"]) == "NULL"  # 2 edits
    assert outcome("ab", ["ac"]) == "NULL"  # 2 characters: only a column equal ignoring case
    assert "did you mean 'Ab'?" in outcome("ab", ["Ab"])
    assert "did you mean 'pricy'?" in outcome("price", ["pricy"])  # 5 characters: 1 edit
    assert outcome("price", ["prize2"]) == "NULL"  # 2 edits
    assert "did you mean 'chnnle'?" in outcome("chanel", ["chnnle"])  # 6 characters: 2 edits (swap + delete)
    assert outcome("chanel", ["chnnlx"]) == "NULL"  # 3 edits
    assert outcome("chanel", ["channel"], ("chanel",)) == "NULL"  # absent= names it: NULL on purpose
    assert outcome("idx", ["id"]) == "NULL"  # 'id' is read by the field 'id': not a misspelling's target
    said = outcome("chanel", ["channel", "chanels"])
    assert said.startswith("read_parquet('x'): chanel: missing from the data, which has column 'channel'")
    assert "Field(alias='channel')" in said
    assert "absent=['chanel']" in said


def test_several_misspelt_fields_are_listed_in_one_error() -> None:
    from pydantable_spark.reconcile import check_near_names

    target = schema(("chanel", dt.String(), True), ("adress", dt.String(), True))
    with pytest.raises(MissingColumnError) as info:
        check_near_names(list(target), ["channel", "address"], target, (), "read_table('t')")
    lines = str(info.value).splitlines()
    assert lines[0] == "read_table('t'): 2 fields:"
    assert [line.split(",")[0] for line in lines[1:]] == [
        "  - chanel: missing from the data",
        "  - adress: missing from the data",
    ]


class _Misspelt(DataFrameModel):
    id: int
    note: str | None
    chanel: str | None = None


def test_absent_is_checked_by_type_and_name_when_the_reader_is_called() -> None:
    """No JVM: the argument is refused before Spark is asked anything."""
    from pydantable_spark.errors import ArgumentTypeError, ArgumentValueError

    cases = {
        "a str": ("chanel", ArgumentTypeError, r"absent= takes a list of field names \(absent=\['channel'\]\)"),
        "a dict": ({"chanel": 1}, ArgumentTypeError, "absent= takes a list of field names"),
        "an int inside": ([1], ArgumentTypeError, r"absent= takes field names \(str\), got 1 \(int\)"),
        "no such field": (["channel"], ArgumentValueError, "'channel', which is not a field of _Misspelt.*: chanel$"),
        "no default": (
            ["note"],
            ArgumentValueError,
            r"'note', which has no default None.*`note: \.\.\. \| None = None`",
        ),
    }
    for label, (absent, kind, message) in cases.items():
        for read in (_Misspelt.read_parquet, _Misspelt.read_json, _Misspelt.read_delta, _Misspelt.read_table):
            with pytest.raises(kind, match=message):
                read("nowhere", absent=absent)
            assert label
