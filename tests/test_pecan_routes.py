"""Routes of Pecan applications (object dispatch): a controller tree joined across modules through
imports, RestController verbs and custom actions, generic methods, the root an app names or,
without one, the controllers no other holds. Mined from real trees through the CLI."""

from __future__ import annotations

from conftest import mined_routes
from miners.pecan_routes import UNMOUNTED, VERSION_GUESS

NAMED_ROOT = {
    "pyproject.toml": '[project]\nname = "svc"\nversion = "1.0"\ndependencies = ["pecan"]\n',
    "svc/__init__.py": "",
    "svc/api/__init__.py": "",
    "svc/api/app.py": "import pecan\n\n\ndef setup_app():\n    return pecan.make_app('svc.api.root.RootController')\n",
    "svc/api/root.py": (
        "import pecan\n\nfrom svc.api.v1 import controllers as v1\n\n\nclass RootController(object):\n"
        "    v1 = v1.V1Controller()\n\n    @pecan.expose('json')\n    def index(self):\n        return {}\n\n"
        "    @pecan.expose(generic=True)\n    def login(self):\n        return 'form'\n\n"
        "    @login.when(method='POST')\n    def login_post(self):\n        return 'ok'\n\n"
        "    @pecan.expose()\n    def _lookup(self, *remainder):\n        return None\n\n"
        "    def plain(self):  # not exposed\n        return 1\n"),
    "svc/api/v1/__init__.py": "",
    "svc/api/v1/base.py": "from pecan import rest\n\n\nclass Base(rest.RestController):\n    pass\n",
    "svc/api/v1/controllers.py": (
        "import pecan\nimport wsmeext.pecan as wsme_pecan\n\nfrom svc.api.v1.base import Base\n\n\n"
        "class ItemsController(Base):\n    _custom_actions = {'count': ['GET'], 'start': ['POST']}\n\n"
        "    @pecan.expose('json')\n    def get_all(self):\n        return []\n\n"
        "    @pecan.expose('json')\n    def get_one(self, item_id):\n        return {}\n\n"
        "    @pecan.expose('json')\n    def post(self, **kwargs):\n        return {}\n\n"
        "    @pecan.expose('json')\n    def delete(self, item_id, force=False):\n        return None\n\n"
        "    @pecan.expose('json')\n    def count(self):\n        return 0\n\n"
        "    @pecan.expose('json')\n    def helper(self):  # neither a verb nor a custom action\n        return 0\n\n"
        "    @wsme_pecan.wsexpose(Item, types.uuid, body=[PatchType])\n"
        "    def patch(self, item_id, patch):  # the last parameter takes the body\n        return {}\n\n"
        "    @pecan.expose('json')\n    def start(self, item_id):  # a custom action of one item\n"
        "        return {}\n\n\n"
        "class V1Controller(object):\n    items = ItemsController()\n"),
    "svc/api/unused.py": (  # a controller no root reaches: the app names its root, so it is served nowhere
        "import pecan\n\n\nclass OrphanController(object):\n    @pecan.expose()\n    def index(self):\n"
        "        return ''\n"),
}


def test_a_pecan_tree_from_the_root_the_app_names(tmp_path, capsys):
    routes = mined_routes(tmp_path, capsys, NAMED_ROOT)
    assert sorted(routes) == ["ANY /", "DELETE /v1/items/{item_id}", "GET /login", "GET /v1/items",
                              "GET /v1/items/count", "GET /v1/items/{item_id}", "PATCH /v1/items/{item_id}",
                              "POST /login", "POST /v1/items", "POST /v1/items/{item_id}/start"]
    item = routes["GET /v1/items/{item_id}"]
    assert item["source"]["path"] == "svc/api/v1/controllers.py" and item["source"]["line"] == 15
    assert item["symbol"] == "ItemsController.get_one"
    assert {"kind": "route", "path": "svc/api/root.py", "line": 7,
            "detail": "pecan: RootController.v1 = V1Controller()"} in item["evidence"]
    assert not any(u.startswith("served below") for u in item["unknowns"])


