"""Joins: every kind, key forms, collisions, nullability, null keys, validation, order."""

from __future__ import annotations

from typing import Any, get_args

import pytest
from pyspark.sql import SparkSession

from pydantable_spark import DataFrameModel, F, cs
from pydantable_spark.errors import (
    ArgumentTypeError,
    ArgumentValueError,
    CardinalityError,
    ColumnTypeError,
    DuplicateColumnError,
    UnknownColumnError,
)
from pydantable_spark.plan.joins import HOW_ALIASES, JoinHowAlias


class User(DataFrameModel):
    id: int
    name: str
    dept: int | None


class Dept(DataFrameModel):
    id: int
    name: str
    budget: float


USERS = [
    {"id": 1, "name": "Ada", "dept": 10},
    {"id": 2, "name": "Bob", "dept": None},
    {"id": 3, "name": "Cy", "dept": 20},
]
DEPTS = [{"id": 10, "name": "eng", "budget": 1.0}, {"id": 30, "name": "ops", "budget": 2.0}]


@pytest.fixture(scope="module")
def users(spark: SparkSession) -> Any:
    return User.from_rows(USERS)


@pytest.fixture(scope="module")
def depts(spark: SparkSession) -> Any:
    return Dept.from_rows(DEPTS)


@pytest.mark.parametrize(
    ("how", "ids", "right_ids", "nullable"),
    [
        ("inner", [1], [10], {"id": False, "id_right": False, "budget": False}),
        ("left", [1, 2, 3], [10, None, None], {"id": False, "id_right": True, "budget": True}),
        ("right", [None, 1], [30, 10], {"id": True, "id_right": False, "budget": False}),
        ("full", [None, 1, 2, 3], [30, 10, None, None], {"id": True, "id_right": True, "budget": True}),
    ],
)
def test_join_kinds_with_side_specific_keys(
    users: Any, depts: Any, agrees: Any, how: str, ids: list[Any], right_ids: list[Any], nullable: dict[str, bool]
) -> None:
    joined = users.join(depts, left_on="dept", right_on="id", how=how)
    assert joined.columns == ["id", "name", "dept", "id_right", "name_right", "budget"]
    assert {k: joined.schema[k].nullable for k in nullable} == nullable
    got = joined.sort("id", "id_right").to_dict()
    assert got["id"] == ids
    assert got["id_right"] == right_ids
    agrees(joined)


def test_a_model_attribute_takes_the_nullability_an_outer_join_gives(
    spark: SparkSession, users: Any, depts: Any, agrees: Any
) -> None:
    """After a left join ``Dept.budget`` is the frame's nullable ``budget``, and what derives from it follows."""
    joined = users.join(depts, left_on="dept", right_on="id", how="left")
    counted = joined.group_by(User.name).agg(
        n=F.count(Dept.budget), top=F.max(Dept.budget * 2), low=F.min(Dept.budget + 1)
    )
    assert str(counted.schema).splitlines() == [
        "name: str (string)",
        "n: int (bigint)",
        "top: float | None (double)",
        "low: float | None (double)",
    ]
    agrees(counted)
    kept = joined.filter(Dept.budget.is_null()).select(User.id, Dept.budget)
    assert kept.schema["budget"].nullable
    agrees(kept)

    from pyspark.sql import functions as sf

    left = spark.createDataFrame([tuple(u.values()) for u in USERS], "id long, name string, dept long")
    right = spark.createDataFrame([tuple(d.values()) for d in DEPTS], "d_id long, d_name string, budget double")
    expected = (
        left.join(right, left["dept"] == right["d_id"], "left")
        .groupBy("name")
        .agg(sf.count("budget").alias("n"), sf.max(sf.col("budget") * 2).alias("top"),
             sf.min(sf.col("budget") + 1).alias("low"))
    )  # fmt: skip
    assert sorted(list(r.model_dump().values()) for r in counted.collect()) == sorted(
        list(r.asDict().values()) for r in expected.collect()
    )
    assert sorted(r.id for r in kept.collect()) == [2, 3]


def test_semi_and_anti_keep_the_left_columns(users: Any, depts: Any, agrees: Any) -> None:
    semi = users.join(depts, left_on="dept", right_on="id", how="semi")
    anti = users.join(depts, left_on="dept", right_on="id", how="anti")
    assert semi.schema == users.schema
    assert semi.to_dict()["id"] == [1]
    assert sorted(anti.to_dict()["id"]) == [2, 3]
    agrees(semi)
    agrees(anti)


def test_on_gives_one_key_column(users: Any, depts: Any, agrees: Any) -> None:
    by_id = users.join(depts, on="id", how="full")
    assert by_id.columns == ["id", "name", "dept", "name_right", "budget"]
    assert by_id.schema["id"].nullable
    assert sorted(by_id.to_dict()["id"]) == [1, 2, 3, 10, 30]
    agrees(by_id)
    right = users.join(depts, on=User.id, how="right")
    assert sorted(right.to_dict()["id"]) == [10, 30]
    agrees(right)


def test_coalesce_merges_side_specific_keys(users: Any, depts: Any, agrees: Any) -> None:
    merged = users.join(depts, left_on="dept", right_on="id", how="inner", coalesce=True, suffix="_d")
    assert merged.columns == ["id", "name", "dept", "name_d", "budget"]
    agrees(merged)
    with pytest.raises(NotImplementedError, match="column keys only"):
        users.join(depts, left_on=User.dept + 0, right_on="id", coalesce=True)


