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
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import IO, TYPE_CHECKING, Any

from schemas.ecma import parse_date_time, utc_now
from schemas.errors import DocumentError

from .sources import IngestResult, document_links, kind_problem, origin_of, source_url
from .store import Store

if TYPE_CHECKING:
    from .prepared import Judged, Prepared, PreparedDocument

# package_stream (the parser and the validation models) loads only when this process parses a
# document itself: a crawler whose worker prepares every document never needs it.
_READ = 1 << 20


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


def _copy_into_blob(fp: IO[bytes], blob: Any, digest: str | None, where: str) -> None:
    """Copy fp into the blob; with `digest`, check that the bytes still hash to it (a file on disk
    may change between the digest pass and this copy)."""
    hasher = hashlib.sha256() if digest else None
    with blob:
        while chunk := fp.read(_READ):
            if hasher:
                hasher.update(chunk)
            blob.write(chunk)
    fp.seek(0)
    if hasher and hasher.hexdigest() != digest:
        raise DocumentError(where, ["$: the document changed while it was being read"])


def ingest_bytes(store: Store, raw: bytes, location: str, **options: Any) -> IngestResult:
    """Ingest a document held in memory (see ingest_file)."""
    return ingest_file(store, io.BytesIO(raw), location, **options)


class _Rejected(Exception):
    """A valid document that must not be applied (its generatedAt goes back in time)."""


def ingest_file(
    store: Store,
    fp: IO[bytes],
    location: str,
    *,
    fetched_at: str | None = None,
    via: str | None = None,
    etag: str | None = None,
    last_modified: str | None = None,
    fresh_until: str | None = None,
    expect: str | None = None,
    accept_rollback: bool = False,
    then: Callable[[IngestResult], None] | None = None,
    prepared: PreparedDocument | None = None,
) -> IngestResult:
    """Validate and store one index or site document read from a seekable binary file.

    `expect` restricts the kind ("index" or "site"). Integrity over time: an index whose
    generatedAt is older than the one stored for the same URL is flagged and not applied, and a
    package name@version the same URL listed before with other content keeps its earlier
    content, flagged (published versions are immutable); `accept_rollback` applies them anyway.
    `prepared` is package_stream.prepare_document() of the same bytes (in memory, so they cannot
    change under us), when another process has already done that work and hashed them. `fresh_until` is when the server said this response goes stale (a re-crawl before then needs
    no request). `then(result)` runs inside the same transaction, so whatever it records commits with the
    document or not at all.
    """
    url = source_url(location)
    fetched_at = fetched_at or utc_now()
    db = store.conn
    judged: Judged | None = None
    if prepared is not None:  # everything is known before the first write
        digest, size, judged = prepared.digest, prepared.size, prepared.judged
        wrong_kind = kind_problem(judged.kind, expect)
        if wrong_kind:
            raise DocumentError(location, [wrong_kind])
    else:
        digest, size = _digest_and_size(fp)
    try:
        # a document judged before writing needs no savepoint of its own inside a commit group
        with _no_cyclic_gc(), store.write_transaction(savepoint=judged is None):
            src = db.execute(
                """SELECT id, content_digest, kind, current_document_id, etag, last_modified, fresh_until
                   FROM sources WHERE url = ?""",
                [url],
            ).fetchone()
            if src is not None and src[1] == digest:
                if (etag, last_modified, fresh_until) != src[4:7]:  # same bytes, new validators: keep them
                    db.execute("UPDATE sources SET etag = ?, last_modified = ?, fresh_until = ? WHERE id = ?",
                               [etag, last_modified, fresh_until, src[0]])
                result = IngestResult(url, src[2], "unchanged", src[3], links=document_links(store, src[3]))
                if then:
                    then(result)
                return result
            previous_generated_at = None
            if src is not None:
                row = db.execute("SELECT generated_at FROM documents WHERE id = ?", [src[3]]).fetchone()
                previous_generated_at = row[0] if row else None
            if judged is not None:
                _refuse_rollback(judged.generated_at, previous_generated_at, accept_rollback)
            if src is None:
                source_id = db.execute(
                    "INSERT INTO sources (url, origin, kind) VALUES (?, ?, 'index')", [url, origin_of(url)]
                ).lastrowid
            else:
                source_id = src[0]
            def write_body(document_id: int) -> None:
                db.execute("INSERT INTO document_bodies (document_id, raw) VALUES (?, zeroblob(?))", [document_id, size])
                _copy_into_blob(fp, db.blobopen("document_bodies", "raw", document_id),
                                None if prepared else digest, location)

            document_id = _document(db, source_id, "index", digest, size, fetched_at, via, write_body)
            writer = _PackageWriter(store, source_id, document_id, fetched_at, accept_rollback)
            if prepared is not None:
                writer.write_prepared(prepared)
            else:
                from .package_stream import judge, prepared_events

                members, problems = writer.consume(prepared_events(fp, location, size))
                judged = judge(members, problems, location, expect)
                _refuse_rollback(judged.generated_at, previous_generated_at, accept_rollback)
            assert judged is not None
            kind, links = judged.kind, judged.links
            db.execute("UPDATE documents SET kind = ?, generated_at = ? WHERE id = ?",
                       [kind, judged.generated_at, document_id])
            db.executemany(
                "INSERT INTO document_links (document_id, position, url) VALUES (?, ?, ?)",
                [(document_id, i, link) for i, link in enumerate(links)],
            )
            writer.finish()
            if writer.flags and not accept_rollback:
                # parts were refused: forget the validators and digest, so the next crawl fetches and
                # judges this document again (and --accept-rollback can then apply it)
                status, error, seen = "flagged", "; ".join(writer.flags[:3]), None
                etag = last_modified = fresh_until = None
            else:
                status, error, seen = "ok", None, digest
            db.execute(
                """UPDATE sources SET kind = ?, last_status = ?, last_error = ?, etag = ?, last_modified = ?,
                   content_digest = ?, fetched_at = ?, current_document_id = ?, fresh_until = ? WHERE id = ?""",
                [kind, status, error, etag, last_modified, seen, fetched_at, document_id, fresh_until, source_id],
            )
            result = writer.result(url, kind, document_id, links)
            if then:
                then(result)
            return result
    except _Rejected as rejected:
        return _reject(store, url, str(rejected), fetched_at, then)


