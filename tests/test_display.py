"""Seeing data: show(), the notebook repr, the schema tree, and errors that name the façade operation."""

from __future__ import annotations

import ast
import datetime
from pathlib import Path
from typing import Any

import pytest

import pydantable_spark
from pydantable_spark import DataFrameModel, display
from pydantable_spark._spark import lower as lowering
from pydantable_spark._spark.session import is_connect, resolve_session
from pydantable_spark.errors import SparkAnalysisError
from pydantable_spark.steps.ir import SelectExprs, ToSchema


class Address(DataFrameModel):
    city: str
    zip: str | None


class User(DataFrameModel):
    id: int
    name: str
    age: int | None
    joined: datetime.date
    address: Address
    tags: list[str]


USERS = [
    {"id": 1, "name": "Ada", "age": 36, "joined": datetime.date(2020, 1, 2),
     "address": {"city": "London", "zip": None}, "tags": ["math"]},
    {"id": 2, "name": "Bartholomew the Long-Named", "age": None, "joined": datetime.date(2021, 3, 4),
     "address": {"city": "Paris", "zip": "75001"}, "tags": []},
]  # fmt: skip


def _frame() -> Any:
    return User.from_rows(USERS).sort(User.id)


SHOWN = """\
┌─────┬──────────────────────┬────────────┬────────────┬──────────────────────┬───────────┐
│  id ┆ name                 ┆        age ┆ joined     ┆ address              ┆ tags      │
│ int ┆ str                  ┆ int | None ┆ date       ┆ Address              ┆ list[str] │
╞═════╪══════════════════════╪════════════╪════════════╪══════════════════════╪═══════════╡
│   1 ┆ Ada                  ┆         36 ┆ 2020-01-02 ┆ {city: London, zip:… ┆ [math]    │
│   2 ┆ Bartholomew the Lon… ┆       null ┆ 2021-03-04 ┆ {city: Paris, zip: … ┆ []        │
└─────┴──────────────────────┴────────────┴────────────┴──────────────────────┴───────────┘"""


def test_show_prints_types_and_nullability_under_the_names(capsys: pytest.CaptureFixture[str]) -> None:
    _frame().show()
    assert capsys.readouterr().out.rstrip("\n") == SHOWN


def test_show_bounds_rows_and_truncation(capsys: pytest.CaptureFixture[str]) -> None:
    _frame().select("id", "name").show(n=1, truncate=False)
    out = capsys.readouterr().out
    assert "Ada" in out
    assert "Bartholomew" not in out
    assert out.rstrip().endswith("only showing the first 1 rows")
    _frame().select("name").show(truncate=5)
    assert "Bart…" in capsys.readouterr().out
    with pytest.raises(ValueError, match=r"show\(n=-1\) needs n >= 0"):
        _frame().show(n=-1)


def test_html_repr_shows_schema_and_a_bounded_preview(monkeypatch: pytest.MonkeyPatch) -> None:
    frame = _frame()
    page = frame._repr_html_()
    assert "<b>DataFrame[User]</b> · 6 columns" in page
    assert "<th>age</th>" in page
    assert "<code>int | None</code>" in page
    assert "<td>Bartholomew the Long-Named</td>" in page
    assert "preview: all 2 rows, from one Spark job bounded by limit(11)" in page
    monkeypatch.setattr(display, "PREVIEW_ROWS", 1)
    assert "preview: the first 1 rows, from one Spark job bounded by limit(2)" in frame._repr_html_()


def _no_spark(*_: object, **__: object) -> None:
    msg = "a Spark job ran"
    raise AssertionError(msg)


def test_repr_and_schema_never_run_a_job(monkeypatch: pytest.MonkeyPatch) -> None:
    frame = _frame()
    monkeypatch.setattr(lowering, "arrow_ready", _no_spark)
    monkeypatch.setattr(lowering, "execute", _no_spark)
    assert repr(frame) == (
        "DataFrame[User](id: int, name: str, age: int | None, joined: date, address: Address, tags: list[str])"
    )
    assert str(frame.schema).splitlines()[4:7] == [
        "address: Address (struct)",
        "├── city: str (string)",
        "└── zip: str | None (string)",
    ]
    monkeypatch.setattr(display, "PREVIEW_ROWS", 0)
    assert "schema only" in frame._repr_html_()


