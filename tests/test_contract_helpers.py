"""The interface contract's helpers: renaming and ordering columns, stable sort, result forms, predicates, reshaping.

Values of the new predicates are compared with plain PySpark's own functions
on the same rows (each function given distinct arguments); derived schemas
with Spark's analyzer (``agrees``). Error paths need no JVM (``jvm_free``).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import polars as pl
import pytest
from pydantic import BaseModel
from pyspark.sql import functions as sf

from pydantable_spark import DataFrameModel, F, cs
from pydantable_spark.errors import (
    ArgumentTypeError,
    ArgumentValueError,
    ColumnTypeError,
    DuplicateColumnError,
    EmptySelectionError,
    UnknownColumnError,
)

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


class Point(BaseModel):
    x: int
    y: int | None


class R(DataFrameModel):
    id: int
    name: str | None
    note: str
    score: float | None
    ok: bool | None
    tags: list[str | None] | None
    attrs: dict[str, int] | None
    at: Point | None


ROWS: list[dict[str, Any]] = [
    {"id": 1, "name": "a", "note": "abba", "score": 1.5, "ok": True, "tags": ["a", "b"], "attrs": {"k": 1}, "at": None},
    {
        "id": 2,
        "name": None,
        "note": "",
        "score": None,
        "ok": False,
        "tags": ["a", None],
        "attrs": {},
        "at": {"x": 1, "y": None},
    },
    {"id": 3, "name": "", "note": " \t\n", "score": 2.5, "ok": None, "tags": [], "attrs": None, "at": {"x": 2, "y": 3}},
    {
        "id": 4,
        "name": "  ",
        "note": "xyz",
        "score": -1.0,
        "ok": True,
        "tags": None,
        "attrs": {"j": 2, "z": 3},
        "at": None,
    },
    {
        "id": 5,
        "name": " b ",
        "note": "b",
        "score": 0.0,
        "ok": False,
        "tags": ["c", None],
        "attrs": {"j": 1},
        "at": None,
    },
    {
        "id": 6,
        "name": "\u00a0",
        "note": "bb\n",
        "score": 3.0,
        "ok": True,
        "tags": [None],
        "attrs": {"k": 5},
        "at": None,
    },
]
"""NULLs, empty and blank strings (a no-break space is not Java's ``\\s``), lists with NULLs, empty maps."""


def _frame() -> Any:
    return R.from_rows(ROWS)


def _columns(plain: Any, names: list[str]) -> dict[str, list[Any]]:
    rows = plain.orderBy("id").collect()
    return {name: [row[name] for row in rows] for name in names}


# --- predicates: values of plain PySpark, schema of Spark's analyzer ---------------------------


def test_string_predicates_give_pysparks_values(spark: SparkSession, agrees: Any) -> None:
    frame = _frame()
    ours = frame.select(
        R.id,
        empty=R.note.str.is_empty_str(),
        blank=R.name.str.is_blank_str(),
        blank_note=R.note.str.is_blank_str(),
        matches=R.note.str.matches("b+$"),
        null_or_empty=R.name.str.is_null_or_empty_str(),
    )
    agrees(ours)
    plain = frame.to_spark().select(
        "id",
        (sf.col("note") == sf.lit("")).alias("empty"),
        sf.regexp_like(sf.col("name"), sf.lit(r"^\s*$")).alias("blank"),
        sf.regexp_like(sf.col("note"), sf.lit(r"^\s*$")).alias("blank_note"),
        sf.col("note").rlike("b+$").alias("matches"),
        (sf.isnull(sf.col("name")) | (sf.col("name") == sf.lit(""))).alias("null_or_empty"),
    )
    names = ["id", "empty", "blank", "blank_note", "matches", "null_or_empty"]
    got = ours.sort("id").to_dict()
    assert got == _columns(plain, names)
    assert got["blank"] == [False, None, True, True, False, False]  # NULL stays NULL; U+00A0 is not \s
    assert got["null_or_empty"] == [False, True, True, False, False, False]


def test_list_and_map_predicates_give_pysparks_values(spark: SparkSession, agrees: Any) -> None:
    frame = _frame()
    ours = frame.select(
        R.id,
        any=R.tags.list.contains_any(["b", "c"]),
        all=R.tags.list.contains_all(["a", "b"]),
        list_empty=R.tags.list.list_is_empty(),
        list_empty_alias=R.tags.list.is_empty(),
        map_empty=R.attrs.map.map_is_empty(),
        any_key=R.attrs.map.map_has_any_key(["k", "z"]),
        any_key_alias=R.attrs.map.has_any_key(["j"]),
    )
    agrees(ours)
    tags, attrs = sf.col("tags"), sf.col("attrs")
    plain = frame.to_spark().select(
        "id",
        (sf.array_contains(tags, sf.lit("b")) | sf.array_contains(tags, sf.lit("c"))).alias("any"),
        (sf.array_contains(tags, sf.lit("a")) & sf.array_contains(tags, sf.lit("b"))).alias("all"),
        (sf.size(tags) == sf.lit(0)).alias("list_empty"),
        (sf.size(tags) == sf.lit(0)).alias("list_empty_alias"),
        (sf.size(attrs) == sf.lit(0)).alias("map_empty"),
        (sf.map_contains_key(attrs, sf.lit("k")) | sf.map_contains_key(attrs, sf.lit("z"))).alias("any_key"),
        sf.map_contains_key(attrs, sf.lit("j")).alias("any_key_alias"),
    )
    names = ["id", "any", "all", "list_empty", "list_empty_alias", "map_empty", "any_key", "any_key_alias"]
    got = ours.sort("id").to_dict()
    assert got == _columns(plain, names)
    assert got["all"] == [True, None, False, None, None, None]  # a NULL element leaves a missing value unknown


def test_contains_any_and_all_take_the_lists_element_type(spark: SparkSession, agrees: Any) -> None:
    class Nums(DataFrameModel):
        id: int
        small: list[int]  # bigint elements
        ratios: list[float]

    frame = Nums.from_rows([{"id": 1, "small": [1, 2], "ratios": [0.5]}, {"id": 2, "small": [3], "ratios": []}])
    ours = frame.select(Nums.id, a=Nums.small.list.contains_any([2, 3]), b=Nums.ratios.list.contains_all([0.5, 1]))
    agrees(ours)
    assert ours.sort("id").to_dict() == {"id": [1, 2], "a": [True, True], "b": [False, False]}


def test_isin_is_is_in_in_pysparks_forms(spark: SparkSession, agrees: Any) -> None:
    frame = _frame()
    ours = frame.select(
        R.id,
        spread=R.name.isin("a", " b "),
        listed=R.note.isin(["b", "xyz"]),
        one=R.name.isin("a"),
        same=R.note.is_in(["b", "xyz"]),
    )
    agrees(ours)
    plain = frame.to_spark().select(
        "id",
        sf.col("name").isin("a", " b ").alias("spread"),
        sf.col("note").isin(["b", "xyz"]).alias("listed"),
        sf.col("name").isin("a").alias("one"),
        sf.col("note").isin(["b", "xyz"]).alias("same"),
    )
    assert ours.sort("id").to_dict() == _columns(plain, ["id", "spread", "listed", "one", "same"])


@pytest.mark.jvm_free
def test_predicate_arguments_are_checked_when_the_call_is_made() -> None:
    with pytest.raises(ArgumentValueError, match="pattern must not be empty"):
        R.note.str.matches("")
    with pytest.raises(ArgumentTypeError, match="pattern"):
        R.note.str.matches(1)  # type: ignore[arg-type]
    with pytest.raises(ArgumentValueError, match="at least one value"):
        R.tags.list.contains_any([])
    with pytest.raises(ArgumentValueError, match="holds None"):
        R.tags.list.contains_all(["a", None])
    with pytest.raises(ArgumentTypeError, match="values"):
        R.tags.list.contains_any("ab")  # type: ignore[arg-type]
    with pytest.raises(ArgumentValueError, match="must hold strings"):
        R.attrs.map.map_has_any_key([1])
    with pytest.raises(ArgumentTypeError, match="isin"):
        R.name.isin(R.note)
    with pytest.raises(ColumnTypeError, match="must be a list"):
        R.note.list.list_is_empty()
    with pytest.raises(ColumnTypeError, match="must be a map"):
        R.tags.map.map_is_empty()
    with pytest.raises(ColumnTypeError, match="no common element type"):
        _frame().select(x=R.tags.list.contains_any([1, 2]))


# --- renaming and ordering columns ------------------------------------------------------------


def test_renaming_helpers_keep_values_and_types(spark: SparkSession, agrees: Any) -> None:
    frame = _frame()
    prefixed = frame.rename_prefix("raw_", selector=cs.string())
    assert prefixed.columns == ["id", "raw_name", "raw_note", "score", "ok", "tags", "attrs", "at"]
    assert [f.dtype for f in prefixed.schema] == [f.dtype for f in frame.schema]
    assert prefixed.to_dict()["raw_note"] == frame.to_dict()["note"]
    agrees(prefixed)
    suffixed = frame.rename_suffix("_v")
    assert suffixed.columns == [n + "_v" for n in frame.columns]
    agrees(suffixed)
    replaced = frame.rename_replace("o", "0", selector=["score", "note", "id"])
    assert replaced.columns == ["id", "name", "n0te", "sc0re", "ok", "tags", "attrs", "at"]
    assert replaced.select("sc0re").to_dict() == frame.select("score").rename({"score": "sc0re"}).to_dict()
    upper = frame.rename_with_selector(cs.by_name("id", "ok"), str.upper)
    assert upper.columns == ["ID", "name", "note", "score", "OK", "tags", "attrs", "at"]
    agrees(upper)
    assert frame.rename_prefix("", selector="id").columns == frame.columns  # nothing changes


@pytest.mark.jvm_free
def test_renaming_helpers_refuse_collisions_and_bad_arguments() -> None:
    frame = R.from_rows([])
    with pytest.raises(DuplicateColumnError, match=r"'score' → 'note' would give two columns one name") as info:
        frame.rename_replace("score", "note")
    assert isinstance(info.value, ValueError)  # the contract's ValueError
    with pytest.raises(DuplicateColumnError, match="'ID'"):
        frame.rename_with_selector(["id", "name"], lambda name: "ID")
    with pytest.raises(DuplicateColumnError, match="column 'name' has it"):
        frame.rename_replace("ote", "ame")
    with pytest.raises(UnknownColumnError, match=r"rename_prefix\(selector=...\)"):
        frame.rename_prefix("x_", selector="nope")
    with pytest.raises(ArgumentTypeError, match="prefix"):
        frame.rename_prefix(1)  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match="suffix"):
        frame.rename_suffix(None)  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match="new"):
        frame.rename_replace("a", b"b")  # type: ignore[arg-type]
    with pytest.raises(ArgumentValueError, match="old must not be empty"):
        frame.rename_replace("", "x")
    with pytest.raises(ArgumentValueError, match="without a name"):
        frame.rename_replace("id", "", selector="id")
    with pytest.raises(ArgumentTypeError, match=r"fn\('id'\) returned 1 \(int\), not a str"):
        frame.rename_with_selector("id", lambda name: 1)  # type: ignore[arg-type,return-value]
    with pytest.raises(ArgumentTypeError, match="fn must be a function"):
        frame.rename_with_selector("id", "ID")  # type: ignore[arg-type]
    with pytest.raises(EmptySelectionError):
        frame.rename_prefix("x_", selector=cs.temporal())


