"""Routes of a raw ASGI or WSGI application that compares the request's path itself (ministack's
`async def app(scope, receive, send)`), mined from real trees through the CLI."""

from __future__ import annotations

from conftest import mined_routes

ASGI = '''
_HEALTH_PATHS = ("/_ministack/health", "/health")
_NOT_PATHS = ("health", "/x y")


def _handle_health(path: str, request_id: str):
    if path not in _HEALTH_PATHS:
        return None
    return 200, {}, b"ok"


async def _handle_reset(path: str, method: str, params: dict):
    if path != "/_ministack/reset" or method != "POST":
        return None
    return 200, {}, b""


def _ses(method, path):
    if method == "GET" and path == "/_ministack/ses/messages":
        return 200, {}, b"[]"
    if path.startswith("/_ministack/lambda-code/"):
        return 200, {}, b""
    if path == "/_ministack/config":
        if method in ("POST", "PUT"):
            return 200, {}, b""


def _unrelated(name):
    if name == "/not/a/request/path":
        return 1


async def app(scope, receive, send):
    method = scope["method"]
    path = scope["path"]
    found = _handle_health(path, "id") or await _handle_reset(path, method, {}) or _ses(method, path)
    if path in _NOT_PATHS:
        return
    _unrelated(method)
'''

WSGI = '''
def application(environ, start_response):
    path = environ.get("PATH_INFO", "/")
    verb = environ["REQUEST_METHOD"]
    if verb == "DELETE" and path == "/items":
        start_response("204 No Content", [])
        return [b""]
    if path == "/":
        start_response("200 OK", [])
        return [b"index"]
'''


def test_a_raw_asgi_apps_own_comparisons_and_those_of_the_functions_it_hands_the_path_to(tmp_path, capsys):
    routes = mined_routes(tmp_path, capsys, {"stack/__init__.py": "", "stack/app.py": ASGI})
    # (a guard `path != X or method != "POST": return` serves X for POST; a test with no method
    # beside it or around it serves every one, as does one whose branch decides the method inside;
    # a startswith() prefix is a family of paths, not a route; a function handed something else
    # compares no request path)
    assert sorted(routes) == ["ANY /_ministack/config", "ANY /_ministack/health", "ANY /health",
                              "GET /_ministack/ses/messages", "POST /_ministack/reset"], sorted(routes)
    assert routes["POST /_ministack/reset"]["source"]["line"] == 13


def test_a_wsgi_application_compares_path_info(tmp_path, capsys):
    routes = mined_routes(tmp_path, capsys, {"svc/__init__.py": "", "svc/wsgi.py": WSGI})
    assert sorted(routes) == ["ANY /", "DELETE /items"], sorted(routes)
    # a module that reads no request path compares none
    plain = WSGI.replace('environ.get("PATH_INFO", "/")', 'compute()').replace("PATH_INFO", "X")
    assert mined_routes(tmp_path / "plain", capsys, {"svc/__init__.py": "", "svc/wsgi.py": plain}) == {}
