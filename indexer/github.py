"""The GitHub REST API, for what the miner needs of a repository: its record, the commit a ref names,
and search results (candidates to look at, never capabilities).

Every request goes through the guarded client with GitHub's media type and API version (and the
token as a Bearer credential when one is given; it is never logged or shown). Each response's
x-ratelimit-* headers are kept per resource ("core", "search"); a request to a resource known to be
exhausted waits for its reset first instead of spending a request on a certain 403. A rate-limited
answer (403 or 429 with x-ratelimit-remaining 0, a Retry-After, or a secondary-limit message) is
waited out when the wait is at most `max_wait` seconds and is otherwise a GitHubError that says until
when.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from dataclasses import dataclass
from datetime import UTC
from email.utils import parsedate_to_datetime
from typing import Any, Literal
from urllib.parse import quote, urlencode

from schemas.errors import CapindexError

from .fetching import FetchFailure, HttpStatusError
from .urls import is_valid_ref_name

log = logging.getLogger(__name__)

API_URL = "https://api.github.com"
API_VERSION = "2022-11-28"
MEDIA_TYPE = "application/vnd.github+json"
SHA1 = re.compile(r"[0-9a-f]{40}")
SHORT_SHA = re.compile(r"[0-9a-f]{7,39}")
OWNER = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9_-]{0,99})")
REPO_NAME = re.compile(r"[A-Za-z0-9._-]{1,100}")
MAX_WAITS = 3  # rate-limit waits for one request before giving up
SECONDARY_WAIT = 60.0  # GitHub: a secondary limit without Retry-After "wait at least one minute"
SEARCH_CAP = 1000  # GitHub returns at most the first 1000 results of a search
MAX_TAG_DEPTH = 5  # a tag of a tag of ... before the commit


class GitHubError(CapindexError):
    """The GitHub API refused or failed a request; the message is one line for the user."""


@dataclass
class RateLimit:
    """The last x-ratelimit-* headers seen for one resource; reset is epoch seconds."""

    resource: str
    limit: int | None = None
    remaining: int | None = None
    reset: int | None = None
    used: int | None = None


@dataclass(frozen=True)
class RefResolution:
    requested: str | None  # as the caller gave it (None: the default branch)
    kind: Literal["branch", "tag", "commit", "default"]
    commit: str  # 40 hex, always
    ref: str | None = None  # the full ref name it was found as ("refs/heads/main"); None for a commit


class GitHub:
    def __init__(self, client: Any, base_url: str = API_URL, token: str | None = None, max_wait: float = 60.0):
        self.client = client
        self.base_url = base_url.rstrip("/")
        self.max_wait = max_wait
        self.rate_limits: dict[str, RateLimit] = {}
        self._authenticated = bool(token)
        self._headers = {"Accept": MEDIA_TYPE, "X-GitHub-Api-Version": API_VERSION}
        if token:
            self._headers["Authorization"] = f"Bearer {token}"
        self._skew = 0.0  # GitHub's clock (its Date header) minus ours

    def __repr__(self) -> str:  # never the token
        return f"GitHub({self.base_url!r}, authenticated={self._authenticated})"

    # -- the API -------------------------------------------------------------------------------

    async def repo(self, owner: str, name: str) -> dict[str, Any]:
        """The repository's trimmed record (see `repo_record`); GitHubError when it does not exist
        or is not visible."""
        what = _full_name(owner, name)
        doc = await self._get(f"/repos/{what}", what)
        return repo_record(doc)

    async def resolve_ref(self, owner: str, name: str, ref: str | None = None) -> RefResolution:
        """The commit `ref` names: None is the default branch's head; 40 hex is a commit, checked to
        exist; a name is tried as a branch, then as a tag (an annotated tag followed to its commit);
        `refs/heads/X` and `refs/tags/X` only as what they say; 7-39 hex that is neither, as an
        abbreviated commit."""
        what = _full_name(owner, name)
        if ref is None:
            branch = (await self.repo(owner, name))["default_branch"]
            if not branch:
                raise GitHubError(f"{what}: no default branch (an empty repository?)")
            commit = await self._ref_commit(what, f"heads/{branch}")
            if commit is None:
                raise GitHubError(f"{what}: its default branch {branch!r} does not exist")
            return RefResolution(None, "default", commit, f"refs/heads/{branch}")
        requested = ref
        ref = ref.strip()
        if SHA1.fullmatch(ref.lower()):
            commit = await self._commit(what, ref.lower())
            if commit is None:
                await self.repo(owner, name)  # a missing repository says so
                raise GitHubError(f"{what}: no commit {ref.lower()}")
            return RefResolution(requested, "commit", commit)
        if ref.startswith("refs/heads/"):
            tries = [("branch", "heads/", _check_ref(ref[len("refs/heads/"):]))]
        elif ref.startswith("refs/tags/"):
            tries = [("tag", "tags/", _check_ref(ref[len("refs/tags/"):]))]
        else:
            tries = [("branch", "heads/", _check_ref(ref)), ("tag", "tags/", ref)]
        for kind, prefix, short in tries:
            commit = await self._ref_commit(what, prefix + short)
            if commit is not None:
                return RefResolution(requested, kind, commit, f"refs/{prefix}{short}")
        if SHORT_SHA.fullmatch(ref):
            commit = await self._commit(what, ref)
            if commit is not None and commit.startswith(ref):
                return RefResolution(requested, "commit", commit)
        await self.repo(owner, name)
        raise GitHubError(f"{what}: no branch or tag named {ref!r}")

    async def search(self, query: str, limit: int = 30) -> list[dict[str, Any]]:
        """Repositories matching a GitHub search query, best match first, at most `limit` (GitHub
        itself stops at 1000); each a trimmed record as `repo` returns. Candidates to look at, never
        capabilities."""
        if not query.strip():
            raise GitHubError("GitHub search: empty query")
        limit = min(limit, SEARCH_CAP)
        per_page = max(1, min(limit, 100))
        found: list[dict[str, Any]] = []
        page = 1
        while len(found) < limit:
            params = urlencode({"q": query, "per_page": per_page, "page": page})
            doc = await self._get(f"/search/repositories?{params}", "GitHub search")
            items = doc.get("items") if isinstance(doc, dict) else None
            if not isinstance(items, list):
                raise GitHubError("GitHub search: the answer has no items")
            found.extend(repo_record(item) for item in items[: limit - len(found)])
            total = doc.get("total_count")
            if len(items) < per_page or page * per_page >= min(SEARCH_CAP, total if isinstance(total, int) else 0):
                break
            page += 1
        return found

    # -- refs and commits --------------------------------------------------------------------------

    async def _ref_commit(self, what: str, ref: str) -> str | None:
        """The commit of `heads/X` or `tags/X` (an exact match), annotated tags followed; None when
        there is no such ref."""
        doc = await self._get(f"/repos/{what}/git/ref/{quote(ref, safe='/')}", what, absent=(404,))
        if doc is None:
            return None
        target = _object(doc, what)
        for _ in range(MAX_TAG_DEPTH):
            kind, sha = target
            if kind == "commit":
                return sha
            if kind != "tag":
                raise GitHubError(f"{what}: {ref} points to a {kind}, not a commit")
            tag = await self._get(f"/repos/{what}/git/tags/{sha}", what)
            target = _object(tag, what)
        raise GitHubError(f"{what}: {ref} is a chain of more than {MAX_TAG_DEPTH} tags")

    async def _commit(self, what: str, sha: str) -> str | None:
        """The full SHA of the commit `sha` (40 or abbreviated), None when the repository has none.
        GitHub answers 422 for an unknown SHA, 404 for an unknown repository (told apart later)."""
        doc = await self._get(f"/repos/{what}/commits/{sha}", what, absent=(404, 422))
        if doc is None:
            return None
        full = doc.get("sha") if isinstance(doc, dict) else None
        if not isinstance(full, str) or not SHA1.fullmatch(full):
            raise GitHubError(f"{what}: GitHub sent no SHA for commit {sha}")
        if len(sha) == 40 and full != sha:
            raise GitHubError(f"{what}: asked for commit {sha}, GitHub answered {full}")
        return full

    # -- requests, errors and rate limits ------------------------------------------------------------

    async def _get(self, path: str, what: str, absent: tuple[int, ...] = ()) -> Any:
        """The JSON GitHub answers to GET `path` with 200; None for a status in `absent`; rate limits
        waited out (or a GitHubError); GitHubError for anything else."""
        resource = "search" if path.startswith("/search/") else "core"
        for _ in range(MAX_WAITS + 1):
            await self._before(resource)
            try:
                response = await self.client.get(self.base_url + path, headers=self._headers, accept=(200, 403, 429))
                try:
                    status, headers, body = response.status, response.headers, response.body.read()
                finally:
                    response.body.close()
            except HttpStatusError as exc:
                status, headers, body = exc.status, exc.headers, exc.body
            except FetchFailure as exc:
                raise GitHubError(f"{what}: GitHub API unreachable ({exc})") from None
            self._note(resource, headers)
            if status in (403, 429):
                wait = self._rate_limit_wait(status, headers, body)
                if wait is not None:
                    await self._wait(wait, resource)
                    continue
            if status == 200:
                try:
                    return json.loads(body)
                except ValueError:
                    raise GitHubError(f"{what}: GitHub API sent something that is not JSON") from None
            if status in absent:
                return None
            raise self._error(status, body, what)
        raise GitHubError(f"GitHub API rate limit still exhausted after {MAX_WAITS} waits (retry later)")

    def _error(self, status: int, body: bytes, what: str) -> GitHubError:
        message = _message(body)
        if status == 404:
            return GitHubError(f"{what}: not found (or private)")
        if status == 401:
            return GitHubError(f"GitHub API rejected the token ({message or 'HTTP 401'}); check GITHUB_TOKEN")
        if status == 403:
            return GitHubError(f"{what}: forbidden by GitHub ({message or 'HTTP 403'})")
        if status == 409 and message:
            return GitHubError(f"{what}: {message}")  # "Git Repository is empty."
        return GitHubError(f"{what}: GitHub API answered HTTP {status}" + (f" ({message})" if message else ""))

    def _now(self) -> float:
        """Now by GitHub's clock, as far as its Date headers tell."""
        return time.time() + self._skew

    def _note(self, resource: str, headers: dict[str, str]) -> None:
        server_now = _http_date(headers.get("date"))
        if server_now is not None:
            self._skew = server_now - time.time()
        if "x-ratelimit-remaining" not in headers:
            return
        resource = headers.get("x-ratelimit-resource") or resource
        self.rate_limits[resource] = RateLimit(resource, _int(headers.get("x-ratelimit-limit")),
                                               _int(headers.get("x-ratelimit-remaining")),
                                               _int(headers.get("x-ratelimit-reset")),
                                               _int(headers.get("x-ratelimit-used")))

    def _rate_limit_wait(self, status: int, headers: dict[str, str], body: bytes) -> float | None:
        """Seconds to wait before asking again, or None when a 403 is a plain refusal."""
        retry_after = headers.get("retry-after", "").strip()
        if retry_after.isdigit():
            return float(retry_after)
        when = _http_date(retry_after)
        if when is not None:
            return max(0.0, when - self._now())
        reset = _int(headers.get("x-ratelimit-reset"))
        if headers.get("x-ratelimit-remaining", "").strip() == "0" and reset is not None:
            return max(1.0, reset - self._now())
        if status == 429 or "rate limit" in _message(body).lower():
            return SECONDARY_WAIT
        return None

    async def _before(self, resource: str) -> None:
        """Wait for the reset of a resource whose last answer said nothing remains."""
        known = self.rate_limits.get(resource)
        if known and known.remaining == 0 and known.reset is not None and known.reset > self._now():
            await self._wait(known.reset - self._now(), resource)

    async def _wait(self, seconds: float, resource: str) -> None:
        until = time.strftime("%H:%M:%SZ", time.gmtime(self._now() + seconds))
        if seconds > self.max_wait:
            advice = "retry later" if self._authenticated else "set GITHUB_TOKEN or retry later"
            raise GitHubError(f"GitHub API rate limit exhausted until {until} ({advice})")
        log.warning("GitHub API rate limit (%s): waiting %.0f s, until %s", resource, seconds, until)
        await asyncio.sleep(seconds)
        if resource in self.rate_limits:
            self.rate_limits[resource].remaining = None  # unknown until the next answer says


