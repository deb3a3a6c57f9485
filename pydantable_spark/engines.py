"""Which engine computes a result: Spark, the local engine, or the local engine where it can (``auto``).

A result method (``collect``, ``to_arrow``, ``to_dict``, ``to_pandas``,
``count``) takes ``engine=``; without it the *default engine* applies: Spark,
unless a block of code chose another with ``use_engine`` (the pytest plugin,
``pydantable_spark.testing.plugin``, does so per test). ``"auto"`` runs a plan
on the local engine when it takes the whole plan and on Spark otherwise; each
such fall-back is reported to the recorders ``recording`` installed, so a test
suite can say which of its tests needed Spark and why.

```pycon
>>> from pydantable_spark import DataFrameModel
>>> class Point(DataFrameModel):
...     x: int
>>> points = Point.from_rows([{"x": 1}, {"x": 2}])
>>> with use_engine("local"):
...     points.to_dict()           # computed by DataFusion, no JVM
{'x': [1, 2]}
>>> default_engine()
'spark'

```
"""

from __future__ import annotations

import contextlib
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from pydantable_spark.errors import ArgumentValueError, shown
from pydantable_spark.expr.core import check_param

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["ENGINES", "Engine", "Fallback", "default_engine", "recording", "use_engine"]

Engine = Literal["spark", "local", "auto"]
"""Spark (the default); the local engine (DataFusion, for tests without a JVM; a plan it does not take is an
``UnsupportedEngineError``); or ``auto``, the local engine where it takes the plan and Spark otherwise."""

ENGINES: tuple[Engine, ...] = ("spark", "local", "auto")
"""The engine names, as ``engine=`` and ``use_engine`` take them."""

_DEFAULT: ContextVar[Engine] = ContextVar("pydantable_spark_engine", default="spark")
_RECORDERS: ContextVar[tuple[list[Fallback], ...]] = ContextVar("pydantable_spark_fallbacks", default=())


@dataclass(frozen=True, slots=True)
class Fallback:
    """A result ``auto`` computed on Spark: the call (``collect()``) and why the local engine refused it."""

    action: str
    reason: str


def default_engine() -> Engine:
    """The engine a result method uses when it is given none (``use_engine`` changes it for a block)."""
    return _DEFAULT.get()


@contextlib.contextmanager
def use_engine(engine: Engine) -> Iterator[None]:
    """Within the block, result methods given no ``engine=`` use ``engine`` (this thread and its tasks)."""
    token = _DEFAULT.set(chosen_engine("use_engine()", engine))
    try:
        yield
    finally:
        _DEFAULT.reset(token)


@contextlib.contextmanager
def recording() -> Iterator[list[Fallback]]:
    """Within the block, each result ``auto`` computed on Spark is appended to the yielded list."""
    found: list[Fallback] = []
    token = _RECORDERS.set((*_RECORDERS.get(), found))
    try:
        yield found
    finally:
        _RECORDERS.reset(token)


def fell_back(action: str, reason: str) -> None:
    """Report that ``auto`` computed ``action`` on Spark (the local engine refused the plan for ``reason``)."""
    for found in _RECORDERS.get():
        found.append(Fallback(action, reason))


def chosen_engine(action: str, engine: object) -> Engine:
    """``engine`` checked (one of ``ENGINES``), or the default engine for None; anything else is refused by name."""
    if engine is None:
        return _DEFAULT.get()
    if type(engine) is not str:
        check_param(action, "engine", engine, str)
    for known in ENGINES:
        if engine == known:
            return known
    msg = f"{action}: engine must be 'spark', 'local' or 'auto', got {shown(engine)}"
    raise ArgumentValueError(msg)
