"""One ``DataFrameModel`` per TPC-H table, as ``tpchgen-cli parquet`` writes them.

Keys are ``bigint`` (``int``), line numbers, sizes, quantities available and the
ship priority ``int`` (``Int32``), money and quantities ``decimal(15,2)``, dates
``date``. TPC-H has no NULLs: every field is non-null (the reader checks it at
run time, above the filters, so the filters still reach the Parquet scan).
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Annotated

from pydantic import Field

from pydantable_spark import DataFrameModel, dtypes

Int32 = Annotated[int, dtypes.Int32]
Money = Annotated[Decimal, Field(max_digits=15, decimal_places=2)]


class Region(DataFrameModel):
    r_regionkey: int
    r_name: str
    r_comment: str


class Nation(DataFrameModel):
    n_nationkey: int
    n_name: str
    n_regionkey: int
    n_comment: str


class Supplier(DataFrameModel):
    s_suppkey: int
    s_name: str
    s_address: str
    s_nationkey: int
    s_phone: str
    s_acctbal: Money
    s_comment: str


class Customer(DataFrameModel):
    c_custkey: int
    c_name: str
    c_address: str
    c_nationkey: int
    c_phone: str
    c_acctbal: Money
    c_mktsegment: str
    c_comment: str


class Part(DataFrameModel):
    p_partkey: int
    p_name: str
    p_mfgr: str
    p_brand: str
    p_type: str
    p_size: Int32
    p_container: str
    p_retailprice: Money
    p_comment: str


class PartSupp(DataFrameModel):
    ps_partkey: int
    ps_suppkey: int
    ps_availqty: Int32
    ps_supplycost: Money
    ps_comment: str


class Orders(DataFrameModel):
    o_orderkey: int
    o_custkey: int
    o_orderstatus: str
    o_totalprice: Money
    o_orderdate: datetime.date
    o_orderpriority: str
    o_clerk: str
    o_shippriority: Int32
    o_comment: str


class LineItem(DataFrameModel):
    l_orderkey: int
    l_partkey: int
    l_suppkey: int
    l_linenumber: Int32
    l_quantity: Money
    l_extendedprice: Money
    l_discount: Money
    l_tax: Money
    l_returnflag: str
    l_linestatus: str
    l_shipdate: datetime.date
    l_commitdate: datetime.date
    l_receiptdate: datetime.date
    l_shipinstruct: str
    l_shipmode: str
    l_comment: str


TABLES: dict[str, type[DataFrameModel]] = {
    "region": Region,
    "nation": Nation,
    "supplier": Supplier,
    "customer": Customer,
    "part": Part,
    "partsupp": PartSupp,
    "orders": Orders,
    "lineitem": LineItem,
}
"""The tables by the name of their Parquet file (``<name>.parquet``) and Spark SQL view."""
