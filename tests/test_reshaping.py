"""Reshaping: melt, pivot, explode, unnest, row numbers, drop_nulls, fill_null, clip."""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any

import pytest
from pydantic import BaseModel, Field
from pyspark.sql import SparkSession

from pydantable_spark import DataFrameModel, cs
from pydantable_spark import dtypes as dt
from pydantable_spark.errors import (
    ArgumentTypeError,
    ArgumentValueError,
    ColumnTypeError,
    DuplicateColumnError,
    LossyCastError,
)


class Point(BaseModel):
    x: int
    y: int | None


class W(DataFrameModel):
    id: int
    a: int | None
    b: float
    label: str | None
    tags: list[str]
    nums: list[int | None] | None
    at: Point | None


ROWS = [
    {"id": 1, "a": 10, "b": 1.5, "label": "x", "tags": ["p", "q"], "nums": [1, None], "at": {"x": 1, "y": 2}},
    {"id": 2, "a": None, "b": 2.5, "label": None, "tags": [], "nums": None, "at": None},
    {"id": 3, "a": 30, "b": 3.5, "label": "x", "tags": ["r"], "nums": [3], "at": {"x": 3, "y": None}},
]


@pytest.fixture(scope="module")
def wide(spark: SparkSession) -> Any:
    return W.from_rows(ROWS)


def test_melt(wide: Any, agrees: Any) -> None:
    long = wide.melt("id", ["a", "b"], allow_lossy=["a"])  # bigint and double melt into double
    assert str(long.schema).splitlines()[1:] == ["variable: str (string)", "value: float | None (double)"]
    assert long.sort("id", "variable").to_dict()["value"] == [10.0, 1.5, None, 2.5, 30.0, 3.5]
    agrees(long)
    assert wide.melt(id_vars=cs.by_name("id"), value_vars=cs.float(), value_name="v").columns == ["id", "variable", "v"]
    with pytest.raises(ColumnTypeError, match="value columns must share a type"):
        wide.melt("id", ["a", "label"])
    with pytest.raises(ArgumentValueError, match="both id and value"):
        wide.melt("id", ["id", "a"])


class Mixed(DataFrameModel):
    id: int
    big: int
    small: Annotated[int, dt.Int32]
    ratio: float
    price: Decimal | None = Field(default=None, max_digits=10, decimal_places=2)


def test_melt_refuses_a_lossy_common_type_unless_allowed(spark: SparkSession) -> None:
    """bigint + double melt into double, which rounds 2**53 + 1: refused as reconciliation refuses it."""
    frame = Mixed.from_rows([{"id": 1, "big": 2**53 + 1, "small": 7, "ratio": 0.5, "price": Decimal("1.25")}])
    refused = {
        ("big", "ratio"): r"value column 'big' is bigint \(int\), and melting it with 'ratio' \(double\) makes the "
        r"value column double \(float\); .* Pass allow_lossy=\['big'\] \(or allow_lossy=True\)",
        ("price", "ratio"): r"value column 'price' is decimal\(10,2\)",  # decimal → double
        ("ratio", "price"): r"value column 'price' is decimal\(10,2\)",
    }
    for values, message in refused.items():
        with pytest.raises(LossyCastError, match=message):
            frame.melt("id", list(values))
    with pytest.raises(LossyCastError, match="'big'"):
        frame.melt("id", ["big", "ratio"], allow_lossy=["ratio"])  # names the column that loses, not another
    with pytest.raises(ArgumentValueError, match=r"'bgi' is not a value column of this melt.*did you mean 'big'"):
        frame.melt("id", ["big", "ratio"], allow_lossy=["bgi"])
    with pytest.raises(ArgumentTypeError, match=r"takes True, False or a list of value column names"):
        frame.melt("id", ["big", "ratio"], allow_lossy="big")  # type: ignore[arg-type]
    # exact conversions need no opt-in: int → bigint, int → double, bigint → decimal(22,2)
    types = {
        pair: str(frame.melt("id", list(pair)).schema["value"].dtype)
        for pair in [("big", "small"), ("small", "ratio"), ("big", "price")]
    }
    assert types == {("big", "small"): "bigint", ("small", "ratio"): "double", ("big", "price"): "decimal(22,2)"}
    assert sorted(frame.melt("id", ["big", "small"]).to_dict()["value"]) == [7, 2**53 + 1]
    # opted in, Spark's rounding is what the caller accepted
    rounded = frame.melt("id", ["big", "ratio"], allow_lossy=True).sort("variable").to_dict()["value"]
    assert rounded == [9007199254740992.0, 0.5]


