"""HTTP routes of a Pecan application (OpenStack's vitrage, blazar, ironic...), which routes by
object dispatch: a path's segments walk the root controller's attributes (`v1 =
V1Controller()`, then `alarm = AlarmsController()`), and the last controller answers with an
exposed method:

- a plain controller: `index` for its own path, any other exposed method for the segment named
  after it, whatever the method (`@expose(generic=True)` with `@index.when(method="POST")` says
  which);
- a `RestController`: `get_all` and `get` (`GET /x`, or `GET /x/{id}` with a parameter),
  `get_one`, `post`, `put`, `patch` and `delete`, with one path segment per parameter that has no
  default, and the `_custom_actions` it declares (`{"count": ["GET"]}`: `GET /x/count`).

The per-file part (`pecan_controllers`) records each class as written; assembly
(`resolve_pecan_routes`) joins them across modules through the files' imports. The root is the
controller an app names (`make_app("pkg.root.RootController")`, `{"root": "pkg.root.RootController"}`),
else every controller no other one holds: its deployment's configuration (a Paste Deploy file
the package may not ship) mounts it, and that is said. A version controller mounted so
(`V1Controller`) is taken to serve `/v1`, as every Pecan service's version controller does, and
that too is said.

Controllers are held by class attributes, by `__init__` (`self.secrets = SecretsController()`,
`setattr(self, 'secret-stores', ...)` for a segment no name can spell), and by a `_lookup(self,
secret_id, *remainder)` that returns `SecretController(...), remainder`: at `{secret_id}`, or at the
literal an enclosing `if sub_resource == 'acl':` (or `remainder[0] == 'secrets'`) compares. In a
controller with `_lookup`, `_default` or `_route`, pecan hands the segments no attribute takes to
those, so its `index` takes none. A parameter a package decorator inserts (barbican's
`enforce_rbac`: `args.insert(0, project_id)`) takes no segment either, nor does one a decorator
fills with the body (ironic's `@method.body('node')`). A `_lookup` may return a controller it looks
up in a table of its class (ironic's `self._subcontroller_map.get(primary_key)`: at each key) or a
module's instance (`return V1, remainder`: at `v1`, the version its name says). What `_route`, `_default`
or `__getattr__` compute at run time is not followed.
"""

from __future__ import annotations

import re
from typing import Any

from .facts import FileFacts, ParsedFile, PecanController, Surface
from .python_imports import python_imports
from .python_modules import absolute, find_through_reexports, module_files

_EXPOSE = ("expose", "wsexpose")  # pecan.expose, wsmeext.pecan.wsexpose
_REST_VERBS = {"get_all": "GET", "get_one": "GET", "get": "GET", "post": "POST", "put": "PUT", "patch": "PATCH",
               "delete": "DELETE"}
# designate's RestController: `_handle_post` routes POST to `self._find_controller('post_all', 'post')`
# with no segment left, else to `post_one`: a verb's methods named by the package's own base class
_HANDLE = re.compile(r"^_handle_(get|post|put|patch|delete)$")
_FIND_CONTROLLER = re.compile(r"_find_controller\(([^)]*)\)")
_QUOTED = re.compile(r"""['"](\w+)['"]""")
_DISPATCH = ("_lookup", "_default", "_route")  # run-time dispatch of the segments no attribute takes
_DOTTED_CLASS = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$")
_VERSION = re.compile(r"^V(\d+(?:_\d+)?)Controller$")
_DEPTH = 8  # controllers below the root, at most
UNMOUNTED = ("served below {root}, a controller no other controller of the package holds: the deployment's "
             "configuration mounts it{guess}")
VERSION_GUESS = ", taken to be at {prefix} (its name's version)"


def pecan_controllers(parsed: ParsedFile) -> tuple[list[PecanController], list[tuple[str, str]], list[str]]:
    """The controller classes of a Python file that uses Pecan, the dotted roots it names, and
    the decorators it defines that insert a method's first argument."""
    source = parsed.source
    # (a module may only hold controllers, `topology = topology.TopologyController()`, and import no pecan)
    if parsed.tree is None or b"pecan" not in source and b"Controller()" not in source:
        return [], [], []
    root = parsed.tree.root_node
    names: dict[str, str] = {}
    for node in root.named_children:
        if node.type in ("import_statement", "import_from_statement"):
            modules, bound = python_imports(parsed, node)
            names.update(bound)
            for module in modules:
                names.setdefault(module.split(".")[0], module.split(".")[0])
    out = []
    uses_pecan = b"pecan" in source
    instances = _module_instances(parsed, names)
    for node in root.named_children:
        cls = node.child_by_field_name("definition") if node.type == "decorated_definition" else node
        if cls is not None and cls.type == "class_definition":
            found = _controller(parsed, cls, names, uses_pecan, instances)
            if found is not None:
                out.append(found)
    roots = _named_roots(parsed) if b"root" in source else []
    return out, roots, _injecting(parsed) if uses_pecan and b"insert(0" in source else []


