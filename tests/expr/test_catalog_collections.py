"""List, map and struct functions past what the generated catalog test tries.

The generated test (``test_catalog.py``) varies one parameter at a time over a
few list types. Here: every pair of element types through the functions that
meet elements (refused exactly where Spark refuses for the *tightest* common
type; the wider one for ``array``/``concat``/maps), element nullability over
every list variant, lookups into ``F.array(...)`` (whose items' nullability
Spark knows), field names of ``struct`` and ``arrays_zip``, sequences of dates
and datetimes, maps built from literals and columns with their values
compared with PySpark's, weak literals, and the calls refused when they are
built, each with a message naming the call.
"""

from __future__ import annotations

import datetime
import decimal
import itertools
from typing import TYPE_CHECKING, Annotated, Any

import pyarrow as pa
import pytest
import test_catalog as catalog_tests
from pyspark.errors import AnalysisException
from pyspark.sql import functions as sf
from test_catalog import Wide

from pydantable_spark import DataFrame, DataFrameModel, F
from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ArgumentError, ArgumentTypeError, ColumnTypeError
from pydantable_spark.expr.api import Expr
from pydantable_spark.expr.catalog import ENTRIES
from pydantable_spark.typerules import tightest

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

pytestmark = pytest.mark.jvm_free
"""These tests run without a JVM (pytest -m "not spark"); the ones marked spark get the session."""


ELEMENTS = (
    dt.Int8(), dt.Int32(), dt.Int64(), dt.Float32(), dt.Float64(), dt.Decimal(10, 2), dt.Decimal(38, 18),
    dt.String(), dt.Boolean(), dt.Date(), dt.Datetime(), dt.DatetimeNTZ(),
)  # fmt: skip
LISTS = tuple(dt.List(e, cn) for e in ELEMENTS for cn in (False, True))
NESTED = (dt.List(dt.List(dt.Int64(), False), True), dt.List(dt.List(dt.Int32(), True), False))
TIGHTEST_LISTS = ("array_union", "array_intersect", "array_except", "arrays_overlap")
TIGHTEST_VALUES = ("array_append", "array_prepend", "array_remove", "array_position")
BY_NAME = {entry.name: entry for entry in ENTRIES}


@pytest.fixture(scope="module")
def wide(spark: SparkSession) -> Wide:
    """A column per element type and per list of it, with and without NULL elements, nullable and not."""
    return catalog_tests.wide_frame([*ELEMENTS, *LISTS, *NESTED, dt.Duration()])


def _column(dtype: dt.DType, nullable: bool = False) -> tuple[str, Any]:
    return ("column", (dtype, nullable))


def _candidates(wide: Wide, calls: list[tuple[str, list[Any]]]) -> dict[str, catalog_tests.Candidate]:
    """The calls (entry name, test-style arguments) bound to the wide frame; refused ones are left out."""
    found = {}
    for index, (name, combination) in enumerate(calls):
        entry = BY_NAME[name]
        try:
            expr = catalog_tests._build(entry, combination, wide, "row")
            wide.frame.select(expr)
        except ColumnTypeError:
            continue
        found[f"{name}__x{index}"] = catalog_tests.Candidate(entry, combination, "row", expr)
    return found


def _check(wide: Wide, calls: list[tuple[str, list[Any]]], *, values: bool = True) -> None:
    candidates = _candidates(wide, calls)
    assert len(candidates) == len(calls), "a call was refused"
    assert catalog_tests.type_mismatches(wide, candidates) == []
    if values:
        assert catalog_tests.value_differences(wide, candidates) == []


def _refused_by_spark(wide: Wide, name: str, combination: list[Any]) -> bool:
    plain = catalog_tests.Candidate(BY_NAME[name], combination, "row", None).plain(wide)  # type: ignore[arg-type]
    try:
        wide.plain_frame.select(plain).schema  # noqa: B018 - analysed now
    except AnalysisException:
        return True
    return False


# --- element types meet as Spark's analyzer says ---------------------------------------------------


