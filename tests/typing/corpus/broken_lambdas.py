"""Broken: lambdas of higher-order functions (``F.transform``, ``F.filter``, ``F.aggregate``...).

A lambda's parameters are the runtime's variables to the plugin, and its body is
evaluated with the runtime's API: a namespace method on an element of another
type, an aggregate or a window function inside a body, a column of another model
or a typo, a nested higher-order call, ``F.aggregate`` over what is not a list.
Each ``case_*`` function is one broken pipeline; the line with the mistake ends
in ``# expect: <catch>`` (see ``test_corpus.py``).
"""

from __future__ import annotations

from typing import Any

from models import Basket, Product

from pydantable_spark import Expr, F, Window

baskets = Basket.from_rows([])


def case_string_method_on_numbers() -> None:
    baskets.select(F.transform(Basket.weights, lambda w: w.str.strip("0")))  # expect: mypy plan


def case_date_method_on_strings() -> None:
    baskets.select(F.filter(Basket.codes, lambda c: c.dt.year() > 2020))  # expect: mypy plan


def case_string_method_on_timestamps() -> None:
    baskets.select(F.transform(Basket.scans, lambda s: s.str.slice(0, 10)))  # expect: mypy plan


def case_list_method_on_elements() -> None:
    baskets.select(F.exists(Basket.codes, lambda c: c.list.contains("promo")))  # expect: mypy plan


def case_map_method_on_elements() -> None:
    baskets.select(F.forall(Basket.codes, lambda c: c.map.contains_key("sku")))  # expect: mypy plan


def case_index_used_as_text() -> None:
    baskets.select(F.transform(Basket.codes, lambda c, i: F.concat(c, i.str.pad_start(3, "0"))))  # expect: mypy plan


def case_element_compared_with_the_wrong_type() -> None:
    baskets.select(F.filter(Basket.scans, lambda s: s.dt.year() == "2024"))  # expect: mypy plan


def case_share_of_the_sum_inside_the_body() -> None:
    baskets.select(F.transform(Basket.weights, lambda w: w / F.sum(w)))  # expect: mypy plan


def case_above_average_inside_the_body() -> None:
    baskets.select(F.filter(Basket.weights, lambda w: w > F.avg(w)))  # expect: mypy plan


def case_collect_inside_the_body() -> None:
    baskets.select(F.transform(Basket.codes, lambda c: F.collect_set(c)))  # expect: mypy plan


def case_window_function_inside_the_body() -> None:
    by_customer = Window.partition_by(Basket.customer_id).order_by(Basket.opened)
    baskets.select(F.transform(Basket.weights, lambda w: w - F.lag(Basket.id).over(by_customer)))  # expect: mypy plan


def case_rank_inside_the_body() -> None:
    ranked = F.rank().over(Window.order_by(Basket.opened))
    baskets.select(F.transform(Basket.codes, lambda c: F.concat(c, ranked.cast(str))))  # expect: mypy plan


def case_another_models_column_in_the_body() -> None:
    baskets.select(F.transform(Basket.codes, lambda c: F.concat(c, Product.sku)))  # expect: mypy plan


def case_column_typo_in_the_body() -> None:
    baskets.select(F.filter(Basket.codes, lambda c: c != F.col("promo_code")))  # expect: mypy plan


def case_column_of_the_group_outside_an_aggregate_in_the_body() -> None:
    per_customer = baskets.group_by(Basket.customer_id)
    per_customer.agg(spread=F.transform(F.collect_list(Basket.id), lambda i: i - Basket.id))  # expect: mypy plan


def case_column_no_longer_in_the_frame_in_the_body() -> None:
    slim = baskets.select(Basket.id, Basket.weights)
    slim.with_columns(heavy=F.filter(Basket.weights, lambda w: w > Basket.customer_id))  # expect: mypy plan


def case_aggregate_over_a_number() -> None:
    baskets.select(F.aggregate(Basket.customer_id, F.lit(0), lambda acc, x: acc + x))  # expect: mypy plan


def case_aggregate_inside_the_merge() -> None:
    baskets.select(F.aggregate(Basket.weights, F.lit(0.0), lambda total, w: total + F.max(w)))  # expect: mypy plan


def case_reduce_over_a_map() -> None:
    baskets.select(F.reduce(Basket.prices, F.lit(0.0), lambda acc, p: acc + p))  # expect: mypy plan


def case_accumulator_used_as_text() -> None:
    baskets.select(
        F.aggregate(Basket.codes, F.lit(0), lambda n, c: n + c.str.len_chars(), lambda n: n.str.upper())
    )  # expect: mypy plan


def case_merge_body_on_the_wrong_element() -> None:
    baskets.select(F.aggregate(Basket.weights, F.lit(0), lambda n, w: n + w.str.length()))  # expect: mypy plan


def case_nested_lambda_wrong_type() -> None:
    baskets.select(
        F.transform(Basket.legs, lambda leg: F.filter(leg, lambda km: km.str.len_chars() > 0))
    )  # expect: mypy plan


def case_nested_lambda_aggregate() -> None:
    baskets.select(
        F.transform(Basket.legs, lambda leg: F.transform(leg, lambda km: km / F.sum(km)))
    )  # expect: mypy plan


def case_nested_lambda_outer_variable_as_text() -> None:
    baskets.select(
        F.transform(Basket.legs, lambda leg: F.transform(leg, lambda km: leg.str.upper()))
    )  # expect: mypy plan


def case_map_filter_value_as_text() -> None:
    baskets.select(F.map_filter(Basket.prices, lambda k, v: v.str.starts_with("9")))  # expect: mypy plan


def case_transform_values_value_as_date() -> None:
    baskets.select(F.transform_values(Basket.labels, lambda k, v: v.dt.month()))  # expect: mypy plan


def case_zip_with_second_list_as_text() -> None:
    baskets.select(
        F.zip_with(Basket.codes, Basket.weights, lambda c, w: F.concat(c, w.str.upper()))
    )  # expect: mypy plan


def case_named_function_on_numbers() -> None:
    def stripped(w: Expr[Any]) -> Expr[Any]:
        return w.str.strip("0")

    baskets.select(F.transform(Basket.weights, stripped))  # expect: plan


def case_list_named_by_a_string() -> None:
    baskets.select(F.transform("weights", lambda w: w.str.strip("0")))  # expect: plan
