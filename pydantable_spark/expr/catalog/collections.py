"""List, map and struct functions (PySpark's), and the ``.list``, ``.map`` and ``.struct`` namespaces.

Spark converts the arguments of these functions itself, and not all alike.
Functions that compare or add list elements (``array_union``,
``array_append``, ``array_remove``, ``array_position``...) meet element types
in the *tightest* common type (``typerules.tightest``: an ``int`` list and a
``decimal(10,2)`` value do not meet); functions that build a value from
several (``array``, ``concat``, ``create_map``'s values, ``map_concat``) in the
wider one (``typerules.supertype``). Where ANSI Spark would convert by parsing
a string, or where the façade cannot hold the result, the call is refused when
it is built: map keys are strings and never NULL (the façade's maps are
``dict[str, V]``), and two literal keys of one map must differ.

Element nullability follows Spark's analyzer, which is not uniform:
``array_append``/``array_prepend``/``array_insert`` always mark their elements
nullable; ``array_union`` keeps NULL elements from either side,
``array_intersect`` only where both have them, ``array_except`` where the first
does; ``arrays_overlap`` is NULL-able when either list may hold NULLs. A value
converted the way Spark marks nullable (``date`` to ``timestamp_ntz``) is
NULL-able in ``array``, ``create_map`` and ``sequence``; a list or map
converted as a whole keeps its element nullability.

Each entry is checked against Spark's analyzer and against plain PySpark's
values by ``tests/expr/test_catalog.py``.
"""

from __future__ import annotations

import datetime
import functools
from typing import TYPE_CHECKING

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ColumnTypeError, UnknownColumnError
from pydantable_spark.expr.catalog import accepts
from pydantable_spark.expr.catalog.spec import (
    ABSENT,
    Accepts,
    Args,
    DTypeRule,
    EntryOptions,
    Function,
    Lit,
    Param,
    always,
    any_null,
    at_least,
    column,
    either,
    element,
    entry,
    fixed,
    never,
    null_if,
    same,
    value,
)
from pydantable_spark.expr.coercion import list_literal, meet, to_type
from pydantable_spark.expr.core import Alias, Column, EmptyCollection, Literal, Node, describe, undecided_empty
from pydantable_spark.expr.operators import comparable
from pydantable_spark.typerules import cast_forces_nullable, supertype, tightest

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from typing_extensions import Unpack

__all__ = ["ENTRIES", "concat_lists", "given_name", "struct_names", "with_fields_names", "zip_names"]

LIST = column("col", accepts.ARRAY)
STRING_LIST = Accepts(
    "a list of strings",
    lambda t: isinstance(t, dt.List) and isinstance(t.inner, dt.String),
    examples=(dt.List(dt.String(), True), dt.List(dt.String(), False)),
)
ORDERED_LIST = Accepts(
    "a list of values with an order",
    lambda t: isinstance(t, dt.List) and dt.has_equality(t.inner),
    examples=(dt.List(dt.Int64(), False), dt.List(dt.String(), True)),
)
COMPARED_LIST = Accepts(
    "a list of values that compare (no maps or VARIANTs)",
    lambda t: isinstance(t, dt.List) and dt.has_equality(t.inner),
    examples=(dt.List(dt.Int64(), False), dt.List(dt.String(), True), dt.List(dt.Int32(), True)),
)
NESTED_LIST = Accepts(
    "a list of lists",
    lambda t: isinstance(t, dt.List) and isinstance(t.inner, dt.List),
    examples=(dt.List(dt.List(dt.Int64(), False), False), dt.List(dt.List(dt.String(), True), True)),
)
STRUCT = Accepts(
    "a struct",
    lambda t: isinstance(t, dt.Struct),
    examples=(dt.Struct((dt.Field("a", dt.Int64(), False), dt.Field("b", dt.String(), True))),),
)
MAP_OR_LIST = Accepts(
    "a list or a map", lambda t: isinstance(t, dt.List | dt.Map),
    examples=(dt.List(dt.Int64(), False), dt.Map(dt.String(), dt.Int64(), True)),
)  # fmt: skip
KEY_OR_POSITION = Accepts(
    "a 1-based int position or a map key", lambda t: True, examples=(dt.Int32(), dt.String())
)  # fmt: skip
POSITION = Accepts(
    "an integer", lambda t: isinstance(t, dt.Integral), to=lambda t: dt.Int32(),
    examples=(dt.Int32(), dt.Int64(), dt.Int8()),
)  # fmt: skip
"""Spark takes exactly ``int`` here; the façade casts other integers (a ``bigint`` past the range fails)."""
ITEM = Accepts("any value", lambda t: True, examples=(dt.String(), dt.Int64(), dt.Date(), dt.List(dt.Int64(), False)))
"""An argument of ``array``/``create_map``/``struct``: first a string, so that a key comes first in the tests."""
KEYS = Accepts(
    "a list of strings",
    lambda t: isinstance(t, dt.List) and isinstance(t.inner, dt.String),
    examples=(dt.List(dt.String(), False), dt.List(dt.String(), True)),
)
ENTRY_LIST = Accepts(
    "a list of (string key, value) structs",
    lambda t: (
        isinstance(t, dt.List)
        and isinstance(t.inner, dt.Struct)
        and len(t.inner.fields) == 2
        and isinstance(t.inner.fields[0].dtype, dt.String)
    ),
    examples=(
        dt.List(dt.Struct((dt.Field("k", dt.String(), False), dt.Field("v", dt.Int64(), True))), False),
        dt.List(dt.Struct((dt.Field("key", dt.String(), False), dt.Field("value", dt.Date(), False))), True),
    ),
)
SEQUENCE_BOUND = Accepts(
    "an integer, a date or a datetime",
    lambda t: isinstance(t, dt.Integral | dt.Date | dt.Datetime | dt.DatetimeNTZ),
    examples=(dt.Int32(), dt.Int64(), dt.Int8(), dt.Date(), dt.Datetime(), dt.DatetimeNTZ()),
)
SEQUENCE_STEP = Accepts(
    "an integer or a duration",
    lambda t: isinstance(t, dt.Integral | dt.Duration),
    examples=(dt.Int32(), dt.Int64(), dt.Duration()),
)
STRING_MAP = Accepts(
    "a map", lambda t: isinstance(t, dt.Map),
    examples=(dt.Map(dt.String(), dt.Int64(), True), dt.Map(dt.String(), dt.Int32(), False)),
)  # fmt: skip
VALUE = either("value", accepts.ANY, bool, int, float, str)
"""A Python value here is a literal (PySpark's ``lit(value)``): a ``str`` is a string, not a column name."""

