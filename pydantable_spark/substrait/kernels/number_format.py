"""Spark's number formats (``to_number``'s ``'$9,999.99'``, ``'S999'``, ``'99MI'``, ``'9PR'``): reading text.

A format is read into tokens as Spark's ``ToNumberParser`` does: runs of
``0``/``9`` digits (before the point a run starting with ``0`` takes exactly
that many digits, any other at most as many) with ``,``/``G`` between them,
``.``/``D``, ``$``, ``S`` (an optional ``+`` or ``-``), ``MI`` (an optional
``-``) and ``PR`` (``<...>`` for a negative number). Digit groups are matched
from the right, so leading optional digits may be left out; whitespace among
digits is skipped.

>>> read(NumberFormat("$9,999.99"), "$1,234.5")
Decimal('1234.50')
>>> read(NumberFormat("99MI"), "12-")
Decimal('-12')
>>> read(NumberFormat("9,99"), "12,3") is None
True
"""

from __future__ import annotations

import decimal
import itertools
import unicodedata
from dataclasses import dataclass

__all__ = ["NumberFormat", "read"]

_JAVA_SPACE = frozenset(" \t\n\x0b\x0c\r\x1c\x1d\x1e\x1f")
"""``Character.isWhitespace`` among ASCII characters."""


@dataclass(frozen=True, slots=True)
class _Digits:
    count: int
    exactly: bool


@dataclass(frozen=True, slots=True)
class _Group:
    """Digit runs with separators between them; ``digits`` right to left (as Spark matches them)."""

    separators: int
    digits: tuple[_Digits, ...]
    ends_with_separator: bool
    starts_with_separator: bool
    doubled_separator: bool


class NumberFormat:
    """A parsed number format; ``problem`` says why Spark rejects it (None: it is valid)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens: list[str | _Group] = []
        self.problem: str | None = None
        self._tokenize(text.upper())
        self.problem = self._check()

    def _tokenize(self, text: str) -> None:
        raw: list[str | _Digits] = []
        at = 0
        point = False
        opened = False
        while at < len(text):
            c = text[at]
            if c in "09":
                start = at
                at += 1
                while at < len(text) and text[at] in "09":
                    at += 1
                raw.append(_Digits(at - start, exactly=c == "0" and not point))
                continue
            if c in ".D":
                raw.append(".")
                point = True
            elif c in ",G":
                raw.append(",")
            elif c in "$S":
                raw.append(c)
            elif text.startswith("MI", at):
                raw.append("MI")
                at += 1
            elif text.startswith("PR", at):
                opened = True
                raw.append(">")
                at += 1
            else:
                raw.append(f"?{c}")
            at += 1
        tokens: list[str | _Group] = ["<"] if opened else []
        run: list[str | _Digits] = []
        for token in [*raw, "end"]:
            if isinstance(token, _Digits) or token == ",":
                run.append(token)
                continue
            if run:
                tokens.append(_group(run))
                run = []
            if token != "end":
                tokens.append(token)
        self.tokens = tokens

    def _check(self) -> str | None:
        """Spark's ``checkInputDataTypes`` of the format (its error sub-class, or None)."""
        tokens = self.tokens
        if not self.text:
            return "EMPTY"
        groups = [i for i, t in enumerate(tokens) if isinstance(t, _Group)]
        if not groups:
            return "WRONG_NUM_DIGIT"
        if any(isinstance(t, str) and t.startswith("?") for t in tokens):
            return "UNEXPECTED_TOKEN"
        dollar = tokens.index("$") if "$" in tokens else -1
        point = tokens.index(".") if "." in tokens else -1
        if groups[0] < dollar:
            return "CUR_MUST_BEFORE_DIGIT"
        if point != -1 and point < dollar:
            return "CUR_MUST_BEFORE_DEC"
        for i in groups:
            group = tokens[i]
            assert isinstance(group, _Group)
            before = point == -1 or i < point
            if before and (group.ends_with_separator or group.starts_with_separator or group.doubled_separator):
                return "CONT_THOUSANDS_SEPS"
            if not before and group.separators:
                return "THOUSANDS_SEPS_MUST_BEFORE_DEC"
        for single in (".", "S", "MI", "$", ">"):
            if tokens.count(single) > 1:
                return "WRONG_NUM_TOKEN"
        order = [("<",), ("MI", "S"), ("$",), ("digits",), (".",), ("digits",), ("$",), ("MI", "S", ">")]
        at = 0
        for allowed in order:
            if at < len(tokens):
                kind = "digits" if isinstance(tokens[at], _Group) else tokens[at]
                if kind in allowed:
                    at += 1
        return None if at == len(tokens) else "UNEXPECTED_TOKEN"

    @property
    def scale(self) -> int:
        point = self.tokens.index(".") if "." in self.tokens else len(self.tokens)
        return sum(d.count for t in self.tokens[point:] if isinstance(t, _Group) for d in t.digits)


