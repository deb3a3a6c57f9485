"""Materialization: validated and trusted collect, Arrow, pandas, dicts, counts, the Spark frame."""

from __future__ import annotations

import datetime
import decimal
import enum
import math
from typing import TYPE_CHECKING, Annotated, Any

import pyarrow as pa
import pytest
from pydantic import BaseModel, Field, PrivateAttr

from pydantable_spark import DataFrameModel, F
from pydantable_spark import dtypes as dt
from pydantable_spark.errors import OutOfRangeError, RowValidationError

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


class Level(enum.Enum):
    LOW = "low"
    HIGH = "high"


class Geo(BaseModel):
    lat: float
    lon: float


class Place(DataFrameModel):
    name: str
    where: Geo | None
    stops: list[Geo]
    index: dict[str, Geo]


class Everything(DataFrameModel):
    i8: Annotated[int, dt.Int8]
    f32: Annotated[float, dt.Float32]
    dec: Annotated[decimal.Decimal, dt.Decimal(9, 3)]
    text: str | None
    raw: bytes
    day: datetime.date
    at: datetime.datetime
    wall: Annotated[datetime.datetime, dt.DatetimeNTZ]
    gap: datetime.timedelta
    level: Level
    tags: tuple[str, ...]


EVERYTHING = {
    "i8": -3,
    "f32": 0.5,
    "dec": decimal.Decimal("1.250"),
    "text": None,
    "raw": b"\x00\x01",
    "day": datetime.date(2020, 2, 29),
    "at": datetime.datetime(2020, 1, 1, 10, tzinfo=datetime.timezone(datetime.timedelta(hours=2))),
    "wall": datetime.datetime(2020, 1, 1, 10),
    "gap": datetime.timedelta(days=2, microseconds=1),
    "level": "high",
    "tags": ("a", "b"),
}


def test_collect_validates_into_the_declared_model(spark: SparkSession) -> None:
    [row] = Everything.from_rows([EVERYTHING]).collect()
    assert row == Everything.model_validate(EVERYTHING)
    assert row.at == datetime.datetime(2020, 1, 1, 8, tzinfo=datetime.timezone.utc)
    assert row.at.utcoffset() == datetime.timedelta(0)
    assert row.wall.tzinfo is None
    assert row.level is Level.HIGH
    assert row.tags == ("a", "b")


def test_trusted_collect_builds_instances_without_validation(spark: SparkSession) -> None:
    frame = Everything.from_rows([EVERYTHING])
    [row] = frame.collect(trusted=True)
    assert isinstance(row, Everything)
    assert row.i8 == -3
    assert row.level == "high"  # what trusted mode gives up: enum members...
    assert row.tags == ["a", "b"]  # ...and tuple/set types
    assert row.model_fields_set == set(Everything.model_fields)
    assert row.dec == decimal.Decimal("1.250")


def test_nested_structs_lists_and_maps_come_back_as_models(spark: SparkSession) -> None:
    value = {
        "name": "x",
        "where": {"lat": 1.0, "lon": 2.0},
        "stops": [{"lat": 3.0, "lon": 4.0}],
        "index": {"k": {"lat": 5.0, "lon": 6.0}},
    }
    frame = Place.from_rows([value, {**value, "where": None, "stops": [], "index": {}}])
    for trusted in (False, True):
        first, second = frame.collect(trusted=trusted)
        assert first.where == Geo(lat=1.0, lon=2.0)
        assert first.stops == [Geo(lat=3.0, lon=4.0)]
        assert first.index == {"k": Geo(lat=5.0, lon=6.0)}
        assert second.where is None
        assert second.stops == []


def test_derived_nested_models_from_spark(spark: SparkSession) -> None:
    from pydantable_spark import DataFrame

    sdf = spark.sql("select named_struct('a', 1L, 'b', 'x') as s, map('k', array(1.5D)) as m")
    frame = DataFrame.from_spark(sdf)
    for trusted in (False, True):
        [row] = frame.collect(trusted=trusted)
        assert row.s.a == 1
        assert type(row.s).__name__ == "S"
        assert row.m == {"k": [1.5]}


def test_collect_reports_rows_that_break_model_constraints(spark: SparkSession) -> None:
    class Loose(DataFrameModel):
        n: int

    class Positive(DataFrameModel):
        n: int = Field(gt=0)

    frame = Loose.from_rows([{"n": 1}, {"n": 5}, {"n": -2}]).sort("n").as_model(Positive)
    with pytest.raises(RowValidationError, match="row 0, field 'n': Input should be greater than 0 .got -2.") as info:
        frame.collect()
    assert "in collected rows for Positive" in str(info.value)
    assert len(frame.collect(trusted=True)) == 3  # trusted mode does not check constraints


def test_validation_errors_count_rows_across_batches(spark: SparkSession, monkeypatch: pytest.MonkeyPatch) -> None:
    from pydantable_spark import materialize

    class Loose(DataFrameModel):
        n: int

    class Small(DataFrameModel):
        n: int = Field(lt=5)

    monkeypatch.setattr(materialize, "BATCH_ROWS", 2)
    frame = Loose.from_rows([{"n": i} for i in range(7)]).sort("n").as_model(Small)
    with pytest.raises(RowValidationError, match="row 5, field 'n'"):
        frame.collect()
    monkeypatch.setattr(materialize, "BATCH_ROWS", 3)
    assert [r.n for r in Loose.from_rows([{"n": i} for i in range(7)]).sort("n").collect()] == list(range(7))


