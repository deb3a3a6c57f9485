"""Kernels of the catalog's list, map and struct functions (see ``spec`` for what a kernel is).

Values arrive as Python values: a list as a ``list``, a struct as a ``dict``
of its fields in order, a map as a list of ``(key, value)`` pairs; results are
built in the same shapes. How elements compare, order and convert is
``elements``'s (one rule for every function here). Measured on Spark 4.3 and
reproduced:

- positions: ``element_at`` fails past either end (``INVALID_ARRAY_INDEX_IN_ELEMENT_AT``),
  ``try_element_at`` gives NULL there, and both fail on position 0
  (``INVALID_INDEX_OF_ZERO``); ``get`` is 0-based and NULL out of range;
- ``array_insert`` pads with NULLs past either end (``array_insert([1,2,3], -5, 9)``
  is ``[9, NULL, 1, 2, 3]``);
- sorts are stable with ``-0.0`` level with ``0.0``, NaN largest; NULLs first
  ascending, last descending (``array_sort``: last). ``sort_array`` of a float
  list that holds no NULL, ascending, is refused: Spark's order of ``-0.0`` and
  ``0.0`` there depends on the plan (Java's primitive sort in generated code);
- the set functions give one NULL and one NaN at most, ``-0.0`` as ``0.0``;
- a map may not repeat a key (``DUPLICATED_MAP_KEY``, Spark's default
  ``spark.sql.mapKeyDedupPolicy=EXCEPTION``).

>>> inserted([1, 2, 3], -5, 9)
[9, None, 1, 2, 3]
>>> sorted_list([0.0, None, -0.0, float("nan"), -1.0], ascending=True)
[None, -1.0, 0.0, -0.0, nan]
"""

from __future__ import annotations

import datetime
import re
from typing import TYPE_CHECKING, Any

from pydantable_spark import dtypes as dt
from pydantable_spark.expr.call import call_types
from pydantable_spark.expr.core import Literal
from pydantable_spark.substrait.kernels.elements import (
    MAX_ARRAY_LENGTH,
    MICROS_PER_DAY,
    converter,
    convertible,
    equal,
    instant_offset,
    micros,
    moment,
    normalized,
    order_key,
    resolved,
)
from pydantable_spark.substrait.kernels.spec import ARITHMETIC_OVERFLOW, Scalar, SparkError, rows
from pydantable_spark.typerules import tightest

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from pydantable_spark.expr.call import Call
    from pydantable_spark.substrait.kernels.spec import Site

__all__ = ["KERNELS", "inserted", "sorted_list"]

INDEX_OF_ZERO = "INVALID_INDEX_OF_ZERO"
INDEX_IN_ELEMENT_AT = "INVALID_ARRAY_INDEX_IN_ELEMENT_AT"
DUPLICATED_MAP_KEY = "DUPLICATED_MAP_KEY"
INVALID_START = "INVALID_PARAMETER_VALUE.START"
INVALID_LENGTH = "INVALID_PARAMETER_VALUE.LENGTH"
TOO_MANY_ELEMENTS = "COLLECTION_SIZE_LIMIT_EXCEEDED.PARAMETER"
TOO_MANY_ARRAYS = "COLLECTION_SIZE_LIMIT_EXCEEDED.FUNCTION"
ILLEGAL_ARGUMENT = "IllegalArgumentException"
"""Not an error class: Spark fails with no class there (a Java ``IllegalArgumentException``, ``require``)."""
_INT_MAX = 2**31 - 1


def _zero_index() -> SparkError:
    return SparkError(
        INDEX_OF_ZERO,
        "The index 0 is invalid. An index shall be either < 0 or > 0 (the first element has index 1).",
    )


def _dtype(site: Site, index: int) -> dt.DType:
    return site.args[index].dtype


def _inner(dtype: dt.DType) -> dt.DType:
    assert isinstance(dtype, dt.List)
    return dtype.inner


def _received(call: Call) -> tuple[dt.DType, ...]:
    return tuple(t.dtype for t in call_types(call.function, call.args, call.method))


