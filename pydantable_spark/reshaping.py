"""Frame transformations built from the plan's own nodes (projections, filters, windows, aggregates).

``DataFrame`` delegates here for renaming and reordering columns, a stable
sort, pivoting, duplicate handling, row numbers, ``unnest``, ``drop_nulls``,
``fill_null``, ``clip`` and the discovery helpers, so that each of them
derives its schema, and lowers, like any other plan.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantable_spark import dtypes as dt
from pydantable_spark.annotations import python_name
from pydantable_spark.errors import (
    ArgumentValueError,
    ColumnTypeError,
    DuplicateColumnError,
    EmptySelectionError,
    UnknownColumnError,
    listing,
    shown,
)
from pydantable_spark.expr.api import Expr
from pydantable_spark.expr.binding import call
from pydantable_spark.expr.call import Call
from pydantable_spark.expr.catalog import CATALOG, METHODS
from pydantable_spark.expr.conditional import Coalesce, When
from pydantable_spark.expr.core import Alias, Cast, Column, Node, RowId, bind, check_param, literal_of
from pydantable_spark.expr.core import Literal as Lit
from pydantable_spark.expr.operators import (
    And,
    Arithmetic,
    ArithmeticOp,
    Comparison,
    ComparisonOp,
    IsNotNull,
    IsNull,
    Not,
    Or,
)
from pydantable_spark.expr.over import Over
from pydantable_spark.groupby import AGGREGATIONS
from pydantable_spark.plan import nodes as p
from pydantable_spark.plan.aggregate import Aggregate

if TYPE_CHECKING:
    from collections.abc import Sequence

    from pydantable_spark.frame import DataFrame

__all__ = [
    "clip",
    "describe",
    "drop_nulls",
    "duplicated",
    "fill_null",
    "keep_one",
    "of_kind",
    "only_unique",
    "pivot",
    "rename",
    "reorder",
    "sort_stably",
    "unnest",
    "value_counts",
    "with_row_count",
]

_ID = "__pydantable_id"
_RANK = "__pydantable_rank"


def fresh_name(base: str, taken: Sequence[str]) -> str:
    """``base``, or ``base_1``, ``base_2``, ...: a helper column name that no column in ``taken`` has.

    Names are compared ignoring case, as Spark resolves them.
    """
    used = {n.lower() for n in taken}
    name, k = base, 0
    while name.lower() in used:
        k += 1
        name = f"{base}_{k}"
    return name


def _function(name: str, *args: Node) -> Call:
    """A call of catalog function ``name`` on (bound) nodes."""
    return Call(CATALOG[name], args)


def _column(frame: DataFrame[Any], name: str) -> Node:
    return bind(Column(name), frame.schema)


def _project(frame: DataFrame[Any], exprs: Sequence[Node]) -> DataFrame[Any]:
    return frame._frame(p.Project(frame.plan, tuple(exprs)))


def _filter(frame: DataFrame[Any], predicate: Node) -> DataFrame[Any]:
    return frame._frame(p.Filter(frame.plan, predicate))


def _with(frame: DataFrame[Any], name: str, node: Node) -> DataFrame[Any]:
    exprs = [_column(frame, n) for n in frame.columns if n != name]
    return _project(frame, [*exprs, bind(Alias(node, name), frame.schema)])


def _with_row_id(frame: DataFrame[Any]) -> DataFrame[Any]:
    """The frame with a last column of increasing row ids, in the frame's own order (``RowId``)."""
    return _with(frame, fresh_name(_ID, frame.columns), RowId())


def _ranked(frame: DataFrame[Any], subset: Sequence[str], *, last: bool) -> DataFrame[Any]:
    """The frame with a row id and each row's rank among rows with the same ``subset`` values."""
    with_id = _with_row_id(frame)
    partition = tuple(_column(with_id, n) for n in subset)
    order = (_column(with_id, with_id.columns[-1]),)
    rank = Over(_function("row_number"), partition, order, (last,), (False,))
    return _with(with_id, fresh_name(_RANK, with_id.columns), rank)