def _group(run: list[str | _Digits]) -> _Group:
    digits = tuple(t for t in reversed(run) if isinstance(t, _Digits))
    doubled = any(a == "," and b == "," for a, b in itertools.pairwise(run))
    return _Group(run.count(","), digits, run[-1] == ",", run[0] == ",", doubled)


def _unsure(text: str) -> bool:
    """Whether ``text`` holds a character Java may read as a digit or whitespace where Python differs."""
    return any(
        not c.isascii() and (c.isspace() or unicodedata.category(c) in ("Nd", "Zs", "Zl", "Zp") or c.isdigit())
        for c in text
    )


def read(number_format: NumberFormat, text: str) -> decimal.Decimal | None:
    """The decimal ``text`` holds by the format (None where it does not match: Spark's error or NULL).

    Raises ``ValueError`` for text holding non-ASCII digits or spaces (Java reads them; not computed here).
    """
    if _unsure(text):
        msg = "non-ASCII digits or whitespace"
        raise ValueError(msg)
    before: list[str] = []
    after: list[str] = []
    point = False
    opened = closed = False
    negative = False
    at = 0
    for token in number_format.tokens:
        c = text[at] if at < len(text) else ""
        if isinstance(token, _Group):
            found = _digit_groups(token, text, at, after if point else before)
            if found is None:
                return None
            at = found
        elif token == "." and c == ".":
            point = True
            at += 1
        elif token == "$":
            if c and c != "$":
                return None
            at += 1 if c else 0
        elif token == "S" and c in ("+", "-") and c:
            negative ^= c == "-"
            at += 1
        elif token == "MI" and c == "-":
            negative = not negative
            at += 1
        elif token == "<" and c == "<":
            if opened:
                return None
            opened = True
            at += 1
        elif token == ">" and c == ">":
            if not opened:
                return None
            closed = True
            negative = not negative
            at += 1
    if at < len(text) or opened != closed or not (before or after):
        return None
    scale = number_format.scale
    digits = "".join(before) + ("." + "".join(after).ljust(scale, "0") if scale else "")
    return decimal.Decimal(("-" if negative else "") + digits)


def _digit_groups(group: _Group, text: str, start: int, into: list[str]) -> int | None:
    """Digits (and separators, and whitespace) from ``start``, matched against ``group``; the index after them."""
    sizes: list[int] = []
    current = 0
    at = start
    while at < len(text):
        c = text[at]
        if c in _JAVA_SPACE:
            pass
        elif c.isascii() and c.isdigit():
            current += 1
            into.append(c)
        elif c == ",":
            sizes.insert(0, current)
            current = 0
        else:
            sizes.insert(0, current)
            break
        at += 1
    if at == len(text):
        sizes.insert(0, current)
    if len(sizes) > len(group.digits):
        return None
    for index, expected in enumerate(group.digits):
        actual = sizes[index] if index < len(sizes) else 0
        if (expected.exactly and actual != expected.count) or actual > expected.count:
            return None
    return at
