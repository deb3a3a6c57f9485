"""mypy time on a generated 1,000-line pipeline module, with and without the plugin.

The module declares a few models and then, line after line, builds expressions and
frames (arithmetic, comparisons, string and date functions, select, with_columns,
filter, as_model); every line type-checks with the plugin (each block of lines shares one
index, so a line names the frames of its own block). Each configuration runs on a fresh cache;
medians of several runs.

Run: ``python benchmarks/mypy_plugin.py [--runs 3]``.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from mypy import api

HEADER = """\
from __future__ import annotations

import datetime

from pydantable_spark import DataFrameModel, F


class User(DataFrameModel):
    id: int
    name: str
    age: int | None
    score: float
    joined: datetime.date


class Out(DataFrameModel):
    id: int
    next: int | None


users = User.from_rows([])
"""

BODY = [
    "e{i} = (User.age + {i}) * User.score",
    "c{i} = (User.id > {i}) & (User.age.is_not_null())",
    "s{i} = User.name.str.upper().str.length() + {i}",
    "d{i} = F.date_add(User.joined, {i}).dt.year()",
    "w{i} = F.when(User.id > {i}, User.age).otherwise(0)",
    "f{i} = users.filter(User.age > {i}).select(User.id, (User.age + {i}).alias('next'))",
    "r{i} = f{i}.as_model(Out).collect()",
    "g{i} = users.with_columns(x=User.id * {i}, y=F.coalesce(User.age, {i})).select('x', 'y')",
    "v{i} = g{i}.collect()[0].y",
    "n{i} = users.drop('name').rename({{'age': 'years'}}).collect()[0].years",
]


def module_text(lines: int = 1000) -> str:
    body = []
    i = 0
    while len(body) + HEADER.count("\n") < lines:
        body.append(BODY[i % len(BODY)].format(i=i // len(BODY)))  # one index per block: its lines refer to each other
        i += 1
    return HEADER + "\n".join(body) + "\n"


def run(module: Path, plugins: str, runs: int) -> tuple[float, float]:
    """Median seconds with a fresh cache, and with the dependencies cached and only the module changed."""
    cold, warm = [], []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            config = Path(tmp) / "mypy.ini"
            config.write_text(f"[mypy]\nplugins = {plugins}\n")
            args = ["--config-file", str(config), "--cache-dir", str(Path(tmp) / "cache"), str(module)]
            start = time.perf_counter()
            api.run(args)
            cold.append(time.perf_counter() - start)
            module.write_text(module.read_text() + "# changed\n")
            start = time.perf_counter()
            api.run(args)
            warm.append(time.perf_counter() - start)
    return statistics.median(cold), statistics.median(warm)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        module = Path(tmp) / "pipeline.py"
        module.write_text(module_text())
        lines = module.read_text().count("\n")
        without = run(module, "pydantic.mypy", args.runs)
        with_plugin = run(module, "pydantic.mypy, pydantable_spark.mypy", args.runs)
    print(f"mypy on a generated {lines}-line pipeline module, median of {args.runs} runs")
    print(f"  {'':22} {'fresh cache':>12} {'module changed':>15}")
    print(f"  {'without the plugin':22} {without[0]:>10.2f} s {without[1]:>13.2f} s")
    print(f"  {'with the plugin':22} {with_plugin[0]:>10.2f} s {with_plugin[1]:>13.2f} s")
    print(f"  {'ratio':22} {with_plugin[0] / without[0]:>11.2f}x {with_plugin[1] / without[1]:>14.2f}x")


if __name__ == "__main__":
    main()
