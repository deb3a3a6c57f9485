"""Which session runs a frame: the one passed, the active one, an embedded one, or Spark Connect."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pydantable_spark import DataFrameModel
from pydantable_spark._spark.lower import spark_frame
from pydantable_spark._spark.session import EMBEDDED_CONFIG, PROGRESS_VARIABLE, embedded_config, resolve_session
from pydantable_spark.errors import ArgumentValueError

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

ROOT = Path(__file__).resolve().parents[2]

CHECK_EMBEDDED = """
import runpy, sys
sys.path.insert(0, "examples")  # as `python examples/quickstart.py` does: its models module sits beside it
runpy.run_path("examples/quickstart.py", run_name="__main__")
from pyspark.sql import SparkSession
session = SparkSession.getActiveSession()
conf = session.conf
print("master", session.sparkContext.master if hasattr(session, "sparkContext") else "?")
for key in ("spark.sql.session.timeZone", "spark.sql.execution.arrow.pyspark.enabled", "spark.ui.enabled",
            "spark.ui.showConsoleProgress"):
    print(key, conf.get(key))
"""


def run(code: str, **env: str) -> str:
    # a fresh process: no remote, nor the variables a local Connect server of this test run left behind
    leftovers = ("SPARK_REMOTE", "SPARK_LOCAL_REMOTE", "SPARK_CONNECT_MODE_ENABLED", "SPARK_CONNECT_AUTHENTICATE_TOKEN")
    environment = {k: v for k, v in os.environ.items() if k not in leftovers}
    environment.update(env)
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


class User(DataFrameModel):
    id: int


def test_an_explicit_session_is_used(spark: SparkSession) -> None:
    frame = User.from_rows([{"id": 1}], session=spark)
    assert spark_frame(frame.plan).sparkSession is spark
    assert resolve_session(spark) is spark


def test_the_active_session_is_used_by_default(spark: SparkSession) -> None:
    assert resolve_session() is spark


@pytest.mark.slow
def test_an_embedded_local_session_starts_when_none_exists() -> None:
    out = run(CHECK_EMBEDDED)
    assert "Adult(id=1, name='ADA', next_age=37, member_for_days=3310)" in out
    assert "master local[*]" in out
    assert "spark.sql.session.timeZone UTC" in out
    assert "spark.sql.execution.arrow.pyspark.enabled true" in out
    assert "spark.ui.enabled false" in out
    assert "spark.ui.showConsoleProgress false" in out  # no progress bars on stderr unless asked for (issue 34)


@pytest.mark.jvm_free
def test_progress_bars_are_off_unless_the_environment_asks_for_them(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(PROGRESS_VARIABLE, raising=False)
    assert embedded_config()["spark.ui.showConsoleProgress"] == "false"
    assert {k: v for k, v in embedded_config().items() if k != "spark.ui.showConsoleProgress"} == {
        k: v for k, v in EMBEDDED_CONFIG.items() if k != "spark.ui.showConsoleProgress"
    }
    for value, shown in [("1", "true"), ("true", "true"), (" ON ", "true"), ("yes", "true"), ("0", "false"),
                         ("off", "false"), ("", "false"), ("False", "false")]:  # fmt: skip
        monkeypatch.setenv(PROGRESS_VARIABLE, value)
        assert embedded_config()["spark.ui.showConsoleProgress"] == shown, value
    monkeypatch.setenv(PROGRESS_VARIABLE, "ture")
    said = (
        r"PYDANTABLE_SPARK_PROGRESS='ture': set it to 1 to show Spark's progress bars on the embedded session, or to 0 "
        r"\(or leave it unset\) to keep them off"
    )
    with pytest.raises(ArgumentValueError, match=said):
        embedded_config()


@pytest.mark.slow
@pytest.mark.skipif(
    os.environ.get("PYDANTABLE_TEST_CONNECT", "") not in ("", "0"),
    reason="the whole run is on Spark Connect already",
)
def test_the_same_code_runs_on_spark_connect() -> None:
    code = """
import runpy, sys
sys.path.insert(0, "examples")  # as `python examples/quickstart.py` does: its models module sits beside it
runpy.run_path("examples/quickstart.py", run_name="__main__")
from pyspark.sql import SparkSession
print("connect", type(SparkSession.getActiveSession()).__module__)
"""
    # SPARK_TESTING: PySpark's local Connect server takes a free port instead of 15002 (and its client asks it
    # which), so this test may run beside another local server, as .ci/run runs the Connect tier beside this one
    out = run(code, SPARK_REMOTE="local", SPARK_TESTING="1")
    assert "Adult(id=1, name='ADA', next_age=37, member_for_days=3310)" in out
    assert "connect pyspark.sql.connect.session" in out