def test_reordering_helpers_move_columns_without_computing(spark: SparkSession, agrees: Any) -> None:
    frame = _frame().select("id", "name", "note", "score", "ok")
    assert frame.reorder_columns("score", R.id).columns == ["score", "id", "name", "note", "ok"]
    assert frame.reorder_columns(["ok", cs.string()]).columns == ["ok", "name", "note", "id", "score"]
    assert frame.select_first(cs.numeric()).columns == ["id", "score", "name", "note", "ok"]
    assert frame.select_last("id", "name").columns == ["note", "score", "ok", "id", "name"]
    assert frame.move(["ok", "id"], before="note").columns == ["name", "ok", "id", "note", "score"]
    assert frame.move("id", after="ok").columns == ["name", "note", "score", "ok", "id"]
    assert frame.move(cs.string(), after=R.ok).columns == ["id", "score", "ok", "name", "note"]
    assert frame.select_first("id", "name") is frame  # already in that order: the same plan
    moved = frame.move("score", before="id")
    agrees(moved)
    original = frame.to_dict()
    assert moved.to_dict() == {name: original[name] for name in moved.columns}
    fields = {f.name: f for f in frame.schema}
    assert list(moved.schema) == [fields[name] for name in moved.columns]


@pytest.mark.jvm_free
def test_reordering_helpers_refuse_what_they_cannot_do() -> None:
    frame = R.from_rows([])
    with pytest.raises(ArgumentTypeError, match="exactly one of them"):
        frame.move("id")
    with pytest.raises(ArgumentTypeError, match="exactly one of them"):
        frame.move("id", before="name", after="note")
    with pytest.raises(ArgumentValueError, match="cannot be moved before itself"):
        frame.move(["id", "name"], before="name")
    with pytest.raises(UnknownColumnError, match=r"move\(after=...\)"):
        frame.move("id", after="nope")
    with pytest.raises(UnknownColumnError, match="did you mean 'score'"):
        frame.select_first("scor")
    with pytest.raises(ArgumentTypeError, match="at least one column"):
        frame.select_last()
    with pytest.raises(EmptySelectionError):
        frame.reorder_columns(cs.temporal())


