"""Joins on conditions: boolean expressions over both frames, alone or with equal keys, for every join kind.

Each result is compared with plain PySpark's ``join(other, on=<Column>, how=...)``
on the same data, row for row (columns in the same order: the left frame's, then
the right frame's), and each derived schema with Spark's (``agrees``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from pyspark.sql import functions as sf

from pydantable_spark import DataFrameModel, F, left, right
from pydantable_spark.errors import (
    AmbiguousSideError,
    ArgumentTypeError,
    ArgumentValueError,
    ColumnTypeError,
    SchemaError,
    UnknownColumnError,
)

if TYPE_CHECKING:
    from pyspark.sql import DataFrame as SparkDataFrame
    from pyspark.sql import SparkSession


class Trip(DataFrameModel):
    id: int
    ts: int
    zone: str | None


class Rate(DataFrameModel):
    id: int
    valid_from: int
    valid_to: int | None
    zone: str


TRIPS = [
    {"id": 1, "ts": 5, "zone": "a"},
    {"id": 2, "ts": 15, "zone": "b"},
    {"id": 3, "ts": 25, "zone": None},
    {"id": 4, "ts": 10, "zone": "a"},
]
RATES = [
    {"id": 1, "valid_from": 0, "valid_to": 10, "zone": "a"},
    {"id": 2, "valid_from": 10, "valid_to": 20, "zone": "a"},
    {"id": 4, "valid_from": 10, "valid_to": None, "zone": "b"},
    {"id": 9, "valid_from": 100, "valid_to": 200, "zone": "c"},
]
HOWS = ["inner", "left", "right", "full", "semi", "anti"]
SPARK_HOW = {"semi": "left_semi", "anti": "left_anti", "full": "full_outer"}


@pytest.fixture(scope="module")
def trips(spark: SparkSession) -> Any:
    return Trip.from_rows(TRIPS)


@pytest.fixture(scope="module")
def rates(spark: SparkSession) -> Any:
    return Rate.from_rows(RATES)


def _rows(frame: SparkDataFrame) -> list[tuple[Any, ...]]:
    return sorted((tuple(row) for row in frame.collect()), key=repr)


def _facade_rows(frame: Any) -> list[tuple[Any, ...]]:
    columns = frame.to_dict()
    return sorted(zip(*columns.values(), strict=True), key=repr)


def _same_as_pyspark(joined: Any, expected: SparkDataFrame) -> None:
    assert len(joined.columns) == len(expected.columns)
    got = _facade_rows(joined)
    assert got == _rows(expected)
    assert got  # every case here matches some rows


@pytest.mark.parametrize("how", HOWS)
def test_a_range_condition_alone(trips: Any, rates: Any, agrees: Any, how: str) -> None:
    joined = trips.join(rates, on=(Trip.ts >= Rate.valid_from) & (Trip.ts < Rate.valid_to), how=how)
    t, r = trips.to_spark(), rates.to_spark()
    expected = t.join(r, (t.ts >= r.valid_from) & (t.ts < r.valid_to), SPARK_HOW.get(how, how))
    _same_as_pyspark(joined, expected)
    agrees(joined)
    if how in ("semi", "anti"):
        assert joined.schema == trips.schema
    else:
        assert joined.columns == ["id", "ts", "zone", "id_right", "valid_from", "valid_to", "zone_right"]


@pytest.mark.parametrize("how", HOWS)
def test_side_keys_and_a_condition(trips: Any, rates: Any, agrees: Any, how: str) -> None:
    """Q13's ``ON c_custkey = o_custkey AND o_comment NOT LIKE ...``: equal keys and a predicate."""
    condition = ~Rate.zone.str.like("b%") & (Trip.ts >= Rate.valid_from)
    joined = trips.join(rates, left_on="id", right_on="id", on=condition, how=how)
    t, r = trips.to_spark(), rates.to_spark()
    on = (t.id == r.id) & ~r.zone.like("b%") & (t.ts >= r.valid_from)
    _same_as_pyspark(joined, t.join(r, on, SPARK_HOW.get(how, how)))
    agrees(joined)


