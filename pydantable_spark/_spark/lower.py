"""Plans → Spark: the steps of ``pydantable_spark.steps`` (pure Python), then the Spark calls.

``steps.plan_steps`` turns a plan into a tree of steps, one per Spark
DataFrame call, with no Spark at all (that is what ``explain()`` shows);
``execute`` makes the calls. Inside the steps every user column goes by its
*Spark name* (``sql.spark_name``); scans rename their columns to Spark names
and the last step renames them back, in both cases only where a name differs.
"""

from __future__ import annotations

import dataclasses
import logging
import re
import weakref
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from pyspark.errors import AnalysisException
from pyspark.sql import DataFrame as SparkDataFrame
from pyspark.sql import functions as sf

from pydantable_spark import dtypes as dt
from pydantable_spark._spark.session import is_connect, resolve_session
from pydantable_spark._spark.sql import internal_sql, needs_renaming, spark_name
from pydantable_spark._spark.types import fields_of_struct, spark_type, struct_of
from pydantable_spark.arrow import needs_relaxing
from pydantable_spark.errors import CardinalityError, SparkAnalysisError
from pydantable_spark.expr.udf import REGISTRY as UDFS
from pydantable_spark.plan import nodes as p
from pydantable_spark.plan.sources import ArrowData, SparkData
from pydantable_spark.reconcile import reconcile
from pydantable_spark.schema import Schema
from pydantable_spark.steps.ir import (
    AggregateStep,
    Dedup,
    JoinStep,
    OrderBy,
    Rename,
    Scan,
    SelectExprs,
    SetStep,
    Skip,
    Step,
    Take,
    ToSchema,
    UnionStep,
    UnpivotStep,
    Where,
    render_steps,
)
from pydantable_spark.steps.translate import plan_steps

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["Step", "arrow_ready", "execute", "lower", "plan_steps", "render_steps", "spark_frame", "to_spark"]

_ORDER = "__pydantable_order"


def _spark_schema(schema: Schema) -> Schema:
    """``schema`` with every column under its Spark name."""
    return Schema(tuple(dt.Field(spark_name(f.name), f.dtype, f.nullable) for f in schema.fields))


log = logging.getLogger("pydantable_spark")


# --- execution ----------------------------------------------------------------------------


def spark_frame(source: p.Source, session: Any = None) -> SparkDataFrame:
    """The Spark DataFrame of a source (created once per session for Python data)."""
    data = source.data
    if isinstance(data, SparkData):
        return data.frame  # type: ignore[no-any-return]
    assert isinstance(data, ArrowData)
    spark = resolve_session(source.session or session)
    created = data.created.get(id(spark))
    if created is None:
        schema = _spark_schema(source.schema)
        table = data.table.rename_columns(list(schema.names)) if needs_renaming(source.schema.names) else data.table
        created = spark.createDataFrame(table, schema=struct_of(schema))
        data.created[id(spark)] = created
    return created


def execute(step: Step, session: Any = None) -> SparkDataFrame:
    """Make the Spark calls of ``step`` and return the resulting DataFrame.

    An ``AnalysisException`` from Spark becomes ``SparkAnalysisError`` naming the
    Spark call that failed (the plan is added by ``to_spark``/``lower``).
    """
    if isinstance(step, Scan):
        frame = spark_frame(step.source, session)
        names = step.source.schema.names
        if isinstance(step.source.data, SparkData) and needs_renaming(names):
            frame = frame.toDF(*map(spark_name, names))
        return frame
    inputs = [execute(s, session) for s in (step.frames if isinstance(step, UnionStep) else step.inputs()[:1])]
    _register_udfs(step, inputs[0])
    try:
        return _apply(step, inputs, session)
    except AnalysisException as error:
        raise SparkAnalysisError(step.describe(), str(error)) from error


_UDF_NAME = re.compile(r"__pydantable_udf_[0-9]+")


