"""Typing of expression operators, methods and ``F`` functions, by the runtime's own rules.

Each hook turns the call's operands into placeholder IR nodes (``statics.operand``),
builds the node the runtime would build, and returns ``Expr[<its Python type>]``.
A rule that rejects its operands raises ``ColumnTypeError`` here as at run time;
the hook reports it where the call is written (operators with mypy's own
"Unsupported operand types" message) and returns ``Expr[Any]``.
"""

from __future__ import annotations

import datetime
import decimal
from typing import TYPE_CHECKING, Any

from mypy.checker import TypeChecker
from mypy.errorcodes import ErrorCode
from mypy.messages import format_type
from mypy.nodes import (
    ARG_POS,
    CallExpr,
    Expression,
    ListExpr,
    MemberExpr,
    NameExpr,
    OpExpr,
    RefExpr,
    SetExpr,
    StrExpr,
    TupleExpr,
    UnaryExpr,
)
from mypy.plugin import FunctionContext, FunctionSigContext, MethodContext, MethodSigContext
from mypy.typeops import make_simplified_union
from mypy.types import (
    AnyType,
    CallableType,
    FunctionLike,
    Instance,
    NoneType,
    Type,
    TypeOfAny,
    TypeType,
    get_proper_type,
)

from pydantable_spark import dtypes as dt
from pydantable_spark._mypy.ir import lambda_scope, value_of
from pydantable_spark._mypy.lambdas import LENIENT, StandIn, call_name, placeholder_function, refused_body
from pydantable_spark._mypy.statics import (
    EXPR,
    SAMPLES,
    Static,
    expr_type,
    instance_of,
    mypy_type,
    operand,
    static_of,
    static_of_expr,
)
from pydantable_spark.errors import ArgumentError, ColumnTypeError, UnknownColumnError
from pydantable_spark.expr import coercion, conditional, operators
from pydantable_spark.expr.api import Expr
from pydantable_spark.expr.binding import call
from pydantable_spark.expr.call import Call, param_of
from pydantable_spark.expr.catalog import CATALOG, METHODS, REQUIRED
from pydantable_spark.expr.core import Cast, Column, Literal, Node, Typed, literal_of
from pydantable_spark.typerules import ArithmeticOp

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from pydantable_spark.expr.catalog.spec import Function

__all__ = [
    "EXPRESSION_CLASSES",
    "FUNCTION_HOOKS",
    "METHOD_HOOKS",
    "SPARK_TYPE",
    "render_source",
    "result_from_hook",
    "unknown",
]

SPARK_TYPE = ErrorCode("pydantable-spark", "Column type errors found by pydantable-spark", "General")

CallContext = MethodContext | FunctionContext


def render_source(expr: Expression | None) -> str:
    """How an operand is named in messages: its source text when short, else ``expression``."""
    if isinstance(expr, NameExpr):
        return expr.name
    if isinstance(expr, MemberExpr):
        inner = render_source(expr.expr)
        return f"{inner}.{expr.name}" if inner != "expression" else expr.name
    if isinstance(expr, CallExpr) and isinstance(expr.callee, MemberExpr) and expr.callee.name == "col":
        first = expr.args[0] if expr.args else None
        return first.value if isinstance(first, StrExpr) else "expression"
    return "expression"


def _receiver_source(ctx: CallContext) -> Expression | None:
    """The expression a method is called on (``x`` in ``x.cast(...)``, ``-x``, ``x + 1``)."""
    call = ctx.context
    if isinstance(call, CallExpr) and isinstance(call.callee, MemberExpr):
        return call.callee.expr
    if isinstance(call, UnaryExpr):
        return call.expr
    if isinstance(call, OpExpr):
        return call.left
    return None