def test_without_a_named_root_the_unheld_controllers_are_roots_and_that_is_said(tmp_path, capsys):
    routes = mined_routes(tmp_path, capsys, {
        "pyproject.toml": '[project]\nname = "watch"\nversion = "1.0"\n',
        "watch/__init__.py": "",
        "watch/controllers/__init__.py": "",
        "watch/controllers/root.py": (
            "import pecan\n\n\nclass VersionsController(object):\n    @staticmethod\n    @pecan.expose('json')\n"
            "    def index():\n        return {}\n"),
        "watch/controllers/v1/__init__.py": "",
        # holds controllers only, and imports no pecan (the deployment's Paste file mounts it)
        "watch/controllers/v1/root.py": (
            "from watch.controllers.v1 import status\n\n\nclass V1Controller(object):\n"
            "    status = status.StatusController()\n"),
        "watch/controllers/v1/status.py": (
            "import pecan\nfrom pecan import rest\n\n\nclass StatusController(rest.RestController):\n"
            "    @pecan.expose('json')\n    def get(self, name):\n        return {}\n"),
    })
    assert sorted(routes) == ["ANY /", "GET /v1/status", "GET /v1/status/{name}"]
    note = UNMOUNTED.format(root="V1Controller", guess=VERSION_GUESS.format(prefix="/v1"))
    assert note in routes["GET /v1/status"]["unknowns"]
    assert UNMOUNTED.format(root="VersionsController", guess="") in routes["ANY /"]["unknowns"]


def test_a_rest_controllers_sub_controller_after_the_items_id_when_its_methods_take_it(tmp_path, capsys):
    """magnum's ClustersController.actions = ActionsController(), whose `resize(self, cluster_ident)`
    takes the cluster pecan read from `/clusters/{cluster_ident}/actions/resize`; a sub-controller
    whose methods take no such id (vitrage's `/alarm/count`) sits right below its parent."""
    routes = mined_routes(tmp_path, capsys, {
        "pyproject.toml": '[project]\nname = "mag"\nversion = "1.0"\ndependencies = ["pecan"]\n',
        "mag/__init__.py": "",
        "mag/app.py": "import pecan\n\n\ndef setup_app():\n    return pecan.make_app('mag.root.RootController')\n",
        "mag/root.py": (
            "import pecan\nfrom pecan import rest\n\n\n"
            "class ActionsController(rest.RestController):\n    _custom_actions = {'resize': ['POST']}\n\n"
            "    @pecan.expose('json')\n    def resize(self, cluster_ident):\n        return {}\n\n\n"
            "class NodeGroupController(rest.RestController):\n"
            "    @pecan.expose('json')\n    def get_all(self, cluster_id):\n        return []\n\n"
            "    @pecan.expose('json')\n    def get_one(self, cluster_id, nodegroup_id):\n        return {}\n\n\n"
            "class CountController(rest.RestController):\n"
            "    @pecan.expose('json')\n    def get(self, all_tenants=False):\n        return 0\n\n\n"
            "class ClustersController(rest.RestController):\n    actions = ActionsController()\n"
            "    nodegroups = NodeGroupController()\n    count = CountController()\n"
            "    _custom_actions = {'rename': ['POST']}\n\n"
            "    @pecan.expose('json')\n    def get_one(self, cluster_ident):\n        return {}\n\n"
            "    @pecan.expose('json')\n    def rename(self, cluster_ident, name):  # name: from the query\n"
            "        return {}\n\n\n"
            "class RootController(object):\n    clusters = ClustersController()\n"),
    })
    assert sorted(routes) == ["GET /clusters/count", "GET /clusters/{cluster_ident}",
                              "GET /clusters/{cluster_ident}/nodegroups",
                              "GET /clusters/{cluster_ident}/nodegroups/{nodegroup_id}",
                              "POST /clusters/{cluster_ident}/actions/resize",
                              "POST /clusters/{cluster_ident}/rename"]  # (one item: get_one's one parameter)