class LeftKeyed(DataFrameModel):
    lk: int
    a: str


class RightKeyed(DataFrameModel):
    rk: int
    b: str


def test_coalesced_keys_are_named_after_the_side_the_contract_keeps(spark: SparkSession, agrees: Any) -> None:
    left = LeftKeyed.from_rows([{"lk": 1, "a": "x"}, {"lk": 2, "a": "y"}])
    right = RightKeyed.from_rows([{"rk": 1, "b": "p"}, {"rk": 3, "b": "q"}])
    kept = {"inner": "lk", "left": "lk", "full": "lk", "right": "rk"}
    for how, key in kept.items():
        merged = left.join(right, left_on="lk", right_on="rk", how=how, coalesce=True)
        assert merged.columns == [key, "a", "b"], how
        agrees(merged)
    right_join = left.join(right, left_on="lk", right_on="rk", how="right", coalesce=True)
    assert right_join.sort("rk").to_dict() == {"rk": [1, 3], "a": ["x", None], "b": ["p", "q"]}
    assert not right_join.schema["rk"].nullable  # right-only rows keep their key
    with pytest.raises(DuplicateColumnError, match="right join with coalesce=True .* 'id' twice"):
        # User has an 'id' of its own, and the merged key would be named after Dept's 'id'
        User.from_rows(USERS).join(Dept.from_rows(DEPTS), left_on="dept", right_on="id", how="right", coalesce=True)


def test_expression_keys_and_selectors(users: Any, depts: Any, agrees: Any) -> None:
    by_expr = users.join(depts, left_on=User.dept * 1, right_on=F.col("id"))
    assert by_expr.to_dict()["id"] == [1]
    agrees(by_expr)
    by_selector = users.select("id", "name").join(depts.select("id", "name"), on=cs.by_name("id", "name"))
    assert by_selector.count() == 0
    agrees(by_selector)


def test_cross_join(users: Any, depts: Any, agrees: Any) -> None:
    crossed = users.join(depts, how="cross")
    assert crossed.count() == 6
    agrees(crossed)
    with pytest.raises(ArgumentTypeError, match="cross join takes no keys"):
        users.join(depts, on="id", how="cross")
    with pytest.raises(ArgumentTypeError, match="a cross join has no keys to merge"):
        users.join(depts, how="cross", coalesce=True)


def test_null_keys_match_only_when_asked(spark: SparkSession, agrees: Any) -> None:
    class K(DataFrameModel):
        k: int | None
        v: str

    left = K.from_rows([{"k": None, "v": "a"}, {"k": 1, "v": "b"}])
    right = K.from_rows([{"k": None, "v": "c"}])
    assert left.join(right, on="k").count() == 0
    safe = left.join(right, on="k", join_nulls=True)
    assert safe.to_dict() == {"k": [None], "v": ["a"], "v_right": ["c"]}
    agrees(safe)


def test_validate_checks_key_cardinality(spark: SparkSession, users: Any, depts: Any) -> None:
    assert users.join(depts, left_on="dept", right_on="id", validate="m:1").count() == 1
    doubled = depts.union(depts)
    with pytest.raises(CardinalityError, match='the right side has 2 rows with key .*"k0":10'):
        users.join(doubled, left_on="dept", right_on="id", validate="many_to_one").count()
    with pytest.raises(CardinalityError, match="the left side"):
        users.union(users).join(depts, left_on="dept", right_on="id", validate="1:1").collect()
    with pytest.raises(ValueError, match="validate='2:2'"):
        users.join(depts, on="id", validate="2:2")


def test_maintain_order_keeps_the_left_order(users: Any, depts: Any) -> None:
    ordered = users.sort("id", descending=True).join(
        depts, left_on="dept", right_on="id", how="left", maintain_order=True
    )
    assert ordered.to_dict()["id"] == [3, 2, 1]
    with pytest.raises(ValueError, match="maintain_order='middle'"):
        users.join(depts, on="id", maintain_order="middle")  # type: ignore[arg-type]


def test_join_errors(users: Any, depts: Any) -> None:
    with pytest.raises(UnknownColumnError, match="unknown column 'dept' in the right frame"):
        users.join(depts, on="dept")
    with pytest.raises(UnknownColumnError, match="nope"):
        users.join(depts, on="nope")
    with pytest.raises(ArgumentValueError, match="left_on has 2 key"):
        users.join(depts, left_on=["dept", "id"], right_on="id")
    with pytest.raises(ColumnTypeError, match="join keys cannot be compared"):
        users.join(depts, left_on="name", right_on="budget")
    with pytest.raises(ColumnTypeError, match="must have the same type to be merged"):
        users.join(depts, left_on="dept", right_on="budget", coalesce=True)
    with pytest.raises(ArgumentTypeError, match="needs on=, or both left_on= and right_on="):
        users.join(depts, left_on="dept")
    with pytest.raises(ArgumentTypeError, match="either on= or left_on="):
        users.join(depts, on="id", left_on="id", right_on="id")
    with pytest.raises(ValueError, match="how='sideways'. is not a join kind"):
        users.join(depts, on="id", how="sideways")  # type: ignore[arg-type]
    assert users.join(depts, on="id", how="outer").columns == users.join(depts, on="id", how="full").columns
    assert set(get_args(JoinHowAlias)) == set(HOW_ALIASES)  # the signature accepts PySpark's spellings
    with pytest.raises(DuplicateColumnError, match="even with suffix"):
        users.with_columns(name_right=User.name).join(depts, on="id")
