"""Routes of Django's class-based views and of Django REST framework routers.

`path("me/", UserView.as_view())` (or Flask's `add_url_rule(path, view_func=UserAPI.as_view("u"))`,
a MethodView) serves the HTTP methods its class has: those it defines
(`get`, `post`...), and those DRF's generic views and Django's generic views give it (read from
tables: RetrieveUpdateAPIView is GET, PUT, PATCH; FormView GET, POST), through the package's own
base classes; a class that cannot be found, or shows no method, leaves the route as registered (Django: `ANY`).

`router.register("users", UserViewSet)` serves the
actions the viewset has, each at the path and HTTP method the router gives it (DRF's SimpleRouter
table): list `GET /users/`, create `POST /users/`, retrieve, update, partial_update and destroy
at `/users/{pk}/` (GET, PUT, PATCH, DELETE), and each `@action` at `/users/{url_path}/` or, with
`detail=True`, `/users/{pk}/{url_path}/`. A viewset has an action when it defines the method or
inherits it: from DRF's own classes (ModelViewSet, ReadOnlyModelViewSet, the mixins), read from
a table, or from a class of the package, followed through its module. surfaces.py leaves a
placeholder per registration and records each DRF module's classes (facts.ViewSet); here, in
assembly, the placeholders become routes. A viewset that cannot be found gives none: nothing is
guessed.
"""

from __future__ import annotations

from typing import Any

from .facts import FileFacts, Surface, ViewSet
from .python_modules import absolute, find_through_reexports, module_files

# the actions DRF's own classes give a viewset (rest_framework.viewsets and .mixins)
_MODEL_ACTIONS = ("list", "create", "retrieve", "update", "partial_update", "destroy")
_BULK_ACTIONS = ("bulk_update", "bulk_partial_update", "bulk_destroy")
DRF_ACTIONS = {
    "ModelViewSet": _MODEL_ACTIONS, "ReadOnlyModelViewSet": ("list", "retrieve"),
    # NetBox's own (netbox.api.viewsets) and Nautobot's, ModelViewSets their plugins' API viewsets extend,
    # with the bulk operations their routers (NetBoxRouter, OrderedDefaultRouter) add to the list route
    "NetBoxModelViewSet": _MODEL_ACTIONS + _BULK_ACTIONS, "NetBoxReadOnlyModelViewSet": ("list", "retrieve"),
    "NautobotModelViewSet": _MODEL_ACTIONS + _BULK_ACTIONS,
    "ListModelMixin": ("list",), "CreateModelMixin": ("create",), "RetrieveModelMixin": ("retrieve",),
    "UpdateModelMixin": ("update", "partial_update"), "DestroyModelMixin": ("destroy",),
    # the generic views, in a viewset (`class Keys(ListAPIView, CreateAPIView, GenericViewSet)`), are their mixins
    "ListAPIView": ("list",), "CreateAPIView": ("create",), "RetrieveAPIView": ("retrieve",),
    "DestroyAPIView": ("destroy",), "UpdateAPIView": ("update", "partial_update"),
    "ListCreateAPIView": ("list", "create"), "RetrieveUpdateAPIView": ("retrieve", "update", "partial_update"),
    "RetrieveDestroyAPIView": ("retrieve", "destroy"),
    "RetrieveUpdateDestroyAPIView": ("retrieve", "update", "partial_update", "destroy"),
}
# the @actions a framework's own viewsets give every subclass: Nautobot's NotesViewSetMixin (in its
# NautobotModelViewSet) answers `{pk}/notes/`
BASE_EXTRA_ACTIONS: dict[str, tuple[dict[str, Any], ...]] = {
    "NautobotModelViewSet": ({"method": "notes", "detail": True, "methods": ["GET", "POST"], "url_path": "notes"},),
}
# action -> (on the detail route, HTTP method): SimpleRouter's routes
ACTION_ROUTES = {"list": (False, "GET"), "create": (False, "POST"), "retrieve": (True, "GET"),
                 "update": (True, "PUT"), "partial_update": (True, "PATCH"), "destroy": (True, "DELETE"),
                 # (NetBox's and Nautobot's, only where their viewsets give them: DRF's router has none)
                 "bulk_update": (False, "PUT"), "bulk_partial_update": (False, "PATCH"),
                 "bulk_destroy": (False, "DELETE")}
