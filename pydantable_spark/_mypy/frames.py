"""Typing of frames: model columns, and the row types of schema-changing transforms.

``select``, ``with_columns``, ``drop`` and ``rename`` change a frame's columns;
the plugin derives the output columns from the call as written (names from
string arguments, model columns, ``alias(...)``, keywords, and the leftmost
column of an expression, as the runtime names them) and synthesizes a row
class for them, e.g. ``Row[id: int, next: int | None]``, so that attribute
access on collected rows is checked. Where a name cannot be known statically
(an expression held in a variable, a mapping built at run time) the result is
``DataFrame[Any]``: unchecked, never wrong.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mypy.checker import TypeChecker
from mypy.messages import format_type_bare
from mypy.mro import calculate_mro
from mypy.nodes import (
    GDEF,
    MDEF,
    Block,
    CallExpr,
    ClassDef,
    ComparisonExpr,
    DictExpr,
    Expression,
    FloatExpr,
    IntExpr,
    ListExpr,
    MemberExpr,
    NameExpr,
    OpExpr,
    StrExpr,
    SymbolTable,
    SymbolTableNode,
    TupleExpr,
    TypeInfo,
    UnaryExpr,
    Var,
)
from mypy.types import AnyType, FunctionLike, Instance, NoneType, Type, TypeOfAny, TypeType, UnionType, get_proper_type

from pydantable_spark import dtypes as dt
from pydantable_spark._mypy.expressions import SPARK_TYPE
from pydantable_spark._mypy.statics import BASE_MODEL, COL, instance_of, mypy_type, static_of, static_of_expr
from pydantable_spark.errors import ReconciliationError
from pydantable_spark.model import attribute_name
from pydantable_spark.reconcile import reconcile
from pydantable_spark.schema import Schema

if TYPE_CHECKING:
    from collections.abc import Sequence

    from mypy.plugin import AttributeContext, MethodContext

__all__ = [
    "FRAME",
    "FRAME_HOOKS",
    "MODEL",
    "Output",
    "column_attribute",
    "frame_columns",
    "frame_of",
    "model_columns",
    "output_name",
    "row_instance",
    "value_type",
]

FRAME = "pydantable_spark.frame.DataFrame"
MODEL = "pydantable_spark.model.DataFrameModel"
_METADATA = "pydantable_spark"
_NOT_COLUMNS = {"model_config", "model_fields", "model_computed_fields"}


@dataclass(frozen=True, slots=True)
class Output:
    """One column of a frame as mypy sees it."""

    name: str
    type: Type


def model_columns(info: TypeInfo) -> list[Output]:
    """The columns of a model class (or of a synthesized row class), in order."""
    synthesized = info.metadata.get(_METADATA)
    if synthesized is not None:
        out = []
        for name, attribute in synthesized["columns"]:
            node = info.names[attribute].node
            assert isinstance(node, Var)
            assert node.type is not None
            out.append(Output(name, node.type))
        return out
    columns: dict[str, Output] = {}
    aliases = _pydantic_aliases(info)
    for base in reversed(info.mro):
        if base.fullname in (BASE_MODEL, MODEL, "builtins.object"):
            continue
        for name, symbol in base.names.items():
            node = symbol.node
            if not isinstance(node, Var) or node.is_classvar or node.type is None or node.is_inferred:
                continue
            if name.startswith("_") or name in _NOT_COLUMNS:
                continue
            columns[name] = Output(aliases.get(name, name), node.type)
    return list(columns.values())


def _pydantic_aliases(info: TypeInfo) -> dict[str, str]:
    """Field aliases, as pydantic's own mypy plugin records them (when it runs too)."""
    aliases: dict[str, str] = {}
    for base in reversed(info.mro):
        fields = base.metadata.get("pydantic-mypy-metadata", {}).get("fields", {})
        for name, data in fields.items():
            if isinstance(data, dict) and isinstance(data.get("alias"), str):
                aliases[name] = data["alias"]
    return aliases


