"""Composition: short pipelines of found capabilities when no single one fits a need.

A need such as "normalize text then slugify it" is split into ordered parts (`split_need`). Each
part is searched (`index.search`), and a directed graph is built over the candidates of all parts:
an edge joins a step of one part to a step of the next when the first's output can flow into the
second's input, decided by

- their JSON Schemas (`check_schemas`, a pure function over a subset of JSON Schema: `type`,
  `properties`, `required`, `items`, `enum`/`const`, `additionalProperties: false`; a `$ref` is
  never followed): the output's type must fit the input's, and every field the input requires
  must be produced; or
- their ampersand type tokens (`check_tokens`): the producer's `feeds_into` names the consumer's
  capability (`&domain.*` wildcards), the consumer's `accepts_from` names the producer's, and the
  producer's `out` token is the consumer's `in` token.

A known contradiction (an output string into a required integer, an output object without a field
the input requires) rejects the join with its reason; no conversion step is ever invented. What
cannot be checked (a schema missing, a `$ref`, `anyOf`) joins nothing either, and says why. Paths
through the graph, in the need's order, one step per part and at most `MAX_STEPS` steps, are the
pipelines. A pipeline declares the union of its steps' effects and keeps every step's identity and
authority: discovery is not trust, and composing does not erase what each step is.

Every rejected join, endpoint or part is an `Attempt`; a Capability gap cites them as evidence.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from .search import SearchFilters, SearchResult
    from .store import Store

MAX_STEPS = 4
PER_PART = 5  # candidates searched for each part of a need
MAX_ATTEMPTS = 60  # attempts kept for the evidence; the rest are counted
OPAQUE = "custom:external.opaque-effects"

# -- splitting a need ---------------------------------------------------------------------------

# "and then" before "and"; "->", "→", "|>" for people who write pipelines as arrows
_SEPARATORS = re.compile(r"\s*(?:->|→|=>|\|>|[;,]|\band\s+then\b|\bthen\b|\band\b)\s*", re.IGNORECASE)
_FILLER = re.compile(r"^(?:first|next|finally|after\s+that|afterwards)\b\s*", re.IGNORECASE)


def split_need(need: str) -> list[str]:
    """The need's parts, in order: split on `then`, `and then`, `and`, `,`, `;`, `->`; empty parts dropped.
    "normalize text then slugify it" -> ["normalize text", "slugify it"]."""
    parts = []
    for piece in _SEPARATORS.split(need):
        piece = _FILLER.sub("", piece.strip()).strip()
        if piece:
            parts.append(piece)
    return parts


def need_parts(need: str, normalise: Any = str.lower) -> list[str]:
    """`split_need`, without the parts that say nothing once normalised ("then do it")."""
    return [part for part in split_need(need) if normalise(part).strip()]


# -- schema compatibility (pure) ----------------------------------------------------------------

Status = Literal["compatible", "contradiction", "unknown"]

_COMBINATORS = ("anyOf", "oneOf", "allOf", "not", "if", "then", "else", "$ref", "$dynamicRef", "patternProperties",
                "dependentSchemas", "prefixItems")
_JSON_TYPES = ("null", "boolean", "object", "array", "number", "integer", "string")
_MAX_DEPTH = 32
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Verdict:
    """Whether every value an output schema allows is accepted by an input schema.

    `compatible`: shown for the subset checked; `contradiction`: a known conflict (reasons say where);
    `unknown`: cannot be shown either way (a schema missing, a `$ref`, a combinator, a type not
    declared, a field the output may omit). Value facets (minLength, pattern, format, minimum...)
    are not compared: they are listed in `unchecked`, for runtime validation."""

    status: Status
    reasons: tuple[str, ...] = ()
    unchecked: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.status == "compatible"


def check_schemas(output: Any, input: Any) -> Verdict:
    """Can a value valid against `output` always be given to something whose input is `input`?"""
    if output is None:
        return Verdict("unknown", ("no output schema declared",))
    if input is None:
        return Verdict("unknown", ("no input schema declared",))
    found = _Found()
    _check(output, input, "$", found, 0)
    status: Status = "contradiction" if found.contradictions else "unknown" if found.unknowns else "compatible"
    return Verdict(status, tuple(found.contradictions + found.unknowns), tuple(sorted(set(found.unchecked))))


@dataclass
class _Found:
    contradictions: list[str] = field(default_factory=list)
    unknowns: list[str] = field(default_factory=list)
    unchecked: list[str] = field(default_factory=list)


def _member(path: str, key: str) -> str:
    return f"{path}.{key}" if _IDENTIFIER.fullmatch(key) else f"{path}[{key!r}]"


def _types(schema: dict[str, Any]) -> set[str] | None:
    """The JSON types a schema allows, from `type` (or its enum/const values); None: not constrained."""
    declared = schema.get("type")
    if isinstance(declared, str):
        return {declared}
    if isinstance(declared, list) and all(isinstance(t, str) for t in declared):
        return set(declared)
    values = _enum(schema)
    if values is not None:
        return {_json_type(v) for v in values}
    return None


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _enum(schema: dict[str, Any]) -> list[Any] | None:
    if "const" in schema:
        return [schema["const"]]
    values = schema.get("enum")
    return list(values) if isinstance(values, list) else None


def _same_json(a: Any, b: Any) -> bool:
    """JSON equality: true is not 1, 1 is 1.0, objects by members."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same_json(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same_json(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def _fits(out_type: str, in_types: set[str]) -> bool:
    return out_type in in_types or (out_type == "integer" and "number" in in_types)


