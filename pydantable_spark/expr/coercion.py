"""Where values meet in one type, and how a bare Python value takes its neighbours' type: one rule set.

Every node that combines values asks here, so the rules hold everywhere alike:

* ``common_type`` / ``meeting_type``: the type several values convert to
  (Spark's supertype fold, ``typerules.supertype``).
* ``beside``: a *weak* literal (a bare Python int or float written next to
  an expression, or ``F.lit(None)`` without a type) takes the type of the
  value it is written beside: ``User.age + 1`` stays ``int32``, and ``1``
  beside a decimal is the smallest decimal holding it, as Spark types an
  integer literal in arithmetic.
* ``to_type``: the same, beside a type rather than a value (a UDF's
  parameter, a cast's target).
* ``meet``: weak literals among several values (``coalesce``'s arguments,
  ``when`` branches, a function's ``common`` parameters) take the type the
  others meet in. Nothing is adopted while one of the others is still
  untyped (a column not bound yet): binding builds the node again.
* ``exact=True``: a weak literal among a collection's elements takes the
  element type itself (a Python int next to ``list[Decimal(10, 2)]`` becomes
  that decimal, where it fits), as collection functions compare elements.
* ``list_literal``: a Python list of values (``xs.list.contains_any([1, 2])``)
  as one list literal, typed as the elements of a list it is compared with
  where every value fits them exactly, else as its values meet.

>>> from pydantable_spark.expr.core import Column, literal_of
>>> age = Column("age", Typed(dt.Int32(), True))
>>> beside(literal_of(1, weak=True), age).typed
Typed(dtype=Int32(), nullable=False)
>>> [n.typed.dtype for n in meet((literal_of(1, weak=True), literal_of(2.5)))]
[Float64(), Float64()]
"""

from __future__ import annotations

import datetime
import decimal
from typing import TYPE_CHECKING

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ColumnTypeError, shown
from pydantable_spark.expr.core import Literal, Node, Typed, describe, literal_of
from pydantable_spark.typerules import supertype

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

__all__ = [
    "beside",
    "common_type",
    "is_weak",
    "list_literal",
    "meet",
    "meeting_type",
    "string_literal_hint",
    "to_type",
]


def is_weak(node: Node) -> bool:
    """Whether ``node`` is a bare Python number that takes its context's type."""
    return isinstance(node, Literal) and node.weak


def common_type(types: Iterable[dt.DType]) -> dt.DType | None:
    """The type all of ``types`` convert to; None if two of them have none (or there are no types)."""
    result: dt.DType | None = None
    for dtype in types:
        if result is None:
            result = dtype
            continue
        merged = supertype(result, dtype)
        if merged is None:
            return None
        result = merged
    return result


def meeting_type(nodes: Sequence[Node], what: str, types: Sequence[dt.DType] | None = None) -> dt.DType:
    """The type the (typed) ``nodes`` meet in; ``ColumnTypeError`` naming the first two that do not meet.

    ``types``: the types the nodes reach their function with, where those differ from their own.
    """
    dtypes = [node.type.dtype for node in nodes] if types is None else list(types)
    result = dtypes[0]
    for node, dtype in zip(nodes[1:], dtypes[1:], strict=True):
        merged = supertype(result, dtype)
        if merged is None:
            msg = f"{what}: no common type for {describe(nodes[0])} and {describe(node)}"
            raise ColumnTypeError(msg)
        result = merged
    return result


def to_type(node: Node, target: dt.DType, *, exact: bool = False) -> Node:
    """``node`` typed for use beside a ``target`` value, if it is a literal that takes its context's type."""
    if not isinstance(node, Literal):
        return node
    if exact:
        if not node.weak:
            return node
        if isinstance(target, dt.Decimal) and type(node.value) is int:
            fits = len(str(abs(node.value))) <= target.integer_digits
            return Literal(decimal.Decimal(node.value), target) if fits else node
    return node.adopt(target)


def beside(node: Node, other: Node) -> Node:
    """``node`` given ``other``'s type when ``node`` is a weak (or untyped ``None``) literal and ``other`` is typed."""
    typed = other.typed
    if typed is None or not isinstance(node, Literal):
        return node
    return node.adopt(typed.dtype)


