"""Constructors: rows, columns, Arrow, pandas and Spark inputs, each with its error paths."""

from __future__ import annotations

import datetime
import decimal
import enum
import re
from typing import TYPE_CHECKING, Annotated, Literal

import pandas as pd
import pyarrow as pa
import pytest
from pydantic import BaseModel, ConfigDict, Field

from pydantable_spark import DataFrame, DataFrameModel
from pydantable_spark import dtypes as dt
from pydantable_spark.errors import (
    AmbiguousColumnError,
    DuplicateColumnError,
    IncompatibleCastError,
    LossyCastError,
    MissingColumnError,
    NullabilityError,
    RowValidationError,
    SchemaError,
    UnknownColumnError,
    UnsupportedTypeError,
)

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


pytestmark = pytest.mark.jvm_free
"""These tests run without a JVM (pytest -m "not spark"); the ones marked spark get the session."""


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Tag(BaseModel):
    key: str
    weight: float | None = None


class Item(DataFrameModel):
    id: int
    name: str
    price: decimal.Decimal = Field(max_digits=8, decimal_places=2)
    color: Color
    kind: Literal["a", "b"]
    tags: list[Tag]
    labels: set[str]
    attrs: dict[str, int]
    seen: datetime.datetime | None = None


ITEM = {
    "id": 1,
    "name": "pen",
    "price": "1.50",
    "color": "red",
    "kind": "a",
    "tags": [{"key": "x", "weight": 0.5}],
    "labels": {"s"},
    "attrs": {"n": 1},
    "seen": datetime.datetime(2024, 1, 1, 12, tzinfo=datetime.timezone.utc),
}


class Simple(DataFrameModel):
    id: int
    score: float | None


@pytest.mark.spark
def test_from_rows_validates_and_keeps_python_types(spark: SparkSession) -> None:
    frame = Item.from_rows([ITEM, Item.model_validate({**ITEM, "id": 2, "color": Color.BLUE, "seen": None})])
    rows = frame.sort("id").collect()
    assert rows[0] == Item.model_validate(ITEM)
    assert rows[1].color is Color.BLUE
    assert rows[0].tags[0] == Tag(key="x", weight=0.5)
    assert rows[0].labels == {"s"}
    assert rows[0].price == decimal.Decimal("1.50")


def test_from_rows_names_the_row_index_and_field() -> None:
    bad = [{"id": 1, "score": 1.0}, {"id": "x", "score": None}, {"id": 3, "score": "high"}]
    with pytest.raises(RowValidationError) as info:
        Simple.from_rows(bad)
    message = str(info.value)
    assert "2 invalid value(s) in rows for Simple" in message
    assert "row 1, field 'id': Input should be a valid integer" in message
    assert "row 2, field 'score'" in message
    assert len(info.value.errors) == 2


def test_from_rows_rejects_unknown_and_missing_keys() -> None:
    with pytest.raises(RowValidationError, match="row 0, field 'extra': Extra inputs are not permitted"):
        Simple.from_rows([{"id": 1, "score": None, "extra": 1}])
    with pytest.raises(RowValidationError, match="row 0, field 'score': Field required"):
        Simple.from_rows([{"id": 1}])


def test_from_rows_needs_a_model() -> None:
    with pytest.raises(TypeError, match=r"from_rows needs a model: DataFrame\[User\]"):
        DataFrame.from_rows([{"id": 1}])
    with pytest.raises(TypeError, match="must be a Pydantic model class"):
        DataFrame.from_rows([], model=int)


def test_bound_frame_class_constructors(spark: SparkSession) -> None:
    frame = DataFrame[Simple].from_rows([{"id": 1, "score": None}])
    assert frame.model is Simple
    assert type(frame) is DataFrame
    assert DataFrame[Simple] is DataFrame[Simple]


def test_from_rows_reports_values_that_do_not_fit_spark() -> None:
    class Wide(DataFrameModel):
        d: decimal.Decimal

    with pytest.raises(RowValidationError, match=r"column 'd' \(decimal\(38,18\)\): a validated value does not fit"):
        Wide.from_rows([{"d": decimal.Decimal("1e-30")}])


