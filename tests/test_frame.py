"""Frame operations: derived schemas, values on Spark, and every error path."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from pydantable_spark import DataFrame, DataFrameModel, F
from pydantable_spark import dtypes as dt
from pydantable_spark._spark import lower as lowering
from pydantable_spark.errors import (
    ArgumentTypeError,
    ArgumentValueError,
    ColumnTypeError,
    DuplicateColumnError,
    MissingColumnError,
    NullabilityError,
    UnknownColumnError,
)

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


pytestmark = pytest.mark.jvm_free
"""These tests run without a JVM (pytest -m "not spark"); the ones marked spark get the session."""


class User(DataFrameModel):
    id: int
    name: str
    age: int | None


ROWS = [
    {"id": 1, "name": "Ada", "age": 36},
    {"id": 2, "name": "Bob", "age": None},
    {"id": 3, "name": "Cy", "age": 17},
    {"id": 4, "name": "Di", "age": 36},
]


@pytest.fixture(scope="module")
def users(spark: SparkSession) -> DataFrame[User]:
    return User.from_rows(ROWS)


@pytest.mark.spark
def test_quickstart_from_the_issue(users: Any) -> None:
    df = User.from_rows([{"id": 1, "name": "Ada", "age": 36}, {"id": 2, "name": "Bob", "age": None}])
    out = df.filter(User.age >= 18).select(User.id, (User.age + 1).alias("next"))
    assert str(out.schema) == "id: int (bigint)\nnext: int | None (bigint)"
    rows = out.collect()
    assert [r.model_dump() for r in rows] == [{"id": 1, "next": 37}]
    assert type(rows[0]).__name__ == "Row"


@pytest.mark.spark
def test_select_names_expressions_and_keywords(users: Any) -> None:
    out = users.select("name", User.id, older=User.age + 10, one=1)
    assert out.columns == ["name", "id", "older", "one"]
    assert out.dtypes == {"name": "str", "id": "int", "older": "int | None", "one": "int"}
    assert out.sort("id").to_dict() == {
        "name": ["Ada", "Bob", "Cy", "Di"],
        "id": [1, 2, 3, 4],
        "older": [46, None, 27, 46],
        "one": [1, 1, 1, 1],
    }


def test_select_accepts_lists(users: Any) -> None:
    assert users.select(["id", "name"]).columns == ["id", "name"]


def test_select_errors(users: Any) -> None:
    with pytest.raises(UnknownColumnError, match="unknown column 'nope'.*existing columns: id, name, age"):
        users.select("nope")
    with pytest.raises(DuplicateColumnError, match="two output columns are named 'id'"):
        users.select(User.id, User.id + 1)
    with pytest.raises(ArgumentTypeError, match="at least one column"):
        users.select()
    with pytest.raises(ArgumentTypeError, match="takes column names or expressions"):
        users.select(3)
    with pytest.raises(DuplicateColumnError, match="differ only in case"):
        users.select(User.id, ID=User.id + 1)


def test_exclude_is_refused_on_a_select_of_aggregates(users: Any) -> None:
    # the aggregate named after the excluded column used to disappear silently
    with pytest.raises(ArgumentTypeError, match=r"select\(exclude=...\) does not apply to a select of aggregates"):
        users.select(F.sum(User.age), F.count(), exclude="age")
    with pytest.raises(ArgumentTypeError, match="select of aggregates"):
        users.select(F.sum(User.age), exclude="id")
    assert users.select(F.sum(User.age), F.count()).columns == ["age", "count"]


@pytest.mark.spark
def test_with_columns_adds_and_replaces_in_place(users: Any) -> None:
    out = users.with_columns(User.age.fill_null(0), upper=User.name.str.upper())
    assert out.columns == ["id", "name", "age", "upper"]
    assert str(out.schema["age"]) == "age: bigint not null"
    assert out.sort("id").to_dict()["age"] == [36, 0, 17, 36]
    with pytest.raises(DuplicateColumnError, match="two expressions named 'age'"):
        users.with_columns(User.age + 1, User.age + 2)


def test_filter_needs_a_boolean_expression(users: Any) -> None:
    with pytest.raises(ColumnTypeError, match=r"filter\(\) needs a boolean expression; got column 'User.age'"):
        users.filter(User.age)
    with pytest.raises(ArgumentTypeError, match="needs at least one predicate"):
        users.filter()
    with pytest.raises(UnknownColumnError):
        users.filter(F.col("agee") > 1)


@pytest.mark.spark
def test_filter_with_several_predicates_and_keeps_the_model(users: Any) -> None:
    out = users.filter(User.age > 18, User.name != "Di")
    assert out.model is User
    assert [u.name for u in out.collect()] == ["Ada"]


@pytest.mark.spark
def test_sort_keys_directions_and_nulls(users: Any) -> None:
    assert users.sort(User.age).to_dict()["age"] == [None, 17, 36, 36]
    assert users.sort(User.age, nulls_last=True).to_dict()["age"] == [17, 36, 36, None]
    assert users.sort(User.age, descending=True).to_dict()["age"] == [None, 36, 36, 17]
    ordered = users.sort("age", "id", descending=[True, True], nulls_last=[True, False]).to_dict()
    assert ordered["id"] == [4, 1, 3, 2]
    assert users.sort(-User.id).to_dict()["id"] == [4, 3, 2, 1]
    with pytest.raises(ValueError, match="2 key"):
        users.sort("age", "id", descending=[True])
    with pytest.raises(ArgumentTypeError, match="at least one key"):
        users.sort()


@pytest.mark.spark
def test_limit_and_head(users: Any) -> None:
    assert users.sort("id").limit(2).to_dict()["id"] == [1, 2]
    assert users.sort("id").head(3).count() == 3
    assert users.head().count() == 4
    assert users.limit(0).collect() == []
    with pytest.raises(ValueError, match="n >= 0"):
        users.limit(-1)


@pytest.mark.spark
def test_drop_and_rename(users: Any) -> None:
    assert users.drop("age").columns == ["id", "name"]
    assert users.drop(User.age, User.name).columns == ["id"]
    renamed = users.rename({"age": "years", "name": "who"})
    assert renamed.columns == ["id", "who", "years"]
    assert renamed.sort("id").to_dict()["who"] == ["Ada", "Bob", "Cy", "Di"]
    with pytest.raises(UnknownColumnError, match="in drop"):
        users.drop("nope")
    with pytest.raises(ArgumentValueError, match="every column"):
        users.drop("id", "name", "age")
    with pytest.raises(UnknownColumnError, match="in rename"):
        users.rename({"nope": "x"})
    with pytest.raises(DuplicateColumnError):
        users.rename({"age": "id"})
    with pytest.raises(ArgumentTypeError, match="takes column names or columns"):
        users.drop(User.age + 1)


@pytest.mark.spark
def test_unique(users: Any) -> None:
    assert users.select("age").unique().count() == 3
    assert users.unique(subset="age").count() == 3
    assert users.unique(subset=[User.age]).count() == 3
    assert users.unique().count() == 4
    with pytest.raises(UnknownColumnError, match="unique"):
        users.unique(subset="nope")
    with pytest.raises(ValueError, match="keep='some'"):
        users.unique(keep="some")  # type: ignore[arg-type]


@pytest.mark.spark
def test_as_model_checks_against_the_derived_schema(users: Any) -> None:
    class Out(DataFrameModel):
        id: int
        next: int | None

    out = users.select(User.id, (User.age + 1).alias("next"), User.name).as_model(Out)
    assert out.model is Out
    assert out.columns == ["id", "next"]
    rows = out.sort("id").collect()
    assert isinstance(rows[0], Out)
    assert [r.next for r in rows] == [37, None, 18, 37]

    class Missing(DataFrameModel):
        id: int
        other: str

    with pytest.raises(MissingColumnError, match=r"other: missing from the source; source has: id, name, age") as info:
        users.as_model(Missing)
    assert "! (missing)" in str(info.value)

    class NonNull(DataFrameModel):
        age: int

    with pytest.raises(NullabilityError, match="age: nullable in the source but not null in the target"):
        users.as_model(NonNull)
    with pytest.raises(TypeError, match="Pydantic model class"):
        users.as_model(dict)


def test_as_model_at_a_stage_boundary_runs_no_spark_job(users: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Typed stage boundaries (docs/typing.md): naming a stage's row type is a plan step, checked with no job."""

    class Out(DataFrameModel):
        id: int
        next: int | None

    def no_job(*_: object, **__: object) -> None:
        msg = "a Spark job ran"
        raise AssertionError(msg)

    monkeypatch.setattr(lowering, "execute", no_job)
    monkeypatch.setattr(lowering, "arrow_ready", no_job)
    staged = users.select(User.id, next=User.age + 1).as_model(Out)
    assert (staged.model, staged.columns) == (Out, ["id", "next"])
    with pytest.raises(MissingColumnError, match="next: missing from the source"):
        users.select(User.id).as_model(Out)