def _injecting(parsed: ParsedFile) -> list[str]:
    """The module's decorators whose wrapper inserts the first argument of the method it wraps
    (barbican's `enforce_rbac`: `args.insert(0, external_project_id)`, then `fn(inst, *args)`): that
    parameter takes no path segment."""
    out = []
    for node in parsed.tree.root_node.named_children:
        if node.type != "function_definition":
            continue
        stack = [node.child_by_field_name("body")]
        while stack:
            current = stack.pop()
            if current is None:
                continue
            if current.type == "function_definition":
                params = current.child_by_field_name("parameters")
                splat = next((p for p in params.named_children if p.type == "list_splat_pattern"), None) \
                    if params is not None else None
                name = parsed.text(splat).lstrip("*") if splat is not None else ""
                if name and f"{name}.insert(0,".encode() in parsed.source[current.start_byte:current.end_byte]:
                    out.append(parsed.text(node.child_by_field_name("name")))
                    break
            stack.extend(current.named_children)
    return out


def _dotted(text: str, names: dict[str, str]) -> str:
    head, _, rest = text.partition(".")
    bound = names.get(head)
    return (bound + ("." + rest if rest else "")) if bound else text


def _module_instances(parsed: ParsedFile, names: dict[str, str]) -> dict[str, str]:
    """{module-level name: the controller class it is an instance of}, ironic's `V1 = v1.Controller()`."""
    out = {}
    for stmt in parsed.tree.root_node.named_children:
        node = stmt.named_children[0] if stmt.type == "expression_statement" and stmt.named_children else stmt
        left = node.child_by_field_name("left") if node.type == "assignment" else None
        target = _child_class(parsed, node.child_by_field_name("right"), names) if left is not None and \
            left.type == "identifier" else None
        if target:
            out[parsed.text(left)] = target
    return out


def _tables(parsed: ParsedFile, body: Any) -> dict[str, Any]:
    """{class attribute: its dict literal}, ironic's `_subcontroller_map = {'nodes': NodesController(), ...}`."""
    out = {}
    for stmt in body.named_children if body is not None else ():
        node = stmt.named_children[0] if stmt.type == "expression_statement" and stmt.named_children else stmt
        left = node.child_by_field_name("left") if node.type == "assignment" else None
        right = node.child_by_field_name("right") if left is not None else None
        if left is not None and left.type == "identifier" and right is not None and right.type == "dictionary":
            out[parsed.text(left)] = right
    return out


def _controller(parsed: ParsedFile, cls: Any, names: dict[str, str], uses_pecan: bool,
                instances: dict[str, str] | None = None) -> PecanController | None:
    """The class as a controller; in a module that uses Pecan, every class (a base without exposed
    methods of its own still makes its subclasses RestControllers)."""
    text = parsed.text
    supers = cls.child_by_field_name("superclasses")
    bases = [_dotted(text(b), names) for b in supers.named_children if b.type in ("identifier", "attribute")] \
        if supers is not None else []
    body = cls.child_by_field_name("body")
    children: list[tuple[str, str, int]] = []
    exposed: list[tuple[str, list[str], int, str]] = []  # (name, path parameters, line, HTTP method)
    custom: dict[str, list[str]] = {}
    doc = ""
    dispatches = False
    decorators: dict[int, list[str]] = {}
    handlers: set[int] = set()  # the positions in `exposed` of `when` handlers
    verb_names: dict[str, str] = {}
    for stmt in body.named_children if body is not None else ():
        node = stmt.named_children[0] if stmt.type == "expression_statement" and stmt.named_children else stmt
        definition = stmt.child_by_field_name("definition") if stmt.type == "decorated_definition" else stmt
        if definition is not None and definition.type == "function_definition":
            method = text(definition.child_by_field_name("name"))
            handled_verb = _HANDLE.match(method)
            if handled_verb:  # the package's RestController routes a verb to methods of its own naming
                for called in _FIND_CONTROLLER.findall(text(definition)):
                    for dispatched in _QUOTED.findall(called):
                        if dispatched != handled_verb[1]:
                            verb_names[dispatched] = handled_verb[1].upper()
            if method in _DISPATCH:
                dispatches = True
                if method == "_lookup":
                    children += _lookup_children(parsed, definition, names, _tables(parsed, body), instances or {})
            elif method == "__init__":
                children += _held_by_init(parsed, definition, names)
        if node.type == "string" and not doc and not children and not exposed:
            doc = text(node).strip("\"' \n").split("\n\n")[0]
        if node.type == "assignment":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is None or left.type != "identifier" or right is None:
                continue
            if right.type == "call":
                target = _child_class(parsed, right, names)
                if target:
                    children.append((text(left), target, node.start_point[0] + 1))
            elif text(left) == "_custom_actions" and right.type == "dictionary":
                custom = _custom_actions(parsed, right)
        elif stmt.type == "decorated_definition" and definition is not None and \
                definition.type == "function_definition":
            how = _exposed(parsed, stmt)
            name = text(definition.child_by_field_name("name"))
            if how is not None and how[1] is not None:  # a generic method's handler of another HTTP method
                name = how[1]
            if how is not None and not name.startswith("_"):  # (_route, _lookup, _default: run-time dispatch)
                body_args = _body_arguments(parsed, stmt)
                params = [p for p in _path_parameters(parsed, definition) if p not in body_args]
                line = definition.start_point[0] + 1
                if how[1] is not None:
                    handlers.add(len(exposed))
                exposed.append((name, params[:-1] if how[2] else params, line, how[0]))
                others = [_dotted(written, names) for written in _decorator_names(parsed, stmt)
                          if written.rpartition(".")[2] not in (*_EXPOSE, "when")]
                if others:
                    decorators[line] = others
    if not exposed and not children and not (uses_pecan and bases) and not verb_names:
        return None
    # `@index.when(method="GET")` answers GET in place of the generic method's own body (its 405)
    handled = {(entry[0], entry[3]) for i, entry in enumerate(exposed) if i in handlers}
    exposed = [entry for i, entry in enumerate(exposed) if i in handlers or (entry[0], entry[3]) not in handled]
    return PecanController(text(cls.child_by_field_name("name")), cls.start_point[0] + 1, bases, children, exposed,
                           custom, doc, dispatches, decorators, verb_names)


