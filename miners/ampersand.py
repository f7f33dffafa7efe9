"""Ampersand ([&] protocol v0.1) capability contracts, read statically: one `Declared` per operation.

A contract file (`contracts/v0.1.0/time.anomaly.contract.json`) declares one capability `&domain.name`, the
provider that satisfies it, and its `operations`, each with an input and an output type token. A JSON/YAML
list of contracts is read too. Composition is typed: `accepts_from`/`feeds_into` say which capabilities may
sit before and after this one (`&memory.*` wildcards), and adjacent operations must agree on the type token;
`token_matches`, `can_feed` and `accepts_source` decide that, as the protocol's reference pipeline check does.

Each operation's `Declared`:
- original_id `&time.anomaly#detect`: the capability, `#`, the operation name (`#` cannot occur in either);
- namespace `ticktickclock/time.anomaly`: provider, then the capability without `&`, because several providers
  satisfy one contract and one provider several contracts (`time.anomaly` alone when the provider is missing);
- metadata: the type tokens `in`/`out`, `deterministic`, `side_effects`, `capability`, `operation`, `provider`,
  `version`, `accepts_from`, `feeds_into`, `a2a_skills`, the contract's `metadata` and `$schema`, each exactly as
  written and only when present; unknown fields under `operation_extra`/`contract_extra`;
- declaration_digest: canonical JSON of the contract narrowed to this one operation, since the operation's
  meaning includes the contract around it (capability, provider, accepts_from...).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from miners.declared import Declared, Imported, Problem, canonical_json, load_document, sha256
from miners.declared_checks import Problems, check, is_bool, is_obj, is_text, show
from miners.doc_lines import is_yaml, pointer

FORMAT = "ampersand"

# Ampersand `side_effects` (the protocol's whole vocabulary) -> Capability effects. It is a boolean, "whether
# the operation modifies state": it names no store, channel or network, so nothing maps to a built-in effect;
# true keeps the claim under ampersand's prefix, false declares none (and read_only).
SIDE_EFFECTS: dict[bool, tuple[str, ...]] = {
    True: ("custom:ampersand.side_effects",),
    False: (),
}

CAPABILITY = re.compile(r"&[a-z][a-z0-9_-]*(\.[A-Za-z][A-Za-z0-9_-]*)?")  # &primitive or &primitive.subtype
WILDCARD = re.compile(r"&([a-z][a-z0-9_-]*)\.\*")  # &memory.*: any subtype of the domain
TYPE_TOKEN = re.compile(r"[a-z][a-z0-9_:-]*")  # stream_data, anomaly_set, output, ack...
OPERATION_NAME = TYPE_TOKEN
PROVIDER = re.compile(r"[a-z][a-z0-9-]*")
SEMVER = re.compile(
    r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?"
)
SKILL = re.compile(r"[a-z0-9]+([._-][a-z0-9]+)*")

CONTRACT_FIELDS = ("provider", "version", "accepts_from", "feeds_into", "a2a_skills", "metadata", "$schema")
_CONTRACT_OWN = ("capability", "description", "operations", *CONTRACT_FIELDS)
OPERATION_FIELDS = ("in", "out", "deterministic", "side_effects")
_OPERATION_OWN = ("description", *OPERATION_FIELDS)

_HEAD = 8192
_JSON_CAPABILITY = re.compile(rb'"capability"\s*:\s*"&')
_YAML_CAPABILITY = re.compile(rb"(?m)^[ \t-]*capability[ \t]*:[ \t]*[\"']&")
_CONTRACT_KEY = re.compile(rb"\b(operations|accepts_from|feeds_into)\b")


def sniff(path: str, data: bytes) -> bool:
    """An ampersand contract by its first bytes: a `capability` whose value starts with `&` (an ampersand.json
    agent declaration has `capabilities` instead) and one of operations/accepts_from/feeds_into."""
    if not path.lower().endswith((".json", ".yaml", ".yml")):
        return False
    head = data[:_HEAD]
    found = _YAML_CAPABILITY if is_yaml(path) else _JSON_CAPABILITY
    return bool(found.search(head) and _CONTRACT_KEY.search(head))


def read(path: str, data: bytes) -> Imported:
    out = Imported()
    if (loaded := load_document(path, data, out)) is None:
        return out
    value, lines = loaded
    doc = _Doc(path, lines, out.problems, sha256(data), is_yaml(path), data.decode("utf-8-sig").splitlines())
    if isinstance(value, list):
        contracts = [(pointer("", i), item) for i, item in enumerate(value)]
    elif isinstance(value, dict):
        contracts = [("", value)]
    else:
        doc.problem("", f"expected an ampersand capability contract object, found {show(value)}")
        contracts = []
    for ptr, contract in contracts:
        try:
            out.operations.extend(_contract(contract, ptr, doc))
        except RecursionError:
            doc.problem(ptr, "nested too deeply")
    return out


# --- composition ---------------------------------------------------------------------------------


def token_matches(pattern: str, token: str) -> bool:
    """Whether a composition target (an `accepts_from`/`feeds_into` entry) matches a capability or type token.
    `&memory.*` matches any subtype of the memory domain (&memory.graph, &memory.vector), not another domain
    and not the bare `&memory`; everything else, literal types included, matches only itself."""
    wildcard = WILDCARD.fullmatch(pattern)
    if wildcard and token != pattern:
        return token.startswith(f"&{wildcard.group(1)}.") and CAPABILITY.fullmatch(token) is not None
    return pattern == token


def can_feed(producer: Declared | Mapping[str, Any], consumer: Declared | Mapping[str, Any]) -> bool:
    """Whether producer's output may flow into consumer, by the rules the protocol checks for adjacent pipeline
    steps: producer's `feeds_into` matches consumer's capability, consumer's `accepts_from` matches producer's
    capability, and producer's output type token equals consumer's input type token. Each side is one operation
    (a `Declared` from `read`) or a whole contract (its parsed mapping: any of its operations' tokens).
    Conservative where the protocol's reference runtime is permissive: a missing or empty list allows nothing
    (both lists are required by the contract format), and a malformed token never matches."""
    left, right = _view(producer), _view(consumer)
    if left is None or right is None:
        return False
    return (
        any(token_matches(target, right.capability) for target in left.feeds_into)
        and any(token_matches(target, left.capability) for target in right.accepts_from)
        and bool(left.outs & right.ins)
    )


def accepts_source(consumer: Declared | Mapping[str, Any], source: str = "raw_data") -> bool:
    """Whether a pipeline's first step may take its input from `source` (a literal type such as raw_data, or a
    capability): the reference check's rule for the first step, by `accepts_from` alone."""
    view = _view(consumer)
    return view is not None and any(token_matches(target, source) for target in view.accepts_from)


