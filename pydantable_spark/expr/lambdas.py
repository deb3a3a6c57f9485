"""Lambdas of higher-order functions: typed variables, and the function body over them.

``F.transform(User.tags, lambda t: t.str.upper())`` calls the Python function
once, when the call is made, with one ``Variable`` per parameter (the element,
an index, a key, a value, an accumulator), each typed as Spark types it; the
expression it returns is the ``Lambda``'s body, typed by the ordinary rules.
The ``Lambda`` is an argument of the catalog's ``Call`` like any other.

A variable is known by a token unique to the process, never by its name, so
a lambda built inside another one, or built once and used in several, can
never capture another's variable; the SQL lowering names variables by how
deeply their lambda is nested (``_spark.sql``). When a variable's type
changes (the list was a column named by string, now bound to a frame), the
call is built again and ``retyped`` gives the body the new variables, which
types every node of it again.

```pycon
>>> from pydantable_spark import DataFrameModel, F
>>> class User(DataFrameModel):
...     tags: list[str]
>>> F.transform(User.tags, lambda t: t.str.upper())
Expr[list[str]](transform(tags, lambda t: upper(t)))

```
"""

from __future__ import annotations

import itertools
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from pydantable_spark.errors import ColumnTypeError
from pydantable_spark.expr.core import Facts, Node, Typed

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping

    from pydantable_spark.expr.catalog.spec import Param

__all__ = [
    "Lambda",
    "Variable",
    "binding",
    "body_error",
    "new_token",
    "refuse_escaped",
    "replaced",
    "retyped",
    "typed_lambdas",
    "variables_text",
]

_TOKENS = itertools.count(1)


def new_token() -> int:
    """A token no other lambda variable of this process has."""
    return next(_TOKENS)


@dataclass(frozen=True, slots=True)
class Variable(Node):
    """A lambda's parameter: an element, index, key, value or accumulator, typed as Spark types it.

    ``name`` is the parameter's name in the Python function (for messages;
    the SQL lowering names it by position); ``token`` identifies it;
    ``function`` names the call it belongs to.
    """

    label: ClassVar[str] = "var"

    token: int
    name: str
    declared: Typed | None
    function: str

    def __post_init__(self) -> None:
        # a leaf, free in every tree it is used in until its Lambda binds it
        object.__setattr__(self, "facts", Facts((), has_aggregate=False, has_window=False, bare_window=None,
                                                free=(self.token,)))  # fmt: skip
        object.__setattr__(self, "typed", self.declared)

    def derive(self) -> Typed | None:
        return self.declared

    def render(self) -> str:
        return self.name

    @property
    def output_name(self) -> str:
        return self.name

    @property
    def is_constant(self) -> bool:
        return False


@dataclass(frozen=True, slots=True)
class Lambda(Node):
    """``(variables) -> body``: the function argument of a higher-order call; typed as its body.

    ``function`` and ``param`` name the call and its parameter (``F.transform``,
    ``f``) for messages. The body may use the frame's columns besides the
    variables, but no aggregate and no window: Spark evaluates it per element.
    """

    label: ClassVar[str] = "lambda"

    function: str
    param: str
    variables: tuple[Variable, ...]
    body: Node

    def prepare(self) -> None:
        body = self.body
        if body.facts.has_aggregate or body.facts.has_window or body.facts.bare_window is not None:
            what = "an aggregate" if body.facts.has_aggregate else "a window function"
            msg = (
                f"{self.function}(): the body of {self.param} ({self.render()}) uses {what}; Spark evaluates a "
                "lambda once per element, where neither exists: compute it in its own column first, and use that "
                "column in the lambda"
            )
            raise ColumnTypeError(msg)

    def _gather(self, kids: tuple[Node, ...]) -> Facts:
        facts = self.body.facts
        own = {v.token for v in self.variables}
        free = tuple(token for token in facts.free if token not in own)
        return Facts(
            facts.refs, has_aggregate=False, has_window=False, bare_window=None, free=free, bucket=facts.bucket
        )

    def derive(self) -> Typed:
        return self.body.type

    def render(self) -> str:
        return f"lambda {', '.join(v.name for v in self.variables)}: {self.body.render()}"

    @property
    def output_name(self) -> str:
        refs = self.facts.refs
        return refs[0].output_name if refs else "lambda"

    @property
    def is_constant(self) -> bool:
        # the same function on every row: its body reads no column (its variables vary per element only)
        return not self.facts.refs and all(node.deterministic for node in self.body.walk())