_TIGHTEST_RULE = (
    "Spark converts list elements only where no digit can be lost: integers widen, an integer meets a float type "
    "or a decimal with room for it, a date meets a datetime"
)
_WIDER_RULE = "the façade refuses what Spark would convert by parsing strings or between unrelated types"


_AS_FIRST = same(0)
"""The default result: the first argument's type."""


def _entry(
    name: str, *params: Param, returns: DTypeRule = _AS_FIRST, summary: str, **options: Unpack[EntryOptions]
) -> Function:
    return entry(name, params, returns, summary, "collection", **options)


def _inner(args: Args, index: int = 0) -> dt.List:
    dtype = args.dtype(index)
    assert isinstance(dtype, dt.List)
    return dtype


def _map(args: Args, index: int = 0) -> dt.Map:
    dtype = args.dtype(index)
    assert isinstance(dtype, dt.Map)
    return dtype


# --- meeting in one type -----------------------------------------------------------------------------


def _meet(
    args: Args,
    parts: Sequence[tuple[int, dt.DType]],
    meet: Callable[[dt.DType, dt.DType], dt.DType | None],
    *,
    elements: bool,
) -> dt.DType:
    """The type the ``(argument, type)`` parts meet in by ``meet``; refuses the first pair that does not."""
    index, result = parts[0]
    for other, dtype in parts[1:]:
        merged = meet(result, dtype)
        if merged is None:
            what = "element type" if elements else "type"
            rule = _TIGHTEST_RULE if meet is tightest else _WIDER_RULE
            msg = (
                f"{args.name}(): {describe(args.nodes[index])} and {describe(args.nodes[other])} have no common "
                f"{what} ({rule}); cast one of them"
            )
            raise ColumnTypeError(msg)
        result = merged
    return result


def _forced(parts: Sequence[tuple[int, dt.DType]], target: dt.DType) -> bool:
    """Whether converting one of the values to ``target`` can make it NULL (Spark marks the cast nullable).

    Only values count: a list or map converted as a whole keeps its element nullability.
    """
    return any(dtype != target and cast_forces_nullable(dtype, target) for _, dtype in parts)


def _list_parts(args: Args, *indexes: int) -> list[tuple[int, dt.DType]]:
    return [(i, _inner(args, i).inner) for i in indexes]


def _with_value(args: Args, index: int = 0, at: int = 1) -> tuple[list[tuple[int, dt.DType]], dt.DType]:
    """List ``index``'s elements and value ``at`` (tightest): the parts and their type."""
    parts = [(index, _inner(args, index).inner), (at, args.dtype(at))]
    return parts, _meet(args, parts, tightest, elements=True)


def _pairwise(cn: Callable[[Args], bool]) -> Callable[[Args], dt.DType]:
    """``array_union``-like: the two lists' elements meet (tightest); ``cn`` says if the result may hold NULLs."""

    def rule(args: Args) -> dt.DType:
        target = _meet(args, _list_parts(args, 0, 1), tightest, elements=True)
        return dt.List(target, cn(args))

    return rule


def _appended(args: Args) -> dt.DType:
    """``array_append``/``array_prepend``: Spark marks the elements nullable whatever the inputs."""
    return dt.List(_with_value(args)[1], True)


def _inserted(args: Args) -> dt.DType:
    """``array_insert``: the value meets the elements; positions past the end are padded with NULLs."""
    return dt.List(_with_value(args, 0, 2)[1], True)


def _removed(args: Args) -> dt.DType:
    return dt.List(_with_value(args)[1], _inner(args).contains_null)


def _position(args: Args) -> dt.DType:
    _with_value(args)
    return dt.Int64()


def _overlap_nullable(args: Args) -> bool:
    """NULL when either list is, or when no common element is found and either holds a NULL."""
    return any_null(args) or _inner(args, 0).contains_null or _inner(args, 1).contains_null


def _overlap(args: Args) -> dt.DType:
    _meet(args, _list_parts(args, 0, 1), tightest, elements=True)
    return dt.Boolean()


# --- weak literals -------------------------------------------------------------------------------


def _element_literals(of: int, *at: int) -> Callable[[tuple[Node, ...]], tuple[Node, ...]]:
    """Weak literals at ``at`` take the element type of list argument ``of``."""

    def adopt(nodes: tuple[Node, ...]) -> tuple[Node, ...]:
        owner = nodes[of].typed if of < len(nodes) else None
        if owner is None or not isinstance(owner.dtype, dt.List):
            return nodes
        inner = owner.dtype.inner
        return tuple(to_type(n, inner, exact=True) if i in at else n for i, n in enumerate(nodes))

    return adopt


def _among(select: Callable[[int], Sequence[int]]) -> Callable[[tuple[Node, ...]], tuple[Node, ...]]:
    """Weak literals among the arguments ``select(count)`` take the type the others meet in."""

    def adopt(nodes: tuple[Node, ...]) -> tuple[Node, ...]:
        return meet(nodes, select(len(nodes)), exact=True)

    return adopt


def empty_takes_the_others(nodes: tuple[Node, ...]) -> tuple[Node, ...]:
    """An empty ``F.array()`` (``F.create_map()``) takes the type the other lists (maps) meet in, as Spark coerces."""
    empty = [i for i, n in enumerate(nodes) if isinstance(n, Literal) and isinstance(n.value, EmptyCollection)]
    if not empty:
        return nodes
    target: dt.DType | None = None
    for node in nodes:
        typed = node.typed
        if typed is None or not isinstance(typed.dtype, dt.List | dt.Map):
            continue
        target = typed.dtype if target is None else supertype(target, typed.dtype)
        if target is None:
            return nodes  # the rule reports it
    if target is None:
        return nodes
    return tuple(n.adopt(target) if i in empty and isinstance(n, Literal) else n for i, n in enumerate(nodes))


