"""The runtime values behind the expressions mypy checks, made with the runtime's own API.

The plugin evaluates each expression call it sees (``User.age``, ``F.col("x")``,
``x + 1``, ``F.sum(x)``, ``.over(w)``, ``Window.partition_by(...)``, ``cs.numeric()``)
by calling the runtime function or method itself on the runtime values of its
arguments, and records the result against the call's syntax node. A frame method
then receives the same objects the runtime would (``checks.py``), so every rule the
runtime applies when a plan is built (unknown columns, aggregation and window
structure, argument values) is applied by mypy too, with the runtime's message.

A value is *exact* when it is what the runtime will hold; it is not when part of it
stands for something mypy knows only by type (a parameter ``x: Expr[int]``, a
variable assigned twice, ``n: int``): such a part is an ``Opaque`` leaf, or a
sample value of the type. Only what does not depend on that part is reported
from an inexact value (see ``checks.py``).
"""

from __future__ import annotations

import datetime
import decimal
import operator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from mypy.checker import TypeChecker
from mypy.nodes import (
    ARG_NAMED,
    ARG_POS,
    ARG_STAR,
    ARG_STAR2,
    ArgKind,
    AssignmentStmt,
    Block,
    BytesExpr,
    CallExpr,
    ClassDef,
    ComparisonExpr,
    Decorator,
    DictExpr,
    Expression,
    ExpressionStmt,
    FloatExpr,
    ForStmt,
    FuncItem,
    IfStmt,
    IndexExpr,
    IntExpr,
    LambdaExpr,
    ListExpr,
    MatchStmt,
    MemberExpr,
    MypyFile,
    NameExpr,
    OperatorAssignmentStmt,
    OpExpr,
    OverloadedFuncDef,
    RefExpr,
    SetExpr,
    StarExpr,
    Statement,
    StrExpr,
    TempNode,
    TryStmt,
    TupleExpr,
    TypeInfo,
    UnaryExpr,
    Var,
    WhileStmt,
    WithStmt,
)
from mypy.types import AnyType, Instance, get_proper_type

from pydantable_spark import dtypes as dt
from pydantable_spark._mypy.statics import SAMPLES, Static, static_of, static_of_expr
from pydantable_spark.errors import PydantableSparkError
from pydantable_spark.expr.api import Col, Expr
from pydantable_spark.expr.core import Column, Node, Typed
from pydantable_spark.expr.lambdas import Variable, binding, new_token

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

    from mypy.nodes import Context, Lvalue
    from mypy.plugin import FunctionContext, MethodContext

__all__ = [
    "Arguments",
    "Opaque",
    "Value",
    "already_reported",
    "arguments",
    "assigned_values",
    "is_exact",
    "lambda_scope",
    "lambda_variable",
    "lambda_variables",
    "nodes_in",
    "operator_error",
    "recall",
    "record",
    "value_of",
]


@dataclass(frozen=True, slots=True)
class Value:
    """A runtime value standing for an expression; ``exact`` False when part of it is only typed."""

    value: object
    exact: bool


@dataclass(frozen=True, slots=True)
class Opaque(Node):
    """An expression the plugin cannot see into (a parameter, a value built at run time): its type only.

    It binds to no column, so a frame's checks pass through it; whatever
    depends on what it really is (an aggregate? a constant?) is not reported.
    Without a type (``Any``) the expressions over it stay untyped, as those
    over ``F.col`` do until a frame binds them.
    """

    name: str
    declared: Typed | None
    label: ClassVar[str] = "expression"

    def derive(self) -> Typed | None:
        return self.declared

    @property
    def output_name(self) -> str:
        return self.name

    @property
    def is_constant(self) -> bool:
        return False


# --- what the plugin remembers of the module being checked ---------------------------------------


@dataclass(frozen=True, slots=True)
class _ModuleState:
    """The values recorded for one module's syntax nodes, and its variables' assignments.

    Kept for the tree mypy is checking; a new tree of the module (the daemon
    checks it again) starts afresh, so nothing of an old tree is kept alive.
    """

    tree: MypyFile
    assignments: dict[int, list[Expression | None]]
    values: dict[int, tuple[Expression, Value]] = field(default_factory=dict)
    variables: dict[int, tuple[Var, Variable]] = field(default_factory=dict)


