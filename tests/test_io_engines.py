"""``read_parquet`` on both engines over the same files: one set of rules, the same rows and the same errors.

Under ``use_engine("local")`` a frame of local Parquet files is read by pyarrow (``substrait.files``) and
reconciled by the code a Spark read uses (``storage.local_source``). Each case below reads the same files
with the same model on Spark and locally and compares what comes out: the schema Spark gives the files
(the reconciled source's input), the frame's schema and its rows, or the error's class and message. The
files are the hostile ones of ``test_io.py`` (written as that module writes them) and files whose Parquet
types pyarrow reads otherwise than Spark (unsigned integers, INT96, dictionaries, durations, nanoseconds,
legacy lists...), plus the partition directories Spark types by their values.
"""

from __future__ import annotations

import datetime
import decimal
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from pydantic import Field
from test_io import (
    _ZERO_ROWS,
    OLD_EVENTS,
    PEOPLE,
    EventCased,
    EventMisspelt,
    EventRequired,
    EventV1,
    EventV2,
    Keyed,
    Loose,
    LoosePerson,
    Person,
    Priced,
    Sale,
    _people,
    _Zeros,
)

from pydantable_spark import DataFrameModel
from pydantable_spark.engines import recording, use_engine
from pydantable_spark.errors import PydantableSparkError, UnsupportedEngineError
from pydantable_spark.plan import nodes as p

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from pyspark.sql import SparkSession

    from pydantable_spark.frame import DataFrame


class Narrow(DataFrameModel):
    n: int
    x: int


class Wrong(DataFrameModel):
    id: str
    nickname: str | None


class Named(DataFrameModel):
    id: int
    name: str


class MaybeNamed(DataFrameModel):
    id: int
    name: str | None


class Big(DataFrameModel):
    n: int


class Approx(DataFrameModel):
    n: float


class Part(DataFrameModel):
    id: int
    key: str | None


class Kinds(DataFrameModel):
    """Every column pyarrow reads otherwise than Spark, taken as a wider model type."""

    u8: int | None
    u16: int | None
    u32: int | None
    u64: decimal.Decimal | None
    d: str | None
    s: str | None
    b: bytes | None
    t: int | None
    day: datetime.date | None
    f: bytes | None
    i8: int | None
    at: datetime.datetime | None
    local: datetime.datetime | None
    old: datetime.datetime | None
    l: list[int | None] | None  # noqa: E741
    fl: list[int | None] | None
    m: dict[str, float | None] | None
    dec: Annotated[decimal.Decimal, Field(max_digits=9, decimal_places=1)] | None


class One(DataFrameModel):
    x: int | None


class Cased(DataFrameModel):
    name: str | None


class Inner(DataFrameModel):
    a: int | None


class Nest(DataFrameModel):
    s: Inner | None


class Dec(DataFrameModel):
    x: Annotated[decimal.Decimal, Field(max_digits=7, decimal_places=1)] | None


class Ints(DataFrameModel):
    v: int
    k: int | None


class Floats(DataFrameModel):
    v: int
    k: float | None


class Texts(DataFrameModel):
    v: int
    k: str | None


class Stamp(DataFrameModel):
    at: datetime.datetime
    local: datetime.datetime | None


class Days(DataFrameModel):
    v: int
    k: datetime.date | None


@dataclass(frozen=True)
class Case:
    """A read of ``paths`` (relative to the files' directory) with ``model``; ``exact``: compare messages whole."""

    name: str
    model: Any
    paths: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    exact: bool = True


def _write(root: Path, name: str, table: pa.Table, file: str = "part-0.parquet", **options: Any) -> None:
    (root / name).mkdir(parents=True, exist_ok=True)
    pq.write_table(table, root / name / file, **options)


