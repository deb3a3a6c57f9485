"""Reshaping that Spark does with its own operators: unpivot (melt) and explode.

Pivot, unnest, row numbers, ``drop_nulls``, ``fill_null`` and ``clip`` are
built from projections, filters and aggregates instead (see ``frame``).
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantable_spark import dtypes as dt
from pydantable_spark.annotations import python_name
from pydantable_spark.errors import (
    ArgumentTypeError,
    ArgumentValueError,
    ColumnTypeError,
    DuplicateColumnError,
    LossyCastError,
)
from pydantable_spark.plan.nodes import Plan
from pydantable_spark.reconcile import is_lossy
from pydantable_spark.schema import Schema
from pydantable_spark.typerules import supertype

__all__ = ["Explode", "Unpivot"]


@dataclass(frozen=True, slots=True)
class Unpivot(Plan):
    """One row per (row, value column): the id columns, the value column's name, its value.

    The value column's type is the value columns' common type; a value
    column whose conversion to it is lossy by reconciliation's rule
    (``reconcile.is_lossy``: ``bigint`` → ``double`` rounds ``2**53 + 1``) is
    refused unless ``allow_lossy`` names it.
    """

    input: Plan
    ids: tuple[str, ...]
    values: tuple[str, ...]
    variable_name: str = "variable"
    value_name: str = "value"
    allow_lossy: tuple[str, ...] = ()

    def inputs(self) -> tuple[Plan, ...]:
        return (self.input,)

    def describe(self) -> str:
        return f"Unpivot [ids {', '.join(self.ids)}; values {', '.join(self.values)}]"

    def call(self) -> str:
        return f"melt(id_vars={list(self.ids)!r}, value_vars={list(self.values)!r})"

    def derive(self) -> Schema:
        schema = self.input.schema
        overlap = set(self.ids) & set(self.values)
        if overlap:
            msg = f"melt(): columns {sorted(overlap)} are both id and value columns"
            raise ArgumentValueError(msg)
        if not self.values:
            msg = "melt() needs at least one value column"
            raise ArgumentTypeError(msg)
        first = schema[self.values[0]]
        dtype = first.dtype
        for name in self.values[1:]:
            other = schema[name]
            merged = supertype(dtype, other.dtype)
            if merged is None:
                msg = (
                    f"melt(): value columns must share a type; {first.name!r} is {first.dtype} "
                    f"but {name!r} is {other.dtype}"
                )
                raise ColumnTypeError(msg)
            dtype = merged
        self._check_lossless(schema, dtype)
        nullable = any(schema[n].nullable for n in self.values)
        fields = [schema[n] for n in self.ids]
        fields += [dt.Field(self.variable_name, dt.String(), False), dt.Field(self.value_name, dtype, nullable)]
        return Schema(tuple(fields))

    def _check_lossless(self, schema: Schema, common: dt.DType) -> None:
        """Every value column converts to ``common`` without loss, or ``allow_lossy`` names it."""
        for name in self.values:
            own = schema[name].dtype
            if own == common or own.is_nested or name in self.allow_lossy or not is_lossy(own, common):
                continue
            others = ", ".join(f"{n!r} ({schema[n].dtype})" for n in self.values if schema[n].dtype != own)
            shown = f"{own} ({python_name(own, nullable=False)})"
            msg = (
                f"melt(): value column {name!r} is {shown}, and melting it with {others} makes the value column "
                f"{common} ({python_name(common, nullable=False)}); converting {shown} to {common} can silently "
                f"round, truncate or reinterpret values. Pass allow_lossy=[{name!r}] (or allow_lossy=True) to "
                "accept that, or cast the value columns to one type first"
            )
            raise LossyCastError(msg)


@dataclass(frozen=True, slots=True)
class Explode(Plan):
    """One row per element of the array columns (zipped when several); other columns repeat.

    Without ``outer``, a row whose array is empty or NULL yields no row; with
    it, one row with NULL. ``position`` adds a 0-based ``int`` column of the
    element's index (one column only).
    """

    input: Plan
    columns: tuple[str, ...]
    outer: bool = False
    position: str | None = None

    def inputs(self) -> tuple[Plan, ...]:
        return (self.input,)

    def describe(self) -> str:
        kind = "explode_outer" if self.outer else "explode"
        return f"Explode [{kind} {', '.join(self.columns)}]"

    def call(self) -> str:
        if self.position is not None:
            return f"posexplode{'_outer' if self.outer else ''}({self.columns[0]!r}, position={self.position!r})"
        return f"explode{'_outer' if self.outer else ''}({list(self.columns)!r})"

    def derive(self) -> Schema:
        schema = self.input.schema
        if not self.columns:
            msg = "explode() needs at least one column"
            raise ArgumentTypeError(msg)
        if self.position is not None and len(self.columns) != 1:
            msg = "posexplode() takes exactly one column"
            raise ArgumentTypeError(msg)
        fields = []
        for f in schema:
            if f.name not in self.columns:
                fields.append(f)
                continue
            if not isinstance(f.dtype, dt.List):
                msg = f"explode() needs array columns; {f.name!r} is {f.dtype}"
                raise ColumnTypeError(msg)
            if self.position is not None:
                fields.append(dt.Field(self.position, dt.Int32(), self.outer))
            zipped = len(self.columns) > 1  # arrays_zip pads the shorter arrays with NULL
            nullable = self.outer or zipped or f.dtype.contains_null
            fields.append(dt.Field(f.name, f.dtype.inner, nullable))
        if self.position is not None and self.position in schema:
            msg = f"posexplode(): the position column {self.position!r} already exists"
            raise DuplicateColumnError(msg)
        return Schema(tuple(fields))
