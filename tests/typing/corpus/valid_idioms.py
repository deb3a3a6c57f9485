"""Valid: everyday Python around pipelines (helpers, loops, branches, unpacking, untyped stages)."""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable, Sequence
from typing import Any

from models import Order, OrderLine, Product

from pydantable_spark import DataFrame, Expr, F, Window, cs
from pydantable_spark.expr.windowspec import WindowSpec

MEASURES = ("quantity", "unit_price")


def total(column: Expr[Any]) -> Expr[Any]:
    return F.sum(column)


def ranked(frame: DataFrame[Any], window: WindowSpec, name: str = "rank") -> DataFrame[Any]:
    return frame.with_columns(**{name: F.row_number().over(window)})


def all_of(predicates: Iterable[Expr[bool | None]]) -> Expr[bool | None]:
    return functools.reduce(operator.and_, predicates)


def summarize(lines: DataFrame[OrderLine], keys: Sequence[str]) -> DataFrame[Any]:
    aggregations = {f"{m}_sum": F.sum(m) for m in MEASURES}
    aggregations["lines"] = F.count()
    return lines.group_by(*keys).agg(**aggregations)


def filtered(lines: DataFrame[OrderLine], min_quantity: int | None, exclude: list[int]) -> DataFrame[OrderLine]:
    predicates = [OrderLine.quantity > 0]
    if min_quantity is not None:
        predicates.append(OrderLine.quantity >= min_quantity)
    if exclude:
        predicates.append(~OrderLine.product_id.is_in(exclude))
    return lines.filter(all_of(predicates))


def widened(lines: DataFrame[OrderLine], extra: bool) -> DataFrame[Any]:
    out = lines.with_columns(amount=OrderLine.quantity * OrderLine.unit_price)
    if extra:
        out = out.with_columns(big=F.col("amount") > 100)
    for column in ("line_no", "discount"):
        out = out.drop(column)
    try:
        out = out.with_columns(checked=F.lit(True))
    except ValueError:
        out = out.with_columns(checked=F.lit(False))
    return out


def per_order(lines: DataFrame[OrderLine]) -> DataFrame[Any]:
    window = Window.partition_by(OrderLine.order_id).order_by(OrderLine.line_no)
    numbered = ranked(lines, window, name="position")
    amount = F.col("quantity") * F.col("unit_price")
    numbered = numbered.with_columns(amount=amount, order_total=total(amount).over(Window.partition_by("order_id")))
    return numbered.select([F.col(c) for c in ("order_id", "position", "amount", "order_total")])


def choose_window(by_line: bool) -> WindowSpec:
    w = Window.partition_by("order_id")
    if by_line:
        w = w.order_by("line_no")
    elif w.frame is None:
        w = w.order_by("product_id")
    return w


def numbered(lines: DataFrame[OrderLine], by_line: bool) -> DataFrame[Any]:
    return lines.with_columns(n=F.row_number().over(choose_window(by_line)))


def catalogue(products: DataFrame[Product], columns: list[str]) -> DataFrame[Any]:
    picked = products.select(*columns) if columns else products
    numeric = products.select(cs.numeric())
    return picked.join(numeric, on="id", how="left") if "id" in columns else numeric


def key_of(by_channel: bool) -> Expr[Any]:
    return F.col("channel") if by_channel else F.col("status")


def order_counts(orders: DataFrame[Order], by_channel: bool) -> DataFrame[Any]:
    key = key_of(by_channel)
    counts = orders.group_by(key).agg(n=F.count())
    return counts.sort(F.col("n"), descending=True)


def stage(frame: DataFrame[Any]) -> DataFrame[Any]:
    """An untyped stage: columns are the caller's business (checked when the plan is built)."""
    return frame.with_columns(seen=F.lit(True))


def build() -> list[DataFrame[Any]]:
    lines = OrderLine.from_rows([])
    orders = Order.from_rows([])
    products = Product.from_rows([])
    return [
        summarize(lines, ["order_id"]),
        filtered(lines, 2, [7, 9]),
        widened(lines, extra=True),
        per_order(lines),
        numbered(lines, by_line=False),
        catalogue(products, ["id", "title"]),
        order_counts(orders, by_channel=True),
        stage(orders),
    ]
