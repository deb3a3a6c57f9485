"""VARIANT columns: declared in models, refused where Spark cannot compare them, carried in and out as JSON.

The catalog's VARIANT functions are checked with every other entry in
``test_catalog.py`` (types against Spark's analyzer, values against PySpark);
here: the column type itself, its transfer between Python and Spark, its
refusals, and files.
"""

from __future__ import annotations

import decimal
import json
import sys
import types
from typing import TYPE_CHECKING, Any

import pytest

from pydantable_spark import DataFrame, DataFrameModel, F, Variant, Window
from pydantable_spark import dtypes as dt
from pydantable_spark.annotations import field_of_annotation
from pydantable_spark.errors import (
    ArgumentTypeError,
    ArgumentValueError,
    ColumnTypeError,
    IncompatibleCastError,
    MalformedDataError,
    RowValidationError,
    UnsupportedTypeError,
)

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from pyspark.sql import SparkSession

D = decimal.Decimal


class Event(DataFrameModel):
    id: int
    payload: Variant
    extra: Variant | None


ROWS: list[dict[str, Any]] = [
    {"id": 1, "payload": {"a": 1, "b": [1, D("2.5"), "x"], "d": None}, "extra": None},
    {"id": 2, "payload": [True, {"k": "v"}], "extra": "text"},
    {"id": 3, "payload": None, "extra": 7},
    {"id": 4, "payload": "ünï", "extra": {"nested": {"deep": [1, 2]}}},
]
"""``payload`` is a non-null VARIANT: its ``None`` is the JSON null; ``extra``'s ``None`` is SQL NULL."""


class Text(DataFrameModel):
    id: int
    text: str


# --- the column type (no Spark) ----------------------------------------------------------------


@pytest.mark.jvm_free
def test_a_variant_field_is_a_variant_column_nullable_or_not() -> None:
    fields = [str(f) for f in Event.from_rows(ROWS).schema]
    assert fields == ["id: bigint not null", "payload: variant not null", "extra: variant"]
    assert str(field_of_annotation("v", Variant | None)) == "v: variant"


@pytest.mark.jvm_free
def test_a_variant_inside_a_list_or_a_nested_model_is_refused_when_the_class_is_defined() -> None:
    with pytest.raises(UnsupportedTypeError, match=r"field 'Bad.items'.*a VARIANT inside array<variant not null>"):

        class Bad(DataFrameModel):
            items: list[Variant]


@pytest.mark.jvm_free
@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda f: f.filter(Event.payload == Event.extra), r"cannot compare column 'Event.payload'.*== column"),
        (lambda f: f.filter(F.col("extra") != F.col("payload")), r"cannot compare column 'extra'"),
        (lambda f: f.group_by(Event.payload).agg(F.count()), r"cannot group by column 'Event.payload'"),
        (lambda f: f.sort(Event.extra), r"cannot sort by column 'Event.extra'"),
        (lambda f: f.unique(), r"unique\(\) cannot compare VARIANT columns \(payload, extra\)"),
        (lambda f: f.select(F.max(Event.payload)), r"F.max\(\): col must be a value with an order"),
        (lambda f: f.select(F.hash(Event.payload)), r"F.hash\(\): cols must be a value without maps or VARIANTs"),
        (lambda f: f.repartition(2, Event.payload), r"cannot partition by column 'Event.payload'"),
        (
            lambda f: f.with_columns(r=F.row_number().over(Window.partition_by(Event.extra).order_by(Event.id))),
            r"a window cannot partition or order by column 'Event.extra'",
        ),
        (lambda f: f.join(f, left_on=Event.payload, right_on=Event.payload), r"join keys cannot be compared"),
    ],
)
def test_variant_is_refused_where_spark_cannot_compare_it(build: Callable[[Any], Any], message: str) -> None:
    frame = Event.from_rows(ROWS)
    with pytest.raises(ColumnTypeError, match=message) as error:
        build(frame)
    if "F." not in message and "join" not in message:  # the catalog's and the join's messages say it their way
        assert "VARIANT is not comparable" in str(error.value)


@pytest.mark.jvm_free
def test_variant_get_reads_as_the_type_it_names_always_nullable() -> None:
    frame = Event.from_rows(ROWS)
    out = frame.select(
        a=F.variant_get(Event.payload, "$.a", "int"),
        b=F.try_variant_get(Event.payload, "$.b[1]", "DECIMAL(5, 2)"),
        t=F.variant_get("extra", "$['x y']", "timestamp"),
        v=F.variant_get(Event.payload, '$["b"]', "variant"),
    )
    assert [str(f) for f in out.schema] == ["a: int", "b: decimal(5,2)", "t: timestamp", "v: variant"]