def rename(frame: DataFrame[Any], renames: dict[str, str], where: str) -> DataFrame[Any]:
    """Columns renamed by ``{old: new}``, in place; ``where`` names the call in messages.

    Every old name must exist and every new one be a string; two columns
    ending with one name (compared ignoring case, as Spark resolves names) is a
    ``DuplicateColumnError`` naming both.
    """
    schema = frame.schema
    for old in renames:
        check_param(where, "a column name", old, str)
        if old not in schema:
            raise UnknownColumnError(old, schema.names, where=where)
    for old, new in renames.items():
        check_param(where, f"the new name of {old!r}", new, str)
    for old, new in renames.items():
        clashes = [n for n in schema.names if n != old and renames.get(n, n).lower() == new.lower()]
        if clashes:
            other = clashes[0]
            there = f"column {other!r} has it"
            if other in renames:
                there = f"{other!r} is renamed to {renames[other]!r} too"
            msg = f"{where}: {old!r} → {new!r} would give two columns one name ({there}); rename or drop it first"
            raise DuplicateColumnError(msg)
    exprs: list[Node] = []
    for f in schema:
        ref = _column(frame, f.name)
        exprs.append(Alias(ref, renames[f.name]) if f.name in renames else ref)
    return _project(frame, exprs)


def reorder(frame: DataFrame[Any], names: Sequence[str]) -> DataFrame[Any]:
    """The columns in the order of ``names`` (each column once), unchanged: no value is computed."""
    assert sorted(names) == sorted(frame.columns), (names, frame.columns)
    if list(names) == frame.columns:
        return frame
    return _project(frame, [_column(frame, n) for n in names])


def sort_stably(frame: DataFrame[Any], keys: Sequence[p.SortKey]) -> DataFrame[Any]:
    """Rows ordered by ``keys``, rows with equal keys in the order they had (Spark's own sort is not stable).

    The row id (``RowId``) taken before the sort is its last key; the result
    drops it again.
    """
    with_id = _with_row_id(frame)
    tie = p.SortKey(_column(with_id, with_id.columns[-1]))
    ordered = with_id._frame(p.Sort(with_id.plan, (*keys, tie)))
    return _project(ordered, [_column(ordered, n) for n in frame.columns])


def of_kind(frame: DataFrame[Any], kind: type[dt.DType], what: str, noun: str) -> tuple[str, ...]:
    """The columns of type ``kind`` (``dt.List``, ``dt.Struct``); none is an ``EmptySelectionError``."""
    names = tuple(f.name for f in frame.schema if isinstance(f.dtype, kind))
    if not names:
        columns = [f"{f.name} ({python_name(f.dtype, nullable=f.nullable)})" for f in frame.schema]
        msg = f"{what}: the frame has no {noun} column; columns: {listing(columns)}"
        raise EmptySelectionError(msg)
    return names


def keep_one(
    frame: DataFrame[Any], subset: Sequence[str], keep: Literal["first", "last"], maintain_order: bool
) -> DataFrame[Any]:
    """One row per ``subset`` value: the first or last in the frame's current order."""
    ranked = _ranked(frame, subset, last=keep == "last")
    row_id, rank = ranked.columns[-2:]
    kept = _filter(ranked, Comparison(ComparisonOp.EQ, _column(ranked, rank), literal_of(1, weak=True)))
    if maintain_order:
        kept = kept._frame(p.Sort(kept.plan, (p.SortKey(_column(kept, row_id)),)))
    return _project(kept, [_column(kept, n) for n in frame.columns])


def _group_sizes(frame: DataFrame[Any], subset: Sequence[str]) -> DataFrame[Any]:
    partition = tuple(_column(frame, n) for n in subset)
    return _with(frame, fresh_name(_RANK, frame.columns), Over(_function("count"), partition))


def only_unique(frame: DataFrame[Any], subset: Sequence[str]) -> DataFrame[Any]:
    """The rows whose ``subset`` values appear exactly once."""
    sized = _group_sizes(frame, subset)
    kept = _filter(sized, Comparison(ComparisonOp.EQ, _column(sized, sized.columns[-1]), literal_of(1, weak=True)))
    return _project(kept, [_column(kept, n) for n in frame.columns])


