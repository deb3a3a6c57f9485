"""Mistakes in ``F.from_json``/``from_csv``/``from_xml`` that mypy must report (expected messages after "# E:")."""

from __future__ import annotations

from models import Address, User

from pydantable_spark import F

users = User.from_rows([])

F.from_json(User.name, "city string")  # E: Argument 2 to "from_json" has incompatible type "str"
F.from_json(User.name, Address, ["mode"])  # E: Argument 3 to "from_json" has incompatible type "list[str]"
F.from_json(User.id, Address)  # E: F.from_json(): col must be a string column of JSON text; got column 'User.id'
F.from_csv(User.score, Address)  # E: F.from_csv(): col must be a string column of CSV text
F.from_xml(User.joined, Address)  # E: F.from_xml(): col must be a string column of XML text; got column 'User.joined'
F.from_csv(User.name, User)  # E: F.from_csv(): a CSV record holds atomic values only; field 'address' of User
F.from_json(User.name, Address, {"mode": "DROPMALFORMED"})  # E: options['mode'] is 'DROPMALFORMED'
F.from_xml(User.name, Address, {"columnNameOfCorruptRecord": "bad"})  # E: option 'columnNameOfCorruptRecord' is not
users.select(a=F.from_json("tags", Address))  # E: col must be a string column of JSON text; got column 'tags'


def speed(rows: list[str]) -> None:
    parsed = users.select(p=F.from_json(User.name, Address)).collect()[0].p
    if parsed is not None:
        parsed.city.upper()  # E: Item "None" of "str | None" has no attribute "upper"
