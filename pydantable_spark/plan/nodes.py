"""Relational plan nodes; each derives its output schema when it is built.

Plans are values: building one never changes another, and nothing here talks
to Spark. ``pydantable_spark.steps`` turns a plan into Spark steps and
``pydantable_spark._spark.execute`` makes their calls.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import (
    ArgumentTypeError,
    ArgumentValueError,
    ColumnTypeError,
    DuplicateColumnError,
    SchemaError,
    UnknownColumnError,
)
from pydantable_spark.expr.core import (
    Alias,
    Column,
    Node,
    bare_window_function,
    contains_aggregate,
    contains_window,
    describe,
    render,
)
from pydantable_spark.schema import Schema

if TYPE_CHECKING:
    from collections.abc import Iterator

    from pydantable_spark.reconcile import Reconciliation

__all__ = [
    "Distinct",
    "Filter",
    "Limit",
    "Plan",
    "Project",
    "Reconcile",
    "Sort",
    "SortKey",
    "Source",
]


@dataclass(frozen=True, slots=True)
class Plan:
    """A relational operation; ``schema`` is derived from the inputs at construction."""

    schema: Schema = field(init=False, compare=False, repr=False)
    streaming: bool = field(init=False, compare=False, repr=False)
    """Whether the plan reads a stream (``plan.streaming``): a source's holder says so, a node's inputs pass it on."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "schema", self.derive())
        streaming = any(i.streaming for i in self.inputs())
        object.__setattr__(self, "streaming", streaming)
        if streaming:
            from pydantable_spark.plan.streaming import check_streaming

            check_streaming(self)

    def derive(self) -> Schema:
        """The output schema; raise a ``SchemaError`` if the operation is invalid."""
        raise NotImplementedError

    def inputs(self) -> tuple[Plan, ...]:
        """The plans this one reads."""
        return ()

    def walk(self) -> Iterator[Plan]:
        """This plan and every plan below it, depth first (iteratively: a plan of any depth)."""
        pending: list[Plan] = [self]
        while pending:
            plan = pending.pop()
            yield plan
            pending.extend(reversed(plan.inputs()))

    def describe(self) -> str:
        """One line about this node for ``explain()``."""
        return type(self).__name__

    def call(self) -> str:
        """The call a user wrote to make this step (``as_model(Out)``, ``explode(['tags'])``), for messages."""
        return self.describe()


@dataclass(frozen=True, slots=True, eq=False)
class Source(Plan):
    """Data the plan starts from: validated rows, an Arrow table or a Spark DataFrame.

    ``data`` is one of the holders in ``pydantable_spark.plan.sources``;
    ``session`` is the session to use, or None for the default one.
    """

    data: Any
    data_schema: Schema
    session: Any = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "schema", self.derive())
        object.__setattr__(self, "streaming", bool(getattr(self.data, "streaming", False)))

    def derive(self) -> Schema:
        if not self.data_schema.fields:
            source = f" ({self.data.describe()})" if self.data is not None else ""
            msg = f"a frame needs at least one column; its source{source} has none"
            raise SchemaError(msg)
        return self.data_schema

    def describe(self) -> str:
        return f"Source [{self.data.describe()}]"