def _overlaps(out_type: str, in_types: set[str]) -> bool:
    return _fits(out_type, in_types) or (out_type == "number" and "integer" in in_types)


def _show_types(types: set[str]) -> str:
    ordered = [t for t in _JSON_TYPES if t in types] + sorted(types - set(_JSON_TYPES))
    return ordered[0] if len(ordered) == 1 else "one of " + "/".join(ordered)


def _check(out: Any, inp: Any, path: str, found: _Found, depth: int) -> None:
    if depth > _MAX_DEPTH:
        found.unknowns.append(f"{path}: nested too deeply to check")
        return
    if inp is True or inp == {}:
        return  # the input accepts anything
    if inp is False:
        found.contradictions.append(f"{path}: the input accepts no value")
        return
    if out is True:
        out = {}
    if out is False:
        return  # the output never produces a value here
    if not isinstance(inp, dict) or not isinstance(out, dict):
        found.unknowns.append(f"{path}: not a JSON Schema object")
        return
    for side, schema in (("input", inp), ("output", out)):
        used = [k for k in _COMBINATORS if k in schema]
        if used:
            what = "$ref not followed" if used[0] in ("$ref", "$dynamicRef") else f"{used[0]} not checked"
            found.unknowns.append(f"{path}: {side} uses {used[0]} ({what})")
            return
    for key in inp:
        if key not in ("type", "properties", "required", "items", "enum", "const", "additionalProperties",
                       "title", "description", "default", "examples", "$schema", "$id", "$comment", "$defs",
                       "definitions", "deprecated", "readOnly", "writeOnly"):
            found.unchecked.append(f"{path}: {key}")

    in_types, out_types = _types(inp), _types(out)
    if in_types is not None:
        if out_types is None:
            found.unknowns.append(f"{path}: output type not declared, input requires {_show_types(in_types)}")
            return
        if not any(_overlaps(t, in_types) for t in out_types):
            found.contradictions.append(
                f"{path}: output type {_show_types(out_types)} but input requires {_show_types(in_types)}")
            return
        loose = {t for t in out_types if not _fits(t, in_types)}
        if loose:
            found.unknowns.append(
                f"{path}: output may be {_show_types(loose)}, input requires {_show_types(in_types)}")

    in_values, out_values = _enum(inp), _enum(out)
    if in_values is not None:
        if out_values is None:
            found.unknowns.append(f"{path}: input accepts only {_show_values(in_values)}, output is not limited to them")
        else:
            outside = [v for v in out_values if not any(_same_json(v, w) for w in in_values)]
            if outside and len(outside) == len(out_values):
                found.contradictions.append(
                    f"{path}: output values {_show_values(out_values)} are none of {_show_values(in_values)}")
            elif outside:
                found.unknowns.append(f"{path}: output may be {_show_values(outside)}, "
                                      f"input accepts only {_show_values(in_values)}")

    both = out_types if in_types is None else {t for t in (out_types or set()) if _overlaps(t, in_types)}
    if out_types is None or "object" in both:
        _check_object(out, inp, path, found, depth)
    if out_types is None or "array" in both:
        _check_array(out, inp, path, found, depth)


