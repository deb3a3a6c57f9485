"""The mypy plugin: ``plugins = ["pydantic.mypy", "pydantable_spark.mypy"]``.

It types what plain annotations cannot say:

* class access to a model field, ``User.age``, is a column, ``Col[int | None]``
  (instance access, ``user.age``, stays ``int | None``);
* operators and expression methods follow the runtime's type rules
  (``User.age + 1`` is ``Expr[int | None]``; ``User.name + 1`` is an error);
* ``select``, ``with_columns``, ``drop``, ``rename``, ``join`` and
  ``group_by().agg`` give frames of synthesized row types, which may rebind
  the variable they came from (``lines = lines.with_columns(...)``), and
  ``as_model(Out)`` is checked against them; the other methods that change
  columns (``rename_prefix``, ``reorder_columns``, ``explode``, ``unnest``,
  ``pivot_longer``...) are typed by the runtime's own result (``_mypy.replay``);
* every frame method runs the runtime's own method on a frame of the static
  schema, with the runtime values of its arguments (expressions are evaluated
  with the runtime's API as mypy checks them), so column references in every
  position, aggregation and window structure and argument values are checked
  by the runtime's rules, with its messages (``_mypy.replay``, ``_mypy.ir``).
* a dataset check (``Check.row(...)``) is evaluated with the runtime's constructor and, in
  a model's ``checks`` classmethod, resolved against the model's static schema by the
  function the model's class calls when it is defined (``_mypy.checks``).
* a frame method is named ``DataFrame``'s in messages (``"collect" of "DataFrame"``),
  also where one of the frame's mixins (``constructors``, ``results``, ``writers``)
  defines it. Hooks are keyed by the receiver's class, ``pydantable_spark.frame.DataFrame``,
  whichever class defines the method.

This module only routes hooks; the logic is in ``pydantable_spark._mypy``. Which public
names are replayed, and why the others are run-time only, is the registry
``_mypy.coverage`` (a test keeps it whole; docs/typing.md lists it).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar, cast

from mypy.checker import TypeChecker
from mypy.nodes import ARG_STAR, ARG_STAR2, TypeInfo
from mypy.plugin import (
    AnalyzeTypeContext,
    AttributeContext,
    ClassDefContext,
    FunctionContext,
    FunctionSigContext,
    MethodContext,
    MethodSigContext,
    Plugin,
    ReportConfigContext,
)

from pydantable_spark._mypy.checks import CHECK_HOOKS
from pydantable_spark._mypy.evaluate import column_attribute, function_evaluator, method_evaluator
from pydantable_spark._mypy.expressions import (
    EXPRESSION_CLASSES,
    FUNCTION_HOOKS,
    METHOD_HOOKS,
    F,
    result_from_hook,
)
from pydantable_spark._mypy.frames import (
    FRAME,
    FRAME_HOOKS,
    from_rows,
    is_column_of_model,
    is_derived_frame,
    keep,
    named_as_frame,
)
from pydantable_spark._mypy.ir import already_reported
from pydantable_spark._mypy.lambdas import lambda_signature
from pydantable_spark._mypy.merge import MERGE_SIDE, check_merge, side_column
from pydantable_spark._mypy.models import (
    COLUMN_DESCRIPTOR,
    MODEL,
    model_column_default,
    model_column_type,
    record_fields,
)
from pydantable_spark._mypy.relational import GROUP_BY, JOIN_SIDE, agg, group_by, join, join_side_column, note_null_keys
from pydantable_spark._mypy.replay import GROUP_BY_METHODS, PIVOTS, check, frame_methods, refined
from pydantable_spark._mypy.statics import EXPR
from pydantable_spark._mypy.testing import TESTING_HOOKS
from pydantable_spark._mypy.text import TEXT_HOOKS
from pydantable_spark.expr.catalog import CATALOG

if TYPE_CHECKING:
    from collections.abc import Callable

    from mypy.options import Options
    from mypy.types import FunctionLike, Type

__all__ = ["PydantableSparkPlugin", "plugin"]


Context = TypeVar("Context", MethodContext, FunctionContext)
Made = TypeVar("Made")


def _guarded(hook: Callable[[Context], Type] | None) -> Callable[[Context], Type] | None:
    """``hook``, reporting an unexpected failure at the call instead of crashing mypy."""
    if hook is None:
        return None
    checked = hook

    def run(ctx: Context) -> Type:
        try:
            return checked(ctx)
        except Exception as error:
            # a call mypy refused already (a missing argument) is one the hooks need not type
            if not (isinstance(ctx.api, TypeChecker) and already_reported(ctx.api, ctx.context)):
                ctx.api.fail(f"pydantable-spark could not type this call ({error!r}); please report it", ctx.context)
            return ctx.default_return_type

    return run


RELATIONAL_HOOKS = {f"{FRAME}.join": join, f"{FRAME}.group_by": group_by, f"{GROUP_BY}.agg": agg}
MERGE_HOOKS = {f"{FRAME}.merge_into": check_merge, f"{MERGE_SIDE}.col": side_column}
"""MERGE checked by the runtime's rules on the static schemas (``_mypy.merge``)."""
SIDE_HOOKS = {**MERGE_HOOKS, f"{JOIN_SIDE}.col": join_side_column}
"""Calls evaluated by the runtime's own objects: MERGE's clauses and sides, join conditions' sides."""


