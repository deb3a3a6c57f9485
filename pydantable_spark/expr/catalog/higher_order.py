"""Higher-order functions (PySpark's): list and map functions that take a Python function, typed.

The function (a lambda, or a ``def``) is called once when the call is made,
with typed expressions for its variables, and returns the body
(``expr.lambdas``): ``F.transform(User.tags, lambda t: t.str.upper())`` is a
list of ``str``. The variables are typed as Spark's analyzer types them: a
list's element is NULL-able exactly when the list's elements are
(``containsNull``), an index is a non-null ``int``; a map's key is never NULL,
its value NULL-able when the map's values are; ``zip_with``'s and
``map_zip_with``'s values are always NULL-able (the shorter side is padded
with NULLs), and so is ``aggregate``'s accumulator (every nested part of it
too). The forms a function may take are PySpark's: ``transform`` and
``filter`` take ``f(x)`` or ``f(x, i)``, the others one form each.

Results follow Spark's analyzer: ``transform``'s elements and the values of
``transform_values``/``map_zip_with`` are NULL-able when the body is;
``filter`` and ``map_filter`` keep their input's type; ``exists`` and
``forall`` are NULL-able when the list or the body is (three-valued logic);
``aggregate`` has its ``finish``'s type (or the accumulator's), NULL-able when
the list or the finish is (always without one). Spark does not convert
``aggregate``'s merge result to the accumulator's type: it must be that type
already; a bare Python number as ``initialValue`` takes the merge's type where
it can, as a number beside an expression does. Map keys stay strings and
never NULL (the façade's maps are ``dict[str, V]``).

Each entry is checked against Spark's analyzer and against plain PySpark's
values by ``tests/expr/test_catalog.py``, with the functions of its ``sample``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ColumnTypeError
from pydantable_spark.expr.catalog import accepts
from pydantable_spark.expr.catalog.spec import (
    ABSENT,
    Accepts,
    Args,
    Function,
    LambdaSample,
    Takes,
    column,
    entry,
    function,
    null_if,
    same,
)
from pydantable_spark.expr.coercion import is_weak
from pydantable_spark.expr.core import Literal, Node, Typed, literal_of
from pydantable_spark.expr.lambdas import Lambda, typed_lambdas, variables_text

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["ENTRIES", "same_shape"]

MAP = Accepts(
    "a map", lambda t: isinstance(t, dt.Map),
    examples=(dt.Map(dt.String(), dt.Int64(), True), dt.Map(dt.String(), dt.String(), False)),
)  # fmt: skip
LIST = column("col", accepts.ARRAY)
INDEX = Typed(dt.Int32(), nullable=False)
"""An element's 0-based index: Spark's ``int``, never NULL."""


# --- the variables' types, from the arguments ---------------------------------------------------------


def _list(nodes: Sequence[Node], index: int) -> dt.List | None:
    typed = nodes[index].typed if index < len(nodes) else None
    return typed.dtype if typed is not None and isinstance(typed.dtype, dt.List) else None


def _map(nodes: Sequence[Node], index: int) -> dt.Map | None:
    typed = nodes[index].typed if index < len(nodes) else None
    return typed.dtype if typed is not None and isinstance(typed.dtype, dt.Map) else None


def _element_and_index(nodes: Sequence[Node]) -> tuple[Typed | None, ...]:
    found = _list(nodes, 0)
    return (None if found is None else Typed(found.inner, found.contains_null), INDEX)


def _pair(nodes: Sequence[Node]) -> tuple[Typed | None, ...]:
    left, right = _list(nodes, 0), _list(nodes, 1)
    return (None if left is None else Typed(left.inner, True), None if right is None else Typed(right.inner, True))


def _key_value(nodes: Sequence[Node]) -> tuple[Typed | None, ...]:
    found = _map(nodes, 0)
    if found is None:
        return (None, None)
    return (Typed(found.key, False), Typed(found.value, found.value_contains_null))


def _key_values(nodes: Sequence[Node]) -> tuple[Typed | None, ...]:
    first, second = _map(nodes, 0), _map(nodes, 1)
    key = first.key if first is not None else second.key if second is not None else None
    return (
        None if key is None else Typed(key, False),
        None if first is None else Typed(first.value, True),
        None if second is None else Typed(second.value, True),
    )


def _accumulator(nodes: Sequence[Node]) -> Typed | None:
    """``aggregate``'s accumulator: the initial value's type, NULL-able in every part (as Spark binds it)."""
    zero = nodes[1].typed if len(nodes) > 1 else None
    return None if zero is None else Typed(dt.without_nullability(zero.dtype), True)


def _merged(nodes: Sequence[Node]) -> tuple[Typed | None, ...]:
    found = _list(nodes, 0)
    return (_accumulator(nodes), None if found is None else Typed(found.inner, found.contains_null))


def _finished(nodes: Sequence[Node]) -> tuple[Typed | None, ...]:
    return (_accumulator(nodes),)


ELEMENT = Takes(("x",), ("the element",), (1,), _element_and_index)
ELEMENT_OR_INDEXED = Takes(("x", "i"), ("the element", "its 0-based index"), (1, 2), _element_and_index)
PAIR = Takes(("x", "y"), ("the left element", "the right element (NULL past either end)"), (2,), _pair)
KEY_VALUE = Takes(("k", "v"), ("the key", "its value"), (2,), _key_value)
KEY_VALUES = Takes(
    ("k", "v1", "v2"), ("the key", "its value in col1 (NULL if absent)", "its value in col2 (NULL if absent)"), (3,),
    _key_values,
)  # fmt: skip
MERGE = Takes(("acc", "x"), ("the accumulated value", "the element"), (2,), _merged)
FINISH = Takes(("acc",), ("the accumulated value",), (1,), _finished)


# --- result rules ----------------------------------------------------------------------------------


def _body(args: Args, index: int) -> Lambda:
    node = args.nodes[index]
    assert isinstance(node, Lambda)
    return node


def _returns(args: Args, index: int, wanted: str, test: type[dt.DType], *, nullable: bool = True) -> None:
    """Refuse a body that does not return ``wanted`` (``test``'s type, non-null unless ``nullable``)."""
    lam, typed = _body(args, index), args.types[index]
    if isinstance(typed.dtype, test) and (nullable or not typed.nullable):
        return
    got = f"{typed} (it can be NULL)" if isinstance(typed.dtype, test) else str(typed)
    msg = (
        f"{args.name}(): {lam.param} must return {wanted} for {variables_text(lam.variables)}; "
        f"{lam.render()} returns {got}"
    )
    raise ColumnTypeError(msg)


def _predicate(args: Args) -> None:
    _returns(args, 1, "a boolean", dt.Boolean)


def _transformed(args: Args) -> dt.DType:
    body = args.types[1]
    return dt.List(body.dtype, body.nullable)


def _zipped(args: Args) -> dt.DType:
    body = args.types[2]
    return dt.List(body.dtype, body.nullable)


def _boolean(args: Args) -> dt.DType:
    return dt.Boolean()


def _null_if_list_or_body(args: Args) -> bool:
    """NULL for a NULL list, or (three-valued logic) where the predicate is NULL for an element and none decides."""
    return args.nullable(0) or args.nullable(1)


def _keys_check(args: Args) -> None:
    lam = _body(args, 1)
    typed = args.types[1]
    if not isinstance(typed.dtype, dt.String):
        msg = (
            f"{args.name}(): {lam.param} must return a string for {variables_text(lam.variables)}: the façade's "
            f"maps have string keys (dict[str, V]); {lam.render()} returns {typed}: cast it with .cast(str)"
        )
        raise ColumnTypeError(msg)
    if typed.nullable:
        msg = (
            f"{args.name}(): {lam.param} can return NULL for {variables_text(lam.variables)} ({lam.render()}), "
            "which Spark refuses as a map key when the query runs; fill it first (F.coalesce(key, ...))"
        )
        raise ColumnTypeError(msg)


def _new_keys(args: Args) -> dt.DType:
    source = args.dtype(0)
    assert isinstance(source, dt.Map)
    return dt.Map(args.dtype(1), source.value, source.value_contains_null)


def _new_values(args: Args) -> dt.DType:
    source = args.dtype(0)
    assert isinstance(source, dt.Map)
    body = args.types[1]
    return dt.Map(source.key, body.dtype, body.nullable)


def _zipped_maps(args: Args) -> dt.DType:
    source = args.dtype(0)
    assert isinstance(source, dt.Map)
    body = args.types[2]
    return dt.Map(source.key, body.dtype, body.nullable)


def same_shape(a: dt.DType, b: dt.DType) -> bool:
    """Whether two types are the same apart from nullability and struct field names (Spark's structural equality)."""
    if isinstance(a, dt.List) and isinstance(b, dt.List):
        return same_shape(a.inner, b.inner)
    if isinstance(a, dt.Map) and isinstance(b, dt.Map):
        return same_shape(a.key, b.key) and same_shape(a.value, b.value)
    if isinstance(a, dt.Struct) and isinstance(b, dt.Struct):
        return len(a.fields) == len(b.fields) and all(
            same_shape(x.dtype, y.dtype) for x, y in zip(a.fields, b.fields, strict=True)
        )
    return a == b


def _aggregate_check(args: Args) -> None:
    merge, zero = _body(args, 2), args.types[1]
    merged = args.types[2]
    if not same_shape(merged.dtype, zero.dtype):
        msg = (
            f"{args.name}(): merge must return the accumulator's type, {zero.dtype} (initialValue's), for "
            f"{variables_text(merge.variables)}; {merge.render()} returns {merged.dtype}, which Spark does not "
            "convert: cast the merge's result to it, or give initialValue the merge's type "
            f"(F.lit(...).cast(...) or a column of that type)"
        )
        raise ColumnTypeError(msg)


def _aggregated(args: Args) -> dt.DType:
    if len(args) > 3:
        return args.dtype(3)
    return dt.without_nullability(args.dtype(1))


def _aggregate_nullable(args: Args) -> bool:
    return args.nullable(0) or len(args) < 4 or args.nullable(3)


def _settled_zero(args: tuple[Node, ...]) -> tuple[Node, ...]:
    """A bare Python number as ``initialValue`` takes the merge's result type, when its own type is not that.

    ``F.aggregate(prices, 0, lambda acc, x: acc + x)`` over doubles starts from
    ``0.0``, as ``prices + 0`` would add a double: the merge is typed again with
    the accumulator the literal becomes (Spark converts nothing there itself).
    """
    if len(args) < 3:
        return args
    zero, merge = args[1], args[2]
    if not (is_weak(zero) and isinstance(zero, Literal) and isinstance(merge, Lambda)):
        return args
    merged, start = merge.typed, zero.typed
    if merged is None or start is None or same_shape(merged.dtype, start.dtype):
        return args
    if not isinstance(merged.dtype, dt.Numeric):
        return args
    try:
        adopted = literal_of(zero.value, merged.dtype)
    except ColumnTypeError:
        return args
    return typed_lambdas(_AGGREGATE_PARAMS, (args[0], adopted, *args[2:]))


_AGGREGATE_PARAMS = (
    LIST,
    column("initialValue", accepts.ANY),
    function("merge", MERGE, sample="lambda acc, x: F.when(F.isnull(x), acc).otherwise(acc)"),
    function("finish", FINISH, sample="lambda acc: F.isnull(acc)", default=ABSENT),
)

ENTRIES: tuple[Function, ...] = (
    entry(
        "transform",
        (LIST, function("f", ELEMENT_OR_INDEXED, sample="lambda x: F.array(x)")),
        _transformed,
        "The list of ``f(x)`` (or ``f(x, i)``, ``i`` the 0-based index) for each element.",
        "higher-order",
        nullable=null_if(0),
        samples=(
            ((dt.List(dt.Int64(), True), True), LambdaSample("lambda x: F.coalesce(x, F.lit(1))")),
            (dt.List(dt.String(), False), LambdaSample("lambda x, i: F.when(i > 0, x)")),
        ),
        example="F.transform(F.col('tags'), lambda t: F.upper(t))",
    ),
    entry(
        "filter",
        (LIST, function("f", ELEMENT_OR_INDEXED, sample="lambda x: F.isnotnull(x)")),
        same(0),
        "The elements for which ``f(x)`` (or ``f(x, i)``) is true (not false nor NULL).",
        "higher-order",
        nullable=null_if(0),
        check=_predicate,
        samples=(((dt.List(dt.Int64(), True), True), LambdaSample("lambda x, i: (x > 0) | (i == 0)")),),
    ),
    entry(
        "exists",
        (LIST, function("f", ELEMENT, sample="lambda x: F.isnull(x)")),
        _boolean,
        "Whether ``f(x)`` holds for some element (NULL when not and ``f`` is NULL for one).",
        "higher-order",
        nullable=_null_if_list_or_body,
        check=_predicate,
        samples=(
            ((dt.List(dt.Int64(), True), True), LambdaSample("lambda x: x > 0")),
            (dt.List(dt.Int64(), True), LambdaSample("lambda x: x > 0")),  # NULL from the predicate alone
        ),
    ),
    entry(
        "forall",
        (LIST, function("f", ELEMENT, sample="lambda x: F.isnotnull(x)")),
        _boolean,
        "Whether ``f(x)`` holds for every element (NULL when none is false and ``f`` is NULL for one).",
        "higher-order",
        nullable=_null_if_list_or_body,
        check=_predicate,
        samples=(
            ((dt.List(dt.Int64(), True), True), LambdaSample("lambda x: x > 0")),
            (dt.List(dt.Int64(), True), LambdaSample("lambda x: x > 0")),  # NULL from the predicate alone
        ),
    ),
    entry(
        "aggregate",
        _AGGREGATE_PARAMS,
        _aggregated,
        (
            "Folds the list: ``merge(acc, x)`` from ``initialValue`` over the elements in order, then ``finish(acc)`` "
            "(the accumulator itself without one). ``merge`` returns the accumulator's type."
        ),
        "higher-order",
        nullable=_aggregate_nullable,
        check=_aggregate_check,
        adopt=_settled_zero,
        aliases=("reduce",),
        samples=(
            (dt.List(dt.Int64(), True), dt.Int64(), LambdaSample("lambda acc, x: acc + F.coalesce(x, F.lit(1))")),
            (
                dt.List(dt.Int64(), False),
                (dt.Int64(), True),
                LambdaSample("lambda acc, x: acc + x"),
                LambdaSample("lambda acc: F.coalesce(acc, F.lit(-1))"),
            ),
        ),
    ),
    entry(
        "zip_with",
        (
            column("left", accepts.ARRAY),
            column("right", accepts.ARRAY),
            function("f", PAIR, sample="lambda x, y: F.array(x, y)"),
        ),
        _zipped,
        "The list of ``f(x, y)`` for the elements at each position of both lists (NULL past the shorter one's end).",
        "higher-order",
        nullable=null_if(0, 1),
        samples=(
            (
                dt.List(dt.Int64(), False),
                (dt.List(dt.Int64(), True), True),
                LambdaSample("lambda x, y: F.coalesce(x, y)"),
            ),
        ),
    ),
    entry(
        "map_filter",
        (column("col", MAP), function("f", KEY_VALUE, sample="lambda k, v: F.isnotnull(v)")),
        same(0),
        "The map's entries for which ``f(k, v)`` is true (not false nor NULL).",
        "higher-order",
        nullable=null_if(0),
        check=_predicate,
        samples=(
            ((dt.Map(dt.String(), dt.Int64(), True), True), LambdaSample("lambda k, v: (v > 0) | (F.length(k) == 0)")),
        ),
    ),
    entry(
        "map_zip_with",
        (
            column("col1", MAP),
            column("col2", MAP),
            function("f", KEY_VALUES, sample="lambda k, v1, v2: F.array(v1, v2)"),
        ),
        _zipped_maps,
        "A map of every key of either map to ``f(k, v1, v2)`` (``v1``/``v2`` NULL where the key is absent).",
        "higher-order",
        nullable=null_if(0, 1),
        samples=(
            (
                dt.Map(dt.String(), dt.Int64(), True),
                (dt.Map(dt.String(), dt.Int64(), True), True),
                LambdaSample("lambda k, v1, v2: F.coalesce(v1, v2)"),
            ),
        ),
    ),
    entry(
        "transform_keys",
        (column("col", MAP), function("f", KEY_VALUE, sample="lambda k, v: F.concat(k, F.lit('!'))")),
        _new_keys,
        "The map with each key replaced by ``f(k, v)`` (a string, never NULL; the new keys must differ).",
        "higher-order",
        nullable=null_if(0),
        check=_keys_check,
    ),
    entry(
        "transform_values",
        (column("col", MAP), function("f", KEY_VALUE, sample="lambda k, v: F.when(F.length(k) > 0, v)")),
        _new_values,
        "The map with each value replaced by ``f(k, v)``.",
        "higher-order",
        nullable=null_if(0),
        samples=(
            ((dt.Map(dt.String(), dt.Int64(), True), True), LambdaSample("lambda k, v: F.coalesce(v, F.length(k))")),
        ),
    ),
)
