"""Broken: plain Python argument values the runtime refuses (a wrong kind, a value out of range)."""

from __future__ import annotations

import datetime

from models import Customer, Order, OrderLine, Product

from pydantable_spark import F, Window

customers = Customer.from_rows([])
orders = Order.from_rows([])
lines = OrderLine.from_rows([])
products = Product.from_rows([])
by_order = Window.partition_by(OrderLine.order_id).order_by(OrderLine.line_no)


def case_from_rows_of_another_model() -> None:
    product = Product(id=1, sku="A-1", title="Mug", category="home", price=9.5, weight_kg=None, active=True)
    OrderLine.from_rows([product])  # expect: mypy plan


def case_is_in_string() -> None:
    orders.filter(Order.channel.is_in("web"))  # expect: mypy plan


def case_join_validate() -> None:
    orders.join(customers, left_on=Order.customer_id, right_on=Customer.id, validate="1:one")  # expect: mypy plan


def case_cast_to_dict() -> None:
    products.with_columns(p=Product.price.cast(dict))  # expect: mypy plan


def case_lit_of_object() -> None:
    products.with_columns(o=F.lit(object()))  # expect: mypy plan


def case_join_how() -> None:
    orders.join(customers, left_on=Order.customer_id, right_on=Customer.id, how="lft")  # expect: mypy plan


def case_sort_descending_string() -> None:
    orders.sort(Order.placed_at, descending="yes")  # expect: mypy plan


def case_limit_string() -> None:
    orders.limit("5")  # expect: mypy plan


def case_slice_string() -> None:
    products.with_columns(short=Product.title.str.slice("1"))  # expect: mypy plan


def case_lag_offset_string() -> None:
    lines.with_columns(prev=F.lag(OrderLine.unit_price, "1").over(by_order))  # expect: mypy plan


def case_unique_keep() -> None:
    orders.unique(subset=["customer_id"], keep="frist")  # expect: mypy plan


def case_rows_between_string() -> None:
    Window.order_by(OrderLine.line_no).rows_between("a", 0)  # expect: mypy plan


def case_round_scale_string() -> None:
    products.with_columns(p=F.round(Product.price, "2"))  # expect: mypy plan


def case_ntile_zero() -> None:
    lines.with_columns(q=F.ntile(0).over(by_order))  # expect: mypy plan


def case_row_count_offset_string() -> None:
    orders.with_row_count(offset="1")  # expect: mypy plan


def case_concat_how() -> None:
    orders.concat(orders, how="horizontal")  # expect: mypy plan


def case_sort_flags_count() -> None:
    orders.sort("channel", "placed_at", descending=[True])  # expect: mypy plan


def case_window_flags_count() -> None:
    Window.order_by("order_id", "line_no", descending=[True, False, True])  # expect: mypy plan


def case_is_in_wrong_type() -> None:
    lines.filter(OrderLine.quantity.is_in(["1", "2"]))  # expect: mypy plan


def case_untyped_null_literal() -> None:
    lines.with_columns(nothing=F.lit(None))  # expect: mypy plan


def case_literal_too_big() -> None:
    lines.with_columns(big=F.lit(10**20))  # expect: mypy plan


def case_fill_null_none() -> None:
    lines.with_columns(d=OrderLine.discount.fill_null(None))  # expect: mypy plan


def case_date_add_fraction() -> None:
    customers.with_columns(later=F.date_add(Customer.signup, 1.5))  # expect: mypy plan


def case_alias_not_a_string() -> None:
    lines.select(OrderLine.quantity.alias(1))  # expect: mypy plan


def case_drop_nulls_how() -> None:
    orders.drop_nulls(how="some")  # expect: mypy plan


def case_between_wrong_type() -> None:
    customers.filter(Customer.signup.between("2024-01-01", datetime.date(2024, 12, 31)))  # expect: mypy plan


def case_compare_with_none() -> None:
    orders.filter(Order.coupon == None)  # noqa: E711  # expect: mypy plan


def case_limit_negative() -> None:
    orders.limit(-1)  # expect: mypy plan


def case_pivot_unknown_aggregate() -> None:
    lines.pivot("order_id", "product_id", "quantity", "total", pivot_values=[1, 2])  # expect: mypy plan
