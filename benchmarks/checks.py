"""Dataset-level checks benchmark: ``validate()`` of a model's ``Check``s against the same checks in plain PySpark.

One frame of ``--rows`` rows per size (generated in Spark, cached) and a
reference frame of ``--keys`` keys; each case is a model with one kind of
check, so a row of the table is that kind's cost, measured twice in the same
run: ``validate()`` (counts and examples of every check, in the one action it
runs) and the same check written by hand in PySpark (its count in one action:
a grouping for keys, a left-anti join for the reference, one aggregation for
the row and aggregate checks). The data holds no violation, as a pipeline's
usually does, so neither side fetches examples. Medians of ``--runs`` runs;
the per-row cost of each kind (its time divided by the rows) should stay flat
from 1e6 to 1e7 rows if it scales linearly.

* unique over 1 column (``Check.unique(cls.id)``);
* unique over 5 columns (a composite key);
* a reference of 1e6 keys (``Check.references(cls.customer, Customer.id)``);
* 10 row checks (``Check.row``), in the constraint aggregate;
* 5 aggregate expectations (``Check.agg``: min, max, mean, sum, a NULL share).

Run: ``python benchmarks/checks.py [--sizes 1000000 10000000] [--keys 1000000] [--runs 3]``.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from constraints import median_seconds, session  # the constraint benchmark's session and timing (same folder)
from pyspark.sql import functions as sf

from pydantable_spark import Check, DataFrameModel, F

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence


class Customer(DataFrameModel):
    id: int


class Line(DataFrameModel):
    id: int
    customer: int
    a: int
    b: int
    c: int
    d: int
    price: float
    note: str | None


class UniqueOne(Line):
    @classmethod
    def checks(cls) -> Sequence[Check]:
        return [Check.unique(cls.id, name="id_unique")]


class UniqueFive(Line):
    @classmethod
    def checks(cls) -> Sequence[Check]:
        return [Check.unique(cls.customer, cls.a, cls.b, cls.c, cls.d, name="five_unique")]


class Referencing(Line):
    @classmethod
    def checks(cls) -> Sequence[Check]:
        return [Check.references(cls.customer, Customer.id, name="known_customer")]


class RowChecked(Line):
    @classmethod
    def checks(cls) -> Sequence[Check]:
        return [
            Check.row(cls.id <= 0, name="r0"),
            Check.row(cls.customer >= 0, name="r1"),
            Check.row(cls.a <= cls.b + 1000, name="r2"),
            Check.row(cls.b >= 0, name="r3"),
            Check.row(cls.c < 1_000_000_000, name="r4"),
            Check.row(cls.d != -1, name="r5"),
            Check.row(cls.price > 0, name="r6"),
            Check.row(cls.price < 1e9, name="r7"),
            Check.row(cls.note.is_null() | (F.length(cls.note) > 0), name="r8"),
            Check.row((cls.a + cls.b) >= cls.a, name="r9"),
        ]


class AggChecked(Line):
    @classmethod
    def checks(cls) -> Sequence[Check]:
        return [
            Check.agg(F.min(cls.price) > 0, name="a0"),
            Check.agg(F.max(cls.a) < 1_000_000_000, name="a1"),
            Check.agg(F.mean(cls.price) < 1e6, name="a2"),
            Check.agg(F.sum(cls.b) >= 0, name="a3"),
            Check.agg(F.count(cls.note) >= F.count() / 2, name="a4"),
        ]


def columns(keys: int) -> list[str]:
    """The generated columns: distinct ids and 5-column keys, every customer among the first ``keys`` ids."""
    return [  # id negated: a range's own id is known distinct to Spark, which would then skip the grouping
        "coalesce(-id, 0) AS id",
        f"coalesce(id % {keys}, 0) AS customer",
        "coalesce(id % 1000, 0) AS a",
        "coalesce(id % 999, 0) AS b",
        "coalesce(id % 998, 0) AS c",
        "coalesce(id DIV 1000, 0) AS d",
        "coalesce(CAST(id % 997 AS DOUBLE) + 0.5, 1.0D) AS price",
        "CASE WHEN id % 10 = 0 THEN NULL ELSE concat('n', CAST(id % 7 AS STRING)) END AS note",
    ]


def plain_cases(sdf: Any, keys: Any) -> dict[str, Callable[[], Any]]:
    """The same checks hand-written in PySpark, each one action giving the violation count."""

    def duplicates(*names: str) -> Callable[[], Any]:
        cols = [sf.col(n) for n in names]
        nonnull = sdf.where(" AND ".join(f"{n} IS NOT NULL" for n in names))
        return lambda: nonnull.groupBy(*cols).count().where("count > 1").agg(sf.sum("count")).collect()

    rows = [
        "count_if(NOT coalesce(id <= 0, FALSE))",
        "count_if(NOT coalesce(customer >= 0, FALSE))",
        "count_if(NOT coalesce(a <= b + 1000, FALSE))",
        "count_if(NOT coalesce(b >= 0, FALSE))",
        "count_if(NOT coalesce(c < 1000000000, FALSE))",
        "count_if(NOT coalesce(d != -1, FALSE))",
        "count_if(NOT coalesce(price > 0, FALSE))",
        "count_if(NOT coalesce(price < 1e9, FALSE))",
        "count_if(NOT coalesce(note IS NULL OR length(note) > 0, FALSE))",
        "count_if(NOT coalesce(a + b >= a, FALSE))",
    ]
    aggs = [
        "min(price) > 0",
        "max(a) < 1000000000",
        "avg(price) < 1e6",
        "sum(b) >= 0",
        "count(note) >= count(1) / 2",
    ]
    return {
        "unique, 1 column": duplicates("id"),
        "unique, 5 columns": duplicates("customer", "a", "b", "c", "d"),
        "references, 1e6 keys": lambda: (
            sdf.where("customer IS NOT NULL").join(keys, sdf.customer == keys.id, "left_anti").count()
        ),
        "10 row checks": lambda: sdf.selectExpr(*rows).collect(),
        "5 aggregate checks": lambda: sdf.selectExpr(*aggs).collect(),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000_000, 10_000_000])
    parser.add_argument("--keys", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    spark = session()
    keys_sdf = spark.range(args.keys).to(Customer.spark_schema()).cache()
    keys_sdf.count()
    customers = Customer.from_spark(keys_sdf)
    print(f"Spark {spark.version}, {args.keys:,} reference keys, medians of {args.runs} runs\n")
    print("| check | rows | validate() | plain PySpark | ratio | validate() ns/row |")
    print("|---|---|---|---|---|---|")
    models: dict[str, type[Line]] = {
        "unique, 1 column": UniqueOne,
        "unique, 5 columns": UniqueFive,
        "references, 1e6 keys": Referencing,
        "10 row checks": RowChecked,
        "5 aggregate checks": AggChecked,
    }
    for size in args.sizes:
        sdf = spark.range(size).selectExpr(*columns(args.keys)).to(Line.spark_schema()).cache()
        sdf.count()
        plain = plain_cases(sdf, keys_sdf)
        for label, model in models.items():
            frame = model.from_spark(sdf)
            given = {Customer: customers} if model is Referencing else None
            report = frame.validate(references=given)
            assert all(check.count == 0 for check in report.checks), str(report)

            def ours(frame: Any = frame, given: Any = given) -> Any:
                return frame.validate(references=given)

            mine, theirs = median_seconds(ours, args.runs), median_seconds(plain[label], args.runs)
            ratio, per_row = mine / theirs, mine / size * 1e9
            print(f"| {label} | {size:,} | {mine:.2f} s | {theirs:.2f} s | {ratio:.2f} | {per_row:.0f} |")
        sdf.unpersist()


if __name__ == "__main__":
    main()
