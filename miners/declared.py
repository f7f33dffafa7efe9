"""Declared operations: what a contract format (a Capability manifest, OpenAPI, an MCP tool list,
an AIP contract, an app's `defineCapabilities`, an ampersand contract) says a repository or site
offers. A declaration is a stronger claim than a mined guess, but still a claim: its effects
narrow nothing they cannot prove, and its publisher's hints are recorded as hints.

Each format has one reader module (`miners/openapi.py`, `miners/aip.py`, ...) with
`sniff(path, data) -> bool` and `read(path, data) -> Imported`. A reader never raises for bad
input: what it cannot read becomes a `Problem` (file, line or JSON path, reason) and the rest
is still read.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

@dataclass
class Declared:
    format: str  # a key of miners.formats.READERS
    original_id: str  # the id exactly as declared: operationId, tool name, AIP id, "&domain.name#op", ...
    name: str  # the declared title or name, for people
    description: str
    path: str  # repository-relative path, or the URL it was read from
    line: int = 1  # 1-based span of the declaration in its file (1 when the format gives no position)
    end_line: int = 1
    pointer: str = ""  # RFC 6901 JSON pointer of the declaration inside its document ("" for source code)
    namespace: str = ""  # the declaring party's scope when the format names one: app id, AIP namespace,
    # OpenAPI title, MCP server name, ampersand provider/capability; capability_id() uses it
    local_name: str = ""  # the operation's own name inside that namespace when the original id repeats the
    # namespace (the last part of an AIP id, an ampersand operation); "" means the original id
    source_digest: str = ""  # "sha256:<hex>" of the whole file's exact bytes
    declaration_digest: str = ""  # "sha256:<hex>" of the declaration itself (see digest_of)
    digest_of: str = "canonical-json"  # "bytes": the declaration's exact source bytes; "canonical-json": its
    # parsed value serialised canonically (sorted keys, no spaces; what it means, refs resolved by some readers)
    bytes_digest: str = ""  # "sha256:<hex>" of the declaration's exact bytes in its file, whatever digest_of says
    input_schema: dict[str, Any] | None = None
    output_schema: dict[str, Any] | None = None
    effects: list[str] = field(default_factory=list)  # Capability effects the declaration states or implies
    read_only: bool | None = None  # None: the format does not say
    hints: dict[str, Any] = field(default_factory=dict)  # publisher hints (MCP annotations, destructive,
    # openWorld, risk...): recorded as what the publisher says, never as fact
    metadata: dict[str, Any] = field(default_factory=dict)  # what the format says that Capability has no
    # field for (AIP data sensitivity, ampersand type tokens, ...): kept, never dropped
    manifest: dict[str, Any] | None = None  # the complete Capability manifest, when the format is one
    discovery_only: bool = False  # listed for discovery, not an operation to call (AIP resource kinds)
    notes: list[str] = field(default_factory=list)  # what is unknown or was kept opaque


@dataclass
class Problem:
    path: str
    where: str  # "line 12", or a JSON path such as "$.paths['/pets'].get.responses"
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: {self.where}: {self.reason}"


@dataclass
class Imported:
    operations: list[Declared] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def load_document(path: str, data: bytes, out: Imported) -> tuple[Any, dict[str, int]] | None:
    """A JSON or YAML declaration's value and the line of each value (doc_lines.load), or None
    with the reason it cannot be read added to `out` as a problem."""
    from .doc_lines import DocumentError, load

    try:
        return load(path, data)
    except DocumentError as exc:
        out.problems.append(Problem(path, exc.where, exc.reason))
    except RecursionError:
        out.problems.append(Problem(path, "line 1", "nested too deeply"))
    return None


def sha256(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def canonical_json(value: Any) -> bytes:
    """Sorted keys, no spaces, UTF-8; a YAML date as its ISO text. A lone surrogate (valid JSON
    text, not Unicode) raises UnicodeEncodeError: the readers report such a value as a problem."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_plain)
    return text.encode("utf-8")


def _plain(value: Any) -> str:
    if hasattr(value, "isoformat"):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON")


_OUTSIDE = re.compile(r"[^a-z0-9._-]+")


def id_segment(text: str) -> str:
    """One segment of a Capability id: accents folded to ASCII, lower case, every run of other
    characters (spaces, `&`, `:`, `#`, `@`, `/`...) one `-`, trimmed so it starts and ends with a
    letter or digit; "x" when nothing is left. camelCase is split first: getUser -> get-user."""
    text = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "-", text)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    text = _OUTSIDE.sub("-", text).strip("-._")
    return text or "x"