def _decorators(decorated: Any) -> list[tuple[Any, Any]]:
    """(expression, what it calls or is) of each decorator: `@expose(...)` is (the call, `expose`)."""
    out = []
    for dec in decorated.children:
        if dec.type == "decorator" and dec.named_children:
            expr = dec.named_children[0]
            out.append((expr, expr.child_by_field_name("function") if expr.type == "call" else expr))
    return out


def _body_arguments(parsed: ParsedFile, decorated: Any) -> set[str]:
    """The parameters a decorator fills with the request's body, ironic's `@method.body('node')`
    (`kwargs[body_arg] = pecan.request.json`): they take no path segment."""
    out = set()
    for expr, callee in _decorators(decorated):
        args = expr.child_by_field_name("arguments") if expr.type == "call" else None
        given = [a for a in args.named_children if a.type != "comment"] if args is not None else []
        if callee is not None and parsed.text(callee).rpartition(".")[2] == "body" and len(given) == 1 and \
                given[0].type == "string":
            out.add(parsed.text(given[0]).strip("'\""))
    return out


def _decorator_names(parsed: ParsedFile, decorated: Any) -> list[str]:
    """What each decorator calls or is, as written (`controllers.enforce_rbac`)."""
    return [parsed.text(callee) for _, callee in _decorators(decorated)
            if callee is not None and callee.type in ("identifier", "attribute")]


def _child_class(parsed: ParsedFile, value: Any, names: dict[str, str]) -> str | None:
    """The controller class `X()` / `mod.X(arg)` makes (its name capitalised), dotted."""
    while value is not None and value.type == "parenthesized_expression" and value.named_children:
        value = value.named_children[0]  # `self.zones = (zones.ZonesController())`, wrapped for its length
    if value is None or value.type != "call":
        return None
    callee = value.child_by_field_name("function")
    if callee is None or callee.type not in ("identifier", "attribute"):
        return None
    target = parsed.text(callee)
    return _dotted(target, names) if target.rpartition(".")[2][:1].isupper() else None


def _held_by_init(parsed: ParsedFile, init: Any, names: dict[str, str]) -> list[tuple[str, str, int]]:
    """The controllers `__init__` makes attributes: `self.secrets = SecretsController()`, and
    `setattr(self, 'secret-stores', SecretStoresController())` for a segment no name can spell."""
    out = []
    body = init.child_by_field_name("body")
    for stmt in body.named_children if body is not None else ():
        node = stmt.named_children[0] if stmt.type == "expression_statement" and stmt.named_children else stmt
        if node.type == "assignment":
            left = node.child_by_field_name("left")
            obj = left.child_by_field_name("object") if left is not None and left.type == "attribute" else None
            target = _child_class(parsed, node.child_by_field_name("right"), names)
            if obj is not None and parsed.text(obj) == "self" and target:
                out.append((parsed.text(left.child_by_field_name("attribute")), target, node.start_point[0] + 1))
        elif node.type == "call" and parsed.text(node.child_by_field_name("function")) == "setattr":
            args = node.child_by_field_name("arguments").named_children
            if len(args) == 3 and parsed.text(args[0]) == "self" and args[1].type == "string":
                target = _child_class(parsed, args[2], names)
                segment = parsed.text(args[1]).strip("'\"")
                if target and segment and "/" not in segment:
                    out.append((segment, target, node.start_point[0] + 1))
        elif node.type == "for_statement":
            out += _set_from_table(parsed, node, body, names)
    return out