@pytest.mark.spark
def test_from_rows_empty(spark: SparkSession) -> None:
    frame = Simple.from_rows([])
    assert frame.collect() == []
    assert frame.count() == 0
    assert frame.to_arrow().num_rows == 0


@pytest.mark.spark
def test_from_columns(spark: SparkSession) -> None:
    frame = Simple.from_columns({"id": [1, 2], "score": [0.5, None]})
    assert frame.to_dict() == {"id": [1, 2], "score": [0.5, None]}
    with pytest.raises(ValueError, match="one length; got id=2, score=1"):
        Simple.from_columns({"id": [1, 2], "score": [0.5]})
    with pytest.raises(UnknownColumnError, match="unknown column 'nope' in model Simple"):
        Simple.from_columns({"id": [1], "nope": [1]})
    with pytest.raises(RowValidationError, match="row 1, field 'id'"):
        Simple.from_columns({"id": [1, "x"], "score": [None, None]})


# --- Arrow and pandas ---------------------------------------------------------------------------


@pytest.mark.spark
def test_from_arrow_accepts_nullable_columns_without_nulls(spark: SparkSession) -> None:
    table = pa.table({"score": [1.5, None], "id": pa.array([1, 2], pa.int32()), "extra": ["a", "b"]})
    frame = Simple.from_arrow(table)
    assert frame.columns == ["id", "score"]
    assert str(frame.schema) == "id: int (bigint)\nscore: float | None (double)"
    assert [r.id for r in frame.collect()] == [1, 2]


@pytest.mark.spark
@pytest.mark.parametrize(
    "chunks",
    [[[1, 2], [], [3, 4]], [[], [1, 2, 3, 4]], [[1], [2], [], [], [3, 4], []], [[1, 2, 3, 4], []]],
    ids=["empty-in-the-middle", "empty-first", "several-empty", "empty-last"],
)
def test_from_arrow_keeps_every_chunk_around_an_empty_one(spark: SparkSession, chunks: list[list[int]]) -> None:
    # PySpark's createDataFrame(pa.Table) stops reading at an empty record batch
    table = pa.table({"id": pa.chunked_array(chunks, pa.int64()), "score": pa.chunked_array(chunks, pa.float64())})
    expected = {"id": [1, 2, 3, 4], "score": [1.0, 2.0, 3.0, 4.0]}
    assert Simple.from_arrow(table).sort("id").to_dict() == expected
    assert DataFrame.from_arrow(table).sort("id").to_dict() == expected
    assert Simple.from_arrow(table).count() == 4
    empty = [pa.chunked_array([[], []], pa.int64()), pa.chunked_array([[], []], pa.float64())]
    nothing = pa.table(dict(zip(["id", "score"], empty, strict=True)))
    assert Simple.from_arrow(nothing).count() == 0


def test_from_pandas_names_repeated_columns_and_ints_beyond_64_bits() -> None:
    for model in (Simple, None):
        with pytest.raises(RowValidationError, match=r"column name\(s\) 'id' appear more than once"):
            DataFrame.from_pandas(pd.DataFrame([[1, 2, 1.0]], columns=["id", "id", "score"]), model)
        huge = pd.DataFrame({"id": pd.Series([1, 2**70], dtype=object), "score": [1.0, 2.0]})
        with pytest.raises(RowValidationError, match=r"column 'id' holds an integer beyond 64 bits"):
            DataFrame.from_pandas(huge, model)


def test_from_arrow_reports_nulls_in_non_null_columns() -> None:
    table = pa.table({"id": [1, None], "score": [1.0, 2.0]})
    with pytest.raises(NullabilityError, match="id: nullable in the source but not null"):
        Simple.from_arrow(table)
    with pytest.raises(RowValidationError, match="holds 1 NULL"):
        Simple.from_arrow(table, null_check=["id"])


