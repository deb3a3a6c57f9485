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

from typing import TYPE_CHECKING

from mypy.checker import TypeChecker
from mypy.maptype import map_instance_to_supertype
from mypy.messages import format_type_bare
from mypy.mro import calculate_mro
from mypy.nodes import (
    ARG_POS,
    GDEF,
    MDEF,
    Block,
    CallExpr,
    ClassDef,
    ComparisonExpr,
    DictExpr,
    Expression,
    FloatExpr,
    GeneratorExpr,
    IntExpr,
    ListComprehension,
    ListExpr,
    MemberExpr,
    NameExpr,
    OpExpr,
    SetExpr,
    StrExpr,
    SymbolTable,
    SymbolTableNode,
    TupleExpr,
    TypeInfo,
    UnaryExpr,
    Var,
)
from mypy.subtypes import is_same_type
from mypy.types import AnyType, FunctionLike, Instance, NoneType, Type, TypeOfAny, TypeType, UnionType, get_proper_type
from mypy.typestate import type_state

from pydantable_spark import dtypes as dt
from pydantable_spark._mypy.expressions import SPARK_TYPE
from pydantable_spark._mypy.ir import value_of
from pydantable_spark._mypy.models import (
    BASE_MODEL,
    METADATA,
    MODEL,
    Output,
    column_name,
    is_column_of_model,
    model_columns,
)
from pydantable_spark._mypy.statics import instance_of, is_literal, mypy_type, static_of, value_of_expr
from pydantable_spark.errors import PydantableSparkError, ReconciliationError, UnknownColumnError
from pydantable_spark.expr.api import Expr
from pydantable_spark.expr.call import param_of
from pydantable_spark.expr.catalog import CATALOG, Function
from pydantable_spark.expr.core import bind
from pydantable_spark.model import attribute_name
from pydantable_spark.reconcile import Selection, reconcile
from pydantable_spark.schema import Schema

if TYPE_CHECKING:
    from collections.abc import Sequence

    from mypy.plugin import MethodContext, MethodSigContext
    from mypy.types import CallableType

__all__ = [
    "FRAME",
    "FRAME_HOOKS",
    "FRAME_MIXINS",
    "MODEL",
    "Output",
    "as_frame",
    "frame_columns",
    "frame_of",
    "is_column_of_model",
    "is_derived_frame",
    "keep",
    "model_columns",
    "named_as_frame",
    "output_name",
    "row_instance",
    "value_type",
]

FRAME = "pydantable_spark.frame.DataFrame"
FRAME_MIXINS = frozenset(
    {
        "pydantable_spark.constructors.Constructors",
        "pydantable_spark.results.Results",
        "pydantable_spark.streaming.frames.Streams",
        "pydantable_spark.writers.Writers",
    }
)
"""The classes ``DataFrame`` takes its constructors, results and writers from."""


# --- the frame's current columns ------------------------------------------------------------------


def as_frame(t: Type) -> Instance | None:
    """``t`` as ``DataFrame[...]`` (a derived frame's class is a subclass of one), or None."""
    proper = get_proper_type(t)
    if not isinstance(proper, Instance) or not proper.type.has_base(FRAME):
        return None
    frame = next(base for base in proper.type.mro if base.fullname == FRAME)
    return map_instance_to_supertype(proper, frame)


def frame_columns(frame_type: Type) -> list[Output] | None:
    """The columns of ``DataFrame[M]``, or None when M is not known statically."""
    frame = as_frame(frame_type)
    if frame is None or not frame.args:
        return None
    row = get_proper_type(frame.args[0])
    if not isinstance(row, Instance) or not row.type.has_base(BASE_MODEL):
        return None
    return model_columns(row.type)


def row_type(api: TypeChecker, t: Type) -> Type:
    """A column's Python type as a derived row model has it.

    As in the runtime's derived row models, an enum becomes its values' type
    and a tuple or set a list; a nested model stays itself, and a ``Literal``
    stays a ``Literal`` (its values are those strings or numbers either way).
    """
    static = static_of(t)
    original = get_proper_type(static.original)
    if static.dtype is None or isinstance(static.dtype, dt.Struct) or is_literal(t):
        return t
    if isinstance(static.dtype, dt.List | dt.Map) and isinstance(original, Instance) and original.args:
        inner = row_type(api, original.args[-1])  # the element, or the map's value
        key = [api.named_generic_type("builtins.str", [])] if isinstance(static.dtype, dt.Map) else []
        container = api.named_generic_type("builtins.dict" if key else "builtins.list", [*key, inner])
        return UnionType.make_union([container, NoneType()]) if static.nullable else container
    return mypy_type(api, static.dtype, static.nullable)