def unknown(ctx: CallContext) -> Type:
    """The type of a call the hook cannot type: its declared expression class over ``Any``.

    The declared signatures give checkers without the plugin an approximate
    value type (``F.col("x") > 1`` is ``Expr[bool | None]``); with the plugin an
    expression it cannot type is unknown, ``Expr[Any]``, so that the frame
    methods type its column by the runtime's rules rather than by the approximation.
    """
    proper = get_proper_type(ctx.default_return_type)
    if isinstance(proper, Instance) and proper.type.has_base(EXPR) and proper.args:
        return proper.copy_modified(args=[AnyType(TypeOfAny.special_form)] * len(proper.args))
    return ctx.default_return_type


def result_from_hook(ctx: MethodSigContext | FunctionSigContext) -> FunctionLike:
    """A hooked call's declared signature, its result's type arguments ``Any``: the hook types the result.

    mypy solves a call's type variables from the type its result is expected to
    have too, and it checks an operand nested in another call again against the
    outer parameter's inferred type: in ``price * (1 - disc)`` it expects
    ``1 - disc`` to be ``Expr[Decimal]``, solves ``__rsub__``'s ``ScalarT`` as
    ``Decimal`` and refuses the ``1``. The runtime's rules decide what
    an operand may be (an int works with a Decimal column) and the hook gives
    the result's type, so the declared result, there only for checkers without
    the plugin, must not constrain the operands.
    """
    signature = ctx.default_signature
    declared = get_proper_type(signature.ret_type)
    if not isinstance(signature, CallableType) or not isinstance(declared, Instance) or not declared.args:
        return signature
    if not (declared.type.has_base(EXPR) or declared.type.fullname == WHEN_THEN):
        return signature
    erased = declared.copy_modified(args=[AnyType(TypeOfAny.special_form)] * len(declared.args))
    return signature.copy_modified(ret_type=erased)


def _result(ctx: CallContext, node: Node, operands: Sequence[Node]) -> Type:
    assert isinstance(ctx.api, TypeChecker)
    typed = node.type
    originals = [Static(o.type.dtype, o.type.nullable, AnyType(TypeOfAny.special_form)) for o in operands if o.typed]
    return expr_type(ctx.api, mypy_type(ctx.api, typed.dtype, typed.nullable, originals))


def _arg_types(ctx: CallContext) -> list[Type]:
    return [t for group in ctx.arg_types for t in group]


def _arg_exprs(ctx: CallContext) -> list[Expression]:
    return [e for group in ctx.args for e in group]


def _typed_or_any(ctx: CallContext, build: Callable[[], tuple[Node, Sequence[Node]] | None]) -> Type:
    """Run ``build``; report a rule's error at the call; fall back to ``Expr[Any]`` when types are unknown."""
    assert isinstance(ctx.api, TypeChecker)
    fallback = expr_type(ctx.api, AnyType(TypeOfAny.from_error))
    try:
        built = build()
    except (ColumnTypeError, ArgumentError) as error:
        ctx.api.fail(str(error), ctx.context, code=SPARK_TYPE)
        return fallback
    if built is None:
        return unknown(ctx)
    node, operands = built
    return _result(ctx, node, operands)


# --- operators --------------------------------------------------------------------------------

_ARITHMETIC = {
    "__add__": ArithmeticOp.ADD,
    "__sub__": ArithmeticOp.SUB,
    "__mul__": ArithmeticOp.MUL,
    "__truediv__": ArithmeticOp.DIV,
    "__floordiv__": ArithmeticOp.FLOORDIV,
    "__mod__": ArithmeticOp.MOD,
}
_COMPARISONS = {
    "__eq__": operators.ComparisonOp.EQ,
    "__ne__": operators.ComparisonOp.NE,
    "__lt__": operators.ComparisonOp.LT,
    "__le__": operators.ComparisonOp.LE,
    "__gt__": operators.ComparisonOp.GT,
    "__ge__": operators.ComparisonOp.GE,
}


