#!/usr/bin/env python3
"""Measure `capindex search` ranking quality against labelled needs (issue 7).

The store is what capindex holds after crawling and mining real software:

* native capabilities: `capindex ingest examples/federation` (the reference project's public
  registry, 12 capabilities, plus the example indexes, 6 more);
* candidates: every package of PACKAGES (exact versions of real npm and PyPI packages, fetched,
  verified and unpacked through `capindex fetch`, cached in bench/out/mine/ as bench_mine.py does),
  mined with `miners.mine.mine_tree` and stored as `capindex mine npm:NAME@VERSION` stores them
  (`registry.record_candidate`, ecosystem `mined:npm|pypi`, named by the verified artifact);
* a few bindings: one candidate per package in BOUND (tied to its artifact, as `capindex bind
  --candidate ID` records it), so bound candidates take part as they would in a real store.

The labels are bench/search_needs.json: each need as someone would type it, the results that
satisfy it and where the label comes from (the package's own documentation: README, API docs,
docstrings it ships; the manifests of the native capabilities). They were written from the
documentation, not from search output. A result is named `capability:<id>` (native) or
`<locator> <kind> <name>` (a mined candidate, e.g. `npm:lodash@4.17.21 function cloneDeep`).

Two rankers are scored on the same store:

* **capindex**: `index.search.search(store, need, SearchFilters(limit=10))`;
* **baseline**: the reference implementation's way: every capability and candidate is scored by
  the number of distinct need tokens it shares with its own tokens (lower-cased runs of letters
  and digits of its id, name, description and tags; for a candidate its name, description, kind
  and package), highest count first, ties in store order; nothing scores without a shared token.

Metrics per need, averaged over the needs: MRR@10 (1 / rank of the first relevant result in the
top 10, else 0) and recall@10 (relevant results in the top 10 / min(10, relevant results)).
A label that names nothing in the store is reported (the miner did not find it) and left out of
both rankers' denominators.

    /tmp/venv/bin/python bench/bench_search_quality.py          # table + per-need misses
    /tmp/venv/bin/python bench/bench_search_quality.py --json
    /tmp/venv/bin/python bench/bench_search_quality.py --remine  # mine the packages again

Exit status 0 when capindex beats the baseline on both metrics.
"""

from __future__ import annotations

import argparse
import base64
import json
import re
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

from bench_mine import fetch  # cached, verified fetch through capindex
from common import ROOT, code_version, machine, remove_db

sys.path.insert(0, str(ROOT))

WORKDIR = ROOT / "bench" / "out" / "search-quality"
MINE_WORKDIR = ROOT / "bench" / "out" / "mine"
NEEDS_FILE = ROOT / "bench" / "search_needs.json"

PACKAGES = """
npm:lodash@4.17.21 npm:yargs@17.7.2 npm:express@4.19.2 npm:commander@12.1.0 npm:slugify@1.6.6 npm:nanoid@5.0.7
npm:sequelize-cli@6.6.2 npm:@modelcontextprotocol/server-filesystem@2026.8.31
npm:@modelcontextprotocol/server-everything@2026.8.31 npm:@modelcontextprotocol/server-memory@2026.8.31
npm:json-server@1.0.0-beta.3 npm:is-number@7.0.0 npm:uuid@9.0.1 npm:chalk@5.3.0 npm:axios@1.7.2
npm:papaparse@5.4.1 npm:marked@12.0.2 npm:js-yaml@4.1.0 npm:date-fns@3.6.0 npm:ajv@8.12.0 npm:jsonwebtoken@9.0.2
npm:bcryptjs@2.4.3 npm:qs@6.12.1 npm:semver@7.6.2 npm:mime-types@2.1.35 npm:ms@2.1.3 npm:validator@13.12.0
npm:dotenv@16.4.5 npm:fs-extra@11.2.0 npm:cookie@0.6.0 npm:he@1.2.0 npm:pluralize@8.0.0 npm:fast-xml-parser@4.4.0
npm:diff@5.2.0 npm:nodemailer@6.9.13 npm:node-cron@3.0.3 npm:escape-html@1.0.3
pypi:click==8.1.7 pypi:flask==3.0.3 pypi:requests==2.32.3 pypi:rich==13.7.1 pypi:python-slugify==8.0.4 pypi:twine==5.1.1
pypi:mcp-server-time==2026.10.19 pypi:mcp-server-fetch==2026.10.24 pypi:httpbin==0.10.2 pypi:cruft==2.16.0
pypi:commitizen==4.19.3 pypi:httpx==0.27.0 pypi:typer==0.12.3 pypi:fastapi==0.111.0
pypi:PyYAML==6.0.1 pypi:python-dateutil==2.9.0.post0 pypi:Markdown==3.6 pypi:Jinja2==3.1.4 pypi:beautifulsoup4==4.12.3
pypi:tabulate==0.9.0 pypi:humanize==4.9.0 pypi:validators==0.28.3 pypi:python-dotenv==1.0.1 pypi:qrcode==7.4.2
pypi:chardet==5.2.0 pypi:Unidecode==1.3.8 pypi:xmltodict==0.13.0 pypi:emoji==2.12.1 pypi:tqdm==4.66.4
""".split()  # noqa: SIM905