def _lookup_literals(nodes: tuple[Node, ...]) -> tuple[Node, ...]:
    """An int constant position into a list is an ``int`` (Spark takes no ``bigint`` there).

    A bare Python int, and ``F.lit(1)`` too: PySpark's ``lit(1)`` is an ``int``,
    the façade's a ``bigint`` (a Python int is 64-bit here), and a position that
    fits loses nothing.
    """
    owner = nodes[0].typed if nodes else None
    if owner is None or len(nodes) < 2 or not isinstance(owner.dtype, dt.List):
        return nodes
    position = nodes[1]
    if (
        isinstance(position, Literal)
        and isinstance(position.dtype, dt.Int64)
        and type(position.value) is int
        and dt.Int32.holds(position.value)
    ):
        return (nodes[0], Literal(position.value, dt.Int32()), *nodes[2:])
    return nodes


# --- lookups ---------------------------------------------------------------------------------------


def _element_check(args: Args) -> None:
    elements = _inner(args).inner
    if not comparable(elements, args.dtype(1), ordering=False):
        value, container = describe(args.nodes[1]), describe(args.nodes[0])
        msg = f"{args.name}(): value {value} cannot be compared with the elements of {container}"
        raise ColumnTypeError(msg)


def _contains_nullable(args: Args) -> bool:
    return args.nullable(0) or args.nullable(1) or _inner(args).contains_null


def _lookup_type(args: Args) -> dt.DType:
    container = args.dtype(0)
    return container.inner if isinstance(container, dt.List) else _map(args).value


def _lookup_check(args: Args) -> None:
    container = args.dtype(0)
    if isinstance(container, dt.List):
        if not isinstance(args.dtype(1), dt.Int8 | dt.Int16 | dt.Int32):
            msg = (
                f"{args.name}(): a list needs an int (1-based) position; got {describe(args.nodes[1])}"
                " (Spark takes no bigint here: cast it to Int32)"
            )
            raise ColumnTypeError(msg)
        if args.is_literal(1) and args.value(1) == 0:
            msg = f"{args.name}(): positions are 1-based (negative: from the end); 0 is no position"
            raise ColumnTypeError(msg)
    elif not comparable(_map(args).key, args.dtype(1), ordering=False):
        msg = f"{args.name}(): key {describe(args.nodes[1])} does not fit the keys of {describe(args.nodes[0])}"
        raise ColumnTypeError(msg)


def _position_check(args: Args) -> None:
    """``element_at`` on a list refuses a position that can be NULL.

    Spark 4.3 marks the element non-null for a non-constant position and then
    returns an element, not NULL, where the position is NULL.
    """
    _lookup_check(args)
    if isinstance(args.dtype(0), dt.List) and args.nullable(1):
        msg = (
            f"{args.name}(): position {describe(args.nodes[1])} can be NULL, and Spark then returns an element "
            "instead of NULL; fill it (F.coalesce) or use F.try_element_at"
        )
        raise ColumnTypeError(msg)


def _created_items(node: Node) -> tuple[Node, ...] | None:
    """The items of a list written as ``F.array(...)``: Spark knows the nullability of each."""
    while isinstance(node, Alias):
        node = node.child
    return tuple(node.children()) if node.label == "array" else None


def _item(args: Args, position: int, *, zero_based: bool) -> bool | None:
    """Whether the item at literal ``position`` of an ``F.array(...)`` list can be NULL.

    None when the list is not written as ``F.array(...)`` or the position is out of its range.
    """
    items = _created_items(args.nodes[0])
    if items is None:
        return None
    index = position if zero_based else (position - 1 if position > 0 else len(items) + position)
    if not 0 <= index < len(items):
        return None
    return items[index].type.nullable


def _literal_position(args: Args, index: int = 1) -> int | None:
    value = args.value(index) if args.is_literal(index) else None
    return value if type(value) is int else None


def _element_at_nullable(args: Args) -> bool:
    """Whether ``element_at`` can be NULL, as Spark's analyzer says.

    A map's value: always. A list's element (an error past the end, under ANSI):
    at a literal position of ``F.array(...)``, that item's nullability (non-null
    past its end); at another literal, always; else where the list or an element is.
    """
    if isinstance(args.dtype(0), dt.Map):
        return True
    if args.nodes[1].is_constant:  # Spark evaluates a constant position when it types the call
        position = _literal_position(args)
        if position is None:
            return True
        found = _item(args, position, zero_based=False)
        if found is not None:
            return found
        return _created_items(args.nodes[0]) is None  # past the end of F.array(...): Spark says non-null
    return args.nullable(0) or _inner(args).contains_null


def _try_element_at_nullable(args: Args) -> bool:
    position = _literal_position(args)
    if isinstance(args.dtype(0), dt.Map) or position is None:
        return True
    found = _item(args, position, zero_based=False)
    return True if found is None else found


def _get_nullable(args: Args) -> bool:
    position = _literal_position(args)
    found = None if position is None else _item(args, position, zero_based=True)
    return True if found is None else found


def _list_get_nullable(args: Args) -> bool:
    """``list.get`` is ``try_element_at`` at ``index + 1`` (a negative index as it is)."""
    position = _literal_position(args)
    if position is None:
        return True
    found = _item(args, position + 1 if position >= 0 else position, zero_based=False)
    return True if found is None else found


def _end_nullable(position: int) -> Callable[[Args], bool]:
    """``list.first``/``list.last``: ``try_element_at`` at 1 or -1."""

    def rule(args: Args) -> bool:
        found = _item(args, position, zero_based=False)
        return True if found is None else found

    return rule


def _key_check(args: Args) -> None:
    if not comparable(_map(args).key, args.dtype(1), ordering=False):
        msg = f"{args.name}(): key {describe(args.nodes[1])} does not fit the keys of {describe(args.nodes[0])}"
        raise ColumnTypeError(msg)


def _not_zero(what: str) -> Callable[[int], str | None]:
    return lambda v: None if v != 0 else f"is 1-based (negative: from the end); 0 is no {what}"


# --- structs -----------------------------------------------------------------------------------------


def _field(args: Args) -> dt.Field:
    parent = args.dtype(0)
    assert isinstance(parent, dt.Struct)
    found = parent.get(args.value(1))
    if found is None:
        raise UnknownColumnError(args.value(1), [f.name for f in parent.fields], where=describe(args.nodes[0]))
    return found


def _field_name(nodes: Sequence[Node]) -> str:
    name = nodes[1]
    assert isinstance(name, Literal)
    return str(name.value)


def _field_nullable(args: Args) -> bool:
    return args.nullable(0) or _field(args).nullable


def _struct_of(args: Args) -> dt.Struct:
    parent = args.dtype(0)
    assert isinstance(parent, dt.Struct)
    return parent


def _field_names(names: list[str] | tuple[str, ...]) -> str | None:
    if not all(isinstance(n, str) for n in names):
        return "must hold strings (the new field names)"
    return None


