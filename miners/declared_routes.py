"""HTTP routes a package both serves and declares: its code's routes against the operations of the
OpenAPI (or Swagger) documents it ships.

A route the code registers and a document declares is one operation seen twice, independently:
the route gains the declaration as evidence (and its description, when the code gave none) and
the declared operation gains the route that serves it. Once a document is shown to describe this
package's own server (one of its operations is served by the code), it is the package's declared
HTTP surface, as `__all__` is a module's: the routes it leaves out (web-UI pages, debugging
endpoints) are still reported, as internal.

An operation's path is matched under each of its servers' paths (OpenAPI's `servers: [{url:
http://host/api/v1}]`, Swagger's `basePath`) and, unless the code serves the document's routes so,
as written: code registers the whole path, or is mounted under the prefix at run time. Path parameters match whatever their
names and syntax (`:id`, `{id}`, `<int:id>`).
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

_PARAM = re.compile(r":[A-Za-z_][\w-]*(?:\([^)]*\))?\??|\{[^}/]*\}|<[^>/]*>")  # `:url(.*)`: a pattern of its own
DECLARED_AND_SERVED = 0.95  # two independent sources: the code that serves it and the document that declares it
NOT_INFERRED = "input and output schemas are not inferred"  # what miners.mine says of every mined candidate
INFERRED_SCHEMAS = "input and output schemas are the OpenAPI document's, not the code's"
UNDECLARED = "served, but not among the operations of the package's OpenAPI document ({paths})"


def route_key(method: str, path: str) -> tuple[str, str]:
    path = _PARAM.sub("{}", path.split("?", 1)[0])
    if len(path) > 1:
        path = path.rstrip("/")
    return method.upper(), path or "/"


def declared(route: dict[str, Any]) -> bool:
    """Whether an OpenAPI document the package ships declares the route (linked below)."""
    return any(e["kind"] == "declaration" and "pointer" in e for e in route["evidence"])


def served_paths(metadata: dict[str, Any]) -> tuple[list[str], list[str]]:
    """Where an OpenAPI operation is served: (under each of its servers' paths, or as written when
    they have none; as written when they do: what code mounted under the prefix registers)."""
    path = metadata.get("path") or ""
    prefixed = []
    for url in metadata.get("servers") or []:
        try:
            prefix = urlsplit(url).path.rstrip("/")
        except ValueError:  # a server URL that is not one ("http://[bad")
            continue
        if prefix and "{" not in prefix:  # a templated prefix ({basePath}) says nothing literal
            prefixed.append(prefix + path)
    return (list(dict.fromkeys(prefixed)), [path]) if prefixed else ([path], [])


def link_declared_routes(candidates: list[dict[str, Any]]) -> None:
    """Link, in place, the package's code routes and the operations its OpenAPI documents declare.
    A document whose routes the code serves under its servers' prefix is matched only so: then the
    same path without it (changedetection.io's web page `POST /import` beside its API's
    `POST /api/v1/import`) is another route."""
    ops = [c for c in candidates if c["kind"] == "declared-operation" and c["declared"]["format"] == "openapi"]
    if not ops:
        return
    routes = {}
    for c in candidates:
        if c["kind"] == "http-route":
            method, _, path = c["name"].partition(" ")
            routes.setdefault(route_key(method, path), []).append(c)
    paths = {id(op): served_paths(op["declared"]["metadata"]) for op in ops}
    prefixed_docs = {op["source"]["path"] for op in ops
                     if paths[id(op)][1] and any(key in routes for key in _keys(op, paths[id(op)][0]))}
    documents: set[str] = set()
    linked: set[int] = set()
    for op in ops:
        near, bare = paths[id(op)]
        for key in _keys(op, near if op["source"]["path"] in prefixed_docs else near + bare):
            for route in routes.get(key, ()):
                _link(route, op)
                linked.add(id(route))
                documents.add(op["source"]["path"])
    if not documents:
        return  # no document describes a route this code serves: it may be a client's, or an example
    note = UNDECLARED.format(paths=", ".join(sorted(documents)))
    for same in routes.values():
        for route in same:
            if id(route) not in linked:
                route["visibility"] = "internal"
                route["unknowns"].append(note)


def _keys(op: dict[str, Any], paths: list[str]) -> dict[tuple[str, str], None]:
    """The route keys that serve an operation at these paths: its method's, and a route of every
    method's (Django's `path()`, Express's `app.all()`)."""
    method = op["declared"]["metadata"].get("method") or ""
    return dict.fromkeys(route_key(m, p) for p in paths for m in (method, "ANY"))


def _link(route: dict[str, Any], op: dict[str, Any]) -> None:
    meta = op["declared"]["metadata"]
    served = f"{meta.get('method')} {meta.get('path')}"
    route["evidence"].append({"kind": "declaration", "detail": f"openapi: {op['name']} declares {served}",
                              "path": op["source"]["path"], "line": op["source"]["line"],
                              "pointer": op["declared"]["pointer"], "candidate": op["id"]})
    op["evidence"].append({"kind": "route", "detail": f"served by {route['evidence'][0]['detail']}",
                           "path": route["source"]["path"], "line": route["source"]["line"],
                           "candidate": route["id"]})
    route["confidence"] = max(route["confidence"], DECLARED_AND_SERVED)
    op["confidence"] = max(op["confidence"], DECLARED_AND_SERVED)
    if not route["description"] and op["description"]:
        route["description"] = op["description"]
        route["draft_contract"]["description"] = op["description"]
    contract, theirs = route["draft_contract"], op["draft_contract"]
    if "input" not in contract and "input" in theirs:  # the code's own schema (a zod/pydantic model) wins
        contract["input"] = theirs["input"]
        if "output" in theirs:
            contract["output"] = theirs["output"]
        route["unknowns"] = [INFERRED_SCHEMAS if u == NOT_INFERRED else u for u in route["unknowns"]]
