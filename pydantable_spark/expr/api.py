"""``Expr`` and ``Col``: the typed expression objects users write with.

An ``Expr`` wraps one IR node. Operators build new nodes, whose type rules run
at once when the operand types are known::

    ```pycon
    >>> from pydantable_spark import DataFrameModel
    >>> class User(DataFrameModel):
    ...     id: int
    ...     name: str
    ...     age: int | None
    >>> User.age + 1
    Expr[int | None]((age + 1))
    >>> User.name + 1
    Traceback (most recent call last):
    ...
    pydantable_spark.errors.ColumnTypeError: unsupported operand types for +: column 'User.name' of type str ...

    ```
"""

from __future__ import annotations

import datetime
import decimal
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantable_spark import dtypes as dt
from pydantable_spark.annotations import field_of_annotation, python_name
from pydantable_spark.errors import ArgumentTypeError, ArgumentValueError, ColumnTypeError, shown
from pydantable_spark.expr.conditional import Coalesce
from pydantable_spark.expr.core import (
    Alias,
    Cast,
    Column,
    Literal,
    Node,
    Typed,
    literal_of,
    render,
    weak_literal_beside,
)
from pydantable_spark.expr.operators import (
    And,
    Arithmetic,
    ArithmeticOp,
    Between,
    Closed,
    Comparison,
    ComparisonOp,
    IsIn,
    IsNotNull,
    IsNull,
    Negate,
    Not,
    Or,
    Power,
)
from pydantable_spark.expr.windowspec import WindowSpec
from pydantable_spark.pyspark_names import COLUMN, install, visible

if TYPE_CHECKING:
    from pydantable_spark.expr.namespaces import (
        DateTimeNamespace,
        ListNamespace,
        MapNamespace,
        StringNamespace,
        StructNamespace,
    )
    from pydantable_spark.expr.operands import (
        CastT,
        DateT,
        ExprT,
        ListT,
        MapT,
        NoneT,
        ScalarT,
        StrT,
        StructT,
        ValueT,
    )

__all__ = ["Col", "Expr", "IntoExpr", "dtype_of", "into_node", "to_node"]

T_co = TypeVar("T_co", covariant=True)

IntoExpr = Any
"""An ``Expr`` or a Python scalar (which becomes a literal)."""


def into_node(item: object, what: str, *, scalars: bool = False) -> Node:
    """A column name (``str``) or an expression as a node; with ``scalars``, another Python value as a literal.

    The one reading of "a column or an expression" (``pydantable_spark.into`` builds on it).
    """
    if isinstance(item, str):
        return Column(item)
    if isinstance(item, Expr):
        return item.node
    if scalars:
        return literal_of(item, weak=True)
    msg = f"{what} takes column names or expressions, not {shown(item)}"
    raise ArgumentTypeError(msg)


def to_node(value: object, beside: Node | None = None) -> Node:
    """The IR node of an ``Expr``, or a weak literal for a Python scalar (an operand of ``beside``: typed like it)."""
    if isinstance(value, Expr):
        return value.node
    if beside is not None:
        return weak_literal_beside(value, beside)
    return literal_of(value, weak=True)


_PYTHON_TYPES = (bool, int, float, str, bytes, decimal.Decimal, datetime.date, datetime.datetime, datetime.timedelta)


def dtype_of(target: object) -> dt.DType:
    """A logical type from a ``DType`` (class or instance) or a Python annotation."""
    if isinstance(target, dt.DType):
        return target
    if isinstance(target, type) and issubclass(target, dt.DType):
        return target()
    return field_of_annotation("cast", target).dtype


