"""Routes a Python service writes as a table of dicts that a loop of its own registers (OpenStack
heat's v1 API):

    def connect(controller, path_prefix, routes):
        for r in routes:
            url = path_prefix + r['url']
            mapper.connect(r['name'], url, controller=controller, conditions={'method': r['method']})

    connect(controller=stacks, path_prefix='/{tenant_id}',
            routes=[{'name': 'stack_index', 'url': '/stacks', 'action': 'index', 'method': 'GET'}, ...])

The registering call's path is read back to the loop's row (`r['url']`, or a name the loop's body
binds to it, with a literal or parameter prefix before it); the rows are the loop's literal list, or,
when the loop walks a parameter of the function around it, the literal lists the same file's calls
of that function pass (with the prefix each call gives). Each row is one route, at the row's line;
its method is the row's own (`'method'`/`'methods'`/`'verb'`). A row, a prefix or a method that is not
a literal: that route is not guessed.

A table of (path, {method: ...}) rows two nested loops register (nova's `ROUTE_LIST`, a path and
each key of its dict handed to the mapper's `create_route(path, method, ...)`): a route per key.

The same for a wrapper whose parameters are the path and a dict of methods (tacker's
`_setup_route(self, mapper, url, methods, ...)`, connecting `url` per `for method, action in
methods.items()`): each call of it in the file, with a literal path and a dict it binds just
before, is a route per key of that dict, at the call.
"""

from __future__ import annotations

from typing import Any

from .facts import ParsedFile
from .surfaces import _enclosing, _parameter_name, py_args, py_literal, py_string

_METHOD_KEYS = ("method", "methods", "verb", "http_method")
_MAX_ROWS = 2000  # rows read from one file's tables at most

Row = tuple[Any, str, list[str] | None]  # (the row's dict node, its full path, its methods or None)


def table_routes(pf: ParsedFile, call: Any, path_node: Any) -> list[Row]:
    """The rows of a literal table the loop around `call` registers with `path_node` as the path."""
    loop, key, prefix = _row_path(pf, call, path_node)
    if loop is None:
        return []
    right = loop.child_by_field_name("right")
    tables: list[tuple[Any, str | None]] = []  # (list node, prefix)
    literal = _list_value(pf, right, loop)
    if literal is not None:
        tables.append((literal, _prefix_value(pf, prefix, None, None)))
    elif right is not None and right.type == "identifier":
        function = _enclosing(loop, "function_definition")
        params = _parameter_names(pf, function)
        name = pf.text(right)
        if function is None or name not in params:
            return []
        called = pf.text(function.child_by_field_name("name"))
        scope = function.parent
        while scope is not None and scope.type not in ("block", "module"):
            scope = scope.parent
        for site in _calls_of(pf, scope if scope is not None else pf.tree.root_node, called):
            given = _argument(site, params, name)
            table = _list_value(pf, given, site) if given is not None else None
            if table is not None:
                tables.append((table, _prefix_value(pf, prefix, site, params)))
    out: list[Row] = []
    for table, given_prefix in tables:
        if given_prefix is None:
            continue
        for item in table.named_children:
            if item.type != "dictionary" or len(out) >= _MAX_ROWS:
                continue
            fields = _fields(pf, item)
            path = fields.get(key)
            if not isinstance(path, str) or not (given_prefix + path).startswith("/"):
                continue
            method = next((fields[k] for k in _METHOD_KEYS if k in fields), None)
            methods = [method] if isinstance(method, str) else method if isinstance(method, list) and all(
                isinstance(m, str) for m in method) else None
            out.append((item, given_prefix + path, methods))
    return out


