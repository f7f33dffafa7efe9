"""A package's own Blueprint subclass whose route() registers each rule under several paths
(miners/rule_forms.py): sahara's `Rest.route` adds "/<tenant_id>" + rule and ".json" spellings."""

from __future__ import annotations

from conftest import mined_routes

REST = (
    "import flask\n\n\n"
    "class Rest(flask.Blueprint):\n"
    "    def get(self, rule, status_code=200):\n"
    "        return self._mroute('GET', rule, status_code)\n\n"
    "    def post(self, rule, status_code=202):\n"
    "        return self._mroute('POST', rule, status_code)\n\n"
    "    def _mroute(self, methods, rule, status_code=None, **kw):\n"
    "        return self.route(rule, methods=[methods], status_code=status_code, **kw)\n\n"
    "    def route(self, rule, **options):\n"
    "        def decorator(func):\n"
    "            endpoint = options.pop('endpoint', func.__name__)\n"
    "            f_rule = \"/<tenant_id>\" + rule\n"
    "            self.add_url_rule(rule, endpoint, func, **options)\n"
    "            self.add_url_rule(rule + '.json', endpoint, func, **options)\n"
    "            self.add_url_rule(f_rule, endpoint, func, **options)\n"
    "            self.add_url_rule(f_rule + '.json', endpoint, func, **options)\n"
    "            return func\n"
    "        return decorator\n\n\n"
    "class RestV2(Rest):\n"
    "    def __init__(self, *args, **kwargs):\n"
    "        super().__init__(*args, **kwargs)\n"
)

VIEWS = (
    "import svc.utils.api as u\n\n"
    "rest = u.{cls}('v11', __name__)\n\n\n"
    "@rest.get('/clusters')\ndef clusters_list():\n    return []\n\n\n"
    "@rest.post('/clusters/<cluster_id>/scale')\ndef clusters_scale(cluster_id):\n    return {{}}\n"
)

APP = (
    "import flask\nfrom svc.api import v11\n\n\ndef make_app():\n"
    "    app = flask.Flask(__name__)\n    app.register_blueprint(v11.rest, url_prefix='/v1.1')\n    return app\n"
)


def _tree(cls: str = "Rest", rest: str = REST) -> dict[str, str]:
    return {"svc/__init__.py": "", "svc/utils/__init__.py": "", "svc/api/__init__.py": "",
            "svc/utils/api.py": rest, "svc/api/v11.py": VIEWS.format(cls=cls), "svc/app.py": APP}


def test_each_prefix_route_makes_is_a_route_and_a_suffix_is_another_spelling(tmp_path, capsys):
    routes = mined_routes(tmp_path, capsys, _tree())
    assert sorted(routes) == ["GET /v1.1/<tenant_id>/clusters", "GET /v1.1/clusters",
                              "POST /v1.1/<tenant_id>/clusters/<cluster_id>/scale",
                              "POST /v1.1/clusters/<cluster_id>/scale"], sorted(routes)
    tenant = routes["GET /v1.1/<tenant_id>/clusters"]
    made = [e for e in tenant["evidence"] if e["path"] == "svc/utils/api.py"]
    assert made and made[0]["line"] == 14 and "'/<tenant_id><rule>'" in made[0]["detail"], tenant["evidence"]
    assert any("'.json' appended" in u for u in tenant["unknowns"]), tenant["unknowns"]
    assert tenant["source"]["path"] == "svc/api/v11.py" and tenant["executable"] is False
    assert len({c["id"] for c in routes.values()}) == 4  # one id each


def test_a_subclass_without_its_own_route_takes_its_bases(tmp_path, capsys):
    routes = mined_routes(tmp_path, capsys, _tree("RestV2"))
    assert "GET /v1.1/<tenant_id>/clusters" in routes and "GET /v1.1/clusters" in routes, sorted(routes)


