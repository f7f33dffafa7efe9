"""One pydantic model per wire document, field names exactly as on the wire.

Every model is strict (no coercion: "true" is not a boolean) and forbids unknown
fields where the reference schema does. Optional fields default to None but
reject an explicit `null`, as the JSON Schemas do: their annotation is the
non-null type with a None default that pydantic never validates.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
)
from pydantic_core import PydanticCustomError

from . import load_schema
from .ecma import compile_pattern, is_date_time, is_uri, pattern_matches

BUILTIN_EFFECTS = frozenset(load_schema("manifest")["$defs"]["effect"]["anyOf"][0]["enum"])
OPAQUE_EFFECTS = "custom:external.opaque-effects"
_CUSTOM_EFFECT = load_schema("manifest")["$defs"]["effect"]["anyOf"][1]["pattern"]
_ECMA_WHITESPACE = "\t\n\x0b\f\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_BINDING_ARTIFACT = load_schema("binding")["properties"]["immutableArtifact"]
CAPABILITY_ID_PATTERN = load_schema("manifest")["properties"]["id"]["pattern"]
SEMVER_PATTERN = load_schema("manifest")["properties"]["version"]["pattern"]
GAP_ID_PATTERN = load_schema("gap")["properties"]["id"]["pattern"]
GAP_LISTING_FILE_PATTERN = load_schema("gaplisting")["properties"]["gaps"]["items"]["properties"]["file"]["pattern"]
INDEX_GENERATED_AT_PATTERN = load_schema("index")["properties"]["generatedAt"]["pattern"]
COMMIT_PATTERN = "^([0-9a-f]{40}|[0-9a-f]{64})$"


def _effect(value: str) -> str:
    if value not in BUILTIN_EFFECTS and not pattern_matches(_CUSTOM_EFFECT, value):
        raise PydanticCustomError("effect", "{value} is neither a built-in effect nor custom:<namespace>", {"value": repr(value)})
    return value


def _non_blank(value: str) -> str:
    if not value.strip(_ECMA_WHITESPACE):
        raise PydanticCustomError("non_blank", "must not be blank")
    return value


def _date_time(value: str) -> str:
    if not is_date_time(value):
        raise PydanticCustomError("date_time", "{value} is not an RFC 3339 date-time", {"value": repr(value)})
    return value


def _uri(value: str) -> str:
    if not is_uri(value):
        raise PydanticCustomError("uri", "{value} is not an absolute RFC 3986 URI", {"value": repr(value)})
    return value


def _http_url(value: str) -> str:
    problem = http_url_problem(value)
    if problem:
        raise PydanticCustomError("http_url", "{value} is {problem}", {"value": repr(value), "problem": problem})
    return value


def http_url_problem(value: str) -> str | None:
    """Why `value` is not an absolute http(s) URL, or None when it is."""
    if not is_uri(value):
        return "not an absolute RFC 3986 URI"
    if not pattern_matches("^https?://[^/?#\\s]+", value):
        return "not an absolute http(s) URL"
    return None


def _unique(value: list[Any]) -> list[Any]:
    if len(set(value)) == len(value):  # every caller's items are strings: the common case, in C
        return value
    seen = set()
    for item in value:
        key = repr(item) if not isinstance(item, str) else item
        if key in seen:
            raise PydanticCustomError("unique_items", "items must be unique; {item} repeats", {"item": repr(item)})
        seen.add(key)
    return value


def _immutable_artifact(value: str) -> str:
    if not pattern_matches(_BINDING_ARTIFACT["pattern"], value):
        raise PydanticCustomError(
            "immutable_artifact",
            "{value} names no exact bytes: it must end in a content digest or a full commit id",
            {"value": repr(value)},
        )
    if pattern_matches(_BINDING_ARTIFACT["not"]["pattern"], value):
        raise PydanticCustomError(
            "immutable_artifact", "{value} pins a mutable version (a tag or a range)", {"value": repr(value)}
        )
    return value


def _json_integer(value: Any) -> Any:
    # JSON (and JSON Schema's "integer") has one number type: 1.0 is the integer 1.
    if type(value) is float and value.is_integer():
        return int(value)
    return value


def _json_bool(value: Any) -> Any:
    # Literal[False] alone would also take 0 and 0.0 (they compare equal to False); JSON does not.
    if not isinstance(value, bool):
        raise PydanticCustomError("bool_type", "Input should be a valid boolean")
    return value


def _matching(pattern: str, rule: str):
    search = compile_pattern(pattern).search

    def check(value: str) -> str:
        if search(value) is None:
            raise PydanticCustomError(rule, "{value} does not match {pattern}", {"value": repr(value), "pattern": pattern})
        return value

    return AfterValidator(check)


NonEmpty = Annotated[str, StringConstraints(min_length=1)]
NonBlank = Annotated[str, StringConstraints(min_length=1), AfterValidator(_non_blank)]
Effect = Annotated[str, AfterValidator(_effect)]
Effects = Annotated[list[Effect], AfterValidator(_unique)]
DateTime = Annotated[str, AfterValidator(_date_time)]
Uri = Annotated[str, AfterValidator(_uri)]
HttpUrl = Annotated[str, AfterValidator(_http_url)]
CapabilityId = Annotated[str, _matching(CAPABILITY_ID_PATTERN, "capability_id")]
SemVer = Annotated[str, _matching(SEMVER_PATTERN, "semver")]
Module = Annotated[str, _matching("^\\./", "package_relative_module")]
Commit = Annotated[str, _matching(COMMIT_PATTERN, "commit_id")]
JsonObject = dict[str, Any]
JsonInt = Annotated[int, BeforeValidator(_json_integer)]
JsonFalse = Annotated[Literal[False], BeforeValidator(_json_bool)]


class Wire(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


# -- Capability manifest (specVersion 0.1) -----------------------------------------------------


class Behavior(Wire):
    deterministic: bool = None  # type: ignore[assignment]
    idempotent: bool = None  # type: ignore[assignment]
    reversible: bool = None  # type: ignore[assignment]


class CapabilityManifest(Wire):
    specVersion: Literal["0.1"]
    id: CapabilityId
    version: SemVer
    name: NonBlank
    description: NonBlank
    input: JsonObject = None  # type: ignore[assignment]
    output: JsonObject = None  # type: ignore[assignment]
    effects: Effects = None  # type: ignore[assignment]
    behavior: Behavior = None  # type: ignore[assignment]
    tags: Annotated[list[NonEmpty], AfterValidator(_unique)] = None  # type: ignore[assignment]
    metadata: JsonObject = None  # type: ignore[assignment]


# -- Public index (indexVersion 0.1) -----------------------------------------------------------


class IndexCapability(Wire):
    manifest: CapabilityManifest
    module: Module
    integrity: str = None  # type: ignore[assignment]


class IndexPackage(Wire):
    name: NonEmpty
    version: NonEmpty
    source: NonEmpty
    repository: str = None  # type: ignore[assignment]
    integrity: str = None  # type: ignore[assignment]
    capabilities: list[IndexCapability]


class CapabilityIndexDocument(Wire):
    indexVersion: Literal["0.1"]
    generatedAt: Annotated[DateTime, _matching(INDEX_GENERATED_AT_PATTERN, "js_date")]  # Date.parse has no leap second
    federates: Annotated[list[HttpUrl], AfterValidator(_unique)] = None  # type: ignore[assignment]
    metadata: dict[str, str] = None  # type: ignore[assignment]
    packages: list[IndexPackage]


# -- Site discovery (capabilityDiscoveryVersion 0.1) -------------------------------------------


class SitePackage(Wire):
    name: NonEmpty
    version: NonEmpty = None  # type: ignore[assignment]


class SiteMcpServer(Wire):
    transport: Literal["stdio", "http"]
    command: NonEmpty = None  # type: ignore[assignment]
    args: list[str] = None  # type: ignore[assignment]
    url: Uri = None  # type: ignore[assignment]

    def model_post_init(self, _context: Any) -> None:
        if self.transport == "stdio" and self.command is None:
            raise PydanticCustomError("stdio_command", "a stdio MCP server needs a command")
        if self.transport == "http":
            if self.url is None:
                raise PydanticCustomError("http_url", "an http MCP server needs a url")
            _http_url(self.url)


class CapabilitySiteDocument(Wire):
    capabilityDiscoveryVersion: Literal["0.1"]
    indexes: Annotated[list[HttpUrl], Field(min_length=1), AfterValidator(_unique)]
    package: SitePackage = None  # type: ignore[assignment]
    mcp: list[SiteMcpServer] = None  # type: ignore[assignment]
    documentation: HttpUrl = None  # type: ignore[assignment]
    repository: HttpUrl = None  # type: ignore[assignment]
    metadata: dict[str, str] = None  # type: ignore[assignment]


# -- Capability gap (gapVersion 0.1) -----------------------------------------------------------

SearchedSubstrate = Literal["native", "npm", "pypi", "oci", "mcp", "openapi", "repository", "composition", "gap"]


class GapRequired(Wire):
    input: JsonObject = None  # type: ignore[assignment]
    output: JsonObject = None  # type: ignore[assignment]
    effectsCeiling: Annotated[list[NonEmpty], AfterValidator(_unique)]
    verification: Annotated[list[NonEmpty], Field(min_length=1)]


class GapEvidence(Wire):
    nativeCandidates: list[str]
    externalCandidates: list[str]
    compositionAttempts: list[str]


class CapabilityGap(Wire):
    gapVersion: Literal["0.1"]
    id: Annotated[str, _matching(GAP_ID_PATTERN, "gap_id")]
    intent: NonEmpty
    createdAt: DateTime
    required: GapRequired
    searched: Annotated[list[SearchedSubstrate], AfterValidator(_unique)]
    evidence: GapEvidence
    status: Literal["unresolved"]


# -- Metabolic binding (bindingVersion 1.0) ----------------------------------------------------


class BindingAuthority(Wire):
    complete: bool
    effects: Effects
    note: str = None  # type: ignore[assignment]

    def model_post_init(self, _context: Any) -> None:
        if not self.complete and OPAQUE_EFFECTS not in self.effects:
            raise PydanticCustomError("opaque_effects", f"incomplete authority must list {OPAQUE_EFFECTS}")


class MetabolicBinding(Wire):
    model_config = ConfigDict(strict=True, extra="allow", frozen=True)

    bindingVersion: Literal["1.0"]
    binderId: NonEmpty
    substrate: NonEmpty
    locator: NonEmpty
    immutableArtifact: Annotated[str, StringConstraints(min_length=1), AfterValidator(_immutable_artifact)]
    createdAt: DateTime
    authority: BindingAuthority
    evidence: Annotated[list[NonEmpty], Field(min_length=1)]
    metadata: JsonObject = None  # type: ignore[assignment]


# -- Sidecar bridge (bridgeVersion 0.1) --------------------------------------------------------


class BridgeTarget(Wire):
    kind: Literal["npm-cli"]
    package: NonEmpty
    version: NonEmpty
    bin: NonEmpty
    binPath: NonEmpty


class BridgeAuthority(Wire):
    complete: bool
    note: str = None  # type: ignore[assignment]


class CapabilityBridge(Wire):
    bridgeVersion: Literal["0.1"]
    manifest: CapabilityManifest
    target: BridgeTarget
    authority: BridgeAuthority
    source: JsonObject = None  # type: ignore[assignment]


# -- Lockfile (lockVersion 1) and capindex's lock set ------------------------------------------


class LockIndex(Wire):
    url: HttpUrl
    digest: Annotated[str, _matching("^[0-9a-f]{64}$", "sha256_hex")]


class LockPackage(Wire):
    name: NonEmpty
    version: NonEmpty
    integrity: NonEmpty = None  # type: ignore[assignment]


class LockCapability(Wire):
    id: CapabilityId
    version: SemVer
    module: Module
    integrity: NonEmpty = None  # type: ignore[assignment]


class CapabilityLock(Wire):
    lockVersion: Literal["1"]
    generatedAt: DateTime
    index: LockIndex
    package: LockPackage
    capability: LockCapability


class LockSet(Wire):
    lock_set_version: Literal["1"]
    generated_at: DateTime
    locks: list[CapabilityLock]


# -- capindex's own: candidates and mining reports ---------------------------------------------

CandidateKind = Literal[
    "function", "class", "method", "cli-command", "cli-subcommand", "http-route", "mcp-tool", "mcp-resource",
    "declared-operation",
]


class CandidateSource(Wire):
    path: NonEmpty
    line: Annotated[JsonInt, Field(ge=1)]
    end_line: Annotated[JsonInt, Field(ge=1)]
    commit: Commit | None


class Evidence(Wire):
    model_config = ConfigDict(strict=True, extra="allow", frozen=True)
    kind: NonEmpty
    detail: NonEmpty
    path: str = None  # type: ignore[assignment]
    line: Annotated[JsonInt, Field(ge=1)] = None  # type: ignore[assignment]


class CandidateAuthority(Wire):
    complete: bool
    effects: Effects
    note: str = None  # type: ignore[assignment]

    def model_post_init(self, _context: Any) -> None:
        if not self.complete and OPAQUE_EFFECTS not in self.effects:
            raise PydanticCustomError("opaque_effects", f"a candidate's incomplete authority must list {OPAQUE_EFFECTS}")


class Candidate(Wire):
    model_config = ConfigDict(strict=True, extra="allow", frozen=True)

    id: NonEmpty
    kind: CandidateKind
    name: NonEmpty
    symbol: str
    module: str | None = None
    visibility: Literal["public", "internal"]
    language: NonEmpty
    source: CandidateSource
    signature: str
    description: str
    provenance: Literal["mined", "declared"] = None  # type: ignore[assignment]
    evidence: Annotated[list[Evidence], Field(min_length=1)]
    effects: Effects
    confidence: Annotated[float, Field(ge=0, le=1)]
    authority: CandidateAuthority
    executable: JsonFalse
    unknowns: list[str] = None  # type: ignore[assignment]
    draft_contract: JsonObject

    def model_post_init(self, _context: Any) -> None:
        # only a declared, complete Capability manifest states its whole authority; mined or
        # otherwise declared operations leave what they do not prove opaque
        declared = (self.model_extra or {}).get("declared")
        if self.authority.complete and not (self.provenance == "declared" and isinstance(declared, dict)
                                            and declared.get("format") == "capability"):
            raise PydanticCustomError("complete_authority", "only a declared Capability manifest has complete authority")


class ReportRepository(Wire):
    kind: Literal["git", "npm", "pypi", "directory"]
    locator: NonEmpty
    rev: str | None = None
    commit: Commit | None = None
    artifact: str | None = None
    pinned: bool


class SkippedFile(Wire):
    model_config = ConfigDict(strict=True, extra="allow", frozen=True)
    path: str
    reason: str


class Coverage(Wire):
    model_config = ConfigDict(strict=True, extra="allow", frozen=True)
    files_seen: Annotated[JsonInt, Field(ge=0)]
    files_parsed: Annotated[JsonInt, Field(ge=0)]
    languages: dict[str, Annotated[JsonInt, Field(ge=0)]] = None  # type: ignore[assignment]
    skipped: list[SkippedFile] = None  # type: ignore[assignment]


class Hazard(Wire):
    model_config = ConfigDict(strict=True, extra="allow", frozen=True)
    kind: NonEmpty
    detail: str = None  # type: ignore[assignment]
    path: str = None  # type: ignore[assignment]


DeclaredFormat = Literal["capability", "openapi", "mcp", "aip", "app", "ampersand"]


class DeclaredFile(Wire):
    path: NonEmpty
    format: DeclaredFormat
    operations: Annotated[JsonInt, Field(ge=0)]
    source_digest: str = None  # type: ignore[assignment]


class DeclaredProblem(Wire):
    path: NonEmpty
    format: DeclaredFormat
    where: NonEmpty  # "line N" or a JSON path
    reason: NonEmpty


class DeclaredSection(Wire):
    files: list[DeclaredFile]
    problems: list[DeclaredProblem]


class GapListingEntry(Wire):
    id: Annotated[str, _matching(GAP_ID_PATTERN, "gap_id")]
    file: Annotated[str, _matching(GAP_LISTING_FILE_PATTERN, "gap_file")]
    intent: NonEmpty
    demand: Annotated[JsonInt, Field(ge=1)]
    firstAsked: DateTime
    lastAsked: DateTime
    effectsCeiling: Annotated[list[NonEmpty], AfterValidator(_unique)]


class GapListing(Wire):
    """capindex's own: the published gaps (gaps/index.json), most demanded first."""

    gapListingVersion: Literal["0.1"]
    generatedAt: DateTime
    gaps: list[GapListingEntry]


class MiningReport(Wire):
    report_version: Literal["0.1"]
    generated_at: DateTime
    repository: ReportRepository
    coverage: Coverage
    candidates: list[Candidate]
    hazards: list[Hazard]
    unsupported_extensions: dict[str, Annotated[JsonInt, Field(ge=0)]]
    declared: DeclaredSection = None  # type: ignore[assignment]


DOCUMENT_MODELS: dict[str, type[Wire]] = {
    "manifest": CapabilityManifest,
    "index": CapabilityIndexDocument,
    "site": CapabilitySiteDocument,
    "gap": CapabilityGap,
    "binding": MetabolicBinding,
    "bridge": CapabilityBridge,
    "lock": CapabilityLock,
    "lockset": LockSet,
    "candidate": Candidate,
    "report": MiningReport,
    "gaplisting": GapListing,
}