def column_attribute(ctx: AttributeContext) -> Type:
    """``User.age`` (class access) is ``Col[int | None]`` when ``age: int | None``."""
    assert isinstance(ctx.api, TypeChecker)
    return instance_of(ctx.api, COL, [ctx.default_attr_type])


def is_column_of_model(info: TypeInfo, name: str) -> bool:
    """Whether ``name`` is a column field of a ``DataFrameModel`` subclass."""
    if not info.has_base(MODEL) or name.startswith("_") or name in _NOT_COLUMNS:
        return False
    symbol = info.get(name)
    node = symbol.node if symbol is not None else None
    return isinstance(node, Var) and not node.is_classvar and node.type is not None and not node.is_inferred


# --- the frame's current columns ------------------------------------------------------------------


def frame_columns(frame_type: Type) -> list[Output] | None:
    """The columns of ``DataFrame[M]``, or None when M is not known statically."""
    proper = get_proper_type(frame_type)
    if not isinstance(proper, Instance) or not proper.args:
        return None
    row = get_proper_type(proper.args[0])
    if not isinstance(row, Instance) or not row.type.has_base(BASE_MODEL):
        return None
    return model_columns(row.type)


def _normalized(api: TypeChecker, t: Type) -> Type:
    """A column's Python type as a derived row model has it (enums become their values' type)."""
    static = static_of(t)
    if static.dtype is None or isinstance(static.dtype, dt.Struct):
        return t
    return mypy_type(api, static.dtype, static.nullable)


# --- naming expressions as the runtime does -----------------------------------------------------

_FUNCTIONS_TAKING_NAMES = {"coalesce", "concat", "upper", "lower", "length", "year", "month", "dayofmonth", "day"}
_FUNCTIONS_TAKING_NAMES |= {"sum", "mean", "avg", "min", "max", "median", "std", "stddev", "var", "variance"}
_FUNCTIONS_TAKING_NAMES |= {"first", "last", "collect_list", "collect_set", "count_distinct", "countDistinct"}
_FUNCTIONS_TAKING_NAMES |= {"n_unique", "lag", "lead", "first_value", "last_value", "nth_value"}


_WINDOW_NAMES = {"row_number", "rank", "dense_rank", "percent_rank", "cume_dist"}


def _is_constant(expr: Expression) -> bool:
    if isinstance(expr, IntExpr | FloatExpr | StrExpr):
        return True
    if isinstance(expr, NameExpr) and expr.fullname in ("builtins.True", "builtins.False", "builtins.None"):
        return True
    return isinstance(expr, CallExpr) and _callee_name(expr) == "lit"


def _callee_name(call: CallExpr) -> str | None:
    callee = call.callee
    if isinstance(callee, MemberExpr | NameExpr):
        return callee.name
    return None


def output_name(expr: Expression) -> str | None:
    """The output column name the runtime gives ``expr``, or None when it cannot be known here."""
    if isinstance(expr, MemberExpr):
        return expr.name  # a model column, ``User.age``
    if isinstance(expr, OpExpr):
        return _first_name([expr.left, expr.right])
    if isinstance(expr, ComparisonExpr):
        return _first_name(expr.operands)
    if isinstance(expr, UnaryExpr):
        return output_name(expr.expr)
    if isinstance(expr, CallExpr):
        return _call_name(expr)
    return None


def _first_name(operands: Sequence[Expression]) -> str | None:
    for item in operands:
        if not _is_constant(item):
            return output_name(item)
    return "literal"


