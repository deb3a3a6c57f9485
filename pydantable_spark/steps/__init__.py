"""Plans → Spark steps, in pure Python: the Step IR and the named passes that shape it.

A plan becomes a tree of steps, one per Spark DataFrame call, before anything
talks to Spark; ``explain()`` shows them and ``pydantable_spark._spark``
executes them. The modules, in the order a plan goes through them:

* ``prune_columns``: every plan node computes only the columns read above it;
* ``translate``: each plan node class's translation into steps
  (``TRANSLATIONS``), applying on the way
* ``fuse_projections``: a projection over a projection becomes one, and
* ``push_down_filters``: a filter runs before the projections below it,
  both over the work still pending (``pending``), written out as at most one
  ``filter`` and one ``selectExpr``;
* ``ir``: the steps themselves and ``render_steps``.

Nothing in this package imports pyspark (a test checks it, lazily or not).
"""

from pydantable_spark.steps.ir import Step, render_steps
from pydantable_spark.steps.translate import plan_steps, readable_steps

__all__ = ["Step", "plan_steps", "readable_steps", "render_steps"]
