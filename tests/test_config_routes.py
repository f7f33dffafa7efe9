"""Routes that code and configuration declare together: Falcon route tables and the prefixes a
Paste Deploy INI file serves apps under, Twisted resource trees and the children a configuration
section lists; and modules that each define a route a server loads by type. Mined from real trees
through the CLI, as a user runs it."""

from __future__ import annotations

import json
import textwrap

from indexer.cli import main
from miners.paste_deploy import app_prefixes
from schemas.documents import validate

PASTE_INI = """\
[app:api_versions]
paste.app_factory = svc.versions:api_versions

[app:appv2]
paste.app_factory = svc.service:appv2_factory

[app:healthcheck]
paste.app_factory = oslo_middleware:Healthcheck.app_factory

[filter:authtoken]
paste.filter_factory = keystonemiddleware.auth_token:filter_factory

[composite:main]
use = egg:Paste#urlmap
/healthcheck = healthcheck
/ = api

[pipeline:api]
pipeline = authtoken backupapp

[composite:backupapp]
paste.composite_factory = svc.service:root_app_factory
/: api_versions
/v2: appv2
"""

FILES = {
    "pyproject.toml": '[project]\nname = "svc"\nversion = "1.0"\ndependencies = ["falcon>=3"]\n',
    "etc/svc/svc-paste.ini": PASTE_INI,
    "svc/__init__.py": "",
    "svc/resources.py": '''
        class Things:
            def on_get(self, req, resp, project_id):
                """List the things."""

            def on_post(self, req, resp, project_id):
                pass


        class Thing:
            def on_get(self, req, resp, project_id, thing_id):
                pass

            def on_delete(self, req, resp, project_id, thing_id):
                pass


        class NotAResource:
            def get(self):
                pass
        ''',
    "svc/v2/__init__.py": '''
        from svc import resources


        def public_endpoints(db):
            return [
                ('/{project_id}/things',
                 resources.Things(db)),
                ('/{project_id}/things/{thing_id}', resources.Thing(db)),
                ('/{project_id}/other', resources.NotAResource()),
            ]
        ''',
    "svc/app.py": '''
        import falcon

        from svc import v2


        def build_app_v2():
            app = falcon.App()
            for route, resource in v2.public_endpoints(None):
                app.add_route(route, resource)
            return app
        ''',
    "svc/service.py": '''
        from svc.app import build_app_v2


        def appv2_factory(global_conf, **local_conf):
            return build_app_v2()


        def root_app_factory(loader, global_conf, **local_conf):
            return None
        ''',
    "svc/versions.py": '''
        import falcon


        def api_versions(conf=None):
            app = falcon.App()
            app.add_route('/', Versions())
            return app


        class Versions:
            def on_get(self, req, resp):
                pass
        ''',
}


def _tree(root, files):
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text))


def _routes(tmp_path, capsys, root):
    assert main(["--db", str(tmp_path / "s.db"), "--json", "mine", str(root)]) == 0
    report = json.loads(capsys.readouterr().out)
    validate("report", report, "report")
    return {c["name"]: c for c in report["candidates"] if c["kind"] == "http-route"}


def test_route_tables_and_the_prefix_paste_deploy_serves_an_app_under(tmp_path, capsys):
    root = tmp_path / "svc"
    _tree(root, FILES)
    routes = _routes(tmp_path, capsys, root)
    # the table's entries, served under /v2 (appv2's factory reaches public_endpoints through two
    # calls in two modules); the versions app is served at the root; a class without responders
    # (`get`, not `on_get`) gives nothing
    assert set(routes) == {"GET /v2/{project_id}/things", "POST /v2/{project_id}/things",
                           "GET /v2/{project_id}/things/{thing_id}", "DELETE /v2/{project_id}/things/{thing_id}",
                           "GET /"}
    things = routes["GET /v2/{project_id}/things"]
    assert things["symbol"].endswith("Things.on_get") and things["description"] == "List the things."
    assert things["source"]["path"] == "svc/v2/__init__.py" and things["source"]["line"] == 7
    kinds = {e["kind"]: e for e in things["evidence"]}
    assert kinds["route"]["detail"].startswith("falcon route table:")
    assert kinds["manifest"] == {"kind": "manifest", "detail": "Paste Deploy serves it under /v2",
                                 "path": "etc/svc/svc-paste.ini", "line": 24}
    # a table is less direct than an add_route call: the loop that registers it is not followed
    assert things["confidence"] < routes["GET /"]["confidence"]
    assert all(c["executable"] is False and c["authority"]["complete"] is False for c in routes.values())


def test_a_table_is_a_falcon_table_only_in_a_package_that_uses_falcon(tmp_path, capsys):
    root = tmp_path / "plain"
    files = {name: text for name, text in FILES.items() if name in ("svc/__init__.py", "svc/resources.py",
                                                                   "svc/v2/__init__.py")}
    _tree(root, files)
    assert _routes(tmp_path, capsys, root) == {}


def test_without_the_ini_the_routes_keep_their_paths(tmp_path, capsys):
    root = tmp_path / "bare"
    _tree(root, {name: text for name, text in FILES.items() if not name.endswith(".ini")})
    assert "GET /{project_id}/things" in _routes(tmp_path, capsys, root)
    # a test's INI deploys nothing
    moved = tmp_path / "moved"
    _tree(moved, {("tests/fixtures/paste.ini" if name.endswith(".ini") else name): text
                  for name, text in FILES.items()})
    assert "GET /{project_id}/things" in _routes(tmp_path, capsys, moved)