def _binary(method: str, make: Callable[[Node, Node], Node], *, reflected: bool) -> Callable[[MethodContext], Type]:
    def hook(ctx: MethodContext) -> Type:
        assert isinstance(ctx.api, TypeChecker)
        other_type = _arg_types(ctx)[0]
        me = operand(ctx.type, render_source(_receiver_source(ctx)))
        other = operand(other_type, render_source(_arg_exprs(ctx)[0]), _arg_exprs(ctx)[0])
        if me is None or other is None:
            return unknown(ctx)
        left, right = (other, me) if reflected else (me, other)
        try:
            node = make(left, right)
        except (ColumnTypeError, ArgumentError) as error:
            symbol = _SYMBOLS.get(method, method)
            left_type, right_type = (other_type, ctx.type) if reflected else (ctx.type, other_type)
            if "None" in str(error) or "is_null" in str(error):
                ctx.api.fail(str(error), ctx.context, code=SPARK_TYPE)
            else:
                ctx.api.msg.unsupported_operand_types(symbol, left_type, right_type, ctx.context)
            return expr_type(ctx.api, AnyType(TypeOfAny.from_error))
        return _result(ctx, node, (left, right))

    return hook


_SYMBOLS = {
    **{name: op.value for name, op in _ARITHMETIC.items()},
    **{name: op.value for name, op in _COMPARISONS.items()},
    "__pow__": "**",
    "__and__": "&",
    "__or__": "|",
}


def _comparison(op: operators.ComparisonOp) -> Callable[[Node, Node], Node]:
    def make(left: Node, right: Node) -> Node:
        if isinstance(right, Literal) and right.value is None:
            method = "is_null" if op is operators.ComparisonOp.EQ else "is_not_null"
            msg = f"comparing with None is always NULL in SQL; use .{method}()"
            raise ColumnTypeError(msg)
        return operators.Comparison(op, left, right)

    return make


def _unary(make: Callable[[Node], Node]) -> Callable[[MethodContext], Type]:
    def hook(ctx: MethodContext) -> Type:
        def build() -> tuple[Node, Sequence[Node]] | None:
            me = operand(ctx.type, render_source(_receiver_source(ctx)))
            return None if me is None else (make(me), (me,))

        return _typed_or_any(ctx, build)

    return hook


# --- methods of Expr ---------------------------------------------------------------------------


def dtype_of_type_argument(t: Type) -> dt.DType | None:
    """The logical type a ``cast`` argument names: ``float``, ``dtypes.Int32``, ``dtypes.Decimal(10, 2)``."""
    proper = get_proper_type(t)
    if isinstance(proper, FunctionLike) and proper.is_type_obj():  # a class passed as a value (``list[str]`` too)
        made = get_proper_type(proper.items[0].ret_type)
        proper = TypeType(made if isinstance(made, Instance) else Instance(proper.type_object(), []))
    if isinstance(proper, TypeType):
        item = get_proper_type(proper.item)
        if isinstance(item, Instance) and item.type.has_base("pydantable_spark.dtypes.DType"):
            return _dtype_class(item.type.name)
        return static_of(proper.item).dtype
    if isinstance(proper, Instance) and proper.type.has_base("pydantable_spark.dtypes.DType"):
        return _dtype_class(proper.type.name)
    return None


def _dtype_class(name: str) -> dt.DType | None:
    cls = getattr(dt, name, None)
    if isinstance(cls, type) and issubclass(cls, dt.DType):
        try:
            return cls()
        except TypeError:
            return None
    return None


def _cast(ctx: MethodContext) -> Type:
    def build() -> tuple[Node, Sequence[Node]] | None:
        me = operand(ctx.type, render_source(_receiver_source(ctx)))
        target = dtype_of_type_argument(_arg_types(ctx)[0])
        if me is None or target is None:
            return None
        return Cast(me, target), (me,)

    return _typed_or_any(ctx, build)


