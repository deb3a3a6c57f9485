"""Portable Substrait: every function an exported plan calls fits its definition in the extension YAMLs.

``tools/substrait_functions.py`` resolves each call by URN and name to the standard YAMLs of PyPI's
``substrait-extensions`` (or this project's ``functions_spark.yaml``) and matches its arguments, options and
result type with an implementation; ``substrait-validator`` does not (its diagnostic 0001). Checked here for
every frame of ``frames.py`` that exports, a few frames of the calls those lack, and the 22 TPC-H queries.
"""

from __future__ import annotations

import contextlib
import datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Annotated, Any

import jsonschema
import pytest
import yaml
from frames import Sale, frames, local_frames, sales

from benchmarks.tpch.models import TABLES
from benchmarks.tpch.queries import QUERIES, Tables
from pydantable_spark import DataFrameModel, F, Window
from pydantable_spark import dtypes as dt
from pydantable_spark.errors import UnsupportedEngineError
from pydantable_spark.substrait import to_substrait
from pydantable_spark.substrait.kernels.spec import Session
from pydantable_spark.substrait.relations import export
from tools import spark_extension
from tools.substrait_functions import Extension, check, load_extensions, own_extension
from tools.substrait_types import Type, match, parse_type, result

if TYPE_CHECKING:
    from substrait.plan_pb2 import Plan

    from pydantable_spark import DataFrame

pytestmark = pytest.mark.jvm_free


@pytest.fixture(scope="module")
def extensions() -> dict[str, Extension]:
    return load_extensions([own_extension()])


class Money(DataFrameModel):
    id: int
    price: Annotated[Decimal, dt.Decimal(15, 2)]
    rate: Annotated[Decimal, dt.Decimal(5, 4)] | None
    huge: Annotated[Decimal, dt.Decimal(36, 2)]
    total: Annotated[Decimal, dt.Decimal(38, 4)]
    small: Annotated[int, dt.Int32()]
    ratio: Annotated[float, dt.Float32()]
    day: datetime.date
    flag: bool


MONEY = [
    {
        "id": 1,
        "price": Decimal("10.25"),
        "rate": Decimal("0.0500"),
        "huge": Decimal("1.00"),
        "total": Decimal("7.0000"),
        "small": 3,
        "ratio": 0.5,
        "day": datetime.date(2024, 1, 2),
        "flag": True,
    }
]


class Stamp(DataFrameModel):
    id: int
    at: datetime.datetime
    wall: Annotated[datetime.datetime, dt.DatetimeNTZ()] | None


STAMPS = [{"id": 1, "at": datetime.datetime(2024, 3, 1, tzinfo=datetime.timezone.utc), "wall": None}]


def portable_frames() -> dict[str, DataFrame[Any]]:
    """Calls the frames of ``frames.py`` do not make: each definition the mapping picks by argument type."""
    m, s = Money.from_rows(MONEY), sales()
    stamps = Stamp.from_rows(STAMPS)
    by_id = Window.order_by(Sale.id)
    return {
        "decimal_operators": m.select(
            (Money.total / Money.total).alias("standard_type"),  # decimal(38,6) by both rules
            (Money.price / Money.rate).alias("sparks_type"),  # decimal(25,8) for Spark, (26,8) in the YAML
            (Money.price % Money.rate).alias("python_mod"),
            (Money.small % Money.id).alias("mixed_mod"),
            (-Money.price).alias("neg"),
            (-Money.ratio).alias("neg_float"),
            F.abs(Money.price).alias("abs"),
            (Money.ratio * Money.ratio).alias("floats"),
        ),
        "decimal_aggregates": m.group_by("flag").agg(
            F.avg(Money.price).alias("avg"),
            F.avg(Money.huge).alias("wide_avg"),
            F.sum(Money.rate).alias("sum"),
            F.min(Money.price).alias("min"),
            F.max(Money.rate).alias("max"),
            F.avg(Money.ratio).alias("float_avg"),
            F.avg(Money.small).alias("int_avg"),
        ),
        "ordered_aggregates": m.group_by("id").agg(
            F.min(Money.day).alias("first_day"), F.max(Money.flag).alias("any_flag")
        ),
        "timestamps": stamps.select(
            F.year(Stamp.at).alias("y"),
            F.month(Stamp.at).alias("m"),
            F.year(Stamp.wall).alias("wall_y"),
            F.dayofmonth(Stamp.wall).alias("wall_d"),
        ),
        "offsets": s.with_columns(
            F.lag(Sale.amount).over(by_id).alias("before"),
            F.lead(Sale.amount, 2, 0).over(by_id).alias("after"),
            F.ntile(2).over(by_id).alias("half"),
            F.nth_value(Sale.shop, 2).over(by_id).alias("second"),
        ),
        "windowed_decimals": m.with_columns(F.sum(Money.price).over(Window.partition_by(Money.flag)).alias("total")),
    }


