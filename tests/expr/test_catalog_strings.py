"""String functions past what the generated catalog test tries: argument order against PySpark's own calls."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from pyspark.sql import functions as sf

from pydantable_spark import DataFrameModel, F

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

pytestmark = pytest.mark.spark


class R(DataFrameModel):
    s: str
    chars: str


_ROWS = [{"s": "Ab c1", "chars": "Ab"}, {"s": "xyxzyx", "chars": "xy"}, {"s": "  pad  ", "chars": " "}]


@pytest.mark.parametrize("name", ["trim", "ltrim", "rtrim", "btrim"])
def test_trimming_with_characters_takes_the_string_first_as_pysparks_functions(spark: SparkSession, name: str) -> None:
    frame = R.from_rows(_ROWS)
    ours = frame.select(
        by_column=getattr(F, name)(R.s, R.chars), by_literal=getattr(F, name)(R.s, F.lit("Ab"))
    ).to_dict()
    plain = spark.createDataFrame(_ROWS).select(
        getattr(sf, name)(sf.col("s"), sf.col("chars")).alias("by_column"),
        getattr(sf, name)(sf.col("s"), sf.lit("Ab")).alias("by_literal"),
    )
    theirs = {column: [row[column] for row in plain.collect()] for column in ("by_column", "by_literal")}
    assert ours == theirs
    if name in ("trim", "ltrim"):
        assert ours["by_literal"][0] == " c1"  # the example: the characters of "Ab" trimmed from "Ab c1"
