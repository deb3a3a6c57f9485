"""Rows of two sides compared as plain values, and the message that shows how they differ.

Values are plain Python (dicts for structs and maps, lists for arrays); floats
compare within a tolerance at any depth. ``RowComparison`` matches rows by
position or as multisets and writes the differing rows side by side.
"""

from __future__ import annotations

import datetime
import decimal
import enum
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["RowComparison", "Tolerance", "count", "is_named_row", "plain", "spell"]

_CELL_WIDTH = 40
"""A cell in a row line is cut to this many characters (the differing-cell lines show more)."""
_VALUE_WIDTH = 200
_LEAVES_SHOWN = 5
"""At most this many differing places inside one nested cell are listed."""
_COLUMNS_SHOWN = 8
"""Rows with more columns show the first few and the differing ones."""
_FULL_SCAN = 1_000_000
"""Above this many row pairs, tolerant matching looks at a window of sorted candidates only."""
_WINDOW = 64
_PAIRING_CELLS = 100_000
"""Pairing a differing row with the row most like it looks at this many cells of candidates at most."""


def is_named_row(value: object) -> bool:
    """A PySpark ``Row`` with field names (``Row(id=1)``); ``Row(1, 2)`` is a plain tuple of values."""
    return isinstance(value, tuple) and callable(getattr(value, "asDict", None)) and hasattr(value, "__fields__")


def plain(value: Any) -> Any:
    """Models, Rows and containers as plain dicts and lists; enum members as their values."""
    if isinstance(value, BaseModel):
        return {k: plain(v) for k, v in value.model_dump(by_alias=True).items()}
    if is_named_row(value):
        return {k: plain(v) for k, v in value.asDict(recursive=True).items()}
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [plain(v) for v in value]
    if isinstance(value, enum.Enum):
        return plain(value.value)
    if isinstance(value, bytearray | memoryview):
        return bytes(value)
    return value