def test_models_with_private_attributes_in_trusted_mode(spark: SparkSession) -> None:
    class Cached(DataFrameModel):
        n: int
        _memo: dict[str, int] = PrivateAttr(default_factory=dict)

    [row] = Cached.from_rows([{"n": 1}]).collect(trusted=True)
    assert row._memo == {}


def test_to_arrow_keeps_nullability(spark: SparkSession) -> None:
    class N(DataFrameModel):
        a: int
        b: list[int | None] | None

    table = N.from_rows([{"a": 1, "b": [None]}]).to_arrow()
    assert table.schema == pa.schema(
        [pa.field("a", pa.int64(), False), pa.field("b", pa.list_(pa.field("element", pa.int64(), True)), True)]
    )


def test_to_dict_to_pandas_and_count(spark: SparkSession) -> None:
    class N(DataFrameModel):
        a: int | None
        m: dict[str, int]

    frame = N.from_rows([{"a": 1, "m": {"x": 1}}, {"a": None, "m": {}}])
    assert frame.to_dict() == {"a": [1, None], "m": [{"x": 1}, {}]}
    pdf = frame.to_pandas()
    assert str(pdf["a"].dtype) == "Int64"
    assert pdf["a"].isna().tolist() == [False, True]
    assert frame.count() == 2
    assert frame.filter(F.col("a").is_null()).count() == 1


def test_to_spark_is_reconciled_with_the_derived_schema(spark: SparkSession) -> None:
    class N(DataFrameModel):
        a: int

    sdf = N.from_rows([{"a": 1}]).select(b=N.a * 2).to_spark()
    assert sdf.schema.simpleString() == "struct<b:bigint>"
    assert not sdf.schema["b"].nullable
    assert sdf.collect()[0]["b"] == 2


def test_models_with_validators_are_validated_row_by_row(spark: SparkSession) -> None:
    from pydantic import field_validator

    class Loose(DataFrameModel):
        a: int
        b: int

    class Ordered(DataFrameModel):
        a: int
        b: int

        @field_validator("b")
        @classmethod
        def after_a(cls, value: int, info: Any) -> int:
            if value < info.data["a"]:
                raise ValueError("b must not be below a")
            return value

    good = Loose.from_rows([{"a": 1, "b": 2}]).as_model(Ordered).collect()
    assert good == [Ordered(a=1, b=2)]
    bad = Loose.from_rows([{"a": 1, "b": 2}, {"a": 5, "b": 3}]).sort("a").as_model(Ordered)
    with pytest.raises(RowValidationError, match="row 1, field 'b': Value error, b must not be below a"):
        bad.collect()


# --- dates and timestamps Python cannot hold (issue 10 item 4) ---------------------------------


class Moment(DataFrameModel):
    i: int
    d: datetime.date
    t: datetime.datetime


_UTC = datetime.timezone.utc
_RESULTS: dict[str, Any] = {
    "collect": lambda frame: frame.collect(),
    "trusted collect": lambda frame: frame.collect(trusted=True),
    "to_dict": lambda frame: frame.to_dict(),
    "to_pandas": lambda frame: frame.to_pandas(),
    "stream": lambda frame: list(frame.stream(batch_size=2)),
    "trusted stream": lambda frame: list(frame.stream(batch_size=2, trusted=True)),
    "submit": lambda frame: frame.submit("collect").wait(timeout=120),
}


@pytest.fixture(scope="module")
def moments(spark: SparkSession) -> Any:
    rows = [
        {"i": i, "d": datetime.date(9999, 12, 1), "t": datetime.datetime(9999, 12, 1, tzinfo=_UTC)} for i in range(5)
    ]
    return Moment.from_rows(rows)


def _shifted_on_row_3(t: Any) -> Any:
    return F.when(Moment.i == 3, F.timestamp_add("day", 40, t)).otherwise(t)


