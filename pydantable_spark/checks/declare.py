"""``Check``: a dataset-level check declared on a model, and its refusals when the model is defined.

A model lists its checks in a classmethod named ``checks``, next to its
fields: ``cls.qty`` there is the model's typed column, as ``Order.qty`` is
outside the class (which does not exist yet while its body runs). The model
calls it once, when the class is complete; ``resolve_checks`` binds every
expression to the model's schema and refuses what cannot be a check of its
kind, with the check's name in the message:

```pycon
>>> from collections.abc import Sequence
>>> from datetime import date
>>> from pydantable_spark import Check, DataFrameModel, F
>>> class Order(DataFrameModel):
...     id: int
...     start: date
...     end: date | None
...     qty: int
...     @classmethod
...     def checks(cls) -> Sequence[Check]:
...         return (
...             Check.unique(cls.id, name="order_id_unique"),
...             Check.row(cls.end >= cls.start, name="ends_after_start", action="drop"),
...             Check.rows(min=1, name="not_empty"),
...             Check.agg(F.max(cls.qty) <= 1000, name="qty_max", action="warn"),
...         )
>>> [(c.name, c.kind, c.action, c.label) for c in Order.dataset_checks()]  # doctest: +NORMALIZE_WHITESPACE
[('order_id_unique', 'unique', 'fail', 'unique(id)'),
 ('ends_after_start', 'row', 'drop', 'row: (end >= start)'),
 ('not_empty', 'rows', 'fail', 'rows >= 1'),
 ('qty_max', 'agg', 'warn', 'agg: (max(qty) <= 1000)')]

```

Nothing here imports pyspark; ``pydantable_spark._spark.checks`` runs them. (No ``from __future__ import
annotations`` here: the example's class annotations must be evaluated where the example defines them.)
"""

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ArgumentTypeError, ArgumentValueError, ColumnTypeError, UnknownColumnError, shown
from pydantable_spark.expr.api import Col, Expr
from pydantable_spark.expr.core import Column, Node, bind, render
from pydantable_spark.expr.udf import UdfCall
from pydantable_spark.plan.aggregate import check_aggregation
from pydantable_spark.plan.nodes import check_row_expression

if TYPE_CHECKING:
    from pydantable_spark.model import DataFrameModel

__all__ = ["ACTIONS", "Action", "Check", "CheckKind", "resolve_checks"]

Action = Literal["warn", "drop", "fail"]
"""What a violated check does: count it in the report (``warn``), take the violating rows out (``drop``, row
checks only), or fail (``fail``, the default)."""

ACTIONS: tuple[Action, ...] = ("warn", "drop", "fail")

CheckKind = Literal["unique", "primary_key", "row", "rows", "agg"]

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


