"""TPC-H benchmark: the 22 typed queries against Spark SQL's official text, checked, then timed in the same run.

Run from the repository root:

    python benchmarks/tpch/run.py --sf 0.1 --runs 3 [--queries 1,6,19]

It generates the data with ``tpchgen-cli`` if ``benchmarks/tpch/.data/sf<SF>``
is missing, checks every typed query's result equals Spark SQL's (names, Spark
types, rows; ``check.py``), prints the lineitem scan's ``PushedFilters`` of
q01/q06/q19 for both, then times per query, as medians of ``--runs`` runs (the
cases of one run one after the other, so a busy moment hits all of them):

* Spark SQL ``spark.sql(text).toArrow()`` (the floor: a result without Python
  objects per row) and ``.collect()`` (PySpark ``Row`` objects);
* the façade's ``to_arrow()``, ``collect(trusted=True)`` and ``collect()``
  (validated rows), each building its plan anew as the SQL side parses its text.

Ratios are façade / Spark SQL ``toArrow()``; the geometric means are over the
queries written without a rewrite (``queries.REWRITTEN``) and over all.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import math
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script: the repository root holds the benchmarks package
    sys.path.insert(0, str(ROOT))

from pyspark.sql import SparkSession  # noqa: E402

from benchmarks.tpch import sql  # noqa: E402
from benchmarks.tpch.check import differences, pushed_filters  # noqa: E402
from benchmarks.tpch.data import CACHE, generate, register_views  # noqa: E402
from benchmarks.tpch.queries import QUERIES, REWRITTEN, Tables  # noqa: E402
from pydantable_spark._spark.session import EMBEDDED_CONFIG  # noqa: E402

if TYPE_CHECKING:
    from collections.abc import Callable

CASES = ("sql toArrow", "sql collect", "to_arrow", "trusted", "collect")
"""The timed cases, in the order of a run."""


def session(memory: str) -> SparkSession:
    """A local[2] session with the embedded session's settings (and plans shown in full)."""
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = SparkSession.builder.master("local[2]").appName("pydantable-spark-tpch")
    for key, value in EMBEDDED_CONFIG.items():
        builder = builder.config(key, value)
    builder = builder.config("spark.driver.memory", memory).config("spark.ui.showConsoleProgress", "false")
    return builder.config("spark.sql.maxMetadataStringLength", "1000").getOrCreate()


def cases(spark: SparkSession, tables: Tables, number: int) -> dict[str, Callable[[], object]]:
    """What each case runs for query ``number``: the plan or text is built inside, as an application would."""
    query, text = QUERIES[number], sql.text(number, tables.sf)
    return {
        "sql toArrow": lambda: spark.sql(text).toArrow(),
        "sql collect": lambda: spark.sql(text).collect(),
        "to_arrow": lambda: query(tables).to_arrow(),
        "trusted": lambda: query(tables).collect(trusted=True),
        "collect": lambda: query(tables).collect(),
    }


def timed(fn: Callable[[], object]) -> float:
    gc.collect()
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def measure(spark: SparkSession, tables: Tables, number: int, runs: int) -> dict[str, float]:
    """Median seconds of each case for query ``number``, after one untimed run of each."""
    runners = cases(spark, tables, number)
    for fn in runners.values():
        fn()
    times: dict[str, list[float]] = {name: [] for name in CASES}
    for _ in range(runs):
        for name in CASES:
            times[name].append(timed(runners[name]))
    return {name: statistics.median(values) for name, values in times.items()}


def check(spark: SparkSession, tables: Tables, numbers: list[int]) -> bool:
    """Print whether each typed query equals Spark SQL's; True when all do."""
    print("Results (typed query against Spark SQL: names, Spark types, rows):")
    ok = True
    for number in numbers:
        problems = differences(
            QUERIES[number](tables), spark.sql(sql.text(number, tables.sf)), ordered=sql.ordered(number)
        )
        ok = ok and not problems
        print(f"  q{number:02d}: {'equal' if not problems else 'DIFFERENT'}")
        for problem in problems:
            print(f"       {problem}")
    return ok


