"""HTTP routes of a Python standard-library request handler (`http.server`'s
BaseHTTPRequestHandler and its like): the class serves a method in `do_GET`, `do_POST`, ... and
dispatches by comparing the request's path itself, `if self.path == "/health"`, `elif self.path in
("/api/chat", "/api/chat/stream")`, `re.match(r"^/api/sessions/([^/]+)/title$", self.path)`, or
by looking the path up in a table of the class's, `self._GET_ROUTES.get(path)` with
`_GET_ROUTES = {"/api/status": "_get_status", ...}`.

The method is the one the `do_` method's name gives; the comparisons are read in that method and
in the methods of the class it calls on `self` (`do_GET` handing over to `self._do_get_inner()`,
or to `self._api_get(parsed.path, params)`, whose parameter then holds the path).
The request's path is `self.path`, a variable assigned from an expression that reads it (`clean =
self.path.split("?")[0]`), or the `.path` of one (`urlparse(self.path).path`). A path tested with
`startswith` is a family of paths, not one route, and is not reported, unless the branch it
guards takes the rest as one value (`name = url.path[len("/tags/"):]`, `path.removeprefix(...)`):
that is a route with a parameter, `/tags/{name}` (curldb).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from .facts import ParsedFile, Surface
from .surfaces import _parameter_name, _regex_paths, _route_name, _surface, py_parameter_names, py_string

# `def do_GET(self)`, or `do_GET = do_POST = dispatch` (one method answering them all)
_DO = re.compile(rb"\bdef\s+do_(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s*\(|\bdo_(GET|POST|PUT|PATCH|DELETE)\s*=")
_CALLED_DEPTH = 3  # methods of the class followed from a do_ method, at most this many calls deep
_REGEX_CALLS = ("match", "fullmatch", "search")


def py_http_handler_routes(parsed: ParsedFile) -> list[Surface]:
    """The routes a Python file's `do_GET`-style handler classes dispatch to (cheap without one)."""
    # (the plain search first: the regex's leading \b would make it try every position)
    if parsed.tree is None or b"do_" not in parsed.source or _DO.search(parsed.source) is None:
        return []
    out: list[Surface] = []
    for cls in _classes(parsed.tree.root_node):
        out += _Handler(parsed, cls).routes()
    return out + _verb_tables(parsed, {(s.name, s.line) for s in out})


_VERB_NAMES = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")


