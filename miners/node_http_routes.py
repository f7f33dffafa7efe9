"""HTTP routes of a request handler that dispatches by itself, as plain node:http servers do: it
compares the request's path with a literal (`if (url.pathname === '/health')`, `req.url === '/x'
&& req.method === 'POST'`, `switch (pathname) { case '/v1/lists': ... }`), or the server looks the
path up in a table of `{path, handler}` objects (`const routes = [{ path: '/openapi.yaml',
handler }]`).

The request is known by where the comparison is: inside a function whose first parameter is the
request (`req`, `request`) and second the response, or a table in a file that creates a server. A
path compared in browser code (`location.pathname`), or in a middleware (`(req, res, next)`,
which passes requests on or holds them back), is no route. The method is the one the same
condition, or an `if` around it, compares `req.method` with; otherwise any.
"""

from __future__ import annotations

import re
from typing import Any

from .facts import ParsedFile, Surface
from .parsing import descendants
from .surfaces import (
    _regex_paths,
    _route_name,
    _surface,
    _unwrap_js,
    js_key,
    js_object_fields,
    js_parameter_names,
    js_string,
)
from .words import present

# `== '/x'`, `'/x' == x.pathname`, `case '/x'`: searched one at a time, each for its leading literal
# (an alternation, or a leading \b, makes the search try every position: 15 times slower)
_COMPARED = tuple(re.compile(p) for p in (rb"""==\s*['"`]/""", rb"""==\s*[\w$.]*(?:pathname|url|path)\b""",
                                          rb"""case\s+['"`]/""", rb"""==\s*[A-Z][A-Z0-9]*_[A-Z0-9_]*\b"""))
REQUESTS = ("req", "request", "incomingMessage", "msg")
_REQUEST_WORDS = frozenset(name.encode() for name in REQUESTS)
RESPONSES = ("res", "response", "resp", "reply", "serverResponse")
_NAMES = ("pathname", "path", "url", "urlPath", "route")  # a variable the request's path is read into
_BROWSER = ("location", "window", "document", "history")
_VERBS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
_SEGMENT_CLASS = re.compile(r"\[\^/\][+*]|\[\^\\/\][+*]")  # `[^/]+` (or `[^\/]+`): one segment
# `.replace('/_nua/cms/', '')`: a prefix taken off a path
_PREFIX_OFF = re.compile(rb"""\.replace\(\s*['"`](/[^'"`\n]{0,200})['"`]\s*,\s*(?:''|""|``)\s*\)""")
_REGEX_LEFT = re.compile(r"[\[\]()*+?|^$\\]")  # what no path spells
_FUNCTIONS = ("function_declaration", "function_expression", "arrow_function", "function", "method_definition")
_METHOD = re.compile(rb"\.method\s*===?\s*['\"`]([A-Za-z]+)['\"`]|['\"`]([A-Za-z]+)['\"`]\s*===?\s*[\w$.]*\.method\b")


def node_http_routes(parsed: ParsedFile) -> list[Surface]:
    """The routes a JS/TS file's own dispatching shows, or none (cheap when it compares no path)."""
    source = parsed.source
    if parsed.tree is None or b"/" not in source:
        return []
    out: list[Surface] = []
    reader: list[Any] = []
    # a comparison names a route only in a function whose first parameter is the request
    requests = bool(_REQUEST_WORDS.intersection(present(parsed)))
    spans = sorted(m.span() for regex in _COMPARED for m in regex.finditer(source)) if requests else []
    if spans:
        root, seen = parsed.tree.root_node, set()
        for start, end in spans:
            node = root.descendant_for_byte_range(start, end)
            while node is not None and node.type not in ("binary_expression", "switch_case", "program"):
                node = node.parent
            if node is None or node.type == "program" or node.start_byte in seen:
                continue
            seen.add(node.start_byte)
            found = _compared(parsed, node, reader)
            if found is not None:
                anchor, path = found
                guard = _guard(node) if node.type == "binary_expression" else None
                for method in _methods(parsed, node) if guard is None else _guarded_methods(parsed, guard):
                    out.append(_surface("http-route", _route_name(method, path), anchor, "node:http",
                                        detail={"method": method, "path": path, "compared": True}))
    if requests and _REGEX_MATCHED.search(source):
        out += _matched(parsed)
    if requests and _LOOKED_UP.search(source):
        out += _looked_up(parsed)
    if b".replace(" in source and b"startsWith(" in source:
        out += _relative_dispatch(parsed)
    # (a table of regexes a fetch handler tests the request's path with, `route.pattern.test(pathname)`,
    # needs no server of its own: the host's serves it)
    if (b"createServer" in source or b".pattern.test(" in source) and b"handler" in source:
        out += _tables(parsed, reader)
    return out