def test_app_prefixes_follow_composites_and_pipelines_from_each_root():
    found = app_prefixes("api-paste.ini", PASTE_INI)
    assert found == {"svc.versions:api_versions": {"/": ("api-paste.ini", 2)},
                     "svc.service:appv2_factory": {"/v2": ("api-paste.ini", 24)},
                     "oslo_middleware:Healthcheck.app_factory": {"/healthcheck": ("api-paste.ini", 15)},
                     # a pipeline's filter sees what is below the pipeline's prefix (a package's may serve routes)
                     "keystonemiddleware.auth_token:filter_factory": {"/": ("api-paste.ini", 11)}}
    # an app reached under two prefixes is served under both; a cycle ends; bad INI gives nothing
    twice = PASTE_INI + "\n[composite:admin]\nuse = egg:Paste#urlmap\n/admin = appv2\n/loop = admin\n"
    assert set(app_prefixes("a.ini", twice)["svc.service:appv2_factory"]) == {"/v2", "/admin"}
    assert app_prefixes("bad.ini", "no section header\n/x = y\n") == {}


TWISTED = {
    "pyproject.toml": '[project]\nname = "crawld"\nversion = "1.0"\ndependencies = ["twisted"]\n',
    "crawld/__init__.py": "",
    "crawld/default.conf": """\
        [crawld]
        port = 6800

        [services]
        schedule.json = crawld.webservice.Schedule
        status.json   = crawld.webservice.Status
        broken.json   = crawld.webservice.Missing
        notaclass     = 42
        """,
    "crawld/webservice.py": '''
        from twisted.web import resource


        class WsResource(resource.Resource):
            def render_OPTIONS(self, txrequest):
                return b""


        class Schedule(WsResource):
            def render_POST(self, txrequest):
                """Schedule a crawl."""


        class Status(WsResource):
            def render_GET(self, txrequest):
                pass
        ''',
    "crawld/website.py": '''
        from twisted.web import resource

        from crawld.pages import Admin


        class Root(resource.Resource):
            def __init__(self, config, app):
                resource.Resource.__init__(self)
                for service_name, service_path in config.items("services", default=[]):
                    service_cls = load_object(service_path)
                    self.putChild(service_name.encode(), service_cls(self))
                self.putChild(b"jobs", Jobs(self))
                self.putChild(b"admin", Admin())


        class Jobs(resource.Resource):
            def render_GET(self, txrequest):
                pass

            def render_HEAD(self, txrequest):
                pass
        ''',
    "crawld/pages.py": '''
        from twisted.web import resource


        class Admin(resource.Resource):
            def __init__(self):
                resource.Resource.__init__(self)
                self.putChild(b"users", Users())


        class Users(resource.Resource):
            def render_GET(self, txrequest):
                pass

            def render_delete(self, txrequest):  # not a verb method: Twisted's are upper case
                pass
        ''',
}


def test_twisted_children_and_the_services_a_configuration_section_lists(tmp_path, capsys):
    root = tmp_path / "crawld"
    _tree(root, TWISTED)
    routes = _routes(tmp_path, capsys, root)
    # each [services] entry whose class the tree defines (its own render_ methods, not the base's
    # OPTIONS); putChild children, and a child's children under it (Admin's users, /admin/users)
    assert set(routes) == {"POST /schedule.json", "GET /status.json", "GET /jobs", "HEAD /jobs",
                           "GET /admin/users"}
    schedule = routes["POST /schedule.json"]
    assert schedule["symbol"].endswith("Schedule.render_POST") and schedule["description"] == "Schedule a crawl."
    assert schedule["source"]["path"] == "crawld/website.py" and schedule["source"]["line"] == 12
    manifest = next(e for e in schedule["evidence"] if e["kind"] == "manifest")
    assert manifest == {"kind": "manifest", "detail": "crawld/default.conf names Schedule for it",
                        "path": "crawld/default.conf", "line": 5}
    assert schedule["confidence"] < routes["GET /jobs"]["confidence"]  # a deployment may list others


def test_without_the_section_a_configured_child_gives_nothing(tmp_path, capsys):
    root = tmp_path / "crawld"
    _tree(root, {name: text for name, text in TWISTED.items() if not name.endswith(".conf")})
    assert set(_routes(tmp_path, capsys, root)) == {"GET /jobs", "HEAD /jobs", "GET /admin/users"}
    example = tmp_path / "example"  # an example's configuration configures nothing
    _tree(example, {("examples/crawld.conf" if name.endswith(".conf") else name): text
                    for name, text in TWISTED.items()})
    assert set(_routes(tmp_path, capsys, example)) == {"GET /jobs", "HEAD /jobs", "GET /admin/users"}


ROUTE_MODULES = {
    "package.json": '{"name": "wiki", "version": "1.0.0", "main": "boot.js"}',
    "server/routes/get-status.js": r"""
        /*\
        module-type: route
        \*/
        "use strict";
        exports.methods = ["GET", "head"];
        exports.path = /^\/status$/;
        exports.handler = function(request, response, state) { state.sendResponse(200, {}, "ok"); };
    """,
    "server/routes/put-tiddler.js": r"""
        exports.method = "PUT";
        exports.path = /^\/recipes\/default\/tiddlers\/(.+)$/;
        exports.handler = function(request, response, state) {};
    """,
    "routes/health.js": """
        module.exports = {method: "GET", path: "/health", handler(request, h) { return "ok"; }};
    """,
    # a hapi route's configuration a function returns, its handler in its options (screwdriver-api)
    "plugins/builds/get.js": """
        module.exports = () => ({
            method: 'GET',
            path: '/builds/{id}',
            options: {description: 'Get a single build', handler: async (request, h) => h.response({})}
        });
    """,
    "plugins/builds/update.js": """
        module.exports = function updateRoute() {
            const x = 1;
            return {method: ['PUT', 'PATCH'], path: '/builds/{id}', config: {handler: (request, h) => x}};
        };
    """,
    # none of these is a route: no handler, a method that is not literal, a path that is not one
    "lib/options.js": "module.exports = () => ({method: 'GET', path: '/x', options: {auth: false}});\n",
    "lib/config.js": 'exports.path = "/etc/app"; exports.method = "GET";\n',
    "lib/dynamic.js": "exports.method = verb; exports.path = '/x'; exports.handler = function () {};\n",
    "lib/relative.js": "exports.method = 'GET'; exports.path = 'x/y'; exports.handler = function () {};\n",
}