def _set_from_table(parsed: ParsedFile, loop: Any, body: Any, names: dict[str, str]) -> list[tuple[str, str, int]]:
    """tricircle: `self.sub_controllers = {"pods": pod.PodsController(), ...}`, then `for name, ctrl
    in self.sub_controllers.items(): setattr(self, name, ctrl)`: each key a segment of its controller."""
    left, right = loop.child_by_field_name("left"), loop.child_by_field_name("right")
    function = right.child_by_field_name("function") if right is not None and right.type == "call" else None
    table = parsed.text(function.child_by_field_name("object")) if function is not None and \
        function.type == "attribute" and parsed.text(function.child_by_field_name("attribute")) == "items" else ""
    pair = [parsed.text(c) for c in left.named_children] if left is not None and left.type in (
        "pattern_list", "tuple_pattern") else []
    inner = loop.child_by_field_name("body")
    if len(pair) != 2 or not table or inner is None or not any(
            "".join(parsed.text(s).split()) == f"setattr(self,{pair[0]},{pair[1]})" for s in inner.named_children):
        return []
    value = None
    for stmt in body.named_children:
        node = stmt.named_children[0] if stmt.type == "expression_statement" and stmt.named_children else stmt
        if node.type == "assignment" and parsed.text(node.child_by_field_name("left")) == table and \
                node.start_byte < loop.start_byte:
            value = node.child_by_field_name("right")
    out = []
    for item in value.named_children if value is not None and value.type == "dictionary" else ():
        key = item.child_by_field_name("key") if item.type == "pair" else None
        segment = parsed.text(key).strip("'\"") if key is not None and key.type == "string" else ""
        target = _child_class(parsed, item.child_by_field_name("value"), names) if segment else None
        if target and "/" not in segment:
            out.append((segment, target, item.start_point[0] + 1))
    return out


def _lookup_children(parsed: ParsedFile, lookup: Any, names: dict[str, str], tables: dict[str, Any],
                     instances: dict[str, str]) -> list[tuple[str, str, int]]:
    """The controllers `_lookup(self, name, *remainder)` hands the rest of the path to: each
    `return X(...), remainder`, at the segments an enclosing `if name == 'acl':` compares (or
    `remainder[0] == 'secrets'`, or a name bound to `remainder[0]`), else at any segment
    (`{name}`, barbican's `/secrets/{secret_id}`). A controller looked up in a table of the class
    (ironic's `controller = self._subcontroller_map.get(primary_key)`, `return controller, remainder`,
    or `subcontroller(node_ident=ident)` for `remainder[0]`) is at each key of it; a module's instance
    (`return V1, remainder` of `V1 = v1.Controller()`) at `{name}`, or at `v1` when its name says
    the version, as a version controller's does."""
    params = lookup.child_by_field_name("parameters")
    plain = [parsed.text(p) for p in params.named_children if p.type == "identifier"] if params is not None else []
    if len(plain) < 2:
        return []  # `_lookup(self, *remainder)`: no segment of its own
    segment = plain[1]
    splat = next((p for p in params.named_children if p.type == "list_splat_pattern"), None)
    rest = parsed.text(splat).lstrip("*") if splat is not None else ""
    nexts = {f"{rest}[0]"} if rest else set()  # what stands for the segment after `name`
    if len(plain) > 2:  # mistral's `_lookup(self, identifier, sub_resource, *remainder)`
        nexts.add(plain[2])
    out = []
    looked_up: dict[str, tuple[Any, str]] = {}  # a local bound to a table's entry -> (the table, what keys it)
    stack = [lookup.child_by_field_name("body")]
    while stack:
        node = stack.pop()
        if node is None or node.type in ("function_definition", "class_definition", "lambda"):
            continue
        if node.type == "assignment":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if nexts and left is not None and left.type == "identifier" and right is not None and \
                    parsed.text(right).replace(" ", "") in nexts:  # octavia's `controller = remainder[0]`
                nexts.add(parsed.text(left))
            entry = _table_entry(parsed, right, tables) if left is not None and left.type == "identifier" else None
            if entry is not None:
                looked_up[parsed.text(left)] = entry
        if node.type == "return_statement" and node.named_children:
            value = node.named_children[0]
            first = value.named_children[0] if value.type in ("expression_list", "tuple") and value.named_children \
                else None
            called = first.child_by_field_name("function") if first is not None and first.type == "call" else first
            entry = looked_up.get(parsed.text(called)) if called is not None and called.type == "identifier" else None
            if entry is not None:
                table, key = entry
                line = node.start_point[0] + 1
                at = "" if key == segment else f"{{{segment}}}/" if key in nexts else None
                out += [(f"{at}{k}", t, line) for k, t in _table_controllers(parsed, table, names)] \
                    if at is not None else []
                continue
            target = _child_class(parsed, first, names)
            if target is None and first is not None and first.type == "identifier" and \
                    parsed.text(first) in instances:
                target = instances[parsed.text(first)]
                version = re.fullmatch(r"V(\d+)", parsed.text(first))
                if version and not _compared(parsed, node, lookup, segment, nexts):
                    out.append((f"v{version[1]}", target, node.start_point[0] + 1))
                    continue
            if target:
                line = node.start_point[0] + 1
                out += [(at, target, line) for at in _compared(parsed, node, lookup, segment, nexts)
                        or [f"{{{segment}}}"]]
            continue
        stack.extend(reversed(node.named_children))  # (in order: an alias is bound before it is tested)
    return out


