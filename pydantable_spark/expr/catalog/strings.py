"""String functions (PySpark's), and the ``.str`` namespace's own methods (Polars' meanings).

Each entry is checked against Spark's analyzer and against plain PySpark's
values by ``tests/expr/test_catalog.py``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pydantable_spark import dtypes as dt
from pydantable_spark.errors import ColumnTypeError
from pydantable_spark.expr.catalog import accepts, returns
from pydantable_spark.expr.catalog.collections import concat_lists, empty_takes_the_others
from pydantable_spark.expr.catalog.spec import (
    ABSENT,
    Accepts,
    Args,
    DTypeRule,
    EntryOptions,
    Function,
    Lit,
    Param,
    always,
    any_null,
    at_least,
    column,
    either,
    entry,
    fixed,
    never,
    null_if,
    same,
    value,
)
from pydantable_spark.expr.core import describe

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["ENTRIES"]

TEXT = column("col", accepts.STRING)
STRING_LIST = Accepts(
    "a string or a list of strings",
    lambda t: isinstance(t, dt.String) or (isinstance(t, dt.List) and isinstance(t.inner, dt.String)),
    examples=(dt.String(), dt.List(dt.String(), True)),
)
STRINGS_OR_LISTS = Accepts(
    "a string or a list",
    lambda t: isinstance(t, dt.String | dt.List),
    examples=(dt.String(), dt.List(dt.Int64(), False), dt.List(dt.Int32(), True)),
)
STRING_OR_LIST = Accepts(
    "a string or a list",
    lambda t: isinstance(t, dt.String | dt.List),
    examples=(dt.String(), dt.List(dt.Int64(), True)),
)


def _entry(
    name: str, *params: Param, returns: DTypeRule = returns.STRING, summary: str, **options: Unpack[EntryOptions]
) -> Function:
    return entry(name, params, returns, summary, "string", **options)


_NUMBER_FORMAT = re.compile(r"(?:[09.DG,$S]|MI|PR)+")


def number_format(text: str) -> tuple[int, int]:
    """The decimal ``(precision, scale)`` a ``to_number`` format gives: its digits, and those after the point.

    >>> number_format("$9,999.99")
    (6, 2)
    >>> number_format("S0D0")
    (2, 1)
    """
    upper = text.upper()
    if not _NUMBER_FORMAT.fullmatch(upper):
        msg = "is not a number format: it takes 0 and 9 (digits), . or D, , or G, $, S or MI (sign), PR"
        raise ValueError(msg)
    points = upper.count(".") + upper.count("D")
    if points > 1 or upper.count("$") > 1:
        msg = "has more than one decimal point or currency sign"
        raise ValueError(msg)
    whole, _, fraction = upper.replace("D", ".").partition(".")
    digits = sum(whole.count(d) for d in "09"), sum(fraction.count(d) for d in "09")
    if sum(digits) == 0 or sum(digits) > dt.MAX_DECIMAL_PRECISION:
        msg = f"has {sum(digits)} digits; a number format has 1 to {dt.MAX_DECIMAL_PRECISION}"
        raise ValueError(msg)
    return sum(digits), digits[1]


def _check_number_format(text: str) -> str | None:
    try:
        number_format(text)
    except ValueError as error:
        return str(error)
    return None


def _number_format_known(args: Args) -> None:
    """The result's precision and scale come from the format: it must be a constant string."""
    if not args.is_literal(1) or not isinstance(args.value(1), str):
        msg = (
            f"{args.name}(): format must be a string such as '999.99' or F.lit('999.99'); got {describe(args.nodes[1])}"
        )
        raise ColumnTypeError(msg)
    problem = _check_number_format(args.value(1))
    if problem is not None:
        msg = f"{args.name}(): format {problem}, got {args.value(1)!r}"
        raise ColumnTypeError(msg)


def _number_of_format(args: Args) -> dt.DType:
    return dt.Decimal(*number_format(args.value(1))) if isinstance(args.value(1), str) else dt.Decimal()