def test_a_module_whose_exports_define_a_route_is_that_route(tmp_path, capsys):
    _tree(tmp_path / "wiki", ROUTE_MODULES)
    routes = _routes(tmp_path, capsys, tmp_path / "wiki")
    assert sorted(routes) == ["GET /builds/{id}", "GET /health", "GET /status", "HEAD /status", "PATCH /builds/{id}",
                              "PUT /builds/{id}", "PUT /recipes/default/tiddlers/{arg1}"]
    status = routes["GET /status"]
    assert status["source"]["path"] == "server/routes/get-status.js" and status["source"]["line"] == 7
    assert status["evidence"][0]["detail"] == "a module that defines the route GET /status"
    assert status["confidence"] < 0.8  # the server that loads it by type is not followed


CATALOG = {
    "pyproject.toml": '[project]\nname = "mq"\nversion = "1.0"\ndependencies = ["falcon>=3"]\n',
    "mq/__init__.py": "",
    "mq/v2.py": '''
        from mq import queues


        def public_endpoints(driver, conf):
            return [
                ("/queues", queues.CollectionResource(driver)),
                ("/queues/{queue_name}", queues.ItemResource(driver)),
            ]
    ''',
    "mq/queues.py": '''
        class CollectionResource:
            def on_get(self, req, resp):
                pass


        class ItemResource:
            def on_put(self, req, resp, queue_name):
                pass
    ''',
    "mq/driver.py": '''
        import falcon

        from mq import v2


        class Driver:
            def __init__(self, conf):
                self.app = falcon.App()
                catalog = [("/v2", v2.public_endpoints(self, conf))]
                for version_path, endpoints in catalog:
                    for route, resource in endpoints:
                        self.app.add_route(version_path + route, resource)
    ''',
}


def test_a_version_catalog_serves_each_functions_route_table_under_its_prefix(tmp_path, capsys):
    """OpenStack's (zaqar's): `catalog = [("/v2", v2_0.public_endpoints(self, conf))]` registered by
    a loop of `app.add_route(version_path + route, resource)`."""
    _tree(tmp_path / "mq", CATALOG)
    assert sorted(_routes(tmp_path, capsys, tmp_path / "mq")) == ["GET /v2/queues", "PUT /v2/queues/{queue_name}"]


def test_a_twisted_resource_with_no_render_method_answers_with_its_bases(tmp_path, capsys):
    """splash's `RenderHtmlResource(BaseRenderResource)`: the base, in the same file, renders GET
    and POST for every subclass; a subclass with a render method of its own answers only that."""
    from tests.conftest import mined_routes

    resources = textwrap.dedent('''
        from twisted.web.resource import Resource

        class _Validating(Resource):
            def render_OPTIONS(self, request):
                return b""

        class BaseRender(_Validating):
            def render_GET(self, request):
                """Render a page."""
            def render_POST(self, request):
                return self.render_GET(request)

        class RenderHtml(BaseRender):
            content_type = "text/html"

        class RenderPng(RenderHtml):
            pass

        class Ping(_Validating):
            def render_GET(self, request):
                return b"ok"

        class Orphan(ExternalBase):
            pass

        class Root(Resource):
            def __init__(self):
                Resource.__init__(self)
                self.putChild(b"render.html", RenderHtml())
                self.putChild(b"render.png", RenderPng())
                self.putChild(b"_ping", Ping())
                self.putChild(b"orphan", Orphan())
        ''')
    routes = mined_routes(tmp_path, capsys, {"svc/__init__.py": "", "svc/resources.py": resources})
    assert sorted(routes) == ["GET /_ping", "GET /render.html", "GET /render.png", "POST /render.html",
                              "POST /render.png"]
    assert routes["GET /render.png"]["symbol"] == "BaseRender.render_GET"


def test_a_classmethod_factory_and_openstacks_project_mapper(tmp_path, capsys):
    """karbor: `paste.app_factory = svc.api.router:APIRouter.factory` under the INI's `/v1`, whose
    `factory` classmethod returns `cls(ProjectMapper())`; `__init__` maps `mapper.resource("plan",
    "plans", ...)`, which OpenStack's ProjectMapper serves under `{project_id}/`. Without the
    ProjectMapper the collection is at the root of the app."""
    router = '''
        import routes

        from svc.api.openstack import ProjectMapper
        from svc.api import plans


        class APIRouter(object):
            @classmethod
            def factory(cls, global_conf, **local_conf):
                return cls(ProjectMapper())

            def __init__(self, mapper):
                mapper.resource("plan", "plans", controller=plans.create_resource(),
                                collection={}, member={'action': 'POST'})
        '''
    files = {
        "etc/svc/api-paste.ini": ("[composite:osapi]\nuse = egg:Paste#urlmap\n/v1: apiv1\n\n"
                                  "[app:apiv1]\npaste.app_factory = svc.api.router:APIRouter.factory\n"),
        "svc/__init__.py": "", "svc/api/__init__.py": "", "svc/api/plans.py": "def create_resource():\n    pass\n",
        "svc/api/openstack.py": "import routes\n\n\nclass ProjectMapper(routes.Mapper):\n    pass\n",
        "svc/api/router.py": router,
    }
    _tree(tmp_path / "tree", files)
    assert sorted(_routes(tmp_path, capsys, tmp_path / "tree")) == [
        "DELETE /v1/{project_id}/plans/{id}", "GET /v1/{project_id}/plans", "GET /v1/{project_id}/plans/{id}",
        "POST /v1/{project_id}/plans", "POST /v1/{project_id}/plans/{id}/action", "PUT /v1/{project_id}/plans/{id}"]
    plain = {**files, "svc/api/router.py": router.replace("cls(ProjectMapper())", "cls(routes.Mapper())")}
    _tree(tmp_path / "plain", plain)
    (tmp_path / "p").mkdir()
    assert "GET /v1/plans" in _routes(tmp_path / "p", capsys, tmp_path / "plain")
    # glance: `API.factory` is its base class's (`return cls(APIMapper())`): the class's own __init__ serves
    inherited = {**plain, "svc/api/router.py": plain["svc/api/router.py"].replace(
        "            @classmethod\n            def factory(cls, global_conf, **local_conf):\n"
        "                return cls(routes.Mapper())\n\n", "")}
    assert "def factory" not in inherited["svc/api/router.py"]
    _tree(tmp_path / "inherited", inherited)
    (tmp_path / "i").mkdir()
    assert "GET /v1/plans" in _routes(tmp_path / "i", capsys, tmp_path / "inherited")


