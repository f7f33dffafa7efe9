"""HTTP routes of navigator-api's model views (an aiohttp framework). `RewardHandler.configure(app,
"/rewards/api/v1/rewards")`, on a class deriving from `navigator.views.ModelView` (or `FormModel`),
adds two aiohttp class views (navigator/views/abstract.py's AbstractModel.configure):

    {path}/{id}     and     {path}{meta}   (the path itself, or with a `:meta` suffix)

each answering what the base answers: ModelView GET, POST, PUT, PATCH, DELETE and HEAD; FormModel
GET and HEAD. A path the class sets itself (`path = "/x"`) wins over the call's. A class whose
base is not one of those, or that cannot be found through the calling module's imports, gives no
route: nothing is guessed. Read in assembly, since the classes live in other modules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import parsing
from .facts import FileFacts, ParsedFile, Surface
from .python_imports import load_module
from .python_modules import absolute, module_files
from .surfaces import py_args, py_string

_MAX_BYTES = 1 << 20
_BASES = {"ModelView": ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"), "FormModel": ("GET", "HEAD")}


def add_navigator_routes(facts: dict[str, FileFacts], read: Callable[[str], bytes]) -> None:
    """Add the routes each `X.configure(app, "/path")` of a navigator model view makes."""
    if not any("navigator" in f.reread for f in facts.values()):
        return  # (no module imports navigator's views: no file is read again)
    sources = {path: read(path) for path, f in facts.items() if f.reread & {"navigator", "configure"}}
    parsed: dict[str, tuple[ParsedFile, dict[str, str]] | None] = {}
    modules = module_files(facts)
    for path, data in sources.items():
        if b".configure(" not in data or len(data) > _MAX_BYTES:
            continue
        loaded = load_module(path, sources.__getitem__, parsed)
        if loaded is None:
            continue
        pf, names = loaded
        for call in parsing.descendants(pf.tree.root_node, "call"):
            function = call.child_by_field_name("function")
            if function is None or function.type != "attribute" or \
                    pf.text(function.child_by_field_name("attribute")) != "configure":
                continue
            holder = function.child_by_field_name("object")
            positional, keywords = py_args(call.child_by_field_name("arguments"))
            given = positional[1] if len(positional) > 1 else keywords.get("path")
            if holder is None or holder.type != "identifier" or given is None:
                continue
            found = _model_view(pf.text(holder), path, names, modules, sources, parsed)
            if found is None:
                continue
            verbs, own_path, where, line = found
            served = own_path or py_string(pf, given)
            if not served or not served.startswith("/"):
                continue
            for route in (served.rstrip("/") + "/{id}", served):
                for verb in verbs:
                    facts[path].surfaces.append(Surface(
                        kind="http-route", name=f"{verb} {route}", line=call.start_point[0] + 1,
                        end_line=call.end_point[0] + 1, framework="aiohttp", handler=pf.text(holder),
                        detail={"method": verb, "path": route, "view_class": pf.text(holder),
                                "handler_path": where, "handler_line": line}))


def _model_view(name: str, here: str, names: dict[str, str], modules: dict[str, str], sources: dict[str, bytes],
                parsed: dict[str, Any]) -> tuple[tuple[str, ...], str | None, str, int] | None:
    """(the verbs its navigator base answers, the path the class sets, its file, its line) of the class
    `name` is in `here`: defined there, or imported from a module of the package (one hop)."""
    where, defined = here, name
    if name in names:
        module, _, defined = absolute(names[name], here).rpartition(".")
        where = modules.get(module)
        if where is None:
            return None
    loaded = load_module(where, sources.__getitem__, parsed) if where in sources else None
    if loaded is None:
        return None
    pf, there = loaded
    for stmt in pf.tree.root_node.named_children:
        cls = stmt.child_by_field_name("definition") if stmt.type == "decorated_definition" else stmt
        if cls is None or cls.type != "class_definition" or pf.text(cls.child_by_field_name("name")) != defined:
            continue
        supers = cls.child_by_field_name("superclasses")
        for base in supers.named_children if supers is not None else ():
            written = pf.text(base)
            full = there.get(written.partition(".")[0], "")
            full = f"{full}{written[len(written.partition('.')[0]):]}" if full else written
            last = full.rpartition(".")[2]
            if last in _BASES and full.startswith("navigator.views"):
                return _BASES[last], _own_path(pf, cls), where, cls.start_point[0] + 1
        return None
    return None


def _own_path(pf: ParsedFile, cls: Any) -> str | None:
    """The class body's `path = "/x"` (or `path: str = "/x"`), which configure() takes first."""
    body = cls.child_by_field_name("body")
    for stmt in body.named_children if body is not None else ():
        node = stmt.named_child(0) if stmt.type == "expression_statement" and stmt.named_child_count else stmt
        if node.type == "assignment" and pf.text(node.child_by_field_name("left")) == "path":
            value = py_string(pf, node.child_by_field_name("right"))
            return value if value and value.startswith("/") else None
    return None