class _Step(NamedTuple):
    capability: str
    feeds_into: tuple[str, ...]
    accepts_from: tuple[str, ...]
    ins: frozenset[str]
    outs: frozenset[str]


def _view(step: Declared | Mapping[str, Any]) -> _Step | None:
    if isinstance(step, Declared):
        if step.format != FORMAT:
            return None
        source, operations = step.metadata, [step.metadata]
    elif isinstance(step, Mapping):
        ops = step.get("operations")
        source, operations = step, list(ops.values()) if isinstance(ops, Mapping) else []
    else:
        return None
    capability = source.get("capability")
    if not isinstance(capability, str) or not CAPABILITY.fullmatch(capability):
        return None

    def targets(key: str) -> tuple[str, ...]:
        value = source.get(key)
        return tuple(t for t in value if isinstance(t, str)) if isinstance(value, list) else ()

    def tokens(key: str) -> frozenset[str]:
        found = (op.get(key) for op in operations if isinstance(op, Mapping))
        return frozenset(t for t in found if isinstance(t, str) and TYPE_TOKEN.fullmatch(t))

    return _Step(capability, targets("feeds_into"), targets("accepts_from"), tokens("in"), tokens("out"))


# --- one contract --------------------------------------------------------------------------------


@dataclass
class _Doc(Problems):
    path: str
    lines: dict[str, int]
    problems: list[Problem]
    source_digest: str
    yaml: bool
    text: list[str]

    def span(self, ptr: str, key: str) -> tuple[int, int]:
        """(first, last) line of the member `key` whose value is at ptr: the key's line (a line before its value
        in YAML's block style, as miners/openapi.py counts), and the start of the last value nested in it."""
        start = self.lines.get(ptr, 1)
        last = max([start, *(line for at, line in self.lines.items() if at.startswith(ptr + "/"))])
        named = re.compile(rf"""\s*['"]?{re.escape(key)}['"]?\s*:""")
        if start > len(self.text) or named.search(self.text[start - 1]):
            return start, last
        before = start - 1
        while before > 0 and (not self.text[before - 1].strip() or self.text[before - 1].lstrip().startswith("#")):
            before -= 1  # blank lines and comments may sit between a key and its block
        return (before if before > 0 and named.match(self.text[before - 1]) else start), last

    def expected(self, what: str, value: Any) -> str:
        # a bare `&x.y` in YAML is an anchor, so the value silently becomes null
        hint = " (in YAML quote it: a bare & starts an anchor)" if self.yaml and value is None else ""
        return super().expected(what, value) + hint


