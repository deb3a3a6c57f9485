"""Broken: ``F.col("...")`` naming a column the frame lacks, or of the wrong type for its use, in every position."""

from __future__ import annotations

from models import Customer, Order, OrderLine, PageView, Product

from pydantable_spark import F, Window

customers = Customer.from_rows([])
orders = Order.from_rows([])
lines = OrderLine.from_rows([])
products = Product.from_rows([])
views = PageView.from_rows([])


def case_select_positional() -> None:
    orders.select(F.col("chanel"))  # expect: mypy plan


def case_select_keyword() -> None:
    orders.select(Order.id, source=F.col("chanel"))  # expect: mypy plan


def case_filter() -> None:
    orders.filter(F.col("stauts") == "paid")  # expect: mypy plan


def case_with_columns_keyword() -> None:
    lines.with_columns(amount=F.col("quantity") * F.col("unitprice"))  # expect: mypy plan


def case_with_columns_positional() -> None:
    lines.with_columns(F.col("discont").fill_null(0.0))  # expect: mypy plan


def case_agg_keyword() -> None:
    lines.group_by(OrderLine.order_id).agg(items=F.sum(F.col("quantty")))  # expect: mypy plan


def case_agg_positional() -> None:
    lines.group_by(OrderLine.order_id).agg(F.max(F.col("unit_prce")))  # expect: mypy plan


def case_window_partition() -> None:
    w = Window.partition_by(F.col("custmer_id")).order_by(Order.placed_at)
    orders.with_columns(nth=F.row_number().over(w))  # expect: mypy plan


def case_window_order() -> None:
    w = Window.partition_by(Order.customer_id).order_by(F.col("placed"))
    orders.with_columns(nth=F.row_number().over(w))  # expect: mypy plan


def case_when_condition() -> None:
    orders.with_columns(rebate=F.when(F.col("coupn").is_null(), 0.0).otherwise(5.0))  # expect: mypy plan


def case_when_value() -> None:
    orders.with_columns(via=F.when(Order.coupon.is_null(), F.col("chanel")).otherwise("coupon"))  # expect: mypy plan


def case_otherwise_value() -> None:
    orders.with_columns(via=F.when(Order.coupon.is_null(), "none").otherwise(F.col("cupon")))  # expect: mypy plan


def case_sort() -> None:
    orders.sort(F.col("placed"))  # expect: mypy plan


def case_group_by_key() -> None:
    orders.group_by(F.col("chanel")).agg(n=F.count())  # expect: mypy plan


def case_join_left_on() -> None:
    lines.join(products, left_on=F.col("product"), right_on=Product.id)  # expect: mypy plan


def case_join_right_on() -> None:
    lines.join(products, left_on=OrderLine.product_id, right_on=F.col("product_id"))  # expect: mypy plan


def case_string_name_in_aggregate() -> None:
    lines.group_by(OrderLine.order_id).agg(items=F.sum("quantty"))  # expect: mypy plan


def case_string_names_in_coalesce() -> None:
    lines.with_columns(d=F.coalesce("discount", "discnt"))  # expect: mypy plan


def case_nested_arithmetic_in_filter() -> None:
    lines.filter((F.col("quantity") * F.col("unit_prce")) > 100)  # expect: mypy plan


def case_is_in() -> None:
    orders.filter(F.col("chanel").is_in(["web", "app"]))  # expect: mypy plan


def case_cast() -> None:
    orders.with_columns(fee=F.col("shipping").cast(float))  # expect: mypy plan


def case_namespace_method() -> None:
    products.with_columns(loud=F.col("titel").str.upper())  # expect: mypy plan


def case_inside_over() -> None:
    w = Window.partition_by(OrderLine.order_id).order_by(OrderLine.line_no)
    lines.with_columns(prev=F.lag(F.col("unit_prce")).over(w))  # expect: mypy plan


def case_held_in_variable() -> None:
    status = F.col("stauts")
    orders.filter(status == "paid")  # expect: mypy plan


def case_unique_subset() -> None:
    orders.unique(subset=[F.col("custmer_id")])  # expect: mypy plan


def case_drop() -> None:
    orders.drop(F.col("cupon"))  # expect: mypy plan


def case_drop_nulls_subset() -> None:
    orders.drop_nulls(subset=[F.col("cupon")])  # expect: mypy plan


def case_wrong_case() -> None:
    orders.filter(F.col("Channel") == "web")  # expect: mypy plan


def case_after_drop() -> None:
    orders.drop("coupon").filter(F.col("coupon").is_null())  # expect: mypy plan


def case_other_side_of_join() -> None:
    lines.filter(F.col("category") == "books").join(
        products, left_on=OrderLine.product_id, right_on=Product.id
    )  # expect: mypy plan


def case_string_arithmetic() -> None:
    products.with_columns(bumped=F.col("title") + 1)  # expect: mypy plan


def case_filter_not_boolean() -> None:
    products.filter(F.col("title"))  # expect: mypy plan


def case_string_method_on_number() -> None:
    products.with_columns(p=F.col("price").str.upper())  # expect: mypy plan


def case_sum_of_strings() -> None:
    products.group_by(Product.category).agg(t=F.sum(F.col("title")))  # expect: mypy plan


def case_compare_date_with_number() -> None:
    customers.filter(F.col("signup") > 5)  # expect: mypy plan


def case_map_column_in_arithmetic() -> None:
    views.with_columns(x=F.col("attributes") + 1)  # expect: mypy plan


def case_variable_holding_typo_expression() -> None:
    amount = F.col("quantity") * F.col("unit_price") * (1 - F.col("discout"))
    lines.with_columns(amount=amount)  # expect: mypy plan
