"""Conformance of capindex's schemas and models with the Capability 1.x reference, in both directions.

A labelled corpus drives everything:

* VALID: documents that must be accepted: the reference examples, and hand-made
  documents of every kind, including edge cases that must stay valid.
* INVALID: each a VALID document with exactly one thing broken, labelled with the
  rule it breaks, and with what decides that rule:
    - "schema":   the reference schema file rejects it (and so must we);
    - "extra":    the reference schema file accepts it, but the reference
                  validators reject it (the rules in the reference README), so
                  our schema and model must reject it;
    - "capindex": a kind with no reference schema (lock, lockset, candidate,
                  report): our schema and model reject it.

The reference schemas are evaluated with `make_validator`, i.e. with ECMAScript
pattern semantics and asserted formats, because the reference is JavaScript.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

import jsonschema
import pytest

from conftest import (
    REFERENCE_FILES,
    reference_dir,
    reference_problem,
    reference_schemas,
    reference_validator,
    require_reference,
)
from schemas import SCHEMA_FILES, load_schema
from schemas.documents import (
    DocumentError,
    detect_kind,
    load_document,
    parse_json,
    validate,
)
from schemas.ecma import is_date_time, parse_date_time, pattern_matches
from schemas.jsonschema_validation import (
    capindex_validator,
    make_validator,
    schema_errors,
)

# -- the reference ------------------------------------------------------------------------------

INTEROP_KINDS = tuple(REFERENCE_FILES)
CAPINDEX_KINDS = ("lock", "lockset", "candidate", "report", "gaplisting")


@functools.cache
def our_validator(kind: str) -> Any:
    return capindex_validator(kind)


def reference_accepts(kind: str, doc: Any) -> bool:
    return reference_validator(kind).is_valid(doc)


def ours_accepts(kind: str, doc: Any) -> bool:
    return our_validator(kind).is_valid(doc)


def model_accepts(kind: str, doc: Any) -> bool:
    """The models as capindex runs them (schemas.documents.validate)."""
    try:
        validate(kind, doc, "<corpus>")
    except DocumentError:
        return False
    return True


def _errors(validator: Any, doc: Any) -> list[str]:
    return [f"{e.json_path}: {e.validator} ({e.message})" for e in validator.iter_errors(doc)]


def _model_errors(kind: str, doc: Any) -> list[str]:
    try:
        validate(kind, doc, "<corpus>")
    except DocumentError as exc:
        return exc.problems
    return []


# -- building blocks ----------------------------------------------------------------------------

DELETE = object()  # an edit value: remove the key


def edited(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    """A copy of `doc` with the value at `path` replaced (or removed, for DELETE)."""
    out = json.loads(json.dumps(doc))  # not deepcopy: that would keep shared sub-objects shared
    parent = out
    for key in path[:-1]:
        parent = parent[key]
    if value is DELETE:
        del parent[path[-1]]
    else:
        parent[path[-1]] = json.loads(json.dumps(value))
    return out


def diff_paths(a: Any, b: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Where two JSON values differ (a differing subtree counts once; 1 and 1.0 and True differ)."""
    if type(a) is not type(b):
        return [path]
    if isinstance(a, dict):
        out: list[tuple[Any, ...]] = []
        for key in sorted(a.keys() | b.keys()):
            if key not in a or key not in b:
                out.append((*path, key))
            else:
                out += diff_paths(a[key], b[key], (*path, key))
        return out
    if isinstance(a, list):
        if len(a) != len(b):
            return [path]
        return [p for i, (x, y) in enumerate(zip(a, b)) for p in diff_paths(x, y, (*path, i))]
    return [] if a == b else [path]


def sri(algorithm: str, data: bytes) -> str:
    return f"{algorithm}-" + base64.b64encode(hashlib.new(algorithm, data).digest()).decode()


SHA512_SRI = sri("sha512", b"left-pad-1.3.0.tgz")
SHA384_SRI = sri("sha384", b"tool-2.0.0.tgz")
SHA256_HEX = hashlib.sha256(b"requests-2.32.3-py3-none-any.whl").hexdigest()
OCI_DIGEST = "sha256:" + hashlib.sha256(b"oci manifest").hexdigest()
COMMIT = hashlib.sha1(b"commit").hexdigest()
COMMIT256 = hashlib.sha256(b"commit").hexdigest()
INDEX_DIGEST = hashlib.sha256(b"{}").hexdigest()
OPAQUE = "custom:external.opaque-effects"
BUILTIN_EFFECTS = [
    "filesystem.read", "filesystem.write", "network.connect", "process.spawn", "environment.read",
    "secrets.read", "database.read", "database.write", "email.send", "git.commit", "git.push",
]

