"""The local read of Parquet files without a JVM: what it refuses, and Spark's partition typing rules.

How each rule compares with Spark on real files is ``tests/test_io_engines.py``; these are the refusals
and the inference cases that need no Spark to check.
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pydantable_spark import DataFrameModel
from pydantable_spark.engines import use_engine
from pydantable_spark.errors import SparkJobError, UnsupportedEngineError, UnsupportedTypeError
from pydantable_spark.substrait.files import read_parquet
from pydantable_spark.substrait.partitions import discover, unescape

if TYPE_CHECKING:
    from pathlib import Path

pytestmark = pytest.mark.jvm_free


class One(DataFrameModel):
    x: int | None


def _write(path: Path, table: pa.Table) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, path)
    return path


def _read(*paths: Path, **options: str) -> object:
    return read_parquet([str(p) for p in paths], {"mergeSchema": "true", **options}, "read_parquet()")


@pytest.mark.parametrize(
    ("leaves", "expected"),
    [
        ([(("k", "1"),), (("k", "-2"),), (("k", "+3"),)], ("int", [1, -2, 3])),
        ([(("k", "1"),), (("k", "3000000000"),)], ("bigint", [1, 3000000000])),
        ([(("k", "1.5"),), (("k", "2"),)], ("double", [1.5, 2.0])),
        ([(("k", "2024-01-02"),)], ("date", [datetime.date(2024, 1, 2)])),
        ([(("k", "a%3Ab"),), (("k", "v1"),)], ("string", ["a:b", "v1"])),
        ([(("k", "007"),), (("k", "a"),)], ("string", ["007", "a"])),
        ([(("k", "1"),), (("k", "1.5"),), (("k", "3000000000"),)], ("string", ["1", "1.5", "3000000000"])),
        ([(("k", "__HIVE_DEFAULT_PARTITION__"),), (("k", "4"),)], ("int", [None, 4])),
    ],
    ids=["int", "bigint", "double", "date", "text", "number-and-text", "bigint-and-double", "null"],
)
def test_partition_values_are_typed_as_spark_types_them(
    leaves: list[tuple[tuple[str, str], ...]], expected: tuple[str, list[object]]
) -> None:
    found = discover(leaves)
    assert (str(found.fields[0].dtype), [row[0] for row in found.values]) == expected


@pytest.mark.parametrize(
    ("leaves", "message"),
    [
        ([(("k", "2024Q1"),)], "does not type the partition directory k=2024Q1"),
        ([(("k", "1e5"),)], "does not type the partition directory k=1e5"),
        ([(("k", "NaN"),)], "does not type the partition directory k=NaN"),
        ([(("k", "2024-01-02 10%3A00%3A00"),)], "does not type the partition directory k=2024-01-02"),
        ([(("k", ""),)], "does not type the partition directory k="),
        ([(("k", "1"),), (("j", "1"),)], "directories partitioned in different ways"),
        ([(("k", "1"), ("K", "2"))], "partition columns that differ only in case"),
        ([(("_k", "1"),)], "does not take the partition directory name '_k'"),
        ([(("k", "a%+1"),)], r"does not decode the escape %\+1"),
    ],
)
def test_partition_directories_spark_would_type_by_other_rules_are_refused(
    leaves: list[tuple[tuple[str, str], ...]], message: str
) -> None:
    with pytest.raises(UnsupportedEngineError, match=message):
        discover(leaves)


def test_a_partition_column_of_nulls_only_is_sparks_void() -> None:
    with pytest.raises(UnsupportedTypeError, match="column 'k': Spark type void has no mapping"):
        discover([(("k", "__HIVE_DEFAULT_PARTITION__"),)])


def test_unescape_decodes_as_spark_does() -> None:
    assert [unescape(t) for t in ("a%3Ab", "100%", "%2", "%zz", "%41%42")] == ["a:b", "100%", "%2", "%zz", "AB"]


def test_reads_spark_would_make_otherwise_are_refused_naming_why(tmp_path: Path) -> None:
    a = _write(tmp_path / "a" / "part-0.parquet", pa.table({"x": [1]}))
    b = _write(tmp_path / "b" / "part-0.parquet", pa.table({"x": [2], "y": ["new"]}))
    _write(tmp_path / "summary" / "part-0.parquet", pa.table({"x": [1]}))
    (tmp_path / "summary" / "_metadata").write_bytes(b"")
    nested = pa.table({"s": pa.array([{"a": 1, "A": 2}], pa.struct([("a", pa.int64()), ("A", pa.int64())]))})
    _write(tmp_path / "twins" / "part-0.parquet", nested)
    refusals = {
        "mergeSchema=False over files whose schemas differ": lambda: _read(a, b, mergeSchema="false"),
        "takes files on this machine, not 's3a://bucket/x'": lambda: read_parquet(["s3a://bucket/x"], {}, "r"),
        "Parquet summary files": lambda: _read(tmp_path / "summary"),
        "its fields 'A', 'a' differ only in case": lambda: _read(tmp_path / "twins"),
    }
    for message, read in refusals.items():
        with pytest.raises(UnsupportedEngineError, match=message):
            read()
    assert _read(a, b).table.to_pylist() == [{"x": 1, "y": None}, {"x": 2, "y": "new"}]  # merged by default
    assert _read(a, a, mergeSchema="false").table.num_rows == 2  # one schema: nothing for Spark to choose
    assert read_parquet([f"file://{a}"], {}, "r").table.num_rows == 1


@pytest.mark.parametrize(
    "metadata",
    [
        {"org.apache.spark.version": "2.4.8"},
        {"org.apache.spark.version": "3.4.1", "org.apache.spark.legacyDateTime": ""},
    ],
)
def test_dates_spark_would_read_in_the_julian_calendar_are_refused(tmp_path: Path, metadata: dict[str, str]) -> None:
    days = pa.table({"d": [datetime.date(1200, 1, 1)], "x": [1]}).replace_schema_metadata(metadata)
    _write(tmp_path / "old" / "part-0.parquet", days)
    with pytest.raises(
        UnsupportedEngineError, match=r"its dates and timestamps \('d'\) are read by Spark in the Julian"
    ):
        _read(tmp_path / "old")
    _write(tmp_path / "new" / "part-0.parquet", days.replace_schema_metadata({"org.apache.spark.version": "3.1.0"}))
    assert _read(tmp_path / "new").table.column("d").to_pylist() == [datetime.date(1200, 1, 1)]


def test_a_file_pyarrow_cannot_read_is_the_error_a_spark_read_gives(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "notes.txt").write_text("not parquet")
    with pytest.raises(SparkJobError, match=r"read_parquet\(\): Spark could not read .*notes.txt of the source"):
        _read(tmp_path / "d")


def test_map_keys_that_are_not_strings_are_refused_as_a_spark_read_refuses_them(tmp_path: Path) -> None:
    _write(tmp_path / "m" / "part-0.parquet", pa.table({"m": pa.array([[(1, "a")]], pa.map_(pa.int32(), pa.string()))}))
    with pytest.raises(UnsupportedTypeError, match=r"column 'm': map<int, \.\.\.> has no Python mapping"):
        _read(tmp_path / "m")


def test_local_engine_readers_other_than_parquet_say_why_before_any_read(tmp_path: Path) -> None:
    with use_engine("local"), pytest.raises(UnsupportedEngineError, match="the local engine reads Parquet files only"):
        One.read_json(tmp_path / "none.json")
    with use_engine("local"), pytest.raises(UnsupportedEngineError, match=r"read_orc\(.*orc is read by Spark"):
        One.read_orc(tmp_path / "none.orc")
