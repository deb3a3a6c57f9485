"""The local engine: a typed plan run on DataFusion through its Substrait consumer, no JVM involved.

``collect(engine="local")`` (and ``to_arrow``/``to_dict`` with it) exports the
plan with ``export(..., local=True)``, which refuses every function or step
whose result is not proven equal to Spark's, registers the frames' Arrow data
under the plan's table names in a fresh DataFusion context, runs it, and
reconciles the result with the derived schema exactly as a Spark result is:
the same column names and order, the same Arrow types (DataFusion's string and
binary views become Spark's plain ones, nothing else is converted) and no NULL
in a column the schema says cannot hold one. Any difference raises a
``ReconciliationError`` naming the column and both types.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pyarrow as pa

from pydantable_spark.arrow import arrow_schema
from pydantable_spark.errors import (
    IncompatibleCastError,
    LocalEngineError,
    MissingColumnError,
    NullabilityError,
    NullCheckError,
    Problem,
    UnsupportedEngineError,
)
from pydantable_spark.substrait.kernels.reconciled import NullFound
from pydantable_spark.substrait.kernels.spec import Session, SparkError

if TYPE_CHECKING:
    from pydantable_spark.plan.nodes import Plan
    from pydantable_spark.schema import Schema

__all__ = ["ENGINES", "reconcile", "run_local"]

ENGINES = ("spark", "local")
"""The engines a result method takes: ``"spark"`` (the default) and ``"local"`` (DataFusion)."""

_SAME_VALUES: dict[pa.DataType, tuple[pa.DataType, ...]] = {
    pa.string(): (pa.string_view(), pa.large_string()),
    pa.binary(): (pa.binary_view(), pa.large_binary()),
}
"""Arrow types that hold the same values as Spark's and are converted without looking at them."""


def run_local(plan: Plan, action: str = "collect()") -> pa.Table:
    """Run ``plan`` on DataFusion and return its rows reconciled with ``plan.schema``.

    An error while DataFusion runs the plan (an integer overflow the plan checks, as Spark's ANSI mode
    does) is a ``LocalEngineError`` naming ``action``.
    """
    try:
        from datafusion import SessionConfig, SessionContext
        from datafusion import substrait as ds
    except ImportError as error:  # pragma: no cover - the [local] extra is part of [dev]
        msg = "the local engine needs DataFusion: pip install 'pydantable-spark[local]'"
        raise UnsupportedEngineError(msg) from error

    from pydantable_spark.substrait.relations import export
    from pydantable_spark.substrait.udfs import Failures, register

    settings = session_settings()
    try:
        exported = export(plan, local=True, session=settings, run=lambda part: run_local(part, action))
    except SparkError as error:  # a step computed while the plan is written (explode) failed as Spark's would
        msg = f"{action}: the local engine failed: {error}"
        raise LocalEngineError(msg) from error
    # one partition: a group's rows reach an aggregate in row order (with several, DataFusion merges partial
    # aggregates in no set order: collect_list, first and last of a multi-batch table changed from run to run)
    context = SessionContext(SessionConfig().with_target_partitions(1))
    failures = Failures()
    register(context, exported.sites, failures)
    for name, given in exported.tables.items():
        table = _one_nan(given)
        empty = [pa.RecordBatch.from_pylist([], schema=table.schema)]  # no rows: DataFusion wants one empty batch
        batches = table.to_batches() or empty
        context.register_record_batches(name, [batches])
    try:
        serialized = ds.Serde.deserialize_bytes(exported.plan.SerializeToString())
        logical = ds.Consumer.from_substrait_plan(context, serialized)
        result = context.create_dataframe_from_logical_plan(logical).to_arrow_table()
    except Exception as error:  # DataFusion raises plain Exceptions
        if isinstance(failures.first, NullFound):  # as_model's NULL check: the error Spark's run would give
            raise NullCheckError(failures.first.path, action) from failures.first
        cause = failures.first or error
        msg = f"{action}: the local engine failed: {cause}"
        raise LocalEngineError(msg) from cause
    return reconcile(result, plan.schema)


def session_settings() -> Session:
    """The settings the local engine computes with: those of the session a frame would run on.

    When PySpark is loaded and a session is active, its ``spark.sql.session.timeZone`` (and ANSI mode,
    which the local engine's rules assume: a session without it is refused by name); otherwise those of
    the embedded session the library would start, UTC and ANSI. (Nothing here starts a JVM.)
    """
    import sys

    if "pyspark.sql" in sys.modules:
        from pydantable_spark._spark.session import active_settings

        settings = active_settings()
        if settings is not None:
            if settings["spark.sql.ansi.enabled"].strip().lower() != "true":
                msg = (
                    "the local engine computes as Spark does in ANSI mode, and the active session sets "
                    "spark.sql.ansi.enabled=false (divisions by zero and overflows give NULL there); run it on "
                    "Spark (collect() without engine=), or set spark.sql.ansi.enabled=true"
                )
                raise UnsupportedEngineError(msg)
            return Session(settings["spark.sql.session.timeZone"])
    return Session("UTC")


def _one_nan(table: pa.Table) -> pa.Table:
    """``table`` with every NaN of its floating columns the one positive NaN (as the plan writes computed ones).

    Spark holds all NaNs equal and largest; DataFusion orders floats by their bits, so a NaN with its sign bit
    set (``from_arrow`` keeps whatever bits it was given) would sort first and match no other NaN.
    """
    import pyarrow.compute as pc

    for index, column in enumerate(table.columns):
        if pa.types.is_floating(column.type) and pc.any(pc.is_nan(column)).as_py():
            canonical = pc.if_else(pc.is_nan(column), pa.scalar(float("nan"), column.type), column)
            table = table.set_column(index, table.field(index), canonical)
    return table


def reconcile(table: pa.Table, schema: Schema) -> pa.Table:
    """``table`` with the types and nullability of ``schema``, or a ``ReconciliationError`` naming each problem."""
    target = arrow_schema(schema)
    problems = []
    if table.num_columns != len(target) or table.column_names != target.names:
        problems.append(
            Problem(
                MissingColumnError,
                "(columns)",
                f"the local engine returned {table.column_names}, the plan derives {target.names}",
            )
        )
    columns = []
    for position, wanted in enumerate(target):
        if position >= table.num_columns:
            break
        column = table.column(position)
        if column.type != wanted.type and column.type not in _SAME_VALUES.get(wanted.type, ()):
            problems.append(
                Problem(
                    IncompatibleCastError,
                    wanted.name,
                    f"the local engine gave {column.type}, Spark's type is {wanted.type}",
                )
            )
            continue
        if not wanted.nullable and column.null_count:
            problems.append(
                Problem(NullabilityError, wanted.name, f"{column.null_count} NULL(s) in a column that cannot hold one")
            )
            continue
        columns.append(column.cast(wanted.type) if column.type != wanted.type else column)
    if problems:
        shown = "\n".join(f"  - {p}" for p in problems)
        message = f"the local engine's result does not match the derived schema:\n{shown}"
        raise problems[0].kind(message, problems)
    return pa.Table.from_arrays(columns, schema=target)
