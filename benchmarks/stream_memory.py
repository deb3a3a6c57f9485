"""Memory benchmark: ``stream()`` against ``collect()`` and raw PySpark, each in a fresh process.

For 1e6 rows x 6 columns (the data of ``collect.py``, made in Spark, spread over
``--partitions`` partitions) each case runs in its own Python process, and the
process's peak resident memory above its level after warm-up (a session
started and a small result collected) is reported, in MiB, as the median of
``--runs`` processes. The JVM is a separate process in local mode, so these are
the Python side's numbers. Cases: raw ``toLocalIterator()`` (Row objects, one
partition at a time), raw ``collect()``, façade ``collect()``, façade
``stream(batch_size=10_000)`` with each batch dropped after use. Times are
printed too, as ratios to raw ``collect()``.

Run: ``python benchmarks/stream_memory.py [--rows 1000000] [--runs 3] [--partitions 8]``.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time

CASES = ("raw toLocalIterator()", "raw collect()", "façade collect()", "façade stream(10_000)")


def measure(case: str, rows: int, partitions: int) -> dict[str, float]:
    """Run one case in this process; peak RSS growth over the warmed-up level, and seconds."""
    sys.path.insert(0, ".")
    from benchmarks.collect import Wide, session, source

    spark = session()
    sdf = source(spark, rows).repartition(partitions)
    sdf.count()
    frame = Wide.from_spark(sdf)
    frame.head(10).collect()
    list(frame.head(10).stream())
    sdf.limit(10).collect()
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    seen = 0
    if case == "raw toLocalIterator()":
        for _ in sdf.toLocalIterator():
            seen += 1
    elif case == "raw collect()":
        seen = len(sdf.collect())
    elif case == "façade collect()":
        seen = len(frame.collect())
    else:
        for batch in frame.stream(batch_size=10_000):
            seen += len(batch)
    seconds = time.perf_counter() - start
    assert seen == rows, (case, seen)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"mib": (peak - base) / 1024, "seconds": seconds}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--partitions", type=int, default=8)
    parser.add_argument("--case", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.case:
        print(json.dumps(measure(args.case, args.rows, args.partitions)))
        return
    results = {}
    for case in CASES:
        runs = []
        for _ in range(args.runs):
            command = [sys.executable, __file__, "--case", case, "--rows", str(args.rows)]
            command += ["--partitions", str(args.partitions)]
            done = subprocess.run(command, capture_output=True, text=True, check=True)
            runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
        results[case] = (
            statistics.median(r["mib"] for r in runs),
            statistics.median(r["seconds"] for r in runs),
        )
    baseline = results["raw collect()"][1]
    print(f"{args.rows:,} rows x 6 columns, {args.partitions} partitions, medians of {args.runs} processes")
    print(f"{'case':<26} {'peak MiB':>9} {'seconds':>8} {'time ratio':>10}")
    for case, (mib, seconds) in results.items():
        print(f"{case:<26} {mib:>9.0f} {seconds:>8.2f} {seconds / baseline:>10.2f}")


if __name__ == "__main__":
    main()
