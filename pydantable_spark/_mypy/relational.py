"""Typing of joins and aggregations, by the runtime's own plan nodes.

The frames' static columns become placeholder ``Source`` plans; the hook builds
the ``Join`` the runtime would build (or computes the group keys as
``Aggregate`` does) and reads the output schema back as a row type. Right-side
columns thus become Optional in a left join, key columns are de-duplicated,
colliding names get the suffix, exactly as at run time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mypy.checker import TypeChecker
from mypy.nodes import CallExpr, Expression, ListExpr, MemberExpr, NameExpr, StrExpr, TupleExpr
from mypy.types import AnyType, Instance, NoneType, Type, TypeOfAny, UnionType, get_proper_type

from pydantable_spark import dtypes as dt
from pydantable_spark._mypy.expressions import SPARK_TYPE
from pydantable_spark._mypy.frames import (
    Output,
    frame_columns,
    frame_of,
    model_columns,
    output_name,
    row_instance,
    value_type,
)
from pydantable_spark._mypy.merge import evaluate_side_column
from pydantable_spark._mypy.models import column_name
from pydantable_spark._mypy.replay import names_unknown, schema_of, unknown_columns
from pydantable_spark._mypy.statics import instance_of, mypy_type, static_of
from pydantable_spark.errors import ArgumentError, SchemaError, UnknownColumnError
from pydantable_spark.expr.core import Column, Literal, Node, Typed
from pydantable_spark.plan import nodes as p
from pydantable_spark.plan.aggregate import narrowable
from pydantable_spark.plan.joins import HOW_ALIASES, HOWS, Join

if TYPE_CHECKING:
    from mypy.plugin import MethodContext

__all__ = ["JOIN_SIDE", "agg", "group_by", "grouped_frame", "join", "join_side_column", "note_null_keys", "python_type"]

GROUP_BY = "pydantable_spark.groupby.GroupBy"
JOIN_SIDE = "pydantable_spark.expr.sides.JoinSide"
_JOIN_SIDES = frozenset({"pydantable_spark.expr.sides.left", "pydantable_spark.expr.sides.right"})


def join_side_column(ctx: MethodContext) -> None:
    """``left.col("x")``: the runtime's side column, when the receiver is the runtime's ``left`` or ``right``.

    A join condition holding it is then bound and checked by the runtime's join
    (``_mypy.replay``): the column's name on its side, its type in the condition.
    """
    evaluate_side_column(ctx, "pydantable_spark.expr.sides", _JOIN_SIDES)


def _argument(ctx: MethodContext, name: str) -> Expression | None:
    if name not in ctx.callee_arg_names:
        return None
    group = ctx.args[ctx.callee_arg_names.index(name)]
    return group[0] if group else None


def _names(expr: Expression | None) -> list[str] | None:
    """Literal column names: ``"a"``, ``User.a``, or a list of those (None otherwise)."""
    if expr is None:
        return []
    items = expr.items if isinstance(expr, ListExpr | TupleExpr) else [expr]
    names = []
    for item in items:
        if isinstance(item, StrExpr):
            names.append(item.value)
        elif isinstance(item, MemberExpr) and not isinstance(item.expr, CallExpr):
            names.append(column_name(item))
        else:
            return None
    return names


def _on_names(api: TypeChecker, expr: Expression | None) -> list[str] | None:
    """``on=``'s key names, as ``_names``; its conditions (expressions that are not a column) are left out.

    A condition changes which rows match, never the columns (``plan.joins``);
    the runtime's check (``_mypy.replay``) binds and checks it.
    """
    items = expr.items if isinstance(expr, ListExpr | TupleExpr) else [] if expr is None else [expr]
    return _names(ListExpr([item for item in items if not _is_condition(api, item)]))


def _is_condition(api: TypeChecker, expr: Expression) -> bool:
    """Whether ``expr`` is an expression but not a column (``Expr``, not ``Col``): a join condition."""
    if isinstance(expr, StrExpr | MemberExpr):
        return False
    found = api.lookup_type_or_none(expr)
    proper = get_proper_type(found) if found is not None else None
    return isinstance(proper, Instance) and proper.type.has_base(_EXPR) and not proper.type.has_base(_COL)


_EXPR = "pydantable_spark.expr.api.Expr"
_COL = "pydantable_spark.expr.api.Col"


def _literal(expr: Expression | None, default: str) -> str | None:
    if expr is None:
        return default
    return expr.value if isinstance(expr, StrExpr) else None


def _placeholder(columns: list[Output]) -> tuple[p.Source, dict[str, Type]] | None:
    """A plan standing for a frame with these static columns, and the columns' original types."""
    schema = schema_of(columns)
    if not schema.fields:  # a field-less model: the runtime refuses it as a frame's model
        return None
    return p.Source(None, schema), {c.name: c.type for c in columns}


