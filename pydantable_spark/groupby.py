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

from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantable_spark.errors import ArgumentTypeError, ArgumentValueError, shown
from pydantable_spark.expr.api import Expr
from pydantable_spark.expr.call import Call
from pydantable_spark.expr.catalog import CATALOG
from pydantable_spark.expr.core import Alias, Column, Node, bind, render
from pydantable_spark.expr.over import Over
from pydantable_spark.plan.aggregate import Aggregate, null_dropped_keys
from pydantable_spark.pyspark_names import GROUPED, install, visible

if TYPE_CHECKING:
    from collections.abc import Callable

    from pydantable_spark.frame import DataFrame

__all__ = ["AGGREGATIONS", "GroupBy", "broadcast"]

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
