"""``assert_frame_equal``: two frames (or a frame and a list of rows) hold the same schema and rows."""

from __future__ import annotations

import math
import sys
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from pydantable_spark import dtypes as dt
from pydantable_spark.annotations import python_name
from pydantable_spark.engines import chosen_engine
from pydantable_spark.errors import ArgumentTypeError, ArgumentValueError, UnknownColumnError
from pydantable_spark.expr.core import check_param
from pydantable_spark.frame import DataFrame
from pydantable_spark.schema import render_diff
from pydantable_spark.testing.rows import RowComparison, Tolerance, count, is_named_row, plain

if TYPE_CHECKING:
    from pyspark.sql import DataFrame as SparkDataFrame

    from pydantable_spark.engines import Engine
    from pydantable_spark.schema import Schema

__all__ = ["Checked", "Rows", "assert_frame_equal", "check_call"]

Rows = Sequence[Mapping[str, Any] | BaseModel | tuple[Any, ...]]
"""Rows given as a list: dicts, model instances, or tuples (PySpark ``Row``s, or values in column order)."""


def assert_frame_equal(
    left: DataFrame[Any] | SparkDataFrame | Rows,
    right: DataFrame[Any] | SparkDataFrame | Rows,
    *,
    check_row_order: bool = False,
    check_column_order: bool = True,
    check_dtypes: bool = True,
    check_nullability: bool = True,
    ignore_columns: Sequence[str] = (),
    rtol: float = 1e-5,
    atol: float = 1e-8,
    max_rows_shown: int = 10,
    engine: Engine | None = None,
) -> None:
    """Raise ``AssertionError`` unless ``left`` and ``right`` hold the same schema and rows.

    Either side may be a pydantable-spark ``DataFrame``, a PySpark DataFrame
    (classic or Connect, typed by its own schema as ``DataFrame.from_spark``
    types it) or a list of rows: dicts, model instances, PySpark ``Row``s or
    tuples of values in the frame's column order. At least one side is a frame;
    a list is compared with the frame's columns, and only its rows are compared
    (a list has no schema). Each frame is read with one Spark job.

    Schemas are compared first: the column names, then their order, the types
    and the nullability (nested too), each check switched off by its own
    argument; the message says which check failed. Rows are then compared as
    multisets (row order ignored) or position by position. Values compare
    exactly except floating point numbers, which compare with a tolerance at
    any depth (in lists, structs and maps): ``a`` and ``b`` are equal when
    ``abs(a - b) <= atol + rtol * max(abs(a), abs(b))``. NaN equals NaN (as in
    Spark SQL), ``-0.0`` equals ``0.0`` (as Spark's ``=`` has it), and an
    infinity equals only itself. Integers and decimals compare exactly.

    Defaults, and why: ``check_row_order=False``, ``rtol=1e-5``, ``atol=1e-8``
    are ``pyspark.testing.assertDataFrameEqual``'s, so a test moved from it passes
    or fails alike on rows (the tolerance here is symmetric in ``left`` and
    ``right`` and never stricter than PySpark's, which scales ``rtol`` by the
    expected value only). ``check_column_order=True`` is PySpark's too.
    ``check_nullability=True`` differs from PySpark (which ignores nullability)
    and agrees with chispa: in a typed frame ``int`` and ``int | None`` are
    different types, which mypy and ``collect()`` see too. PySpark's
    ``createDataFrame`` makes every column nullable; comparing with such a frame
    needs ``check_nullability=False``, and the message says so. Decimals compare
    exactly, where PySpark applies the tolerance to them: a decimal holds an exact
    value, and a sum off by a cent should fail.

    ```pycon
    >>> from pydantable_spark import DataFrameModel
    >>> class Sale(DataFrameModel):
    ...     id: int
    ...     total: float
    ...     note: str | None
    >>> sales = Sale.from_rows([{"id": 1, "total": 10.0, "note": "a"}, {"id": 2, "total": 0.1 + 0.2, "note": None}])
    >>> assert_frame_equal(sales, [(2, 0.3, None), (1, 10.0, "b")], ignore_columns=["note"])
    >>> assert_frame_equal(sales.sort("id"), [(1, 10.0, "a"), (2, 0.3, "c")], check_row_order=True)
    Traceback (most recent call last):
    ...
    AssertionError: the frames hold different rows (compared in order):
    1 of 2 rows differ; left has 2 rows, right 2
    row 1:
      left   id=2  total=0.30000000000000004  note=None
      right  id=2  total=0.3                  note='c'
                                              ^^^^^^^^^
      note: None (left) != 'c' (right)

    ```

    Args:
        left: A frame, a PySpark DataFrame, or a list of rows (dicts, models, ``Row``s, tuples).
        right: The same kinds as ``left``.
        check_row_order: Compare rows position by position (sort both frames first:
            Spark promises no order otherwise). By default rows compare as multisets.
        check_column_order: Require the same column order; when False columns pair by name.
        check_dtypes: Require the same column types; when False only the values are compared
            (an ``int`` 1 then equals a ``float`` 1.0).
        check_nullability: Require the same nullability, nested nullability included.
        ignore_columns: Top-level column names left out of the whole comparison; each must be a
            column of one of the frames.
        rtol: Relative tolerance for floating point numbers (a finite number ``>= 0``).
        atol: Absolute tolerance for floating point numbers (a finite number ``>= 0``).
        max_rows_shown: How many differing rows the message shows (at least 1); it always
            gives their number.
        engine: Where the frames' rows are computed: ``"spark"``, ``"local"`` (no JVM; see
            docs/local-engine.md), ``"auto"`` (local where it takes the plan); None, the default
            engine (Spark unless ``use_engine`` or the pytest plugin chose another). A PySpark
            DataFrame is always read by Spark.

    Raises:
        AssertionError: The schemas or the rows differ; the message shows how.
        ArgumentTypeError: An argument of the wrong type (a ``TypeError``), named.
        UnknownColumnError: An ``ignore_columns`` name that no frame has.
        ValueError: A negative or non-finite tolerance, or ``max_rows_shown < 1``.

    """
    __tracebackhide__ = True  # pytest shows the caller's line, not this function's
    call = check_call(
        left,
        right,
        check_row_order=check_row_order,
        check_column_order=check_column_order,
        check_dtypes=check_dtypes,
        check_nullability=check_nullability,
        ignore_columns=ignore_columns,
        rtol=rtol,
        atol=atol,
        max_rows_shown=max_rows_shown,
        engine=engine,
    )
    left_side, right_side, names, tolerance = call.left, call.right, call.names, call.tolerance
    frames = [s.frame for s in (left_side, right_side) if s.frame is not None]
    table = RowComparison(names, tolerance, max_rows_shown)
    full = list(frames[0].columns)
    left_rows = left_side.rows(names, full, "right")
    right_rows = right_side.rows(names, full, "left")
    message = table.ordered(left_rows, right_rows) if check_row_order else table.unordered(left_rows, right_rows)
    if message:
        raise AssertionError(message)


