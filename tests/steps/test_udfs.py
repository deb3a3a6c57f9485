"""Steps carry the typed Python UDFs their SQL calls, found in the expression nodes (never in the SQL text)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import Any

import pytest
from step_frames import P, frame

from pydantable_spark import F
from pydantable_spark.steps import plan_steps
from pydantable_spark.steps.ir import Step, udfs_in

pytestmark = pytest.mark.jvm_free
"""These tests run without a JVM (pytest -m "not spark"); the ones marked spark get the session."""


@F.udf
def shout(text: str) -> str:
    return text.upper()


@F.udf
def tripled(value: int) -> int:
    return value * 3


def _all_steps(step: Step) -> Iterator[Step]:
    yield step
    for child in step.inputs():
        yield from _all_steps(child)


def _texts(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, tuple):
        for item in value:
            yield from _texts(item)


def _called(step: Step) -> set[str]:
    """The UDF names in a step's SQL text (the test's oracle: the generated names are recognisable)."""
    texts = [t for f in dataclasses.fields(step) for t in _texts(getattr(step, f.name))]
    return {name for text in texts for name in re.findall(r"__pydantable_udf_[0-9]+", text)}


def _check(df: Any) -> set[str]:
    called: set[str] = set()
    for step in _all_steps(plan_steps(df.plan)):
        assert {f.sql_name for f in step.udfs} == _called(step), step.describe()
        called |= _called(step)
    return called


def test_every_step_carries_the_udfs_its_sql_calls() -> None:
    both = {shout.function.sql_name, tripled.function.sql_name}
    assert _check(frame().select(x=shout(P.s), y=tripled(P.a))) == both
    assert _check(frame().filter(shout(P.s) == "X").with_columns(y=tripled(P.a))) == both
    assert _check(frame().sort(shout(P.s), tripled(P.a))) == both
    assert _check(frame().group_by(shout(P.s).alias("k")).agg(n=F.sum(tripled(P.a)))) == both
    assert _check(frame().join(frame(), left_on=shout(P.s), right_on=shout(F.col("s")))) == {shout.function.sql_name}
    assert _check(frame().with_columns(x=P.a + 1)) == set()


def test_a_udf_called_twice_is_carried_once() -> None:
    nodes = frame().select(x=shout(P.s) == shout(P.s), y=tripled(P.a) * tripled(P.a)).plan.exprs  # type: ignore[attr-defined]
    assert udfs_in(nodes) == (shout.function, tripled.function)
