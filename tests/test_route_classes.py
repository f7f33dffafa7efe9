"""Routes that are classes (browserless's route folders): the class's fields say the method and
the paths, a subclass in another module changes the paths, and the values are another module's
enum members, imported relatively or by the package's own name. Mined from real trees through the CLI."""

from __future__ import annotations

from conftest import mined_routes

_HTTP = """\
export enum Methods { get = 'get', post = 'post' }
export enum HTTPRoutes {
  chromiumPdf = '/chromium/pdf?(/)',
  pdf = '/pdf?(/)',
  chromePdf = '/chrome/pdf?(/)',
}
export enum ManagementRoutes { kill = '/kill/+([0-9a-zA-Z-_])?(/)' }
export enum WebsocketRoutes { '/' = '?(/)', page = '/devtools/page/*' }
"""
_BASES = """\
export abstract class HTTPRoute { abstract path: string | string[]; abstract method: string; }
export abstract class WebsocketRoute { abstract path: string | string[]; }
"""


def test_route_classes_with_inherited_fields_and_another_modules_enums(tmp_path, capsys):
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "@acme/browser", "version": "2.0.0", "main": "./build/exports.js",'
                        ' "types": "./src/exports.ts"}',
        "src/exports.ts": "export * from './http.js';\nexport * from './types.js';\n",
        "src/http.ts": _HTTP,
        "src/types.ts": _BASES,
        "src/shared/pdf.http.ts": (
            "import { HTTPRoute } from '../types.js';\nimport { HTTPRoutes, Methods } from '../http.js';\n\n"
            "export default class ChromiumPdfPostRoute extends HTTPRoute {\n  method = Methods.post;\n"
            "  path = [HTTPRoutes.chromiumPdf, HTTPRoutes.pdf];\n"
            "  async handler(req, res) { return res.end(); }\n}\n"),
        "src/routes/chrome/pdf.post.ts": (  # a subclass in another module: its own path, the method inherited
            "import Pdf from '../../shared/pdf.http.js';\nimport { HTTPRoutes } from '@acme/browser';\n\n"
            "export default class ChromePdfPostRoute extends Pdf {\n  path = [HTTPRoutes.chromePdf];\n}\n"),
        "src/routes/management/kill.get.ts": (
            "import { HTTPRoute, ManagementRoutes, Methods } from '@acme/browser';\n\n"
            "export default class KillGetRoute extends HTTPRoute {\n  method = Methods.get;\n"
            "  path = ManagementRoutes.kill;\n}\n"),
        "src/routes/page.ws.ts": (  # a WebSocket route: no method, opened by a GET
            "import { WebsocketRoute, WebsocketRoutes } from '@acme/browser';\n\n"
            "export default class PageWebSocketRoute extends WebsocketRoute {\n"
            "  path = [WebsocketRoutes.page, WebsocketRoutes['/']];\n}\n"),
        "src/request.ts": (  # path and method fields, but nothing says it is a route: not one
            "export class OutgoingRequest { method = 'get'; path = '/status'; }\n"),
        "src/hidden.ts": (  # a route class nobody can load (not exported): not one
            "class HiddenRoute { method = 'get'; path = '/hidden'; }\n"),
        "src/dynamic.ts": (  # a path that is not read: no route (nothing is guessed)
            "import { HTTPRoute } from './types.js';\n"
            "export class DynamicRoute extends HTTPRoute { method = 'get'; path = makePath(); }\n"),
    })
    assert sorted(routes) == ["GET /", "GET /devtools/page/*", "GET /kill/{param}", "POST /chrome/pdf",
                              "POST /chromium/pdf", "POST /pdf"]
    pdf = routes["POST /pdf"]
    assert pdf["source"]["path"] == "src/shared/pdf.http.ts" and pdf["source"]["line"] == 4
    assert pdf["evidence"][0]["detail"] == "a class that defines the route POST /pdf"
    assert pdf["evidence"][0]["template"] == "/pdf?(/)"
    assert routes["POST /chrome/pdf"]["source"]["path"] == "src/routes/chrome/pdf.post.ts"
    assert routes["GET /kill/{param}"]["evidence"][0]["template"] == "/kill/+([0-9a-zA-Z-_])?(/)"
    assert routes["GET /"]["source"]["path"] == "src/routes/page.ws.ts"
    # loaded at run time by a folder scan, not registered where a reader sees it: less sure than a call
    assert pdf["confidence"] < 0.9 and all(c["visibility"] == "public" for c in routes.values())


def test_route_classes_in_plain_javascript_with_same_file_constants(tmp_path, capsys):
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "svc", "version": "1.0.0", "main": "index.js"}',
        "routes/users.js": (
            "const Paths = Object.freeze({ list: '/users', one: '/users/:id' });\n"
            "class UsersEndpoint extends Endpoint {\n  methods = ['get', 'head'];\n  path = Paths.list;\n}\n"
            "class UserEndpoint extends UsersEndpoint { path = Paths.one; }\n"
            "class Broken extends Endpoint { method = 'fetch'; path = '/x'; }\n"  # not an HTTP method
            "module.exports = { UsersEndpoint, UserEndpoint, Broken };\n"),
    })
    assert sorted(routes) == ["GET /users", "GET /users/:id", "HEAD /users", "HEAD /users/:id"]
