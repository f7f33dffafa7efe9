"""HTTP routes of a Python standard-library request handler (`http.server`'s
BaseHTTPRequestHandler and its like): the class serves a method in `do_GET`, `do_POST`, ... and
dispatches by comparing the request's path itself, `if self.path == "/health"`, `elif self.path in
("/api/chat", "/api/chat/stream")`, `re.match(r"^/api/sessions/([^/]+)/title$", self.path)`, or
by looking the path up in a table of the class's, `self._GET_ROUTES.get(path)` with
`_GET_ROUTES = {"/api/status": "_get_status", ...}`.

The method is the one the `do_` method's name gives; the comparisons are read in that method and
in the methods of the class it calls on `self` (`do_GET` handing over to `self._do_get_inner()`).
The request's path is `self.path`, a variable assigned from an expression that reads it (`clean =
self.path.split("?")[0]`), or the `.path` of one (`urlparse(self.path).path`). A path tested with
`startswith` is a family of paths, not one route, and is not reported.
"""

from __future__ import annotations

import re
from typing import Any

from .facts import ParsedFile, Surface
from .surfaces import _regex_paths, _route_name, _surface, py_string

_DO = re.compile(rb"\bdef\s+do_(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s*\(")
_CALLED_DEPTH = 3  # methods of the class followed from a do_ method, at most this many calls deep
_REGEX_CALLS = ("match", "fullmatch", "search")


def py_http_handler_routes(parsed: ParsedFile) -> list[Surface]:
    """The routes a Python file's `do_GET`-style handler classes dispatch to (cheap without one)."""
    # (the plain search first: the regex's leading \b would make it try every position)
    if parsed.tree is None or b"def do_" not in parsed.source or _DO.search(parsed.source) is None:
        return []
    out: list[Surface] = []
    for cls in _classes(parsed.tree.root_node):
        out += _Handler(parsed, cls).routes()
    return out


def _classes(root: Any) -> list[Any]:
    """Every class of the file, also one a function defines (`def make_handler(): class H(...)`)."""
    found, stack = [], [root]
    while stack:
        node = stack.pop()
        if node.type == "class_definition":
            found.append(node)
        stack.extend(c for c in node.named_children if c.type not in _LEAVES)
    return found


_LEAVES = frozenset({"expression_statement", "return_statement", "import_statement", "import_from_statement",
                     "comment", "pass_statement", "raise_statement"})


