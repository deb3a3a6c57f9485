r"""Kernels of the catalog's JSON functions: JSON text read as Spark's Jackson reads it, and written as it writes it.

Reading (``get_json_object``, ``json_array_length``, ``json_object_keys``):
Spark's parser takes strict JSON plus two of Jackson's leniencies, single
quotes and raw control characters in strings; anything else (a trailing comma,
``NaN``, ``01``, ``\q``, a BOM) makes the value NULL. Only the first value is
read: text after it is ignored, except that a number at the top must be
followed by white space (``1x`` is no JSON). Nesting deeper than 1,000 and
numbers of more than 1,000 digits fail as Jackson's limits do. Measured on
Spark 4.3, and reproduced:

- ``get_json_object`` reads a path of ``$``, ``.name``, ``['name']``, ``[n]``
  and ``[*]`` (``.*`` and ``..`` never match); a string comes back as its
  text, anything else as compact JSON that Jackson writes again (``1.50`` is
  ``1.5``, ``1e2`` is ``100.0``, a character outside the BMP inside a string is
  ``\uD83D\uDE00``); a ``[*]`` that matches one value gives that value, not
  a list; JSON ``null`` at a key is NULL, elsewhere ``"null"``;
- ``json_object_keys`` keeps duplicate keys; an unpaired surrogate escape
  comes back as ``?`` (Java's UTF-8 encoder);
- ``to_json`` writes struct fields in order, NULL fields left out (Spark's
  ``ignoreNullFields`` default; NULLs in lists and map values are written),
  numbers, dates and timestamps as ``text_values`` does, bytes as base64.

>>> get_json_object_text('{"a":[{"b":1.50},{"b":"x"}]}', "$.a[*].b")
'[1.5,"x"]'
>>> json_array_length_of('[1, [2, 3], {"a": 4}] trailing')
3
"""

from __future__ import annotations

import base64
import re
import unicodedata
from typing import TYPE_CHECKING, Any, NoReturn

from pydantable_spark import dtypes as dt
from pydantable_spark.expr.core import Literal
from pydantable_spark.substrait.kernels.spec import Scalar, rows
from pydantable_spark.substrait.kernels.text_values import TEXT_TYPES, java_double, value_text

if TYPE_CHECKING:
    import datetime
    from collections.abc import Callable

    from pydantable_spark.expr.call import Call
    from pydantable_spark.substrait.kernels.spec import Site

__all__ = ["KERNELS", "get_json_object_text", "json_array_length_of", "parse", "quoted"]


class JsonError(Exception):
    """Text that Spark's Jackson parser fails on (the function gives NULL)."""


# --- reading --------------------------------------------------------------------------------------------------------

_MAX_DEPTH = 1000
"""Jackson's ``StreamReadConstraints``: 1,000 levels of lists and objects, numbers of 1,000 digits."""
_MAX_NUMBER_DIGITS = 1000
_SPACE = " \t\n\r"
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "'": "'"}
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE][+-]?([0-9]+))?")
_HEX = re.compile(r"[0-9a-fA-F]{4}")

Json = tuple[Any, ...]
"""A parsed value: ``("{", [(name, value)...])``, ``("[", [values])``, ``('"', text)``, ``("#", text, is_float)``,
``("true",)``, ``("false",)`` or ``("null",)``."""


def _identifier_part(char: str) -> bool:
    """Java's ``Character.isJavaIdentifierPart`` (what may not follow ``true``, ``false`` or ``null``)."""
    category = unicodedata.category(char)
    return (
        (category[0] in "LN" and category != "No")
        or category in ("Pc", "Sc", "Mn", "Mc", "Cf")
        or "\x00" <= char <= "\x08"
        or "\x0e" <= char <= "\x1b"
        or "\x7f" <= char <= "\x9f"
    )


