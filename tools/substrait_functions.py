"""Check every function call of a Substrait plan against its definition in the extension YAMLs (a test tool).

``substrait-validator`` checks a plan's structure, types and references, but not whether a call fits the
function it names (its diagnostic 0001, "not yet implemented"). This does: each function anchor resolves by
URN to a YAML file, a function of the call's kind (scalar, aggregate, window: an aggregate may stand as a
window function) and name, and one of its implementations whose

- arguments fit (count, variadic tail, enum arguments among their options, value types with their
  parameters and type variables bound consistently; nullability too where the handling is ``DISCRETE``),
- options are defined, each preference among the option's values,
- result type is the one the implementation derives (any type where it returns ``any``: this project's
  extension leaves Spark's polymorphic results to the call), nullability by its handling: ``MIRROR`` (the
  default: nullable when an argument is), ``DECLARED_OUTPUT`` and ``DISCRETE`` (as the return type is written).

The standard files come from PyPI's ``substrait-extensions``; this project's extension ships in the
package. Argument types are derived through the plan (field references read the types of the relation
below, outer joins make a side nullable).

    python -m tools.substrait_functions plan.bin [more.bin ...]
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from tools.substrait_types import Type, match, parse_type, plan_type, result

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from substrait import algebra_pb2 as sa
    from substrait import plan_pb2 as sp

__all__ = ["Extension", "check", "load_extensions", "own_extension", "standard_extensions"]

SECTIONS = ("scalar_functions", "aggregate_functions", "window_functions")

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""PyYAML's safe loader, in C where built (the standard files take seconds to read in Python)."""


@dataclass(frozen=True, slots=True)
class Extension:
    """One extension YAML: its URN and, per section, function name → implementations (YAML mappings)."""

    urn: str
    path: str
    functions: dict[str, dict[str, list[dict[str, Any]]]] = field(default_factory=dict)

    @classmethod
    def read(cls, path: Path | Any) -> Extension:
        """The extension file at ``path`` (a path or an importlib ``Traversable``)."""
        loaded = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
        functions = {section: {f["name"]: list(f["impls"]) for f in loaded.get(section) or ()} for section in SECTIONS}
        return cls(loaded["urn"], str(path), functions)


def standard_extensions() -> list[Extension]:
    """The standard extension files of PyPI's ``substrait-extensions`` (``functions_*.yaml``)."""
    folder = resources.files("substrait_extensions") / "extensions"
    return [
        Extension.read(item)
        for item in sorted(folder.iterdir(), key=lambda item: item.name)
        if item.name.startswith("functions_") and item.name.endswith(".yaml")
    ]


def own_extension() -> Extension:
    """This project's extension, as the package ships it."""
    import pydantable_spark.substrait as package

    return Extension.read(Path(package.__file__).parent / "extensions" / "functions_spark.yaml")


def load_extensions(extra: Iterable[Extension] = ()) -> dict[str, Extension]:
    """The standard extensions and ``extra`` by URN."""
    return {e.urn: e for e in (*standard_extensions(), *extra)}


def check(plan: sp.Plan, extensions: dict[str, Extension]) -> list[str]:
    """What does not fit in ``plan``: one line per call that matches no implementation (empty: all fit)."""
    return _Checker(plan, extensions).run()


# --- one call against its implementations ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Call:
    kind: str
    """``scalar``, ``aggregate`` or ``window``."""
    name: str
    args: tuple[str | Type, ...]
    """Each argument: an enum option (a str) or a value's type."""
    options: dict[str, tuple[str, ...]]
    output: Type

    def __str__(self) -> str:
        options = "".join(f", {k}={'|'.join(v)}" for k, v in self.options.items())
        return f"{self.name}({', '.join(map(str, self.args))}{options}) -> {self.output}"