def pushdown(spark: SparkSession, tables: Tables, numbers: list[int]) -> None:
    print("Filters pushed into the lineitem scan (typed / Spark SQL):")
    for number in (n for n in (1, 6, 19) if n in numbers):
        ours, theirs = pushed_filters(QUERIES[number](tables), spark.sql(sql.text(number, tables.sf)), "lineitem")
        print(f"  q{number:02d} typed: {ours}\n      sql:   {theirs}{'' if ours == theirs else '   (DIFFERENT)'}")


def geomean(values: list[float]) -> float:
    return math.exp(statistics.fmean(math.log(v) for v in values)) if values else float("nan")


def report(results: dict[int, dict[str, float]]) -> None:
    """The table of medians (seconds) and ratios to Spark SQL's ``toArrow()``, in Markdown."""
    print("| query | SQL `toArrow()` | SQL `collect()` | façade `to_arrow()` | façade trusted | façade `collect()` |")
    print("|---|---|---|---|---|---|")
    for number, m in results.items():
        base = m["sql toArrow"]
        cells = [f"{m[name]:.3f} ({m[name] / base:.2f})" for name in CASES[1:]]
        mark = "*" if number in REWRITTEN else ""
        print(f"| q{number:02d}{mark} | {base:.3f} | " + " | ".join(cells) + " |")
    for label, numbers in (
        ("geometric mean, no rewrite", [n for n in results if n not in REWRITTEN]),
        ("geometric mean, all", list(results)),
    ):
        if not numbers:
            continue
        means = [geomean([results[n][name] / results[n]["sql toArrow"] for n in numbers]) for name in CASES[1:]]
        print(f"| {label} ({len(numbers)}) | 1.00 | " + " | ".join(f"**{v:.2f}**" for v in means) + " |")
    print("\n`*`: rewritten (semi/anti joins, joined aggregates); ratios in parentheses: / SQL `toArrow()`.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sf", type=float, default=0.1, help="scale factor (default 0.1)")
    parser.add_argument("--runs", type=int, default=3, help="timed runs per case (median; default 3)")
    parser.add_argument("--queries", default="", help="comma-separated query numbers (default: all 22)")
    parser.add_argument("--data", type=Path, default=CACHE, help=f"data cache directory (default {CACHE})")
    parser.add_argument("--memory", default="4g", help="Spark driver memory (default 4g)")
    parser.add_argument("--no-timing", action="store_true", help="check the results only")
    args = parser.parse_args()
    numbers = [int(n) for n in args.queries.split(",")] if args.queries else sorted(QUERIES)
    unknown = [n for n in numbers if n not in QUERIES]
    if unknown:
        parser.error(f"no TPC-H query {unknown}; the queries are 1 to 22")

    data = generate(args.sf, args.data)
    spark = session(args.memory)
    register_views(spark, data)
    tables = Tables.read(data, args.sf, spark)
    cores = os.cpu_count()
    print(
        f"{datetime.date.today()}, Spark {spark.version} local[2], Python {platform.python_version()}, "
        f"{cores} cores; TPC-H SF {args.sf:g} from {data}; {args.runs} runs, medians\n"
    )
    equal = check(spark, tables, numbers)
    print()
    pushdown(spark, tables, numbers)
    print()
    if args.no_timing:
        sys.exit(0 if equal else 1)
    results: dict[int, dict[str, Any]] = {}
    for number in numbers:
        results[number] = measure(spark, tables, number, args.runs)
        print(f"  q{number:02d} timed: Spark SQL toArrow {results[number]['sql toArrow']:.3f} s", flush=True)
    print()
    report(results)
    sys.exit(0 if equal else 1)


if __name__ == "__main__":
    main()
