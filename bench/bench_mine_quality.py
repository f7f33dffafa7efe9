#!/usr/bin/env python3
"""Measure the repository miner's recall and precision against hand-made labels (issue 5).

The evaluation set is bench/eval_mine/*.json: one file per real published package at an exact
version (npm and PyPI), labelled from the package's own documentation (README, docs or man pages
shipped in the tarball/wheel, package.json bin / console_scripts, the project's API docs page) and
never from the miner's output. Each file:

    {"locator": "npm:name@version" | "pypi:name==version", "source": "...", "kinds": [...],
     "expected": [{"kind", "name", "from", "aliases"?: [...], "alt_kinds"?: [...]}],
     "neutral"?: [{"kind", "name", "why"}], "scope"?: {"paths": [globs]},
     "bin_aliases"?: {"other-bin": "documented-bin"}, "notes"?: "...", "excluded"?: "why"}

A file with "excluded" is listed, with its reason, and not scored: the artifact itself cannot
serve what its documentation labels (a published wheel without the module its URLconf includes).

Each package is fetched (cached, verified) through `capindex fetch`, mined in-process with
miners.mine.mine_tree, and compared per kind, for the kinds listed in "kinds" only.

Which candidates count
  * library kinds (function, class, method): visibility == "public", and source.path matching one
    of the file's scope globs (fnmatch on the package-relative path, `*` within one directory,
    `**` across directories; default: every file). Recall looks at public candidates anywhere. The
    scope is the module(s) whose surface the documentation covers, so precision is measured over
    the documented namespace and not over helper modules the docs never mention.
  * http-route: visibility == "public", as for the library kinds. A route is internal when the
    package ships an OpenAPI document that describes its server and leaves that route out (its
    declared HTTP surface, as `__all__` is a module's; miners/declared_routes.py). A declared
    operation read from such a document counts as the route it declares, "METHOD /path" under its
    first server's path: the package's own statement of a route it offers, found by reading the
    document, whether or not code that serves it was found. The figure over every route whatever
    its visibility is printed beside the target's.
  * cli-command, cli-subcommand, mcp-tool, mcp-resource: any visibility.
  Candidates are compared as a set of distinct (kind, name): the same name mined from two files
  (a .js and its .d.ts, a bundle and a per-method module) is one finding.

Matching
  * names compared case-sensitively after trimming; a label also matches any of its "aliases",
    and candidates of its "alt_kinds" (e.g. slugify.extend documented as a function, mined as a
    method) — counted under the label's kind;
  * CLI: the whole command path as typed ("tool sub"); "bin_aliases" renames the first word of a subcommand path (a
    package whose two bins run the same program, e.g. sequelize-cli -> sequelize);
  * routes: "METHOD /path", method upper-cased, path parameters normalised (`:id`, `{id}`,
    `<int:id>`, a docs' `[area ID]` -> `{}`), a query string and a trailing slash dropped; a label's method "*"
    matches every method, and so does a found route of every method ("ANY": Django's path(),
    Express's app.all(), which serve the documented method too); a found route with Express's optional parameters (`/a/:b?`) matches
    the path with them and the path without them; a last segment that is Express's wildcard (`/raw/:ref/*`,
    the rest of the path) matches a parameter there (`/raw/{ref}/{path}`).

Scores, per package and kind
  recall    = labelled items found / labelled items
  precision = found items that match a label / (found items - neutral ones)
  Neutral found items are neither hits nor false positives: the "neutral" list (documented
  aliases, things declared public by the package but not documented, properties), and a route
  whose path is documented but whose method differs from the documented one.

Totals are pooled (micro) per kind and per group — libraries (function, class, method), CLIs
(cli-command, cli-subcommand), MCP servers (mcp-tool, mcp-resource), HTTP services (http-route).
Target (issue 5): every group's pooled recall >= 0.9 and precision >= 0.8; exit 0 only then.
The per-package mean (macro) is printed beside it for information.

Usage:
    python bench/bench_mine_quality.py [--json] [--only SUBSTRING] [--workdir bench/out/mine]
                                       [--show 8] [--heldout]
"""

from __future__ import annotations

import argparse
import fnmatch
import itertools
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_mine import fetch  # cached, verified fetch through capindex

from miners.declared_routes import served_paths

