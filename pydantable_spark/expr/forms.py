"""The ``F`` functions that are special forms, not catalog entries: ``col``, ``lit``, ``when``, ``coalesce``.

(The aggregate and window functions are here until they move to the catalog.)

```pycon
>>> from pydantable_spark import F
>>> F.when(F.col("age") >= 18, "adult").otherwise("minor")
Expr[?](when(...))
>>> F.coalesce(F.lit(None, dtype=int), 0)
Expr[int](coalesce(None, 0))

```
"""

from __future__ import annotations

from typing import Any, Generic, Optional, TypeVar

from pydantable_spark.errors import ColumnTypeError
from pydantable_spark.expr import aggregates, window
from pydantable_spark.expr.api import Col, Expr, dtype_of, to_node
from pydantable_spark.expr.conditional import Coalesce, When
from pydantable_spark.expr.core import Column, Node, literal_of

__all__ = [
    "WhenThen",
    "avg",
    "coalesce",
    "col",
    "collect_list",
    "collect_set",
    "count",
    "countDistinct",
    "count_distinct",
    "cume_dist",
    "dense_rank",
    "first",
    "first_value",
    "lag",
    "last",
    "last_value",
    "lead",
    "lit",
    "max",
    "mean",
    "median",
    "min",
    "n_unique",
    "nth_value",
    "ntile",
    "percent_rank",
    "rank",
    "row_number",
    "std",
    "stddev",
    "sum",
    "var",
    "variance",
    "when",
]


def col(name: str) -> Col[Any]:
    """The column called ``name`` of whichever frame the expression is used on.

    Its type is looked up when the frame uses it; an unknown name is an error
    that lists the frame's columns.
    """
    return Col(Column(name))


def lit(value: object, dtype: object = None) -> Expr[Any]:
    """A literal; ``dtype`` (a Python type or ``dtypes`` class) fixes its type.

    A null literal needs a ``dtype``: ``F.lit(None, dtype=int)``.
    """
    target = dtype_of(dtype) if dtype is not None else None
    return Expr(literal_of(value, target))


def _expr_or_name(value: object) -> Node:
    return Column(value) if isinstance(value, str) else to_node(value)


def coalesce(*exprs: object) -> Expr[Any]:
    """The first non-NULL value; strings are column names, other scalars literals."""
    return Expr(Coalesce(tuple(_expr_or_name(e) for e in exprs)))


B = TypeVar("B")


class WhenThen(Expr[Optional[B]], Generic[B]):  # noqa: UP045 - a base class, evaluated at run time
    """A ``when`` chain under construction; an expression already (NULL where no branch holds).

    ``B`` is the type the branches' values have in common.
    """

    __slots__ = ()

    def _chain(self) -> When:
        node = self.node
        assert isinstance(node, When)
        return node

    def when(self, condition: object, value: object) -> WhenThen[Any]:
        """Add a branch, tried after the earlier ones."""
        node = self._chain()
        if node.otherwise is not None:
            msg = "when() after otherwise(): the chain is already complete"
            raise ColumnTypeError(msg)
        return WhenThen(When((*node.conditions, to_node(condition)), (*node.values, to_node(value))))

    def otherwise(self, value: object) -> Expr[Any]:
        """The value where no branch holds; ``None`` keeps NULL."""
        node = self._chain()
        if value is None:
            return Expr(node)
        return Expr(When(node.conditions, node.values, to_node(value)))


def when(condition: object, value: object) -> WhenThen[Any]:
    """``CASE WHEN condition THEN value ...``; chain ``.when`` and ``.otherwise``."""
    return WhenThen(When((to_node(condition),), (to_node(value),)))


# --- aggregates -----------------------------------------------------------------------------------
# These names shadow builtins inside this module, as in pyspark.sql.functions.


def count(col: object = None) -> Expr[int]:
    """Rows (no argument) or non-NULL values of a column; 0 for an empty group."""
    return Expr(aggregates.Count(None if col is None else _expr_or_name(col)))


