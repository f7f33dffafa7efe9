"""Routes of flask-restful / flask-restx Resource classes (and flask-smorest's MethodViews): a
class registered for a path (`api.add_resource(Watch, "/watch/<id>")`, `@ns.route("/todos")`)
answers each HTTP method it has a method for (`get`, `post`...). surfaces.py leaves a placeholder
route ("* /path", detail["resource"]) per path; the class is often defined in another module, so
the routes are worked out here, in assembly, where every file's facts are known: through the
registering file's import, then the packages' re-exports (`from .Watch import Watch` in an
`__init__`). A class that cannot be found this way gives no route: nothing is guessed. A class
that has no method for any HTTP method answers with those of its nearest base that has, when the
base is a class of the same file (splash's `RenderHtmlResource(BaseRenderResource)`); a class's
own methods are what it answers (not a base's CORS `render_OPTIONS`), and bases elsewhere are
not followed. Tornado's handlers,
aiohttp's views and Falcon's resources (`on_get`) are such classes too (`Style`).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from .facts import FileFacts, Surface, Symbol
from .python_modules import absolute, find_through_reexports, module_files

VERBS = ("get", "post", "put", "patch", "delete", "head", "options")
# what a placeholder says that its routes keep
_CARRIED = ("table", "loaded_table", "receiver", "config_from", "within", "prefix_unknown")


@dataclass(frozen=True)
class Style:
    """How a framework's class names the HTTP methods it answers: `get` (flask-restful, Tornado,
    aiohttp), `on_get` (Falcon), `on_get_detail` (Falcon's `suffix="detail"`), `render_GET` (Twisted);
    `socket`: a Tornado WebSocket handler (`on_message`, no verb method) answers the GET that opens it."""

    prefix: str = ""
    suffix: str = ""
    socket: bool = False
    upper: bool = False  # Twisted's render_GET

    def verb(self, method: str) -> str | None:
        if not method.startswith(self.prefix) or not method.endswith(self.suffix):
            return None
        verb = method[len(self.prefix):len(method) - len(self.suffix)]
        if self.upper:
            verb = verb.lower() if verb.isupper() else ""
        return verb if verb in VERBS else None


def style_of(surface: Surface) -> Style:
    if surface.framework == "twisted":
        return Style("render_", upper=True)
    if surface.framework == "falcon":
        suffix = surface.detail.get("suffix")
        return Style("on_", f"_{suffix}" if suffix else "")
    return Style(socket=surface.framework == "tornado")


# `api.add_resource(resource[0], resource[1])`, `add_resource(*entry)`: a resource from a table
_LOOPED_ADD = re.compile(rb"\.add_resource\(\s*(?:\*\s*[A-Za-z_]|[A-Za-z_][\w.]*\s*\[)")


def adds_resources_in_loop(parsed: Any) -> bool:
    """Whether a Python file registers flask-restful resources it takes from a table."""
    return b"add_resource" in parsed.source and _LOOPED_ADD.search(parsed.source) is not None


def resolve_resource_routes(facts: dict[str, FileFacts], dependencies: Collection[str] = ()) -> None:
    """Replace every placeholder route in `facts` by one route per method of its class. A route
    table's entry (detail["table"]) stands for a Falcon resource: only in a package that depends on
    falcon (`dependencies`, its manifest's) or registers a Falcon route."""
    modules: dict[str, str] | None = None
    falcon: bool | None = None  # whether the package uses Falcon: a route table's resources are Falcon's
    looped: bool | None = None  # whether it registers flask-restful resources in a loop: a table's are those
    for path, f in facts.items():
        if not any("resource_import" in s.detail for s in f.surfaces):  # a placeholder's
            continue
        if modules is None:
            modules = module_files(facts)
        routes: list[Surface] = []
        for surface in f.surfaces:
            if "resource_import" not in surface.detail or "viewset" in surface.detail:  # (viewset_routes.py)
                routes.append(surface)
                continue
            if surface.detail.get("table") and surface.framework == "flask-restful":
                if looped is None:
                    looped = any(g.adds_resources_in_loop for g in facts.values())
                if not looped:
                    continue
            elif surface.detail.get("table"):
                if falcon is None:
                    falcon = "falcon" in dependencies or any(t.framework == "falcon" and not t.detail.get("table")
                                                             for g in facts.values() for t in g.surfaces)
                if not falcon:
                    continue
            target = surface.detail["resource_import"]
            style = style_of(surface)
            found = _find_class(facts, path, surface.detail["resource"], style) if target is None else \
                _find(facts, modules, absolute(target, path), style)
            if found is not None:
                routes += _routes(surface, path, *found)
        f.surfaces = sorted(routes, key=lambda s: (s.line, s.name))


def _routes(placeholder: Surface, path: str, owner: str, cls: Symbol,
            methods: list[tuple[str, Symbol]]) -> list[Surface]:
    out = []
    for verb, method in methods:
        detail = {"method": verb, "path": placeholder.detail["path"], "resource": cls.name}
        detail.update({key: placeholder.detail[key] for key in _CARRIED if key in placeholder.detail})
        if owner != path:
            detail["handler_path"] = owner  # the handler, and its effects, are in another file
            detail["handler_line"] = method.line
        out.append(Surface(kind="http-route", name=f"{verb} {placeholder.detail['path']}", line=placeholder.line,
                           end_line=placeholder.end_line, framework=placeholder.framework, handler=method.name,
                           description=method.doc or cls.doc, detail=detail))
    return out


Found = tuple[str, Symbol, list[tuple[str, Symbol]]]  # (file, class, [(HTTP method, its method)])


def _find(facts: dict[str, FileFacts], modules: dict[str, str], dotted: str, style: Style = Style()) -> Found | None:
    return find_through_reexports(facts, modules, dotted, lambda path, name: _find_class(facts, path, name, style))


def _find_class(facts: dict[str, FileFacts], path: str, name: str, style: Style = Style()) -> Found | None:
    """(file, class, its HTTP methods and the methods answering them) when `path` defines class
    `name` with any."""
    symbols = facts[path].symbols
    classes = {s.name: s for s in symbols if s.kind == "class"}
    cls = classes.get(name)
    if cls is None:
        return None
    own: list[Symbol] = []
    methods: list[tuple[str, Symbol]] = []
    # the class's own methods; a class with none answers with its nearest base's that has any
    for owner in _lineage(classes, cls):
        defined = [s for s in symbols if s.kind == "method" and s.container == owner.name]
        own = own if owner is not cls else defined
        methods = sorted(((verb.upper(), s) for s in defined if (verb := style.verb(s.name.rsplit(".", 1)[1]))),
                         key=lambda pair: VERBS.index(pair[0].lower()))
        if methods:
            break
    if not methods and style.socket:
        methods = [("GET", s) for s in own if s.name.rsplit(".", 1)[1] == "on_message"]
    return (path, cls, methods) if methods else None


def _lineage(classes: dict[str, Symbol], cls: Symbol) -> list[Symbol]:
    """The class, then the classes of the same file it extends, nearest first (splash's
    `RenderHtmlResource(BaseRenderResource)`, whose base answers render_GET and render_POST)."""
    out, queue = [cls], [cls]
    while queue and len(out) < 8:
        for base in _PY_BASES.findall(queue.pop(0).signature.partition("(")[2].rpartition(")")[0]):
            found = classes.get(base)
            if found is not None and found not in out:
                out.append(found)
                queue.append(found)
    return out


# a Python class's base as its head writes it: a plain name (one of this file's), not a keyword
_PY_BASES = re.compile(r"(?:^|,)\s*([A-Za-z_]\w*)\s*(?=,|$)")


def handler_facts(facts: dict[str, FileFacts], surface: Surface, here: FileFacts) -> tuple[FileFacts, Any]:
    """The file holding a surface's handler (its own, unless a resolved resource route says
    otherwise) and the handler's symbol there, or None."""
    owner = facts.get(surface.detail.get("handler_path", ""), here)
    symbol = next((s for s in owner.symbols if s.name == surface.handler), None) if surface.handler else None
    return owner, symbol