def _mismatch(impl: dict[str, Any], call: _Call) -> str | None:
    """Why ``call`` does not fit the implementation ``impl`` (None: it fits)."""
    declared = list(impl.get("args") or ())
    variadic = impl.get("variadic")
    if variadic and declared:  # the last argument repeats, min..max times
        repeated = len(call.args) - len(declared) + 1
        least, most = int(variadic.get("min", 1)), variadic.get("max")
        if repeated < least or (most is not None and repeated > int(most)):
            return f"takes {len(declared) - 1} arguments and {least}..{most or 'any'} more"
        declared = declared[:-1] + [declared[-1]] * repeated
    if len(declared) != len(call.args):
        return f"takes {len(declared)} arguments"
    handling = impl.get("nullability", "MIRROR")
    env: dict[str, object] = {}
    for index, (wanted, given) in enumerate(zip(declared, call.args, strict=True)):
        if "options" in wanted:
            if not isinstance(given, str) or given not in wanted["options"]:
                return f"argument {index} must be one of the options {wanted['options']}"
            continue
        if "value" not in wanted:
            return f"argument {index} is a type argument"
        if isinstance(given, str):
            return f"argument {index} is a value, not an enum"
        try:
            pattern = parse_type(str(wanted["value"]))
        except ValueError as error:
            return f"argument {index}: {error}"
        if not match(pattern, given, env):
            return f"argument {index} must be {wanted['value']}"
        if handling == "DISCRETE" and pattern.nullable != given.nullable:
            return f"argument {index} must be {'nullable' if pattern.nullable else 'non-nullable'} (DISCRETE)"
    defined = impl.get("options") or {}
    for name, preference in call.options.items():
        if name not in defined:
            return f"defines no option {name} (only {sorted(defined) or 'none'})"
        unknown = [p for p in preference if p not in defined[name]["values"]]
        if unknown:
            return f"option {name} takes {defined[name]['values']}, not {unknown}"
    try:
        derived = result(str(impl["return"]), env)
    except ValueError as error:
        return f"result: {error}"
    if derived.kind == "any":  # a polymorphic result (this project's extension): the call states the type
        derived = call.output.with_nullable(derived.nullable)
    if handling == "MIRROR":
        nullable = derived.nullable or any(isinstance(a, Type) and a.nullable for a in call.args)
        derived = derived.with_nullable(nullable)
    if derived != call.output:
        return f"returns {derived} ({handling})"
    return None


def _why_not(extension: Extension, call: _Call) -> str | None:
    sections = {"scalar": ("scalar_functions",), "aggregate": ("aggregate_functions",)}.get(
        call.kind, ("window_functions", "aggregate_functions")
    )
    impls = [impl for section in sections for impl in extension.functions[section].get(call.name, ())]
    if not impls:
        return f"{extension.urn} has no {call.kind} function {call.name}"
    reasons = []
    for impl in impls:
        why = _mismatch(impl, call)
        if why is None:
            return None
        reasons.append(why)
    return f"fits none of the {len(impls)} implementations in {extension.urn} ({'; '.join(sorted(set(reasons)))})"


# --- the plan: types of relations and expressions ---------------------------------------------------------


