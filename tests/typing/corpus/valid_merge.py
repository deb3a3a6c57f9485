"""Valid: keeping the product and stock tables with typed MERGEs (they run on Delta Lake; see docs/lakehouse.md).

``build()`` returns the frames the merges read; ``merges()`` the merges themselves,
each of which passes every check ``merge_into`` makes before Spark runs anything.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

from models import Product, ProductChange, StockLevel

from pydantable_spark import DataFrame, DataFrameModel, F
from pydantable_spark.merge import (
    Delete,
    MergeMetrics,
    Update,
    delete,
    insert,
    insert_all,
    source,
    target,
    update,
    update_all,
)

PRODUCTS = "lake.shop.products"
STOCK = "lake.shop.stock"


class StagedProduct(DataFrameModel):
    id: int
    sku: str
    title: str
    category: str
    price: float
    weight_kg: float | None
    active: bool


def staged(feed: DataFrame[ProductChange]) -> DataFrame[StagedProduct]:
    filled = feed.with_columns(
        title=F.coalesce(ProductChange.title, ProductChange.sku),
        category=F.lit("unsorted"),
        active=~ProductChange.discontinued,
    )
    return filled.select("id", "sku", "title", "category", "price", "weight_kg", "active").as_model(StagedProduct)


def sync_products(feed: DataFrame[ProductChange]) -> MergeMetrics:
    changes: list[Update | Delete] = [
        delete(condition=source.col("discontinued")),
        update(price=source.col("price"), weight_kg=F.coalesce(source.col("weight_kg"), target.col("weight_kg"))),
    ]
    return feed.merge_into(
        PRODUCTS,
        model=Product,
        on="id",
        when_matched=changes,
        when_not_matched=insert(
            id=source.col("id"),
            sku=source.col("sku"),
            title=F.coalesce(source.col("title"), source.col("sku")),
            category="unsorted",
            price=source.col("price"),
            active=True,
            condition=~source.col("discontinued"),
        ),
    )


def replace_products(products: DataFrame[StagedProduct], table: str) -> MergeMetrics:
    return products.merge_into(
        table,
        model=Product,
        on=(source.col("id") == target.col("id")) & (source.col("sku") == target.col("sku")),
        when_matched=update_all(condition=source.col("price") != target.col("price")),
        when_not_matched=insert_all(),
        when_not_matched_by_source=update(active=False),
    )


def reprice(products: DataFrame[StagedProduct], rate: float) -> MergeMetrics:
    return products.merge_into(
        PRODUCTS,
        model=Product,
        on="id",
        when_matched=update(price=target.col("price") * rate, condition=target.col("active")),
    )


def count_stock(levels: DataFrame[StockLevel], today: datetime.date) -> MergeMetrics:
    return levels.merge_into(
        STOCK,
        on="sku",
        when_matched=[
            delete(condition=(source.col("on_hand") == 0) & target.col("reserved").is_null()),
            update(
                on_hand=target.col("on_hand") + source.col("on_hand"),
                reserved=F.coalesce(source.col("reserved"), target.col("reserved")),
                updated_on=today,
            ),
        ],
        when_not_matched=insert_all(updated_on=today),
        when_not_matched_by_source=update(updated_on=today, condition=target.col("updated_on") < today),
    )


def clear_reservations(levels: DataFrame[StockLevel]) -> MergeMetrics:
    return levels.merge_into(path="/lake/stock", on="sku", when_matched=update({"reserved": None}))


def build() -> list[DataFrame[Any]]:
    return [staged(ProductChange.from_rows([])), StockLevel.from_rows([])]


def merges() -> list[Callable[[], MergeMetrics]]:
    feed = ProductChange.from_rows([])
    levels = StockLevel.from_rows([])
    today = datetime.date(2024, 6, 1)
    return [
        lambda: sync_products(feed),
        lambda: replace_products(staged(feed), PRODUCTS),
        lambda: reprice(staged(feed), 1.1),
        lambda: count_stock(levels, today),
        lambda: clear_reservations(levels),
    ]
