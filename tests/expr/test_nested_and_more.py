"""Struct, list and map functions; more string and date functions; timestamp arithmetic."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from pydantic import BaseModel, NaiveDatetime
from pyspark.sql import SparkSession

from pydantable_spark import DataFrameModel, F
from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ArgumentTypeError, ArgumentValueError, ColumnTypeError, UnknownColumnError


class Geo(BaseModel):
    lat: float
    name: str | None


class N(DataFrameModel):
    id: int
    where: Geo | None
    tags: list[str]
    nums: list[int | None]
    attrs: dict[str, int]
    text: str
    at: datetime.datetime
    day: datetime.date
    gap: datetime.timedelta


UTC = datetime.timezone.utc
ROWS = [
    {"id": 1, "where": {"lat": 1.5, "name": "x"}, "tags": ["b", "a", "b"], "nums": [3, None, 1], "attrs": {"k": 1},
     "text": "a1-b22", "at": datetime.datetime(2024, 5, 17, 13, 45, tzinfo=UTC), "day": datetime.date(2024, 5, 17),
     "gap": datetime.timedelta(days=1, hours=2)},
    {"id": 2, "where": None, "tags": [], "nums": [], "attrs": {}, "text": "zz",
     "at": datetime.datetime(2023, 1, 1, tzinfo=UTC), "day": datetime.date(2023, 1, 1), "gap": datetime.timedelta(0)},
]  # fmt: skip


@pytest.fixture(scope="module")
def frame(spark: SparkSession) -> Any:
    return N.from_rows(ROWS)


def test_struct_list_and_map_functions(frame: Any, agrees: Any) -> None:
    out = frame.sort("id").select(
        lat=N.where.struct.field("lat"),
        n=N.tags.list.len(),
        first=N.tags.list.get(0),
        last=N.tags.list.get(-1),
        out_of_range=N.tags.list.get(10),
        has_b=N.tags.list.contains("b"),
        has_2=N.nums.list.contains(2),
        joined=N.tags.list.join(","),
        sorted_=N.tags.list.sort(),
        desc=N.nums.list.sort(descending=True),
        distinct=N.tags.list.unique(),
        keys=N.attrs.map.keys(),
        values=N.attrs.map.values(),
        k=N.attrs.map.get("k"),
    )
    agrees(out)
    got = out.to_dict()
    assert got["lat"] == [1.5, None]
    assert got["n"] == [3, 0]
    assert got["first"] == ["b", None]
    assert got["last"] == ["b", None]
    assert got["out_of_range"] == [None, None]
    assert got["has_b"] == [True, False]
    assert got["has_2"] == [None, False]  # not found, but the list holds a NULL
    assert got["joined"] == ["b,a,b", ""]
    assert got["sorted_"] == [["a", "b", "b"], []]
    assert got["desc"] == [[3, 1, None], []]
    assert got["distinct"] == [["b", "a"], []]
    assert got["keys"] == [["k"], []]
    assert got["k"] == [1, None]
    assert str(out.schema["n"]) == "n: int not null"


def test_nested_function_errors(frame: Any) -> None:
    with pytest.raises(UnknownColumnError, match="unknown column 'latt'.*did you mean 'lat'"):
        N.where.struct.field("latt")
    with pytest.raises(ColumnTypeError, match=r"struct.field\(\): col must be a struct; got column 'N.id'"):
        N.id.struct.field("x")
    with pytest.raises(ColumnTypeError, match=r"list.len\(\): col must be a list or a map"):
        N.text.list.len()
    with pytest.raises(ArgumentTypeError, match=r"list.get\(\): index must be an integer; got literal .a."):
        N.tags.list.get("a")
    with pytest.raises(ColumnTypeError, match="list of strings"):
        N.nums.list.join(",")
    with pytest.raises(ColumnTypeError, match="cannot be compared"):
        N.tags.list.contains(1)
    with pytest.raises(ColumnTypeError, match="does not fit the keys"):
        N.attrs.map.get(1)


def test_more_string_functions(frame: Any, agrees: Any) -> None:
    out = frame.sort("id").select(
        digits=N.text.str.extract(r"([0-9]+)", 1),
        dashed=N.text.str.replace("[0-9]", "#"),
        literal=N.text.str.replace("-", ".", literal=True),
        parts=N.text.str.split("-"),
        dotted=F.lit("a.b").str.split("."),
        left=N.text.str.pad_start(4, "0"),
        right=N.text.str.pad_end(4, "_"),
        like=N.text.str.like("a%"),
    )
    agrees(out)
    got = out.to_dict()
    assert got["digits"] == ["1", None]
    assert got["dashed"] == ["a#-b##", "zz"]
    assert got["literal"] == ["a1.b22", "zz"]
    assert got["parts"] == [["a1", "b22"], ["zz"]]
    assert got["dotted"] == [["a", "b"], ["a", "b"]]
    assert got["left"] == ["a1-b22", "00zz"]
    assert got["right"] == ["a1-b22", "zz__"]
    assert got["like"] == [True, False]
    with pytest.raises(ArgumentValueError, match="fill must be a single character"):
        N.text.str.pad_start(3, "ab")


def test_more_date_functions_and_arithmetic(frame: Any, agrees: Any) -> None:
    out = frame.sort("id").select(
        month_start=N.day.dt.truncate("month"),
        hour=N.at.dt.truncate("hour"),
        shown=N.at.dt.strftime("%Y-%m-%d %H:%M h"),
        later=N.at + N.gap,
        earlier=N.at - datetime.timedelta(hours=1),
        next_day=N.day + datetime.timedelta(days=1),
        between=N.at - N.at,
        total=N.gap + N.gap,
    )
    agrees(out)
    got = out.to_dict()
    assert got["month_start"] == [datetime.date(2024, 5, 1), datetime.date(2023, 1, 1)]
    assert got["hour"][0] == datetime.datetime(2024, 5, 17, 13, tzinfo=UTC)
    assert got["shown"] == ["2024-05-17 13:45 h", "2023-01-01 00:00 h"]
    assert got["later"][0] == datetime.datetime(2024, 5, 18, 15, 45, tzinfo=UTC)
    assert got["earlier"][1] == datetime.datetime(2022, 12, 31, 23, tzinfo=UTC)
    assert got["next_day"] == [datetime.datetime(2024, 5, 18, tzinfo=UTC), datetime.datetime(2023, 1, 2, tzinfo=UTC)]
    assert got["between"] == [datetime.timedelta(0), datetime.timedelta(0)]
    assert got["total"][0] == datetime.timedelta(days=2, hours=4)
    with pytest.raises(ColumnTypeError, match="use one of year, quarter, month, week"):
        N.day.dt.truncate("hour")
    with pytest.raises(ArgumentValueError, match="no Spark equivalent"):
        N.at.dt.strftime("%Q")
    with pytest.raises(ColumnTypeError, match="unsupported operand types for -"):
        N.day - N.day


class Local(DataFrameModel):
    at: NaiveDatetime


def test_truncating_a_naive_datetime_keeps_it_naive_at_every_unit(spark: SparkSession) -> None:
    # Spark's date_trunc reads a timestamp_ntz in the session time zone and returns a timestamp
    at = datetime.datetime(2024, 5, 17, 13, 45, 12, 345678)
    frame = Local.from_rows([{"at": at}], session=spark)
    units = ("year", "quarter", "month", "week", "day", "hour", "minute", "second")
    out = frame.select(**{unit: Local.at.dt.truncate(unit) for unit in units})
    assert [field.dtype for field in out.schema] == [dt.DatetimeNTZ()] * len(units)
    assert out.to_dict() == {
        "year": [datetime.datetime(2024, 1, 1)],
        "quarter": [datetime.datetime(2024, 4, 1)],
        "month": [datetime.datetime(2024, 5, 1)],
        "week": [datetime.datetime(2024, 5, 13)],
        "day": [datetime.datetime(2024, 5, 17)],
        "hour": [datetime.datetime(2024, 5, 17, 13)],
        "minute": [datetime.datetime(2024, 5, 17, 13, 45)],
        "second": [datetime.datetime(2024, 5, 17, 13, 45, 12)],
    }