@pytest.mark.parametrize("result", list(_RESULTS))
@pytest.mark.parametrize(
    ("column", "shifted", "shown"),
    [
        ("d", lambda: {"d": F.when(Moment.i == 3, F.date_add(Moment.d, 100)).otherwise(Moment.d)}, "10000-03-10"),
        ("d", lambda: {"d": F.when(Moment.i == 3, F.date_add(Moment.d, -3652100)).otherwise(Moment.d)}, "0000-"),
        (
            "t",
            lambda: {"t": F.when(Moment.i == 3, F.timestamp_add("day", 40, Moment.t)).otherwise(Moment.t)},
            "10000-01-10 00:00:00.000000Z",
        ),
        ("a", lambda: {"a": F.array(Moment.d, F.date_add(Moment.d, 100 * (Moment.i == 3).cast(int)))}, "10000"),
        ("m", lambda: {"m": F.create_map(F.lit("k"), F.date_add(Moment.d, 100 * (Moment.i == 3).cast(int)))}, "10000"),
        (
            "s",
            lambda: {"s": F.struct(Moment.d, F.array(F.create_map(F.lit("k"), _shifted_on_row_3(Moment.t))))},
            "10000-01-10",
        ),
    ],
    ids=[
        "date-after-9999",
        "date-before-1",
        "timestamp-after-9999",
        "date-in-a-list",
        "date-as-a-map-value",
        "timestamp-in-a-map-in-a-list-in-a-struct",
    ],
)
def test_out_of_range_dates_are_refused_on_every_python_result(
    moments: Any, result: str, column: str, shifted: Any, shown: str
) -> None:
    frame = moments.with_columns(**shifted())
    with pytest.raises(OutOfRangeError, match=rf"column '{column}', row 3: the (date|timestamp) {shown}") as info:
        _RESULTS[result](frame)
    assert (info.value.column, info.value.row) == (column, 3)
    assert "to_arrow()" in str(info.value)


class Stamped(BaseModel):
    on: datetime.date
    by_key: dict[str, datetime.datetime]


class Dated(DataFrameModel):
    m: dict[str, datetime.date]
    mt: dict[str, datetime.datetime | None]
    s: Stamped
    lm: list[dict[str, datetime.date]]
    ml: dict[str, list[datetime.date]]


@pytest.mark.parametrize("result", list(_RESULTS))
def test_maps_of_dates_and_timestamps_come_back_on_every_python_result(spark: SparkSession, result: str) -> None:
    day, moment = datetime.date(2024, 2, 29), datetime.datetime(2024, 2, 29, 13, 5, tzinfo=_UTC)
    rows = [
        {
            "m": {"a": day, "b": datetime.date(1, 1, 1)},
            "mt": {"a": moment, "b": None},
            "s": {"on": day, "by_key": {"x": moment}},
            "lm": [{"a": day}, {}],
            "ml": {"a": [day, datetime.date(9999, 12, 31)]},
        },
        {"m": {}, "mt": {}, "s": {"on": datetime.date(1970, 1, 1), "by_key": {}}, "lm": [], "ml": {}},
    ]
    got = _RESULTS[result](Dated.from_rows(rows))
    if result == "to_dict":
        assert got == {name: [row[name] for row in rows] for name in Dated.model_fields}
    elif result == "to_pandas":
        assert got["s"].tolist() == [{**row["s"], "by_key": list(row["s"]["by_key"].items())} for row in rows]
        assert [dict(m) for m in got["m"]] == [row["m"] for row in rows]
    else:
        batches = got if result.endswith("stream") else [got]
        assert [r.model_dump() for batch in batches for r in batch] == rows


def test_out_of_range_dates_reach_arrow_exactly(moments: Any) -> None:
    table = moments.with_columns(d=F.date_add(Moment.d, 100)).to_arrow()
    assert table.column("d").cast(pa.int32()).to_pylist() == [2932896 - 30 + 100] * 5
    # the first and last Python days are in range
    edge = Moment.from_rows([{"i": 0, "d": datetime.date.min, "t": datetime.datetime.max.replace(tzinfo=_UTC)}])
    assert edge.collect() == [Moment(i=0, d=datetime.date.min, t=datetime.datetime.max.replace(tzinfo=_UTC))]
    assert edge.to_dict()["t"] == [datetime.datetime.max.replace(tzinfo=_UTC)]


def test_to_pandas_keeps_nested_values_exact(spark: SparkSession) -> None:
    class Inner(DataFrameModel):
        big: int | None

    class Nested(DataFrameModel):
        ints: list[int | None]
        floats: list[float | None]
        inner: Inner
        counts: dict[str, int | None]

    big = 2**62 + 1  # numpy's float64 would round it, and make NULL and NaN alike
    rows = [{"ints": [1, None, big], "floats": [1.5, None, float("nan")], "inner": {"big": big}, "counts": {"a": big}}]
    frame = Nested.from_rows(rows)
    pdf = frame.to_pandas()
    assert pdf["ints"][0] == [1, None, big]
    assert pdf["floats"][0][:2] == [1.5, None]
    assert math.isnan(pdf["floats"][0][2])
    assert pdf["inner"][0] == {"big": big}
    assert pdf["counts"][0] == [("a", big)]
    back = Nested.from_pandas(pdf).collect()[0]
    assert back.ints == [1, None, big]
    assert back.inner.big == big


def test_to_pandas_keeps_null_and_nan_apart(spark: SparkSession) -> None:
    class Measure(DataFrameModel):
        x: float | None
        y: float

    nan = float("nan")
    frame = Measure.from_rows([{"x": nan, "y": nan}, {"x": None, "y": -0.0}])
    pdf = frame.to_pandas()
    assert str(pdf["x"].dtype) == "Float64"
    assert pdf["x"].isna().tolist() == [False, True]
    assert str(pdf["y"].dtype) == "float64"
    back = Measure.from_pandas(pdf).collect()
    assert back[0].x != back[0].x
    assert back[1].x is None
    assert str(back[1].y) == "-0.0"
