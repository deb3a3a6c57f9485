"""One real local SparkSession for the whole test run (doctests included)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import pytest
from hypothesis import settings
from pyspark.sql import SparkSession

# CI explores the same examples every run (so a landing never fails by chance); local runs explore anew.
settings.register_profile("ci", derandomize=True, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

if TYPE_CHECKING:
    from collections.abc import Iterator


@pytest.fixture(scope="session", autouse=True)
def spark() -> Iterator[SparkSession]:
    session = (
        SparkSession.builder.master("local[2]")
        .appName("pydantable-spark-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .config("spark.log.level", "ERROR")
        .getOrCreate()
    )
    yield session
    session.stop()


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
