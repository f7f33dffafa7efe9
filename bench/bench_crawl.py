#!/usr/bin/env python3
"""Benchmark capindex's crawler: a synthetic federation of 1,000 index documents over loopback.

Requirement: a synthetic federation of 1,000 index documents (20 packages each, a tree about
10 levels deep, with a cycle and a diamond) served from loopback, crawled with limits large
enough to reach all of it. Report documents/s and peak RSS for a first crawl and for a
second, unchanged crawl. Targets: the first crawl at least 400 documents/s on this 2-core
machine, stored and validated; the unchanged second crawl at least 10 times faster than the
first.

The federation is a binary tree of index documents (node i federates to 2i+1 and 2i+2), plus
a cycle (the last, deepest node federates back to the root) and a diamond (node 6 also
federates to node 9, the child of node 4, so 9 and its subtree are reachable two ways). It is
served by a static file server in a separate process (so the crawler's CPU is measured alone):
HTTP/1.1 keep-alive, ETag, Last-Modified, Cache-Control: public, max-age=600, 304 answers to
If-None-Match / If-Modified-Since, as GitHub Pages or a CDN would serve it. The server counts
the requests it answers; they are reported per step.

Each measured step is the real CLI in a fresh child process; wall seconds include interpreter
start-up and imports, peak RSS is that child's own ru_maxrss from os.wait4:

    A  first crawl (empty DB):  capindex --db DB --json crawl federation ROOT --allow-private
                                         --max-depth 50 --max-indexes 5000
    B  second crawl, unchanged: the same command on the same DB (every document is still fresh
                                per Cache-Control, so no request should be needed)
    C  revalidating crawl:      the same command plus --revalidate (conditional requests, 304s);
                                reported for information

Usage:
    python bench/bench_crawl.py [--documents 1000] [--packages 20] [--runs 3] [--json] [--keep]
    python bench/bench_crawl.py --profile first|revalidate [--profile-out FILE]

`--profile STEP` runs step A (first) or C (revalidate) in-process (indexer.crawl.crawl, the code
path of the CLI) under cProfile: the crawler's own process (frontier, writes, and the parsing it
takes on); its worker process (fetching, parsing) is not profiled. Then it runs the step again
unprofiled and reports the wall time of the crawler's store steps and of every SQL statement,
to show where a document's time goes.
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import http.server
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter, deque
from email.utils import formatdate, parsedate_to_datetime
from pathlib import Path
from typing import Any, ClassVar

from common import ROOT, capindex_command, code_version, helper, machine, mb, remove_db, run_child  # noqa: E402

BENCH = Path(__file__).resolve().parent
DEFAULT_WORKDIR = ROOT / "bench" / "out"
SEED = 20260202
GENERATED_AT = "2026-01-01T00:00:00.000Z"
MTIME = 1767225600  # 2026-01-01T00:00:00Z: every generated file's mtime, so Last-Modified is stable
PORT_PLACEHOLDER = "127.0.0.1:PORT"
STATS_PATH = "/__bench__/stats"

TARGET_FIRST_DOCS_S = 400
TARGET_SPEEDUP = 10  # first crawl seconds / unchanged second crawl seconds

CRAWL_LIMITS = ["--allow-private", "--max-depth", "50", "--max-indexes", "5000"]


# -- the federation ------------------------------------------------------------------------------


def diamond(n: int) -> tuple[int, int]:
    """(extra parent, shared child): node 6 also federates to node 9 (whose parent is node 4)."""
    return 6, 9


def links_of(i: int, n: int) -> list[int]:
    """Which nodes node i federates to: its binary-tree children, plus the cycle and the diamond."""
    out = [c for c in (2 * i + 1, 2 * i + 2) if c < n]
    parent, child = diamond(n)
    if i == parent:
        out.append(child)
    if i == n - 1:
        out.append(0)  # the cycle: the last (deepest) node federates back to the root
    return out


def shape(n: int) -> dict[str, Any]:
    """Depth (BFS from the root, as the crawler sees it), edges, and what the cycle and diamond are."""
    depth = {0: 0}
    queue = deque([0])
    edges = 0
    while queue:
        i = queue.popleft()
        for c in links_of(i, n):
            edges += 1
            if c not in depth:
                depth[c] = depth[i] + 1
                queue.append(c)
    parent, child = diamond(n)
    return {
        "documents": n,
        "reachable": len(depth),
        "levels": max(depth.values()) + 1,
        "max_depth": max(depth.values()),
        "federates_links": edges,
        "cycle": f"index {n - 1} (depth {depth[n - 1]}) -> index 0 (the root)",
        "diamond": f"index {(child - 1) // 2} and index {parent} -> index {child} (and its subtree)",
    }


def doc_name(i: int, n: int) -> str:
    return f"index-{i:0{max(4, len(str(n - 1)))}d}.json"


def build_document(i: int, n: int, packages: int, caps: int, base: str) -> dict[str, Any]:
    import random

    from bench_core import _integrity, _manifest, _semver  # the same realistic manifests as the core bench

    rng = random.Random(SEED * 100_003 + i)
    pkgs = []
    for p in range(packages):
        capabilities = []
        for k in range(caps):
            m = _manifest(rng, (i * packages + p) * caps + k)
            capabilities.append({"manifest": m, "module": f"./dist/{m['id'].split('/')[1]}.js"})
            if rng.random() < 0.5:
                capabilities[-1]["integrity"] = _integrity(rng)
        pkgs.append({
            "name": f"@fed{i:04d}/pkg-{p:02d}",
            "version": _semver(rng),
            "source": rng.choice(["npm", "npm", "npm", "pypi", "git"]),
            "repository": f"https://github.com/fed{i:04d}/pkg-{p:02d}",
            "integrity": _integrity(rng),
            "capabilities": capabilities,
        })
    return {
        "indexVersion": "0.1",
        "generatedAt": GENERATED_AT,
        "metadata": {"name": f"federation node {i}", "generator": "bench/bench_crawl.py", "seed": str(SEED)},
        "federates": [f"http://{base}/{doc_name(c, n)}" for c in links_of(i, n)],
        "packages": pkgs,
    }


def write_federation(outdir: Path, n: int, packages: int, caps: int, port: int) -> dict[str, Any]:
    """Write the n documents for a server on `port`; the digest is over the port-independent text."""
    from schemas.documents import parse_json, validate_index

    t0 = time.perf_counter()
    shutil.rmtree(outdir, ignore_errors=True)
    outdir.mkdir(parents=True)
    digest = hashlib.sha256()
    total = 0
    validated = 0
    for i in range(n):
        doc = build_document(i, n, packages, caps, PORT_PLACEHOLDER)
        text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
        digest.update(text.encode("utf-8"))
        data = text.replace(PORT_PLACEHOLDER, f"127.0.0.1:{port}").encode("utf-8")
        if i in (0, 6, n - 1):  # the root, the diamond's extra parent and the cycle's node
            validate_index(parse_json(data, doc_name(i, n)), doc_name(i, n))
            validated += 1
        path = outdir / doc_name(i, n)
        path.write_bytes(data)
        os.utime(path, (MTIME, MTIME))
        total += len(data)
    return {
        "dir": str(outdir),
        "documents": n,
        "packages": n * packages,
        "capabilities": n * packages * caps,
        "bytes": total,
        "mean_document_bytes": total / n,
        "sha256": digest.hexdigest(),  # of the documents with the host:port as "127.0.0.1:PORT"
        "validated_with_validate_index": validated,
        "seconds": time.perf_counter() - t0,
    } | {"shape": shape(n)}


# -- the static server (a separate process) ------------------------------------------------------


class _Counts:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.status: Counter[str] = Counter()
        self.connections = 0
        self.bytes = 0
        self.conditional = 0


class StaticHandler(http.server.SimpleHTTPRequestHandler):
    """Static files as GitHub Pages or a CDN serves them: keep-alive, validators, freshness, 304."""

    protocol_version = "HTTP/1.1"
    server_version = "bench-static/1"
    disable_nagle_algorithm = True
    counts: ClassVar[_Counts] = _Counts()
    cache: ClassVar[dict[str, tuple[int, int, bytes, str, str]]] = {}

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def setup(self) -> None:
        super().setup()
        with self.counts.lock:
            self.counts.connections += 1

    def _count(self, status: int, sent: int, conditional: bool) -> None:
        with self.counts.lock:
            self.counts.status[str(status)] += 1
            self.counts.bytes += sent
            self.counts.conditional += conditional

    def do_GET(self) -> None:
        if self.path == STATS_PATH:
            with self.counts.lock:
                body = json.dumps({"status": dict(self.counts.status), "requests": sum(self.counts.status.values()),
                                   "connections": self.counts.connections, "bytes": self.counts.bytes,
                                   "conditional": self.counts.conditional}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)
            return
        self._serve(body=True)

    def do_HEAD(self) -> None:
        self._serve(body=False)

    def _file(self, path: str) -> tuple[int, int, bytes, str, str] | None:
        try:
            st = os.stat(path)
        except OSError:
            return None
        hit = self.cache.get(path)
        if hit and hit[0] == st.st_mtime_ns and hit[1] == st.st_size:
            return hit
        try:
            with open(path, "rb") as fh:
                data = fh.read()
        except OSError:
            return None
        etag = f'"{st.st_mtime_ns // 1_000_000_000:x}-{st.st_size:x}"'  # nginx's form: mtime-size
        entry = (st.st_mtime_ns, st.st_size, data, etag, formatdate(st.st_mtime, usegmt=True))
        self.cache[path] = entry
        return entry

    def _serve(self, body: bool) -> None:
        path = self.translate_path(self.path)
        entry = self._file(path) if os.path.isfile(path) else None
        inm, ims = self.headers.get("If-None-Match"), self.headers.get("If-Modified-Since")
        if entry is None:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            self._count(404, 0, False)
            return
        mtime_ns, size, data, etag, last_modified = entry
        not_modified = False
        if inm is not None:  # If-None-Match wins over If-Modified-Since (RFC 9110 13.2.2)
            tags = [t.strip() for t in inm.split(",")]
            not_modified = "*" in tags or etag in (t.removeprefix("W/") for t in tags)
        elif ims is not None:
            try:
                not_modified = mtime_ns // 1_000_000_000 <= parsedate_to_datetime(ims).timestamp()
            except (TypeError, ValueError):
                not_modified = False
        self.send_response(304 if not_modified else 200)
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", last_modified)
        self.send_header("Cache-Control", "public, max-age=600")
        if not_modified:
            self.end_headers()
            self._count(304, 0, True)
            return
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(size))
        self.end_headers()
        if body:
            self.wfile.write(data)
        self._count(200, size if body else 0, inm is not None or ims is not None)


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256  # the default backlog of 5 drops SYNs under a burst of connections


def serve(directory: str, port: int) -> None:
    handler = lambda *a, **kw: StaticHandler(*a, directory=directory, **kw)
    server = _Server(("127.0.0.1", port), handler)
    print(json.dumps({"port": server.server_address[1], "pid": os.getpid()}), flush=True)
    try:
        server.serve_forever(poll_interval=0.5)
    except KeyboardInterrupt:
        pass


class Server:
    """The static server as a child process of the harness; its counts and CPU time on demand."""

    def __init__(self, directory: Path, port: int = 0):
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--serve", str(directory),
                                      "--port", str(port)], stdout=subprocess.PIPE, cwd=ROOT, text=True)
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit("bench: the static server did not start")
        self.port = json.loads(line)["port"]

    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def counts(self) -> dict[str, Any]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            conn.request("GET", STATS_PATH)
            data = json.loads(conn.getresponse().read())
        finally:
            conn.close()
        data["cpu_seconds"] = self.cpu_seconds()
        return data

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def delta(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    status = {k: after["status"].get(k, 0) - before["status"].get(k, 0) for k in after["status"]}
    return {
        "requests": after["requests"] - before["requests"],  # stats requests are not counted
        "status": {k: v for k, v in status.items() if v},
        "connections": after["connections"] - before["connections"] - 1,  # minus the stats connection
        "bytes": after["bytes"] - before["bytes"],
        "conditional": after["conditional"] - before["conditional"],
        "server_cpu_seconds": after["cpu_seconds"] - before["cpu_seconds"],
    }


def load_check(base: str, n: int, threads: int) -> dict[str, Any]:
    """How fast the server alone answers: `threads` keep-alive connections fetch every document once."""
    urls = [f"/{doc_name(i, n)}" for i in range(n)]
    host, port = base.split("//")[1].split(":")
    got = [0] * threads
    errors: list[str] = []

    def worker(k: int) -> None:
        conn = http.client.HTTPConnection(host, int(port), timeout=30)
        try:
            for url in urls[k::threads]:
                conn.request("GET", url)
                resp = conn.getresponse()
                body = resp.read()
                if resp.status != 200:
                    errors.append(f"{url}: {resp.status}")
                got[k] += len(body)
        finally:
            conn.close()

    t0 = time.perf_counter()
    pool = [threading.Thread(target=worker, args=(k,)) for k in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    seconds = time.perf_counter() - t0
    return {"documents": n, "threads": threads, "seconds": seconds, "docs_per_s": n / seconds, "bytes": sum(got),
            "errors": errors[:5]}


# -- running the CLI as a child ------------------------------------------------------------------


# -- the benchmark -------------------------------------------------------------------------------

STEPS = {
    "first": "A first crawl (empty DB)",
    "unchanged": "B second crawl, unchanged",
    "revalidate": "C second crawl, --revalidate",
}


def summarize(runs: list[dict[str, Any]], documents: int) -> dict[str, Any]:
    secs = [r["seconds"] for r in runs]
    crawl_secs = [r["crawl_seconds"] for r in runs]
    peak = max(r["peak_rss_bytes"] for r in runs)
    return {
        "seconds_each": [round(s, 3) for s in secs],
        "median_seconds": statistics.median(secs),
        "median_docs_per_s": statistics.median(documents / s for s in secs),
        # the crawler's own timing (CrawlSummary.seconds): no interpreter start-up or imports
        "crawl_seconds_each": [round(s, 3) for s in crawl_secs],
        "median_crawl_seconds": statistics.median(crawl_secs),
        "median_crawl_docs_per_s": statistics.median(documents / s for s in crawl_secs),
        "peak_rss_bytes": peak,
        "peak_rss_mb": mb(peak),
        "median_user_seconds": statistics.median(r["user_seconds"] for r in runs),
        "median_system_seconds": statistics.median(r["system_seconds"] for r in runs),
        "server": runs[-1]["server"],
        "server_requests_each": [r["server"]["requests"] for r in runs],
        "median_server_cpu_seconds": statistics.median(r["server"]["server_cpu_seconds"] for r in runs),
        "outcomes": runs[-1]["outcomes"],
    }


def crawl_step(cli: list[str], db: Path, root: str, extra: list[str], log: Path, server: Server,
               documents: int) -> dict[str, Any]:
    before = server.counts()
    r = run_child([*cli, "--db", str(db), "--json", "crawl", "federation", root, *CRAWL_LIMITS, *extra], log,
                  check=False)
    r["server"] = delta(before, server.counts())
    try:
        summary = json.loads(r["stdout"])
    except json.JSONDecodeError:
        raise SystemExit(f"bench: the crawl printed no JSON summary (exit {r['returncode']}); see {log}:\n"
                         f"{log.read_text()[-2000:]}") from None
    if r["returncode"] != 0 or summary["failures"]:
        raise SystemExit(f"bench: the crawl exited {r['returncode']} with failures: {summary['failures'][:5]}")
    if summary["queued"]:
        raise SystemExit(f"bench: the crawl left {summary['queued']} documents queued")
    r["crawl_seconds"] = summary["seconds"]
    r["outcomes"] = summary["outcomes"]
    r["documents_fetched"] = summary["documents"]
    r.pop("stdout")
    settled = sum(summary["outcomes"].values())
    if settled != documents:
        raise SystemExit(f"bench: the crawl settled {settled} documents, expected {documents}: {summary['outcomes']}")
    return r


def store_counts(cli: list[str], db: Path, log: Path) -> dict[str, int]:
    return json.loads(run_child([*cli, "--db", str(db), "--json", "stats"], log)["stdout"])


def benchmark(args: argparse.Namespace) -> dict[str, Any]:
    work = Path(args.workdir).resolve()
    work.mkdir(parents=True, exist_ok=True)
    say = (lambda *a: None) if args.json else (lambda *a: print(*a, file=sys.stderr, flush=True))
    cli = capindex_command()
    n = args.documents
    fed_dir = work / "federation"
    extra = [*(["--concurrency", str(args.concurrency)] if args.concurrency else []),
             *(["--per-host", str(args.per_host)] if args.per_host else [])]

    server = Server(fed_dir)
    try:
        say(f"server: pid {server.proc.pid}, {server.base()}")
        say(f"generating {n} index documents ({args.packages} packages x {args.caps} capabilities each) ...")
        gen = helper(__file__, ["--generate-only", str(fed_dir), "--documents", str(n), "--packages", str(args.packages),
                      "--caps", str(args.caps), "--port", str(server.port)])
        sh = gen["shape"]
        say(f"  {gen['bytes']:,} bytes ({gen['mean_document_bytes']:,.0f} per document), {sh['levels']} levels, "
            f"{sh['federates_links']} federates links; cycle: {sh['cycle']}; diamond: {sh['diamond']} "
            f"({gen['seconds']:.1f} s)")
        root = f"{server.base()}/{doc_name(0, n)}"

        before = server.counts()
        load = helper(__file__, ["--load-only", server.base(), "--documents", str(n), "--threads", str(args.per_host or 8)])
        load["server"] = delta(before, server.counts())
        say(f"server alone: {n} documents over {load['threads']} keep-alive connections in {load['seconds']:.2f} s "
            f"= {load['docs_per_s']:,.0f} docs/s (server CPU {load['server']['server_cpu_seconds']:.2f} s)")

        startup_db = work / "crawl-startup.db"
        remove_db(startup_db)
        startup = run_child([*cli, "--db", str(startup_db), "stats"], work / "crawl-startup.log")
        remove_db(startup_db)

        steps: dict[str, list[dict[str, Any]]] = {s: [] for s in STEPS}
        stores: list[dict[str, int]] = []
        for i in range(1, args.runs + 1):
            db = work / f"crawl-run{i}.db"
            remove_db(db)
            for step, flags in (("first", []), ("unchanged", []), ("revalidate", ["--revalidate"])):
                r = crawl_step(cli, db, root, [*extra, *flags], work / f"crawl-{step}{i}.log", server, n)
                steps[step].append(r)
                s = r["server"]
                say(f"run {i}: {step:<10} {r['seconds']:6.2f} s {n / r['seconds']:8,.0f} docs/s  peak RSS "
                    f"{mb(r['peak_rss_bytes']):5.1f} MB  (crawler's own {r['crawl_seconds']:.2f} s)  server: "
                    f"{s['requests']} requests {s['status']}, {s['connections']} connections, "
                    f"CPU {s['server_cpu_seconds']:.2f} s  outcomes {r['outcomes']}")
                if step == "first":
                    counts = store_counts(cli, db, work / f"crawl-stats{i}.log")
                    stores.append(counts)
                    want = {"documents": n, "sources": n, "packages": gen["packages"],
                            "capabilities": gen["capabilities"], "sources_failing": 0, "conflicts": 0}
                    wrong = {k: (counts.get(k), v) for k, v in want.items() if counts.get(k) != v}
                    if wrong:
                        raise SystemExit(f"bench: run {i}: the store after the first crawl: {wrong} (got, expected)")
                    say(f"run {i}: store holds {counts['documents']} documents, {counts['packages']:,} packages, "
                        f"{counts['capabilities']:,} capabilities: as generated")
            after = store_counts(cli, db, work / f"crawl-stats{i}-after.log")
            if after != stores[-1]:
                raise SystemExit(f"bench: run {i}: the unchanged crawls changed the store: {stores[-1]} -> {after}")
            if not args.keep:
                remove_db(db)
    finally:
        server.stop()

    res: dict[str, Any] = {
        "benchmark": "capindex crawl: a synthetic federation over loopback",
        "machine": machine(),
        "code": code_version(),
        "parameters": {
            "documents": n, "packages_per_document": args.packages, "capabilities_per_package": args.caps,
            "runs": args.runs, "seed": SEED, "command": ["capindex", "--db", "DB", "--json", "crawl", "federation",
                                                         root, *CRAWL_LIMITS, *extra],
        },
        "federation": gen,
        "server_alone": load,
        "startup": {"seconds": startup["seconds"], "peak_rss_bytes": startup["peak_rss_bytes"]},
        "harness_peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
        "store_after_first": stores[0],
    }
    for step in STEPS:
        res[step] = summarize(steps[step], n)
    a, b, c = (res[s]["median_seconds"] for s in STEPS)
    res["ratios"] = {
        "first_over_unchanged": a / b,
        "first_over_unchanged_each": [round(x["seconds"] / y["seconds"], 2)
                                      for x, y in zip(steps["first"], steps["unchanged"])],
        "first_over_revalidate": a / c,
        "crawler_own_first_over_unchanged": res["first"]["median_crawl_seconds"] / res["unchanged"]["median_crawl_seconds"],
    }
    res["targets"] = {
        "first_docs_per_s": {"target": TARGET_FIRST_DOCS_S, "measured": res["first"]["median_docs_per_s"],
                             "pass": res["first"]["median_docs_per_s"] >= TARGET_FIRST_DOCS_S},
        "unchanged_speedup": {"target": TARGET_SPEEDUP, "measured": res["ratios"]["first_over_unchanged"],
                              "pass": res["ratios"]["first_over_unchanged"] >= TARGET_SPEEDUP},
    }
    res["checks"] = {
        "first_crawl_stored_all": True,  # verified above, or the bench stopped
        "unchanged_crawl_requests": res["unchanged"]["server_requests_each"],
        "unchanged_crawl_needed_no_request": all(x == 0 for x in res["unchanged"]["server_requests_each"]),
        "revalidate_all_304": all(x["server"]["status"] == {"304": n} for x in steps["revalidate"]),
    }
    return res


def print_table(res: dict[str, Any]) -> None:
    m, p, g, ld = res["machine"], res["parameters"], res["federation"], res["server_alone"]
    verdict = lambda ok: "PASS" if ok else "FAIL"
    n = p["documents"]
    print()
    print(f"machine: {m['nproc']} CPU(s), {m['cpu_model']}, {(m['memory_bytes'] or 0) / 2**30:.1f} GiB RAM, "
          f"Python {m['python']}, SQLite {m['sqlite']}")
    code = res["code"]
    print(f"code:    commit {code['commit']}" + (f", uncommitted changes in {', '.join(code['uncommitted_library_files'])}"
                                                 if code["uncommitted_library_files"] else ""))
    print(f"input:   {n:,} index documents, {g['packages']:,} packages, {g['capabilities']:,} capabilities, "
          f"{g['bytes']:,} bytes ({g['mean_document_bytes']:,.0f} per document), {g['shape']['levels']} levels, "
          f"sha256 {g['sha256'][:16]}…")
    print(f"         cycle: {g['shape']['cycle']}; diamond: {g['shape']['diamond']}")
    print(f"runs:    {p['runs']} (median seconds and docs/s; max peak RSS); CLI start-up alone (`capindex stats`): "
          f"{res['startup']['seconds']:.2f} s, {mb(res['startup']['peak_rss_bytes']):.0f} MB; "
          f"harness peak RSS {mb(res['harness_peak_rss_bytes']):.0f} MB")
    print(f"server:  alone, {ld['docs_per_s']:,.0f} docs/s over {ld['threads']} keep-alive connections "
          f"(server CPU {ld['server']['server_cpu_seconds']:.2f} s for {n} documents)")
    print()
    head = (f"{'step':<31} {'median s':>9} {'docs/s':>8} {'crawler s':>10} {'peak RSS MB':>12} "
            f"{'requests':>9} {'server CPU s':>13}  outcomes")
    print(head)
    print("-" * len(head))
    for step, label in STEPS.items():
        s = res[step]
        st = s["server"]["status"]
        print(f"{label:<31} {s['median_seconds']:>9.2f} {s['median_docs_per_s']:>8,.0f} "
              f"{s['median_crawl_seconds']:>10.2f} {s['peak_rss_mb']:>12.1f} "
              f"{s['server']['requests']:>9} {s['median_server_cpu_seconds']:>13.2f}  {s['outcomes']}"
              + (f"  HTTP {st}" if st else ""))
    print()
    r, t = res["ratios"], res["targets"]
    print(f"first crawl: {t['first_docs_per_s']['measured']:,.0f} docs/s, target >= {TARGET_FIRST_DOCS_S}: "
          f"{verdict(t['first_docs_per_s']['pass'])}")
    print(f"unchanged second crawl: {r['first_over_unchanged']:.1f}x faster than the first (each run "
          f"{r['first_over_unchanged_each']}), target >= {TARGET_SPEEDUP}x: {verdict(t['unchanged_speedup']['pass'])}")
    print(f"revalidating second crawl: {r['first_over_revalidate']:.1f}x faster than the first (information)")
    print(f"crawler's own timing (no start-up): first/unchanged = {r['crawler_own_first_over_unchanged']:.1f}x")
    c = res["checks"]
    print(f"checks: store after the first crawl {res['store_after_first']}; unchanged crawl requests "
          f"{c['unchanged_crawl_requests']} (none needed: {c['unchanged_crawl_needed_no_request']}); "
          f"revalidate all 304: {c['revalidate_all_304']}")
    for step, label in STEPS.items():
        s = res[step]
        print(f"{label}: each run {s['seconds_each']} s (crawler's own {s['crawl_seconds_each']}); median user "
              f"{s['median_user_seconds']:.2f} s, system {s['median_system_seconds']:.2f} s")


# -- profiling -----------------------------------------------------------------------------------


class _TimedConnection:
    """A sqlite3.Connection stand-in that adds up the wall time of every statement by its text."""

    def __init__(self, conn: Any, spent: Counter[str], calls: Counter[str]):
        self._conn, self._spent, self._calls = conn, spent, calls

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)

    def _timed(self, fn: Any, sql: str, *a: Any) -> Any:
        key = " ".join(sql.split())[:72]
        t = time.perf_counter()
        try:
            return fn(sql, *a)
        finally:
            self._spent[key] += time.perf_counter() - t
            self._calls[key] += 1

    def execute(self, sql: str, *a: Any) -> Any:
        return self._timed(self._conn.execute, sql, *a)

    def executemany(self, sql: str, *a: Any) -> Any:
        return self._timed(self._conn.executemany, sql, *a)


def profile(args: argparse.Namespace) -> None:
    """One crawl step in-process: cProfile per thread, then unprofiled timings of the crawler's
    store steps (they run on the event loop's thread) and of every SQL statement."""
    import cProfile
    import io
    import pstats

    sys.path.insert(0, str(ROOT))
    from indexer import client as client_mod
    from indexer import crawl as crawl_mod
    from indexer.client import Limits

    work = Path(args.workdir).resolve()
    work.mkdir(parents=True, exist_ok=True)
    n = args.documents
    fed_dir = work / "federation"
    step = args.profile
    server = Server(fed_dir)
    try:
        helper(__file__, ["--generate-only", str(fed_dir), "--documents", str(n), "--packages", str(args.packages),
                "--caps", str(args.caps), "--port", str(server.port)])
        root = f"{server.base()}/{doc_name(0, n)}"
        limits = Limits(allow_private=True, **({"concurrency": args.concurrency} if args.concurrency else {}),
                        **({"per_host": args.per_host} if args.per_host else {}))
        options = crawl_mod.CrawlOptions(max_depth=50, max_indexes=5000, limits=limits,
                                         revalidate=step == "revalidate")
        db = work / "crawl-profile.db"

        def prepare() -> None:  # the store the profiled step starts from
            remove_db(db)
            if step != "first":
                run_child([*capindex_command(), "--db", str(db), "--json", "crawl", "federation", root, *CRAWL_LIMITS],
                          work / "crawl-profile-setup.log")

        # 1. cProfile, one profiler per thread (a cProfile.Profile only sees the thread that enabled it)
        prepare()
        profiles: dict[str, cProfile.Profile] = {}
        lock = threading.Lock()

        def start_thread_profiler(*_: Any) -> None:
            prof = cProfile.Profile()
            with lock:
                profiles[threading.current_thread().name] = prof
            prof.enable()  # replaces this hook for the rest of the thread's life

        main_prof = cProfile.Profile()
        threading.setprofile(start_thread_profiler)
        t0 = time.perf_counter()
        main_prof.enable()
        try:
            summary = crawl_mod.crawl(db, [root], [], options)
        finally:
            main_prof.disable()
            threading.setprofile(None)  # type: ignore[arg-type]
        profiled = time.perf_counter() - t0
        if summary.failures:
            raise SystemExit(f"bench: profiled crawl failed: {summary.failures[:3]}")
        print(f"profiled {step} crawl: {n} documents in {profiled:.2f} s under cProfile (slower than unprofiled); "
              f"outcomes {summary.outcomes}\n")
        profiles = {"event loop (main thread)": main_prof, **profiles}
        combined = None
        for name, prof in profiles.items():
            out = io.StringIO()
            stats = pstats.Stats(prof, stream=out).strip_dirs()
            combined = pstats.Stats(prof) if combined is None else combined.add(prof)
            stats.sort_stats("cumulative").print_stats(args.profile_top)
            print(f"==== thread: {name}: top {args.profile_top} by cumulative time ====")
            print(out.getvalue())
            out.truncate(0)
            out.seek(0)
            stats.sort_stats("tottime").print_stats(args.profile_top)
            print(f"==== thread: {name}: top {args.profile_top} by own time ====")
            print(out.getvalue())
        if args.profile_out and combined is not None:
            combined.dump_stats(args.profile_out)

        # 2. unprofiled: wall time in each writer-thread step, in each SQL statement, and the whole crawl
        prepare()
        spent: Counter[str] = Counter()
        calls: Counter[str] = Counter()
        sql_spent: Counter[str] = Counter()
        sql_calls: Counter[str] = Counter()
        original_open, original_fetch = crawl_mod.Crawler._open, client_mod.GuardedClient.fetch
        store_steps = ("_grouped", "_settle_fresh", "_validators", "_queued_count", "_commit_group")
        original_steps = {name: getattr(crawl_mod.Crawler, name) for name in store_steps}
        fetch_spent = [0.0]

        def timed_step(name: str, fn: Any) -> Any:
            def run(*a: Any, **kw: Any) -> Any:
                t = time.perf_counter()
                try:
                    return fn(*a, **kw)
                finally:
                    spent[name] += time.perf_counter() - t
                    calls[name] += 1

            return run

        def timed_open(self: Any) -> None:
            original_open(self)
            self._store.db.conn = _TimedConnection(self._store.db.conn, sql_spent, sql_calls)

        async def timed_fetch(self: Any, *a: Any, **kw: Any) -> Any:
            t = time.perf_counter()
            try:
                return await original_fetch(self, *a, **kw)
            finally:
                fetch_spent[0] += time.perf_counter() - t

        from index import ingest as ingest_mod

        original_prepared, original_digest = ingest_mod.prepared_events, ingest_mod._digest_and_size
        parse_spent = [0.0, 0.0]  # parsing, validating, canonicalising packages; the digest pass

        def timed_prepared(*a: Any, **kw: Any) -> Any:
            events = original_prepared(*a, **kw)
            while True:
                t = time.perf_counter()
                try:
                    event = next(events)
                except StopIteration:
                    return
                finally:
                    parse_spent[0] += time.perf_counter() - t
                yield event

        def timed_digest(*a: Any) -> Any:
            t = time.perf_counter()
            try:
                return original_digest(*a)
            finally:
                parse_spent[1] += time.perf_counter() - t

        for name, fn in original_steps.items():
            setattr(crawl_mod.Crawler, name, timed_step(name, fn))
        crawl_mod.Crawler._open = timed_open  # type: ignore[method-assign]
        client_mod.GuardedClient.fetch = timed_fetch  # type: ignore[method-assign]
        ingest_mod.prepared_events = timed_prepared
        ingest_mod._digest_and_size = timed_digest
        cpu0 = time.process_time()
        t0 = time.perf_counter()
        try:
            summary = crawl_mod.crawl(db, [root], [], options)
        finally:
            for name, fn in original_steps.items():
                setattr(crawl_mod.Crawler, name, fn)
            crawl_mod.Crawler._open = original_open  # type: ignore[method-assign]
            client_mod.GuardedClient.fetch = original_fetch  # type: ignore[method-assign]
            ingest_mod.prepared_events = original_prepared
            ingest_mod._digest_and_size = original_digest
        wall = time.perf_counter() - t0
        cpu = time.process_time() - cpu0
        busy = sum(spent.values())
        print(f"==== unprofiled {step} crawl: {wall:.2f} s wall ({n / wall:,.0f} docs/s), process CPU {cpu:.2f} s; "
              f"store steps {busy:.2f} s ({100 * busy / wall:.0f}% of wall) ====")
        for name, secs in spent.most_common():
            print(f"  store   {name:<24} {secs:7.3f} s {calls[name]:6d} calls {1000 * secs / calls[name]:7.3f} ms each")
        print(f"  loop    client.fetch, summed over concurrent fetches: {fetch_spent[0]:.3f} s")
        if parse_spent[0] or parse_spent[1]:
            print(f"  within _ingest: parsing, validating and canonicalising packages (package_stream.prepared_events)"
                  f" {parse_spent[0]:.3f} s; digest pass (_digest_and_size) {parse_spent[1]:.3f} s")
        total_sql = sum(sql_spent.values())
        print(f"==== SQL statements: {total_sql:.2f} s in all ({100 * total_sql / wall:.0f}% "
              f"of wall), top {args.profile_top} ====")
        for sql, secs in sql_spent.most_common(args.profile_top):
            print(f"  {secs:7.3f} s {sql_calls[sql]:6d} calls {1000 * secs / sql_calls[sql]:7.3f} ms each  {sql}")
        if not args.keep:
            remove_db(db)
    finally:
        server.stop()


# -- command line --------------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--documents", type=int, default=1000, help="index documents in the federation (>= 10)")
    ap.add_argument("--packages", type=int, default=20, help="packages per document")
    ap.add_argument("--caps", type=int, default=2, help="capabilities per package")
    ap.add_argument("--runs", type=int, default=3, help="repetitions of A, B, C (each run on a fresh DB)")
    ap.add_argument("--concurrency", type=int, default=None, help="pass --concurrency N to the crawler (default: its own)")
    ap.add_argument("--per-host", type=int, default=None, help="pass --per-host N to the crawler (default: its own)")
    ap.add_argument("--workdir", default=str(DEFAULT_WORKDIR), help="scratch directory (default bench/out/)")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    ap.add_argument("--keep", action="store_true", help="keep the databases")
    ap.add_argument("--profile", choices=["first", "revalidate"],
                    help="profile one crawl step in-process (cProfile per thread, then step and SQL timings)")
    ap.add_argument("--profile-top", type=int, default=25, help="with --profile: entries per listing")
    ap.add_argument("--profile-out", metavar="FILE", help="with --profile: also save the combined raw cProfile stats")
    # internal: the server and the helpers the measuring parent runs as children
    ap.add_argument("--serve", metavar="DIR", help=argparse.SUPPRESS)
    ap.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--generate-only", metavar="DIR", help=argparse.SUPPRESS)
    ap.add_argument("--load-only", metavar="BASE", help=argparse.SUPPRESS)
    ap.add_argument("--threads", type=int, default=8, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.documents < 10 or args.runs < 1 or args.packages < 1 or args.caps < 1:
        ap.error("--documents must be at least 10; --runs, --packages and --caps at least 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.serve:
        serve(args.serve, args.port)
        return 0
    if args.generate_only:
        sys.path[:0] = [str(ROOT), str(BENCH)]
        print(json.dumps(write_federation(Path(args.generate_only), args.documents, args.packages, args.caps,
                                          args.port)))
        return 0
    if args.load_only:
        print(json.dumps(load_check(args.load_only, args.documents, args.threads)))
        return 0
    if args.profile:
        profile(args)
        return 0
    res = benchmark(args)
    if args.json:
        print(json.dumps(res, indent=2))
    else:
        print_table(res)
    ok = all(t["pass"] for t in res["targets"].values())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
