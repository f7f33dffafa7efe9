"""Routes served under the prefix the documentation writes them under, when the code leaves the
mount to whoever runs it: a reusable Django app's `urls.py` that its README tells you to include at
`path('auth/', ...)` and then lists as `/auth/login/`; a Tornado app whose handlers say `/api/users`
and whose docs, like its clients, call `/hub/api/users` (the prefix comes from a setting).

The code's paths are right but incomplete, and what a caller needs is the documented one. So when
the documentation names the routes of one file under one prefix (two of them at least, and at
least twice as many as it names bare or under any other prefix), every route of that file is
served under it, with the line that shows it as evidence and a note that the prefix is the
documentation's, not the code's. A route the docs name as the code writes it keeps its path.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from typing import Any

from .declared_routes import route_key
from .documented_routes import HISTORY, documented_paths, path_pattern, paths_by_segment
from .mounts import join

DOCUMENTED_MOUNT = ("served under {prefix} as the documentation writes it ({where}:{line}); the code leaves the "
                    "mount to the application or deployment that serves it")
_NOT_A_PREFIX = re.compile(r"[^\w{}<>:.~@$+=!%,/-]")  # what a mount's path cannot hold (prose, a glob)


def apply_documented_mounts(facts: dict[str, Any], texts: list[tuple[str, str]]) -> None:
    """Rename, in place, each file's routes to the prefix its documentation serves them under."""
    if not texts or not any(sum(s.kind == "http-route" for s in f.surfaces) >= 2 for f in facts.values()):
        return  # (a library's documentation is not read for it)
    named = documented_paths(texts, files=lambda where: not HISTORY.search(where))
    if not named:
        return
    by_segment = paths_by_segment(named)
    for f in facts.values():
        # (not a route its framework mounts: a Strapi plugin's admin routes are under /<plugin>)
        routes = [s for s in f.surfaces if s.kind == "http-route" and not s.detail.get("framework_mount")]
        if len(routes) < 2:
            continue
        votes: Counter[str] = Counter()
        bare: set[int] = set()
        shown: dict[str, str] = {}
        for i, surface in enumerate(routes):
            prefixes = _prefixes(surface.name.partition(" ")[2], by_segment, shown)
            if surface.detail.get("prefix_unknown"):
                # under a prefix set at run time: the path the docs write it at under one is the
                # whole path, the bare one (langserve's "`/invoke`, `/batch` endpoints") a part
                prefixes.discard("")
            votes.update(prefixes)
            if "" in prefixes:
                bare.add(i)
        prefix = _the_prefix(votes)
        if prefix is None:
            continue
        where, line = named[shown[prefix]]
        mounted = {id(s) for i, s in enumerate(routes) if i not in bare and not _under(s.name.partition(" ")[2], prefix)}
        f.surfaces = [_served_under(s, prefix, where, line) if id(s) in mounted else s for s in f.surfaces]


def _prefixes(path: str, by_segment: dict[str, list[str]], shown: dict[str, str]) -> set[str]:
    """The prefixes the documentation writes `path` under ("" where it writes the path as it is);
    `shown` keeps, per prefix, the first path written under it."""
    pattern = path_pattern(path)
    if pattern is None:  # the root, or parameters alone: every path would end so
        return set()
    own = len(route_key("GET", path)[1].rstrip("/").split("/"))
    out = set()
    for token in by_segment.get(pattern[0], ()):
        if not pattern[1].fullmatch(token):
            continue
        segments = token.split("?", 1)[0].rstrip("/").split("/")
        prefix = "/".join(segments[:len(segments) - own + 1]) if len(segments) > own else ""
        if not _NOT_A_PREFIX.search(prefix):
            out.add(prefix)
            shown.setdefault(prefix, token)
    return out


def _the_prefix(votes: Counter[str]) -> str | None:
    """The one prefix the documentation names the file's routes under, if one clearly is."""
    ranked = votes.most_common()
    best = next(((p, n) for p, n in ranked if p), None)
    if best is None or best[1] < 2:
        return None
    others = max((n for p, n in ranked if p != best[0]), default=0)
    return best[0] if best[1] >= 2 * others else None


def _under(path: str, prefix: str) -> bool:
    """Whether the path already begins with the prefix's segments."""
    return route_key("GET", path)[1].startswith(route_key("GET", prefix)[1].rstrip("/") + "/")


def _served_under(surface: Any, prefix: str, where: str, line: int) -> Any:
    method, _, path = surface.name.partition(" ")
    full = join(prefix, path)
    return replace(surface, name=f"{method} {full}",
                   detail={**surface.detail, "path": full,
                                                     "docs_mount": {"prefix": prefix, "where": where, "line": line,
                                                                    "written": surface.name}})