_MODULES: dict[str, _ModuleState] = {}


def _state(api: TypeChecker) -> _ModuleState:
    tree = api.tree
    state = _MODULES.get(tree.fullname)
    if state is None or state.tree is not tree:
        assignments: dict[int, list[Expression | None]] = {}
        _assignments(tree.defs, assignments)
        state = _MODULES[tree.fullname] = _ModuleState(tree, assignments)
    return state


def record(api: TypeChecker, expr: Expression, value: Value | None) -> None:
    """Remember ``value`` as what ``expr`` evaluates to (None: nothing known; forget it)."""
    values = _state(api).values
    if value is None:
        values.pop(id(expr), None)
    else:
        values[id(expr)] = (expr, value)


def recall(api: TypeChecker, expr: Expression) -> Value | None:
    """The value recorded for ``expr`` by the last check of it, if any."""
    found = _state(api).values.get(id(expr))
    return found[1] if found is not None and found[0] is expr else None


# --- the parameters of lambdas passed to higher-order functions -------------------------------------


def lambda_variables(
    api: TypeChecker, lam: LambdaExpr, types: Sequence[Typed | None], function: str
) -> tuple[Variable, ...]:
    """The runtime's variables standing for ``lam``'s parameters (typed ``types``), as the runtime makes them.

    Each is the value of its parameter wherever the body uses it, so the body
    evaluates to what the runtime's call of the lambda returns, over these
    variables. A parameter typed again (mypy checks a call more than once)
    keeps its token, so values recorded for the body stay valid.
    """
    registry = _state(api).variables
    made = []
    for argument, typed in zip(lam.arguments, types, strict=False):
        var = argument.variable
        known = registry.get(id(var))
        if known is not None and known[0] is var:
            if known[1].declared == typed and known[1].function == function:
                made.append(known[1])
                continue
            token = known[1].token
        else:
            token = new_token()
        variable = Variable(token, var.name, typed, function)
        registry[id(var)] = (var, variable)
        made.append(variable)
    return tuple(made)


def lambda_variable(api: TypeChecker, var: Var) -> Variable | None:
    """The runtime variable a lambda's parameter stands for (``lambda_variables``), or None."""
    known = _state(api).variables.get(id(var))
    return known[1] if known is not None and known[0] is var else None


@contextmanager
def lambda_scope(api: TypeChecker) -> Iterator[None]:
    """While the plugin calls the runtime: the variables of the module's lambdas are bound, as in their bodies.

    The runtime refuses a body that uses a variable of no lambda running
    around it (``refuse_escaped``); the plugin evaluates a lambda inside
    another one while checking the outer body, where the runtime would be
    running the outer function. Python's scoping keeps a parameter inside its
    lambda, so binding them all refuses nothing the runtime accepts.
    """
    registry = _state(api).variables
    if not registry:  # no lambda in the module (most calls): nothing to bind
        yield
        return
    with binding(tuple(variable for _, variable in registry.values())):
        yield


# --- variables assigned once -----------------------------------------------------------------


def _assignments(statements: list[Statement], out: dict[int, list[Expression | None]]) -> None:
    """Every value assigned to each variable in ``statements`` (nested blocks and functions included).

    Not seen: assignment expressions (``:=``) and names bound by ``match`` patterns.
    """
    for statement in statements:
        if isinstance(statement, AssignmentStmt):
            for target in statement.lvalues:
                if isinstance(target, IndexExpr):  # clauses[0] = ...: the container changes
                    _mutated(target.base, out, changed=True)
                _bind(target, statement.rvalue if len(statement.lvalues) == 1 else None, out)
        elif isinstance(statement, OperatorAssignmentStmt):
            _bind(statement.lvalue, None, out)
        elif isinstance(statement, ExpressionStmt):
            _mutated(statement.expr, out)
        elif isinstance(statement, ForStmt):
            _bind(statement.index, None, out)
        elif isinstance(statement, WithStmt):
            for bound in statement.target:
                if bound is not None:
                    _bind(bound, None, out)
        elif isinstance(statement, TryStmt):
            for var in statement.vars:
                if var is not None:
                    _bind(var, None, out)
        function = statement.func if isinstance(statement, Decorator) else statement
        if isinstance(function, FuncItem):
            for argument in function.arguments:
                out.setdefault(id(argument.variable), []).append(None)
        for block in _blocks(function):
            _assignments(block.body, out)


