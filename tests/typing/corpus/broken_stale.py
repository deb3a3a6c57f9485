"""Broken: a column of another model, or one that is no longer in the frame.

Each ``case_*`` function is one broken pipeline; the line with the mistake ends
in ``# expect: <catch>`` (see ``test_corpus.py``).
"""

from __future__ import annotations

import datetime

from models import Customer, Order, OrderLine, OrderStatus, Product, Shipment

from pydantable_spark import F, Window

customers = Customer.from_rows([])
orders = Order.from_rows([])
lines = OrderLine.from_rows([])
products = Product.from_rows([])
shipments = Shipment.from_rows([])


def case_select_column_of_other_model() -> None:
    orders.select(Order.id, Customer.name)  # expect: mypy plan


def case_filter_column_of_other_model() -> None:
    lines.filter(Product.active)  # expect: mypy plan


def case_filter_after_drop() -> None:
    slim = orders.drop("coupon")
    slim.filter(Order.coupon.is_not_null())  # expect: mypy plan


def case_with_columns_after_drop() -> None:
    slim = lines.drop("discount")
    slim.with_columns(net=OrderLine.unit_price * (1 - OrderLine.discount))  # expect: mypy plan


def case_select_after_rename() -> None:
    renamed = orders.rename({"channel": "source"})
    renamed.select(Order.id, Order.channel)  # expect: mypy plan


def case_filter_not_selected() -> None:
    picked = orders.select(Order.id, Order.status)
    picked.filter(Order.channel == "web")  # expect: mypy plan


def case_sort_not_aggregated() -> None:
    per_customer = orders.group_by(Order.customer_id).agg(n=F.count())
    per_customer.sort(Order.placed_at)  # expect: mypy plan


def case_select_not_aggregated() -> None:
    per_channel = orders.group_by(Order.channel).agg(n=F.count())
    per_channel.select(Order.channel, Order.coupon)  # expect: mypy plan


def case_semi_join_drops_right_columns() -> None:
    buyers = customers.join(orders, left_on=Customer.id, right_on=Order.customer_id, how="semi")
    buyers.select(Customer.name, Order.placed_at)  # expect: mypy plan


def case_anti_join_drops_right_columns() -> None:
    idle = customers.join(orders, left_on=Customer.id, right_on=Order.customer_id, how="anti")
    idle.filter(Order.channel == "web")  # expect: mypy plan


def case_filter_after_select_alias() -> None:
    amounts = lines.select(OrderLine.order_id, (OrderLine.quantity * OrderLine.unit_price).alias("amount"))
    amounts.filter(OrderLine.quantity > 1)  # expect: mypy plan


def case_agg_column_of_other_model() -> None:
    lines.group_by(OrderLine.order_id).agg(list_price=F.sum(Product.price))  # expect: mypy plan


def case_window_partition_other_model() -> None:
    w = Window.partition_by(Order.customer_id).order_by(OrderLine.line_no)
    lines.with_columns(rn=F.row_number().over(w))  # expect: mypy plan


def case_window_order_by_dropped_column() -> None:
    slim = lines.drop("line_no")
    w = Window.partition_by(OrderLine.order_id).order_by(OrderLine.line_no)
    slim.with_columns(rn=F.row_number().over(w))  # expect: mypy plan


def case_sort_other_model() -> None:
    products.sort(OrderLine.unit_price)  # expect: mypy plan


def case_rebinding_then_stale() -> None:
    df = orders.select(Order.id, Order.customer_id, Order.status)
    df = df.with_columns(has_coupon=Order.coupon.is_not_null())  # expect: mypy plan


def case_join_left_on_wrong_side() -> None:
    lines.join(products, left_on=Product.id, right_on=Product.id)  # expect: mypy plan


def case_alias_field_dropped() -> None:
    untracked = shipments.drop("trackingNo")
    untracked.filter(Shipment.tracking.is_null())  # expect: mypy plan


def case_struct_of_column_not_selected() -> None:
    ids = customers.select(Customer.id, Customer.name)
    ids.with_columns(city=Customer.address.struct.field("city"))  # expect: mypy plan


def case_unique_subset_dropped() -> None:
    orders.drop("coupon").unique(subset=[Order.coupon])  # expect: mypy plan


def case_group_by_dropped() -> None:
    orders.drop("channel").group_by(Order.channel).agg(n=F.count())  # expect: mypy plan


def case_when_branch_other_model() -> None:
    orders.with_columns(who=F.when(Order.coupon.is_null(), Customer.name).otherwise("-"))  # expect: mypy plan


def case_function_of_other_model() -> None:
    orders.with_columns(shout=F.upper(Customer.name))  # expect: mypy plan


def case_drop_nulls_subset_dropped() -> None:
    orders.drop("coupon").drop_nulls(subset=[Order.coupon])  # expect: mypy plan


def case_exclude_then_use() -> None:
    public = customers.select(exclude=["email"])
    public.filter(Customer.email.is_not_null())  # expect: mypy plan


def case_branch_rebinding_then_stale(detailed: bool = True) -> None:
    df = lines.select(OrderLine.order_id, OrderLine.quantity)
    if detailed:
        df = df.with_columns(twice=OrderLine.quantity * 2)
    df.filter(OrderLine.unit_price > 0)  # expect: mypy plan


def case_agg_then_group_again_by_gone_key() -> None:
    daily = orders.group_by(Order.customer_id, Order.channel).agg(n=F.count())
    daily.group_by(Order.status).agg(total=F.sum(F.col("n")))  # expect: mypy plan


def case_join_then_dropped_key() -> None:
    joined = lines.join(products, left_on=OrderLine.product_id, right_on=Product.id).drop("sku")
    joined.select(OrderLine.order_id, Product.sku)  # expect: mypy plan


def case_row_attribute_not_selected() -> None:
    placed = datetime.datetime(2024, 5, 1, 12, 0, tzinfo=datetime.timezone.utc)
    order = Order(
        id=1, customer_id=7, placed_at=placed, status=OrderStatus.PAID, channel="web", coupon=None, shipping_fee=0
    )
    rows = Order.from_rows([order]).select(Order.id, Order.channel).collect()
    print(rows[0].status)  # expect: mypy spark


def case_row_attribute_renamed() -> None:
    mug = Product(id=1, sku="A-1", title="Mug", category="home", price=9.5, weight_kg=None, active=True)
    rows = Product.from_rows([mug]).rename({"title": "name"}).collect()
    print(rows[0].title)  # expect: mypy spark


def case_over_other_model_column() -> None:
    w = Window.partition_by(OrderLine.order_id).order_by(OrderLine.line_no)
    lines.with_columns(prev=F.lag(Product.price).over(w))  # expect: mypy plan


def case_as_model_missing_column() -> None:
    from models import Revenue

    lines.group_by(OrderLine.order_id).agg(revenue=F.sum(OrderLine.unit_price)).as_model(Revenue)  # expect: mypy plan
