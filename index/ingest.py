"""Ingest one capability document into the store, in one transaction.

An invalid document writes nothing. An identical re-ingest writes nothing. A package
name@version whose content differs from what the store already holds is stored beside
it and recorded as a conflict with both provenances; nothing is ever replaced.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from schemas.documents import (
    DocumentError,
    detect_kind,
    parse_json,
    validate,
    validate_index,
)
from schemas.ecma import parse_date_time

from .canonical import canonical_json, sha256_hex, storable_text
from .store import Store, iso_utc, utc_now

INGESTIBLE = ("index", "site")


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


def check_document(raw: bytes, where: str) -> tuple[str, Any, Any]:
    """Parse and validate an ingestible document; returns (kind, data, header model)."""
    data = parse_json(raw, where)
    kind = detect_kind(data)
    if kind not in INGESTIBLE:
        what = f"a {kind} document" if kind else "not a capability document"
        raise DocumentError(where, [f"$: only index and site documents can be ingested ({what})"])
    model = validate_index(data, where) if kind == "index" else validate(kind, data, where)
    return kind, data, model


def ingest_bytes(
    store: Store,
    raw: bytes,
    location: str,
    *,
    fetched_at: str | None = None,
    via: str | None = None,
    etag: str | None = None,
    last_modified: str | None = None,
) -> IngestResult:
    url = source_url(location)
    kind, data, model = check_document(raw, location)
    digest = sha256_hex(raw)
    fetched_at = fetched_at or utc_now()
    db = store.db
    with db.atomic():
        src = db.execute("SELECT id, content_digest FROM sources WHERE url = ?", [url]).fetchone()
        if src is not None and src[1] == digest:
            return IngestResult(url, kind, "unchanged", None)
        if src is None:
            source_id = db.execute(
                "INSERT INTO sources (url, origin, kind) VALUES (?, ?, ?)", [url, origin_of(url), kind]
            ).lastrowid
        else:
            source_id = src[0]
        generated_at = iso_utc(parse_date_time(model.generatedAt)) if kind == "index" else None
        row = db.execute("SELECT id FROM documents WHERE source_id = ? AND digest = ?", [source_id, digest]).fetchone()
        if row is not None:  # the source went back to content it served before
            document_id = row[0]
        else:
            document_id = db.execute(
                """INSERT INTO documents (source_id, kind, digest, raw, generated_at, fetched_at, via)
                   VALUES (?, ?, ?, ?, ?, ?, ?)""",
                [source_id, kind, digest, raw, generated_at, fetched_at, via],
            ).lastrowid
        result = IngestResult(url, kind, "stored", document_id)
        if kind == "index":
            _store_packages(store, data["packages"], source_id, document_id, fetched_at, result)
        db.execute(
            """UPDATE sources SET kind = ?, last_status = 'ok', last_error = NULL, etag = ?, last_modified = ?,
               content_digest = ?, fetched_at = ?, current_document_id = ? WHERE id = ?""",
            [kind, etag, last_modified, digest, fetched_at, document_id, source_id],
        )
    return result


def _same(value: Any) -> Any:
    return value


def _store_packages(
    store: Store, packages: list[dict[str, Any]], source_id: int, document_id: int, now: str, result: IngestResult
) -> None:
    conn = store.db.conn
    sightings: list[tuple[int, int, int]] = []
    capability_rows: list[tuple[Any, ...]] = []
    for package in packages:
        entry = canonical_json(package)
        digest = sha256_hex(entry)
        # JSON may carry lone surrogates (as \udxxx escapes); SQLite text columns may not
        clean = storable_text if "\\ud" in entry else _same
        name, version = clean(package["name"]), clean(package["version"])
        known = conn.execute(
            "SELECT id, digest FROM packages WHERE name = ? AND version = ? ORDER BY id", [name, version]
        ).fetchall()
        package_id = next((pid for pid, d in known if d == digest), None)
        if package_id is None:
            package_id = conn.execute(
                """INSERT INTO packages (name, version, source, repository, integrity, digest, entry, first_document_id)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
                [name, version, clean(package["source"]), clean(package.get("repository")),
                 clean(package.get("integrity")), digest, entry, document_id],
            ).lastrowid
            result.new_packages += 1
            for position, cap in enumerate(package["capabilities"]):
                m = cap["manifest"]
                capability_rows.append((
                    package_id, position, m["id"], m["version"], clean(m["name"]), clean(m["description"]),
                    clean(" ".join(m.get("tags") or ())), json.dumps(m.get("effects") or []), clean(cap["module"]),
                    clean(cap.get("integrity")), canonical_json(m),
                ))
            if known:
                conn.execute(
                    """INSERT OR IGNORE INTO conflicts (name, version, package_id, other_package_id, other_document_id, detected_at)
                       VALUES (?, ?, ?, ?, ?, ?)""",
                    [name, version, known[0][0], package_id, document_id, now],
                )
                result.conflicts.append(f"{name}@{version}")
        sightings.append((package_id, source_id, document_id))
    conn.executemany(
        """INSERT INTO capabilities (package_id, position, cap_id, version, name, description, tags, effects, module,
           integrity, manifest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        capability_rows,
    )
    conn.execute("DELETE FROM package_sightings WHERE source_id = ?", [source_id])
    conn.executemany(
        "INSERT OR IGNORE INTO package_sightings (package_id, source_id, document_id) VALUES (?, ?, ?)", sightings
    )
    result.packages = len(packages)
    result.new_capabilities = len(capability_rows)
