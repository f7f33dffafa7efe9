"""Schema migrations: each step runs once, in order, inside its own transaction."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import sqlite_utils


def _v1_core(db: sqlite_utils.Database) -> None:
    db.execute(
        """CREATE TABLE sources (
            id INTEGER PRIMARY KEY,
            url TEXT NOT NULL UNIQUE,
            origin TEXT NOT NULL,
            kind TEXT NOT NULL,
            last_status TEXT,
            last_error TEXT,
            etag TEXT,
            last_modified TEXT,
            content_digest TEXT,
            fetched_at TEXT,
            current_document_id INTEGER REFERENCES documents(id)
        )"""
    )
    db.execute(
        """CREATE TABLE documents (
            id INTEGER PRIMARY KEY,
            source_id INTEGER NOT NULL REFERENCES sources(id),
            kind TEXT NOT NULL,
            digest TEXT NOT NULL,
            size INTEGER NOT NULL,
            generated_at TEXT,
            fetched_at TEXT NOT NULL,
            via TEXT,
            UNIQUE (source_id, digest)
        )"""
    )
    # The raw bytes, alone in their row: a blob streamed in through zeroblob() stays off the heap
    # only as a record's last column, and updating a document's other fields never copies it.
    db.execute(
        """CREATE TABLE document_bodies (
            document_id INTEGER PRIMARY KEY REFERENCES documents(id),
            raw BLOB NOT NULL
        )"""
    )
    # One row per distinct content of name@version; a second content is a conflict, never a replacement.
    db.execute(
        """CREATE TABLE packages (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            version TEXT NOT NULL,
            source TEXT NOT NULL,
            repository TEXT,
            integrity TEXT,
            digest TEXT NOT NULL,
            entry TEXT NOT NULL,
            first_document_id INTEGER NOT NULL REFERENCES documents(id),
            UNIQUE (name, version, digest)
        )"""
    )
    # Which source currently lists which package, and in which of its documents.
    db.execute(
        """CREATE TABLE package_sightings (
            package_id INTEGER NOT NULL REFERENCES packages(id),
            source_id INTEGER NOT NULL REFERENCES sources(id),
            document_id INTEGER NOT NULL REFERENCES documents(id),
            PRIMARY KEY (source_id, package_id)
        ) WITHOUT ROWID"""
    )
    db.execute("CREATE INDEX package_sightings_package ON package_sightings(package_id)")
    db.execute(
        """CREATE TABLE capabilities (
            id INTEGER PRIMARY KEY,
            package_id INTEGER NOT NULL REFERENCES packages(id),
            position INTEGER NOT NULL,
            cap_id TEXT NOT NULL,
            version TEXT NOT NULL,
            name TEXT NOT NULL,
            description TEXT NOT NULL,
            tags TEXT NOT NULL,
            effects TEXT NOT NULL,
            module TEXT NOT NULL,
            integrity TEXT
        )"""
    )
    # The manifest lives once, inside its package's canonical entry.
    db.execute(
        """CREATE VIEW capability_manifests AS
           SELECT c.id, c.package_id, c.cap_id, c.version, c.module,
                  json_extract(p.entry, '$.capabilities[' || c.position || '].manifest') AS manifest
           FROM capabilities c JOIN packages p ON p.id = c.package_id"""
    )
    db.execute("CREATE INDEX capabilities_package ON capabilities(package_id)")
    db.execute("CREATE INDEX capabilities_cap_id ON capabilities(cap_id, version)")
    db.execute(
        """CREATE TABLE conflicts (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            version TEXT NOT NULL,
            package_id INTEGER NOT NULL REFERENCES packages(id),
            other_package_id INTEGER NOT NULL REFERENCES packages(id),
            other_document_id INTEGER NOT NULL REFERENCES documents(id),
            detected_at TEXT NOT NULL,
            UNIQUE (package_id, other_package_id)
        )"""
    )
    # Ingestion fills the FTS index with one INSERT ... SELECT per document (a per-row insert
    # trigger costs ~4x); deletes and updates keep it in step through triggers.
    db["capabilities"].enable_fts(
        ["cap_id", "name", "description", "tags"], fts_version="FTS5", create_triggers=False, tokenize="porter"
    )
    db.execute(
        """CREATE TRIGGER capabilities_ad AFTER DELETE ON capabilities BEGIN
             INSERT INTO capabilities_fts (capabilities_fts, rowid, cap_id, name, description, tags)
             VALUES ('delete', old.id, old.cap_id, old.name, old.description, old.tags);
           END"""
    )
    db.execute(
        """CREATE TRIGGER capabilities_au AFTER UPDATE ON capabilities BEGIN
             INSERT INTO capabilities_fts (capabilities_fts, rowid, cap_id, name, description, tags)
             VALUES ('delete', old.id, old.cap_id, old.name, old.description, old.tags);
             INSERT INTO capabilities_fts (rowid, cap_id, name, description, tags)
             VALUES (new.id, new.cap_id, new.name, new.description, new.tags);
           END"""
    )


def _v2_crawling(db: sqlite_utils.Database) -> None:
    # Until when the server said its response stays fresh (Cache-Control max-age, Expires): a
    # re-crawl before then needs no request at all.
    db.execute("ALTER TABLE sources ADD COLUMN fresh_until TEXT")
    # Where each stored document points: an index's federates, a site's indexes. An unchanged
    # document's links come from here, so a re-crawl walks on without parsing it again.
    db.execute(
        """CREATE TABLE document_links (
            document_id INTEGER NOT NULL REFERENCES documents(id),
            position INTEGER NOT NULL,
            url TEXT NOT NULL,
            PRIMARY KEY (document_id, position)
        ) WITHOUT ROWID"""
    )
    # What integrity over time refused (or, with --accept-rollback, let through).
    db.execute(
        """CREATE TABLE flags (
            id INTEGER PRIMARY KEY,
            source_id INTEGER NOT NULL REFERENCES sources(id),
            kind TEXT NOT NULL,
            subject TEXT NOT NULL,
            detail TEXT NOT NULL,
            detected_at TEXT NOT NULL,
            UNIQUE (source_id, kind, subject, detail)
        )"""
    )
    # The crawl frontier lives here, so a crawl killed at any moment resumes where it stood.
    db.execute(
        """CREATE TABLE crawls (
            id INTEGER PRIMARY KEY,
            plan TEXT NOT NULL,
            started_at TEXT NOT NULL,
            finished_at TEXT,
            last_seq INTEGER NOT NULL DEFAULT 0,
            admitted INTEGER NOT NULL DEFAULT 0
        )"""
    )
    db.execute("CREATE INDEX crawls_unfinished ON crawls(plan) WHERE finished_at IS NULL")
    db.execute(
        """CREATE TABLE crawl_queue (
            crawl_id INTEGER NOT NULL REFERENCES crawls(id),
            url TEXT NOT NULL,
            kind TEXT NOT NULL,
            depth INTEGER NOT NULL,
            via TEXT,
            state TEXT NOT NULL DEFAULT 'queued',
            outcome TEXT,
            error TEXT,
            seq INTEGER NOT NULL,
            PRIMARY KEY (crawl_id, url)
        ) WITHOUT ROWID"""
    )
    db.execute("CREATE INDEX crawl_queue_state ON crawl_queue(crawl_id, state, seq)")


def _v3_registries(db: sqlite_utils.Database) -> None:
    # One row per exact release a registry crawler recorded: an npm version, a PyPI release, a git
    # commit. `record` is canonical JSON of what the registry said; a second content for the same
    # release is kept beside the first, as for index packages.
    db.execute(
        """CREATE TABLE registry_releases (
            id INTEGER PRIMARY KEY,
            ecosystem TEXT NOT NULL,
            name TEXT NOT NULL,
            version TEXT NOT NULL,
            record TEXT NOT NULL,
            digest TEXT NOT NULL,
            source_url TEXT NOT NULL,
            fetched_at TEXT NOT NULL,
            UNIQUE (ecosystem, name, version, digest)
        )"""
    )
    # What was asked (a tag, a range, a branch, nothing) and the exact release it resolved to:
    # a mutable name is never an identity, but the request is kept.
    db.execute(
        """CREATE TABLE registry_resolutions (
            id INTEGER PRIMARY KEY,
            ecosystem TEXT NOT NULL,
            name TEXT NOT NULL,
            requested TEXT NOT NULL,
            version TEXT NOT NULL,
            how TEXT NOT NULL,
            resolved_at TEXT NOT NULL
        )"""
    )
    db.execute("CREATE INDEX registry_resolutions_name ON registry_resolutions(ecosystem, name, requested)")
    # What discovery found that is not a capability: search results, legacy string-only exports,
    # later mined operations. Never executable.
    db.execute(
        """CREATE TABLE candidates (
            id INTEGER PRIMARY KEY,
            ecosystem TEXT NOT NULL,
            name TEXT NOT NULL,
            version TEXT,
            kind TEXT NOT NULL,
            key TEXT NOT NULL,
            record TEXT NOT NULL,
            found_at TEXT NOT NULL,
            UNIQUE (ecosystem, name, kind, key)
        )"""
    )
    # Artifacts downloaded and verified against the registry's integrity before anything used them.
    db.execute(
        """CREATE TABLE artifacts (
            id INTEGER PRIMARY KEY,
            ecosystem TEXT NOT NULL,
            name TEXT NOT NULL,
            version TEXT NOT NULL,
            filename TEXT NOT NULL,
            url TEXT NOT NULL,
            size INTEGER NOT NULL,
            sha256 TEXT NOT NULL,
            sha512 TEXT NOT NULL,
            verified_against TEXT NOT NULL,
            path TEXT,
            verified_at TEXT NOT NULL,
            UNIQUE (ecosystem, name, version, filename, sha256)
        )"""
    )
    # Metabolic bindings 1.0, validated before they are stored.
    db.execute(
        """CREATE TABLE bindings (
            id INTEGER PRIMARY KEY,
            binder_id TEXT NOT NULL,
            substrate TEXT NOT NULL,
            locator TEXT NOT NULL,
            immutable_artifact TEXT NOT NULL,
            candidate TEXT,
            binding TEXT NOT NULL,
            digest TEXT NOT NULL UNIQUE,
            created_at TEXT NOT NULL
        )"""
    )
    db.execute("CREATE INDEX bindings_artifact ON bindings(immutable_artifact)")


def _v4_search(db: sqlite_utils.Database) -> None:
    # Search over candidates (index/search.py), as capabilities_fts is over capabilities: one row per
    # candidate, rowid = candidates.id, its text computed in Python (index/search_text.py: code
    # names split into words, the package, the declarations its evidence cites) by
    # registry.record_candidate in the candidate's own transaction; a deleted candidate leaves by trigger.
    from .search_text import candidate_text

    db.execute(
        """CREATE VIRTUAL TABLE candidates_fts USING fts5(name, description, package, context, tokenize='porter')"""
    )
    db.execute(
        """CREATE TRIGGER candidates_search_ad AFTER DELETE ON candidates BEGIN
             DELETE FROM candidates_fts WHERE rowid = old.id;
           END"""
    )
    rows = db.execute("SELECT id, ecosystem, name, kind, record FROM candidates").fetchall()
    db.conn.executemany(
        "INSERT INTO candidates_fts (rowid, name, description, package, context) VALUES (?, ?, ?, ?, ?)",
        [(cid, *candidate_text(ecosystem, name, kind, _json_object(record))) for cid, ecosystem, name, kind, record in rows],
    )
    # whether a candidate is bound: bindings are looked up by the candidate they were made for
    db.execute("CREATE INDEX bindings_candidate ON bindings(candidate) WHERE candidate IS NOT NULL")


def _json_object(text: str) -> dict:
    import json

    try:
        value = json.loads(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _v5_gaps(db: sqlite_utils.Database) -> None:
    # Capability gaps (index/gaps.py): one per normalised need and effects ceiling (canonical JSON of the sorted
    # effects). Asking again adds to demand and refreshes the document (canonical JSON, a valid gapVersion 0.1
    # document whose id, intent and createdAt stay those of the first ask); a need satisfied later sets
    # satisfied_at, and the gap is no longer published.
    db.execute(
        """CREATE TABLE gaps (
            id INTEGER PRIMARY KEY,
            gap_id TEXT NOT NULL UNIQUE,
            need TEXT NOT NULL,
            ceiling TEXT NOT NULL,
            intent TEXT NOT NULL,
            document TEXT NOT NULL,
            demand INTEGER NOT NULL,
            first_asked TEXT NOT NULL,
            last_asked TEXT NOT NULL,
            satisfied_at TEXT,
            UNIQUE (need, ceiling)
        )"""
    )
    db.execute("CREATE INDEX gaps_demand ON gaps(demand DESC, last_asked DESC) WHERE satisfied_at IS NULL")


def _v6_undeclared_effects(db: sqlite_utils.Database) -> None:
    # A manifest without an `effects` field was stored as "[]", which reads as "no effects"; it
    # says nothing of them, so it is stored as null and searched as opaque.
    db.execute(
        """UPDATE capabilities SET effects = 'null' WHERE id IN (
             SELECT id FROM capability_manifests WHERE json_type(manifest, '$.effects') IS NULL)"""
    )


MIGRATIONS: list[tuple[int, str, Callable[[sqlite_utils.Database], None]]] = [
    (1, "sources, documents, packages, capabilities, conflicts, FTS5", _v1_core),
    (2, "document links, integrity flags, crawl frontier", _v2_crawling),
    (3, "registry releases and resolutions, candidates, verified artifacts, bindings", _v3_registries),
    (4, "search over candidates (FTS5), bindings by candidate", _v4_search),
    (5, "capability gaps: demand per normalised need and effects ceiling", _v5_gaps),
    (6, "capabilities whose manifest declares no effects: effects null, not []", _v6_undeclared_effects),
]
LATEST = MIGRATIONS[-1][0]