_BINDING: ContextVar[frozenset[int]] = ContextVar("lambda_binding", default=frozenset())
"""The tokens of the variables of the lambdas whose Python functions are running (outermost to innermost)."""


@contextmanager
def binding(variables: tuple[Variable, ...]) -> Iterator[None]:
    """While a lambda's Python function runs: its variables may be used, in its body and in lambdas inside it."""
    entered = _BINDING.set(_BINDING.get() | {v.token for v in variables})
    try:
        yield
    finally:
        _BINDING.reset(entered)


def refuse_escaped(function: str, param: str, variables: tuple[Variable, ...], body: Node) -> None:
    """Refuse a body using a variable of no lambda it is written in (kept from another lambda's body).

    The variables of ``variables``' own function and of the functions running
    around it (a lambda inside a lambda) are bound; any other is a variable that
    escaped its function, which Spark could not resolve.
    """
    bound = _BINDING.get() | {v.token for v in variables}
    escaped = [token for token in body.facts.free if token not in bound]
    if not escaped:
        return
    found = next(n for n in body.walk() if isinstance(n, Variable) and n.token in escaped)
    msg = (
        f"{function}(): the body of {param} uses {found.name} ({found.typed or 'untyped'}), a variable of the "
        f"function passed to {found.function}(), outside that function; a lambda's variables stand for the elements "
        f"only inside its body (the variables here: {variables_text(variables)})"
    )
    raise ColumnTypeError(msg)


def variables_text(variables: tuple[Variable, ...]) -> str:
    """The variables and their types, as messages show them: ``x: str (string), i: int (int)``."""
    return ", ".join(f"{v.name}: {v.typed}" if v.typed is not None else v.name for v in variables)


def replaced(node: Node, swap: Callable[[Node], Node | None], *, within: Callable[[Node], bool] | None = None) -> Node:
    """``node`` with every node ``swap`` gives a replacement for replaced, and the nodes above it built again.

    ``within`` (when given) says which subtrees may hold something to replace; the others are kept as they are.
    """
    found = swap(node)
    if found is not None:
        return found
    if within is not None and not within(node):
        return node
    return node.map_children(lambda child: replaced(child, swap, within=within))


def retyped(lam: Lambda, types: tuple[Typed | None, ...]) -> Lambda:
    """``lam`` with variables of ``types`` (unchanged when they have them already): its body typed again.

    A body that no longer types raises ``ColumnTypeError`` naming the function and the variables' types.
    """
    if all(v.declared == t for v, t in zip(lam.variables, types, strict=False)):
        return lam
    fresh = tuple(
        Variable(v.token, v.name, t, v.function) for v, t in zip(lam.variables, types, strict=False)
    )  # fmt: skip
    by_token: Mapping[int, Variable] = {v.token: v for v in fresh}
    tokens = set(by_token)
    try:
        body = replaced(
            lam.body,
            lambda n: by_token.get(n.token) if isinstance(n, Variable) else None,
            within=lambda n: not tokens.isdisjoint(n.facts.free),
        )
    except ColumnTypeError as error:
        raise ColumnTypeError(body_error(lam.function, lam.param, fresh, error)) from None
    return Lambda(lam.function, lam.param, fresh, body)


def body_error(function: str, param: str, variables: tuple[Variable, ...], error: Exception) -> str:
    """The message of a type error in a lambda's body: the function, its variables' types, and the error."""
    return f"{function}(): the body of {param} does not type for {variables_text(variables)}: {error}"


def typed_lambdas(params: tuple[Param, ...], args: tuple[Node, ...]) -> tuple[Node, ...]:
    """``args`` with each function argument's variables typed from the others (``Param.takes``).

    A lambda whose variables have those types already is kept; another one is
    typed again (its list was a column named by string, now bound to a frame).
    """
    typed = list(args)
    for index, arg in enumerate(args):
        takes = params[index].takes if index < len(params) else None
        if takes is not None and isinstance(arg, Lambda):
            types = takes.types(typed)
            typed[index] = retyped(arg, types[: len(arg.variables)])
    return tuple(typed)