def count_distinct(*cols: object) -> Expr[int]:
    """Distinct non-NULL values (of the combination of the columns)."""
    return Expr(aggregates.CountDistinct(tuple(_expr_or_name(c) for c in cols)))


countDistinct = count_distinct
n_unique = count_distinct


def sum(col: object) -> Expr[Any]:
    """Sum (``bigint`` for integers, ``double`` for floats, wider decimals); NULL for an all-NULL group."""
    return Expr(aggregates.Sum(_expr_or_name(col)))


def mean(col: object) -> Expr[Any]:
    """Average, as ``double`` (or a wider decimal)."""
    return Expr(aggregates.Mean(_expr_or_name(col)))


avg = mean


def min(col: object) -> Expr[Any]:
    """Smallest value."""
    return Expr(aggregates.Min(_expr_or_name(col)))


def max(col: object) -> Expr[Any]:
    """Largest value."""
    return Expr(aggregates.Max(_expr_or_name(col)))


def median(col: object) -> Expr[Any]:
    """Median, as ``double``."""
    return Expr(aggregates.Median(_expr_or_name(col)))


def std(col: object) -> Expr[Any]:
    """Sample standard deviation, as ``double``."""
    return Expr(aggregates.Std(_expr_or_name(col)))


stddev = std


def var(col: object) -> Expr[Any]:
    """Sample variance, as ``double``."""
    return Expr(aggregates.Var(_expr_or_name(col)))


variance = var


def first(col: object, ignorenulls: bool = False) -> Expr[Any]:
    """A first value of the group (order is not guaranteed unless sorted); NULLs skipped if asked."""
    return Expr(aggregates.First(_expr_or_name(col), ignorenulls))


def last(col: object, ignorenulls: bool = False) -> Expr[Any]:
    """A last value of the group; NULLs skipped if asked."""
    return Expr(aggregates.Last(_expr_or_name(col), ignorenulls))


def collect_list(col: object) -> Expr[Any]:
    """The group's non-NULL values as an array."""
    return Expr(aggregates.CollectList(_expr_or_name(col)))


def collect_set(col: object) -> Expr[Any]:
    """The group's distinct non-NULL values as an array."""
    return Expr(aggregates.CollectSet(_expr_or_name(col)))


# --- window functions (use with .over(window)) -------------------------------------------------------


def row_number() -> Expr[int]:
    """1, 2, 3, ... in window order."""
    return Expr(window.RowNumber())


def rank() -> Expr[int]:
    """Rank with gaps after ties."""
    return Expr(window.Rank())


def dense_rank() -> Expr[int]:
    """Rank without gaps."""
    return Expr(window.DenseRank())


def percent_rank() -> Expr[float]:
    """(rank - 1) / (rows - 1)."""
    return Expr(window.PercentRank())


def cume_dist() -> Expr[float]:
    """Fraction of rows ordered at or before this one."""
    return Expr(window.CumeDist())


def ntile(n: int) -> Expr[int]:
    """The row's bucket, 1..n."""
    return Expr(window.Ntile(n))


def lag(col: object, offset: int = 1, default: object = None) -> Expr[Any]:
    """The value ``offset`` rows before; ``default`` (else NULL) where there is none."""
    return Expr(window.Lag(_expr_or_name(col), offset, None if default is None else to_node(default)))


def lead(col: object, offset: int = 1, default: object = None) -> Expr[Any]:
    """The value ``offset`` rows after; ``default`` (else NULL) where there is none."""
    return Expr(window.Lead(_expr_or_name(col), offset, None if default is None else to_node(default)))


def first_value(col: object, ignorenulls: bool = False) -> Expr[Any]:
    """The first value in the window frame."""
    return Expr(window.FirstValue(_expr_or_name(col), ignorenulls))


def last_value(col: object, ignorenulls: bool = False) -> Expr[Any]:
    """The last value in the window frame."""
    return Expr(window.LastValue(_expr_or_name(col), ignorenulls))


def nth_value(col: object, n: int) -> Expr[Any]:
    """The ``n``-th value (1-based) in the window frame."""
    return Expr(window.NthValue(_expr_or_name(col), n))
