"""The error scheme (``pydantable_spark.errors``): which class each kind of mistake raises.

Argument misuse is an ``ArgumentError``: an ``ArgumentTypeError`` (a ``TypeError``) for a
wrong Python type or a call of the wrong shape, an ``ArgumentValueError`` (a ``ValueError``)
for a value the call does not take. What the interface contract calls a ``ValueError`` is one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from pydantable_spark import DataFrameModel, F, cs
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
