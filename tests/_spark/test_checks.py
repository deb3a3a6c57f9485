"""Run-time NULL checks: their SQL grows with the schema, not with its depth times its size, and still fires."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest
from pydantic import create_model

from pydantable_spark import DataFrameModel
from pydantable_spark import dtypes as dt
from pydantable_spark._spark.null_checks import checked_sql
from pydantable_spark.errors import NullCheckError

if TYPE_CHECKING:
    from pathlib import Path

    from pyspark.sql import SparkSession


def _nested(width: int, depth: int, nullable: bool) -> dt.DType:
    """A struct of ``width`` int fields and a ``child`` struct, ``depth`` levels deep."""
    fields = [dt.Field(f"f{i}", dt.Int64(), nullable) for i in range(width)]
    if depth > 1:
        fields.append(dt.Field("child", _nested(width, depth - 1, nullable), nullable))
    return dt.Struct(tuple(fields))


@pytest.mark.parametrize("depth", [5, 10, 20])
def test_a_nested_struct_is_rebuilt_once_per_level_without_stand_in_values(depth: int) -> None:
    # each non-null struct level used to carry two stand-in structs of everything below it, and Spark's
    # common-subexpression pass took minutes over 20 levels
    source = dt.Field("s", _nested(10, depth, nullable=True), True)
    target = dt.Field("s", _nested(10, depth, nullable=False), False)
    sql = checked_sql("`s`", source, target, "s")
    assert sql.count("named_struct(") == depth
    assert sql.count("raise_error(") == depth * 11  # every field (10 a level) and every struct level, once


def test_a_null_deep_inside_is_still_reported_with_its_path(spark: SparkSession, tmp_path: Path) -> None:
    def model(level: int) -> Any:
        fields: dict[str, Any] = {"a": (int, ...)}
        if level < 6:
            fields["child"] = (model(level + 1), ...)
        return create_model(f"Level{level}", __base__=DataFrameModel, **fields)

    def row(level: int, leaf: int | None) -> dict[str, Any]:
        found: dict[str, Any] = {"a": leaf if level == 6 else level}
        if level < 6:
            found["child"] = row(level + 1, leaf)
        return found

    top = model(1)
    (tmp_path / "ok.json").write_text(json.dumps(row(1, 7)) + "\n")
    assert top.read_json(tmp_path / "ok.json").collect()[0].child.child.child.child.child.a == 7
    (tmp_path / "bad" / "x.json").parent.mkdir()
    (tmp_path / "bad" / "x.json").write_text(json.dumps(row(1, None)) + "\n")
    with pytest.raises(NullCheckError, match=r"column 'child\.child\.child\.child\.child\.a' holds a NULL"):
        top.read_json(tmp_path / "bad").collect()
    (tmp_path / "gone" / "x.json").parent.mkdir()
    missing = row(1, 7)
    missing["child"]["child"]["child"] = None
    (tmp_path / "gone" / "x.json").write_text(json.dumps(missing) + "\n")
    with pytest.raises(NullCheckError, match=r"column 'child\.child\.child' holds a NULL"):
        top.read_json(tmp_path / "gone").collect()