def _typed_files(root: Path) -> None:
    """Files whose Parquet types pyarrow would read otherwise than Spark (each checked against Spark below)."""
    paris = pa.timestamp("ms", tz="Europe/Paris")
    kinds = pa.table(
        {
            "u8": pa.array([255, None], pa.uint8()),
            "u16": pa.array([65535, 1], pa.uint16()),
            "u32": pa.array([2**32 - 1, 2], pa.uint32()),
            "u64": pa.array([2**64 - 1, 3], pa.uint64()),
            "d": pa.array(["a", None]).dictionary_encode(),
            "s": pa.array(["x", "y"], pa.large_string()),
            "b": pa.array([b"y", None], pa.large_binary()),
            "t": pa.array([5, None], pa.duration("ms")),
            "day": pa.array([86_400_000, None], pa.date64()),
            "f": pa.array([b"ab", b"cd"], pa.binary(2)),
            "i8": pa.array([-128, 1], pa.int8()),
            "at": pa.array([1, None], paris),
            "local": pa.array([1_700_000_000_123, 0], pa.timestamp("ms")),
            "old": pa.array([datetime.datetime(1500, 1, 1, 0, 0, 0, 123456), None], pa.timestamp("us")),
            "l": pa.array([[1, None], None], pa.list_(pa.int32())),
            "fl": pa.array([[1, 2], [3, 4]], pa.list_(pa.int64(), 2)),
            "m": pa.array([[("k", 1.5), ("j", None)], None], pa.map_(pa.large_string(), pa.float64())),
            "dec": pa.array([decimal.Decimal("1.5"), None], pa.decimal128(9, 1)),
        }
    )
    _write(root, "kinds", kinds.drop_columns(["old"]), use_compliant_nested_type=False)
    _write(root, "kinds", kinds.select(["old"]), "part-1.parquet", use_deprecated_int96_timestamps=True)
    refused = {
        "nanos": pa.array([1], pa.timestamp("ns", tz="UTC")),
        "time": pa.array([1000], pa.time64("us")),
        "wide": pa.array([decimal.Decimal("1.5")], pa.decimal256(40, 1)),
        "uuid": pa.array([b"0123456789abcdef"], pa.uuid()),
    }
    for name, column in refused.items():
        _write(root, name, pa.table({"x": column}))
    _write(root, "twins", pa.table({"a": [1], "A": [2]}))
    _write(root, "intkeys", pa.table({"x": [1], "m": pa.array([[(1, "a")]], pa.map_(pa.int32(), pa.string()))}))
    _write(root, "case/a", pa.table({"Name": ["x"]}))
    _write(root, "case/b", pa.table({"name": ["y"]}))
    _write(root, "nest/a", pa.table({"s": [{"A": 1}]}))
    _write(root, "nest/b", pa.table({"s": [{"a": 2}]}))
    _write(root, "decs/a", pa.table({"x": pa.array([decimal.Decimal("1.5")], pa.decimal128(5, 1))}))
    _write(root, "decs/b", pa.table({"x": pa.array([decimal.Decimal("2.5")], pa.decimal128(7, 1))}))
    _write(root, "decs/c", pa.table({"x": pa.array([decimal.Decimal("2.55")], pa.decimal128(7, 2))}))
    schema = pa.schema([pa.field("id", pa.int64(), False), pa.field("n", pa.string())])
    _write(root, "clash/a", pa.table({"id": [1], "n": ["x"]}, schema=schema))
    _write(root, "clash/b", pa.table({"id": [2], "n": [5]}))
    _write(root, "hidden", pa.table({"x": [1]}))
    _write(root, "hidden", pa.table({"x": ["skipped"]}), "_ignored.parquet")
    _write(root, "hidden", pa.table({"x": ["skipped"]}), ".ignored.parquet")
    (root / "hidden" / "_SUCCESS").write_text("")
    (root / "empty").mkdir()


_PARTITIONS = {
    "ints": ["k=1", "k=-2", "k=+3"],
    "floats": ["k=1.5", "k=2", "k=-0.0"],
    "days": ["k=2024-01-02", "k=2024-02-29"],
    "texts": ["k=pen", "k=ink", "k=a%3Ab", "k=v1"],
    "mixed": ["k=007", "k=a", "k=2024-01-02"],
    "nulls": ["k=__HIVE_DEFAULT_PARTITION__", "k=3"],
    "onlynull": ["k=__HIVE_DEFAULT_PARTITION__"],
    "mixedfloat": ["k=1", "k=1.5", "k=3000000000"],
    "twolevels": ["k=1/j=a", "k=2/j=b"],
}


