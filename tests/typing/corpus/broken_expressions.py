"""Broken: operand and argument types of expressions built from model columns (caught before this slice)."""

from __future__ import annotations

from models import Customer, Order, OrderLine, Product, Revenue

from pydantable_spark import F

customers = Customer.from_rows([])
lines = OrderLine.from_rows([])
products = Product.from_rows([])


def case_string_plus_number() -> None:
    Order.channel + 1  # expect: mypy plan


def case_string_method_on_number() -> None:
    OrderLine.quantity.str.upper()  # expect: mypy plan


def case_date_to_int() -> None:
    Customer.signup.cast(int)  # expect: mypy plan


def case_when_branches_disagree() -> None:
    F.when(Product.active, 1).otherwise("none")  # expect: mypy plan


def case_filter_not_boolean() -> None:
    lines.filter(OrderLine.quantity)  # expect: mypy plan


def case_compare_number_with_string() -> None:
    products.filter(Product.price > "10")  # expect: mypy plan


def case_upper_of_number() -> None:
    F.upper(Product.price)  # expect: mypy plan


def case_list_contains_wrong_type() -> None:
    Customer.tags.list.contains(1)  # expect: mypy plan


def case_coalesce_no_common_type() -> None:
    F.coalesce(Order.coupon, Order.id)  # expect: mypy plan


def case_as_model_wrong_type() -> None:
    per_order = lines.group_by(OrderLine.order_id).agg(orders=F.count())
    labelled = per_order.rename({"order_id": "customer_id"}).with_columns(revenue=F.lit("n/a"))
    labelled.as_model(Revenue)  # expect: mypy plan


def case_struct_field_unknown() -> None:
    customers.select(Customer.address.struct.field("zip"))  # expect: mypy plan


def case_unknown_model_attribute() -> None:
    products.filter(Product.actve)  # expect: mypy plan