def _check_new_names(args: Args, names: Sequence[str], kept: Sequence[str]) -> None:
    """New field names: distinct also ignoring case (as Spark resolves fields), none a kept one's but for case."""
    seen: dict[str, str] = {}
    for name in names:
        if "${" in name:
            msg = f"{args.name}(): field name {name!r} contains '${{', which Spark's variable substitution rewrites"
            raise ColumnTypeError(msg)
        folded = name.lower()
        if folded in seen:
            msg = (
                f"{args.name}(): two fields would be named {seen[folded]!r} and {name!r}; field names must differ "
                "also ignoring case, as Spark resolves them"
            )
            raise ColumnTypeError(msg)
        seen[folded] = name
    for name in kept:
        other = seen.get(name.lower())
        if other is not None and other != name:
            msg = (
                f"{args.name}(): new field {other!r} differs from the field {name!r} of {describe(args.nodes[0])} "
                "only in case; Spark would not tell them apart. Use the same name to replace it, or another one"
            )
            raise ColumnTypeError(msg)


def _renamed(args: Args) -> dt.DType:
    """``rename_fields``: the struct's fields under the new names, in order; one name per field."""
    parent = _struct_of(args)
    names = list(args.value(1) or ())
    if len(names) != len(parent.fields):
        have = ", ".join(f.name for f in parent.fields)
        msg = (
            f"{args.name}(): {describe(args.nodes[0])} has {len(parent.fields)} field(s) ({have}) but "
            f"{len(names)} new name(s) were given; give one name per field, in order"
        )
        raise ColumnTypeError(msg)
    _check_new_names(args, names, ())
    return dt.Struct(tuple(dt.Field(n, f.dtype, f.nullable) for n, f in zip(names, parent.fields, strict=True)))


def with_fields_names(args: Args) -> list[str]:
    """The names of ``with_fields``' new values: a keyword's, an alias's, a column's or a struct field's."""
    names = []
    for node in args.nodes[1:]:
        name = given_name(node)
        if name is None:
            msg = (
                f"{args.name}(): {describe(node)} has no name; pass it by keyword (with_fields(total=...)) or "
                "alias it (expr.alias('total'))"
            )
            raise ColumnTypeError(msg)
        names.append(name)
    return names


def _with_fields(args: Args) -> dt.DType:
    """``with_fields``: a field of a new value's name is replaced where it is; the others are added last."""
    parent = _struct_of(args)
    names = with_fields_names(args)
    _check_new_names(args, names, [f.name for f in parent.fields])
    values = dict(zip(names, args.types[1:], strict=True))
    fields = [
        dt.Field(f.name, values[f.name].dtype, values[f.name].nullable) if f.name in values else f
        for f in parent.fields
    ]
    kept = {f.name for f in parent.fields}
    fields += [dt.Field(n, t.dtype, t.nullable) for n, t in values.items() if n not in kept]
    return dt.Struct(tuple(fields))


def given_name(node: Node) -> str | None:
    """The name Spark gives a struct field made from ``node``: a column's, an alias's or a struct field's."""
    if isinstance(node, Column | Alias):
        return node.name
    if node.label == "struct.field":
        return node.output_name
    return None


def struct_names(nodes: Sequence[Node]) -> list[str]:
    """``struct``'s field names: given names, else ``col1``, ``col2``... by position (as Spark's ``struct``)."""
    return [given_name(n) or f"col{i + 1}" for i, n in enumerate(nodes)]


def zip_names(nodes: Sequence[Node]) -> list[str]:
    """``arrays_zip``'s field names: given names, else ``0``, ``1``... by position (as Spark's ``arrays_zip``)."""
    return [given_name(n) or str(i) for i, n in enumerate(nodes)]


def _unique_fields(args: Args, names: Sequence[str]) -> None:
    seen: dict[str, int] = {}
    for index, name in enumerate(names):
        if name in seen:
            msg = (
                f"{args.name}(): two fields would be named {name!r} ({describe(args.nodes[seen[name]])} and "
                f"{describe(args.nodes[index])}); a struct's fields are read by name: alias one of them"
            )
            raise ColumnTypeError(msg)
        if "${" in name:
            msg = (
                f"{args.name}(): field name {name!r} contains '${{', which Spark's variable substitution rewrites "
                "in SQL text; alias it"
            )
            raise ColumnTypeError(msg)
        seen[name] = index


def _struct(args: Args) -> dt.DType:
    names = struct_names(args.nodes)
    _unique_fields(args, names)
    return dt.Struct(tuple(dt.Field(n, t.dtype, t.nullable) for n, t in zip(names, args.types, strict=True)))


def _named_struct(args: Args) -> dt.DType:
    if len(args) % 2:
        msg = f"{args.name}() takes names and values in pairs; got {len(args)} arguments"
        raise ColumnTypeError(msg)
    names = []
    for index in range(0, len(args), 2):
        if not (args.is_literal(index) and isinstance(args.dtype(index), dt.String) and args.value(index) is not None):
            got = describe(args.nodes[index])
            msg = f"{args.name}(): a field name must be a string literal (F.lit('name')); got {got}"
            raise ColumnTypeError(msg)
        names.append(str(args.value(index)))
    _unique_fields(args, names)
    values = args.types[1::2]
    return dt.Struct(tuple(dt.Field(n, t.dtype, t.nullable) for n, t in zip(names, values, strict=True)))


def _zipped(args: Args) -> dt.DType:
    names = zip_names(args.nodes)
    _unique_fields(args, names)
    fields = tuple(dt.Field(n, _inner(args, i).inner, True) for i, n in enumerate(names))
    return dt.List(dt.Struct(fields), False)


# --- building lists -----------------------------------------------------------------------------------


def _array(args: Args) -> dt.DType:
    parts = list(enumerate(args.dtype(i) for i in range(len(args))))
    target = _meet(args, parts, supertype, elements=False)
    return dt.List(target, any_null(args) or _forced(parts, target))


def concat_lists(args: Args) -> dt.DType:
    """``concat`` of lists: their elements meet in the wider type; NULL elements from any of them."""
    parts = _list_parts(args, *range(len(args)))
    target = _meet(args, parts, supertype, elements=True)
    return dt.List(target, any(_inner(args, i).contains_null for i in range(len(args))))


def _flatten(args: Args) -> dt.DType:
    inner = _inner(args).inner
    assert isinstance(inner, dt.List)
    return inner


