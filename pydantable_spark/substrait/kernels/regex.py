r"""Java's regular expressions (``java.util.regex``, as Spark runs them) in Python's ``re``, exactly or not at all.

Spark's ``rlike``, ``regexp_*`` and ``split`` compile their pattern with
``java.util.regex.Pattern``. ``translate`` rewrites a Java pattern into a
Python one whose matches are the same, construct by construct, and raises
``Untranslatable`` naming the first construct it cannot carry over exactly:

- ``.`` excludes ``\n``, ``\r``, ``\u0085``, ``\u2028`` and ``\u2029`` (any
  character under ``(?s)``); ``$`` matches at the end and before a final line
  terminator (``\r\n`` or one of those), ``^``/``$`` under ``(?m)`` at each
  of them (never between ``\r`` and ``\n``; ``^`` never at the very end);
- ``\w``, ``\d``, ``\s`` and ``(?i)`` are ASCII, as in Java (Python's
  ``re.ASCII``); ``\h``, ``\v``, ``\R`` and the POSIX classes (``\p{Alpha}``...)
  are written out;
- ``\b``/``\B``: Java 17 counts Unicode letters and digits as word characters
  there; the translation is exact for ASCII text, and ``Translated.ascii_text``
  tells the caller to refuse other text;
- refused: Unicode properties and scripts (``\p{L}``, whose tables differ
  between Java 17 and Python), nested classes and ``&&``, ``\G``, ``\X``,
  ``\c``, the flags ``d``/``u``/``U``/``x``/``c``, and what Java itself rejects.

How Java iterates matches (``find``), expands a replacement (``$1``,
``${name}``, ``\$``) and splits is here too (``find_all``, ``expand``,
``split``), since Python's ``finditer``/``sub``/``split`` differ after an
empty match.

>>> translate(r"a.c$").pattern.pattern
'a[^\\n\\r\\u0085\\u2028\\u2029]c(?=(?:\\r\\n|(?<!\\r)\\n|[\\r\\u0085\\u2028\\u2029])?\\Z)'
>>> [m.group() for m in find_all(translate("a*").pattern, "baa")]
['', 'aa', '']
>>> split(translate(",").pattern, "a,b,", -1)
['a', 'b', '']
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["ReplacementError", "Translated", "Untranslatable", "expand", "find_all", "split", "translate"]


class Untranslatable(ValueError):
    """A Java pattern (or a part of it) that Python's ``re`` cannot run with Java's meaning."""


class ReplacementError(ValueError):
    """A replacement string Java's ``Matcher.appendReplacement`` rejects (``$`` without a group...)."""


@dataclass(frozen=True, slots=True)
class Translated:
    r"""A Java pattern compiled for Python, and the texts on which the two agree.

    ``ascii_text``: exact only on ASCII text (``\b`` in Java 17). ``bmp_text``:
    exact only on text without characters past U+FFFF, because Java searches
    from every UTF-16 unit, the middle of a surrogate pair included, where this
    pattern may match (it can match empty, or a lone surrogate: ``.``, a negated
    class).
    """

    pattern: re.Pattern[str]
    ascii_text: bool
    bmp_text: bool


_TERMINATORS = "\\n\\r\\u0085\\u2028\\u2029"
_DOT = f"[^{_TERMINATORS}]"
_END = "(?=(?:\\r\\n|(?<!\\r)\\n|[\\r\\u0085\\u2028\\u2029])?\\Z)"  # Java's $ (and \Z)
_END_MULTILINE = "(?:(?=[\\r\\u0085\\u2028\\u2029])|(?<!\\r)(?=\\n)|\\Z)"
_START_MULTILINE = "(?!\\Z)(?:\\A|(?<=[\\n\\u0085\\u2028\\u2029])|(?<=\\r)(?!\\n))"

_SETS = {  # Java's class escapes with no Python spelling of the same meaning, as class contents
    "h": "\\t \\xa0\\u1680\\u180e\\u2000-\\u200a\\u202f\\u205f\\u3000",
    "v": "\\n\\x0b\\x0c\\r\\x85\\u2028\\u2029",
}
_POSIX = {  # \p{Name}: ASCII classes unless UNICODE_CHARACTER_CLASS (refused)
    "Lower": "a-z",
    "Upper": "A-Z",
    "ASCII": "\\x00-\\x7f",
    "Alpha": "a-zA-Z",
    "Digit": "0-9",
    "Alnum": "a-zA-Z0-9",
    "Punct": "!-/:-@\\[-`{-~",
    "Graph": "!-~",
    "Print": " -~",
    "Blank": " \\t",
    "Cntrl": "\\x00-\\x1f\\x7f",
    "XDigit": "0-9a-fA-F",
    "Space": " \\t\\n\\x0b\\x0c\\r",
}
_SIMPLE_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f", "a": "\a", "e": "\x1b"}
_META = set("\\^$.|?*+()[]{}")