def _collection_items(api: TypeChecker, expr: Expression, t: Type) -> list[Node] | None:
    """Placeholders for the values of an ``is_in`` argument (a literal collection, or by its type)."""
    if isinstance(expr, ListExpr | TupleExpr | SetExpr):
        items = [operand(api.lookup_type(item), "value", item) for item in expr.items]
        return None if any(i is None for i in items) else [i for i in items if i is not None]
    proper = get_proper_type(t)
    if isinstance(proper, Instance) and proper.args:
        item = operand(proper.args[0], "value")
        return None if item is None else [item]
    return None


def _is_in(ctx: MethodContext) -> Type:
    """``x.is_in(values)``: one collection of values."""
    api = ctx.api
    assert isinstance(api, TypeChecker)
    return _in(ctx, "is_in()", lambda: _collection_items(api, _arg_exprs(ctx)[0], _arg_types(ctx)[0]))


def _isin(ctx: MethodContext) -> Type:
    """``x.isin(1, 2)`` or ``x.isin([1, 2])``: PySpark's forms (the values, or one collection of them)."""
    assert isinstance(ctx.api, TypeChecker)
    api = ctx.api
    exprs, types = _arg_exprs(ctx), _arg_types(ctx)

    def values() -> list[Node] | None:
        if len(exprs) == 1 and isinstance(exprs[0], ListExpr | TupleExpr | SetExpr):
            return _collection_items(api, exprs[0], types[0])
        items = [operand(t, "value", e) for t, e in zip(types, exprs, strict=True)]
        return None if any(i is None for i in items) else [i for i in items if i is not None]

    return _in(ctx, "isin()", values)


def _in(ctx: MethodContext, what: str, values_of: Callable[[], list[Node] | None]) -> Type:
    def build() -> tuple[Node, Sequence[Node]] | None:
        me = operand(ctx.type, render_source(_receiver_source(ctx)))
        values = values_of()
        if me is None or values is None:
            return None
        if not all(isinstance(v, Literal) for v in values):
            msg = f"{what} takes Python values, not expressions"
            raise ColumnTypeError(msg)
        return operators.IsIn(me, tuple(v for v in values if isinstance(v, Literal))), (me,)

    return _typed_or_any(ctx, build)


def _between(ctx: MethodContext) -> Type:
    def build() -> tuple[Node, Sequence[Node]] | None:
        me = operand(ctx.type, render_source(_receiver_source(ctx)))
        types, exprs = _arg_types(ctx), _arg_exprs(ctx)
        low = operand(types[0], render_source(exprs[0]), exprs[0])
        high = operand(types[1], render_source(exprs[1]), exprs[1])
        if me is None or low is None or high is None:
            return None
        return operators.Between(me, low, high), (me, low, high)

    return _typed_or_any(ctx, build)


def _fill_null(ctx: MethodContext) -> Type:
    def build() -> tuple[Node, Sequence[Node]] | None:
        me = operand(ctx.type, render_source(_receiver_source(ctx)))
        value = operand(_arg_types(ctx)[0], render_source(_arg_exprs(ctx)[0]), _arg_exprs(ctx)[0])
        if me is None or value is None:
            return None
        if isinstance(value, Literal) and value.value is None:
            msg = "fill_null() needs a value, not None"
            raise ColumnTypeError(msg)
        return conditional.Coalesce((me, value)), (me, value)

    return _typed_or_any(ctx, build)


# --- catalog functions and namespace methods -----------------------------------------------------

_NOT_A_LITERAL: Any = object()


def _literal_value(api: TypeChecker, expr: Expression) -> Any:
    """The Python value an argument is written as (``ir.value_of``, known exactly), or ``_NOT_A_LITERAL``.

    Only plain values count (numbers, strings, bytes, ``True``/``False``/``None``,
    ``Decimal("1.5")``, ``datetime.timedelta(minutes=15)``..., and lists or
    tuples of them): their values matter to an entry's checks (a positive
    bucket size) and to a literal's type (a decimal's digits).
    """
    found = value_of(api, expr)
    if found is None or not found.exact or not _plain(found.value):
        return _NOT_A_LITERAL
    return found.value


