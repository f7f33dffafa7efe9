"""miners/doc_mounts.py through `capindex mine`: a file's routes served under the prefix its
documentation writes them under, when the code leaves the mount to whoever serves it."""

from __future__ import annotations

from tests.conftest import mined_routes

URLS = '''
from django.urls import path
from . import views

urlpatterns = [
    path("login/", views.LoginView.as_view()),
    path("logout/", views.LogoutView.as_view()),
    path("user/", views.UserView.as_view()),
    path("", views.IndexView.as_view()),
]
'''
README = '''# authkit

Add it to your project's urls:

    path("auth/", include("authkit.urls"))

You now have:

- `POST /auth/login/` - log in
- `POST /auth/logout/` - log out
'''
LISTED = README.replace('    path("auth/", include("authkit.urls"))', "    (see below)")


def test_a_reusable_apps_routes_are_served_under_the_mount_its_readme_gives(tmp_path, capsys):
    routes = mined_routes(tmp_path, capsys, {"authkit/urls.py": URLS, "README.md": README})
    # (the include the README shows: `auth/` as written, its root /auth/)
    assert set(routes) == {"ANY /auth/login/", "ANY /auth/logout/", "ANY /auth/user/", "ANY /auth/"}
    user = routes["ANY /auth/user/"]  # not named by the docs, but in the file they mount
    assert {"kind": "documentation", "detail": "README.md writes its routes under /auth/", "path": "README.md",
            "line": 5} in user["evidence"]
    assert "served under /auth/ as the documentation writes it (README.md:5); the code leaves the mount to the " \
        "application or deployment that serves it" in user["unknowns"]
    listed = mined_routes(tmp_path / "listed", capsys, {"authkit/urls.py": URLS, "README.md": LISTED})
    assert set(listed) == {"ANY /auth/login/", "ANY /auth/logout/", "ANY /auth/user/", "ANY /auth"}
    assert {"kind": "documentation", "detail": "README.md writes its routes under /auth", "path": "README.md",
            "line": 9} in listed["ANY /auth/user/"]["evidence"]  # (by the paths it lists, without the include)
    assert routes["ANY /auth/login/"]["evidence"][0] == {"kind": "route", "detail": "django: ANY /login/",
                                                         "path": "authkit/urls.py", "line": 6, "written": "/login/"}


def test_routes_the_docs_write_as_the_code_does_or_under_two_prefixes_or_once_keep_their_paths(tmp_path, capsys):
    README = LISTED  # (no include shown: the paths listed decide)
    bare = README.replace("/auth/login/", "/login/").replace("/auth/logout/", "/logout/")
    assert set(mined_routes(tmp_path / "a", capsys, {"authkit/urls.py": URLS, "README.md": bare})) == \
        {"ANY /login/", "ANY /logout/", "ANY /user/", "ANY /"}
    once = README.replace("/auth/logout/", "/logout/")  # one under /auth, one as written: no clear mount
    assert set(mined_routes(tmp_path / "b", capsys, {"authkit/urls.py": URLS, "README.md": once})) == \
        {"ANY /login/", "ANY /logout/", "ANY /user/", "ANY /"}
    two = README + "\n- `POST /v2/login/`\n- `POST /v2/logout/`\n"  # mounted twice, at /auth and /v2
    assert set(mined_routes(tmp_path / "c", capsys, {"authkit/urls.py": URLS, "README.md": two})) == \
        {"ANY /login/", "ANY /logout/", "ANY /user/", "ANY /"}
    history = "## 1.0\n- `POST /old/login/`\n- `POST /old/logout/`\n"  # a changelog is history
    assert set(mined_routes(tmp_path / "d", capsys, {"authkit/urls.py": URLS, "CHANGELOG.md": history})) == \
        {"ANY /login/", "ANY /logout/", "ANY /user/", "ANY /"}


