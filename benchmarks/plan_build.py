"""Plan-building benchmark: the Python cost of one ``with_columns``/``filter`` step, against raw PySpark.

A 10-step chain (``with_columns`` of a computed column from catalog functions,
then a ``filter`` on it, ten times) is built on a frame of 6 columns:

* façade, plan only: the typed plan in Python (types, nullability and names
  derived at each step), no Spark call; timed by the wall clock and by this
  process's CPU time (which other processes on the machine do not inflate);
* façade, plan + lowering + analysis: the same, lowered and analysed by Spark once;
* raw PySpark: ``withColumn`` + ``filter`` with ``Column`` objects, analysed by
  Spark at every step (classic Spark analyses each ``withColumn`` eagerly).

Each is timed as the median of several runs; the result is the time per step
and the ratio to raw PySpark.

Run: ``python benchmarks/plan_build.py [--runs 7] [--steps 10]``.
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import time
from typing import TYPE_CHECKING, Any

from pyspark.sql import SparkSession
from pyspark.sql import functions as sf

from pydantable_spark import DataFrameModel, F
from pydantable_spark._spark.lower import lower
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


ROWS = [
    {"id": i, "value": i / 2, "label": f"n{i}", "flag": i % 2 == 0, "day": datetime.date(2024, 1, 1), "maybe": None}
    for i in range(8)
]


def facade_chain(frame: Any, steps: int) -> Any:
    for i in range(steps):
        name = f"c{i}"
        frame = frame.with_columns(
            **{name: F.round(F.abs(Wide.value * (i + 1)) + F.length(F.upper(Wide.label)), 2)}
        ).filter(F.col(name) > -1.0)
    return frame


def raw_chain(sdf: Any, steps: int) -> Any:
    for i in range(steps):
        name = f"c{i}"
        sdf = sdf.withColumn(
            name, sf.round(sf.abs(sf.col("value") * (i + 1)) + sf.length(sf.upper(sf.col("label"))), 2)
        ).filter(sf.col(name) > -1.0)
    return sdf


def median_seconds(run: Callable[[], Any], runs: int, clock: Callable[[], float] = time.perf_counter) -> float:
    run()  # warm-up
    times = []
    for _ in range(runs):
        started = clock()
        run()
        times.append(clock() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--steps", type=int, default=10)
    args = parser.parse_args()
    builder = SparkSession.builder.master("local[2]").appName("pydantable-spark-bench")
    for key, value in EMBEDDED_CONFIG.items():
        builder = builder.config(key, value)
    spark = builder.config("spark.ui.showConsoleProgress", "false").getOrCreate()
    frame = Wide.from_rows(ROWS, session=spark)
    sdf = lower(frame.plan)
    sdf.schema  # noqa: B018 - analysed once before timing

    steps = args.steps
    plan_only = median_seconds(lambda: facade_chain(frame, steps), args.runs * 5)
    # plan building is Python work only: its CPU time does not count the time other processes hold the cores
    plan_cpu = median_seconds(lambda: facade_chain(frame, steps), args.runs * 5, time.process_time)
    analysed = median_seconds(lambda: lower(facade_chain(frame, steps).plan).schema, args.runs)
    raw = median_seconds(lambda: raw_chain(sdf, steps).schema, args.runs)
    print(f"{steps}-step with_columns/filter chain ({2 * steps} operations), medians of {args.runs}+ runs:")
    print("| case | total | per step | ratio |\n|---|---|---|---|")
    for label, seconds in [
        ("raw PySpark (withColumn + filter, analysed)", raw),
        ("façade, plan only (types derived, no Spark call)", plan_only),
        ("façade, plan only, CPU time of this process", plan_cpu),
        ("façade, plan + lowering + analysis", analysed),
    ]:
        per_step = seconds / (2 * steps) * 1e6
        print(f"| {label} | {seconds * 1e3:.2f} ms | {per_step:.1f} µs | {seconds / raw:.3f} |")


if __name__ == "__main__":
    main()
