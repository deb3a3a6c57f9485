"""Dataset checks declared in a model's ``checks`` classmethod: what mypy sees from their types alone.

A row or aggregate check takes an ``Expr[bool | None]``, so a non-boolean one is an argument error; an
unknown column is the plugin's usual error. (An aggregate in a row check or another model's column is
refused when the class is defined; the plugin does not replay that yet.)
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantable_spark import Check, DataFrameModel, F


class Order(DataFrameModel):
    id: int
    qty: int | None

    @classmethod
    def checks(cls) -> Sequence[Check]:
        return (
            Check.row(cls.qty + 1, name="not_boolean"),  # E: Argument 1 to "row" of "Check" has incompatible type
            Check.agg(F.max(cls.qty) + 1, name="not_boolean_agg"),  # E: Argument 1 to "agg" of "Check"
            Check.row(cls.nope > 1, name="unknown"),  # E: "type[Order]" has no attribute "nope"
            Check.unique(cls.id, 3, name="bad_key"),  # E: Argument 2 to "unique" of "Check" has incompatible type
            Check.rows(min="1", name="bad_bound"),  # E: Argument "min" to "rows" of "Check" has incompatible type
            Check.row(cls.qty > 1, name="bad_action", action="stop"),  # E: Argument "action" to "row" of "Check"
        )
