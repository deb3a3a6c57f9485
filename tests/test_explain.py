"""``explain()`` for people: string literals as written, one call per NULL check, the NULL keys a group_by leaves out.

What Spark receives is not changed by it: the steps the lowering executes
(``plan_steps``) still spell every string in hex and every NULL check in full.
"""

from __future__ import annotations

import datetime

import pytest

from pydantable_spark import DataFrameModel, F
from pydantable_spark.steps import plan_steps, render_steps

pytestmark = pytest.mark.jvm_free


class Address(DataFrameModel):
    city: str | None
    tags: list[str | None]


class Line(DataFrameModel):
    day: datetime.date
    country: str | None
    status: str | None
    revenue: float | None
    address: Address | None


class CheckedAddress(DataFrameModel):
    city: str
    tags: list[str]


class Checked(DataFrameModel):
    day: datetime.date
    country: str
    status: str
    address: CheckedAddress


LINES = Line.from_rows([])


def _calls(text: str) -> str:
    return text.split("spark calls (last first):\n", 1)[1]


def test_literals_are_shown_as_written_and_sent_in_hex() -> None:
    frame = LINES.filter(
        (Line.status != "cancelled") & (Line.day >= datetime.date(2024, 3, 1)) & (Line.country != "it's\nhere")
    ).with_columns(label=F.concat(Line.status, F.lit(" / ")))
    calls = _calls(frame.explain())
    assert "(`status` <> 'cancelled')" in calls
    assert "(`day` >= DATE '2024-03-01')" in calls
    assert '(`country` <> "it\'s\\nhere")' in calls  # a repr: quotes and a line break shown, one line kept
    assert "concat(`status`, ' / ')" in calls
    assert "X'" not in calls
    sent = "\n".join(render_steps(plan_steps(frame.plan)))
    assert "CAST(X'63616e63656c6c6564' AS STRING)" in sent  # 'cancelled', as Spark receives it
    assert "'cancelled'" not in sent


def test_each_null_check_is_one_call() -> None:
    frame = LINES.as_model(Checked, null_check=True).filter(Line.day > datetime.date(2024, 1, 1))
    calls = _calls(frame.explain())
    assert "null_check(`country`) AS `country`" in calls
    assert "null_check(`status`) AS `status`" in calls
    assert "null_check(`address`) AS `address`" in calls  # nested fields and list elements: the one column's check
    assert "raise_error" not in calls
    assert max(len(line) for line in calls.splitlines()) < 200
    sent = "\n".join(render_steps(plan_steps(frame.plan)))
    assert sent.count("raise_error(") >= 5  # country, status, address, address.city, address.tags[]
    assert max(len(line) for line in sent.splitlines()) > 1000  # what the readable view folds


def test_an_aggregation_names_the_keys_whose_null_rows_it_leaves_out() -> None:
    grouped = LINES.group_by("day", "country", "status").agg(total=F.sum(Line.revenue))
    text = grouped.explain()
    assert "(drop_nulls: rows whose country or status is NULL are left out)" in text
    assert "where (`country` IS NOT NULL) AND (`status` IS NOT NULL)" in _calls(text)
    assert LINES.group_by("day", "country", "status").null_dropped_keys == ("country", "status")
    kept = LINES.group_by("day", "country", drop_nulls=False)
    assert kept.null_dropped_keys == ()
    assert "drop_nulls" not in kept.agg(total=F.sum(Line.revenue)).explain()
    assert "drop_nulls" not in LINES.group_by("day").agg(total=F.sum(Line.revenue)).explain()  # no nullable key
