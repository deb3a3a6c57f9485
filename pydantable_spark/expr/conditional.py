"""``coalesce`` and ``when/otherwise``: branches that meet in a common type."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ArgumentTypeError, ColumnTypeError
from pydantable_spark.expr.coercion import meet, meeting_type
from pydantable_spark.expr.core import Literal, Node, Typed, describe
from pydantable_spark.typerules import cast_forces_nullable

__all__ = ["Coalesce", "When"]


def converted_nullable(node: Node, target: dt.DType) -> bool:
    """Whether ``node`` can be NULL once converted to ``target`` (some conversions can fail)."""
    typed = node.type
    return typed.nullable or cast_forces_nullable(typed.dtype, target)


@dataclass(frozen=True, slots=True)
class Coalesce(Node):
    """The first non-NULL argument; NULL only when every argument can be NULL."""

    label: ClassVar[str] = "coalesce"

    args: tuple[Node, ...]

    def prepare(self) -> None:
        if not self.args:
            msg = "coalesce() needs at least one expression"
            raise ArgumentTypeError(msg)
        object.__setattr__(self, "args", meet(self.args))

    def derive(self) -> Typed:
        dtype = meeting_type(self.args, "coalesce()")
        return Typed(dtype, all(converted_nullable(a, dtype) for a in self.args))


def _is_true(node: Node) -> bool:
    return isinstance(node, Literal) and node.value is True


@dataclass(frozen=True, slots=True)
class When(Node):
    """``CASE WHEN c1 THEN v1 ... ELSE otherwise END``.

    Without ``otherwise`` the result is NULL when no condition holds, so it is
    nullable. A condition that is NULL counts as false.
    """

    label: ClassVar[str] = "when"

    conditions: tuple[Node, ...]
    values: tuple[Node, ...]
    otherwise: Node | None = None

    def prepare(self) -> None:
        branches = (*self.values, *([self.otherwise] if self.otherwise is not None else []))
        adopted = meet(tuple(branches))
        object.__setattr__(self, "values", adopted[: len(self.values)])
        if self.otherwise is not None:
            object.__setattr__(self, "otherwise", adopted[-1])

    def render(self) -> str:
        return "when(...)"

    def derive(self) -> Typed:
        for condition in self.conditions:
            if not isinstance(condition.type.dtype, dt.Boolean):
                msg = f"when() needs a boolean condition; got {describe(condition)}"
                raise ColumnTypeError(msg)
        branches = [*self.values, *([self.otherwise] if self.otherwise is not None else [])]
        dtype = meeting_type(branches, "when/otherwise")
        always = next((i for i, c in enumerate(self.conditions) if _is_true(c)), None)
        if always is not None:  # later branches and otherwise are never reached (Spark's rule too)
            nullable = any(converted_nullable(v, dtype) for v in self.values[: always + 1])
        else:
            nullable = self.otherwise is None or any(converted_nullable(b, dtype) for b in branches)
        return Typed(dtype, nullable)

    @property
    def output_name(self) -> str:
        return self.values[0].output_name