HEAT_ROUTER = '''
import routes

from svc.api import stacks
from svc.common import wsgi


class API(wsgi.Router):
    def __init__(self, conf, **local_conf):
        mapper = routes.Mapper()

        def connect(controller, path_prefix, routes):
            for r in routes:
                url = path_prefix + r['url']
                mapper.connect(r['name'], url, controller=controller, action=r['action'],
                               conditions={'method': r['method']})

        stack_path = '/{tenant_id}/stacks/{stack_name}/{stack_id}'
        connect(controller=stacks.create_resource(conf), path_prefix='/{tenant_id}',
                routes=[
                    {'name': 'stack_index', 'url': '/stacks', 'action': 'index', 'method': 'GET'},
                    {'name': 'stack_create', 'url': '/stacks', 'action': 'create', 'method': 'POST'},
                    {'name': 'template_functions', 'url': '/template_versions/{template_version}'
                                                          '/functions', 'action': 'functions', 'method': 'GET'},
                    {'name': 'no_method', 'url': '/nothing', 'action': 'x'},
                ])
        connect(stacks.create_resource(conf), stack_path,
                [{'name': 'events', 'url': '/events', 'action': 'index', 'method': ['GET', 'HEAD']}])
        with mapper.submapper(controller=None, path_prefix='/{tenant_id}/services') as sa_mapper:
            sa_mapper.connect("service_index", "", action="index", conditions={'method': 'GET'})
        super(API, self).__init__(mapper)
'''
HEAT_PASTE = '''[composite:svc-api]
use = egg:Paste#urlmap
/: api
/healthcheck: healthcheck

[composite:api]
paste.composite_factory = svc.api:pipeline_factory
default = cors versionnegotiation authtoken apiv1app
noauth = cors versionnegotiation apiv1app

[app:apiv1app]
paste.app_factory = svc.common.wsgi:app_factory
svc.app_factory = svc.api.openstack.v1:API

[app:healthcheck]
paste.app_factory = oslo_middleware:Healthcheck.app_factory

[filter:versionnegotiation]
paste.filter_factory = svc.common.wsgi:filter_factory
svc.filter_factory = svc.api.openstack:version_negotiation_filter
'''


def test_a_table_of_dicts_a_local_function_connects_under_the_version_a_filter_takes_off(tmp_path, capsys):
    """OpenStack heat: `connect(controller, path_prefix, routes)`, a function of API.__init__, walks
    lists of dicts and connects `path_prefix + r['url']` with each row's method; a submapper's
    `path_prefix` is its connects' base. Its api-paste.ini serves the app (a class another key of
    the app section names) behind a `versionnegotiation` filter, which takes the URL's `/v1` off:
    the routes are served under /v1. Without the filter they stay at the app's root."""
    files = {
        "etc/svc/api-paste.ini": HEAT_PASTE,
        "svc/__init__.py": "", "svc/api/__init__.py": "", "svc/common/__init__.py": "",
        "svc/common/wsgi.py": "class Router(object):\n    def __init__(self, mapper):\n        self.map = mapper\n",
        "svc/api/stacks.py": "def create_resource(conf):\n    pass\n",
        "svc/api/openstack/__init__.py": "", "svc/api/openstack/v1/__init__.py": HEAT_ROUTER,
    }
    _tree(tmp_path / "tree", files)
    routes = _routes(tmp_path, capsys, tmp_path / "tree")
    assert sorted(routes) == [
        "GET /v1/{tenant_id}/services", "GET /v1/{tenant_id}/stacks",
        "GET /v1/{tenant_id}/stacks/{stack_name}/{stack_id}/events",
        "GET /v1/{tenant_id}/template_versions/{template_version}/functions",
        "HEAD /v1/{tenant_id}/stacks/{stack_name}/{stack_id}/events", "POST /v1/{tenant_id}/stacks"], sorted(routes)
    index = routes["GET /v1/{tenant_id}/stacks"]
    assert index["source"]["line"] == 21  # the table's row
    assert {"kind": "manifest", "detail": "Paste Deploy serves it under /v1", "path": "etc/svc/api-paste.ini",
            "line": 8} in index["evidence"]
    plain = {**files, "etc/svc/api-paste.ini": HEAT_PASTE.replace(" versionnegotiation", "")}
    _tree(tmp_path / "plain", plain)
    (tmp_path / "p").mkdir()
    assert "GET /{tenant_id}/stacks" in _routes(tmp_path / "p", capsys, tmp_path / "plain")
    # a path the loop builds from something other than its row: nothing is guessed
    other = {**files, "svc/api/openstack/v1/__init__.py": HEAT_ROUTER.replace("path_prefix + r['url']",
                                                                              "path_prefix + lookup(r)")}
    _tree(tmp_path / "other", other)
    (tmp_path / "o").mkdir()
    assert sorted(_routes(tmp_path / "o", capsys, tmp_path / "other")) == ["GET /v1/{tenant_id}/services"]


