"""Windows, ``expr.over(window)``, and the window functions with their type rules.

A window is built as ``Window.partition_by(...).order_by(...).rows_between(a, b)``.

```pycon
>>> from pydantable_spark import F, Window
>>> w = Window.partition_by("dept").order_by("salary", descending=True)
>>> F.row_number().over(w)
Expr[?](row_number().over(...))

```
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ColumnTypeError
from pydantable_spark.expr.aggregates import AggregateFunction
from pydantable_spark.expr.core import Column, Node, Typed, adopt_weak, check_param, describe
from pydantable_spark.typerules import Conversion, classify_conversion

_INT32_MAX = 2**31 - 1

__all__ = [
    "CumeDist",
    "DenseRank",
    "FirstValue",
    "Frame",
    "Lag",
    "LastValue",
    "Lead",
    "NthValue",
    "Ntile",
    "Over",
    "PercentRank",
    "Rank",
    "RowNumber",
    "Window",
    "WindowFunction",
    "WindowSpec",
    "contains_window",
]


@dataclass(frozen=True, slots=True)
class WindowFunction(Node):
    """Base of the functions that only exist over a window."""

    sql_name: ClassVar[str] = ""
    needs_order: ClassVar[bool] = True

    @property
    def output_name(self) -> str:
        for child in self.children():
            if not child.is_constant:
                return child.output_name
        return self.sql_name

    @property
    def is_constant(self) -> bool:
        return False


@dataclass(frozen=True, slots=True)
class _Ranking(WindowFunction):
    def derive(self) -> Typed:
        return Typed(dt.Int32(), False)


@dataclass(frozen=True, slots=True)
class RowNumber(_Ranking):
    """1, 2, 3, ... within the partition, in window order."""

    sql_name: ClassVar[str] = "row_number"


@dataclass(frozen=True, slots=True)
class Rank(_Ranking):
    """Rank with gaps after ties."""

    sql_name: ClassVar[str] = "rank"


@dataclass(frozen=True, slots=True)
class DenseRank(_Ranking):
    """Rank without gaps."""

    sql_name: ClassVar[str] = "dense_rank"


@dataclass(frozen=True, slots=True)
class Ntile(_Ranking):
    """The bucket (1..n) of the row when the partition is split into ``n`` buckets."""

    n: int = 1
    sql_name: ClassVar[str] = "ntile"

    def prepare(self) -> None:
        check_param("F.ntile()", "n", self.n, int)
        if not 1 <= self.n <= _INT32_MAX:
            msg = f"F.ntile(): n must be between 1 and {_INT32_MAX}, got {self.n}"
            raise ColumnTypeError(msg)

    def derive(self) -> Typed:
        return Typed(dt.Int32(), False)


@dataclass(frozen=True, slots=True)
class _Distribution(WindowFunction):
    def derive(self) -> Typed:
        return Typed(dt.Float64(), False)


@dataclass(frozen=True, slots=True)
class PercentRank(_Distribution):
    """(rank - 1) / (rows in partition - 1), as ``double``."""

    sql_name: ClassVar[str] = "percent_rank"


@dataclass(frozen=True, slots=True)
class CumeDist(_Distribution):
    """The fraction of rows ordered at or before this one, as ``double``."""

    sql_name: ClassVar[str] = "cume_dist"


@dataclass(frozen=True, slots=True)
class _Offset(WindowFunction):
    child: Node
    offset: int = 1
    default: Node | None = None

    def prepare(self) -> None:
        check_param(f"F.{self.sql_name}()", "offset", self.offset, int)
        if abs(self.offset) > _INT32_MAX:
            msg = f"F.{self.sql_name}(): offset must fit in an int (|offset| <= {_INT32_MAX}), got {self.offset}"
            raise ColumnTypeError(msg)
        if self.default is not None:
            object.__setattr__(self, "default", adopt_weak(self.default, self.child))

    def derive(self) -> Typed:
        child = self.child.type
        if self.default is None:
            return Typed(child.dtype, True)
        default = self.default.type.dtype
        if classify_conversion(default, child.dtype) not in (Conversion.IDENTICAL, Conversion.WIDENING):
            msg = (
                f"{self.sql_name}() default {describe(self.default)} does not convert to the type of "
                f"{describe(self.child)} without loss; Spark would cast it, the façade asks for "
                f".cast(...) on the default"
            )
            raise ColumnTypeError(msg)
        return Typed(child.dtype, child.nullable or self.default.type.nullable)  # Spark casts the default


@dataclass(frozen=True, slots=True)
class Lag(_Offset):
    """The value ``offset`` rows before (``default`` where there is none)."""

    sql_name: ClassVar[str] = "lag"


@dataclass(frozen=True, slots=True)
class Lead(_Offset):
    """The value ``offset`` rows after (``default`` where there is none)."""

    sql_name: ClassVar[str] = "lead"


@dataclass(frozen=True, slots=True)
class _Frame(WindowFunction):
    child: Node
    ignore_nulls: bool = False
    needs_order: ClassVar[bool] = False

    def prepare(self) -> None:
        check_param(f"F.{self.sql_name}()", "ignorenulls", self.ignore_nulls, bool)

    def derive(self) -> Typed:
        return Typed(self.child.type.dtype, True)


@dataclass(frozen=True, slots=True)
class FirstValue(_Frame):
    """The first value in the window frame."""

    sql_name: ClassVar[str] = "first_value"


@dataclass(frozen=True, slots=True)
class LastValue(_Frame):
    """The last value in the window frame."""

    sql_name: ClassVar[str] = "last_value"


@dataclass(frozen=True, slots=True)
class NthValue(WindowFunction):
    """The ``n``-th value in the window frame (1-based); Spark asks for an ordered window."""

    child: Node
    n: int = 1
    sql_name: ClassVar[str] = "nth_value"

    def prepare(self) -> None:
        check_param("F.nth_value()", "n", self.n, int)
        if not 1 <= self.n <= _INT32_MAX:
            msg = f"F.nth_value(): n must be between 1 and {_INT32_MAX}, got {self.n}"
            raise ColumnTypeError(msg)

    def derive(self) -> Typed:
        return Typed(self.child.type.dtype, True)


# --- the window itself ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Frame:
    """A window frame: ``rows`` or ``range`` between two offsets (None: unbounded; 0: current row)."""

    kind: Literal["rows", "range"]
    start: int | None
    end: int | None


@dataclass(frozen=True, slots=True)
class Over(Node):
    """``child OVER (PARTITION BY ... ORDER BY ... frame)``."""

    child: Node
    partition_by: tuple[Node, ...] = ()
    order_by: tuple[Node, ...] = ()
    descending: tuple[bool, ...] = ()
    nulls_last: tuple[bool, ...] = ()
    frame: Frame | None = None

    def derive(self) -> Typed:
        child = self.child
        if not isinstance(child, WindowFunction | AggregateFunction):
            msg = f"over() applies to window functions and aggregates; got {describe(child)}"
            raise ColumnTypeError(msg)
        if isinstance(child, AggregateFunction) and not child.windowable:
            msg = (
                "count_distinct() cannot run over a window (Spark has no DISTINCT window functions), and "
                "with_columns(x=F.count_distinct(...)) is one over the whole frame; count distinct values with "
                "F.collect_set(...).over(window).list.len(), or group_by().agg() and a join"
            )
            raise ColumnTypeError(msg)
        if isinstance(child, WindowFunction) and child.needs_order and not self.order_by:
            msg = f"{child.sql_name}() needs an ordered window: Window.order_by(...)"
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


def _node(item: object) -> Node:
    from pydantable_spark.expr.api import Expr

    if isinstance(item, str):
        return Column(item)
    if isinstance(item, Expr):
        return item.node
    msg = f"a window takes column names or expressions, not {item!r}"
    raise ColumnTypeError(msg)


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
            raise ValueError(msg)
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
            raise ValueError(msg)
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
        msg = f"{what}: {name} must be a bool or a list of bools, got {value!r} ({type(value).__name__})"
        raise ColumnTypeError(msg)
    for item in value:
        check_param(what, name, item, bool)
    return list(value)


def contains_window(node: Node) -> bool:
    """Whether ``node`` has a window (``over``) anywhere in it."""
    return isinstance(node, Over) or any(contains_window(c) for c in node.children())


def bare_window_function(node: Node) -> WindowFunction | None:
    """A window function used without ``.over()``, if ``node`` has one."""
    if isinstance(node, WindowFunction):
        return node
    if isinstance(node, Over):
        return next((f for c in node.child.children() if (f := bare_window_function(c)) is not None), None)
    return next((f for c in node.children() if (f := bare_window_function(c)) is not None), None)