def meet(nodes: tuple[Node, ...], indexes: Iterable[int] | None = None, *, exact: bool = False) -> tuple[Node, ...]:
    """``nodes`` with the weak literals among ``indexes`` (all by default) typed as the others there meet.

    Unchanged when none of the others is typed, when one of them is not typed
    yet, or when they have no common type (the node's own rule reports that).
    """
    chosen = range(len(nodes)) if indexes is None else [i for i in indexes if i < len(nodes)]
    strong: list[Typed] = []
    for i in chosen:
        node = nodes[i]
        if is_weak(node) or (isinstance(node, Literal) and node.undecided):
            continue
        if node.typed is None:
            return nodes  # an unbound column: binding builds the node again
        strong.append(node.typed)
    target = common_type(t.dtype for t in strong)
    if target is None:
        return nodes
    adopted = list(nodes)
    for i in chosen:
        adopted[i] = to_type(nodes[i], target, exact=exact)
    return tuple(adopted)


def list_literal(values: Sequence[object], what: str, elements: dt.DType | None = None) -> Literal:
    """A list literal of Python ``values`` (none of them None), its elements not nullable.

    Typed ``list[elements]`` when every value is exactly a value of ``elements``
    (a bare int of an ``int32`` or decimal list, as ``exact`` adoption gives it),
    else as the values' own types meet (``[1, 2.5]`` is a list of doubles).

    >>> list_literal([1, 2], "contains_any()").dtype
    List(inner=Int64(), contains_null=False)
    >>> list_literal([1, 2], "contains_any()", dt.Int32()).dtype
    List(inner=Int32(), contains_null=False)
    >>> list_literal(["a", 1], "contains_any()")
    Traceback (most recent call last):
    ...
    pydantable_spark.errors.ColumnTypeError: contains_any(): the values ['a', 1] have no common type (string, bigint)
    """
    items = [literal_of(v, weak=True) for v in values]
    if elements is not None:
        adopted = [to_type(item, elements, exact=True) for item in items]
        if all(item.typed == Typed(elements, False) for item in adopted):
            return literal_of(tuple(values), dt.List(elements, False))
    common = common_type(item.dtype for item in items)
    if common is None:
        kinds = ", ".join(dict.fromkeys(str(item.dtype) for item in items))
        msg = f"{what}: the values {shown(list(values))} have no common type ({kinds})"
        raise ColumnTypeError(msg)
    return literal_of(tuple(values), dt.List(common, False))


def _parsed(text: str, dtype: dt.DType) -> object | None:
    """The Python value of ``dtype`` that ``text`` spells (an ISO date or time, a number), or None."""
    try:
        if isinstance(dtype, dt.Date):
            return datetime.date.fromisoformat(text.strip())
        if isinstance(dtype, dt.Datetime | dt.DatetimeNTZ):
            return datetime.datetime.fromisoformat(text.strip())
        if isinstance(dtype, dt.Integral):
            return int(text)
        if isinstance(dtype, dt.Floating):
            return float(text)
        if isinstance(dtype, dt.Decimal):
            return decimal.Decimal(text.strip())
    except (ValueError, decimal.InvalidOperation):
        return None
    return None


_KINDS: tuple[tuple[type[dt.DType], str], ...] = (
    (dt.Date, "a datetime.date"),
    (dt.Datetime, "a datetime.datetime"),
    (dt.DatetimeNTZ, "a datetime.datetime"),
    (dt.Integral, "an int"),
    (dt.Floating, "a float"),
    (dt.Decimal, "a Decimal or an int"),
    (dt.Boolean, "True or False"),
)


def string_literal_hint(left: Node, right: Node) -> str:
    """``"; pass ..."`` when one side is a string literal and the other a date, timestamp, number or boolean.

    Strings are not converted to other types (Spark would, by its own rules, or
    fail at run time): the hint names the Python value to write instead, parsed
    from the string where it spells one. ``""`` otherwise.

    >>> from pydantable_spark.expr.core import Column, literal_of
    >>> day = Column("day", Typed(dt.Date(), False))
    >>> string_literal_hint(day, literal_of("2024-03-01", weak=True))
    '; pass a datetime.date, not a string: datetime.date(2024, 3, 1)'
    >>> string_literal_hint(literal_of("March", weak=True), day)
    '; pass a datetime.date, not a string'
    """
    for text, other in ((right, left), (left, right)):
        typed = other.typed
        if not (isinstance(text, Literal) and isinstance(text.value, str) and typed is not None):
            continue
        kind = next((name for cls, name in _KINDS if isinstance(typed.dtype, cls)), None)
        if kind is None:
            return ""
        value = _parsed(text.value, typed.dtype)
        return f"; pass {kind}, not a string" + ("" if value is None else f": {value!r}")
    return ""