@pytest.mark.spark
def test_functions_meeting_elements_refuse_exactly_where_spark_has_no_tightest_type(wide: Wide) -> None:
    calls = [
        (name, [_column(dt.List(a, False)), _column(dt.List(b, True), True)])
        for name in TIGHTEST_LISTS
        for a, b in itertools.product(ELEMENTS, repeat=2)
    ]
    calls += [
        (name, [_column(dt.List(a, True)), _column(b, True)])
        for name in TIGHTEST_VALUES
        for a, b in itertools.product(ELEMENTS, repeat=2)
    ]
    calls += [
        ("array_insert", [_column(dt.List(a, False), True), ("value", 1), _column(b)])
        for a, b in itertools.product(ELEMENTS, repeat=2)
    ]
    accepted = _candidates(wide, calls)
    assert catalog_tests.type_mismatches(wide, accepted) == []
    accepted_pairs = {(c.entry.name, str(c.combination)) for c in accepted.values()}
    wrongly_refused = [
        f"{name}{combination}"
        for name, combination in calls
        if (name, str(combination)) not in accepted_pairs and not _refused_by_spark(wide, name, combination)
    ]
    assert wrongly_refused == []
    # and every accepted pair met in typerules.tightest's type
    for candidate in accepted.values():
        (first, _), (second, _) = candidate.combination[0][1], candidate.combination[-1][1]
        assert isinstance(first, dt.List)
        other = second.inner if isinstance(second, dt.List) else second
        assert tightest(first.inner, other) is not None


@pytest.mark.spark
def test_functions_building_lists_and_maps_meet_in_the_wider_type(wide: Wide) -> None:
    pairs = list(itertools.product(ELEMENTS, repeat=2))
    calls = [("array", [_column(a), _column(b, True)]) for a, b in pairs]
    calls += [("list.concat", [_column(dt.List(a, False)), _column(dt.List(b, True), True)]) for a, b in pairs]
    calls += [("concat", [_column(dt.List(a, True)), _column(dt.List(b, False))]) for a, b in pairs]
    calls += [("create_map", [("lit", "k"), _column(a), ("lit", "l"), _column(b, True)]) for a, b in pairs]
    accepted = _candidates(wide, calls)
    assert catalog_tests.type_mismatches(wide, accepted) == []
    numbers_and_times = [
        (a, b)
        for a, b in pairs
        if (isinstance(a, dt.Numeric) and isinstance(b, dt.Numeric))
        or (isinstance(a, dt.Temporal) and isinstance(b, dt.Temporal))
        or a == b
    ]
    assert len(accepted) == 4 * len(numbers_and_times)  # strings never meet numbers, booleans or dates


@pytest.mark.spark
def test_element_nullability_over_every_list_variant(wide: Wide) -> None:
    variants = [(dt.List(dt.Int64(), cn), nullable) for cn in (False, True) for nullable in (False, True)]
    calls = [
        (name, [_column(*left), _column(*right)])
        for name in (*TIGHTEST_LISTS, "list.concat")
        for left in variants
        for right in variants
    ]
    values = [_column(dt.Int64()), _column(dt.Int64(), True), ("value", 3)]
    calls += [(name, [_column(*v), value]) for name in TIGHTEST_VALUES for v in variants for value in values]
    positions = [("value", 2), ("value", -4), _column(dt.Int32()), _column(dt.Int32(), True)]
    calls += [("array_insert", [_column(*v), p, value]) for v in variants for value in values for p in positions]
    calls += [
        (name, [_column(*v)])
        for name in ("array_compact", "array_max", "array_min", "array_distinct", "array_sort", "list.reverse")
        for v in variants
    ]
    calls += [("flatten", [_column(t, nullable)]) for t in NESTED for nullable in (False, True)]
    calls += [("arrays_zip", [_column(*v), _column(dt.List(dt.String(), True))]) for v in variants]
    flags = (False, True)
    calls += [("array_repeat", [_column(dt.Int64(), a), _column(dt.Int32(), b)]) for a in flags for b in flags]
    _check(wide, calls)


