"""Streaming benchmark: Kafka JSON → filter → watermarked windowed aggregate → Delta, typed against plain PySpark.

A local Kafka broker (``pydantable_spark.testing.kafka.LocalKafka``) holds
``--rows`` JSON records of clicks in one topic of 2 partitions, written once by
PySpark's batch Kafka writer. Each run reads the whole topic with an
``available_now`` trigger (micro-batches of ``--per-trigger`` offsets) into a
new Delta table, and is timed from the query's start to its end; the cases run
in turn, ``--runs`` times, and the medians are reported as rows per second and
as ratios to plain PySpark's. Cases:

* plain PySpark: ``readStream.format("kafka")``, ``from_json`` of the value,
  ``filter``, ``withWatermark``, ``groupBy(window, page)``, ``writeStream`` to Delta;
* the façade: the same query on ``Click.read_stream_kafka`` (FAILFAST parsing,
  the model's NULL checks), ``write_stream_delta``;
* the parse and filter only, appended to Delta: plain PySpark, the façade with
  the model's value constraint checked per micro-batch (``constraints="raise"``),
  counted (``"report"``) and not checked (``"skip"``).

Needs Delta Lake and Spark's Kafka connector for the running PySpark (the
lakehouse venv of ``.ci/beside`` with PySpark 4.1: ``.ci/kafka/connector/pom.xml``
with ``-Dspark.kafka.version=4.1.1``, ``.ci/lakehouse/pom.xml``) and the broker's
jars. Run::

    python benchmarks/stream_kafka_delta.py --lakehouse-jars DIR --kafka-jars DIR [--rows 1000000] [--runs 5]

where ``--kafka-jars`` holds ``connector/`` and ``broker/``.
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import Field

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pydantable_spark import DataFrameModel, F
from pydantable_spark.testing.kafka import LocalKafka

if TYPE_CHECKING:
    from collections.abc import Callable

    from pyspark.sql import SparkSession

SCHEMA = "id BIGINT, page STRING, ms BIGINT, at TIMESTAMP"


class Click(DataFrameModel):
    id: int
    page: str
    ms: int | None = Field(default=None, ge=0)
    at: datetime.datetime


def session(lakehouse_jars: Path, kafka_jars: Path) -> SparkSession:
    from pyspark.sql import SparkSession

    jars = sorted(map(str, lakehouse_jars.glob("*.jar"))) + sorted(map(str, (kafka_jars / "connector").glob("*.jar")))
    return (
        SparkSession.builder.master("local[2]")
        .appName("pydantable-spark-bench-stream")
        .config("spark.jars", ",".join(jars))
        .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
        .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )


def produce(spark: SparkSession, broker: LocalKafka, topic: str, rows: int) -> None:
    """``rows`` clicks as JSON, in event-time order (one a second), into ``topic`` (2 partitions)."""
    from pyspark.sql import functions as sf

    clicks = spark.range(rows).select(
        sf.col("id").cast("string").alias("key"),
        sf.to_json(
            sf.struct(
                "id",
                sf.concat(sf.lit("/p"), (sf.col("id") % 7).cast("string")).alias("page"),
                sf.when(sf.col("id") % 11 == 0, sf.lit(None)).otherwise(sf.col("id") % 1000).alias("ms"),
                sf.timestamp_seconds(sf.lit(1_767_225_600) + sf.col("id")).alias("at"),
            )
        ).alias("value"),
    )
    clicks.write.format("kafka").option("kafka.bootstrap.servers", broker.bootstrap_servers).option(
        "topic", topic
    ).save()


def plain_source(spark: SparkSession, servers: str, topic: str, per_trigger: int) -> Any:
    from pyspark.sql import functions as sf

    raw = (
        spark.readStream.format("kafka")
        .option("kafka.bootstrap.servers", servers)
        .option("subscribe", topic)
        .option("startingOffsets", "earliest")
        .option("maxOffsetsPerTrigger", per_trigger)
        .load()
    )
    return raw.select(sf.from_json(sf.col("value").cast("string"), SCHEMA).alias("v")).select("v.*")


def cases(spark: SparkSession, servers: str, topic: str, per_trigger: int) -> dict[str, Callable[[Path], Any]]:
    """Each case starts its query writing to a new Delta table under the given directory."""
    from pyspark.sql import functions as sf

    def typed() -> Any:
        return Click.read_stream_kafka(
            servers, topic=topic, starting_offsets="earliest", max_offsets_per_trigger=per_trigger
        )

    def plain_window(out: Path) -> Any:
        return (
            plain_source(spark, servers, topic, per_trigger)
            .filter(sf.col("ms") > 100)
            .withWatermark("at", "5 minutes")
            .groupBy(sf.window("at", "10 minutes"), "page")
            .agg(sf.count(sf.lit(1)).alias("n"), sf.max("ms").alias("slowest"))
            .writeStream.format("delta").trigger(availableNow=True)
            .option("checkpointLocation", str(out / "cp")).start(str(out / "table"))
        )  # fmt: skip

    def typed_window(out: Path) -> Any:
        return (
            typed()
            .filter(Click.ms > 100)
            .with_watermark(Click.at, "5 minutes")
            .group_by(F.window(Click.at, "10 minutes"), "page")
            .agg(n=F.count(), slowest=F.max(Click.ms))
            .write_stream_delta(out / "table", checkpoint=out / "cp", available_now=True)
        )

    def plain_append(out: Path) -> Any:
        return (
            plain_source(spark, servers, topic, per_trigger).filter(sf.col("ms") > 100)
            .writeStream.format("delta").trigger(availableNow=True)
            .option("checkpointLocation", str(out / "cp")).start(str(out / "table"))
        )  # fmt: skip

    def typed_append(constraints: Any) -> Callable[[Path], Any]:
        def start(out: Path) -> Any:
            return (
                typed()
                .filter(Click.ms > 100)
                .write_stream_delta(out / "table", checkpoint=out / "cp", available_now=True, constraints=constraints)
            )

        return start

    return {
        "windowed aggregate, plain PySpark": plain_window,
        "windowed aggregate, façade": typed_window,
        "parse + filter, plain PySpark": plain_append,
        'parse + filter, façade constraints="raise"': typed_append("raise"),
        'parse + filter, façade constraints="report"': typed_append("report"),
        'parse + filter, façade constraints="skip"': typed_append("skip"),
    }


def run(start: Callable[[Path], Any], root: Path) -> float:
    out = Path(tempfile.mkdtemp(dir=root))
    began = time.perf_counter()
    query = start(out)
    if hasattr(query, "await_termination"):
        query.await_termination()
    else:
        query.awaitTermination()
        if query.exception() is not None:
            raise RuntimeError(str(query.exception()))
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lakehouse-jars", type=Path, required=True)
    parser.add_argument("--kafka-jars", type=Path, required=True)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--per-trigger", type=int, default=250_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    spark = session(args.lakehouse_jars, args.kafka_jars)
    root = Path(tempfile.mkdtemp(prefix="bench-stream-"))
    with LocalKafka(args.kafka_jars / "broker", heap="1g") as broker:
        produce(spark, broker, "clicks", args.rows)
        chosen = cases(spark, broker.bootstrap_servers, "clicks", args.per_trigger)
        for start in chosen.values():  # warm-up: classes loaded, the topic's metadata known
            run(start, root)
        times: dict[str, list[float]] = {name: [] for name in chosen}
        for _ in range(args.runs):
            for name, start in chosen.items():
                times[name].append(run(start, root))
    medians = {name: statistics.median(seconds) for name, seconds in times.items()}
    print(f"{args.rows:,} records, {args.per_trigger:,} per micro-batch, medians of {args.runs} runs")
    print("| case | seconds | rows/s | vs plain |")
    print("|---|---:|---:|---:|")
    for name, seconds in medians.items():
        plain = medians[
            "windowed aggregate, plain PySpark" if name.startswith("windowed") else "parse + filter, plain PySpark"
        ]
        print(f"| {name} | {seconds:.2f} | {args.rows / seconds:,.0f} | {seconds / plain:.3f} |")


if __name__ == "__main__":
    main()
