"""The npm crawler: packuments from a registry into the store, and verified tarballs.

Everything the registry says is untrusted metadata: a tag or range is resolved to one exact
version (the request and the resolution are both recorded), descriptor exports become native
capabilities only when their inert manifests validate, string-only exports and search results
stay candidates, and a tarball is verified against `dist.integrity` before it is unpacked
(observed integrity wins: a mismatch fails and nothing is kept). All traffic goes through the
guarded client, whose address policy also applies to tarball URLs taken from the packument.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from index import registry
from index.canonical import canonical_json
from index.store import Store
from schemas.errors import CapindexError, DocumentError

from . import npm_meta
from .fetching import FetchFailure, HttpStatusError

DEFAULT_REGISTRY = "https://registry.npmjs.org"
ECOSYSTEM = "npm"


class NpmFailure(CapindexError, RuntimeError):
    """One npm request failed; the message says which and why, in one line."""


@dataclass
class NpmOutcome:
    requested: str
    name: str
    version: str | None = None
    how: str | None = None
    native_capabilities: int = 0
    legacy_exports: int = 0
    problems: list[str] = field(default_factory=list)
    error: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def parse_spec(spec: str) -> tuple[str, str | None]:
    """`name`, `name@1.2.3`, `name@latest`, `name@^1.2`, `@scope/name@tag` -> (name, request or None)."""
    spec = spec.strip()
    if spec.startswith("npm:"):
        spec = spec[4:]
    at = spec.find("@", 1)  # a scope's leading @ is part of the name
    name, request = (spec, None) if at < 0 else (spec[:at], spec[at + 1:] or None)
    if not name or name.startswith(".") or " " in name or (name.startswith("@") and "/" not in name):
        raise NpmFailure(f"{spec!r}: not an npm package name")
    return name, request


def packument_url(registry_url: str, name: str) -> str:
    # a scoped name keeps its @ and escapes the slash, as the registry expects
    return f"{registry_url.rstrip('/')}/{quote(name, safe='@')}"


async def get_json(client: Any, url: str, what: str) -> tuple[dict[str, Any], bytes]:
    try:
        response = await client.get(url)
    except HttpStatusError as exc:
        raise NpmFailure(f"{what}: {'not found' if exc.status == 404 else f'HTTP {exc.status}'} ({url})") from None
    except FetchFailure as exc:
        raise NpmFailure(f"{what}: {exc} ({url})") from None
    assert response.body is not None
    with response.body:
        raw = response.body.read()
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise NpmFailure(f"{what}: the registry's answer is not JSON ({url})") from None
    if not isinstance(data, dict):
        raise NpmFailure(f"{what}: the registry's answer is not a JSON object ({url})")
    return data, raw


async def crawl_package(store: Store, client: Any, spec: str, registry_url: str = DEFAULT_REGISTRY) -> NpmOutcome:
    """Resolve one spec, record the release and the resolution, and store its capabilities."""
    outcome = NpmOutcome(requested=spec, name=spec)
    try:
        name, request = parse_spec(spec)
        outcome.name = name
        url = packument_url(registry_url, name)
        packument, _ = await get_json(client, url, name)
        resolution = npm_meta.resolve(packument, request)
        outcome.version, outcome.how = resolution.version, resolution.how
        record = npm_meta.version_record(packument, resolution.version)
        registry.record_release(store, ECOSYSTEM, name, resolution.version, record, url)
        registry.record_resolution(store, ECOSYSTEM, name, resolution.requested, resolution.version, resolution.how)
        _store_capabilities(store, outcome, packument, record, registry_url)
    except (CapindexError, DocumentError) as exc:
        outcome.error = str(exc)
    return outcome


def _store_capabilities(store: Store, outcome: NpmOutcome, packument: dict[str, Any], record: dict[str, Any],
                        registry_url: str) -> None:
    name, version = outcome.name, outcome.version
    assert version is not None
    manifest = packument["versions"][version]
    where = f"{name}@{version}"
    exports = npm_meta.capability_exports(manifest, where)
    outcome.problems = list(exports.problems)
    for key, target in exports.legacy.items():
        registry.record_candidate(store, ECOSYSTEM, name, version, "legacy-export", f"{key}@{version}", {
            "export": key, "module": target, "acquirable": False,
            "reason": "string-only export: no inert manifest, so it cannot be acquired safely",
        })
        outcome.legacy_exports += 1
    if not exports.descriptors:
        return
    dist = manifest.get("dist") or {}
    entry: dict[str, Any] = {"name": name, "version": version, "source": "npm", "capabilities": [
        {k: v for k, v in (("manifest", d["manifest"]), ("module", d["module"]), ("integrity", d.get("integrity")))
         if v is not None}
        for d in exports.descriptors
    ]}
    if record.get("repository"):
        entry["repository"] = record["repository"]
    if isinstance(dist.get("integrity"), str):
        entry["integrity"] = dist["integrity"]
    source = f"{packument_url(registry_url, name)}/{quote(version)}"
    registry.store_native_package(store, source, ECOSYSTEM, canonical_json(manifest).encode(), entry)
    outcome.native_capabilities = len(exports.descriptors)


async def search(store: Store, client: Any, text: str, registry_url: str = DEFAULT_REGISTRY,
                 size: int = 20) -> list[dict[str, Any]]:
    """The registry's search results, stored as candidates (never capabilities)."""
    url = f"{registry_url.rstrip('/')}/-/v1/search?text={quote(text)}&size={int(size)}"
    data, _ = await get_json(client, url, f"search {text!r}")
    results = npm_meta.search_results(data)
    for result in results:
        registry.record_candidate(store, ECOSYSTEM, result["name"], result.get("version"), "search-result",
                                  text, result)
    return results