# `.match(`, `.test(`, `.exec(`: where _matched looks, rather than at every call of the file; it
# looks only where a regex literal is matched (`.match(/`, `/^...$/i.test(`, `(/.../).exec(`)
_MATCH_CALL = re.compile(rb"\.\s*(match|test|exec)\s*\(")
_REGEX_MATCHED = re.compile(rb"\.\s*match\s*\(\s*\(?\s*/|/[dgimsuvy]*\s*\)?\s*\.\s*(?:test|exec)\s*\(")


def _method_calls(parsed: ParsedFile, spelled: re.Pattern[bytes]) -> list[Any]:
    """The calls `x.name(...)` whose `.name(` the pattern's group 1 finds in the source, in the
    order a walk of the tree meets them."""
    root, calls = parsed.tree.root_node, {}
    for m in spelled.finditer(parsed.source):
        prop = root.descendant_for_byte_range(m.start(1), m.end(1))
        member = prop.parent if prop is not None and prop.type == "property_identifier" else None
        call = member.parent if member is not None and member.type == "member_expression" else None
        if call is not None and call.type == "call_expression" and call.child_by_field_name("function") == member:
            calls[call.start_byte, -call.end_byte] = call
    return [calls[k] for k in sorted(calls)]


def _matched(parsed: ParsedFile) -> list[Surface]:
    """Paths a handler matches with a regex literal: `const m = path.match(/^\\/api\\/trace\\/([^/]+)$/);
    if (m && req.method === "GET")` (ove's Bun server), `/^\\/items\\/\\d+$/.test(url.pathname)`; the
    method the `if` that tests the match (or the one around the call) requires."""
    out: list[Surface] = []
    for call in _method_calls(parsed, _MATCH_CALL):
        function = call.child_by_field_name("function")
        prop, obj = parsed.text(function.child_by_field_name("property")), function.child_by_field_name("object")
        args = [a for a in call.child_by_field_name("arguments").named_children if a.type != "comment"]
        if prop == "match" and len(args) == 1 and _regex(args[0]):
            regex, subject = args[0], obj
        elif prop in ("test", "exec") and len(args) == 1 and _regex(obj):
            regex, subject = obj, args[0]
        else:
            continue
        pattern = _unwrap_js(regex).child_by_field_name("pattern")
        # (anchored at both ends: `/^\/api\//.test(path)` is a prefix a handler dispatches on, not a route)
        text = parsed.text(pattern) if pattern is not None else ""
        if not (text.startswith("^") and text.endswith("$") and not text.endswith("\\$")) or \
                not _request_path(parsed, subject, call):
            continue
        path = _pattern_path(parsed, regex)
        if path is None:
            continue
        for method in _match_methods(parsed, call):
            out.append(_surface("http-route", _route_name(method, path), call, "node:http",
                                detail={"method": method, "path": path, "compared": True}))
    return out


# `pages[path]`, `this.htmlPages[url.pathname]`: a table looked up by the request's path
_LOOKED_UP = re.compile(rb"\[\s*(?:[\w$]+\.)?(?:pathname|path|url|urlPath|route)\s*\]")


def _looked_up(parsed: ParsedFile) -> list[Surface]:
    """The keys of an object literal a handler looks the request's path up in (ove's `this.htmlPages
    = {"/": ..., "/trace": ...}`, then `self.htmlPages[path]`), a route each; the table is a name this
    file binds to the literal, or an instance's member it sets to one."""
    out: list[Surface] = []
    tables: dict[str, Any] | None = None
    seen: set[tuple[int, str]] = set()  # (a table looked up twice, `if (pages[path]) res.end(pages[path])`, is one)
    for node in descendants(parsed.tree.root_node, "subscript_expression"):
        index = node.child_by_field_name("index")
        if index is None or not _request_path(parsed, index, node):
            continue
        if tables is None:
            tables = _object_tables(parsed)
        obj = node.child_by_field_name("object")
        key = parsed.text(obj.child_by_field_name("property")) if obj.type == "member_expression" and \
            obj.child_by_field_name("object").type in ("this", "identifier") else parsed.text(obj)
        table = tables.get(key)
        if table is None:
            continue
        methods = _methods(parsed, node)
        for pair in table.named_children:
            path = js_string(parsed, pair.child_by_field_name("key")) if pair.type == "pair" else None
            if path is None or not path.startswith("/") or " " in path:
                continue
            for method in methods:
                if (pair.start_byte, method) not in seen:
                    seen.add((pair.start_byte, method))
                    out.append(_surface("http-route", _route_name(method, path), pair, "node:http",
                                        detail={"method": method, "path": path, "compared": True}))
    return out