def _call_name(call: CallExpr) -> str | None:
    name = _callee_name(call)
    callee = call.callee
    if name == "alias":
        return call.args[0].value if call.args and isinstance(call.args[0], StrExpr) else None
    if name == "col":
        return call.args[0].value if call.args and isinstance(call.args[0], StrExpr) else None
    if name == "lit":
        return "literal"
    if name == "count" and not _is_method_of_expression(callee) if isinstance(callee, NameExpr | MemberExpr) else False:
        return "count" if not call.args else _first_name(call.args)
    if name in _WINDOW_NAMES and not call.args:
        return name
    if not isinstance(callee, NameExpr | MemberExpr):
        return None
    if name == "when" and not _is_method_of_expression(callee):
        return _first_name(call.args[1:2])  # F.when(condition, value): the first value names it
    if name in _FUNCTIONS_TAKING_NAMES and not _is_method_of_expression(callee):
        for arg in call.args:
            if isinstance(arg, StrExpr):
                return arg.value
            if not _is_constant(arg):
                return output_name(arg)
        return "literal"
    if name in ("date_add", "datediff") and call.args:
        return _first_name(call.args)
    if isinstance(callee, MemberExpr):  # a method: named after the expression it is called on
        owner = callee.expr
        if isinstance(owner, MemberExpr) and owner.name in ("str", "dt", "list", "map"):
            owner = owner.expr
        if isinstance(owner, MemberExpr) and owner.name == "struct" and name == "field":
            return call.args[0].value if call.args and isinstance(call.args[0], StrExpr) else None
        if isinstance(owner, MemberExpr) and owner.name == "struct":
            owner = owner.expr
        return output_name(owner)
    return None


def _is_method_of_expression(callee: NameExpr | MemberExpr) -> bool:
    """``F.upper(x)`` is a function; ``x.str.upper()`` and ``F.when(...).when(...)`` are methods."""
    if isinstance(callee, NameExpr):
        return False
    return not (isinstance(callee.expr, NameExpr) and callee.expr.name in ("F", "functions"))


# --- synthesized row classes ---------------------------------------------------------------------


def row_instance(api: TypeChecker, columns: Sequence[Output]) -> Instance:
    """An instance of a (cached) row class with exactly these columns."""
    shown = ", ".join(f"{c.name}: {format_type_bare(c.type, api.options)}" for c in columns)
    name = f"Row[{shown}]".replace(".", "_")
    module = api.tree
    existing = module.names.get(name)
    if existing is not None and isinstance(existing.node, TypeInfo):
        return Instance(existing.node, [])
    base = instance_of(api, MODEL, [])
    definition = ClassDef(name, Block([]))
    definition.fullname = f"{module.fullname}.{name}"
    info = TypeInfo(SymbolTable(), definition, module.fullname)
    definition.info = info
    info.bases = [base]
    calculate_mro(info)
    used: set[str] = set()
    recorded = []
    for column in columns:
        attribute = attribute_name(column.name, used)
        used.add(attribute)
        var = Var(attribute, column.type)
        var.info = info
        var._fullname = f"{info.fullname}.{attribute}"
        info.names[attribute] = SymbolTableNode(MDEF, var, plugin_generated=True)
        recorded.append([column.name, attribute])
    info.metadata[_METADATA] = {"columns": recorded}
    module.names[name] = SymbolTableNode(GDEF, info, plugin_generated=True)
    return Instance(info, [])


def frame_of(api: TypeChecker, columns: Sequence[Output] | None) -> Type:
    row: Type = AnyType(TypeOfAny.special_form) if columns is None else row_instance(api, columns)
    return instance_of(api, FRAME, [row])


# --- hooks -----------------------------------------------------------------------------------------


def _argument(ctx: MethodContext, name: str) -> int | None:
    """The index of the method's parameter called ``name``."""
    return ctx.callee_arg_names.index(name) if name in ctx.callee_arg_names else None


def _positional(ctx: MethodContext) -> list[Expression]:
    index = 0 if ctx.args else None
    items: list[Expression] = []
    for expr in ctx.args[index] if index is not None else []:
        items.extend(expr.items if isinstance(expr, ListExpr | TupleExpr) else [expr])
    return items


def _named(ctx: MethodContext) -> list[tuple[str, Expression]]:
    index = _argument(ctx, "named")
    if index is None:
        return []
    return [(name, expr) for name, expr in zip(ctx.arg_names[index], ctx.args[index], strict=True) if name]