_DEPTH = 6  # package base classes followed at most
VERBS = ("get", "post", "put", "patch", "delete", "head", "options")
# the HTTP methods DRF's generic views (rest_framework.generics) and Django's generic views answer
VIEW_METHODS = {
    "CreateAPIView": ("post",), "ListAPIView": ("get",), "RetrieveAPIView": ("get",), "DestroyAPIView": ("delete",),
    "UpdateAPIView": ("put", "patch"), "ListCreateAPIView": ("get", "post"),
    "RetrieveUpdateAPIView": ("get", "put", "patch"), "RetrieveDestroyAPIView": ("get", "delete"),
    "RetrieveUpdateDestroyAPIView": ("get", "put", "patch", "delete"),
    "TemplateView": ("get",), "ListView": ("get",), "DetailView": ("get",), "FormView": ("get", "post"),
    "CreateView": ("get", "post"), "UpdateView": ("get", "post"), "DeleteView": ("get", "post"),
}


def resolve_viewset_routes(facts: dict[str, FileFacts]) -> None:
    """Replace every viewset placeholder in `facts` by the routes of the viewset's actions, and
    every class-based view's `ANY` route by one per HTTP method its class answers."""
    modules: dict[str, str] | None = None
    for path, f in facts.items():
        if not any("viewset" in s.detail or "view_class" in s.detail for s in f.surfaces):
            continue
        if modules is None:
            modules = module_files(facts)
        routes: list[Surface] = []
        for surface in f.surfaces:
            if "viewset" in surface.detail:
                found = _locate(facts, modules, path, surface.detail["resource"], surface.detail["resource_import"])
                if found is not None:
                    routes += _routes(facts, modules, surface, path, *found)
            elif "view_class" in surface.detail:
                found = _locate(facts, modules, path, surface.detail["view_class"], surface.detail["view_import"])
                routes += _view_routes(facts, modules, surface, path, *found) if found is not None else [surface]
            else:
                routes.append(surface)
        f.surfaces = sorted(routes, key=lambda s: (s.line, s.name))


def _lineage(facts: dict[str, FileFacts], modules: dict[str, str], path: str, record: ViewSet,
             depth: int = 0) -> list[tuple[str, ViewSet, list[str]]]:
    """The class and its package bases, most basic first (so what a subclass defines wins): each
    (file, record, the last names of its bases outside the package)."""
    out: list[tuple[str, ViewSet, list[str]]] = []
    external = []
    for written, imported in reversed(record.bases):  # the first base wins, as Python's MRO mostly has it
        base = _locate(facts, modules, path, written, imported) if depth < _DEPTH else None
        if base is not None and base[1] is not record:
            out += _lineage(facts, modules, *base, depth + 1)
        else:
            external.append((imported or written).rsplit(".", 1)[-1])  # (`ModelViewSet as ModelViewSet_`)
    out.append((path, record, external))
    return out


def _own_methods(f: FileFacts, cls: str) -> dict[str, Any]:
    return {s.name.rsplit(".", 1)[1]: s for s in f.symbols if s.kind == "method" and s.container == cls}


def _view_routes(facts: dict[str, FileFacts], modules: dict[str, str], route: Surface, here: str, owner: str,
                 record: ViewSet) -> list[Surface]:
    methods: dict[str, tuple[str, str]] = {}  # verb -> (file, the class answering it)
    for path, rec, external in _lineage(facts, modules, owner, record):
        for base in external:
            methods.update({verb: (path, rec.name) for verb in VIEW_METHODS.get(base, ())})
        methods.update({verb: (path, rec.name) for verb in _own_methods(facts[path], rec.name) if verb in VERBS})
    if not methods:
        return [route]  # nothing shows which methods it answers: every one, as Django routes it
    cls = next((s for s in facts[owner].symbols if s.kind == "class" and s.name == record.name), None)
    out = []
    for verb in (v for v in VERBS if v in methods):
        where, defining = methods[verb]
        symbol = _own_methods(facts[where], defining).get(verb)
        path = route.detail["path"]
        detail = {**route.detail, "method": verb.upper()}
        if where != here:
            detail["handler_path"], detail["handler_line"] = where, symbol.line if symbol else record.line
        out.append(Surface(kind="http-route", name=f"{verb.upper()} {path}", line=route.line,
                           end_line=route.end_line, framework=route.framework, handler=f"{defining}.{verb}",
                           description=(symbol.doc if symbol else "") or (cls.doc if cls else "") or route.description,
                           detail=detail))
    return out


