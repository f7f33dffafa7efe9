"""A document prepared ahead of its write: plain picklable records, light on imports.

The crawler's worker builds them (package_stream.prepare_document) and sends them to the
writer, which unpickles them without loading the parser or the validation models.
"""

from __future__ import annotations

from typing import Any, NamedTuple

# One package ready to write: ((name, version), digest, entry, source, repository, integrity, capability rows)
# where a capability row is (position, id, version, name, description, tags, effects, module, integrity).
Prepared = tuple[tuple[str, str], str, str, str, Any, Any, list[tuple[Any, ...]]]


class Judged(NamedTuple):
    """A document's members other than its packages, validated: what the writer needs of them."""

    kind: str  # "index" or "site"
    generated_at: str | None  # an index's generatedAt, normalised to UTC
    links: list[str]  # an index's federates, a site's indexes


class PreparedDocument(NamedTuple):
    """A whole document prepared in one go: its bytes' sha256 and size, so the writer need not
    hash them again; its packages' write-ready batches; its other members judged."""

    digest: str
    size: int
    batches: list[list[Prepared]]
    count: int  # packages
    judged: Judged