# --- naming expressions as the runtime does -----------------------------------------------------


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
        return column_name(expr)  # a model column, ``User.age``: its alias when it has one
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
    if not isinstance(callee, NameExpr | MemberExpr):
        return None
    if name == "when" and not _is_method_of_expression(callee):
        return _first_name(call.args[1:2])  # F.when(condition, value): the first value names it
    if name in CATALOG and not _is_method_of_expression(callee):
        return _catalog_call_name(CATALOG[name], call)
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


def _catalog_call_name(function: Function, call: CallExpr) -> str | None:
    """The runtime's rule (``Call.output_name``) on the written arguments: the first one that is no constant.

    A ``str`` names a column where the parameter takes names; an entry naming its
    result its own way (``Rules.output``) is not known here.
    """
    params = function.signature.params
    if function.rules.output is not None or any(kind != ARG_POS for kind in call.arg_kinds):
        return None  # named or unpacked arguments: their order is not the parameters'
    for index, arg in enumerate(call.args):
        if index >= len(params) and not (params and params[-1].variadic):
            return None  # too many arguments: mypy reports it
        param = param_of(function, index)
        if isinstance(arg, StrExpr) and param.accepts is not None and param.names:
            return arg.value
        if not _is_constant(arg):
            return output_name(arg)
    return function.name


def _is_method_of_expression(callee: NameExpr | MemberExpr) -> bool:
    """``F.upper(x)`` is a function; ``x.str.upper()`` and ``F.when(...).when(...)`` are methods."""
    if isinstance(callee, NameExpr):
        return False
    return not (isinstance(callee.expr, NameExpr) and callee.expr.name in ("F", "functions"))


# --- synthesized row and frame classes ------------------------------------------------------------


def _synthesized(api: TypeChecker, name: str, base: Instance) -> tuple[TypeInfo, bool]:
    """The class ``name`` of the module being checked, made once (and whether it was made now)."""
    module = api.tree
    existing = module.names.get(name)
    if existing is not None and isinstance(existing.node, TypeInfo):
        return existing.node, False
    definition = ClassDef(name, Block([]))
    definition.fullname = f"{module.fullname}.{name}"
    info = TypeInfo(SymbolTable(), definition, module.fullname)
    definition.info = info
    info.bases = [base]
    calculate_mro(info)
    module.names[name] = SymbolTableNode(GDEF, info, plugin_generated=True)
    return info, True


def row_instance(api: TypeChecker, columns: Sequence[Output]) -> Instance:
    """An instance of a (cached) row class with exactly these columns."""
    columns = [Output(c.name, row_type(api, c.type)) for c in columns]
    shown = ", ".join(f"{c.name}: {format_type_bare(c.type, api.options)}" for c in columns)
    info, new = _synthesized(api, f"Row[{shown}]".replace(".", "_"), instance_of(api, MODEL, []))
    if new:
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
        info.metadata[METADATA] = {"columns": recorded}
    return Instance(info, [])


# A derived frame rebinds the variable it came from: ``lines = lines.with_columns(margin=...)``,
# where mypy inferred ``lines: DataFrame[Line]`` from its first value. So a derived frame is an
# instance of a synthesized subclass of ``DataFrame[Row[...]]`` that mypy *promotes* to the frames
# it was derived from (the mechanism that lets an ``int`` stand where a ``float`` is expected): it
# may be assigned to the variable, and after the assignment mypy narrows the variable to it, so the
# new columns are the ones checked from there on.


def frame_of(api: TypeChecker, columns: Sequence[Output] | None, source: Type | None = None) -> Type:
    """The type of a frame with these columns, derived from a frame of type ``source``.

    Unknown columns give ``DataFrame[Any]`` (a derived one, shown the same,
    when ``source`` is a derived frame, so that it may rebind its variable);
    the source's own columns give the source's type (the runtime keeps the
    frame's model when its schema is unchanged); other columns a derived frame
    accepted where ``source`` is.
    """
    proper = get_proper_type(source) if source is not None else None
    items = [get_proper_type(item) for item in (proper.items if isinstance(proper, UnionType) else [proper])]
    sources = [item for item in items if isinstance(item, Instance) and item.type.has_base(FRAME)]
    if columns is None:
        unknown = AnyType(TypeOfAny.special_form)
        if not any(is_derived_frame(s.type) for s in sources):
            return instance_of(api, FRAME, [unknown])
        info = _derived_class(api, unknown, sources)
        for item in sources:
            _accept_where(info, item)
        return Instance(info, [])
    own = frame_columns(source) if source is not None else None
    if source is not None and own is not None and _same_schema(own, columns):
        return source
    row = row_instance(api, columns)
    info = _derived_class(api, row, sources)
    for item in sources:
        _accept_where(info, item)
    return Instance(info, [])


