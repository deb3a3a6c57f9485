"""Plans → Spark: first a tree of Spark steps (pure Python), then the Spark calls.

PySpark analyses every DataFrame step eagerly (7-13 ms of driver time each on
a classic session), so consecutive projections and filters are fused: a
filter is pushed below the projections before it by substituting their
expressions, and a projection over a projection becomes one projection. A run
of ``with_columns`` / ``filter`` calls therefore costs at most one ``filter``
and one ``selectExpr``. A projection is not fused when that would compute one
non-trivial expression twice in it.

``plan_steps`` needs no Spark at all, which is what ``explain()`` shows;
``execute`` makes the calls.
"""

from __future__ import annotations

import datetime
import decimal
import logging
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pyspark.sql import DataFrame as SparkDataFrame
from pyspark.sql import functions as sf

from pydantable_spark import dtypes as dt
from pydantable_spark._spark.session import resolve_session
from pydantable_spark._spark.sql import literal_sql, quote, string_sql, to_sql, type_sql
from pydantable_spark._spark.types import fields_of_struct, struct_of
from pydantable_spark.arrow import needs_relaxing
from pydantable_spark.expr.core import Column, Literal, Node, Typed
from pydantable_spark.plan import nodes as p
from pydantable_spark.plan.sources import ArrowData, SparkData
from pydantable_spark.reconcile import ColumnMatch, reconcile
from pydantable_spark.schema import Schema

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["Step", "arrow_ready", "execute", "lower", "plan_steps", "render_steps", "spark_frame", "to_spark"]

log = logging.getLogger("pydantable_spark")


# --- Spark steps --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Step:
    """One Spark DataFrame call."""

    def inputs(self) -> tuple[Step, ...]:
        return ()

    def describe(self) -> str:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Scan(Step):
    """The Spark DataFrame of a source."""

    source: p.Source

    def describe(self) -> str:
        return f"scan {self.source.data.describe()}"


@dataclass(frozen=True, slots=True)
class Where(Step):
    """``df.filter(condition)``."""

    input: Step
    condition: str

    def inputs(self) -> tuple[Step, ...]:
        return (self.input,)

    def describe(self) -> str:
        return f"filter {self.condition}"


@dataclass(frozen=True, slots=True)
class SelectExprs(Step):
    """``df.selectExpr(*exprs)``."""

    input: Step
    exprs: tuple[str, ...]

    def inputs(self) -> tuple[Step, ...]:
        return (self.input,)

    def describe(self) -> str:
        return f"selectExpr {', '.join(self.exprs)}"


@dataclass(frozen=True, slots=True)
class OrderBy(Step):
    """``df.sort(...)`` by SQL keys with direction and NULL placement."""

    input: Step
    keys: tuple[tuple[str, bool, bool], ...]

    def inputs(self) -> tuple[Step, ...]:
        return (self.input,)

    def describe(self) -> str:
        shown = [
            f"{sql} {'DESC' if desc else 'ASC'} NULLS {'LAST' if last else 'FIRST'}" for sql, desc, last in self.keys
        ]
        return f"sort {', '.join(shown)}"


@dataclass(frozen=True, slots=True)
class Take(Step):
    """``df.limit(n)``."""

    input: Step
    n: int

    def inputs(self) -> tuple[Step, ...]:
        return (self.input,)

    def describe(self) -> str:
        return f"limit {self.n}"


@dataclass(frozen=True, slots=True)
class Dedup(Step):
    """``df.distinct()`` or ``df.dropDuplicates(subset)``."""

    input: Step
    subset: tuple[str, ...] | None

    def inputs(self) -> tuple[Step, ...]:
        return (self.input,)

    def describe(self) -> str:
        return f"dropDuplicates {list(self.subset)}" if self.subset else "distinct"


@dataclass(frozen=True, slots=True)
class ToSchema(Step):
    """``df.to(struct)``; with ``gate`` the actual schema is first checked against ``schema``."""

    input: Step
    schema: Schema
    gate: bool = False

    def inputs(self) -> tuple[Step, ...]:
        return (self.input,)

    def describe(self) -> str:
        return f"to {struct_of(self.schema).simpleString()}"