class Expr(Generic[T_co]):
    """A typed column expression; ``T_co`` is the Python type of its values."""

    __slots__ = ("_node",)
    __hash__ = None  # type: ignore[assignment]  # == builds an expression

    def __init__(self, node: Node) -> None:
        self._node = node

    @property
    def node(self) -> Node:
        """The IR node this expression wraps."""
        return self._node

    @property
    def name(self) -> str:
        """The output column name (the leftmost column's, or the alias)."""
        return self._node.output_name

    @property
    def typed(self) -> Typed | None:
        """The type, or None while the expression names columns only by string."""
        return self._node.typed

    def _derived(self, node: Node) -> Expr[Any]:
        return Expr(node)

    @staticmethod
    def _operand(value: object) -> Node:
        return to_node(value)

    def __repr__(self) -> str:
        typed = self._node.typed
        shown = python_name(typed.dtype, nullable=typed.nullable) if typed else "?"
        return f"{type(self).__name__}[{shown}]({render(self._node)})"

    def __dir__(self) -> list[str]:
        return visible(super().__dir__())

    def __bool__(self) -> bool:
        msg = (
            f"the truth value of expression {render(self._node)} is unknown until Spark runs it; "
            "use & | ~ instead of and/or/not, and avoid chained comparisons (a < b < c)"
        )
        raise TypeError(msg)

    # --- arithmetic --------------------------------------------------------------------

    def _arith(self, op: ArithmeticOp, other: object, *, reflected: bool = False) -> Expr[Any]:
        left, right = self._node, to_node(other, beside=self._node)
        if reflected:
            left, right = right, left
        return Expr(Arithmetic(op, left, right))

    def __add__(self, other: Expr[ExprT] | ScalarT) -> Expr[T_co | ExprT | ScalarT]:
        return self._arith(ArithmeticOp.ADD, other)

    def __radd__(self, other: ScalarT) -> Expr[T_co | ScalarT]:
        return self._arith(ArithmeticOp.ADD, other, reflected=True)

    def __sub__(self, other: Expr[ExprT] | ScalarT) -> Expr[T_co | ExprT | ScalarT]:
        return self._arith(ArithmeticOp.SUB, other)

    def __rsub__(self, other: ScalarT) -> Expr[T_co | ScalarT]:
        return self._arith(ArithmeticOp.SUB, other, reflected=True)

    def __mul__(self, other: Expr[ExprT] | ScalarT) -> Expr[T_co | ExprT | ScalarT]:
        return self._arith(ArithmeticOp.MUL, other)

    def __rmul__(self, other: ScalarT) -> Expr[T_co | ScalarT]:
        return self._arith(ArithmeticOp.MUL, other, reflected=True)

    def __truediv__(self, other: Expr[ExprT] | ScalarT) -> Expr[T_co | ExprT | ScalarT | float | None]:
        return self._arith(ArithmeticOp.DIV, other)

    def __rtruediv__(self, other: ScalarT) -> Expr[T_co | ScalarT | float | None]:
        return self._arith(ArithmeticOp.DIV, other, reflected=True)

    def __floordiv__(self, other: Expr[ExprT] | ScalarT) -> Expr[T_co | ExprT | ScalarT | None]:
        return self._arith(ArithmeticOp.FLOORDIV, other)

    def __rfloordiv__(self, other: ScalarT) -> Expr[T_co | ScalarT | None]:
        return self._arith(ArithmeticOp.FLOORDIV, other, reflected=True)

    def __mod__(self, other: Expr[ExprT] | ScalarT) -> Expr[T_co | ExprT | ScalarT | None]:
        return self._arith(ArithmeticOp.MOD, other)

    def __rmod__(self, other: ScalarT) -> Expr[T_co | ScalarT | None]:
        return self._arith(ArithmeticOp.MOD, other, reflected=True)

    def __pow__(self, other: object) -> Expr[float | None]:
        return self._derived(Power(self.node, self._operand(other)))

    def __rpow__(self, other: object) -> Expr[float | None]:
        return self._derived(Power(self._operand(other), self.node))

    def __neg__(self) -> Expr[T_co]:
        return Expr(Negate(self._node))

    # --- comparisons -------------------------------------------------------------------

    def _compare(self, op: ComparisonOp, other: object) -> Expr[bool | None]:
        if other is None:
            method = "is_null" if op is ComparisonOp.EQ else "is_not_null"
            msg = f"comparing {render(self._node)} {op.value} None is always NULL in SQL; use .{method}()"
            raise ColumnTypeError(msg)
        return Expr(Comparison(op, self._node, to_node(other, beside=self._node)))

    def __eq__(self, other: object) -> Expr[bool | None]:  # type: ignore[override]
        return self._compare(ComparisonOp.EQ, other)

    def __ne__(self, other: object) -> Expr[bool | None]:  # type: ignore[override]
        return self._compare(ComparisonOp.NE, other)

    def __lt__(self, other: object) -> Expr[bool | None]:
        return self._compare(ComparisonOp.LT, other)

    def __le__(self, other: object) -> Expr[bool | None]:
        return self._compare(ComparisonOp.LE, other)

    def __gt__(self, other: object) -> Expr[bool | None]:
        return self._compare(ComparisonOp.GT, other)

    def __ge__(self, other: object) -> Expr[bool | None]:
        return self._compare(ComparisonOp.GE, other)

    def eq_null_safe(self, other: object) -> Expr[bool]:
        """True where the values are equal or both NULL (PySpark's ``eqNullSafe``, SQL's ``<=>``); never NULL.

        ```pycon
        >>> from pydantable_spark import F
        >>> F.col("a").eq_null_safe(F.col("b"))
        Expr[?](equal_null(a, b))

        ```
        """
        if other is None:
            return self.is_null()
        from pydantable_spark.expr.binding import call
        from pydantable_spark.expr.catalog import CATALOG

        return Expr(call(CATALOG["equal_null"], [self, other], names=False, method="eq_null_safe"))

    # --- boolean logic -----------------------------------------------------------------

    def __and__(self, other: Expr[ExprT] | ScalarT) -> Expr[T_co | ExprT | ScalarT]:
        return Expr(And(self._node, to_node(other)))

    def __rand__(self, other: ScalarT) -> Expr[T_co | ScalarT]:
        return Expr(And(to_node(other), self._node))

    def __or__(self, other: Expr[ExprT] | ScalarT) -> Expr[T_co | ExprT | ScalarT]:
        return Expr(Or(self._node, to_node(other)))

    def __ror__(self, other: ScalarT) -> Expr[T_co | ScalarT]:
        return Expr(Or(to_node(other), self._node))

    def __invert__(self) -> Expr[T_co]:
        return Expr(Not(self._node))

    # --- methods -----------------------------------------------------------------------

    def alias(self, name: str) -> Expr[T_co]:
        """The same values under the output name ``name``."""
        return Expr(Alias(self._node, name))

    def cast(self, to: type[dt.DType] | dt.DType | type[CastT]) -> Expr[CastT | None]:
        """Convert to another type (a Python type such as ``float`` or a ``dtypes`` class).

        Only casts Spark accepts are legal; the error lists the legal targets.
        """
        return Expr(Cast(self._node, dtype_of(to)))

    def is_null(self) -> Expr[bool]:
        """True where the value is NULL."""
        return Expr(IsNull(self._node))

    def is_not_null(self) -> Expr[bool]:
        """True where the value is not NULL."""
        return Expr(IsNotNull(self._node))

    def is_in(self, values: Iterable[object]) -> Expr[bool | None]:
        """True where the value equals one of ``values`` (NULL where the value is NULL).

        An empty ``values`` gives FALSE on every row, as Spark's ``isin([])`` does.
        """
        if isinstance(values, str | bytes) or not isinstance(values, Iterable):
            msg = f"is_in() takes a collection of values, not a single {type(values).__name__}"
            raise ArgumentTypeError(msg)
        return self._in(values, "is_in()")

    def isin(self, *values: object) -> Expr[bool | None]:
        """``is_in`` under PySpark's name, in PySpark's forms: ``isin(1, 2)`` or ``isin([1, 2])``.

        The interface contract's alias: ``x.isin(vs)`` is ``x.is_in(vs)``; a single
        string is one value, as in PySpark (``is_in`` asks for a collection).

        ```pycon
        >>> from pydantable_spark import F
        >>> F.col("n").isin(1, 2)
        Expr[?](isin(n, 1, 2))

        ```
        """
        if len(values) == 1 and isinstance(values[0], list | tuple | set | frozenset):
            values = tuple(values[0])
        return self._in(values, "isin()")

    def _in(self, values: Iterable[object], what: str) -> Expr[bool | None]:
        return Expr(IsIn(self._node, tuple(_literal(v, what) for v in values)))

    def between(self, lower: object, upper: object, closed: Closed = "both") -> Expr[bool | None]:
        """``lower <= value <= upper``; ``closed`` picks the included bounds."""
        return Expr(Between(self._node, to_node(lower), to_node(upper), closed))

    def fill_null(self: Expr[ValueT | None], value: Expr[ExprT] | ScalarT | None) -> Expr[ValueT | ExprT | ScalarT]:
        """The value, or ``value`` where it is NULL; not nullable if ``value`` is not."""
        if value is None:
            msg = f"fill_null() on {render(self._node)} needs a value, not None"
            raise ArgumentValueError(msg)
        return Expr(Coalesce((self._node, to_node(value))))

    def over(self, window: WindowSpec) -> Expr[T_co]:
        """This window function or aggregate evaluated over ``window`` (see ``Window``)."""
        if not isinstance(window, WindowSpec):
            msg = f"over() takes a window (Window.partition_by(...) or Window.order_by(...)), got {shown(window)}"
            raise ArgumentTypeError(msg)
        return Expr(window.over(self._node))

    @property
    def str(self: Expr[StrT | NoneT]) -> StringNamespace[StrT | NoneT, NoneT]:
        """String functions: ``upper``, ``lower``, ``length``, ``contains``, ... (string columns only)."""
        from pydantable_spark.expr.namespaces import StringNamespace

        return StringNamespace(self)

    @property
    def struct(self: Expr[StructT | NoneT]) -> StructNamespace[StructT | NoneT, NoneT]:
        """Struct functions: ``field`` (struct columns only)."""
        from pydantable_spark.expr.namespaces import StructNamespace

        return StructNamespace(self)

    @property
    def list(self: Expr[ListT | NoneT]) -> ListNamespace[ListT | NoneT, NoneT]:
        """List functions: ``len``, ``get``, ``contains``, ``join``, ``sort``, ``unique``."""
        from pydantable_spark.expr.namespaces import ListNamespace

        return ListNamespace(self)

    @property
    def map(self: Expr[MapT | NoneT]) -> MapNamespace[MapT | NoneT, NoneT]:
        """Map functions: ``keys``, ``values``, ``get``."""
        from pydantable_spark.expr.namespaces import MapNamespace

        return MapNamespace(self)

    @property
    def dt(self: Expr[DateT | NoneT]) -> DateTimeNamespace[DateT | NoneT, NoneT]:
        """Date functions: ``year``, ``month``, ``day``, ``truncate``, ``strftime``... (dates and datetimes)."""
        from pydantable_spark.expr.namespaces import DateTimeNamespace

        return DateTimeNamespace(self)


install(Expr, COLUMN)  # PySpark's Column names answer what to write here (``pyspark_names``)


class Col(Expr[T_co]):
    """A reference to one column; what ``User.age`` and ``F.col("age")`` return."""

    __slots__ = ()

    def __init__(self, node: Column) -> None:
        super().__init__(node)

    @property
    def node(self) -> Column:
        """The ``Column`` node."""
        node = self._node
        assert isinstance(node, Column)
        return node


def _literal(value: object, what: str) -> Literal:
    if value is None:
        return Literal(None, dt.String())  # IsIn rejects it, saying to use is_null()
    if isinstance(value, Expr):
        node = value.node
        if isinstance(node, Literal):
            return node
        msg = f"{what} takes Python values or F.lit(...), not the expression {render(node)}"
        raise ArgumentTypeError(msg)
    return literal_of(value, weak=True)
