"""The 22 TPC-H queries in the typed API, with the validation parameters of ``sql.py``.

Each query reads like its SQL where the API has the same construct: model
attributes for columns, ``F`` for functions, ``join`` / ``group_by().agg`` /
``sort`` / ``limit``. Where the SQL needs a construct the API spells another
way (``EXISTS`` / ``IN`` subqueries, correlated and scalar subqueries), the
query says so in its docstring and uses the idiomatic typed form: semi and anti
joins, joins with an aggregate, a one-row aggregate joined back. ``REWRITTEN``
lists those queries; the benchmark's geometric mean is over the others.

Dates are Python ``date`` values (``date(1998, 12, 1) - timedelta(days=90)``
instead of SQL's interval arithmetic), decimals ``Decimal`` values: they keep
the SQL's column types.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from benchmarks.tpch.models import Customer, LineItem, Nation, Orders, Part, PartSupp, Region, Supplier
from pydantable_spark import F, left, right

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from pyspark.sql import SparkSession

    from pydantable_spark import DataFrame
    from pydantable_spark.expr.api import Expr


@dataclass(frozen=True)
class Tables:
    """The eight tables as typed frames over one directory of Parquet files, and its scale factor."""

    region: DataFrame[Region]
    nation: DataFrame[Nation]
    supplier: DataFrame[Supplier]
    customer: DataFrame[Customer]
    part: DataFrame[Part]
    partsupp: DataFrame[PartSupp]
    orders: DataFrame[Orders]
    lineitem: DataFrame[LineItem]
    sf: float

    @classmethod
    def read(cls, data: Path, sf: float, session: SparkSession | None = None) -> Tables:
        """The tables ``<data>/<table>.parquet``, as ``tpchgen-cli parquet`` writes them."""
        return cls(
            Region.read_parquet(str(data / "region.parquet"), session=session),
            Nation.read_parquet(str(data / "nation.parquet"), session=session),
            Supplier.read_parquet(str(data / "supplier.parquet"), session=session),
            Customer.read_parquet(str(data / "customer.parquet"), session=session),
            Part.read_parquet(str(data / "part.parquet"), session=session),
            PartSupp.read_parquet(str(data / "partsupp.parquet"), session=session),
            Orders.read_parquet(str(data / "orders.parquet"), session=session),
            LineItem.read_parquet(str(data / "lineitem.parquet"), session=session),
            sf,
        )

    @classmethod
    def in_memory(cls, data: Path, sf: float) -> Tables:
        """The same tables read into Python (pyarrow) and built with ``from_arrow``: no Spark needed to build them.

        Their plans start from Python data, so they export to Substrait and run on the local engine
        (``tests/test_tpch.py``, ``benchmarks/local_engine/tpch.py``).
        """
        import pyarrow as pa
        import pyarrow.parquet as pq

        def read(model: Any, table: str) -> Any:
            loaded = pq.read_table(data / f"{table}.parquet")
            plain = [pa.field(f.name, pa.string() if f.type == pa.string_view() else f.type) for f in loaded.schema]
            return model.from_arrow(loaded.cast(pa.schema(plain)))  # tpchgen-cli writes string views

        models = (Region, Nation, Supplier, Customer, Part, PartSupp, Orders, LineItem)
        names = ("region", "nation", "supplier", "customer", "part", "partsupp", "orders", "lineitem")
        frames = {name: read(model, name) for model, name in zip(models, names, strict=True)}
        return cls(**frames, sf=sf)


L = LineItem
O = Orders  # noqa: E741 - the table's initial, as the SQL's column prefixes
C = Customer
P = Part
PS = PartSupp
S = Supplier
N = Nation
R = Region

DISC_PRICE = L.l_extendedprice * (1 - L.l_discount)
"""``l_extendedprice * (1 - l_discount)``: the revenue of a line, in most queries."""


def q01(t: Tables) -> DataFrame[Any]:
    """Pricing summary report."""
    return (
        t.lineitem.filter(L.l_shipdate <= datetime.date(1998, 12, 1) - datetime.timedelta(days=90))
        .group_by(L.l_returnflag, L.l_linestatus)
        .agg(
            sum_qty=F.sum(L.l_quantity),
            sum_base_price=F.sum(L.l_extendedprice),
            sum_disc_price=F.sum(DISC_PRICE),
            sum_charge=F.sum(DISC_PRICE * (1 + L.l_tax)),
            avg_qty=F.avg(L.l_quantity),
            avg_price=F.avg(L.l_extendedprice),
            avg_disc=F.avg(L.l_discount),
            count_order=F.count(),
        )
        .sort(L.l_returnflag, L.l_linestatus)
    )


def q02(t: Tables) -> DataFrame[Any]:
    """Minimum cost supplier.

    Rewritten: the correlated subquery (the minimum cost of the part among
    European suppliers) is an aggregate per part, and the offers at that cost
    are a semi join with it on the part and the cost.
    """
    europe = t.nation.join(t.region.filter(R.r_name == "EUROPE"), left_on=N.n_regionkey, right_on=R.r_regionkey)
    offers = t.partsupp.join(t.supplier, left_on=PS.ps_suppkey, right_on=S.s_suppkey).join(
        europe, left_on=S.s_nationkey, right_on=N.n_nationkey
    )
    cheapest = offers.group_by(PS.ps_partkey).agg(ps_supplycost=F.min(PS.ps_supplycost))
    return (
        t.part.filter((P.p_size == 15) & P.p_type.str.ends_with("BRASS"))
        .join(offers, left_on=P.p_partkey, right_on=PS.ps_partkey)
        .join(cheapest, on=["ps_partkey", "ps_supplycost"], how="semi")
        .select(S.s_acctbal, S.s_name, N.n_name, P.p_partkey, P.p_mfgr, S.s_address, S.s_phone, S.s_comment)
        .sort(S.s_acctbal, N.n_name, S.s_name, P.p_partkey, descending=[True, False, False, False])
        .limit(100)
    )


def q03(t: Tables) -> DataFrame[Any]:
    """Shipping priority."""
    day = datetime.date(1995, 3, 15)
    return (
        t.customer.filter(C.c_mktsegment == "BUILDING")
        .join(t.orders.filter(O.o_orderdate < day), left_on=C.c_custkey, right_on=O.o_custkey)
        .join(t.lineitem.filter(L.l_shipdate > day), left_on=O.o_orderkey, right_on=L.l_orderkey)
        .group_by(L.l_orderkey, O.o_orderdate, O.o_shippriority)
        .agg(revenue=F.sum(DISC_PRICE))
        .select(L.l_orderkey, "revenue", O.o_orderdate, O.o_shippriority)
        .sort("revenue", O.o_orderdate, descending=[True, False])
        .limit(10)
    )


def q04(t: Tables) -> DataFrame[Any]:
    """Order priority checking.

    Rewritten: ``EXISTS`` (a line of the order received after its commit
    date) is a semi join.
    """
    late = t.lineitem.filter(L.l_commitdate < L.l_receiptdate)
    return (
        t.orders.filter((O.o_orderdate >= datetime.date(1993, 7, 1)) & (O.o_orderdate < datetime.date(1993, 10, 1)))
        .join(late, left_on=O.o_orderkey, right_on=L.l_orderkey, how="semi")
        .group_by(O.o_orderpriority)
        .agg(order_count=F.count())
        .sort(O.o_orderpriority)
    )


def q05(t: Tables) -> DataFrame[Any]:
    """Local supplier volume."""
    asia = t.nation.join(t.region.filter(R.r_name == "ASIA"), left_on=N.n_regionkey, right_on=R.r_regionkey)
    year = t.orders.filter((O.o_orderdate >= datetime.date(1994, 1, 1)) & (O.o_orderdate < datetime.date(1995, 1, 1)))
    return (
        t.customer.join(year, left_on=C.c_custkey, right_on=O.o_custkey)
        .join(t.lineitem, left_on=O.o_orderkey, right_on=L.l_orderkey)
        .join(t.supplier, left_on=[L.l_suppkey, C.c_nationkey], right_on=[S.s_suppkey, S.s_nationkey])
        .join(asia, left_on=S.s_nationkey, right_on=N.n_nationkey)
        .group_by(N.n_name)
        .agg(revenue=F.sum(DISC_PRICE))
        .sort("revenue", descending=True)
    )


def q06(t: Tables) -> DataFrame[Any]:
    """Forecasting revenue change."""
    return t.lineitem.filter(
        (L.l_shipdate >= datetime.date(1994, 1, 1))
        & (L.l_shipdate < datetime.date(1995, 1, 1))
        & L.l_discount.between(Decimal("0.05"), Decimal("0.07"))
        & (L.l_quantity < 24)
    ).select(revenue=F.sum(L.l_extendedprice * L.l_discount))


def q07(t: Tables) -> DataFrame[Any]:
    """Volume shipping: the nation table twice, as the supplier's and the customer's nation."""
    supp_nation = t.nation.select(supp_nationkey=N.n_nationkey, supp_nation=N.n_name)
    cust_nation = t.nation.select(cust_nationkey=N.n_nationkey, cust_nation=N.n_name)
    pair = F.col("supp_nation"), F.col("cust_nation")
    return (
        t.supplier.join(
            t.lineitem.filter(L.l_shipdate.between(datetime.date(1995, 1, 1), datetime.date(1996, 12, 31))),
            left_on=S.s_suppkey,
            right_on=L.l_suppkey,
        )
        .join(t.orders, left_on=L.l_orderkey, right_on=O.o_orderkey)
        .join(t.customer, left_on=O.o_custkey, right_on=C.c_custkey)
        .join(supp_nation, left_on=S.s_nationkey, right_on="supp_nationkey")
        .join(cust_nation, left_on=C.c_nationkey, right_on="cust_nationkey")
        .filter(((pair[0] == "FRANCE") & (pair[1] == "GERMANY")) | ((pair[0] == "GERMANY") & (pair[1] == "FRANCE")))
        .select(*pair, l_year=F.year(L.l_shipdate), volume=DISC_PRICE)
        .group_by("supp_nation", "cust_nation", "l_year")
        .agg(revenue=F.sum("volume"))
        .sort("supp_nation", "cust_nation", "l_year")
    )


def q08(t: Tables) -> DataFrame[Any]:
    """National market share: the nation table twice, as the customer's (in the region) and the supplier's."""
    america = t.nation.join(
        t.region.filter(R.r_name == "AMERICA"), left_on=N.n_regionkey, right_on=R.r_regionkey
    ).select(cust_nationkey=N.n_nationkey)
    supp_nation = t.nation.select(supp_nationkey=N.n_nationkey, nation=N.n_name)
    volume = F.col("volume")
    return (
        t.part.filter(P.p_type == "ECONOMY ANODIZED STEEL")
        .join(t.lineitem, left_on=P.p_partkey, right_on=L.l_partkey)
        .join(t.supplier, left_on=L.l_suppkey, right_on=S.s_suppkey)
        .join(
            t.orders.filter(O.o_orderdate.between(datetime.date(1995, 1, 1), datetime.date(1996, 12, 31))),
            left_on=L.l_orderkey,
            right_on=O.o_orderkey,
        )
        .join(t.customer, left_on=O.o_custkey, right_on=C.c_custkey)
        .join(america, left_on=C.c_nationkey, right_on="cust_nationkey")
        .join(supp_nation, left_on=S.s_nationkey, right_on="supp_nationkey")
        .select("nation", o_year=F.year(O.o_orderdate), volume=DISC_PRICE)
        .group_by("o_year")
        .agg(mkt_share=F.sum(F.when(F.col("nation") == "BRAZIL", volume).otherwise(0)) / F.sum(volume))
        .sort("o_year")
    )


def q09(t: Tables) -> DataFrame[Any]:
    """Product type profit measure."""
    return (
        t.part.filter(P.p_name.str.contains("green"))
        .join(t.lineitem, left_on=P.p_partkey, right_on=L.l_partkey)
        .join(t.supplier, left_on=L.l_suppkey, right_on=S.s_suppkey)
        .join(t.partsupp, left_on=[L.l_suppkey, L.l_partkey], right_on=[PS.ps_suppkey, PS.ps_partkey])
        .join(t.orders, left_on=L.l_orderkey, right_on=O.o_orderkey)
        .join(t.nation, left_on=S.s_nationkey, right_on=N.n_nationkey)
        .select(
            nation=N.n_name,
            o_year=F.year(O.o_orderdate),
            amount=DISC_PRICE - PS.ps_supplycost * L.l_quantity,
        )
        .group_by("nation", "o_year")
        .agg(sum_profit=F.sum("amount"))
        .sort("nation", "o_year", descending=[False, True])
    )


def q10(t: Tables) -> DataFrame[Any]:
    """Returned item reporting."""
    quarter = t.orders.filter(
        (O.o_orderdate >= datetime.date(1993, 10, 1)) & (O.o_orderdate < datetime.date(1994, 1, 1))
    )
    return (
        t.customer.join(quarter, left_on=C.c_custkey, right_on=O.o_custkey)
        .join(t.lineitem.filter(L.l_returnflag == "R"), left_on=O.o_orderkey, right_on=L.l_orderkey)
        .join(t.nation, left_on=C.c_nationkey, right_on=N.n_nationkey)
        .group_by(C.c_custkey, C.c_name, C.c_acctbal, C.c_phone, N.n_name, C.c_address, C.c_comment)
        .agg(revenue=F.sum(DISC_PRICE))
        .select(C.c_custkey, C.c_name, "revenue", C.c_acctbal, N.n_name, C.c_address, C.c_phone, C.c_comment)
        .sort("revenue", descending=True)
        .limit(20)
    )


def q11(t: Tables) -> DataFrame[Any]:
    """Important stock identification.

    Rewritten: the scalar subquery of ``HAVING`` (a fraction of the total
    stock value) is a one-row aggregate, and the parts above it are a semi join
    on the condition ``value > threshold``.
    """
    german = t.partsupp.join(t.supplier, left_on=PS.ps_suppkey, right_on=S.s_suppkey).join(
        t.nation.filter(N.n_name == "GERMANY"), left_on=S.s_nationkey, right_on=N.n_nationkey
    )
    stock_value = PS.ps_supplycost * PS.ps_availqty
    threshold = german.select(threshold=F.sum(stock_value) * Decimal(repr(0.0001 / t.sf)))
    return (
        german.group_by(PS.ps_partkey)
        .agg(value=F.sum(stock_value))
        .join(threshold, on=F.col("value") > F.col("threshold"), how="semi")
        .sort("value", descending=True)
    )


def q12(t: Tables) -> DataFrame[Any]:
    """Shipping modes and order priority: ``count_if`` counts what the SQL's ``sum(case ... 1 else 0)`` does."""
    received = t.lineitem.filter(
        L.l_shipmode.is_in(["MAIL", "SHIP"])
        & (L.l_commitdate < L.l_receiptdate)
        & (L.l_shipdate < L.l_commitdate)
        & (L.l_receiptdate >= datetime.date(1994, 1, 1))
        & (L.l_receiptdate < datetime.date(1995, 1, 1))
    )
    high = O.o_orderpriority.is_in(["1-URGENT", "2-HIGH"])
    return (
        t.orders.join(received, left_on=O.o_orderkey, right_on=L.l_orderkey)
        .group_by(L.l_shipmode)
        .agg(high_line_count=F.count_if(high), low_line_count=F.count_if(~high))
        .sort(L.l_shipmode)
    )


