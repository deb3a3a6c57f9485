"""``tools/suite_numbers.py``: the README's test counts come from the markers the suite gives its tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.suite_numbers import Counts, count

pytestmark = pytest.mark.jvm_free

PROJECT = """
[tool.pytest.ini_options]
testpaths = ["tests"]
markers = ["spark: x", "typecheck: x", "lakehouse: x", "jvm_free: x"]
"""

CONFTEST = """
import pytest

def pytest_collection_modifyitems(config, items):
    for item in items:  # as the project's conftest.py does: a test is a Spark test unless marked jvm_free
        if item.get_closest_marker("jvm_free") is None:
            item.add_marker(pytest.mark.spark)
"""

TESTS = """
import pytest

@pytest.mark.jvm_free
def test_plain(): pass

@pytest.mark.jvm_free
@pytest.mark.typecheck
def test_mypy(): pass

def test_needs_spark(): pass

@pytest.mark.lakehouse
def test_delta(): pass

@pytest.mark.parametrize("n", [1, 2])
@pytest.mark.jvm_free
def test_each(n): pass
"""


def test_the_tiers_are_counted_by_the_markers_the_suite_gives(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(PROJECT)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "conftest.py").write_text(CONFTEST)
    (tmp_path / "tests" / "test_tiers.py").write_text(TESTS)
    counts = count(tmp_path)
    assert counts == Counts(total=6, jvm_free=4, fast=3, lakehouse=1)
    assert counts.spark == 2
