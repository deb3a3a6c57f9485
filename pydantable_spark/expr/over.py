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

__all__ = ["FIXED_FRAMES", "Frame", "Over"]


@dataclass(frozen=True, slots=True)
class Frame:
    """A window frame: ``rows`` or ``range`` between two offsets (None: unbounded; 0: current row)."""

    kind: Literal["rows", "range"]
    start: int | None
    end: int | None

    @property
    def has_offsets(self) -> bool:
        """Whether a bound is some rows or values away (not unbounded, not the current row)."""
        return self.start not in (None, 0) or self.end not in (None, 0)

    def __str__(self) -> str:
        return f"{self.kind}_between({self.start}, {self.end})"


FIXED_FRAMES: dict[str, Frame | None] = {
    "row_number": Frame("rows", None, 0),
    "rank": Frame("rows", None, 0),
    "dense_rank": Frame("rows", None, 0),
    "percent_rank": Frame("rows", None, 0),
    "ntile": Frame("rows", None, 0),
    "cume_dist": Frame("range", None, 0),
    "lag": None,
    "lead": None,
    "counter_diff": Frame("rows", None, 0),
}
"""Window functions whose frame Spark fixes (measured on Spark 4.3): the one frame it accepts besides none.

Ranking functions (and ``counter_diff``) take only the frame they run over anyway; ``lag`` and
``lead`` read the row ``offset`` away and take no frame here (Spark accepts
only the frame of exactly that row, which says nothing more).
"""


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
        if not function.placement.windowable:
            msg = (
                f"{function.name}() cannot run over a window (Spark has no DISTINCT window functions), and "
                f"with_columns(x=F.{function.name}(...)) is one over the whole frame; count distinct values with "
                "F.collect_set(...).over(window).list.len(), or group_by().agg() and a join"
            )
            raise ColumnTypeError(msg)
        if function.placement.needs_order and not self.order_by:
            msg = f"{function.name}() needs an ordered window: Window.order_by(...)"
            raise ColumnTypeError(msg)
        if not function.placement.window_order and (self.order_by or self.frame is not None):
            msg = f"{function.name}() takes a window without order or frame: Window.partition_by(...) only"
            raise ColumnTypeError(msg)
        for key in (*self.partition_by, *self.order_by):
            if dt.contains_map(key.type.dtype):
                msg = f"a window cannot partition or order by {describe(key)}: maps have no order"
                raise ColumnTypeError(msg)
            if dt.contains_variant(key.type.dtype):
                msg = f"a window cannot partition or order by {describe(key)}: {dt.VARIANT_NOT_COMPARABLE}"
                raise ColumnTypeError(msg)
        if self.frame is not None:
            self._check_frame(function.name, self.frame)
        return child.type

    def _check_frame(self, function: str, frame: Frame) -> None:
        """Refuse a frame Spark's analyzer refuses for this function and these order keys (Spark 4.3's rules)."""
        if function in FIXED_FRAMES and frame != FIXED_FRAMES[function]:
            fixed = FIXED_FRAMES[function]
            allowed = "no frame" if fixed is None else f"no frame (or exactly {fixed})"
            msg = f"{function}() runs over a frame Spark fixes: its window takes {allowed}, not {frame}"
            raise ColumnTypeError(msg)
        if frame.kind != "range":
            return
        if frame.has_offsets:
            if len(self.order_by) != 1 or not isinstance(self.order_by[0].type.dtype, dt.Numeric):
                keys = ", ".join(describe(k) for k in self.order_by) or "none"
                msg = (
                    f"{frame} needs exactly one numeric order key, since Spark adds the offsets to its value "
                    f"(order keys: {keys}); for dates order by F.unix_date(...), for timestamps by "
                    "F.unix_seconds(...), or use rows_between"
                )
                raise ColumnTypeError(msg)
        elif not self.order_by and (frame.start, frame.end) != (None, None):
            msg = f"{frame} needs an ordered window (its bounds are the current row's order key): Window.order_by(...)"
            raise ColumnTypeError(msg)

    @property
    def output_name(self) -> str:
        return self.child.output_name
