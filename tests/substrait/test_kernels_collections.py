"""The collection kernels against Spark: one frame of edge rows, one select of many calls, both engines compared.

The catalog's generated comparison (``tests/expr/test_catalog.py``) tries every
entry on four ordinary rows; here the rows are the hard ones: NaN, ``-0.0``
beside ``0.0``, NULL lists and NULL elements, empty lists, characters outside
the BMP, integer extremes, sequences whose length overflows a long, sorts that
take Java's primitive path. Where Spark (ANSI) fails on a value, the local
engine must fail with the same error class. Sequences of timestamps add a day
in the session's zone (across a DST change in New York).
"""

from __future__ import annotations

import datetime
import math
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pytest

from pydantable_spark import DataFrame, F
from pydantable_spark import dtypes as dt
from pydantable_spark.arrow import arrow_field
from pydantable_spark.errors import LocalEngineError, SparkJobError, UnsupportedEngineError

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

pytestmark = pytest.mark.spark

NAN = math.nan
INF = math.inf
UTC = datetime.timezone.utc


def same(a: Any, b: Any) -> bool:
    """Equal values, a float's sign and NaN included, nested values element by element."""
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def assert_same_on_both_engines(frame: DataFrame[Any]) -> None:
    """Spark's Arrow result and the local engine's: the same schema, and the same values row by row."""
    theirs = frame.to_arrow()
    ours = frame.to_arrow(engine="local")
    assert ours.schema == theirs.schema
    differences = []
    for name in theirs.column_names:
        spark_values, local_values = theirs.column(name).to_pylist(), ours.column(name).to_pylist()
        for row, (mine, other) in enumerate(zip(local_values, spark_values, strict=True)):
            if not same(mine, other):
                differences.append(f"{name} row {row}: local {mine!r} vs Spark {other!r}")
    assert differences == [], "\n".join(differences)


def assert_fails_on_both_engines(frame: DataFrame[Any], error_class: str) -> None:
    """Spark fails with ``error_class``; so does the local engine (the kernel's ``SparkError``)."""
    with pytest.raises(SparkJobError, match=error_class.replace(".", r"\.")):
        frame.to_arrow()
    with pytest.raises(LocalEngineError, match=error_class.replace(".", r"\.")):
        frame.to_arrow(engine="local")


def frame_of(columns: dict[str, tuple[dt.DType, bool, list[Any]]]) -> DataFrame[Any]:
    """A frame from columns given as (type, nullable, values)."""
    fields = [arrow_field(dt.Field(name, dtype, nullable)) for name, (dtype, nullable, _) in columns.items()]
    arrays = [pa.array(values, type=f.type) for f, (_, _, values) in zip(fields, columns.values(), strict=True)]
    return DataFrame.from_arrow(pa.Table.from_arrays(arrays, schema=pa.schema(fields)))


def _list(inner: dt.DType, contains_null: bool = True) -> dt.List:
    return dt.List(inner, contains_null)


PAIR = dt.Struct((dt.Field("a", dt.Float64(), True), dt.Field("b", dt.String(), True)))
D = Decimal