@dataclass(frozen=True, slots=True)
class Check:
    """One dataset-level check: its ``name``, ``kind``, ``action`` and what it checks.

    Build it with ``Check.unique``, ``Check.primary_key``, ``Check.row``,
    ``Check.rows`` or ``Check.agg`` in a model's ``checks`` classmethod; the
    model's ``dataset_checks()`` returns them resolved: ``columns`` holds the
    key's column names, ``expr`` the expression bound to the model's schema.
    """

    kind: CheckKind
    name: str
    action: Action
    columns: tuple[str, ...] = ()
    """The key's column names (``unique``, ``primary_key``), once resolved against the model."""
    expr: Node | None = None
    """The bound boolean expression (``row``, ``agg``), once resolved."""
    min: int | None = None
    """The fewest rows allowed (``rows``)."""
    max: int | None = None
    """The most rows allowed (``rows``)."""
    declared: Any = dataclasses.field(default=None, compare=False, repr=False)
    """What was written: the key's column references, or the expression (resolved by ``resolve_checks``)."""

    # --- constructors --------------------------------------------------------------------------

    @classmethod
    def unique(cls, *columns: str | Col[Any], name: str, action: Action = "fail") -> "Check":
        """No two rows share a value of ``columns`` (one or several: a composite key).

        ``columns``: the model's columns (``cls.id``) or column names. As in SQL's ``UNIQUE``,
        a row with a NULL in the key is compared with no other row. Violations
        count the rows whose key another row has too; examples are such keys.
        """
        return cls._keyed("unique", columns, name, action)

    @classmethod
    def primary_key(cls, *columns: str | Col[Any], name: str, action: Action = "fail") -> "Check":
        """``unique`` and no NULL in the key: a row with a NULL in it is a violation too."""
        return cls._keyed("primary_key", columns, name, action)

    @classmethod
    def row(cls, predicate: Expr[bool | None], *, name: str, action: Action = "fail") -> "Check":
        """Every row makes ``predicate`` (a boolean expression over the model's columns) TRUE.

        FALSE and NULL violate it, as ``filter`` keeps only the rows where a
        predicate is TRUE (write ``cls.end.is_null() | (cls.end >= cls.start)``
        to let NULL pass). It must be deterministic and read the
        model's own columns row by row: no aggregate, window or Python UDF.
        ``action="drop"`` takes the violating rows out of ``report.frame``.
        """
        return cls._declared("row", predicate, name, action)

    @classmethod
    def rows(cls, *, min: int | None = None, max: int | None = None, name: str, action: Action = "fail") -> "Check":
        """The frame has at least ``min`` and at most ``max`` rows (``min=1``: not empty)."""
        check = _named("rows", name, action)
        for label, bound in (("min", min), ("max", max)):
            if bound is not None and (type(bound) is not int or bound < 0):
                msg = f"Check.rows() {name!r}: {label} must be an int >= 0, got {shown(bound)}"
                raise ArgumentValueError(msg)
        if min is None and max is None:
            msg = f"Check.rows() {name!r}: give min=, max= or both (min=1: not empty)"
            raise ArgumentValueError(msg)
        if min is not None and max is not None and min > max:
            msg = f"Check.rows() {name!r}: min={min} is larger than max={max}; no frame could pass"
            raise ArgumentValueError(msg)
        return dataclasses.replace(check, min=min, max=max)

    @classmethod
    def agg(cls, predicate: Expr[bool | None], *, name: str, action: Action = "fail") -> "Check":
        """A boolean expression of aggregates over the whole frame is TRUE (``F.max(Order.qty) <= 1000``).

        Every column it reads is inside an aggregate (``F.min``, ``F.max``,
        ``F.mean``, ``F.sum``, ``F.count``...). An aggregate over no rows is
        NULL (but ``count``): on an empty frame such a check is violated
        unless it says otherwise (``F.coalesce(F.max(cls.qty), F.lit(0)) <= 1000``).
        """
        return cls._declared("agg", predicate, name, action)

    @classmethod
    def _keyed(cls, kind: CheckKind, columns: tuple[object, ...], name: str, action: Action) -> "Check":
        check = _named(kind, name, action)
        if not columns:
            msg = f"Check.{kind}() {name!r}: name at least one column"
            raise ArgumentValueError(msg)
        for item in columns:
            if not isinstance(item, str | Col):
                msg = f"Check.{kind}() {name!r}: a key column is a model column (cls.id) or a name, not {shown(item)}"
                raise ArgumentTypeError(msg)
        return dataclasses.replace(check, declared=columns)

    @classmethod
    def _declared(cls, kind: CheckKind, predicate: object, name: str, action: Action) -> "Check":
        check = _named(kind, name, action)
        if not isinstance(predicate, Expr):
            msg = f"Check.{kind}() {name!r}: takes a boolean expression (cls.a >= cls.b), not {shown(predicate)}"
            raise ArgumentTypeError(msg)
        return dataclasses.replace(check, declared=predicate)

    # --- reading -------------------------------------------------------------------------------

    @property
    def label(self) -> str:
        """What the check checks, as a report shows it: ``unique(id)``, ``row: end >= start``, ``rows >= 1``."""
        if self.kind in ("unique", "primary_key"):
            return f"{self.kind}({', '.join(_shown_name(c) for c in self.columns)})"
        if self.kind == "rows":
            if self.min is not None and self.max is not None:
                return f"rows between {self.min} and {self.max}"
            return f"rows >= {self.min}" if self.min is not None else f"rows <= {self.max}"
        return f"{self.kind}: {render(self.expr) if self.expr is not None else '?'}"


