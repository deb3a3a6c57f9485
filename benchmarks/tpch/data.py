"""TPC-H data as Parquet, generated once per scale factor by ``tpchgen-cli`` (PyPI) into a cache directory."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from benchmarks.tpch.models import TABLES

if TYPE_CHECKING:
    from collections.abc import Iterator

    from pyspark.sql import SparkSession

CACHE = Path(__file__).resolve().parent / ".data"
"""Where ``run.py`` keeps the generated data (``.data/sf0.1``, ...); git ignores it."""


def generator() -> str:
    """The ``tpchgen-cli`` executable: the one installed next to this Python, else the one on ``PATH``."""
    beside = Path(sys.executable).parent / "tpchgen-cli"
    if beside.is_file():
        return str(beside)
    found = shutil.which("tpchgen-cli")
    if found is None:
        msg = "tpchgen-cli is not installed: pip install -e '.[dev]' (or pip install tpchgen-cli)"
        raise FileNotFoundError(msg)
    return found


def generate(sf: float, cache: Path = CACHE) -> Path:
    """The directory of the eight tables at scale factor ``sf`` (``<table>.parquet``), generating them if missing.

    The tables are written to a temporary directory beside the target and
    moved into place when all are written, so an interrupted run leaves no
    partial data set behind.
    """
    if not sf > 0:
        msg = f"the scale factor must be positive, got {sf!r}"
        raise ValueError(msg)
    target = cache / f"sf{sf:g}"
    if all((target / f"{table}.parquet").is_file() for table in TABLES):
        return target
    cache.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".sf{sf:g}-", dir=cache))
    try:
        command = [generator(), "parquet", "--scale-factor", f"{sf:g}", "--output-dir", str(staging), "--quiet"]
        subprocess.run(command, check=True)
        shutil.rmtree(target, ignore_errors=True)
        staging.rename(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


def register_views(spark: SparkSession, data: Path) -> None:
    """A temporary view per table over its Parquet file, named as the table, for Spark SQL's query text."""
    for table in TABLES:
        spark.read.parquet(str(data / f"{table}.parquet")).createOrReplaceTempView(table)


def drop_views(spark: SparkSession) -> None:
    """Drop the views ``register_views`` made."""
    for table in TABLES:
        spark.catalog.dropTempView(table)


@contextmanager
def views(spark: SparkSession, data: Path) -> Iterator[None]:
    """The views of ``register_views`` while the block runs."""
    register_views(spark, data)
    try:
        yield
    finally:
        drop_views(spark)
