"""Faults on real Spark: Ctrl-C cancels the running job and leaves the session usable; Spark's errors become ours."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd
import pytest

from pydantable_spark import DataFrame, DataFrameModel
from pydantable_spark.errors import IncompatibleCastError, NullCheckError, RowValidationError, SparkJobError

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from pyspark.sql import SparkSession


CLASSIC_ONLY = pytest.mark.skipif(
    os.environ.get("PYDANTABLE_TEST_CONNECT", "") not in ("", "0"),
    reason="watches the driver's JVM (job status tracker, Python worker executable): classic Spark only",
)


class Big(DataFrameModel):
    id: int


def _slow(spark: SparkSession) -> DataFrame[Big]:
    """A frame whose every action would take an hour: a trillion-row range filtered on a hash."""
    return Big.from_spark(spark.range(0, 10**12, 1, 2).where("hash(id) % 1000003 = 7"))


def _active_jobs(spark: SparkSession) -> list[int]:
    return list(spark.sparkContext.statusTracker().getActiveJobsIds())


@pytest.fixture
def interrupt_after(spark: SparkSession) -> Iterator[Callable[[float], None]]:
    """Deliver SIGINT (what Ctrl-C sends) to the main thread after a delay, as a terminal would."""
    timers: list[threading.Timer] = []

    def start(seconds: float) -> None:
        main = threading.main_thread().ident
        assert main is not None
        timer = threading.Timer(seconds, signal.pthread_kill, (main, signal.SIGINT))
        timers.append(timer)
        timer.start()

    yield start
    for timer in timers:
        timer.cancel()
    if _active_jobs(spark):  # a failed test must not leave an hour-long job behind for the next ones
        spark.sparkContext.cancelAllJobs()


def _assert_cancelled_and_usable(spark: SparkSession, raised_after: float) -> None:
    assert raised_after < 30, f"KeyboardInterrupt took {raised_after:.1f} s"
    deadline = time.monotonic() + 20
    while _active_jobs(spark) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _active_jobs(spark) == [], "the interrupted Spark job is still running"
    assert Big.from_rows([{"id": 1}, {"id": 2}]).count() == 2  # the session runs the next job


ACTIONS: dict[str, Callable[[DataFrame[Big], Path], object]] = {
    "collect": lambda frame, _: frame.collect(),
    "count": lambda frame, _: frame.count(),
    "to_arrow": lambda frame, _: frame.to_arrow(),
    "to_pandas": lambda frame, _: frame.to_pandas(),
    "to_dict": lambda frame, _: frame.to_dict(),
    "stream": lambda frame, _: list(frame.stream()),
    "collect(trusted=True)": lambda frame, _: frame.collect(trusted=True),
    "submit().wait()": lambda frame, _: frame.submit("count").wait(),
}


@CLASSIC_ONLY
@pytest.mark.parametrize("action", list(ACTIONS))
def test_ctrl_c_cancels_the_job_of_any_action(
    spark: SparkSession, tmp_path: Path, interrupt_after: Callable[[float], None], action: str
) -> None:
    interrupt_after(2.0)
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        ACTIONS[action](_slow(spark), tmp_path)
    _assert_cancelled_and_usable(spark, time.monotonic() - started - 2.0)


@CLASSIC_ONLY
def test_ctrl_c_during_a_later_batch_of_a_stream(spark: SparkSession, interrupt_after: Callable[[float], None]) -> None:
    """The first partition is quick; Spark starts the second one's job from the stream's thread, with its tag."""
    quick = spark.range(0, 5, 1, 1)
    frame = Big.from_spark(quick.union(spark.range(0, 10**12, 1, 2).where("hash(id) % 1000003 = 7")))
    batches = frame.stream(batch_size=5)
    assert next(batches) == [Big(id=i) for i in range(5)]
    interrupt_after(1.5)
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        next(batches)
    _assert_cancelled_and_usable(spark, time.monotonic() - started - 1.5)


@CLASSIC_ONLY
@pytest.mark.parametrize("delay", [0.05, 0.3, 0.8])
def test_ctrl_c_while_the_job_is_still_being_planned(
    spark: SparkSession, interrupt_after: Callable[[float], None], delay: float
) -> None:
    """Ctrl-C before Spark has started the job: it is cancelled as soon as it starts."""
    frame = _slow(spark)
    interrupt_after(delay)
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        frame.to_arrow()
    _assert_cancelled_and_usable(spark, time.monotonic() - started - delay)


@CLASSIC_ONLY
def test_ctrl_c_under_the_default_python_handler(spark: SparkSession, interrupt_after: Callable[[float], None]) -> None:
    """Outside PySpark's own SIGINT handler (IPython, or a handler reset by the user) the job is cancelled too."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        interrupt_after(2.0)
        started = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            _slow(spark).count()
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back as it was
    finally:
        signal.signal(signal.SIGINT, previous)
    _assert_cancelled_and_usable(spark, time.monotonic() - started - 2.0)