def _locate(facts: dict[str, FileFacts], modules: dict[str, str], here: str, name: str,
            imported: str | None) -> tuple[str, ViewSet] | None:
    """(file, record) of the class `name` (as written in `here`, `imported` as its import makes it)."""
    def lookup(path: str, cls: str) -> tuple[str, ViewSet] | None:
        record = next((v for v in facts[path].viewsets if v.name == cls), None)
        return (path, record) if record is not None else None

    if imported is None:
        found = lookup(here, name) if "." not in name else None
        for source in facts[here].module.export_all_from if found is None and "." not in name else ():
            # netbox-lifecycle's `from .views import *` before `router.register('license', LicenseViewSet)`
            found = find_through_reexports(facts, modules, absolute(f"{source}.{name}", here), lookup)
            if found is not None:
                break
        return found
    return find_through_reexports(facts, modules, absolute(imported, here), lookup)


def _actions(facts: dict[str, FileFacts], modules: dict[str, str], path: str,
             record: ViewSet) -> tuple[dict[str, tuple[str, str]], list[dict[str, Any]], str | None]:
    """({action: (file, the class defining it)}, its @actions, its lookup), its bases' included."""
    actions: dict[str, tuple[str, str]] = {}
    extra: dict[str, dict[str, Any]] = {}
    lookup = None
    for where, rec, external in _lineage(facts, modules, path, record):
        for base in external:
            actions.update({a: (where, rec.name) for a in DRF_ACTIONS.get(base, ())})
            extra.update({a["method"]: {**a, "path": where, "class": rec.name, "line": rec.line}
                          for a in BASE_EXTRA_ACTIONS.get(base, ())})
        actions.update({a: (where, rec.name) for a in _own_methods(facts[where], rec.name)
                        if a in ACTION_ROUTES and a not in _BULK_ACTIONS})
        extra.update({a["method"]: {**a, "path": where, "class": rec.name} for a in rec.actions})
        lookup = rec.lookup or lookup
    return actions, list(extra.values()), lookup


def _routes(facts: dict[str, FileFacts], modules: dict[str, str], placeholder: Surface, here: str,
            owner: str, record: ViewSet) -> list[Surface]:
    actions, extra, lookup = _actions(facts, modules, owner, record)
    base = placeholder.detail["path"].rstrip("/")
    slash = "/" if placeholder.detail.get("slash", True) else ""
    detail_path = f"{base}/{{{lookup or 'pk'}}}"
    own_class = next((s for s in facts[owner].symbols if s.kind == "class" and s.name == record.name), None)
    out = []

    def route(verb: str, path: str, where: str, cls: str, method: str, line: int) -> None:
        symbol = next((s for s in facts[where].symbols if s.name == f"{cls}.{method}"), None)
        detail = {"method": verb, "path": path, "resource": record.name, "action": method}
        if "receiver" in placeholder.detail:
            detail["receiver"] = placeholder.detail["receiver"]
        if where != here:
            detail["handler_path"], detail["handler_line"] = where, symbol.line if symbol else line
        out.append(Surface(kind="http-route", name=f"{verb} {path}", line=placeholder.line,
                           end_line=placeholder.end_line, framework=placeholder.framework,
                           handler=f"{cls}.{method}", description=(symbol.doc if symbol else "") or
                           (own_class.doc if own_class else ""), detail=detail))

    for action, (on_detail, verb) in ACTION_ROUTES.items():
        if action in actions:
            where, cls = actions[action]
            route(verb, (detail_path if on_detail else base) + slash, where, cls, action, record.line)
    for action in extra:
        path = f"{detail_path if action['detail'] else base}/{action['url_path']}{slash}"
        for verb in action["methods"]:
            route(verb, path, action["path"], action["class"], action["method"], action["line"])
    return out
