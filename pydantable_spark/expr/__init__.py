"""Typed column expressions: the ``Expr`` API over an IR of frozen nodes."""

from pydantable_spark.expr.api import Col, Expr
from pydantable_spark.expr.core import Node, Typed

__all__ = ["Col", "Expr", "Node", "Typed"]