def test_a_route_already_under_the_prefix_and_one_named_bare_are_not_mounted_again(tmp_path, capsys):
    app = '''
from flask import Flask
app = Flask(__name__)

@app.route("/items")
def items(): ...

@app.route("/orders")
def orders(): ...

@app.route("/carts")
def carts(): ...

@app.route("/api/health")
def health(): ...

@app.route("/status")
def status(): ...
'''
    docs = "Calls:\n\n    curl http://localhost:5000/api/items\n    curl http://localhost:5000/api/orders\n" \
        "    curl http://localhost:5000/api/carts\n\nThe page `/status` shows how it is.\n"
    routes = mined_routes(tmp_path, capsys, {"shop/app.py": app, "README.md": docs})
    assert set(routes) == {"GET /api/items", "GET /api/orders", "GET /api/carts", "GET /api/health", "GET /status"}
    # named bare in a feature list and under the prefix in the endpoint table: it is under the prefix
    both = docs + "\nEndpoints: `GET /api/status`.\n"
    routes = mined_routes(tmp_path / "both", capsys, {"shop/app.py": app, "README.md": both})
    assert set(routes) == {"GET /api/items", "GET /api/orders", "GET /api/carts", "GET /api/health", "GET /api/status"}


def test_a_host_written_without_its_scheme_names_the_path_after_it(tmp_path, capsys):
    docs = README.replace("`POST /auth/login/`", "my-site.com/auth/login/").replace(
        "`POST /auth/logout/`", "https://my-site.com/auth/logout/")
    routes = mined_routes(tmp_path, capsys, {"authkit/urls.py": URLS, "README.md": docs})
    assert "ANY /auth/login/" in routes and "ANY /auth/user/" in routes
    # a host of code or packages names none of the package's routes (and no include is shown)
    foreign = LISTED.replace("`POST /auth/login/`", "github.com/auth/login/").replace(
        "`POST /auth/logout/`", "pypi.org/auth/logout/")
    assert "ANY /login/" in mined_routes(tmp_path / "f", capsys, {"authkit/urls.py": URLS, "README.md": foreign})


def test_a_librarys_routes_under_the_prefix_its_callers_give_go_where_the_docs_mount_them(tmp_path, capsys):
    """langserve: `add_routes(app, runnable, path="")` registers `f"{namespace}/invoke"` (and
    `app.get(namespace + "/playground")(handler.playground)`) with `namespace = path or ""`;
    nothing in the package calls it. The README names the endpoints bare once ("`/invoke` and
    `/batch` endpoints") and then under its example mount: the mount wins, for the code says a
    prefix comes first, and the route says so."""
    server = '''
from fastapi import FastAPI


def add_routes(app: FastAPI, runnable, path: str = "") -> None:
    namespace = path or ""

    @app.post(f"{namespace}/invoke")
    async def invoke(request):
        return await runnable.invoke(request)

    @app.post(namespace + "/batch")
    async def batch(request):
        return await runnable.batch(request)

    app.get(namespace + "/playground")(runnable.playground)
'''
    docs = ("Efficient `/invoke` and `/batch` endpoints.\n\n    add_routes(app, runnable, path=\"/my_runnable\")\n\n"
            "- `POST /my_runnable/invoke` - invoke it\n- `POST /my_runnable/batch` - on a batch\n")
    routes = mined_routes(tmp_path, capsys, {"langserve/__init__.py": "", "langserve/server.py": server,
                                             "README.md": docs})
    assert set(routes) == {"POST /my_runnable/invoke", "POST /my_runnable/batch", "GET /my_runnable/playground"}
    unknowns = routes["POST /my_runnable/batch"]["unknowns"]
    assert any("the `path` argument of add_routes()" in u for u in unknowns), unknowns
    bare = mined_routes(tmp_path / "bare", capsys, {"langserve/__init__.py": "", "langserve/server.py": server})
    assert set(bare) == {"POST /invoke", "POST /batch", "GET /playground"}