def python_type(api: TypeChecker, field: dt.Field, original: Type | None) -> Type:
    """A field's Python type: its column's own type when the join kept the type (nullability aside)."""
    if original is not None and static_of(original).dtype == field.dtype:
        kept = _without_none(original)
        return UnionType.make_union([kept, NoneType()]) if field.nullable else kept
    return mypy_type(api, field.dtype, field.nullable)


def join(ctx: MethodContext) -> Type:
    """``join(other, on=... | left_on=/right_on=, how=..., suffix=..., coalesce=...)``; conditions keep the columns."""
    assert isinstance(ctx.api, TypeChecker)
    left_columns = frame_columns(ctx.type)
    right_type = ctx.arg_types[0][0] if ctx.arg_types and ctx.arg_types[0] else None
    right_columns = frame_columns(right_type) if right_type is not None else None
    how = _literal(_argument(ctx, "how"), "inner")
    suffix = _literal(_argument(ctx, "suffix"), "_right")
    if left_columns is None or right_columns is None or how is None or suffix is None:
        return frame_of(ctx.api, None, ctx.type)
    how = HOW_ALIASES.get(how, how)
    left, right = _placeholder(left_columns), _placeholder(right_columns)
    on_argument = _argument(ctx, "on")
    on = _on_names(ctx.api, on_argument)
    items = on_argument.items if isinstance(on_argument, ListExpr | TupleExpr) else [on_argument]
    # the conditions themselves are checked by the runtime's join (``_mypy.replay``); they keep the columns
    conditions = (
        (Literal(True, dt.Boolean()),) if any(i is not None and _is_condition(ctx.api, i) for i in items) else ()
    )
    left_on, right_on = (_names(_argument(ctx, n)) for n in ("left_on", "right_on"))
    if left is None or right is None or on is None or left_on is None or right_on is None or how not in HOWS:
        return frame_of(ctx.api, None, ctx.type)
    coalesce = _argument(ctx, "coalesce")
    merge = bool(on) or (isinstance(coalesce, NameExpr) and coalesce.fullname == "builtins.True")
    left_keys, right_keys = (on, on) if on else (left_on, right_on)
    try:
        plan = Join(
            left[0],
            right[0],
            how,  # type: ignore[arg-type]
            tuple(_key(left[0], k, "the left frame") for k in left_keys),
            tuple(_key(right[0], k, "the right frame") for k in right_keys),
            merge,
            suffix,
            conditions=conditions,
        )
        outputs = plan.outputs()
    except (SchemaError, ArgumentError) as error:
        unknown = unknown_columns(left[0].schema) | unknown_columns(right[0].schema)
        if not names_unknown(error, unknown):  # else the stand-in type of a column not known may be why
            ctx.api.fail(f"join(): {error}", ctx.context, code=SPARK_TYPE)
        return frame_of(ctx.api, None, ctx.type)
    typed = []
    for output in outputs:
        original = left[1].get(output.left) if output.left else right[1].get(output.right or "")
        typed.append(Output(output.field.name, python_type(ctx.api, output.field, original)))
    return frame_of(ctx.api, typed, ctx.type)


def _key(plan: p.Source, name: str, where: str) -> Node:
    found = plan.schema.get(name)
    if found is None:
        raise UnknownColumnError(name, plan.schema.names, where=where)
    return Column(name, Typed(found.dtype, found.nullable))


def group_by(ctx: MethodContext) -> Type:
    """``group_by(keys...)`` is ``GroupBy[Row[<keys>]]``: the key columns, narrowed as the runtime narrows them."""
    assert isinstance(ctx.api, TypeChecker)
    columns = frame_columns(ctx.type)
    drop = _argument(ctx, "drop_nulls")
    drop_nulls = not (isinstance(drop, NameExpr) and drop.fullname == "builtins.False")
    keys = []
    for expr in ctx.args[0] if ctx.args else []:
        if isinstance(expr, StrExpr):
            found = next((c for c in columns or [] if c.name == expr.value), None)
            if columns is not None and found is None:
                error = UnknownColumnError(expr.value, [c.name for c in columns], where="group_by()")
                ctx.api.fail(str(error), ctx.context, code=SPARK_TYPE)
                return _group_of(ctx.api, None)
            key = Output(expr.value, found.type if found else AnyType(TypeOfAny.special_form))
        else:
            name = output_name(expr)
            if name is None:
                return _group_of(ctx.api, None)
            key = Output(name, value_type(ctx.api, expr, name, columns))
        static = static_of(key.type)
        if drop_nulls and static.nullable and static.dtype is not None and narrowable(static.dtype):
            key = Output(key.name, _without_none(key.type))
        keys.append(key)
    return _group_of(ctx.api, keys)


