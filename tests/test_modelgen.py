"""Models generated from existing data read that data back (issue 21 step 5)."""

from __future__ import annotations

import ast
import datetime
import decimal
import io
import json
import keyword
import os
import pickle
import subprocess
import sys
import tokenize
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import (
    ArgumentTypeError,
    ArgumentValueError,
    DuplicateColumnError,
    PydantableSparkError,
    SparkJobError,
    UnsupportedTypeError,
    shown,
)
from pydantable_spark.model import is_source_identifier
from pydantable_spark.modelgen import model_source, source_of_path, source_of_spark, source_of_table
from pydantable_spark.stubgen import main

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

DDL = (
    "id bigint not null, `order id` string, class int, count float, `1st` smallint, model_kind tinyint, "
    "total decimal(12,2), placed date, seen timestamp, local timestamp_ntz, raw binary, wait interval day to second, "
    "ship struct<city: string not null, zip: string>, "
    "items array<struct<sku: string, qty: int not null>>, tags map<string, array<bigint>>"
)
ROW: tuple[Any, ...] = (
    1,
    "o-1",
    7,
    1.5,
    3,
    2,
    decimal.Decimal("12.34"),
    datetime.date(2026, 1, 2),
    datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc),
    datetime.datetime(2026, 1, 2, 3, 4, 5),
    b"\x00\x01",
    datetime.timedelta(seconds=90),
    ("Paris", None),
    [("a", 2)],
    {"k": [1, None]},
)


def _load(source: str, name: str) -> Any:
    namespace: dict[str, Any] = {"__name__": f"generated_{name}"}
    exec(compile(source, f"<generated {name}>", "exec", dont_inherit=True), namespace)
    return namespace[name]


def test_a_generated_model_reads_the_files_it_came_from(tmp_path: Path, spark: SparkSession) -> None:
    sdf = spark.createDataFrame([ROW], DDL)
    sdf.write.parquet(str(tmp_path / "orders"))
    source = source_of_path(str(tmp_path / "orders"), "Order")
    assert "order_id: str | None = Field(alias='order id')" in source
    assert "c_class: Annotated[int, dtypes.Int32] | None = Field(alias='class')" in source
    assert "count: Annotated[float, dtypes.Float32] | None\n" in source
    assert "c_1st: Annotated[int, dtypes.Int16] | None = Field(alias='1st')" in source
    assert "total: Annotated[Decimal, Field(max_digits=12, decimal_places=2)] | None" in source
    assert "local: NaiveDatetime | None" in source
    assert "items: list[Items | None] | None" in source
    Order = _load(source, "Order")
    frame = Order.read_parquet(str(tmp_path / "orders"))
    (row,) = frame.collect()
    assert row.order_id == "o-1"
    assert row.ship.city == "Paris"
    assert row.items[0].qty == 2
    assert row.tags == {"k": [1, None]}
    assert row.total == decimal.Decimal("12.34")
    assert [tuple(r) for r in frame.to_spark().collect()] == [tuple(r) for r in sdf.collect()]


def test_non_null_columns_and_comments_of_a_table_reach_the_model(spark: SparkSession) -> None:
    spark.sql(
        "CREATE TABLE modelgen_orders (id BIGINT NOT NULL COMMENT 'the order key', "
        "note STRING COMMENT 'free text, it''s \"quoted\"', ship STRUCT<city: STRING COMMENT 'where to'>) USING parquet"
    )
    try:
        spark.sql("INSERT INTO modelgen_orders VALUES (1, 'x', named_struct('city', 'Oslo'))")
        source = source_of_table("modelgen_orders", "Orders")
        assert "id: int | None = Field(description='the order key')" in source or "id: int = Field(" in source
        assert "description='free text, it\\'s \"quoted\"'" in source
        assert "city: str | None = Field(description='where to')" in source
        Orders = _load(source, "Orders")
        assert Orders.read_table("modelgen_orders").collect()[0].ship.city == "Oslo"
    finally:
        spark.sql("DROP TABLE IF EXISTS modelgen_orders")


def test_field_descriptions_become_column_comments_on_write(tmp_path: Path, spark: SparkSession) -> None:
    from pydantic import Field

    from pydantable_spark import DataFrameModel

    class Commented(DataFrameModel):
        id: int = Field(description="the order key", ge=0)
        note: str | None = Field(default=None, alias="the note", description='free text, it\'s "quoted"')
        total: float

    frame = Commented.from_rows([{"id": 1, "the note": "x", "total": 2.5}])
    frame.save_as_table("modelgen_commented")
    try:
        comments = {r.col_name: r.comment for r in spark.sql("DESCRIBE TABLE modelgen_commented").collect()}
        assert comments["id"] == "the order key"
        assert comments["the note"] == 'free text, it\'s "quoted"'
        assert comments["total"] is None
        source = source_of_table("modelgen_commented", "Again")
        assert "Field(description='the order key')" in source
    finally:
        spark.sql("DROP TABLE IF EXISTS modelgen_commented")
    frame.write_parquet(tmp_path / "commented", constraints="report")
    stored = {f.name: f.metadata for f in spark.read.parquet(str(tmp_path / "commented")).schema.fields}
    assert stored["id"] == {"comment": "the order key"}
    assert stored["total"] == {}
    assert "Field(alias='the note', description=" in source_of_path(str(tmp_path / "commented"), "Again")


def test_a_non_null_column_of_a_dataframe_is_non_null_in_the_model(spark: SparkSession) -> None:
    sdf = spark.createDataFrame([(1, "a")], "id bigint not null, name string")
    source = source_of_spark(sdf, "Person")
    assert "    id: int\n" in source
    assert "    name: str | None\n" in source
    Person = _load(source, "Person")
    assert Person.from_spark(sdf).collect() == [Person(id=1, name="a")]


def test_names_that_collide_are_told_apart() -> None:
    fields = (
        dt.Field("a b", dt.Int64(), True),
        dt.Field("a_b", dt.Int64(), True),
        dt.Field("ship", dt.Struct((dt.Field("x", dt.Int64(), True),)), True),
        dt.Field("ship_", dt.Struct((dt.Field("y", dt.Int64(), True),)), True),
        dt.Field("schema", dt.String(), True),
    )
    source = model_source(fields, "Ship")
    assert "a_b: int | None = Field(alias='a b')" in source
    assert "a_b_2: int | None" in source or "a_b_2: int | None = Field(alias='a_b')" in source
    assert "class Ship2(DataFrameModel)" in source
    assert "class Ship3(DataFrameModel)" in source
    assert "c_schema: str | None = Field(alias='schema')" in source
    model = _load(source, "Ship")
    assert [f.name for f in model.frame_schema()] == ["a b", "a_b", "ship", "ship_", "schema"]


