"""Collect benchmark: raw PySpark against the façade, in the same run.

For 1e5 and 1e6 rows x 6 columns (long, double, string, bool, date, nullable
long) it times, as medians of several runs: raw ``df.collect()`` (Row objects),
raw ``df.toArrow()``, the façade's validated ``collect()`` and its trusted
``collect(trusted=True)``, and prints each as a ratio to raw ``collect()``.
It also times building and lowering a 10-step ``with_columns``/``filter``
chain against the same chain written in raw PySpark.

Run: ``python benchmarks/collect.py [--runs 5] [--sizes 100000 1000000]``.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import statistics
import time
from typing import TYPE_CHECKING, Any

from pyspark.sql import SparkSession
from pyspark.sql import functions as sf

from pydantable_spark import DataFrameModel, F
from pydantable_spark._spark.session import EMBEDDED_CONFIG

if TYPE_CHECKING:
    from collections.abc import Callable


class Wide(DataFrameModel):
    id: int
    value: float
    label: str
    flag: bool
    day: datetime.date
    maybe: int | None


def session() -> SparkSession:
    builder = SparkSession.builder.master("local[2]").appName("pydantable-spark-bench")
    for key, value in EMBEDDED_CONFIG.items():
        builder = builder.config(key, value)
    return builder.config("spark.ui.showConsoleProgress", "false").getOrCreate()


def source(spark: SparkSession, rows: int) -> Any:
    sdf = spark.range(rows).selectExpr(
        "id",
        "CAST(id AS DOUBLE) * 1.5 AS value",
        "concat('user-', CAST(id AS STRING)) AS label",
        "(id & 1) = 0 AS flag",
        "date_add(DATE '2020-01-01', CAST(id & 1023 AS INT)) AS day",
        "IF(id % 3 = 0, NULL, id) AS maybe",
    )
    cached = sdf.to(Wide.spark_schema()).cache()
    cached.count()
    return cached


def median_seconds(fn: Callable[[], Any], runs: int) -> float:
    times = []
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
        del result
    return statistics.median(times)


def collect_table(spark: SparkSession, rows: int, runs: int) -> list[tuple[str, float]]:
    sdf = source(spark, rows)
    frame = Wide.from_spark(sdf)
    frame.collect()  # warm up both paths once
    sdf.collect()
    cases = [
        ("raw df.collect()", lambda: sdf.collect()),
        ("raw df.toArrow()", lambda: sdf.toArrow()),
        ("façade collect() (validated)", lambda: frame.collect()),
        ("façade collect(trusted=True)", lambda: frame.collect(trusted=True)),
    ]
    results = [(name, median_seconds(fn, runs)) for name, fn in cases]
    sdf.unpersist()
    return results


def chain_table(spark: SparkSession, runs: int) -> list[tuple[str, float]]:
    sdf = source(spark, 1000)
    frame = Wide.from_spark(sdf)

    def raw() -> Any:
        out = sdf
        for i in range(10):
            out = out.withColumn(f"c{i}", (sf.col("id") + sf.lit(i)) * sf.col("value"))
            out = out.filter(sf.col(f"c{i}") > sf.lit(-1.0))
        return out.schema

    def facade() -> Any:
        out = frame
        for i in range(10):
            out = out.with_columns(**{f"c{i}": (Wide.id + i) * Wide.value})
            out = out.filter(F.col(f"c{i}") > -1.0)
        return out.to_spark().schema

    raw()
    facade()
    return [
        ("raw PySpark chain (build)", median_seconds(raw, runs)),
        ("façade chain (build + lower)", median_seconds(facade, runs)),
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    args = parser.parse_args()
    spark = session()
    print(f"Spark {spark.version}, {args.runs} runs each, medians\n")
    for rows in args.sizes:
        results = collect_table(spark, rows, args.runs)
        base = results[0][1]
        print(f"{rows:,} rows x 6 columns")
        print(f"  {'case':<32} {'seconds':>9} {'x raw collect':>14}")
        for name, seconds in results:
            print(f"  {name:<32} {seconds:>9.4f} {seconds / base:>14.2f}")
        print()
    chain = chain_table(spark, args.runs)
    base = chain[0][1]
    print("10-step with_columns/filter chain, until the Spark DataFrame is analysed")
    for name, seconds in chain:
        print(f"  {name:<32} {seconds * 1000:>8.1f} ms {seconds / base:>8.2f}x")


if __name__ == "__main__":
    main()