def wrapper_routes(pf: ParsedFile, call: Any, path_node: Any, conditions: Any) -> list[Row]:
    """The routes the same file's calls of a wrapper give, tacker's `def _setup_route(self, mapper,
    url, methods, ...)` connecting `url` once per `for method, action in methods.items()` with
    `conditions={'method': [method]}`, called as `self._setup_route(mapper, "/vnf_packages",
    methods, ...)` after `methods = {"GET": "index", "POST": "create"}`: a route per key, at the call."""
    function = _enclosing(call, "function_definition")
    params = _parameter_names(pf, function)
    if path_node is None or path_node.type != "identifier" or pf.text(path_node) not in params:
        return []
    verb = _condition_name(pf, conditions)
    loop = _loop_around(call)
    left = loop.child_by_field_name("left") if loop is not None else None
    right = loop.child_by_field_name("right") if left is not None else None
    names = [pf.text(n) for n in (left.named_children if left.type in ("pattern_list", "tuple_pattern") else [left])] \
        if left is not None else []
    items = right.child_by_field_name("function") if right is not None and right.type == "call" else None
    table = items.child_by_field_name("object") if items is not None and items.type == "attribute" and \
        pf.text(items.child_by_field_name("attribute")) in ("items", "keys") else right
    if verb is None or not names or names[0] != verb or table is None or table.type != "identifier" or \
            pf.text(table) not in params:
        return []
    called = pf.text(function.child_by_field_name("name"))
    out: list[Row] = []
    for site in _calls_of(pf, pf.tree.root_node, called, methods=True):
        given = _argument(site, params, pf.text(path_node))
        path = py_string(pf, given) if given is not None else None
        methods = _argument(site, params, pf.text(table))
        if methods is not None and methods.type == "identifier":
            methods = _bound_before(pf, methods, site)
        if path is None or not path.startswith("/") or methods is None or methods.type != "dictionary":
            continue
        keys = [py_string(pf, pair.child_by_field_name("key")) for pair in methods.named_children
                if pair.type == "pair"]
        if keys and all(isinstance(k, str) for k in keys):
            out.append((site, path, keys))  # type: ignore[arg-type]
    return out


def path_method_routes(pf: ParsedFile, call: Any, path_node: Any, verb_node: Any) -> list[Row]:
    """nova's `ROUTE_LIST = (('/flavors', {'GET': [...], 'POST': [...]}), ...)`, registered by
    `for path, methods in ROUTE_LIST + custom_routes:` and, inside, `for method, info in
    methods.items(): self.map.create_route(path, method, ...)`: a route per key of each row's dict,
    at the row (a row that is not a literal (path, dict) pair is not read; nor are tables added at
    run time, `custom_routes`)."""
    inner = _loop_around(call)
    outer = _loop_around(inner) if inner is not None else None
    if outer is None or path_node is None or verb_node is None or \
            path_node.type != "identifier" or verb_node.type != "identifier":
        return []
    names = [pf.text(n) for n in inner.child_by_field_name("left").named_children] \
        if inner.child_by_field_name("left").type in ("pattern_list", "tuple_pattern") else []
    items = inner.child_by_field_name("right")
    function = items.child_by_field_name("function") if items is not None and items.type == "call" else None
    walked = pf.text(function.child_by_field_name("object")) if function is not None and \
        function.type == "attribute" and pf.text(function.child_by_field_name("attribute")) == "items" else ""
    left = outer.child_by_field_name("left")
    pair = [pf.text(n) for n in left.named_children] if left is not None and left.type in (
        "pattern_list", "tuple_pattern") else []
    if not names or names[0] != pf.text(verb_node) or pair != [pf.text(path_node), walked]:
        return []
    right = outer.child_by_field_name("right")
    while right is not None and right.type == "binary_operator":  # `ROUTE_LIST + custom_routes`: the literal part
        right = right.child_by_field_name("left")
    table = _list_value(pf, right, outer)
    out: list[Row] = []
    for row in table.named_children if table is not None else ():
        values = [c for c in row.named_children if c.type != "comment"] if row.type == "tuple" else []
        path = py_string(pf, values[0]) if len(values) == 2 and values[1].type == "dictionary" else None
        if path is None or not path.startswith("/") or len(out) >= _MAX_ROWS:
            continue
        keys = [py_string(pf, entry.child_by_field_name("key")) for entry in values[1].named_children
                if entry.type == "pair"]
        if keys and all(isinstance(k, str) for k in keys):
            out.append((row, path, keys))  # type: ignore[arg-type]
    return out


def _condition_name(pf: ParsedFile, conditions: Any) -> str | None:
    """The name a connect's `conditions={'method': [method]}` (or `'method': method`) gives."""
    if conditions is None or conditions.type != "dictionary":
        return None
    for pair in conditions.named_children:
        value = pair.child_by_field_name("value") if pair.type == "pair" else None
        if value is not None and py_string(pf, pair.child_by_field_name("key")) == "method":
            if value.type == "list" and len(value.named_children) == 1:
                value = value.named_children[0]
            return pf.text(value) if value.type == "identifier" else None
    return None


