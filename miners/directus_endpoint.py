"""A Directus endpoint extension's routes: the package.json's `"directus:extension": {"type":
"endpoint"}` names a module whose default export registers routes on the router Directus hands
it, served under `/<id>` (the `id` of `{ id, handler }`) or, without one, the extension's name,

    export default defineEndpoint((router, { services }) => { router.get("/table/:table", ...) })
    export default { id: "greet", handler: (router) => { router.post("/", ...) } }
    var Tc = async (e, { database }) => { e.get("/table/:table", ...) }; export { Tc as default }

whatever the handler calls its first parameter (a bundle's minifier renames it). Each JS file
records such routes; assembly keeps them only in a package that declares an endpoint extension.
"""

from __future__ import annotations

from typing import Any

from .facts import FileFacts, ParsedFile, Surface
from .mounts import under
from .parsing import descendants

_VERBS = ("get", "post", "put", "patch", "delete")


def directus_endpoint_routes(parsed: ParsedFile) -> list[Surface]:
    """The routes a JS module's default export registers on its first parameter (cheap without a
    default export)."""
    if parsed.tree is None or b"default" not in parsed.source:
        return []
    found = _default_export(parsed)
    if found is None:
        return []
    handler, endpoint_id = found
    from .surfaces import _route_name, _surface, js_args, js_parameter_names, js_string

    params = js_parameter_names(parsed, handler)
    if not params or not params[0].isidentifier():
        return []
    router = params[0]
    out: list[Surface] = []
    for call in descendants(handler, "call_expression"):
        function = call.child_by_field_name("function")
        if function is None or function.type != "member_expression":
            continue
        obj, prop = function.child_by_field_name("object"), parsed.text(function.child_by_field_name("property"))
        if obj is None or obj.type != "identifier" or parsed.text(obj) != router or prop not in _VERBS:
            continue
        args = js_args(call.child_by_field_name("arguments"))
        path = js_string(parsed, args[0]) if len(args) >= 2 else None
        if path is not None and path.startswith("/") and " " not in path:
            out.append(_surface("http-route", _route_name(prop, path), call, "directus",
                                detail={"method": prop.upper(), "path": path, "directus_endpoint": endpoint_id}))
    return out


def _default_export(parsed: ParsedFile) -> tuple[Any, str] | None:
    """(the handler function, the endpoint's id or "") of the module's default export."""
    root = parsed.tree.root_node
    value = None
    for statement in root.named_children:
        if statement.type != "export_statement":
            continue
        if any(child.type == "default" for child in statement.children):
            value = statement.child_by_field_name("value") or statement.child_by_field_name("declaration")
        for clause in (c for c in statement.named_children if c.type == "export_clause"):
            for spec in clause.named_children:  # `export { Tc as default }`
                alias = spec.child_by_field_name("alias")
                if alias is not None and parsed.text(alias) == "default":
                    value = _top_level(parsed, root, parsed.text(spec.child_by_field_name("name")))
    return _handler(parsed, root, value, 3)


def _handler(parsed: ParsedFile, root: Any, node: Any, depth: int) -> tuple[Any, str] | None:
    from .surfaces import _unwrap_js, js_args, js_key, js_object_fields, js_string

    node = _unwrap_js(node) if node is not None else None
    if node is None or depth == 0:
        return None
    if node.type in ("arrow_function", "function_expression", "function", "function_declaration"):
        return node, ""
    if node.type == "identifier":
        return _handler(parsed, root, _top_level(parsed, root, parsed.text(node)), depth - 1)
    if node.type == "call_expression" and parsed.text(node.child_by_field_name("function")).endswith(
            "defineEndpoint"):
        args = js_args(node.child_by_field_name("arguments"))
        return _handler(parsed, root, args[0], depth - 1) if len(args) == 1 else None
    if node.type == "object":
        fields = js_object_fields(parsed, node, lambda key: js_key(parsed, key))
        found = _handler(parsed, root, fields.get("handler"), depth - 1) if "handler" in fields else None
        endpoint_id = js_string(parsed, fields["id"]) if "id" in fields else None
        return (found[0], endpoint_id or "") if found is not None else None
    return None


def _top_level(parsed: ParsedFile, root: Any, name: str) -> Any:
    """What a module-level `var/const/let name = ...` or `function name() {}` binds."""
    for statement in root.named_children:
        if statement.type == "function_declaration" and parsed.text(statement.child_by_field_name("name")) == name:
            return statement
        if statement.type in ("lexical_declaration", "variable_declaration"):
            for declarator in statement.named_children:
                if declarator.type == "variable_declarator" and \
                        parsed.text(declarator.child_by_field_name("name")) == name:
                    return declarator.child_by_field_name("value")
    return None


def apply_directus_endpoints(facts: dict[str, FileFacts], package: dict[str, Any]) -> None:
    """Serve a Directus endpoint extension's routes under its id or name; drop them elsewhere (in
    any other package a default export's calls on its parameter are no routes)."""
    declared = package.get("directus_endpoint") and package.get("npm_name")
    for f in facts.values():
        marked = [s for s in f.surfaces if "directus_endpoint" in s.detail]
        if not marked:
            continue
        if not declared:
            f.surfaces = [s for s in f.surfaces if "directus_endpoint" not in s.detail]
            continue
        lines = {(s.line, s.name) for s in marked}
        out = []
        for surface in f.surfaces:
            if "directus_endpoint" not in surface.detail:
                if surface.kind != "http-route" or (surface.line, surface.name) not in lines:
                    out.append(surface)  # (a route another reader took from the same call: this one serves it)
                continue
            base = "/" + (surface.detail["directus_endpoint"] or package["npm_name"])
            served = under(surface, base)
            served.detail["framework_mount"] = True
            out.append(served)
        f.surfaces = out