def _refuse_conversions(pairs: Callable[[Call], Iterable[tuple[dt.DType, dt.DType]]]) -> Callable[[Call], str | None]:
    """A ``refuse`` naming the first conversion of values (``pairs(call)``: source and target) not matched exactly."""

    def refuse(call: Call) -> str | None:
        for source, target in pairs(call):
            if not convertible(source, target):
                return (
                    f"the local engine does not convert {source} values to {target} as Spark does yet "
                    f"({call.function.name}() meets them in {target})"
                )
        return None

    return refuse


def _each_to(target: Callable[[Call], dt.DType], *indexes: int) -> Callable[[Call], str | None]:
    """Refuse where argument ``indexes`` (all when empty) cannot be converted to ``target(call)``."""

    def pairs(call: Call) -> Iterable[tuple[dt.DType, dt.DType]]:
        types = _received(call)
        wanted = target(call)
        return [(types[i], wanted) for i in (indexes or range(len(types)))]

    return _refuse_conversions(pairs)


def _result_inner(call: Call) -> dt.DType:
    return _inner(call.type.dtype)


def _lists_to_result(call: Call) -> Iterable[tuple[dt.DType, dt.DType]]:
    """Every list argument's elements to the result's element type."""
    target = _result_inner(call)
    return [(_inner(t), target) for t in _received(call)]


def _met(site_or_types: Sequence[dt.DType]) -> dt.DType:
    """The tightest type two element types meet in (the catalog refused the call where there is none)."""
    found = tightest(site_or_types[0], site_or_types[1])
    assert found is not None
    return found


def _element_and_value(call: Call) -> Iterable[tuple[dt.DType, dt.DType]]:
    types = _received(call)
    target = _met((_inner(types[0]), types[1]))
    return [(_inner(types[0]), target), (types[1], target)]


def _lists_met(call: Call) -> Iterable[tuple[dt.DType, dt.DType]]:
    types = _received(call)
    target = _met((_inner(types[0]), _inner(types[1])))
    return [(_inner(types[0]), target), (_inner(types[1]), target)]


def _inserted_pairs(call: Call) -> Iterable[tuple[dt.DType, dt.DType]]:
    types, target = _received(call), _result_inner(call)
    return [(_inner(types[0]), target), (types[2], target)]


def _convert(site: Site, source: dt.DType, target: dt.DType) -> Callable[[Any], Any]:
    return converter(source, target, site.session.tzinfo)


def _convert_list(site: Site, source: dt.DType, target: dt.DType) -> Callable[[list[Any]], list[Any]]:
    one = _convert(site, source, target)
    return lambda values: [None if v is None else one(v) for v in values]


# --- sizes and positions ---------------------------------------------------------------------------


def _at(values: list[Any], position: int) -> Any:
    """``element_at``'s 1-based position (negative: from the end), failing past either end (ANSI)."""
    if len(values) < abs(position):
        msg = (
            f"The index {position} is out of bounds. The array has {len(values)} elements. Use `try_element_at` to "
            "tolerate accessing element at invalid index and return NULL instead."
        )
        raise SparkError(INDEX_IN_ELEMENT_AT, msg)
    if position == 0:
        raise _zero_index()
    return values[position - 1 if position > 0 else position]


def _try_at(values: list[Any], position: int) -> Any:
    """``try_element_at``: NULL past either end; position 0 still fails (measured)."""
    if len(values) < abs(position):
        return None
    return _at(values, position)


def _map_value(pairs: list[tuple[Any, Any]], key: Any) -> Any:
    for k, v in pairs:
        if equal(k, key):
            return v
    return None


def _lookup(at: Callable[[list[Any], int], Any]) -> Callable[[Site], Callable[[Any, Any], Any]]:
    def make(site: Site) -> Callable[[Any, Any], Any]:
        return at if isinstance(_dtype(site, 0), dt.List) else _map_value

    return make


def _get(values: list[Any], index: int) -> Any:
    """``get``: 0-based; NULL out of range, negative indexes too."""
    return values[index] if 0 <= index < len(values) else None


def _list_get(values: list[Any], index: int) -> Any:
    """``list.get`` is ``try_element_at(list, index + 1)`` for ``index >= 0`` (``index`` as it is otherwise)."""
    if index == _INT_MAX:
        raise SparkError(ARITHMETIC_OVERFLOW, "integer overflow: 2147483647 + 1 caused overflow")
    return _try_at(values, index + 1 if index >= 0 else index)


