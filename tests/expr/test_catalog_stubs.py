"""The stubs type checkers read for ``F`` and the namespaces are exactly what the catalog gives."""

from __future__ import annotations

import pyspark
import pytest

from pydantable_spark.expr.catalog import CATALOG
from pydantable_spark.expr.catalog.unoffered import NOT_OFFERED
from tools.catalog_stubs import STUBS
from tools.functions_page import PAGE, page, status

pytestmark = pytest.mark.jvm_free
"""These tests run without a JVM (pytest -m "not spark"); the ones marked spark get the session."""


def test_the_generated_stubs_are_up_to_date() -> None:
    stale = [str(path) for path, render in STUBS.items() if not path.exists() or path.read_text() != render()]
    assert stale == [], f"regenerate with: python -m tools.catalog_stubs ({stale})"


def test_the_functions_page_is_up_to_date() -> None:
    written = PAGE.read_text()
    if f"PySpark {pyspark.__version__}'s" not in written:
        pytest.skip(f"the page was written for another PySpark than {pyspark.__version__}: regenerate it")
    assert written == page(), "regenerate with: python -m tools.functions_page"


def test_every_pyspark_function_has_one_status() -> None:
    assert not set(NOT_OFFERED) & set(CATALOG), "a name is both offered and not offered"
    assert status("upper") == "F.upper, str.upper · local"  # the local engine runs it too
    assert status("AnalyzeArgument").startswith("a class")
    assert status("product").startswith("not offered: Spark SQL has no product function")