def duplicated(frame: DataFrame[Any], subset: Sequence[str], keep: Literal["first", "last"] | bool) -> DataFrame[Any]:
    """A single boolean column ``duplicated``, as pandas defines it for ``keep``, one row per input row in input order.

    The input order is the order of ``monotonically_increasing_id()`` taken
    before the window that finds the repeats: the order in which ``collect()``
    returns the frame's rows (for a sorted frame, its sort order). The window
    shuffles rows, so the flags are sorted back into that order.
    """
    if keep is not False and keep not in ("first", "last"):
        msg = f"duplicated(keep={shown(keep)}) must be 'first', 'last' or False"
        raise ArgumentValueError(msg)
    if keep is False:
        counted = _group_sizes(_with_row_id(frame), subset)
    else:
        counted = _ranked(frame, subset, last=keep == "last")
    row_id, rank = counted.columns[-2:]
    ordered = counted._frame(p.Sort(counted.plan, (p.SortKey(_column(counted, row_id)),)))
    flag = Comparison(ComparisonOp.GT, _column(ordered, rank), literal_of(1, weak=True))
    return _project(ordered, [Alias(flag, "duplicated")])


def with_row_count(frame: DataFrame[Any], name: str, offset: int) -> DataFrame[Any]:
    """A first column numbering the rows 0, 1, 2, ... (plus ``offset``) in the current order.

    The numbering runs in a single Spark partition (a window over the whole frame).
    """
    check_param("with_row_count()", "name", name, str)
    check_param("with_row_count()", "offset", offset, int)
    if offset < 0:
        msg = f"with_row_count(offset={offset}) must be >= 0"
        raise ArgumentValueError(msg)
    number = Over(_function("row_number"), (), (RowId(),), (False,), (False,))
    value = Cast(Arithmetic(ArithmeticOp.ADD, number, literal_of(offset - 1, weak=True)), dt.Int64())
    exprs = [bind(Alias(value, name), frame.schema), *(_column(frame, n) for n in frame.columns)]
    return _project(frame, exprs)


def unnest(
    frame: DataFrame[Any], columns: Sequence[str], separator: str | None, what: str = "unnest()"
) -> DataFrame[Any]:
    """Each struct column replaced by its fields, named ``{parent}{separator}{field}``.

    With ``separator`` None, a field keeps its own name.
    """
    exprs: list[Node] = []
    for f in frame.schema:
        if f.name not in columns:
            exprs.append(_column(frame, f.name))
            continue
        if not isinstance(f.dtype, dt.Struct):
            msg = f"{what} needs struct columns; {f.name!r} is {f.dtype}"
            raise ColumnTypeError(msg)
        for inner in f.dtype.fields:
            field = call(METHODS["struct.field"], [Expr(_column(frame, f.name)), inner.name], names=False)
            exprs.append(Alias(field, inner.name if separator is None else f"{f.name}{separator}{inner.name}"))
    return _project(frame, exprs)


def inline(frame: DataFrame[Any], column: str, *, outer: bool) -> DataFrame[Any]:
    """A list-of-structs column replaced by one row per element, the struct's fields as columns (Spark's ``inline``).

    Without ``outer`` an empty or NULL list gives no row; with it, one row whose fields are NULL.
    """
    what = "inline_outer()" if outer else "inline()"
    dtype = frame.schema[column].dtype
    if not (isinstance(dtype, dt.List) and isinstance(dtype.inner, dt.Struct)):
        msg = f"{what} needs a list of structs; {column!r} is {dtype}"
        raise ColumnTypeError(msg)
    exploded = frame.explode_outer(column) if outer else frame.explode(column)
    return unnest(exploded, (column,), None, what)


def _placeholder(dtype: dt.DType) -> Lit:
    return literal_of(dt.example_values(dtype)[0], dtype)


