"""The local engine follows the settings of the session a frame would run on: its time zone."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

from pydantable_spark import DataFrameModel, F

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


class Moment(DataFrameModel):
    at: datetime.datetime


def test_the_session_time_zone_is_the_local_engines(spark: SparkSession) -> None:
    """``year()`` of 2023-12-31T20:00Z is 2024 in Tokyo: the local engine reads the active session's zone."""
    at = datetime.datetime(2023, 12, 31, 20, tzinfo=datetime.timezone.utc)
    moments = Moment.from_rows([{"at": at}])
    frame = moments.select(
        F.year(Moment.at).alias("y"),
        F.month(Moment.at).alias("m"),
        F.dayofmonth(Moment.at).alias("d"),
        F.quarter(Moment.at).alias("q"),
    )
    tokyo = moments.filter(F.year(Moment.at) == 2024)
    previous = spark.conf.get("spark.sql.session.timeZone")
    try:
        for zone in ("Asia/Tokyo", "America/New_York", "UTC"):
            spark.conf.set("spark.sql.session.timeZone", zone)
            assert frame.to_dict(engine="local") == frame.to_dict(), zone
            assert tokyo.count(engine="local") == tokyo.count(), zone
        spark.conf.set("spark.sql.session.timeZone", "Asia/Tokyo")
        assert frame.to_dict(engine="local") == {"y": [2024], "m": [1], "d": [1], "q": [1]}
    finally:
        spark.conf.set("spark.sql.session.timeZone", previous)