def edge_rows() -> DataFrame[Any]:
    """Six rows of edge values, one column per kind of list, map and argument."""
    day = datetime.date
    moment = datetime.datetime
    return frame_of(
        {
            "d": (
                _list(dt.Float64(), False),
                False,
                [
                    [0.0, -0.0, NAN, 1.0, -1.0, -INF, INF],
                    [],
                    [-0.0, 0.0],
                    [NAN, NAN, 2.5],
                    [0.0, -0.0],
                    [1e300, -1e-300],
                ],
            ),
            "dn": (
                _list(dt.Float64()),
                True,
                [[1.0, None, -0.0, 0.0, NAN], [None], [], None, [NAN, None, NAN], [-0.0]],
            ),
            "f": (
                _list(dt.Float32(), False),
                False,
                [[1.5, -0.0, 0.0, NAN], [], [3.0e38], [-1.0, 1.0], [0.0, -0.0], [NAN]],
            ),
            "i": (
                _list(dt.Int32()),
                False,
                [[1, 2, 3, None], [], [None, None], [2147483647, -2147483648], [3, 1, 2], [7]],
            ),
            "s": (
                _list(dt.String()),
                True,
                [["😀", "a", None, ""], ["", ""], [], ["b", "B", "é", "e\u0301", "\uffff"], None, ["x"]],
            ),
            "ks": (
                _list(dt.String(), False),
                False,
                [["a", "b"], [], ["😀"], ["", "x"], ["k"], ["p", "q", "r"]],
            ),
            "b": (
                _list(dt.Binary(), False),
                False,
                [[b"\xff", b"\x00", b""], [], [b"a", b"a"], [b"\x80", b"\x7f"], [b""], [b"z"]],
            ),
            "dec": (
                _list(dt.Decimal(10, 2)),
                False,
                [
                    [D("1.50"), D("-0.01"), None, D("1.5")],
                    [],
                    [D("99999999.99"), D("-99999999.99")],
                    [D(0)],
                    [None],
                    [D("2")],
                ],
            ),
            "days": (
                _list(dt.Date(), False),
                False,
                [
                    [day(2024, 2, 29), day(1, 1, 1), day(9999, 12, 31)],
                    [],
                    [day(1970, 1, 1)],
                    [day(2000, 1, 1)] * 2,
                    [],
                    [day(1969, 12, 31)],
                ],
            ),
            "ts": (
                _list(dt.Datetime()),
                False,
                [
                    [moment(2024, 3, 10, 7, 30, tzinfo=UTC), None, moment(1970, 1, 1, tzinfo=UTC)],
                    [],
                    [moment(2024, 11, 3, 5, 30, tzinfo=UTC)],
                    [None],
                    [moment(1900, 1, 1, 0, 0, 0, 1, tzinfo=UTC)],
                    [moment(2038, 1, 19, 3, 14, 8, tzinfo=UTC)],
                ],
            ),
            "nest": (
                _list(_list(dt.Int64())),
                True,
                [[[1, 2], [3]], [[1], None], [], None, [[], [None]], [[2, 1], [2, 1], [1]]],
            ),
            "st": (
                _list(PAIR),
                False,
                [
                    [{"a": 0.0, "b": "x"}, {"a": -0.0, "b": "x"}, None, {"a": NAN, "b": None}, {"a": NAN, "b": None}],
                    [],
                    [None, None],
                    [{"a": 1.0, "b": "y"}, {"a": 1.0, "b": None}],
                    [{"a": -1.0, "b": "😀"}],
                    [{"a": None, "b": None}, {"a": 2.0, "b": "a"}],
                ],
            ),
            "row": (
                PAIR,
                True,
                [
                    {"a": -0.0, "b": "x"},
                    None,
                    {"a": NAN, "b": None},
                    {"a": 1.0, "b": "😀"},
                    {"a": None, "b": ""},
                    {"a": 5.0, "b": "z"},
                ],
            ),
            "m": (
                dt.Map(dt.String(), dt.Int64(), True),
                True,
                [[("a", 1), ("b", None)], [], None, [("😀", 5)], [("a", 2)], [("c", 3), ("", 0)]],
            ),
            "m2": (
                dt.Map(dt.String(), dt.Float64(), False),
                False,
                [[("x", 1.5)], [("x", -0.0)], [], [("y", NAN)], [("z", 1.0)], [("q", 2.0)]],
            ),
            "pos": (dt.Int32(), False, [1, -1, 2, -3, 3, 1]),
            "far": (dt.Int32(), False, [7, -7, -1, 4, -5, 2]),
            "nz": (dt.Int32(), True, [1, -1, 5, -7, None, 3]),
            "idx": (dt.Int32(), True, [0, -1, 5, None, 2, 1]),
            "k": (dt.String(), False, ["a", "b", "😀", "", "a", "zz"]),
            "x": (dt.Float64(), True, [NAN, -0.0, 0.0, None, 1.0, 2.0]),
            "y": (dt.Float64(), True, [NAN, 0.0, None, None, 1.0, 3.0]),
            "n": (dt.Int64(), True, [9007199254740993, 0, None, 1, 3, -2]),
            "lo": (dt.Int64(), False, [1, 5, 0, -3, 9223372036854775800, -9223372036854775808]),
            "hi": (dt.Int64(), False, [5, 1, 0, 3, 9223372036854775807, 9223372036854775807]),
            "step": (dt.Int64(), False, [1, -2, 3, 2, 5, 9223372036854775807]),
            "small": (dt.Int8(), False, [-128, 127, 0, 5, -5, 1]),
            "small2": (dt.Int8(), False, [-126, 120, 3, 0, -5, 3]),
            "start": (
                dt.Date(),
                False,
                [day(2024, 2, 27), day(2024, 3, 2), day(2024, 1, 1), day(1, 1, 1), day(2000, 1, 1), day(9999, 12, 30)],
            ),
            "stop": (
                dt.Date(),
                True,
                [day(2024, 3, 1), day(2024, 2, 28), day(2024, 1, 1), day(1, 1, 3), None, day(9999, 12, 31)],
            ),
            "txt": (dt.String(), True, ["a:1,b", "", "x,", "a:1:2", "😀:x,b:", None]),
            "semi": (dt.String(), False, ["a=1;b=2", "=1", "x", "k=v=w;", "=;z", "é=1"]),
        }
    )