# --- planning (no Spark) ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Relation:
    """A step plus pending work: output columns and conditions over the step's columns."""

    step: Step
    base: tuple[str, ...]
    columns: dict[str, Node]
    conditions: tuple[Node, ...] = ()


def _references(schema: Schema) -> dict[str, Node]:
    return {f.name: Column(f.name, Typed(f.dtype, f.nullable)) for f in schema.fields}


def _trivial(node: Node) -> bool:
    return isinstance(node, Column | Literal)


def _substitute(node: Node, columns: dict[str, Node]) -> Node:
    if isinstance(node, Column):
        return columns[node.name]
    return node.map_children(lambda child: _substitute(child, columns))


def _would_repeat(exprs: tuple[Node, ...], columns: dict[str, Node]) -> bool:
    """Whether inlining ``columns`` into ``exprs`` would compute one expression twice."""
    uses = Counter(n.name for e in exprs for n in e.walk() if isinstance(n, Column))
    return any(count > 1 and not _trivial(columns[name]) for name, count in uses.items())


def _flush(rel: _Relation, schema: Schema) -> _Relation:
    """Emit the pending filter and projection as steps; the result has nothing pending."""
    step = rel.step
    if rel.conditions:
        step = Where(step, " AND ".join(to_sql(c) for c in rel.conditions))
    names = list(rel.columns)
    identity = names == list(rel.base) and all(
        isinstance(node, Column) and node.name == name for name, node in rel.columns.items()
    )
    if not identity:
        exprs = []
        for name, node in rel.columns.items():
            plain = isinstance(node, Column) and node.name == name
            exprs.append(quote(name) if plain else f"{to_sql(node)} AS {quote(name)}")
        step = SelectExprs(step, tuple(exprs))
    return _Relation(step, schema.names, _references(schema))


def _relation(plan: p.Plan) -> _Relation:
    if isinstance(plan, p.Source):
        return _Relation(Scan(plan), plan.schema.names, _references(plan.schema))
    if isinstance(plan, p.Project):
        rel = _relation(plan.input)
        if _would_repeat(plan.exprs, rel.columns):
            rel = _flush(rel, plan.input.schema)
        columns = {e.output_name: _substitute(e, rel.columns) for e in plan.exprs}
        return _Relation(rel.step, rel.base, columns, rel.conditions)
    if isinstance(plan, p.Filter):
        rel = _relation(plan.input)
        condition = _substitute(plan.predicate, rel.columns)
        return _Relation(rel.step, rel.base, rel.columns, (*rel.conditions, condition))
    rel = _flush(_relation(plan.inputs()[0]), plan.inputs()[0].schema)
    return _Relation(_single_step(plan, rel.step), plan.schema.names, _references(plan.schema))


def _single_step(plan: p.Plan, step: Step) -> Step:
    if isinstance(plan, p.Sort):
        return OrderBy(step, tuple((to_sql(k.expr), k.descending, k.nulls_last) for k in plan.keys))
    if isinstance(plan, p.Limit):
        return Take(step, plan.n)
    if isinstance(plan, p.Distinct):
        return Dedup(step, plan.subset)
    if isinstance(plan, p.Reconcile):
        rec = plan.reconciliation
        if rec.renames_or_checks:
            step = SelectExprs(step, tuple(_reconciled_column(c) for c in rec.columns))
        return ToSchema(step, rec.target)
    msg = f"no Spark lowering for plan node {type(plan).__name__}"
    raise NotImplementedError(msg)


_EPOCH = datetime.datetime(1970, 1, 1)
_SAMPLES: dict[type[dt.DType], tuple[Any, Any]] = {
    dt.Boolean: (False, True),
    dt.String: ("", "x"),
    dt.Binary: (b"", b"\x00"),
    dt.Date: (_EPOCH.date(), datetime.date(1970, 1, 2)),
    dt.Datetime: (_EPOCH, _EPOCH + datetime.timedelta(seconds=1)),
    dt.DatetimeNTZ: (_EPOCH, _EPOCH + datetime.timedelta(seconds=1)),
    dt.Duration: (datetime.timedelta(0), datetime.timedelta(seconds=1)),
}


