"""HTTP routes that are classes: a route class's fields say its method and its paths, its
`handler` serves it (browserless: `export default class ChromiumPdfPostRoute extends
BrowserHTTPRoute { method = Methods.post; path = [HTTPRoutes.chromiumPdf, HTTPRoutes.pdf]; ... }`).
The server loads such classes from their folders at run time, out of a static reader's sight, so
these routes carry that caveat, as route modules do (miners/mine.py).

Each file records its classes with such fields as it writes them (`route_classes`); here, in
assembly, a class takes what it does not declare itself from the classes it extends (a subclass
that only changes the paths, in another module), and a value that names another module's enum
or constant is read there: through the import, else, for a name the package imports by its own
name or an alias, the one module that defines it. A class is a route only when its names say so
(Route, Endpoint, Controller, Handler), it is exported, and its path and method are read; a class
with a path and no method is a WebSocket route when its names say so, opened by a GET.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .facts import FieldValue, FileFacts, ParsedFile, RouteClass, Surface
from .js_modules import js_module_file
from .surfaces import _Js, _route_name, _unwrap_js, js_string

_FIELDS = ("path", "method", "methods")
_ROUTISH = re.compile(r"route|endpoint|controller|handler", re.IGNORECASE)
_SOCKET = re.compile(r"socket", re.IGNORECASE)
_VERBS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
_HOPS = 4  # classes extended, followed at most
_EXTGLOB = re.compile(r"[+*@?!]\([^()/]*\)")  # picomatch's +(...) and friends: one segment's pattern
JS = ("javascript", "typescript", "tsx")


def route_classes(parsed: ParsedFile) -> list[RouteClass]:
    """The module-level classes of a JS/TS file with route fields, as written (cheap: most files
    have no class field named path)."""
    source = parsed.source
    if parsed.tree is None or b"class" not in source or (b"path =" not in source and b"path=" not in source):
        return []
    out: list[RouteClass] = []
    reader: list[Any] = []  # the file's bindings and constants, read once, when a value needs them
    for statement in parsed.tree.root_node.named_children:
        exported = statement.type == "export_statement"
        node = next((c for c in statement.named_children if c.type == "class_declaration"), None) \
            if exported else statement
        if node is None or node.type != "class_declaration":
            continue  # (an abstract class is never served)
        found = _route_class(parsed, node, exported, reader)
        if found is not None:
            out.append(found)
    return out


def _route_class(parsed: ParsedFile, node: Any, exported: bool, reader: list[Any]) -> RouteClass | None:
    name = node.child_by_field_name("name")
    body = node.child_by_field_name("body")
    if name is None or body is None:
        return None
    fields: dict[str, list[FieldValue]] = {}
    for member in body.named_children:
        if member.type not in ("public_field_definition", "field_definition") or \
                any(c.type == "static" for c in member.children):
            continue
        key = member.child_by_field_name("name") or member.child_by_field_name("property")
        value = member.child_by_field_name("value")
        if key is not None and value is not None and parsed.text(key) in _FIELDS:
            values = _values(parsed, value, reader)
            if values:
                fields[parsed.text(key)] = values
    if not fields:
        return None
    names, base = [parsed.text(name)], None
    heritage = next((c for c in node.named_children if c.type == "class_heritage"), None)
    clause = heritage.named_children[0] if heritage is not None and heritage.named_children else None
    parent = clause.child_by_field_name("value") or clause.named_children[0] \
        if clause is not None and clause.type == "extends_clause" else clause
    if parent is not None and parent.type == "identifier":
        local = parsed.text(parent)
        spec, there = _reader(parsed, reader).import_of(local)
        base = (spec, there) if spec else (None, local)
        names.append(local)
    if not any(_ROUTISH.search(n) for n in names):
        return None
    return RouteClass(names[0], node.start_point[0] + 1, node.end_point[0] + 1, exported, base, names, fields)


def _reader(parsed: ParsedFile, reader: list[Any]) -> Any:
    if not reader:
        reader.append(_Js(parsed))
    return reader[0]


def _values(parsed: ParsedFile, node: Any, reader: list[Any]) -> list[FieldValue]:
    """A field's strings: literals, this file's constants (`Methods.get`, an enum member), or
    references to another module's; none when any item is something else."""
    node = _unwrap_js(node)
    out: list[FieldValue] = []
    for item in node.named_children if node.type == "array" else [node]:
        item = _unwrap_js(item)
        text = js_string(parsed, item)
        if text is None:
            owner = item.child_by_field_name("object")
            if item.type == "member_expression" and owner.type == "identifier":
                name, member = parsed.text(owner), parsed.text(item.child_by_field_name("property"))
            elif item.type == "subscript_expression" and owner.type == "identifier" and \
                    js_string(parsed, item.child_by_field_name("index")) is not None:  # WebsocketRoutes['/']
                name, member = parsed.text(owner), js_string(parsed, item.child_by_field_name("index"))
            elif item.type == "identifier":
                name, member = parsed.text(item), None
            else:
                return []
            js = _reader(parsed, reader)
            text = js.strings.get(f"{name}.{member}" if member else name)
            if text is None:
                spec, there = js.import_of(name)
                if spec is None:
                    return []
                out.append((spec, there, member))
                continue
        out.append(text)
    return out


