"""``pydantable_spark.testing``: ``assert_frame_equal`` and ``build_frame`` on real frames."""

from __future__ import annotations

import datetime
import decimal
import enum
import math
import re
from typing import TYPE_CHECKING, Annotated, Any, Literal

import pytest
from pydantic import AwareDatetime, BaseModel, Field, NaiveDatetime, create_model, model_validator
from pyspark.errors import PySparkAssertionError
from pyspark.sql import Row
from pyspark.sql.types import DoubleType, LongType, StringType, StructField, StructType
from pyspark.testing import assertDataFrameEqual
from pyspark.testing import utils as pyspark_testing_utils

from pydantable_spark import DataFrame, DataFrameModel, F
from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ArgumentTypeError, RowValidationError, UnknownColumnError
from pydantable_spark.testing import assert_frame_equal, build_frame

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


pytestmark = pytest.mark.jvm_free
"""These tests run without a JVM (pytest -m "not spark"); the ones marked spark get the session."""


class Item(DataFrameModel):
    id: int
    price: float
    tags: list[str]


ITEMS = [{"id": 2, "price": 0.3, "tags": ["b"]}, {"id": 1, "price": 0.1 + 0.2, "tags": []}]


class Point(DataFrameModel):
    x: float


def points(*values: float) -> DataFrame[Point]:
    return Point.from_rows([{"x": v} for v in values])


def failure(left: object, right: object, **options: Any) -> str:
    """The message of the AssertionError ``assert_frame_equal`` raises."""
    with pytest.raises(AssertionError) as info:
        assert_frame_equal(left, right, **options)  # type: ignore[arg-type]
    return str(info.value)


# --- sides ----------------------------------------------------------------------------------------


@pytest.mark.spark
def test_equal_frames_pass_in_any_order() -> None:
    frame = Item.from_rows(ITEMS)
    assert_frame_equal(frame, Item.from_rows(list(reversed(ITEMS))))
    assert_frame_equal(frame, [Item(id=1, price=0.3, tags=[]), Item(id=2, price=0.3, tags=["b"])])


@pytest.mark.spark
def test_either_side_may_be_a_frame_a_spark_frame_or_rows(spark: SparkSession) -> None:
    frame = Item.from_rows(ITEMS)
    as_rows = [Row(id=1, price=0.3, tags=[]), Row(id=2, price=0.3, tags=["b"])]
    as_tuples = [(1, 0.3, []), (2, 0.3, ["b"])]
    for other in (frame.to_spark(), ITEMS, as_rows, as_tuples, [Item(**row) for row in ITEMS]):
        assert_frame_equal(frame, other)
        assert_frame_equal(other, frame)
    assert_frame_equal(frame.to_spark(), frame.to_spark())
    assert_frame_equal(frame.to_spark(), as_rows)
    assert "only in left (1):\n  left   id=3" in failure([*as_tuples, (3, 1.0, [])], frame)


@pytest.mark.spark
def test_a_list_must_give_the_columns_of_the_frame() -> None:
    frame = Item.from_rows(ITEMS)
    text = failure(frame, [{"id": 1, "price": 0.3, "tags": [], "x": 1}, *ITEMS[:1]])
    assert text == "right[0] does not give the columns of the left frame (id, price, tags); unknown: 'x'"
    text = failure([{"id": 1, "tags": []}], frame)
    assert text.startswith("left[0] does not give the columns of the right frame (id, price, tags); missing: 'price'")
    assert "leave one out with ignore_columns" in text
    text = failure(frame, [(1, 0.3)])
    assert text == (
        "right[0] is a tuple of 2 values, but the left frame has 3 columns (id, price, tags); "
        "a tuple gives every column's value in that order"
    )


# --- tolerance ------------------------------------------------------------------------------------