BARBICAN_LIKE = {
    "pyproject.toml": '[project]\nname = "keys"\nversion = "1.0"\ndependencies = ["pecan"]\n',
    "keys/__init__.py": "",
    "keys/api/__init__.py": "",
    "keys/api/controllers/__init__.py": (  # a decorator that inserts the project id as the first argument
        "import pecan\n\n\ndef enforce_rbac(action):\n    def deco(fn):\n        def enforcer(inst, *args, **kwargs):\n"
        "            args = list(args)\n            args.insert(0, pecan.request.project)\n"
        "            return fn(inst, *args, **kwargs)\n        return enforcer\n    return deco\n\n\n"
        "def logged(fn):\n    def wrapper(inst, *args, **kwargs):\n        return fn(inst, *args, **kwargs)\n"
        "    return wrapper\n"),
    "keys/api/controllers/acls.py": (
        "import pecan\n\nfrom keys.api import controllers\n\n\nclass AclsController(object):\n"
        "    def __init__(self, secret):\n        self.secret = secret\n\n"
        "    @pecan.expose(generic=True)\n    def index(self, **kwargs):\n        pecan.abort(405)\n\n"
        "    @index.when(method='PUT')\n    @controllers.enforce_rbac('acl:put')\n"
        "    def on_put(self, project_id, **kwargs):\n        return {}\n"),
    "keys/api/controllers/secrets.py": (
        "import pecan\n\nfrom keys.api import controllers\nfrom keys.api.controllers import acls\n\n\n"
        "class SecretController(object):\n    def __init__(self, secret):\n        self.secret = secret\n\n"
        "    @pecan.expose()\n    def _lookup(self, sub_resource, *remainder):\n"
        "        if sub_resource == 'acl':\n            return acls.AclsController(self.secret), remainder\n"
        "        pecan.abort(404)\n\n"
        "    @pecan.expose(generic=True)\n    def index(self, **kwargs):\n        pecan.abort(405)\n\n"
        "    @index.when(method='GET')\n    @controllers.enforce_rbac('secret:get')\n"
        "    def on_get(self, project_id, **kwargs):\n        return {}\n\n"
        "    @pecan.expose()\n    @controllers.logged\n    def payload(self, fmt):  # no inserting decorator: fmt is a segment\n"
        "        return ''\n\n\n"
        "class SecretsController(object):\n"
        "    @pecan.expose()\n    def _lookup(self, secret_id, *remainder):\n"
        "        if len(remainder) > 0 and remainder[0] == 'versions':\n"
        "            return VersionsController(secret_id), ()\n"
        "        return SecretController(secret_id), remainder\n\n"
        "    @pecan.expose(generic=True)\n    def index(self, kind):\n        pecan.abort(405)\n\n"
        "    @index.when(method='POST')\n    def on_post(self, body):  # segments go to _lookup, not to index\n"
        "        return {}\n\n\n"
        "class VersionsController(object):\n    def __init__(self, secret_id):\n        self.secret_id = secret_id\n\n"
        "    @pecan.expose()\n    def index(self):\n        return []\n\n\n"
        "class StoresController(object):\n    @pecan.expose()\n    def index(self):\n        return []\n\n\n"
        "class V1Controller(object):\n    def __init__(self):\n        self.secrets = SecretsController()\n"
        "        setattr(self, 'secret-stores', StoresController())\n"),
}


