"""Higher-order functions with typed lambdas: ``F.transform(Bag.tags, lambda t: t.str.upper())`` and the others.

Each call's derived schema must equal Spark's analyzer's (``agrees``), and its
values those of plain PySpark calling ``pyspark.sql.functions.<name>`` with a
Python lambda on the same (distinct) columns. Errors are raised when the call
is built, naming the function, its parameter and the variables' types.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from pyspark.sql import functions as sf

from pydantable_spark import DataFrame, DataFrameModel, F
from pydantable_spark._spark.sql import to_sql
from pydantable_spark.errors import ArgumentTypeError, ColumnTypeError
from pydantable_spark.expr.api import Expr
from pydantable_spark.expr.core import Typed

if TYPE_CHECKING:
    from pyspark.sql import Column


class Bag(DataFrameModel):
    id: int
    tags: list[str]
    nums: list[int | None]
    more: list[int] | None
    prices: list[float]
    attrs: dict[str, int | None]
    other: dict[str, int] | None
    word: str
    step: int | None


ROWS = [
    {"id": 1, "tags": ["b", "Ab", "c"], "nums": [3, None, 1], "more": [10, 20], "prices": [1.5, 2.0],
     "attrs": {"k": 1, "z": None}, "other": {"k": 5, "q": 6}, "word": "w", "step": 2},
    {"id": 2, "tags": [], "nums": [], "more": None, "prices": [], "attrs": {}, "other": None, "word": "", "step": None},
    {"id": 3, "tags": ["x"], "nums": [None], "more": [1, 2, 3], "prices": [0.25], "attrs": {"a": 7},
     "other": {}, "word": "yy", "step": -1},
]  # fmt: skip


@pytest.fixture(scope="module")
def bag(spark: Any) -> DataFrame[Bag]:
    return Bag.from_rows(ROWS)


def same_as_pyspark(
    frame: DataFrame[Any], agrees: Any, ours: dict[str, Expr[Any]], theirs: dict[str, Column]
) -> dict[str, Any]:
    """The façade's values of ``ours`` (its schema the analyzer's) equal plain PySpark's of ``theirs``; returns them."""
    out = frame.select("id", **ours).sort("id")
    agrees(out)
    got = out.to_dict()
    plain = frame.to_spark().select("id", *[c.alias(n) for n, c in theirs.items()]).orderBy("id")
    rows = [r.asDict(recursive=True) for r in plain.collect()]
    expected = {n: [r[n] for r in rows] for n in ["id", *theirs]}
    assert got == expected
    return got


def test_transform_filter_exists_forall_give_pysparks_values(bag: DataFrame[Bag], agrees: Any) -> None:
    got = same_as_pyspark(
        bag,
        agrees,
        {
            "upper": F.transform(Bag.tags, lambda t: t.str.upper()),
            "indexed": F.transform(Bag.tags, lambda t, i: F.concat(t, i.cast(str))),
            "scaled": F.transform(Bag.nums, lambda x: x * Bag.step),  # a column of the row in the body
            "kept": F.filter(Bag.nums, lambda x: x > 1),
            "odd_places": F.filter(Bag.tags, lambda t, i: i % 2 == 0),
            "any_big": F.exists(Bag.nums, lambda x: x > 2),
            "all_set": F.forall(Bag.nums, lambda x: x.is_not_null()),
            "all_short": F.forall(Bag.tags, lambda t: t.str.len_chars() < 3),
        },
        {
            "upper": sf.transform("tags", lambda t: sf.upper(t)),
            "indexed": sf.transform("tags", lambda t, i: sf.concat(t, i.cast("string"))),
            "scaled": sf.transform("nums", lambda x: x * sf.col("step")),
            "kept": sf.filter("nums", lambda x: x > 1),
            "odd_places": sf.filter("tags", lambda t, i: i % 2 == 0),
            "any_big": sf.exists("nums", lambda x: x > 2),
            "all_set": sf.forall("nums", lambda x: x.isNotNull()),
            "all_short": sf.forall("tags", lambda t: sf.char_length(t) < 3),
        },
    )
    assert got["upper"] == [["B", "AB", "C"], [], ["X"]]
    assert got["any_big"] == [True, False, None]  # NULL where no element holds and one is NULL


