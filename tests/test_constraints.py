"""Value constraints checked inside Spark: what is translated, and Spark agreeing with Pydantic on both sides.

Every case builds a one-column model, gives Spark a row Pydantic accepts and a
row it refuses (bypassing Pydantic: the rows go to Spark directly), and checks
that ``validate()`` flags exactly the refused one; the writers and readers are
tested with ``constraints=`` on a few of them. Real Spark, never mocked.
"""

from __future__ import annotations

import datetime
import decimal
import enum
import fractions
import math
import os
import re
import threading
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import pydantic
import pydantic_core
import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    StringConstraints,
    create_model,
    field_validator,
    model_validator,
)

from pydantable_spark import DataFrame, DataFrameModel
from pydantable_spark import dtypes as dt
from pydantable_spark._spark.session import is_connect
from pydantable_spark.constraints import WHITESPACE, java_pattern
from pydantable_spark.errors import (
    ConstraintError,
    PydantableSparkError,
    TargetExistsError,
    UnknownColumnError,
    WriteError,
)

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

pytestmark = pytest.mark.spark


class Level(enum.Enum):
    low = 1
    high = 2


class Zip(pydantic.BaseModel):
    code: Annotated[str, Field(pattern=r"^[0-9]{5}$")]


D10_3 = dt.Decimal(10, 3)

# (annotation, good value, bad values): Pydantic accepts the good value and refuses each bad one
CASES: dict[str, tuple[Any, Any, list[Any]]] = {
    "int ge": (Annotated[int, Field(ge=0)], 0, [-1]),
    "int gt": (Annotated[int, Field(gt=0)], 1, [0]),
    "int le": (Annotated[int, Field(le=10)], 10, [11]),
    "int lt": (Annotated[int, Field(lt=10)], 9, [10]),
    "int32 le": (Annotated[int, dt.Int32, Field(le=7)], 7, [8]),
    "float ge": (Annotated[float, Field(ge=0.5)], 0.5, [0.49, math.nan]),
    "float lt": (Annotated[float, Field(lt=1.0)], 0.99, [1.0, math.nan, math.inf]),
    "float finite": (Annotated[float, Field(allow_inf_nan=False)], 1.0, [math.inf, -math.inf, math.nan]),
    "int multiple_of": (Annotated[int, Field(multiple_of=5)], -10, [7]),
    "decimal multiple_of": (
        Annotated[decimal.Decimal, D10_3, Field(multiple_of=decimal.Decimal("0.25"))],
        decimal.Decimal("0.75"),
        [decimal.Decimal("0.3")],
    ),
    "decimal digits": (
        Annotated[decimal.Decimal, D10_3, Field(max_digits=4, decimal_places=1)],
        decimal.Decimal("123.4"),
        [decimal.Decimal("1234.5"), decimal.Decimal("1.25"), decimal.Decimal("1000")],
    ),
    "decimal ge": (
        Annotated[decimal.Decimal, D10_3, Field(ge=decimal.Decimal("0.001"))],
        decimal.Decimal("0.001"),
        [decimal.Decimal("0")],
    ),
    "str min_length": (Annotated[str, Field(min_length=2)], "éé", ["é"]),
    "str max_length": (Annotated[str, Field(max_length=3)], "a😀c", ["abcd"]),
    "bytes max_length": (Annotated[bytes, Field(max_length=2)], b"ab", [b"abc"]),
    "list lengths": (Annotated[list[int], Field(min_length=1, max_length=2)], [1, 2], [[], [1, 2, 3]]),
    "dict max_length": (Annotated[dict[str, int], Field(max_length=1)], {"a": 1}, [{"a": 1, "b": 2}]),
    "str pattern": (Annotated[str, Field(pattern=r"^[A-Z]{2}-[0-9]+$")], "AB-12", ["ab-12", "AB-12\n", "xAB-1"]),
    "pattern dot": (Annotated[str, Field(pattern=r"^a.c")], "a\rc", ["a\nc"]),
    "constr": (Annotated[str, StringConstraints(min_length=1, pattern=r"x|y")], "zy", ["", "z"]),
    "literal str": (Literal["a", "b"], "a", ["c", "A"]),
    "literal int": (Literal[1, 2], 2, [3]),
    "int enum": (Level, 1, [3]),
    "date ge": (
        Annotated[datetime.date, Field(ge=datetime.date(2020, 1, 1))],
        datetime.date(2020, 1, 1),
        [datetime.date(2019, 12, 31)],
    ),
    "list elements": (list[Annotated[int, Field(ge=0)]], [0, 5], [[1, -1]]),
    "map values": (dict[str, Annotated[int, Field(le=3)]], {"a": 3}, [{"a": 4}]),
    "map keys": (dict[Annotated[str, Field(min_length=2)], int], {"ab": 1}, [{"a": 1}]),
    "struct field": (Zip, {"code": "12345"}, [{"code": "1234"}]),
    "nested list of structs": (list[Zip], [{"code": "00000"}], [[{"code": "00000"}, {"code": "x"}]]),
    "optional": (Annotated[int, Field(ge=0)] | None, None, [-5]),
}  # fmt: skip


def _model(annotation: Any) -> type[DataFrameModel]:
    return create_model("Case", __base__=DataFrameModel, id=(int, ...), v=(annotation, ...))


