"""Hooks that evaluate expression calls with the runtime's API and record the result (see ``ir``).

They run after the typing hooks of ``expressions`` (which give the call its type)
and report what the runtime would raise when the call is made, where mypy has
not reported an error there already: a window function over a window it cannot
use, a window frame that ends before it starts, ``is_in("abc")``, ``cast(dict)``...
"""

from __future__ import annotations

import functools
import importlib
from typing import TYPE_CHECKING, Any

from mypy.checker import TypeChecker
from mypy.nodes import ARG_OPT, ARG_POS, CallExpr, Expression, MemberExpr, NameExpr, RefExpr, TypeInfo, Var
from mypy.types import Instance, Parameters, TypeType, TypeVarType, get_proper_type

from pydantable_spark._mypy.coverage import SELECTOR_ENTRIES, Replayed
from pydantable_spark._mypy.ir import Value, already_reported, arguments, lambda_scope, receiver, record, value_of
from pydantable_spark._mypy.models import column_name, is_column_of_model
from pydantable_spark._mypy.statics import COL, Static, instance_of, static_of
from pydantable_spark.errors import PydantableSparkError
from pydantable_spark.expr.core import Typed

if TYPE_CHECKING:
    from collections.abc import Callable

    from mypy.plugin import AttributeContext, FunctionContext, MethodContext
    from mypy.types import Type

    from pydantable_spark.expr.udf import Udf

__all__ = [
    "column_attribute",
    "evaluate_call",
    "function_evaluator",
    "method_evaluator",
    "report",
    "udf_stand_in",
]

_FUNCTION_MODULES = (
    "pydantable_spark.functions",
    "pydantable_spark.expr.forms",
    "pydantable_spark.selectors",
    "pydantable_spark.merge",  # the clauses of merge_into: update(...), insert_all(...), delete()...
)
_INEXACT = {
    f"pydantable_spark.selectors.{name}"
    for name, entry in SELECTOR_ENTRIES.items()
    if isinstance(entry, Replayed) and entry.inexact
}
"""Results that depend on widths mypy does not know (every integer is ``int`` to mypy, a ``bigint``; ``coverage``)."""
WINDOW = "pydantable_spark.expr.windowspec.Window"
UDF = "pydantable_spark.expr.udf.Udf"
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


def evaluate_call(ctx: MethodContext | FunctionContext, target: Callable[..., object], exact: bool) -> None:
    """Call ``target`` (the runtime's function or bound method) on the call's argument values; record the result.

    What it raises is reported at the call when every argument is known exactly.
    """
    assert isinstance(ctx.api, TypeChecker)
    found = arguments(ctx)
    if found is None or any(v is None for _, v in found.positional) or any(v is None for *_, v in found.named):
        record(ctx.api, ctx.context, None)  # type: ignore[arg-type]
        return
    exact = exact and found.complete
    positional, named = found.values()
    try:
        with lambda_scope(ctx.api):
            result = target(*positional, **named)
    except Exception as error:
        record(ctx.api, ctx.context, None)  # type: ignore[arg-type]
        if exact and reportable(error):
            report(ctx, error)
        return
    record(ctx.api, ctx.context, Value(result, exact))  # type: ignore[arg-type]


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
    exact = fullname not in _INEXACT and not _lenient(module, name)

    def hook(ctx: FunctionContext) -> None:
        evaluate_call(ctx, target, exact=exact)

    return hook


def _lenient(module: str, name: str) -> bool:
    """A higher-order function whose errors after its lambdas are the runtime's alone (``lambdas.LENIENT``).

    The catalog hook reports its errors before them (``col must be a list``).
    """
    from pydantable_spark._mypy.lambdas import LENIENT
    from pydantable_spark.expr.catalog import CATALOG

    entry = CATALOG.get(name) if module == "pydantable_spark.functions" else None
    return entry is not None and entry.name in LENIENT


@functools.cache
def method_evaluator(owner: str, method: str) -> Callable[[MethodContext], None] | None:
    """Evaluates a method of an expression, a namespace, a window or a selector on its receiver's value.

    A UDF call is evaluated with a stand-in of the UDF (``udf_stand_in``).
    """
    if owner == UDF and method == "__call__":
        return _udf_call
    if owner == WINDOW:
        from pydantable_spark.expr.windowspec import Window

        target = getattr(Window, method, None)
        if target is None:
            return None

        def static(ctx: MethodContext) -> None:
            evaluate_call(ctx, target, exact=True)

        return static
    if owner not in _RECEIVERS or (method.startswith("_") and not method.endswith("__")):
        return None

    def hook(ctx: MethodContext) -> None:
        assert isinstance(ctx.api, TypeChecker)
        source = receiver(ctx)
        value = value_of(ctx.api, source) if source is not None else None
        bound = getattr(value.value, method, None) if value is not None else None
        if value is None or bound is None or not callable(bound):
            record(ctx.api, ctx.context, None)  # type: ignore[arg-type]
            return
        evaluate_call(ctx, bound, exact=value.exact)

    return hook


