"""What the registry crawlers (npm, PyPI, GitHub) and the binders store.

Each function writes in one transaction (or joins the caller's). Registry metadata is evidence,
never trust: a release's record is kept as the registry served it (canonical JSON), a request
(a tag, a range, a branch) is kept beside the exact release it resolved to, search results are
candidates, and a binding is stored only after it validates.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from schemas.ecma import utc_now

from .canonical import canonical_json, sha256_hex
from .search_text import candidate_text, index_candidates, unindex_candidates
from .sources import IngestResult, origin_of

if TYPE_CHECKING:
    from .store import Store


def record_release(store: Store, ecosystem: str, name: str, version: str, record: dict[str, Any],
                   source_url: str, fetched_at: str | None = None) -> int:
    """Store what a registry said of one exact release; an identical record is stored once."""
    text = canonical_json(record)
    digest = sha256_hex(text)
    with store.write_transaction():
        store.conn.execute(
            """INSERT OR IGNORE INTO registry_releases (ecosystem, name, version, record, digest, source_url, fetched_at)
               VALUES (?, ?, ?, ?, ?, ?, ?)""",
            [ecosystem, name, version, text, digest, source_url, fetched_at or utc_now()],
        )
        return store.conn.execute(
            "SELECT id FROM registry_releases WHERE ecosystem = ? AND name = ? AND version = ? AND digest = ?",
            [ecosystem, name, version, digest],
        ).fetchone()[0]


def record_resolution(store: Store, ecosystem: str, name: str, requested: str, version: str, how: str) -> None:
    with store.write_transaction():
        store.conn.execute(
            """INSERT INTO registry_resolutions (ecosystem, name, requested, version, how, resolved_at)
               VALUES (?, ?, ?, ?, ?, ?)""",
            [ecosystem, name, requested, version, how, utc_now()],
        )


def release(store: Store, ecosystem: str, name: str, version: str) -> dict[str, Any] | None:
    """The first record stored for an exact release, or None."""
    row = store.conn.execute(
        "SELECT record FROM registry_releases WHERE ecosystem = ? AND name = ? AND version = ? ORDER BY id LIMIT 1",
        [ecosystem, name, version],
    ).fetchone()
    return json.loads(row[0]) if row else None


def record_candidate(store: Store, ecosystem: str, name: str, version: str | None, kind: str, key: str,
                     record: dict[str, Any]) -> None:
    """A candidate (never executable): the latest record for its (ecosystem, name, kind, key), and
    its row in the search index (index/search_text.py), in the same transaction."""
    record_candidates(store, ecosystem, name, version, [(kind, key, record)])


def record_candidates(store: Store, ecosystem: str, name: str, version: str | None,
                      items: Iterable[tuple[str, str, dict[str, Any]]]) -> int:
    """Many candidates of one package, (kind, key, record) each, all in one transaction: a mined
    report is stored whole or not at all, and one commit costs far less than one per candidate.
    A key given twice is stored (and indexed for search) as last given."""
    found_at = utc_now()
    given: dict[tuple[str, str], dict[str, Any]] = {}
    count = 0
    for kind, key, record in items:
        given[kind, key] = record  # a key given again keeps its first place (and so its id) and takes the last record
        count += 1
    rows = [(ecosystem, name, version, kind, key, canonical_json(record), found_at)
            for (kind, key), record in given.items()]
    with store.write_transaction():
        conn = store.conn
        package = [ecosystem, name]
        # search rows are rewritten only for candidates stored before (a re-mine)
        known = {row[0] for row in conn.execute("SELECT id FROM candidates WHERE ecosystem = ? AND name = ?", package)}
        conn.executemany(  # one statement for all: a Python round trip per row cost as much as SQLite's work
            """INSERT INTO candidates (ecosystem, name, version, kind, key, record, found_at)
               VALUES (?, ?, ?, ?, ?, ?, ?)
               ON CONFLICT (ecosystem, name, kind, key) DO UPDATE SET
                 version = excluded.version, record = excluded.record, found_at = excluded.found_at""", rows)
        ids = {(kind, key): i for i, kind, key in
               conn.execute("SELECT id, kind, key FROM candidates WHERE ecosystem = ? AND name = ?", package)}
        search_rows = [(ids[pair], *candidate_text(ecosystem, name, pair[0], record)) for pair, record in given.items()]
        unindex_candidates(conn, [row[0] for row in search_rows if row[0] in known])
        index_candidates(conn, search_rows)
    return count


def candidates(store: Store, ecosystem: str | None = None) -> list[dict[str, Any]]:
    rows = store.conn.execute(
        """SELECT ecosystem, name, version, kind, key, record FROM candidates
           WHERE ? IS NULL OR ecosystem = ? ORDER BY ecosystem, name, kind, key""",
        [ecosystem, ecosystem],
    )
    return [{"ecosystem": e, "name": n, "version": v, "kind": k, "key": key, "record": json.loads(r)}
            for e, n, v, k, key, r in rows]


def record_flag(store: Store, url: str, source_kind: str, kind: str, subject: str, detail: str) -> None:
    """Something the registry's metadata and the observed artifact disagree on, kept as a flag of
    the release's source (created if the store has not met it yet)."""
    with store.write_transaction():
        store.conn.execute("INSERT OR IGNORE INTO sources (url, origin, kind) VALUES (?, ?, ?)",
                           [url, origin_of(url), source_kind])
        source_id = store.conn.execute("SELECT id FROM sources WHERE url = ?", [url]).fetchone()[0]
        store.conn.execute(
            "INSERT OR IGNORE INTO flags (source_id, kind, subject, detail, detected_at) VALUES (?, ?, ?, ?, ?)",
            [source_id, kind, subject, detail, utc_now()],
        )


