"""The expression IR: immutable nodes, each declaring its output type next to it.

A node computes its ``typed`` (dtype and nullability) when it is built, from
its children's types, by its own ``derive`` rule; a rule that rejects its
inputs raises ``ColumnTypeError`` there and then, before any Spark call. A
node over a column named only by a string (``F.col("age")``) stays untyped
until a frame binds it to its schema (``bind``), which rebuilds the tree and so
runs every rule again with the real types.
"""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import enum
import functools
import operator
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from pydantable_spark import dtypes as dt
from pydantable_spark.annotations import python_name
from pydantable_spark.errors import ArgumentTypeError, ColumnTypeError, UnknownColumnError, shown
from pydantable_spark.typerules import cast_forces_nullable, is_castable

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from pydantable_spark.schema import Schema

__all__ = [
    "Alias",
    "Cast",
    "Column",
    "EmptyCollection",
    "Literal",
    "Node",
    "Typed",
    "bare_window_function",
    "bind",
    "bound_column",
    "check_param",
    "contains_aggregate",
    "contains_window",
    "describe",
    "literal_of",
    "render",
]


class Typed(NamedTuple):
    """The type of an expression's values: a dtype and whether it can be null.

    A named tuple rather than a dataclass: every node builds one, and a tuple is
    built several times faster.
    """

    dtype: dt.DType
    nullable: bool

    def __str__(self) -> str:
        return f"{python_name(self.dtype, nullable=self.nullable)} ({self.dtype})"


class Facts(NamedTuple):
    """What the plan builder asks of a whole tree, computed once per node from its children's facts.

    A node that adds nothing to them, over one child that has any (``upper(name)``, ``x + 1``), shares
    that child's facts: the same object.
    """

    refs: tuple[Column, ...]
    """Every column the tree refers to (a column used twice is listed twice)."""
    has_aggregate: bool
    """Whether an aggregate function appears outside any window."""
    has_window: bool
    """Whether a window (``over``) appears anywhere."""
    bare_window: Node | None
    """A window function used without ``.over()``, if the tree has one."""
    free: tuple[int, ...] = ()
    """The lambda variables the tree uses outside the function that binds them (``expr.lambdas``), by token."""
    bucket: Node | None = None
    """A time bucket (``F.window``), which stands only as a ``group_by`` key, if the tree has one."""


LEAF = Facts((), has_aggregate=False, has_window=False, bare_window=None)
"""The facts of a leaf that is neither a column nor an aggregate or window function."""


