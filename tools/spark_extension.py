"""This project's Substrait extension, ``functions_spark.yaml``, written from the kernel registry and the catalog.

A portable plan (``to_substrait``) names a standard function wherever one computes what Spark does; the
calls no standard function covers name this project's extension
(``extension:dev.pydantable-spark:functions_spark``), which the package ships as a YAML file in Substrait's
simple-extension format:

- every catalog function the local engine computes with a kernel (``substrait/kernels``), under its
  Spark name: one implementation per number of arguments it may be called with, each argument typed where
  the function takes one type (``string``, ``i32``) and ``any`` where Spark's function is polymorphic; the
  result is ``any`` (the plan's call states the type Spark derives), its nullability from the catalog's rule
  (``MIRROR``, or ``DECLARED_OUTPUT``);
- Python's ``%`` and ``//`` over Spark's, Spark's decimal ``/`` and decimal ``avg`` where Spark's result
  type is not the decimal YAML's, and ``min``/``max`` of the types the standard files do not order: written
  out below (``OWN``), with Spark's type rules.

``python -m tools.spark_extension`` writes the file; a test fails when the file on disk differs from what
this gives, and checks it against the schema of simple extensions (PyPI ``substrait-extensions``).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import yaml

from pydantable_spark import dtypes as dt
from pydantable_spark.expr.catalog import REQUIRED
from pydantable_spark.expr.catalog.spec import Function, Kind, Param
from pydantable_spark.substrait import functions as fn
from pydantable_spark.substrait.kernels import KERNELS, Aggregate

__all__ = ["OWN", "PATH", "extension", "extension_yaml", "main"]

PATH = Path(__file__).resolve().parents[1] / "pydantable_spark" / "substrait" / "extensions" / "functions_spark.yaml"

_HEADER = "# Generated from the kernel registry and the catalog by `python -m tools.spark_extension`; do not edit.\n"

_SPARK_DECIMAL_ADJUSTMENT = """\
min_scale = min(init_scale, 6)
delta = init_prec - 38
prec = min(init_prec, 38)
scale_after_borrow = max(init_scale - delta, min_scale)
scale = init_prec > 38 ? scale_after_borrow : init_scale
DECIMAL?<prec, scale>"""
"""Spark's fitting of a decimal result to 38 digits, keeping at least 6 decimals (as the decimal YAML writes it)."""


def _decimal_pair(program: str) -> dict[str, Any]:
    return {
        "args": [{"name": "x", "value": "decimal<P1,S1>"}, {"name": "y", "value": "decimal<P2,S2>"}],
        "nullability": "DECLARED_OUTPUT",
        "return": f"{program}\n{_SPARK_DECIMAL_ADJUSTMENT}",
    }


def _same_types(*names: str, result: str) -> dict[str, Any]:
    return {
        "args": [{"name": n, "value": "any1"} for n in names],
        "nullability": "DECLARED_OUTPUT",
        "return": result,
    }


OWN: dict[str, list[dict[str, Any]]] = {
    "scalar_functions": [
        {
            "name": "remainder",
            "description": (
                "Python's x % y over Spark's: the sign of the divisor (Spark's % has the dividend's); an error on a "
                "zero divisor (ANSI). Operands of one type; decimals by Spark's rule."
            ),
            "impls": [
                _same_types("x", "y", result="any1?"),
                _decimal_pair("init_scale = max(S1, S2)\ninit_prec = min(P1 - S1, P2 - S2) + init_scale"),
            ],
        },
        {
            "name": "floor_divide",
            "description": "Python's x // y over Spark's div: the floor of the quotient; an error on a zero divisor.",
            "impls": [
                {
                    "args": [{"name": "x", "value": "i64"}, {"name": "y", "value": "i64"}],
                    "nullability": "DECLARED_OUTPUT",
                    "return": "i64?",
                }
            ],
        },
        {
            "name": "divide",
            "description": (
                "Spark's decimal division (ANSI: an error on a zero divisor), whose result type counts the "
                "divisor's scale where functions_arithmetic_decimal's counts its precision."
            ),
            "impls": [_decimal_pair("init_scale = max(6, S1 + P2 + 1)\ninit_prec = P1 - S1 + S2 + init_scale")],
        },
    ],
    "aggregate_functions": [
        {
            "name": name,
            "description": (
                f"Spark's {name} of the types the standard files do not order: strings, booleans, binary, "
                "lists, structs (Spark's ordering)."
            ),
            "impls": [_same_types("x", result="any1?")],
        }
        for name in ("min", "max")
    ]
    + [
        {
            "name": "avg",
            "description": (
                "Spark's average of decimals: decimal(P+4, S+4) at most 38 digits, halves rounded up (named where "
                "functions_arithmetic_decimal's avg, at scale S, would need the values cast to lose integer digits)."
            ),
            "impls": [
                {
                    "args": [{"name": "x", "value": "decimal<P,S>"}],
                    "nullability": "DECLARED_OUTPUT",
                    "return": "prec = min(P + 4, 38)\nscale = min(S + 4, 38)\nDECIMAL?<prec, scale>",
                }
            ],
        }
    ],
}
"""The functions of this extension that are no catalog kernel: operators, and Spark's rules where they differ."""


