"""mypy on the typing corpus (tests/typing/corpus), cold, with and without the plugin.

Each run is a fresh ``python -m mypy`` process with a fresh cache over every file of
the corpus (the broken and the valid modules and their models), so a run pays for
starting mypy, importing the plugins (pydantable-spark's included) and analysing the
dependencies. The two configurations alternate, so that a busy machine slows both
alike; the report gives medians of wall time and of CPU time (user + system of the
mypy process), and their ratios. The catch rates of the same corpus are printed by
``benchmarks/typing_corpus.py``.

Run: ``python benchmarks/mypy_corpus.py [--runs 5]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "typing" / "corpus"
WITHOUT = "pydantic.mypy"
WITH = "pydantic.mypy, pydantable_spark.mypy"


def one_run(plugins: str) -> tuple[float, float]:
    """Wall and CPU seconds of one cold mypy run over the corpus."""
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "mypy.ini"
        config.write_text(f"[mypy]\nplugins = {plugins}\nmypy_path = {CORPUS}\n")
        command = [sys.executable, "-m", "mypy", "--config-file", str(config), "--cache-dir", str(Path(tmp) / "c")]
        command += [str(p) for p in sorted(CORPUS.glob("*.py"))]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, capture_output=True, check=False, env=os.environ.copy())
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    results: dict[str, list[tuple[float, float]]] = {WITHOUT: [], WITH: []}
    for _ in range(args.runs):
        for plugins in (WITHOUT, WITH):
            results[plugins].append(one_run(plugins))
    files = len(list(CORPUS.glob("*.py")))
    lines = sum(p.read_text().count("\n") for p in CORPUS.glob("*.py"))
    print(f"mypy, cold, on the typing corpus ({files} files, {lines} lines), median of {args.runs} runs")
    print(f"  {'':22} {'wall':>9} {'cpu':>9}")
    medians = {}
    for label, plugins in (("without the plugin", WITHOUT), ("with the plugin", WITH)):
        wall = statistics.median(r[0] for r in results[plugins])
        cpu = statistics.median(r[1] for r in results[plugins])
        medians[plugins] = (wall, cpu)
        print(f"  {label:22} {wall:>7.2f} s {cpu:>7.2f} s")
    wall_ratio = medians[WITH][0] / medians[WITHOUT][0]
    cpu_ratio = medians[WITH][1] / medians[WITHOUT][1]
    print(f"  {'ratio':22} {wall_ratio:>8.2f}x {cpu_ratio:>8.2f}x")


if __name__ == "__main__":
    main()
