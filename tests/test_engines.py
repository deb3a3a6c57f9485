"""The default engine, ``engine="auto"``, ``assert_frame_equal(engine=...)`` and the pytest plugin."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

import pytest

from pydantable_spark import DataFrameModel, F
from pydantable_spark.engines import default_engine, recording, use_engine
from pydantable_spark.errors import ArgumentTypeError, ArgumentValueError, UnsupportedEngineError
from pydantable_spark.testing import assert_frame_equal

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

pytest_plugins = ["pytester"]


class Order(DataFrameModel):
    id: int
    shop: str
    total: float


ROWS = [{"id": 1, "shop": "a", "total": 2.5}, {"id": 2, "shop": "b", "total": 4.0}]


def _refused_by_the_local_engine() -> object:
    xml = F.concat(F.lit("<a>"), Order.shop, F.lit("</a>"))
    return Order.from_rows(ROWS).select(F.xpath_string(xml, "a").alias("x"))


@pytest.mark.jvm_free
def test_use_engine_sets_the_default_for_a_block_and_resets_it() -> None:
    orders = Order.from_rows(ROWS)
    assert default_engine() == "spark"
    with use_engine("local"):
        assert default_engine() == "local"
        assert orders.filter(Order.total > 3).to_dict() == {"id": [2], "shop": ["b"], "total": [4.0]}
        assert orders.count() == 2
        assert [o.id for o in orders.collect()] == [1, 2]
        assert list(orders.to_pandas()["id"]) == [1, 2]
        with pytest.raises(UnsupportedEngineError, match=r"xpath_string\(\)"):
            _refused_by_the_local_engine().to_dict()  # type: ignore[attr-defined]
    assert default_engine() == "spark"


@pytest.mark.jvm_free
def test_engine_names_are_checked_when_called() -> None:
    orders = Order.from_rows(ROWS)
    with pytest.raises(ArgumentValueError, match=r"count\(\): engine must be 'spark', 'local' or 'auto', got 'duck'"):
        orders.count(engine="duck")  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match=r"use_engine\(\): engine must be str, got 1 \(int\)"):
        use_engine(1).__enter__()  # type: ignore[arg-type]


def test_auto_runs_locally_where_it_can_and_reports_each_fall_back(spark: SparkSession) -> None:
    orders = Order.from_rows(ROWS)
    with recording() as fallbacks:
        assert orders.to_dict(engine="auto") == {"id": [1, 2], "shop": ["a", "b"], "total": [2.5, 4.0]}
        assert fallbacks == []
        refused = _refused_by_the_local_engine()
        assert refused.to_dict(engine="auto") == {"x": ["a", "b"]}  # type: ignore[attr-defined]
    assert [f.action for f in fallbacks] == ["to_dict()"]
    assert "xpath_string()" in fallbacks[0].reason


@pytest.mark.jvm_free
def test_assert_frame_equal_computes_on_the_engine_asked() -> None:
    orders = Order.from_rows(ROWS)
    assert_frame_equal(orders.filter(Order.id == 1), [{"id": 1, "shop": "a", "total": 2.5}], engine="local")
    with pytest.raises(UnsupportedEngineError, match=r"xpath_string\(\)"):
        assert_frame_equal(_refused_by_the_local_engine(), [{"x": ""}], engine="local")  # type: ignore[arg-type]
    with use_engine("local"):  # the default engine applies without engine=
        assert_frame_equal(orders, orders.sort(Order.id, descending=True))


_MODULE = textwrap.dedent(
    """
    import pytest
    from pydantable_spark import DataFrameModel, F

    class Order(DataFrameModel):
        id: int
        shop: str

    ORDERS = [{"id": 1, "shop": "a"}, {"id": 2, "shop": "b"}]

    def test_runs_locally():
        assert Order.from_rows(ORDERS).filter(Order.id > 1).to_dict() == {"id": [2], "shop": ["b"]}

    def test_needs_spark():
        xml = F.concat(F.lit("<a>"), Order.shop, F.lit("</a>"))
        assert Order.from_rows(ORDERS).select(F.xpath_string(xml, "a").alias("x")).to_dict() == {"x": ["a", "b"]}

    @pytest.mark.pydantable_engine("spark")
    def test_on_spark_by_its_marker():
        assert Order.from_rows(ORDERS).count() == 2
    """
)


@pytest.mark.jvm_free
def test_the_plugin_runs_tests_on_the_local_engine(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_orders=_MODULE)
    result = pytester.runpytest_inprocess("--pydantable-engine=local", "-k", "locally", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, deselected=2)
    result.stdout.fnmatch_lines(["*pydantable-spark engines*", "engine local: 1 of 1 tests ran without Spark"])
    failing = pytester.runpytest_inprocess("--pydantable-engine=local", "-k", "needs_spark", "-p", "no:cacheprovider")
    failing.assert_outcomes(failed=1, deselected=2)
    failing.stdout.fnmatch_lines(["*UnsupportedEngineError*xpath_string()*"])


def test_the_plugin_in_auto_mode_reports_which_tests_needed_spark(
    spark: SparkSession, pytester: pytest.Pytester
) -> None:
    pytester.makepyfile(test_orders=_MODULE)
    pytester.makeini("[pytest]\npydantable_engine = auto\n")
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(
        [
            "*pydantable-spark engines*",
            "engine auto: 1 of 2 tests ran without Spark; 1 needed it:",
            "  test_orders.py::test_needs_spark: to_dict(): *xpath_string()*",
        ]
    )