def resolve_route_classes(facts: dict[str, FileFacts], read: Callable[[str], bytes]) -> None:
    """Add the routes of every exported route class in `facts` whose path and method are read."""
    classes = {(path, rc.name): rc for path, f in facts.items() for rc in f.route_classes}
    if not classes:
        return
    constants = _Constants(facts, read)  # other modules' constants, read when a value names them
    for path, f in facts.items():
        added: list[Surface] = []
        for rc in f.route_classes:
            if "path" not in rc.fields or not (rc.exported or rc.name in (f.module.default_export, *(f.module.names or ()))):
                continue
            chain = _chain(facts, classes, path, rc)
            paths = constants.values(path, rc.fields["path"])
            methods, socket = None, False
            for where, link in chain:
                if "method" in link.fields or "methods" in link.fields:
                    methods = constants.values(where, link.fields.get("method") or link.fields["methods"])
                    break
            else:
                socket = any(_SOCKET.search(n) for _, link in chain for n in link.names)
                methods = ["GET"] if socket else None
            verbs = [m.upper() for m in methods or ()]
            if not paths or not verbs or any(v not in _VERBS for v in verbs):
                continue
            for verb in verbs:
                for written in paths:
                    served = _served(written)
                    if not served.startswith("/"):
                        continue
                    detail = {"method": verb, "path": served, "module_route": True, "route_class": rc.name}
                    if served != written:
                        detail["template"] = written
                    if socket:
                        detail["websocket"] = True
                    added.append(Surface("http-route", _route_name(verb, served), rc.line, rc.end_line,
                                         "route-class", handler=rc.name, detail=detail))
        if added:
            f.surfaces = sorted(f.surfaces + added, key=lambda s: (s.line, s.name))


def _chain(facts: dict[str, FileFacts], classes: dict[tuple[str, str], RouteClass], path: str,
           rc: RouteClass) -> list[tuple[str, RouteClass]]:
    """The class and the route classes it extends, nearest first, each with its file."""
    out = [(path, rc)]
    while rc.base is not None and len(out) <= _HOPS:
        spec, name = rc.base
        there = path if spec is None else js_module_file(facts, path, spec)
        if there is None:
            break
        if name == "default":
            name = facts[there].module.default_export or ""
        if (there, name) not in classes or any(p == there and c.name == name for p, c in out):
            break
        path, rc = there, classes[there, name]
        out.append((path, rc))
    return out


class _Constants:
    """Other modules' constants, each module read and parsed once, and the modules that define a
    name found once (a package's route classes name the same enums over and over)."""

    def __init__(self, facts: dict[str, FileFacts], read: Callable[[str], bytes]) -> None:
        self.facts, self.read = facts, read
        self.by_module: dict[str, dict[str, str]] = {}
        self.definers: dict[str, list[str]] = {}

    def values(self, importer: str, values: list[FieldValue]) -> list[str]:
        """The strings a field's values are, or [] when one cannot be read."""
        out = []
        for value in values:
            if isinstance(value, tuple):
                value = self.constant(importer, *value)
                if value is None:
                    return []
            out.append(value)
        return out

    def constant(self, importer: str, spec: str, name: str, member: str | None) -> str | None:
        """What another module's constant (`HTTPRoutes.pdf`, an enum's member) holds: in the module
        the import names; for a package name or an alias (`import { HTTPRoutes } from
        '@browserless.io/browserless'`), in the one module of the tree that defines it."""
        key = f"{name}.{member}" if member else name
        there = js_module_file(self.facts, importer, spec)
        if there is not None and key in self.strings(there):
            return self.strings(there)[key]
        if name not in self.definers:
            marks = (f"enum {name} ".encode(), f"const {name} ".encode(), f"const {name}=".encode())
            self.definers[name] = [p for p, f in self.facts.items()
                                   if f.language in JS and any(mark in self.read(p) for mark in marks)]
        found = {self.strings(p).get(key) for p in self.definers[name]} - {None}
        return found.pop() if len(found) == 1 else None

    def strings(self, path: str) -> dict[str, str]:
        if path not in self.by_module:
            from . import parsing

            data = self.read(path)
            language = self.facts[path].language
            try:
                self.by_module[path] = _Js(ParsedFile(path, language, data, parsing.parse(language, data))).strings
            except parsing.ParseTimeout:
                self.by_module[path] = {}  # (its strings are not known)
        return self.by_module[path]


def _served(path: str) -> str:
    """The path a picomatch pattern serves: `/pdf?(/)` is /pdf, `/kill/+([0-9a-z])` has a parameter."""
    if "(" not in path:
        return path
    path = re.sub(r"\?\(/\)$", "", path)
    return _EXTGLOB.sub("{param}", path) or "/"