def _table_entry(parsed: ParsedFile, node: Any, tables: dict[str, Any]) -> tuple[Any, str] | None:
    """(the class's table, the key's text) of `self._subcontroller_map.get(key)` or `[key]`."""
    if node is None:
        return None
    if node.type == "call":
        function = node.child_by_field_name("function")
        args = [a for a in node.child_by_field_name("arguments").named_children if a.type != "comment"]
        if function is None or function.type != "attribute" or \
                parsed.text(function.child_by_field_name("attribute")) != "get" or not args:
            return None
        owner, key = function.child_by_field_name("object"), args[0]
    elif node.type == "subscript":
        owner, key = node.child_by_field_name("value"), node.child_by_field_name("subscript")
    else:
        return None
    written = parsed.text(owner).replace(" ", "") if owner is not None else ""
    table = tables.get(written.removeprefix("self.")) if written.startswith("self.") else None
    return (table, parsed.text(key).replace(" ", "")) if table is not None and key is not None else None


def _table_controllers(parsed: ParsedFile, table: Any, names: dict[str, str]) -> list[tuple[str, str]]:
    """(key, controller class) of each entry of a table of controllers: instances or classes."""
    out = []
    for pair in table.named_children:
        key = pair.child_by_field_name("key") if pair.type == "pair" else None
        value = pair.child_by_field_name("value") if key is not None else None
        segment = parsed.text(key).strip("'\"") if key is not None and key.type == "string" else ""
        if not segment or "/" in segment or value is None:
            continue
        target = _child_class(parsed, value, names)
        if target is None and value.type in ("identifier", "attribute") and \
                parsed.text(value).rpartition(".")[2][:1].isupper():
            target = _dotted(parsed.text(value), names)  # (the class itself: `'ports': port.PortsController`)
        if target:
            out.append((segment, target))
    return out


def _compared(parsed: ParsedFile, node: Any, stop: Any, name: str, nexts: set[str]) -> list[str]:
    """The segments the nearest enclosing `if`/`elif` that compares the path says the return is
    for, when `node` is in that branch's body: `acl` for `name == 'acl'`, `{name}/secrets` for
    `remainder[0] == 'secrets'` (the segment after `name`, `nexts`), one per literal of
    `controller in ('status', 'statuses')`."""
    child, parent = node, node.parent
    while parent is not None and parent != stop:
        if parent.type in ("if_statement", "elif_clause") and parent.child_by_field_name("consequence") == child:
            found = _segment_test(parsed, parent.child_by_field_name("condition"), name, nexts)
            if found:
                return found
        child, parent = parent, parent.parent
    return []


def _segment_test(parsed: ParsedFile, cond: Any, name: str, nexts: set[str]) -> list[str]:
    while cond is not None and cond.type == "parenthesized_expression" and cond.named_children:
        cond = cond.named_children[0]  # `if (action == 'preferred'):`
    if cond is None:
        return []
    if cond.type == "boolean_operator" and parsed.text(cond.child_by_field_name("operator")) == "and":
        return _segment_test(parsed, cond.child_by_field_name("left"), name, nexts) or \
            _segment_test(parsed, cond.child_by_field_name("right"), name, nexts)
    if cond.type != "comparison_operator" or len(cond.named_children) != 2:
        return []
    left, right = cond.named_children
    operators = [parsed.text(c) for c in cond.children if not c.is_named]
    if operators == ["=="] and right.type == "string":
        literals = [right]
    elif operators == ["in"] and right.type in ("tuple", "list", "set"):
        literals = [c for c in right.named_children if c.type == "string"]
    else:
        return []
    values = [v for c in literals if (v := parsed.text(c).strip("'\"")) and "/" not in v]
    written = parsed.text(left).replace(" ", "")
    if left.type == "identifier" and written == name:
        return values
    if written in nexts:
        return [f"{{{name}}}/{v}" for v in values]
    return []