def test_what_a_model_cannot_hold_is_refused() -> None:
    with pytest.raises(UnsupportedTypeError, match=r"column 'm': a map with bigint keys has no model type"):
        model_source((dt.Field("m", dt.Map(dt.Int64(), dt.String(), True), True),), "Row")
    with pytest.raises(ArgumentValueError, match="must be a Python class name"):
        model_source((dt.Field("a", dt.Int64(), True),), "not a name")
    with pytest.raises(ArgumentTypeError, match="must be a Python class name"):
        model_source((dt.Field("a", dt.Int64(), True),), 5)  # type: ignore[arg-type]


def test_only_formats_that_carry_a_schema_are_described(tmp_path: Path) -> None:
    with pytest.raises(ArgumentValueError, match=r"format='csv'.*CSV and JSON have no types"):
        source_of_path(str(tmp_path), "Row", format="csv")


MODELS_COMMAND = r"""
import sys
from pydantable_spark.stubgen import main

for argv in map(str.split, sys.argv[1:]):
    sys.stderr.write(f"@@ {argv}\n")
    sys.stderr.flush()
    code = main(["models", *argv])
    sys.stdout.flush()
    sys.stderr.write(f"@@ exit {code}\n")
    sys.stderr.flush()
"""
"""Runs `pydantable-spark models` once per argument (a command line) in one process: one embedded session."""


@pytest.mark.slow
def test_the_models_command_writes_a_module_or_says_in_one_paragraph_why_not(
    tmp_path: Path, spark: SparkSession
) -> None:
    """The command on the embedded session: a module that reads the files; the issue's `orders.jsonl` and an
    ORC file read as Parquet: one paragraph with Spark's reason and the --format hint, exit code 2, no Java stack
    and no progress bar on stderr."""
    spark.createDataFrame([(1, "a")], "id bigint, `user name` string").write.parquet(str(tmp_path / "users"))
    spark.range(1).write.orc(str(tmp_path / "orc"))
    next((tmp_path / "orc").glob("*.orc")).rename(tmp_path / "events.orc")
    (tmp_path / "orders.jsonl").write_text('{"id": 1, "name": "a"}\n')
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"id": [1], "ID": [2]}), tmp_path / "cases.parquet")  # Spark would refuse to write it
    out = tmp_path / "users_model.py"
    commands = [
        # --conf reaches the session the command starts: Spark reads both columns, which a model cannot hold apart
        f"--from-path {tmp_path / 'cases.parquet'} --conf spark.sql.caseSensitive=true",
        f"--from-path {tmp_path / 'users'} --name User -o {out}",
        f"--from-path {tmp_path / 'nowhere'}",
        f"--from-path {tmp_path / 'orders.jsonl'}",
        f"--from-path {tmp_path / 'events.orc'}",
        "--from-table nocat.db.orders",
        f"--from-path {tmp_path / 'users'} --format avro",
    ]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SPARK_CONNECT", "SPARK_REMOTE", "SPARK_LOCAL"))}
    env.pop("PYDANTABLE_SPARK_PROGRESS", None)
    done = subprocess.run(
        [sys.executable, "-c", MODELS_COMMAND, *commands], capture_output=True, text=True, timeout=300, env=env
    )
    assert done.returncode == 0, done.stderr[-3000:]
    said = done.stderr.split("@@ ")[1:]
    exits = [part.split("\n", 1)[0] for part in said[1::2]]
    assert exits == ["exit 2", "exit 0", "exit 2", "exit 2", "exit 2", "exit 2", "exit 2"], done.stderr
    assert "\tat " not in done.stderr, done.stderr  # no Java stack
    assert "[Stage " not in done.stderr, done.stderr  # no progress bar
    User = _load(out.read_text(), "User")
    assert [r.user_name for r in User.read_parquet(str(tmp_path / "users")).collect()] == ["a"]
    messages = [(part.split("\n", 1)[1].strip().splitlines() or [""])[-1] for part in said[0::2]]  # the last: ours
    assert "has columns 'id' and 'ID', whose names differ only in case" in messages[0], messages[0]
    assert messages[5] == (
        "pydantable-spark models: cannot describe table 'nocat.db.orders': Spark cannot read it: "
        + messages[5].split("Spark cannot read it: ", 1)[1]
    )
    assert "[REQUIRES_SINGLE_PART_NAMESPACE]" in messages[5] or "[CATALOG_NOT_FOUND]" in messages[5], messages[5]
    assert messages[5].endswith(
        "this session has no catalog 'nocat': configure it with --conf spark.sql.catalog.nocat=<its catalog class> "
        "and the catalog's own settings (its type, warehouse or URI), and add its jars with --packages; "
        "docs/lakehouse.md shows them"
    )
    assert "[AVRO_DATA_SOURCE_NOT_ENABLED]" in messages[6], messages[6]
    assert "add the format's jars, built for this Spark version, with --packages (Maven coordinates" in messages[6]
    messages = messages[2:5]
    for message, path in zip(messages, ("nowhere", "orders.jsonl", "events.orc"), strict=True):
        assert message.startswith(f"pydantable-spark models: cannot describe {str(tmp_path / path)!r}: Spark cannot "
                                  "read it: ["), message  # fmt: skip
    assert "[PATH_NOT_FOUND] Path does not exist: " in messages[0]
    assert messages[1].endswith(
        f"{tmp_path / 'orders.jsonl'} is JSON Lines by its extension (.jsonl), which carries no column types: only "
        "files that carry their schema can be described (formats parquet, orc, delta, avro); write the model by hand, "
        "or write the data as Parquet first"
    )
    assert "is not a Parquet file. Expected magic number at tail" in messages[1]
    assert messages[2].endswith(f"{tmp_path / 'events.orc'} is ORC by its extension (.orc): pass --format orc")


# --- generated source cannot run data (issue 32) -----------------------------------------------------------------

CANARY_VARIABLES = ("PYDANTABLE_CANARY", "M")
"""Environment variables naming the canary file: an injected statement in a generated module creates it."""

