"""Every catalog entry, checked against Spark: types and nullability (analyzer), and values (plain PySpark).

The tests are generated from the catalog. For each entry, each parameter is
tried with every example type its ``Accepts`` lists, nullable and not (the
others keep their first example); Python-only parameters take their sample.
All expressions go into a few wide ``select``s, so Spark analyses the whole
catalog in seconds, and every derived type and nullability must equal what
Spark's analyzer reports for the lowered plan. Then each ``F`` function runs
on rows with NULLs and edge values, and its values must equal those of the
PySpark function of the same name called with the same arguments (a function argument
is the entry's sample, written over the façade's ``F`` on one side and PySpark's
functions on the other).
"""

from __future__ import annotations

import contextlib
import datetime
import decimal
import functools
import inspect
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pytest
from pydantic import BaseModel
from pyspark.errors import AnalysisException, PySparkTypeError, PySparkValueError
from pyspark.sql import Window as SparkWindow
from pyspark.sql import functions as sf

from pydantable_spark import DataFrame, F, Window
from pydantable_spark import dtypes as dt
from pydantable_spark._spark.lower import lower
from pydantable_spark._spark.sql import to_sql
from pydantable_spark._spark.types import fields_of_struct
from pydantable_spark.arrow import arrow_type
from pydantable_spark.errors import PydantableSparkError, SparkAnalysisError
from pydantable_spark.expr.api import Expr
from pydantable_spark.expr.binding import call
from pydantable_spark.expr.call import Call, call_types
from pydantable_spark.expr.catalog import CATALOG, ENTRIES, Function, Kind
from pydantable_spark.expr.catalog.spec import ABSENT, REQUIRED, Built, LambdaSample, Lit, sample_of
from pydantable_spark.schema import Schema
from pydantable_spark.substrait.kernels import KERNELS
from pydantable_spark.substrait.relations import export

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

    from pyspark.sql import SparkSession

pytestmark = pytest.mark.spark

UTC = datetime.timezone.utc
_ROWS = 4


def _values(dtype: dt.DType) -> list[Any]:
    """Four non-null values of ``dtype``: ordinary ones and edge ones."""
    if isinstance(dtype, dt.Boolean):
        return [True, False, False, True]  # its rotations (``_variant``) differ from one another
    if isinstance(dtype, dt.Integral):
        return [1, -2, 0, 7]
    if isinstance(dtype, dt.Floating):
        return [1.5, -0.25, 0.0, 100.0]
    if isinstance(dtype, dt.Decimal):
        step = decimal.Decimal(1).scaleb(-dtype.scale)
        return [decimal.Decimal(v).quantize(step) for v in ("1.5", "-2.25", "0", "7")]
    if isinstance(dtype, dt.String):
        return ["Ab c1", "", "x,y  ", "Ünï 42"]
    if isinstance(dtype, dt.Binary):
        return [b"ab", b"", b"\x00\xff", b"xyz"]
    moments = [(2024, 2, 29, 13, 5, 9, 123456), (1970, 1, 1), (1999, 12, 31, 23, 59, 59), (2001, 7, 4, 6)]
    if isinstance(dtype, dt.Date):
        return [datetime.date(*m[:3]) for m in moments]
    if isinstance(dtype, dt.Datetime):
        return [datetime.datetime(*m, tzinfo=UTC) for m in moments]  # type: ignore[misc]
    if isinstance(dtype, dt.DatetimeNTZ):
        return [datetime.datetime(*m) for m in moments]  # type: ignore[misc]
    if isinstance(dtype, dt.Duration):
        return [
            datetime.timedelta(days=1, seconds=5),
            datetime.timedelta(0),
            -datetime.timedelta(hours=3),
            datetime.timedelta(minutes=7),
        ]
    if isinstance(dtype, dt.List):
        inner = _values(dtype.inner)
        lists = [[inner[0], inner[1]], [], [inner[2], inner[2], inner[3]], [inner[3]]]
        if dtype.contains_null:
            lists[0] = [inner[0], None, inner[1]]
        return lists
    if isinstance(dtype, dt.Struct):
        columns = [_values(f.dtype) for f in dtype.fields]
        return [{f.name: column[row] for f, column in zip(dtype.fields, columns, strict=True)} for row in range(_ROWS)]
    if isinstance(dtype, dt.Variant):  # JSON text, parsed into VARIANT columns by ``wide_frame``
        return ['{"a": 1, "b": [1.5, null, "x"]}', '[3, {"a": true}]', '"Ab c1"', "-2.25"]
    if isinstance(dtype, dt.Map):
        keys, values = _values(dtype.key), _values(dtype.value)
        maps = [{keys[0]: values[0], keys[1]: values[1]}, {}, {keys[2]: values[2]}, {keys[3]: values[3]}]
        if dtype.value_contains_null:
            maps[1] = {keys[1]: None}
        return [list(m.items()) for m in maps]
    msg = f"no test values for {dtype}"
    raise AssertionError(msg)


def _variant(values: list[Any], position: int) -> list[Any]:
    """The values of the column an argument at ``position`` reads: ``values`` rotated by ``position`` rows.

    Two arguments of one call never read the same column, nor two columns whose
    rows agree, so a function whose arguments reach Spark in the wrong order
    gives other values than PySpark's (``trim(s, chars)`` is not ``trim(chars, s)``).
    """
    shift = position % len(values)
    return [*values[shift:], *values[:shift]]