_TO_CHAR = Accepts(
    "an integer, decimal, date, datetime or bytes",
    lambda t: isinstance(t, dt.Integral | dt.Decimal | dt.Date | dt.Datetime | dt.DatetimeNTZ | dt.Binary),
    examples=(dt.Decimal(10, 2), dt.Int64(), dt.Date(), dt.Binary()),
)
_KEY = "0000111122223333"
_CIPHER = bytes.fromhex("372b194b0b0d8d6a72d20faf684cf1e2")
"""``'a'`` encrypted by Spark with ``_KEY`` in ECB mode (an input of the decryption tests)."""


def _same_kind(args: Args) -> None:
    """Both arguments strings, or both bytes: Spark would cast one to the other."""
    if type(args.dtype(0)) is not type(args.dtype(1)):
        msg = (
            f"{args.name}(): {describe(args.nodes[0])} and {describe(args.nodes[1])} must both be strings or both bytes"
        )
        raise ColumnTypeError(msg)


def _nullable_for_bytes(args: Args) -> bool:
    """NULL in, NULL out; on bytes Spark calls a Java method it marks nullable, so the result always is."""
    return any_null(args) or isinstance(args.dtype(0), dt.Binary)


def _concat(args: Args) -> dt.DType:
    """Strings, or lists meeting in their elements' wider type (``collections.concat_lists``), never both."""
    lists = [isinstance(args.dtype(i), dt.List) for i in range(len(args))]
    if all(lists):
        return concat_lists(args)
    if any(lists):
        first_list, first_string = lists.index(True), lists.index(False)
        msg = (
            f"{args.name}(): takes strings or lists, not both; got {describe(args.nodes[first_string])} and "
            f"{describe(args.nodes[first_list])}"
        )
        raise ColumnTypeError(msg)
    return dt.String()


def _to_binary_nullable(args: Args) -> bool:
    """NULL in, NULL out; Spark marks the result nullable whatever the input, except for base64."""
    return any_null(args) or len(args) < 2 or str(args.value(1)).lower() != "base64"


def _one_char(text: str) -> str | None:
    return None if len(text) == 1 else "must be a single character"


def _a_pattern(pattern: str) -> str | None:
    return None if pattern else "must not be empty (an empty pattern matches every string; use is_not_null())"


_BLANK = r"\A\s*\z"
"""Only whitespace from start to end, as Java's ``\\s`` reads it (the six ASCII whitespace characters)."""


def _constant_text(text: str) -> str:
    """A constant string of a template as SQL that no parser setting reads differently (hex bytes, cast)."""
    return f"CAST(X'{text.encode('utf-8').hex()}' AS STRING)"