INJECTIONS = [
    "d/\"x\nimport os;open(os.environ.get('M'),'w')\n#\"",
    "x\nimport os; open(os.environ['PYDANTABLE_CANARY'], 'w')\n",
    "'\nimport os; open(os.environ['PYDANTABLE_CANARY'], 'w')\n'",
    '"""\nimport os; open(os.environ["PYDANTABLE_CANARY"], "w")\n"""',
    "'''\nimport os; open(os.environ['PYDANTABLE_CANARY'], 'w')\n'''",
    "\\\nimport os; open(os.environ['PYDANTABLE_CANARY'], 'w') #",
    "x\r__import__('os').open(__import__('os').environ['M'], 0o101)",
    "a\u2028import os; open(os.environ['M'], 'w')",
    "a\x0cimport os; open(os.environ['M'], 'w')",
    "')\nimport os; open(os.environ['M'], 'w')\nx = ('",
    "__import__('os').system('touch $M')",
]
"""Names, comments and origins that would be statements if written into the source as text."""

HOSTILE = [
    *INJECTIONS,
    *("a²", "x½", "m³", "²b", "ﬁle", "file", "ℌx", "ｆｕｌｌ", "e\u0301", "é", "1st", "_private", "__dunder__", ""),
    *("class", "None", "match", "type", "_", "int", "str", "list", "dict", "bool", "float", "bytes", "date"),
    *("datetime", "timedelta", "Decimal", "Annotated", "Field", "NaiveDatetime", "dtypes", "Variant", "DataFrameModel"),
    *("schema", "model_config", "model_fields", "from_rows", "frame_schema", "Ship", "Model", "Order"),
    *("\x00", "nul\x00x", "tab\there", "cr\rx", "\x1b[2K", "\u202eevil", "\u200b", "a.b", "a[]", "{value}"),
]
"""The issue's cases and their relatives: everything a column name, a comment or an origin may hold.

(A lone surrogate is no text: a column name holding one is refused, as tested below; comments and origins
may hold one.)"""

MODULE_NAMES = {
    "Annotated", "DataFrameModel", "Decimal", "Field", "NaiveDatetime", "Variant", "bool", "bytes", "date", "datetime",
    "dict", "dtypes", "float", "int", "list", "str", "timedelta",
}  # fmt: skip
"""The names a generated module imports or its annotations read (the contract of the test, written out)."""

IMPORTS = {
    "datetime": {"date", "datetime", "timedelta"}, "decimal": {"Decimal"}, "typing": {"Annotated"},
    "pydantic": {"Field", "NaiveDatetime"}, "pydantable_spark": {"DataFrameModel", "Variant", "dtypes"},
}  # fmt: skip

CHILD = r"""
import dataclasses, importlib, json, pickle, sys, traceback
from pydantable_spark import dtypes as dt

def plain(dtype):
    if isinstance(dtype, dt.Struct):
        return dt.Struct(tuple(dt.Field(f.name, plain(f.dtype), f.nullable) for f in dtype.fields))
    if isinstance(dtype, dt.List):
        return dataclasses.replace(dtype, inner=plain(dtype.inner))
    if isinstance(dtype, dt.Map):
        return dataclasses.replace(dtype, value=plain(dtype.value))
    return dtype

def descriptions(model, fields, path, out):
    for f, info in zip(fields, model.model_fields.values(), strict=True):
        out[(*path, f.name)] = info.description
        inner = f.dtype
        while isinstance(inner, dt.List | dt.Map):
            inner = inner.inner if isinstance(inner, dt.List) else inner.value
        if isinstance(inner, dt.Struct):
            descriptions(inner.model, inner.fields, (*path, f.name), out)
    return out

directory, output = sys.argv[1], sys.argv[2]
sys.path.insert(0, directory)
results = {}
for item in json.loads(open(f"{directory}/modules.json").read()):
    module_name, class_name = item
    try:
        module = importlib.import_module(module_name)
        model = getattr(module, class_name)
        fields = model.frame_schema().fields
        names = sorted(n for n in vars(module) if not n.startswith("__"))
        plain_fields = tuple(dt.Field(f.name, plain(f.dtype), f.nullable) for f in fields)
        results[module_name] = ("ok", plain_fields, descriptions(model, fields, (), {}), module.__doc__, names)
    except BaseException:
        results[module_name] = ("error", traceback.format_exc())
with open(output, "wb") as out:
    pickle.dump(results, out)
"""
"""What the child interpreter runs: import each generated module, and read its model's schema and descriptions."""


@dataclass(frozen=True)
class Case:
    """One generated module's inputs."""

    fields: tuple[dt.Field, ...]
    name: str
    comments: dict[Any, str]
    origin: str | None

    def source(self) -> str:
        return model_source(self.fields, self.name, comments=self.comments, origin=self.origin)

    def expected_comments(self) -> dict[tuple[str, ...], str | None]:
        """Every column's path with the description its field must carry."""
        out: dict[tuple[str, ...], str | None] = {}

        def walk(fields: tuple[dt.Field, ...], path: tuple[str, ...]) -> None:
            for f in fields:
                where = (*path, f.name)
                given = self.comments.get(where)
                if given is None and not path:
                    given = self.comments.get(f.name)  # a top-level column keyed by its name
                out[where] = given or None
                inner = f.dtype
                while isinstance(inner, dt.List | dt.Map):
                    inner = inner.inner if isinstance(inner, dt.List) else inner.value
                if isinstance(inner, dt.Struct):
                    walk(inner.fields, where)

        walk(self.fields, ())
        return out


def _plain_strings(case: Case) -> set[str]:
    """The strings of the data that may appear in the source: as literals only."""
    names: set[str] = set()

    def walk(fields: tuple[dt.Field, ...]) -> None:
        for f in fields:
            names.add(f.name)
            inner = f.dtype
            while isinstance(inner, dt.List | dt.Map):
                inner = inner.inner if isinstance(inner, dt.List) else inner.value
            if isinstance(inner, dt.Struct):
                walk(inner.fields)

    walk(case.fields)
    return names | set(case.comments.values())


