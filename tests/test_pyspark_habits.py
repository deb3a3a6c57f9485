"""A PySpark user's habits get an answer: PySpark names say what to write here, a string beside a date says `date`.

The answers come from one mapping (``pydantable_spark.pyspark_names``), which the
migration guide's table is generated from; the tests hold the mapping to PySpark's
own classes (every public name is either here or answered) and to this library's
(every name an answer tells to write exists).
"""

from __future__ import annotations

import copy
import datetime
import inspect
import pickle
import re
from typing import Any

import pytest
from pyspark.sql import Column as SparkColumn
from pyspark.sql import DataFrame as SparkDataFrame
from pyspark.sql import functions as sf
from pyspark.sql.group import GroupedData

from pydantable_spark import DataFrame, DataFrameModel, Expr, F, cs, pyspark_names
from pydantable_spark.errors import ColumnTypeError, PySparkNameError
from pydantable_spark.expr.api import Col
from pydantable_spark.groupby import GroupBy
from tools import migration_table

pytestmark = pytest.mark.jvm_free


class Order(DataFrameModel):
    day: datetime.date
    at: datetime.datetime
    country: str | None
    n: int
    tags: list[str]


ORDERS = Order.from_rows([])
TABLES: list[tuple[type, type, dict[str, pyspark_names.Answer], object]] = [
    (SparkDataFrame, DataFrame, pyspark_names.FRAME, ORDERS),
    (GroupedData, GroupBy, pyspark_names.GROUPED, ORDERS.group_by("day")),
    (SparkColumn, Expr, pyspark_names.COLUMN, Order.n),
]


def _public(cls: type) -> set[str]:
    return {name for name in dir(cls) if not name.startswith("_")}


@pytest.mark.parametrize(("spark_class", "ours", "table", "instance"), TABLES, ids=["frame", "grouped", "column"])
def test_every_public_pyspark_name_is_here_or_answered(
    spark_class: type, ours: type, table: dict[str, pyspark_names.Answer], instance: object
) -> None:
    answered = set(table)
    same = {name for name in _public(spark_class) if name not in answered}
    assert {name for name in same if not hasattr(ours, name)} == set(), "add them to pyspark_names"
    assert answered <= _public(spark_class), "an answered name PySpark does not have"
    for name, answer in table.items():
        with pytest.raises(PySparkNameError) as caught:
            getattr(instance, name)
        assert str(caught.value) == pyspark_names.message(type(instance).__name__, name, answer)
        assert not hasattr(instance, name)  # an AttributeError, as for any missing attribute
        assert name not in dir(instance)  # and not offered to completion


def test_the_brief_s_habits_say_what_to_write() -> None:
    with pytest.raises(AttributeError, match=r"'withColumn' \(PySpark's name\): write df\.with_columns\(name=expr\)"):
        ORDERS.withColumn("x", Order.n + 1)
    with pytest.raises(AttributeError, match=r"'where' \(PySpark's name\): write df\.filter\(predicate\)"):
        ORDERS.where(Order.n > 1)
    with pytest.raises(AttributeError, match=r"'desc' \(PySpark's name\): write df\.sort\(col, descending=True"):
        F.col("day").desc()
    with pytest.raises(AttributeError, match=r"'isNull' \(PySpark's name\): write col\.is_null\(\)"):
        Order.country.isNull()
    with pytest.raises(AttributeError, match=r"'sum' \(PySpark's name\): write grouped\.agg\(F\.sum\(col\)\)"):
        ORDERS.group_by("day").sum("n")
    with pytest.raises(AttributeError, match=r"'selectExpr' \(PySpark's name\), and it is not offered: It parses SQL"):
        ORDERS.selectExpr("n + 1")


def test_pyspark_function_names_f_lacks_are_answered() -> None:
    with pytest.raises(PySparkNameError, match=r"F has no attribute 'expr' .*not offered: It parses SQL text"):
        F.expr("n + 1")
    for camel, snake in [("shiftLeft", "shiftleft"), ("sumDistinct", "sum_distinct"), ("bitwiseNOT", "bitwise_not")]:
        with pytest.raises(PySparkNameError, match=rf"'{camel}' \(PySpark's name\): write F\.{snake}\. "):
            getattr(F, camel)
        assert hasattr(F, snake)
    assert F.countDistinct(Order.n).name == "n"  # the catalog's own alias stays
    with pytest.raises(AttributeError, match="has no attribute 'uper'; did you mean 'upper'") as caught:
        F.uper  # noqa: B018 - the attribute read is the test
    assert type(caught.value) is AttributeError  # not a PySpark name: no PySpark answer
    assert not hasattr(F, "__wrapped__")  # dunder lookups (inspect, doctest) get a plain AttributeError


def test_every_pyspark_function_is_f_s_or_answered() -> None:
    names = migration_table.pyspark_functions()
    assert {"upper", "expr", "sumDistinct", "shiftLeft", "pandas_udf"} <= set(names)
    assert len(names) == len({n for n in sf.__all__ if inspect.isfunction(getattr(sf, n))}) + 9  # + camelCase ones
    for name in names:
        if not hasattr(F, name):
            with pytest.raises(PySparkNameError):
                getattr(F, name)


