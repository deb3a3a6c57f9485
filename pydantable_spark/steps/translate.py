"""Plans → steps: one translation per plan node class, the passes applied on the way.

``plan_steps`` runs the pass ``prune_columns`` over the plan, then walks it
bottom-up: ``TRANSLATIONS`` maps every plan node class to the function that
turns the node into steps (a test checks that every class has one). A
``Project`` goes through the pass ``fuse_projections`` and a ``Filter``
through ``push_down_filters``, so both stay pending (``Pending``) and merge
with the next one; every other node first writes the pending work out
(``pending.flush``) and becomes steps of its own.

Scans rename their columns to Spark names (``sql.spark_name``) and the last
step renames them back (``Rename``, ``DataFrame.toDF``), in both cases only
where a name differs. Nothing here talks to Spark.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from pydantable_spark import dtypes as dt
from pydantable_spark._spark.null_checks import checked_sql
from pydantable_spark._spark.sql import (
    column_sql,
    internal_sql,
    literal_sql,
    needs_renaming,
    readable_sql,
    spark_name,
    string_sql,
    to_sql,
)
from pydantable_spark.errors import PlanLimitError
from pydantable_spark.expr import conditional as cond
from pydantable_spark.expr.catalog.time_windows import micros_text
from pydantable_spark.expr.core import Column, Node, Typed
from pydantable_spark.expr.sides import Side, SideColumn
from pydantable_spark.plan import nodes as p
from pydantable_spark.plan.aggregate import Aggregate, narrowable, null_dropped_keys, time_bucket
from pydantable_spark.plan.joins import Join, JoinOutput
from pydantable_spark.plan.physical import Checkpoint, Coalesce, Hint, Persist, Repartition, Sample
from pydantable_spark.plan.reshape import Explode, Unpivot
from pydantable_spark.plan.setops import SetOperation, Union
from pydantable_spark.plan.streaming import DedupWithinWatermark, Watermark
from pydantable_spark.reconcile import checked_later
from pydantable_spark.schema import Schema
from pydantable_spark.steps.fuse_projections import fuse_projection
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
    render_steps,
    udfs_in,
)
from pydantable_spark.steps.null_checks import NullChecked, checked_again, defer_checks
from pydantable_spark.steps.pending import Pending, SparkColumn, flush, references, refuse_too_deep, substitute
from pydantable_spark.steps.prune_columns import (
    Needed,
    join_outputs,
    kept_exprs,
    needed_columns,
    reconciled_columns,
    topological,
    union_inputs,
    union_outputs,
)
from pydantable_spark.steps.push_down_filters import push_down_filter

if TYPE_CHECKING:
    from pydantable_spark.reconcile import ColumnMatch

__all__ = ["TRANSLATIONS", "plan_steps", "readable_steps", "relation"]

Translation = Callable[[Any, Needed], Pending]
"""Turns a plan node (its inputs translated through ``relation``) into pending work over steps."""

TRANSLATIONS: dict[type[p.Plan], Translation] = {}
"""The translation of each plan node class; a test checks that every plan node class is here."""


def translates(*classes: type[p.Plan]) -> Callable[[Translation], Translation]:
    """Register the translation of the given plan node classes."""

    def register(fn: Translation) -> Translation:
        for cls in classes:
            TRANSLATIONS[cls] = fn
        return fn

    return register


_TRANSLATED: ContextVar[dict[int, Pending] | None] = ContextVar("translated", default=None)
"""The translations ``plan_steps`` made so far, by plan node ``id`` (inputs before the nodes that read them)."""


def relation(plan: p.Plan, needed: Needed) -> Pending:
    """The steps of ``plan`` and the work still pending over them."""
    done = _TRANSLATED.get()
    if done is not None:
        found = done.get(id(plan))
        if found is not None:
            return found
    translate = TRANSLATIONS.get(type(plan))
    if translate is None:
        msg = f"no Spark lowering for plan node {type(plan).__name__} (register one in TRANSLATIONS)"
        raise NotImplementedError(msg)
    return translate(plan, needed)


def plan_steps(plan: p.Plan) -> Step:
    """The Spark steps for ``plan``: its columns renamed back to the user's names, then the ``to(schema)`` gate.

    Nodes are translated inputs first, so each translation finds its inputs'
    already made (``relation``): no recursion, a plan of any depth.
    """
    needed = needed_columns(plan)
    done: dict[int, Pending] = {}
    token = _TRANSLATED.set(done)
    try:
        for node in reversed(topological(plan)):
            done[id(node)] = relation(node, needed)
    except RecursionError as error:  # a structure nested deeper than MAX_DEPTH where nothing counts it
        msg = (
            "the plan nests expressions deeper than Python's recursion limit allows to lower; split deep "
            "expressions into with_columns steps of their own"
        )
        raise PlanLimitError(msg) from error
    finally:
        _TRANSLATED.reset(token)
    step = flush(done[id(plan)]).step
    if needs_renaming(plan.schema.names):
        step = Rename(step, plan.schema.names)
    return ToSchema(step, plan.schema, gate=True)


def readable_steps(plan: p.Plan) -> list[str]:
    """The lines ``explain()`` shows for ``plan``'s steps: string literals as written, each NULL check one call.

    The steps are translated again for people (``sql.readable_sql``); the text
    Spark gets (``plan_steps``) spells every string in hex, and this never reaches it.
    """
    with readable_sql():
        return list(render_steps(plan_steps(plan)))


def _stepped(step: Step, plan: p.Plan) -> Pending:
    """``step`` with nothing pending; its columns are ``plan``'s."""
    return Pending(step, plan.schema.names, references(plan.schema))


