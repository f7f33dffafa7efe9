"""NestJS's global prefix: `app.setGlobalPrefix('api')` in the bootstrap file serves every
controller's routes under /api, but those listed in its `exclude` option (`{ exclude: ['health'] }`).
The bootstrap is one file and the controllers are others, so each file records the prefix it
sets, and assembly applies it to the package's NestJS routes. Two different prefixes in one
package (two apps) leave the routes as written: which app serves which is not known here.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .facts import FileFacts, ParsedFile
from .mounts import join

_MARK = b"setGlobalPrefix"


def global_prefix(parsed: ParsedFile) -> tuple[str, tuple[str, ...]] | None:
    """(the prefix, the paths excluded from it) a file's `setGlobalPrefix` call sets, or None."""
    if parsed.tree is None or _MARK not in parsed.source:
        return None
    from .surfaces import _unwrap_js, js_args, js_key, js_object_fields, js_string

    at = parsed.source.find(_MARK)
    node = parsed.tree.root_node.descendant_for_byte_range(at, at + len(_MARK))
    call = node.parent.parent if node is not None and node.parent is not None else None
    if call is None or call.type != "call_expression":
        return None
    args = js_args(call.child_by_field_name("arguments"))
    prefix = js_string(parsed, args[0]) if args else None
    if prefix is None:
        return None
    excluded: list[str] = []
    options = _unwrap_js(args[1]) if len(args) > 1 else None
    listed = js_object_fields(parsed, options, lambda key: js_key(parsed, key)).get("exclude") \
        if options is not None and options.type == "object" else None
    for item in listed.named_children if listed is not None and listed.type == "array" else ():
        item = _unwrap_js(item)
        path = js_string(parsed, item) if item.type != "object" else \
            js_string(parsed, js_object_fields(parsed, item, lambda key: js_key(parsed, key)).get("path"))
        if path is not None:
            excluded.append("/" + path.strip("/"))
    return "/" + prefix.strip("/"), tuple(excluded)


def apply_global_prefix(facts: dict[str, FileFacts]) -> None:
    """Serve the package's NestJS routes under the global prefix its bootstrap sets."""
    prefixes = {f.global_prefix for f in facts.values() if f.global_prefix is not None}
    if len(prefixes) != 1:
        return
    prefix, excluded = prefixes.pop()
    if prefix == "/":
        return
    for f in facts.values():
        if not any(s.framework == "nestjs" for s in f.surfaces):
            continue
        out: list[Any] = []
        for surface in f.surfaces:
            method, _, path = surface.name.partition(" ")
            if surface.framework != "nestjs" or "/" + path.strip("/") in excluded:
                out.append(surface)
                continue
            full = join(prefix, path)
            out.append(replace(surface, name=f"{method} {full}", detail={**surface.detail, "path": full,
                                                                           "mounted_at": prefix}))
        f.surfaces = out