def _excluded(ctx: MethodContext) -> list[Expression] | None:
    index = _argument(ctx, "exclude")
    if index is None or not ctx.args[index]:
        return None
    expr = ctx.args[index][0]
    return list(expr.items) if isinstance(expr, ListExpr | TupleExpr) else [expr]


def _unknown_column(ctx: MethodContext, name: str, columns: Sequence[Output], where: str) -> None:
    from pydantable_spark.errors import suggest

    names = [c.name for c in columns]
    message = f'unknown column "{name}" in {where}; existing columns: {", ".join(names)}{suggest(name, names)}'
    ctx.api.fail(message, ctx.context, code=SPARK_TYPE)


def _outputs(ctx: MethodContext, columns: list[Output] | None, what: str) -> list[Output] | None:
    """The columns an argument list of ``select`` / ``with_columns`` produces (None: unknown)."""
    assert isinstance(ctx.api, TypeChecker)
    api = ctx.api
    outputs: list[Output] = []
    known = True
    for expr in _positional(ctx):
        if isinstance(expr, StrExpr):
            found = next((c for c in columns or [] if c.name == expr.value), None)
            if columns is not None and found is None:
                _unknown_column(ctx, expr.value, columns, what)
                return None
            value = _normalized(api, found.type) if found else AnyType(TypeOfAny.special_form)
            outputs.append(Output(expr.value, value))
            continue
        name = output_name(expr)
        if name is None:
            known = False
            continue
        outputs.append(Output(name, value_type(api, expr, name, columns)))
    for name, expr in _named(ctx):
        outputs.append(Output(name, value_type(api, expr, name, columns)))
    return outputs if known else None


def value_type(api: TypeChecker, expr: Expression, name: str, columns: list[Output] | None) -> Type:
    """The Python type of an output column computed by ``expr``."""
    t = api.lookup_type(expr)
    static = static_of_expr(t)
    if static is None:  # a plain Python value: a literal column
        return _normalized(api, t)
    if static.dtype is None:  # Expr[Any]: F.col("x") takes the frame's type of x
        is_col = isinstance(expr, CallExpr) and _callee_name(expr) == "col"
        found = next((c for c in columns or [] if c.name == name), None) if is_col else None
        return _normalized(api, found.type) if found is not None else AnyType(TypeOfAny.special_form)
    if isinstance(static.dtype, dt.Struct):
        return UnionType.make_union([static.original, NoneType()]) if static.nullable else static.original
    return mypy_type(api, static.dtype, static.nullable)


def _duplicates(ctx: MethodContext, outputs: Sequence[Output], what: str) -> bool:
    seen: set[str] = set()
    for output in outputs:
        if output.name.lower() in seen:
            message = f'{what} produces two columns named "{output.name}"; give one another name with .alias()'
            ctx.api.fail(message, ctx.context, code=SPARK_TYPE)
            return True
        seen.add(output.name.lower())
    return False


def select(ctx: MethodContext) -> Type:
    """``select(...)``: exactly the given columns."""
    assert isinstance(ctx.api, TypeChecker)
    columns = frame_columns(ctx.type)
    outputs = _outputs(ctx, columns, "select()")
    excluded = _excluded(ctx)
    if excluded is not None:
        names = [e.value if isinstance(e, StrExpr) else e.name if isinstance(e, MemberExpr) else None for e in excluded]
        if None in names or columns is None:
            return frame_of(ctx.api, None)
        if not _positional(ctx) and not _named(ctx):
            outputs = [_as_output(ctx.api, c) for c in columns]
        outputs = None if outputs is None else [o for o in outputs if o.name not in names]
    if outputs is None or not outputs or _duplicates(ctx, outputs, "select()"):
        return frame_of(ctx.api, None)
    return frame_of(ctx.api, outputs)


def _as_output(api: TypeChecker, column: Output) -> Output:
    return Output(column.name, _normalized(api, column.type))