def test_a_registration_made_of_anything_else_leaves_the_routes_as_written(tmp_path, capsys):
    # a path computed at run time: nothing is guessed, not even the literal forms beside it
    rest = REST.replace("self.add_url_rule(f_rule + '.json'", "self.add_url_rule(self.prefix() + rule")
    routes = mined_routes(tmp_path, capsys, _tree(rest=rest))
    assert sorted(routes) == ["GET /v1.1/clusters", "POST /v1.1/clusters/<cluster_id>/scale"], sorted(routes)


def test_a_route_that_registers_only_the_rule_changes_nothing(tmp_path, capsys):
    rest = REST.replace("            self.add_url_rule(rule + '.json', endpoint, func, **options)\n"
                        "            self.add_url_rule(f_rule, endpoint, func, **options)\n"
                        "            self.add_url_rule(f_rule + '.json', endpoint, func, **options)\n", "")
    routes = mined_routes(tmp_path, capsys, _tree(rest=rest))
    assert sorted(routes) == ["GET /v1.1/clusters", "POST /v1.1/clusters/<cluster_id>/scale"], sorted(routes)
    assert not any(e["path"] == "svc/utils/api.py" for e in routes["GET /v1.1/clusters"]["evidence"])


def test_an_instance_of_a_class_defined_in_the_same_file(tmp_path, capsys):
    views = REST + "\n\nrest = RestV2('v3', __name__, url_prefix='/v3')\n\n\n" \
        "@rest.get('/jobs')\ndef jobs():\n    return []\n"
    routes = mined_routes(tmp_path, capsys, {"svc/__init__.py": "", "svc/views.py": views})
    assert sorted(routes) == ["GET /v3/<tenant_id>/jobs", "GET /v3/jobs"], sorted(routes)


def test_a_route_only_prefixed_replaces_the_rule_as_written(tmp_path, capsys):
    rest = REST.replace("            self.add_url_rule(rule, endpoint, func, **options)\n"
                        "            self.add_url_rule(rule + '.json', endpoint, func, **options)\n", "")
    routes = mined_routes(tmp_path, capsys, _tree(rest=rest))
    assert sorted(routes) == ["GET /v1.1/<tenant_id>/clusters",
                              "POST /v1.1/<tenant_id>/clusters/<cluster_id>/scale"], sorted(routes)




ROUTING = (
    "import re\n\n\nclass Routing(object):\n    __route_map = {}\n\n    @classmethod\n"
    "    def route(cls, rule, methods='GET'):\n        rule = rule.strip('/')\n"
    "        if not rule.startswith('rest/'):\n            rule = '^rest/' + rule + '$'\n"
    "        rule = re.compile(rule.replace('<:', '(?P<'))\n\n"
    "        def decorator(func):\n            cls.__route_map[rule.pattern] = func\n            return func\n"
    "        return decorator\n\n\n"
    "class RestfulInstance:\n    @Routing.route('/data/<:class_name>', 'POST')\n    def post_collection(self, class_name):\n"
    "        pass\n\n    @Routing.route('/summary')\n    def summary(self):\n        pass\n"
)


def test_a_route_decorator_that_rewrites_its_rule_serves_the_rewritten_path(tmp_path, capsys):
    """roundup: its own `Routing.route(rule, methods)` strips the rule's slashes and keeps
    `'^rest/' + rule + '$'`: `@Routing.route('/summary')` is served at /rest/summary."""
    routes = mined_routes(tmp_path, capsys, {"tracker/__init__.py": "", "tracker/rest.py": ROUTING})
    assert sorted(routes) == ["GET /rest/summary", "POST /rest/data/<:class_name>"], sorted(routes)
    made = [e for e in routes["GET /rest/summary"]["evidence"] if e["line"] == 8]
    assert made and "'/rest<rule>'" in made[0]["detail"], routes["GET /rest/summary"]["evidence"]


def test_a_rule_rewritten_any_other_way_leaves_the_routes_as_written(tmp_path, capsys):
    other = ROUTING.replace("rule = '^rest/' + rule + '$'", "rule = prefix_for(rule) + rule")
    routes = mined_routes(tmp_path, capsys, {"tracker/__init__.py": "", "tracker/rest.py": other})
    assert sorted(routes) == ["GET /summary", "POST /data/<:class_name>"], sorted(routes)
