"""Broken: frames with a VARIANT column, a time-window key or a column of unknown type (``Any`` to mypy).

One such column used to switch off the checks of the whole frame; now only
what reads a column of unknown type is unchecked, a VARIANT is refused where
the runtime refuses it, and a window key is ``struct<start, end>``.
Each ``case_*`` function is one broken pipeline; the line with the mistake ends
in ``# expect: <catch>`` (see ``test_corpus.py``).
"""

from __future__ import annotations

import datetime
from typing import Any

from pydantable_spark import DataFrameModel, Expr, F, Variant


class Device(DataFrameModel):
    id: int
    site: str
    at: datetime.datetime
    payload: Variant
    attributes: Variant | None


class Firmware(DataFrameModel):
    device_id: int
    payload: Variant


devices = Device.from_rows([])
firmware = Firmware.from_rows([])


def case_unknown_column_beside_a_variant() -> None:
    devices.select(F.col("sitee"))  # expect: mypy plan


def case_wrong_type_beside_a_variant() -> None:
    devices.with_columns(F.col("id").str.upper())  # expect: mypy plan


def case_group_by_a_variant() -> None:
    devices.group_by("payload").agg(n=F.count())  # expect: mypy plan


def case_sort_by_a_variant() -> None:
    devices.sort(Device.attributes, descending=True)  # expect: mypy plan


def case_unique_over_variants() -> None:
    devices.unique()  # expect: mypy plan


def case_join_on_a_variant() -> None:
    devices.join(firmware, on="payload")  # expect: mypy plan


def case_struct_field_of_a_variant() -> None:
    devices.select(Device.payload.struct.field("version"))  # expect: mypy plan


def case_variant_get_bad_path() -> None:
    devices.select(F.variant_get(Device.payload, "version", "string"))  # expect: mypy plan


def case_variant_get_bad_type_name() -> None:
    devices.select(F.try_variant_get(Device.payload, "$.version", "text"))  # expect: mypy plan


def case_variant_get_result_used_as_text() -> None:
    devices.select(F.variant_get(Device.payload, "$.temp", "double").str.upper())  # expect: mypy plan


def case_window_key_field_typo() -> None:
    hourly = devices.group_by(F.window(Device.at, "1 hour")).agg(n=F.count())
    hourly.select(F.col("window").struct.field("begin"))  # expect: mypy plan


def case_window_key_sorted_by_path() -> None:
    hourly = devices.group_by(F.window(Device.at, "1 hour")).agg(n=F.count())
    hourly.sort("window.start")  # expect: mypy plan


def case_window_key_as_a_time() -> None:
    hourly = devices.group_by(F.window(Device.at, "1 hour")).agg(n=F.count())
    hourly.select(F.col("window").dt.hour())  # expect: mypy plan


def case_unknown_column_after_a_window() -> None:
    hourly = devices.group_by(F.window(Device.at, "1 hour"), "site").agg(n=F.count())
    hourly.select("site", F.col("count"))  # expect: mypy plan


def case_session_key_field_typo() -> None:
    sessions = devices.group_by(F.session_window(Device.at, "30 minutes")).agg(n=F.count())
    sessions.select(F.col("session_window").struct.field("stop"))  # expect: mypy plan


def case_unknown_column_beside_an_untyped_one() -> None:
    def enrich(score: Expr[Any]) -> None:
        scored = devices.with_columns(score.alias("score"))
        scored.filter(F.col("score") > 0).select(F.col("sitee"))  # expect: mypy plan

    enrich(F.lit(1))


def case_wrong_type_beside_an_untyped_one() -> None:
    def enrich(score: Expr[Any]) -> None:
        scored = devices.with_columns(score.alias("score"))
        scored.select("score", F.col("site").dt.year())  # expect: mypy plan

    enrich(F.lit(1))
