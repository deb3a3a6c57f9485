"""Pass ``prune_columns``: every plan node computes only the columns read above it.

What it decides: for each node of a plan (a DAG: a frame may be read
twice), the names of its output columns that some consumer reads; the root
needs all of its columns. Translation applies the answer: a projection
computes only those of its expressions (at least one), and each frame of a
union only the columns that make the union's needed outputs. Each plan node
class states what it reads of its inputs in ``INPUT_NEEDS``.

Why: Spark's optimizer prunes dead columns as well, but only after it has
constant-folded local data, so a dead column's expression can still run (and
fail under ANSI mode) where plain PySpark, which never computed it, succeeds.

Precondition: the plan's schemas are derived (every plan node has one); a
node reached twice is the same object and is one node (keyed by ``id``).

Invariant: a node's needed columns include every column that any consumer
reads (expressions, predicates, sort and join keys, aggregates), so pruning
drops only columns nobody reads. A join reads its keys, what its conditions
read, and the columns read above it; a reconciliation renames, checks and
casts each column on its own, so it reads only those read above it (a NULL in
a column no result holds is not reported: Spark would prune that check
anyway). Nodes that compare or reshape whole rows (set operations, distinct,
explode, unpivot) need all of their inputs' columns, and so do a cache and a
checkpoint (every action reads the one frame they keep). The scan therefore still shows Spark's optimizer
every column a pipeline reads, as the same raw PySpark read would
(what the façade adds must not hide filters or columns from Spark's optimizer).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pydantable_spark.plan import nodes as p
from pydantable_spark.plan.aggregate import Aggregate
from pydantable_spark.plan.joins import Join, JoinOutput
from pydantable_spark.plan.physical import Checkpoint, Coalesce, Hint, Persist, Repartition, Sample
from pydantable_spark.plan.reshape import Explode, Unpivot
from pydantable_spark.plan.setops import SetOperation, Union
from pydantable_spark.plan.streaming import DedupWithinWatermark, Watermark
from pydantable_spark.steps.pending import referenced

if TYPE_CHECKING:
    from pydantable_spark.reconcile import ColumnMatch

__all__ = [
    "INPUT_NEEDS",
    "Needed",
    "input_needs",
    "join_outputs",
    "kept_exprs",
    "needed_columns",
    "reconciled_columns",
    "topological",
    "union_inputs",
    "union_outputs",
]

Needed = dict[int, set[str]]
"""For each plan node (by ``id``), the names of its columns that some consumer reads."""

NeedsRule = Callable[[Any, set[str]], tuple[set[str], ...]]
"""Given a plan node and the names of its columns read above it, the names it reads of each input."""

INPUT_NEEDS: dict[type[p.Plan], NeedsRule] = {}
"""What each plan node class reads of its inputs; a test checks that every plan node class is here."""


def needs(*classes: type[p.Plan]) -> Callable[[NeedsRule], NeedsRule]:
    """Register what the given plan node classes read of their inputs."""

    def register(rule: NeedsRule) -> NeedsRule:
        for cls in classes:
            INPUT_NEEDS[cls] = rule
        return rule

    return register


def input_needs(plan: p.Plan, wanted: set[str]) -> tuple[set[str], ...]:
    """The names ``plan`` reads of each of its inputs when ``wanted`` of its columns are read above it."""
    rule = INPUT_NEEDS.get(type(plan))
    if rule is None:
        msg = f"no column pruning rule for plan node {type(plan).__name__} (register one in INPUT_NEEDS)"
        raise NotImplementedError(msg)
    return rule(plan, wanted)


def topological(root: p.Plan) -> list[p.Plan]:
    """The nodes of ``root`` (a DAG: frames may be reused), every node before its inputs.

    Iterative, so a plan of any depth (a loop of 1,000 ``with_columns``) is fine.
    """
    order: list[p.Plan] = []
    seen: set[int] = {id(root)}
    pending: list[tuple[p.Plan, int]] = [(root, 0)]
    while pending:
        plan, index = pending.pop()
        inputs = plan.inputs()
        if index < len(inputs):
            pending.append((plan, index + 1))
            child = inputs[index]
            if id(child) not in seen:
                seen.add(id(child))
                pending.append((child, 0))
        else:
            order.append(plan)  # after all of its inputs
    return order[::-1]


def needed_columns(root: p.Plan) -> Needed:
    """The columns each node of ``root`` must produce: the root's all, below that what is read.

    A projection computes only the columns read above it. Spark's optimizer
    prunes dead columns as well, but only after it has constant-folded local
    data, so a dead column's expression can still run (and fail under ANSI
    mode) where plain PySpark, which never computed it, succeeds.
    """
    needed: Needed = {id(root): set(root.schema.names)}
    for plan in topological(root):
        wanted = needed.setdefault(id(plan), set())
        for child, names in zip(plan.inputs(), input_needs(plan, wanted), strict=True):
            needed.setdefault(id(child), set()).update(names)
    return needed


def kept_exprs(plan: p.Project, needed: Needed) -> tuple[Any, ...]:
    """The expressions of a projection whose columns are read above it (the first one if none is)."""
    wanted = needed[id(plan)]
    return tuple(e for e in plan.exprs if e.output_name in wanted) or plan.exprs[:1]


def union_outputs(plan: Union, wanted: set[str]) -> list[str]:
    """The columns a union must produce: those read above it, in its order (all if none is read)."""
    return [n for n in plan.schema.names if n in wanted] or list(plan.schema.names)


def union_inputs(plan: Union, wanted: set[str]) -> list[list[str]]:
    """For each frame of a union, its columns that make the union's needed outputs, in order.

    By name, a frame gives the outputs it has (``allow_missing`` fills the others
    with NULL); by position, the frame's columns at the outputs' positions.
    """
    outputs = union_outputs(plan, wanted)
    if plan.by_name:
        return [[n for n in outputs if n in frame.schema.names] for frame in plan.frames]
    positions = [plan.schema.names.index(n) for n in outputs]
    return [[frame.schema.names[k] for k in positions] for frame in plan.frames]


@needs(p.Project)
def _project(plan: p.Project, wanted: set[str]) -> tuple[set[str], ...]:
    return (referenced(e for e in plan.exprs if e.output_name in wanted) or set(plan.input.schema.names),)


@needs(p.Filter)
def _filter(plan: p.Filter, wanted: set[str]) -> tuple[set[str], ...]:
    return (wanted | referenced((plan.predicate,)),)


@needs(p.Sort)
def _sort(plan: p.Sort, wanted: set[str]) -> tuple[set[str], ...]:
    return (wanted | referenced(k.expr for k in plan.keys),)


@needs(Watermark)
def _watermark(plan: Watermark, wanted: set[str]) -> tuple[set[str], ...]:
    return (wanted | {plan.column},)


@needs(p.Limit, p.Offset, Coalesce, Sample, Hint)
def _rows(plan: p.Plan, wanted: set[str]) -> tuple[set[str], ...]:
    # which rows these keep (and where) does not depend on the columns nobody reads
    return (set(wanted),)


@needs(Repartition)
def _repartition(plan: Repartition, wanted: set[str]) -> tuple[set[str], ...]:
    return (wanted | referenced(plan.keys),)


@needs(Aggregate)
def _aggregate(plan: Aggregate, wanted: set[str]) -> tuple[set[str], ...]:
    return (referenced((*plan.keys, *plan.aggs)),)


@needs(Union)
def _union(plan: Union, wanted: set[str]) -> tuple[set[str], ...]:
    return tuple(set(names) for names in union_inputs(plan, wanted))


@needs(Join)
def _join(plan: Join, wanted: set[str]) -> tuple[set[str], ...]:
    # which rows match depends only on the keys and the conditions; the other columns ride along
    outputs = join_outputs(plan, wanted)
    left = {o.left for o in outputs if o.left is not None} | plan.reads("left")
    right = {o.right for o in outputs if o.right is not None} | plan.reads("right")
    return (left or {plan.left.schema.names[0]}, right or {plan.right.schema.names[0]})


@needs(p.Reconcile)
def _reconcile(plan: p.Reconcile, wanted: set[str]) -> tuple[set[str], ...]:
    # each column is renamed, checked and cast on its own: a column nobody reads needs no check either
    return ({c.source.name for c in reconciled_columns(plan, wanted)},)


@needs(p.Source, SetOperation, Explode, Unpivot, p.Distinct, DedupWithinWatermark, Persist, Checkpoint)
def _every_column(plan: p.Plan, wanted: set[str]) -> tuple[set[str], ...]:
    # set operations, explode, unpivot and distinct read every column (a dedup within the watermark keeps the
    # watermarked one, which Spark needs below it); a cached or checkpointed
    # frame keeps them all, since every action reads that one frame
    return tuple(set(child.schema.names) for child in plan.inputs())


def join_outputs(plan: Join, wanted: set[str]) -> list[JoinOutput]:
    """The output columns of a join that are read above it, in order (the first one if none is)."""
    outputs = plan.outputs()
    return [o for o in outputs if o.field.name in wanted] or outputs[:1]


def reconciled_columns(plan: p.Reconcile, wanted: set[str]) -> list[ColumnMatch]:
    """The columns of a reconciliation that are read above it, in the target's order (the first one if none is)."""
    columns = list(plan.reconciliation.columns)
    return [c for c in columns if c.result.name in wanted] or columns[:1]