def _session() -> Any:
    return resolve_session()


def test_spark_analysis_errors_name_the_spark_call_and_the_facade_plan() -> None:
    frame = User.from_rows(USERS).filter(User.age > 1)
    real = lowering.plan_steps

    def broken(plan: Any) -> Any:  # a lowering bug: a selectExpr naming a column that is not there
        gate = real(plan)
        return ToSchema(SelectExprs(gate.input, ("`agee`",)), gate.schema, gate=True)

    lowering.plan_steps = broken  # type: ignore[assignment]
    try:
        with pytest.raises(SparkAnalysisError) as info:
            frame.to_spark()
    finally:
        lowering.plan_steps = real  # type: ignore[assignment]
    text = str(info.value)
    # classic Spark analyses each call as it is made; a Connect client first asks at the final to()
    call = "to struct<" if is_connect(_session()) else "selectExpr `agee`"
    assert text.startswith(f"Spark refused the lowered call `{call}")
    assert "UNRESOLVED_COLUMN" in text
    assert "façade plan (last operation first):\n  Filter [(age > 1)]" in text
    assert type(info.value.__cause__).__name__ == "AnalysisException"


def test_library_code_does_not_print() -> None:
    """Only show() prints; everything else logs (the ``pydantable_spark`` logger).

    A module's ``if __name__ == "__main__":`` block is a command, run by hand
    (``python -m pydantable_spark._mypy.coverage``): it may print.
    """
    package = Path(pydantable_spark.__file__).parent
    printing = []
    for path in package.rglob("*.py"):
        tree = ast.parse(path.read_text())
        commands = [n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "__name__ == '__main__'"]
        run_by_hand = {id(node) for block in commands for node in ast.walk(block)}
        for node in ast.walk(tree):
            called = isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print"
            if called and id(node) not in run_by_hand:
                printing.append(f"{path.relative_to(package)}:{node.lineno}")
    assert len(printing) == 1
    assert printing[0].startswith("frame.py:")


FORGING = [
    "a\nSource [forged]",
    "b\r\n  Filter [forged]",
    "c\x1b[2K\rforged",
    "d\u2028forged",
    "e\u202eforged",
    "f\x00",
]
"""Column names that would start, rewrite or hide a line of a view if printed as they are."""


@pytest.mark.jvm_free
def test_no_name_or_value_forges_a_line_of_explain_show_or_a_schema() -> None:
    from pydantable_spark import F
    from pydantable_spark import dtypes as dt
    from pydantable_spark.model import row_model
    from pydantable_spark.schema import Schema

    schema = Schema(tuple(dt.Field(name, dt.String(), True) for name in FORGING))
    frame = row_model(schema).from_rows([dict.fromkeys(FORGING, "v\nforged")])
    frame = frame.filter(F.col(FORGING[0]) == "x\ny").select(*FORGING)
    text = frame.explain()
    assert len(text.split("\nschema:\n")[0].splitlines()) == 4  # the header, then Project, Filter and Source
    for line in text.splitlines():
        assert line.startswith(("logical plan:", "schema:", "spark calls", "  ")), line
        assert line.isprintable(), line
    sections = text.split("\nschema:\n")[1].split("\nspark calls")[0].splitlines()
    assert sections == [f"  {display.one_line(n)}: str | None (string)" for n in FORGING]
    assert "  a\\nSource [forged]: str | None (string)" in sections
    assert len(str(schema).splitlines()) == len(FORGING)
    assert repr(schema).isprintable()
    assert repr(frame).isprintable()
    table = display.text_table(schema, [("x\ny",) * len(FORGING)], more=False, truncate=None)
    assert len(table.splitlines()) == 6  # top, names, types, rule, one row, bottom
    assert all(line.isprintable() for line in table.splitlines())
