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

``frame.validate(references=...)`` is checked by the runtime's
``checks.references.reference_frames`` on a placeholder frame of the static
schema, with the checks the plugin resolved (``check_references``): a
``references`` check left without its frame, a key naming no check or
referenced model, a frame of another model. It runs when every check of the
model's ``checks`` method is known (one returned tuple of ``Check`` calls);
a call mypy checks before that method waits for it (``_PENDING``).

What stays run-time only: a check built outside the ``checks`` method (a
helper's, a variable's of another scope) is resolved when the class is
defined; a check that reads a column whose static type the plugin does not
know is checked for the names it reads only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mypy.checker import TypeChecker
from mypy.nodes import (
    Context,
    Decorator,
    DictExpr,
    Expression,
    FuncDef,
    FuncItem,
    LambdaExpr,
    ListExpr,
    NameExpr,
    RefExpr,
    ReturnStmt,
    StrExpr,
    TupleExpr,
    TypeInfo,
)
from mypy.types import Instance, Type, get_proper_type

from pydantable_spark._mypy.evaluate import evaluate_call, report, reportable
from pydantable_spark._mypy.frames import FRAME, as_frame
from pydantable_spark._mypy.ir import recall
from pydantable_spark._mypy.merge import given_arguments
from pydantable_spark._mypy.models import MODEL, model_columns
from pydantable_spark._mypy.replay import DeclaredModel, schema_of, single_receiver, static_schema, unknown_columns
from pydantable_spark.checks.declare import Check, resolve_check
from pydantable_spark.errors import PydantableSparkError, UnknownColumnError
from pydantable_spark.model import CHECKS

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from mypy.plugin import MethodContext

    from pydantable_spark.frame import DataFrame
    from pydantable_spark.schema import Schema

__all__ = ["CHECK", "CHECK_HOOKS", "check_references", "declared_checks"]

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
    """Resolve ``check`` against ``model``'s static schema as the model's class does; report what it refuses.

    A check that resolves is noted by its call (``_RESOLVED``), for the
    ``references=`` of the model's frames' ``validate``.
    """
    schema = schema_of(model_columns(model))
    unknown = unknown_columns(schema)
    try:
        resolved = resolve_check(
            check, schema, model.name, {base.name for base in model.mro}, named=_named_before(ctx, function, check.name)
        )
    except (PydantableSparkError, ValueError, NotImplementedError) as error:
        if unknown and not isinstance(error, UnknownColumnError):
            return  # a column of a type the plugin does not know stands in as ``Unknown``: no verdict on types
        report(ctx, error)
        return
    if len(_RESOLVED) > 100_000:  # a long-running daemon: forget the calls of earlier runs
        _RESOLVED.clear()
    _RESOLVED[id(ctx.context)] = (ctx.context, resolved)
    _resolved_all(model)


_RESOLVED: dict[int, tuple[Context, Check]] = {}
"""The checks resolved against their model's static schema, by the ``Check`` call that made each."""


def declared_checks(model: TypeInfo) -> tuple[Check, ...] | None:
    """The checks ``model`` declares, as the plugin resolved them; None when they are not all known.

    Known: the ``checks`` classmethod the model has (its own or a base's)
    returns one tuple or list of ``Check`` calls written there, each resolved
    (mypy checked the model before). Anything else (a helper's checks, a
    conditional, a check of a type the plugin does not know) gives no verdict.
    """
    owner = next((info for info in model.mro if CHECKS in info.names), None)
    if owner is None:
        return ()
    node = owner.names[CHECKS].node
    function = node.func if isinstance(node, Decorator) else node
    if not isinstance(function, FuncDef):
        return None
    body = function.body.body
    returned = body[-1] if body else None
    if len(body) != 1 or not isinstance(returned, ReturnStmt) or not isinstance(returned.expr, TupleExpr | ListExpr):
        return None
    found = []
    for item in returned.expr.items:
        noted = _RESOLVED.get(id(item))
        if noted is None or noted[0] is not item:
            return None
        found.append(noted[1])
    return tuple(found)


def check_references(ctx: MethodContext) -> None:
    """``frame.validate(references=...)`` checked by the runtime's ``reference_frames``.

    Runs on a placeholder frame of the receiver's static schema, with the
    model's checks as the plugin resolved them (``declared_checks``) and
    ``references`` as written: a dict display whose keys are check names
    (string literals) or model classes and whose values are frames of a
    known static type. A check left without its frame, a key that names no
    check or model the checks reference, a frame of another model, a key
    column the frame types otherwise: reported with the runtime's message.
    Anything not known statically gives no verdict.
    """
    api = ctx.api
    assert isinstance(api, TypeChecker)
    frame = _placeholder(ctx.type)
    given = given_arguments(ctx)
    model = _frame_model(ctx.type)
    if frame is None or model is None or given is None or not single_receiver(ctx):
        return
    references: object = None
    written = given.get("references")
    if written is not None and not (isinstance(written, NameExpr) and written.fullname == "builtins.None"):
        references = _stand_ins(api, written)
        if references is None:
            return
    owner = next((info for info in model.mro if CHECKS in info.names), None)
    if owner is None:
        _check_references(ctx, frame, (), references)
        return
    checks = declared_checks(owner)
    if checks is not None:
        _check_references(ctx, frame, checks, references)
    elif len(_PENDING) < 10_000:  # mypy may check the model's checks() after this call (a deferred method)
        _PENDING.setdefault(owner.fullname, []).append((ctx, frame, references))