def _contract(contract: Any, ptr: str, doc: _Doc) -> list[Declared]:
    if not isinstance(contract, dict):
        doc.problem(ptr, f"a capability contract must be an object, found {show(contract)}")
        return []
    capability = check(
        doc, contract, ptr, "capability", _matches(CAPABILITY), "a capability id like &time.anomaly", True
    )
    if capability is None:  # nothing to name its operations by: reported, not imported
        return []
    provider = check(doc, contract, ptr, "provider", _matches(PROVIDER), "a lowercase provider id", True)
    check(doc, contract, ptr, "version", _matches(SEMVER), "a semantic version such as 0.1.0", True)
    summary = check(doc, contract, ptr, "description", is_text, "a non-empty string", True)
    for key in ("accepts_from", "feeds_into"):
        _targets(contract, ptr, key, doc)
    _skills(contract, ptr, doc)
    check(doc, contract, ptr, "metadata", is_obj, "an object")
    operations = check(doc, contract, ptr, "operations", _is_nonempty_obj, "an object of at least one operation", True)
    scope = _Scope(
        value=contract,
        capability=capability,
        namespace=f"{provider}/{capability[1:]}" if provider else capability[1:],
        summary=summary or "",
        shared={key: contract[key] for key in CONTRACT_FIELDS if key in contract},
        extra={key: value for key, value in contract.items() if key not in _CONTRACT_OWN},
    )
    found = []
    for name, operation in (operations or {}).items():
        optr = pointer(pointer(ptr, "operations"), name)
        if not OPERATION_NAME.fullmatch(name):
            doc.problem(optr, f"operation name {name!r} is not lowercase letters, digits, _ : -")
        if not isinstance(operation, dict):
            doc.problem(optr, f"an operation must be an object with in and out, found {show(operation)}")
            continue
        found.append(_operation(scope, name, operation, optr, doc))
    return found


class _Scope(NamedTuple):
    """What a contract gives each of its operations."""

    value: dict[str, Any]
    capability: str
    namespace: str
    summary: str  # the contract's description: an operation's own, when it has none
    shared: dict[str, Any]  # CONTRACT_FIELDS present in the contract, as written
    extra: dict[str, Any]  # fields the format does not define


def _operation(scope: _Scope, name: str, operation: dict[str, Any], optr: str, doc: _Doc) -> Declared:
    for key in ("in", "out"):
        check(doc, operation, optr, key, _matches(TYPE_TOKEN), "a type token such as stream_data", True)
    description = check(doc, operation, optr, "description", is_text, "a non-empty string")
    deterministic = check(doc, operation, optr, "deterministic", is_bool, "true or false")
    side_effects = check(doc, operation, optr, "side_effects", is_bool, "true or false")
    notes = []
    if side_effects is None:
        notes.append("side_effects not declared or unreadable: whether it modifies state is unknown")
    metadata: dict[str, Any] = {"capability": scope.capability, "operation": name}
    metadata.update({key: operation[key] for key in OPERATION_FIELDS if key in operation})
    metadata.update(scope.shared)
    extra = {key: value for key, value in operation.items() if key not in _OPERATION_OWN}
    if extra:
        metadata["operation_extra"] = extra
    if scope.extra:
        metadata["contract_extra"] = scope.extra
    hints = {"deterministic": deterministic, "side_effects": side_effects}
    first, last = doc.span(optr, name)
    return Declared(
        format=FORMAT,
        original_id=f"{scope.capability}#{name}",
        local_name=name,
        name=name,
        description=description or scope.summary,
        path=doc.path,
        line=first,
        end_line=last,
        pointer=optr,
        namespace=scope.namespace,
        source_digest=doc.source_digest,
        declaration_digest=sha256(canonical_json({**scope.value, "operations": {name: operation}})),
        digest_of="canonical-json",
        effects=list(SIDE_EFFECTS[side_effects]) if side_effects is not None else [],
        read_only=None if side_effects is None else not side_effects,
        hints={key: value for key, value in hints.items() if value is not None},
        metadata=metadata,
        notes=notes,
    )


def _targets(contract: dict[str, Any], ptr: str, key: str, doc: _Doc) -> None:
    """accepts_from / feeds_into: a non-empty list of capability ids, `&domain.*` wildcards or type tokens."""
    value = check(doc, contract, ptr, key, _is_nonempty_list, "a non-empty array of capabilities or type tokens", True)
    for i, target in enumerate(value or []):
        if not (
            isinstance(target, str)
            and (CAPABILITY.fullmatch(target) or WILDCARD.fullmatch(target) or TYPE_TOKEN.fullmatch(target))
        ):
            doc.problem(pointer(pointer(ptr, key), i), doc.expected("&domain.name, &domain.* or a type token", target))


def _skills(contract: dict[str, Any], ptr: str, doc: _Doc) -> None:
    skills = check(doc, contract, ptr, "a2a_skills", lambda v: isinstance(v, list), "an array of skill ids")
    for i, skill in enumerate(skills or []):
        if not (isinstance(skill, str) and SKILL.fullmatch(skill)):
            doc.problem(
                pointer(pointer(ptr, "a2a_skills"), i), doc.expected("a skill id such as anomaly-detection", skill)
            )


# --- field checks --------------------------------------------------------------------------------


def _matches(pattern: re.Pattern[str]) -> Callable[[Any], bool]:
    return lambda value: isinstance(value, str) and pattern.fullmatch(value) is not None


def _is_nonempty_obj(value: Any) -> bool:
    return isinstance(value, dict) and bool(value)


def _is_nonempty_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value)


