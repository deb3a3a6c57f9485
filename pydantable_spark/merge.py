"""Typed MERGE (upsert) into Delta Lake and Iceberg tables: the clauses, the two sides, and their checks.

``frame.merge_into(table, on=..., when_matched=..., when_not_matched=...,
when_not_matched_by_source=...)`` merges the rows of ``frame`` (the *source*)
into a Delta Lake or Iceberg table (the *target*), described by a model, as
the table format's own ``MERGE INTO`` does, in one commit. The clauses are
values built here:

* ``when_matched`` (a source row meets a target row): ``update(...)``,
  ``update_all(...)``, ``delete()``;
* ``when_not_matched`` (a source row meets none): ``insert(...)``, ``insert_all(...)``;
* ``when_not_matched_by_source`` (a target row no source row meets): ``update(...)``, ``delete()``.

Each takes a typed ``condition=``; several clauses of a kind are tried in
order, and every one but the last must have a condition (as MERGE requires).
Values are the library's typed expressions: a column of one side is
``source.col("x")`` / ``target.col("x")``, or a model attribute
(``Update.qty``) when that model is the frame's or the table's (a model both
sides share names the only side the clause can read); other Python values are
literals of the target column's type. No text is SQL.

Everything is checked when the merge is built, before Spark runs anything:
key columns on both sides with comparable types, every assigned column in the
target model with a value of a compatible type and nullability (a value
that may be NULL, a ``None`` literal included, into a non-null column is
refused: give a value, or a default with ``F.coalesce``; ``assigned_value``
is the rule), conditions boolean, and a side a clause has no row of
(``target`` in ``when_not_matched``, ``source`` in ``when_not_matched_by_source``)
refused.

```pycon
>>> from pydantable_spark import DataFrameModel
>>> from pydantable_spark.merge import insert_all, source, target, update
>>> class Stock(DataFrameModel):
...     sku: str
...     qty: int
>>> updates = Stock.from_rows([{"sku": "a", "qty": 2}])
>>> updates.merge_into("lake.shop.stock", on="sku", when_matched=update(qty=target.col("qty") + source.col("qty")),
...                    when_not_matched=insert_all(), when_not_matched_by_source=update(qty=source.col("qty")))
Traceback (most recent call last):
...
pydantable_spark.errors.ColumnTypeError: merge_into('lake.shop.stock'): when_not_matched_by_source update(qty=...):
source.qty is a column of the source, and when_not_matched_by_source has no source row ...
>>> updates.merge_into("lake.shop.stock", on="sku", when_matched=update(qtty=source.col("qty")))
Traceback (most recent call last):
...
pydantable_spark.errors.UnknownColumnError: unknown column 'qtty' in the target model Stock (when_matched update());
existing columns: sku, qty; did you mean 'qty'?

```
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantable_spark import dtypes as dt
from pydantable_spark.annotations import python_name
from pydantable_spark.errors import (
    AmbiguousSideError,
    ArgumentTypeError,
    ArgumentValueError,
    ColumnTypeError,
    NullabilityError,
    ReconciliationError,
    UnknownColumnError,
    shown,
)
from pydantable_spark.expr.api import Col, Expr
from pydantable_spark.expr.core import (
    Cast,
    Column,
    Node,
    Typed,
    bind,
    check_param,
    describe,
    literal_of,
    render,
)
from pydantable_spark.expr.core import Literal as LiteralNode
from pydantable_spark.expr.operators import comparable
from pydantable_spark.expr.sides import SideColumn
from pydantable_spark.plan.nodes import check_row_expression
from pydantable_spark.reconcile import reconcile
from pydantable_spark.schema import Schema

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

__all__ = [
    "Delete",
    "Insert",
    "MergeMetrics",
    "MergeSide",
    "Update",
    "delete",
    "insert",
    "insert_all",
    "source",
    "target",
    "update",
    "update_all",
]

Side = Literal["source", "target"]
Kind = Literal["when_matched", "when_not_matched", "when_not_matched_by_source"]

_READS: dict[Kind, tuple[Side, ...]] = {
    "when_matched": ("source", "target"),
    "when_not_matched": ("source",),
    "when_not_matched_by_source": ("target",),
}
_NO_ROW = {
    "source": "has no source row (it acts on target rows no source row matched)",
    "target": "has no target row (it inserts source rows that matched none)",
}


class MergeSide:
    """One side of a merge: ``source`` (the frame ``merge_into`` is called on) or ``target`` (the table)."""

    __slots__ = ("_side",)

    def __init__(self, side: Side) -> None:
        self._side: Side = side

    def col(self, name: str) -> Col[Any]:
        """The column ``name`` of this side; its type is the frame's or the target model's, known at merge time."""
        check_param(f"{self._side}.col()", "name", name, str)
        return Col(SideColumn(name, None, None, self._side))

    def __repr__(self) -> str:
        return self._side


source = MergeSide("source")
"""The rows merged in (the frame ``merge_into`` is called on): ``source.col("x")``."""
target = MergeSide("target")
"""The table merged into: ``target.col("x")``."""


# --- clauses ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Update:
    """``UPDATE SET`` the ``values`` (target column → node or Python value); ``every``: ``update_all``."""

    values: tuple[tuple[str, object], ...]
    condition: Node | None = None
    every: bool = False
    action: ClassVar[str] = "update"

    @property
    def label(self) -> str:
        """The call that made the clause, as messages name it: ``update()`` or ``update_all()``."""
        return "update_all()" if self.every else "update()"


@dataclass(frozen=True, slots=True)
class Insert:
    """``INSERT`` a row of the ``values``; ``every``: ``insert_all`` (the others from the source's same names)."""

    values: tuple[tuple[str, object], ...]
    condition: Node | None = None
    every: bool = False
    action: ClassVar[str] = "insert"

    @property
    def label(self) -> str:
        """The call that made the clause, as messages name it: ``insert()`` or ``insert_all()``."""
        return "insert_all()" if self.every else "insert()"


@dataclass(frozen=True, slots=True)
class Delete:
    """``DELETE`` the target row."""

    condition: Node | None = None
    action: ClassVar[str] = "delete"
    label: ClassVar[str] = "delete()"


Clause = Update | Insert | Delete
_TAKES: dict[Kind, tuple[type, ...]] = {
    "when_matched": (Update, Delete),
    "when_not_matched": (Insert,),
    "when_not_matched_by_source": (Update, Delete),
}
_TAKES_TEXT: dict[Kind, str] = {
    "when_matched": "update(...), update_all(...) or delete()",
    "when_not_matched": "insert(...) or insert_all(...)",
    "when_not_matched_by_source": "update(...) or delete()",
}


def _condition(condition: object, what: str) -> Node | None:
    if condition is None:
        return None
    if not isinstance(condition, Expr):
        msg = (
            f"{what}: condition= must be a boolean expression (e.g. source.col('qty') > 0), got "
            f"{shown(condition)} ({type(condition).__name__})"
        )
        raise ArgumentTypeError(msg)
    return condition.node


def _values(given: object, columns: Mapping[str, object], what: str) -> tuple[tuple[str, object], ...]:
    """The assignments of a clause: a mapping and/or keywords, each a target column name → value."""
    if given is not None and not isinstance(given, Mapping):
        msg = f"{what}: the positional argument must be a mapping of target column names to values, got {shown(given)}"
        raise ArgumentTypeError(msg)
    merged: dict[str, object] = {}
    for name, value in [*dict(given or {}).items(), *columns.items()]:
        if not isinstance(name, str):
            msg = f"{what}: target column names must be str, got {shown(name)} ({type(name).__name__})"
            raise ArgumentTypeError(msg)
        if name in merged:
            msg = f"{what}: column {name!r} is given twice"
            raise ArgumentValueError(msg)
        if isinstance(value, Expr):
            merged[name] = value.node
        else:
            if value is not None:
                literal_of(value)  # a value a literal can hold, checked now: its type is the column's, at merge time
            merged[name] = value
    return tuple(merged.items())


def update(
    values: Mapping[str, object] | None = None, /, *, condition: Expr[Any] | None = None, **columns: object
) -> Update:
    """``UPDATE SET column = value, ...`` (``when_matched``, ``when_not_matched_by_source``).

    ```pycon
    >>> from pydantable_spark.merge import source
    >>> [name for name, _ in update(qty=source.col("qty"), note=None).values]
    ['qty', 'note']
    >>> update()
    Traceback (most recent call last):
    ...
    pydantable_spark.errors.ArgumentValueError: update(): sets no column; name at least one ...

    ```

    Args:
        values: target column → value, for names that are not identifiers or
            that clash with ``condition``.
        condition: a boolean expression; the clause applies where it is true.
        **columns: target column → value: a typed expression (``source.col("qty")``,
            ``target.col("qty") + 1``) or a Python value (a literal of the column's type).

    """
    assigned = _values(values, columns, "update()")
    if not assigned:
        msg = "update(): sets no column; name at least one (update(qty=source.col('qty'))), or use update_all()"
        raise ArgumentValueError(msg)
    return Update(assigned, _condition(condition, "update()"))


def update_all(
    values: Mapping[str, object] | None = None, /, *, condition: Expr[Any] | None = None, **columns: object
) -> Update:
    """``UPDATE SET`` every column of the target model from the source's column of the same name (``when_matched``).

    ``values`` / ``**columns`` set some columns otherwise (as in ``update``).
    A target column the source lacks is an error naming it, unless given here.
    """
    return Update(_values(values, columns, "update_all()"), _condition(condition, "update_all()"), every=True)


def insert(
    values: Mapping[str, object] | None = None, /, *, condition: Expr[Any] | None = None, **columns: object
) -> Insert:
    """``INSERT`` a row with these values (``when_not_matched``); the others are NULL.

    A non-null column of the target model (or of the table) left out is an
    error: every inserted row must hold it.
    """
    assigned = _values(values, columns, "insert()")
    if not assigned:
        msg = "insert(): sets no column; name them (insert(sku=source.col('sku'), ...)), or use insert_all()"
        raise ArgumentValueError(msg)
    return Insert(assigned, _condition(condition, "insert()"))


def insert_all(
    values: Mapping[str, object] | None = None, /, *, condition: Expr[Any] | None = None, **columns: object
) -> Insert:
    """``INSERT`` every column of the target model from the source's column of the same name (``when_not_matched``).

    ``values`` / ``**columns`` set some columns otherwise (``insert_all(valid_from=F.current_date())``).
    """
    return Insert(_values(values, columns, "insert_all()"), _condition(condition, "insert_all()"), every=True)


def delete(*, condition: Expr[Any] | None = None) -> Delete:
    """``DELETE`` the target row (``when_matched``, ``when_not_matched_by_source``)."""
    return Delete(_condition(condition, "delete()"))


# --- metrics ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MergeMetrics:
    """What a MERGE changed, as the table format reports it: rows inserted, updated and deleted.

    Delta Lake returns the counts from its MERGE; Iceberg writes them in the
    summary of the snapshot the MERGE commits (no snapshot: nothing changed).
    """

    inserted: int
    updated: int
    deleted: int


# --- binding ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BoundClause:
    """One clause with its condition and values typed: ``values`` are target column → node of its type."""

    kind: Kind
    action: str
    condition: Node | None
    values: tuple[tuple[str, Node], ...]


@dataclass(frozen=True, slots=True)
class MergeSpec:
    """A typed merge: the ON condition, the key names (if given by name) and the clauses, in order."""

    action: str
    on: Node
    keys: tuple[str, ...]
    clauses: tuple[BoundClause, ...]
    source: Schema
    target: Schema


def check_target(table: object, path: object) -> tuple[str, str]:
    """``("table", name)`` or ``("path", path)``: exactly one of ``table`` and ``path`` (a Delta table's)."""
    if (table is None) == (path is None):
        given = "both" if table is not None else "neither"
        msg = f"merge_into: give the target table's name (merge_into('db.t')) or a Delta table's path= ({given} given)"
        raise ArgumentTypeError(msg)
    if table is not None:
        if not isinstance(table, str):
            msg = f"merge_into: the table name must be a str, got {shown(table)} ({type(table).__name__})"
            raise ArgumentTypeError(msg)
        return "table", table
    if not isinstance(path, str | os.PathLike):
        msg = f"merge_into: path= must be a str or a path, got {shown(path)} ({type(path).__name__})"
        raise ArgumentTypeError(msg)
    where = os.fspath(path)
    if not isinstance(where, str) or not where:
        msg = f"merge_into: path= must name a directory, got {shown(path)}"
        raise ArgumentValueError(msg)
    if "${" in where:
        msg = (
            f"merge_into: path {where!r} contains '${{', which Spark's variable substitution "
            "(spark.sql.variable.substitute) would rewrite before reading it; move the table"
        )
        raise ArgumentValueError(msg)
    return "path", where


def merge_target(table: object, path: object) -> tuple[str, str, str]:
    """``(kind, where, action)``: the target checked (a table name as reads check it) and the name of the call.

    ``action`` names the call in every message: ``merge_into('db.t')`` or ``merge_into(path='/x')``.
    """
    from pydantable_spark.storage import table_name

    kind, where = check_target(table, path)
    action = f"merge_into({where!r})" if kind == "table" else f"merge_into(path={where!r})"
    if kind == "table":
        table_name(where, action)
    return kind, where, action


def typed_merge(
    action: str,
    src: Schema,
    dst: Schema,
    models: tuple[str | None, str],
    on: object,
    clauses: Mapping[str, object],
) -> Callable[[Schema | None], MergeSpec]:
    """Every check of a merge that needs no table: the clauses given to each kind, then ``bind_merge``.

    ``clauses`` holds the arguments as given (``when_matched=...``: a clause, a
    list, or None). The result binds the merge again once the table's stored
    schema is known. ``merge_into`` calls it before Spark is asked anything,
    and the mypy plugin calls it on the static schemas of the frame and the
    target model (``pydantable_spark._mypy.merge``): one rule set for both.

    >>> from pydantable_spark import dtypes as dt
    >>> schema = Schema.of(dt.Field("id", dt.Int64(), False))
    >>> typed_merge("m", schema, schema, (None, "T"), "id", {"when_not_matched": update_all()})
    Traceback (most recent call last):
    ...
    pydantable_spark.errors.ArgumentTypeError: m: when_not_matched= takes insert(...) or insert_all(...) ...
    """
    given = {kind: clauses_of(clauses.get(kind), kind, action) for kind in _READS}

    def typed(stored: Schema | None) -> MergeSpec:
        return bind_merge(action, src, dst, models, on, given, stored)

    typed(None)
    return typed


def clauses_of(value: object, kind: Kind, action: str) -> tuple[Clause, ...]:
    """The clauses given to ``kind``: one or a list, each of a form ``kind`` takes."""
    items: list[Any] = [] if value is None else list(value) if isinstance(value, list | tuple) else [value]
    for item in items:
        if not isinstance(item, _TAKES[kind]):
            label = getattr(item, "label", None) if isinstance(item, Update | Insert | Delete) else None
            what = label or f"{shown(item)} ({type(item).__name__})"
            msg = f"{action}: {kind}= takes {_TAKES_TEXT[kind]} (or a list of them), not {what}"
            raise ArgumentTypeError(msg)
        if kind == "when_not_matched_by_source" and isinstance(item, Update) and item.every:
            msg = (
                f"{action}: when_not_matched_by_source cannot update_all(): there is no source row to take values "
                "from; use update(column=value, ...)"
            )
            raise ArgumentTypeError(msg)
    return tuple(items)


def bind_merge(
    action: str,
    src: Schema,
    dst: Schema,
    models: tuple[str | None, str],
    on: object,
    clauses: Mapping[Kind, Sequence[Clause]],
    stored: Schema | None = None,
) -> MergeSpec:
    """The merge typed against the source frame's schema ``src`` and the target model's ``dst`` (no JVM).

    ``models`` names the source frame's declared model (None: a derived one)
    and the target model, so that a model attribute finds its side.
    ``stored``: the target as expressions read it, once the table is known
    (``dst`` with a column nullable where the table lets it be NULL); values
    are still assigned to ``dst``'s columns.
    """
    substituted = [name for name in dst.names if "${" in name]
    if substituted:
        msg = (
            f"{action}: the target's column {substituted[0]!r} contains '${{', which Spark's variable substitution "
            "(spark.sql.variable.substitute) would rewrite in the MERGE statement that names it; rename the column"
        )
        raise ArgumentValueError(msg)
    binder = _Binder(action, {"source": src, "target": dst if stored is None else stored}, models, dst)
    keys, condition = binder.on(on)
    if not any(clauses.values()):
        msg = (
            f"{action}: no clause: give when_matched=, when_not_matched= and/or when_not_matched_by_source= "
            "(e.g. when_matched=update_all(), when_not_matched=insert_all())"
        )
        raise ArgumentTypeError(msg)
    bound: list[BoundClause] = []
    for kind in ("when_matched", "when_not_matched", "when_not_matched_by_source"):
        given = clauses.get(kind, ())
        for index, clause in enumerate(given):
            if clause.condition is None and index < len(given) - 1:
                msg = (
                    f"{action}: {kind}: {clause.label} has no condition but is not the last {kind} clause; "
                    "MERGE tries clauses in order, so the ones after it could never apply. Give it a condition= "
                    "or move it last"
                )
                raise ArgumentValueError(msg)
            bound.append(binder.clause(kind, clause))
    return MergeSpec(action, condition, keys, tuple(bound), src, dst)


class _Binder:
    """Types merge expressions: each column bound to its side (``SideColumn``), each value to its target column."""

    def __init__(
        self, action: str, schemas: dict[Side, Schema], models: tuple[str | None, str], assigned: Schema
    ) -> None:
        self.action = action
        self.schemas = schemas
        self.assigned = assigned
        self.models: dict[Side, str | None] = {"source": models[0], "target": models[1]}

    def on(self, on: object) -> tuple[tuple[str, ...], Node]:
        where = f"{self.action}: on="
        if isinstance(on, Expr):
            condition = self.expression(on.node, ("source", "target"), where, "on=")
            self.boolean(condition, where)
            return (), condition
        names = [on] if isinstance(on, str) else list(on) if isinstance(on, list | tuple) else None
        if not names or not all(isinstance(n, str) for n in names):
            msg = (
                f"{where} takes key column names present on both sides (a str or a list of str) or a boolean "
                f"expression over source.col(...) and target.col(...), got {shown(on)}"
            )
            raise ArgumentTypeError(msg)
        equal: Expr[Any] | None = None
        for name in names:
            sides: list[Col[Any]] = []
            for side in ("source", "target"):
                found = self.schemas[side].get(name)
                if found is None:
                    raise UnknownColumnError(name, self.schemas[side].names, where=self.naming(side, "on="))
                sides.append(Col(SideColumn(name, Typed(found.dtype, found.nullable), None, side)))
            left, right = (s.node.type.dtype for s in sides)
            if not comparable(left, right, ordering=False) or dt.contains_map(left):
                msg = (
                    f"{where}: key {name!r} cannot be compared: {describe(sides[0].node)} in the source, "
                    f"{describe(sides[1].node)} in the target"
                )
                raise ColumnTypeError(msg)
            pair = sides[1] == sides[0]
            equal = pair if equal is None else equal & pair
        assert equal is not None
        return tuple(names), equal.node

    def naming(self, side: Side, what: str) -> str:
        model = self.models[side]
        if side == "source":
            return f"the source frame ({what})"
        return f"the target model {model} ({what})"

    def boolean(self, node: Node, what: str) -> None:
        if not isinstance(node.type.dtype, dt.Boolean):
            msg = f"{what} needs a boolean expression; got {describe(node)}"
            raise ColumnTypeError(msg)
        moving = next((n for n in node.walk() if not n.deterministic), None)
        if moving is not None:
            msg = (
                f"{what}: {render(moving)} gives another value each time it runs, which MERGE does not allow in a "
                "condition; compute it in a column of the source first (with_columns), then compare that column"
            )
            raise ColumnTypeError(msg)

    def expression(self, node: Node, reads: tuple[Side, ...], what: str, kind: str) -> Node:
        """``node`` with every column bound to the side it names (one of ``reads``)."""
        check_row_expression(node, what, windows=False)

        def resolve(item: Node) -> Node:
            if not isinstance(item, Column):
                return item.map_children(resolve)
            side = self.side_of(item, reads, what, kind)
            schema = self.schemas[side]
            if item.name not in schema:
                raise UnknownColumnError(item.qualified, schema.names, where=self.naming(side, what))
            bound = bind(Column(item.name, item.declared, item.owner), schema)
            return SideColumn(item.name, bound.typed, item.owner, side)

        return resolve(node)

    def side_of(self, column: Column, reads: tuple[Side, ...], what: str, kind: str) -> Side:
        if isinstance(column, SideColumn):
            if column.side not in ("source", "target"):
                msg = (
                    f"{what}: {column.qualified} names a side of a join; in a merge say source.col({column.name!r}) "
                    f"or target.col({column.name!r}) (from pydantable_spark.merge)"
                )
                raise ArgumentTypeError(msg)
            side: Side = "source" if column.side == "source" else "target"
            if side not in reads:
                shown_name = f"{side}.{column.name}"
                other = "target" if side == "source" else "source"
                msg = (
                    f"{what}: {shown_name} is a column of the {side}, and {kind} {_NO_ROW[side]}; use "
                    f"{other}.col(...) or literals"
                )
                raise ColumnTypeError(msg)
            return side
        owners = [s for s in reads if column.owner is not None and self.models[s] == column.owner]
        if len(owners) == 1:
            return owners[0]
        named = [s for s in reads if column.name in self.schemas[s]]
        if len(named) == 1:
            return named[0]
        if not named:
            every = list(dict.fromkeys(n for s in reads for n in self.schemas[s].names))
            where = " or ".join(self.naming(s, what) for s in reads)
            raise UnknownColumnError(column.qualified, every, where=where)
        msg = (
            f"{what}: column {column.qualified!r} is in both the source frame and the target model; say which: "
            f"source.col({column.name!r}) or target.col({column.name!r}) (from pydantable_spark.merge)"
        )
        raise AmbiguousSideError(msg)

    def clause(self, kind: Kind, clause: Clause) -> BoundClause:
        what = f"{self.action}: {kind} {clause.label}"
        reads = _READS[kind]
        condition = None
        if clause.condition is not None:
            condition = self.expression(clause.condition, reads, f"{what} condition=", kind)
            self.boolean(condition, f"{what} condition=")
        if isinstance(clause, Delete):
            return BoundClause(kind, "delete", condition, ())
        dst = self.assigned
        given = dict(clause.values)
        for name in given:
            if name not in dst:
                raise UnknownColumnError(
                    name, dst.names, where=f"the target model {self.models['target']} ({kind} {clause.label})"
                )
        if clause.every:
            src = self.schemas["source"]
            missing = [n for n in dst.names if n not in given and n not in src]
            if missing:
                hint = f" (give them as {clause.label[:-1]}{missing[0]}=...))"
                raise UnknownColumnError(
                    missing[0],
                    src.names,
                    where=f"the source frame, which {clause.label} reads every target column from{hint}",
                )
            given = {n: given.get(n, SideColumn(n, None, None, "source")) for n in dst.names}
        values = tuple((name, self.value(name, given[name], reads, what, kind)) for name in given)
        if isinstance(clause, Insert):
            left_out = [f for f in dst if not f.nullable and f.name not in given]
            if left_out:
                listing = ", ".join(f"{f.name!r}" for f in left_out)
                msg = (
                    f"{what} leaves out non-null column(s) {listing} of the target model; every inserted row must "
                    "hold a value there: give one"
                )
                raise ColumnTypeError(msg)
        return BoundClause(kind, clause.action, condition, values)

    def value(self, name: str, value: object, reads: tuple[Side, ...], what: str, kind: str) -> Node:
        """``value`` typed for target column ``name``: converted as reconciliation allows; non-null if it is."""
        wanted = self.assigned[name]
        if isinstance(value, Node):
            node = self.expression(value, reads, f"{what[:-1]}{name}=...)", kind)
        else:
            try:
                node = literal_of(value, wanted.dtype)
            except (TypeError, ValueError) as error:
                msg = f"{what} sets column {name!r} ({wanted.dtype}) to {shown(value)}: {error}"
                raise ColumnTypeError(msg) from None
        return assigned_value(what, name, node, self.assigned)


def assigned_value(what: str, name: str, node: Node, target: Schema) -> Node:
    """``node`` (a bound, typed value) assigned to column ``name`` of the target model's schema ``target``.

    The one rule for a MERGE assignment, a pure function of the schema and
    the expression (no JVM; the mypy plugin can call it): the value converts
    to the column's type by the rules of reconciliation (a widening is cast, a
    lossy or incompatible conversion is ``ReconciliationError``), and a value
    that may be NULL (a ``None`` literal or a nullable expression) into a
    column the model declares non-null is ``NullabilityError``. ``what`` names
    the clause in messages.

    >>> from pydantable_spark import dtypes as dt
    >>> from pydantable_spark.expr.core import literal_of
    >>> target = Schema.of(dt.Field("current", dt.Boolean(), False))
    >>> assigned_value("update()", "current", literal_of(None, dt.Boolean()), target)
    Traceback (most recent call last):
    ...
    pydantable_spark.errors.NullabilityError: update() sets column 'current', which the target model declares ...
    >>> assigned_value("update()", "current", literal_of(True, dt.Boolean()), target).type
    Typed(dtype=Boolean(), nullable=False)
    """
    wanted = target[name]
    got = node.type
    try:
        reconcile([dt.Field(name, got.dtype, False)], Schema((wanted,)), case_sensitive=True)
    except ReconciliationError as error:
        context = f"{what} sets column {name!r} to {describe(node)}"
        raise error.within(context) from None
    if got.nullable and not wanted.nullable:
        if isinstance(node, LiteralNode) and node.value is None:
            msg = (
                f"{what} sets column {name!r}, which the target model declares non-null, to NULL (None): "
                f"every row must hold a {python_name(wanted.dtype, nullable=False)} there; give a value, "
                "or declare the column Optional in the target model"
            )
        else:
            msg = (
                f"{what} sets column {name!r}, which the target model declares non-null, to {describe(node)}: "
                "a nullable value into a non-null column; give a default with F.coalesce(value, default)"
            )
        if any(c.side == "target" and not target[c.name].nullable for c in side_columns(node) if c.name in target):
            msg += (
                " (a target column the model says is non-null reads as nullable when the table does not "
                "declare it NOT NULL: Delta tables written from DataFrames declare no column NOT NULL)"
            )
        raise NullabilityError(msg)
    if got.dtype != wanted.dtype and not got.dtype.is_nested:
        return Cast(node, wanted.dtype)
    return node


def side_columns(node: Node) -> Iterable[SideColumn]:
    """The side columns ``node`` reads."""
    return (c for c in node.refs if isinstance(c, SideColumn))
