"""Plans → Spark: first a tree of Spark steps (pure Python), then the Spark calls.

PySpark analyses every DataFrame step eagerly (7-13 ms of driver time each on
a classic session), so consecutive projections and filters are fused: a
filter is pushed below the projections before it by substituting their
expressions, and a projection over a projection becomes one projection. A run
of ``with_columns`` / ``filter`` calls therefore costs at most one ``filter``
and one ``selectExpr``. A projection is not fused when that would compute one
non-trivial expression twice in it.

Inside the lowered plan every user column goes by its *Spark name*
(``sql.spark_name``: the name itself when it is a plain identifier, else a hex
spelling), so that no SQL text the lowering writes holds a user's name. Scans
rename their columns to Spark names and the last step renames them back
(``Rename``, ``DataFrame.toDF``), in both cases only where a name differs.

``plan_steps`` needs no Spark at all, which is what ``explain()`` shows;
``execute`` makes the calls.
"""

from __future__ import annotations

import dataclasses
import logging
import pickle
import re
import weakref
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pyspark.errors import AnalysisException
from pyspark.sql import DataFrame as SparkDataFrame
from pyspark.sql import functions as sf

from pydantable_spark import dtypes as dt
from pydantable_spark._spark.checks import checked_sql
from pydantable_spark._spark.session import is_connect, resolve_session
from pydantable_spark._spark.sql import (
    COMPILERS,
    column_sql,
    internal_sql,
    literal_sql,
    spark_name,
    string_sql,
    to_sql,
)
from pydantable_spark._spark.types import fields_of_struct, spark_type, struct_of
from pydantable_spark.arrow import needs_relaxing, without_empty_batches
from pydantable_spark.errors import CardinalityError, SparkAnalysisError, UdfError
from pydantable_spark.expr.core import Column, Literal, Node, Typed
from pydantable_spark.expr.udf import REGISTRY as UDFS
from pydantable_spark.expr.window import Over
from pydantable_spark.plan import nodes as p
from pydantable_spark.plan.aggregate import Aggregate, narrowable
from pydantable_spark.plan.joins import Join, JoinOutput
from pydantable_spark.plan.reshape import Explode, Unpivot
from pydantable_spark.plan.setops import SetOperation, Union
from pydantable_spark.plan.sources import ArrowData, SparkData
from pydantable_spark.reconcile import ColumnMatch, reconcile
from pydantable_spark.schema import Schema

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping

__all__ = ["Step", "arrow_ready", "execute", "lower", "plan_steps", "render_steps", "spark_frame", "to_spark"]


def _spark_schema(schema: Schema) -> Schema:
    """``schema`` with every column under its Spark name."""
    return Schema(tuple(dt.Field(spark_name(f.name), f.dtype, f.nullable) for f in schema.fields))


def _needs_renaming(names: tuple[str, ...]) -> bool:
    return any(spark_name(n) != n for n in names)


@dataclass(frozen=True, slots=True)
class SparkColumn(Column):
    """A column the lowering made itself, referred to by its (internal) Spark name as it is."""


COMPILERS[SparkColumn] = lambda node: internal_sql(node.name)

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
    """``df.selectExpr(*exprs)``; ``metadata_from`` pairs (output, input) columns whose Spark metadata is kept."""

    input: Step
    exprs: tuple[str, ...]
    metadata_from: tuple[tuple[str, str], ...] = ()

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
class Skip(Step):
    """``df.offset(n)``."""

    input: Step
    n: int

    def inputs(self) -> tuple[Step, ...]:
        return (self.input,)

    def describe(self) -> str:
        return f"offset {self.n}"


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
class JoinStep(Step):
    """``left.join(right renamed, condition, how)``, then the output projection.

    The right side's columns are renamed to private names first, so that no
    output name is ambiguous; ``outputs`` names them back (None: keep the left
    columns, for semi and anti joins).
    """

    left: Step
    right: Step
    right_renames: tuple[str, ...]
    how: str
    condition: str | None
    outputs: tuple[str, ...] | None
    order: str
    unique: tuple[tuple[str, tuple[str, ...]], ...]

    def inputs(self) -> tuple[Step, ...]:
        return (self.left, self.right)

    def describe(self) -> str:
        on = f" on {self.condition}" if self.condition else ""
        return f"join {self.how}{on}"


