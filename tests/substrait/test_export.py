"""``to_substrait``: every plan shape the export takes passes Substrait's validator, and the rest is refused by name.

The validator (PyPI ``substrait-validator``) runs in a subprocess (``tools/substrait_validator.py`` says why and
which two of its notes about itself are not counted); any other warning or error fails the test.
"""

from __future__ import annotations

import datetime
import importlib
import pkgutil
from typing import TYPE_CHECKING, Any

import pytest
from frames import Sale, frames, sales

import pydantable_spark.plan as plan_package
from pydantable_spark import DataFrameModel, F, Window
from pydantable_spark import dtypes as dt
from pydantable_spark.errors import UnsupportedEngineError
from pydantable_spark.plan import nodes as plan_nodes
from pydantable_spark.substrait import to_substrait
from pydantable_spark.substrait.relations import RELATIONS, _Writer, export
from tools.substrait_validator import validate

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from pydantable_spark import DataFrame

pytestmark = pytest.mark.jvm_free


def test_every_exported_plan_passes_the_substrait_validator(tmp_path: Path) -> None:
    paths = []
    for name, frame in frames().items():
        path = tmp_path / f"{name}.plan"
        path.write_bytes(to_substrait(frame).SerializeToString())
        paths.append(path)
    assert validate(paths) == ""


def test_the_validator_does_find_errors(tmp_path: Path) -> None:
    """Not vacuous: a plan whose function anchor is declared nowhere is reported."""
    plan = to_substrait(frames()["filter"])
    del plan.extensions[:]
    path = tmp_path / "broken.plan"
    path.write_bytes(plan.SerializeToString())
    assert "broken.plan" in validate([path])


@pytest.mark.parametrize("name", list(frames()))
def test_the_root_names_the_derived_columns_and_reads_typed_tables(name: str) -> None:
    frame = frames()[name]
    plan = to_substrait(frame)
    assert list(plan.relations[0].root.names) == list(frame.schema.names)
    declared = {e.extension_function.name for e in plan.extensions}
    assert len(declared) == len(plan.extensions)  # each function once


def test_types_carry_nullability() -> None:
    plan = to_substrait(sales())
    read = plan.relations[0].root.input.read
    kinds = [t.WhichOneof("kind") for t in read.base_schema.struct.types]
    assert kinds == ["i64", "string", "i64", "fp64", "string", "date", "i64"]
    nullable = [getattr(t, t.WhichOneof("kind")).nullability == 1 for t in read.base_schema.struct.types]
    assert nullable == [f.nullable for f in sales().schema]
    assert list(read.named_table.names) == ["source_0"]


def test_a_function_call_declares_the_derived_output_type() -> None:
    frame = sales().select((Sale.discount + 1).alias("d"), (Sale.amount + 1).alias("a"))
    project = to_substrait(frame).relations[0].root.input.project
    types = [e.scalar_function.output_type for e in project.expressions]
    assert [t.i64.nullability for t in types] == [1, 2]  # NULLABLE, REQUIRED


def test_mixed_numbers_are_compared_in_their_common_type() -> None:
    frame = sales().filter((Sale.amount > 2.5) & Sale.amount.is_in([1, 2]) & Sale.amount.between(0, 9.5))
    condition = to_substrait(frame).relations[0].root.input.filter.condition.scalar_function
    greater = condition.arguments[0].value.scalar_function.arguments[0].value.scalar_function
    assert greater.arguments[0].value.cast.type.WhichOneof("kind") == "fp64"  # amount as a double, as Spark
    assert greater.arguments[1].value.literal.fp64 == 2.5


def test_the_plan_states_sparks_overflow_and_average() -> None:
    frame = sales().group_by("shop").agg(F.avg(Sale.amount).alias("a"))
    measure = to_substrait(frame).relations[0].root.input.aggregate.measures[0].measure
    assert measure.arguments[0].value.cast.type.WhichOneof("kind") == "fp64"  # avg of doubles, not integers
    plus = to_substrait(sales().select((Sale.amount + 1).alias("x"))).relations[0].root.input.project.expressions[0]
    assert [(o.name, list(o.preference)) for o in plus.scalar_function.options] == [("overflow", ["ERROR"])]


