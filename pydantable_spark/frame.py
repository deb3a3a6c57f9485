"""``DataFrame[M]``: a lazy, immutable, typed frame over a Spark plan.

Every method builds a new plan node, whose schema is derived in Python at
once: an unknown column, a type error or a non-boolean filter raises there,
before any Spark call. Terminal methods (``collect``, ``to_arrow``, ...) lower
the plan to Spark, reconcile the result with the derived schema and fetch it.

```pycon
>>> from pydantable_spark import DataFrame, DataFrameModel
>>> class User(DataFrameModel):
...     id: int
...     name: str
...     age: int | None
>>> df = User.from_rows([{"id": 1, "name": "Ada", "age": 36}, {"id": 2, "name": "Bob", "age": None}])
>>> out = df.filter(User.age >= 18).select(User.id, (User.age + 1).alias("next"))
>>> print(out.schema)
id: int (bigint)
next: int | None (bigint)
>>> out.collect()
[Row(id=1, next=37)]

```
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from pydantic import BaseModel

from pydantable_spark import dtypes as dt
from pydantable_spark import reshaping
from pydantable_spark.annotations import python_name
from pydantable_spark.constructors import Constructors, schema_of_model
from pydantable_spark.display import one_line
from pydantable_spark.errors import (
    ArgumentTypeError,
    ArgumentValueError,
    DuplicateColumnError,
    UnknownColumnError,
    shown,
    suggest,
)
from pydantable_spark.expr.api import Expr
from pydantable_spark.expr.core import (
    Alias,
    Column,
    Node,
    bind,
    bound_column,
    check_param,
    contains_aggregate,
    literal_of,
)
from pydantable_spark.expr.sides import SideColumn
from pydantable_spark.expr.windowspec import flags as per_key_flags
from pydantable_spark.groupby import GroupBy, broadcast
from pydantable_spark.into import into_node, items_of, name_of, names_of, nodes_of
from pydantable_spark.model import is_derived_row, row_model
from pydantable_spark.plan import nodes as p
from pydantable_spark.plan.aggregate import Aggregate
from pydantable_spark.plan.joins import HOW_ALIASES, HOWS, Join, JoinHow, JoinHowAlias, Validate, bind_condition
from pydantable_spark.plan.physical import (
    Checkpoint,
    Coalesce,
    Hint,
    JoinHint,
    Persist,
    Repartition,
    Sample,
    StorageLevelName,
    join_hint,
    storage_level,
)
from pydantable_spark.plan.reshape import Explode, Unpivot
from pydantable_spark.plan.setops import SetOperation, Union
from pydantable_spark.pyspark_names import FRAME, install, visible
from pydantable_spark.reconcile import Selection, reconcile
from pydantable_spark.results import Results
from pydantable_spark.selectors import Selector
from pydantable_spark.selectors import all as cs_all
from pydantable_spark.streaming.frames import Streams
from pydantable_spark.writers import Writers

if TYPE_CHECKING:
    from pyspark.storagelevel import StorageLevel

    from pydantable_spark.schema import Schema
    from pydantable_spark.timeseries import Duration, RollingOp

__all__ = ["DataFrame"]


_Method = TypeVar("_Method", bound=Callable[..., Any])


def acts_on_spark(method: _Method) -> _Method:
    """Marks a frame method that acts on Spark when called (``checkpoint``), unlike those that only build a plan.

    The mypy plugin replays every plan-building method of the frame on the static
    schema (``_mypy.replay.frame_methods``); a marked one is never replayed.
    """
    method.__acts_on_spark__ = True  # type: ignore[attr-defined]
    return method


M = TypeVar("M", bound=BaseModel)
M2 = TypeVar("M2", bound=BaseModel)
IntoColumn = str | Expr[Any]


@functools.lru_cache(maxsize=256)
def _bound_class(model: type[BaseModel]) -> type[DataFrame[Any]]:
    """``DataFrame[User]`` at run time: a subclass whose constructors know the model."""
    return type(f"DataFrame[{model.__name__}]", (DataFrame,), {"__slots__": (), "_bound_model": model})


class DataFrame(Constructors[M], Results[M], Writers[M], Streams[M]):
    """A lazy, typed frame; ``M`` is the Pydantic model of one row.

    Build one with ``DataFrame[User].from_rows(...)``, ``User.from_rows(...)``,
    or the other ``from_*`` constructors; transform it with ``select``,
    ``with_columns``, ``filter``, ...; get results with ``collect()``.

    This class holds the relational methods; the constructors and readers,
    the results, the writers and the streaming methods are its mixins
    ``constructors.Constructors``, ``results.Results``, ``writers.Writers`` and
    ``streaming.frames.Streams``.
    """

    __slots__ = ("_model", "_plan")

    def __init__(self, plan: p.Plan, model: type[M] | None = None) -> None:
        """A frame over ``plan`` whose rows are ``model`` instances (derived from the schema if None).

        Frames are made by the constructors and methods; a derived row model is
        only built when something asks for it (``model``, ``collect``).
        """
        self._plan = plan
        self._model = model

    def __class_getitem__(cls, item: Any) -> Any:
        if cls is DataFrame and isinstance(item, type) and issubclass(item, BaseModel):
            return _bound_class(item)
        return super().__class_getitem__(item)  # type: ignore[misc]

    # --- schema ----------------------------------------------------------------------------

    @property
    def schema(self) -> Schema:
        """The derived schema: names, types and nullability, in order."""
        return self._plan.schema

    @property
    def columns(self) -> list[str]:
        """The column names."""
        return list(self._plan.schema.names)

    @property
    def dtypes(self) -> dict[str, str]:
        """Column name → its Python type, e.g. ``{"age": "int | None"}``."""
        return {f.name: python_name(f.dtype, nullable=f.nullable) for f in self._plan.schema}

    @property
    def model(self) -> type[M]:
        """The Pydantic model of one row (declared or derived from the schema)."""
        if self._model is None:
            self._model = row_model(self._plan.schema)  # type: ignore[assignment]  # M is the derived model
        assert self._model is not None
        return self._model

    @property
    def plan(self) -> p.Plan:
        """The logical plan."""
        return self._plan

    def __dir__(self) -> list[str]:
        return visible(super().__dir__())

    def __repr__(self) -> str:
        """Names and types only: ``repr()`` never runs a Spark job."""
        inner = ", ".join(f"{f.name}: {python_name(f.dtype, nullable=f.nullable)}" for f in self.schema)
        return one_line(f"DataFrame[{self.model.__name__}]({inner})")

    def _preview(self, n: int) -> tuple[list[tuple[Any, ...]], bool]:
        """The first ``n`` rows (one Spark job, ``limit(n + 1)``) and whether more exist."""
        columns = self.limit(n + 1).to_dict()
        rows = list(zip(*columns.values(), strict=True)) if columns else []
        return rows[:n], len(rows) > n

    def show(self, n: int = 20, truncate: bool | int = True) -> None:
        """Print the first ``n`` rows as a table with each column's type under its name.

        ``truncate=True`` cuts cells at 20 characters, an int at that many,
        ``False`` not at all. One Spark job, bounded by ``limit(n + 1)``.
        """
        from pydantable_spark.display import text_table

        check_param("show()", "n", n, int)
        check_param("show()", "truncate", truncate, (bool, int))
        if n < 0:
            msg = f"show(n={n}) needs n >= 0"
            raise ArgumentValueError(msg)
        width = (20 if truncate else None) if isinstance(truncate, bool) else truncate
        rows, more = self._preview(n)
        print(text_table(self.schema, rows, more=more, truncate=width))

    def _repr_html_(self) -> str:
        """The notebook view: schema, and a preview of ``display.PREVIEW_ROWS`` rows (one bounded job)."""
        from pydantable_spark import display

        title = f"DataFrame[{self.model.__name__}]"
        if display.PREVIEW_ROWS <= 0:
            return display.html_table(title, self.schema, None, more=False, limit=0)
        rows, more = self._preview(display.PREVIEW_ROWS)
        return display.html_table(title, self.schema, rows, more=more, limit=display.PREVIEW_ROWS + 1)

    # --- building plans --------------------------------------------------------------------

    def _frame(self, plan: p.Plan) -> DataFrame[Any]:
        return DataFrame(plan, self._model if plan.schema == self.schema else None)

    def _node(self, item: object, what: str) -> Node:
        return bind(into_node(item, what), self.schema)

    def _named(self, name: str, value: object) -> Node:
        node = value.node if isinstance(value, Expr) else literal_of(value)
        return bind(Alias(node, name), self.schema)

    def _items(self, items: Sequence[object], named: Mapping[str, object], what: str) -> list[Node]:
        nodes = nodes_of(items, self.schema, what)
        nodes += [self._named(name, value) for name, value in named.items()]
        return nodes

    def select(
        self,
        *columns: IntoColumn | Selector | Sequence[IntoColumn],
        exclude: IntoColumn | Selector | Sequence[IntoColumn | Selector] | None = None,
        **named: object,
    ) -> DataFrame[Any]:
        """Only the given columns or expressions, in order; keywords name them.

        Selectors (``cs.numeric()``) expand to their columns. ``exclude=``
        removes columns; alone, it means "every column but these". A select of
        aggregates only (``F.sum``, ``F.count``, ...) gives a one-row frame.

        ```pycon
        >>> from pydantable_spark import DataFrameModel, F
        >>> class P(DataFrameModel):
        ...     x: int
        ...     y: float | None
        >>> print(P.from_rows([]).select("y", double=P.x * 2).schema)
        y: float | None (double)
        double: int (bigint)
        >>> print(P.from_rows([]).select(total=F.sum(P.y), rows=F.count()).schema)
        total: float | None (double)
        rows: int (bigint)

        ```
        """
        if exclude is not None and not columns and not named:
            columns = (cs_all(),)
        nodes = self._items(columns, named, "select()")
        aggregate = any(contains_aggregate(n) for n in nodes)
        if exclude is not None and aggregate:
            msg = (
                "select(exclude=...) does not apply to a select of aggregates (a one-row result, not columns of "
                "this frame); leave out the aggregates you do not want instead"
            )
            raise ArgumentTypeError(msg)
        if exclude is not None:
            dropped = set(names_of(items_of(exclude, "select(exclude=...)"), self.schema, "select(exclude=...)"))
            nodes = [n for n in nodes if n.output_name not in dropped]
        if aggregate:
            return self._frame(Aggregate(self._plan, (), tuple(nodes)))
        return self._frame(p.Project(self._plan, tuple(nodes)))

    def with_columns(self, *columns: Expr[Any] | Sequence[Expr[Any]], **named: object) -> DataFrame[Any]:
        """Add columns, or replace those with the same name (keeping their position).

        An aggregate here is computed over the whole frame and repeated on every
        row (``F.sum(x)`` next to ``x``); windows work as usual.
        """
        new = [broadcast(node) for node in self._items(columns, named, "with_columns()")]
        by_name: dict[str, Node] = {}
        for node in new:
            name = node.output_name
            if name in by_name:
                msg = f"with_columns() got two expressions named {name!r}"
                raise DuplicateColumnError(msg)
            by_name[name] = node
        exprs = [
            by_name.pop(f.name) if f.name in by_name else bound_column(f.name, f.dtype, f.nullable)
            for f in self.schema.fields
        ]
        exprs.extend(by_name.values())
        return self._frame(p.Project(self._plan, tuple(exprs)))

    def filter(self, *predicates: Expr[bool | None]) -> DataFrame[M]:
        """Rows where every predicate is exactly true (false and NULL rows are dropped)."""
        if not predicates:
            msg = "filter() needs at least one predicate"
            raise ArgumentTypeError(msg)
        plan = self._plan
        for predicate in predicates:
            plan = p.Filter(plan, self._node(predicate, "filter()"))
        return DataFrame(plan, self._model)

    def sort(
        self,
        *by: IntoColumn | Selector,
        descending: bool | Sequence[bool] = False,
        nulls_last: bool | Sequence[bool] = False,
        maintain_order: bool = False,
    ) -> DataFrame[M]:
        """Rows ordered by the keys (a selector stands for its columns); NULLs first unless ``nulls_last``.

        Spark's sort is not stable: rows with equal keys come in any order.
        ``maintain_order=True`` keeps them in the order they had (the
        interface contract's stable sort): the row id Spark's
        ``monotonically_increasing_id()`` gives the frame's rows is the last key.

        ```pycon
        >>> from pydantable_spark import DataFrameModel
        >>> class P(DataFrameModel):
        ...     k: int
        ...     v: str
        >>> rows = [{"k": 2, "v": "a"}, {"k": 1, "v": "b"}, {"k": 2, "v": "c"}, {"k": 1, "v": "d"}]
        >>> P.from_rows(rows).sort("k", maintain_order=True).to_dict()
        {'k': [1, 1, 2, 2], 'v': ['b', 'd', 'a', 'c']}

        ```
        """
        check_param("sort()", "maintain_order", maintain_order, bool)
        by = tuple(item for key in by for item in (key.resolve(self.schema) if isinstance(key, Selector) else (key,)))
        count = len(by)
        desc = _per_key(descending, count, "descending")
        last = _per_key(nulls_last, count, "nulls_last")
        keys = tuple(p.SortKey(self._node(key, "sort()"), d, n) for key, d, n in zip(by, desc, last, strict=True))
        if maintain_order:
            return DataFrame(reshaping.sort_stably(self, keys).plan, self._model)
        return DataFrame(p.Sort(self._plan, keys), self._model)

    def limit(self, n: int) -> DataFrame[M]:
        """At most ``n`` rows (which ones is unspecified unless the frame is sorted)."""
        check_param("limit()", "n", n, int)
        return DataFrame(p.Limit(self._plan, n), self._model)

    def offset(self, n: int) -> DataFrame[M]:
        """All rows but the first ``n`` (Spark's ``offset``; meaningful after ``sort``)."""
        check_param("offset()", "n", n, int)
        return DataFrame(p.Offset(self._plan, n), self._model)

    def head(self, n: int = 5) -> DataFrame[M]:
        """The first ``n`` rows; the same as ``limit(n)``."""
        return self.limit(n)

    def drop(self, *columns: IntoColumn | Selector) -> DataFrame[Any]:
        """All columns but the given ones (names, columns or selectors); an unknown name is an error."""
        for column in columns:
            if isinstance(column, Expr) and not isinstance(column.node, Column):
                name_of(column, "drop()")  # raises: an expression is not a column
        names = set(names_of(columns, self.schema, "drop()"))
        kept = [f.name for f in self.schema if f.name not in names]
        if not kept:
            msg = "drop() would remove every column"
            raise ArgumentValueError(msg)
        return self.select(*kept)

    def rename(self, mapping: Mapping[str, str]) -> DataFrame[Any]:
        """Columns renamed by ``{old: new}``; other columns keep their names and places."""
        if not isinstance(mapping, Mapping):
            msg = f"rename() takes a mapping {{old: new}}, got {shown(mapping)} ({type(mapping).__name__})"
            raise ArgumentTypeError(msg)
        return reshaping.rename(self, dict(mapping), "rename()")

    def rename_prefix(self, prefix: str, *, selector: Subset | None = None) -> DataFrame[Any]:
        """Every column (or those of ``selector``) renamed to ``prefix + name``; the others keep their names.

        ``selector`` takes names, columns, selectors or a list of them. Two
        columns ending with one name is a ``DuplicateColumnError`` (a
        ``ValueError``), as the interface contract says.

        ```pycon
        >>> from pydantable_spark import DataFrameModel, cs
        >>> class P(DataFrameModel):
        ...     id: int
        ...     x: float
        ...     y: float | None
        >>> print(P.from_rows([]).rename_prefix("raw_", selector=cs.float()).schema)
        id: int (bigint)
        raw_x: float (double)
        raw_y: float | None (double)

        ```
        """
        check_param("rename_prefix()", "prefix", prefix, str)
        names = self._subset(selector, "rename_prefix(selector=...)")
        return self._renamed({n: prefix + n for n in names}, "rename_prefix()")

    def rename_suffix(self, suffix: str, *, selector: Subset | None = None) -> DataFrame[Any]:
        """Every column (or those of ``selector``) renamed to ``name + suffix``; see ``rename_prefix``.

        ```pycon
        >>> from pydantable_spark import DataFrameModel
        >>> class P(DataFrameModel):
        ...     id: int
        ...     x: float
        >>> print(P.from_rows([]).rename_suffix("_left", selector="x").schema)
        id: int (bigint)
        x_left: float (double)

        ```
        """
        check_param("rename_suffix()", "suffix", suffix, str)
        names = self._subset(selector, "rename_suffix(selector=...)")
        return self._renamed({n: n + suffix for n in names}, "rename_suffix()")

    def rename_replace(self, old: str, new: str, *, selector: Subset | None = None) -> DataFrame[Any]:
        """Every occurrence of the text ``old`` in the column names (or those of ``selector``) replaced by ``new``.

        Plain text, as Python's ``str.replace`` (not a pattern); names without
        ``old`` stay as they are. See ``rename_prefix``.

        ```pycon
        >>> from pydantable_spark import DataFrameModel
        >>> class P(DataFrameModel):
        ...     order_id: int
        ...     order_total: float | None
        ...     note: str
        >>> print(P.from_rows([]).rename_replace("order_", "").schema)
        id: int (bigint)
        total: float | None (double)
        note: str (string)

        ```
        """
        check_param("rename_replace()", "old", old, str)
        check_param("rename_replace()", "new", new, str)
        if not old:
            msg = "rename_replace(old='') would insert new between every character; old must not be empty"
            raise ArgumentValueError(msg)
        names = self._subset(selector, "rename_replace(selector=...)")
        return self._renamed({n: n.replace(old, new) for n in names}, "rename_replace()")

    def rename_with_selector(self, selector: Subset, fn: Callable[[str], str]) -> DataFrame[Any]:
        """The columns of ``selector`` (a selector, names or columns) renamed to ``fn(name)``.

        ``fn`` runs once per column, in Python, when the method is called; it
        must return a ``str``. See ``rename_prefix``.

        ```pycon
        >>> from pydantable_spark import DataFrameModel, cs
        >>> class P(DataFrameModel):
        ...     id: int
        ...     city: str
        ...     zip: str | None
        >>> print(P.from_rows([]).rename_with_selector(cs.string(), str.upper).schema)
        id: int (bigint)
        CITY: str (string)
        ZIP: str | None (string)

        ```
        """
        names = self._subset(selector, "rename_with_selector(selector=...)")
        if not callable(fn):
            msg = f"rename_with_selector(): fn must be a function from a name to a new name, got {shown(fn)}"
            raise ArgumentTypeError(msg)
        renames = {}
        for name in names:
            new = fn(name)
            if not isinstance(new, str):
                msg = f"rename_with_selector(): fn({name!r}) returned {shown(new)} ({type(new).__name__}), not a str"
                raise ArgumentTypeError(msg)
            renames[name] = new
        return self._renamed(renames, "rename_with_selector()")

    def _renamed(self, renames: dict[str, str], what: str) -> DataFrame[Any]:
        """``rename`` for the helpers that build the mapping: a name left empty is refused, unchanged ones dropped."""
        for old, new in renames.items():
            if not new:
                msg = f"{what} would leave column {old!r} without a name"
                raise ArgumentValueError(msg)
        return reshaping.rename(self, {o: n for o, n in renames.items() if o != n}, what)

    def reorder_columns(self, *columns: IntoColumn | Selector | Sequence[IntoColumn | Selector]) -> DataFrame[Any]:
        """The given columns first, in the order given, then the others in their order; no value is computed.

        Columns are names, columns or selectors (or lists of them); a column
        given twice comes at its first place.

        ```pycon
        >>> from pydantable_spark import DataFrameModel
        >>> class P(DataFrameModel):
        ...     a: int
        ...     b: str
        ...     c: float | None
        >>> print(P.from_rows([]).reorder_columns(["c", "a"]).schema)
        c: float | None (double)
        a: int (bigint)
        b: str (string)

        ```
        """
        chosen = self._chosen(columns, "reorder_columns()")
        return reshaping.reorder(self, [*chosen, *(n for n in self.columns if n not in chosen)])

    def select_first(self, *columns: IntoColumn | Selector | Sequence[IntoColumn | Selector]) -> DataFrame[Any]:
        """The given columns moved to the front (in the order given), the others after them in their order.

        The same as ``reorder_columns``; see there.

        ```pycon
        >>> from pydantable_spark import DataFrameModel, cs
        >>> class P(DataFrameModel):
        ...     a: int
        ...     b: str
        ...     c: float | None
        >>> print(P.from_rows([]).select_first(cs.string()).schema)
        b: str (string)
        a: int (bigint)
        c: float | None (double)

        ```
        """
        chosen = self._chosen(columns, "select_first()")
        return reshaping.reorder(self, [*chosen, *(n for n in self.columns if n not in chosen)])

    def select_last(self, *columns: IntoColumn | Selector | Sequence[IntoColumn | Selector]) -> DataFrame[Any]:
        """The given columns moved to the end (in the order given), the others before them in their order.

        ```pycon
        >>> from pydantable_spark import DataFrameModel
        >>> class P(DataFrameModel):
        ...     a: int
        ...     b: str
        ...     c: float | None
        >>> print(P.from_rows([]).select_last("a").schema)
        b: str (string)
        c: float | None (double)
        a: int (bigint)

        ```
        """
        chosen = self._chosen(columns, "select_last()")
        return reshaping.reorder(self, [*(n for n in self.columns if n not in chosen), *chosen])

    def move(
        self,
        columns: Subset,
        *,
        before: IntoColumn | None = None,
        after: IntoColumn | None = None,
    ) -> DataFrame[Any]:
        """The given columns moved, together and in the order given, just before or just after another column.

        Exactly one of ``before`` and ``after`` names the column to move next to;
        it must not be one of those moved.

        ```pycon
        >>> from pydantable_spark import DataFrameModel
        >>> class P(DataFrameModel):
        ...     a: int
        ...     b: str
        ...     c: float | None
        ...     d: bool
        >>> print(P.from_rows([]).move(["d", "c"], after="a").schema)
        a: int (bigint)
        d: bool (boolean)
        c: float | None (double)
        b: str (string)

        ```
        """
        if (before is None) == (after is None):
            msg = "move() takes before= or after= (a column to move next to), exactly one of them"
            raise ArgumentTypeError(msg)
        moved = self._subset(columns, "move()")
        side = "before" if before is not None else "after"
        anchor = name_of(before if before is not None else after, f"move({side}=...)")
        if anchor not in self.schema:
            raise UnknownColumnError(anchor, self.schema.names, where=f"move({side}=...)")
        if anchor in moved:
            msg = f"move(): column {anchor!r} cannot be moved {side} itself; leave it out of the columns moved"
            raise ArgumentValueError(msg)
        rest = [n for n in self.columns if n not in moved]
        at = rest.index(anchor) + (side == "after")
        return reshaping.reorder(self, [*rest[:at], *moved, *rest[at:]])

    def _chosen(self, columns: Sequence[object], what: str) -> tuple[str, ...]:
        """Column names from names, columns, selectors and lists of them (each once); at least one."""
        if not columns:
            msg = f"{what} needs at least one column"
            raise ArgumentTypeError(msg)
        items = [item for column in columns for item in items_of(column, what)]
        return names_of(items, self.schema, what)

    def _subset(self, subset: Subset | None, what: str) -> tuple[str, ...]:
        if subset is None:
            return self.schema.names
        return names_of(items_of(subset, what), self.schema, what)

    def unique(
        self,
        subset: Subset | None = None,
        *,
        keep: Literal["any", "first", "last", "none"] = "any",
        maintain_order: bool = False,
    ) -> DataFrame[M]:
        """One row per distinct value of ``subset`` (all columns by default).

        ``keep="any"`` keeps some row (a plain ``DISTINCT``); ``"first"`` and
        ``"last"`` keep the first or last row in the frame's current order (a
        window over a row id); ``"none"`` keeps only values that occur once.
        ``maintain_order=True`` keeps the frame's order (first/last only).
        """
        names = self._subset(subset, "unique(subset=...)")
        if keep == "any":
            return DataFrame(p.Distinct(self._plan, names if subset is not None else None), self._model)
        if keep == "none":
            return DataFrame(reshaping.only_unique(self, names).plan, self._model)
        if keep not in ("first", "last"):
            msg = f"unique(keep={shown(keep)}): keep must be 'any', 'first', 'last' or 'none'"
            raise ArgumentValueError(msg)
        return DataFrame(reshaping.keep_one(self, names, keep, maintain_order).plan, self._model)

    def duplicated(
        self, subset: Subset | None = None, *, keep: Literal["first", "last"] | bool = "first"
    ) -> DataFrame[Any]:
        """One boolean column ``duplicated`` per row, as pandas' ``duplicated`` (``keep=False``: all repeats).

        The flags come in the frame's row order (the order ``collect()`` returns
        its rows, a sorted frame's sort order), the ``i``-th flag for the ``i``-th
        row; "first" and "last" are in that order too.
        """
        return reshaping.duplicated(self, self._subset(subset, "duplicated(subset=...)"), keep)

    def drop_duplicate_groups(self, subset: Subset | None = None) -> DataFrame[M]:
        """Only the rows whose ``subset`` values occur once (``unique(keep="none")``)."""
        return self.unique(subset, keep="none")

    # --- set operations --------------------------------------------------------------------

    def union(self, other: DataFrame[Any]) -> DataFrame[Any]:
        """All rows of both frames, matched by position (types must match; names are this frame's)."""
        return self._frame(Union((self._plan, _plan_of(other, "union()"))))

    def union_by_name(self, other: DataFrame[Any], *, allow_missing_columns: bool = False) -> DataFrame[Any]:
        """All rows of both frames, matched by column name; missing columns as typed NULLs if allowed."""
        right = _plan_of(other, "union_by_name()")
        return self._frame(Union((self._plan, right), by_name=True, allow_missing=allow_missing_columns))

    def concat(self, *others: DataFrame[Any], how: Literal["vertical", "diagonal"] = "vertical") -> DataFrame[Any]:
        """All rows of this and the other frames: ``vertical`` by position, ``diagonal`` by name with NULLs."""
        if how not in ("vertical", "diagonal"):
            msg = f"concat(how={shown(how)}) must be 'vertical' or 'diagonal'"
            raise ArgumentValueError(msg)
        plans = (self._plan, *(_plan_of(o, "concat()") for o in others))
        return self._frame(Union(plans, by_name=how == "diagonal", allow_missing=how == "diagonal"))

    def intersect(self, other: DataFrame[Any]) -> DataFrame[Any]:
        """Distinct rows present in both frames.

        A column is nullable only where it is in both frames: the rows keep this
        frame's model when nothing narrows, and are a derived model otherwise.
        """
        return self._frame(SetOperation(self._plan, _plan_of(other, "intersect()"), "intersect"))

    def intersect_all(self, other: DataFrame[Any]) -> DataFrame[Any]:
        """Rows present in both frames, as many times as in both (multiset); typed as ``intersect``."""
        return self._frame(SetOperation(self._plan, _plan_of(other, "intersect_all()"), "intersect_all"))

    def subtract(self, other: DataFrame[Any]) -> DataFrame[M]:
        """Distinct rows of this frame that are not in ``other``."""
        return DataFrame(SetOperation(self._plan, _plan_of(other, "subtract()"), "subtract"), self._model)

    def except_all(self, other: DataFrame[Any]) -> DataFrame[M]:
        """This frame's rows minus ``other``'s, counting duplicates (a true multiset difference)."""
        return DataFrame(SetOperation(self._plan, _plan_of(other, "except_all()"), "except_all"), self._model)

    # --- reshaping -------------------------------------------------------------------------

    def melt(
        self,
        id_vars: Subset | None = None,
        value_vars: Subset | None = None,
        *,
        variable_name: str = "variable",
        value_name: str = "value",
        allow_lossy: Selection = False,
    ) -> DataFrame[Any]:
        """Long format: the id columns, the value column's name, its value.

        The value columns must share a type, or convert to a common one (an
        ``int`` and a ``bigint`` melt into ``bigint``). A conversion that can
        silently lose information by the rules of reconciliation (``bigint`` →
        ``double`` rounds ``2**53 + 1``; ``decimal`` → ``double``) is a
        ``LossyCastError`` naming the column and the types, unless
        ``allow_lossy`` accepts it: ``True``, or the names of the value columns
        that may convert with loss.

        ```pycon
        >>> from pydantable_spark import DataFrameModel
        >>> class Reading(DataFrameModel):
        ...     id: int
        ...     count: int
        ...     ratio: float
        >>> readings = Reading.from_rows([{"id": 1, "count": 2**53 + 1, "ratio": 0.5}])
        >>> readings.melt("id", ["count", "ratio"])
        Traceback (most recent call last):
        ...
        pydantable_spark.errors.LossyCastError: melt(): value column 'count' is bigint (int), and melting it with ...
        >>> print(readings.melt("id", ["count", "ratio"], allow_lossy=["count"]).schema)
        id: int (bigint)
        variable: str (string)
        value: float (double)

        ```
        """
        ids = self._subset(id_vars, "melt(id_vars=...)") if id_vars is not None else ()
        values = (
            self._subset(value_vars, "melt(value_vars=...)")
            if value_vars is not None
            else tuple(n for n in self.columns if n not in ids)
        )
        lossy = _lossy_names(allow_lossy, values, "melt(allow_lossy=...)")
        return self._frame(Unpivot(self._plan, ids, values, variable_name, value_name, lossy))

    unpivot = melt
    """``melt`` under PySpark's name (the same parameters)."""
    pivot_longer = melt
    """``melt`` under the interface contract's other name (the same parameters)."""

    def pivot(
        self,
        index: Subset,
        columns: IntoColumn | Selector,
        values: Subset,
        aggregate_function: str = "first",
        *,
        pivot_values: Sequence[object] | None = None,
        sort_columns: bool = False,
        separator: str = "_",
    ) -> DataFrame[Any]:
        """Wide format: one row per ``index`` value, one column per value of ``columns``.

        Output columns are ``<value><separator><aggregate>`` (one value column)
        or ``<value><separator><value column><separator><aggregate>``. Without
        ``pivot_values`` the distinct values of ``columns`` are fetched with a
        Spark job *when this method is called* (the schema depends on them);
        pass them to keep plan building free of Spark.
        """
        index_names = self._subset(index, "pivot(index=...)")
        pivot_names = self._subset(_single(columns), "pivot(columns=...)")
        if len(pivot_names) != 1:
            shown = columns.describe if isinstance(columns, Selector) else repr(columns)
            msg = f"pivot(columns=...) takes one column; {shown} matches {', '.join(pivot_names)}"
            raise ArgumentValueError(msg)
        pivot_name = pivot_names[0]
        value_names = self._subset(values, "pivot(values=...)")
        if pivot_values is None:
            found = self.select(pivot_name).unique().to_dict()[pivot_name]
            pivot_values = sorted(found, key=lambda v: (v is not None, v)) if sort_columns else found
        return reshaping.pivot(self, index_names, pivot_name, value_names, aggregate_function, pivot_values, separator)

    pivot_wider = pivot
    """``pivot`` under the interface contract's other name (the same parameters)."""

    def explode(self, columns: Subset) -> DataFrame[Any]:
        """One row per array element (several columns: zipped, equal lengths); empty arrays give no row."""
        return self._frame(Explode(self._plan, self._subset(columns, "explode()")))

    def explode_all(self) -> DataFrame[Any]:
        """``explode`` of every list column (zipped when several); a frame without one is an ``EmptySelectionError``.

        ```pycon
        >>> from pydantable_spark import DataFrameModel
        >>> class Order(DataFrameModel):
        ...     id: int
        ...     items: list[str]
        ...     counts: list[int | None]
        >>> print(Order.from_rows([]).explode_all().schema)
        id: int (bigint)
        items: str | None (string)
        counts: int | None (bigint)

        ```
        """
        return self._frame(Explode(self._plan, reshaping.of_kind(self, dt.List, "explode_all()", "list")))

    def explode_outer(self, columns: Subset) -> DataFrame[Any]:
        """As ``explode``, but an empty or NULL array gives one row with NULL."""
        return self._frame(Explode(self._plan, self._subset(columns, "explode_outer()"), outer=True))

    def posexplode(self, column: IntoColumn, *, position: str = "pos") -> DataFrame[Any]:
        """As ``explode`` of one column, with the element's 0-based index in ``position``."""
        check_param("posexplode()", "position", position, str)
        names = self._subset(_single(column), "posexplode()")
        return self._frame(Explode(self._plan, names, position=position))

    def posexplode_outer(self, column: IntoColumn, *, position: str = "pos") -> DataFrame[Any]:
        """As ``posexplode``, but an empty or NULL array gives one row, NULL in ``position`` and the column."""
        check_param("posexplode_outer()", "position", position, str)
        names = self._subset(_single(column), "posexplode_outer()")
        return self._frame(Explode(self._plan, names, outer=True, position=position))

    def inline(self, column: IntoColumn) -> DataFrame[Any]:
        """One row per element of a list of structs, the struct's fields as columns in its place.

        An empty or NULL list gives no row (``inline_outer``: one row of NULLs).

        ```pycon
        >>> from pydantable_spark import DataFrameModel, F
        >>> class Order(DataFrameModel):
        ...     id: int
        ...     sku: str
        ...     qty: int
        >>> lines = Order.from_rows([]).select("id", lines=F.array(F.struct(Order.sku, Order.qty)))
        >>> print(lines.inline("lines").schema)
        id: int (bigint)
        sku: str (string)
        qty: int (bigint)

        ```
        """
        (name,) = self._subset(_single(column), "inline()")
        return reshaping.inline(self, name, outer=False)

    def inline_outer(self, column: IntoColumn) -> DataFrame[Any]:
        """As ``inline``, but an empty or NULL list gives one row whose fields are NULL."""
        (name,) = self._subset(_single(column), "inline_outer()")
        return reshaping.inline(self, name, outer=True)

    def unnest(self, columns: Subset, *, separator: str = "_") -> DataFrame[Any]:
        """Struct columns replaced by their fields, named ``{parent}{separator}{field}``."""
        return reshaping.unnest(self, self._subset(columns, "unnest()"), separator)

    def unnest_all(self, *, separator: str = "_") -> DataFrame[Any]:
        """``unnest`` of every struct column; a frame without one is an ``EmptySelectionError``.

        ```pycon
        >>> from pydantable_spark import DataFrameModel, F
        >>> class User(DataFrameModel):
        ...     id: int
        ...     city: str
        ...     zip: str | None
        >>> nested = User.from_rows([]).select("id", home=F.struct(User.city, User.zip))
        >>> print(nested.unnest_all().schema)
        id: int (bigint)
        home_city: str (string)
        home_zip: str | None (string)

        ```
        """
        check_param("unnest_all()", "separator", separator, str)
        return reshaping.unnest(self, reshaping.of_kind(self, dt.Struct, "unnest_all()", "struct"), separator)

    def with_row_count(self, name: str = "row_nr", offset: int = 0) -> DataFrame[Any]:
        """A first column numbering the rows from ``offset`` (a non-null ``int``)."""
        return reshaping.with_row_count(self, name, offset)

    def drop_nulls(
        self, subset: Subset | None = None, *, how: Literal["any", "all"] = "any", threshold: int | None = None
    ) -> DataFrame[Any]:
        """Rows without NULLs (in ``subset``); with ``how="any"`` those columns become non-nullable.

        NaN is a value, not NULL: rows holding NaN stay (PySpark's ``dropna`` drops them).
        """
        return reshaping.drop_nulls(self, self._subset(subset, "drop_nulls(subset=...)"), how, threshold)

    def fill_null(self, value: object, *, subset: Subset | None = None) -> DataFrame[Any]:
        """NULLs replaced by ``value`` (in ``subset``, or in every column whose type takes it); NaN stays."""
        names = None if subset is None else self._subset(subset, "fill_null(subset=...)")
        return reshaping.fill_null(self, value, names)

    def clip(self, lower: object = None, upper: object = None, *, subset: Subset | None = None) -> DataFrame[Any]:
        """Numeric columns limited to ``[lower, upper]``; a non-numeric column in ``subset`` is an error."""
        names = None if subset is None else self._subset(subset, "clip(subset=...)")
        return reshaping.clip(self, lower, upper, names)

    # --- discovery -------------------------------------------------------------------------

    def describe(self) -> str:
        """Per-column statistics, as the interface contract lists them, from one Spark job.

        Numbers: count, NULLs, mean, std, min, max; booleans: true, false and
        NULL counts; strings: count, NULLs, distinct values, shortest and
        longest length; dates and datetimes: count, NULLs, min, max. Other
        columns are named on a last line, not described.

        ```pycon
        >>> from pydantable_spark import DataFrameModel
        >>> class P(DataFrameModel):
        ...     name: str | None
        ...     ok: bool
        ...     tags: list[str]
        >>> rows = [{"name": "Ada", "ok": True, "tags": []}, {"name": None, "ok": False, "tags": ["x"]}]
        >>> print(P.from_rows(rows).describe())
        rows: 2
        name (str | None): count=1, nulls=1, n_unique=1, min_length=3, max_length=3
        ok (bool): true=1, false=1, nulls=0
        not described: tags (list[str])

        ```
        """
        return reshaping.describe(self)

    def value_counts(self, column: IntoColumn, *, normalize: bool = False) -> dict[Any, Any]:
        """Value → number of rows (or fraction with ``normalize``), from one Spark job."""
        (name,) = self._subset(_single(column), "value_counts()")
        return reshaping.value_counts(self, name, normalize)

    def info(self) -> str:
        """The row model, the columns with their types and the row count (one Spark job: ``count()``)."""
        lines = [f"DataFrame[{self.model.__name__}]: {self.count()} rows, {len(self.schema)} columns"]
        lines += [f"  {line}" for line in str(self.schema).splitlines()]
        return "\n".join(lines)

    def group_by(
        self, *keys: IntoColumn | Selector, drop_nulls: bool = True, maintain_order: bool = False
    ) -> GroupBy[Any]:
        """Groups of rows with equal keys; ``.agg(...)`` makes one row per group.

        Rows whose keys are NULL are left out unless ``drop_nulls=False``
        (then they form their own groups, as in PySpark's ``groupBy``); with
        the default, key columns are not nullable. ``explain()`` and
        ``GroupBy.null_dropped_keys`` name the keys whose NULL rows are left
        out, and the mypy plugin notes a ``group_by`` over a nullable key that
        does not write ``drop_nulls=``. ``maintain_order=True`` returns groups
        in the order of their first rows (an extra sort).

        ```pycon
        >>> from pydantable_spark import DataFrameModel, F
        >>> class Sale(DataFrameModel):
        ...     country: str | None
        ...     amount: float
        >>> sales = Sale.from_rows([{"country": "NO", "amount": 2.0}, {"country": None, "amount": 5.0}])
        >>> sales.group_by("country").agg(total=F.sum(Sale.amount)).to_dict()
        {'country': ['NO'], 'total': [2.0]}
        >>> sales.group_by("country", drop_nulls=False).agg(total=F.sum(Sale.amount)).sort("country").to_dict()
        {'country': [None, 'NO'], 'total': [5.0, 2.0]}

        ```
        """
        check_param("group_by()", "drop_nulls", drop_nulls, bool)
        check_param("group_by()", "maintain_order", maintain_order, bool)
        nodes = self._items(keys, {}, "group_by()")
        if not nodes:
            msg = "group_by() needs at least one key"
            raise ArgumentTypeError(msg)
        return GroupBy(self, tuple(nodes), drop_nulls, maintain_order)

    def group_by_dynamic(
        self,
        index_column: IntoColumn,
        *,
        every: Duration,
        period: Duration | None = None,
        offset: Duration | None = None,
        by: IntoColumn | Selector | Sequence[IntoColumn | Selector] | None = None,
        drop_nulls: bool = True,
    ) -> GroupBy[Any]:
        r"""Groups of rows by time window (and ``by``); ``.agg(...)`` makes one row per window and group.

        Windows of ``period`` (default: ``every``) start every ``every``, at
        ``offset`` past 1970-01-01 00:00 UTC (so a ``"1w"`` window starts on a
        Thursday unless ``offset="4d"``); a row is in every window whose span
        ``[start, start + period)`` holds its index time (several when ``period``
        is longer). Durations are ``timedelta`` values, Spark's text (``"1 hour"``) or
        Polars' (``"1h"``, ``"30m"``, ``"1d"``). It is ``group_by(*by,
        F.window(index_column, period, every, offset))``: rows whose index time is
        NULL are left out, and ``drop_nulls`` applies to ``by`` as in ``group_by``.

        ``agg`` gives the ``by`` columns, the index column holding each window's
        start (a ``datetime``; a date column's windows start at UTC midnights),
        then the aggregates. Groups come in no particular order: ``sort`` them.
        Examples: the module ``pydantable_spark.timeseries`` and the guide's
        "Time windows and rolling aggregates" (``docs/guides.md``), whose
        code blocks run in the tests.
        """
        from pydantable_spark.timeseries import dynamic_groups

        return dynamic_groups(
            self, index_column, every=every, period=period, offset=offset, by=by, drop_nulls=drop_nulls
        )

    def rolling_agg(
        self,
        *,
        on: IntoColumn,
        column: IntoColumn,
        window_size: int | Duration,
        op: RollingOp,
        out_name: str,
        by: IntoColumn | Selector | Sequence[IntoColumn | Selector] | None = None,
        min_periods: int = 1,
    ) -> DataFrame[Any]:
        """This frame with ``out_name``: ``op`` of ``column`` over each row's trailing window of ``on``.

        The window of a row holds the rows of its ``by`` group whose ``on`` lies
        in ``[on - window_size, on]`` (its ties included, whatever their order).
        ``on`` is a date, a datetime (``window_size`` a duration: ``"2h"``,
        ``timedelta``) or an integer column (``window_size`` an ``int``), not
        nullable. ``op`` is ``sum``, ``mean``, ``min``, ``max`` (NULLs ignored; NULL
        for a window without values, or with fewer than ``min_periods``) or
        ``count`` (of non-NULL values; never NULL). It is
        ``with_columns(out_name=F.<op>(column).over(Window.partition_by(*by).order_by(on).range_between(-size, 0)))``.

        ```pycon
        >>> from pydantable_spark import DataFrameModel
        >>> class Sale(DataFrameModel):
        ...     day: int
        ...     shop: str
        ...     amount: int | None
        >>> sales = Sale.from_rows([
        ...     {"day": 1, "shop": "a", "amount": 10}, {"day": 2, "shop": "a", "amount": None},
        ...     {"day": 4, "shop": "a", "amount": 5}, {"day": 2, "shop": "b", "amount": 7},
        ... ])
        >>> rolled = sales.rolling_agg(on="day", column="amount", window_size=2, op="sum", out_name="last3", by="shop")
        >>> sorted((row.shop, row.day, row.last3) for row in rolled.collect())
        [('a', 1, 10), ('a', 2, 10), ('a', 4, 5), ('b', 2, 7)]

        ```
        """
        from pydantable_spark.timeseries import rolling_column

        check_param("rolling_agg()", "out_name", out_name, str)
        expr = rolling_column(
            self.schema, on=on, column=column, window_size=window_size, op=op, by=by, min_periods=min_periods
        )
        return self.with_columns(**{out_name: expr})

    def join(
        self,
        other: DataFrame[Any],
        on: JoinOn | None = None,
        *,
        left_on: JoinKeys | None = None,
        right_on: JoinKeys | None = None,
        how: JoinHow | JoinHowAlias = "inner",
        suffix: str = "_right",
        coalesce: bool | None = None,
        join_nulls: bool = False,
        validate: str = "m:m",
        maintain_order: bool | Literal["none", "left", "right"] | None = None,
        hint: JoinHint | None = None,
    ) -> DataFrame[Any]:
        """Join with ``other`` (the interface contract's semantics; see ``plan.joins``).

        Keys are names, columns, selectors (``on=``: resolved against this
        frame, and each must exist in ``other``), or expressions (``left_on`` /
        ``right_on``, each bound to its own side). ``join_nulls=True`` matches
        NULL keys to each other. ``validate="1:1" | "1:m" | "m:1"`` checks that
        the keys are unique on the sides it names, with one extra Spark job
        when the plan runs, and raises ``CardinalityError`` naming a repeated
        key. ``maintain_order="left"`` (or True) keeps this frame's row order.

        ``on=`` also takes conditions, as PySpark's ``join(other, on=<Column>)``
        does: boolean expressions over columns of both frames
        (``on=(Trip.ts >= Rate.valid_from) & (Trip.ts < Rate.valid_to)``), alone,
        in a list with key names (``on=["id", Order.note != Ship.note]``: the
        keys and the conditions must all hold) or next to ``left_on=``/``right_on=``.
        A column is this frame's or ``other``'s by its model (``Trip.ts``), by
        its name when only one frame has it, or as said with ``left.col("x")`` /
        ``right.col("x")``; a name both frames have is ``AmbiguousSideError``, and
        so is a model attribute that only a frame of another model has by name
        when the other frame was derived (``tariffs.rename({"city": "town"})``:
        ``Tariff.city`` is not the left frame's ``city``; say ``right.col("town")``).
        Conditions change which rows match, not the columns; a cross join with
        a condition is an inner join on it. Without an equal key Spark runs a
        nested-loop join (every pair of rows is compared): see the joins guide.

        ``hint=`` is a Spark join strategy hint on ``other``: ``"broadcast"``
        (ship ``other`` to every executor), ``"merge"``, ``"shuffle_hash"`` or
        ``"shuffle_replicate_nl"``; ``self.hint(...)`` hints this frame.

        ```pycon
        >>> from pydantable_spark import DataFrameModel
        >>> class U(DataFrameModel):
        ...     id: int
        ...     name: str
        >>> class D(DataFrameModel):
        ...     id: int
        ...     name: str
        ...     budget: float
        >>> print(U.from_rows([]).join(D.from_rows([]), on="id", how="left").schema)
        id: int (bigint)
        name: str (string)
        name_right: str | None (string)
        budget: float | None (double)
        >>> print(U.from_rows([]).join(D.from_rows([]), on=["id", U.name != D.name], how="semi").schema)
        id: int (bigint)
        name: str (string)

        ```
        """
        right = _plan_of(other, "join()")
        if hint is not None:
            right = Hint(right, join_hint(hint, "join(hint=...)"))
        kind = HOW_ALIASES.get(how, how)
        if kind not in HOWS:
            msg = f"join(how={shown(how)}) is not a join kind; use one of {', '.join(HOWS)}"
            raise ArgumentValueError(msg)
        how = cast("JoinHow", kind)
        order = _join_order(maintain_order)
        check = _VALIDATE.get(validate)
        if check is None:
            msg = f"join(validate={shown(validate)}) is not known; use one of {', '.join(_VALIDATE)}"
            raise ArgumentValueError(msg)
        names, predicates = _on_parts(on)
        models = (_declared_model(self), _declared_model(other))
        conditions = tuple(bind_condition(c, self.schema, other.schema, models) for c in predicates)
        if check != "m:m" and not names and left_on is None:
            msg = f"join(validate={shown(validate)}) checks that join keys are unique; this join has no equal keys"
            raise ArgumentValueError(msg)
        if how == "cross":
            if names or left_on is not None or right_on is not None:
                msg = (
                    "a cross join takes no keys (on=<names>, left_on=, right_on=); "
                    "a condition (on=<boolean expression>) makes it an inner join on that condition"
                )
                raise ArgumentTypeError(msg)
            if coalesce:
                msg = "join(how='cross', coalesce=True): a cross join has no keys to merge; drop coalesce="
                raise ArgumentTypeError(msg)
            plan = Join(self._plan, right, how, (), (), False, suffix, join_nulls, check, order, conditions)
            return self._frame(plan)
        if names:
            if left_on is not None or right_on is not None:
                msg = (
                    "join() takes key names in either on= or left_on=/right_on=, not both "
                    "(conditions in on= may go with left_on=/right_on=)"
                )
                raise ArgumentTypeError(msg)
            keys = names_of(names, self.schema, "join(on=...)")
            for name in keys:
                if name not in other.schema:
                    raise UnknownColumnError(name, other.schema.names, where="the right frame (join on=)")
            left_keys = tuple(bind(Column(n), self.schema) for n in keys)
            right_keys = tuple(bind(Column(n), other.schema) for n in keys)
            merge = True
        elif left_on is not None or right_on is not None or not conditions:
            if left_on is None or right_on is None:
                msg = "join() needs on=, or both left_on= and right_on="
                raise ArgumentTypeError(msg)
            left_keys = _key_nodes(left_on, self.schema, "left_on")
            right_keys = _key_nodes(right_on, other.schema, "right_on")
            merge = bool(coalesce)
            if merge and not all(isinstance(k, Column) for k in (*left_keys, *right_keys)):
                msg = "join(coalesce=True) merges column keys only; computed key expressions are kept apart"
                raise NotImplementedError(msg)
        else:
            left_keys, right_keys, merge = (), (), False
        plan = Join(self._plan, right, how, left_keys, right_keys, merge, suffix, join_nulls, check, order, conditions)
        return self._frame(plan)

    # --- physical controls: how Spark computes the frame, never what it holds -----------------

    def cache(self) -> DataFrame[M]:
        """This frame, cached by Spark when an action first computes it; later actions read the cache.

        The same as ``persist()``: Spark's default level, ``MEMORY_AND_DISK_DESER``.
        """
        return self.persist()

    def persist(self, level: StorageLevelName | StorageLevel = "MEMORY_AND_DISK_DESER") -> DataFrame[M]:
        """This frame, cached by Spark at ``level`` when an action first computes it; later actions read the cache.

        ``level`` is a PySpark ``StorageLevel`` constant or its name
        (``"MEMORY_ONLY"``, ``"DISK_ONLY"``, ...). The cached Spark DataFrame is
        kept with the frame, one per session: every action on this frame, and
        on frames built from it, reads it, until ``unpersist()``. Like
        ``cache()``, this runs no job itself.

        A filter on the cache returns the rows it would without it: Spark
        skips cached batches by min/max statistics that leave NaN out, so an
        action on a cached frame with a float column sets
        ``spark.sql.inMemoryColumnarStorage.partitionPruning=false`` on the
        session (see docs/guides.md, "Physical controls").
        """
        return DataFrame(Persist(self._plan, storage_level(level, "persist(level=...)")), self._model)

    @acts_on_spark
    def unpersist(self, blocking: bool = False) -> DataFrame[M]:
        """Free this frame's cache now (``blocking``: wait until it is gone); returns the frame without caching.

        On a frame that is not cached (made by ``cache()``/``persist()``), it
        does nothing, as in PySpark. A later action on the cached frame itself
        caches it again.
        """
        check_param("unpersist()", "blocking", blocking, bool)
        if not isinstance(self._plan, Persist):
            return self
        from pydantable_spark._spark.execute import unpersist

        unpersist(self._plan.held, blocking=blocking)
        return DataFrame(self._plan.input, self._model)

    def repartition(self, n: int | IntoColumn | Selector, *columns: IntoColumn | Selector) -> DataFrame[M]:
        """The rows in ``n`` partitions, by hash of ``columns`` (round robin without them); a shuffle.

        As in PySpark, ``n`` may be left out: ``repartition("k")`` uses
        Spark's default number of partitions (``spark.sql.shuffle.partitions``).
        Columns are names, expressions or selectors. Spark still moves filters
        written after it below it, to the source.
        """
        if isinstance(n, bool) or not isinstance(n, int | str | Expr | Selector):
            msg = (
                f"repartition(): n must be int (the number of partitions) or a column, "
                f"got {shown(n)} ({type(n).__name__})"
            )
            raise ArgumentTypeError(msg)
        keys = tuple(nodes_of([*([] if isinstance(n, int) else [n]), *columns], self.schema, "repartition()"))
        return DataFrame(Repartition(self._plan, n if isinstance(n, int) else None, keys), self._model)

    def coalesce(self, n: int) -> DataFrame[M]:
        """The rows in at most ``n`` partitions, merged without a shuffle (fewer never become more)."""
        check_param("coalesce()", "n", n, int)
        return DataFrame(Coalesce(self._plan, n), self._model)

    def sample(self, fraction: float, seed: int | None = None, with_replacement: bool = False) -> DataFrame[M]:
        """A random sample: each row kept with probability ``fraction`` (0 to 1), so about that share of rows.

        ``with_replacement=True`` draws each row a Poisson(``fraction``)
        number of times (any ``fraction >= 0``). Without a ``seed`` one is
        drawn now, so, as a PySpark DataFrame does, every action on this frame
        sees the same sample. Filters written after it stay after it.
        """
        check_param("sample()", "fraction", fraction, (float, int))
        check_param("sample()", "seed", seed, int, optional=True)
        check_param("sample()", "with_replacement", with_replacement, bool)
        if seed is None:
            seed = secrets.randbits(63)
        elif not dt.Int64.holds(seed):
            msg = f"sample(): seed must fit in a bigint (-2**63 to 2**63 - 1), got {shown(seed)}"
            raise ArgumentValueError(msg)
        return DataFrame(Sample(self._plan, float(fraction), seed, with_replacement), self._model)

    def hint(self, name: JoinHint) -> DataFrame[M]:
        """This frame with a Spark join strategy hint, taken by the join that reads it.

        ``"broadcast"`` ships the frame to every executor (the other side is
        not shuffled), ``"merge"`` asks for a sort-merge join, ``"shuffle_hash"``
        a shuffled hash join, ``"shuffle_replicate_nl"`` a nested-loop join
        over a cartesian product. ``join(other, hint=...)`` hints ``other``.
        """
        return DataFrame(Hint(self._plan, join_hint(name, "hint()")), self._model)

    @acts_on_spark
    def checkpoint(self, eager: bool = True) -> DataFrame[M]:
        """This frame computed once and saved in the checkpoint directory; actions read the saved data.

        With ``eager=True`` (the default, as in PySpark) this runs a Spark
        job now; otherwise the first action saves it. The plan that made the
        data is cut off, which bounds Spark's planning time for long iterative
        plans. Spark needs a checkpoint directory
        (``spark.sparkContext.setCheckpointDir(path)``, or the
        ``spark.checkpoint.dir`` setting); ``local_checkpoint()`` needs none.
        """
        return self._checkpoint(local=False, eager=eager, what="checkpoint()")

    @acts_on_spark
    def local_checkpoint(self, eager: bool = True) -> DataFrame[M]:
        """This frame computed once and kept on the executors (not reliable storage); actions read it.

        As ``checkpoint()``, without a checkpoint directory: the data is lost
        with an executor. With ``eager=True`` (the default) this runs a Spark
        job now.
        """
        return self._checkpoint(local=True, eager=eager, what="local_checkpoint()")

    def _checkpoint(self, *, local: bool, eager: bool, what: str) -> DataFrame[M]:
        check_param(what, "eager", eager, bool)
        frame: DataFrame[M] = DataFrame(Checkpoint(self._plan, local, eager), self._model)
        if eager:
            from pydantable_spark._spark.lower import lower
            from pydantable_spark._spark.storage import spark_errors

            with spark_errors(what, frame._plan):  # a failed NULL check is NullCheckError, as in lazy forms
                lower(frame._plan)  # the checkpoint's executor saves the data now (a Spark job)
        return frame

    def as_model(
        self, model: type[M2], *, allow_lossy: Selection = False, null_check: Selection = False
    ) -> DataFrame[M2]:
        """This frame typed as ``model``, checked now against the derived schema.

        The strict rules of ``reconcile`` apply: extra columns are dropped,
        widening casts allowed; a missing column, an incompatible or lossy cast
        or a nullable column for a non-null field raises with a diff.
        """
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            msg = f"as_model() takes a Pydantic model class, got {model!r}"
            raise ArgumentTypeError(msg)
        rec = reconcile(self.schema.fields, schema_of_model(model), allow_lossy=allow_lossy, null_check=null_check)
        return DataFrame(p.Reconcile(self._plan, rec, f"as_model({model.__name__})"), model)


JoinKeys = str | Expr[Any] | Selector | Sequence[str | Expr[Any] | Selector]
JoinOn = JoinKeys
"""Key names, columns and selectors, boolean conditions (``Expr[bool | None]``), or a list mixing them."""
Subset = JoinKeys


install(DataFrame, FRAME)  # PySpark's DataFrame names answer what to write here (``pyspark_names``)


def _lossy_names(option: object, values: tuple[str, ...], what: str) -> tuple[str, ...]:
    """The value columns ``allow_lossy`` (``True``/``False`` or names among ``values``) lets convert with loss."""
    if isinstance(option, bool):
        return values if option else ()
    if isinstance(option, str) or not isinstance(option, Sequence | set | frozenset):
        msg = f"{what} takes True, False or a list of value column names, got {shown(option)}"
        raise ArgumentTypeError(msg)
    names = tuple(option)
    for name in names:
        if name not in values:
            msg = (
                f"{what}: {shown(name)} is not a value column of this melt; value columns: {', '.join(values)}"
                f"{suggest(name, values) if isinstance(name, str) else ''}"
            )
            raise ArgumentValueError(msg)
    return names


def _single(item: str | Expr[Any] | Selector) -> list[str | Expr[Any] | Selector]:
    return [item]


_VALIDATE: dict[str, Validate] = {
    "m:m": "m:m", "1:1": "1:1", "1:m": "1:m", "m:1": "m:1",
    "many_to_many": "m:m", "one_to_one": "1:1", "one_to_many": "1:m", "many_to_one": "m:1",
}  # fmt: skip


def _plan_of(frame: object, what: str) -> p.Plan:
    """The plan of a frame argument; anything else is refused when the call is made."""
    if not isinstance(frame, DataFrame):
        msg = f"{what} takes a DataFrame, got {shown(frame)} ({type(frame).__name__})"
        raise ArgumentTypeError(msg)
    return frame._plan


def _on_parts(on: JoinOn | None) -> tuple[list[object], list[Node]]:
    """``on=`` split into key names (names, columns, selectors) and conditions (any other expression).

    A column of one side (``right.col("active")``) is a condition: a key is a
    name both frames have.
    """
    if on is None:
        return [], []
    names: list[object] = []
    conditions: list[Node] = []
    for item in items_of(on, "join(on=...)"):
        if isinstance(item, Expr) and (not isinstance(item.node, Column) or isinstance(item.node, SideColumn)):
            conditions.append(item.node)
        else:
            names.append(item)
    return names, conditions


def _declared_model(frame: DataFrame[Any]) -> str | None:
    """The name of the model a frame was declared with (``User.from_rows``, ``as_model(User)``), if any.

    A model attribute in a join condition (``User.id``) belongs to the side
    of that model; a row model derived from a schema names no side.
    """
    model = frame._model
    return None if model is None or is_derived_row(model) else model.__name__


def _key_nodes(keys: JoinKeys, schema: Schema, what: str) -> tuple[Node, ...]:
    """Join keys bound to one side: names and selectors become columns, expressions stay."""
    where = f"join({what}=...)"
    return tuple(nodes_of(items_of(keys, where), schema, where))


def _join_order(value: bool | str | None) -> Literal["none", "left", "right"]:
    if value is None or value is False or value == "none":
        return "none"
    if value is True or value == "left":
        return "left"
    if value == "right":
        return "right"
    msg = f"join(maintain_order={shown(value)}) must be None, True, False, 'none', 'left' or 'right'"
    raise ArgumentValueError(msg)


def _per_key(value: bool | Sequence[bool], count: int, name: str) -> list[bool]:
    flags = per_key_flags(value, count, "sort()", name)
    if len(flags) != count:
        msg = f"sort() got {count} key(s) but {len(flags)} {name} flag(s)"
        raise ArgumentValueError(msg)
    return flags
