"""The test suite's numbers the README states: how many tests each tier holds, and how long the JVM-free tiers take.

``python -m tools.suite_numbers`` collects the suite once (``pytest --collect-only``, with the markers
``conftest.py`` gives each test) and counts the tiers; ``--time`` also runs the two JVM-free tiers and
measures them (wall clock, on this machine). It prints the numbers and the README's sentence about them.
The Spark tier's time (about 30 minutes on two cores) is measured by CI's log, not here: the script
starts no Spark session.

```pycon
>>> print(summary(Counts(total=2000, jvm_free=1300, fast=670, lakehouse=40), {"fast": 31.0, "jvm_free": 150.0}))
all tests: 2000 (40 of them need Delta Lake and Iceberg: the lakehouse tier, skipped by `pytest`)
JVM-free (-m "not spark"): 1300 tests, 2.5 min
fast (-m "not spark and not typecheck"): 670 tests, 31 s
Spark tier (-m spark): 700 tests

```
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

    import pytest

__all__ = ["TIERS", "Counts", "count", "main", "summary", "timed"]

ROOT = Path(__file__).resolve().parents[1]

TIERS = {
    "jvm_free": ("JVM-free", "not spark"),
    "fast": ("fast", "not spark and not typecheck"),
}
"""The JVM-free tiers the script can run: their name in the README and their ``-m`` expression."""


@dataclass(frozen=True, slots=True)
class Counts:
    """How many tests the suite holds, in all and per tier."""

    total: int
    jvm_free: int
    fast: int
    lakehouse: int

    @property
    def spark(self) -> int:
        """The tests that need the shared session (``-m spark``)."""
        return self.total - self.jvm_free


class _Collector:
    """A pytest plugin that keeps the collected tests' markers (after ``conftest.py`` has given them theirs)."""

    def __init__(self) -> None:
        self.markers: list[set[str]] = []

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.markers = [{m.name for m in item.iter_markers()} for item in session.items]


def count(root: Path = ROOT) -> Counts:
    """Collect the suite in ``root`` (in this process, no test runs) and count its tiers."""
    import pytest

    collector = _Collector()
    here = Path.cwd()
    os.chdir(root)  # pytest collects its testpaths when run from the root with no path
    try:
        code = pytest.main(["--collect-only", "-p", "no:terminal"], [collector])
    finally:
        os.chdir(here)
    if code != 0:
        msg = f"pytest could not collect the suite (exit code {code}); run `pytest --collect-only` to see why"
        raise RuntimeError(msg)
    markers = collector.markers
    return Counts(
        total=len(markers),
        jvm_free=sum("spark" not in m for m in markers),
        fast=sum("spark" not in m and "typecheck" not in m for m in markers),
        lakehouse=sum("lakehouse" in m for m in markers),
    )


def timed(tier: str, root: Path = ROOT) -> float:
    """Run the JVM-free ``tier`` (``"fast"`` or ``"jvm_free"``) as the README's command does; its wall time in s."""
    started = time.monotonic()
    command = [sys.executable, "-m", "pytest", "-q", "-m", TIERS[tier][1]]
    done = subprocess.run(command, cwd=root, capture_output=True, text=True, check=False)
    elapsed = time.monotonic() - started
    if done.returncode != 0:
        msg = f"`pytest -m {TIERS[tier][1]!r}` failed (exit code {done.returncode}):\n{done.stdout[-2000:]}"
        raise RuntimeError(msg)
    return elapsed


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.1f} min"


def summary(counts: Counts, times: dict[str, float]) -> str:
    """The numbers, one tier a line (with the time of the tiers in ``times``)."""
    lines = [
        f"all tests: {counts.total} ({counts.lakehouse} of them need Delta Lake and Iceberg: the lakehouse tier, "
        "skipped by `pytest`)"
    ]
    for tier in ("jvm_free", "fast"):
        name, expression = TIERS[tier]
        took = f", {_duration(times[tier])}" if tier in times else ""
        lines.append(f'{name} (-m "{expression}"): {getattr(counts, tier)} tests{took}')
    lines.append(f"Spark tier (-m spark): {counts.spark} tests")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    """Print the suite's numbers; ``--time`` runs the JVM-free tiers too."""
    parser = argparse.ArgumentParser(prog="python -m tools.suite_numbers", description=__doc__.split("\n\n")[0])
    parser.add_argument("--time", action="store_true", help="also run the two JVM-free tiers and time them")
    options = parser.parse_args(argv)
    counts = count()
    times = {tier: timed(tier) for tier in ("fast", "jvm_free")} if options.time else {}
    sys.stdout.write(summary(counts, times) + "\n")


if __name__ == "__main__":
    main()
