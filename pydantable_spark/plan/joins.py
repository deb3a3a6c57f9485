"""Joins: the ``Join`` plan node and the rules that shape its output.

Output columns, as the interface contract says: the left columns in order, then
the right columns that are not merged keys. A key given by name (``on=``), or a
``left_on``/``right_on`` pair with ``coalesce=True``, is one column at the left
key's place: the left key (and its name) for inner and left joins, the right key
(and its name) for right joins, the two keys coalesced for full joins (the left
key's name). A right column whose name the left already has gets the suffix.
Outer joins make the other side nullable; semi and anti joins return the left
columns only; a cross join takes no keys.

A join may also have conditions: boolean expressions over columns of both
sides (``on=(Trip.ts >= Rate.valid_from) & (Trip.ts < Rate.valid_to)``), which
must hold together with the equal keys. ``bind_condition`` says which side
each of their columns belongs to (``SideColumn``); the conditions change which
rows match, never the output columns.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import (
    AmbiguousSideError,
    ArgumentTypeError,
    ArgumentValueError,
    ColumnTypeError,
    DuplicateColumnError,
    UnknownColumnError,
    listing,
)
from pydantable_spark.expr.core import Column, Node, bind, describe, render
from pydantable_spark.expr.operators import comparable
from pydantable_spark.expr.sides import Side, SideColumn, side_column
from pydantable_spark.plan.nodes import Plan, check_row_expression
from pydantable_spark.schema import Schema

__all__ = ["HOWS", "HOW_ALIASES", "Join", "JoinHow", "JoinHowAlias", "JoinOutput", "Validate", "bind_condition"]

JoinHow = Literal["inner", "left", "right", "full", "semi", "anti", "cross"]
HOWS: tuple[str, ...] = ("inner", "left", "right", "full", "semi", "anti", "cross")
JoinHowAlias = Literal["outer", "full_outer", "left_outer", "right_outer", "left_semi", "left_anti"]
"""PySpark's other spellings of ``how`` (``HOW_ALIASES``), accepted by ``join`` as the kinds they stand for."""
HOW_ALIASES: dict[str, JoinHow] = {
    "outer": "full", "full_outer": "full", "left_outer": "left", "right_outer": "right",
    "left_semi": "semi", "left_anti": "anti",
}  # fmt: skip
"""PySpark's other spellings of ``how``, and the kind each stands for."""
Validate = Literal["1:1", "1:m", "m:1", "m:m"]


@dataclass(frozen=True, slots=True)
class JoinOutput:
    """One output column of a join: where its values come from."""

    field: dt.Field
    left: str | None  # the left column it takes, if any
    right: str | None  # the right column it takes, if any (both: a coalesced key)


