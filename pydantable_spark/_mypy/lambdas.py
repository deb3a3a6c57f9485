"""Higher-order functions in the plugin: a lambda's variables are the runtime's, its body evaluated with its API.

``F.transform(User.tags, lambda t: t.str.upper())``: before mypy checks the
lambda, a signature hook gives its parameters the types the runtime gives the
variables (``Param.takes``), from the arguments before it (``t`` is
``Expr[str]``, an index ``Expr[int]``, an accumulator the initial value's type
or ``None``), and makes the runtime's ``Variable`` node for each
(``ir.lambda_variables``): the value of the parameter wherever the body uses it.
The body is then checked and evaluated like any expression (``evaluate``), on
exact values: a namespace method on a variable (``km.str.upper()`` over floats),
a nested higher-order call, an operator mypy types as ``object``'s
(``d.dt.year() == "2024"``) are refused with the runtime's message. The lambda's
value is a ``StandIn`` that the runtime calls with its own variables, as it
calls the user's lambda, returning the body's value over them: the call's hook
(``expressions._catalog_hook``) and the evaluator build the runtime's call with
it, so the runtime's rules on a body (no aggregate, no window function) apply,
and a frame method sees the columns the body reads (another model's, a typo).

What it does not infer: a lambda passed by name (a ``def`` or a variable)
keeps the stub's ``Expr[Any]`` parameters, and a list named by a string
(``F.transform("tags", ...)``) types nothing, as the frame is not known
there; both calls are ``Expr[Any]``. ``F.aggregate`` (and ``F.reduce``):
what the runtime checks before calling the lambdas is reported (the list
argument, ``col must be a list``), and so are errors inside the bodies and
the bodies ``Lambda`` refuses (``refused_body``); its
rule comparing the merge's type with the accumulator's is the runtime's alone,
as mypy's ``int`` is a ``bigint`` where the runtime may see an ``int``
(``Annotated[int, Int32]``) accumulator, and the two would disagree.
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING

from mypy.checker import TypeChecker
from mypy.nodes import ARG_POS, LambdaExpr
from mypy.types import CallableType, UnionType, get_proper_type

from pydantable_spark._mypy.coverage import CATALOG_PARTIAL
from pydantable_spark._mypy.ir import Opaque, Value, lambda_variable, lambda_variables, operator_error, value_of
from pydantable_spark._mypy.statics import expr_type, mypy_type, static_of, static_of_expr
from pydantable_spark.errors import ColumnTypeError, PydantableSparkError
from pydantable_spark.expr.api import Expr
from pydantable_spark.expr.core import Column, Node, Typed, literal_of
from pydantable_spark.expr.lambdas import Lambda, Variable, replaced

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from mypy.nodes import Expression
    from mypy.plugin import FunctionSigContext
    from mypy.types import Type

    from pydantable_spark.expr.catalog.spec import Function

__all__ = [
    "LENIENT",
    "StandIn",
    "call_name",
    "lambda_signature",
    "lambda_value",
    "placeholder_function",
    "refused_body",
]

LENIENT = frozenset(CATALOG_PARTIAL)
"""Entries whose checks after their lambdas are called mypy does not report (width-sensitive: see above).

The registry's partly replayed catalog entries (``coverage.CATALOG_PARTIAL``), which say why.
"""


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


def call_name(function: Function, alias: str | None) -> str:
    """How the runtime names a call of ``function`` written as ``F.<alias>`` in messages and variables."""
    return f"F.{alias}" if alias is not None and alias != function.name else function.call_name


def lambda_signature(function: Function, alias: str) -> Callable[[FunctionSigContext], CallableType]:
    """The signature hook of a higher-order ``F`` function: each lambda's parameters typed as its variables."""
    params = function.params_as(alias)
    called = call_name(function, alias)

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
                    lambda_variables(api, written, types, called)
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


