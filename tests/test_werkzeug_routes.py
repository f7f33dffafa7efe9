"""miners/werkzeug_routes.py through `capindex mine`: the Rules of an application built on
Werkzeug's own routing are its routes."""

from __future__ import annotations

from tests.conftest import mined_routes

APP = '''
from werkzeug.routing import Map, Rule, Submount


class FrontEnd:
    RECORD_ROUTE = "/record"

    def __init__(self, config):
        self.cdx_api_endpoint = config.get("cdx_api_endpoint", "/cdx")
        self.url_map = Map([Rule("/", endpoint=self.home),
                            Submount("/api", [Rule("/status", endpoint=self.status),
                                              Submount("/v2", [Rule("/ping", endpoint=self.ping)])])])
        self.url_map.add(Rule("/proxy-fetch/<path:url>", endpoint=self.fetch, methods=["GET", "HEAD"]))
        self.url_map.add(Rule("/bad", endpoint=self.bad, methods=self.allowed))  # not spelt: not guessed

    def coll_routes(self, coll_prefix):
        return [Rule(coll_prefix + self.cdx_api_endpoint, endpoint=self.cdx),
                Rule(coll_prefix + self.RECORD_ROUTE, endpoint=self.put_record, methods=["PUT"])]
'''
# a Rule of another library is no route
OTHER = '''
from lint.rules import Rule

RULES = [Rule("/no-tabs", severity="error")]
'''


def test_werkzeug_rules_are_routes_under_their_submounts_for_the_methods_they_list(tmp_path, capsys):
    routes = mined_routes(tmp_path, capsys, {"wayback/app.py": APP, "wayback/lint.py": OTHER})
    assert sorted(routes) == ["ANY /", "ANY /api/status", "ANY /api/v2/ping", "ANY /cdx",
                              "GET /proxy-fetch/<path:url>", "HEAD /proxy-fetch/<path:url>", "PUT /record"]
    assert routes["ANY /api/status"]["source"]["line"] == 11
    # (`coll_prefix + ...`: the rest of the path, under a prefix its callers give; the default a
    # configuration falls back to for `self.cdx_api_endpoint`)
    assert any("coll_prefix" in u for u in routes["PUT /record"]["unknowns"])
    assert routes["ANY /cdx"]["evidence"][0]["detail"] == "werkzeug: ANY /cdx"
