"""Schema migrations: each step runs once, in order, inside its own transaction."""

from __future__ import annotations

from collections.abc import Callable

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
            raw BLOB NOT NULL,
            generated_at TEXT,
            fetched_at TEXT NOT NULL,
            via TEXT,
            UNIQUE (source_id, digest)
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
            integrity TEXT,
            manifest TEXT NOT NULL
        )"""
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
    db["capabilities"].enable_fts(
        ["cap_id", "name", "description", "tags"], fts_version="FTS5", create_triggers=True, tokenize="porter"
    )


MIGRATIONS: list[tuple[int, str, Callable[[sqlite_utils.Database], None]]] = [
    (1, "sources, documents, packages, capabilities, conflicts, FTS5", _v1_core),
]
LATEST = MIGRATIONS[-1][0]