@CLASSIC_ONLY
@pytest.mark.parametrize("mode", ["overwrite", "append"])
def test_ctrl_c_during_a_write_cancels_it_and_keeps_the_old_data(
    spark: SparkSession, tmp_path: Path, interrupt_after: Callable[[float], None], mode: str
) -> None:
    target = tmp_path / "big"
    Big.from_rows([{"id": 1}, {"id": 2}]).write_parquet(target)
    before = sorted(p.name for p in tmp_path.rglob("*"))
    interrupt_after(2.0)
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        _slow(spark).write_parquet(target, mode=mode)  # type: ignore[arg-type]
    _assert_cancelled_and_usable(spark, time.monotonic() - started - 2.0)
    assert Big.read_parquet(target).sort(Big.id).to_dict() == {"id": [1, 2]}
    assert sorted(p.name for p in tmp_path.rglob("*")) == before


@CLASSIC_ONLY
def test_ctrl_c_during_save_as_table_keeps_the_table(
    spark: SparkSession, interrupt_after: Callable[[float], None]
) -> None:
    name = "pydantable_faults_big"
    try:
        Big.from_rows([{"id": 1}]).save_as_table(name, mode="overwrite")
        interrupt_after(2.0)
        started = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            _slow(spark).save_as_table(name, mode="overwrite")
        _assert_cancelled_and_usable(spark, time.monotonic() - started - 2.0)
        assert Big.read_table(name).to_dict() == {"id": [1]}
        assert [t.name for t in spark.catalog.listTables() if t.name.startswith("pydantable_faults")] == [name]
    finally:
        spark.sql(f"DROP TABLE IF EXISTS {name}")


# --- Spark errors become the library's ------------------------------------------------------------


class Pair(DataFrameModel):
    id: int
    name: str


def test_files_that_disagree_on_a_type_raise_spark_job_error(spark: SparkSession, tmp_path: Path) -> None:
    spark.createDataFrame([(1, "a")], "id bigint, name string").write.parquet(str(tmp_path / "p" / "a"))
    spark.createDataFrame([("x", "b")], "id string, name string").write.parquet(str(tmp_path / "p" / "b"))
    paths = [str(tmp_path / "p" / "a"), str(tmp_path / "p" / "b")]
    # by default every footer is read, and the clash is named when the frame is made
    with pytest.raises(
        IncompatibleCastError, match=r"files disagree on a column's type \(id: bigint in one file, string"
    ):
        Pair.read_parquet(paths)
    # without merging, Spark finds it while reading
    frame = Pair.read_parquet(paths, mergeSchema=False)
    with pytest.raises(
        SparkJobError, match=r"collect\(\): Spark could not read file:.*\.parquet of the source"
    ) as info:
        frame.collect()
    assert "rewrite them with one schema or read them separately" in str(info.value)
    assert type(info.value.__cause__).__module__.startswith(("py4j", "pyspark"))


@pytest.mark.parametrize("fmt", ["parquet", "csv", "json"])
def test_reading_a_missing_path_raises_spark_job_error(tmp_path: Path, fmt: str) -> None:
    with pytest.raises(SparkJobError, match=rf"read_{fmt}\(.*nowhere.*\): Spark failed: \[PATH_NOT_FOUND\]"):
        getattr(Pair, f"read_{fmt}")(tmp_path / "nowhere")


def test_reading_a_missing_table_raises_spark_job_error() -> None:
    with pytest.raises(
        SparkJobError, match=r"read_table\('no_such_table'\): Spark failed: \[TABLE_OR_VIEW_NOT_FOUND\]"
    ):
        Pair.read_table("no_such_table")


def test_a_run_time_cast_overflow_raises_spark_job_error(spark: SparkSession) -> None:
    from typing import Annotated

    from pydantable_spark import dtypes as dt

    class Narrow(DataFrameModel):
        x: Annotated[int, dt.Int32]

    frame = Narrow.from_spark(spark.createDataFrame([(2**40,)], "x bigint not null"))
    with pytest.raises(SparkJobError, match=r"to_dict\(\): Spark failed: .*CAST_OVERFLOW") as info:
        frame.to_dict()
    assert info.value.action == "to_dict()"


@CLASSIC_ONLY
def test_stream_on_workers_without_pyarrow_says_so(spark: SparkSession) -> None:
    """Spark's Python workers on an interpreter without pyarrow (the system python3 here)."""
    import shutil

    system = shutil.which("python3", path="/usr/bin")
    if system is None or subprocess.run([system, "-c", "import pyarrow"], check=False).returncode == 0:
        pytest.skip("needs a system python3 without pyarrow")
    context = spark.sparkContext
    previous = context.pythonExec
    context.pythonExec = system
    try:
        with pytest.raises(SparkJobError, match=r"stream\(\): Spark's Python workers cannot import pyarrow") as info:
            list(Big.from_rows([{"id": 1}]).stream())
    finally:
        context.pythonExec = previous
    assert "Point PYSPARK_PYTHON at an interpreter that has pyarrow" in str(info.value)
    assert list(Big.from_rows([{"id": 1}]).stream()) == [[Big(id=1)]]


