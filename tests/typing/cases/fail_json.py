"""Mistakes in ``F.from_json`` that mypy must report (expected messages after "# E:")."""

from __future__ import annotations

from models import Address, User

from pydantable_spark import F

F.from_json(User.name, "city string")  # E: Argument 2 to "from_json" has incompatible type "str"
F.from_json(User.name, Address, ["mode"])  # E: Argument 3 to "from_json" has incompatible type "list[str]"