MANIFEST_MIN = {
    "specVersion": "0.1",
    "id": "text/slugify",
    "version": "1.0.0",
    "name": "Slugify Text",
    "description": "Convert text to a deterministic URL-friendly slug.",
}
MANIFEST_FULL = {
    **MANIFEST_MIN,
    "id": "acme.web/http/fetch-json",
    "version": "2.3.4",
    "name": "Fetch JSON",
    "description": "Fetch a URL and parse the JSON body.",
    "input": {"type": "object", "properties": {"url": {"type": "string"}}, "required": ["url"]},
    "output": {"type": "object"},
    "effects": ["network.connect", "custom:acme/cache.write"],
    "behavior": {"deterministic": False, "idempotent": True, "reversible": False},
    "tags": ["http", "json"],
    "metadata": {"license": "MIT", "score": 0.5, "nested": {"a": [1, None, True]}},
}
INDEX_MIN = {"indexVersion": "0.1", "generatedAt": "2026-01-01T00:00:00.000Z", "packages": []}
INDEX_FULL = {
    "indexVersion": "0.1",
    "generatedAt": "2026-08-20T04:32:50.508Z",
    "federates": ["https://index.example.org/capabilities.json", "http://mirror.example.net:8080/i.json?v=1#top"],
    "metadata": {"name": "Example Index", "maintainer": "capindex"},
    "packages": [
        {
            "name": "@acme/text",
            "version": "1.2.3",
            "source": "npm",
            "repository": "https://github.com/acme/text",
            "integrity": SHA512_SRI,
            "capabilities": [
                {"manifest": MANIFEST_MIN, "module": "./dist/slugify.js", "integrity": SHA384_SRI},
                {"manifest": MANIFEST_FULL, "module": "./dist/fetch.js"},
            ],
        }
    ],
}
SITE_MIN = {"capabilityDiscoveryVersion": "0.1", "indexes": ["https://example.org/capabilities/index.json"]}
SITE_FULL = {
    "capabilityDiscoveryVersion": "0.1",
    "indexes": ["https://example.org/index.json", "http://[2001:db8::1]:8080/index.json"],
    "package": {"name": "@acme/text", "version": "1.2.3"},
    "mcp": [
        {"transport": "stdio", "command": "npx", "args": ["-y", "@acme/text", "mcp"]},
        {"transport": "http", "url": "https://mcp.example.org/mcp"},
    ],
    "documentation": "https://docs.example.org/text",
    "repository": "https://github.com/acme/text",
    "metadata": {"owner": "acme"},
}
GAP_MIN = {
    "gapVersion": "0.1",
    "id": "gap/text.slugify-unicode",
    "intent": "Slugify text in any script.",
    "createdAt": "2026-01-01T00:00:00Z",
    "required": {"effectsCeiling": [], "verification": ["slugify('Ñandú') == 'nandu'"]},
    "searched": [],
    "evidence": {"nativeCandidates": [], "externalCandidates": [], "compositionAttempts": []},
    "status": "unresolved",
}
GAP_FULL = {
    **GAP_MIN,
    "required": {
        "input": {"type": "object"},
        "output": {"type": "object"},
        "effectsCeiling": ["network.connect", "custom:acme/x"],
        "verification": ["returns a slug", "never calls the network"],
    },
    "searched": ["native", "npm", "pypi", "oci", "mcp", "openapi", "repository", "composition", "gap"],
    "evidence": {
        "nativeCandidates": ["text/normalize"],
        "externalCandidates": ["npm:slugify@1.6.6"],
        "compositionAttempts": ["text/normalize -> text/slugify"],
    },
}
BINDING_NPM = {
    "bindingVersion": "1.0",
    "binderId": "capindex.npm",
    "substrate": "npm",
    "locator": "left-pad@1.3.0",
    "immutableArtifact": f"left-pad@1.3.0#{SHA512_SRI}",
    "createdAt": "2026-01-01T00:00:00Z",
    "authority": {"complete": False, "effects": [OPAQUE], "note": "mined, not declared"},
    "evidence": ["registry.npmjs.org/left-pad/1.3.0 dist.integrity"],
}
BRIDGE_MIN = {
    "bridgeVersion": "0.1",
    "manifest": MANIFEST_MIN,
    "target": {"kind": "npm-cli", "package": "slugify-cli", "version": "1.0.0", "bin": "slugify", "binPath": "bin/cli.js"},
    "authority": {"complete": False},
}
LOCK = {
    "lockVersion": "1",
    "generatedAt": "2026-01-01T00:00:00.000Z",
    "index": {"url": "https://example.org/index.json", "digest": INDEX_DIGEST},
    "package": {"name": "@scope/pkg", "version": "1.2.3", "integrity": SHA512_SRI},
    "capability": {"id": "text/slugify", "version": "1.0.0", "module": "./dist/slugify.js", "integrity": SHA384_SRI},
}
LOCK_MIN = {
    **LOCK,
    "package": {"name": "@scope/pkg", "version": "1.2.3"},
    "capability": {"id": "text/slugify", "version": "1.0.0", "module": "./dist/slugify.js"},
}
LOCKSET = {"lock_set_version": "1", "generated_at": "2026-01-01T00:00:00Z", "locks": [LOCK, LOCK_MIN]}
CANDIDATE = {
    "id": "py:pkg.text.slugify",
    "kind": "function",
    "name": "slugify",
    "symbol": "pkg.text.slugify",
    "module": "pkg.text",
    "visibility": "public",
    "language": "python",
    "source": {"path": "pkg/text.py", "line": 10, "end_line": 24, "commit": COMMIT},
    "signature": "slugify(text: str) -> str",
    "description": "",
    "provenance": "mined",
    "evidence": [{"kind": "docstring", "detail": "Convert text to a slug.", "path": "pkg/text.py", "line": 11}],
    "effects": [],
    "confidence": 0.75,
    "authority": {"complete": False, "effects": [OPAQUE]},
    "executable": False,
    "unknowns": ["effects are inferred"],
    "draft_contract": {"input": {"type": "object"}},
}
REPORT = {
    "report_version": "0.1",
    "generated_at": "2026-01-01T00:00:00Z",
    "repository": {"kind": "git", "locator": "https://github.com/acme/text", "rev": "main", "commit": COMMIT, "artifact": None, "pinned": True},
    "coverage": {"files_seen": 12, "files_parsed": 10, "languages": {"python": 10}, "skipped": [{"path": "big.bin", "reason": "binary"}]},
    "candidates": [CANDIDATE],
    "hazards": [{"kind": "dynamic-import", "detail": "importlib.import_module(name)", "path": "pkg/plugins.py"}],
    "unsupported_extensions": {".zig": 2},
}
REPORT_MIN = {
    "report_version": "0.1",
    "generated_at": "2026-01-01T00:00:00Z",
    "repository": {"kind": "directory", "locator": "/src", "pinned": False},
    "coverage": {"files_seen": 0, "files_parsed": 0},
    "candidates": [],
    "hazards": [],
    "unsupported_extensions": {},
}

# -- the corpus ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    label: str
    kind: str
    doc: Any
    rule: str = "valid"  # valid | schema | extra | capindex
    base: str | None = None  # the valid document this one breaks


MISSING = object()  # stands for a reference example when the reference is absent


def _reference_examples() -> dict[str, Any]:
    if reference_problem():
        return {}
    where = reference_dir() / "examples"
    return {
        "index": json.loads((where / "registry-index.json").read_text("utf-8")),
        "site": json.loads((where / ".well-known" / "capabilities.json").read_text("utf-8")),
    }


REFERENCE_EXAMPLES = _reference_examples()

VALID: dict[str, Case] = {}


def valid(label: str, kind: str, doc: Any) -> None:
    assert label not in VALID, label
    VALID[label] = Case(label, kind, doc)


valid("reference.registry-index", "index", REFERENCE_EXAMPLES.get("index", MISSING))
valid("reference.well-known-capabilities", "site", REFERENCE_EXAMPLES.get("site", MISSING))
for _i, _cap in enumerate(REFERENCE_EXAMPLES.get("index", {}).get("packages", [{}])[0].get("capabilities", [])):
    valid(f"reference.registry-index.manifest[{_i}]", "manifest", _cap["manifest"])

# manifests
valid("manifest.min", "manifest", MANIFEST_MIN)
valid("manifest.full", "manifest", MANIFEST_FULL)
valid("manifest.unicode-text", "manifest", {**MANIFEST_MIN, "name": "Ñandú 🐦 スラッグ", "description": "Преобразовать текст — 文字列 😀"})
valid("manifest.name.astral-only", "manifest", {**MANIFEST_MIN, "name": "😀"})
valid("manifest.name.padded", "manifest", {**MANIFEST_MIN, "name": "  Slugify\t"})
# U+0085 and U+001C are whitespace to Python's str.strip(), not to JavaScript's trim()
valid("manifest.name.python-but-not-ecma-whitespace", "manifest", {**MANIFEST_MIN, "name": "\x85\x1c"})
valid("manifest.name.mongolian-vowel-separator", "manifest", {**MANIFEST_MIN, "name": "\u180e"})
valid("manifest.empty-arrays", "manifest", {**MANIFEST_MIN, "effects": [], "tags": []})
valid("manifest.empty-objects", "manifest", {**MANIFEST_MIN, "input": {}, "output": {}, "behavior": {}, "metadata": {}})
valid("manifest.every-builtin-effect", "manifest", {**MANIFEST_MIN, "effects": [*BUILTIN_EFFECTS, OPAQUE, "custom:a/b-c_d.e"]})
valid("manifest.version.prerelease-build", "manifest", {**MANIFEST_MIN, "version": "10.20.30-rc.1-x+build.5.sha-abc"})
valid("manifest.version.zero", "manifest", {**MANIFEST_MIN, "version": "0.0.0"})
valid("manifest.id.many-segments", "manifest", {**MANIFEST_MIN, "id": "org.acme/text-tools/slugify_v2/0"})