_REGISTERED: weakref.WeakKeyDictionary[Any, set[str]] = weakref.WeakKeyDictionary()
"""The UDF names already registered with each live session (each is registered once per session)."""


def _register_udfs(step: Step, frame: SparkDataFrame) -> None:
    """Register the typed UDFs a step's SQL calls with the frame's session (Arrow-optimized)."""
    names = {n for f in dataclasses.fields(step) for t in _strings(getattr(step, f.name)) for n in _UDF_NAME.findall(t)}
    if not names:
        return
    session = frame.sparkSession
    done = _REGISTERED.setdefault(session, set())
    for name in sorted(names - done):
        function = UDFS.get(name)
        if function is not None:  # (a user's column name never has this spelling: it would be hex-spelled)
            returns = spark_type(function.returns.dtype)
            session.udf.register(name, sf.udf(function.fn, returnType=returns, useArrow=True))
            done.add(name)


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, tuple):
        for item in value:
            yield from _strings(item)


def _apply(step: Step, inputs: list[SparkDataFrame], session: Any) -> SparkDataFrame:
    """The Spark calls of one step, on its (first) input frame(s)."""
    frame = inputs[0]
    if isinstance(step, UnionStep):
        for other in inputs[1:]:
            frame = frame.unionByName(other, step.allow_missing) if step.by_name else frame.union(other)
        return frame
    if isinstance(step, Where):
        return frame.filter(step.condition)
    if isinstance(step, SelectExprs):
        return _keep_metadata(frame.selectExpr(*step.exprs), frame, step.metadata_from)
    if isinstance(step, OrderBy):
        return frame.sort(*[_sort_column(*key) for key in step.keys])
    if isinstance(step, Take):
        return frame.limit(step.n)
    if isinstance(step, Skip):
        return frame.offset(step.n)
    if isinstance(step, Dedup):
        return frame.dropDuplicates(list(step.subset)) if step.subset else frame.distinct()
    if isinstance(step, JoinStep):
        return _join(frame, execute(step.right, session), step)
    if isinstance(step, AggregateStep):
        return _keep_metadata(_aggregate(frame, step), frame, step.metadata_from)
    if isinstance(step, SetStep):
        return getattr(frame, step.method)(execute(step.right, session))  # type: ignore[no-any-return]
    if isinstance(step, UnpivotStep):
        return frame.unpivot(list(step.ids), list(step.values), step.variable, step.value)
    if isinstance(step, Rename):
        return frame.toDF(*step.names)
    assert isinstance(step, ToSchema)
    if step.gate:  # after the Rename: the frame has the user's names
        _check_gate(frame, step.schema)
    target = struct_of(step.schema if step.gate else _spark_schema(step.schema))
    if step.gate and is_connect(frame):
        # a Connect client reports the target as the result's schema: let it carry the metadata
        # that the server keeps (frame.schema was fetched by the gate check just above)
        target = _with_metadata(target, frame)
    result = frame.to(target)
    if not step.gate and is_connect(result):
        # a Connect client reports to()'s target as the schema without asking the server, whose
        # result keeps a non-null source non-null; a projection makes the client ask
        result = result.select("*")
    return result


def _with_metadata(struct: Any, frame: SparkDataFrame) -> Any:
    """``struct`` with the metadata of ``frame``'s columns of the same names (what ``to()`` keeps)."""
    metadata = {f.name.lower(): f.metadata for f in frame.schema.fields if f.metadata}
    if not metadata:
        return struct
    for spark_field in struct.fields:
        spark_field.metadata = metadata.get(spark_field.name.lower(), {})
    return struct


def _keep_metadata(
    result: SparkDataFrame, source: SparkDataFrame, pairs: tuple[tuple[str, str], ...]
) -> SparkDataFrame:
    """Put back the Spark metadata (comments, ...) of columns that a wrapping expression dropped."""
    if not pairs:
        return result
    metadata = {f.name: f.metadata for f in source.schema.fields}
    for output, column in pairs:
        if metadata.get(column):
            result = result.withMetadata(output, metadata[column])
    return result