@pytest.mark.jvm_free
@pytest.mark.parametrize("target", ["int; DROP TABLE t", "struct<a:int>", "array<int>", "text", "", "decimal(40,2)"])
def test_a_target_type_outside_the_known_names_is_refused(target: str) -> None:
    with pytest.raises(ArgumentValueError, match=r"F.variant_get\(\): targetType must name a type: one of bigint"):
        F.variant_get(Event.payload, "$.a", target)


@pytest.mark.jvm_free
@pytest.mark.parametrize("target", [int, dt.Int32(), None, 3])
def test_a_target_type_that_is_no_string_is_refused(target: object) -> None:
    with pytest.raises(ArgumentTypeError, match=r"F.variant_get\(\): targetType must be str"):
        F.variant_get(Event.payload, "$.a", target)  # type: ignore[arg-type]


@pytest.mark.jvm_free
@pytest.mark.parametrize("path", ["a", "$.", "$[x]", "$['']", "$.a[", "$a", ".a", "$..a", "$[-1]"])
def test_a_path_outside_sparks_grammar_is_refused(path: str) -> None:
    with pytest.raises(ArgumentValueError, match=r"F.variant_set\(\): path must be a VARIANT path: '\$' then steps"):
        F.variant_set(Event.payload, path, Event.id)


@pytest.mark.jvm_free
@pytest.mark.parametrize("path", [1, None, b"$.a", ["$.a"]])
def test_a_path_that_is_no_string_is_refused(path: object) -> None:
    with pytest.raises(ArgumentTypeError, match=r"F.variant_get\(\): path (must be a string|takes an expression, str)"):
        F.variant_get(Event.payload, path, "int")  # type: ignore[arg-type]


class Paths(DataFrameModel):
    v: Variant
    path: str


@pytest.mark.jvm_free
def test_a_path_may_be_a_string_column_checked_by_spark() -> None:
    frame = Paths.from_rows([{"v": {"a": 1}, "path": "$.a"}])
    assert str(frame.select(F.variant_get(Paths.v, Paths.path, "int")).schema) == "v: int | None (int)"
    assert str(frame.select(F.variant_set(Paths.v, Paths.path, 1)).schema) == "v: Variant (variant)"
    with pytest.raises(ColumnTypeError, match=r"F.variant_set\(\): path must be a string; got column 'Paths.v'"):
        frame.select(F.variant_set(Paths.v, Paths.v, 1))


@pytest.mark.jvm_free
def test_variant_delete_needs_a_path() -> None:
    with pytest.raises(TypeError, match=r"F.variant_delete\(\) needs at least one paths"):
        F.variant_delete(Event.payload)


@pytest.mark.jvm_free
@pytest.mark.parametrize(
    ("value", "where"),
    [
        (b"\x00", r"value is b'\\x00' \(bytes\)"),
        ({"when": decimal.Decimal("NaN")}, r"value\['when'\] is Decimal\('NaN'\) \(Decimal\)"),
        ([1, {2: "x"}], r"value\[1\] is a dict with a key that is not a str"),
        ({"s": {1, 2}}, r"value\['s'\] is \{1, 2\} \(set\)"),
        (float("inf"), r"value is inf \(float\)"),
    ],
)
def test_a_value_json_cannot_hold_is_refused_naming_row_and_column(value: object, where: str) -> None:
    rows = [ROWS[0], {"id": 9, "payload": 1, "extra": value}]
    expected = rf"^row 1, column 'extra' \(variant\): {where}, which JSON cannot hold"
    with pytest.raises(RowValidationError, match=expected):
        Event.from_rows(rows)


@pytest.mark.jvm_free
@pytest.mark.parametrize(
    ("value", "where"),
    [
        (10**38 + 1, r"value is the int 10{37}1 \(39 digits\)"),
        ({"a": [-(10**38)]}, r"value\['a'\]\[0\] is the int -10{38} \(39 digits\)"),
        (D("1" * 41), r"value is Decimal\('1{41}'\) \(41 significant digits, 0 places\)"),
        ([D("0." + "0" * 38 + "1")], r"value\[0\] is Decimal\('0\.0{38}1'\) \(1 significant digits, 39 places\)"),
    ],
)
def test_a_number_a_variant_would_round_is_refused_naming_row_and_column(value: object, where: str) -> None:
    # Spark keeps such numbers as doubles: 10**38 + 1 came back as Decimal('1.0E+38') (issue 32)
    rows = [ROWS[0], {"id": 9, "payload": 1, "extra": value}]
    with pytest.raises(
        RowValidationError, match=rf"^row 1, column 'extra' \(variant\): {where}, which a VARIANT holds"
    ):
        Event.from_rows(rows)


