"""Broken: aggregation and window structure (rules the runtime declares in its catalog and plan nodes)."""

from __future__ import annotations

from models import Order, OrderLine, PageView

from pydantable_spark import F, Window

orders = Order.from_rows([])
lines = OrderLine.from_rows([])
views = PageView.from_rows([])
by_order = Window.partition_by(OrderLine.order_id).order_by(OrderLine.line_no)
per_order = Window.partition_by(OrderLine.order_id)


def case_non_aggregate_in_agg() -> None:
    lines.group_by(OrderLine.order_id).agg(OrderLine.quantity)  # expect: mypy plan


def case_non_aggregate_keyword_in_agg() -> None:
    lines.group_by(OrderLine.order_id).agg(double=OrderLine.quantity * 2)  # expect: mypy plan


def case_nested_aggregates() -> None:
    lines.group_by(OrderLine.order_id).agg(top=F.max(F.sum(OrderLine.quantity)))  # expect: mypy plan


def case_aggregate_mixed_with_column() -> None:
    lines.group_by(OrderLine.order_id).agg(share=F.sum(OrderLine.quantity) / OrderLine.quantity)  # expect: mypy plan


def case_rank_in_agg() -> None:
    lines.group_by(OrderLine.order_id).agg(r=F.rank())  # expect: mypy plan


def case_row_number_in_agg() -> None:
    lines.group_by(OrderLine.order_id).agg(r=F.row_number())  # expect: mypy plan


def case_literal_in_agg() -> None:
    lines.group_by(OrderLine.order_id).agg(one=F.lit(1))  # expect: mypy plan


def case_filter_on_aggregate() -> None:
    lines.filter(F.sum(OrderLine.quantity) > 10)  # expect: mypy plan


def case_filter_aggregate_against_column() -> None:
    lines.filter(OrderLine.quantity > F.avg(OrderLine.quantity))  # expect: mypy plan


def case_sort_by_aggregate() -> None:
    lines.sort(F.sum(OrderLine.quantity))  # expect: mypy plan


def case_window_function_without_over() -> None:
    lines.with_columns(rn=F.row_number())  # expect: mypy plan


def case_window_function_without_over_in_select() -> None:
    lines.select(OrderLine.order_id, F.dense_rank().alias("r"))  # expect: mypy plan


def case_lag_without_over() -> None:
    lines.with_columns(prev=F.lag(OrderLine.unit_price))  # expect: mypy plan


def case_row_number_unordered() -> None:
    lines.with_columns(rn=F.row_number().over(per_order))  # expect: mypy plan


def case_lag_unordered() -> None:
    lines.with_columns(prev=F.lag(OrderLine.unit_price, 1).over(per_order))  # expect: mypy plan


def case_rank_unordered() -> None:
    w = Window.partition_by("order_id")
    lines.with_columns(r=F.rank().over(w))  # expect: mypy plan


def case_lead_unordered_whole_frame() -> None:
    lines.with_columns(nxt=F.lead(OrderLine.quantity).over(Window.unbounded()))  # expect: mypy plan


def case_ntile_unordered() -> None:
    lines.with_columns(q=F.ntile(4).over(per_order))  # expect: mypy plan


def case_cume_dist_unordered() -> None:
    lines.with_columns(c=F.cume_dist().over(per_order))  # expect: mypy plan


def case_range_between_string_key() -> None:
    w = Window.partition_by(Order.customer_id).order_by(Order.channel).range_between(-1, 0)
    orders.with_columns(running=F.count().over(w))  # expect: mypy plan


def case_range_between_two_keys() -> None:
    w = Window.order_by(OrderLine.order_id, OrderLine.line_no).range_between(-2, 0)
    lines.with_columns(running=F.sum(OrderLine.quantity).over(w))  # expect: mypy plan


def case_range_between_timestamp_key() -> None:
    w = Window.partition_by(Order.customer_id).order_by(Order.placed_at).range_between(-3600, 0)
    orders.with_columns(last_hour=F.count().over(w))  # expect: mypy plan


def case_row_number_with_a_frame() -> None:
    w = Window.partition_by(OrderLine.order_id).order_by(OrderLine.line_no).rows_between(-1, 1)
    lines.with_columns(n=F.row_number().over(w))  # expect: mypy plan


def case_lag_with_a_frame() -> None:
    w = Window.partition_by(OrderLine.order_id).order_by(OrderLine.line_no).rows_between(None, 0)
    lines.with_columns(prev=F.lag(OrderLine.quantity).over(w))  # expect: mypy plan


def case_frame_ends_before_start() -> None:
    Window.partition_by(OrderLine.order_id).order_by(OrderLine.line_no).rows_between(0, -1)  # expect: mypy plan


def case_range_frame_ends_before_start() -> None:
    Window.order_by(OrderLine.quantity).range_between(5, 1)  # expect: mypy plan


def case_window_in_agg() -> None:
    lines.group_by(OrderLine.order_id).agg(s=F.sum(OrderLine.quantity).over(by_order))  # expect: mypy plan


def case_window_in_filter() -> None:
    lines.filter(F.row_number().over(by_order) == 1)  # expect: mypy plan


def case_window_in_sort() -> None:
    lines.sort(F.row_number().over(by_order))  # expect: mypy plan


def case_count_distinct_over_window() -> None:
    orders.with_columns(
        n=F.count_distinct(Order.channel).over(Window.partition_by(Order.customer_id))
    )  # expect: mypy plan


def case_over_on_plain_expression() -> None:
    lines.with_columns(x=(OrderLine.quantity + 1).over(by_order))  # expect: mypy plan


def case_group_by_aggregate() -> None:
    lines.group_by(F.sum(OrderLine.quantity)).agg(n=F.count())  # expect: mypy plan


def case_select_mixes_aggregate_and_column() -> None:
    lines.select(OrderLine.order_id, F.sum(OrderLine.quantity))  # expect: mypy plan


def case_partition_by_map() -> None:
    views.with_columns(n=F.count().over(Window.partition_by(PageView.attributes)))  # expect: mypy plan


def case_group_by_map() -> None:
    views.group_by(PageView.attributes).agg(n=F.count())  # expect: mypy plan


def case_first_of_window_in_agg_via_variable() -> None:
    ranked = F.rank().over(by_order)
    lines.group_by(OrderLine.order_id).agg(best=F.min(ranked))  # expect: mypy plan


def case_nested_aggregate_via_variable() -> None:
    total = F.sum(OrderLine.quantity)
    lines.group_by(OrderLine.order_id).agg(x=F.avg(total))  # expect: mypy plan


def case_global_select_with_plain_column() -> None:
    lines.select(total=F.sum(OrderLine.quantity), line=OrderLine.line_no)  # expect: mypy plan
