"""List, map and struct functions (PySpark's), and the ``.list``, ``.map`` and ``.struct`` namespaces."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ColumnTypeError, UnknownColumnError
from pydantable_spark.expr.catalog.spec import (
    ABSENT,
    ANY,
    ARRAY,
    INT32,
    MAP,
    Accepts,
    Args,
    Function,
    always,
    column,
    either,
    element,
    fixed,
    null_if,
    same,
    value,
)
from pydantable_spark.expr.core import Literal, Node, describe
from pydantable_spark.expr.operators import comparable

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["ENTRIES"]

LIST = column("col", ARRAY)
STRING_LIST = Accepts(
    "a list of strings",
    lambda t: isinstance(t, dt.List) and isinstance(t.inner, dt.String),
    examples=(dt.List(dt.String(), True), dt.List(dt.String(), False)),
)
ORDERED_LIST = Accepts(
    "a list of values with an order",
    lambda t: isinstance(t, dt.List) and not dt.contains_map(t.inner),
    examples=(dt.List(dt.Int64(), False), dt.List(dt.String(), True)),
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


def _entry(name: str, *params: object, returns: object = same(0), summary: str, **options: object) -> Function:
    return Function(name, params, returns, summary, "collection", **options)  # type: ignore[arg-type]


def _inner(args: Args, index: int = 0) -> dt.List:
    dtype = args.dtype(index)
    assert isinstance(dtype, dt.List)
    return dtype


def _map(args: Args, index: int = 0) -> dt.Map:
    dtype = args.dtype(index)
    assert isinstance(dtype, dt.Map)
    return dtype


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
    elif not comparable(_map(args).key, args.dtype(1), ordering=False):
        msg = f"{args.name}(): key {describe(args.nodes[1])} does not fit the keys of {describe(args.nodes[0])}"
        raise ColumnTypeError(msg)


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


ENTRIES: tuple[Function, ...] = (
    # --- lists ---
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
        column("index", INT32),
        returns=element(0),
        nullable=always,
        in_f=False,
        methods=("list.get",),
        special=True,
        summary="The element at a 0-based index (negative: from the end); NULL out of range.",
    ),
    _entry(
        "try_element_at",
        column("col", MAP_OR_LIST),
        column("extraction", KEY_OR_POSITION),
        returns=_lookup_type,
        nullable=always,
        check=_lookup_check,
        methods=("map.get",),
        summary="The element at a 1-based position of a list, or the value of a map key; NULL if absent.",
    ),
    _entry(
        "array_contains",
        LIST,
        either("value", ANY, bool, int, float, str),
        returns=fixed(dt.Boolean()),
        nullable=_contains_nullable,
        check=_element_check,
        methods=("list.contains",),
        summary="Whether the list holds the value (NULL when unknown: a NULL list or value, or NULLs in it).",
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
    _entry(
        "sort_array",
        column("col", ORDERED_LIST),
        value("asc", bool, default=True),
        summary="The elements sorted (NULLs first ascending, last descending).",
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
    _entry("array_distinct", LIST, methods=("list.unique",), summary="The distinct elements, in order of appearance."),
    # --- maps ---
    _entry(
        "map_keys",
        column("col", MAP),
        returns=lambda a: dt.List(_map(a).key, True),
        methods=("map.keys",),
        summary="The keys as a list.",
    ),
    _entry(
        "map_values",
        column("col", MAP),
        returns=lambda a: dt.List(_map(a).value, True),
        methods=("map.values",),
        summary="The values as a list.",
    ),
    # --- structs ---
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
)
