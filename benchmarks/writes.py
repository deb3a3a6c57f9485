"""Write benchmark: what all-or-nothing writes cost against Spark's own writer, in the same run.

For 1e6 rows x 6 columns (long, double, string, bool, date, nullable long; 8
partitions, cached) it times Spark's ``df.write`` and the façade's writer for
Parquet ``overwrite`` and ``append`` of a path and ``saveAsTable`` ``overwrite``,
alternating raw and façade runs, and prints medians and the façade/raw ratio;
then ``count()`` of 10 rows, which shows what every action pays for its job
tag, its Ctrl-C handling and the helper thread that runs it.
The façade writes to a staging directory (or table) and swaps it in; Spark
writes in place.

Run: ``python benchmarks/writes.py [--runs 7] [--rows 1000000]``.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import shutil
import statistics
import tempfile
import time
from typing import TYPE_CHECKING, Any

from pyspark.sql import SparkSession

from pydantable_spark import DataFrameModel
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
    sdf = spark.range(0, rows, 1, 8).selectExpr(
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


def timed(fn: Callable[[], Any]) -> float:
    gc.collect()
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def compare(name: str, raw: Callable[[], Any], facade: Callable[[], Any], runs: int) -> tuple[str, float, float]:
    raw()  # warm up both once
    facade()
    raw_times, facade_times = [], []
    for _ in range(runs):
        raw_times.append(timed(raw))
        facade_times.append(timed(facade))
    return name, statistics.median(raw_times), statistics.median(facade_times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--rows", type=int, default=1_000_000)
    args = parser.parse_args()
    spark = session()
    sdf = source(spark, args.rows)
    frame = Wide.from_spark(sdf)
    small = source(spark, 10)
    small_frame = Wide.from_spark(small)
    root = tempfile.mkdtemp(prefix="pydantable-bench-writes-")
    raw_path, facade_path = f"{root}/raw", f"{root}/facade"
    try:
        results = [
            compare(
                "parquet overwrite",
                lambda: sdf.write.mode("overwrite").parquet(raw_path),
                lambda: frame.write_parquet(facade_path, mode="overwrite"),
                args.runs,
            ),
            compare(
                "parquet append",
                lambda: sdf.write.mode("append").parquet(raw_path),
                lambda: frame.write_parquet(facade_path, mode="append"),
                args.runs,
            ),
            compare(
                "saveAsTable overwrite",
                lambda: sdf.write.mode("overwrite").saveAsTable("bench_raw"),
                lambda: frame.save_as_table("bench_facade", mode="overwrite"),
                args.runs,
            ),
            compare(
                "count() of 10 rows (what tagging, cancelling and the helper thread cost an action)",
                small.count,
                small_frame.count,
                args.runs,
            ),
        ]
    finally:
        spark.sql("DROP TABLE IF EXISTS bench_raw")
        spark.sql("DROP TABLE IF EXISTS bench_facade")
        shutil.rmtree(root, ignore_errors=True)
    print(f"{args.rows:,} rows x 6 columns, 8 partitions, median of {args.runs} runs")
    print("| write | Spark's writer | façade (staging + swap) | ratio |")
    print("|---|---:|---:|---:|")
    for name, raw, facade in results:
        print(f"| {name} | {raw:.3f} s | {facade:.3f} s | **{facade / raw:.2f}** |")


if __name__ == "__main__":
    main()
