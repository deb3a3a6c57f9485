"""Constraint benchmark: ``validate()`` and checked writes against a plain ``count()`` and pandera, in one run.

A model with 12 Spark-checked constraints (bounds, ``multiple_of``, lengths, a
pattern, a ``Literal``, ``allow_inf_nan=False``) over ``--rows`` rows (1e7 by
default) generated in Spark (``range`` + expressions) and cached in memory, so
every case reads the same data. Medians of ``--runs`` runs, each case printed
as a ratio to ``count()`` of the same frame:

* ``count()``: the baseline the issue names (Spark reads no column for it);
* a full scan: every column read once (``write.format("noop")``), what any check must at least do;
* ``validate()``: every constraint for every row, one aggregation job;
* pandera's PySpark backend (``pandera.pyspark.DataFrameSchema.validate``) with the same
  checks, when pandera is importable (a benchmark-only dependency:
  ``pip install --target DIR pandera typeguard typing_inspect`` and ``PYTHONPATH=DIR``);
* ``write_parquet`` with ``constraints="skip"``, ``"raise"`` and ``"report"``: the cost of checking on write.

Run: ``python benchmarks/constraints.py [--rows 10000000] [--runs 3]``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field
from pyspark.sql import SparkSession

from pydantable_spark import DataFrameModel
from pydantable_spark._spark.session import EMBEDDED_CONFIG

if TYPE_CHECKING:
    from collections.abc import Callable


class Order(DataFrameModel):
    id: int = Field(ge=0)
    qty: int = Field(ge=0, le=1000, multiple_of=1)
    price: float = Field(gt=0, allow_inf_nan=False)
    discount: float = Field(ge=0, le=1)
    sku: str = Field(pattern=r"^[A-Z]{3}-[0-9]+$", max_length=16)
    size: Literal["S", "M", "L"]
    note: str = Field(min_length=1)


COLUMNS = [  # coalesce(...): Spark marks % and / nullable; the model's columns are not
    "id",
    "coalesce(id % 1000, 0) AS qty",
    "coalesce(CAST(id % 997 AS DOUBLE) + 0.5, 1.0D) AS price",
    "coalesce(CAST(id % 100 AS DOUBLE) / 100, 0.0D) AS discount",
    "coalesce(concat('ABC-', CAST(id AS STRING)), 'ABC-0') AS sku",
    "coalesce(element_at(array('S', 'M', 'L'), CAST(id % 3 AS INT) + 1), 'S') AS size",
    "coalesce(concat('n', CAST(id % 7 AS STRING)), 'n') AS note",
]


def session() -> SparkSession:
    builder = SparkSession.builder.master("local[2]").appName("pydantable-spark-bench")
    for key, value in EMBEDDED_CONFIG.items():
        builder = builder.config(key, value)
    return builder.config("spark.ui.showConsoleProgress", "false").getOrCreate()


def median_seconds(fn: Callable[[], Any], runs: int) -> float:
    fn()  # warm up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def pandera_case(sdf: Any) -> Callable[[], Any] | None:
    os.environ.setdefault("PANDERA_VALIDATION_DEPTH", "SCHEMA_AND_DATA")
    try:
        import pandera.pyspark as pa
        from pyspark.sql import types as st
    except ImportError:
        return None

    schema = pa.DataFrameSchema(
        {
            "id": pa.Column(st.LongType(), pa.Check.ge(0)),
            "qty": pa.Column(st.LongType(), [pa.Check.ge(0), pa.Check.le(1000)]),
            "price": pa.Column(st.DoubleType(), pa.Check.gt(0)),
            "discount": pa.Column(st.DoubleType(), [pa.Check.ge(0), pa.Check.le(1)]),
            "sku": pa.Column(
                st.StringType(), [pa.Check.str_matches(r"^[A-Z]{3}-[0-9]+$"), pa.Check.str_length(max_value=16)]
            ),
            "size": pa.Column(st.StringType(), pa.Check.isin(["S", "M", "L"])),
            "note": pa.Column(st.StringType(), pa.Check.str_length(min_value=1)),
        }
    )

    def run() -> None:
        checked = schema.validate(check_obj=sdf)
        errors = checked.pandera.errors
        if errors:
            raise AssertionError(errors)

    return run


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    spark = session()
    sdf = spark.range(args.rows).selectExpr(*COLUMNS).to(Order.spark_schema()).cache()
    sdf.count()
    frame = Order.from_spark(sdf)
    assert len(Order.spark_constraints().checked) == 12, Order.spark_constraints()
    report = frame.validate()
    assert report.ok, str(report)
    assert report.rows == args.rows
    out = tempfile.mkdtemp(prefix="pydantable-bench-")

    def write(mode: Literal["raise", "report", "skip"]) -> Callable[[], Any]:
        def run() -> None:
            frame.write_parquet(os.path.join(out, mode), mode="overwrite", constraints=mode)

        return run

    cases: list[tuple[str, Callable[[], Any]]] = [
        ("count()", frame.count),
        ("full scan (noop write of every column)", lambda: sdf.write.format("noop").mode("overwrite").save()),
        ("validate() (12 constraints, one job)", frame.validate),
    ]
    pandera = pandera_case(sdf)
    if pandera is not None:
        cases.append(("pandera PySpark validate (same checks)", pandera))
    cases += [
        ('write_parquet(constraints="skip")', write("skip")),
        ('write_parquet(constraints="raise")', write("raise")),
        ('write_parquet(constraints="report")', write("report")),
    ]
    try:
        results = [(name, median_seconds(fn, args.runs)) for name, fn in cases]
    finally:
        shutil.rmtree(out, ignore_errors=True)
    base = results[0][1]
    skip = dict(results)['write_parquet(constraints="skip")']
    print(f"Spark {spark.version}, {args.rows:,} rows (cached), medians of {args.runs} runs\n")
    print("| case | median | vs count() | vs unchecked write |")
    print("|---|---|---|---|")
    for name, seconds in results:
        vs_write = f"{seconds / skip:.2f}" if name.startswith("write_") else ""
        print(f"| {name} | {seconds:.2f} s | {seconds / base:.2f} | {vs_write} |")


if __name__ == "__main__":
    main()
