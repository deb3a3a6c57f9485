"""Hooks that evaluate expression calls with the runtime's API and record the result (see ``ir``).

They run after the typing hooks of ``expressions`` (which give the call its type)
and report what the runtime would raise when the call is made, where mypy has
not reported an error there already: a window function over a window it cannot
use, a window frame that ends before it starts, ``is_in("abc")``, ``cast(dict)``...
"""

from __future__ import annotations

import functools
import importlib
from typing import TYPE_CHECKING

from mypy.checker import TypeChecker
from mypy.nodes import MemberExpr, RefExpr, TypeInfo

from pydantable_spark._mypy.ir import Value, already_reported, arguments, receiver, record, value_of
from pydantable_spark._mypy.models import column_name, is_column_of_model
from pydantable_spark._mypy.statics import COL, instance_of
from pydantable_spark.errors import PydantableSparkError

if TYPE_CHECKING:
    from collections.abc import Callable

    from mypy.plugin import AttributeContext, FunctionContext, MethodContext
    from mypy.types import Type

__all__ = ["column_attribute", "function_evaluator", "method_evaluator", "report"]

_FUNCTION_MODULES = ("pydantable_spark.functions", "pydantable_spark.expr.forms", "pydantable_spark.selectors")
_INEXACT = {"pydantable_spark.selectors.by_dtype"}
"""Results that depend on widths mypy does not know (every integer is ``int`` to mypy, a ``bigint``)."""
WINDOW = "pydantable_spark.expr.windowspec.Window"
_RECEIVERS = {
    "pydantable_spark.expr.api.Expr",
    "pydantable_spark.expr.api.Col",
    "pydantable_spark.expr.forms.WhenThen",
    "pydantable_spark.expr.windowspec.WindowSpec",
    "pydantable_spark.selectors.Selector",
    *(f"pydantable_spark.expr.namespaces.{name}Namespace" for name in ("String", "DateTime", "List", "Map", "Struct")),
}


def report(ctx: MethodContext | FunctionContext, error: Exception, prefix: str = "") -> None:
    """Report a runtime error at the call, unless mypy has reported one inside it already."""
    from pydantable_spark._mypy.expressions import SPARK_TYPE

    assert isinstance(ctx.api, TypeChecker)
    if not already_reported(ctx.api, ctx.context):
        ctx.api.fail(f"{prefix}{error}", ctx.context, code=SPARK_TYPE)


def reportable(error: Exception) -> bool:
    """Whether the runtime raising ``error`` is a mistake in the call (not a mere arity problem mypy reports)."""
    return isinstance(error, PydantableSparkError | ValueError)


def _evaluate(ctx: MethodContext | FunctionContext, target: Callable[..., object], exact: bool) -> None:
    assert isinstance(ctx.api, TypeChecker)
    found = arguments(ctx)
    if found is None or any(v is None for _, v in found.positional) or any(v is None for *_, v in found.named):
        record(ctx.context, None)  # type: ignore[arg-type]
        return
    exact = exact and found.complete
    positional, named = found.values()
    try:
        result = target(*positional, **named)
    except Exception as error:
        record(ctx.context, None)  # type: ignore[arg-type]
        if exact and reportable(error):
            report(ctx, error)
        return
    record(ctx.context, Value(result, exact))  # type: ignore[arg-type]


@functools.cache
def function_evaluator(fullname: str) -> Callable[[FunctionContext], None] | None:
    """Evaluates a call of an ``F`` function (catalog entry or special form) or a selector."""
    module, _, name = fullname.rpartition(".")
    if module not in _FUNCTION_MODULES:
        return None
    runtime = importlib.import_module(module)
    target = getattr(runtime, name, None)
    if name not in getattr(runtime, "__all__", ()) or not callable(target) or isinstance(target, type):
        return None
    exact = fullname not in _INEXACT

    def hook(ctx: FunctionContext) -> None:
        _evaluate(ctx, target, exact=exact)

    return hook


@functools.cache
def method_evaluator(owner: str, method: str) -> Callable[[MethodContext], None] | None:
    """Evaluates a method of an expression, a namespace, a window or a selector on its receiver's value."""
    if owner == WINDOW:
        from pydantable_spark.expr.windowspec import Window

        target = getattr(Window, method, None)
        if target is None:
            return None

        def static(ctx: MethodContext) -> None:
            _evaluate(ctx, target, exact=True)

        return static
    if owner not in _RECEIVERS or (method.startswith("_") and not method.endswith("__")):
        return None

    def hook(ctx: MethodContext) -> None:
        assert isinstance(ctx.api, TypeChecker)
        source = receiver(ctx)
        value = value_of(ctx.api, source) if source is not None else None
        bound = getattr(value.value, method, None) if value is not None else None
        if value is None or bound is None or not callable(bound):
            record(ctx.context, None)  # type: ignore[arg-type]
            return
        _evaluate(ctx, bound, exact=value.exact)

    return hook


def column_attribute(ctx: AttributeContext) -> Type:
    """``User.age`` (class access) is ``Col[int | None]`` when ``age: int | None``; its value is the model's column."""
    from pydantable_spark._mypy.ir import column_value

    assert isinstance(ctx.api, TypeChecker)
    access = ctx.context
    if isinstance(access, MemberExpr) and isinstance(access.expr, RefExpr) and isinstance(access.expr.node, TypeInfo):
        model = access.expr.node
        if is_column_of_model(model, access.name):
            record(access, column_value(model, column_name(access), ctx.default_attr_type))
    return instance_of(ctx.api, COL, [ctx.default_attr_type])