class _Reader:
    """Jackson's reading of one JSON value (single quotes and raw control characters allowed)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def error(self, why: str) -> NoReturn:
        msg = f"{why} at {self.pos}"
        raise JsonError(msg)

    def space(self) -> str | None:
        """Skips white space; the next character (None at the end). Other control characters are errors."""
        text, pos = self.text, self.pos
        while pos < len(text):
            char = text[pos]
            if char not in _SPACE:
                if char < " ":
                    self.pos = pos
                    self.error("illegal control character")
                self.pos = pos
                return char
            pos += 1
        self.pos = pos
        return None

    def document(self) -> Json:
        """The first value (the caller has seen that there is one), read without recursion (1,000 levels deep)."""
        open_: list[tuple[str, list[Any]]] = []
        names: list[str] = []
        while True:
            char = self.space()
            if char is None:
                self.error("unexpected end")
            value: Json
            if char in "{[":
                if len(open_) >= _MAX_DEPTH:
                    self.error("nesting too deep")
                self.pos += 1
                close = "}" if char == "{" else "]"
                if self.space() == close:
                    self.pos += 1
                    value = (char, [])
                else:
                    open_.append((char, []))
                    if char == "{":
                        names.append(self.name())
                    continue
            else:
                value = self.scalar(root=not open_)
            while open_:
                kind, items = open_[-1]
                items.append(value if kind == "[" else (names.pop(), value))
                char = self.space()
                self.pos += 1
                if char == ",":
                    if kind == "{":
                        names.append(self.name())
                    break
                if char != ("]" if kind == "[" else "}"):
                    self.error("expected , or the end of a list or object")
                value = open_.pop()
            else:
                return value

    def name(self) -> str:
        """A field name (quoted, single quotes allowed) and its colon."""
        quote = self.space()
        if quote not in ('"', "'"):
            self.error("expected a field name")
        name = self.string(quote)
        if self.space() != ":":
            self.error("expected :")
        self.pos += 1
        return name

    def scalar(self, *, root: bool) -> Json:
        char = self.text[self.pos]
        if char in "\"'":
            return ('"', self.string(char))
        if char == "-" or "0" <= char <= "9":
            return self.number(root)
        for word in ("true", "false", "null"):
            if self.text.startswith(word, self.pos):
                self.pos += len(word)
                after = self.text[self.pos : self.pos + 1]
                if after and after >= "0" and after not in "]}" and _identifier_part(after):
                    self.error("unrecognized token")
                return (word,)
        self.error("unexpected character")

    def string(self, quote: str) -> str:
        r"""A quoted string's text; ``\uXXXX`` escapes kept as UTF-16 code units (surrogates paired later)."""
        text, pos = self.text, self.pos + 1
        parts: list[str] = []
        while True:
            end = pos
            while end < len(text) and text[end] != quote and text[end] != "\\":
                end += 1
            parts.append(text[pos:end])
            if end >= len(text):
                self.pos = end
                self.error("unterminated string")
            if text[end] == quote:
                self.pos = end + 1
                return "".join(parts)
            escaped = text[end + 1 : end + 2]
            if escaped == "u" and _HEX.fullmatch(text, end + 2, end + 6):
                parts.append(chr(int(text[end + 2 : end + 6], 16)))
                pos = end + 6
            elif escaped in _ESCAPES:
                parts.append(_ESCAPES[escaped])
                pos = end + 2
            else:
                self.pos = end
                self.error("unrecognized escape")

    def number(self, root: bool) -> Json:
        found = _NUMBER.match(self.text, self.pos)
        if found is None:
            self.error("bad number")
        end = found.end()
        following = self.text[end : end + 1]
        if following and following in "0123456789.eE":
            self.error("bad number")  # 01; 1. or 1e without digits; 1.5.3
        body = found.group(0).lstrip("-")
        digits = sum(c.isdigit() for c in body)
        if digits > _MAX_NUMBER_DIGITS:
            self.error("number too long")
        if root and following and following not in _SPACE:
            self.error("expected space after a root value")
        self.pos = end
        is_float = found.group(1) is not None or found.group(2) is not None
        return ("#", found.group(0), is_float)


def parse(text: str) -> Json | None:
    """The first JSON value of ``text`` as Spark's parser reads it (None: no value); ``JsonError`` where it fails."""
    reader = _Reader(text)
    if reader.space() is None:
        return None
    return reader.document()


# --- Java's strings ---------------------------------------------------------------------------------------------