@dataclass(frozen=True, slots=True)
class Node:
    """One operation of the expression IR.

    Subclasses declare their inputs as dataclass fields (nodes, or tuples of
    nodes) and their type rule as ``derive``. ``deterministic`` is False for a
    node whose value can differ between two evaluations of the same row (a row
    id, a random number): the lowering never moves a filter below one.

    What the plan builder asks of a whole tree (its columns, whether it holds
    an aggregate or a window) is computed once, when the node is built, from
    its children's answers: a frame step never walks an expression again.
    """

    typed: Typed | None = field(init=False, compare=False, repr=False)
    facts: Facts = field(init=False, compare=False, repr=False)
    """What the tree holds, gathered from the children when the node is built."""

    deterministic: ClassVar[bool] = True
    is_window: ClassVar[bool] = False
    """Whether this node is ``expr OVER (window)``."""
    label: ClassVar[str] = "expression"
    """How messages and reprs name the operation (never the class name)."""

    @property
    def is_aggregate(self) -> bool:
        """Whether it aggregates rows (when not under a window)."""
        return False

    @property
    def is_window_function(self) -> bool:
        """Whether it exists only over a window (``row_number``, ``lag``...)."""
        return False

    @property
    def is_group_key(self) -> bool:
        """Whether it stands only as a ``group_by`` key (a time bucket: ``F.window``)."""
        return False

    def __post_init__(self) -> None:
        cls = type(self)
        shape = _SHAPES.get(cls)
        if shape is None:
            shape = _SHAPES[cls] = _shape_of(cls)
        children, prepares, adds_facts = shape
        if prepares:
            self.prepare()
        kids = children(self)
        setter = object.__setattr__
        setter(self, "facts", self._gather(kids) if adds_facts else merged_facts(kids))
        for kid in kids:
            if kid.typed is None:
                setter(self, "typed", None)
                return
        setter(self, "typed", self.derive())

    def _gather(self, kids: tuple[Node, ...]) -> Facts:
        """The facts of the tree, from the children's and this node's own (an aggregate, a window...)."""
        refs: tuple[Column, ...] = ()
        free: tuple[int, ...] = ()
        is_window = self.is_window
        has_aggregate = self.is_aggregate
        has_window = is_window
        bare = self if self.is_window_function else None
        bucket = self if self.is_group_key else None
        for kid in kids:
            facts = kid.facts
            if facts.refs:
                refs += facts.refs
            if facts.free:
                free += facts.free
            has_aggregate = has_aggregate or (facts.has_aggregate and not is_window)
            has_window = has_window or facts.has_window
            if bare is None and not is_window:
                bare = facts.bare_window
            bucket = bucket or facts.bucket
        if is_window and bare is None:
            # the function directly under over() is fine; its arguments and the window keys are not
            for kid in (*kids[0].kids, *kids[1:]):
                bare = bare or kid.facts.bare_window
        return Facts(refs, has_aggregate, has_window, bare, free, bucket)

    @property
    def kids(self) -> tuple[Node, ...]:
        """The direct input nodes, in field order."""
        return _shape(type(self))[0](self)

    @property
    def refs(self) -> tuple[Column, ...]:
        """Every column the tree refers to (a column used twice is listed twice)."""
        return self.facts.refs

    @property
    def has_aggregate(self) -> bool:
        """Whether an aggregate function appears outside any window."""
        return self.facts.has_aggregate

    @property
    def has_window(self) -> bool:
        """Whether a window (``over``) appears anywhere."""
        return self.facts.has_window

    @property
    def bare_window(self) -> Node | None:
        """A window function used without ``.over()``, if the tree has one."""
        return self.facts.bare_window

    def prepare(self) -> None:
        """Adjust inputs before typing (used to give bare Python numbers a type)."""

    def render(self) -> str:
        """A short, readable spelling for messages and reprs: ``label(args...)`` unless the node says otherwise."""
        return f"{self.label}({', '.join(child.render() for child in self.kids)})"

    def derive(self) -> Typed | None:
        """The output type, from the (typed) children; raise ``ColumnTypeError`` if invalid."""
        raise NotImplementedError

    def expects(self, index: int) -> dt.DType | None:
        """The type this node wants its input ``index`` to have, where one type says it (for messages)."""
        return None

    @property
    def output_name(self) -> str:
        """The column name a projection of this expression gets: its leftmost column's."""
        for child in self.kids:
            if not child.is_constant:
                return child.output_name
        return "literal"

    @property
    def is_constant(self) -> bool:
        """Whether no column is involved (the expression is the same on every row)."""
        return all(child.is_constant for child in self.kids)

    @property
    def type(self) -> Typed:
        """The output type; only valid once the node is bound to a schema."""
        if self.typed is None:
            undecided = next((n for n in self.walk() if isinstance(n, Literal) and n.undecided), None)
            if isinstance(undecided, Literal) and isinstance(undecided.value, EmptyCollection):
                kind = "list" if undecided.value is EmptyCollection.LIST else "map"
                msg = (
                    f"{undecided.render()} has no element type in {_shortened(self.render())}: Spark would make it a "
                    f"{kind} of void, which no result can hold, and no typed {kind} next to it decides one "
                    f"(coalesce/when siblings, concat or a cast do); give it one: {undecided.render()}.cast("
                    f"{'list[int | None]' if kind == 'list' else 'dict[str, int | None]'})"
                )
                raise ColumnTypeError(msg)
            if undecided is not None:
                wanted = _expected_where(self, undecided)
                fix = (
                    f"give it one: F.lit(None, dtype={wanted})"
                    if wanted is not None
                    else "give it the column's type: F.lit(None, dtype=str) (or int, float, ...)"
                )
                msg = (
                    f"F.lit(None) has no type in {_shortened(self.render())}: nothing next to it decides one (a "
                    f"comparison, arithmetic, coalesce/when/greatest siblings or a cast do); {fix}"
                )
                raise ColumnTypeError(msg)
            unresolved = ", ".join(sorted({c.name for c in self.walk() if isinstance(c, Column)}))
            msg = (
                f"expression {_shortened(self.render())} refers to columns by name only ({unresolved}); "
                "bind it to a frame first"
            )
            raise ColumnTypeError(msg)
        return self.typed

    def children(self) -> Iterator[Node]:
        """The direct input nodes, in field order."""
        return iter(self.kids)

    def walk(self) -> Iterator[Node]:
        """This node and all nodes below it, depth first (iteratively: a tree of any depth)."""
        pending: list[Node] = [self]
        while pending:
            node = pending.pop()
            yield node
            kids = node.kids
            if kids:
                pending.extend(reversed(kids))

    def map_children(self, fn: Callable[[Node], Node]) -> Node:
        """A copy with ``fn`` applied to every direct input node (types derived again)."""
        changes: dict[str, Any] = {}
        for name, _ in _input_fields(type(self)):
            value = getattr(self, name)
            if isinstance(value, Node):
                mapped = fn(value)
                if mapped is not value:
                    changes[name] = mapped
            elif isinstance(value, tuple) and value:
                mapped = _map_nodes(value, fn)
                if not _same_nodes(mapped, value):
                    changes[name] = mapped
        if not changes:
            return self
        cls = type(self)
        names = _INIT_FIELDS.get(cls)
        if names is None:
            names = _INIT_FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls) if f.init)
        return cls(*[changes[name] if name in changes else getattr(self, name) for name in names])