@pytest.mark.jvm_free
@pytest.mark.parametrize("levels", [dt.VARIANT_MAX_DEPTH + 1, 2_000, 100_000])
def test_a_value_nested_deeper_than_spark_parses_is_refused_naming_the_limit(levels: int) -> None:
    deep: Any = 1
    for _ in range(levels):
        deep = [deep] if levels % 2 else {"k": deep}
    message = r"^row 1, column 'extra' \(variant\): value nests lists and dicts more than 1000 levels deep"
    with pytest.raises(RowValidationError, match=message):  # was a RecursionError
        Event.from_rows([ROWS[0], {"id": 9, "payload": 1, "extra": deep}])


@pytest.mark.jvm_free
def test_a_string_column_is_not_reconciled_to_a_variant() -> None:
    class AsText(DataFrameModel):
        id: int
        payload: str
        extra: str | None

    class Wanted(DataFrameModel):
        id: int
        payload: Variant
        extra: Variant | None

    frame = AsText.from_rows([{"id": 1, "payload": "{}", "extra": None}])
    with pytest.raises(IncompatibleCastError, match=r"only a VARIANT reconciles with a VARIANT; parse JSON text"):
        frame.as_model(Wanted)
    assert frame.with_columns(payload=F.parse_json(AsText.payload), extra=F.parse_json("extra")).as_model(Wanted)


# --- values in and out (Spark) ------------------------------------------------------------------


def _exact(value: Any) -> Any:
    """``value`` as collected: JSON numbers with a fraction as ``Decimal``."""
    return json.loads(json.dumps(value, default=str), parse_float=D) if value is not None else None


def test_rows_go_in_and_come_back_as_their_json_values(spark: SparkSession, agrees: Any) -> None:
    frame = Event.from_rows(ROWS)
    agrees(frame)
    rows = frame.sort(Event.id).collect()
    assert [r.payload for r in rows] == [
        {"a": 1, "b": [1, D("2.5"), "x"], "d": None},
        [True, {"k": "v"}],
        None,  # the JSON null
        "ünï",
    ]
    assert [r.extra for r in rows] == [None, "text", 7, {"nested": {"deep": [1, 2]}}]
    assert frame.sort(Event.id).to_dict()["payload"][0] == rows[0].payload
    assert [r.payload for batch in frame.sort(Event.id).stream(batch_size=3) for r in batch] == [
        r.payload for r in rows
    ]


def test_spark_sees_a_variant_and_a_sql_null_apart_from_a_json_null(spark: SparkSession) -> None:
    from pyspark.sql import functions as sf

    sdf = Event.from_rows(ROWS).to_spark()
    assert sdf.schema.simpleString() == "struct<id:bigint,payload:variant,extra:variant>"
    got = sdf.orderBy("id").select(sf.is_variant_null("payload"), sf.col("extra").isNull()).collect()
    assert [tuple(r) for r in got] == [(False, True), (False, False), (True, False), (False, False)]
    values = [r[0].toPython() for r in sdf.orderBy("id").select("payload").collect()]
    assert values == [r.payload for r in Event.from_rows(ROWS).sort(Event.id).collect()]  # VariantVal.toPython()


def test_to_arrow_gives_the_json_text(spark: SparkSession) -> None:
    table = Event.from_rows(ROWS).sort(Event.id).to_arrow()
    assert str(table.schema.field("payload").type) == "string"
    texts = ['{"a":1,"b":[1,2.5,"x"],"d":null}', '[true,{"k":"v"}]', "null", '"ünï"']
    assert table.column("payload").to_pylist() == texts
    assert table.column("extra").to_pylist()[:2] == [None, '"text"']


def test_numbers_and_nesting_at_the_variant_limits_go_in_and_come_back_exactly(spark: SparkSession) -> None:
    deep: Any = "leaf"
    for _ in range(dt.VARIANT_MAX_DEPTH - 1):
        deep = [deep]
    values: list[Any] = [
        10**38 - 1,
        -(10**38 - 1),
        D("1" * 38),
        D("0." + "1" * 38),
        D("1E-38"),
        D("-12345678901234567890.123456789012345678"),
        D("1.5" + "0" * 50),  # trailing zeros are no digits
        {"k": deep},  # 1,000 levels: as deep as Spark parses, and deeper than json.loads reads here
    ]
    rows = [{"id": i, "payload": v, "extra": None} for i, v in enumerate(values)]
    got = [r.payload for r in Event.from_rows(rows).sort(Event.id).collect()]
    assert got[:-1] == values[:-1]
    levels, inner = 0, got[-1]["k"]
    while isinstance(inner, list):
        levels, inner = levels + 1, inner[0]
    assert (levels, inner) == (dt.VARIANT_MAX_DEPTH - 1, "leaf")