def test_lists_sizes_and_lookups_give_sparks_values(spark: SparkSession) -> None:
    frame = edge_rows()
    c = F.col
    out = frame.select(
        size_d=F.size("d"),
        size_dn=F.size("dn"),
        card_m=F.cardinality("m"),
        array_size=F.array_size("s"),
        try_at=F.try_element_at("i", c("nz")),
        try_at_map=F.try_element_at("m", c("k")),
        at_map=F.element_at("m", c("k")),
        get=F.get("i", c("idx")),
        list_get=c("s").list.get(c("idx")),
        first=c("dn").list.first(),
        last=c("st").list.last(),
        contains=F.array_contains("dn", c("x")),
        contains_zero=F.array_contains("d", c("x")),
        contains_big=F.array_contains("i", c("n")),
        contains_struct=F.array_contains("st", c("row")),
        position=F.array_position("d", c("x")),
        position_str=F.array_position("s", c("k")),
        overlap=F.arrays_overlap("d", "dn"),
        overlap_empty=F.arrays_overlap("dn", F.array(c("x"))),
        overlap_nest=F.arrays_overlap("nest", "nest"),
        contains_any=c("i").list.contains_any([1, 7]),
        contains_all=c("i").list.contains_all([1, 2]),
        has_key=c("m").map.has_any_key(["a", "😀"]),
        list_empty=c("s").list.is_empty(),
        map_empty=c("m").map.is_empty(),
        max_d=F.array_max("d"),
        min_d=F.array_min("d"),
        max_dn=F.array_max("dn"),
        min_f=F.array_min("f"),
        max_s=F.array_max("s"),
        min_s=F.array_min("s"),
        max_b=F.array_max("b"),
        min_dec=F.array_min("dec"),
        max_days=F.array_max("days"),
        min_ts=F.array_min("ts"),
        max_nest=F.array_max("nest"),
        min_st=F.array_min("st"),
        keys=F.map_keys("m"),
        values=F.map_values("m"),
        entries=F.map_entries("m2"),
        has=F.map_contains_key("m", c("k")),
        field=c("row").struct.field("a"),
    )
    assert_same_on_both_engines(out)


def test_lists_built_and_changed_give_sparks_values(spark: SparkSession) -> None:
    frame = edge_rows()
    c = F.col
    out = frame.select(
        array=F.array(c("x"), c("n"), c("pos")),
        array_str=F.array(c("k"), F.lit(None).cast(str)),
        array_nested=F.array("d", "dn"),
        repeat=F.array_repeat(c("k"), c("pos")),
        repeat_null=F.array_repeat(c("x"), 2),
        seq=F.sequence(c("lo"), c("hi"), c("step")),
        seq_default=F.sequence(c("pos"), c("far")),
        seq_small=F.sequence(c("small"), c("small2")),
        seq_dates=F.sequence(c("start"), c("stop")),
        append=F.array_append("i", c("n")),
        prepend=F.array_prepend("dn", c("x")),
        insert=F.array_insert("i", c("far"), c("n")),
        insert_at=F.array_insert("s", c("pos"), c("k")),
        remove=F.array_remove("d", c("x")),
        remove_zero=F.array_remove("dn", -0.0),
        compact=F.array_compact("dn"),
        compact_s=F.array_compact("s"),
        sliced=F.slice("i", c("pos"), 2),
        sliced_far=F.slice("d", c("far"), 3),
        list_slice=c("d").list.slice(1, 2),
        list_slice_end=c("dn").list.slice(-2),
        reverse=c("s").list.reverse(),
        concat=c("d").list.concat(c("dn")),
        concat_ints=c("i").list.concat(F.array(c("n"))),
        flat=F.flatten("nest"),
        zipped=F.arrays_zip("d", "i", "s"),
        joined=F.array_join("s", ","),
        joined_null=F.array_join("s", "", "∅"),
        struct=F.struct("x", "k"),
        named=F.named_struct(F.lit("p"), c("x"), F.lit("q"), c("m")),
        created=F.create_map(c("k"), c("x"), F.lit("const"), c("n")),
        from_arrays=F.map_from_arrays("ks", F.array_repeat(c("x"), F.size("ks"))),
        from_entries=F.map_from_entries(F.map_entries("m")),
        concat_maps=F.map_concat("m2", "m"),
        str_map=F.str_to_map("txt"),
        str_map_semi=F.str_to_map("semi", F.lit(";"), F.lit("=")),
    )
    assert_same_on_both_engines(out)


