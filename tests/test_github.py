"""The GitHub API client against a loopback server that answers as api.github.com.

The responses under fixtures/github/api/ are GitHub REST API bodies (as documented for the
2022-11-28 version) stored at their API paths: `api/repos/octo-org/hello-capability.json` is
GET /repos/octo-org/hello-capability. fixtures/github/errors/ holds GitHub's error bodies. Every
answer carries GitHub's x-ratelimit-* headers; an unknown path is GitHub's 404.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from pathlib import Path

import pytest
from webserver import Route, Web

from indexer.client import GuardedClient
from indexer.fetching import Limits
from indexer.github import GitHub, GitHubError, RefResolution

FIXTURES = Path(__file__).parent / "fixtures" / "github"
LIMITS = Limits(concurrency=4, per_host=4, total_timeout=10.0, allow_private=True)
REPO = "/repos/octo-org/hello-capability"
MAIN = "6bd64a86011bd1a2a8516f3b1445fceed93c54dc"
FEATURE = "df29177b0caf797e8d2f413ae6ee2ea3ea63b035"
V100 = "79742e50d25239ec9b835f14617332a087f52498"
TAG_OBJECT = "634d88020403a60c4ce58ba44c2523eed0c8d2d1"
V110 = "aab52c69b1c087c097ac482c6e51bcd553c690e8"
RATE_LIMITED = re.compile(r"GitHub API rate limit exhausted until (\d\d:\d\d:\d\d)Z "
                          r"\(set GITHUB_TOKEN or retry later\)")


def error_body(name: str) -> bytes:
    return (FIXTURES / "errors" / f"{name}.json").read_bytes()


def rate_headers(remaining: int = 59, reset: int | None = None, resource: str = "core", limit: int = 60) -> dict:
    return {
        "x-ratelimit-limit": str(limit),
        "x-ratelimit-remaining": str(remaining),
        "x-ratelimit-reset": str(reset if reset is not None else int(time.time()) + 3600),
        "x-ratelimit-used": str(limit - remaining),
        "x-ratelimit-resource": resource,
        "x-github-api-version-selected": "2022-11-28",
        "x-github-media-type": "github.v3; format=json",
    }


class GitHubReplay(Web):
    """The project's loopback server (tests/webserver.py) answering as api.github.com: the recorded
    responses at their paths, GitHub's 404 for any other path, `script(path, ...)` routes served in
    turn (the last one stays), and the headers of every request kept in `requests`."""

    def __init__(self):
        super().__init__()
        self.requests: list[tuple[str, dict[str, str]]] = []
        self.scripts: dict[str, list[Route]] = {}
        for path in sorted((FIXTURES / "api").rglob("*.json")):
            api_path = "/" + path.relative_to(FIXTURES / "api").with_suffix("").as_posix()
            resource = "search" if api_path.startswith("/search/") else "core"
            self.routes[api_path] = Route(body=path.read_bytes(), headers=rate_headers(resource=resource))
        replay, base = self, self.httpd.RequestHandlerClass

        class Handler(base):
            def do_GET(self):
                with replay.lock:
                    replay.requests.append((self.path, {k.lower(): v for k, v in self.headers.items()}))
                    script = replay.scripts.get(self.path)
                    if script:
                        replay.routes[self.path] = script.pop(0) if len(script) > 1 else script[0]
                    if self.path not in replay.routes:
                        replay.routes[self.path] = Route(status=404, body=error_body("not-found"),
                                                         headers=rate_headers())
                super().do_GET()

        self.httpd.RequestHandlerClass = Handler

    def script(self, path: str, *routes: Route) -> None:
        self.scripts[path] = list(routes)

    def paths(self) -> list[str]:
        return [path for path, _ in self.requests]


@pytest.fixture
def api():
    server = GitHubReplay()
    yield server
    server.close()


def call(api: GitHubReplay, work, *, token: str | None = None, max_wait: float = 60.0):
    """Run `await work(github)` with a GitHub client over the guarded client, pointed at `api`."""
    async def run():
        async with GuardedClient(LIMITS) as client:
            return await work(GitHub(client, base_url=api.base, token=token, max_wait=max_wait))
    return asyncio.run(run())


def test_repo_is_a_trimmed_record_and_requests_carry_githubs_headers(api):
    record = call(api, lambda gh: gh.repo("octo-org", "hello-capability"))
    assert record == {
        "full_name": "octo-org/hello-capability",
        "owner": "octo-org",
        "name": "hello-capability",
        "id": 811204733,
        "default_branch": "main",
        "clone_url": "https://github.com/octo-org/hello-capability.git",
        "html_url": "https://github.com/octo-org/hello-capability",
        "description": "Capability 1.x manifests for the hello-world operations.",
        "topics": ["capability", "capability-index", "mcp"],
        "license": "Apache-2.0",
        "stargazers": 42,
        "archived": False,
        "fork": False,
        "pushed_at": "2026-04-28T09:12:44Z",
        "visibility": "public",
    }
    [(path, headers)] = api.requests
    assert path == REPO
    assert headers["accept"] == "application/vnd.github+json"
    assert headers["x-github-api-version"] == "2022-11-28"
    assert "authorization" not in headers


def test_a_token_is_sent_as_bearer_and_never_shown(api, caplog):
    caplog.set_level(logging.DEBUG)
    token = "ghp_s3cr3tT0kenValue0123456789abcdefABCD"
    reset = int(time.time()) + 3600
    api.script("/repos/octo-org/limited", Route(status=403, body=error_body("rate-limit"),
                                                 headers=rate_headers(remaining=0, reset=reset, limit=5000)))

    async def work(gh):
        record = await gh.repo("octo-org", "hello-capability")
        with pytest.raises(GitHubError) as failure:
            await gh.repo("octo-org", "limited")
        return gh, record, str(failure.value)

    gh, record, message = call(api, work, token=token)
    assert record["full_name"] == "octo-org/hello-capability"
    assert [headers.get("authorization") for _, headers in api.requests] == [f"Bearer {token}"] * 2
    assert message.startswith("GitHub API rate limit exhausted until ") and "GITHUB_TOKEN" not in message
    assert token not in repr(gh) and token not in message and token not in caplog.text


def test_no_ref_is_the_default_branch_head(api):
    resolved = call(api, lambda gh: gh.resolve_ref("octo-org", "hello-capability", None))
    assert resolved == RefResolution(None, "default", MAIN, "refs/heads/main")
    assert api.paths() == [REPO, f"{REPO}/git/ref/heads/main"]


@pytest.mark.parametrize("ref, commit, full", [
    ("main", MAIN, "refs/heads/main"),
    ("feature/caps", FEATURE, "refs/heads/feature/caps"),
    ("refs/heads/main", MAIN, "refs/heads/main"),
])
def test_a_branch_name_becomes_its_head_commit(api, ref, commit, full):
    resolved = call(api, lambda gh: gh.resolve_ref("octo-org", "hello-capability", ref))
    assert resolved == RefResolution(ref, "branch", commit, full)
    assert api.paths() == [f"{REPO}/git/ref/{full.removeprefix('refs/')}"]


def test_a_lightweight_tag_is_tried_after_the_branch(api):
    resolved = call(api, lambda gh: gh.resolve_ref("octo-org", "hello-capability", "v1.0.0"))
    assert resolved == RefResolution("v1.0.0", "tag", V100, "refs/tags/v1.0.0")
    assert api.paths() == [f"{REPO}/git/ref/heads/v1.0.0", f"{REPO}/git/ref/tags/v1.0.0"]


def test_an_annotated_tag_is_followed_to_its_commit(api):
    resolved = call(api, lambda gh: gh.resolve_ref("octo-org", "hello-capability", "v1.1.0"))
    assert resolved == RefResolution("v1.1.0", "tag", V110, "refs/tags/v1.1.0")
    assert resolved.commit != TAG_OBJECT
    assert api.paths()[-1] == f"{REPO}/git/tags/{TAG_OBJECT}"


def test_a_commit_sha_is_checked_to_exist(api):
    missing = "0000000000000000000000000000000000000001"
    api.routes[f"{REPO}/commits/{missing}"] = Route(status=422, body=error_body("no-commit"), headers=rate_headers())

    async def work(gh):
        found = await gh.resolve_ref("octo-org", "hello-capability", MAIN.upper())
        with pytest.raises(GitHubError) as failure:
            await gh.resolve_ref("octo-org", "hello-capability", missing)
        return found, str(failure.value)

    found, message = call(api, work)
    assert found == RefResolution(MAIN.upper(), "commit", MAIN)
    assert message == f"octo-org/hello-capability: no commit {missing}"
    assert api.paths()[:2] == [f"{REPO}/commits/{MAIN}", f"{REPO}/commits/{missing}"]


def test_an_abbreviated_sha_that_names_no_branch_or_tag_is_a_commit(api):
    api.routes[f"{REPO}/commits/{MAIN[:7]}"] = api.routes[f"{REPO}/commits/{MAIN}"]  # GitHub takes a short SHA
    resolved = call(api, lambda gh: gh.resolve_ref("octo-org", "hello-capability", MAIN[:7]))
    assert resolved == RefResolution(MAIN[:7], "commit", MAIN)
    assert api.paths() == [f"{REPO}/git/ref/heads/{MAIN[:7]}", f"{REPO}/git/ref/tags/{MAIN[:7]}",
                           f"{REPO}/commits/{MAIN[:7]}"]


def test_an_unknown_or_malformed_ref_is_a_clear_error(api):
    async def work(gh):
        messages = []
        for ref in ("no-such-thing", "../../orgs", "-x", "a b"):
            with pytest.raises(GitHubError) as failure:
                await gh.resolve_ref("octo-org", "hello-capability", ref)
            messages.append(str(failure.value))
        return messages

    unknown, *malformed = call(api, work)
    assert unknown == "octo-org/hello-capability: no branch or tag named 'no-such-thing'"
    assert all("not a valid branch or tag name" in m for m in malformed)
    assert api.paths() == [f"{REPO}/git/ref/heads/no-such-thing", f"{REPO}/git/ref/tags/no-such-thing", REPO]


def test_a_missing_repository_is_not_found_or_private(api):
    async def work(gh):
        messages = []
        for attempt in (lambda: gh.repo("octo-org", "missing"),
                        lambda: gh.resolve_ref("octo-org", "missing", "main"),
                        lambda: gh.resolve_ref("octo-org", "missing", MAIN)):
            with pytest.raises(GitHubError) as failure:
                await attempt()
            messages.append(str(failure.value))
        with pytest.raises(GitHubError, match="not a GitHub repository name"):
            await gh.repo("octo-org", "..")
        return messages

    assert call(api, work) == ["octo-org/missing: not found (or private)"] * 3
    assert "/repos/octo-org/.." not in api.paths()


def test_search_returns_trimmed_candidates(api):
    doc = json.loads((FIXTURES / "api" / "search" / "repositories.json").read_bytes())
    two = dict(doc, items=doc["items"][:2])
    api.routes["/search/repositories?q=topic%3Acapability&per_page=2&page=1"] = Route(
        body=json.dumps(two).encode(), headers=rate_headers(remaining=8, limit=10, resource="search"))
    api.routes["/search/repositories?q=topic%3Acapability&per_page=10&page=1"] = api.routes["/search/repositories"]

    async def work(gh):
        return await gh.search("topic:capability", limit=10), await gh.search("topic:capability", limit=2), gh

    found, first_two, gh = call(api, work)
    assert [r["full_name"] for r in found] == [
        "octo-org/hello-capability", "tinkerer/caps-playground", "oldcorp/capability-tools"]
    assert found[0] == call(api, lambda g: g.repo("octo-org", "hello-capability"))
    assert (found[1]["license"], found[1]["fork"], found[1]["description"]) == ("NOASSERTION", True, None)
    assert (found[2]["license"], found[2]["archived"], found[2]["default_branch"]) == (None, True, "master")
    assert first_two == found[:2]
    assert gh.rate_limits["search"].remaining == 8 and "core" not in gh.rate_limits


def test_search_pages_up_to_the_limit(api):
    item = json.loads((FIXTURES / "api" / "search" / "repositories.json").read_bytes())["items"][0]
    items = [dict(item, full_name=f"octo-org/cap-{n:03d}", name=f"cap-{n:03d}", id=n) for n in range(120)]
    for page, chunk in ((1, items[:100]), (2, items[100:])):
        body = json.dumps({"total_count": 120, "incomplete_results": False, "items": chunk}).encode()
        api.routes[f"/search/repositories?q=capability+in%3Areadme&per_page=100&page={page}"] = Route(body=body)

    async def work(gh):
        return await gh.search("capability in:readme", limit=150), await gh.search("capability in:readme", limit=110)

    everything, some = call(api, work)
    assert [r["full_name"] for r in everything] == [i["full_name"] for i in items]
    assert [r["id"] for r in some] == list(range(110))
    assert len(api.requests) == 4


def test_an_exhausted_rate_limit_that_resets_soon_is_waited_out(api):
    started = time.time()
    reset = int(started) + 2
    api.script(REPO, Route(status=403, body=error_body("rate-limit"), headers=rate_headers(remaining=0, reset=reset)),
               api.routes[REPO])
    record = call(api, lambda gh: gh.repo("octo-org", "hello-capability"))
    elapsed = time.time() - started
    assert record["default_branch"] == "main"
    assert api.paths() == [REPO, REPO]
    assert elapsed >= reset - started - 0.05  # not asked again before the reset


def test_an_exhausted_rate_limit_far_from_reset_is_one_clear_error(api):
    reset = int(time.time()) + 3600
    api.script(REPO, Route(status=403, body=error_body("rate-limit"), headers=rate_headers(remaining=0, reset=reset)))

    async def work(gh):
        messages = []
        for _ in range(2):
            started = time.monotonic()
            with pytest.raises(GitHubError) as failure:
                await gh.repo("octo-org", "hello-capability")
            assert time.monotonic() - started < 1.0
            messages.append(str(failure.value))
        return messages

    first, second = call(api, work)
    assert RATE_LIMITED.fullmatch(first), first
    assert RATE_LIMITED.fullmatch(first)[1] == time.strftime("%H:%M:%S", time.gmtime(reset))
    assert second == first
    assert api.paths() == [REPO]  # the second call knew the limit was exhausted and did not ask


def test_a_response_that_spends_the_last_request_delays_the_next(api):
    reset = int(time.time()) + 2
    api.script(REPO, Route(body=api.routes[REPO].body, headers=rate_headers(remaining=0, reset=reset)),
               api.routes[REPO])

    async def work(gh):
        await gh.repo("octo-org", "hello-capability")
        spent = time.time()
        await gh.repo("octo-org", "hello-capability")
        return spent, time.time()

    spent, done = call(api, work)
    assert done - spent >= reset - spent - 0.05
    assert api.paths() == [REPO, REPO]


@pytest.mark.parametrize("status", [403, 429])
def test_a_secondary_rate_limit_retry_after_is_honoured(api, status):
    limited = Route(status=status, body=error_body("secondary-rate-limit"),
                    headers={**rate_headers(remaining=4210, limit=5000), "Retry-After": "1"})
    api.script(REPO, limited, api.routes[REPO])
    api.script("/repos/octo-org/busy", Route(status=status, body=error_body("secondary-rate-limit"),
                                             headers={**rate_headers(remaining=4210), "Retry-After": "120"}))

    async def work(gh):
        started = time.monotonic()
        record = await gh.repo("octo-org", "hello-capability")
        waited = time.monotonic() - started
        with pytest.raises(GitHubError) as failure:
            await gh.repo("octo-org", "busy")
        return record, waited, str(failure.value), time.monotonic() - started - waited

    record, waited, message, failed_in = call(api, work, max_wait=60)
    assert record["name"] == "hello-capability"
    assert waited >= 1.0
    assert RATE_LIMITED.fullmatch(message), message
    assert failed_in < 1.0
    assert api.paths() == [REPO, REPO, "/repos/octo-org/busy"]


def test_a_plain_403_is_refused_at_once(api):
    api.routes["/repos/octo-org/blocked"] = Route(status=403, body=error_body("forbidden"), headers=rate_headers())
    started = time.monotonic()
    with pytest.raises(GitHubError, match=r"^octo-org/blocked: forbidden by GitHub \(Repository access blocked\)$"):
        call(api, lambda gh: gh.repo("octo-org", "blocked"))
    assert time.monotonic() - started < 1.0
    assert api.paths() == ["/repos/octo-org/blocked"]