class StandIn:
    """What the plugin passes for a lambda: the runtime calls it with its variables, as it calls the user's lambda.

    It returns the body's value (``body``, over the plugin's ``variables``) with
    the runtime's variables in their place, so the runtime checks the body it
    would build; without ``variables`` (the parameters were not typed) it
    returns ``body`` as it is, a placeholder of the body's type. A ``body``
    that is an error is what the runtime raised building it: raised again,
    where the runtime would raise it. ``called``
    says whether the runtime got as far as calling it.
    """

    __slots__ = ("body", "called", "names", "variables")

    def __init__(self, body: object, names: Sequence[str], variables: tuple[Variable, ...] = ()) -> None:
        self.body = body
        self.names = tuple(names)
        self.variables = variables
        self.called = False

    @property
    def __signature__(self) -> inspect.Signature:
        """The runtime reads the arity and the names (for messages) from it, as from the user's lambda."""
        kind = inspect.Parameter.POSITIONAL_ONLY
        return inspect.Signature([inspect.Parameter(name, kind) for name in self.names])

    def __call__(self, *given: object) -> object:
        self.called = True
        if not self.variables:
            return self.body
        swap: dict[int, Variable] = {}
        for mine, theirs in zip(self.variables, given, strict=False):
            node = theirs.node if isinstance(theirs, Expr) else None
            if not isinstance(node, Variable) or node.declared != mine.declared:
                # typed otherwise than the signature hook typed the parameters: the body is not known
                return Expr(Opaque(mine.name, None))
            swap[mine.token] = node
        if isinstance(self.body, Exception):
            raise self.body  # what the runtime raises building the body (the runtime says where)
        if not isinstance(self.body, Expr):
            return self.body  # a Python value: the runtime makes a literal of it
        tokens = set(swap)
        return Expr(
            replaced(
                self.body.node,
                lambda n: swap.get(n.token) if isinstance(n, Variable) else None,
                within=lambda n: not tokens.isdisjoint(n.facts.free),
            )
        )


def refused_body(stand_ins: Sequence[tuple[StandIn, str]], function: str) -> ColumnTypeError | None:
    """What the runtime's ``Lambda`` refuses in the bodies given (an aggregate, a window function), or None.

    For a ``LENIENT`` call that failed after its lambdas were called: the
    failure may be its width-sensitive rule, but a body ``Lambda`` refuses
    (named by its parameter) is refused whatever the widths.
    """
    for stand_in, param in stand_ins:
        if isinstance(stand_in.body, Expr) and stand_in.variables:
            try:
                Lambda(function, param, stand_in.variables, stand_in.body.node)
            except ColumnTypeError as error:
                return error
    return None


def lambda_value(api: TypeChecker, lam: LambdaExpr, depth: int = 0) -> Value | None:
    """The value of a lambda whose parameters the signature hook typed: a ``StandIn`` returning its body's value.

    The body was checked (and each call in it evaluated, ``evaluate``) with the
    parameters' values the runtime's variables (``ir.lambda_variables``), so its
    value is the body the runtime builds. None when a parameter is not typed.
    """
    variables = [lambda_variable(api, argument.variable) for argument in lam.arguments]
    if not variables or any(v is None for v in variables):
        return None
    names = [v.name for v in variables if v is not None]
    known = tuple(v for v in variables if v is not None)
    refused = operator_error(api, lam.expr())  # ``lambda d: d.dt.year() == "2024"``: a bool to mypy
    if refused is not None:
        return Value(StandIn(refused, names, known), True)
    body = value_of(api, lam.expr(), depth)
    if body is None:
        return None
    return Value(StandIn(body.value, names, known), body.exact)


def placeholder_function(api: TypeChecker, t: Type, expr: Expression) -> StandIn | None:
    """For a lambda argument: the ``StandIn`` the runtime calls as it calls the lambda, or None.

    Its body is the body's value (``lambda_value``), so every rule the runtime
    applies to a body applies here; where that is not known, a placeholder of
    the type mypy inferred for the body. A body of a type mypy does not know is
    an untyped placeholder: the runtime still checks the arguments before it
    (``col must be a list``), and the call's type is unknown.
    """
    proper = get_proper_type(t)
    if not isinstance(proper, CallableType) or not isinstance(expr, LambdaExpr):
        return None
    known = lambda_value(api, expr)
    if known is not None and isinstance(known.value, StandIn):
        return known.value
    returned = get_proper_type(proper.ret_type)
    static = static_of_expr(returned)
    if static is None:
        static = static_of(returned)  # a Python value: a literal of its type
    from pydantable_spark._mypy.expressions import render_source

    typed = None if static.dtype is None else Typed(static.dtype, static.nullable)
    body: Expr[object] = Expr(Column(render_source(expr.expr()), typed))
    return StandIn(body, [name or f"x{i}" for i, name in enumerate(expr.arg_names)])
