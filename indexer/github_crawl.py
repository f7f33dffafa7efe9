"""The GitHub crawler: `OWNER/REPO[@REF]` resolved to an exact commit and recorded; search results
as candidates. The API calls live in github.py; this is what goes into the store."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from index import registry
from index.store import Store
from schemas.errors import CapindexError

ECOSYSTEM = "github"


class GithubFailure(CapindexError, RuntimeError):
    pass


@dataclass
class GithubOutcome:
    requested: str
    name: str
    commit: str | None = None
    how: str | None = None
    ref: str | None = None
    error: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def parse_spec(spec: str) -> tuple[str, str, str | None]:
    """`OWNER/REPO` or `OWNER/REPO@REF` -> (owner, repo, ref or None)."""
    text = spec.strip().removeprefix("github:")
    name, sep, ref = text.partition("@")
    owner, slash, repo = name.partition("/")
    if not slash or not owner or not repo or "/" in repo:
        raise CapindexError(f"{spec!r}: expected OWNER/REPO or OWNER/REPO@REF")
    return owner, repo, (ref or None) if sep else None


async def crawl_repo(store: Store, github: Any, spec: str) -> GithubOutcome:
    outcome = GithubOutcome(requested=spec, name=spec)
    try:
        owner, repo, ref = parse_spec(spec)
        outcome.name = f"{owner}/{repo}"
        record = await github.repo(owner, repo)
        resolution = await github.resolve_ref(owner, repo, ref)
        outcome.commit, outcome.how, outcome.ref = resolution.commit, resolution.kind, resolution.ref
        record = {**record, "commit": resolution.commit, "ref": resolution.ref}
        registry.record_release(store, ECOSYSTEM, outcome.name, resolution.commit, record,
                                f"{github.base_url}/repos/{outcome.name}")
        registry.record_resolution(store, ECOSYSTEM, outcome.name, ref or "(default branch)", resolution.commit,
                                   resolution.kind)
    except CapindexError as exc:
        outcome.error = str(exc)
    return outcome


async def search(store: Store, github: Any, query: str, limit: int = 30) -> list[dict[str, Any]]:
    results = await github.search(query, limit)
    for result in results:
        registry.record_candidate(store, ECOSYSTEM, result.get("full_name") or result.get("name") or "?", None,
                                  "search-result", query, result)
    return results
