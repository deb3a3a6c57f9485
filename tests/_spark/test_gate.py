"""The reconciliation gate at collect: Spark's schema is checked against the derived one."""

from __future__ import annotations

import logging

import pytest
from pyspark.sql import SparkSession

from pydantable_spark import DataFrame, Schema
from pydantable_spark import dtypes as dt
from pydantable_spark.errors import NullabilityError
from pydantable_spark.model import row_model
from pydantable_spark.plan import nodes as p
from pydantable_spark.plan.sources import SparkData

pytestmark = pytest.mark.jvm_free
"""These tests run without a JVM (pytest -m "not spark"); the ones marked spark get the session."""


def frame_claiming(sdf: object, schema: Schema) -> DataFrame[object]:
    """A frame whose plan states ``schema`` for ``sdf`` (as a derivation bug would)."""
    return DataFrame(p.Source(SparkData(sdf), schema), row_model(schema))


def test_a_looser_spark_schema_than_derived_fails_the_gate(spark: SparkSession) -> None:
    sdf = spark.sql("select cast(null as bigint) as n")
    claimed = Schema.of(dt.Field("n", dt.Int64(), False))
    with pytest.raises(NullabilityError, match="n: nullable in the source"):
        frame_claiming(sdf, claimed).collect()


def test_a_reconcilable_difference_is_logged_and_reconciled(
    spark: SparkSession, caplog: pytest.LogCaptureFixture
) -> None:
    sdf = spark.sql("select cast(1 as int) as n")
    claimed = Schema.of(dt.Field("n", dt.Int64(), True))
    with caplog.at_level(logging.WARNING, logger="pydantable_spark"):
        assert frame_claiming(sdf, claimed).to_dict() == {"n": [1]}
    assert "differs from the derived schema" in caplog.text