def _spark_value(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    return value


def _frame(spark: SparkSession, model: type[DataFrameModel], values: list[Any]) -> DataFrame[Any]:
    rows = [(i, _spark_value(v)) for i, v in enumerate(values)]
    return model.from_spark(spark.createDataFrame(rows, schema=model.spark_schema()))


@pytest.mark.parametrize("case", list(CASES))
def test_spark_agrees_with_pydantic_on_both_sides(spark: SparkSession, case: str) -> None:
    annotation, good, bad = CASES[case]
    model = _model(annotation)
    pydantic.TypeAdapter(model).validate_python({"id": 0, "v": good})
    for value in bad:
        with pytest.raises(pydantic.ValidationError):
            pydantic.TypeAdapter(model).validate_python({"id": 0, "v": value})
    assert model.spark_constraints().checked, model.spark_constraints()
    report = _frame(spark, model, [good, *bad]).validate(key="id")
    assert report.rows == 1 + len(bad)
    flagged = {e["id"] for v in report.errors for e in v.examples}
    assert flagged == set(range(1, 1 + len(bad))), str(report)
    with pytest.raises(ConstraintError) as caught:
        report.raise_for_errors()
    assert str(caught.value) == str(report)
    assert _frame(spark, model, [good]).validate().ok


class Shop(DataFrameModel):
    id: int
    sku: str = Field(pattern=r"^[A-Z]{3}-[0-9]+$", max_length=12)
    qty: int = Field(ge=0, multiple_of=5)
    size: Literal["S", "M", "L"]
    price: float = Field(gt=0, multiple_of=0.5, allow_inf_nan=False)
    name: Annotated[str, StringConstraints(to_lower=True), AfterValidator(str.strip)]
    code: str = Field(pattern=r"^\d+$")

    @field_validator("qty")
    @classmethod
    def _qty(cls, value: int) -> int:
        return value

    @model_validator(mode="after")
    def _whole(self) -> Shop:
        return self

    def model_post_init(self, context: Any, /) -> None:
        pass


def test_spark_constraints_lists_what_stays_in_python() -> None:
    listed = Shop.spark_constraints()
    checked = {(c.location, c.label) for c in listed.checked}
    assert checked == {
        ("sku", "pattern '^[A-Z]{3}-[0-9]+$'"),
        ("sku", "max_length 12"),
        ("qty", "ge 0"),
        ("qty", "multiple_of 5"),
        ("size", "in ('S', 'M', 'L')"),
        ("price", "gt 0"),
        ("price", "allow_inf_nan=False"),
    }
    python = {(p.location, p.what) for p in listed.python_only}
    assert python == {
        ("price", "multiple_of 0.5"),
        ("name", "to_lower=True"),
        ("name", "AfterValidator(strip)"),
        ("code", "pattern '^\\\\d+$'"),
        ("qty", "validator _qty"),
        ("(row)", "model validator _whole"),
        ("(row)", "model_post_init"),
    }
    text = str(listed)
    assert "Python only: a Python function" in text
    assert "ASCII-only in Java" in text


ACCEPTED = [
    r"^[A-Z]{2}\.[0-9]+$",
    r"a.c",
    r"^(?:ab|cd)*?e{2,3}$",
    r"[^\]a-]x",
    r"\\n\t",
    r"^$",
    r"' OR 1=1 --",
    "ünï😀",
    r"a+b?",
    r"[\-.]",
]
REFUSED = [
    r"\d",
    r"\w+",
    r"\s",
    r"\bx",
    r"(?i)a",
    r"(?=a)",
    r"(?P<n>a)",
    r"[a[b]]",
    r"[a&&b]",
    r"x{",
    r"a*+",
    r"\p{L}",
    r"a]",
    r"\Qa\E",
    r"[]a]",
]
SAMPLES = [
    "",
    "a",
    "abc",
    "a\nc",
    "a\rc",
    "AB.12",
    "AB.12\n",
    "cdabee",
    "eee",
    "]x",
    "-",
    ".",
    "x",
    "\\n\t",
    "' OR 1=1 --",
    "ünï😀!",
    "ab",
    "b",
]


@pytest.mark.parametrize("pattern", ACCEPTED)
def test_translated_patterns_match_as_pydantic_does(spark: SparkSession, pattern: str) -> None:
    java, why = java_pattern(pattern)
    assert java is not None, why
    model = _model(Annotated[str, Field(pattern=pattern)])
    adapter = pydantic.TypeAdapter(model)
    expected = set()
    for i, sample in enumerate(SAMPLES):
        try:
            adapter.validate_python({"id": i, "v": sample})
        except pydantic.ValidationError:
            expected.add(i)
    report = _frame(spark, model, SAMPLES).validate(key="id", examples=len(SAMPLES))
    assert {e["id"] for v in report.errors for e in v.examples} == expected


@pytest.mark.parametrize("pattern", REFUSED)
def test_patterns_outside_the_subset_are_python_only(pattern: str) -> None:
    java, why = java_pattern(pattern)
    assert java is None
    assert why
    try:
        model = _model(Annotated[str, Field(pattern=pattern)])
    except pydantic_core.SchemaError:  # Pydantic's default engine (Rust regex) refuses it too
        return
    listed = model.spark_constraints()
    assert not listed.checked
    assert [p.reason for p in listed.python_only] == [why]


def test_python_re_engine_keeps_its_dollar() -> None:
    assert java_pattern("a$", "python-re")[0] == "a(?=\\n?\\z)"
    assert java_pattern("a$")[0] == "a\\z"


# --- the report -------------------------------------------------------------------------------


class Stock(DataFrameModel):
    id: int
    sku: str = Field(max_length=4)
    qty: int = Field(ge=0)


def _stock(spark: SparkSession, rows: list[tuple[int, str, int]]) -> DataFrame[Stock]:
    return Stock.from_spark(spark.createDataFrame(rows, schema=Stock.spark_schema()))


BAD_STOCK = [(1, "ab", 1), (2, "abcde", -1), (3, "abc", -2), (4, "abcdef", 0)]


def test_report_counts_examples_and_table(spark: SparkSession) -> None:
    report = _stock(spark, BAD_STOCK).validate(key="id", examples=1)
    assert [(v.constraint.label, v.count) for v in report.results] == [("max_length 4", 2), ("ge 0", 2)]
    assert all(len(v.examples) == 1 for v in report.errors)
    lines = str(report).splitlines()
    assert lines[0] == "4 rows, 2 of 2 constraints violated"
    assert lines[1].split() == ["column", "constraint", "violations", "examples"]
    assert lines[2].split()[:4] == ["sku", "max_length", "4", "2"]
    assert not report.ok


def test_validate_refuses_unknown_keys_and_bad_examples(spark: SparkSession) -> None:
    frame = _stock(spark, BAD_STOCK)
    with pytest.raises(UnknownColumnError):
        frame.validate(key="nope")
    with pytest.raises(ValueError, match="examples"):
        frame.validate(examples=-1)


def _jobs(spark: SparkSession, run: Any) -> int:
    if is_connect(spark):
        pytest.skip("counts jobs with the SparkContext's status tracker, which Spark Connect has not")
    tracker = spark.sparkContext.statusTracker()
    group = f"pydantable-jobs-{uuid.uuid4().hex}"
    spark.sparkContext.setJobGroup(group, "counted")
    try:
        run()
    finally:
        spark.sparkContext.setJobGroup("", "")
    return len(tracker.getJobIdsForGroup(group))


def test_validate_is_one_pass_like_count_and_one_more_for_examples(spark: SparkSession, tmp_path: Path) -> None:
    _stock(spark, BAD_STOCK).write_parquet(tmp_path / "bad", constraints="skip")
    _stock(spark, [(1, "ab", 1)]).write_parquet(tmp_path / "good")
    good, bad = Stock.read_parquet(tmp_path / "good"), Stock.read_parquet(tmp_path / "bad")
    # one aggregation query, like count(): adaptive execution submits its shuffle stages as jobs of their own
    one_pass = _jobs(spark, good.count)
    assert _jobs(spark, lambda: good.validate(key="id")) == one_pass
    assert _jobs(spark, lambda: bad.validate(key="id", examples=0)) == one_pass
    # examples of violations: one more query, over the violating rows
    assert _jobs(spark, lambda: bad.validate(key="id")) == 2 * one_pass


# --- writes --------------------------------------------------------------------------------------


def test_write_raises_and_keeps_the_old_data(spark: SparkSession, tmp_path: Path) -> None:
    target = str(tmp_path / "stock")
    good = _stock(spark, [(1, "ab", 1), (2, "abcd", 0)])
    good.write_parquet(target)
    with pytest.raises(ConstraintError, match=r"'qty' violates the model's constraint ge 0.*the row's value: -1"):
        _stock(spark, [(5, "a", -1)]).write_parquet(target, mode="overwrite")
    assert Stock.read_parquet(target).sort(Stock.id).to_dict()["id"] == [1, 2]
    with pytest.raises(ConstraintError):
        _stock(spark, [(5, "a", -1)]).write_parquet(target, mode="append")
    assert Stock.read_parquet(target).count() == 2


def test_write_report_and_skip_write_everything(spark: SparkSession, tmp_path: Path) -> None:
    report = _stock(spark, BAD_STOCK).write_json(tmp_path / "r", constraints="report")
    assert report is not None
    assert report.rows == 4
    assert [v.count for v in report.results] == [2, 2]
    assert "2 of 2 constraints violated" in str(report)
    assert Stock.read_json(tmp_path / "r").count() == 4
    assert _stock(spark, BAD_STOCK).write_parquet(tmp_path / "s", constraints="skip") is None
    assert Stock.read_parquet(tmp_path / "s").count() == 4
    with pytest.raises(ValueError, match="constraints='nope'"):
        _stock(spark, BAD_STOCK).write_parquet(tmp_path / "x", constraints="nope")  # type: ignore[arg-type]


@pytest.mark.parametrize("table", [False, True], ids=["path", "table"])
def test_report_with_ignore_on_an_existing_target_counts_nothing_and_returns(
    spark: SparkSession, tmp_path: Path, table: bool
) -> None:
    # no job runs, and reading the counts used to wait for one forever
    name = "pydantable_report_ignore"
    frame = _stock(spark, BAD_STOCK)

    def write(mode: str) -> Any:
        if table:
            return frame.save_as_table(name, mode=mode, constraints="report")  # type: ignore[arg-type]
        return frame.write_parquet(tmp_path / "t", mode=mode, constraints="report")  # type: ignore[arg-type]

    try:
        assert write("error").rows == 4
        done: list[Any] = []
        worker = threading.Thread(target=lambda: done.append(write("ignore")), daemon=True)
        worker.start()
        worker.join(timeout=120)
        assert done, "the write with constraints='report' and mode='ignore' did not return"
        report = done[0]
        assert (report.rows, [v.count for v in report.results], report.ok) == (0, [0, 0], True)
        read = Stock.read_table(name) if table else Stock.read_parquet(tmp_path / "t")
        assert read.count() == 4  # the first write's rows, untouched
    finally:
        spark.sql(f"DROP TABLE IF EXISTS {name}")


def _ids(rows: dict[str, list[Any]]) -> list[Any]:
    return sorted(rows["id"])


@pytest.mark.parametrize("fmt", ["parquet", "json", "csv"])
def test_quarantine_sets_violating_rows_apart_with_their_reasons(spark: SparkSession, tmp_path: Path, fmt: str) -> None:
    target, aside = tmp_path / "good", tmp_path / "bad"
    report = getattr(_stock(spark, BAD_STOCK), f"write_{fmt}")(target, constraints="quarantine", quarantine=aside)
    assert report is not None
    assert (report.rows, [v.count for v in report.results]) == (4, [2, 2])
    assert _ids(getattr(Stock, f"read_{fmt}")(target).to_dict()) == [1]
    reader = spark.read.format(fmt)
    bad = (reader.option("header", "true") if fmt == "csv" else reader).load(str(aside)).orderBy("id").collect()
    assert [int(r["id"]) for r in bad] == [2, 3, 4]
    if fmt != "csv":  # CSV cannot hold the list
        assert [r["violations"] for r in bad] == [
            ["sku: max_length 4", "qty: ge 0"],
            ["qty: ge 0"],
            ["sku: max_length 4"],
        ]


def test_quarantine_of_clean_rows_writes_an_empty_quarantine_and_follows_the_mode(
    spark: SparkSession, tmp_path: Path
) -> None:
    target, aside = tmp_path / "good", tmp_path / "bad"
    clean = _stock(spark, [(1, "ab", 1), (2, "abcd", 0)])
    report = clean.write_parquet(target, constraints="quarantine", quarantine=aside)
    assert report is not None
    assert report.ok
    assert spark.read.parquet(str(aside)).count() == 0
    # mode applies to both places: "error" refuses an existing quarantine before the target changes
    with pytest.raises(TargetExistsError):
        clean.write_parquet(tmp_path / "other", constraints="quarantine", quarantine=aside)
    assert not (tmp_path / "other").exists()
    _stock(spark, BAD_STOCK).write_parquet(target, mode="append", constraints="quarantine", quarantine=aside)
    assert _ids(Stock.read_parquet(target).to_dict()) == [1, 1, 2]
    assert spark.read.parquet(str(aside)).count() == 3


def test_quarantine_needs_its_place_and_refuses_bad_ones(spark: SparkSession, tmp_path: Path) -> None:
    frame = _stock(spark, BAD_STOCK)
    with pytest.raises(ValueError, match="constraints='quarantine' needs quarantine="):
        frame.write_parquet(tmp_path / "a", constraints="quarantine")
    with pytest.raises(ValueError, match="quarantine= needs constraints='quarantine'"):
        frame.write_parquet(tmp_path / "a", quarantine=tmp_path / "b")
    with pytest.raises(ValueError, match="is the same path as the target"):
        frame.write_parquet(tmp_path / "a", constraints="quarantine", quarantine=tmp_path / "a")
    with pytest.raises(TypeError, match="quarantine= must be a path"):
        frame.write_parquet(tmp_path / "a", constraints="quarantine", quarantine=3)  # type: ignore[arg-type]

    class Flagged(DataFrameModel):
        id: int
        violations: int = Field(ge=0)

    with pytest.raises(ValueError, match="has a column 'violations'"):
        Flagged.from_rows([{"id": 1, "violations": 0}]).write_parquet(
            tmp_path / "a", constraints="quarantine", quarantine=tmp_path / "b"
        )
    assert not (tmp_path / "a").exists()
    assert not (tmp_path / "b").exists()


@pytest.mark.parametrize(
    "spelling",
    ["trailing-slash", "dot-segment", "dot-dot", "relative", "symlink", "file-uri", "inside", "around"],
)
def test_quarantine_spelled_as_the_target_another_way_is_refused(
    spark: SparkSession, tmp_path: Path, spelling: str
) -> None:
    # it used to write the violating rows there, then overwrite them with the good ones
    target = tmp_path / "out"
    (tmp_path / "link").symlink_to(tmp_path, target_is_directory=True)
    aside = {
        "trailing-slash": f"{target}/",
        "dot-segment": f"{tmp_path}/./out",
        "dot-dot": f"{tmp_path}/sub/../out",
        "relative": os.path.relpath(target),  # to the working directory Spark started in: this one
        "symlink": f"{tmp_path}/link/out",
        "file-uri": f"file://{target}",
        "inside": f"{target}/bad",
        "around": str(tmp_path),
    }[spelling]
    with pytest.raises(ValueError, match=f"{re.escape(repr(aside))} is (the same path as|nested in or around) the"):
        _stock(spark, BAD_STOCK).write_parquet(target, constraints="quarantine", quarantine=aside)
    assert not target.exists()
    assert not (target / "bad").exists()


@pytest.mark.parametrize("spelling", ["default.{}", "`default`.`{}`", "spark_catalog.default.{}", "{}_UPPER"])
def test_quarantine_table_spelled_as_the_target_another_way_is_refused(spark: SparkSession, spelling: str) -> None:
    name = "pydantable_quarantine_twin"
    target = name + "_upper" if spelling.endswith("_UPPER") else name
    aside = spelling.format(name.upper() if spelling.endswith("_UPPER") else name)
    try:
        with pytest.raises(ValueError, match="is the same table as the target"):
            _stock(spark, BAD_STOCK).save_as_table(target, constraints="quarantine", quarantine=aside)
        assert not spark.catalog.tableExists(target)
    finally:
        spark.sql(f"DROP TABLE IF EXISTS {target}")


def test_quarantine_refuses_to_overwrite_what_the_frame_reads(spark: SparkSession, tmp_path: Path) -> None:
    # the writes read a checkpoint, which reads no file: the refusal is made on the frame itself
    source, aside = tmp_path / "in", tmp_path / "bad"
    _stock(spark, BAD_STOCK).write_parquet(source, constraints="skip")
    frame = Stock.read_parquet(source)
    for target, quarantine in [(source, aside), (tmp_path / "out", source)]:
        with pytest.raises(WriteError, match="refusing to overwrite a path that this frame reads"):
            frame.write_parquet(target, mode="overwrite", constraints="quarantine", quarantine=quarantine)
    assert Stock.read_parquet(source).count() == 4
    assert not aside.exists()
    assert not (tmp_path / "out").exists()


def test_save_as_table_quarantines_into_a_table(spark: SparkSession) -> None:
    name, aside = "pydantable_constraints_good", "pydantable_constraints_bad"
    try:
        report = _stock(spark, BAD_STOCK).save_as_table(name, constraints="quarantine", quarantine=aside)
        assert report is not None
        assert [v.count for v in report.results] == [2, 2]
        assert Stock.read_table(name).to_dict()["id"] == [1]
        assert sorted(r["id"] for r in spark.read.table(aside).collect()) == [2, 3, 4]
    finally:
        spark.sql(f"DROP TABLE IF EXISTS {name}")
        spark.sql(f"DROP TABLE IF EXISTS {aside}")


def test_checks_add_no_job_to_a_write(spark: SparkSession, tmp_path: Path) -> None:
    frame = _stock(spark, [(1, "ab", 1), (2, "abcd", 0)])
    plain = _jobs(spark, lambda: frame.write_parquet(tmp_path / "a", constraints="skip"))
    assert _jobs(spark, lambda: frame.write_parquet(tmp_path / "b")) == plain
    assert _jobs(spark, lambda: frame.write_parquet(tmp_path / "c", constraints="report")) == plain


def test_rows_filtered_out_before_the_write_are_not_checked(spark: SparkSession, tmp_path: Path) -> None:
    kept = _stock(spark, BAD_STOCK).filter((Stock.qty >= 0) & (Stock.sku.str.len_chars() <= 4))
    kept.write_parquet(tmp_path / "kept")
    assert Stock.read_parquet(tmp_path / "kept").to_dict()["id"] == [1]


def test_save_as_table_raises_and_keeps_the_old_table(spark: SparkSession) -> None:
    name = "pydantable_constraints_stock"
    spark.sql(f"DROP TABLE IF EXISTS {name}")
    try:
        _stock(spark, [(1, "ab", 1)]).save_as_table(name)
        with pytest.raises(ConstraintError, match="save_as_table"):
            _stock(spark, BAD_STOCK).save_as_table(name, mode="overwrite")
        assert Stock.read_table(name).to_dict()["id"] == [1]
        assert spark.catalog.listTables() == [t for t in spark.catalog.listTables() if "staging" not in t.name]
    finally:
        spark.sql(f"DROP TABLE IF EXISTS {name}")


# --- reads -----------------------------------------------------------------------------------------


def test_readers_check_on_read(spark: SparkSession, tmp_path: Path) -> None:
    _stock(spark, BAD_STOCK).write_parquet(tmp_path / "in", constraints="skip")
    _stock(spark, BAD_STOCK).write_csv(tmp_path / "csv", constraints="skip")
    for frame in (
        Stock.read_parquet(tmp_path / "in", constraints="raise"),
        Stock.read_csv(tmp_path / "csv", constraints="raise"),
        DataFrame.read_parquet(tmp_path / "in", model=Stock, constraints="raise"),
    ):
        with pytest.raises(ConstraintError, match=r"read_\w+\(.*violates the model's constraint"):
            frame.count()
        with pytest.raises(ConstraintError):
            frame.collect()
    assert Stock.read_parquet(tmp_path / "in").count() == 4
    with pytest.raises(ValueError, match="validate"):
        Stock.read_parquet(tmp_path / "in", constraints="report")  # type: ignore[arg-type]


def test_constraint_error_is_a_library_error() -> None:
    assert issubclass(ConstraintError, PydantableSparkError)
    assert issubclass(ConstraintError, ValueError)


def test_digits_constraints_the_column_type_already_guarantees_hold_at_its_limits(tmp_path: Path) -> None:
    # max_digits=38, decimal_places=18 is decimal(38, 18) itself: its largest values are valid, and the bound
    # 10 ** 20 a check would compare with does not fit the type (Spark would overflow or round it)
    class Wide(DataFrameModel):
        id: int
        amount: Annotated[decimal.Decimal, Field(max_digits=38, decimal_places=18)]

    largest = decimal.Decimal("99999999999999999999.999999999999999999")
    smallest = decimal.Decimal("-99999999999999999999.999999999999999999")  # not -largest: 28-digit context
    frame = Wide.from_rows([{"id": 1, "amount": largest}, {"id": 2, "amount": smallest}])
    report = frame.validate()
    assert not report.errors
    assert report.raise_for_errors() is report
    frame.write_parquet(tmp_path / "wide")
    assert sorted(row.amount for row in Wide.read_parquet(tmp_path / "wide").collect()) == [smallest, largest]


# --- Spark's verdict is Pydantic's, row by row, on hostile constraints (issue 24) ------------------


Rows = list[dict[str, Any]]


def _verdicts(spark: SparkSession, model: type[DataFrameModel], rows: Rows) -> tuple[set[int], set[int]]:
    """The ids of the rows ``model.model_validate`` refuses, and of those ``validate()`` flags (the same Spark rows)."""
    names = [f.name for f in model.spark_schema().fields]
    sdf = spark.createDataFrame([tuple(row[n] for n in names) for row in rows], schema=model.spark_schema())
    refused = set()
    for row in sdf.collect():
        try:
            model.model_validate(row.asDict(recursive=True))
        except pydantic.ValidationError:
            refused.add(row["id"])
    report = model.from_spark(sdf).validate(key="id", examples=len(rows))
    return refused, {e["id"] for v in report.errors for e in v.examples}


def _assert_spark_agrees(spark: SparkSession, model: type[DataFrameModel], rows: Rows) -> set[int]:
    """Spark flags exactly the rows Pydantic refuses; returns their ids."""
    refused, flagged = _verdicts(spark, model, rows)
    differ = [row for row in rows if (row["id"] in refused) != (row["id"] in flagged)]
    assert flagged == refused, f"Spark flags {sorted(flagged)}, Pydantic refuses {sorted(refused)}; differ: {differ}"
    return refused


def _column(values: list[Any]) -> Rows:
    return [{"id": i, "v": _spark_value(v)} for i, v in enumerate(values)]


class Perm(enum.IntFlag):  # boundary KEEP: every integer is a value
    R = 4
    W = 2
    X = 1


class Bits(enum.Flag):  # boundary STRICT (3.11+): combinations of 1, 2 and 8, and their complements
    A = 1
    B = 2
    D = 8


class Rwx(enum.Flag):
    R = 4
    W = 2
    X = 1


STRIPPED = Annotated[str, StringConstraints(strip_whitespace=True, max_length=2, pattern=r"^[a-z]+$")]
AROUND = ["", " ", "\t", "\u3000", "\u2029", "\x85", "\xa0", "\x1c", "\x1f", "\u200b", "\ufeff", "\u180e", "😀"]
"""Whitespace to Pydantic (Rust's White_Space) and look-alikes that are not (``\\x1c`` is to Python's str.strip())."""

D38_0, D38_20 = dt.Decimal(38, 0), dt.Decimal(38, 20)

# (annotation, values): Spark flags exactly the values Pydantic refuses; "mixed" cases have both kinds
HOSTILE: dict[str, tuple[Any, list[Any]]] = {
    "int gt float 2**53": (Annotated[int, Field(gt=2.0**53)], [2**53 - 1, 2**53, 2**53 + 1, 2**53 + 2, 2**63 - 1]),
    "int le float 2**62": (Annotated[int, Field(le=2.0**62)], [2**62, 2**62 + 1, -(2**63)]),
    "int32 lt float 2**31": (Annotated[int, dt.Int32, Field(lt=2.0**31)], [2**31 - 1, -(2**31)]),
    "int le 10**40": (Annotated[int, Field(le=10**40)], [0, 2**63 - 1, -(2**63)]),
    "int ge 10**40": (Annotated[int, Field(ge=10**40)], [0, 2**63 - 1]),
    "int gt -10**40": (Annotated[int, Field(gt=-(10**40))], [-(2**63), 0]),
    "int8 ge 2**7": (Annotated[int, dt.Int8, Field(ge=128)], [127, -128]),
    "int multiple_of 10**40": (Annotated[int, Field(multiple_of=10**40)], [0, 5, -(2**63)]),
    "int multiple_of 2**63": (Annotated[int, Field(multiple_of=2**63)], [0, -(2**63), 2**63 - 1, 5]),
    "int8 multiple_of 200": (Annotated[int, dt.Int8, Field(multiple_of=200)], [0, -128, 127]),
    "decimal le 10**40": (Annotated[decimal.Decimal, D10_3, Field(le=10**40)], [decimal.Decimal("9999999.999")]),
    "decimal gt 10**40": (Annotated[decimal.Decimal, D38_0, Field(gt=10**40)], [decimal.Decimal(10**38 - 1)]),
    "decimal ge -10**40": (Annotated[decimal.Decimal, D38_20, Field(ge=-(10**40))], [decimal.Decimal(-(10**17))]),
    "decimal le 1e400": (Annotated[decimal.Decimal, D10_3, Field(le=decimal.Decimal("1e400"))], [decimal.Decimal(1)]),
    "decimal lt 1e999999999": (
        Annotated[decimal.Decimal, D10_3, Field(lt=decimal.Decimal("1e999999999"))],  # no billion-digit literal
        [decimal.Decimal("9999999.999")],
    ),
    "decimal ge 1e-999999999": (
        Annotated[decimal.Decimal, D10_3, Field(ge=decimal.Decimal("1e-999999999"))],
        [decimal.Decimal(0), decimal.Decimal("0.001"), decimal.Decimal("-0.001")],
    ),
    "decimal multiple_of 10**40": (
        Annotated[decimal.Decimal, D10_3, Field(multiple_of=10**40)],
        [decimal.Decimal(0), decimal.Decimal("0.001")],
    ),
    "decimal ge float 2**60": (
        Annotated[decimal.Decimal, D38_0, Field(ge=2.0**60)],  # Pydantic compares with Decimal(repr(2.0**60))
        [decimal.Decimal(2**60), decimal.Decimal(1152921504606847000), decimal.Decimal(2**60 - 1)],
    ),
    "decimal gt float 0.1005": (
        Annotated[decimal.Decimal, D10_3, Field(gt=0.1005)],
        [decimal.Decimal("0.100"), decimal.Decimal("0.101")],
    ),
    "decimal ge float 0.1": (
        Annotated[decimal.Decimal, D38_20, Field(ge=0.1)],
        [decimal.Decimal("0.1"), decimal.Decimal("0.09999999999999999"), decimal.Decimal("0.10000000000000000001")],
    ),
    "float le 10**40": (
        Annotated[float, Field(le=10**40)],
        [1e40, math.nextafter(1e40, math.inf), math.inf, -math.inf, math.nan],
    ),
    "float ge 2**53+1": (Annotated[float, Field(ge=2**53 + 1)], [2.0**53, math.nextafter(2.0**53, 0)]),
    "float le nan": (Annotated[float, Field(le=math.nan)], [1.0, math.nan, -math.inf]),
    "float32 gt 0.1": (Annotated[float, dt.Float32, Field(gt=0.1)], [0.1, 0.099999994]),
    "literal beyond bigint": (Literal[1, 10**40], [1, 2]),
    "intflag": (Perm, [0, 3, 7, 8, -1, -9, 100, 2**63 - 1, -(2**63)]),
    "flag": (Bits, [*range(-20, 20), 2**63 - 1, -(2**63)]),
    "flag of contiguous bits": (Rwx, list(range(-10, 10))),
    "set max_length": (Annotated[set[int], Field(max_length=2)], [[1, 1, 2], [1, 2, 3], [1, 1, 1, 1], []]),
    "frozenset min_length": (Annotated[frozenset[str], Field(min_length=2)], [["a", "a"], ["a", "b"], ["é", "é", "e"]]),
    "set of optionals": (Annotated[set[int | None], Field(max_length=1)], [[None, None], [1, None], [1, 1]]),
    "set of decimals": (
        Annotated[set[Annotated[decimal.Decimal, D10_3]], Field(max_length=1)],
        [[decimal.Decimal("1.0"), decimal.Decimal("1.000")], [decimal.Decimal("1"), decimal.Decimal("2")]],
    ),
    "strip_whitespace": (STRIPPED, [f"{w}ab{w}" for w in AROUND] + [" a b ", "abc ", "\t\n", "ab\n\n"]),
    "strip_whitespace min_length": (
        Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)],
        [*AROUND, " a "],
    ),
    "strip_whitespace ge": (
        Annotated[str, StringConstraints(strip_whitespace=True), Field(ge="b")],  # compared once stripped
        [" c", "a ", "\u3000b", "\x1cc", "B"],
    ),
    "to_lower pattern": (
        Annotated[str, StringConstraints(to_lower=True, pattern=r"^[a-z]+$")],  # checked before lowering
        ["ABC", "abc", "İ", "ǅ", "Σ"],
    ),
    "to_upper max_length": (Annotated[str, StringConstraints(to_upper=True, max_length=1)], ["ß", "ŉ", "ab", "a"]),
}  # fmt: skip


