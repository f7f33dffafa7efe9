"""Routes whose handler only hands out a file: a stylesheet, an image, the favicon
(`return static_file(file, root=css)`, `(req, res) => res.sendFile(path.join(__dirname, "index.html"))`).
They are served, but they are the package's assets, not operations an agent calls: such a route
is reported as internal, with the reason, unless the documentation names it
(miners/documented_routes.py)."""

from __future__ import annotations

from typing import Any

from .facts import ParsedFile

ASSET = "serves a file as it is (an asset), not an operation"
_PY_SENDERS = {"static_file", "send_from_directory", "send_file", "send_static_file", "FileResponse"}
_JS_SENDERS = {"sendFile", "sendfile", "download"}  # Express's res.sendFile, @fastify/static's reply.sendFile
_JS_FUNCTIONS = ("arrow_function", "function_expression", "function")


def py_serves_file(pf: ParsedFile, function: Any) -> bool:
    """Whether a Python handler's body is one `return` of a file-sending call (after its docstring)."""
    body = function.child_by_field_name("body") if function is not None and \
        function.type == "function_definition" else None
    statements = [s for s in body.named_children if s.type != "comment"] if body is not None else []
    if statements and (statements[0].type == "string" or statements[0].type == "expression_statement" and
                       statements[0].named_children and statements[0].named_children[0].type == "string"):
        statements = statements[1:]  # the docstring
    if len(statements) != 1 or statements[0].type != "return_statement" or not statements[0].named_children:
        return False
    value = statements[0].named_children[0]
    value = value.named_children[0] if value.type == "await" and value.named_children else value
    callee = value.child_by_field_name("function") if value.type == "call" else None
    return callee is not None and pf.text(callee).rsplit(".", 1)[-1] in _PY_SENDERS


def js_serves_file(pf: ParsedFile, handler: Any) -> bool:
    """Whether a JS handler function does nothing but send a file (`res.sendFile(...)`)."""
    from .surfaces import _unwrap_js

    handler = _unwrap_js(handler)
    if handler is None or handler.type not in _JS_FUNCTIONS:
        return False
    body = handler.child_by_field_name("body")
    if body is not None and body.type == "statement_block":
        statements = [s for s in body.named_children if s.type != "comment"]
        if len(statements) != 1 or statements[0].type not in ("expression_statement", "return_statement"):
            return False
        body = statements[0].named_children[0] if statements[0].named_children else None
    body = _unwrap_js(body)
    if body is not None and body.type == "await_expression" and body.named_children:
        body = _unwrap_js(body.named_children[0])
    function = body.child_by_field_name("function") if body is not None and body.type == "call_expression" else None
    return function is not None and function.type == "member_expression" and \
        pf.text(function.child_by_field_name("property")) in _JS_SENDERS