def note_null_keys(ctx: MethodContext, grouped: object) -> None:
    """A note (not an error) where ``group_by`` leaves out rows with a NULL key and ``drop_nulls=`` is not written.

    ``grouped`` is the runtime's ``GroupBy`` built on the static schema
    (``_mypy.replay``): which keys drop their NULL rows is the runtime's rule,
    ``GroupBy.null_dropped_keys``. Writing ``drop_nulls=True`` says it is meant.
    """
    from pydantable_spark.groupby import GroupBy

    if not isinstance(grouped, GroupBy) or _argument(ctx, "drop_nulls") is not None:
        return
    unknown = unknown_columns(grouped._frame.schema)  # whether those may be NULL is not known
    keys = [key for key in grouped.null_dropped_keys if key not in unknown]
    if keys:
        names = " or ".join(f'"{key}"' for key in keys)
        ctx.api.note(  # type: ignore[attr-defined]  # a TypeChecker: the plugin interface has no note()
            f"group_by(): rows whose {names} is NULL are left out (drop_nulls=True, the default; PySpark's "
            "groupBy keeps them); write drop_nulls=False to keep them as groups, or drop_nulls=True to say so",
            ctx.context,
            code=SPARK_TYPE,
        )


def _without_none(t: Type) -> Type:
    proper = get_proper_type(t)
    if isinstance(proper, UnionType):
        return UnionType.make_union([i for i in proper.items if not isinstance(get_proper_type(i), NoneType)])
    return t


def _group_of(api: TypeChecker, keys: list[Output] | None) -> Type:
    row: Type = AnyType(TypeOfAny.special_form) if keys is None else row_instance(api, keys)
    return instance_of(api, GROUP_BY, [row])


def grouped_frame(ctx: MethodContext) -> Type | None:
    """The type of ``frame`` in ``frame.group_by(...).agg(...)``, when written so (to rebind ``frame``)."""
    assert isinstance(ctx.api, TypeChecker)
    call = ctx.context
    grouping = call.callee.expr if isinstance(call, CallExpr) and isinstance(call.callee, MemberExpr) else None
    if isinstance(grouping, CallExpr) and isinstance(grouping.callee, MemberExpr):
        return ctx.api.lookup_type_or_none(grouping.callee.expr)
    return None


def agg(ctx: MethodContext) -> Type:
    """``agg(...)``: the key columns, then one column per aggregate (typed by its expression)."""
    assert isinstance(ctx.api, TypeChecker)
    proper = get_proper_type(ctx.type)
    keys_row = get_proper_type(proper.args[0]) if isinstance(proper, Instance) and proper.args else None
    if not isinstance(keys_row, Instance):
        return frame_of(ctx.api, None, grouped_frame(ctx))
    outputs = list(model_columns(keys_row.type))
    source = grouped_frame(ctx)
    on = frame_columns(source) if source is not None else None
    for expr in ctx.args[0] if ctx.args else []:
        name = output_name(expr)
        if name is None:
            return frame_of(ctx.api, None, grouped_frame(ctx))
        outputs.append(Output(name, value_type(ctx.api, expr, name, None, on=on)))
    named = ctx.args[1] if len(ctx.args) > 1 else []
    for name, expr in zip(ctx.arg_names[1] if len(ctx.arg_names) > 1 else [], named, strict=True):
        if name is None:
            return frame_of(ctx.api, None, grouped_frame(ctx))
        is_pair = isinstance(expr, TupleExpr)
        outputs.append(
            Output(name, AnyType(TypeOfAny.special_form) if is_pair else value_type(ctx.api, expr, name, None, on=on))
        )
    seen: set[str] = set()
    for output in outputs:
        if output.name.lower() in seen:
            ctx.api.fail(f'agg() produces two columns named "{output.name}"', ctx.context, code=SPARK_TYPE)
            return frame_of(ctx.api, None, grouped_frame(ctx))
        seen.add(output.name.lower())
    return frame_of(ctx.api, outputs, grouped_frame(ctx))