def _null_where_an_element_is(args: Args) -> bool:
    """NULL where the list is, or where one of its elements is (``flatten``, ``map_from_entries``)."""
    return args.nullable(0) or _inner(args).contains_null


def _repeated(args: Args) -> dt.DType:
    return dt.List(args.dtype(0), args.nullable(0))


def _sequence_parts(args: Args) -> list[tuple[int, dt.DType]]:
    bounds = [(0, args.dtype(0)), (1, args.dtype(1))]
    integral = [isinstance(t, dt.Integral) for _, t in bounds]
    if any(integral) and not all(integral):
        start, stop = describe(args.nodes[0]), describe(args.nodes[1])
        msg = f"{args.name}(): {start} and {stop} must both be integers, or both dates or datetimes"
        raise ColumnTypeError(msg)
    if len(args) > 2:
        step = args.dtype(2)
        if integral[0] != isinstance(step, dt.Integral):
            wanted = "an integer" if integral[0] else "a duration"
            msg = f"{args.name}(): step must be {wanted} here; got {describe(args.nodes[2])}"
            raise ColumnTypeError(msg)
        if integral[0]:
            bounds.append((2, step))
    return bounds


def _sequence(args: Args) -> dt.DType:
    return dt.List(_meet(args, _sequence_parts(args), supertype, elements=False), False)


def _sequence_nullable(args: Args) -> bool:
    parts = _sequence_parts(args)
    return any_null(args) or _forced(parts, _meet(args, parts, supertype, elements=False))


def _sequence_check(args: Args) -> None:
    if len(args) < 3 or not args.is_literal(2):
        return
    step = args.value(2)
    if step == 0 or step == datetime.timedelta(0):
        msg = f"{args.name}(): step must not be zero"
        raise ColumnTypeError(msg)
    dates = isinstance(args.dtype(0), dt.Date) and isinstance(args.dtype(1), dt.Date)
    if dates and isinstance(step, datetime.timedelta) and (step.seconds or step.microseconds):
        msg = f"{args.name}(): a sequence of dates steps by whole days; got {step!r}"
        raise ColumnTypeError(msg)


def _slice_check(args: Args) -> None:
    if args.is_literal(1) and args.value(1) == 0:
        msg = f"{args.name}(): start is 1-based (negative: from the end); 0 is no position"
        raise ColumnTypeError(msg)
    if args.is_literal(2) and args.value(2) is not None and args.value(2) < 0:
        msg = f"{args.name}(): length must be >= 0, got {args.value(2)}"
        raise ColumnTypeError(msg)


def _insert_check(args: Args) -> None:
    if args.is_literal(1) and args.value(1) == 0:
        msg = f"{args.name}(): pos is 1-based (negative: from the end); 0 is no position"
        raise ColumnTypeError(msg)


# --- maps --------------------------------------------------------------------------------------------


def _string_keys(args: Args, indexes: Sequence[int]) -> None:
    """Map keys: strings (the façade's maps are ``dict[str, V]``), never NULL, literal ones all different."""
    literals: dict[object, int] = {}
    for index in indexes:
        node, typed = args.nodes[index], args.types[index]
        if not isinstance(typed.dtype, dt.String):
            msg = (
                f"{args.name}(): key {describe(node)} must be a string: the façade's maps have string keys "
                "(dict[str, V]); cast it with .cast(str)"
            )
            raise ColumnTypeError(msg)
        if typed.nullable:
            msg = (
                f"{args.name}(): key {describe(node)} can be NULL, which Spark refuses as a map key when the "
                "query runs; fill it first (F.coalesce(key, ...)) or filter the NULLs out"
            )
            raise ColumnTypeError(msg)
        if args.is_literal(index):
            key = args.value(index)
            if key in literals:
                msg = (
                    f"{args.name}(): key {key!r} is given twice; Spark fails on duplicate map keys when the "
                    "query runs (spark.sql.mapKeyDedupPolicy=EXCEPTION)"
                )
                raise ColumnTypeError(msg)
            literals[key] = index


def _create_map(args: Args) -> dt.DType:
    if len(args) % 2:
        msg = f"{args.name}() takes keys and values in pairs; got {len(args)} arguments"
        raise ColumnTypeError(msg)
    _string_keys(args, range(0, len(args), 2))
    parts = [(i, args.dtype(i)) for i in range(1, len(args), 2)]
    target = _meet(args, parts, supertype, elements=False)
    holds_null = any(args.nullable(i) for i, _ in parts)
    return dt.Map(dt.String(), target, holds_null or _forced(parts, target))


def _from_arrays(args: Args) -> dt.DType:
    keys, values = _inner(args, 0), _inner(args, 1)
    if keys.contains_null:
        msg = (
            f"{args.name}(): keys {describe(args.nodes[0])} may hold NULLs, which Spark refuses as map keys when "
            "the query runs; drop them first (.list.drop_nulls())"
        )
        raise ColumnTypeError(msg)
    return dt.Map(keys.inner, values.inner, values.contains_null)


def _from_entries(args: Args) -> dt.DType:
    entry = _inner(args).inner
    assert isinstance(entry, dt.Struct)
    key, val = entry.fields
    if key.nullable:
        msg = (
            f"{args.name}(): the keys (field {key.name!r}) of {describe(args.nodes[0])} can be NULL, which Spark "
            "refuses as map keys when the query runs; fill or filter them first"
        )
        raise ColumnTypeError(msg)
    return dt.Map(key.dtype, val.dtype, val.nullable)


def _entries(args: Args) -> dt.DType:
    found = _map(args)
    fields = (dt.Field("key", found.key, False), dt.Field("value", found.value, found.value_contains_null))
    return dt.List(dt.Struct(fields), False)


def _map_concat(args: Args) -> dt.DType:
    maps = [_map(args, i) for i in range(len(args))]
    for index, found in enumerate(maps[1:], start=1):
        if found.key != maps[0].key:
            msg = f"{args.name}(): the keys of {describe(args.nodes[0])} and {describe(args.nodes[index])} differ"
            raise ColumnTypeError(msg)
    parts = [(i, m.value) for i, m in enumerate(maps)]
    target = _meet(args, parts, supertype, elements=True)
    return dt.Map(maps[0].key, target, any(m.value_contains_null for m in maps))


