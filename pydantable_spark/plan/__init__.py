"""The relational plan: immutable nodes that derive their schemas in Python."""

from pydantable_spark.plan.nodes import (
    Distinct,
    Filter,
    Limit,
    Plan,
    Project,
    Reconcile,
    Sort,
    SortKey,
    Source,
)

__all__ = ["Distinct", "Filter", "Limit", "Plan", "Project", "Reconcile", "Sort", "SortKey", "Source"]
