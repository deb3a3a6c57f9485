"""``pydantable_spark.testing.assert_frame_equal`` on real frames."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from pydantable_spark import DataFrameModel, F
from pydantable_spark.testing import assert_frame_equal

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


class Item(DataFrameModel):
    id: int
    price: float
    tags: list[str]


ITEMS = [{"id": 2, "price": 0.3, "tags": ["b"]}, {"id": 1, "price": 0.1 + 0.2, "tags": []}]


def test_equal_frames_pass_in_any_order() -> None:
    frame = Item.from_rows(ITEMS)
    assert_frame_equal(frame, Item.from_rows(list(reversed(ITEMS))))
    assert_frame_equal(frame, [Item(id=1, price=0.3, tags=[]), Item(id=2, price=0.3, tags=["b"])])


def test_order_is_checked_when_asked() -> None:
    frame = Item.from_rows(ITEMS).sort("id")
    assert_frame_equal(frame, sorted(ITEMS, key=lambda r: r["id"]), check_order=True)
    with pytest.raises(AssertionError, match=r"the frames differ at row 0 \(in order\):\n  actual:   \{'id': 1"):
        assert_frame_equal(frame, ITEMS, check_order=True)


def test_different_rows_are_listed() -> None:
    frame = Item.from_rows(ITEMS)
    with pytest.raises(AssertionError) as info:
        assert_frame_equal(frame, [{"id": 1, "price": 0.3, "tags": []}, {"id": 3, "price": 1.0, "tags": []}])
    text = str(info.value)
    assert "only in actual (1):\n    {'id': 2, 'price': 0.3, 'tags': ['b']}" in text
    assert "only in expected (1):\n    {'id': 3, 'price': 1.0, 'tags': []}" in text


def test_float_tolerance_is_configurable() -> None:
    frame = Item.from_rows([{"id": 1, "price": 1.0, "tags": []}])
    assert_frame_equal(frame, [{"id": 1, "price": 1.0001, "tags": []}], rtol=1e-3)
    with pytest.raises(AssertionError):
        assert_frame_equal(frame, [{"id": 1, "price": 1.0001, "tags": []}])


def test_schemas_must_match_including_nullability() -> None:
    frame = Item.from_rows(ITEMS)
    loose = frame.with_columns(price=F.when(F.col("id") > 0, F.col("price")))
    with pytest.raises(AssertionError, match=r"the frames have different schemas:\n(.|\n)*price: float \| None"):
        assert_frame_equal(loose, frame)
    assert_frame_equal(loose, frame, check_nullability=False)
    with pytest.raises(AssertionError, match="different schemas"):
        assert_frame_equal(frame.select("id"), frame)


def test_expected_rows_must_name_the_columns() -> None:
    with pytest.raises(
        AssertionError, match=r"does not match the columns \['id', 'price', 'tags'\] \(unknown: \['x'\]\)"
    ):
        assert_frame_equal(Item.from_rows(ITEMS), [{"id": 1, "price": 0.3, "tags": [], "x": 1}])


def test_a_spark_dataframe_can_be_the_expectation(spark: SparkSession) -> None:
    frame = Item.from_rows(ITEMS)
    assert_frame_equal(frame, frame.to_spark())
    with pytest.raises(TypeError, match="actual must be a pydantable_spark DataFrame"):
        assert_frame_equal(frame.to_spark(), frame)  # type: ignore[arg-type]