@pytest.mark.spark
def test_as_model_with_a_null_check_fails_only_when_a_null_arrives(users: Any) -> None:
    class NonNull(DataFrameModel):
        id: int
        age: int

    checked = users.as_model(NonNull, null_check=["age"])
    assert str(checked.schema["age"]) == "age: bigint not null"
    with pytest.raises(Exception, match="column 'age' holds a NULL"):
        checked.collect()
    with pytest.raises(Exception, match="column 'age' holds a NULL"):
        checked.filter(NonNull.id > 0).collect()  # the filter keeps the row holding the NULL
    # a filter reads the stored value (and runs in the scan): the row it removes is not reported
    assert sorted(r.age for r in checked.filter(NonNull.age > 0).collect()) == sorted(
        r["age"] for r in ROWS if r["age"] is not None
    )
    clean = users.filter(User.age.is_not_null()).as_model(NonNull, null_check=["age"])
    assert len(clean.collect()) == 3


@pytest.mark.spark
def test_as_model_keeps_a_narrower_nullability(users: Any) -> None:
    class Loose(DataFrameModel):
        id: int | None

    out = users.as_model(Loose)
    assert not out.schema["id"].nullable  # Spark keeps non-null sources non-null
    assert out.to_spark().schema["id"].nullable is False


def test_schema_helpers_and_repr(users: Any) -> None:
    assert users.columns == ["id", "name", "age"]
    assert users.model is User
    assert repr(users) == "DataFrame[User](id: int, name: str, age: int | None)"
    assert users.schema["age"] == dt.Field("age", dt.Int64(), True)