_PLAIN = (bool, int, float, str, bytes, decimal.Decimal, datetime.date, datetime.timedelta, type(None))


def _plain(value: object) -> bool:
    if isinstance(value, list | tuple):
        return all(_plain(item) for item in value)
    return isinstance(value, _PLAIN)


def _written_lit(api: TypeChecker, expr: Expression) -> Expr[Any] | None:
    """``F.lit(v)`` written with a literal ``v`` (and no ``dtype``): the runtime's literal, not a placeholder.

    An entry asking for a constant (``F.date_part(F.lit("year"), ...)``,
    ``F.named_struct(F.lit("x"), ...)``) then sees one, and a decimal its digits.
    """
    callee = expr.callee if isinstance(expr, CallExpr) else None
    if not (isinstance(callee, RefExpr) and callee.fullname in (f"{FORMS}.lit", f"{F}.lit")):
        return None
    assert isinstance(expr, CallExpr)
    if len(expr.args) != 1 or expr.arg_kinds != [ARG_POS]:
        return None
    value = _literal_value(api, expr.args[0])
    if value is _NOT_A_LITERAL or value is None:
        return None
    return Expr(literal_of(value))


def _runtime_argument(api: TypeChecker, t: Type, expr: Expression) -> tuple[object, bool] | None:
    """What the runtime would receive for an argument: (value, exactly known), or None when untypeable.

    An expression becomes an ``Expr`` over a typed placeholder column; a literal is
    its own value, so the entry's parameter checks run here as at run time; any
    other Python value is a sample of its type (an error found with it is not reported).
    """
    static = static_of_expr(t)
    if static is not None:
        if static.dtype is None:
            return None
        written_lit = _written_lit(api, expr)
        if written_lit is not None:
            return written_lit, True
        return Expr(Column(render_source(expr), Typed(static.dtype, static.nullable))), True
    written = _literal_value(api, expr)
    if written is not _NOT_A_LITERAL:
        return written, True
    value = static_of(t)
    if value.dtype is None or value.nullable or type(value.dtype) not in SAMPLES:
        return None
    return SAMPLES[type(value.dtype)], False


def _catalog_hook(
    function: Function, *, method: str | None = None, alias: str | None = None
) -> Callable[[CallContext], Type]:
    """Types a call of a catalog entry by building the runtime's ``Call`` from the written arguments."""

    def hook(ctx: CallContext) -> Type:
        assert isinstance(ctx.api, TypeChecker)
        positional: list[object] = []
        exact = True
        lenient: list[tuple[StandIn, str]] = []  # lambdas after which the runtime's errors are its own (``LENIENT``)
        if method:
            owner = _namespace_owner(ctx)  # type: ignore[arg-type]
            if owner is None:
                return unknown(ctx)
            positional.append(Expr(owner))
        for index, (types, exprs) in enumerate(zip(ctx.arg_types, ctx.args, strict=False)):
            param = param_of(function, index + (1 if method else 0))
            if not exprs:
                if not param.variadic:
                    positional.append(param.default if param.default is not REQUIRED else None)
                continue
            for t, e in zip(types, exprs, strict=True):
                found: tuple[object, bool] | None
                if param.takes is not None:  # a lambda: its body, as the plugin evaluated it
                    stand_in = placeholder_function(ctx.api, t, e)
                    if stand_in is not None and function.name in LENIENT:
                        lenient.append((stand_in, param.name))
                    found = None if stand_in is None else (stand_in, True)
                else:
                    found = _runtime_argument(ctx.api, t, e)
                if found is None:
                    return unknown(ctx)
                positional.append(found[0])
                exact = exact and found[1]
        try:
            with lambda_scope(ctx.api):
                node = call(function, positional, names=method is None, method=method, alias=alias)
            typed = node.typed
        except (ColumnTypeError, UnknownColumnError, ArgumentError) as error:
            refused: Exception | None = error
            if any(stand_in.called for stand_in, _ in lenient):
                refused = refused_body(lenient, call_name(function, alias))
            if exact and refused is not None:
                ctx.api.fail(str(refused), ctx.context, code=SPARK_TYPE)
                return expr_type(ctx.api, AnyType(TypeOfAny.from_error))
            return unknown(ctx)
        except TypeError:
            return unknown(ctx)  # mypy reports a wrong argument count itself
        if typed is None or not isinstance(node, Call):  # F.array(): typed by where it is used
            return unknown(ctx)
        operands = [a for a in node.args if a.typed is not None]
        return _result(ctx, node, operands)

    return hook


