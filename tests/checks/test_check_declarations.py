"""Dataset-level checks declared on a model: resolved when the class is defined, bad ones refused there (no JVM)."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Annotated, Any

import pytest
from pydantic import Field

from pydantable_spark import Check, DataFrameModel, F, Window
from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ArgumentTypeError, ArgumentValueError, ColumnTypeError, UnknownColumnError

pytestmark = pytest.mark.jvm_free


class Other(DataFrameModel):
    x: int


def _model(*checks: Any, name: str = "Order") -> type[DataFrameModel]:
    """A model with the given checks; each item is a function of ``cls`` returning a Check."""

    def declared(cls: Any) -> Sequence[Check]:
        return tuple(make(cls) for make in checks)

    namespace = {
        "__annotations__": {
            "id": int,
            "start": datetime.date,
            "end": datetime.date | None,
            "qty": int,
            "a.b`c": int,
        },
        "a.b`c": Field(0, alias="a.b`c"),
        "checks": classmethod(declared),
        "__module__": __name__,
    }
    return type(name, (DataFrameModel,), namespace)


def test_every_kind_resolves_against_the_model() -> None:
    class Order(DataFrameModel):
        id: int
        start: datetime.date
        end: datetime.date | None
        qty: int

        @classmethod
        def checks(cls) -> Sequence[Check]:
            return (
                Check.unique(cls.id, name="order_id_unique"),
                Check.primary_key("id", "qty", name="pk"),
                Check.row(cls.end >= cls.start, name="ends_after_start", action="drop"),
                Check.rows(min=1, name="not_empty"),
                Check.rows(min=1, max=10, name="few"),
                Check.agg(F.max(cls.qty) <= 1000, name="qty_max", action="warn"),
            )

    checks = Order.dataset_checks()
    assert [(c.name, c.kind, c.action) for c in checks] == [
        ("order_id_unique", "unique", "fail"),
        ("pk", "primary_key", "fail"),
        ("ends_after_start", "row", "drop"),
        ("not_empty", "rows", "fail"),
        ("few", "rows", "fail"),
        ("qty_max", "agg", "warn"),
    ]
    assert checks[0].columns == ("id",)
    assert checks[1].columns == ("id", "qty")
    assert [c.label for c in checks[2:]] == [
        "row: (end >= start)", "rows >= 1", "rows between 1 and 10", "agg: (max(qty) <= 1000)",
    ]  # fmt: skip
    row = checks[2].expr
    assert row is not None
    assert row.type.nullable


def test_a_model_without_checks_has_none_and_a_checks_column_stays_a_column() -> None:
    class Plain(DataFrameModel):
        id: int

    class Named(DataFrameModel):
        checks: int

    assert Plain.dataset_checks() == ()
    assert Named.dataset_checks() == ()
    assert Named.frame_schema().names == ("checks",)


def test_a_subclass_inherits_the_checks_bound_to_its_own_columns() -> None:
    class Base(DataFrameModel):
        id: int

        @classmethod
        def checks(cls) -> Sequence[Check]:
            return (Check.row(cls.id > 0, name="positive"),)

    class Wider(Base):
        extra: str

    (check,) = Wider.dataset_checks()
    assert check.expr is not None
    assert check.expr.refs[0].owner == "Wider"


def test_columns_with_hostile_names_are_keys_and_are_shown_quoted() -> None:
    model = _model(lambda cls: Check.unique("a.b`c", "id", name="odd_key"))
    (check,) = model.dataset_checks()
    assert check.columns == ("a.b`c", "id")
    assert check.label == "unique(`a.b``c`, id)"


@pytest.mark.parametrize(
    ("make", "error", "words"),
    [
        (lambda cls: Check.row(cls.qty + 1, name="c"), ColumnTypeError, "(qty + 1) is int (bigint), not a boolean"),
        (lambda cls: Check.agg(F.max(cls.qty), name="c"), ColumnTypeError, "not a boolean"),
        (lambda cls: Check.row(F.col("nope") > 1, name="c"), UnknownColumnError, "'nope' in check 'c' of Order"),
        (lambda cls: Check.unique("idd", name="c"), UnknownColumnError, "did you mean 'id'"),
        (lambda cls: Check.row(Other.x > 1, name="c"), ColumnTypeError, "Other.x is a column of another model"),
        (lambda cls: Check.unique(Other.x, name="c"), ColumnTypeError, "Other.x is a column of another model"),
        (lambda cls: Check.row(F.rand() > 0.5, name="c"), ColumnTypeError, "rand() is not deterministic"),
        (lambda cls: Check.agg(F.sum(F.rand()) > 0.5, name="c"), ColumnTypeError, "rand() is not deterministic"),
        (
            lambda cls: Check.row(cls.start >= F.current_date(), name="c"),
            ColumnTypeError,
            "current_date() is not deterministic (it can differ between two runs over the same rows); a check must "
            "give the same verdict every time (an agg check may compare with the clock",
        ),
        (lambda cls: Check.row(F.max(cls.qty) > 0, name="c"), ColumnTypeError, "aggregates rows"),
        (
            lambda cls: Check.row(F.sum(cls.qty).over(Window.partition_by(cls.id)) > 0, name="c"),
            ColumnTypeError,
            "uses a window",
        ),
        (lambda cls: Check.row(F.row_number() > 1, name="c"), ColumnTypeError, "needs a window"),
        (lambda cls: Check.agg(cls.qty > 0, name="c"), ColumnTypeError, "not an aggregate"),
        (lambda cls: Check.agg(F.max(cls.qty) > cls.id, name="c"), ColumnTypeError, "outside an aggregate"),
        (lambda cls: Check.unique("id", "id", name="c"), ArgumentValueError, "named twice"),
    ],
)
def test_a_bad_check_is_refused_when_the_model_is_defined(make: Any, error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=None) as raised:
        _model(make)
    assert words in str(raised.value)


def test_an_agg_check_may_compare_with_the_clock_which_is_how_freshness_is_written() -> None:
    class Event(DataFrameModel):
        at: datetime.datetime
        day: datetime.date

        @classmethod
        def checks(cls) -> Sequence[Check]:
            return (
                Check.agg(F.max(cls.at) >= F.current_timestamp() - datetime.timedelta(hours=1), name="fresh"),
                Check.agg(F.max(cls.day) >= F.current_date(), name="today", action="warn"),
                Check.agg(F.min(cls.at) <= F.now(), name="not_ahead"),
            )

    assert [(c.name, c.kind) for c in Event.dataset_checks()] == [
        ("fresh", "agg"),
        ("today", "agg"),
        ("not_ahead", "agg"),
    ]


def test_two_checks_of_one_name_are_refused() -> None:
    with pytest.raises(ArgumentValueError, match="two checks are named 'c'"):
        _model(lambda cls: Check.unique("id", name="c"), lambda cls: Check.rows(min=1, name="c"))


def test_checks_must_be_a_classmethod_returning_checks() -> None:
    with pytest.raises(ArgumentTypeError, match="must be a classmethod"):

        class Bad(DataFrameModel):
            id: int
            checks = staticmethod(lambda: ())  # type: ignore[assignment]

    with pytest.raises(ArgumentTypeError, match=r"must return a sequence of Check.*got \('id',\)"):
        _model(lambda cls: "id")  # type: ignore[arg-type,return-value]


ONLY_ROWS = "only a row or a references check"


@pytest.mark.parametrize(
    ("make", "error", "words"),
    [
        (lambda: Check.unique("id", name="bad name"), ArgumentValueError, "plain identifier"),
        (lambda: Check.unique("id", name="x`; DROP"), ArgumentValueError, "plain identifier"),
        (lambda: Check.unique("id", name="é"), ArgumentValueError, "plain identifier"),
        (lambda: Check.unique("id", name="_x"), ArgumentValueError, "plain identifier"),
        (lambda: Check.unique("id", name=1), ArgumentValueError, "got 1"),
        (lambda: Check.unique(name="k"), ArgumentValueError, "at least one column"),
        (lambda: Check.unique(3, name="k"), ArgumentTypeError, "not 3"),
        (lambda: Check.row(True, name="k"), ArgumentTypeError, "takes a boolean expression"),
        (lambda: Check.row(F.col("a") > 1, name="k", action="nope"), ArgumentValueError, "'warn', 'drop', 'fail'"),
        (lambda: Check.rows(min=1, name="k", action="drop"), ArgumentValueError, ONLY_ROWS),
        (lambda: Check.unique("id", name="k", action="drop"), ArgumentValueError, ONLY_ROWS),
        (lambda: Check.agg(F.max(F.col("a")) > 1, name="k", action="drop"), ArgumentValueError, ONLY_ROWS),
        (lambda: Check.rows(name="k"), ArgumentValueError, "give min=, max= or both"),
        (lambda: Check.rows(min=-1, name="k"), ArgumentValueError, "min must be an int >= 0"),
        (lambda: Check.rows(max=True, name="k"), ArgumentValueError, "max must be an int >= 0"),
        (lambda: Check.rows(min=3, max=2, name="k"), ArgumentValueError, "no frame could pass"),
    ],
)
def test_a_bad_declaration_is_refused_when_it_is_written(make: Any, error: type[Exception], words: str) -> None:
    with pytest.raises(error) as raised:
        make()
    assert words in str(raised.value)


# --- references ------------------------------------------------------------------------------------


class Customer(DataFrameModel):
    id: int
    region: str
    small: Annotated[int, dt.Int32]


def test_references_resolve_to_the_referencing_columns_and_the_key_of_another_model() -> None:
    class Order(DataFrameModel):
        id: int
        customer_id: int | None
        region: str
        parent: int | None
        code: Annotated[int, dt.Int16] = Field(0, alias="c.o`de")

        @classmethod
        def checks(cls) -> Sequence[Check]:
            return (
                Check.references(cls.customer_id, Customer.id, name="fk", action="drop"),
                Check.references(("customer_id", cls.region), (Customer.id, Customer.region), name="both"),
                Check.references(cls.parent, cls.id, name="parent", action="warn"),
                Check.references("c.o`de", Customer.small, name="odd"),  # two integer types pair
            )

    fk, both, parent, odd = Order.dataset_checks()
    assert (fk.kind, fk.columns, fk.target, [k.name for k in fk.referenced], fk.action) == (
        "references", ("customer_id",), "Customer", ["id"], "drop",
    )  # fmt: skip
    assert both.columns == ("customer_id", "region")
    assert both.label == "references(customer_id, region) -> Customer(id, region)"
    assert (parent.target, parent.label) == ("Order", "references(parent) -> Order(id)")
    assert odd.label == "references(`c.o``de`) -> Customer(small)"


@pytest.mark.parametrize(
    ("make", "error", "words"),
    [
        (
            lambda cls: Check.references(cls.start, Customer.id, name="c"),
            ColumnTypeError,
            "column 'start' of type date (date) cannot reference Customer.id of type int (bigint)",
        ),
        (lambda cls: Check.references("qtty", Customer.id, name="c"), UnknownColumnError, "did you mean 'qty'"),
        (
            lambda cls: Check.references(Other.x, Customer.id, name="c"),
            ColumnTypeError,
            "Other.x is a column of another",
        ),
        (
            lambda cls: Check.references((cls.id, "id"), (Customer.id, Customer.small), name="c"),
            ArgumentValueError,
            "column 'id' is named twice in the key",
        ),
    ],
)
def test_a_bad_reference_is_refused_when_the_model_is_defined(make: Any, error: type[Exception], words: str) -> None:
    with pytest.raises(error) as raised:
        _model(make)
    assert words in str(raised.value)


@pytest.mark.parametrize(
    ("make", "error", "words"),
    [
        (lambda: Check.references("id", F.col("id"), name="k"), ArgumentTypeError, "a column of a model (Customer.id)"),
        (lambda: Check.references("id", "id", name="k"), ArgumentTypeError, "not 'id'"),  # type: ignore[arg-type]
        (lambda: Check.references((), Customer.id, name="k"), ArgumentValueError, "at least one column"),
        (lambda: Check.references(3, Customer.id, name="k"), ArgumentTypeError, "or a name, not 3"),  # type: ignore[arg-type]
        (
            lambda: Check.references(("a", "b"), Customer.id, name="k"),
            ArgumentValueError,
            "2 referencing column(s) but 1 key column(s)",
        ),
        (
            lambda: Check.references(("a", "b"), (Customer.id, Other.x), name="k"),
            ArgumentValueError,
            "belong to one model, not to Customer, Other",
        ),
        (
            lambda: Check.references(("a", "b"), (Customer.id, Customer.id), name="k"),
            ArgumentValueError,
            "a key column is named twice",
        ),
        (lambda: Check.references("a", Customer.id, name="k k"), ArgumentValueError, "plain identifier"),
        (lambda: Check.references("a", Customer.id, name="k", action="skip"), ArgumentValueError, "'warn', 'drop'"),  # type: ignore[arg-type]
    ],
)
def test_a_bad_reference_is_refused_when_it_is_written(make: Any, error: type[Exception], words: str) -> None:
    with pytest.raises(error) as raised:
        make()
    assert words in str(raised.value)


class Shipment(DataFrameModel):
    id: int
    customer_id: int | None
    parent: int | None

    @classmethod
    def checks(cls) -> Sequence[Check]:
        return (
            Check.references(cls.customer_id, Customer.id, name="fk"),
            Check.references(cls.parent, cls.id, name="parent"),
        )


class Renamed(DataFrameModel):
    """A model with Customer's columns under another name: its frames are not Customer's."""

    id: int
    region: str
    small: Annotated[int, dt.Int32]


def _recoded() -> type[DataFrameModel]:
    """Another model named Customer (of another module, say): its frames pass for Customer's, its key is a string."""

    class Customer(DataFrameModel):
        id: str
        region: str

    return Customer