@dataclass(frozen=True)
class Wide:
    """A frame with columns per (example type, nullable, argument position), and their names.

    The argument at position ``i`` of a call reads the ``i``-th variant of its
    type: the same values rotated by ``i`` rows (``_variant``).
    """

    frame: DataFrame[Any]
    names: dict[tuple[dt.DType, bool, int], str]
    base: DataFrame[Any] | None = None
    """What the local engine reads: the columns of types it holds (no VARIANT, no duration)."""

    @functools.cached_property
    def plain_frame(self) -> Any:
        """The frame as a PySpark DataFrame (``to_spark()``, lowered once), for the calls of plain PySpark.

        On Spark Connect its plan is sent to the server once on its own (``isStreaming``, an analysis the client
        cannot answer itself, unlike the schema of ``to()``'s result): the server keeps a plan it analysed whole
        (its plan cache), and finds it there as the input of every later plain call instead of analysing the
        frame's ``to()`` over all its columns again. Measured on a local Connect server: the element-type refusal
        test of the collections catalog 54.7 s -> 37.8 s, catalog shard 0's value test 112 s -> 105 s. Classic
        Spark analysed the frame once already.
        """
        frame = self.frame.to_spark()
        frame.isStreaming  # noqa: B018 - analysed on the server now: see above
        return frame

    @property
    def order_key(self) -> str:
        """A column of distinct non-NULL values, to order windows by."""
        return self.names[(dt.Int64(), False, 0)]

    def column(self, dtype: dt.DType, nullable: bool, position: int = 0) -> str:
        return self.names[(dtype, nullable, position)]


def _example_types() -> dict[dt.DType, int]:
    """Each type a call of the catalog may take a column of, with how many argument positions take one."""
    found: dict[str, tuple[dt.DType, int]] = {}
    found[str(dt.Int64())] = (dt.Int64(), 1)  # the window order key
    for entry in ENTRIES:
        for combination in _combinations(entry):
            for position, (kind, what) in enumerate(combination):
                for dtype in (what[0],) if kind == "column" else what.dtypes if kind == "built" else ():
                    positions = max(found.get(str(dtype), (dtype, 0))[1], position + 1)
                    found[str(dtype)] = (dtype, positions)
    return dict(found.values())


@pytest.fixture(scope="module")
def wide(spark: SparkSession) -> Wide:
    return wide_frame(_example_types())


def wide_frame(types: dict[dt.DType, int] | Sequence[dt.DType], positions: int = 4) -> Wide:
    """Columns of each type, nullable and not, one per argument position (``_variant``; nullable: one NULL).

    ``types`` maps each type to its number of argument positions, or lists types
    that each get ``positions``. The nullable column holds the first three of
    ``_values`` and a NULL, rotated like the others.
    """
    counts = types if isinstance(types, dict) else dict.fromkeys(types, positions)
    names: dict[tuple[dt.DType, bool, int], str] = {}
    arrays = {}
    fields = []
    for i, (dtype, count) in enumerate(counts.items()):
        for nullable in (False, True):
            values = _values(dtype)
            if nullable:
                values = [*values[:3], None]
            for position in range(count):
                name = f"c{i}{'n' if nullable else ''}{f'_{position}' if position else ''}"
                names[(dtype, nullable, position)] = name
                fields.append(pa.field(name, arrow_type(dtype), nullable))
                arrays[name] = _variant(values, position)
    table = pa.table(arrays, schema=pa.schema(fields))
    frame = DataFrame.from_arrow(table)
    variants = {name: F.parse_json(name) for (dtype, _, _), name in names.items() if isinstance(dtype, dt.Variant)}
    held = [n for (dtype, _, _), n in names.items() if not isinstance(dtype, dt.Variant | dt.Duration)]
    return Wide(frame.with_columns(**variants) if variants else frame, names, DataFrame.from_arrow(table.select(held)))


def _combinations(entry: Function) -> Iterator[list[tuple[Any, str]]]:
    """Argument lists to try: (what to pass, how the column is chosen), varying one parameter at a time.

    The required parameters take their first option, then each parameter each of
    its options in turn (a parameter taking an expression or a Python value, its
    sample value too); a variadic parameter is also given two arguments. Each
    optional Python-only parameter is passed too, with its sample and the ones
    before it (one whose default is ``ABSENT`` only where it declares a sample);
    then every parameter that has an example or a sample, optional ones included.
    """
    params = [p for p in entry.signature.params if not (p.default is ABSENT and p.accepts is None and p.sample is None)]
    required = [p for p in params if p.default is REQUIRED or p.variadic]

    def options(param: Any) -> list[Any]:
        if param.takes is not None:  # a function: its sample, written over each side's functions
            return [("lambda", param.sample)]
        if param.accepts is None:
            return [("value", sample_of(param))]
        found = [("column", (example, nullable)) for example in param.accepts.examples for nullable in (False, True)]
        return [*found, ("value", sample_of(param))] if param.python else found

    for sample in entry.fixtures.samples:
        yield [_sample_option(item) for item in sample]
    base = [options(p)[0] for p in required]
    yield base
    for index, param in enumerate(required):
        for option in options(param)[1:]:
            yield [*base[:index], option, *base[index + 1 :]]
        if param.variadic:
            for option in options(param):
                yield [*base, option]
    optional = [p for p in params if p not in required]
    if required and required[-1].variadic:
        return  # the optional parameters come before the variadic one: never passed positionally
    for count in range(1, len(optional) + 1):
        if any(p.accepts is not None for p in optional[:count]):
            break
        yield [*base, *[options(p)[0] for p in optional[:count]]]
    full = [p for p in params if p.accepts is not None or p.sample is not None or p.default is REQUIRED]
    if full != required:
        base = [options(p)[0] for p in full]
        yield base
        for index, param in enumerate(full):
            for option in options(param)[1:]:
                yield [*base[:index], option, *base[index + 1 :]]