# --- lookups -------------------------------------------------------------------------------------------


def _contains(site: Site) -> Callable[[list[Any], Any], bool | None]:
    """``array_contains``: NULL when not found and the list holds a NULL."""
    elements, given = _inner(_dtype(site, 0)), _dtype(site, 1)
    target = _met((elements, given))
    each, value_of = _convert_list(site, elements, target), _convert(site, given, target)

    def run(values: list[Any], value: Any) -> bool | None:
        wanted = value_of(value)
        holds_null = False
        for element in each(values):
            if element is None:
                holds_null = True
            elif equal(element, wanted):
                return True
        return None if holds_null else False

    return run


def _position(site: Site) -> Callable[[list[Any], Any], int]:
    elements, given = _inner(_dtype(site, 0)), _dtype(site, 1)
    target = _met((elements, given))
    each, value_of = _convert_list(site, elements, target), _convert(site, given, target)

    def run(values: list[Any], value: Any) -> int:
        wanted = value_of(value)
        return next((i + 1 for i, v in enumerate(each(values)) if v is not None and equal(v, wanted)), 0)

    return run


def _overlap(site: Site) -> Callable[[list[Any], list[Any]], bool | None]:
    """``arrays_overlap``: false when either list is empty; NULL when nothing is shared and a NULL was seen."""
    left, right = _inner(_dtype(site, 0)), _inner(_dtype(site, 1))
    target = _met((left, right))
    first, second = _convert_list(site, left, target), _convert_list(site, right, target)

    def run(a: list[Any], b: list[Any]) -> bool | None:
        if not a or not b:
            return False
        a, b = first(a), second(b)
        if any(x is not None and any(y is not None and equal(x, y) for y in b) for x in a):
            return True
        return None if None in a or None in b else False

    return run


def _extreme(largest: bool) -> Callable[[list[Any]], Any]:
    """``array_max``/``array_min``: NULLs skipped, NaN largest, the first of equal values kept."""

    def run(values: list[Any]) -> Any:
        found: Any = None
        for value in values:
            if value is None:
                continue
            beyond = found is not None and (
                order_key(value) > order_key(found) if largest else order_key(value) < order_key(found)
            )
            if found is None or beyond:
                found = value
        return found

    return run


def _sql_or(a: bool | None, b: bool | None) -> bool | None:
    if a or b:
        return True
    return None if a is None or b is None else False


def _contains_all(site: Site) -> Callable[[list[Any], list[Any]], bool | None]:
    """``list.contains_all``: the values the list lacks: none (true), or some and the list holds NULLs (NULL)."""
    elements, wanted = _inner(_dtype(site, 0)), _inner(_dtype(site, 1))
    target = _met((elements, wanted))
    listed, values = _convert_list(site, elements, target), _convert_list(site, wanted, target)

    def run(given: list[Any], looked_for: list[Any]) -> bool | None:
        held = listed(given)
        lacking = [v for v in _distinct(values(looked_for)) if not _in(v, _distinct(held))]
        if not lacking:
            return True
        if not held:
            return False
        return None if None in held or None in lacking else False

    return run


# --- building lists -------------------------------------------------------------------------------------


def _array(site: Site) -> Callable[..., list[Any]]:
    target = _inner(site.result.dtype)
    each = [_convert(site, t.dtype, target) for t in site.args]
    return lambda *values: [None if v is None else f(v) for f, v in zip(each, values, strict=True)]


def _repeat(value: Any, count: int | None) -> list[Any] | None:
    if count is None:
        return None
    if count > MAX_ARRAY_LENGTH:  # (Spark's generated code fails with another message, no class: measured)
        raise _too_many(count, "array_repeat")
    return [value] * max(count, 0)


def _added(at_end: bool) -> Callable[[Site], Callable[[Any, Any], list[Any] | None]]:
    """``array_append``/``array_prepend``: NULL for a NULL list; a NULL value is added."""

    def make(site: Site) -> Callable[[Any, Any], list[Any] | None]:
        target = _inner(site.result.dtype)
        each, value_of = _convert_list(site, _inner(_dtype(site, 0)), target), _convert(site, _dtype(site, 1), target)

        def run(values: list[Any] | None, value: Any) -> list[Any] | None:
            if values is None:
                return None
            item = None if value is None else value_of(value)
            return [*each(values), item] if at_end else [item, *each(values)]

        return run

    return make