_SPELLED = re.compile(r"\b(df|grouped|col|F|cs)\.(\w+)(?:\.(\w+))?")
_OWNERS: dict[str, object] = {"df": DataFrame, "grouped": GroupBy, "col": Expr, "F": F, "cs": cs}
_NAMESPACES = {"str", "list", "map", "struct", "dt"}


def test_every_spelling_an_answer_gives_exists() -> None:
    """``df.x``, ``col.str.y``, ``F.z`` in an answer (what to write, or the note) name real attributes."""
    answers = [*pyspark_names.FRAME.values(), *pyspark_names.GROUPED.values(), *pyspark_names.COLUMN.values()]
    checked = 0
    for answer in answers:
        for owner, name, inner in _SPELLED.findall(f"{answer.write} {answer.note}"):
            target = _OWNERS[owner]
            if owner == "col" and name in _NAMESPACES:
                namespace = inspect.getattr_static(Expr, name)
                assert isinstance(namespace, property), name
                holder = namespace.fget.__annotations__["return"].split("[")[0]  # type: ignore[union-attr]
                from pydantable_spark.expr import namespaces

                assert inner, answer
                assert hasattr(getattr(namespaces, holder), inner), (answer, inner)
            else:
                assert hasattr(target, name), (answer.write, owner, name)
            checked += 1
    assert checked > 100


def test_the_migration_table_is_up_to_date() -> None:
    assert migration_table.PAGE.read_text() == migration_table.written(), "regenerate: python -m tools.migration_table"
    text = migration_table.table()
    assert "| `withColumn` | `df.with_columns(name=expr)` |" in text
    assert "| `desc` | `df.sort(col, descending=True, nulls_last=True)` |" in text
    assert "| `sumDistinct` | `F.sum_distinct` |" in text
    assert "| `expr` | not offered | It parses SQL text" in text
    assert "`countDistinct`" not in text  # F has it, as PySpark spells it


def test_the_answers_do_not_slow_or_break_the_classes() -> None:
    """No ``__getattr__`` on the classes pipelines read most (CPython then specializes their attribute reads)."""
    for cls in (DataFrame, DataFrame[Order], GroupBy, Expr, Col, type(F.when(Order.n > 1, 1))):
        assert all("__getattr__" not in vars(base) for base in cls.__mro__), cls
    expr = (Order.n + 1).alias("m")
    assert repr(pickle.loads(pickle.dumps(expr))) == repr(expr)
    assert repr(copy.deepcopy(expr)) == repr(expr)
    assert copy.copy(ORDERS).columns == ORDERS.columns
    assert ORDERS.filter(Order.n > 1).with_columns(m=Order.n * 2).columns == ["day", "at", "country", "n", "tags", "m"]
    assert {"select", "filter", "with_columns"} <= set(dir(ORDERS))
    with pytest.raises(AssertionError, match="has 'select' itself"):
        pyspark_names.install(DataFrame, {"select": pyspark_names.FRAME["where"]})


CASES: list[tuple[Any, tuple[str, ...]]] = [
    (lambda: Order.day >= "2024-03-01", ("; pass a datetime.date, not a string: datetime.date(2024, 3, 1)",)),
    (lambda: Order.day < "March", ("date (date) < literal 'March'", "; pass a datetime.date, not a string")),
    (lambda: "2024-03-01" <= Order.day, ("; pass a datetime.date, not a string: datetime.date(2024, 3, 1)",)),  # noqa: SIM300
    (
        lambda: Order.at > "2024-03-01 10:30",
        ("pass a datetime.datetime, not a string: datetime.datetime(2024, 3, 1, 10, 30)",),
    ),
    (lambda: Order.n == "3", ("; pass an int, not a string: 3",)),
    (lambda: Order.day.is_in(["2024-03-01"]), ("is_in() value", "; pass a datetime.date, not a string: datetime.date")),
    (
        lambda: Order.day.between("2024-03-01", "x"),
        ("between() bound", "; pass a datetime.date, not a string: datetime"),
    ),
    (lambda: ORDERS.filter(F.col("day") >= "2024-03-01"), ("column 'day' of type date", "; pass a datetime.date")),
]


@pytest.mark.parametrize(("build", "parts"), CASES, ids=range(len(CASES)))
def test_a_string_beside_a_date_or_number_says_what_to_pass(build: Any, parts: tuple[str, ...]) -> None:
    with pytest.raises(ColumnTypeError) as caught:
        build()
    assert all(part in str(caught.value) for part in parts), str(caught.value)


def test_the_date_itself_is_taken_and_other_mismatches_get_no_hint() -> None:
    assert repr(Order.day >= datetime.date(2024, 3, 1)) == "Expr[bool]((day >= datetime.date(2024, 3, 1)))"
    with pytest.raises(ColumnTypeError) as caught:
        Order.country > 3  # noqa: B015 - the comparison is the test
    assert "pass" not in str(caught.value)
