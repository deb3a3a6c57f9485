"""Arithmetic, comparison and boolean nodes with their type rules.

Null semantics are SQL's: arithmetic and comparisons with NULL give NULL, and
``&``/``|``/``~`` follow Kleene's three-valued logic.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import ClassVar
from typing import Literal as TypingLiteral

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ColumnTypeError
from pydantable_spark.expr.coercion import beside, string_literal_hint
from pydantable_spark.expr.core import Literal, Node, Typed, describe
from pydantable_spark.typerules import ArithmeticOp, arithmetic_hint, arithmetic_result

__all__ = [
    "And",
    "Arithmetic",
    "ArithmeticOp",
    "Between",
    "Comparison",
    "ComparisonOp",
    "IsIn",
    "IsNotNull",
    "IsNull",
    "Negate",
    "Not",
    "Or",
    "Power",
    "comparable",
]


def _set(node: Node, name: str, value: Node) -> None:
    object.__setattr__(node, name, value)


def _adopt_sides(node: Arithmetic | Comparison) -> None:
    """A weak literal on one side takes the other side's type (``User.age + 1`` stays ``int32``)."""
    left = beside(node.left, node.right)
    _set(node, "left", left)
    _set(node, "right", beside(node.right, left))


_NULLABLE_OPS = (ArithmeticOp.DIV, ArithmeticOp.FLOORDIV, ArithmeticOp.MOD)
"""Spark marks these nullable whatever the inputs (division by zero is NULL); a tuple: enum members hash in Python."""


@dataclass(frozen=True, slots=True)
class Arithmetic(Node):
    """``left <op> right``; the result type follows Spark's numeric promotion.

    ``/``, ``//`` and ``%`` are nullable whatever the inputs (Spark marks them so);
    ``//`` floors and ``%`` takes the sign of the divisor, as in Python.
    """

    label: ClassVar[str] = "arithmetic"

    op: ArithmeticOp
    left: Node
    right: Node

    def prepare(self) -> None:
        _adopt_sides(self)

    def render(self) -> str:
        return f"({self.left.render()} {self.op.value} {self.right.render()})"

    def derive(self) -> Typed:
        left, right = self.left.type, self.right.type
        result = arithmetic_result(self.op, left.dtype, right.dtype)
        if result is None:
            hint = arithmetic_hint(self.op, left.dtype, right.dtype)
            msg = (
                f"unsupported operand types for {self.op.value}: {describe(self.left)} and {describe(self.right)}{hint}"
            )
            raise ColumnTypeError(msg)
        always_nullable = self.op in _NULLABLE_OPS
        return Typed(result, always_nullable or left.nullable or right.nullable)


@dataclass(frozen=True, slots=True)
class Power(Node):
    """``left ** right``: Spark's ``power``, a double whatever the numeric operands."""

    label: ClassVar[str] = "power"

    left: Node
    right: Node

    def derive(self) -> Typed:
        for side in (self.left, self.right):
            if not isinstance(side.type.dtype, dt.Numeric):
                msg = f"unsupported operand types for **: {describe(self.left)} and {describe(self.right)}"
                raise ColumnTypeError(msg)
        return Typed(dt.Float64(), self.left.type.nullable or self.right.type.nullable)


@dataclass(frozen=True, slots=True)
class Negate(Node):
    """``-child`` for numbers."""

    label: ClassVar[str] = "negate"

    child: Node

    def derive(self) -> Typed:
        child = self.child.type
        if not isinstance(child.dtype, dt.Numeric):
            msg = f"unary minus needs a number; got {describe(self.child)}"
            raise ColumnTypeError(msg)
        return child


class ComparisonOp(Enum):
    """Comparison operators, by their Python spelling."""

    EQ = "=="
    NE = "!="
    LT = "<"
    LE = "<="
    GT = ">"
    GE = ">="


_TEMPORAL = (dt.Date, dt.Datetime, dt.DatetimeNTZ)


def comparable(a: dt.DType, b: dt.DType, *, ordering: bool) -> bool:
    """Whether values of ``a`` and ``b`` can be compared (ordered, if ``ordering``)."""
    if isinstance(a, dt.Numeric) and isinstance(b, dt.Numeric):
        return True
    if isinstance(a, _TEMPORAL) and isinstance(b, _TEMPORAL):
        return True
    if dt.contains_variant(a) or dt.contains_variant(b):
        return False  # VARIANT has no equality nor order in Spark
    if a.is_nested or b.is_nested:
        same_shape = dt.without_nullability(a) == dt.without_nullability(b)
        return not ordering and same_shape and not dt.contains_map(a)  # maps have no equality in Spark
    return type(a) is type(b)