_MUTATORS = frozenset({"append", "extend", "insert", "remove", "pop", "clear", "update", "setdefault", "add"})
"""Methods that change a list, dict or set in place: a variable they are called on has no single value."""


def _mutated(expr: Expression, out: dict[int, list[Expression | None]], *, changed: bool = False) -> None:
    """``clauses.append(x)`` (or ``changed``: ``clauses[0] = x``): the variable is bound again, to an unknown value."""
    if isinstance(expr, CallExpr) and isinstance(expr.callee, MemberExpr) and expr.callee.name in _MUTATORS:
        expr, changed = expr.callee.expr, True
    if changed and isinstance(expr, NameExpr) and isinstance(expr.node, Var):
        out.setdefault(id(expr.node), []).append(None)


def _blocks(statement: Statement) -> list[Block]:
    if isinstance(statement, Block):
        return [statement]
    if isinstance(statement, FuncItem):
        return [statement.body]
    if isinstance(statement, OverloadedFuncDef):
        return [b for item in statement.items for b in _blocks(item)] + (
            _blocks(statement.impl) if statement.impl is not None else []
        )
    if isinstance(statement, ClassDef):
        return [statement.defs]
    if isinstance(statement, IfStmt):
        return [*statement.body, *([statement.else_body] if statement.else_body else [])]
    if isinstance(statement, ForStmt | WhileStmt):
        return [statement.body, *([statement.else_body] if statement.else_body else [])]
    if isinstance(statement, WithStmt):
        return [statement.body]
    if isinstance(statement, TryStmt):
        optional = [statement.else_body, statement.finally_body]
        return [statement.body, *statement.handlers, *(b for b in optional if b is not None)]
    if isinstance(statement, MatchStmt):
        return list(statement.bodies)
    return []


def _bind(target: Lvalue, value: Expression | None, out: dict[int, list[Expression | None]]) -> None:
    if isinstance(target, NameExpr) and isinstance(target.node, Var):
        out.setdefault(id(target.node), []).append(value)
    elif isinstance(target, TupleExpr | ListExpr):
        for item in target.items:
            _bind(item, None, out)
    elif isinstance(target, StarExpr):
        _bind(target.expr, None, out)


def _single_value(api: TypeChecker, var: Var) -> Expression | None:
    """The one value ``var`` is ever assigned in the module being checked, or None."""
    values = assigned_values(api, var)
    return values[0] if len(values) == 1 else None


def assigned_values(api: TypeChecker, var: Var) -> list[Expression | None]:
    """Every value ``var`` is assigned in the module being checked (None: a parameter, a loop target...)."""
    return _state(api).assignments.get(id(var), [])


# --- from syntax to runtime values ----------------------------------------------------------------

_PYTHON_TYPES: dict[str, type] = {
    "builtins.bool": bool,
    "builtins.int": int,
    "builtins.float": float,
    "builtins.str": str,
    "builtins.bytes": bytes,
    "builtins.object": object,
    "builtins.dict": dict,
    "builtins.list": list,
    "builtins.tuple": tuple,
    "builtins.set": set,
    "decimal.Decimal": decimal.Decimal,
    "datetime.date": datetime.date,
    "datetime.datetime": datetime.datetime,
    "datetime.timedelta": datetime.timedelta,
}
_CONSTANTS = {"builtins.True": True, "builtins.False": False, "builtins.None": None}
_NAMESPACES = ("str", "dt", "list", "map", "struct")
_MAX_DEPTH = 20


