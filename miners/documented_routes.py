"""HTTP routes a package serves and its documentation names: `/api/v1/query` in a README's
endpoint table, `curl http://localhost:6800/schedule.json` in its usage section, `/rawhide/pkg/kernel`
as an example of `/{branch}/pkg/{package}`.

A route the code registers and the documentation names is one endpoint seen twice: the route
gains the line that names it as evidence, and the confidence of two independent sources. What the
documentation leaves out stays public: shipped docs often name a few examples of a larger API
(httpbin's README, glances' docs name 5 and 4 of the 50 and 38 its full docs list), so unlike a
shipped OpenAPI document (miners/declared_routes.py) they are no declared surface.

Paths are matched whatever the method, so a table that puts the method in another column, or
gives none, still names its routes; a parameter matches any one segment; a path the docs write
under a prefix the code does not know (mounted at run time) matches by its end.
"""

from __future__ import annotations

import re
from typing import Any

from .declared_routes import route_key

# a path in prose, a table, a code span or a URL; it stops where prose ends one
_PATH = re.compile(r"(?:https?://[^/\s`'\"<>()]+|\b(?:localhost|127\.0\.0\.1|0\.0\.0\.0)(?::\d+)?|(?<![\w.~/\\-]))"
                   r"(/[A-Za-z0-9_{}<>:.~@$+=!*%,\-/\[\]]{0,300})")
_MAX_TOKENS = 5000  # distinct paths read from the documentation at most
DOCUMENTED_AND_SERVED = 0.9


def documented_paths(texts: list[tuple[str, str]]) -> dict[str, tuple[str, int]]:
    """{path as the documentation writes it (without a trailing slash or punctuation): (file, line)}."""
    out: dict[str, tuple[str, int]] = {}
    for path, text in texts:
        if "/" not in text:
            continue
        for m in _PATH.finditer(text):
            token = _without_brackets(m[1]).rstrip(".,:;!*]").rstrip("/") or "/"
            if len(token) > 1 and token not in out:
                out[token] = (path, text.count("\n", 0, m.start()) + 1)
                if len(out) >= _MAX_TOKENS:
                    return out
    return out


def _without_brackets(path: str) -> str:
    """`/styles[/{tileSize}]/{id}.json` as the path without its optional parts."""
    while "[" in path:
        start = path.find("[")
        end = path.find("]", start)
        if end < 0:
            return path[:start]
        path = path[:start] + path[end + 1:]
    return path


Shape = tuple[str, re.Pattern[str]]  # (a literal segment the path must have, the pattern)


def _pattern(path: str) -> Shape | None:
    """A route's path as a pattern for what the docs may write: a parameter is one segment (or a
    parameter in the docs' own syntax); the docs may write a prefix before it. None for a path
    with no literal segment (the root, a catch-all): every path would name it."""
    shape = route_key("GET", path)[1]
    literal = max((part for part in shape.split("/") if part and "{}" not in part), key=len, default="")
    if not literal:
        return None
    parts = [re.escape(p) for p in shape.split("{}")]
    return literal, re.compile(r"(?:/[^/]+)*" + r"[^/]+".join(parts) + r"/?")


def link_documented_routes(candidates: list[dict[str, Any]], texts: list[tuple[str, str]]) -> None:
    """Link, in place, the package's code routes and the paths its documentation names."""
    routes = [c for c in candidates if c["kind"] == "http-route"]
    if not routes or not texts:
        return
    named = documented_paths(texts)
    if not named:
        return
    by_segment: dict[str, list[str]] = {}  # a segment -> the named paths that have it
    for token in named:
        for part in dict.fromkeys(token.split("/")):
            by_segment.setdefault(part, []).append(token)
    patterns: dict[str, Shape | None] = {}
    # a path that is one route's as written names that route, not another's parameter
    # (`/api/4/config` is glances' config route, not an example of `/api/4/{plugin}`)
    literal = {shape for r in routes if "{}" not in (shape := route_key("GET", r["name"].partition(" ")[2])[1])}
    for route in routes:
        path = route["name"].partition(" ")[2]
        if path not in patterns:
            patterns[path] = _pattern(path)
        shape = patterns[path]
        if shape is None:
            continue
        own = route_key("GET", path)[1]
        token = next((token for token in by_segment.get(shape[0], ()) if shape[1].fullmatch(token) and (
            own in literal or route_key("GET", token)[1] not in literal)), None)
        if token is not None:
            where, line = named[token]
            route["evidence"].append({"kind": "documentation", "detail": f"{where} names {token}",
                                      "path": where, "line": line})
            route["confidence"] = max(route["confidence"], DOCUMENTED_AND_SERVED)
