"""HTTP routes of an application built on Werkzeug's own routing (pywb, and WSGI apps without a
framework on top): a `werkzeug.routing.Rule` is a route, wherever it is made,

    self.url_map = Map([Rule("/", endpoint="index"), Rule("/items/<int:id>", endpoint="item")])
    self.url_map.add(Rule("/api/record", endpoint=self.put_record, methods=["PUT"]))
    Submount("/api", [Rule("/status", endpoint=status)])            /api/status

served for the methods its `methods=` lists (every one without). A path that begins with a value
the code is handed at run time, `Rule(coll_prefix + "/timemap/<output>/<path:url>", ...)`, is
the rest of the path under a prefix nobody can read here (prefix_unknown, which the
documentation may place: miners/doc_mounts.py).
"""

from __future__ import annotations

from typing import Any

from .facts import Surface
from .surfaces import HTTP_VERBS, _route_name, _surface, py_args


def werkzeug_rules(py: Any) -> list[Surface]:
    """The routes of the Rules a Python file (the surfaces extractor `py` over it) makes, when
    it imports werkzeug's Rule."""
    if not any(name == "Rule" and target.startswith("werkzeug") for name, target in py.names.items()):
        return []
    out = []
    for call, _, _ in py.call_info():
        function = call.child_by_field_name("function")
        if function is None or py.names.get(py.pf.text(function), "").rsplit(".", 1)[-1] != "Rule":
            continue
        positional, keywords = py_args(call.child_by_field_name("arguments"))
        given = positional[0] if positional else keywords.get("string")
        path, unknown = _path(py, given, call)
        if path is None or not path.startswith("/") or " " in path:
            continue
        prefix = _submount(py, call)
        if prefix is None:
            continue
        path = prefix.rstrip("/") + path if prefix else path
        methods = _methods(py, keywords.get("methods"))
        if methods is None:
            continue  # methods it does not spell: not guessed
        endpoint = keywords.get("endpoint")
        handler = py.pf.text(endpoint) if endpoint is not None and endpoint.type in ("identifier", "attribute") \
            else None
        for method in methods:
            out.append(_surface("http-route", _route_name(method, path), call, "werkzeug", handler=handler,
                                detail={"method": method, "path": path,
                                        **({"prefix_unknown": unknown} if unknown else {})}))
    return out


def _path(py: Any, node: Any, call: Any) -> tuple[str | None, str | None]:
    """(the Rule's path, what its leading part is when nobody can read it here, else None)."""
    if node is None:
        return None, None
    path = py.path_of(node)
    if path is not None:
        return path, None
    operands = []  # `coll_prefix + self.RECORD_ROUTE + "/<path:url>"`, left to right
    while node.type == "binary_operator" and py.pf.text(node.child_by_field_name("operator")) == "+":
        operands.insert(0, node.child_by_field_name("right"))
        node = node.child_by_field_name("left")
    if not operands or node.type not in ("identifier", "attribute"):
        return None, None
    parts = [py.text_value(operand, call, 0) for operand in operands]
    if any(p is None for p in parts):
        return None, None
    return "".join(piece for p in parts for piece in p), py.pf.text(node)


def _submount(py: Any, call: Any) -> str | None:
    """The prefix of the `Submount("/api", [...])` whose list the Rule is in ("" outside one; None
    when that prefix is not a literal)."""
    prefix = ""
    node = call.parent
    while node is not None and node.type == "list":
        holder = node.parent.parent if node.parent is not None and node.parent.type == "argument_list" else None
        function = holder.child_by_field_name("function") if holder is not None else None
        if function is None or py.names.get(py.pf.text(function), "").rsplit(".", 1)[-1] != "Submount":
            break
        positional, _ = py_args(holder.child_by_field_name("arguments"))
        given = py.path_of(positional[0]) if positional else None
        if given is None or not given.startswith("/"):
            return None
        prefix = given.rstrip("/") + prefix
        node = holder.parent
    return prefix


def _methods(py: Any, node: Any) -> list[str] | None:
    """The methods a `methods=[...]` lists (["ANY"] without one), None when it is not literal."""
    if node is None:
        return ["ANY"]
    if node.type not in ("list", "tuple", "set"):
        return None
    values = [py.resolve(item) for item in node.named_children]
    if not values or any(v is None or v.lower() not in HTTP_VERBS for v in values):
        return None
    return list(dict.fromkeys(v.upper() for v in values))
