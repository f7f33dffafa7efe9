"""npm registry metadata as pure functions: which version a request means, what a version holds, the
capabilities its package.json declares, and search results as candidates. Nothing here does HTTP
(`indexer/npm.py` fetches through the guarded client) and nothing here runs package code.

- `resolve(packument, request)` picks one exact version for an exact version, a dist-tag, a
  node-semver range, or None (= the `latest` tag), classifying the request as npm-package-arg
  does: a valid version is exact, else a valid range is a range, else it is a tag.
- `version_record(packument, version)` is one version as a JSON-serialisable dict (keys below).
- `capability_exports(package_json, where)` reads the Capability standard's `package.json.capability`
  declaration: `{"specVersion": "0.1", "exports": {<capability id>: <descriptor> | <legacy path>}}`
  (the layout of the reference implementation's `src/package.ts`; the standard's text only says
  "package.json.capability" and "each export"). Each export is judged on its own: a bad one is a
  problem, not the end of the others.
- `search_results(search_json)` turns `/-/v1/search` answers into candidates, never capabilities.

Everything the registry says is untrusted: values of an unexpected type are treated as absent, and
text taken from it is quoted in messages, one line each.
"""

from __future__ import annotations

import copy
import math
import posixpath
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from schemas.documents import json_path, validate
from schemas.ecma import pattern_matches
from schemas.errors import CapindexError, DocumentError
from schemas.models import CAPABILITY_ID_PATTERN

from .semver import Range, SemverError, max_satisfying, parse_version

CAPABILITY_SPEC_VERSION = "0.1"  # the package declaration's own version, as the reference checks it


class NpmError(CapindexError, ValueError):
    """Registry metadata that cannot answer the question asked; str() is one line naming what and why."""


def _q(text: object, limit: int = 100) -> str:
    """Untrusted text quoted for a one-line message."""
    shown = repr(str(text))
    return shown if len(shown) <= limit else shown[: limit - 4] + "...'"


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value != "" else None


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _package_name(packument: Any) -> str:
    if not isinstance(packument, dict):
        return "(not a packument)"
    return _str(packument.get("name")) or "(unnamed package)"


def _versions(packument: Any) -> dict[str, Any]:
    if not isinstance(packument, dict):
        raise NpmError("the packument is not a JSON object")
    versions = packument.get("versions")
    if not isinstance(versions, dict):
        raise NpmError(f"{_package_name(packument)}: the packument has no versions object")
    return versions


# -- resolution ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Resolution:
    requested: str  # the request as given (stripped); "latest" when there was none
    version: str  # an exact version, a key of the packument's `versions`
    how: str  # "exact", "tag" or "range"


def resolve(packument: dict[str, Any], request: str | None) -> Resolution:
    """The exact version npm would install for `request`; NpmError when there is none.

    A range prefers the version the `latest` tag names when it satisfies the range (npm-pick-manifest
    does the same, and `*` takes `latest` even when that is a prerelease); otherwise it takes the
    highest satisfying version. npm also ranks deprecated versions and ones whose `engines` do not fit
    the running node lower; we do not, so a range may pick a deprecated version npm would pass over.
    """
    versions = _versions(packument)
    name = _package_name(packument)
    tags = {k: v for k, v in _dict(packument.get("dist-tags")).items() if isinstance(v, str)}
    wanted = request.strip() if isinstance(request, str) else ""
    wanted = wanted or "latest"

    exact = parse_version(wanted)
    if exact is not None:
        # registry keys are clean versions; "v1.2.3", "=1.2.3" or "1.2.3+build" ask for "1.2.3"
        for key in (wanted, str(exact)):
            if key in versions:
                return Resolution(wanted, key, "exact")
        raise NpmError(f"{name}: no version {_q(wanted)}{_latest_hint(tags)}")

    try:
        wanted_range = Range.parse(wanted)
    except SemverError:
        wanted_range = None
    if wanted_range is not None:
        latest = tags.get("latest")
        if latest in versions and (wanted == "*" or wanted_range.satisfied_by(latest)):
            return Resolution(wanted, latest, "range")
        best = max_satisfying(versions, wanted)
        if best is None:
            raise NpmError(f"{name}: no version satisfies {_q(wanted)} ({wanted_range}){_latest_hint(tags)}")
        return Resolution(wanted, best, "range")

    if wanted in tags:
        target = tags[wanted]
        if target not in versions:
            raise NpmError(f"{name}: dist-tag {_q(wanted)} names {_q(target)}, which the packument does not list")
        return Resolution(wanted, target, "tag")
    known = ", ".join(_q(t, 40) for t in sorted(tags)[:10]) or "none"
    raise NpmError(f"{name}: {_q(wanted)} is neither a version, a range nor a dist-tag (dist-tags: {known})")


