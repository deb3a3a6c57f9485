"""Pass fuse_projections: a projection over a projection becomes one, unless that computes something twice."""

from __future__ import annotations

import pytest
from step_frames import SCAN, P, calls, frame, lines

from pydantable_spark import F, Window
from pydantable_spark.errors import PlanLimitError
from pydantable_spark.steps.fuse_projections import fuse_projection
from pydantable_spark.steps.ir import Scan, SelectExprs
from pydantable_spark.steps.pending import MAX_DEPTH, Pending, depth, references

pytestmark = pytest.mark.jvm_free
"""These tests run without a JVM (pytest -m "not spark"); the ones marked spark get the session."""


def test_a_chain_of_projections_is_one_select_with_the_expressions_inlined() -> None:
    df = frame().with_columns(x=P.a + 1).select(y=F.col("x") * 2)
    assert lines(df) == [
        "to struct<y:bigint>",
        "  selectExpr ((`a` + CAST(1 AS BIGINT)) * CAST(2 AS BIGINT)) AS `y`",
        f"    {SCAN}",
    ]


def test_ten_projections_and_filters_cost_one_select_and_one_filter() -> None:
    df = frame()
    for i in range(10):
        df = df.with_columns(**{f"c{i}": F.col("a") + i}).filter(F.col(f"c{i}") > i - 3)
    assert calls(df) == ["to", "selectExpr", "filter", "scan"]


def test_an_expression_read_twice_is_computed_once_in_a_select_of_its_own() -> None:
    df = frame().with_columns(x=P.a + 1).select(y=F.col("x") * F.col("x"))
    assert lines(df) == [
        "to struct<y:bigint>",
        "  selectExpr (`x` * `x`) AS `y`",
        "    selectExpr (`a` + CAST(1 AS BIGINT)) AS `x`",
        f"      {SCAN}",
    ]


def test_a_column_passed_through_may_be_read_twice() -> None:
    df = frame().with_columns(x=P.b + 1).select("x", y=P.a * P.a)
    assert lines(df)[1] == "  selectExpr (`b` + CAST(1 AS BIGINT)) AS `x`, (`a` * `a`) AS `y`"


def test_a_window_is_never_inlined_into_another_expression() -> None:
    df = frame().with_columns(r=F.row_number().over(Window.order_by("a"))).with_columns(r2=F.col("r") + 1)
    assert lines(df)[1:3] == [
        "  selectExpr `a`, `b`, `s`, `r`, (`r` + CAST(1 AS INT)) AS `r2`",
        "    selectExpr `a`, `b`, `s`, row_number() OVER (ORDER BY `a` ASC NULLS FIRST) AS `r`",
    ]


def test_columns_passed_through_stay_plain_references() -> None:
    assert lines(frame().select("a", "s"))[1] == "  selectExpr `a`, `s`"
    assert lines(frame().with_columns(x=P.a + 1).select("s", "x"))[1] == (
        "  selectExpr `s`, (`a` + CAST(1 AS BIGINT)) AS `x`"
    )


def test_a_projection_of_every_column_in_order_writes_no_select() -> None:
    assert calls(frame().select("a", "b", "s")) == ["to", "scan"]
    assert calls(frame().with_columns(x=P.a + 1).select("a", "b", "s")) == ["to", "scan"]


def test_the_rule_inlines_into_pending_columns_or_flushes_them_first() -> None:
    source = frame().plan
    pending = Pending(Scan(source), source.schema.names, references(source.schema))
    x = frame().with_columns(x=P.a + 1).plan.exprs[-1]  # type: ignore[attr-defined]
    fused = fuse_projection(pending, (x,))
    assert fused.step == Scan(source)
    assert list(fused.columns) == ["x"]
    twice = frame().with_columns(x=P.a + 1).select(y=F.col("x") * F.col("x")).plan.exprs  # type: ignore[attr-defined]
    flushed = fuse_projection(fused, twice)
    assert flushed.step == SelectExprs(Scan(source), ("(`a` + CAST(1 AS BIGINT)) AS `x`",))
    assert list(flushed.columns) == ["y"]


def test_a_loop_of_a_thousand_with_columns_lowers_into_few_steps_each_within_the_parser_limit() -> None:
    # it used to fuse into one expression 1,000 deep: RecursionError, and Spark's parser refuses ~300
    df = frame()
    for _ in range(1000):
        df = df.with_columns(a=F.col("a") + 1)
    steps = calls(df)
    assert 1000 // MAX_DEPTH < steps.count("selectExpr") <= 2 * 1000 // MAX_DEPTH + 1  # (an alias counts as a level)
    assert all(line.count("(") <= MAX_DEPTH for line in lines(df))


def test_a_filter_over_a_deep_projection_is_not_inlined_past_the_limit() -> None:
    df = frame()
    for _ in range((MAX_DEPTH - 4) // 2):  # each step nests two levels (the sum and its alias): one select
        df = df.with_columns(a=F.col("a") + 1)
    assert calls(df) == ["to", "selectExpr", "scan"]
    df = df.filter(F.col("a") + 1 + 1 + 1 > 0)  # four levels more would pass the limit: it filters the select
    assert calls(df) == ["to", "filter", "selectExpr", "scan"]


def test_an_expression_nested_deeper_than_spark_parses_is_refused_naming_it() -> None:
    deep = P.a
    for _ in range(MAX_DEPTH):
        deep = deep + 1
    with pytest.raises(PlanLimitError, match=r"column 'y' is an expression nested 202 operations deep.*up to 200"):
        lines(frame().select(y=deep))
    with pytest.raises(PlanLimitError, match=r"a filter's condition is an expression nested 202 operations deep"):
        lines(frame().filter(deep > 0))
    nested = P.a
    for _ in range(5000):  # far beyond Python's recursion limit: counted without recursion
        nested = nested + 1
    with pytest.raises(PlanLimitError, match="nested 5002 operations deep"):  # the alias is one more
        lines(frame().select(y=nested))
    assert depth(nested.node) == 5001


def test_a_deep_expression_of_named_columns_binds_and_is_refused_by_the_limit() -> None:
    # F.col("a") + 1 + ... bound recursively: a RecursionError from 300 levels on (issue 32)
    nested = F.col("a")
    for _ in range(1000):
        nested = nested + 1
    with pytest.raises(PlanLimitError, match=r"column 'y' is an expression nested 1002 operations deep.*up to 200"):
        lines(frame().select(y=nested))
    with pytest.raises(PlanLimitError, match=r"column 'y' is an expression nested 1002 operations deep"):
        lines(frame().with_columns(y=nested))
    with pytest.raises(PlanLimitError, match=r"a filter's condition is an expression nested 1002 operations deep"):
        lines(frame().filter(nested > 0))