@pytest.mark.parametrize("how", ["inner", "left", "right", "full"])
def test_a_named_key_and_a_condition_keep_one_key_column(trips: Any, rates: Any, agrees: Any, how: str) -> None:
    joined = trips.join(rates, on=["id", Trip.zone != Rate.zone], how=how)
    assert joined.columns == ["id", "ts", "zone", "valid_from", "valid_to", "zone_right"]
    t, r = trips.to_spark(), rates.to_spark()
    expected = t.join(r, (t.id == r.id) & (t.zone != r.zone), SPARK_HOW.get(how, how))
    key = {"right": r.id, "full": sf.coalesce(t.id, r.id)}.get(how, t.id)
    _same_as_pyspark(joined, expected.select(key, t.ts, t.zone, r.valid_from, r.valid_to, r.zone))
    agrees(joined)


def test_a_cross_join_with_a_condition_is_an_inner_join_on_it(trips: Any, rates: Any, agrees: Any) -> None:
    condition = Trip.ts > Rate.valid_from
    crossed = trips.join(rates, on=condition, how="cross")
    assert _facade_rows(crossed) == _facade_rows(trips.join(rates, on=condition))
    t, r = trips.to_spark(), rates.to_spark()
    _same_as_pyspark(crossed, t.join(r, t.ts > r.valid_from, "inner"))
    agrees(crossed)


class Line(DataFrameModel):
    order: int
    supplier: int
    late: bool


LINES = [
    {"order": 1, "supplier": 10, "late": True},
    {"order": 1, "supplier": 11, "late": False},
    {"order": 2, "supplier": 10, "late": True},
    {"order": 3, "supplier": 12, "late": True},
    {"order": 3, "supplier": 12, "late": False},
]


@pytest.mark.parametrize("how", ["semi", "anti"])
def test_a_self_join_names_its_sides(spark: SparkSession, agrees: Any, how: str) -> None:
    """Q21's ``EXISTS (... l2.l_orderkey = l1.l_orderkey AND l2.l_suppkey <> l1.l_suppkey)``."""
    lines = Line.from_rows(LINES)
    other_supplier = lines.join(lines, on=["order", right.col("supplier") != left.col("supplier")], how=how)
    l1, l2 = lines.to_spark().alias("l1"), lines.to_spark().alias("l2")
    on = (sf.col("l1.order") == sf.col("l2.order")) & (sf.col("l2.supplier") != sf.col("l1.supplier"))
    _same_as_pyspark(other_supplier, l1.join(l2, on, SPARK_HOW[how]))
    agrees(other_supplier)
    expected_orders = {"semi": [1, 1], "anti": [2, 3, 3]}[how]
    assert sorted(other_supplier.to_dict()["order"]) == expected_orders


def test_an_scd_lookup_with_open_ended_validity(trips: Any, rates: Any, agrees: Any) -> None:
    """A slowly changing dimension: the rate valid at the trip's time, an open end (NULL) valid for ever."""
    valid = (Trip.ts >= Rate.valid_from) & (Rate.valid_to.is_null() | (Trip.ts < Rate.valid_to))
    looked_up = trips.join(rates, on=[valid, left.col("id") == right.col("id")], how="left")
    assert looked_up.sort("id").to_dict()["valid_from"] == [0, 10, None, 10]
    t, r = trips.to_spark(), rates.to_spark()
    on = (t.ts >= r.valid_from) & (r.valid_to.isNull() | (t.ts < r.valid_to)) & (t.id == r.id)
    _same_as_pyspark(looked_up, t.join(r, on, "left"))
    agrees(looked_up)


def test_columns_find_their_side_by_model_name_or_side(trips: Any, rates: Any) -> None:
    by_model = trips.join(rates, on=Trip.zone == Rate.zone)
    by_side = trips.join(rates, on=left.col("zone") == right.col("zone"))
    by_name = trips.join(rates, on=(F.col("ts") >= F.col("valid_from")) & (Trip.zone == Rate.zone))
    assert _facade_rows(by_model) == _facade_rows(by_side)
    assert by_model.count() == 5  # zone a: 2 trips x 2 rates, zone b: 1 x 1
    assert by_name.count() == 4
    flipped = rates.join(trips, on=Trip.zone == Rate.zone)  # the model says the side, not the position
    assert flipped.count() == 5
    renamed = trips.join(rates.rename({"zone": "area"}), on=Trip.zone == right.col("area"))
    assert renamed.count() == 5


def test_a_boolean_column_of_one_side_is_a_condition(spark: SparkSession, trips: Any, agrees: Any) -> None:
    class Flag(DataFrameModel):
        id: int
        active: bool

    flags = Flag.from_rows([{"id": 1, "active": True}, {"id": 2, "active": False}])
    joined = trips.join(flags, on=["id", right.col("active")], how="left")
    assert joined.sort("id").to_dict()["active"] == [True, None, None, None]
    agrees(joined)
    with pytest.raises(ColumnTypeError, match="needs boolean conditions"):
        trips.join(flags, on=left.col("ts"))


