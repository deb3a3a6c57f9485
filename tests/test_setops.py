"""Unions, intersections, differences, and duplicate handling."""

from __future__ import annotations

from typing import Any

import pytest
from pyspark.sql import SparkSession

from pydantable_spark import DataFrameModel
from pydantable_spark.errors import ColumnTypeError


class R(DataFrameModel):
    k: str
    v: int | None


ROWS = [{"k": "a", "v": 1}, {"k": "a", "v": 2}, {"k": "b", "v": None}, {"k": "a", "v": 1}]


@pytest.fixture(scope="module")
def rows(spark: SparkSession) -> Any:
    return R.from_rows(ROWS)


def test_unions(rows: Any, agrees: Any) -> None:
    both = rows.union(rows)
    assert both.count() == 8
    agrees(both)
    other = rows.select("v", "k")
    with pytest.raises(ColumnTypeError, match="column 'k' is string but the other frame's column 'v' is bigint"):
        rows.union(other)
    by_name = rows.union_by_name(other)
    assert by_name.columns == ["k", "v"]
    agrees(by_name)
    partial = rows.select("k")
    with pytest.raises(ColumnTypeError, match="column 'v' is missing from frame"):
        rows.union_by_name(partial)
    filled = rows.union_by_name(partial, allow_missing_columns=True)
    assert filled.count() == 8
    assert filled.schema["v"].nullable
    agrees(filled)
    assert rows.concat(rows, rows).count() == 12
    diagonal = partial.concat(rows.select("v"), how="diagonal")
    assert diagonal.columns == ["k", "v"]
    assert diagonal.schema["k"].nullable
    agrees(diagonal)


def test_intersections_and_differences(rows: Any, agrees: Any) -> None:
    first = rows.limit(4)
    ones = rows.filter(R.v == 1)
    assert ones.count() == 2
    assert rows.intersect(ones).count() == 1
    assert rows.intersect_all(ones).count() == 2
    assert rows.subtract(ones).count() == 2
    assert rows.except_all(ones.limit(1)).count() == 3  # a multiset difference: one of the two (a, 1) remains
    for frame in (rows.intersect(ones), rows.except_all(ones), first.subtract(ones)):
        agrees(frame)
    with pytest.raises(ColumnTypeError, match="same shape"):
        rows.intersect(rows.select("k"))


def test_an_intersection_keeps_the_model_unless_a_column_narrows(rows: Any) -> None:
    same = rows.intersect(rows)
    assert same.model is R
    assert all(isinstance(row, R) for row in same.collect())
    known = rows.drop_nulls("v")
    narrowed = rows.intersect_all(known)
    assert not narrowed.schema["v"].nullable  # nullable only where it is in both frames
    assert narrowed.model is not R
    assert sorted(row.v for row in narrowed.collect()) == [1, 1, 2]


def test_unique_keep_and_order(rows: Any, agrees: Any) -> None:
    first = rows.unique(subset="k", keep="first", maintain_order=True)
    assert first.to_dict() == {"k": ["a", "b"], "v": [1, None]}
    agrees(first)
    last = rows.unique(subset=R.k, keep="last", maintain_order=True)
    assert last.to_dict() == {"k": ["b", "a"], "v": [None, 1]}
    assert rows.unique().count() == 3
    assert rows.unique(subset="k", keep="none").to_dict() == {"k": ["b"], "v": [None]}
    assert rows.drop_duplicate_groups(["k", "v"]).count() == 2


def test_duplicated(rows: Any, agrees: Any) -> None:
    flags = rows.duplicated()
    assert flags.columns == ["duplicated"]
    assert sorted(flags.to_dict()["duplicated"]) == [False, False, False, True]
    assert sorted(rows.duplicated(subset="k", keep=False).to_dict()["duplicated"]) == [False, True, True, True]
    assert sorted(rows.duplicated(subset="k", keep="last").to_dict()["duplicated"]) == [False, False, True, True]
    agrees(flags)
    with pytest.raises(ValueError, match="keep='middle'"):
        rows.duplicated(keep="middle")  # type: ignore[arg-type]