@pytest.mark.parametrize(
    ("references", "error", "words"),
    [
        (None, ArgumentValueError, "check 'fk' (references(customer_id) -> Customer(id)) needs the rows of Customer"),
        ({}, ArgumentValueError, "validate(references={Customer: <a DataFrame[Customer]>})"),
        ([Customer.from_rows([])], ArgumentTypeError, "references must be a dict of check names or models to frames"),
        ({"fk": Renamed.from_rows([])}, ArgumentTypeError, "must be a frame of Customer, got a frame of Renamed"),
        ({Customer: Renamed.from_rows([])}, ArgumentTypeError, ".as_model(Customer)"),
        ({Customer: [{"id": 1}]}, ArgumentTypeError, "must be a DataFrame[Customer], not [{'id': 1}]"),
        ({"fkk": Customer.from_rows([])}, ArgumentValueError, "references['fkk'] names no references check"),
        ({Renamed: Customer.from_rows([])}, ArgumentValueError, "references[Renamed] is referenced by no check"),
        ({3: Customer.from_rows([])}, ArgumentTypeError, "a check's name or a model class, not 3"),
        (
            {"fk": _recoded().from_rows([])},
            ColumnTypeError,
            "its key column 'id' is string where Customer declares int (bigint)",
        ),
    ],
)
def test_validate_refuses_a_missing_or_wrong_reference_before_spark(
    references: Any, error: type[Exception], words: str
) -> None:
    with pytest.raises(error) as raised:
        Shipment.from_rows([]).validate(references=references)
    assert words in str(raised.value)


