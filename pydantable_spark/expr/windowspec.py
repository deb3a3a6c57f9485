"""``Window``: the window specifications users build, as in PySpark.

```pycon
>>> from pydantable_spark import F, Window
>>> w = Window.partition_by("dept").order_by("salary", descending=True)
>>> F.row_number().over(w)
Expr[?](row_number().over(...))

```
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantable_spark.errors import ArgumentTypeError, ArgumentValueError, shown
from pydantable_spark.expr.core import Node, check_param
from pydantable_spark.expr.over import Frame, Over

__all__ = ["Window", "WindowSpec", "flags"]


def _node(item: object) -> Node:
    from pydantable_spark.expr.api import into_node

    return into_node(item, "a window")


@dataclass(frozen=True, slots=True)
class WindowSpec:
    """A window: partitioning, ordering and frame. Build it with ``Window``; it is immutable."""

    partition_by_: tuple[Node, ...] = ()
    order_by_: tuple[Node, ...] = ()
    descending: tuple[bool, ...] = ()
    nulls_last: tuple[bool, ...] = ()
    frame: Frame | None = None

    def partition_by(self, *columns: object) -> WindowSpec:
        """Rows are numbered, ranked and aggregated within groups of these columns."""
        return WindowSpec(
            tuple(_node(c) for c in columns), self.order_by_, self.descending, self.nulls_last, self.frame
        )

    def order_by(
        self, *columns: object, descending: bool | list[bool] = False, nulls_last: bool | list[bool] = False
    ) -> WindowSpec:
        """The order within each partition; NULLs first unless ``nulls_last``."""
        count = len(columns)
        desc = flags(descending, count, "Window.order_by()", "descending")
        last = flags(nulls_last, count, "Window.order_by()", "nulls_last")
        if len(desc) != count or len(last) != count:
            msg = f"order_by() got {count} column(s) but {len(desc)} descending and {len(last)} nulls_last flag(s)"
            raise ArgumentValueError(msg)
        nodes = tuple(_node(c) for c in columns)
        return WindowSpec(self.partition_by_, nodes, tuple(desc), tuple(last), self.frame)

    def rows_between(self, start: int | None, end: int | None) -> WindowSpec:
        """A frame of rows: ``-1`` one row before, ``0`` the current row, None unbounded."""
        return self._framed(Frame("rows", start, end))

    def range_between(self, start: int | None, end: int | None) -> WindowSpec:
        """A frame of values of the (single) order key around the current row's."""
        return self._framed(Frame("range", start, end))

    def _framed(self, frame: Frame) -> WindowSpec:
        what = f"Window.{frame.kind}_between()"
        check_param(what, "start", frame.start, int, optional=True)
        check_param(what, "end", frame.end, int, optional=True)
        if frame.start is not None and frame.end is not None and frame.start > frame.end:
            msg = f"a window frame must not end ({frame.end}) before it starts ({frame.start})"
            raise ArgumentValueError(msg)
        return WindowSpec(self.partition_by_, self.order_by_, self.descending, self.nulls_last, frame)

    def over(self, node: Node) -> Over:
        """``node`` evaluated over this window."""
        return Over(node, self.partition_by_, self.order_by_, self.descending, self.nulls_last, self.frame)


class Window:
    """Entry points for window specifications, as in PySpark."""

    @staticmethod
    def partition_by(*columns: object) -> WindowSpec:
        """A window partitioned by these columns."""
        return WindowSpec().partition_by(*columns)

    @staticmethod
    def order_by(
        *columns: object, descending: bool | list[bool] = False, nulls_last: bool | list[bool] = False
    ) -> WindowSpec:
        """A window over the whole frame, in this order."""
        return WindowSpec().order_by(*columns, descending=descending, nulls_last=nulls_last)

    @staticmethod
    def unbounded() -> WindowSpec:
        """A window over the whole frame, unordered."""
        return WindowSpec()


def flags(value: object, count: int, what: str, name: str) -> list[bool]:
    """One ``bool`` per key from a single flag or a sequence of them (``"yes"`` is neither)."""
    if isinstance(value, bool):
        return [value] * count
    if not isinstance(value, list | tuple):
        msg = f"{what}: {name} must be a bool or a list of bools, got {shown(value)} ({type(value).__name__})"
        raise ArgumentTypeError(msg)
    for item in value:
        check_param(what, name, item, bool)
    return list(value)