@pytest.mark.spark
def test_lists_of_lists_meet_element_by_element(wide: Wide) -> None:
    a, b = NESTED
    calls = [
        ("array_union", [_column(a), _column(b, True)]),
        ("array_except", [_column(b), _column(a)]),
        ("arrays_overlap", [_column(a, True), _column(b)]),
        ("array_position", [_column(a), _column(dt.List(dt.Int64(), True))]),
        ("array_append", [_column(b), _column(dt.List(dt.Int64(), False))]),
        ("array", [_column(dt.List(dt.Int64(), False)), _column(dt.List(dt.Int64(), True), True)]),
        ("list.concat", [_column(a), _column(a, True)]),
    ]
    _check(wide, calls)


# --- lookups -------------------------------------------------------------------------------------------


@pytest.mark.spark
def test_lookups_into_a_written_list_know_each_items_nullability(wide: Wide) -> None:
    not_null, nullable = wide.column(dt.Int64(), False), wide.column(dt.Int64(), True)
    written = F.array(not_null, nullable, F.col(not_null) + 1)
    exprs: dict[str, Expr[Any]] = {}
    for position in (1, 2, 3, -1, -2, -3, 4, -4):
        exprs[f"try_{position}".replace("-", "m")] = F.try_element_at(written, position)
    for position in (1, 2, 3, -1, -3):
        exprs[f"at_{position}".replace("-", "m")] = F.element_at(written.alias("w"), position)
    for index in (0, 1, 2, 3, -1):
        exprs[f"get_{index}".replace("-", "m")] = F.get(written, index)
        exprs[f"list_get_{index}".replace("-", "m")] = written.list.get(index)
    exprs["first"], exprs["last"] = written.list.first(), written.list.last()
    exprs["at_column"] = F.element_at(written, F.col(wide.column(dt.Int32(), False)))
    exprs["elsewhere"] = F.element_at(F.col(wide.column(dt.List(dt.Int64(), False), False)), 1)
    exprs["elsewhere_column"] = F.element_at(
        F.col(wide.column(dt.List(dt.Int64(), False), False)), F.col(wide.column(dt.Int32(), False))
    )
    candidates = {n: catalog_tests.Candidate(e.node.function, [], "row", e) for n, e in exprs.items()}  # type: ignore[attr-defined]
    assert catalog_tests.type_mismatches(wide, candidates) == []
    failing = ("at_", "elsewhere")  # element_at fails past the end of the wide frame's lists
    got = wide.frame.select(**{n: e for n, e in exprs.items() if not n.startswith(failing)}).to_dict()
    plain = wide.frame.to_spark()
    items = sf.array(not_null, nullable, sf.col(not_null) + 1)
    expected = plain.select(sf.try_element_at(items, sf.lit(-1)).alias("try_m1"), sf.get(items, 1).alias("get_1"))
    assert got["try_m1"] == expected.toArrow().to_pydict()["try_m1"]
    assert got["get_1"] == expected.toArrow().to_pydict()["get_1"]
    assert got["last"] == got["try_m1"]
    assert got["first"] == got["list_get_0"] == [1, -2, 0, 7]  # the wide frame's bigint values
    assert got["get_3"] == [None] * 4


# --- names of fields ------------------------------------------------------------------------------------


class Pair(DataFrameModel):
    left: int
    right: str | None