def test_controllers_held_by_init_and_lookup_with_decorator_inserted_arguments(tmp_path, capsys):
    """barbican's tree: children made in `__init__` (and by `setattr` for a segment with a dash),
    `_lookup(self, secret_id, *remainder)` handing on to a controller at `{secret_id}` or, where it
    compares the segment (`sub_resource == 'acl'`, `remainder[0] == 'versions'`), at that literal;
    a generic `index` in a controller that has `_lookup` takes no segments; a parameter a package
    decorator inserts (`args.insert(0, project)`) takes none either; a `when(method='GET')` handler
    answers GET in place of the generic method's own body."""
    routes = mined_routes(tmp_path, capsys, BARBICAN_LIKE)
    assert sorted(routes) == ["ANY /v1/secret-stores", "ANY /v1/secrets/{secret_id}/payload/{fmt}",
                              "ANY /v1/secrets/{secret_id}/versions", "GET /v1/secrets",
                              "GET /v1/secrets/{secret_id}", "GET /v1/secrets/{secret_id}/acl", "POST /v1/secrets",
                              "PUT /v1/secrets/{secret_id}/acl"]
    get = routes["GET /v1/secrets/{secret_id}"]
    assert get["symbol"] == "SecretController.index" and get["source"]["line"] == 23  # the handler
    steps = [e["detail"] for e in get["evidence"] if e["kind"] == "route"]
    assert "pecan: SecretsController._lookup(secret_id) returns SecretController()" in steps
    assert "pecan: V1Controller.secrets = SecretsController()" in steps


def test_controllers_init_sets_from_a_table_of_segments(tmp_path, capsys):
    """tricircle: `self.sub_controllers = {"pods": pod.PodsController(), ...}`, then `for name, ctrl
    in self.sub_controllers.items(): setattr(self, name, ctrl)`: each key the segment of its
    controller; a loop that sets nothing from the table holds nothing."""
    v1 = BARBICAN_LIKE["keys/api/controllers/secrets.py"].replace(
        "        self.secrets = SecretsController()\n        setattr(self, 'secret-stores', StoresController())\n",
        "        self.sub_controllers = {\n            'secrets': SecretsController(),\n"
        "            'secret-stores': StoresController(),\n        }\n"
        "        for name, ctrl in self.sub_controllers.items():\n            setattr(self, name, ctrl)\n")
    assert v1 != BARBICAN_LIKE["keys/api/controllers/secrets.py"]
    routes = mined_routes(tmp_path, capsys, {**BARBICAN_LIKE, "keys/api/controllers/secrets.py": v1})
    assert {"ANY /v1/secret-stores", "GET /v1/secrets", "POST /v1/secrets"} <= set(routes), sorted(routes)
    unset = v1.replace("setattr(self, name, ctrl)", "print(name, ctrl)")
    routes = mined_routes(tmp_path / "unset", capsys, {**BARBICAN_LIKE, "keys/api/controllers/secrets.py": unset})
    assert not any(r.startswith(("GET /v1/secrets", "ANY /v1/secret-stores")) for r in routes), sorted(routes)


def test_a_rest_controllers_lookup_by_an_alias_of_the_next_segment_and_no_dispatch_run_twice(tmp_path, capsys):
    """octavia's LoadBalancersController (a RestController) binds `controller = remainder[0]` and
    hands `status`/`statuses` and `failover` on: at `/loadbalancers/{id}/status` (not after the
    item's id a second time). FailoverController extends LoadBalancersController: it serves its
    own methods, and the _lookup it inherits is not followed again below it. A child wrapped in
    parentheses for its length is a child all the same."""
    routes = mined_routes(tmp_path, capsys, {
        "pyproject.toml": '[project]\nname = "lb"\nversion = "1.0"\ndependencies = ["pecan"]\n',
        "lb/__init__.py": "",
        "lb/app.py": "import pecan\n\n\ndef setup_app():\n    return pecan.make_app('lb.root.RootController')\n",
        "lb/root.py": (
            "import pecan\nfrom pecan import rest\n\n\n"
            "class LoadBalancersController(rest.RestController):\n"
            "    @pecan.expose('json')\n    def get_one(self, id):\n        return {}\n\n"
            "    @pecan.expose()\n    def _lookup(self, id, *remainder):\n"
            "        if id and remainder:\n            controller = remainder[0]\n            remainder = remainder[1:]\n"
            "            if controller in ('status', 'statuses'):\n                return StatusController(lb_id=id), remainder\n"
            "            if controller == 'failover':\n                return FailoverController(lb_id=id), remainder\n"
            "        return None\n\n\n"
            "class StatusController(rest.RestController):\n"
            "    @pecan.expose('json')\n    def get(self):\n        return {}\n\n\n"
            "class FailoverController(LoadBalancersController):\n"
            "    def __init__(self, lb_id):\n        self.lb_id = lb_id\n\n"
            "    @pecan.expose('json')\n    def put(self, **kw):\n        return None\n\n\n"
            "class V2Controller(object):\n    def __init__(self):\n"
            "        self.loadbalancers = (\n            LoadBalancersController())\n\n\n"
            "class RootController(object):\n    v2 = V2Controller()\n"),
    })
    assert sorted(routes) == ["GET /v2/loadbalancers/{id}", "GET /v2/loadbalancers/{id}/failover/{id}",
                              "GET /v2/loadbalancers/{id}/status", "GET /v2/loadbalancers/{id}/statuses",
                              "PUT /v2/loadbalancers/{id}/failover"]