def _python_type(info: TypeInfo) -> object | None:
    """The runtime class a type name stands for, when it is an argument (``cast(float)``, ``dt.Int32``)."""
    if info.fullname in _PYTHON_TYPES:
        return _PYTHON_TYPES[info.fullname]
    module, _, name = info.fullname.rpartition(".")
    if module == dt.__name__:
        found = getattr(dt, name, None)
        return found if isinstance(found, type) and issubclass(found, dt.DType) else None
    return None


def value_of(api: TypeChecker, expr: Expression, depth: int = 0) -> Value | None:
    """What the runtime would hold for ``expr``, or None when the plugin cannot tell."""
    found = recall(api, expr)
    if found is not None:
        return found
    if depth > _MAX_DEPTH:
        return None
    if isinstance(expr, NameExpr) and isinstance(expr.node, Var):
        variable = lambda_variable(api, expr.node)
        if variable is not None:  # a lambda's parameter: the runtime's variable
            return Value(Expr(variable), True)
    if isinstance(expr, LambdaExpr):
        from pydantable_spark._mypy.lambdas import lambda_value

        return lambda_value(api, expr, depth + 1)
    if isinstance(expr, StrExpr | IntExpr | FloatExpr | BytesExpr):
        return Value(expr.value if not isinstance(expr, BytesExpr) else expr.value.encode(), True)
    if isinstance(expr, NameExpr) and expr.fullname in _CONSTANTS:
        return Value(_CONSTANTS[expr.fullname], True)
    if isinstance(expr, UnaryExpr) and expr.op == "-" and isinstance(expr.expr, IntExpr | FloatExpr):
        return Value(-expr.expr.value, True)
    if isinstance(expr, OpExpr) and expr.op in _ARITHMETIC:
        folded = _folded(api, expr, depth)
        if folded is not None:
            return folded
    if isinstance(expr, OpExpr | ComparisonExpr | UnaryExpr):
        operated = _operated(api, expr, depth)
        if operated is not None:
            return operated
    if isinstance(expr, ListExpr | TupleExpr | SetExpr):
        items = [value_of(api, item, depth + 1) for item in expr.items]
        if any(item is None for item in items):
            return None
        kind = {ListExpr: list, TupleExpr: tuple, SetExpr: set}[type(expr)]
        return Value(kind(i.value for i in items if i is not None), all(i.exact for i in items if i is not None))
    if isinstance(expr, DictExpr):
        return _dict_value(api, expr, depth)
    if isinstance(expr, RefExpr) and isinstance(expr.node, TypeInfo):
        python = _python_type(expr.node)
        return None if python is None else Value(python, True)
    if isinstance(expr, NameExpr) and isinstance(expr.node, Var):
        assigned = _single_value(api, expr.node)
        if assigned is not None:
            resolved = value_of(api, assigned, depth + 1)
            if resolved is not None:
                return resolved
    if isinstance(expr, MemberExpr) and expr.name in _NAMESPACES:
        owner = value_of(api, expr.expr, depth + 1)
        if owner is not None and isinstance(owner.value, Expr):
            return Value(getattr(owner.value, expr.name), owner.exact)
    if isinstance(expr, CallExpr) and isinstance(expr.callee, RefExpr) and isinstance(expr.callee.node, TypeInfo):
        return _constructed(api, expr, depth)
    return by_type(api, expr)


_ARITHMETIC: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "//": operator.floordiv,
    "%": operator.mod,
    "**": operator.pow,
}


def _folded(api: TypeChecker, expr: OpExpr, depth: int) -> Value | None:
    """``10**20``, ``60 * 60``: arithmetic on written numbers, as Python computes it (small operands only)."""
    left, right = value_of(api, expr.left, depth + 1), value_of(api, expr.right, depth + 1)
    if left is None or right is None or not (left.exact and right.exact):
        return None
    a, b = left.value, right.value
    numbers = (int, float)
    if not (isinstance(a, numbers) and isinstance(b, numbers)) or isinstance(a, bool) or isinstance(b, bool):
        return None
    if expr.op == "**" and (abs(b) > 512 or abs(a) > 10**6):
        return None
    try:
        return Value(_ARITHMETIC[expr.op](a, b), True)
    except (ArithmeticError, ValueError):
        return None


