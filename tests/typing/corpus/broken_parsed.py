"""Broken: text parsed by a model (``F.from_json``, ``from_csv``, ``from_xml``): its column, options, and rows.

PERMISSIVE parsing makes a field NULL where the text lacks it or it does not
parse, so a parsed field is Optional whatever the model declares.

Each ``case_*`` function is one broken pipeline; the line with the mistake ends
in ``# expect: <catch>`` (see ``test_corpus.py``).
"""

from __future__ import annotations

from models import Ping, Reading, Track

from pydantable_spark import F

pings = Ping.from_rows([])
PINGS = [  # speed missing from the JSON, not a number in the CSV; heading missing from the JSON
    {"ping_id": 1, "device": "a", "payload": '{"heading": "N"}', "line": "fast,N"},
    {"ping_id": 2, "device": "b", "payload": '{"speed_kmh": 40.0}', "line": "40,S"},
]


def case_json_of_an_int_column() -> None:
    pings.select(r=F.from_json(Ping.ping_id, Reading))  # expect: mypy plan


def case_csv_of_an_int_column_by_name() -> None:
    pings.select(r=F.from_csv("ping_id", Reading))  # expect: mypy plan


def case_xml_of_an_expression_not_text() -> None:
    pings.with_columns(r=F.from_xml(Ping.ping_id + 1, Reading, {"rowTag": "r"}))  # expect: mypy plan


def case_csv_of_a_model_with_a_list() -> None:
    pings.select(t=F.from_csv(Ping.line, Track))  # expect: mypy plan


def case_json_mode_not_offered() -> None:
    pings.select(r=F.from_json(Ping.payload, Reading, {"mode": "DROPMALFORMED"}))  # expect: mypy plan


def case_corrupt_record_column_not_offered() -> None:
    pings.select(r=F.from_json(Ping.payload, Reading, {"columnNameOfCorruptRecord": "bad"}))  # expect: mypy plan


def case_json_field_used_as_non_null() -> None:
    parsed = Ping.from_rows(PINGS[:1]).select(Ping.ping_id, r=F.from_json(Ping.payload, Reading))
    print([row.r.speed_kmh * 0.62 for row in parsed.collect() if row.r is not None])  # expect: mypy spark


def case_json_string_field_used_as_non_null() -> None:
    parsed = Ping.from_rows(PINGS[1:]).select(r=F.from_json(Ping.payload, Reading))
    print([row.r.heading.lower() for row in parsed.collect() if row.r is not None])  # expect: mypy spark


def case_csv_field_that_does_not_parse() -> None:
    parsed = Ping.from_rows(PINGS[:1]).select(r=F.from_csv(Ping.line, Reading))
    print([row.r.speed_kmh + 1 for row in parsed.collect() if row.r is not None])  # expect: mypy spark
