"""A typed pipeline with ``as_model`` stages, explode, windows and string/date functions, on both engines."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from benchmarks.local_engine.typed_pipeline import STAGES
from pydantable_spark.testing import assert_frame_equal

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


@pytest.mark.parametrize("stage", list(STAGES))
def test_each_stage_collects_on_the_local_engine_with_sparks_rows(spark: SparkSession, stage: str) -> None:
    frame = STAGES[stage]()
    on_spark = frame.to_arrow()
    local = frame.to_arrow(engine="local")
    assert local.schema == on_spark.schema
    assert_frame_equal(frame, on_spark.to_pylist(), engine="local", rtol=0, atol=0)
    assert [row.model_dump() for row in frame.collect(engine="local")] == [r.model_dump() for r in frame.collect()]