# --- sort(maintain_order=) --------------------------------------------------------------------


def test_sort_with_maintain_order_keeps_ties_in_their_order(spark: SparkSession) -> None:
    class K(DataFrameModel):
        k: int | None
        seq: int

    keys = [(i * 7919) % 5 if i % 11 else None for i in range(3000)]
    frame = K.from_rows([{"k": k, "seq": i} for i, k in enumerate(keys)])
    rows = list(zip(keys, range(3000), strict=True))
    ascending = frame.sort("k", maintain_order=True).to_dict()
    expected = sorted(rows, key=lambda r: (r[0] is not None, r[0] or 0))  # Python's sort is stable; NULLs first
    assert list(zip(ascending["k"], ascending["seq"], strict=True)) == expected
    down = frame.sort(K.k, descending=True, nulls_last=True, maintain_order=True).to_dict()
    expected = sorted(rows, key=lambda r: (r[0] is None, -(r[0] or 0)))
    assert list(zip(down["k"], down["seq"], strict=True)) == expected
    assert frame.sort("k", maintain_order=True).schema == frame.schema


@pytest.mark.jvm_free
def test_sort_maintain_order_must_be_a_bool() -> None:
    with pytest.raises(ArgumentTypeError, match="maintain_order"):
        R.from_rows([]).sort("id", maintain_order="yes")  # type: ignore[arg-type]


