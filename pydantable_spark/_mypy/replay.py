"""Frame methods checked by running the runtime's own method on a frame of the static schema.

For ``users.filter(F.col("agee") > 1)`` the plugin makes a frame with no data and
the columns mypy knows for ``users`` (a ``Source`` plan: building on it runs no
Spark), and calls the runtime's ``filter`` on it with the runtime values of the
arguments (``ir``). Whatever the runtime raises while it builds the plan is
reported where the call is written, with the runtime's message: unknown columns
(model attributes of another model or no longer in the frame, ``F.col`` names,
string names), a type error that only the frame's types reveal, an aggregate
where rows are computed, a non-aggregate in ``agg``, a window function without
``over()``, an unordered window for ``row_number``, ``range_between`` over a
string key, argument values such as ``join(validate="1:one")``. The rules are
the runtime's: the catalog entries' placement (``kind``, ``needs_order``, ``windowable``),
``plan.aggregate.check_aggregation``, ``plan.nodes.check_row_expression``,
``expr.over.Over``.

Where an argument is not known exactly (``ir.Value.exact``), the method runs on
the others (when that cannot make it fail where the runtime would not), and the
inexact one is only checked for the columns it names.

A column whose static type is not known (``Any``: an output the rules could not
type, a field of a type the plugin cannot map) stays in the placeholder frame,
typed ``Unknown``, a stand-in type no rule accepts. So the frame keeps every
column (``filter``, ``sort``, ``with_columns`` keep it in their result, where it
stays ``Any``; ``select`` of other columns drops it) and every other column stays
checked; an argument that reads an unknown column (an expression over it, its
name, a selector, which picks columns by type) is taken as inexact, so only the
names it reads are checked, and an error the runtime raises naming an unknown
column is not reported (it may come from the stand-in's type). The alternative,
leaving such a frame unchecked, let one ``Any`` column switch off the checks of
every other; giving the column a guessed type would report errors of the guess.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from mypy.checker import TypeChecker
from mypy.nodes import NameExpr, Var
from mypy.types import AnyType, Instance, Type, TypeOfAny, UnionType, get_proper_type

from pydantable_spark import dtypes as dt
from pydantable_spark._mypy.coverage import FRAME_ENTRIES, GROUP_BY_ENTRIES, PLAN, replayed_names
from pydantable_spark._mypy.evaluate import report, reportable
from pydantable_spark._mypy.ir import (
    Arguments,
    Value,
    arguments,
    assigned_values,
    nodes_in,
    receiver,
    record,
    value_of,
)
from pydantable_spark._mypy.statics import static_of
from pydantable_spark.errors import SchemaError, UnknownColumnError
from pydantable_spark.schema import Schema

if TYPE_CHECKING:
    from collections.abc import Sequence

    from mypy.plugin import MethodContext

    from pydantable_spark._mypy.models import Output
    from pydantable_spark.frame import DataFrame

__all__ = [
    "GROUP_BY_METHODS",
    "PIVOTS",
    "Outcome",
    "Unknown",
    "check",
    "frame_methods",
    "placeholder_frame",
    "schema_of",
    "single_receiver",
    "static_schema",
    "unknown_columns",
]

PIVOTS = frozenset({"pivot", "pivot_wider"})
"""Methods whose schema depends on data unless ``pivot_values`` is given (without it, they run a Spark job)."""
GROUP_BY_METHODS = replayed_names(GROUP_BY_ENTRIES, PLAN)


def frame_methods() -> frozenset[str]:
    """The frame methods that only build a plan: replayed on the static schema (the registry's, ``coverage``).

    ``as_model`` has its own hook (``frames.as_model``) and the pivots are
    checked only when given ``pivot_values``; an eager method (``checkpoint``)
    is run-time only. ``tests/typing/test_coverage.py`` checks that these are
    the frame's public methods that return a frame or a ``GroupBy`` and do not
    act on Spark.
    """
    return _FRAME_METHODS


_FRAME_METHODS = replayed_names(FRAME_ENTRIES, PLAN) - PIVOTS


def static_schema(frame_type: Type) -> Schema | None:
    """The runtime schema of a frame type whose columns mypy knows (those of unknown type typed ``Unknown``)."""
    from pydantable_spark._mypy.frames import frame_columns

    columns = frame_columns(frame_type)
    return None if columns is None else schema_of(columns)


@dataclass(frozen=True, slots=True)
class Unknown(dt.DType):
    """The stand-in type of a column whose static type is not known: no type rule accepts it.

    Only placeholder frames hold it; what reads such a column is not checked
    but for the names it reads (``check``).
    """

    sql_name: ClassVar[str] = "unknown"


def schema_of(columns: Sequence[Output]) -> Schema:
    """The runtime schema of these static columns; a column of unknown type is typed ``Unknown``."""
    fields = []
    for column in columns:
        static = static_of(column.type)
        dtype = Unknown() if static.dtype is None else static.dtype
        fields.append(dt.Field(column.name, dtype, static.nullable))
    return Schema(tuple(fields))


def unknown_columns(schema: Schema) -> frozenset[str]:
    """The names of the columns of ``schema`` whose type is not known statically."""
    return frozenset(f.name for f in schema if isinstance(f.dtype, Unknown))


_FRAMES: dict[tuple[Schema, str | None], DataFrame[Any]] = {}


class DeclaredModel:
    """Stands for the model a placeholder frame is declared with (``DataFrame[User]``): only its name is read.

    A join condition's model attribute (``User.id == Dept.id``) belongs to the
    side declared with that model (``frame._declared_model``).
    """


def _declared_model(frame_type: Type) -> str | None:
    """The name of the model of ``DataFrame[User]``; None for a derived row type (``Row[...]``)."""
    from pydantable_spark._mypy.frames import as_frame

    frame = as_frame(frame_type)
    row = get_proper_type(frame.args[0]) if frame is not None and frame.args else None
    if not isinstance(row, Instance) or row.type.name.startswith("Row["):
        return None
    return row.type.name


def placeholder_frame(frame_type: Type) -> DataFrame[Any] | None:
    """A frame with the static schema of ``frame_type`` and no data (None when the schema is not known)."""
    from pydantable_spark.frame import DataFrame
    from pydantable_spark.plan import nodes as p

    schema = static_schema(frame_type)
    if schema is None or not schema.fields:  # a field-less model: the runtime refuses it as a frame's model
        return None
    name = _declared_model(frame_type)
    frame = _FRAMES.get((schema, name))
    if frame is None:
        model = None if name is None else type(name, (DeclaredModel,), {})
        frame = _FRAMES[(schema, name)] = DataFrame(p.Source(None, schema), model)
    return frame


@dataclass(frozen=True, slots=True)
class Outcome:
    """What running the method found: an error was reported, and the runtime's result (when it ran exactly)."""

    error: bool
    result: object | None = None


def _receiver_value(ctx: MethodContext, method: str) -> object | None:
    from pydantable_spark.groupby import GroupBy

    if method in GROUP_BY_METHODS:
        source = receiver(ctx)
        found = value_of(ctx.api, source) if source is not None else None  # type: ignore[arg-type]
        return found.value if found is not None and found.exact and isinstance(found.value, GroupBy) else None
    return placeholder_frame(ctx.type)


def check(ctx: MethodContext, method: str) -> Outcome:
    """Run the runtime's ``method`` on a frame of the static schema with the call's arguments."""
    from pydantable_spark.frame import DataFrame

    frame = _receiver_value(ctx, method)
    if frame is None or (method in PIVOTS and not _has(ctx, "pivot_values")) or _ever_unknown(ctx):
        return Outcome(error=False)
    found = arguments(ctx)
    if found is None:
        return Outcome(error=False)
    target = getattr(frame, method)
    unknown = _unknown_in(frame, found)
    if unknown:
        accepted = _accepted(ctx, target, found)
        if accepted is not None:
            return accepted
        found = _reading_marked(found, unknown)
    alternatives = _alternatives(ctx, method)
    others = None if alternatives is None else [getattr(f, method) for f in alternatives]
    if found.complete:
        return _run(ctx, method, target, found, others, exact=True, unknown=unknown)
    reduced = _reduced(target, found)
    outcome = (
        _run(ctx, method, target, reduced, others, exact=False, unknown=unknown)
        if reduced is not None
        else Outcome(error=False)
    )
    if outcome.error:
        return outcome
    schema = frame.schema if isinstance(frame, DataFrame) else frame._frame.schema  # type: ignore[attr-defined]
    return Outcome(error=_check_names(ctx, method, found, schema, everything=reduced is None))


def _schema_of_value(value: object) -> Schema | None:
    from pydantable_spark.frame import DataFrame
    from pydantable_spark.groupby import GroupBy

    if isinstance(value, DataFrame):
        return value.schema
    if isinstance(value, GroupBy):
        return value._frame.schema
    return None


def _unknown_in(receiver_value: object, found: Arguments) -> frozenset[str]:
    """The names of the unknown columns of the receiver and of the frames passed as arguments."""
    values = [receiver_value, *(v.value for _, v in found.positional if v is not None)]
    values += [v.value for _, _, v in found.named if v is not None]
    names: frozenset[str] = frozenset()
    for value in values:
        schema = _schema_of_value(value)
        if schema is not None:
            names |= unknown_columns(schema)
    return names


def _reads(value: object, unknown: frozenset[str]) -> bool:
    """Whether ``value`` reads a column of ``unknown``: an expression over one, its name, or a selector."""
    from pydantable_spark.expr.core import Column
    from pydantable_spark.selectors import Selector

    if isinstance(value, str):
        return value.split(".", 1)[0] in unknown or value in unknown
    if isinstance(value, Selector):
        return True  # it picks columns by their types, which are not known
    if isinstance(value, list | tuple | set | frozenset):
        return any(_reads(item, unknown) for item in value)
    if isinstance(value, dict):
        return any(_reads(k, unknown) or _reads(v, unknown) for k, v in value.items())
    return any(
        isinstance(n, Column) and (n.name in unknown or n.name.split(".", 1)[0] in unknown) for n in nodes_in(value)
    )


def _accepted(ctx: MethodContext, target: Any, found: Arguments) -> Outcome | None:
    """The outcome of the call where the runtime accepts it as written, over the unknown columns' stand-in type.

    Then its result is what the runtime builds, the unknown columns typed
    ``Unknown`` in it (``Any`` to the rows); None when it raises (the arguments
    reading unknown columns are then checked for their names only), or when an
    argument selects columns by type (a selector would leave out the unknown ones).
    """
    from pydantable_spark.selectors import Selector

    values = [v for _, v in found.positional] + [v for _, _, v in found.named]
    if not found.complete or any(isinstance(v.value, Selector) for v in values if v is not None):
        return None
    positional, named = found.values()
    try:
        result = target(*positional, **named)
    except Exception:
        return None
    record(ctx.api, ctx.context, Value(result, True))  # type: ignore[arg-type]
    return Outcome(error=False, result=result)


def _reading_marked(found: Arguments, unknown: frozenset[str]) -> Arguments:
    """The arguments, those reading an unknown column taken as inexact (only their names are checked)."""

    def marked(value: Value | None) -> Value | None:
        if value is None or not value.exact or not _reads(value.value, unknown):
            return value
        return Value(value.value, False)

    return Arguments([(e, marked(v)) for e, v in found.positional], [(n, e, marked(v)) for n, e, v in found.named])


def names_unknown(error: Exception, unknown: frozenset[str]) -> bool:
    """Whether the runtime's message names one of the ``unknown`` columns (the error may be the stand-in's)."""
    message = str(error)
    return any(f"'{name}'" in message or f'"{name}"' in message for name in unknown)


def _ever_unknown(ctx: MethodContext) -> bool:
    """Whether the receiver is a variable that is also bound to a frame of unknown columns somewhere.

    mypy may give such a variable the columns of its other bindings where it
    joins the paths (after a loop, in ``except``), which would report columns
    that are there; it is not checked anywhere.
    """
    api = ctx.api
    assert isinstance(api, TypeChecker)
    source = receiver(ctx)
    if not (isinstance(source, NameExpr) and isinstance(source.node, Var)):
        return False
    for value in assigned_values(api, source.node):
        t = api.lookup_type_or_none(value) if value is not None else None
        if t is not None and (isinstance(get_proper_type(t), AnyType) or _is_any_frame(t)):
            return True
    return False


def single_receiver(ctx: MethodContext) -> bool:
    """Whether the receiver's static columns are the ones it holds at run time.

    Not a union of frames (mypy checks each member; see ``_alternatives``) and
    not a variable that is also bound to a frame of unknown columns (``_ever_unknown``).
    """
    source = receiver(ctx)
    whole = ctx.api.lookup_type_or_none(source) if source is not None else None  # type: ignore[attr-defined]
    return not isinstance(get_proper_type(whole), UnionType) and not _ever_unknown(ctx)


def _has(ctx: MethodContext, name: str) -> bool:
    return name in ctx.callee_arg_names and bool(ctx.args[ctx.callee_arg_names.index(name)])


def _alternatives(ctx: MethodContext, method: str) -> list[Any] | None:
    """The other frames the receiver may be, when its type is a union (None: one of them is not known).

    mypy checks a call on a union once per member; the plugin reports an error
    only when the method fails on every member, since mypy's unions of frames
    over-approximate (a variable rebound in a ``try`` is either frame in ``except``).
    """
    if method in GROUP_BY_METHODS:
        return []
    source = receiver(ctx)
    whole = ctx.api.lookup_type_or_none(source) if source is not None else None  # type: ignore[attr-defined]
    proper = get_proper_type(whole) if whole is not None else None
    if not isinstance(proper, UnionType):
        return []
    me = get_proper_type(ctx.type)
    frames = []
    for item in proper.items:
        if get_proper_type(item) == me:
            continue
        frame = placeholder_frame(item)
        if frame is None:
            return None
        frames.append(frame)
    return frames


def _fails(target: Any, positional: list[object], named: dict[str, object]) -> bool:
    try:
        target(*positional, **named)
    except Exception:
        return True
    return False


def _run(
    ctx: MethodContext,
    method: str,
    target: Any,
    found: Arguments,
    others: list[Any] | None,
    *,
    exact: bool,
    unknown: frozenset[str] = frozenset(),
) -> Outcome:
    positional, named = found.values()
    try:
        result = target(*positional, **named)
    except Exception as error:
        if not reportable(error) or names_unknown(error, unknown):
            return Outcome(error=False)
        if others is None or not all(_fails(other, positional, named) for other in others):
            return Outcome(error=False)
        message = str(error)
        prefix = "" if f"{method}(" in message else f"{method}(): "
        report(ctx, error, prefix)
        return Outcome(error=True)
    if exact:
        record(ctx.api, ctx.context, Value(result, True))  # type: ignore[arg-type]
    return Outcome(error=False, result=result if exact else None)


def _reduced(target: Any, found: Arguments) -> Arguments | None:
    """The arguments without the inexact ones, when leaving those out cannot make the method fail.

    Only arguments of ``*args`` and ``**kwargs`` may be left out (each stands for
    its own column or predicate); an inexact argument of any other parameter,
    or leaving none at all, gives no call.
    """
    parameters = list(inspect.signature(target).parameters.values())
    before_star = 0
    for parameter in parameters:
        if parameter.kind is inspect.Parameter.VAR_POSITIONAL:
            break
        before_star += 1
    else:
        before_star = len(parameters) + len(found.positional)
    named_params = {p.name for p in parameters if p.kind is not inspect.Parameter.VAR_KEYWORD}
    positional = []
    for index, (expr, value) in enumerate(found.positional):
        usable = value is not None and value.exact
        if not usable and index < before_star:
            return None
        if usable:
            positional.append((expr, value))
    named = []
    for name, expr, value in found.named:
        usable = value is not None and value.exact
        if not usable and name in named_params:
            return None
        if usable:
            named.append((name, expr, value))
    if not positional and not named:
        return None
    per_key = any(n in named_params and v is not None and isinstance(v.value, list | tuple) for n, _, v in named)
    if per_key and len(positional) < len(found.positional):  # sort("a", x, descending=[True, False])
        return None
    return Arguments(positional, named)


_OTHER_FRAME = {"join": ("right_on",)}
"""Arguments naming columns of another frame than the receiver."""


def _check_names(ctx: MethodContext, method: str, found: Arguments, schema: Schema, *, everything: bool) -> bool:
    """The columns an inexact argument names must exist (what else it does depends on its unknown part).

    ``everything``: the method did not run, so the exact arguments are checked so too.
    """
    from pydantable_spark.expr.core import Column

    values = [v for _, v in found.positional] + [v for n, _, v in found.named if n not in _OTHER_FRAME.get(method, ())]
    either = _join_condition_names(ctx, found) if method == "join" else {}
    for value in values:
        if value is None or (value.exact and not everything):
            continue
        known = either.get(id(value), schema.names)
        if known is None:  # a join condition, and the other frame's columns are not known
            continue
        for node in nodes_in(value.value):
            if isinstance(node, Column) and node.name not in known:
                error: SchemaError = UnknownColumnError(node.qualified, schema.names)
                report(ctx, error, f"{method}(): ")
                return True
    return False


def _join_condition_names(ctx: MethodContext, found: Arguments) -> dict[int, tuple[str, ...] | None]:
    """For ``join``'s ``on=`` (by ``id`` of its value): the names its columns may have, of either frame.

    A join condition names a column of either side (``bind_condition``): the
    columns of both frames, or None when the other frame's are not known.
    """
    right_type = ctx.arg_types[0][0] if ctx.arg_types and ctx.arg_types[0] else None
    right = static_schema(right_type) if right_type is not None else None
    left = static_schema(ctx.type)
    names = None if right is None or left is None else (*left.names, *right.names)
    on = [v for n, _, v in found.named if n == "on"] + [v for _, v in found.positional[1:2]]
    return {id(v): names for v in on if v is not None}


def refined(ctx: MethodContext, method: str, typed: Type, result: object) -> Type:
    """``typed``, with the columns the typing hooks left unknown taken from the runtime's result.

    A method the plugin has no typing rule for (``drop_nulls``, ``union``,
    ``explode``...) is typed ``DataFrame[Any]`` by its signature, and an output
    the hooks cannot type (``F.col("x") * 2``) is ``Any``; when the runtime
    built the plan exactly, its schema says what they are. Columns the hooks
    typed keep their types, and so do those the method kept from its input (a
    ``Literal``, an enum, a nested model), with the runtime's nullability (where
    the rules and the runtime could differ, the runtime is right). A column the
    method renamed keeps the type of the column it was (``rename_prefix``,
    ``rename_with_selector``: the plan's projection says which), as ``rename``'s
    typing rule gives it.
    """
    from pydantable_spark._mypy.frames import Output, frame_columns, frame_of
    from pydantable_spark._mypy.relational import grouped_frame, python_type
    from pydantable_spark._mypy.statics import Static, mypy_type
    from pydantable_spark.frame import DataFrame

    api = ctx.api
    assert isinstance(api, TypeChecker)
    source = grouped_frame(ctx) if method in GROUP_BY_METHODS else ctx.type
    if not isinstance(result, DataFrame):
        return frame_of(api, None, source) if _is_any_frame(typed) else typed
    runtime = result.schema
    columns = frame_columns(typed)
    known = (frame_columns(source) if source is not None else None) or []
    by_name = {c.name: c.type for c in known}
    renamed = _renamed_columns(result)
    originals = [Static(s.dtype, s.nullable, c.type) for c in known if (s := static_of(c.type)).dtype is not None]
    if columns is None:
        if not _is_any_frame(typed):
            return typed
        columns = [Output(f.name, AnyType(TypeOfAny.special_form)) for f in runtime]
    elif [c.name for c in columns] != list(runtime.names):
        return typed
    filled = []
    for column, field in zip(columns, runtime, strict=True):
        static = static_of(column.type)
        if static.known:  # typed by the rules: the runtime's nullability where the type is the same
            same = static.dtype == field.dtype and static.nullable != field.nullable
            filled.append(Output(column.name, python_type(api, field, column.type)) if same else column)
        elif isinstance(field.dtype, Unknown):  # a column of unknown type kept: its own type (``Any``)
            filled.append(Output(column.name, by_name.get(renamed.get(field.name, field.name), column.type)))
        elif (origin := renamed.get(field.name, field.name)) in by_name and static_of(
            by_name[origin]
        ).dtype == field.dtype:
            filled.append(Output(column.name, python_type(api, field, by_name[origin])))
        else:
            same_type = [o for o in originals if o.dtype == field.dtype]
            filled.append(Output(column.name, mypy_type(api, field.dtype, field.nullable, same_type)))
    if all(a is b for a, b in zip(columns, filled, strict=True)) and not _is_any_frame(typed):
        return typed
    return frame_of(api, filled, source)


def _renamed_columns(result: DataFrame[Any]) -> dict[str, str]:
    """Output name → the receiver's column it is, for the columns a projection of the receiver renamed."""
    from pydantable_spark.expr.core import Alias, Column
    from pydantable_spark.plan import nodes as p

    plan = result.plan
    if not (isinstance(plan, p.Project) and isinstance(plan.input, p.Source)):
        return {}
    return {e.name: e.child.name for e in plan.exprs if isinstance(e, Alias) and type(e.child) is Column}


def _is_any_frame(t: Type) -> bool:
    """Whether ``t`` is ``DataFrame[Any]`` (or a derived frame of unknown columns)."""
    from pydantable_spark._mypy.frames import as_frame

    frame = as_frame(t)
    return frame is not None and bool(frame.args) and isinstance(get_proper_type(frame.args[0]), AnyType)
