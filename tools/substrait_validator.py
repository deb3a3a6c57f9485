"""Run PyPI's ``substrait-validator`` over serialized Substrait plans (a dev tool of the tests).

The validator bundles its own copy of Substrait's protobuf files, which cannot be loaded into a process that
already holds ``substrait-protobuf``'s (protobuf refuses a second ``substrait/type.proto``), so it runs in a
subprocess. Two of its diagnostics are lowered to notes, each about the validator rather than the plan: 2001
(it does not fetch the standard extension YAML files a plan names by URL; these machines reach no GitHub)
and 0001 ("not yet implemented: matching function calls with their definitions"). Any other warning or error
makes a plan invalid.

    python -m tools.substrait_validator plan.bin [more.bin ...]
"""

from __future__ import annotations

import subprocess
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

__all__ = ["validate"]

_VALIDATE = """
import sys
import substrait_validator as sv
config = sv.Config()
config.override_diagnostic_level(2001, "info", "info")  # the extension YAMLs are not fetched (no network)
config.override_diagnostic_level(1, "info", "info")  # the validator does not match calls with definitions yet
failed = []
for path in sys.argv[1:]:
    raw = open(path, "rb").read()
    try:
        sv.check_plan_valid(raw, config)
    except Exception as error:
        failed.append(f"{path}: {error}")
print("\\n".join(failed))
"""


def validate(paths: Sequence[Path | str]) -> str:
    """What the validator reports about the plans at ``paths``: one line per invalid plan, or ``""``."""
    command = [sys.executable, "-c", _VALIDATE, *map(str, paths)]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip()


if __name__ == "__main__":
    report = validate(sys.argv[1:])
    print(report or "valid")
    sys.exit(1 if report else 0)