def test_a_lookup_that_names_the_segment_after_the_item(tmp_path, capsys):
    """mistral's `_lookup(self, identifier, sub_resource, *remainder)`: `sub_resource == 'members'`
    hands `/workflows/{identifier}/members` on to the members controller."""
    routes = mined_routes(tmp_path, capsys, {
        "pyproject.toml": '[project]\nname = "wf"\nversion = "1.0"\ndependencies = ["pecan"]\n',
        "wf/__init__.py": "",
        "wf/app.py": "import pecan\n\n\ndef setup_app():\n    return pecan.make_app('wf.root.RootController')\n",
        "wf/root.py": (
            "import pecan\nfrom pecan import rest\n\n\nclass MembersController(rest.RestController):\n"
            "    def __init__(self, kind, identifier):\n        self.identifier = identifier\n\n"
            "    @pecan.expose('json')\n    def get_all(self):\n        return []\n\n\n"
            "class WorkflowsController(rest.RestController):\n"
            "    @pecan.expose()\n    def _lookup(self, identifier, sub_resource, *remainder):\n"
            "        if sub_resource == 'members':\n            return MembersController('workflow', identifier), remainder\n"
            "        return super()._lookup(identifier, sub_resource, *remainder)\n\n"
            "    @pecan.expose('json')\n    def get_all(self):\n        return []\n\n\n"
            "class RootController(object):\n    workflows = WorkflowsController()\n"),
    })
    assert sorted(routes) == ["GET /workflows", "GET /workflows/{identifier}/members"]