# --- sources; projections and filters stay pending -----------------------------------------


@translates(p.Source)
def _source(plan: p.Source, needed: Needed) -> Pending:
    return _stepped(Scan(plan), plan)


@translates(p.Project)
def _project(plan: p.Project, needed: Needed) -> Pending:
    return fuse_projection(relation(plan.input, needed), kept_exprs(plan, needed))


@translates(p.Filter)
def _filter(plan: p.Filter, needed: Needed) -> Pending:
    return push_down_filter(relation(plan.input, needed), plan.predicate)


# --- one step over the input, same columns ----------------------------------------------------


def _over_input(plan: p.Plan, needed: Needed, step: Callable[[Step], Step], *, keeps_rows: bool = False) -> Pending:
    """``step`` over the flushed input; the columns stay the input's (maybe fewer than the schema).

    A step that ``keeps_rows`` (every row, only placed or ordered otherwise)
    reads the stored values of checked columns, and their checks stay pending
    above it (``null_checks.defer_checks``).
    """
    rel, checks = (
        defer_checks(relation(plan.inputs()[0], needed)) if keeps_rows else (relation(plan.inputs()[0], needed), {})
    )
    rel = flush(rel)
    return checked_again(Pending(step(rel.step), rel.base, rel.columns), checks)


@translates(p.Sort)
def _sort(plan: p.Sort, needed: Needed) -> Pending:
    keys = tuple((to_sql(k.expr), k.descending, k.nulls_last) for k in plan.keys)
    udfs = udfs_in(k.expr for k in plan.keys)
    return _over_input(plan, needed, lambda step: OrderBy(step, keys, udfs=udfs), keeps_rows=True)


@translates(p.Limit)
def _limit(plan: p.Limit, needed: Needed) -> Pending:
    return _over_input(plan, needed, lambda step: Take(step, plan.n))


@translates(p.Offset)
def _offset(plan: p.Offset, needed: Needed) -> Pending:
    return _over_input(plan, needed, lambda step: Skip(step, plan.n))


@translates(p.Distinct)
def _distinct(plan: p.Distinct, needed: Needed) -> Pending:
    subset = None if plan.subset is None else tuple(map(spark_name, plan.subset))
    if plan.streaming:  # Spark reports every column of a stream's dedup nullable
        return _streamed_dedup(plan, needed, lambda step: Dedup(step, subset))
    return _over_input(plan, needed, lambda step: Dedup(step, subset))


