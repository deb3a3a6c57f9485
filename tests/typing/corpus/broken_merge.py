"""Broken: MERGE clauses the runtime refuses when ``merge_into`` is called (before Spark runs anything)."""

from __future__ import annotations

import datetime

from models import Product, ProductChange, StockLevel

from pydantable_spark import DataFrame, F
from pydantable_spark.merge import Delete, Update, delete, insert, insert_all, source, target, update, update_all

feed = ProductChange.from_rows([])
stock = StockLevel.from_rows([])
PRODUCTS = "lake.shop.products"
STOCK = "lake.shop.stock"


def case_str_into_float() -> None:
    feed.merge_into(PRODUCTS, model=Product, on="id", when_matched=update(price=source.col("sku")))  # expect: mypy plan


def case_nullable_into_non_null() -> None:
    renamed = update(title=source.col("title"))
    feed.merge_into(PRODUCTS, model=Product, on="id", when_matched=renamed)  # expect: mypy plan


def case_source_column_typo() -> None:
    repriced = update(price=source.col("prcie"))
    feed.merge_into(PRODUCTS, model=Product, on="id", when_matched=repriced)  # expect: mypy plan


def case_target_column_typo() -> None:
    repriced = update(pirce=source.col("price"))
    feed.merge_into(PRODUCTS, model=Product, on="id", when_matched=repriced)  # expect: mypy plan


def case_condition_not_boolean() -> None:
    gone = delete(condition=source.col("price"))
    feed.merge_into(PRODUCTS, model=Product, on="id", when_matched=gone)  # expect: mypy plan


def case_insert_leaves_out_non_null_columns() -> None:
    feed.merge_into(
        PRODUCTS,
        model=Product,
        on="id",
        when_not_matched=insert(id=source.col("id"), sku=source.col("sku")),  # expect: mypy plan
    )


def case_update_all_with_columns_the_source_lacks() -> None:
    feed.merge_into(PRODUCTS, model=Product, on="id", when_matched=update_all())  # expect: mypy plan


def case_random_condition() -> None:
    sample = delete(condition=F.rand() < 0.1)
    feed.merge_into(PRODUCTS, model=Product, on="id", when_matched=sample)  # expect: mypy plan


def case_unconditional_clause_not_last() -> None:
    clauses: list[Update | Delete] = [update(price=source.col("price")), delete(condition=source.col("discontinued"))]
    feed.merge_into(PRODUCTS, model=Product, on="id", when_matched=clauses)  # expect: mypy plan


def case_update_all_by_source() -> None:
    stock.merge_into(STOCK, on="sku", when_not_matched_by_source=update_all())  # expect: mypy plan


def case_target_read_in_insert() -> None:
    fresh = insert_all(condition=target.col("on_hand") > 0)
    stock.merge_into(STOCK, on="sku", when_not_matched=fresh)  # expect: mypy plan


def case_source_read_by_source_clause() -> None:
    recount = update(on_hand=source.col("on_hand"))
    stock.merge_into(STOCK, on="sku", when_not_matched_by_source=recount)  # expect: mypy plan


def case_unknown_key() -> None:
    feed.merge_into(PRODUCTS, model=Product, on="product_id", when_matched=delete())  # expect: mypy plan


def case_keys_not_comparable() -> None:
    on = source.col("sku") == target.col("id")
    feed.merge_into(PRODUCTS, model=Product, on=on, when_matched=delete())  # expect: mypy plan


def case_side_unsaid() -> None:
    feed.merge_into(PRODUCTS, model=Product, on="id", when_matched=update(sku=F.col("sku")))  # expect: mypy plan


def case_null_into_non_null() -> None:
    stock.merge_into(STOCK, on="sku", when_not_matched_by_source=update(on_hand=None))  # expect: mypy plan


def case_double_into_bigint() -> None:
    rekeyed = update(id=source.col("price") * 100)
    feed.merge_into(PRODUCTS, model=Product, on="id", when_matched=rekeyed)  # expect: mypy plan


def case_date_into_bigint_from_a_parameter() -> None:
    def restock(levels: DataFrame[StockLevel], today: datetime.date) -> None:
        levels.merge_into(STOCK, on="sku", when_matched=update(on_hand=today))  # expect: mypy plan

    restock(stock, datetime.date(2024, 6, 1))


def case_no_clause() -> None:
    stock.merge_into(STOCK, on="sku")  # expect: mypy plan


def case_table_and_path() -> None:
    stock.merge_into(STOCK, path="/lake/stock", on="sku", when_matched=update_all())  # expect: mypy plan


def case_table_name_from_a_parameter() -> None:
    def sync(table: str) -> None:
        weighed = update(weight_kg=source.col("sku"))
        feed.merge_into(table, model=Product, on="id", when_matched=weighed)  # expect: mypy plan

    sync(PRODUCTS)


def case_derived_frame_update_all() -> None:
    priced = feed.select(ProductChange.id, ProductChange.sku, ProductChange.price)
    priced.merge_into(PRODUCTS, model=Product, on="id", when_matched=update_all())  # expect: mypy plan
