"""HTTP routes of a raw ASGI or WSGI application that dispatches on the request's path itself:
`async def app(scope, receive, send)` reading `path = scope["path"]` and `method = scope["method"]`
(WSGI: `environ["PATH_INFO"]`, `environ["REQUEST_METHOD"]`), then comparing them, there or in the
same module's functions it hands them to (ministack's `_handle_admin_reset(path, method, ...)`):

    if path == "/health": ...                         GET-or-anything /health
    if method == "POST" and path == "/reset": ...     POST /reset
    if path in _HEALTH_PATHS: ...                     each path of a module-level tuple
    if path != "/_ministack/reset" or method != "POST": return None     (a guard: what passes it)

A comparison with no test of the method beside it or around it serves every method (ANY). A path
tested with `startswith` is a family of paths, not a route.
"""

from __future__ import annotations

from typing import Any

from .facts import ParsedFile, Surface
from .surfaces import _route_name, _surface, py_string

_MARKS = (b'scope["path"]', b"scope['path']", b'scope.get("path"', b"scope.get('path'", b"PATH_INFO")
_DEPTH = 3  # functions of the module followed from the application, at most this many calls deep
_VERBS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")


def py_path_dispatch_routes(parsed: ParsedFile) -> list[Surface]:
    """The routes a Python file's raw ASGI/WSGI application compares the request's path with
    (cheap without `scope["path"]` or `PATH_INFO` in its text)."""
    if parsed.tree is None or not any(mark in parsed.source for mark in _MARKS):
        return []
    return _Dispatch(parsed).routes()


