"""Routes of a Python standard-library request handler (`do_GET` comparing `self.path`, or looking
it up in a table of the class's). Mined from real trees through the CLI."""

from __future__ import annotations

from conftest import mined_routes

SERVER = '''\
import re
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlparse


def make_server(port):
    class Handler(BaseHTTPRequestHandler):
        _GET_ROUTES = {
            "/api/status": "_get_status",
            "/api/models": "_get_models",
        }
        _POST_ROUTES: dict = {"/api/vault": "_post_vault", "not a path": "_nope"}

        def do_GET(self):
            self._get_inner()

        def _get_inner(self):
            clean = self.path.split("?")[0]
            handler = self._GET_ROUTES.get(clean)
            if handler:
                return getattr(self, handler)()
            if self.path == "/" or self.path == "/index.html":
                return self._index()
            if self.path.startswith("/static/"):  # a family of paths, not one route
                return self._static()
            m = re.match(r"^/api/sessions/(?P<sid>[^/]+)/messages$", self.path)
            if m:
                return self._messages(m)

        def do_POST(self):
            parsed = urlparse(self.path)
            if parsed.path in ("/api/chat", "/api/chat/stream"):
                return self._chat()
            name = self.headers.get("X-Name")
            if name == "/not-a-route":  # not the request's path
                return
            if self.path in self._POST_ROUTES:
                return getattr(self, self._POST_ROUTES[self.path])()

        def do_DELETE(self):
            if "/api/sessions/" == self.path:
                self._clear()

        def helper(self):  # no do_ method calls it
            if self.path == "/never":
                pass

    return ThreadingHTTPServer(("", port), Handler)
'''


def test_a_standard_library_handlers_own_dispatch(tmp_path, capsys):
    routes = mined_routes(tmp_path, capsys, {
        "pyproject.toml": '[project]\nname = "gateway"\nversion = "1.0"\n',
        "gateway/__init__.py": "",
        "gateway/server.py": SERVER,
        "gateway/client.py": (  # compares a path, but serves nothing: no do_ method
            "class Client:\n    def get(self):\n        if self.path == '/api/status':\n            return 1\n"),
    })
    assert sorted(routes) == [
        "DELETE /api/sessions/", "GET /", "GET /api/models", "GET /api/sessions/{sid}/messages", "GET /api/status",
        "GET /index.html", "POST /api/chat", "POST /api/chat/stream", "POST /api/vault"]
    assert routes["GET /api/status"]["source"]["line"] == 9  # the table's row
    assert routes["GET /"]["source"]["line"] == 22
    assert routes["GET /"]["evidence"][0]["detail"].startswith("http.server")
    assert routes["POST /api/chat"]["visibility"] == "public"


def test_no_routes_without_a_do_method_or_outside_the_packages_code(tmp_path, capsys):
    routes = mined_routes(tmp_path, capsys, {
        "pyproject.toml": '[project]\nname = "plain"\nversion = "1.0"\n',
        "plain/__init__.py": (
            "class Router:\n    ROUTES = {'/a': 'x'}\n    def dispatch(self):\n"
            "        if self.path == '/b':\n            return self.ROUTES.get(self.path)\n"),
        # a test harness's server (a directory of tests by its name): evidence, never a route
        "plain/static_tests/harness.py": (
            "from http.server import BaseHTTPRequestHandler\n\nclass H(BaseHTTPRequestHandler):\n"
            "    def do_GET(self):\n        if self.path == '/harness.js':\n            pass\n"),
    })
    assert routes == {}


DISPATCHER = '''\
import re
from http.server import BaseHTTPRequestHandler
from urllib.parse import urlsplit


class Handler(BaseHTTPRequestHandler):
    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        self.route("GET")

    def do_POST(self):
        self.route("POST")

    def do_DELETE(self):
        self.route("DELETE")

    def route(self, method):
        url = urlsplit(self.path)
        path = url.path.rstrip("/") or "/"
        if method == "GET" and path == "/":
            return self.index()
        if path == "/login" and method == "POST":
            return self.login()
        if method in ("GET", "DELETE") and path == "/api/session":
            return self.session()
        if path == "/api/me/prefs":  # which methods: decided inside
            return self.prefs(method)
        sub = path[len("/api/wiki/"):] if path.startswith("/api/wiki/") else ""
        if sub == "/history" and method == "GET":  # a part of the path, not the path
            return self.history()
        if method == "GET" and (m := re.fullmatch(r"/files/(\\\\d+)/[^/]*", path)):
            return self.file(m)
'''


