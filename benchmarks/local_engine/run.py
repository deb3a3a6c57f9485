"""Times unit-test modules of pipelines end to end, on the local engine and on local Spark.

Each run is a fresh ``python -m pytest <module>`` process (interpreter start, imports, the SparkSession for
Spark, every test); the medians of ``--runs`` runs of each are printed, with their ratio. The modules:

- ``pipelines_test.py``: 20 small pipelines (filters, projections, group-bys, joins, unions over 40 rows);
  it picks its engine from ``PIPELINE_ENGINE``.
- ``typed_pipeline_test.py``: a typed pipeline of three stages (``as_model``, explode, windows, string and date
  functions, decimals); it passes no ``engine=``: the local run is ``--pydantable-engine=local`` (the plugin).

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
MODULES = ("pipelines_test.py", "typed_pipeline_test.py")


def _once(module: str, engine: str) -> float:
    env = {**os.environ, "PIPELINE_ENGINE": engine, "PYTHONPATH": str(HERE.parent.parent)}
    # the module's own empty pytest.ini: a user's test run, without this repository's conftest and settings
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c", "pytest.ini", "--rootdir", "."]
    command += [module, f"--pydantable-engine={engine}"]
    started = time.perf_counter()
    subprocess.run(command, env=env, check=True, capture_output=True, cwd=HERE)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--module", choices=MODULES, action="append", help="one module (default: both)")
    args = parser.parse_args()
    for module in args.module or MODULES:
        medians = {}
        for engine in ("local", "spark"):
            times = [_once(module, engine) for _ in range(args.runs)]
            medians[engine] = statistics.median(times)
            shown = ", ".join(f"{t:.2f}" for t in times)
            print(f"{module} {engine:>5}: median {medians[engine]:.2f} s over {args.runs} runs ({shown})")
        print(f"{module} Spark / local: {medians['spark'] / medians['local']:.1f}x")


if __name__ == "__main__":
    main()