@pytest.mark.spark
@pytest.mark.parametrize("relative", [1e-12, 1e-9, 1e-7, 1e-6, 1e-4, 1e-3, 1e-1])
def test_the_default_tolerance_decides_as_pyspark_does(
    spark: SparkSession, relative: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """1e-7 passes and 1e-3 fails, as in ``pyspark.testing.assertDataFrameEqual``, on both sides."""
    # PySpark's failure message asks `tput` for colours through an os.popen pipe it never closes
    monkeypatch.setattr(pyspark_testing_utils, "_terminal_color_support", lambda: "false")
    expected = [1.0, 123.456, -9.5e6, 3.0e-3]
    actual = [v * (1 + relative) for v in expected]
    ours = _passes(lambda: assert_frame_equal(points(*actual), points(*expected)))
    swapped = _passes(lambda: assert_frame_equal(points(*expected), points(*actual)))
    sdf = spark.createDataFrame([(v,) for v in actual], "x double")
    theirs = _passes(lambda: assertDataFrameEqual(sdf, spark.createDataFrame([(v,) for v in expected], "x double")))
    assert ours == swapped == theirs == (relative < 1e-5)


def _passes(check: Any) -> bool:
    try:
        check()
    except (AssertionError, PySparkAssertionError):
        return False
    return True


@pytest.mark.spark
def test_rtol_and_atol_are_the_tolerance() -> None:
    assert_frame_equal(points(1.0), points(1.0001), rtol=1e-3)
    assert "the tolerance allows 1e-05" in failure(points(1.0), points(1.0001), rtol=0.0, atol=1e-5)
    assert_frame_equal(points(0.0), points(5e-9))  # the default atol (1e-8) near zero
    assert "the tolerance allows 1e-08" in failure(points(0.0), points(5e-8))
    assert_frame_equal(points(0.0), points(5e-8), atol=1e-7)
    failure(points(1.0), points(1.0 + 1e-12), rtol=0, atol=0)  # no tolerance: exact


@pytest.mark.spark
def test_integers_and_decimals_compare_exactly() -> None:
    class Exact(DataFrameModel):
        n: int
        d: decimal.Decimal = Field(max_digits=10, decimal_places=2)

    big = 10**15
    left = Exact.from_rows([{"n": big, "d": decimal.Decimal("100.00")}])
    assert "n: 1000000000000000 (left) != 1000000000000001 (right)" in failure(
        left, [{"n": big + 1, "d": decimal.Decimal("100.00")}], rtol=0.1
    )
    assert "d: 100.00 (left) != 100.01 (right)" in failure(left, [{"n": big, "d": decimal.Decimal("100.01")}], rtol=0.1)
    assert_frame_equal(left, [{"n": big, "d": decimal.Decimal("100.0")}])  # the same number


@pytest.mark.spark
def test_nan_infinity_and_negative_zero() -> None:
    nan, inf = math.nan, math.inf
    assert_frame_equal(points(nan, inf, -inf, -0.0), points(0.0, -inf, nan, inf))
    assert_frame_equal(points(nan, 1.0), points(nan, 1.0), check_row_order=True)
    assert "x: nan (left) != 0.0 (right)" in failure(points(nan), points(0.0))
    assert "x: inf (left) != -inf (right)" in failure(points(inf), points(-inf))
    assert "x: inf (left) != 1e+308 (right)" in failure(points(inf), points(1e308), rtol=1.0)


class Reading(DataFrameModel):
    id: int
    values: list[float]
    at: dict[str, float]
    origin: Point


def _reading(values: list[float], at: dict[str, float], x: float) -> dict[str, Any]:
    return {"id": 1, "values": values, "at": at, "origin": {"x": x}}


@pytest.mark.spark
def test_floats_compare_with_the_tolerance_at_any_depth() -> None:
    left = Reading.from_rows([_reading([1.0, math.nan], {"a": 2.0}, 3.0)])
    close = 1 + 1e-7
    assert_frame_equal(left, [_reading([close, math.nan], {"a": 2.0 * close}, 3.0 * close)])
    text = failure(left, [_reading([1.0, math.nan], {"a": 2.1}, 3.0)])
    assert "  at.a: 2.0 (left) != 2.1 (right); they differ by 0.1, the tolerance allows 2.1e-05" in text
    text = failure(left, [_reading([1.0, 0.5], {"a": 2.0}, 3.5)])
    assert "  values[1]: nan (left) != 0.5 (right)\n  origin.x: 3.0 (left) != 3.5 (right)" in text
    assert failure(left, [_reading([1.0], {"a": 2.0}, 3.0)]).endswith("\n  values: [1.0, nan] (left) != [1.0] (right)")


# --- rows and their order -------------------------------------------------------------------------


@pytest.mark.spark
def test_row_order_is_checked_when_asked() -> None:
    frame = Item.from_rows(ITEMS).sort("id")
    assert_frame_equal(frame, sorted(ITEMS, key=lambda r: r["id"]), check_row_order=True)
    text = failure(frame, ITEMS, check_row_order=True)
    assert text.startswith("the frames hold different rows (compared in order):\n2 of 2 rows differ")
    assert "row 0:\n  left   id=1  price=0.30000000000000004  tags=[]\n  right  id=2  price=0.3  " in text


@pytest.mark.spark
def test_rows_are_a_multiset_when_order_is_ignored() -> None:
    twice = Point.from_rows([{"x": 1.0}, {"x": 1.0}, {"x": 2.0}])
    text = failure(twice, points(1.0, 2.0, 2.0))
    assert "1 of 3 left rows and 1 of 3 right rows have no equal row on the other side" in text
    assert "a left row and the right row most like it:\n  left   x=1.0\n  right  x=2.0\n" in text
    assert "2 of 3 left rows and 0 of 1 right rows" in failure(twice, points(2.0))


@pytest.mark.spark
@pytest.mark.parametrize("size", [500, 1100])  # 1100 x 1100 candidates: the matching looks at a sorted window
def test_tolerant_matching_pairs_rows_of_many_near_values(size: int) -> None:
    """Every row differs a little from its partner: none matches exactly, all match within the tolerance."""
    values = [i / 7 for i in range(size)]
    assert_frame_equal(points(*values), points(*(v * (1 + 1e-9) for v in reversed(values))))
    assert f"1 of {size} left rows" in failure(points(*values), points(*values[:-1], 1e6))


@pytest.mark.spark
def test_maps_compare_by_key_and_structs_by_field() -> None:
    left = Reading.from_rows([_reading([], {"a": 1.0, "b": 2.0}, 0.0)])
    assert_frame_equal(left, [_reading([], {"b": 2.0, "a": 1.0}, 0.0)])
    assert "  at: {'a': 1.0, 'b': 2.0} (left) != {'a': 1.0} (right)" in failure(left, [_reading([], {"a": 1.0}, 0.0)])


# --- columns and schemas --------------------------------------------------------------------------


@pytest.mark.spark
def test_column_order_is_checked_unless_turned_off() -> None:
    frame = Item.from_rows(ITEMS)
    text = failure(frame, frame.select("tags", "id", "price"))
    assert text.splitlines()[:2] == [
        "the frames have different schemas:",
        "  column order differs (left: id, price, tags; right: tags, id, price); "
        "pass check_column_order=False to pair columns by name",
    ]
    assert_frame_equal(frame, frame.select("tags", "id", "price"), check_column_order=False)
    assert_frame_equal(frame.select("tags", "id", "price").to_spark(), frame, check_column_order=False)


@pytest.mark.spark
def test_ignored_columns_take_no_part() -> None:
    frame = Item.from_rows(ITEMS)
    other = frame.with_columns(price=F.lit(9.0))
    failure(frame, other)
    assert_frame_equal(frame, other, ignore_columns=["price"])
    assert_frame_equal(frame, other.with_columns(extra=F.lit(1)), ignore_columns=("price", "extra"))
    assert_frame_equal(frame, [{"id": 1, "tags": []}, {"id": 2, "tags": ["b"]}], ignore_columns=["price"])
    assert_frame_equal(frame, [(1, 5.0, []), (2, 6.0, ["b"])], ignore_columns=["price"])
    with pytest.raises(UnknownColumnError, match="unknown column 'prise' in ignore_columns .*did you mean 'price'"):
        assert_frame_equal(frame, frame, ignore_columns=["prise"])
    with pytest.raises(ValueError, match=r"ignore_columns=\['x'\] leaves no column to compare"):
        assert_frame_equal(points(1.0), points(2.0), ignore_columns=["x"])


@pytest.mark.spark
def test_schemas_name_the_check_that_failed() -> None:
    frame = Item.from_rows(ITEMS)
    text = failure(frame.select("id", "price"), frame.select("id", "tags"))
    assert text.splitlines()[1] == "  column names differ (only in left: price; only in right: tags)"
    assert "! price: float (double)       | (missing)" in text
    floats = frame.select("id", price=F.col("price").cast(Annotated[float, dt.Float32]))
    text = failure(frame.select("id", "price"), floats)
    assert text.splitlines()[1:3] == [
        "  types differ (pass check_dtypes=False to compare the values only):",
        "    price: float (double) in left, float (float) in right",
    ]
    assert_frame_equal(frame.select("id", "price"), floats, check_dtypes=False)  # 0.3 as a float32 is close
    assert_frame_equal(frame.select("id"), frame.select(id=F.col("id").cast(float)), check_dtypes=False)


@pytest.mark.spark
def test_nullability_is_checked_top_level_and_nested(spark: SparkSession) -> None:
    frame = Item.from_rows(ITEMS)
    loose = frame.with_columns(price=F.when(F.col("id") > 0, F.col("price")))
    text = failure(frame, loose)
    assert text.splitlines()[1:3] == [
        "  nullability differs (pass check_nullability=False to ignore it):",
        "    price: float (double) in left, float | None (double) in right",
    ]
    assert_frame_equal(frame, loose, check_nullability=False)

    class Loose(DataFrameModel):
        id: int
        price: float
        tags: list[str | None]

    text = failure(frame, Loose.from_rows(ITEMS))
    assert "    tags: list[str] (array<string not null>) in left, list[str | None] (array<string>) in right" in text
    assert_frame_equal(frame, Loose.from_rows(ITEMS), check_nullability=False)
    made = spark.createDataFrame([(2, 0.3, ["b"]), (1, 0.3, [])], "id long, price double, tags array<string>")
    assert "nullability differs" in failure(frame, made)
    assert_frame_equal(frame, made, check_nullability=False)


# --- the message ----------------------------------------------------------------------------------


@pytest.mark.spark
def test_the_message_shows_differing_rows_side_by_side() -> None:
    left = Item.from_rows([*ITEMS, {"id": 3, "price": 1.0, "tags": []}])
    right = [
        {"id": 1, "price": 0.3, "tags": []},
        {"id": 2, "price": 0.35, "tags": ["c"]},
        {"id": 4, "price": 1.0, "tags": []},
    ]
    assert failure(left, right) == (
        "the frames hold different rows (row order ignored):\n"
        "2 of 3 left rows and 2 of 3 right rows have no equal row on the other side\n"
        "a left row and the right row most like it:\n"
        "  left   id=2  price=0.3   tags=['b']\n"
        "  right  id=2  price=0.35  tags=['c']\n"
        "               ^^^^^^^^^^  ^^^^^^^^^^\n"
        "  price: 0.3 (left) != 0.35 (right); they differ by 0.05, the tolerance allows 3.51e-06 (atol + rtol * 0.35)\n"
        "  tags[0]: 'b' (left) != 'c' (right)\n"
        "a left row and the right row most like it:\n"
        "  left   id=3  price=1.0  tags=[]\n"
        "  right  id=4  price=1.0  tags=[]\n"
        "         ^^^^\n"
        "  id: 3 (left) != 4 (right)"
    )


@pytest.mark.spark
def test_the_message_spells_values_as_literals() -> None:
    class Event(DataFrameModel):
        day: datetime.date
        at: datetime.datetime
        amount: decimal.Decimal = Field(max_digits=6, decimal_places=2)
        blob: bytes
        took: datetime.timedelta

    row = {
        "day": datetime.date(2024, 2, 29),
        "at": datetime.datetime(2024, 2, 29, 12, 30, tzinfo=datetime.timezone.utc),
        "amount": decimal.Decimal("1.50"),
        "blob": b"\x00a",
        "took": datetime.timedelta(hours=1),
    }
    text = failure(Event.from_rows([row]), [{**row, "day": datetime.date(2024, 3, 1)}])
    assert "left   day=2024-02-29  at=2024-02-29 12:30:00+00:00  amount=1.50  blob=b'\\x00a'  took=1:00:00" in text
    assert "day: 2024-02-29 (left) != 2024-03-01 (right)" in text
    assert "datetime." not in text
    assert "Decimal(" not in text
    text = failure(Event.from_rows([row]), [{**row, "amount": "1.50"}])
    assert "amount: 1.50 (left) != '1.50' (right) (Decimal and str)" in text


@pytest.mark.spark
def test_the_message_shows_at_most_max_rows_shown_rows() -> None:
    left = points(*range(30))
    text = failure(left, points(*(v + 0.5 for v in range(30))), max_rows_shown=3)
    assert text.count("a left row and the right row most like it:") == 0  # one column: no row shares a cell
    assert text.count("  left   x=") == 3
    assert text.endswith("... 27 left and 30 right rows without an equal row not shown (max_rows_shown=3)")
    text = failure(left.sort("x"), points(*(v + 0.5 for v in range(30))).sort("x"), check_row_order=True)
    assert text.count("\nrow ") == 10
    assert text.endswith("... 20 more differing rows not shown (max_rows_shown=10)")


@pytest.mark.spark
def test_wide_rows_show_their_first_and_their_differing_columns() -> None:
    model = create_model("Wide", __base__=DataFrameModel, **{f"c{i}": (int, ...) for i in range(12)})
    wide = DataFrame.from_columns({f"c{i}": [i] for i in range(12)}, model)
    text = failure(wide, [{**{f"c{i}": i for i in range(12)}, "c6": 60}])
    assert "  left   c0=0  c1=1  c2=2  ...  c6=6   ...\n  right  c0=0  c1=1  c2=2  ...  c6=60  ...\n" in text


def test_hostile_column_names_are_names(spark: SparkSession) -> None:
    """Column names reach Spark only through the façade's own selection (ignore_columns picks among them)."""
    # a StructType, not DDL text: Spark Connect substitutes ${x} in a DDL schema string
    fields = [StructField("a.b", LongType()), StructField("${x}", StringType()), StructField("c`d", DoubleType())]
    names = StructType(fields)
    sdf = spark.createDataFrame([(1, "a", 2.0)], names)
    other = spark.createDataFrame([(1, "b", 2.0)], names)
    assert_frame_equal(sdf, other, ignore_columns=["${x}"])
    assert "${x}: 'a' (left) != 'b' (right)" in failure(sdf, other)
    assert_frame_equal(sdf, [{"a.b": 1, "c`d": 2.0}], ignore_columns=["${x}"])


# --- arguments ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"check_row_order": "yes"}, "check_row_order must be bool, got 'yes' (str)"),
        ({"check_column_order": 1}, "check_column_order must be bool, got 1 (int)"),
        ({"check_dtypes": None}, "check_dtypes must be bool, got None (NoneType)"),
        ({"check_nullability": 0}, "check_nullability must be bool, got 0 (int)"),
        (
            {"ignore_columns": "id"},
            "ignore_columns must be a list or tuple of column names, got 'id' (str) (write ['id'])",
        ),
        ({"ignore_columns": 3}, "ignore_columns must be a list or tuple of column names, got 3 (int)"),
        ({"ignore_columns": ["id", 1]}, "ignore_columns[1] must be str, got 1 (int)"),
        ({"rtol": "0.1"}, "rtol must be float or int, got '0.1' (str)"),
        ({"rtol": True}, "rtol must be float or int, got True (bool)"),
        ({"atol": None}, "atol must be float or int, got None (NoneType)"),
        ({"max_rows_shown": 2.0}, "max_rows_shown must be int, got 2.0 (float)"),
        ({"max_rows_shown": False}, "max_rows_shown must be int, got False (bool)"),
    ],
)
def test_arguments_of_the_wrong_type_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ArgumentTypeError, match=f"^{re.escape(f'assert_frame_equal(): {message}')}$"):
        assert_frame_equal(points(1.0), points(1.0), **options)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"rtol": -1e-5}, "rtol must be a finite number >= 0, got -1e-05"),
        ({"atol": math.nan}, "atol must be a finite number >= 0, got nan"),
        ({"rtol": math.inf}, "rtol must be a finite number >= 0, got inf"),
        ({"max_rows_shown": 0}, "max_rows_shown must be at least 1, got 0"),
    ],
)
def test_arguments_out_of_range_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(f'assert_frame_equal(): {message}')}$"):
        assert_frame_equal(points(1.0), points(1.0), **options)


