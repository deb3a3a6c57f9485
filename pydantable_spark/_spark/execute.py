"""Steps → Spark: the executor of each step class makes that step's Spark DataFrame calls.

``EXECUTORS`` maps every class of ``pydantable_spark.steps.ir`` to the
function that runs it on its input frames (a test checks that every step
class has one); ``execute`` runs a tree of steps bottom-up. An
``AnalysisException`` from Spark becomes ``SparkAnalysisError`` naming the
step that failed.
"""

from __future__ import annotations

import logging
import pickle
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pyspark.errors import AnalysisException
from pyspark.sql import DataFrame as SparkDataFrame
from pyspark.sql import functions as sf
from pyspark.storagelevel import StorageLevel

from pydantable_spark import dtypes as dt
from pydantable_spark._spark.session import is_connect, resolve_session
from pydantable_spark._spark.sql import column_sql, internal_sql, needs_renaming, spark_name
from pydantable_spark._spark.types import fields_of_struct, spark_type, struct_of
from pydantable_spark.arrow import without_empty_batches
from pydantable_spark.errors import CardinalityError, SparkAnalysisError, SparkJobError, UdfError
from pydantable_spark.plan.sources import ArrowData, SparkData, StreamSource
from pydantable_spark.reconcile import reconcile
from pydantable_spark.schema import Schema
from pydantable_spark.steps.ir import (
    ROW_ORDER,
    AggregateStep,
    CheckpointStep,
    CoalesceStep,
    Dedup,
    HintStep,
    JoinStep,
    OrderBy,
    PersistStep,
    Rename,
    RepartitionStep,
    SampleStep,
    Scan,
    SelectExprs,
    SetStep,
    Skip,
    Step,
    Take,
    ToSchema,
    UnionStep,
    UnpivotStep,
    WatermarkStep,
    Where,
)

if TYPE_CHECKING:
    from pydantable_spark.plan import nodes as p
    from pydantable_spark.plan.physical import Held

__all__ = ["EXECUTORS", "execute", "spark_frame", "unpersist"]

log = logging.getLogger("pydantable_spark")

_ORDER = ROW_ORDER

Executor = Callable[[Any, list[SparkDataFrame], Any], SparkDataFrame]
"""Runs one step on the frames of its inputs (in ``Step.inputs()`` order), with the session asked for."""

EXECUTORS: dict[type[Step], Executor] = {}
"""The executor of each step class; a test checks that every step class is here."""


def executes(*classes: type[Step]) -> Callable[[Executor], Executor]:
    """Register the executor of the given step classes."""

    def register(fn: Executor) -> Executor:
        for cls in classes:
            EXECUTORS[cls] = fn
        return fn

    return register


def execute(step: Step, session: Any = None) -> SparkDataFrame:
    """Make the Spark calls of ``step`` and return the resulting DataFrame.

    An ``AnalysisException`` from Spark becomes ``SparkAnalysisError`` naming the
    Spark call that failed (the plan is added by ``to_spark``/``lower``).
    """
    run = EXECUTORS.get(type(step))
    if run is None:
        msg = f"no Spark executor for step {type(step).__name__} (register one in EXECUTORS)"
        raise NotImplementedError(msg)
    if not step.inputs():  # a scan: the source's DataFrame
        return run(step, [], session)
    inputs = [execute(s, session) for s in step.inputs()]
    _register_udfs(step, inputs[0])
    try:
        return run(step, inputs, session)
    except AnalysisException as error:
        raise SparkAnalysisError(step.describe(), str(error)) from error


def _spark_schema(schema: Schema) -> Schema:
    """``schema`` with every column under its Spark name."""
    return Schema(tuple(dt.Field(spark_name(f.name), f.dtype, f.nullable) for f in schema.fields))


def spark_frame(source: p.Source, session: Any = None) -> SparkDataFrame:
    """The Spark DataFrame of a source (created once per session for Python data)."""
    data = source.data
    if isinstance(data, SparkData):
        return data.frame  # type: ignore[no-any-return]
    if isinstance(data, StreamSource):
        from pydantable_spark._spark.streaming import open_stream

        return open_stream(data, source.schema, resolve_session(source.session or session))
    assert isinstance(data, ArrowData)
    spark = resolve_session(source.session or session)
    created = data.created.get(id(spark))
    if created is None:
        schema = _spark_schema(source.schema)
        table = data.table.rename_columns(list(schema.names)) if needs_renaming(source.schema.names) else data.table
        created = spark.createDataFrame(without_empty_batches(table), schema=struct_of(_as_json_text(schema)))
        if any(_is_variant(f) for f in source.schema):  # a VARIANT column arrives as its JSON text (arrow_type)
            created = created.selectExpr(
                *(f"parse_json({column_sql(f.name)}) AS {column_sql(f.name)}" if _is_variant(f) else column_sql(f.name)
                  for f in source.schema)
            )  # fmt: skip
        data.created[id(spark)] = created
    return created


