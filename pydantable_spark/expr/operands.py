"""Type variables for the operands of expression signatures, read by type checkers without the plugin.

Operators and expression methods are typed with one signature each, never with
``@overload``: the mypy plugin's hooks report errors while mypy tries overload
items, and mypy then discards every item. One signature whose type variables
each match one kind of operand still gives a checker without the plugin a
precise result: in ``def __add__(self, other: Expr[ExprT] | ScalarT) ->
Expr[T_co | ExprT | ScalarT]`` an expression operand solves ``ExprT`` and a
Python value ``ScalarT``; the other one stays unsolved and takes its default,
``Never``, which vanishes from the union (``Col[int | None] + 1`` is
``Expr[int | None]``). The bounds keep the two apart, so mypy can infer them.
"""

from __future__ import annotations

import datetime
import decimal
from collections.abc import Collection, Mapping
from typing import Any, TypeAlias, Union

from pydantic import BaseModel
from typing_extensions import Never, TypeVar

__all__ = [
    "CastT",
    "DateT",
    "ExprT",
    "ListT",
    "MapT",
    "NoneT",
    "Scalar",
    "ScalarT",
    "StrT",
    "StructT",
    "TargetT",
    "ValueT",
]

Scalar: TypeAlias = Union[bool, int, float, str, bytes, decimal.Decimal, datetime.date, datetime.timedelta]  # noqa: UP007
"""The Python values a literal can be made of (a ``datetime`` is a ``date``)."""

ValueT = TypeVar("ValueT")
"""The value type of the expression a method is called on, where the method needs it unwrapped."""

ExprT = TypeVar("ExprT", default=Never)
"""The value type of an operand that is an expression (``Never`` when the operand is a Python value)."""

ScalarT = TypeVar("ScalarT", bound=Scalar, default=Never)
"""The type of an operand that is a Python value (``Never`` when the operand is an expression)."""

NoneT = TypeVar("NoneT", bound=None, default=Never)
"""``None`` when an operand may be ``None`` and is (``otherwise(None)``), else ``Never``."""

_Target: TypeAlias = Union[Scalar, list[Any], dict[Any, Any], BaseModel]  # noqa: UP007

CastT = TypeVar("CastT", bound=_Target, default=Any)
"""The Python type a ``cast`` names (``Any`` when it names a ``dtypes`` type)."""

TargetT = TypeVar("TargetT", bound=_Target, default=Never)
"""The Python type ``F.lit(..., dtype=...)`` names (``Never`` when none is named, or a ``dtypes`` type)."""

# The non-null part of the expression a namespace is reached from (``expr.str``, ...); with ``NoneT``
# taking its ``None``, the namespace knows whether the expression is nullable (``StringNamespace[str | None,
# None]``) and its methods say so (``upper()`` is ``Expr[str | N_co]``).
StrT = TypeVar("StrT", bound=str)
DateT = TypeVar("DateT", bound=datetime.date)
ListT = TypeVar("ListT", bound=Collection[Any])
MapT = TypeVar("MapT", bound=Mapping[Any, Any])
StructT = TypeVar("StructT", bound=BaseModel)
