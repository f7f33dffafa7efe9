"""Ingest one capability document into the store, in one transaction.

An invalid document writes nothing. An identical re-ingest writes nothing. A package
name@version whose content differs from what the store already holds is stored beside
it and recorded as a conflict with both provenances; nothing is ever replaced.

Documents are read as streams: the raw bytes go to the store in chunks, and an index's
packages are validated and written one at a time, so memory does not grow with the
document.
"""

from __future__ import annotations

import gc
import hashlib
import io
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlsplit

from schemas.documents import DocumentError, detect_kind, validate
from schemas.ecma import parse_date_time

from .package_stream import Prepared, prepared_events
from .store import Store, iso_utc, utc_now

INGESTIBLE = ("index", "site")
_READ = 1 << 20


@dataclass
class IngestResult:
    url: str
    kind: str
    status: str  # "stored" or "unchanged"
    document_id: int | None
    packages: int = 0
    new_packages: int = 0
    new_capabilities: int = 0
    conflicts: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def source_url(location: str) -> str:
    """The identity of a source: http(s) URLs as given, local files as absolute file:// URIs."""
    if urlsplit(location).scheme in ("http", "https", "file"):
        return location
    return Path(location).resolve().as_uri()


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme in ("http", "https"):
        return f"{parts.scheme}://{parts.netloc.lower()}"
    return f"{parts.scheme}://"


@contextmanager
def _no_cyclic_gc() -> Iterator[None]:
    # Parsed JSON holds no reference cycles; the collector would only rescan live objects.
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _digest_and_size(fp: IO[bytes]) -> tuple[str, int]:
    hasher = hashlib.sha256()
    size = 0
    while chunk := fp.read(_READ):
        hasher.update(chunk)
        size += len(chunk)
    fp.seek(0)
    return hasher.hexdigest(), size


def _copy_into_blob(fp: IO[bytes], blob: Any, digest: str, where: str) -> None:
    hasher = hashlib.sha256()
    with blob:
        while chunk := fp.read(_READ):
            hasher.update(chunk)
            blob.write(chunk)
    fp.seek(0)
    if hasher.hexdigest() != digest:
        raise DocumentError(where, ["$: the document changed while it was being read"])


def ingest_bytes(store: Store, raw: bytes, location: str, **options: Any) -> IngestResult:
    """Ingest a document held in memory (see ingest_file)."""
    return ingest_file(store, io.BytesIO(raw), location, **options)


def ingest_file(
    store: Store,
    fp: IO[bytes],
    location: str,
    *,
    fetched_at: str | None = None,
    via: str | None = None,
    etag: str | None = None,
    last_modified: str | None = None,
) -> IngestResult:
    """Validate and store one index or site document read from a seekable binary file."""
    url = source_url(location)
    digest, size = _digest_and_size(fp)
    fetched_at = fetched_at or utc_now()
    db = store.db
    with _no_cyclic_gc(), store.write_transaction():
        src = db.execute("SELECT id, content_digest, kind FROM sources WHERE url = ?", [url]).fetchone()
        if src is not None and src[1] == digest:
            return IngestResult(url, src[2], "unchanged", None)
        if src is None:
            source_id = db.execute(
                "INSERT INTO sources (url, origin, kind) VALUES (?, ?, 'index')", [url, origin_of(url)]
            ).lastrowid
        else:
            source_id = src[0]
        row = db.execute("SELECT id FROM documents WHERE source_id = ? AND digest = ?", [source_id, digest]).fetchone()
        if row is not None:  # the source went back to content it served before: the bytes are stored already
            document_id = row[0]
        else:
            document_id = db.execute(
                """INSERT INTO documents (source_id, kind, digest, size, fetched_at, via)
                   VALUES (?, 'index', ?, ?, ?, ?)""",
                [source_id, digest, size, fetched_at, via],
            ).lastrowid
            db.execute("INSERT INTO document_bodies (document_id, raw) VALUES (?, zeroblob(?))", [document_id, size])
            _copy_into_blob(fp, db.conn.blobopen("document_bodies", "raw", document_id), digest, location)
        writer = _PackageWriter(store, source_id, document_id, fetched_at)
        header, problems = writer.consume(prepared_events(fp, location, size))
        kind = detect_kind(header)
        if kind not in INGESTIBLE:
            what = f"a {kind} document" if kind else "not a capability document"
            raise DocumentError(location, [f"$: only index and site documents can be ingested ({what})"])
        if kind == "index" and problems:
            raise DocumentError(location, problems)
        model = validate(kind, header, location)
        generated_at = iso_utc(parse_date_time(model.generatedAt)) if kind == "index" else None
        db.execute("UPDATE documents SET kind = ?, generated_at = ? WHERE id = ?", [kind, generated_at, document_id])
        writer.finish()
        db.execute(
            """UPDATE sources SET kind = ?, last_status = 'ok', last_error = NULL, etag = ?, last_modified = ?,
               content_digest = ?, fetched_at = ?, current_document_id = ? WHERE id = ?""",
            [kind, etag, last_modified, digest, fetched_at, document_id, source_id],
        )
    return writer.result(url, kind, document_id)


