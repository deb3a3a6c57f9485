"""Pass push_down_filters: a filter runs before the projections below it, unless that changes what it keeps."""

from __future__ import annotations

import pytest
from step_frames import SCAN, P, calls, frame, lines

from pydantable_spark import F, Window
from pydantable_spark import dtypes as dt
from pydantable_spark._spark.sql import to_sql
from pydantable_spark.expr.core import Column, RowId, Typed
from pydantable_spark.steps.ir import Scan, SelectExprs
from pydantable_spark.steps.pending import Pending, references
from pydantable_spark.steps.push_down_filters import filter_commutes, push_down_filter

pytestmark = pytest.mark.jvm_free
"""These tests run without a JVM (pytest -m "not spark"); the ones marked spark get the session."""


def test_a_filter_moves_below_a_projection_with_its_expressions_inlined() -> None:
    df = frame().with_columns(x=P.a + 1).filter(F.col("x") > 2)
    assert lines(df) == [
        "to struct<a:bigint,b:bigint,s:string,x:bigint>",
        "  selectExpr `a`, `b`, `s`, (`a` + CAST(1 AS BIGINT)) AS `x`",
        "    filter ((`a` + CAST(1 AS BIGINT)) > CAST(2 AS BIGINT))",
        f"      {SCAN}",
    ]


def test_consecutive_filters_are_one_filter_directly_over_the_scan() -> None:
    df = frame().filter(P.a > 1).select("a", "b").filter(P.b.is_null())
    assert lines(df) == [
        "to struct<a:bigint,b:bigint>",
        "  selectExpr `a`, `b`",
        "    filter (`a` > CAST(1 AS BIGINT)) AND (`b` IS NULL)",
        f"      {SCAN}",
    ]


def test_a_filter_stays_above_a_window() -> None:
    df = frame().with_columns(r=F.row_number().over(Window.order_by("a"))).filter(P.a > 1)
    assert calls(df) == ["to", "filter", "selectExpr", "scan"]


def test_a_filter_stays_above_an_expression_it_would_compute_twice() -> None:
    df = frame().with_columns(x=P.a * 7).filter((F.col("x") > 1) & (F.col("x") < 100))
    assert lines(df)[1:3] == [
        "  filter ((`x` > CAST(1 AS BIGINT)) AND (`x` < CAST(100 AS BIGINT)))",
        "    selectExpr `a`, `b`, `s`, (`a` * CAST(7 AS BIGINT)) AS `x`",
    ]


def test_a_filter_never_crosses_a_limit() -> None:
    assert calls(frame().limit(3).filter(P.a > 1)) == ["to", "filter", "limit", "scan"]


def test_only_row_wise_projections_commute_with_a_filter() -> None:
    ref = Column("a", Typed(dt.Int64(), False))
    assert filter_commutes({"a": ref, "x": ref})
    assert not filter_commutes({"a": ref, "i": RowId()})


def test_the_rule_adds_a_condition_or_flushes_the_pending_work_first() -> None:
    source = frame().plan
    pending = Pending(Scan(source), source.schema.names, references(source.schema))
    predicate = frame().filter(P.a > 1).plan.predicate  # type: ignore[attr-defined]
    pushed = push_down_filter(pending, predicate)
    assert pushed.step == Scan(source)
    assert [to_sql(c) for c in pushed.conditions] == ["(`a` > CAST(1 AS BIGINT))"]
    numbered = Pending(Scan(source), source.schema.names, {"a": RowId()})
    held = push_down_filter(numbered, predicate)
    assert held.step == SelectExprs(Scan(source), ("monotonically_increasing_id() AS `a`",))
    assert [to_sql(c) for c in held.conditions] == ["(`a` > CAST(1 AS BIGINT))"]