def _derived_class(api: TypeChecker, row: Instance | AnyType, sources: list[Instance]) -> TypeInfo:
    """The class of derived frames of ``row`` that may stand where ``sources`` are expected.

    One class per row and module, unless frames of that class already stand
    for one of ``sources`` (``b = a.with_columns(t=...)`` then ``b = b.drop("t")``):
    promotions must not form a cycle (mypy follows them without a guard), so a
    variant is made. Not inside a loop, whose body mypy checks again until the
    types stop changing: there the promotion is left out, and such an assignment
    is reported.
    """
    shown = row.type.name if isinstance(row, Instance) else "Any"
    name, frame = f"DataFrame[{shown}]", instance_of(api, FRAME, [row])
    info, _ = _synthesized(api, name, frame)
    variant = 1
    while not all(_may_stand_for(info, s) for s in sources) and not api.binder.break_frames:
        variant += 1
        info, _ = _synthesized(api, f"{name} #{variant}", frame)
    info.metadata[METADATA] = {"derived_frame": True}
    return info


def is_derived_frame(info: TypeInfo) -> bool:
    """Whether ``info`` is a derived frame's synthesized class."""
    return bool(info.metadata.get(METADATA, {}).get("derived_frame"))


def _same_schema(a: Sequence[Output], b: Sequence[Output]) -> bool:
    if [c.name for c in a] != [c.name for c in b]:
        return False
    statics = [(static_of(x.type), static_of(y.type)) for x, y in zip(a, b, strict=True)]
    return all(x.known and (x.dtype, x.nullable) == (y.dtype, y.nullable) for x, y in statics)


def _stands_for(info: TypeInfo, target: Instance) -> bool:
    return target.type is info or any(is_same_type(target, p) for p in info._promote)


def _may_stand_for(info: TypeInfo, target: Instance) -> bool:
    """Whether frames of ``info`` stand, or may be made to stand, where ``target`` is expected."""
    return _stands_for(info, target) or not _promotes(target.type, info)


def _accept_where(info: TypeInfo, target: Instance) -> None:
    """Let frames of ``info`` stand where ``target`` is expected (a promotion, unless it would make a cycle)."""
    if _stands_for(info, target) or _promotes(target.type, info):
        return
    info._promote.append(target)
    for checked in _promotion_closure(target.type):  # subtype checks cached before are stale now
        type_state.reset_all_subtype_caches_for(checked)


def _promotes(start: TypeInfo, goal: TypeInfo) -> bool:
    return any(info is goal for info in _promotion_closure(start))


def _promotion_closure(start: TypeInfo) -> list[TypeInfo]:
    """``start`` and every class its instances are promoted to, transitively."""
    seen: list[TypeInfo] = []
    stack = [start]
    while stack:
        info = stack.pop()
        if all(info is not s for s in seen):
            seen.append(info)
            stack.extend(p.type for p in info._promote if isinstance(p, Instance))
    return seen


def keep(ctx: MethodContext) -> Type:
    """A method returning the frame's own type (``filter``, ``sort``, ...) keeps a derived frame's type."""
    frame = as_frame(ctx.type)
    if frame is not None and is_same_type(ctx.default_return_type, frame):
        return ctx.type
    return ctx.default_return_type


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


def _written_name(expr: Expression) -> str | None:
    """The column named by ``"name"`` or ``Model.attribute``."""
    if isinstance(expr, StrExpr):
        return expr.value
    return column_name(expr) if isinstance(expr, MemberExpr) else None


def _unknown_column(ctx: MethodContext, name: str, columns: Sequence[Output], where: str) -> None:
    """The runtime's message for an unknown name (where the runtime's check could not run: see ``checks``)."""
    error = UnknownColumnError(name, [c.name for c in columns], where=where)
    ctx.api.fail(str(error), ctx.context, code=SPARK_TYPE)


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
            value = found.type if found else AnyType(TypeOfAny.special_form)
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


