"""JSON Schema from Python type annotations, read as text and never imported: what an MCP server
built on FastMCP derives from a tool function's signature at run time (`def add(a: int, b: int =
0)` takes an object with integer `a`, required, and `b`). Only what the annotation says for
itself is kept: `int`, `str`, `list[str]`, `Optional[float]`, `Literal["a", "b"]`,
`Annotated[int, Field(description="...")]`; a class the package defines (a pydantic model) or
anything else is left open (`{}`), since its fields are not known here.
"""

from __future__ import annotations

import ast
import warnings
from typing import Any

_SCALARS = {"int": "integer", "float": "number", "str": "string", "bool": "boolean", "bytes": "string",
            "dict": "object", "Dict": "object", "Mapping": "object", "list": "array", "List": "array",
            "Sequence": "array", "tuple": "array", "Tuple": "array", "set": "array", "Set": "array"}


def annotation_schema(text: str | None) -> dict[str, Any]:
    """The JSON Schema an annotation's text stands for ({} when it says nothing knowable)."""
    if not text:
        return {}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            node = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    try:
        return _schema(node, 0)
    except RecursionError:
        return {}


def parameters_schema(parameters: list[dict[str, Any]]) -> dict[str, Any]:
    """An object schema of [{name, type, required}] (surfaces._Python.parameters)."""
    return {"type": "object", "properties": {p["name"]: annotation_schema(p["type"]) for p in parameters},
            "required": [p["name"] for p in parameters if p["required"]]}


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr  # typing.Optional, t.List
    return ""


def _schema(node: ast.expr, depth: int) -> dict[str, Any]:
    if depth > 8:
        return {}
    if isinstance(node, ast.Constant) and node.value is None:
        return {"type": "null"}
    if isinstance(node, ast.Constant) and isinstance(node.value, str):  # a forward reference: "int"
        return annotation_schema(node.value) if depth < 4 else {}
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):  # int | None
        return _union([node.left, node.right], depth)
    name = _name(node)
    if name in _SCALARS:
        return {"type": _SCALARS[name]}
    if name == "Any":
        return {}
    if not isinstance(node, ast.Subscript):
        return {}
    outer = _name(node.value)
    args = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
    if outer in ("Optional",):
        return _union([args[0], ast.Constant(None)], depth)
    if outer == "Union":
        return _union(args, depth)
    if outer == "Literal":
        values = [a.value for a in args if isinstance(a, ast.Constant)]
        return {"enum": values} if len(values) == len(args) else {}
    if outer == "Annotated" and args:
        inner = _schema(args[0], depth + 1)
        for meta in args[1:]:  # Field(description="..."), pydantic's or FastMCP's
            if isinstance(meta, ast.Call) and _name(meta.func) == "Field":
                for keyword in meta.keywords:
                    if keyword.arg in ("description", "title") and isinstance(keyword.value, ast.Constant) \
                            and isinstance(keyword.value.value, str):
                        inner = {**inner, keyword.arg: keyword.value.value}
        return inner
    kind = _SCALARS.get(outer)
    if kind == "array":
        items = _schema(args[0], depth + 1) if outer not in ("tuple", "Tuple") or len(args) == 2 and \
            isinstance(args[1], ast.Constant) and args[1].value is Ellipsis else {}
        return {"type": "array", **({"items": items} if items else {})}
    if kind == "object":
        values = _schema(args[1], depth + 1) if len(args) == 2 else {}
        return {"type": "object", **({"additionalProperties": values} if values else {})}
    return {}


def _union(members: list[ast.expr], depth: int) -> dict[str, Any]:
    schemas = [_schema(m, depth + 1) for m in members]
    if any(not s for s in schemas):
        return {}  # one member is open: so is the union
    if all(set(s) == {"type"} and isinstance(s["type"], str) for s in schemas):
        return {"type": list(dict.fromkeys(s["type"] for s in schemas))}
    return {"anyOf": schemas}