def test_sides_of_the_wrong_type_are_refused() -> None:
    frame = points(1.0)
    with pytest.raises(
        ArgumentTypeError, match=r"left must be a pydantable_spark DataFrame, a PySpark .* got 42 \(int\)"
    ):
        assert_frame_equal(42, frame)  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match=r"right must be .* got 'x=1' \(str\)"):
        assert_frame_equal(frame, "x=1")  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match=r"right\[1\] must be a row \(a dict, a model .* got 2\.0 \(float\)"):
        assert_frame_equal(frame, [{"x": 1.0}, 2.0])  # type: ignore[list-item]
    with pytest.raises(
        ArgumentTypeError, match="left and right are both lists of rows; at least one side must be a frame"
    ):
        assert_frame_equal([{"x": 1.0}], [{"x": 1.0}])


# --- build_frame ----------------------------------------------------------------------------------


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Address(DataFrameModel):
    city: str
    zip: str | None
    floor: int = Field(gt=10)


class Everything(DataFrameModel):
    flag: bool
    n: int
    small: Annotated[int, dt.Int32]
    x: float
    amount: decimal.Decimal = Field(max_digits=10, decimal_places=2)
    name: str
    blob: bytes
    day: datetime.date
    at: datetime.datetime
    aware: AwareDatetime
    naive: NaiveDatetime
    took: datetime.timedelta
    ints: list[int]
    names: tuple[str, ...]
    unique: set[int]
    weights: dict[str, float]
    kind: Literal["x", "y"]
    rank: Literal[3, 4]
    color: Color
    level: Level
    home: Address
    away: Address | None
    maybe: int | None
    preset: int = 42