def inserted(values: list[Any], position: int, value: Any) -> list[Any]:
    """``array_insert`` at 1-based ``position`` (negative: from the end, -1 appends), padding with NULLs past an end."""
    size = len(values)
    if position == 0:
        raise _zero_index()
    if position > 0:
        if position <= size + 1:
            return [*values[: position - 1], value, *values[position - 1 :]]
        if position > MAX_ARRAY_LENGTH:
            raise _too_many(position, "array_insert")
        return [*values, *[None] * (position - size - 1), value]
    if -position <= size + 1:
        index = size + 1 + position
        return [*values[:index], value, *values[index:]]
    if -position > MAX_ARRAY_LENGTH:
        msg = (
            f"Can't create array with {-position} elements which exceeding the array size limit {MAX_ARRAY_LENGTH}, "
            "unsuccessful try to create arrays in the function `array_insert`."
        )
        raise SparkError(TOO_MANY_ARRAYS, msg)
    return [value, *[None] * (-position - size - 1), *values]


def _insert(site: Site) -> Callable[[Any, Any, Any], list[Any] | None]:
    target = _inner(site.result.dtype)
    each, value_of = _convert_list(site, _inner(_dtype(site, 0)), target), _convert(site, _dtype(site, 2), target)

    def run(values: list[Any] | None, position: int | None, value: Any) -> list[Any] | None:
        if values is None or position is None:
            return None
        return inserted(each(values), position, None if value is None else value_of(value))

    return run


def _remove(site: Site) -> Callable[[list[Any], Any], list[Any]]:
    """``array_remove``: every element equal to the value goes; NULLs stay (no ``-0.0`` normalized)."""
    target = _inner(site.result.dtype)
    each, value_of = _convert_list(site, _inner(_dtype(site, 0)), target), _convert(site, _dtype(site, 1), target)

    def run(values: list[Any], value: Any) -> list[Any]:
        wanted = value_of(value)
        return [v for v in each(values) if v is None or not equal(v, wanted)]

    return run


def _slice(values: list[Any], start: int, length: int) -> list[Any]:
    """``slice``: 1-based ``start`` (negative: from the end); errors for a 0 start or a negative length."""
    if start == 0:
        msg = (
            "The value of parameter(s) `start` in `slice` is invalid: Expects a positive or a negative value for "
            "`start`, but got 0."
        )
        raise SparkError(INVALID_START, msg)
    begin = start + len(values) if start < 0 else start - 1
    if length < 0:
        msg = (
            "The value of parameter(s) `length` in `slice` is invalid: Expects `length` greater than or equal to 0, "
            f"but got {length}."
        )
        raise SparkError(INVALID_LENGTH, msg)
    if begin < 0 or begin >= len(values):
        return []
    return values[begin : begin + length]


def _list_slice(values: list[Any], offset: int, length: int = _INT_MAX) -> list[Any]:
    """``list.slice``: ``slice(list, offset + 1, length)`` for ``offset >= 0`` (``offset`` as it is otherwise)."""
    return _slice(values, offset + 1 if offset >= 0 else offset, length)


def _concat(site: Site) -> Callable[..., list[Any]]:
    target = _inner(site.result.dtype)
    each = [_convert_list(site, _inner(t.dtype), target) for t in site.args]
    return lambda *lists: [v for f, values in zip(each, lists, strict=True) for v in f(values)]


def _flatten(lists: list[list[Any] | None]) -> list[Any] | None:
    if any(part is None for part in lists):
        return None
    return [v for part in lists for v in part]  # type: ignore[union-attr]


# --- sorting ---------------------------------------------------------------------------------------------


def sorted_list(values: list[Any], *, ascending: bool, nulls_first: bool | None = None) -> list[Any]:
    """``values`` sorted as Spark sorts list elements (``sort_array``, ``array_sort``).

    Stably, ``-0.0`` level with ``0.0``, NaN largest; NULLs first ascending and last descending, unless
    ``nulls_first`` says.
    """
    present = [v for v in values if v is not None]
    nulls = [None] * (len(values) - len(present))
    ordered = sorted(present, key=order_key, reverse=not ascending)
    first = ascending if nulls_first is None else nulls_first
    return [*nulls, *ordered] if first else [*ordered, *nulls]


