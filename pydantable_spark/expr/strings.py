"""String nodes and the ``.str`` namespace.

>>> from pydantable_spark import F
>>> e = F.col("name").str.upper()
>>> e.node
Upper(child=Column(name='name', declared=None, owner=None))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ColumnTypeError
from pydantable_spark.expr.core import Node, Typed, check_param, describe

if TYPE_CHECKING:
    from pydantable_spark.expr.api import Expr

__all__ = [
    "Concat",
    "Contains",
    "EndsWith",
    "Length",
    "Lower",
    "Slice",
    "StartsWith",
    "StringNamespace",
    "Strip",
    "Upper",
]


def _require_string(node: Node, what: str) -> Typed:
    typed = node.type
    if not isinstance(typed.dtype, dt.String):
        msg = f"{what} needs a string; got {describe(node)}"
        raise ColumnTypeError(msg)
    return typed


@dataclass(frozen=True, slots=True)
class _StringToString(Node):
    child: Node

    def derive(self) -> Typed:
        return _require_string(self.child, f"str.{type(self).__name__.lower()}()")


@dataclass(frozen=True, slots=True)
class Upper(_StringToString):
    """Upper case."""


@dataclass(frozen=True, slots=True)
class Lower(_StringToString):
    """Lower case."""


@dataclass(frozen=True, slots=True)
class Strip(Node):
    """Remove leading and trailing whitespace, or any of ``chars`` when given."""

    child: Node
    chars: str | None = None

    def prepare(self) -> None:
        check_param("str.strip()", "chars", self.chars, str, optional=True)

    def derive(self) -> Typed:
        return _require_string(self.child, "str.strip()")


@dataclass(frozen=True, slots=True)
class Length(Node):
    """Number of characters, as Spark's ``int``."""

    child: Node

    def derive(self) -> Typed:
        return Typed(dt.Int32(), _require_string(self.child, "str.length()").nullable)


@dataclass(frozen=True, slots=True)
class Slice(Node):
    """Characters from ``offset`` (0-based; negative counts from the end), ``length`` of them."""

    child: Node
    offset: int
    length: int | None = None

    def prepare(self) -> None:
        check_param("str.slice()", "offset", self.offset, int)
        check_param("str.slice()", "length", self.length, int, optional=True)

    def derive(self) -> Typed:
        if self.length is not None and self.length < 0:
            msg = f"str.slice() length must be >= 0, got {self.length}"
            raise ColumnTypeError(msg)
        return _require_string(self.child, "str.slice()")


@dataclass(frozen=True, slots=True)
class _StringPredicate(Node):
    child: Node
    pattern: Node

    def derive(self) -> Typed:
        name = f"str.{_SNAKE[type(self).__name__]}()"
        child = _require_string(self.child, name)
        pattern = _require_string(self.pattern, f"the pattern of {name}")
        return Typed(dt.Boolean(), child.nullable or pattern.nullable)


@dataclass(frozen=True, slots=True)
class Contains(_StringPredicate):
    """Whether the pattern occurs (a plain substring, not a regex)."""


@dataclass(frozen=True, slots=True)
class StartsWith(_StringPredicate):
    """Whether the string starts with the pattern."""


@dataclass(frozen=True, slots=True)
class EndsWith(_StringPredicate):
    """Whether the string ends with the pattern."""


_SNAKE = {"Contains": "contains", "StartsWith": "starts_with", "EndsWith": "ends_with"}


@dataclass(frozen=True, slots=True)
class Concat(Node):
    """The strings joined end to end; NULL if any part is NULL."""

    args: tuple[Node, ...]

    def derive(self) -> Typed:
        if not self.args:
            msg = "concat() needs at least one expression"
            raise ColumnTypeError(msg)
        parts = [_require_string(a, "concat()") for a in self.args]
        return Typed(dt.String(), any(p.nullable for p in parts))


S_co = TypeVar("S_co", covariant=True)


@dataclass(frozen=True, slots=True)
class Extract(Node):
    """The regex group matched (Java regex syntax); NULL when the pattern does not match."""

    child: Node
    pattern: str
    group: int = 1

    def prepare(self) -> None:
        check_param("str.extract()", "pattern", self.pattern, str)
        check_param("str.extract()", "group", self.group, int)
        if self.group < 0:
            msg = f"str.extract(): group must be >= 0, got {self.group}"
            raise ColumnTypeError(msg)

    def derive(self) -> Typed:
        _require_string(self.child, "str.extract()")
        return Typed(dt.String(), True)


@dataclass(frozen=True, slots=True)
class Replace(Node):
    """Every match of ``pattern`` replaced (a regex unless ``literal``)."""

    child: Node
    pattern: str
    value: str
    literal: bool = False

    def prepare(self) -> None:
        check_param("str.replace()", "pattern", self.pattern, str)
        check_param("str.replace()", "value", self.value, str)
        check_param("str.replace()", "literal", self.literal, bool)

    def derive(self) -> Typed:
        return _require_string(self.child, "str.replace()")


