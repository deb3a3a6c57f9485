"""Run-time NULL checks kept pending, above the filters, so Spark still pushes filters into the scan.

A non-null model field read from data that may hold NULLs (files store every
column nullable) is checked at run time (``_spark.null_checks``): the value is
wrapped as ``coalesce(v, IF(raise_error(...) IS NULL, 1, 2))``. A filter over
that wrapped value would reach the scan as ``coalesce(v, ...) > 10``, which no
data source evaluates: Spark would leave it out of ``PushedFilters`` and out of
partition pruning, and read every row group and every partition.

So translation leaves such a check pending as a ``NullChecked`` node over the
stored column. A projection reads the checked value: every value a result
holds is checked. A filter reads the stored value (``unchecked``) and is
written below the projection that checks, exactly where a raw PySpark read
would have it. The rule, as documented (docs/reconciliation.md): a row the
filters keep has every column it reads checked; a NULL in a row that a filter
removes is not reported, since no result holds it (the filter itself saw the
NULL as SQL does: ``v > 10`` is not true for it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from pydantable_spark import dtypes as dt
from pydantable_spark._spark.null_checks import checked_sql
from pydantable_spark._spark.sql import COMPILERS, spark_name, to_sql
from pydantable_spark.expr.core import Column, Node, Typed

if TYPE_CHECKING:
    from collections.abc import Collection, Mapping

    from pydantable_spark.steps.pending import Pending

__all__ = ["NullChecked", "checked_again", "defer_checks", "metadata_pairs", "unchecked"]


@dataclass(frozen=True, slots=True)
class NullChecked(Node):
    """The stored column ``child`` (nullable) as the non-null ``target``: a NULL in it fails the job.

    ``path`` is the column's name in the model, as the error names it.
    """

    label: ClassVar[str] = "null check"

    child: Column
    target: dt.Field
    path: str

    def derive(self) -> Typed:
        return Typed(self.target.dtype, self.target.nullable)

    def render(self) -> str:
        return self.child.render()


def _compile(node: NullChecked) -> str:
    stored = dt.Field(node.path, node.child.type.dtype, True)
    return checked_sql(to_sql(node.child), stored, node.target, node.path)


COMPILERS[NullChecked] = _compile


def unchecked(columns: Mapping[str, Node]) -> dict[str, Node]:
    """``columns`` as a filter reads them: each checked column read as its stored column, under the checked type.

    The type stays the checked one, so a predicate derives the same types as
    over the checked value; its SQL reads the stored value.
    """
    return {name: _stored(node) for name, node in columns.items()}


def _stored(node: Node) -> Node:
    if isinstance(node, NullChecked):  # the same kind of reference (a private name stays one)
        return type(node.child)(node.child.name, node.type)
    if isinstance(node, Column) or not any(isinstance(n, NullChecked) for n in node.walk()):
        return node
    return node.map_children(_stored)


def metadata_pairs(columns: Mapping[str, Node], *, private: bool = False) -> tuple[tuple[str, str], ...]:
    """(output, stored) column pairs whose Spark metadata the checking projection keeps (comments...).

    ``private``: the output names are the lowering's own, Spark names as they are.
    """
    return tuple(
        (name if private else spark_name(name), _spark_name_of(node.child))
        for name, node in columns.items()
        if isinstance(node, NullChecked)
    )


def _spark_name_of(column: Column) -> str:
    """The Spark name of a stored column: a user's name encoded, a lowering's own (``SparkColumn``) as it is."""
    return column.name if getattr(column, "private", False) else spark_name(column.name)


def defer_checks(rel: Pending, keep: Collection[str] = ()) -> tuple[Pending, dict[str, NullChecked]]:
    """``rel`` with the pending checks of its checked columns taken out (except ``keep``), and those checks.

    A step that keeps or drops whole rows by other columns (a sort, a
    repartition, a join on other keys) then reads the stored values, and the
    checks are put back above it (``checked_again``), where filters written
    after the step still see through them. Only a column that is its check
    alone moves; one computed from a checked column keeps its check inside.
    """
    from pydantable_spark.steps.pending import Pending

    deferred = {n: c for n, c in rel.columns.items() if isinstance(c, NullChecked) and n not in keep}
    if not deferred:
        return rel, {}
    columns = {name: deferred[name].child if name in deferred else node for name, node in rel.columns.items()}
    return Pending(rel.step, rel.base, columns, rel.conditions), deferred


def checked_again(rel: Pending, deferred: Mapping[str, NullChecked], names: Mapping[str, str] | None = None) -> Pending:
    """``rel`` (columns that are references to its step's) with the ``deferred`` checks put back.

    ``names`` maps a column of ``rel`` to the deferred column it holds (by
    default the same name); the others are left as they are.
    """
    from pydantable_spark.steps.pending import Pending

    columns = dict(rel.columns)
    for name, node in rel.columns.items():
        check = deferred.get(name if names is None else names.get(name, ""))
        if check is not None and isinstance(node, Column):
            # the same kind of reference (a private name stays one), typed as the stored column
            columns[name] = NullChecked(type(node)(node.name, check.child.type), check.target, check.path)
    return Pending(rel.step, rel.base, columns, rel.conditions)