def test_from_pandas_with_a_mixed_object_column_names_it() -> None:
    frame = pd.DataFrame({"id": [1, 2], "name": ["a", 3]})
    with pytest.raises(RowValidationError, match=r"from_pandas: column 'name' \(pandas dtype object\) cannot become"):
        Pair.from_pandas(frame)


def test_a_null_check_on_a_column_with_a_quote_in_its_name(spark: SparkSession) -> None:
    from pydantic import create_model

    model: Any = create_model("Quoted", __base__=DataFrameModel, **{"it's": (int, ...)})
    frame = model.from_spark(spark.createDataFrame([(1,), (None,)], "`it's` bigint"), null_check=True)
    with pytest.raises(NullCheckError, match=r"column \"it's\" holds a NULL") as info:
        frame.collect()
    assert info.value.column == "it's"


def test_submitted_jobs_translate_errors_too(spark: SparkSession) -> None:
    from typing import Annotated

    from pydantable_spark import dtypes as dt

    class Narrow(DataFrameModel):
        x: Annotated[int, dt.Int32]

    job = Narrow.from_spark(spark.createDataFrame([(2**40,)], "x bigint not null")).submit("collect")
    with pytest.raises(SparkJobError, match=r"collect\(\): Spark failed: .*CAST_OVERFLOW"):
        job.wait(timeout=120)


# --- sessions: stopped, and the embedded session's Python workers (each test starts its own Spark) -----

ROOT = Path(__file__).resolve().parents[1]

STOPPED = """
import tempfile
from pyspark.sql import SparkSession
from pydantable_spark import DataFrameModel
from pydantable_spark.errors import SessionStoppedError

class N(DataFrameModel):
    n: int

spark = SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false").getOrCreate()
path = tempfile.mkdtemp() + "/n"
N.from_rows([{"n": 1}]).write_parquet(path)
from_spark = N.from_spark(spark.createDataFrame([(1,)], "n bigint not null"))
read = N.read_parquet(path)
given = N.from_rows([{"n": 1}], session=spark)
spark.stop()
for name, call in [
    ("from_spark.collect", from_spark.collect),
    ("read.count", read.count),
    ("read.to_arrow", read.to_arrow),
    ("read.stream", lambda: list(read.stream())),
    ("from_spark.write", lambda: from_spark.write_parquet(path, mode="overwrite")),
    ("given.collect", given.collect),
    ("from_rows(session=)", lambda: N.from_rows([{"n": 2}], session=spark).collect()),
    ("read_parquet(session=)", lambda: N.read_parquet(path, session=spark)),
]:
    try:
        call()
        print(name, "no error")
    except SessionStoppedError as error:
        print(name, "SessionStoppedError:", error)
fresh = SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false").getOrCreate()
print("data kept", N.read_parquet(path).collect())
print("new session", N.from_rows([{"n": 3}]).collect())
"""


def _python(code: str, **env: str) -> str:
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("SPARK_", "PYSPARK_"))}
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


@pytest.mark.slow
def test_a_frame_of_a_stopped_session_says_so_and_how_to_go_on() -> None:
    out = _python(STOPPED)
    for name in ("from_spark.collect", "read.count", "read.to_arrow", "read.stream", "from_spark.write"):
        assert f"{name} SessionStoppedError: " in out, out
    assert "from_spark.collect SessionStoppedError: collect(): the frame's source (from_spark) belongs to" in out
    assert "read.count SessionStoppedError: count(): the frame's source (read_parquet(" in out
    assert "given.collect SessionStoppedError: collect(): the session passed as session= when the frame was made" in out
    assert "from_rows(session=) SessionStoppedError: collect(): the session passed as session= when the frame" in out
    assert "read_parquet(session=) SessionStoppedError: session=: the session passed as session= belongs to" in out
    assert "pass session=<the live session> to the constructor" in out
    assert "data kept [N(n=1)]" in out  # the refused overwrite touched nothing
    assert "new session [N(n=3)]" in out


WORKERS = """
from pydantable_spark import DataFrameModel

class N(DataFrameModel):
    n: int

print("streamed", list(N.from_rows([{"n": 1}, {"n": 2}]).sort(N.n).stream()))
"""


@pytest.mark.slow
def test_the_embedded_session_runs_python_workers_on_the_drivers_interpreter() -> None:
    """With the virtualenv not activated, `python3` on PATH is a system one without pyarrow."""
    system_path = "/usr/bin:/bin"
    found = subprocess.run(["python3", "-c", "import pyarrow"], env={"PATH": system_path}, check=False)
    if found.returncode == 0:
        pytest.skip("needs a python3 without pyarrow on the system PATH")
    out = _python(WORKERS, PATH=system_path)
    assert "streamed [[N(n=1), N(n=2)]]" in out