def _then(
    typing: Callable[[Context], Type] | None, evaluation: Callable[[Context], None] | None
) -> Callable[[Context], Type] | None:
    """The typing hook, then the evaluation of the call with the runtime's API (``_mypy.evaluate``)."""
    if evaluation is None:
        return typing
    checked = evaluation

    def run(ctx: Context) -> Type:
        result = typing(ctx) if typing is not None else ctx.default_return_type
        checked(ctx)
        return result

    return run


def _checked(method: str, typing: Callable[[MethodContext], Type] | None) -> Callable[[MethodContext], Type]:
    """The runtime's method run on the static schema (``_mypy.replay``), then the typing hook.

    After an error the call has the method's declared type (``DataFrame[Any]``,
    derived from the receiver so that it may still rebind its variable).
    """

    def run(ctx: MethodContext) -> Type:
        outcome = check(ctx, method)
        if method == "group_by":
            note_null_keys(ctx, outcome.result)
        if outcome.error and typing is not keep:
            return refined(ctx, method, ctx.default_return_type, None)
        unpacked = any(kind in (ARG_STAR, ARG_STAR2) for kinds in ctx.arg_kinds for kind in kinds)
        unread = typing is None or (unpacked and typing is not keep)  # the typing rules read the call as written
        typed = ctx.default_return_type if unread or typing is None else typing(ctx)
        return refined(ctx, method, typed, outcome.result)

    return run


def _rules_digest() -> str:
    """A digest of the package's sources: the typing rules live all over it (type rules, IR nodes)."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _expression_hook(fullname: str) -> Callable[[MethodContext], Type] | None:
    """The typing hook of an expression method; operators are looked up on the operand's own class."""
    owner, _, method = fullname.rpartition(".")
    return METHOD_HOOKS.get(f"{EXPR}.{method}") if owner in EXPRESSION_CLASSES else METHOD_HOOKS.get(fullname)


_PACKAGE = "pydantable_spark."