def q13(t: Tables) -> DataFrame[Any]:
    """Customer distribution: a left join on the key and a condition, as the SQL's ``ON``."""
    return (
        t.customer.join(
            t.orders,
            on=~O.o_comment.str.like("%special%requests%"),
            left_on=C.c_custkey,
            right_on=O.o_custkey,
            how="left",
        )
        .group_by(C.c_custkey)
        .agg(c_count=F.count("o_orderkey"))  # nullable after the left join: by name
        .group_by("c_count")
        .agg(custdist=F.count())
        .sort("custdist", "c_count", descending=True)
    )


def q14(t: Tables) -> DataFrame[Any]:
    """Promotion effect."""
    promo = F.when(P.p_type.str.starts_with("PROMO"), DISC_PRICE).otherwise(0)
    return (
        t.lineitem.filter((L.l_shipdate >= datetime.date(1995, 9, 1)) & (L.l_shipdate < datetime.date(1995, 10, 1)))
        .join(t.part, left_on=L.l_partkey, right_on=P.p_partkey)
        .select(promo_revenue=Decimal("100.00") * F.sum(promo) / F.sum(DISC_PRICE))
    )


def q15(t: Tables) -> DataFrame[Any]:
    """Top supplier.

    Rewritten: the view is a frame, and the scalar subquery (its maximum
    revenue) a one-row aggregate that the suppliers' revenues are semi-joined
    with.
    """
    revenue = (
        t.lineitem.filter((L.l_shipdate >= datetime.date(1996, 1, 1)) & (L.l_shipdate < datetime.date(1996, 4, 1)))
        .group_by(L.l_suppkey.alias("supplier_no"))
        .agg(total_revenue=F.sum(DISC_PRICE))
    )
    top = revenue.select(total_revenue=F.max("total_revenue"))
    return (
        t.supplier.join(revenue.join(top, on="total_revenue", how="semi"), left_on=S.s_suppkey, right_on="supplier_no")
        .select(S.s_suppkey, S.s_name, S.s_address, S.s_phone, "total_revenue")
        .sort(S.s_suppkey)
    )


