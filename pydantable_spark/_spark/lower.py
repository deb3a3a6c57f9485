"""Plans → Spark: the steps of ``pydantable_spark.steps`` (pure Python), then their Spark calls.

``steps.plan_steps`` turns a plan into a tree of steps, one per Spark
DataFrame call, with no Spark at all (that is what ``explain()`` shows);
``execute.execute`` makes the calls. This module composes the two for the
rest of the package: ``to_spark`` (the checked frame), ``lower`` (before the
final gate) and ``arrow_ready``.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from pydantable_spark import dtypes as dt
from pydantable_spark._spark.execute import execute, spark_frame
from pydantable_spark._spark.sql import column_sql, spark_name
from pydantable_spark._spark.types import struct_of
from pydantable_spark.arrow import needs_relaxing
from pydantable_spark.errors import SparkAnalysisError
from pydantable_spark.plan import nodes as p
from pydantable_spark.schema import Schema
from pydantable_spark.steps.ir import Step, ToSchema, render_steps
from pydantable_spark.steps.translate import plan_steps

if TYPE_CHECKING:
    from collections.abc import Iterator

    from pyspark.sql import DataFrame as SparkDataFrame

__all__ = [
    "Step",
    "arrow_ready",
    "execute",
    "lower",
    "plan_steps",
    "render_steps",
    "spark_frame",
    "to_spark",
]


def lower(plan: p.Plan, session: Any = None) -> SparkDataFrame:
    """The Spark DataFrame of ``plan`` as lowered, before the final reconciliation gate."""
    gate = plan_steps(plan)
    assert isinstance(gate, ToSchema)
    with _in_plan(plan):
        return execute(gate.input, session)


def to_spark(plan: p.Plan, session: Any = None) -> SparkDataFrame:
    """The Spark DataFrame of ``plan``, checked against the derived schema and passed through ``to()``."""
    with _in_plan(plan):
        return execute(plan_steps(plan), session)


@contextmanager
def _in_plan(plan: p.Plan) -> Iterator[None]:
    """Add the façade's logical plan to a ``SparkAnalysisError``, so it names the operations involved."""
    try:
        yield
    except SparkAnalysisError as error:
        if not error.plan:
            error.plan = "\n".join(p.render_plan(plan))
        raise


def arrow_ready(plan: p.Plan, session: Any = None) -> SparkDataFrame:
    """``to_spark(plan)`` as ``toArrow()`` can fetch it: VARIANTs as JSON text, nested fields nullable.

    Nested fields are made nullable where ``toArrow()`` needs that (see
    ``pydantable_spark.arrow.needs_relaxing``); values are unchanged, and the
    row models still check nested non-nullability when rows are validated. A
    VARIANT becomes ``to_json(v)`` (NULL stays NULL; ``materialize`` parses the
    text back); one nested in a struct, list or map is not fetched yet.
    """
    frame = to_spark(plan, session)
    schema = plan.schema
    nested = [f.name for f in schema if dt.contains_variant(f.dtype) and not isinstance(f.dtype, dt.Variant)]
    if nested:
        msg = (
            f"column(s) {', '.join(map(repr, nested))} hold a VARIANT inside a struct, list or map, which results "
            "cannot carry yet; select F.to_json(...) of them, or the VARIANT values as columns of their own"
        )
        raise NotImplementedError(msg)
    if any(isinstance(f.dtype, dt.Variant) for f in schema):
        texts = [
            f"to_json({column_sql(f.name)}) AS {column_sql(f.name)}" if isinstance(f.dtype, dt.Variant)
            else column_sql(f.name)
            for f in schema
        ]  # fmt: skip
        frame = frame.toDF(*(spark_name(n) for n in schema.names)).selectExpr(*texts).toDF(*schema.names)
        schema = Schema(tuple(dt.Field(f.name, dt.String(), True) if isinstance(f.dtype, dt.Variant) else f
                              for f in schema))  # fmt: skip
    if not any(needs_relaxing(f.dtype, f.nullable) for f in schema):
        return frame
    return frame.to(struct_of(schema, relaxed=True))