EPOCH = datetime.datetime(1970, 1, 1)
UTC = datetime.timezone.utc


@pytest.mark.spark
def test_build_frame_fills_every_type_kind() -> None:
    frame = build_frame(Everything, [{}])
    assert frame.schema == Everything.frame_schema()
    assert frame.model is Everything
    (row,) = frame.collect()
    address = Address(city="", zip=None, floor=11)
    assert row == Everything(
        flag=False, n=0, small=0, x=0.0, amount=decimal.Decimal(0), name="", blob=b"", day=EPOCH.date(),
        at=EPOCH.replace(tzinfo=UTC), aware=EPOCH.replace(tzinfo=UTC), naive=EPOCH, took=datetime.timedelta(0),
        ints=[], names=(), unique=set(), weights={}, kind="x", rank=3, color=Color.RED, level=Level.LOW,
        home=address, away=None, maybe=None, preset=42,
    )  # fmt: skip


class Bounded(DataFrameModel):
    ge5: int = Field(ge=5)
    gt5: int = Field(gt=5)
    lt0: int = Field(lt=0)
    le_minus3: int = Field(le=-3)
    within: int = Field(ge=-10, le=10)
    inside: float = Field(gt=0.1, lt=0.2)
    at_least: float = Field(ge=2.5)
    multiple: int = Field(ge=5, multiple_of=3)
    money: decimal.Decimal = Field(gt=1, max_digits=6, decimal_places=2)
    quarters: decimal.Decimal = Field(ge=decimal.Decimal("1.1"), multiple_of=decimal.Decimal("0.25"), decimal_places=2)
    tenths: float = Field(gt=0.05, multiple_of=0.5)
    fours_below: int = Field(lt=-1, multiple_of=4)
    code: str = Field(min_length=3, max_length=5)
    blob: bytes = Field(min_length=2)
    sevens: list[Annotated[int, Field(ge=7)]] = Field(min_length=2)
    weights: dict[str, int] = Field(min_length=1)
    since: datetime.date = Field(ge=datetime.date(2020, 1, 1))
    after: datetime.datetime = Field(gt=datetime.datetime(2020, 1, 1, tzinfo=UTC))
    took: datetime.timedelta = Field(ge=datetime.timedelta(hours=1))
    word: Literal["a", "bb", "ccc"] = Field(min_length=2)
    homes: list[Address] = Field(min_length=1)