def test_a_lambda_inside_a_lambda_reads_the_outer_variable(bag: DataFrame[Bag], agrees: Any) -> None:
    ours = F.transform(Bag.tags, lambda t, i: F.transform(Bag.more, lambda m: F.concat(t, m.cast(str), i.cast(str))))
    theirs = sf.transform(
        "tags", lambda t, i: sf.transform("more", lambda m: sf.concat(t, m.cast("string"), i.cast("string")))
    )
    got = same_as_pyspark(bag, agrees, {"pairs": ours}, {"pairs": theirs})
    assert got["pairs"][0] == [["b100", "b200"], ["Ab101", "Ab201"], ["c102", "c202"]]
    sql = to_sql(ours.node)
    assert "`__pydantable_l0_0`" in sql  # the outer lambda's element
    assert "`__pydantable_l1_0`" in sql  # the inner one's: a name of its own


def test_aggregate_and_reduce_give_pysparks_values(bag: DataFrame[Bag], agrees: Any) -> None:
    got = same_as_pyspark(
        bag,
        agrees,
        {
            "total": F.aggregate(Bag.nums, F.lit(0), lambda acc, x: acc + F.coalesce(x, F.lit(0))),
            "sum_prices": F.aggregate(Bag.prices, 0, lambda acc, x: acc + x),  # 0 taken as 0.0, as acc + x adds
            "mean": F.aggregate(
                Bag.prices, F.lit(0.0), lambda acc, x: acc + x, lambda acc: acc / F.greatest(F.size(Bag.prices), 1)
            ),
            "text": F.reduce(Bag.tags, F.lit(">"), lambda acc, t: F.concat(acc, t)),
        },
        {
            "total": sf.aggregate("nums", sf.lit(0).cast("bigint"), lambda acc, x: acc + sf.coalesce(x, sf.lit(0))),
            "sum_prices": sf.aggregate("prices", sf.lit(0.0), lambda acc, x: acc + x),
            "mean": sf.aggregate(
                "prices",
                sf.lit(0.0),
                lambda acc, x: acc + x,
                lambda acc: acc / sf.greatest(sf.size("prices"), sf.lit(1)),
            ),
            "text": sf.reduce("tags", sf.lit(">"), lambda acc, t: sf.concat(acc, t)),
        },
    )
    assert got["sum_prices"] == [3.5, 0.0, 0.25]
    assert got["text"] == [">bAbc", ">", ">x"]


def test_zip_with_and_map_functions_give_pysparks_values(bag: DataFrame[Bag], agrees: Any) -> None:
    got = same_as_pyspark(
        bag,
        agrees,
        {
            "zipped": F.zip_with(Bag.nums, Bag.more, lambda x, y: F.coalesce(x, F.lit(0)) + y),
            "labelled": F.zip_with(Bag.tags, Bag.nums, lambda t, n: F.concat(t, n.cast(str))),
            "set": F.map_filter(Bag.attrs, lambda k, v: v.is_not_null() & (k != "a")),
            "merged": F.map_zip_with(Bag.attrs, Bag.other, lambda k, a, b: F.coalesce(a, F.lit(0)) + b),
            "keys": F.transform_keys(Bag.attrs, lambda k, v: F.concat(k, F.lit("!"))),
            "values": F.transform_values(Bag.attrs, lambda k, v: F.concat(k, F.lit("="), v.cast(str))),
        },
        {
            "zipped": sf.zip_with("nums", "more", lambda x, y: sf.coalesce(x, sf.lit(0)) + y),
            "labelled": sf.zip_with("tags", "nums", lambda t, n: sf.concat(t, n.cast("string"))),
            "set": sf.map_filter("attrs", lambda k, v: v.isNotNull() & (k != "a")),
            "merged": sf.map_zip_with("attrs", "other", lambda k, a, b: sf.coalesce(a, sf.lit(0)) + b),
            "keys": sf.transform_keys("attrs", lambda k, v: sf.concat(k, sf.lit("!"))),
            "values": sf.transform_values("attrs", lambda k, v: sf.concat(k, sf.lit("="), v.cast("string"))),
        },
    )
    assert got["zipped"][0] == [13, 20, None]  # NULL past the shorter list's end
    assert got["keys"][0] == {"k!": 1, "z!": None}


