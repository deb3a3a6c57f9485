"""Pass prune_columns: each plan node computes only the columns read above it."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from step_frames import SCAN, P, frame, lines

from pydantable_spark import F
from pydantable_spark.plan import nodes as p
from pydantable_spark.schema import Schema
from pydantable_spark.steps.prune_columns import input_needs, needed_columns

pytestmark = pytest.mark.jvm_free
"""These tests run without a JVM (pytest -m "not spark"); the ones marked spark get the session."""


def test_a_column_nobody_reads_is_never_computed() -> None:
    df = frame().with_columns(x=P.a + 1, dead=P.b * 2).select("x")
    assert lines(df) == [
        "to struct<x:bigint>",
        "  selectExpr (`a` + CAST(1 AS BIGINT)) AS `x`",
        f"    {SCAN}",
    ]


def test_each_node_needs_what_its_consumers_read() -> None:
    source = frame()
    computed = source.with_columns(x=P.a + 1, dead=P.b * 2)
    df = computed.filter(F.col("x") > 1).select("s")
    needed = needed_columns(df.plan)
    assert needed[id(df.plan)] == {"s"}
    assert needed[id(computed.plan)] == {"s", "x"}  # the filter reads x
    assert needed[id(source.plan)] == {"a", "s"}


def test_a_frame_read_twice_computes_what_either_reader_reads() -> None:
    computed = frame().with_columns(x=P.a + 1, y=P.a + 2, z=P.a + 3)
    df = computed.select("x").union(computed.select(x=F.col("y")))
    assert needed_columns(df.plan)[id(computed.plan)] == {"x", "y"}
    assert "`z`" not in "\n".join(lines(df))


def test_union_frames_compute_only_the_columns_read_above_the_union() -> None:
    df = frame().union(frame()).select("a")
    assert lines(df) == [
        "to struct<a:bigint>",
        "  union",
        "    selectExpr `a`",
        f"      {SCAN}",
        "    selectExpr `a`",
        f"      {SCAN}",
    ]


def test_sort_keys_are_read_even_when_not_selected() -> None:
    sorted_ = frame().sort("b")
    df = sorted_.select("a")
    assert needed_columns(df.plan)[id(sorted_.plan)] == {"a"}
    assert needed_columns(df.plan)[id(sorted_.plan.input)] == {"a", "b"}  # type: ignore[attr-defined]


def test_a_join_reads_its_keys_and_the_columns_read_above_it() -> None:
    left, right = frame(), frame().select("a", t=P.s, u=P.b)
    df = left.join(right, on="a").select("a", "u")
    needed = needed_columns(df.plan)
    assert needed[id(left.plan)] == {"a"}
    assert needed[id(right.plan)] == {"a", "u"}


def test_a_join_reads_what_its_condition_reads_of_each_side() -> None:
    left, right = frame(), frame().select(k=P.a, t=P.s, u=P.b)
    df = left.join(right, left_on="a", right_on="k").filter(P.b > 0).select("a")
    needed = needed_columns(df.plan)
    assert needed[id(left.plan)] == {"a", "b"}
    assert needed[id(right.plan)] == {"k"}


def test_a_semi_join_reads_only_the_right_sides_keys() -> None:
    left, right = frame(), frame().select("a", t=P.s, u=P.b)
    df = left.join(right, on="a", how="semi").select("s")
    needed = needed_columns(df.plan)
    assert needed[id(left.plan)] == {"a", "s"}
    assert needed[id(right.plan)] == {"a"}


def test_a_join_keeps_a_column_of_a_side_nothing_is_read_of() -> None:
    left, right = frame(), frame().select(t=P.s, u=P.b)
    needed = needed_columns(left.join(right, how="cross").select("b").plan)
    assert needed[id(left.plan)] == {"b"}
    assert needed[id(right.plan)] == {"t"}  # a cross join still needs the right's rows: one column carries them


def test_an_aggregation_reads_only_its_keys_and_aggregated_columns() -> None:
    source = frame().with_columns(dead=P.b * 2)
    df = source.group_by("s").agg(n=F.sum(P.a))
    assert needed_columns(df.plan)[id(source.plan)] == {"a", "s"}


@dataclass(frozen=True, slots=True)
class _Unknown(p.Plan):
    """A plan node class no pruning rule knows."""

    def derive(self) -> Schema:
        return Schema(())


def test_a_plan_node_without_a_pruning_rule_is_named() -> None:
    with pytest.raises(NotImplementedError, match="no column pruning rule for plan node _Unknown"):
        input_needs(_Unknown(), set())
