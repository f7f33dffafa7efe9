"""HTTP routes of an object tree a package's router walks by `@child()` methods (GNU Mailman's
REST API over Falcon):

    class TopLevel:
        @child()
        def addresses(self, context, segments):
            if len(segments) == 0:
                return AllAddresses()
            email = segments.pop(0)
            return AnAddress(email), segments

A resource's `on_get`/`on_post`/... responders answer at its path; each `@child()` method is the
segment its name spells (`@child('3.0')`: that literal; `@child(r'^(?P<email>[^/]+)')`: the
regex's path, `{email}`) and hands the rest of the path to the resource it returns: a segment it
pops is a parameter (`{email}`, or the literal a branch compares it to), one it compares without
popping (`segments[0] == 'styles'`) is that literal when the return consumes it (`return Styles(),
[]`). Roots are the classes with `@child` methods no other one returns that the package hands to
a call (`RootedAPI(Root())`). A matcher that is a function, a resource made elsewhere: not followed. Read in assembly,
since a resource's class is often another module's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from . import parsing
from .facts import FileFacts, ParsedFile, Surface
from .surfaces import _regex_paths, py_string

_RESPONDER = re.compile(r"on_(get|post|put|patch|delete|head|options)")
_DEPTH = 10  # resources below a root, at most
_MAX_BYTES = 1 << 20


class _Class:
    def __init__(self, path: str, pf: ParsedFile, node: Any) -> None:
        self.path, self.pf, self.node = path, pf, node
        self.name = pf.text(node.child_by_field_name("name"))
        bases = node.child_by_field_name("superclasses")
        self.bases = [pf.text(b).rpartition(".")[2] for b in bases.named_children] if bases is not None else []
        self.responders: dict[str, int] = {}  # HTTP method -> line
        self.children: list[tuple[str, Any]] = []  # (segment, the method's definition)
        body = node.child_by_field_name("body")
        for stmt in body.named_children if body is not None else ():
            fn = stmt.child_by_field_name("definition") if stmt.type == "decorated_definition" else stmt
            if fn is None or fn.type != "function_definition":
                continue
            name = pf.text(fn.child_by_field_name("name"))
            if _RESPONDER.fullmatch(name):
                self.responders[name[3:].upper()] = fn.start_point[0] + 1
            segment = _child_segment(pf, stmt, name) if stmt.type == "decorated_definition" else None
            if segment is not None:
                self.children.append((segment, fn))


def _child_segment(pf: ParsedFile, decorated: Any, name: str) -> str | None:
    """The segment a `@child()` decorator matches: the method's name, a literal, or a regex's path."""
    for dec in decorated.children:
        expr = dec.named_children[0] if dec.type == "decorator" and dec.named_children else None
        if expr is None or expr.type != "call" or pf.text(expr.child_by_field_name("function")) != "child":
            continue
        args = [a for a in expr.child_by_field_name("arguments").named_children if a.type != "comment"]
        if not args:
            return name
        value = py_string(pf, args[0]) if len(args) == 1 else None
        if value is None:
            return None  # a matcher function: not followed
        if value.startswith("^"):
            paths = _regex_paths(value)
            return paths[0].strip("/") if len(paths) == 1 and paths[0].strip("/") else None
        return value if value and "/" not in value else None
    return None


def add_child_routes(facts: dict[str, FileFacts], read: Callable[[str], bytes]) -> None:
    """Add the routes of the resource trees `@child()` methods make."""
    if not any(f.language == "python" and any(_RESPONDER.fullmatch(s.name.rpartition(".")[2]) for s in f.symbols)
               for f in facts.values()):
        return  # (no resource answers anything: no file is read again)
    python = {path: read(path) for path, f in facts.items() if f.language == "python"}
    if not any(b"@child(" in data for data in python.values()):
        return  # (no tree of child methods: nothing to walk)
    classes: dict[str, list[_Class]] = {}
    for path, data in python.items():
        if (b"@child(" not in data and b"def on_" not in data) or len(data) > _MAX_BYTES:
            continue
        try:
            pf = ParsedFile(path, "python", data, parsing.parse("python", data))
        except Exception:  # noqa: BLE001 - analysed once already; failing here adds nothing
            continue
        for stmt in pf.tree.root_node.named_children:
            node = stmt.child_by_field_name("definition") if stmt.type == "decorated_definition" else stmt
            if node is not None and node.type == "class_definition":
                found = _Class(path, pf, node)
                classes.setdefault(found.name, []).append(found)
    if not any(c.children for same in classes.values() for c in same):
        return
    unique = {name: same[0] for name, same in classes.items() if len(same) == 1}
    returned = {name for c in unique.values() for _, fn in c.children for name, _ in _returns(c.pf, fn)}
    candidates = [c for c in unique.values() if c.children and c.name not in returned]
    if not candidates:
        return
    # (the tree's root is handed to the router that walks it: `RootedAPI(Root())`, in any module)
    handed = re.compile(rb"\(\s*(" + b"|".join(re.escape(c.name.encode()) for c in candidates) + rb")\(\s*\)")
    given = {m[1].decode() for data in python.values() for m in handed.finditer(data)}
    for root in candidates:
        if root.name in given:
            _walk(root, "", unique, facts, (), 0)


def _responders(cls: _Class, unique: dict[str, _Class], seen: tuple[str, ...] = ()) -> dict[str, tuple[_Class, int]]:
    """HTTP method -> (the class that answers it, line): its own, else a base's of the package."""
    out: dict[str, tuple[_Class, int]] = {}
    for base in cls.bases:
        if base in unique and base not in seen:
            out.update(_responders(unique[base], unique, (*seen, cls.name)))
    out.update({verb: (cls, line) for verb, line in cls.responders.items()})
    return out