# one candidate per package bound to its artifact (as `capindex bind LOCATOR --candidate ID` records it)
BOUND = {
    "npm:slugify@1.6.6": ("function", "slugify"),
    "npm:uuid@9.0.1": ("function", "v4"),
    "pypi:PyYAML==6.0.1": ("function", "safe_load"),
    "npm:marked@12.0.2": ("function", "marked"),
}

_TOKEN = re.compile(r"[a-z0-9]+")


# -- the store ------------------------------------------------------------------------------------


def _artifact(locator: str) -> str:
    """The verified artifact identity `capindex mine` records (from the fetch store's artifacts)."""
    kind, spec = locator.split(":", 1)
    name, version = spec.rsplit("==", 1) if kind == "pypi" else spec.rsplit("@", 1)
    conn = sqlite3.connect(MINE_WORKDIR / "fetch.db")
    try:
        row = conn.execute("""SELECT name, version, sha256, sha512 FROM artifacts WHERE ecosystem = ?
                              AND lower(replace(name, '_', '-')) = lower(replace(?, '_', '-')) AND version = ?
                              ORDER BY id DESC LIMIT 1""", [kind, name, version]).fetchone()
    finally:
        conn.close()
    if row is None:
        return f"{name}@{version}"
    if kind == "npm":
        return f"{row[0]}@{row[1]}#sha512-" + base64.b64encode(bytes.fromhex(row[3])).decode()
    return f"{row[0]}@{row[1]}#sha256:{row[2]}"


def mined_report(locator: str, remine: bool) -> dict[str, Any]:
    cache = WORKDIR / "reports" / (re.sub(r"[^A-Za-z0-9._=-]+", "_", locator) + ".json")
    if cache.exists() and not remine:
        return json.loads(cache.read_text())
    from miners.mine import mine_tree
    from miners.sources import DirectoryTree, Identity

    path = fetch(MINE_WORKDIR, locator)
    kind, spec = locator.split(":", 1)
    tree = DirectoryTree(Path(path), Identity(kind, locator, spec, None, _artifact(locator), True))
    report = mine_tree(tree)
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps(report))
    return report


def _record_release(store: Any, ecosystem: str, artifact: str) -> int:
    """The registry's record of the release, as the fetch recorded it (bench/out/mine/fetch.db)."""
    from index import registry

    name, _, version = artifact.split("#", 1)[0].rpartition("@")
    conn = sqlite3.connect(MINE_WORKDIR / "fetch.db")
    try:
        row = conn.execute("""SELECT record, source_url, fetched_at FROM registry_releases
                              WHERE ecosystem = ? AND name = ? AND version = ? ORDER BY id LIMIT 1""",
                           [ecosystem, name, version]).fetchone()
    finally:
        conn.close()
    if row is None:
        return 0
    registry.record_release(store, ecosystem, name, version, json.loads(row[0]), row[1], row[2])
    return 1


