"""Expressions: type errors at build time, and values computed by real Spark."""

from __future__ import annotations

import datetime
import decimal
from typing import TYPE_CHECKING, Annotated, Any

import pytest

from pydantable_spark import DataFrameModel, Expr, F
from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ArgumentError, ColumnTypeError, UnknownColumnError

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


pytestmark = pytest.mark.jvm_free
"""These tests run without a JVM (pytest -m "not spark"); the ones marked spark get the session."""


class T(DataFrameModel):
    id: int
    n: int | None
    x: float | None
    s: str | None
    flag: bool | None
    day: datetime.date | None
    at: datetime.datetime | None
    small: Annotated[int, dt.Int32]
    price: Annotated[decimal.Decimal, dt.Decimal(10, 2)]


ROWS = [
    {"id": 1, "n": 7, "x": 1.5, "s": "  Ada ", "flag": True, "day": datetime.date(2024, 2, 29),
     "at": datetime.datetime(2024, 3, 1, 12, tzinfo=datetime.timezone.utc), "small": -7, "price": "9.99"},
    {"id": 2, "n": -7, "x": None, "s": "bob", "flag": False, "day": datetime.date(2023, 12, 31),
     "at": None, "small": 7, "price": "0.01"},
    {"id": 3, "n": None, "x": -2.0, "s": None, "flag": None, "day": None,
     "at": datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc), "small": 0, "price": "100"},
]  # fmt: skip


@pytest.fixture(scope="module")
def frame(spark: SparkSession) -> Any:
    return T.from_rows(ROWS)


def values(frame: Any, **exprs: Expr[Any]) -> dict[str, list[Any]]:
    """Each expression's values in id order, plus a check that the schema Spark reports matches."""
    out = frame.sort(T.id).select(**exprs)
    result: dict[str, list[Any]] = out.to_dict()
    return result


# --- build-time type errors -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: T.s + 1, r"unsupported operand types for \+: column 'T.s' of type str \| None"),
        (lambda: T.id - T.day, "unsupported operand types for -"),
        (lambda: T.x // 2, "// needs integer operands"),
        (lambda: -T.s, "unary minus needs a number"),
        (lambda: T.s > 1, "cannot compare column 'T.s'"),
        (lambda: T.day == T.id, "cannot compare"),
        (lambda: T.flag & T.id, "& needs boolean operands; got column 'T.id'"),
        (lambda: T.n | True, r"\| needs boolean operands; got column 'T.n'"),
        (lambda: ~T.s, "~ needs boolean operands"),
        (
            lambda: T.day.cast(int),
            r"cannot cast column 'T.day' .* legal targets: string, date, timestamp, timestamp_ntz",
        ),
        (lambda: T.flag.cast(datetime.date), "cannot cast column 'T.flag'"),
        (lambda: T.n.is_in([1, None]), "use is_null"),
        (lambda: T.n.is_in(["a"]), "cannot be compared"),
        (lambda: T.n.is_in("abc"), "collection of values"),
        (lambda: T.s.between(1, 2), "between.. bound"),
        (lambda: F.coalesce(T.s, T.n), "no common type"),
        (lambda: F.when(T.n, 1), "when.. needs a boolean condition"),
        (lambda: F.when(T.flag, 1).otherwise("a"), "no common type"),
        (lambda: F.concat(T.s, T.n), r"F.concat\(\): cols must be a string or a list; got column 'T.n'"),
        (lambda: T.id.str.upper(), r"str.upper\(\): col must be a string; got column 'T.id'"),
        (lambda: T.id.str.contains("a"), r"str.contains\(\): left must be a string or bytes"),
        (lambda: T.s.str.contains(1), r"str.contains\(\): right must be a string or bytes; got literal 1"),
        (lambda: T.s.str.slice(0, -1), "length must be >= 0"),
        (lambda: T.s.dt.year(), r"dt.year\(\): col must be a date or datetime; got column 'T.s'"),
        (lambda: F.date_add(T.day, 1.5), r"F.date_add\(\): days must be an integer; got literal 1.5"),
        (lambda: F.datediff(T.day, T.n), r"F.datediff\(\): start must be a date or datetime"),
        (lambda: F.lit(2**70), "does not fit in bigint"),
        (lambda: F.lit(300, dtype=dt.Int8), "does not fit type int"),
        (lambda: F.lit(object()), "cannot use"),
        (lambda: T.n == None, "use .is_null"),  # noqa: E711
        (lambda: T.n.fill_null(None), "needs a value"),
        (lambda: F.coalesce(), "at least one"),
        (lambda: F.concat(), "at least one"),
        (lambda: F.lit(decimal.Decimal("NaN")), "not finite"),
    ],
)
def test_type_errors_are_raised_when_the_expression_is_built(build: Any, message: str) -> None:
    with pytest.raises((ColumnTypeError, ArgumentError), match=message):  # a column's type, or a Python argument
        build()