def test_a_dispatcher_every_do_method_passes_its_verb_to(tmp_path, capsys):
    """hearthboard: each do_ method calls `self.route("GET")`; a path compared beside a test of the
    method is that method's, one compared without is served by the class (ANY); do_HEAD answering as
    do_GET has no routes of its own, and a slice of the path, or a regex no path spells, is none."""
    routes = mined_routes(tmp_path, capsys, {
        "pyproject.toml": '[project]\nname = "board"\nversion = "1.0"\n',
        "board.py": DISPATCHER,
    })
    assert sorted(routes) == ["ANY /api/me/prefs", "DELETE /api/session", "GET /", "GET /api/session",
                              "POST /login"], sorted(routes)


def test_a_helper_the_path_is_passed_to_compares_it_there(tmp_path, capsys):
    """docs-search's `do_GET` hands `parsed.path` to `self._api_get(parsed.path, params)`, which
    compares its `path` parameter (typed or not: termux-mcp's `def _route_post(self, path: str, data:
    dict)`, and hands it on again); a regex's last group of literal choices is each of them."""
    routes = mined_routes(tmp_path, capsys, {
        "setup.py": "from setuptools import setup\nsetup(name='ds', py_modules=['web'])\n",
        "web.py": (
            "import re\nimport urllib.parse\nfrom http.server import BaseHTTPRequestHandler\n\n"
            "class Handler(BaseHTTPRequestHandler):\n"
            "    def do_GET(self):\n"
            "        parsed = urllib.parse.urlsplit(self.path)\n"
            "        if parsed.path.startswith('/api/'):\n"
            "            self._api_get(parsed.path, {}, 'x')\n\n"
            "    def _api_get(self, path: str, params: dict, other='') -> None:\n"
            "        if other == '/not-a-path':\n            return\n"
            "        if path == '/api/stats':\n            return self._stats()\n"
            "        self._more(path)\n\n"
            "    def _more(self, p):\n"
            "        m = re.fullmatch(r'/api/chat/(\\d+)(/messages|/read)?', p)\n"
            "        if m:\n            return self._chat(m)\n"),
    })
    assert sorted(routes) == ["GET /api/chat/{arg1}", "GET /api/chat/{arg1}/messages", "GET /api/chat/{arg1}/read",
                              "GET /api/stats"], sorted(routes)


def test_a_prefix_whose_rest_the_branch_takes_is_a_route_with_a_parameter(tmp_path, capsys):
    """curldb: `elif url.path == "/tags" or url.path.startswith("/tags/"): name = url.path[len("/tags/"):]`
    serves /tags/{name}; `path.removeprefix("/files/")` and `[7:]` likewise; a prefix tested and
    nothing taken (`/viewer/`) is a family of paths, not a route."""
    handler = '''
from http.server import BaseHTTPRequestHandler
from urllib.parse import urlsplit


class Door(BaseHTTPRequestHandler):
    def do_GET(self):
        url = urlsplit(self.path)
        if url.path == "/tags" or url.path.startswith("/tags/"):
            name = url.path[len("/tags/"):] or None
        elif url.path.startswith("/files/"):
            wanted = url.path.removeprefix("/files/")
        elif url.path.startswith("/blobs/"):
            digest = url.path[7:]
        elif url.path.startswith("/viewer/"):
            self.send_file(url.path)
        elif url.path.startswith("/skill/files/"):  # asyagent: the rest handed to a method, its parameter's name
            return self._serve_skill_file(url.path[len("/skill/files/"):])
        elif url.path.startswith("/other/"):
            return helper(url.path[len("/other/"):])

    def _serve_skill_file(self, rel: str):
        pass
'''
    routes = mined_routes(tmp_path, capsys, {"door/__init__.py": handler})
    assert sorted(routes) == ["GET /blobs/{digest}", "GET /files/{wanted}", "GET /skill/files/{rel}", "GET /tags",
                              "GET /tags/{name}"], sorted(routes)


def test_a_guard_that_turns_away_every_other_path_serves_the_ones_it_lets_pass(tmp_path, capsys):
    """hubrelay: `if path != "/v1/models": self._error(404); return`, then the models listing;
    `if path not in ("/v1/messages", "/v1/responses"): ...; return`, then the relay. A comparison
    that leaves nothing (an `else`, or a branch that goes on) guards nothing."""
    routes = mined_routes(tmp_path, capsys, {
        "setup.py": "from setuptools import setup\nsetup(name='relay', py_modules=['web'])\n",
        "web.py": (
            "from http.server import BaseHTTPRequestHandler\n\n"
            "class Handler(BaseHTTPRequestHandler):\n"
            "    def do_GET(self):\n"
            "        path = self.path.split('?')[0]\n"
            "        if path == '/healthz':\n            return self._ok()\n"
            "        if path != '/v1/models':\n            self._error(404)\n            return\n"
            "        self._models()\n\n"
            "    def do_POST(self):\n"
            "        path = self.path\n"
            "        if path != '/v1/debug':\n            self._log()\n"
            "        if path != '/v1/other':\n            self._log()\n        else:\n            return\n"
            "        if path not in ('/v1/messages', '/v1/responses'):\n            raise ValueError(path)\n"
            "        self._relay()\n"),
    })
    assert sorted(routes) == ["GET /healthz", "GET /v1/models", "POST /v1/messages", "POST /v1/responses"], \
        sorted(routes)


