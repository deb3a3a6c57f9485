"""Broken: the same mistakes behind some indirection (helpers, unpacking, untyped frames, computed names)."""

from __future__ import annotations

from typing import Any

from models import Customer, Order, OrderLine, Product

from pydantable_spark import DataFrame, Expr, F, Window, cs
from pydantable_spark.expr.windowspec import WindowSpec

customers = Customer.from_rows([])
orders = Order.from_rows([])
lines = OrderLine.from_rows([])
products = Product.from_rows([])


def line_amount() -> Expr[float]:
    return F.col("quantity") * F.col("unit_prce")


def case_typo_inside_helper() -> None:
    lines.with_columns(amount=line_amount())  # expect: plan


def case_keys_unpacked_from_list() -> None:
    keys = ["customer_id", "chanel"]
    orders.group_by(*keys).agg(n=F.count())  # expect: mypy plan


def case_keys_list_variable() -> None:
    keys = ["customer_id", "chanel"]
    orders.select(keys)  # expect: mypy plan


def case_aggregations_from_comprehension() -> None:
    measures = ["quantity", "unit_prce"]
    lines.group_by("order_id").agg(**{f"{m}_sum": F.sum(m) for m in measures})  # expect: plan


def case_columns_from_comprehension() -> None:
    orders.select([F.col(c) for c in ("id", "chanel")])  # expect: plan


def case_conditional_expression(by_channel: bool = False) -> None:
    key = F.col("channel") if by_channel else F.col("stauts")
    orders.group_by(key).agg(n=F.count())  # expect: plan


def case_after_drop_nulls() -> None:
    orders.drop_nulls().filter(F.col("chanel") == "web")  # expect: mypy plan


def case_after_fill_null() -> None:
    lines.fill_null(0.0, subset=["discount"]).with_columns(
        net=F.col("unit_price") - F.col("discont")
    )  # expect: mypy plan


def case_after_union() -> None:
    orders.union(orders).sort("plaed_at")  # expect: mypy plan


def case_after_explode() -> None:
    customers.explode("tags").filter(F.col("tag") == "vip")  # expect: mypy plan


def case_after_unnest() -> None:
    customers.unnest("address").select("address_city", "address_zip")  # expect: mypy plan


def case_after_with_row_count() -> None:
    orders.with_row_count().filter(F.col("row_count") < 10)  # expect: mypy plan


def case_selector_typo() -> None:
    orders.select(cs.by_name("id", "chanel"))  # expect: mypy plan


def case_selector_matches_nothing() -> None:
    orders.select(cs.starts_with("ship_"))  # expect: mypy plan


def case_window_from_helper() -> None:
    lines.with_columns(rn=F.row_number().over(_unordered()))  # expect: plan


def _unordered() -> WindowSpec:
    return Window.partition_by("order_id")


def case_untyped_stage(frame: DataFrame[Any] = orders) -> None:
    frame.filter(F.col("chanel") == "web")  # expect: plan


def case_name_from_variable() -> None:
    name = "stauts"
    orders.filter(F.col(name) == "paid")  # expect: mypy plan


def case_name_from_f_string(prefix: str = "ship") -> None:
    orders.select(F.col(f"{prefix}ping"))  # expect: plan


def case_parameter_frame(frame: DataFrame[Order] = orders) -> None:
    frame.filter(F.col("chanel") == "web")  # expect: mypy plan


def case_helper_frame_returned() -> None:
    _paid().select(Order.id, Customer.name)  # expect: mypy plan


def _paid() -> DataFrame[Order]:
    return orders.filter(Order.status == "paid")


def case_window_in_module_variable_unordered() -> None:
    lines.with_columns(prev=F.lag(OrderLine.unit_price).over(_PER_ORDER))  # expect: mypy plan


_PER_ORDER = Window.partition_by(OrderLine.order_id)


def case_reassigned_window(detailed: bool = False) -> None:
    w = Window.partition_by(OrderLine.order_id)
    if detailed:
        w = w.order_by(OrderLine.line_no)
    lines.with_columns(rn=F.row_number().over(w))  # expect: plan


def case_reduce_predicates() -> None:
    import functools
    import operator

    predicates = [F.col("channel") == "web", F.col("stauts") == "paid"]
    orders.filter(functools.reduce(operator.and_, predicates))  # expect: plan
