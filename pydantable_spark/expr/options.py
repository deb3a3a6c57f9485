"""Options of Spark's text functions (``to_json``, ``from_json``...): a dict of names to plain values.

Each option becomes a pair of strings (a ``bool`` is ``"true"``/``"false"``, as
Spark reads it); anything else is refused by type when the call is made. The
pairs reach Spark as string literals inside ``map(...)``, never as SQL text.

>>> option_pairs({"pretty": True, "timestampFormat": "yyyy"}, "F.to_json(): options")
(('pretty', 'true'), ('timestampFormat', 'yyyy'))
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantable_spark.errors import ArgumentTypeError, shown

__all__ = ["option_pairs"]


def option_pairs(options: object, what: str) -> tuple[tuple[str, str], ...]:
    """``options`` as (name, text) pairs; ``what`` names the parameter in messages (``"F.to_json(): options"``)."""
    if not isinstance(options, Mapping):
        msg = f"{what} must be a dict of option names to values; got {shown(options)}"
        raise ArgumentTypeError(msg)
    pairs = []
    for key, value in options.items():
        if type(key) is not str:
            msg = f"{what}: an option name must be a str; got {shown(key)}"
            raise ArgumentTypeError(msg)
        if type(value) not in (str, bool, int, float):
            msg = f"{what}[{key!r}] must be a str, bool, int or float; got {shown(value)}"
            raise ArgumentTypeError(msg)
        pairs.append((key, str(value).lower() if type(value) is bool else str(value)))
    return tuple(pairs)