@pytest.mark.spark
def test_struct_and_arrays_zip_name_their_fields_as_spark(spark: SparkSession) -> None:
    rows = [{"plain": 1, "tags": [1, 2], "odd name": [3], "pair": {"left": 1, "right": "r"}}]
    schema = pa.schema(
        [
            pa.field("plain", pa.int64(), False),
            pa.field("tags", pa.list_(pa.field("item", pa.int64(), False)), False),
            pa.field("odd name", pa.list_(pa.int64()), True),
            pa.field("pair", pa.struct([pa.field("left", pa.int64(), False), pa.field("right", pa.string())]), False),
        ]
    )
    frame = DataFrame.from_arrow(pa.Table.from_pylist(rows, schema=schema))
    out = frame.select(
        s=F.struct("plain", F.col("plain").alias("renamed"), F.col("plain") + 1, F.col("pair").struct.field("right")),
        z=F.arrays_zip("tags", F.col("odd name"), F.col("tags").alias("t2"), F.slice("tags", 1, 1)),
        z_plain=F.arrays_zip("tags", F.col("tags").list.reverse().alias("backwards")),
    )
    struct_type, zipped, zipped_plain = (f.dtype for f in out.schema)
    assert isinstance(struct_type, dt.Struct)
    assert [f.name for f in struct_type.fields] == ["plain", "renamed", "col3", "right"]
    assert isinstance(zipped, dt.List)
    assert isinstance(zipped.inner, dt.Struct)
    assert [f.name for f in zipped.inner.fields] == ["tags", "odd name", "t2", "3"]
    assert isinstance(zipped_plain, dt.List)
    assert isinstance(zipped_plain.inner, dt.Struct)
    assert [f.name for f in zipped_plain.inner.fields] == ["tags", "backwards"]
    got = out.to_dict()  # the schema Spark reports is checked against the derived one on the way
    assert got["s"] == [{"plain": 1, "renamed": 1, "col3": 2, "right": "r"}]
    assert got["z"] == [
        [{"tags": 1, "odd name": 3, "t2": 1, "3": 1}, {"tags": 2, "odd name": None, "t2": 2, "3": None}]
    ]
    plain = frame.to_spark().select(sf.arrays_zip("tags", sf.reverse("tags").alias("backwards")).alias("z"))
    assert got["z_plain"] == [[r.asDict() for r in plain.collect()[0]["z"]]]


# --- sequences --------------------------------------------------------------------------------------------


@pytest.mark.spark
def test_sequences_of_integers_dates_and_datetimes(wide: Wide) -> None:
    day, hour = datetime.timedelta(days=1), datetime.timedelta(hours=6)
    calls = [
        ("sequence", [_column(dt.Int8()), _column(dt.Int8(), True)]),
        ("sequence", [_column(dt.Int8()), _column(dt.Int64()), _column(dt.Int32())]),
        ("sequence", [_column(dt.Int32(), True), _column(dt.Int32()), ("lit", 2)]),
        ("sequence", [_column(dt.Date()), _column(dt.Date(), True)]),
        ("sequence", [_column(dt.Date()), _column(dt.Date()), ("lit", day * 400)]),
        ("sequence", [_column(dt.Datetime()), _column(dt.Datetime()), ("lit", hour * 4000)]),
        ("sequence", [_column(dt.DatetimeNTZ()), _column(dt.DatetimeNTZ(), True), ("lit", day * 3000)]),
        ("sequence", [_column(dt.Date()), _column(dt.Datetime()), ("lit", day * 1000)]),
        ("sequence", [_column(dt.DatetimeNTZ()), _column(dt.Date()), ("lit", day * 1000)]),  # nullable: the cast
    ]
    _check(wide, calls, values=False)
    ints = wide.frame.select(
        up=F.sequence(F.lit(1), F.lit(5), F.lit(2)),
        down=F.sequence(F.lit(3), F.lit(1)),
        days=F.sequence(F.lit(datetime.date(2024, 2, 27)), F.lit(datetime.date(2024, 3, 1))),
        weekly=F.sequence(F.lit(datetime.date(2024, 1, 1)), F.lit(datetime.date(2024, 1, 20)), F.lit(day * 7)),
    ).to_dict()
    assert ints["up"][0] == [1, 3, 5]
    assert ints["down"][0] == [3, 2, 1]
    assert ints["days"][0] == [datetime.date(2024, 2, d) for d in (27, 28, 29)] + [datetime.date(2024, 3, 1)]
    assert ints["weekly"][0] == [datetime.date(2024, 1, d) for d in (1, 8, 15)]
    (typed,) = wide.frame.select(F.sequence(F.col(wide.column(dt.Int8(), False)), 10)).schema
    assert typed.dtype == dt.List(dt.Int8(), False)  # the bare 10 takes the column's type


# --- maps ---------------------------------------------------------------------------------------------------


class Pairs(DataFrameModel):
    keys: list[str]
    values: list[int | None]
    text: str | None
    k: str
    v: float | None
    m: dict[str, int]
    n: dict[str, int | None] | None