def _sample_option(item: Any) -> tuple[str, Any]:
    """An argument of an entry's ``samples`` in the form ``_combinations`` yields."""
    if isinstance(item, dt.DType):
        return ("column", (item, False))
    if isinstance(item, tuple) and item and isinstance(item[0], dt.DType):
        return ("column", item)
    if isinstance(item, Lit):
        return ("lit", item.value)
    if isinstance(item, LambdaSample):
        return ("lambda", item)
    if isinstance(item, Built):
        return ("built", item)
    return ("value", item)


@dataclass(frozen=True)
class Candidate:
    """One call to check: the entry, its arguments, and where it stands (row by row, a group, a window)."""

    entry: Function
    combination: list[Any]
    shape: str  # "row", "group" (a global aggregate), "window", or a window with a frame (FRAMED)
    expr: Expr[Any]
    sample: bool = False
    """Whether the arguments are one of the entry's ``samples``."""

    def plain(self, wide: Wide) -> Any:
        """The same call with PySpark's function of the same name (None where PySpark has no such call).

        A Python value for a parameter PySpark takes as a ``Column`` only is ``lit(value)`` there.
        """
        args = [
            sf.lit(what)
            if kind == "value" and _column_in_pyspark(self.entry, position)
            else _plain_argument(wide, kind, what, position)
            for position, (kind, what) in enumerate(self.combination)
        ]
        try:
            column = getattr(sf, self.entry.name)(*args)
        except TypeError:  # a call PySpark does not take (F.count() without a column)
            return None
        if self.shape in ("row", "group", "key"):
            return column
        window = SparkWindow.orderBy(wide.order_key)
        if self.shape in FRAMED:
            kind, start, end = FRAMED[self.shape]
            window = window.rowsBetween(start, end) if kind == "rows" else window.rangeBetween(start, end)
        return column.over(window)


def _column_in_pyspark(entry: Function, index: int) -> bool:
    return index < len(entry.signature.params) and entry.signature.params[index].column_in_pyspark


def _plain_argument(wide: Wide, kind: str, what: Any, position: int) -> Any:
    if kind == "column":
        return sf.col(wide.column(*what, position))
    if kind == "built":
        return what.build(sf, [sf.col(wide.column(d, False, position)) for d in what.dtypes])
    if kind == "lambda":
        return what.function(sf)
    return sf.lit(what) if kind == "lit" else what


def _argument(wide: Wide, kind: str, what: Any, position: int) -> Any:
    if kind == "column":
        return F.col(wide.column(*what, position))
    if kind == "built":
        return what.build(F, [F.col(wide.column(d, False, position)) for d in what.dtypes])
    if kind == "lambda":
        return what.function(F)
    return F.lit(what) if kind == "lit" else what


FRAMED = {"rows frame": ("rows", -1, 1), "range frame": ("range", -1, 1)}
"""Window functions are also tried over these frames: those Spark refuses must be refused when built."""

_SHAPE_CODES = {"row": "r", "group": "g", "window": "w", "rows frame": "f", "range frame": "v", "key": "k"}

TESTED_APART = {"window_time": "tests/test_time_windows.py"}
"""Entries whose arguments no wide frame holds (``window_time`` takes a group key made by a time bucket):
compared with PySpark's function in their own tests."""

KEY_COUNT = "rows_in_group"
"""The aggregate beside a group key (a time bucket is tried as the only key of a ``group_by``)."""


def _selected(frame: Any, named: dict[str, Any], shape: str) -> Any:
    """``named`` selected from ``frame`` (a façade or a PySpark frame); a group key grouped by, with a count."""
    if shape != "key":
        return frame.select(**named) if isinstance(frame, DataFrame) else frame.select(*named.values())
    if isinstance(frame, DataFrame):
        return frame.group_by(*(e.alias(n) for n, e in named.items())).agg(F.count().alias(KEY_COUNT))
    return frame.groupBy(*named.values()).agg(sf.count("*").alias(KEY_COUNT))


def _build(entry: Function, combination: list[Any], wide: Wide, shape: str) -> Expr[Any]:
    args = [_argument(wide, kind, what, position) for position, (kind, what) in enumerate(combination)]
    expr = Expr(call(entry, args))
    if shape in ("row", "group", "key"):
        return expr
    window = Window.order_by(wide.order_key)
    if shape in FRAMED:
        kind, start, end = FRAMED[shape]
        window = window.rows_between(start, end) if kind == "rows" else window.range_between(start, end)
    return expr.over(window)


def _shapes(entry: Function) -> tuple[str, ...]:
    if entry.placement.kind is Kind.WINDOW:
        return ("window", *FRAMED)
    if entry.placement.kind is Kind.GROUP_KEY:
        return ("key",)
    if entry.placement.kind is Kind.AGGREGATE:
        return ("group", "window") if entry.placement.windowable else ("group",)
    return ("row",)


