"""The string kernels on edge values: one frame, one select of many calls, Spark's values on the local engine.

The local engine runs each call twice: as exported (a native DataFusion function
where one computes what Spark does) and with the native string mappings
removed, so every kernel is compared, including those a native mapping hides.
Where Spark fails on a value the local engine fails with the same error class.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pytest

from pydantable_spark import DataFrame, F
from pydantable_spark import dtypes as dt
from pydantable_spark.errors import LocalEngineError, UnsupportedEngineError
from pydantable_spark.substrait import functions as fn
from pydantable_spark.substrait.kernels import regex

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

TEXTS = [
    "",
    " ",
    "Ab c1",
    "  x  ",
    "ΑΣ σ",
    "ǆemal ßtraße ŉ",
    "İx ﬀ",
    "a😀b😀",
    "\t\n x \r\n",
    "a\r\nb\n",
    "x.y.z",
    "a,b,,c",
    "aaaa",
    "Robert Ashcraft",
    "1,234.5",
    "a\u0085",
    "ab\u2028",
    "Ünï 42",
    None,
]
"""Empty and blank strings, Unicode case edge cases (final sigma, titlecase digraphs, one-to-many mappings), text
outside the BMP, line terminators Java's regex knows, repeated delimiters."""

OTHERS = ["a", "", "x", "σ", "ß", "😀", ",", "aa", "b", ".", "A", "1", " ", "ı", "Ab", "\n", "é", "42", None]
"""A second string per row (a needle, a delimiter, a pad, a set of characters)."""

NUMBERS = [1, 0, -1, 2, -3, 5, 100, -100, 3, 2**31 - 1, -(2**31), 7, 4, 1, 2, 6, 0, 9, None]
DOUBLES = [2.675, 0.125, -0.001, math.nan, -math.inf, 0.1, 1234567.891, -0.0, 2.5, 1e15, 5e-324, 0.5, 1.5, 3.5]
DOUBLES += [-2.5, 1e-7, 123.456, math.inf, None]
BYTES = [b"", b"ab", b"\x00\xff", b"xyz", b"\xff\xfe", b"abc\x00", None] + [b"q"] * 12


def _frame() -> DataFrame[Any]:
    table = pa.table(
        {
            "s": pa.array(TEXTS, pa.string()),
            "t": pa.array(OTHERS, pa.string()),
            "n": pa.array(NUMBERS, pa.int32()),
            "x": pa.array(DOUBLES, pa.float64()),
            "b": pa.array(BYTES, pa.binary()),
        }
    )
    return DataFrame.from_arrow(table)