def test_pivot(wide: Any, agrees: Any) -> None:
    wide_b = wide.pivot("id", "label", "b", "sum", sort_columns=True)
    assert wide_b.columns == ["id", "null_sum", "x_sum"]
    assert wide_b.sort("id").to_dict() == {"id": [1, 2, 3], "null_sum": [None, 2.5, None], "x_sum": [1.5, None, 3.5]}
    agrees(wide_b)
    fixed = wide.pivot("label", "id", ["a", "b"], "count", pivot_values=[1, 3])
    assert fixed.columns == ["label", "1_a_count", "1_b_count", "3_a_count", "3_b_count"]
    agrees(fixed)
    with pytest.raises(ArgumentValueError, match="unknown aggregation|use one of"):
        wide.pivot("id", "label", "b", "mode", pivot_values=["x"])


def test_explode(wide: Any, agrees: Any) -> None:
    exploded = wide.explode("tags")
    assert exploded.to_dict()["tags"] == ["p", "q", "r"]
    assert not exploded.schema["tags"].nullable
    agrees(exploded)
    outer = wide.explode_outer("nums")
    got = outer.to_dict()
    assert sorted(zip(got["id"], got["nums"], strict=True), key=lambda p: (p[0], p[1] is None, p[1])) == [
        (1, 1),
        (1, None),
        (2, None),  # a NULL array gives one row with NULL
        (3, 3),
    ]
    assert outer.schema["nums"].nullable
    agrees(outer)
    positioned = wide.posexplode("tags", position="i")
    assert positioned.columns[:5] == ["id", "a", "b", "label", "i"]
    assert positioned.to_dict()["i"] == [0, 1, 0]
    agrees(positioned)
    with pytest.raises(ColumnTypeError, match="needs array columns; 'label'"):
        wide.explode("label")
    with pytest.raises(DuplicateColumnError, match="already exists"):
        wide.posexplode("tags", position="id")


def test_explode_several_columns_zips_them(spark: SparkSession, agrees: Any) -> None:
    class Z(DataFrameModel):
        k: int
        xs: list[int]
        ys: list[str]

    zipped = Z.from_rows([{"k": 1, "xs": [1, 2], "ys": ["a", "b"]}]).explode(["xs", "ys"])
    assert zipped.to_dict() == {"k": [1, 1], "xs": [1, 2], "ys": ["a", "b"]}
    agrees(zipped)
    uneven = Z.from_rows([{"k": 1, "xs": [1, 2], "ys": ["a"]}]).explode(["xs", "ys"])
    with pytest.raises(Exception, match="differ in length"):
        uneven.collect()


def test_unnest_and_row_count(wide: Any, agrees: Any) -> None:
    flat = wide.unnest("at")
    assert flat.columns[-2:] == ["at_x", "at_y"]
    assert flat.schema["at_x"].nullable  # the struct itself can be NULL
    agrees(flat)
    numbered = wide.sort("id").with_row_count("n", offset=1)
    assert numbered.columns[0] == "n"
    assert not numbered.schema["n"].nullable
    assert numbered.to_dict()["n"] == [1, 2, 3]
    agrees(numbered)
    with pytest.raises(ColumnTypeError, match="needs struct columns"):
        wide.unnest("id")
    with pytest.raises(ValueError, match="offset"):
        wide.with_row_count(offset=-1)


def test_drop_nulls_narrows_nullability(wide: Any, agrees: Any) -> None:
    kept = wide.drop_nulls(["a", "label"])
    assert [kept.schema[c].nullable for c in ("a", "label")] == [False, False]
    assert sorted(kept.to_dict()["id"]) == [1, 3]
    agrees(kept)
    assert wide.drop_nulls(how="all", subset=["a", "label"]).count() == 2
    assert wide.drop_nulls(threshold=6).count() == 2
    everything = wide.drop_nulls()
    assert everything.count() == 2
    agrees(everything)


def test_fill_null_and_clip(wide: Any, agrees: Any) -> None:
    filled = wide.fill_null(0)
    assert not filled.schema["a"].nullable
    assert filled.schema["label"].nullable  # a string column does not take 0
    assert sorted(filled.to_dict()["a"]) == [0, 10, 30]
    agrees(filled)
    named = wide.fill_null("?", subset="label")
    assert named.sort("id").to_dict()["label"] == ["x", "?", "x"]
    with pytest.raises(ColumnTypeError, match="no common type"):
        wide.fill_null("?", subset=["a"])
    clipped = wide.clip(15, 25)
    assert clipped.sort("id").to_dict()["a"] == [15, None, 25]
    assert clipped.sort("id").to_dict()["b"] == [15.0, 15.0, 15.0]
    agrees(clipped)
    with pytest.raises(ColumnTypeError, match="clip.. needs numeric columns; 'label'"):
        wide.clip(0, 1, subset="label")