def test_result_types_follow_the_body(bag: DataFrame[Bag], agrees: Any) -> None:
    out = bag.select(
        lengths=F.transform(Bag.tags, lambda t: t.str.len_chars()),
        plus=F.transform(Bag.nums, lambda x: x + 1),
        big=F.filter(Bag.more, lambda x: x > 1),
        has_a=F.exists(Bag.tags, lambda t: t == "a"),
        total=F.aggregate(Bag.nums, 0, lambda acc, x: acc + x),
        named=F.transform_values(Bag.attrs, lambda k, v: k),
    )
    agrees(out)
    assert [f"{field.name}: {Typed(field.dtype, field.nullable)}" for field in out.schema] == [
        "lengths: list[int] (array<int not null>)",  # the body is never NULL, so no element is
        "plus: list[int | None] (array<bigint>)",
        "big: list[int] | None (array<bigint not null>)",  # NULL where the list is
        "has_a: bool (boolean)",
        "total: int | None (bigint)",  # the accumulator is NULL-able: the NULL elements reach it
        "named: dict[str, str] (map<string,string not null>)",
    ]


def test_a_column_named_by_string_types_the_lambda_when_bound(bag: DataFrame[Bag], agrees: Any) -> None:
    expr = F.transform("tags", lambda t: t.str.upper())
    assert expr.node.typed is None  # the element's type is known once the frame binds "tags"
    assert (
        bag.select(up=expr).schema["up"].dtype
        == bag.select(up=F.transform(Bag.tags, lambda t: t.str.upper())).schema["up"].dtype
    )
    with pytest.raises(ColumnTypeError, match=r"^F\.transform\(\): the body of f does not type for t: int \| None"):
        bag.select(F.transform("nums", lambda t: t.str.upper()))


# --- errors, when the call is built -----------------------------------------------------------------


def test_an_ill_typed_body_names_the_function_and_the_element_type() -> None:
    with pytest.raises(ColumnTypeError, match=r"^F\.transform\(\): the body of f does not type for t: str \(string\)"):
        F.transform(Bag.tags, lambda t: t + 1)
    with pytest.raises(ColumnTypeError, match=r"^F\.filter\(\): f must return a boolean for x: int \| None \(bigint\)"):
        F.filter(Bag.nums, lambda x: x + 1)
    with pytest.raises(ColumnTypeError, match=r"^F\.zip_with\(\): the body of f does not type for x: str \| None"):
        F.zip_with(Bag.tags, Bag.nums, lambda x, y: x + y)
    with pytest.raises(ColumnTypeError, match=r"^F\.reduce\(\): the body of merge does not type for acc: str \| None"):
        F.reduce(Bag.nums, F.lit("s"), lambda acc, x: acc + x)
    with pytest.raises(ColumnTypeError, match=r"^F\.aggregate\(\): merge must return the accumulator's type, bigint"):
        F.aggregate(Bag.nums, F.lit(0), lambda acc, x: F.concat(acc.cast(str), x.cast(str)))
    with pytest.raises(ColumnTypeError, match=r"^F\.transform_keys\(\): f must return a string for k: str"):
        F.transform_keys(Bag.attrs, lambda k, v: v)