def q16(t: Tables) -> DataFrame[Any]:
    """Parts/supplier relationship.

    Rewritten: ``NOT IN`` (suppliers with complaints) is an anti join (the
    same rows: no key is NULL).
    """
    parts = t.part.filter(
        (P.p_brand != "Brand#45")
        & ~P.p_type.str.starts_with("MEDIUM POLISHED")
        & P.p_size.is_in([49, 14, 23, 45, 19, 3, 36, 9])
    )
    complaints = t.supplier.filter(S.s_comment.str.like("%Customer%Complaints%"))
    return (
        t.partsupp.join(parts, left_on=PS.ps_partkey, right_on=P.p_partkey)
        .join(complaints, left_on=PS.ps_suppkey, right_on=S.s_suppkey, how="anti")
        .group_by(P.p_brand, P.p_type, P.p_size)
        .agg(supplier_cnt=F.count_distinct(PS.ps_suppkey))
        .sort("supplier_cnt", P.p_brand, P.p_type, P.p_size, descending=[True, False, False, False])
    )


def q17(t: Tables) -> DataFrame[Any]:
    """Small-quantity-order revenue.

    Rewritten: the correlated subquery (a fifth of the part's average
    quantity) is an aggregate per part, joined on the part and the condition.
    """
    small = t.lineitem.group_by(L.l_partkey).agg(small_qty=Decimal("0.2") * F.avg(L.l_quantity))
    parts = t.part.filter((P.p_brand == "Brand#23") & (P.p_container == "MED BOX"))
    return (
        t.lineitem.join(parts, left_on=L.l_partkey, right_on=P.p_partkey)
        .join(small, on=["l_partkey", F.col("l_quantity") < F.col("small_qty")])
        .select(avg_yearly=F.sum(L.l_extendedprice) / Decimal("7.0"))
    )