def _show_values(values: list[Any]) -> str:
    import json

    return "[" + ", ".join(json.dumps(v, ensure_ascii=False, sort_keys=True) for v in values) + "]"


def _check_object(out: dict[str, Any], inp: dict[str, Any], path: str, found: _Found, depth: int) -> None:
    in_props = inp.get("properties") if isinstance(inp.get("properties"), dict) else {}
    in_required = [r for r in inp.get("required", []) if isinstance(r, str)] if isinstance(inp.get("required"), list) else []
    if not in_props and not in_required and inp.get("additionalProperties") is not False:
        return
    out_props = out.get("properties") if isinstance(out.get("properties"), dict) else {}
    out_required = {r for r in out.get("required", []) if isinstance(r, str)} if isinstance(out.get("required"), list) else set()
    declares_fields = "properties" in out or "required" in out or out.get("additionalProperties") is False
    for name in in_required:
        where = _member(path, name)
        if name in out_props or name in out_required:
            if name not in out_required:
                found.unknowns.append(f"{where}: input requires it, output may omit it")
        elif declares_fields:
            found.contradictions.append(f"{path}: output object lacks required input field {name!r}")
        else:
            found.unknowns.append(f"{path}: output object declares no fields, input requires {name!r}")
    for name, in_schema in in_props.items():
        if name in out_props:
            _check(out_props[name], in_schema, _member(path, name), found, depth + 1)
        elif name in out_required:
            _check({}, in_schema, _member(path, name), found, depth + 1)
    if inp.get("additionalProperties") is False:
        for name in sorted(set(out_props) | out_required):
            if name in in_props:
                continue
            if name in out_required:
                found.contradictions.append(f"{_member(path, name)}: output always has this field, input accepts no such field")
            else:
                found.unknowns.append(f"{_member(path, name)}: output may have this field, input accepts no such field")
        if out.get("additionalProperties") is not False:
            found.unknowns.append(f"{path}: output may have other fields, input accepts no other fields")


def _check_array(out: dict[str, Any], inp: dict[str, Any], path: str, found: _Found, depth: int) -> None:
    if "items" not in inp:
        return
    in_items = inp["items"]
    if isinstance(in_items, list) or isinstance(out.get("items"), list):
        found.unknowns.append(f"{path}: tuple items not checked")
        return
    if "items" not in out:
        if in_items is True or in_items == {}:
            return
        found.unknowns.append(f"{path}: output items not declared, input constrains them")
        return
    _check(out["items"], in_items, f"{path}[*]", found, depth + 1)


# -- ampersand type tokens (pure) ---------------------------------------------------------------


@dataclass(frozen=True)
class Tokens:
    """An ampersand operation's composition facts: its capability, in/out type tokens, accepts_from, feeds_into."""

    capability: str
    input: str | None
    output: str | None
    accepts_from: tuple[str, ...]
    feeds_into: tuple[str, ...]

    @classmethod
    def of(cls, metadata: Any) -> Tokens | None:
        if not isinstance(metadata, Mapping):
            return None
        capability = metadata.get("capability")
        if not isinstance(capability, str) or not capability.startswith("&"):
            return None

        def listed(key: str) -> tuple[str, ...]:
            value = metadata.get(key)
            return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else ()

        token_in, token_out = metadata.get("in"), metadata.get("out")
        return cls(capability, token_in if isinstance(token_in, str) else None,
                   token_out if isinstance(token_out, str) else None, listed("accepts_from"), listed("feeds_into"))


def token_matches(pattern: str, token: str) -> bool:
    """`&memory.*` matches any subtype of the memory domain; anything else only itself (miners.ampersand's rule)."""
    from miners.ampersand import token_matches as matches

    return matches(pattern, token)


def check_tokens(producer: Tokens, consumer: Tokens) -> Verdict:
    """The ampersand protocol's rule for adjacent steps: producer's `feeds_into` names the consumer's capability,
    the consumer's `accepts_from` names the producer's, and the out token is the in token. A missing or empty
    list allows nothing."""
    reasons = []
    if not any(token_matches(t, consumer.capability) for t in producer.feeds_into):
        reasons.append(f"{producer.capability} feeds_into {list(producer.feeds_into)} does not name {consumer.capability}")
    if not any(token_matches(t, producer.capability) for t in consumer.accepts_from):
        reasons.append(f"{consumer.capability} accepts_from {list(consumer.accepts_from)} does not name {producer.capability}")
    if producer.output is None or consumer.input is None:
        reasons.append("a type token is missing")
    elif producer.output != consumer.input:
        reasons.append(f"type token {producer.output!r} out, {consumer.input!r} in")
    return Verdict("contradiction", tuple(reasons)) if reasons else Verdict("compatible")