class _PackageWriter:
    """Writes prepared package batches inside the caller's transaction.

    Per batch: one lookup of the batch's known name@versions, one executemany per table, and
    package ids assigned here (the transaction holds the write lock).
    """

    def __init__(self, store: Store, source_id: int, document_id: int, now: str):
        self.conn = store.db.conn
        self.source_id = source_id
        self.document_id = document_id
        self.now = now
        self._reset()

    def _reset(self) -> None:
        self.count = 0
        self.new_packages = 0
        self.new_capabilities = 0
        self.conflicts: list[str] = []
        self.sightings: list[tuple[int, int, int]] = []
        self.next_package_id = self.conn.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM packages").fetchone()[0]

    def consume(self, events: Iterator[tuple[str, Any]]) -> tuple[dict[str, Any], list[str]]:
        """Write every batch; returns the document's other members and the packages' problems."""
        self.conn.execute("SAVEPOINT packages")
        for event, value in events:
            if event == "batch":
                self._write(value)
            elif event == "restart":  # "packages" appeared again: JSON keeps the last one
                self.conn.execute("ROLLBACK TO SAVEPOINT packages")
                self._reset()
            else:
                self.conn.execute("RELEASE SAVEPOINT packages")
                members, self.count, problems = value
                return members, problems
        raise AssertionError("stream ended without the object")

    def _known(self, keys: list[tuple[str, str]]) -> dict[tuple[str, str], list[tuple[int, str]]]:
        known: dict[tuple[str, str], list[tuple[int, str]]] = {}
        for start in range(0, len(keys), 400):  # 2 parameters each, under SQLite's 999
            part = keys[start:start + 400]
            values = ",".join("(?, ?)" for _ in part)
            rows = self.conn.execute(
                f"""SELECT p.name, p.version, p.id, p.digest FROM (VALUES {values}) AS k
                    JOIN packages p ON p.name = k.column1 AND p.version = k.column2 ORDER BY p.id""",
                [v for key in part for v in key],
            )
            for name, version, pid, digest in rows:
                known.setdefault((name, version), []).append((pid, digest))
        return known

    def _write(self, batch: list[Prepared]) -> None:
        known = self._known(list({item[0] for item in batch}))
        packages, capabilities, conflicts = [], [], []
        for key, digest, entry, source, repository, integrity, caps in batch:
            versions = known.setdefault(key, [])
            package_id = next((pid for pid, d in versions if d == digest), None)
            if package_id is None:
                package_id = self.next_package_id
                self.next_package_id += 1
                packages.append((package_id, *key, source, repository, integrity, digest, entry, self.document_id))
                capabilities += [(package_id, *cap) for cap in caps]
                if versions:
                    conflicts.append((*key, versions[0][0], package_id, self.document_id, self.now))
                    self.conflicts.append(f"{key[0]}@{key[1]}")
                versions.append((package_id, digest))
            self.sightings.append((package_id, self.source_id, self.document_id))
        self.conn.executemany(
            """INSERT INTO packages (id, name, version, source, repository, integrity, digest, entry, first_document_id)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            packages,
        )
        first = self.conn.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM capabilities").fetchone()[0]
        self.conn.executemany(
            """INSERT INTO capabilities (package_id, position, cap_id, version, name, description, tags, effects,
               module, integrity) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            capabilities,
        )
        # index for search now, batch by batch: this overlaps with the parsing helper's work
        self.conn.execute(
            """INSERT INTO capabilities_fts (rowid, cap_id, name, description, tags)
               SELECT id, cap_id, name, description, tags FROM capabilities WHERE id >= ?""",
            [first],
        )
        self.conn.executemany(
            """INSERT OR IGNORE INTO conflicts (name, version, package_id, other_package_id, other_document_id, detected_at)
               VALUES (?, ?, ?, ?, ?, ?)""",
            conflicts,
        )
        self.new_packages += len(packages)
        self.new_capabilities += len(capabilities)

    def finish(self) -> None:
        """Replace this source's listing with this document's packages."""
        conn = self.conn
        conn.execute("DELETE FROM package_sightings WHERE source_id = ?", [self.source_id])
        conn.executemany(
            "INSERT OR IGNORE INTO package_sightings (package_id, source_id, document_id) VALUES (?, ?, ?)",
            self.sightings,
        )

    def result(self, url: str, kind: str, document_id: int) -> IngestResult:
        return IngestResult(url, kind, "stored", document_id, self.count, self.new_packages, self.new_capabilities,
                            self.conflicts)
