"""What the store knows of a source: its identity, and what ingesting one of its documents did.

Light on imports on purpose: the crawler's fast paths (fresh and unchanged documents) need
only this, not the validation models.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from .store import Store

INGESTIBLE = ("index", "site")


def kind_problem(kind: str | None, expect: str | None) -> str | None:
    """Why a document of `kind` cannot be ingested where `expect` ("index", "site" or None) is wanted."""
    if kind in INGESTIBLE and (not expect or kind == expect):
        return None
    wanted = f"an {expect}" if expect == "index" else f"a {expect}" if expect else "an index or site"
    what = f"a {kind} document" if kind else "not a capability document"
    return f"$: expected {wanted} document ({what})"


@dataclass
class IngestResult:
    url: str
    kind: str
    status: str  # "stored", "unchanged" or "rejected"
    document_id: int | None
    packages: int = 0
    new_packages: int = 0
    new_capabilities: int = 0
    conflicts: list[str] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)  # what integrity over time refused to apply
    links: list[str] = field(default_factory=list)  # federates (index) or indexes (site)

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


def document_links(store: Store, document_id: int | None) -> list[str]:
    """The URLs a stored document points to: an index's federates, a site's indexes."""
    if document_id is None:
        return []
    rows = store.conn.execute("SELECT url FROM document_links WHERE document_id = ? ORDER BY position", [document_id])
    return [r[0] for r in rows]