def test_the_include_a_readme_shows_mounts_that_module_whatever_else_it_names(tmp_path, capsys):
    """catalogue-server: the README shows `path("api/v1/", include("catalogue_server.api_urls"))` and
    `path("products/", include("catalogue_server.urls"))`, and names `/products/` (the HTML
    catalogue) bare: api_urls' `products/` goes under /api/v1 all the same, and urls' root is
    /products/. A changelog's include is history; a module the tree does not hold mounts nothing."""
    api = "from django.urls import path\nfrom . import v\n\nurlpatterns = [\n" \
        "    path('products/', v.products),\n    path('groups/', v.groups),\n]\n"
    pages = "from django.urls import path\nfrom . import v\n\nurlpatterns = [\n" \
        "    path('', v.product_list),\n    path('<slug:slug>/', v.product_detail),\n]\n"
    readme = ('Add to your project\'s urls:\n\n    path("api/v1/", include("catalogue_server.api_urls")),\n'
              '    path("products/", include("catalogue_server.urls")),\n    path("x/", include("other.urls")),\n\n'
              "The HTML catalogue is now at `/products/`; the API's groups at `/api/v1/groups/`.\n")
    files = {"catalogue_server/__init__.py": "", "catalogue_server/api_urls.py": api,
             "catalogue_server/urls.py": pages, "README.md": readme}
    routes = mined_routes(tmp_path, capsys, files)
    assert set(routes) == {"ANY /api/v1/products/", "ANY /api/v1/groups/", "ANY /products/",
                           "ANY /products/<slug:slug>/"}, set(routes)
    assert "served under /api/v1/ as the documentation writes it (README.md:3); the code leaves the mount to " \
        "the application or deployment that serves it" in routes["ANY /api/v1/groups/"]["unknowns"]
    history = {**files, "README.md": "The HTML catalogue is at `/products/`.\n",
               "CHANGELOG.md": readme.replace("The HTML", "The old")}
    assert "ANY /groups/" in mined_routes(tmp_path / "history", capsys, history)


def test_an_endpoint_list_names_mounted_routes_with_the_mount_or_as_the_code_writes_them(tmp_path, capsys):
    """django-drf-coy-apis lists `/django_drf_coy_apis/company-info` and `/company-info/<id>`: both
    name the routes its README's include mounts, so the list still says what is served, and a
    route it leaves out is internal."""
    names = ["company-info", "products", "clients", "sponsors", "events"]
    urls = "from django.urls import path\nfrom . import v\n\nurlpatterns = [\n" + "".join(
        f"    path('{n}/', v.{n.replace('-', '_')}),\n    path('{n}/<int:pk>/', v.{n.replace('-', '_')}_one),\n"
        for n in [*names, "hidden"]) + "]\n"
    readme = "    path('coy/', include('coy.urls')),\n\nKey API Endpoints\n-----------------\n\n" + "".join(
        f"* ``/coy/{n}`` and ``/{n}/<pk>``\n" for n in names)
    routes = mined_routes(tmp_path, capsys, {"coy/__init__.py": "", "coy/urls.py": urls, "README.md": readme})
    assert routes["ANY /coy/clients/<int:pk>/"]["visibility"] == "public"
    assert routes["ANY /coy/clients/"]["visibility"] == "public"
    assert routes["ANY /coy/hidden/"]["visibility"] == "internal"
    assert routes["ANY /coy/hidden/<int:pk>/"]["visibility"] == "internal"


def test_the_express_mount_a_readme_shows_of_the_packages_server_mounts_its_routes(tmp_path, capsys):
    """parse-server's README: `const server = new ParseServer({...})` of `require('parse-server').ParseServer`,
    then `app.use('/parse', server.app)`: every route its routers register is under /parse (one of
    them named there). Mounts of something else, or of the package at two prefixes, move nothing."""
    pages = "const express = require('express');\nconst router = express.Router();\n" \
        "router.get('/apps/:appId/verify_email', verify);\nrouter.post('/apps/:appId/resend', resend);\n" \
        "module.exports = router;\n"
    health = "const express = require('express');\nconst app = express();\napp.get('/health', ok);\n" \
        "module.exports = app;\n"
    readme = ("```js\nconst ParseServer = require('parse-server').ParseServer;\nconst app = express();\n"
              "const server = new ParseServer({ appId: 'x' });\napp.use('/parse', server.app);\n"
              "app.use('/static', express.static('public'));\n```\n\nCheck `http://localhost:1337/parse/health`.\n")
    files = {"package.json": '{"name": "parse-server", "version": "9.10.0", "main": "lib/index.js"}',
             "lib/index.js": "module.exports = { pages: require('./pages'), health: require('./health') };\n",
             "lib/pages.js": pages, "lib/health.js": health, "README.md": readme}
    routes = mined_routes(tmp_path, capsys, files)
    assert set(routes) == {"GET /parse/apps/:appId/verify_email", "POST /parse/apps/:appId/resend",
                           "GET /parse/health"}, set(routes)
    assert "served under /parse as the documentation writes it (README.md:5); the code leaves the mount to the " \
        "application or deployment that serves it" in routes["GET /parse/health"]["unknowns"]
    twice = {**files, "README.md": readme.replace("```\n", "app.use('/v2', server.app);\n```\n", 1)}
    assert "GET /health" in mined_routes(tmp_path / "twice", capsys, twice)
    other = {**files, "README.md": readme.replace("require('parse-server')", "require('other-server')")}
    assert "GET /health" in mined_routes(tmp_path / "other", capsys, other)