def _named(kind: CheckKind, name: object, action: object) -> "Check":
    if type(name) is not str or not _NAME.fullmatch(name):
        msg = (
            f"Check.{kind}(): name must be a plain identifier (ASCII letters, digits and '_', a letter first), "
            f"got {shown(name)}"
        )
        raise ArgumentValueError(msg)
    if action not in ACTIONS:
        msg = f"Check.{kind}() {name!r}: action must be one of 'warn', 'drop', 'fail', got {shown(action)}"
        raise ArgumentValueError(msg)
    if action == "drop" and kind != "row":
        msg = (
            f"Check.{kind}() {name!r}: action='drop' takes violating rows out, which only a row check names; "
            f"use action='warn' or 'fail' for a {kind} check"
        )
        raise ArgumentValueError(msg)
    return Check(kind, name, action)


def _shown_name(name: str) -> str:
    return name if name.isidentifier() else "`" + name.replace("`", "``") + "`"


# --- resolving against the model ----------------------------------------------------------------


def resolve_checks(model: "type[DataFrameModel]", declared: object) -> tuple[Check, ...]:
    """The checks ``declared`` (what a model's ``checks()`` returned) resolved against ``model``.

    Raises the refusal of the first bad one.
    """
    if (
        not isinstance(declared, Sequence)
        or isinstance(declared, str)
        or not all(isinstance(c, Check) for c in declared)
    ):
        msg = (
            f"{model.__name__}.checks() must return a sequence of Check (Check.unique, Check.row, ...), "
            f"got {shown(declared)}"
        )
        raise ArgumentTypeError(msg)
    seen: set[str] = set()
    resolved = []
    for check in declared:
        if check.name in seen:
            msg = f"{model.__name__}.checks: two checks are named {check.name!r}; a check's name is unique in its model"
            raise ArgumentValueError(msg)
        seen.add(check.name)
        resolved.append(_resolve(model, check))
    return tuple(resolved)


def _resolve(model: "type[DataFrameModel]", check: Check) -> "Check":
    what = f"check {check.name!r} of {model.__name__}"
    if check.kind == "rows":
        return check
    if check.kind in ("unique", "primary_key"):
        names: list[str] = []
        for item in check.declared:
            column = _column(model, item, what)
            if column in names:
                msg = f"{what}: column {column!r} is named twice in the key"
                raise ArgumentValueError(msg)
            names.append(column)
        return dataclasses.replace(check, columns=tuple(names))
    node = _bound(model, check.declared.node, what)
    if not isinstance(node.type.dtype, dt.Boolean):
        msg = (
            f"{what}: {render(node)} is {node.type}, not a boolean; a {check.kind} check is a condition "
            f"(a comparison, is_null(), & | ~ of conditions)"
        )
        raise ColumnTypeError(msg)
    for part in node.walk():
        if isinstance(part, UdfCall):
            msg = f"{what}: {render(part)} calls a Python UDF; a check runs as Spark SQL, without UDFs (not supported)"
            raise NotImplementedError(msg)
        if not part.deterministic:
            msg = (
                f"{what}: {render(part)} is not deterministic (it can differ between two runs over the same rows); "
                "a check must give the same verdict every time"
            )
            raise ColumnTypeError(msg)
    if check.kind == "row":
        check_row_expression(node, what, windows=False)
    else:
        check_aggregation(node, what)
    return dataclasses.replace(check, expr=node)


def _owners(model: "type[DataFrameModel]") -> set[str]:
    """The class names a column of ``model`` may carry: its own and its bases' (inherited checks)."""
    return {base.__name__ for base in model.__mro__}


def _bound(model: "type[DataFrameModel]", node: Node, what: str) -> Node:
    owners = _owners(model)
    for column in node.refs:
        if column.owner is not None and column.owner not in owners:
            msg = (
                f"{what}: {column.qualified} is a column of another model; a check reads {model.__name__}'s own "
                f"columns ({model.__name__}.{column.name} if it has one)"
            )
            raise ColumnTypeError(msg)
    try:
        return bind(node, model.frame_schema())
    except UnknownColumnError as error:
        raise UnknownColumnError(error.name, error.available, where=what) from error


def _column(model: "type[DataFrameModel]", item: str | Col[Any], what: str) -> str:
    bound = _bound(model, Column(item) if isinstance(item, str) else item.node, what)
    assert isinstance(bound, Column)
    return bound.name
