"""A Backstage backend plugin's base path: the routers a plugin hands to its `httpRouter` service
(`http.use(router)` in `createBackendPlugin({ pluginId: 'todo', register(env) { ... } })`, or in a
module of another plugin, `createBackendModule({ pluginId: 'permission', moduleId: 'rbac' })`) are
served under `/api/<pluginId>`, the base Backstage's HttpRouterService gives each plugin. The
plugin is declared in one file and its routers are built in others, so each file records the
plugin it declares, and assembly serves the package's Express routes under its base. Two plugin
ids in one package leave the routes as written: which plugin serves which is not known here.
"""

from __future__ import annotations

import re
from typing import Any

from .facts import FileFacts, ParsedFile
from .mounts import under

_DECLARES = re.compile(rb"\bcreateBackend(?:Plugin|Module)\s*\(")
_HTTP_ROUTER = b"httpRouter"  # coreServices.httpRouter among the plugin's deps: it serves HTTP


def plugin_id(parsed: ParsedFile) -> tuple[str, int] | None:
    """(id, line) of the Backstage backend plugin a file declares with an HTTP router, else None."""
    if parsed.tree is None or b"createBackend" not in parsed.source or _HTTP_ROUTER not in parsed.source:
        return None
    from .surfaces import _unwrap_js, js_args, js_key, js_object_fields, js_string

    ids: dict[str, int] = {}
    for m in _DECLARES.finditer(parsed.source):
        node = parsed.tree.root_node.descendant_for_byte_range(m.start(), m.start() + 1)
        while node is not None and node.type != "call_expression":
            node = node.parent
        args = js_args(node.child_by_field_name("arguments")) if node is not None else []
        options = _unwrap_js(args[0]) if len(args) == 1 else None
        if options is None or options.type != "object":
            continue
        given = js_object_fields(parsed, options, lambda key: js_key(parsed, key)).get("pluginId")
        value = js_string(parsed, given) if given is not None else None
        if value and re.fullmatch(r"[\w.-]+", value):
            ids.setdefault(value, node.start_point[0] + 1)
    return next(iter(ids.items())) if len(ids) == 1 else None


def apply_plugin_base(facts: dict[str, FileFacts]) -> None:
    """Serve a Backstage backend plugin package's Express routes under `/api/<pluginId>`."""
    declared = {path: f.backstage_plugin for path, f in facts.items() if f.backstage_plugin is not None}
    if len({plugin for plugin, _ in declared.values()}) != 1:
        return
    where, (plugin, line) = next(iter(declared.items()))
    base = "/api/" + plugin
    step = {"detail": f"Backstage serves backend plugin '{plugin}' under {base}", "path": where, "line": line}
    for f in facts.values():
        out: list[Any] = []
        for surface in f.surfaces:
            path = surface.name.partition(" ")[2]
            if surface.kind != "http-route" or surface.framework != "express" or \
                    path == base or path.startswith(base + "/"):
                out.append(surface)
                continue
            served = under(surface, base)
            served.detail["via"] = [step, *served.detail.get("via", ())]
            out.append(served)
        f.surfaces = out
