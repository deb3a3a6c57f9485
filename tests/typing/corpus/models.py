"""The tables of a small online shop, shared by the corpus modules."""

from __future__ import annotations

import datetime
import decimal
import enum
from typing import Literal

from pydantic import Field

from pydantable_spark import DataFrameModel


class OrderStatus(str, enum.Enum):
    PLACED = "placed"
    PAID = "paid"
    SHIPPED = "shipped"
    CANCELLED = "cancelled"


class Address(DataFrameModel):
    street: str
    city: str
    postcode: str | None
    country: str


class Customer(DataFrameModel):
    id: int
    name: str
    email: str | None
    signup: datetime.date
    tier: Literal["gold", "silver", "bronze"]
    address: Address | None
    tags: list[str]
    marketing_opt_in: bool


class Product(DataFrameModel):
    id: int
    sku: str
    title: str
    category: str
    price: float
    weight_kg: float | None
    active: bool


class Order(DataFrameModel):
    id: int
    customer_id: int
    placed_at: datetime.datetime
    status: OrderStatus
    channel: str
    coupon: str | None
    shipping_fee: decimal.Decimal


class OrderLine(DataFrameModel):
    order_id: int
    line_no: int
    product_id: int
    quantity: int
    unit_price: float
    discount: float | None


class Shipment(DataFrameModel):
    order_id: int
    tracking: str | None = Field(default=None, alias="trackingNo")
    carrier: str
    shipped_on: datetime.date | None
    delivered_on: datetime.date | None


class PageView(DataFrameModel):
    customer_id: int | None
    viewed_at: datetime.datetime
    path: str
    duration_ms: int | None
    attributes: dict[str, str]


# --- stage outputs ------------------------------------------------------------------------------


class Revenue(DataFrameModel):
    customer_id: int
    revenue: float | None
    orders: int


class DailySales(DataFrameModel):
    day: datetime.date
    channel: str
    lines: int
    revenue: float | None


# --- MERGE sources ----------------------------------------------------------------------------


class ProductChange(DataFrameModel):  # a supplier's feed, merged into the Product table
    id: int
    sku: str
    title: str | None
    price: float
    weight_kg: float | None
    discontinued: bool


class StockLevel(DataFrameModel):  # the stock table, kept by MERGE
    sku: str
    on_hand: int
    reserved: int | None
    updated_on: datetime.date


# --- lists and maps, for higher-order functions ---------------------------------------------------------


class Basket(DataFrameModel):  # a shopping basket, its lists and maps read by lambdas
    id: int
    customer_id: int
    opened: datetime.date
    codes: list[str]
    weights: list[float]
    scans: list[datetime.datetime]
    legs: list[list[float]]
    prices: dict[str, float]
    labels: dict[str, str]


# --- text typed by models (F.from_json, from_csv, from_xml) ---------------------------------------


class Ping(DataFrameModel):  # a device's ping: its reading as JSON text, a CSV line, an XML record
    ping_id: int
    device: str
    payload: str
    line: str


class Reading(DataFrameModel):  # the model the text is parsed as
    speed_kmh: float
    heading: str


class Track(DataFrameModel):  # a reading with a list: not a CSV record
    points: list[float]