def drop_nulls(
    frame: DataFrame[Any], subset: Sequence[str], how: Literal["any", "all"], threshold: int | None
) -> DataFrame[Any]:
    """Rows without NULLs in ``subset`` (``how="any"``), not all NULL (``"all"``), or with enough values.

    With ``how="any"`` the subset's columns become non-nullable (atomic ones but
    VARIANT: Spark is told so by coalescing them with a typed constant it never uses).
    """
    check_param("drop_nulls()", "threshold", threshold, int, optional=True)
    columns = [_column(frame, n) for n in subset]
    if threshold is not None:
        counts: Node = literal_of(0, dt.Int32())
        for c in columns:
            counts = Arithmetic(
                ArithmeticOp.ADD, counts, When((IsNotNull(c),), (literal_of(1, dt.Int32()),), literal_of(0, dt.Int32()))
            )
        return _filter(frame, Comparison(ComparisonOp.GE, counts, literal_of(threshold, weak=True)))
    if how not in ("any", "all"):
        msg = f"drop_nulls(how={shown(how)}) must be 'any' or 'all'"
        raise ArgumentValueError(msg)
    nullable = [c for c in columns if c.type.nullable]
    if not nullable:
        return frame
    tests = [IsNotNull(c) for c in nullable]
    predicate: Node = tests[0]
    for test in tests[1:]:
        predicate = And(predicate, test) if how == "any" else Or(predicate, test)
    filtered = _filter(frame, predicate)
    if how == "all":
        return filtered
    # nested and VARIANT columns have no typed constant to coalesce with: they stay nullable, as Spark has them
    names = {c.output_name for c in nullable if not (c.type.dtype.is_nested or isinstance(c.type.dtype, dt.Variant))}
    exprs = [
        Alias(Coalesce((_column(filtered, f.name), _placeholder(f.dtype))), f.name)
        if f.name in names
        else _column(filtered, f.name)
        for f in filtered.schema
    ]
    return _project(filtered, exprs)


def fill_null(frame: DataFrame[Any], value: object, subset: Sequence[str] | None) -> DataFrame[Any]:
    """NULLs replaced by ``value`` in ``subset``, or in every column whose type takes it."""
    if value is None:
        msg = "fill_null() needs a value, not None"
        raise ArgumentValueError(msg)
    exprs = []
    for f in frame.schema:
        column = _column(frame, f.name)
        chosen = subset is None or f.name in subset
        if not chosen or not f.nullable:
            exprs.append(column)
            continue
        filled = _try_fill(column, value, explicit=subset is not None)
        exprs.append(Alias(filled, f.name) if filled is not None else column)
    return _project(frame, exprs)


def _try_fill(column: Node, value: object, *, explicit: bool) -> Node | None:
    fill = value.node if isinstance(value, Expr) else literal_of(value, weak=True)
    try:
        filled = Coalesce((column, fill))
    except ColumnTypeError:
        if explicit:
            raise
        return None
    if filled.type.dtype != column.type.dtype:  # a fill value that would change the column's type
        if explicit:
            change = f"from {column.type.dtype} to {filled.type.dtype}"
            msg = f"fill_null({shown(value)}) would change column {column.output_name!r} {change}"
            raise ColumnTypeError(msg)
        return None
    return filled


def clip(frame: DataFrame[Any], lower: object, upper: object, subset: Sequence[str] | None) -> DataFrame[Any]:
    """Numeric values limited to ``[lower, upper]`` (either may be None); NULL stays NULL."""
    if lower is None and upper is None:
        return frame
    exprs = []
    for f in frame.schema:
        column = _column(frame, f.name)
        chosen = isinstance(f.dtype, dt.Numeric) if subset is None else f.name in subset
        if not chosen:
            exprs.append(column)
            continue
        if not isinstance(f.dtype, dt.Numeric):
            msg = f"clip() needs numeric columns; {f.name!r} is {f.dtype}"
            raise ColumnTypeError(msg)
        conditions, values = [], []
        for bound, op in ((lower, ComparisonOp.LT), (upper, ComparisonOp.GT)):
            if bound is not None:
                node = literal_of(bound, weak=True).adopt(f.dtype)
                conditions.append(Comparison(op, column, node))
                values.append(node)
        exprs.append(Alias(When(tuple(conditions), tuple(values), column), f.name))
    return _project(frame, exprs)


def _pivot_name(value: object) -> str:
    return "null" if value is None else str(value)