def _latest_hint(tags: dict[str, str]) -> str:
    return f"; latest is {tags['latest']}" if "latest" in tags else ""


# -- one version ---------------------------------------------------------------------------------

# The keys of version_record(), in order. npm's own field names where the value is npm's field
# (indexer/npm.py and binders/npm.py read `repository` and `gitHead`).
RECORD_KEYS = (
    "name",  # package name
    "version",  # exact version (the packument's key)
    "description",  # str | None
    "integrity",  # dist.integrity: SRI string ("sha512-<base64>"), None for versions published before npm 5
    "shasum",  # dist.shasum: SHA-1 hex of the tarball, or None
    "tarball",  # dist.tarball URL, or None (untrusted: fetch it through the guarded client)
    "gitHead",  # commit the publisher's checkout was at, as npm recorded it (a claim, not verified), or None
    "repository",  # browsable http(s) URL normalised from the string/object/shorthand forms, or None
    "repositoryRaw",  # repository as declared (the string, or the object's url), or None
    "repositoryDirectory",  # repository.directory (a package inside a monorepo), or None
    "homepage",  # str | None
    "bin",  # {command: path}; the string form becomes {unscoped package name: path}; {} when none
    "main",  # str | None
    "exports",  # the `exports` field as declared (string, object or array), or None
    "types",  # `types`, else the older `typings`, or None
    "keywords",  # list of strings; a string field is split as npm does (on ", ")
    "license",  # SPDX expression; legacy object/array forms become "MIT" or "(MIT OR Apache-2.0)"; None
    "deprecated",  # the deprecation message, or None when the version is not deprecated
    "hasAttestations",  # dist.attestations present (npm publish/provenance attestations)
    "provenancePredicateType",  # dist.attestations.provenance.predicateType (e.g. SLSA v1), or None
    "signatureCount",  # well-formed dist.signatures entries ({keyid, sig}); 0 when none
    "engines",  # {engine: range} as declared; {} when none
    "publishedAt",  # packument time[version]: when the registry says it was published, or None
    "declaresCapability",  # package.json has a `capability` field (read it with capability_exports)
)


def version_record(packument: dict[str, Any], version: str) -> dict[str, Any]:
    """One version's metadata; always the RECORD_KEYS, in that order. NpmError for an unknown
    version, or a version document that names another package or version (a corrupt or forged
    packument must not lend one release's identity to another)."""
    versions = _versions(packument)
    name = _package_name(packument)
    doc = versions.get(version)
    if not isinstance(doc, dict):
        raise NpmError(f"{name}: no version {_q(version)}")
    doc_name = doc.get("name", packument.get("name"))
    if not isinstance(doc_name, str) or not doc_name or doc_name != packument.get("name", doc_name):
        raise NpmError(f"{name}@{version}: the version document names package {_q(doc_name)}")
    if doc.get("version", version) != version:
        raise NpmError(f"{name}@{version}: the version document says version {_q(doc.get('version'))}")
    dist = _dict(doc.get("dist"))
    repository = doc.get("repository")
    repository_raw = _str(repository) or _str(_dict(repository).get("url"))
    attestations = dist.get("attestations")
    signatures = dist.get("signatures")
    engines = {k: v for k, v in _dict(doc.get("engines")).items() if isinstance(v, str)}
    published = _dict(packument.get("time")).get(version)
    return {
        "name": doc_name,
        "version": version,
        "description": _str(doc.get("description")),
        "integrity": _str(dist.get("integrity")),
        "shasum": _str(dist.get("shasum")),
        "tarball": _str(dist.get("tarball")),
        "gitHead": _str(doc.get("gitHead")),
        "repository": normalize_repository(repository),
        "repositoryRaw": repository_raw,
        "repositoryDirectory": _str(_dict(repository).get("directory")),
        "homepage": _str(doc.get("homepage")),
        "bin": _bin(doc_name, doc.get("bin")),
        "main": _str(doc.get("main")),
        "exports": copy.deepcopy(doc.get("exports")),  # the record must not share state with the packument
        "types": _str(doc.get("types")) or _str(doc.get("typings")),
        "keywords": _keywords(doc.get("keywords")),
        "license": _license(doc),
        "deprecated": _deprecated(doc.get("deprecated")),
        "hasAttestations": attestations is not None,
        "provenancePredicateType": _str(_dict(_dict(attestations).get("provenance")).get("predicateType")),
        "signatureCount": sum(
            1 for s in signatures if isinstance(s, dict) and _str(s.get("keyid")) and _str(s.get("sig"))
        ) if isinstance(signatures, list) else 0,
        "engines": engines,
        "publishedAt": _str(published),
        "declaresCapability": "capability" in doc,
    }