PAIRS = [
    {"keys": ["a", "b"], "values": [1, None], "text": "a=1;b=2", "k": "x", "v": 1.5, "m": {"a": 1}, "n": {"b": None}},
    {"keys": [], "values": [], "text": None, "k": "", "v": None, "m": {}, "n": None},
    {"keys": ["ü"], "values": [3], "text": "k=", "k": "y", "v": -2.0, "m": {"c": 3, "d": 4}, "n": {"e": 5}},
]


@pytest.mark.spark
def test_maps_built_and_read_give_pysparks_values() -> None:
    frame = Pairs.from_rows(PAIRS)
    ours = frame.select(
        built=F.create_map(F.lit("one"), Pairs.v, Pairs.k, 2),
        zipped=F.map_from_arrays(Pairs.keys, Pairs.values),
        entries=F.map_from_entries(F.array(F.struct(Pairs.k.alias("key"), Pairs.v.alias("value")))),
        parsed=F.str_to_map(Pairs.text, F.lit(";"), F.lit("=")),
        parsed_default=F.str_to_map(Pairs.text),
        both=F.map_concat(Pairs.m, Pairs.n),
        listed=F.map_entries(Pairs.m),
        has_a=F.map_contains_key(Pairs.m, "a"),
        a=F.element_at(Pairs.m, "a"),
        keys=Pairs.m.map.keys(),
    )
    spark_frame = frame.to_spark()
    theirs = spark_frame.select(
        sf.create_map(sf.lit("one"), "v", "k", sf.lit(2)).alias("built"),
        sf.map_from_arrays("keys", "values").alias("zipped"),
        sf.map_from_entries(sf.array(sf.struct(sf.col("k").alias("key"), sf.col("v").alias("value")))).alias("entries"),
        sf.str_to_map("text", sf.lit(";"), sf.lit("=")).alias("parsed"),
        sf.str_to_map("text").alias("parsed_default"),
        sf.map_concat("m", "n").alias("both"),
        sf.map_entries("m").alias("listed"),
        sf.map_contains_key("m", "a").alias("has_a"),
        sf.element_at("m", sf.lit("a")).alias("a"),
        sf.map_keys("m").alias("keys"),
    )
    assert ours.to_arrow().to_pydict() == theirs.toArrow().to_pydict()
    built = ours.schema.get("built")
    assert built is not None
    assert built.dtype == dt.Map(dt.String(), dt.Float64(), True)  # the bare 2 met the double values


@pytest.mark.spark
def test_an_empty_array_or_map_takes_the_type_of_the_list_or_map_next_to_it(agrees: Any) -> None:
    """Spark types ``array()``/``create_map()`` ``array<void>``/``map<void,void>`` and coerces them to their
    neighbours' type; the façade types them so, and refuses them where nothing decides (no result holds void)."""
    frame = Pairs.from_rows(PAIRS)
    uses = {
        "coalesced": (F.coalesce(Pairs.keys, F.array()), sf.coalesce("keys", sf.array())),
        "otherwise": (
            F.when(Pairs.k == "x", Pairs.values).otherwise(F.array()),
            sf.when(sf.col("k") == "x", sf.col("values")).otherwise(sf.array()),
        ),
        "joined": (F.concat(F.array(), Pairs.values), sf.concat(sf.array(), "values")),
        "nested": (F.array(F.array(), Pairs.values), sf.array(sf.array(), "values")),
        "union": (F.array_union(Pairs.keys, F.array()), sf.array_union("keys", sf.array())),
        "merged": (F.map_concat(F.create_map(), Pairs.m), sf.map_concat(sf.create_map(), "m")),
        "either": (F.coalesce(Pairs.n, F.create_map()), sf.coalesce("n", sf.create_map())),
        "cast": (F.array().cast(list[int | None]), sf.array().cast("array<bigint>")),
    }
    ours = frame.select(**{name: mine for name, (mine, _) in uses.items()})
    agrees(ours)
    plain = frame.to_spark().select(*[theirs.alias(name) for name, (_, theirs) in uses.items()])
    assert [(f.name, f.dataType, f.nullable) for f in ours.to_spark().schema] == [
        (f.name, f.dataType, f.nullable) for f in plain.schema
    ]
    assert ours.to_arrow().to_pydict() == plain.toArrow().to_pydict()
    # standing alone, Spark's own type is void (its toArrow() cannot hold it): refused when the plan is built
    assert frame.to_spark().select(sf.array().alias("a")).schema["a"].dataType.elementType.typeName() == "void"
    for empty, kind in ((F.array(), "list"), (F.create_map(), "map")):
        with pytest.raises(ColumnTypeError, match=rf"has no element type in .*: Spark would make it a {kind} of void"):
            frame.select(e=empty)
    with pytest.raises(ColumnTypeError, match=r"F.array\(\) has no element type in coalesce\(k, F.array\(\)\)"):
        frame.select(F.coalesce(Pairs.k, F.array()))
    with pytest.raises(ColumnTypeError, match=r"F.array\(\) has no element type in size\(F.array\(\)\)"):
        frame.select(F.size(F.array()))


