"""The lakehouse tier of ``.ci/run`` and ``.ci/beside`` runs every test file that holds a ``lakehouse`` test.

Those tests are skipped by the README's test command (no Delta Lake or Iceberg on Spark 4.3): a file the
tier's list (``.ci/lakehouse/tests``) left out would never run in CI, and nothing would say so.
"""

from __future__ import annotations

import ast
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