def _exported() -> dict[str, Plan]:
    """Every frame's plan; of ``local_frames()``, those a portable plan can say (not explode, not NULL checks)."""
    plans, local = {}, local_frames()
    for name, frame in {**frames(), **portable_frames()}.items():
        plans[name] = to_substrait(frame)
    for name, frame in local.items():
        with contextlib.suppress(UnsupportedEngineError):
            plans[name] = to_substrait(frame)
    return plans


def test_every_exported_frame_calls_functions_as_their_definitions_say(extensions: dict[str, Extension]) -> None:
    plans = _exported()
    assert set(portable_frames()) | set(frames()) <= set(plans)
    problems = [f"{name}: {problem}" for name, plan in plans.items() for problem in check(plan, extensions)]
    assert problems == [], "\n".join(problems)


def _tpch_plans() -> dict[int, Plan]:
    """The 22 queries over empty tables: the plans (types, calls) are those of any scale factor."""
    empty = {name: model.from_rows([]) for name, model in TABLES.items()}
    tables = Tables(**empty, sf=0.01)  # type: ignore[arg-type]
    return {number: to_substrait(query(tables)) for number, query in QUERIES.items()}


def test_every_tpch_query_calls_functions_as_their_definitions_say(extensions: dict[str, Extension]) -> None:
    problems = [f"q{n:02d}: {p}" for n, plan in _tpch_plans().items() for p in check(plan, extensions)]
    assert problems == [], "\n".join(problems)


def _function(plan: Plan, name: str) -> tuple[int, int]:
    """The anchor of function ``name`` in ``plan`` and the anchor of its extension file."""
    for declaration in plan.extensions:
        function = declaration.extension_function
        if function.name == name:
            return function.function_anchor, function.extension_urn_reference
    msg = f"the plan calls no {name}"
    raise AssertionError(msg)


def _calls(message: Any, anchor: int) -> list[Any]:
    """Every scalar call of function ``anchor`` below ``message``."""
    found = []
    for descriptor, value in message.ListFields():
        if descriptor.message_type is None:
            continue
        for item in value if descriptor.is_repeated else [value]:
            if descriptor.message_type.name == "ScalarFunction" and item.function_reference == anchor:
                found.append(item)
            found += _calls(item, anchor)
    return found


def _moved_to(plan: Plan, name: str, urn: str) -> None:
    """Declare function ``name`` of ``plan`` from the extension file ``urn`` instead."""
    _, file = _function(plan, name)
    anchor = max(u.extension_urn_anchor for u in plan.extension_urns) + 1
    plan.extension_urns.add(extension_urn_anchor=anchor, urn=urn)
    for declaration in plan.extensions:
        if declaration.extension_function.name == name:
            declaration.extension_function.extension_urn_reference = anchor
    assert file != anchor


def test_the_checker_reports_the_mistakes_the_export_made(extensions: dict[str, Extension]) -> None:
    """Not vacuous: each mistake the export made before (issue 33) is reported, and nothing else is."""
    decimals = to_substrait(frames()["decimals"])
    _moved_to(decimals, "multiply", "extension:io.substrait:functions_arithmetic")
    [found] = check(decimals, extensions)
    assert found.startswith("functions_arithmetic.multiply(decimal<3,2>, decimal<20,0>, overflow=ERROR)")
    assert "fits none of the 6 implementations" in found

    division = to_substrait(Money.from_rows(MONEY).select((Money.total / Money.total).alias("q")))
    anchor, _ = _function(division, "divide")
    [call] = _calls(division, anchor)
    call.options.add(name="on_division_by_zero", preference=["ERROR"])
    [found] = check(division, extensions)
    assert "defines no option on_division_by_zero (only ['overflow'])" in found

    dates = to_substrait(frames()["dates_and_patterns"])
    anchor, _ = _function(dates, "extract")
    year, month, *_ = _calls(dates, anchor)
    year.output_type.i32.nullability = year.output_type.i64.nullability
    del month.arguments[1]  # indexing: ONE
    found = check(dates, extensions)
    assert len(found) == 2
    assert found[0].startswith("functions_datetime.extract(YEAR, date) -> i32: fits none of the 7")
    assert "returns i64 (MIRROR)" in found[0]
    assert found[1].startswith("functions_datetime.extract(MONTH, date) -> i64: fits none of the 7")


def test_the_checker_reads_nullability_by_each_definitions_handling(extensions: dict[str, Extension]) -> None:
    plan = to_substrait(sales().select(F.coalesce(Sale.discount, Sale.amount).alias("d")))
    anchor, _ = _function(plan, "coalesce")
    [call] = _calls(plan, anchor)
    assert call.output_type.i64.nullability == 1  # MIRROR: the definition's type, cast to Spark's non-null
    assert check(plan, extensions) == []
    call.output_type.i64.nullability = 2
    [found] = check(plan, extensions)
    assert "returns i64? (MIRROR)" in found


def test_an_unknown_extension_is_reported(extensions: dict[str, Extension]) -> None:
    plan = to_substrait(frames()["filter"])
    _moved_to(plan, "gt", "extension:io.substrait:functions_nowhere")
    [found] = check(plan, extensions)
    assert found.endswith("its extension extension:io.substrait:functions_nowhere is no known YAML file")