_PROBES: tuple[dt.DType, ...] = (
    dt.Boolean(),
    dt.Int8(),
    dt.Int16(),
    dt.Int32(),
    dt.Int64(),
    dt.Float32(),
    dt.Float64(),
    dt.Decimal(10, 2),
    dt.Decimal(38, 0),
    dt.String(),
    dt.Binary(),
    dt.Date(),
    dt.Datetime(),
    dt.DatetimeNTZ(),
    dt.List(dt.String(), True),
    dt.Map(dt.String(), dt.Int64(), True),
    dt.Struct((dt.Field("a", dt.Int64(), True),)),
)
"""Types an argument is tried with to learn which Substrait types it admits."""


def _yaml_type(dtype: dt.DType) -> str | None:
    """A parameterless type's YAML name (None for types with parameters or none in Substrait)."""
    from pydantable_spark.substrait.types import substrait_type

    try:
        made = substrait_type(dtype, nullable=False)
    except Exception:  # a type Substrait has no name for
        return None
    kind = str(made.WhichOneof("kind"))
    if kind in ("decimal", "precision_timestamp", "precision_timestamp_tz", "list", "map", "struct"):
        return None
    return "boolean" if kind == "bool" else kind


def _argument_type(param: Param) -> str:
    """One type where the parameter takes one (``string``), else ``any`` (Spark's function is polymorphic)."""
    if param.accepts is None:
        return (_yaml_type(param.literal) if param.literal is not None else None) or "any"
    received = {_yaml_type(param.accepts.spark_type(t)) for t in _PROBES if param.accepts.admits(t)}
    only = received.pop() if len(received) == 1 else None
    return only or "any"


def _impls(entry: Function) -> list[dict[str, Any]]:
    """One implementation per number of arguments a call may pass; a variadic last parameter repeats."""
    params = entry.signature.params
    required = sum(1 for p in params if p.default is REQUIRED)
    declared = fn.declared_nullability(entry.rules.nullable)
    tail: dict[str, Any] = (
        {"nullability": "MIRROR", "return": "any"}
        if declared is None
        else {"nullability": "DECLARED_OUTPUT", "return": "any?" if declared else "any"}
    )
    impls = []
    variadic = bool(params) and params[-1].variadic
    for count in [len(params)] if variadic else range(required, len(params) + 1):
        impl: dict[str, Any] = {"args": [{"name": p.name, "value": _argument_type(p)} for p in params[:count]]}
        if variadic:
            impl["variadic"] = {"min": 0 if params[-1].default is not REQUIRED else 1}
        impls.append(impl | tail)
    return impls


def extension() -> dict[str, Any]:
    """The extension as a YAML document (a mapping)."""
    sections: dict[str, list[dict[str, Any]]] = {"scalar_functions": [], "aggregate_functions": []}
    for name, kernel in sorted(KERNELS.items()):
        entry = fn.catalog_entry(name)
        section = "aggregate_functions" if isinstance(kernel, Aggregate) else "scalar_functions"
        assert (entry.placement.kind is Kind.AGGREGATE) == (section == "aggregate_functions"), name
        sections[section].append({"name": name, "description": _one_line(entry.docs.summary), "impls": _impls(entry)})
    for section, functions in OWN.items():
        by_name = {str(f["name"]): f for f in sections[section]}
        for function in functions:  # a kernel of the same name (a catalog avg) adds its implementations
            same = by_name.get(str(function["name"]))
            impls = [*function["impls"], *(same["impls"] if same else ())]
            by_name[str(function["name"])] = {**function, "impls": impls}
        sections[section] = [by_name[name] for name in sorted(by_name)]
    return {
        "urn": fn.urn_of(fn.SPARK_EXTENSION),
        "description": (
            "Spark's functions and operators that Substrait's standard extensions lack, or define with other "
            "result types, under Spark's names and with Spark's semantics (ANSI mode). Written by pydantable-spark's "
            "portable plans (to_substrait). Argument types are stated where a function takes one type; `any` "
            "where Spark's function is polymorphic, and the call's declared output type is Spark's."
        ),
        **{section: functions for section, functions in sections.items() if functions},
    }


def _one_line(text: str) -> str:
    return " ".join(text.replace("``", "`").split())


class _Dumper(yaml.SafeDumper):  # type: ignore[misc]  # PyYAML ships no types
    """Multi-line strings (return programs) as literal blocks."""


def _string(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _string)


def extension_yaml() -> str:
    """The file's text."""
    body = yaml.dump(extension(), Dumper=_Dumper, sort_keys=False, width=110, allow_unicode=True)
    return f"{_HEADER}%YAML 1.2\n---\n{body}"


def main() -> None:
    """Write the file."""
    PATH.parent.mkdir(parents=True, exist_ok=True)
    PATH.write_text(extension_yaml(), encoding="utf-8")
    print(f"wrote {PATH}")


if __name__ == "__main__":
    main()
    sys.exit(0)