def _exposed(parsed: ParsedFile, decorated: Any) -> tuple[str, str | None, bool] | None:
    """(HTTP method, the generic method it answers for, whether its last parameter takes the
    request's body) of an exposed method: ("ANY", None, False) for `@expose()`, ("GET", None, False)
    for `@expose(generic=True)` (its other methods are 405 until a `when` registers them), ("POST",
    "index", False) for `@index.when(method="POST")`, a True third for wsme's `@wsexpose(...,
    body=Type)`; None if not exposed."""
    for expr, callee in _decorators(decorated):
        name = parsed.text(callee).rpartition(".")[2] if callee is not None else ""
        keywords = {parsed.text(a.child_by_field_name("name")): parsed.text(a.child_by_field_name("value"))
                    for a in expr.child_by_field_name("arguments").named_children
                    if a.type == "keyword_argument"} if expr.type == "call" else {}
        if name in _EXPOSE:
            return ("GET" if keywords.get("generic") == "True" else "ANY"), None, "body" in keywords
        if name == "when" and callee.type == "attribute" and "method" in keywords:
            value = keywords["method"].strip("'\"").upper()
            generic = parsed.text(callee.child_by_field_name("object"))
            return (value, generic, False) if value.isalpha() else None
    return None


def _path_parameters(parsed: ParsedFile, function: Any) -> list[str]:
    """The positional parameters without a default (after self), which take path segments."""
    params = function.child_by_field_name("parameters")
    out = []
    for param in params.named_children if params is not None else ():
        if param.type == "identifier":
            out.append(parsed.text(param))
        elif param.type == "typed_parameter" and param.named_children and param.named_children[0].type == "identifier":
            out.append(parsed.text(param.named_children[0]))
    return out[1:] if out[:1] in (["self"], ["cls"]) else out


def _custom_actions(parsed: ParsedFile, dictionary: Any) -> dict[str, list[str]]:
    out = {}
    for pair in dictionary.named_children:
        if pair.type != "pair":
            continue
        key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
        name = parsed.text(key).strip("'\"") if key is not None and key.type == "string" else ""
        if name and value is not None and value.type in ("list", "tuple"):
            out[name] = [parsed.text(v).strip("'\"").upper() for v in value.named_children if v.type == "string"]
    return out


def _named_roots(parsed: ParsedFile) -> list[tuple[str, str]]:
    """('pkg.root.RootController', the module-level function it is named in, or "") of each root
    given as `make_app(...)`'s first argument or a dict's "root"."""
    out = []
    stack = [(parsed.tree.root_node, "")]
    while stack:
        node, within = stack.pop()
        if node.type == "pair" and parsed.text(node.child_by_field_name("key")).strip("'\"") == "root":
            value = node.child_by_field_name("value")
            out.append((parsed.text(value).strip("'\"") if value is not None and value.type == "string" else "", within))
        elif node.type == "call" and parsed.text(node.child_by_field_name("function")).endswith("make_app"):
            args = node.child_by_field_name("arguments")
            first = args.named_children[0] if args is not None and args.named_children else None
            if first is not None and first.type == "string":
                out.append((parsed.text(first).strip("'\""), within))
        if node.type == "function_definition" and not within:  # (a paste app factory names its root so)
            name = node.child_by_field_name("name")
            within = parsed.text(name) if name is not None else ""
        stack.extend((child, within) for child in node.named_children)
    return [(r, within) for r, within in out if _DOTTED_CLASS.match(r)]


# --- assembly ---------------------------------------------------------------------------------------

Found = tuple[str, PecanController]  # (file, class)


def resolve_pecan_routes(facts: dict[str, FileFacts]) -> None:
    """Add, in place, the routes of every Pecan controller tree of the package to the files that
    hold the methods answering them."""
    if not any(f.pecan for f in facts.values()):
        return
    modules = module_files(facts)
    tree = _Tree(facts, modules)
    named = [(found, dotted) for f in facts.values() for dotted, _ in f.pecan_roots
             if (found := tree.find(dotted)) is not None]
    if named:
        roots = [(found, "", None, dotted) for found, dotted in named]
    else:
        held = {tree.key(c) for path, ctl in tree.all for c in tree.children(path, ctl)}
        extended = {tree.key(b) for path, ctl in tree.all for b in tree.bases(path, ctl)}
        roots = []
        for path, ctl in tree.all:
            if tree.key((path, ctl)) in held or tree.key((path, ctl)) in extended:
                continue
            version = _VERSION.match(ctl.name)
            prefix = "/v" + version[1].replace("_", ".") if version else ""
            note = UNMOUNTED.format(root=ctl.name, guess=VERSION_GUESS.format(prefix=prefix) if prefix else "")
            roots.append(((path, ctl), prefix, note, None))
    seen: set[tuple[str, str, str]] = set()
    for found, prefix, note, dotted in roots:
        tree.root = dotted  # (an app factory that names it may be served under a prefix: paste_deploy.py)
        tree.walk(found, prefix, note, [], seen, 0)


