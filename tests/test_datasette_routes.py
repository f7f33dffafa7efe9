"""miners/datasette_routes.py through `capindex mine`: a Datasette plugin's register_routes hook."""

from __future__ import annotations

from tests.conftest import mined_routes

PLUGIN = '''
from datasette import hookimpl


@hookimpl
def register_routes():
    return [
        (r"^/-/files/search\\.json$", search),
        (r"^/-/files/(?P<file_id>df-[a-z0-9]+)/download$", download),
        (r"/-/tiles/(?P<db_name>[^/]+)/(?P<z>\\d+)/(?P<x>\\d+)/(?P<y>\\d+)\\.png$", tile),
    ]


async def search(request, datasette): ...
'''
BUILT = '''
from datasette import hookimpl


@hookimpl
def register_routes(datasette):
    routes = [(r"^/-/queue$", queue)]
    if datasette.setting("x"):
        routes.append((r"^/-/queue/(?P<id>\\d+)$", item))
    return routes
'''
# a function of that name in a package that is no Datasette plugin registers nothing
OTHER = "def register_routes(app):\n    return [(r'^/nothing$', None)]\n"


def test_a_datasette_plugins_routes_are_the_regexes_its_hook_returns(tmp_path, capsys):
    routes = mined_routes(tmp_path, capsys, {"datasette_files/__init__.py": PLUGIN,
                                             "datasette_queue/__init__.py": BUILT, "other/app.py": OTHER})
    assert sorted(routes) == ["ANY /-/files/search.json", "ANY /-/files/{file_id}/download", "ANY /-/queue",
                              "ANY /-/queue/{id}", "ANY /-/tiles/{db_name}/{z}/{x}/{y}.png"]
    assert routes["ANY /-/files/search.json"]["source"]["line"] == 8
    assert routes["ANY /-/files/search.json"]["evidence"][0]["detail"] == "datasette: ANY /-/files/search.json"


def test_datasette_plugin_routers_decorators_name_their_method(tmp_path, capsys):
    """datasette-cron: `@router.GET(r"/-/api/cron/tasks/(?P<task_name>[^/]+)$")` on the Router its
    register_routes hook returns `routes()` of; a lower-case `.get(...)` of anything else is not it."""
    api = ('from ..router import router\n\n\n@router.GET(r"/-/api/cron/tasks$")\n'
           'async def tasks(request): ...\n\n\n'
           '@router.POST(r"^/-/api/cron/tasks/(?P<task_name>[^/]+)/trigger$", output=None)\n'
           'async def trigger(request): ...\n\n\n@cache.GET("not a path")\ndef other(): ...\n')
    routes = mined_routes(tmp_path, capsys, {
        "datasette_cron/__init__.py": "from datasette import hookimpl\nfrom .router import router\n\n\n"
                                      "@hookimpl\ndef register_routes():\n    return router.routes()\n",
        "datasette_cron/router.py": "from datasette_plugin_router import Router\n\nrouter = Router()\n",
        "datasette_cron/routes/__init__.py": "", "datasette_cron/routes/api.py": api})
    assert sorted(routes) == ["GET /-/api/cron/tasks", "POST /-/api/cron/tasks/{task_name}/trigger"]