def _units(text: str) -> list[int]:
    """A string as Java holds it: UTF-16 code units (a character outside the BMP is two surrogates)."""
    units: list[int] = []
    for char in text:
        point = ord(char)
        if point > 0xFFFF:
            units += [0xD800 + ((point - 0x10000) >> 10), 0xDC00 + ((point - 0x10000) & 0x3FF)]
        else:
            units.append(point)
    return units


def _paired(units: list[int], lone: Callable[[int], str]) -> str:
    """UTF-16 units as text: surrogates paired into their character, an unpaired one given to ``lone``."""
    out: list[str] = []
    i = 0
    while i < len(units):
        unit = units[i]
        if 0xD800 <= unit <= 0xDBFF and i + 1 < len(units) and 0xDC00 <= units[i + 1] <= 0xDFFF:
            out.append(chr(0x10000 + ((unit - 0xD800) << 10) + (units[i + 1] - 0xDC00)))
            i += 2
            continue
        out.append(lone(unit) if 0xD800 <= unit <= 0xDFFF else chr(unit))
        i += 1
    return "".join(out)


def java_text(text: str) -> str:
    """A Java string stored by Spark (``UTF8String.fromString``): surrogates paired, an unpaired one ``?``."""
    if not any("\ud800" <= c <= "\udfff" for c in text):
        return text
    return _paired(_units(text), lambda _: "?")


def _unpaired(unit: int) -> str:
    msg = f"split surrogate {unit:04X} written raw"
    raise JsonError(msg)


def utf8_raw(text: str) -> str:
    """Text Jackson's UTF-8 generator writes raw (``writeRaw``): surrogates paired; an unpaired one fails it."""
    if not any("\ud800" <= c <= "\udfff" for c in text):
        return text
    return _paired(_units(text), _unpaired)


_SHORT = {0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0C: "\\f", 0x0D: "\\r", 0x22: '\\"', 0x5C: "\\\\"}


def quoted(text: str, *, utf8: bool = False) -> str:
    r"""A string as Jackson writes it: ``"`` and ``\`` escaped, control characters as ``\n`` or ``\u001F``.

    ``utf8``: Jackson's generator of UTF-8 bytes (``get_json_object``'s) also escapes every surrogate,
    so a character outside the BMP is ``\uD83D\uDE00``; its generator of characters (``to_json``'s)
    writes it as it is.
    """
    out = ['"']
    for char in text:
        point = ord(char)
        if point in _SHORT:
            out.append(_SHORT[point])
        elif point < 0x20:
            out.append(f"\\u{point:04X}")
        elif utf8 and point >= 0xD800 and (point > 0xFFFF or point <= 0xDFFF):
            out += [f"\\u{unit:04X}" for unit in _units(char)]
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


# --- writing what was read (get_json_object) -----------------------------------------------------------------------


def _number_text(text: str, is_float: bool) -> str:
    """A number as Jackson copies it: a whole number exactly (``-0`` is ``0``), others as a double."""
    if not is_float:
        return str(int(text))
    value = float(text)
    written = java_double(value)
    return f'"{written}"' if value in (float("inf"), float("-inf")) else written


def compact(value: Json, *, utf8: bool) -> str:
    """A parsed value written again as Jackson copies it (``copyCurrentStructure``): compact (no recursion)."""
    out: list[str] = []
    pending: list[Json | str] = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        kind = item[0]
        if kind in "{[":
            out.append(kind)
            pending.append("}" if kind == "{" else "]")
            for i in range(len(item[1]) - 1, -1, -1):
                if kind == "{":
                    name, member = item[1][i]
                    pending += [member, quoted(name, utf8=utf8) + ":"]
                else:
                    pending.append(item[1][i])
                if i:
                    pending.append(",")
        elif kind == '"':
            out.append(quoted(item[1], utf8=utf8))
        elif kind == "#":
            out.append(_number_text(item[1], item[2]))
        else:
            out.append(kind)
    return "".join(out)


