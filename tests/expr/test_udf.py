"""Typed Python UDFs: types from annotations, checked when the plan is built, run by Spark with Arrow."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from pydantable_spark import DataFrameModel, F
from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ColumnTypeError

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


class P(DataFrameModel):
    id: int
    name: str
    score: float | None


ROWS = [{"id": 1, "name": "ada", "score": 1.5}, {"id": 2, "name": "bob", "score": None}]


@F.udf
def shout(text: str) -> str:
    return text.upper() + "!"


@F.udf
def halve(value: float | None, by: int) -> float | None:
    return None if value is None else value / by


@pytest.fixture(scope="module")
def people(spark: SparkSession) -> Any:
    return P.from_rows(ROWS)


def test_a_udf_types_its_result_from_its_annotations_and_runs_in_spark(people: Any) -> None:
    out = people.sort(P.id).select(loud=shout(P.name), half=halve(P.score, 2), named=shout("name"))
    assert [(f.name, f.dtype, f.nullable) for f in out.schema] == [
        ("loud", dt.String(), True),  # Spark marks a Python UDF's result nullable, whatever it returns
        ("half", dt.Float64(), True),
        ("named", dt.String(), True),
    ]
    # collect() reconciles the derived schema with Spark's, strictly
    assert out.to_dict() == {"loud": ["ADA!", "BOB!"], "half": [0.75, None], "named": ["ADA!", "BOB!"]}
    kept = people.filter(shout(P.name) == "ADA!").with_columns(again=shout(shout(P.name).fill_null("")))
    assert kept.to_dict()["again"] == ["ADA!!"]


def test_udf_arguments_are_checked_when_the_plan_is_built(people: Any) -> None:
    with pytest.raises(ColumnTypeError, match=r"shout\(\): parameter text is str \(string\); got column 'P.id'"):
        people.select(shout(P.id))
    with pytest.raises(
        ColumnTypeError, match=r"halve\(\): literal None of type int \| None .*can be NULL but parameter by"
    ):
        people.select(halve(P.score, F.lit(None, dtype=int)))
    with pytest.raises(ColumnTypeError, match=r"shout\(\) takes 1 argument\(s\) \(text\), got 2"):
        shout(P.name, P.name)


def test_a_function_without_annotations_is_refused_with_what_to_add() -> None:
    def bare(x):  # type: ignore[no-untyped-def]
        return x

    def no_return(x: int):  # type: ignore[no-untyped-def]
        return x

    def star(*xs: int) -> int:
        return 0

    with pytest.raises(ColumnTypeError, match=r"annotate parameter 'x' with its type"):
        F.udf(bare)
    with pytest.raises(ColumnTypeError, match=r"annotate its return type"):
        F.udf(no_return)
    with pytest.raises(ColumnTypeError, match=r"parameter 'xs' must be a plain positional parameter"):
        F.udf(star)


def _fresh_udfs() -> tuple[Any, Any, Any, Any]:
    """New UDFs (new Spark names), so each is registered by the step that calls it and by no earlier test."""

    @F.udf
    def negated(value: int) -> int:
        return -value

    @F.udf
    def tripled(value: int) -> int:
        return value * 3

    @F.udf
    def initial(text: str) -> str:
        return text[:1]

    @F.udf
    def key_of(text: str) -> str:
        return text.upper()

    return negated, tripled, initial, key_of


def test_a_udf_runs_as_a_sort_key_group_key_aggregate_argument_and_join_key(people: Any) -> None:
    negated, tripled, initial, key_of = _fresh_udfs()
    assert people.sort(negated(P.id)).to_dict()["id"] == [2, 1]
    grouped = people.group_by(initial(P.name).alias("first")).agg(total=F.sum(tripled(P.id))).sort("first")
    assert grouped.to_dict() == {"first": ["a", "b"], "total": [3, 6]}
    keys = P.from_rows(ROWS).select(P.id, upper=F.col("name"))
    joined = people.join(keys, left_on=key_of(P.name), right_on=key_of(F.col("upper")))
    assert sorted(joined.to_dict()["id"]) == [1, 2]