def capability_id(namespace: str, name: str) -> str:
    """The one rule that turns a declared id into a valid Capability id (`namespace/name`, matching
    ^[a-z0-9][a-z0-9._-]*(/[a-z0-9][a-z0-9._-]*)+$): each `/` part of the namespace becomes a
    segment ("declared" when there is none), and the name becomes one last segment, its own `/`
    included (GET /pets/{id} -> get-pets-id). The name is the operation's local name when the
    format has one (Declared.local_name), else the original id without a leading copy of the
    namespace and its separator (acme-notes.note.search in acme-notes -> note.search). The
    original id is always kept beside it."""
    scope = [id_segment(part) for part in namespace.split("/") if part.strip()] or ["declared"]
    if namespace and name.startswith(namespace) and name[len(namespace):len(namespace) + 1] in ("/", ".", ":", "#"):
        name = name[len(namespace) + 1:]  # a local id qualified with its namespace: acme-notes.note.search
    return "/".join([*scope, id_segment(name)])


# -- report candidates ------------------------------------------------------------------------------

OPAQUE = "custom:external.opaque-effects"
DECLARED_CONFIDENCE = 0.9  # the publisher's own statement of the operation; not proof of behaviour


def _language(path: str) -> str:
    from .parsing import language_of

    lower = path.lower().split("?", 1)[0]
    if lower.endswith(".json"):
        return "json"
    if lower.endswith((".yaml", ".yml")):
        return "yaml"
    return language_of(lower) or "text"


def complete_authority(d: Declared) -> bool:
    """Only a complete, valid Capability manifest states its whole authority; every other format
    (and a Capability export without its manifest) leaves effects it does not prove unknown."""
    return d.format == "capability" and d.manifest is not None


def candidate(d: Declared, repo_key: str, commit: str | None) -> dict[str, Any]:
    """The report candidate of a declared operation (a `candidate` document, provenance "declared")."""
    complete = complete_authority(d)
    effects = sorted(set(d.effects))
    authority_effects = effects if complete else [*effects, OPAQUE]
    cap_id = str(d.manifest["id"]) if complete and d.manifest else \
        capability_id(d.namespace, d.local_name or d.original_id)
    ident = "cand-" + hashlib.sha256(
        f"{repo_key}\0{d.path}\0declared-operation\0{d.format}\0{d.original_id}".encode()).hexdigest()[:20]
    evidence: dict[str, Any] = {"kind": "manifest" if d.format == "capability" else "declaration",
                                "detail": f"{d.format}: {d.original_id}", "path": d.path, "line": max(1, d.line),
                                "digest": d.declaration_digest}
    if d.pointer:
        evidence["pointer"] = d.pointer
    if complete and d.manifest is not None:
        contract: dict[str, Any] = dict(d.manifest)
    else:
        contract = {"specVersion": "0.1", "id": cap_id, "version": _version(d), "name": d.name or d.original_id,
                    "description": d.description or f"{d.format} operation {d.original_id}",
                    "effects": authority_effects}
        if d.input_schema is not None:
            contract["input"] = d.input_schema
        if d.output_schema is not None:
            contract["output"] = d.output_schema
    unknowns = list(d.notes)
    if not complete:
        unknowns.insert(0, "declared effects are the publisher's claim; others may exist")
    if d.discovery_only:
        unknowns.insert(0, "listed for discovery only: not an operation to call")
    return {
        "id": ident, "kind": "declared-operation", "name": d.original_id, "symbol": d.original_id, "module": None,
        "visibility": "public", "language": _language(d.path),
        "source": {"path": d.path, "line": max(1, d.line), "end_line": max(1, d.end_line, d.line), "commit": commit},
        "signature": d.original_id, "description": (d.description or "").strip(), "provenance": "declared",
        "evidence": [evidence], "effects": effects,
        # a string-only Capability export names a module but states no contract: weaker
        "confidence": 0.6 if d.format == "capability" and not complete else DECLARED_CONFIDENCE,
        "authority": {"complete": complete, "effects": authority_effects,
                      "note": "a complete Capability manifest" if complete
                      else "declared: effects the declaration does not prove stay opaque"},
        "executable": False, "unknowns": unknowns, "draft_contract": contract,
        "declared": {"format": d.format, "original_id": d.original_id, "capability_id": cap_id, "title": d.name,
                     "pointer": d.pointer, "source_digest": d.source_digest,
                     "declaration_digest": d.declaration_digest, "digest_of": d.digest_of,
                     **({"bytes_digest": d.bytes_digest} if d.bytes_digest else {}), "read_only": d.read_only,
                     "hints": d.hints, "metadata": d.metadata, "discovery_only": d.discovery_only},
    }


def _version(d: Declared) -> str:
    version = d.metadata.get("version") if isinstance(d.metadata, dict) else None
    return version if isinstance(version, str) and re.fullmatch(r"\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]*)?", version) \
        else "0.0.0"
