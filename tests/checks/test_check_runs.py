"""Dataset-level checks run by ``validate()`` in Spark: one frame exercising every kind and action at once."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import Field

from pydantable_spark import Check, DataFrameModel, F
from pydantable_spark.errors import CheckError

pytestmark = pytest.mark.spark

D = datetime.date


class Order(DataFrameModel):
    id: int
    customer: int | None
    start: datetime.date
    end: datetime.date | None
    qty: int = Field(ge=0)
    note: str = Field("", alias="n.o`te")

    @classmethod
    def checks(cls) -> Sequence[Check]:
        return (
            Check.unique(cls.id, name="order_id_unique"),
            Check.primary_key(cls.id, "customer", name="pk"),
            Check.unique("n.o`te", name="odd_name_key", action="warn"),
            Check.row(cls.end >= cls.start, name="ends_after_start", action="drop"),
            Check.row(cls.note != "x'); DROP TABLE t; --${user}\\", name="no_hostile_note", action="warn"),
            Check.rows(min=1, name="not_empty"),
            Check.rows(max=3, name="few", action="warn"),
            Check.agg(F.max(cls.qty) <= 50, name="qty_max"),
            Check.agg(F.count() >= 1, name="counted"),
        )


HOSTILE = "x'); DROP TABLE t; --${user}\\"
ROWS = [
    {"id": 1, "customer": 1, "start": D(2024, 1, 1), "end": D(2024, 1, 2), "qty": 1, "n.o`te": "a"},
    {"id": 1, "customer": 1, "start": D(2024, 1, 1), "end": None, "qty": 200, "n.o`te": HOSTILE},
    {"id": 2, "customer": None, "start": D(2024, 1, 5), "end": D(2024, 1, 2), "qty": -1, "n.o`te": HOSTILE},
    {"id": 3, "customer": 3, "start": D(2024, 1, 1), "end": D(2024, 1, 2), "qty": 5, "n.o`te": "b"},
]


def test_validate_runs_every_check_with_its_action() -> None:
    frame = Order.from_arrow(pa.Table.from_pylist(ROWS)).sort(Order.id, Order.qty)
    report = frame.validate(key="id")
    found = {r.check.name: (r.count, r.examples) for r in report.checks}
    assert found == {
        "order_id_unique": (2, ({"id": 1, "rows": 2},)),
        "pk": (3, ({"id": 1, "customer": 1, "rows": 2},)),  # two rows share (1, 1); one has a NULL customer
        "odd_name_key": (2, ({"n.o`te": HOSTILE, "rows": 2},)),
        "ends_after_start": (
            2,
            (
                {"id": 1, "end": None, "start": D(2024, 1, 1)},  # NULL is not TRUE: a violation
                {"id": 2, "end": D(2024, 1, 2), "start": D(2024, 1, 5)},
            ),
        ),
        "no_hostile_note": (2, ({"id": 1, "n.o`te": HOSTILE}, {"id": 2, "n.o`te": HOSTILE})),
        "not_empty": (0, ()),
        "few": (1, ({"rows": 4},)),
        "qty_max": (1, ({"max(qty)": 200},)),
        "counted": (0, ()),
    }
    assert [(v.constraint.location, v.count) for v in report.results] == [("qty", 1)]
    assert not report.ok
    assert [r.check.name for r in report.failed_checks] == ["order_id_unique", "pk", "qty_max"]
    text = str(report)
    assert "7 of 9 checks violated" in text
    assert "order_id_unique" in text
    assert "unique(id)" in text
    with pytest.raises(CheckError, match="qty_max") as raised:
        report.raise_for_errors()
    assert raised.value.report is report
    # drop: the validated frame leaves out the rows the drop check flags, and stays a typed frame of the model
    kept = report.frame.sort(Order.id).to_dict()
    assert kept["id"] == [1, 3]
    assert report.frame.model is Order


def test_warn_and_drop_leave_the_report_ok() -> None:
    class Soft(DataFrameModel):
        id: int

        @classmethod
        def checks(cls) -> Sequence[Check]:
            return (
                Check.row(cls.id > 1, name="big", action="drop"),
                Check.unique(cls.id, name="once", action="warn"),
            )

    report = Soft.from_rows([{"id": 1}, {"id": 2}, {"id": 2}]).validate()
    assert [(r.check.name, r.count) for r in report.checks] == [("big", 1), ("once", 2)]
    assert report.ok
    assert report.raise_for_errors() is report
    assert sorted(report.frame.to_dict()["id"]) == [2, 2]


class Reading(DataFrameModel):
    at: datetime.datetime

    @classmethod
    def checks(cls) -> Sequence[Check]:
        return (Check.agg(F.max(cls.at) >= F.current_timestamp() - datetime.timedelta(hours=1), name="fresh"),)


def test_a_freshness_check_compares_the_newest_row_with_the_clock_of_the_run() -> None:
    now = datetime.datetime.now(datetime.UTC).replace(tzinfo=None)  # the session's time zone is UTC
    recent = Reading.from_rows([{"at": now - datetime.timedelta(days=3)}, {"at": now - datetime.timedelta(minutes=5)}])
    assert [(r.check.name, r.count) for r in recent.validate().checks] == [("fresh", 0)]
    newest = now - datetime.timedelta(days=2)
    stale = Reading.from_rows([{"at": now - datetime.timedelta(days=3)}, {"at": newest}]).validate()
    assert [(r.check.name, r.count, r.examples) for r in stale.checks] == [("fresh", 1, ({"max(at)": newest},))]
    with pytest.raises(CheckError, match="fresh"):
        stale.raise_for_errors()


def _python_verdict(row: dict[str, Any]) -> bool:
    """The row check ``(a > b) | (c == 'k')`` with Python semantics, NULL (None) taken as not TRUE."""
    a, b, c = row["a"], row["b"], row["c"]
    greater = None if a is None or b is None else a > b
    equal = None if c is None else c == "k"
    either = True if greater is True or equal is True else (None if None in (greater, equal) else False)
    return either is True


class Pair(DataFrameModel):
    a: int | None
    b: int
    c: str | None

    @classmethod
    def checks(cls) -> Sequence[Check]:
        return (Check.row((cls.a > cls.b) | (cls.c == "k"), name="ordered", action="drop"),)


@settings(max_examples=5, deadline=None)
@given(
    st.lists(
        st.fixed_dictionaries(
            {
                "a": st.none() | st.integers(-3, 3),
                "b": st.integers(-3, 3),
                "c": st.none() | st.sampled_from(["k", "K", "", "k\\"]),
            }
        ),
        max_size=30,
    )
)
def test_a_row_check_gives_the_verdict_python_gives(rows: list[dict[str, Any]]) -> None:
    report = Pair.from_rows(rows).validate(examples=0)
    (result,) = report.checks
    assert result.count == sum(not _python_verdict(row) for row in rows)
    assert result.examples == ()