@translates(DedupWithinWatermark)
def _dedup_within_watermark(plan: DedupWithinWatermark, needed: Needed) -> Pending:
    keys = tuple(map(spark_name, plan.keys))
    return _streamed_dedup(plan, needed, lambda step: Dedup(step, keys, within_watermark=True))


def _streamed_dedup(plan: p.Plan, needed: Needed, step: Callable[[Step], Step]) -> Pending:
    """A dedup of a stream (``unique()``, within the watermark): every column, then Spark's nullability fixed."""
    rel = flush(relation(plan.inputs()[0], needed))
    return _stepped(_streamed_nullability(step(rel.step), plan.schema), plan)


@translates(Watermark)
def _watermark(plan: Watermark, needed: Needed) -> Pending:
    column, delay = spark_name(plan.column), micros_text(plan.delay_micros)
    return _over_input(plan, needed, lambda step: WatermarkStep(step, column, delay))


# --- physical controls: the input's rows, computed or placed another way ----------------------


@translates(Repartition)
def _repartition(plan: Repartition, needed: Needed) -> Pending:
    keys = tuple(to_sql(k) for k in plan.keys)
    udfs = udfs_in(plan.keys)
    return _over_input(plan, needed, lambda step: RepartitionStep(step, plan.n, keys, udfs=udfs), keeps_rows=True)


@translates(Coalesce)
def _coalesce(plan: Coalesce, needed: Needed) -> Pending:
    return _over_input(plan, needed, lambda step: CoalesceStep(step, plan.n), keeps_rows=True)


@translates(Sample)
def _sample(plan: Sample, needed: Needed) -> Pending:
    return _over_input(plan, needed, lambda step: SampleStep(step, plan.fraction, plan.seed, plan.with_replacement))


@translates(Hint)
def _hint(plan: Hint, needed: Needed) -> Pending:
    return _over_input(plan, needed, lambda step: HintStep(step, plan.name), keeps_rows=True)


@translates(Persist)
def _persist(plan: Persist, needed: Needed) -> Pending:
    # every column (prune_columns): the cached frame is the same whatever an action reads of it
    floating = any(isinstance(f.dtype, dt.Floating) for f in plan.schema)  # Spark keeps min/max of top-level ones
    return _stepped(PersistStep(flush(relation(plan.input, needed)).step, plan.level, plan.held, floating), plan)


@translates(Checkpoint)
def _checkpoint(plan: Checkpoint, needed: Needed) -> Pending:
    step = CheckpointStep(flush(relation(plan.input, needed)).step, plan.local, plan.eager, plan.held)
    return _stepped(step, plan)


@translates(p.Reconcile)
def _reconcile(plan: p.Reconcile, needed: Needed) -> Pending:
    """Rename and check the source's columns, then ``to()`` the target's types.

    A NULL check of a column's top level stays pending (``null_checks``):
    ``to()`` casts to a target that keeps such a column nullable, and the
    check runs above the filters that follow, so they reach the scan. Checks
    inside a value are written here, before ``to()``.
    """
    source = flush(relation(plan.input, needed))
    step, base = source.step, source.base
    rec = plan.reconciliation
    matches = reconciled_columns(plan, needed[id(plan)])  # only the columns read above
    later = {c.result.name for c in matches if checked_later(c, rec.target[c.result.name])}
    rewritten = any((c.null_check and c.result.name not in later) or c.source.name != c.result.name for c in matches)
    if rewritten:
        exprs = tuple(_reconciled_column(c, rec.target[c.result.name], c.result.name not in later) for c in matches)
        kept = tuple(
            (spark_name(c.result.name), spark_name(c.source.name))
            for c in matches
            if c.null_check and c.result.name not in later
        )
        step = SelectExprs(step, exprs, kept)
    targets = [rec.target[c.result.name] for c in matches]
    stored = Schema(tuple(dt.Field(f.name, f.dtype, f.nullable or f.name in later) for f in targets))
    if rewritten or any(c.source != f for c, f in zip(matches, stored.fields, strict=True)):
        step, base = ToSchema(step, stored), stored.names
    # else: the source's columns are already the stored ones (names, types, nullability), and to() would be
    # a no-op costing Spark an analysis: the projection above picks the columns read
    columns: dict[str, Node] = {}
    for f in stored.fields:
        column = Column(f.name, Typed(f.dtype, f.nullable))
        columns[f.name] = NullChecked(column, rec.target[f.name], f.name) if f.name in later else column
    return Pending(step, base, columns)