def value_type(
    api: TypeChecker, expr: Expression, name: str, columns: list[Output] | None, *, on: list[Output] | None = None
) -> Type:
    """The Python type of an output column computed by ``expr`` (``row_type`` makes it a row's).

    ``columns``: the frame's, where ``F.col("x")`` takes the type of ``x``; ``on``:
    the frame the expression is evaluated on, when ``columns`` is not given (``agg``).
    """
    t = api.lookup_type(expr)
    value = value_of_expr(t)
    if value is None:  # a plain Python value: a literal column
        return t
    if static_of(value).dtype is None:  # Expr[Any]: F.col("x") takes the frame's type of x
        is_col = isinstance(expr, CallExpr) and _callee_name(expr) == "col"
        found = next((c for c in columns or [] if c.name == name), None) if is_col else None
        return found.type if found is not None else AnyType(TypeOfAny.special_form)
    return _on_frame(api, expr, name, value, columns if columns is not None else on)


def _on_frame(api: TypeChecker, expr: Expression, name: str, value: Type, columns: list[Output] | None) -> Type:
    """``value``, the type of ``expr`` on its own, with the nullability ``expr`` has on the frame's columns.

    A model attribute is the frame's column of its name, with the frame's
    nullability (``Dept.budget`` after a left join is ``float | None``), and
    the runtime derives an expression's type on the frame: so does this, where
    the plugin has the expression's value (an expression held in a parameter
    is opaque, of its declared type).
    """
    from pydantable_spark._mypy.relational import python_type

    static = static_of(value)
    found = value_of(api, expr) if columns else None
    if static.dtype is None or found is None or not isinstance(found.value, Expr):
        return value
    fields = []
    for column in columns or []:
        known = static_of(column.type)
        if known.dtype is None:
            return value
        fields.append(dt.Field(column.name, known.dtype, known.nullable))
    try:
        typed = bind(found.value.node, Schema(tuple(fields))).typed
    except PydantableSparkError:
        return value
    if typed is None or typed.dtype != static.dtype or typed.nullable == static.nullable:
        return value
    return python_type(api, dt.Field(name, typed.dtype, typed.nullable), value)


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
        names = [_written_name(e) for e in excluded]
        if None in names or columns is None:
            return frame_of(ctx.api, None, ctx.type)
        if not _positional(ctx) and not _named(ctx):
            outputs = list(columns)
        outputs = None if outputs is None else [o for o in outputs if o.name not in names]
    if outputs is None or not outputs or _duplicates(ctx, outputs, "select()"):
        return frame_of(ctx.api, None, ctx.type)
    return frame_of(ctx.api, outputs, ctx.type)


def with_columns(ctx: MethodContext) -> Type:
    """``with_columns(...)``: replaced columns keep their place, new ones are appended."""
    assert isinstance(ctx.api, TypeChecker)
    columns = frame_columns(ctx.type)
    added = _outputs(ctx, columns, "with_columns()")
    if columns is None or added is None or _duplicates(ctx, added, "with_columns()"):
        return frame_of(ctx.api, None, ctx.type)
    by_name = {c.name: c for c in added}
    merged = [by_name.pop(c.name, c) for c in columns]
    return frame_of(ctx.api, [*merged, *by_name.values()], ctx.type)


def drop(ctx: MethodContext) -> Type:
    """``drop(...)``: every column but the named ones."""
    assert isinstance(ctx.api, TypeChecker)
    columns = frame_columns(ctx.type)
    names = []
    for expr in _positional(ctx):
        name = _written_name(expr)
        if name is None:
            return frame_of(ctx.api, None, ctx.type)
        names.append(name)
    if columns is None:
        return frame_of(ctx.api, None, ctx.type)
    for name in names:
        if all(c.name != name for c in columns):
            _unknown_column(ctx, name, columns, "drop()")
            return frame_of(ctx.api, None, ctx.type)
    return frame_of(ctx.api, [c for c in columns if c.name not in names], ctx.type)


def rename(ctx: MethodContext) -> Type:
    """``rename({"old": "new"})`` with a literal mapping."""
    assert isinstance(ctx.api, TypeChecker)
    columns = frame_columns(ctx.type)
    mapping = ctx.args[0][0] if ctx.args and ctx.args[0] else None
    if columns is None or not isinstance(mapping, DictExpr):
        return frame_of(ctx.api, None, ctx.type)
    renames = {}
    for key, value in mapping.items:
        if not isinstance(key, StrExpr) or not isinstance(value, StrExpr):
            return frame_of(ctx.api, None, ctx.type)
        if all(c.name != key.value for c in columns):
            _unknown_column(ctx, key.value, columns, "rename()")
            return frame_of(ctx.api, None, ctx.type)
        renames[key.value] = value.value
    outputs = [Output(renames.get(c.name, c.name), c.type) for c in columns]
    if _duplicates(ctx, outputs, "rename()"):
        return frame_of(ctx.api, None, ctx.type)
    return frame_of(ctx.api, outputs, ctx.type)


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
    allow_lossy, null_check = _selection(ctx, "allow_lossy"), _selection(ctx, "null_check")
    try:
        reconcile(source, Schema(tuple(wanted)), allow_lossy=allow_lossy, null_check=null_check)
    except ReconciliationError as error:
        for problem in error.problems:
            message = f"as_model({item.type.name}): {problem}"
            ctx.api.fail(message, ctx.context, code=SPARK_TYPE)
    except ValueError as error:  # an option names a field the model does not have
        ctx.api.fail(f"as_model({item.type.name}): {error}", ctx.context, code=SPARK_TYPE)
    return ctx.default_return_type


