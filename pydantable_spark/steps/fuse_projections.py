"""Pass ``fuse_projections``: a projection over a projection becomes one projection.

What it rewrites: a projection over pending work (``Pending``) replaces the
pending output columns, its column references replaced by their expressions,
instead of becoming a ``selectExpr`` of its own. ``with_columns(x=a + 1)``
then ``select(y=x * 2)`` is one ``selectExpr((a + 1) * 2 AS y)``. PySpark
analyses every DataFrame step eagerly (7-13 ms of driver time each on a
classic session), so together with ``push_down_filters`` a run of
``with_columns`` / ``filter`` / ``select`` calls costs at most one ``filter``
and one ``selectExpr``. Translation applies it to every ``Project`` plan node,
with the expressions the pass ``prune_columns`` keeps.

Precondition: the expressions read only columns of the pending projection
(the projection's input). They are inlined only where no expression would be
computed twice (a non-trivial column read more than once) and no barrier
(``pending.is_barrier``: a window, a row id, a non-deterministic call) moves
into another expression, and no fused expression nests deeper than
``pending.MAX_DEPTH`` (Spark's SQL parser has a limit: a loop of 500
``with_columns`` on one column becomes a few steps); otherwise the pending
work is flushed into steps first and the projection reads their output.

Invariant: every output column has the value it had before fusion, and a
column passed through unchanged stays a plain column reference, so Spark's
optimizer still sees which scanned columns are read and which filters can go
to the source (what the façade adds must not hide filters or columns from Spark's optimizer).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantable_spark.steps.pending import Pending, cannot_inline, flush, refuse_too_deep, substitute, too_deep

if TYPE_CHECKING:
    from pydantable_spark.expr.core import Node

__all__ = ["fuse_projection"]


def fuse_projection(rel: Pending, exprs: tuple[Node, ...]) -> Pending:
    """``rel`` with its pending columns replaced by ``exprs`` (over its output columns), inlined.

    Where inlining is refused, the pending work is written as steps first and
    ``exprs`` read their output.
    """
    for e in exprs:
        refuse_too_deep(e, f"column {e.output_name!r}")
    if cannot_inline(exprs, rel.columns):
        rel = flush(rel)
    columns = {e.output_name: substitute(e, rel.columns) for e in exprs}
    if too_deep(columns.values()):  # the fused expressions would nest too deep
        rel = flush(rel)
        columns = {e.output_name: substitute(e, rel.columns) for e in exprs}
    return Pending(rel.step, rel.base, columns, rel.conditions)