def build_store(remine: bool, say: Any, with_releases: bool = True) -> tuple[Path, dict[int, str], dict[str, Any]]:
    """The store, and each candidate row's label key."""
    from index import registry
    from index.ingest import ingest_bytes
    from index.store import Store

    db = WORKDIR / "store.db"
    remove_db(db)
    t = time.perf_counter()
    keys: dict[int, str] = {}
    counts = {"packages": 0, "candidates": 0, "bound": 0, "releases": 0}
    bound: set[str] = set()
    with Store(db) as store:
        for path in sorted((ROOT / "examples" / "federation").glob("*.json")):
            ingest_bytes(store, path.read_bytes(), str(path))
        store.begin_group()
        for locator in PACKAGES:
            report = mined_report(locator, remine)
            repo = report["repository"]
            name = repo.get("artifact") or repo["locator"]
            counts["packages"] += 1
            if with_releases:  # what `capindex mine npm:NAME@VERSION` records when it fetches the release
                counts["releases"] += _record_release(store, repo["kind"], name)
            for candidate in report["candidates"]:
                registry.record_candidate(store, f"mined:{repo['kind']}", name, repo.get("commit"), candidate["kind"],
                                          candidate["id"], candidate)
                counts["candidates"] += 1
                if BOUND.get(locator) == (candidate["kind"], candidate["name"]) and locator not in bound:
                    bound.add(locator)
                    registry.store_binding(store, {
                        "bindingVersion": "1.0", "binderId": f"capindex.{repo['kind']}", "substrate": repo["kind"],
                        "locator": locator, "immutableArtifact": name, "createdAt": "2026-12-01T00:00:00.000Z",
                        "authority": {"complete": False, "effects": ["custom:external.opaque-effects"]},
                        "evidence": [f"verified {name}"]}, candidate["id"])
                    counts["bound"] += 1
        store.commit_group()
        for cid, ecosystem, name, kind, record in store.conn.execute(
                "SELECT id, ecosystem, name, kind, record FROM candidates"):
            keys[cid] = f"{_locator(ecosystem, name)} {kind} {json.loads(record)['name']}"
        counts["native"] = store.counts()["capabilities"]
    counts["seconds"] = time.perf_counter() - t
    say(f"store: {counts['native']} native capabilities, {counts['candidates']} candidates from {counts['packages']} "
        f"packages ({counts['bound']} bound, {counts['releases']} release records), built in {counts['seconds']:.1f} s")
    return db, keys, counts


def _locator(ecosystem: str, artifact: str) -> str:
    kind = ecosystem.split(":", 1)[1]
    name, _, version = artifact.split("#", 1)[0].rpartition("@")
    return canonical(f"{kind}:{name}=={version}" if kind == "pypi" else f"{kind}:{name}@{version}")


def canonical(key: str) -> str:
    """A label key with its PyPI project name normalised (PEP 503: `PyYAML` is `pyyaml`)."""
    if key.startswith("pypi:"):
        name, sep, rest = key[5:].partition("==")
        return "pypi:" + re.sub(r"[-_.]+", "-", name).lower() + sep + rest
    return key


# -- the two rankers ------------------------------------------------------------------------------


def capindex_ranking(store: Any, need: str, keys: dict[int, str]) -> list[str]:
    from index.search import SearchFilters, search

    out = []
    for r in search(store, need, SearchFilters(limit=10)):
        out.append(f"capability:{r.id}" if r.provenance == "native" else keys[int(r.ref.split(":", 1)[1])])
    return out


class Baseline:
    """Shared-token counting over every capability and candidate, as the reference ranks."""

    def __init__(self, store: Any, keys: dict[int, str]):
        self.docs: list[tuple[str, frozenset[str]]] = []
        for cap_id, name, description, tags in store.conn.execute(
                "SELECT cap_id, name, description, tags FROM capabilities ORDER BY id"):
            self.docs.append((f"capability:{cap_id}", self._tokens(f"{cap_id} {name} {description} {tags}")))
        for cid, ecosystem, name, kind, record in store.conn.execute(
                "SELECT id, ecosystem, name, kind, record FROM candidates ORDER BY id"):
            r = json.loads(record)
            package = name.split("#", 1)[0].rpartition("@")[0]
            text = f"{r.get('name') or ''} {r.get('description') or ''} {kind} {package}"
            self.docs.append((keys[cid], self._tokens(text)))

    @staticmethod
    def _tokens(text: str) -> frozenset[str]:
        return frozenset(_TOKEN.findall(text.lower()))

    def rank(self, need: str, k: int = 10) -> list[str]:
        wanted = self._tokens(need)
        scored = [(len(wanted & toks), i) for i, (_, toks) in enumerate(self.docs)]
        scored = [(s, i) for s, i in scored if s > 0]
        scored.sort(key=lambda x: (-x[0], x[1]))
        out: list[str] = []
        for _, i in scored:
            key = self.docs[i][0]
            if key not in out:
                out.append(key)
            if len(out) == k:
                break
        return out


# -- scoring --------------------------------------------------------------------------------------