@dataclass(frozen=True, slots=True)
class Join(Plan):
    """``left`` joined with ``right``; keys are bound to their own side's schema.

    ``conditions`` are boolean expressions (``bind_condition``) that must hold
    as well; a cross join with conditions is an inner join on them.
    """

    left: Plan
    right: Plan
    how: JoinHow
    left_keys: tuple[Node, ...]
    right_keys: tuple[Node, ...]
    merge_keys: bool
    suffix: str = "_right"
    join_nulls: bool = False
    validate: Validate = "m:m"
    maintain_order: Literal["none", "left", "right"] = "none"
    conditions: tuple[Node, ...] = ()

    def inputs(self) -> tuple[Plan, ...]:
        return (self.left, self.right)

    def describe(self) -> str:
        pairs = zip(self.left_keys, self.right_keys, strict=True)
        on = [f"{left.output_name} = {right.output_name}" for left, right in pairs]
        on += [render(c) for c in self.conditions]
        return f"Join [{self.how}{': ' + ', '.join(on) if on else ''}]"

    def derive(self) -> Schema:
        self._check_keys()
        for condition in self.conditions:
            self._check_condition(condition)
        return Schema(tuple(o.field for o in self.outputs()))

    def _check_keys(self) -> None:
        if self.how == "cross":
            if self.left_keys or self.right_keys:
                msg = (
                    "a cross join takes no keys (on=<names>, left_on=, right_on=); "
                    "a condition (on=<boolean expression>) makes it an inner join on that condition"
                )
                raise ArgumentTypeError(msg)
            return
        if not self.left_keys and not self.conditions:
            msg = (
                f"a {self.how} join needs at least one key or condition: on=<names or a boolean expression>, "
                "or left_on= and right_on="
            )
            raise ArgumentTypeError(msg)
        if len(self.left_keys) != len(self.right_keys):
            msg = f"left_on has {len(self.left_keys)} key(s) but right_on has {len(self.right_keys)}"
            raise ArgumentValueError(msg)
        for left, right in zip(self.left_keys, self.right_keys, strict=True):
            if not comparable(left.type.dtype, right.type.dtype, ordering=False) or dt.contains_map(left.type.dtype):
                msg = f"join keys cannot be compared: {describe(left)} and {describe(right)}"
                raise ColumnTypeError(msg)
            if self.merge_keys and left.type.dtype != right.type.dtype:
                msg = (
                    f"join key {describe(left)} and {describe(right)} must have the same type to be "
                    "merged into one column; cast one of them"
                )
                raise ColumnTypeError(msg)

    def _check_condition(self, condition: Node) -> None:
        """A condition is a boolean row expression over columns bound to a side (``bind_condition``)."""
        check_row_expression(condition, "join(on=...)", windows=False)
        for column in condition.refs:
            side = self.left if isinstance(column, SideColumn) and column.side == "left" else self.right
            found = side.schema.get(column.name) if isinstance(column, SideColumn) else None
            if found is None or column.typed != (found.dtype, found.nullable):
                msg = f"join condition column {column.qualified!r} is not bound to a side; build joins with join()"
                raise ColumnTypeError(msg)
        moving = next((n for n in condition.walk() if not n.deterministic), None)
        if moving is not None:
            msg = (
                f"join(on=...): {render(moving)} gives another value each time it runs, which Spark does not "
                "allow in a join condition; compute it in a column first (with_columns), then compare that column"
            )
            raise ColumnTypeError(msg)
        if not isinstance(condition.type.dtype, dt.Boolean):
            msg = f"join(on=...) needs boolean conditions; got {describe(condition)}"
            raise ColumnTypeError(msg)

    def reads(self, side: Side) -> set[str]:
        """The columns of ``side`` that decide which rows match: its keys and what the conditions read of it.

        A condition's plain columns (not a ``SideColumn``) are the left's.
        """
        keys = self.left_keys if side == "left" else self.right_keys
        names = {n.name for k in keys for n in k.walk() if isinstance(n, Column)}
        for condition in self.conditions:
            for n in condition.walk():
                if isinstance(n, SideColumn):
                    if n.side == side:
                        names.add(n.name)
                elif side == "left" and type(n) is Column:
                    names.add(n.name)
        return names

    def merged_pairs(self) -> dict[str, str]:
        """Left key column → right key column, for the key pairs output as one column."""
        if not self.merge_keys:
            return {}
        pairs = {}
        for left, right in zip(self.left_keys, self.right_keys, strict=True):
            if isinstance(left, Column) and isinstance(right, Column):
                pairs[left.name] = right.name
        return pairs

    def outputs(self) -> list[JoinOutput]:
        """The output columns, in order, and where each comes from."""
        if self.how in ("semi", "anti"):
            return [JoinOutput(f, f.name, None) for f in self.left.schema]
        left_nullable = self.how in ("right", "full")
        right_nullable = self.how in ("left", "full")
        merged = self.merged_pairs()
        right_schema = self.right.schema
        out = []
        for f in self.left.schema:
            if f.name in merged:
                partner = right_schema[merged[f.name]]
                out.append(self._merged_key(f, partner))
            else:
                out.append(JoinOutput(dt.Field(f.name, f.dtype, f.nullable or left_nullable), f.name, None))
        names = [o.field.name for o in out]
        clashes = sorted({n for n in names if names.count(n) > 1})
        if clashes:  # a right join's merged key takes the right key's name, which a left column may have
            msg = (
                f"a right join with coalesce=True names each merged key after the right key, so the output would "
                f"have {clashes[0]!r} twice (a left column has that name); rename one of them first"
            )
            raise DuplicateColumnError(msg)
        taken = set(names)
        merged_right = set(merged.values())
        for f in right_schema:
            if f.name in merged_right:
                continue
            name = f.name if f.name not in taken else f"{f.name}{self.suffix}"
            if name in taken:
                msg = f"right column {f.name!r} collides with {name!r} even with suffix {self.suffix!r}; rename it"
                raise DuplicateColumnError(msg)
            taken.add(name)
            out.append(JoinOutput(dt.Field(name, f.dtype, f.nullable or right_nullable), None, f.name))
        return out

    def _merged_key(self, left: dt.Field, right: dt.Field) -> JoinOutput:
        if self.how == "full":
            return JoinOutput(dt.Field(left.name, left.dtype, True), left.name, right.name)
        if self.how == "right":
            return JoinOutput(dt.Field(right.name, right.dtype, right.nullable), None, right.name)
        return JoinOutput(dt.Field(left.name, left.dtype, left.nullable), left.name, None)