def assert_data_only_in_literals(case: Case, source: str) -> None:
    """The module is a docstring, imports of the fixed vocabulary and classes of annotated fields, nothing else.

    Every string literal is a column name (an alias), a comment (a description) or the docstring; every
    identifier is the vocabulary's, a nested model's name, or a field's attribute that source spells as it is.
    """
    tree = ast.parse(source)
    compile(source, "<generated>", "exec", dont_inherit=True)
    docstring, *rest = tree.body
    assert isinstance(docstring, ast.Expr)
    assert isinstance(docstring.value, ast.Constant)
    about = f"Models of the data in {case.origin}" if case.origin is not None else "DataFrameModel source"
    assert docstring.value.value == f"{about}, generated by pydantable-spark."
    assert not any(t.type == tokenize.COMMENT for t in _tokens(source))  # comments carry no data
    data = _plain_strings(case)
    classes = [s.name for s in rest if isinstance(s, ast.ClassDef)]
    assert classes[-1] == case.name
    vocabulary = MODULE_NAMES | set(classes[:-1])
    for statement in rest:
        if isinstance(statement, ast.ImportFrom):
            assert statement.module in IMPORTS
            assert {a.name for a in statement.names} <= IMPORTS[statement.module]
            assert all(a.asname is None for a in statement.names)
            continue
        assert isinstance(statement, ast.ClassDef), ast.dump(statement)
        assert [ast.unparse(b) for b in statement.bases] == ["DataFrameModel"]
        assert not statement.keywords
        assert not statement.decorator_list
        assert statement.name.isascii() or statement.name == case.name
        assert is_source_identifier(statement.name)
        assert statement.name not in MODULE_NAMES
        for field_statement in statement.body:
            assert isinstance(field_statement, ast.AnnAssign), ast.dump(field_statement)
            assert isinstance(field_statement.target, ast.Name)
            attribute = field_statement.target.id
            assert is_source_identifier(attribute)
            assert attribute not in classes[:-1]  # the model's own name is read by no annotation
            for node in ast.walk(field_statement.annotation):
                if isinstance(node, ast.Name):
                    assert node.id in vocabulary, node.id
                elif isinstance(node, ast.Attribute):
                    assert isinstance(node.value, ast.Name)
                    assert node.value.id == "dtypes"
                elif isinstance(node, ast.Constant):
                    assert node.value is None or type(node.value) is int
                else:
                    allowed = (ast.Subscript, ast.Tuple, ast.BinOp, ast.BitOr, ast.Call, ast.keyword, ast.Load)
                    assert isinstance(node, allowed), ast.dump(node)
            value = field_statement.value
            if value is None:
                continue
            assert attribute not in vocabulary  # a bound name never shadows what an annotation reads
            assert isinstance(value, ast.Call)
            assert ast.unparse(value.func) == "Field"
            assert not value.args
            for argument in value.keywords:
                assert argument.arg in ("alias", "description")
                assert isinstance(argument.value, ast.Constant)
                assert argument.value.value in data
    literals = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    assert set(literals) <= data | {docstring.value.value}


def _tokens(source: str) -> list[tokenize.TokenInfo]:
    return list(tokenize.generate_tokens(io.StringIO(source).readline))


