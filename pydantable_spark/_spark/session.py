"""Which SparkSession a frame runs on, and how its jobs are tagged, cancelled and interrupted.

In order: the ``session=`` a user passed; the active session; a Spark Connect
session when ``SPARK_REMOTE`` is set; otherwise an embedded local session that
the library starts itself on first use (``local[*]``, UI off, UTC, Arrow on,
few shuffle partitions, quiet logs, Python workers on the driver's own
interpreter unless ``PYSPARK_PYTHON`` says otherwise).

Every action of a frame runs inside ``interruptible``: its Spark jobs carry a
job tag of their own, and Ctrl-C (``KeyboardInterrupt``) cancels exactly those
jobs before it propagates, so the session stays usable.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pyspark.sql import SparkSession

if TYPE_CHECKING:
    from collections.abc import Iterator

from pydantable_spark.errors import SessionStoppedError

__all__ = [
    "EMBEDDED_CONFIG",
    "interrupt_tag",
    "interruptible",
    "is_case_sensitive",
    "is_connect",
    "is_stopped",
    "new_tag",
    "resolve_session",
    "tagged_jobs",
]

log = logging.getLogger("pydantable_spark")

_LOG_CONFIG = Path(__file__).with_name("log4j2.properties")

EMBEDDED_CONFIG: dict[str, str] = {
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "true",
    "spark.sql.session.timeZone": "UTC",
    "spark.sql.execution.arrow.pyspark.enabled": "true",
    "spark.sql.shuffle.partitions": "8",
    "spark.driver.memory": "2g",
    "spark.driver.extraJavaOptions": f"-Dlog4j2.configurationFile=file:{_LOG_CONFIG}",
}
"""The settings of the embedded session; ``PYDANTABLE_SPARK_MASTER`` overrides the master."""

_lock = threading.Lock()


def resolve_session(session: Any = None) -> SparkSession:
    """The session to run on (see the module docstring for the order)."""
    if session is not None:
        if is_stopped(session):
            action = "session="
            raise SessionStoppedError(action, "the session passed as session=")
        return session  # type: ignore[no-any-return]
    active = SparkSession.getActiveSession()
    if active is not None:
        return active
    with _lock:
        active = SparkSession.getActiveSession()
        if active is not None:
            return active
        if os.environ.get("SPARK_REMOTE"):
            log.info("starting a Spark Connect session for SPARK_REMOTE=%s", os.environ["SPARK_REMOTE"])
            return SparkSession.builder.getOrCreate()
        return _embedded()


def _embedded() -> SparkSession:
    master = os.environ.get("PYDANTABLE_SPARK_MASTER", "local[*]")
    log.info("starting an embedded local Spark session (%s)", master)
    builder = SparkSession.builder.master(master).appName("pydantable-spark")
    for key, value in EMBEDDED_CONFIG.items():
        builder = builder.config(key, value)
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


@contextmanager
def interruptible(session: Any, tag: str | None = None) -> Iterator[None]:
    """Run a Spark action whose jobs Ctrl-C cancels: tagged, and interrupted by tag on ``KeyboardInterrupt``.

    In the main thread, while the block runs, SIGINT starts the cancel at once
    (from a helper thread: the main thread may be inside a py4j call, which
    must not be re-entered) and raises ``KeyboardInterrupt``; PySpark's own
    handler would cancel every job of the context, and fails inside a blocking
    call. A handler the user installed is left alone; the cancel then happens
    when the ``KeyboardInterrupt`` reaches this block. Spark errors raised while
    the interrupt unwinds (a job reported cancelled) become ``KeyboardInterrupt``.

    ``tag`` reuses one tag across blocks (a stream's batches, whose later jobs
    Spark starts with the tag the first one had); by default each block has its own.
    """
    tag = tag or new_tag()
    cancelled: list[threading.Thread] = []

    def cancel() -> None:
        if not cancelled:
            thread = threading.Thread(target=_cancel_quietly, args=(session, tag), name=f"cancel {tag}", daemon=True)
            cancelled.append(thread)
            thread.start()

    with _sigint_cancels(cancel), tagged_jobs(session, tag):
        try:
            yield
        except BaseException as error:
            if not _interrupted(error):
                raise
            cancel()
            cancelled[0].join(timeout=30)
            if isinstance(error, KeyboardInterrupt):
                raise
            raise KeyboardInterrupt from error


def new_tag() -> str:
    """A fresh Spark job tag of this library."""
    return f"pydantable-spark-{uuid.uuid4().hex}"


def _cancel_quietly(session: Any, tag: str) -> None:
    try:
        interrupt_tag(session, tag)
    except Exception:  # the session may be going down with the interrupt
        log.debug("could not cancel the Spark jobs tagged %s", tag, exc_info=True)


def _interrupted(error: BaseException | None) -> bool:
    """Whether ``error`` is a ``KeyboardInterrupt``, or was raised while one was being handled."""
    seen = 0
    while error is not None and seen < 20:
        if isinstance(error, KeyboardInterrupt):
            return True
        error = error.__cause__ or error.__context__
        seen += 1
    return False


def _replaceable(handler: Any) -> bool:
    """Python's default SIGINT handler or PySpark's (which calls ``cancelAllJobs`` over py4j)."""
    return handler is signal.default_int_handler or getattr(handler, "__module__", "") == "pyspark.core.context"


@contextmanager
def _sigint_cancels(cancel: Any) -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    if not _replaceable(previous):
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        cancel()
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