def _calls() -> dict[str, Any]:
    s, t, n, x, b = F.col("s"), F.col("t"), F.col("n"), F.col("x"), F.col("b")
    return {
        "upper": F.upper(s),
        "lower": F.lower(s),
        "initcap": F.initcap(s),
        "length": F.length(s),
        "length_b": F.length(b),
        "bit_length": F.bit_length(s),
        "octet_length_b": F.octet_length(b),
        "trim": F.trim(s),
        "trim_chars": F.trim(s, t),
        "ltrim": F.ltrim(s, t),
        "rtrim": F.rtrim(s),
        "btrim": F.btrim(s, F.lit(" x\n")),
        "strip": s.str.strip(),
        "strip_chars": s.str.strip("a "),
        "substring": F.substring(s, 2, 3),
        "substring_neg": F.substring(s, -3, 2),
        "substr": F.substr(s, n),
        "substr_len": F.substr(s, F.lit(2, dtype=dt.Int32()), n),
        "slice": s.str.slice(-2),
        "slice_len": s.str.slice(1, 2),
        "left": F.left(s, n),
        "right": F.right(s, n),
        "substring_index": F.substring_index(s, ",", 2),
        "substring_index_neg": F.substring_index(s, "a", -2),
        "split_part": F.split_part(s, t, F.lit(2, dtype=dt.Int32())),
        "split_part_neg": F.split_part(s, F.lit(","), F.lit(-1, dtype=dt.Int32())),
        "overlay": F.overlay(s, t, 2),
        "overlay_len": F.overlay(s, t, n, 1),
        "repeat": F.repeat(s, 2),
        "reverse": F.reverse(s),
        "lpad": F.lpad(s, 6, "xy"),
        "rpad": F.rpad(s, 3, "😀"),
        "pad_start": s.str.pad_start(6, "*"),
        "pad_end": s.str.pad_end(4),
        "concat": F.concat(s, t),
        "concat_ws": F.concat_ws("-", s, t),
        "contains": F.contains(s, t),
        "contains_b": F.contains(b, F.lit(b"b")),
        "startswith": F.startswith(s, t),
        "endswith_b": F.endswith(b, F.lit(b"")),
        "instr": F.instr(s, t),
        "locate": F.locate("a", s, 2),
        "position": F.position(t, s, n),
        "find_in_set": F.find_in_set(t, s),
        "like": F.like(s, F.lit("%a_")),
        "like_escaped": F.like(s, F.lit("%\\%%")),
        "like_column": F.like(s, t),
        "ilike": F.ilike(s, F.lit("%Σ%")),
        "rlike": F.rlike(s, F.lit("a.$")),
        "rlike_multiline": F.rlike(s, F.lit("(?m)^b$")),
        "rlike_dotall": F.rlike(s, F.lit("(?s)a.b")),
        "rlike_posix": F.rlike(s, F.lit("\\p{Upper}\\p{Alpha}")),
        "rlike_word": F.rlike(s, F.lit("\\w\\s\\d")),
        "rlike_column": F.rlike(s, t),
        "regexp_count": F.regexp_count(s, F.lit("[a-z]")),
        "regexp_extract": F.regexp_extract(s, "(\\w)(\\d)?", 2),
        "regexp_extract_all": F.regexp_extract_all(s, F.lit("([a-z])"), 1),
        "regexp_instr": F.regexp_instr(s, F.lit("b")),
        "regexp_substr": F.regexp_substr(s, F.lit("[a-z]+")),
        "extract": s.str.extract("([A-Z])", 1),
        "regexp_replace": F.regexp_replace(s, "(a)|(b)", "<$1$2>"),
        "regexp_replace_pos": F.regexp_replace(s, "^.", "X", 3),
        "regexp_replace_named": F.regexp_replace(s, "(?<c>[xyz])", "$" + "{c}\\$"),
        "replace": F.replace(s, t, F.lit("_")),
        "replace_removed": F.replace(s, t),
        "str_replace": s.str.replace(".", "!", literal=True),
        "str_replace_regex": s.str.replace("\\s+", "_"),
        "translate": F.translate(s, "aΣ😀", "b"),
        "split": F.split(s, "[,.]", -1),
        "split_empty": F.split(s, "", 2),
        "split_limit": F.split(s, ",", 2),
        "str_split": s.str.split("."),
        "ascii": F.ascii(s),
        "char": F.char(n),
        "base64": F.base64(b),
        "soundex": F.soundex(s),
        "levenshtein": F.levenshtein(s, t),
        "levenshtein_threshold": F.levenshtein(s, t, 2),
        "format_number": F.format_number(x, 2),
        "format_number_int": F.format_number(n, 0),
        "format_string": F.format_string("%s|%5.2f|%-4d|%x|%,.1f|%(d|%b|%.2s|%3$s%%%n", s, x, n, n, x, n, t, s),
        "format_string_s": F.format_string("%s %s %s", F.when(x > 1e-300, x), n, F.col("b").is_null()),
        "printf": F.printf(t, s),
        "url_encode": F.url_encode(s),
        "encode": F.encode(s, "UTF-16"),
        "encode_32": F.encode(s, "utf-32"),
        "decode": F.decode(b, "ISO-8859-1"),
        "mask": F.mask(s),
        "mask_other": F.mask(s, F.lit("U"), F.lit(None, dtype=str), F.lit("#"), F.lit("?")),
        "quote": F.quote(s),
        "to_base32": F.to_base32(s),
        "to_base32_b": F.to_base32(b),
        "from_base32": F.from_base32(s),
        "is_valid_utf8": F.is_valid_utf8(s),
        "make_valid_utf8": F.make_valid_utf8(s),
        "jaro_winkler": F.jaro_winkler_similarity(s, t),
        "to_binary_utf8": F.to_binary(s, F.lit("utf-8")),
        "try_to_binary_hex": F.try_to_binary(s, F.lit("hex")),
        "to_char_hex": F.to_char(b, F.lit("hex")),
        "to_varchar_base64": F.to_varchar(b, F.lit("Base64")),
        "is_empty": s.str.is_empty_str(),
        "is_blank": s.str.is_blank_str(),
        "matches": s.str.matches("[0-9]"),
        "null_or_empty": s.str.is_null_or_empty_str(),
    }


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def _differences(spark_table: pa.Table, local_table: pa.Table) -> list[str]:
    spark_rows, local_rows = spark_table.to_pydict(), local_table.to_pydict()
    found = []
    for name, theirs in spark_rows.items():
        for row, (mine, want) in enumerate(zip(local_rows[name], theirs, strict=True)):
            if not _same(mine, want):
                found.append(f"{name} row {row} ({TEXTS[row]!r}, {OTHERS[row]!r}): local {mine!r}, Spark {want!r}")
    return found


