"""Polars interop through Arrow: ``to_polars`` and ``from_polars`` with ``from_arrow``'s strictness."""

from __future__ import annotations

import datetime
import decimal
import math

import polars as pl
import pytest

from pydantable_spark import DataFrame, DataFrameModel, F
from pydantable_spark.errors import NullabilityError, ReconciliationError, RowValidationError, UnsupportedTypeError


class Reading(DataFrameModel):
    id: int
    label: str | None
    value: float | None
    day: datetime.date
    at: datetime.datetime | None
    price: decimal.Decimal | None
    tags: list[str]


ROWS = [
    {
        "id": 1,
        "label": "a",
        "value": math.nan,
        "day": datetime.date(2024, 1, 2),
        "at": datetime.datetime(2024, 1, 2, 3, 4, 5, 678901, tzinfo=datetime.timezone.utc),
        "price": decimal.Decimal("1.50"),
        "tags": ["x", ""],
    },
    {"id": 2, "label": None, "value": None, "day": datetime.date(1, 1, 1), "at": None, "price": None, "tags": []},
]


def test_to_polars_then_from_polars_gives_the_same_rows() -> None:
    frame = Reading.from_rows(ROWS)
    polars = frame.to_polars()
    assert polars.columns == frame.columns
    assert polars["label"].to_list() == ["a", None]
    assert math.isnan(polars["value"][0])  # NaN is a value...
    assert polars["value"][1] is None  # ... and NULL is missing
    back = Reading.from_polars(polars).collect()
    assert [r.model_dump() for r in back][1] == ROWS[1]
    assert (back[0].at, back[0].tags, back[0].price) == (ROWS[0]["at"], ["x", ""], decimal.Decimal("1.50"))


def test_dates_outside_python_range_come_back_exactly() -> None:
    frame = Reading.from_rows(ROWS).select("id", late=F.date_add(Reading.day, 3_000_000))
    days = frame.to_polars().select(pl.col("late").cast(pl.Int32))["late"].to_list()
    assert days[0] == (datetime.date(2024, 1, 2) - datetime.date(1970, 1, 1)).days + 3_000_000


def test_without_a_model_the_schema_comes_from_polars() -> None:
    frame = DataFrame.from_polars(pl.DataFrame({"n": [1, None], "s": ["a", "b"]}))
    assert [(f.name, f.nullable) for f in frame.schema] == [("n", True), ("s", False)]  # as from_arrow: no NULL seen
    assert frame.to_dict() == {"n": [1, None], "s": ["a", "b"]}


def test_a_null_in_a_non_null_column_is_refused() -> None:
    with pytest.raises(NullabilityError, match="id"):
        Reading.from_polars(pl.from_dicts(ROWS).with_columns(pl.Series("id", [1, None])))


def test_a_value_of_another_type_is_refused() -> None:
    with pytest.raises(ReconciliationError, match="label"):
        Reading.from_polars(pl.from_dicts(ROWS).with_columns(pl.Series("label", [1, 2])))


def test_a_value_a_conversion_would_change_needs_allow_lossy() -> None:
    class Small(DataFrameModel):
        n: float

    assert Small.from_polars(pl.DataFrame({"n": [3]})).collect()[0].n == 3.0  # checked value by value, as from_arrow
    big = pl.DataFrame({"n": [9007199254740993]})
    with pytest.raises(RowValidationError, match="'n'.*9007199254740993"):
        Small.from_polars(big)
    assert Small.from_polars(big, allow_lossy=["n"]).collect()[0].n == 9007199254740992.0


@pytest.mark.parametrize(
    ("series", "said"),
    [
        (pl.Series("id", [1], pl.UInt64), r"Polars UInt64, which has no Spark type: cast it to Int64 if its values"),
        (pl.Series("id", [1], pl.Int128), r"Polars Int128, which has no Spark type: cast it to Int64 if its values"),
        (pl.Series("id", [datetime.time(1, 2)], pl.Time), r"Polars Time, which has no Spark type"),
        (pl.Series("id", [object()], pl.Object), r"Polars Object, which has no Spark type: a Polars Object column"),
    ],
    ids=["UInt64", "Int128", "Time", "Object"],
)
def test_polars_types_without_a_spark_type_are_named(series: pl.Series, said: str) -> None:
    for model in (Reading, None):
        with pytest.raises(UnsupportedTypeError, match=rf"from_polars: column 'id' is {said}"):
            DataFrame.from_polars(pl.DataFrame([series]), model)
