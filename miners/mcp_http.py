"""The HTTP endpoint of an MCP server a Python web application serves beside its own routes:

    mcp_app = mcp.http_app(path="/mcp")        (fastmcp; its path defaults to /mcp)
    app.mount("/ai", mcp_app)                  ANY /ai/mcp
    app.mount("/", server.streamable_http_app())     ANY /mcp, or the file's
                                               FastMCP(streamable_http_path=...) (the mcp SDK), or
                                               the call's own (mcp 2's MCPServer)
    app = server.streamable_http_app(streamable_http_path="/mcp")   ANY /mcp, when the file
                                               adds routes or middleware to that app (served itself)
    FastApiMCP(app).mount_http()               ANY /mcp (fastapi-mcp; `mount_path=` else)

Clients POST JSON-RPC to that one path (and GET it for the event stream), so it is one route of
every method. The MCP tools behind it are candidates of their own (mcp-tool). A server whose
streamable path is set where this file cannot see it (another module's constructor) is not
guessed at.
"""

from __future__ import annotations

from typing import Any

from .facts import Surface
from .surfaces import DEFERRED, _join_paths, _route_name, _surface, py_args

MCP_ENDPOINT = "the endpoint of an MCP server (Streamable HTTP): JSON-RPC over POST, its event stream over GET"
_DEFAULT = "/mcp"
_MARKS = (b"http_app(", b"streamable_http_app(", b"FastApiMCP")


def mcp_http_routes(py: Any) -> list[Surface]:
    """The MCP endpoints a Python file (the surfaces extractor `py` over it) serves."""
    if not any(mark in py.pf.source for mark in _MARKS):
        return []  # (the calls' names are the servers' own: a file may mount one another module builds)
    out: list[Surface] = []
    for call, receiver, attr in py.call_info():
        if attr == "mount" and receiver is not None:
            positional, keywords = py_args(call.child_by_field_name("arguments"))
            made = positional[1] if len(positional) > 1 else keywords.get("app")
            if made is not None and made.type == "identifier":
                made = py.value_of(made, call)
            inner = _served_path(py, made, call) if made is not None and made.type == "call" else None
            prefix = py.path_of(positional[0] if positional else keywords.get("path"))
            if inner is not None and prefix is not None and prefix.startswith(("/", DEFERRED)):
                out.append(_route(call, _join_paths(prefix.rstrip("/"), inner), receiver))
        elif attr == "streamable_http_app" and (app := py.assigned_to(call)) is not None and any(
                r == app and a in ("add_route", "add_middleware") for _, r, a in py.call_info()) \
                and not _mounted(py, app):
            # llm-toolforge's `starlette_app = mcp.streamable_http_app(streamable_http_path="/mcp")`, then
            # `starlette_app.add_route("/healthz", ...)`: the app is served itself, the endpoint on it
            # (one mounted in another, `app.mount("/ai", mcp_app)`, is served there: the branch above)
            inner = _served_path(py, call, call)
            if inner is not None and inner.startswith("/"):
                out.append(_route(call, inner, app))
        elif attr in ("mount_http", "mount") and receiver is not None:
            made = py.value_of(call.child_by_field_name("function").child_by_field_name("object"), call)
            if made is None or made.type != "call" or py.callee_last(made) != "FastApiMCP":
                continue
            keywords = py_args(call.child_by_field_name("arguments"))[1]
            path = py.resolve(keywords["mount_path"]) if "mount_path" in keywords else _DEFAULT
            app = (py_args(made.child_by_field_name("arguments"))[0] or [None])[0]
            if path is not None and path.startswith("/"):
                out.append(_route(call, path, py.pf.text(app) if app is not None else None))
    return out


def _mounted(py: Any, app: str) -> bool:
    """Whether the file hands the application named `app` to a `mount()`."""
    for call, _, attr in py.call_info():
        if attr == "mount":
            positional, keywords = py_args(call.child_by_field_name("arguments"))
            if any(n.type == "identifier" and py.pf.text(n) == app for n in (*positional, *keywords.values())):
                return True
    return False


def _served_path(py: Any, made: Any, at: Any) -> str | None:
    """The path inside the application an MCP server's `http_app()` / `streamable_http_app()`
    call makes, or None when it is no such call or the path is not known here."""
    attr = py.callee_last(made)
    keywords = py_args(made.child_by_field_name("arguments"))[1]
    if attr == "http_app":  # fastmcp: the `path=` it is given, else its default
        return py.resolve(keywords["path"]) if "path" in keywords else _DEFAULT
    if attr != "streamable_http_app":
        return None
    if "streamable_http_path" in keywords:  # (mcp 2's MCPServer takes it in the call: oxe's `"/"`)
        return py.resolve(keywords["streamable_http_path"])
    # the mcp SDK: the server's streamable_http_path, given where this file makes the server
    function = made.child_by_field_name("function")
    server = py.value_of(function.child_by_field_name("object"), at) if function.type == "attribute" else None
    if server is None or server.type != "call" or py.callee_last(server) not in ("FastMCP", "MCPServer"):
        return None
    given = py_args(server.child_by_field_name("arguments"))[1].get("streamable_http_path")
    return py.resolve(given) if given is not None else _DEFAULT


def _route(call: Any, path: str, receiver: str | None) -> Surface:
    return _surface("http-route", _route_name("ANY", path), call, "mcp", description=MCP_ENDPOINT,
                    detail={"method": "ANY", "path": path, **({"receiver": receiver} if receiver else {})})
