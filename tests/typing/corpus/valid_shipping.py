"""Valid: fulfilment tracking, with an aliased field, outer joins and set operations."""

from __future__ import annotations

import datetime
from typing import Any

from models import Order, OrderStatus, Shipment

from pydantable_spark import DataFrame, DataFrameModel, F

TODAY = datetime.date(2024, 6, 1)


class Late(DataFrameModel):
    order_id: int
    carrier: str
    days_in_transit: int | None


def tracked(shipments: DataFrame[Shipment]) -> DataFrame[Shipment]:
    return shipments.filter(Shipment.tracking.is_not_null() & Shipment.tracking.str.starts_with("1Z"))


def transit_times(shipments: DataFrame[Shipment]) -> DataFrame[Any]:
    timed = shipments.with_columns(
        days_in_transit=F.datediff(Shipment.delivered_on, Shipment.shipped_on),
        delivered=Shipment.delivered_on.is_not_null(),
    )
    return timed.select("order_id", "trackingNo", Shipment.carrier, "days_in_transit", "delivered")


def late_shipments(shipments: DataFrame[Shipment], max_days: int = 5) -> DataFrame[Late]:
    open_or_slow = transit_times(shipments).filter((F.col("days_in_transit") > max_days) | ~F.col("delivered"))
    return open_or_slow.as_model(Late)


def fulfilment(orders: DataFrame[Order], shipments: DataFrame[Shipment]) -> DataFrame[Any]:
    joined = orders.join(shipments, left_on=Order.id, right_on=Shipment.order_id, how="left")
    status = joined.with_columns(
        state=F.when(F.col("delivered_on").is_not_null(), "delivered")
        .when(F.col("shipped_on").is_not_null(), "in transit")
        .when(Order.status == OrderStatus.CANCELLED, "cancelled")
        .otherwise("waiting"),
        tracking=F.coalesce(F.col("trackingNo"), F.lit("-")),
    )
    return status.group_by(Order.channel, "state").agg(orders=F.count(), oldest=F.min(Order.placed_at))


def unshipped(orders: DataFrame[Order], shipments: DataFrame[Shipment]) -> DataFrame[Order]:
    waiting = orders.filter(Order.status == OrderStatus.PAID)
    return waiting.join(shipments, left_on=Order.id, right_on=Shipment.order_id, how="anti")


def by_carrier(shipments: DataFrame[Shipment]) -> DataFrame[Any]:
    named = shipments.rename({"trackingNo": "tracking_number"})
    named = named.with_columns(carrier=F.upper(F.trim(F.col("carrier"))))
    counts = named.group_by("carrier").agg(parcels=F.count(), tracked=F.count(F.col("tracking_number")))
    return counts.with_columns(untracked=F.col("parcels") - F.col("tracked")).sort("parcels", descending=True)


def all_shipments(a: DataFrame[Shipment], b: DataFrame[Shipment]) -> DataFrame[Any]:
    both = a.union(b).unique()
    return both.concat(a.filter(Shipment.carrier == "dhl"))


def overdue(shipments: DataFrame[Shipment]) -> DataFrame[Shipment]:
    pending = shipments.filter(Shipment.delivered_on.is_null())
    return pending.filter(Shipment.shipped_on < TODAY).sort(Shipment.shipped_on, nulls_last=True)


def build() -> list[DataFrame[Any]]:
    orders = Order.from_rows([])
    shipments = Shipment.from_rows([])
    return [
        tracked(shipments),
        transit_times(shipments),
        late_shipments(shipments),
        fulfilment(orders, shipments),
        unshipped(orders, shipments),
        by_carrier(shipments),
        all_shipments(shipments, tracked(shipments)),
        overdue(shipments),
    ]
