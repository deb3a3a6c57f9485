"""The reliability table of ``docs/reliability.md``, counted from the tests themselves.

Each row is a family of bad, hostile or faulty inputs; its count comes from the
test corpus (the data the injection tests iterate over, multiplied by the
session settings each runs under) or from the test items pytest collects. The
table in the docs is this script's output; ``tests/test_reliability.py``
checks that they agree.

Run: ``python benchmarks/reliability.py``.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
TESTS = [
    "tests/test_injection.py",
    "tests/test_writes.py",
    "tests/test_faults.py",
    "tests/test_io.py",
    "tests/test_io_roundtrip.py",
    "tests/test_materialize.py",
    "tests/test_constructors.py",
    "tests/test_plan_format.py",
    "tests/test_polars.py",
    "tests/test_constraints.py",
    "tests/test_concurrency.py",
    "tests/expr/test_udf.py",
    "tests/steps/test_fuse_projections.py",
    "tests/_spark/test_lowering.py",
    "tests/_spark/test_checks.py",
]


@dataclass(frozen=True)
class Row:
    family: str
    cases: int
    outcome: str
    tests: str
    lost: str = "0"


def _module(path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(Path(path).stem, ROOT / path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def collected() -> Counter[str]:
    """Test items per test function (``file::name``), as pytest collects them."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:randomly", *TESTS],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    items = [line.split("[")[0] for line in done.stdout.splitlines() if "::" in line]
    return Counter(items)