@pytest.mark.spark
def test_build_frame_satisfies_every_constraint_kind() -> None:
    frame = build_frame(Bounded, 2)
    frame.validate().raise_for_errors()  # Spark checks the constraints it can translate
    rows = frame.collect()  # Pydantic checks them all
    assert rows[0] == rows[1]
    assert rows[0].model_dump() == {
        "ge5": 5, "gt5": 6, "lt0": -1, "le_minus3": -3, "within": 0, "inside": 0.1 + (0.2 - 0.1) / 2,
        "at_least": 2.5, "multiple": 6, "money": decimal.Decimal(2), "quarters": decimal.Decimal("1.25"),
        "tenths": 0.5, "fours_below": -4, "code": "aaa", "blob": b"aa",
        "sevens": [7, 7], "weights": {"key0": 0}, "since": datetime.date(2020, 1, 1),
        "after": datetime.datetime(2020, 1, 1, 0, 0, 1, tzinfo=UTC), "took": datetime.timedelta(hours=1),
        "word": "bb", "homes": [{"city": "", "zip": None, "floor": 11}],
    }  # fmt: skip


@pytest.mark.spark
def test_given_values_win_and_partial_nested_rows_are_completed() -> None:
    class Order(DataFrameModel):
        id: int
        home: Address
        stops: list[Address]
        by_name: dict[str, Address]
        note: str | None = "none"

    rows = [
        {"id": 1, "home": {"city": "Oslo"}, "stops": [{"zip": "1"}, {}], "by_name": {"a": {"floor": 12}}},
        {"note": None},
    ]
    frame = build_frame(Order, rows, id=7, home={"zip": "0150"})
    first, second = frame.collect()
    assert first.id == 1
    assert first.home == Address(city="Oslo", zip=None, floor=11)
    assert first.stops == [Address(city="", zip="1", floor=11), Address(city="", zip=None, floor=11)]
    assert first.by_name == {"a": Address(city="", zip=None, floor=12)}
    assert first.note == "none"  # the model's default
    assert (second.id, second.home, second.stops, second.by_name, second.note) == (
        7,
        Address(city="", zip="0150", floor=11),
        [],
        {},
        None,
    )


