"""``F.from_json`` typed by models: types as Spark's analyzer gives them, values as PySpark's ``from_json``."""

from __future__ import annotations

import decimal
from typing import TYPE_CHECKING, Any

import pytest
from pydantic import BaseModel

from pydantable_spark import DataFrameModel, F
from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ArgumentTypeError, ArgumentValueError, ColumnTypeError, MalformedDataError

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


class Address(BaseModel):
    city: str
    zip: int | None = None
    tags: list[str] = []


class Order(DataFrameModel):
    id: int
    total: decimal.Decimal


class Events(DataFrameModel):
    id: int
    payload: str | None
    other: str | None


TEXTS = [
    '{"city": "Oslo", "zip": 150, "tags": ["a", "b"]}',
    '{"city": "Rome"}',
    '{"zip": "not a number"}',
    "not json",
    None,
    '{"city": "Lima", "tags": [null]}',
]
ROWS = [{"id": i, "payload": t, "other": '{"id": 7, "total": 1.5}'} for i, t in enumerate(TEXTS)]


@pytest.fixture(scope="module")
def events(spark: SparkSession) -> Any:
    return Events.from_rows(ROWS)


def _plain(spark: SparkSession, schema: str, options: dict[str, str] | None = None) -> list[Any]:
    from pyspark.sql import functions as sf

    sdf = spark.createDataFrame(
        [(r["id"], r["payload"], r["other"]) for r in ROWS], "id long, payload string, other string"
    )
    return [
        r[0]
        for r in sdf.orderBy("id")
        .select(sf.from_json("payload", schema, options) if options else sf.from_json("payload", schema))
        .collect()
    ]


@pytest.mark.spark
def test_a_model_types_the_parsed_struct_as_the_analyzer_does(events: Any, agrees: Any, spark: SparkSession) -> None:
    frame = events.select("id", address=F.from_json(Events.payload, Address)).sort("id")
    agrees(frame)
    field = frame.schema["address"]
    assert field.nullable
    assert [f.nullable for f in field.dtype.fields] == [True, True, True]
    assert field.dtype.fields[2].dtype == dt.List(dt.String(), True)
    theirs = _plain(spark, "city string, zip long, tags array<string>")
    assert [r["address"] for r in frame.to_spark().collect()] == theirs
    rows = frame.collect()  # validated rows: the struct as a nested model
    assert (rows[0].address.city, rows[0].address.zip, rows[0].address.tags) == ("Oslo", 150, ["a", "b"])
    assert rows[4].address is None


@pytest.mark.spark
def test_a_dataframe_model_and_a_dtype_are_schemas_too(events: Any, agrees: Any, spark: SparkSession) -> None:
    frame = events.select(
        "id",
        order=F.from_json("other", Order),
        tags=F.from_json(F.col("payload"), dt.Map(dt.String(), dt.String(), True)),
    ).sort("id")
    agrees(frame)
    rows = frame.to_spark().collect()
    assert rows[0]["order"]["total"] == decimal.Decimal("1.5")
    assert [r["tags"] for r in rows] == _plain(spark, "map<string,string>")


@pytest.mark.spark
def test_permissive_gives_null_fields_and_failfast_names_the_column(events: Any, spark: SparkSession) -> None:
    loose = events.select("id", a=F.from_json("payload", Address, {"mode": "PERMISSIVE"})).sort("id")
    parsed = [r["a"] for r in loose.to_spark().collect()]
    assert parsed[3] is not None  # malformed: a struct, every field NULL
    assert all(v is None for v in parsed[3])
    assert parsed[4] is None  # NULL text: NULL
    assert parsed == _plain(spark, "city string, zip long, tags array<string>", {"mode": "PERMISSIVE"})
    strict = events.select("id", a=F.from_json(Events.payload, Address, {"mode": "FAILFAST"}))
    with pytest.raises(
        MalformedDataError,
        match=(
            r"column 'payload' of type str \| None \(string\) holds a record that is not JSON of Address "
            r"\(FAILFAST\): \{\"zip\": \"not a number\"\}"
        ),
    ):
        strict.collect()
    good = events.filter(Events.id <= 1).select("id", a=F.from_json(Events.payload, Address, {"mode": "failfast"}))
    assert sorted((r.id, r.a.city) for r in good.collect()) == [(0, "Oslo"), (1, "Rome")]


def test_arguments_are_checked_when_the_call_is_made() -> None:
    with pytest.raises(ArgumentTypeError, match="schema must be a Pydantic model class"):
        F.from_json("payload", "city string")  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match="options must be a dict"):
        F.from_json("payload", Address, [("mode", "FAILFAST")])  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match=r"options\['sep'\] must be a str, bool, int or float"):
        F.from_json("payload", Address, {"sep": None})
    with pytest.raises(ArgumentValueError, match="'DROPMALFORMED'; from_json takes 'PERMISSIVE' or 'FAILFAST'"):
        F.from_json("payload", Address, {"mode": "DROPMALFORMED"})
    with pytest.raises(ArgumentValueError, match="'columnNameOfCorruptRecord' is not offered"):
        F.from_json("payload", Address, {"columnNameOfCorruptRecord": "x"})
    with pytest.raises(ArgumentTypeError, match="takes column names or expressions"):
        F.from_json(3, Address)  # type: ignore[arg-type]


def test_the_text_must_be_a_string_column() -> None:
    with pytest.raises(
        ColumnTypeError, match="col must be a string column of JSON text; got column 'Events.id' of type int"
    ):
        Events.from_rows([]).select(a=F.from_json(Events.id, Address))
