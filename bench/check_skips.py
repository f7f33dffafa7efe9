#!/usr/bin/env python3
"""Check, over every cached real package, that the miner's shortcuts change nothing.

The miner skips work it can prove would find nothing (miners/effect_gate.py, the surface
prefilters in miners/surfaces.py) and reads declarations without the query pass when no other
concern needs it (miners/js_outline.py; Python's root query). Those proofs rest on reading the
extractors' code and tables; this script checks them against real code: for every JS/TS and
Python file of every package the mining benchmarks fetched (bench/out/mine/paths.json),

- a file the effect gate skips has no effect and no hazard when its extractor runs anyway;
- the effect extractor, which looks only at the calls and loads it finds from their words, finds
  what it finds when it looks at every call, import and declarator of the query pass;
- a file the surface prefilter skips has no surface and mounts no router when its extractor runs anyway;
- declarations read without the pass equal those read from the pass (every file, skipped or not);
- in a file with effects, the calls found from the names of symbols with effects are those the
  pass finds, kept to those names (what mining reads of them).

Run it after changing an effect table, a surface extractor or a declarations query. It prints
what each shortcut skipped and every file where one is wrong; exit status 1 when any is.

Usage:
    python bench/check_skips.py [--workdir bench/out/mine]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def check_file(path: str, language: str, data: bytes, tally: Counter[str]) -> list[str]:
    """The shortcuts' mistakes in one file (none expected), counting what each skipped."""
    from miners import declarations, effects, parsing, surfaces
    from miners.facts import ParsedFile

    tree = parsing.parse(language, data)

    def fresh() -> ParsedFile:
        pf = ParsedFile(path, language, data, tree)
        parsing.fast_text(pf)
        return pf

    wrong = []
    py = language == "python"
    pf = fresh()
    skip = (effects._PY_GATE if py else effects._JS_GATE).nothing_to_find(pf)
    tally["files"] += 1
    tally["bytes"] += len(data)
    found = (effects._PyEffects if py else effects._JsEffects)(pf).run()
    if skip:
        tally["effects skipped (bytes)"] += len(data)
        if found[0] or found[1]:
            wrong.append(f"the effect gate skips a file with {len(found[0])} effects, {len(found[1])} hazards")
    if found != every_call_effects(fresh()):
        wrong.append("the effects found from words differ from those of every call")
    may = surfaces.py_may_declare(fresh()) if py else surfaces.js_may_declare(fresh())
    if not may:
        tally["surfaces skipped (bytes)"] += len(data)
        reader = (surfaces._Python if py else surfaces._Js)(fresh())
        found_surfaces = reader.run()
        if found_surfaces or reader.found_mounts:
            wrong.append(f"the surface prefilter skips a file with {len(found_surfaces)} surfaces, "
                         f"{len(reader.found_mounts)} mounts")
    with_pass = fresh()
    parsing.file_matches(with_pass, "declarations")
    without = fresh()
    if declarations.extract_declarations(with_pass, calls=False) != declarations.extract_declarations(without,
                                                                                                     calls=False):
        wrong.append("declarations read without the query pass differ from the pass's")
    if found[0]:  # the calls that carry effects, found from names, are the pass's (those of effectful symbols)
        starts = sorted(h.start_byte for h in found[0])  # (mining passes them in source order)
        full, _ = declarations.extract_declarations(fresh(), calls=True)
        targeted, _ = declarations.extract_declarations(fresh(), calls=True, effects_at=starts)
        effectful = {s.name for s in full if any(s.start_byte <= at < s.end_byte for at in starts)}
        kept = [[(s.name, [c for c in s.calls if c in effectful]) for s in symbols] for symbols in (full, targeted)]
        if kept[0] != kept[1]:
            wrong.append("the effect-carrying calls found from names differ from the pass's")
    if not may:
        tally["mined without the query pass (bytes)"] += len(data)
    return wrong


def every_call_effects(pf: Any) -> tuple[list[Any], list[Any]]:
    """The effect extractor run as it ran before it found calls from their words: over every call,
    `new`, import and declarator of the file's query pass."""
    from miners import effects
    from miners.surfaces import collect_file

    caps = collect_file(pf, "surfaces")  # (the same call, `new`, import and declarator patterns)
    py = pf.language == "python"
    kind = effects._PyEffects if py else effects._JsEffects
    extractor = kind.__new__(kind)
    effects._Base.__init__(extractor, pf)
    extractor.names, extractor.loads = {}, {}
    for node in caps.get("import", []):
        extractor._import(node)
    for node in [] if py else caps.get("declarator", []):
        extractor._require(node)
    for call in caps.get("call", []):
        if py:
            extractor.call(call)
        else:
            extractor.call(call, call.child_by_field_name("function"), "")
    for node in [] if py else caps.get("new", []):
        extractor.call(node, node.child_by_field_name("constructor"), "new ")
    extractor.named_calls = lambda *args: []  # the calls are done: run() adds os.environ / process.env alone
    return extractor.run()


def main(argv: list[str] | None = None) -> int:
    from miners.coverage import content_problem, plan
    from miners.sources import open_directory

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workdir", default=str(ROOT / "bench" / "out" / "mine"))
    args = ap.parse_args(argv)
    marker = Path(args.workdir) / "paths.json"
    if not marker.exists():
        print(f"check_skips: no fetched packages in {args.workdir} (run bench/bench_mine.py first)", file=sys.stderr)
        return 2
    packages = json.loads(marker.read_text())
    tally: Counter[str] = Counter()
    mistakes = 0
    for locator, where in sorted(packages.items()):
        tree = open_directory(where)
        for path, language in plan(list(tree.files())).source:
            if language not in ("python", "javascript", "typescript", "tsx"):
                continue
            data = tree.read(path)
            if content_problem(data):
                continue
            for problem in check_file(path, language, data, tally):
                mistakes += 1
                print(f"{locator} {path}: {problem}")
    total = tally["bytes"] or 1
    print(f"{len(packages)} packages, {tally['files']} JS/TS and Python files, {tally['bytes'] / 1e6:.1f} MB")
    for key in ("effects skipped (bytes)", "surfaces skipped (bytes)", "mined without the query pass (bytes)"):
        print(f"  {key}: {tally[key] / 1e6:.1f} MB ({tally[key] / total:.0%})")
    print(f"mistakes: {mistakes}")
    return 1 if mistakes else 0


if __name__ == "__main__":
    sys.exit(main())