# --- results ----------------------------------------------------------------------------------


def test_result_forms(spark: SparkSession) -> None:
    frame = _frame().select("id", "name", "ok")
    assert frame.collect(as_lists=True) == frame.to_dict()
    assert asyncio.run(frame.acollect(as_lists=True)) == frame.to_dict()
    batches = frame.sort("id").collect_batches(4)
    assert [b.height for b in batches] == [4, 2]
    assert pl.concat(batches).to_dict(as_series=False) == frame.sort("id").to_polars().to_dict(as_series=False)
    assert frame.filter(R.id > 99).collect_batches() == []
    polars = asyncio.run(frame.sort("id").ato_polars())
    assert polars.to_dict(as_series=False) == frame.sort("id").to_dict()
    assert frame.shape == (6, 3)
    assert frame.filter(R.id > 4).shape == (2, 3)  # the result's rows, not the source's
    assert (frame.empty, frame.filter(R.id > 99).empty) == (False, True)


@pytest.mark.jvm_free
def test_result_options_are_checked_when_the_call_is_made() -> None:
    frame = R.from_rows([])
    with pytest.raises(ArgumentTypeError, match="as_lists"):
        frame.collect(as_lists=1)  # type: ignore[call-overload]
    with pytest.raises(ArgumentTypeError, match="trusted= does not apply"):
        frame.collect(as_lists=True, trusted=True)
    with pytest.raises(ArgumentValueError, match="positive batch size"):
        frame.collect_batches(0)
    with pytest.raises(ArgumentTypeError, match="batch_size"):
        frame.collect_batches(2.5)  # type: ignore[arg-type]


