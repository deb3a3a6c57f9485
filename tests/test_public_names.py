"""The package's public names: a star import gives no name that hides one a user needs from pydantic."""

from __future__ import annotations

import pydantic
import pytest

import pydantable_spark


def test_a_star_import_does_not_hide_pydantics_field() -> None:
    namespace: dict[str, object] = {}
    exec("from pydantic import Field\nfrom pydantable_spark import *", namespace)
    assert namespace["Field"] is pydantic.Field
    assert "SchemaField" in namespace


def test_the_old_name_of_schema_field_still_works_with_a_warning() -> None:
    with pytest.warns(DeprecationWarning, match="pydantable_spark.Field is now pydantable_spark.SchemaField"):
        old = pydantable_spark.Field  # type: ignore[attr-defined]
    assert old is pydantable_spark.SchemaField
    with pytest.raises(AttributeError, match="has no attribute 'Nope'"):
        pydantable_spark.Nope  # type: ignore[attr-defined]  # noqa: B018
