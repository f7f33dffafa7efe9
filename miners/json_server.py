"""Routes of a json-server router: `jsonServer.router('db.json')` (or `router(require('./data.json'))`,
`router(clone(data))` of `const data = require('../data.json')`) serves a REST resource per
top-level key of that database, as json-server documents: for a list, `GET /posts`, `POST /posts`,
`GET|PUT|PATCH|DELETE /posts/:id`; for an object, `GET|PUT|PATCH /profile`; and, for a list whose
items hold `postId`, the nested `GET|POST /posts/:id/comments`.

The per-file part (`json_server_routers`) records each such router with the database file it
names; assembly (`resolve_json_server_routes`) reads that file (JSON, at most _DATA_LIMIT bytes)
and adds the routes, on the router's variable, before mounts are applied (`app.use('/api',
router)`). A database the package does not ship, or one that does not parse, gives no route: the
keys are data, and nothing is guessed. The nested routes take a list's singular by dropping its
plural ending (`comments` -> `comment`, `categories` -> `category`), as json-server's pluralize
does for regular nouns.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable
from typing import Any

from .declarations import require_specifier
from .facts import FileFacts, ParsedFile, Surface

_LOADED = re.compile(rb"""require\(\s*['"]json-server['"]\s*\)|from\s+['"]json-server['"]""")
_IMPORTED = re.compile(rb"""import\s+([A-Za-z_$][\w$]*)\s+from\s+['"]json-server['"]""")
_DATA_LIMIT = 16 << 20  # a database file read for its keys: at most this many bytes
_RESOURCE = re.compile(r"^[A-Za-z0-9_-]+$")


def json_server_routers(parsed: ParsedFile) -> list[tuple[str, str, int]]:
    """(the router's variable, the database file as a tree path, line) of each `X.router(db)` of
    json-server in a JS file (cheap: the module's load is searched for first)."""
    source = parsed.source
    if b"json-server" not in source or b".router(" not in source or not _LOADED.search(source):
        return []
    out = []
    text = parsed.text
    bound = _bindings(parsed)
    servers = {name for name, value in bound.items() if require_specifier(parsed, value) == "json-server"}
    servers.update(m.group(1).decode() for m in _IMPORTED.finditer(source))  # import jsonServer from 'json-server'
    for name, value in bound.items():
        call = value
        if call is None or call.type != "call_expression":
            continue
        function = call.child_by_field_name("function")
        if function is None or function.type != "member_expression" or \
                text(function.child_by_field_name("property")) != "router" or \
                text(function.child_by_field_name("object")) not in servers:
            continue
        args = [a for a in call.child_by_field_name("arguments").named_children if a.type != "comment"]
        data = _database(parsed, args[0], bound, 3) if args else None
        if data is not None:
            out.append((name, data, call.start_point[0] + 1))
    return out


def _bindings(parsed: ParsedFile) -> dict[str, Any]:
    """Each module-level or function-level `const name = value` of the file, by name (the last one)."""
    out: dict[str, Any] = {}
    stack = [parsed.tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "variable_declarator":
            name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
            if name is not None and name.type == "identifier" and value is not None:
                out[parsed.text(name)] = value
        stack.extend(reversed(node.named_children))
    return out


def _database(parsed: ParsedFile, node: Any, bound: dict[str, Any], depth: int) -> str | None:
    """The tree path of the database a router's argument names: a path string (json-server reads it
    from the working directory: the package's root), `require('./data.json')`, a name bound to one,
    or the one argument of a call that copies it (`clone(data)`)."""
    if depth < 0 or node is None:
        return None
    text = parsed.text(node)
    if node.type == "string":
        value = text.strip("'\"`")
        return posixpath.normpath(value) if value.endswith(".json") and not value.startswith("/") else None
    if node.type == "identifier":
        return _database(parsed, bound.get(text), bound, depth - 1)
    if node.type != "call_expression":
        return None
    args = [a for a in node.child_by_field_name("arguments").named_children if a.type != "comment"]
    if len(args) != 1:
        return None
    if parsed.text(node.child_by_field_name("function")) == "require":
        spec = require_specifier(parsed, node) or ""
        if not spec.startswith(".") or not spec.endswith(".json"):
            return None
        return posixpath.normpath(posixpath.join(posixpath.dirname(parsed.path), spec))
    return _database(parsed, args[0], bound, depth - 1)


def resolve_json_server_routes(facts: dict[str, FileFacts], read: Callable[[str], bytes]) -> None:
    """Add, in place, the routes each json-server router's database gives it."""
    for f in facts.values():
        for receiver, database, line in f.json_servers:
            for method, route in _routes(_keys(database, read)):
                f.surfaces.append(Surface(
                    kind="http-route", name=f"{method} {route}", line=line, end_line=line, framework="json-server",
                    detail={"method": method, "path": route, "receiver": receiver, "database": database}))


def _keys(database: str, read: Callable[[str], bytes]) -> dict[str, Any]:
    try:
        data = read(database)
        value = json.loads(data) if len(data) <= _DATA_LIMIT else None
    except Exception:  # noqa: BLE001 - a file the tree lacks, or one that does not parse: no route
        return {}
    return value if isinstance(value, dict) else {}


def _routes(db: dict[str, Any]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    lists = {key: value for key, value in db.items() if isinstance(value, list) and _RESOURCE.match(key)}
    for key, value in db.items():
        if not _RESOURCE.match(key):
            continue
        if isinstance(value, list):
            out += [("GET", f"/{key}"), ("POST", f"/{key}")]
            out += [(m, f"/{key}/:id") for m in ("GET", "PUT", "PATCH", "DELETE")]
        elif isinstance(value, dict):
            out += [(m, f"/{key}") for m in ("GET", "PUT", "PATCH")]
    for parent in lists:
        field = _singular(parent) + "Id"
        for child, items in lists.items():
            if child != parent and any(isinstance(item, dict) and field in item for item in items[:20]):
                out += [("GET", f"/{parent}/:id/{child}"), ("POST", f"/{parent}/:id/{child}")]
    return out


def _singular(plural: str) -> str:
    if plural.endswith("ies") and len(plural) > 3:
        return plural[:-3] + "y"
    if plural.endswith(("sses", "xes", "ches", "shes")):
        return plural[:-2]
    return plural[:-1] if plural.endswith("s") and not plural.endswith("ss") else plural