def test_a_route_table_the_handler_walks_and_one_method_answering_every_verb(tmp_path, capsys):
    """mock-einvoice: `ROUTES = [(m, re.compile("^%s$" % p), n) for m, p, n in (("GET", "/_mock/invoices",
    "invoices"), ("GET", r"/_mock/invoices/(\\d+)", "invoice"), ...)]`, walked by `dispatch`, which
    `do_GET = do_POST = dispatch` makes every verb's answer: each row a route, a regex's groups its
    parameters. A table of rows no loop walks is data."""
    server = (
        "import re\nfrom http.server import BaseHTTPRequestHandler\n\n"
        "ROUTES = [\n    (method, re.compile('^%s$' % pattern), name) for method, pattern, name in (\n"
        "        ('GET', '/_mock/invoices', 'invoices'),\n        ('GET', r'/_mock/invoices/(\\d+)', 'invoice'),\n"
        "        ('POST', '/invoices', 'receive'),\n    )]\n"
        "SAMPLES = [('GET', '/not/walked', 'x'), ('POST', '/nor/this', 'y')]\n\n\n"
        "class Handler(BaseHTTPRequestHandler):\n    def dispatch(self):\n"
        "        for method, pattern, name in ROUTES:\n            match = pattern.match(self.path)\n"
        "            if match and method == self.command:\n"
        "                return getattr(self, name)(*match.groups())\n\n"
        "    do_GET = do_POST = dispatch\n")
    routes = mined_routes(tmp_path, capsys, {"mock/__init__.py": "", "mock/server.py": server})
    assert sorted(routes) == ["GET /_mock/invoices", "GET /_mock/invoices/{arg1}", "POST /invoices"], sorted(routes)
    assert routes["GET /_mock/invoices"]["source"]["line"] == 6  # its row


def test_a_packages_own_route_decorator_of_a_method_then_a_path(tmp_path, capsys):
    """mock-bank: `@route("GET", "/_mock/accounts/<id>")`, the package's own decorator filling its
    route table (routes/__init__.py), on functions of other modules; a first argument that is no
    method, or a second that is no path, is not a route."""
    table = ("TABLE = []\n\n\ndef route(method, pattern, note=''):\n    def register(function):\n"
             "        TABLE.append((method, pattern, function))\n        return function\n    return register\n")
    accounts = ("from . import route\n\n\n@route('GET', '/_mock/accounts/<id>')\ndef account(h, identifier):\n"
                "    '''One account.'''\n\n\n@route('PATCH', '/_mock/accounts/<id>', note='change it')\n"
                "def update(h, identifier):\n    pass\n\n\n@route('cache', '/not/a/route')\n"
                "def other(h):\n    pass\n\n\n"
                "@route('GET', 'relative')\ndef relative(h):\n    pass\n")
    routes = mined_routes(tmp_path, capsys, {"bank/__init__.py": "", "bank/routes/__init__.py": table,
                                             "bank/routes/accounts.py": accounts})
    assert sorted(routes) == ["GET /_mock/accounts/<id>", "PATCH /_mock/accounts/<id>"], sorted(routes)
    assert routes["GET /_mock/accounts/<id>"]["description"] == "One account."


def test_what_follows_a_prefix_compared_and_a_path_every_method_reaches(tmp_path, capsys):
    """mock-sap: every do_ method hands its verb to `_handle`, whose `_mock_api` takes `rest =
    path[len("/_mock"):].strip("/")` and compares `rest in ("", "health")`, `rest == "reset"`: the
    paths under /_mock, and, reached from every do_ method alike (the method checked inside), one
    route of any method each. A name that is no part of the path compares nothing."""
    handler = '''
from http.server import BaseHTTPRequestHandler


class Mock(BaseHTTPRequestHandler):
    def do_GET(self):
        self._handle("GET")

    def do_POST(self):
        self._handle("POST")

    def do_DELETE(self):
        self._handle("DELETE")

    def _handle(self, method):
        path = self.path.split("?")[0]
        if path.startswith("/_mock"):
            return self._mock_api(method, path)

    def _mock_api(self, method, path):
        rest = path[len("/_mock"):].strip("/")
        other = "reset"
        if rest in ("", "health"):
            return {"status": "UP"}
        if rest == "reset":
            if method != "POST":
                raise ValueError(method)
        if other == "elsewhere":
            return None
'''
    routes = mined_routes(tmp_path, capsys, {"mock/__init__.py": handler})
    assert sorted(routes) == ["ANY /_mock", "ANY /_mock/health", "ANY /_mock/reset"], sorted(routes)
