"""Capability gaps: what to write down when nothing found satisfies a need under its effects ceiling.

`evaluate` searches the need (`index.search`) under the request's filters and judges every result
itself: a result satisfies only when it answers the whole need (`index.compose.relevance`: more than half
of its terms, and each of its parts), is within the ceiling, has no opaque effects (unless the
ceiling allows `custom:external.opaque-effects`), is confident enough, is executable when asked,
is bound to an exact artifact when it is external, and fits the required input and output schemas.
If no single result does, composition (`index.compose`) is tried. When neither satisfies, a
Capability gap 0.1 document is built (validated by `schemas.models.CapabilityGap`) with the near
misses found by a relaxed search (no ceiling, opaque allowed, any confidence), each with why it
fell short, and the composition attempts, and stored in `gaps`.

A gap is keyed by the normalised need (`index.search.normalise_need`) and the ceiling: the same
need asked again, in any wording that normalises the same, adds one to its demand and refreshes
its last-asked time and evidence; its id, createdAt and first wording stay. A need that is
satisfied later marks its gap satisfied, and the gap is no longer published.

`publish_gaps` writes `gaps/<name>.json` (one gap document each) and `gaps/index.json`, a
`gapListingVersion` 0.1 document ranked by demand (`schemas/gap-listing.schema.json`).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from schemas.errors import CapindexError

from .compose import (
    MAX_STEPS,
    OPAQUE,
    ComposeOutcome,
    Pipeline,
    Step,
    check_schemas,
    compose,
    need_parts,
    relevance,
    shortfalls,
)

if TYPE_CHECKING:
    from .store import Store

GAPS_DIR = "gaps"
LISTING_VERSION = "0.1"
SUBSTRATES = ("native", "npm", "pypi", "oci", "mcp", "openapi", "repository", "composition", "gap")
NEAR_MISSES = 25  # results of the relaxed search judged for the evidence
_SLUG = re.compile(r"[^a-z0-9._-]+")


class GapError(CapindexError, ValueError):
    """A gap request that cannot be evaluated: an empty need, an unknown effect, an unreadable schema."""


# -- the request ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class GapRequest:
    need: str
    ceiling: frozenset[str] = frozenset()  # effects allowed; custom:external.opaque-effects allows opaque ones
    min_confidence: float = 0.0
    executable_only: bool = False
    kinds: frozenset[str] | None = None
    substrates: frozenset[str] | None = None
    input_schema: dict[str, Any] | None = None
    output_schema: dict[str, Any] | None = None
    verification: tuple[str, ...] = ()
    limit: int = 10

    @property
    def allow_opaque(self) -> bool:
        return OPAQUE in self.ceiling

    def filters(self) -> Any:
        from .search import SearchFilters

        return SearchFilters(effects_ceiling=frozenset(e for e in self.ceiling if e != OPAQUE),
                             allow_opaque=self.allow_opaque, kinds=self.kinds, substrates=self.substrates,
                             executable_only=self.executable_only, min_confidence=self.min_confidence,
                             limit=self.limit)


def parse_effects(values: Iterable[str], where: str = "--ceiling") -> frozenset[str]:
    """Effects given as repeated and/or comma-separated values; each built-in or custom:<namespace>."""
    from schemas import load_schema
    from schemas.ecma import pattern_matches

    effect = load_schema("manifest")["$defs"]["effect"]["anyOf"]
    builtin, custom = frozenset(effect[0]["enum"]), effect[1]["pattern"]
    found = set()
    for value in values:
        for item in value.split(","):
            item = item.strip()
            if not item:
                continue
            if item not in builtin and not pattern_matches(custom, item):
                raise GapError(f"{where} {item!r}: not a built-in effect ({', '.join(sorted(builtin))}) "
                               "nor custom:<namespace>")
            found.add(item)
    return frozenset(found)


def read_schema_file(path: str | Path, where: str) -> dict[str, Any]:
    """A JSON Schema object from a file, or one clear GapError."""
    from schemas.documents import parse_json
    from schemas.errors import DocumentError

    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise GapError(f"{where} {path}: cannot read ({exc.strerror or exc})") from None
    try:
        value = parse_json(raw, str(path))
    except DocumentError as exc:
        raise GapError(f"{where} {path}: {'; '.join(exc.problems)}") from None
    if not isinstance(value, dict):
        raise GapError(f"{where} {path}: a JSON Schema must be an object")
    return value


# -- judging -------------------------------------------------------------------------------------


@dataclass
class Judged:
    step: Step
    reasons: list[str]

    def describe(self) -> str:
        step = self.step
        where = f", in {step.package}" if step.package else ""
        return f"{step.label} ({step.ref}, {step.provenance}{where}): {'; '.join(self.reasons)}"


def judge(step: Step, request: GapRequest, parts: list[str] | None = None, normalise: Any = str.lower) -> list[str]:
    """Why a found capability or candidate does not satisfy the request (empty: it does). With the need's
    parts, a single result must answer the whole need (see `index.compose.relevance`)."""
    reasons = relevance(step, parts or [], normalise)
    reasons += shortfalls(step, frozenset(e for e in request.ceiling if e != OPAQUE), request.allow_opaque,
                         request.min_confidence, request.executable_only)
    if not step.native and not step.bound:
        reasons.append("not bound to an exact artifact")
    if request.input_schema is not None:
        verdict = check_schemas(request.input_schema, step.input)
        if not verdict.ok:
            reasons.append(f"schema mismatch, required input ({verdict.status}: {'; '.join(verdict.reasons)})")
    if request.output_schema is not None:
        verdict = check_schemas(step.output, request.output_schema)
        if not verdict.ok:
            reasons.append(f"schema mismatch, required output ({verdict.status}: {'; '.join(verdict.reasons)})")
    return reasons


def _unbound(pipeline: Pipeline) -> list[str]:
    return [s.label for s in pipeline.steps if not s.native and not s.bound]


# -- evaluating ----------------------------------------------------------------------------------


@dataclass
class Outcome:
    need: str
    normalised: str
    request: GapRequest
    results: list[Step] = field(default_factory=list)  # single capabilities that satisfy the need
    pipelines: list[Pipeline] = field(default_factory=list)  # compositions that do
    near_misses: list[Judged] = field(default_factory=list)
    composition: ComposeOutcome | None = None
    gap: dict[str, Any] | None = None
    demand: int | None = None
    first_asked: str | None = None
    last_asked: str | None = None

    @property
    def satisfied(self) -> bool:
        return bool(self.results or self.pipelines)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"need": self.need, "normalised": self.normalised, "satisfied": self.satisfied,
                               "effectsCeiling": sorted(self.request.ceiling)}
        if self.satisfied:
            out["results"] = [s.as_dict() for s in self.results]
            out["pipelines"] = [p.as_dict() for p in self.pipelines]
        else:
            out["gap"] = self.gap
            out["demand"] = self.demand
            out["firstAsked"] = self.first_asked
            out["lastAsked"] = self.last_asked
            out["nearMisses"] = [{**j.step.as_dict(), "reasons": j.reasons} for j in self.near_misses]
            out["compositionAttempts"] = self.composition.described_attempts() if self.composition else []
        return out


def evaluate(store: Store, request: GapRequest, now: str | None = None) -> Outcome:
    """Search, compose, judge; store the gap when nothing satisfies the request (or mark it satisfied)."""
    from schemas.ecma import utc_now

    from .search import normalise_need, search

    need = request.need.strip()
    if not need:
        raise GapError("need: empty; say what the software should do")
    normalised = normalise_need(need)
    if not normalised.strip():
        raise GapError(f"need {need!r}: nothing to search for once normalised")
    now = now or utc_now()
    outcome = Outcome(need, normalised, request)
    filters = request.filters()

    parts = need_parts(need, normalise_need)
    strict = [Step.from_result(r) for r in search(store, need, filters)]
    outcome.results = [s for s in strict if not judge(s, request, parts, normalise_need)]
    if not outcome.results:
        composed = compose(store, need, filters, input_schema=request.input_schema,
                           output_schema=request.output_schema)
        outcome.composition = composed
        for pipeline in composed.pipelines:
            unbound = _unbound(pipeline)
            if unbound:
                composed.attempt([s.label for s in pipeline.steps],
                                 f"compatible, but not bound to an exact artifact: {', '.join(unbound)}")
            else:
                outcome.pipelines.append(pipeline)
    if outcome.satisfied:
        _mark_satisfied(store, normalised, request, now)
        return outcome

    relaxed = replace(filters, effects_ceiling=None, allow_opaque=True, min_confidence=0.0, executable_only=False,
                      limit=max(NEAR_MISSES, request.limit))
    seen = set()
    strict_refs = {s.ref for s in strict}
    for step in [*strict, *(Step.from_result(r) for r in search(store, need, relaxed))]:
        if step.ref in seen:
            continue
        seen.add(step.ref)
        reasons = judge(step, request, parts, normalise_need) or (
            ["excluded by the search filters"] if step.ref not in strict_refs else [])
        if reasons:
            outcome.near_misses.append(Judged(step, reasons))
    _record(store, outcome, now)
    return outcome


def _key(request: GapRequest) -> str:
    return json.dumps(sorted(request.ceiling), separators=(",", ":"))


def gap_id(normalised: str, ceiling_key: str) -> str:
    """`gap/<slug of the need>-<8 hex of need and ceiling>`: readable, and distinct per ceiling."""
    slug = _SLUG.sub("-", normalised.lower()).strip("-._")[:48].strip("-._") or "need"
    digest = hashlib.sha256(f"{normalised}\0{ceiling_key}".encode()).hexdigest()[:8]
    return f"gap/{slug}-{digest}"


def _searched(store: Store, outcome: Outcome) -> list[str]:
    """The gap format's substrates this evaluation looked in: the native index, the registries and
    repositories candidates came from (or those the request named), declared formats seen, composition when
    the need had parts to compose, and the stored gaps."""
    request = outcome.request
    if request.substrates:
        found = {_substrate(s) for s in request.substrates}
    else:
        found = {"native"}
        for (ecosystem,) in store.conn.execute("SELECT DISTINCT ecosystem FROM candidates"):
            found.add(_substrate(ecosystem))
    for judged in outcome.near_misses:
        step = judged.step
        if step.format in ("mcp", "openapi"):
            found.add(step.format)
        if "mcp-tool" in step.kind or "mcp-resource" in step.kind:
            found.add("mcp")
    if outcome.composition is not None and 2 <= len(outcome.composition.parts) <= MAX_STEPS:
        found.add("composition")
    found.add("gap")  # the stored gaps were consulted for this need
    found.discard("")
    return [s for s in SUBSTRATES if s in found]


def _substrate(name: str) -> str:
    """A candidate ecosystem or a search substrate (index, npm, pypi, git, mined:git, declared:npm, ...) as the
    gap format names substrates ("" when it has no name there)."""
    name = name.split(":", 1)[1] if name.startswith(("mined:", "declared:")) else name
    if name in ("index", "native"):
        return "native"
    if name in ("npm", "pypi", "oci", "mcp", "openapi"):
        return name
    if name in ("git", "github", "directory", "repository"):
        return "repository"
    return ""


def _verification(request: GapRequest) -> list[str]:
    given = [v.strip() for v in request.verification if v.strip()]
    if given:
        return list(dict.fromkeys(given))
    ceiling = ", ".join(sorted(request.ceiling)) or "none"
    out = [f"effects observed at run time stay within the ceiling ({ceiling})",
           "the implementation is bound to an exact, verified artifact before it runs"]
    if request.input_schema is not None:
        out.append("accepts every input valid against the required input schema")
    if request.output_schema is not None:
        out.append("every output validates against the required output schema")
    return out


def _document(store: Store, outcome: Outcome, gid: str, intent: str, created_at: str,
              previous: dict[str, Any] | None) -> dict[str, Any]:
    request = outcome.request
    required: dict[str, Any] = {}
    for key, schema in (("input", request.input_schema), ("output", request.output_schema)):
        kept = schema if schema is not None else (previous or {}).get("required", {}).get(key)
        if kept is not None:
            required[key] = kept
    required["effectsCeiling"] = sorted(request.ceiling)
    required["verification"] = _verification(request)
    attempts = outcome.composition.described_attempts() if outcome.composition else []
    return {
        "gapVersion": "0.1",
        "id": gid,
        "intent": intent,
        "createdAt": created_at,
        "required": required,
        "searched": _searched(store, outcome),
        "evidence": {
            "nativeCandidates": [j.describe() for j in outcome.near_misses if j.step.native],
            "externalCandidates": [j.describe() for j in outcome.near_misses if not j.step.native],
            "compositionAttempts": attempts,
        },
        "status": "unresolved",
    }


def _record(store: Store, outcome: Outcome, now: str) -> None:
    from schemas.documents import validate

    from .canonical import canonical_json

    key = _key(outcome.request)
    with store.write_transaction():
        row = store.conn.execute(
            "SELECT gap_id, intent, demand, first_asked, document FROM gaps WHERE need = ? AND ceiling = ?",
            [outcome.normalised, key],
        ).fetchone()
        if row:
            gid, intent, demand, first, previous = row[0], row[1], row[2] + 1, row[3], json.loads(row[4])
        else:
            gid, intent, demand, first, previous = gap_id(outcome.normalised, key), outcome.need, 1, now, None
        doc = _document(store, outcome, gid, intent, first, previous)
        validate("gap", doc, f"gap {gid}")
        store.conn.execute(
            """INSERT INTO gaps (gap_id, need, ceiling, intent, document, demand, first_asked, last_asked)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?)
               ON CONFLICT (need, ceiling) DO UPDATE SET document = excluded.document, demand = excluded.demand,
                 last_asked = excluded.last_asked, satisfied_at = NULL""",
            [gid, outcome.normalised, key, intent, canonical_json(doc), demand, first, now],
        )
    outcome.gap, outcome.demand, outcome.first_asked, outcome.last_asked = doc, demand, first, now


def _mark_satisfied(store: Store, normalised: str, request: GapRequest, now: str) -> None:
    """A need satisfied now: its stored gap (if any) stops being published."""
    exists = store.conn.execute(
        "SELECT 1 FROM gaps WHERE need = ? AND ceiling = ? AND satisfied_at IS NULL", [normalised, _key(request)]
    ).fetchone()
    if exists:
        with store.write_transaction():
            store.conn.execute("UPDATE gaps SET satisfied_at = ? WHERE need = ? AND ceiling = ?",
                               [now, normalised, _key(request)])


# -- stored gaps and publishing ------------------------------------------------------------------


@dataclass(frozen=True)
class StoredGap:
    gap_id: str
    intent: str
    demand: int
    first_asked: str
    last_asked: str
    document: dict[str, Any]

    @property
    def file(self) -> str:
        return self.gap_id.split("/", 1)[1] + ".json"


def stored_gaps(store: Store) -> list[StoredGap]:
    """Unresolved gaps, most demanded first (then most recently asked, then by id)."""
    rows = store.conn.execute(
        """SELECT gap_id, intent, demand, first_asked, last_asked, document FROM gaps WHERE satisfied_at IS NULL
           ORDER BY demand DESC, last_asked DESC, gap_id"""
    )
    return [StoredGap(g, i, d, f, la, json.loads(doc)) for g, i, d, f, la, doc in rows]


def listing(gaps: list[StoredGap], generated_at: str) -> dict[str, Any]:
    """The `gaps/index.json` document: every published gap, ranked by demand."""
    return {
        "gapListingVersion": LISTING_VERSION,
        "generatedAt": generated_at,
        "gaps": [{"id": g.gap_id, "file": g.file, "intent": g.intent, "demand": g.demand, "firstAsked": g.first_asked,
                  "lastAsked": g.last_asked, "effectsCeiling": g.document["required"]["effectsCeiling"]}
                 for g in gaps],
    }


def publish_gaps(store: Store, files: Any, generated_at: str) -> list[str]:
    """Write every unresolved gap (`gaps/<name>.json`, checked again) and `gaps/index.json` through publish's
    atomic file set; returns the relative names written (none when the store holds no gap)."""
    from schemas.documents import validate

    gaps = stored_gaps(store)
    names = []
    for gap in gaps:
        validate("gap", gap.document, f"gap {gap.gap_id}")
        name = f"{GAPS_DIR}/{gap.file}"
        with files.open(name) as fh:
            fh.write(json.dumps(gap.document, indent=2, ensure_ascii=False) + "\n")
        names.append(name)
    if gaps:
        doc = listing(gaps, generated_at)
        validate("gaplisting", doc, f"{GAPS_DIR}/index.json")
        with files.open(f"{GAPS_DIR}/index.json") as fh:
            fh.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
        names.append(f"{GAPS_DIR}/index.json")
    return names