def _bin(package: str, value: Any) -> dict[str, str]:
    if isinstance(value, str) and value:
        # npm names a string `bin` after the package, without its scope
        return {package.rsplit("/", 1)[-1]: value}
    return {k: v for k, v in _dict(value).items() if isinstance(v, str) and v and k}


def _keywords(value: Any) -> list[str]:
    if isinstance(value, str):
        value = re.split(r",\s+", value)  # normalize-package-data's split
    if not isinstance(value, list):
        return []
    return [k.strip() for k in value if isinstance(k, str) and k.strip()]


def _license(doc: dict[str, Any]) -> str | None:
    declared = doc.get("license")
    if isinstance(declared, str) and declared.strip():
        return declared.strip()
    # legacy forms: {"type": "MIT", "url": ...}, a list of those (or of strings), or `licenses`
    forms = declared if isinstance(declared, (dict, list)) else doc.get("licenses")
    if isinstance(forms, (dict, str)):
        forms = [forms]
    if not isinstance(forms, list):
        return None
    names: list[str] = []
    for form in forms:
        text = form.get("type") if isinstance(form, dict) else form
        if isinstance(text, str) and text.strip() and text.strip() not in names:
            names.append(text.strip())
    if not names:
        return None
    # several legacy licenses mean the user may choose: npm's docs write that as an OR expression
    return names[0] if len(names) == 1 else "(" + " OR ".join(names) + ")"


def _deprecated(value: Any) -> str | None:
    if isinstance(value, str):
        return value or None  # npm un-deprecates with an empty message
    if value is True:
        return "(deprecated without a message)"
    return None


_HOSTED = {"github": "github.com", "gitlab": "gitlab.com", "bitbucket": "bitbucket.org"}
# owner/repo shorthand: an owner has no dots (so "example.com/x" is not read as a GitHub owner)
_SHORTHAND = re.compile(
    r"(?:(github|gitlab|bitbucket):)?([A-Za-z0-9][A-Za-z0-9_-]*)/([A-Za-z0-9][A-Za-z0-9._-]*?)(?:\.git)?/?(?:#.*)?",
    re.ASCII,
)
_GIST = re.compile(r"gist:([A-Za-z0-9]+)(?:#.*)?", re.ASCII)
_DOTTED_HOST = r"([A-Za-z0-9.-]+\.[A-Za-z]{2,})"
# scp-like git address, git@host:owner/repo.git (also the common broken ssh://git@host:owner/repo)
_SCP = re.compile(rf"(?:(?:git\+)?ssh://)?(?:[A-Za-z0-9._~%!$&'()*+,;=-]+@)?{_DOTTED_HOST}:(?![0-9]*/)/?([^#?]+)(?:[#?].*)?")
_SCHEMELESS = re.compile(rf"{_DOTTED_HOST}(/[^#?]+)(?:[#?].*)?")  # github.com/owner/repo
_HOST = re.compile(r"[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:[0-9]{1,5})?", re.ASCII)