def record_artifact(store: Store, ecosystem: str, name: str, version: str, filename: str, url: str, size: int,
                    sha256: str, sha512: str, verified_against: str, path: str | None) -> None:
    with store.write_transaction():
        store.conn.execute(
            """INSERT INTO artifacts (ecosystem, name, version, filename, url, size, sha256, sha512, verified_against,
                                      path, verified_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
               ON CONFLICT (ecosystem, name, version, filename, sha256) DO UPDATE SET
                 path = excluded.path, verified_at = excluded.verified_at""",
            [ecosystem, name, version, filename, url, size, sha256, sha512, verified_against, path, utc_now()],
        )


def store_binding(store: Store, binding: dict[str, Any], candidate: str | None = None) -> int:
    """Store a binding the caller has validated; an identical binding is stored once."""
    text = canonical_json(binding)
    digest = sha256_hex(text)
    with store.write_transaction():
        store.conn.execute(
            """INSERT OR IGNORE INTO bindings (binder_id, substrate, locator, immutable_artifact, candidate, binding,
                                               digest, created_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
            [binding["binderId"], binding["substrate"], binding["locator"], binding["immutableArtifact"], candidate,
             text, digest, binding["createdAt"]],
        )
        return store.conn.execute("SELECT id FROM bindings WHERE digest = ?", [digest]).fetchone()[0]


def bindings(store: Store) -> list[dict[str, Any]]:
    return [json.loads(text) for (text,) in store.conn.execute("SELECT binding FROM bindings ORDER BY id")]


def store_native_package(store: Store, source_url: str, kind: str, raw: bytes, entry: dict[str, Any],
                         fetched_at: str | None = None) -> IngestResult:
    """Store a package whose capabilities a registry declares (npm's `package.json.capability`) as
    a native package: `raw` (the version's document from the packument, as canonical JSON) is kept
    as the source's document, and `entry`, an index package entry, goes through the same writer as
    an index's packages (conflicts, immutability of published versions, sightings). DocumentError
    if the entry is not a valid index package."""
    from .ingest import write_package_document

    return write_package_document(store, source_url, kind, raw, entry, fetched_at or utc_now(), origin_of(source_url))