# -- steps --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One found capability or candidate as a pipeline step: its identity and authority, kept whole."""

    ref: str
    id: str
    version: str | None
    name: str
    kind: str
    provenance: str
    native: bool
    authority_complete: bool
    effects: tuple[str, ...]  # declared effects, with custom:external.opaque-effects when authority is incomplete
    bound: bool
    executable: bool
    confidence: float
    package: str | None = None  # name@version of a native capability's package
    input: Any = None
    output: Any = None
    tokens: Tokens | None = None
    score: float = 0.0
    description: str = ""
    matched: tuple[str, ...] = ()  # the need's terms the search matched, when it says
    substrate: str = ""  # where it comes from, as search names it (index, npm, pypi, git, ...)
    format: str | None = None  # a declared candidate's format (ampersand, openapi, mcp, ...)

    @property
    def opaque(self) -> bool:
        return OPAQUE in self.effects

    @property
    def label(self) -> str:
        """id@version; a candidate's declared name too (its id is the store's, not a Capability id)."""
        label = f"{self.id}@{self.version}" if self.version else self.id
        return f"{label} {self.name}" if not self.native and self.name and self.name != self.id else label

    @classmethod
    def from_record(cls, record: Mapping[str, Any], *, ref: str, provenance: str, id: str | None = None,
                    kind: str | None = None,
                    bound: bool = False, executable: bool = False, confidence: float | None = None,
                    package: str | None = None, effects: Iterable[str] = (), score: float = 0.0,
                    matched: Iterable[str] = (), substrate: str = "") -> Step:
        """A step from a stored record: a native manifest (has `specVersion`) or a candidate record."""
        if "specVersion" in record and "draft_contract" not in record:
            declared = [e for e in record.get("effects", []) if isinstance(e, str)]
            authority = {"complete": OPAQUE not in declared, "effects": declared}
            contract: Mapping[str, Any] = record
            native = True
        else:
            authority = record.get("authority") if isinstance(record.get("authority"), Mapping) else {}
            contract = record.get("draft_contract") if isinstance(record.get("draft_contract"), Mapping) else {}
            native = False
        complete = authority.get("complete") is True
        all_effects = {e for e in (*effects, *record.get("effects", []), *authority.get("effects", []))
                       if isinstance(e, str)}
        if not complete:
            all_effects.add(OPAQUE)
        metadata = record.get("metadata")
        if not isinstance(metadata, Mapping) and isinstance(record.get("declared"), Mapping):
            metadata = record["declared"].get("metadata")
        version = contract.get("version") if isinstance(contract.get("version"), str) else None
        declared_format = record["declared"].get("format") if isinstance(record.get("declared"), Mapping) else None
        if id is None:
            declared = record.get("declared") if isinstance(record.get("declared"), Mapping) else {}
            id = record.get("id") if native else declared.get("capability_id") or contract.get("id") or record.get("id")
        return cls(
            ref=ref, id=str(id), version=version if native or version != "0.0.0" else None,
            name=str(record.get("name") or id), kind=kind or ("capability" if native else str(record.get("kind"))),
            provenance=provenance, native=native, authority_complete=complete, effects=tuple(sorted(all_effects)),
            bound=bound, executable=executable,
            confidence=float(confidence if confidence is not None else record.get("confidence", 1.0 if native else 0.0)),
            package=package, input=contract.get("input"), output=contract.get("output"), tokens=Tokens.of(metadata),
            score=score, description=str(record.get("description") or ""), matched=tuple(matched),
            substrate=substrate, format=declared_format if isinstance(declared_format, str) else None,
        )

    @classmethod
    def from_result(cls, result: SearchResult) -> Step:
        package = None
        if isinstance(result.package, Mapping) and result.package.get("name"):
            version = result.package.get("version")
            package = f"{result.package['name']}@{version}" if version else str(result.package["name"])
        return cls.from_record(result.record, ref=result.ref, provenance=result.provenance, id=result.id, kind=result.kind,
                               bound=result.bound, executable=result.executable, confidence=result.confidence,
                               package=package, effects=result.effects, score=result.score,
                               matched=_matched_terms(result.matched), substrate=str(getattr(result, "substrate", "")))

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "ref": self.ref, "id": self.id, "version": self.version, "name": self.name, "kind": self.kind,
            "provenance": self.provenance, "package": self.package,
            "authority": {"complete": self.authority_complete, "effects": list(self.effects)},
            "opaque": self.opaque, "bound": self.bound, "executable": self.executable, "confidence": self.confidence,
        }
        if self.tokens is not None:
            out["tokens"] = {"capability": self.tokens.capability, "in": self.tokens.input, "out": self.tokens.output}
        return out


