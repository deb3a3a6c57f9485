"""What a join of two streams needs: an equal key, and for outer and semi joins, watermarks and time bounds.

Spark joins two streams by keeping each side's rows in state until no row of
the other side can match them any more. Its rules (``UnsupportedOperationChecker``
and ``StreamingJoinHelper`` in Spark's source), read here from the façade's plan:

* every join of two streams needs an equality between the sides (a key, or an
  ``==`` condition): Spark fails such a query when it starts otherwise;
* an inner join needs nothing more (each side's state then grows without end
  unless watermarks and a time bound let Spark drop old rows);
* a left outer or semi join writes a left row without a match only once Spark
  knows no right row can match it: Spark needs a watermarked column among the
  equal keys, or a *time bound*: a condition ``right_time + c1 < left_time + c2``
  (``<``, ``<=``, ``>``, ``>=``, durations ``c1``, ``c2``) whose right column
  carries a watermark, which bounds the left rows' time from below; a right
  outer join the same, sides swapped; a full outer join one of the two (the
  façade asks both: the rows of the side left without a bound would never be
  written). The façade also asks for a watermark on both sides, as Spark's
  guide does for outer joins;
* an anti join of two streams is refused (Spark's rule).

Nothing here talks to Spark; ``plan.streaming`` calls ``stream_join_refusal``
when a join of two streams is built.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantable_spark import dtypes as dt
from pydantable_spark.expr.core import Column, Literal, Node, render
from pydantable_spark.expr.operators import And, Arithmetic, ArithmeticOp, Comparison, ComparisonOp
from pydantable_spark.expr.sides import SideColumn

if TYPE_CHECKING:
    from pydantable_spark.plan.joins import Join

__all__ = ["bounded_sides", "conjuncts", "stream_join_refusal"]

_ORDERINGS = {ComparisonOp.LT, ComparisonOp.LE, ComparisonOp.GT, ComparisonOp.GE}


def conjuncts(conditions: tuple[Node, ...]) -> list[Node]:
    """The conditions split at every ``&``: each must hold."""
    out: list[Node] = []
    pending = list(reversed(conditions))
    while pending:
        node = pending.pop()
        if isinstance(node, And):
            pending.extend((node.right, node.left))
        else:
            out.append(node)
    return out


def _terms(node: Node, sign: int, out: list[tuple[int, SideColumn]]) -> bool:
    """Collect ``node``'s columns with their signs, if it is a sum of columns and duration constants."""
    if isinstance(node, Arithmetic) and node.op in (ArithmeticOp.ADD, ArithmeticOp.SUB):
        flip = sign if node.op is ArithmeticOp.ADD else -sign
        return _terms(node.left, sign, out) and _terms(node.right, flip, out)
    if isinstance(node, SideColumn):
        out.append((sign, node))
        return True
    return isinstance(node, Literal) and isinstance(node.type.dtype, dt.Duration)


def _bounds(condition: Node, marked: dict[str, frozenset[str]]) -> str | None:
    """The side whose event time ``condition`` bounds from below by the other side's watermarked time, if any.

    ``condition`` is ``lesser < greater`` (or ``<=``, ``>``, ``>=``) over sums of
    one timestamp column of each side and duration constants; the column of the
    lesser sum carries a watermark and the bounded side's column is in the
    greater sum (Spark's ``getStateValueWatermark``).
    """
    if not isinstance(condition, Comparison) or condition.op not in _ORDERINGS:
        return None
    lesser, greater = condition.left, condition.right
    if condition.op in (ComparisonOp.GT, ComparisonOp.GE):
        lesser, greater = greater, lesser
    terms: list[tuple[int, SideColumn]] = []
    if not (_terms(lesser, 1, terms) and _terms(greater, -1, terms)) or len(terms) != 2:
        return None
    (sign_a, a), (sign_b, b) = terms
    if a.side == b.side or sign_a == sign_b:
        return None
    if not all(isinstance(c.type.dtype, dt.Datetime) for c in (a, b)):
        return None
    watermarked, bounded = (a, b) if sign_a > 0 else (b, a)
    return bounded.side if watermarked.name in marked[watermarked.side] else None


def bounded_sides(join: Join, marked: dict[str, frozenset[str]]) -> set[str]:
    """The sides (``"left"``, ``"right"``) whose rows' event time a condition of ``join`` bounds from below."""
    return {side for c in conjuncts(join.conditions) if (side := _bounds(c, marked)) is not None}


def _equal_pairs(join: Join) -> list[tuple[Node, Node]]:
    """The equalities between the sides: the keys, and ``==`` conditions with one side's columns on each side."""
    pairs = list(zip(join.left_keys, join.right_keys, strict=True))
    for condition in conjuncts(join.conditions):
        if isinstance(condition, Comparison) and condition.op is ComparisonOp.EQ:
            sides = [{c.side for c in n.refs if isinstance(c, SideColumn)} for n in (condition.left, condition.right)]
            if sides == [{"left"}, {"right"}]:
                pairs.append((condition.left, condition.right))
            elif sides == [{"right"}, {"left"}]:
                pairs.append((condition.right, condition.left))
    return pairs


def _watermarked_key(pairs: list[tuple[Node, Node]], marked: dict[str, frozenset[str]]) -> bool:
    for left, right in pairs:
        for side, key in (("left", left), ("right", right)):
            if isinstance(key, Column) and key.name in marked[side]:
                return True
    return False


def stream_join_refusal(join: Join, marked: dict[str, frozenset[str]]) -> tuple[str, str] | None:
    """Why Spark (or the façade) refuses ``join``, a join of two streams: ``(rule, way out)``, or None.

    ``marked`` holds each side's watermarked columns (``plan.streaming.watermarked``).
    """
    how = join.how
    if how == "anti":
        return (
            "Spark refuses an anti join whose right side is a stream",
            "join the right stream's rows to a table first, or keep the unmatched rows with a left join",
        )
    pairs = _equal_pairs(join)
    if not pairs:
        return (
            "Spark joins two streams only on an equality between them (an equal key, or an == condition); "
            "without one, the query fails when it starts",
            "add an equal key (on='id', or on=Left.id == Right.id among the conditions)",
        )
    if how in ("inner", "cross"):
        return None
    missing = [side for side in ("left", "right") if not marked[side]]
    if missing:
        return (
            f"a {how} join of two streams writes a row without a match only once the watermarks pass it, so "
            f"both sides need one; the {' and '.join(missing)} side has none",
            "call with_watermark(Model.ts, '10 minutes') on both streams before the join",
        )
    if _watermarked_key(pairs, marked):
        return None
    wanted = {"left": {"left"}, "semi": {"left"}, "right": {"right"}, "full": {"left", "right"}}[how]
    lacking = sorted(wanted - bounded_sides(join, marked))
    if not lacking:
        return None
    other = {"left": "right", "right": "left"}
    example = " and ".join(f"{side}.ts > {other[side]}.ts - 1 hour" for side in lacking)
    shown = " & ".join(render(c) for c in conjuncts(join.conditions)) or "none"
    return (
        f"Spark keeps a {how} join's unmatched {' and '.join(lacking)} rows until a time bound says no row of the "
        "other stream can match them: a watermarked column among the equal keys, or a condition bounding "
        f"{' and '.join(lacking)} rows' event time from below by the other side's watermarked time ({example}; "
        f"the conditions given: {shown})",
        "add a time range to on=, e.g. (Right.ts >= Left.ts) & (Right.ts <= Left.ts + timedelta(hours=1)), "
        "both columns watermarked",
    )