def _selection(ctx: MethodContext, parameter: str) -> Selection:
    """The value of ``as_model``'s option ``parameter`` (``null_check=["ended"]``): ``False`` when not given.

    An option whose value the plugin cannot read stands for ``True``, which
    excuses every field: only what no value of the option would excuse is reported.
    """
    assert isinstance(ctx.api, TypeChecker)
    if parameter not in ctx.callee_arg_names:
        return True
    given = ctx.args[ctx.callee_arg_names.index(parameter)]
    if not given:
        return False
    found = value_of(ctx.api, given[0])
    value = None if found is None or not found.exact else found.value
    if isinstance(value, bool) or (isinstance(value, list | tuple | set) and all(isinstance(v, str) for v in value)):
        return value
    return True


FRAME_HOOKS = {
    f"{FRAME}.select": select,
    f"{FRAME}.with_columns": with_columns,
    f"{FRAME}.drop": drop,
    f"{FRAME}.rename": rename,
    f"{FRAME}.as_model": as_model,
}


def named_as_frame(ctx: MethodSigContext) -> CallableType:
    """A frame method's signature, named as ``DataFrame``'s even where a mixin defines it.

    mypy names a method after the class that defines it (``"collect" of "Results"``);
    the user called it on a frame, and the messages say so (``"collect" of "DataFrame"``).
    """
    signature = ctx.default_signature
    method, _, owner = (signature.name or "").rpartition(" of ")
    if method and owner in _MIXIN_NAMES:
        return signature.copy_modified(name=f"{method} of DataFrame")
    return signature


_MIXIN_NAMES = frozenset(name.rpartition(".")[2] for name in FRAME_MIXINS)


def from_rows(ctx: MethodContext) -> Type:
    """``Model.from_rows(rows)``: rows that are instances of another model are refused, as pydantic refuses them.

    (A model that sets its own ``model_config`` may accept them, ``from_attributes``
    for one; then nothing is reported.)
    """
    assert isinstance(ctx.api, TypeChecker)
    frame = as_frame(ctx.default_return_type)
    target = get_proper_type(frame.args[0]) if frame is not None and frame.args else None
    rows = ctx.args[0][0] if ctx.args and ctx.args[0] else None
    if not isinstance(target, Instance) or rows is None:
        return ctx.default_return_type
    configured = any("model_config" in base.names for base in target.type.mro if base.fullname not in _BASES)
    for element in _row_types(ctx.api, rows):
        if element.type.has_base(BASE_MODEL) and not element.type.has_base(target.type.fullname) and not configured:
            name = target.type.name
            message = f"from_rows(): rows of {element.type.name} are not rows for {name}: "
            message += f"Input should be a valid dictionary or instance of {name}"
            ctx.api.fail(message, ctx.context, code=SPARK_TYPE)
            break
    return ctx.default_return_type


def _row_types(api: TypeChecker, rows: Expression) -> list[Instance]:
    """The types of the rows ``rows`` holds, as written (mypy types the argument as the parameter's type)."""
    if isinstance(rows, ListExpr | TupleExpr | SetExpr):
        found = [api.lookup_type_or_none(item) for item in rows.items]
    elif isinstance(rows, ListComprehension | GeneratorExpr):
        generator = rows.generator if isinstance(rows, ListComprehension) else rows
        found = [api.lookup_type_or_none(generator.left_expr)]
    else:
        whole = get_proper_type(api.lookup_type_or_none(rows))
        iterable = api.named_generic_type("typing.Iterable", [AnyType(TypeOfAny.special_form)]).type
        if not isinstance(whole, Instance) or not whole.type.has_base(iterable.fullname):
            return []
        found = [map_instance_to_supertype(whole, iterable).args[0]]
    proper = [get_proper_type(t) for t in found if t is not None]
    return [t for t in proper if isinstance(t, Instance)]


_BASES = {BASE_MODEL, MODEL, "builtins.object"}