def with_columns(ctx: MethodContext) -> Type:
    """``with_columns(...)``: replaced columns keep their place, new ones are appended."""
    assert isinstance(ctx.api, TypeChecker)
    columns = frame_columns(ctx.type)
    added = _outputs(ctx, columns, "with_columns()")
    if columns is None or added is None or _duplicates(ctx, added, "with_columns()"):
        return frame_of(ctx.api, None)
    by_name = {c.name: c for c in added}
    merged = [by_name.pop(c.name, c) for c in columns]
    return frame_of(ctx.api, [*merged, *by_name.values()])


def drop(ctx: MethodContext) -> Type:
    """``drop(...)``: every column but the named ones."""
    assert isinstance(ctx.api, TypeChecker)
    columns = frame_columns(ctx.type)
    names = []
    for expr in _positional(ctx):
        name = expr.value if isinstance(expr, StrExpr) else expr.name if isinstance(expr, MemberExpr) else None
        if name is None:
            return frame_of(ctx.api, None)
        names.append(name)
    if columns is None:
        return frame_of(ctx.api, None)
    for name in names:
        if all(c.name != name for c in columns):
            _unknown_column(ctx, name, columns, "drop()")
            return frame_of(ctx.api, None)
    return frame_of(ctx.api, [c for c in columns if c.name not in names])


def rename(ctx: MethodContext) -> Type:
    """``rename({"old": "new"})`` with a literal mapping."""
    assert isinstance(ctx.api, TypeChecker)
    columns = frame_columns(ctx.type)
    mapping = ctx.args[0][0] if ctx.args and ctx.args[0] else None
    if columns is None or not isinstance(mapping, DictExpr):
        return frame_of(ctx.api, None)
    renames = {}
    for key, value in mapping.items:
        if not isinstance(key, StrExpr) or not isinstance(value, StrExpr):
            return frame_of(ctx.api, None)
        if all(c.name != key.value for c in columns):
            _unknown_column(ctx, key.value, columns, "rename()")
            return frame_of(ctx.api, None)
        renames[key.value] = value.value
    outputs = [Output(renames.get(c.name, c.name), c.type) for c in columns]
    if _duplicates(ctx, outputs, "rename()"):
        return frame_of(ctx.api, None)
    return frame_of(ctx.api, outputs)


def as_model(ctx: MethodContext) -> Type:
    """``as_model(Out)``: Out's columns must reconcile with the frame's, by the runtime's rules."""
    assert isinstance(ctx.api, TypeChecker)
    columns = frame_columns(ctx.type)
    target = get_proper_type(ctx.arg_types[0][0]) if ctx.arg_types and ctx.arg_types[0] else None
    item: Type | None = None
    if isinstance(target, TypeType):
        item = get_proper_type(target.item)
    elif isinstance(target, FunctionLike) and target.is_type_obj():
        item = Instance(target.type_object(), [])
    if columns is None or not isinstance(item, Instance) or not item.type.has_base(BASE_MODEL):
        return ctx.default_return_type
    source = []
    for column in columns:
        static = static_of(column.type)
        if static.dtype is None:
            return ctx.default_return_type
        source.append(dt.Field(column.name, static.dtype, static.nullable))
    wanted = []
    for column in model_columns(item.type):
        static = static_of(column.type)
        if static.dtype is None:
            return ctx.default_return_type
        wanted.append(dt.Field(column.name, static.dtype, static.nullable))
    try:
        reconcile(source, Schema(tuple(wanted)))
    except ReconciliationError as error:
        for problem in error.problems:
            message = f"as_model({item.type.name}): {problem}"
            ctx.api.fail(message, ctx.context, code=SPARK_TYPE)
    return ctx.default_return_type


FRAME_HOOKS = {
    f"{FRAME}.select": select,
    f"{FRAME}.with_columns": with_columns,
    f"{FRAME}.drop": drop,
    f"{FRAME}.rename": rename,
    f"{FRAME}.as_model": as_model,
}
