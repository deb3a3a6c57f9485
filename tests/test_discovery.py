"""describe(), value_counts() and info()."""

from __future__ import annotations

from typing import Any

import pytest
from pyspark.sql import SparkSession

from pydantable_spark import DataFrameModel


class D(DataFrameModel):
    k: str | None
    v: float | None
    ok: bool


@pytest.fixture(scope="module")
def frame(spark: SparkSession) -> Any:
    return D.from_rows(
        [{"k": "a", "v": 1.0, "ok": True}, {"k": "a", "v": None, "ok": False}, {"k": None, "v": 3.0, "ok": True}]
    )


def test_describe(frame: Any) -> None:
    assert frame.describe().splitlines() == [  # the interface contract's statistics per type
        "rows: 3",
        "k (str | None): count=2, nulls=1, n_unique=1, min_length=1, max_length=1",
        "v (float | None): count=2, nulls=1, mean=2.0, std=1.4142135623730951, min=1.0, max=3.0",
        "ok (bool): true=2, false=1, nulls=0",
    ]


def test_value_counts(frame: Any) -> None:
    assert frame.value_counts("k") == {"a": 2, None: 1}
    shares = frame.value_counts(D.ok, normalize=True)
    assert shares == {True: pytest.approx(2 / 3), False: pytest.approx(1 / 3)}


def test_info(frame: Any) -> None:
    assert frame.info().splitlines() == [
        "DataFrame[D]: 3 rows, 3 columns",
        "  k: str | None (string)",
        "  v: float | None (double)",
        "  ok: bool (boolean)",
    ]
