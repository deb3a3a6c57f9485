"""Dataset-level checks declared on a model: keys, row conditions, row counts and aggregate expectations.

``Check`` (``declare``) builds them and refuses bad ones when the model is
defined; ``DataFrame.validate()`` runs them in Spark with the model's value
constraints (``pydantable_spark._spark.checks``). See ``docs/constraints.md``.
"""

from pydantable_spark.checks.declare import ACTIONS, Action, Check, CheckKind, resolve_checks

__all__ = ["ACTIONS", "Action", "Check", "CheckKind", "resolve_checks"]