def normalize_repository(value: Any) -> str | None:
    """A browsable http(s) URL for a package.json `repository` (string, `{url}` object, npm shorthand
    `owner/repo` or `github:`/`gitlab:`/`bitbucket:`/`gist:`, `git+https://`, `git://`, `git+ssh://`,
    `git@host:path`), without credentials, `.git`, query or fragment; None when it is none of those."""
    text = _str(value) or _str(_dict(value).get("url"))
    if text is None:
        return None
    text = text.strip()
    m = _SHORTHAND.fullmatch(text)
    if m:
        host = _HOSTED[m.group(1) or "github"]  # npm reads a bare owner/repo as GitHub
        return f"https://{host}/{m.group(2)}/{m.group(3)}"
    m = _GIST.fullmatch(text)
    if m:
        return f"https://gist.github.com/{m.group(1)}"
    m = _SCP.fullmatch(text)
    if m:
        return _https(m.group(1).lower(), "/" + m.group(2))
    m = _SCHEMELESS.fullmatch(text)
    if m:
        return _https(m.group(1).lower(), m.group(2))
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower().removeprefix("git+")
    host = (parts.hostname or "").lower()
    if scheme in ("http", "https"):
        # keep a web port; drop userinfo, which may hold a token
        return _https(host + (f":{port}" if port else ""), parts.path, scheme)
    if scheme in ("git", "ssh"):
        return _https(host, parts.path)  # a git/ssh port means nothing to a browser
    return None


def _https(host: str, path: str, scheme: str = "https") -> str | None:
    path = path.rstrip("/").removesuffix(".git").rstrip("/")
    if not _HOST.fullmatch(host) or not path.strip("/") or any(c.isspace() for c in path):
        return None
    return f"{scheme}://{host}{path if path.startswith('/') else '/' + path}"


# -- capability declarations ---------------------------------------------------------------------


@dataclass
class CapabilityExports:
    descriptors: list[dict[str, Any]] = field(default_factory=list)  # {id, module, manifest, integrity|None}
    legacy: dict[str, str] = field(default_factory=dict)  # capability id -> module path (not acquirable)
    problems: list[str] = field(default_factory=list)  # "JSON path: message [rule]", one per defect


def capability_exports(package_json: dict[str, Any], where: str) -> CapabilityExports:
    """The capability exports a package.json declares, each judged on its own.

    A descriptor is kept when its key is a capability id, its `module` is package-relative (`./`,
    no `..` escape once normalised), its `manifest` is a complete inert manifest that validates
    and whose `id` equals the key, and its `integrity`, when present, is a non-empty string. A
    string-only export with a package-relative path is kept in `legacy` (it carries no inert
    manifest, so it can never be acquired safely). The manifest dict is returned as declared, so
    it can be compared byte for byte with the one the module exports.

    No `capability` field means no exports and no problems. A declaration whose `specVersion` is
    not "0.1" is rejected whole, as the reference does: its export layout cannot be assumed.
    `where` names the package (e.g. "name@1.2.3") in the manifest validator's error.
    """
    out = CapabilityExports()
    if not isinstance(package_json, dict) or "capability" not in package_json:
        return out
    declaration = package_json["capability"]
    base = ("capability",)
    if not isinstance(declaration, dict):
        out.problems.append(f"{json_path(base)}: must be an object {{specVersion, exports}} [type]")
        return out
    spec = declaration.get("specVersion")
    if spec != CAPABILITY_SPEC_VERSION:
        out.problems.append(
            f"{json_path(base + ('specVersion',))}: must be {CAPABILITY_SPEC_VERSION!r}, not {_q(spec)}; "
            "no export was read [spec_version]"
        )
        return out
    exports = declaration.get("exports")
    if not isinstance(exports, dict):
        out.problems.append(
            f"{json_path(base + ('exports',))}: must be an object mapping capability ids to exports [type]"
        )
        return out
    for key, entry in exports.items():
        path = base + ("exports", key)
        problems = _export_problems(key, entry, path, where)
        if problems:
            out.problems.extend(problems)
        elif isinstance(entry, str):
            out.legacy[key] = entry
        else:
            out.descriptors.append({
                "id": key,
                "module": entry["module"],
                "manifest": entry["manifest"],
                "integrity": entry.get("integrity"),
            })
    return out