def _object_tables(parsed: ParsedFile) -> dict[str, Any]:
    """{name: object literal} of `const NAME = {...}` and `this.NAME = {...}` whose keys are paths."""
    out: dict[str, Any] = {}
    for node in descendants(parsed.tree.root_node, ("variable_declarator", "assignment_expression")):
        left = node.child_by_field_name("name") or node.child_by_field_name("left")
        value = _unwrap_js(node.child_by_field_name("value") or node.child_by_field_name("right"))
        if left is None or value is None or value.type != "object":
            continue
        name = parsed.text(left.child_by_field_name("property")) if left.type == "member_expression" and \
            left.child_by_field_name("object").type == "this" else parsed.text(left) if left.type == "identifier" \
            else None
        keys = [js_string(parsed, p.child_by_field_name("key")) for p in value.named_children if p.type == "pair"]
        if name and keys and all(k is not None and k.startswith("/") for k in keys):
            out[name] = value
    return out


def _match_methods(parsed: ParsedFile, call: Any) -> list[str]:
    """The methods around a regex match: the `if` around it, or, for `const m = path.match(...)`,
    the first of the next statements whose condition tests `m`."""
    declarator = call.parent
    if declarator is not None and declarator.type == "variable_declarator" and declarator.parent is not None:
        name = parsed.text(declarator.child_by_field_name("name")).encode()
        statement = declarator.parent.next_named_sibling
        for _ in range(3):
            condition = statement.child_by_field_name("condition") if statement is not None and \
                statement.type == "if_statement" else None
            if condition is not None and re.search(rb"(?<![\w$.])" + re.escape(name) + rb"\b",
                                                   parsed.source[condition.start_byte:condition.end_byte]):
                found = {(m[1] or m[2]).decode().upper() for m in _METHOD.finditer(
                    parsed.source, condition.start_byte, condition.end_byte)} & set(_VERBS)
                return sorted(found) or ["ANY"]
            statement = statement.next_named_sibling if statement is not None else None
    return _methods(parsed, call)


def _relative_dispatch(parsed: ParsedFile) -> list[Surface]:
    """A middleware that takes its prefix off the path and hands the rest to a function of the file,
    which compares it: `if (!url.startsWith('/_nua/cms/')) return next()`, `const route =
    url.replace('/_nua/cms/', '')`, `handleCmsApiRoute(route, req, res)`, and there `route ===
    'update' && req.method === 'POST'` (or `case 'update':`) is `POST /_nua/cms/update`."""
    root = parsed.tree.root_node
    rests: list[tuple[Any, str, str]] = []  # (the function around it, the prefix, the name holding the rest)
    for m in _PREFIX_OFF.finditer(parsed.source):
        node = root.descendant_for_byte_range(m.start(), m.start() + 1)
        while node is not None and node.type not in ("variable_declarator", "program", *_FUNCTIONS):
            node = node.parent
        rest = _rest_of_path(parsed, node, m[1].decode("utf-8", "replace")) if node is not None and \
            node.type == "variable_declarator" else None
        if rest is not None:
            rests.append(rest)
    if not rests:
        return []
    functions = {parsed.text(node.child_by_field_name("name")): node for node in _declared_functions(root)}
    out: list[Surface] = []
    for scope, prefix, name in rests:
        for call in descendants(scope, "call_expression"):
            callee, args = call.child_by_field_name("function"), call.child_by_field_name("arguments")
            target = functions.get(parsed.text(callee)) if callee is not None and callee.type == "identifier" else None
            given = [parsed.text(a) for a in args.named_children] if target is not None and args is not None else []
            if name not in given:
                continue
            params = js_parameter_names(parsed, target)
            at = given.index(name)
            if at < len(params):
                out += _relative_routes(parsed, target, params[at], prefix)
    return out