def count(n: int, noun: str) -> str:
    """``"1 column"``, ``"2 columns"``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _is_number(value: object) -> bool:
    return isinstance(value, int | float | decimal.Decimal) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class Tolerance:
    """How close two floating point numbers must be: ``|a - b| <= atol + rtol * max(|a|, |b|)``."""

    rtol: float
    atol: float

    def equal(self, a: Any, b: Any) -> bool:
        """Whether two plain values are equal, floats within the tolerance at any depth."""
        if a is None or b is None:
            return a is None and b is None
        if isinstance(a, bool) or isinstance(b, bool):
            return type(a) is type(b) and a == b
        if _is_number(a) and _is_number(b):
            return self.numbers_equal(a, b)
        if isinstance(a, dict) and isinstance(b, dict):
            return a.keys() == b.keys() and all(self.equal(a[k], b[k]) for k in a)
        if isinstance(a, list) and isinstance(b, list):
            return len(a) == len(b) and all(self.equal(x, y) for x, y in zip(a, b, strict=True))
        return type(a) is type(b) and bool(a == b)

    def numbers_equal(self, a: float | decimal.Decimal, b: float | decimal.Decimal) -> bool:
        """Integers and decimals exactly; with a float on either side, within the tolerance (NaN equals NaN)."""
        if not (isinstance(a, float) or isinstance(b, float)):
            return a == b  # integers and decimals are exact
        x, y = float(a), float(b)
        if math.isnan(x) or math.isnan(y):
            return math.isnan(x) and math.isnan(y)
        if x == y:  # also -0.0 == 0.0 and inf == inf
            return True
        return not (math.isinf(x) or math.isinf(y)) and abs(x - y) <= self.allowed(x, y)

    def allowed(self, x: float, y: float) -> float:
        """How far apart ``x`` and ``y`` may be."""
        return self.atol + self.rtol * max(abs(x), abs(y))

    def rows_equal(self, a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
        """Whether every cell of ``a`` equals the cell of ``b`` in its place."""
        return all(self.equal(x, y) for x, y in zip(a, b, strict=True))


def _exact_key(value: Any) -> Any:
    """A hashable key: values with equal keys are equal under any tolerance (NaN keys equal, -0.0 is 0.0)."""
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, float):
        return ("nan",) if math.isnan(value) else value + 0.0
    if isinstance(value, dict):
        return ("dict", tuple(sorted(((repr(k), _exact_key(v)) for k, v in value.items()), key=lambda kv: kv[0])))
    if isinstance(value, list):
        return ("list", tuple(_exact_key(v) for v in value))
    return value


def _shape_key(value: Any) -> Any:
    """``_exact_key`` with every number left out: rows equal within a tolerance have equal shape keys."""
    if _is_number(value):
        return "#"
    if isinstance(value, dict):
        return ("dict", tuple(sorted(((repr(k), _shape_key(v)) for k, v in value.items()), key=lambda kv: kv[0])))
    if isinstance(value, list):
        return ("list", tuple(_shape_key(v) for v in value))
    return _exact_key(value)


def _numbers(value: Any) -> Iterator[float]:
    """The numbers in a value, in order (NaN last), to sort rows of one shape."""
    if _is_number(value):
        number = float(value)
        yield math.inf if math.isnan(number) else number
    elif isinstance(value, dict):
        for k in sorted(value, key=repr):
            yield from _numbers(value[k])
    elif isinstance(value, list):
        for v in value:
            yield from _numbers(v)


@dataclass(frozen=True, slots=True)
class RowComparison:
    """Compares the rows of two sides with the same columns and writes the message of a difference."""

    names: list[str]
    tolerance: Tolerance
    limit: int

    def ordered(self, left: list[tuple[Any, ...]], right: list[tuple[Any, ...]]) -> str:
        """Rows compared position by position; "" when they are equal."""
        blocks: list[list[str]] = []
        differing = 0
        for i in range(max(len(left), len(right))):
            a = left[i] if i < len(left) else None
            b = right[i] if i < len(right) else None
            if a is not None and b is not None and self.tolerance.rows_equal(a, b):
                continue
            differing += 1
            if len(blocks) < self.limit:
                title = (
                    f"row {i}:"
                    if a is not None and b is not None
                    else f"row {i}, only in {'left' if b is None else 'right'}:"
                )
                blocks.append([title, *self._pair(a, b)])
        if not differing:
            return ""
        total = max(len(left), len(right))
        head = (
            "the frames hold different rows (compared in order):\n"
            f"{differing} of {total} rows differ; left has {len(left)} rows, right {len(right)}"
        )
        lines = [head, *(line for block in blocks for line in block)]
        if differing > len(blocks):
            lines.append(f"... {differing - len(blocks)} more differing rows not shown (max_rows_shown={self.limit})")
        return "\n".join(lines)

    def unordered(self, left: list[tuple[Any, ...]], right: list[tuple[Any, ...]]) -> str:
        """Rows compared as multisets; "" when they are equal."""
        only_left, only_right = self._unmatched(left, right)
        if not only_left and not only_right:
            return ""
        head = (
            "the frames hold different rows (row order ignored):\n"
            f"{len(only_left)} of {len(left)} left rows and {len(only_right)} of {len(right)} right rows "
            "have no equal row on the other side"
        )
        unmatched_left, unmatched_right = [left[i] for i in only_left], [right[i] for i in only_right]
        pairs, lonely_left, lonely_right = self._most_alike(unmatched_left, unmatched_right)
        blocks = [["a left row and the right row most like it:", *self._pair(a, b)] for a, b in pairs]
        shown = {"left": len(pairs), "right": len(pairs)}
        for side, lonely in (("left", lonely_left), ("right", lonely_right)):
            rows = lonely[: max(0, self.limit - len(blocks))]
            views = [self._pair(row, None) if side == "left" else self._pair(None, row) for row in rows]
            if views:
                views[0].insert(0, f"only in {side} ({len(lonely)}):")
            blocks += views
            shown[side] += len(rows)
        hidden = {"left": len(only_left) - shown["left"], "right": len(only_right) - shown["right"]}
        lines = [head, *(line for block in blocks for line in block)]
        if any(hidden.values()):
            counts = " and ".join(f"{n} {side}" for side, n in hidden.items() if n)
            lines.append(f"... {counts} rows without an equal row not shown (max_rows_shown={self.limit})")
        return "\n".join(lines)

    def _unmatched(self, left: list[tuple[Any, ...]], right: list[tuple[Any, ...]]) -> tuple[list[int], list[int]]:
        """The indexes of the rows of each side that have no equal row on the other side.

        Exact matches are found by hashing; the rest are matched within the
        tolerance among rows of the same shape (equal but for their numbers),
        sorted by their numbers so that a row's match is near the front.
        """
        waiting: dict[Any, list[int]] = {}
        for i, row in enumerate(right):
            waiting.setdefault(_exact_key(list(row)), []).append(i)
        rest_left = []
        for i, row in enumerate(left):
            found = waiting.get(_exact_key(list(row)))
            if found:
                found.pop()
            else:
                rest_left.append(i)
        rest_right = sorted(i for indexes in waiting.values() for i in indexes)
        by_shape: dict[Any, tuple[list[int], list[int]]] = {}
        for i in rest_left:
            by_shape.setdefault(_shape_key(list(left[i])), ([], []))[0].append(i)
        for i in rest_right:
            by_shape.setdefault(_shape_key(list(right[i])), ([], []))[1].append(i)
        only_left: list[int] = []
        only_right: list[int] = []
        for lefts, rights in by_shape.values():
            unmatched_left, unmatched_right = self._match(lefts, rights, left, right)
            only_left += unmatched_left
            only_right += unmatched_right
        return sorted(only_left), sorted(only_right)

    def _match(
        self, lefts: list[int], rights: list[int], left: list[tuple[Any, ...]], right: list[tuple[Any, ...]]
    ) -> tuple[list[int], list[int]]:
        def order(rows: list[tuple[Any, ...]]) -> Any:
            return lambda i: tuple(_numbers(list(rows[i])))

        remaining = sorted(rights, key=order(right))
        window = None if len(lefts) * len(rights) <= _FULL_SCAN else _WINDOW
        unmatched = []
        for i in sorted(lefts, key=order(left)):
            candidates = remaining if window is None else remaining[:window]
            found = next((k for k, j in enumerate(candidates) if self.tolerance.rows_equal(left[i], right[j])), None)
            if found is None:
                unmatched.append(i)
            else:
                remaining.pop(found)
        return unmatched, remaining

    def _most_alike(
        self, left: list[tuple[Any, ...]], right: list[tuple[Any, ...]]
    ) -> tuple[list[tuple[tuple[Any, ...], tuple[Any, ...]]], list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        """Pairs the first unmatched left rows with the right rows that share the most cells with them.

        A pair shares at least one cell, except a single unmatched row on each side, which is always a pair.
        """
        if len(left) == len(right) == 1:  # the one difference, however few cells the two rows share
            return [(left[0], right[0])], [], []
        pairs = []
        lonely_left = []
        remaining = list(right)
        for row in left[: self.limit]:
            best, best_shared = None, 0
            for k, other in enumerate(remaining[: _PAIRING_CELLS // max(1, len(self.names))]):
                shared = sum(self.tolerance.equal(a, b) for a, b in zip(row, other, strict=True))
                if shared > best_shared:
                    best, best_shared = k, shared
            if best is not None:
                pairs.append((row, remaining.pop(best)))
            else:
                lonely_left.append(row)
        return pairs, lonely_left + left[self.limit :], remaining

    def _pair(self, a: tuple[Any, ...] | None, b: tuple[Any, ...] | None) -> list[str]:
        """Lines showing one row, or two side by side with their differing cells marked and listed."""
        differing = (
            [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if not self.tolerance.equal(x, y)]
            if a is not None and b is not None
            else []
        )
        shown = self._shown_columns(differing)
        texts = [
            [self._cell(i, row) if i is not None else "..." for i in shown] if row is not None else None
            for row in (a, b)
        ]
        widths = [max(len(t[k]) for t in texts if t is not None) for k in range(len(shown))]
        lines = []
        for label, cells in (("left ", texts[0]), ("right", texts[1])):
            if cells is not None:
                line = "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True))
                lines.append(f"  {label}  {line}".rstrip())
        if differing:
            marks = "  ".join(("^" if i in differing else " ") * w for i, w in zip(shown, widths, strict=True))
            lines.append("         " + marks.rstrip())
            for i in differing:
                lines += self._differences(self.names[i], a[i], b[i])  # type: ignore[index]
        return lines

    def _shown_columns(self, differing: list[int]) -> list[int | None]:
        """Every column, or for wide rows the first few and the differing ones (``None`` marks a gap)."""
        count = len(self.names)
        if count <= _COLUMNS_SHOWN:
            return list(range(count))
        wanted = sorted({*range(3), *differing})
        shown: list[int | None] = []
        for i in wanted:
            if shown and shown[-1] is not None and i != shown[-1] + 1:
                shown.append(None)
            shown.append(i)
        if wanted[-1] != count - 1:
            shown.append(None)
        return shown

    def _cell(self, index: int, row: tuple[Any, ...]) -> str:
        return f"{self.names[index]}={_text(row[index], _CELL_WIDTH)}"

    def _differences(self, path: str, a: Any, b: Any) -> list[str]:
        leaves = list(_leaf_differences(path, a, b, self.tolerance))
        lines = [f"  {where}: {self._values(x, y)}" for where, x, y in leaves[:_LEAVES_SHOWN]]
        if len(leaves) > _LEAVES_SHOWN:
            lines.append(f"  ... {len(leaves) - _LEAVES_SHOWN} more differences in {path}")
        return lines

    def _values(self, a: Any, b: Any) -> str:
        text = f"{_text(a, _VALUE_WIDTH)} (left) != {_text(b, _VALUE_WIDTH)} (right)"
        if _is_number(a) and _is_number(b) and (isinstance(a, float) or isinstance(b, float)):
            x, y = float(a), float(b)
            if math.isfinite(x) and math.isfinite(y):
                allowed = self.tolerance.allowed(x, y)
                text += f"; they differ by {abs(x - y):.3g}, the tolerance allows {allowed:.3g}"
                text += f" (atol + rtol * {max(abs(x), abs(y)):.3g})"
        elif type(a) is not type(b) and a is not None and b is not None:
            text += f" ({type(a).__name__} and {type(b).__name__})"
        return text


def _leaf_differences(path: str, a: Any, b: Any, tolerance: Tolerance) -> Iterator[tuple[str, Any, Any]]:
    """The innermost places where two values differ: struct fields, map keys, list positions."""
    if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
        for key in a:
            if not tolerance.equal(a[key], b[key]):
                step = f".{key}" if isinstance(key, str) and key.isidentifier() else f"[{key!r}]"
                yield from _leaf_differences(path + step, a[key], b[key], tolerance)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if not tolerance.equal(x, y):
                yield from _leaf_differences(f"{path}[{i}]", x, y, tolerance)
    else:
        yield path, a, b


def _text(value: Any, width: int) -> str:
    """How a value reads in a message (Python literals, ISO dates), cut to ``width`` characters."""
    text = spell(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def spell(value: Any) -> str:
    """A value as a Python literal, dates and times in ISO form, decimals and durations as ``str`` gives them."""
    if isinstance(value, datetime.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, datetime.timedelta | decimal.Decimal):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(spell(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{spell(k)}: {spell(v)}" for k, v in value.items()) + "}"
    return repr(value)