@dataclass(frozen=True, slots=True)
class Checked:
    """A call of ``assert_frame_equal`` whose arguments and schemas passed: what its rows are compared by."""

    left: _Side
    right: _Side
    names: list[str]
    tolerance: Tolerance


def check_call(
    left: object,
    right: object,
    *,
    check_row_order: object = False,
    check_column_order: object = True,
    check_dtypes: object = True,
    check_nullability: object = True,
    ignore_columns: object = (),
    rtol: object = 1e-5,
    atol: object = 1e-8,
    max_rows_shown: object = 10,
    engine: object = None,
) -> Checked:
    """``assert_frame_equal``'s checks before it reads a row: its arguments, then the two schemas.

    It reads no row (no Spark job), so the mypy plugin runs it on frames of the
    static schemas with the call's arguments (``_mypy.testing``): an argument
    the runtime refuses (``ignore_columns="tip"``, a name no frame has, a
    negative tolerance, two lists of rows) is reported where the call is written.

    Raises:
        AssertionError: The schemas differ (as ``assert_frame_equal`` raises it).
        ArgumentTypeError: An argument of the wrong type (a ``TypeError``), named.
        UnknownColumnError: An ``ignore_columns`` name that no frame has.
        ValueError: A negative or non-finite tolerance, ``max_rows_shown < 1``, or nothing left to compare.

    """
    __tracebackhide__ = True
    what = "assert_frame_equal()"
    tolerance = _check_arguments(
        what,
        flags={
            "check_row_order": check_row_order,
            "check_column_order": check_column_order,
            "check_dtypes": check_dtypes,
            "check_nullability": check_nullability,
        },
        rtol=rtol,
        atol=atol,
        max_rows_shown=max_rows_shown,
    )
    ignored = _ignored_names(what, ignore_columns)
    chosen = chosen_engine(what, engine)
    left_side, right_side = _side(what, "left", left, chosen), _side(what, "right", right, chosen)
    frames = [s.frame for s in (left_side, right_side) if s.frame is not None]
    if not frames:
        msg = f"{what}: left and right are both lists of rows; at least one side must be a frame to give the columns"
        raise ArgumentTypeError(msg)
    columns = [name for frame in frames for name in frame.columns]
    for name in ignored:
        if name not in columns:
            raise UnknownColumnError(name, list(dict.fromkeys(columns)), where="ignore_columns (no frame has it)")
    if left_side.frame is not None and right_side.frame is not None:
        problems = _schema_problems(
            _kept(left_side.frame.schema, ignored),
            _kept(right_side.frame.schema, ignored),
            order=bool(check_column_order),
            dtypes=bool(check_dtypes),
            nullability=bool(check_nullability),
        )
        if problems:
            raise AssertionError(problems)
    names = [n for n in frames[0].columns if n not in ignored]
    if not names:
        msg = f"{what}: ignore_columns={sorted(ignored)} leaves no column to compare"
        raise ArgumentValueError(msg)
    return Checked(left_side, right_side, names, tolerance)


