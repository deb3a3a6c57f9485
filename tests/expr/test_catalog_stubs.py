"""The stubs type checkers read for ``F`` and the namespaces are exactly what the catalog gives."""

from __future__ import annotations

from pydantable_spark.expr.catalog.stubs import STUBS


def test_the_generated_stubs_are_up_to_date() -> None:
    stale = [str(path) for path, render in STUBS.items() if not path.exists() or path.read_text() != render()]
    assert stale == [], f"regenerate with: python -m pydantable_spark.expr.catalog.stubs ({stale})"
