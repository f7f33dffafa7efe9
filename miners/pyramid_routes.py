"""Routes of Pyramid applications: a route is named where it is added (`config.add_route("user",
"/users/{id}")`) and served by the views registered for that name (`@view_config(route_name="user",
request_method="GET")`, `config.add_view(view, route_name="user")`, a class's `@view_defaults`),
often in another module. surfaces.py leaves both as placeholders; here, in assembly, each route
becomes one route per request method its views (or the route itself) name, every method (`ANY`)
when none does, with the view as its handler. A view whose route is added nowhere in the tree gives
nothing: nothing is guessed.
"""

from __future__ import annotations

from .facts import FileFacts, Surface


def resolve_pyramid_routes(facts: dict[str, FileFacts]) -> None:
    routes: dict[str, list[tuple[str, Surface]]] = {}
    views: dict[str, list[tuple[str, Surface]]] = {}
    for path, f in facts.items():
        if f.language != "python" or not any("pyramid_route" in s.detail or "pyramid_view" in s.detail
                                              for s in f.surfaces):
            continue
        kept = []
        for s in f.surfaces:
            if "pyramid_route" in s.detail:
                routes.setdefault(s.detail["pyramid_route"], []).append((path, s))
            elif "pyramid_view" in s.detail:
                views.setdefault(s.detail["pyramid_view"], []).append((path, s))
            else:
                kept.append(s)
        f.surfaces = kept
    for name, registrations in routes.items():
        for path, route in registrations:
            made: dict[tuple[str, str | None], Surface] = {}
            for where, view in views.get(name) or [(path, None)]:
                methods = (view.detail["methods"] if view else []) or route.detail.get("methods") or ["ANY"]
                for method in methods:
                    detail = {"method": method, "path": route.detail["path"], "route_name": name,
                              **{k: route.detail[k] for k in ("prefix_unknown",) if k in route.detail}}
                    if view is not None and where != path:
                        detail["handler_path"], detail["handler_line"] = where, view.line  # the view, elsewhere
                    handler = view.handler if view is not None else None
                    made.setdefault((method, handler), Surface(
                        kind="http-route", name=f"{method} {route.detail['path']}", line=route.line,
                        end_line=route.end_line, framework="pyramid", handler=handler,
                        description=view.description if view is not None else "", detail=detail))
            facts[path].surfaces = sorted([*facts[path].surfaces, *made.values()], key=lambda s: (s.line, s.name))