def import_in_child(directory: Path, sources: list[tuple[str, str]]) -> list[Any]:
    """Import every generated module (class name, source) in ONE child interpreter; what each reads back.

    The child's environment names a canary file that an injected statement would create; it must not exist.
    """
    directory.mkdir(parents=True, exist_ok=True)
    modules = []
    for i, (class_name, source) in enumerate(sources):
        (directory / f"generated_{i}.py").write_text(source, encoding="utf-8")
        modules.append((f"generated_{i}", class_name))
    (directory / "modules.json").write_text(json.dumps(modules))
    canary = directory / "canary"
    environment = {**os.environ, **dict.fromkeys(CANARY_VARIABLES, str(canary))}
    environment["PYTHONPATH"] = os.pathsep.join([str(ROOT), environment.get("PYTHONPATH", "")])
    output = directory / "results.pickle"
    command = [sys.executable, "-c", CHILD, str(directory), str(output)]
    done = subprocess.run(command, env=environment, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert not canary.exists(), "a generated module ran data as code"
    with output.open("rb") as file:
        results: dict[str, Any] = pickle.load(file)  # written by the child above
    return [results[module] for module, _ in modules]


def assert_read_back(case: Case, result: Any, source: str) -> None:
    """The model's schema is the input's, and each field's description its column's comment."""
    assert result[0] == "ok", f"{result[1]}\n{source}"
    _, fields, descriptions, doc, names = result
    assert fields == case.fields, source
    assert descriptions == case.expected_comments(), source
    about = f"Models of the data in {case.origin}" if case.origin is not None else "DataFrameModel source"
    assert doc == f"{about}, generated by pydantable-spark."
    classes = [line.split("(")[0].removeprefix("class ") for line in source.splitlines() if line.startswith("class ")]
    assert set(names) <= MODULE_NAMES | set(classes), source  # nothing but the imports and the classes


ROOT = Path(__file__).resolve().parents[1]


def _column(name: str, dtype: dt.DType | None = None) -> dt.Field:
    return dt.Field(name, dtype or dt.Int64(), True)


SHIP = dt.Struct((dt.Field("city", dt.String(), True), dt.Field("Ship", dt.Int32(), False)))

ISSUE_CASES = {
    "origin injection": [Case((_column("id"),), "Row", {}, origin) for origin in INJECTIONS],
    "name and comment injection": [
        Case(tuple(_column(n) for n in INJECTIONS), "Row", {(n,): n for n in INJECTIONS}, None),
        Case((dt.Field("s", dt.Struct(tuple(_column(n) for n in INJECTIONS)), True),), "Row", {}, "x"),
    ],
    "superscripts": [Case(tuple(_column(n) for n in ("a²", "x½", "m³", "²b")), "Row", {}, None)],
    "NFKC folding": [
        Case(tuple(_column(n) for n in ("ﬁle", "file", "ℌx", "ｆｕｌｌ")), "Row", {}, None),
        Case(tuple(_column(n) for n in ("file", "ﬁle", "full", "ｆｕｌｌ", "e\u0301", "é")), "Row", {}, None),
    ],
    "shadowing with a comment": [
        Case((_column("date", dt.Date()), _column("when", dt.Date())), "Row", {"date": "day"}, None),
        *(
            Case((_column(n), _column("later"), _column("d", dt.Decimal(5, 2))), "Row", {n: "a comment"}, None)
            for n in ("int", "str", "list", "Field", "Decimal", "dtypes", "Annotated", "bool", "dict", "float")
        ),
        Case((_column("Decimal", dt.Decimal(9, 3)), _column("x", dt.Int32())), "Row", {"Decimal": "money"}, None),
        Case((dt.Field("Ship", SHIP, True), _column("other")), "Row", {"Ship": "where it goes"}, None),
        Case((dt.Field("Row", SHIP, True),), "Row", {("Row", "Ship"): "nested", ("Row",): "the struct"}, None),
    ],
}
"""The issue's case families (the id/ID/Id family is refused: see the test of duplicate names)."""


@pytest.mark.jvm_free
def test_the_issue_cases_import_without_running_data_and_read_back_exactly(tmp_path: Path) -> None:
    cases = [case for family in ISSUE_CASES.values() for case in family]
    sources = [case.source() for case in cases]
    for case, source in zip(cases, sources, strict=True):
        assert_data_only_in_literals(case, source)
    results = import_in_child(tmp_path / "modules", [(c.name, s) for c, s in zip(cases, sources, strict=True)])
    for case, source, result in zip(cases, sources, results, strict=True):
        assert_read_back(case, result, source)
    shadowed = ISSUE_CASES["shadowing with a comment"][0].source()
    assert "    c_date: date | None = Field(alias='date', description='day')\n    when: date | None\n" in shadowed
    folded = ISSUE_CASES["NFKC folding"][0].source()
    assert "file: int | None = Field(alias='ﬁle')\n    file_2: int | None = Field(alias='file')" in folded
    assert "Hx: int | None = Field(alias='ℌx')\n    full: int | None = Field(alias='ｆｕｌｌ')" in folded
    assert "a2: int | None = Field(alias='a²')" in ISSUE_CASES["superscripts"][0].source()


GENERATED_EXAMPLES = int(os.environ.get("PYDANTABLE_MODELGEN_EXAMPLES", "80"))
"""Schemas the property test generates; all their modules are imported in one child interpreter."""

_texts = st.one_of(st.sampled_from(HOSTILE), st.text(max_size=12), st.text(st.characters(codec="ascii"), max_size=6))
_free_texts = _texts | st.text(st.characters(categories=["Cs", "Cc", "Lo"]), max_size=4)
"""Comments and origins: lone surrogates too."""
_atomic = st.one_of(
    st.sampled_from(
        [
            *(dt.Boolean(), dt.Int64(), dt.Int32(), dt.Int16(), dt.Int8(), dt.Float64(), dt.Float32(), dt.String()),
            *(dt.Binary(), dt.Date(), dt.Datetime(), dt.DatetimeNTZ(), dt.Duration()),
        ]
    ),
    st.integers(1, 38).flatmap(lambda p: st.builds(dt.Decimal, st.just(p), st.integers(0, p))),
)


def _level(inner: st.SearchStrategy[dt.DType], *, nested: bool) -> st.SearchStrategy[tuple[dt.Field, ...]]:
    """The fields of one model: names unique when case is ignored (others are refused, as tested below)."""
    names = _texts.filter(lambda n: "${" not in n) if nested else _texts
    field = st.builds(dt.Field, names, inner, st.booleans())
    return st.lists(field, min_size=1, max_size=4, unique_by=lambda f: f.name.lower()).map(tuple)


_dtypes = st.recursive(
    _atomic,
    lambda inner: st.one_of(
        st.builds(dt.List, inner, st.booleans()),
        st.builds(dt.Map, st.just(dt.String()), inner, st.booleans()),
        _level(inner, nested=True).map(dt.Struct),
    ),
    max_leaves=5,
)


@st.composite
def _cases(draw: st.DrawFn) -> Case:
    fields = draw(_level(_dtypes | st.just(dt.Variant()), nested=False))  # a Variant is a top-level column only
    comments: dict[Any, str] = {}

    def comment(fields: tuple[dt.Field, ...], path: tuple[str, ...]) -> None:
        for f in fields:
            text = draw(st.none() | _free_texts)
            if text is not None:
                comments[(*path, f.name)] = text
            inner = f.dtype
            while isinstance(inner, dt.List | dt.Map):
                inner = inner.inner if isinstance(inner, dt.List) else inner.value
            if isinstance(inner, dt.Struct):
                comment(inner.fields, (*path, f.name))

    comment(fields, ())
    name = draw(st.sampled_from(["Row", "Order", "Ship", "Model", "Café", "model_2", "Map"]))
    return Case(fields, name, comments, draw(st.none() | _free_texts))


@pytest.mark.jvm_free
def test_generated_modules_never_run_data_and_read_back_every_name_and_comment(tmp_path: Path) -> None:
    """Hypothesis over names, comments, nesting and origins: each module compiles, imports (one child), reads back."""
    cases: list[tuple[Case, str]] = []

    @settings(max_examples=GENERATED_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(_cases())
    def generate(case: Case) -> None:
        source = case.source()
        assert_data_only_in_literals(case, source)
        cases.append((case, source))

    generate()
    results = import_in_child(tmp_path / "modules", [(case.name, source) for case, source in cases])
    for (case, source), result in zip(cases, results, strict=True):
        assert_read_back(case, result, source)


NAME_EXAMPLES = 60
"""Model names the property test below tries."""


@pytest.mark.jvm_free
@given(name=_texts | st.sampled_from(["Row", "ﬁle", "ℌx", "class", "_Row", "Field", "date", "int", "a b", "1x"]))
@settings(max_examples=NAME_EXAMPLES, deadline=None)
def test_a_model_name_is_used_as_it_is_or_refused_saying_why(name: str) -> None:
    fields = (_column("id"),)
    spelt = name.isidentifier() and not name.startswith("_") and unicodedata.normalize("NFKC", name) == name
    if spelt and not keyword.iskeyword(name) and name not in MODULE_NAMES:
        assert f"\nclass {name}(DataFrameModel):\n" in model_source(fields, name)
        return
    with pytest.raises(ArgumentValueError, match=r"model_source\(\): name must be a Python class name, got ") as caught:
        model_source(fields, name)
    if name in MODULE_NAMES:
        assert "a name the generated module imports or its annotations read" in str(caught.value)
    elif name.isidentifier() and unicodedata.normalize("NFKC", name) != name:
        assert f"Python source folds it by NFKC, to {unicodedata.normalize('NFKC', name)!r}" in str(caught.value)


@pytest.mark.jvm_free
def test_attribute_names_are_what_source_spells_as_they_are() -> None:
    from pydantable_spark.model import attribute_name

    cases = {
        "a²": "a2", "x½": "x1_2", "m³": "m3", "²b": "c_2b", "ﬁle": "file", "ℌx": "Hx", "ｆｕｌｌ": "full",
        "e\u0301": "é", "é": "é", "class": "c_class", "_id": "id", "": "column", "1st": "c_1st", "a b": "a_b",
        "a\nimport os": "a_import_os", "schema": "c_schema", "\u2028": "column",
    }  # fmt: skip
    assert {c: attribute_name(c, set()) for c in cases} == cases
    assert all(is_source_identifier(a) for a in cases.values())
    used: set[str] = set()
    for column in ("file", "ﬁle", "ｆｉｌｅ"):  # each folds to file: told apart after NFKC
        used.add(attribute_name(column, used))
    assert used == {"file", "file_2", "file_3"}


@pytest.mark.jvm_free
def test_columns_a_model_cannot_hold_apart_are_refused_naming_them() -> None:
    for names, which in ((("id", "ID", "Id"), "differ only in case"), (("a", "a"), "are the same")):
        with pytest.raises(DuplicateColumnError, match=rf"the schema has columns 'id' and 'ID', whose names {which}|"
                           rf"the schema has columns 'a' and 'a', whose names {which}"):  # fmt: skip
            model_source(tuple(_column(n) for n in names), "Row")
    nested = (dt.Field("s", dt.List(dt.Struct((_column("x"), _column("X"))), True), True),)
    with pytest.raises(DuplicateColumnError, match=r"model_source\(\): 's\[\]' has columns 'x' and 'X'"):
        model_source(nested, "Row")
    with pytest.raises(ArgumentValueError, match=r"column '\\ud800' of the schema holds a lone surrogate"):
        model_source((_column("\ud800"),), "Row")
    variant = (dt.Field("v", dt.List(dt.Variant(), True), True),)
    with pytest.raises(UnsupportedTypeError, match=r"column 'v\[\]': a VARIANT inside a struct, list or map"):
        model_source(variant, "Row")


@pytest.mark.jvm_free
def test_comments_are_found_by_exact_path_and_a_key_that_names_no_column_is_an_error() -> None:
    fields = (_column("a.b"), dt.Field("a", dt.Struct((_column("b"),)), True))
    source = model_source(fields, "Row", comments={("a.b",): "top", ("a", "b"): "nested"})
    assert "a_b: int | None = Field(alias='a.b', description='top')" in source
    assert "b: int | None = Field(description='nested')" in source
    with pytest.raises(ArgumentValueError, match=r"comments key 'a.b' names two columns, \('a.b',\) and \('a', 'b'\)"):
        model_source(fields, "Row", comments={"a.b": "which?"})
    with pytest.raises(
        ArgumentValueError, match=r"comments= names columns the schema does not have: \('a', 'c'\), 'nope'"
    ):
        model_source(fields, "Row", comments={"nope": "x", ("a", "c"): "y"})
    with pytest.raises(ArgumentTypeError, match=r"comments\['a.b'\] must be a string, got 5"):
        model_source(fields, "Row", comments={"a.b": 5})  # type: ignore[dict-item]
    with pytest.raises(ArgumentTypeError, match=r"a key of comments= is a column's path.*got 3"):
        model_source(fields, "Row", comments={3: "x"})  # type: ignore[dict-item]
    with pytest.raises(ArgumentTypeError, match=r"origin must be a string, got 5"):
        model_source(fields, "Row", origin=5)  # type: ignore[arg-type]


HOSTILE_DIRECTORY = "d/\"x\nimport os;open(os.environ.get('M'),'w')\n#\""
"""The issue's directory name: a path whose text, written into the source, would be a statement."""


def test_files_with_hostile_names_and_comments_give_a_model_that_reads_them_back(
    tmp_path: Path, spark: SparkSession
) -> None:
    from pyspark.sql import types as st_

    def column(name: str, kind: Any, comment: str | None = None) -> Any:
        return st_.StructField(name, kind, True, {"comment": comment} if comment else {})

    ship = st_.StructType(
        [column("c\r\nd", st_.StringType(), "a 'nested' \"comment\"\n#"), column("Field", st_.LongType())]
    )
    schema = st_.StructType(
        [
            column("a\nimport os", st_.LongType(), INJECTIONS[0]),
            column("x'y\"z", st_.StringType(), 'it\'s \\ "quoted"\r\n'),
            column("ﬁle", st_.LongType()),
            column("file", st_.LongType(), "plain"),
            column("a²", st_.IntegerType()),
            column("date", st_.DateType(), "day"),
            column("int", st_.LongType(), "shadows int"),
            column("Ship", ship, "a PascalCase struct with a comment"),
        ]
    )
    rows = [
        (1, "q", 2, 3, 4, datetime.date(2026, 1, 2), 5, ("Oslo", 6)),
        (None, None, None, None, None, None, None, None),
    ]
    sdf = spark.createDataFrame(rows, schema)
    path = tmp_path / HOSTILE_DIRECTORY
    sdf.write.parquet(str(path))
    source = source_of_path(path, "Event")
    from pydantable_spark._spark.types import comments_of_struct, fields_of_struct

    case = Case(fields_of_struct(schema), "Event", comments_of_struct(schema), str(path))
    assert_data_only_in_literals(case, source)
    (result,) = import_in_child(tmp_path / "modules", [("Event", source)])
    assert_read_back(case, result, source)
    Event = _load(source, "Event")
    frame = Event.read_parquet(str(path))
    collected = frame.collect()
    assert sorted(map(tuple, frame.to_spark().collect()), key=repr) == sorted(rows, key=repr)
    full = next(row for row in collected if row.c_int is not None)
    assert (full.c_int, full.c_date, full.Ship.Field, full.file, full.file_2) == (5, datetime.date(2026, 1, 2), 6, 2, 3)


def test_data_spark_cannot_read_is_the_librarys_error_with_sparks_reason(tmp_path: Path, spark: SparkSession) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    with pytest.raises(SparkJobError, match=r"source_of_path\('.*nowhere'\): Spark cannot read it: \[PATH_NOT_FOUND\]"):
        source_of_path(str(tmp_path / "nowhere"), "Row")
    with pytest.raises(
        SparkJobError, match=r"source_of_table\('no_such_table'\): Spark cannot read it: \[TABLE_OR_VIEW_NOT_FOUND\]"
    ):
        source_of_table("no_such_table", "Row")
    pq.write_table(pa.table({"id": [1], "ID": [2], "Id": [3]}), tmp_path / "cases.parquet")
    with pytest.raises(DuplicateColumnError, match=r"the data has columns whose names are equal when case is ignored "
                       r"\(Spark said: \[COLUMN_ALREADY_EXISTS\] The column `id` already exists"):  # fmt: skip
        source_of_path(str(tmp_path / "cases.parquet"), "Row")
    spark.conf.set("spark.sql.caseSensitive", "true")  # Spark reads the three columns: the model still cannot
    try:
        with pytest.raises(DuplicateColumnError, match=r"has columns 'id' and 'ID', whose names differ only in case"):
            source_of_path(str(tmp_path / "cases.parquet"), "Row")
    finally:
        spark.conf.unset("spark.sql.caseSensitive")
    with pytest.raises(ArgumentTypeError, match=r"source_of_path\(\): path must be a str or a path, got 5"):
        source_of_path(5, "Row")  # type: ignore[arg-type]
    with pytest.raises(ArgumentValueError, match=r"name must be a Python class name, got 'Field'"):
        source_of_path(str(tmp_path / "cases.parquet"), "Field")


# --- the first hour (issue 34): non-null columns of Parquet footers; files Spark cannot read ----------------------


def _footers(directory: Path) -> None:
    """Two Parquet files whose footers agree on some REQUIRED columns and parts, and differ on others."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    def ship(*extra: Any) -> Any:
        return pa.struct([pa.field("a", pa.int32(), nullable=False), pa.field("b", pa.string()), *extra])

    def schema(tags: bool, ship_type: Any, *extra: Any) -> Any:
        return pa.schema([
            pa.field("id", pa.int64(), nullable=False),
            pa.field("note", pa.string()),
            pa.field("ship", ship_type, nullable=False),
            pa.field("tags", pa.list_(pa.field("element", pa.string(), nullable=tags)), nullable=False),
            pa.field("scores", pa.map_(pa.string(), pa.field("value", pa.int64(), nullable=False))),
            *extra,
        ])  # fmt: skip

    directory.mkdir()
    first = schema(False, ship(), pa.field("seen", pa.int64(), nullable=False), pa.field("old", pa.int64(), False))
    second = schema(True, ship(pa.field("c", pa.int64(), nullable=False)), pa.field("seen", pa.int64()))
    row = {"id": 1, "note": None, "ship": {"a": 1, "b": None}, "tags": ["x"], "scores": [("k", 1)], "seen": 5}
    pq.write_table(pa.Table.from_pylist([{**row, "old": 7}], schema=first), directory / "first.parquet")
    second_row = {**row, "id": 2, "ship": {"a": 2, "b": "y", "c": 3}, "tags": [None], "seen": None}
    pq.write_table(pa.Table.from_pylist([second_row], schema=second), directory / "second.parquet")


def test_columns_every_parquet_footer_declares_required_are_not_optional(tmp_path: Path, spark: SparkSession) -> None:
    """The issue's Parquet file whose footer marks columns non-null; and a directory whose files disagree."""
    _footers(tmp_path / "data")
    assert all(f.nullable for f in spark.read.parquet(str(tmp_path / "data" / "first.parquet")).schema)  # Spark's way
    one = source_of_path(tmp_path / "data" / "first.parquet", "Row")
    assert "class Ship(DataFrameModel):\n    a: Annotated[int, dtypes.Int32]\n    b: str | None\n" in one
    expected_one = (
        "    id: int\n    note: str | None\n    ship: Ship\n    tags: list[str]\n    scores: dict[str, int] | None\n"
        "    seen: int\n    old: int\n"
    )
    assert one.endswith(expected_one), one
    both = source_of_path(tmp_path / "data", "Row")  # c only in the second file, tags' elements and seen NULL there
    ship = "class Ship(DataFrameModel):\n    a: Annotated[int, dtypes.Int32]\n    b: str | None\n    c: int | None\n"
    assert ship in both
    expected_both = (
        "    id: int\n    note: str | None\n    ship: Ship\n    tags: list[str | None]\n"
        "    scores: dict[str, int] | None\n    seen: int | None\n    old: int | None\n"
    )
    assert both.endswith(expected_both), both
    Row = _load(both, "Row")
    rows = sorted(Row.read_parquet(str(tmp_path / "data")).collect(), key=lambda r: r.id)
    read = [(r.id, r.ship.c, r.tags, r.seen, r.old) for r in rows]
    assert read == [(1, None, ["x"], 5, 7), (2, 3, [None], None, None)]


@pytest.mark.jvm_free
def test_footers_that_cannot_be_read_are_the_footer_error(tmp_path: Path) -> None:
    from pydantable_spark.footers import FooterError, required_in_every_file

    fields = (dt.Field("id", dt.Int64(), True),)
    (tmp_path / "a.parquet").write_text("not parquet")
    with pytest.raises(FooterError, match=r"cannot read the Parquet footer of '.*a\.parquet' \("):
        required_in_every_file(fields, [str(tmp_path / "a.parquet")])
    with pytest.raises(FooterError, match=r"pyarrow cannot open 'nosuchscheme://bucket/a\.parquet' \("):
        required_in_every_file(fields, ["nosuchscheme://bucket/a.parquet"])
    assert required_in_every_file(fields, []) == fields


def test_files_spark_cannot_read_are_one_paragraph_naming_the_format_to_pass(
    tmp_path: Path, spark: SparkSession
) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    (tmp_path / "orders.jsonl").write_text('{"id": 1, "name": "a"}\n')
    spark.range(1).write.orc(str(tmp_path / "orc"))
    next((tmp_path / "orc").glob("*.orc")).rename(tmp_path / "events.orc")
    pq.write_table(pa.table({"id": [1]}), tmp_path / "users.parquet")
    (tmp_path / "blob.dat").write_bytes(b"neither parquet nor orc\n")
    cases = [
        ("orders.jsonl", "parquet", "is JSON Lines by its extension (.jsonl), which carries no column types: only "
         "files that carry their schema can be described (formats parquet, orc, delta, avro); write the model by "
         "hand, or write the data as Parquet first"),
        ("events.orc", "parquet", "is ORC by its extension (.orc): pass format='orc'"),
        ("users.parquet", "orc", "is Parquet by its extension (.parquet): pass format='parquet'"),
        ("blob.dat", "parquet", "is not parquet by its extension (.dat); if the files are of another format that "
         "carries its schema, pass format='orc', format='delta' or format='avro'"),
    ]  # fmt: skip
    for name, format, hint in cases:
        path = str(tmp_path / name)
        with pytest.raises(SparkJobError) as caught:
            source_of_path(path, "Row", format=format)
        message = str(caught.value)
        assert message.startswith(
            f"source_of_path({shown(path)}): Spark cannot read it: [FAILED_READ_FILE.CANNOT_READ_FILE_FOOTER] "
            f"Encountered error while reading file file:{path}. Could not read footer."
        ), message
        assert "\n" not in message, message  # one paragraph: no stack line, no exception class
        assert "\tat " not in message, message
        assert "Exception" not in message, message
        assert message.endswith(f". {path} {hint}"), message


@pytest.mark.jvm_free
def test_footers_pyarrow_cannot_open_leave_the_fields_as_spark_read_them_and_say_so(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from pydantable_spark.modelgen import _footer_nullability

    class Listed:
        """All ``_footer_nullability`` asks of a Spark DataFrame: the files it reads."""

        def inputFiles(self) -> list[str]:  # PySpark's name
            return ["hdfs-like://cluster/data/a.parquet"]

    fields = (dt.Field("id", dt.Int64(), True),)
    with caplog.at_level("WARNING", logger="pydantable_spark"):
        assert _footer_nullability(fields, Listed(), "/data") == fields
    (message,) = caplog.messages
    assert message.startswith(
        "the model of /data keeps every column Optional, as Spark reads them: pyarrow cannot open "
        "'hdfs-like://cluster/data/a.parquet' ("
    ), message


# --- errors with their cause and the way out; the command's session settings (issue 36) --------------------------


def test_a_table_or_format_the_session_lacks_says_sparks_reason_and_the_settings_to_give(
    tmp_path: Path, spark: SparkSession
) -> None:
    """Spark's error class and message in one paragraph, then what to configure, in the Python API's words."""
    with pytest.raises(SparkJobError) as info:
        source_of_table("nocat.db.missing", "Row")
    said = str(info.value)
    assert said.startswith("source_of_table('nocat.db.missing'): Spark cannot read it: [")
    assert "[REQUIRES_SINGLE_PART_NAMESPACE]" in said or "[CATALOG_NOT_FOUND]" in said, said
    assert said.endswith(
        "this session has no catalog 'nocat': configure it with SparkSession.builder.config('spark.sql.catalog.nocat', "
        "'<its catalog class>') and the catalog's own settings (its type, warehouse or URI), and add its jars with "
        "the session's spark.jars.packages; docs/lakehouse.md shows them"
    )
    assert "\n" not in said  # one paragraph: no Java stack
    with pytest.raises(SparkJobError, match=r"\[TABLE_OR_VIEW_NOT_FOUND\].*check the name; a table of another catalog"):
        source_of_table("no_such_table", "Row")
    if os.environ.get("PYDANTABLE_LAKEHOUSE_JARS"):
        return  # Delta Lake is on this session: the next refusal cannot happen here
    with pytest.raises(PydantableSparkError) as refused:
        source_of_path(tmp_path / "nowhere", "Row", format="delta")
    said = str(refused.value)
    assert type(refused.value) is PydantableSparkError
    assert "Delta Lake is not on this Spark session's classpath" in said
    assert "Spark said: [DATA_SOURCE_NOT_FOUND] Failed to find the data source: delta" in said, said
    assert "Here: add the format's jars, built for this Spark version, with the session's spark.jars.packages" in said
    assert "\n" not in said


@pytest.mark.jvm_free
def test_the_models_commands_session_settings_are_checked_and_reach_the_builder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from pydantable_spark._spark.session import embedded_builder
    from pydantable_spark.stubgen import _session_settings

    jar = tmp_path / "x.jar"
    jar.write_bytes(b"")
    settings = _session_settings(
        ["spark.sql.catalog.lake=org.apache.iceberg.spark.SparkCatalog", "spark.sql.catalog.lake.type = hadoop"],
        ["io.delta:delta-spark_2.13:4.0.0,io.delta:delta-storage:4.0.0"],
        [str(jar)],
    )
    assert settings == {
        "spark.sql.catalog.lake": "org.apache.iceberg.spark.SparkCatalog",
        "spark.sql.catalog.lake.type": " hadoop",  # the value as given: Spark reads it, nothing else does
        "spark.jars.packages": "io.delta:delta-spark_2.13:4.0.0,io.delta:delta-storage:4.0.0",
        "spark.jars": str(jar),
    }
    options = embedded_builder(settings)._options  # no JVM: the builder holds what the session starts with
    assert {key: options[key] for key in settings} == settings
    assert options["spark.ui.enabled"] == "false"  # the embedded session's own settings stay
    refused = {
        ("--conf", "spark.sql.x"): "--conf 'spark.sql.x': a setting is KEY=VALUE with a Spark key",
        ("--conf", "hive.metastore.uris=x"): "--conf 'hive.metastore.uris=x': a setting is KEY=VALUE with a Spark key",
        ("--packages", "io.delta:delta-spark"): "--packages: 'io.delta:delta-spark' is not Maven coordinates",
        ("--packages", "a:b:1 --jars x"): "--packages: 'a:b:1 --jars x' is not Maven coordinates",
        ("--jars", str(tmp_path / "none.jar")): f"--jars: {str(tmp_path / 'none.jar')!r} is not a file",
    }
    for (option, value), message in refused.items():  # refused before any session starts: exit code 2
        assert main(["models", "--from-path", str(tmp_path), option, value]) == 2, option
        err = capsys.readouterr().err
        assert err.startswith(f"pydantable-spark models: {message}"), err
    with pytest.raises(ArgumentValueError, match="--jars: spark.jars is set twice"):
        _session_settings(["spark.jars=a"], [], [str(jar)])
    with pytest.raises(ArgumentValueError, match=r"spark.jars.packages is set twice"):
        _session_settings(["spark.jars.packages=a:b:1"], ["a:b:1"], [])
    assert _session_settings(["spark.a=1;x=2"], [], []) == {"spark.a": "1;x=2"}  # a value is Spark's to read