def _matched_terms(matched: Any) -> tuple[str, ...]:
    if not isinstance(matched, Mapping):
        return ()
    terms = {t.lower() for values in matched.values() if isinstance(values, (list, tuple))
             for value in values if isinstance(value, str) for t in value.split()}
    return tuple(sorted(terms))


def _terms(text: str, normalise: Any) -> list[str]:
    return list(dict.fromkeys(t for t in normalise(text).lower().split() if len(t) >= 2))


def relevance(step: Step, parts: list[str], normalise: Any = str.lower) -> list[str]:
    """Why a single result does not answer the whole need, judged on its words (empty: it does). Search ranks,
    it does not decide: a result answers only when it matches more than half of the need's terms and, for a
    need of several parts, some term of each part (a term of the part's own, when it has one: a term two parts
    share says nothing about which of them is answered). Terms are compared as `normalise` gives them (search's
    `normalise_need`: stemmed, stop words dropped). The terms matched are the words the search says it matched,
    or else those of the result's id, name and description."""
    if step.matched:
        found = {term for word in step.matched for term in _terms(word, normalise)}
    else:
        found = set(_terms(f"{step.id.replace('/', ' ')} {step.name} {step.description}", normalise))
    reasons = []
    if len(parts) > 1:
        per_part = [_terms(p, normalise) for p in parts]
        missed = []
        for i, (part, terms) in enumerate(zip(parts, per_part, strict=True)):
            own = [t for t in terms if not any(t in other for j, other in enumerate(per_part) if j != i)] or terms
            if own and not found.intersection(own):
                missed.append(part)
        if missed:
            reasons.append(f"covers only part of the need (nothing for {', '.join(repr(p) for p in missed)})")
    terms = _terms(" ".join(parts), normalise)
    matched = [t for t in terms if t in found]
    if terms and 2 * len(matched) <= len(terms):
        reasons.append(f"matches too little of the need ({len(matched)} of {len(terms)} terms: "
                       f"{', '.join(matched) or 'none'})")
    return reasons


def shortfalls(step: Step, ceiling: frozenset[str] | None, allow_opaque: bool = False, min_confidence: float = 0.0,
               executable_only: bool = False) -> list[str]:
    """Why a step falls short of the filters (empty: it does not): over the ceiling, opaque effects, low
    confidence, not executable."""
    out = []
    if ceiling is not None:
        over = [e for e in step.effects if e != OPAQUE and e not in ceiling]
        if over:
            out.append(f"over the effects ceiling: {', '.join(over)}")
    if step.opaque and not allow_opaque:
        out.append("opaque effects: authority incomplete")
    if step.confidence < min_confidence:
        out.append(f"low confidence {step.confidence:.2f} < {min_confidence:.2f}")
    if executable_only and not step.executable:
        out.append("not executable")
    return out


def join(producer: Step, consumer: Step) -> tuple[Verdict, str]:
    """Whether producer's output may feed consumer's input, and by what ("schema" or "tokens")."""
    schemas = None
    if producer.output is not None and consumer.input is not None:
        schemas = check_schemas(producer.output, consumer.input)
        if schemas.status != "unknown":
            return schemas, "schema"  # a contradiction is never overridden by tokens
    if producer.tokens is not None and consumer.tokens is not None:
        tokens = check_tokens(producer.tokens, consumer.tokens)
        if tokens.ok or schemas is None:
            return tokens, "tokens"
        return Verdict("unknown", schemas.reasons + tokens.reasons), "schema"
    if schemas is not None:
        return schemas, "schema"
    missing = []
    if producer.output is None:
        missing.append(f"{producer.label} declares no output schema")
    if consumer.input is None:
        missing.append(f"{consumer.label} declares no input schema")
    if producer.tokens is None or consumer.tokens is None:
        missing.append("no ampersand type tokens on both sides")
    return Verdict("unknown", tuple(missing)), "none"