NAMESPACE_MODULE = "pydantable_spark.expr.namespaces"
_NAMESPACE_CLASSES = {
    "str": "StringNamespace", "dt": "DateTimeNamespace", "list": "ListNamespace", "map": "MapNamespace",
    "struct": "StructNamespace",
}  # fmt: skip


def _method_fullname(qualified: str) -> str:
    """``"str.upper"`` → the namespace method's full name, as mypy's hooks ask for it."""
    prefix, _, name = qualified.partition(".")
    return f"{NAMESPACE_MODULE}.{_NAMESPACE_CLASSES[prefix]}.{name}"


def _namespace_owner(ctx: MethodContext) -> Node | None:
    """The placeholder for the expression a namespace belongs to (``x`` in ``x.str.upper()``)."""
    proper = get_proper_type(ctx.type)
    if not isinstance(proper, Instance) or not proper.args:
        return None
    static = static_of(proper.args[0])
    if static.dtype is None:
        return None
    call_expr = ctx.context
    owner_source = None
    if isinstance(call_expr, CallExpr) and isinstance(call_expr.callee, MemberExpr):
        namespace = call_expr.callee.expr
        owner_source = namespace.expr if isinstance(namespace, MemberExpr) else None
    return Column(render_source(owner_source), Typed(static.dtype, static.nullable))


def struct_field(ctx: MethodContext) -> Type:
    """``x.struct.field("name")``: the field's type (Optional where the struct is), from the model class."""
    from pydantable_spark._mypy.frames import model_columns

    assert isinstance(ctx.api, TypeChecker)
    proper = get_proper_type(ctx.type)
    name_expr = _arg_exprs(ctx)[0] if _arg_exprs(ctx) else None
    if not isinstance(proper, Instance) or not proper.args or not isinstance(name_expr, StrExpr):
        return unknown(ctx)
    static = static_of(proper.args[0])
    owner = get_proper_type(static.original)
    if not isinstance(owner, Instance) or not owner.type.has_base("pydantic.main.BaseModel"):
        # not a struct (a VARIANT, a string...): the runtime's entry refuses it, with its message
        return _catalog_hook(METHODS["struct.field"], method="struct.field")(ctx) if static.known else unknown(ctx)
    fields = {c.name: c.type for c in model_columns(owner.type)}
    found = fields.get(name_expr.value)
    if found is None:
        known = ", ".join(fields)
        ctx.api.fail(
            f'struct.field(): unknown field "{name_expr.value}"; fields: {known}', ctx.context, code=SPARK_TYPE
        )
        return expr_type(ctx.api, AnyType(TypeOfAny.from_error))
    value = make_simplified_union([found, NoneType()]) if static.nullable else found
    return expr_type(ctx.api, value)


# --- F functions ------------------------------------------------------------------------------


def _function(make: Callable[[list[Node | None]], Node | None]) -> Callable[[FunctionContext], Type]:
    def hook(ctx: FunctionContext) -> Type:
        def build() -> tuple[Node, Sequence[Node]] | None:
            args = []
            for t, e in zip(_arg_types(ctx), _arg_exprs(ctx), strict=False):
                # F.* functions take column names as strings, whose types only the frame knows
                args.append(None if isinstance(e, StrExpr) else operand(t, render_source(e), e))
            node = make(args)
            return None if node is None else (node, [a for a in args if a is not None])

        return _typed_or_any(ctx, build)

    return hook