def _primitive_sort(call: Call, ascending: bool) -> str | None:
    """Where Spark's order depends on the plan: a float list without NULLs, sorted ascending by ``sort_array``.

    Spark sorts it with Java's ``Arrays.sort(double[])`` in generated code (``-0.0`` before ``0.0``) and with
    its stable comparator where it evaluates the projection itself, as over in-memory rows (``-0.0`` level
    with ``0.0``); both measured.
    """
    listed = call.args[0].type.dtype
    if ascending and isinstance(listed, dt.List) and isinstance(listed.inner, dt.Floating) and not listed.contains_null:
        return (
            f"the local engine does not sort a list of {listed.inner} without NULLs ascending "
            f"({call.function.name}()): Spark orders -0.0 and 0.0 in it by the shape of the plan (Java's primitive "
            "sort in generated code, its stable comparator over in-memory rows; measured)"
        )
    return None


def _refuse_sort_array(call: Call) -> str | None:
    ascending = len(call.args) < 2 or getattr(call.args[1], "value", True) is not False
    return _primitive_sort(call, ascending)


def _refuse_list_sort(call: Call) -> str | None:
    descending = len(call.args) > 1 and getattr(call.args[1], "value", False) is True
    return _primitive_sort(call, not descending)


# --- sets of elements --------------------------------------------------------------------------------------


def _distinct(values: Iterable[Any], kept: list[Any] | None = None) -> list[Any]:
    """The values, normalized, the first of each set of equal ones kept (one NULL at most)."""
    found: list[Any] = [] if kept is None else kept
    for value in values:
        item = None if value is None else normalized(value)
        if not any(_same_element(item, seen) for seen in found):
            found.append(item)
    return found


