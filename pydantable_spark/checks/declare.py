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
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ArgumentTypeError, ArgumentValueError, ColumnTypeError, UnknownColumnError, shown
from pydantable_spark.expr.api import Col, Expr
from pydantable_spark.expr.call import Call
from pydantable_spark.expr.core import Column, Node, Typed, bind, render
from pydantable_spark.expr.udf import UdfCall
from pydantable_spark.plan.aggregate import check_aggregation
from pydantable_spark.plan.nodes import check_row_expression
from pydantable_spark.schema import Schema

if TYPE_CHECKING:
    from pydantable_spark.model import DataFrameModel

__all__ = ["ACTIONS", "Action", "Check", "CheckKind", "model_owners", "pairs_with", "resolve_check", "resolve_checks"]

Action = Literal["warn", "drop", "fail"]
"""What a violated check does: count it in the report (``warn``), take the violating rows out (``drop``, row
and reference checks), or fail (``fail``, the default)."""

ACTIONS: tuple[Action, ...] = ("warn", "drop", "fail")

CheckKind = Literal["unique", "primary_key", "row", "rows", "agg", "references"]

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


@dataclass(frozen=True, slots=True)
class Check:
    """One dataset-level check: its ``name``, ``kind``, ``action`` and what it checks.

    Build it with ``Check.unique``, ``Check.primary_key``, ``Check.row``,
    ``Check.rows``, ``Check.agg`` or ``Check.references`` in a model's
    ``checks`` classmethod; the model's ``dataset_checks()`` returns them
    resolved: ``columns`` holds the key's (or the referencing) column names,
    ``expr`` the expression bound to the model's schema, ``referenced`` and
    ``target`` the referenced model's key columns and that model's name.
    """

    kind: CheckKind
    name: str
    action: Action
    columns: tuple[str, ...] = ()
    """The key's column names (``unique``, ``primary_key``) or the referencing ones (``references``), once resolved."""
    expr: Node | None = None
    """The bound boolean expression (``row``, ``agg``), once resolved."""
    min: int | None = None
    """The fewest rows allowed (``rows``)."""
    max: int | None = None
    """The most rows allowed (``rows``)."""
    target: str | None = None
    """The name of the model a ``references`` check points to (the owner of its key columns)."""
    referenced: tuple[Column, ...] = ()
    """The referenced key's columns (``references``): names and types as the referenced model declares them."""
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
        It may compare with the clock of the run, which is how freshness is
        written: ``F.max(cls.at) >= F.current_timestamp() - timedelta(hours=1)``.
        """
        return cls._declared("agg", predicate, name, action)

    @classmethod
    def references(
        cls,
        columns: str | Col[Any] | Sequence[str | Col[Any]],
        key: Col[Any] | Sequence[Col[Any]],
        *,
        name: str,
        action: Action = "fail",
    ) -> "Check":
        """Every value of ``columns`` (this model's; several: a composite reference) is a ``key`` of another frame.

        ``key``: the referenced model's columns (``Customer.id``, or a tuple
        of them, as many as ``columns``, in the same order), each of a type
        its column pairs with (the same type, or two integer types). The
        referenced rows are given when the check runs:
        ``validate(references={Customer: customers})`` (a frame of that
        model; keyed by the model or by the check's name). As SQL's
        ``FOREIGN KEY``, a row with a NULL in ``columns`` references nothing
        and is no violation. Violations count the rows whose value no key
        has; examples are such values. ``action="drop"`` takes those rows
        out of ``report.frame``. A model may reference its own key
        (``cls.manager_id`` against ``cls.id``): the validated frame is then
        the reference unless another one is given.
        """
        check = _named("references", name, action)
        own = tuple(columns) if isinstance(columns, Sequence) and not isinstance(columns, str) else (columns,)
        keys = tuple(key) if isinstance(key, Sequence) and not isinstance(key, str) else (key,)
        if not own:
            msg = f"Check.references() {name!r}: name at least one column"
            raise ArgumentValueError(msg)
        for item in own:
            if not isinstance(item, str | Col):
                msg = (
                    f"Check.references() {name!r}: a referencing column is a model column (cls.customer_id) or a "
                    f"name, not {shown(item)}"
                )
                raise ArgumentTypeError(msg)
        nodes: list[Column] = []
        for item in keys:
            node = item.node if isinstance(item, Col) else None
            if not isinstance(node, Column) or node.owner is None or node.declared is None:
                msg = (
                    f"Check.references() {name!r}: the referenced key is a column of a model (Customer.id), "
                    f"not {shown(item)}"
                )
                raise ArgumentTypeError(msg)
            nodes.append(node)
        owners = sorted({node.owner for node in nodes if node.owner is not None})
        if len(owners) > 1:
            msg = f"Check.references() {name!r}: the key's columns belong to one model, not to {', '.join(owners)}"
            raise ArgumentValueError(msg)
        if len(nodes) != len(own):
            msg = (
                f"Check.references() {name!r}: {len(own)} referencing column(s) but {len(nodes)} key column(s); "
                "give as many of each, in the same order"
            )
            raise ArgumentValueError(msg)
        if len({node.name for node in nodes}) != len(nodes):
            msg = f"Check.references() {name!r}: a key column is named twice in {', '.join(n.qualified for n in nodes)}"
            raise ArgumentValueError(msg)
        return dataclasses.replace(check, declared=own, target=owners[0], referenced=tuple(nodes))

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
        if self.kind == "references":
            keys = ", ".join(_shown_name(c.name) for c in self.referenced)
            return f"references({', '.join(_shown_name(c) for c in self.columns)}) -> {self.target}({keys})"
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
    if action == "drop" and kind not in ("row", "references"):
        msg = (
            f"Check.{kind}() {name!r}: action='drop' takes violating rows out, which only a row or a references "
            f"check names; use action='warn' or 'fail' for a {kind} check"
        )
        raise ArgumentValueError(msg)
    return Check(kind, name, action)


def _article(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"


def _shown_name(name: str) -> str:
    return name if name.isidentifier() else "`" + name.replace("`", "``") + "`"


# --- resolving against a schema ------------------------------------------------------------------


def resolve_checks(declared: object, schema: Schema, model: str, owners: Collection[str] = ()) -> tuple[Check, ...]:
    """The checks ``declared`` (what a model's ``checks()`` returned) resolved against the model's ``schema``.

    ``model`` names the model in messages; ``owners`` are the names of the
    models whose columns (``cls.id``) are this model's own: its name and its
    bases' (inherited checks); ``model`` alone when not given. The model's
    class calls it when it is defined; the mypy plugin calls it (check by
    check, ``resolve_check``) on the static schema. Raises the refusal of the
    first bad check.
    """
    if (
        not isinstance(declared, Sequence)
        or isinstance(declared, str)
        or not all(isinstance(c, Check) for c in declared)
    ):
        msg = f"{model}.checks() must return a sequence of Check (Check.unique, Check.row, ...), got {shown(declared)}"
        raise ArgumentTypeError(msg)
    named: list[str] = []
    resolved = []
    for check in declared:
        resolved.append(resolve_check(check, schema, model, owners, named=named))
        named.append(check.name)
    return tuple(resolved)


def resolve_check(
    check: Check, schema: Schema, model: str, owners: Collection[str] = (), *, named: Collection[str] = ()
) -> Check:
    """One check resolved against ``schema`` (see ``resolve_checks``); ``named``: the names of the checks before it.

    Refuses an unknown column (with the closest name), another model's
    column, a predicate that is not boolean, not deterministic (but an
    ``agg`` check's reading of the clock, ``_CLOCK``) or calls a Python
    UDF, an aggregate or a window in a row check, a column outside an
    aggregate in an ``agg`` check, a key column named twice, a reference
    whose columns' types do not pair with the key's, and a name used before.
    """
    what = f"check {check.name!r} of {model}"
    if check.name in named:
        msg = f"{model}.checks: two checks are named {check.name!r}; a check's name is unique in its model"
        raise ArgumentValueError(msg)
    scope = _Scope(schema, model, frozenset(owners) | {model}, what)
    if check.kind == "rows":
        return check
    if check.kind in ("unique", "primary_key", "references"):
        names = scope.key(check.declared)
        if check.kind == "references":
            _pairs(scope, names, check)
        return dataclasses.replace(check, columns=names)
    node = scope.bound(check.declared.node)
    if not isinstance(node.type.dtype, dt.Boolean):
        msg = (
            f"{what}: {render(node)} is {node.type}, not a boolean; {_article(check.kind)} {check.kind} check is a "
            "condition (a comparison, is_null(), & | ~ of conditions)"
        )
        raise ColumnTypeError(msg)
    for part in node.walk():
        if isinstance(part, UdfCall):
            msg = f"{what}: {render(part)} calls a Python UDF; a check runs as Spark SQL, without UDFs (not supported)"
            raise NotImplementedError(msg)
        if not part.deterministic and not (check.kind == "agg" and _reads_the_clock(part)):
            msg = (
                f"{what}: {render(part)} is not deterministic (it can differ between two runs over the same rows); "
                "a check must give the same verdict every time"
            )
            if _reads_the_clock(part):
                msg += " (an agg check may compare with the clock: F.max(cls.at) >= F.current_timestamp() - timedelta)"
            raise ColumnTypeError(msg)
    if check.kind == "row":
        check_row_expression(node, what, windows=False)
    else:
        check_aggregation(node, what)
    return dataclasses.replace(check, expr=node)


_CLOCK = frozenset({"current_timestamp", "current_date", "localtimestamp"})
"""Functions of the query's clock (``F.now`` is ``current_timestamp``). Spark computes each once per query (its
``ComputeCurrentTime`` rule), so the rows an aggregate check reads in its one counting action all meet the same
instant: an ``agg`` check may compare with them, which is how freshness is written
(``F.max(cls.at) >= F.current_timestamp() - timedelta(hours=1)``). A row check may not: a ``drop`` check's rows
are counted in one query and dropped in another, which could read another instant."""


def _reads_the_clock(node: Node) -> bool:
    return isinstance(node, Call) and node.function.name in _CLOCK


def model_owners(model: "type[DataFrameModel]") -> frozenset[str]:
    """The class names a column of ``model`` may carry: its own and its bases' (inherited checks)."""
    return frozenset(base.__name__ for base in model.__mro__)


@dataclass(frozen=True, slots=True)
class _Scope:
    """What a check is resolved against: the model's schema, its name, the names its own columns carry."""

    schema: Schema
    model: str
    owners: frozenset[str]
    what: str

    def bound(self, node: Node) -> Node:
        for column in node.refs:
            if column.owner is not None and column.owner not in self.owners:
                msg = (
                    f"{self.what}: {column.qualified} is a column of another model; a check reads {self.model}'s own "
                    f"columns ({self.model}.{column.name} if it has one)"
                )
                raise ColumnTypeError(msg)
        try:
            return bind(node, self.schema)
        except UnknownColumnError as error:
            raise UnknownColumnError(error.name, error.available, where=self.what) from error

    def key(self, items: Sequence[str | Col[Any]]) -> tuple[str, ...]:
        names: list[str] = []
        for item in items:
            bound = self.bound(Column(item) if isinstance(item, str) else item.node)
            assert isinstance(bound, Column)
            if bound.name in names:
                msg = f"{self.what}: column {bound.name!r} is named twice in the key"
                raise ArgumentValueError(msg)
            names.append(bound.name)
        return tuple(names)


def _pairs(scope: _Scope, names: tuple[str, ...], check: Check) -> None:
    """Each referencing column's type pairs with its key column's (``pairs_with``)."""
    for name, key in zip(names, check.referenced, strict=True):
        field = scope.schema[name]
        assert key.declared is not None
        if not pairs_with(field.dtype, key.declared.dtype):
            msg = (
                f"{scope.what}: column {name!r} of type {Typed(field.dtype, field.nullable)} cannot reference "
                f"{key.qualified} of type {key.declared}; a reference pairs equal values: give both the same type "
                "(two integer types pair too)"
            )
            raise ColumnTypeError(msg)


def pairs_with(a: dt.DType, b: dt.DType) -> bool:
    """Whether a column of type ``a`` can reference a key of type ``b``: the same type, or two integer types.

    (Spark would compare more pairs, a string with a number among them, by
    casting one side; a reference that does so finds no match, or the wrong one.)
    """
    if not (dt.has_equality(a) and dt.has_equality(b)):
        return False
    if isinstance(a, dt.Integral) and isinstance(b, dt.Integral):
        return True
    return dt.without_nullability(a) == dt.without_nullability(b)