def _is_variant(f: dt.Field) -> bool:
    return isinstance(f.dtype, dt.Variant)


def _as_json_text(schema: Schema) -> Schema:
    """``schema`` with each VARIANT column a string: how Python data holds it (its JSON text)."""
    return Schema(tuple(dt.Field(f.name, dt.String(), f.nullable) if _is_variant(f) else f for f in schema.fields))


_REGISTERED: weakref.WeakKeyDictionary[Any, set[str]] = weakref.WeakKeyDictionary()
"""The UDF names already registered with each live session (each is registered once per session)."""


def _register_udfs(step: Step, frame: SparkDataFrame) -> None:
    """Register the typed UDFs a step's SQL calls (``Step.udfs``) with the frame's session (Arrow-optimized)."""
    if not step.udfs:
        return
    session = frame.sparkSession
    done = _REGISTERED.setdefault(session, set())
    for function in step.udfs:
        if function.sql_name not in done:
            returns = spark_type(function.returns.dtype)
            try:
                udf = sf.udf(function.worker_function(), returnType=returns, useArrow=True)
                session.udf.register(function.sql_name, udf)
            except (pickle.PicklingError, TypeError) as error:
                raise UdfError.unpicklable(function.name, error) from error
            done.add(function.sql_name)


# --- the executors ----------------------------------------------------------------------------


@executes(Scan)
def _scan(step: Scan, inputs: list[SparkDataFrame], session: Any) -> SparkDataFrame:
    frame = spark_frame(step.source, session)
    names = step.source.schema.names
    if isinstance(step.source.data, SparkData | StreamSource) and needs_renaming(names):
        frame = frame.toDF(*map(spark_name, names))
    return frame


@executes(Where)
def _where(step: Where, inputs: list[SparkDataFrame], session: Any) -> SparkDataFrame:
    return inputs[0].filter(step.condition)


@executes(SelectExprs)
def _select_exprs(step: SelectExprs, inputs: list[SparkDataFrame], session: Any) -> SparkDataFrame:
    frame = inputs[0]
    return _keep_metadata(frame.selectExpr(*step.exprs), frame, step.metadata_from)


@executes(OrderBy)
def _order_by(step: OrderBy, inputs: list[SparkDataFrame], session: Any) -> SparkDataFrame:
    return inputs[0].sort(*[_sort_column(*key) for key in step.keys])


@executes(Take)
def _take(step: Take, inputs: list[SparkDataFrame], session: Any) -> SparkDataFrame:
    return inputs[0].limit(step.n)


@executes(Skip)
def _skip(step: Skip, inputs: list[SparkDataFrame], session: Any) -> SparkDataFrame:
    return inputs[0].offset(step.n)


@executes(Dedup)
def _dedup(step: Dedup, inputs: list[SparkDataFrame], session: Any) -> SparkDataFrame:
    frame = inputs[0]
    if step.within_watermark:
        return frame.dropDuplicatesWithinWatermark(list(step.subset or ()))
    return frame.dropDuplicates(list(step.subset)) if step.subset else frame.distinct()


@executes(JoinStep)
def _join_step(step: JoinStep, inputs: list[SparkDataFrame], session: Any) -> SparkDataFrame:
    left, right = inputs
    return _join(left, right, step)


@executes(AggregateStep)
def _aggregate_step(step: AggregateStep, inputs: list[SparkDataFrame], session: Any) -> SparkDataFrame:
    frame = inputs[0]
    return _keep_metadata(_aggregate(frame, step), frame, step.metadata_from)


@executes(UnionStep)
def _union(step: UnionStep, inputs: list[SparkDataFrame], session: Any) -> SparkDataFrame:
    frame = inputs[0]
    for other in inputs[1:]:
        frame = frame.unionByName(other, step.allow_missing) if step.by_name else frame.union(other)
    return frame


@executes(SetStep)
def _set_step(step: SetStep, inputs: list[SparkDataFrame], session: Any) -> SparkDataFrame:
    left, right = inputs
    return getattr(left, step.method)(right)  # type: ignore[no-any-return]