class _Writer:
    """Jackson's generator, as far as ``get_json_object`` uses it: values separated by commas inside a list.

    ``utf8``: the generator of UTF-8 bytes the result is written with (``False``: the generator of
    characters a ``[*]`` gathers its matches in first).
    """

    def __init__(self, *, utf8: bool) -> None:
        self.utf8 = utf8
        self.parts: list[str] = []
        self.counts: list[int] = []

    def _separate(self) -> None:
        if self.counts:
            if self.counts[-1]:
                self.parts.append(",")
            self.counts[-1] += 1

    def copy(self, value: Json) -> None:
        """``copyCurrentStructure``."""
        self._separate()
        self.parts.append(compact(value, utf8=self.utf8))

    def raw_value(self, text: str) -> None:
        """``writeRawValue``: text written as it is (as UTF-8 bytes: an unpaired surrogate fails)."""
        self._separate()
        self.parts.append(utf8_raw(text) if self.utf8 else text)

    def raw(self, text: str) -> None:
        """``writeRaw``: text written as it is, no separator."""
        self.parts.append(utf8_raw(text) if self.utf8 else text)

    def start_list(self) -> None:
        self._separate()
        self.parts.append("[")
        self.counts.append(0)

    def end_list(self) -> None:
        self.counts.pop()
        self.parts.append("]")

    def text(self) -> str:
        return "".join(self.parts)


KEY, SUBSCRIPT, WILDCARD = "key", "subscript", "wildcard"
RAW, QUOTED, FLATTEN = "raw", "quoted", "flatten"
_LONG_MAX = 2**63 - 1
_PATH_SPACE = " \t\n\x0b\f\r"
Step = tuple[str, Any]


def parse_path(path: str) -> list[Step] | None:
    """Spark's JSON path (``JsonPathParser``, Scala parser combinators): its steps, or None where it does not parse.

    ``$`` then any of ``.*``/``['*']`` (a wildcard), ``.name``, ``['name']``, ``[n]``, ``[*]``; the
    string parsers (``.*``, ``['``, ``']``, a name, a number) skip white space before them, the
    one-character ones (``$ . [ ] *``) do not.
    """
    if not path.startswith("$"):
        return None
    steps: list[Step] = []
    pos = 1

    def literal(at: int, text: str) -> int | None:
        while at < len(path) and path[at] in _PATH_SPACE:
            at += 1
        return at + len(text) if path.startswith(text, at) else None

    def pattern(at: int, regex: str) -> tuple[str, int] | None:
        while at < len(path) and path[at] in _PATH_SPACE:
            at += 1
        found = re.compile(regex).match(path, at)
        return (found.group(0), found.end()) if found else None

    while pos < len(path):
        wild = literal(pos, ".*") or literal(pos, "['*']")
        if wild is not None:
            steps.append((WILDCARD, None))
            pos = wild
            continue
        if path[pos] == ".":
            name = pattern(pos + 1, r"[^.\[]+")
            if name is not None:
                steps += [(KEY, None), ("named", name[0])]
                pos = name[1]
                continue
        opened = literal(pos, "['")
        if opened is not None:
            name = pattern(opened, r"[^']+")
            closed = literal(name[1], "']") if name is not None else None
            if name is not None and closed is not None:
                steps += [(KEY, None), ("named", name[0])]
                pos = closed
                continue
        if path[pos] == "[":
            if path.startswith("*]", pos + 1):
                steps += [(SUBSCRIPT, None), (WILDCARD, None)]
                pos += 3
                continue
            number = pattern(pos + 1, r"[0-9]+")
            if number is not None and int(number[0]) <= _LONG_MAX and path.startswith("]", number[1]):
                steps += [(SUBSCRIPT, None), ("index", int(number[0]))]
                pos = number[1] + 1
                continue
        trailing = pos
        while trailing < len(path) and path[trailing] in _PATH_SPACE:
            trailing += 1
        return steps if trailing == len(path) else None
    return steps