@dataclass(frozen=True, slots=True)
class Project(Plan):
    """The output columns are the (bound) expressions, in order."""

    input: Plan
    exprs: tuple[Node, ...]

    def derive(self) -> Schema:
        if not self.exprs:
            msg = "select() needs at least one column"
            raise ArgumentTypeError(msg)
        seen: dict[str, Node] = {}
        fields = []
        given = self.input.schema
        for expr in self.exprs:
            if type(expr) is Column:  # a column passed through: its field as it was
                name = expr.name
                kept = given.get(name)
                typed = expr.typed
                if (
                    typed is not None
                    and kept is not None
                    and kept.nullable == typed.nullable
                    and (kept.dtype is typed.dtype or kept.dtype == typed.dtype)
                    and name not in seen
                ):
                    seen[name] = expr
                    fields.append(kept)
                    continue
            check_row_expression(expr, "select()")
            name = expr.output_name
            if name in seen:
                msg = (
                    f"two output columns are named {name!r} ({render(seen[name])} and {render(expr)}); "
                    "give one of them another name with .alias() or a keyword argument"
                )
                raise DuplicateColumnError(msg)
            seen[name] = expr
            typed = expr.type
            kept = given.get(name) if isinstance(expr, Column) else None
            if kept is not None and kept.dtype is typed.dtype and kept.nullable == typed.nullable:
                fields.append(kept)  # a column passed through: its field as it was
            else:
                fields.append(dt.Field(name, typed.dtype, typed.nullable))
        return Schema(tuple(fields))

    def inputs(self) -> tuple[Plan, ...]:
        return (self.input,)

    def describe(self) -> str:
        return f"Project [{', '.join(_named(e) for e in self.exprs)}]"


def check_row_expression(expr: Node, what: str, *, windows: bool = True) -> None:
    """An expression computed row by row: no bare window function, no aggregate outside a window."""
    if isinstance(expr, Column):
        return
    refuse_time_bucket(expr, what)
    function = bare_window_function(expr)
    if function is not None:
        msg = f"{what}: {function.label}() needs a window: F.{function.label}(...).over(Window...)"
        raise ColumnTypeError(msg)
    if contains_aggregate(expr):
        msg = (
            f"{what}: {render(expr)} aggregates rows; use group_by().agg(), select() with aggregates only "
            "(one row), with_columns() (the total on every row) or .over(window)"
        )
        raise ColumnTypeError(msg)
    if not windows and contains_window(expr):
        msg = f"{what}: {render(expr)} uses a window; compute it with with_columns() first, then use that column"
        raise ColumnTypeError(msg)


def refuse_time_bucket(expr: Node, what: str) -> None:
    """A time bucket (``F.window``, ``F.session_window``) stands only as a ``group_by`` key.

    Spark gives it a meaning nowhere else: a sliding window repeats a row once
    per window it falls in, and outside grouping that changes a frame's rows.
    """
    bucket = expr.facts.bucket
    if bucket is not None:
        msg = (
            f"{what}: {render(bucket)} is a time bucket, which stands only as a group_by() key: "
            f"frame.group_by(F.{bucket.label}(...)).agg(...)"
        )
        raise ColumnTypeError(msg)


def _named(expr: Node) -> str:
    shown = render(expr.child if isinstance(expr, Alias) else expr)
    return shown if shown == expr.output_name else f"{shown} AS {expr.output_name}"


@dataclass(frozen=True, slots=True)
class Filter(Plan):
    """Rows where the predicate is exactly true (false and NULL are dropped)."""

    input: Plan
    predicate: Node

    def derive(self) -> Schema:
        check_row_expression(self.predicate, "filter()", windows=False)
        if not isinstance(self.predicate.type.dtype, dt.Boolean):
            msg = f"filter() needs a boolean expression; got {describe(self.predicate)}"
            raise ColumnTypeError(msg)
        return self.input.schema

    def inputs(self) -> tuple[Plan, ...]:
        return (self.input,)

    def describe(self) -> str:
        return f"Filter [{render(self.predicate)}]"


@dataclass(frozen=True, slots=True)
class SortKey:
    """One sort key: an expression, its direction and where NULLs go."""

    expr: Node
    descending: bool = False
    nulls_last: bool = False

    def __str__(self) -> str:
        direction = "DESC" if self.descending else "ASC"
        nulls = "NULLS LAST" if self.nulls_last else "NULLS FIRST"
        return f"{render(self.expr)} {direction} {nulls}"


