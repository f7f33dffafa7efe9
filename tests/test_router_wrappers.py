"""Routes registered on a package's own wrapper of a router, kept only when the wrapper passes
its verbs on to a router it holds."""

from __future__ import annotations

from tests.conftest import mined_routes

ADMIN = '''const router = require('router')
module.exports = Admin
function Admin (opts) { this.router = router(opts) }
;['get', 'post', 'delete'].forEach(function (method) {
  Admin.prototype[method] = function () {
    this.router[method].apply(this.router, arguments)
    return this
  }
})
'''

SERVE = '''const Admin = require('./admin')
const Client = require('./client')
module.exports = function (opts) {
  const admin = new Admin(opts)
  admin.get('/servers', servers.all)
  admin.delete('/servers/:serverId', servers.delete)
  const client = new Client('/api')
  client.get('/users', function (err, users) {})
  return admin
}
'''

CLIENT = '''const express = require('express')  // (for its types: no router is made here)
function Client (base) { this.base = base; this.http = require('http') }
Client.prototype.get = function (path, cb) { this.http.get(this.base + path, cb) }
module.exports = Client
'''

CONTROLLER = '''var Router = require('express').Router;
function Controller(basePath) { this.basePath = basePath; this.router = Router(); }
Controller.prototype = {
    get: function(path, middleware, handler) { this.router.get(path, middleware, handler); },
    post: function(path, middleware, handler) { this.router.post(path, middleware, handler); },
    bind: function(app) { app.use(this.basePath, this.router); }
};
module.exports = Controller;
'''

PACKAGES = '''var Controller = require('../infrastructure/controller');
var packagesController = module.exports = new Controller('/packages');
packagesController.get('/', require('./get'));
packagesController.post('/:name', authenticate, require('./post'));
'''


def test_verbs_a_wrapper_passes_to_its_router_under_the_path_it_mounts_it_at(tmp_path, capsys):
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "w", "version": "1.0.0", "main": "lib/serve.js",'
                        ' "dependencies": {"router": "1", "express": "4"}}',
        "lib/admin.js": ADMIN, "lib/serve.js": SERVE, "lib/client.js": CLIENT,
        "lib/infrastructure/controller.js": CONTROLLER, "lib/packages/index.js": PACKAGES})
    assert sorted(routes) == ["DELETE /servers/:serverId", "GET /packages", "GET /servers",
                              "POST /packages/:name"]  # (the client's get is no route: Client holds no router)
    assert routes["GET /servers"]["source"] == {**routes["GET /servers"]["source"], "path": "lib/serve.js", "line": 5}
    assert routes["GET /servers"]["evidence"][0]["detail"].startswith("router")
