"""The reliability table of ``docs/reliability.md``, counted from the tests themselves.

Each row is a family of bad, hostile or faulty inputs; its count comes from the
test corpus (the data the injection tests iterate over, multiplied by the
session settings each runs under, and the example counts hypothesis tests
declare as constants), from the test items pytest collects, or from a test's
own source (the ``pytest.raises`` blocks it runs, a block in a loop once per
element looped over; the elements of the literal a test checks one by one).
The table in the docs is this script's output; ``tests/test_reliability.py``
checks that they agree.

Run: ``python benchmarks/reliability.py``.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
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
    "tests/test_modelgen.py",
    "tests/test_stubgen.py",
    "tests/test_display.py",
    "tests/test_merge.py",
    "tests/expr/test_json.py",
    "tests/expr/test_csv_xml.py",
    "tests/expr/test_variant.py",
    "tests/test_reshaping.py",
    "tests/test_physical_controls.py",
    "tests/test_testing.py",
]

MODELGEN = "tests/test_modelgen.py"
MERGE = "tests/test_merge.py"
IO = "tests/test_io.py"
VARIANT = "tests/expr/test_variant.py"
RESHAPING = "tests/test_reshaping.py"
PHYSICAL = "tests/test_physical_controls.py"
TESTING = "tests/test_testing.py"
CONSTRUCTORS = "tests/test_constructors.py"
FUSE = "tests/steps/test_fuse_projections.py"


@dataclass(frozen=True)
class Row:
    family: str
    cases: int
    outcome: str
    tests: str
    lost: str = "0"


def _module(path: str) -> ModuleType:
    name = "reliability_corpus_" + Path(path).stem  # registered: dataclasses look their module up by name
    spec = importlib.util.spec_from_file_location(name, ROOT / path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def collected() -> Counter[str]:
    """Test items (``file::name[parameters]``), as pytest collects them."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:randomly", *TESTS],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return Counter(line for line in done.stdout.splitlines() if line.startswith("tests/") and "::" in line)


def _test(path: str, test: str) -> ast.FunctionDef:
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    found = [node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == test]
    if len(found) != 1:
        msg = f"{path} has no test function {test}"
        raise LookupError(msg)
    return found[0]


def _runs(test: ast.FunctionDef, statements: list[ast.stmt], counted: Callable[[ast.stmt], bool]) -> int:
    """How many times the counted statements run: once each, times the elements of each loop around them.

    A loop must go over a literal (or a local name bound to one, or its ``.items()``); a branch counts as run.
    """
    runs = 0
    for statement in statements:
        if counted(statement):
            runs += 1
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        if isinstance(statement, ast.For):
            inside = _runs(test, statement.body, counted)
            if inside:  # only a loop around a counted statement needs its length
                runs += _length(test, statement.iter) * inside
            runs += _runs(test, statement.orelse, counted)
            continue
        if isinstance(statement, ast.While | ast.AsyncFor) and _runs(test, statement.body, counted):
            msg = f"{test.name}: cannot count the runs of a `{type(statement).__name__.lower()}` loop"
            raise ValueError(msg)
        for block in ("body", "orelse", "finalbody"):
            runs += _runs(test, getattr(statement, block, []), counted)
        for handler in getattr(statement, "handlers", []):
            runs += _runs(test, handler.body, counted)
    return runs


def _length(test: ast.FunctionDef, holder: ast.expr) -> int:
    """The elements a literal holds; a local name's literal with the items stored into it (``name[k] = ...``)."""
    if isinstance(holder, ast.List | ast.Tuple | ast.Set) and not any(isinstance(e, ast.Starred) for e in holder.elts):
        return len(holder.elts)
    if isinstance(holder, ast.Dict) and None not in holder.keys:
        return len(holder.keys)
    if (
        isinstance(holder, ast.Call)
        and isinstance(holder.func, ast.Attribute)
        and holder.func.attr in ("items", "keys", "values")
        and not holder.args
    ):
        return _length(test, holder.func.value)
    if isinstance(holder, ast.Name):
        name = holder.id
        bound = [
            node.value
            for node in ast.walk(test)
            if isinstance(node, ast.Assign | ast.AnnAssign)
            and node.value is not None
            and any(isinstance(t, ast.Name) and t.id == name for t in _targets(node))
        ]
        if len(bound) == 1:

            def stored(statement: ast.stmt) -> bool:
                return isinstance(statement, ast.Assign) and any(
                    isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == name
                    for t in statement.targets
                )

            return _length(test, bound[0]) + _runs(test, test.body, stored)
    msg = f"{test.name}: cannot count the elements of `{ast.unparse(holder)}`"
    raise ValueError(msg)


def _targets(node: ast.Assign | ast.AnnAssign) -> list[ast.expr]:
    return node.targets if isinstance(node, ast.Assign) else [node.target]