EVAL_DIR = ROOT / "bench" / "eval_mine"
# labelled from the docs before the miner was ever run on them: the test of packages not seen
HELDOUT_DIR = ROOT / "bench" / "eval_mine_heldout"
LIBRARY_KINDS = ("function", "class", "method")
GROUPS = {"libraries": LIBRARY_KINDS, "CLIs": ("cli-command", "cli-subcommand"),
          "MCP servers": ("mcp-tool", "mcp-resource"), "HTTP services": ("http-route",)}
TARGET_RECALL, TARGET_PRECISION = 0.9, 0.8
# `:url(.*)`: path-to-regexp's own pattern; `[area ID]`: a placeholder in brackets (mapit's docs), which
# no path spells literally (RFC 3986 keeps `[` for hosts); `(int:id)`: sphinxcontrib-httpdomain's
PARAM = re.compile(r":[A-Za-z_][\w-]*(?:\([^)]*\))?|\{[^}/]*\}|<[^>/]*>|\[[A-Za-z][\w |-]*\]"
                   r"|(?<=/)\((?:[a-z]+:)?[A-Za-z_]\w*\)(?=/|$)")


OPTIONAL = re.compile(r"/:[A-Za-z_][\w-]*\?")  # Express's optional parameter: `/email/:id/relay/:to?`


def norm_route(name: str) -> tuple[str, str]:
    method, _, path = name.strip().partition(" ")
    path = OPTIONAL.sub("/{}\0", path.strip())  # its `?` starts no query string: kept apart while one is cut
    path = path.split("?", 1)[0].replace("\0", "?")
    path = PARAM.sub("{}", path)
    if len(path) > 1:
        path = path.rstrip("/")
    return method.strip().upper(), path or "/"


def norm(kind: str, name: str, bin_aliases: dict[str, str] | None = None) -> str:
    name = " ".join(name.strip().split()) if kind.startswith("cli-") else name.strip()
    if kind == "http-route":
        return " ".join(norm_route(name))
    if kind.startswith("cli-") and bin_aliases and " " in name:  # a bin itself keeps its own name
        head, _, rest = name.partition(" ")
        name = f"{bin_aliases.get(head, head)} {rest}"
    return name


def _match(kind: str, found: str, wanted: str) -> bool:
    if kind != "http-route":
        return found == wanted
    fm, fp = found.split(" ", 1)
    wm, wp = wanted.split(" ", 1)
    # a route of every method (Django's path(), Express's app.all()) serves the documented one
    return bool(_forms(fp) & _forms(wp)) and (wm == "*" or fm == "ANY" or wm == fm)


def _forms(path: str) -> set[str]:
    """A path with optional parameters (`/{}?`, Express's `/:title?/:revision?`) as each path it
    stands for, every optional one there or not; one whose last segment is a wildcard (`/*`) also
    as a parameter there; else itself."""
    if path.endswith("/*"):
        return {path, path[:-1] + "{}"}
    if "/{}?" not in path:
        return {path}
    pieces = path.split("/{}?")[:9]  # (at most 8 optional parameters: 256 forms)
    return {"".join(piece + ("/{}" if keep else "") for piece, keep in zip(pieces, (*kept, False))) or "/"
            for kept in itertools.product((True, False), repeat=len(pieces) - 1)}


def in_scope(path: str, glob: str) -> bool:
    """fnmatch where `*` stays inside one path segment and `**` crosses segments."""
    if "**" in glob:
        return fnmatch.fnmatchcase(path, glob)
    parts, pats = path.split("/"), glob.split("/")
    return len(parts) == len(pats) and all(fnmatch.fnmatchcase(a, b) for a, b in zip(parts, pats))


def eligible(candidates: list[dict[str, Any]], spec: dict[str, Any],
             every_route: bool = False) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """({kind: names} that can recall a label, {kind: names} judged for precision): distinct,
    normalised. They differ only for library kinds: recall looks at public candidates anywhere in
    the package, precision only at those inside the scope."""
    scope = (spec.get("scope") or {}).get("paths") or ["**"]
    aliases = spec.get("bin_aliases") or {}
    anywhere: dict[str, set[str]] = {k: set() for k in spec["kinds"]}
    judged: dict[str, set[str]] = {k: set() for k in spec["kinds"]}
    for c in candidates:
        kind = c.get("kind")
        if kind == "declared-operation" and (c.get("declared") or {}).get("format") == "openapi":
            meta = c["declared"]["metadata"]
            kind, c = "http-route", {**c, "name": f"{meta['method']} {served_paths(meta)[0][0]}"}
        if kind not in judged:
            continue
        if kind == "http-route" and c.get("visibility") != "public" and not every_route:
            continue
        name = norm(kind, c.get("name") or "", aliases)
        if kind in LIBRARY_KINDS:
            if c.get("visibility") != "public":
                continue
            anywhere[kind].add(name)
            path = ((c.get("source") or {}).get("path") or "")
            if any(in_scope(path, g) for g in scope):
                judged[kind].add(name)
        else:
            anywhere[kind].add(name)
            judged[kind].add(name)
    return anywhere, judged