def _reconciled_column(match: ColumnMatch, target: dt.Field, check: bool) -> str:
    source = column_sql(match.source.name)
    if match.null_check and check:
        source = checked_sql(source, match.source, target, match.result.name)
    return f"{source} AS {column_sql(match.result.name)}"


# --- unions and set operations ---------------------------------------------------------------


@translates(Union)
def _union(plan: Union, needed: Needed) -> Pending:
    # each frame computes only the columns read above the union
    outputs = union_outputs(plan, needed[id(plan)])
    steps = []
    for frame, names in zip(plan.frames, union_inputs(plan, needed[id(plan)]), strict=True):
        rel = relation(frame, needed)
        steps.append(flush(Pending(rel.step, rel.base, {n: rel.columns[n] for n in names}, rel.conditions)).step)
    columns = references(plan.schema)
    return Pending(
        UnionStep(tuple(steps), plan.by_name, plan.allow_missing),
        tuple(outputs),
        {n: columns[n] for n in outputs},
    )


_SET_METHODS = {
    "intersect": "intersect",
    "intersect_all": "intersectAll",
    "subtract": "subtract",
    "except_all": "exceptAll",
}


@translates(SetOperation)
def _set_operation(plan: SetOperation, needed: Needed) -> Pending:
    left = flush(relation(plan.left, needed)).step
    right = flush(relation(plan.right, needed)).step
    return _stepped(SetStep(left, right, _SET_METHODS[plan.kind]), plan)


# --- joins --------------------------------------------------------------------------------------

_RIGHT = "__pydantable_r"
_SPARK_HOW = {
    "inner": "inner",
    "left": "left_outer",
    "right": "right_outer",
    "full": "full_outer",
    "semi": "left_semi",
    "anti": "left_anti",
    "cross": "cross",
}


_KEEPS_LEFT_ROWS_WHOLE = frozenset({"inner", "left", "semi", "anti", "cross"})
"""Joins whose output has each left column of a matched or kept row as it was (no NULLs added)."""
_KEEPS_RIGHT_ROWS_WHOLE = frozenset({"inner", "right", "cross"})


@translates(Join)
def _join(plan: Join, needed: Needed) -> Pending:
    """The join (``_joined``); over two streams, its non-null columns made non-null to Spark again.

    Spark 4.3 reports the columns of a join of two streams nullable (every
    one once a side carries a watermark), whatever its inputs; a NULL check
    that cannot fail makes Spark agree with the derived schema
    (``_streamed_nullability``), keeping the watermarks of the columns.
    """
    rel = _joined(plan, needed)
    if not (plan.left.streaming and plan.right.streaming):
        return rel
    flushed = flush(rel)
    schema = Schema(tuple(plan.schema[name] for name in flushed.base))
    if all(f.nullable for f in schema):
        return flushed
    return Pending(_streamed_nullability(flushed.step, schema), flushed.base, references(schema))


