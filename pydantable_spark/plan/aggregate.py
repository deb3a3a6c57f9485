"""Grouped and global aggregation: the ``Aggregate`` plan node.

Output: the group keys, then one column per aggregate expression. With
``drop_null_keys`` (the default, as in the interface contract) rows whose keys
are NULL are left out, so the key columns are not nullable; the lowering makes
Spark agree. A global aggregate (no keys) has exactly one row.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ArgumentTypeError, ColumnTypeError
from pydantable_spark.expr.call import Call
from pydantable_spark.expr.core import Alias, Column, Node, contains_aggregate, contains_window, describe, render
from pydantable_spark.plan.nodes import Plan, refuse_time_bucket
from pydantable_spark.schema import Schema

__all__ = ["Aggregate", "check_aggregation", "narrowable", "null_dropped_keys", "time_bucket"]


def check_aggregation(node: Node, what: str) -> None:
    """An aggregation expression must aggregate every column it reads, once, without windows."""
    refuse_time_bucket(node, what)
    if contains_window(node):
        msg = f"{what}: {render(node)} uses a window; aggregate first, or use with_columns() for windows"
        raise ColumnTypeError(msg)
    if not contains_aggregate(node):
        msg = f"{what}: {render(node)} is not an aggregate; use F.sum, F.count, F.first, ... on its columns"
        raise ColumnTypeError(msg)
    _check_columns(node, what, inside=False)


def _check_columns(node: Node, what: str, *, inside: bool) -> None:
    if node.is_aggregate:
        if inside:
            msg = f"{what}: aggregates cannot be nested ({render(node)} inside another aggregate)"
            raise ColumnTypeError(msg)
        inside = True
    elif isinstance(node, Column) and not inside:
        msg = f"{what}: column {node.name!r} is used outside an aggregate function; wrap it (F.first, F.max, ...)"
        raise ColumnTypeError(msg)
    for child in node.children():
        _check_columns(child, what, inside=inside)


def time_bucket(key: Node) -> Call | None:
    """The time bucket a key is (``F.window(...)``, aliased or not), or None."""
    inner = key.child if isinstance(key, Alias) else key
    return inner if isinstance(inner, Call) and inner.is_group_key else None


def _check_time_buckets(keys: tuple[Node, ...], *, drop_null_keys: bool) -> None:
    """Time buckets among group keys: each a key of its own, at most one (Spark would pair every two).

    ``drop_nulls=False`` cannot keep the rows whose time is NULL: Spark's grouping leaves them out.
    """
    buckets = []
    for key in keys:
        bucket = key.facts.bucket
        if bucket is None:
            continue
        own = time_bucket(key)
        if own is not None and not drop_null_keys and own.args[0].type.nullable:
            msg = (
                f"group_by(..., drop_nulls=False): Spark leaves out the rows whose time is NULL when it groups "
                f"by {render(own)}, so they cannot be kept; fill or filter the NULL times of "
                f"{render(own.args[0])} first"
            )
            raise ColumnTypeError(msg)
        if own is None:
            msg = (
                f"group_by(): {render(key)} uses the time bucket {render(bucket)} inside another expression; "
                "group by the bucket itself, then compute from its start and end fields"
            )
            raise ColumnTypeError(msg)
        buckets.append(render(bucket))
    if len(buckets) > 1:
        msg = (
            f"group_by(): {' and '.join(buckets)} are two time buckets; Spark groups by at most one "
            "(each row would fall in every pair of their windows)"
        )
        raise ColumnTypeError(msg)


def null_dropped_keys(keys: tuple[Node, ...], drop_null_keys: bool) -> tuple[Node, ...]:
    """The keys whose NULL rows an aggregation leaves out: every nullable key, unless ``drop_nulls=False``.

    The one statement of the rule: the lowering filters these keys' NULLs (a
    time bucket's are left out by Spark itself), ``explain()`` names them, and
    the mypy plugin notes them where ``drop_nulls=`` is not written.
    """
    return tuple(k for k in keys if k.type.nullable) if drop_null_keys else ()


def narrowable(dtype: dt.DType) -> bool:
    """Whether a key of this type can be made non-null in Spark's eyes (atomic types only)."""
    return not dtype.is_nested


@dataclass(frozen=True, slots=True)
class Aggregate(Plan):
    """``input`` grouped by ``keys`` (none: one group), with one output per aggregate in ``aggs``."""

    input: Plan
    keys: tuple[Node, ...]
    aggs: tuple[Node, ...]
    drop_null_keys: bool = True
    maintain_order: bool = False

    def inputs(self) -> tuple[Plan, ...]:
        return (self.input,)

    def describe(self) -> str:
        keys = ", ".join(render(k) for k in self.keys) or "(all rows)"
        aggs = ", ".join(f"{render(a)} AS {a.output_name}" for a in self.aggs)
        dropped = " or ".join(render(k) for k in null_dropped_keys(self.keys, self.drop_null_keys))
        left_out = f" (drop_nulls: rows whose {dropped} is NULL are left out)" if dropped else ""
        return f"Aggregate [by {keys}: {aggs}]{left_out}"

    def derive(self) -> Schema:
        _check_time_buckets(self.keys, drop_null_keys=self.drop_null_keys)
        fields = []
        for key in self.keys:
            typed = key.type
            if dt.contains_map(typed.dtype):
                msg = f"cannot group by {describe(key)}: maps have no equality"
                raise ColumnTypeError(msg)
            if dt.contains_variant(typed.dtype):
                msg = f"cannot group by {describe(key)}: {dt.VARIANT_NOT_COMPARABLE}"
                raise ColumnTypeError(msg)
            if contains_aggregate(key) or contains_window(key):
                msg = f"cannot group by {render(key)}: it aggregates or uses a window"
                raise ColumnTypeError(msg)
            nullable = typed.nullable and not (self.drop_null_keys and narrowable(typed.dtype))
            fields.append(dt.Field(key.output_name, typed.dtype, nullable))
        if not self.aggs:
            msg = "agg() needs at least one aggregate expression"
            raise ArgumentTypeError(msg)
        for expr in self.aggs:
            check_aggregation(expr, "agg()" if self.keys else "select()")
            typed = expr.type
            fields.append(dt.Field(expr.output_name, typed.dtype, typed.nullable))
        return Schema(tuple(fields))