def _declared_functions(root: Any) -> list[Any]:
    """The module's own function declarations (exported ones too)."""
    out = []
    for statement in root.named_children:
        node = statement.child_by_field_name("declaration") if statement.type == "export_statement" else statement
        if node is not None and node.type == "function_declaration" and node.child_by_field_name("name") is not None:
            out.append(node)
    return out


def _rest_of_path(parsed: ParsedFile, declarator: Any, prefix: str) -> tuple[Any, str, str] | None:
    """(its function, the prefix, the name) of `const route = url.replace('/_nua/cms/', '')...` in a
    request handler that tests `url.startsWith('/_nua/cms/')`."""
    name = declarator.child_by_field_name("name")
    if name is None or name.type != "identifier":
        return None
    scope = declarator.parent
    while scope is not None and scope.type not in _FUNCTIONS:
        scope = scope.parent
    names = js_parameter_names(parsed, scope) if scope is not None else []
    if len(names) < 2 or names[0].lstrip("_") not in REQUESTS or names[1] not in RESPONSES:
        return None
    text = parsed.source[scope.start_byte:scope.end_byte]
    if not any(f"startsWith({q}{prefix}{q})".encode() in text for q in "'\"`"):
        return None
    return scope, prefix, parsed.text(name)


def _relative_routes(parsed: ParsedFile, function: Any, param: str, prefix: str) -> list[Surface]:
    out, stack = [], [function.child_by_field_name("body")]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        literal = None
        if node.type == "binary_expression" and parsed.text(node.child_by_field_name("operator")) in ("===", "=="):
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            for lit, other in ((right, left), (left, right)):
                if parsed.text(other) == param and js_string(parsed, lit) is not None:
                    literal = js_string(parsed, lit)
        elif node.type == "switch_case" and node.parent is not None and node.parent.parent is not None and \
                parsed.text(node.parent.parent.child_by_field_name("value") or node).strip("()") == param:
            literal = js_string(parsed, node.child_by_field_name("value")) if node.child_by_field_name("value") \
                else None
        if literal is not None and not literal.startswith("/") and " " not in literal and len(literal) <= 200:
            path = prefix.rstrip("/") + "/" + literal
            out += [_surface("http-route", _route_name(method, path), node, "node:http",
                             detail={"method": method, "path": path, "compared": True, "prefix_taken": prefix})
                    for method in _methods(parsed, node)]
        stack.extend(node.named_children)
    return out


def _compared(parsed: ParsedFile, node: Any, reader: list[Any]) -> tuple[Any, str] | None:
    """(the node to cite, the path) when `node` compares the request's path with a literal."""
    if node.type == "switch_case":
        value = node.child_by_field_name("value")
        switch = node.parent.parent if node.parent is not None else None
        subject = switch.child_by_field_name("value") if switch is not None and \
            switch.type == "switch_statement" else None
        path = _path(parsed, value, reader)
        subject = _unwrap_js(subject.named_children[0]) if subject is not None and \
            subject.type == "parenthesized_expression" and subject.named_children else subject
        return (node, path) if path is not None and _request_path(parsed, subject, node) else None
    operator = node.child_by_field_name("operator")
    if operator is None or parsed.text(operator) not in ("===", "==") and _guard(node) is None:
        return None
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    for literal, other in ((right, left), (left, right)):
        path = _path(parsed, literal, reader)
        if path is not None and _request_path(parsed, other, node):
            return node, path
    return None


def _guard(node: Any) -> Any:
    """The `if` statement whose whole condition is `node`, a `!==` test that turns away what it
    does not match (`if (url.pathname !== "/tools/invoke") return false;`): what passes it is the
    route, served by the rest of the function; else None."""
    operator = node.child_by_field_name("operator")
    if operator is None or operator.type not in ("!==", "!="):
        return None
    statement = node.parent
    while statement is not None and statement.type == "parenthesized_expression":
        statement = statement.parent
    if statement is None or statement.type != "if_statement" or statement.child_by_field_name("alternative"):
        return None
    then = statement.child_by_field_name("consequence")
    if then is not None and then.type == "statement_block" and then.named_child_count == 1:
        then = then.named_children[0]
    return statement if then is not None and then.type == "return_statement" else None


# `if (req.method !== "POST") { ...; return }` after a path guard: the one method the handler serves
_METHOD_GUARD = re.compile(rb"^\(?\s*[\w$.]*\.method\s*!==?\s*['\"`]([A-Za-z]+)['\"`]\s*\)?$")


