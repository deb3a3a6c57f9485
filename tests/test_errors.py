"""The error scheme (``pydantable_spark.errors``): which class each kind of mistake raises.

Argument misuse is an ``ArgumentError``: an ``ArgumentTypeError`` (a ``TypeError``) for a
wrong Python type or a call of the wrong shape, an ``ArgumentValueError`` (a ``ValueError``)
for a value the call does not take. What the interface contract calls a ``ValueError`` is one.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest

from pydantable_spark import DataFrameModel, F, cs, left
from pydantable_spark import errors as e

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


class Point(DataFrameModel):
    x: int
    y: int | None


class Row(DataFrameModel):
    id: int
    name: str
    score: float
    at: Point
    tags: list[str]


class Other(DataFrameModel):
    id: int
    label: str


@pytest.fixture(scope="module")
def frames(spark: SparkSession) -> tuple[Any, Any]:
    rows = [{"id": 1, "name": "a", "score": 1.5, "at": {"x": 1, "y": None}, "tags": ["p"]}]
    return Row.from_rows(rows), Other.from_rows([{"id": 1, "label": "l"}])


CONTRACT_VALUE_ERRORS: dict[str, tuple[Any, type[Exception], str]] = {
    "rename onto an existing name": (
        lambda df, other: df.rename({"name": "id"}),
        e.DuplicateColumnError,
        r"rename\(\): 'name' → 'id' would give two columns one name \(column 'id' has it\)",
    ),
    "join(on=) selector matching nothing": (
        lambda df, other: df.join(other, on=cs.boolean()),
        e.EmptySelectionError,
        r"selector cs.boolean\(\) matches no column; columns: id, name, score, at, tags",
    ),
    "melt selector matching nothing": (
        lambda df, other: df.melt(id_vars="id", value_vars=cs.temporal()),
        e.EmptySelectionError,
        "matches no column",
    ),
    "unnest selector matching nothing": (
        lambda df, other: df.unnest(cs.boolean()),
        e.EmptySelectionError,
        "matches no column",
    ),
    "explode selector matching nothing": (
        lambda df, other: df.explode(cs.temporal()),
        e.EmptySelectionError,
        "matches no column",
    ),
    "pivot(columns=) selector matching several": (
        lambda df, other: df.pivot("id", cs.string() | cs.numeric(), "score", pivot_values=[1]),
        e.ArgumentValueError,
        r"pivot\(columns=...\) takes one column; .* matches id, name, score",
    ),
}


@pytest.mark.parametrize("case", list(CONTRACT_VALUE_ERRORS))
def test_what_the_contract_calls_a_value_error_is_one(frames: tuple[Any, Any], case: str) -> None:
    make, kind, message = CONTRACT_VALUE_ERRORS[case]
    with pytest.raises(ValueError, match=message) as raised:
        make(*frames)
    assert isinstance(raised.value, kind)
    assert isinstance(raised.value, e.PydantableSparkError)


ARGUMENT_MISUSE: dict[str, tuple[Any, type[Exception], str]] = {
    "a Python value of the wrong type": (lambda df: df.limit("3"), e.ArgumentTypeError, r"limit\(\): n must be int"),
    "a value out of range": (lambda df: df.limit(-1), e.ArgumentValueError, r"limit\(\) needs n >= 0"),
    "a choice the call does not have": (
        lambda df: df.unique(keep="middle"),
        e.ArgumentValueError,
        "keep must be 'any', 'first', 'last' or 'none'",
    ),
    "a join kind that does not exist": (
        lambda df: df.join(df, on="id", how="sideways"),
        e.ArgumentValueError,
        "is not a join kind",
    ),
    "arguments the call does not take together": (
        lambda df: df.join(df, on="id", left_on="id", right_on="id"),
        e.ArgumentTypeError,
        "either on= or left_on=",
    ),
    "exclude= on aggregates": (
        lambda df: df.select(F.count(), exclude="id"),
        e.ArgumentTypeError,
        "does not apply to a select of aggregates",
    ),
    "a Python-only parameter given a column": (
        lambda df: F.lag(Row.id, Row.id),
        e.ArgumentTypeError,
        r"F.lag\(\): offset takes a Python value",
    ),
    "a function's value check": (
        lambda df: F.percentile(Row.score, 1.5),
        e.ArgumentValueError,
        "percentage must be between 0 and 1",
    ),
    "an unknown keyword": (lambda df: F.ucase(col=Row.name), e.ArgumentTypeError, r"F.ucase\(\) got unexpected"),
    "a missing argument": (lambda df: F.upper(), e.ArgumentTypeError, r"F.upper\(\) is missing its argument 'col'"),
    "a window of the wrong shape": (
        lambda df: F.row_number().over("id"),
        e.ArgumentTypeError,
        r"over\(\) takes a window",
    ),
    "fill_null(None)": (lambda df: Row.score.fill_null(None), e.ArgumentValueError, "needs a value, not None"),
    "an unknown join hint": (lambda df: df.hint("nested"), e.ArgumentValueError, "is not a Spark join hint"),
    "a storage level of another type": (lambda df: df.persist(1), e.ArgumentTypeError, "must be a str or a pyspark"),
    "a sample fraction out of range": (lambda df: df.sample(2.0), e.ArgumentValueError, "0 <= fraction <= 1"),
    "repartition with nothing": (lambda df: df.repartition(0), e.ArgumentValueError, "needs n >= 1"),
    "a uniqueness check on a join without keys": (
        lambda df: df.join(df, on=left.col("name") != "x", validate="1:1"),
        e.ArgumentValueError,
        "this join has no equal keys",
    ),
}


@pytest.mark.parametrize("case", list(ARGUMENT_MISUSE))
def test_argument_misuse_is_an_argument_error(frames: tuple[Any, Any], case: str) -> None:
    make, kind, message = ARGUMENT_MISUSE[case]
    with pytest.raises(kind, match=message) as raised:
        make(frames[0])
    assert isinstance(raised.value, e.ArgumentError)
    builtin = TypeError if kind is e.ArgumentTypeError else ValueError
    assert isinstance(raised.value, builtin)


def test_column_type_mistakes_stay_column_type_errors() -> None:
    with pytest.raises(e.ColumnTypeError, match=r"unsupported operand types for \+"):
        Row.name + 1
    assert issubclass(e.ColumnTypeError, TypeError)
    assert not issubclass(e.ColumnTypeError, e.ArgumentError)


# --- messages read as sentences about the user's code ------------------------------------------

Wide = type(
    "Wide",
    (DataFrameModel,),
    {"__annotations__": {f"measurement_{i:02d}": float for i in range(60)} | {"label": str, "tags": list[str]}},
)


def _mistakes() -> dict[str, Any]:
    """User mistakes caught when the call is made or the plan is built, each a call that raises."""
    big = F.concat_ws(",", *[F.upper(F.col("label")) for _ in range(30)])
    return {
        "unknown column in a wide frame": lambda df, w: w.select("measurement_7"),
        "a typo in a wide frame": lambda df, w: w.select("lable"),
        "an untyped F.lit(None)": lambda df, w: df.select(x=F.lit(None)),
        "F.lit(None) for a string parameter": lambda df, w: df.select(x=F.upper(F.lit(None))),
        "F.lit(None) deep in a long expression": lambda df, w: w.select(x=F.concat(big, F.upper(F.lit(None)))),
        "F.array() alone": lambda df, w: df.select(x=F.array()),
        "F.create_map() in a long expression": lambda df, w: w.select(x=F.size(F.map_concat(F.create_map()))),
        "string plus int": lambda df, w: df.select(Row.name + 1),
        "a long expression of the wrong type": lambda df, w: w.select(x=big + 1),
        "a non-boolean filter": lambda df, w: df.filter(Row.score),
        "a function on the wrong type": lambda df, w: df.select(F.upper(Row.score)),
        "an impossible cast": lambda df, w: df.select(Row.tags.cast(int)),
        "an aggregate in with_columns' filter": lambda df, w: df.filter(F.sum(Row.score) > 1),
        "a window function without a window": lambda df, w: df.select(F.row_number()),
        "join keys of different types": lambda df, w: df.join(w, left_on="name", right_on="measurement_01"),
        "an unknown join key": lambda df, w: df.join(w, on="nope"),
        "a join condition that is not boolean": lambda df, w: df.join(w, on=Row.score + F.col("measurement_01")),
        "a join condition's column of both frames": lambda df, w: w.join(w, on=big == F.col("label")),
        "a join condition's column of neither frame": lambda df, w: df.join(w, on=F.col("nope") > Row.score),
        "a selector matching nothing": lambda df, w: w.select(cs.temporal()),
        "a wrong Python type": lambda df, w: df.limit("3"),
        "a wrong keyword": lambda df, w: F.upper(column=Row.name),
        "a wrong choice": lambda df, w: df.unique(keep="middle"),
        "a huge wrong value": lambda df, w: df.unique(keep="x" * 1000),
        "a list where a column goes": lambda df, w: df.select([1, 2, 3] * 100),
        "an unknown aggregation": lambda df, w: df.group_by("id").agg(x=("mode", "score")),
        "a rename collision": lambda df, w: df.rename({"name": "id"}),
        "a nested model lookup": lambda df, w: df.select(Row.at.struct.field("z")),
        "as_model to a model it does not fit": lambda df, w: df.as_model(Other),
        "a model without fields": lambda df, w: type("Empty", (DataFrameModel,), {}).from_rows([]),
    }


_INTERNAL_REPR = re.compile(r"\b[A-Z][A-Za-z]*\((?:[a-z_]+=)|object at 0x|<(?:function|class|bound method) ")


@pytest.mark.parametrize("mistake", list(_mistakes()))
def test_every_error_message_is_a_short_sentence_about_the_users_code(spark: SparkSession, mistake: str) -> None:
    """No internal class reprs (``Alias(child=Call(function=Function(...``) and no page-long messages.

    Reconciliation errors (``as_model`` here) end with a side-by-side view of both schemas, as long as
    the schemas are: only their first line is bounded.
    """
    df = Row.from_rows([])
    wide = Wide.from_rows([])
    with pytest.raises(e.PydantableSparkError) as raised:
        _mistakes()[mistake](df, wide)
    message = str(raised.value)
    shown = message.splitlines()[0] if isinstance(raised.value, e.ReconciliationError) else message
    assert len(shown) < 400, message
    assert not _INTERNAL_REPR.search(message), message


@pytest.mark.jvm_free
def test_sparks_reason_reads_the_same_on_classic_and_connect() -> None:
    """Spark Connect puts the JVM exception's class in parentheses before the message; the reason leaves it out."""
    from pydantable_spark._spark.storage import spark_paragraph

    message = "[DATA_SOURCE_NOT_FOUND] Failed to find the data source: delta. SQLSTATE: 42K02"
    classic = f"org.apache.spark.SparkClassNotFoundException: {message}\n\tat org.apache.spark.sql.X.y(X.scala:1)"
    connect = f"(org.apache.spark.SparkClassNotFoundException) {message}\n\nJVM stacktrace:\n\tat org.x.Y.z(Y.scala:2)"
    assert spark_paragraph(classic) == spark_paragraph(connect) == message
