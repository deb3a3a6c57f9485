"""Broken: column names given as strings that the frame does not have."""

from __future__ import annotations

from models import Customer, Order, OrderLine, PageView, Product

from pydantable_spark import F, Window

customers = Customer.from_rows([])
orders = Order.from_rows([])
lines = OrderLine.from_rows([])
products = Product.from_rows([])
views = PageView.from_rows([])


def case_sort() -> None:
    orders.sort("plaed_at")  # expect: mypy plan


def case_sort_second_key() -> None:
    orders.sort("channel", "sttus", descending=[False, True])  # expect: mypy plan


def case_unique_subset_list() -> None:
    orders.unique(subset=["custmer_id"])  # expect: mypy plan


def case_unique_subset_name() -> None:
    orders.unique(subset="chanel", keep="first")  # expect: mypy plan


def case_drop() -> None:
    orders.drop("cupon")  # expect: mypy plan


def case_drop_several() -> None:
    orders.drop("coupon", "channel", "coupon_code")  # expect: mypy plan


def case_rename() -> None:
    orders.rename({"chanel": "source"})  # expect: mypy plan


def case_window_partition() -> None:
    w = Window.partition_by("custmer_id").order_by("placed_at")
    orders.with_columns(nth=F.row_number().over(w))  # expect: mypy plan


def case_window_order() -> None:
    w = Window.partition_by("customer_id").order_by("placed")
    orders.with_columns(nth=F.row_number().over(w))  # expect: mypy plan


def case_window_inline() -> None:
    lines.with_columns(
        share=OrderLine.quantity / F.sum(OrderLine.quantity).over(Window.partition_by("order"))
    )  # expect: mypy plan


def case_join_on() -> None:
    orders.join(customers, on="customer")  # expect: mypy plan


def case_join_on_list() -> None:
    lines.join(lines, on=["order_id", "line"])  # expect: mypy plan


def case_join_left_on() -> None:
    orders.join(customers, left_on="customer", right_on="id")  # expect: mypy plan


def case_join_right_on() -> None:
    orders.join(customers, left_on="customer_id", right_on="cust_id")  # expect: mypy plan


def case_join_on_missing_right() -> None:
    orders.join(customers, on="customer_id")  # expect: mypy plan


def case_group_by() -> None:
    orders.group_by("chanel").agg(n=F.count())  # expect: mypy plan


def case_group_by_second_key() -> None:
    orders.group_by("channel", "stauts").agg(n=F.count())  # expect: mypy plan


def case_select() -> None:
    orders.select("id", "chanel")  # expect: mypy plan


def case_drop_nulls_subset() -> None:
    orders.drop_nulls(subset=["cupon"])  # expect: mypy plan


def case_fill_null_subset() -> None:
    lines.fill_null(0.0, subset=["discont"])  # expect: mypy plan


def case_explode() -> None:
    customers.explode("tag")  # expect: mypy plan


def case_select_exclude() -> None:
    customers.select(exclude=["emial"])  # expect: mypy plan


def case_duplicated_subset() -> None:
    orders.duplicated(subset=["custmer_id"])  # expect: mypy plan


def case_melt_value_vars() -> None:
    products.melt(id_vars=["id"], value_vars=["prize"])  # expect: mypy plan


def case_posexplode() -> None:
    customers.posexplode("tagz")  # expect: mypy plan


def case_count_distinct_name() -> None:
    orders.group_by("channel").agg(buyers=F.count_distinct("custmer_id"))  # expect: mypy plan


def case_tuple_form_aggregate() -> None:
    lines.group_by("order_id").agg(items=("sum", "quantty"))  # expect: mypy plan


def case_unnest() -> None:
    customers.unnest("adress")  # expect: mypy plan


def case_name_after_rename() -> None:
    orders.rename({"channel": "source"}).sort("channel")  # expect: mypy plan


def case_alias_field_by_attribute_name() -> None:
    from models import Shipment

    Shipment.from_rows([]).select("order_id", "tracking")  # expect: mypy plan
