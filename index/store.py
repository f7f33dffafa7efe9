"""The SQLite store: opening, migrating, and reading what ingestion wrote."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from schemas.ecma import utc_now
from schemas.errors import CapindexError

from .migrations import LATEST, MIGRATIONS

if TYPE_CHECKING:
    import sqlite_utils


class StoreError(CapindexError, RuntimeError):
    """The store cannot be opened or used (not a database, too new, read-only, ...)."""


@dataclass(frozen=True)
class Conflict:
    name: str
    version: str
    established: dict[str, Any]
    other: dict[str, Any]
    detected_at: str


class Store:
    """A capindex database file. Every write goes through one transaction per document."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        self._savepoints = 0
        self.search_index_from: int | None = None  # set while a commit group defers FTS indexing
        self._db: sqlite_utils.Database | None = None
        try:
            # The plain connection serves every hot path; sqlite-utils (80 ms to import) wraps it
            # on first use of `db`, for migrations and reports.
            self.conn = sqlite3.connect(self.path)
            self.conn.execute("PRAGMA busy_timeout = 10000")
            # Only takes effect on a new file: package entries are a few KiB, and 16 KiB pages
            # keep most of them off overflow chains (about 8% faster ingest).
            self.conn.execute("PRAGMA page_size = 16384")
            self.conn.execute("PRAGMA journal_mode = WAL")
            self.conn.execute("PRAGMA synchronous = NORMAL")
            # 64 MiB of page cache (the default is 2 MiB): the indexes' hot pages stay in memory
            self.conn.execute("PRAGMA cache_size = -65536")
            self.conn.execute("PRAGMA foreign_keys = ON")
            self.conn.execute("PRAGMA recursive_triggers = ON")  # as sqlite-utils sets it
            self._migrate()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: cannot use as a capindex database ({exc})") from None

    @property
    def db(self) -> sqlite_utils.Database:
        """sqlite-utils over the same connection."""
        if self._db is None:
            import sqlite_utils

            self._db = sqlite_utils.Database(self.conn)
        return self._db

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- schema -------------------------------------------------------------------------------

    @property
    def schema_version(self) -> int:
        if not self.conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'").fetchone():
            return 0
        row = self.conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
        return row[0] or 0

    def _migrate(self) -> None:
        current = self.schema_version  # a plain read: an up-to-date store takes no write lock
        if current > LATEST:
            raise StoreError(f"{self.path}: database schema version {current} is newer than this capindex supports ({LATEST})")
        if current == LATEST:
            return
        with self.write_transaction():
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, description TEXT, applied_at TEXT)"
            )
        for version, description, step in MIGRATIONS:
            # each step re-reads the version under the write lock: two processes never both apply it
            with self.write_transaction():
                current = self.schema_version
                if current > LATEST:
                    raise StoreError(
                        f"{self.path}: database schema version {current} is newer than this capindex supports ({LATEST})"
                    )
                if version <= current:
                    continue
                step(self.db)
                self.db.execute(
                    "INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)",
                    [version, description, utc_now()],
                )

    @contextlib.contextmanager
    def write_transaction(self, savepoint: bool = True) -> Iterator[None]:
        """One all-or-nothing write. IMMEDIATE takes the write lock up front (waiting up to the
        busy timeout), so what the transaction reads, such as the next free ids, stays true.

        Inside a commit group the write is a savepoint; `savepoint=False` skips it (its statement
        journal is the dearest part of a small write) for a caller that has already judged its
        input: if such a write fails after changing anything, the whole group is rolled back, so
        nothing half-written can ever commit."""
        conn = self.conn
        if conn.in_transaction and not savepoint:
            changes = conn.total_changes
            try:
                yield
            except BaseException:
                if conn.total_changes != changes and conn.in_transaction:
                    conn.execute("ROLLBACK")
                    self.search_index_from = None
                raise
            return
        if conn.in_transaction:  # inside a group (see group_commit): all-or-nothing as a savepoint
            self._savepoints += 1
            name = f"write_{self._savepoints}"
            conn.execute(f"SAVEPOINT {name}")
            try:
                yield
            except BaseException:
                if conn.in_transaction:
                    conn.execute(f"ROLLBACK TO {name}")
                    conn.execute(f"RELEASE {name}")
                raise
            conn.execute(f"RELEASE {name}")
            return
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def begin_group(self) -> None:
        """Start a transaction that several write_transaction()s join as savepoints, so many small
        documents share one commit. Each stays all-or-nothing; a crash loses the uncommitted group
        whole (a crawl then fetches it again)."""
        if not self.conn.in_transaction:
            self.conn.execute("BEGIN IMMEDIATE")
            # search indexing waits for the commit: one pass over the group's rows is cheaper
            self.search_index_from = self.conn.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM capabilities").fetchone()[0]

    @property
    def in_group(self) -> bool:
        return self.conn.in_transaction

    def commit_group(self) -> None:
        if self.conn.in_transaction:
            if self.search_index_from is not None:
                self.index_for_search(self.search_index_from)
                self.search_index_from = None
            self.conn.execute("COMMIT")

    def index_for_search(self, first_capability_id: int) -> None:
        """Add capabilities from `first_capability_id` on to the FTS5 index."""
        self.conn.execute(
            """INSERT INTO capabilities_fts (rowid, cap_id, name, description, tags)
               SELECT id, cap_id, name, description, tags FROM capabilities WHERE id >= ?""",
            [first_capability_id],
        )

    # -- reading ------------------------------------------------------------------------------

    def counts(self) -> dict[str, int]:
        q = self.conn.execute
        return {
            "sources": q("SELECT COUNT(*) FROM sources").fetchone()[0],
            "sources_failing": q("SELECT COUNT(*) FROM sources WHERE last_status = 'error'").fetchone()[0],
            "documents": q("SELECT COUNT(*) FROM documents").fetchone()[0],
            "packages": q("SELECT COUNT(*) FROM packages").fetchone()[0],
            "packages_listed": q("SELECT COUNT(DISTINCT package_id) FROM package_sightings").fetchone()[0],
            "capabilities": q("SELECT COUNT(*) FROM capabilities").fetchone()[0],
            "conflicts": q("SELECT COUNT(*) FROM conflicts").fetchone()[0],
        }

    def sources(self) -> list[dict[str, Any]]:
        return list(self.db.query("SELECT * FROM sources ORDER BY url"))

    def package_versions(self, name: str, version: str) -> list[dict[str, Any]]:
        """Every distinct content recorded for name@version, oldest first, with where each was seen."""
        rows = list(
            self.db.query(
                """SELECT p.id, p.name, p.version, p.digest, p.entry, s.url AS first_source, d.fetched_at AS first_seen
                   FROM packages p JOIN documents d ON d.id = p.first_document_id JOIN sources s ON s.id = d.source_id
                   WHERE p.name = ? AND p.version = ? ORDER BY p.id""",
                [name, version],
            )
        )
        for row in rows:
            row["listed_by"] = [
                r["url"]
                for r in self.db.query(
                    """SELECT s.url FROM package_sightings ps JOIN sources s ON s.id = ps.source_id
                       WHERE ps.package_id = ? ORDER BY s.url""",
                    [row["id"]],
                )
            ]
        return rows

    def conflicts(self) -> list[Conflict]:
        out = []
        for row in self.db.query("SELECT * FROM conflicts ORDER BY name, version, id"):
            versions = {v["id"]: v for v in self.package_versions(row["name"], row["version"])}
            out.append(
                Conflict(
                    name=row["name"],
                    version=row["version"],
                    established=versions[row["package_id"]],
                    other=versions[row["other_package_id"]],
                    detected_at=row["detected_at"],
                )
            )
        return out
