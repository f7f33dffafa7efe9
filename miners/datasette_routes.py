"""HTTP routes of a Datasette plugin: its `register_routes` hook returns (regex, view) pairs, each a
route Datasette serves under the instance's root,

    @hookimpl
    def register_routes():
        return [(r"^/-/tiles/(?P<db_name>[^/]+)$", explorer), (r"/-/tiles-stack$", stack)]

the regex read as the paths it matches (`{db_name}` for a named group, surfaces._regex_paths).
The view decides the methods it answers (`if request.method != "POST"`), so a route serves
any, as far as this reading goes. A list the hook builds before it returns it (`routes = [...];
routes.append((r"^/-/x$", x))`) counts too.
"""

from __future__ import annotations

from typing import Any

from .facts import ParsedFile, Surface
from .parsing import descendants
from .surfaces import _regex_paths, _route_name, _surface, py_string


def datasette_routes(parsed: ParsedFile) -> list[Surface]:
    """The routes a Python file's `register_routes` hook returns (cheap without that name)."""
    if parsed.tree is None or b"register_routes" not in parsed.source or b"datasette" not in parsed.source:
        return []
    out: list[Surface] = []
    for hook in descendants(parsed.tree.root_node, "function_definition"):
        if parsed.text(hook.child_by_field_name("name")) != "register_routes":
            continue
        for pair in _pairs(parsed, hook):
            pattern = py_string(parsed, pair.named_children[0])
            view = pair.named_children[1]
            for path in _regex_paths(pattern.removeprefix("^")) if pattern else ():
                if path.startswith("/") and " " not in path:
                    out.append(_surface("http-route", _route_name("ANY", path), pair, "datasette",
                                        handler=parsed.text(view) if view.type in ("identifier", "attribute")
                                        else None, detail={"method": "ANY", "path": path, "route": pattern}))
    return out


def _pairs(parsed: ParsedFile, hook: Any) -> list[Any]:
    """The (pattern, view) tuples of the lists the hook returns or adds to."""
    body = hook.child_by_field_name("body")
    lists = []
    for node in descendants(body, "return_statement"):
        value = node.named_children[0] if node.named_children else None
        if value is not None and value.type == "list":
            lists.append(value)
        elif value is not None and value.type == "identifier":  # `routes = [...]` ... `return routes`
            name = parsed.text(value)
            for assignment in descendants(body, "assignment"):
                right = assignment.child_by_field_name("right")
                if parsed.text(assignment.child_by_field_name("left")) == name and right is not None \
                        and right.type == "list":
                    lists.append(right)
            for call in descendants(body, "call"):  # `routes.append((r"^/-/x$", x))`
                function = call.child_by_field_name("function")
                args = call.child_by_field_name("arguments")
                if function is not None and parsed.text(function) == f"{name}.append" and args is not None:
                    lists.append(args)
    return [item for holder in lists for item in holder.named_children
            if item.type == "tuple" and len(item.named_children) >= 2 and item.named_children[0].type == "string"]
