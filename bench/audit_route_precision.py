#!/usr/bin/env python3
"""How many of the routes the docs do not name are real: a precision audit of HTTP routes.

bench_mine_quality.py counts a public route no label names as a false positive. Its labels come
from prose docs, and many services document a part of what they serve (chimera-api's README
names 8 of its 481 routes), so that figure is a floor. This script measures how far it is from
the truth: it draws a seeded random sample of those unlabelled routes, and a reviewer decides
for each, by reading the package's code (never the miner's), whether the running service really
serves that METHOD and full path. The verdicts are kept in bench/audit_route_precision/, one
file per sample (verdicts-seed50.tsv: the run of 2026-12-02 at 3af82df; verdicts-seed51.tsv: at baa2095).

    # 1. the held-out run, then the sample (one row per route: where the miner says it is registered)
    python bench/bench_mine_quality.py --heldout --json > /tmp/heldout.json
    python bench/audit_route_precision.py sample /tmp/heldout.json --size 200 --seed 50 > sample.tsv
    # 2. a reviewer adds two columns, verdict and note (served, wrong-path, wrong-method,
    #    not-served, unclear), then:
    python bench/audit_route_precision.py score /tmp/heldout.json bench/audit_route_precision/verdicts-seed50.tsv

Only "served" counts as real. The estimate is the run's correct routes plus the served share of
its unlabelled ones, over every non-neutral route found, with a 95% Wilson interval from the
sample's share.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import random
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_mine_quality import norm

VERDICTS = ("served", "wrong-path", "wrong-method", "not-served", "unclear")


def unlabelled(run: dict) -> list[tuple[str, str]]:
    """Every (locator, route) the run counted as a false positive, in the run's order."""
    return [(p["locator"], name) for p in run["packages"]
            for name in p["kinds"].get("http-route", {}).get("false_positives", [])]


def sample(run: dict, size: int, seed: int) -> list[dict[str, str]]:
    from miners.mine import mine_tree
    from miners.sources import open_directory

    paths = json.loads((ROOT / "bench/out/mine/paths.json").read_text())
    chosen = random.Random(seed).sample(unlabelled(run), size)
    by_package: dict[str, set[str]] = {}
    for locator, name in chosen:
        by_package.setdefault(locator, set()).add(name)
    rows = []
    for locator, names in sorted(by_package.items()):
        for c in mine_tree(open_directory(paths[locator]))["candidates"]:
            key = norm("http-route", c["name"]) if c["kind"] == "http-route" else None
            if key in names and c.get("visibility") == "public":
                names.discard(key)
                rows.append({"locator": locator, "package_dir": str(Path(paths[locator]).resolve().relative_to(ROOT)),
                             "route": c["name"], "file:line": f"{c['source']['path']}:{c['source']['line']}"})
        for name in sorted(names):  # a declared operation, named as its document's server joins it
            print(f"not placed in code: {locator} {name}", file=sys.stderr)
    return rows


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def score(run: dict, verdict_files: list[Path]) -> dict:
    rows = [r for f in verdict_files for r in csv.DictReader(f.open(), delimiter="\t")]
    bad = [r for r in rows if r.get("verdict") not in VERDICTS]
    if bad:
        raise SystemExit(f"error: {len(bad)} rows without a known verdict, e.g. {bad[0].get('route')!r}")
    counts = Counter(r["verdict"] for r in rows)
    http = run["per_group"]["HTTP services"]
    judged = http["found"] - http["neutral"]
    false = judged - http["correct"]
    low, high = wilson(counts["served"], len(rows))

    def estimate(share: float) -> float:
        return (http["correct"] + share * false) / judged

    return {"sampled": len(rows), "verdicts": dict(counts), "served_share": counts["served"] / len(rows),
            "labelled_precision": http["correct"] / judged, "unlabelled": false,
            "audited_precision": estimate(counts["served"] / len(rows)),
            "audited_precision_95": [estimate(low), estimate(high)]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    s = sub.add_parser("sample")
    s.add_argument("run", type=Path)
    s.add_argument("--size", type=int, default=200)
    s.add_argument("--seed", type=int, default=50)
    c = sub.add_parser("score")
    c.add_argument("run", type=Path)
    c.add_argument("verdicts", type=Path, nargs="+")
    args = ap.parse_args()
    run = json.loads(args.run.read_text())
    if args.command == "sample":
        out = csv.DictWriter(sys.stdout, ["locator", "package_dir", "route", "file:line"], delimiter="\t",
                             lineterminator="\n")
        out.writeheader()
        out.writerows(sample(run, args.size, args.seed))
        return 0
    result = score(run, args.verdicts)
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