@pytest.mark.spark
def test_a_literal_position_into_a_list_is_an_int_as_pysparks_lit(agrees: Any) -> None:
    """PySpark's ``lit(1)`` is an ``int``, which Spark takes as a position; the façade's ``F.lit(1)`` (a
    ``bigint``) is taken as one too, where it fits."""
    frame = Pairs.from_rows(PAIRS)
    calls = {
        "first": (F.try_element_at(Pairs.keys, F.lit(1)), sf.try_element_at("keys", sf.lit(1))),
        "last": (F.element_at(Pairs.keys, F.lit(-1)), sf.element_at("keys", sf.lit(-1))),
        "second": (F.try_element_at(Pairs.values, F.lit(2)), sf.try_element_at("values", sf.lit(2))),
    }
    ours = frame.filter(F.size(Pairs.keys) > 0).select(**{name: mine for name, (mine, _) in calls.items()})
    agrees(ours)
    plain = frame.to_spark().filter(sf.size("keys") > 0).select(*[p.alias(name) for name, (_, p) in calls.items()])
    assert ours.to_arrow().to_pydict() == plain.toArrow().to_pydict()
    with pytest.raises(ColumnTypeError, match="a list needs an int"):
        frame.select(F.try_element_at(Pairs.keys, F.lit(2**40)))  # no int holds it


# --- weak literals -----------------------------------------------------------------------------------------


class Lists(DataFrameModel):
    small: list[Annotated[int, dt.Int32]]
    money: list[Annotated[decimal.Decimal, dt.Decimal(10, 2)]]
    words: list[str]
    n: int


def test_bare_python_values_take_the_elements_type() -> None:
    def typed(expr: Expr[Any]) -> str:
        return str(expr.typed)

    assert typed(F.array_append(Lists.small, 1)) == "list[int | None] (array<int>)"
    assert typed(F.array_prepend(Lists.money, 2)) == "list[Decimal | None] (array<decimal(10,2)>)"
    assert typed(F.array_remove(Lists.small, 7)) == "list[int] (array<int not null>)"
    assert typed(F.array_position(Lists.money, 3)) == "int (bigint)"
    assert typed(F.array_insert(Lists.words, 1, "x")) == "list[str | None] (array<string>)"
    assert typed(F.array_append(Lists.small, 1.5)) == "list[float | None] (array<double>)"
    assert typed(F.element_at(Lists.small, 1)) == "int | None (int)"
    assert typed(F.try_element_at(Lists.small, -1)) == "int | None (int)"
    assert typed(F.array(Lists.n, 1, 2.5)) == "list[float] (array<double not null>)"
    assert typed(F.create_map(F.lit("a"), 1, F.lit("b"), Lists.n)) == "dict[str, int] (map<string,bigint not null>)"


# --- refused when built ----------------------------------------------------------------------------------