@pytest.mark.spark
def test_build_frame_takes_column_names_and_aliases() -> None:
    class Tracked(DataFrameModel):
        id: int
        tracking: str = Field(alias="trackingNo", min_length=2)

    (row,) = build_frame(Tracked, [{"id": 1}]).collect()
    assert row.tracking == "aa"
    (row,) = build_frame(Tracked, [{}], trackingNo="XY").collect()
    assert row.tracking == "XY"


class Person(BaseModel):
    nick: str = Field(alias="Nick")


def test_build_frame_refuses_a_field_given_by_its_column_name_and_its_field_name() -> None:
    # "b" was dropped silently, where from_rows refuses the second key (issue 32)
    class Named(DataFrameModel):
        id: int
        full_name: str = Field(alias="Full Name")
        inner: Person | None = None

    rows = [{"id": 1, "Full Name": "a", "full_name": "b"}]
    message = (
        r"^rows\[0\] \(model Named\) gives field 'full_name' twice: as its column name 'Full Name' \('a'\) and as "
        r"its field name 'full_name' \('b'\); give it once"
    )
    with pytest.raises(RowValidationError, match=message):
        build_frame(Named, rows)
    with pytest.raises(RowValidationError, match=r"Extra inputs are not permitted"):
        Named.from_rows(rows)
    with pytest.raises(RowValidationError, match=r"^the value of Named.inner \(model Person\) gives field 'nick'"):
        build_frame(Named, [{"inner": {"Nick": "x", "nick": "y"}}])
    with pytest.raises(RowValidationError, match=r"^the keyword arguments of build_frame\(\) \(model Named\) gives"):
        build_frame(Named, 1, **{"Full Name": "a", "full_name": "b"})