def test_sorts_and_sets_give_sparks_values(spark: SparkSession) -> None:
    """NaN largest, ``-0.0`` before ``0.0`` only on Java's primitive sort, one NaN and one NULL in a set."""
    frame = edge_rows()
    c = F.col
    out = frame.select(
        sort_d_desc=F.sort_array("d", False),
        sort_dn=F.sort_array("dn"),
        sort_dn_desc=F.sort_array("dn", False),
        sort_f=F.sort_array("f", False),
        array_sort_d=F.array_sort("d"),
        array_sort_dn=F.array_sort("dn"),
        sort_s=F.sort_array("s"),
        sort_b=F.sort_array("b", False),
        sort_dec=F.sort_array("dec"),
        sort_days=F.array_sort("days"),
        sort_ts=F.sort_array("ts"),
        sort_st=F.sort_array("st"),
        sort_st_desc=F.sort_array("st", False),
        sort_nest=F.array_sort("nest"),
        list_sort=c("dn").list.sort(),
        list_sort_desc=c("dn").list.sort(descending=True),
        distinct_d=F.array_distinct("d"),
        distinct_dn=F.array_distinct("dn"),
        distinct_f=F.array_distinct("f"),
        distinct_st=F.array_distinct("st"),
        distinct_nest=F.array_distinct("nest"),
        distinct_s=F.array_distinct("s"),
        distinct_b=F.array_distinct("b"),
        distinct_dec=F.array_distinct("dec"),
        union=F.array_union("d", "dn"),
        union_st=F.array_union("st", "st"),
        union_ints=F.array_union("i", F.array(c("n"))),
        intersect=F.array_intersect("d", "dn"),
        intersect_dn=F.array_intersect("dn", "dn"),
        intersect_nest=F.array_intersect("nest", "nest"),
        except_d=F.array_except("d", "dn"),
        except_dn=F.array_except("dn", "d"),
        except_s=F.array_except("s", F.array(c("k"))),
    )
    assert_same_on_both_engines(out)


ONE = {"i": (_list(dt.Int32()), False, [[1, 2, 3]]), "n": (dt.Int32(), False, [0]), "k": (dt.String(), False, ["a"])}
FAILING = {
    "element_at past the end": (lambda c: F.element_at("i", c("n") + 4), "INVALID_ARRAY_INDEX_IN_ELEMENT_AT"),
    "element_at before the start": (lambda c: F.element_at("i", c("n") - 4), "INVALID_ARRAY_INDEX_IN_ELEMENT_AT"),
    "try_element_at at 0": (lambda c: F.try_element_at("i", c("n")), "INVALID_INDEX_OF_ZERO"),
    "array_insert at 0": (lambda c: F.array_insert("i", c("n"), 9), "INVALID_INDEX_OF_ZERO"),
    "slice from 0": (lambda c: F.slice("i", c("n"), 1), "INVALID_PARAMETER_VALUE.START"),
    "slice of negative length": (lambda c: F.slice("i", 1, c("n") - 1), "INVALID_PARAMETER_VALUE.LENGTH"),
    "create_map with a key twice": (lambda c: F.create_map(c("k"), 1, F.lit("a"), 2), "DUPLICATED_MAP_KEY"),
    "map_concat with a key twice": (
        lambda c: F.map_concat(F.create_map(c("k"), 1), F.create_map(c("k"), 2)),
        "DUPLICATED_MAP_KEY",
    ),
    "map_from_arrays with a key twice": (
        lambda c: F.map_from_arrays(F.array(c("k"), c("k")), F.slice("i", 1, 2)),
        "DUPLICATED_MAP_KEY",
    ),
    "str_to_map with a key twice": (
        lambda c: F.str_to_map(F.array_join(F.array(c("k"), F.lit("1,a:2")), ":")),
        "DUPLICATED_MAP_KEY",
    ),
    "a constant failing when the query runs": (lambda c: F.element_at(F.array(F.lit(1)), 3), "INVALID_ARRAY_INDEX"),
    "map_from_arrays of other lengths": (
        lambda c: F.map_from_arrays(F.array(c("k")), "i"),
        "The key array and value array of MapData must have the same length",
    ),
    "sequence the wrong way": (lambda c: F.sequence(c("n"), F.lit(3), F.lit(-1)), "Illegal sequence boundaries"),
    "array_insert far before the start": (
        lambda c: F.array_insert("i", c("n") - 2147483647, 1),
        "COLLECTION_SIZE_LIMIT_EXCEEDED.FUNCTION",
    ),
    "array_repeat longer than an array": (
        lambda c: F.array_repeat("k", c("n") + 2147483647),
        "COLLECTION_SIZE_LIMIT_EXCEEDED.PARAMETER",
    ),
    "sequence longer than an array": (
        lambda c: F.sequence(F.lit(-9223372036854775808) + c("n"), F.lit(9223372036854775807)),
        "COLLECTION_SIZE_LIMIT_EXCEEDED.PARAMETER",
    ),
}