def _udf_call(ctx: MethodContext) -> None:
    call = ctx.context
    callee = call.callee if isinstance(call, CallExpr) else None
    name = callee.name if isinstance(callee, NameExpr | MemberExpr) else "udf"
    stand_in = udf_stand_in(ctx.type, name)
    if stand_in is None:
        record(ctx.api, ctx.context, None)  # type: ignore[arg-type]
        return
    evaluate_call(ctx, stand_in, exact=True)


def udf_stand_in(t: Type, name: str) -> Udf[Any, ...] | None:
    """The UDF a ``Udf[R, P]`` stands for, typed by its annotations, without its function (never run).

    Called on the call's arguments, it builds the runtime's ``UdfCall``, which
    checks them by the runtime's rules (arity, the parameters' types and
    nullability) when the plan is built. None when a type is not known.
    """
    from pydantable_spark.expr.udf import PythonFunction, Udf

    proper = get_proper_type(t)
    if not isinstance(proper, Instance) or proper.type.fullname != UDF or len(proper.args) != 2:
        return None
    parameters = get_proper_type(proper.args[1])
    if not isinstance(parameters, Parameters) or any(k not in (ARG_POS, ARG_OPT) for k in parameters.arg_kinds):
        return None
    params = []
    for index, (param, annotation) in enumerate(zip(parameters.arg_names, parameters.arg_types, strict=True)):
        static = static_of(annotation)
        if static.dtype is None:
            return None
        params.append((param or f"arg{index}", Typed(static.dtype, static.nullable)))
    returns = static_of(proper.args[0])
    if returns.dtype is None:
        return None

    def never_run() -> None:  # the stand-in only builds plans
        raise NotImplementedError

    never_run.__name__ = name
    function = PythonFunction(never_run, tuple(params), Typed(returns.dtype, returns.nullable), f"<{name}>")
    return Udf(function)


def column_attribute(ctx: AttributeContext) -> Type:
    """``User.age`` (class access) is ``Col[int | None]`` when ``age: int | None``; its value is the model's column.

    So is ``cls.age`` in a classmethod of the model (``cls`` is ``type[User]``),
    as the runtime's metaclass gives the class it is called on its columns.
    """
    from pydantable_spark._mypy.ir import column_value

    assert isinstance(ctx.api, TypeChecker)
    access = ctx.context
    value_type = ctx.default_attr_type
    model = _receiver_model(ctx.api, access.expr) if isinstance(access, MemberExpr) else None
    if isinstance(access, MemberExpr) and model is not None and is_column_of_model(model, access.name):
        value_type, static = _declared(model, access.name, value_type)
        record(ctx.api, access, column_value(model, column_name(access, model), static))
    return instance_of(ctx.api, COL, [value_type])


def _receiver_model(api: TypeChecker, expr: Expression) -> TypeInfo | None:
    """The class ``expr`` is: a class's name, or a ``type[Model]`` value (``cls``); None otherwise."""
    if isinstance(expr, RefExpr) and isinstance(expr.node, TypeInfo):
        return expr.node
    if not (isinstance(expr, NameExpr) and isinstance(expr.node, Var)):
        return None
    found = api.lookup_type_or_none(expr)
    proper = get_proper_type(found) if found is not None else None
    item = get_proper_type(proper.item) if isinstance(proper, TypeType) else None
    if isinstance(item, TypeVarType):
        item = get_proper_type(item.upper_bound)
    return item.type if isinstance(item, Instance) else None


def _declared(model: TypeInfo, name: str, default: Type) -> tuple[Type, Static]:
    """The field's type as declared, where mypy's attribute type lost what the plugin reads (``payload: Variant``).

    mypy gives the attribute the alias' target (``Any``); the declaration keeps
    the alias, which the plugin maps to a VARIANT (``statics.annotated_dtype``).
    With the type, its logical type (read once: every column access asks for it).
    """
    static = static_of(default)
    if static.known:
        return default, static
    symbol = model.get(name)
    declared = symbol.node.type if symbol is not None and isinstance(symbol.node, Var) else None
    if declared is None:
        return default, static
    declared_static = static_of(declared)
    return (declared, declared_static) if declared_static.known else (default, static)