ENTRIES: tuple[Function, ...] = (
    # --- case, length, trimming ---
    _entry(
        "upper",
        TEXT,
        summary="Upper case.",
        methods=("str.upper",),
        aliases=("ucase",),
        alias_params={"ucase": ("str",)},
    ),
    _entry(
        "lower",
        TEXT,
        summary="Lower case.",
        methods=("str.lower",),
        aliases=("lcase",),
        alias_params={"lcase": ("str",)},
    ),
    _entry("initcap", TEXT, summary="Each word's first letter upper case, the rest lower case."),
    _entry(
        "length",
        column("col", accepts.STRING_OR_BINARY),
        returns=returns.INT,
        summary="Characters of a string (bytes of binary data).",
        methods=("str.length", "str.len_chars"),
        aliases=("char_length", "character_length"),
        alias_params={"char_length": ("str",), "character_length": ("str",)},
    ),
    _entry(
        "bit_length", column("col", accepts.STRING_OR_BINARY), returns=returns.INT, summary="Bits of the UTF-8 bytes."
    ),
    _entry(
        "octet_length",
        column("col", accepts.STRING_OR_BINARY),
        returns=returns.INT,
        summary="Bytes of the UTF-8 encoding.",
    ),
    # Spark SQL's two-argument trim/ltrim/rtrim take the characters first: the SQL compiler swaps them
    _entry(
        "trim",
        TEXT,
        column("trim", accepts.STRING, default=ABSENT),
        special=True,
        summary="Spaces (or the characters of ``trim``) removed at both ends.",
    ),
    _entry(
        "ltrim",
        TEXT,
        column("trim", accepts.STRING, default=ABSENT),
        special=True,
        summary="Spaces (or ``trim``'s) removed at the start.",
    ),
    _entry(
        "rtrim",
        TEXT,
        column("trim", accepts.STRING, default=ABSENT),
        special=True,
        summary="Spaces (or ``trim``'s) removed at the end.",
    ),
    _entry(
        "btrim",
        column("str", accepts.STRING),
        column("trim", accepts.STRING, default=ABSENT),
        summary="Spaces (or the characters of ``trim``) removed at both ends.",
    ),
    _entry(
        "str.strip",
        TEXT,
        value("chars", str, default=ABSENT, sample="x"),
        in_f=False,
        methods=("str.strip",),
        special=True,
        summary="Whitespace (Java's \\s) or the characters of ``chars`` removed at both ends.",
    ),
    # --- pieces ---
    _entry(
        "substring",
        column("str", accepts.STRING),
        either("pos", accepts.INT32, int, literal=dt.Int32(), names=True),
        either("len", accepts.INT32, int, literal=dt.Int32(), names=True),
        summary="``len`` characters from 1-based position ``pos`` (negative: from the end).",
    ),
    _entry(
        "substr",
        column("str", accepts.STRING),
        column("pos", accepts.INT32),
        column("len", accepts.INT32, default=ABSENT),
        summary="Characters from 1-based position ``pos`` (``len`` of them, or to the end).",
    ),
    _entry(
        "str.slice",
        TEXT,
        value("offset", int, literal=dt.Int32()),
        value("length", int, literal=dt.Int32(), default=ABSENT, check=at_least(0), sample=2),
        in_f=False,
        methods=("str.slice",),
        special=True,
        summary="``length`` characters from 0-based ``offset`` (negative: from the end), or to the end.",
    ),
    _entry(
        "left", column("str", accepts.STRING), column("len", accepts.INT32), summary="The first ``len`` characters."
    ),
    _entry(
        "right",
        column("str", accepts.STRING),
        column("len", accepts.INT32),
        summary="The last ``len`` characters.",
        nullable=always,
    ),
    _entry(
        "substring_index",
        column("str", accepts.STRING),
        value("delim", str),
        value("count", int, literal=dt.Int32()),
        summary="The part before the ``count``-th ``delim`` (after it, counting from the end, if negative).",
    ),
    _entry(
        "split_part",
        column("src", accepts.STRING),
        column("delimiter", accepts.STRING),
        column("partNum", accepts.INT32),
        summary="The ``partNum``-th (1-based) part between delimiters.",
        nullable=always,
    ),
    _entry(
        "overlay",
        column("src", accepts.STRING),
        column("replace", accepts.STRING),
        either("pos", accepts.INT32, int, literal=dt.Int32(), names=True),
        either("len", accepts.INT32, int, literal=dt.Int32(), names=True, default=-1),
        summary="``src`` with ``len`` characters from ``pos`` replaced by ``replace``.",
    ),
    _entry(
        "repeat",
        TEXT,
        either("n", accepts.INT32, int, literal=dt.Int32(), names=True),
        summary="The string ``n`` times.",
    ),
    _entry(
        "reverse",
        column("col", STRING_OR_LIST),
        returns=same(0),
        summary="The characters (or list elements) in reverse order.",
    ),
    _entry(
        "lpad",
        TEXT,
        either("len", accepts.INT32, int, literal=dt.Int32()),
        either("pad", accepts.STRING, str),
        summary="Left-padded with ``pad`` to ``len`` characters (longer strings are cut to ``len``).",
    ),
    _entry(
        "rpad",
        TEXT,
        either("len", accepts.INT32, int, literal=dt.Int32()),
        either("pad", accepts.STRING, str),
        summary="Right-padded with ``pad`` to ``len`` characters (longer strings are cut to ``len``).",
    ),
    _entry(
        "str.pad_start",
        TEXT,
        value("width", int, literal=dt.Int32(), check=at_least(0)),
        value("fill", str, default=" ", check=_one_char),
        in_f=False,
        methods=("str.pad_start",),
        special=True,
        summary="Left-padded with ``fill`` to ``width`` characters; longer strings are kept whole.",
    ),
    _entry(
        "str.pad_end",
        TEXT,
        value("width", int, literal=dt.Int32(), check=at_least(0)),
        value("fill", str, default=" ", check=_one_char),
        in_f=False,
        methods=("str.pad_end",),
        special=True,
        summary="Right-padded with ``fill`` to ``width`` characters; longer strings are kept whole.",
    ),
    # --- joining ---
    _entry(
        "concat",
        column("cols", STRINGS_OR_LISTS, variadic=True),
        returns=_concat,
        adopt=empty_takes_the_others,
        summary="The strings (or lists) end to end; NULL if any is NULL.",
    ),
    _entry(
        "concat_ws",
        value("sep", str),
        column("cols", STRING_LIST, variadic=True, default=()),
        nullable=never,
        summary="The strings (and list elements) joined with ``sep``, NULLs skipped.",
    ),
    # --- searching ---
    _entry(
        "contains",
        column("left", accepts.STRING_OR_BINARY),
        column("right", accepts.STRING_OR_BINARY),
        returns=returns.BOOLEAN,
        nullable=_nullable_for_bytes,
        check=_same_kind,
        samples=((dt.Binary(), dt.Binary()), ((dt.Binary(), True), dt.Binary())),
        summary="Whether ``right`` occurs in ``left`` (plain text).",
        methods=("str.contains",),
    ),
    _entry(
        "startswith",
        column("str", accepts.STRING_OR_BINARY),
        column("prefix", accepts.STRING_OR_BINARY),
        returns=returns.BOOLEAN,
        nullable=_nullable_for_bytes,
        check=_same_kind,
        samples=((dt.Binary(), dt.Binary()), ((dt.Binary(), True), dt.Binary())),
        summary="Whether the string starts with ``prefix``.",
        methods=("str.starts_with",),
    ),
    _entry(
        "endswith",
        column("str", accepts.STRING_OR_BINARY),
        column("suffix", accepts.STRING_OR_BINARY),
        returns=returns.BOOLEAN,
        nullable=_nullable_for_bytes,
        check=_same_kind,
        samples=((dt.Binary(), dt.Binary()), ((dt.Binary(), True), dt.Binary())),
        summary="Whether the string ends with ``suffix``.",
        methods=("str.ends_with",),
    ),
    _entry(
        "instr",
        column("str", accepts.STRING),
        either("substr", accepts.STRING, str),
        returns=returns.INT,
        summary="The 1-based position of the first ``substr`` (0 if none).",
    ),
    _entry(
        "locate",
        value("substr", str),
        column("str", accepts.STRING),
        value("pos", int, literal=dt.Int32(), default=1),
        returns=returns.INT,
        summary="The 1-based position of ``substr`` at or after ``pos`` (0 if none).",
    ),
    _entry(
        "position",
        column("substr", accepts.STRING),
        column("str", accepts.STRING),
        column("start", accepts.INT32, default=ABSENT),
        returns=returns.INT,
        summary="The 1-based position of ``substr`` (at or after ``start``); 0 if none.",
        nullable=null_if(0, 1),
    ),
    _entry(
        "find_in_set",
        column("str", accepts.STRING),
        column("str_array", accepts.STRING),
        returns=returns.INT,
        summary="The 1-based index of ``str`` in the comma-separated list ``str_array`` (0 if absent).",
    ),
    _entry(
        "like",
        column("str", accepts.STRING),
        column("pattern", accepts.STRING),
        returns=returns.BOOLEAN,
        methods=("str.like",),
        summary="SQL LIKE: ``%`` any run of characters, ``_`` one character, ``\\`` escapes.",
    ),
    _entry(
        "ilike",
        column("str", accepts.STRING),
        column("pattern", accepts.STRING),
        returns=returns.BOOLEAN,
        summary="LIKE, ignoring case.",
    ),
    _entry(
        "rlike",
        column("str", accepts.STRING),
        column("regexp", accepts.STRING),
        returns=returns.BOOLEAN,
        aliases=("regexp", "regexp_like"),
        summary="Whether the (Java) regular expression matches somewhere in the string.",
    ),
    _entry(
        "regexp_count",
        column("str", accepts.STRING),
        column("regexp", accepts.STRING),
        returns=returns.INT,
        summary="How many times the regular expression matches.",
    ),
    _entry(
        "regexp_extract",
        column("str", accepts.STRING),
        value("pattern", str),
        value("idx", int, literal=dt.Int32(), check=at_least(0)),
        summary="Group ``idx`` of the first match (an empty string when nothing matches).",
    ),
    _entry(
        "regexp_extract_all",
        column("str", accepts.STRING),
        column("regexp", accepts.STRING),
        either("idx", accepts.INT32, int, literal=dt.Int32(), default=ABSENT),
        returns=fixed(dt.List(dt.String(), True)),
        summary="Group ``idx`` (default 1) of every match, as a list.",
    ),
    _entry(
        "regexp_instr",
        column("str", accepts.STRING),
        column("regexp", accepts.STRING),
        either("idx", accepts.INT32, int, literal=dt.Int32(), default=ABSENT),
        returns=returns.INT,
        summary="The 1-based position of the first match (0 if none).",
    ),
    _entry(
        "regexp_substr",
        column("str", accepts.STRING),
        column("regexp", accepts.STRING),
        nullable=always,
        summary="The first match of the regular expression (NULL if none).",
    ),
    _entry(
        "str.extract",
        TEXT,
        value("pattern", str),
        value("group", int, literal=dt.Int32(), default=1, check=at_least(0)),
        in_f=False,
        methods=("str.extract",),
        special=True,
        nullable=always,
        summary="Group ``group`` of the first match of ``pattern`` (Java regex); NULL without a match.",
    ),
    # --- replacing ---
    _entry(
        "regexp_replace",
        column("string", accepts.STRING),
        either("pattern", accepts.STRING, str),
        either("replacement", accepts.STRING, str),
        either("position", accepts.INT32, int, literal=dt.Int32(), default=ABSENT, check=at_least(1), foldable=True),
        summary="Every match of ``pattern`` replaced by ``replacement`` (``$1`` refers to a group).",
    ),
    _entry(
        "replace",
        column("src", accepts.STRING),
        column("search", accepts.STRING),
        column("replace", accepts.STRING, default=ABSENT),
        summary="Every occurrence of ``search`` replaced (removed when no ``replace``); plain text.",
    ),
    _entry(
        "str.replace",
        TEXT,
        value("pattern", str),
        value("value", str),
        value("literal", bool, default=False),
        in_f=False,
        methods=("str.replace",),
        special=True,
        summary="Every match of ``pattern`` (a regex unless ``literal``) replaced by ``value``.",
    ),
    _entry(
        "translate",
        column("srcCol", accepts.STRING),
        value("matching", str),
        value("replace", str),
        summary="Each character of ``matching`` replaced by the one at its place in ``replace`` (or removed).",
    ),
    # --- splitting ---
    _entry(
        "split",
        column("str", accepts.STRING),
        either("pattern", accepts.STRING, str),
        either("limit", accepts.INT32, int, literal=dt.Int32(), names=True, default=-1),
        returns=fixed(dt.List(dt.String(), False)),
        summary="The parts between matches of ``pattern`` (a regex).",
    ),
    _entry(
        "str.split",
        TEXT,
        value("separator", str),
        in_f=False,
        methods=("str.split",),
        special=True,
        returns=fixed(dt.List(dt.String(), False)),
        summary="The parts between occurrences of ``separator`` (plain text).",
    ),
    # --- characters and encodings ---
    _entry(
        "ascii", TEXT, returns=returns.INT, summary="The code point of the first character (0 for an empty string)."
    ),
    _entry(
        "char",
        column("col", accepts.NUMBER),
        nullable=lambda a: a.nullable(0) or not isinstance(a.dtype(0), dt.Integral),
        summary="The character whose code point is the number (modulo 256).",
    ),
    _entry("base64", column("col", accepts.BINARY), summary="The bytes in base64."),
    _entry("unbase64", TEXT, returns=returns.BINARY, summary="The bytes a base64 string encodes."),
    _entry("soundex", TEXT, summary="The Soundex code."),
    _entry(
        "levenshtein",
        column("left", accepts.STRING),
        column("right", accepts.STRING),
        value("threshold", int, literal=dt.Int32(), default=ABSENT, sample=2),
        returns=returns.INT,
        summary="The edit distance (-1 when it exceeds ``threshold``).",
    ),
    _entry(
        "format_number",
        column("col", accepts.NUMBER),
        value("d", int, literal=dt.Int32(), check=at_least(0)),
        summary="The number like ``'#,###,###.##'`` rounded to ``d`` decimals.",
        nullable=always,
    ),
    _entry(
        "format_string",
        value("format", str),
        column("cols", variadic=True, default=()),
        nullable=never,
        summary="printf-style formatting (``%s``, ``%d``...) of the columns.",
    ),
    _entry(
        "url_encode",
        column("str", accepts.STRING),
        summary="``application/x-www-form-urlencoded`` encoding.",
        nullable=always,
    ),
    _entry(
        "url_decode",
        column("str", accepts.STRING),
        summary="Decoding of ``application/x-www-form-urlencoded``.",
        nullable=always,
    ),
    _entry(
        "encode",
        TEXT,
        value("charset", str, sample="UTF-16"),
        returns=returns.BINARY,
        summary="The string's bytes in ``charset`` (US-ASCII, ISO-8859-1, UTF-8, UTF-16BE, UTF-16LE, UTF-16, UTF-32).",
        nullable=always,
    ),
    _entry(
        "decode",
        column("col", accepts.BINARY),
        value("charset", str, sample="UTF-16"),
        summary="The string the bytes encode in ``charset``.",
        nullable=always,
    ),
    _entry(
        "mask",
        TEXT,
        column("upperChar", accepts.STRING, default=ABSENT, foldable=True),
        column("lowerChar", accepts.STRING, default=ABSENT, foldable=True),
        column("digitChar", accepts.STRING, default=ABSENT, foldable=True),
        column("otherChar", accepts.STRING, default=ABSENT, foldable=True),
        summary="Upper case letters as ``X``, lower case as ``x``, digits as ``n`` (or the given characters).",
        nullable=always,
    ),
    _entry("quote", TEXT, summary="The string in single quotes, inner quotes escaped.", nullable=always),
    _entry(
        "elt",
        column("n", accepts.INTEGER),
        column("inputs", accepts.STRING, variadic=True),
        nullable=always,
        summary="The ``n``-th of the following strings (the first input is ``n``).",
    ),
    _entry(
        "printf",
        column("format", accepts.STRING),
        column("cols", variadic=True, default=()),
        nullable=null_if(0),
        summary="printf-style formatting (``%s``, ``%d``...) of the columns by a format column or name.",
    ),
    _entry(
        "parse_url",
        column("url", accepts.STRING),
        column("partToExtract", accepts.STRING),
        column("key", accepts.STRING, default=ABSENT),
        nullable=always,
        samples=((Lit("http://u@h.io:8/p?q=1&r=2#f"), Lit("QUERY"), Lit("r")), (Lit("http://h.io/p"), Lit("HOST"))),
        summary="A part of a URL (HOST, PATH, QUERY, REF, PROTOCOL, FILE, AUTHORITY, USERINFO) or a query value.",
    ),
    _entry(
        "try_parse_url",
        column("url", accepts.STRING),
        column("partToExtract", accepts.STRING),
        column("key", accepts.STRING, default=ABSENT),
        nullable=always,
        samples=((Lit("http://u@h.io:8/p?q=1&r=2#f"), Lit("QUERY"), Lit("q")), (Lit("ht tp://x"), Lit("HOST"))),
        summary="``parse_url``, NULL instead of an error for a malformed URL.",
    ),
    _entry(
        "to_base32", column("col", accepts.STRING_OR_BINARY), summary="The bytes (of the string's UTF-8) in base32."
    ),
    _entry("from_base32", TEXT, returns=returns.BINARY, summary="The bytes a base32 string encodes."),
    _entry(
        "is_valid_utf8",
        column("str", accepts.STRING),
        returns=returns.BOOLEAN,
        nullable=always,
        summary="Whether it is valid UTF-8.",
    ),
    _entry(
        "validate_utf8",
        column("str", accepts.STRING),
        nullable=always,
        summary="The string, or an error if it is not valid UTF-8.",
    ),
    _entry(
        "try_validate_utf8",
        column("str", accepts.STRING),
        nullable=always,
        summary="The string, or NULL if it is not valid UTF-8.",
    ),
    _entry(
        "make_valid_utf8",
        column("str", accepts.STRING),
        nullable=always,
        summary="The string with invalid UTF-8 bytes replaced by U+FFFD.",
    ),
    _entry(
        "jaro_winkler_similarity",
        column("left", accepts.STRING),
        column("right", accepts.STRING),
        returns=fixed(dt.Float64()),
        nullable=always,
        summary="The Jaro-Winkler similarity of the two strings, from 0 to 1.",
    ),
    _entry(
        "randstr",
        either("length", accepts.INT32, int, literal=dt.Int32(), foldable=True, check=at_least(0), sample=5),
        either("seed", accepts.INTEGER, int, default=ABSENT, foldable=True, sample=7),
        nullable=never,
        deterministic=False,
        summary="A random string of ``length`` letters and digits (reproducible with ``seed``).",
    ),
    _entry(
        "sentences",
        column("string", accepts.STRING),
        column("language", accepts.STRING, default=ABSENT),
        column("country", accepts.STRING, default=ABSENT),
        returns=fixed(dt.List(dt.List(dt.String(), False), False)),
        nullable=always,
        samples=((Lit("Hi there. You, too!"),), (Lit("Hi there. You"), Lit("en"), Lit("US"))),
        summary="The sentences of the text, each a list of its words.",
    ),
    _entry(
        "to_binary",
        TEXT,
        column("format", accepts.STRING, default=ABSENT, foldable=True),
        returns=returns.BINARY,
        nullable=_to_binary_nullable,
        samples=((dt.String(), Lit("utf-8")), (dt.String(), Lit("base64")), (Lit("0aFF"), Lit("hex"))),
        summary="The bytes the string encodes in ``format`` (hex by default, utf-8, base64).",
    ),
    _entry(
        "try_to_binary",
        TEXT,
        column("format", accepts.STRING, default=ABSENT, foldable=True),
        returns=returns.BINARY,
        nullable=always,
        samples=((dt.String(), Lit("utf-8")), (dt.String(), Lit("hex")), (Lit("0aFF"), Lit("hex"))),
        summary="``to_binary``, NULL instead of an error for a malformed string.",
    ),
    _entry(
        "try_url_decode",
        column("str", accepts.STRING),
        nullable=always,
        samples=((Lit("a%20b+c"),), (Lit("%zz"),)),
        summary="Decoding of ``application/x-www-form-urlencoded``, NULL for a malformed string.",
    ),
    *(
        _entry(
            name,
            column("col", accepts.STRING),
            either(
                "format",
                accepts.STRING,
                str,
                check=_check_number_format,
                sample="S999.99",
                foldable=True,
                column_in_pyspark=True,
            ),
            returns=_number_of_format,
            check=_number_format_known,
            nullable=nullable,
            samples=(
                (Lit("$1,234.50"), "$9,999.99"),
                (Lit("-12.3"), "S99.9"),
                (Lit("0042"), "0000"),
                (Lit("12-"), "99MI"),
                (Lit("<5>"), "9PR"),
                ((dt.String(), True), "999"),
            ),
            samples_only=name == "to_number",  # the test frame's strings are no numbers: every row fails
            summary=summary,
        )
        for name, nullable, summary in (
            ("to_number", any_null, "The number a string holds, read by ``format``; an error if it holds none."),
            ("try_to_number", always, "``to_number``, NULL for a string that holds no number of the format."),
        )
    ),
    *(
        _entry(
            name,
            column("col", _TO_CHAR),
            column("format", accepts.STRING, foldable=True),
            samples=(
                (dt.Decimal(10, 2), Lit("S999.99")),
                (dt.Int64(), Lit("999")),
                ((dt.Int32(), True), Lit("0000")),
                (dt.Date(), Lit("yyyy-MM-dd")),
                (dt.Datetime(), Lit("HH:mm")),
                (dt.Binary(), Lit("hex")),
                (dt.Binary(), Lit("base64")),
            ),
            samples_only=True,
            summary=(
                "The value as text by a constant ``format``: a number format (``'S999.99'``), a datetime "
                "pattern, or ``'hex'``/``'base64'``/``'utf-8'`` for bytes."
            ),
        )
        for name in ("to_char", "to_varchar")
    ),
    *(
        _entry(
            name,
            column("input", decrypts),
            column("key", accepts.STRING_OR_BINARY),
            column("mode", accepts.STRING, default=ABSENT),
            column("padding", accepts.STRING, default=ABSENT),
            *((column("iv", accepts.STRING_OR_BINARY, default=ABSENT),) if name == "aes_encrypt" else ()),
            column("aad", accepts.STRING_OR_BINARY, default=ABSENT),
            returns=returns.BINARY,
            nullable=always,
            deterministic=name != "aes_encrypt",
            samples=((Lit(_CIPHER), Lit(_KEY), Lit("ECB")), (Lit(_CIPHER), Lit(_KEY), Lit("ECB"), Lit("PKCS"))),
            samples_only=True,
            summary=summary,
        )
        for name, decrypts, summary in (
            (
                "aes_encrypt",
                accepts.STRING_OR_BINARY,
                "The bytes (or the string's UTF-8) encrypted with AES (``mode`` GCM by default, a random IV).",
            ),
            ("aes_decrypt", accepts.BINARY, "The bytes AES ``aes_encrypt`` encrypted; an error for a wrong key."),
            ("try_aes_decrypt", accepts.BINARY, "``aes_decrypt``, NULL instead of an error."),
        )
    ),
    # --- predicates of the interface contract (``.str`` methods under its names) ---
    _entry(
        "str.is_empty_str",
        TEXT,
        returns=returns.BOOLEAN,
        in_f=False,
        methods=("str.is_empty_str",),
        template="({0} = '')",
        summary="Whether the string is empty (``''``); NULL where it is NULL.",
    ),
    _entry(
        "str.is_blank_str",
        TEXT,
        returns=returns.BOOLEAN,
        in_f=False,
        methods=("str.is_blank_str",),
        template=f"rlike({{0}}, {_constant_text(_BLANK)})",
        summary=(
            "Whether the string is empty or only whitespace (Java's ``\\s``: space, tab, newline, vertical tab, "
            "form feed, carriage return; not Unicode spaces such as U+00A0); NULL where it is NULL."
        ),
    ),
    _entry(
        "str.matches",
        TEXT,
        value("pattern", str, check=_a_pattern, sample="b+"),
        returns=returns.BOOLEAN,
        in_f=False,
        methods=("str.matches",),
        template="rlike({0}, {1})",
        summary=(
            "Whether the regular expression (Java's dialect, as Spark's ``rlike``) matches somewhere in the string; "
            "NULL where it is NULL."
        ),
    ),
    _entry(
        "str.is_null_or_empty_str",
        TEXT,
        returns=returns.BOOLEAN,
        nullable=never,
        in_f=False,
        methods=("str.is_null_or_empty_str",),
        template="(coalesce({0}, '') = '')",
        summary="Whether the string is NULL or empty (never NULL itself).",
    ),
)
