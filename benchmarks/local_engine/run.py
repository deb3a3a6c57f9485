"""Times a unit-test module of 20 small pipelines end to end, on the local engine and on local Spark.

Each run is a fresh ``python -m pytest pipelines_test.py`` process (interpreter start, imports, the SparkSession
for Spark, every pipeline); the medians of ``--runs`` runs of each are printed, with their ratio.

    python benchmarks/local_engine/run.py --runs 3
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent


def _once(engine: str) -> float:
    env = {**os.environ, "PIPELINE_ENGINE": engine, "PYTHONPATH": str(HERE.parent.parent)}
    # the module's own empty pytest.ini: a user's test run, without this repository's conftest and settings
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c", "pytest.ini", "--rootdir", "."]
    command.append("pipelines_test.py")
    started = time.perf_counter()
    subprocess.run(command, env=env, check=True, capture_output=True, cwd=HERE)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    medians = {}
    for engine in ("local", "spark"):
        times = [_once(engine) for _ in range(args.runs)]
        medians[engine] = statistics.median(times)
        shown = ", ".join(f"{t:.2f}" for t in times)
        print(f"{engine:>5}: median {medians[engine]:.2f} s over {args.runs} runs ({shown})")
    print(f"Spark / local: {medians['spark'] / medians['local']:.1f}x")


if __name__ == "__main__":
    main()
