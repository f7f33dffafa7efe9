"""Routes of flask-restful / flask-restx Resource classes (and flask-smorest's MethodViews): a
class registered for a path (`api.add_resource(Watch, "/watch/<id>")`, `@ns.route("/todos")`)
answers each HTTP method it has a method for (`get`, `post`...). surfaces.py leaves a placeholder
route ("* /path", detail["resource"]) per path; the class is often defined in another module, so
the routes are worked out here, in assembly, where every file's facts are known: through the
registering file's import, then the packages' re-exports (`from .Watch import Watch` in an
`__init__`). A class that cannot be found this way gives no route: nothing is guessed; methods
inherited from a base class are not followed. Tornado's handlers and aiohttp's views are such
classes too; a Tornado WebSocket handler (`on_message`, no verb method) answers the GET that
opens the socket.
"""

from __future__ import annotations

from typing import Any

from .facts import FileFacts, Surface, Symbol
from .python_modules import absolute, module_files

VERBS = ("get", "post", "put", "patch", "delete", "head", "options")
_HOPS = 4  # re-exports followed at most (a package re-exporting a package's re-export...)


def resolve_resource_routes(facts: dict[str, FileFacts]) -> None:
    """Replace every placeholder route in `facts` by one route per method of its class."""
    modules: dict[str, str] | None = None
    for path, f in facts.items():
        if not any("resource" in s.detail for s in f.surfaces):
            continue
        if modules is None:
            modules = module_files(facts)
        routes: list[Surface] = []
        for surface in f.surfaces:
            if "resource" not in surface.detail:
                routes.append(surface)
                continue
            target = surface.detail["resource_import"]
            socket = surface.framework == "tornado"
            found = _find_class(facts, path, surface.detail["resource"], socket) if target is None else \
                _find(facts, modules, absolute(target, path), socket)
            if found is not None:
                routes += _routes(surface, path, *found)
        f.surfaces = sorted(routes, key=lambda s: (s.line, s.name))


def _routes(placeholder: Surface, path: str, owner: str, cls: Symbol, methods: list[Symbol]) -> list[Surface]:
    out = []
    for method in methods:
        verb = method.name.rsplit(".", 1)[1].upper()
        verb = "GET" if verb == "ON_MESSAGE" else verb  # a WebSocket: the GET that opens it
        detail = {"method": verb, "path": placeholder.detail["path"], "resource": cls.name}
        if owner != path:
            detail["handler_path"] = owner  # the handler, and its effects, are in another file
            detail["handler_line"] = method.line
        out.append(Surface(kind="http-route", name=f"{verb} {placeholder.detail['path']}", line=placeholder.line,
                           end_line=placeholder.end_line, framework=placeholder.framework, handler=method.name,
                           description=method.doc or cls.doc, detail=detail))
    return out


def _find(facts: dict[str, FileFacts], modules: dict[str, str], dotted: str, socket: bool = False,
          hops: int = _HOPS) -> tuple[str, Symbol, list[Symbol]] | None:
    """The class `pkg.mod.Name` stands for: defined in pkg/mod.py (or pkg/mod/__init__.py), or
    re-exported there from where it is defined."""
    module, _, name = dotted.rpartition(".")
    path = modules.get(module)
    if path is None or not name:
        return None
    found = _find_class(facts, path, name, socket)
    if found is not None or hops == 0:
        return found
    for bound, source in facts[path].module.reexports:  # (name, the module it is imported from)
        if bound == name and source:
            return _find(facts, modules, absolute(f"{source}.{name}", path), socket, hops - 1)
    return None


def _find_class(facts: dict[str, FileFacts], path: str, name: str,
                socket: bool = False) -> tuple[str, Symbol, list[Symbol]] | None:
    """(file, class, its HTTP-method methods) when `path` defines class `name` with any. With
    `socket`, a class with `on_message` and no such method has that one as its GET."""
    symbols = facts[path].symbols
    cls = next((s for s in symbols if s.kind == "class" and s.name == name), None)
    if cls is None:
        return None
    own = [s for s in symbols if s.kind == "method" and s.container == name]
    methods = [s for s in own if s.name.rsplit(".", 1)[1] in VERBS]
    if not methods and socket:
        opens = [s for s in own if s.name.rsplit(".", 1)[1] == "on_message"]
        return (path, cls, opens) if opens else None
    return (path, cls, sorted(methods, key=lambda s: VERBS.index(s.name.rsplit(".", 1)[1]))) if methods else None


def handler_facts(facts: dict[str, FileFacts], surface: Surface, here: FileFacts) -> tuple[FileFacts, Any]:
    """The file holding a surface's handler (its own, unless a resolved resource route says
    otherwise) and the handler's symbol there, or None."""
    owner = facts.get(surface.detail.get("handler_path", ""), here)
    symbol = next((s for s in owner.symbols if s.name == surface.handler), None) if surface.handler else None
    return owner, symbol
