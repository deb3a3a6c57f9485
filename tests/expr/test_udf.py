"""Typed Python UDFs: types from annotations, checked when the plan is built, run by Spark with Arrow."""

from __future__ import annotations

import threading
from decimal import Decimal
from typing import TYPE_CHECKING, Annotated, Any

import pytest
from pydantic import BaseModel

from pydantable_spark import DataFrameModel, F
from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ColumnTypeError, UdfError

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


@F.udf
def doubled(n: int) -> int:
    return n * 2


def test_a_narrower_column_of_the_same_python_type_is_widened_into_a_parameter(
    spark: SparkSession, people: Any, agrees: Any
) -> None:
    """``F.size`` is an int32 column of Python ints: a parameter annotated ``int`` (bigint) takes it."""
    from pyspark.sql import functions as sf

    words = people.sort(P.id)
    out = words.select(n=doubled(F.size(P.name.str.split("a"))), small=doubled(P.id.cast(dt.Int16)))
    agrees(out)
    plain = spark.createDataFrame([(r["id"], r["name"]) for r in ROWS], "id long, name string").sort("id")
    expected = plain.select((sf.size(sf.split("name", "a")) * 2).alias("n"), (sf.col("id") * 2).alias("small"))
    assert out.to_dict() == {"n": [r.n for r in expected.collect()], "small": [r.small for r in expected.collect()]}
    with pytest.raises(ColumnTypeError, match=r"doubled\(\): parameter n is int \(bigint\); got .* float"):
        words.select(doubled(P.id.cast(float)))  # another Python type is not widened
    with pytest.raises(ColumnTypeError, match=r"shout\(\): parameter text is str \(string\); got .* int \(int\)"):
        words.select(shout(F.size(P.name.str.split("a"))))


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


# --- results are held to the annotation (issue 24) -------------------------------------------------


# Spark's workers unpickle each UDF: one defined in a test module is pickled by value only when the module's
# attribute of that name is not the function itself (F.udf as a decorator), and a result model by value only
# when it is made inside a function (the workers cannot import a test module).


def _inner() -> type[BaseModel]:
    class Inner(BaseModel):
        a: int

    return Inner


Inner = _inner()


@F.udf
def _as_str(x: int) -> int:
    return str(x)  # type: ignore[return-value]


@F.udf
def _fraction(x: int) -> int:
    return x + 0.7  # type: ignore[return-value]


@F.udf
def _wide(x: int) -> Annotated[int, dt.Int32]:
    return 2**31 + x


@F.udf
def _digits(x: int) -> Decimal:
    return Decimal("1." + "1" * 22)


@F.udf
def _number(x: int) -> str:
    return x  # type: ignore[return-value]


@F.udf
def _huge(x: int) -> float:
    return 2**53 + x - 1


@F.udf
def _one(x: int) -> bool:
    return 1  # type: ignore[return-value]


@F.udf
def _extra(x: int) -> Inner:  # type: ignore[valid-type]
    return {"a": x, "extra": 2}


@F.udf
def _none(x: int) -> int:
    return None  # type: ignore[return-value]


@pytest.mark.parametrize(
    ("fn", "said"),
    [
        (_as_str, r"returned '2', which its return annotation int does not allow: Input should be a valid integer"),
        (_fraction, r"returned 2\.7, which its return annotation int does not allow"),
        (_wide, r"returned 2147483650, which its return annotation Annotated\[int, Int32\] does not allow: it does "),
        (_digits, r"returned Decimal\('1\.1111111111111111111111'\), .* does not fit the column's Spark type decimal"),
        (_number, r"returned 2, which its return annotation str does not allow: Input should be a valid string"),
        (_huge, r"returned 9007199254740993, .* float does not allow: a float cannot hold this int exactly"),
        (_one, r"returned 1, which its return annotation bool does not allow"),
        (_extra, r"returned \{'a': 2, 'extra': 2\}, which its return annotation Inner does not allow: unknown key"),
        (_none, r"returned None, which its return annotation int does not allow: the annotation is not Optional"),
    ],
)
def test_a_result_its_annotation_does_not_allow_fails_the_job_naming_udf_row_and_value(
    spark: SparkSession, fn: Any, said: str
) -> None:
    # Spark converted each of these silently: '2' -> 2, 2.7 -> 2, 2**31 -> wrapped, 22 places -> rounded, ...
    frame = P.from_rows([ROWS[1]])  # one row (id 2), so the message is deterministic
    with pytest.raises(UdfError, match=rf"to_dict\(\): UDF {fn.function.name}\(x=2\) {said}") as raised:
        frame.select(out=fn(P.id)).to_dict()
    assert raised.value.__cause__ is not None  # Spark's error, kept


def test_results_that_fit_come_back_exactly(spark: SparkSession) -> None:
    def seven(x: int) -> float:
        return 7  # an int a float holds exactly is taken, as Python's numeric tower allows

    def nested(x: int) -> Inner:  # type: ignore[valid-type]
        return Inner(a=x)

    def narrow(x: int) -> Annotated[int, dt.Int32]:
        return 2**31 - x

    frame = P.from_rows(ROWS).sort(P.id)
    out = frame.select(f=F.udf(seven)(P.id), n=F.udf(nested)(P.id), w=F.udf(narrow)(P.id))
    assert out.schema["w"].dtype == dt.Int32()  # Annotated markers reach the result type
    assert out.to_dict() == {"f": [7.0, 7.0], "n": [{"a": 1}, {"a": 2}], "w": [2**31 - 1, 2**31 - 2]}


def test_an_exception_in_a_udf_is_named_with_its_row(spark: SparkSession) -> None:
    def ratio(x: int) -> int:
        return 10 // (x - 2)

    with pytest.raises(UdfError, match=r"UDF ratio\(x=2\) raised ZeroDivisionError: integer division or modulo"):
        P.from_rows(ROWS).select(r=F.udf(ratio)(P.id)).to_dict()


def test_a_udf_closing_over_what_cannot_be_pickled_is_named(spark: SparkSession) -> None:
    lock = threading.Lock()

    def guarded(x: int) -> int:
        with lock:
            return x

    with pytest.raises(
        UdfError, match=r"F\.udf\(guarded\): it cannot be sent to Spark's Python workers.*_thread\.lock"
    ):
        P.from_rows(ROWS).select(g=F.udf(guarded)(P.id)).to_dict()


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
