"""Dataset checks (``Check.unique``, ``Check.row``...) checked by the runtime's own code on static stand-ins.

A ``Check`` call is evaluated with the runtime's constructor on its arguments'
values (``evaluate``), so a bad name, action, bound or reference key is
reported with the runtime's message. Written in the ``checks`` classmethod of a
model, the check is then resolved against the model's static schema by
``checks.declare.resolve_check``, the function the model's class calls when it
is defined: an unknown column (with the closest name), another model's
column, a predicate that is not boolean, not deterministic or calls a UDF, an
aggregate or a window in a row check, a column outside an aggregate in an
``agg`` check, a reference whose types do not pair, and a name that a check
written before it in the method has already.

What stays run-time only: a check built outside the ``checks`` method (a
helper's, a variable's of another scope) is resolved when the class is
defined; a check that reads a column whose static type the plugin does not
know is checked for the names it reads only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mypy.checker import TypeChecker
from mypy.nodes import Expression, FuncItem, LambdaExpr, TypeInfo

from pydantable_spark._mypy.evaluate import evaluate_call, report
from pydantable_spark._mypy.ir import recall
from pydantable_spark._mypy.models import MODEL, model_columns
from pydantable_spark._mypy.replay import schema_of, unknown_columns
from pydantable_spark.checks.declare import Check, resolve_check
from pydantable_spark.errors import PydantableSparkError, UnknownColumnError
from pydantable_spark.model import CHECKS

if TYPE_CHECKING:
    from collections.abc import Callable

    from mypy.plugin import MethodContext

__all__ = ["CHECK", "CHECK_HOOKS"]

CHECK = "pydantable_spark.checks.declare.Check"
_CONSTRUCTORS = ("agg", "primary_key", "references", "row", "rows", "unique")


def _hook(method: str) -> Callable[[MethodContext], None]:
    target = getattr(Check, method)

    def hook(ctx: MethodContext) -> None:
        assert isinstance(ctx.api, TypeChecker)
        evaluate_call(ctx, target, exact=True)
        found = recall(ctx.api, ctx.context)  # type: ignore[arg-type]
        if found is None or not found.exact or not isinstance(found.value, Check):
            return
        declaring = _declaring(ctx.api)
        if declaring is not None:
            _resolve(ctx, found.value, *declaring)

    return hook


CHECK_HOOKS: dict[str, Callable[[MethodContext], None]] = {f"{CHECK}.{name}": _hook(name) for name in _CONSTRUCTORS}
"""The evaluation hooks of ``Check``'s constructors, by their full names."""


def _declaring(api: TypeChecker) -> tuple[TypeInfo, FuncItem] | None:
    """The model whose ``checks`` classmethod is being checked, and that method; None elsewhere."""
    function = next(
        (f for f in reversed(api.scope.stack) if isinstance(f, FuncItem) and not isinstance(f, LambdaExpr)), None
    )
    if function is None or function.name != CHECKS:
        return None
    model = api.scope.enclosing_class(function)
    return (model, function) if model is not None and model.has_base(MODEL) else None


def _resolve(ctx: MethodContext, check: Check, model: TypeInfo, function: FuncItem) -> None:
    """Resolve ``check`` against ``model``'s static schema as the model's class does; report what it refuses."""
    schema = schema_of(model_columns(model))
    unknown = unknown_columns(schema)
    try:
        resolve_check(
            check, schema, model.name, {base.name for base in model.mro}, named=_named_before(ctx, function, check.name)
        )
    except (PydantableSparkError, ValueError, NotImplementedError) as error:
        if unknown and not isinstance(error, UnknownColumnError):
            return  # a column of a type the plugin does not know stands in as ``Unknown``: no verdict on types
        report(ctx, error)


_WRITTEN: dict[int, tuple[FuncItem, dict[int, tuple[Expression, tuple[int, int], str]]]] = {}
"""Per ``checks`` method: the ``Check`` calls evaluated in it, with their places and names."""


def _named_before(ctx: MethodContext, function: FuncItem, name: str) -> list[str]:
    """The names of the checks written before this one in the method (mypy checks them first), noting this one's.

    mypy may check a method twice (a deferred one): each call is noted once,
    by its node, so a check is never compared with itself.
    """
    known = _WRITTEN.get(id(function))
    if known is None or known[0] is not function:
        if len(_WRITTEN) > 10_000:  # a long-running daemon: forget the methods of earlier runs
            _WRITTEN.clear()
        known = _WRITTEN[id(function)] = (function, {})
    calls = known[1]
    here = (ctx.context.line, ctx.context.column)
    before = [n for call, place, n in calls.values() if place < here and call is not ctx.context]
    calls[id(ctx.context)] = (ctx.context, here, name)  # type: ignore[assignment]
    return before