def _same_element(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return equal(a, b)


def _in(value: Any, values: Sequence[Any]) -> bool:
    return any(_same_element(value, other) for other in values)


def _pair(site: Site) -> tuple[Callable[[list[Any]], list[Any]], Callable[[list[Any]], list[Any]]]:
    target = _inner(site.result.dtype)
    return (
        _convert_list(site, _inner(_dtype(site, 0)), target),
        _convert_list(site, _inner(_dtype(site, 1)), target),
    )


def _union(site: Site) -> Callable[[list[Any], list[Any]], list[Any]]:
    first, second = _pair(site)
    return lambda a, b: _distinct([*first(a), *second(b)])


def _intersect(site: Site) -> Callable[[list[Any], list[Any]], list[Any]]:
    """``array_intersect``: empty when either list is; NULL in it when both hold one."""
    first, second = _pair(site)

    def run(a: list[Any], b: list[Any]) -> list[Any]:
        if not a or not b:
            return []
        others = _distinct(second(b))
        return [v for v in _distinct(first(a)) if _in(v, others)]

    return run


def _except(site: Site) -> Callable[[list[Any], list[Any]], list[Any]]:
    first, second = _pair(site)

    def run(a: list[Any], b: list[Any]) -> list[Any]:
        others = _distinct(second(b))
        return [v for v in _distinct(first(a)) if not _in(v, others)]

    return run


def _zip(site: Site) -> Callable[..., list[dict[str, Any]]]:
    inner = _inner(site.result.dtype)
    assert isinstance(inner, dt.Struct)
    names = [f.name for f in inner.fields]

    def run(*lists: list[Any]) -> list[dict[str, Any]]:
        longest = max((len(values) for values in lists), default=0)
        return [
            {n: values[i] if i < len(values) else None for n, values in zip(names, lists, strict=True)}
            for i in range(longest)
        ]

    return run


def _join(values: list[str | None], delimiter: str, replacement: str | None = None) -> str:
    """``array_join``: NULLs skipped, or written as ``replacement``."""
    parts = [v if v is not None else replacement for v in values if v is not None or replacement is not None]
    return delimiter.join(parts)  # type: ignore[arg-type]


# --- maps ----------------------------------------------------------------------------------------------------


def _duplicate(key: Any) -> SparkError:
    return SparkError(DUPLICATED_MAP_KEY, f"Duplicate map key {key} was found, please check the input data.")


def _map_of(pairs: Iterable[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """A map's entries, in order; a key given twice fails (``spark.sql.mapKeyDedupPolicy=EXCEPTION``)."""
    made: list[tuple[Any, Any]] = []
    for key, value in pairs:
        if any(equal(key, k) for k, _ in made):
            raise _duplicate(key)
        made.append((key, value))
    return made


def _map_value_converter(site: Site, source: dt.DType) -> Callable[[Any], Any]:
    result = site.result.dtype
    assert isinstance(result, dt.Map)
    one = _convert(site, source, result.value)
    return lambda value: None if value is None else one(value)


def _create_map(site: Site) -> Callable[..., list[tuple[Any, Any]]]:
    values = [_map_value_converter(site, t.dtype) for t in site.args[1::2]]

    def run(*items: Any) -> list[tuple[Any, Any]]:
        return _map_of(zip(items[::2], (f(v) for f, v in zip(values, items[1::2], strict=True)), strict=True))

    return run


def _from_arrays(keys: list[Any], values: list[Any]) -> list[tuple[Any, Any]]:
    if len(keys) != len(values):
        raise SparkError(ILLEGAL_ARGUMENT, "The key array and value array of MapData must have the same length.")
    return _map_of(zip(keys, values, strict=True))


def _from_entries(entries: list[dict[str, Any] | None]) -> list[tuple[Any, Any]] | None:
    if any(entry is None for entry in entries):
        return None
    return _map_of(tuple(entry.values()) for entry in entries)  # type: ignore[union-attr]


def _map_concat(site: Site) -> Callable[..., list[tuple[Any, Any]]]:
    values = []
    for typed in site.args:
        assert isinstance(typed.dtype, dt.Map)
        values.append(_map_value_converter(site, typed.dtype.value))

    def run(*maps: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
        return _map_of((k, f(v)) for f, pairs in zip(values, maps, strict=True) for k, v in pairs)

    return run


def _map_value_pairs(call: Call) -> Iterable[tuple[dt.DType, dt.DType]]:
    result = call.type.dtype
    assert isinstance(result, dt.Map)
    types = _received(call)
    if call.function.name == "create_map":
        return [(t, result.value) for t in types[1::2]]
    return [(t.value, result.value) for t in types if isinstance(t, dt.Map)]


_PLAIN_DELIMITER = re.compile(r"[^\\^$.|?*+()\[\]{}]+")
"""A delimiter ``str_to_map`` reads as a regular expression that matches only itself (no metacharacter)."""


def _refuse_str_to_map(call: Call) -> str | None:
    for given in call.args[1:]:
        value = given.value if isinstance(given, Literal) else None
        if not isinstance(value, str) or not _PLAIN_DELIMITER.fullmatch(value):
            return (
                f"the local engine splits str_to_map() text only at constant delimiters without regular-expression "
                f"metacharacters (Spark reads them as Java regular expressions); got {given}"
            )
    return None


def _str_to_map(text: str, pairs: str = ",", key_value: str = ":") -> list[tuple[str, str | None]]:
    """``str_to_map``: split at ``pairs``, then each part once at ``key_value`` (no second part: NULL)."""
    found = []
    for part in text.split(pairs):
        key, sep, value = part.partition(key_value)
        found.append((key, value if sep else None))
    return _map_of(found)


# --- structs -------------------------------------------------------------------------------------------------


def _struct(site: Site) -> Callable[..., dict[str, Any]]:
    result = site.result.dtype
    assert isinstance(result, dt.Struct)
    names = [f.name for f in result.fields]
    return lambda *values: dict(zip(names, values, strict=True))


def _named_struct(site: Site) -> Callable[..., dict[str, Any]]:
    result = site.result.dtype
    assert isinstance(result, dt.Struct)
    names = [f.name for f in result.fields]
    return lambda *items: dict(zip(names, items[1::2], strict=True))


def _field(site: Site) -> Callable[[dict[str, Any], str], Any]:
    name = site.literals[1]
    return lambda row, _: row[name]


# --- sequences ---------------------------------------------------------------------------------------------


def _wrap(value: int, bits: int) -> int:
    """``value`` as a signed integer of ``bits`` bits (Java's arithmetic wraps around)."""
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


_BITS = {dt.Int8: 8, dt.Int16: 16, dt.Int32: 32, dt.Int64: 64}


def _too_many(size: int, function: str) -> SparkError:
    msg = (
        f"Can't create array with {size} elements which exceeding the array size limit {MAX_ARRAY_LENGTH}, the value "
        f"of parameter(s) `count` in the function `{function}` is invalid."
    )
    return SparkError(TOO_MANY_ELEMENTS, msg)


def _length(start: int, stop: int, step: int) -> int:
    """Spark's ``getSequenceLength``: the boundaries checked against the step's sign, the length exactly."""
    if not ((step > 0 and start <= stop) or (step < 0 and start >= stop) or (step == 0 and start == stop)):
        msg = f"requirement failed: Illegal sequence boundaries: {start} to {stop} by {step}"
        raise SparkError(ILLEGAL_ARGUMENT, msg)
    size = 1 if start == stop else 1 + (stop - start) // step
    if size > MAX_ARRAY_LENGTH:
        raise _too_many(size, "sequence")
    return size


def _integers(bits: int) -> Callable[..., list[int]]:
    def run(start: int, stop: int, step: int | None = None) -> list[int]:
        if step is None:
            step = 1 if start <= stop else -1
        return [_wrap(start + step * i, bits) for i in range(_length(start, stop, step))]

    return run


_EPOCH = datetime.date(1970, 1, 1)


def _days(start: datetime.date, stop: datetime.date) -> list[datetime.date]:
    """Dates by one day (Spark's default step): the integer sequence of day numbers."""
    first, last = (start - _EPOCH).days, (stop - _EPOCH).days
    step = 1 if first <= last else -1
    return [_EPOCH + datetime.timedelta(days=n) for n in _integers(32)(first, last, step)]


def _timestamps(zone: datetime.tzinfo | None, start: Any, stop: Any) -> list[Any]:
    """Timestamps by one calendar day (Spark's default step), the day added to the wall clock in ``zone``.

    ``ZonedDateTime.plusDays`` keeps the start's offset where it is still valid (an overlap) and moves a
    time in a gap later; a ``timestamp_ntz`` (no ``zone``) adds days to its own wall clock. Descending, the loop runs
    down to ``stop - 1µs`` (Spark's ``exclusiveItem``).
    """
    first, last = (micros(v) if isinstance(v, datetime.datetime) else v for v in (start, stop))
    offset = 0 if zone is None else instant_offset(first, zone)
    sign = 1 if first <= last else -1
    found = []
    count, i = first, 0
    while (count < last + sign) != (sign < 0):
        found.append(count)
        i += 1
        wall = first + offset + i * sign * MICROS_PER_DAY
        count = wall if zone is None else resolved(wall, zone, preferred=offset)
    if zone is None:
        return [datetime.datetime(1970, 1, 1) + datetime.timedelta(microseconds=c) for c in found]
    return [moment(c) for c in found]


def _sequence(site: Site) -> Callable[..., list[Any]]:
    target = _inner(site.result.dtype)
    each = [_convert(site, t.dtype, target) for t in site.args]
    if isinstance(target, dt.Integral):
        integers = _integers(_BITS[type(target)])
        return lambda *values: integers(*(f(v) for f, v in zip(each, values, strict=True)))
    convert = each[:2]
    if isinstance(target, dt.Date):
        return lambda start, stop: _days(convert[0](start), convert[1](stop))
    zone = site.session.tzinfo if isinstance(target, dt.Datetime) else None
    return lambda start, stop: _timestamps(zone, convert[0](start), convert[1](stop))


def _refuse_sequence(call: Call) -> str | None:
    types = _received(call)
    target = _result_inner(call)
    if not isinstance(target, dt.Integral) and len(types) > 2:
        return (
            "the local engine computes sequence() of dates and datetimes only with the default step (one day); "
            f"got a step {call.args[2]}"
        )
    return _each_to(_result_inner, 0, 1)(call) if isinstance(target, dt.Temporal) else None


# --- the table ---------------------------------------------------------------------------------------------------


def _size(values: list[Any]) -> int:
    return len(values)


def _each_list_to_result(call: Call) -> str | None:
    return _refuse_conversions(_lists_to_result)(call)


KERNELS: tuple[Scalar, ...] = (
    Scalar("size", rows(_size)),
    Scalar("array_size", rows(_size)),
    Scalar("list.list_is_empty", rows(lambda values: not values)),
    Scalar("map.map_is_empty", rows(lambda pairs: not pairs)),
    Scalar("element_at", _lookup(_at)),
    Scalar("try_element_at", _lookup(_try_at)),
    Scalar("get", rows(_get)),
    Scalar("list.get", rows(_list_get)),
    Scalar("list.first", rows(lambda values: _try_at(values, 1))),
    Scalar("list.last", rows(lambda values: _try_at(values, -1))),
    Scalar("array_contains", _contains, refuse=_refuse_conversions(_element_and_value)),
    Scalar("array_position", _position, refuse=_refuse_conversions(_element_and_value)),
    Scalar("arrays_overlap", _overlap, refuse=_refuse_conversions(_lists_met)),
    Scalar("list.contains_any", _overlap, refuse=_refuse_conversions(_lists_met)),
    Scalar("list.contains_all", _contains_all, refuse=_refuse_conversions(_lists_met)),
    Scalar("map.map_has_any_key", rows(lambda pairs, keys: any(k in keys for k, _ in pairs))),
    Scalar("array_max", rows(_extreme(largest=True))),
    Scalar("array_min", rows(_extreme(largest=False))),
    Scalar("array", _array, strict=False, refuse=_each_to(_result_inner)),
    Scalar("array_repeat", rows(_repeat), strict=False),
    Scalar("sequence", _sequence, refuse=_refuse_sequence),
    Scalar("array_append", _added(at_end=True), strict=False, refuse=_refuse_conversions(_element_and_value)),
    Scalar("array_prepend", _added(at_end=False), strict=False, refuse=_refuse_conversions(_element_and_value)),
    Scalar("array_insert", _insert, strict=False, refuse=_refuse_conversions(_inserted_pairs)),
    Scalar("array_remove", _remove, refuse=_refuse_conversions(_element_and_value)),
    Scalar("array_compact", rows(lambda values: [v for v in values if v is not None])),
    Scalar("slice", rows(_slice)),
    Scalar("list.slice", rows(_list_slice)),
    Scalar("list.reverse", rows(lambda values: values[::-1])),
    Scalar("list.concat", _concat, refuse=_each_list_to_result),
    Scalar("flatten", rows(_flatten)),
    Scalar(
        "sort_array",
        rows(lambda values, ascending=True: sorted_list(values, ascending=ascending)),
        refuse=_refuse_sort_array,
    ),
    Scalar("array_sort", rows(lambda values: sorted_list(values, ascending=True, nulls_first=False))),
    Scalar(
        "list.sort",
        rows(lambda values, descending=False: sorted_list(values, ascending=not descending)),
        refuse=_refuse_list_sort,
    ),
    Scalar("array_distinct", rows(lambda values: _distinct(values))),
    Scalar("array_union", _union, refuse=_each_list_to_result),
    Scalar("array_intersect", _intersect, refuse=_each_list_to_result),
    Scalar("array_except", _except, refuse=_each_list_to_result),
    Scalar("arrays_zip", _zip),
    Scalar("array_join", rows(_join)),
    Scalar("map_keys", rows(lambda pairs: [k for k, _ in pairs])),
    Scalar("map_values", rows(lambda pairs: [v for _, v in pairs])),
    Scalar("map_entries", rows(lambda pairs: [{"key": k, "value": v} for k, v in pairs])),
    Scalar("map_contains_key", rows(lambda pairs, key: any(equal(k, key) for k, _ in pairs))),
    Scalar("create_map", _create_map, strict=False, refuse=_refuse_conversions(_map_value_pairs)),
    Scalar("map_from_arrays", rows(_from_arrays)),
    Scalar("map_from_entries", rows(_from_entries)),
    Scalar("map_concat", _map_concat, refuse=_refuse_conversions(_map_value_pairs)),
    Scalar("str_to_map", rows(_str_to_map), refuse=_refuse_str_to_map),
    Scalar("struct", _struct, strict=False),
    Scalar("named_struct", _named_struct, strict=False),
    Scalar("struct.field", _field),
)
"""The collection kernels, by catalog entry name (``shuffle`` is random: not here)."""
