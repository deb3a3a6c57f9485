"""``coalesce`` and ``when/otherwise``: branches that meet in a common type."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ArgumentTypeError, ColumnTypeError
from pydantable_spark.expr.core import Literal, Node, Typed, describe
from pydantable_spark.typerules import cast_forces_nullable, supertype

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["Coalesce", "When", "common_type"]


def common_type(nodes: Sequence[Node], what: str) -> dt.DType:
    """The type all ``nodes`` convert to (weak literals have already adopted their neighbours')."""
    result = nodes[0].type.dtype
    for node in nodes[1:]:
        merged = supertype(result, node.type.dtype)
        if merged is None:
            msg = f"{what}: no common type for {describe(nodes[0])} and {describe(node)}"
            raise ColumnTypeError(msg)
        result = merged
    return result


def converted_nullable(node: Node, target: dt.DType) -> bool:
    """Whether ``node`` can be NULL once converted to ``target`` (some conversions can fail)."""
    typed = node.type
    return typed.nullable or cast_forces_nullable(typed.dtype, target)


def _adopt_all(nodes: tuple[Node, ...], what: str) -> tuple[Node, ...]:
    strong = [n for n in nodes if n.typed is not None and not (isinstance(n, Literal) and n.weak)]
    if not strong or any(n.typed is None and not (isinstance(n, Literal) and n.undecided) for n in nodes):
        return nodes
    target = common_type(strong, what)
    return tuple(n.adopt(target) if isinstance(n, Literal) else n for n in nodes)


@dataclass(frozen=True, slots=True)
class Coalesce(Node):
    """The first non-NULL argument; NULL only when every argument can be NULL."""

    label: ClassVar[str] = "coalesce"

    args: tuple[Node, ...]

    def prepare(self) -> None:
        if not self.args:
            msg = "coalesce() needs at least one expression"
            raise ArgumentTypeError(msg)
        object.__setattr__(self, "args", _adopt_all(self.args, "coalesce()"))

    def derive(self) -> Typed:
        dtype = common_type(self.args, "coalesce()")
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
        adopted = _adopt_all(tuple(branches), "when/otherwise")
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
        dtype = common_type(branches, "when/otherwise")
        always = next((i for i, c in enumerate(self.conditions) if _is_true(c)), None)
        if always is not None:  # later branches and otherwise are never reached (Spark's rule too)
            nullable = any(converted_nullable(v, dtype) for v in self.values[: always + 1])
        else:
            nullable = self.otherwise is None or any(converted_nullable(b, dtype) for b in branches)
        return Typed(dtype, nullable)

    @property
    def output_name(self) -> str:
        return self.values[0].output_name