def bind_condition(
    predicate: Node, left: Schema, right: Schema, models: tuple[str | None, str | None] = (None, None)
) -> Node:
    """``predicate`` with each column bound to the side of the join it belongs to (a ``SideColumn``).

    A column says its side (``left.col("x")``), or its model does (``Trip.ts``,
    when exactly one side is a frame of that model: ``models`` names the
    sides' declared models), or its name does (only one frame has it). A name
    both frames have, otherwise, is ``AmbiguousSideError``; a name neither has
    is ``UnknownColumnError``. A model attribute must have its declared type
    on its side, as everywhere else.

    A model attribute is not bound by its name to a side declared with another
    model when the other side is a derived frame (``_check_not_misplaced``):
    ``trips.join(tariffs.rename({"city": "town"}), on=Trip.city == Tariff.city)``
    would otherwise compare the left's ``city`` with itself (a cross join).
    """
    schemas: dict[Side, Schema] = {"left": left, "right": right}
    sides: tuple[Side, Side] = ("left", "right")

    def side_of(column: Column) -> Side:
        if isinstance(column, SideColumn):
            return "left" if column.side == "left" else "right"
        owner = column.owner
        owners: list[Side] = [s for s, model in zip(sides, models, strict=True) if owner and model == owner]
        if column.owner is not None and len(owners) == 1:
            return owners[0]
        found: list[Side] = [s for s in sides if column.name in schemas[s]]
        if len(found) == 1:
            if owner is not None and not owners:
                _check_not_misplaced(column, found[0], schemas, models)
            return found[0]
        if not found:
            every = list(dict.fromkeys((*left.names, *right.names)))
            raise UnknownColumnError(column.qualified, every, where="either frame of the join (join on=...)")
        whose = f" and both frames are {column.owner} frames" if len(owners) == 2 else ""  # a self-join
        msg = (
            f"join(on=...): column {column.qualified!r} is in both frames{whose}; say which one: "
            f"left.col({column.name!r}) or right.col({column.name!r}) (from pydantable_spark), or the attribute "
            "of the model of one frame"
        )
        raise AmbiguousSideError(msg)

    def resolve(node: Node) -> Node:
        if not isinstance(node, Column):
            return node.map_children(resolve)
        side = side_of(node)
        schema = schemas[side]
        if node.name not in schema:
            raise UnknownColumnError(node.qualified, schema.names, where=f"the {side} frame of the join (join on=...)")
        bound = bind(Column(node.name, node.declared, node.owner), schema)
        return side_column(node.name, bound.typed, side, node.owner)

    return resolve(predicate)


def _check_not_misplaced(
    column: Column, side: Side, schemas: dict[Side, Schema], models: tuple[str | None, str | None]
) -> None:
    """Refuse a model attribute found by name only on a side declared with another model, the other side derived.

    The attribute's model is then most likely the other side's, whose column
    was renamed or dropped since (its frame lost its declared model doing
    so); binding the name to this side would read another model's column.
    """
    other: Side = "right" if side == "left" else "left"
    model, other_model = models if side == "left" else models[::-1]
    if model is None or other_model is not None:
        return
    now = schemas[other]
    declared = column.declared
    same_type = [f.name for f in now if declared is not None and (f.dtype, f.nullable) == declared]
    if len(same_type) == 1:
        hint = f"if it is the {other} frame's column renamed, write {other}.col({same_type[0]!r})"
    else:
        hint = f"for the {other} frame's column, write {other}.col(<its name now>)"
    msg = (
        f"join(on=...): column {column.qualified!r} is a column of {column.owner}, but the {side} frame is a "
        f"{model} frame and the {other} frame (derived by a transform, not a {column.owner} frame) has no column "
        f"{column.name!r} now (it has {listing(now.names)}): {hint}; for the {model} frame's {column.name!r}, "
        f"write {side}.col({column.name!r})"
    )
    raise AmbiguousSideError(msg)