def test_app_prefixes_take_the_version_a_negotiation_filter_takes_off_only_at_the_root():
    found = app_prefixes("api-paste.ini", HEAT_PASTE)
    assert found["svc.api.openstack.v1:API"] == {"/v1": ("api-paste.ini", 8)}
    assert found["oslo_middleware:Healthcheck.app_factory"] == {"/healthcheck": ("api-paste.ini", 4)}
    # under a prefix the urlmap gives (glance's /v2 behind the same filter), the urlmap's prefix
    mapped = HEAT_PASTE.replace("/: api\n", "/v2: api\n")
    assert app_prefixes("a.ini", mapped)["svc.api.openstack.v1:API"] == {"/v2": ("a.ini", 3)}
    # a filter that negotiates nothing: the root
    named = HEAT_PASTE.replace("versionnegotiation", "requestid").replace("version_negotiation_filter", "rid")
    assert app_prefixes("b.ini", named)["svc.api.openstack.v1:API"] == {"/": ("b.ini", 13)}


def test_a_route_wrapper_of_the_router_its_base_class_sets_up_under_the_paste_prefix(tmp_path, capsys):
    """tacker: `paste.app_factory = svc.api.pkgm.router:PkgmRouter.factory`, a factory the base
    `wsgi.Router` defines (`return cls()`); `PkgmRouter.__init__` calls `super(...).__init__(mapper)`,
    whose `self._setup_routes(mapper)` is the subclass's; that calls `self._setup_route(mapper,
    "/vnf_packages", methods, ...)` after `methods = {"GET": "index", "POST": "create"}`, a wrapper
    connecting `url` once per key: each call a route per method, under the INI's /vnfpkgm/v1. A
    Routes requirement (`{artifact_path:.*?/*.*?}`) is the parameter it is."""
    wsgi = ("class Router(object):\n    @classmethod\n    def factory(cls, global_config, **local_config):\n"
            "        return cls()\n\n    def __init__(self, mapper):\n        self.map = mapper\n"
            "        self._setup_routes(self.map)\n\n    def _setup_routes(self, mapper):\n        pass\n")
    router = '''
import routes

from svc import wsgi


class PkgmRouter(wsgi.Router):
    def __init__(self):
        mapper = routes.Mapper()
        super(PkgmRouter, self).__init__(mapper)

    def _setup_route(self, mapper, url, methods, controller):
        for method, action in methods.items():
            mapper.connect(url, controller=controller, action=action, conditions={'method': [method]})

    def _setup_routes(self, mapper):
        methods = {"GET": "index", "POST": "create"}
        self._setup_route(mapper, "/vnf_packages", methods, None)
        methods = {"GET": "fetch"}
        self._setup_route(mapper, "/vnf_packages/{id}/artifacts/{artifact_path:.*?/*.*?}", methods, None)
        self._setup_route(mapper, "/unknown", lookup(), None)
'''
    files = {"etc/svc/api-paste.ini": ("[composite:svc]\nuse = egg:Paste#urlmap\n/vnfpkgm/v1: pkgm\n\n"
                                       "[app:pkgm]\npaste.app_factory = svc.api.pkgm.router:PkgmRouter.factory\n"),
             "svc/__init__.py": "", "svc/wsgi.py": wsgi, "svc/api/__init__.py": "", "svc/api/pkgm/__init__.py": "",
             "svc/api/pkgm/router.py": router}
    _tree(tmp_path / "tree", files)
    routes = _routes(tmp_path, capsys, tmp_path / "tree")
    assert sorted(routes) == ["GET /vnfpkgm/v1/vnf_packages",
                              "GET /vnfpkgm/v1/vnf_packages/{id}/artifacts/{artifact_path}",
                              "POST /vnfpkgm/v1/vnf_packages"], sorted(routes)
    assert routes["POST /vnfpkgm/v1/vnf_packages"]["source"]["line"] == 18  # the wrapper's call
    # without the super() call nothing sets the routes up for the app: they stay at the app's root
    alone = {**files, "svc/api/pkgm/router.py": router.replace("super(PkgmRouter, self).__init__(mapper)", "pass")}
    _tree(tmp_path / "alone", alone)
    (tmp_path / "a").mkdir()
    assert "GET /vnf_packages" in _routes(tmp_path / "a", capsys, tmp_path / "alone")


_OPENSTACK_BASE = '''
import routes


class ProjectMapper(routes.Mapper):
    def resource(self, member_name, collection_name, **kwargs):
        kwargs['path_prefix'] = '{project_id}/'
        routes.Mapper.resource(self, member_name, collection_name, **kwargs)
        del kwargs['path_prefix']
        routes.Mapper.resource(self, member_name, collection_name, **kwargs)


class APIRouter(object):
    @classmethod
    def factory(cls, global_config, **local_config):
        return cls()

    def __init__(self, ext_mgr=None):
        mapper = ProjectMapper()
        self.resources = {}
        self._setup_routes(mapper)
        self._setup_ext_routes(mapper, ext_mgr)

    def _setup_ext_routes(self, mapper, ext_mgr):
        for resource in ext_mgr.get_resources():
            mapper.resource(resource.collection, resource.collection, controller=resource.controller)

    def _setup_routes(self, mapper):
        raise NotImplementedError()
'''


