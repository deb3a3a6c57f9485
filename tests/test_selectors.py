"""Selectors: each one, their algebra, their use in frame methods, and empty matches."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from pyspark.sql import SparkSession

from pydantable_spark import DataFrameModel, cs
from pydantable_spark import dtypes as dt
from pydantable_spark.errors import SchemaError, UnknownColumnError

pytestmark = pytest.mark.jvm_free
"""These tests run without a JVM (pytest -m "not spark"); the ones marked spark get the session."""


class S(DataFrameModel):
    id: int
    price: float
    name: str
    name_short: str | None
    ok: bool
    day: datetime.date
    tags: list[str]
    extra: dict[str, int]


@pytest.fixture(scope="module")
def frame(spark: SparkSession) -> Any:
    return S.from_rows([])


@pytest.mark.parametrize(
    ("selector", "names"),
    [
        (cs.all(), ("id", "price", "name", "name_short", "ok", "day", "tags", "extra")),
        (cs.numeric(), ("id", "price")),
        (cs.integer(), ("id",)),
        (cs.float(), ("price",)),
        (cs.string(), ("name", "name_short")),
        (cs.boolean(), ("ok",)),
        (cs.temporal(), ("day",)),
        (cs.list(), ("tags",)),
        (cs.by_dtype(dt.String, dt.Boolean()), ("name", "name_short", "ok")),
        (cs.by_name("name", "id"), ("id", "name")),
        (cs.starts_with("name"), ("name", "name_short")),
        (cs.ends_with("_short", "ce"), ("price", "name_short")),
        (cs.contains("am"), ("name", "name_short")),
        (cs.matches(r"^[a-z]{2,3}$"), ("id", "ok", "day")),
        (cs.numeric() | cs.boolean(), ("id", "price", "ok")),
        (cs.string() & cs.ends_with("short"), ("name_short",)),
        (cs.all() - cs.numeric() - cs.string(), ("ok", "day", "tags", "extra")),
        (~cs.by_name("id"), ("price", "name", "name_short", "ok", "day", "tags", "extra")),
    ],
)
def test_selectors_resolve_in_schema_order(frame: Any, selector: Any, names: tuple[str, ...]) -> None:
    assert selector.resolve(frame.schema) == names


def test_selectors_in_frame_methods(frame: Any) -> None:
    assert frame.select(cs.numeric(), "name").columns == ["id", "price", "name"]
    assert frame.select(exclude=cs.string() | cs.by_name("extra")).columns == ["id", "price", "ok", "day", "tags"]
    assert frame.select("id", "name", exclude="name").columns == ["id"]
    assert frame.drop_nulls(cs.string()).schema["name_short"].nullable is False
    assert frame.unique(subset=cs.numeric()).schema == frame.schema
    assert frame.drop(cs.string(), "ok").columns == ["id", "price", "day", "tags", "extra"]
    assert frame.sort(cs.numeric(), descending=[True, False]).schema == frame.schema


def test_a_selector_that_matches_nothing_is_an_error(frame: Any) -> None:
    with pytest.raises(SchemaError, match=r"selector cs.struct\(\) matches no column; columns: id, price"):
        frame.select(cs.struct())
    with pytest.raises(UnknownColumnError, match="in cs.by_name"):
        frame.select(cs.by_name("nope"))