def refusals(path: str, test: str) -> int:
    """The ``pytest.raises`` blocks a test runs (one in a loop once per element looped over)."""

    def refused(statement: ast.stmt) -> bool:
        return isinstance(statement, ast.With) and any(
            isinstance(item.context_expr, ast.Call) and ast.unparse(item.context_expr.func) == "pytest.raises"
            for item in statement.items
        )

    function = _test(path, test)
    return _runs(function, function.body, refused)


def elements(path: str, test: str, name: str) -> int:
    """The elements of the literal a test binds to ``name`` (the cases it checks one by one)."""
    function = _test(path, test)
    return _length(function, ast.Name(name))


def rows() -> list[Row]:
    inj = _module("tests/test_injection.py")
    faults = _module("tests/test_faults.py")
    roundtrip = _module("tests/test_io_roundtrip.py")
    plans = _module("tests/test_plan_format.py")
    modelgen = _module("tests/test_modelgen.py")
    stubgen = _module("tests/test_stubgen.py")
    display = _module("tests/test_display.py")
    json_ = _module("tests/expr/test_json.py")
    csv_xml = _module("tests/expr/test_csv_xml.py")
    items = collected()

    def n(test: str, having: str = "") -> int:
        """The items of a test (``name``, or ``file::name`` where two files have one); with ``having``, those
        whose parameters' id holds that text."""
        found: Counter[str] = Counter()
        for item, count in items.items():
            node, _, parameters = item.partition("[")
            if (node == test or node.endswith("::" + test)) and having in parameters:
                found[node.split("::")[0]] += count
        if len(found) != 1:
            where = f"{test} is a test of {sorted(found)}: say which file"
            msg = where if found else f"no test item {test!r} with {having!r} in its parameters' id"
            raise LookupError(msg)
        return sum(found.values())

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
            names * n("tests/test_injection.py::test_hostile_column_names_are_names")
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
        Row(
            "generated source (`pydantable-spark models`, `model_source`, `source_of_path`, `stubgen`): column "
            "names, comments, origins and model names holding statements, quotes, control characters, line and "
            "paragraph separators, NFKC-folding names (`ﬁle`, `ℌx`, `ｆｕｌｌ`), superscripts (`a²`), names "
            "annotations read (`date`, `int`, `Field`, ...), `id`/`ID`/`Id`, a lone surrogate: the issue's cases, "
            "random nested schemas and model names (hypothesis), Parquet files with such names in such a "
            "directory, data Spark cannot read; import fallbacks in a model module",
            sum(len(cases) for cases in modelgen.ISSUE_CASES.values())
            * n("test_the_issue_cases_import_without_running_data_and_read_back_exactly")
            + modelgen.GENERATED_EXAMPLES
            * n("test_generated_modules_never_run_data_and_read_back_every_name_and_comment")
            + modelgen.NAME_EXAMPLES * n("test_a_model_name_is_used_as_it_is_or_refused_saying_why")
            + elements(MODELGEN, "test_attribute_names_are_what_source_spells_as_they_are", "cases")
            + refusals(MODELGEN, "test_columns_a_model_cannot_hold_apart_are_refused_naming_them")
            + refusals(MODELGEN, "test_comments_are_found_by_exact_path_and_a_key_that_names_no_column_is_an_error")
            + n("test_files_with_hostile_names_and_comments_give_a_model_that_reads_them_back")
            + refusals(MODELGEN, "test_data_spark_cannot_read_is_the_librarys_error_with_sparks_reason")
            + stubgen.FALLBACKS.count("except ImportError:")
            * (
                n("test_an_import_fallback_is_left_to_the_import_it_stands_in_for")
                + n("test_the_stub_of_an_import_fallback_type_checks")
            ),
            "each module compiles, holds data only as string literals, imports in a child interpreter whose canary "
            "never fires, and reads back every name and comment; clear error for what a model cannot hold "
            "(`DuplicateColumnError`, `ArgumentValueError` saying why) and for Spark's read errors (`SparkJobError` "
            "with Spark's reason); a stub keeps the import a fallback stands in for, and type-checks",
            "tests/test_modelgen.py, tests/test_stubgen.py",
            "0 (reads only)",
        ),
        Row(
            "display: column names and values holding a line break, CR LF, an ANSI escape, U+2028, U+202E, NUL "
            "through `explain()`, `show`'s table, a schema's `str` and `repr`",
            len(display.FORGING) * n("test_no_name_or_value_forges_a_line_of_explain_show_or_a_schema"),
            "one line per step, column and row, every line printable: none forged",
            "tests/test_display.py",
            "0 (reads only)",
        ),
        Row(
            "MERGE: a NULL into a column the target model declares non-null (a `None` literal in `update`, "
            "`insert`, `insert_all`, a by-source `update`; `F.lit(None)`; a `when` without `otherwise`; a nullable "
            "expression), on a Delta table too (lakehouse tier)",
            n("test_merges_are_checked_when_built", having="-NullabilityError-")
            + refusals(MERGE, "test_a_null_into_a_non_null_column_is_refused_and_commits_nothing")
            + n("test_a_null_literal_binds_only_where_the_target_model_allows_null"),
            "clear error when the call is made (`NullabilityError` naming the clause, the column and the type); "
            "nothing committed (Delta's history unchanged); `None` is a typed NULL where the model allows it",
            "tests/test_merge.py",
            "0 (nothing committed)",
        ),
        Row(
            "typed text functions: `from_json` values the model's type would change (a number, object or boolean "
            "for a `str`, in a list too; decimals beyond the scale or the precision, `1e-41`) and values that fit "
            "(exponent forms, 25 places); `from_csv` and `from_xml` decimals that would round; PERMISSIVE and "
            "FAILFAST; readers' exponent-form decimals (JSON, CSV)",
            len(json_.STRICT) * n("test_values_spark_would_change_are_null_in_permissive_mode")
            + n("test_failfast_names_the_column_the_field_and_the_value")
            + n("test_failfast_keeps_the_values_that_fit")
            + 2 * len(csv_xml.AMOUNTS) * n("test_a_decimal_that_would_round_is_null_in_permissive_mode")  # csv, xml
            + n("test_failfast_names_the_decimal_that_would_round")
            + refusals(IO, "test_a_decimal_in_exponent_form_is_checked_at_its_true_scale"),
            "NULL in PERMISSIVE, clear error in FAILFAST and in readers (`MalformedDataError` naming the column, "
            "the field and the value, Spark's as `__cause__`); values that fit exact",
            "tests/expr/test_json.py, tests/expr/test_csv_xml.py, tests/test_io.py",
            "0 (reads only)",
        ),
        Row(
            "VARIANT: numbers past 38 digits (ints, decimals, nested) and values nested past 1,000 levels (1,001, "
            "2,000, 100,000); values at the limits (±(10**38 - 1), 38 digits each side of the point, `1E-38`, "
            "1,000 levels)",
            n("test_a_number_a_variant_would_round_is_refused_naming_row_and_column")
            + n("test_a_value_nested_deeper_than_spark_parses_is_refused_naming_the_limit")
            + elements(VARIANT, "test_numbers_and_nesting_at_the_variant_limits_go_in_and_come_back_exactly", "values"),
            "clear error (`RowValidationError` naming the row, the column and the path; the depth was a "
            "`RecursionError`); values at the limits come back exactly",
            "tests/expr/test_variant.py",
            "0 (reads only)",
        ),
        Row(
            "values Spark's physical behaviour or a common type would change: `melt` of bigint + double or "
            "decimal + double (and `allow_lossy` naming another column, misspelt, not a list); filters over a "
            "cached frame holding NaN (`== NaN`, `isin`, `> 1e308`, `<=>`, ...); a failed NULL check in eager and "
            "lazy `local_checkpoint()` and `checkpoint()`; a field beside a column differing only in case, with and "
            "without a default (Parquet, ORC, CSV, JSON, a table)",
            refusals(RESHAPING, "test_melt_refuses_a_lossy_common_type_unless_allowed")
            + elements(PHYSICAL, "test_a_cache_keeps_nan_rows_for_every_filter", "filters")
            + refusals(PHYSICAL, "test_a_failed_null_check_in_a_checkpoint_is_null_check_error")
            + refusals(IO, "test_a_field_differing_from_a_column_only_in_case_is_missing_with_a_did_you_mean"),
            "clear error (`LossyCastError` naming the column unless `allow_lossy` names it, `ArgumentValueError`, "
            "`NullCheckError` naming the column, `MissingColumnError` with a did-you-mean); every NaN row kept",
            "tests/test_reshaping.py, tests/test_physical_controls.py, tests/test_io.py",
            "0 (reads only)",
        ),
        Row(
            "constructors and helpers: `build_frame` given a field as its column name and as its field name (in a "
            "row, a nested model, keyword arguments; `from_rows` too); `from_arrow` struct fields differing only "
            "in case (in a struct, in a list of structs); an expression of named columns 1,002 operations deep in "
            "`select`, `with_columns`, `filter`",
            refusals(TESTING, "test_build_frame_refuses_a_field_given_by_its_column_name_and_its_field_name")
            + refusals(CONSTRUCTORS, "test_from_arrow_matches_struct_fields_by_exact_name_with_a_did_you_mean")
            + refusals(FUSE, "test_a_deep_expression_of_named_columns_binds_and_is_refused_by_the_limit"),
            "clear error (`RowValidationError` naming both spellings, `MissingColumnError` with a did-you-mean, "
            "`PlanLimitError` naming the depth and the limit; pyarrow's error or a silent NULL, and a "
            "`RecursionError`, before)",
            "tests/test_testing.py, tests/test_constructors.py, tests/steps/test_fuse_projections.py",
            "0 (reads only)",
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