def _all_known(make: Callable[[list[Node]], Node]) -> Callable[[list[Node | None]], Node | None]:
    def build(args: list[Node | None]) -> Node | None:
        known = [a for a in args if a is not None]
        return make(known) if args and len(known) == len(args) else None

    return build


def _lit(ctx: FunctionContext) -> Type:
    assert isinstance(ctx.api, TypeChecker)
    types = ctx.arg_types
    value_type = types[0][0] if types and types[0] else None
    dtype_type = types[1][0] if len(types) > 1 and types[1] else None
    if dtype_type is not None:
        target = dtype_of_type_argument(dtype_type)
        if target is None:
            return unknown(ctx)
        nullable = value_type is None or isinstance(get_proper_type(value_type), NoneType)
        return expr_type(ctx.api, mypy_type(ctx.api, target, nullable))
    if value_type is None:
        return unknown(ctx)
    if isinstance(get_proper_type(value_type), NoneType):  # typed by its context when the plan is built
        return expr_type(ctx.api, AnyType(TypeOfAny.special_form))
    static = static_of(value_type)
    if _not_a_literal(_arg_exprs(ctx)[0], value_type, static):
        shown = format_type(value_type, ctx.api.options)
        message = (
            f"cannot use a value of type {shown} as a literal; expected bool, int, float, str, bytes, Decimal, "
            "date, datetime or timedelta"
        )
        ctx.api.fail(message, ctx.context, code=SPARK_TYPE)
        return expr_type(ctx.api, AnyType(TypeOfAny.from_error))
    if static.dtype is None:
        return unknown(ctx)
    return expr_type(ctx.api, mypy_type(ctx.api, static.dtype, static.nullable))


def _not_a_literal(expr: Expression, t: Type, static: Static) -> bool:
    """Whether ``F.lit`` gets a value the runtime cannot make a literal of (a list, a model, ``object()``).

    Only a value of one class counts: a union, ``Any``, an abstract class or a
    protocol may hold a literal value, and so may a variable declared ``object``
    (but not ``object()`` itself).
    """
    proper = get_proper_type(t)
    if not isinstance(proper, Instance) or not (static.dtype is None or static.dtype.is_nested):
        return False
    info = proper.type
    made_here = isinstance(expr, CallExpr) and isinstance(expr.callee, RefExpr) and expr.callee.node is info
    return not (info.is_abstract or info.is_protocol or (info.fullname == "builtins.object" and not made_here))


WHEN_THEN = "pydantable_spark.expr.forms.WhenThen"


def _when_then(api: TypeChecker, values: Sequence[Node]) -> Type:
    """``WhenThen[B]`` where ``B`` is what the branch values have in common."""
    dtype = coercion.meeting_type(values, "when/otherwise")
    nullable = any(conditional.converted_nullable(v, dtype) for v in values)
    return instance_of(api, WHEN_THEN, [mypy_type(api, dtype, nullable, [_static(v) for v in values])])


def _static(node: Node) -> Static:
    return Static(node.type.dtype, node.type.nullable, AnyType(TypeOfAny.special_form))


def _branches(ctx: MethodContext) -> Column | None:
    """A placeholder standing for the values of the branches a ``WhenThen`` already has."""
    proper = get_proper_type(ctx.type)
    if not isinstance(proper, Instance) or not proper.args:
        return None
    static = static_of(proper.args[0])
    return None if static.dtype is None else Column("branch", Typed(static.dtype, static.nullable))


_CONDITION = Column("condition", Typed(dt.Boolean(), True))


def _when_start(ctx: FunctionContext) -> Type:
    assert isinstance(ctx.api, TypeChecker)
    types, exprs = _arg_types(ctx), _arg_exprs(ctx)
    condition, value = (operand(t, render_source(e), e) for t, e in zip(types, exprs, strict=False))
    if condition is None or value is None:
        return unknown(ctx)
    try:
        conditional.When((condition,), (value,))
        return _when_then(ctx.api, [value])
    except (ColumnTypeError, ArgumentError) as error:
        ctx.api.fail(str(error), ctx.context, code=SPARK_TYPE)
        return unknown(ctx)