# -- pipelines ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Join:
    via: str  # "schema" or "tokens"
    unchecked: tuple[str, ...] = ()


@dataclass
class Pipeline:
    parts: list[str]
    steps: list[Step]
    joins: list[Join]

    @property
    def effects(self) -> list[str]:
        """The union of every step's effects: a composition declares all of them."""
        return sorted({e for s in self.steps for e in s.effects})

    @property
    def authority_complete(self) -> bool:
        return all(s.authority_complete for s in self.steps)

    @property
    def opaque(self) -> bool:
        return any(s.opaque for s in self.steps)

    @property
    def bound(self) -> bool:
        return all(s.bound for s in self.steps)

    @property
    def executable(self) -> bool:
        return all(s.executable for s in self.steps)

    @property
    def confidence(self) -> float:
        return min(s.confidence for s in self.steps)

    @property
    def score(self) -> float:
        return sum(s.score for s in self.steps) / len(self.steps)

    def describe(self) -> str:
        return " -> ".join(s.label for s in self.steps)

    def as_dict(self) -> dict[str, Any]:
        return {
            "steps": [{**s.as_dict(), "part": part} for s, part in zip(self.steps, self.parts, strict=True)],
            "joins": [{"via": j.via, "unchecked": list(j.unchecked)} for j in self.joins],
            "effects": self.effects,
            "authority": {"complete": self.authority_complete, "effects": self.effects},
            "opaque": self.opaque, "bound": self.bound, "executable": self.executable,
            "confidence": self.confidence, "score": round(self.score, 6),
        }


@dataclass(frozen=True)
class Attempt:
    """What composition tried and why it did not give a pipeline."""

    steps: tuple[str, ...]  # step labels (empty for a need- or part-level attempt)
    reason: str

    def describe(self) -> str:
        return f"{' -> '.join(self.steps)}: {self.reason}" if self.steps else self.reason


@dataclass
class ComposeOutcome:
    parts: list[str]
    pipelines: list[Pipeline] = field(default_factory=list)
    attempts: list[Attempt] = field(default_factory=list)
    attempts_left_off: int = 0

    def attempt(self, steps: Sequence[str], reason: str) -> None:
        entry = Attempt(tuple(steps), reason)
        if entry in self.attempts:
            return
        if len(self.attempts) >= MAX_ATTEMPTS:
            self.attempts_left_off += 1
        else:
            self.attempts.append(entry)

    def described_attempts(self) -> list[str]:
        out = [a.describe() for a in self.attempts]
        if self.attempts_left_off:
            out.append(f"{self.attempts_left_off} more attempts not listed")
        return out

    def as_dict(self) -> dict[str, Any]:
        return {"parts": self.parts, "pipelines": [p.as_dict() for p in self.pipelines],
                "attempts": self.described_attempts()}


