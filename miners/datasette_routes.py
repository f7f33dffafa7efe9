"""HTTP routes of a Datasette plugin: its `register_routes` hook returns (regex, view) pairs, each a
route Datasette serves under the instance's root,

    @hookimpl
    def register_routes():
        return [(r"^/-/tiles/(?P<db_name>[^/]+)$", explorer), (r"/-/tiles-stack$", stack)]

the regex read as the paths it matches (`{db_name}` for a named group, surfaces._regex_paths).
The view decides the methods it answers (`if request.method != "POST"`), so a route serves
any, as far as this reading goes. A list the hook builds before it returns it (`routes = [...];
routes.append((r"^/-/x$", x))`) counts too. datasette-plugin-router's decorators, `@router.GET(
r"/-/api/cron/tasks$")` on the Router whose `routes()` the hook returns, name their method.
"""

from __future__ import annotations

import re
from typing import Any

from .facts import ParsedFile, Surface
from .parsing import descendants, python_definitions
from .surfaces import _regex_paths, _route_name, _surface, py_string

_VERB_DECORATOR = re.compile(rb"^[ \t]*@[A-Za-z_]\w*\.(?:GET|POST|PUT|PATCH|DELETE)\(", re.MULTILINE)
_VERBS = ("GET", "POST", "PUT", "PATCH", "DELETE")


def datasette_routes(parsed: ParsedFile) -> list[Surface]:
    """The routes a Python file's `register_routes` hook returns, or its datasette-plugin-router
    decorators give (cheap without those names)."""
    if parsed.tree is None:
        return []
    out = _decorated(parsed) if _VERB_DECORATOR.search(parsed.source) is not None else []
    if b"register_routes" not in parsed.source or b"datasette" not in parsed.source:
        return out
    for hook in python_definitions(parsed.tree.root_node, "function_definition"):
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


def _decorated(parsed: ParsedFile) -> list[Surface]:
    """`@router.GET(r"/-/api/cron/tasks/(?P<task_name>[^/]+)$")` on a function: datasette-plugin-router's
    route, its regex's paths, for the method the decorator names."""
    out: list[Surface] = []
    for definition in python_definitions(parsed.tree.root_node, "decorated_definition"):
        for decorator in definition.named_children:
            call = decorator.named_children[0] if decorator.type == "decorator" and decorator.named_children else None
            function = call.child_by_field_name("function") if call is not None and call.type == "call" else None
            if function is None or function.type != "attribute":
                continue
            verb = parsed.text(function.child_by_field_name("attribute"))
            args = call.child_by_field_name("arguments")
            first = args.named_children[0] if verb in _VERBS and args is not None and args.named_children else None
            pattern = py_string(parsed, first) if first is not None and first.type == "string" else None
            handler = definition.child_by_field_name("definition")
            for path in _regex_paths(pattern.removeprefix("^")) if pattern and pattern.lstrip("^").startswith("/") \
                    else ():
                if " " not in path:
                    out.append(_surface("http-route", _route_name(verb, path), decorator, "datasette",
                                        handler=parsed.text(handler.child_by_field_name("name"))
                                        if handler is not None else None,
                                        detail={"method": verb, "path": path, "route": pattern}))
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