# designate's shape: the package's own RestController routes each verb to methods it names
# (`_find_controller('post_all', 'post')`), and a Paste Deploy file serves the app whose factory
# names the root under /v2, through an auth-strategy composite (`use = call:...`, a pipeline each)
PASTE_ROOT = {
    "pyproject.toml": '[project]\nname = "dns"\nversion = "1.0"\ndependencies = ["pecan", "PasteDeploy"]\n',
    "etc/api-paste.ini": (
        "[composite:main]\nuse = egg:Paste#urlmap\n/: versions\n/v2: dns_v2\n\n"
        "[app:versions]\npaste.app_factory = dns.api.versions:factory\n\n"
        "[composite:dns_v2]\nuse = call:dns.api.middleware:auth_pipeline_factory\n"
        "noauth = cors faultwrapper dns_app_v2\nkeystone = cors authtoken dns_app_v2\n\n"
        "[app:dns_app_v2]\npaste.app_factory = dns.api.v2:factory\n\n"
        "[filter:cors]\npaste.filter_factory = oslo_middleware.cors:filter_factory\n"),
    "dns/__init__.py": "",
    "dns/api/__init__.py": "",
    "dns/api/versions.py": "def factory(global_config, **local_conf):\n    return None\n",
    "dns/api/v2/__init__.py": (
        "import pecan\n\n\ndef factory(global_config, **local_conf):\n"
        "    conf = {'app': {'root': 'dns.api.v2.root.RootController', 'modules': ['dns.api.v2']}}\n"
        "    return pecan.load_app(conf)\n"),
    "dns/api/v2/rest.py": (
        "import pecan\nimport pecan.rest\n\n\nclass RestController(pecan.rest.RestController):\n"
        "    def _handle_post(self, method, remainder, request=None):\n"
        "        if not remainder:\n            return self._find_controller('post_all', 'post'), []\n"
        "        return self._find_controller('post_one', 'post'), remainder\n\n"
        "    def _handle_delete(self, method, remainder, request=None):\n"
        "        return self._find_controller('delete_one', 'delete'), remainder\n"),
    "dns/api/v2/root.py": (
        "from dns.api.v2 import zones\n\n\nclass RootController(object):\n    zones = zones.ZonesController()\n"),
    "dns/api/v2/zones.py": (
        "import pecan\n\nfrom dns.api.v2 import rest\n\n\nclass ZonesController(rest.RestController):\n"
        "    @pecan.expose(template='json:')\n    def get_one(self, zone_id):\n        return {}\n\n"
        "    @pecan.expose(template='json:')\n    def get_all(self, **params):\n        return []\n\n"
        "    @pecan.expose(template='json:')\n    def post_all(self):\n        return {}\n\n"
        "    @pecan.expose(template='json:')\n    def delete_one(self, zone_id):\n        return {}\n\n"
        "    @pecan.expose(template='json:')\n    def patch_one(self, zone_id):  # no _handle_patch names it\n"
        "        return {}\n"),
}


def test_verbs_the_packages_rest_controller_names_under_the_prefix_paste_serves_the_root_at(tmp_path, capsys):
    routes = mined_routes(tmp_path, capsys, PASTE_ROOT)
    assert sorted(routes) == ["DELETE /v2/zones/{zone_id}", "GET /v2/zones", "GET /v2/zones/{zone_id}",
                              "POST /v2/zones"]
    served = [e for e in routes["POST /v2/zones"]["evidence"] if e["path"] == "etc/api-paste.ini"]
    assert served and served[0]["line"] == 4  # the INI line that serves the app at /v2


def test_without_the_paste_file_the_root_serves_at_its_own_paths(tmp_path, capsys):
    files = {k: v for k, v in PASTE_ROOT.items() if not k.endswith(".ini")}
    assert "GET /zones" in mined_routes(tmp_path, capsys, files)