def test_the_list_argument_is_checked_before_the_lambda_runs() -> None:
    with pytest.raises(ColumnTypeError, match=r"^F\.transform\(\): col must be a list; got column 'Bag\.id'"):
        F.transform(Bag.id, lambda x: x)
    with pytest.raises(ColumnTypeError, match=r"^F\.map_filter\(\): col must be a map; got column 'Bag\.tags'"):
        F.map_filter(Bag.tags, lambda k, v: k == "a")


def test_a_lambda_returning_a_non_expression_or_of_the_wrong_arity_is_refused() -> None:
    with pytest.raises(ArgumentTypeError, match=r"^F\.transform\(\): f returned <object .*\(object\); it must return"):
        F.transform(Bag.tags, lambda t: object())
    with pytest.raises(ArgumentTypeError, match=r"^F\.transform\(\): f returned None \(NoneType\)"):
        F.transform(Bag.tags, lambda t: None)
    arity = r"takes a function of 1 or 2 parameters \(x: the element, i: its 0-based index\); the function given takes"
    with pytest.raises(ArgumentTypeError, match=rf"^F\.transform\(\): f {arity} 3$"):
        F.transform(Bag.tags, lambda t, i, j: t)
    with pytest.raises(
        ArgumentTypeError, match=r"^F\.exists\(\): f takes a function of 1 parameter \(x: the element\)"
    ):
        F.exists(Bag.tags, lambda t, i: t == "a")
    with pytest.raises(ArgumentTypeError, match=r"^F\.map_filter\(\): f must take positional parameters only"):
        F.map_filter(Bag.attrs, lambda *kv: kv[0] == "a")
    for wrong in (3, "tags", Bag.tags, str):
        with pytest.raises(ArgumentTypeError, match=r"^F\.transform\(\): f must be a function \(a lambda\) taking 1"):
            F.transform(Bag.tags, wrong)  # type: ignore[arg-type]


def test_a_literal_body_is_a_constant_list(bag: DataFrame[Bag], agrees: Any) -> None:
    got = same_as_pyspark(
        bag, agrees, {"ones": F.transform(Bag.tags, lambda t: 1)}, {"ones": sf.transform("tags", lambda t: sf.lit(1))}
    )
    assert got["ones"] == [[1, 1, 1], [], [1]]


def test_a_variable_used_outside_its_lambda_is_refused(bag: DataFrame[Bag], agrees: Any) -> None:
    kept: list[Expr[Any]] = []

    def keep(t: Expr[Any]) -> Expr[Any]:
        kept.append(t)
        return t

    F.transform(Bag.tags, keep)
    escaped = r"uses t \(str \(string\)\), a variable of the function passed to F\.transform\(\), outside that function"
    with pytest.raises(ColumnTypeError, match=rf"^F\.filter\(\): the body of f {escaped}"):
        F.filter(Bag.tags, lambda u: u == kept[0])
    with pytest.raises(
        ColumnTypeError, match=r"uses t, a variable of the function passed to F\.transform\(\), outside"
    ):
        bag.select(kept[0].str.upper())
    with pytest.raises(
        ColumnTypeError, match=r"uses t, a variable of the function passed to F\.transform\(\), outside"
    ):
        bag.filter(kept[0] == "a")


def test_aggregates_and_windows_are_refused_in_a_body() -> None:
    with pytest.raises(
        ColumnTypeError, match=r"^F\.transform\(\): the body of f \(lambda x: sum\(x\)\) uses an aggregate"
    ):
        F.transform(Bag.nums, lambda x: F.sum(x))


def test_variables_lower_to_internal_names_no_user_column_has(spark: Any) -> None:
    from pyspark.sql import types as st

    schema = st.StructType(
        [
            st.StructField("__pydantable_l0_0", st.LongType(), False),
            st.StructField("xs", st.ArrayType(st.LongType(), False), False),
        ]
    )
    frame = DataFrame.from_spark(spark.createDataFrame([(100, [1, 2])], schema))
    out = frame.select(y=F.transform("xs", lambda x: x + F.col("__pydantable_l0_0")))
    assert out.to_dict() == {"y": [[101, 102]]}
