"""Aggregate functions and their type rules (Spark's, measured on 4.3).

Over an all-NULL group every aggregate is NULL except the counts (0) and the
collections (empty), so counts and collections are the only non-nullable ones.
An aggregate is valid in ``group_by().agg()``, in a ``select`` of aggregates
only (one row), in ``with_columns`` (the value over the whole frame on every
row) and under ``.over(window)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ColumnTypeError
from pydantable_spark.expr.core import Node, Typed, check_param, describe

__all__ = [
    "AggregateFunction",
    "CollectList",
    "CollectSet",
    "Count",
    "CountDistinct",
    "First",
    "Last",
    "Max",
    "Mean",
    "Median",
    "Min",
    "Std",
    "Sum",
    "Var",
    "contains_aggregate",
]


@dataclass(frozen=True, slots=True)
class AggregateFunction(Node):
    """Base of the aggregate functions; ``sql_name`` is Spark's function.

    ``windowable`` is False for those Spark refuses under ``OVER`` (the DISTINCT ones).
    """

    sql_name: ClassVar[str] = ""
    windowable: ClassVar[bool] = True


def _numeric(node: Node, what: str) -> Typed:
    typed = node.type
    if not isinstance(typed.dtype, dt.Numeric):
        msg = f"{what}() needs a number; got {describe(node)}"
        raise ColumnTypeError(msg)
    return typed


def _orderable(node: Node, what: str) -> Typed:
    typed = node.type
    if dt.contains_map(typed.dtype):
        msg = f"{what}() cannot order {describe(node)}: maps have no order"
        raise ColumnTypeError(msg)
    return typed


@dataclass(frozen=True, slots=True)
class Count(AggregateFunction):
    """Rows (``child`` None) or non-NULL values of ``child``; 0 for an empty group, never NULL."""

    child: Node | None = None
    sql_name: ClassVar[str] = "count"

    def derive(self) -> Typed:
        return Typed(dt.Int64(), False)

    @property
    def output_name(self) -> str:
        return "count" if self.child is None else self.child.output_name


@dataclass(frozen=True, slots=True)
class CountDistinct(AggregateFunction):
    """Distinct non-NULL values (of the combination of ``args``)."""

    args: tuple[Node, ...]
    sql_name: ClassVar[str] = "count"
    windowable: ClassVar[bool] = False

    def derive(self) -> Typed:
        if not self.args:
            msg = "count_distinct() needs at least one expression"
            raise ColumnTypeError(msg)
        return Typed(dt.Int64(), False)


@dataclass(frozen=True, slots=True)
class Sum(AggregateFunction):
    """Sum: integers as ``bigint``, floats as ``double``, ``decimal(p, s)`` as ``decimal(p + 10, s)``."""

    child: Node
    sql_name: ClassVar[str] = "sum"

    def derive(self) -> Typed:
        source = _numeric(self.child, "sum").dtype
        if isinstance(source, dt.Integral):
            return Typed(dt.Int64(), True)
        if isinstance(source, dt.Decimal):
            precision = min(source.precision + 10, dt.MAX_DECIMAL_PRECISION)
            return Typed(dt.Decimal(precision, source.scale), True)
        return Typed(dt.Float64(), True)


@dataclass(frozen=True, slots=True)
class Mean(AggregateFunction):
    """Average: ``double``, or ``decimal(p + 4, s + 4)`` for decimals."""

    child: Node
    sql_name: ClassVar[str] = "avg"

    def derive(self) -> Typed:
        source = _numeric(self.child, "mean").dtype
        if isinstance(source, dt.Decimal):
            precision = min(source.precision + 4, dt.MAX_DECIMAL_PRECISION)
            return Typed(dt.Decimal(precision, min(source.scale + 4, precision)), True)
        return Typed(dt.Float64(), True)


@dataclass(frozen=True, slots=True)
class _NumericToDouble(AggregateFunction):
    child: Node

    def derive(self) -> Typed:
        _numeric(self.child, type(self).__name__.lower())
        return Typed(dt.Float64(), True)


@dataclass(frozen=True, slots=True)
class Median(_NumericToDouble):
    """Median, as ``double``."""

    sql_name: ClassVar[str] = "median"


@dataclass(frozen=True, slots=True)
class Std(_NumericToDouble):
    """Sample standard deviation, as ``double``."""

    sql_name: ClassVar[str] = "stddev_samp"


@dataclass(frozen=True, slots=True)
class Var(_NumericToDouble):
    """Sample variance, as ``double``."""

    sql_name: ClassVar[str] = "var_samp"


@dataclass(frozen=True, slots=True)
class _SameType(AggregateFunction):
    child: Node

    def derive(self) -> Typed:
        return Typed(_orderable(self.child, type(self).__name__.lower()).dtype, True)


@dataclass(frozen=True, slots=True)
class Min(_SameType):
    """Smallest value."""

    sql_name: ClassVar[str] = "min"


@dataclass(frozen=True, slots=True)
class Max(_SameType):
    """Largest value."""

    sql_name: ClassVar[str] = "max"


@dataclass(frozen=True, slots=True)
class First(AggregateFunction):
    """A first value (in no guaranteed order unless the frame is sorted); NULLs skipped if asked."""

    child: Node
    ignore_nulls: bool = False
    sql_name: ClassVar[str] = "first"

    def prepare(self) -> None:
        check_param("F.first()", "ignorenulls", self.ignore_nulls, bool)

    def derive(self) -> Typed:
        return Typed(self.child.type.dtype, True)


@dataclass(frozen=True, slots=True)
class Last(AggregateFunction):
    """A last value (in no guaranteed order unless the frame is sorted); NULLs skipped if asked."""

    child: Node
    ignore_nulls: bool = False
    sql_name: ClassVar[str] = "last"

    def prepare(self) -> None:
        check_param("F.last()", "ignorenulls", self.ignore_nulls, bool)

    def derive(self) -> Typed:
        return Typed(self.child.type.dtype, True)


@dataclass(frozen=True, slots=True)
class _Collect(AggregateFunction):
    child: Node

    def derive(self) -> Typed:
        typed = self.child.type
        if isinstance(self, CollectSet) and dt.contains_map(typed.dtype):
            msg = f"collect_set() cannot compare {describe(self.child)}: maps have no equality"
            raise ColumnTypeError(msg)
        return Typed(dt.List(typed.dtype, False), False)  # NULLs are skipped


@dataclass(frozen=True, slots=True)
class CollectList(_Collect):
    """The non-NULL values as an array."""

    sql_name: ClassVar[str] = "collect_list"


@dataclass(frozen=True, slots=True)
class CollectSet(_Collect):
    """The distinct non-NULL values as an array."""

    sql_name: ClassVar[str] = "collect_set"


def contains_aggregate(node: Node) -> bool:
    """Whether an aggregate function appears in ``node`` outside any window."""
    from pydantable_spark.expr.window import Over

    if isinstance(node, AggregateFunction):
        return True
    if isinstance(node, Over):
        return False
    return any(contains_aggregate(child) for child in node.children())
