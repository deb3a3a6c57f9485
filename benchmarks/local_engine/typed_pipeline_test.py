"""A user's unit-test module of a typed pipeline (``typed_pipeline.py``): each stage checked on its rows.

It passes no ``engine=``: ``run.py`` runs it with ``--pydantable-engine=local`` (the pytest plugin) and without it
(the embedded local SparkSession), timing the whole process, start included. The expected rows are computed in
plain Python from the raw rows, as a user's test would state them.
"""

from __future__ import annotations

import collections
from decimal import Decimal
from typing import TYPE_CHECKING

from typed_pipeline import RAW, daily, enriched, order_lines

if TYPE_CHECKING:
    import datetime


def _lines() -> list[tuple[str, datetime.date, str, int, Decimal]]:
    found = []
    for raw in RAW:
        customer = raw["customer"].strip().title()
        for item, quantity in zip(raw["items"], raw["quantities"], strict=True):
            found.append((customer, raw["placed_at"].date(), item, quantity, raw["unit_price"] * quantity))
    return found


def test_one_line_per_item_with_clean_names() -> None:
    lines = order_lines().collect()
    assert len(lines) == len(_lines())
    assert {line.customer for line in lines} == {"Ann", "Bob", "Cid", "Dee"}


def test_windows_number_each_customers_lines() -> None:
    rows = enriched().to_dict()
    numbers: dict[str, list[int]] = collections.defaultdict(list)
    for customer, number in zip(rows["customer"], rows["line_number"], strict=True):
        numbers[customer].append(number)
    assert all(sorted(found) == list(range(1, len(found) + 1)) for found in numbers.values())
    assert sum(p is None for p in rows["previous"]) == len(numbers)  # each customer's first line has none


def test_daily_revenue_per_customer() -> None:
    expected: dict[tuple[str, datetime.date], Decimal] = collections.defaultdict(Decimal)
    for customer, day, _, _, revenue in _lines():
        expected[customer, day] += revenue
    assert {(r.customer, r.day): r.revenue for r in daily().collect()} == dict(expected)