def test_variant_get_matches_pyspark(spark: SparkSession, agrees: Any) -> None:
    from pyspark.sql import functions as sf

    frame = Event.from_rows(ROWS)
    out = frame.select(
        Event.id,
        a=F.variant_get(Event.payload, "$.a", "int"),
        b=F.try_variant_get(Event.payload, "$.b[1]", "decimal(5,2)"),
        k=F.variant_get(Event.payload, "$[1].k", "string"),
        s=F.schema_of_variant(Event.payload),
        n=F.is_variant_null(Event.extra),
    ).sort("id")
    agrees(out)
    plain = (
        frame.to_spark()
        .select(
            sf.variant_get("payload", "$.a", "int"),
            sf.try_variant_get("payload", "$.b[1]", "decimal(5,2)"),
            sf.variant_get("payload", "$[1].k", "string"),
            sf.schema_of_variant("payload"),
            sf.is_variant_null("extra"),
            "id",
        )
        .orderBy("id")
    )
    assert [list(r.model_dump().values())[1:] for r in out.collect()] == [list(r)[:-1] for r in plain.collect()]


def test_malformed_json_fails_parse_json_and_is_null_for_try_parse_json(spark: SparkSession) -> None:
    frame = Text.from_rows([{"id": 1, "text": '{"a": [1, 2]}'}, {"id": 2, "text": "{nope"}])
    tried = frame.select(Text.id, v=F.try_parse_json(Text.text)).sort(Text.id).collect()
    assert [r.v for r in tried] == [{"a": [1, 2]}, None]
    with pytest.raises(MalformedDataError, match=r"Malformed records are detected in record parsing: \{nope"):
        frame.select(v=F.parse_json(Text.text)).collect()


def test_parquet_keeps_the_variant(spark: SparkSession, tmp_path: Path) -> None:
    frame = Event.from_rows(ROWS)
    frame.write_parquet(str(tmp_path / "events"))
    back = Event.read_parquet(str(tmp_path / "events"))
    assert [r.model_dump() for r in back.sort(Event.id).collect()] == [
        r.model_dump() for r in frame.sort(Event.id).collect()
    ]
    assert DataFrame.from_spark(back.to_spark()).schema == frame.schema


def test_a_variant_nested_in_a_result_is_not_fetched_yet(spark: SparkSession) -> None:
    frame = Event.from_rows(ROWS).select(both=F.array(Event.payload, Event.payload))
    with pytest.raises(NotImplementedError, match=r"column\(s\) 'both' hold a VARIANT inside a struct, list or map"):
        frame.collect()


@pytest.mark.jvm_free
def test_printed_model_source_declares_variant_columns() -> None:
    from pydantable_spark.modelgen import model_source

    source = model_source([dt.Field("id", dt.Int64(), False), dt.Field("payload", dt.Variant(), True)], "Logged")
    assert "from pydantable_spark import DataFrameModel, Variant\n" in source
    assert "    payload: Variant | None\n" in source
    module = types.ModuleType("printed_variant_model")
    sys.modules[module.__name__] = module  # pydantic resolves the annotations in the class's module
    exec(source, module.__dict__)
    assert [str(f) for f in module.Logged.from_rows([{"id": 1, "payload": [1]}]).schema] == [
        "id: bigint not null",
        "payload: variant",
    ]


def test_drop_nulls_keeps_a_variant_nullable_as_spark_does(spark: SparkSession, agrees: Any) -> None:
    kept = Event.from_rows(ROWS).drop_nulls()
    agrees(kept)
    assert [str(f) for f in kept.schema] == ["id: bigint not null", "payload: variant not null", "extra: variant"]
    assert sorted(r.id for r in kept.collect()) == [2, 3, 4]


def test_a_variant_cast_to_a_string_is_its_text(spark: SparkSession, agrees: Any) -> None:
    out = Event.from_rows(ROWS).select(Event.id, text=Event.extra.cast(str)).sort("id")
    agrees(out)
    assert [r.text for r in out.collect()] == [None, "text", "7", '{"nested":{"deep":[1,2]}}']


def test_numbers_come_back_as_the_json_text_spark_writes(spark: SparkSession) -> None:
    """A double inside a VARIANT comes back as a Decimal of its text; a long number exact (docs/nested.md)."""
    text = '{"double": 1.5e-3, "exact": 2.50, "long": 123456789012345678901234567890, "int": 7}'
    (row,) = Text.from_rows([{"id": 1, "text": text}]).select(v=F.parse_json(Text.text)).collect()
    assert row.v == {"double": D("0.0015"), "exact": D("2.50"), "long": 123456789012345678901234567890, "int": 7}
    assert type(row.v["long"]) is int
