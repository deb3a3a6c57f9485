"""The ``F`` functions that are special forms, not catalog entries: ``col``, ``lit``, ``when``, ``coalesce``...

```pycon
>>> from pydantable_spark import F
>>> F.when(F.col("age") >= 18, "adult").otherwise("minor")
Expr[?](when(...))
>>> F.coalesce(F.lit(None, dtype=int), 0)
Expr[int](coalesce(None, 0))

```
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, Optional, TypeVar

from pydantable_spark.errors import ColumnTypeError
from pydantable_spark.expr.api import Col, Expr, dtype_of, into_node, to_node
from pydantable_spark.expr.conditional import Coalesce, When
from pydantable_spark.expr.core import Column, literal_of, undecided_null
from pydantable_spark.expr.text_formats import from_csv, from_json, from_xml
from pydantable_spark.expr.udf import udf

if TYPE_CHECKING:
    from pydantable_spark import dtypes as dt
    from pydantable_spark.expr.operands import ExprT, NoneT, ScalarT, TargetT

__all__ = ["WhenThen", "coalesce", "col", "from_csv", "from_json", "from_xml", "lit", "udf", "when"]


def col(name: str) -> Col[Any]:
    """The column called ``name`` of whichever frame the expression is used on.

    Its type is looked up when the frame uses it; an unknown name is an error
    that lists the frame's columns.
    """
    return Col(Column(name))


def lit(
    value: ScalarT | NoneT | object, dtype: type[dt.DType] | dt.DType | type[TargetT] | None = None
) -> Expr[ScalarT | NoneT | TargetT]:
    """A literal; ``dtype`` (a Python type or ``dtypes`` class) fixes its type.

    ``F.lit(None)`` without a ``dtype`` takes its type from what it is used
    with, as Spark coerces its NULL type: the other side of a comparison or of
    arithmetic, its siblings in ``coalesce``/``when``/``greatest``, a ``cast``.
    Where nothing decides (``select(F.lit(None))``) building the plan fails and
    asks for ``dtype=``.

    ```pycon
    >>> lit(None).cast(int)
    Expr[int | None](cast(None))

    ```
    """
    if value is None and dtype is None:
        return Expr(undecided_null())
    target = dtype_of(dtype) if dtype is not None else None
    return Expr(literal_of(value, target))


def coalesce(*exprs: object) -> Expr[Any]:
    """The first non-NULL value; strings are column names, other scalars literals."""
    return Expr(Coalesce(tuple(into_node(e, "coalesce()", scalars=True) for e in exprs)))


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

    def when(self, condition: object, value: Expr[ExprT] | ScalarT | NoneT) -> WhenThen[B | ExprT | ScalarT]:
        """Add a branch, tried after the earlier ones."""
        node = self._chain()
        if node.otherwise is not None:
            msg = "when() after otherwise(): the chain is already complete"
            raise ColumnTypeError(msg)
        return WhenThen(When((*node.conditions, to_node(condition)), (*node.values, to_node(value))))

    def otherwise(self, value: Expr[ExprT] | ScalarT | NoneT) -> Expr[B | ExprT | ScalarT | NoneT]:
        """The value where no branch holds; ``None`` keeps NULL."""
        node = self._chain()
        if value is None:
            return Expr(node)
        return Expr(When(node.conditions, node.values, to_node(value)))


def when(condition: object, value: Expr[ExprT] | ScalarT | NoneT) -> WhenThen[ExprT | ScalarT]:
    """``CASE WHEN condition THEN value ...``; chain ``.when`` and ``.otherwise``."""
    return WhenThen(When((to_node(condition),), (to_node(value),)))