@pytest.mark.spark
def test_from_arrow_strict_type_rules() -> None:
    with pytest.raises(IncompatibleCastError, match="id: cannot convert string"):
        Simple.from_arrow(pa.table({"id": ["1"], "score": [1.0]}))
    with pytest.raises(LossyCastError, match="allow_lossy=\\['id'\\]"):
        Simple.from_arrow(pa.table({"id": [1.0], "score": [1.0]}))
    frame = Simple.from_arrow(pa.table({"id": [1.0], "score": [1.0]}), allow_lossy=["id"])
    assert frame.to_dict()["id"] == [1]
    truncated = Simple.from_arrow(pa.table({"id": [1.7], "score": [1.0]}), allow_lossy=["id"])
    assert truncated.to_dict()["id"] == [1]  # asked for by name: truncation accepted
    with pytest.raises(MissingColumnError, match="score: missing"):
        Simple.from_arrow(pa.table({"id": [1]}))
    with pytest.raises(UnsupportedTypeError, match="column 'id': Arrow type uint64"):
        Simple.from_arrow(pa.table({"id": pa.array([1], pa.uint64()), "score": [1.0]}))


class Person(BaseModel):
    Name: str | None
    age: int


class People(DataFrameModel):
    one: Person
    many: list[Person]


def test_from_arrow_matches_struct_fields_by_exact_name_with_a_did_you_mean() -> None:
    # pyarrow's cast matches struct fields by exact name: it raised its own ArrowTypeError, or (a nullable field)
    # filled the field with NULL silently (issue 32)
    good = {"Name": "a", "age": 1}
    for one, many, where, found in [
        ({"name": "a", "age": 1}, [good], "one.Name", "name"),
        (good, [{"name": "a", "age": 1}], r"many\[\].Name", "name"),
        ({"Name": "a", "Age": 1}, [good], "one.age", "Age"),
    ]:
        table = pa.table({"one": pa.array([one]), "many": pa.array([many])})
        with pytest.raises(MissingColumnError, match=rf"{where}: missing from the source; .*did you mean '{found}'"):
            People.from_arrow(table)
    frame = People.from_arrow(pa.table({"one": pa.array([good]), "many": pa.array([[good, {"age": 2, "Name": None}]])}))
    assert frame.schema["many"].dtype.inner.fields[0].name == "Name"


def test_from_arrow_narrowing_overflow_fails_loudly() -> None:
    class Small(DataFrameModel):
        n: Annotated[int, dt.Int8]

    with pytest.raises(RowValidationError, match="column 'n'"):
        Small.from_arrow(pa.table({"n": [1000]}))


@pytest.mark.spark
def test_from_arrow_null_typed_column_takes_the_model_type(spark: SparkSession) -> None:
    frame = Simple.from_arrow(pa.table({"id": [1], "score": pa.nulls(1)}))
    assert frame.to_dict() == {"id": [1], "score": [None]}


@pytest.mark.spark
def test_from_arrow_without_a_model_derives_one(spark: SparkSession) -> None:
    table = pa.table({"a": [1, 2], "b": ["x", None], "c": [[1], [2, None]]})
    frame = DataFrame.from_arrow(table)
    assert str(frame.schema) == "a: int (bigint)\nb: str | None (string)\nc: list[int | None] (array<bigint>)"
    assert frame.collect()[1].c == [2, None]


@pytest.mark.spark
def test_from_arrow_nested_nullability_is_observed(spark: SparkSession) -> None:
    class Nested(DataFrameModel):
        tags: list[Tag]
        m: dict[str, int]

    table = pa.table(
        {"tags": [[{"key": "a", "weight": None}]], "m": pa.array([[("k", 1)]], pa.map_(pa.string(), pa.int64()))}
    )
    frame = Nested.from_arrow(table)
    assert frame.collect()[0].tags[0].key == "a"
    bad = pa.table(
        {"tags": [[{"key": None, "weight": None}]], "m": pa.array([[("k", 1)]], pa.map_(pa.string(), pa.int64()))}
    )
    with pytest.raises(NullabilityError, match=r"tags\[\]\.key"):
        Nested.from_arrow(bad)