def test_explain_shows_plan_schema_and_fused_spark_calls(users: Any) -> None:
    text = users.with_columns(x=User.age + 1).filter(F.col("x") > 1).select("id", "x").explain()
    assert "logical plan:" in text
    assert "Filter [(x > 1)]" in text
    assert "x: int | None (bigint)" in text
    calls = text.split("spark calls (last first):")[1].strip().splitlines()
    assert [c.strip().split(" ")[0] for c in calls] == ["to", "selectExpr", "filter", "scan"]
    assert "filter ((`age` + CAST(1 AS BIGINT)) > CAST(1 AS BIGINT))" in text


@pytest.mark.spark
def test_explain_with_spark_plan(users: Any) -> None:
    assert "== Physical Plan ==" in users.filter(User.age > 1).explain(spark=True)


@pytest.mark.spark
def test_frames_are_immutable_values(users: Any) -> None:
    before = users.schema
    users.with_columns(x=User.id + 1)
    users.filter(User.age > 1)
    assert users.schema == before
    assert users.count() == 4


@pytest.mark.spark
def test_maps_cannot_be_sorted_or_deduplicated(spark: SparkSession) -> None:
    class WithMap(DataFrameModel):
        id: int
        attrs: dict[str, int]

    frame = WithMap.from_rows([{"id": 1, "attrs": {}}])
    with pytest.raises(ColumnTypeError, match="cannot sort by column 'WithMap.attrs'.*maps have no order"):
        frame.sort(WithMap.attrs)
    with pytest.raises(ColumnTypeError, match=r"unique\(\) cannot compare map columns \(attrs\)"):
        frame.unique()
    assert frame.unique(subset="id").count() == 1
    with pytest.raises(ColumnTypeError, match="cannot compare"):
        WithMap.attrs == WithMap.attrs  # noqa: B015


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda f: f.with_row_count(name=1), r"with_row_count\(\): name must be str, got 1 \(int\)"),
        (lambda f: f.with_row_count(offset="1"), r"with_row_count\(\): offset must be int, got '1' \(str\)"),
        (lambda f: f.drop_nulls(threshold="1"), r"drop_nulls\(\): threshold must be int or None, got '1'"),
        (lambda f: f.join(f, on=1), r"join\(on=\.\.\.\) takes a column name, a column, a selector or a list"),
        (lambda f: f.join(1, on="id"), r"join\(\) takes a DataFrame, got 1 \(int\)"),
        (lambda f: f.group_by("name", drop_nulls="yes"), r"group_by\(\): drop_nulls must be bool, got 'yes'"),
        (lambda f: f.unique(subset=1), r"unique\(subset=\.\.\.\) takes a column name"),
        (lambda f: f.fill_null(0, subset=1), r"fill_null\(subset=\.\.\.\) takes a column name"),
        (lambda f: f.explode(1), r"explode\(\) takes a column name"),
        (lambda f: f.rename({1: "a"}), r"rename\(\): a column name must be str, got 1 \(int\)"),
        (lambda f: f.rename(["a"]), r"rename\(\) takes a mapping \{old: new\}, got \['a'\] \(list\)"),
        (lambda f: f.show(n="2"), r"show\(\): n must be int, got '2' \(str\)"),
        (lambda f: f.union(1), r"union\(\) takes a DataFrame, got 1 \(int\)"),
        (lambda f: f.concat(f, 1), r"concat\(\) takes a DataFrame, got 1 \(int\)"),
        (lambda f: f.intersect(None), r"intersect\(\) takes a DataFrame, got None"),
        (lambda f: f.except_all("f"), r"except_all\(\) takes a DataFrame, got 'f' \(str\)"),
        (lambda f: User.age.is_in(1), r"is_in\(\) takes a collection of values, not a single int"),
        (lambda f: F.row_number().over(1), r"over\(\) takes a window \(Window\.partition_by"),
    ],
)
def test_python_arguments_of_the_wrong_type_are_refused_when_the_call_is_made(
    users: Any, call: Any, message: str
) -> None:
    """Issue 13, runtime scalar arguments: each names the call, the parameter and what it takes."""
    with pytest.raises(ArgumentTypeError, match=message):
        call(users)