def _char(code: int) -> str:
    """One code point as a Python pattern literal (inside or outside a class)."""
    text = chr(code)
    if text.isalnum() and code < 128:
        return text
    return f"\\x{code:02x}" if code < 0x100 else f"\\U{code:08x}"


class _Reader:
    """Walks a Java pattern and writes the Python one (one instance per translation)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0
        self.groups = 0
        self.names: list[str] = []
        self.ascii_text = False
        self.bmp_text = False
        self.empty = False  # whether the atom or sequence just read can match the empty string

    def fail(self, what: str) -> NoReturn:
        msg = f"{what} (at offset {self.at} of the pattern {self.text!r})"
        raise Untranslatable(msg)

    def peek(self, ahead: int = 0) -> str:
        index = self.at + ahead
        return self.text[index] if index < len(self.text) else ""

    def take(self) -> str:
        if self.at >= len(self.text):
            self.fail("the pattern ends too early (Java rejects it)")
        found = self.text[self.at]
        self.at += 1
        return found

    # --- sequences and groups ---------------------------------------------------------------

    def sequence(self, flags: frozenset[str], depth: int) -> str:
        """Alternatives up to the closing ``)`` of this depth (or the end); flags change in place.

        Leaves in ``self.empty`` whether the alternatives can match the empty string.
        """
        out: list[str] = []
        atom_end = False  # whether the last piece written can take a quantifier
        before_last = True  # whether every atom of this alternative before the last one can match empty
        last = True  # whether the last atom can (True before any)
        empty = False
        while self.at < len(self.text):
            c = self.peek()
            if c == ")":
                if depth == 0:
                    self.fail("an unmatched ')' (Java rejects it)")
                break
            if c == "|":
                self.at += 1
                empty |= before_last and last
                before_last, last = True, True
                out.append("|")
                atom_end = False
                continue
            if c in "*+?{":
                if not atom_end:
                    self.fail(f"a quantifier {c!r} with nothing to repeat (Java rejects it)")
                written, optional = self.quantifier()
                out.append(written)
                last |= optional
                atom_end = False
                continue
            if c == "(" and self.peek(1) == "?" and self._is_flag_group():
                flags = self._flags(flags)
                if self.peek() == ":":  # (?i:...) a group under the flags
                    self.at += 1
                    out.append(f"(?:{self.sequence(flags, depth + 1)})")
                    self._close()
                    before_last, last = before_last and last, self.empty
                    atom_end = True
                    continue
                self._close()  # (?i) from here to the end of the enclosing group
                atom_end = False
                continue
            piece, atom_end = self.atom(flags, depth)
            before_last, last = before_last and last, self.empty
            out.append(piece)
        self.empty = empty or (before_last and last)
        return "".join(out)

    def _is_flag_group(self) -> bool:
        index = self.at + 2
        while index < len(self.text) and (self.text[index].isalpha() or self.text[index] == "-"):
            index += 1
        return index > self.at + 2 and index < len(self.text) and self.text[index] in ":)"

    def _flags(self, flags: frozenset[str]) -> frozenset[str]:
        self.at += 2
        on = True
        current = set(flags)
        while self.peek() not in (":", ")"):
            c = self.take()
            if c == "-":
                on = False
                continue
            if c not in "ims":
                self.fail(f"the flag (?{c}) (only i, m and s are translated)")
            if on:
                current.add(c)
            else:
                current.discard(c)
        return frozenset(current)

    def _close(self) -> None:
        if self.take() != ")":
            self.fail("an unclosed group (Java rejects it)")

    def atom(self, flags: frozenset[str], depth: int) -> tuple[str, bool]:
        c = self.take()
        if c == "(":
            return self.group(flags, depth), True
        self.empty = c in "^$"
        if c == ".":
            return ("(?s:.)" if "s" in flags else _DOT), True
        if c == "^":
            return (_START_MULTILINE if "m" in flags else "\\A"), False
        if c == "$":
            return (_END_MULTILINE if "m" in flags else _END), False
        if c == "[":
            return self.char_class(flags), True
        if c == "\\":
            return self.escape(flags)
        return self.literal(ord(c), flags), True

    def group(self, flags: frozenset[str], depth: int) -> str:
        if self.peek() != "?":
            self.groups += 1
            inner = self.sequence(flags, depth + 1)
            self._close()
            return f"({inner})"
        self.at += 1
        c = self.take()
        if c == "<" and self.peek() not in ("=", "!"):
            name = ""
            while self.peek() not in (">", ""):
                name += self.take()
            self.take()
            if not (name[:1].isascii() and name[:1].isalpha() and name.isascii() and name.isalnum()):
                self.fail(f"the group name {name!r} (Java takes ASCII letters then digits)")
            self.groups += 1
            self.names.append(name)
            inner = self.sequence(flags, depth + 1)
            self._close()
            return f"(?P<{name}>{inner})"
        prefixes = {":": "(?:", "=": "(?=", "!": "(?!", ">": "(?>"}
        around = c in "=!<"
        if c == "<":
            prefix = "(?<" + self.take()
        elif c in prefixes:
            prefix = prefixes[c]
        else:
            self.fail(f"the group (?{c}")
        inner = self.sequence(flags, depth + 1)
        self._close()
        if around:  # empty itself; from the middle of a surrogate pair it may see a lone surrogate
            self.empty = True
            self.bmp_text = True
        return f"{prefix}{inner})"

    def quantifier(self) -> tuple[str, bool]:
        c = self.take()
        if c == "{":
            start = self.at
            while self.peek().isdigit() or self.peek() == ",":
                self.at += 1
            body = self.text[start : self.at]
            if self.take() != "}" or not re.fullmatch(r"\d+(,\d*)?", body):
                self.fail("a repetition other than {n}, {n,} or {n,m} (Java rejects it)")
            low, _, high = body.partition(",")
            if high and int(high) < int(low):
                self.fail("a repetition {n,m} with m < n (Java rejects it)")
            written = "{" + body + "}"
            optional = int(low) == 0
        else:
            written = c
            optional = c in "*?"
        if self.peek() in ("?", "+"):
            written += self.take()
        if self.peek() in ("*", "+", "?", "{") and self.peek() != "":
            self.fail("a quantifier after a quantifier")
        return written, optional

    # --- characters ---------------------------------------------------------------------

    def literal(self, code: int, flags: frozenset[str]) -> str:
        if "i" in flags and chr(code).isascii() and chr(code).isalpha():
            return f"[{chr(code).lower()}{chr(code).upper()}]"
        return _char(code)

    def code_escape(self, c: str) -> int | None:
        r"""The code point of ``\t``, ``\x41``, ``\u0041``, ``\x{1F600}``, ``\0101`` (None: another escape)."""
        if c in _SIMPLE_ESCAPES:
            return ord(_SIMPLE_ESCAPES[c])
        if c == "x":
            if self.peek() == "{":
                self.at += 1
                digits = ""
                while self.peek() not in ("}", ""):
                    digits += self.take()
                self.take()
                return self._hex(digits, 1, 8)
            return self._hex(self.take() + self.take(), 2, 2)
        if c == "u":
            code = self._hex("".join(self.take() for _ in range(4)), 4, 4)
            if 0xD800 <= code <= 0xDFFF:
                self.fail("a surrogate \\u escape (Java pairs them; not translated)")
            return code
        if c == "0":
            digits = ""
            while self.peek() in tuple("01234567") and len(digits) < 3:
                candidate = digits + self.peek()
                if int(candidate, 8) > 0o377:
                    break
                digits = candidate
                self.at += 1
            if not digits:
                self.fail("\\0 without octal digits (Java rejects it)")
            return int(digits, 8)
        return None

    def _hex(self, digits: str, least: int, most: int) -> int:
        if not (least <= len(digits) <= most) or not all(d in "0123456789abcdefABCDEF" for d in digits):
            self.fail("a malformed hexadecimal escape (Java rejects it)")
        code = int(digits, 16)
        if code > 0x10FFFF:
            self.fail("a code point past U+10FFFF (Java rejects it)")
        return code

    def class_escape(self, c: str) -> str | None:
        r"""``\d``, ``\s``, ``\h``, ``\p{Alpha}``... as a Python class or class contents (None: not one)."""
        if c in "dDwWsS":
            return "\\" + c
        if c in "hHvV":
            body = _SETS[c.lower()]
            return f"[^{body}]" if c.isupper() else f"[{body}]"
        if c in "pP":
            if self.peek() == "{":
                self.at += 1
                name = ""
                while self.peek() not in ("}", ""):
                    name += self.take()
                self.take()
            else:
                name = self.take()
            name = name.removeprefix("Is") if name.removeprefix("Is") in _POSIX else name
            if name not in _POSIX:
                self.fail(f"the property \\{c}{{{name}}} (only the POSIX classes are translated)")
            return f"[^{_POSIX[name]}]" if c == "P" else f"[{_POSIX[name]}]"
        return None

    def escape(self, flags: frozenset[str]) -> tuple[str, bool]:
        c = self.take()
        code = self.code_escape(c)
        if code is not None:
            return self.literal(code, flags), True
        found = self.class_escape(c)
        if found is not None:
            if c in "pP" and "i" in flags:
                self.fail("a POSIX class under (?i)")
            return found, True
        self.empty = c in "bBAzZk" or c.isdigit()
        if c in "bB":
            self.ascii_text = True
            return "\\" + c, False
        if c == "A":
            return "\\A", False
        if c == "z":
            return "\\Z", False
        if c == "Z":
            return _END, False
        if c == "R":
            return f"(?>\\r\\n|[{_SETS['v']}])", True
        if c == "Q":
            end = self.text.find("\\E", self.at)
            quoted = self.text[self.at :] if end < 0 else self.text[self.at : end]
            self.at = len(self.text) if end < 0 else end + 2
            if not quoted:
                self.empty = True
                return "", False
            return "(?:" + "".join(self.literal(ord(q), flags) for q in quoted) + ")", True
        if c == "k":
            if self.take() != "<":
                self.fail("\\k without <name> (Java rejects it)")
            name = ""
            while self.peek() not in (">", ""):
                name += self.take()
            self.take()
            if name not in self.names:
                self.fail(f"a reference to the unknown group {name!r} (Java rejects it)")
            if "i" in flags:
                self.fail("a back reference under (?i)")
            return f"(?P={name})", True
        if c.isdigit():
            number = int(c)
            while self.peek().isdigit() and int(f"{number}{self.peek()}") <= self.groups:
                number = int(f"{number}{self.take()}")
            if number > self.groups or number == 0:
                self.fail(f"a reference to group {number}, which the pattern has not opened")
            if "i" in flags:
                self.fail("a back reference under (?i)")
            return f"(?:\\{number})", True
        if c.isascii() and c.isalpha():
            self.fail(f"the escape \\{c}")
        return self.literal(ord(c), flags), True

    def char_class(self, flags: frozenset[str]) -> str:
        negated = self.peek() == "^"
        if negated:
            self.at += 1
        if self.peek() == "]":
            self.fail("']' first in a class")
        items: list[str] = []
        letters: set[str] = set()  # (?i): the other case of each ASCII letter the class takes
        while True:
            c = self.take()
            if c == "]":
                break
            if c == "[" or (c == "&" and self.peek() == "&"):
                self.fail("a nested class or && in a class")
            if c == "\\":
                e = self.take()
                found = self.class_escape(e)
                if found is not None:
                    if e in "pP" and "i" in flags:
                        self.fail("a POSIX class under (?i)")
                    if found.startswith("[^"):
                        self.fail("a negated set escape (\\H, \\V, \\P) inside a class")
                    items.append(found[1:-1] if found.startswith("[") else found)
                    continue
                code = self.code_escape(e)
                if code is None:
                    if e.isascii() and e.isalnum():
                        self.fail(f"the escape \\{e} in a class")
                    code = ord(e)
            else:
                code = ord(c)
            low = code
            if self.peek() == "-" and self.peek(1) not in ("]", ""):
                self.at += 1
                d = self.take()
                if d == "[":
                    self.fail("a nested class or && in a class")
                if d == "\\":
                    e = self.take()
                    high_code = self.code_escape(e)
                    if high_code is None:
                        if e.isascii() and e.isalnum():
                            self.fail(f"the escape \\{e} in a range")
                        high_code = ord(e)
                else:
                    high_code = ord(d)
                if high_code < low:
                    self.fail("a range whose end comes before its start (Java rejects it)")
                items.append(f"{_char(low)}-{_char(high_code)}")
                self.bmp_text |= low <= 0xDFFF and high_code >= 0xD800  # a range holding surrogates
                if "i" in flags:
                    letters.update(
                        chr(x).swapcase() for x in range(max(low, 65), min(high_code, 122) + 1) if chr(x).isalpha()
                    )
                continue
            items.append(_char(low))
            if "i" in flags and chr(low).isascii() and chr(low).isalpha():
                letters.add(chr(low).swapcase())
        items.extend(sorted(letters))
        if negated and "\\U" in "".join(items):
            self.bmp_text = True  # it matches a lone surrogate of a character it excludes
        if not items:
            self.fail("an empty class")
        return f"[{'^' if negated else ''}{''.join(items)}]"


@functools.lru_cache(maxsize=256)
def translate(java: str) -> Translated:
    r"""``java`` compiled as a Python pattern with the same matches, or ``Untranslatable`` naming why not.

    >>> translate(r"(?i)ab\d").pattern.pattern
    '[aA][bB]\\d'
    >>> try:
    ...     translate(r"\p{L}")
    ... except Untranslatable as error:
    ...     print(error)
    the property \p{L} (only the POSIX classes are translated) (at offset 5 of the pattern '\\p{L}')
    """
    reader = _Reader(java)
    written = reader.sequence(frozenset(), 0)
    reader.bmp_text |= reader.empty  # an empty match moves Java's search into a surrogate pair
    try:
        compiled = re.compile(written, re.ASCII)
    except re.error as error:  # a variable-width lookbehind, which Java takes and Python does not
        msg = f"Python's re cannot run {java!r} as Java does ({error})"
        raise Untranslatable(msg) from error
    return Translated(compiled, reader.ascii_text, reader.bmp_text)


def find_all(pattern: re.Pattern[str], text: str, start: int = 0) -> Iterator[re.Match[str]]:
    """The matches Java's ``Matcher.find`` gives one after another.

    After an empty match the next search starts one character further (Python's
    ``finditer`` may take a non-empty match at the same place).
    """
    at = start
    while at <= len(text):
        found = pattern.search(text, at)
        if found is None:
            return
        yield found
        at = found.end() + 1 if found.end() == found.start() else found.end()


def expand(template: str, match: re.Match[str]) -> str:
    r"""``template`` with ``$n``, ``${name}`` and ``\x`` expanded as Java's ``appendReplacement`` does.

    ``$12`` takes two digits only when the pattern has 12 groups; an error where Java throws one.

    >>> expand("<$1$10>", re.match("(a)", "a"))
    '<aa0>'
    """
    out: list[str] = []
    groups = match.re.groups
    at = 0
    while at < len(template):
        c = template[at]
        if c == "\\":
            at += 1
            if at == len(template):
                msg = "character to be escaped is missing"
                raise ReplacementError(msg)
            out.append(template[at])
            at += 1
        elif c == "$":
            at += 1
            if at == len(template):
                msg = "Illegal group reference: group index is missing"
                raise ReplacementError(msg)
            if template[at] == "{":
                end = template.find("}", at)
                name = template[at + 1 : end] if end > 0 else ""
                if end < 0 or not name or name not in match.re.groupindex:
                    msg = f"No group with name {{{name}}}"
                    raise ReplacementError(msg)
                reference: int | str = name
                at = end + 1
            else:
                if not template[at].isascii() or not template[at].isdigit():
                    msg = "Illegal group reference"
                    raise ReplacementError(msg)
                number = int(template[at])
                at += 1
                while at < len(template) and template[at].isascii() and template[at].isdigit():
                    longer = number * 10 + int(template[at])
                    if longer > groups:
                        break
                    number = longer
                    at += 1
                if number > groups:
                    msg = f"No group {number}"
                    raise ReplacementError(msg)
                reference = number
            piece = match.group(reference)
            if piece is not None:
                out.append(piece)
        else:
            out.append(c)
            at += 1
    return "".join(out)


def split(pattern: re.Pattern[str], text: str, limit: int) -> list[str]:
    """Java's ``Pattern.split(text, limit)`` for a limit other than 0 (Spark passes -1 for 0).

    No leading empty part for an empty match at the start; at most ``limit`` parts when it is positive.
    """
    parts: list[str] = []
    index = 0
    for found in find_all(pattern, text):
        if limit <= 0 or len(parts) < limit - 1:
            if index == 0 and found.start() == 0 and found.end() == 0:
                continue
            parts.append(text[index : found.start()])
            index = found.end()
        elif len(parts) == limit - 1:
            break
    if index == 0:
        return [text]
    parts.append(text[index:])
    return parts
