"""The tests of ``pydantable_spark.steps`` build plans and steps only: no Spark session starts for them.

The root conftest starts one session for the run (autouse); this fixture of the
same name replaces it here, so ``pytest tests/steps`` runs in seconds without a
JVM (STYLE §18). The plans are built from Python rows, which stay Arrow tables
until a plan is executed.
"""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session", autouse=True)
def spark() -> None:
    """No SparkSession: these tests never execute a plan."""
