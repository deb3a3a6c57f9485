r"""Substrait's type expressions as extension YAMLs write them, parsed and matched (a dev tool of the tests).

A YAML function's argument is a type pattern (``i64``, ``DECIMAL<P1,S1>``, ``any1``, ``i64?``, ``LIST?<any1>``) and
its result a pattern or a small program that derives one (``init_scale = max(S1,S2)`` ... ``DECIMAL<prec,
scale>``). ``parse_type`` reads a pattern, ``match`` binds it to a plan's concrete type (``Type``), and
``result`` runs a return program over the bindings.

>>> env: dict[str, object] = {}
>>> match(parse_type("DECIMAL<P1,S1>"), Type("decimal", (15, 2), nullable=True), env), env
(True, {'P1': 15, 'S1': 2})
>>> str(result("init_prec = P1 + 1\nDECIMAL?<init_prec, S1>", env))
'decimal<16,2>?'
>>> match(parse_type("any1"), Type("string"), env), match(parse_type("any1"), Type("i64"), env)
(True, False)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from substrait import type_pb2 as st

__all__ = ["Pattern", "Type", "match", "parse_type", "plan_type", "result"]

_KINDS = {"bool": "boolean", "varchar": "varchar", "fixed_char": "fixedchar", "fixed_binary": "fixedbinary"}
"""A plan's type message name → the name YAMLs use (the others are the same)."""


@dataclass(frozen=True, slots=True)
class Type:
    """A concrete type of a plan: its kind (YAML spelling, lower case), parameters and nullability."""

    kind: str
    params: tuple[int | Type, ...] = ()
    nullable: bool = False

    def __str__(self) -> str:
        inner = f"<{','.join(map(str, self.params))}>" if self.params else ""
        return f"{self.kind}{inner}{'?' if self.nullable else ''}"

    def same(self, other: Type) -> bool:
        """Whether the two are one type, nullability aside (nested types' nullability counts)."""
        return self.kind == other.kind and self.params == other.params

    def with_nullable(self, nullable: bool) -> Type:
        """This type with another nullability."""
        return Type(self.kind, self.params, nullable)


def plan_type(message: st.Type) -> Type:
    """A plan's ``Type`` message as a ``Type``."""
    which = message.WhichOneof("kind")
    if which is None:
        msg = "a type with no kind"
        raise ValueError(msg)
    inner = getattr(message, which)
    nullable = inner.nullability == 1  # NULLABILITY_NULLABLE
    kind = _KINDS.get(which, which)
    params: tuple[int | Type, ...] = ()
    if which == "decimal":
        params = (inner.precision, inner.scale)
    elif which in ("precision_timestamp", "precision_timestamp_tz", "precision_time", "interval_day"):
        params = (inner.precision,)
    elif which in ("varchar", "fixed_char", "fixed_binary"):
        params = (inner.length,)
    elif which == "list":
        params = (plan_type(inner.type),)
    elif which == "map":
        params = (plan_type(inner.key), plan_type(inner.value))
    elif which == "struct":
        params = tuple(plan_type(t) for t in inner.types)
    return Type(kind, params, nullable)


@dataclass(frozen=True, slots=True)
class Pattern:
    """A YAML type pattern: a kind (``any``, ``any1``: type variables), parameters and a ``?``.

    A parameter is an integer, a name (``P1``: an integer variable, or a derived value in a return
    program) or a nested pattern (``LIST<any1>``).
    """

    kind: str
    params: tuple[int | str | Pattern, ...] = ()
    nullable: bool = False


_TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_][A-Za-z0-9_!.]*)|(\?|<|>|,))")


def parse_type(text: str) -> Pattern:
    """A type pattern from its YAML text (``DECIMAL?<38,S>``, ``list<any1>``, ``u!u16``)."""
    try:
        pattern, rest = _pattern(_tokens(text))
    except IndexError:  # the text ended inside the pattern
        msg = f"the type {text!r} ends too early"
        raise ValueError(msg) from None
    if rest:
        msg = f"unexpected {rest[0]!r} in the type {text!r}"
        raise ValueError(msg)
    return pattern


def _tokens(text: str) -> list[str]:
    found, position, text = [], 0, text.strip()
    while position < len(text):
        token = _TOKEN.match(text, position)
        if token is None or token.end() == position:
            msg = f"cannot read the type {text!r} at {text[position:]!r}"
            raise ValueError(msg)
        found.append(token.group(token.lastindex or 0))
        position = token.end()
    return found


def _pattern(tokens: list[str]) -> tuple[Pattern, list[str]]:
    kind, rest = tokens[0].lower(), tokens[1:]
    nullable = bool(rest) and rest[0] == "?"
    if nullable:
        rest = rest[1:]
    params: list[int | str | Pattern] = []
    if rest and rest[0] == "<":
        rest = rest[1:]
        while rest[0] != ">":
            if rest[0].isdigit():
                params.append(int(rest[0]))
                rest = rest[1:]
            elif (len(rest) > 1 and rest[1] in ("<", "?")) or _is_type_name(rest[0]):
                nested, rest = _pattern(rest)
                params.append(nested)
            else:
                params.append(rest[0])
                rest = rest[1:]
            if rest[0] == ",":
                rest = rest[1:]
        rest = rest[1:]
    return Pattern(kind, tuple(params), nullable), rest


_TYPE_NAMES = frozenset(
    {"boolean", "i8", "i16", "i32", "i64", "fp32", "fp64", "string", "binary", "date", "interval_year", "uuid"}
)


