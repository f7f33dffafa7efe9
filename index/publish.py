"""Publish the store as a static Capability index plus its /.well-known site documents.

The output is a pure function of the store and the options: packages in a fixed order,
canonical JSON for each entry, and a generatedAt that comes from the data, never the clock.
Past `shard_size` packages the root index federates to shard files, each written as a
stream, so no giant document is ever held in memory.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from schemas.documents import validate
from schemas.ecma import is_date_time, iso_utc, parse_date_time
from schemas.errors import CapindexError
from schemas.models import http_url_problem

from .canonical import canonical_json, sha256_hex
from .store import Store

DEFAULT_SHARD_SIZE = 5000
EPOCH = "1970-01-01T00:00:00.000Z"
SHARD_DIR = "shards"
BINDINGS_DIR = "bindings"

# The first-recorded content of each listed name@version: a conflicting later content never wins.
_PUBLISHED_PACKAGES = """
    SELECT p.id, p.entry FROM packages p
    WHERE p.id IN (
        SELECT MIN(p2.id) FROM packages p2
        WHERE EXISTS (SELECT 1 FROM package_sightings s WHERE s.package_id = p2.id)
        GROUP BY p2.name, p2.version)
    ORDER BY p.name, p.version
"""


class PublishError(CapindexError, ValueError):
    pass


@dataclass
class PublishResult:
    outdir: str
    index_url: str
    generated_at: str
    packages: int
    capabilities: int
    files: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def default_generated_at(store: Store) -> str:
    """The newest generatedAt among the documents sources currently serve; the epoch for an empty store."""
    rows = store.conn.execute(
        """SELECT d.generated_at FROM sources s JOIN documents d ON d.id = s.current_document_id
           WHERE d.generated_at IS NOT NULL"""
    ).fetchall()
    if not rows:
        return EPOCH
    return iso_utc(max(parse_date_time(r[0]) for r in rows))


def _check_base_url(base_url: str) -> str:
    problem = http_url_problem(base_url)
    if not problem and ("?" in base_url or "#" in base_url):
        problem = "has a query or fragment, so file URLs cannot be appended to it"
    if problem:
        raise PublishError(f"--base-url {base_url!r}: {problem}")
    return base_url.rstrip("/")


def _header(generated_at: str, federates: list[str], metadata: dict[str, str]) -> str:
    head: dict[str, Any] = {"indexVersion": "0.1", "generatedAt": generated_at}
    if metadata:
        head["metadata"] = dict(sorted(metadata.items()))
    head["federates"] = federates
    validate("index", {**head, "packages": []}, "the published index")  # the entries were checked at ingest
    text = json.dumps(head, ensure_ascii=False, separators=(",", ":"))
    return text[:-1] + ',"packages":['


class _AtomicFiles:
    """Write files beside their final names and move them into place only when all are complete."""

    def __init__(self, outdir: Path):
        self.outdir = outdir
        self.pending: list[tuple[Path, Path]] = []

    def open(self, relative: str):
        final = self.outdir / relative
        # checked before anything moves, so the commit's renames cannot fail half-way on a bad target
        if final.exists() and not final.is_file():
            raise PublishError(f"{final}: exists and is not a regular file")
        if final.parent.exists() and not final.parent.is_dir():
            raise PublishError(f"{final.parent}: exists and is not a directory")
        final.parent.mkdir(parents=True, exist_ok=True)
        tmp = final.with_name(f".{final.name}.capindex-tmp")
        self.pending.append((tmp, final))
        return open(tmp, "w", encoding="utf-8", newline="\n")

    def commit(self) -> None:
        for tmp, final in self.pending:
            os.replace(tmp, final)

    def abort(self) -> None:
        for tmp, _ in self.pending:
            tmp.unlink(missing_ok=True)


def _entries(store: Store) -> Iterator[str]:
    for _, entry in store.conn.execute(_PUBLISHED_PACKAGES):
        yield entry


def publish(
    store: Store,
    outdir: str | Path,
    base_url: str,
    *,
    shard_size: int = DEFAULT_SHARD_SIZE,
    generated_at: str | None = None,
    metadata: dict[str, str] | None = None,
) -> PublishResult:
    base = _check_base_url(base_url)
    if shard_size < 1:
        raise PublishError(f"--shard-size {shard_size}: must be at least 1")
    if generated_at is None:
        generated_at = default_generated_at(store)
    else:
        if not is_date_time(generated_at):
            raise PublishError(f"--generated-at {generated_at!r}: not an RFC 3339 date-time")
        generated_at = iso_utc(parse_date_time(generated_at))
    metadata = metadata or {}
    out = Path(outdir)
    if out.exists() and not out.is_dir():
        raise PublishError(f"{out}: exists and is not a directory")
    out.mkdir(parents=True, exist_ok=True)

    files = _AtomicFiles(out)
    total, capabilities = store.conn.execute(
        f"""SELECT COUNT(*), (SELECT COUNT(*) FROM capabilities WHERE package_id IN (SELECT id FROM ({_PUBLISHED_PACKAGES})))
            FROM ({_PUBLISHED_PACKAGES})"""
    ).fetchone()
    try:
        if total <= shard_size:
            shard_names: list[str] = []
            with files.open("index.json") as fh:
                _write_index(fh, generated_at, [], metadata, _entries(store))
        else:
            count = (total + shard_size - 1) // shard_size
            shard_names = [f"{SHARD_DIR}/index-{i:05d}.json" for i in range(1, count + 1)]
            entries = _entries(store)
            for name in shard_names:
                with files.open(name) as fh:
                    _write_index(fh, generated_at, [], {}, _take(entries, shard_size))
            with files.open("index.json") as fh:
                _write_index(fh, generated_at, [f"{base}/{n}" for n in shard_names], metadata, iter(()))
        site = {"capabilityDiscoveryVersion": "0.1", "indexes": [f"{base}/index.json"]}
        validate("site", site, "the published site document")
        site_text = json.dumps(site, indent=2, ensure_ascii=False) + "\n"
        for name in (".well-known/capabilities", ".well-known/capabilities.json"):
            with files.open(name) as fh:
                fh.write(site_text)
        binding_names = _write_bindings(store, files)
        from .gaps import GAPS_DIR, publish_gaps

        gap_names = publish_gaps(store, files, generated_at)
    except BaseException:
        files.abort()
        raise
    files.commit()
    _remove_stale_shards(out, set(shard_names))
    _remove_stale(out / BINDINGS_DIR, set(binding_names))
    _remove_stale(out / GAPS_DIR, set(gap_names))
    return PublishResult(
        outdir=str(out),
        index_url=f"{base}/index.json",
        generated_at=generated_at,
        packages=total,
        capabilities=capabilities,
        files=sorted(str(final.relative_to(out)) for _, final in files.pending),
    )


def _write_bindings(store: Store, files: _AtomicFiles) -> list[str]:
    """Every stored binding, checked again by the binder registry's rules before it is published:
    `bindings/<digest prefix>.json` each, and `bindings/index.json` listing them."""
    from binders.registry import check_binding

    from . import registry

    names, listing = [], []
    for binding in registry.bindings(store):
        check_binding(binding)
        text = canonical_json(binding)
        name = f"{BINDINGS_DIR}/{sha256_hex(text)[:16]}.json"
        with files.open(name) as fh:
            fh.write(json.dumps(binding, indent=2, ensure_ascii=False, sort_keys=True) + "\n")
        names.append(name)
        listing.append({"file": name.split("/", 1)[1], "locator": binding["locator"],
                        "immutableArtifact": binding["immutableArtifact"], "substrate": binding["substrate"]})
    if listing:
        with files.open(f"{BINDINGS_DIR}/index.json") as fh:
            fh.write(json.dumps({"bindings": listing}, indent=2, ensure_ascii=False) + "\n")
        names.append(f"{BINDINGS_DIR}/index.json")
    return names


def _remove_stale(directory: Path, keep: set[str]) -> None:
    """Files a previous publication wrote under `directory` that this one did not."""
    if not directory.is_dir():
        return
    for path in directory.iterdir():
        if path.is_file() and f"{directory.name}/{path.name}" not in keep:
            path.unlink()


def _take(entries: Iterator[str], n: int) -> Iterator[str]:
    for _ in range(n):
        entry = next(entries, None)
        if entry is None:
            return
        yield entry


def _write_index(fh, generated_at: str, federates: list[str], metadata: dict[str, str], entries) -> None:
    fh.write(_header(generated_at, federates, metadata))
    first = True
    for entry in entries:
        fh.write("\n" if first else ",\n")
        fh.write(entry)
        first = False
    fh.write("]}\n" if first else "\n]}\n")


def _remove_stale_shards(out: Path, keep: set[str]) -> None:
    shard_dir = out / SHARD_DIR
    if not shard_dir.is_dir():
        return
    for path in shard_dir.glob("index-*.json"):
        if f"{SHARD_DIR}/{path.name}" not in keep:
            path.unlink()
