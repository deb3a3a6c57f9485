"""Valid: customer segmentation with structs, lists, conditional columns and selectors."""

from __future__ import annotations

import datetime
from typing import Any

from models import Address, Customer, Order

from pydantable_spark import DataFrame, DataFrameModel, F, Window, cs

CUTOFF = datetime.date(2023, 6, 30)
TIERS = ["gold", "silver"]


class Contact(DataFrameModel):
    id: int
    name: str
    email: str | None
    city: str | None
    country: str | None


class Segment(DataFrameModel):
    country: str | None
    tier: str
    customers: int
    opted_in: int


def contacts(customers: DataFrame[Customer]) -> DataFrame[Contact]:
    with_city = customers.with_columns(
        city=Customer.address.struct.field("city"),
        country=Customer.address.struct.field("country"),
    )
    cleaned = with_city.with_columns(email=F.lower(F.trim(Customer.email)))
    return cleaned.select(Customer.id, Customer.name, Customer.email, "city", "country").as_model(Contact)


def segments(customers: DataFrame[Customer]) -> DataFrame[Segment]:
    located = customers.with_columns(country=Customer.address.struct.field("country"))
    grouped = located.group_by("country", Customer.tier, drop_nulls=False).agg(
        customers=F.count(),
        opted_in=F.count_if(Customer.marketing_opt_in),
    )
    return grouped.as_model(Segment)


def tagged(customers: DataFrame[Customer]) -> DataFrame[Any]:
    flagged = customers.with_columns(
        is_vip=Customer.tags.list.contains("vip"),
        tag_count=Customer.tags.list.len(),
        first_tag=Customer.tags.list.get(0),
    )
    one_per_tag = flagged.explode("tags")
    one_per_tag = one_per_tag.with_columns(tag=F.upper(F.col("tags")))
    return one_per_tag.group_by("tag").agg(customers=F.count_distinct(Customer.id))


def tenure(customers: DataFrame[Customer]) -> DataFrame[Any]:
    aged = customers.with_columns(
        days=F.datediff(F.lit(CUTOFF), Customer.signup),
        cohort=Customer.signup.dt.year(),
        band=F.when(F.datediff(F.lit(CUTOFF), Customer.signup) > 365, "long")
        .when(Customer.signup > datetime.date(2023, 1, 1), "new")
        .otherwise("medium"),
    )
    aged = aged.filter(Customer.tier.is_in(TIERS) | F.col("band").is_in(["long"]))
    return aged.sort(Customer.signup, Customer.name, descending=[True, False], nulls_last=True)


def first_orders(customers: DataFrame[Customer], orders: DataFrame[Order]) -> DataFrame[Any]:
    ordered = Window.partition_by(Order.customer_id).order_by(Order.placed_at)
    numbered = orders.with_columns(n=F.row_number().over(ordered))
    first = numbered.filter(F.col("n") == 1).drop("n")
    joined = customers.join(first, left_on=Customer.id, right_on=Order.customer_id, how="left")
    return joined.select(Customer.id, Customer.name, first_channel=F.col("channel"), first_at=F.col("placed_at"))


def distinct_emails(customers: DataFrame[Customer]) -> DataFrame[Customer]:
    known = customers.filter(Customer.email.is_not_null())
    return known.unique(subset=["email"], keep="first", maintain_order=True)


def text_columns(customers: DataFrame[Customer]) -> DataFrame[Any]:
    texts = customers.select(cs.string() - cs.by_name("email"))
    return texts.with_columns(name_len=F.length(F.col("name")))


def addresses(customers: DataFrame[Customer]) -> DataFrame[Any]:
    located = customers.filter(Customer.address.is_not_null()).select(Customer.id, Customer.address)
    flat = located.unnest("address")
    return flat.rename({"address_city": "city", "address_country": "country"}).drop("address_street")


def home_country(address: Address | None) -> str:
    return address.country if address is not None else "?"


def build() -> list[DataFrame[Any]]:
    customers = Customer.from_rows([])
    orders = Order.from_rows([])
    return [
        contacts(customers),
        segments(customers),
        tagged(customers),
        tenure(customers),
        first_orders(customers, orders),
        distinct_emails(customers),
        text_columns(customers),
        addresses(customers),
    ]