def _verb_tables(parsed: ParsedFile, taken: set[tuple[str, int]]) -> list[Surface]:
    """A module-level route table the handler walks itself, rows of `("GET", r"/_mock/invoices/(\\d+)",
    "invoice")` (mock-einvoice's `ROUTES`, each pattern compiled by a comprehension over the rows,
    `for method, pattern, name in ROUTES` in its dispatch): two rows at least whose first item is
    a method and second a path (a regex's groups as parameters), the table named in a function."""
    out: list[Surface] = []
    for stmt in parsed.tree.root_node.named_children:
        node = stmt.named_children[0] if stmt.type == "expression_statement" and stmt.named_children else stmt
        left = node.child_by_field_name("left") if node.type == "assignment" else None
        right = node.child_by_field_name("right") if left is not None else None
        if right is None or left.type != "identifier" or right.type not in ("list", "tuple", "list_comprehension"):
            continue
        if right.type == "list_comprehension":  # [(m, re.compile(p), n) for m, p, n in ((...), ...)]
            clause = next((c for c in right.named_children if c.type == "for_in_clause"), None)
            right = clause.child_by_field_name("right") if clause is not None else None
            if right is None or right.type not in ("list", "tuple"):
                continue
        rows = []
        for row in right.named_children:
            items = [c for c in row.named_children if c.type != "comment"] if row.type == "tuple" else []
            verb = py_string(parsed, items[0]) if len(items) >= 2 else None
            pattern = py_string(parsed, items[1]) if verb is not None else None
            if verb in _VERB_NAMES and pattern is not None and pattern.removeprefix("^").startswith("/"):
                rows.append((row, verb, pattern, py_string(parsed, items[2]) if len(items) > 2 else None))
        name = parsed.text(left).encode()
        if len(rows) < 2 or re.search(rb"\bin\s+(?:self\.)?" + re.escape(name) + rb"\b", parsed.source) is None:
            continue  # (a table no loop walks is data, not routes)
        for row, verb, pattern, handler in rows:
            for path in _regex_paths(pattern) if any(c in pattern for c in "()^$") else [pattern]:
                if (_route_name(verb, path), row.start_point[0] + 1) not in taken and "[" not in path:
                    out.append(_surface("http-route", _route_name(verb, path), row, "http.server", handler=handler,
                                        detail={"method": verb, "path": path, "table": parsed.text(left)}))
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
        self.rests: dict[str, str] = {}  # in the function read: names of what follows a prefix (_rest_names)
        body = cls.child_by_field_name("body")
        for stmt in body.named_children if body is not None else ():
            definition = stmt.child_by_field_name("definition") if stmt.type == "decorated_definition" else stmt
            if definition is not None and definition.type == "function_definition":
                self.methods[parsed.text(definition.child_by_field_name("name"))] = definition
            elif stmt.type == "assignment":  # (grammar versions differ: maybe in an expression_statement)
                self._table(stmt)
            elif stmt.type == "expression_statement" and stmt.named_children:
                self._table(stmt.named_children[0])
        for stmt in body.named_children if body is not None else ():  # `do_GET = do_POST = dispatch`
            node = stmt.named_children[0] if stmt.type == "expression_statement" and stmt.named_children else stmt
            names = []
            while node is not None and node.type == "assignment" and \
                    (node.child_by_field_name("left") or node).type == "identifier":
                names.append(parsed.text(node.child_by_field_name("left")))
                node = node.child_by_field_name("right")
            if node is not None and node.type == "identifier" and parsed.text(node) in self.methods:
                for name in names:
                    self.methods.setdefault(name, self.methods[parsed.text(node)])

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
        seen: set[tuple[str, str]] = set()
        for name, function in self.methods.items():
            if not name.startswith("do_") or name[3:] not in _VERB_NAMES:
                continue
            method = name[3:]
            if self._delegates(function):
                continue  # `def do_HEAD(self): self.do_GET()`: answered as the other method, not routes of its own
            for path, node, untested in self._dispatched(function, 0, {name}, method, {"self.command"}):
                if "(" in path or "[" in path:
                    continue  # (a regex's part no path spells)
                # a path a dispatcher shared by every do_ method compares without testing the method:
                # served by the class, by which of its methods is decided inside
                verb = "ANY" if untested else method
                if (verb, path) not in seen:
                    seen.add((verb, path))
                    out.append(_surface("http-route", _route_name(verb, path), node, "http.server",
                                        handler=name, detail={"method": verb, "path": path, "compared": True}))
        # a path every do_ method of three or more reaches, at one comparison: its method is decided
        # inside (mock-sap's `if rest == "reset": if method != "POST": raise ...`), one route of any
        answering = {r.handler for r in out}  # (the do_ methods that reach a comparison at all)
        by_place: dict[tuple[str, int], list[Surface]] = {}
        for route in out:
            by_place.setdefault((route.detail["path"], route.line), []).append(route)
        if len(answering) >= 3:
            for (path, _), same in by_place.items():
                if len(same) >= len(answering) and all(r.detail["method"] != "ANY" for r in same):
                    first = same[0]
                    out = [r for r in out if r not in same] + [replace(
                        first, name=_route_name("ANY", path), detail={**first.detail, "method": "ANY"})]
        return sorted(out, key=lambda r: (r.line, r.name))

    def _delegates(self, function: Any) -> bool:
        """Whether a do_ method's body is only a call of another do_ method of the class."""
        body = function.child_by_field_name("body")
        stmts = [c for c in body.named_children if c.type != "comment"] if body is not None else []
        call = stmts[0] if len(stmts) == 1 else None
        if call is not None and call.type in ("expression_statement", "return_statement"):
            call = call.named_children[0] if call.named_children else None  # (grammars differ: wrapped or not)
        if call is None or call.type != "call":
            return False
        called = call.child_by_field_name("function")
        return called is not None and called.type == "attribute" and self.pf.text(called.child_by_field_name(
            "object")) == "self" and self.pf.text(called.child_by_field_name("attribute")).startswith("do_")

    def _dispatched(self, function: Any, depth: int, followed: set[str], method: str,
                    verbs: set[str], given: frozenset[str] = frozenset()) -> list[tuple[str, Any, bool]]:
        """(path, node to cite) of what `function` compares the request's path with, and the
        methods of the class it calls on `self`; `verbs`: the names that hold the request's method
        there (`self.command`, a parameter the caller passed the `do_` method's verb to), so a path
        compared beside another method (`method == "POST" and path == "/login"`) is not this one's."""
        found: list[tuple[str, Any, bool]] = []
        body = function.child_by_field_name("body")
        if body is None:
            return found
        paths = self._path_names(body, given)
        outer, self.rests = self.rests, self._rest_names(body, paths)
        stack = [body]
        while stack:
            node = stack.pop()
            kind = node.type
            if kind in ("function_definition", "class_definition", "lambda"):
                continue
            if kind == "comparison_operator":
                allowed, tested = self._method_allows(node, function, method, verbs)
                untested = not tested and len(verbs) > 1  # (in a dispatcher the do_ method passed its verb to)
                found += [(path, at, untested) for path, at in self._compared(node, paths) if allowed]
            elif kind == "call":
                found += self._called(node, paths, depth, followed, method, verbs)
            elif kind == "subscript":
                found += [(path, at, False) for path, at in self._looked_up(
                    node.child_by_field_name("value"), node.child_by_field_name("subscript"), paths)]
            stack.extend(reversed(node.named_children))
        self.rests = outer
        return found

    def _rest_names(self, body: Any, paths: set[str]) -> dict[str, str]:
        """{name: prefix} of the function's names holding what follows a prefix of the path:
        mock-sap's `rest = path[len("/_mock"):].strip("/")`, compared then with `rest == "health"`."""
        out: dict[str, str] = {}
        for node in _assignments(body):
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            while right is not None and right.type == "call" and self.pf.text(
                    right.child_by_field_name("function")).rsplit(".", 1)[-1] in ("strip", "lstrip", "rstrip"):
                right = _callee_object(right)
            taken = _slice_start(self.pf, right)
            measured = re.fullmatch(r"""len\(\s*(['"])(/[^'"\s]*)\1\s*\)""", taken[1]) if taken is not None else None
            if left is not None and left.type == "identifier" and measured is not None and \
                    self._is_path(right.child_by_field_name("value"), paths):
                out[self.pf.text(left)] = measured[2].rstrip("/")
        return out

    def _path_names(self, body: Any, given: frozenset[str] = frozenset()) -> set[str]:
        """The function's variables that hold the request's path (or a parse of it): `given`, its
        parameters its caller passed the path to, and what is assigned from one of those."""
        names: set[str] = set(given)
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
            stack.extend(reversed(node.named_children))  # (in the order they are written: a name from a name)
        return names

    def _reads_path(self, node: Any, names: set[str]) -> bool:
        if node.type == "conditional_expression" and node.named_children:
            node = node.named_children[0]  # (`path[n:] if path.startswith(...) else ""`: what it is when it is)
        if node.type == "subscript" and any(c.type == "slice" for c in node.named_children):
            return False  # a part of the path (`path[len("/api/wiki/"):]`) is not the request's path
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
        rest = self.rests.get(self.pf.text(left)) if left.type == "identifier" else None
        if rest is not None and operators[0] in ("==", "in"):  # `rest == "health"` under `/_mock`
            values = [py_string(self.pf, c) for c in (right.named_children if right.type in ("tuple", "list", "set")
                                                        else [right] if operators[0] == "==" else [])]
            return [(f"{rest}/{v.strip('/')}" if v.strip("/") else rest or "/", node) for v in values
                    if v is not None and " " not in v and "?" not in v]
        if operators[0] == "==":
            for literal, other in ((right, left), (left, right)):
                path = _path(self.pf, literal)
                if path is not None and self._is_path(other, paths):
                    return [(path, node)]
        elif operators[0] == "in" and self._is_path(left, paths):
            if right.type in ("tuple", "list", "set"):
                return [(p, node) for c in right.named_children if (p := _path(self.pf, c)) is not None]
            return self._looked_up(right, left, paths)
        elif operators[0] in ("!=", "not in") and _guards(node):
            # `if path != "/v1/models": ...; return` (hubrelay): what passes the guard is served there
            if operators[0] == "!=":
                for literal, other in ((right, left), (left, right)):
                    path = _path(self.pf, literal)
                    if path is not None and self._is_path(other, paths):
                        return [(path, node)]
            elif self._is_path(left, paths) and right.type in ("tuple", "list", "set"):
                return [(p, node) for c in right.named_children if (p := _path(self.pf, c)) is not None]
        return []

    def _method_allows(self, node: Any, function: Any, method: str, verbs: set[str]) -> tuple[bool, bool]:
        """(whether the conditions around a comparison, its `and` chain and the enclosing ifs', let
        the request's method be `method`: no `verb == "POST"` or `verb in ("GET", "HEAD")` says
        otherwise; whether any of them tests the method at all)."""
        tested, at = False, node
        while at is not None and at != function and at.type != "function_definition":
            parent = at.parent
            tests: list[Any] = []
            if parent is not None and parent.type == "boolean_operator" and \
                    self.pf.text(parent.child_by_field_name("operator")) == "and":
                tests = [parent.child_by_field_name("left"), parent.child_by_field_name("right")]
            elif parent is not None and parent.type in ("if_statement", "elif_clause") and \
                    parent.child_by_field_name("condition") is not None and \
                    parent.child_by_field_name("condition") != at:
                tests = [parent.child_by_field_name("condition")]
            for test in tests:
                allowed = self._verbs_tested(test, verbs)
                if allowed is not None and method not in allowed:
                    return False, True
                tested = tested or allowed is not None
            at = parent
        return True, tested

    def _verbs_tested(self, test: Any, verbs: set[str]) -> set[str] | None:
        """The methods a test lets through (`method == "GET"`, `self.command in ("GET", "HEAD")`),
        or None when it does not test the method (or not so simply)."""
        while test is not None and test.type == "parenthesized_expression" and test.named_child_count == 1:
            test = test.named_children[0]
        if test is None or test.type != "comparison_operator" or len(test.named_children) != 2:
            return None
        left, right = test.named_children
        operator = [self.pf.text(c) for c in test.children if not c.is_named]
        if self.pf.text(left) not in verbs or len(operator) != 1:
            return None
        if operator[0] == "==":
            value = py_string(self.pf, right)
            return {value.upper()} if value else None
        if operator[0] == "in" and right.type in ("tuple", "list", "set"):
            values = [py_string(self.pf, c) for c in right.named_children]
            return {v.upper() for v in values if v} if all(values) else None
        return None

    def _called(self, call: Any, paths: set[str], depth: int, followed: set[str], method: str,
                verbs: set[str]) -> list[tuple[str, Any, bool]]:
        function = call.child_by_field_name("function")
        args = call.child_by_field_name("arguments")
        if function is None or function.type != "attribute" or args is None:
            return []
        obj, attr = function.child_by_field_name("object"), self.pf.text(function.child_by_field_name("attribute"))
        positional = [a for a in args.named_children if a.type not in ("keyword_argument", "comment")]
        if attr == "get" and positional:  # self._GET_ROUTES.get(path)
            return [(path, at, False) for path, at in self._looked_up(obj, positional[0], paths)]
        if attr == "startswith" and len(positional) == 1 and self._is_path(obj, paths):
            allowed, tested = self._method_allows(call, None, method, verbs)
            found = self._prefixed(call, py_string(self.pf, positional[0]), obj) if allowed else None
            return [(found, call, not tested and len(verbs) > 1)] if found else []
        if attr in _REGEX_CALLS and self.pf.text(obj) == "re" and len(positional) >= 2 and \
                self._is_path(positional[1], paths):
            pattern = py_string(self.pf, positional[0])
            if pattern is not None and pattern.startswith(("^/", "/")):
                allowed, tested = self._method_allows(call, None, method, verbs)  # (up to its function)
                untested = not tested and len(verbs) > 1
                return [(p, call, untested) for p in _regex_paths(pattern) if p.startswith("/")] if allowed else []
            return []
        if self.pf.text(obj) == "self" and attr in self.methods and attr not in followed and depth < _CALLED_DEPTH:
            followed.add(attr)
            called = self.methods[attr]
            names = py_parameter_names(self.pf, called)[1:]  # (after self; `path: str` too)
            passed = {names[i] for i, a in enumerate(positional[:len(names)])
                      if (py_string(self.pf, a) or "").upper() == method}  # self.route("GET")
            # `self._api_get(parsed.path, params)`: the parameter the path is passed to holds it there
            holding = frozenset(names[i] for i, a in enumerate(positional[:len(names)]) if self._is_path(a, paths))
            return self._dispatched(called, depth + 1, followed, method, verbs | passed, holding)
        return []

    def _prefixed(self, call: Any, prefix: str | None, path: Any) -> str | None:
        """`/tags/{name}` when `call` is the test of an if whose branch assigns the rest of the path
        after `prefix` to a name: `name = url.path[len("/tags/"):]` (or `[6:]`, `.removeprefix(...)`)."""
        if not prefix or not prefix.startswith("/") or not prefix.endswith("/") or " " in prefix:
            return None
        branch = call.parent
        while branch is not None and branch.type in ("boolean_operator", "parenthesized_expression", "not_operator"):
            branch = branch.parent
        body = branch.child_by_field_name("consequence") if branch is not None and branch.type in (
            "if_statement", "elif_clause") and branch.child_by_field_name("condition") is not None else None
        written = self.pf.text(path)
        sliced = f"len({self.pf.text(call.child_by_field_name('arguments').named_children[0])})", str(len(prefix))
        for stmt in body.named_children[:1] if body is not None else ():
            # `return self._serve_file(path[len("/files/"):])`: the rest handed to a method of the class,
            # named as that method's parameter
            inner = stmt.named_children[0] if stmt.type in ("return_statement", "expression_statement") and \
                stmt.named_children else None
            if inner is None or inner.type != "call":
                continue
            function = inner.child_by_field_name("function")
            args = [a for a in inner.child_by_field_name("arguments").named_children if a.type != "comment"]
            callee = self.pf.text(function.child_by_field_name("attribute")) if function is not None and \
                function.type == "attribute" and self.pf.text(function.child_by_field_name("object")) == "self" else ""
            definition = self.methods.get(callee)
            params = [p for p in (definition.child_by_field_name("parameters").named_children if definition else [])
                      if p.type != "comment"][1:]
            for arg, param in zip(args, params, strict=False):  # (a call may pass more, or fewer)
                taken = _slice_start(self.pf, arg)
                if taken is not None and taken[0] == written and taken[1] in sliced:
                    return f"{prefix}{{{self.pf.text(_parameter_name(param))}}}"
        for node in _assignments(body):
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            while right is not None and right.type == "boolean_operator":  # `url.path[6:] or None`
                right = right.child_by_field_name("left")
            if left is None or left.type != "identifier" or right is None:
                continue
            rest = None
            if right.type == "subscript":
                taken = _slice_start(self.pf, right)
                rest = taken is not None and taken[0] == written and taken[1] in sliced
            elif right.type == "call":
                rest = self.pf.text(right.child_by_field_name("function")) == f"{written}.removeprefix"
            if rest:
                return f"{prefix}{{{self.pf.text(left)}}}"
        return None

    def _looked_up(self, table: Any, key: Any, paths: set[str]) -> list[tuple[str, Any]]:
        """The paths of `self.TABLE` (or `TABLE`) looked up by the request's path."""
        if table is None or not self._is_path(key, paths):
            return []
        name = self.pf.text(table).removeprefix("self.").removeprefix("cls.")
        return list(self.tables.get(name, ()))


