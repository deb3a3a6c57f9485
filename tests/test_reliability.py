"""The reliability table in the docs is the one the tests give (``benchmarks/reliability.py``)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.jvm_free
"""These tests run without a JVM (pytest -m "not spark"); the ones marked spark get the session."""


ROOT = Path(__file__).resolve().parents[1]


def test_the_reliability_table_in_the_docs_matches_the_tests() -> None:
    spec = importlib.util.spec_from_file_location("reliability", ROOT / "benchmarks" / "reliability.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["reliability"] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    page = (ROOT / "docs" / "reliability.md").read_text()
    shown = page.split("<!-- reliability-table:start -->\n")[1].split("\n<!-- reliability-table:end -->")[0]
    assert shown == module.table(), "run `python benchmarks/reliability.py` and paste its table into the page"
    assert "pending" not in shown
    lost = [line.split(" | ")[3] for line in shown.splitlines()[2:]]
    assert lost
    assert all(cell.startswith("0") for cell in lost), lost
