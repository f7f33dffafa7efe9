"""A Strapi plugin's routes: route objects its server code declares as data, `{ method: 'GET',
path: '/:relation', handler: 'client.findAll', config: { policies: [] } }` (the handler a
`controller.action` string), listed under `routes` of a `type: 'content-api'` or `type: 'admin'`
group (`{ 'content-api': { type: 'content-api', routes: [...] }, admin: { ... } }`, or a bare list:
admin). Strapi serves a plugin's content API under `/api/<plugin name>` and its admin routes under
`/<plugin name>`, the name its package.json's `strapi` section gives.

Each JS file records the route objects it holds (with the group each belongs to, when a typed
group takes the list, by name or spread) and the modules whose lists a typed group spreads
(`routes: [...menu, ...menuItem]` of `const menu = require('./menu')`, strapi-plugin-menus: the
routes' file then names no group), and assembly serves them under the plugin's name: a package
that is no Strapi plugin keeps none of them, for such objects are data until Strapi reads them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from .facts import FileFacts, ParsedFile, Surface
from .file_routes import VERBS
from .js_modules import js_module_file
from .mounts import under

_MARK = re.compile(rb"""\bmethod\s*:\s*['"`](?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)['"`]""")
_HANDLER = re.compile(r"(?:[\w$-]+::)?[\w$-]+(?:\.[\w$-]+)+")  # 'client.findAll', 'plugin::comments.client.findAll'
_GROUPS = ("content-api", "admin")
_GROUP_MARK = re.compile(rb"""\btype\s*:\s*['"`](?:content-api|admin)['"`]""")


