"""A real Apache Kafka broker for tests: one KRaft node (broker and controller) in a JVM of its own.

``LocalKafka(jars)`` formats a KRaft storage directory in a temporary
directory and starts ``kafka.Kafka`` from ``jars`` (a directory holding
``kafka_2.13`` and its runtime dependencies, as ``.ci/kafka/pom.xml`` copies
them from Maven Central) on two free local ports; ``start()`` returns once the
broker accepts connections, ``stop()`` ends its JVM, ``restart()`` starts it
again on the same storage (topics and offsets kept). Nothing is downloaded:
without the jars it raises ``FileNotFoundError`` naming the directory.

It is the broker of the project's Kafka tests (``tests/test_kafka.py``) and
serves a user's tests of ``Model.read_stream_kafka`` the same way:

```python
with LocalKafka("/path/to/kafka-jars/broker") as kafka:
    events = Event.read_stream_kafka(kafka.bootstrap_servers, topic="events")
```
"""

from __future__ import annotations

import base64
import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from types import TracebackType

__all__ = ["LocalKafka"]

_SETTINGS = {
    "process.roles": "broker,controller",
    "node.id": "1",
    "controller.listener.names": "CONTROLLER",
    "inter.broker.listener.name": "PLAINTEXT",
    "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
    # one node: the internal topics have one replica
    "offsets.topic.replication.factor": "1",
    "transaction.state.log.replication.factor": "1",
    "transaction.state.log.min.isr": "1",
    "share.coordinator.state.topic.replication.factor": "1",
    "share.coordinator.state.topic.min.isr": "1",
    "group.initial.rebalance.delay.ms": "0",
    "num.partitions": "2",
}
"""The broker's settings but its ports and directory (``server.properties``)."""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _cluster_id() -> str:
    """A new KRaft cluster id: 16 random bytes in URL-safe base64, never led by ``-`` (as Kafka's own ids).

    The storage tool would read an id led by ``-`` as an option (one in 64 ids):

    >>> len(_cluster_id()), _cluster_id().startswith("-")
    (22, False)
    """
    while True:
        cluster = base64.urlsafe_b64encode(uuid.uuid4().bytes).rstrip(b"=").decode()
        if not cluster.startswith("-"):
            return cluster


class LocalKafka:
    """One local Kafka broker (KRaft, broker and controller in one JVM) on free ports, in a temporary directory.

    Args:
        jars: the directory of the broker's jars (``kafka_2.13`` and its runtime dependencies).
        java: the ``java`` command (default: ``$JAVA_HOME/bin/java``, else ``java`` on the PATH).
        heap: the JVM's maximum heap (``-Xmx``).
        timeout: seconds to wait for the broker to accept connections.

    """

    def __init__(self, jars: str | os.PathLike[str], *, java: str | None = None, heap: str = "256m",
                 timeout: float = 60.0) -> None:  # fmt: skip
        self.jars = Path(jars)
        if not any(self.jars.glob("kafka_2.13-*.jar")):
            msg = f"LocalKafka: {str(self.jars)!r} holds no kafka_2.13 jar; fetch them (.ci/kafka/pom.xml)"
            raise FileNotFoundError(msg)
        home = os.environ.get("JAVA_HOME")
        self.java = java or (str(Path(home) / "bin" / "java") if home else "java")
        self.heap = heap
        self.timeout = timeout
        self.directory = Path(tempfile.mkdtemp(prefix="pydantable-kafka-"))
        self.port = _free_port()
        self.controller_port = _free_port()
        self._process: subprocess.Popen[bytes] | None = None
        self._config = self.directory / "server.properties"
        settings = {
            **_SETTINGS,
            "controller.quorum.voters": f"1@127.0.0.1:{self.controller_port}",
            "listeners": f"PLAINTEXT://127.0.0.1:{self.port},CONTROLLER://127.0.0.1:{self.controller_port}",
            "advertised.listeners": f"PLAINTEXT://127.0.0.1:{self.port}",
            "log.dirs": str(self.directory / "data"),
        }
        self._config.write_text("".join(f"{key}={value}\n" for key, value in settings.items()))
        self._formatted = False
        self.start_seconds: float | None = None
        """How long the last ``start()`` took (the JVM's start to the first accepted connection)."""

    @property
    def bootstrap_servers(self) -> str:
        """``host:port`` of the broker, for ``read_stream_kafka`` and Spark's ``kafka.bootstrap.servers``."""
        return f"127.0.0.1:{self.port}"

    @property
    def running(self) -> bool:
        """Whether the broker's JVM is running."""
        return self._process is not None and self._process.poll() is None

    def _java(self, main: str, *args: str) -> list[str]:
        # a broker for tests: one collector thread and the quick JIT compiler only (what the test session does, see
        # conftest.py), so the broker's JVM takes little CPU from the Spark it serves on a small machine
        quick = ["-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"]
        return [self.java, f"-Xmx{self.heap}", *quick, "-cp", str(self.jars / "*"), main, *args]

    def _format(self) -> None:
        command = self._java("kafka.tools.StorageTool", "format", "-t", _cluster_id(), "-c", str(self._config))
        done = subprocess.run(command, capture_output=True, check=False, timeout=self.timeout)
        if done.returncode != 0:
            msg = f"LocalKafka: formatting the KRaft storage failed:\n{done.stdout.decode()}{done.stderr.decode()}"
            raise RuntimeError(msg)
        self._formatted = True

    def start(self) -> LocalKafka:
        """Start the broker (formatting its storage the first time); return once it accepts connections."""
        if self.running:
            return self
        if not self._formatted:
            self._format()
        began = time.monotonic()
        log = (self.directory / "broker.log").open("ab")
        try:
            self._process = subprocess.Popen(
                self._java("kafka.Kafka", str(self._config)), stdout=log, stderr=subprocess.STDOUT
            )
        finally:
            log.close()
        while time.monotonic() - began < self.timeout:
            if self._process.poll() is not None:
                msg = f"LocalKafka: the broker exited with {self._process.returncode}:\n{self._log_tail()}"
                raise RuntimeError(msg)
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    self.start_seconds = time.monotonic() - began
                    return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        msg = f"LocalKafka: the broker did not accept connections within {self.timeout} s:\n{self._log_tail()}"
        raise TimeoutError(msg)

    def stop(self) -> None:
        """Stop the broker's JVM (a clean shutdown, killed after 30 s); its storage is kept for ``start()``."""
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def restart(self) -> LocalKafka:
        """Stop the broker and start it again on the same storage and ports."""
        self.stop()
        return self.start()

    def close(self) -> None:
        """Stop the broker and remove its directory."""
        self.stop()
        shutil.rmtree(self.directory, ignore_errors=True)

    def _log_tail(self) -> str:
        path = self.directory / "broker.log"
        return path.read_text(errors="replace")[-4000:] if path.exists() else ""

    def __enter__(self) -> LocalKafka:
        return self.start()

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()