def _openstack_tree(version: str, router: str) -> dict[str, str]:
    """A service whose INI serves `svc.api.<version>.router:APIRouter.factory` (the base above's) at /<version>."""
    return {"etc/svc/api-paste.ini": (f"[composite:svc]\nuse = egg:Paste#urlmap\n/{version}: api{version}\n\n"
                                      f"[app:api{version}]\n"
                                      f"paste.app_factory = svc.api.{version}.router:APIRouter.factory\n"),
            "svc/__init__.py": "", "svc/api/__init__.py": "", "svc/api/openstack/__init__.py": _OPENSTACK_BASE,
            f"svc/api/{version}/__init__.py": "", f"svc/api/{version}/router.py": router}


def test_a_router_that_inherits_its_factory_and_init_is_served_under_the_paste_prefix(tmp_path, capsys):
    """manila: `paste.app_factory = svc.api.v2.router:APIRouter.factory`, a router whose `factory`
    and `__init__` are its base's (another module's): its own `_setup_routes` is reached, under /v2.
    A connect in `for path_prefix in ['/{project_id}', '']:` is a route per row, its path
    `"%s/shares/{share_id}" "/export_locations" % path_prefix` (a template in two literals); a
    resource with `parent_resource=dict(member_name="type", collection_name="types")` is under the
    parent's member."""
    router = '''
from svc.api import openstack


class APIRouter(openstack.APIRouter):
    def _setup_routes(self, mapper):
        for path_prefix in ['/{project_id}', '']:
            mapper.connect("shares",
                           "%s/shares/{share_id}"
                           "/export_locations" % path_prefix,
                           controller=None, action="index", conditions={"method": ["GET"]})
        mapper.resource("extra_spec", "extra_specs", controller=self.resources["extra_specs"],
                        parent_resource=dict(member_name="type", collection_name="types"))
'''
    files = _openstack_tree("v2", router)
    _tree(tmp_path / "tree", files)
    routes = _routes(tmp_path, capsys, tmp_path / "tree")
    specs = ["GET /v2/types/{type_id}/extra_specs",
             "GET /v2/types/{type_id}/extra_specs/{id}", "DELETE /v2/types/{type_id}/extra_specs/{id}"]
    assert {"GET /v2/shares/{share_id}/export_locations", "GET /v2/{project_id}/shares/{share_id}/export_locations",
            *specs} <= set(routes), sorted(routes)
    assert "GET /v2/extra_specs" not in routes and "GET /extra_specs" not in routes
    # what the inherited __init__ calls is what is served there: without its call, the routes stay at the root
    alone = {**files, "svc/api/openstack/__init__.py": _OPENSTACK_BASE.replace(
        "        self._setup_routes(mapper)\n", "")}
    _tree(tmp_path / "alone", alone)
    (tmp_path / "a").mkdir()
    assert "GET /shares/{share_id}/export_locations" in _routes(tmp_path / "a", capsys, tmp_path / "alone")


def test_openstack_resource_extensions_are_served_where_the_router_that_loads_them_is(tmp_path, capsys):
    """cinder, masakari: an extension's `get_resources()` returns `ResourceExtension(alias,
    Controller(), collection_actions={'detail': 'GET'}, member_actions={'accept': 'POST'})` (or with
    `parent=` a dict bound before it); the router reached from the INI's app asks the extension
    manager for them (`ext_mgr.get_resources()`) and maps them on its ProjectMapper: each is served
    under /v3, with `{project_id}/` and without. Only the standard routes whose action the
    controller defines are served (its `index` and `accept`, no `update`)."""
    router = '''
from svc.api import openstack


class APIRouter(openstack.APIRouter):
    def _setup_routes(self, mapper):
        pass
'''
    transfer = '''
from svc.api import extensions
from svc.api.openstack import wsgi


class TransferController(wsgi.Controller):
    def index(self, req):
        pass

    def show(self, req, id):
        pass

    def create(self, req, body):
        pass

    def delete(self, req, id):
        pass

    def accept(self, req, id, body):
        pass


class HostsController(wsgi.Controller):
    def index(self, req, segment_id):
        pass


class Volume_transfer(extensions.ExtensionDescriptor):
    alias = "os-volume-transfer"

    def get_resources(self):
        parent = {'member_name': 'segment', 'collection_name': 'segments'}
        return [extensions.ResourceExtension(Volume_transfer.alias, TransferController(),
                                             collection_actions={'detail': 'GET'},
                                             member_actions={'accept': 'POST'}),
                extensions.ResourceExtension('hosts', HostsController(), parent=parent, member_name='host')]
'''
    files = {**_openstack_tree("v3", router), "svc/api/extensions.py": "class ResourceExtension(object):\n    pass\n",
             "svc/api/contrib/__init__.py": "", "svc/api/contrib/volume_transfer.py": transfer}
    _tree(tmp_path / "tree", files)
    routes = _routes(tmp_path, capsys, tmp_path / "tree")
    served = sorted(n for n in routes if "transfer" in n or "hosts" in n)
    want = {"GET /v3/os-volume-transfer", "GET /v3/{project_id}/os-volume-transfer", "POST /v3/os-volume-transfer",
            "GET /v3/os-volume-transfer/detail", "POST /v3/os-volume-transfer/{id}/accept",
            "GET /v3/os-volume-transfer/{id}", "DELETE /v3/os-volume-transfer/{id}",
            "GET /v3/segments/{segment_id}/hosts", "GET /v3/{project_id}/segments/{segment_id}/hosts"}
    assert want <= set(served), served
    assert not [n for n in served if n.startswith("PUT ") or n.endswith("hosts/{id}")], served
    # karbor's ProjectMapper maps each resource once, under `{project_id}/` only
    once = {**files, "svc/api/openstack/__init__.py": _OPENSTACK_BASE.replace(
        "        del kwargs['path_prefix']\n"
        "        routes.Mapper.resource(self, member_name, collection_name, **kwargs)\n",
        "")}
    _tree(tmp_path / "once", once)
    (tmp_path / "o").mkdir()
    projected = _routes(tmp_path / "o", capsys, tmp_path / "once")
    assert "GET /v3/{project_id}/os-volume-transfer" in projected and "GET /v3/os-volume-transfer" not in projected
    # a router that never asks for the extensions' resources: they are not served under its prefix
    quiet = {**files, "svc/api/openstack/__init__.py": _OPENSTACK_BASE.replace("ext_mgr.get_resources()", "[]")}
    _tree(tmp_path / "quiet", quiet)
    (tmp_path / "q").mkdir()
    alone = _routes(tmp_path / "q", capsys, tmp_path / "quiet")
    assert "GET /os-volume-transfer" in alone and not any(n.startswith("GET /v3/os-volume") for n in alone)


