"""``F.from_json`` typed by models: types as Spark's analyzer gives them, values as PySpark's ``from_json``."""

from __future__ import annotations

import decimal
import json
from typing import TYPE_CHECKING, Annotated, Any

import pytest
from pydantic import BaseModel, Field

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
    # Spark's map<string,string> holds 150 as '150' and a list as its JSON text; the model wants strings, so the
    # values that are no JSON strings are NULL (PERMISSIVE), the others as Spark reads them
    theirs = _plain(spark, "map<string,string>")
    ours = [None if m is None else {k: v if isinstance(json.loads(t)[k], str) else None for k, v in m.items()}
            for m, t in zip(theirs, TEXTS, strict=True)]  # fmt: skip
    assert [r["tags"] for r in rows] == ours
    assert ours[0] == {"city": "Oslo", "zip": None, "tags": None}


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


# --- values Spark would change silently (issue 32): the strict readers' rules --------------------------------


class Strict(BaseModel):
    city: str | None = None
    tags: list[str] = []
    amount: Annotated[decimal.Decimal, Field(max_digits=10, decimal_places=2)] | None = None
    exact: Annotated[decimal.Decimal, Field(max_digits=38, decimal_places=30)] | None = None


class StrictTexts(DataFrameModel):
    id: int
    text: str


D = decimal.Decimal
NULLS: dict[str, Any] = {"city": None, "tags": None, "amount": None, "exact": None}
STRICT: list[tuple[str, dict[str, Any]]] = [  # a JSON record, and what PERMISSIVE parses it into
    ('{"city": 12}', NULLS),  # Spark: '12'
    ('{"city": {"a": 1}}', NULLS),  # Spark: '{"a":1}'
    ('{"city": true}', NULLS),  # Spark: 'true'
    ('{"city": "Oslo", "tags": ["a", 1, null]}', {**NULLS, "city": "Oslo", "tags": ["a", None, None]}),  # '1'
    ('{"amount": 1.005}', NULLS),  # Spark: 1.01
    ('{"amount": 12345678.999}', NULLS),  # Spark: 12345679.00
    ('{"amount": 1e-41}', NULLS),  # Spark: 0.00
    ('{"amount": 123456789.5}', NULLS),  # more digits before the point than decimal(10, 2) has: NULL in Spark too
    (
        '{"amount": "2.50", "exact": 0.1234567890123456789012345}',
        {**NULLS, "amount": D("2.50"), "exact": D("0.1234567890123456789012345")},
    ),
    ('{"amount": 1E+2}', {**NULLS, "amount": D("100.00")}),
    ('{"amount": 100e-2, "city": null}', {**NULLS, "amount": D("1.00")}),
]


@pytest.mark.jvm_free
@pytest.mark.parametrize("mode", ["PERMISSIVE", "FAILFAST"])
def test_the_strict_parse_is_written_once_however_many_fields_and_checks_read_it(mode: str) -> None:
    from pydantable_spark._spark.sql import to_sql

    # each field and each check of the rebuilt struct read the parse: written out, Spark ran it once for each
    sql = to_sql(F.from_json(StrictTexts.text, Strict, {"mode": mode}).node)
    assert sql.count("from_json(") == 1
    assert sql.startswith("transform(array(from_json(")


@pytest.fixture(scope="module")
def strict_texts(spark: SparkSession) -> Any:
    return StrictTexts.from_rows([{"id": i, "text": text} for i, (text, _) in enumerate(STRICT)])


@pytest.mark.spark
def test_values_spark_would_change_are_null_in_permissive_mode(strict_texts: Any, agrees: Any) -> None:
    frame = strict_texts.select(
        "id",
        loose=F.from_json(StrictTexts.text, Strict),
        strict=F.from_json(StrictTexts.text, Strict, {"mode": "FAILFAST"}),  # the same types as Spark gives
        words=F.from_json(StrictTexts.text, dt.Map(dt.String(), dt.String(), True)),
    ).sort("id")
    agrees(frame)
    assert [str(f.dtype.fields[2]) for f in frame.schema.fields[1:3]] == ["amount: decimal(10,2)"] * 2
    parsed = frame.select("id", "loose", "words").to_dict()
    assert parsed["loose"] == [expected for _, expected in STRICT]
    assert [{k: v for k, v in (m or {}).items() if v is not None} for m in parsed["words"][:4]] == [
        {},
        {},
        {},
        {"city": "Oslo"},  # tags is a list: no string either
    ]


@pytest.mark.spark
@pytest.mark.parametrize(
    ("row", "message"),
    [
        (0, r"field 'city' of Strict: a JSON bigint where the model wants a string \(str\).*; the value: 12$"),
        (1, r"field 'city' of Strict: a JSON object<a: bigint> where the model wants a string.* the value: \{"),
        (3, r"field 'tags\[\]' of Strict: a JSON bigint where the model wants a string.*; the value: 1$"),
        (5, r"field 'amount' of Strict: the value 12345678.999 has more than 2 digits after the point, so the "),
        (7, r"field 'amount' of Strict: the value 123456789.5 is not a decimal\(10, 2\)"),
    ],
)
def test_failfast_names_the_column_the_field_and_the_value(strict_texts: Any, row: int, message: str) -> None:
    one = strict_texts.filter(StrictTexts.id == row)
    with pytest.raises(
        MalformedDataError, match=r"^collect\(\): column 'text' of type str \(string\), " + message
    ) as info:
        one.select(a=F.from_json(StrictTexts.text, Strict, {"mode": "FAILFAST"})).collect()
    assert info.value.__cause__ is not None  # Spark's error


@pytest.mark.spark
def test_failfast_keeps_the_values_that_fit(strict_texts: Any) -> None:
    good = strict_texts.filter(StrictTexts.id >= 8)
    rows = good.select("id", a=F.from_json(StrictTexts.text, Strict, {"mode": "FAILFAST"})).sort("id").collect()
    assert [r.a.model_dump() for r in rows] == [expected for _, expected in STRICT[8:]]