def pivot(
    frame: DataFrame[Any],
    index: Sequence[str],
    column: str,
    values: Sequence[str],
    function: str,
    pivot_values: Sequence[object],
    separator: str,
) -> DataFrame[Any]:
    """One row per ``index`` value, one column per pivot value (and value column), aggregated."""
    make = AGGREGATIONS.get(function)
    if make is None:
        msg = f"pivot(aggregate_function={shown(function)}): use one of {', '.join(AGGREGATIONS)}"
        raise ArgumentValueError(msg)
    pivot_column = _column(frame, column)
    aggs: list[Node] = []
    for pv in pivot_values:
        test: Node = (
            IsNull(pivot_column) if pv is None else Comparison(ComparisonOp.EQ, pivot_column, literal_of(pv, weak=True))
        )
        for name in values:
            picked = When((test,), (_column(frame, name),))
            aggregate = make(picked)
            if isinstance(aggregate, Call) and aggregate.function.name in ("first", "last"):
                aggregate = _function(aggregate.function.name, picked, literal_of(True))  # ignorenulls
            label = _pivot_name(pv) if len(values) == 1 else f"{_pivot_name(pv)}{separator}{name}"
            aggs.append(bind(Alias(aggregate, f"{label}{separator}{function}"), frame.schema))
    keys = tuple(_column(frame, n) for n in index)
    return frame._frame(Aggregate(frame.plan, keys, tuple(aggs), drop_null_keys=False))


def value_counts(frame: DataFrame[Any], column: str, normalize: bool) -> dict[Any, Any]:
    """Value → count (or fraction) of one column, NULL included, from one Spark job."""
    counted = frame.group_by(column, drop_nulls=False).agg(count=Expr(_function("count"))).to_dict()
    pairs = dict(zip(counted[column], counted["count"], strict=True))
    if not normalize:
        return pairs
    total = sum(pairs.values())
    return {k: (v / total if total else 0.0) for k, v in pairs.items()}


def _count_where(condition: Node) -> Node:
    return _function("count", When((condition,), (literal_of(1, dt.Int32()),)))


def _statistics(column: Node, dtype: dt.DType) -> dict[str, Node] | None:
    """What ``describe`` reports of one column, by type (the interface contract's list); None: not described."""
    if isinstance(dtype, dt.Boolean):
        return {"true": _count_where(column), "false": _count_where(Not(column)), "nulls": _count_where(IsNull(column))}
    counts = {"count": _function("count", column), "nulls": _count_where(IsNull(column))}
    if isinstance(dtype, dt.Numeric):
        spread = {"mean": _function("avg", column), "std": _function("stddev", column)}
        return {**counts, **spread, "min": _function("min", column), "max": _function("max", column)}
    if isinstance(dtype, dt.String):
        length = _function("length", column)
        unique = {"n_unique": _function("count_distinct", column)}
        return {**counts, **unique, "min_length": _function("min", length), "max_length": _function("max", length)}
    if isinstance(dtype, dt.Temporal):
        return {**counts, "min": _function("min", column), "max": _function("max", column)}
    return None


def describe(frame: DataFrame[Any]) -> str:
    """Summary statistics per column from one Spark job (one aggregate query), as the interface contract lists them.

    Numbers: non-NULL count, NULLs, mean, standard deviation, min, max;
    booleans: true, false and NULL counts; strings: count, NULLs, distinct
    values, shortest and longest length (in characters); dates and datetimes:
    count, NULLs, min, max. Columns of other types (lists, maps, structs,
    bytes, durations) are not described; the last line names them.
    """
    described: list[tuple[dt.Field, dict[str, Node]]] = []
    omitted = []
    for f in frame.schema:
        found = _statistics(_column(frame, f.name), f.dtype)
        if found is None:
            omitted.append(f"{f.name} ({python_name(f.dtype, nullable=f.nullable)})")
        else:
            described.append((f, found))
    nodes = [_function("count"), *(node for _, found in described for node in found.values())]
    aliased = tuple(bind(Alias(node, f"s{i}"), frame.schema) for i, node in enumerate(nodes))
    row = frame._frame(Aggregate(frame.plan, (), aliased)).to_dict()
    values = iter(row[f"s{i}"][0] for i in range(len(nodes)))
    lines = [f"rows: {next(values)}"]
    for f, found in described:
        parts = ", ".join(f"{key}={next(values)!r}" for key in found)
        lines.append(f"{f.name} ({python_name(f.dtype, nullable=f.nullable)}): {parts}")
    if omitted:
        lines.append(f"not described: {', '.join(omitted)}")
    return "\n".join(lines)
