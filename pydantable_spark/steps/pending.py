"""Work not yet written as steps: a filter, then a projection, over a step.

Translation (``pydantable_spark.steps.translate``) walks a plan bottom-up and
returns a ``Pending`` for each node: the steps so far, plus the conditions and
output columns of the filters and projections above them, as expression
nodes. The passes ``push_down_filters`` and ``fuse_projections`` merge the next
filter or projection into that pending work by substituting expressions;
``flush`` writes it out as at most one ``filter`` and one ``selectExpr``.

Inside the steps every user column goes by its *Spark name*
(``sql.spark_name``), so no SQL text holds a user's name.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from pydantable_spark._spark.sql import COMPILERS, column_sql, internal_sql, to_sql
from pydantable_spark.errors import PlanLimitError
from pydantable_spark.expr.core import Column, Literal, Node, Typed
from pydantable_spark.expr.over import Over
from pydantable_spark.steps.ir import SelectExprs, Step, Where, udfs_in
from pydantable_spark.steps.null_checks import NullChecked, metadata_pairs

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from pydantable_spark.schema import Schema

__all__ = [
    "MAX_DEPTH",
    "Pending",
    "SparkColumn",
    "cannot_inline",
    "depth",
    "flush",
    "is_barrier",
    "referenced",
    "references",
    "refuse_too_deep",
    "substitute",
    "too_deep",
]

MAX_DEPTH = 200
"""How deep an expression may nest (operations inside operations) in the SQL text Spark reads.

Spark's SQL parser refuses statements nested about 300 deep
(``FAILED_TO_PARSE_TOO_COMPLEX``); a user's expression deeper than this is
refused when the plan is lowered (``PlanLimitError``), and fusion never
builds one: it writes a step instead.
"""


@dataclass(frozen=True, slots=True)
class Pending:
    """A step plus pending work: output columns and conditions over the step's columns.

    ``base`` names the step's columns; ``conditions`` filter its rows first,
    then ``columns`` (output name → expression over ``base``) are computed.
    """

    step: Step
    base: tuple[str, ...]
    columns: dict[str, Node]
    conditions: tuple[Node, ...] = ()


def references(schema: Schema) -> dict[str, Node]:
    """Each column of ``schema`` as a reference to itself: a projection that changes nothing."""
    return {f.name: Column(f.name, Typed(f.dtype, f.nullable)) for f in schema.fields}


def referenced(exprs: Iterable[Node]) -> set[str]:
    """The names of the columns that ``exprs`` read."""
    return {n.name for e in exprs for n in e.walk() if isinstance(n, Column)}


def depth(node: Node) -> int:
    """How many operations deep ``node`` nests (a column or a literal: 1), counted iteratively."""
    deepest = 0
    pending = [(node, 1)]
    while pending:
        current, level = pending.pop()
        deepest = max(deepest, level)
        pending.extend((kid, level + 1) for kid in current.kids)
    return deepest


def refuse_too_deep(node: Node, what: str) -> None:
    """``PlanLimitError`` if ``node`` nests deeper than ``MAX_DEPTH``; ``what`` names it in the message."""
    found = depth(node)
    if found > MAX_DEPTH:
        msg = (
            f"{what} is an expression nested {found} operations deep; Spark's SQL parser reads at most about "
            f"300, and pydantable-spark lowers up to {MAX_DEPTH}: compute a part of it first in its own "
            "with_columns step, then build on that column"
        )
        raise PlanLimitError(msg)


def too_deep(exprs: Iterable[Node]) -> bool:
    """Whether any of ``exprs`` nests deeper than ``MAX_DEPTH``."""
    return any(depth(e) > MAX_DEPTH for e in exprs)


def trivial(node: Node) -> bool:
    """Whether computing ``node`` twice costs nothing: a column, a literal, a column's NULL check."""
    return isinstance(node, Column | Literal | NullChecked)


def substitute(node: Node, columns: Mapping[str, Node]) -> Node:
    """``node`` with every column reference replaced by that column's expression in ``columns``."""
    if isinstance(node, Column):
        return columns[node.name]
    return node.map_children(lambda child: substitute(child, columns))


def is_barrier(node: Node) -> bool:
    """Whether ``node``'s value is not a function of its own row alone.

    A window reads other rows; a row id or a non-deterministic expression
    gives another value if rows are removed before it runs. Nothing may be
    moved below such an expression, or computed from an inlined copy of it.
    """
    return any(isinstance(n, Over) or not n.deterministic for n in node.walk())


def cannot_inline(exprs: tuple[Node, ...], columns: dict[str, Node]) -> bool:
    """Whether ``exprs`` must read ``columns`` from a projection instead of inlining them.

    Inlining is refused where it would compute one expression twice, or move a
    barrier (``is_barrier``) into another expression or into a filter.
    """
    uses = Counter(n.name for e in exprs for n in e.walk() if isinstance(n, Column))
    for name, count in uses.items():
        inlined = columns[name]
        if is_barrier(inlined) or (count > 1 and not trivial(inlined)):
            return True
    return False


def flush(rel: Pending, *, private: bool = False) -> Pending:
    """Emit the pending filter and projection as steps; the result has nothing pending.

    No projection is written when the columns are the step's own, in order.
    ``private``: the output names are the lowering's own (``SparkColumn``),
    written as they are rather than as a user's names are.
    """
    step = rel.step
    for condition in rel.conditions:
        refuse_too_deep(condition, "a filter's condition")
    for name, node in rel.columns.items():
        refuse_too_deep(node, f"column {name!r}")
    if rel.conditions:
        step = Where(step, " AND ".join(to_sql(c) for c in rel.conditions), udfs=udfs_in(rel.conditions))
    names = list(rel.columns)
    identity = not private and names == list(rel.base)
    identity = identity and all(isinstance(node, Column) and node.name == name for name, node in rel.columns.items())
    reference = SparkColumn if private else Column
    if not identity:
        out = internal_sql if private else column_sql
        exprs = []
        for name, node in rel.columns.items():
            plain = not private and isinstance(node, Column) and node.name == name
            exprs.append(out(name) if plain else f"{to_sql(node)} AS {out(name)}")
        kept = metadata_pairs(rel.columns, private=private)
        step = SelectExprs(step, tuple(exprs), kept, udfs=udfs_in(rel.columns.values()))
    return Pending(step, tuple(names), {name: reference(name, node.type) for name, node in rel.columns.items()})


@dataclass(frozen=True, slots=True)
class SparkColumn(Column):
    """A column the lowering made itself, referred to by its (internal) Spark name as it is."""

    private: ClassVar[bool] = True


COMPILERS[SparkColumn] = lambda node: internal_sql(node.name)