@dataclass(frozen=True, slots=True)
class AggregateStep(Step):
    """``groupBy(keys).agg(aggs)`` (``selectExpr(aggs)`` without keys), after an optional filter."""

    input: Step
    where: str | None
    keys: tuple[str, ...]
    aggs: tuple[str, ...]
    ordered: bool
    metadata_from: tuple[tuple[str, str], ...] = ()

    def inputs(self) -> tuple[Step, ...]:
        return (self.input,)

    def describe(self) -> str:
        where = f" where {self.where}" if self.where else ""
        return f"groupBy {', '.join(self.keys) or '()'} agg {', '.join(self.aggs)}{where}"


@dataclass(frozen=True, slots=True)
class UnionStep(Step):
    """``union`` / ``unionByName`` of several frames."""

    frames: tuple[Step, ...]
    by_name: bool
    allow_missing: bool

    def inputs(self) -> tuple[Step, ...]:
        return self.frames

    def describe(self) -> str:
        return "unionByName" if self.by_name else "union"


@dataclass(frozen=True, slots=True)
class SetStep(Step):
    """``intersect``, ``intersectAll``, ``subtract`` or ``exceptAll``."""

    left: Step
    right: Step
    method: str

    def inputs(self) -> tuple[Step, ...]:
        return (self.left, self.right)

    def describe(self) -> str:
        return self.method


@dataclass(frozen=True, slots=True)
class UnpivotStep(Step):
    """``unpivot(ids, values, variable, value)``."""

    input: Step
    ids: tuple[str, ...]
    values: tuple[str, ...]
    variable: str
    value: str

    def inputs(self) -> tuple[Step, ...]:
        return (self.input,)

    def describe(self) -> str:
        return f"unpivot ids {list(self.ids)} values {list(self.values)}"


@dataclass(frozen=True, slots=True)
class Rename(Step):
    """``df.toDF(*names)``: the user's column names on the frame handed out (no SQL parsing)."""

    input: Step
    names: tuple[str, ...]

    def inputs(self) -> tuple[Step, ...]:
        return (self.input,)

    def describe(self) -> str:
        return f"toDF {', '.join(repr(n) for n in self.names)}"


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


# --- which columns each plan node must produce ------------------------------------------

Needed = dict[int, set[str]]
"""For each plan node (by ``id``), the names of its columns that some consumer reads."""


def _referenced(exprs: Iterable[Node]) -> set[str]:
    return {n.name for e in exprs for n in e.walk() if isinstance(n, Column)}


def _topological(root: p.Plan) -> list[p.Plan]:
    """The nodes of ``root`` (a DAG: frames may be reused), every node before its inputs."""
    order: list[p.Plan] = []
    seen: set[int] = set()

    def visit(plan: p.Plan) -> None:
        if id(plan) in seen:
            return
        seen.add(id(plan))
        for child in plan.inputs():
            visit(child)
        order.append(plan)

    visit(root)
    return order[::-1]


def needed_columns(root: p.Plan) -> Needed:
    """The columns each node of ``root`` must produce: the root's all, below that what is read.

    A projection computes only the columns read above it. Spark's optimizer
    prunes dead columns as well, but only after it has constant-folded local
    data, so a dead column's expression can still run (and fail under ANSI
    mode) where plain PySpark, which never computed it, succeeds.
    """
    needed: Needed = {id(root): set(root.schema.names)}
    for plan in _topological(root):
        wanted = needed.setdefault(id(plan), set())
        for child, names in zip(plan.inputs(), _input_needs(plan, wanted), strict=True):
            needed.setdefault(id(child), set()).update(names)
    return needed


def _input_needs(plan: p.Plan, wanted: set[str]) -> tuple[set[str], ...]:
    if isinstance(plan, p.Project):
        return (_referenced(e for e in plan.exprs if e.output_name in wanted) or set(plan.input.schema.names),)
    if isinstance(plan, p.Filter):
        return (wanted | _referenced((plan.predicate,)),)
    if isinstance(plan, p.Sort):
        return (wanted | _referenced(k.expr for k in plan.keys),)
    if isinstance(plan, p.Limit | p.Offset):
        return (set(wanted),)
    if isinstance(plan, Aggregate):
        return (_referenced((*plan.keys, *plan.aggs)),)
    if isinstance(plan, Union):
        return tuple(set(names) for names in _union_inputs(plan, wanted))
    # joins, set operations, explode, unpivot, distinct and reconciliation read every column
    return tuple(set(child.schema.names) for child in plan.inputs())


def _union_outputs(plan: Union, wanted: set[str]) -> list[str]:
    """The columns a union must produce: those read above it, in its order (all if none is read)."""
    return [n for n in plan.schema.names if n in wanted] or list(plan.schema.names)


