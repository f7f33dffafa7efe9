"""Routes of servlets that declare their paths as regex patterns (Synapse's RestServlets), mined
from a real tree through the CLI."""

from __future__ import annotations

from conftest import mined_routes

BASE = '''import re


def admin_patterns(path_regex: str, version: str = "v1"):
    """The patterns of an admin endpoint."""
    admin_prefix = "^/_synapse/admin/" + version
    patterns = [re.compile(admin_prefix + path_regex)]
    return patterns


def client_patterns(path_regex, releases=("r0", "v3"), unstable=True):
    patterns = []
    if unstable:
        patterns.append(re.compile("^/_matrix/client/unstable" + path_regex))
    for release in releases:
        patterns.append(re.compile("^/_matrix/client/" + release + path_regex))
    return patterns


class RestServlet:
    pass
'''

SERVLETS = '''import re

from synapse.http.servlet import RestServlet
from synapse.rest.admin._base import admin_patterns, client_patterns


class EventReportsRestServlet(RestServlet):
    PATTERNS = admin_patterns("/event_reports$")

    async def on_GET(self, request):
        return 200, {}


class EventReportDetailRestServlet(RestServlet):
    PATTERNS = admin_patterns("/event_reports/(?P<report_id>[^/]*)$")

    async def on_GET(self, request, report_id):
        return 200, {}

    async def on_DELETE(self, request, report_id):
        return 200, {}


class UserRestServletV2(RestServlet):
    PATTERNS = admin_patterns("/users/(?P<user_id>[^/]*)$", "v2")

    async def on_PUT(self, request, user_id):
        return 200, {}


class VersionServlet(RestServlet):
    PATTERNS = [re.compile("^/_synapse/admin/v1/server_version$")]

    def on_GET(self, request):
        return 200, {}


class SyncRestServlet(RestServlet):
    PATTERNS = client_patterns("/sync$")  # a loop and a branch: not evaluated

    async def on_GET(self, request):
        return 200, {}


class NotAServlet:
    PATTERNS = admin_patterns("/nothing$")  # no on_<METHOD>: serves nothing
'''


def test_servlets_serve_each_method_at_the_patterns_a_package_function_builds(tmp_path, capsys):
    routes = mined_routes(tmp_path, capsys, {
        "synapse/__init__.py": "", "synapse/http/__init__.py": "",
        "synapse/http/servlet.py": "from synapse.rest.admin._base import RestServlet\n",
        "synapse/rest/__init__.py": "", "synapse/rest/admin/__init__.py": "",
        "synapse/rest/admin/_base.py": BASE, "synapse/rest/admin/event_reports.py": SERVLETS,
    })
    assert sorted(routes) == ["DELETE /_synapse/admin/v1/event_reports/{report_id}",
                              "GET /_synapse/admin/v1/event_reports",
                              "GET /_synapse/admin/v1/event_reports/{report_id}",
                              "GET /_synapse/admin/v1/server_version",
                              "PUT /_synapse/admin/v2/users/{user_id}"], sorted(routes)
    detail = routes["GET /_synapse/admin/v1/event_reports/{report_id}"]
    assert detail["source"]["path"] == "synapse/rest/admin/event_reports.py"