def _partition_files(root: Path) -> None:
    for name, directories in _PARTITIONS.items():
        for v, directory in enumerate(directories):
            _write(root, f"parts/{name}/{directory}", pa.table({"v": [v]}))


def _local_write(frame: DataFrame[Any], path: Path) -> None:
    """A frame's rows written by pyarrow (the frames whose files need not come from Spark's writer)."""
    path.mkdir(parents=True)
    pq.write_table(frame.to_arrow(engine="local"), path / "part-0.parquet")


def _spark_files(root: Path, spark: SparkSession) -> None:
    """The files of ``test_io.py``'s Parquet tests, written as that module writes them (Spark's writer where
    the files' form matters: nested columns, partition directories, INT96 timestamps, appends)."""
    _people().write_parquet(root / "people")
    _local_write(LoosePerson.from_rows([{**PEOPLE[0], "name": None}, PEOPLE[1]]), root / "nulls")
    changes = [{"address": {"city": None, "zip": None}}, {"tags": ["a", None]}]
    for i, change in enumerate(changes):
        _local_write(LoosePerson.from_rows([{**PEOPLE[0], **change}]), root / f"nested{i}")
    pq.write_table(pa.table({"n": pa.array([1], pa.int32()), "x": [2.75]}), root / "w.parquet")
    sales = [
        Sale(id=1, item="pen", price=1.0, day=datetime.date(2024, 1, 1)),
        Sale(id=2, item="ink", price=None, day=datetime.date(2024, 1, 2)),
    ]
    Sale.from_rows(sales).write_parquet(root / "sales", partition_by="item")
    spark.createDataFrame([(5, 1), (6, 2)], "k bigint, v bigint").write.parquet(str(root / "t" / "k=1"))
    _local_write(Loose.from_rows([{"v": 3}]), root / "u" / "k=2")
    pq.write_table(pa.table({"ITEM": ["a"], "price": pa.array([None], pa.decimal128(10, 2))}), root / "upper.parquet")
    _write(root, "d/a", pa.table({"id": [1], "name": ["a"]}))
    _write(root, "d/b", pa.table({"id": [2]}))
    _write(root, "d/c", pa.table({"id": [3], "name": [5]}))
    _local_write(Big.from_rows([{"n": 2**53 + 1}]), root / "big")
    Part.from_rows([{"id": 1, "key": "a"}, {"id": 2, "key": None}]).write_parquet(root / "keys", partition_by="key")
    _local_write(_Zeros.from_rows([_ZERO_ROWS[0] | {"unit price": -0.0}, _ZERO_ROWS[1]]), root / "zeros")
    _local_write(EventV1.from_rows(OLD_EVENTS), root / "events")
    _local_write(EventCased.from_rows([{**e, "Channel": "web"} for e in OLD_EVENTS]), root / "cased")
    EventV1.from_rows(OLD_EVENTS).write_parquet(root / "grown")
    EventV2.from_rows([{"id": 3, "note": "c", "channel": "web"}]).write_parquet(
        root / "grown", mode="append", mergeSchema=True
    )
    moment = datetime.datetime(2024, 3, 1, 12, 30, 0, 5, tzinfo=datetime.timezone.utc)
    Stamp.from_rows([{"at": moment, "local": None}]).write_parquet(root / "stamps")