@pytest.mark.spark
def test_build_frame_works_for_plain_pydantic_models() -> None:
    class Plain(BaseModel):
        id: int
        label: str = Field(min_length=1)

    assert build_frame(Plain, [{"id": 3}]).collect() == [Plain(id=3, label="a")]


@pytest.mark.spark
def test_a_constraint_without_a_placeholder_asks_for_a_value() -> None:
    class Coded(DataFrameModel):
        code: str = Field(pattern=r"^[A-Z]{3}$")

    with pytest.raises(
        ValueError, match=r"^build_frame\(\): no placeholder satisfies the constraints of field 'Coded.code'"
    ) as info:
        build_frame(Coded, [{}])
    assert str(info.value).endswith(
        "(str); tried '' (String should match pattern '^[A-Z]{3}$'); "
        "give 'code' a value in every row, or once as build_frame(Coded, rows, code=...)"
    )
    assert build_frame(Coded, [{}], code="ABC").collect() == [Coded(code="ABC")]

    class Nested(DataFrameModel):
        items: list[Coded]

    with pytest.raises(
        ValueError, match=r"field 'Nested.items\[\].code' .* give 'Nested.items\[\].code' a value in the rows"
    ):
        build_frame(Nested, [{"items": [{}]}])
    assert build_frame(Nested, [{}]).collect() == [Nested(items=[])]

    class Distinct(DataFrameModel):
        ids: set[int] = Field(min_length=2)

    with pytest.raises(
        ValueError, match=r"'Distinct.ids' \(set\[int\]\); tried \[0, 0\] \(Set should have at least 2 items"
    ):
        build_frame(Distinct, [{}])