def test_routes_under_a_prefix_set_at_run_time_go_where_the_docs_write_one_of_them(tmp_path, capsys):
    """indiekit's ActivityPub endpoint: Fedify's `${mountPath}/users/{identifier}` dispatchers (the
    prefix the host gives) beside the `/.well-known/webfinger` Fedify serves itself; the README
    names one of them, `/activitypub/users/{handle}`: those routes go under /activitypub, the
    well-known one stays."""
    setup = ("import { createFederation } from '@fedify/fedify';\nexport function setup(mountPath) {\n"
             "  const federation = createFederation({ kv });\n"
             "  federation.setActorDispatcher(`${mountPath}/users/{identifier}`, actor);\n"
             "  federation.setFollowersDispatcher(`${mountPath}/users/{identifier}/followers`, followers);\n"
             "  return federation;\n}\n")
    files = {"package.json": '{"name": "ap", "version": "1.0.0", "main": "index.js",'
                             ' "dependencies": {"@fedify/fedify": "1"}}',
             "index.js": "export { setup } from './lib/setup.js';\n", "lib/setup.js": setup,
             "README.md": "| Public Profile | `/activitypub/users/{handle}` | profile |\n"}
    routes = mined_routes(tmp_path, capsys, files)
    assert {"GET /activitypub/users/{identifier}", "GET /activitypub/users/{identifier}/followers",
            "GET /.well-known/webfinger"} <= set(routes), set(routes)
    assert not any(r.startswith("GET /users/") for r in routes)


def test_a_routers_routes_go_under_the_include_a_readme_shows_even_when_they_begin_with_its_segment(tmp_path, capsys):
    """django-affiliate-system: its urls.py mounts a DRF router at the root, `path("", include(
    router.urls))` (a mount at "/", which places nothing), and the README shows `path('affiliates/',
    include('shop.urls'))`: `router.register("affiliates", ...)` is served at /affiliates/affiliates/.
    `include(totp_urls.urlpatterns)` includes that module's patterns."""
    urls = ("from django.urls import include, path\nfrom rest_framework.routers import DefaultRouter\n"
            "from .totp import urls as totp_urls\nfrom .views import AffiliateViewSet\n\n"
            "router = DefaultRouter()\nrouter.register(r'affiliates', AffiliateViewSet, basename='a')\n\n"
            "urlpatterns = [\n    path('', include(router.urls)),\n"
            "    path('totp/', include(totp_urls.urlpatterns)),\n]\n")
    views = ("from rest_framework import viewsets\nfrom rest_framework.decorators import action\n\n"
             "class AffiliateViewSet(viewsets.ReadOnlyModelViewSet):\n"
             "    @action(detail=False, methods=['get'])\n    def stats(self, request): ...\n")
    totp = "from django.urls import path\nfrom . import views\n\nurlpatterns = [path('verify/', views.verify)]\n"
    readme = ("Add `path('affiliates/', include('shop.urls'))` to your urls.\n\n"
              "- `GET /affiliates/affiliates/` - list\n- `GET /affiliates/affiliates/stats/` - statistics\n")
    files = {"shop/__init__.py": "", "shop/urls.py": urls, "shop/views.py": views, "shop/totp/__init__.py": "",
             "shop/totp/urls.py": totp, "shop/totp/views.py": "def verify(request): ...\n"}
    assert "ANY /totp/verify/" in mined_routes(tmp_path / "code", capsys, files)
    routes = mined_routes(tmp_path, capsys, {**files, "README.md": readme})
    assert {"GET /affiliates/affiliates/", "GET /affiliates/affiliates/stats/", "GET /affiliates/affiliates/{pk}/"} \
        <= set(routes), sorted(routes)
    assert not any(name.startswith("GET /affiliates/stats") for name in routes)