def test_lookups_by_a_table_of_controllers_a_version_instance_and_a_body_argument(tmp_path, capsys):
    """ironic: the root's `_lookup` returns a module's instance, `return V1, remainder` of `V1 =
    v1.Controller()` (at `v1`, the version its name says); that one's `_lookup` returns `controller
    = self._subcontroller_map.get(primary_key)`, each key a segment of the controller it holds (an
    instance or a class); the nodes controller's `_lookup(self, ident, *remainder)` returns
    `subcontroller(node_ident=ident), remainder[1:]` of `self._subcontroller_map.get(remainder[0])`,
    at `{ident}/ports`. `@method.body('node')` fills `node` with the request body: no segment."""
    root = (
        "import pecan\n\nfrom svc.controllers import v1\n\nV1 = v1.Controller()\n\n\nclass RootController(object):\n"
        "    @pecan.expose()\n    def _lookup(self, primary_key, *remainder):\n"
        "        if primary_key and primary_key != 'v1':\n            remainder = [primary_key] + list(remainder)\n"
        "        return V1, remainder\n")
    v1 = (
        "import pecan\n\nfrom svc.controllers import nodes\n\n\nclass Controller(object):\n"
        "    _subcontroller_map = {\n        'nodes': nodes.NodesController(),\n    }\n\n"
        "    @pecan.expose()\n    def _lookup(self, primary_key, *remainder):\n"
        "        controller = self._subcontroller_map.get(primary_key)\n        if not controller:\n"
        "            pecan.abort(404)\n        return controller, remainder\n")
    nodes = (
        "import pecan\nfrom pecan import rest\n\nfrom svc import method\n\n\n"
        "class PortsController(rest.RestController):\n"
        "    def __init__(self, node_ident=None):\n        self.node_ident = node_ident\n\n"
        "    @method.expose()\n    def get_all(self):\n        return []\n\n\n"
        "class NodesController(rest.RestController):\n    _subcontroller_map = {\n"
        "        'ports': PortsController,\n    }\n\n"
        "    @pecan.expose()\n    def _lookup(self, ident, *remainder):\n        if not remainder:\n"
        "            return\n"
        "        subcontroller = self._subcontroller_map.get(remainder[0])\n        if subcontroller:\n"
        "            return subcontroller(node_ident=ident), remainder[1:]\n\n"
        "    @method.expose()\n    def get_one(self, node_ident):\n        return {}\n\n"
        "    @method.expose(status_code=201)\n    @method.body('node')\n    def post(self, node):\n        return {}\n")
    routes = mined_routes(tmp_path, capsys, {
        "pyproject.toml": '[project]\nname = "svc"\nversion = "1.0"\ndependencies = ["pecan"]\n',
        "svc/__init__.py": "",
        "svc/app.py": "import pecan\n\n\ndef setup_app():\n"
        "    return pecan.make_app('svc.controllers.root.RootController')\n",
        "svc/method.py": "def expose(status_code=None):\n    pass\n\n\ndef body(body_arg):\n    pass\n",
        "svc/controllers/__init__.py": "",
        "svc/controllers/root.py": root, "svc/controllers/v1.py": v1, "svc/controllers/nodes.py": nodes,
    })
    assert sorted(routes) == ["GET /v1/nodes/{ident}/ports", "GET /v1/nodes/{node_ident}", "POST /v1/nodes"], \
        sorted(routes)


def test_a_put_custom_actions_name_comes_first_its_arguments_from_the_body(tmp_path, capsys):
    """pecan's RestController takes a PUT's (or DELETE's) custom action from the first segment left
    and a POST's from the last: ironic's `_custom_actions = {'power': ['PUT']}` with `power(self,
    node_ident, target)` under the node is `PUT /nodes/{node_ident}/states/power` (`target` from the
    JSON body), and `{'reset': ['POST']}` with `reset(self, node_ident, mode)` is
    `POST /nodes/{node_ident}/states/{mode}/reset`."""
    root = (
        "import pecan\nfrom pecan import rest\n\n\nclass StatesController(rest.RestController):\n"
        "    _custom_actions = {'power': ['PUT'], 'reset': ['POST']}\n\n"
        "    @pecan.expose('json')\n    def get(self, node_ident):\n        return {}\n\n"
        "    @pecan.expose('json')\n    def power(self, node_ident, target, timeout=None):\n        return {}\n\n"
        "    @pecan.expose('json')\n    def reset(self, node_ident, mode):\n        return {}\n\n\n"
        "class NodesController(rest.RestController):\n    states = StatesController()\n\n"
        "    @pecan.expose('json')\n    def get_one(self, node_ident):\n        return {}\n\n\n"
        "class RootController(object):\n    nodes = NodesController()\n")
    routes = mined_routes(tmp_path, capsys, {
        "pyproject.toml": '[project]\nname = "svc"\nversion = "1.0"\ndependencies = ["pecan"]\n',
        "svc/__init__.py": "",
        "svc/app.py": "import pecan\n\n\ndef setup_app():\n    return pecan.make_app('svc.root.RootController')\n",
        "svc/root.py": root,
    })
    assert {"PUT /nodes/{node_ident}/states/power", "POST /nodes/{node_ident}/states/{mode}/reset"} <= set(routes), \
        sorted(routes)
    assert "PUT /nodes/{node_ident}/states/{target}/power" not in routes