def _some_values(values: Sequence[object]) -> str | None:
    """A ``check``: a list of values to look for, at least one, none of them None."""
    if not values:
        return "must hold at least one value"
    if any(v is None for v in values):
        return "holds None, which no element equals (NULL compares as unknown); test for NULLs apart"
    return None


def _some_keys(keys: Sequence[object]) -> str | None:
    """A ``check``: map keys to look for, at least one, each a string (the façade's maps have string keys)."""
    problem = _some_values(keys)
    if problem is not None:
        return problem
    wrong = next((k for k in keys if not isinstance(k, str)), None)
    return None if wrong is None else f"must hold strings (map keys are strings), not {wrong!r}"


def _values_of_elements(nodes: tuple[Node, ...]) -> tuple[Node, ...]:
    """A list of Python values looked for in list argument 0 takes its element type, where every value fits it."""
    owner = nodes[0].typed if nodes else None
    values = nodes[1] if len(nodes) > 1 else None
    if owner is None or not isinstance(owner.dtype, dt.List) or not isinstance(values, Literal):
        return nodes
    if not isinstance(values.value, tuple):
        return nodes
    return (nodes[0], list_literal(values.value, "values", owner.dtype.inner), *nodes[2:])


_SEED = value("seed", int, default=ABSENT, sample=7)
_ROOM = "Spark's maps must not repeat a key: a duplicate fails the query (spark.sql.mapKeyDedupPolicy)."

