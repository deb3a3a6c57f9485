"""Frames from Python rows (no Spark until executed) and their steps as text, for the steps tests."""

from __future__ import annotations

from typing import Any

from pydantable_spark import DataFrameModel
from pydantable_spark.steps import plan_steps, render_steps


class P(DataFrameModel):
    a: int
    b: int | None
    s: str


class L(DataFrameModel):
    id: int
    tags: list[str]
    more: list[int]


def frame() -> Any:
    return P.from_rows([{"a": 1, "b": None, "s": "x"}, {"a": 2, "b": 3, "s": "y"}])


def lists() -> Any:
    return L.from_rows([{"id": 1, "tags": ["t"], "more": [1]}])


def lines(df: Any) -> list[str]:
    """The steps of ``df``'s plan, one per line, the last call first (indentation kept)."""
    return list(render_steps(plan_steps(df.plan)))


def calls(df: Any) -> list[str]:
    """The Spark method of each step, the last call first."""
    return [line.strip().split(" ")[0] for line in lines(df)]


SCAN = "scan 2 rows from Python"