class _Checker:
    def __init__(self, plan: sp.Plan, extensions: dict[str, Extension]) -> None:
        self.problems: list[str] = []
        urns = {u.extension_urn_anchor: u.urn for u in plan.extension_urns}
        self.functions: dict[int, tuple[Extension | None, str, str]] = {}
        for declaration in plan.extensions:
            function = declaration.extension_function
            urn = urns.get(function.extension_urn_reference, "")
            self.functions[function.function_anchor] = (extensions.get(urn), urn, function.name.split(":")[0])
        self.plan = plan

    def run(self) -> list[str]:
        for relation in self.plan.relations:
            self.rel(relation.root.input)
        return self.problems

    def call(self, kind: str, message: Any, below: Sequence[Type], arguments: Sequence[sa.FunctionArgument]) -> Type:
        """Check one call; its declared output type."""
        output = plan_type(message.output_type)
        args = tuple(a.enum if a.WhichOneof("arg_type") == "enum" else self.expr(a.value, below) for a in arguments)
        options = {o.name: tuple(o.preference) for o in message.options}
        extension, urn, name = self.functions.get(message.function_reference, (None, "", "?"))
        call = _Call(kind, name, args, options, output)
        if extension is None:
            self.problems.append(f"{call}: its extension {urn or '(none)'} is no known YAML file")
        else:
            why = _why_not(extension, call)
            if why is not None:
                self.problems.append(f"{urn.rsplit(':', 1)[-1]}.{call}: {why}")
        return output

    def expr(self, expression: sa.Expression, below: Sequence[Type]) -> Type:
        """The type of ``expression`` over a relation of types ``below``, its calls checked."""
        which = expression.WhichOneof("rex_type")
        if which == "selection":
            return below[expression.selection.direct_reference.struct_field.field]
        if which == "literal":
            literal = expression.literal
            if literal.WhichOneof("literal_type") == "null":
                return plan_type(literal.null)
            return _literal_type(literal)
        if which == "cast":
            self.expr(expression.cast.input, below)
            return plan_type(expression.cast.type)
        if which == "scalar_function":
            function = expression.scalar_function
            return self.call("scalar", function, below, function.arguments)
        if which == "window_function":
            window = expression.window_function
            for key in (*window.partitions, *(s.expr for s in window.sorts)):
                self.expr(key, below)
            return self.call("window", window, below, window.arguments)
        if which == "if_then":
            branches = [self.expr(c.then, below) for c in expression.if_then.ifs]
            for clause in expression.if_then.ifs:
                self.expr(getattr(clause, "if"), below)
            branches.append(self.expr(getattr(expression.if_then, "else"), below))
            return branches[-1].with_nullable(any(b.nullable for b in branches))
        if which == "singular_or_list":
            found = expression.singular_or_list
            types = [self.expr(found.value, below), *(self.expr(o, below) for o in found.options)]
            return Type("boolean", nullable=any(t.nullable for t in types))
        msg = f"the checker does not read {which} expressions"
        raise NotImplementedError(msg)

    def rel(self, relation: sa.Rel) -> list[Type]:
        """The output types of ``relation``, every call below and in it checked."""
        which = relation.WhichOneof("rel_type")
        inner = getattr(relation, str(which))
        types: list[Type]
        if which == "read":
            types = [plan_type(t) for t in inner.base_schema.struct.types]
        elif which in ("filter", "sort", "fetch"):
            types = self.rel(inner.input)
            if which == "filter":
                self.expr(inner.condition, types)
            for sort in getattr(inner, "sorts", ()):
                self.expr(sort.expr, types)
        elif which == "project":
            below = self.rel(inner.input)
            types = below + [self.expr(e, below) for e in inner.expressions]
        elif which == "aggregate":
            types = self._aggregate(inner)
        elif which in ("join", "cross"):
            left, right = self.rel(inner.left), self.rel(inner.right)
            kind = inner.type if which == "join" else 1  # JOIN_TYPE_INNER
            if which == "join" and inner.HasField("expression"):
                self.expr(inner.expression, left + right)
            types = _joined(kind, left, right)
        elif which == "set":
            inputs = [self.rel(i) for i in inner.inputs]
            types = [t.with_nullable(any(i[n].nullable for i in inputs)) for n, t in enumerate(inputs[0])]
        else:
            msg = f"the checker does not read {which} relations"
            raise NotImplementedError(msg)
        emit = inner.common.emit.output_mapping if inner.common.HasField("emit") else None
        return [types[i] for i in emit] if emit else types

    def _aggregate(self, inner: sa.AggregateRel) -> list[Type]:
        below = self.rel(inner.input)
        keys: list[Type] = []
        for grouping in inner.groupings:
            keys += [self.expr(e, below) for e in grouping.grouping_expressions]
        measures = []
        for measure in inner.measures:
            if measure.HasField("filter"):
                self.expr(measure.filter, below)
            function = measure.measure
            measures.append(self.call("aggregate", function, below, function.arguments))
        return keys + measures


_JOINED = {"JOIN_TYPE_LEFT": (False, True), "JOIN_TYPE_RIGHT": (True, False), "JOIN_TYPE_OUTER": (True, True)}
"""Join types that make a side's columns nullable: (left, right)."""


def _joined(kind: int, left: list[Type], right: list[Type]) -> list[Type]:
    from substrait import algebra_pb2 as sa

    name = sa.JoinRel.JoinType.Name(kind)
    if name in ("JOIN_TYPE_LEFT_SEMI", "JOIN_TYPE_LEFT_ANTI"):  # the left's columns only
        return left
    if name not in ("JOIN_TYPE_INNER", *_JOINED):
        msg = f"the checker does not read joins of type {name}"
        raise NotImplementedError(msg)
    left_null, right_null = _JOINED.get(name, (False, False))
    return [t.with_nullable(t.nullable or left_null) for t in left] + [
        t.with_nullable(t.nullable or right_null) for t in right
    ]


def _literal_type(literal: sa.Expression.Literal) -> Type:
    which = str(literal.WhichOneof("literal_type"))
    if which == "decimal":
        return Type("decimal", (literal.decimal.precision, literal.decimal.scale), literal.nullable)
    if which in ("precision_timestamp", "precision_timestamp_tz"):
        return Type(which, (getattr(literal, which).precision,), literal.nullable)
    kinds = {"boolean": "boolean", "var_char": "varchar"}
    return Type(kinds.get(which, which), (), literal.nullable)


def main(paths: Sequence[str]) -> int:
    """Check the serialized plans at ``paths``; print what does not fit."""
    from substrait import plan_pb2 as sp

    extensions = load_extensions([own_extension()])
    failed = 0
    for path in paths:
        plan = sp.Plan()
        plan.ParseFromString(Path(path).read_bytes())
        for problem in check(plan, extensions):
            failed += 1
            print(f"{path}: {problem}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