def _document(db: Any, source_id: int, kind: str, digest: str, size: int, fetched_at: str, via: str | None,
              write_body: Callable[[int], Any]) -> int:
    """The document row for these bytes of this source: the one stored when the source served them
    before (its links are written again), else a new row whose body `write_body(id)` stores."""
    row = db.execute("SELECT id FROM documents WHERE source_id = ? AND digest = ?", [source_id, digest]).fetchone()
    if row is not None:
        db.execute("DELETE FROM document_links WHERE document_id = ?", [row[0]])
        return row[0]
    document_id = db.execute(
        "INSERT INTO documents (source_id, kind, digest, size, fetched_at, via) VALUES (?, ?, ?, ?, ?, ?)",
        [source_id, kind, digest, size, fetched_at, via],
    ).lastrowid
    write_body(document_id)
    return document_id


def _refuse_rollback(generated_at: str | None, previous: str | None, accept_rollback: bool) -> None:
    if generated_at and previous and not accept_rollback and parse_date_time(generated_at) < parse_date_time(previous):
        raise _Rejected(f"generatedAt {generated_at} is older than the stored {previous}")


def _reject(store: Store, url: str, reason: str, now: str, then: Callable[[IngestResult], None] | None) -> IngestResult:
    """Record why a document was not applied; the source keeps serving its earlier state."""
    db = store.conn
    with store.write_transaction():
        source_id, kind, document_id = db.execute(
            "SELECT id, kind, current_document_id FROM sources WHERE url = ?", [url]
        ).fetchone()
        db.execute(
            "INSERT OR IGNORE INTO flags (source_id, kind, subject, detail, detected_at) VALUES (?, 'rollback', ?, ?, ?)",
            [source_id, url, reason, now],
        )
        db.execute("UPDATE sources SET last_status = 'rejected', last_error = ? WHERE id = ?", [f"rollback: {reason}", source_id])
        result = IngestResult(url, kind, "rejected", document_id, links=document_links(store, document_id),
                              flags=[f"rollback: {reason}"])
        if then:
            then(result)
    return result


