"""Type stubs written from the catalog: ``functions.pyi`` (``F``) and ``expr/namespaces.pyi``.

``F`` and the namespace methods are made from catalog entries when the
package is imported, so type checkers learn their signatures from these
generated stubs. ``python -m tools.catalog_stubs`` writes them;
a test fails when the files on disk differ from what the catalog gives.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from pydantable_spark.expr.catalog import CATALOG, METHODS, REQUIRED
from pydantable_spark.expr.catalog.signatures import KEYWORDS, annotation
from tools.stub_results import result_annotation

if TYPE_CHECKING:
    from pydantable_spark.expr.catalog.spec import Function, Param

__all__ = ["STUBS", "functions_stub", "main", "namespaces_stub"]

PACKAGE = Path(__file__).resolve().parents[1] / "pydantable_spark"

_HEADER = "# Generated from the function catalog by `python -m tools.catalog_stubs`; do not edit.\n"
_SCALAR = (
    "Scalar: TypeAlias = bool | int | float | str | bytes | decimal.Decimal | datetime.date | datetime.timedelta\n"
)


def _parameters(params: tuple[Param, ...], *, method: bool, unpacks: bool = False) -> str:
    parts = []
    for param in params:
        text = annotation(param, method=method, unpacks=unpacks)
        if param.variadic:
            parts.append(f"*{param.name}: {text}")
        elif param.default is REQUIRED:
            parts.append(f"{param.name}: {text}")
        else:
            parts.append(f"{param.name}: {text} = ...")
    return ", ".join(parts)


def _keywords(entry: Function, *, method: bool) -> str:
    """``**named: ...`` for an entry whose variadic parameter also takes keyword values (``Signature.keywords``)."""
    if not entry.signature.keywords:
        return ""
    return f", **{KEYWORDS}: {annotation(entry.signature.params[-1], method=method)}"


def _function(name: str, entry: Function) -> str:
    parameters = _parameters(entry.params_as(name), method=False, unpacks=entry.signature.unpacks)
    parameters += _keywords(entry, method=False)
    return f"def {name}({parameters}) -> {result_annotation(entry)}: ...\n"


def functions_stub() -> str:
    """``functions.pyi``: the special forms re-exported, then one ``def`` per catalog name."""
    from pydantable_spark.expr.forms import __all__ as forms

    lines = [
        _HEADER,
        "import datetime\n",
        "import decimal\n",
        "from collections.abc import Callable\n",
        "from typing import Any, TypeAlias\n\n",
        "from pydantable_spark.expr.api import Expr\n",
        "from pydantable_spark.expr.forms import (\n",
        *[f"    {name} as {name},\n" for name in sorted(forms)],
        ")\n\n",
        _SCALAR,
        "\n",
        *[_function(name, entry) for name, entry in sorted(CATALOG.items())],
    ]
    return "".join(lines)


_CLASSES = {
    "str": ("StringNamespace", "String functions, reached as ``expr.str`` (string columns)."),
    "dt": ("DateTimeNamespace", "Date and time functions, reached as ``expr.dt`` (date and datetime columns)."),
    "list": ("ListNamespace", "List functions, reached as ``expr.list``."),
    "map": ("MapNamespace", "Map functions, reached as ``expr.map``."),
    "struct": ("StructNamespace", "Struct functions, reached as ``expr.struct``."),
}


def namespaces_stub() -> str:
    """``expr/namespaces.pyi``: each namespace class with one method per catalog method."""
    lines = [
        _HEADER,
        "import datetime\n",
        "import decimal\n",
        "import inspect\n",
        "from typing import Any, Generic, TypeAlias, TypeVar\n\n",
        "from pydantable_spark.expr.api import Expr\n",
        "from pydantable_spark.expr.catalog.spec import Function\n\n",
        _SCALAR,
        'T_co = TypeVar("T_co", covariant=True)\n',
        'N_co = TypeVar("N_co", covariant=True)\n\n',
        "class _Namespace(Generic[T_co, N_co]):\n",
        '    """Methods over one expression; ``T_co`` is its value type, ``N_co`` its ``None`` if nullable."""\n\n',
        "    def __init__(self, expr: Expr[Any]) -> None: ...\n",
    ]
    for prefix, (cls, doc) in _CLASSES.items():
        lines += ["\n", f"class {cls}(_Namespace[T_co, N_co]):\n", f'    """{doc}"""\n\n']
        for qualified, entry in sorted(METHODS.items()):
            owner, _, name = qualified.partition(".")
            if owner == prefix:
                params = _parameters(entry.signature.params[1:], method=True) + _keywords(entry, method=True)
                result = result_annotation(entry, method=qualified)
                lines.append(f"    def {name}(self{', ' if params else ''}{params}) -> {result}: ...\n")
    lines += [
        "\n",
        "NAMESPACES: dict[str, type[_Namespace[Any, Any]]]\n\n",
        "def method_signature(function: Function) -> inspect.Signature: ...\n",
    ]
    return "".join(lines)


STUBS = {
    PACKAGE / "functions.pyi": functions_stub,
    PACKAGE / "expr" / "namespaces.pyi": namespaces_stub,
}
"""Each stub file and the function writing its text."""


def main() -> int:
    """Write the stubs; with ``--check``, exit 1 if any on disk differs instead."""
    check = "--check" in sys.argv[1:]
    stale = []
    for path, render in STUBS.items():
        text = render()
        if check:
            if not path.exists() or path.read_text() != text:
                stale.append(path)
        else:
            path.write_text(text)
    for path in stale:
        sys.stderr.write(f"stale stub: {path} (run python -m tools.catalog_stubs)\n")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
