"""Typed IO on real Spark: files and tables read with the model's schema, reconciled strictly."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

import pytest

from pydantable_spark import DataFrame, DataFrameModel, F
from pydantable_spark.errors import (
    ColumnTypeError,
    IncompatibleCastError,
    LossyCastError,
    MalformedDataError,
    MissingColumnError,
    NullCheckError,
    PydantableSparkError,
    TargetExistsError,
    UnknownColumnError,
)

if TYPE_CHECKING:
    from pathlib import Path

    from pyspark.sql import SparkSession


class Address(DataFrameModel):
    city: str
    zip: str | None


class Person(DataFrameModel):
    id: int
    name: str
    age: int | None
    address: Address
    tags: list[str]
    scores: dict[str, float]


class LooseAddress(DataFrameModel):
    city: str | None
    zip: str | None


class LoosePerson(DataFrameModel):
    id: int | None
    name: str | None
    age: int | None
    address: LooseAddress | None
    tags: list[str | None] | None
    scores: dict[str, float] | None


PEOPLE = [
    {
        "id": 1,
        "name": "Ada",
        "age": 36,
        "address": {"city": "London", "zip": None},
        "tags": ["a"],
        "scores": {"x": 1.5},
    },
    {"id": 2, "name": "Bob", "age": None, "address": {"city": "Paris", "zip": "75001"}, "tags": [], "scores": {}},
]


def _people() -> DataFrame[Person]:
    return Person.from_rows(PEOPLE)


def test_parquet_round_trip_keeps_types_nested_non_nullability_and_values(tmp_path: Path) -> None:
    _people().write_parquet(tmp_path / "p")
    back = Person.read_parquet(tmp_path / "p")
    assert back.schema == Person.frame_schema()
    assert [r.model_dump() for r in back.sort(Person.id).collect()] == PEOPLE
    assert "read_parquet(" in back.explain()


def test_dataframe_generic_reader_and_model_reader_agree(tmp_path: Path) -> None:
    _people().write_parquet(tmp_path / "p")
    assert DataFrame[Person].read_parquet(tmp_path / "p").count() == 2
    assert DataFrame.read_parquet(str(tmp_path / "p"), model=Person).columns == list(Person.frame_schema().names)


def test_a_reader_needs_a_model(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match=r"read_parquet needs a model: DataFrame\[User\]\.read_parquet"):
        DataFrame.read_parquet(tmp_path / "p")


def test_a_file_column_of_the_wrong_type_or_missing_is_named_before_any_job(tmp_path: Path) -> None:
    _people().write_parquet(tmp_path / "p")

    class Wrong(DataFrameModel):
        id: str
        nickname: str | None

    with pytest.raises(IncompatibleCastError) as info:
        Wrong.read_parquet(tmp_path / "p")
    text = str(info.value)
    assert text.startswith(f"read_parquet({str(tmp_path / 'p')!r}): cannot reconcile the schemas (2 problems)")
    assert "id: cannot convert bigint (int) to string (str)" in text
    assert "nickname: missing from the source; source has: id, name, age, address, tags, scores" in text
    assert {p.path for p in info.value.problems} == {"id", "nickname"}


def test_widening_is_allowed_and_lossy_conversions_need_allow_lossy(tmp_path: Path, spark: SparkSession) -> None:
    spark.createDataFrame([(1, 2.75)], "n int, x double").write.parquet(str(tmp_path / "w"))

    class Wide(DataFrameModel):
        n: int
        x: float

    assert Wide.read_parquet(tmp_path / "w").collect() == [Wide(n=1, x=2.75)]

    class Narrow(DataFrameModel):
        n: int
        x: int

    with pytest.raises(LossyCastError, match=r"x: converting double \(float\) to bigint \(int\)"):
        Narrow.read_parquet(tmp_path / "w")
    assert Narrow.read_parquet(tmp_path / "w", allow_lossy=["x"]).collect() == [Narrow(n=1, x=2)]


def test_a_null_in_a_non_null_column_fails_at_collect_naming_it(tmp_path: Path) -> None:
    rows = [{**PEOPLE[0], "name": None}, PEOPLE[1]]
    LoosePerson.from_rows(rows).write_parquet(tmp_path / "p")
    frame = Person.read_parquet(tmp_path / "p")  # building is fine: NULLs are a run-time matter
    with pytest.raises(NullCheckError, match=r"collect\(\): column 'name' holds a NULL") as info:
        frame.collect()
    assert info.value.column == "name"
    assert "NULL" in str(info.value.__cause__)
    # a check guards the values a result uses: Spark prunes the unused column and its check
    assert sorted(r.id for r in frame.select(Person.id).collect()) == [1, 2]


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"address": None}, "address"),
        ({"address": {"city": None, "zip": None}}, "address.city"),
        ({"tags": ["a", None]}, "tags[]"),
        ({"scores": None}, "scores"),
    ],
)
def test_nested_nulls_are_checked_too(tmp_path: Path, change: dict[str, object], path: str) -> None:
    LoosePerson.from_rows([{**PEOPLE[0], **change}]).write_parquet(tmp_path / "p")
    with pytest.raises(NullCheckError) as info:
        Person.read_parquet(tmp_path / "p").to_arrow()
    assert info.value.column == path


def test_a_failing_null_check_aborts_a_write(tmp_path: Path) -> None:
    LoosePerson.from_rows([{**PEOPLE[0], "id": None}]).write_parquet(tmp_path / "p")
    with pytest.raises(NullCheckError, match=r"write_parquet\(.*\): column 'id' holds a NULL"):
        Person.read_parquet(tmp_path / "p").write_parquet(tmp_path / "q")


def test_orc_round_trip(tmp_path: Path) -> None:
    _people().write_orc(tmp_path / "o")
    back = Person.read_orc(tmp_path / "o")
    assert back.schema == Person.frame_schema()
    assert [r.model_dump() for r in back.sort(Person.id).collect()] == PEOPLE


# --- CSV --------------------------------------------------------------------------------------------


class Sale(DataFrameModel):
    id: int
    item: str
    price: float | None
    day: datetime.date


def _csv(tmp_path: Path, text: str) -> str:
    path = tmp_path / "sales.csv"
    path.write_text(text)
    return str(path)


def test_csv_columns_match_by_name_extra_ones_are_dropped(tmp_path: Path) -> None:
    path = _csv(tmp_path, "item,extra,day,id,price\npen,x,2024-01-02,1,1.5\nink,y,2024-01-03,2,\n")
    frame = Sale.read_csv(path)
    assert frame.schema == Sale.frame_schema()
    assert frame.sort(Sale.id).collect() == [
        Sale(id=1, item="pen", price=1.5, day=datetime.date(2024, 1, 2)),
        Sale(id=2, item="ink", price=None, day=datetime.date(2024, 1, 3)),
    ]


def test_csv_without_a_header_is_positional(tmp_path: Path) -> None:
    path = _csv(tmp_path, "1,pen,1.5,2024-01-02\n")
    assert Sale.read_csv(path, header=False).collect() == [
        Sale(id=1, item="pen", price=1.5, day=datetime.date(2024, 1, 2))
    ]


def test_csv_missing_column_is_named_when_the_frame_is_built(tmp_path: Path) -> None:
    path = _csv(tmp_path, "id,item,price\n1,pen,1.5\n")
    with pytest.raises(MissingColumnError, match="day: missing from the source; source has: id, item, price"):
        Sale.read_csv(path)


def test_csv_value_that_does_not_parse_is_an_error_not_a_null(tmp_path: Path) -> None:
    path = _csv(tmp_path, "id,item,price,day\n1,pen,cheap,2024-01-02\n")
    frame = Sale.read_csv(path)
    with pytest.raises(MalformedDataError, match=r"collect\(\): a record in .*sales.csv does not parse") as info:
        frame.collect()
    assert "cheap" in str(info.value)


def test_csv_empty_value_in_a_non_null_column_fails_naming_it(tmp_path: Path) -> None:
    path = _csv(tmp_path, "id,item,price,day\n1,,1.5,2024-01-02\n")
    with pytest.raises(NullCheckError, match="column 'item' holds a NULL"):
        Sale.read_csv(path).collect()


def test_csv_refuses_modes_that_hide_bad_values(tmp_path: Path) -> None:
    path = _csv(tmp_path, "id,item,price,day\n")
    with pytest.raises(ValueError, match="mode='PERMISSIVE' would turn unparsable values into NULLs"):
        Sale.read_csv(path, mode="PERMISSIVE")


def test_csv_cannot_hold_nested_columns(tmp_path: Path) -> None:
    with pytest.raises(ColumnTypeError, match=r"CSV holds atomic columns only, not address \(Address\)"):
        Person.read_csv(tmp_path / "none.csv")
    with pytest.raises(ColumnTypeError, match="CSV holds atomic columns only"):
        _people().write_csv(tmp_path / "c")


def test_csv_round_trip_with_options(tmp_path: Path) -> None:
    rows = [Sale(id=1, item="a;b", price=None, day=datetime.date(2024, 5, 6))]
    Sale.from_rows(rows).write_csv(tmp_path / "c", sep=";")
    assert Sale.read_csv(tmp_path / "c", sep=";").collect() == rows


# --- JSON -------------------------------------------------------------------------------------------


def test_json_round_trip_with_nested_columns(tmp_path: Path) -> None:
    _people().write_json(tmp_path / "j")
    back = Person.read_json(tmp_path / "j")
    assert back.schema == Person.frame_schema()
    assert [r.model_dump() for r in back.sort(Person.id).collect()] == PEOPLE


def test_json_absent_key_is_none_when_optional_and_an_error_when_not(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text('{"id": 1, "item": "pen", "day": "2024-01-02"}\n')
    assert Sale.read_json(path).collect() == [Sale(id=1, item="pen", price=None, day=datetime.date(2024, 1, 2))]
    path.write_text('{"id": 1, "price": 2.0, "day": "2024-01-02"}\n')
    with pytest.raises(NullCheckError, match="column 'item' holds a NULL"):
        Sale.read_json(path).collect()


def test_json_value_of_the_wrong_type_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text('{"id": "one", "item": "pen", "day": "2024-01-02"}\n')
    with pytest.raises(MalformedDataError, match="does not parse as the model's types"):
        Sale.read_json(path).collect()


# --- tables and write options -----------------------------------------------------------------------


class Nicknamed(DataFrameModel):
    id: int
    nickname: str


def test_save_as_table_and_read_table_round_trip(spark: SparkSession) -> None:
    name = "pydantable_io_people"
    try:
        _people().save_as_table(name, mode="overwrite")
        _people().filter(Person.id == 1).save_as_table(name, mode="append")
        back = Person.read_table(name)
        assert back.schema == Person.frame_schema()
        assert back.count() == 3
        with pytest.raises(MissingColumnError, match=r"(?s)read_table\('pydantable_io_people'\).*nickname"):
            Nicknamed.read_table(name)
    finally:
        spark.sql(f"DROP TABLE IF EXISTS {name}")


def test_partitioned_write_reads_back(tmp_path: Path) -> None:
    Sale.from_rows(
        [
            Sale(id=1, item="pen", price=1.0, day=datetime.date(2024, 1, 1)),
            Sale(id=2, item="ink", price=None, day=datetime.date(2024, 1, 2)),
        ]
    ).write_parquet(tmp_path / "s", partition_by="item")
    assert sorted(p.name for p in (tmp_path / "s").iterdir() if p.is_dir()) == ["item=ink", "item=pen"]
    back = Sale.read_parquet(tmp_path / "s").sort(Sale.id)
    assert [r.item for r in back.collect()] == ["pen", "ink"]


def test_write_modes(tmp_path: Path) -> None:
    frame = Sale.from_rows([Sale(id=1, item="pen", price=1.0, day=datetime.date(2024, 1, 1))])
    frame.write_parquet(tmp_path / "s")
    with pytest.raises(TargetExistsError, match=r"write_parquet\(.*\): the path already exists and mode='error'"):
        frame.write_parquet(tmp_path / "s")
    frame.write_parquet(tmp_path / "s", mode="append")
    assert Sale.read_parquet(tmp_path / "s").count() == 2
    frame.write_parquet(tmp_path / "s", mode="overwrite")
    frame.write_parquet(tmp_path / "s", mode="ignore")
    assert Sale.read_parquet(tmp_path / "s").count() == 1
    with pytest.raises(ValueError, match="mode='replace' is not one of 'error', 'errorifexists', 'append'"):
        frame.write_parquet(tmp_path / "s", mode="replace")  # type: ignore[arg-type]


def test_partition_by_is_checked_before_writing(tmp_path: Path) -> None:
    with pytest.raises(UnknownColumnError, match="unknown column 'nmae'.*did you mean 'name'"):
        _people().write_parquet(tmp_path / "x", partition_by=["nmae"])
    with pytest.raises(ColumnTypeError, match=r"cannot partition by 'tags' of type list\[str\]"):
        _people().write_parquet(tmp_path / "x", partition_by="tags")
    assert not (tmp_path / "x").exists()


def test_computed_frames_write_their_derived_schema(tmp_path: Path) -> None:
    out = _people().select(Person.id, (F.col("age") + 1).alias("next"), Person.address.struct.field("city"))
    out.write_parquet(tmp_path / "o")

    class Out(DataFrameModel):
        id: int
        next: int | None
        city: str

    assert Out.read_parquet(tmp_path / "o").sort(Out.id).collect() == [
        Out(id=1, next=37, city="London"),
        Out(id=2, next=None, city="Paris"),
    ]


# --- Delta ------------------------------------------------------------------------------------------


def _delta_available(spark: SparkSession) -> bool:
    try:
        spark.range(0).write.format("delta").mode("overwrite").save("/tmp/pydantable-delta-probe")
    except Exception:
        return False
    return True


def test_delta_without_the_jars_says_how_to_get_them(tmp_path: Path, spark: SparkSession) -> None:
    if _delta_available(spark):
        pytest.skip("Delta is on this session's classpath")
    with pytest.raises(PydantableSparkError, match=r"Delta Lake is not on this Spark session's classpath"):
        _people().write_delta(tmp_path / "d")
    with pytest.raises(PydantableSparkError, match=r"pip install 'pydantable-spark\[delta\]'"):
        Person.read_delta(tmp_path / "d")


def test_delta_round_trip(tmp_path: Path, spark: SparkSession) -> None:
    if not _delta_available(spark):
        pytest.skip("Delta Lake jars are not on the classpath (delta-spark fetches them from Maven)")
    _people().write_delta(tmp_path / "d")
    back = Person.read_delta(tmp_path / "d")
    assert back.schema == Person.frame_schema()
    assert [r.model_dump() for r in back.sort(Person.id).collect()] == PEOPLE
