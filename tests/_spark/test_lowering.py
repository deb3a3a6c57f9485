"""Lowering: every node compiles, plans fuse into few Spark calls, SQL text is safe."""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pydantable_spark.expr as expr_package
from pydantable_spark import DataFrameModel, F
from pydantable_spark._spark import lower as lowering
from pydantable_spark._spark.sql import COMPILERS, field_sql
from pydantable_spark.expr import call, conditional, core, operators
from pydantable_spark.expr.catalog import ENTRIES
from pydantable_spark.expr.core import Node

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


pytestmark = pytest.mark.jvm_free
"""These tests run without a JVM (pytest -m "not spark"); the ones marked spark get the session."""


class P(DataFrameModel):
    a: int
    b: int | None
    s: str


def all_node_classes() -> set[type[Node]]:
    found: set[type[Node]] = set()
    for module in (core, operators, conditional, call):
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, Node) and obj is not Node and not obj.__name__.startswith("_"):
                found.add(obj)
    return found


def test_every_expression_node_has_a_spark_lowering() -> None:
    missing = sorted(cls.__name__ for cls in all_node_classes() if cls not in COMPILERS)
    assert missing == []
    assert expr_package.Node is Node


def test_every_special_catalog_entry_has_its_compiler() -> None:
    from pydantable_spark._spark.sql import SPECIAL_CALLS

    specials = {entry.name for entry in ENTRIES if entry.spelling.special}
    assert specials == set(SPECIAL_CALLS)


def test_every_node_class_is_a_frozen_slotted_dataclass() -> None:
    for cls in all_node_classes():
        assert cls.__dataclass_params__.frozen, cls  # type: ignore[attr-defined]
        assert "__slots__" in cls.__dict__, cls


def steps(frame: Any) -> list[str]:
    return [line.strip().split(" ")[0] for line in lowering.render_steps(lowering.plan_steps(frame.plan))]


@pytest.fixture(scope="module")
def frame(spark: SparkSession) -> Any:
    return P.from_rows([{"a": i, "b": i if i % 2 else None, "s": str(i)} for i in range(10)])


@pytest.mark.spark
def test_a_chain_of_projections_and_filters_fuses_into_one_filter_and_one_select(frame: Any) -> None:
    chain = frame
    for i in range(10):
        chain = chain.with_columns(**{f"c{i}": F.col("a") + i}).filter(F.col(f"c{i}") > i - 3)
    assert steps(chain) == ["to", "selectExpr", "filter", "scan"]
    assert chain.count() == 10
    assert chain.collect()[0].c9 == 9


def test_filters_alone_need_no_projection(frame: Any) -> None:
    assert steps(frame.filter(P.a > 1).filter(P.b.is_null())) == ["to", "filter", "scan"]
    assert steps(frame) == ["to", "scan"]


@pytest.mark.spark
def test_fusion_stops_where_an_expression_would_be_computed_twice(frame: Any) -> None:
    chain = frame.with_columns(x=P.a * 7 + 1).select(y=F.col("x") + F.col("x"))
    assert steps(chain) == ["to", "selectExpr", "selectExpr", "scan"]
    assert sorted(chain.to_dict()["y"]) == [2 * (7 * i + 1) for i in range(10)]


@pytest.mark.spark
def test_sort_limit_and_distinct_are_their_own_steps(frame: Any) -> None:
    chain = frame.with_columns(x=P.a % 3).sort("x", P.a).limit(5).unique(subset="x").select("x")
    assert steps(chain) == ["to", "selectExpr", "dropDuplicates", "limit", "sort", "selectExpr", "scan"]
    assert sorted(chain.to_dict()["x"]) == [0, 1]


@pytest.mark.spark
def test_sorting_by_a_computed_expression(frame: Any) -> None:
    assert frame.sort(P.a % 3, -P.a).to_dict()["a"] == [9, 6, 3, 0, 7, 4, 1, 8, 5, 2]


@pytest.mark.spark
def test_a_source_is_uploaded_to_spark_once(frame: Any) -> None:
    source = frame.plan
    first = lowering.spark_frame(source)
    assert lowering.spark_frame(source) is first


@pytest.mark.parametrize("name", ["plain", "with space", "dot.ted", "back`tick", "ünï", "select", "1st"])
def test_any_column_name_survives_lowering(spark: SparkSession, name: str) -> None:
    sdf = spark.createDataFrame([(1,)], f"{field_sql(name)} bigint not null")
    from pydantable_spark import DataFrame

    frame = DataFrame.from_spark(sdf)
    out = frame.with_columns(**{name: F.col(name) + 1}).filter(F.col(name) > 0).sort(name)
    assert out.to_dict() == {name: [2]}


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=30))
def test_string_literals_round_trip(spark: SparkSession, text: str) -> None:
    sdf = spark.createDataFrame([(1,)], "x bigint not null")
    from pydantable_spark import DataFrame

    got = DataFrame.from_spark(sdf).select(v=F.lit(text), eq=F.lit(text) == text).to_dict()
    assert got == {"v": [text], "eq": [True]}


@pytest.mark.spark
def test_nested_floor_division_and_modulo_grow_the_sql_linearly(frame: Any) -> None:
    from pydantable_spark._spark.sql import to_sql

    expr = P.a
    sizes = []
    for _ in range(6):
        expr = (expr // 3) % 7
        sizes.append(len(to_sql(frame.select(x=expr).plan.exprs[0])))
    assert sizes[-1] < 3 * sizes[2] * 2  # linear-ish, not 4x per level
    got = frame.select(x=((P.a - 20) // 3) % 7, y=(P.a * -7) // (P.a - 11)).sort("x").to_dict()
    expected_x = sorted(((a - 20) // 3) % 7 for a in range(10))
    assert got["x"] == expected_x


@pytest.mark.spark
def test_a_loop_of_many_with_columns_and_filters_runs_on_spark(spark: SparkSession, agrees: Any) -> None:
    # 500 steps used to fail with RecursionError (and one fused expression 500 deep, which Spark cannot parse)
    class Row(DataFrameModel):
        x: int
        y: int

    df = Row.from_rows([{"x": 0, "y": i} for i in range(5)])
    for i in range(500):
        df = df.with_columns(x=F.col("x") + 1)
        if i % 50 == 0:
            df = df.filter(F.col("x") + F.col("y") > i // 100)
    agrees(df)
    assert df.sort("y").to_dict() == {"x": [500] * 5, "y": [0, 1, 2, 3, 4]}
