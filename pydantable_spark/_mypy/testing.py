"""The testing helpers checked by their runtime checks, run on the static schemas (``pydantable_spark.testing``).

``assert_frame_equal(left, right, ...)`` runs ``testing.assertion.check_call``
(what it checks before reading a row: its arguments, then the schemas) on
frames of the static schemas with the call's argument values; ``build_frame(
Model, rows, **defaults)`` runs ``testing.builder.check_rows`` on the model's
static keys. What the runtime refuses there (``ignore_columns="tip"``, a name
no frame has, a negative tolerance, ``build_frame(Trip, [{"trip": 1}])``) is
reported at the call, with the runtime's message. A schema difference
(``AssertionError``) is not reported: a test may expect it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mypy.checker import TypeChecker
from mypy.nodes import RefExpr, TypeInfo

from pydantable_spark._mypy.evaluate import evaluate_call, report, reportable
from pydantable_spark._mypy.ir import arguments
from pydantable_spark._mypy.models import BASE_MODEL, MODEL, is_column_of_model, model_columns

if TYPE_CHECKING:
    from collections.abc import Callable

    from mypy.plugin import FunctionContext
    from mypy.types import Type

    from pydantable_spark.testing.builder import ModelKeys

__all__ = ["TESTING_HOOKS", "assert_frame_equal", "build_frame", "static_keys"]

_MODULE = "pydantable_spark.testing"
_BASES = {BASE_MODEL, MODEL, "builtins.object"}


def assert_frame_equal(ctx: FunctionContext) -> Type:
    """``assert_frame_equal``: its argument and schema checks, run on the static schemas."""
    from pydantable_spark.testing.assertion import check_call

    evaluate_call(ctx, check_call, exact=True)
    return ctx.default_return_type


def static_keys(info: TypeInfo) -> ModelKeys:
    """The keys a row of the model ``info`` may have: its columns (aliases) and its fields' names.

    Statically a field's name is paired with its alias only by the runtime's
    model, so ``pairs`` is empty: a field given twice is left to the runtime.
    """
    from pydantable_spark.testing.builder import ModelKeys

    columns = tuple(c.name for c in model_columns(info))
    fields = frozenset(n for base in info.mro for n in base.names if is_column_of_model(info, n))
    return ModelKeys(info.name, columns, fields)


def _keys_known(info: TypeInfo) -> bool:
    """Whether mypy sees the model's columns as the runtime names them.

    Not when a class sets ``model_config`` (an ``alias_generator`` renames the
    columns at run time) or has no field mypy sees.
    """
    if not info.has_base(BASE_MODEL):
        return False
    configured = any("model_config" in base.names for base in info.mro if base.fullname not in _BASES)
    return not configured and bool(model_columns(info))


def build_frame(ctx: FunctionContext) -> Type:
    """``build_frame(Model, rows, **defaults)``: its rows' and keywords' keys checked against the model's columns.

    Only the keys and the shape of ``rows`` are read, so a row whose values are
    known only by type is checked too.
    """
    from pydantable_spark.testing.builder import check_rows

    assert isinstance(ctx.api, TypeChecker)
    found = arguments(ctx)
    if found is None or len(found.positional) != 2 or not ctx.args or not ctx.args[0]:
        return ctx.default_return_type
    model = ctx.args[0][0]
    if not (isinstance(model, RefExpr) and isinstance(model.node, TypeInfo)) or not _keys_known(model.node):
        return ctx.default_return_type
    rows = found.positional[1][1]
    defaults = {name: v for name, _, v in found.named}
    if rows is None or any(v is None for v in defaults.values()):
        return ctx.default_return_type
    try:
        check_rows(static_keys(model.node), rows.value, defaults)
    except Exception as error:
        if reportable(error):
            report(ctx, error)
    return ctx.default_return_type


TESTING_HOOKS: dict[str, Callable[[FunctionContext], Any]] = {
    f"{_MODULE}.assertion.assert_frame_equal": assert_frame_equal,
    f"{_MODULE}.builder.build_frame": build_frame,
}
"""The testing helpers' hooks, by the functions' full names (the registry, ``_mypy.coverage``, lists them)."""
