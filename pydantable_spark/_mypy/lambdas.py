"""Higher-order functions in the plugin: a lambda's parameters typed as the runtime types its variables.

``F.transform(User.tags, lambda t: t.str.upper())``: before mypy checks the
lambda, a signature hook gives its parameters the types the runtime gives the
variables (``Param.takes``), from the arguments before it (``t`` is
``Expr[str]``, an index ``Expr[int]``, an accumulator the initial value's type
or ``None``), so the body is checked by the plugin's rules like any expression.
The call's hook (``expressions._catalog_hook``) then builds the runtime's call
with a function whose body is a placeholder of the type mypy inferred for it.

What it does not infer: a lambda passed by name (a ``def`` or a variable)
keeps the stub's ``Expr[Any]`` parameters, and a list named by a string
(``F.transform("tags", ...)``) types nothing, as the frame is not known
there; both calls are ``Expr[Any]``. ``F.aggregate`` reports no error of its
own: mypy's ``int`` is a ``bigint``, where the runtime may see an ``int``
accumulator, so its rule comparing the merge's type with it is the runtime's alone.
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING

from mypy.checker import TypeChecker
from mypy.nodes import ARG_POS, LambdaExpr
from mypy.types import CallableType, UnionType, get_proper_type

from pydantable_spark._mypy.statics import expr_type, mypy_type, static_of, static_of_expr
from pydantable_spark.errors import PydantableSparkError
from pydantable_spark.expr.api import Expr
from pydantable_spark.expr.core import Column, Node, Typed, literal_of

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from mypy.nodes import Expression
    from mypy.plugin import FunctionSigContext
    from mypy.types import Type

    from pydantable_spark.expr.catalog.spec import Function

__all__ = ["LENIENT", "lambda_signature", "placeholder_function"]

LENIENT = frozenset({"aggregate"})
"""Entries whose own checks mypy does not report (width-sensitive: see the module's docstring)."""


def _node_of(api: TypeChecker, expr: Expression) -> Node | None:
    """The runtime node an argument before a lambda stands for (its inferred type), or None when unknown."""
    from pydantable_spark._mypy.expressions import _runtime_argument  # the catalog hook's own reading

    with api.msg.filter_errors():  # inferred again, and reported, when mypy checks the call
        inferred = api.expr_checker.accept(expr)
    found = _runtime_argument(api, inferred, expr)
    if found is None:
        return None
    value = found[0]
    if isinstance(value, Expr):
        return value.node
    if isinstance(value, str):  # a column name: its type is the frame's
        return None
    try:
        return literal_of(value, weak=True)
    except PydantableSparkError:
        return None


def lambda_signature(function: Function, alias: str) -> Callable[[FunctionSigContext], CallableType]:
    """The signature hook of a higher-order ``F`` function: each lambda's parameters typed as its variables."""
    params = function.params_as(alias)

    def hook(ctx: FunctionSigContext) -> CallableType:
        signature = ctx.default_signature
        api = ctx.api
        if not isinstance(api, TypeChecker):
            return signature
        arg_types = list(signature.arg_types)
        nodes: list[Node] = []
        for index, (param, exprs) in enumerate(zip(params, ctx.args, strict=False)):
            written = exprs[0] if len(exprs) == 1 else None
            if param.takes is None:
                node = _node_of(api, written) if written is not None else None
                if node is None or node.typed is None:
                    break  # the variables' types depend on it
                nodes.append(node)
                continue
            if isinstance(written, LambdaExpr) and len(written.arguments) in param.takes.arities:
                count = len(written.arguments)
                types = param.takes.types(nodes)[:count]
                if all(t is not None for t in types):
                    taken = [expr_type(api, mypy_type(api, t.dtype, t.nullable)) for t in types if t is not None]
                    arg_types[index] = _with_parameters(arg_types[index], taken)
            nodes.append(Column("<lambda>", None))  # a later lambda's variables never depend on a lambda
        return signature.copy_modified(arg_types=arg_types)

    return hook


def _with_parameters(declared: Type, taken: Sequence[Type]) -> Type:
    """The stub's function type (``Callable[..., R]``, maybe ``| None``) with the parameters ``taken``."""
    proper = get_proper_type(declared)
    if isinstance(proper, UnionType):
        return UnionType.make_union([_with_parameters(item, taken) for item in proper.items])
    if not isinstance(proper, CallableType):
        return declared
    count = len(taken)
    return proper.copy_modified(
        arg_types=taken, arg_kinds=[ARG_POS] * count, arg_names=[None] * count, is_ellipsis_args=False
    )


def placeholder_function(t: Type, expr: Expression) -> tuple[object, bool] | None:
    """For a lambda argument: a function of its arity returning a placeholder of its body's type, or None.

    The runtime calls it with its variables, as it calls the user's lambda. A
    body of a type mypy does not know is an untyped placeholder: the runtime
    still checks the arguments before it (``col must be a list``), and the
    call's type is unknown.
    """
    proper = get_proper_type(t)
    if not isinstance(proper, CallableType) or not isinstance(expr, LambdaExpr):
        return None
    returned = get_proper_type(proper.ret_type)
    static = static_of_expr(returned)
    if static is None:
        static = static_of(returned)  # a Python value: a literal of its type
    from pydantable_spark._mypy.expressions import render_source

    typed = None if static.dtype is None else Typed(static.dtype, static.nullable)
    body: Expr[object] = Expr(
        Column(render_source(expr.expr()), typed)
    )  # untyped: the call is unknown, its other arguments checked
    names = [name or f"x{i}" for i, name in enumerate(expr.arg_names)]

    def function(*variables: object) -> Expr[object]:
        return body

    function.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter(name, inspect.Parameter.POSITIONAL_ONLY) for name in names]
    )  # the runtime reads the arity and the names (for messages) from it, as from the user's lambda
    return function, True