class _PackageWriter:
    """Writes prepared package batches inside the caller's transaction.

    Per batch: one lookup of the batch's known name@versions, one executemany per table, and
    package ids assigned here (the transaction holds the write lock).
    """

    def __init__(self, store: Store, source_id: int, document_id: int, now: str, accept_changes: bool):
        self.store = store
        self.conn = store.conn
        self.source_id = source_id
        self.document_id = document_id
        self.now = now
        self.accept_changes = accept_changes
        self._reset()

    def _reset(self) -> None:
        self.count = 0
        self.new_packages = 0
        self.new_capabilities = 0
        self.conflicts: list[str] = []
        self.flags: list[str] = []
        self.sightings: list[tuple[int, int, int]] = []
        self.next_package_id = self.conn.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM packages").fetchone()[0]

    def write_prepared(self, prepared: PreparedDocument) -> None:
        """Write a document prepared ahead (repeated "packages" keys already resolved)."""
        for batch in prepared.batches:
            self._write(batch)
        self.count = prepared.count

    def consume(self, events: Iterable[tuple[str, Any]]) -> tuple[dict[str, Any], list[str]]:
        """Write every batch as it is parsed; returns the document's other members and the packages' problems."""
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

    def _known(self, keys: list[tuple[str, str]]) -> dict[tuple[str, str], list[tuple[int, str, bool]]]:
        """For each name@version: every stored (id, digest, listed by this source now), oldest first."""
        known: dict[tuple[str, str], list[tuple[int, str, bool]]] = {}
        for start in range(0, len(keys), 400):  # 2 parameters each, under SQLite's 999
            part = keys[start:start + 400]
            values = ",".join("(?, ?)" for _ in part)
            rows = self.conn.execute(
                f"""SELECT p.name, p.version, p.id, p.digest,
                           EXISTS (SELECT 1 FROM package_sightings s WHERE s.source_id = ? AND s.package_id = p.id)
                    FROM (VALUES {values}) AS k
                    JOIN packages p ON p.name = k.column1 AND p.version = k.column2 ORDER BY p.id""",
                [self.source_id, *(v for key in part for v in key)],
            )
            for name, version, pid, digest, listed_here in rows:
                known.setdefault((name, version), []).append((pid, digest, bool(listed_here)))
        return known

    def _write(self, batch: list[Prepared]) -> None:
        known = self._known(list({item[0] for item in batch}))
        packages, capabilities, conflicts, flags = [], [], [], []
        for key, digest, entry, source, repository, integrity, caps in batch:
            versions = known.setdefault(key, [])
            package_id = next((pid for pid, d, _ in versions if d == digest), None)
            if package_id is None:
                earlier = next((pid for pid, _, here in versions if here), None)
                if earlier is not None:  # this URL listed name@version with other content before
                    change = f"{key[0]}@{key[1]} changed content since an earlier crawl"
                    flags.append((self.source_id, "immutable", f"{key[0]}@{key[1]}", digest, self.now))
                    self.flags.append(change)
                    if not self.accept_changes:  # keep the earlier state
                        self.sightings.append((earlier, self.source_id, self.document_id))
                        continue
                package_id = self.next_package_id
                self.next_package_id += 1
                packages.append((package_id, *key, source, repository, integrity, digest, entry, self.document_id))
                capabilities += [(package_id, *cap) for cap in caps]
                if versions:
                    conflicts.append((*key, versions[0][0], package_id, self.document_id, self.now))
                    self.conflicts.append(f"{key[0]}@{key[1]}")
                versions.append((package_id, digest, True))
            self.sightings.append((package_id, self.source_id, self.document_id))
        self.conn.executemany(
            "INSERT OR IGNORE INTO flags (source_id, kind, subject, detail, detected_at) VALUES (?, ?, ?, ?, ?)", flags
        )
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
        if self.store.search_index_from is None:  # else the commit group indexes them all at once
            # index for search now, batch by batch: this overlaps with the parsing helper's work
            self.store.index_for_search(first)
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

    def result(self, url: str, kind: str, document_id: int, links: list[str]) -> IngestResult:
        return IngestResult(url, kind, "stored", document_id, self.count, self.new_packages, self.new_capabilities,
                            self.conflicts, self.flags, links)


def write_package_document(store: Store, url: str, kind: str, raw: bytes, entry: dict[str, Any], fetched_at: str,
                           origin: str) -> IngestResult:
    """Store one package a registry declares (see registry.store_native_package), in one transaction:
    `raw` becomes the source's current document (kind `kind`), `entry` its only package."""
    from schemas.documents import package_problems

    from .package_stream import prepare_package

    problems = package_problems(0, entry)
    if problems:
        raise DocumentError(url, [p.replace("$.packages[0]", "$", 1) for p in problems])
    prepared = prepare_package(entry)
    digest = hashlib.sha256(raw).hexdigest()
    db = store.conn
    with store.write_transaction():
        src = db.execute("SELECT id, content_digest, current_document_id FROM sources WHERE url = ?", [url]).fetchone()
        if src is not None and src[1] == digest:
            return IngestResult(url, kind, "unchanged", src[2])
        if src is None:
            source_id = db.execute("INSERT INTO sources (url, origin, kind) VALUES (?, ?, ?)", [url, origin, kind]).lastrowid
        else:
            source_id = src[0]
        document_id = _document(db, source_id, kind, digest, len(raw), fetched_at, None, lambda document: db.execute(
            "INSERT INTO document_bodies (document_id, raw) VALUES (?, ?)", [document, raw]))
        writer = _PackageWriter(store, source_id, document_id, fetched_at, accept_changes=False)
        writer._write([prepared])
        writer.count = 1
        writer.finish()
        status, error, seen = ("flagged", "; ".join(writer.flags[:3]), None) if writer.flags else ("ok", None, digest)
        db.execute(
            """UPDATE sources SET kind = ?, last_status = ?, last_error = ?, content_digest = ?, fetched_at = ?,
               current_document_id = ? WHERE id = ?""",
            [kind, status, error, seen, fetched_at, document_id, source_id],
        )
        return writer.result(url, kind, document_id, [])
