"""pixl-server-api namespaces: a component registers itself, and its prefixed methods are routes."""

from __future__ import annotations

from tests.conftest import mined_routes

COMPONENT = '''var Class = require("pixl-class");
var Component = require("pixl-server/component");

module.exports = Class.create({
	__name: 'User',
	__parent: Component,
	startup: function(callback) {
		this.server.API.addNamespace( "user", "api_", this );
		callback();
	},
	api_create: function(args, callback) { callback({ code: 0 }); },
	api_admin_get_users: function(args, callback) { callback({ code: 0 }); },
	api_: function(args, callback) {},
	normalizeUsername: function(username) { return username; }
});
'''

OTHERS = '''class Jobs {
	startup() { this.server.API.addNamespace("app", "api_", this); }
	api_get_schedule(args, callback) {}
	helper() {}
}
function later(api, handlers) {
	api.addNamespace("x", "api_", handlers);  // another object: not followed
	api.addNamespace("y", "api_");
}
module.exports = { Jobs, later };
'''


def test_a_components_prefixed_methods_under_the_default_base_uri(tmp_path, capsys):
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "c", "version": "1.0.0", "main": "user.js", "dependencies": {"pixl-server": "1"}}',
        "user.js": COMPONENT, "jobs.js": OTHERS})
    assert sorted(routes) == ["ANY /api/app/get_schedule", "ANY /api/user/admin_get_users", "ANY /api/user/create"]
    create = routes["ANY /api/user/create"]
    assert create["source"]["line"] == 11 and create["symbol"] == "api_create"
    assert any("/api unless the server's configuration sets another" in u for u in create["unknowns"])
    assert create["executable"] is False