@pytest.mark.spark
def test_from_pandas(spark: SparkSession) -> None:
    pdf = pd.DataFrame({"id": pd.array([1, 2], dtype="Int64"), "score": [0.5, float("nan")]})
    frame = Simple.from_pandas(pdf)
    assert str(frame.to_dict()) == str({"id": [1, 2], "score": [0.5, float("nan")]})  # NaN is a value
    nulls = pd.DataFrame({"id": pd.array([1, 2], dtype="Int64"), "score": pd.array([0.5, None], dtype="Float64")})
    assert Simple.from_pandas(nulls).to_dict() == {"id": [1, 2], "score": [0.5, None]}
    with pytest.raises(LossyCastError, match="(?s)double .* to bigint"):
        Simple.from_pandas(pd.DataFrame({"id": [1.0, float("nan")], "score": [1.0, 2.0]}))
    back = frame.to_pandas()
    assert str(back["id"].dtype) == "Int64"


# --- Spark --------------------------------------------------------------------------------------


def test_from_spark_without_a_model_derives_one(spark: SparkSession) -> None:
    sdf = spark.sql("select 1L as id, cast(null as string) as name, array(1, 2) as xs")
    frame = DataFrame.from_spark(sdf)
    assert str(frame.schema) == "id: int (bigint)\nname: str | None (string)\nxs: list[int] (array<int not null>)"
    assert frame.collect()[0].xs == [1, 2]


def test_from_spark_with_a_model_reconciles_by_name_ignoring_case(spark: SparkSession) -> None:
    sdf = spark.sql("select 0.5D as SCORE, cast(7 as int) as Id, 'x' as other")
    frame = Simple.from_spark(sdf)
    assert frame.columns == ["id", "score"]
    assert frame.to_dict() == {"id": [7], "score": [0.5]}
    assert frame.to_spark().schema.simpleString() == "struct<id:bigint,score:double>"


def test_from_spark_honours_case_sensitivity(spark: SparkSession) -> None:
    sdf = spark.sql("select 1L as ID, 0.5D as score")
    spark.conf.set("spark.sql.caseSensitive", "true")
    try:
        with pytest.raises(MissingColumnError, match="did you mean 'ID'"):
            Simple.from_spark(sdf)
    finally:
        spark.conf.set("spark.sql.caseSensitive", "false")


def test_from_spark_ambiguous_names(spark: SparkSession) -> None:
    spark.conf.set("spark.sql.caseSensitive", "true")
    try:
        sdf = spark.sql("select 1L as id, 2L as ID, 0.5D as score")
    finally:
        spark.conf.set("spark.sql.caseSensitive", "false")
    with pytest.raises(AmbiguousColumnError, match="id: matches 'id', 'ID' when case is ignored"):
        Simple.from_spark(sdf)
    with pytest.raises(DuplicateColumnError, match="differ only in case"):
        DataFrame.from_spark(sdf)


def test_from_spark_null_check(spark: SparkSession) -> None:
    sdf = spark.sql("select * from values (1L, 0.5D), (cast(null as bigint), 1.0D) as t(id, score)")
    with pytest.raises(NullabilityError, match="null_check=\\['id'\\]"):
        Simple.from_spark(sdf)
    checked = Simple.from_spark(sdf, null_check=["id"])
    with pytest.raises(Exception, match="column 'id' holds a NULL"):
        checked.collect()
    clean = Simple.from_spark(sdf.where("id is not null"), null_check=True)
    assert [r.id for r in clean.collect()] == [1]


@pytest.mark.parametrize(
    ("ddl", "message"),
    [
        ("m map<int, string>", "map<int, ...> has no Python mapping"),
        ("i interval year to month", "Spark type interval year to month has no mapping"),
        ("d interval day", "Spark type interval day has no mapping"),
        ("s struct<a: map<bigint, int>>", "column 's.a'"),
    ],
)
def test_from_spark_unsupported_types_name_the_column(spark: SparkSession, ddl: str, message: str) -> None:
    sdf = spark.createDataFrame([], ddl)
    with pytest.raises(UnsupportedTypeError, match=message):
        DataFrame.from_spark(sdf)


