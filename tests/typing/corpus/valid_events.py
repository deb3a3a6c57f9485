"""Valid: page-view sessions and engagement, window-heavy."""

from __future__ import annotations

from typing import Any

from models import PageView

from pydantable_spark import DataFrame, DataFrameModel, F, Window

SESSION_GAP_MS = 30 * 60 * 1000


class Engagement(DataFrameModel):
    customer_id: int
    views: int
    total_ms: int | None
    longest_ms: int | None


def known_visitors(views: DataFrame[PageView]) -> DataFrame[PageView]:
    return views.filter(PageView.customer_id.is_not_null() & (PageView.duration_ms >= 0))


def with_previous(views: DataFrame[PageView]) -> DataFrame[Any]:
    timeline = Window.partition_by(PageView.customer_id).order_by(PageView.viewed_at)
    out = views.with_columns(
        previous_path=F.lag(PageView.path).over(timeline),
        next_path=F.lead(PageView.path, 1, "exit").over(timeline),
        step=F.row_number().over(timeline),
        pct=F.percent_rank().over(timeline),
    )
    return out.with_columns(is_entry=F.col("previous_path").is_null())


def engagement(views: DataFrame[PageView]) -> DataFrame[Engagement]:
    per_visitor = (
        known_visitors(views)
        .group_by(PageView.customer_id)
        .agg(
            views=F.count(),
            total_ms=F.sum(PageView.duration_ms),
            longest_ms=F.max(PageView.duration_ms),
        )
    )
    return per_visitor.as_model(Engagement)


def rolling_duration(views: DataFrame[PageView]) -> DataFrame[Any]:
    by_duration = Window.partition_by("customer_id").order_by("duration_ms").range_between(-1000, 1000)
    recent = Window.partition_by("customer_id").order_by("viewed_at").rows_between(-4, 0)
    out = views.with_columns(
        similar=F.count().over(by_duration),
        recent_avg=F.avg(PageView.duration_ms).over(recent),
        visitor_total=F.sum(PageView.duration_ms).over(Window.partition_by(PageView.customer_id)),
    )
    return out.with_columns(share=F.col("duration_ms") / F.col("visitor_total"))


def paths(views: DataFrame[PageView]) -> DataFrame[Any]:
    sections = views.with_columns(
        section=F.split_part(PageView.path, F.lit("/"), F.lit(2)),
        campaign=PageView.attributes.map.get("utm_campaign"),
        hour=F.hour(PageView.viewed_at),
    )
    popular = sections.group_by("section", "hour").agg(hits=F.count(), visitors=F.approx_count_distinct("customer_id"))
    ranked = popular.with_columns(
        rank=F.rank().over(Window.partition_by("hour").order_by(F.col("hits"), descending=True))
    )
    return ranked.filter(F.col("rank") <= 5).sort("hour", "rank")


def campaign_matrix(views: DataFrame[PageView]) -> DataFrame[Any]:
    tagged = views.with_columns(campaign=PageView.attributes.map.get("utm_campaign"), day=PageView.viewed_at.dt.day())
    return tagged.pivot("day", "campaign", "duration_ms", "sum", pivot_values=["spring", "summer"])


def long_format(engaged: DataFrame[Engagement]) -> DataFrame[Any]:
    return engaged.melt(id_vars=["customer_id"], value_vars=["total_ms", "longest_ms"], value_name="ms")


def totals(views: DataFrame[PageView]) -> DataFrame[Any]:
    return views.select(
        views=F.count(),
        visitors=F.count_distinct(PageView.customer_id),
        p90=F.percentile_approx(PageView.duration_ms, 0.9),
        slowest=F.max_by(PageView.path, PageView.duration_ms),
    )


def build() -> list[DataFrame[Any]]:
    views = PageView.from_rows([])
    engaged = engagement(views)
    return [
        with_previous(views),
        engaged,
        rolling_duration(views),
        paths(views),
        campaign_matrix(views),
        long_format(engaged),
        totals(views),
    ]