class _Tree:
    def __init__(self, facts: dict[str, FileFacts], modules: dict[str, str]) -> None:
        self.facts, self.modules = facts, modules
        self.all = [(path, ctl) for path, f in facts.items() for ctl in f.pecan]
        self.root: str | None = None  # the dotted name of the root being walked, when an app names it
        self._names: dict[str, dict[str, PecanController]] = {
            path: {ctl.name: ctl for ctl in f.pecan} for path, f in facts.items() if f.pecan}

    @staticmethod
    def key(found: Found) -> tuple[str, str]:
        return found[0], found[1].name

    def find(self, dotted: str, here: str | None = None) -> Found | None:
        """The controller a name stands for: a class of `here`, or one an absolute or relative
        dotted name gives (through the packages' re-exports)."""
        if here is not None and "." not in dotted:
            ctl = self._names.get(here, {}).get(dotted)
            return (here, ctl) if ctl is not None else None
        dotted = absolute(dotted, here) if here is not None else dotted
        return find_through_reexports(self.facts, self.modules, dotted, self._lookup)

    def _lookup(self, path: str, name: str) -> Found | None:
        ctl = self._names.get(path, {}).get(name)
        return (path, ctl) if ctl is not None else None

    def children(self, path: str, ctl: PecanController) -> list[Found]:
        return [found for _, target, _ in ctl.children if (found := self.find(target, path)) is not None]

    def injected(self, path: str, decorators: Any) -> bool:
        """Whether one of a method's decorators inserts its first argument (so no path segment does)."""
        return any(dotted in self.facts[path].pecan_injecting if "." not in dotted else find_through_reexports(
            self.facts, self.modules, absolute(dotted, path), self._injecting) for dotted in decorators)

    def _injecting(self, path: str, name: str) -> bool | None:
        return True if name in self.facts[path].pecan_injecting else None

    def bases(self, path: str, ctl: PecanController) -> list[Found]:
        return [found for base in ctl.bases if (found := self.find(base, path)) is not None]

    def lineage(self, found: Found) -> list[Found]:
        """The class and the package's classes it extends, nearest first."""
        out, queue = [], [found]
        while queue and len(out) < 6:
            current = queue.pop(0)
            if any(self.key(current) == self.key(o) for o in out):
                continue
            out.append(current)
            queue += self.bases(*current)
        return out

    def is_rest(self, lineage: list[Found]) -> bool:
        return any(base.rpartition(".")[2] == "RestController" for _, ctl in lineage for base in ctl.bases)

    def walk(self, found: Found, prefix: str, note: str | None, via: list[dict[str, Any]],
             seen: set[tuple[str, str, str]], depth: int, taken: tuple[str, ...] = (),
             above: tuple[tuple[str, str], ...] = ()) -> None:
        """The routes of a controller at `prefix`; `taken`: the parameters the RestControllers
        above took from the path (pecan passes them first to this one's methods); `above`: the
        controllers on the way down from the root."""
        if depth > _DEPTH or (found[0], found[1].name, prefix) in seen:
            return
        seen.add((found[0], found[1].name, prefix))
        above = (*above, self.key(found))
        lineage = self.lineage(found)
        rest = self.is_rest(lineage)
        answered: set[tuple[str, str]] = set()
        custom: dict[str, list[str]] = {}
        for path, ctl in lineage:
            for name, methods in ctl.custom_actions.items():
                custom.setdefault(name, methods)
        verbs = {name for _, ctl in lineage for name, *_ in ctl.exposed}
        named_verbs = {name: verb for _, ctl in reversed(lineage) for name, verb in ctl.verb_names.items()}
        # the path parameters that name one item: what get_one (or get) takes
        item = next((_after(params, taken) for _, ctl in lineage for name, params, _, _ in ctl.exposed
                     if name in ("get_one", "get") and _after(params, taken)), []) if rest else []
        for path, ctl in lineage:  # the nearest class's method wins
            for name, params, line, when in ctl.exposed:
                if (name, when) in answered:
                    continue
                answered.add((name, when))
                if params and self.injected(path, ctl.decorators.get(line, ())):
                    params = params[1:]
                if name == "index" and not rest and any(c.dispatches for _, c in lineage):
                    params = []  # pecan hands the segments no attribute takes to `_lookup`, not to `index`
                params = _after(params, taken)
                for method, route in _answers(name, params, when, rest, custom, prefix, verbs, len(item),
                                              named_verbs):
                    self._add(path, ctl, name, line, method, route, note, via)
        # a RestController's sub-controller whose methods take the item's id first sits after it
        # (`/clusters/{cluster_ident}/actions/resize` for `get_one(self, cluster_ident)` and
        # `resize(self, cluster_ident)`); one that takes no such id, at `/alarm/count`
        for path, ctl in lineage:
            if (path, ctl.name) in above[:-1]:
                # what it inherits from a controller above it (octavia's FailoverController extends
                # the LoadBalancersController whose _lookup led to it): that dispatch is not run again
                continue
            for attribute, target, line in ctl.children:
                child = self.find(target, path)
                if child is None or self.key(child) in above:
                    continue  # (nor is a controller that leads back to one above it)
                how = f"_lookup({attribute[1:-1]}) returns" if attribute.startswith("{") else f"{attribute} ="
                step = {"path": path, "line": line, "detail": f"pecan: {ctl.name}.{how} {child[1].name}()"}
                wanted = (*taken, *item)
                # (by name, or by place: each of its methods takes that many parameters from the path);
                # a controller `_lookup` hands on is at the segments it read itself (`{id}/stats`)
                exposed = [params for _, c in self.lineage(child) for _, params, _, _ in c.exposed]
                nested = bool(item) and bool(exposed) and not attribute.startswith("{") and (
                    any(params[:len(wanted)] == list(wanted) for params in exposed)
                    or all(len(params) >= len(wanted) for params in exposed))
                below = prefix + "".join(f"/{{{p}}}" for p in item) if nested else prefix
                self.walk(child, f"{below}/{attribute}", note, [*via, step], seen, depth + 1,
                          wanted if nested else taken, above)

    def _add(self, path: str, ctl: PecanController, name: str, line: int, method: str, route: str,
             note: str | None, via: list[dict[str, Any]]) -> None:
        detail: dict[str, Any] = {"method": method, "path": route, "controller": ctl.name}
        if via:
            detail["via"] = via
        if note:
            detail["unmounted"] = note
        if self.root:
            detail["pecan_root"] = self.root
        surface = Surface(kind="http-route", name=f"{method} {route}", line=line, end_line=line, framework="pecan",
                          handler=f"{ctl.name}.{name}", description=ctl.doc, detail=detail)
        f = self.facts[path]
        if not any(s.name == surface.name and s.handler == surface.handler for s in f.surfaces):
            f.surfaces.append(surface)