@executes(UnpivotStep)
def _unpivot(step: UnpivotStep, inputs: list[SparkDataFrame], session: Any) -> SparkDataFrame:
    return inputs[0].unpivot(list(step.ids), list(step.values), step.variable, step.value)


@executes(RepartitionStep)
def _repartition(step: RepartitionStep, inputs: list[SparkDataFrame], session: Any) -> SparkDataFrame:
    keys = [sf.expr(k) for k in step.keys]
    return inputs[0].repartition(step.n, *keys) if step.n is not None else inputs[0].repartition(*keys)


@executes(CoalesceStep)
def _coalesce(step: CoalesceStep, inputs: list[SparkDataFrame], session: Any) -> SparkDataFrame:
    return inputs[0].coalesce(step.n)


@executes(SampleStep)
def _sample(step: SampleStep, inputs: list[SparkDataFrame], session: Any) -> SparkDataFrame:
    return inputs[0].sample(withReplacement=step.with_replacement, fraction=step.fraction, seed=step.seed)


@executes(WatermarkStep)
def _watermark(step: WatermarkStep, inputs: list[SparkDataFrame], session: Any) -> SparkDataFrame:
    return inputs[0].withWatermark(step.column, step.delay)


@executes(HintStep)
def _hint(step: HintStep, inputs: list[SparkDataFrame], session: Any) -> SparkDataFrame:
    return inputs[0].hint(step.name)


CACHE_PRUNING = "spark.sql.inMemoryColumnarStorage.partitionPruning"
"""Spark's skipping of cached batches by their columns' min/max, which ignore NaN (set off for such caches)."""


@executes(PersistStep)
def _persist(step: PersistStep, inputs: list[SparkDataFrame], session: Any) -> SparkDataFrame:
    frame = inputs[0]
    if step.floating:
        # Spark's statistics of a cached batch leave NaN out of a float column's min/max, so with pruning on
        # a filter (x == NaN, x IN (NaN), x > 1e308) skips batches holding NaN rows it must return; the
        # setting is read when a query runs, so it is set for every plan that reads such a cache
        frame.sparkSession.conf.set(CACHE_PRUNING, "false")
    level = getattr(StorageLevel, step.level)
    # persist() marks the frame (no job); the first action fills the cache, later ones read it
    persisted: SparkDataFrame = step.held.get_or_make(frame.sparkSession, lambda: frame.persist(level))
    return persisted


@executes(CheckpointStep)
def _checkpoint(step: CheckpointStep, inputs: list[SparkDataFrame], session: Any) -> SparkDataFrame:
    frame = inputs[0]

    def make() -> SparkDataFrame:
        if step.local:
            return frame.localCheckpoint(step.eager)
        try:
            return frame.checkpoint(step.eager)
        except Exception as error:
            if "checkpoint directory has not been set" not in str(error).lower():
                raise
            msg = (
                "Spark has no checkpoint directory: set one with spark.sparkContext.setCheckpointDir(path), or "
                "start Spark with the setting spark.checkpoint.dir; local_checkpoint() needs none"
            )
            what = "checkpoint()"
            raise SparkJobError(what, msg) from error

    kept: SparkDataFrame = step.held.get_or_make(frame.sparkSession, make)
    return kept


def unpersist(held: Held, *, blocking: bool) -> None:
    """Free the caches a ``Persist`` node made (every session's); the next action caches again."""
    for frame in held.release():
        frame.unpersist(blocking)


@executes(Rename)
def _rename(step: Rename, inputs: list[SparkDataFrame], session: Any) -> SparkDataFrame:
    return inputs[0].toDF(*step.names)


@executes(ToSchema)
def _to_schema(step: ToSchema, inputs: list[SparkDataFrame], session: Any) -> SparkDataFrame:
    frame = inputs[0]
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
    if step.unique:
        _check_unique(left, right, step.unique)
    if step.order == "left":
        left = left.selectExpr("*", f"monotonically_increasing_id() AS {internal_sql(_ORDER)}")
    elif step.order == "right":
        right = right.selectExpr("*", f"monotonically_increasing_id() AS {internal_sql(_ORDER)}")
    # a cross join has no condition; with one it is an inner join on it
    joined = left.crossJoin(right) if step.condition is None else left.join(right, sf.expr(step.condition), step.how)
    return joined.sort(sf.col(_ORDER).asc_nulls_last()) if step.order != "none" else joined


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