def _evaluate(value: Json | None, writer: _Writer, style: str, path: list[Step]) -> bool:
    """Spark's ``evaluatePath`` over a parsed value: whether something was written."""
    kind = value[0] if value is not None else None
    head = [s[0] for s in path[:4]]
    if not path:
        if kind == '"' and style == RAW:
            writer.raw(value[1])  # type: ignore[index]
            return True
        if kind == "[" and style == FLATTEN:  # lists within lists flatten all the way down
            dirty = False
            for item in value[1]:  # type: ignore[index]
                dirty |= _evaluate(item, writer, FLATTEN, [])
            return dirty
        if value is None:
            msg = "no current event to copy"
            raise JsonError(msg)
        writer.copy(value)
        return True
    if kind == "{" and head[0] == KEY:
        return _fields(value, writer, style, path[1:])  # type: ignore[arg-type]
    if kind == "[" and head[:2] == [SUBSCRIPT, WILDCARD]:
        return _wildcard(value, writer, style, path[2:])  # type: ignore[arg-type]
    if kind == "[" and head[:2] == [SUBSCRIPT, "index"]:
        items, index = value[1], path[1][1]  # type: ignore[index]
        if index >= len(items):
            return False
        quoted_after = head[2:4] == [SUBSCRIPT, WILDCARD]
        return _evaluate(items[index], writer, QUOTED if quoted_after else style, path[2:])
    return False


def _fields(value: Json, writer: _Writer, style: str, path: list[Step]) -> bool:
    """An object under ``.name``: the first field of that name whose value is not null and gives something."""
    return any(
        path[0] == ("named", name) and item[0] != "null" and _evaluate(item, writer, style, path[1:])
        for name, item in value[1]
    )


def _wildcard(value: Json, writer: _Writer, style: str, path: list[Step]) -> bool:
    """``[*]``: a list of the matches; two in a row flatten one level; one match alone (outermost) is unwrapped."""
    items = value[1]
    if path[:2] and [s[0] for s in path[:2]] == [SUBSCRIPT, WILDCARD]:
        dirty = False
        writer.start_list()
        for item in items:
            dirty |= _evaluate(item, writer, FLATTEN, path[2:])
        writer.end_list()
        return dirty
    if style != QUOTED:
        inner = _Writer(utf8=False)
        inner.start_list()
        matches = sum(_evaluate(item, inner, QUOTED if style == RAW else FLATTEN, path) for item in items)
        inner.end_list()
        text = inner.text()
        if matches > 1:
            writer.raw_value(text)
        elif matches == 1:
            writer.raw_value(text[1:-1])
        return matches > 0
    dirty = False
    writer.start_list()
    for item in items:
        dirty |= _evaluate(item, writer, QUOTED, path)
    writer.end_list()
    return dirty


def get_json_object_text(text: str, path: str) -> str | None:
    """``get_json_object(text, path)``."""
    steps = parse_path(path)
    return None if steps is None else _get(text, steps)


def _get(text: str, steps: list[Step]) -> str | None:
    try:
        value = parse(text)
        writer = _Writer(utf8=True)
        if not _evaluate(value, writer, RAW, steps):
            return None
    except JsonError:
        return None
    return writer.text()


def json_array_length_of(text: str) -> int | None:
    """``json_array_length``: the elements of the outermost list; NULL for other JSON and for text that is not JSON."""
    try:
        value = parse(text)
    except JsonError:
        return None
    return len(value[1]) if value is not None and value[0] == "[" else None


def json_object_keys_of(text: str) -> list[str] | None:
    """``json_object_keys``: the keys of the outermost object, in order, duplicates kept."""
    try:
        value = parse(text)
    except JsonError:
        return None
    return [java_text(name) for name, _ in value[1]] if value is not None and value[0] == "{" else None


def _get_json_object(site: Site) -> Callable[[str, str], str | None]:
    steps = parse_path(site.literals[1])
    if steps is None:
        return lambda text, _: None
    return lambda text, _: _get(text, steps)


# --- to_json ------------------------------------------------------------------------------------------------------