# indexes
valid("index.min", "index", INDEX_MIN)
valid("index.full", "index", INDEX_FULL)
valid("index.federates.empty", "index", {**INDEX_MIN, "federates": []})
valid("index.package.no-capabilities", "index", edited(INDEX_FULL, ("packages", 0, "capabilities"), []))
valid("index.package.repository-free-form", "index", edited(INDEX_FULL, ("packages", 0, "repository"), "github:acme/text"))
valid("index.generatedAt.leap-day-offset", "index", {**INDEX_MIN, "generatedAt": "2024-02-29T12:00:00+05:30"})
valid("index.generatedAt.negative-offset", "index", {**INDEX_MIN, "generatedAt": "2026-03-01T00:00:00.123456-08:00"})
valid("index.generatedAt.lowercase-t-z", "index", {**INDEX_MIN, "generatedAt": "2026-01-01t00:00:00z"})
valid("index.metadata.empty", "index", {**INDEX_MIN, "metadata": {}})

# sites
valid("site.min", "site", SITE_MIN)
valid("site.full", "site", SITE_FULL)
valid("site.mcp.http", "site", {**SITE_MIN, "mcp": [{"transport": "http", "url": "http://localhost:3000/mcp"}]})
valid("site.mcp.empty", "site", {**SITE_MIN, "mcp": []})
valid("site.mcp.stdio-empty-args", "site", {**SITE_MIN, "mcp": [{"transport": "stdio", "command": "capability-mcp", "args": []}]})
valid("site.package.without-version", "site", {**SITE_MIN, "package": {"name": "@acme/text"}})

# gaps
valid("gap.min", "gap", GAP_MIN)
valid("gap.full", "gap", GAP_FULL)
valid("gap.createdAt.leap-second", "gap", {**GAP_MIN, "createdAt": "2016-12-31T23:59:60Z"})

# bindings
valid("binding.npm", "binding", BINDING_NPM)
valid("binding.npm.scoped-prerelease-sha384", "binding", {**BINDING_NPM, "immutableArtifact": f"@acme/tool@2.0.0-beta.1#{SHA384_SRI}"})
valid("binding.pypi", "binding", {**BINDING_NPM, "substrate": "pypi", "immutableArtifact": f"requests@2.32.3#sha256:{SHA256_HEX}"})
valid("binding.pypi.post-release", "binding", {**BINDING_NPM, "substrate": "pypi", "immutableArtifact": f"Django@4.2.post1#sha256:{SHA256_HEX}"})
valid("binding.oci", "binding", {**BINDING_NPM, "substrate": "oci", "immutableArtifact": f"ghcr.io/acme/tool@{OCI_DIGEST}"})
valid("binding.oci.tag-and-digest", "binding", {**BINDING_NPM, "substrate": "oci", "immutableArtifact": f"ghcr.io/acme/tool:1.4@{OCI_DIGEST}"})
valid("binding.git", "binding", {**BINDING_NPM, "substrate": "repository", "immutableArtifact": f"git+https://github.com/acme/tool.git@{COMMIT}"})
valid("binding.git.ssh-sha256", "binding", {**BINDING_NPM, "substrate": "repository", "immutableArtifact": f"git+ssh://git@github.com/acme/tool.git@{COMMIT256}"})
valid("binding.complete-authority", "binding", {**BINDING_NPM, "authority": {"complete": True, "effects": []}})
valid("binding.additional-top-level-properties", "binding", {**BINDING_NPM, "x-capindex": {"source": "mined"}, "notes": ["a", 1, None]})
valid("binding.metadata", "binding", {**BINDING_NPM, "metadata": {"registry": "https://registry.npmjs.org"}})

# bridges
valid("bridge.min", "bridge", BRIDGE_MIN)
valid("bridge.full", "bridge", {**BRIDGE_MIN, "manifest": MANIFEST_FULL, "authority": {"complete": True, "note": "audited"}, "source": {"any": ["thing"]}})

# capindex's own kinds
valid("lock.readme-example", "lock", LOCK)
valid("lock.without-integrity", "lock", LOCK_MIN)
valid("lockset.two-locks", "lockset", LOCKSET)
valid("lockset.empty", "lockset", {**LOCKSET, "locks": []})
valid("candidate.full", "candidate", CANDIDATE)
valid("candidate.min", "candidate", {k: v for k, v in CANDIDATE.items() if k not in ("module", "provenance", "unknowns")})
valid("candidate.nullable-fields", "candidate", {**CANDIDATE, "module": None, "source": {**CANDIDATE["source"], "commit": None}})
valid("candidate.additional-properties", "candidate", {**CANDIDATE, "x-miner": {"rule": 7}, "evidence": [{**CANDIDATE["evidence"][0], "snippet": "def slugify"}]})
# JSON has one number type: 1.0 is the integer 1, and 1 is a number
valid("candidate.integral-float-line", "candidate", edited(CANDIDATE, ("source", "line"), 10.0))
valid("candidate.integer-confidence", "candidate", {**CANDIDATE, "confidence": 1})
valid("report.full", "report", REPORT)
valid("report.min", "report", REPORT_MIN)
valid("report.integral-float-counts", "report", edited(REPORT, ("coverage", "files_seen"), 12.0))
GAP_LISTING = {"gapListingVersion": "0.1", "generatedAt": "2026-05-01T12:00:00.000Z", "gaps": [
    {"id": "gap/resize-images-0a1b2c3d", "file": "resize-images-0a1b2c3d.json", "intent": "resize images",
     "demand": 3, "firstAsked": "2026-04-01T00:00:00.000Z", "lastAsked": "2026-05-01T00:00:00.000Z",
     "effectsCeiling": ["filesystem.read"]},
    {"id": "gap/send-email-00ff00ff", "file": "send-email-00ff00ff.json", "intent": "send an email", "demand": 1,
     "firstAsked": "2026-04-02T00:00:00.000Z", "lastAsked": "2026-04-02T00:00:00.000Z", "effectsCeiling": []},
]}
valid("gaplisting.two", "gaplisting", GAP_LISTING)
valid("gaplisting.empty", "gaplisting", {**GAP_LISTING, "gaps": []})

INVALID: dict[str, Case] = {}