def _candidates(wide: Wide) -> dict[str, Candidate]:
    """Every (entry, arguments, shape) the catalog admits on the wide frame; refused combinations are skipped."""
    if id(wide) not in _FOUND:
        _FOUND[id(wide)] = (wide, _candidates_of(wide))
    return dict(_FOUND[id(wide)][1])


_FOUND: dict[int, tuple[Wide, dict[str, Candidate]]] = {}
"""The candidates of each wide frame, found once (the frame is kept with them, so its id stays its own)."""


def _candidates_of(wide: Wide) -> dict[str, Candidate]:
    found = {}
    for entry in ENTRIES:
        if entry.name in TESTED_APART:
            continue
        for shape in _shapes(entry):
            for k, combination in enumerate(_combinations(entry)):
                name = f"{entry.name.replace('.', '_')}__{_SHAPE_CODES[shape]}{k}"
                try:
                    expr = _build(entry, combination, wide, shape)
                    _selected(wide.frame, {name: expr}, shape)  # bound: the entry's own rules accept these types
                except PydantableSparkError:
                    continue
                # a scalar function of an aggregate (a sketch's estimate) is tried over the whole frame
                tried = "group" if shape == "row" and expr.node.facts.has_aggregate else shape
                found[name] = Candidate(entry, combination, tried, expr, sample=k < len(entry.fixtures.samples))
    return found


def _batches(candidates: dict[str, Candidate], size: int) -> Iterator[list[str]]:
    """Names in batches that can share one select: aggregates apart from the rest, a group key alone."""
    yield from ([n] for n in sorted(n for n, c in candidates.items() if c.shape == "key"))
    candidates = {n: c for n, c in candidates.items() if c.shape != "key"}
    for grouped in (True, False):
        names = sorted(n for n, c in candidates.items() if (c.shape == "group") == grouped)
        for start in range(0, len(names), size):
            yield names[start : start + size]