_OPERATORS = {"+": "add", "-": "sub", "*": "mul", "/": "truediv", "//": "floordiv", "%": "mod", "**": "pow"}
_OPERATORS |= {"&": "and", "|": "or"}
_COMPARISONS = {"==": ("eq", "eq"), "!=": ("ne", "ne"), "<": ("lt", "gt"), "<=": ("le", "ge")}
_COMPARISONS |= {">": ("gt", "lt"), ">=": ("ge", "le")}


def _operated(api: TypeChecker, expr: OpExpr | ComparisonExpr | UnaryExpr, depth: int) -> Value | None:
    """An operator mypy typed without asking the plugin (an operand is ``Any``), applied to the values."""
    found = _operation(api, expr, depth)
    if found is None:
        return None
    method, args, exact = found
    try:
        result = method(*args)
    except Exception:  # the runtime refuses it: nothing is known of the result
        return None
    return None if result is NotImplemented else Value(result, exact)


def operator_error(api: TypeChecker, expr: Expression) -> Exception | None:
    """What the runtime raises applying an operator to exactly known values, where mypy typed it as ``object``'s.

    ``x == "2024"`` over an ``Expr[int]`` is ``bool`` to mypy (``object.__eq__``),
    which a lambda may return; the runtime refuses the comparison.
    """
    if not isinstance(expr, OpExpr | ComparisonExpr | UnaryExpr):
        return None
    typed = api.lookup_type_or_none(expr)
    if typed is None or static_of_expr(typed) is not None or already_reported(api, expr):
        return None  # an expression: the plugin's hook typed it (and reported what it refuses)
    found = _operation(api, expr, 0)
    if found is None or not found[2]:
        return None
    method, args, _ = found
    try:
        method(*args)
    except PydantableSparkError as error:
        return error
    return None


def _operation(
    api: TypeChecker, expr: OpExpr | ComparisonExpr | UnaryExpr, depth: int
) -> tuple[Callable[..., object], list[object], bool] | None:
    """The runtime's method an operator calls on the operands' values, its arguments, and whether they are exact."""
    if isinstance(expr, UnaryExpr):
        operand = value_of(api, expr.expr, depth + 1)
        method = {"-": "__neg__", "~": "__invert__"}.get(expr.op)
        if operand is None or method is None or not isinstance(operand.value, Expr):
            return None
        return getattr(operand.value, method), [], operand.exact
    if isinstance(expr, ComparisonExpr):
        if len(expr.operands) != 2 or expr.operators[0] not in _COMPARISONS:
            return None
        left_expr, right_expr = expr.operands
        forward, reflected = (f"__{m}__" for m in _COMPARISONS[expr.operators[0]])
    else:
        if expr.op not in _OPERATORS:
            return None
        left_expr, right_expr = expr.left, expr.right
        forward, reflected = f"__{_OPERATORS[expr.op]}__", f"__r{_OPERATORS[expr.op]}__"
    left, right = value_of(api, left_expr, depth + 1), value_of(api, right_expr, depth + 1)
    if left is None or right is None:
        return None
    exact = left.exact and right.exact
    if isinstance(left.value, Expr):
        return getattr(left.value, forward), [right.value], exact
    if isinstance(right.value, Expr):
        return getattr(right.value, reflected), [left.value], exact
    return None


def _dict_value(api: TypeChecker, expr: DictExpr, depth: int) -> Value | None:
    out: dict[object, object] = {}
    exact = True
    for key, item in expr.items:
        if key is None:
            return None
        k, v = value_of(api, key, depth + 1), value_of(api, item, depth + 1)
        if k is None or v is None or not isinstance(k.value, str | int | float | bool | None):
            return None
        out[k.value] = v.value
        exact = exact and k.exact and v.exact
    return Value(out, exact)