def invalid(label: str, rule: str, base: str, path: tuple[Any, ...], value: Any) -> None:
    """`base` (a VALID label) with the one value at `path` broken."""
    assert label not in INVALID and label not in VALID, label
    assert rule in ("schema", "extra", "capindex"), rule
    source = VALID[base]
    INVALID[label] = Case(label, source.kind, edited(source.doc, path, value), rule, base)


# manifest: the reference schema's rules
invalid("manifest.specVersion.const", "schema", "manifest.min", ("specVersion",), "0.2")
invalid("manifest.id.pattern", "schema", "manifest.min", ("id",), "Text/Slugify")
invalid("manifest.id.single-segment", "schema", "manifest.min", ("id",), "slugify")
invalid("manifest.id.trailing-newline", "schema", "manifest.min", ("id",), "text/slugify\n")
invalid("manifest.id.type", "schema", "manifest.min", ("id",), 42)
invalid("manifest.version.semver", "schema", "manifest.min", ("version",), "1.0")
invalid("manifest.version.leading-zero", "schema", "manifest.min", ("version",), "01.0.0")
invalid("manifest.version.arabic-indic-digits", "schema", "manifest.min", ("version",), "١.٠.٠")
invalid("manifest.version.trailing-newline", "schema", "manifest.min", ("version",), "1.0.0\n")
invalid("manifest.name.empty", "schema", "manifest.min", ("name",), "")
invalid("manifest.description.missing", "schema", "manifest.min", ("description",), DELETE)
invalid("manifest.effects.unknown", "schema", "manifest.full", ("effects", 0), "network.listen")
invalid("manifest.effects.custom-namespace", "schema", "manifest.full", ("effects", 1), "custom:Acme")
invalid("manifest.effects.duplicate", "schema", "manifest.empty-arrays", ("effects",), ["network.connect", "network.connect"])
invalid("manifest.additionalProperties", "schema", "manifest.min", ("permissions",), [])
invalid("manifest.behavior.type", "schema", "manifest.full", ("behavior", "deterministic"), "true")
invalid("manifest.behavior.additionalProperties", "schema", "manifest.full", ("behavior", "pure"), True)
invalid("manifest.input.null", "schema", "manifest.full", ("input",), None)
invalid("manifest.output.array", "schema", "manifest.full", ("output",), [])
invalid("manifest.tags.duplicate", "schema", "manifest.full", ("tags", 1), "http")
invalid("manifest.tags.empty-string", "schema", "manifest.full", ("tags", 0), "")
invalid("manifest.metadata.array", "schema", "manifest.full", ("metadata",), [])
# manifest: the reference validators' extra rules
invalid("manifest.name.blank", "extra", "manifest.min", ("name",), "   ")
invalid("manifest.description.blank", "extra", "manifest.min", ("description",), "\u3000\n\t\ufeff\u00a0\u2028")

# index
invalid("index.indexVersion.const", "schema", "index.min", ("indexVersion",), "0.2")
invalid("index.generatedAt.not-date", "schema", "index.min", ("generatedAt",), "yesterday")
invalid("index.generatedAt.feb-30", "schema", "index.min", ("generatedAt",), "2026-02-30T00:00:00Z")
invalid("index.generatedAt.no-offset", "schema", "index.min", ("generatedAt",), "2026-01-01T00:00:00")
invalid("index.generatedAt.date-only", "schema", "index.min", ("generatedAt",), "2026-01-01")
invalid("index.generatedAt.bengali-digit", "schema", "index.min", ("generatedAt",), "2026-01-1৪T00:00:00Z")
invalid("index.module.not-package-relative", "schema", "index.full", ("packages", 0, "capabilities", 0, "module"), "dist/slugify.js")
invalid("index.module.parent-relative", "schema", "index.full", ("packages", 0, "capabilities", 1, "module"), "../fetch.js")
invalid("index.federates.relative", "schema", "index.full", ("federates", 0), "/capabilities.json")
invalid("index.federates.non-http", "schema", "index.full", ("federates", 0), "ftp://index.example.org/i.json")
invalid("index.federates.duplicate", "schema", "index.full", ("federates", 1), "https://index.example.org/capabilities.json")
invalid("index.metadata.non-string", "schema", "index.full", ("metadata", "stars"), 5)
invalid("index.packages.missing", "schema", "index.min", ("packages",), DELETE)
invalid("index.package.additionalProperties", "schema", "index.full", ("packages", 0, "homepage"), "https://acme.dev")
invalid("index.package.name.empty", "schema", "index.full", ("packages", 0, "name"), "")
invalid("index.capability.manifest.id", "schema", "index.full", ("packages", 0, "capabilities", 0, "manifest", "id"), "text")
invalid("index.capability.module.missing", "schema", "index.full", ("packages", 0, "capabilities", 0, "module"), DELETE)
invalid("index.additionalProperties", "schema", "index.min", ("signature",), "…")
invalid("index.federates.no-host", "extra", "index.full", ("federates", 0), "https://")
invalid("index.capability.manifest.name.blank", "extra", "index.full", ("packages", 0, "capabilities", 1, "manifest", "name"), " \t ")
# a valid RFC 3339 leap second, but JavaScript's Date.parse (the reference's "parses as a date") says NaN
invalid("index.generatedAt.leap-second", "extra", "index.min", ("generatedAt",), "2016-12-31T23:59:60Z")

# site
invalid("site.capabilityDiscoveryVersion.const", "schema", "site.min", ("capabilityDiscoveryVersion",), "1.0")
invalid("site.indexes.empty", "schema", "site.min", ("indexes",), [])
invalid("site.indexes.missing", "schema", "site.min", ("indexes",), DELETE)
invalid("site.indexes.relative", "schema", "site.min", ("indexes", 0), "/capabilities/index.json")
invalid("site.indexes.duplicate", "schema", "site.full", ("indexes", 1), "https://example.org/index.json")
invalid("site.indexes.space", "schema", "site.min", ("indexes", 0), "https://example.org/my index.json")
invalid("site.documentation.relative", "schema", "site.full", ("documentation",), "docs/text")
invalid("site.repository.relative", "schema", "site.full", ("repository",), "github.com/acme/text")
invalid("site.mcp.http-without-url", "schema", "site.mcp.http", ("mcp", 0, "url"), DELETE)
invalid("site.mcp.stdio-without-command", "schema", "site.full", ("mcp", 0, "command"), DELETE)
invalid("site.mcp.transport.unknown", "schema", "site.mcp.http", ("mcp", 0, "transport"), "websocket")
invalid("site.mcp.command.empty", "schema", "site.full", ("mcp", 0, "command"), "")
invalid("site.mcp.additionalProperties", "schema", "site.full", ("mcp", 0, "env"), {})
invalid("site.package.name.missing", "schema", "site.full", ("package", "name"), DELETE)
invalid("site.metadata.non-string", "schema", "site.full", ("metadata", "owner"), ["acme"])
invalid("site.indexes.non-http", "extra", "site.min", ("indexes", 0), "ftp://example.org/index.json")
invalid("site.indexes.no-host", "extra", "site.min", ("indexes", 0), "https://")
invalid("site.documentation.non-http", "extra", "site.full", ("documentation",), "mailto:docs@example.org")
invalid("site.repository.non-http", "extra", "site.full", ("repository",), "ssh://git@github.com/acme/text.git")
invalid("site.mcp.http-url.non-http", "extra", "site.mcp.http", ("mcp", 0, "url"), "ws://localhost:3000/mcp")