def q18(t: Tables) -> DataFrame[Any]:
    """Large volume customer.

    Rewritten: ``IN`` (orders of more than 300 units) is a semi join with an
    aggregate per order.
    """
    large = t.lineitem.group_by(L.l_orderkey).agg(quantity=F.sum(L.l_quantity)).filter(F.col("quantity") > 300)
    return (
        t.customer.join(
            t.orders.join(large, left_on=O.o_orderkey, right_on=L.l_orderkey, how="semi"),
            left_on=C.c_custkey,
            right_on=O.o_custkey,
        )
        .join(t.lineitem, left_on=O.o_orderkey, right_on=L.l_orderkey)
        .group_by(C.c_name, C.c_custkey, O.o_orderkey, O.o_orderdate, O.o_totalprice)
        .agg(sum_qty=F.sum(L.l_quantity))
        .sort(O.o_totalprice, O.o_orderdate, descending=[True, False])
        .limit(100)
    )


def q19(t: Tables) -> DataFrame[Any]:
    """Discounted revenue: the conditions every branch shares filter the lines, the others are the join's."""

    def branch(brand: str, containers: list[str], quantity: int, sizes: int) -> Expr[bool | None]:
        return (
            (P.p_brand == brand)
            & P.p_container.is_in(containers)
            & L.l_quantity.between(quantity, quantity + 10)
            & P.p_size.between(1, sizes)
        )

    return (
        t.lineitem.filter(L.l_shipmode.is_in(["AIR", "AIR REG"]) & (L.l_shipinstruct == "DELIVER IN PERSON"))
        .join(
            t.part,
            on=branch("Brand#12", ["SM CASE", "SM BOX", "SM PACK", "SM PKG"], 1, 5)
            | branch("Brand#23", ["MED BAG", "MED BOX", "MED PKG", "MED PACK"], 10, 10)
            | branch("Brand#34", ["LG CASE", "LG BOX", "LG PACK", "LG PKG"], 20, 15),
            left_on=L.l_partkey,
            right_on=P.p_partkey,
        )
        .select(revenue=F.sum(DISC_PRICE))
    )


