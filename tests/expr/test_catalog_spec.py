"""The catalog's entry factory: its typed options are exactly ``Function``'s optional fields."""

from __future__ import annotations

import dataclasses
import typing

import pytest

from pydantable_spark.expr.catalog import spec
from pydantable_spark.expr.core import Node, Typed

pytestmark = pytest.mark.jvm_free

_NAMES = {"Node": Node, "Typed": Typed}
"""Names the spec module imports only for type checking."""


def _optional_fields() -> dict[str, object]:
    hints = typing.get_type_hints(spec.Function, localns=_NAMES)
    return {
        f.name: hints[f.name]
        for f in dataclasses.fields(spec.Function)
        if f.init and (f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING)
    }


def test_entry_options_are_the_optional_fields_of_function() -> None:
    options = typing.get_type_hints(spec.EntryOptions, localns=_NAMES)
    assert options == _optional_fields()
    assert spec.EntryOptions.__required_keys__ == frozenset()


def test_entry_builds_the_function_it_is_given() -> None:
    made = spec.entry(
        "f", (spec.column("col", spec.STRING),), spec.fixed(spec.OPTIONS), "A test.", "string", session=True
    )
    assert (made.name, made.category, made.session, made.summary) == ("f", "string", True, "A test.")
    assert made.params[0].name == "col"