# gap (the reference README's gap rules are all in the reference schema)
invalid("gap.gapVersion.const", "schema", "gap.min", ("gapVersion",), "0.2")
invalid("gap.id.pattern", "schema", "gap.min", ("id",), "gaps/text.slugify")
invalid("gap.id.uppercase", "schema", "gap.min", ("id",), "gap/Text")
invalid("gap.id.trailing-newline", "schema", "gap.min", ("id",), "gap/text\n")
invalid("gap.status", "schema", "gap.min", ("status",), "resolved")
invalid("gap.searched.unknown", "schema", "gap.full", ("searched", 1), "crates")
invalid("gap.searched.duplicate", "schema", "gap.full", ("searched", 1), "native")
invalid("gap.createdAt.not-date", "schema", "gap.min", ("createdAt",), "2026-13-01T00:00:00Z")
invalid("gap.createdAt.leap-second-wrong-minute", "schema", "gap.min", ("createdAt",), "1998-12-31T23:58:60Z")
invalid("gap.required.verification.empty", "schema", "gap.min", ("required", "verification"), [])
invalid("gap.required.effectsCeiling.duplicate", "schema", "gap.full", ("required", "effectsCeiling", 1), "network.connect")
invalid("gap.required.additionalProperties", "schema", "gap.min", ("required", "budget"), 5)
invalid("gap.evidence.missing-field", "schema", "gap.min", ("evidence", "compositionAttempts"), DELETE)
invalid("gap.intent.empty", "schema", "gap.min", ("intent",), "")
invalid("gap.additionalProperties", "schema", "gap.min", ("owner",), "me")

# binding
invalid("binding.bindingVersion.const", "schema", "binding.npm", ("bindingVersion",), "1.1")
invalid("binding.immutableArtifact.empty", "schema", "binding.npm", ("immutableArtifact",), "")
invalid("binding.evidence.empty", "schema", "binding.npm", ("evidence",), [])
invalid("binding.evidence.empty-string", "schema", "binding.npm", ("evidence", 0), "")
invalid("binding.authority.incomplete-without-opaque", "schema", "binding.npm", ("authority", "effects", 0), "network.connect")
invalid("binding.authority.effects.unknown", "schema", "binding.complete-authority", ("authority", "effects"), ["network.listen"])
invalid("binding.authority.effects.missing", "schema", "binding.complete-authority", ("authority", "effects"), DELETE)
invalid("binding.authority.additionalProperties", "schema", "binding.npm", ("authority", "verified"), True)
invalid("binding.createdAt.not-date", "schema", "binding.npm", ("createdAt",), "2026-01-01 00:00:00Z")
invalid("binding.metadata.array", "schema", "binding.metadata", ("metadata",), [])
invalid("binding.locator.empty", "schema", "binding.npm", ("locator",), "")
invalid("binding.immutableArtifact.tag", "extra", "binding.git", ("immutableArtifact",), "git+https://github.com/acme/tool.git@v1.4.0")
invalid("binding.immutableArtifact.dist-tag", "extra", "binding.npm", ("immutableArtifact",), f"left-pad@beta#{SHA512_SRI}")
invalid("binding.immutableArtifact.branch", "extra", "binding.git", ("immutableArtifact",), "git+https://github.com/acme/tool.git@main")
invalid("binding.immutableArtifact.latest", "extra", "binding.npm", ("immutableArtifact",), f"left-pad@latest#{SHA512_SRI}")
invalid("binding.immutableArtifact.range", "extra", "binding.npm", ("immutableArtifact",), f"left-pad@^1.3.0#{SHA512_SRI}")
invalid("binding.immutableArtifact.x-range", "extra", "binding.npm", ("immutableArtifact",), f"left-pad@1.x#{SHA512_SRI}")
invalid("binding.immutableArtifact.empty-version", "extra", "binding.npm", ("immutableArtifact",), f"left-pad@#{SHA512_SRI}")
invalid("binding.immutableArtifact.pypi-range", "extra", "binding.pypi", ("immutableArtifact",), f"requests@>=2.31#sha256:{SHA256_HEX}")
invalid("binding.immutableArtifact.version-without-digest", "extra", "binding.npm", ("immutableArtifact",), "left-pad@1.3.0")
invalid("binding.immutableArtifact.image-tag-without-digest", "extra", "binding.oci", ("immutableArtifact",), "ghcr.io/acme/tool:1.4")
invalid("binding.immutableArtifact.short-commit", "extra", "binding.git", ("immutableArtifact",), "git+https://github.com/acme/tool.git@a1b2c3d")
invalid("binding.immutableArtifact.truncated-digest", "extra", "binding.oci", ("immutableArtifact",), f"ghcr.io/acme/tool@{OCI_DIGEST[:-1]}")
invalid("binding.immutableArtifact.trailing-newline", "extra", "binding.npm", ("immutableArtifact",), f"left-pad@1.3.0#{SHA512_SRI}\n")

# bridge
invalid("bridge.bridgeVersion.const", "schema", "bridge.min", ("bridgeVersion",), "0.2")
invalid("bridge.target.kind", "schema", "bridge.min", ("target", "kind"), "pypi-cli")
invalid("bridge.target.bin.empty", "schema", "bridge.min", ("target", "bin"), "")
invalid("bridge.target.additionalProperties", "schema", "bridge.min", ("target", "args"), [])
invalid("bridge.authority.complete.missing", "schema", "bridge.min", ("authority", "complete"), DELETE)
invalid("bridge.authority.complete.type", "schema", "bridge.min", ("authority", "complete"), 0)
invalid("bridge.manifest.version.semver", "schema", "bridge.min", ("manifest", "version"), "v1.0.0")
invalid("bridge.source.array", "schema", "bridge.full", ("source",), [])
invalid("bridge.additionalProperties", "schema", "bridge.min", ("effects",), [])
invalid("bridge.manifest.name.blank", "extra", "bridge.min", ("manifest", "name"), "\u2003")