_PENDING: dict[str, list[tuple[MethodContext, DataFrame[Any], object]]] = {}
"""``validate`` calls waiting for their model's checks to be resolved, by the class that declares them."""


def _check_references(ctx: MethodContext, frame: DataFrame[Any], checks: tuple[Check, ...], references: object) -> None:
    from pydantable_spark.checks.references import reference_frames

    try:
        reference_frames(frame, checks, references, "validate()")
    except (PydantableSparkError, ValueError) as error:
        if reportable(error):
            report(ctx, error)


def _resolved_all(model: TypeInfo) -> None:
    """Check the ``validate`` calls that waited for ``model``'s checks, once they are all resolved.

    They stay noted: mypy may evaluate the checks' calls again (a deferred
    method, or a pass whose errors it discards), and each pass reports again;
    mypy shows one copy of a message repeated at a line. (mypy evaluates a
    ``Check`` call while it holds errors back, and reports what it held once
    it keeps the call's verdict: the message is reported with them.)
    """
    waiting = _PENDING.get(model.fullname)
    if not waiting:
        return
    checks = declared_checks(model)
    if checks is None:
        return
    for ctx, frame, references in waiting:
        _check_references(ctx, frame, checks, references)


def _frame_model(frame_type: Type) -> TypeInfo | None:
    """The model of ``DataFrame[Model]`` (None for a derived row or another type)."""
    frame = as_frame(frame_type)
    row = get_proper_type(frame.args[0]) if frame is not None and frame.args else None
    return row.type if isinstance(row, Instance) and row.type.has_base(MODEL) else None


def _placeholder(frame_type: Type) -> DataFrame[Any] | None:
    """A frame of ``frame_type``'s static schema and no data, whose model stands for its model and the model's bases.

    A check's target is matched by class name against a frame's model and
    its bases (``checks.declare.model_owners``): the stand-in carries the
    names of the model's classes, in its own ``__mro__``.
    """
    from pydantable_spark.frame import DataFrame
    from pydantable_spark.plan import nodes as p

    model = _frame_model(frame_type)
    schema = static_schema(frame_type)
    if model is None or schema is None or not schema.fields:
        return None
    found = _FRAMES.get((schema, model.fullname))
    if found is None:
        stand_in: type = DeclaredModel
        for info in reversed(model.mro):
            if info.has_base(MODEL) and info.fullname != MODEL:
                stand_in = type(info.name, (stand_in,), {})
        found = _FRAMES[(schema, model.fullname)] = DataFrame(p.Source(None, schema), stand_in)
    return found


_FRAMES: dict[tuple[Schema, str], DataFrame[Any]] = {}


def _stand_ins(api: TypeChecker, written: Expression) -> dict[object, object] | None:
    """``references`` as the runtime would see it: names, model stand-ins and placeholder frames (None: not known)."""
    if not isinstance(written, DictExpr):
        return None
    found: dict[object, object] = {}
    for key, value in written.items:
        if key is None:  # ``**other``
            return None
        if isinstance(key, StrExpr):
            stand_in: object = key.value
        elif isinstance(key, RefExpr) and isinstance(key.node, TypeInfo) and key.node.has_base(MODEL):
            stand_in = _model_stand_in(key.node.name)
        else:
            return None
        typed = api.lookup_type_or_none(value)
        frame = _placeholder(typed) if typed is not None else None
        if frame is None:
            return None
        found[stand_in] = frame
    return found


def _model_stand_in(name: str) -> type:
    """A class standing for the model ``name`` as a key of ``references``: its name, and that it has checks."""
    stand_in = _MODELS.get(name)
    if stand_in is None:
        stand_in = _MODELS[name] = type(name, (DeclaredModel,), {"dataset_checks": classmethod(lambda cls: ())})
    return stand_in


_MODELS: dict[str, type] = {}


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


CHECK_HOOKS: dict[str, Callable[[MethodContext], None]] = {
    **{f"{CHECK}.{name}": _hook(name) for name in _CONSTRUCTORS},
    f"{FRAME}.validate": check_references,
}
"""The evaluation hooks of ``Check``'s constructors and of ``validate(references=...)``, by their full names."""