def rows() -> list[Row]:
    inj = _module("tests/test_injection.py")
    faults = _module("tests/test_faults.py")
    roundtrip = _module("tests/test_io_roundtrip.py")
    plans = _module("tests/test_plan_format.py")
    items = collected()

    def n(test: str) -> int:
        return sum(count for name, count in items.items() if name.endswith("::" + test))

    settings = len(inj.CONFS)
    hostile = len(inj.HOSTILE)
    names = len({name.lower() for name in inj.NAMES})  # the test keeps one of names equal ignoring case
    fields = len(dict.fromkeys([name for name in inj.NAMES if "${" not in name][:12]))
    formats = len([t for t in inj.HOSTILE if "%" not in t])
    stopped = len(re.findall(r"^    \(\"", faults.STOPPED, re.MULTILINE))
    return [
        Row(
            "injection: hostile strings as literals (`F.lit`, `==`, `filter`) × session settings",
            hostile * 3 * settings,
            "exact result",
            "test_literals_and_comparisons_are_exact, test_filters_match_exactly_one_row",
        ),
        Row(
            "injection: hostile strings as string parameters of functions (incl. date formats) × settings",
            (len(inj.STRING_PARAMETERS) * hostile + formats) * settings,
            "exact result",
            "test_every_string_parameter_is_a_value, test_date_formats_with_hostile_literal_text",
        ),
        Row(
            "injection: non-int values (SQL text, floats, bools, ...) for integer parameters",
            n("test_integer_parameters_refuse_everything_but_int"),
            "clear error when the call is made (`None` = unbounded where that is its meaning)",
            "test_integer_parameters_refuse_everything_but_int",
        ),
        Row(
            "injection: non-str values for string parameters and names",
            n("test_string_parameters_refuse_non_strings"),
            "clear error when the call is made",
            "test_string_parameters_refuse_non_strings",
        ),
        Row(
            "injection: hostile strings and non-str values for join hints and storage levels; non-numbers and "
            "out-of-range values for sample fractions; non-int partition counts",
            len(inj.NAME_PARAMETERS) * (hostile + 5)
            + n("test_sample_fractions_refuse_everything_but_numbers")
            + n("test_sample_fractions_out_of_range_are_refused")
            + n("test_repartition_takes_an_int_or_columns"),
            "clear error when the call is made (a string partition count names a column)",
            "test_name_parameters_refuse_every_other_string, test_sample_fractions_refuse_everything_but_numbers, "
            "test_sample_fractions_out_of_range_are_refused, test_repartition_takes_an_int_or_columns",
        ),
        Row(
            "injection: join conditions with hostile literals (one semi join per string) and over hostile "
            "column names, with a repartition, sample, coalesce and hint × settings",
            (hostile + 1) * settings + 3 * settings,
            "exact result",
            "test_join_conditions_with_hostile_literals_are_exact, test_join_conditions_over_hostile_column_names",
        ),
        Row(
            "injection: hostile column names (incl. internal `__pydantable_*` names) through `with_columns`, "
            "`filter`, `sort`, `collect`, `count` × settings; through 7 relational operations × settings; "
            "internal names next to a join and `unique`",
            names * n("test_hostile_column_names_are_names")
            + 7 * n("test_hostile_names_through_relational_operations")
            + n("test_internal_names_do_not_collide_with_user_columns"),
            "exact result",
            "test_hostile_column_names_are_names, test_hostile_names_through_relational_operations, "
            "test_internal_names_do_not_collide_with_user_columns",
        ),
        Row(
            "injection: hostile strings as prefixes, suffixes and replacements of column names "
            "(`rename_prefix`, `rename_suffix`, `rename_replace`, then `select_last`, `move`) × settings",
            len([t for t in inj.HOSTILE if t]) * n("test_hostile_prefixes_suffixes_and_replacements_are_names"),
            "exact result",
            "test_hostile_prefixes_suffixes_and_replacements_are_names",
        ),
        Row(
            "injection: hostile struct field names × settings; `${` in a field name",
            fields * n("test_hostile_struct_field_names_are_read_exactly")
            + n("test_struct_field_names_with_substitution_are_refused"),
            "exact result; clear error",
            "test_hostile_struct_field_names_are_read_exactly, test_struct_field_names_with_substitution_are_refused",
        ),
        Row(
            "injection: run-time NULL checks on 4 hostile column names × settings; `${` in 2 table names",
            4 * n("test_null_check_names_any_column") + 2 * n("test_table_names_with_substitution_are_refused"),
            "clear error (`NullCheckError`; `ValueError`)",
            "test_null_check_names_any_column, test_table_names_with_substitution_are_refused",
        ),
        Row(
            "writes: a run-time check fails mid-write (overwrite, append, dynamic overwrite, new path, tables; "
            "Parquet, ORC, CSV, JSON)",
            n("test_a_failed_overwrite_leaves_the_old_data")
            + n("test_a_failed_append_adds_no_file")
            + n("test_a_failed_dynamic_overwrite_leaves_every_partition")
            + n("test_a_failed_write_to_a_new_path_leaves_no_path")
            + n("test_a_failed_save_as_table_leaves_the_table")
            + n("test_a_failed_save_as_new_table_creates_nothing"),
            "clear error (`NullCheckError`); target intact row for row, no leftover file",
            "tests/test_writes.py",
        ),
        Row(
            "writes: the swap itself fails (each rename of an overwrite, an append's third file move, "
            "a table rename; injected, and a real Spark rename failure)",
            n("test_a_failure_while_swapping_puts_the_old_data_back")
            + n("test_a_failure_while_moving_appended_files_takes_them_back")
            + n("test_a_failed_table_swap_puts_the_old_table_back")
            + n("test_a_blocked_table_swap_keeps_the_old_data_and_says_where"),
            "clear error (`WriteError`); old data restored, or kept in a table the error names",
            "tests/test_writes.py",
        ),
        Row(
            "writes: overwriting a path or table the frame reads (directly, through a union, from a parent "
            "directory); `path=` for a table; an existing target with `error`/`ignore`",
            n("test_overwriting_the_path_a_frame_reads_is_refused_up_front")
            + n("test_overwriting_a_directory_that_holds_what_the_frame_reads_is_refused")
            + n("test_overwriting_the_table_a_frame_reads_is_refused")
            + n("test_save_as_table_refuses_an_external_path")
            + n("test_error_and_ignore_modes_never_touch_existing_data")
            + n("test_save_as_table_modes"),
            "clear error before any job (`WriteError`, `TargetExistsError`); `ignore` writes nothing",
            "tests/test_writes.py",
        ),
        Row(
            "faults: Ctrl-C during a write (overwrite, append, `save_as_table`)",
            n("test_ctrl_c_during_a_write_cancels_it_and_keeps_the_old_data")
            + n("test_ctrl_c_during_save_as_table_keeps_the_table"),
            "`KeyboardInterrupt`, job cancelled, old data intact",
            "tests/test_faults.py",
        ),
        Row(
            "faults: Ctrl-C during `collect`, trusted `collect`, `count`, `to_arrow`, `to_pandas`, `to_dict`, "
            "`stream`, `submit().wait()` (PySpark's handler and Python's default one), and 0.05-0.8 s after "
            "the call, while Spark still plans the job; during a stream's later batch",
            n("test_ctrl_c_cancels_the_job_of_any_action")
            + n("test_ctrl_c_under_the_default_python_handler")
            + n("test_ctrl_c_while_the_job_is_still_being_planned")
            + n("test_ctrl_c_during_a_later_batch_of_a_stream"),
            "`KeyboardInterrupt` within seconds, that job cancelled, the next job runs",
            "tests/test_faults.py",
            "0 (reads only)",
        ),
        Row(
            "faults: a frame or `session=` of a stopped session (collect, count, to_arrow, stream, write, ...)",
            stopped,
            "clear error (`SessionStoppedError`) with the way out",
            "test_a_frame_of_a_stopped_session_says_so_and_how_to_go_on",
            "0 (the refused overwrite touched nothing)",
        ),
        Row(
            "faults: raw Spark/pyarrow errors (file type clash, cast overflow, missing path or table, "
            "workers without pyarrow, mixed pandas object column, NULL in a column named `it's`, submitted job)",
            n("test_files_that_disagree_on_a_type_raise_spark_job_error")
            + n("test_a_run_time_cast_overflow_raises_spark_job_error")
            + n("test_reading_a_missing_path_raises_spark_job_error")
            + n("test_reading_a_missing_table_raises_spark_job_error")
            + n("test_stream_on_workers_without_pyarrow_says_so")
            + n("test_from_pandas_with_a_mixed_object_column_names_it")
            + n("test_a_null_check_on_a_column_with_a_quote_in_its_name")
            + n("test_submitted_jobs_translate_errors_too"),
            "the library's error class, Spark's as `__cause__`",
            "tests/test_faults.py",
            "0 (reads only)",
        ),
        Row(
            "faults: embedded session with a `python3` without pyarrow first on PATH",
            n("test_the_embedded_session_runs_python_workers_on_the_drivers_interpreter"),
            "exact result (workers run the driver's interpreter)",
            "tests/test_faults.py",
            "0 (reads only)",
        ),
        Row(
            "round trips: random models (13 column kinds, each nullable or not) of hostile values (empty strings, "
            "spaces, quotes, line breaks, NaN, ±0.0, ±inf, years 1 and 9999, microseconds, 38-digit decimals, "
            "NULL in every nullable position) × Parquet, ORC, CSV, JSON writer → reader (hypothesis, ci profile)",
            roundtrip.EXAMPLES * len(roundtrip.FORMATS),
            "exact result; CSV refuses nested and binary columns before writing (`ColumnTypeError`, saying why); "
            "ORC refuses -0.0 (`WriteError`, saying why)",
            "test_every_writer_reader_pair_round_trips_exactly",
        ),
        Row(
            "readers: values Spark's text readers convert silently (a JSON number, object or boolean for a `str`, "
            "at the top and nested; JSON and CSV decimals beyond the model's scale, also with `allow_lossy`; "
            "non-decimals); an RFC 4180 file",
            n("test_json_values_spark_would_convert_silently_are_errors")
            + 2 * n("test_json_strings_are_checked_at_any_depth")
            + 4 * n("test_decimals_round_only_when_allow_lossy_names_the_column")
            + n("test_csv_reads_rfc_4180_by_default"),
            "clear error (`MalformedDataError` naming the column and the value); `allow_lossy` rounds; exact result",
            "tests/test_io.py",
            "0 (reads only)",
        ),
        Row(
            "readers: a name that differs only in case (CSV header, Parquet, JSON keys at the top, in an object, "
            "in a list of objects); Parquet/ORC directories whose files lack a non-null or an Optional column or "
            "disagree on a type; `bigint` → `double`",
            2 * n("test_readers_match_names_case_sensitively_with_a_did_you_mean")
            + n("test_json_key_differing_from_a_field_only_in_case_is_an_error")
            + 3 * n("test_multi_file_directories_are_checked_file_by_file")
            + n("test_bigint_to_double_is_lossy"),
            "clear error (`MissingColumnError` with a did-you-mean, `NullCheckError`, `IncompatibleCastError`, "
            "`LossyCastError`); None for the Optional column",
            "tests/test_io.py",
            "0 (reads only)",
        ),
        Row(
            'writes: a string partition value `""` (Spark would write NULL); bytes in CSV; -0.0 in ORC (at the '
            "top, in a struct in a list, in a map)",
            n("test_a_partition_value_that_is_an_empty_string_is_refused")
            + n("test_csv_writer_refuses_bytes_saying_why")
            + n("test_orc_writer_refuses_negative_zero_that_its_reader_may_not_give_back"),
            "clear error (`WriteError` while Spark runs, `ColumnTypeError` before); target intact",
            "tests/test_io.py",
        ),
        Row(
            "results: dates and timestamps outside years 1-9999 (after 9999, before 1, in a list) × `collect`, "
            "trusted `collect`, `to_dict`, `to_pandas`, `stream`, trusted `stream`, `submit`",
            n("test_out_of_range_dates_are_refused_on_every_python_result"),
            "clear error (`OutOfRangeError` naming column and row); `to_arrow()` exact",
            "tests/test_materialize.py",
            "0 (reads only)",
        ),
        Row(
            "constructors: unknown keys in nested structs (struct, list of, map of); NaN, NULL and -0.0 through "
            "`from_rows`, `from_arrow`, `from_pandas` (3 pandas dtypes); a `from_spark` schema claiming non-null "
            "(top, nested, with and without a model)",
            n("test_from_rows_refuses_unknown_keys_of_nested_structs")
            + 5 * n("test_nan_is_a_value_in_every_constructor")
            + 4 * n("test_from_spark_catches_a_schema_that_claims_non_null_wrongly"),
            "clear error (`RowValidationError`, `NullCheckError` naming the column); NaN kept as NaN everywhere",
            "tests/test_constructors.py",
            "0 (reads only)",
        ),
        Row(
            'plan documents through `plan_format.load`: lax values (`"5"`, `2.9`, `true` for an integer, '
            '`"false"` for a boolean, a string for a list), row keys off by case or unknown, wrong JSON types in '
            "every part, values outside their column type, `decimal(50,2)`, malformed JSON, a JSON list, missing "
            "files and directories, expressions 101 to 10,000 deep and 100 deep (run), façade errors; "
            "mutated conformance fixtures (hypothesis)",
            n("test_limit_takes_an_integer_and_nothing_like_one")
            + n("test_limit_and_offset_counts_are_bounded")
            + 5 * n("test_order_by_flags_are_booleans")
            + 4 * n("test_select_payload_is_a_list_or_columns_object_never_a_string")
            + 5 * n("test_rows_match_the_schema_exactly")
            + n("test_row_values_are_of_their_column_type_strictly")
            + 9 * n("test_decimal_types_are_bounded_as_spark_bounds_them")
            + 12 * n("test_documents_that_are_not_json_objects")
            + n("test_wrong_json_types_name_the_step_and_the_field")
            + 2 * n("test_expressions_as_deep_as_the_limit_load_and_run")
            + 5 * n("test_an_expression_ten_thousand_deep_is_refused_not_a_recursion_error")
            + 3 * n("test_facade_errors_keep_their_class_as_the_cause")
            + n("test_bad_documents_name_the_step")
            + plans.FUZZ_EXAMPLES,
            "clear error (`PlanFormatError` naming the step, the field and what is allowed, the cause kept; "
            "`UnsupportedPlanError` for valid parts not read); nothing else escapes; 100 levels load and run",
            "tests/test_plan_format.py",
            "0 (reads only)",
        ),
        Row(
            "interop: Arrow columns with an empty chunk (in the middle, first, several, last) through `from_arrow` "
            "(with and without a model, count); pandas frames with a repeated column name or ints beyond 64 bits; "
            "Polars `UInt64`, `Int128`, `Time`, `Object` columns (with and without a model)",
            n("test_from_arrow_keeps_every_chunk_around_an_empty_one")
            + 4 * n("test_from_pandas_names_repeated_columns_and_ints_beyond_64_bits")
            + 2 * n("test_polars_types_without_a_spark_type_are_named"),
            "exact result (every row); clear error (`RowValidationError`, `UnsupportedTypeError` naming the "
            "column and what to cast it to)",
            "tests/test_constructors.py, tests/test_polars.py",
            "0 (reads only)",
        ),
        Row(
            "quarantine: `quarantine=` naming the target another way (a trailing `/`, `./`, `..`, a relative "
            "path, a symbolic link, `file://`, inside it, around it; `default.t`, backticks, "
            "`spark_catalog.default.t`, other case for a table)",
            n("test_quarantine_spelled_as_the_target_another_way_is_refused")
            + n("test_quarantine_table_spelled_as_the_target_another_way_is_refused"),
            "clear error before anything runs (`ValueError` naming both places); nothing written",
            "tests/test_constraints.py",
        ),
        Row(
            "writes: two writes at one target (a path another write makes meanwhile × 5 modes; an overwrite raced "
            "by another; two threads racing for a new path, 4 rounds; for a new table × 3 modes, 3 rounds each); "
            "`constraints='report'` with `mode='ignore'` on an existing path or table",
            n("test_a_path_another_write_makes_meanwhile_is_never_replaced")
            + n("test_an_overwrite_raced_by_another_keeps_the_old_data_it_set_aside")
            + 4 * n("test_two_writers_racing_for_a_new_path_never_both_succeed")
            + 3 * n("test_two_writers_racing_for_a_new_table_lose_no_row")
            + n("test_report_with_ignore_on_an_existing_target_counts_nothing_and_returns"),
            "one write wins, the other is told (`TargetExistsError`, `WriteError` saying where the old data is "
            "kept), `append` adds both, `ignore` leaves it; a 0-row report at once (it hung)",
            "tests/test_writes.py, tests/test_constraints.py",
        ),
        Row(
            "readers: a partition column the files also hold (`k=1/` with `k=5` inside; Parquet, ORC, CSV, JSON); "
            "CSV lines ending in CR LF with CR LF, LF and CR inside quoted fields; files of one read with other "
            "line endings; a quote escaped by a backslash; JSON and CSV columns of any name",
            n("test_a_partition_column_the_files_also_hold_is_refused")
            + n("test_csv_with_crlf_lines_keeps_a_crlf_inside_a_quoted_field")
            + n("test_csv_files_with_other_line_endings_in_one_read_are_an_error_not_lost_rows")
            + n("test_csv_quote_escaped_by_a_backslash_is_malformed_not_odd_text")
            + 2 * n("test_json_and_csv_round_trip_columns_of_any_name"),
            "clear error (`AmbiguousColumnError` with the way out, `MalformedDataError` naming the file); exact result",
            "tests/test_io.py",
            "0 (reads only)",
        ),
        Row(
            "typed UDFs: results their annotation does not allow (`'5'`, `2.7` for an `int`, `2**31` for an "
            "`Int32`, 22 decimal places, `5` for a `str`, an `int` a `float` cannot hold, `1` for a `bool`, an "
            "unknown key of a nested model, `None` for a non-Optional); a UDF that raises; one closing over a lock",
            n("test_a_result_its_annotation_does_not_allow_fails_the_job_naming_udf_row_and_value")
            + n("test_an_exception_in_a_udf_is_named_with_its_row")
            + n("test_a_udf_closing_over_what_cannot_be_pickled_is_named"),
            "clear error (`UdfError` naming the UDF, the row's arguments and the value, or the exception)",
            "tests/expr/test_udf.py",
            "0 (reads only)",
        ),
        Row(
            "results: `to_pandas` of lists, structs and maps holding NULL, NaN and 2**62 + 1",
            n("test_to_pandas_keeps_nested_values_exact"),
            "exact result (Arrow-backed columns; read back by `from_pandas`)",
            "tests/test_materialize.py",
            "0 (reads only)",
        ),
        Row(
            "plans: a loop of 1,000 `with_columns` (steps) and 500 with filters (on Spark); expressions 201 and "
            "5,000 deep; a filter that would nest past the limit; a non-null struct 5, 10, 20 levels deep "
            "(NULL check size) and a NULL 6 levels down",
            n("test_a_loop_of_a_thousand_with_columns_lowers_into_few_steps_each_within_the_parser_limit")
            + n("test_a_loop_of_many_with_columns_and_filters_runs_on_spark")
            + 3 * n("test_an_expression_nested_deeper_than_spark_parses_is_refused_naming_it")
            + n("test_a_filter_over_a_deep_projection_is_not_inlined_past_the_limit")
            + n("test_a_nested_struct_is_rebuilt_once_per_level_without_stand_in_values")
            + 2 * n("test_a_null_deep_inside_is_still_reported_with_its_path"),
            "exact result; clear error (`PlanLimitError` naming the column, the depth and the limit: 200); "
            "`NullCheckError` naming the path",
            "tests/steps/test_fuse_projections.py, tests/_spark/test_lowering.py, tests/_spark/test_checks.py",
            "0 (reads only)",
        ),
        Row(
            "concurrency: 8 threads × 6 actions (collect, count, write and read back, aggregate, stream, "
            "to_arrow) on one session; a cancel racing a job's end, 40 times",
            8 * 6 * n("test_threads_collecting_and_writing_on_one_session_each_get_their_own_result")
            + 40 * n("test_a_cancel_racing_a_job_end_is_decided_once"),
            "exact result for every thread; `cancel()` True always `JobCancelledError`, False the result",
            "tests/test_concurrency.py",
        ),
    ]


def table() -> str:
    lines = [
        "| family of bad input or fault | cases | outcome | data lost | tests |",
        "|---|---:|---|---|---|",
    ]
    for row in rows():
        lines.append(f"| {row.family} | {row.cases} | {row.outcome} | {row.lost} | {row.tests} |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(table())
