"""Valid: order revenue, per customer and per product category, with stage boundaries."""

from __future__ import annotations

import datetime
from typing import Any

from models import Customer, DailySales, Order, OrderLine, OrderStatus, Product, Revenue

from pydantable_spark import DataFrame, DataFrameModel, Expr, F, Window

# --- reusable expressions ------------------------------------------------------------------------

gross = OrderLine.quantity * OrderLine.unit_price
net = gross * (1 - OrderLine.discount.fill_null(0.0))
is_paid = Order.status.is_in([OrderStatus.PAID, OrderStatus.SHIPPED])


def share_of(part: Expr[float | None], whole: Expr[float | None]) -> Expr[float | None]:
    """A helper over expressions: used with columns of whichever frame it is given."""
    return F.round(part / whole * 100, 1)


class LineAmount(DataFrameModel):
    order_id: int
    product_id: int
    quantity: int
    amount: float | None


class CategoryRank(DataFrameModel):
    category: str
    product_id: int
    revenue: float | None
    rank: int


def line_amounts(lines: DataFrame[OrderLine]) -> DataFrame[LineAmount]:
    amounts = lines.with_columns(amount=net)
    amounts = amounts.filter(OrderLine.quantity > 0)
    return amounts.select(OrderLine.order_id, OrderLine.product_id, OrderLine.quantity, "amount").as_model(LineAmount)


def paid_orders(orders: DataFrame[Order], since: datetime.datetime) -> DataFrame[Order]:
    return orders.filter(is_paid & (Order.placed_at >= since))


def revenue_per_customer(orders: DataFrame[Order], amounts: DataFrame[LineAmount]) -> DataFrame[Revenue]:
    joined = amounts.join(orders, left_on=LineAmount.order_id, right_on=Order.id, how="inner")
    per_customer = joined.group_by(Order.customer_id).agg(
        revenue=F.sum(LineAmount.amount),
        orders=F.count_distinct(LineAmount.order_id),
    )
    return per_customer.sort("revenue", descending=True).as_model(Revenue)


def top_products(lines: DataFrame[OrderLine], products: DataFrame[Product], n: int = 3) -> DataFrame[CategoryRank]:
    enriched = line_amounts(lines).join(products, left_on=LineAmount.product_id, right_on=Product.id)
    per_product = enriched.group_by(Product.category, LineAmount.product_id).agg(revenue=F.sum(LineAmount.amount))
    by_category = Window.partition_by("category").order_by(F.col("revenue"), descending=True)
    ranked = per_product.with_columns(rank=F.dense_rank().over(by_category))
    ranked = ranked.filter(F.col("rank") <= n)
    return ranked.as_model(CategoryRank)


def daily_sales(orders: DataFrame[Order], lines: DataFrame[OrderLine]) -> DataFrame[DailySales]:
    dated = orders.with_columns(day=Order.placed_at.cast(datetime.date))
    joined = lines.join(dated, left_on=OrderLine.order_id, right_on=Order.id)
    daily = joined.group_by("day", Order.channel).agg(lines=F.count(), revenue=F.sum(net))
    return daily.as_model(DailySales)


def running_totals(daily: DataFrame[DailySales]) -> DataFrame[Any]:
    to_date = Window.partition_by(DailySales.channel).order_by(DailySales.day).rows_between(None, 0)
    last_week = Window.partition_by(DailySales.channel).order_by(DailySales.day).rows_between(-6, 0)
    out = daily.with_columns(
        cumulative=F.sum(DailySales.revenue).over(to_date),
        weekly_avg=F.avg(DailySales.revenue).over(last_week),
        previous=F.lag(DailySales.revenue, 1).over(Window.partition_by("channel").order_by("day")),
    )
    out = out.with_columns(change=F.col("revenue") - F.col("previous"))
    return out.with_columns(share=share_of(DailySales.revenue, F.sum(DailySales.revenue).over(to_date)))


def customer_report(customers: DataFrame[Customer], revenue: DataFrame[Revenue]) -> DataFrame[Any]:
    report = customers.join(revenue, left_on=Customer.id, right_on=Revenue.customer_id, how="left")
    report = report.with_columns(
        revenue=F.coalesce(F.col("revenue"), F.lit(0.0)),
        orders=F.coalesce(F.col("orders"), F.lit(0)),
        segment=F.when(F.col("revenue") > 1000, "vip").when(F.col("revenue") > 100, "regular").otherwise("new"),
    )
    return report.select(Customer.id, Customer.name, Customer.tier, "revenue", "orders", "segment")


def build() -> list[DataFrame[Any]]:
    orders = Order.from_rows([])
    lines = OrderLine.from_rows([])
    products = Product.from_rows([])
    customers = Customer.from_rows([])
    recent = paid_orders(orders, datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc))
    revenue = revenue_per_customer(recent, line_amounts(lines))
    daily = daily_sales(recent, lines)
    return [
        revenue,
        top_products(lines, products),
        daily,
        running_totals(daily),
        customer_report(customers, revenue),
    ]
