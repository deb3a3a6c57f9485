"""``F.from_csv`` and ``F.from_xml`` typed by models, against PySpark's own; malformed records by mode."""

from __future__ import annotations

import datetime
import decimal
from typing import TYPE_CHECKING, Annotated, Any

import pytest
from pydantic import BaseModel, Field

from pydantable_spark import DataFrameModel, F
from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ArgumentTypeError, ArgumentValueError, ColumnTypeError, MalformedDataError

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


class Reading(BaseModel):
    sensor: int
    name: str | None
    day: datetime.date | None


class Nested(BaseModel):
    sensor: int
    tags: list[str]


class Texts(DataFrameModel):
    id: int
    line: str | None
    record: str | None


LINES = ["1,abc,2024-01-01", "x,y,2024-01-02", "", None, "2,,"]
RECORDS = ["<r><sensor>1</sensor><name>a</name></r>", "<r><sensor>z</sensor></r>", "bad", None, "<r/>"]
ROWS = [{"id": i, "line": line, "record": record} for i, (line, record) in enumerate(zip(LINES, RECORDS, strict=True))]
DDL = "sensor long, name string, day date"


@pytest.fixture(scope="module")
def texts(spark: SparkSession) -> Any:
    return Texts.from_rows(ROWS)


def _plain(texts: Any, function: str, column: str, schema: str, options: dict[str, str] | None = None) -> list[Any]:
    from pyspark.sql import functions as sf

    parse = getattr(sf, function)
    call = parse(column, schema, options) if options else parse(column, schema)
    return [r[0] for r in texts.to_spark().orderBy("id").select(call).collect()]


@pytest.mark.spark
@pytest.mark.parametrize(("function", "column"), [("from_csv", "line"), ("from_xml", "record")])
def test_a_model_types_the_parsed_struct_as_the_analyzer_does(
    texts: Any, agrees: Any, function: str, column: str
) -> None:
    frame = texts.select("id", reading=getattr(F, function)(F.col(column), Reading)).sort("id")
    agrees(frame)
    field = frame.schema["reading"]
    assert field.nullable
    assert [f.nullable for f in field.dtype.fields] == [True, True, True]
    theirs = _plain(texts, function, column, DDL)
    assert [r["reading"] for r in frame.to_spark().collect()] == theirs
    rows = frame.collect()  # validated rows: the struct as a nested model, a field that does not parse NULL
    assert rows[0].reading.sensor == 1
    assert rows[1].reading.sensor is None
    assert rows[3].reading is None


@pytest.mark.spark
def test_a_dtype_struct_and_options_for_csv(texts: Any, agrees: Any) -> None:
    schema = dt.Struct((dt.Field("a", dt.String(), True), dt.Field("b", dt.String(), True)))
    frame = texts.select("id", pair=F.from_csv("line", schema, {"sep": "-"})).sort("id")
    agrees(frame)
    assert [r["pair"] for r in frame.to_spark().collect()] == _plain(
        texts, "from_csv", "line", "a string, b string", {"sep": "-"}
    )


@pytest.mark.spark
@pytest.mark.parametrize(
    ("function", "column", "shown"),
    [("from_csv", "line", "x,y,2024-01-02"), ("from_xml", "record", "<r><sensor>z</sensor></r>")],
)
def test_failfast_names_the_column_and_the_record(texts: Any, function: str, column: str, shown: str) -> None:
    strict = texts.select("id", r=getattr(F, function)(F.col(column), Reading, {"mode": "FAILFAST"}))
    kind = function.removeprefix("from_").upper()
    with pytest.raises(
        MalformedDataError,
        match=rf"column '{column}' of type str \| None \(string\) holds a record that is not {kind} of Reading",
    ) as error:
        strict.collect()
    assert shown in str(error.value)
    good = texts.filter(Texts.id == 0).select(
        "id", r=getattr(F, function)(F.col(column), Reading, {"mode": "FAILFAST"})
    )
    assert [row.r.sensor for row in good.collect()] == [1]