def _joined(plan: Join, needed: Needed) -> Pending:
    """The join over its sides' stored values; checks of columns that neither keys nor conditions read go above it.

    A filter written after the join then reads stored values, and Spark
    pushes it through the join into the side's scan. A side whose columns
    the join may make NULL (the right of a left join) keeps its checks:
    above, a NULL read from the data could not be told from a missing match.
    """
    left, left_checks = _deferred_side(relation(plan.left, needed), plan, "left")
    right, right_checks = _deferred_side(relation(plan.right, needed), plan, "right")
    outputs = join_outputs(plan, needed[id(plan)])  # only the columns read above
    renamed = {n: f"{_RIGHT}{i}" for i, n in enumerate(plan.right.schema.names) if n in right.columns}
    left = flush(left)
    private = {renamed[n]: c for n, c in right.columns.items()}
    right = flush(Pending(right.step, right.base, private, right.conditions), private=True)
    step = _join_step(plan, left.step, right.step, renamed)
    order = (ROW_ORDER,) if plan.maintain_order != "none" else ()
    if plan.how in ("semi", "anti"):  # the left's columns, as its side computes them
        base = (*left.base, *order)
        rel = Pending(step, base, {n: Column(n, c.type) for n, c in left.columns.items()})
        return checked_again(rel, left_checks) if left_checks else rel
    left_base = (*left.base, *order) if plan.maintain_order == "left" else left.base
    right_base = (*right.base, *order) if plan.maintain_order == "right" else right.base
    columns = {o.field.name: _join_output(o, renamed) for o in outputs}
    rel = Pending(step, (*left_base, *right_base), columns)
    if not (left_checks or right_checks):
        return rel
    sources = {}
    for o in outputs:
        if o.left is not None and o.right is None and o.left in left_checks:
            sources[o.field.name] = "L" + o.left
        elif o.right is not None and o.left is None and o.right in right_checks:
            sources[o.field.name] = "R" + o.right
    checks = {"L" + n: c for n, c in left_checks.items()} | {"R" + n: c for n, c in right_checks.items()}
    return checked_again(rel, checks, sources)


def _deferred_side(rel: Pending, plan: Join, side: Side) -> tuple[Pending, dict[str, NullChecked]]:
    if plan.how not in (_KEEPS_LEFT_ROWS_WHOLE if side == "left" else _KEEPS_RIGHT_ROWS_WHOLE):
        return rel, {}
    return defer_checks(rel, plan.reads(side))


def _join_step(plan: Join, left: Step, right: Step, renamed: Mapping[str, str]) -> Step:
    """The join of the sides' steps; ``renamed`` gives the private names of the right's columns."""
    right_refs = {
        n: SparkColumn(r, Typed(plan.right.schema[n].dtype, plan.right.schema[n].nullable)) for n, r in renamed.items()
    }
    equal = "<=>" if plan.join_nulls else "="
    pairs = []
    right_sql = []
    for lk, rk in zip(plan.left_keys, plan.right_keys, strict=True):
        r = to_sql(substitute(rk, right_refs))
        right_sql.append(r)
        pairs.append(f"({to_sql(lk)} {equal} {r})")
    for condition in plan.conditions:  # its columns are the sides' (SideColumn): the left's as they are
        refuse_too_deep(condition, "a join condition")
        pairs.append(f"({to_sql(_on_sides(condition, right_refs))})")
    unique = []
    if plan.validate in ("1:1", "1:m"):
        unique.append(("left", tuple(to_sql(k) for k in plan.left_keys)))
    if plan.validate in ("1:1", "m:1"):
        unique.append(("right", tuple(right_sql)))
    return JoinStep(
        left,
        right,
        _SPARK_HOW[plan.how],
        " AND ".join(pairs) or None,
        plan.maintain_order,
        tuple(unique),
        udfs=udfs_in((*plan.left_keys, *plan.right_keys, *plan.conditions)),
    )


def _on_sides(condition: Node, right_refs: Mapping[str, Node]) -> Node:
    """A join condition over the joined frame: left columns by their names, right ones by their private names."""
    if isinstance(condition, SideColumn):
        typed = Typed(*condition.type)
        return right_refs[condition.name] if condition.side == "right" else Column(condition.name, typed)
    return condition.map_children(lambda child: _on_sides(child, right_refs))


def _join_output(output: JoinOutput, renamed: Mapping[str, str]) -> Node:
    """An output column of a join, over the joined frame (the right's columns by their private names)."""
    typed = Typed(output.field.dtype, output.field.nullable)
    if output.left is None:
        assert output.right is not None
        return SparkColumn(renamed[output.right], typed)
    if output.right is None:
        return Column(output.left, typed)
    return cond.Coalesce((Column(output.left, typed), SparkColumn(renamed[output.right], typed)))  # a full join's key


# --- aggregation ------------------------------------------------------------------------------


