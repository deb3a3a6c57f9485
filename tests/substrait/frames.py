"""Small typed frames whose plans every Substrait test exports: one per step and expression kind the export takes."""

from __future__ import annotations

import datetime
import functools
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from pydantable_spark import DataFrame, DataFrameModel, F, Window

if TYPE_CHECKING:
    import pyarrow as pa


class Sale(DataFrameModel):
    id: int
    shop: str
    amount: int
    price: float
    note: str | None
    day: datetime.date
    discount: int | None


class Shop(DataFrameModel):
    shop: str
    city: str | None


SALES = [
    {"id": 1, "shop": "a", "amount": 3, "price": 1.5, "note": None, "day": datetime.date(2024, 1, 2), "discount": 1},
    {
        "id": 2,
        "shop": "b",
        "amount": 5,
        "price": 2.25,
        "note": " it's ",
        "day": datetime.date(2024, 2, 3),
        "discount": None,
    },
    {
        "id": 3,
        "shop": "b",
        "amount": -7,
        "price": -0.5,
        "note": "Ünï",
        "day": datetime.date(1969, 12, 31),
        "discount": 2,
    },
    {
        "id": 4,
        "shop": "c",
        "amount": 0,
        "price": 0.0,
        "note": "x' OR '1'='1",
        "day": datetime.date(2024, 2, 3),
        "discount": None,
    },
]
SHOPS = [{"shop": "a", "city": "Oslo"}, {"shop": "b", "city": None}, {"shop": "d", "city": "Rome"}]


def sales() -> DataFrame[Sale]:
    return Sale.from_rows(SALES)


def shops() -> DataFrame[Shop]:
    return Shop.from_rows(SHOPS)


class Basket(DataFrameModel):
    id: int
    items: list[str | None] | None
    counts: list[int]


class Priced(DataFrameModel):
    id: int
    shop: str
    price: float
    note: str


BASKETS = [
    {"id": 1, "items": ["a", "b", None], "counts": [1, 2, 3]},
    {"id": 2, "items": None, "counts": []},
    {"id": 3, "items": [], "counts": []},
    {"id": 4, "items": ["c"], "counts": [7]},
]


