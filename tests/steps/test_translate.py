"""Translation: every plan node class has one (and a pruning rule), and each becomes its Spark calls."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from dataclasses import dataclass
from typing import Any

import pytest
from step_frames import SCAN, P, calls, frame, lines, lists

import pydantable_spark.plan as plan_package
from pydantable_spark import DataFrameModel, F
from pydantable_spark.plan import nodes as p
from pydantable_spark.schema import Schema
from pydantable_spark.steps.prune_columns import INPUT_NEEDS
from pydantable_spark.steps.translate import TRANSLATIONS, relation

pytestmark = pytest.mark.jvm_free
"""These tests run without a JVM (pytest -m "not spark"); the ones marked spark get the session."""


def plan_node_classes() -> set[type[p.Plan]]:
    """Every plan node class defined in ``pydantable_spark.plan``."""
    found: set[type[p.Plan]] = set()
    for info in pkgutil.iter_modules(plan_package.__path__, prefix=f"{plan_package.__name__}."):
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, p.Plan) and cls is not p.Plan and cls.__module__ == module.__name__:
                found.add(cls)
    return found


def test_the_plan_node_classes_are_found() -> None:
    names = {cls.__name__ for cls in plan_node_classes()}
    assert {"Source", "Project", "Filter", "Join", "Aggregate", "Union", "SetOperation", "Explode"} <= names


def test_every_plan_node_class_has_a_translation() -> None:
    assert sorted(cls.__name__ for cls in plan_node_classes() if cls not in TRANSLATIONS) == []


def test_every_plan_node_class_has_a_pruning_rule() -> None:
    assert sorted(cls.__name__ for cls in plan_node_classes() if cls not in INPUT_NEEDS) == []


@dataclass(frozen=True, slots=True)
class _Unknown(p.Plan):
    """A plan node class no translation knows."""

    def derive(self) -> Schema:
        return Schema(())


def test_a_plan_node_without_a_translation_is_named() -> None:
    with pytest.raises(NotImplementedError, match="no Spark lowering for plan node _Unknown"):
        relation(_Unknown(), {})


class Q(DataFrameModel):
    a: int
    s: str


CASES: dict[str, tuple[Any, list[str]]] = {
    "source": (lambda: frame(), ["to", "scan"]),
    "sort, limit, offset, unique": (
        lambda: frame().sort("a").limit(2).offset(1).unique(subset="s"),
        ["to", "dropDuplicates", "offset", "limit", "sort", "scan"],
    ),
    "join": (
        lambda: frame().join(frame().select("a", t=P.s), on="a"),
        ["to", "selectExpr", "join", "scan", "selectExpr", "scan"],
    ),
    "group_by": (lambda: frame().group_by("s").agg(n=F.sum(P.a)), ["to", "groupBy", "scan"]),
    "union": (lambda: frame().union(frame()), ["to", "union", "scan", "scan"]),
    "intersect": (lambda: frame().intersect(frame()), ["to", "intersect", "scan", "scan"]),
    "explode": (lambda: lists().explode("tags"), ["to", "selectExpr", "scan"]),
    "explode of two lists": (lambda: lists().explode(["tags", "more"]), ["to", "selectExpr", "selectExpr", "scan"]),
    "melt": (
        lambda: frame().select("a", "b").melt(id_vars="a", value_vars=["b"]),
        ["to", "unpivot", "selectExpr", "scan"],
    ),
    "as_model": (lambda: frame().as_model(Q), ["to", "selectExpr", "scan"]),
    "a name that is not an identifier": (
        lambda: frame().rename({"s": "unit price"}),
        ["to", "toDF", "selectExpr", "scan"],
    ),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_each_plan_node_becomes_its_spark_calls(case: str) -> None:
    build, expected = CASES[case]
    assert calls(build()) == expected


def test_a_join_renames_the_right_side_and_names_the_outputs() -> None:
    df = frame().join(frame().select("a", t=P.s), on="a")
    assert lines(df) == [  # the right side's projection gives its columns private names
        "to struct<a:bigint,b:bigint,s:string,t:string>",
        "  selectExpr `a`, `b`, `s`, `__pydantable_r1` AS `t`",
        "    join inner on (`a` = `__pydantable_r0`)",
        f"      {SCAN}",
        "      selectExpr `a` AS `__pydantable_r0`, `s` AS `__pydantable_r1`",
        f"        {SCAN}",
    ]


def test_the_columns_a_join_outputs_fuse_with_the_projection_above_it() -> None:
    df = frame().join(frame().select("a", t=P.s), on="a").select(x=P.b + 1, y=F.col("t"))
    assert lines(df) == [  # the join's outputs and the select are one projection
        "to struct<x:bigint,y:string>",
        "  selectExpr (`b` + CAST(1 AS BIGINT)) AS `x`, `__pydantable_r1` AS `y`",
        "    join inner on (`a` = `__pydantable_r0`)",
        f"      {SCAN}",
        "      selectExpr `a` AS `__pydantable_r0`, `s` AS `__pydantable_r1`",
        f"        {SCAN}",
    ]


def test_user_names_go_by_their_spark_names_until_the_last_step() -> None:
    df = frame().rename({"s": "unit price"}).filter(F.col("unit price") == "x")
    assert lines(df)[1] == "  toDF 'a', 'b', 'unit price'"
    assert not any("unit price" in line for line in lines(df)[2:])  # no SQL holds the name