# lock and lockset (no reference schema: the rules of the reference README's lockfile section)
invalid("lock.lockVersion", "capindex", "lock.readme-example", ("lockVersion",), "2")
invalid("lock.lockVersion.number", "capindex", "lock.readme-example", ("lockVersion",), 1)
invalid("lock.generatedAt", "capindex", "lock.readme-example", ("generatedAt",), "2026-01-01T25:00:00Z")
invalid("lock.index.digest", "capindex", "lock.readme-example", ("index", "digest"), INDEX_DIGEST.upper())
invalid("lock.index.digest.prefixed", "capindex", "lock.readme-example", ("index", "digest"), "sha256:" + INDEX_DIGEST)
invalid("lock.index.url.relative", "capindex", "lock.readme-example", ("index", "url"), "index.json")
invalid("lock.index.url.non-http", "capindex", "lock.readme-example", ("index", "url"), "file:///srv/index.json")
invalid("lock.package.integrity.empty", "capindex", "lock.readme-example", ("package", "integrity"), "")
invalid("lock.package.version.missing", "capindex", "lock.readme-example", ("package", "version"), DELETE)
invalid("lock.capability.module", "capindex", "lock.readme-example", ("capability", "module"), "dist/slugify.js")
invalid("lock.capability.id", "capindex", "lock.readme-example", ("capability", "id"), "slugify")
invalid("lock.capability.version", "capindex", "lock.readme-example", ("capability", "version"), "^1.0.0")
invalid("lock.capability.additionalProperties", "capindex", "lock.readme-example", ("capability", "manifest"), {})
invalid("lock.additionalProperties", "capindex", "lock.readme-example", ("resolved",), True)
invalid("lockset.lock_set_version", "capindex", "lockset.two-locks", ("lock_set_version",), "0")
invalid("lockset.locks.invalid-lock", "capindex", "lockset.two-locks", ("locks", 0, "index", "digest"), "abc")

# candidate and mining report
invalid("candidate.executable.true", "capindex", "candidate.full", ("executable",), True)
invalid("candidate.executable.zero", "capindex", "candidate.full", ("executable",), 0)
invalid("candidate.authority.complete.true", "capindex", "candidate.full", ("authority", "complete"), True)
invalid("candidate.authority.complete.zero-float", "capindex", "candidate.full", ("authority", "complete"), 0.0)
invalid("candidate.authority.without-opaque", "capindex", "candidate.full", ("authority", "effects", 0), "network.connect")
invalid("candidate.confidence.range", "capindex", "candidate.full", ("confidence",), 1.5)
invalid("candidate.confidence.string", "capindex", "candidate.full", ("confidence",), "0.75")
invalid("candidate.confidence.bool", "capindex", "candidate.integer-confidence", ("confidence",), True)
invalid("candidate.source.commit.short", "capindex", "candidate.full", ("source", "commit"), COMMIT[:12])
invalid("candidate.source.commit.missing", "capindex", "candidate.full", ("source", "commit"), DELETE)
invalid("candidate.source.line.zero", "capindex", "candidate.full", ("source", "line"), 0)
invalid("candidate.source.line.fractional", "capindex", "candidate.full", ("source", "line"), 10.5)
invalid("candidate.evidence.empty", "capindex", "candidate.full", ("evidence",), [])
invalid("candidate.evidence.detail.empty", "capindex", "candidate.full", ("evidence", 0, "detail"), "")
invalid("candidate.kind.unknown", "capindex", "candidate.full", ("kind",), "lambda")
invalid("candidate.effects.unknown", "capindex", "candidate.full", ("effects",), ["shell"])
invalid("candidate.provenance.null", "capindex", "candidate.full", ("provenance",), None)
invalid("report.report_version", "capindex", "report.min", ("report_version",), "1")
invalid("report.repository.kind", "capindex", "report.min", ("repository", "kind"), "svn")
invalid("report.repository.commit.short", "capindex", "report.full", ("repository", "commit"), "abc123")
invalid("report.repository.pinned.missing", "capindex", "report.min", ("repository", "pinned"), DELETE)
invalid("report.coverage.negative", "capindex", "report.min", ("coverage", "files_seen"), -1)
invalid("report.coverage.languages.fractional", "capindex", "report.full", ("coverage", "languages", "python"), 2.5)
invalid("report.candidates.invalid", "capindex", "report.full", ("candidates", 0, "executable"), True)
invalid("report.hazards.kind.missing", "capindex", "report.full", ("hazards", 0, "kind"), DELETE)
invalid("report.unsupported_extensions.fractional", "capindex", "report.full", ("unsupported_extensions", ".zig"), 1.5)
invalid("report.additionalProperties", "capindex", "report.min", ("warnings",), [])

# gap listing
invalid("gaplisting.version", "capindex", "gaplisting.two", ("gapListingVersion",), "1")
invalid("gaplisting.gaps.id", "capindex", "gaplisting.two", ("gaps", 0, "id"), "resize-images")
invalid("gaplisting.gaps.file.path", "capindex", "gaplisting.two", ("gaps", 0, "file"), "../x.json")
invalid("gaplisting.gaps.demand.zero", "capindex", "gaplisting.two", ("gaps", 0, "demand"), 0)
invalid("gaplisting.gaps.demand.fractional", "capindex", "gaplisting.two", ("gaps", 0, "demand"), 1.5)
invalid("gaplisting.gaps.lastAsked", "capindex", "gaplisting.two", ("gaps", 1, "lastAsked"), "yesterday")
invalid("gaplisting.gaps.effectsCeiling.duplicate", "capindex", "gaplisting.two", ("gaps", 0, "effectsCeiling"),
        ["filesystem.read", "filesystem.read"])
invalid("gaplisting.additionalProperties", "capindex", "gaplisting.two", ("demand",), 4)

ALL_CASES = [*VALID.values(), *INVALID.values()]


def _doc(case: Case) -> Any:
    if case.doc is MISSING:
        pytest.fail(reference_problem() or "reference example missing", pytrace=False)
    return case.doc


# -- 0. the corpus itself -----------------------------------------------------------------------


def test_reference_is_present():
    require_reference()
    for kind, schema in reference_schemas().items():
        jsonschema.Draft202012Validator.check_schema(schema)
    for kind in SCHEMA_FILES:
        jsonschema.Draft202012Validator.check_schema(load_schema(kind))


def test_corpus_shape():
    labels = [c.label for c in ALL_CASES]
    assert len(labels) == len(set(labels)), "labels must be unique"
    assert len(INVALID) >= 40, f"only {len(INVALID)} distinct invalid labels"
    by_rule = {rule: {c.kind for c in INVALID.values() if c.rule == rule} for rule in ("schema", "extra", "capindex")}
    assert by_rule["schema"] == set(INTEROP_KINDS)
    assert by_rule["extra"] >= {"manifest", "index", "site", "binding", "bridge"}
    assert by_rule["capindex"] == set(CAPINDEX_KINDS)
    assert {c.kind for c in VALID.values()} == set(SCHEMA_FILES)
    # only interop kinds have reference rules; only capindex kinds have capindex rules
    for case in INVALID.values():
        assert (case.rule == "capindex") == (case.kind in CAPINDEX_KINDS), case.label


@pytest.mark.parametrize("case", INVALID.values(), ids=INVALID.keys())
def test_invalid_document_breaks_exactly_one_thing(case: Case):
    base = VALID[case.base]
    assert base.kind == case.kind
    assert len(diff_paths(base.doc, case.doc)) == 1


