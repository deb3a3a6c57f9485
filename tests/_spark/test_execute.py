"""The executor: every step class has one, and a step class without one is named."""

from __future__ import annotations

import inspect
from dataclasses import dataclass

import pytest

from pydantable_spark._spark.execute import EXECUTORS, execute
from pydantable_spark.steps import ir

pytestmark = pytest.mark.jvm_free
"""These tests run without a JVM (pytest -m "not spark"); the ones marked spark get the session."""


def step_classes() -> set[type[ir.Step]]:
    return {
        cls
        for _, cls in inspect.getmembers(ir, inspect.isclass)
        if issubclass(cls, ir.Step) and cls is not ir.Step and cls.__module__ == ir.__name__
    }


def test_every_step_class_has_an_executor() -> None:
    assert len(step_classes()) >= 14
    assert sorted(cls.__name__ for cls in step_classes() if cls not in EXECUTORS) == []


@dataclass(frozen=True, slots=True)
class _Unknown(ir.Step):
    """A step class no executor knows."""


def test_a_step_without_an_executor_is_named() -> None:
    with pytest.raises(NotImplementedError, match="no Spark executor for step _Unknown"):
        execute(_Unknown())