def _row_path(pf: ParsedFile, call: Any, node: Any) -> tuple[Any, str, Any]:
    """(the `for` loop, the key of its row, the prefix node or None) that the path `node` is built
    from, or (None, "", None)."""
    none = (None, "", None)
    if node is None:
        return none
    if node.type == "identifier":  # `url = path_prefix + r['url']` in the loop's body, before the call
        node = _bound_before(pf, node, call)
        if node is None:
            return none
    prefix = None
    if node.type == "binary_operator" and pf.text(node.child_by_field_name("operator")) == "+":
        prefix, node = node.child_by_field_name("left"), node.child_by_field_name("right")
    if node is None or node.type != "subscript":
        return none
    value, keys = node.child_by_field_name("value"), node.children_by_field_name("subscript")
    key = py_string(pf, keys[0]) if len(keys) == 1 else None
    if value is None or value.type != "identifier" or key is None:
        return none
    row = pf.text(value)
    loop = _loop_around(call)
    left = loop.child_by_field_name("left") if loop is not None else None
    if left is None or left.type != "identifier" or pf.text(left) != row:
        return none
    return loop, key, prefix


def _loop_around(call: Any) -> Any:
    """The `for` statement `call` is in, within its function, else None."""
    loop = call.parent
    while loop is not None and loop.type not in ("for_statement", "function_definition", "module"):
        loop = loop.parent
    return loop if loop is not None and loop.type == "for_statement" else None


def _list_value(pf: ParsedFile, node: Any, at: Any) -> Any:
    """The list (or tuple) literal `node` is, or a name bound to one in the block around `at`."""
    if node is not None and node.type == "identifier":
        node = _bound_before(pf, node, at)
    return node if node is not None and node.type in ("list", "tuple") else None


def _prefix_value(pf: ParsedFile, prefix: Any, site: Any, params: list[str] | None) -> str | None:
    """The prefix's literal value ("" for none): a string, or a parameter's literal argument at `site`
    (a name the caller binds to a literal just before, too)."""
    if prefix is None:
        return ""
    value = py_string(pf, prefix)
    if value is not None or prefix.type != "identifier":
        return value
    name = pf.text(prefix)
    if site is not None and params is not None and name in params:
        given = _argument(site, params, name)
        if given is None:
            return None
        value = py_string(pf, given)
        if value is None and given.type == "identifier":
            bound = _bound_before(pf, given, site)
            value = py_string(pf, bound) if bound is not None else None
        return value
    bound = _bound_before(pf, prefix, prefix)
    return py_string(pf, bound) if bound is not None else None


def _bound_before(pf: ParsedFile, name_node: Any, at: Any) -> Any:
    """The value a name is last bound to by a plain assignment before `at`, in the blocks around it."""
    name, block = pf.text(name_node), at.parent
    while block is not None:
        if block.type in ("block", "module"):
            found = None
            for statement in block.named_children:
                if statement.start_byte >= at.start_byte:
                    break
                inner = statement.named_child(0) if statement.type == "expression_statement" and \
                    statement.named_child_count else statement
                left = inner.child_by_field_name("left") if inner.type == "assignment" else None
                if left is not None and left.type == "identifier" and pf.text(left) == name:
                    found = inner.child_by_field_name("right")
            if found is not None:
                return found
        block = block.parent
    return None


def _parameter_names(pf: ParsedFile, function: Any) -> list[str]:
    params = function.child_by_field_name("parameters") if function is not None else None
    return [pf.text(_parameter_name(p)) for p in params.named_children if p.type != "comment"] \
        if params is not None else []


def _calls_of(pf: ParsedFile, scope: Any, name: str, methods: bool = False) -> list[Any]:
    """Calls of `name` in `scope` (with `methods`, of `self.name` too)."""
    out, todo = [], [scope]
    while todo:
        node = todo.pop()
        if node.type == "call":
            function = node.child_by_field_name("function")
            if function is not None and function.type == "identifier" and pf.text(function) == name or \
                    methods and function is not None and function.type == "attribute" and \
                    pf.text(function) == f"self.{name}":
                out.append(node)
        todo.extend(node.named_children)
    return sorted(out, key=lambda n: n.start_byte)


def _argument(site: Any, params: list[str], name: str) -> Any:
    positional, keywords = py_args(site.child_by_field_name("arguments"))
    if name in keywords:
        return keywords[name]
    index = params.index(name) - (1 if params and params[0] in ("self", "cls") else 0)
    return positional[index] if 0 <= index < len(positional) else None


def _fields(pf: ParsedFile, item: Any) -> dict[str, Any]:
    """{key: literal value} of a dict literal's string keys (a value not literal: left out)."""
    out: dict[str, Any] = {}
    for pair in item.named_children:
        if pair.type != "pair":
            continue
        key = py_string(pf, pair.child_by_field_name("key"))
        value = pair.child_by_field_name("value")
        if key is None or value is None:
            continue
        text = py_string(pf, value)
        if text is not None:
            out[key] = text
        elif value.type in ("list", "tuple"):
            listed = py_literal(pf, value)
            if isinstance(listed, list):
                out[key] = listed
    return out