CASES = [
    Case("round trip", Person, ("people",)),
    Case("wrong type and missing column", Wrong, ("people",)),
    Case("lossy", Narrow, ("w.parquet",)),
    Case("null in a non-null column", Person, ("nulls",)),
    *(Case(f"nested null {i}", Person, (f"nested{i}",)) for i in range(2)),
    Case("partitioned write", Sale, ("sales",)),
    Case("partition column in the files", Keyed, ("t",)),
    Case("partition column, recursive lookup", Keyed, ("t",), {"recursiveFileLookup": True}),
    Case("partition column only in directories", Keyed, ("u",)),
    Case("name in another case", Priced, ("upper.parquet",)),
    Case("a file lacks a non-null column", Named, ("d/a", "d/b")),
    Case("a file lacks an Optional column", MaybeNamed, ("d/a", "d/b")),
    Case("files disagree on a type", MaybeNamed, ("d/a", "d/c")),
    Case("bigint to double", Approx, ("big",)),
    Case("NULL partition value", Part, ("keys",)),
    Case("negative zero", _Zeros, ("zeros",)),
    Case("field added with default None", EventV2, ("events",)),
    Case("field added without a default", EventRequired, ("events",)),
    Case("column in another case, default None", EventV2, ("cased",)),
    Case("column in another case, required", EventRequired, ("cased",)),
    Case("directory partly covered by a field", EventRequired, ("grown",)),
    Case("misspelt field near an unread column", EventMisspelt, ("grown",)),
    Case("misspelt field declared absent", EventMisspelt, ("grown",), {"absent": ["chanel"]}),
    Case("timestamps written by Spark", Stamp, ("stamps",)),
    Case("types pyarrow reads otherwise", Kinds, ("kinds",), {"allow_lossy": ["local"]}),
    *(Case(f"refused type {n}", One, (n,), exact=False) for n in ("nanos", "time", "wide", "uuid")),
    Case("columns differing in case", One, ("twins",), exact=False),
    Case("map keys that are not strings", One, ("intkeys",)),
    Case("case-differing names merge", Cased, ("case/a", "case/b")),
    Case("case-differing nested names merge", Nest, ("nest/a", "nest/b")),
    Case("decimals of one scale merge", Dec, ("decs/a", "decs/b")),
    Case("decimals of two scales do not", Dec, ("decs/a", "decs/c")),
    Case("non-null file against a nullable one", One, ("clash/a", "clash/b")),
    Case("hidden files are skipped", One, ("hidden",)),
    Case("no file", One, ("empty",), exact=False),
    Case("no such path", One, ("nowhere",), exact=False),
    Case("int partitions", Ints, ("parts/ints",)),
    Case("double partitions", Floats, ("parts/floats",)),
    Case("date partitions", Days, ("parts/days",)),
    Case("text partitions", Texts, ("parts/texts",)),
    Case("mixed partitions become text", Texts, ("parts/mixed",)),
    Case("NULL and int partitions", Ints, ("parts/nulls",)),
    Case("NULL partitions only", Texts, ("parts/onlynull",)),
    Case("int, double and bigint partitions", Texts, ("parts/mixedfloat",)),
    Case("two partition levels", Ints, ("parts/twolevels",)),
]

_CODE = re.compile(r"\[([A-Z_]+)\]")


def _source_schema(frame: DataFrame[Any]) -> object:
    """The schema the read gives the files (the reconciled source's input), nullability included."""
    node = next(n for n in frame.plan.walk() if isinstance(n, p.Source))
    return node.schema


def _outcome(engine: str, read: Callable[[], DataFrame[Any]]) -> tuple[Any, ...]:
    """What a read gives on ``engine``: its schemas and rows (sorted), or its error's class and message."""
    with use_engine(engine):  # type: ignore[arg-type]
        try:
            frame = read()
            rows = frame.to_arrow().to_pylist()
        except PydantableSparkError as error:
            return ("error", type(error).__name__, str(error))
    return ("rows", _source_schema(frame), frame.schema, sorted(map(repr, rows)))


def _same_error(spark: tuple[Any, ...], local: tuple[Any, ...], exact: bool) -> bool:
    if exact:
        return spark == local
    return spark[:2] == local[:2] and _CODE.findall(spark[2])[:1] == _CODE.findall(local[2])[:1]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory, spark: SparkSession) -> Path:
    root = tmp_path_factory.mktemp("engines")
    _spark_files(root, spark)
    _typed_files(root)
    _partition_files(root)
    return root


def test_every_case_reads_alike_on_spark_and_locally(files: Path) -> None:
    """One test, many reads: a difference is listed with the case's name rather than stopping at the first."""
    differences = []
    for case in CASES:
        paths = [str(files / path) for path in case.paths]
        options = dict(case.options)

        def read(case: Case = case, paths: list[str] = paths, options: dict[str, Any] = options) -> Any:
            return case.model.read_parquet(paths if len(paths) > 1 else paths[0], **options)

        on_spark, locally = _outcome("spark", read), _outcome("local", read)
        same = on_spark[0] == locally[0] == "error" and _same_error(on_spark, locally, case.exact)
        if not same and on_spark != locally:
            differences.append(f"{case.name}:\n  spark: {on_spark}\n  local: {locally}")
    assert not differences, "\n".join(differences)


