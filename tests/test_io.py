"""Typed IO on real Spark: files and tables read with the model's schema, reconciled strictly."""

from __future__ import annotations

import datetime
import decimal
import os
from typing import TYPE_CHECKING, Annotated, Any

import pytest
from pydantic import BaseModel, Field

from pydantable_spark import DataFrame, DataFrameModel, F
from pydantable_spark.errors import (
    AmbiguousColumnError,
    ColumnTypeError,
    IncompatibleCastError,
    LossyCastError,
    MalformedDataError,
    MissingColumnError,
    NullCheckError,
    PydantableSparkError,
    TargetExistsError,
    UnknownColumnError,
    WriteError,
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


class _Line(BaseModel):
    sku: str
    qty: int | None


class _Order(DataFrameModel):
    id: int
    note: str | None
    lines: list[_Line]
    ship_to: _Line | None


@pytest.mark.parametrize(
    ("record", "where", "key"),
    [
        ('{"id": 1, "Note": "x", "lines": []}', "note", "Note"),
        ('{"id": 1, "lines": [{"sku": "a"}, {"sku": "b", "QTY": 2}]}', r"lines\.qty", "QTY"),
        ('{"id": 1, "lines": [], "ship_to": {"Sku": "a", "qty": 1}}', r"ship_to\.sku", "Sku"),
    ],
    ids=["top-level", "in-a-list-of-objects", "in-an-object"],
)
def test_json_key_differing_from_a_field_only_in_case_is_an_error(
    tmp_path: Path, record: str, where: str, key: str
) -> None:
    # without the check, the Optional field would read as None and the value be lost
    path = tmp_path / "o.json"
    path.write_text('{"id": 0, "note": null, "lines": [{"sku": "z", "qty": null}]}\n' + record + "\n[1, 2]\n")
    with pytest.raises(
        MissingColumnError, match=rf"{where}: the JSON records have key '{key}'.*name the field '{key}'"
    ):
        _Order.read_json(path)


def test_json_keys_in_exact_case_and_unknown_extra_keys_read_as_before(tmp_path: Path) -> None:
    path = tmp_path / "o.json"
    path.write_text('{"id": 1, "note": "n", "extra": {"Note": 1}, "lines": [{"sku": "a", "qty": 2, "more": 0}]}\n')
    assert _Order.read_json(path).collect() == [_Order(id=1, note="n", lines=[_Line(sku="a", qty=2)], ship_to=None)]


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


class Keyed(DataFrameModel):
    k: int
    v: int


@pytest.mark.parametrize("fmt", ["parquet", "orc", "csv", "json"])
def test_a_partition_column_the_files_also_hold_is_refused(spark: SparkSession, tmp_path: Path, fmt: str) -> None:
    # Spark read the directory's k (1) and ignored the files' (5, 6), with no error
    rows = spark.createDataFrame([(5, 1), (6, 2)], "k bigint, v bigint")
    writer = rows.write.format(fmt).option("header", "true")
    writer.save(str(tmp_path / "t" / "k=1"))
    reader = getattr(Keyed, f"read_{fmt}")
    with pytest.raises(AmbiguousColumnError, match=r"column 'k' is both a partition directory \(k=\.\.\./\)"):
        reader(tmp_path / "t")
    own = reader(tmp_path / "t", recursiveFileLookup=True)  # the way out the message names: the files' own k
    assert sorted(own.to_dict()["k"]) == [5, 6]
    Keyed.from_rows([{"k": 2, "v": 3}]).select(Keyed.v).as_model(Loose).write_parquet(tmp_path / "u" / "k=2")
    assert Keyed.read_parquet(tmp_path / "u").to_dict() == {"k": [2], "v": [3]}  # directory-only k: as before


class Loose(DataFrameModel):
    v: int


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
    with pytest.raises(PydantableSparkError, match=r"spark.jars.packages.*docs/lakehouse.md"):
        Person.read_delta(tmp_path / "d")
    with pytest.raises(PydantableSparkError, match=r"Iceberg is not on this Spark session's classpath"):
        _people().save_as_table("people_iceberg", format="iceberg")


# --- strict readers and lossless round trips (issue 10 item 3) ---------------------------------


class Priced(DataFrameModel):
    item: str | None
    price: Annotated[decimal.Decimal, Field(max_digits=10, decimal_places=2)] | None


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ('{"item": 12}', "column 'item': a JSON bigint where the model wants a string"),
        ('{"item": {"a": 1}}', "column 'item': a JSON object<a: bigint> where the model wants a string"),
        ('{"item": true}', "column 'item': a JSON boolean where the model wants a string"),
        (
            '{"price": 1.555}',
            r"column 'price': the value 1.555 has more than 2 digits after the point.*allow_lossy=\['price'\]",
        ),
        ('{"price": 1.5e-3}', "column 'price': the value 1.5e-3 has more than 2 digits"),
        ('{"price": 123456789012}', r"the value 123456789012 is not a decimal\(10, 2\)"),
    ],
)
def test_json_values_spark_would_convert_silently_are_errors(tmp_path: Path, record: str, message: str) -> None:
    (tmp_path / "bad.json").write_text(record + "\n")
    with pytest.raises(MalformedDataError, match=message) as info:
        Priced.read_json(str(tmp_path / "bad.json")).collect()
    assert info.value.__cause__ is not None