def _check_arguments(
    what: str, *, flags: Mapping[str, object], rtol: object, atol: object, max_rows_shown: object
) -> Tolerance:
    for name, value in flags.items():
        check_param(what, name, value, bool)
    tolerances = []
    for name, value in (("rtol", rtol), ("atol", atol)):
        check_param(what, name, value, (float, int))
        number = float(typing.cast("float", value))
        if not (math.isfinite(number) and number >= 0):
            msg = f"{what}: {name} must be a finite number >= 0, got {value!r}"
            raise ArgumentValueError(msg)
        tolerances.append(number)
    check_param(what, "max_rows_shown", max_rows_shown, int)
    if typing.cast("int", max_rows_shown) < 1:
        msg = f"{what}: max_rows_shown must be at least 1, got {max_rows_shown!r}"
        raise ArgumentValueError(msg)
    return Tolerance(*tolerances)


def _ignored_names(what: str, ignore_columns: object) -> frozenset[str]:
    if isinstance(ignore_columns, str) or not isinstance(ignore_columns, Sequence | set | frozenset):
        shown = f" (write [{ignore_columns!r}])" if isinstance(ignore_columns, str) else ""
        msg = (
            f"{what}: ignore_columns must be a list or tuple of column names, "
            f"got {ignore_columns!r} ({type(ignore_columns).__name__}){shown}"
        )
        raise ArgumentTypeError(msg)
    for i, name in enumerate(ignore_columns):
        check_param(what, f"ignore_columns[{i}]", name, str)
    return frozenset(ignore_columns)


def _is_spark_frame(value: object) -> bool:
    """Whether ``value`` is a PySpark DataFrame (classic or Connect); never imports pyspark."""
    module = sys.modules.get("pyspark.sql.dataframe")
    return module is not None and isinstance(value, module.DataFrame)