def _union_inputs(plan: Union, wanted: set[str]) -> list[list[str]]:
    """For each frame of a union, its columns that make the union's needed outputs, in order.

    By name, a frame gives the outputs it has (``allow_missing`` fills the others
    with NULL); by position, the frame's columns at the outputs' positions.
    """
    outputs = _union_outputs(plan, wanted)
    if plan.by_name:
        return [[n for n in outputs if n in frame.schema.names] for frame in plan.frames]
    positions = [plan.schema.names.index(n) for n in outputs]
    return [[frame.schema.names[k] for k in positions] for frame in plan.frames]


def _references(schema: Schema) -> dict[str, Node]:
    return {f.name: Column(f.name, Typed(f.dtype, f.nullable)) for f in schema.fields}


def _trivial(node: Node) -> bool:
    return isinstance(node, Column | Literal)


def _substitute(node: Node, columns: Mapping[str, Node]) -> Node:
    if isinstance(node, Column):
        return columns[node.name]
    return node.map_children(lambda child: _substitute(child, columns))


def is_barrier(node: Node) -> bool:
    """Whether ``node``'s value is not a function of its own row alone.

    A window reads other rows; a row id or a non-deterministic expression
    gives another value if rows are removed before it runs. Nothing may be
    moved below such an expression, or computed from an inlined copy of it.
    """
    return any(isinstance(n, Over) or not n.deterministic for n in node.walk())


def filter_commutes(columns: Mapping[str, Node]) -> bool:
    """Whether a filter over the projection ``columns`` may run before it (with the columns substituted).

    Only when every column is computed from its own row alone: a filter moved
    below a window, a whole-frame aggregate (a window too) or a row id changes
    what they compute. Limits, ``unique``, explode, joins and aggregations are
    separate steps, which filters never cross either (``_relation`` flushes).
    """
    return not any(is_barrier(node) for node in columns.values())


def _cannot_inline(exprs: tuple[Node, ...], columns: dict[str, Node]) -> bool:
    """Whether ``exprs`` must read ``columns`` from a projection instead of inlining them.

    Inlining is refused where it would compute one expression twice, or move a
    barrier (``is_barrier``) into another expression or into a filter.
    """
    uses = Counter(n.name for e in exprs for n in e.walk() if isinstance(n, Column))
    for name, count in uses.items():
        inlined = columns[name]
        if is_barrier(inlined) or (count > 1 and not _trivial(inlined)):
            return True
    return False


def _flush(rel: _Relation) -> _Relation:
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
            exprs.append(column_sql(name) if plain else f"{to_sql(node)} AS {column_sql(name)}")
        step = SelectExprs(step, tuple(exprs))
    return _Relation(step, tuple(names), {name: Column(name, node.type) for name, node in rel.columns.items()})


_RIGHT = "__pydantable_r"
_ORDER = "__pydantable_order"
_SPARK_HOW = {
    "inner": "inner",
    "left": "left_outer",
    "right": "right_outer",
    "full": "full_outer",
    "semi": "left_semi",
    "anti": "left_anti",
    "cross": "cross",
}


def _join_step(needed: Needed, plan: Join) -> Step:
    left = _flush(_relation(plan.left, needed))
    right = _flush(_relation(plan.right, needed))
    renamed = {f.name: f"{_RIGHT}{i}" for i, f in enumerate(plan.right.schema)}
    right_refs = {
        n: SparkColumn(renamed[n], Typed(f.dtype, f.nullable)) for n, f in zip(renamed, plan.right.schema, strict=True)
    }
    equal = "<=>" if plan.join_nulls else "="
    pairs = []
    right_sql = []
    for lk, rk in zip(plan.left_keys, plan.right_keys, strict=True):
        r = to_sql(_substitute(rk, right_refs))
        right_sql.append(r)
        pairs.append(f"({to_sql(lk)} {equal} {r})")
    outputs = None
    if plan.how not in ("semi", "anti"):
        outputs = tuple(_join_output(o, renamed) for o in plan.outputs())
    unique = []
    if plan.validate in ("1:1", "1:m"):
        unique.append(("left", tuple(to_sql(k) for k in plan.left_keys)))
    if plan.validate in ("1:1", "m:1"):
        unique.append(("right", tuple(right_sql)))
    return JoinStep(
        left.step,
        right.step,
        tuple(f"{column_sql(n)} AS {internal_sql(r)}" for n, r in renamed.items()),
        _SPARK_HOW[plan.how],
        " AND ".join(pairs) or None,
        outputs,
        plan.maintain_order,
        tuple(unique),
    )


