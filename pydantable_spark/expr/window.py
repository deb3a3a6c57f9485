"""``expr OVER (window)``: the ``Over`` node and its window frame.

The window specification users build (``Window.partition_by(...)``) is in
``expr.windowspec``; the functions that need a window are catalog entries
(``catalog.windows``, and every aggregate).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ColumnTypeError
from pydantable_spark.expr.core import Node, Typed, describe

__all__ = ["Frame", "Over"]


@dataclass(frozen=True, slots=True)
class Frame:
    """A window frame: ``rows`` or ``range`` between two offsets (None: unbounded; 0: current row)."""

    kind: Literal["rows", "range"]
    start: int | None
    end: int | None


@dataclass(frozen=True, slots=True)
class Over(Node):
    """``child OVER (PARTITION BY ... ORDER BY ... frame)``; ``child`` is a window function or an aggregate."""

    child: Node
    partition_by: tuple[Node, ...] = ()
    order_by: tuple[Node, ...] = ()
    descending: tuple[bool, ...] = ()
    nulls_last: tuple[bool, ...] = ()
    frame: Frame | None = None

    is_window: ClassVar[bool] = True
    label: ClassVar[str] = "over"

    def render(self) -> str:
        return f"{self.child.render()}.over(...)"

    def derive(self) -> Typed:
        from pydantable_spark.expr.call import Call

        child = self.child
        if not (child.is_aggregate or child.is_window_function):
            msg = f"over() applies to window functions and aggregates; got {describe(child)}"
            raise ColumnTypeError(msg)
        assert isinstance(child, Call)
        function = child.function
        if not function.windowable:
            msg = (
                f"{function.name}() cannot run over a window (Spark has no DISTINCT window functions), and "
                f"with_columns(x=F.{function.name}(...)) is one over the whole frame; count distinct values with "
                "F.collect_set(...).over(window).list.len(), or group_by().agg() and a join"
            )
            raise ColumnTypeError(msg)
        if function.needs_order and not self.order_by:
            msg = f"{function.name}() needs an ordered window: Window.order_by(...)"
            raise ColumnTypeError(msg)
        if not function.window_order and (self.order_by or self.frame is not None):
            msg = f"{function.name}() takes a window without order or frame: Window.partition_by(...) only"
            raise ColumnTypeError(msg)
        for key in (*self.partition_by, *self.order_by):
            if dt.contains_map(key.type.dtype):
                msg = f"a window cannot partition or order by {describe(key)}: maps have no order"
                raise ColumnTypeError(msg)
        ranged = self.frame is not None and self.frame.kind == "range"
        if ranged and (
            len(self.order_by) != 1 or not isinstance(self.order_by[0].type.dtype, dt.Numeric | dt.Temporal)
        ):
            msg = "range_between() needs exactly one numeric or date order key"
            raise ColumnTypeError(msg)
        return child.type

    @property
    def output_name(self) -> str:
        return self.child.output_name