def test_json_strings_are_checked_at_any_depth(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text(
        '{"id": 1, "name": "x", "age": null, "address": {"city": 5, "zip": null}, "tags": [], "scores": {}}\n'
    )
    with pytest.raises(MalformedDataError, match="column 'address.city': a JSON bigint"):
        Person.read_json(str(tmp_path / "a.json")).collect()
    (tmp_path / "b.json").write_text(
        '{"id": 1, "name": "x", "address": {"city": "c"}, "tags": ["a", false], "scores": {}}\n'
    )
    with pytest.raises(MalformedDataError, match=r"column 'tags\[\]': a JSON boolean"):
        Person.read_json(str(tmp_path / "b.json")).collect()


def test_decimals_round_only_when_allow_lossy_names_the_column(tmp_path: Path) -> None:
    (tmp_path / "p.json").write_text('{"item": "a", "price": 1.555}\n{"item": "b", "price": 2.50}\n')
    (tmp_path / "p.csv").write_text("item,price\na,1.555\nb,2.50\n")
    for fmt in ("json", "csv"):
        path = str(tmp_path / f"p.{fmt}")
        with pytest.raises(MalformedDataError, match="the value 1.555 has more than 2 digits"):
            getattr(Priced, f"read_{fmt}")(path).collect()
        rows = getattr(Priced, f"read_{fmt}")(path, allow_lossy=["price"]).sort("item").collect()
        assert [r.price for r in rows] == [decimal.Decimal("1.56"), decimal.Decimal("2.50")]


def test_a_decimal_in_exponent_form_is_checked_at_its_true_scale(tmp_path: Path) -> None:
    # 1e-41 was compared at 30 places, where it is 0: read as 0.00 with no error (issue 32)
    (tmp_path / "tiny.json").write_text('{"item": "a", "price": 1e-41}\n')
    (tmp_path / "tiny.csv").write_text("item,price\na,1e-41\n")
    for fmt in ("json", "csv"):
        with pytest.raises(MalformedDataError, match=r"column 'price': the value 1e-41 has more than 2 digits"):
            getattr(Priced, f"read_{fmt}")(str(tmp_path / f"tiny.{fmt}")).collect()
    (tmp_path / "whole.csv").write_text("item,price\na,100e-2\nb,1.5E+1\n")
    assert [r.price for r in Priced.read_csv(str(tmp_path / "whole.csv")).sort("item").collect()] == [1, 15]


def test_csv_reads_rfc_4180_by_default(tmp_path: Path) -> None:
    (tmp_path / "rfc.csv").write_text('item,price\n"a ""quoted"" word",1\n"",2\n,3\n" spaced ",4\n"two\nlines",5\n')
    rows = Priced.read_csv(str(tmp_path / "rfc.csv")).sort("price").collect()
    assert [r.item for r in rows] == ['a "quoted" word', "", None, " spaced ", "two\nlines"]


def test_csv_with_crlf_lines_keeps_a_crlf_inside_a_quoted_field(tmp_path: Path) -> None:
    # Spark's parser made the CR LF inside the quotes LF when the file's lines end with CR LF
    (tmp_path / "win.csv").write_bytes(b'item,price\r\n"x\r\ny",1\r\nplain,2\r\n"a\nb",3\r\n"c\rd",4\r\n')
    rows = Priced.read_csv(str(tmp_path / "win.csv")).sort("price").collect()
    assert [r.item for r in rows] == ["x\r\ny", "plain", "a\nb", "c\rd"]


def test_csv_files_with_other_line_endings_in_one_read_are_an_error_not_lost_rows(tmp_path: Path) -> None:
    (tmp_path / "a.csv").write_bytes(b'item,price\r\n"x\r\ny",1\r\n')
    (tmp_path / "b.csv").write_bytes(b"item,price\nz,2\nw,3\n")
    with pytest.raises(MalformedDataError, match="the header line of .*b.csv does not name the first file's columns"):
        Priced.read_csv(tmp_path).collect()
    assert sorted(r.price for r in Priced.read_csv(tmp_path / "b.csv", lineSep="\n").collect()) == [2, 3]


def test_csv_quote_escaped_by_a_backslash_is_malformed_not_odd_text(tmp_path: Path) -> None:
    (tmp_path / "bs.csv").write_bytes(b'item,price\n"he said \\"hi\\"",1\n5" screen,2\n')
    with pytest.raises(MalformedDataError, match=r"a quoted field .*holds a quote that is not doubled"):
        Priced.read_csv(str(tmp_path / "bs.csv")).collect()
    spark_way = Priced.read_csv(str(tmp_path / "bs.csv"), unescapedQuoteHandling="STOP_AT_DELIMITER")
    assert [r.item for r in spark_way.sort("price").collect()] == ['"he said \\"hi\\""', '5" screen']


def test_readers_match_names_case_sensitively_with_a_did_you_mean(tmp_path: Path) -> None:
    (tmp_path / "c.csv").write_text("Item,price\na,1\n")
    with pytest.raises(MissingColumnError, match="item: missing from the source.*did you mean 'Item'"):
        Priced.read_csv(str(tmp_path / "c.csv"))
    Priced.from_rows([{"item": "a", "price": None}]).as_model(Priced).to_spark().withColumnRenamed(
        "item", "ITEM"
    ).write.parquet(str(tmp_path / "p"))
    with pytest.raises(MissingColumnError, match="item: missing from the source.*did you mean 'ITEM'"):
        Priced.read_parquet(str(tmp_path / "p"))


@pytest.mark.parametrize("fmt", ["parquet", "orc"])
def test_multi_file_directories_are_checked_file_by_file(tmp_path: Path, spark: SparkSession, fmt: str) -> None:
    class Named(DataFrameModel):
        id: int
        name: str

    class MaybeNamed(DataFrameModel):
        id: int
        name: str | None

    getattr(spark.createDataFrame([(1, "a")], "id bigint, name string").write, fmt)(str(tmp_path / "d" / "a"))
    getattr(spark.createDataFrame([(2,)], "id bigint").write, fmt)(str(tmp_path / "d" / "b"))
    getattr(spark.createDataFrame([(3, 5)], "id bigint, name bigint").write, fmt)(str(tmp_path / "d" / "c"))
    two = [str(tmp_path / "d" / "a"), str(tmp_path / "d" / "b")]
    # a file lacking a non-null column is an error; lacking an Optional one, its rows have None there
    with pytest.raises(NullCheckError, match="column 'name' holds a NULL"):
        getattr(Named, f"read_{fmt}")(two).collect()
    assert getattr(MaybeNamed, f"read_{fmt}")(two).sort("id").collect() == [
        MaybeNamed(id=1, name="a"),
        MaybeNamed(id=2, name=None),
    ]
    clash = [str(tmp_path / "d" / "a"), str(tmp_path / "d" / "c")]
    with pytest.raises(
        IncompatibleCastError, match="files disagree on a column's type \\(name: string in one file, bigint"
    ):
        getattr(MaybeNamed, f"read_{fmt}")(clash)


def test_bigint_to_double_is_lossy(tmp_path: Path, spark: SparkSession) -> None:
    class Big(DataFrameModel):
        n: int

    class Approx(DataFrameModel):
        n: float

    Big.from_rows([{"n": 2**53 + 1}]).write_parquet(str(tmp_path / "b"))
    with pytest.raises(LossyCastError, match=r"n: converting bigint \(int\) to double.*allow_lossy=\['n'\]"):
        Approx.read_parquet(str(tmp_path / "b"))
    assert Approx.read_parquet(str(tmp_path / "b"), allow_lossy=["n"]).collect() == [Approx(n=2.0**53)]


def test_a_partition_value_that_is_an_empty_string_is_refused(tmp_path: Path) -> None:
    class Part(DataFrameModel):
        id: int
        key: str | None

    path = str(tmp_path / "w")
    Part.from_rows([{"id": 1, "key": "a"}, {"id": 2, "key": None}]).write_parquet(path, partition_by="key")
    with pytest.raises(WriteError, match="partition column 'key' holds an empty string") as info:
        Part.from_rows([{"id": 3, "key": ""}]).write_parquet(path, partition_by="key", mode="overwrite")
    assert info.value.__cause__ is not None
    assert Part.read_parquet(path).sort("id").collect() == [Part(id=1, key="a"), Part(id=2, key=None)]


class _Reading(BaseModel):
    at: float
    tags: dict[str, float] | None


class _Zeros(DataFrameModel):
    id: int
    unit_price: Annotated[float, Field(alias="unit price")]
    readings: list[_Reading]
    label: str


_ZERO_ROWS = [
    {"id": 1, "unit price": 0.0, "readings": [{"at": 0.0, "tags": {"a": 0.0}}], "label": "-0.0"},
    {"id": 2, "unit price": 1.5, "readings": [], "label": "x"},
]


@pytest.mark.parametrize(
    ("column", "change"),
    [
        ("unit price", {"unit price": -0.0}),
        ("readings", {"readings": [{"at": 1.0, "tags": None}, {"at": -0.0, "tags": None}]}),
        ("readings", {"readings": [{"at": 0.0, "tags": {"b": 2.0, "a": -0.0}}]}),
    ],
    ids=["top-level", "in-a-struct-in-a-list", "a-map-value"],
)
def test_orc_writer_refuses_negative_zero_that_its_reader_may_not_give_back(
    tmp_path: Path, column: str, change: dict[str, Any]
) -> None:
    path = str(tmp_path / "z")
    old = _Zeros.from_rows(_ZERO_ROWS)
    old.write_orc(path)
    # Spark's ORC reader reads a batch of equal values as one repeated value, and -0.0 == 0.0
    rows = [_ZERO_ROWS[0] | change, _ZERO_ROWS[1]]
    with pytest.raises(WriteError, match=rf"column '{column}' holds -0.0, which Spark's ORC reader") as info:
        _Zeros.from_rows(rows).write_orc(path, mode="overwrite")
    assert info.value.__cause__ is not None
    assert _Zeros.read_orc(path).sort("id").collect() == old.collect()
    # Parquet keeps the sign, and a string "-0.0" is no float
    _Zeros.from_rows(rows).write_parquet(str(tmp_path / "p"))
    assert _Zeros.read_parquet(str(tmp_path / "p")).sort("id").collect() == _Zeros.from_rows(rows).collect()


def test_a_partition_column_of_any_name_is_checked(tmp_path: Path) -> None:
    class Odd(DataFrameModel):
        id: int
        key: Annotated[str, Field(alias="it's ${x}")]

    with pytest.raises(WriteError, match='partition column "it\'s \\$\\{x\\}" holds an empty string'):
        Odd.from_rows([{"id": 1, "it's ${x}": ""}]).write_parquet(str(tmp_path / "o"), partition_by="it's ${x}")
    assert not (tmp_path / "o").exists()


def test_csv_writer_refuses_bytes_saying_why(tmp_path: Path) -> None:
    class Blob(DataFrameModel):
        data: bytes

    with pytest.raises(ColumnTypeError, match=r"not data \(bytes\) \(CSV has no nesting and no binary encoding\)"):
        Blob.from_rows([{"data": b"x"}]).write_csv(str(tmp_path / "b"))


class OddInner(DataFrameModel):
    b_c: int = Field(alias="b c`.d")


class Odd(DataFrameModel):
    a: int = Field(alias="it's ${x}")
    q: str = Field(alias='say "hi"')
    s: OddInner = Field(alias="s.p")


class OddFlat(DataFrameModel):
    a: int = Field(alias="it's ${x}")
    q: str = Field(alias='say "hi", `now`')


def test_json_and_csv_round_trip_columns_of_any_name(tmp_path: Path) -> None:
    # the strict text read named the columns by their Spark names on a frame that had the file's
    Odd.from_rows([{"it's ${x}": 1, 'say "hi"': "x", "s.p": {"b c`.d": 2}}]).write_json(tmp_path / "j")
    assert Odd.read_json(tmp_path / "j").to_dict() == {"it's ${x}": [1], 'say "hi"': ["x"], "s.p": [{"b c`.d": 2}]}
    OddFlat.from_rows([{"it's ${x}": 1, 'say "hi", `now`': "x"}]).write_csv(tmp_path / "c")
    assert OddFlat.read_csv(tmp_path / "c").collect() == [
        OddFlat.model_validate({"it's ${x}": 1, 'say "hi", `now`': "x"})
    ]


# --- schema evolution: one rule for every reader (issue 21) -------------------------------------


class EventV1(DataFrameModel):
    id: int
    note: str | None


class EventV2(DataFrameModel):
    """A field added later, with the default None: data written before it reads it as NULL."""

    id: int
    note: str | None
    channel: str | None = None


class EventRequired(DataFrameModel):
    """The same field without a default: required, as in Pydantic, so data lacking it is an error."""

    id: int
    note: str | None
    channel: str | None


OLD_EVENTS = [{"id": 1, "note": "a"}, {"id": 2, "note": None}]


@pytest.mark.parametrize("fmt", ["parquet", "orc", "csv", "json"])
def test_a_field_added_with_default_none_reads_as_null_from_older_files(tmp_path: Path, fmt: str, agrees: Any) -> None:
    getattr(EventV1.from_rows(OLD_EVENTS), f"write_{fmt}")(tmp_path / "e")
    frame = getattr(EventV2, f"read_{fmt}")(tmp_path / "e")
    assert frame.schema == EventV2.frame_schema()
    assert [r.model_dump() for r in frame.sort("id").collect()] == [{**e, "channel": None} for e in OLD_EVENTS]
    agrees(frame)


@pytest.mark.parametrize("fmt", ["parquet", "orc", "csv"])
def test_a_field_added_without_a_default_is_still_required(tmp_path: Path, fmt: str) -> None:
    getattr(EventV1.from_rows(OLD_EVENTS), f"write_{fmt}")(tmp_path / "e")
    with pytest.raises(
        MissingColumnError, match=r"(?s)channel: missing from the source.*`channel: \.\.\. \| None = None`"
    ):
        getattr(EventRequired, f"read_{fmt}")(tmp_path / "e")


class EventCased(DataFrameModel):
    id: int
    note: str | None
    Channel: str


def test_a_field_differing_from_a_column_only_in_case_is_missing_with_a_did_you_mean(
    tmp_path: Path, spark: SparkSession
) -> None:
    """Parquet, ORC and CSV as JSON: not a NULL column beside 'Channel' (Spark found the two names ambiguous)."""
    cased = EventCased.from_rows([{**e, "Channel": "web"} for e in OLD_EVENTS])
    readers = {}
    for fmt in ("parquet", "orc", "csv", "json"):
        getattr(cased, f"write_{fmt}")(tmp_path / fmt)
        readers[fmt] = getattr(EventV2, f"read_{fmt}"), getattr(EventRequired, f"read_{fmt}"), tmp_path / fmt
    cased.save_as_table("events_cased_evolution")
    try:
        readers["table"] = EventV2.read_table, EventRequired.read_table, "events_cased_evolution"
        for fmt, (with_default, required, where) in readers.items():
            said = "JSON records have key" if fmt == "json" else "data has column"
            message = rf"channel: the {said} 'Channel'; did you mean 'Channel'\?.*Field\(alias='Channel'\)"
            with pytest.raises(MissingColumnError, match=message):
                with_default(where)
            with pytest.raises(MissingColumnError, match=r"did you mean 'Channel'\?") as info:
                required(where)
            assert "= None`" not in str(info.value), fmt  # no hint to add a default: that would not read 'Channel'
    finally:
        spark.sql("DROP TABLE IF EXISTS events_cased_evolution")


def test_a_directory_partly_covered_by_a_new_field_reads_null_for_the_older_files(tmp_path: Path) -> None:
    EventV1.from_rows(OLD_EVENTS).write_parquet(tmp_path / "e")
    EventV2.from_rows([{"id": 3, "note": "c", "channel": "web"}]).write_parquet(
        tmp_path / "e", mode="append", mergeSchema=True
    )
    for model in (EventV2, EventRequired):  # the column exists in the merged schema: both read it
        rows = [r.model_dump() for r in model.read_parquet(tmp_path / "e").sort("id").collect()]
        assert rows == [{**e, "channel": None} for e in OLD_EVENTS] + [{"id": 3, "note": "c", "channel": "web"}]


class EventMisspelt(DataFrameModel):
    """``channel`` misspelt, with the default None: it would read NULL in every row beside the unread 'channel'."""

    id: int
    note: str | None
    chanel: str | None = None


class EventAliased(DataFrameModel):
    """The alias is the field's name in the data: 'chanel' is compared, not 'channel_name'."""

    id: int
    channel_name: str | None = Field(default=None, alias="chanel")


class EventNotes(DataFrameModel):
    """'notes' is one edit from 'note', but the field 'note' reads that column: no misspelling, 'notes' is new."""

    id: int
    note: str | None
    notes: str | None = None


def test_a_misspelt_field_with_default_none_is_missing_with_a_did_you_mean_in_every_reader(
    tmp_path: Path, spark: SparkSession
) -> None:
    """Issue 36: the evolution rule reads NULL only when no unread column has a near name; absent= opts out."""
    data = EventV2.from_rows([{**e, "channel": "web"} for e in OLD_EVENTS])
    readers = {}
    for fmt in ("parquet", "orc", "csv", "json"):
        getattr(data, f"write_{fmt}")(tmp_path / fmt)
        readers[fmt] = getattr(EventMisspelt, f"read_{fmt}"), tmp_path / fmt
    data.save_as_table("events_misspelt_evolution")
    try:
        readers["table"] = EventMisspelt.read_table, "events_misspelt_evolution"
        message = (
            r"chanel: missing from the data, which has column 'channel' that no field reads; did you mean "
            r"'channel'\?.*Field\(alias='channel'\).*absent=\['chanel'\]"
        )
        for fmt, (read, where) in readers.items():
            with pytest.raises(MissingColumnError, match=message):
                read(where)
            assert read(where, absent=["chanel"]).schema == EventMisspelt.frame_schema(), fmt
    finally:
        spark.sql("DROP TABLE IF EXISTS events_misspelt_evolution")
    chosen = EventMisspelt.read_json(tmp_path / "json", absent=("chanel",)).sort("id").collect()
    assert [(r.id, r.chanel) for r in chosen] == [(1, None), (2, None)]
    with pytest.raises(MissingColumnError, match=r"chanel: missing from the data.*absent=\['chanel'\]"):
        EventAliased.read_parquet(tmp_path / "parquet")
    aliased = EventAliased.read_parquet(tmp_path / "parquet", absent={"channel_name"}).sort("id").collect()
    assert [(r.id, r.channel_name) for r in aliased] == [(1, None), (2, None)]
    notes = EventNotes.read_parquet(tmp_path / "parquet").sort("id").collect()
    assert [(r.note, r.notes) for r in notes] == [("a", None), (None, None)]


def test_a_catalog_table_follows_the_same_rule(spark: SparkSession) -> None:
    EventV1.from_rows(OLD_EVENTS).save_as_table("events_v1_evolution")
    try:
        assert [r.channel for r in EventV2.read_table("events_v1_evolution").collect()] == [None, None]
        with pytest.raises(MissingColumnError, match="channel"):
            EventRequired.read_table("events_v1_evolution")
    finally:
        spark.sql("DROP TABLE IF EXISTS events_v1_evolution")


@pytest.mark.skipif(
    os.environ.get("PYDANTABLE_TEST_CONNECT", "") not in ("", "0"), reason="reads the executed plan through the JVM"
)
def test_a_new_field_read_as_null_keeps_filters_pushed_to_the_scan(tmp_path: Path) -> None:
    EventV1.from_rows(OLD_EVENTS).write_parquet(tmp_path / "e")
    frame = EventV2.read_parquet(tmp_path / "e").filter(EventV2.note == "a")
    plan = frame.to_spark()._jdf.queryExecution().executedPlan().toString()
    assert "PushedFilters: [IsNotNull(note), EqualTo(note,a)]" in plan
    assert [r.channel for r in frame.collect()] == [None]
