"""Struct, list and map nodes, with the ``.struct``, ``.list`` and ``.map`` namespaces.

>>> from pydantable_spark import DataFrameModel
>>> class Address(DataFrameModel):
...     city: str
>>> class User(DataFrameModel):
...     address: Address | None
...     tags: list[str]
...     scores: dict[str, float]
>>> _ = User.model_rebuild()  # resolve ``Address`` (the doctest's names are not the module's)
>>> User.address.struct.field("city")
Expr[str | None](structfield(address))
>>> User.tags.list.len()
Expr[int](listlen(tags))
>>> User.scores.map.get("math")
Expr[float | None](mapget(scores, 'math'))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ColumnTypeError, UnknownColumnError
from pydantable_spark.expr.core import Literal, Node, Typed, check_param, describe
from pydantable_spark.expr.operators import comparable

if TYPE_CHECKING:
    from pydantable_spark.expr.api import Expr

__all__ = [
    "ListContains",
    "ListGet",
    "ListJoin",
    "ListLen",
    "ListNamespace",
    "ListSort",
    "ListUnique",
    "MapGet",
    "MapKeys",
    "MapNamespace",
    "MapValues",
    "StructField",
    "StructNamespace",
]


def _require(node: Node, kind: type[dt.DType], what: str) -> Typed:
    typed = node.type
    if not isinstance(typed.dtype, kind):
        msg = f"{what} needs a {kind.__name__.lower()} column; got {describe(node)}"
        raise ColumnTypeError(msg)
    return typed


# --- structs ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StructField(Node):
    """One field of a struct; NULL where the struct is."""

    child: Node
    name: str

    def prepare(self) -> None:
        check_param("struct.field()", "name", self.name, str)

    def derive(self) -> Typed:
        parent = _require(self.child, dt.Struct, "struct.field()")
        assert isinstance(parent.dtype, dt.Struct)
        found = parent.dtype.get(self.name)
        if found is None:
            raise UnknownColumnError(self.name, [f.name for f in parent.dtype.fields], where=describe(self.child))
        return Typed(found.dtype, parent.nullable or found.nullable)

    @property
    def output_name(self) -> str:
        return self.name


# --- lists --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ListLen(Node):
    """Number of elements (``int``)."""

    child: Node

    def derive(self) -> Typed:
        return Typed(dt.Int32(), _require(self.child, dt.List, "list.len()").nullable)


@dataclass(frozen=True, slots=True)
class ListGet(Node):
    """The element at a 0-based index (negative: from the end); NULL when out of range."""

    child: Node
    index: Node

    def prepare(self) -> None:
        if isinstance(self.index, Literal):
            object.__setattr__(self, "index", self.index.adopt(dt.Int32()))

    def derive(self) -> Typed:
        array = _require(self.child, dt.List, "list.get()")
        assert isinstance(array.dtype, dt.List)
        if not isinstance(self.index.type.dtype, dt.Integral):
            msg = f"list.get() needs an integer index; got {describe(self.index)}"
            raise ColumnTypeError(msg)
        return Typed(array.dtype.inner, True)


@dataclass(frozen=True, slots=True)
class ListContains(Node):
    """Whether the list holds the value (NULL if unknown: a NULL list, value, or unmatched list with NULLs)."""

    child: Node
    value: Node

    def prepare(self) -> None:
        child = self.child.typed
        if child is not None and isinstance(child.dtype, dt.List) and isinstance(self.value, Literal):
            object.__setattr__(self, "value", self.value.adopt(child.dtype.inner))

    def derive(self) -> Typed:
        array = _require(self.child, dt.List, "list.contains()")
        assert isinstance(array.dtype, dt.List)
        value = self.value.type
        if not comparable(array.dtype.inner, value.dtype, ordering=False):
            elements = describe(self.child)
            msg = f"list.contains() value {describe(self.value)} cannot be compared with the elements of {elements}"
            raise ColumnTypeError(msg)
        return Typed(dt.Boolean(), array.nullable or value.nullable or array.dtype.contains_null)


@dataclass(frozen=True, slots=True)
class ListJoin(Node):
    """The string elements joined with ``separator`` (NULL elements skipped)."""

    child: Node
    separator: str

    def prepare(self) -> None:
        check_param("list.join()", "separator", self.separator, str)

    def derive(self) -> Typed:
        array = _require(self.child, dt.List, "list.join()")
        assert isinstance(array.dtype, dt.List)
        if not isinstance(array.dtype.inner, dt.String):
            msg = f"list.join() needs a list of strings; got {describe(self.child)}"
            raise ColumnTypeError(msg)
        return Typed(dt.String(), array.nullable)


@dataclass(frozen=True, slots=True)
class ListSort(Node):
    """The elements sorted (NULLs first when ascending, last when descending)."""

    child: Node
    descending: bool = False

    def prepare(self) -> None:
        check_param("list.sort()", "descending", self.descending, bool)

    def derive(self) -> Typed:
        array = _require(self.child, dt.List, "list.sort()")
        assert isinstance(array.dtype, dt.List)
        if dt.contains_map(array.dtype.inner):
            msg = f"list.sort() cannot order {describe(self.child)}: maps have no order"
            raise ColumnTypeError(msg)
        return array


@dataclass(frozen=True, slots=True)
class ListUnique(Node):
    """The distinct elements, in first-appearance order."""

    child: Node

    def derive(self) -> Typed:
        return _require(self.child, dt.List, "list.unique()")


# --- maps ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MapKeys(Node):
    """The keys as a list."""

    child: Node

    def derive(self) -> Typed:
        mapping = _require(self.child, dt.Map, "map.keys()")
        assert isinstance(mapping.dtype, dt.Map)
        return Typed(dt.List(mapping.dtype.key, True), mapping.nullable)  # Spark 4.3 marks the elements nullable


@dataclass(frozen=True, slots=True)
class MapValues(Node):
    """The values as a list."""

    child: Node

    def derive(self) -> Typed:
        mapping = _require(self.child, dt.Map, "map.values()")
        assert isinstance(mapping.dtype, dt.Map)
        return Typed(dt.List(mapping.dtype.value, True), mapping.nullable)  # Spark 4.3 marks the elements nullable


@dataclass(frozen=True, slots=True)
class MapGet(Node):
    """The value for a key; NULL when the key is absent."""

    child: Node
    key: Node

    def derive(self) -> Typed:
        mapping = _require(self.child, dt.Map, "map.get()")
        assert isinstance(mapping.dtype, dt.Map)
        if not comparable(mapping.dtype.key, self.key.type.dtype, ordering=False):
            msg = f"map.get() key {describe(self.key)} does not fit the keys of {describe(self.child)}"
            raise ColumnTypeError(msg)
        return Typed(mapping.dtype.value, True)


N_co = TypeVar("N_co", covariant=True)


class StructNamespace(Generic[N_co]):
    """Struct functions, reached as ``expr.struct``."""

    __slots__ = ("_expr",)

    def __init__(self, expr: Expr[Any]) -> None:
        self._expr = expr

    def field(self, name: str) -> Expr[Any]:
        """The field called ``name``."""
        return self._expr._derived(StructField(self._expr.node, name))


class ListNamespace(Generic[N_co]):
    """List functions, reached as ``expr.list``."""

    __slots__ = ("_expr",)

    def __init__(self, expr: Expr[Any]) -> None:
        self._expr = expr

    def len(self) -> Expr[Any]:
        """Number of elements."""
        return self._expr._derived(ListLen(self._expr.node))

    def get(self, index: int | Expr[Any]) -> Expr[Any]:
        """The element at a 0-based index (negative from the end); NULL out of range."""
        return self._expr._derived(ListGet(self._expr.node, self._expr._operand(index)))

    def contains(self, value: object) -> Expr[Any]:
        """Whether the list holds ``value``."""
        return self._expr._derived(ListContains(self._expr.node, self._expr._operand(value)))

    def join(self, separator: str) -> Expr[Any]:
        """The string elements joined with ``separator``."""
        return self._expr._derived(ListJoin(self._expr.node, separator))

    def sort(self, *, descending: bool = False) -> Expr[Any]:
        """The elements sorted."""
        return self._expr._derived(ListSort(self._expr.node, descending))

    def unique(self) -> Expr[Any]:
        """The distinct elements."""
        return self._expr._derived(ListUnique(self._expr.node))


class MapNamespace(Generic[N_co]):
    """Map functions, reached as ``expr.map``."""

    __slots__ = ("_expr",)

    def __init__(self, expr: Expr[Any]) -> None:
        self._expr = expr

    def keys(self) -> Expr[Any]:
        """The keys as a list."""
        return self._expr._derived(MapKeys(self._expr.node))

    def values(self) -> Expr[Any]:
        """The values as a list."""
        return self._expr._derived(MapValues(self._expr.node))

    def get(self, key: object) -> Expr[Any]:
        """The value for ``key``; NULL when it is absent."""
        return self._expr._derived(MapGet(self._expr.node, self._expr._operand(key)))
