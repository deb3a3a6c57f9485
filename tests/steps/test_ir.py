"""The Step IR: what each step says about itself, without pyspark."""

from __future__ import annotations

import pytest
from step_frames import SCAN, frame

from pydantable_spark import dtypes as dt
from pydantable_spark._spark.types import struct_of
from pydantable_spark.schema import Schema
from pydantable_spark.steps.ir import Scan, ToSchema, Where, render_steps

pytestmark = pytest.mark.jvm_free
"""These tests run without a JVM (pytest -m "not spark"); the ones marked spark get the session."""


EVERY_TYPE = Schema(
    (
        dt.Field("flag", dt.Boolean(), True),
        dt.Field("i8", dt.Int8(), False),
        dt.Field("i16", dt.Int16(), True),
        dt.Field("i32", dt.Int32(), True),
        dt.Field("i64", dt.Int64(), False),
        dt.Field("f32", dt.Float32(), True),
        dt.Field("f64", dt.Float64(), True),
        dt.Field("money", dt.Decimal(10, 2), True),
        dt.Field("unit price", dt.String(), True),
        dt.Field("raw", dt.Binary(), True),
        dt.Field("day", dt.Date(), True),
        dt.Field("at", dt.Datetime(), True),
        dt.Field("local", dt.DatetimeNTZ(), True),
        dt.Field("took", dt.Duration(), True),
        dt.Field("tags", dt.List(dt.String(), False), True),
        dt.Field("scores", dt.Map(dt.String(), dt.List(dt.Float64(), True), True), True),
        dt.Field("address", dt.Struct((dt.Field("zip code", dt.String(), False),)), True),
    )
)


def test_the_gate_describes_its_target_as_spark_spells_it() -> None:
    step = ToSchema(Scan(frame().plan), EVERY_TYPE)
    assert step.describe() == f"to {struct_of(EVERY_TYPE).simpleString()}"  # pyspark's own spelling


def test_steps_render_the_last_call_first_and_inputs_indented() -> None:
    source = frame().plan
    step = ToSchema(Where(Scan(source), "(`a` > CAST(1 AS BIGINT))"), source.schema, gate=True)
    assert list(render_steps(step)) == [
        "to struct<a:bigint,b:bigint,s:string>",
        "  filter (`a` > CAST(1 AS BIGINT))",
        f"    {SCAN}",
    ]