def _when_more(ctx: MethodContext) -> Type:
    assert isinstance(ctx.api, TypeChecker)
    previous = _branches(ctx)
    types, exprs = _arg_types(ctx), _arg_exprs(ctx)
    condition, value = (operand(t, render_source(e), e) for t, e in zip(types, exprs, strict=False))
    if previous is None or condition is None or value is None:
        return unknown(ctx)
    try:
        conditional.When((_CONDITION, condition), (previous, value))
        return _when_then(ctx.api, [previous, value])
    except (ColumnTypeError, ArgumentError) as error:
        ctx.api.fail(str(error), ctx.context, code=SPARK_TYPE)
        return unknown(ctx)


def _otherwise(ctx: MethodContext) -> Type:
    def build() -> tuple[Node, Sequence[Node]] | None:
        previous = _branches(ctx)
        value = operand(_arg_types(ctx)[0], render_source(_arg_exprs(ctx)[0]), _arg_exprs(ctx)[0])
        if previous is None or value is None:
            return None
        if isinstance(value, Literal) and value.value is None:
            return conditional.When((_CONDITION,), (previous,)), (previous,)
        return conditional.When((_CONDITION,), (previous,), value), (previous, value)

    return _typed_or_any(ctx, build)


F = "pydantable_spark.functions"
FORMS = "pydantable_spark.expr.forms"  # the special forms

FUNCTION_HOOKS: dict[str, Callable[[FunctionContext], Type]] = {
    f"{FORMS}.lit": _lit,
    f"{FORMS}.when": _when_start,
    f"{FORMS}.coalesce": _function(_all_known(lambda a: conditional.Coalesce(tuple(a)))),
    **{f"{F}.{name}": _catalog_hook(entry, alias=name) for name, entry in CATALOG.items()},
}

E = "pydantable_spark.expr.api.Expr"
EXPRESSION_CLASSES = {E, "pydantable_spark.expr.api.Col", WHEN_THEN}


def _arithmetic(op: ArithmeticOp) -> Callable[[Node, Node], Node]:
    return lambda left, right: operators.Arithmetic(op, left, right)


METHOD_HOOKS: dict[str, Callable[[MethodContext], Type]] = {
    **{f"{E}.{m}": _binary(m, _arithmetic(op), reflected=False) for m, op in _ARITHMETIC.items()},
    **{f"{E}.__r{m[2:]}": _binary(m, _arithmetic(op), reflected=True) for m, op in _ARITHMETIC.items()},
    **{f"{E}.{m}": _binary(m, _comparison(op), reflected=False) for m, op in _COMPARISONS.items()},
    f"{E}.__pow__": _binary("__pow__", operators.Power, reflected=False),
    f"{E}.__rpow__": _binary("__pow__", operators.Power, reflected=True),
    f"{E}.__and__": _binary("__and__", operators.And, reflected=False),
    f"{E}.__rand__": _binary("__and__", operators.And, reflected=True),
    f"{E}.__or__": _binary("__or__", operators.Or, reflected=False),
    f"{E}.__ror__": _binary("__or__", operators.Or, reflected=True),
    f"{E}.__invert__": _unary(operators.Not),
    f"{E}.__neg__": _unary(operators.Negate),
    f"{E}.cast": _cast,
    f"{E}.is_in": _is_in,
    f"{E}.isin": _isin,
    f"{E}.between": _between,
    f"{E}.fill_null": _fill_null,
    f"{E}.when": _when_more,
    f"{E}.otherwise": _otherwise,
    **{_method_fullname(name): _catalog_hook(entry, method=name) for name, entry in METHODS.items()},
    f"{NAMESPACE_MODULE}.StructNamespace.field": struct_field,  # the field's own Python type, from the model
}