def repo_record(doc: Any) -> dict[str, Any]:
    """The part of a GitHub repository object capindex keeps, always with the same keys."""
    if not isinstance(doc, dict) or not isinstance(doc.get("full_name"), str):
        raise GitHubError("GitHub API sent a repository without a full_name")
    owner, _, name = doc["full_name"].partition("/")
    license_ = doc.get("license")
    visibility = doc.get("visibility") or ("private" if doc.get("private") else "public")
    topics = doc.get("topics")
    return {
        "full_name": doc["full_name"],
        "owner": owner,
        "name": name,
        "id": doc.get("id"),
        "default_branch": doc.get("default_branch"),
        "clone_url": doc.get("clone_url"),
        "html_url": doc.get("html_url"),
        "description": doc.get("description"),
        "topics": [t for t in topics if isinstance(t, str)] if isinstance(topics, list) else [],
        "license": license_.get("spdx_id") if isinstance(license_, dict) else None,
        "stargazers": doc.get("stargazers_count"),
        "archived": bool(doc.get("archived")),
        "fork": bool(doc.get("fork")),
        "pushed_at": doc.get("pushed_at"),
        "visibility": visibility,
    }


def _full_name(owner: str, name: str) -> str:
    if not (isinstance(owner, str) and OWNER.fullmatch(owner) and isinstance(name, str)
            and REPO_NAME.fullmatch(name) and name not in (".", "..")):
        raise GitHubError(f"{owner}/{name}: not a GitHub repository name")
    return f"{owner}/{name}"


def _check_ref(ref: str) -> str:
    if not is_valid_ref_name(ref):
        raise GitHubError(f"{ref!r}: not a valid branch or tag name")
    return ref


def _object(doc: Any, what: str) -> tuple[str, str]:
    """The (type, sha) a git ref or tag object points to."""
    target = doc.get("object") if isinstance(doc, dict) else None
    if isinstance(doc, list):
        raise GitHubError(f"{what}: GitHub matched several refs where one was asked for")
    kind = target.get("type") if isinstance(target, dict) else None
    sha = target.get("sha") if isinstance(target, dict) else None
    if not isinstance(kind, str) or not isinstance(sha, str) or not SHA1.fullmatch(sha):
        raise GitHubError(f"{what}: GitHub sent a ref without an object type and SHA")
    return kind, sha


def _message(body: bytes) -> str:
    try:
        doc = json.loads(body)
    except (ValueError, TypeError):
        return ""
    message = doc.get("message") if isinstance(doc, dict) else None
    return " ".join(message.split())[:300] if isinstance(message, str) else ""


def _http_date(value: str | None) -> float | None:
    """An HTTP date as epoch seconds (a date without a zone taken as UTC), None if there is none."""
    if not value:
        return None
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).timestamp()


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None