def metrics(ranked: list[str], relevant: set[str]) -> tuple[float, float]:
    rr = next((1.0 / (i + 1) for i, key in enumerate(ranked[:10]) if key in relevant), 0.0)
    recall = len(set(ranked[:10]) & relevant) / min(10, len(relevant))
    return rr, recall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--remine", action="store_true", help="mine every package again (else cached reports)")
    parser.add_argument("--needs", default=str(NEEDS_FILE))
    parser.add_argument("--show", type=int, default=40, help="needs whose misses are printed")
    parser.add_argument("--no-releases", action="store_true",
                        help="leave out the registry's release records (package descriptions)")
    args = parser.parse_args()
    say = (lambda *a: None) if args.json else (lambda *a: print(*a, file=sys.stderr, flush=True))
    WORKDIR.mkdir(parents=True, exist_ok=True)
    db, keys, counts = build_store(args.remine, say, not args.no_releases)
    labels = json.loads(Path(args.needs).read_text())["needs"]
    from index.store import Store

    present = set(keys.values())
    rows, unreachable = [], []
    with Store(db) as store:
        present |= {f"capability:{c}" for (c,) in store.conn.execute("SELECT cap_id FROM capabilities")}
        baseline = Baseline(store, keys)
        times = []
        for label in labels:
            relevant = {canonical(key) for key in label["relevant"] if canonical(key) in present}
            unreachable += [(label["need"], key) for key in label["relevant"] if canonical(key) not in present]
            if not relevant:
                continue
            t = time.perf_counter()
            ours = capindex_ranking(store, label["need"], keys)
            times.append(time.perf_counter() - t)
            base = baseline.rank(label["need"])
            rows.append({"need": label["need"], "relevant": sorted(relevant), "capindex": ours, "baseline": base,
                         "capindex_rr_recall": metrics(ours, relevant), "baseline_rr_recall": metrics(base, relevant)})
    n = len(rows)
    summary = {
        "needs": n, "labelled": len(labels),
        "capindex": {"mrr@10": sum(r["capindex_rr_recall"][0] for r in rows) / n,
                     "recall@10": sum(r["capindex_rr_recall"][1] for r in rows) / n},
        "baseline": {"mrr@10": sum(r["baseline_rr_recall"][0] for r in rows) / n,
                     "recall@10": sum(r["baseline_rr_recall"][1] for r in rows) / n},
        "capindex_ms_mean": 1000 * sum(times) / len(times),
    }
    passed = (summary["capindex"]["mrr@10"] > summary["baseline"]["mrr@10"]
              and summary["capindex"]["recall@10"] > summary["baseline"]["recall@10"])
    result = {"machine": machine(), "code": code_version(), "store": counts, "summary": summary,
              "unreachable_labels": unreachable, "per_need": rows, "pass": passed}
    if args.json:
        print(json.dumps(result, indent=2))
        return 0 if passed else 1
    worst = sorted(rows, key=lambda r: (r["capindex_rr_recall"][0], r["capindex_rr_recall"][1]))
    for r in worst[: args.show]:
        rr, rec = r["capindex_rr_recall"]
        if rr == 1.0 and rec == 1.0:
            continue
        print(f"- {r['need']!r}: capindex rr {rr:.2f} recall {rec:.2f} (baseline {r['baseline_rr_recall'][0]:.2f} "
              f"{r['baseline_rr_recall'][1]:.2f})")
        print(f"    relevant: {', '.join(r['relevant'])}")
        print(f"    capindex top 5: {' | '.join(r['capindex'][:5])}")
    if unreachable:
        print(f"labels naming nothing in the store (not mined): {len(unreachable)}")
        for need, key in unreachable:
            print(f"    {need!r}: {key}")
    s = summary
    print(f"{s['needs']} labelled needs over {counts['native']} native capabilities and {counts['candidates']} "
          f"candidates ({counts['packages']} packages, {counts['bound']} bound)")
    print(f"{'ranker':<10} {'MRR@10':>7} {'recall@10':>10}")
    for name in ("capindex", "baseline"):
        print(f"{name:<10} {s[name]['mrr@10']:>7.3f} {s[name]['recall@10']:>10.3f}")
    print(f"capindex mean latency on this store: {s['capindex_ms_mean']:.1f} ms")
    print(f"capindex beats the baseline on both: {'PASS' if passed else 'FAIL'}")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