@dataclass(frozen=True, slots=True)
class Split(Node):
    """The parts between occurrences of ``separator`` (a plain string), as a list."""

    child: Node
    separator: str

    def prepare(self) -> None:
        check_param("str.split()", "separator", self.separator, str)

    def derive(self) -> Typed:
        return Typed(dt.List(dt.String(), False), _require_string(self.child, "str.split()").nullable)


@dataclass(frozen=True, slots=True)
class Pad(Node):
    """Padded with ``fill`` to ``width`` characters at the start or the end; longer strings stay."""

    child: Node
    width: int
    fill: str = " "
    at_start: bool = True

    def prepare(self) -> None:
        what = "str.pad_start()" if self.at_start else "str.pad_end()"
        check_param(what, "width", self.width, int)
        check_param(what, "fill", self.fill, str)
        if self.width < 0:
            msg = f"{what}: width must be >= 0, got {self.width}"
            raise ColumnTypeError(msg)

    def derive(self) -> Typed:
        if len(self.fill) != 1:
            msg = f"str.pad_start()/pad_end() need a single fill character, got {self.fill!r}"
            raise ColumnTypeError(msg)
        return _require_string(self.child, "str.pad_start()" if self.at_start else "str.pad_end()")


@dataclass(frozen=True, slots=True)
class Like(Node):
    """SQL ``LIKE``: ``%`` any run of characters, ``_`` one character."""

    child: Node
    pattern: str

    def prepare(self) -> None:
        check_param("str.like()", "pattern", self.pattern, str)

    def derive(self) -> Typed:
        return Typed(dt.Boolean(), _require_string(self.child, "str.like()").nullable)


class StringNamespace(Generic[S_co]):
    """String functions of an expression, reached as ``expr.str``; ``S_co`` is ``str`` or ``str | None``."""

    __slots__ = ("_expr",)

    def __init__(self, expr: Expr[Any]) -> None:
        self._expr = expr

    def _make(self, node: Node) -> Expr[Any]:
        return self._expr._derived(node)

    def upper(self) -> Expr[Any]:
        """Upper case (``upper``)."""
        return self._make(Upper(self._expr.node))

    def lower(self) -> Expr[Any]:
        """Lower case (``lower``)."""
        return self._make(Lower(self._expr.node))

    def length(self) -> Expr[Any]:
        """Number of characters (``length``), an ``int`` column."""
        return self._make(Length(self._expr.node))

    def strip(self, chars: str | None = None) -> Expr[Any]:
        """Strip whitespace from both ends, or the characters in ``chars``."""
        return self._make(Strip(self._expr.node, chars))

    def slice(self, offset: int, length: int | None = None) -> Expr[Any]:
        """``length`` characters from 0-based ``offset`` (negative: from the end)."""
        return self._make(Slice(self._expr.node, offset, length))

    def _text(self, value: object, what: str, name: str) -> Node:
        from pydantable_spark.expr.api import Expr

        check_param(what, name, value, (str, Expr))
        return self._expr._operand(value)

    def contains(self, pattern: str | Expr[Any]) -> Expr[Any]:
        """Whether ``pattern`` occurs as a substring (not a regular expression)."""
        return self._make(Contains(self._expr.node, self._text(pattern, "str.contains()", "pattern")))

    def starts_with(self, prefix: str | Expr[Any]) -> Expr[Any]:
        """Whether the string starts with ``prefix``."""
        return self._make(StartsWith(self._expr.node, self._text(prefix, "str.starts_with()", "prefix")))

    def ends_with(self, suffix: str | Expr[Any]) -> Expr[Any]:
        """Whether the string ends with ``suffix``."""
        return self._make(EndsWith(self._expr.node, self._text(suffix, "str.ends_with()", "suffix")))

    def extract(self, pattern: str, group: int = 1) -> Expr[Any]:
        """The ``group``-th group of the first match of ``pattern`` (Java regex); NULL without a match."""
        return self._make(Extract(self._expr.node, pattern, group))

    def replace(self, pattern: str, value: str, *, literal: bool = False) -> Expr[Any]:
        """Every match of ``pattern`` (a regex unless ``literal=True``) replaced by ``value``."""
        return self._make(Replace(self._expr.node, pattern, value, literal))

    def split(self, separator: str) -> Expr[Any]:
        """The parts between occurrences of ``separator`` (plain text, not a regex)."""
        return self._make(Split(self._expr.node, separator))

    def pad_start(self, width: int, fill: str = " ") -> Expr[Any]:
        """Left-padded to ``width`` characters; longer strings are kept whole."""
        return self._make(Pad(self._expr.node, width, fill, at_start=True))

    def pad_end(self, width: int, fill: str = " ") -> Expr[Any]:
        """Right-padded to ``width`` characters; longer strings are kept whole."""
        return self._make(Pad(self._expr.node, width, fill, at_start=False))

    def like(self, pattern: str) -> Expr[Any]:
        """SQL ``LIKE`` matching (``%`` and ``_`` wildcards)."""
        return self._make(Like(self._expr.node, pattern))
