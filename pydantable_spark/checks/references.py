"""The frames a model's ``references`` checks are checked against, as ``validate(references=...)`` gives them.

``reference_frames`` pairs each ``references`` check with the frame of the
model it points to and refuses what cannot be that frame (before any Spark
job): a value that is not a frame, a frame of another model, a key whose
type the frame has changed, a key that names no check, a check left without
one. ``kept_by_reference`` is the plan of the rows a ``drop`` reference keeps.
Nothing here imports pyspark; ``pydantable_spark._spark.checks`` runs the checks.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pydantable_spark.checks.declare import Check, model_owners, pairs_with
from pydantable_spark.errors import ArgumentTypeError, ArgumentValueError, ColumnTypeError, shown
from pydantable_spark.expr.api import Expr
from pydantable_spark.expr.core import Column, bind
from pydantable_spark.expr.forms import lit

if TYPE_CHECKING:
    from collections.abc import Sequence

    from pydantable_spark.frame import DataFrame

__all__ = ["bound_checks", "checks_to_run", "kept_by_reference", "reference_frames"]


def bound_checks(frame: DataFrame[Any]) -> tuple[Check, ...]:
    """The dataset checks of ``frame``'s model, their expressions bound to the frame's own columns.

    A frame of the model may know its columns narrower (non-null where the
    model says ``int | None``); a frame whose model is no ``DataFrameModel``
    (a derived row) has no checks.
    """
    from pydantable_spark.model import DataFrameModel

    if not issubclass(frame.model, DataFrameModel):
        return ()
    return tuple(
        dataclasses.replace(c, expr=bind(c.expr, frame.schema)) if c.expr is not None else c
        for c in frame.model.dataset_checks()
    )


def reference_frames(
    frame: DataFrame[Any], checks: Sequence[Check], references: object, action: str = "validate()"
) -> dict[str, DataFrame[Any]]:
    """The referenced frame of each ``references`` check of ``checks`` (by check name), from ``references``.

    ``references`` maps a check's name, or the referenced model (its class),
    to a frame of that model; a check's own name wins over its model. A check
    that references the validated frame's own model reads ``frame`` unless
    one is given. ``action`` (``validate()``, ``write_parquet('out')``...)
    starts every message.
    """
    if references is None:
        references = {}
    if not isinstance(references, Mapping):
        msg = (
            f"{action}: references must be a dict of check names or models to frames "
            f"({{Customer: customers}}), got {shown(references)}"
        )
        raise ArgumentTypeError(msg)
    pointing = [c for c in checks if c.kind == "references"]
    by_name: dict[str, object] = {}
    by_model: dict[str, object] = {}
    for key, value in references.items():
        if isinstance(key, str):
            if key not in {c.name for c in pointing}:
                msg = f"{action}: references[{key!r}] names no references check; {_expected(pointing)}"
                raise ArgumentValueError(msg)
            by_name[key] = value
        elif isinstance(key, type) and hasattr(key, "dataset_checks"):
            if key.__name__ not in {c.target for c in pointing}:
                msg = f"{action}: references[{key.__name__}] is referenced by no check; {_expected(pointing)}"
                raise ArgumentValueError(msg)
            by_model[key.__name__] = value
        else:
            msg = f"{action}: a key of references is a check's name or a model class, not {shown(key)}"
            raise ArgumentTypeError(msg)
    found: dict[str, DataFrame[Any]] = {}
    for check in pointing:
        assert check.target is not None
        given = by_name.get(check.name, by_model.get(check.target))
        if given is None and check.target in model_owners(frame.model):
            given = frame  # a model referencing its own key: the validated rows, unless others are given
        if given is None:
            msg = (
                f"{action}: check {check.name!r} ({check.label}) needs the rows of {check.target}: "
                f"{_call(action)}(references={{{check.target}: <a DataFrame[{check.target}]>}})"
            )
            raise ArgumentValueError(msg)
        found[check.name] = _checked(check, given, action)
    return found


def checks_to_run(
    frame: DataFrame[Any], constraints: object, references: object, action: str
) -> tuple[tuple[Check, ...], dict[str, DataFrame[Any]]]:
    """The dataset checks a write or a MERGE of ``frame`` runs (none with ``"skip"``), and their referenced frames.

    ``references`` with ``constraints="skip"`` is refused: it would be ignored.
    """
    if constraints == "skip":
        if references is not None:
            msg = (
                f"{action}: references= gives the rows of the model's references checks, which "
                "constraints='skip' does not run"
            )
            raise ArgumentValueError(msg)
        return (), {}
    dataset = bound_checks(frame)
    return dataset, reference_frames(frame, dataset, references, action) if dataset else {}


def _expected(pointing: Sequence[Check]) -> str:
    if not pointing:
        return "the model has no references check"
    listed = ", ".join(f"{c.name!r} ({c.target})" for c in pointing)
    return f"the references checks are {listed}"


def _call(action: str) -> str:
    """The method an action names: ``validate`` for ``validate()``, ``write_parquet`` for ``write_parquet('out')``."""
    return action.split("(", 1)[0]


def _checked(check: Check, given: object, action: str) -> DataFrame[Any]:
    """``given``, a frame of the check's target model whose key columns pair with the referencing columns."""
    from pydantable_spark.frame import DataFrame

    where = f"{action}: the rows of check {check.name!r} ({check.label})"
    if not isinstance(given, DataFrame):
        msg = f"{where} must be a DataFrame[{check.target}], not {shown(given)}"
        raise ArgumentTypeError(msg)
    model = given.model
    if check.target not in model_owners(model):
        msg = (
            f"{where} must be a frame of {check.target}, got a frame of {model.__name__} "
            f"(a frame with {check.target}'s columns becomes one with .as_model({check.target}))"
        )
        raise ArgumentTypeError(msg)
    for referencing, key in zip(check.columns, check.referenced, strict=True):
        field = given.schema[key.name]  # an unknown column names the columns there are
        assert key.declared is not None
        if not pairs_with(field.dtype, key.declared.dtype):
            msg = (
                f"{where}: its key column {key.name!r} is {field.dtype.sql_name} where {check.target} declares "
                f"{key.declared}, which {referencing!r} references"
            )
            raise ColumnTypeError(msg)
    return given


def kept_by_reference(frame: DataFrame[Any], check: Check, reference: DataFrame[Any]) -> DataFrame[Any]:
    """The rows of ``frame`` whose referencing columns have a NULL or a match among ``reference``'s keys (a plan).

    One left join with the reference's distinct keys (each row of ``frame``
    meets at most one), then a filter on the match: ``frame``'s columns and
    rows, less those the check counts.
    """
    taken = set(frame.columns)
    aliases = []
    for j in range(len(check.referenced) + 1):
        alias = f"__pydantable_ref{j}"
        while alias in taken:
            alias += "_"
        taken.add(alias)
        aliases.append(alias)
    *names, matched = aliases
    keys = reference.select(
        *(Expr(Column(key.name)).alias(name) for key, name in zip(check.referenced, names, strict=True)),
        **{matched: lit(True)},
    ).unique()
    joined = frame.join(keys, left_on=list(check.columns), right_on=names, how="left")
    keep = Expr(Column(matched)).is_not_null()
    for name in check.columns:
        keep = keep | Expr(Column(name)).is_null()
    return joined.filter(keep).select(*frame.columns)
