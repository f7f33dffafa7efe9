"""HTTP routes written as "METHOD /path" strings: a router that takes them whole
(`router.addRoute("GET /api/0.6/map", handler)`, the `routes` package; osm-p2p-server wraps it as
`route("PUT /api/0.6/changeset/create", require("./changeset_create.js"))`), and route maps
(`{"GET /users": "UserController.find", "POST /users": ...}`, Sails.js's config/routes.js).

A string alone proves little (a log line, a test's title), so a route needs company: two or more
such strings as the first argument of calls to the same function with a handler after them, or
as keys of the same object.
"""

from __future__ import annotations

import re
from typing import Any

from .facts import ParsedFile, Surface
from .surfaces import JS_HANDLER_TYPES, _route_name, _surface, _unwrap_js, js_args, js_string
from .words import present

_MARK = re.compile(rb"""['"`](?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)[ \t]+/""")
_ROUTE = re.compile(r"(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)[ \t]+(/\S*)")
_VERBS = frozenset((b"GET", b"POST", b"PUT", b"PATCH", b"DELETE", b"HEAD", b"OPTIONS"))
_HANDLERS = (*JS_HANDLER_TYPES, "string")  # a route map's value may name its controller action
MIN_ROUTES = 2


def method_path_routes(parsed: ParsedFile) -> list[Surface]:
    """The routes a JavaScript or TypeScript file writes as "METHOD /path" strings, or none."""
    if parsed.tree is None or not _VERBS.intersection(present(parsed)) or \
            len(_MARK.findall(parsed.source, 0, len(parsed.source))) < MIN_ROUTES:
        return []  # (the words first: the mark's search tries every byte of the file)
    root = parsed.tree.root_node
    groups: dict[tuple[str, int | str], list[tuple[Any, str, str]]] = {}
    for m in _MARK.finditer(parsed.source):
        node = root.descendant_for_byte_range(m.start(), m.start() + 1)
        string = node.parent if node is not None and node.type != "string" else node
        if string is None or string.type not in ("string", "template_string"):
            continue
        found = _ROUTE.fullmatch(js_string(parsed, string) or "")
        if found is None:
            continue
        holder = string.parent
        if holder is not None and holder.type == "arguments" and holder.named_children[0] == string:
            call = holder.parent
            args = js_args(holder)
            if call is None or call.type != "call_expression" or len(args) < 2 or \
                    _unwrap_js(args[1]).type not in JS_HANDLER_TYPES:
                continue
            key: tuple[str, int | str] = ("call", parsed.text(call.child_by_field_name("function")))
            groups.setdefault(key, []).append((call, found[1], found[2]))
        elif holder is not None and holder.type == "pair" and holder.child_by_field_name("key") == string:
            value = _unwrap_js(holder.child_by_field_name("value"))
            if value is not None and value.type in (*_HANDLERS, "object"):
                groups.setdefault(("map", holder.parent.start_byte), []).append((holder, found[1], found[2]))
    out = []
    for (kind, _), routes in groups.items():
        if len(routes) < MIN_ROUTES:
            continue
        for node, method, written in routes:
            for path in _forms(written):
                out.append(_surface("http-route", _route_name(method, path), node, "route-strings",
                                    detail={"method": method, "path": path, "written": kind,
                                            **({"template": written} if path != written else {})}))
    return out


_OPTIONAL = re.compile(r"\((/[^()|]*)\)\?")  # `/api(/0.6)?/capabilities`
_ONE_VALUE = re.compile(r":\w+\(([\w.-]+)\)")  # `:type(changeset)`: a parameter of one literal value


def _forms(path: str) -> list[str]:
    """The paths a route string serves: an optional part without it and with it; a parameter that
    may take one value only, as that value."""
    path = _ONE_VALUE.sub(r"\1", path)
    m = _OPTIONAL.search(path)
    if m is None:
        return [path]
    without, with_it = path[:m.start()] + path[m.end():], path[:m.start()] + m[1] + path[m.end():]
    return list(dict.fromkeys([*_forms(without), *_forms(with_it)]))