ENTRIES: tuple[Function, ...] = (
    # --- sizes and lookups ---
    _entry(
        "size",
        column("col", MAP_OR_LIST),
        returns=fixed(dt.Int32()),
        methods=("list.len",),
        summary="The number of elements (of a list or a map).",
        aliases=("cardinality",),
    ),
    _entry("array_size", LIST, returns=fixed(dt.Int32()), summary="The number of elements of a list."),
    _entry(
        "list.get",
        LIST,
        column("index", accepts.INT32),
        returns=element(0),
        nullable=_list_get_nullable,
        in_f=False,
        methods=("list.get",),
        special=True,
        summary="The element at a 0-based index (negative: from the end); NULL out of range.",
    ),
    _entry(
        "list.first",
        LIST,
        returns=element(0),
        nullable=_end_nullable(1),
        in_f=False,
        methods=("list.first",),
        template="try_element_at({0}, 1)",
        summary="The first element; NULL for an empty list.",
    ),
    _entry(
        "list.last",
        LIST,
        returns=element(0),
        nullable=_end_nullable(-1),
        in_f=False,
        methods=("list.last",),
        template="try_element_at({0}, -1)",
        summary="The last element; NULL for an empty list.",
    ),
    _entry(
        "element_at",
        column("col", MAP_OR_LIST),
        either("extraction", KEY_OR_POSITION, int, str),
        returns=_lookup_type,
        nullable=_element_at_nullable,
        check=_position_check,
        adopt=_lookup_literals,
        summary=(
            "The element at a 1-based position of a list (negative: from the end; an error past the end), "
            "or the value of a map key (NULL if absent)."
        ),
    ),
    _entry(
        "try_element_at",
        column("col", MAP_OR_LIST),
        column("extraction", KEY_OR_POSITION),
        returns=_lookup_type,
        nullable=_try_element_at_nullable,
        check=_lookup_check,
        adopt=_lookup_literals,
        samples=((dt.List(dt.Int64(), False), Lit(2)), (dt.List(dt.String(), True), Lit(-1))),
        methods=("map.get",),
        summary="The element at a 1-based position of a list, or the value of a map key; NULL if absent.",
    ),
    _entry(
        "get",
        LIST,
        either("index", POSITION, int, literal=dt.Int32(), names=True),
        returns=element(0),
        nullable=_get_nullable,
        summary="The element at a 0-based index; NULL out of range (negative indexes too).",
    ),
    _entry(
        "array_contains",
        LIST,
        VALUE,
        returns=fixed(dt.Boolean()),
        nullable=_contains_nullable,
        check=_element_check,
        methods=("list.contains",),
        summary="Whether the list holds the value (NULL when unknown: a NULL list or value, or NULLs in it).",
    ),
    _entry(
        "array_position",
        column("col", COMPARED_LIST),
        VALUE,
        returns=_position,
        adopt=_element_literals(0, 1),
        summary="The 1-based position of the value's first occurrence (0 if absent), as a bigint.",
    ),
    _entry(
        "arrays_overlap",
        column("a1", COMPARED_LIST),
        column("a2", COMPARED_LIST),
        returns=_overlap,
        nullable=_overlap_nullable,
        adopt=empty_takes_the_others,
        summary="Whether the lists share an element (NULL if not and either holds a NULL).",
    ),
    _entry(
        "array_max",
        column("col", ORDERED_LIST),
        returns=element(0),
        nullable=always,
        methods=("list.max",),
        summary="The largest element, NULLs skipped (NULL for an empty list).",
    ),
    _entry(
        "array_min",
        column("col", ORDERED_LIST),
        returns=element(0),
        nullable=always,
        methods=("list.min",),
        summary="The smallest element, NULLs skipped (NULL for an empty list).",
    ),
    # --- building and changing lists ---
    _entry(
        "array",
        column("cols", ITEM, variadic=True, default=ABSENT),
        returns=_array,
        empty=functools.partial(undecided_empty, EmptyCollection.LIST),
        nullable=never,
        adopt=_among(range),
        summary=(
            "A list of the values (their common type). With no values, an empty list typed by the list next "
            "to it (``F.when(c, xs).otherwise(F.array())``)."
        ),
        unpacks=True,
    ),
    _entry(
        "array_repeat",
        column("col", accepts.ANY),
        either("count", POSITION, int, literal=dt.Int32(), names=True),
        returns=_repeated,
        nullable=null_if(1),
        summary="A list of ``count`` copies of the value (empty for ``count`` <= 0).",
    ),
    _entry(
        "sequence",
        column("start", SEQUENCE_BOUND),
        column("stop", SEQUENCE_BOUND),
        column("step", SEQUENCE_STEP, default=ABSENT),
        returns=_sequence,
        nullable=_sequence_nullable,
        check=_sequence_check,
        adopt=_among(lambda n: range(min(n, 3))),
        session=True,
        summary=(
            "The integers (or dates, datetimes) from ``start`` to ``stop`` inclusive by ``step`` "
            "(default 1, or -1 counting down; one day for dates and datetimes)."
        ),
    ),
    _entry(
        "array_append",
        LIST,
        VALUE,
        returns=_appended,
        nullable=null_if(0),
        adopt=_element_literals(0, 1),
        summary="The list with the value added at the end (Spark marks the elements nullable).",
    ),
    _entry(
        "array_prepend",
        LIST,
        VALUE,
        returns=_appended,
        nullable=null_if(0),
        adopt=_element_literals(0, 1),
        summary="The list with the value added at the start (Spark marks the elements nullable).",
    ),
    _entry(
        "array_insert",
        column("arr", accepts.ARRAY),
        either("pos", POSITION, int, literal=dt.Int32(), names=True, check=_not_zero("position"), sample=2),
        VALUE,
        returns=_inserted,
        nullable=null_if(0, 1),
        check=_insert_check,
        adopt=_element_literals(0, 2),
        summary=(
            "The list with the value inserted at 1-based ``pos`` (negative: from the end); "
            "a position past the end pads with NULLs."
        ),
    ),
    _entry(
        "array_remove",
        column("col", COMPARED_LIST),
        either("element", accepts.ANY, bool, int, float, str),
        returns=_removed,
        adopt=_element_literals(0, 1),
        summary="The list without the elements equal to ``element``.",
    ),
    _entry(
        "array_compact",
        LIST,
        returns=lambda a: dt.List(_inner(a).inner, False),
        methods=("list.drop_nulls",),
        summary="The list without its NULL elements.",
    ),
    _entry(
        "slice",
        column("x", accepts.ARRAY),
        either("start", POSITION, int, literal=dt.Int32(), names=True, check=_not_zero("position")),
        either("length", POSITION, int, literal=dt.Int32(), names=True, check=at_least(0)),
        check=_slice_check,
        summary="``length`` elements from 1-based ``start`` (negative: from the end).",
    ),
    _entry(
        "list.slice",
        LIST,
        value("offset", int, literal=dt.Int32()),
        value("length", int, literal=dt.Int32(), default=ABSENT, check=at_least(0)),
        in_f=False,
        methods=("list.slice",),
        special=True,
        summary="``length`` elements from 0-based ``offset`` (negative: from the end), or to the end.",
    ),
    _entry(
        "list.reverse",
        LIST,
        in_f=False,
        methods=("list.reverse",),
        sql="reverse",
        summary="The elements in reverse order.",
    ),
    _entry(
        "list.concat",
        LIST,
        column("other", accepts.ARRAY),
        returns=concat_lists,
        adopt=empty_takes_the_others,
        in_f=False,
        methods=("list.concat",),
        sql="concat",
        summary="The elements of both lists, this one's first (their common type).",
    ),
    _entry(
        "flatten",
        column("col", NESTED_LIST),
        returns=_flatten,
        nullable=_null_where_an_element_is,
        summary="The lists of the list, end to end (NULL where one of them is).",
    ),
    _entry(
        "sort_array",
        column("col", ORDERED_LIST),
        value("asc", bool, default=True),
        summary="The elements sorted (NULLs first ascending, last descending).",
    ),
    _entry(
        "array_sort",
        column("col", ORDERED_LIST),
        summary="The elements sorted ascending, NULLs last (a comparator function is not offered).",
    ),
    _entry(
        "list.sort",
        column("col", ORDERED_LIST),
        value("descending", bool, default=False),
        in_f=False,
        methods=("list.sort",),
        special=True,
        summary="The elements sorted (NULLs first ascending, last descending).",
    ),
    _entry(
        "shuffle",
        LIST,
        _SEED,
        deterministic=False,
        special=True,
        summary="The elements in a random order (reproducible with ``seed``).",
    ),
    _entry("array_distinct", LIST, methods=("list.unique",), summary="The distinct elements, in order of appearance."),
    # --- sets of elements ---
    _entry(
        "array_union",
        column("col1", COMPARED_LIST),
        column("col2", COMPARED_LIST),
        returns=_pairwise(lambda a: _inner(a, 0).contains_null or _inner(a, 1).contains_null),
        methods=("list.set_union",),
        adopt=empty_takes_the_others,
        summary="The distinct elements of either list, in order of appearance.",
    ),
    _entry(
        "array_intersect",
        column("col1", COMPARED_LIST),
        column("col2", COMPARED_LIST),
        returns=_pairwise(lambda a: _inner(a, 0).contains_null and _inner(a, 1).contains_null),
        methods=("list.set_intersection",),
        adopt=empty_takes_the_others,
        summary="The distinct elements of the first list that the second holds too.",
    ),
    _entry(
        "array_except",
        column("col1", COMPARED_LIST),
        column("col2", COMPARED_LIST),
        returns=_pairwise(lambda a: _inner(a, 0).contains_null),
        methods=("list.set_difference",),
        adopt=empty_takes_the_others,
        summary="The distinct elements of the first list that the second does not hold.",
    ),
    _entry(
        "arrays_zip",
        column("cols", accepts.ARRAY, variadic=True),
        returns=_zipped,
        special=True,
        summary=(
            "A list of structs, the n-th holding the n-th element of each list (NULL past a shorter one); "
            "fields are named after the columns (by position for other expressions)."
        ),
    ),
    _entry(
        "array_join",
        column("col", STRING_LIST),
        value("delimiter", str),
        value("null_replacement", str, default=ABSENT, sample="-"),
        returns=fixed(dt.String()),
        nullable=null_if(0),
        methods=("list.join",),
        summary="The string elements joined with ``delimiter`` (NULLs skipped, or replaced).",
    ),
    # --- maps ---
    _entry(
        "map_keys",
        column("col", STRING_MAP),
        returns=lambda a: dt.List(_map(a).key, True),
        methods=("map.keys",),
        summary="The keys as a list.",
    ),
    _entry(
        "map_values",
        column("col", STRING_MAP),
        returns=lambda a: dt.List(_map(a).value, True),
        methods=("map.values",),
        summary="The values as a list.",
    ),
    _entry(
        "map_entries",
        column("col", STRING_MAP),
        returns=_entries,
        methods=("map.entries",),
        summary="The (key, value) pairs as a list of structs with fields ``key`` and ``value``.",
    ),
    _entry(
        "map_contains_key",
        column("col", STRING_MAP),
        VALUE,
        returns=fixed(dt.Boolean()),
        nullable=always,
        check=_key_check,
        methods=("map.contains_key",),
        summary="Whether the map has the key.",
    ),
    _entry(
        "create_map",
        column("cols", ITEM, variadic=True, default=ABSENT),
        returns=_create_map,
        empty=functools.partial(undecided_empty, EmptyCollection.MAP),
        nullable=never,
        adopt=_among(lambda n: range(1, n, 2)),
        sql="map",
        session=True,
        summary=(
            f"A map of the keys (strings, never NULL) and values given in turn. {_ROOM} With no values, an "
            "empty map typed by the map next to it (``F.coalesce(m, F.create_map())``)."
        ),
        unpacks=True,
    ),
    _entry(
        "map_from_arrays",
        column("col1", KEYS),
        column("col2", accepts.ARRAY),
        returns=_from_arrays,
        session=True,
        summary=f"A map of the keys of ``col1`` to the values of ``col2`` at the same positions. {_ROOM}",
    ),
    _entry(
        "map_from_entries",
        column("col", ENTRY_LIST),
        returns=_from_entries,
        nullable=_null_where_an_element_is,
        session=True,
        summary=f"A map of a list of (key, value) structs (NULL where an entry is). {_ROOM}",
    ),
    _entry(
        "map_concat",
        column("cols", STRING_MAP, variadic=True),
        returns=_map_concat,
        adopt=empty_takes_the_others,
        session=True,
        summary=f"The entries of all the maps in one (their values' common type). {_ROOM}",
        unpacks=True,
    ),
    _entry(
        "str_to_map",
        column("text", accepts.STRING),
        column("pairDelim", accepts.STRING, default=ABSENT),
        column("keyValueDelim", accepts.STRING, default=ABSENT),
        returns=fixed(dt.Map(dt.String(), dt.String(), True)),
        session=True,
        summary=(
            "The map that ``text`` spells: pairs split at ``pairDelim`` (default ``,``), each into key and value "
            f"at ``keyValueDelim`` (default ``:``); both are regular expressions. {_ROOM}"
        ),
    ),
    # --- structs ---
    _entry(
        "struct",
        column("cols", ITEM, variadic=True),
        returns=_struct,
        nullable=never,
        special=True,
        summary=(
            "A struct of the values, its fields named after the columns (or aliases, or struct fields; "
            "``col1``, ``col2``... for other expressions)."
        ),
        unpacks=True,
    ),
    _entry(
        "named_struct",
        column("cols", accepts.ANY, variadic=True),
        returns=_named_struct,
        nullable=never,
        samples=((Lit("x"), dt.Int64(), Lit("y"), (dt.String(), True)),),
        summary="A struct of the values, each after its field name (a string literal: ``F.lit('name')``).",
    ),
    _entry(
        "struct.field",
        column("col", STRUCT),
        value("name", str, sample="b"),
        returns=lambda a: _field(a).dtype,
        nullable=_field_nullable,
        in_f=False,
        methods=("struct.field",),
        special=True,
        output=_field_name,
        summary="The field called ``name``; NULL where the struct is.",
    ),
    # --- struct reshaping of the interface contract (``.struct`` methods under its names) ---
    _entry(
        "struct.struct_rename_fields",
        column("col", STRUCT),
        value("names", list, tuple, literal=dt.String(), check=_field_names, sample=["x", "y"]),
        returns=_renamed,
        nullable=null_if(0),
        in_f=False,
        methods=("struct.struct_rename_fields", "struct.rename_fields"),
        special=True,
        summary=(
            "The struct with its fields renamed, one new name per field in order (values, types and nullability "
            "kept); NULL where the struct is."
        ),
    ),
    _entry(
        "struct.struct_with_fields",
        column("col", STRUCT),
        column("fields", accepts.ANY, variadic=True),
        returns=_with_fields,
        nullable=null_if(0),
        in_f=False,
        keywords=True,
        methods=("struct.struct_with_fields", "struct.with_fields"),
        special=True,
        summary=(
            "The struct with fields replaced or added: ``with_fields(total=expr)`` (or named expressions: "
            "``expr.alias('total')``, a column); a field of that name keeps its place, a new one goes last. "
            "NULL where the struct is (as PySpark's ``withField``)."
        ),
    ),
    # --- predicates of the interface contract (``.list`` and ``.map`` methods under its names) ---
    _entry(
        "list.contains_any",
        LIST,
        value("values", list, tuple, check=_some_values, sample=[1, 7]),
        returns=_overlap,
        nullable=_overlap_nullable,
        adopt=_values_of_elements,
        in_f=False,
        methods=("list.contains_any",),
        template="arrays_overlap({0}, {1})",
        summary=(
            "Whether the list holds one of the values: ``array_contains`` of each, or-ed (NULL where the list is, "
            "or where it holds NULLs and none of the values)."
        ),
    ),
    _entry(
        "list.contains_all",
        LIST,
        value("values", list, tuple, check=_some_values, sample=[1, 7]),
        returns=_overlap,
        nullable=_overlap_nullable,
        adopt=_values_of_elements,
        in_f=False,
        methods=("list.contains_all",),
        # the values the list lacks: none (true), or some and the list holds NULLs (NULL), else false
        template="(size(array_except({1}, {0})) = 0 OR arrays_overlap({0}, array_except({1}, {0})))",
        summary=(
            "Whether the list holds every one of the values: ``array_contains`` of each, and-ed (NULL where the "
            "list is, or where it lacks one and holds NULLs)."
        ),
    ),
    _entry(
        "list.list_is_empty",
        LIST,
        returns=fixed(dt.Boolean()),
        in_f=False,
        methods=("list.list_is_empty", "list.is_empty"),
        template="(size({0}) = 0)",
        summary="Whether the list has no elements; NULL where it is NULL.",
    ),
    _entry(
        "map.map_is_empty",
        column("col", STRING_MAP),
        returns=fixed(dt.Boolean()),
        in_f=False,
        methods=("map.map_is_empty", "map.is_empty"),
        template="(size({0}) = 0)",
        summary="Whether the map has no entries; NULL where it is NULL.",
    ),
    _entry(
        "map.map_has_any_key",
        column("col", STRING_MAP),
        value("keys", list, tuple, literal=dt.String(), check=_some_keys, sample=["a", "b"]),
        returns=fixed(dt.Boolean()),
        nullable=null_if(0),
        in_f=False,
        methods=("map.map_has_any_key", "map.has_any_key"),
        template="(size(array_intersect(map_keys({0}), {1})) > 0)",
        summary="Whether the map has one of the keys (``map_contains_key`` of each, or-ed); NULL where it is NULL.",
    ),
)