def test_resource_extensions_a_pipeline_filter_serves_under_the_pipelines_prefix(tmp_path, capsys):
    """trove: the extensions are mapped by a filter of the pipeline (`extensions troveapp`, whose
    `paste.filter_factory = svc.common.extensions:factory` makes the `ExtensionMiddleware` asking
    the manager for them): they are served under the pipeline's /v1.0; a parent collection may be a
    path (`'{tenant_id}/instances'`)."""
    middleware = '''
import routes


class ExtensionMiddleware(object):
    def __init__(self, application, ext_mgr=None):
        mapper = routes.Mapper()
        for resource_ext in ext_mgr.get_resources():
            mapper.resource(resource_ext.collection, resource_ext.collection)


def factory(global_config, **local_config):
    def _factory(app):
        return ExtensionMiddleware(app)
    return _factory
'''
    mysql = '''
from svc.common import extensions


class SchemaController(object):
    def index(self, req, tenant_id, instance_id):
        pass


class Mysql(object):
    def get_resources(self):
        return [extensions.ResourceExtension(
            'databases', SchemaController(),
            parent={'member_name': 'instance', 'collection_name': '{tenant_id}/instances'})]
'''
    ini = ("[composite:svc]\nuse = egg:Paste#urlmap\n/v1.0: api\n\n"
           "[pipeline:api]\npipeline = authtoken extensions app\n\n"
           "[filter:authtoken]\npaste.filter_factory = keystonemiddleware.auth_token:filter_factory\n\n"
           "[filter:extensions]\npaste.filter_factory = svc.common.extensions:factory\n\n"
           "[app:app]\npaste.app_factory = svc.api:app_factory\n")
    files = {"etc/svc/api-paste.ini": ini, "svc/__init__.py": "", "svc/api.py": "def app_factory(conf):\n    pass\n",
             "svc/common/__init__.py": "", "svc/common/extensions.py": middleware,
             "svc/extensions/__init__.py": "", "svc/extensions/mysql.py": mysql}
    _tree(tmp_path / "tree", files)
    routes = _routes(tmp_path, capsys, tmp_path / "tree")
    assert "GET /v1.0/{tenant_id}/instances/{instance_id}/databases" in routes, sorted(routes)
    # the filter out of the pipeline: nothing serves the extensions under /v1.0
    without = ini.replace("authtoken extensions app", "authtoken app")
    _tree(tmp_path / "out", {**files, "etc/svc/api-paste.ini": without})
    (tmp_path / "o").mkdir()
    assert "GET /{tenant_id}/instances/{instance_id}/databases" in _routes(tmp_path / "o", capsys, tmp_path / "out")


def test_a_mappers_own_method_called_with_a_path_and_a_method_is_a_route(tmp_path, capsys):
    """cinder: `mapper.create_route('/clusters/detail', 'GET', controller, 'detail')`, its APIMapper's
    method connecting the path for that method; a mapper call without a method after the path
    (`mapper.redirect('/old', '/new')`) is none."""
    router = '''
import routes

from svc.api import openstack


class APIRouter(openstack.APIRouter):
    def _setup_routes(self, mapper):
        mapper.create_route('/clusters', 'GET', self.resources['clusters'], 'index')
        mapper.create_route('/clusters/enable', 'PUT', self.resources['clusters'], 'enable')
        mapper.redirect('/old', '/new')
'''
    _tree(tmp_path / "tree", _openstack_tree("v3", router))
    routes = _routes(tmp_path, capsys, tmp_path / "tree")
    assert sorted(routes) == ["GET /v3/clusters", "PUT /v3/clusters/enable"], sorted(routes)


def test_a_table_of_paths_and_methods_two_loops_hand_to_the_mappers_method(tmp_path, capsys):
    """nova: `ROUTE_LIST = (('/flavors', {'GET': [...], 'POST': [...]}), ...)`, registered by `for
    path, methods in ROUTE_LIST + custom_routes:` and `for method, info in methods.items():
    self.map.create_route(path, method, ...)`: a route per key of each row (a redirect row, a
    string, is none), at the row's line; a module that imports no Routes at all."""
    router = '''
import nova.api.openstack

ROUTE_LIST = (
    ('', '/'),
    ('/flavors', {
        'GET': [flavor_controller, 'index'],
        'POST': [flavor_controller, 'create']
    }),
    ('/flavors/{id}', {
        'DELETE': [flavor_controller, 'delete'],
    }),
)


class APIRouterV21(object):
    def __init__(self, custom_routes=None):
        if custom_routes is None:
            custom_routes = tuple()
        for path, methods in ROUTE_LIST + custom_routes:
            if isinstance(methods, str):
                self.map.redirect(path, methods)
                continue
            for method, controller_info in methods.items():
                controller = controller_info[0]()
                self.map.create_route(path, method, controller, controller_info[1])
'''
    _tree(tmp_path / "tree", {"nova/__init__.py": "", "nova/api/__init__.py": "", "nova/api/routes.py": router})
    routes = _routes(tmp_path, capsys, tmp_path / "tree")
    assert sorted(routes) == ["DELETE /flavors/{id}", "GET /flavors", "POST /flavors"], sorted(routes)
    assert routes["POST /flavors"]["source"]["line"] == 6  # the row


