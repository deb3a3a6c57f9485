"""The catalog's entry factory: its typed options are exactly the optional fields of ``Function``'s parts."""

from __future__ import annotations

import dataclasses
import typing

import pytest

from pydantable_spark.expr.catalog import CATALOG, accepts, returns, spec
from pydantable_spark.expr.core import Node, Typed

pytestmark = pytest.mark.jvm_free

_NAMES = {"Node": Node, "Typed": Typed}
"""Names the spec module imports only for type checking."""


def _parts() -> list[type]:
    """The records ``Function`` is made of: its init fields after the name."""
    hints = typing.get_type_hints(spec.Function, localns=_NAMES)
    return [hints[f.name] for f in dataclasses.fields(spec.Function) if f.init and f.name != "name"]


def _fields(*, optional: bool) -> dict[str, object]:
    found: dict[str, object] = {}
    for part in _parts():
        hints = typing.get_type_hints(part, localns=_NAMES)
        for f in dataclasses.fields(part):
            has_default = f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
            if has_default is optional:
                assert f.name not in found, f"two parts have a field {f.name}: options would be ambiguous"
                found[f.name] = hints[f.name]
    return found


def test_parts_are_the_records_of_an_entry() -> None:
    assert _parts() == [spec.Signature, spec.Rules, spec.Spelling, spec.Placement, spec.Docs, spec.Fixtures]


def test_entry_options_are_the_optional_fields_of_the_parts() -> None:
    options = typing.get_type_hints(spec.EntryOptions, localns=_NAMES)
    assert options == _fields(optional=True)
    assert spec.EntryOptions.__required_keys__ == frozenset()


def test_entry_takes_the_required_fields_by_position() -> None:
    positional = list(typing.get_type_hints(spec.entry, localns=_NAMES))[1:-2]  # after name; before options, return
    assert set(positional) == set(_fields(optional=False))


def test_entry_puts_each_option_in_its_part() -> None:
    made = spec.entry(
        "f",
        (spec.column("col", accepts.STRING),),
        returns.fixed(spec.OPTIONS),
        "A test.",
        "string",
        session=True,
        template="f({0})",
        aliases=("g",),
        samples_only=True,
        example="F.f(x)",
        weak=(0,),
    )
    assert (made.name, made.docs.category, made.docs.summary, made.docs.example) == ("f", "string", "A test.", "F.f(x)")
    assert (made.placement.session, made.spelling.template, made.signature.aliases) == (True, "f({0})", ("g",))
    assert (made.fixtures.samples_only, made.rules.weak, made.signature.params[0].name) == (True, (0,), "col")


def test_entries_keep_their_parts_apart() -> None:
    upper = CATALOG["upper"]
    assert (upper.call_name, upper.sql_name, upper.placement.kind) == ("F.upper", "upper", spec.Kind.SCALAR)
    assert CATALOG["row_number"].placement.needs_order


def test_accepts_holds_type_sets_and_returns_result_rules() -> None:
    """The two namespaces never share a meaning: ``accepts.DOUBLE`` admits, ``returns.DOUBLE`` results."""
    sets = [n for n in accepts.__all__ if n.isupper()]
    assert sets
    assert all(isinstance(getattr(accepts, n), accepts.Accepts) for n in sets)
    no_args = spec.Args((), ())
    rules = [n for n in returns.__all__ if n.isupper()]
    assert rules
    assert {n: str(getattr(returns, n)(no_args)) for n in rules} == {n: n.lower() for n in rules}