def test_arguments_are_checked_when_the_call_is_made() -> None:
    with pytest.raises(ArgumentTypeError, match=r"F\.from_csv\(\): schema must be .* or a dtypes.Struct; got"):
        F.from_csv("line", dt.List(dt.String(), True))  # type: ignore[arg-type]
    with pytest.raises(ColumnTypeError, match=r"a CSV record holds atomic values only; field 'tags' of Nested"):
        F.from_csv("line", Nested)
    with pytest.raises(ArgumentValueError, match="'DROPMALFORMED'; from_xml takes 'PERMISSIVE' or 'FAILFAST'"):
        F.from_xml("record", Reading, {"mode": "DROPMALFORMED"})
    with pytest.raises(ArgumentValueError, match="'columnNameOfCorruptRecord' is not offered"):
        F.from_csv("line", Reading, {"columnNameOfCorruptRecord": "x"})
    with pytest.raises(ArgumentTypeError, match=r"options\['rowTag'\] must be a str, bool, int or float"):
        F.from_xml("record", Reading, {"rowTag": None})
    with pytest.raises(ColumnTypeError, match="col must be a string column of XML text; got column 'Texts.id'"):
        Texts.from_rows([]).select(a=F.from_xml(Texts.id, Reading))


# --- decimals Spark would round (issue 32): the strict readers' rule ----------------------------------------


class Amount(BaseModel):
    amount: Annotated[decimal.Decimal, Field(max_digits=10, decimal_places=2)] | None
    name: str | None = None


class Amounts(DataFrameModel):
    id: int
    line: str
    record: str


D = decimal.Decimal
AMOUNTS = [  # the amount's text, and what PERMISSIVE parses it into (Spark: 1.01, 12345679.00, 0.00, ...)
    ("1.005", None),
    ("12345678.999", None),
    ("1e-41", None),
    ("2.50", D("2.50")),
    ("100e-2", D("1.00")),
    ("x", None),
]


@pytest.fixture(scope="module")
def amounts(spark: SparkSession) -> Any:
    rows = [
        {"id": i, "line": f"{text},n{i}", "record": f"<r><amount>{text}</amount><name>n{i}</name></r>"}
        for i, (text, _) in enumerate(AMOUNTS)
    ]
    return Amounts.from_rows(rows)


@pytest.mark.spark
def test_a_decimal_that_would_round_is_null_in_permissive_mode(amounts: Any, agrees: Any) -> None:
    frame = amounts.select(
        "id",
        csv=F.from_csv(Amounts.line, Amount),
        xml=F.from_xml(Amounts.record, Amount),
        strict=F.from_csv(Amounts.line, Amount, {"mode": "FAILFAST"}),
    ).sort("id")
    agrees(frame)  # from_csv of a non-null text is a non-null struct, as Spark types it
    assert [frame.schema[c].nullable for c in ("csv", "xml", "strict")] == [False, True, False]
    parsed = frame.select("id", "csv", "xml").to_dict()
    assert [r["amount"] for r in parsed["csv"]] == [amount for _, amount in AMOUNTS]
    assert [r["name"] for r in parsed["csv"]] == [f"n{i}" for i in range(len(AMOUNTS))]  # the other fields stay
    assert [r["amount"] for r in parsed["xml"]] == [amount for _, amount in AMOUNTS]


@pytest.mark.spark
@pytest.mark.parametrize(("function", "column"), [("from_csv", "line"), ("from_xml", "record")])
def test_failfast_names_the_decimal_that_would_round(amounts: Any, function: str, column: str) -> None:
    strict = amounts.filter(Amounts.id == 0).select(a=getattr(F, function)(F.col(column), Amount, {"mode": "FAILFAST"}))
    with pytest.raises(
        MalformedDataError,
        match=rf"column '{column}' of type str \(string\), field 'amount' of Amount: the value 1.005 has more than 2 "
        r"digits after the point, so the model's decimal\(10, 2\) would round it",
    ) as info:
        strict.collect()
    assert info.value.__cause__ is not None
    good = amounts.filter(Amounts.id.is_in([3, 4])).select("id", a=getattr(F, function)(F.col(column), Amount))
    assert sorted((r.id, r.a.amount) for r in good.collect()) == [(3, D("2.50")), (4, D("1.00"))]
