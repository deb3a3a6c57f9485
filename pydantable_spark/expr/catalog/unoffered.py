"""PySpark functions the façade does not offer, each with the reason (one short sentence).

The generated reference page lists every ``pyspark.sql.functions`` name as
typed here (a catalog entry or special form) or as not offered, with the
reason given below. A name in this table is never a catalog name.
"""

from __future__ import annotations

__all__ = ["NOT_OFFERED"]

NOT_OFFERED: dict[str, str] = {
    # --- conditional ---
    "try_cast": "The façade casts strictly: use .cast(), which refuses a cast Spark would make silently lossy.",
    "assert_true": "Its result has Spark's NULL type (void), which no column type holds; validate the frame instead.",
    "raise_error": "Its result has Spark's NULL type (void), which no column type holds; validate the frame instead.",
    # --- datetime ---
    "timestamp_nanos": "Its result is a nanosecond timestamp (TIMESTAMP_LTZ(9)), which no column type holds.",
    "unix_nanos": "It takes a nanosecond timestamp (TIMESTAMP(9)), which no column type holds: use F.unix_micros.",
    # --- aggregates ---
    "product": "Spark SQL has no product function (PySpark builds a JVM-only aggregate).",
    # --- deprecated PySpark spellings (not in pyspark.sql.functions.__all__) ---
    "toDegrees": "Deprecated in PySpark since 2.1: use F.degrees.",
    "toRadians": "Deprecated in PySpark since 2.1: use F.radians.",
    "bitwiseNOT": "Deprecated in PySpark since 3.2: use F.bitwise_not.",
    "shiftLeft": "Deprecated in PySpark since 3.2: use F.shiftleft.",
    "shiftRight": "Deprecated in PySpark since 3.2: use F.shiftright.",
    "shiftRightUnsigned": "Deprecated in PySpark since 3.2: use F.shiftrightunsigned.",
}
