"""Assertions for users' tests: two frames hold the same schema and rows.

``assert_frame_equal(actual, expected)`` compares the schemas (names, order,
types, nullability) and then the rows, ignoring row order unless
``check_order=True``; floats compare with a tolerance. ``expected`` may be a
frame, a list of dicts or model instances (then only the rows are compared,
with the actual frame's column order), or a Spark DataFrame. The failure
message shows the schema diff, or the rows found only on one side.

```pycon
>>> from pydantable_spark import DataFrameModel
>>> class P(DataFrameModel):
...     id: int
...     w: float
>>> frame = P.from_rows([{"id": 2, "w": 0.3}, {"id": 1, "w": 0.1 + 0.2}])
>>> assert_frame_equal(frame, [{"id": 1, "w": 0.3}, {"id": 2, "w": 0.3}])
>>> assert_frame_equal(frame, [{"id": 1, "w": 0.3}])
Traceback (most recent call last):
...
AssertionError: the frames hold different rows (2 actual, 1 expected):
  only in actual (1):
    {'id': 2, 'w': 0.3}

```
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from pydantable_spark.errors import ArgumentTypeError
from pydantable_spark.frame import DataFrame

if TYPE_CHECKING:
    from pydantable_spark.schema import Schema

__all__ = ["assert_frame_equal"]

_SHOWN = 10


def assert_frame_equal(
    actual: DataFrame[Any],
    expected: DataFrame[Any] | Sequence[Mapping[str, Any] | BaseModel] | Any,
    *,
    check_order: bool = False,
    check_nullability: bool = True,
    rtol: float = 1e-9,
    atol: float = 0.0,
) -> None:
    """Raise ``AssertionError`` unless ``actual`` and ``expected`` hold the same schema and rows."""
    if not isinstance(actual, DataFrame):
        msg = f"assert_frame_equal: actual must be a pydantable_spark DataFrame, got {type(actual).__name__}"
        raise ArgumentTypeError(msg)
    names = list(actual.columns)
    if isinstance(expected, Sequence) and not isinstance(expected, str | bytes):
        expected_rows = [_row_of(item, names) for item in expected]
    else:
        other: DataFrame[Any] = expected if isinstance(expected, DataFrame) else DataFrame.from_spark(expected)  # type: ignore[arg-type]
        _compare_schemas(actual.schema, other.schema, check_nullability)
        expected_rows = _rows(other)
    actual_rows = _rows(actual)
    if not check_order:
        actual_rows = sorted(actual_rows, key=_sort_key)
        expected_rows = sorted(expected_rows, key=_sort_key)
    _compare_rows(names, actual_rows, expected_rows, check_order, rtol, atol)


def _compare_schemas(actual: Schema, expected: Schema, check_nullability: bool) -> None:
    def strip(schema: Schema) -> list[tuple[str, Any, bool]]:
        return [(f.name, f.dtype, f.nullable or not check_nullability) for f in schema]

    if strip(actual) != strip(expected):
        msg = "the frames have different schemas:\n" + actual.diff(expected, left="actual", right="expected")
        raise AssertionError(msg)


def _row_of(item: Mapping[str, Any] | BaseModel, names: list[str]) -> tuple[Any, ...]:
    data = item.model_dump(by_alias=True) if isinstance(item, BaseModel) else dict(item)
    unknown = sorted(set(data) - set(names))
    missing = [n for n in names if n not in data]
    if unknown or missing:
        msg = f"expected row {data!r} does not match the columns {names}"
        msg += f" (unknown: {unknown})" if unknown else ""
        msg += f" (missing: {missing})" if missing else ""
        raise AssertionError(msg)
    return tuple(_plain(data[n]) for n in names)


def _rows(frame: DataFrame[Any]) -> list[tuple[Any, ...]]:
    columns = frame.to_dict()
    return [tuple(_plain(v) for v in row) for row in zip(*columns.values(), strict=True)]


def _plain(value: Any) -> Any:
    """Models and nested values as plain dicts, lists and scalars."""
    if isinstance(value, BaseModel):
        return {k: _plain(v) for k, v in value.model_dump(by_alias=True).items()}
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_plain(v) for v in value]
    return value


def _sort_key(row: tuple[Any, ...]) -> str:
    return repr(tuple(_rounded(v) for v in row))


def _rounded(value: Any) -> Any:
    if isinstance(value, float) and math.isfinite(value):
        return float(f"{value:.6g}")
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    return value


def _close(a: Any, b: Any, rtol: float, atol: float) -> bool:
    if isinstance(a, float) and isinstance(b, float | int) and not isinstance(b, bool):
        return (math.isnan(a) and math.isnan(float(b))) or math.isclose(a, b, rel_tol=rtol, abs_tol=atol)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k], rtol, atol) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y, rtol, atol) for x, y in zip(a, b, strict=True))
    if isinstance(b, float) and isinstance(a, int) and not isinstance(a, bool):
        return math.isclose(a, b, rel_tol=rtol, abs_tol=atol)
    return (bool(a == b) and type(a) is type(b)) or (a is None and b is None)


def _compare_rows(
    names: list[str],
    actual: list[tuple[Any, ...]],
    expected: list[tuple[Any, ...]],
    ordered: bool,
    rtol: float,
    atol: float,
) -> None:
    unmatched = list(expected)
    only_actual = []
    for i, row in enumerate(actual):
        if ordered:
            if i < len(expected) and _close(list(row), list(expected[i]), rtol, atol):
                continue
            msg = f"the frames differ at row {i} (in order):\n  actual:   {_show(names, row)}\n"
            msg += f"  expected: {_show(names, expected[i]) if i < len(expected) else '(no row)'}"
            raise AssertionError(msg)
        match = next((j for j, other in enumerate(unmatched) if _close(list(row), list(other), rtol, atol)), None)
        if match is None:
            only_actual.append(row)
        else:
            unmatched.pop(match)
    if ordered:
        if len(actual) < len(expected):
            msg = f"the frames differ at row {len(actual)} (in order):\n  actual:   (no row)\n"
            msg += f"  expected: {_show(names, expected[len(actual)])}"
            raise AssertionError(msg)
        return
    if only_actual or unmatched:
        lines = [f"the frames hold different rows ({len(actual)} actual, {len(expected)} expected):"]
        for label, rows in (("only in actual", only_actual), ("only in expected", unmatched)):
            if rows:
                lines.append(f"  {label} ({len(rows)}):")
                lines += [f"    {_show(names, r)}" for r in rows[:_SHOWN]]
                lines += [f"    ... and {len(rows) - _SHOWN} more"] if len(rows) > _SHOWN else []
        raise AssertionError("\n".join(lines))


def _show(names: list[str], row: tuple[Any, ...]) -> str:
    return repr(dict(zip(names, row, strict=True)))
