"""HTTP routes that are modules: a file whose exports define one route, its method, its path and
its handler (TiddlyWiki's server routes: `exports.method = "GET"; exports.path = /^\\/status$/;
exports.handler = function (request, response, state) {...}`), or `module.exports = {method, path,
handler}`, or a function returning one (`module.exports = () => ({method, path, options: {handler}})`, a
hapi route's configuration, its handler in its options). The server finds such modules by their type at run time and registers each, out of a
static reader's sight, so these routes carry that caveat and a lower confidence (miners/mine.py).
"""

from __future__ import annotations

from typing import Any

from .facts import ParsedFile, Surface
from .surfaces import _regex_paths, _route_name, _surface, _unwrap_js, js_key, js_object_fields, js_string

_MARK = b"handler"
_LITERAL_FUNCTIONS = ("function_expression", "function", "arrow_function")
_FUNCTIONS = (*_LITERAL_FUNCTIONS, "identifier", "member_expression", "method_definition")


def route_module(parsed: ParsedFile) -> list[Surface]:
    """The routes a JavaScript module's exports define, or none."""
    if _MARK not in parsed.source or b"exports" not in parsed.source or parsed.tree is None:
        return []
    fields: dict[str, Any] = {}
    for statement in parsed.tree.root_node.named_children:
        expression = statement.named_child(0) if statement.type == "expression_statement" else None
        if expression is None or expression.type != "assignment_expression":
            continue
        left, right = expression.child_by_field_name("left"), _unwrap_js(expression.child_by_field_name("right"))
        target = parsed.text(left) if left is not None else ""
        if target in ("exports", "module.exports") and right is not None and right.type in _LITERAL_FUNCTIONS:
            right = _returned(right)
        if target in ("exports", "module.exports") and right is not None and right.type == "object":
            pairs = js_object_fields(parsed, right, lambda key: js_key(parsed, key))
            fields.update({name: _unwrap_js(value) for name, value in pairs.items()})
        elif left is not None and left.type == "member_expression" and \
                parsed.text(left.child_by_field_name("object")) in ("exports", "module.exports"):
            fields[parsed.text(left.child_by_field_name("property"))] = right
    handler, path = fields.get("handler"), fields.get("path")
    for key in ("options", "config") if handler is None else ():  # hapi: `options: {handler, ...}`
        options = fields.get(key)
        if options is not None and options.type == "object":
            handler = _unwrap_js(js_object_fields(parsed, options, lambda key: js_key(parsed, key)).get("handler"))
            if handler is not None:
                break
    methods = _methods(parsed, fields.get("method") or fields.get("methods"))
    if handler is None or handler.type not in _FUNCTIONS or path is None or not methods:
        return []
    if path.type == "regex":
        pattern = parsed.text(path.child_by_field_name("pattern"))
        paths = ["/" + p.lstrip("/") for p in _regex_paths(pattern.replace("\\/", "/"))]
        detail: dict[str, Any] = {"regex": pattern}
    else:
        literal = js_string(parsed, path)
        paths, detail = ([literal] if literal and literal.startswith("/") else []), {}
    anchor = path.parent if path.parent is not None else path
    return [_surface("http-route", _route_name(method, p), anchor, "route-module",
                     detail={"method": method, "path": p, "module_route": True, **detail})
            for method in methods for p in paths]


def _returned(function: Any) -> Any:
    """The object literal a function returns: an arrow function's body, or its body's one return."""
    body = function.child_by_field_name("body")
    if body is not None and body.type == "statement_block":
        returns = [c for c in body.named_children if c.type == "return_statement"]
        body = returns[0].named_child(0) if len(returns) == 1 and returns[0].named_child_count else None
    body = _unwrap_js(body) if body is not None else None
    return body if body is not None and body.type == "object" else None


def _methods(parsed: ParsedFile, node: Any) -> list[str]:
    """`"GET"` or `["GET", "HEAD"]`, upper-cased; none when it is not literal."""
    if node is None:
        return []
    items = node.named_children if node.type == "array" else [node]
    methods = [js_string(parsed, item) for item in items]
    if not methods or any(m is None or not m.isalpha() for m in methods):
        return []
    return [m.upper() for m in methods]