_VALUE_CLASSES = (datetime.date, datetime.datetime, datetime.timedelta, decimal.Decimal)
"""Value classes whose instances written with literal arguments are known exactly (``datetime.date(2024, 1, 1)``)."""


def _constructed(api: TypeChecker, expr: CallExpr, depth: int) -> Value | None:
    """``dt.Decimal(10, 2)`` (a logical type written as an argument), ``datetime.date(2024, 1, 1)``, ``Decimal("1.5")``.

    A value whose arguments are not all written literally stands as a sample of its type (``by_type``).
    """
    assert isinstance(expr.callee, RefExpr)
    assert isinstance(expr.callee.node, TypeInfo)
    cls = _python_type(expr.callee.node)
    logical = isinstance(cls, type) and issubclass(cls, dt.DType)
    if not (logical or cls in _VALUE_CLASSES):
        return by_type(api, expr)
    args = [value_of(api, a, depth + 1) for a in expr.args]
    if any(a is None or not a.exact for a in args) or any(k not in (ARG_POS, ARG_NAMED) for k in expr.arg_kinds):
        return None if logical else by_type(api, expr)
    assert isinstance(cls, type)
    positional = [a.value for a, k in zip(args, expr.arg_kinds, strict=True) if a is not None and k == ARG_POS]
    named = {n: a.value for a, n in zip(args, expr.arg_names, strict=True) if a is not None and n is not None}
    try:
        return Value(cls(*positional, **named), True)
    except (TypeError, ValueError, ArithmeticError, PydantableSparkError):
        return None if logical else by_type(api, expr)


def by_type(api: TypeChecker, expr: Expression) -> Value | None:
    """A stand-in of ``expr``'s static type: an ``Opaque`` expression, a sample value, a frame."""
    t = api.lookup_type_or_none(expr)
    if t is None:
        return None
    static = static_of_expr(t)
    if static is not None or isinstance(get_proper_type(t), AnyType):
        typed = Typed(static.dtype, static.nullable) if static is not None and static.dtype is not None else None
        return Value(Expr(Opaque(_shown(expr), typed)), False)
    from pydantable_spark._mypy.replay import placeholder_frame

    frame = placeholder_frame(t)
    if frame is not None:
        return Value(frame, True)
    proper = get_proper_type(t)
    if isinstance(proper, Instance) and proper.type.fullname in ("builtins.str", "builtins.bytes"):
        return None  # a string may be a column name, whose checks depend on the value
    value = static_of(t)
    if value.dtype is None or value.nullable or type(value.dtype) not in SAMPLES:
        return None
    return Value(SAMPLES[type(value.dtype)], False)


def _shown(expr: Expression) -> str:
    if isinstance(expr, NameExpr):
        return expr.name
    if isinstance(expr, MemberExpr):
        return expr.name
    return "expression"


def column_value(model: TypeInfo, column: str, static: Static) -> Value | None:
    """``Model.attribute``: the model's column, typed as declared (what the runtime's metaclass returns)."""
    if static.dtype is None:
        return None
    return Value(Col(Column(column, Typed(static.dtype, static.nullable), model.name)), True)


def is_exact(value: object) -> bool:
    """Whether a runtime value holds no ``Opaque`` part."""
    return not any(isinstance(n, Opaque) for n in nodes_in(value))