def q20(t: Tables) -> DataFrame[Any]:
    """Potential part promotion.

    Rewritten: the nested ``IN`` subqueries are semi joins, and the correlated
    one (half the quantity shipped of the part by the supplier) an aggregate per
    part and supplier of the forest parts' lines only, semi-joined on the keys
    and the condition.
    """
    forest = t.part.filter(P.p_name.str.starts_with("forest"))
    shipped = (
        t.lineitem.filter((L.l_shipdate >= datetime.date(1994, 1, 1)) & (L.l_shipdate < datetime.date(1995, 1, 1)))
        .join(forest, left_on=L.l_partkey, right_on=P.p_partkey, how="semi")
        .group_by(L.l_partkey, L.l_suppkey)
        .agg(half_qty=Decimal("0.5") * F.sum(L.l_quantity))
    )
    excess = t.partsupp.join(forest, left_on=PS.ps_partkey, right_on=P.p_partkey, how="semi").join(
        shipped,
        on=PS.ps_availqty > F.col("half_qty"),
        left_on=[PS.ps_partkey, PS.ps_suppkey],
        right_on=[L.l_partkey, L.l_suppkey],
        how="semi",
    )
    return (
        t.supplier.join(excess, left_on=S.s_suppkey, right_on=PS.ps_suppkey, how="semi")
        .join(t.nation.filter(N.n_name == "CANADA"), left_on=S.s_nationkey, right_on=N.n_nationkey)
        .select(S.s_name, S.s_address)
        .sort(S.s_name)
    )