@translates(Aggregate)
def _aggregate(plan: Aggregate, needed: Needed) -> Pending:
    step = _aggregate_step(needed, plan)
    if plan.streaming and not all(f.nullable for f in plan.schema):
        step = _streamed_nullability(step, plan.schema)
    return _stepped(step, plan)


def _streamed_nullability(step: Step, schema: Schema) -> Step:
    """A stream's stateful step with the non-null columns Spark reports nullable made non-null to Spark again.

    Spark 4 declares every output column of an aggregation, or of a
    ``dropDuplicatesWithinWatermark``, over a stream nullable (a count, a group
    key whose NULLs were left out); a NULL check that cannot fail
    (``null_checks.checked_sql``) makes Spark agree with the derived schema, as
    ``coalesce`` does for batch keys. Each checked column keeps its Spark
    metadata (a watermark: an operator above still finds it).
    """
    exprs = []
    kept = []
    for f in schema:
        name = column_sql(f.name)
        if f.nullable:
            exprs.append(name)
        else:
            loose = dt.Field(f.name, f.dtype, True)
            exprs.append(f"{checked_sql(name, loose, f, f.name)} AS {name}")
            kept.append((spark_name(f.name), spark_name(f.name)))
    return SelectExprs(step, tuple(exprs), tuple(kept))


def _aggregate_step(needed: Needed, plan: Aggregate) -> Step:
    rel = flush(relation(plan.input, needed))
    # Spark leaves out the rows whose time is NULL when it groups by a time bucket (and a filter on the
    # bucket itself would add a column of its own to the rows)
    nullable_keys = [k for k in null_dropped_keys(plan.keys, plan.drop_null_keys) if time_bucket(k) is None]
    where = " AND ".join(f"({to_sql(k)} IS NOT NULL)" for k in nullable_keys) or None
    keys = []
    kept = []  # column keys wrapped in coalesce lose their Spark metadata; it is put back
    for key in plan.keys:
        sql = to_sql(key)
        if plan.drop_null_keys and key.type.nullable and narrowable(key.type.dtype) and not plan.streaming:
            # the NULL rows are filtered out; coalescing with a typed constant tells Spark so (over a stream,
            # Spark reports every output nullable anyway, and a bare column keeps its watermark: see
            # _streamed_nullability)
            sql = f"coalesce({sql}, {literal_sql(dt.example_values(key.type.dtype)[0], key.type.dtype)})"
            if isinstance(key, Column):
                kept.append((spark_name(key.output_name), spark_name(key.name)))
        keys.append(f"{sql} AS {column_sql(key.output_name)}")
    aggs = tuple(f"{to_sql(a)} AS {column_sql(a.output_name)}" for a in plan.aggs)
    udfs = udfs_in((*plan.keys, *plan.aggs))
    return AggregateStep(rel.step, where, tuple(keys), aggs, plan.maintain_order, tuple(kept), udfs=udfs)


# --- reshaping --------------------------------------------------------------------------------


@translates(Unpivot)
def _unpivot(plan: Unpivot, needed: Needed) -> Pending:
    rel = flush(relation(plan.input, needed))
    ids, values = tuple(map(spark_name, plan.ids)), tuple(map(spark_name, plan.values))
    step: Step = UnpivotStep(rel.step, ids, values, spark_name(plan.variable_name), spark_name(plan.value_name))
    if needs_renaming(plan.values):  # Spark writes the value columns' (Spark) names: write the user's
        variable = column_sql(plan.variable_name)
        cases = " ".join(
            f"WHEN {string_sql(spark_name(n))} THEN {string_sql(n)}" for n in plan.values if spark_name(n) != n
        )
        named = f"CASE {variable} {cases} ELSE {variable} END AS {variable}"
        exprs = [column_sql(n) for n in plan.ids] + [named, column_sql(plan.value_name)]
        step = SelectExprs(step, tuple(exprs))
    return _stepped(step, plan)


_ZIPPED = "__pydantable_zipped"


@translates(Explode)
def _explode(plan: Explode, needed: Needed) -> Pending:
    return _stepped(_explode_step(needed, plan), plan)


def _explode_step(needed: Needed, plan: Explode) -> Step:
    rel = flush(relation(plan.input, needed))
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