def _guarded_methods(parsed: ParsedFile, guard: Any) -> list[str]:
    """The method a statement after a path guard requires, ["ANY"] when none does."""
    statement = guard.next_named_sibling
    for _ in range(3):  # (a statement or two between: the request's URL read again)
        if statement is None:
            break
        condition = statement.child_by_field_name("condition") if statement.type == "if_statement" else None
        found = _METHOD_GUARD.match(parsed.text(condition).encode()) if condition is not None else None
        if found is not None and found[1].decode().upper() in _VERBS:
            return [found[1].decode().upper()]
        statement = statement.next_named_sibling
    return ["ANY"]


def _path(parsed: ParsedFile, node: Any, reader: list[Any]) -> str | None:
    if node is None:
        return None
    text = js_string(parsed, node)
    if text is None and _unwrap_js(node).type in ("template_string", "identifier"):  # (`PAGES_URL`: a const)
        if not reader:
            from .surfaces import _Js

            reader.append(_Js(parsed))
        text = reader[0].resolve(node)
    return text if text is not None and text.startswith("/") and " " not in text and len(text) <= 300 else None


def _request_path(parsed: ParsedFile, node: Any, at: Any) -> bool:
    """Whether `node` is the request's path: `req.url`, `parsedUrl.pathname`, or a variable
    named for it, in a request handler; not the browser's `location.pathname`."""
    node = _unwrap_js(node)
    if node is None:
        return False
    if node.type == "subscript_expression":  # `s[0]` of `const s = req.url.split('?')`
        obj, index = node.child_by_field_name("object"), node.child_by_field_name("index")
        return obj is not None and obj.type == "identifier" and index is not None and \
            parsed.text(index) == "0" and _split_url(parsed, obj) and _in_handler(parsed, at)
    if node.type == "member_expression":
        prop = parsed.text(node.child_by_field_name("property"))
        root = node
        while root.type in ("member_expression", "call_expression", "subscript_expression"):
            root = root.child_by_field_name("object") or root.child_by_field_name("function") or root
            if root is None:
                return False
        if parsed.text(root) in _BROWSER:
            return False
        if prop == "path" and parsed.text(node.child_by_field_name("object")) not in REQUESTS:
            return False  # (`this.$route.path`, a file's path: only the request's own is its path)
        if prop not in ("pathname", "url", "path"):
            return False
    elif node.type != "identifier" or parsed.text(node) not in _NAMES:
        return False
    return _in_handler(parsed, at)


_SPLIT_URL = re.compile(r"(?:" + "|".join(REQUESTS) + r")\.url\.split\(\s*['\"`]\?['\"`]\s*\)")


def _split_url(parsed: ParsedFile, name: Any) -> bool:
    """Whether `name` is bound, in the function around it, to the request's URL split at its query."""
    scope = name.parent
    while scope is not None and scope.type not in _FUNCTIONS:
        scope = scope.parent
    body = scope.child_by_field_name("body") if scope is not None else None
    for statement in body.named_children if body is not None and body.type == "statement_block" else ():
        if statement.type in ("lexical_declaration", "variable_declaration"):
            for declarator in statement.named_children:
                value = declarator.child_by_field_name("value") if declarator.type == "variable_declarator" else None
                if value is not None and parsed.text(declarator.child_by_field_name("name")) == parsed.text(name):
                    return _SPLIT_URL.fullmatch(parsed.text(value)) is not None
    return False


def _in_handler(parsed: ParsedFile, node: Any) -> bool:
    """Whether `node` is inside a function that takes a request and a response, or a request
    alone with what to make of it (bittorrent-tracker's `parseHttpRequest(req, opts)`)."""
    at = node
    while node is not None:
        if node.type in _FUNCTIONS:
            names = js_parameter_names(parsed, node)
            if len(names) >= 2 and names[0] in REQUESTS and names[1] in RESPONSES:
                # a middleware's test lets a request through or not: no route, unless it answers it there
                return names[2:3] != ["next"] or _answers(parsed, at, node, names[1])
            if names[:1] and names[0] in REQUESTS and "next" not in names:
                return True
        node = node.parent
    return False