def test_a_module_its_routes_do_not_place_goes_under_the_prefix_its_siblings_are_placed_under(tmp_path, capsys):
    """funflix-api: v1/sources.py and v1/raw.py go under the /api/v1 the README writes them under;
    v1/stats.py, one route, and v1/works.py, whose routes the README writes bare too, go there as
    the README writes them there. A lone route beside no placed module, or one the docs write
    under another prefix, keeps its path."""
    def module(prefix, *paths):
        return "from fastapi import APIRouter\n\nrouter = APIRouter(prefix=%r)\n\n" % prefix + "".join(
            f"@router.get({p!r})\ndef h{i}(): ...\n\n" for i, p in enumerate(paths))
    readme = ("| GET | `/api/v1/sources` |\n| GET | `/api/v1/sources/{id}` |\n| GET | `/api/v1/raw` |\n"
              "| GET | `/api/v1/raw/{id}` |\n| GET | `/api/v1/stats` |\n| GET | `/v2/ping` |\n| GET | `/api/v1/lone` |\n"
              "| GET | `/api/v1/works` |\n| GET | `/api/v1/works/{id}` |\n"
              "\nThe `/stats` page needs a login; `/works` and `/works/{id}` are open.\n")
    routes = mined_routes(tmp_path, capsys, {
        "app/v1/sources.py": module("/sources", "", "/{source_id}"), "app/v1/raw.py": module("/raw", "", "/{doc_id}"),
        "app/v1/stats.py": module("/stats", ""), "app/v1/ping.py": module("/ping", ""),
        "app/v1/works.py": module("/works", "", "/{work_id}"), "app/other/lone.py": module("/lone", ""),
        "README.md": readme})
    assert {"GET /api/v1/sources", "GET /api/v1/raw/{doc_id}", "GET /api/v1/stats", "GET /ping", "GET /lone",
            "GET /api/v1/works", "GET /api/v1/works/{work_id}"} <= set(routes), sorted(routes)
    assert "served under /api/v1 as the documentation writes it (README.md:5); the code leaves the mount to the " \
        "application or deployment that serves it" in routes["GET /api/v1/stats"]["unknowns"]


def test_the_docs_placeholder_for_wherever_a_deployment_puts_the_server_is_no_prefix(tmp_path, capsys):
    """@heise/embetty-server's README: `src="https://your-site.com/path/to/embetty-server/video/vimeo/1.amp"`."""
    app = "from flask import Flask\napp = Flask(__name__)\n\n" + "".join(
        f"@app.route({p!r})\ndef h{i}(): ...\n\n" for i, p in enumerate(("/video/<id>", "/video/<id>.amp")))
    docs = "    src=\"https://site.com/path/to/srv/video/1\"\n    src=\"https://site.com/path/to/srv/video/1.amp\"\n"
    assert set(mined_routes(tmp_path, capsys, {"srv/app.py": app, "README.md": docs})) == \
        {"GET /video/<id>", "GET /video/<id>.amp"}
    other = docs.replace("/path/to/srv", "/srv")  # (a prefix that is one: the routes go under it)
    assert set(mined_routes(tmp_path / "b", capsys, {"srv/app.py": app, "README.md": other})) == \
        {"GET /srv/video/<id>", "GET /srv/video/<id>.amp"}