def test_a_condition_keeps_its_literals_and_nulls(trips: Any, rates: Any) -> None:
    matched = trips.join(rates, on=(Trip.zone == Rate.zone) & (Rate.zone != "' OR TRUE OR '"), how="semi")
    assert sorted(matched.to_dict()["id"]) == [1, 2, 4]  # a NULL zone matches nothing
    unmatched = trips.join(rates, on=Trip.zone == Rate.zone, how="anti")
    assert sorted(unmatched.to_dict()["id"]) == [3]


def test_condition_errors(trips: Any, rates: Any) -> None:
    with pytest.raises(ColumnTypeError, match=r"join\(on=...\) needs boolean conditions; got .*'ts' of type int"):
        trips.join(rates, on=Trip.ts + Rate.valid_from)
    with pytest.raises(UnknownColumnError, match="unknown column 'nope' in either frame of the join"):
        trips.join(rates, on=F.col("nope") > 1)
    with pytest.raises(AmbiguousSideError, match=r"column 'zone' is in both frames; say which one: left.col\('zone'\)"):
        trips.join(rates, on=F.col("zone") == "a")
    with pytest.raises(AmbiguousSideError, match="both frames are Trip frames"):
        trips.join(trips, on=Trip.ts < Trip.ts)
    with pytest.raises(UnknownColumnError, match="unknown column 'left.valid_from' in the left frame"):
        trips.join(rates, on=left.col("valid_from") > 1)
    # a model attribute whose frame lost the column (renamed): not the other frame's column of that name
    area = rates.rename({"zone": "area"})
    with pytest.raises(
        AmbiguousSideError,
        match=r"column 'Rate.zone' is a column of Rate, but the left frame is a Trip frame and the right frame "
        r"\(derived by a transform, not a Rate frame\) has no column 'zone' now \(it has id, valid_from, valid_to, "
        r"area\): if it is the right frame's column renamed, write right.col\('area'\); for the Trip frame's "
        r"'zone', write left.col\('zone'\)",
    ):
        trips.join(area, on=Trip.zone == Rate.zone)
    renumbered = trips.rename({"id": "trip_id"})  # two int columns: the new name is not guessed
    with pytest.raises(AmbiguousSideError, match=r"for the left frame's column, write left.col\(<its name now>\)"):
        renumbered.join(rates, on=Trip.id == Rate.valid_from)
    with pytest.raises(ColumnTypeError, match="gives another value each time it runs"):
        trips.join(rates, on=Trip.ts > F.rand() * Rate.valid_from)
    with pytest.raises(ColumnTypeError, match="aggregate"):
        trips.join(rates, on=F.sum(Trip.ts) > Rate.valid_from)
    with pytest.raises(ArgumentValueError, match="this join has no equal keys"):
        trips.join(rates, on=Trip.ts > Rate.valid_from, validate="1:1")
    with pytest.raises(ArgumentTypeError, match="key names in either on= or left_on="):
        trips.join(rates, on=["id", Trip.ts > Rate.valid_from], left_on="id", right_on="id")
    with pytest.raises(ArgumentTypeError, match="cross join takes no keys"):
        trips.join(rates, on=["id", Trip.ts > Rate.valid_from], how="cross")
    with pytest.raises(ArgumentTypeError, match=r"left.col\(\): name must be str"):
        left.col(1)  # type: ignore[arg-type]
    assert issubclass(AmbiguousSideError, SchemaError)


def test_a_key_less_join_is_a_nested_loop_join(trips: Any, rates: Any) -> None:
    """Without an equal key Spark compares every pair of rows (the cost the joins guide states)."""
    plan = trips.join(rates, on=Trip.ts < Rate.valid_from).explain(spark=True)
    assert "NestedLoopJoin" in plan or "CartesianProduct" in plan, plan
    keyed = trips.join(rates, on=["id", Trip.ts < Rate.valid_from]).explain(spark=True)
    assert "NestedLoopJoin" not in keyed, keyed
    assert "CartesianProduct" not in keyed, keyed


def test_explain_shows_the_condition(trips: Any, rates: Any) -> None:
    text = trips.join(rates, on=["id", Trip.zone != Rate.zone], how="left").explain()
    assert "Join [left: id = id, (left.zone != right.zone)]" in text
