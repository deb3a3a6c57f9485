"""Dataset-level checks declared on a model: keys, references, row conditions, row counts and aggregates.

``Check`` (``declare``) builds them and refuses bad ones when the model is
defined (``resolve_checks``, on the model's schema; the mypy plugin runs
``resolve_check`` on the static schema, and ``reference_frames`` on
``validate(references=...)``); ``DataFrame.validate()``, writes with
``constraints=`` (not ``"skip"``) and ``merge_into`` run them in Spark with the
model's value constraints (``pydantable_spark._spark.checks``), with the
referenced frames ``references.reference_frames`` pairs with the
``references`` checks; a read with ``constraints="raise"`` runs the ``fail``
row checks. See ``docs/constraints.md``.
"""

from pydantable_spark.checks.declare import ACTIONS, Action, Check, CheckKind, resolve_check, resolve_checks

__all__ = ["ACTIONS", "Action", "Check", "CheckKind", "resolve_check", "resolve_checks"]