@dataclass(frozen=True, slots=True)
class Comparison(Node):
    """``left <op> right``: a boolean, NULL when either side is NULL."""

    label: ClassVar[str] = "comparison"

    op: ComparisonOp
    left: Node
    right: Node

    def prepare(self) -> None:
        _adopt_sides(self)

    def render(self) -> str:
        return f"({self.left.render()} {self.op.value} {self.right.render()})"

    def derive(self) -> Typed:
        left, right = self.left.type, self.right.type
        ordering = self.op not in (ComparisonOp.EQ, ComparisonOp.NE)
        if not comparable(left.dtype, right.dtype, ordering=ordering):
            msg = f"cannot compare {describe(self.left)} {self.op.value} {describe(self.right)}"
            msg += string_literal_hint(self.left, self.right)
            if dt.contains_variant(left.dtype) or dt.contains_variant(right.dtype):
                msg += f": {dt.VARIANT_NOT_COMPARABLE}"
            raise ColumnTypeError(msg)
        return Typed(dt.Boolean(), left.nullable or right.nullable)


def _require_boolean(node: Node, what: str) -> Typed:
    typed = node.type
    if not isinstance(typed.dtype, dt.Boolean):
        msg = f"{what} needs boolean operands; got {describe(node)}"
        raise ColumnTypeError(msg)
    return typed


@dataclass(frozen=True, slots=True)
class _Kleene(Node):
    """A binary boolean operator; NULL only where the known operand does not decide."""

    left: Node
    right: Node
    symbol: ClassVar[str]

    def render(self) -> str:
        return f"({self.left.render()} {self.symbol} {self.right.render()})"

    def derive(self) -> Typed:
        left = _require_boolean(self.left, self.symbol)
        right = _require_boolean(self.right, self.symbol)
        return Typed(dt.Boolean(), left.nullable or right.nullable)


@dataclass(frozen=True, slots=True)
class And(_Kleene):
    """Kleene ``left AND right``: false wins over NULL."""

    label: ClassVar[str] = "and"

    symbol: ClassVar[str] = "&"


@dataclass(frozen=True, slots=True)
class Or(_Kleene):
    """Kleene ``left OR right``: true wins over NULL."""

    label: ClassVar[str] = "or"

    symbol: ClassVar[str] = "|"


@dataclass(frozen=True, slots=True)
class Not(Node):
    """``NOT child``; NULL stays NULL."""

    label: ClassVar[str] = "not"

    child: Node

    def derive(self) -> Typed:
        return _require_boolean(self.child, "~")


@dataclass(frozen=True, slots=True)
class IsNull(Node):
    """Whether the value is NULL; never NULL itself."""

    label: ClassVar[str] = "isnull"

    child: Node

    def derive(self) -> Typed:
        return Typed(dt.Boolean(), False)


@dataclass(frozen=True, slots=True)
class IsNotNull(Node):
    """Whether the value is not NULL; never NULL itself."""

    label: ClassVar[str] = "isnotnull"

    child: Node

    def derive(self) -> Typed:
        return Typed(dt.Boolean(), False)


@dataclass(frozen=True, slots=True)
class IsIn(Node):
    """``child IN (values...)``; NULL when the child is NULL.

    The values are non-null literals (``None`` is refused: SQL's ``x IN (NULL)``
    is never true, so ask for ``is_null()`` explicitly). With no values the
    result is FALSE on every row, NULL child included, as Spark 4 computes
    ``x IN ()``; its type stays nullable when the child's is, as Spark's does.
    """

    label: ClassVar[str] = "isin"

    child: Node
    values: tuple[Literal, ...]

    def prepare(self) -> None:
        adopted = tuple(beside(v, self.child) for v in self.values)
        object.__setattr__(self, "values", adopted)

    def derive(self) -> Typed:
        child = self.child.type
        for value in self.values:
            if value.value is None:
                msg = f"is_in() on {describe(self.child)} got None; use is_null() to match NULLs"
                raise ColumnTypeError(msg)
            if not comparable(child.dtype, value.dtype, ordering=False):
                msg = f"is_in() value {describe(value)} cannot be compared with {describe(self.child)}"
                msg += string_literal_hint(self.child, value)
                raise ColumnTypeError(msg)
        return Typed(dt.Boolean(), child.nullable)


Closed = TypingLiteral["both", "left", "right", "none"]


@dataclass(frozen=True, slots=True)
class Between(Node):
    """``lower <= child <= upper``; ``closed`` says which bounds are included."""

    label: ClassVar[str] = "between"

    child: Node
    lower: Node
    upper: Node
    closed: Closed = "both"

    def prepare(self) -> None:
        _set(self, "lower", beside(self.lower, self.child))
        _set(self, "upper", beside(self.upper, self.child))

    def derive(self) -> Typed:
        child = self.child.type
        for bound in (self.lower, self.upper):
            if not comparable(child.dtype, bound.type.dtype, ordering=True):
                msg = f"between() bound {describe(bound)} cannot be compared with {describe(self.child)}"
                msg += string_literal_hint(self.child, bound)
                raise ColumnTypeError(msg)
        nullable = child.nullable or self.lower.type.nullable or self.upper.type.nullable
        return Typed(dt.Boolean(), nullable)