def test_literals_are_typed_values_never_text() -> None:
    frame = sales().select(F.lit("x' OR '1'='1").alias("t"), F.lit(1.5).alias("f"))
    project = to_substrait(frame).relations[0].root.input.project
    assert project.expressions[0].literal.string == "x' OR '1'='1"
    assert project.expressions[1].literal.fp64 == 1.5


def test_a_frame_used_twice_is_one_table() -> None:
    s = sales()
    exported = export(s.join(s.select(Sale.id), on="id", how="semi")._plan)
    assert list(exported.tables) == ["source_0"]
    assert exported.tables["source_0"].num_rows == 4


def test_uris_and_urns_are_both_declared() -> None:
    plan = to_substrait(frames()["filter"])
    files = sorted(u.uri.rsplit("/", 1)[1] for u in plan.extension_uris)
    assert files == ["functions_boolean.yaml", "functions_comparison.yaml"]
    urns = {u.extension_urn_anchor: u.urn for u in plan.extension_urns}
    uris = {u.extension_uri_anchor: u.uri for u in plan.extension_uris}
    assert {a: u.rsplit(":", 1)[1] for a, u in urns.items()} == {a: u.rsplit("/", 1)[1][:-5] for a, u in uris.items()}


class Stamp(DataFrameModel):
    t: datetime.datetime


def _counter_diff() -> DataFrame[Any]:
    return sales().with_columns(F.counter_diff(Sale.amount).over(Window.order_by(Sale.id)).alias("rise"))


REFUSED: dict[str, tuple[Callable[[], DataFrame[Any]], str]] = {
    "unmapped function": (
        lambda: sales().select(F.xpath_string(Sale.shop, "a").alias("h")),
        "no mapping for the function xpath_string()",
    ),
    "unmapped window function": (_counter_diff, "no mapping for the window function counter_diff()"),
    "unique subset": (lambda: sales().unique(subset=["shop"]), "unique(subset=...)"),
    "unmapped aggregate": (
        lambda: sales().group_by("shop").agg(F.hll_sketch_agg(Sale.shop).alias("s")),
        "no mapping for the aggregate hll_sketch_agg()",
    ),
    "unmapped string function": (
        lambda: sales().select(F.sentences(Sale.shop).alias("t")),
        "no mapping for the function sentences()",
    ),
    "sample": (lambda: sales().sample(0.5, seed=1), "sample(0.5, seed=1)"),
    "count_if over a window": (
        lambda: sales().select(F.count_if(Sale.amount > 3).over(Window.partition_by(Sale.shop)).alias("c")),
        "count_if() over a window",
    ),
    "timestamps subtracted": (
        lambda: Stamp.from_rows([{"t": datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)}]).select(
            (Stamp.t - Stamp.t).alias("x")
        ),
        "the operator - on timestamp and timestamp",
    ),
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_what_has_no_substrait_form_is_refused_by_name(case: str) -> None:
    build, message = REFUSED[case]
    frame = build()
    with pytest.raises(UnsupportedEngineError, match="Substrait export|aggregates rows") as caught:
        to_substrait(frame)
    assert message in str(caught.value)


def test_every_plan_step_is_exported_or_refused_by_name() -> None:
    steps = set()
    for info in pkgutil.walk_packages(plan_package.__path__, "pydantable_spark.plan."):
        module = importlib.import_module(info.name)
        steps |= {
            value for value in vars(module).values()
            if isinstance(value, type) and issubclass(value, plan_nodes.Plan) and value is not plan_nodes.Plan
        }  # fmt: skip
    assert {step.__name__ for step in steps - set(RELATIONS)} == {"Sample", "DedupWithinWatermark"}  # a stream's
    assert all(callable(getattr(_Writer, method)) for method in RELATIONS.values())


def test_explode_is_refused_by_name() -> None:
    class Basket(DataFrameModel):
        id: int
        items: list[str]

    frame = Basket.from_rows([{"id": 1, "items": ["a", "b"]}]).explode("items")
    with pytest.raises(UnsupportedEngineError, match=r"does not take explode\(\['items'\]\): Substrait has no"):
        to_substrait(frame)


def test_a_type_substrait_has_no_name_for_is_refused() -> None:
    from pydantable_spark.substrait.types import substrait_type

    with pytest.raises(UnsupportedEngineError, match="Substrait has no type for variant"):
        substrait_type(dt.Variant(), nullable=True)