def _export_problems(key: str, entry: Any, path: tuple[Any, ...], where: str) -> list[str]:
    here = json_path(path)
    problems = []
    if not pattern_matches(CAPABILITY_ID_PATTERN, key):
        problems.append(f"{here}: the export key {_q(key)} is not a capability id [capability_id]")
    if isinstance(entry, str):
        problem = module_problem(entry)
        if problem:
            problems.append(f"{here}: {problem} [package_relative_module]")
        return problems
    if not isinstance(entry, dict):
        return problems + [f"{here}: must be a module path or a descriptor {{module, manifest, integrity}} [type]"]

    module = entry.get("module")
    problem = module_problem(module) if isinstance(module, str) else "must be a string (a ./ path)"
    if "module" not in entry:
        problem = "is missing"
    if problem:
        problems.append(f"{json_path(path + ('module',))}: {problem} [package_relative_module]")

    manifest_path = path + ("manifest",)
    manifest = entry.get("manifest")
    if "manifest" not in entry:
        problems.append(f"{json_path(manifest_path)}: is missing: a descriptor carries the complete inert manifest "
                        "[required]")
    elif not isinstance(manifest, dict):
        problems.append(f"{json_path(manifest_path)}: must be an object (the complete inert manifest) [type]")
    else:
        try:
            validate("manifest", manifest, where)
        except DocumentError as exc:
            prefix = json_path(manifest_path)
            problems.extend(p.replace("$", prefix, 1) for p in exc.problems)
        if isinstance(manifest.get("id"), str) and manifest["id"] != key:
            problems.append(f"{json_path(manifest_path + ('id',))}: {_q(manifest['id'])} differs from the export "
                            f"key {_q(key)} [export_id]")

    if "integrity" in entry and not (isinstance(entry["integrity"], str) and entry["integrity"]):
        problems.append(f"{json_path(path + ('integrity',))}: must be a non-empty string when present [type]")
    return problems


def module_problem(module: str) -> str | None:
    """Why `module` is not a package-relative path that stays inside the package, or None."""
    if not module.startswith("./"):
        return f"{_q(module)} must start with ./ (package-relative)"
    if "\\" in module or "\x00" in module:
        # a backslash is a separator on Windows hosts: "./a\\..\\..\\x" would escape there
        return f"{_q(module)} must use / separators and no NUL"
    normalised = posixpath.normpath(module)
    if normalised == ".":
        return f"{_q(module)} names the package root, not a module"
    if normalised == ".." or normalised.startswith("../"):
        return f"{_q(module)} escapes the package"
    return None


# -- search --------------------------------------------------------------------------------------

SEARCH_KEYS = (
    "name",  # package name
    "version",  # the version the search index holds (not necessarily latest), or None
    "description",  # str | None
    "keywords",  # list of strings
    "links",  # {npm, homepage, repository, bugs}: those present, as the registry gives them
    "repository",  # links.repository normalised like version_record's, or None
    "publisher",  # npm username of the last publisher, or None (the e-mail address is not kept)
    "date",  # when the indexed version was published, or None
    "score",  # score.final: the registry's ranking score, or None
    "searchScore",  # searchScore, or None
    "rank",  # 1-based position in the registry's answer, after skipping unusable entries
)


def search_results(search_json: dict[str, Any]) -> list[dict[str, Any]]:
    """Candidates from a `/-/v1/search` answer, in the registry's order (keys: SEARCH_KEYS).

    A search hit is a lead to software, never a capability: whatever its keywords say, nothing here
    is executable until a binding ties it to exact bytes. Entries without a package name are skipped;
    a package listed twice keeps its first entry. NpmError when the answer has no `objects` list.
    """
    if not isinstance(search_json, dict) or not isinstance(search_json.get("objects"), list):
        raise NpmError("the search answer has no objects list")
    results: list[dict[str, Any]] = []
    seen: set[str] = set()
    for item in search_json["objects"]:
        item = _dict(item)
        package = _dict(item.get("package"))
        name = _str(package.get("name"))
        if name is None or name in seen:
            continue
        seen.add(name)
        links = {k: v for k, v in _dict(package.get("links")).items()
                 if k in ("npm", "homepage", "repository", "bugs") and _str(v)}
        results.append({
            "name": name,
            "version": _str(package.get("version")),
            "description": _str(package.get("description")),
            "keywords": _keywords(package.get("keywords")),
            "links": links,
            "repository": normalize_repository(links.get("repository")),
            "publisher": _str(_dict(package.get("publisher")).get("username")),
            "date": _str(package.get("date")),
            "score": _number(_dict(item.get("score")).get("final")),
            "searchScore": _number(item.get("searchScore")),
            "rank": len(results) + 1,
        })
    return results


def _number(value: Any) -> float | None:
    # bool is an int in Python; NaN and infinities are not JSON
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return None
