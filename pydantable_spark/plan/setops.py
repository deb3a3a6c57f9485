"""Set operations: unions (by position or by name), intersections and differences.

Spark's rules for the output, which the nodes derive: a union's column is
nullable when any input's is; an intersection's only when both are; a
difference keeps the left side's nullability. Types must match exactly (the
façade does not widen silently); names come from the first frame.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ArgumentTypeError, ColumnTypeError
from pydantable_spark.plan.nodes import Plan
from pydantable_spark.schema import Schema

__all__ = ["SetOperation", "Union"]


def _shape_error(what: str, left: Schema, right: Schema, detail: str) -> ColumnTypeError:
    diff = left.diff(right, left="first frame", right="other frame")
    return ColumnTypeError(f"{what} needs frames of the same shape; {detail}\n{diff}")


def _positional(what: str, left: Schema, right: Schema) -> None:
    if len(left) != len(right):
        raise _shape_error(what, left, right, f"{len(left)} columns against {len(right)}")
    for a, b in zip(left, right, strict=True):
        if dt.without_nullability(a.dtype) != dt.without_nullability(b.dtype):
            detail = f"column {a.name!r} is {a.dtype} but the other frame's column {b.name!r} is {b.dtype}"
            raise _shape_error(what, left, right, detail)


@dataclass(frozen=True, slots=True)
class Union(Plan):
    """All rows of all frames (duplicates kept): by position, or matching columns by name."""

    frames: tuple[Plan, ...]
    by_name: bool = False
    allow_missing: bool = False

    def inputs(self) -> tuple[Plan, ...]:
        return self.frames

    def describe(self) -> str:
        kind = "by name" if self.by_name else "by position"
        return f"Union [{kind}{', missing columns as NULL' if self.allow_missing else ''}]"

    def derive(self) -> Schema:
        if len(self.frames) < 2:
            msg = "a union needs at least two frames"
            raise ArgumentTypeError(msg)
        first = self.frames[0].schema
        if not self.by_name:
            fields = list(first.fields)
            for other in self.frames[1:]:
                _positional("union()", first, other.schema)
                fields = [
                    dt.Field(f.name, _merged(f.dtype, o.dtype), f.nullable or o.nullable)
                    for f, o in zip(fields, other.schema, strict=True)
                ]
            return Schema(tuple(fields))
        return self._by_name()

    def _by_name(self) -> Schema:
        order: dict[str, dt.Field] = {}
        for plan in self.frames:
            for f in plan.schema:
                seen = order.get(f.name)
                if seen is None:
                    order[f.name] = f
                    continue
                if dt.without_nullability(seen.dtype) != dt.without_nullability(f.dtype):
                    msg = f"union_by_name(): column {f.name!r} is {seen.dtype} in one frame and {f.dtype} in another"
                    raise ColumnTypeError(msg)
                order[f.name] = dt.Field(f.name, _merged(seen.dtype, f.dtype), seen.nullable or f.nullable)
        fields = []
        for name, f in order.items():
            missing = [i for i, plan in enumerate(self.frames) if name not in plan.schema]
            if missing and not self.allow_missing:
                msg = (
                    f"union_by_name(): column {name!r} is missing from frame(s) {missing}; "
                    "pass allow_missing_columns=True to fill it with NULL"
                )
                raise ColumnTypeError(msg)
            fields.append(dt.Field(name, f.dtype, f.nullable or bool(missing)))
        return Schema(tuple(fields))


def _merged(a: dt.DType, b: dt.DType) -> dt.DType:
    """Two equal shapes with their nested nullability OR-ed, as Spark merges them."""
    if isinstance(a, dt.List) and isinstance(b, dt.List):
        return dt.List(_merged(a.inner, b.inner), a.contains_null or b.contains_null)
    if isinstance(a, dt.Map) and isinstance(b, dt.Map):
        return dt.Map(a.key, _merged(a.value, b.value), a.value_contains_null or b.value_contains_null)
    if isinstance(a, dt.Struct) and isinstance(b, dt.Struct):
        fields = tuple(
            dt.Field(x.name, _merged(x.dtype, y.dtype), x.nullable or y.nullable)
            for x, y in zip(a.fields, b.fields, strict=True)
        )
        return dt.Struct(fields, a.model)
    return a


SetKind = Literal["intersect", "intersect_all", "subtract", "except_all"]


@dataclass(frozen=True, slots=True)
class SetOperation(Plan):
    """Rows of ``left`` also in ``right`` (intersect) or not in it (subtract), as sets or multisets."""

    left: Plan
    right: Plan
    kind: SetKind

    def inputs(self) -> tuple[Plan, ...]:
        return (self.left, self.right)

    def describe(self) -> str:
        return f"SetOperation [{self.kind}]"

    def call(self) -> str:
        return f"{self.kind}()"

    def derive(self) -> Schema:
        left, right = self.left.schema, self.right.schema
        _positional(f"{self.kind}()", left, right)
        maps = [f.name for f in left if dt.contains_map(f.dtype)]
        if maps:
            msg = f"{self.kind}() cannot compare map columns ({', '.join(maps)})"
            raise ColumnTypeError(msg)
        variants = [f.name for f in left if dt.contains_variant(f.dtype)]
        if variants:
            msg = f"{self.kind}() cannot compare VARIANT columns ({', '.join(variants)}): {dt.VARIANT_NOT_COMPARABLE}"
            raise ColumnTypeError(msg)
        if self.kind.startswith("intersect"):
            return Schema(
                tuple(dt.Field(a.name, a.dtype, a.nullable and b.nullable) for a, b in zip(left, right, strict=True))
            )
        return left