def test_an_include_the_endpoint_list_writes_under_more_is_served_there(tmp_path, capsys):
    """django-rest-paystack: the README shows `path('paystack/', include('paystack.urls'))` and lists
    `POST /api/v1/paystack/transaction/initiate`: the project serves the include under /api/v1.
    Its viewsets are found through `from .transaction import *` in views/__init__.py."""
    urls = ("from django.urls import include, path\nfrom rest_framework import routers\n"
            "from paystack.views import TransactionViewSet\n\nrouter = routers.DefaultRouter()\n"
            "router.register('transaction', TransactionViewSet, basename='transaction')\n\n"
            "urlpatterns = [path('', include(router.urls))]\n")
    views = ("from rest_framework import viewsets\nfrom rest_framework.decorators import action\n\n"
             "__all__ = ['TransactionViewSet']\n\n\nclass TransactionViewSet(viewsets.ReadOnlyModelViewSet):\n"
             "    @action(detail=False, methods=['post'])\n    def initiate(self, request): ...\n\n"
             "    @action(detail=False, methods=['get'])\n    def verify(self, request): ...\n")
    readme = ("Add `path('paystack/', include('paystack.urls'))` to your urls.\n\n"
              "- `POST /api/v1/paystack/transaction/initiate`\n- `GET /api/v1/paystack/transaction/verify/`\n")
    files = {"paystack/__init__.py": "", "paystack/urls.py": urls, "paystack/views/__init__.py":
             "from .transaction import *\n", "paystack/views/transaction.py": views, "README.md": readme}
    routes = mined_routes(tmp_path, capsys, files)
    assert {"POST /api/v1/paystack/transaction/initiate/", "GET /api/v1/paystack/transaction/verify/",
            "GET /api/v1/paystack/transaction/{pk}/"} <= set(routes), sorted(routes)
    listed = readme.replace("/api/v1/paystack/", "/paystack/")  # (the list writes the include's prefix alone)
    shown = mined_routes(tmp_path / "shown", capsys, {**files, "README.md": listed})
    assert "POST /paystack/transaction/initiate/" in shown, sorted(shown)


def test_the_include_a_readme_shows_places_its_module_when_the_docs_list_its_routes_relative(tmp_path, capsys):
    """drf-stripe: the README says to add ``url(r"^api/stripe/", include("payments.api.urls"))`` and
    lists `current-user/ (GET)`, no path from the root; the module's routes are served under the
    include all the same. Without the include they keep the code's paths."""
    urls = "from django.conf.urls import url\nfrom payments.api import views\n\nurlpatterns = [\n" \
        "    url(r'^current-user/$', views.Current.as_view()),\n    url(r'^charges/$', views.Charges.as_view()),\n]\n"
    readme = ('Quick start\n\n* Add to urls.py: ``url(r"^api/stripe/", include("payments.api.urls"))``\n\n'
              "Endpoints\n\n* current-user/ (GET)\n* charges/ (GET)\n")
    files = {"payments/__init__.py": "", "payments/api/__init__.py": "", "payments/api/urls.py": urls,
             "README.rst": readme}
    routes = mined_routes(tmp_path, capsys, files)
    assert set(routes) == {"ANY /api/stripe/current-user/", "ANY /api/stripe/charges/"}, set(routes)
    bare = mined_routes(tmp_path / "bare", capsys, {**files, "README.rst": readme.split("Endpoints")[1]})
    assert set(bare) == {"ANY /current-user/", "ANY /charges/"}, set(bare)


def test_an_include_shown_then_a_table_of_its_paths_relative_to_it_or_urls_of_them_bare(tmp_path, capsys):
    """vq-django-auth: the README's setup has `path("api/auth/", include("vq_django_auth.urls"))`, then
    an endpoint table of `/login/`, `/logout/`: paths relative to the include, served under it.
    dj-health-checker's README shows `path('health/', include(...))` too, but calls the code's own
    `health/` routes at `curl http://localhost:8000/health/`: where the docs say they are, they stay."""
    urls = ("from django.urls import path\nfrom . import views\n\nurlpatterns = [\n"
            "    path('login/', views.Login.as_view()),\n    path('logout/', views.Logout.as_view()),\n]\n")
    readme = ('Setup:\n\n```python\nurlpatterns = [\n    path("api/auth/", include("kit.urls")),\n]\n```\n\n'
              "| Endpoint | Method |\n| --- | --- |\n| `/login/` | POST |\n| `/logout/` | POST |\n")
    files = {"kit/__init__.py": "", "kit/urls.py": urls, "README.md": readme}
    assert set(mined_routes(tmp_path, capsys, files)) == {"ANY /api/auth/login/", "ANY /api/auth/logout/"}
    called = {**files, "README.md": readme + "\n```\ncurl -X POST http://localhost:8000/login/\n```\n"}
    assert set(mined_routes(tmp_path / "called", capsys, called)) == {"ANY /login/", "ANY /logout/"}