@dataclass(frozen=True, slots=True)
class _Side:
    """One side of the comparison: a frame, or a list of rows read with the other side's columns."""

    name: str
    frame: DataFrame[Any] | None
    items: Sequence[Any] = ()
    engine: Engine = "spark"

    def rows(self, names: list[str], columns: list[str], other: str) -> list[tuple[Any, ...]]:
        """The rows as tuples of plain values of ``names``; ``columns`` are the frame's (for a list side)."""
        if self.frame is not None:
            kept = self.frame if list(self.frame.columns) == names else self.frame.select(*names)
            values = kept.to_dict(engine=self.engine)
            return [tuple(plain(v) for v in row) for row in zip(*(values[n] for n in names), strict=True)]
        return [self._row(f"{self.name}[{i}]", item, names, columns, other) for i, item in enumerate(self.items)]

    @staticmethod
    def _row(where: str, item: Any, names: list[str], columns: list[str], other: str) -> tuple[Any, ...]:
        if isinstance(item, BaseModel | Mapping) or is_named_row(item):
            data = plain(item)
        elif len(item) == len(columns):
            data = dict(zip(columns, item, strict=True))
        else:
            msg = (
                f"{where} is a tuple of {count(len(item), 'value')}, but the {other} frame has "
                f"{count(len(columns), 'column')} ({', '.join(columns)}); a tuple gives every column's value "
                "in that order"
            )
            raise AssertionError(msg)
        unknown = [repr(k) for k in data if k not in columns]
        missing = [repr(n) for n in names if n not in data]
        if unknown or missing:
            msg = f"{where} does not give the columns of the {other} frame ({', '.join(names)})"
            msg += f"; unknown: {', '.join(unknown)}" if unknown else ""
            if missing:
                msg += f"; missing: {', '.join(missing)} (give every column, or leave one out with ignore_columns)"
            raise AssertionError(msg)
        return tuple(plain(data[n]) for n in names)


def _side(what: str, name: str, value: object, engine: Engine) -> _Side:
    if isinstance(value, DataFrame):
        return _Side(name, value, engine=engine)
    if _is_spark_frame(value):  # its rows are in Spark
        return _Side(name, DataFrame.from_spark(typing.cast("SparkDataFrame", value)))
    if isinstance(value, Sequence) and not isinstance(value, str | bytes | bytearray):
        for i, item in enumerate(value):
            if not isinstance(item, Mapping | BaseModel | tuple):
                msg = (
                    f"{what}: {name}[{i}] must be a row (a dict, a model instance, a PySpark Row or a tuple), "
                    f"got {item!r} ({type(item).__name__})"
                )
                raise ArgumentTypeError(msg)
        return _Side(name, None, value)
    msg = (
        f"{what}: {name} must be a pydantable_spark DataFrame, a PySpark DataFrame or a list of rows "
        f"(dicts, model instances, PySpark Rows or tuples), got {value!r} ({type(value).__name__})"
    )
    raise ArgumentTypeError(msg)


def _kept(schema: Schema, ignored: frozenset[str]) -> list[dt.Field]:
    return [f for f in schema if f.name not in ignored]


def _typed(f: dt.Field) -> str:
    return f"{python_name(f.dtype, nullable=f.nullable)} ({f.dtype})"


def _schema_problems(
    left: list[dt.Field], right: list[dt.Field], *, order: bool, dtypes: bool, nullability: bool
) -> str:
    """The schema checks that fail, each with its columns, and a side-by-side view; "" when none fails."""
    theirs = {f.name: f for f in right}
    mine = {f.name: f for f in left}
    checks: list[str] = []
    only_left = [n for n in mine if n not in theirs]
    only_right = [n for n in theirs if n not in mine]
    if only_left or only_right:
        detail = [f"only in left: {', '.join(only_left)}"] if only_left else []
        detail += [f"only in right: {', '.join(only_right)}"] if only_right else []
        checks.append(f"  column names differ ({'; '.join(detail)})")
    elif order and list(mine) != list(theirs):
        checks.append(
            f"  column order differs (left: {', '.join(mine)}; right: {', '.join(theirs)}); "
            "pass check_column_order=False to pair columns by name"
        )
    common = [(mine[n], theirs[n]) for n in mine if n in theirs]
    shapes = [(a, b) for a, b in common if dt.without_nullability(a.dtype) != dt.without_nullability(b.dtype)]
    if dtypes and shapes:
        checks.append("  types differ (pass check_dtypes=False to compare the values only):")
        checks += [f"    {a.name}: {_typed(a)} in left, {_typed(b)} in right" for a, b in shapes]
    if nullability:
        nulls = [(a, b) for a, b in common if a.nullable != b.nullable or ((a, b) not in shapes and a.dtype != b.dtype)]
        if nulls:
            checks.append("  nullability differs (pass check_nullability=False to ignore it):")
            checks += [f"    {a.name}: {_typed(a)} in left, {_typed(b)} in right" for a, b in nulls]
    if not checks:
        return ""
    shown = right if order else [theirs[n] for n in mine if n in theirs] + [theirs[n] for n in only_right]
    view = render_diff(left, shown, left="left", right="right")
    return "\n".join(["the frames have different schemas:", *checks, view])
