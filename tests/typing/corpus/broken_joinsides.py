"""Broken: join conditions whose sides say a column the frame does not have, or compare what cannot be compared.

Each ``case_*`` function is one broken pipeline; the line with the mistake ends
in ``# expect: <catch>`` (see ``test_corpus.py``).
"""

from __future__ import annotations

from models import Customer, Order, OrderLine

from pydantable_spark import left, right

customers = Customer.from_rows([])
orders = Order.from_rows([])
lines = OrderLine.from_rows([])


def case_left_column_typo() -> None:
    orders.join(customers, on=left.col("customer_idd") == right.col("id"))  # expect: mypy plan


def case_right_column_typo() -> None:
    orders.join(customers, on=[left.col("customer_id") == right.col("idd")], how="left")  # expect: mypy plan


def case_left_names_a_right_column() -> None:
    orders.join(customers, on=(Order.customer_id == Customer.id) & left.col("email").is_null())  # expect: mypy plan


def case_sides_of_different_types() -> None:
    orders.join(customers, on=left.col("channel") == right.col("id"))  # expect: mypy plan


def case_model_column_against_a_side_of_another_type() -> None:
    orders.join(customers, on=Order.coupon == right.col("marketing_opt_in"))  # expect: mypy plan


def case_condition_not_boolean() -> None:
    orders.join(customers, on=left.col("customer_id") + right.col("id"))  # expect: mypy plan


def case_side_column_dropped_by_select() -> None:
    narrow = customers.select(Customer.id, Customer.name)
    orders.join(narrow, on=(Order.customer_id == right.col("id")) & (right.col("tier") == "gold"))  # expect: mypy plan


def case_self_join_side_typo() -> None:
    lines.join(lines, on=["order_id", left.col("line_no") < right.col("lineno")], how="semi")  # expect: mypy plan


def case_model_column_of_a_renamed_frame() -> None:
    keyed = customers.rename({"id": "customer_key"})
    orders.join(keyed, on=Order.customer_id == Customer.id)  # expect: mypy plan


def case_side_column_renamed_away() -> None:
    named = customers.rename({"name": "full_name", "id": "key"})
    matched = [left.col("customer_id") == right.col("key"), right.col("name") != "x"]
    orders.join(named, on=matched)  # expect: mypy plan


def case_side_column_ordered_across_types() -> None:
    orders.join(customers, on=left.col("placed_at") > right.col("name"), how="anti")  # expect: mypy plan