def test_truth_value_of_an_expression_is_an_error() -> None:
    with pytest.raises(TypeError, match="use & | ~"):
        bool(T.n > 1)
    with pytest.raises(TypeError, match="chained comparisons"):
        0 < T.n < 5  # noqa: B015


def test_types_and_nullability_are_derived() -> None:
    assert str((T.id + 1).typed) == "int (bigint)"
    assert str((T.n + 1).typed) == "int | None (bigint)"
    assert str((T.id / 2).typed) == "float | None (double)"
    assert str((T.small + 1).typed) == "int (int)"  # a bare 1 takes the column's type
    assert str((T.small + 2**40).typed) == "int (bigint)"  # ... unless it does not fit
    assert str((T.price * 2).typed) == "Decimal (decimal(12,2))"
    assert str((T.id > 1).typed) == "bool (boolean)"
    assert str((T.n > 1).typed) == "bool | None (boolean)"
    assert str(T.n.is_null().typed) == "bool (boolean)"
    assert str(T.n.fill_null(0).typed) == "int (bigint)"
    assert str(T.s.str.length().typed) == "int | None (int)"
    assert str(F.when(T.flag, 1).typed) == "int | None (bigint)"
    assert str(F.when(T.id > 1, 1).otherwise(0).typed) == "int (bigint)"
    assert str(F.when(F.lit(True), T.id).typed) == "int (bigint)"  # a TRUE branch is always taken
    assert str(F.when(T.flag, T.n).when(True, T.id).otherwise(T.n).typed) == "int | None (bigint)"
    assert str(T.s.cast(int).typed) == "int | None (bigint)"
    assert str(T.id.cast(str).typed) == "str (string)"
    assert str(T.id.cast(dt.Int8).typed) == "int (tinyint)"
    assert F.col("n").typed is None  # resolved only against a frame


def test_output_names_follow_the_leftmost_column() -> None:
    assert (T.n + T.id).name == "n"
    assert (1 + T.id).name == "id"
    assert F.lit(1).name == "literal"
    assert (T.n + 1).alias("m").name == "m"
    assert F.when(T.flag, T.s).otherwise("x").name == "s"


def test_dynamic_column_names_resolve_against_the_frame(frame: Any) -> None:
    assert frame.select(F.col("n") + 1).schema["n"].nullable
    with pytest.raises(UnknownColumnError, match="unknown column 'nn'.*existing columns: id, n, x.*did you mean 'n'"):
        frame.select(F.col("nn"))
    with pytest.raises(UnknownColumnError, match="did you mean 'id'"):
        frame.filter(F.col("ID") > 1)


def test_model_column_must_match_the_frame_type(frame: Any) -> None:
    changed = frame.with_columns(n=T.n.cast(str))
    with pytest.raises(ColumnTypeError, match=r"column 'T.n' is declared as int \| None .* is str \| None"):
        changed.select(T.n + 1)
    assert changed.select(F.col("n")).schema["n"].dtype == dt.String()


def test_a_model_column_takes_the_frames_nullability(frame: Any) -> None:
    """A model column resolves to the frame's column of its name and type, nullable or not (an outer join's)."""
    widened = frame.with_columns(id=F.when(T.id > 1, T.id))
    assert str(widened.select(T.id * 2).schema) == "id: int | None (bigint)"
    counted = widened.group_by(T.small).agg(n=F.count(T.id), top=F.max(T.id))
    assert str(counted.schema) == "small: int (int)\nn: int (bigint)\ntop: int | None (bigint)"
    assert str(widened.filter(T.id > 1).select(T.id).schema) == "id: int | None (bigint)"


def test_a_narrower_frame_column_satisfies_a_model_column(frame: Any) -> None:
    filled = frame.with_columns(n=T.n.fill_null(0))
    assert str(filled.select(T.n + 1).schema) == "n: int (bigint)"


# --- values on Spark --------------------------------------------------------------------------


@pytest.mark.spark
def test_arithmetic_with_sql_null_semantics(frame: Any) -> None:
    got = values(
        frame,
        add=T.n + 1,
        sub=10 - T.n,
        mul=T.n * T.id,
        div=T.n / 2,
        neg=-T.n,
        price=T.price * 2,
    )
    assert got == {
        "add": [8, -6, None],
        "sub": [3, 17, None],
        "mul": [7, -14, None],
        "div": [3.5, -3.5, None],
        "neg": [-7, 7, None],
        "price": [decimal.Decimal("19.98"), decimal.Decimal("0.02"), decimal.Decimal("200.00")],
    }