def test_string_kernels_give_sparks_values(spark: SparkSession, monkeypatch: pytest.MonkeyPatch) -> None:
    frame = _frame().select(**_calls())
    on_spark = frame.to_arrow()
    native = _differences(on_spark, frame.to_arrow(engine="local"))
    assert not native, "\n".join(native)
    for name in [n for n, f in fn.CATALOG_FUNCTIONS.items() if f.extension == "functions_string"]:
        monkeypatch.delitem(fn.CATALOG_FUNCTIONS, name)  # every string call through its kernel
    kernels = _differences(on_spark, frame.to_arrow(engine="local"))
    assert not kernels, "\n".join(kernels)


FAILURES = {
    "split_part_zero": (lambda s: F.split_part(s, F.lit(","), F.lit(0, dtype=dt.Int32())), "INVALID_INDEX_OF_ZERO"),
    "regexp_extract_group": (lambda s: F.regexp_extract(s, "a", 1), "REGEX_GROUP_INDEX"),
    "regexp_replace_group": (lambda s: F.regexp_replace(s, "a", "$2"), "INVALID_REGEXP_REPLACE"),
    "like_escape": (lambda s: F.like(s, F.concat(F.lit("a\\"), s)), "ESC_"),
    "url_decode": (lambda s: F.url_decode(F.concat(s, F.lit("%zz"))), "CANNOT_DECODE_URL"),
    "encode_ascii": (lambda s: F.encode(F.concat(s, F.lit("é")), "US-ASCII"), "MALFORMED_CHARACTER_CODING"),
    "elt": (lambda s: F.elt(F.lit(3, dtype=dt.Int32()), s, s), "INVALID_ARRAY_INDEX"),
    "to_number": (lambda s: F.to_number(s, F.lit("99")), "MISMATCH_INPUT"),
    "to_char_utf8": (
        lambda s: F.to_char(F.encode(s, "UTF-16"), F.lit("utf-8")),
        "MALFORMED",
    ),
    "to_binary_hex": (lambda s: F.to_binary(F.concat(s, F.lit("zz"))), "CONVERSION_INVALID_INPUT"),
}
"""Calls Spark fails on (ANSI), each with the error class the local engine must fail with too."""


@pytest.mark.parametrize("case", list(FAILURES))
def test_string_kernels_fail_where_spark_fails(spark: SparkSession, case: str) -> None:
    build, condition = FAILURES[case]
    frame = DataFrame.from_arrow(pa.table({"s": pa.array(["a", "ab"], pa.string())})).select(out=build(F.col("s")))
    with pytest.raises(Exception, match=condition):
        frame.to_arrow()
    with pytest.raises(LocalEngineError, match=condition):
        frame.to_arrow(engine="local")


VALUES = {
    "url_decode": (lambda s: F.url_decode(s), ["a+b%20", "%+1%-0", "%ff%41", "%E2%82%AC", "", "%e2%82"]),
    "try_url_decode": (lambda s: F.try_url_decode(s), ["%zz", "%-1", "a%", "%4", "%41%4", "ok"]),
    "unbase64": (lambda s: F.unbase64(s), ["QUI=", "Ab c1", "x,y  ", "Ünï 42", "", "QQ==\r\n"]),
    "decode_utf16": (lambda s: F.decode(F.encode(s, "UTF-16LE"), "UTF-16"), ["a😀", "", "xyz", "é", "ab", "\x00"]),
    "elt": (lambda s: F.elt(F.length(s), s, F.lit("two"), F.lit(None, dtype=str)), ["a", "bb", "😀", "a", "a", "x"]),
    "from_base32": (lambda s: F.from_base32(s), ["MFRGGZDFMZTWQ2LKx", "MFRGGZDFMZTWQ2LKxy", "x", "MFRA=x", "", "a b"]),
    "try_to_number": (
        lambda s: F.try_to_number(s, F.lit("S$9,999.99")),
        ["$1,234.5", "-$12", "+$0.99", "$,12", "1,234", " $ 1 2.3", "$12,34", "-$", ".5", "$9,999.999"],
    ),
    "try_to_number_pr": (
        lambda s: F.try_to_number(s, F.lit("0,099PR")),
        ["<1,234>", "1,234", "<12>", "0,012", "12", "1,2345", "<0,001", "0,001>", "01,234", ""],
    ),
    "to_number": (lambda s: F.to_number(s, F.lit("99.9MI")), ["1.5-", "12.3", ".1", "99", "0.0-", "5 -"]),
    "empty_matches": (lambda s: F.regexp_count(s, F.lit("x*")), ["", "abc", "xax", "a\u00e9b", "xx", "\n"]),
    "empty_split": (lambda s: F.split(s, "(?=b)|x?"), ["", "abc", "xbx", "bb", "éb", "a"]),
    "empty_replace": (lambda s: F.regexp_replace(s, "a*", "-"), ["", "baaac", "a", "aa", "éa", "b"]),
}
"""Calls whose arguments only some strings suit (others fail on Spark), each on its own values."""