def test_a_checks_own_frame_wins_over_its_models_and_a_self_reference_reads_the_validated_frame() -> None:
    from pydantable_spark.checks.references import reference_frames

    shipments, customers, others = Shipment.from_rows([]), Customer.from_rows([]), Customer.from_rows([])
    fk, parent = Shipment.dataset_checks()
    chosen = reference_frames(shipments, (fk, parent), {Customer: customers})
    assert chosen["fk"] is customers
    assert chosen["parent"] is shipments
    earlier = Shipment.from_rows([])
    chosen = reference_frames(shipments, (fk, parent), {Customer: customers, "fk": others, Shipment: earlier})
    assert chosen["fk"] is others
    assert chosen["parent"] is earlier


@pytest.mark.parametrize(
    ("write", "error", "words"),
    [
        (
            lambda: Shipment.from_rows([]).write_parquet("out"),
            ArgumentValueError,
            "write_parquet('out'): check 'fk' (references(customer_id) -> Customer(id)) needs the rows of Customer: "
            "write_parquet(references={Customer: <a DataFrame[Customer]>})",
        ),
        (
            lambda: Shipment.from_rows([]).save_as_table("t", references={"fkk": Customer.from_rows([])}),
            ArgumentValueError,
            "save_as_table('t'): references['fkk'] names no references check",
        ),
        (
            lambda: Shipment.from_rows([]).write_json("out", references={"fk": Renamed.from_rows([])}),
            ArgumentTypeError,
            "write_json('out'): the rows of check 'fk' (references(customer_id) -> Customer(id)) must be a frame of",
        ),
        (
            lambda: Shipment.from_rows([]).write_csv("out", constraints="skip", references={}),
            ArgumentValueError,
            "write_csv('out'): references= gives the rows of the model's references checks, which "
            "constraints='skip' does not run",
        ),
        (
            lambda: Shipment.from_rows([]).write_orc("out", constraints="loud"),  # type: ignore[arg-type]
            ArgumentValueError,
            "write_orc('out'): constraints='loud' is not one of",
        ),
    ],
)
def test_a_write_refuses_a_missing_or_wrong_reference_before_spark(
    write: Any, error: type[Exception], words: str
) -> None:
    with pytest.raises(error) as raised:
        write()
    assert words in str(raised.value)