def test_an_include_at_a_name_the_readme_binds_and_of_a_package_that_reexports_its_router(tmp_path, capsys):
    """django-zaydany-analytics: `DASHBOARD_URL = 'insights/'` then `path(DASHBOARD_URL,
    include('analytics.urls'))`; dj-userjourney-map: `include("journey_map.api.routers")`, a package
    whose `__init__.py` is `from .main import router; urlpatterns = router.urls`: its one routed
    module beside it is what the include serves."""
    urls = ("from django.urls import path\nfrom . import views\n\nurlpatterns = [\n"
            "    path('traffic/', views.traffic),\n    path('events/', views.events),\n]\n")
    readme = ("```python\nDASHBOARD_URL = 'insights/'\n\nurlpatterns = [\n"
              "    path(DASHBOARD_URL, include('analytics.urls')),\n]\n```\n\n| Page | URL |\n| --- | --- |\n"
              "| Traffic | `/traffic/` |\n| Events | `/events/` |\n")
    files = {"analytics/__init__.py": "", "analytics/urls.py": urls, "README.md": readme}
    assert set(mined_routes(tmp_path, capsys, files)) == {"ANY /insights/traffic/", "ANY /insights/events/"}
    unbound = {**files, "README.md": readme.replace("DASHBOARD_URL = 'insights/'\n", "")}
    assert set(mined_routes(tmp_path / "unbound", capsys, unbound)) == {"ANY /traffic/", "ANY /events/"}
    main_py = ("from rest_framework.routers import DefaultRouter\nfrom journey.api.views import JourneyViewSet\n\n"
               "router = DefaultRouter()\nrouter.register(r'journeys', JourneyViewSet)\n")
    views = "from rest_framework import viewsets\n\n\nclass JourneyViewSet(viewsets.ModelViewSet):\n    pass\n"
    package = {"journey/__init__.py": "", "journey/api/__init__.py": "", "journey/api/views.py": views,
               "journey/api/routers/__init__.py": "from .main import router\n\nurlpatterns = router.urls\n",
               "journey/api/routers/main.py": main_py,
               "README.md": "```python\npath('journey_map/api/', include('journey.api.routers'))\n```\n\n"
                            "- `GET /journeys/`\n- `POST /journeys/`\n"}
    routes = mined_routes(tmp_path / "package", capsys, package)
    assert {"GET /journey_map/api/journeys/", "POST /journey_map/api/journeys/",
            "GET /journey_map/api/journeys/{pk}/"} <= set(routes), set(routes)
    # two routed modules beside the `__init__.py`: which one it re-exports is not known
    two = {**package, "journey/api/routers/other.py": main_py.replace("journeys", "others")}
    assert not any(r.startswith("/journey_map/") for r in
                   (n.partition(" ")[2] for n in mined_routes(tmp_path / "two", capsys, two)))