def q21(t: Tables) -> DataFrame[Any]:
    """Suppliers who kept orders waiting.

    Rewritten: ``EXISTS`` (another supplier's line in the order) is a semi
    self-join on the order and ``l_suppkey`` differing, ``NOT EXISTS`` (another
    supplier's late line) an anti self-join.
    """
    late = L.l_receiptdate > L.l_commitdate
    other_supplier = right.col("l_suppkey") != left.col("l_suppkey")
    return (
        t.lineitem.filter(late)
        .join(
            t.supplier.join(t.nation.filter(N.n_name == "SAUDI ARABIA"), left_on=S.s_nationkey, right_on=N.n_nationkey),
            left_on=L.l_suppkey,
            right_on=S.s_suppkey,
        )
        .join(t.orders.filter(O.o_orderstatus == "F"), left_on=L.l_orderkey, right_on=O.o_orderkey)
        .join(t.lineitem, on=["l_orderkey", other_supplier], how="semi")
        .join(t.lineitem.filter(late), on=["l_orderkey", other_supplier], how="anti")
        .group_by(S.s_name)
        .agg(numwait=F.count())
        .sort("numwait", S.s_name, descending=[True, False])
        .limit(100)
    )


def q22(t: Tables) -> DataFrame[Any]:
    """Global sales opportunity.

    Rewritten: the scalar subquery (the average positive balance) is a
    one-row aggregate semi-joined on ``c_acctbal > avg_acctbal``, and ``NOT
    EXISTS`` (an order of the customer) an anti join.
    """
    cntrycode = F.substring(C.c_phone, 1, 2)
    in_codes = t.customer.filter(cntrycode.is_in(["13", "31", "23", "29", "30", "18", "17"]))
    average = in_codes.filter(C.c_acctbal > Decimal("0.00")).select(avg_acctbal=F.avg(C.c_acctbal))
    return (
        in_codes.join(average, on=C.c_acctbal > F.col("avg_acctbal"), how="semi")
        .join(t.orders, left_on=C.c_custkey, right_on=O.o_custkey, how="anti")
        .group_by(cntrycode.alias("cntrycode"))
        .agg(numcust=F.count(), totacctbal=F.sum(C.c_acctbal))
        .sort("cntrycode")
    )


QUERIES: dict[int, Callable[[Tables], DataFrame[Any]]] = {
    1: q01,
    2: q02,
    3: q03,
    4: q04,
    5: q05,
    6: q06,
    7: q07,
    8: q08,
    9: q09,
    10: q10,
    11: q11,
    12: q12,
    13: q13,
    14: q14,
    15: q15,
    16: q16,
    17: q17,
    18: q18,
    19: q19,
    20: q20,
    21: q21,
    22: q22,
}
"""The typed queries by number."""

REWRITTEN: frozenset[int] = frozenset({2, 4, 11, 15, 16, 17, 18, 20, 21, 22})
"""The queries whose SQL construct the typed API spells another way (semi/anti joins, joined aggregates)."""