def nodes_in(value: object) -> Iterator[Node]:
    """Every expression node inside a runtime value (expressions, windows, lists of them)."""
    from pydantable_spark.expr.windowspec import WindowSpec

    if isinstance(value, Expr):
        yield from value.node.walk()
    elif isinstance(value, WindowSpec):
        for key in (*value.partition_by_, *value.order_by_):
            yield from key.walk()
    elif isinstance(value, list | tuple | set):
        for item in value:
            yield from nodes_in(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from nodes_in(item)


# --- the arguments of a call ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Arguments:
    """A call's arguments as runtime values (None where unknown), in the order they were written."""

    positional: list[tuple[Expression, Value | None]]
    named: list[tuple[str, Expression, Value | None]]

    @property
    def complete(self) -> bool:
        """Whether every argument is known exactly."""
        values = [v for _, v in self.positional] + [v for _, _, v in self.named]
        return all(v is not None and v.exact for v in values)

    def values(self) -> tuple[list[object], dict[str, object]]:
        """The runtime call's ``*args`` and ``**kwargs`` (unknown ones must have been dropped)."""
        positional = [v.value for _, v in self.positional if v is not None]
        named = {n: v.value for n, _, v in self.named if v is not None}
        return positional, named


def arguments(ctx: MethodContext | FunctionContext) -> Arguments | None:
    """The arguments of the call ``ctx`` checks, or None when ``*xs`` / ``**kw`` unpack what is not known.

    ``*keys`` and ``**named`` whose values are known (a list or dict written
    out, or assigned once) are unpacked as the call would unpack them.
    """
    assert isinstance(ctx.api, TypeChecker)
    positional: list[tuple[Expression, Value | None]] = []
    named: list[tuple[str, Expression, Value | None]] = []
    written: dict[int, tuple[int, Expression, ArgKind, str | None]] = {}
    for kinds, names, exprs in zip(ctx.arg_kinds, ctx.arg_names, ctx.args, strict=True):
        for kind, name, expr in zip(kinds, names, exprs, strict=True):
            written[id(expr)] = (_position(expr), expr, kind, name)
    for _, written_expr, kind, name in sorted(written.values(), key=lambda w: w[0]):
        expr = _operand_written(ctx.context, written_expr)
        value = value_of(ctx.api, expr)
        if kind == ARG_STAR:
            if value is None or not isinstance(value.value, list | tuple):
                return None
            positional.extend((expr, Value(item, value.exact)) for item in value.value)
        elif kind == ARG_STAR2:
            if value is None or not isinstance(value.value, dict) or not all(isinstance(k, str) for k in value.value):
                return None
            named.extend((key, expr, Value(item, value.exact)) for key, item in value.value.items())
        elif name is None or kind != ARG_NAMED:
            positional.append((expr, value))
        else:
            named.append((name, expr, value))
    return Arguments(positional, named)


def _operand_written(call: Context, expr: Expression) -> Expression:
    """The operand as written where mypy passes a stand-in: ``1 - x`` is checked as ``x.__rsub__(<1>)``."""
    if isinstance(expr, TempNode):
        if isinstance(call, OpExpr):
            return call.left
        if isinstance(call, ComparisonExpr) and len(call.operands) == 2:
            return call.operands[0]
    return expr


def _position(expr: Expression) -> int:
    return expr.line * 100_000 + expr.column


def already_reported(api: TypeChecker, context: Context) -> bool:
    """Whether mypy has reported an error inside ``context`` already (an argument's type, an operand).

    Errors mypy is holding back (while it tries an operator's reflected form, or
    an overload) count too: they may be reported later.
    """
    errors = api.msg.errors
    start = (context.line, context.column)
    end = (context.end_line or context.line, context.end_column if context.end_column is not None else 10**9)
    infos = list(errors.error_info_map.get(errors.file, []))
    for watcher in errors.get_watchers():
        saved = watcher._filtered  # the errors a watcher holds back
        if saved is None:
            if watcher.has_new_errors():
                return True
        else:
            infos.extend(saved)
    return any(info.severity == "error" and start <= (info.line, info.column) <= end for info in infos)


def receiver(ctx: MethodContext) -> Expression | None:
    """The expression a method is called on: ``x`` in ``x.f()``, ``x + 1``, ``1 + x`` (reflected), ``-x``."""
    call = ctx.context
    argument = ctx.args[0][0] if ctx.args and ctx.args[0] else None
    if isinstance(call, CallExpr):
        return call.callee.expr if isinstance(call.callee, MemberExpr) else None
    if isinstance(call, OpExpr):  # a reflected operator's argument is the left operand, or a stand-in for it
        return call.left if argument is call.right else call.right
    if isinstance(call, ComparisonExpr) and len(call.operands) == 2:
        return call.operands[0] if argument is call.operands[1] else call.operands[1]
    if isinstance(call, UnaryExpr):
        return call.expr
    return None
