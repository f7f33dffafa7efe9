"""Crawling federations and sites against real HTTP servers on loopback."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from conftest import index_doc, package, rows
from index.store import Store
from indexer.client import Limits
from indexer.crawl import CrawlOptions, crawl

FAST = Limits(concurrency=8, per_host=4, total_timeout=5.0, allow_private=True)


def options(**kw) -> CrawlOptions:
    limits = kw.pop("limits", FAST)
    return CrawlOptions(limits=limits, **{"max_depth": 10, "max_indexes": 1000, **kw})


def idx(name: str, *federates: str, generated_at: str = "2026-05-01T00:00:00Z", packages=None) -> dict:
    pkgs = packages if packages is not None else [package(f"pkg-{name}", "1.0.0", f"{name}/op")]
    doc = index_doc(*pkgs, generated_at=generated_at)
    doc["federates"] = list(federates)
    return doc


def processes_mentioning(text: str) -> list[int]:
    """Live processes whose command line contains `text` (read from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as fh:
                    if text.encode() in fh.read():
                        found.append(int(entry))
            except OSError:
                continue
    return found


@pytest.mark.parametrize("worker", [True, False], ids=["worker", "one-process"])
def test_cycle_and_diamond_are_fetched_once(web, db_path, worker):
    a, b, c, d = (web.url(f"/{n}.json") for n in "abcd")
    web.json("/a.json", idx("a", b, c))
    web.json("/b.json", idx("b", d))
    web.json("/c.json", idx("c", d.replace("/d.json", "/./x/../d.json")))  # another spelling of d
    web.json("/d.json", idx("d", a.replace("/a.json", "/b/../a.json#again")))  # back to a: a cycle
    summary = crawl(db_path, [a + "#top"], [], options(worker=worker))
    assert summary.failures == [] and summary.documents == 4
    assert web.hits == {"/a.json": 1, "/b.json": 1, "/c.json": 1, "/d.json": 1}
    assert summary.outcomes == {"stored": 4}
    with Store(db_path) as store:
        assert store.counts()["packages"] == 4


@pytest.mark.parametrize("worker", [True, False], ids=["worker", "one-process"])
def test_failures_are_recorded_and_the_crawl_goes_on(web, db_path, worker):
    paths = {
        "missing": None,
        "error": dict(status=500),
        "slow": dict(delay=3.0),
        "drip": dict(drip=0.2, body=b" " * 50 + b"{}"),
        "big": dict(body=b" " * 300_000 + b"{}"),
        "big-chunked": dict(body=b" " * 300_000 + b"{}", chunked=True),
        "notjson": dict(body=b"<html>not json</html>"),
        "deep": dict(body=b'{"packages": [' + b"[" * 100_000 + b"]" * 100_000 + b"]}"),
        "invalid": dict(body=json.dumps(idx("bad", packages=[package("bad", "1.0.0", "Bad Id")])).encode()),
        "relative": dict(body=json.dumps(idx("rel", "./sibling.json")).encode()),
        "site-not-index": dict(body=json.dumps({"capabilityDiscoveryVersion": "0.1", "indexes": ["https://x.example/i.json"]}).encode()),
    }
    from webserver import Route

    for name, spec in paths.items():
        if spec is not None:
            web.routes[f"/{name}.json"] = Route(**({"body": b"{}"} | spec))
    good = web.json("/good.json", idx("good"))
    root = web.json("/root.json", idx("root", good, *(web.url(f"/{n}.json") for n in paths)))
    limits = Limits(concurrency=16, per_host=16, total_timeout=1.5, max_bytes=250_000, allow_private=True)
    summary = crawl(db_path, [root], [], options(limits=limits, worker=worker))
    reasons = {f["url"].rsplit("/", 1)[1][:-5]: f["error"] for f in summary.failures}
    assert set(reasons) == set(paths)
    assert reasons["missing"] == "HTTP 404" and reasons["error"] == "HTTP 500"
    assert reasons["slow"].startswith("timed out") and reasons["drip"].startswith("timed out")
    assert reasons["big"].startswith("too large") and reasons["big-chunked"].startswith("too large")
    assert "not JSON" in reasons["notjson"] and "nested too deeply" in reasons["deep"]
    assert "$.packages[0].capabilities[0].manifest.id" in reasons["invalid"]
    assert "$.federates[0]" in reasons["relative"]
    assert "expected an index document" in reasons["site-not-index"]
    assert summary.outcomes == {"stored": 2, "failed": len(paths)}
    errors = dict(rows(db_path, "SELECT url, last_error FROM sources WHERE last_status = 'error'"))
    assert errors[web.url("/missing.json")] == "HTTP 404" and len(errors) == len(paths)
    assert rows(db_path, "SELECT COUNT(*) FROM packages") == [(2,)]


def test_the_address_policy_refuses_internal_targets_on_every_hop(web, db_path):
    target = web.json("/i.json", idx("i"))
    # policy on: the loopback server itself is refused, and nothing is fetched
    summary = crawl(db_path, [target], [], options(limits=Limits(total_timeout=5.0)))
    assert "refused" in summary.failures[0]["error"] and "loopback" in summary.failures[0]["error"]
    assert web.hits == {}
    # only 127.0.0.1 allowed: redirects to other internal addresses and a name that also
    # resolves to ::1 are refused before any connection
    allowed = Limits(total_timeout=5.0, allowed_networks=("127.0.0.1/32",))
    web.redirect("/to-private", "http://10.255.255.1/index.json")
    web.redirect("/to-loopback", f"http://127.0.0.2:{web.port}/i.json")
    web.redirect("/to-ok", "/i.json", status=301)
    root = web.json("/root.json", idx("root", web.url("/to-private"), web.url("/to-loopback"), web.url("/to-ok")))
    summary = crawl(db_path, [root], [], options(limits=allowed))
    reasons = {f["url"].rsplit("/", 1)[1]: f["error"] for f in summary.failures}
    assert "private address 10.255.255.1" in reasons["to-private"]
    assert "loopback address 127.0.0.2" in reasons["to-loopback"]
    assert "to-ok" not in reasons and web.hits["/i.json"] == 1
    only_v4 = Limits(total_timeout=5.0, allowed_networks=("127.0.0.1/32",))
    named = crawl(db_path, [f"http://localhost:{web.port}/i.json"], [], options(limits=only_v4, max_depth=0))
    if named.failures:  # localhost also resolves to ::1 here: one bad answer refuses the host
        assert "::1" in named.failures[0]["error"]


def test_redirect_loops_and_too_many_redirects_fail(web, db_path):
    for i in range(8):
        web.redirect(f"/r{i}", f"/r{i + 1}")
    web.redirect("/loop", "/loop")
    summary = crawl(db_path, [web.url("/r0"), web.url("/loop")], [], options())
    assert {f["error"] for f in summary.failures} == {"more than 5 redirects"}


def test_conflicting_package_from_two_indexes(web, db_path):
    a = web.json("/a.json", idx("a", packages=[package("shared", "1.0.0", "x/shared", integrity="sha512-A")]))
    b = web.json("/b.json", idx("b", packages=[package("shared", "1.0.0", "x/shared", integrity="sha512-B")]))
    root = web.json("/root.json", idx("root", a, b))
    summary = crawl(db_path, [root], [], options(limits=Limits(concurrency=1, allow_private=True)))
    assert summary.conflicts == ["shared@1.0.0"]
    with Store(db_path) as store:
        [conflict] = store.conflicts()
        assert {conflict.established["first_source"], conflict.other["first_source"]} == {a, b}


def test_conditional_requests_make_an_unchanged_crawl_cheap(web, db_path):
    urls = [web.url(f"/{i}.json") for i in range(6)]
    for i, url in enumerate(urls):
        web.json(f"/{i}.json", idx(str(i), *urls[i + 1:i + 3]), etag=(i % 2 == 0))
    first = crawl(db_path, [urls[0]], [], options())
    assert first.outcomes == {"stored": 6}
    before = rows(db_path, "SELECT * FROM sources ORDER BY id"), rows(db_path, "SELECT COUNT(*) FROM documents")
    second = crawl(db_path, [urls[0]], [], options())
    assert web.not_modified == 3  # the three with ETags answered 304
    assert second.outcomes == {"not modified": 3, "unchanged": 3}
    assert (rows(db_path, "SELECT * FROM sources ORDER BY id"), rows(db_path, "SELECT COUNT(*) FROM documents")) == before


def test_rollback_and_changed_versions_are_flagged_not_applied(web, db_path):
    url = web.json("/i.json", idx("i", generated_at="2026-05-01T00:00:00Z",
                                  packages=[package("p", "1.0.0", "x/p", integrity="sha512-one")]))
    crawl(db_path, [url], [], options())
    # the same URL now claims an older generatedAt: rejected, earlier state stays
    web.json("/i.json", idx("i", generated_at="2026-04-01T00:00:00Z", packages=[package("q", "1.0.0", "x/q")]))
    summary = crawl(db_path, [url], [], options())
    assert summary.outcomes == {"rejected": 1} and "older than" in summary.flags[0]
    assert rows(db_path, "SELECT name FROM packages p JOIN package_sightings s ON s.package_id = p.id") == [("p",)]
    # a newer document that changes a published version: the version keeps its earlier content
    web.json("/i.json", idx("i", generated_at="2026-06-01T00:00:00Z",
                            packages=[package("p", "1.0.0", "x/p", integrity="sha512-two"), package("r", "1.0.0", "x/r")]))
    summary = crawl(db_path, [url], [], options())
    assert summary.flags == ["p@1.0.0 changed content since an earlier crawl"]
    listed = rows(db_path, """SELECT p.name, p.integrity FROM packages p JOIN package_sightings s ON s.package_id = p.id
                               ORDER BY p.name""")
    assert listed == [("p", "sha512-one"), ("r", None)]
    assert rows(db_path, "SELECT kind FROM flags ORDER BY id") == [("rollback",), ("immutable",)]
    # --accept-rollback applies it, this once
    summary = crawl(db_path, [url], [], options(accept_rollback=True))
    listed = rows(db_path, """SELECT p.name, p.integrity FROM packages p JOIN package_sightings s ON s.package_id = p.id
                               ORDER BY p.name""")
    assert ("p", "sha512-two") in listed


def test_well_known_paths_first_valid_wins(web, db_path):
    target = web.json("/index.json", idx("target"))
    site = {"capabilityDiscoveryVersion": "0.1", "indexes": [target]}
    web.json("/.well-known/capabilities", site)
    web.json("/.well-known/capabilities.json", {"capabilityDiscoveryVersion": "0.1", "indexes": ["https://elsewhere.example/x.json"]})
    summary = crawl(db_path, [], [web.base], options())
    assert summary.failures == [] and web.hits.get("/.well-known/capabilities.json") is None
    assert web.hits["/index.json"] == 1

    other = type(web)()  # a second site: the first path is missing, the fallback is valid
    try:
        other.json("/.well-known/capabilities.json", site)
        summary = crawl(db_path, [], [other.base + "/some/page"], options())
        assert summary.failures == [] and other.hits["/.well-known/capabilities"] == 1
        assert other.hits["/.well-known/capabilities.json"] == 1
        # an invalid first document also falls through to the second
        other.json("/.well-known/capabilities", {"capabilityDiscoveryVersion": "0.1", "indexes": []})
        summary = crawl(db_path, [], [other.base], options())
        assert summary.failures == []
        other.routes.clear()
        summary = crawl(db_path, [], [other.base], options())
        assert "HTTP 404" in summary.failures[0]["error"]
    finally:
        other.close()


def test_limits_bound_depth_and_count(web, db_path):
    chain = [web.url(f"/{i}.json") for i in range(6)]
    for i, url in enumerate(chain):
        web.json(f"/{i}.json", idx(str(i), *chain[i + 1:i + 2]))
    summary = crawl(db_path, [chain[0]], [], options(max_depth=2))
    assert summary.outcomes == {"stored": 3, "depth limit": 1}
    summary = crawl(db_path, [chain[0]], [], options(max_depth=10, max_indexes=4))
    assert summary.documents == 4 and summary.outcomes.get("count limit") == 1


def test_a_crawl_killed_midway_resumes_and_finishes(web, db_path, tmp_path):
    from webserver import Route

    n = 40
    urls = [web.url(f"/{i}.json") for i in range(n)]
    for i in range(n):
        kids = [urls[j] for j in (2 * i + 1, 2 * i + 2) if j < n]
        web.routes[f"/{i}.json"] = Route(body=json.dumps(idx(str(i), *kids)).encode(), delay=0.15)
    cmd = [sys.executable, "-c", "from indexer.cli import entry_point; entry_point()", "--db", str(db_path),
           "--json", "crawl", "federation", urls[0], "--allow-private", "--max-depth", "10", "--concurrency", "2"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.time() + 30
    while time.time() < deadline:
        time.sleep(0.2)
        if not os.path.exists(db_path):
            continue
        try:
            done = rows(db_path, "SELECT COUNT(*) FROM crawl_queue WHERE state = 'done'")[0][0]
        except sqlite3.OperationalError:  # the store is still being created
            continue
        if done >= 8:
            break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    time.sleep(0.5)  # helper processes die with their parent: none lingers holding the store
    assert processes_mentioning(str(db_path)) == []
    done_before = {url for (url,) in rows(db_path, "SELECT url FROM crawl_queue WHERE state = 'done'")}
    assert 8 <= len(done_before) < n
    for route in web.routes.values():
        route.delay = 0
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["resumed"] is True and summary["outcomes"] == {"stored": n}
    assert rows(db_path, "SELECT COUNT(*) FROM packages") == [(n,)]
    assert rows(db_path, "SELECT COUNT(*) FROM documents") == [(n,)]
    assert rows(db_path, "SELECT COUNT(*), COUNT(DISTINCT url) FROM crawl_queue") == [(n, n)]
    # what was settled before the kill was not fetched again; only what was in flight or in an
    # uncommitted group was
    assert all(web.hits[url[len(web.base):]] == 1 for url in done_before)


def test_fresh_responses_need_no_request_until_they_go_stale(web, db_path):
    urls = [web.url(f"/{i}.json") for i in range(5)]
    for i, url in enumerate(urls):
        web.json(f"/{i}.json", idx(str(i), *urls[i + 1:i + 2]), etag=True,
                 headers={"Cache-Control": "public, max-age=300"} if i != 3 else {"Cache-Control": "no-cache"})
    crawl(db_path, [urls[0]], [], options())
    hits = dict(web.hits)
    second = crawl(db_path, [urls[0]], [], options())
    # 0-2 are fresh and settled without a request; 3 must be revalidated (304); 4 is fresh again
    assert second.outcomes == {"fresh": 4, "not modified": 1}
    assert web.hits == {**hits, "/3.json": 2} and web.not_modified == 1
    third = crawl(db_path, [urls[0]], [], options(revalidate=True))
    assert third.outcomes == {"not modified": 5} and web.not_modified == 6


def test_freshness_arithmetic():
    from indexer.client import freshness, header_map

    assert freshness(header_map([(b"Cache-Control", b"max-age=600"), (b"Age", b"100")])) == 500
    assert freshness(header_map([(b"Cache-Control", b"max-age=600, no-cache")])) == 0
    assert freshness(header_map([(b"Expires", b"Thu, 01 Jan 2026 00:10:00 GMT"), (b"Date", b"Thu, 01 Jan 2026 00:00:00 GMT")])) == 600
    assert freshness(header_map([(b"Expires", b"0"), (b"Date", b"Thu, 01 Jan 2026 00:00:00 GMT")])) == 0
    # a repeated header counts as one list (RFC 9110 5.3)
    assert freshness(header_map([(b"Cache-Control", b"public"), (b"cache-control", b"max-age=60")])) == 60
    assert freshness(header_map([])) == 0


def test_crawl_command_line(web, db_path, tmp_path, capsys):
    from indexer.cli import main

    a = web.json("/a.json", idx("a"))
    b = web.json("/b.json", idx("b"))
    roots = tmp_path / "roots.txt"
    roots.write_text(f"# indexes to crawl\n{b}\n\n")
    assert main(["--db", str(db_path), "--json", "crawl", "federation", a, "--from", str(roots), "--allow-private"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["outcomes"] == {"stored": 2} and summary["failures"] == []
    assert main(["--db", str(db_path), "crawl", "federation", "ftp://x.example/i.json"]) == 2
    assert main(["--db", str(db_path), "crawl", "federation"]) == 2
    assert main(["--db", str(db_path), "crawl", "site", web.base]) == 1  # policy on: loopback refused
    out = capsys.readouterr()
    assert "refused" in out.out and "Traceback" not in out.err
    assert main(["--db", str(db_path), "--json", "crawl", "federation", a, "--allow-network", "127.0.0.1/32"]) == 0
    assert json.loads(capsys.readouterr().out)["failures"] == []
    assert main(["--db", str(db_path), "crawl", "federation", a, "--allow-network", "not-a-cidr"]) == 2


def test_a_repeated_packages_key_keeps_the_last_when_prepared_by_the_worker(web, db_path):
    from webserver import Route

    first = json.dumps(package("first", "1.0.0", "x/first"))
    last = json.dumps(package("last", "1.0.0", "x/last"))
    body = (f'{{"packages": [{first}], "indexVersion": "0.1", "generatedAt": "2026-01-01T00:00:00Z",'
            f' "packages": [{last}]}}').encode()
    web.routes["/dup.json"] = Route(body=body)
    summary = crawl(db_path, [web.url("/dup.json")], [], options())
    assert summary.outcomes == {"stored": 1}
    assert rows(db_path, "SELECT name FROM packages") == [("last",)]


def test_gzip_and_deflate_bodies_are_decoded_and_capped_after_decoding(web, db_path):
    import gzip
    import zlib

    from webserver import Route

    doc = json.dumps(idx("z", packages=[package("zipped", "1.0.0", "x/zipped")])).encode()
    raw_deflate = zlib.compressobj(wbits=-zlib.MAX_WBITS)
    web.routes["/gzip.json"] = Route(body=gzip.compress(doc), headers={"Content-Encoding": "gzip"})
    web.routes["/zlib.json"] = Route(body=zlib.compress(doc), headers={"Content-Encoding": "deflate"})
    web.routes["/raw.json"] = Route(body=raw_deflate.compress(doc) + raw_deflate.flush(),
                                    headers={"Content-Encoding": "deflate"})
    bomb = gzip.compress(b" " * 5_000_000 + b"{}")  # ~5 KB on the wire, 5 MB decoded
    web.routes["/bomb.json"] = Route(body=bomb, headers={"Content-Encoding": "gzip"})
    web.routes["/br.json"] = Route(body=doc, headers={"Content-Encoding": "br"})
    web.routes["/broken.json"] = Route(body=b"not gzip at all", headers={"Content-Encoding": "gzip"})
    urls = {name: web.url(f"/{name}.json") for name in ("gzip", "zlib", "raw", "bomb", "br", "broken")}
    limits = Limits(allow_private=True, max_bytes=1_000_000)
    summary = crawl(db_path, list(urls.values()), [], options(limits=limits, max_depth=0))
    errors = {f["url"]: f["error"] for f in summary.failures}
    assert summary.outcomes == {"stored": 3, "failed": 3}
    assert errors[urls["bomb"]] == "too large: more than 1000000 bytes"
    assert errors[urls["br"]] == "unsupported Content-Encoding 'br'"
    assert errors[urls["broken"]].startswith("cannot decode its gzip Content-Encoding")
    assert rows(db_path, "SELECT COUNT(*) FROM packages") == [(1,)]  # one package, listed by three sources


def test_the_client_retries_429_5xx_and_dropped_connections_within_its_deadline(web):
    import asyncio
    import hashlib

    from webserver import Route

    from indexer.client import GuardedClient
    from indexer.fetching import FetchFailure, HttpStatusError

    web.routes["/flaky"] = Route(body=b'{"ok": true}', fail_first=2, fail_status=503)
    web.routes["/slow-down"] = Route(body=b'{"ok": 1}', fail_first=1, fail_status=429, fail_headers={"Retry-After": "1"})
    web.routes["/gone"] = Route(body=b"{}", fail_first=5, fail_status=404)
    web.routes["/down"] = Route(body=b"{}", fail_first=99, fail_status=500)

    async def run():
        limits = Limits(allow_private=True, retry_backoff=0.05, total_timeout=5.0)
        async with GuardedClient(limits) as client:
            flaky = await client.get(web.url("/flaky"), hash_with=("sha256", "sha512"))
            started = time.monotonic()
            polite = await client.get(web.url("/slow-down"))
            waited = time.monotonic() - started
            with pytest.raises(HttpStatusError) as gone:
                await client.get(web.url("/gone"))
            with pytest.raises(FetchFailure, match="HTTP 500"):
                await client.get(web.url("/down"))
            return flaky, polite, waited, gone.value

    flaky, polite, waited, gone = asyncio.run(run())
    assert flaky.body.read() == b'{"ok": true}' and web.hits["/flaky"] == 3
    assert flaky.digests == {"sha256": hashlib.sha256(b'{"ok": true}').hexdigest(),
                             "sha512": hashlib.sha512(b'{"ok": true}').hexdigest()}
    assert polite.status == 200 and waited >= 1.0  # Retry-After honoured
    assert gone.status == 404 and web.hits["/gone"] == 1  # not worth retrying
    assert gone.body == b'{"message": "try again"}' and gone.headers["content-type"] == "application/json"
    assert web.hits["/down"] == 3  # the first try and two retries


def test_credentials_are_not_sent_to_another_origin_on_a_redirect(web):
    import asyncio

    from webserver import Route, Web

    from indexer.client import GuardedClient

    other = Web()
    try:
        other.routes["/file"] = Route(body=b"{}")
        web.routes["/same"] = Route(status=302, headers={"Location": "/final"})
        web.routes["/final"] = Route(body=b"{}")
        web.routes["/away"] = Route(status=302, headers={"Location": other.url("/file")})

        async def run():
            async with GuardedClient(Limits(allow_private=True)) as client:
                for path in ("/same", "/away"):
                    await client.get(web.url(path), headers={"Authorization": "Bearer s3cret"})

        asyncio.run(run())
        seen = {"same origin": web.request_headers["/final"].get("Authorization"),
                "other origin": other.request_headers["/file"].get("Authorization")}
    finally:
        other.close()
    assert seen == {"same origin": "Bearer s3cret", "other origin": None}