_SUMMARY_FIELDS = frozenset({"typed", "facts"})
_INIT_FIELDS: dict[type, tuple[str, ...]] = {}
"""The constructor's fields of each node class, in order (``map_children`` rebuilds a node with them)."""
_NODE, _MAYBE_NODE, _NODES, _ANY = 1, 2, 3, 4
_NODE_TYPES = re.compile(r"\b(?:Node|Literal|Column)\b(?!\[)")
_INPUT_FIELDS: dict[type, tuple[tuple[str, int], ...]] = {}
_SHAPES: dict[type[Node], tuple[Callable[[Node], tuple[Node, ...]], bool, bool]] = {}


def _shape(cls: type[Node]) -> tuple[Callable[[Node], tuple[Node, ...]], bool, bool]:
    """What building a ``cls`` node involves (``_shape_of``), read once per class."""
    shape = _SHAPES.get(cls)
    if shape is None:
        shape = _SHAPES[cls] = _shape_of(cls)
    return shape


def _shape_of(cls: type[Node]) -> tuple[Callable[[Node], tuple[Node, ...]], bool, bool]:
    """What building a ``cls`` node involves, read once per class.

    How to read its children, whether it has a ``prepare`` step, and whether it
    may add facts of its own (it may be an aggregate, a window function or a
    window, or gathers its facts its own way) rather than only merge its
    children's.
    """
    adds_facts = (
        cls._gather is not Node._gather
        or cls.is_window
        or cls.is_aggregate is not Node.is_aggregate
        or cls.is_window_function is not Node.is_window_function
        or cls.is_group_key is not Node.is_group_key
    )
    return _children_of(cls), cls.prepare is not Node.prepare, adds_facts


def merged_facts(kids: tuple[Node, ...]) -> Facts:
    """The facts of a node that adds none of its own: its children's, merged (``Node._gather`` in short).

    When only one child has any (the others are leaves, a literal's), they are that child's, shared.
    """
    merged = LEAF
    for kid in kids:
        facts = kid.facts
        if merged is LEAF:
            merged = facts
        elif facts is not LEAF:
            merged = Facts(
                merged.refs + facts.refs,
                merged.has_aggregate or facts.has_aggregate,
                merged.has_window or facts.has_window,
                facts.bare_window if merged.bare_window is None else merged.bare_window,
                merged.free + facts.free,
                merged.bucket or facts.bucket,
            )
    return merged


def _input_fields(cls: type) -> tuple[tuple[str, int], ...]:
    """The fields of a node class that may hold input nodes, in order, each with how it holds them.

    Read once per class from the field annotations: ``Node`` holds one node,
    ``Node | None`` one or none, ``tuple[Node, ...]`` a flat tuple of them; an
    annotation that names a node type otherwise (``tuple[tuple[Node, Node], ...]``)
    may hold them anywhere. A field of any other type (a literal's ``Any``
    value) holds none.
    """
    found = _INPUT_FIELDS.get(cls)
    if found is None:
        kinds = []
        for f in dataclasses.fields(cls):
            annotation = str(f.type)
            if not f.init or f.name in _SUMMARY_FIELDS:
                continue
            if _NODE_TYPES.fullmatch(annotation):
                kinds.append((f.name, _NODE))
            elif _NODE_TYPES.fullmatch(annotation.removesuffix(" | None")):
                kinds.append((f.name, _MAYBE_NODE))
            elif annotation.startswith("tuple[") and _NODE_TYPES.fullmatch(
                annotation.removeprefix("tuple[").removesuffix(", ...]")
            ):
                kinds.append((f.name, _NODES))
            elif _NODE_TYPES.search(annotation):
                kinds.append((f.name, _ANY))
        found = _INPUT_FIELDS[cls] = tuple(kinds)
    return found