@pytest.mark.parametrize("case", list(HOSTILE))
def test_spark_agrees_with_pydantic_row_by_row(spark: SparkSession, case: str) -> None:
    annotation, values = HOSTILE[case]
    model = _model(annotation)
    assert model.spark_constraints().checked or case == "intflag", model.spark_constraints()
    _assert_spark_agrees(spark, model, _column(values))


class Plain(pydantic.BaseModel):  # no model_config of its own: the enclosing model's does not apply to it
    s: str


class Short(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(str_max_length=2)
    s: str


class Configured(DataFrameModel):
    model_config = pydantic.ConfigDict(
        str_min_length=1, str_max_length=3, str_strip_whitespace=True, str_to_upper=True, allow_inf_nan=False
    )
    id: int
    a: str
    tags: list[str]
    names: dict[str, str]
    wide: Annotated[str, Field(max_length=5)]  # its own limit overrides the model's
    kept: Annotated[str, StringConstraints(strip_whitespace=False)]
    plain: Plain
    short: Short
    ratio: float
    code: Literal["abcd"]


def test_model_config_str_and_inf_nan_settings_are_checked_where_pydantic_applies_them(spark: SparkSession) -> None:
    good = {
        "id": 0, "a": "abc", "tags": ["x"], "names": {"k": "v"}, "wide": "abcde", "kept": "ab", "plain": {"s": "long!"},
        "short": {"s": "ab"}, "ratio": 1.5, "code": "abcd",
    }  # fmt: skip
    changes: list[dict[str, Any]] = [
        {},
        {"a": "abcd"},
        {"a": ""},
        {"a": " abc\u3000"},  # stripped first: 3 characters
        {"a": "\u00a0"},  # stripped to ""
        {"tags": ["x", "abcd"]},
        {"tags": [" ab "]},
        {"names": {"abcd": "v"}},
        {"names": {"k": ""}},
        {"wide": "abcdef"},
        {"wide": " abcde "},
        {"kept": " ab "},  # not stripped: 4 characters
        {"plain": {"s": ""}},
        {"short": {"s": "abc"}},
        {"ratio": math.inf},
        {"ratio": math.nan},
    ]
    rows = [good | change | {"id": i} for i, change in enumerate(changes)]
    refused = _assert_spark_agrees(spark, Configured, rows)
    assert 0 not in refused
    assert len(refused) > len(rows) // 2, refused
    listed = Configured.spark_constraints()
    assert ("a", "max_length 3 (after strip_whitespace)") in {(c.location, c.label) for c in listed.checked}
    assert ("a", "str_to_upper=True (model_config)") in {(p.location, p.what) for p in listed.python_only}


def test_a_column_named_like_a_struct_field_is_told_apart(spark: SparkSession, tmp_path: Path) -> None:
    class Dotted(DataFrameModel):
        id: int
        flat: int = Field(alias="a.b", ge=0)
        nested: Annotated[list[int], Field(alias="tags[]", max_length=1)]
        tags: list[Annotated[int, Field(ge=0)]]

    class Inner(pydantic.BaseModel):
        b: int = Field(ge=0)

    class Both(DataFrameModel):
        id: int
        flat: int = Field(alias="a.b", ge=0)
        a: Inner
        weird: int = Field(alias="x`y", le=0)

    locations = [c.location for c in Both.spark_constraints().checked]
    assert locations == ["`a.b`", "a.b", "`x``y`"]
    assert [c.location for c in Dotted.spark_constraints().checked] == ["`a.b`", "`tags[]`", "tags[]"]
    rows = [
        {"id": 0, "a.b": 1, "a": {"b": 1}, "x`y": 0},
        {"id": 1, "a.b": -1, "a": {"b": 1}, "x`y": 0},
        {"id": 2, "a.b": -1, "a": {"b": 1}, "x`y": 0},
        {"id": 3, "a.b": 1, "a": {"b": -1}, "x`y": 1},
    ]
    _assert_spark_agrees(spark, Both, rows)
    sdf = spark.createDataFrame([tuple(r.values()) for r in rows], schema=Both.spark_schema())
    report = Both.from_spark(sdf).write_parquet(tmp_path / "t", constraints="quarantine", quarantine=tmp_path / "q")
    assert report is not None
    assert [(v.constraint.location, v.count) for v in report.results] == [("`a.b`", 2), ("a.b", 1), ("`x``y`", 1)]
    aside = spark.read.parquet(str(tmp_path / "q")).orderBy("id").collect()
    assert [r["violations"] for r in aside] == [["`a.b`: ge 0"], ["`a.b`: ge 0"], ["a.b: ge 0", "`x``y`: le 0"]]


class Lenient(enum.Enum):
    low = 1
    high = 2

    @classmethod
    def _missing_(cls, value: object) -> Lenient:
        return cls.low


# (annotation, values, what is listed as Python-only, its reason): Spark flags no row Pydantic accepts
PYTHON_ONLY: dict[str, tuple[Any, list[Any], str, str]] = {
    "set of floats": (
        Annotated[set[float], Field(max_length=1)],
        [[math.nan, math.nan], [0.0, -0.0], [1.0, 2.0]],
        "max_length 1",
        "Python's set keeps every NaN (NaN != NaN); Spark's array_distinct keeps one",
    ),
    "set of stripped strings": (
        Annotated[set[Annotated[str, StringConstraints(strip_whitespace=True)]], Field(max_length=1)],
        [["a", " a"], ["a", "b"]],
        "max_length 1",
        "its items are transformed (strip_whitespace, to_lower, to_upper) before duplicates are dropped",
    ),
    "set of flags": (
        Annotated[set[Perm], Field(max_length=1)],
        [[-1, 7], [1, 2]],
        "max_length 1",
        "a Flag takes several values for one member (-1 is every flag)",
    ),
    "enum with _missing_": (Lenient, [1, 3], "in (1, 2)", "the enum's _missing_ accepts other values in Python"),
    "bound of a lowered string": (
        Annotated[str, StringConstraints(to_lower=True), Field(ge="b")],
        ["C", "a", "\ua7dd"],
        "ge b",
        "Pydantic compares the value after to_lower/to_upper, whose Unicode tables differ from Spark's",
    ),
    "decimal multiple_of beyond 38 digits": (
        Annotated[decimal.Decimal, D10_3, Field(multiple_of=decimal.Decimal("1e-400"))],
        [],  # Python's Decimal cannot compute 0.001 % 1e-400 in its 28 digits either
        "multiple_of 1E-400",
        "multiple_of 1E-400 has more than 38 digits; Spark cannot compute with it",
    ),
    "decimal NaN bound": (
        Annotated[decimal.Decimal, D10_3, Field(le=decimal.Decimal("NaN"))],
        [],
        "le NaN",
        "a NaN bound: Pydantic cannot compare with it",
    ),
}


@pytest.mark.parametrize("case", list(PYTHON_ONLY))
def test_what_spark_cannot_check_as_pydantic_does_is_listed(spark: SparkSession, case: str) -> None:
    annotation, values, what, reason = PYTHON_ONLY[case]
    model = _model(annotation)
    listed = model.spark_constraints()
    assert ("v", what, reason) in {(p.location, p.what, p.reason) for p in listed.python_only}, listed
    assert what not in {c.label for c in listed.checked}
    if values:
        refused, flagged = _verdicts(spark, model, _column(values))
        assert flagged <= refused, f"Spark flags {sorted(flagged - refused)}, which Pydantic accepts"


@pytest.mark.skipif(not hasattr(enum, "CONFORM"), reason="enum.FlagBoundary is Python 3.11+")
def test_flags_that_python_changes_are_listed() -> None:
    conform = enum.IntFlag("Conform", {"A": 1, "B": 4}, boundary=enum.CONFORM)  # type: ignore[call-arg]
    listed = _model(conform).spark_constraints()
    assert not listed.checked
    assert [(p.location, p.what, p.reason) for p in listed.python_only] == [
        ("v", "flags of Conform", "boundary CONFORM: Python changes a value outside the flags")
    ]


def test_whitespace_is_what_pydantic_strips() -> None:
    # every code point a Rust string can hold: Pydantic strips it exactly when it is in WHITESPACE
    adapter = pydantic.TypeAdapter(list[Annotated[str, StringConstraints(strip_whitespace=True)]])
    points = [chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
    stripped = adapter.validate_python([f"{c}a{c}" for c in points])
    assert {c for c, s in zip(points, stripped, strict=True) if s == "a"} == set(WHITESPACE)
    assert {c for c in points if c.isspace()} - set(WHITESPACE) == {"\x1c", "\x1d", "\x1e", "\x1f"}


@pytest.mark.parametrize("bound", [{"le": 10**40}, {"ge": 10**40}, {"multiple_of": 10**40}])
def test_bounds_beyond_the_column_type_write_as_pydantic_decides(
    spark: SparkSession, tmp_path: Path, bound: dict[str, int]
) -> None:
    # they used to raise a bare ValueError (or a Spark overflow) from validate() and from the write
    model = _model(Annotated[int, Field(**bound)])  # type: ignore[call-overload]
    rows = _column([0, 7])
    refused = _assert_spark_agrees(spark, model, rows)
    sdf = spark.createDataFrame([(r["id"], r["v"]) for r in rows], schema=model.spark_schema())
    frame = model.from_spark(sdf)
    if refused:
        with pytest.raises(ConstraintError, match="violates the model's constraint"):
            frame.write_parquet(tmp_path / "t")
        assert not (tmp_path / "t").exists()
    else:
        frame.write_parquet(tmp_path / "t")
        assert model.read_parquet(tmp_path / "t").count() == 2


def _absolute(values: list[int]) -> list[int]:
    return [abs(v) for v in values]


class Reshaped(DataFrameModel):
    id: int
    after_ge: Annotated[int, AfterValidator(abs), Field(ge=0)]  # ge checks what abs returns
    ge_after: Annotated[int, Field(ge=0), AfterValidator(abs)]  # ge checks the stored value: Spark checks it
    ge_before: Annotated[int, Field(ge=0), BeforeValidator(abs)]
    items: Annotated[list[Annotated[int, Field(ge=0)]], BeforeValidator(_absolute)]
    optional: Annotated[int, AfterValidator(abs)] | None = Field(ge=0)  # Field applies around the annotation
    by_field: int = Field(ge=0)

    @field_validator("by_field", mode="before")
    @classmethod
    def _positive(cls, value: int) -> int:
        return abs(value)


class ReshapedRow(DataFrameModel):
    id: int
    qty: int = Field(ge=0)
    zip: Zip

    @model_validator(mode="before")
    @classmethod
    def _fixed(cls, row: dict[str, Any]) -> dict[str, Any]:
        return row | {"qty": abs(row["qty"]), "zip": {"code": "00000"}}


def test_constraints_pydantic_checks_on_what_a_function_returns_are_python_only(spark: SparkSession) -> None:
    listed = Reshaped.spark_constraints()
    assert [(c.location, c.label) for c in listed.checked] == [("ge_after", "ge 0")]
    assert {(p.location, p.what, p.reason) for p in listed.python_only} >= {
        ("after_ge", "ge 0", "Pydantic checks what AfterValidator(abs) returns"),
        ("ge_before", "ge 0", "Pydantic checks what BeforeValidator(abs) returns"),
        ("items[]", "ge 0", "Pydantic checks what BeforeValidator(_absolute) returns"),
        ("optional", "ge 0", "Pydantic checks what AfterValidator(abs) returns"),
        ("by_field", "ge 0", "Pydantic checks what validator _positive returns"),
    }
    good = {"after_ge": 1, "ge_after": 1, "ge_before": 1, "items": [1], "optional": 1, "by_field": 1}
    bad = {"after_ge": -5, "ge_after": -5, "ge_before": -5, "items": [-5], "optional": -5, "by_field": -5}
    rows = [good | {"id": 0}] + [good | {name: bad[name], "id": i} for i, name in enumerate(bad, 1)]
    assert _assert_spark_agrees(spark, Reshaped, rows) == {2}  # ge_after's row: the others pass through abs
    assert not ReshapedRow.spark_constraints().checked
    assert {p.reason for p in ReshapedRow.spark_constraints().python_only} >= {
        "Pydantic checks the row model validator _fixed returns"
    }
    rows = [{"id": 0, "qty": -1, "zip": {"code": "x"}}, {"id": 1, "qty": 1, "zip": {"code": "12345"}}]
    assert _assert_spark_agrees(spark, ReshapedRow, rows) == set()


# --- property: Spark's verdict is Pydantic's on drawn constraints and values ------------------------

EXAMPLES = int(os.environ.get("PYDANTABLE_CONSTRAINT_EXAMPLES", "40"))
EDGES = [0, 1, -1, 2**7, 2**31, 2**53, 2**53 + 1, 2**62, 2**63 - 1, 2**63, -(2**63), 10**18, 10**38, 10**40]
"""Bounds where a type's range, a double's precision or a decimal(38)'s digits end."""

_INTS: dict[Any, tuple[int, int]] = {None: (-(2**63), 2**63 - 1), dt.Int32: (-(2**31), 2**31 - 1), dt.Int8: (-128, 127)}
_BOUNDS_KINDS = ["ge", "gt", "le", "lt"]


def _annotated(base: Any, *metadata: Any) -> Any:
    return Annotated[(base, *(m for m in metadata if m is not None))]  # type: ignore[valid-type]


def _number(draw: st.DrawFn, largest_int: int, places: int, *, special: bool) -> Any:
    """A bound: an int (at a type's edge or anywhere), a float or a Decimal; NaN and infinities if ``special``."""
    source = draw(st.sampled_from(["int", "float", "decimal"]))
    if source == "int":
        value = draw(st.sampled_from(EDGES) | st.integers(0, largest_int))
        return -value if draw(st.booleans()) else value
    if source == "float":
        return draw(st.floats(allow_nan=special, allow_infinity=special))
    return draw(st.decimals(allow_nan=False, allow_infinity=special, places=places))


@st.composite
def _int_case(draw: st.DrawFn) -> tuple[Any, list[Any]]:
    marker = draw(st.sampled_from(list(_INTS)))
    low, high = _INTS[marker]
    kind = draw(st.sampled_from([*_BOUNDS_KINDS, "multiple_of"]))
    value = draw(st.sampled_from(EDGES) | st.integers(0, 2**70))
    bound: Any = -value if draw(st.booleans()) else value
    if draw(st.booleans()) and abs(bound) < 2**62:
        bound = float(bound)  # Pydantic takes a float bound that is a whole number below 2**63
    if kind == "multiple_of":
        bound = abs(bound) or 1
    near = [int(bound) + d for d in (-2, -1, 0, 1, 2)]
    values = [v for v in near if low <= v <= high]
    values += draw(st.lists(st.sampled_from([low, high, 0, 1, -1]) | st.integers(low, high), max_size=6))
    return _annotated(int, marker, Field(**{kind: bound})), values  # type: ignore[call-overload]


def _finite(bound: Any) -> bool:
    return bound.is_finite() if isinstance(bound, decimal.Decimal) else math.isfinite(bound)


@st.composite
def _decimal_case(draw: st.DrawFn) -> tuple[Any, list[Any]]:
    precision = draw(st.integers(1, 38))
    # scale < precision: from_spark of a decimal(p, p) column fails in Reconcile (NULLABLE_COLUMN_OR_FIELD), apart
    scale = draw(st.integers(0, precision - 1))
    largest = 10**precision - 1
    kind = draw(st.sampled_from([*_BOUNDS_KINDS, "multiple_of"]))
    bound = _number(draw, 10**42, draw(st.integers(0, 40)), special=kind != "multiple_of")
    if kind == "multiple_of":
        bound = abs(bound)
        assume(bound != 0)
    units = [*draw(st.lists(st.integers(-largest, largest), max_size=6)), -largest, largest, 0]
    if _finite(bound):
        center = round(fractions.Fraction(bound) * 10**scale)
        units += [n for n in range(center - 1, center + 2) if abs(n) <= largest]
    values = [decimal.Decimal(f"{n}E-{scale}") for n in units]
    return _annotated(decimal.Decimal, dt.Decimal(precision, scale), Field(**{kind: bound})), values


@st.composite
def _float_case(draw: st.DrawFn) -> tuple[Any, list[Any]]:
    marker = draw(st.sampled_from([None, dt.Float32]))
    kind = draw(st.sampled_from(_BOUNDS_KINDS))
    bound = _number(draw, 10**300, draw(st.integers(0, 20)), special=True)
    center = float(bound)
    values = [math.nextafter(center, -math.inf), center, math.nextafter(center, math.inf)] if _finite(center) else []
    values += draw(st.lists(st.floats() | st.sampled_from([math.nan, math.inf, -math.inf, -0.0]), max_size=6))
    return _annotated(float, marker, Field(**{kind: bound})), values  # type: ignore[call-overload]


_TEXT = st.text(alphabet=[*(w for w in AROUND if w), "a", "b", "c", "A", "B", "é", "\n", "İ", "ß"], max_size=6)


@st.composite
def _string_case(draw: st.DrawFn) -> tuple[Any, list[Any]]:
    settings = {
        "strip_whitespace": draw(st.none() | st.booleans()),
        "to_lower": draw(st.none() | st.booleans()),
        "min_length": draw(st.none() | st.integers(0, 3)),
        "max_length": draw(st.none() | st.integers(0, 4)),
        "pattern": draw(st.none() | st.sampled_from([r"^[a-z]+$", "b", r"^a.c$", r"^(A|é)*$"])),
    }
    bound = {"ge": draw(_TEXT)} if draw(st.booleans()) else {}
    return Annotated[str, StringConstraints(**settings), Field(**bound)], draw(st.lists(_TEXT, min_size=1, max_size=10))


@st.composite
def _set_case(draw: st.DrawFn) -> tuple[Any, list[Any]]:
    container = draw(st.sampled_from([set, frozenset]))
    item, items = draw(st.sampled_from([(int, st.integers(-2, 2)), (str, st.sampled_from(["a", "b", "é", "é"]))]))
    lengths = {"min_length": draw(st.none() | st.integers(0, 3)), "max_length": draw(st.none() | st.integers(0, 3))}
    values = draw(st.lists(st.lists(items, max_size=6), min_size=1, max_size=8))
    return Annotated[container[item], Field(**lengths)], values  # type: ignore[index]


@st.composite
def _flag_case(draw: st.DrawFn) -> tuple[Any, list[Any]]:
    flags = draw(st.sampled_from([Perm, Bits, Rwx]))
    edges = st.sampled_from([2**63 - 1, -(2**63), 2**62, -(2**62)])
    return flags, draw(st.lists(st.integers(-40, 40) | edges, min_size=1, max_size=12))


@pytest.mark.spark
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.function_scoped_fixture],
)
@given(case=_int_case() | _decimal_case() | _float_case() | _string_case() | _set_case() | _flag_case())
@example(  # a step so small that Spark's decimal remainder fails its job ("Division impossible"): Python-only now
    case=(
        _annotated(decimal.Decimal, dt.Decimal(3, 0), Field(multiple_of=decimal.Decimal("1.7E-37"))),
        [decimal.Decimal(v) for v in ("-999", "999", "0", "-1", "0", "1")],
    )
)
def test_spark_flags_what_pydantic_refuses_on_drawn_constraints(spark: SparkSession, case: Any) -> None:
    annotation, values = case
    try:
        model = _model(annotation)
    except (pydantic_core.SchemaError, pydantic.PydanticUserError, OverflowError):
        assume(False)  # a constraint Pydantic refuses when the class is defined
        raise
    rows = _column(values)
    refused, flagged = _verdicts(spark, model, rows)
    if model.spark_constraints().python_only:
        assert flagged <= refused, f"Spark flags {sorted(flagged - refused)}, which Pydantic accepts: {rows}"
    else:
        differ = [row for row in rows if (row["id"] in refused) != (row["id"] in flagged)]
        assert flagged == refused, f"{model.spark_constraints()}\ndiffer: {differ}"