def score(spec: dict[str, Any], anywhere: dict[str, set[str]], found: dict[str, set[str]]) -> dict[str, Any]:
    """Per-kind counts, misses and false positives for one package."""
    labels = []
    for item in spec["expected"]:
        kinds = [item["kind"], *item.get("alt_kinds", [])]
        names = [norm(item["kind"], n) for n in [item["name"], *item.get("aliases", [])]]
        labels.append((item["kind"], kinds, names, item["name"]))
    neutral = [(n["kind"], norm(n["kind"], n["name"])) for n in spec.get("neutral", [])]
    per: dict[str, dict[str, Any]] = {k: {"labelled": 0, "recalled": 0, "found": 0, "correct": 0, "neutral": 0,
                                          "misses": [], "false_positives": []} for k in spec["kinds"]}
    for kind, kinds, names, shown in labels:
        row = per.setdefault(kind, {"labelled": 0, "recalled": 0, "found": 0, "correct": 0, "neutral": 0,
                                    "misses": [], "false_positives": []})
        row["labelled"] += 1
        if any(_match(k, f, n) for k in kinds for f in anywhere.get(k, ()) for n in names):
            row["recalled"] += 1
        else:
            row["misses"].append(shown)
    for kind, names in found.items():
        row = per[kind]
        documented_paths = {n.split(" ", 1)[1] for lk, ks, ns, _ in labels if kind in ks for n in ns} \
            if kind == "http-route" else set()
        for name in sorted(names):
            row["found"] += 1
            if any(kind in ks and any(_match(kind, name, n) for n in ns) for _, ks, ns, _ in labels):
                row["correct"] += 1
            elif any(nk == kind and _match(kind, name, nn) for nk, nn in neutral) or \
                    (kind == "http-route" and name.split(" ", 1)[1] in documented_paths):
                row["neutral"] += 1
            else:
                row["false_positives"].append(name)
    for row in per.values():
        row["recall"] = row["recalled"] / row["labelled"] if row["labelled"] else None
        judged = row["found"] - row["neutral"]
        row["precision"] = row["correct"] / judged if judged else None
    return per


def run_package(path: Path, workdir: Path) -> dict[str, Any]:
    from miners.mine import mine_tree
    from miners.sources import open_directory

    spec = json.loads(path.read_text())
    tree_path = fetch(workdir, spec["locator"])
    report = mine_tree(open_directory(str(tree_path)))
    anywhere, judged = eligible(report.get("candidates", []), spec)
    out = {"file": path.name, "locator": spec["locator"], "category": spec.get("category"),
           "kinds": score(spec, anywhere, judged)}
    if "http-route" in spec["kinds"]:  # for information: internal routes counted too
        every = score(spec, *eligible(report.get("candidates", []), spec, every_route=True))["http-route"]
        out["every_route"] = {"http-route": every}
    return out


def pooled(results: list[dict[str, Any]], kinds: tuple[str, ...] | list[str], scores: str = "kinds") -> dict[str, Any]:
    tot = {"labelled": 0, "recalled": 0, "found": 0, "correct": 0, "neutral": 0}
    macro_r, macro_p = [], []
    for res in results:
        rows = [res[scores][k] for k in kinds if k in res.get(scores, {})]
        if not rows:
            continue
        part = {key: sum(r[key] for r in rows) for key in tot}
        for key in tot:
            tot[key] += part[key]
        if part["labelled"]:
            macro_r.append(part["recalled"] / part["labelled"])
        if part["found"] - part["neutral"]:
            macro_p.append(part["correct"] / (part["found"] - part["neutral"]))
    judged = tot["found"] - tot["neutral"]
    tot["recall"] = tot["recalled"] / tot["labelled"] if tot["labelled"] else None
    tot["precision"] = tot["correct"] / judged if judged else None
    tot["macro_recall"] = sum(macro_r) / len(macro_r) if macro_r else None
    tot["macro_precision"] = sum(macro_p) / len(macro_p) if macro_p else None
    return tot


