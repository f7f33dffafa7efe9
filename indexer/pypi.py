"""The PyPI crawler: exact releases from the JSON API into the store, and verified files.

`NAME` resolves to the latest release that is not yanked, `NAME==VERSION` to that release; both
the request and the resolution are recorded. A file is verified against the sha256 the API gave
before anything reads it; entry points and console scripts are read from the wheel's metadata or
the sdist's pyproject.toml / setup.cfg as text. No package code is imported or run, setup.py
included.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urljoin, urlsplit

from index import registry
from index.store import Store
from schemas.errors import CapindexError

from . import pypi_meta
from .fetching import FetchFailure
from .npm import get_json

DEFAULT_INDEX = "https://pypi.org"
ECOSYSTEM = "pypi"


class PypiFailure(CapindexError, RuntimeError):
    """One PyPI request failed; the message says which and why, in one line."""


@dataclass
class PypiOutcome:
    requested: str
    name: str
    version: str | None = None
    how: str | None = None
    files: int = 0
    notes: list[str] = field(default_factory=list)
    error: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def parse_spec(spec: str) -> tuple[str, str | None]:
    """`NAME` or `NAME==VERSION` (also `pypi:` in front) -> (normalised name, version or None)."""
    text = spec.strip().removeprefix("pypi:")
    name, sep, version = text.partition("==")
    name = name.strip()
    if not name or any(c in name for c in " /@<>=!~;"):
        raise PypiFailure(f"{spec!r}: expected NAME or NAME==VERSION")
    return pypi_meta.normalize_name(name), (version.strip() or None) if sep else None


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


async def _project(client: Any, index_url: str, name: str) -> tuple[dict[str, Any], str]:
    url = f"{index_url.rstrip('/')}/pypi/{quote(name)}/json"
    try:
        data, _ = await get_json(client, url, name)
    except CapindexError as exc:
        raise PypiFailure(str(exc)) from None
    return data, url


async def crawl_project(store: Store, client: Any, spec: str, index_url: str = DEFAULT_INDEX) -> PypiOutcome:
    outcome = PypiOutcome(requested=spec, name=spec)
    try:
        name, request = parse_spec(spec)
        outcome.name = name
        project, url = await _project(client, index_url, name)
        resolution = pypi_meta.resolve(project, request)
        record = pypi_meta.release_record(project, resolution.version)
        outcome.version, outcome.how, outcome.files, outcome.notes = (
            resolution.version, resolution.how, len(record["files"]), record["notes"])
        registry.record_release(store, ECOSYSTEM, name, resolution.version, record, url)
        registry.record_resolution(store, ECOSYSTEM, name, resolution.requested or "latest", resolution.version,
                                   resolution.how)
    except CapindexError as exc:
        outcome.error = str(exc)
    return outcome


def choose_file(record: dict[str, Any], index_url: str = DEFAULT_INDEX, json_url: str | None = None) -> dict[str, Any]:
    """The file to acquire: a universal wheel, else any wheel, else the sdist (never a refused one;
    a plain-http file is accepted only from the index's own origin, and a relative URL, as mirrors
    write them, is taken relative to the JSON document that gave it)."""
    origin = _origin(index_url)
    files = []
    for f in record["files"]:
        url = f["url"]
        if json_url and isinstance(url, str) and url and "://" not in url and not url.startswith("//"):
            resolved = urljoin(json_url, url)
            if resolved.startswith("https://") or _origin(resolved) == origin:
                f = {**f, "url": resolved, "refused": None if f["refused"] == "url is not an absolute https URL"
                     else f["refused"]}
        files.append(f)
    record = {**record, "files": files}

    def refused(f: dict[str, Any]) -> bool:
        if f["refused"] == "url is not an absolute https URL" and isinstance(f["url"], str):
            return not (f["url"].startswith("http://") and _origin(f["url"]) == origin)
        return bool(f["refused"])

    usable = [f for f in record["files"] if not refused(f) and not f["yanked"]] or \
        [f for f in record["files"] if not refused(f)]
    if not usable:
        raise PypiFailure(f"{record['normalized_name']}=={record['version']}: no file can be acquired "
                          "(none with an https URL and a sha256)")

    def rank(f: dict[str, Any]) -> tuple[int, str]:
        name = f["filename"]
        if f["packagetype"] == "bdist_wheel":
            return (0 if name.endswith("-none-any.whl") else 1, name)
        return (2 if f["packagetype"] == "sdist" else 3, name)

    return min(usable, key=rank)


async def fetch_project(store: Store, client: Any, spec: str, cache_dir: Path,
                        index_url: str = DEFAULT_INDEX) -> dict[str, Any]:
    """Download a release's file, verify its sha256 before reading it, unpack it safely into
    `cache_dir`, and read its entry points as text. PypiFailure (nothing kept) on a mismatch."""
    from .archives import unpack

    name, request = parse_spec(spec)
    project, url = await _project(client, index_url, name)
    resolution = pypi_meta.resolve(project, request)
    version = resolution.version
    record = pypi_meta.release_record(project, version)
    registry.record_release(store, ECOSYSTEM, name, version, record, url)
    registry.record_resolution(store, ECOSYSTEM, name, resolution.requested or "latest", version, resolution.how)
    chosen = choose_file(record, index_url, url)
    try:
        response = await client.get(chosen["url"], hash_with=("sha256", "sha512"))
    except FetchFailure as exc:
        raise PypiFailure(f"{name}=={version}: {chosen['filename']}: {exc}") from None
    assert response.body is not None
    with response.body as body:
        if response.digests["sha256"] != chosen["sha256"]:
            raise PypiFailure(f"{name}=={version}: {chosen['filename']}: sha256 mismatch: PyPI says "
                              f"{chosen['sha256']}, the download is {response.digests['sha256']}")
        target = cache_dir / "pypi" / name / version
        if target.exists():
            shutil.rmtree(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        suffix = "".join(Path(chosen["filename"]).suffixes[-2:])
        with tempfile.NamedTemporaryFile(dir=target.parent, suffix=suffix, delete=False) as spool:
            shutil.copyfileobj(body, spool)
        size = os.path.getsize(spool.name)
        try:
            pypi_meta.verify_sha256(spool.name, chosen["sha256"])  # the bytes on disk, too
            if chosen["packagetype"] == "bdist_wheel":
                entry_points = pypi_meta.entry_points_from_wheel(spool.name, filename=chosen["filename"])
            else:
                entry_points = pypi_meta.entry_points_from_sdist(spool.name, filename=chosen["filename"])
            # an sdist's files sit in its one top-level directory: the project's root is that, as a wheel's is its own
            report = unpack(spool.name, target, strip_prefix=f"{entry_points.top}/" if entry_points.top else None)
        finally:
            os.unlink(spool.name)
    registry.record_artifact(store, ECOSYSTEM, name, version, chosen["filename"], chosen["url"], size,
                             response.digests["sha256"], response.digests["sha512"], f"sha256:{chosen['sha256']}",
                             str(target))
    return {"name": name, "version": version, "requested": resolution.requested, "how": resolution.how,
            "file": chosen["filename"], "url": chosen["url"], "sha256": response.digests["sha256"],
            "path": str(target), "files": report.files, "entry_points": entry_points.as_dict()}