class C(DataFrameModel):
    ints: list[int]
    holes: list[int | None]
    money: list[Annotated[decimal.Decimal, dt.Decimal(10, 2)]]
    words: list[str]
    maybe_words: list[str | None]
    nested: list[list[int]]
    n: int
    maybe: Annotated[int, dt.Int32] | None
    s: str
    sn: str | None
    d: Annotated[decimal.Decimal, dt.Decimal(10, 2)]
    day: datetime.date
    m: dict[str, int]
    pair: Pair


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: F.array(C.n, C.s), r"F\.array\(\): column 'C\.n' .* and column 'C\.s' .* have no common type"),
        (lambda: F.array_union(C.ints, C.money), r"F\.array_union\(\): column 'C\.ints' .* no common element type"),
        (lambda: F.array_append(C.ints, C.d), r"an integer meets a float type or a decimal with room for it"),
        (lambda: F.array_append(C.words, 1), r"F\.array_append\(\): column 'C\.words' .* and literal 1 .* have no"),
        (lambda: F.arrays_overlap(C.ints, C.words), r"F\.arrays_overlap\(\): .* no common element type"),
        (lambda: F.array_max(F.array(C.m)), r"F\.array_max\(\): col must be a list of values with an order"),
        (lambda: F.flatten(C.ints), r"F\.flatten\(\): col must be a list of lists"),
        (lambda: F.element_at(C.ints, 0), r"F\.element_at\(\): positions are 1-based .* 0 is no position"),
        (lambda: F.element_at(C.ints, C.n), r"F\.element_at\(\): a list needs an int \(1-based\) position"),
        (lambda: F.element_at(C.ints, C.maybe), r"position column 'C\.maybe' .* can be NULL, and Spark then returns"),
        (lambda: F.element_at(C.m, 1), r"F\.element_at\(\): key literal 1 .* does not fit the keys"),
        (lambda: F.get(C.ints, 1.5), r"F\.get\(\): index must be an integer; got literal 1\.5"),
        (lambda: F.slice(C.ints, 0, 1), r"F\.slice\(\): start is 1-based .* 0 is no position, got 0"),
        (lambda: F.slice(C.ints, 1, -1), r"F\.slice\(\): length must be >= 0, got -1"),
        (lambda: F.array_insert(C.ints, 0, 1), r"F\.array_insert\(\): pos is 1-based"),
        (lambda: F.array_repeat(C.n, C.s), r"F\.array_repeat\(\): count must be an integer"),
        (lambda: C.ints.list.slice(1, -2), r"list\.slice\(\): length must be >= 0, got -2"),
        (lambda: C.ints.list.slice("1"), r"list\.slice\(\): offset must be int"),
        (lambda: F.shuffle(C.ints, 1.5), r"F\.shuffle\(\): seed must be int"),
        (lambda: F.sequence(C.n, C.day), r"F\.sequence\(\): column 'C\.n' .* and column 'C\.day' .* must both be"),
        (lambda: F.sequence(C.day, C.day, C.n), r"F\.sequence\(\): step must be a duration here"),
        (lambda: F.sequence(C.n, C.n, datetime.timedelta(1)), r"F\.sequence\(\): step must be an integer here"),
        (lambda: F.sequence(C.n, 9, 0), r"F\.sequence\(\): step must not be zero"),
        (
            lambda: F.sequence(C.day, C.day, datetime.timedelta(hours=1)),
            r"F\.sequence\(\): a sequence of dates steps by whole days",
        ),
        (lambda: F.sequence(C.d, C.d), r"F\.sequence\(\): start must be an integer, a date or a datetime"),
        (lambda: F.create_map(C.s), r"F\.create_map\(\) takes keys and values in pairs; got 1"),
        (lambda: F.create_map(C.n, C.s), r"key column 'C\.n' .* must be a string: the façade's maps have string keys"),
        (lambda: F.create_map(C.sn, C.n), r"key column 'C\.sn' .* can be NULL, which Spark refuses as a map key"),
        (lambda: F.create_map(F.lit("a"), 1, F.lit("a"), 2), r"key 'a' is given twice"),
        (lambda: F.create_map(F.lit("a"), C.n, F.lit("b"), C.s), r"F\.create_map\(\): column 'C\.n' .* no common"),
        (lambda: F.map_from_arrays(C.maybe_words, C.ints), r"keys column 'C\.maybe_words' .* may hold NULLs"),
        (lambda: F.map_from_arrays(C.ints, C.ints), r"F\.map_from_arrays\(\): col1 must be a list of strings"),
        (
            lambda: F.map_from_entries(F.arrays_zip(C.words, C.ints)),
            r"the keys \(field 'words'\) of expression on 'words' .* can be NULL",
        ),
        (lambda: F.map_concat(C.m, C.pair), r"F\.map_concat\(\): cols must be a map"),
        (lambda: F.map_contains_key(C.m, 1), r"F\.map_contains_key\(\): key literal 1 .* does not fit the keys"),
        (lambda: F.str_to_map(C.n), r"F\.str_to_map\(\): text must be a string"),
        (lambda: F.concat(C.s, C.ints), r"F\.concat\(\): takes strings or lists, not both; got column 'C\.s'"),
        (lambda: F.concat(C.ints, C.words), r"F\.concat\(\): column 'C\.ints' .* no common element type"),
        (lambda: F.struct(C.n, C.n), r"F\.struct\(\): two fields would be named 'n'"),
        (lambda: F.arrays_zip(C.ints, C.ints), r"F\.arrays_zip\(\): two fields would be named 'ints'"),
        (lambda: F.named_struct(C.s, C.n), r"a field name must be a string literal \(F\.lit\('name'\)\); got column"),
        (lambda: F.named_struct(F.lit("a"), C.n, F.lit("b")), r"takes names and values in pairs; got 3"),
        (lambda: F.named_struct(F.lit("a"), C.n, F.lit("a"), C.s), r"two fields would be named 'a'"),
        (lambda: F.named_struct(F.lit("${x}"), C.n), r"field name '\$\{x\}' contains '\$\{'"),
    ],
)
def test_calls_spark_would_refuse_or_run_wrongly_are_refused_when_built(build: Any, message: str) -> None:
    with pytest.raises((ColumnTypeError, ArgumentError), match=message):  # a column's type, or a Python argument
        build()