def test_a_timestamps_date_parts_are_taken_in_the_session_time_zone() -> None:
    frame = Stamp.from_rows(STAMPS).select(F.year(Stamp.at).alias("y"), F.month(Stamp.wall).alias("m"))
    plan = export(frame._plan, session=Session("Asia/Tokyo")).plan
    anchor, _ = _function(plan, "extract")
    year, month = _calls(plan, anchor)
    assert [a.enum or a.value.literal.string for a in year.arguments] == ["YEAR", "", "Asia/Tokyo"]
    assert [a.enum for a in month.arguments] == ["MONTH", "ONE", ""]  # a wall-clock time: no zone


def test_sparks_types_are_restored_by_a_cast() -> None:
    """``char_length`` is an ``i64`` in the YAML, Spark's ``length`` an ``int``: the plan casts the call's value."""
    project = to_substrait(sales().select(F.length(Sale.shop).alias("n"))).relations[0].root.input.project
    cast = project.expressions[0].cast
    assert cast.type.WhichOneof("kind") == "i32"
    assert cast.input.scalar_function.output_type.WhichOneof("kind") == "i64"


# --- this project's extension ----------------------------------------------------------------------------


def test_the_shipped_extension_is_up_to_date() -> None:
    shipped = spark_extension.PATH.read_text(encoding="utf-8")
    assert shipped == spark_extension.extension_yaml(), "run `python -m tools.spark_extension`"


def test_the_shipped_extension_follows_the_simple_extension_schema() -> None:
    from importlib import resources

    schema = yaml.safe_load(
        (resources.files("substrait_extensions") / "extensions" / "simple_extensions_schema.yaml").read_text()
    )
    shipped = yaml.safe_load(spark_extension.PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(shipped)
    broken = {**shipped, "scalar_functions": [{"name": "x", "impls": [{"args": [], "returns": "i64"}]}]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(schema).validate(broken)


def test_the_extension_names_every_kernel_and_operator_the_export_calls() -> None:
    from pydantable_spark.substrait import functions as fn
    from pydantable_spark.substrait.kernels import KERNELS

    own = own_extension().functions
    names = set(own["scalar_functions"]) | set(own["aggregate_functions"])
    operators = {f.name for f in fn.SPARK_OPERATORS.values()}
    assert set(KERNELS) | operators | {fn.DECIMAL_DIVISION.name, fn.SPARK_AVERAGE.name, "min", "max"} == names


# --- the type expressions of the YAMLs -------------------------------------------------------------------


def test_type_patterns_bind_parameters_and_type_variables() -> None:
    env: dict[str, object] = {}
    decimal = Type("decimal", (15, 2))
    assert match(parse_type("DECIMAL<P1,S1>"), decimal, env)
    assert not match(parse_type("decimal<P1,S1>"), Type("decimal", (16, 2)), env)  # P1 is bound to 15
    assert match(parse_type("decimal<P1, 2>"), decimal, {})
    assert not match(parse_type("decimal<P1, 3>"), decimal, {})
    lists: dict[str, object] = {}
    assert match(parse_type("list?<any1>"), Type("list", (Type("i64", nullable=True),)), lists)
    assert match(parse_type("any1"), Type("i64"), lists)  # the element's type, nullability aside
    assert not match(parse_type("i64"), Type("i32"), {})
    assert parse_type("i64?") == parse_type("I64?") != parse_type("i64")


def test_return_programs_are_evaluated() -> None:
    program = "init = max(S1, S2) + 1\nbig = init >= 3 ? 38 : init - 1\nDECIMAL?<big, init>"
    assert str(result(program, {"S1": 1, "S2": 2})) == "decimal<38,3>?"
    assert str(result(program, {"S1": 1, "S2": 1})) == "decimal<1,2>?"
    assert str(result("any1?", {"any1": Type("string")})) == "string?"
    with pytest.raises(ValueError, match="bound by no argument"):
        result("any1", {})
    with pytest.raises(ValueError, match=r"the function avg\(\) of a return program is not known"):
        result("x = avg(1, 2)\ni64", {})


def test_a_kernel_named_as_one_of_the_extensions_own_functions_adds_its_implementations(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A catalog ``avg`` computed by a kernel joins Spark's decimal ``avg`` under one name, not two."""
    from pydantable_spark.substrait.kernels import Aggregate
    from pydantable_spark.substrait.kernels.spec import groups

    monkeypatch.setitem(spark_extension.KERNELS, "avg", Aggregate("avg", groups(lambda values: None)))
    made = spark_extension.extension()
    [average] = [f for f in made["aggregate_functions"] if f["name"] == "avg"]
    assert [impl["args"][0]["value"] for impl in average["impls"]] == ["decimal<P,S>", "any"]
    names = [f["name"] for f in made["aggregate_functions"]]
    assert names.count("avg") == 1
    assert {"avg", "max", "min"} <= set(names)
