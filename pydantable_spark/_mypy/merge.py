"""``frame.merge_into(...)`` checked by the runtime's own MERGE rules, on the static schemas of both sides.

The clauses (``update(...)``, ``insert_all(...)``, ``delete()``...) are evaluated
as the runtime builds them (``evaluate.function_evaluator``), and so is
``source.col("x")`` / ``target.col("x")`` (``side_column``). At the
``merge_into`` call, the runtime's ``merge_target`` and ``typed_merge`` run on
the static schema of the frame (the source) and of the target model
(``model=``, or the frame's own), with the arguments' runtime values: every
check ``merge_into`` makes before Spark is asked anything (key columns on both
sides, assigned columns and their types and nullability, boolean and
deterministic conditions, the sides a clause may read, clause combinations,
the non-null columns an ``insert()`` leaves out) is reported where the call is
written, with the runtime's message.

Nothing is reported where the plugin does not know a schema or an argument
exactly: a frame of unknown columns, a ``model=`` that is not a model class
named in the call, a clause holding an expression known only by its type. A
table name or path known only as a ``str`` is named by the expression that
holds it (``merge_into(table): ...``), the rest of the message is the runtime's.
"""

from __future__ import annotations

import datetime
import importlib
from typing import TYPE_CHECKING

from mypy.checker import TypeChecker
from mypy.nodes import ARG_NAMED, ARG_POS, MemberExpr, NameExpr, RefExpr, TypeInfo

from pydantable_spark._mypy.evaluate import evaluate_call, report, reportable
from pydantable_spark._mypy.ir import Opaque, record, value_of
from pydantable_spark._mypy.models import BASE_MODEL, model_columns
from pydantable_spark._mypy.replay import placeholder_frame, schema_of, single_receiver
from pydantable_spark.expr.api import Expr

if TYPE_CHECKING:
    from mypy.nodes import Expression
    from mypy.plugin import MethodContext

    from pydantable_spark.schema import Schema

__all__ = ["MERGE_SIDE", "check_merge", "evaluate_side_column", "given_arguments", "side_column"]

MERGE = "pydantable_spark.merge"
MERGE_SIDE = f"{MERGE}.MergeSide"
_SIDES = frozenset({f"{MERGE}.source", f"{MERGE}.target"})
_CLAUSES = ("when_matched", "when_not_matched", "when_not_matched_by_source")


def side_column(ctx: MethodContext) -> None:
    """``source.col("x")``: the runtime's side column, when the receiver is the runtime's ``source`` or ``target``."""
    evaluate_side_column(ctx, MERGE, _SIDES)


def evaluate_side_column(ctx: MethodContext, module: str, sides: frozenset[str]) -> None:
    """``<side>.col("x")`` evaluated with the runtime's own side object, when the receiver is one of ``sides``.

    ``sides`` are the full names of the runtime's side objects, in ``module``
    (MERGE's ``source``/``target``, a join condition's ``left``/``right``).
    """
    assert isinstance(ctx.api, TypeChecker)
    call = ctx.context
    callee = getattr(call, "callee", None)
    side = callee.expr if isinstance(callee, MemberExpr) else None
    if not (isinstance(side, RefExpr) and side.fullname in sides):
        record(ctx.api, call, None)  # type: ignore[arg-type]
        return
    runtime = importlib.import_module(module)
    evaluate_call(ctx, getattr(runtime, side.fullname.rpartition(".")[2]).col, exact=True)


def check_merge(ctx: MethodContext) -> None:
    """Run the runtime's checks of ``merge_into`` on the static schemas; report what they raise at the call."""
    from pydantable_spark.merge import merge_target, typed_merge
    from pydantable_spark.model import is_derived_row

    api = ctx.api
    assert isinstance(api, TypeChecker)
    frame = placeholder_frame(ctx.type)
    given = given_arguments(ctx)
    if frame is None or given is None or not single_receiver(ctx):
        return
    own = frame.model  # the declared model's stand-in, or the row model derived from the schema
    source_model = None if is_derived_row(own) else own.__name__
    target = _target(given.get("model"), frame.schema, own.__name__)
    values: dict[str, object] = {}
    for name in ("on", *_CLAUSES):
        if name in given:
            value = value_of(api, given[name])
            if value is None or not (value.exact or _by_type_only(value.value)):
                return  # a part known only by its type: what the runtime does with it is not known
            values[name] = value.value
    named = {n: value_of(api, given[n]) for n in ("table", "path") if n in given}
    known = {n: v.value for n, v in named.items() if v is not None and v.exact}
    if target is None or "on" not in values or (len(named) > 1 and len(known) < len(named)):
        return
    try:
        if len(known) == len(named):
            _, _, action = merge_target(known.get("table"), known.get("path"))
        else:  # the runtime names the call by the value; the plugin by the expression that holds it
            name, expr = next((n, given[n]) for n in named)
            action = f"merge_into({_shown(expr)})" if name == "table" else f"merge_into(path={_shown(expr)})"
        typed_merge(action, frame.schema, target[0], (source_model, target[1]), values["on"], values)
    except Exception as error:
        if reportable(error):
            report(ctx, error, "" if "merge_into" in str(error) else "merge_into(): ")


def _by_type_only(value: object) -> bool:
    """Whether the runtime's checks of an inexact argument read only what the plugin knows of it.

    A value known by its type (``today: date`` in ``update(valid_to=today)``)
    stands as a sample of the type (``ir.by_type``); MERGE's rules read only its
    type, but for a ``datetime``, whose sample is aware where the value may be
    naive. An ``Opaque`` expression (a parameter ``e: Expr[int]``) may be
    anything of its type (an aggregate, a non-deterministic one, NULL-able or not).
    """
    from pydantable_spark.expr.core import Literal, Node
    from pydantable_spark.merge import Delete, Insert, Update

    if isinstance(value, list | tuple):
        return all(_by_type_only(item) for item in value)
    if isinstance(value, Update | Insert | Delete):
        parts = [value.condition, *(v for _, v in value.values)] if not isinstance(value, Delete) else [value.condition]
        return all(_by_type_only(part) for part in parts)
    if isinstance(value, Expr):
        return _by_type_only(value.node)
    if isinstance(value, Node):
        return all(
            not isinstance(n, Opaque) and not (isinstance(n, Literal) and isinstance(n.value, datetime.datetime))
            for n in value.walk()
        )
    return not isinstance(value, datetime.datetime)


def given_arguments(ctx: MethodContext) -> dict[str, Expression] | None:
    """The call's arguments by parameter name; None when one is unpacked (``**options``)."""
    given: dict[str, Expression] = {}
    for name, kinds, exprs in zip(ctx.callee_arg_names, ctx.arg_kinds, ctx.args, strict=True):
        if any(kind not in (ARG_POS, ARG_NAMED) for kind in kinds) or len(exprs) > 1:
            return None
        if exprs and name is not None:
            given[name] = exprs[0]
    return given


def _target(model: Expression | None, schema: Schema, own: str) -> tuple[Schema, str] | None:
    """The target model's schema and name: ``model=``'s (a model class named in the call) or the frame's own."""
    if model is None or (isinstance(model, NameExpr) and model.fullname == "builtins.None"):
        return schema, own
    if not (isinstance(model, NameExpr | MemberExpr) and isinstance(model.node, TypeInfo)):
        return None
    info = model.node
    if not info.has_base(BASE_MODEL):
        return None  # mypy reports the argument's type
    target = schema_of(model_columns(info))
    return None if target is None or not target.fields else (target, info.name)


def _shown(expr: Expression) -> str:
    if isinstance(expr, NameExpr | MemberExpr):
        return expr.name
    return "..."