def _join_output(output: JoinOutput, renamed: dict[str, str]) -> str:
    name = column_sql(output.field.name)
    if output.left is not None and output.right is not None:
        return f"coalesce({column_sql(output.left)}, {internal_sql(renamed[output.right])}) AS {name}"
    if output.left is not None:
        left = column_sql(output.left)
        return left if left == name else f"{left} AS {name}"
    assert output.right is not None
    return f"{internal_sql(renamed[output.right])} AS {name}"


def _aggregate_step(needed: Needed, plan: Aggregate) -> Step:
    rel = _flush(_relation(plan.input, needed))
    nullable_keys = [k for k in plan.keys if k.type.nullable]
    where = None
    if plan.drop_null_keys and nullable_keys:
        where = " AND ".join(f"({to_sql(k)} IS NOT NULL)" for k in nullable_keys)
    keys = []
    kept = []  # column keys wrapped in coalesce lose their Spark metadata; it is put back
    for key in plan.keys:
        sql = to_sql(key)
        if plan.drop_null_keys and key.type.nullable and narrowable(key.type.dtype):
            # the NULL rows are filtered out; coalescing with a typed constant tells Spark so
            sql = f"coalesce({sql}, {literal_sql(dt.example_values(key.type.dtype)[0], key.type.dtype)})"
            if isinstance(key, Column):
                kept.append((spark_name(key.output_name), spark_name(key.name)))
        keys.append(f"{sql} AS {column_sql(key.output_name)}")
    aggs = tuple(f"{to_sql(a)} AS {column_sql(a.output_name)}" for a in plan.aggs)
    return AggregateStep(rel.step, where, tuple(keys), aggs, plan.maintain_order, tuple(kept))


_SET_METHODS = {
    "intersect": "intersect",
    "intersect_all": "intersectAll",
    "subtract": "subtract",
    "except_all": "exceptAll",
}


def _explode_step(needed: Needed, plan: Explode) -> Step:
    rel = _flush(_relation(plan.input, needed))
    generator = "explode_outer" if plan.outer else "explode"
    if len(plan.columns) == 1:
        (column,) = plan.columns
        exprs = []
        for f in plan.input.schema:
            if f.name != column:
                exprs.append(column_sql(f.name))
            elif plan.position is not None:
                position, value = column_sql(plan.position), column_sql(column)
                exprs.append(f"pos{generator}({value}) AS ({position}, {value})")
            else:
                exprs.append(f"{generator}({column_sql(column)}) AS {column_sql(column)}")
        return SelectExprs(rel.step, tuple(exprs))
    arrays = [column_sql(c) for c in plan.columns]
    same = " AND ".join(f"coalesce(size({arrays[0]}) = size({a}), true)" for a in arrays[1:])
    message = string_sql(f"explode(): the arrays {', '.join(plan.columns)} differ in length in a row")
    zipped = f"IF({same}, arrays_zip({', '.join(arrays)}), raise_error({message}))"
    kept = [column_sql(f.name) for f in plan.input.schema if f.name not in plan.columns]
    step = SelectExprs(rel.step, (*kept, f"{generator}({zipped}) AS {internal_sql(_ZIPPED)}"))
    # arrays_zip names the struct's fields after its arguments: the columns' Spark names, plain identifiers
    fields = [
        column_sql(f.name)
        if f.name not in plan.columns
        else f"({internal_sql(_ZIPPED)}).{column_sql(f.name)} AS {column_sql(f.name)}"
        for f in plan.input.schema
    ]
    return SelectExprs(step, tuple(fields))


_ZIPPED = "__pydantable_zipped"