def _join(left: SparkDataFrame, right: SparkDataFrame, step: JoinStep) -> SparkDataFrame:
    right = right.selectExpr(*step.right_renames)
    if step.unique:
        _check_unique(left, right, step.unique)
    if step.order == "left":
        left = left.selectExpr("*", f"monotonically_increasing_id() AS {internal_sql(_ORDER)}")
    elif step.order == "right":
        right = right.selectExpr("*", f"monotonically_increasing_id() AS {internal_sql(_ORDER)}")
    if step.how == "cross":
        joined = left.crossJoin(right)
    else:
        assert step.condition is not None
        joined = left.join(right, sf.expr(step.condition), step.how)
    if step.order != "none":
        joined = joined.sort(sf.col(_ORDER).asc_nulls_last())
    if step.outputs is None:
        return joined.drop(_ORDER) if step.order != "none" else joined
    return joined.selectExpr(*step.outputs)


def _aggregate(frame: SparkDataFrame, step: AggregateStep) -> SparkDataFrame:
    if step.where:
        frame = frame.filter(step.where)
    if not step.keys:
        return frame.selectExpr(*step.aggs)
    if step.ordered:  # groups in the order their first rows appear
        frame = frame.selectExpr("*", f"monotonically_increasing_id() AS {internal_sql(_ORDER)}")
    aggs = [sf.expr(a) for a in step.aggs]
    if step.ordered:
        aggs.append(sf.expr(f"min({internal_sql(_ORDER)}) AS {internal_sql(_ORDER)}"))
    grouped = frame.groupBy(*[sf.expr(k) for k in step.keys]).agg(*aggs)
    return grouped.sort(_ORDER).drop(_ORDER) if step.ordered else grouped


def _check_unique(left: SparkDataFrame, right: SparkDataFrame, checks: tuple[tuple[str, tuple[str, ...]], ...]) -> None:
    """One Spark job: a key that repeats on a side ``validate=`` says is unique raises ``CardinalityError``."""
    found = None
    for side, keys in checks:
        frame = left if side == "left" else right
        grouped = frame.groupBy(*[sf.expr(k).alias(f"k{i}") for i, k in enumerate(keys)]).count()
        repeated = grouped.where("count > 1").selectExpr(
            f"'{side}' AS side", f"to_json(struct({', '.join(f'k{i}' for i in range(len(keys)))})) AS key", "count"
        )
        found = repeated if found is None else found.unionAll(repeated)
    assert found is not None
    rows = found.limit(1).collect()
    if rows:
        side, key, count = rows[0]
        msg = (
            f"join validate= check failed: the {side} side has {count} rows with key {key}; "
            f"validate says its keys are unique"
        )
        raise CardinalityError(msg)


def _sort_column(sql: str, descending: bool, nulls_last: bool) -> Any:
    column = sf.expr(sql)
    if descending:
        return column.desc_nulls_last() if nulls_last else column.desc_nulls_first()
    return column.asc_nulls_last() if nulls_last else column.asc_nulls_first()


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
    """``to_spark(plan)``, with nested fields made nullable where ``toArrow()`` needs that.

    See ``pydantable_spark.arrow.needs_relaxing``; values are unchanged, and the
    row models still check nested non-nullability when rows are validated.
    """
    frame = to_spark(plan, session)
    if not any(needs_relaxing(f.dtype, f.nullable) for f in plan.schema):
        return frame
    return frame.to(struct_of(plan.schema, relaxed=True))


def _check_gate(frame: SparkDataFrame, schema: Schema) -> None:
    """Spark's schema must equal the derived one; if not, it must at least reconcile strictly."""
    actual = fields_of_struct(frame.schema)
    if actual == schema.fields:
        return
    reconcile(actual, schema)
    log.warning(
        "the Spark schema of a lowered plan differs from the derived schema (reconciled by to()):\n%s",
        Schema(actual).diff(schema, left="spark", right="derived"),
    )
