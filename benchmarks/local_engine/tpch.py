"""TPC-H on the local engine: which queries export, which run locally, and their time beside local Spark's.

The tables are read into Python (``Tables.in_memory``), so every query's plan starts from Python data and
exports to Substrait. For each query: the local engine's result time and the same frame's ``to_arrow()`` on the
embedded local Spark session (warm: the session is started before timing), medians of ``--runs`` runs.
Results are not compared here: ``tests/test_tpch.py`` checks every local result against Spark SQL.

    python benchmarks/local_engine/tpch.py --sf 0.01 --runs 3
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.tpch.data import generate
from benchmarks.tpch.queries import QUERIES, Tables
from pydantable_spark.errors import UnsupportedEngineError
from pydantable_spark.substrait import to_substrait


def _median(action: object, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        action()  # type: ignore[operator]
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sf", type=float, default=0.01)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    tables = Tables.in_memory(generate(args.sf), args.sf)
    QUERIES[1](tables).to_arrow()  # start the Spark session before timing
    local_total = spark_total = 0.0
    ran = 0
    for number, query in QUERIES.items():
        frame = query(tables)
        to_substrait(frame)
        try:
            frame.to_arrow(engine="local")
        except UnsupportedEngineError as refusal:
            print(f"q{number:02d}: exported; not run locally: {str(refusal)[:100]}")
            continue
        local = _median(lambda frame=frame: frame.to_arrow(engine="local"), args.runs)
        spark = _median(lambda frame=frame: frame.to_arrow(), args.runs)
        local_total, spark_total, ran = local_total + local, spark_total + spark, ran + 1
        print(f"q{number:02d}: local {local * 1000:7.1f} ms   Spark {spark * 1000:7.1f} ms   {spark / local:5.1f}x")
    print(f"{len(QUERIES)} exported, {ran} run locally: local {local_total:.2f} s, Spark {spark_total:.2f} s in all")


if __name__ == "__main__":
    main()
