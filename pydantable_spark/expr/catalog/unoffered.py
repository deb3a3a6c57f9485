"""PySpark functions the façade does not offer, each with the reason (one short sentence).

The generated reference page lists every ``pyspark.sql.functions`` name as
typed here (a catalog entry or special form) or as not offered, with the
reason given below. A name in this table is never a catalog name.
"""

from __future__ import annotations

__all__ = ["NOT_OFFERED"]

_TIME = "It reads or gives Spark's TIME type, a preview Spark 4.3 refuses by default; no column type holds it."

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
    # --- SQL text and calls by name: no user value is SQL, and a result type must be known ---
    "expr": "It parses SQL text, and no user value reaches Spark as SQL here: write it with F and operators.",
    "call_function": "It calls a function named by a string, whose result type the façade cannot know: use F.<name>.",
    "call_udf": "It calls a UDF registered by name, whose types the façade cannot see: use F.udf on the function.",
    "java_method": "It calls any JVM method by name; its result type cannot be known when the plan is built.",
    "reflect": "It calls any JVM method by name; its result type cannot be known when the plan is built.",
    "try_reflect": "It calls any JVM method by name; its result type cannot be known when the plan is built.",
    # --- frame operations, not column functions ---
    "broadcast": "A join hint on a DataFrame, not a column function.",
    "asc": "Sort order is frame.sort(..., descending=, nulls_last=), not a column function.",
    "desc": "Sort order is frame.sort(..., descending=, nulls_last=), not a column function.",
    "asc_nulls_first": "Sort order is frame.sort(..., descending=, nulls_last=), not a column function.",
    "asc_nulls_last": "Sort order is frame.sort(..., descending=, nulls_last=), not a column function.",
    "desc_nulls_first": "Sort order is frame.sort(..., descending=, nulls_last=), not a column function.",
    "desc_nulls_last": "Sort order is frame.sort(..., descending=, nulls_last=), not a column function.",
    "explode": "A generator changes the row count: use frame.explode(columns).",
    "explode_outer": "A generator changes the row count: use frame.explode_outer(columns).",
    "posexplode": "A generator changes the row count: use frame.posexplode(column).",
    "posexplode_outer": "A generator changes the row count: use frame.posexplode_outer(column).",
    "inline": "A generator changes the row count: use frame.inline(column).",
    "inline_outer": "A generator changes the row count: use frame.inline_outer(column).",
    "stack": "A generator of rows from columns: frame.unpivot(...) does it, typed (one value type per output).",
    "json_tuple": "A generator of one output column per field: use F.get_json_object(col, path) per field.",
    "monotonically_increasing_id": "Use frame.with_row_count(), which reads the id once so filters cannot move it.",
    "pandas_udf": "Vectorized UDFs are not typed here yet: F.udf gives a typed, Arrow-optimized Python UDF.",
    "arrow_udf": "Vectorized UDFs are not typed here yet: F.udf gives a typed, Arrow-optimized Python UDF.",
    "udtf": "Table functions change the row count and schema; they are not offered.",
    "arrow_udtf": "Table functions change the row count and schema; they are not offered.",
    # --- types no column type holds, and forms valid elsewhere (measured on Spark 4.3) ---
    "current_time": "Its result is Spark's TIME type (a preview in Spark 4.3), which no column type holds yet.",
    "make_time": _TIME,
    "time_diff": _TIME,
    "time_from_micros": _TIME,
    "time_from_millis": _TIME,
    "time_from_seconds": _TIME,
    "time_to_micros": _TIME,
    "time_to_millis": _TIME,
    "time_to_seconds": _TIME,
    "time_trunc": _TIME,
    "to_time": _TIME,
    "try_to_time": _TIME,
    "make_interval": "Its result is a calendar interval (months, days, microseconds), which no column type holds.",
    "try_make_interval": "Its result is a calendar interval (months, days, microseconds), which no column type holds.",
    "make_ym_interval": "Its result is a year-month interval, which no column type holds (timedelta is day-time).",
    "st_asbinary": "It reads GEOMETRY/GEOGRAPHY values, a type no column type holds.",
    "st_geogfromwkb": "Its result is a GEOGRAPHY value, a type no column type holds.",
    "st_geomfromwkb": "Its result is a GEOMETRY value, a type no column type holds.",
    "st_setsrid": "It reads and returns GEOMETRY/GEOGRAPHY values, a type no column type holds.",
    "st_srid": "It reads GEOMETRY/GEOGRAPHY values, a type no column type holds.",
    "collate": "Its result is a string with a collation, which no column type carries.",
    "collation": "Column types carry no collation here, so every string would report the default one.",
    "unwrap_udt": "It unwraps a user-defined type (UDT), which no column type holds.",
    "bucket": "A partition transform, valid only in DataFrameWriterV2.partitionedBy (Spark SQL has no such function).",
    "years": "A partition transform, valid only in DataFrameWriterV2.partitionedBy (Spark SQL has no such function).",
    "months": "A partition transform, valid only in DataFrameWriterV2.partitionedBy (Spark SQL has no such function).",
    "days": "A partition transform, valid only in DataFrameWriterV2.partitionedBy (Spark SQL has no such function).",
    "hours": "A partition transform, valid only in DataFrameWriterV2.partitionedBy (Spark SQL has no such function).",
    "grouping": "Valid only with GROUPING SETS, CUBE or ROLLUP, which group_by does not offer.",
    "grouping_id": "Valid only with GROUPING SETS, CUBE or ROLLUP, which group_by does not offer.",
    "column": "PySpark's second spelling of col: use F.col.",
    # --- deprecated PySpark spellings (not in pyspark.sql.functions.__all__) ---
    "toDegrees": "Deprecated in PySpark since 2.1: use F.degrees.",
    "toRadians": "Deprecated in PySpark since 2.1: use F.radians.",
    "bitwiseNOT": "Deprecated in PySpark since 3.2: use F.bitwise_not.",
    "shiftLeft": "Deprecated in PySpark since 3.2: use F.shiftleft.",
    "shiftRight": "Deprecated in PySpark since 3.2: use F.shiftright.",
    "shiftRightUnsigned": "Deprecated in PySpark since 3.2: use F.shiftrightunsigned.",
}
