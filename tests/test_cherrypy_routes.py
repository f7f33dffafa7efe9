"""CherryPy's object trees (miners/cherrypy_routes.py), mined through the CLI."""

from __future__ import annotations

from tests.conftest import mined_routes

APP = '''import cherrypy
from cherrypy import expose


class Documents:
    exposed = True

    def GET(self, doc_id):
        return ""

    def POST(self):
        return ""

    def helper(self):
        return ""


class Api:
    documents = Documents()

    @expose
    def index(self):
        return ""

    @cherrypy.expose
    @cherrypy.tools.allow(methods=["POST"])
    def upload(self, namespace, name=None, **kwargs):
        return ""

    def status(self):
        return ""
    status.exposed = True


class Root:
    def __init__(self, store):
        self.api = Api()
        self.store = store

    @cherrypy.expose
    def documents(self, *args):
        return ""

    @cherrypy.expose
    def default(self, *args):
        return ""

    def _private(self):
        return ""

    def unexposed(self):
        return ""


class Admin:
    @cherrypy.expose
    def index(self):
        return ""


class Unmounted:
    @cherrypy.expose
    def nowhere(self):
        return ""


if __name__ == "__main__":
    root = Root(None)
    root.admin = Admin()
    cherrypy.tree.mount(None, "/static", {})
    cherrypy.quickstart(root, "/app", {"/api/documents": {"request.dispatch": cherrypy.dispatch.MethodDispatcher()}})
'''


def test_a_cherrypy_tree_serves_its_exposed_methods_under_the_attributes_that_hold_them(tmp_path, capsys):
    routes = mined_routes(tmp_path, capsys, {"svc/__init__.py": "", "svc/server.py": APP})
    assert sorted(routes) == [
        "ANY /app/*",  # Root.default: whatever nothing else takes
        "ANY /app/admin/",  # root.admin = Admin() on the mounted instance
        "ANY /app/api/",
        "ANY /app/api/status",  # status.exposed = True
        "ANY /app/documents", "ANY /app/documents/*",  # *args: the segments after it, any number
        "GET /app/api/documents/{doc_id}", "POST /app/api/documents",  # MethodDispatcher's resource
        "POST /app/api/upload/{namespace}",  # tools.allow; a parameter with a default is a query's
    ], sorted(routes)
    assert routes["POST /app/api/upload/{namespace}"]["symbol"].endswith("Api.upload")


def test_a_cherrypy_class_nothing_mounts_serves_nothing(tmp_path, capsys):
    source = APP.split('if __name__')[0] + "app = cherrypy.Application(Admin(), '/admin')\n"
    assert sorted(mined_routes(tmp_path, capsys, {"svc/__init__.py": "", "svc/server.py": source})) == [
        "ANY /admin/"]


def test_a_tree_a_routes_mapper_dispatches_is_not_walked(tmp_path, capsys):
    """zuul: `route_map = cherrypy.dispatch.RoutesDispatcher()`, `route_map.connect(...)` and the
    tree mounted with `{'request.dispatch': route_map}`: the mapper's routes are what it serves,
    not its controller's exposed methods by name."""
    source = APP.split('if __name__')[0] + (
        "route_map = cherrypy.dispatch.RoutesDispatcher()\n"
        "cherrypy.tree.mount(Admin(), '/admin', {'/': {'request.dispatch': route_map}})\n")
    assert mined_routes(tmp_path, capsys, {"svc/__init__.py": "", "svc/server.py": source}) == {}


def test_only_the_mounted_instance_gains_the_children_a_module_sets_on_it(tmp_path, capsys):
    """`other.secret = Admin()` on another instance of the root's class is no child of the tree
    the mount is handed."""
    source = APP.split('if __name__')[0] + (
        "root = Root(None)\nroot.admin = Admin()\nother = Root(None)\nother.secret = Admin()\n"
        "cherrypy.quickstart(root, '/')\n")
    routes = mined_routes(tmp_path, capsys, {"svc/__init__.py": "", "svc/server.py": source})
    assert "ANY /admin/" in routes
    assert not [name for name in routes if "secret" in name], sorted(routes)


def test_handler_parameters_typed_splats_positional_only_and_static_methods(tmp_path, capsys):
    source = '''import cherrypy


class Root:
    @cherrypy.expose
    def page(self, *args: str):
        return ""

    @cherrypy.expose
    def item(self, item_id, /, part):
        return ""

    @cherrypy.expose
    @staticmethod
    def stat(x):
        return ""


cherrypy.quickstart(Root(), "/")
'''
    routes = mined_routes(tmp_path, capsys, {"svc/__init__.py": "", "svc/server.py": source})
    assert sorted(routes) == ["ANY /item/{item_id}/{part}", "ANY /page", "ANY /page/*", "ANY /stat/{x}"], sorted(routes)
