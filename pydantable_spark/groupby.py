"""``group_by(...).agg(...)``: one row per group of equal keys.

>>> from pydantable_spark import DataFrameModel, F
>>> class Sale(DataFrameModel):
...     shop: str
...     amount: float | None
>>> g = Sale.from_rows([]).group_by("shop").agg(n=F.count(), total=F.sum(Sale.amount), most=("max", "amount"))
>>> print(g.schema)
shop: str (string)
n: int (bigint)
total: float | None (double)
most: float | None (double)
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ArgumentTypeError, ArgumentValueError, shown
from pydantable_spark.expr.api import Expr
from pydantable_spark.expr.call import Call
from pydantable_spark.expr.catalog import CATALOG
from pydantable_spark.expr.core import Alias, Column, Node, bind, literal_of, render
from pydantable_spark.expr.forms import coalesce, col
from pydantable_spark.expr.over import Over
from pydantable_spark.plan.aggregate import Aggregate, null_dropped_keys
from pydantable_spark.pyspark_names import GROUPED, install, visible

if TYPE_CHECKING:
    from collections.abc import Callable

    from pydantable_spark.frame import DataFrame

__all__ = ["AGGREGATIONS", "DynamicGroupBy", "GroupBy", "broadcast"]

_TUPLE_NAMES = (
    "count", "sum", "mean", "avg", "min", "max", "median", "std", "var", "first", "last", "n_unique",
    "count_distinct", "collect_list", "collect_set",
)  # fmt: skip
AGGREGATIONS: dict[str, Callable[[Node], Node]] = {
    name: (lambda entry: lambda node: Call(entry, (node,)))(CATALOG[name]) for name in _TUPLE_NAMES
}
"""The names the tuple form ``agg(total=("sum", "amount"))`` accepts."""


K_co = TypeVar("K_co", covariant=True)


class GroupBy(Generic[K_co]):
    """A frame grouped by keys; ``agg`` turns each group into one row.

    ``K_co`` is, for type checkers, the row type of the key columns alone (the
    mypy plugin fills it in); it plays no part at run time.
    """

    __slots__ = ("_drop_nulls", "_frame", "_keys", "_maintain_order")

    def __init__(self, frame: DataFrame[Any], keys: tuple[Node, ...], drop_nulls: bool, maintain_order: bool) -> None:
        self._frame = frame
        self._keys = keys
        self._drop_nulls = drop_nulls
        self._maintain_order = maintain_order

    def __dir__(self) -> list[str]:
        return visible(super().__dir__())

    @property
    def null_dropped_keys(self) -> tuple[str, ...]:
        """The keys whose NULL rows ``agg`` leaves out: every nullable key, unless ``group_by(..., drop_nulls=False)``.

        PySpark's ``groupBy`` keeps such rows as a group of their own;
        ``drop_nulls=False`` does here. ``explain()`` names these keys too.

        ```pycon
        >>> from pydantable_spark import DataFrameModel
        >>> class Sale(DataFrameModel):
        ...     day: str
        ...     country: str | None
        >>> Sale.from_rows([]).group_by("day", "country").null_dropped_keys
        ('country',)
        >>> Sale.from_rows([]).group_by("day", "country", drop_nulls=False).null_dropped_keys
        ()

        ```
        """
        return tuple(render(k) for k in null_dropped_keys(self._keys, self._drop_nulls))

    def agg(self, *exprs: Expr[Any], **named: Expr[Any] | tuple[str, str]) -> DataFrame[Any]:
        """The keys, then one column per aggregate; keywords name them.

        Every column an expression reads must be inside an aggregate function.
        A keyword may also be ``("sum", "column")``, naming one of ``AGGREGATIONS``.
        """
        schema = self._frame.schema
        nodes = [bind(e.node, schema) for e in exprs]
        for name, value in named.items():
            node = _tuple_form(name, value) if isinstance(value, tuple) else value.node
            nodes.append(bind(Alias(node, name), schema))
        plan = Aggregate(self._frame.plan, self._keys, tuple(nodes), self._drop_nulls, self._maintain_order)
        return self._frame._frame(plan)

    def count(self) -> DataFrame[Any]:
        """Rows per group, in a column ``count``."""
        return self.agg(count=Expr(Call(CATALOG["count"], ())))


install(GroupBy, GROUPED)  # PySpark's GroupedData names answer what to write here (``pyspark_names``)


class DynamicGroupBy(GroupBy[K_co]):
    """``group_by_dynamic(...)``: groups by time window (``F.window``), then by window start in ``agg``'s result.

    The keys are the ``by`` columns and the window (a struct of ``start`` and
    ``end``, under the index column's name); ``agg`` gives the ``by`` columns,
    then the index column holding each window's start, then the aggregates.
    Spark types a window's fields nullable: the start is coalesced with a
    constant of its type, never used (a window always has a start), so that the
    index column is not nullable.
    """

    __slots__ = ("_index",)

    def __init__(self, frame: DataFrame[Any], keys: tuple[Node, ...], drop_nulls: bool, index: str) -> None:
        super().__init__(frame, keys, drop_nulls, False)
        self._index = index

    def agg(self, *exprs: Expr[Any], **named: Expr[Any] | tuple[str, str]) -> DataFrame[Any]:
        """The ``by`` columns, the index column (each window's start), then one column per aggregate."""
        grouped = super().agg(*exprs, **named)
        window = grouped.schema[self._index].dtype
        assert isinstance(window, dt.Struct)
        start = window.fields[0].dtype
        zone = None if isinstance(start, dt.DatetimeNTZ) else datetime.timezone.utc
        never_used: Expr[Any] = Expr(literal_of(datetime.datetime(1970, 1, 1, tzinfo=zone), start))
        return grouped.with_columns(**{self._index: coalesce(col(self._index).struct.field("start"), never_used)})


def _tuple_form(name: str, value: tuple[str, str]) -> Node:
    if len(value) != 2 or not all(isinstance(v, str) for v in value):
        msg = f"agg({name}=...) takes an expression or a pair like ('sum', 'column'), not {shown(value)}"
        raise ArgumentTypeError(msg)
    function, column = value
    make = AGGREGATIONS.get(function)
    if make is None:
        msg = f"agg({name}=({shown(function)}, ...)): unknown aggregation; use one of {', '.join(AGGREGATIONS)}"
        raise ArgumentValueError(msg)
    return make(Column(column))


def broadcast(node: Node) -> Node:
    """``node`` with each aggregate outside a window evaluated over the whole frame."""
    if not node.facts.has_aggregate:
        return node
    if node.is_aggregate:
        return Over(node)
    if isinstance(node, Over):
        return node
    return node.map_children(broadcast)