@pytest.mark.parametrize("case", ALL_CASES, ids=[c.label for c in ALL_CASES])
def test_corpus_documents_are_json(case: Case):
    doc = _doc(case)
    text = json.dumps(doc, allow_nan=False)
    assert parse_json(text.encode(), case.label) == doc


# -- 1. ours versus the reference (and its extra rules), and our models -------------------------


@pytest.mark.parametrize("case", VALID.values(), ids=VALID.keys())
def test_valid_document(case: Case):
    doc = _doc(case)
    if case.kind in INTEROP_KINDS:
        assert reference_accepts(case.kind, doc), _errors(reference_validator(case.kind), doc)
    assert ours_accepts(case.kind, doc), _errors(our_validator(case.kind), doc)
    assert model_accepts(case.kind, doc), _model_errors(case.kind, doc)
    raw = json.dumps(doc, ensure_ascii=False).encode()
    kind, _, _ = load_document(raw, case.label, case.kind)
    assert kind == case.kind
    if case.kind not in ("candidate",):
        assert detect_kind(doc) == case.kind


@pytest.mark.parametrize("case", INVALID.values(), ids=INVALID.keys())
def test_invalid_document(case: Case):
    doc = case.doc
    if case.rule == "schema":
        assert not reference_accepts(case.kind, doc), f"{case.label}: the reference schema accepts it"
    elif case.rule == "extra":
        # an extra rule: the reference schema file alone accepts it; the reference validators do not
        assert reference_accepts(case.kind, doc), _errors(reference_validator(case.kind), doc)
    assert not ours_accepts(case.kind, doc), f"{case.label}: our schema accepts it"
    assert not model_accepts(case.kind, doc), f"{case.label}: our model accepts it"
    with pytest.raises(DocumentError):
        load_document(json.dumps(doc).encode(), case.label, case.kind)


# -- 2. models agree with our JSON Schemas, every kind ------------------------------------------


@pytest.mark.parametrize("case", ALL_CASES, ids=[c.label for c in ALL_CASES])
def test_model_agrees_with_schema(case: Case):
    doc = _doc(case)
    by_schema, by_model = ours_accepts(case.kind, doc), model_accepts(case.kind, doc)
    assert by_schema == by_model, {"schema": _errors(our_validator(case.kind), doc), "model": _model_errors(case.kind, doc)}
    assert by_schema == (case.rule == "valid")


def test_model_agrees_with_schema_on_lone_surrogates():
    doc = json.loads('{"specVersion": "0.1", "id": "a/b", "version": "1.0.0", "name": "\\ud800", "description": "d"}')
    assert ours_accepts("manifest", doc) and reference_accepts("manifest", doc)
    assert model_accepts("manifest", doc)


# -- 3. errors name the JSON path and the rule --------------------------------------------------

ERROR_CASES = [
    # label, model path, model rule, schema path, schema keyword
    ("index.module.not-package-relative", "$.packages[0].capabilities[0].module", "package_relative_module", "$.packages[0].capabilities[0].module", "pattern"),
    ("index.capability.manifest.name.blank", "$.packages[0].capabilities[1].manifest.name", "non_blank", "$.packages[0].capabilities[1].manifest.name", "pattern"),
    ("index.federates.no-host", "$.federates[0]", "http_url", "$.federates[0]", "pattern"),
    ("index.generatedAt.feb-30", "$.generatedAt", "date_time", "$.generatedAt", "format"),
    ("index.generatedAt.leap-second", "$.generatedAt", "js_date", "$.generatedAt", "pattern"),
    ("index.metadata.non-string", "$.metadata.stars", "string_type", "$.metadata.stars", "type"),
    ("manifest.id.trailing-newline", "$.id", "capability_id", "$.id", "pattern"),
    ("manifest.effects.duplicate", "$.effects", "unique_items", "$.effects", "uniqueItems"),
    ("manifest.effects.unknown", "$.effects[0]", "effect", "$.effects[0]", "anyOf"),
    ("manifest.additionalProperties", "$.permissions", "extra_forbidden", "$", "additionalProperties"),
    ("site.mcp.stdio-without-command", "$.mcp[0]", "stdio_command", "$.mcp[0]", "required"),
    ("site.mcp.http-url.non-http", "$.mcp[0]", "http_url", "$.mcp[0].url", "pattern"),
    ("site.indexes.empty", "$.indexes", "too_short", "$.indexes", "minItems"),
    ("gap.searched.unknown", "$.searched[1]", "literal_error", "$.searched[1]", "enum"),
    ("binding.immutableArtifact.latest", "$.immutableArtifact", "immutable_artifact", "$.immutableArtifact", "not"),
    ("binding.immutableArtifact.branch", "$.immutableArtifact", "immutable_artifact", "$.immutableArtifact", "pattern"),
    ("binding.authority.incomplete-without-opaque", "$.authority", "opaque_effects", "$.authority.effects", "contains"),
    ("binding.evidence.empty-string", "$.evidence[0]", "string_too_short", "$.evidence[0]", "minLength"),
    ("lock.index.digest", "$.index.digest", "sha256_hex", "$.index.digest", "pattern"),
    ("lockset.locks.invalid-lock", "$.locks[0].index.digest", "sha256_hex", "$.locks[0].index.digest", "pattern"),
    ("candidate.executable.zero", "$.executable", "bool_type", "$.executable", "const"),
    ("report.candidates.invalid", "$.candidates[0].executable", "literal_error", "$.candidates[0].executable", "const"),
]


@pytest.mark.parametrize(("label", "model_path", "model_rule", "schema_path", "keyword"), ERROR_CASES, ids=[c[0] for c in ERROR_CASES])
def test_errors_name_path_and_rule(label, model_path, model_rule, schema_path, keyword):
    case = INVALID[label]
    with pytest.raises(DocumentError) as raised:
        validate(case.kind, case.doc, "x.json")
    problems = raised.value.problems
    assert str(raised.value).startswith("x.json: ")
    assert any(p.startswith(model_path + ": ") and p.endswith(f"[{model_rule}]") for p in problems), problems
    errors = schema_errors(case.kind, case.doc)
    assert any(e.startswith(f"{schema_path}: {keyword} (") for e in errors), errors


_KEY = r"(\.[^\[\]:]+|\['[^']*'\]|\[\d+\])"
_PROBLEM = re.compile(rf"\${_KEY}*: .+ \[[a-z0-9_]+\]", re.DOTALL)
_SCHEMA_ERROR = re.compile(rf"\${_KEY}*: [A-Za-z]+ \(.*\)", re.DOTALL)


@pytest.mark.parametrize("case", INVALID.values(), ids=INVALID.keys())
def test_every_problem_is_path_and_rule(case: Case):
    with pytest.raises(DocumentError) as raised:
        validate(case.kind, case.doc, "x.json")
    assert raised.value.problems
    for problem in raised.value.problems:
        assert _PROBLEM.fullmatch(problem), problem
    errors = schema_errors(case.kind, case.doc)
    assert errors
    for error in errors:
        assert _SCHEMA_ERROR.fullmatch(error), error