def _relation(plan: p.Plan, needed: Needed) -> _Relation:
    if isinstance(plan, Union):  # each frame computes only the columns read above the union
        outputs = _union_outputs(plan, needed[id(plan)])
        steps = []
        for frame, names in zip(plan.frames, _union_inputs(plan, needed[id(plan)]), strict=True):
            rel = _relation(frame, needed)
            steps.append(_flush(_Relation(rel.step, rel.base, {n: rel.columns[n] for n in names}, rel.conditions)).step)
        references = _references(plan.schema)
        return _Relation(
            UnionStep(tuple(steps), plan.by_name, plan.allow_missing),
            tuple(outputs),
            {n: references[n] for n in outputs},
        )
    if isinstance(plan, SetOperation):
        left = _flush(_relation(plan.left, needed)).step
        right = _flush(_relation(plan.right, needed)).step
        step: Step = SetStep(left, right, _SET_METHODS[plan.kind])
        return _Relation(step, plan.schema.names, _references(plan.schema))
    if isinstance(plan, Unpivot):
        rel = _flush(_relation(plan.input, needed))
        ids, values = tuple(map(spark_name, plan.ids)), tuple(map(spark_name, plan.values))
        step = UnpivotStep(rel.step, ids, values, spark_name(plan.variable_name), spark_name(plan.value_name))
        if _needs_renaming(plan.values):  # Spark writes the value columns' (Spark) names: write the user's
            variable = column_sql(plan.variable_name)
            cases = " ".join(
                f"WHEN {string_sql(spark_name(n))} THEN {string_sql(n)}" for n in plan.values if spark_name(n) != n
            )
            named = f"CASE {variable} {cases} ELSE {variable} END AS {variable}"
            exprs = [column_sql(n) for n in plan.ids] + [named, column_sql(plan.value_name)]
            step = SelectExprs(step, tuple(exprs))
        return _Relation(step, plan.schema.names, _references(plan.schema))
    if isinstance(plan, Explode):
        return _Relation(_explode_step(needed, plan), plan.schema.names, _references(plan.schema))
    if isinstance(plan, Join):
        return _Relation(_join_step(needed, plan), plan.schema.names, _references(plan.schema))
    if isinstance(plan, Aggregate):
        return _Relation(_aggregate_step(needed, plan), plan.schema.names, _references(plan.schema))
    if isinstance(plan, p.Source):
        return _Relation(Scan(plan), plan.schema.names, _references(plan.schema))
    if isinstance(plan, p.Project):
        wanted = needed[id(plan)]
        kept = tuple(e for e in plan.exprs if e.output_name in wanted) or plan.exprs[:1]
        rel = _relation(plan.input, needed)
        if _cannot_inline(kept, rel.columns):
            rel = _flush(rel)
        columns = {e.output_name: _substitute(e, rel.columns) for e in kept}
        return _Relation(rel.step, rel.base, columns, rel.conditions)
    if isinstance(plan, p.Filter):
        rel = _relation(plan.input, needed)
        if not filter_commutes(rel.columns) or _cannot_inline((plan.predicate,), rel.columns):
            rel = _flush(rel)
        condition = _substitute(plan.predicate, rel.columns)
        return _Relation(rel.step, rel.base, rel.columns, (*rel.conditions, condition))
    rel = _flush(_relation(plan.inputs()[0], needed))
    if isinstance(plan, p.Reconcile):
        return _Relation(_single_step(plan, rel.step), plan.schema.names, _references(plan.schema))
    return _Relation(_single_step(plan, rel.step), rel.base, rel.columns)  # same columns, maybe fewer than the schema


def _single_step(plan: p.Plan, step: Step) -> Step:
    if isinstance(plan, p.Sort):
        return OrderBy(step, tuple((to_sql(k.expr), k.descending, k.nulls_last) for k in plan.keys))
    if isinstance(plan, p.Limit):
        return Take(step, plan.n)
    if isinstance(plan, p.Offset):
        return Skip(step, plan.n)
    if isinstance(plan, p.Distinct):
        return Dedup(step, None if plan.subset is None else tuple(map(spark_name, plan.subset)))
    if isinstance(plan, p.Reconcile):
        rec = plan.reconciliation
        if rec.renames_or_checks:
            exprs = tuple(_reconciled_column(c, rec.target[c.result.name]) for c in rec.columns)
            kept = tuple((spark_name(c.result.name), spark_name(c.source.name)) for c in rec.columns if c.null_check)
            step = SelectExprs(step, exprs, kept)
        return ToSchema(step, rec.target)
    msg = f"no Spark lowering for plan node {type(plan).__name__}"
    raise NotImplementedError(msg)


def _reconciled_column(match: ColumnMatch, target: dt.Field) -> str:
    source = column_sql(match.source.name)
    if match.null_check:
        source = checked_sql(source, match.source, target, match.result.name)
    return f"{source} AS {column_sql(match.result.name)}"


def plan_steps(plan: p.Plan) -> Step:
    """The Spark steps for ``plan``: its columns renamed back to the user's names, then the ``to(schema)`` gate."""
    step = _flush(_relation(plan, needed_columns(plan))).step
    if _needs_renaming(plan.schema.names):
        step = Rename(step, plan.schema.names)
    return ToSchema(step, plan.schema, gate=True)


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
        schema = _spark_schema(source.schema)
        table = data.table.rename_columns(list(schema.names)) if _needs_renaming(source.schema.names) else data.table
        created = spark.createDataFrame(without_empty_batches(table), schema=struct_of(schema))
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
        if isinstance(step.source.data, SparkData) and _needs_renaming(names):
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
            try:
                session.udf.register(name, sf.udf(function.worker_function(), returnType=returns, useArrow=True))
            except (pickle.PicklingError, TypeError) as error:
                raise UdfError.unpicklable(function.name, error) from error
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