def test_from_spark_char_and_varchar_are_strings(spark: SparkSession) -> None:
    sdf = spark.sql("select cast('ab' as varchar(5)) as v")
    assert DataFrame.from_spark(sdf).schema["v"].dtype == dt.String()


def test_from_spark_drops_case_colliding_columns_the_model_does_not_use(spark: SparkSession) -> None:
    spark.conf.set("spark.sql.caseSensitive", "true")
    try:
        sdf = spark.sql("select 1L as id, 0.5D as score, 'a' as x, 'b' as X")
        frame = Simple.from_spark(sdf)
        assert frame.collect() == [Simple(id=1, score=0.5)]
    finally:
        spark.conf.set("spark.sql.caseSensitive", "false")


@pytest.mark.spark
def test_from_arrow_maps_arrow_types(spark: SparkSession) -> None:
    class Typed(DataFrameModel):
        price: Annotated[decimal.Decimal, dt.Decimal(10, 2)]
        at: datetime.datetime
        wall: Annotated[datetime.datetime, dt.DatetimeNTZ]
        gap: datetime.timedelta
        kind: str

    table = pa.table(
        {
            "price": pa.array([decimal.Decimal("1.25")], pa.decimal128(6, 2)),
            "at": pa.array([datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)], pa.timestamp("ms", "UTC")),
            "wall": pa.array([datetime.datetime(2024, 1, 1, 5)], pa.timestamp("s")),
            "gap": pa.array([datetime.timedelta(seconds=3)], pa.duration("ms")),
            "kind": pa.array(["a"]).dictionary_encode(),
        }
    )
    [row] = Typed.from_arrow(table).collect()
    assert row == Typed(
        price=decimal.Decimal("1.25"),
        at=datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc),
        wall=datetime.datetime(2024, 1, 1, 5),
        gap=datetime.timedelta(seconds=3),
        kind="a",
    )


# --- nested strictness, one NaN rule, schemas that lie (issue 10 item 4) -----------------------


class Inner(BaseModel):
    a: int


class Lenient(BaseModel):
    model_config = {"extra": "ignore"}
    a: int


class Holder(DataFrameModel):
    one: Inner | None
    many: list[Inner]
    keyed: dict[str, Inner]
    lenient: Lenient


_HOLDER = {"one": {"a": 1}, "many": [{"a": 2}], "keyed": {"k": {"a": 3}}, "lenient": {"a": 4, "dropped": 5}}


@pytest.mark.spark
@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"one": {"a": 1, "b": 2}}, "one.b"),
        ({"many": [{"a": 1}, {"a": 2, "c": 3}]}, "many[1].c"),
        ({"keyed": {"k": {"a": 1, "d": 1}}}, "keyed['k'].d"),
    ],
)
def test_from_rows_refuses_unknown_keys_of_nested_structs(spark: SparkSession, change: dict, path: str) -> None:
    with pytest.raises(RowValidationError, match=re.escape(f"row 1, field {path!r}: Extra inputs are not permitted")):
        Holder.from_rows([_HOLDER, {**_HOLDER, **change}])
    # a nested model that asks for it drops unknown keys, as a top-level one would
    assert Holder.from_rows([_HOLDER]).collect()[0].lenient == Lenient(a=4)


