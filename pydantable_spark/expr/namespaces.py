"""The ``.str``, ``.dt``, ``.list``, ``.map`` and ``.struct`` namespaces of an expression.

Their methods come from the catalog (``catalog.METHODS``): ``x.str.upper()``
is the entry whose ``methods`` name ``"str.upper"``, called with ``x`` first.
A ``str`` argument of a method is a value (``x.str.contains("a")``), where an
``F`` function would read a column name, as PySpark does. Type checkers read
the generated ``namespaces.pyi``.

```pycon
>>> from pydantable_spark import F
>>> F.col("name").str.upper()
Expr[?](upper(name))
>>> F.col("tags").list.contains("x")
Expr[?](array_contains(tags, 'x'))

```
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantable_spark.expr.binding import call
from pydantable_spark.expr.catalog import METHODS

if TYPE_CHECKING:
    from collections.abc import Callable

    from pydantable_spark.expr.api import Expr
    from pydantable_spark.expr.catalog.spec import Function

__all__ = ["DateTimeNamespace", "ListNamespace", "MapNamespace", "StringNamespace", "StructNamespace"]

T_co = TypeVar("T_co", covariant=True)
N_co = TypeVar("N_co", covariant=True)


class _Namespace(Generic[T_co, N_co]):
    """Methods over one expression; ``T_co`` is its value type, ``N_co`` its ``None`` if nullable (else ``Never``)."""

    __slots__ = ("_expr",)

    def __init__(self, expr: Expr[Any]) -> None:
        self._expr = expr


class StringNamespace(_Namespace[T_co, N_co]):
    """String functions, reached as ``expr.str`` (string columns)."""

    __slots__ = ()


class DateTimeNamespace(_Namespace[T_co, N_co]):
    """Date and time functions, reached as ``expr.dt`` (date and datetime columns)."""

    __slots__ = ()


class ListNamespace(_Namespace[T_co, N_co]):
    """List functions, reached as ``expr.list``."""

    __slots__ = ()


class MapNamespace(_Namespace[T_co, N_co]):
    """Map functions, reached as ``expr.map``."""

    __slots__ = ()


class StructNamespace(_Namespace[T_co, N_co]):
    """Struct functions, reached as ``expr.struct``."""

    __slots__ = ()


NAMESPACES: dict[str, type[_Namespace[Any, Any]]] = {
    "str": StringNamespace,
    "dt": DateTimeNamespace,
    "list": ListNamespace,
    "map": MapNamespace,
    "struct": StructNamespace,
}


def method_signature(function: Function) -> inspect.Signature:
    """The Python signature of a namespace method: the entry's parameters after the first."""
    from pydantable_spark.expr.catalog.signatures import signature

    full = signature(function)
    parameters = list(full.parameters.values())[1:]
    self = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return full.replace(parameters=[self, *parameters])


def _method(function: Function, qualified: str) -> Callable[..., Expr[Any]]:
    def method(self: _Namespace[Any, Any], *args: object, **kwargs: object) -> Expr[Any]:
        return self._expr._derived(call(function, [self._expr, *args], kwargs, names=False, method=qualified))

    method.__name__ = method.__qualname__ = qualified.split(".", 1)[1]
    method.__doc__ = function.docs.summary
    method.__signature__ = method_signature(function)  # type: ignore[attr-defined]
    return method


for _qualified, _function in METHODS.items():
    _prefix, _name = _qualified.split(".", 1)
    setattr(NAMESPACES[_prefix], _name, _method(_function, _qualified))