def _slice_start(parsed: ParsedFile, node: Any) -> tuple[str, str] | None:
    """(the text sliced, the text of the slice's start) of `path[len("/files/"):]` (or `[7:]`), else None."""
    part = next((c for c in node.named_children if c.type == "slice"), None) if node is not None and \
        node.type == "subscript" else None
    if part is None or len(part.named_children) != 1 or part.children[0].type == ":":
        return None
    return parsed.text(node.child_by_field_name("value")), parsed.text(part.named_children[0])


def _guards(test: Any) -> bool:
    """Whether a comparison is the whole condition of an `if` with no other branch whose block
    ends by leaving (`return`, `raise`): a guard, after which the code serves what it let pass."""
    statement = test.parent
    if statement is None or statement.type != "if_statement" or statement.child_by_field_name("condition") != test \
            or statement.child_by_field_name("alternative") is not None:
        return False
    block = statement.child_by_field_name("consequence")
    last = next((c for c in reversed(block.named_children) if c.type != "comment"), None) if block is not None else None
    return last is not None and last.type in ("return_statement", "raise_statement")


def _assignments(body: Any) -> list[Any]:
    """The assignments of a branch's own statements (not of the functions it defines)."""
    out, stack = [], [body] if body is not None else []
    while stack:
        node = stack.pop()
        if node.type == "assignment":
            out.append(node)
        elif node.type not in ("function_definition", "class_definition", "lambda", "if_statement"):
            stack.extend(reversed(node.named_children))
    return out


def _callee_object(call: Any) -> Any:
    function = call.child_by_field_name("function")
    return function.child_by_field_name("object") if function is not None and function.type == "attribute" else None


def _path(parsed: ParsedFile, node: Any) -> str | None:
    text = py_string(parsed, node) if node is not None else None
    return text if text is not None and text.startswith("/") and " " not in text and len(text) <= 300 else None