class _Dispatch:
    def __init__(self, parsed: ParsedFile) -> None:
        self.pf = parsed
        self.functions: dict[str, Any] = {}  # the module's functions by name (what the app hands the path to)
        self.tables: dict[str, list[str]] = {}  # module-level tuples/lists/sets of paths
        for stmt in parsed.tree.root_node.named_children:
            node = stmt.child_by_field_name("definition") if stmt.type == "decorated_definition" else stmt
            if node is not None and node.type == "function_definition":
                self.functions[parsed.text(node.child_by_field_name("name"))] = node
            assignment = stmt.named_children[0] if stmt.type == "expression_statement" and stmt.named_children \
                else stmt
            if assignment.type == "assignment":
                self._table(assignment)

    def _table(self, node: Any) -> None:
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if right is not None and right.type == "call" and right.child_by_field_name("arguments") is not None and \
                self.pf.text(right.child_by_field_name("function")) in ("frozenset", "set", "tuple"):
            args = right.child_by_field_name("arguments").named_children
            right = args[0] if len(args) == 1 else None
        if left is None or left.type != "identifier" or right is None or right.type not in ("tuple", "list", "set"):
            return
        paths = [py_string(self.pf, item) for item in right.named_children]
        if paths and all(p is not None and p.startswith("/") and " " not in p for p in paths):
            self.tables[self.pf.text(left)] = paths  # type: ignore[assignment]

    def routes(self) -> list[Surface]:
        out: list[Surface] = []
        seen: set[tuple[str, str]] = set()
        for function in self._all_functions():
            paths, methods = self._seeded(function)
            if paths:
                for method, path, node in self._dispatched(function, paths, methods, 0, set()):
                    if (method, path) not in seen:
                        seen.add((method, path))
                        out.append(_surface("http-route", _route_name(method, path), node, "asgi",
                                            detail={"method": method, "path": path, "compared": True}))
        return out

    def _all_functions(self) -> list[Any]:
        found, stack = [], [self.pf.tree.root_node]
        while stack:
            node = stack.pop()
            if node.type == "function_definition":
                found.append(node)
            stack.extend(reversed(node.named_children))
        return found

    def _seeded(self, function: Any) -> tuple[set[str], set[str]]:
        """The variables a function binds to the request's path and method itself."""
        paths: set[str] = set()
        methods: set[str] = set()
        for node in _own(function, "assignment"):
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is None or left.type != "identifier" or right is None:
                continue
            text = self.pf.text(right)
            if any(mark.decode() in text for mark in _MARKS) and "raw_path" not in text:
                paths.add(self.pf.text(left))
            elif 'scope["method"]' in text or "scope['method']" in text or "REQUEST_METHOD" in text:
                methods.add(self.pf.text(left))
        return paths, methods

    def _dispatched(self, function: Any, paths: set[str], methods: set[str], depth: int,
                    followed: set[str]) -> list[tuple[str, str, Any]]:
        found: list[tuple[str, str, Any]] = []
        for node in _own(function, "comparison_operator"):
            found += self._compared(node, paths, methods)
        if depth >= _DEPTH:
            return found
        for call in _own(function, "call"):
            callee = self.pf.text(call.child_by_field_name("function"))
            target = self.functions.get(callee)
            if target is None or callee in followed:
                continue
            params = [_parameter(self.pf, p) for p in target.child_by_field_name("parameters").named_children]
            args = [a for a in call.child_by_field_name("arguments").named_children
                    if a.type not in ("keyword_argument", "comment")]
            given = {params[i] for i, a in enumerate(args[:len(params)]) if self.pf.text(a) in paths}
            verbs = {params[i] for i, a in enumerate(args[:len(params)]) if self.pf.text(a) in methods}
            if given:
                found += self._dispatched(target, given, verbs, depth + 1, followed | {callee})
        return found

    def _compared(self, node: Any, paths: set[str], methods: set[str]) -> list[tuple[str, str, Any]]:
        """(method, path, node) of one comparison of the path: a test, or a guard's negation."""
        operands = node.named_children
        operator = " ".join(self.pf.text(c) for c in node.children if not c.is_named)
        if len(operands) != 2:
            return []
        left, right = operands
        if self.pf.text(left) not in paths:
            left, right = right, left
            if self.pf.text(left) not in paths or operator not in ("==", "!="):
                return []
        listed = self._listed(right, operator)
        if not listed:
            return []
        if operator in ("!=", "not in"):
            verbs = self._guard(node, methods)
            return [(verb, path, node) for verb in verbs for path in listed] if verbs else []
        verbs = self._around(node, methods)
        return [(verb, path, node) for verb in verbs for path in listed]

    def _listed(self, right: Any, operator: str) -> list[str]:
        if operator in ("==", "!="):
            value = py_string(self.pf, right)
            return [value] if value is not None and value.startswith("/") and " " not in value else []
        if operator in ("in", "not in"):
            if right.type in ("tuple", "list", "set"):
                values = [py_string(self.pf, c) for c in right.named_children]
                return [v for v in values if v is not None and v.startswith("/") and " " not in v]
            if right.type == "identifier":
                return list(self.tables.get(self.pf.text(right), ()))
        return []

    def _around(self, node: Any, methods: set[str]) -> list[str]:
        """The methods the tests beside a comparison (its `and` chain) and around it (the ifs it
        is in) let through; every one (ANY) when none tests the method."""
        at = node
        while at is not None and at.type != "function_definition":
            parent = at.parent
            tests = []
            if parent is not None and parent.type == "boolean_operator" and \
                    self.pf.text(parent.child_by_field_name("operator")) == "and":
                tests = [parent.child_by_field_name("left"), parent.child_by_field_name("right")]
            elif parent is not None and parent.type in ("if_statement", "elif_clause") and \
                    parent.child_by_field_name("condition") not in (None, at):
                tests = [parent.child_by_field_name("condition")]
            for test in tests:
                verbs = self._verbs(test, methods, ("==", "in"))
                if verbs:
                    return verbs
            at = parent
        return ["ANY"]

    def _guard(self, node: Any, methods: set[str]) -> list[str]:
        """For `if path != "/x" or method != "POST": return ...`: the methods that pass the guard
        (ANY when it tests none); none when the comparison is no returning guard's."""
        chain, at = [node], node
        while at.parent is not None and at.parent.type in ("boolean_operator", "parenthesized_expression"):
            at = at.parent
            if at.type == "boolean_operator" and self.pf.text(at.child_by_field_name("operator")) != "or":
                return []
            chain.append(at)
        statement = at.parent
        if statement is None or statement.type != "if_statement" or statement.child_by_field_name("condition") != at:
            return []
        body = statement.child_by_field_name("consequence")
        first = body.named_children[0] if body is not None and body.named_children else None
        if first is None or first.type not in ("return_statement", "raise_statement"):
            return []
        verbs = self._verbs(at, methods, ("!=", "not in"))
        return verbs or ["ANY"]

    def _verbs(self, test: Any, methods: set[str], operators: tuple[str, ...]) -> list[str]:
        """The methods a test (or the parts of its boolean chain) compares the request's method with."""
        if test is None:
            return []
        if test.type in ("boolean_operator", "parenthesized_expression"):
            return [v for child in test.named_children for v in self._verbs(child, methods, operators)]
        if test.type != "comparison_operator" or len(test.named_children) != 2:
            return []
        left, right = test.named_children
        operator = " ".join(self.pf.text(c) for c in test.children if not c.is_named)
        if self.pf.text(left) not in methods or operator not in operators:
            return []
        values = [py_string(self.pf, right)] if operator in ("==", "!=") else \
            [py_string(self.pf, c) for c in right.named_children] if right.type in ("tuple", "list", "set") else []
        return [v.upper() for v in values if v is not None and v.upper() in _VERBS]


def _parameter(pf: ParsedFile, param: Any) -> str:
    """A parameter's name (`path`, `path: str`, `path: str = "/"`, `path="/"`)."""
    if param.type == "identifier":
        return pf.text(param)
    named = param.child_by_field_name("name") or next((c for c in param.named_children if c.type == "identifier"), None)
    return pf.text(named) if named is not None else ""


def _own(function: Any, kind: str) -> list[Any]:
    """The nodes of a kind in a function's body, not in the functions or classes it defines."""
    out, stack = [], [function.child_by_field_name("body")]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        if node.type == kind:
            out.append(node)
        stack.extend(c for c in reversed(node.named_children)
                     if c.type not in ("function_definition", "class_definition", "lambda"))
    return out