@pytest.mark.spark
def test_nan_is_a_value_in_every_constructor(spark: SparkSession) -> None:
    class Measure(DataFrameModel):
        x: float | None
        y: float

    nan = float("nan")

    def shown(frame: DataFrame[Measure]) -> list[tuple[str, str]]:
        return [(repr(r.x), repr(r.y)) for r in frame.collect()]

    expected = [("nan", "nan"), ("None", "-0.0"), ("1.5", "0.0")]
    rows = [{"x": nan, "y": nan}, {"x": None, "y": -0.0}, {"x": 1.5, "y": 0.0}]
    assert shown(Measure.from_rows(rows)) == expected
    assert shown(Measure.from_arrow(pa.table({"x": [nan, None, 1.5], "y": [nan, -0.0, 0.0]}))) == expected
    # pandas' nullable Float64 holds NaN and <NA> apart (pd.array(...) would make the NaN <NA>: build it from Arrow)
    floats = pd.Float64Dtype().__from_arrow__(pa.chunked_array([pa.array([nan, None, 1.5])]))
    nullable = pd.DataFrame({"x": floats, "y": [nan, -0.0, 0.0]})
    assert shown(Measure.from_pandas(nullable)) == [("nan", "nan"), ("None", "-0.0"), ("1.5", "0.0")]
    as_objects = pd.DataFrame({"x": pd.Series([nan, None, 1.5], dtype=object), "y": [nan, -0.0, 0.0]})
    assert shown(Measure.from_pandas(as_objects)) == expected
    # numpy float64 has no NULL: its NaN is NaN, also for an Optional field
    numpy = pd.DataFrame({"x": [nan, 1.5], "y": [nan, 0.0]})
    assert shown(Measure.from_pandas(numpy)) == [("nan", "nan"), ("1.5", "0.0")]


def test_from_spark_catches_a_schema_that_claims_non_null_wrongly(spark: SparkSession) -> None:
    from pyspark.sql import types as st

    from pydantable_spark._spark.session import is_connect

    if is_connect(spark):
        pytest.skip("Spark Connect has no verifySchema=False (it ignores the option with a warning)")

    from pydantable_spark.errors import NullCheckError

    schema = st.StructType(
        [
            st.StructField("id", st.LongType(), False),
            st.StructField("name", st.StringType(), False),
            st.StructField("inner", st.StructType([st.StructField("a", st.LongType(), False)]), True),
        ]
    )

    class Claimed(DataFrameModel):
        id: int
        name: str | None
        inner: Inner | None

    honest = spark.createDataFrame([(1, "a", (1,))], schema, verifySchema=False)
    assert Claimed.from_spark(honest).collect() == [Claimed(id=1, name="a", inner=Inner(a=1))]
    lying = spark.createDataFrame([(1, "a", (1,)), (None, "b", (2,))], schema, verifySchema=False)
    with pytest.raises(NullCheckError, match="column 'id' holds a NULL") as info:
        Claimed.from_spark(lying).collect()
    assert info.value.__cause__ is not None
    nested = spark.createDataFrame([(1, "a", (None,))], schema, verifySchema=False)
    with pytest.raises(NullCheckError, match=r"column 'inner\.a' holds a NULL"):
        Claimed.from_spark(nested).collect()
    # an Optional field takes the NULL as None instead of Spark's stand-in
    loose = spark.createDataFrame([(1, None, None)], schema, verifySchema=False)
    assert Claimed.from_spark(loose).collect() == [Claimed(id=1, name=None, inner=None)]
    with pytest.raises(NullCheckError, match="column 'id' holds a NULL"):
        DataFrame.from_spark(lying).collect()


@pytest.mark.spark
def test_a_model_with_no_fields_is_a_base_class_never_a_frames_model(spark: SparkSession) -> None:
    class Base(DataFrameModel):  # defining it is fine: Pydantic users share config through field-less bases
        model_config = ConfigDict(str_strip_whitespace=True)

    class Item(Base):
        sku: str

    class Nothing(BaseModel):
        pass

    assert Item.from_rows([{"sku": " a "}]).collect() == [Item(sku="a")]
    uses = [
        lambda: Base.from_rows([{}]),
        lambda: DataFrame[Base].from_rows([]),
        lambda: Base.from_columns({}),
        lambda: Item.from_rows([{"sku": "a"}]).as_model(Base),
    ]
    for make in uses:
        with pytest.raises(SchemaError, match="model Base declares no fields, so it cannot be a frame's model"):
            make()
    with pytest.raises(SchemaError, match="model Nothing declares no fields"):
        DataFrame.from_rows([{}], model=Nothing)
    # a source with no columns, where no model says so
    with pytest.raises(SchemaError, match=r"a frame needs at least one column; its source \(Spark DataFrame\)"):
        DataFrame.from_spark(spark.range(2).drop("id"))
    with pytest.raises(SchemaError, match="a frame needs at least one column"):
        DataFrame.from_arrow(pa.table({}))
