"""Which SparkSession a frame runs on.

In order: the ``session=`` a user passed; the active session; a Spark Connect
session when ``SPARK_REMOTE`` is set; otherwise an embedded local session that
the library starts itself on first use (``local[*]``, UI off, UTC, Arrow on,
few shuffle partitions, quiet logs).
"""

from __future__ import annotations

import logging
import os
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pyspark.sql import SparkSession

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["EMBEDDED_CONFIG", "interrupt_tag", "is_case_sensitive", "is_connect", "resolve_session", "tagged_jobs"]

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
    return builder.getOrCreate()


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