def test_the_result_types_a_user_reads() -> None:
    def typed(expr: Expr[Any]) -> str:
        return str(expr.typed)

    assert typed(F.array_union(C.ints, C.holes)) == "list[int | None] (array<bigint>)"
    assert typed(F.array_intersect(C.ints, C.holes)) == "list[int] (array<bigint not null>)"
    assert typed(F.array_except(C.holes, C.ints)) == "list[int | None] (array<bigint>)"
    assert typed(F.arrays_overlap(C.ints, C.holes)) == "bool | None (boolean)"
    assert typed(F.array_compact(C.holes)) == "list[int] (array<bigint not null>)"
    assert typed(F.flatten(C.nested)) == "list[int] (array<bigint not null>)"
    assert typed(F.element_at(C.ints, 1)) == "int | None (bigint)"
    assert typed(F.element_at(C.ints, F.lit(2).cast(dt.Int32))) == "int | None (bigint)"
    entries = "list[struct] (array<struct<key:string not null,value:bigint not null> not null>)"
    assert typed(F.map_entries(C.m)) == entries
    assert typed(F.str_to_map(C.s)) == "dict[str, str | None] (map<string,string>)"
    assert typed(F.sequence(C.day, C.day)) == "list[date] (array<date not null>)"
    assert typed(F.struct(C.n, C.pair.struct.field("right"))) == "struct (struct<n:bigint not null,right:string>)"
    assert typed(C.ints.list.max()) == "int | None (bigint)"
    assert typed(C.m.map.contains_key("a")) == "bool | None (boolean)"
    assert not F.shuffle(C.ints).node.deterministic  # type: ignore[attr-defined]
    assert F.create_map(F.lit("a"), C.n).node.function.placement.session  # type: ignore[attr-defined]


def test_variadic_functions_also_take_one_list_as_pyspark_does() -> None:
    assert F.array([C.n, 1]).typed == F.array(C.n, 1).typed
    assert F.array((C.n, C.maybe)).typed == F.array(C.n, C.maybe).typed
    assert F.struct([C.n, C.s]).typed == F.struct(C.n, C.s).typed
    assert F.create_map([F.lit("a"), C.n]).typed == F.create_map(F.lit("a"), C.n).typed
    assert F.map_concat([C.m, C.m]).typed == F.map_concat(C.m, C.m).typed
    with pytest.raises(ArgumentTypeError, match=r"F\.arrays_zip\(\): cols takes an expression"):
        F.arrays_zip([C.ints, C.ints])  # PySpark takes no list here either
