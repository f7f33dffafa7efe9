"""An OpenAPI document a package ships as a JS/TS module: signalk-server's `const autopilotApiDoc =
{ openapi: '3.0.0', info: {...}, servers: [{ url: '/signalk/v2/api/...' }], paths: {...} }`, one per
sub-API, beside the code that serves it. It is the package's own statement of its HTTP surface, as
a shipped openapi.json is, and is read by the same reader (miners/openapi.py).

A module's document often gets its servers at run time (`servers: [{ url: req.baseUrl }]` where it
is served): one that names none of its own is kept only when the code serves one of its operations
where it says (`unplaced_dropped`); otherwise where its paths are served is not known here.

Only what is literal is read: strings (and templates without substitutions), numbers, booleans,
null, objects and arrays of them. A value that is anything else (a schema another module builds,
a spread, a call) is left out, so an operation may come without its schemas, and the reader says
what it could not resolve; nothing of it is evaluated.
"""

from __future__ import annotations

import re
from typing import Any

from .facts import ParsedFile
from .surfaces import js_string

# the document's version key, as an object literal writes it: `openapi: '3.0.0'`, `"openapi": "3.1.0"`
_VERSION = re.compile(rb"""(?<![\w$.])['"]?openapi['"]?\s*:\s*['"`]3\.\d""")
_MAX_VALUES = 50_000  # a document's values read at most: a bound on a generated file
_SKIP = object()


def js_openapi_document(parsed: ParsedFile) -> tuple[dict[str, Any], dict[str, int]] | None:
    """(the document, the line of each of its values by JSON pointer) of the first object literal
    in the file whose `openapi` key is a 3.x version and that has `paths`, else None (cheap: a
    pattern first)."""
    match = _VERSION.search(parsed.source) if b"openapi" in parsed.source else None  # (the word first: cheap)
    if match is None:
        return None
    node = parsed.tree.root_node.descendant_for_byte_range(match.start(), match.start())
    while node is not None and node.type != "pair":
        node = node.parent
    document = node.parent if node is not None else None
    if document is None or document.type != "object":
        return None
    lines: dict[str, int] = {}
    left = [_MAX_VALUES]
    value = _value(parsed, document, "", lines, left, _constants(parsed))
    if not isinstance(value, dict) or not isinstance(value.get("paths"), dict) or left[0] <= 0:
        return None
    return value, lines


def _constants(parsed: ParsedFile) -> dict[str, str]:
    """The module's top-level `const NAME = 'literal'` strings (`servers: [{ url: GATEWAY_BASE }]`)."""
    out: dict[str, str] = {}
    for stmt in parsed.tree.root_node.named_children:
        if stmt.type == "export_statement":
            stmt = stmt.child_by_field_name("declaration") or stmt
        if stmt.type != "lexical_declaration" or not parsed.text(stmt).startswith("const"):
            continue
        for declarator in stmt.named_children:
            name = declarator.child_by_field_name("name") if declarator.type == "variable_declarator" else None
            text = js_string(parsed, declarator.child_by_field_name("value")) if name is not None else None
            if text is not None and name.type == "identifier":
                out[parsed.text(name)] = text
    return out


def _value(parsed: ParsedFile, node: Any, ptr: str, lines: dict[str, int], left: list[int],
           constants: dict[str, str]) -> Any:
    left[0] -= 1
    if left[0] <= 0:
        return _SKIP
    while node is not None and node.type in ("parenthesized_expression", "as_expression", "satisfies_expression"):
        node = node.named_children[0] if node.named_children else None  # `({...})`, `{...} as const`
    if node is None:
        return _SKIP
    kind = node.type
    if kind in ("string", "template_string", "identifier"):
        text = constants.get(parsed.text(node)) if kind == "identifier" else js_string(parsed, node)
        out: Any = _SKIP if text is None else text
    elif kind == "number":
        try:
            out = float(parsed.text(node)) if any(c in parsed.text(node) for c in ".eE") else int(parsed.text(node), 0)
        except ValueError:
            out = _SKIP
    elif kind in ("true", "false"):
        out = kind == "true"
    elif kind == "null":
        out = None
    elif kind == "object":
        out = {}
        for pair in node.named_children:
            if pair.type != "pair":
                continue  # a spread, a method, a shorthand name: not literal
            key_node = pair.child_by_field_name("key")
            key = js_string(parsed, key_node) if key_node.type == "string" else \
                parsed.text(key_node) if key_node.type in ("property_identifier", "number") else None
            if key is None:
                continue  # a computed key
            item = _value(parsed, pair.child_by_field_name("value"), f"{ptr}/{_escape(key)}", lines, left, constants)
            if item is not _SKIP:
                out[key] = item
    elif kind == "array":
        out, index = [], 0
        for element in node.named_children:
            if element.type == "comment":
                continue
            item = _value(parsed, element, f"{ptr}/{index}", lines, left, constants)
            if item is not _SKIP:
                out.append(item)
                index += 1
    else:
        return _SKIP
    lines[ptr] = node.start_point[0] + 1
    return out


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def unplaced_dropped(candidates: list[dict[str, Any]], scan: Any, unplaced: set[str]) -> list[dict[str, Any]]:
    """The candidates without the operations of module documents that name no servers of their own
    (`unplaced`: their paths) and none of whose operations the code serves as written; those
    files leave the report's declared files too."""
    if not unplaced:
        return candidates
    served = {c["source"]["path"] for c in candidates if c["kind"] == "declared-operation" and
              c["source"]["path"] in unplaced and any(e["kind"] == "route" for e in c["evidence"])}
    gone = unplaced - served
    if not gone:
        return candidates
    scan.files = [f for f in scan.files if f["path"] not in gone]
    return [c for c in candidates if c["kind"] != "declared-operation" or c["source"]["path"] not in gone]