def _two_values(dtype: dt.DType) -> tuple[str, str]:
    """Two different non-null literals of ``dtype`` (so Spark cannot fold an IF over them)."""
    if isinstance(dtype, dt.Decimal):
        pair: tuple[Any, Any] = (decimal.Decimal(0), decimal.Decimal(1).scaleb(-dtype.scale))
    elif isinstance(dtype, dt.Numeric):
        pair = (0, 1)
    else:
        pair = _SAMPLES[type(dtype)]
    return literal_sql(pair[0], dtype), literal_sql(pair[1], dtype)


def _reconciled_column(match: ColumnMatch) -> str:
    source = quote(match.source.name)
    if match.null_check:
        message = string_sql(
            f"column {match.result.name!r} holds a NULL, but the target declares it non-null (null_check)"
        )
        first, second = _two_values(match.source.dtype)
        source = f"coalesce({source}, IF(raise_error({message}) IS NULL, {first}, {second}))"
    return f"{source} AS {quote(match.result.name)}"


def plan_steps(plan: p.Plan) -> Step:
    """The Spark steps for ``plan``, ending with the final ``to(schema)`` gate."""
    rel = _flush(_relation(plan), plan.schema)
    return ToSchema(rel.step, plan.schema, gate=True)


def render_steps(step: Step, indent: int = 0) -> Iterator[str]:
    """The steps as indented lines, the last call first."""
    yield "  " * indent + step.describe()
    for child in step.inputs():
        yield from render_steps(child, indent + 1)


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
        created = spark.createDataFrame(data.table, schema=struct_of(source.schema))
        data.created[id(spark)] = created
    return created


def execute(step: Step, session: Any = None) -> SparkDataFrame:
    """Make the Spark calls of ``step`` and return the resulting DataFrame."""
    if isinstance(step, Scan):
        return spark_frame(step.source, session)
    frame = execute(step.inputs()[0], session)
    if isinstance(step, Where):
        return frame.filter(step.condition)
    if isinstance(step, SelectExprs):
        return frame.selectExpr(*step.exprs)
    if isinstance(step, OrderBy):
        return frame.sort(*[_sort_column(*key) for key in step.keys])
    if isinstance(step, Take):
        return frame.limit(step.n)
    if isinstance(step, Dedup):
        return frame.dropDuplicates(list(step.subset)) if step.subset else frame.distinct()
    assert isinstance(step, ToSchema)
    if step.gate:
        _check_gate(frame, step.schema)
    return frame.to(struct_of(step.schema))


def _sort_column(sql: str, descending: bool, nulls_last: bool) -> Any:
    column = sf.expr(sql)
    if descending:
        return column.desc_nulls_last() if nulls_last else column.desc_nulls_first()
    return column.asc_nulls_last() if nulls_last else column.asc_nulls_first()


def lower(plan: p.Plan, session: Any = None) -> SparkDataFrame:
    """The Spark DataFrame of ``plan`` as lowered, before the final reconciliation gate."""
    gate = plan_steps(plan)
    assert isinstance(gate, ToSchema)
    return execute(gate.input, session)


def to_spark(plan: p.Plan, session: Any = None) -> SparkDataFrame:
    """The Spark DataFrame of ``plan``, checked against the derived schema and passed through ``to()``."""
    return execute(plan_steps(plan), session)


def arrow_ready(plan: p.Plan, session: Any = None) -> SparkDataFrame:
    """``to_spark(plan)``, with nested fields made nullable where ``toArrow()`` needs that.

    See ``pydantable_spark.arrow.needs_relaxing``; values are unchanged, and the
    row models still check nested non-nullability when rows are validated.
    """
    frame = to_spark(plan, session)
    relaxed = [f for f in plan.schema if needs_relaxing(f.dtype, f.nullable)]
    if not relaxed:
        return frame
    exprs = [
        f"CAST({quote(f.name)} AS {type_sql(f.dtype)}) AS {quote(f.name)}" if f in relaxed else quote(f.name)
        for f in plan.schema
    ]
    return frame.selectExpr(*exprs)


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
