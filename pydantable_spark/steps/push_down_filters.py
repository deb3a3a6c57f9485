"""Pass ``push_down_filters``: a filter runs before the projections below it, their expressions inlined.

What it rewrites: a filter over pending work (``Pending``: a projection over a
filter over a step) becomes one more pending condition, its column
references replaced by the projection's expressions, instead of a step above
the projection. ``filter(x > 1)`` over ``selectExpr(a + 1 AS x)`` becomes
``selectExpr(a + 1 AS x)`` over ``filter((a + 1) > 1)``, and consecutive
filters become one ``filter`` of their conjunction. Translation applies it to
every ``Filter`` plan node, right after the pass ``fuse_projections`` has
merged the projections below.

Precondition: the predicate reads only columns of the pending projection
(the filter's input). The filter moves only when every pending column is a
function of its own row (``filter_commutes``) and inlining computes no
expression twice and moves no barrier (``pending.cannot_inline``); otherwise
the pending work is flushed into steps first and the filter stays above them.

A column's pending NULL check (``null_checks.NullChecked``) is not inlined:
the filter reads the stored value and the check stays in the projection
above it, so a filter on a checked scan column still reaches the scan.

Invariant: the same rows are kept, and a filter crosses nothing but
projections (limits, ``unique``, joins, aggregations and explode are steps,
which it never crosses). A filter that reads only scanned columns through
plain projections ends up as a plain ``filter`` directly over the scan, where
Spark's optimizer pushes it into the source as it would the same filter in raw
PySpark (what the façade adds must not hide filters or columns from Spark's optimizer).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantable_spark.steps.null_checks import unchecked
from pydantable_spark.steps.pending import (
    Pending,
    cannot_inline,
    flush,
    is_barrier,
    refuse_too_deep,
    substitute,
    too_deep,
)

if TYPE_CHECKING:
    from collections.abc import Mapping

    from pydantable_spark.expr.core import Node

__all__ = ["filter_commutes", "push_down_filter"]


def filter_commutes(columns: Mapping[str, Node]) -> bool:
    """Whether a filter over the projection ``columns`` may run before it (with the columns substituted).

    Only when every column is computed from its own row alone: a filter moved
    below a window, a whole-frame aggregate (a window too) or a row id changes
    what they compute. Limits, ``unique``, explode, joins and aggregations are
    separate steps, which filters never cross either (translation flushes).
    """
    return not any(is_barrier(node) for node in columns.values())


def push_down_filter(rel: Pending, predicate: Node) -> Pending:
    """``rel`` with ``predicate`` (over its output columns) added to its pending conditions.

    Where the filter may not move below the pending projection, the pending
    work is written as steps first and the predicate filters their output.
    """
    refuse_too_deep(predicate, "a filter's condition")
    if not filter_commutes(rel.columns) or cannot_inline((predicate,), unchecked(rel.columns)):
        rel = flush(rel)
    condition = substitute(predicate, unchecked(rel.columns))
    if too_deep((condition,)):  # inlined, it would nest too deep
        rel = flush(rel)
        condition = substitute(predicate, rel.columns)
    return Pending(rel.step, rel.base, rel.columns, (*rel.conditions, condition))
