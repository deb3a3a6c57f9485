"""Kernels of the catalog's conditional and NULL functions (see ``spec`` for what a kernel is).

``nvl``/``nvl2`` receive their values already in the type they meet in;
``nullif`` and ``equal_null`` compare as Spark's ``=`` does, in the type both
sides convert to (an ``int`` next to a ``double`` as a double; NaN equal to NaN,
``-0.0`` to ``0.0``); ``typeof`` is Spark's ``catalogString`` of the type.

>>> type_name(dt.Map(dt.String(), dt.List(dt.Decimal(10, 2), True), True))
'map<string,array<decimal(10,2)>>'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantable_spark import dtypes as dt
from pydantable_spark.expr.call import call_types
from pydantable_spark.substrait.kernels.elements import converter, convertible, equal
from pydantable_spark.substrait.kernels.spec import Scalar, rows
from pydantable_spark.typerules import supertype

if TYPE_CHECKING:
    from collections.abc import Callable

    from pydantable_spark.expr.call import Call
    from pydantable_spark.substrait.kernels.spec import Site

__all__ = ["KERNELS", "type_name"]


def type_name(dtype: dt.DType) -> str:
    """Spark's ``catalogString`` of a type (what ``typeof`` gives)."""
    if isinstance(dtype, dt.List):
        return f"array<{type_name(dtype.inner)}>"
    if isinstance(dtype, dt.Map):
        return f"map<{type_name(dtype.key)},{type_name(dtype.value)}>"
    if isinstance(dtype, dt.Struct):
        return "struct<" + ",".join(f"{f.name}:{type_name(f.dtype)}" for f in dtype.fields) + ">"
    return str(dtype)


def _compared_in(left: dt.DType, right: dt.DType) -> dt.DType | None:
    """The type Spark's ``=`` compares ``left`` and ``right`` in (None: the kernel does not compare them)."""
    if dt.without_nullability(left) == dt.without_nullability(right):
        return left
    target = supertype(left, right)
    if target is None or not (convertible(left, target) and convertible(right, target)):
        return None
    return target


def _refuse_comparison(call: Call) -> str | None:
    left, right = (t.dtype for t in call_types(call.function, call.args, call.method))
    if _compared_in(left, right) is None:
        return f"the local engine does not compare {left} with {right} as Spark's = does yet ({call.function.name}())"
    return None


def _equality(site: Site) -> Callable[[Any, Any], bool]:
    """``a = b`` for non-NULL values, each converted to the type they are compared in."""
    left, right = site.args[0].dtype, site.args[1].dtype
    target = _compared_in(left, right)
    assert target is not None
    if target is left and left == right:
        return equal
    zone = site.session.tzinfo
    first, second = converter(left, target, zone), converter(right, target, zone)
    return lambda a, b: equal(first(a), second(b))


def _nullif(site: Site) -> Callable[[Any, Any], Any]:
    same = _equality(site)
    return lambda a, b: None if a is not None and b is not None and same(a, b) else a


def _equal_null(site: Site) -> Callable[[Any, Any], bool]:
    same = _equality(site)
    return lambda a, b: (a is None and b is None) if a is None or b is None else same(a, b)


def _zero_if_null(site: Site) -> Callable[[Any], Any]:
    result = site.result.dtype
    zero = converter(dt.Int32(), result, site.session.tzinfo)(0)
    widen = converter(site.args[0].dtype, result, site.session.tzinfo)
    return lambda value: zero if value is None else widen(value)


def _refuse_zero_if_null(call: Call) -> str | None:
    given, result = call.args[0].type.dtype, call.type.dtype
    if convertible(given, result) and convertible(dt.Int32(), result):
        return None
    return f"the local engine does not convert {given} to {result} as Spark does yet (zeroifnull())"


def _type_of(site: Site) -> Callable[[Any], str]:
    name = type_name(site.args[0].dtype)
    return lambda _: name


KERNELS: tuple[Scalar, ...] = (
    Scalar("nvl", rows(lambda a, b: b if a is None else a), strict=False),
    Scalar("nvl2", rows(lambda a, b, c: c if a is None else b), strict=False),
    Scalar("nullif", _nullif, strict=False, refuse=_refuse_comparison),
    Scalar("nullifzero", rows(lambda value: None if value == 0 else value)),
    Scalar("zeroifnull", _zero_if_null, strict=False, refuse=_refuse_zero_if_null),
    Scalar("equal_null", _equal_null, strict=False, refuse=_refuse_comparison),
    Scalar("isnull", rows(lambda value: value is None), strict=False),
    Scalar("isnotnull", rows(lambda value: value is not None), strict=False),
    Scalar("typeof", _type_of, strict=False),
)
"""The conditional kernels, by catalog entry name."""