def test_the_cases_cover_rows_and_errors(files: Path) -> None:
    """The comparison means something: some reads give rows, others errors, on Spark itself."""
    kinds = {
        case.name: _outcome("spark", lambda c=case: c.model.read_parquet(str(files / c.paths[0]), **c.options))[0]
        for case in CASES
        if case.name in _SAMPLE
    }
    assert kinds == _SAMPLE


_SAMPLE = {
    "round trip": "rows",
    "wrong type and missing column": "error",
    "refused type nanos": "error",
    "types pyarrow reads otherwise": "rows",
    "mixed partitions become text": "rows",
    "misspelt field near an unread column": "error",
    "misspelt field declared absent": "rows",
}


def test_what_the_local_read_does_not_take_is_refused_locally_and_read_by_spark_under_auto(
    files: Path, spark: SparkSession
) -> None:
    (files / "csv").mkdir(exist_ok=True)
    (files / "csv" / "a.csv").write_text("x\n1\n")
    reads: dict[str, Callable[[], DataFrame[Any]]] = {
        "a glob": lambda: One.read_parquet(str(files / "hid*")),
        "another option": lambda: One.read_parquet(files / "hidden", pathGlobFilter="*.parquet"),
        "a directory that is no partition": lambda: One.read_parquet(files / "case"),
        "a column of NULLs only": lambda: One.read_parquet(files / "nullonly"),
        "a partition value of unsure type": lambda: One.read_parquet(files / "odd"),
        "CSV": lambda: One.read_csv(files / "csv"),
        "constraints='raise'": lambda: One.read_parquet(files / "hidden", constraints="raise"),
    }
    _write(files, "nullonly", pa.table({"x": pa.array([None], pa.null())}))
    _write(files, "odd/k=2024Q1", pa.table({"x": [1]}))
    said = {}
    for name, read in reads.items():
        with use_engine("local"), pytest.raises(UnsupportedEngineError) as refused:
            read()
        said[name] = str(refused.value)
        with recording() as fallbacks:
            assert _outcome("auto", read) == _outcome("spark", read), name  # auto reads it on Spark
        assert [f.reason for f in fallbacks][:1] == [said[name]], name
    assert "the local engine reads Parquet files only; CSV and JSON are parsed by Spark's own readers" in said["CSV"]
    spark.conf.set("spark.sql.parquet.binaryAsString", "true")
    try:
        with use_engine("local"), pytest.raises(UnsupportedEngineError, match="sets spark.sql.parquet.binaryAsString"):
            One.read_parquet(files / "hidden")
    finally:
        spark.conf.unset("spark.sql.parquet.binaryAsString")
    assert "does not expand glob patterns" in said["a glob"]
    assert "'pathGlobFilter'" in said["another option"]
    assert "k=2024Q1" in said["a partition value of unsure type"]


@pytest.mark.jvm_free
def test_a_module_on_the_local_engine_reads_parquet_files_with_no_jvm(tmp_path: Path) -> None:
    """The pytest plugin's engine, a local Parquet directory, a typed pipeline: no pyspark, no py4j, no JVM."""
    pq.write_table(pa.table({"id": [2, 1, 3], "name": ["b", "a", None]}), tmp_path / "part-0.parquet")
    (tmp_path / "_SUCCESS").write_text("")
    script = f"""
import sys
from pydantable_spark import DataFrameModel
from pydantable_spark.engines import use_engine
from pydantable_spark.errors import NullCheckError

class User(DataFrameModel):
    id: int
    name: str

class Loose(DataFrameModel):
    id: int
    name: str | None

with use_engine("local"):
    users = Loose.read_parquet({str(tmp_path)!r})
    named = users.drop_nulls().as_model(User).sort("id")
    assert named.collect() == [User(id=1, name="a"), User(id=2, name="b")], named.collect()
    try:
        User.read_parquet({str(tmp_path)!r}).collect()
    except NullCheckError as error:
        assert error.column == "name"
    else:
        raise AssertionError("no NULL check")
print(sorted(m for m in sys.modules if m.split(".")[0] in ("pyspark", "py4j")))
"""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([os.getcwd(), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