def _answers(parsed: ParsedFile, at: Any, function: Any, response: str) -> bool:
    """Whether the `if` (or `case`) a middleware's path test heads answers the request itself: its
    branch uses the response (`res.end(...)`, `this.#sendJson(response, ...)`) and never calls
    `next`, as a health check or a `/json/version` endpoint a connect middleware serves does."""
    branch = at
    while branch is not None and branch is not function and branch.type not in ("if_statement", "switch_case"):
        branch = branch.parent
    if branch is None or branch is function:
        return False
    if branch.type == "if_statement":
        condition = branch.child_by_field_name("condition")
        if condition is None or not condition.start_byte <= at.start_byte < condition.end_byte:
            return False  # (the test sits in the branch, not in what chooses it)
        branch = branch.child_by_field_name("consequence")
    if branch is None:
        return False
    text = parsed.source[branch.start_byte:branch.end_byte]
    return re.search(rb"(?<![\w$.])" + re.escape(response.encode()) + rb"\b", text) is not None and \
        re.search(rb"(?<![\w$.])next\s*\(", text) is None


def _methods(parsed: ParsedFile, node: Any) -> list[str]:
    """The method the comparison's condition, or an `if` around it, requires (`req.method === 'POST'`)."""
    at = node
    for _ in range(4):
        while at is not None and at.type not in ("if_statement", "ternary_expression", "switch_case"):
            at = at.parent
        if at is None:
            break
        condition = at.child_by_field_name("condition")
        if condition is not None:
            found = {(m[1] or m[2]).decode().upper() for m in _METHOD.finditer(parsed.source, condition.start_byte,
                                                                             condition.end_byte)}
            found &= set(_VERBS)
            if found:
                return sorted(found)
        at = at.parent
    return ["ANY"]


def _tables(parsed: ParsedFile, reader: list[Any]) -> list[Surface]:
    """`[{ path: '/health', handler }, ...]`: a route table of a file that creates a server."""
    out: list[Surface] = []
    for array in _arrays(parsed.tree.root_node):
        rows = []
        for item in array.named_children:
            if item.type == "comment":
                continue
            fields = js_object_fields(parsed, item, lambda key: js_key(parsed, key)) if item.type == "object" else {}
            path = _path(parsed, fields.get("path") or fields.get("url"), reader) if "pattern" not in fields \
                else _pattern_path(parsed, fields["pattern"])
            method = js_string(parsed, fields["method"]) if "method" in fields else "ANY"
            if path is None and "pattern" in fields and _regex(fields["pattern"]) and "handler" in fields:
                continue  # (a regex row no one path spells: the table's other rows are still routes)
            if path is None or "handler" not in fields or "component" in fields or method is None or \
                    method.upper() not in (*_VERBS, "ANY"):
                rows = []
                break
            rows.append((item, method.upper(), path))
        if len(rows) >= 2:
            out += [_surface("http-route", _route_name(method, path), item, "node:http",
                             detail={"method": method, "path": path, "table": True}) for item, method, path in rows]
    return out


def _regex(node: Any) -> bool:
    node = _unwrap_js(node)
    return node is not None and node.type == "regex"


_PARAMETER = re.compile(r"\{(?:arg\d+|seg)\}")  # a parameter _pattern_path's regex reading names


def _pattern_path(parsed: ParsedFile, node: Any) -> str | None:
    """The path a row's regex matches, `pattern: /^\\/assistants\\/[^/]+\\/graph$/`: a segment's
    `[^/]+` a parameter (and a group, as _regex_paths reads one); None for a regex no one path spells."""
    node = _unwrap_js(node)
    body = node.child_by_field_name("pattern") if node is not None and node.type == "regex" else None
    if body is None:
        return None
    pattern = _SEGMENT_CLASS.sub("{seg}", parsed.text(body))
    paths = [p for p in _regex_paths(pattern) if p.startswith("/") and not _REGEX_LEFT.search(p)]
    if len(paths) != 1:
        return None
    count = iter(range(1, 100))  # (segments and groups numbered together, in order: `/{arg1}/{arg2}`)
    return _PARAMETER.sub(lambda m: f"{{arg{next(count)}}}", paths[0])


def _arrays(root: Any) -> list[Any]:
    """The module-level array literals bound to a name (`const routes = [...]`)."""
    out = []
    for statement in root.named_children:
        declaration = statement.named_children[0] if statement.type == "export_statement" and \
            statement.named_children else statement
        if declaration.type not in ("lexical_declaration", "variable_declaration"):
            continue
        for declarator in declaration.named_children:
            value = _unwrap_js(declarator.child_by_field_name("value")) if declarator.type == "variable_declarator" \
                else None
            if value is not None and value.type == "array":
                out.append(value)
    return out