def _after(params: list[str], taken: tuple[str, ...]) -> list[str]:
    """A method's path parameters less those the controllers above took (pecan passes them first)."""
    return params[len(taken):] if taken and len(params) >= len(taken) else params


def _answers(name: str, params: list[str], when: str, rest: bool, custom: dict[str, list[str]],
             prefix: str, verbs: set[str], item: int = 0,
             named_verbs: dict[str, str] | None = None) -> list[tuple[str, str]]:
    """(HTTP method, path) pairs an exposed method answers; `item`: how many path parameters name
    one item (a custom action's others come from the query or the body); `named_verbs`: methods
    the package's own RestController routes a verb to (`post_all`: the collection's POST)."""
    here = prefix or "/"
    segments = "".join(f"/{{{p}}}" for p in params)
    if rest and named_verbs and name in named_verbs and name not in _REST_VERBS:
        return [(named_verbs[name], here if name.endswith("_all") else (prefix + segments) or "/")]
    if rest and name in _REST_VERBS:
        if name == "get_all":
            return [("GET", here)]
        if name == "get" and params and "get_all" not in verbs:  # the collection's GET too, its arguments from the query
            return [("GET", here), ("GET", prefix + segments)]
        return [(_REST_VERBS[name], (prefix + segments) or "/")]
    if rest and name in custom:  # after the item's segments: `POST /action_plans/{uuid}/start`
        if item:  # zun's `rename(self, container_ident, name)`: /containers/{container_ident}/rename?name=
            segments = "".join(f"/{{{p}}}" for p in params[:item])
        # (pecan's RestController takes a PUT's or a DELETE's action from the first segment left and
        # its arguments after it, or from the query or the JSON body: ironic's `PUT
        # /nodes/{node_ident}/states/power` with `{"target": ...}`)
        put = segments if item else ""
        return [(m, f"{prefix}/{name}{put}" if m.upper() in ("PUT", "DELETE") else f"{prefix}{segments}/{name}")
                for m in custom[name] or ["GET"]]
    if rest:
        return []  # RestController dispatches only its verbs and custom actions
    method = when
    if name == "index":
        return [(method, (prefix + segments) or "/")]
    return [(method, f"{prefix}/{name}{segments}")]