class Letter(DataFrameModel):
    k: str
    n: int


def _pandas_duplicated(keys: list[str], keep: str | bool) -> list[bool]:
    """pandas' ``duplicated`` written out: repeats of an earlier key (``"first"``), of a later one, or any."""
    counts = {k: keys.count(k) for k in keys}
    if keep is False:
        return [counts[k] > 1 for k in keys]
    order = keys if keep == "first" else keys[::-1]
    seen: set[str] = set()
    flags = []
    for k in order:
        flags.append(k in seen)
        seen.add(k)
    return flags if keep == "first" else flags[::-1]


@pytest.mark.parametrize("keep", ["first", "last", False])
def test_duplicated_flags_come_in_the_rows_order(spark: SparkSession, keep: Any) -> None:
    keys = list("babacdbeaf")
    frame = Letter.from_rows([{"k": k, "n": i} for i, k in enumerate(keys)])
    assert frame.duplicated(subset="k", keep=keep).to_dict()["duplicated"] == _pandas_duplicated(keys, keep)
    if keep == "first":
        assert _pandas_duplicated(keys, keep) == [False, False, True, True, False, False, True, False, True, False]
    # after a sort (two shuffle partitions; the sorted frame's order is its row order)
    many = [chr(ord("a") + (i * 7919) % 13) for i in range(300)]
    spread = Letter.from_rows([{"k": k, "n": i} for i, k in enumerate(many)][::-1])
    flags = spread.sort("n").duplicated(subset="k", keep=keep).to_dict()["duplicated"]
    assert flags == _pandas_duplicated(many, keep)


class Line(BaseModel):
    sku: str
    qty: int | None


class Basket(DataFrameModel):
    id: int
    lines: list[Line | None] | None
    note: str


BASKETS = [
    {"id": 1, "lines": [{"sku": "a", "qty": 2}, None, {"sku": "b", "qty": None}], "note": "n1"},
    {"id": 2, "lines": [], "note": "n2"},
    {"id": 3, "lines": None, "note": "n3"},
]


def _sorted(table: Any) -> list[tuple[Any, ...]]:
    return sorted((tuple(row.values()) for row in table.to_pylist()), key=repr)


@pytest.mark.parametrize("outer", [False, True])
def test_inline_gives_the_rows_and_types_of_pysparks(spark: SparkSession, agrees: Any, outer: bool) -> None:
    from pyspark.sql import functions as sf

    baskets = Basket.from_rows(BASKETS)
    out = baskets.inline_outer(Basket.lines) if outer else baskets.inline("lines")
    agrees(out)
    assert out.columns == ["id", "sku", "qty", "note"]
    generator = sf.inline_outer if outer else sf.inline
    plain = baskets.to_spark().select("id", generator("lines"), "note")
    assert [(f.name, f.nullable) for f in out.schema] == [(f.name, f.nullable) for f in plain.schema.fields]
    assert _sorted(out.to_arrow()) == _sorted(plain.toArrow())
    assert len(_sorted(out.to_arrow())) == (5 if outer else 3)


def test_inline_refuses_what_is_no_list_of_structs_and_clashing_names(spark: SparkSession) -> None:
    baskets = Basket.from_rows(BASKETS)
    with pytest.raises(ColumnTypeError, match=r"inline\(\) needs a list of structs; 'note' is string"):
        baskets.inline("note")
    with pytest.raises(DuplicateColumnError, match="sku"):
        baskets.with_columns(sku=Basket.note).inline("lines")


def test_posexplode_outer_keeps_empty_and_null_arrays_as_pysparks(wide: Any, agrees: Any) -> None:
    from pyspark.sql import functions as sf

    out = wide.posexplode_outer("nums", position="i")
    agrees(out)
    plain = wide.to_spark().select("id", sf.posexplode_outer("nums").alias("i", "nums"))
    got = sorted(zip(*(out.to_dict()[c] for c in ("id", "i", "nums")), strict=True), key=repr)
    assert got == sorted(((r.id, r.i, r.nums) for r in plain.collect()), key=repr)
    assert (2, None, None) in got
    assert out.schema["i"].nullable
    with pytest.raises(ArgumentTypeError, match="position must be str"):
        wide.posexplode_outer("nums", position=1)