def _is_type_name(name: str) -> bool:
    lowered = name.lower()
    return lowered in _TYPE_NAMES or lowered.startswith(("any", "u!"))


def _variable(kind: str) -> bool:
    """``any1``, ``any2``...: a type variable (one type wherever it stands in a signature)."""
    return kind.startswith("any") and kind[3:].isdigit()


def match(pattern: Pattern, actual: Type, env: dict[str, object]) -> bool:
    """Whether ``actual`` fits ``pattern`` (nullability aside), binding its variables in ``env``."""
    if pattern.kind == "any":
        return True
    if _variable(pattern.kind):
        bound = env.setdefault(pattern.kind, actual)
        return isinstance(bound, Type) and bound.same(actual)
    if pattern.kind != actual.kind or len(pattern.params) != len(actual.params):
        return False
    for wanted, given in zip(pattern.params, actual.params, strict=True):
        if isinstance(wanted, Pattern):
            if not isinstance(given, Type) or not match(wanted, given, env):
                return False
        elif isinstance(wanted, int):
            if wanted != given:
                return False
        elif env.setdefault(wanted, given) != given:
            return False
    return True


def result(program: str, env: dict[str, object]) -> Type:
    """The type a return pattern or program gives under ``env`` (its ``?`` as written).

    A program is lines ``name = expression`` (integers: ``+ - *``, ``max``/``min``, comparisons,
    ``a ? b : c``), then the pattern of the result.
    """
    scope = dict(env)
    lines = [line.strip() for line in program.strip().splitlines() if line.strip()]
    for line in lines[:-1]:
        name, _, expression = line.partition("=")
        scope[name.strip()] = _Expression(expression).value(scope)
    return _concrete(parse_type(lines[-1]), scope)


def _concrete(pattern: Pattern, scope: dict[str, object]) -> Type:
    if _variable(pattern.kind):
        bound = scope.get(pattern.kind)
        if not isinstance(bound, Type):
            msg = f"the result's type variable {pattern.kind} is bound by no argument"
            raise ValueError(msg)
        return bound.with_nullable(pattern.nullable)
    params: list[int | Type] = []
    for param in pattern.params:
        if isinstance(param, Pattern):
            params.append(_concrete(param, scope))
        elif isinstance(param, int):
            params.append(param)
        else:
            value = scope.get(param)
            if not isinstance(value, int):
                msg = f"the result's parameter {param} has no value"
                raise ValueError(msg)
            params.append(value)
    return Type(pattern.kind, tuple(params), pattern.nullable)


class _Expression:
    """An integer expression of a return program, read by recursive descent."""

    _TOKENS = re.compile(r"\s*(\d+|[A-Za-z_][A-Za-z0-9_]*|>=|<=|==|!=|&&|\|\||[-+*/?:(),<>!])")

    def __init__(self, text: str) -> None:
        self.tokens: list[str] = self._TOKENS.findall(text)
        if "".join(self.tokens) != re.sub(r"\s+", "", text):
            msg = f"cannot read the expression {text!r}"
            raise ValueError(msg)
        self.position = 0

    def value(self, scope: dict[str, object]) -> int:
        self.scope = scope
        found = self._ternary()
        if self.position != len(self.tokens):
            msg = f"unexpected {self.tokens[self.position]!r} in {' '.join(self.tokens)!r}"
            raise ValueError(msg)
        return found

    def _peek(self) -> str | None:
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def _take(self) -> str:
        token = self.tokens[self.position]
        self.position += 1
        return token

    def _ternary(self) -> int:
        condition = self._binary(0)
        if self._peek() != "?":
            return condition
        self._take()
        then = self._ternary()
        if self._take() != ":":
            msg = "a ternary without ':'"
            raise ValueError(msg)
        otherwise = self._ternary()
        return then if condition else otherwise

    _LEVELS: tuple[dict[str, Callable[[int, int], int]], ...] = (
        {"||": lambda a, b: int(bool(a or b))},
        {"&&": lambda a, b: int(bool(a and b))},
        {
            ">": lambda a, b: int(a > b),
            "<": lambda a, b: int(a < b),
            ">=": lambda a, b: int(a >= b),
            "<=": lambda a, b: int(a <= b),
            "==": lambda a, b: int(a == b),
            "!=": lambda a, b: int(a != b),
        },
        {"+": lambda a, b: a + b, "-": lambda a, b: a - b},
        {"*": lambda a, b: a * b, "/": lambda a, b: a // b},
    )

    def _binary(self, level: int) -> int:
        if level == len(self._LEVELS):
            return self._unary()
        left = self._binary(level + 1)
        while (token := self._peek()) in self._LEVELS[level]:
            self._take()
            left = self._LEVELS[level][str(token)](left, self._binary(level + 1))
        return left

    def _unary(self) -> int:
        token = self._take()
        if token == "-":
            return -self._unary()
        if token == "!":
            return int(not self._unary())
        if token == "(":
            inner = self._ternary()
            self._take()
            return inner
        if token.isdigit():
            return int(token)
        if self._peek() == "(":
            self._take()
            args = [self._ternary()]
            while self._take() == ",":
                args.append(self._ternary())
            functions: dict[str, Callable[..., int]] = {"max": max, "min": min, "abs": abs}
            if token not in functions:
                msg = f"the function {token}() of a return program is not known here"
                raise ValueError(msg)
            return functions[token](*args)
        value = self.scope.get(token)
        if not isinstance(value, int):
            msg = f"{token} has no integer value"
            raise ValueError(msg)
        return value
