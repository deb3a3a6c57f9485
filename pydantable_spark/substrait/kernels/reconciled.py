"""``as_model`` on the local engine: a source value conformed to its target field, as Spark's ``to()`` does.

Structs are matched by field name (ignoring case, as ``reconcile`` matched
them) and rebuilt in the target's order; lists and maps convert their
elements; atomic values convert by Spark's casts (widening ones here, the rest
by the cast kernel). With ``check``, a NULL where the target forbids one fails
with ``NullFound`` naming its path (``tags[]``, ``ship.city``), which the engine
reports as the ``NullCheckError`` Spark's run would give.

>>> from decimal import Decimal
>>> from pydantable_spark import dtypes as dt
>>> from pydantable_spark.substrait.kernels.spec import Session
>>> ship = dt.Struct((dt.Field("City", dt.String(), True), dt.Field("zip", dt.Int32(), True)))
>>> wanted = dt.Struct((dt.Field("zip", dt.Int64(), True), dt.Field("city", dt.String(), False)))
>>> convert = converter(dt.Field("ship", ship, True), dt.Field("ship", wanted, True), "ship", True, Session())
>>> convert({"City": "Oslo", "zip": 150})
{'zip': 150, 'city': 'Oslo'}
>>> convert({"City": None, "zip": 1})
Traceback (most recent call last):
...
pydantable_spark.substrait.kernels.reconciled.NullFound: [NULL_CHECK] column 'ship.city' holds a NULL
"""

from __future__ import annotations

import decimal
from typing import TYPE_CHECKING, Any

from pydantable_spark import dtypes as dt
from pydantable_spark.expr.core import Typed
from pydantable_spark.reconcile import matched_fields
from pydantable_spark.substrait.kernels import casts
from pydantable_spark.substrait.kernels.numbers import fit_decimal
from pydantable_spark.substrait.kernels.spec import NOT_LITERAL, Scalar, Site, SparkError

if TYPE_CHECKING:
    from collections.abc import Callable

    from pydantable_spark.substrait.kernels.spec import Session

__all__ = ["NullFound", "checked", "converter", "reconciling", "refusal"]


class NullFound(SparkError):
    """A NULL where a checked target forbids one; ``path`` names the value as ``NullCheckError`` does."""

    def __init__(self, path: str) -> None:
        super().__init__("NULL_CHECK", f"column {path!r} holds a NULL")
        self.path = path


def _widening(source: dt.DType, target: dt.DType) -> Callable[[Any], Any] | None:
    """The conversions that keep every value (no cast kernel needed), or None."""
    if source == target:
        return lambda v: v
    if isinstance(source, dt.Integral) and isinstance(target, dt.Integral):
        return lambda v: v  # reconcile admits narrowing only where Spark checks it: the cast kernel's job
    if isinstance(source, dt.Integral | dt.Float32) and isinstance(target, dt.Float64):
        return float
    if isinstance(source, dt.Integral | dt.Decimal) and isinstance(target, dt.Decimal):
        return lambda v: fit_decimal(decimal.Decimal(v), target)
    return None


def _atomic(source: dt.DType, target: dt.DType, session: Session) -> Callable[[Any], Any]:
    widening = _widening(source, target)
    narrowing = isinstance(source, dt.Integral) and isinstance(target, dt.Integral) and _bits(target) < _bits(source)
    if widening is not None and not narrowing:
        return widening
    site = Site((Typed(source, True),), Typed(target, True), (NOT_LITERAL,), session)
    return casts.CAST.make(site)


_BITS: dict[type[dt.DType], int] = {dt.Int8: 8, dt.Int16: 16, dt.Int32: 32}


def _bits(dtype: dt.DType) -> int:
    return _BITS.get(type(dtype), 64)


def refusal(source: dt.DType, target: dt.DType) -> str | None:
    """Why the local engine cannot conform ``source`` to ``target`` (a leaf cast the cast kernel lacks), or None."""
    if isinstance(source, dt.Struct) and isinstance(target, dt.Struct):
        reasons = (refusal(found.dtype, wanted.dtype) for wanted, found in matched_fields(source, target))
        return next((r for r in reasons if r), None)
    if isinstance(source, dt.List) and isinstance(target, dt.List):
        return refusal(source.inner, target.inner)
    if isinstance(source, dt.Map) and isinstance(target, dt.Map):
        return refusal(source.key, target.key) or refusal(source.value, target.value)
    narrowing = isinstance(source, dt.Integral) and isinstance(target, dt.Integral) and _bits(target) < _bits(source)
    if _widening(source, target) is not None and not narrowing:
        return None
    return casts.refusal(source, target)


def converter(source: dt.Field, target: dt.Field, path: str, check: bool, session: Session) -> Callable[[Any], Any]:
    """The function conforming a value of ``source`` to ``target`` (NULLs checked where ``check`` asks)."""
    inner = _inside(source.dtype, target.dtype, path, check, session)
    if check and source.nullable and not target.nullable:

        def checked_value(value: Any) -> Any:
            if value is None:
                raise NullFound(path)
            return inner(value)

        return checked_value
    return lambda value: None if value is None else inner(value)


def _inside(source: dt.DType, target: dt.DType, path: str, check: bool, session: Session) -> Callable[[Any], Any]:
    if isinstance(source, dt.Struct) and isinstance(target, dt.Struct):
        parts = [
            (wanted.name, found.name, converter(found, wanted, f"{path}.{wanted.name}", check, session))
            for wanted, found in matched_fields(source, target)
        ]
        return lambda value: {name: convert(value.get(given)) for name, given, convert in parts}
    if isinstance(source, dt.List) and isinstance(target, dt.List):
        element = converter(
            dt.Field("", source.inner, source.contains_null),
            dt.Field("", target.inner, target.contains_null),
            f"{path}[]",
            check,
            session,
        )
        return lambda value: [element(v) for v in value]
    if isinstance(source, dt.Map) and isinstance(target, dt.Map):
        key = _atomic(source.key, target.key, session)
        entry = converter(
            dt.Field("", source.value, source.value_contains_null),
            dt.Field("", target.value, target.value_contains_null),
            f"{path}{{value}}",
            check,
            session,
        )
        return lambda value: [(key(k), entry(v)) for k, v in value]
    return _atomic(source, target, session)


def reconciling(source: dt.Field, target: dt.Field, path: str, check: bool) -> Scalar:
    """The kernel conforming one column: ``source`` to ``target``, checking NULLs where ``check`` asks."""
    return Scalar("reconcile", lambda site: converter(source, target, path, check, site.session), strict=False)


def checked(target: dt.Field, path: str) -> Scalar:
    """The kernel of a pending top-level NULL check: the value itself, or ``NullFound`` for a NULL."""

    def make(site: Site) -> Callable[[Any], Any]:
        def run(value: Any) -> Any:
            if value is None:
                raise NullFound(path)
            return value

        return run

    return Scalar("null_check", make, strict=False)