class PydantableSparkPlugin(Plugin):
    """Routes mypy's hooks to the typing logic of pydantable-spark.

    mypy asks for a hook at every call it checks. The hooks of the package's own
    classes and functions depend on their names only, so they are made once per
    name (``_memo``); those of a user's class (a model, a derived frame) are
    looked up each time, as that class may change between runs of ``dmypy``.
    """

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self._memo: dict[tuple[str, str], object] = {}

    def _once(self, kind: str, fullname: str, make: Callable[[str], Made]) -> Made:
        """``make(fullname)``, made once per name (``kind`` tells the hooks of one name apart)."""
        key = (kind, fullname)
        if key not in self._memo:
            self._memo[key] = make(fullname)
        return cast("Made", self._memo[key])

    def report_config_data(self, ctx: ReportConfigContext) -> dict[str, str]:
        """Invalidate mypy's cache when the rules change (mypy only hashes this entry module)."""
        return {"pydantable_spark": _RULES}

    def get_class_attribute_hook(self, fullname: str) -> Callable[[AttributeContext], Type] | None:
        owner, _, name = fullname.rpartition(".")
        symbol = self.lookup_fully_qualified(owner)
        if symbol is not None and isinstance(symbol.node, TypeInfo) and is_column_of_model(symbol.node, name):
            return column_attribute
        return None

    def get_type_analyze_hook(self, fullname: str) -> Callable[[AnalyzeTypeContext], Type] | None:
        """``ModelColumn[T]`` in a model is ``T`` (``_mypy.models.model_column_type``)."""
        return model_column_type if fullname == COLUMN_DESCRIPTOR else None

    def get_customize_class_mro_hook(self, fullname: str) -> Callable[[ClassDefContext], None] | None:
        """Every class: a model's field order and aliases are recorded (see ``_mypy.models``).

        (pydantic's plugin takes the base-class hook of models, and mypy asks
        only the first plugin that has a hook.)
        """
        return record_fields

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        if not fullname.startswith(_PACKAGE):
            return self._method_hook(fullname)
        return self._once("method", fullname, self._method_hook)

    def _method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        owner, _, method = fullname.rpartition(".")
        typing: Callable[[MethodContext], Type] | None
        if owner in EXPRESSION_CLASSES:
            typing = _expression_hook(fullname)
        elif self._is_derived_frame(owner):  # a derived frame's methods are the frame's
            owner, fullname = FRAME, f"{FRAME}.{method}"
            typing = FRAME_HOOKS.get(fullname) or RELATIONAL_HOOKS.get(fullname) or keep
        else:
            typing = METHOD_HOOKS.get(fullname) or FRAME_HOOKS.get(fullname) or RELATIONAL_HOOKS.get(fullname)
        if method == "from_rows" and (owner == FRAME or self._is_model(owner)):
            return _guarded(from_rows)
        if (owner == FRAME and method in frame_methods() | PIVOTS) or (
            owner == GROUP_BY and method in GROUP_BY_METHODS
        ):
            return _guarded(_checked(method, typing))
        evaluation = SIDE_HOOKS.get(fullname) or CHECK_HOOKS.get(fullname) or method_evaluator(owner, method)
        return _guarded(_then(typing, evaluation))

    def get_method_signature_hook(self, fullname: str) -> Callable[[MethodSigContext], FunctionLike] | None:
        """A frame's methods are named ``DataFrame``'s in messages, also those its mixins define.

        An expression method the plugin types has its declared result set aside
        (``_mypy.expressions.result_from_hook``).
        """
        if not fullname.startswith(_PACKAGE):
            return self._method_signature_hook(fullname)
        return self._once("method signature", fullname, self._method_signature_hook)

    def _method_signature_hook(self, fullname: str) -> Callable[[MethodSigContext], FunctionLike] | None:
        owner, _, _ = fullname.rpartition(".")
        if owner == FRAME or self._is_derived_frame(owner):
            return named_as_frame
        if _expression_hook(fullname) is not None:
            return result_from_hook
        return None

    def _is_model(self, fullname: str) -> bool:
        symbol = self.lookup_fully_qualified(fullname)
        return symbol is not None and isinstance(symbol.node, TypeInfo) and symbol.node.has_base(MODEL)

    def _is_derived_frame(self, fullname: str) -> bool:
        symbol = self.lookup_fully_qualified(fullname)
        return symbol is not None and isinstance(symbol.node, TypeInfo) and is_derived_frame(symbol.node)

    def get_function_signature_hook(self, fullname: str) -> Callable[[FunctionSigContext], FunctionLike] | None:
        """A higher-order ``F`` function: its lambda's parameters typed as the runtime types its variables.

        A function the plugin types has its declared result set aside
        (``_mypy.expressions.result_from_hook``).
        """
        return self._once("function signature", fullname, self._function_signature_hook)

    def _function_signature_hook(self, fullname: str) -> Callable[[FunctionSigContext], FunctionLike] | None:
        module, _, name = fullname.rpartition(".")
        entry = CATALOG.get(name) if module == F else None
        if entry is not None and entry.has_lambdas:
            typed_lambdas = lambda_signature(entry, name)
            return lambda ctx: result_from_hook(ctx._replace(default_signature=typed_lambdas(ctx)))
        if fullname in FUNCTION_HOOKS:
            return result_from_hook
        return None

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        return self._once("function", fullname, self._function_hook)

    def _function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        if fullname == COLUMN_DESCRIPTOR:  # ModelColumn(default=...): a field's specifier, typed as its default
            return model_column_default
        typing = FUNCTION_HOOKS.get(fullname) or TEXT_HOOKS.get(fullname) or TESTING_HOOKS.get(fullname)
        return _guarded(_then(typing, function_evaluator(fullname)))


_RULES = _rules_digest()


def plugin(version: str) -> type[Plugin]:
    """Mypy's entry point."""
    return PydantableSparkPlugin