@pytest.mark.spark
def test_model_validators_still_run() -> None:
    class Span(DataFrameModel):
        start: int
        end: int

        @model_validator(mode="after")
        def ordered(self) -> Span:
            if self.end <= self.start:
                msg = "end must be after start"
                raise ValueError(msg)
            return self

    with pytest.raises(RowValidationError, match="end must be after start"):
        build_frame(Span, [{"start": 1}])
    assert build_frame(Span, [{"end": 1}]).collect() == [Span(start=0, end=1)]


def test_build_frame_refuses_bad_arguments() -> None:
    with pytest.raises(
        ArgumentTypeError, match=r"^build_frame\(\): model must be a Pydantic model class .* got 3 \(int\)$"
    ):
        build_frame(3, [{}])  # type: ignore[type-var]
    with pytest.raises(
        ArgumentTypeError, match=r"rows must be a list of dicts \(partial rows\) or a number of rows, got 'x'"
    ):
        build_frame(Item, "x")  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match=r"rows must be .* got True \(bool\)"):
        build_frame(Item, True)
    with pytest.raises(ArgumentTypeError, match=r"rows\[1\] must be a dict of column values, got \(1, 2\) \(tuple\)"):
        build_frame(Item, [{}, (1, 2)])  # type: ignore[list-item]
    with pytest.raises(ArgumentTypeError, match=r"a key of rows\[0\] must be str, got 1 \(int\)"):
        build_frame(Item, [{1: 2}])  # type: ignore[dict-item]
    with pytest.raises(ValueError, match=r"the number of rows must be >= 0, got -1"):
        build_frame(Item, -1)
    with pytest.raises(
        UnknownColumnError, match=r"unknown column 'prize' in rows\[0\] \(model Item\).*did you mean 'price'"
    ):
        build_frame(Item, [{"prize": 1.0}])
    with pytest.raises(UnknownColumnError, match=r"unknown column 'tag' in the keyword arguments of build_frame\(\)"):
        build_frame(Item, [{}], tag=["x"])
    with pytest.raises(UnknownColumnError, match=r"unknown column 'town' in the value of Stop.home \(model Address\)"):
        build_frame(Stop, [{"home": {"town": "Oslo"}}])


class Stop(DataFrameModel):
    home: Address
