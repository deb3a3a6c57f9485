"""Join sides: ``left.col("x")`` and ``right.col("x")`` name a column of one side of a join condition.

A join condition (``join(other, on=<boolean expression>)``) reads columns of
both frames. A model attribute (``Trip.ts``) or a name only one frame has is
unambiguous; a name both frames have is not, and neither is any column of a
self-join. There, say which side: ``right.col("l_suppkey") != left.col("l_suppkey")``.

```pycon
>>> from pydantable_spark import left, right
>>> (left.col("ts") >= right.col("valid_from")).node.render()
'(left.ts >= right.valid_from)'

```

Outside a join condition a side column is the frame's column of that name
(``F.col``): a filter has one side only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantable_spark.expr.api import Col
from pydantable_spark.expr.core import Column, Typed, check_param

__all__ = ["JoinSide", "Side", "SideColumn", "left", "right"]

Side = Literal["left", "right"]


@dataclass(frozen=True, slots=True)
class SideColumn(Column):
    """A column of one side of a join (``left.col("x")``); in a bound join condition every column is one."""

    side: str = "left"

    def render(self) -> str:
        return f"{self.side}.{self.name}"

    @property
    def qualified(self) -> str:
        """``left.x``: how messages name it."""
        return f"{self.side}.{self.name}"


def side_column(name: str, typed: Typed | None, side: Side, owner: str | None = None) -> SideColumn:
    """The column ``name`` of ``side``, typed when ``typed`` is given."""
    return SideColumn(name, typed, owner, side)


class JoinSide:
    """One side of a join condition: ``left`` (the frame ``join`` is called on) or ``right`` (``other``)."""

    __slots__ = ("_side",)

    def __init__(self, side: Side) -> None:
        self._side: Side = side

    def col(self, name: str) -> Col[Any]:
        """The column ``name`` of this side of the join; its type is the frame's, known when the join is built."""
        check_param(f"{self._side}.col()", "name", name, str)
        return Col(side_column(name, None, self._side))

    def __repr__(self) -> str:
        return self._side


left = JoinSide("left")
"""The frame ``join`` is called on, in a join condition: ``left.col("x")``."""
right = JoinSide("right")
"""The ``other`` frame of ``join``, in a join condition: ``right.col("x")``."""