class _Handler:
    def __init__(self, parsed: ParsedFile, cls: Any) -> None:
        self.pf = parsed
        self.methods: dict[str, Any] = {}  # name -> function_definition
        self.tables: dict[str, list[tuple[str, Any]]] = {}  # class attribute -> [(path, key node)]
        body = cls.child_by_field_name("body")
        for stmt in body.named_children if body is not None else ():
            definition = stmt.child_by_field_name("definition") if stmt.type == "decorated_definition" else stmt
            if definition is not None and definition.type == "function_definition":
                self.methods[parsed.text(definition.child_by_field_name("name"))] = definition
            elif stmt.type == "assignment":  # (grammar versions differ: maybe in an expression_statement)
                self._table(stmt)
            elif stmt.type == "expression_statement" and stmt.named_children:
                self._table(stmt.named_children[0])

    def _table(self, node: Any) -> None:
        """`_GET_ROUTES = {"/api/x": "_handler", ...}` (typed or not): the keys that are paths."""
        if node.type != "assignment":
            return
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or left.type != "identifier" or right is None or right.type != "dictionary":
            return
        keys = []
        for pair in right.named_children:
            if pair.type == "pair":
                key = py_string(self.pf, pair.child_by_field_name("key"))
                if key is not None and key.startswith("/") and " " not in key:
                    keys.append((key, pair))
        if keys:
            self.tables[self.pf.text(left)] = keys

    def routes(self) -> list[Surface]:
        out: list[Surface] = []
        for name, function in self.methods.items():
            if not name.startswith("do_") or name[3:] not in ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD",
                                                               "OPTIONS"):
                continue
            method, seen = name[3:], set()
            for path, node in self._dispatched(function, 0, {name}):
                if path not in seen:
                    seen.add(path)
                    out.append(_surface("http-route", _route_name(method, path), node, "http.server",
                                        handler=name, detail={"method": method, "path": path, "compared": True}))
        return out

    def _dispatched(self, function: Any, depth: int, followed: set[str]) -> list[tuple[str, Any]]:
        """(path, node to cite) of what `function` compares the request's path with, and the
        methods of the class it calls on `self`."""
        found: list[tuple[str, Any]] = []
        body = function.child_by_field_name("body")
        if body is None:
            return found
        paths = self._path_names(body)
        stack = [body]
        while stack:
            node = stack.pop()
            kind = node.type
            if kind in ("function_definition", "class_definition", "lambda"):
                continue
            if kind == "comparison_operator":
                found += self._compared(node, paths)
            elif kind == "call":
                found += self._called(node, paths, depth, followed)
            elif kind == "subscript":
                found += self._looked_up(node.child_by_field_name("value"), node.child_by_field_name("subscript"),
                                         paths)
            stack.extend(reversed(node.named_children))
        return found

    def _path_names(self, body: Any) -> set[str]:
        """The function's variables that hold the request's path (or a parse of it)."""
        names: set[str] = set()
        stack = [body]
        while stack:
            node = stack.pop()
            if node.type in ("function_definition", "class_definition", "lambda"):
                continue
            if node.type == "assignment":
                left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
                if left is not None and left.type == "identifier" and right is not None and \
                        self._reads_path(right, names):
                    names.add(self.pf.text(left))
            stack.extend(node.named_children)
        return names

    def _reads_path(self, node: Any, names: set[str]) -> bool:
        text = self.pf.text(node)
        return "self.path" in text or any(re.search(rf"\b{re.escape(n)}\b", text) for n in names)

    def _is_path(self, node: Any, names: set[str]) -> bool:
        """`self.path`, a variable holding it, or `.path` of one (`parsed.path`), maybe split
        from its query (`self.path.split("?")[0]`)."""
        if node is None:
            return False
        if node.type == "subscript":  # self.path.split("?")[0]
            value = node.child_by_field_name("value")
            return value is not None and value.type == "call" and self._is_path(_callee_object(value), names)
        if node.type == "identifier":
            return self.pf.text(node) in names
        if node.type == "attribute":
            obj, attr = node.child_by_field_name("object"), self.pf.text(node.child_by_field_name("attribute"))
            if attr != "path" or obj is None:
                return False
            return self.pf.text(obj) == "self" or obj.type == "identifier" and self.pf.text(obj) in names or \
                obj.type == "call" and "self.path" in self.pf.text(obj)
        return False

    def _compared(self, node: Any, paths: set[str]) -> list[tuple[str, Any]]:
        operands = node.named_children
        operators = [self.pf.text(c) for c in node.children if not c.is_named]
        if len(operands) != 2 or len(operators) != 1:
            return []
        left, right = operands
        if operators[0] == "==":
            for literal, other in ((right, left), (left, right)):
                path = _path(self.pf, literal)
                if path is not None and self._is_path(other, paths):
                    return [(path, node)]
        elif operators[0] == "in" and self._is_path(left, paths):
            if right.type in ("tuple", "list", "set"):
                return [(p, node) for c in right.named_children if (p := _path(self.pf, c)) is not None]
            return self._looked_up(right, left, paths)
        return []

    def _called(self, call: Any, paths: set[str], depth: int, followed: set[str]) -> list[tuple[str, Any]]:
        function = call.child_by_field_name("function")
        args = call.child_by_field_name("arguments")
        if function is None or function.type != "attribute" or args is None:
            return []
        obj, attr = function.child_by_field_name("object"), self.pf.text(function.child_by_field_name("attribute"))
        positional = [a for a in args.named_children if a.type not in ("keyword_argument", "comment")]
        if attr == "get" and positional:  # self._GET_ROUTES.get(path)
            return self._looked_up(obj, positional[0], paths)
        if attr in _REGEX_CALLS and self.pf.text(obj) == "re" and len(positional) >= 2 and \
                self._is_path(positional[1], paths):
            pattern = py_string(self.pf, positional[0])
            if pattern is not None and pattern.startswith(("^/", "/")):
                return [(p, call) for p in _regex_paths(pattern) if p.startswith("/")]
            return []
        if self.pf.text(obj) == "self" and attr in self.methods and attr not in followed and depth < _CALLED_DEPTH:
            followed.add(attr)
            return self._dispatched(self.methods[attr], depth + 1, followed)
        return []

    def _looked_up(self, table: Any, key: Any, paths: set[str]) -> list[tuple[str, Any]]:
        """The paths of `self.TABLE` (or `TABLE`) looked up by the request's path."""
        if table is None or not self._is_path(key, paths):
            return []
        name = self.pf.text(table).removeprefix("self.").removeprefix("cls.")
        return list(self.tables.get(name, ()))


def _callee_object(call: Any) -> Any:
    function = call.child_by_field_name("function")
    return function.child_by_field_name("object") if function is not None and function.type == "attribute" else None


def _path(parsed: ParsedFile, node: Any) -> str | None:
    text = py_string(parsed, node) if node is not None else None
    return text if text is not None and text.startswith("/") and " " not in text and len(text) <= 300 else None
