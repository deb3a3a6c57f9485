"""Conditional and NULL functions refused where Spark would convert silently; the table of functions not offered."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from pyspark.sql import Column
from pyspark.sql import functions as sf

from pydantable_spark import DataFrameModel, F
from pydantable_spark.errors import ColumnTypeError
from pydantable_spark.expr.catalog import CATALOG
from pydantable_spark.expr.catalog.unoffered import NOT_OFFERED

pytestmark = pytest.mark.jvm_free
"""These tests run without a JVM (pytest -m "not spark"); the ones marked spark get the session."""


class C(DataFrameModel):
    n: int | None
    s: str
    day: datetime.date | None
    tags: list[str]
    m: dict[str, int]


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: F.nvl(C.s, C.n), r"F\.nvl\(\): no common type for column 'C\.s' of type str"),
        (lambda: F.ifnull(C.n, C.s), r"F\.ifnull\(\): no common type"),  # an alias: the name the user called
        (lambda: F.nvl2(C.n, C.s, C.day), r"F\.nvl2\(\): no common type"),
        (
            lambda: F.nullif(C.s, C.n),
            r"F\.nullif\(\): cannot compare column 'C\.s' of type str \(string\) with column 'C\.n'",
        ),
        (lambda: F.nullif(C.m, C.m), r"F\.nullif\(\): cannot compare"),
        (lambda: F.equal_null(C.day, C.s), r"F\.equal_null\(\): cannot compare"),
        (lambda: F.nullifzero(C.s), r"F\.nullifzero\(\): col must be a number"),
        (lambda: F.zeroifnull(C.day), r"F\.zeroifnull\(\): col must be a number"),
    ],
)
def test_calls_spark_would_convert_silently_are_refused(build: Any, message: str) -> None:
    with pytest.raises(ColumnTypeError, match=message):
        build()


def test_the_result_types_a_user_reads() -> None:
    def typed(expr: Any) -> str:
        return str(expr.typed)

    assert typed(F.nvl(C.n, 0)) == "int (bigint)"
    assert typed(F.nvl(C.n, C.n)) == "int | None (bigint)"
    assert typed(F.nvl2(C.s, C.n, 1)) == "int | None (bigint)"
    assert typed(F.nullif(C.s, F.lit("x"))) == "str | None (string)"
    assert typed(F.equal_null(C.n, 3)) == "bool (boolean)"
    assert typed(F.zeroifnull(C.n)) == "int (bigint)"
    assert typed(F.isnull(C.day)) == "bool (boolean)"
    assert typed(F.typeof(C.tags)) == "str (string)"


def test_the_functions_not_offered_are_pysparks_and_not_in_the_catalog() -> None:
    for name, reason in NOT_OFFERED.items():
        assert name not in CATALOG, name
        assert not hasattr(F, name), name
        assert hasattr(sf, name) or hasattr(Column, name), name
        assert reason.endswith("."), name
        assert len(reason) <= 120, name
