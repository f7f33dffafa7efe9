"""HTTP routes of pixl-server-api namespaces. A pixl-server component registers an object as a
namespace (`this.server.API.addNamespace("user", "api_", this)`), and each of its methods named
with the prefix (`api_create`) answers `/api/user/create`, whatever the method (the API takes GET
query strings and POSTed JSON alike). `/api` is the API's base URI unless the server's
configuration sets another (`base_uri`), and the candidate says so.

Only `this` is followed, in the object literal or class the call is written in: that is how
components (pixl-server-user, Cronicle's) register themselves.
"""

from __future__ import annotations

from typing import Any

from .facts import ParsedFile, Surface
from .surfaces import _JS_FUNCTIONS, _route_name, _surface, js_args, js_key, js_string

BASE_URI = "/api"
DEFAULT_BASE = ("served under pixl-server-api's base URI, /api unless the server's configuration "
                "sets another (base_uri)")


def pixl_api_routes(parsed: ParsedFile) -> list[Surface]:
    """The routes of the namespaces a JS file registers, or none (cheap when it registers none)."""
    source = parsed.source
    if parsed.tree is None or b"addNamespace" not in source:
        return []
    out: list[Surface] = []
    at = source.find(b"addNamespace")
    while at >= 0:
        node = parsed.tree.root_node.descendant_for_byte_range(at, at + len(b"addNamespace"))
        at = source.find(b"addNamespace", at + 1)
        call = node.parent.parent if node is not None and node.parent is not None else None
        if call is None or call.type != "call_expression" or node.type != "property_identifier":
            continue
        args = js_args(call.child_by_field_name("arguments"))
        if len(args) != 3 or args[2].type != "this":
            continue
        name, prefix = js_string(parsed, args[0]), js_string(parsed, args[1])
        if not name or not prefix or "/" in name:
            continue
        for key, method in _methods(parsed, call):
            if key.startswith(prefix) and len(key) > len(prefix):
                path = f"{BASE_URI}/{name}/{key[len(prefix):]}"
                out.append(_surface("http-route", _route_name("ANY", path), method, "pixl-server", handler=key,
                                    detail={"method": "ANY", "path": path, "unmounted": DEFAULT_BASE}))
    return out


def _methods(parsed: ParsedFile, call: Any) -> list[tuple[str, Any]]:
    """(name, node) of the functions of the object literal or class `this` is in at `call`."""
    scope = call.parent
    while scope is not None and scope.type not in ("object", "class_body"):
        scope = scope.parent
    out = []
    for child in scope.named_children if scope is not None else ():
        if child.type == "pair" and child.child_by_field_name("value") is not None and \
                child.child_by_field_name("value").type in _JS_FUNCTIONS:
            key = js_key(parsed, child.child_by_field_name("key"))
        elif child.type == "method_definition":
            key = js_key(parsed, child.child_by_field_name("name"))
        else:
            continue
        if key:
            out.append((key, child))
    return out
