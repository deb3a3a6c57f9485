"""Authoring aid for catalog entries: report type mismatches and value differences compactly.

    python tests/expr/catalog_probe.py [NAME ...] [--values] [--local]

Runs the same checks as ``test_catalog.py`` on the named entries (all when none
are named), with its own local Spark session, and prints one line per problem.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))


def main() -> int:
    logging.disable(logging.CRITICAL)
    from pyspark.sql import SparkSession

    spark = (
        SparkSession.builder.master("local[2]")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("OFF")
    import test_catalog as catalog_tests

    wide = catalog_tests.wide.__wrapped__(spark)  # type: ignore[attr-defined]
    only = {a for a in sys.argv[1:] if not a.startswith("-")}
    candidates = {n: c for n, c in catalog_tests._candidates(wide).items() if not only or c.entry.name in only}
    print(f"{len(candidates)} calls of {len({c.entry.name for c in candidates.values()})} entries")
    problems = [f"TYPE {m}" for m in catalog_tests.type_mismatches(wide, candidates)]
    if "--values" in sys.argv:
        problems += [f"VALUE {m}" for m in catalog_tests.value_differences(wide, candidates)]
    if "--local" in sys.argv:  # the local engine against Spark, and why it refuses what it refuses
        outcome = catalog_tests.local_outcome(wide, candidates)
        problems += [f"LOCAL {m}" for m in outcome.differences]
        entries = {c.entry.name for c in candidates.values()}
        print(f"local engine: {len(outcome.ran)} of {len(entries)} entries ran and agreed")
        for name in sorted(entries - outcome.ran):
            print(f"REFUSED {name}: {outcome.refused.get(name, 'ran, but never agreed')[:300]}")
    for problem in problems:
        print(problem[:500])
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