def fmt(x: float | None) -> str:
    return "  -  " if x is None else f"{x:5.2f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--only", help="evaluate only eval files whose name contains this")
    ap.add_argument("--workdir", default=str(ROOT / "bench" / "out" / "mine"))
    ap.add_argument("--show", type=int, default=8, help="misses / false positives listed per package and kind")
    ap.add_argument("--heldout", action="store_true",
                    help=f"evaluate the held-out set ({HELDOUT_DIR.relative_to(ROOT)}/) instead")
    args = ap.parse_args()
    workdir = Path(args.workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    files = sorted(p for p in (HELDOUT_DIR if args.heldout else EVAL_DIR).glob("*.json")
                   if not args.only or args.only in p.name)
    excluded = {p.name: spec["excluded"] for p in files if "excluded" in (spec := json.loads(p.read_text()))}
    results = [run_package(p, workdir) for p in files if p.name not in excluded]
    all_kinds = [k for g in GROUPS.values() for k in g]
    per_kind = {k: pooled(results, (k,)) for k in all_kinds}
    per_group = {g: pooled(results, ks) for g, ks in GROUPS.items()}
    failing = [g for g, t in per_group.items() if t["labelled"] and (
        (t["recall"] or 0) < TARGET_RECALL or (t["precision"] is None or t["precision"] < TARGET_PRECISION))]
    ok = not failing
    every_route = pooled(results, ("http-route",), scores="every_route")
    if args.json:
        print(json.dumps({"packages": results, "per_kind": per_kind, "per_group": per_group,
                          "http_routes_any_visibility": every_route,
                          "targets": {"recall": TARGET_RECALL, "precision": TARGET_PRECISION},
                          "failing_groups": failing, "ok": ok, "excluded": excluded}, indent=2))
        return 0 if ok else 1
    print(f"{'package':<58} {'kind':<15} {'lab':>4} {'hit':>4} {'found':>5} {'ok':>4} {'neu':>4} {'recall':>6} {'prec':>6}")
    for res in results:
        for kind, row in res["kinds"].items():
            if not row["labelled"] and not row["found"]:
                continue
            print(f"{res['locator']:<58} {kind:<15} {row['labelled']:>4} {row['recalled']:>4} {row['found']:>5} "
                  f"{row['correct']:>4} {row['neutral']:>4} {fmt(row['recall']):>6} {fmt(row['precision']):>6}")
            if row["misses"]:
                more = f" (+{len(row['misses']) - args.show} more)" if len(row["misses"]) > args.show else ""
                print(f"{'':<8}missed: {', '.join(row['misses'][:args.show])}{more}")
            if row["false_positives"]:
                more = f" (+{len(row['false_positives']) - args.show} more)" if len(row["false_positives"]) > args.show else ""
                print(f"{'':<8}false +: {', '.join(row['false_positives'][:args.show])}{more}")
    print()
    print(f"{'kind (pooled)':<24} {'lab':>5} {'hit':>5} {'found':>6} {'ok':>5} {'neu':>5} {'recall':>6} {'prec':>6}")
    for kind, t in per_kind.items():
        print(f"{kind:<24} {t['labelled']:>5} {t['recalled']:>5} {t['found']:>6} {t['correct']:>5} {t['neutral']:>5} "
              f"{fmt(t['recall']):>6} {fmt(t['precision']):>6}")
    print()
    print(f"{'group (pooled)':<24} {'lab':>5} {'hit':>5} {'recall':>6} {'prec':>6} {'macroR':>7} {'macroP':>7}  target")
    for g, t in per_group.items():
        verdict = "-" if not t["labelled"] else ("FAIL" if g in failing else "ok")
        print(f"{g:<24} {t['labelled']:>5} {t['recalled']:>5} {fmt(t['recall']):>6} {fmt(t['precision']):>6} "
              f"{fmt(t['macro_recall']):>7} {fmt(t['macro_precision']):>7}  {verdict}")
    if every_route["labelled"]:
        t = every_route
        print(f"{'(every route)':<24} {t['labelled']:>5} {t['recalled']:>5} {fmt(t['recall']):>6} {fmt(t['precision']):>6} "
              f"{fmt(t['macro_recall']):>7} {fmt(t['macro_precision']):>7}  internal ones too, for information")
    for name, why in excluded.items():
        print(f"excluded, not scored: {name}: {why}")
    print(f"\ntargets: recall >= {TARGET_RECALL}, precision >= {TARGET_PRECISION} per group: "
          + ("met" if ok else "NOT met (" + ", ".join(failing) + ")"))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