def _children_of(cls: type) -> Callable[[Node], tuple[Node, ...]]:
    """How to read the direct input nodes of a ``cls`` node: one ``attrgetter`` where the fields allow it."""
    fields = _input_fields(cls)
    names = [name for name, _ in fields]
    kinds = {kind for _, kind in fields}
    if not fields:
        return lambda node: ()
    if kinds == {_NODE}:
        if len(names) == 1:
            (name,) = names
            return lambda node: (getattr(node, name),)
        return operator.attrgetter(*names)
    if kinds == {_NODES} and len(names) == 1:
        return operator.attrgetter(names[0])
    return lambda node: _collect_children(node, fields)


def _collect_children(node: Node, fields: tuple[tuple[str, int], ...]) -> tuple[Node, ...]:
    found: list[Node] = []
    for name, kind in fields:
        value = getattr(node, name)
        if kind == _NODES:
            found.extend(value)
        elif isinstance(value, Node):
            found.append(value)
        elif kind == _ANY and isinstance(value, tuple):
            found.extend(_nodes_in(value))
    return tuple(found)


def contains_window(node: Node) -> bool:
    """Whether ``node`` has a window (``over``) anywhere in it."""
    return node.facts.has_window


def contains_aggregate(node: Node) -> bool:
    """Whether an aggregate function appears in ``node`` outside any window."""
    return node.facts.has_aggregate


def bare_window_function(node: Node) -> Node | None:
    """A window function used without ``.over()``, if ``node`` has one."""
    return node.facts.bare_window


def _nodes_in(value: object) -> Iterator[Node]:
    if isinstance(value, Node):
        yield value
    elif isinstance(value, tuple):
        for item in value:
            yield from _nodes_in(item)


def _same_nodes(a: Any, b: Any) -> bool:
    """Whether two field values hold the very same nodes (so nothing needs deriving again)."""
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_same_nodes(x, y) for x, y in zip(a, b, strict=True))
    return a is b


def _map_nodes(value: Any, fn: Callable[[Node], Node]) -> Any:
    if isinstance(value, Node):
        return fn(value)
    if isinstance(value, tuple):
        return tuple(_map_nodes(item, fn) for item in value)
    return value


def check_param(what: str, name: str, value: object, kind: type | tuple[type, ...], *, optional: bool = False) -> None:
    """Refuse a Python argument of the wrong type when the call is made.

    ``what`` names the call (``"str.slice()"``), ``name`` the parameter. ``bool``
    is not accepted where an ``int`` is asked for, although it is one in Python.

    >>> check_param("F.lag()", "offset", "1", int)
    Traceback (most recent call last):
    ...
    pydantable_spark.errors.ArgumentTypeError: F.lag(): offset must be int, got '1' (str)
    """
    if value is None and optional:
        return
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds):
        return
    wanted = " or ".join(k.__name__ for k in kinds) + (" or None" if optional else "")
    msg = f"{what}: {name} must be {wanted}, got {shown(value)} ({type(value).__name__})"
    raise ArgumentTypeError(msg)


def render(node: Node) -> str:
    """A short, readable spelling of an expression for messages and reprs."""
    return node.render()


def _expected_where(root: Node, literal: Node) -> str | None:
    """The Python type a node under ``root`` wants where ``literal`` stands (``str`` for ``F.upper``'s)."""
    for parent in root.walk():
        for index, kid in enumerate(parent.kids):
            if kid is literal:
                wanted = parent.expects(index)
                return None if wanted is None else python_name(wanted, nullable=False)
    return None


_SHOWN = 120
"""How much of an expression a message shows."""


def _shortened(text: str) -> str:
    """``text``, cut to what a message shows (an expression can be as long as a program)."""
    return text if len(text) <= _SHOWN else f"{text[: _SHOWN - 5]} ...)"


