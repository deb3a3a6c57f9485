"""Kernels of the catalog's string functions: Spark's ``UTF8String`` and Java semantics, in Python.

Spark counts characters as code points (``length``, ``substring``,
``reverse``), compares and searches bytes (equal to code points for valid
UTF-8: every string the local engine holds is), and reaches Java for the rest:
``java.util.regex`` (``kernels.regex``), ``URLEncoder``, ``Base64``'s MIME
coder, ``DecimalFormat``. Where Java's Unicode tables (17: Unicode 13; ICU for
``upper``/``lower``: a newer one) may differ from Python's (Unicode 14), the
kernel refuses the characters concerned at run time (``NotImplementedError``)
rather than guess.

>>> substring_sql("Spark", -3, 2)
'ar'
>>> java_mime_base64_decode("QUI")
b'AB'
>>> format_number(2.675, 2), format_number(0.125, 2), format_number(-1234.5, 0)
('2.67', '0.12', '-1,234')
"""

from __future__ import annotations

import base64
import decimal
import math
import re
import unicodedata
from typing import TYPE_CHECKING, Any, NoReturn

from pydantable_spark import dtypes as dt
from pydantable_spark.expr.core import Literal
from pydantable_spark.substrait.kernels import formatter, number_format, regex
from pydantable_spark.substrait.kernels.spec import (
    CAST_OVERFLOW,
    INVALID_ARRAY_INDEX,
    NOT_LITERAL,
    Scalar,
    SparkError,
    rows,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from pydantable_spark.expr.call import Call
    from pydantable_spark.substrait.kernels.spec import Site

__all__ = ["KERNELS", "format_number", "java_mime_base64_decode", "substring_sql"]

INVALID_INDEX_OF_ZERO = "INVALID_INDEX_OF_ZERO"
REGEX_GROUP_INDEX = "INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX"
ESC_AT_THE_END = "INVALID_FORMAT.ESC_AT_THE_END"
ESC_IN_THE_MIDDLE = "INVALID_FORMAT.ESC_IN_THE_MIDDLE"
JAVA_ILLEGAL_ARGUMENT = "IllegalArgumentException"
CANNOT_DECODE_URL = "CANNOT_DECODE_URL"
CONVERSION_INVALID_INPUT = "CONVERSION_INVALID_INPUT"
INVALID_REGEXP_REPLACE = "INVALID_REGEXP_REPLACE"
MALFORMED_CHARACTER_CODING = "MALFORMED_CHARACTER_CODING"
MISMATCH_INPUT = "INVALID_FORMAT.MISMATCH_INPUT"
"""Spark's error classes these kernels raise (a Java exception Spark passes on unwrapped: its class name)."""

_INT_MAX = 2**31 - 1
_INT_MIN = -(2**31)

# --- shared rules ------------------------------------------------------------------------------


def substring_sql(text: str, pos: int, length: int = _INT_MAX) -> str:
    """Spark's ``substring``: 1-based ``pos`` (0 as 1, negative from the end), ``length`` code points."""
    size = len(text)
    start = pos - 1 if pos > 0 else (size + pos if pos < 0 else 0)
    end = max(min(start + length, _INT_MAX), _INT_MIN)
    start = max(start, 0)
    if start >= end:
        return ""
    return text[start:end]


def _literal_arg(call: Call, index: int) -> Any:
    """The value of the call's argument ``index`` if it is a literal (``NOT_LITERAL`` otherwise or when absent)."""
    if index < len(call.args) and isinstance(call.args[index], Literal):
        return call.args[index].value  # type: ignore[attr-defined]
    return NOT_LITERAL


def _unsupported(what: str) -> NoReturn:
    """Refuse, at run time, a value whose result the local engine cannot compute exactly as Spark."""
    msg = f"the local engine does not compute {what} as Spark does; run it on Spark"
    raise NotImplementedError(msg)


def _case_known(text: str) -> str:
    """``text`` if Python's case tables (Unicode 14) hold every character Spark's (ICU) maps; else refused."""
    if not text.isascii():
        for c in text:
            if unicodedata.category(c) == "Cn":
                msg = f"the case of U+{ord(c):04X} (a character Python's Unicode 14 tables do not have)"
                _unsupported(msg)
    return text


_NEW_IN_UNICODE_14 = (  # letters and digits Java 17 (Unicode 13) does not know: Character.getType differs
    (0x2C2F, 0x2C2F),
    (0x2C5F, 0x2C5F),
    (0xA7C0, 0xA7C1),
    (0xA7D0, 0xA7D9),
    (0x10570, 0x105BF),
    (0x16AC0, 0x16ACF),
    (0x1DF00, 0x1DFFF),
)


def _java_category(c: str) -> str:
    """Java 17's ``Character.getType`` of ``c``, as a Unicode category name (refused where 13 and 14 differ)."""
    category = unicodedata.category(c)
    code = ord(c)
    if category == "Cn" or (
        category in ("Lu", "Ll", "Lt", "Nd") and any(a <= code <= b for a, b in _NEW_IN_UNICODE_14)
    ):
        _unsupported(f"the Unicode category of U+{code:04X} (Java 17 reads Unicode 13)")
    return category


def _spark_upper(text: str) -> str:
    return _case_known(text).upper()


def _spark_lower(text: str) -> str:
    return _case_known(text).lower()


def _initcap(text: str) -> str:
    """Spark's ``initcap``: each character after a space (or first) in title case, the others in lower case."""
    lowered = _spark_lower(text)
    out: list[str] = []
    at = 0
    word_start = True
    for c in text:
        width = len(c.lower())
        out.append(c.title() if word_start else lowered[at : at + width])
        at += width
        word_start = c == " "
    return "".join(out)


def _utf8_length(value: str | bytes) -> int:
    return len(value.encode("utf-8")) if isinstance(value, str) else len(value)


# --- trimming, pieces ------------------------------------------------------------------------------


def _trim(side: str) -> Callable[[Site], Callable[..., Any]]:
    """``trim``/``ltrim``/``rtrim``/``btrim``: spaces only, or each code point of the second argument."""
    strip = {"both": str.strip, "left": str.lstrip, "right": str.rstrip}[side]

    def make(site: Site) -> Callable[..., Any]:
        return lambda text, chars=" ": strip(text, chars)

    return make


_EDGE_SPACE = regex.translate(r"^\s+|\s+$").pattern


def _replace_all(pattern: regex.Translated | Any, text: str, replacement: str | None, java_template: bool) -> str:
    """Every Java match of ``pattern`` in ``text`` replaced (``java_template``: ``$1`` expanded as Java does)."""
    compiled = pattern.pattern if isinstance(pattern, regex.Translated) else pattern
    out: list[str] = []
    last = 0
    for found in regex.find_all(compiled, text):
        out.append(text[last : found.start()])
        out.append(regex.expand(replacement or "", found) if java_template else (replacement or ""))
        last = found.end()
    out.append(text[last:])
    return "".join(out)


def _str_strip(site: Site) -> Callable[..., Any]:
    if len(site.args) == 1:  # regexp_replace(s, '^\s+|\s+$', '') with Java's \s and $
        return lambda text: _replace_all(_EDGE_SPACE, text, "", java_template=False)
    return lambda text, chars: text.strip(chars)


def _substr(site: Site) -> Callable[..., Any]:
    return lambda text, pos, length=_INT_MAX: substring_sql(text, pos, length)


def _str_slice(site: Site) -> Callable[..., Any]:
    return lambda text, offset, length=_INT_MAX: substring_sql(text, offset + 1 if offset >= 0 else offset, length)


def _left(text: str, length: int) -> str:
    return "" if length <= 0 else substring_sql(text, 1, length)


def _right(text: str, length: int) -> str:
    return "" if length <= 0 else substring_sql(text, -length, _INT_MAX)


def _substring_index(text: str, delim: str, count: int) -> str:
    """Spark's ``substring_index``: occurrences searched one code point after the last (they may overlap)."""
    if not delim or count == 0:
        return ""
    if count > 0:
        at = -1
        for _ in range(count):
            at = text.find(delim, at + 1)
            if at < 0:
                return text
        return text[:at]
    at = len(text) - len(delim) + 1  # an occurrence starting at or before at - 1, from the end
    for _ in range(-count):
        at = text.rfind(delim, 0, at - 1 + len(delim)) if at >= 1 else -1
        if at < 0:
            return text
    return text[at + len(delim) :]


def _split_part(text: str, delim: str, part: int) -> str:
    if part == 0:
        msg = "The index 0 is invalid. An index shall be either < 0 or > 0 (the first element has index 1)."
        raise SparkError(INVALID_INDEX_OF_ZERO, msg)
    parts = text.split(delim) if delim else [text]
    index = part - 1 if part > 0 else len(parts) + part
    return parts[index] if 0 <= index < len(parts) else ""


def _overlay(text: str, replace: str, pos: int, length: int = -1) -> str:
    size = length if length >= 0 else len(replace)
    return substring_sql(text, 1, pos - 1) + replace + substring_sql(text, pos + size, _INT_MAX)


def _repeat(text: str, times: int) -> str:
    if times <= 0:
        return ""
    if len(text.encode("utf-8")) * times > _INT_MAX:
        _unsupported("repeat() past 2 GiB (Java's array limit)")
    return text * times


def _pad(left: bool) -> Callable[[str, int, str], str]:
    def run(text: str, length: int, pad: str) -> str:
        spaces = length - len(text)
        if spaces <= 0 or not pad:
            return text[: max(length, 0)]
        filler = (pad * (spaces // len(pad) + 1))[:spaces]
        return filler + text if left else text + filler

    return run


def _pad_kept(left: bool) -> Callable[..., str]:
    pad = _pad(left)
    return lambda text, width, fill=" ": text if len(text) >= width else pad(text, width, fill)


def _concat(*values: Any) -> Any:
    if values and isinstance(values[0], list):
        return [item for value in values for item in value]
    return "".join(values)


def _concat_ws(separator: str | None, *values: Any) -> str | None:
    if separator is None:
        return None
    pieces: list[str] = []
    for value in values:
        if isinstance(value, list):
            pieces.extend(v for v in value if v is not None)
        elif value is not None:
            pieces.append(value)
    return separator.join(pieces)


def _locate(substr: str | None, text: str | None, start: int | None = 1) -> int | None:
    """Spark's ``locate``/``position``: 0 for a NULL start (Hive's rule), else NULL for a NULL string."""
    if start is None:
        return 0
    if substr is None or text is None:
        return None
    if start < 1:
        return 0
    if not substr:
        return 1
    return text.find(substr, start - 1) + 1


def _find_in_set(word: str, words: str) -> int:
    if "," in word:
        return 0
    for index, part in enumerate(words.split(",")):
        if part == word:
            return index + 1
    return 0


# --- patterns ------------------------------------------------------------------------------------


def _pattern_of(java: str) -> regex.Translated:
    """A column's pattern, translated for one row (refused at run time where it cannot be exactly)."""
    try:
        return regex.translate(java)
    except regex.Untranslatable as error:
        _unsupported(f"the regular expression {java!r}: {error}")


def _refuse_pattern(index: int) -> Callable[[Call], str | None]:
    """A ``refuse`` for a function whose argument ``index`` is a Java regex: a literal one must translate."""

    def refuse(call: Call) -> str | None:
        value = _literal_arg(call, index)
        if isinstance(value, str):
            try:
                regex.translate(value)
            except regex.Untranslatable as error:
                return f"{call.function.name}(): the local engine does not run this regular expression: {error}"
        return None

    return refuse


def _checked(translated: regex.Translated, text: str) -> re.Pattern[str]:
    """The compiled pattern, where it matches ``text`` as Java does (refused at run time otherwise)."""
    if not text.isascii():
        if translated.ascii_text:
            _unsupported("\\b or \\B on non-ASCII text (Java 17 reads Unicode letters as word characters there)")
        if translated.bmp_text and any(ord(c) > 0xFFFF for c in text):
            _unsupported(
                "this regular expression on text past U+FFFF (Java also searches from the middle of a surrogate pair, "
                "where it can match empty or a lone surrogate)"
            )
    return translated.pattern


def _regex_rows(function: Callable[..., Any], pattern_at: int = 1) -> Callable[[Site], Callable[..., Any]]:
    """A maker for ``function(compiled, text, *rest)`` where argument ``pattern_at`` is the Java regex."""

    def make(site: Site) -> Callable[..., Any]:
        def run(*values: Any) -> Any:
            text = values[0]
            translated = _pattern_of(values[pattern_at])
            rest = values[pattern_at + 1 :]
            return function(_checked(translated, text), text, *rest)

        return run

    return make


def _rlike(pattern: re.Pattern[str], text: str) -> bool:
    return pattern.search(text) is not None


def _regexp_count(pattern: re.Pattern[str], text: str) -> int:
    return sum(1 for _ in regex.find_all(pattern, text))


def _group_of(found: re.Match[str], index: int, name: str) -> str:
    groups = found.re.groups
    if index < 0 or index > groups:
        msg = (
            f"The value of parameter(s) `idx` in `{name}` is invalid: Expects group index between 0 and {groups}, "
            f"but got {index}."
        )
        raise SparkError(REGEX_GROUP_INDEX, msg)
    return found.group(index) or ""


def _regexp_extract(pattern: re.Pattern[str], text: str, index: int = 1) -> str:
    found = pattern.search(text)
    return "" if found is None else _group_of(found, index, "regexp_extract")


def _regexp_extract_all(pattern: re.Pattern[str], text: str, index: int = 1) -> list[str]:
    return [_group_of(found, index, "regexp_extract_all") for found in regex.find_all(pattern, text)]


def _regexp_instr(pattern: re.Pattern[str], text: str, index: int = 0) -> int:
    found = pattern.search(text)
    return 0 if found is None else found.start() + 1


def _regexp_substr(pattern: re.Pattern[str], text: str) -> str | None:
    found = pattern.search(text)
    return None if found is None or not found.group() else found.group()


def _str_extract(pattern: re.Pattern[str], text: str, index: int = 1) -> str | None:
    found = pattern.search(text)
    return None if found is None else _group_of(found, index, "regexp_extract")


def _regexp_replace(source: str, java: str, replacement: str, position: int = 1) -> str:
    """Spark's ``regexp_replace``: from code point ``position`` on (Java's region), ``$n`` as Java expands it."""
    start = position - 1
    if not (start == 0 or start < len(source)):
        return source
    tail = source[start:]
    translated = _pattern_of(java)
    try:
        return source[:start] + _replace_all(_checked(translated, tail), tail, replacement, java_template=True)
    except regex.ReplacementError as error:
        msg = (
            f'Could not perform regexp_replace for source = "{source}", pattern = "{java}", replacement = '
            f'"{replacement}" and position = {position}. ({error})'
        )
        raise SparkError(INVALID_REGEXP_REPLACE, msg) from error


def _replace(text: str, search: str, replace: str = "") -> str:
    return text.replace(search, replace) if search else text


def _str_replace(site: Site) -> Callable[..., Any]:
    literal = len(site.literals) > 3 and site.literals[3] is True
    if literal:
        return lambda text, search, value, *_: _replace(text, search, value)
    return lambda text, pattern, value, *_: _regexp_replace(text, pattern, value)


def _refuse_str_replace(call: Call) -> str | None:
    if _literal_arg(call, 3) is True:
        return None
    return _refuse_pattern(1)(call)


def _translate(text: str, matching: str, replace: str) -> str:
    table: dict[str, str] = {}
    for index, c in enumerate(matching):
        table.setdefault(c, replace[index] if index < len(replace) else "\0")
    return "".join(c if c not in table else ("" if table[c] == "\0" else table[c]) for c in text)


def _split(text: str, java: str, limit: int = -1) -> list[str]:
    """Spark's ``split``: an empty pattern splits between code points; else Java's ``String.split``."""
    if text and not java:
        count = len(text) if limit > len(text) or limit <= 0 else limit
        return [*text[: count - 1], text[count - 1 :]]
    translated = _pattern_of(java)
    return regex.split(_checked(translated, text), text, -1 if limit == 0 else limit)


def _str_split(text: str, separator: str) -> list[str]:
    quoted = "\\Q" + separator.replace("\\E", "\\E\\\\E\\Q") + "\\E"
    return _split(text, quoted, -1)


def _like_regex(pattern: str) -> re.Pattern[str]:
    r"""Spark's LIKE pattern (escape ``\``) as a Python regex matched whole, with Spark's errors."""
    out: list[str] = []
    at = 0
    while at < len(pattern):
        c = pattern[at]
        if c == "\\":
            if at + 1 == len(pattern):
                msg = f"The format is invalid: '{pattern}'. The escape character is not allowed to end with."
                raise SparkError(ESC_AT_THE_END, msg)
            nxt = pattern[at + 1]
            if nxt not in "_%\\":
                msg = f"The format is invalid: '{pattern}'. The escape character is not allowed to precede '{nxt}'."
                raise SparkError(ESC_IN_THE_MIDDLE, msg)
            out.append(re.escape(nxt))
            at += 2
            continue
        out.append("." if c == "_" else ".*" if c == "%" else re.escape(c))
        at += 1
    return re.compile("".join(out), re.DOTALL)


def _refuse_like(call: Call) -> str | None:
    value = _literal_arg(call, 1)
    if isinstance(value, str):
        try:
            _like_regex(value)
        except SparkError as error:
            return f"{call.function.name}(): Spark rejects this pattern: {error}"
    return None


def _like(text: str, pattern: str) -> bool:
    return _like_regex(pattern).fullmatch(text) is not None


def _ilike(text: str, pattern: str) -> bool:
    return _like(_spark_lower(text), _spark_lower(pattern))


# --- characters and encodings ------------------------------------------------------------------------


def _ascii(text: str) -> int:
    return ord(text[0]) if text else 0


def _char(site: Site) -> Callable[[Any], str]:
    given = site.args[0].dtype

    def run(value: Any) -> str:
        number = _to_long(value, given)
        if number < 0:
            return ""
        return chr(number & 0xFF)

    return run


def _to_long(value: Any, dtype: dt.DType) -> int:
    """An argument Spark casts to ``bigint`` for the function (ANSI: truncated, an error past its range)."""
    if isinstance(value, int):
        return value
    if (isinstance(value, float) and (math.isnan(value) or math.isinf(value))) or not (-(2**63) <= int(value) < 2**63):
        shown = f"{value!r}D" if isinstance(dtype, dt.Float64) else str(value)
        msg = (
            f'The value {shown} of the type "{dtype.sql_name}" cannot be cast to "BIGINT" due to an overflow. '
            "Use `try_cast` to tolerate overflow and return NULL instead."
        )
        raise SparkError(CAST_OVERFLOW, msg)
    return int(value)


def _base64(data: bytes) -> str:
    """Java's MIME encoder: lines of 76 characters separated by CRLF."""
    text = base64.b64encode(data).decode("ascii")
    return "\r\n".join(text[i : i + 76] for i in range(0, len(text), 76))


_FROM_BASE64 = {c: i for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")}


def java_mime_base64_decode(text: str) -> bytes:
    """Java's ``Base64.getMimeDecoder().decode``: characters outside the alphabet skipped; Java's errors."""
    data = text.encode("latin-1", errors="replace")
    out = bytearray()
    bits = 0
    shift = 18
    at = 0
    while at < len(data):
        c = chr(data[at])
        at += 1
        value = _FROM_BASE64.get(c)
        if value is None:
            if c == "=":
                if (shift == 6 and (at == len(data) or chr(data[at]) != "=")) or shift == 18:
                    _base64_error("Input byte array has wrong 4-byte ending unit")
                if shift == 6:
                    at += 1
                break
            continue
        bits |= value << shift
        shift -= 6
        if shift < 0:
            out += bytes(((bits >> 16) & 0xFF, (bits >> 8) & 0xFF, bits & 0xFF))
            shift = 18
            bits = 0
    if shift == 6:
        out.append((bits >> 16) & 0xFF)
    elif shift == 0:
        out += bytes(((bits >> 16) & 0xFF, (bits >> 8) & 0xFF))
    elif shift == 12:
        _base64_error("Last unit does not have enough valid bits")
    while at < len(data):
        if chr(data[at]) in _FROM_BASE64:
            _base64_error(f"Input byte array has incorrect ending byte at {at}")
        at += 1
    return bytes(out)


def _base64_error(message: str) -> None:
    raise SparkError(JAVA_ILLEGAL_ARGUMENT, message)


_SOUNDEX = "01230127022455012623017202"


def _soundex(text: str) -> str:
    """Spark's ``soundex`` over the UTF-8 bytes: a first byte that is no ASCII letter returns the text as is."""
    data = text.encode("utf-8")
    if not data:
        return ""
    first = chr(data[0]).upper() if data[0] < 128 else ""
    if not ("A" <= first <= "Z"):
        return text
    code = [first]
    last = _SOUNDEX[ord(first) - 65]
    for byte in data[1:]:
        letter = chr(byte).upper() if byte < 128 else ""
        if not ("A" <= letter <= "Z"):
            last = "0"
            continue
        digit = _SOUNDEX[ord(letter) - 65]
        if digit == "7":
            continue
        if digit not in ("0", last):
            code.append(digit)
            if len(code) > 3:
                break
        last = digit
    return "".join(code).ljust(4, "0")


def _levenshtein(left: str, right: str, threshold: int | None = None) -> int:
    previous = list(range(len(right) + 1))
    for i, a in enumerate(left, 1):
        current = [i]
        for j, b in enumerate(right, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a != b)))
        previous = current
    distance = previous[-1]
    return distance if threshold is None or distance <= threshold else -1


def _levenshtein_site(site: Site) -> Callable[..., Any]:
    return _levenshtein


def format_number(value: Any, places: int) -> str:
    """Java's ``DecimalFormat("#,##0.00…")`` (HALF_EVEN, US symbols) as Spark's ``format_number`` uses it.

    A double rounds from its shortest decimal text, a tie settled by its exact binary value (JDK 8+).
    """
    step = decimal.Decimal(1).scaleb(-places)
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        negative = value < 0 or (value == 0 and math.copysign(1.0, value) < 0)
        if math.isinf(value):
            return "-∞" if negative else "∞"
        try:
            shortest = decimal.Decimal(formatter.java_digits(value, fixed_places=places))
        except formatter.Unsupported as error:
            _unsupported(f"format_number() of {error}")
        rounded = shortest.quantize(step, rounding=decimal.ROUND_HALF_EVEN)
        if abs(shortest - rounded) * 2 == step:  # a tie in the digits: the binary value decides
            exact = decimal.Decimal(abs(value))
            if exact != shortest:
                mode = decimal.ROUND_UP if exact > shortest else decimal.ROUND_DOWN
                rounded = shortest.quantize(step, rounding=mode)
    else:
        number = decimal.Decimal(value)
        negative = number < 0
        rounded = abs(number).quantize(step, rounding=decimal.ROUND_HALF_EVEN, context=decimal.Context(prec=500))
    whole, _, fraction = f"{rounded:f}".partition(".")
    grouped = f"{int(whole):,}"
    return ("-" if negative else "") + grouped + (f".{fraction}" if places > 0 else "")


def _format_number(value: Any, places: int) -> str | None:
    return None if places < 0 else format_number(value, places)


_URL_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-*_")


def _url_encode(text: str) -> str:
    """Java's ``URLEncoder.encode(text, UTF-8)``: letters, digits and ``.-*_`` kept, space as ``+``."""
    out: list[str] = []
    for c in text:
        if c in _URL_SAFE:
            out.append(c)
        elif c == " ":
            out.append("+")
        else:
            out.append("".join(f"%{b:02X}" for b in c.encode("utf-8")))
    return "".join(out)


def _url_decode(text: str) -> str:
    """Java's ``URLDecoder.decode(text, UTF-8)``, failing as Spark does (``CANNOT_DECODE_URL``)."""
    out: list[str] = []
    at = 0
    while at < len(text):
        c = text[at]
        if c == "+":
            out.append(" ")
            at += 1
        elif c == "%":
            data = bytearray()
            while at + 2 < len(text) and text[at] == "%":
                data.append(_escape_value(text, text[at + 1 : at + 3]))
                at += 3
            if at < len(text) and text[at] == "%":
                _cannot_decode(text)
            out.append(data.decode("utf-8", errors="replace"))
        else:
            out.append(c)
            at += 1
    return "".join(out)


def _escape_value(text: str, digits: str) -> int:
    """``Integer.parseInt(digits, 16)`` as ``URLDecoder`` reads it (a sign is taken; negative fails)."""
    sign, body = (digits[0], digits[1:]) if digits[0] in "+-" else ("+", digits)
    if not body or not body.isascii() or any(d not in "0123456789abcdefABCDEF" for d in body):
        if not digits.isascii():
            _unsupported("url_decode() of a non-ASCII escape")
        _cannot_decode(text)
    value = int(body, 16)
    if sign == "-" and value != 0:
        _cannot_decode(text)
    return value


def _cannot_decode(text: str) -> None:
    msg = f"The provided URL cannot be decoded: {text}. Please ensure that the URL is properly formatted and try again."
    raise SparkError(CANNOT_DECODE_URL, msg)


def _try_url_decode(text: str) -> str | None:
    try:
        return _url_decode(text)
    except SparkError:
        return None


_CHARSETS = ("iso-8859-1", "us-ascii", "utf-16", "utf-16be", "utf-16le", "utf-32", "utf-8")


def _refuse_charset(call: Call) -> str | None:
    value = _literal_arg(call, 1)
    if not isinstance(value, str) or value.lower() not in _CHARSETS:
        return f"{call.function.name}(): the charset must be one of {', '.join(_CHARSETS)} (Spark rejects others)"
    return None


def _malformed(function: str, charset: str) -> SparkError:
    return SparkError(MALFORMED_CHARACTER_CODING, f"Invalid value found when performing `{function}` with {charset}")


_ENCODE, _DECODE = "encode", "decode"


def _encode(site: Site) -> Callable[..., Any]:
    charset = site.literals[1]
    name = charset.lower()

    def run(text: str, _: str) -> bytes:
        try:
            if name == "utf-16":  # Java: a big-endian byte order mark, none for no characters
                return b"\xfe\xff" + text.encode("utf-16-be") if text else b""
            if name == "utf-32":
                return text.encode("utf-32-be")
            return text.encode(name)
        except UnicodeEncodeError as error:
            raise _malformed(_ENCODE, charset) from error

    return run


def _decode(site: Site) -> Callable[..., Any]:
    charset = site.literals[1]
    name = charset.lower()

    def run(data: bytes, _: str) -> str:
        try:
            if name in ("utf-16", "utf-32"):  # Java: a byte order mark read and dropped, big-endian without one
                width = 2 if name == "utf-16" else 4
                big, little = (b"\xfe\xff", b"\xff\xfe") if width == 2 else (b"\0\0\xfe\xff", b"\xff\xfe\0\0")
                if data.startswith(big):
                    return data[width:].decode(f"{name}-be")
                if data.startswith(little):
                    return data[width:].decode(f"{name}-le")
                return data.decode(f"{name}-be")
            return data.decode(name)
        except UnicodeDecodeError as error:
            raise _malformed(_DECODE, charset) from error

    return run


_MASK_DEFAULTS = ("X", "x", "n", None)


def _mask(text: str | None, *given: str | None) -> str | None:
    """Spark's ``mask``: by Java's ``Character.getType``; a NULL replacement leaves its class as it is."""
    if text is None:
        return None
    upper, lower, digit, other = (*given, *_MASK_DEFAULTS[len(given) :])
    chosen_by = {"Lu": upper, "Ll": lower, "Nd": digit}
    out: list[str] = []
    for c in text:
        chosen = chosen_by.get(_java_category(c) if not c.isascii() else unicodedata.category(c), other)
        out.append(c if chosen is None else chosen)
    return "".join(out)


def _quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _elt(index: int | None, *values: str | None) -> str | None:
    if index is None:
        return None
    if not 1 <= index <= len(values):
        msg = (
            f"The index {index} is out of bounds. The array has {len(values)} elements. Use the SQL function "
            "`get()` to tolerate accessing element at invalid index and return NULL instead."
        )
        raise SparkError(INVALID_ARRAY_INDEX, msg)
    return values[index - 1]


_BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"


def _to_base32(value: str | bytes) -> str:
    data = value.encode("utf-8") if isinstance(value, str) else value
    return base64.b32encode(data).decode("ascii")


def _from_base32(text: str) -> bytes:
    """Commons Codec's lenient ``Base32.decode``: other characters skipped, stopping at ``=``.

    A final group of one character still gives a byte (its top three bits after the
    previous character's five), as Commons Codec's decoder falls through to the
    two-character case.
    """
    bits = 0
    count = 0
    for c in text:
        if c == "=":
            break
        value = _BASE32.find(c.upper()) if c.isascii() and c.isalnum() else -1
        if value >= 0:
            bits = bits << 5 | value
            count += 1
    whole, rest = divmod(count, 8)
    out = (bits >> 5 * rest).to_bytes(5 * whole, "big") if whole else b""
    if rest == 1:
        return out + bytes([(bits >> 2) & 0xFF])
    kept = 5 * rest // 8  # the bytes the last group's bits fill; the bits left over are dropped
    return out + ((bits >> (5 * rest - 8 * kept)) & ((1 << 8 * kept) - 1)).to_bytes(kept, "big")


def _jaro_winkler(left: str, right: str) -> float:
    """Commons Text's ``JaroWinklerSimilarity`` over UTF-16 code units, as Spark calls it."""
    if left == right:
        return 1.0
    a, b = _utf16_units(left), _utf16_units(right)
    longer, shorter = (a, b) if len(a) > len(b) else (b, a)
    reach = max(len(longer) // 2 - 1, 0)
    taken = [False] * len(longer)
    matched: list[int] = []
    for i, unit in enumerate(shorter):
        for j in range(max(i - reach, 0), min(i + reach + 1, len(longer))):
            if not taken[j] and unit == longer[j]:
                taken[j] = True
                matched.append(i)
                break
    matches = len(matched)
    if matches == 0:
        return 0.0
    first = [shorter[i] for i in matched]
    second = [longer[j] for j in range(len(longer)) if taken[j]]
    half_transpositions = sum(1 for x, y in zip(first, second, strict=True) if x != y)
    prefix = 0
    for x, y in zip(a[: min(4, len(shorter))], b, strict=False):
        if x != y:
            break
        prefix += 1
    m = float(matches)
    jaro = (m / len(a) + m / len(b) + (m - half_transpositions / 2) / m) / 3
    return jaro + 0.1 * prefix * (1.0 - jaro)


def _utf16_units(text: str) -> list[int]:
    data = text.encode("utf-16-le")
    return [data[i] | data[i + 1] << 8 for i in range(0, len(data), 2)]


def _to_binary(site: Site) -> Callable[..., Any]:
    form = str(site.literals[1]).lower() if len(site.literals) > 1 else "hex"
    if form in ("utf-8", "utf8"):
        return lambda text, *_: text.encode("utf-8")
    return lambda text, *_: _unhex(text)


def _unhex(text: str) -> bytes:
    digits = text if len(text) % 2 == 0 else "0" + text
    try:
        if not digits.isascii() or any(c not in "0123456789abcdefABCDEF" for c in digits):
            raise ValueError(text)
        return bytes.fromhex(digits)
    except ValueError as error:
        msg = (
            f"The value '{text}' ('HEX') cannot be converted to \"BINARY\" because it is malformed. Correct the value "
            "as per the syntax, or change its format. Use `try_to_binary` to tolerate malformed input and return NULL "
            "instead."
        )
        raise SparkError(CONVERSION_INVALID_INPUT, msg) from error


def _try_to_binary(site: Site) -> Callable[..., Any]:
    convert = _to_binary(site)

    def run(text: str, *rest: Any) -> bytes | None:
        try:
            return convert(text, *rest)  # type: ignore[no-any-return]
        except SparkError:
            return None

    return run


def _refuse_binary_format(call: Call) -> str | None:
    if len(call.args) < 2:
        return None
    value = _literal_arg(call, 1)
    if not isinstance(value, str) or value.lower() not in ("hex", "utf-8", "utf8"):
        return f"{call.function.name}(): the local engine converts the formats hex and utf-8, not {value!r}"
    return None


def _format_kind(dtype: dt.DType) -> str | None:
    """The name ``formatter`` knows a SQL type by (None: a type whose Java value it does not print)."""
    kinds: dict[type[dt.DType], str] = {
        dt.String: "string",
        dt.Boolean: "boolean",
        dt.Int8: "tinyint",
        dt.Int16: "smallint",
        dt.Int32: "int",
        dt.Int64: "bigint",
        dt.Float32: "float",
        dt.Float64: "double",
        dt.Decimal: "decimal",
        dt.Date: "date",
        dt.Datetime: "timestamp",
        dt.DatetimeNTZ: "timestamp",
    }
    return kinds.get(type(dtype))


def _refuse_format(call: Call) -> str | None:
    name = call.function.name
    for arg in call.args[1:]:
        if _format_kind(arg.type.dtype) is None:
            return f"{name}(): the local engine does not format a {arg.type.dtype.sql_name} as Java prints it"
    value = _literal_arg(call, 0)
    if isinstance(value, str):
        try:
            formatter.parse(value)
        except formatter.Unsupported as error:
            return f"{name}(): {error}"
    return None


def _format_string(site: Site) -> Callable[..., Any]:
    kinds = [_format_kind(t.dtype) or "" for t in site.args[1:]]

    def run(pattern: str | None, *values: Any) -> str | None:
        if pattern is None:
            return None
        try:
            return formatter.render(formatter.parse(pattern), list(values), kinds)
        except formatter.Unsupported as error:
            _unsupported(f"the format {pattern!r}: {error}")

    return run


def _to_char(site: Site) -> Callable[..., Any]:
    """``to_char`` of bytes: upper-case hex, MIME base64 (as ``base64``) or the UTF-8 text (an error if invalid)."""
    form = str(site.literals[1]).lower()
    if form == "hex":
        return lambda data, _: data.hex().upper()
    if form == "base64":
        return lambda data, _: _base64(data)

    def run(data: bytes, _: str) -> str:
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise _malformed(_DECODE, "utf-8") from error

    return run


def _refuse_to_char(call: Call) -> str | None:
    if not isinstance(call.args[0].type.dtype, dt.Binary):
        what = call.args[0].type.dtype.sql_name
        return (
            f"{call.function.name}(): the local engine formats bytes only, not a {what} (number and datetime formats)"
        )
    value = _literal_arg(call, 1)
    if not isinstance(value, str) or value.lower() not in ("hex", "base64", "utf-8"):
        return f"{call.function.name}(): bytes are formatted as 'hex', 'base64' or 'utf-8' (Spark rejects {value!r})"
    return None


def _refuse_number_format(call: Call) -> str | None:
    value = _literal_arg(call, 1)
    problem = number_format.NumberFormat(value).problem if isinstance(value, str) else "not a literal"
    if problem is not None:
        return f"{call.function.name}(): Spark rejects the format {value!r} ({problem})"
    return None


def _to_number(fails: bool) -> Callable[[Site], Callable[..., Any]]:
    """``to_number`` (an error where the text does not match, with ``fails``) or ``try_to_number`` (NULL)."""

    def make(site: Site) -> Callable[..., Any]:
        pattern = str(site.literals[1])
        parsed = number_format.NumberFormat(pattern)

        def run(text: str, _: str) -> decimal.Decimal | None:
            try:
                value = number_format.read(parsed, text)
            except ValueError as error:
                _unsupported(f"to_number() of {text!r} ({error})")
            if value is None and fails:
                msg = f'The format is invalid: {pattern}. The input "STRING" {text} does not match the format.'
                raise SparkError(MISMATCH_INPUT, msg)
            return value

        return run

    return make


def _blank(text: str) -> bool:
    return text.strip(" \t\n\x0b\x0c\r") == ""


def _matches(site: Site) -> Callable[..., Any]:
    translated = regex.translate(site.literals[1])
    return lambda text, _: _checked(translated, text).search(text) is not None


def _null_or_empty(text: str | None) -> bool:
    return not text


KERNELS = (
    Scalar("upper", rows(_spark_upper)),
    Scalar("lower", rows(_spark_lower)),
    Scalar("initcap", rows(_initcap)),
    Scalar("length", rows(len)),
    Scalar("bit_length", rows(lambda value: 8 * _utf8_length(value))),
    Scalar("octet_length", rows(_utf8_length)),
    Scalar("trim", _trim("both")),
    Scalar("ltrim", _trim("left")),
    Scalar("rtrim", _trim("right")),
    Scalar("btrim", _trim("both")),
    Scalar("str.strip", _str_strip),
    Scalar("substring", _substr),
    Scalar("substr", _substr),
    Scalar("str.slice", _str_slice),
    Scalar("left", rows(_left)),
    Scalar("right", rows(_right)),
    Scalar("substring_index", rows(_substring_index)),
    Scalar("split_part", rows(_split_part)),
    Scalar("overlay", rows(_overlay)),
    Scalar("repeat", rows(_repeat)),
    Scalar("reverse", rows(lambda value: value[::-1])),
    Scalar("lpad", rows(_pad(left=True))),
    Scalar("rpad", rows(_pad(left=False))),
    Scalar("str.pad_start", rows(_pad_kept(left=True))),
    Scalar("str.pad_end", rows(_pad_kept(left=False))),
    Scalar("concat", rows(_concat)),
    Scalar("concat_ws", rows(_concat_ws), strict=False),
    Scalar("contains", rows(lambda text, part: part in text)),
    Scalar("startswith", rows(lambda text, prefix: text.startswith(prefix))),
    Scalar("endswith", rows(lambda text, suffix: text.endswith(suffix))),
    Scalar("instr", rows(lambda text, part: text.find(part) + 1)),
    Scalar("locate", rows(_locate), strict=False),
    Scalar("position", rows(_locate), strict=False),
    Scalar("find_in_set", rows(_find_in_set)),
    Scalar("like", rows(_like), refuse=_refuse_like),
    Scalar("ilike", rows(_ilike), refuse=_refuse_like),
    Scalar("rlike", _regex_rows(_rlike), refuse=_refuse_pattern(1)),
    Scalar("regexp_count", _regex_rows(_regexp_count), refuse=_refuse_pattern(1)),
    Scalar("regexp_extract", _regex_rows(_regexp_extract), refuse=_refuse_pattern(1)),
    Scalar("regexp_extract_all", _regex_rows(_regexp_extract_all), refuse=_refuse_pattern(1)),
    Scalar("regexp_instr", _regex_rows(_regexp_instr), refuse=_refuse_pattern(1)),
    Scalar("regexp_substr", _regex_rows(_regexp_substr), refuse=_refuse_pattern(1)),
    Scalar("str.extract", _regex_rows(_str_extract), refuse=_refuse_pattern(1)),
    Scalar("regexp_replace", rows(_regexp_replace), refuse=_refuse_pattern(1)),
    Scalar("replace", rows(_replace)),
    Scalar("str.replace", _str_replace, refuse=_refuse_str_replace),
    Scalar("translate", rows(_translate)),
    Scalar("split", rows(_split), refuse=_refuse_pattern(1)),
    Scalar("str.split", rows(_str_split)),
    Scalar("ascii", rows(_ascii)),
    Scalar("char", _char),
    Scalar("base64", rows(_base64)),
    Scalar("unbase64", rows(java_mime_base64_decode)),
    Scalar("soundex", rows(_soundex)),
    Scalar("levenshtein", _levenshtein_site),
    Scalar("format_number", rows(_format_number)),
    Scalar("format_string", _format_string, strict=False, refuse=_refuse_format),
    Scalar("printf", _format_string, strict=False, refuse=_refuse_format),
    Scalar("url_encode", rows(_url_encode)),
    Scalar("url_decode", rows(_url_decode)),
    Scalar("try_url_decode", rows(_try_url_decode)),
    Scalar("encode", _encode, refuse=_refuse_charset),
    Scalar("decode", _decode, refuse=_refuse_charset),
    Scalar("mask", rows(_mask), strict=False),
    Scalar("quote", rows(_quote)),
    Scalar("elt", rows(_elt), strict=False),
    Scalar("to_base32", rows(_to_base32)),
    Scalar("from_base32", rows(_from_base32)),
    Scalar("is_valid_utf8", rows(lambda text: True)),  # the local engine's strings are valid UTF-8 (Arrow checks)
    Scalar("validate_utf8", rows(lambda text: text)),
    Scalar("try_validate_utf8", rows(lambda text: text)),
    Scalar("make_valid_utf8", rows(lambda text: text)),
    Scalar("jaro_winkler_similarity", rows(_jaro_winkler)),
    Scalar("to_binary", _to_binary, refuse=_refuse_binary_format),
    Scalar("try_to_binary", _try_to_binary, refuse=_refuse_binary_format),
    Scalar("to_number", _to_number(fails=True), refuse=_refuse_number_format),
    Scalar("try_to_number", _to_number(fails=False), refuse=_refuse_number_format),
    Scalar("to_char", _to_char, refuse=_refuse_to_char),
    Scalar("to_varchar", _to_char, refuse=_refuse_to_char),
    Scalar("str.is_empty_str", rows(lambda text: text == "")),
    Scalar("str.is_blank_str", rows(_blank)),
    Scalar("str.matches", _matches, refuse=_refuse_pattern(1)),
    Scalar("str.is_null_or_empty_str", rows(_null_or_empty), strict=False),
)
"""The string functions the local engine computes as Spark does (see the module's docstring for what is refused)."""