def test_the_prefix_a_readme_includes_a_router_a_factory_makes_at(tmp_path, capsys):
    """swm-comments-attachments: two factories of one file make routers the app mounts where it
    likes; the README shows `comment_router = create_comment_router(...)` then
    `app.include_router(comment_router, prefix="/api/comments")`: each factory's routes go there."""
    code = ("from fastapi import APIRouter\n\n\ndef create_comment_router(db):\n    router = APIRouter()\n\n"
            "    @router.get('/')\n    def list_comments():\n        pass\n\n"
            "    @router.delete('/{comment_id}')\n    def delete_comment(comment_id: int):\n        pass\n\n"
            "    return router\n\n\ndef create_attachment_router(store):\n    router = APIRouter()\n\n"
            "    @router.get('/{attachment_id}/download')\n    def download(attachment_id: int):\n        pass\n\n"
            "    return router\n")
    readme = ("```python\ncomment_router = create_comment_router(db=Depends(get_db))\n"
              "app.include_router(comment_router, prefix=\"/api/comments\", tags=[\"comments\"])\n"
              "app.include_router(create_attachment_router(), prefix='/api/attachments')\n```\n")
    files = {"swm/__init__.py": "", "swm/routers.py": code, "README.md": readme}
    routes = mined_routes(tmp_path, capsys, files)
    assert set(routes) == {"GET /api/comments", "DELETE /api/comments/{comment_id}",
                           "GET /api/attachments/{attachment_id}/download"}, set(routes)
    assert routes["GET /api/comments"]["evidence"][0]["written"] == "/"
    # a mount of a name the README never binds to a factory: nothing is placed
    unbound = {**files, "README.md": readme.replace("comment_router = create_comment_router(db=Depends(get_db))\n",
                                                    "")}
    assert {"GET /", "DELETE /{comment_id}"} <= set(mined_routes(tmp_path / "unbound", capsys, unbound))


def test_an_include_of_a_name_the_readme_imports(tmp_path, capsys):
    """nai-planner: `from nai_planner.contrib.drf.urls import urlpatterns as planner_urls` then
    `path("api/v1/", include(planner_urls))`: that module's routes under /api/v1/; `from pkg
    import urls as x` names the module pkg.urls."""
    urls = ("from django.urls import path\nfrom . import views\n\nurlpatterns = [\n"
            "    path('planner/', views.items),\n    path('planner/<uuid:pk>/', views.item),\n]\n")
    readme = ("```python\nfrom planner.drf.urls import urlpatterns as planner_urls\n\nurlpatterns = [\n"
              "    path(\"api/v1/\", include(planner_urls)),\n]\n```\n")
    files = {"planner/__init__.py": "", "planner/drf/__init__.py": "", "planner/drf/urls.py": urls,
             "README.md": readme}
    assert set(mined_routes(tmp_path, capsys, files)) == {"ANY /api/v1/planner/", "ANY /api/v1/planner/<uuid:pk>/"}
    module = {**files, "README.md": readme.replace("from planner.drf.urls import urlpatterns as planner_urls",
                                                   "from planner.drf import urls as planner_urls")}
    assert set(mined_routes(tmp_path / "module", capsys, module)) == {"ANY /api/v1/planner/",
                                                                      "ANY /api/v1/planner/<uuid:pk>/"}
    unknown = {**files, "README.md": readme.replace("from planner.drf.urls import urlpatterns as planner_urls\n", "")}
    assert set(mined_routes(tmp_path / "unknown", capsys, unknown)) == {"ANY /planner/", "ANY /planner/<uuid:pk>/"}


def test_a_path_the_docs_write_that_another_route_serves_moves_no_route(tmp_path, capsys):
    """engram: the app keeps legacy `/recall`, `/status`, `/remember` at the root (redirects, added in
    a loop over a literal list) beside the API router's own under `/api/v1`, which the docs write:
    those docs name the router's routes, so the app's stay where the code puts them."""
    app = '''
from fastapi import FastAPI
from svc.api import v1

LEGACY = ["/recall", "/status", "/remember"]
app = FastAPI(openapi_url=None)

def redirect():
    return None

for legacy in LEGACY:
    app.add_api_route(legacy, redirect, methods=["GET"])

app.include_router(v1)
'''
    api = '''
from fastapi import APIRouter
v1 = APIRouter(prefix="/api/v1")

@v1.get("/recall")
def recall(): ...

@v1.get("/status")
def status(): ...

@v1.get("/remember")
def remember(): ...
'''
    docs = "Endpoints:\n\n- `GET /api/v1/recall`\n- `GET /api/v1/status`\n- `GET /api/v1/remember`\n"
    routes = mined_routes(tmp_path, capsys, {"svc/__init__.py": "", "svc/app.py": app, "svc/api.py": api,
                                             "README.md": docs})
    assert set(routes) == {"GET /recall", "GET /status", "GET /remember",
                           "GET /api/v1/recall", "GET /api/v1/status", "GET /api/v1/remember"}, sorted(routes)
    assert routes["GET /recall"]["source"]["path"] == "svc/app.py"