def describe(node: Node) -> str:
    """How error messages name an operand: ``column 'age' of type int | None (bigint)``."""
    if isinstance(node, Column):
        what = f"column {node.qualified!r}"
    elif isinstance(node, Literal):
        value = list(node.value) if isinstance(node.value, tuple) else node.value  # a list literal, as written
        what = f"literal {value!r}"
    else:
        what = f"expression on {node.output_name!r}"
    return f"{what} of type {node.typed}" if node.typed is not None else what


# --- leaves ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Column(Node):
    """A reference to a column by name.

    ``declared`` is the type a model attribute promises (``User.age``); a
    column from ``F.col("age")`` has none until it is bound to a frame.
    """

    label: ClassVar[str] = "col"

    name: str
    declared: Typed | None = None
    owner: str | None = None

    def __post_init__(self) -> None:
        # a leaf: Node's construction in short (no children to read, type or merge)
        if type(self.name) is not str:
            check_param("F.col()", "name", self.name, str)
        object.__setattr__(self, "facts", Facts((self,), has_aggregate=False, has_window=False, bare_window=None))
        object.__setattr__(self, "typed", self.declared)

    def derive(self) -> Typed | None:
        return self.declared

    def render(self) -> str:
        return self.name

    @property
    def output_name(self) -> str:
        return self.name

    @property
    def is_constant(self) -> bool:
        return False

    @property
    def qualified(self) -> str:
        """``User.age`` for a model column, ``age`` otherwise."""
        return f"{self.owner}.{self.name}" if self.owner else self.name


@functools.lru_cache(maxsize=4096)
def bound_column(name: str, dtype: dt.DType, nullable: bool) -> Column:
    """The column ``name`` bound to a frame's field: one shared node per name and type (nodes are values)."""
    return Column(name, Typed(dtype, nullable))


UNDECIDED = dt.DType()
"""The type of ``F.lit(None)`` (and of ``F.array()``, ``F.create_map()``) until what it is used with decides
one: Spark's NULL type (``void``, ``array<void>``, ``map<void,void>``), coerced to its neighbours'."""


class EmptyCollection(enum.Enum):
    """The value of ``F.array()`` / ``F.create_map()`` called with no values: an empty list or map.

    Spark types them ``array<void>`` / ``map<void,void>``, which no Python result
    (nor Spark's own ``toArrow()``) can hold, and coerces them to the type of a
    list or map next to them; the façade does the same, and refuses them where
    nothing decides a type, as it refuses an untyped ``F.lit(None)``.
    """

    LIST = "F.array()"
    MAP = "F.create_map()"

    def fits(self, dtype: dt.DType) -> bool:
        """Whether ``dtype`` is a type this empty collection can take."""
        return isinstance(dtype, dt.List if self is EmptyCollection.LIST else dt.Map)


def undecided_empty(kind: EmptyCollection) -> Literal:
    """``F.array()`` or ``F.create_map()`` with no values: typed by what it is used with, like ``F.lit(None)``."""
    return Literal(kind, UNDECIDED, weak=True)


def undecided_null() -> Literal:
    """``F.lit(None)`` without a type.

    The other side of a comparison or arithmetic, its siblings in ``coalesce``,
    ``when`` or ``greatest``, or a ``cast`` decide it; nothing else does.
    """
    return Literal(None, UNDECIDED, weak=True)


@dataclass(frozen=True, slots=True)
class Literal(Node):
    """A constant of a given type.

    A *weak* literal is a bare Python number written next to a column
    (``User.age + 1``); it takes the column's numeric type when its value fits,
    as a user of Polars or Spark SQL expects (``int32 + 1`` stays ``int32``).
    """

    label: ClassVar[str] = "lit"

    value: Any
    dtype: dt.DType
    weak: bool = False

    def __post_init__(self) -> None:
        # a leaf: Node's construction in short (no children to read, type or merge)
        object.__setattr__(self, "facts", LEAF)
        object.__setattr__(self, "typed", self.derive())

    def derive(self) -> Typed | None:
        return None if self.undecided else Typed(self.dtype, self.value is None)

    def render(self) -> str:
        if isinstance(self.value, EmptyCollection):
            return self.value.value
        if self.undecided:
            return "F.lit(None)"
        if isinstance(self.dtype, dt.Map):
            return repr(dict(self.value))  # options: (name, value) pairs
        return repr(list(self.value)) if isinstance(self.value, tuple) else repr(self.value)

    @property
    def undecided(self) -> bool:
        """Whether it is ``F.lit(None)`` (or ``F.array()``...) still waiting for its context to give it a type."""
        return type(self.dtype) is dt.DType  # UNDECIDED: no concrete type

    def adopt(self, target: dt.DType) -> Literal:
        """This literal typed for use next to a ``target`` value, if it is weak."""
        if self.undecided:
            if isinstance(self.value, EmptyCollection):  # only a list (map) next to it gives it a type
                return Literal(self.value, target) if self.value.fits(target) else self
            return Literal(None, target)
        if not self.weak:
            return self
        adopted = _adopted(self.value, target)
        return self if adopted is None else adopted