def strapi_route_objects(parsed: ParsedFile) -> list[Surface]:
    """The Strapi route objects of a JS/TS file, their group in detail["strapi"] (cheap without a
    literal `method: 'GET'`)."""
    if parsed.tree is None or b"handler" not in parsed.source or _MARK.search(parsed.source) is None:
        return []
    from .surfaces import _route_name, _surface, _unwrap_js, js_key, js_object_fields, js_string

    def fields(node: Any) -> dict[str, Any]:
        return js_object_fields(parsed, node, lambda key: js_key(parsed, key))

    bound: dict[str, Any] = {}  # a name -> the array it is bound to (`const w_ = [...]`)
    arrays: list[Any] = []
    groups: list[tuple[str, Any]] = []  # (group, what its `routes` is)
    stack = [parsed.tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "variable_declarator":
            value = _unwrap_js(node.child_by_field_name("value"))
            name = node.child_by_field_name("name")
            if value is not None and value.type == "array" and name is not None and name.type == "identifier":
                bound[parsed.text(name)] = value
        elif node.type == "array":
            arrays.append(node)
        elif node.type == "object" and b"routes" in parsed.source[node.start_byte:node.end_byte]:
            given = fields(node)
            kind = js_string(parsed, given["type"]) if "type" in given else None
            if kind in _GROUPS and "routes" in given:
                groups.append((kind, _unwrap_js(given["routes"])))
        stack.extend(reversed(node.named_children))
    group_of: dict[int, str] = {}
    for kind, routes in groups:
        for array in _arrays_of(parsed, routes, bound, 0):
            group_of.setdefault(array.start_byte, kind)
    out: list[Surface] = []
    for array in arrays:
        for item in array.named_children:
            item = _unwrap_js(item)
            if item.type != "object":
                continue
            given = fields(item)
            method = js_string(parsed, given.get("method")) if "method" in given else None
            path = js_string(parsed, given.get("path")) if "path" in given else None
            handler = js_string(parsed, given.get("handler")) if "handler" in given else None
            if method in VERBS and path is not None and path.startswith("/") and handler and \
                    _HANDLER.fullmatch(handler):
                out.append(_surface("http-route", _route_name(method, path), item, "strapi", handler=handler,
                                    detail={"method": method, "path": path,
                                            "strapi": group_of.get(array.start_byte)}))
    return out


def strapi_route_groups(parsed: ParsedFile) -> list[tuple[str, str]]:
    """(group, module specifier) for each module a typed group's `routes` takes whole or spreads
    (`const menu = require('./menu')`, `import menu from './menu'`): that module's list is the
    group's (cheap without a literal `type: 'content-api'` or `type: 'admin'`)."""
    source = parsed.source
    if parsed.tree is None or not (b"content-api" in source or b"admin'" in source or b'admin"' in source
                                   or b"admin`" in source) or \
            _GROUP_MARK.search(source) is None:  # (the plain finds first: the regex tries every `\b`)
        return []
    from .surfaces import _unwrap_js, js_key, js_object_fields, js_string

    required: dict[str, str] = {}  # a local name -> the module it is bound to
    groups: list[tuple[str, Any]] = []
    stack = [parsed.tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "variable_declarator":
            name, value = node.child_by_field_name("name"), _unwrap_js(node.child_by_field_name("value"))
            if name is not None and name.type == "identifier" and value is not None and value.type == "call_expression":
                callee, args = value.child_by_field_name("function"), value.child_by_field_name("arguments")
                if callee is not None and parsed.text(callee) == "require" and args is not None and \
                        len(args.named_children) == 1 and (spec := js_string(parsed, args.named_children[0])):
                    required[parsed.text(name)] = spec
        elif node.type == "import_statement":
            source = node.child_by_field_name("source")
            clause = next((c for c in node.named_children if c.type == "import_clause"), None)
            default = next((c for c in clause.named_children if c.type == "identifier"), None) if clause else None
            if source is not None and default is not None and (spec := js_string(parsed, source)):
                required[parsed.text(default)] = spec
        elif node.type == "object" and b"routes" in parsed.source[node.start_byte:node.end_byte]:
            given = js_object_fields(parsed, node, lambda key: js_key(parsed, key))
            kind = js_string(parsed, given["type"]) if "type" in given else None
            if kind in _GROUPS and "routes" in given:
                groups.append((kind, _unwrap_js(given["routes"])))
        stack.extend(reversed(node.named_children))
    out = []
    for kind, routes in groups:
        names = [routes] if routes.type == "identifier" else \
            [item.named_children[0] for item in routes.named_children
             if item.type == "spread_element" and item.named_children] if routes.type == "array" else []
        out += [(kind, required[parsed.text(n)]) for n in names
                if n.type == "identifier" and parsed.text(n) in required]
    return out


def _arrays_of(parsed: ParsedFile, node: Any, bound: dict[str, Any], depth: int) -> list[Any]:
    """The route arrays a group's `routes` names: an array, a name bound to one, and the arrays
    its spread elements name (`[...adminRoutes, ...settingsRoutes]`)."""
    if node is None or depth > 4:
        return []
    if node.type == "identifier":
        return _arrays_of(parsed, bound.get(parsed.text(node)), bound, depth + 1)
    if node.type != "array":
        return []
    out = [node]
    for item in node.named_children:
        if item.type == "spread_element" and item.named_children:
            out += _arrays_of(parsed, item.named_children[0], bound, depth + 1)
    return out


def apply_strapi_routes(facts: dict[str, FileFacts], sizes: dict[str, int], read: Callable[[str], bytes]) -> None:
    """Serve a Strapi plugin's route objects under its name; drop them in any other package."""
    if not any(s.framework == "strapi" for f in facts.values() for s in f.surfaces):
        return
    name = _plugin_name(sizes, read)
    spread: dict[str, str] = {}  # a routes module -> the group a typed group elsewhere puts its list in
    for f in facts.values():
        for kind, specifier in f.strapi_groups:
            if (target := js_module_file(facts, f.path, specifier)) is not None:
                spread.setdefault(target, kind)
    for f in facts.values():
        out = []
        for surface in f.surfaces:
            if surface.framework != "strapi":
                out.append(surface)
                continue
            group = surface.detail["strapi"] or spread.get(f.path, "admin")  # a bare list: admin
            if name is not None:  # where Strapi serves them, whatever prefix the docs write them under
                served = under(surface, f"/api/{name}" if group == "content-api" else f"/{name}")
                out.append(replace(served, detail={**served.detail, "framework_mount": True}))
        f.surfaces = out


def _plugin_name(sizes: dict[str, int], read: Callable[[str], bytes]) -> str | None:
    """The plugin name the package's package.json gives (`"strapi": {"kind": "plugin", "name": "comments"}`)."""
    if sizes.get("package.json", 1 << 30) > 1024 * 1024:
        return None
    try:
        strapi = json.loads(read("package.json")).get("strapi")
    except (ValueError, UnicodeDecodeError, AttributeError):
        return None
    name = strapi.get("name") if isinstance(strapi, dict) and strapi.get("kind") == "plugin" else None
    return name if isinstance(name, str) and re.fullmatch(r"[\w.-]+", name) else None
