"""miners/mcp_http.py through `capindex mine`: the HTTP endpoint of an MCP server a Python web
application serves beside its own routes."""

from __future__ import annotations

from tests.conftest import mined_routes

TOOLS = ("from fastmcp import FastMCP\n\n\ndef build():\n    mcp = FastMCP('svc')\n\n"
         "    @mcp.tool()\n    def search(q: str) -> str:\n        return q\n\n    return mcp\n")


def test_a_fastmcp_app_mounted_in_a_fastapi_app_serves_its_path_under_the_mount(tmp_path, capsys):
    """ucpcore-server: `build_mcp(...).http_app(path="/mcp")` mounted at "/"; open-agent-search's
    at "/ai"; `http_app()` alone serves fastmcp's default /mcp. A mount of another application is
    no MCP endpoint."""
    app = ("from fastapi import FastAPI\nfrom svc.tools import build\n\napp = FastAPI(openapi_url=None)\n\n\n"
           "@app.get('/health')\ndef health():\n    return {}\n\n\n"
           "def serve():\n    mcp_app = build().http_app(path='/mcp', stateless_http=True)\n"
           "    app.mount('/', mcp_app)\n\n\n"
           "app.mount('/ai', build().http_app())\napp.mount('/sub', other_app)\n")
    routes = mined_routes(tmp_path, capsys, {"svc/__init__.py": "", "svc/tools.py": TOOLS, "svc/app.py": app})
    assert sorted(routes) == ["ANY /ai/mcp", "ANY /mcp", "GET /health"], sorted(routes)
    endpoint = routes["ANY /mcp"]
    assert endpoint["description"].startswith("the endpoint of an MCP server") and endpoint["executable"] is False
    assert endpoint["source"]["path"] == "svc/app.py" and endpoint["source"]["line"] == 14


def test_the_mcp_sdks_streamable_app_serves_the_path_its_server_is_given_here(tmp_path, capsys):
    """The mcp SDK's `server.streamable_http_app()`: its path is the server's
    `streamable_http_path` (default /mcp) when this file makes the server; a server made in
    another module (adapt-server sets `streamable_http_path="/"` there) is not guessed at."""
    app = ("from fastapi import FastAPI\nfrom mcp.server.fastmcp import FastMCP\nfrom svc.other import made\n\n"
           "app = FastAPI(openapi_url=None)\nserver = FastMCP('x', streamable_http_path='/rpc')\n"
           "plain = FastMCP('y')\n\n\n@app.get('/health')\ndef health():\n    return {}\n\n\n"
           "app.mount('/tools', server.streamable_http_app())\napp.mount('/', plain.streamable_http_app())\n"
           "app.mount('/mcp', made.streamable_http_app())\n"
           # mcp 2's MCPServer takes the path in the call (oxe): another module's server, this call's path
           "app.mount('/given', made.streamable_http_app(streamable_http_path='/'))\n")
    files = {"svc/__init__.py": "", "svc/other.py": "made = None\n", "svc/app.py": app}
    routes = mined_routes(tmp_path, capsys, files)
    assert sorted(routes) == ["ANY /given/", "ANY /mcp", "ANY /tools/rpc", "GET /health"], sorted(routes)


def test_a_streamable_app_served_itself_serves_its_path_at_the_root(tmp_path, capsys):
    """llm-toolforge: `starlette_app = mcp.streamable_http_app(streamable_http_path="/mcp")`, then
    `starlette_app.add_route("/healthz", ...)` and `return starlette_app`: the app is the server, the
    endpoint at /mcp. One the file neither mounts nor adds to is not placed."""
    app = ("from svc.other import made\n\n\ndef build():\n"
           "    starlette_app = made.streamable_http_app(streamable_http_path='/mcp', stateless_http=True)\n"
           "    starlette_app.add_route('/healthz', healthz, methods=['GET'])\n    return starlette_app\n\n\n"
           "def other():\n    loose = made.streamable_http_app(streamable_http_path='/loose')\n    return loose\n")
    files = {"svc/__init__.py": "", "svc/other.py": "made = None\n", "svc/app.py": app}
    assert "ANY /mcp" in mined_routes(tmp_path, capsys, files)
    assert not any("loose" in name for name in mined_routes(tmp_path / "again", capsys, files))


def test_a_streamable_app_with_middleware_mounted_in_another_is_served_only_under_the_mount(tmp_path, capsys):
    """`mcp_app = server.streamable_http_app()`, `mcp_app.add_middleware(...)`, then
    `app.mount("/ai", mcp_app)`: the endpoint is at /ai/mcp, not at the root as well."""
    app = ("from fastapi import FastAPI\nfrom mcp.server.fastmcp import FastMCP\n\n"
           "app = FastAPI(openapi_url=None)\nserver = FastMCP('x')\n"
           "mcp_app = server.streamable_http_app()\nmcp_app.add_middleware(CORSMiddleware, allow_origins=['*'])\n"
           "app.mount('/ai', mcp_app)\n")
    routes = mined_routes(tmp_path, capsys, {"svc/__init__.py": "", "svc/app.py": app})
    assert sorted(routes) == ["ANY /ai/mcp"], sorted(routes)


def test_fastapi_mcps_mount_serves_its_mount_path(tmp_path, capsys):
    """onionoo-fastapi: `FastApiMCP(app, ...).mount_http()` serves /mcp; `mount_path=` elsewhere."""
    app = ("from fastapi import FastAPI\nfrom fastapi_mcp import FastApiMCP\n\n\ndef create():\n"
           "    app = FastAPI(openapi_url=None)\n\n"
           "    @app.get('/v1/summary')\n    def summary():\n        return {}\n\n"
           "    mcp = FastApiMCP(app, name='x')\n    mcp.mount_http()\n"
           "    other = FastApiMCP(app)\n    other.mount_http(mount_path='/agent')\n    return app\n")
    routes = mined_routes(tmp_path, capsys, {"svc/__init__.py": "", "svc/main.py": app})
    assert sorted(routes) == ["ANY /agent", "ANY /mcp", "GET /v1/summary"], sorted(routes)