@pytest.mark.parametrize("case", list(VALUES))
def test_string_kernels_on_their_own_values(spark: SparkSession, case: str) -> None:
    build, values = VALUES[case]
    table = pa.table({"s": pa.array(values, pa.string())})
    frame = DataFrame.from_arrow(table).select(out=build(F.col("s")))
    assert frame.to_arrow(engine="local").to_pydict() == frame.to_arrow().to_pydict()


REFUSED = {
    "unicode property": F.rlike(F.col("s"), F.lit("\\p{L}")),
    "nested class": F.rlike(F.col("s"), F.lit("[a[b]]")),
    "flag x": F.regexp_replace(F.col("s"), "(?x) a", "b"),
    "bad escape": F.like(F.col("s"), F.lit("a\\b")),
    "charset": F.encode(F.col("s"), "latin1"),
    "to_binary base64": F.to_binary(F.col("s"), F.lit("base64")),
    "format %e": F.format_string("%e", F.col("s")),
    "format of bytes": F.format_string("%s", F.to_binary(F.col("s"), F.lit("utf-8"))),
    "to_char of a number": F.to_char(F.length(F.col("s")), F.lit("999")),
    "a number format Spark rejects": F.try_to_number(F.col("s"), F.lit("9$")),
}


@pytest.mark.jvm_free
@pytest.mark.parametrize("case", list(REFUSED))
def test_what_the_string_kernels_cannot_match_is_refused_by_name(case: str) -> None:
    frame = DataFrame.from_arrow(pa.table({"s": pa.array(["a"], pa.string())})).select(out=REFUSED[case])
    with pytest.raises(UnsupportedEngineError, match="run it on Spark"):
        frame.to_arrow(engine="local")


@pytest.mark.jvm_free
@pytest.mark.parametrize("value", [2.0**60, 1e23, 5e-324])
def test_doubles_whose_java_digits_are_not_the_shortest_are_refused_when_they_run(value: float) -> None:
    """Java 17 prints 2**60 as 1.15292150460684698E18 and 5e-324 as 4.9E-324: not computed locally."""
    frame = DataFrame.from_arrow(pa.table({"x": pa.array([value], pa.float64())}))
    with pytest.raises(LocalEngineError, match="Double.toString digits"):
        frame.select(out=F.format_string("%s", F.col("x"))).to_arrow(engine="local")
    if value > 1:
        with pytest.raises(LocalEngineError, match="Double.toString digits"):
            frame.select(out=F.format_number(F.col("x"), 0)).to_arrow(engine="local")


@pytest.mark.jvm_free
def test_an_empty_match_in_text_past_the_bmp_is_refused_when_it_runs() -> None:
    """Java searches again from the middle of a surrogate pair after an empty match: not computed locally."""
    frame = DataFrame.from_arrow(pa.table({"s": pa.array(["a😀"], pa.string())}))
    with pytest.raises(LocalEngineError, match="past U\\+FFFF"):
        frame.select(out=F.regexp_count(F.col("s"), F.lit("x*"))).to_arrow(engine="local")
    assert frame.select(out=F.regexp_count(F.col("s"), F.lit("x+"))).to_dict(engine="local") == {"out": [0]}


@pytest.mark.jvm_free
def test_java_regex_translation() -> None:
    """What Java's pattern means, in Python: line terminators, ASCII classes, empty matches, replacements."""
    dot = regex.translate("a.").pattern
    assert [bool(dot.fullmatch(f"a{c}")) for c in "\n\r\u0085\u2028\u2029x"] == [False] * 5 + [True]
    end = regex.translate("a$").pattern
    assert [bool(end.search(t)) for t in ("a", "a\n", "a\r\n", "a\u2028", "a\n\n", "ab")] == [True] * 4 + [False] * 2
    assert regex.translate("\\w").pattern.search("é") is None
    assert [m.span() for m in regex.find_all(regex.translate("(?:)|a").pattern, "ab")] == [(0, 0), (1, 1), (2, 2)]
    assert regex.split(regex.translate("x*").pattern, "abc", -1) == ["a", "b", "c", ""]
    found = regex.translate("(a)(b)?").pattern.search("a")
    assert found is not None
    assert regex.expand("$1$2$10\\$", found) == "aa0$"
    with pytest.raises(regex.ReplacementError, match="No group 3"):
        regex.expand("$3", found)
    with pytest.raises(regex.Untranslatable, match="the flag"):
        regex.translate("(?u)a")
