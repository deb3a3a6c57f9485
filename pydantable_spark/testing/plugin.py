"""A pytest plugin: run a test suite's pipelines on the local engine, and see how much of it needs Spark.

Installed with the package (entry point ``pytest11``), it does nothing until
asked. ``pytest --pydantable-engine=local`` (or ``pydantable_engine = local``
in the ini file, or ``@pytest.mark.pydantable_engine("local")`` on a test or
module) makes every result method called without ``engine=`` in the test run
on the local engine, with no JVM; a plan it does not take fails the test with
an ``UnsupportedEngineError`` naming the part. ``auto`` runs each result on
the local engine where it can and on Spark otherwise, and the end of the run
reports which tests needed Spark and why::

    ======================== pydantable-spark engines ========================
    engine auto: 41 of 44 tests ran without Spark; 3 needed it:
      tests/test_orders.py::test_hashes: collect(): the local engine has no kernel for xpath_string() ...

A test's own ``engine=`` arguments always win.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pytest

from pydantable_spark.engines import ENGINES, Engine, Fallback, chosen_engine, recording, use_engine

if TYPE_CHECKING:
    from collections.abc import Iterator

    from _pytest.terminal import TerminalReporter

__all__: list[str] = []

_MARKER = "pydantable_engine"


@dataclass(frozen=True, slots=True)
class _Tally:
    """What each test ran on, under an engine other than Spark: test id → the results that fell back."""

    engines: dict[str, Engine] = field(default_factory=dict)
    fallbacks: dict[str, list[Fallback]] = field(default_factory=dict)


_TALLY = pytest.StashKey[_Tally]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("pydantable-spark")
    group.addoption(
        "--pydantable-engine",
        choices=ENGINES,
        default=None,
        help="the engine result methods use when a test passes none: spark (the default), local (no JVM; a plan it "
        "does not take fails), auto (local where it can, Spark otherwise, reported at the end)",
    )
    parser.addini(_MARKER, "the default of --pydantable-engine", default="spark")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", f"{_MARKER}(engine): the engine this test's results use when it passes none (spark, local, auto)"
    )
    config.stash[_TALLY] = _Tally()


def _engine_of(item: pytest.Item) -> Engine:
    marker = item.get_closest_marker(_MARKER)
    if marker is not None:
        if len(marker.args) != 1:
            msg = f"{item.nodeid}: @pytest.mark.{_MARKER}(...) takes one engine name, got {marker.args!r}"
            raise pytest.UsageError(msg)
        return chosen_engine(f"@pytest.mark.{_MARKER}()", marker.args[0])
    given = item.config.getoption("--pydantable-engine") or item.config.getini(_MARKER)
    return chosen_engine("--pydantable-engine", given)


@pytest.fixture(autouse=True)
def _pydantable_engine(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every test runs its results on the engine chosen for it; under ``auto`` its fall-backs are counted."""
    engine = _engine_of(request.node)
    if engine == "spark":
        yield
        return
    tally = request.config.stash[_TALLY]
    tally.engines[request.node.nodeid] = engine
    with use_engine(engine), recording() as fallbacks:
        yield
    if fallbacks:
        tally.fallbacks[request.node.nodeid] = list(fallbacks)


def pytest_terminal_summary(terminalreporter: TerminalReporter, exitstatus: int, config: pytest.Config) -> None:
    tally = config.stash.get(_TALLY, None)
    if tally is None or not tally.engines:
        return
    terminalreporter.section("pydantable-spark engines")
    for engine in sorted(set(tally.engines.values())):
        tests = [t for t, e in tally.engines.items() if e == engine]
        needed = [t for t in tests if t in tally.fallbacks]
        line = f"engine {engine}: {len(tests) - len(needed)} of {len(tests)} tests ran without Spark"
        terminalreporter.write_line(line + (f"; {len(needed)} needed it:" if needed else ""))
        for test in needed:
            first = tally.fallbacks[test][0]
            more = len(tally.fallbacks[test]) - 1
            extra = f" (and {more} more)" if more else ""
            terminalreporter.write_line(f"  {test}: {first.action}: {first.reason}{extra}")
