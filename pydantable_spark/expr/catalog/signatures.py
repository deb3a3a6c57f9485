"""The Python signature of a catalog entry: for ``F``, the namespace methods, their stubs and the docs."""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING

from pydantable_spark.expr.catalog.spec import ABSENT, REQUIRED

if TYPE_CHECKING:
    from pydantable_spark.expr.catalog.spec import Function, Param

__all__ = ["KEYWORDS", "annotation", "signature"]

KEYWORDS = "named"
"""The name of the ``**`` parameter of an entry that takes keyword values (``Signature.keywords``)."""


def _default(param: Param) -> object:
    if param.default is REQUIRED:
        return inspect.Parameter.empty
    if param.default is ABSENT:
        return None
    return param.default


def signature(function: Function, name: str | None = None) -> inspect.Signature:
    """PySpark's parameter order and names, with the entry's defaults (``None``: Spark's own default).

    ``name`` is the ``F`` name (an alias may name the parameters otherwise).
    """
    parameters = []
    for param in function.params_as(name or function.name):
        if param.variadic:
            parameters.append(inspect.Parameter(param.name, inspect.Parameter.VAR_POSITIONAL))
        else:
            kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
            parameters.append(inspect.Parameter(param.name, kind, default=_default(param)))
    if function.signature.keywords:
        parameters.append(inspect.Parameter(KEYWORDS, inspect.Parameter.VAR_KEYWORD))
    return inspect.Signature(parameters)


_GENERIC: dict[type, str] = {list: "list[Any]", tuple: "tuple[Any, ...]", dict: "dict[str, Any]"}


def annotation(param: Param, *, method: bool = False, unpacks: bool = False) -> str:
    """The parameter's type as stub text: what a user may pass (``unpacks``: a variadic one also as one list).

    A parameter taking a function (``Param.takes``) takes one over expressions, returning an
    expression or a Python value: ``Callable[[Expr[Any]], Expr[Any] | Scalar]``; with several
    forms (``f(x)`` or ``f(x, i)``), ``Callable[..., Expr[Any] | Scalar]``.
    """
    if param.takes is not None:
        arities = param.takes.arities
        taken = f"[{', '.join(['Expr[Any]'] * arities[0])}]" if len(arities) == 1 else "..."
        text = f"Callable[{taken}, Expr[Any] | Scalar]"
        return f"{text} | None" if param.default is ABSENT else text
    kinds = [_GENERIC.get(k, k.__name__ if k.__module__ == "builtins" else f"{k.__module__}.{k.__qualname__}")
             for k in param.python]  # fmt: skip
    if param.python_only:
        text = " | ".join(kinds)
    else:
        parts = ["Expr[Any]"]
        if param.names and not method:
            parts.append("str")
        parts += [k for k in kinds if k not in parts]
        if not param.python:
            parts.append("Scalar")
        text = " | ".join(parts)
    if param.default is ABSENT or param.none is not None:
        text += " | None"
    if unpacks and param.variadic:
        text += " | list[Expr[Any] | str] | tuple[Expr[Any] | str, ...]"
    return text