def compose_steps(parts: Sequence[str], candidates: Sequence[Sequence[Step]], *, ceiling: frozenset[str] | None = None,
                  allow_opaque: bool = False, min_confidence: float = 0.0, executable_only: bool = False,
                  input_schema: Any = None, output_schema: Any = None, max_steps: int = MAX_STEPS,
                  limit: int = 10) -> ComposeOutcome:
    """Pipelines over given candidates, one step per part in order (pure: no store, no search).

    `candidates[i]` are the steps found for `parts[i]`. A step that falls short of the filters is left
    out (and said so); a join is an edge only when `join` shows it; the need's own input schema must
    flow into the first step and the last step's output into the need's output schema, when given."""
    import networkx as nx

    outcome = ComposeOutcome(list(parts))
    if len(parts) < 2:
        outcome.attempt((), "the need has one part: there is nothing to compose")
        return outcome
    if len(parts) > max_steps:
        outcome.attempt((), f"the need has {len(parts)} parts; a pipeline has at most {max_steps} steps")
        return outcome

    layers: list[list[Step]] = []
    for i, (part, found) in enumerate(zip(parts, candidates, strict=True)):
        usable = []
        for step in found:
            short = shortfalls(step, ceiling, allow_opaque, min_confidence, executable_only)
            if short:
                outcome.attempt((step.label,), f"step for part {i + 1} ({part!r}): {'; '.join(short)}")
            else:
                usable.append(step)
        if not usable:
            outcome.attempt((), f"part {i + 1} ({part!r}): no candidate under the filters")
        layers.append(usable)
    if any(not layer for layer in layers):
        return outcome

    graph = nx.DiGraph()
    start, end = ("start",), ("end",)
    for i, layer in enumerate(layers):
        for j, step in enumerate(layer):
            graph.add_node((i, j))
    for j, step in enumerate(layers[0]):
        if input_schema is None:
            graph.add_edge(start, (0, j), join=None)
            continue
        verdict = check_schemas(input_schema, step.input)
        if verdict.ok:
            graph.add_edge(start, (0, j), join=Join("schema", verdict.unchecked))
        else:
            outcome.attempt((step.label,), f"the required input does not fit its input ({verdict.status}: "
                                           f"{'; '.join(verdict.reasons)})")
    last = len(layers) - 1
    for j, step in enumerate(layers[last]):
        if output_schema is None:
            graph.add_edge((last, j), end, join=None)
            continue
        verdict = check_schemas(step.output, output_schema)
        if verdict.ok:
            graph.add_edge((last, j), end, join=Join("schema", verdict.unchecked))
        else:
            outcome.attempt((step.label,), f"its output does not fit the required output ({verdict.status}: "
                                           f"{'; '.join(verdict.reasons)})")
    for i in range(last):
        for a, producer in enumerate(layers[i]):
            for b, consumer in enumerate(layers[i + 1]):
                verdict, via = join(producer, consumer)
                if verdict.ok:
                    graph.add_edge((i, a), (i + 1, b), join=Join(via, verdict.unchecked))
                else:
                    word = "rejected" if verdict.status == "contradiction" else "cannot be checked"
                    outcome.attempt((producer.label, consumer.label), f"{word}: {'; '.join(verdict.reasons)}")

    if start not in graph or end not in graph or not nx.has_path(graph, start, end):
        outcome.attempt((), f"no chain of compatible steps joins all {len(parts)} parts")
        return outcome
    found_pipelines = []
    for path in nx.all_simple_paths(graph, start, end, cutoff=len(parts) + 1):
        nodes = path[1:-1]
        steps = [layers[i][j] for i, j in nodes]
        joins = [graph.edges[u, v]["join"] for u, v in pairwise(nodes)]
        pipeline = Pipeline(list(parts), steps, joins)
        over = [e for e in pipeline.effects if e != OPAQUE and ceiling is not None and e not in ceiling]
        if over:  # each step is within the ceiling, so the union is: kept as a guard
            outcome.attempt([s.label for s in steps], f"effects {', '.join(over)} over the ceiling")
            continue
        found_pipelines.append(pipeline)
    found_pipelines.sort(key=lambda p: (-p.score, -p.confidence, [s.ref for s in p.steps]))
    outcome.pipelines = found_pipelines[:limit]
    return outcome


def compose(store: Store, need: str, filters: SearchFilters | None = None, *, input_schema: Any = None,
            output_schema: Any = None, per_part: int = PER_PART) -> ComposeOutcome:
    """Search each part of the need under the filters and compose pipelines from what is found: a result that
    does not answer its part (`relevance`) is not a step for it."""
    from dataclasses import replace

    from .search import SearchFilters, normalise_need, search

    filters = filters or SearchFilters()
    parts = need_parts(need, normalise_need)
    if len(parts) < 2 or len(parts) > MAX_STEPS:
        return compose_steps(parts, [[] for _ in parts], limit=filters.limit)
    part_filters = replace(filters, limit=per_part)
    candidates, unrelated = [], []
    for i, part in enumerate(parts):
        found = []
        for step in (Step.from_result(r) for r in search(store, part, part_filters)):
            off = relevance(step, [part], normalise_need)
            if off:
                unrelated.append(((step.label,), f"found for part {i + 1} ({part!r}) but {'; '.join(off)}"))
            else:
                found.append(step)
        candidates.append(found)
    outcome = compose_steps(parts, candidates, ceiling=filters.effects_ceiling, allow_opaque=filters.allow_opaque,
                            min_confidence=filters.min_confidence, executable_only=filters.executable_only,
                            input_schema=input_schema, output_schema=output_schema, limit=filters.limit)
    for steps, reason in unrelated:
        outcome.attempt(steps, reason)
    return outcome