def test_a_falcon_apps_dict_of_controllers_under_the_prefix_a_paste_urlmap_gives(tmp_path, capsys):
    """monasca-log-api: `controllers = {'/': ctrl, '/version/{version_id}': ctrl}` with `ctrl =
    versions.Versions()`, registered by `for route, ctrl in controllers.items(): app.add_route(route,
    ctrl)`; the healthcheck app's under `/healthcheck` of `[composite:main]`, although the INI also
    has a `[server:main]` (how to serve it, not a part of it). A dict a branch fills is not read."""
    ini = ("[DEFAULT]\nname = main\n\n[composite:main]\nuse = egg:Paste#urlmap\n/: la_version\n"
           "/healthcheck: la_healthcheck\n\n[pipeline:la_version]\npipeline = versionapp\n\n"
           "[pipeline:la_healthcheck]\npipeline = healthcheckapp\n\n"
           "[app:versionapp]\npaste.app_factory = svc.api:create_version_app\n\n"
           "[app:healthcheckapp]\npaste.app_factory = svc.api:create_healthcheck_app\n\n"
           "[server:main]\nuse = egg:gunicorn#main\nbind = 127.0.0.1:5607\n")
    api = '''
        import falcon

        from svc import healthchecks, versions


        def create_version_app(global_conf, **local_conf):
            ctrl = versions.Versions()
            controllers = {'/': ctrl, '/version/{version_id}': ctrl}
            app = falcon.App()
            for route, ctrl in controllers.items():
                app.add_route(route, ctrl)
            return app


        def create_healthcheck_app(global_conf, **local_conf):
            controllers = {'/': healthchecks.HealthChecks()}
            app = falcon.App()
            for route, ctrl in controllers.items():
                app.add_route(route, ctrl)
            return app


        def create_other_app(global_conf, **local_conf):
            controllers = {}
            if global_conf:
                controllers.update({'/other': versions.Versions()})
            app = falcon.App()
            for route, ctrl in controllers.items():
                app.add_route(route, ctrl)
            return app
        '''
    root = tmp_path / "svc"
    _tree(root, {
        "pyproject.toml": '[project]\nname = "svc"\nversion = "1.0"\ndependencies = ["falcon>=3"]\n',
        "etc/svc/svc-paste.ini": ini, "svc/__init__.py": "", "svc/api.py": api,
        "svc/versions.py": "class Versions:\n    def on_get(self, req, resp, version_id=None):\n        pass\n",
        "svc/healthchecks.py": ("class HealthChecks:\n    def on_get(self, req, resp):\n        pass\n\n"
                                "    def on_head(self, req, resp):\n        pass\n"),
    })
    assert sorted(_routes(tmp_path, capsys, root)) == ["GET /", "GET /healthcheck", "GET /version/{version_id}",
                                                       "HEAD /healthcheck"]


def test_modules_of_tornado_handlers_a_server_loads_by_name(tmp_path, capsys):
    """thumbor's handler_lists: `def get_handlers(context) -> HandlerList: return [(r"/image",
    ImageUploadHandler, {...}), (r"/image/(.*)", ImageResourceHandler)]`, and one whose path is a
    setting (`url = cast(str, context.config.HEALTHCHECK_ROUTE)`, declared `Config.define(
    "HEALTHCHECK_ROUTE", r"/healthcheck/?", ...)`): the modules the configuration names are loaded
    at run time, their lists served. A list of other things a get_handlers returns is none."""
    handlers = '''
        import tornado.web


        class ImageUploadHandler(tornado.web.RequestHandler):
            def post(self):
                pass


        class ImageResourceHandler(tornado.web.RequestHandler):
            def get(self, id):
                pass

            def delete(self, id):
                pass


        class HealthcheckHandler(tornado.web.RequestHandler):
            def get(self):
                pass
        '''
    root = tmp_path / "thumb"
    _tree(root, {
        "pyproject.toml": '[project]\nname = "thumb"\nversion = "1.0"\ndependencies = ["tornado"]\n',
        "thumb/__init__.py": "", "thumb/handlers.py": handlers,
        "thumb/config.py": ("Config.define(\n    'HEALTHCHECK_ROUTE', r'/healthcheck/?', 'Healthcheck route.',"
                            " 'Health'\n)\n"),
        "thumb/handler_lists/__init__.py": "",
        "thumb/handler_lists/upload.py": ('''
            from thumb.handlers import ImageResourceHandler, ImageUploadHandler


            def get_handlers(context):
                return [
                    (r"/image", ImageUploadHandler, {"context": context}),
                    (r"/image/(.*)", ImageResourceHandler, {"context": context}),
                ]
            '''),
        "thumb/handler_lists/healthcheck.py": ('''
            from typing import cast

            from thumb.handlers import HealthcheckHandler


            def get_handlers(context):
                url = cast(str, context.config.HEALTHCHECK_ROUTE)
                return [(url, HealthcheckHandler)]
            '''),
        "thumb/handler_lists/other.py": "def get_handlers(context):\n    return [('/x', 'not a handler')]\n",
    })
    assert sorted(_routes(tmp_path, capsys, root)) == ["DELETE /image/{arg1}", "GET /healthcheck", "GET /image/{arg1}",
                                                       "POST /image"]