def _adopted(value: Any, target: dt.DType) -> Literal | None:
    """The literal a weak literal of ``value`` becomes next to a ``target`` value; None if it keeps its type."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        if isinstance(target, dt.Integral) and target.holds(value):
            return Literal(value, target)
        if isinstance(target, dt.Floating):
            return Literal(value, target)
        if isinstance(target, dt.Decimal):
            return Literal(decimal.Decimal(value), dt.Decimal(max(1, len(str(abs(value)))), 0))
    if isinstance(value, float) and isinstance(target, dt.Floating):
        return Literal(value, target)
    return None


_INFERRED: list[tuple[type, Callable[[Any], dt.DType]]] = [
    (bool, lambda v: dt.Boolean()),
    (int, lambda v: dt.Int64()),
    (float, lambda v: dt.Float64()),
    (str, lambda v: dt.String()),
    (bytes, lambda v: dt.Binary()),
    (decimal.Decimal, lambda v: _decimal_type_of(v)),
    (datetime.datetime, lambda v: dt.Datetime() if v.tzinfo is not None else dt.DatetimeNTZ()),
    (datetime.date, lambda v: dt.Date()),
    (datetime.timedelta, lambda v: dt.Duration()),
]


def _decimal_type_of(value: decimal.Decimal) -> dt.Decimal:
    if not value.is_finite():
        msg = f"decimal literal {value} is not finite; Spark decimals cannot hold it"
        raise ColumnTypeError(msg)
    _sign, digits, exponent = value.as_tuple()
    assert isinstance(exponent, int)
    scale = max(0, -exponent)
    precision = max(len(digits) + max(exponent, 0), scale, 1)
    if precision > dt.MAX_DECIMAL_PRECISION:
        msg = f"decimal literal {value} needs {precision} digits; Spark allows at most 38"
        raise ColumnTypeError(msg)
    return dt.Decimal(precision, scale)


_SIMPLE: dict[type, tuple[type, dt.DType]] = {
    bool: (bool, dt.Boolean()),
    int: (int, dt.Int64()),
    float: (float, dt.Float64()),
    str: (str, dt.String()),
}
"""Python types whose literal type is known from the type alone (an int's size and a str's encoding are checked)."""


def literal_of(value: Any, dtype: dt.DType | None = None, *, weak: bool = False) -> Literal:
    """A literal for a Python value; its type is inferred unless ``dtype`` is given.

    >>> literal_of(3).typed
    Typed(dtype=Int64(), nullable=False)
    >>> str(literal_of(None, dt.String()).typed)
    'str | None (string)'
    """
    if isinstance(value, enum.Enum):
        value = value.value
    if dtype is not None:
        if isinstance(dtype, dt.List) and isinstance(value, list):
            value = tuple(value)  # nodes are values: a list literal holds a tuple
        _check_fits(value, dtype)
        return Literal(value, dtype)
    inferred = _inferred_type(value)
    return Literal(value, inferred, weak=weak and type(inferred) in _WEAK_TYPES)


def weak_literal_beside(value: Any, other: Node) -> Literal:
    """The weak literal of a Python ``value`` that is the other operand of ``other``, typed as an operator types it.

    ``coercion.beside(literal_of(value, weak=True), other)``, which the operator's own ``prepare`` would do, without
    building the weak literal first when ``other`` is a typed expression (a literal ``other`` is left to ``prepare``).
    """
    typed = other.typed
    if typed is None or isinstance(other, Literal):
        return literal_of(value, weak=True)
    if isinstance(value, enum.Enum):
        value = value.value
    inferred = _inferred_type(value)
    weak = type(inferred) in _WEAK_TYPES
    adopted = _adopted(value, typed.dtype) if weak else None
    return Literal(value, inferred, weak=weak) if adopted is None else adopted


_WEAK_TYPES = (dt.Int64, dt.Float64)
"""The inferred types of Python ints and floats: only those literals can be weak."""


def _inferred_type(value: Any) -> dt.DType:
    """The type ``literal_of`` infers for a Python value (not an enum member); refuses a value no type holds."""
    simple = _SIMPLE.get(type(value))
    if simple is not None:  # the common case, without the search below
        kind, inferred = simple
        if kind is str:
            _check_encodable(value)
        elif kind is int and not dt.Int64.holds(value):
            msg = f"integer literal {value} does not fit in bigint; use a Decimal"
            raise ColumnTypeError(msg)
        return inferred
    if value is None:
        msg = "a null literal needs a type: F.lit(None, dtype=...) (for example dtype=int)"
        raise ColumnTypeError(msg)
    if isinstance(value, str):
        _check_encodable(value)
    for kind, infer in _INFERRED:
        if isinstance(value, kind):
            inferred = infer(value)
            if isinstance(value, int) and isinstance(inferred, dt.Int64) and not dt.Int64.holds(value):
                msg = f"integer literal {value} does not fit in bigint; use a Decimal"
                raise ColumnTypeError(msg)
            return inferred
    msg = (
        f"cannot use {shown(value)} ({type(value).__name__}) as a literal; expected bool, int, float, "
        "str, bytes, Decimal, date, datetime or timedelta"
    )
    raise ColumnTypeError(msg)


def _check_encodable(value: str) -> None:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as error:
        msg = f"string literal {shown(value)} holds an unpaired surrogate at {error.start}; Spark strings are UTF-8"
        raise ColumnTypeError(msg) from None


def _check_fits(value: Any, dtype: dt.DType) -> None:
    if value is None:
        return
    if isinstance(dtype, dt.List) and isinstance(value, tuple):  # a list literal (percentages): its elements
        for item in value:
            if item is None and not dtype.contains_null:
                msg = f"literal {list(value)!r} holds a None, but its elements are not nullable"
                raise ColumnTypeError(msg)
            _check_fits(item, dtype.inner)
        return
    inferred = _inferred_type(value)
    fits = (
        (isinstance(dtype, dt.Integral) and isinstance(inferred, dt.Integral) and dtype.holds(value))
        or (isinstance(dtype, dt.Floating) and isinstance(inferred, dt.Integral | dt.Floating))
        or (isinstance(dtype, dt.Decimal) and isinstance(inferred, dt.Integral | dt.Decimal))
        or (isinstance(dtype, dt.Datetime | dt.DatetimeNTZ) and isinstance(inferred, dt.Datetime | dt.DatetimeNTZ))
        or dtype == inferred
    )
    if not fits:
        msg = f"literal {shown(value)} does not fit type {python_name(dtype, nullable=False)} ({dtype})"
        raise ColumnTypeError(msg)


@dataclass(frozen=True, slots=True)
class RowId(Node):
    """A unique, increasing (not consecutive) id per row, in the frame's current order.

    Spark's ``monotonically_increasing_id()``; it depends on partitioning, so
    plans read it once from a projection rather than recomputing it.
    """

    label: ClassVar[str] = "rowid"

    deterministic: ClassVar[bool] = False

    def derive(self) -> Typed:
        return Typed(dt.Int64(), False)

    @property
    def output_name(self) -> str:
        return "row_id"

    @property
    def is_constant(self) -> bool:
        return False


# --- naming and conversion -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Alias(Node):
    """The same values under another output name."""

    label: ClassVar[str] = "alias"

    child: Node
    name: str

    def prepare(self) -> None:
        if type(self.name) is not str:
            check_param("alias()", "name", self.name, str)

    def derive(self) -> Typed:
        return self.child.type

    def render(self) -> str:
        return f"{self.child.render()}.alias({self.name!r})"

    @property
    def output_name(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Cast(Node):
    """``CAST(child AS to)``; only casts Spark accepts are legal.

    The result is nullable when the child is, and also where Spark says a cast
    can fail (parsing a string, fractional to integer, ...).
    """

    label: ClassVar[str] = "cast"

    child: Node
    to: dt.DType

    _targets: ClassVar[tuple[dt.DType, ...]] = (
        dt.Boolean(), dt.Int8(), dt.Int16(), dt.Int32(), dt.Int64(), dt.Float32(), dt.Float64(),
        dt.Decimal(), dt.String(), dt.Binary(), dt.Date(), dt.Datetime(), dt.DatetimeNTZ(), dt.Duration(),
    )  # fmt: skip

    def prepare(self) -> None:
        if isinstance(self.child, Literal):  # F.lit(None).cast(int) is a typed NULL
            object.__setattr__(self, "child", self.child.adopt(self.to))

    def derive(self) -> Typed:
        source = self.child.type
        if not is_castable(source.dtype, self.to):
            legal = [str(t) for t in self._targets if is_castable(source.dtype, t)]
            msg = (
                f"cannot cast {describe(self.child)} to {python_name(self.to, nullable=False)} "
                f"({self.to}); legal targets: {', '.join(legal) or 'none'}"
            )
            raise ColumnTypeError(msg)
        return Typed(self.to, source.nullable or cast_forces_nullable(source.dtype, self.to))


# --- binding to a frame -----------------------------------------------------------------


def bind(node: Node, schema: Schema) -> Node:
    """``node`` with every column resolved against ``schema`` and every type derived.

    A model column must exist with its declared type; the frame's nullability
    wins, narrower or wider (after an outer join ``Dept.budget`` is the frame's
    nullable ``budget``). Raises ``UnknownColumnError`` listing the
    columns that exist, or ``ColumnTypeError``; a lambda variable used outside
    the function that binds it (kept from inside a lambda) is a ``ColumnTypeError`` too.
    """
    if node.facts.free:
        raise ColumnTypeError(_escaped_variable_message(node))
    return _bound(node, schema)


def _bound(node: Node, schema: Schema) -> Node:
    """``node`` bound to ``schema``, children first, without recursion: an expression of any depth binds.

    A subtree whose columns already have ``schema``'s types is kept as it is;
    the depth limit of what Spark can run is checked when the plan is lowered
    (``PlanLimitError``), not by Python's recursion limit here.
    """
    if isinstance(node, Column):
        return _bind_column(node, schema)
    if node.typed is not None and _bound_already(node, schema):
        return node
    done: dict[int, Node] = {}
    pending: list[tuple[Node, bool]] = [(node, True), *((kid, False) for kid in node.kids)]
    while pending:
        current, children_done = pending.pop()
        key = id(current)
        if key in done:
            continue
        if isinstance(current, Column):
            done[key] = _bind_column(current, schema)
        elif children_done:
            done[key] = current.map_children(lambda child: done[id(child)])
        elif current.typed is not None and _bound_already(current, schema):
            done[key] = current
        else:
            pending.append((current, True))
            pending.extend((kid, False) for kid in current.kids)
    return done[id(node)]


def _escaped_variable_message(node: Node) -> str:
    """Why ``node``, which uses a lambda variable outside its function, cannot be used on a frame."""
    free = node.facts.free
    variable = next((n for n in node.walk() if getattr(n, "token", None) in free), None)
    shown = variable.render() if variable is not None else "a lambda variable"
    where = getattr(variable, "function", "a higher-order function")
    return (
        f"expression {_shortened(node.render())} uses {shown}, a variable of the function passed to {where}(), "
        "outside that function; a lambda's variables stand for the elements only inside its body"
    )


def _bound_already(node: Node, schema: Schema) -> bool:
    """Whether every column of ``node`` already has exactly the type ``schema`` gives it."""
    for column in node.facts.refs:
        found = schema.get(column.name)
        typed = column.typed
        if found is None or typed is None or found.nullable != typed.nullable:
            return False
        if found.dtype is not typed.dtype and found.dtype != typed.dtype:  # most often the very same type
            return False
    return True


def _bind_column(node: Column, schema: Schema) -> Node:
    """The frame's column ``node`` names, with its type there (``UnknownColumnError`` if it has none)."""
    found = schema.get(node.name)
    if found is None:
        raise UnknownColumnError(node.qualified, schema.names)
    declared = node.declared
    if declared is not None and found.dtype != declared.dtype:
        actual = Typed(found.dtype, found.nullable)
        msg = (
            f"column {node.qualified!r} is declared as {declared} but the frame's "
            f"column {node.name!r} is {actual}; use F.col({node.name!r}) or cast it"
        )
        raise ColumnTypeError(msg)
    typed = Typed(found.dtype, found.nullable)
    if node.typed == typed:
        return node
    if node.owner is None:  # the same column as the frame's own (a model column keeps its owner for messages)
        return bound_column(node.name, found.dtype, found.nullable)
    return Column(node.name, typed, node.owner)
