#!/usr/bin/env python3
"""Benchmark capindex's core path: ingest a large synthetic index, then publish it.

Requirement: ingest a synthetic index of 200,000 capabilities, then publish it; ingest at
least 20,000 capabilities/s, publish at least 50,000 capabilities/s, peak RSS under 400 MB.

Each step runs as the real CLI in a fresh child process, so its wall time includes
interpreter start-up and imports, and its peak RSS (read with os.wait4, which returns the
reaped child's own rusage) belongs to that step alone. Linux records the parent's RSS
high-water mark into a child's ru_maxrss when the child execs, so the measuring parent
never holds anything large: generating the document and validating the published files
run in helper child processes too (the hidden --generate-only / --verify-only modes).

    ingest:  capindex --db DB ingest FILE            (DB new and empty each run)
    publish: capindex --db DB publish OUTDIR --base-url https://bench.example/

Usage:
    python bench/bench_core.py [--capabilities 200000] [--runs 3] [--caps-per-package 4]
                               [--workdir DIR] [--json] [--keep]
    python bench/bench_core.py --profile ingest|publish [--capabilities N] [--profile-out FILE]

`--profile STEP` runs that step in-process under cProfile (the same code path as the CLI,
through indexer.cli.main) and prints the top 25 entries by cumulative time, plus the top
entries by own time, to find hotspots. Profiled timings are slower than real ones.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import io
import json
import pstats
import random
import resource
import shutil
import sqlite3
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from common import ROOT, capindex_command, helper, machine, mb, remove_db, run_child  # noqa: E402

DEFAULT_WORKDIR = ROOT / "bench" / "out"
BASE_URL = "https://bench.example/"
SEED = 20260101
GENERATED_AT = "2026-01-01T00:00:00.000Z"

TARGET_INGEST_CAPS_S = 20_000
TARGET_PUBLISH_CAPS_S = 50_000
TARGET_RSS_MB = 400  # decimal megabytes: 400 * 10**6 bytes (stricter than 400 MiB)

# The built-in effects of Capability 1.x (the reference README and capability-manifest.schema.json).
BUILTIN_EFFECTS = [
    "filesystem.read", "filesystem.write", "network.connect", "process.spawn", "environment.read",
    "secrets.read", "database.read", "database.write", "email.send", "git.commit", "git.push",
]

VERBS = [
    "normalize", "slugify", "parse", "format", "validate", "convert", "extract", "summarize", "render",
    "compress", "decompress", "encode", "decode", "hash", "sign", "verify", "resize", "merge", "split",
    "sort", "filter", "dedupe", "fetch", "upload", "download", "send", "schedule", "translate", "classify",
    "tokenize", "index", "search", "diff", "patch", "lint", "compile", "redact", "geocode", "transcode",
]
NOUNS = [
    "text", "markdown", "json", "yaml", "csv", "html", "url", "email", "invoice", "image", "pdf", "archive",
    "date", "timezone", "currency", "address", "phone", "record", "table", "commit", "branch", "secret",
    "token", "queue", "message", "report", "calendar", "contact", "document", "dataset", "schema", "log",
    "metric", "event", "payment", "order", "user", "file", "directory", "repository",
]
ADJECTIVES = [
    "deterministic", "structured", "plain", "remote", "local", "nested", "large", "streaming", "validated",
    "canonical", "compact", "readable", "unicode", "binary", "sorted", "partial", "incremental", "cached",
]
FILLER = [
    "the", "a", "given", "into", "from", "with", "without", "and", "or", "for", "each", "every", "its", "as",
    "to", "using", "optional", "settings", "rules", "safely", "quickly", "external", "effects", "access",
    "network", "filesystem", "output", "input", "result", "errors", "reported", "clearly", "per", "field",
]
PROP_NAMES = [
    "text", "value", "source", "target", "format", "locale", "limit", "offset", "separator", "lowercase",
    "strict", "encoding", "path", "url", "timeout", "retries", "query", "fields", "items", "count", "mode",
    "pretty", "width", "height", "quality", "algorithm", "key", "language", "threshold", "dryRun",
]
PROP_TYPES = ["string", "integer", "number", "boolean", "array", "object"]


# -- synthetic index ---------------------------------------------------------------------------


def _schema(rng: random.Random) -> dict[str, Any]:
    names = rng.sample(PROP_NAMES, rng.randint(2, 4))
    props: dict[str, Any] = {}
    for name in names:
        kind = rng.choice(PROP_TYPES)
        prop: dict[str, Any] = {"type": kind}
        if kind == "string" and rng.random() < 0.25:
            prop["enum"] = rng.sample(["preserve", "lower", "upper", "title", "auto", "none"], 3)
        elif kind == "integer" and rng.random() < 0.5:
            prop["minimum"] = 0
        elif kind == "array":
            prop["items"] = {"type": "string"}
        if rng.random() < 0.3:
            prop["description"] = " ".join(rng.choice(FILLER + NOUNS) for _ in range(rng.randint(3, 7))).capitalize() + "."
        props[name] = prop
    return {
        "type": "object",
        "properties": props,
        "required": names[: rng.randint(1, len(names))],
        "additionalProperties": False,
    }


def _semver(rng: random.Random) -> str:
    v = f"{rng.randint(0, 4)}.{rng.randint(0, 20)}.{rng.randint(0, 30)}"
    if rng.random() < 0.05:
        v += f"-beta.{rng.randint(1, 9)}"
    return v


def _manifest(rng: random.Random, number: int) -> dict[str, Any]:
    verb, noun, adj = rng.choice(VERBS), rng.choice(NOUNS), rng.choice(ADJECTIVES)
    words = [verb.capitalize(), adj, noun]
    words += [rng.choice(FILLER + NOUNS + ADJECTIVES + VERBS) for _ in range(rng.randint(10, 20) - len(words))]
    effects = sorted(rng.sample(BUILTIN_EFFECTS, rng.choice([0, 0, 1, 1, 1, 2, 3])))
    pool = [verb, noun, adj] + rng.sample(NOUNS + VERBS + ADJECTIVES, 6)
    tags = list(dict.fromkeys(pool))[: rng.randint(3, 5)]
    return {
        "specVersion": "0.1",
        "id": f"bench/op-{number:06d}",
        "version": _semver(rng),
        "name": f"{verb.capitalize()} {adj.capitalize()} {noun.capitalize()}",
        "description": " ".join(words) + ".",
        "input": _schema(rng),
        "output": _schema(rng),
        "effects": effects,
        "behavior": {
            "deterministic": rng.random() < 0.7,
            "idempotent": rng.random() < 0.6,
            "reversible": rng.random() < 0.2,
        },
        "tags": tags,
    }


def _integrity(rng: random.Random) -> str:
    import base64

    return "sha512-" + base64.b64encode(rng.randbytes(64)).decode("ascii")


def build_index(capabilities: int, caps_per_package: int) -> dict[str, Any]:
    """A deterministic, schema-valid index 0.1 document with `capabilities` capabilities."""
    rng = random.Random(SEED)
    packages = []
    number = 0
    p = 0
    while number < capabilities:
        caps = []
        for _ in range(min(caps_per_package, capabilities - number)):
            m = _manifest(rng, number)
            caps.append({"manifest": m, "module": f"./dist/{m['id'].split('/')[1]}.js"})
            if rng.random() < 0.5:
                caps[-1]["integrity"] = _integrity(rng)
            number += 1
        package = {
            "name": f"@bench/pkg-{p:06d}",
            "version": _semver(rng),
            "source": rng.choice(["npm", "npm", "npm", "pypi", "git"]),
            "repository": f"https://github.com/bench/pkg-{p:06d}",
            "integrity": _integrity(rng),
            "capabilities": caps,
        }
        packages.append(package)
        p += 1
    return {
        "indexVersion": "0.1",
        "generatedAt": GENERATED_AT,
        "metadata": {"name": "capindex benchmark index", "generator": "bench/bench_core.py", "seed": str(SEED)},
        "federates": [],
        "packages": packages,
    }


def write_index(path: Path, capabilities: int, caps_per_package: int, indent: int | None) -> dict[str, Any]:
    t0 = time.perf_counter()
    doc = build_index(capabilities, caps_per_package)
    text = json.dumps(doc, ensure_ascii=False, indent=indent, separators=None if indent else (",", ":"))
    data = text.encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return {
        "path": str(path),
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
        "packages": len(doc["packages"]),
        "capabilities": capabilities,
        "seconds": time.perf_counter() - t0,
    }


# -- running the CLI as a child ----------------------------------------------------------------


def db_capabilities(db: Path) -> int:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT COUNT(*) FROM capabilities").fetchone()[0]
    finally:
        conn.close()


# -- checking what was published ---------------------------------------------------------------


def verify_published(outdir: Path, expected_caps: int, expected_packages: int) -> dict[str, Any]:
    """Validate index.json and every shard it federates with schemas.documents.validate_index; count."""
    sys.path.insert(0, str(ROOT))
    from schemas.documents import load_document, parse_json, validate_index

    base = BASE_URL.rstrip("/") + "/"
    t0 = time.perf_counter()
    root_raw = (outdir / "index.json").read_bytes()
    root = parse_json(root_raw, "index.json")
    validate_index(root, "index.json")
    files = ["index.json"]
    federates = root.get("federates") or []
    packages = len(root["packages"])
    caps = sum(len(p["capabilities"]) for p in root["packages"])
    del root
    for url in federates:
        if not url.startswith(base):
            raise SystemExit(f"bench: published index federates {url}, outside {base}")
        rel = url[len(base):]
        shard = parse_json((outdir / rel).read_bytes(), rel)
        validate_index(shard, rel)
        packages += len(shard["packages"])
        caps += sum(len(p["capabilities"]) for p in shard["packages"])
        files.append(rel)
        del shard
    for name in (".well-known/capabilities", ".well-known/capabilities.json"):
        load_document((outdir / name).read_bytes(), name, "site")
    ok = caps == expected_caps and packages == expected_packages
    return {
        "valid": True,
        "files": len(files),
        "packages": packages,
        "capabilities": caps,
        "count_matches": ok,
        "seconds": time.perf_counter() - t0,
    }


def tree_digest(outdir: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(p for p in outdir.rglob("*") if p.is_file()):
        h.update(str(path.relative_to(outdir)).encode() + b"\0")
        with open(path, "rb") as fh:
            h.update(hashlib.file_digest(fh, "sha256").digest())
    return h.hexdigest()


# -- machine -----------------------------------------------------------------------------------


# -- the benchmark -----------------------------------------------------------------------------


def summarize(runs: list[dict[str, Any]], capabilities: int, target_caps_s: float) -> dict[str, Any]:
    secs = [r["seconds"] for r in runs]
    rates = [capabilities / s for s in secs]
    peak = max(r["peak_rss_bytes"] for r in runs)
    median_rate = statistics.median(rates)
    return {
        "seconds_each": [round(s, 3) for s in secs],
        "median_seconds": statistics.median(secs),
        "min_seconds": min(secs),
        "median_caps_per_s": median_rate,
        "peak_rss_bytes": peak,
        "peak_rss_mb": mb(peak),
        "peak_rss_mib": peak / 2**20,
        "median_user_seconds": statistics.median(r["user_seconds"] for r in runs),
        "median_system_seconds": statistics.median(r["system_seconds"] for r in runs),
        "target_caps_per_s": target_caps_s,
        "throughput_pass": median_rate >= target_caps_s,
        "target_rss_mb": TARGET_RSS_MB,
        "rss_pass": mb(peak) < TARGET_RSS_MB,
    }


def benchmark(args: argparse.Namespace) -> dict[str, Any]:
    work = Path(args.workdir).resolve()
    work.mkdir(parents=True, exist_ok=True)
    say = (lambda *a: None) if args.json else (lambda *a: print(*a, file=sys.stderr, flush=True))
    cli = capindex_command()

    say(f"generating {args.capabilities} capabilities ({args.caps_per_package} per package) ...")
    doc = helper(__file__, ["--generate-only", str(work / "synthetic-index.json"), "--capabilities", str(args.capabilities),
                  "--caps-per-package", str(args.caps_per_package)]
                 + (["--indent", str(args.indent)] if args.indent is not None else []))
    say(f"  {doc['path']}: {doc['bytes']:,} bytes, {doc['packages']:,} packages, sha256 {doc['sha256'][:16]}…"
        f" ({doc['seconds']:.1f} s)")

    # Interpreter start-up + imports of the CLI: part of every step's wall time, reported for context.
    startup_db = work / "startup.db"
    remove_db(startup_db)
    startup = run_child([*cli, "--db", str(startup_db), "stats"], work / "startup.log")
    remove_db(startup_db)

    ingests, publishes, checks, digests = [], [], [], []
    for i in range(1, args.runs + 1):
        db = work / f"run{i}.db"
        outdir = work / f"public{i}"
        remove_db(db)
        shutil.rmtree(outdir, ignore_errors=True)

        r = run_child([*cli, "--db", str(db), "ingest", doc["path"]], work / f"ingest{i}.log")
        stored = db_capabilities(db)
        if stored != args.capabilities:
            raise SystemExit(f"bench: run {i}: the store holds {stored} capabilities, expected {args.capabilities}")
        r["db_bytes"] = sum(p.stat().st_size for p in work.glob(f"run{i}.db*"))
        ingests.append(r)
        say(f"run {i}: ingest  {r['seconds']:7.2f} s  {args.capabilities / r['seconds']:9,.0f} caps/s  "
            f"peak RSS {mb(r['peak_rss_bytes']):6.1f} MB  (db {mb(r['db_bytes']):.0f} MB)")

        r = run_child([*cli, "--db", str(db), "publish", str(outdir), "--base-url", BASE_URL], work / f"publish{i}.log")
        publishes.append(r)
        say(f"run {i}: publish {r['seconds']:7.2f} s  {args.capabilities / r['seconds']:9,.0f} caps/s  "
            f"peak RSS {mb(r['peak_rss_bytes']):6.1f} MB")

        digests.append(tree_digest(outdir))
        if i == 1:  # the output is a pure function of the store: validate once, compare the rest byte for byte
            check = helper(__file__, ["--verify-only", str(outdir), "--capabilities", str(args.capabilities),
                            "--packages", str(doc["packages"])])
            checks.append(check)
            say(f"run {i}: published {check['files']} index files, {check['packages']:,} packages, "
                f"{check['capabilities']:,} capabilities, valid; count matches: {check['count_matches']}"
                f" ({check['seconds']:.1f} s)")
            if not check["count_matches"]:
                raise SystemExit("bench: the published index does not hold every capability")
        if not args.keep:
            remove_db(db)
            shutil.rmtree(outdir, ignore_errors=True)

    return {
        "benchmark": "capindex core: ingest then publish",
        "machine": machine(),
        "parameters": {
            "capabilities": args.capabilities,
            "caps_per_package": args.caps_per_package,
            "packages": doc["packages"],
            "runs": args.runs,
            "seed": SEED,
            "indent": args.indent,
            "base_url": BASE_URL,
        },
        "document": {"bytes": doc["bytes"], "sha256": doc["sha256"], "generate_seconds": doc["seconds"]},
        "startup": {"seconds": startup["seconds"], "peak_rss_bytes": startup["peak_rss_bytes"]},
        # the floor every child's ru_maxrss inherits from this process (see the module docstring)
        "harness_peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
        "ingest": summarize(ingests, args.capabilities, TARGET_INGEST_CAPS_S) | {
            "db_bytes": ingests[-1]["db_bytes"]},
        "publish": summarize(publishes, args.capabilities, TARGET_PUBLISH_CAPS_S),
        "published": checks[0] | {"identical_across_runs": len(set(digests)) == 1, "tree_sha256": digests[0]},
    }


def print_table(res: dict[str, Any]) -> None:
    m, p, d = res["machine"], res["parameters"], res["document"]
    verdict = lambda ok: "PASS" if ok else "FAIL"  # noqa: E731
    print()
    print(f"machine: {m['nproc']} CPU(s), {m['cpu_model']}, "
          f"{(m['memory_bytes'] or 0) / 2**30:.1f} GiB RAM, Python {m['python']}, SQLite {m['sqlite']}")
    print(f"input:   {p['capabilities']:,} capabilities in {p['packages']:,} packages "
          f"({p['caps_per_package']} per package), {d['bytes']:,} bytes ({mb(d['bytes']):.1f} MB), "
          f"sha256 {d['sha256'][:16]}…")
    print(f"runs:    {p['runs']} (median seconds and caps/s; max peak RSS); "
          f"CLI start-up alone (`capindex stats`): {res['startup']['seconds']:.2f} s, "
          f"{mb(res['startup']['peak_rss_bytes']):.0f} MB; harness peak RSS {mb(res['harness_peak_rss_bytes']):.0f} MB")
    print()
    head = f"{'step':<8} {'median s':>9} {'caps/s':>10} {'target':>10} {'':>5} {'peak RSS MB':>12} {'target':>7} {'':>5}"
    print(head)
    print("-" * len(head))
    for step in ("ingest", "publish"):
        s = res[step]
        print(f"{step:<8} {s['median_seconds']:>9.2f} {s['median_caps_per_s']:>10,.0f} "
              f"{'>= ' + format(s['target_caps_per_s'], ',.0f'):>10} {verdict(s['throughput_pass']):>5} "
              f"{s['peak_rss_mb']:>12.1f} {'< ' + str(TARGET_RSS_MB):>7} {verdict(s['rss_pass']):>5}")
    print()
    for step in ("ingest", "publish"):
        s = res[step]
        print(f"{step}: each run {s['seconds_each']} s; median user {s['median_user_seconds']:.2f} s, "
              f"system {s['median_system_seconds']:.2f} s")
    pub = res["published"]
    print(f"published: {pub['files']} index files, {pub['packages']:,} packages, {pub['capabilities']:,} capabilities, "
          f"valid (validate_index), count matches: {pub['count_matches']}, "
          f"identical across runs: {pub['identical_across_runs']}")
    print(f"store after ingest: {mb(res['ingest']['db_bytes']):.0f} MB on disk")


# -- profiling ---------------------------------------------------------------------------------


def profile(args: argparse.Namespace) -> None:
    sys.path.insert(0, str(ROOT))
    from indexer.cli import main

    work = Path(args.workdir).resolve()
    work.mkdir(parents=True, exist_ok=True)
    path = work / "synthetic-index.json"
    doc = write_index(path, args.capabilities, args.caps_per_package, args.indent)
    db = work / "profile.db"
    outdir = work / "profile-public"
    remove_db(db)
    shutil.rmtree(outdir, ignore_errors=True)
    if args.profile == "ingest":
        argv = ["--json", "--db", str(db), "ingest", str(path)]
    else:
        run_child([*capindex_command(), "--db", str(db), "ingest", str(path)], work / "profile-ingest.log")
        argv = ["--json", "--db", str(db), "publish", str(outdir), "--base-url", BASE_URL]
    prof = cProfile.Profile()
    devnull = io.StringIO()
    real_stdout = sys.stdout
    sys.stdout = devnull  # the CLI's own output is not what we are looking at
    t0 = time.perf_counter()
    try:
        code = prof.runcall(main, argv)
    finally:
        sys.stdout = real_stdout
    seconds = time.perf_counter() - t0
    if code != 0:
        raise SystemExit(f"bench: profiled {args.profile} exited {code}: {devnull.getvalue()[-2000:]}")
    print(f"profiled {args.profile}: {args.capabilities:,} capabilities ({doc['bytes']:,} bytes) in {seconds:.2f} s "
          f"under cProfile (slower than unprofiled)\n")
    if args.profile_out:
        prof.dump_stats(args.profile_out)
    stats = pstats.Stats(prof, stream=sys.stdout).strip_dirs()
    print("== top 25 by cumulative time ==")
    stats.sort_stats("cumulative").print_stats(25)
    print("== top 15 by own (total) time ==")
    stats.sort_stats("tottime").print_stats(15)
    if not args.keep:
        remove_db(db)
        shutil.rmtree(outdir, ignore_errors=True)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--capabilities", type=int, default=200_000, help="capabilities in the synthetic index")
    ap.add_argument("--runs", type=int, default=3, help="repetitions of ingest + publish (each on a fresh DB)")
    ap.add_argument("--caps-per-package", type=int, default=4, help="capabilities per package")
    ap.add_argument("--workdir", default=str(DEFAULT_WORKDIR), help="scratch directory (default bench/out/)")
    ap.add_argument("--indent", type=int, default=None,
                    help="indent the synthetic index JSON (default: compact, as generated indexes are)")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    ap.add_argument("--keep", action="store_true", help="keep the databases and published trees")
    ap.add_argument("--profile", choices=["ingest", "publish"], help="profile one step in-process with cProfile")
    ap.add_argument("--profile-out", metavar="FILE", help="with --profile: also save the raw stats (for snakeviz etc.)")
    # internal: the memory-heavy helpers the measuring parent runs as children
    ap.add_argument("--generate-only", metavar="FILE", help=argparse.SUPPRESS)
    ap.add_argument("--verify-only", metavar="OUTDIR", help=argparse.SUPPRESS)
    ap.add_argument("--packages", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.capabilities < 1 or args.runs < 1 or args.caps_per_package < 1:
        ap.error("--capabilities, --runs and --caps-per-package must be at least 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.generate_only:
        print(json.dumps(write_index(Path(args.generate_only), args.capabilities, args.caps_per_package, args.indent)))
        return 0
    if args.verify_only:
        print(json.dumps(verify_published(Path(args.verify_only), args.capabilities, args.packages)))
        return 0
    if args.profile:
        profile(args)
        return 0
    res = benchmark(args)
    if args.json:
        print(json.dumps(res, indent=2))
    else:
        print_table(res)
    ok = all(res[s]["throughput_pass"] and res[s]["rss_pass"] for s in ("ingest", "publish"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