def type_mismatches(wide: Wide, candidates: dict[str, Candidate]) -> list[str]:
    """Where the derived type or nullability differs from Spark's analyzer (or Spark refuses the call)."""
    mismatches = []
    for names in _batches(candidates, 250):
        out = _selected(wide.frame, {n: candidates[n].expr for n in names}, candidates[names[0]].shape)
        try:
            spark = Schema(fields_of_struct(lower(out.plan).schema))
        except SparkAnalysisError as error:
            if len(names) == 1:
                mismatches.append(f"{names[0]} ({candidates[names[0]].entry.call_name}): Spark refuses it: {error}")
                continue
            mismatches += type_mismatches(wide, {n: candidates[n] for n in names[: len(names) // 2]})
            mismatches += type_mismatches(wide, {n: candidates[n] for n in names[len(names) // 2 :]})
            continue
        for derived, actual in zip(out.schema, spark, strict=True):
            if derived != actual and derived.name in candidates:
                entry = candidates[derived.name].entry
                mismatches.append(f"{derived.name} ({entry.call_name}): derived {derived}, Spark {actual}")
    return mismatches


def test_every_entry_types_exactly_as_sparks_analyzer(wide: Wide) -> None:
    candidates = _candidates(wide)
    tried = {c.entry.name for c in candidates.values()}
    assert tried == {e.name for e in ENTRIES} - set(TESTED_APART)  # every entry is tried
    mismatches = type_mismatches(wide, candidates)
    assert mismatches == [], "\n".join(mismatches)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


SHARDS = 4
"""The value comparisons run as this many tests, each over the entries of one shard, so that the processes of
``pytest -n 2`` share them. A shard's two comparisons run in one process (``xdist_group``): the local engine's
reuses the Spark values the PySpark comparison fetched (``_SPARK_VALUES``)."""

_BY_SHARD = [
    pytest.param(k, marks=pytest.mark.xdist_group(f"catalog-values-{k}"), id=f"shard{k}") for k in range(SHARDS)
]


def _shard_of(entry: str) -> int:
    """The shard of an entry: every ``SHARDS``-th entry by name (a name the catalog does not hold: the first)."""
    return _ORDER.get(entry, 0) % SHARDS


_ORDER = {name: k for k, name in enumerate(sorted(e.name for e in ENTRIES))}
"""Each entry's place in the catalog by name (``_shard_of``)."""


def _shard(candidates: dict[str, Candidate], shard: int) -> dict[str, Candidate]:
    """The calls of the entries of ``shard``."""
    return {n: c for n, c in candidates.items() if _shard_of(c.entry.name) == shard}


@pytest.mark.parametrize("shard", _BY_SHARD)
def test_every_f_function_gives_the_values_of_pysparks(wide: Wide, shard: int) -> None:
    differences = value_differences(wide, _shard(_candidates(wide), shard))
    _write_failing(shard)
    assert differences == [], "\n".join(differences)


_FAILING_FILE = Path(__file__).with_name("catalog_failing_calls.txt")

_FAILING = frozenset(_FAILING_FILE.read_text().split()) if _FAILING_FILE.exists() else frozenset()
"""The calls of the wide frame known to fail on Spark over its values (an ANSI error, an invalid sketch buffer):
``_fetch_spark`` runs each alone before the rest of its batch, which then runs in one job where it would fail and
be narrowed down call by call; as only its failure is compared, with ``collect()`` (``_failure``). An order only,
never what is compared: a call missing from the list is found by narrowing, a listed call that does not fail goes
back to its batch, whose values are fetched as any other's. After a catalog change, rewrite the list with
``PYDANTABLE_CATALOG_FAILING=write pytest tests/expr/test_catalog.py -k values`` (one process)."""


def _write_failing(shard: int) -> None:
    """With ``PYDANTABLE_CATALOG_FAILING=write``: the calls of ``shard`` that failed alone replace its part of the
    list (``_FAILING``); the other shards' part is kept."""
    if os.environ.get("PYDANTABLE_CATALOG_FAILING") != "write":
        return
    kept = {n for n in _FAILING_FILE.read_text().split() if _shard_of(n.split("__")[0]) != shard}
    failed = {n for n, v in _SPARK_VALUES.items() if isinstance(v, Exception) and _shard_of(n.split("__")[0]) == shard}
    _FAILING_FILE.write_text("".join(f"{n}\n" for n in sorted(kept | failed)))


@contextlib.contextmanager
def _stages_interpreted(wide: Wide) -> Iterator[None]:
    """Spark without code generation while the block runs (then as it was): Spark's interpreted expressions.

    Each of the catalog's many small jobs compiled its fused stage first, which took most of the job's time on
    four rows (a single call 0.41-0.67 s with it, 0.29 s without; a batch of 120 calls 2.0 s, 0.9 s). Without
    whole-stage code generation, the aggregates and windows still compiled a class per job for their projections
    (``spark.sql.codegen.factoryMode``, Spark's switch between its generated and interpreted expressions): 36% of
    the JVM's samples over shard 0. With it off, the shard's 25 batches of the façade took 14.0 s instead of 22.9 s,
    its Arrow fetches 16.9 s instead of 31.3 s (the shard 75 s, was 90 s). A batch of row calls was interpreted
    already: its projection over the frame's local rows is evaluated when Spark optimizes the plan. The values
    compared are the same either way (Spark's interpreted and generated expressions are held to the same results
    by Spark's own tests), and the same on both sides of a comparison.
    """
    session = wide.plain_frame.sparkSession
    settings = {"spark.sql.codegen.wholeStage": "false", "spark.sql.codegen.factoryMode": "NO_CODEGEN"}
    before = {key: session.conf.get(key) for key in settings}
    for key, value in settings.items():
        session.conf.set(key, value)
    try:
        yield
    finally:
        for key, value in before.items():
            session.conf.set(key, value)


def value_differences(wide: Wide, found: dict[str, Candidate]) -> list[str]:
    """Where an ``F`` function's values differ from those of PySpark's function of the same name."""
    with _stages_interpreted(wide):
        return _value_differences(wide, found)


def _value_differences(wide: Wide, found: dict[str, Candidate]) -> list[str]:
    plain = {
        n: c.plain(wide)
        for n, c in found.items()
        if c.entry.signature.in_f
        and _deterministic(c)
        and hasattr(sf, c.entry.name)
        and (c.sample or not c.entry.fixtures.samples_only)
    }
    candidates = {n: found[n] for n, column in plain.items() if column is not None}
    fetched = {n: _as_fetched(wide, candidates[n], plain[n]) for n in candidates}
    comparison = _Comparison(wide, wide.plain_frame, fetched)
    for names in _batches(candidates, 120):
        comparison.compare({n: candidates[n] for n in names})
    return comparison.differences


def _deterministic(candidate: Candidate) -> bool:
    """Whether the call gives the same values twice (``unix_timestamp()`` reads the clock: its default is now)."""
    return all(node.deterministic for node in candidate.expr.node.walk())


_ERROR_CLASS = re.compile(r"\[([A-Z][A-Z0-9_.]+)\]")

_ALONE = 16
"""A failing batch's calls of the function its message names are tried each alone when there are at most this many."""


@dataclass
class _Failing:
    """Narrows a failing batch down to the calls that may have failed it: those whose expression Spark names (its
    query context), each alone; else those of the entries already seen failing with the same error class (an
    aggregate's error names no expression, nor does a decimal's overflow), each alone (a collect() of one call costs
    less than a failing batch: a batch of 120 ``round`` calls with eight that fail was halved some thirty times);
    else those of the function its message names (each alone when they are few, else as one batch); else the first
    half of the batch. A call that ran alone without failing (``cleared``) is not tried alone again."""

    seen: dict[str, set[str]] = field(default_factory=dict)  # error class -> entries seen failing with it

    def suspects(
        self, error: BaseException, frame: DataFrame[Any], candidates: dict[str, Candidate], cleared: set[str]
    ) -> tuple[list[str], bool]:
        """The calls to try apart from the rest, and whether each alone or as one batch; a call in ``cleared`` (it
        ran alone without failing) is never tried alone again."""
        names = sorted(candidates)
        found = [n for n in failing_calls(error, frame) if n in candidates and n not in cleared]
        if found:
            return found, True
        kind = _ERROR_CLASS.search(str(error))
        entries = self.seen.get(kind[1], set()) if kind else set()
        found = [n for n in names if candidates[n].entry.name in entries and n not in cleared]
        if found:  # the whole batch, maybe: a test's batch often holds the calls of one entry only
            return found, True
        named = set(re.findall(r"`([a-z][a-z0-9_]*)`", str(error)))  # "Invalid call to `hll_union_agg`"
        found = [n for n in names if candidates[n].entry.name in named]
        if found and len(found) < len(names):
            return found, len(found) <= _ALONE and not cleared.intersection(found)
        return names[: len(names) // 2], False

    def learn(self, error: BaseException, candidate: Candidate) -> None:
        """A single call failed with ``error``: later batches failing with its class try that entry first."""
        kind = _ERROR_CLASS.search(str(error))
        if kind:
            self.seen.setdefault(kind[1], set()).add(candidate.entry.name)


_LEARNED = _Failing()
"""What this process has seen failing: the PySpark comparisons and the local engine's Spark fetches narrow their
failing batches with it (it orders the narrowing only, never what is compared)."""


@dataclass
class _Comparison:
    """Batches of calls compared with PySpark's, one job per side, and the differences found.

    A batch that fails is narrowed down to the failing calls: those Spark's analyzer refuses are found by
    analysis alone (no job), those whose façade values fail as ``_Failing`` says; PySpark's side then runs each
    batch the façade's values came from.
    """

    wide: Wide
    plain_source: Any
    fetched: dict[str, Any]
    """PySpark's column of each call, as ``_as_fetched`` gives it (built once: a batch that fails is built again)."""
    differences: list[str] = field(default_factory=list)
    failing: _Failing = field(default_factory=lambda: _LEARNED)

    def compare(self, candidates: dict[str, Candidate]) -> None:
        """Compare a batch, after leaving out the calls PySpark refuses."""
        names = sorted(candidates)
        refused = self._refused(candidates, names)
        for n in refused:
            if not _converted(self.wide, candidates[n]):
                entry = candidates[n].entry
                self.differences.append(f"{n} ({entry.call_name}): PySpark refuses it, the façade not")
            # else the façade converts an argument itself (a CAST it writes), where PySpark refuses the type
        kept = {n: candidates[n] for n in names if n not in refused}
        if kept:
            self._compare_accepted(kept)

    def _plain(self, candidates: dict[str, Candidate], names: list[str]) -> Any:
        """PySpark's calls of ``names``, selected (or grouped by) as the façade's are."""
        named = {n: self.fetched[n].alias(n) for n in names}
        return _selected(self.plain_source, named, candidates[names[0]].shape)

    def _refused(self, candidates: dict[str, Candidate], names: list[str]) -> list[str]:
        """The calls of ``names`` that Spark's analyzer or PySpark's own checks refuse, found by halving."""
        try:
            self._plain(candidates, names).schema  # noqa: B018 - analysed now
        except (AnalysisException, PySparkTypeError, PySparkValueError):
            if len(names) == 1:
                return names
            half = len(names) // 2
            return [*self._refused(candidates, names[:half]), *self._refused(candidates, names[half:])]
        return []

    def _compare_accepted(self, candidates: dict[str, Candidate]) -> None:
        """Compare calls PySpark accepts: the façade's values fetched (a failing batch narrowed down as ``_Failing``
        says), then PySpark's, one job per batch the façade's values came from (the same calls in one plan: a
        sketch's bytes depend on the plan its aggregate runs in)."""
        for batch in _fetch_spark(self.wide.frame, candidates, self.failing):
            self._compare_plain({n: candidates[n] for n in batch})

    def _compare_plain(self, candidates: dict[str, Candidate]) -> None:
        """The façade's values of a batch (``_SPARK_VALUES``) against PySpark's, in one job; a failing batch is
        halved, down to single calls."""
        names = sorted(candidates)
        plain = self._plain(candidates, names)
        theirs: Any = None
        if len(names) == 1 and isinstance(_SPARK_VALUES[names[0]], Exception):  # the façade's call fails
            theirs = _failure(plain.collect)
            if theirs is None:  # PySpark's does not: its values, for the message
                theirs = _sorted_rows(plain.toArrow().to_pydict())
        else:
            try:
                theirs = _sorted_rows(plain.toArrow().to_pydict())
            except Exception as error:  # compared below
                if len(names) > 1:
                    half = len(names) // 2
                    self._compare_plain({n: candidates[n] for n in names[:half]})
                    self._compare_plain({n: candidates[n] for n in names[half:]})
                    return
                theirs = error
        for n in names:
            mine = _SPARK_VALUES[n]
            other = theirs if isinstance(theirs, Exception) else theirs[n]
            failed = isinstance(mine, Exception), isinstance(other, Exception)
            if all(failed):
                continue  # the one call fails on both sides (an ANSI error on these values)
            if any(failed) or not _same(mine, other):
                entry = candidates[n].entry
                self.differences.append(f"{n} ({entry.call_name}): façade {mine!s:.300} vs PySpark {other!s:.300}")


def failing_calls(error: BaseException, frame: DataFrame[Any]) -> list[str]:
    """The output columns of ``frame`` whose SQL holds the expression a failed Spark job names (its query context).

    A batch failing on one call's values (an ANSI error) is then checked without halving it again and again.
    Each call's SQL is that of the call bound to ``frame`` (an unbound call names columns it cannot type).
    """
    cause: BaseException | None = error
    while cause is not None and not hasattr(cause, "getQueryContext"):
        cause = cause.__cause__
    if cause is None:
        return []
    fragments = [c.fragment() for c in cause.getQueryContext() if c.fragment()]  # type: ignore[attr-defined]
    plan = frame.plan
    outputs = [*getattr(plan, "exprs", ()), *getattr(plan, "keys", ()), *getattr(plan, "aggs", ())]
    return [e.output_name for e in outputs if fragments and any(f in to_sql(e) for f in fragments)]


def _as_fetched(wide: Wide, candidate: Candidate, column: Any) -> Any:
    """PySpark's call ``column``, as the façade's ``to_arrow()`` gives its result: a VARIANT as its JSON text."""
    result = _selected(wide.frame, {"c": candidate.expr}, candidate.shape).schema.fields[0]
    return sf.to_json(column) if isinstance(result.dtype, dt.Variant) else column


def _sorted_rows(columns: dict[str, list[Any]]) -> dict[str, list[Any]]:
    """Window results come in no set order: each column's values sorted (by their text), the same on both sides."""
    return {name: sorted(values, key=repr) for name, values in columns.items()}


def _converted(wide: Wide, candidate: Candidate) -> bool:
    """Whether the façade converts one of the call's arguments to the type Spark asks for (``Accepts.to``)."""
    plan = _selected(wide.frame, {"c": candidate.expr}, candidate.shape).plan
    by_shape = {"key": "keys", "group": "aggs"}
    node = getattr(plan, by_shape.get(candidate.shape, "exprs"))[0]
    while not isinstance(node, Call):
        node = next(node.children())
    types = call_types(node.function, node.args)
    return any(arg.type.dtype != typed.dtype for arg, typed in zip(node.args, types, strict=True))


# --- the local engine -------------------------------------------------------------------------------


@dataclass
class LocalOutcome:
    """What the local engine did with the catalog's calls: the entries it ran, the differences it gave."""

    ran: set[str]
    refused: dict[str, str]
    differences: list[str]


def local_outcome(wide: Wide, found: dict[str, Candidate]) -> LocalOutcome:
    """Each call the local engine takes, run on both engines over the wide frame (without its VARIANTs).

    The local engine must give the façade's Spark values (compared as the PySpark comparison compares them),
    or fail where Spark fails (an ANSI error on these values). The Spark side reuses the values the PySpark
    comparison already fetched (``_SPARK_VALUES``).
    """
    assert wide.base is not None
    with _stages_interpreted(wide):
        return _local_outcome(wide, found)


def _local_outcome(wide: Wide, found: dict[str, Candidate]) -> LocalOutcome:
    assert wide.base is not None
    outcome = LocalOutcome(set(), {}, [])
    taken: dict[str, Candidate] = {}
    for name, candidate in sorted(found.items()):
        if not _deterministic(candidate):
            continue
        try:
            frame = _selected(wide.base, {name: candidate.expr}, candidate.shape)
            export(frame.plan, local=True)
        except PydantableSparkError as error:  # a VARIANT argument, or no kernel: refused by name
            outcome.refused.setdefault(candidate.entry.name, str(error))
            continue
        taken[name] = candidate
    for names in _batches({n: c for n, c in taken.items() if n not in _SPARK_VALUES}, 120):
        _fetch_spark(wide.base, {n: taken[n] for n in names}, _LEARNED)
    spark = {n: _SPARK_VALUES[n] for n in taken}
    alone = sorted(n for n, v in spark.items() if isinstance(v, Exception))  # expected to fail locally too
    for names in [*([n] for n in alone), *_batches({n: c for n, c in taken.items() if n not in alone}, 120)]:
        _compare_local(wide.base, {n: taken[n] for n in names}, spark, outcome)
    return outcome


_SPARK_VALUES: dict[str, Any] = {}
"""The façade's values of each call on Spark (sorted as ``_sorted_rows`` sorts them), or the error of the call
alone, by call name: fetched by the PySpark comparison, and by the local engine's where that did not."""


def _remember(names: list[str], values: Any) -> None:
    """Keep the façade's Spark values of ``names`` (one fetch's columns, or the error of a single call)."""
    for n in names:
        _SPARK_VALUES[n] = values if isinstance(values, Exception) else values[n]


def _fetch_spark(
    base: DataFrame[Any], candidates: dict[str, Candidate], failing: _Failing, cleared: set[str] | None = None
) -> list[list[str]]:
    """The façade's Spark values of a batch into ``_SPARK_VALUES``; a failing batch narrowed down (``_Failing``).

    Returns the batches whose values were fetched, each in one job, and each call that failed alone. A call likely
    to fail (listed in ``_FAILING``, or a suspect of a failing batch) is first run alone with ``collect()``
    (``_alone``): the calls that fail there are done, the others go back to the batch (``cleared``: never tried
    alone again), whose values are then fetched in one job.
    """
    cleared = set() if cleared is None else cleared
    listed = [n for n in sorted(candidates) if n in _FAILING and n not in cleared]
    return _apart(base, candidates, listed, failing, cleared)


def _fetch_batch(
    base: DataFrame[Any], candidates: dict[str, Candidate], failing: _Failing, cleared: set[str]
) -> list[list[str]]:
    """``_fetch_spark`` of calls none of which is known to fail: their values in one job, else narrowed down."""
    names = sorted(candidates)
    frame = _selected(base, {n: candidates[n].expr for n in names}, candidates[names[0]].shape)
    try:
        _remember(names, _sorted_rows(frame.to_arrow(engine="spark").to_pydict()))
    except Exception as error:  # narrowed down to the calls that fail
        if len(names) == 1:
            failing.learn(error, candidates[names[0]])
            _remember(names, error)
            return [names]
        suspects, alone = failing.suspects(error, frame, candidates, cleared)
        if alone:
            return _apart(base, candidates, suspects, failing, cleared)
        group = {n: candidates[n] for n in suspects}
        rest = {n: c for n, c in candidates.items() if n not in group}
        return _fetch_batch(base, group, failing, cleared) + _fetch_batch(base, rest, failing, cleared)
    return [names]


def _apart(
    base: DataFrame[Any], candidates: dict[str, Candidate], names: list[str], failing: _Failing, cleared: set[str]
) -> list[list[str]]:
    """``names`` each run alone (``_alone``), then the batch without those that failed (``_fetch_batch``)."""
    failed = _alone(base, candidates, names, failing, cleared)
    rest = {n: c for n, c in candidates.items() if n not in failed}
    return [[n] for n in failed] + (_fetch_batch(base, rest, failing, cleared) if rest else [])


def _alone(
    base: DataFrame[Any], candidates: dict[str, Candidate], names: list[str], failing: _Failing, cleared: set[str]
) -> list[str]:
    """The calls of ``names`` that fail when each runs alone with ``collect()`` (``_failure``), their errors kept in
    ``_SPARK_VALUES``; the others join ``cleared``."""
    failed = []
    for n in names:
        frame = _selected(base, {n: candidates[n].expr}, candidates[n].shape)
        error = _failure(lambda frame=frame: frame.to_spark().collect())
        if error is None:
            cleared.add(n)
            continue
        failing.learn(error, candidates[n])
        _remember([n], error)
        failed.append(n)
    return failed


def _failure(job: Callable[[], object]) -> Exception | None:
    """How ``job`` fails (None: it does not). Where only a call's failure is compared, its job is a ``collect()``:
    PySpark's Arrow fetch costs about three times as much when it fails (it converts the JVM's error twice, each a
    few hundred py4j round trips: 0.35 s against 0.14 s on a local session)."""
    try:
        job()
    except Exception as error:  # the failure compared
        return error
    return None


def _compare_local(
    base: DataFrame[Any], candidates: dict[str, Candidate], spark: dict[str, Any], outcome: LocalOutcome
) -> None:
    """One batch on the local engine against the façade's Spark values; a failing batch is halved, down to
    single calls."""
    names = sorted(candidates)
    frame = _selected(base, {n: candidates[n].expr for n in names}, candidates[names[0]].shape)
    try:
        local: Any = _sorted_rows(frame.to_arrow(engine="local").to_pydict())
    except Exception as error:  # compared below
        if len(names) > 1:
            half = len(names) // 2
            _compare_local(base, {n: candidates[n] for n in names[:half]}, spark, outcome)
            _compare_local(base, {n: candidates[n] for n in names[half:]}, spark, outcome)
            return
        local = error
    for n in names:
        theirs = spark[n]
        mine = local if isinstance(local, Exception) else local[n]
        entry = candidates[n].entry
        spark_failed, local_failed = isinstance(theirs, Exception), isinstance(mine, Exception)
        if spark_failed and local_failed:
            outcome.ran.add(entry.name)  # the one call fails on both engines
        elif spark_failed or local_failed or not _same(mine, theirs):
            outcome.differences.append(f"{n} ({entry.call_name}): local {mine!s:.300} vs Spark {theirs!s:.300}")
        else:
            outcome.ran.add(entry.name)


@pytest.mark.parametrize("shard", _BY_SHARD)
def test_every_kernel_gives_sparks_values(wide: Wide, shard: int) -> None:
    """Each catalog entry with a local kernel runs on the local engine and gives Spark's values on every call."""
    candidates = _shard(_candidates(wide), shard)
    outcome = local_outcome(wide, candidates)
    assert outcome.differences == [], "\n".join(outcome.differences)
    with_kernels = {n for n in set(KERNELS) - set(TESTED_APART) if _shard_of(n) == shard}
    _write_failing(shard)
    assert with_kernels <= outcome.ran, {n: outcome.refused.get(n, "never ran") for n in with_kernels - outcome.ran}


def test_every_alias_takes_the_keyword_names_of_pysparks_function_of_that_name() -> None:
    """``F.ucase(str=...)`` as ``pyspark.sql.functions.ucase(str)``, though ``F.upper`` names it ``col``; the
    messages of a call name the function called."""
    aliases = {name: entry for name, entry in CATALOG.items() if name != entry.name and hasattr(sf, name)}
    assert {"ucase", "lcase", "char_length", "approx_percentile"} <= set(aliases)
    for name, entry in aliases.items():
        theirs = list(inspect.signature(getattr(sf, name)).parameters)
        ours = list(inspect.signature(getattr(F, name)).parameters)
        assert ours == theirs, name
        required = [p.name for p in entry.params_as(name) if p.default is not ABSENT and not p.variadic][:1]
        with pytest.raises(TypeError, match=rf"^F\.{name}\(\) got unexpected argument\(s\) nope; it takes \("):
            getattr(F, name)(**dict.fromkeys([*required, "nope"], F.col("x")))


def test_an_alias_called_by_pysparks_keyword_names(spark: SparkSession) -> None:
    frame = DataFrame.from_rows([{"s": "Ab", "n": 1}], model=_Words)
    out = frame.select(up=F.ucase(str=F.col("s")), low=F.lcase(str="s"), chars=F.char_length(str="s"))
    assert out.to_dict() == {"up": ["AB"], "low": ["ab"], "chars": [2]}
    with pytest.raises(PydantableSparkError, match=r"^F\.ucase\(\): str must be a string; got column 'n'"):
        frame.select(F.ucase(str=F.col("n")))
    with pytest.raises(TypeError, match=r"^F\.ucase\(\) is missing its argument 'str'"):
        F.ucase()


class _Words(BaseModel):
    s: str
    n: int