# -- acquisition ----------------------------------------------------------------------------------


def check_integrity(integrity: str, digests: dict[str, str]) -> str:
    """Compare an SRI string (`sha512-<base64>`, possibly several) with observed hex digests;
    the strongest algorithm present decides. Returns what was checked; NpmFailure on mismatch."""
    options = {}
    for item in integrity.split():
        algorithm, _, value = item.partition("-")
        if algorithm in ("sha512", "sha384", "sha256", "sha1") and value:
            options.setdefault(algorithm, []).append(value)
    for algorithm in ("sha512", "sha384", "sha256", "sha1"):
        if algorithm in options:
            observed = base64.b64encode(bytes.fromhex(digests[algorithm])).decode()
            if observed not in options[algorithm]:
                raise NpmFailure(f"integrity mismatch: the registry says {algorithm}-{options[algorithm][0]}, "
                                 f"the tarball is {algorithm}-{observed}")
            return f"{algorithm}-{observed}"
    raise NpmFailure(f"integrity {integrity!r} names no supported algorithm (sha512, sha384, sha256, sha1)")


async def fetch_package(store: Store, client: Any, spec: str, cache_dir: Path,
                        registry_url: str = DEFAULT_REGISTRY) -> dict[str, Any]:
    """Download a version's tarball, verify it against the registry's `dist.integrity` (and
    `dist.shasum`) before unpacking, unpack it safely into `cache_dir`, and compare the inert
    manifests inside with the registry's. NpmFailure (nothing kept) when verification fails."""
    from .archives import unpack

    name, request = parse_spec(spec)
    url = packument_url(registry_url, name)
    packument, _ = await get_json(client, url, name)
    resolution = npm_meta.resolve(packument, request)
    version = resolution.version
    record = npm_meta.version_record(packument, version)
    registry.record_release(store, ECOSYSTEM, name, version, record, url)
    registry.record_resolution(store, ECOSYSTEM, name, resolution.requested, version, resolution.how)
    dist = packument["versions"][version].get("dist") or {}
    tarball, integrity, shasum = dist.get("tarball"), dist.get("integrity"), dist.get("shasum")
    if not isinstance(tarball, str):
        raise NpmFailure(f"{name}@{version}: the registry gives no tarball URL")
    if not integrity and not shasum:
        raise NpmFailure(f"{name}@{version}: the registry gives no integrity to verify the tarball against")
    try:
        response = await client.get(tarball, hash_with=("sha512", "sha384", "sha256", "sha1"))
    except FetchFailure as exc:
        raise NpmFailure(f"{name}@{version}: tarball {tarball}: {exc}") from None
    assert response.body is not None
    with response.body as body:
        checked = check_integrity(integrity, response.digests) if isinstance(integrity, str) else None
        if isinstance(shasum, str) and shasum.lower() != response.digests["sha1"]:
            raise NpmFailure(f"{name}@{version}: shasum mismatch: the registry says {shasum}, "
                             f"the tarball is {response.digests['sha1']}")
        target = cache_dir / "npm" / name / version
        if target.exists():
            shutil.rmtree(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=target.parent, suffix=".tgz", delete=False) as spool:
            shutil.copyfileobj(body, spool)
        size = os.path.getsize(spool.name)
        try:
            report = unpack(spool.name, target, strip_prefix="package/")
        finally:
            os.unlink(spool.name)
    registry.record_artifact(store, ECOSYSTEM, name, version, tarball.rsplit("/", 1)[-1], tarball, size,
                             response.digests["sha256"], response.digests["sha512"],
                             checked or f"shasum {shasum}", str(target))
    mismatches = _manifest_differences(target, packument["versions"][version], f"{name}@{version}")
    for difference in mismatches:  # published code that does not match its metadata is worth surfacing
        registry.record_flag(store, f"{url}/{quote(version)}", ECOSYSTEM, "manifest-mismatch", f"{name}@{version}",
                             difference)
    return {"name": name, "version": version, "requested": resolution.requested, "how": resolution.how,
            "tarball": tarball, "verified": checked or f"sha1 {shasum}", "sha256": response.digests["sha256"],
            "sha512": response.digests["sha512"],
            "path": str(target), "files": report.files, "manifest_differences": mismatches}


def _manifest_differences(target: Path, registry_manifest: dict[str, Any], where: str) -> list[str]:
    """The inert manifests in the tarball's package.json against the registry's: each difference."""
    path = target / "package.json"
    try:
        inside = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return ["the tarball has no readable package.json"]
    ours = npm_meta.capability_exports(registry_manifest, where)
    theirs = npm_meta.capability_exports(inside if isinstance(inside, dict) else {}, f"{where} (tarball)")
    a = {d["id"]: canonical_json(d) for d in ours.descriptors}
    b = {d["id"]: canonical_json(d) for d in theirs.descriptors}
    out = [f"{key}: only in the registry's package.json" for key in sorted(a.keys() - b.keys())]
    out += [f"{key}: only in the tarball's package.json" for key in sorted(b.keys() - a.keys())]
    out += [f"{key}: the inert manifests differ" for key in sorted(a.keys() & b.keys()) if a[key] != b[key]]
    return out
