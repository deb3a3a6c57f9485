"""The tiers of ``.ci/run`` run what they say: every file with a ``lakehouse`` test, each test group in one process.

The lakehouse tests are skipped by the README's test command (no Delta Lake or Iceberg on Spark 4.3): a file the
tier's list (``.ci/lakehouse/tests``) left out would never run in CI, and nothing would say so. And the README's
command (``pytest -n 2 --dist loadgroup``) sends the tests of an ``xdist_group`` to one process, where they share
a costly module fixture or the catalog's Spark values: a pytest that keeps pytest-xdist from naming the group
would split them, and only the run's time would show it.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.jvm_free


def _marks_lakehouse(path: Path) -> bool:
    """Whether the module's code (not a string in it) names ``pytest.mark.lakehouse``."""
    return any(
        isinstance(node, ast.Attribute)
        and node.attr == "lakehouse"
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "mark"
        for node in ast.walk(ast.parse(path.read_text()))
    )


def test_the_lakehouse_tier_lists_every_file_with_a_lakehouse_test() -> None:
    listed = set((ROOT / ".ci" / "lakehouse" / "tests").read_text().split())
    marked = {str(path.relative_to(ROOT)) for path in (ROOT / "tests").rglob("test_*.py") if _marks_lakehouse(path)}
    assert {"tests/test_lakehouse.py", "tests/test_merge.py"} <= marked
    assert marked == listed


def test_the_tests_of_a_group_run_in_one_process(tmp_path: Path) -> None:
    (tmp_path / "test_grouped.py").write_text(
        "import os, pathlib, pytest\n"
        "@pytest.mark.xdist_group('shared')\n"
        "@pytest.mark.parametrize('n', range(6))\n"
        "def test_one(n):\n"
        "    pathlib.Path(f'ran-{n}').write_text(os.environ['PYTEST_XDIST_WORKER'])\n"
    )
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2", "--dist", "loadgroup"]
    done = subprocess.run([*command, "test_grouped.py"], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-2000:]
    workers = {(tmp_path / f"ran-{n}").read_text() for n in range(6)}
    assert len(workers) == 1, f"the group's six tests ran in {sorted(workers)}"