@pytest.mark.parametrize("case", sorted(FAILING))
def test_where_spark_fails_the_local_engine_fails_alike(spark: SparkSession, case: str) -> None:
    made, error_class = FAILING[case]
    assert_fails_on_both_engines(frame_of(ONE).select(r=made(F.col)), error_class)


ZONED = {
    "at": (
        dt.Datetime(),
        False,
        [datetime.datetime(2024, 3, 9, 7, 30, tzinfo=UTC), datetime.datetime(2024, 11, 2, 5, 30, tzinfo=UTC)],
    ),
    "until": (
        dt.Datetime(),
        False,
        [datetime.datetime(2024, 3, 12, 7, 0, tzinfo=UTC), datetime.datetime(2024, 10, 30, 4, 0, tzinfo=UTC)],
    ),
    "wall": (dt.DatetimeNTZ(), False, [datetime.datetime(2024, 3, 10, 2, 30), datetime.datetime(2024, 11, 3, 1, 30)]),
    "day": (dt.Date(), False, [datetime.date(2024, 3, 10), datetime.date(2024, 11, 3)]),
    "moments": (
        _list(dt.Datetime()),
        False,
        [[datetime.datetime(2024, 3, 10, 5, 0, tzinfo=UTC)], [datetime.datetime(2024, 11, 3, 4, 0, tzinfo=UTC)]],
    ),
}


def test_the_session_time_zone_applies(spark: SparkSession) -> None:
    """A day added across a DST change (wall clock kept, a gap skipped), a date met as midnight in the zone."""
    previous = spark.conf.get("spark.sql.session.timeZone")
    spark.conf.set("spark.sql.session.timeZone", "America/New_York")
    try:
        c = F.col
        out = frame_of(ZONED).select(
            days=F.sequence(c("at"), c("until")),
            days_down=F.sequence(c("until"), c("at")),
            walls=F.sequence(c("wall"), c("wall")),
            dates_as_moments=F.array(c("day"), c("at")),
            walls_as_moments=F.array(c("wall"), c("at")),
            holds_day=F.array_contains("moments", c("day")),
            since_day=F.sequence(c("day"), c("until")),
        )
        assert_same_on_both_engines(out)
    finally:
        spark.conf.set("spark.sql.session.timeZone", previous)


@pytest.mark.jvm_free
def test_an_ascending_sort_of_floats_without_nulls_is_refused() -> None:
    """Spark orders ``-0.0`` and ``0.0`` there by the plan's shape: generated code sorts as Java's ``Arrays.sort``,
    in-memory rows by Spark's stable comparator (both measured)."""
    frame = edge_rows()
    for sort in (F.sort_array("d"), F.sort_array("f", True), F.col("d").list.sort()):
        with pytest.raises(UnsupportedEngineError, match=r"Spark orders -0\.0 and 0\.0 in it by the shape of the plan"):
            frame.select(r=sort).to_arrow(engine="local")
    assert frame.select(r=F.array_sort("d")).to_dict(engine="local")["r"][2] == [-0.0, 0.0]


@pytest.mark.jvm_free
def test_str_to_map_with_a_regular_expression_is_refused() -> None:
    frame = frame_of(ONE)
    with pytest.raises(UnsupportedEngineError, match=r"str_to_map\(\) text only at constant delimiters"):
        frame.select(r=F.str_to_map("k", F.lit("|"))).to_arrow(engine="local")
