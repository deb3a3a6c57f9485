"""pydantable-spark: a typed, schema-first DataFrame façade over PySpark.

Declare a table once as a ``DataFrameModel``, transform it with typed column
expressions, and collect validated Pydantic rows::

    from pydantable_spark import DataFrameModel, F

    class User(DataFrameModel):
        id: int
        name: str
        age: int | None

    df = User.from_rows([{"id": 1, "name": "Ada", "age": 36}])
    df.filter(User.age >= 18).select(User.id, (User.age + 1).alias("next")).collect()
"""

from pydantable_spark import dtypes, errors
from pydantable_spark import functions as F
from pydantable_spark import selectors as cs
from pydantable_spark.annotations import Variant
from pydantable_spark.checks import Check
from pydantable_spark.descriptors import ModelColumn
from pydantable_spark.expr import Col, Expr
from pydantable_spark.expr.sides import left, right
from pydantable_spark.expr.windowspec import Window
from pydantable_spark.frame import DataFrame
from pydantable_spark.model import DataFrameModel
from pydantable_spark.schema import Field as SchemaField
from pydantable_spark.schema import Schema

__all__ = [
    "Check",
    "Col",
    "DataFrame",
    "DataFrameModel",
    "Expr",
    "F",
    "ModelColumn",
    "Schema",
    "SchemaField",
    "Variant",
    "Window",
    "cs",
    "dtypes",
    "errors",
    "left",
    "right",
]
__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    """``pydantable_spark.Field``, the old name of ``SchemaField``: it hid ``pydantic.Field`` on a star import."""
    if name == "Field":
        import warnings

        warnings.warn(
            "pydantable_spark.Field is now pydantable_spark.SchemaField (a schema's column); for constraints on "
            "a model's field use pydantic.Field",
            DeprecationWarning,
            stacklevel=2,
        )
        return SchemaField
    msg = f"module 'pydantable_spark' has no attribute {name!r}"
    raise AttributeError(msg)
