"""``cs``: schema-driven column selectors, a set algebra over column names.

A selector picks columns by what the schema says (name, type); it is resolved
against a frame's schema where it is used, keeping the schema's order. Selectors
combine with ``|`` (union), ``&`` (intersection), ``-`` (difference) and ``~``
(complement); the result is again a selector. One that matches nothing is an
error naming the columns that exist.

```pycon
>>> from pydantable_spark import Schema, cs, dtypes as dt
>>> s = Schema.of(
...     dt.Field("id", dt.Int64(), False),
...     dt.Field("name", dt.String(), False),
...     dt.Field("score", dt.Float64(), True),
... )
>>> (cs.numeric() - cs.by_name("id")).resolve(s)
('score',)
>>> (cs.starts_with("n") | cs.float()).resolve(s)
('name', 'score')

```
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import (
    EmptySelectionError,
    UnknownColumnError,
    listing,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from pydantable_spark.schema import Schema

__all__ = [
    "Selector",
    "all",
    "boolean",
    "by_dtype",
    "by_name",
    "contains",
    "ends_with",
    "float",
    "integer",
    "list",
    "matches",
    "numeric",
    "starts_with",
    "string",
    "struct",
    "temporal",
]


@dataclass(frozen=True, slots=True)
class Selector:
    """A rule that picks columns of a schema; ``describe`` is how messages show it."""

    pick: Callable[[Schema], frozenset[str]]
    describe: str

    def resolve(self, schema: Schema) -> tuple[str, ...]:
        """The selected column names, in the schema's order; an empty selection is an error."""
        chosen = self.pick(schema)
        names = tuple(n for n in schema.names if n in chosen)
        if not names:
            msg = f"selector {self.describe} matches no column; columns: {listing(schema.names)}"
            raise EmptySelectionError(msg)
        return names

    def __or__(self, other: Selector) -> Selector:
        return Selector(lambda s: self.pick(s) | other.pick(s), f"({self.describe} | {other.describe})")

    def __and__(self, other: Selector) -> Selector:
        return Selector(lambda s: self.pick(s) & other.pick(s), f"({self.describe} & {other.describe})")

    def __sub__(self, other: Selector) -> Selector:
        return Selector(lambda s: self.pick(s) - other.pick(s), f"({self.describe} - {other.describe})")

    def __invert__(self) -> Selector:
        return Selector(lambda s: frozenset(s.names) - self.pick(s), f"~{self.describe}")

    def __repr__(self) -> str:
        return f"Selector({self.describe})"


def _where(test: Callable[[dt.Field], bool], describe: str) -> Selector:
    return Selector(lambda s: frozenset(f.name for f in s if test(f)), describe)


def all() -> Selector:
    """Every column."""
    return _where(lambda f: True, "cs.all()")


def by_name(*names: str) -> Selector:
    """The named columns; a name the schema lacks is an error listing the columns."""

    def pick(schema: Schema) -> frozenset[str]:
        for name in names:
            if name not in schema:
                raise UnknownColumnError(name, schema.names, where="cs.by_name()")
        return frozenset(names)

    return Selector(pick, f"cs.by_name({', '.join(map(repr, names))})")


def by_dtype(*types: type[dt.DType] | dt.DType) -> Selector:
    """Columns of the given logical types (a class matches all its instances, e.g. ``dt.Decimal``)."""

    def test(f: dt.Field) -> bool:
        return any(f.dtype == t if isinstance(t, dt.DType) else isinstance(f.dtype, t) for t in types)

    shown = ", ".join(t.__name__ if isinstance(t, type) else str(t) for t in types)
    return _where(test, f"cs.by_dtype({shown})")


def numeric() -> Selector:
    """Integer, floating point and decimal columns."""
    return _where(lambda f: isinstance(f.dtype, dt.Numeric), "cs.numeric()")


def integer() -> Selector:
    """Integer columns of any width."""
    return _where(lambda f: isinstance(f.dtype, dt.Integral), "cs.integer()")


def float() -> Selector:
    """Floating point columns."""
    return _where(lambda f: isinstance(f.dtype, dt.Floating), "cs.float()")


def string() -> Selector:
    """String columns."""
    return _where(lambda f: isinstance(f.dtype, dt.String), "cs.string()")


def boolean() -> Selector:
    """Boolean columns."""
    return _where(lambda f: isinstance(f.dtype, dt.Boolean), "cs.boolean()")


def temporal() -> Selector:
    """Date, timestamp and duration columns."""
    return _where(lambda f: isinstance(f.dtype, dt.Temporal | dt.Duration), "cs.temporal()")


def struct() -> Selector:
    """Struct (nested model) columns."""
    return _where(lambda f: isinstance(f.dtype, dt.Struct), "cs.struct()")


def list() -> Selector:
    """Array columns."""
    return _where(lambda f: isinstance(f.dtype, dt.List), "cs.list()")


def starts_with(*prefixes: str) -> Selector:
    """Columns whose name starts with one of the prefixes."""
    return _where(lambda f: f.name.startswith(prefixes), f"cs.starts_with({', '.join(map(repr, prefixes))})")


def ends_with(*suffixes: str) -> Selector:
    """Columns whose name ends with one of the suffixes."""
    return _where(lambda f: f.name.endswith(suffixes), f"cs.ends_with({', '.join(map(repr, suffixes))})")


def contains(*parts: str) -> Selector:
    """Columns whose name contains one of the substrings."""
    return _where(lambda f: any(p in f.name for p in parts), f"cs.contains({', '.join(map(repr, parts))})")


def matches(pattern: str) -> Selector:
    """Columns whose name matches the regular expression (``re.search``)."""
    compiled = re.compile(pattern)
    return _where(lambda f: compiled.search(f.name) is not None, f"cs.matches({pattern!r})")
