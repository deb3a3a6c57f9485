"""Dataset-level checks on writes and reads: one frame exercising every action per write, all-or-nothing on ``fail``."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from pydantic import Field

from pydantable_spark import Check, DataFrame, DataFrameModel, F
from pydantable_spark.arrow import arrow_schema
from pydantable_spark.errors import CheckError

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

pytestmark = pytest.mark.spark

ODD = "cust`omer.id's"
"""A referencing column's name with a backtick, a dot and a quote: a name, never SQL."""


class Customer(DataFrameModel):
    id: int


class Sale(DataFrameModel):
    id: int
    customer_id: int | None = Field(alias=ODD)
    qty: int = Field(ge=0)

    @classmethod
    def checks(cls) -> Sequence[Check]:
        return (
            Check.unique(cls.id, name="sale_id", action="warn"),
            Check.row(cls.id > 0, name="positive_id"),
            Check.row(cls.qty <= 100, name="small", action="drop"),
            Check.references(ODD, Customer.id, name="known_customer", action="drop"),
            Check.rows(min=1, name="not_empty"),
            Check.agg(F.sum(cls.qty) <= 1000, name="total"),
        )


ROWS = [
    {"id": 1, ODD: 1, "qty": 5},
    {"id": 1, ODD: 2, "qty": 200},  # a repeated id (warn), too large (drop)
    {"id": 3, ODD: 9, "qty": 7},  # an unknown customer (drop)
    {"id": 4, ODD: None, "qty": -1},  # a NULL references nothing; qty violates ge 0 (a value constraint)
    {"id": 5, ODD: 2, "qty": 3},
]


def _sales(rows: list[dict[str, Any]]) -> DataFrame[Sale]:
    return Sale.from_arrow(
        pa.Table.from_pylist(rows, schema=arrow_schema(Sale.frame_schema()))
    )  # from_rows would refuse qty=-1


def _ids(path: Path) -> list[int]:
    return sorted(pq.read_table(path).column("id").to_pylist())


def test_a_write_counts_warns_drops_and_quarantines_by_each_checks_action(tmp_path: Path) -> None:
    customers = Customer.from_rows([{"id": 1}, {"id": 2}])
    sales = _sales(ROWS)
    expected = {"sale_id": 2, "positive_id": 0, "small": 1, "known_customer": 1, "not_empty": 0, "total": 0}

    report = sales.write_parquet(tmp_path / "report", constraints="report", references={Customer: customers})
    assert report is not None
    assert {r.check.name: r.count for r in report.checks} == expected
    assert (report.rows, [v.count for v in report.results]) == (5, [1])  # every row's values checked, as validate()
    found = {r.check.name: r.examples for r in report.checks}
    assert found["known_customer"] == ({ODD: 9, "rows": 1},)
    assert _ids(tmp_path / "report") == [1, 4, 5]  # the drop checks' rows are not written; warn ones are

    good, bad = tmp_path / "good", tmp_path / "bad"
    report = sales.write_parquet(
        good, constraints="quarantine", quarantine=bad, references={"known_customer": customers}
    )
    assert report is not None
    assert {r.check.name: r.count for r in report.checks} == expected
    assert _ids(good) == [1, 5]
    quarantined = pq.read_table(bad).sort_by("id").select(["id", "violations"]).to_pylist()
    assert quarantined == [
        {"id": 1, "violations": ["small"]},
        {"id": 3, "violations": ["known_customer"]},
        {"id": 4, "violations": ["qty: ge 0"]},
    ]

    # "raise": warn and drop checks never fail the write; the drop checks' rows leave
    fine = [row for row in ROWS if row["qty"] != -1]
    assert _sales(fine).write_parquet(tmp_path / "raise", references={Customer: customers}) is None
    assert _ids(tmp_path / "raise") == [1, 5]


def test_a_failing_check_fails_the_write_and_the_target_keeps_its_data(tmp_path: Path) -> None:
    customers = Customer.from_rows([{"id": 1}])
    target = tmp_path / "sales"
    _sales([{"id": 1, ODD: 1, "qty": 5}]).write_parquet(target, references={Customer: customers})
    heavy = [{"id": i, ODD: 1, "qty": 100} for i in range(1, 12)]  # sum(qty) = 1100
    with pytest.raises(CheckError) as raised:
        _sales(heavy).write_parquet(target, mode="overwrite", references={Customer: customers})
    message = str(raised.value)
    assert "check 'total' (agg: (sum(qty) <= 1000)) failed: 1 violation(s) (examples: sum(qty)=1100)" in message
    assert message.endswith("(nothing was written, the target is as it was)")
    assert [r.check.name for r in raised.value.report.failed_checks] == ["total"]
    assert _ids(target) == [1]
    with pytest.raises(CheckError, match="check 'not_empty' \\(rows >= 1\\) failed"):
        _sales([]).write_parquet(target, mode="overwrite", constraints="report", references={Customer: customers})
    assert _ids(target) == [1]
    # "skip" runs no check: every row is written, no references needed
    assert _sales(heavy).write_parquet(target, mode="overwrite", constraints="skip") is None
    assert _ids(target) == list(range(1, 12))


def test_a_read_with_constraints_raise_fails_on_a_fail_row_check_only(tmp_path: Path) -> None:
    rows = [{"id": 1, ODD: 1, "qty": 500}, {"id": 1, ODD: 7, "qty": 5}]  # drop, warn and references: not on read
    _sales(rows).write_parquet(tmp_path / "kept", constraints="skip")
    assert Sale.read_parquet(tmp_path / "kept", constraints="raise").count() == 2
    _sales([*rows, {"id": -3, ODD: None, "qty": 5}]).write_parquet(tmp_path / "bad", constraints="skip")
    with pytest.raises(CheckError) as raised:
        Sale.read_parquet(tmp_path / "bad", constraints="raise").count()
    assert "a row violates the model's check 'positive_id' (row: (id > 0)) (read with constraints='raise')" in str(
        raised.value
    )
    assert 'the row\'s values: {"id":-3}' in str(raised.value)


@pytest.mark.lakehouse
def test_a_delta_write_keeps_its_version_on_a_failing_check_and_leaves_dropped_rows_out(
    tmp_path: Path, spark: SparkSession
) -> None:
    customers = Customer.from_rows([{"id": 1}, {"id": 2}])
    where = str(tmp_path / "sales")
    _sales([{"id": 1, ODD: 1, "qty": 5}]).write_delta(where, references={Customer: customers})
    history = f"DESCRIBE HISTORY delta.`{where}`"
    versions = sorted(row[0] for row in spark.sql(history).select("version").collect())
    heavy = [{"id": i, ODD: 1, "qty": 100} for i in range(1, 12)]  # sum(qty) = 1100
    with pytest.raises(CheckError, match="check 'total'"):
        _sales(heavy).write_delta(where, mode="append", references={Customer: customers})
    assert sorted(row[0] for row in spark.sql(history).select("version").collect()) == versions
    report = _sales(ROWS[:3] + ROWS[4:]).write_delta(
        where, mode="overwrite", constraints="report", references={Customer: customers}
    )
    assert report is not None
    assert {r.check.name: r.count for r in report.checks if r.count} == {"sale_id": 2, "small": 1, "known_customer": 1}
    assert sorted(Sale.read_delta(where).to_dict()["id"]) == [1, 5]
