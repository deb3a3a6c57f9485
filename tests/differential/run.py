"""A long differential run: ``python tests/differential/run.py --cases 10000 [--seed N] [--connect]``.

Prints a summary and every difference; exits with 1 if there is any. Seeds are
consecutive from ``--seed`` (random when not given), so a difference is
reproduced by running its seed again.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from difftest import Summary, run_case


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--connect", action="store_true", help="run on a local Spark Connect server")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(10**9)

    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("pydantable-spark-differential")
    builder = builder.remote("local[2]") if args.connect else builder.master("local[2]")
    for key, value in {
        "spark.sql.session.timeZone": "UTC",
        "spark.sql.shuffle.partitions": "2",
        "spark.sql.execution.arrow.pyspark.enabled": "true",
    }.items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    if not args.connect:
        spark.sparkContext.setLogLevel("OFF")

    summary = Summary()
    started = time.monotonic()
    for n, case in enumerate(range(seed, seed + args.cases), 1):
        summary.add(run_case(spark, case))
        if n % 100 == 0:
            print(f"{n}/{args.cases} after {time.monotonic() - started:.0f}s: {summary}", flush=True)
    print(f"seeds {seed}..{seed + args.cases - 1}: {summary}")
    for difference in summary.differences:
        print(f"\n{difference}")
    return 1 if summary.differences else 0


if __name__ == "__main__":
    sys.exit(main())