@pytest.mark.spark
def test_floor_division_and_modulo_follow_python(frame: Any) -> None:
    got = values(frame, fd=T.small // 2, mod=T.small % 2, fdn=T.small // -2, modn=T.small % -2)
    expected_small = [-7, 7, 0]
    assert got["fd"] == [v // 2 for v in expected_small]
    assert got["mod"] == [v % 2 for v in expected_small]
    assert got["fdn"] == [v // -2 for v in expected_small]
    assert got["modn"] == [v % -2 for v in expected_small]


@pytest.mark.spark
def test_comparisons_and_kleene_logic(frame: Any) -> None:
    got = values(
        frame,
        gt=T.n > 0,
        eq=T.s == "bob",
        ne=T.s != "bob",
        both=(T.n > 0) & T.flag,
        either=(T.n > 0) | T.flag,
        negated=~T.flag,
        false_and_null=F.lit(False) & T.flag,
        true_or_null=T.flag | True,
    )
    assert got == {
        "gt": [True, False, None],
        "eq": [False, True, None],
        "ne": [True, False, None],
        "both": [True, False, None],
        "either": [True, False, None],
        "negated": [False, True, None],
        "false_and_null": [False, False, False],
        "true_or_null": [True, True, True],
    }


@pytest.mark.spark
def test_a_null_literal_takes_its_type_from_its_context(frame: Any) -> None:
    out = frame.sort(T.id).select(
        compared=T.n == F.lit(None),
        added=T.small + F.lit(None),
        first=F.coalesce(F.lit(None), T.price),
        branch=F.when(T.n > 0, F.lit(None)).otherwise(T.s),
        cast=F.lit(None).cast(datetime.date),
        largest=F.greatest(F.lit(None), T.x),
    )
    assert [(f.name, f.dtype, f.nullable) for f in out.schema] == [
        ("compared", dt.Boolean(), True),
        ("added", dt.Int32(), True),
        ("first", dt.Decimal(10, 2), False),
        ("branch", dt.String(), True),
        ("cast", dt.Date(), True),
        ("largest", dt.Float64(), True),
    ]
    got = out.to_dict()  # the collected schema is reconciled with Spark's, strictly
    assert got["compared"] == got["added"] == got["cast"] == [None, None, None]
    assert got["branch"] == [None, "bob", None]
    assert got["largest"] == [1.5, None, -2.0]
    for undecided, hint in (
        (F.lit(None), "dtype=str"),
        (F.upper(F.lit(None)), "dtype=str"),
        (F.lit(None).is_null(), "dtype="),
    ):
        with pytest.raises(ColumnTypeError, match=rf"F.lit\(None\) has no type .*{hint}"):
            frame.select(x=undecided)
    with pytest.raises(
        ColumnTypeError, match=r"in upper\(F.lit\(None\)\)\.alias\('x'\): .*give it one: F.lit\(None, dtype=str\)$"
    ):
        frame.select(x=F.upper(F.lit(None)))  # the type F.upper takes, not some other one


@pytest.mark.spark
def test_null_safe_equality_is_never_null(frame: Any) -> None:
    out = frame.sort(T.id).select(
        same=T.n.eq_null_safe(T.n),
        seven=T.n.eq_null_safe(7),
        missing=T.s.eq_null_safe(None),
        text=T.s.eq_null_safe("bob"),
    )
    assert [(f.name, f.dtype, f.nullable) for f in out.schema] == [
        (name, dt.Boolean(), False) for name in ("same", "seven", "missing", "text")
    ]
    assert out.to_dict() == {
        "same": [True, True, True],
        "seven": [True, False, False],
        "missing": [False, False, True],
        "text": [False, True, False],
    }
    with pytest.raises(ColumnTypeError, match="eq_null_safe"):
        frame.select(T.s.eq_null_safe(T.day))


@pytest.mark.spark
def test_filter_keeps_exactly_true_rows(frame: Any) -> None:
    kept = frame.filter(T.n > 0).select(T.id).to_dict()
    assert kept == {"id": [1]}
    not_kept = frame.filter(~(T.n > 0)).select(T.id).to_dict()
    assert not_kept == {"id": [2]}  # the NULL row is in neither


@pytest.mark.spark
def test_null_tests_membership_and_ranges(frame: Any) -> None:
    got = values(
        frame,
        isnull=T.n.is_null(),
        notnull=T.n.is_not_null(),
        isin=T.n.is_in([7, 8]),
        empty=T.n.is_in([]),
        between=T.small.between(-7, 0),
        open_=T.small.between(-7, 0, closed="none"),
        left=T.small.between(-7, 0, closed="left"),
        right=T.small.between(-7, 0, closed="right"),
    )
    assert got == {
        "isnull": [False, False, True],
        "notnull": [True, True, False],
        "isin": [True, False, None],
        "empty": [False, False, False],  # Spark 4: x IN () is FALSE, NULL x included
        "between": [True, False, True],
        "open_": [False, False, False],
        "left": [True, False, False],
        "right": [False, False, True],
    }


@pytest.mark.spark
def test_conditionals(frame: Any) -> None:
    got = values(
        frame,
        filled=T.n.fill_null(0),
        first=F.coalesce(T.x, T.n, 99),
        label=F.when(T.n > 0, "pos").when(T.n < 0, "neg").otherwise("none"),
        partial=F.when(T.flag, T.id),
        explicit_none=F.when(T.flag, T.id).otherwise(None),
    )
    assert got == {
        "filled": [7, -7, 0],
        "first": [1.5, -7.0, -2.0],
        "label": ["pos", "neg", "none"],
        "partial": [1, None, None],
        "explicit_none": [1, None, None],
    }


@pytest.mark.spark
def test_casts(frame: Any) -> None:
    got = values(frame, as_str=T.id.cast(str), as_float=T.n.cast(float), as_int=T.x.cast(int))
    assert got == {"as_str": ["1", "2", "3"], "as_float": [7.0, -7.0, None], "as_int": [1, None, -2]}


@pytest.mark.spark
def test_string_functions(frame: Any) -> None:
    got = values(
        frame,
        upper=T.s.str.upper(),
        lower=F.lower(T.s),
        length=T.s.str.length(),
        strip=T.s.str.strip(),
        strip_chars=T.s.str.strip(" A"),
        contains=T.s.str.contains("o"),
        starts=T.s.str.starts_with("b"),
        ends=T.s.str.ends_with("b"),
        head=T.s.str.slice(0, 3),
        tail=T.s.str.slice(-2),
        middle=T.s.str.slice(1, 2),
        joined=F.concat(T.s, F.lit("!"), F.lit("?")),
    )
    assert got == {
        "upper": ["  ADA ", "BOB", None],
        "lower": ["  ada ", "bob", None],
        "length": [6, 3, None],
        "strip": ["Ada", "bob", None],
        "strip_chars": ["da", "bob", None],
        "contains": [False, True, None],
        "starts": [False, True, None],
        "ends": [False, True, None],
        "head": ["  A", "bob", None],
        "tail": ["a ", "ob", None],
        "middle": [" A", "ob", None],
        "joined": ["  Ada !?", "bob!?", None],
    }


@pytest.mark.spark
def test_concat_takes_column_names_as_strings(frame: Any) -> None:
    assert values(frame, j=F.concat("s", F.lit("-"), "s"))["j"] == ["  Ada -  Ada ", "bob-bob", None]


@pytest.mark.spark
def test_date_functions(frame: Any) -> None:
    got = values(
        frame,
        year=T.day.dt.year(),
        month=T.day.dt.month(),
        day=T.day.dt.day(),
        ts_year=F.year(T.at),
        next_week=F.date_add(T.day, 7),
        back=F.date_add(T.day, T.small),
        diff=F.datediff(T.day, F.lit(datetime.date(2024, 1, 1))),
    )
    assert got == {
        "year": [2024, 2023, None],
        "month": [2, 12, None],
        "day": [29, 31, None],
        "ts_year": [2024, None, 2020],
        "next_week": [datetime.date(2024, 3, 7), datetime.date(2024, 1, 7), None],
        "back": [datetime.date(2024, 2, 22), datetime.date(2024, 1, 7), None],
        "diff": [59, -1, None],
    }


@pytest.mark.spark
@pytest.mark.parametrize(
    "value",
    [
        0,
        -(2**63),
        2**63 - 1,
        1.5,
        -0.0,
        1e300,
        float("inf"),
        float("-inf"),
        "it's a \\ 'quote'\n\t€",
        b"\x00\xff",
        decimal.Decimal("-12.340"),
        datetime.date(1, 1, 1),
        datetime.datetime(2024, 5, 6, 7, 8, 9, 123456, tzinfo=datetime.timezone(datetime.timedelta(hours=2))),
        datetime.datetime(9999, 12, 31, 23, 59, 59, 999999),
        datetime.timedelta(days=-3, seconds=5, microseconds=7),
        True,
    ],
)
def test_literals_round_trip_through_spark(frame: Any, value: Any) -> None:
    got = frame.limit(1).select(v=F.lit(value)).to_dict()["v"][0]
    if isinstance(value, datetime.datetime) and value.tzinfo is not None:
        assert got == value
    else:
        assert got == value
        assert type(got) is type(value)


@pytest.mark.spark
def test_nan_literal_round_trips(frame: Any) -> None:
    got = frame.limit(1).select(v=F.lit(float("nan"))).to_dict()["v"][0]
    assert got != got  # NaN