def _walk(cls: _Class, prefix: str, unique: dict[str, _Class], facts: dict[str, FileFacts],
          above: tuple[str, ...], depth: int) -> None:
    if depth > _DEPTH or cls.name in above:
        return
    above = (*above, cls.name)
    for verb, (owner, line) in sorted(_responders(cls, unique).items()):
        route = prefix or "/"
        facts[owner.path].surfaces.append(Surface(
            kind="http-route", name=f"{verb} {route}", line=line, end_line=line, framework="object-dispatch",
            handler=f"{owner.name}.on_{verb.lower()}",
            detail={"method": verb, "path": route, "resource": cls.name, "dispatch": "@child"}))
    for segment, fn in cls.children:
        for name, rest in _returns(cls.pf, fn):
            target = unique.get(name)
            if target is not None and (target.children or _responders(target, unique)):
                _walk(target, f"{prefix}/{segment}{rest}", unique, facts, above, depth + 1)


def _returns(pf: ParsedFile, fn: Any) -> list[tuple[str, str]]:
    """(the class a return makes, the path after the child's segment) of each return of a child
    method: `{email}` after `email = segments.pop(0)`, `/find` in `if segment == 'find':`, `/styles`
    for `segments[0] == 'styles'` when the return hands on no segments (`return Styles(), []`)."""
    out = []
    for ret in parsing.descendants(fn.child_by_field_name("body"), "return_statement"):
        if _inner_function(ret, fn) or not ret.named_children:
            continue
        value = ret.named_children[0]
        parts = [c for c in value.named_children if c.type != "comment"] if value.type in (
            "expression_list", "tuple") else [value]
        consumed = len(parts) > 1 and parts[1].type == "list" and not parts[1].named_children
        for made, anchor in _made(pf, parts[0], ret, fn):
            out.append((made, _path_before(pf, anchor, fn, consumed)))
    return out


def _inner_function(node: Any, fn: Any) -> bool:
    parent = node.parent
    while parent is not None and parent != fn:
        if parent.type in ("function_definition", "lambda", "class_definition"):
            return True
        parent = parent.parent
    return False


def _made(pf: ParsedFile, node: Any, at: Any, fn: Any) -> list[tuple[str, Any]]:
    """(the class `X(...)` makes, where its path is read) of a return's value: the return, or each
    assignment before it of the name it returns (`resource = FindUsers()` in `if segment ==
    'find':`, `resource = AUser(segment)` in the `else`)."""
    made = [(node, at)]
    if node.type == "identifier":
        made = [(a.child_by_field_name("right"), a) for a in parsing.descendants(fn, "assignment")
                if pf.text(a.child_by_field_name("left")) == pf.text(node) and a.start_byte < at.start_byte]
    out = []
    for value, anchor in made:
        function = value.child_by_field_name("function") if value is not None and value.type == "call" else None
        name = pf.text(function).rpartition(".")[2] if function is not None and function.type in (
            "identifier", "attribute") else ""
        if name[:1].isupper():
            out.append((name, anchor))
    return out


def _path_before(pf: ParsedFile, ret: Any, fn: Any, consumed: bool) -> str:
    """The segments a child method took before `ret`: the names it popped, as parameters or as the
    literal an enclosing branch compares them to, and a compared `segments[0]` it consumed."""
    popped: list[str] = []
    node = ret
    while node is not None and node != fn:
        parent = node.parent
        if parent is not None and parent.type == "block":
            level = []
            for stmt in parent.named_children:
                if stmt.start_byte >= node.start_byte:
                    break
                inner = stmt.named_children[0] if stmt.type == "expression_statement" and stmt.named_children else stmt
                if inner.type == "assignment" and "".join(pf.text(inner.child_by_field_name("right")).split()) \
                        == "segments.pop(0)":
                    level.append(pf.text(inner.child_by_field_name("left")))
            popped = level + popped  # (an outer block's pops come first)
        node = parent
    literals: dict[str, str] = {}
    compared = ""
    node = ret
    while node is not None and node != fn:
        parent = node.parent
        if parent is not None and parent.type in ("if_statement", "elif_clause") and \
                parent.child_by_field_name("consequence") == node:
            for test in parsing.descendants(parent.child_by_field_name("condition"), "comparison_operator"):
                left, right = (test.named_children + [None, None])[:2]
                value = py_string(pf, right) if right is not None else None
                operators = [pf.text(c) for c in test.children if not c.is_named]
                if value is None or operators != ["=="] or "/" in value:
                    continue
                written = pf.text(left).replace(" ", "")
                if written == "segments[0]":
                    compared = value
                else:
                    literals.setdefault(written, value)
        node = parent
    path = "".join(f"/{literals.get(name, '{' + name + '}')}" for name in popped)
    return path + (f"/{compared}" if compared and consumed else "")