def test_model_error_paths_quote_keys_like_jsonschema():
    case = INVALID["report.unsupported_extensions.fractional"]
    assert schema_errors(case.kind, case.doc)[0].startswith("$.unsupported_extensions['.zig']: ")
    assert _model_errors(case.kind, case.doc)[0].startswith("$.unsupported_extensions['.zig']: ")


# -- 4. ECMAScript semantics that Python gets wrong by default ----------------------------------

CAPABILITY_ID = load_schema("manifest")["properties"]["id"]["pattern"]
SEMVER = load_schema("manifest")["properties"]["version"]["pattern"]


def test_trailing_newline_is_not_end_of_string():
    assert re.search(CAPABILITY_ID, "text/slugify\n"), "Python's '$' matches before a final newline"
    assert not pattern_matches(CAPABILITY_ID, "text/slugify\n")
    assert pattern_matches(CAPABILITY_ID, "text/slugify")
    doc = {**MANIFEST_MIN, "id": "text/slugify\n"}
    assert not reference_accepts("manifest", doc)
    assert not ours_accepts("manifest", doc)
    assert not model_accepts("manifest", doc)


def test_digits_are_ascii():
    arabic_indic = "١.٢.٣"
    assert re.fullmatch(r"\d+\.\d+\.\d+", arabic_indic), "Python's \\d matches every Unicode digit"
    assert not pattern_matches(r"^\d+\.\d+\.\d+$", arabic_indic)
    assert pattern_matches(r"^\d+\.\d+\.\d+$", "1.2.3")
    doc = {**MANIFEST_MIN, "version": arabic_indic}
    assert not reference_accepts("manifest", doc)
    assert not ours_accepts("manifest", doc)
    assert not model_accepts("manifest", doc)


@pytest.mark.parametrize(
    ("pattern", "value", "python", "ecmascript"),
    [
        (r"^\s$", "\x1c", True, False),  # file separator: Python whitespace, not ECMAScript
        (r"^\s$", "\x85", True, False),  # NEL
        (r"^\s$", "\ufeff", False, True),  # BOM: ECMAScript whitespace, not Python's
        (r"^.$", "\r", True, False),  # '.' stops at every ECMAScript line terminator
        (r"^.$", "\u2028", True, False),
        (r"^\w+$", "é", True, False),
        (r"^[^\s]+$", "a\u00a0b", False, False),
    ],
)
def test_pattern_shorthands(pattern, value, python, ecmascript):
    assert bool(re.search(pattern, value)) is python
    assert pattern_matches(pattern, value) is ecmascript


def test_impossible_and_leap_day_dates():
    for kind, field, base in [("index", "generatedAt", INDEX_MIN), ("gap", "createdAt", GAP_MIN), ("binding", "createdAt", BINDING_NPM)]:
        bad, good = {**base, field: "2026-02-30T00:00:00Z"}, {**base, field: "2024-02-29T12:00:00+05:30"}
        assert not reference_accepts(kind, bad) and not ours_accepts(kind, bad) and not model_accepts(kind, bad)
        assert reference_accepts(kind, good) and ours_accepts(kind, good) and model_accepts(kind, good)
    assert not is_date_time("2025-02-29T00:00:00Z")  # not a leap year
    assert not is_date_time("2100-02-29T00:00:00Z")  # divisible by 100, not by 400
    assert is_date_time("2000-02-29T00:00:00Z")


# JSON-Schema-Test-Suite, tests/draft2020-12/optional/format/date-time.json (the string cases)
DATE_TIME_SUITE = [
    ("1963-06-19T08:30:06.283185Z", True),
    ("1963-06-19T08:30:06Z", True),
    ("1937-01-01T12:00:27.87+00:20", True),
    ("1990-12-31T15:59:50.123-08:00", True),
    ("1998-12-31T23:59:60Z", True),
    ("1998-12-31T15:59:60.123-08:00", True),
    ("1998-12-31T23:59:61Z", False),
    ("1998-12-31T23:58:60Z", False),
    ("1998-12-31T22:59:60Z", False),
    ("1990-02-31T15:59:59.123-08:00", False),
    ("1990-12-31T15:59:59-24:00", False),
    ("1963-06-19T08:30:06.28123+01:00Z", False),
    ("06/19/1963 08:30:06 PST", False),
    ("1963-06-19t08:30:06.283185z", True),
    ("2013-350T01:01:01", False),
    ("1963-6-19T08:30:06.283185Z", False),
    ("1963-06-1T08:30:06.283185Z", False),
    ("1963-06-1৪T00:00:00Z", False),
    ("1963-06-11T0৪:00:00Z", False),
    # and what Python's datetime.fromisoformat would take but RFC 3339 does not
    ("2026-01-01T00:00:00", False),
    ("2026-01-01 00:00:00Z", False),
    ("20260101T000000Z", False),
    ("2026-01-01T00:00:00+0000", False),
    ("2026-01-01T00:00:00.Z", False),
    ("2026-01-01T00:00:00Z\n", False),
]


@pytest.mark.parametrize(("value", "expected"), DATE_TIME_SUITE, ids=[v for v, _ in DATE_TIME_SUITE])
def test_date_time_format(value, expected):
    assert is_date_time(value) is expected
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "format": "date-time"}
    assert make_validator(schema).is_valid(value) is expected


def test_leap_seconds_parse():
    assert parse_date_time("1998-12-31T23:59:60Z").isoformat() == "1998-12-31T23:59:59+00:00"
    assert parse_date_time("1998-12-31T15:59:60.5-08:00").isoformat() == "1998-12-31T23:59:59.500000+00:00"
    assert parse_date_time("2024-02-29T12:00:00+05:30").isoformat() == "2024-02-29T06:30:00+00:00"


@pytest.mark.parametrize("raw", [b'{"a": NaN}', b'{"a": Infinity}', b'[-Infinity]', b"NaN"])
def test_parse_json_rejects_non_json_numbers(raw):
    with pytest.raises(DocumentError) as raised:
        parse_json(raw, "x.json")
    assert raised.value.problems[0].startswith("$: not JSON")


@pytest.mark.parametrize("opener,closer", [("[", "]"), ('{"a":', "}")], ids=["arrays", "objects"])
def test_deep_nesting_is_a_document_error(opener, closer):
    depth = 100_000
    raw = (opener * depth + "1" + closer * depth).encode()
    with pytest.raises(DocumentError) as raised:
        parse_json(raw, "deep.json")
    assert raised.value.problems == ["$: JSON is nested too deeply"]
    with pytest.raises(DocumentError):
        load_document(raw, "deep.json", "manifest")


def test_parse_json_rejects_invalid_utf8():
    with pytest.raises(DocumentError) as raised:
        parse_json(b'{"name": "\xff"}', "x.json")
    assert "not UTF-8" in raised.value.problems[0]
