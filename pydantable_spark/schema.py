"""``Schema``: the ordered, typed columns of a frame, and readable diffs between schemas."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pydantable_spark import dtypes as dt
from pydantable_spark.annotations import python_name
from pydantable_spark.display import one_line
from pydantable_spark.dtypes import Field
from pydantable_spark.errors import DuplicateColumnError, UnknownColumnError

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

__all__ = ["Field", "Schema", "render_diff"]


@dataclass(frozen=True, slots=True)
class Schema:
    """The columns of a frame: names, types and nullability, in order.

    Names are unique even when case is ignored, because Spark resolves names
    case-insensitively by default.

    ```pycon
    >>> s = Schema.of(dt.Field("id", dt.Int64(), False), dt.Field("age", dt.Int64(), True))
    >>> print(s)
    id: int (bigint)
    age: int | None (bigint)
    >>> s.names
    ('id', 'age')

    ```
    """

    fields: tuple[Field, ...]
    _by_name: dict[str, Field] = field(init=False, compare=False, repr=False, hash=False)

    def __post_init__(self) -> None:
        by_name = {f.name: f for f in self.fields}
        object.__setattr__(self, "_by_name", by_name)
        if len({name.lower() for name in by_name}) < len(self.fields):  # only then is there a name to refuse
            _refuse_duplicates(self.fields)

    @classmethod
    def of(cls, *fields: Field) -> Schema:
        """A schema of the given fields."""
        return cls(tuple(fields))

    @property
    def names(self) -> tuple[str, ...]:
        """The column names, in order."""
        return tuple(f.name for f in self.fields)

    def __iter__(self) -> Iterator[Field]:
        return iter(self.fields)

    def __len__(self) -> int:
        return len(self.fields)

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def get(self, name: str) -> Field | None:
        """The field called ``name``, or None."""
        return self._by_name.get(name)

    def __getitem__(self, name: str) -> Field:
        """The field called ``name``; ``UnknownColumnError`` lists the columns otherwise."""
        found = self.get(name)
        if found is None:
            raise UnknownColumnError(name, self.names)
        return found

    def select(self, names: Iterable[str]) -> Schema:
        """A schema of the named columns, in the given order."""
        return Schema(tuple(self[n] for n in names))

    def as_struct(self) -> dt.Struct:
        """The schema as a struct type (for nesting or for Spark)."""
        return dt.Struct(self.fields)

    def __str__(self) -> str:
        """One line per column; the fields of struct columns (also inside lists and maps) as a tree.

        ```pycon
        >>> address = dt.Struct((dt.Field("city", dt.String(), False), dt.Field("zip", dt.String(), True)))
        >>> print(Schema.of(dt.Field("id", dt.Int64(), False), dt.Field("homes", dt.List(address, False), True)))
        id: int (bigint)
        homes: list[struct] | None (array<struct not null>)
        └── []: struct
            ├── city: str (string)
            └── zip: str | None (string)

        ```
        """
        lines: list[str] = []
        for f in self.fields:
            lines.append(f"{f.name}: {python_name(f.dtype, nullable=f.nullable)} ({_short(f.dtype)})")
            lines += _tree(f.dtype, "")
        return "\n".join(one_line(line) for line in lines)  # a name holding a line break cannot forge a line

    def __repr__(self) -> str:
        inner = ", ".join(f"{f.name}: {python_name(f.dtype, nullable=f.nullable)}" for f in self.fields)
        return one_line(f"Schema({inner})")

    def diff(self, other: Schema, *, left: str = "actual", right: str = "expected") -> str:
        """A side-by-side view of two schemas; ``!`` marks lines that differ.

        ```pycon
        >>> a = Schema.of(dt.Field("id", dt.Int64(), False))
        >>> b = Schema.of(dt.Field("id", dt.String(), False))
        >>> print(a.diff(b))
          actual                      | expected
        ! id: int (bigint)            | id: str (string)

        ```
        """
        return render_diff(self.fields, other.fields, left=left, right=right)


def _refuse_duplicates(fields: tuple[Field, ...]) -> None:
    """Raise ``DuplicateColumnError`` at the first name that repeats an earlier one, case ignored."""
    seen: dict[str, str] = {}
    for f in fields:
        key = f.name.lower()
        if key in seen:
            same = "the same name" if seen[key] == f.name else "names that differ only in case"
            msg = (
                f"duplicate column {f.name!r}: two columns have {same} "
                f"({seen[key]!r} and {f.name!r}); alias or rename one of them"
            )
            raise DuplicateColumnError(msg)
        seen[key] = f.name


def render_diff(
    mine: Iterable[Field], theirs: Iterable[Field], *, left: str = "actual", right: str = "expected"
) -> str:
    """The side-by-side view behind ``Schema.diff``, for any two field lists."""
    a_rows = {f.name: _describe(f) for f in mine}
    b_rows = {f.name: _describe(f) for f in theirs}
    names = list(a_rows) + [n for n in b_rows if n not in a_rows]
    width = max(28, max([len(left), *(len(v) for v in a_rows.values())], default=0) + 2)
    rows = [f"  {left:<{width}}| {right}"]
    for name in names:
        a, b = a_rows.get(name, "(missing)"), b_rows.get(name, "(missing)")
        mark = " " if a == b else "!"
        rows.append(f"{mark} {a:<{width}}| {b}")
    return "\n".join(rows)


def _short(dtype: dt.DType) -> str:
    """The Spark type with struct fields left to the tree below it."""
    if isinstance(dtype, dt.Struct):
        return "struct"
    if isinstance(dtype, dt.List):
        return f"array<{_short(dtype.inner)}{'' if dtype.contains_null else ' not null'}>"
    if isinstance(dtype, dt.Map):
        return f"map<{_short(dtype.key)},{_short(dtype.value)}{'' if dtype.value_contains_null else ' not null'}>"
    return str(dtype)


def _children(dtype: dt.DType) -> list[tuple[str, dt.DType, bool]]:
    """The named parts of a nested type that hold structs: struct fields, ``[]`` elements, ``{value}``s."""
    if isinstance(dtype, dt.Struct):
        return [(f.name, f.dtype, f.nullable) for f in dtype.fields]
    if isinstance(dtype, dt.List) and _holds_struct(dtype.inner):
        return [("[]", dtype.inner, dtype.contains_null)]
    if isinstance(dtype, dt.Map) and _holds_struct(dtype.value):
        return [("{value}", dtype.value, dtype.value_contains_null)]
    return []


def _holds_struct(dtype: dt.DType) -> bool:
    if isinstance(dtype, dt.Struct):
        return True
    if isinstance(dtype, dt.List):
        return _holds_struct(dtype.inner)
    if isinstance(dtype, dt.Map):
        return _holds_struct(dtype.value)
    return False


def _tree(dtype: dt.DType, indent: str) -> list[str]:
    parts = _children(dtype)
    lines = []
    for i, (name, child, nullable) in enumerate(parts):
        last = i == len(parts) - 1
        shown = python_name(child, nullable=nullable)
        detail = "" if name in ("[]", "{value}") else f" ({_short(child)})"
        lines.append(f"{indent}{'└── ' if last else '├── '}{name}: {shown}{detail}")
        lines += _tree(child, indent + ("    " if last else "│   "))
    return lines


def _describe(f: Field) -> str:
    return f"{f.name}: {python_name(f.dtype, nullable=f.nullable)} ({f.dtype})"