@dataclass(frozen=True, slots=True)
class Sort(Plan):
    """Rows ordered by the keys, the first key first."""

    input: Plan
    keys: tuple[SortKey, ...]

    def derive(self) -> Schema:
        if not self.keys:
            msg = "sort() needs at least one key"
            raise ArgumentTypeError(msg)
        for key in self.keys:
            check_row_expression(key.expr, "sort()", windows=False)
            if dt.contains_map(key.expr.type.dtype):
                msg = f"cannot sort by {describe(key.expr)}: maps have no order"
                raise ColumnTypeError(msg)
            if dt.contains_variant(key.expr.type.dtype):
                msg = f"cannot sort by {describe(key.expr)}: {dt.VARIANT_NOT_COMPARABLE}"
                raise ColumnTypeError(msg)
        return self.input.schema

    def inputs(self) -> tuple[Plan, ...]:
        return (self.input,)

    def describe(self) -> str:
        return f"Sort [{', '.join(str(k) for k in self.keys)}]"


@dataclass(frozen=True, slots=True)
class Limit(Plan):
    """At most ``n`` rows."""

    input: Plan
    n: int

    def derive(self) -> Schema:
        if self.n < 0:
            msg = f"limit() needs n >= 0, got {self.n}"
            raise ArgumentValueError(msg)
        return self.input.schema

    def inputs(self) -> tuple[Plan, ...]:
        return (self.input,)

    def describe(self) -> str:
        return f"Limit [{self.n}]"


@dataclass(frozen=True, slots=True)
class Offset(Plan):
    """All rows but the first ``n`` (in the frame's current order)."""

    input: Plan
    n: int

    def derive(self) -> Schema:
        if self.n < 0:
            msg = f"offset() needs n >= 0, got {self.n}"
            raise ArgumentValueError(msg)
        return self.input.schema

    def inputs(self) -> tuple[Plan, ...]:
        return (self.input,)

    def describe(self) -> str:
        return f"Offset [{self.n}]"


@dataclass(frozen=True, slots=True)
class Distinct(Plan):
    """One row per distinct value of ``subset`` (all columns when None); which row is kept is unspecified."""

    input: Plan
    subset: tuple[str, ...] | None = None

    def derive(self) -> Schema:
        schema = self.input.schema
        for name in self.subset or ():
            if name not in schema:
                raise UnknownColumnError(name, schema.names, where="unique(subset=...)")
        keys = [schema[n] for n in self.subset] if self.subset else list(schema)
        maps = [f.name for f in keys if dt.contains_map(f.dtype)]
        if maps:
            msg = f"unique() cannot compare map columns ({', '.join(maps)}); pass subset= without them"
            raise ColumnTypeError(msg)
        variants = [f.name for f in keys if dt.contains_variant(f.dtype)]
        if variants:
            msg = f"unique() cannot compare VARIANT columns ({', '.join(variants)}); pass subset= without them: "
            raise ColumnTypeError(msg + dt.VARIANT_NOT_COMPARABLE)
        return schema

    def inputs(self) -> tuple[Plan, ...]:
        return (self.input,)

    def describe(self) -> str:
        return f"Distinct [{', '.join(self.subset) if self.subset else '*'}]"


@dataclass(frozen=True, slots=True)
class Reconcile(Plan):
    """The input reconciled with a target schema by the strict rules (see ``reconcile``)."""

    input: Plan
    reconciliation: Reconciliation
    made_by: str = "as_model()"
    """The call that asked for it (``as_model(Out)``, a reader), for messages."""

    def derive(self) -> Schema:
        return self.reconciliation.schema

    def call(self) -> str:
        return self.made_by

    def inputs(self) -> tuple[Plan, ...]:
        return (self.input,)

    def describe(self) -> str:
        return f"Reconcile [{self.reconciliation.describe()}]"


def render_plan(plan: Plan, indent: int = 0) -> list[str]:
    """The plan as indented lines, the last operation first (``explain()``'s logical plan)."""
    lines = ["  " * indent + plan.describe()]
    for child in plan.inputs():
        lines += render_plan(child, indent + 1)
    return lines
