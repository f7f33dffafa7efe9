#!/usr/bin/env python3
"""Benchmark `capindex search` latency on a store of 1,000,000 capabilities.

Requirement (issue 7): with 1,000,000 capabilities in the store, p50 latency under 20 ms and p99
under 100 ms for typical 2-5 word needs.

The store is built once and cached under WORKDIR (default bench/out/search/), keyed by the
generator's parameters:

1. **Generates** index 0.1 documents (100,000 capabilities each) from real package summaries:
   the npm and PyPI lists in /work/.library/env/packages/ (`--corpus FILE`, repeatable; about
   970,000 summaries of 20+ characters), shuffled with a fixed seed. Each capability takes one
   summary as its description (so the words, their mix of common and rare ones, and the
   languages are those of real packages), an id `<package>/<first two content words>`, a name
   of the first content words, 1-4 tags drawn from them, 0-3 built-in effects. Consecutive
   capabilities share a package (1-3 per package, named after the first one's real package).
   A summary is reused only past the end of the corpus (about 3% of 1,000,000).
2. **Ingests** them with the real CLI in a child process (`capindex --db DB ingest DIR`: the
   project's own ingest path, FTS5 filled as in production), then adds 50,000 mined-style
   candidates (from further summaries, through `index.registry.record_candidate` in commit
   groups, the path `capindex mine` uses) and binds 1 in 20 of them (`store_binding`).
3. **Queries**: a few hundred typical needs (`NEEDS` below, written as an agent would ask,
   plus needs drawn from held-out summaries: 2-5 content words of a real summary that was not
   used for the store), each run through `index.search.search()` in this process after a
   warm-up; wall time per query with `time.perf_counter`. p50/p95/p99/max are reported, and a
   CLI run (`capindex search NEED`) end to end for information.

    /tmp/venv/bin/python bench/bench_search.py            # build once (~5 min), then measure
    /tmp/venv/bin/python bench/bench_search.py --json
    /tmp/venv/bin/python bench/bench_search.py --capabilities 100000   # a smaller store, quicker
    /tmp/venv/bin/python bench/bench_search.py --rebuild

Exit status 0 only when both targets pass.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import shutil
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from common import ROOT, capindex_command, code_version, machine, remove_db, run_child

sys.path.insert(0, str(ROOT))

DEFAULT_WORKDIR = ROOT / "bench" / "out" / "search"
DEFAULT_CORPUS = [Path("/work/.library/env/packages/npm.tsv"), Path("/work/.library/env/packages/pypi.tsv")]
SEED = 20261201
GENERATOR_VERSION = 3  # bump when the generated store changes
PER_DOCUMENT = 100_000
CANDIDATES = 50_000
BOUND_EVERY = 20
TARGET_P50_MS = 20.0
TARGET_P99_MS = 100.0

BUILTIN_EFFECTS = [
    "filesystem.read", "filesystem.write", "network.connect", "process.spawn", "environment.read",
    "secrets.read", "database.read", "database.write", "email.send", "git.commit", "git.push",
]

# Typical needs, as an agent or a developer would type them (not tuned to the generated store).
NEEDS = [
    "parse csv file", "convert markdown to html", "send email", "resize image", "validate email address",
    "read environment variables", "generate uuid", "slugify a string", "parse command line arguments",
    "http client with retries", "format dates", "compress files into zip", "extract text from pdf",
    "connect to postgres database", "hash passwords", "render html templates", "parse yaml config",
    "json schema validation", "upload file to s3", "send slack message", "scrape web pages",
    "convert images to webp", "read excel spreadsheet", "generate pdf report", "schedule cron jobs",
    "rate limit requests", "cache http responses", "parse xml", "diff two text files", "syntax highlighting",
    "jwt authentication", "oauth login", "websocket server", "graphql client", "translate text",
    "detect language of text", "spell checker", "tokenize sentences", "sentiment analysis", "speech to text",
    "text to speech", "qr code generator", "barcode scanner", "color picker component", "date picker",
    "markdown editor", "rich text editor", "pagination component", "infinite scroll", "drag and drop list",
    "chart library", "plot time series", "geocode addresses", "distance between coordinates", "map tiles",
    "currency conversion", "format phone numbers", "validate credit card", "stripe payments", "send sms",
    "push notifications", "logging library", "structured json logs", "error tracking", "retry failed jobs",
    "task queue with redis", "message queue consumer", "kafka producer", "mqtt client", "serial port",
    "bluetooth low energy", "read gpio pins", "docker container management", "kubernetes client",
    "deploy to aws lambda", "terraform provider", "ssh remote commands", "ftp upload", "git commit history",
    "github api client", "lint javascript code", "format python code", "minify css", "bundle javascript modules",
    "unit test runner", "mock http requests", "benchmark functions", "profile memory usage", "watch file changes",
    "copy files recursively", "delete old files", "read zip archive", "encrypt files with aes", "generate random passwords",
    "two factor authentication", "password strength meter", "sanitize html input", "escape sql queries",
    "orm for sqlite", "mongodb driver", "elasticsearch client", "full text search", "fuzzy string matching",
    "levenshtein distance", "stemming words", "word frequency count", "remove stop words", "named entity recognition",
    "image classification model", "object detection", "face recognition", "ocr images", "audio waveform",
    "convert video to gif", "stream video", "youtube downloader", "rss feed parser", "sitemap generator",
    "seo meta tags", "url shortener", "parse urls", "query string parsing", "cookie parser", "cors middleware",
    "rest api framework", "openapi documentation", "grpc server", "static site generator", "i18n translations",
    "pluralize words", "number formatting", "roman numerals", "convert units", "calculate statistics",
    "matrix operations", "linear regression", "random number generator", "deep clone object", "merge objects deeply",
    "debounce function", "throttle function calls", "event emitter", "state management", "dependency injection",
    "feature flags", "config file loader", "dotenv", "cli progress bar", "colored terminal output",
    "interactive prompts", "table output in terminal", "ascii art", "emoji support", "unicode normalization",
    "base64 encode", "compress json", "protocol buffers", "msgpack serialization", "parse html dom",
    "headless browser automation", "screenshot web page", "pdf to image", "excel export", "csv to json",
]


# -- the corpus and the generated store --------------------------------------------------------------


_WORD = re.compile(r"[a-z][a-z0-9]+")
_STOP = frozenset([
    "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in", "into", "is", "it", "its", "of", "on", "or",
    "that", "the", "this", "to", "with", "your", "you", "using", "use", "based", "simple", "library", "package",
    "module", "tool", "tools", "plugin",
])


def load_corpus(paths: list[Path]) -> list[tuple[str, str, str]]:
    """(ecosystem, package name, summary) of every package with a usable summary, sorted."""
    rows = []
    for path in paths:
        ecosystem = "npm" if "npm" in path.name else "pypi"
        with open(path, encoding="utf-8", errors="replace") as fh:
            header = fh.readline().split("\t")
            column = len(header) - 1  # the summary is the last column in both lists
            for line in fh:
                parts = line.rstrip("\n").split("\t")
                if len(parts) <= column:
                    continue
                summary = re.sub(r"^\[tested here:[^\]]*\]\s*", "", parts[column]).strip()
                if 20 <= len(summary) <= 400 and len(_WORD.findall(summary.lower())) >= 3:
                    rows.append((ecosystem, parts[0], summary))
    rows.sort()
    return rows


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9._-]+", "-", text.lower()).strip("-._")


def _content_words(summary: str) -> list[str]:
    return [w for w in _WORD.findall(summary.lower()) if w not in _STOP]


def manifest_for(rng: random.Random, ecosystem: str, package: str, summary: str, round_: int) -> dict[str, Any]:
    words = _content_words(summary)
    namespace = _slug(package.replace("@", "").replace("/", "-")) or "pkg"
    if round_:
        namespace += f"-r{round_}"
    op = _slug("-".join(words[:2])) or "run"
    tags = list(dict.fromkeys(rng.sample(words[:8], min(len(words[:8]), rng.randint(1, 4)))))
    return {
        "specVersion": "0.1",
        "id": f"{namespace}/{op}",
        "version": f"1.{rng.randint(0, 9)}.{rng.randint(0, 20)}",
        "name": " ".join(w.capitalize() for w in words[:3]) or package,
        "description": summary,
        "effects": sorted(rng.sample(BUILTIN_EFFECTS, rng.choice([0, 0, 0, 1, 1, 2, 3]))),
        "tags": tags,
    }


def generate(workdir: Path, capabilities: int, corpus: list[tuple[str, str, str]]) -> dict[str, Any]:
    """Write the index documents; returns what the candidates and the held-out needs use."""
    rng = random.Random(SEED)
    order = list(range(len(corpus)))
    rng.shuffle(order)
    held_out = order[-20_000:]  # never used for the store: needs are drawn from these
    usable = order[:-20_000]
    docs = workdir / "docs"
    shutil.rmtree(docs, ignore_errors=True)
    docs.mkdir(parents=True)
    number = 0
    doc_no = 0
    packages: list[dict[str, Any]] = []
    in_doc = 0

    def flush() -> None:
        nonlocal packages, in_doc, doc_no
        doc = {"indexVersion": "0.1", "generatedAt": "2026-12-01T00:00:00.000Z",
               "metadata": {"generator": "bench/bench_search.py", "seed": str(SEED)}, "packages": packages}
        (docs / f"index-{doc_no:03d}.json").write_text(json.dumps(doc, ensure_ascii=False, separators=(",", ":")),
                                                        encoding="utf-8")
        packages, in_doc = [], 0
        doc_no += 1

    seen_names: set[tuple[str, str]] = set()
    while number < capabilities:
        size = min(rng.choice([1, 1, 2, 2, 3]), capabilities - number)
        caps = []
        first = None
        for _ in range(size):
            round_, slot = divmod(number, len(usable))
            ecosystem, package, summary = corpus[usable[slot]]
            first = first or (ecosystem, package, round_)
            m = manifest_for(rng, ecosystem, package, summary, round_)
            caps.append({"manifest": m, "module": f"./dist/{m['id'].rsplit('/', 1)[1]}.js"})
            number += 1
        ecosystem, package, round_ = first
        name = package if not round_ else f"{package}-r{round_}"
        version = "1.0.0"
        while (name, version) in seen_names:
            version = f"1.0.{int(version.rsplit('.', 1)[1]) + 1}"
        seen_names.add((name, version))
        packages.append({"name": name, "version": version, "source": ecosystem, "capabilities": caps})
        in_doc += size
        if in_doc >= PER_DOCUMENT:
            flush()
    if packages:
        flush()
    return {"documents": doc_no, "candidate_rows": usable[: CANDIDATES * 3], "held_out": held_out}


def add_candidates(db: Path, corpus: list[tuple[str, str, str]], rows: list[int]) -> dict[str, int]:
    """Mined-style candidates through record_candidate (in commit groups), 1 in BOUND_EVERY bound."""
    from index import registry
    from index.store import Store

    rng = random.Random(SEED + 1)
    kinds = ["function", "function", "function", "method", "class", "cli-command", "http-route", "mcp-tool"]
    bound = 0
    with Store(db) as store:
        store.begin_group()
        for i in range(CANDIDATES):
            ecosystem, package, summary = corpus[rows[(i * 3) % len(rows)]]
            words = _content_words(summary) or ["run"]
            name = words[0] + "".join(w.capitalize() for w in words[1:3])  # camelCase, as code names things
            kind = rng.choice(kinds)
            cid = "cand-" + hashlib.sha256(f"{package}\0{i}".encode()).hexdigest()[:20]
            effects = sorted(rng.sample(BUILTIN_EFFECTS, rng.choice([0, 0, 1, 1, 2])))
            record = {
                "id": cid, "kind": kind, "name": name, "symbol": f"{package}:{name}", "module": package,
                "visibility": "public", "language": "javascript" if ecosystem == "npm" else "python",
                "source": {"path": f"src/{words[0]}.js", "line": 1, "end_line": 9, "commit": None},
                "signature": f"function {name}(input)", "description": summary if rng.random() < 0.6 else "",
                "provenance": "mined",
                "evidence": [{"kind": "declaration", "detail": f"function {name}(input)", "path": "src/x.js", "line": 1}],
                "effects": effects, "confidence": rng.choice([0.45, 0.55, 0.7, 0.8, 0.9]),
                "authority": {"complete": False, "effects": [*effects, "custom:external.opaque-effects"]},
                "executable": False, "draft_contract": {},
            }
            registry.record_candidate(store, f"mined:{ecosystem}", f"{package}@1.0.0", "1.0.0", kind, cid, record)
            if i % BOUND_EVERY == 0:
                binding = {
                    "bindingVersion": "1.0", "binderId": "capindex.npm", "substrate": "npm",
                    "locator": f"npm:{package}@1.0.0",
                    "immutableArtifact": f"{package}@1.0.0#sha512-" + hashlib.sha512(package.encode()).hexdigest()[:86],
                    "createdAt": "2026-12-01T00:00:00.000Z",
                    "authority": {"complete": False, "effects": ["custom:external.opaque-effects"]},
                    "evidence": ["bench"],
                }
                registry.store_binding(store, binding, cid)
                bound += 1
            if i % 1000 == 999:
                store.commit_group()
                store.begin_group()
        store.commit_group()
    return {"candidates": CANDIDATES, "bound": bound}


def build(args: argparse.Namespace, say: Any) -> dict[str, Any]:
    work = Path(args.workdir).resolve()
    work.mkdir(parents=True, exist_ok=True)
    db = work / f"search-{args.capabilities}.db"
    marker = work / f"search-{args.capabilities}.json"
    corpus_paths = [Path(p) for p in (args.corpus or DEFAULT_CORPUS)]
    key = {"capabilities": args.capabilities, "seed": SEED, "generator": GENERATOR_VERSION,
           "corpus": [str(p) for p in corpus_paths]}
    if not args.rebuild and marker.exists() and db.exists():
        info = json.loads(marker.read_text())
        if info.get("key") == key:
            say(f"using the cached store {db} (built in {info['build_seconds']:.0f} s; --rebuild to make it again)")
            return info | {"db": str(db), "cached": True}
    missing = [str(p) for p in corpus_paths if not p.exists()]
    if missing:
        raise SystemExit(f"bench: corpus not found: {', '.join(missing)} (give --corpus FILE: a TSV of package "
                         f"summaries, the summary in its last column)")
    t0 = time.perf_counter()
    corpus = load_corpus(corpus_paths)
    say(f"corpus: {len(corpus):,} summaries ({time.perf_counter() - t0:.1f} s)")
    t = time.perf_counter()
    plan = generate(work, args.capabilities, corpus)
    generate_s = time.perf_counter() - t
    say(f"generated {plan['documents']} documents ({generate_s:.1f} s)")
    remove_db(db)
    marker.unlink(missing_ok=True)
    ingest = run_child([*capindex_command(), "--db", str(db), "ingest", str(work / "docs")], work / "ingest.log")
    say(f"ingested {args.capabilities:,} capabilities with the CLI in {ingest['seconds']:.1f} s "
        f"(peak RSS {ingest['peak_rss_bytes'] / 1e6:.0f} MB)")
    t = time.perf_counter()
    cands = add_candidates(db, corpus, plan["candidate_rows"])
    candidates_s = time.perf_counter() - t
    say(f"recorded {cands['candidates']:,} candidates ({cands['bound']:,} bound) in {candidates_s:.1f} s")
    rng = random.Random(SEED + 2)
    held = [corpus[i][2] for i in plan["held_out"]]
    drawn = []
    for summary in held:
        words = list(dict.fromkeys(_content_words(summary)))
        if len(words) >= 2:
            start = rng.randint(0, max(0, len(words) - 2))
            drawn.append(" ".join(words[start:start + rng.randint(2, 5)]))
        if len(drawn) >= args.drawn_needs:
            break
    shutil.rmtree(work / "docs", ignore_errors=True)
    build_s = time.perf_counter() - t0
    info = {"key": key, "build_seconds": build_s, "generate_seconds": generate_s, "ingest_seconds": ingest["seconds"],
            "ingest_peak_rss_bytes": ingest["peak_rss_bytes"], "candidates_seconds": candidates_s,
            "corpus_summaries": len(corpus), "drawn_needs": drawn, **cands,
            "db_bytes": sum(p.stat().st_size for p in work.glob(db.name + "*"))}
    marker.write_text(json.dumps(info, indent=1))
    return info | {"db": str(db), "cached": False}


# -- measuring ------------------------------------------------------------------------------------


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def measure(db: str, needs: list[str], limit: int) -> dict[str, Any]:
    from index.search import SearchFilters, search
    from index.store import Store

    with Store(db) as store:
        t = time.perf_counter()
        first = search(store, needs[0], SearchFilters(limit=limit))
        first_ms = (time.perf_counter() - t) * 1000
        for need in needs[:20]:  # warm-up: the page cache and the statements
            search(store, need, SearchFilters(limit=limit))
        times, empty, slowest = [], 0, []
        for need in needs:
            t = time.perf_counter()
            results = search(store, need, SearchFilters(limit=limit))
            ms = (time.perf_counter() - t) * 1000
            times.append(ms)
            empty += not results
            slowest.append((ms, need))
        slowest.sort(reverse=True)
        filtered = []
        for need in needs[:100]:
            t = time.perf_counter()
            search(store, need, SearchFilters(limit=limit, effects_ceiling=frozenset({"network.connect"}),
                                              kinds=frozenset({"native"})))
            filtered.append((time.perf_counter() - t) * 1000)
    return {
        "queries": len(times), "first_query_ms": first_ms, "first_results": len(first),
        "p50_ms": percentile(times, 50), "p95_ms": percentile(times, 95), "p99_ms": percentile(times, 99),
        "max_ms": max(times), "mean_ms": statistics.mean(times), "no_result_queries": empty,
        "slowest": [{"ms": round(ms, 2), "need": need} for ms, need in slowest[:8]],
        "filtered_p50_ms": percentile(filtered, 50), "filtered_p99_ms": percentile(filtered, 99),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--capabilities", type=int, default=1_000_000)
    parser.add_argument("--workdir", default=str(DEFAULT_WORKDIR))
    parser.add_argument("--corpus", action="append", help="TSV of package summaries (repeatable)")
    parser.add_argument("--drawn-needs", type=int, default=200, help="needs drawn from held-out summaries")
    parser.add_argument("--limit", type=int, default=10)
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    say = (lambda *a: None) if args.json else (lambda *a: print(*a, file=sys.stderr, flush=True))
    info = build(args, say)
    needs = NEEDS + info["drawn_needs"]
    say(f"running {len(needs)} needs ...")
    figures = measure(info["db"], needs, args.limit)
    cli = run_child([*capindex_command(), "--db", info["db"], "search", "parse csv file"],
                    Path(args.workdir) / "cli-search.log")
    figures["cli_seconds"] = cli["seconds"]
    passed = figures["p50_ms"] < TARGET_P50_MS and figures["p99_ms"] < TARGET_P99_MS
    result = {"machine": machine(), "code": code_version(), "store": {k: v for k, v in info.items() if k != "drawn_needs"},
              "needs": {"typical": len(NEEDS), "drawn": len(info["drawn_needs"])}, "latency": figures,
              "targets": {"p50_ms": TARGET_P50_MS, "p99_ms": TARGET_P99_MS}, "pass": passed}
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        m = result["machine"]
        print(f"machine: {m['nproc']} CPUs, {m['cpu_model']}, {m['memory_bytes'] / 2**30:.1f} GiB, "
              f"Python {m['python']}, SQLite {m['sqlite']}")
        s = result["store"]
        print(f"store: {args.capabilities:,} capabilities + {s['candidates']:,} candidates ({s['bound']:,} bound), "
              f"{s['db_bytes'] / 1e6:,.0f} MB; built in {s['build_seconds']:.0f} s (ingest {s['ingest_seconds']:.0f} s)"
              + (" [cached]" if s["cached"] else ""))
        f = figures
        print(f"{f['queries']} needs ({len(NEEDS)} typical, {len(info['drawn_needs'])} drawn), limit {args.limit}: "
              f"p50 {f['p50_ms']:.2f} ms, p95 {f['p95_ms']:.2f} ms, p99 {f['p99_ms']:.2f} ms, max {f['max_ms']:.2f} ms; "
              f"first (cold) {f['first_query_ms']:.1f} ms; {f['no_result_queries']} with no result")
        print(f"with a ceiling and --kind native: p50 {f['filtered_p50_ms']:.2f} ms, p99 {f['filtered_p99_ms']:.2f} ms")
        print("slowest: " + "; ".join(f"{s['need']!r} {s['ms']} ms" for s in f["slowest"][:5]))
        print(f"CLI end to end (`capindex search \"parse csv file\"`, start-up included): {f['cli_seconds']:.2f} s")
        print(f"p50 < {TARGET_P50_MS:.0f} ms: {'PASS' if f['p50_ms'] < TARGET_P50_MS else 'FAIL'}")
        print(f"p99 < {TARGET_P99_MS:.0f} ms: {'PASS' if f['p99_ms'] < TARGET_P99_MS else 'FAIL'}")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
