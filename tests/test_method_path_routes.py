"""Routes written as "METHOD /path" strings: the `routes` package's addRoute and route maps, mined
from real trees through the CLI."""

from __future__ import annotations

from conftest import mined_routes


def test_route_strings_a_router_takes_and_a_route_map_lists(tmp_path, capsys):
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "osm", "version": "7.0.0", "main": "index.js"}',
        "routes/index.js": (  # osm-p2p-server: the `routes` package, through a local wrapper
            "var router = require('routes')()\n\nfunction route (str, f) { router.addRoute(str, f) }\n\n"
            "route('GET /api(/0.6)?/capabilities', require('./misc_capabilities.js'))\n"
            "route('PUT /api/0.6/:type(changeset)/create', require('./changeset_create.js'))\n"
            "route('GET /api/0.6/:type(node|way)/:id', read)\n\nmodule.exports = router\n"),
        "config/routes.js": (  # Sails.js
            "module.exports.routes = {\n  'GET /users': 'UserController.find',\n"
            "  'POST /users': {action: 'user/create'},\n};\n"),
        "lib/log.js": (  # one such string, or strings without a handler after them: no route
            "log('GET /not/a/route');\nconsole.log('POST /nor/this', 1);\nconsole.log('PUT /nor/that', 2);\n"),
    })
    assert sorted(routes) == [
        "GET /api/0.6/:type(node|way)/:id", "GET /api/0.6/capabilities", "GET /api/capabilities", "GET /users",
        "POST /users", "PUT /api/0.6/changeset/create"]
    assert routes["GET /api/capabilities"]["source"] == {
        "path": "routes/index.js", "line": 5, "end_line": 5, "commit": None}