def json_writer(dtype: dt.DType, zone: datetime.tzinfo, *, ignore_null_fields: bool = True) -> Callable[[Any], str]:
    """The function writing a non-NULL value of ``dtype`` as Spark's ``to_json`` does."""
    if isinstance(dtype, dt.Struct):
        fields = [(quoted(f.name), json_writer(f.dtype, zone, ignore_null_fields=ignore_null_fields)) for f in dtype]

        def struct(row: dict[str, Any]) -> str:
            parts = [
                f"{name}:{'null' if v is None else write(v)}"
                for (name, write), v in zip(fields, row.values(), strict=True)
                if v is not None or not ignore_null_fields
            ]
            return "{" + ",".join(parts) + "}"

        return struct
    if isinstance(dtype, dt.Map):
        value = json_writer(dtype.value, zone, ignore_null_fields=ignore_null_fields)
        key = json_writer(dtype.key, zone)
        return lambda pairs: "{" + ",".join(f"{_as_name(key(k))}:{_or_null(value, v)}" for k, v in pairs) + "}"
    if isinstance(dtype, dt.List):
        element = json_writer(dtype.inner, zone, ignore_null_fields=ignore_null_fields)
        return lambda values: "[" + ",".join(_or_null(element, v) for v in values) + "]"
    return _atomic_writer(dtype, zone)


def _or_null(write: Callable[[Any], str], value: Any) -> str:
    return "null" if value is None else write(value)


def _as_name(written: str) -> str:
    return written if written.startswith('"') else quoted(written)


def _non_finite(text: str) -> str:
    return f'"{text}"' if text in ("NaN", "Infinity", "-Infinity") else text


def _atomic_writer(dtype: dt.DType, zone: datetime.tzinfo) -> Callable[[Any], str]:
    """JSON of an atomic value: ``value_text``, strings and dates quoted, NaN and the infinities too."""
    if isinstance(dtype, dt.Binary):
        return lambda v: '"' + base64.b64encode(v).decode("ascii") + '"'
    text = value_text(dtype, zone)
    if isinstance(dtype, dt.String):
        return quoted
    if isinstance(dtype, dt.Floating):
        return lambda v: _non_finite(text(v))
    if isinstance(dtype, dt.Date | dt.Datetime | dt.DatetimeNTZ):
        return lambda v: f'"{text(v)}"'
    return text


def _writable(dtype: dt.DType) -> bool:
    if isinstance(dtype, dt.Struct):
        return all(_writable(f.dtype) for f in dtype)
    if isinstance(dtype, dt.Map):
        return _writable(dtype.key) and _writable(dtype.value)
    if isinstance(dtype, dt.List):
        return _writable(dtype.inner)
    return isinstance(dtype, (*TEXT_TYPES, dt.Binary))


def _options(call: Call) -> dict[str, str]:
    given = call.args[1] if len(call.args) > 1 else None
    value = given.value if isinstance(given, Literal) else ()
    return {str(k).lower(): str(v) for k, v in value or ()}


def _ignore_null_fields(options: dict[str, str]) -> bool:
    return options.get("ignorenullfields", "true").lower() == "true"


def _refuse_to_json(call: Call) -> str | None:
    dtype = call.args[0].type.dtype
    if not _writable(dtype):
        return f"the local engine does not write {dtype} as JSON yet (to_json())"
    unknown = sorted(set(_options(call)) - {"ignorenullfields"})
    if unknown:
        return f"the local engine takes no to_json() option but ignoreNullFields (got {', '.join(unknown)})"
    value = _options(call).get("ignorenullfields", "true").lower()
    if value not in ("true", "false"):
        return f"to_json() option ignoreNullFields must be true or false; got {value!r}"
    return None


def _to_json(site: Site) -> Callable[..., str]:
    given = site.literals[1] if len(site.literals) > 1 else ()
    options = {str(k).lower(): str(v) for k, v in given or ()}
    write = json_writer(site.args[0].dtype, site.session.tzinfo, ignore_null_fields=_ignore_null_fields(options))
    return lambda value, *_: write(value)


KERNELS: tuple[Scalar, ...] = (
    Scalar("get_json_object", _get_json_object),
    Scalar("json_array_length", rows(json_array_length_of)),
    Scalar("json_object_keys", rows(json_object_keys_of)),
    Scalar("to_json", _to_json, refuse=_refuse_to_json),
)
"""The JSON kernels (``schema_of_json`` has none: Spark's inference is not reproduced)."""
