"""Aggregate functions past what the generated catalog test tries: PySpark's list and column forms."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from pyspark.sql import functions as sf

from pydantable_spark import DataFrameModel, F
from pydantable_spark.errors import ArgumentValueError, ColumnTypeError

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

pytestmark = pytest.mark.spark


class Sample(DataFrameModel):
    v: float
    i: int | None
    w: int


ROWS = [
    {"v": 1.0, "i": 5, "w": 2},
    {"v": 2.0, "i": 7, "w": 1},
    {"v": 3.0, "i": None, "w": 3},
    {"v": 4.0, "i": 1, "w": 1},
]


def test_percentiles_take_pysparks_lists_and_frequency_column(spark: SparkSession, agrees: Any) -> None:
    frame = Sample.from_rows(ROWS)
    calls = {  # PySpark's own docstring forms: a list of percentages, a frequency column
        "listed": (F.percentile(Sample.v, [0.25, 0.75]), sf.percentile("v", [0.25, 0.75])),
        "tupled": (F.percentile(Sample.i, (0, 0.5, 1), F.lit(2)), sf.percentile("i", (0, 0.5, 1), sf.lit(2))),
        "weighted": (F.percentile(Sample.v, 0.5, Sample.w), sf.percentile("v", 0.5, sf.col("w"))),
        "by_name": (
            F.percentile(Sample.v, percentage=[0.5], frequency=Sample.w),
            sf.percentile("v", [0.5], sf.col("w")),
        ),
        "approx": (F.percentile_approx(Sample.i, [0.25, 0.75]), sf.percentile_approx("i", [0.25, 0.75])),
        "approx_one": (F.percentile_approx(Sample.v, 0.5, 100), sf.percentile_approx("v", 0.5, 100)),
    }
    ours = frame.select(**{name: mine for name, (mine, _) in calls.items()})
    agrees(ours)
    plain = frame.to_spark().select(*[theirs.alias(name) for name, (_, theirs) in calls.items()])
    assert [(f.name, f.dataType, f.nullable) for f in ours.to_spark().schema] == [
        (f.name, f.dataType, f.nullable) for f in plain.schema
    ]
    assert ours.to_dict() == {name: [value] for name, value in plain.collect()[0].asDict().items()}


@pytest.mark.parametrize(
    ("make", "kind", "message"),
    [
        (lambda: F.percentile(Sample.v, [0.25, 1.5]), ArgumentValueError, r"percentage must be between 0 and 1 \(1.5"),
        (lambda: F.percentile(Sample.v, []), ArgumentValueError, "percentage must be a percentage or a non-empty list"),
        (lambda: F.percentile(Sample.v, ["a"]), ArgumentValueError, r"percentage must be numbers between 0 and 1 \("),
        (lambda: F.percentile(Sample.v, 0.5, Sample.v), ColumnTypeError, "frequency must be an integer; got column"),
        (lambda: F.percentile(Sample.v, 0.5, 0), ArgumentValueError, "frequency must be >= 1, got 0"),
    ],
)
def test_percentile_arguments_are_checked_when_the_call_is_made(make: Any, kind: type[Exception], message: str) -> None:
    with pytest.raises(kind, match=rf"F.percentile\(\): {message}"):
        make()