def test_describe_counts_false_values_and_string_lengths(spark: SparkSession) -> None:
    frame = _frame().select("id", "name", "score", "ok", "tags")
    name, ok = sf.col("name"), sf.col("ok")
    stats = (
        frame.to_spark()
        .agg(
            sf.count(name).alias("count"),
            sf.count_distinct(name).alias("n_unique"),
            sf.min(sf.length(name)).alias("min_length"),
            sf.max(sf.length(name)).alias("max_length"),
            sf.count(sf.when(ok, sf.lit(1))).alias("true"),
            sf.count(sf.when(~ok, sf.lit(1))).alias("false"),
            sf.count(sf.when(sf.isnull(ok), sf.lit(1))).alias("ok_nulls"),
            sf.avg(sf.col("score")).alias("mean"),
            sf.stddev(sf.col("score")).alias("std"),
        )
        .first()
    )
    assert stats is not None
    lines = frame.describe().splitlines()
    assert lines[0] == "rows: 6"
    assert lines[1] == "id (int): count=6, nulls=0, mean=3.5, std=1.8708286933869707, min=1, max=6"
    assert lines[2] == (
        f"name (str | None): count={stats['count']}, nulls=1, n_unique={stats['n_unique']}, "
        f"min_length={stats['min_length']}, max_length={stats['max_length']}"
    )
    assert (
        lines[3]
        == f"score (float | None): count=5, nulls=1, mean={stats['mean']!r}, std={stats['std']!r}, min=-1.0, max=3.0"
    )
    assert lines[4] == f"ok (bool | None): true={stats['true']}, false={stats['false']}, nulls={stats['ok_nulls']}"
    assert (stats["true"], stats["false"]) == (3, 2)
    assert lines[5] == "not described: tags (list[str | None] | None)"


# --- reshaping under the contract's names -----------------------------------------------------


def test_explode_all_and_unnest_all(spark: SparkSession, agrees: Any) -> None:
    frame = _frame().select("id", "tags", tags2=F.col("tags"), at=F.col("at"))
    exploded = frame.explode_all()
    assert exploded.sort("id").to_dict() == frame.explode(["tags", "tags2"]).sort("id").to_dict()
    agrees(exploded)
    flat = frame.unnest_all(separator=".")
    assert flat.columns == ["id", "tags", "tags2", "at.x", "at.y"]
    assert flat.sort("id").to_dict() == frame.unnest("at", separator=".").sort("id").to_dict()
    agrees(flat)


@pytest.mark.jvm_free
def test_explode_all_and_unnest_all_need_such_a_column() -> None:
    plain = R.from_rows([]).select("id", "name")
    with pytest.raises(EmptySelectionError, match=r"no list column; columns: id \(int\), name \(str \| None\)") as info:
        plain.explode_all()
    assert isinstance(info.value, ValueError)
    with pytest.raises(EmptySelectionError, match="no struct column"):
        plain.unnest_all()
    with pytest.raises(ArgumentTypeError, match="separator"):
        R.from_rows([]).unnest_all(separator=1)  # type: ignore[arg-type]


def test_pivot_longer_and_wider_are_melt_and_pivot(spark: SparkSession) -> None:
    frame = _frame().select("id", "score", other=F.col("score") * 2)
    longer = frame.pivot_longer("id", ["score", "other"], variable_name="what", value_name="v")
    assert (
        longer.sort("id", "what").to_dict()
        == frame.melt("id", ["score", "other"], variable_name="what", value_name="v").sort("id", "what").to_dict()
    )
    wider = longer.pivot_wider("id", "what", "v", pivot_values=["score", "other"])
    assert wider.columns == ["id", "score_first", "other_first"]
    assert (
        wider.sort("id").to_dict()
        == longer.pivot("id", "what", "v", pivot_values=["score", "other"]).sort("id").to_dict()
    )