def local_frames() -> dict[str, DataFrame[Any]]:
    """Frames whose steps the local engine runs but a portable Substrait plan cannot say (explode, NULL checks)."""
    s = sales()
    b = Basket.from_rows(BASKETS)
    return {
        "explode": b.explode("counts"),
        "explode_zipped": b.explode(["items", "counts"]),
        "explode_outer": b.explode_outer(["items", "counts"]),
        "posexplode": b.posexplode("counts").filter(F.col("pos") > 0),
        "posexplode_outer": b.posexplode_outer("items", position="at"),
        "explode_then_group": b.explode("counts").group_by("id").agg(F.sum(F.col("counts")).alias("total")),
        "as_model_checked_after_filter": s.filter(Sale.note.is_not_null()).as_model(Priced, null_check=True),
        "as_model_filtered_after": s.as_model(Priced, null_check=True)
        .filter(F.col("id") < 3)
        .filter(F.col("note").is_not_null()),
        "python_mod_and_floor": s.select(
            Sale.id,
            (Sale.amount % 3).alias("mod"),
            (Sale.amount // 2).alias("floor"),
            (Sale.price % 0.75).alias("fmod"),
        ),
        "rounding": s.select(Sale.id, F.round(Sale.price, 1).alias("r"), F.bround(Sale.price, 1).alias("b")),
    }


def frames() -> dict[str, DataFrame[Any]]:
    """Named frames covering every step and expression the export and the local engine take."""
    s = sales()
    return {
        "source": s,
        "filter": s.filter((Sale.amount > 1) & Sale.note.is_not_null()),
        "filter_or_not": s.filter(~(Sale.shop == "a") | (Sale.price <= 0.0)),
        "select_arithmetic": s.select(
            Sale.id,
            (Sale.amount + Sale.id).alias("total"),
            (Sale.price * 2).alias("twice"),
            (-Sale.amount).alias("neg"),
        ),
        "with_columns": s.with_columns((Sale.amount - 1).alias("less"), F.upper(Sale.shop).alias("up")),
        "strings": s.select(
            Sale.id,
            F.lower(Sale.note).alias("low"),
            F.length(Sale.note).alias("chars"),
            F.trim(Sale.note).alias("trimmed"),
            F.ltrim(Sale.note).alias("left"),
            F.rtrim(Sale.note).alias("right"),
            Sale.note.str.starts_with(" ").alias("starts"),
            Sale.note.str.ends_with(" ").alias("ends"),
            Sale.note.str.contains("'").alias("quote"),
        ),
        "literals": s.select(
            Sale.id,
            F.lit("x' OR '1'='1").alias("text"),
            F.lit(datetime.date(2000, 2, 29)).alias("day"),
            F.lit(Decimal("12.50")).alias("money"),
            F.lit(None).cast(int).alias("nothing"),
            F.lit(True).alias("yes"),
        ),
        "conditionals": s.select(
            Sale.id,
            F.coalesce(Sale.discount, Sale.amount).alias("d"),
            F.when(Sale.amount > 2, "big").when(Sale.amount < 0, "negative").otherwise("small").alias("size"),
            F.when(Sale.amount > 2, Sale.price).alias("no_otherwise"),
            F.when(Sale.amount > 2, Sale.amount).otherwise(Sale.price).alias("widened"),
            F.when(Sale.amount > 2, F.lit(Decimal("1.5"))).otherwise(F.lit(Decimal("10.25"))).alias("decimals"),
            F.coalesce(Sale.discount, Sale.price).alias("wide_coalesce"),
            Sale.shop.is_in(["a", "c"]).alias("listed"),
            Sale.discount.is_null().alias("missing"),
            F.abs(Sale.amount).alias("abs"),
        ),
        "dates_and_patterns": s.select(
            Sale.id,
            F.year(Sale.day).alias("y"),
            F.month(Sale.day).alias("m"),
            F.dayofmonth(Sale.day).alias("d"),
            F.quarter(Sale.day).alias("q"),
            Sale.note.str.like("%'%").alias("quoted"),
            Sale.shop.str.like("_").alias("one_char"),
            F.substring(Sale.note, 2, 3).alias("middle"),
        ),
        "count_if": s.group_by("shop").agg(
            F.count_if(Sale.amount > 0).alias("positive"), F.count_if(Sale.note.is_null()).alias("no_note")
        ),
        "between": s.select(
            Sale.id,
            Sale.amount.between(0, 3).alias("both"),
            Sale.price.between(0.0, 2.25, closed="left").alias("left"),
            Sale.day.between(datetime.date(2024, 1, 2), datetime.date(2024, 2, 3), closed="none").alias("none"),
        ),
        "decimals": s.select(
            Sale.id,
            (F.lit(Decimal("1.25")) * Sale.amount).alias("scaled"),
            (F.lit(Decimal("1.25")) - Sale.amount + F.lit(Decimal("0.001"))).alias("shifted"),
        ),
        "division": s.select(Sale.id, (Sale.price / Sale.id).alias("ratio"), (Sale.amount / 4).alias("quarter")),
        "count_distinct": s.group_by("day").agg(F.count_distinct(Sale.shop).alias("shops")),
        "mixed_widths": s.select(Sale.id, (F.lit(2).cast(int) + Sale.amount).alias("sum")),
        "windows": s.with_columns(
            F.row_number().over(Window.partition_by(Sale.shop).order_by(Sale.id)).alias("n"),
            F.rank().over(Window.order_by(Sale.day)).alias("r"),
            F.dense_rank().over(Window.order_by(Sale.day, descending=True)).alias("dr"),
            F.percent_rank().over(Window.order_by(Sale.amount)).alias("pr"),
            F.cume_dist().over(Window.partition_by(Sale.day).order_by(Sale.amount)).alias("cd"),
            F.sum(Sale.amount).over(Window.partition_by(Sale.shop)).alias("shop_total"),
            F.sum(Sale.amount).over(Window.order_by(Sale.id)).alias("running"),
            F.avg(Sale.price).over(Window.order_by(Sale.id).rows_between(-1, 1)).alias("smooth"),
            F.count(Sale.note).over(Window.order_by(Sale.note, nulls_last=True)).alias("notes_so_far"),
        ),
        "range_offsets": s.with_columns(
            F.max(Sale.discount).over(Window.order_by(Sale.amount).range_between(-3, 0)).alias("recent_max"),
        ),
        "float_extremes": s.group_by("shop").agg(F.min(Sale.price).alias("low")),
        "melt": s.melt(id_vars=["id"], value_vars=["amount", "discount"]),
        "melt_one": s.melt(id_vars=["id", "shop"], value_vars=["note"], variable_name="which", value_name="text"),
        "pivot": s.pivot(
            index="shop",
            columns="day",
            values="amount",
            aggregate_function="sum",
            pivot_values=[datetime.date(2024, 2, 3), datetime.date(2024, 1, 2)],
        ),
        "physical": s.repartition(2).cache().hint("broadcast").coalesce(1).filter(Sale.amount > 0),
        "casts": s.select(Sale.id, Sale.amount.cast(float).alias("as_double")),
        "sort_limit": s.sort(Sale.note, Sale.amount, descending=[True, False], nulls_last=[False, True]).limit(3),
        "offset": s.sort(Sale.id).offset(1),
        "distinct": s.select(Sale.shop, Sale.day).unique(),
        "group_by": s.group_by("shop").agg(
            F.sum(Sale.amount).alias("total"),
            F.min(Sale.id).alias("low"),
            F.max(Sale.note).alias("last_note"),
            F.avg(Sale.amount).alias("mean"),
            F.count(Sale.discount).alias("discounts"),
        ),
        "over_aggregates": s.group_by("shop", "day").agg(
            (F.sum(Sale.amount) * 2 + F.count(Sale.note)).alias("score"),
            F.max(Sale.amount).alias("top"),
            (F.min(Sale.amount) - F.sum(Sale.amount)).alias("spread"),
        ),
        "group_by_nullable_key": s.group_by("discount").agg(F.sum(Sale.amount).alias("total")),
        "group_by_keeping_nulls": s.group_by("discount", drop_nulls=False).agg(F.count(Sale.id).alias("n")),
        "whole_frame": s.select(F.sum(Sale.price).alias("revenue"), F.count(Sale.note).alias("notes")),
        "join_inner": s.join(shops(), on="shop"),
        "join_left": s.join(shops(), on="shop", how="left"),
        "join_full": s.join(shops(), on="shop", how="full", coalesce=True),
        "join_full_apart": s.join(shops(), on="shop", how="full"),
        "join_right": s.join(shops(), on="shop", how="right"),
        "join_semi": s.join(shops(), on="shop", how="semi"),
        "join_anti": s.join(shops(), on="shop", how="anti"),
        "union": s.union(s.filter(Sale.amount > 0)),
        "union_by_name": s.select(Sale.id, Sale.note).union_by_name(
            s.select(Sale.shop, Sale.id), allow_missing_columns=True
        ),
        "intersect": s.select(Sale.shop).intersect(shops().select(Shop.shop)),
        "intersect_all": s.select(Sale.shop).intersect_all(s.select(Sale.shop)),
        "subtract": s.select(Sale.shop).subtract(shops().select(Shop.shop)),
        "except_all": s.select(Sale.shop).except_all(s.filter(Sale.id > 2).select(Sale.shop)),
        "join_condition": s.join(shops(), on=["shop", Sale.note != Shop.city], how="left"),
        "join_only_conditions": s.join(shops(), on=(Sale.shop < Shop.shop) & (Shop.city.is_not_null())),
        "cross": s.select(Sale.id).join(shops().select(Shop.city), how="cross"),
        "cross_with_condition": s.join(shops(), on=Sale.shop == Shop.shop, how="cross"),
        "self_join": s.join(s.select(Sale.id, Sale.price), on="id", suffix="_again"),
    }


@functools.cache
def spark_answer(name: str) -> pa.Table:
    """Spark's result of the frame ``name`` (of ``frames()`` or ``local_frames()``), computed once per test run.

    The local engine's test and DuckDB's both compare with it (one Spark job per frame, not two).
    """
    return {**frames(), **local_frames()}[name].to_arrow(engine="spark")
