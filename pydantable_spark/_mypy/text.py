"""``F.from_json``/``from_csv``/``from_xml`` of ``(col, Model)``: typed and checked by the runtime's ``FromText``.

The signature says ``Expr[Model | None]``, but the runtime types the parsed
struct as Spark's analyzer does: every field NULL-able, deeply (a field the text
lacks, or a value that does not parse under ``mode="PERMISSIVE"``, is NULL), and
a collected row holds a derived row of those fields, not a ``Model``. So the
hook builds the runtime's node over the model's struct (as mypy knows it) and
types the call by the node's derived type: ``Expr[Row[speed: float | None, ...] | None]``.

The same node checks the call with the runtime's rules: ``col`` must be a
string column, a CSV record atomic fields, ``options`` a mapping of known
values (``mode`` PERMISSIVE or FAILFAST). The node is recorded as the call's
runtime value when its column and options are known exactly, so frame methods
replay on it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mypy.checker import TypeChecker
from mypy.types import Instance, Type, get_proper_type

from pydantable_spark import dtypes as dt
from pydantable_spark._mypy.evaluate import report, reportable
from pydantable_spark._mypy.ir import Value, record, value_of
from pydantable_spark._mypy.statics import expr_type, mypy_type, static_of
from pydantable_spark.expr.api import Expr, into_node
from pydantable_spark.expr.core import Literal, Node, Typed
from pydantable_spark.expr.text_formats import FORMATS, FromText, check_schema, text_options

if TYPE_CHECKING:
    from collections.abc import Callable

    from mypy.nodes import Expression
    from mypy.plugin import FunctionContext

__all__ = ["TEXT_HOOKS"]

_MODULE = "pydantable_spark.expr.text_formats"


def _argument(ctx: FunctionContext, name: str) -> Expression | None:
    if name not in ctx.callee_arg_names:
        return None
    group = ctx.args[ctx.callee_arg_names.index(name)]
    return group[0] if group else None


def _model_of(ctx: FunctionContext) -> Instance | None:
    """``Model`` of the call's declared type ``Expr[Model | None]``."""
    returned = get_proper_type(ctx.default_return_type)
    if not isinstance(returned, Instance) or not returned.args:
        return None
    inner = static_of(returned.args[0])
    original = get_proper_type(inner.original)
    return original if isinstance(original, Instance) else None


def _column(ctx: FunctionContext, format: str) -> tuple[Node | None, bool]:
    """The runtime node of ``col`` (None when not known) and whether it is known exactly."""
    expr = _argument(ctx, "col")
    assert isinstance(ctx.api, TypeChecker)
    found = value_of(ctx.api, expr) if expr is not None else None
    if found is None or not isinstance(found.value, str | Expr):
        return None, False
    return into_node(found.value, f"F.from_{format}()'s col"), found.exact


def _options(ctx: FunctionContext, format: str) -> tuple[tuple[tuple[str, str], ...] | None, bool]:
    """The options as the runtime checks them (None when not known exactly); raises the runtime's error."""
    expr = _argument(ctx, "options")
    if expr is None:
        return (), True
    assert isinstance(ctx.api, TypeChecker)
    found = value_of(ctx.api, expr)
    if found is None or not found.exact:
        return None, False
    return text_options(found.value, format), True


def _hook(format: str) -> Callable[[FunctionContext], Type]:
    def hook(ctx: FunctionContext) -> Type:
        api = ctx.api
        assert isinstance(api, TypeChecker)
        model = _model_of(ctx)
        struct = static_of(model).dtype if model is not None else None
        if not isinstance(struct, dt.Struct):
            record(api, ctx.context, None)  # type: ignore[arg-type]
            return ctx.default_return_type
        name = model.type.name if model is not None else ""
        try:
            check_schema(struct, name, format)
            options, options_exact = _options(ctx, format)
            child, exact = _column(ctx, format)
            node = FromText(child, struct, name, format, options or ()) if child is not None else None
        except Exception as error:
            record(api, ctx.context, None)  # type: ignore[arg-type]
            if reportable(error):
                report(ctx, error)
            return ctx.default_return_type
        if node is not None and node.typed is not None:
            typed = node.typed
        else:  # the type does not depend on the column's value, only on whether it may be NULL
            text = child.typed if child is not None and child.typed is not None else Typed(dt.String(), True)
            stand_in = Literal(None if text.nullable else "", dt.String())
            typed = FromText(stand_in, struct, name, format).type
        exactly = node is not None and exact and options_exact
        record(api, ctx.context, Value(Expr(node), True) if exactly and node is not None else None)  # type: ignore[arg-type]
        return expr_type(api, mypy_type(api, typed.dtype, typed.nullable))

    return hook


TEXT_HOOKS: dict[str, Callable[[FunctionContext], Type]] = {f"{_MODULE}.from_{f}": _hook(f) for f in FORMATS}
"""The typing hooks of ``F.from_json``, ``F.from_csv`` and ``F.from_xml``."""
