"""Routes a package serves and its documentation names: the documentation is evidence, and a
wheel's METADATA (its README) is documentation."""

from __future__ import annotations

import json

from indexer.cli import main
from miners.documented_routes import endpoint_list, link_documented_routes


def _route(name: str) -> dict:
    return {"kind": "http-route", "name": name, "evidence": [], "confidence": 0.8, "visibility": "public"}


def test_paths_the_docs_name_in_prose_tables_urls_and_examples():
    routes = [_route(n) for n in ("GET /api/4/config", "GET /api/4/{plugin}", "GET /users/<int:id>", "GET /",
                                  "POST /login/", "GET /x/:id/items", "GET /jobs", "GET /{path}")]
    docs = ("Call `GET /api/4/config` or curl http://localhost:8000/users/42\n"
            "| POST | /auth/login/ |\n"
            "See /x/{id}/items, /etc/jobs.conf and /api/4/cpu.\n")
    link_documented_routes(routes, [("README.md", docs)])
    named = {r["name"]: [(e["detail"], e["line"]) for e in r["evidence"]] for r in routes}
    assert named == {
        "GET /api/4/config": [("README.md names /api/4/config", 1)],
        "GET /api/4/{plugin}": [("README.md names /api/4/cpu", 3)],  # not /api/4/config: that is its own route
        "GET /users/<int:id>": [("README.md names /users/42", 1)],  # an example value, in a URL
        "GET /": [], "GET /{path}": [],  # no literal segment: every path would name them
        "POST /login/": [("README.md names /auth/login", 2)],  # under a prefix mounted at run time
        "GET /x/:id/items": [("README.md names /x/{id}/items", 3)],
        "GET /jobs": [],  # /etc/jobs.conf is a file, not /jobs
    }
    assert routes[0]["confidence"] == 0.9 and routes[3]["confidence"] == 0.8
    assert all(r["visibility"] == "public" for r in routes)  # docs that name a few leave the rest public


def test_a_url_on_a_host_of_code_or_badges_names_no_route():
    """agentgear-ai's README logo, raw.githubusercontent.com/.../docs/assets/logo.svg, is no
    `/assets/{path}` of its server; a URL of any other host may be this server's."""
    routes = [_route(n) for n in ("GET /assets/{path}", "GET /api/items", "GET /users")]
    docs = ('<img src="https://raw.githubusercontent.com/o/r/main/docs/assets/logo.svg">\n'
            "[![ci](https://img.shields.io/github/actions/workflow/status/o/r/users)](https://github.com/o/r/users)\n"
            "curl https://svc.example.com/api/items\n")
    link_documented_routes(routes, [("README.md", docs)])
    assert [bool(r["evidence"]) for r in routes] == [False, True, False]


def test_a_wheels_metadata_is_the_documentation_that_names_its_routes(tmp_path, capsys):
    root = tmp_path / "svc"
    (root / "svc").mkdir(parents=True)
    (root / "svc-1.0.dist-info").mkdir()
    (root / "svc" / "__init__.py").write_text("")
    (root / "svc" / "app.py").write_text(
        "from flask import Flask\n\napp = Flask(__name__)\n\n\n@app.route('/schedule.json', methods=['POST'])\n"
        "def schedule():\n    return ''\n\n\n@app.route('/secret')\ndef secret():\n    return ''\n")
    (root / "svc-1.0.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: svc\nVersion: 1.0\n\n# svc\n\nSchedule a run:\n\n"
        "    curl http://localhost:6800/schedule.json -d project=x\n")
    assert main(["--db", str(tmp_path / "s.db"), "--json", "mine", str(root)]) == 0
    report = json.loads(capsys.readouterr().out)
    routes = {c["name"]: c for c in report["candidates"] if c["kind"] == "http-route"}
    docs = [e for e in routes["POST /schedule.json"]["evidence"] if e["kind"] == "documentation"]
    assert docs == [{"kind": "documentation", "detail": "svc-1.0.dist-info/METADATA names /schedule.json",
                     "path": "svc-1.0.dist-info/METADATA", "line": 9}]
    assert not [e for e in routes["GET /secret"]["evidence"] if e["kind"] == "documentation"]
    assert routes["POST /schedule.json"]["confidence"] > routes["GET /secret"]["confidence"]


def _visibility(names: list[str], texts: list[tuple[str, str]], declared: tuple[str, ...] = ()) -> dict[str, str]:
    routes = [dict(_route(n), unknowns=[]) for n in names]
    for route in routes:
        if route["name"] in declared:
            route["evidence"].append({"kind": "declaration", "detail": "openapi: declares it", "pointer": "/paths"})
        else:  # the handler's declaration is no document's
            route["evidence"].append({"kind": "declaration", "detail": "handler view"})
    link_documented_routes(routes, texts)
    return {r["name"]: r["visibility"] for r in routes}


SERVED = ["GET /health", "GET /api/servers", "GET /api/servers/:name", "DELETE /api/servers/:name",
          "POST /api/servers/:name/start", "GET /api/audit-logs", "GET /api/kpis", "GET /api/alerts",
          "GET /", "GET /api/internal/debug", "GET /users", "ANY /api/hook"]


def test_an_endpoint_list_is_the_declared_surface_and_what_it_leaves_out_is_internal():
    readme = ("# svc\n\n## API Endpoints\n\n"
              "- `GET /health` - Health check\n"
              "### GET /api/servers\n"
              "| GET | /api/servers/{name} | Server details |\n"
              "1. **POST** `/api/servers/:name/start` - Start\n"
              "| `GET /api/kpis`, `/api/alerts` | the row's GET applies to both |\n"
              ".. http:get:: /users\n"
              "| POST | /api/hook | a route of every method is listed by any |\n\n"
              "The dashboard is at `/`. Audit logs: see /api/audit-logs.\n")
    seen = _visibility(SERVED, [("README.md", readme)])
    assert seen == {
        "GET /health": "public", "GET /api/servers": "public", "GET /api/servers/:name": "public",
        "DELETE /api/servers/:name": "internal",  # its path is listed, under another method only
        "POST /api/servers/:name/start": "public", "GET /api/kpis": "public", "GET /api/alerts": "public",
        "GET /": "public", "GET /api/audit-logs": "public",  # named in prose, not in the list
        "GET /api/internal/debug": "internal", "GET /users": "public", "ANY /api/hook": "public",
    }
    routes = [dict(_route(n), unknowns=[]) for n in SERVED]
    link_documented_routes(routes, [("README.md", readme)])
    notes = {r["name"]: r["unknowns"] for r in routes if r["unknowns"]}
    assert notes == {n: ["served, but not among the endpoints the documentation lists (README.md)"]
                     for n in ("DELETE /api/servers/:name", "GET /api/internal/debug")}


def test_a_list_that_says_it_goes_on_declares_nothing():
    """@commercejs/nuxt's table of 12 endpoints ends `| ... | ... | 30+ more routes |`: the rest are
    still public."""
    rows = "".join(f"| `/api/x/{n}` | GET | {n} |\n" for n in ("a", "b", "c"))
    routes = ["GET /api/x/a", "GET /api/x/b", "GET /api/x/c", "GET /api/x/d"]
    table = "| Endpoint | Method | Description |\n|---|---|---|\n" + rows
    assert _visibility(routes, [("README.md", table)])["GET /api/x/d"] == "internal"
    for more in ("| ... | ... | 30+ more routes |\n", "\nAnd more endpoints for carts.\n", "- ...\n"):
        assert _visibility(routes, [("README.md", table + more)])["GET /api/x/d"] == "public", more


def test_no_list_no_change_too_few_entries_another_servers_list_a_changelog_or_a_declared_route():
    every = {n: "public" for n in SERVED}
    two = "- `GET /health`\n- `GET /api/servers`\n"
    assert _visibility(SERVED, [("README.md", two)]) == every  # two entries name routes, they make no list
    theirs = "".join(f"- `GET /v2/{word}`\n" for word in ("repos", "issues", "pulls", "users")) + "- `GET /health`\n"
    assert _visibility(SERVED, [("README.md", theirs)]) == every  # most entries are another server's
    history = "".join(f"- GET {path} now returns JSON\n" for path in ("/health", "/api/servers", "/users"))
    assert _visibility(SERVED, [("CHANGELOG.md", history)]) == every  # history, not what is served
    listed = _visibility(SERVED, [("docs/api.md", history)], declared=("GET /api/internal/debug",))
    assert listed["GET /api/internal/debug"] == "public"  # an OpenAPI document declares it
    assert listed["GET /api/kpis"] == "internal" and listed["GET /"] == "internal"


def test_a_list_of_a_few_of_many_routes_is_a_selection_and_hides_none():
    # chimera-api's README lists 8 of the 481 routes its code serves: highlights, not its surface
    served = [f"GET /api/v1/{area}/{thing}" for area in ("banking", "health", "shop", "telecom")
              for thing in ("accounts", "orders", "users", "items", "logs")]
    readme = "## Endpoints\n\n- `GET /api/v1/banking/accounts`\n- `GET /api/v1/shop/orders`\n"
    assert set(_visibility(served, [("README.md", readme)]).values()) == {"public"}  # 2 of 20: no list anyway
    three = readme + "- `GET /api/v1/health/users`\n"
    assert set(_visibility(served, [("README.md", three)]).values()) == {"internal", "public"}  # 3 of 20
    many = served + [f"GET /api/v2/{n}" for n in range(60)]  # 3 of 80: fewer than one in 20
    assert set(_visibility(many, [("README.md", three)]).values()) == {"public"}


def test_entries_with_a_colon_after_the_method_and_sections_that_a_method_heads():
    readme = ("## Base APIs Design\n\n- `POST: /register/`: Register\n- `GET: /profile/`: Profile\n\n"
              "# REST API\n\n## GET Endpoints\n\n### `/v1/wallets/`: Get wallet\n\nReturns:\n\n- `/v1/x` is prose\n\n"
              "## POST Endpoints\n\n### `/v1/wallets/`: Create a wallet\n| `/v1/txproposals/` | Add a proposal |\n\n"
              "## Errors\n\n### `/v1/version/`: under no method's heading\n")
    names = ["POST /register/", "GET /profile/", "GET /v1/wallets/", "POST /v1/wallets/", "POST /v1/txproposals/",
             "PUT /v1/wallets/", "GET /v1/version", "GET /v1/debug"]
    assert _visibility(names, [("README.md", readme)]) == {
        "POST /register/": "public", "GET /profile/": "public", "GET /v1/wallets/": "public",
        "POST /v1/wallets/": "public", "POST /v1/txproposals/": "public",
        "PUT /v1/wallets/": "internal",  # listed under GET and POST only
        "GET /v1/version": "public",  # named, though in no list
        "GET /v1/debug": "internal",
    }
    joined = endpoint_list([("README.md", "| `GET/POST` | `/<slug>/admin/posts/new` |\n")])[0]
    assert sorted(joined) == [("GET", "/<slug>/admin/posts/new"), ("POST", "/<slug>/admin/posts/new")]
    entries, _ = endpoint_list([("README.md", readme)])
    assert sorted(f"{m} {p} :{line}" for (m, p), (_, line) in entries.items()) == [
        "GET /profile :4", "GET /v1/wallets :10", "GET /v1/x :14", "POST /register :3", "POST /v1/txproposals :19",
        "POST /v1/wallets :18"]  # a bullet that begins with a path, in a method's section, is one of its entries



def test_a_table_that_gives_the_path_before_the_method():
    readme = ("## API Endpoints\n\n| Endpoint | Method | Description |\n| --- | --- | --- |\n"
              "| `/health` | GET | Health check |\n| `/v1/messages` | POST | Messages (see `/docs`) |\n"
              "| `/files/{name}` | Download | GET, DELETE | a file |\n| `/v1/models` | GET | Models |\n"
              "| `/not/an/entry` | Something | Else | GET |\n")
    listed = ("| `/services/{id}/{start,stop}/` | POST | Power |\n- `GET /x/{a,b}` and /y\n"
              "- `GET /assistants/{id}/{schemas|graph}`\n"  # (skeino's alternatives, with bars)
              "| `POST /comments/{id}/approve/` `…/reject/` | moderators |\n"  # an elided path: a sibling
              "| `GET /notifications/`, `POST …/read-all/` | inbox |\n"  # below one segment: a child
              "| POST | /api/auth/login · register | auth |\n"  # siblings after middle dots
              "| `GET`/`DELETE` | `/api/keys[/{id}]` | keys |\n")  # an optional part: both paths
    alternatives = endpoint_list([("README.md", listed)])[0]
    assert sorted(alternatives) == [("DELETE", "/api/keys"), ("DELETE", "/api/keys/{id}"), ("GET", "/api/keys"),
                                    ("GET", "/api/keys/{id}"), ("GET", "/assistants/{id}/graph"),
                                    ("GET", "/assistants/{id}/schemas"),
                                    ("GET", "/notifications"), ("GET", "/x/a"), ("GET", "/x/b"), ("GET", "/y"),
                                    ("POST", "/api/auth/login"), ("POST", "/api/auth/register"),
                                    ("POST", "/comments/{id}/approve"), ("POST", "/comments/{id}/reject"),
                                    ("POST", "/notifications/read-all"),
                                    ("POST", "/services/{id}/start"), ("POST", "/services/{id}/stop")]
    entries = endpoint_list([("README.md", readme)])[0]
    assert sorted(f"{m} {p} :{line}" for (m, p), (_, line) in entries.items()) == [
        "DELETE /files/{name} :7", "GET /files/{name} :7", "GET /health :5", "GET /v1/models :8",
        "POST /v1/messages :6"]  # (the method's cell next to the path's, or one cell after it)
    names = ["GET /health", "POST /v1/messages", "GET /v1/models", "GET /api/accounts", "GET /docs"]
    assert _visibility(names, [("README.md", readme)]) == {
        "GET /health": "public", "POST /v1/messages": "public", "GET /v1/models": "public",
        "GET /api/accounts": "internal",  # served, but the list leaves it out
        "GET /docs": "internal",  # an entry's line is the list's: what its description names is not an entry
    }

def test_methods_with_spaced_marks_and_segments_in_code_spans_after_a_path():
    """pulse-task's `| GET / PATCH / DELETE | `/api/tasks/{id}` |` and `| POST | `/api/tasks/{id}/enable`
    `/disable` `/run` |`: the marks between methods are no path, and the lone segments are the
    path's siblings (and, as written, paths of their own)."""
    table = ("| Method | Path | What |\n|---|---|---|\n| GET / PATCH / DELETE | `/api/tasks/{id}` | one |\n"
             "| POST | `/api/tasks/{id}/enable` `/disable` `/run` | switch |\n| GET , HEAD | `/api/ping` | up |\n")
    assert sorted(endpoint_list([("README.md", table)])[0]) == [
        ("DELETE", "/api/tasks/{id}"), ("GET", "/api/ping"), ("GET", "/api/tasks/{id}"), ("HEAD", "/api/ping"),
        ("PATCH", "/api/tasks/{id}"), ("POST", "/api/tasks/{id}/disable"), ("POST", "/api/tasks/{id}/enable"),
        ("POST", "/api/tasks/{id}/run"), ("POST", "/disable"), ("POST", "/run")]


def test_a_code_span_of_a_method_and_a_path_without_its_leading_slash():
    """openhim-core's API reference: `GET keystore/cert` beside `GET /channels`; django-universal-auth's
    table rows `| `POST logout` | Bearer |`, relative to where the app is included; not prose."""
    docs = ("#### Fetch the cert\n\n`GET keystore/cert`\n\n- `DELETE keystore/ca/_id` removes one\n\n"
            "`GET /channels`\n\n| `POST logout` | Bearer |\n| `GET POST` | `/accounts/` | two methods, no path |\n\n"
            "We GET things/stuff in prose, and `GET the docs`, `GET` alone.\n")
    assert sorted(endpoint_list([("README.md", docs)])[0]) == [
        ("DELETE", "/keystore/ca/_id"), ("GET", "/accounts"), ("GET", "/channels"), ("GET", "/keystore/cert"),
        ("POST", "/accounts"), ("POST", "/logout")]


def test_a_tables_method_cell_then_a_code_span_of_a_path_without_its_leading_slash():
    """django-forge-auth's table, "paths relative to the `forge_auth/` prefix": `| GET | `groups/` |`,
    `| PATCH / PUT | `users/{id}/` |`, django-widget-hub's `| GET | `catalog` |`, freehand-kit-auth's
    `| `POST` | `token/refresh/`, `logout/` |`; a word in prose is no path."""
    docs = ("| Méthode | Chemin | Action |\n|---|---|---|\n| GET | `groups/` | Liste |\n"
            "| PATCH / PUT | `users/{id}/` | Modification |\n| POST | `users/login/` | Connexion |\n"
            "| GET | `catalog` | every widget |\n| `POST` | `token/refresh/`, `logout/` | tokens |\n"
            "\nWe GET `status` in prose.\n")
    assert sorted(endpoint_list([("README.md", docs)])[0]) == [
        ("GET", "/catalog"), ("GET", "/groups"), ("PATCH", "/users/{id}"), ("POST", "/logout"),
        ("POST", "/token/refresh"), ("POST", "/users/login"), ("PUT", "/users/{id}")]


def test_methods_in_code_spans_then_a_path_with_an_optional_end_in_parentheses():
    """waqt-api: `| `GET`/`POST /v1/institutional/fiscal-year(/resolve)` | ... |`: both methods, the
    path with and without its optional end."""
    docs = ("| Endpoint | What |\n|---|---|\n| `GET`/`POST /v1/fiscal-year(/resolve)` | a year |\n"
            "| `GET /v1/week` | a week |\n")
    assert sorted(endpoint_list([("README.md", docs)])[0]) == [
        ("GET", "/v1/fiscal-year"), ("GET", "/v1/fiscal-year/resolve"), ("GET", "/v1/week"),
        ("POST", "/v1/fiscal-year"), ("POST", "/v1/fiscal-year/resolve")]


def test_a_route_mounted_at_two_prefixes_is_listed_where_the_list_names_it_at_either():
    """lattice-meetbot-admin: its table lists the router's `/meetings`; the dev server mounts that router
    at /api/meetbot-admin too. One registration, listed: both paths stay public; an unlisted one is not."""
    routes = [dict(_route(name), unknowns=[], source={"path": "routes.py", "line": line})
              for name, line in (("GET /meetings", 3), ("GET /api/meetbot-admin/meetings", 3), ("GET /personas", 5),
                                 ("GET /api/meetbot-admin/personas", 5), ("GET /debug", 7),
                                 ("GET /api/meetbot-admin/debug", 7))]
    for route in routes:
        route["evidence"] = [{"kind": "route", "detail": "fastapi: ...", "path": "routes.py", "line": 3}]
    for route in routes[1::2]:
        route["evidence"][0]["mounted_at"] = "/api/meetbot-admin"
    link_documented_routes(routes, [("README.md", "| GET | `/meetings` |\n| GET | `/personas` |\n| GET | `/x` |\n")])
    assert [r["visibility"] for r in routes] == ["public"] * 4 + ["internal"] * 2


def test_the_paths_of_one_written_path_are_listed_together():
    """`re_path(r"^social/token/(?:(?P<provider>\\w+)/?)?$")` serves two paths: a list naming one
    names both. Two decorators on one function (`@app.route("/load")`, `@app.route("/v1/load")`) are
    two paths written, each listed or not."""
    regex = "^social/token/(?:(?P<provider>\\w+)/?)?$"
    routes = [dict(_route(name), unknowns=[], source={"path": "urls.py", "line": line})
              for name, line in (("ANY /social/token/", 3), ("ANY /social/token/{provider}", 3), ("POST /load", 7),
                                 ("POST /v1/load", 7), ("POST /debug", 9))]
    for route in routes[:2]:
        route["evidence"].append({"kind": "route", "detail": "django: ...", "template": regex})
    link_documented_routes(routes, [("README.md", "- `POST /social/token/`\n- `POST /load`\n- `POST /a`\n")])
    assert [r["visibility"] for r in routes] == ["public", "public", "public", "internal", "internal"]


def test_a_route_of_parameters_only_is_named_only_by_a_path_of_its_shape():
    routes = [_route(n) for n in ("GET /:name", "GET /:name/:version", "GET /{a}/{b}/{c}")]
    link_documented_routes(routes, [("README.md", "Fetch `/:package/:tag_or_version`, or /lodash, or /a/b/c.\n")])
    assert [[e["detail"] for e in r["evidence"]] for r in routes] == [
        [], ["README.md names /:package/:tag_or_version"], []]  # /lodash and /a/b/c are examples of anything


def test_a_tables_prefix_column_names_the_rows_paths_under_it():
    routes = [_route(n) for n in ("GET /coqui/api/tts", "POST /google/v1/text:synthesize", "GET /api/tts/extra")]
    docs = ("| Vendor | Prefix | Endpoint |\n|---|---|---|\n| Coqui | `/coqui` | `GET /api/tts` |\n"
            "| Google | `/google` | `POST /v1/text:synthesize` |\nProse with /coqui and then /api/tts/extra/more.\n")
    link_documented_routes(routes, [("README.md", docs)])
    assert [[e["detail"] for e in r["evidence"]] for r in routes] == [
        ["README.md names /coqui/api/tts"], ["README.md names /google/v1/text:synthesize"],
        []]  # outside a table's row, two paths on a line are two paths


def test_an_openapi_document_of_part_of_the_service_does_not_hide_what_the_list_names():
    """quillet ships an OpenAPI document of its JSON API only; its README's table lists the web pages too."""
    from miners.declared_routes import UNDECLARED

    omitted = UNDECLARED.format(paths="quillet/openapi.yaml")
    routes = [dict(_route(n), unknowns=[omitted]) for n in ("GET /<slug>/", "POST /<slug>/subscribe", "GET /<slug>/x")]
    for route in routes:
        route["visibility"] = "internal"
    declared = [dict(_route("GET /<slug>/api/posts"), unknowns=[])]
    declared[0]["evidence"].append({"kind": "declaration", "detail": "openapi: listPosts", "pointer": "/paths"})
    docs = "| `GET` | `/<slug>/` |\n| `POST` | `/<slug>/subscribe` |\n| `GET` | `/<slug>/api/posts` |\n"
    link_documented_routes(routes + declared, [("README.md", docs)])
    assert [(r["visibility"], r["unknowns"]) for r in routes] == [
        ("public", []), ("public", []), ("internal", [omitted])]  # listed; listed; neither listed nor declared



def test_a_method_and_path_named_in_prose_keep_a_route_a_partial_openapi_document_omits():
    from miners.declared_routes import UNDECLARED

    omitted = UNDECLARED.format(paths="misc/TabPy.yml")
    routes = [dict(_route(n), unknowns=[omitted]) for n in ("POST /endpoints", "DELETE /endpoints/{arg1}",
                                                            "PUT /endpoints/{arg1}", "GET /status", "GET /hidden")]
    for route in routes:
        route["visibility"] = "internal"
    operations = [{"kind": "declared-operation", "declared": {"format": "openapi", "metadata": {
        "method": "GET", "path": path, "servers": []}}} for path in ("/endpoints", "/endpoints/{name}")]
    docs = ("Mutating operations need a scope (`POST /endpoints`, `PUT`/`DELETE /endpoints/{name}`).\n"
            "Probes may call /status.\n")
    link_documented_routes(routes + operations, [("docs/server-config.md", docs)])
    assert [r["visibility"] for r in routes] == [
        "public", "public",
        "internal",  # PUT: its path is the document's, which has no PUT, and no line names PUT with its own path
        "public",  # a path the document has under no method, named in the docs: documented after all
        "internal"]


def test_fastapis_own_pages_are_internal_unless_the_docs_send_readers_to_them(tmp_path, capsys):
    from conftest import mined_routes
    from miners.documented_routes import FRAMEWORK_PAGE

    routes = mined_routes(tmp_path, capsys, {
        "pyproject.toml": '[project]\nname = "svc"\nversion = "1"\ndependencies = ["fastapi"]\n',
        "README.md": "Start it, then open the interactive docs at http://localhost:8000/docs.\n",
        "svc/__init__.py": "",
        "svc/app.py": ("from fastapi import FastAPI\napp = FastAPI()\n\n"
                       '@app.get("/items")\ndef items():\n    return []\n'),
    })
    visibility = {name: c["visibility"] for name, c in routes.items()}
    assert visibility == {"GET /items": "public", "GET /docs": "public", "GET /openapi.json": "internal",
                          "GET /redoc": "internal", "GET /docs/oauth2-redirect": "internal"}
    assert FRAMEWORK_PAGE.format("openapi_url") in routes["GET /openapi.json"]["unknowns"]
    assert not any(u.startswith("served by the framework") for u in routes["GET /docs"]["unknowns"])


def test_a_table_with_a_column_of_paths_and_none_of_methods():
    """nkscoder-django-tickets' `| Name | Path |` table of its main routes, and its `| Page | URL |`
    table: each row lists its path under the methods its cell gives, or under every method. A
    table with a column of methods is read as such, not here."""
    readme = ("## Main URL routes\n\n| Name | Path |\n|------|------|\n| `tickets:list` | `/tickets/` |\n"
              "| `tickets:create` | `/tickets/create_ticket/` |\n"
              "| `tickets:store` | `/tickets/create_ticket/store-create/` (POST) |\n"
              "| `tickets:detail` | `/tickets/ticket_detail/<id>/` |\n| `tickets:help` | see the docs |\n\n"
              "| Page | URL |\n|---|---|\n| Notifications | http://127.0.0.1:8000/tickets/notifications/ |\n\n"
              "| Setting | Default |\n|---|---|\n| `LOGIN` | `/accounts/login/` |\n\n"
              "| Path | Method |\n|---|---|\n| `/x/` | Download |\n")
    assert sorted(endpoint_list([("README.md", readme)])[0]) == [
        ("", "/tickets"), ("", "/tickets/create_ticket"), ("", "/tickets/notifications"),
        ("", "/tickets/ticket_detail/<id>"), ("POST", "/tickets/create_ticket/store-create")]
    # the app is mounted by its host: the list writes its paths under the mount, and the mount
    # alone is its root
    names = ["ANY /", "ANY /create_ticket/", "ANY /create_ticket/store-create/", "ANY /ticket_detail/<int:pk>/",
             "ANY /notifications/", "ANY /history/<int:pk>/", "GET /api/questions/"]
    assert _visibility(names, [("README.md", readme)]) == {
        "ANY /": "public", "ANY /create_ticket/": "public", "ANY /create_ticket/store-create/": "public",
        "ANY /ticket_detail/<int:pk>/": "public", "ANY /notifications/": "public",
        "ANY /history/<int:pk>/": "internal", "GET /api/questions/": "internal"}
    unmounted = readme.replace("| `tickets:list` | `/tickets/` |\n", "")
    assert _visibility(names, [("README.md", unmounted)])["ANY /"] == "internal"  # the list leaves its root out


def test_bullets_of_paths_in_a_section_headed_as_endpoints():
    """django-drf-coy-apis' reStructuredText `Key API Endpoints (All support full CRUD)` section of
    `* **Services**: ``/x/our-services`` and ``/our-services/<slug>``` bullets (a CRLF file): its
    paths are listed under every method; bullets elsewhere, and a bullet with a method, are not."""
    rst = ("Install\r\n-------\r\n\r\n* see ``/etc/app.conf``\r\n\r\n"
           "Key API Endpoints (All support full CRUD)\r\n-----------------------------------------\r\n\r\n"
           "* **Services**: ``/x/our-services`` and ``/our-services/<slug>``\r\n"
           "* **Contact**: ``/x/contact-us``\r\n* ``GET /x/stats`` only\r\n\r\nFAQ\r\n===\r\n\r\n* ``/x/faq``\r\n")
    assert sorted(endpoint_list([("README.rst", rst)])[0]) == [
        ("", "/our-services/<slug>"), ("", "/x/contact-us"), ("", "/x/our-services"), ("GET", "/x/stats")]
    md = "## Routes\n\n- `/health` is up\n- `/api/items`\n\n## Config\n\n- `/var/lib/app`\n"
    assert sorted(endpoint_list([("README.md", md)])[0]) == [("", "/api/items"), ("", "/health")]
    names = ["GET /our-services/", "DELETE /our-services/<slug:slug>/", "POST /contact-us/", "GET /faqs/",
             "GET /stats/", "DELETE /stats/"]
    assert _visibility(names, [("README.rst", rst)]) == {
        "GET /our-services/": "public", "DELETE /our-services/<slug:slug>/": "public", "POST /contact-us/": "public",
        "GET /faqs/": "internal",  # served, listed nowhere
        "GET /stats/": "public", "DELETE /stats/": "internal"}  # listed under GET alone


def test_a_route_of_parameters_alone_is_named_under_the_mount_the_list_writes():
    """django-notify-hub: a DRF router at the app's root serves `/{pk}/`, which the README lists
    under the host's mount (`DELETE /api/notifications/{id}/`, beside `/api/notifications/my/`):
    listed under that method, it stays public; under another it is not named."""
    readme = ("## Endpoints\n\n- `GET /api/notifications/my/`\n- `GET /api/notifications/unread-count/`\n"
              "- `DELETE /api/notifications/{id}/`\n")
    names = ["GET /my/", "GET /unread-count/", "DELETE /{pk}/", "GET /{pk}/", "GET /internal-only/"]
    assert _visibility(names, [("README.md", readme)]) == {
        "GET /my/": "public", "GET /unread-count/": "public", "DELETE /{pk}/": "public", "GET /{pk}/": "internal",
        "GET /internal-only/": "internal"}


def test_a_path_after_a_shell_variable_is_under_the_url_the_docs_set_it_to():
    """gridos: `BASE=http://127.0.0.1:8000/api/v1`, then `curl -X POST $BASE/devices/batt-1/connect`."""
    served = ["GET /api/v1/devices", "POST /api/v1/devices/register", "DELETE /api/v1/devices/{device_id}",
              "POST /api/v1/devices/{device_id}/connect", "POST /api/v1/devices/{device_id}/poll",
              "POST /api/v1/devices/{device_id}/reset"]
    readme = ("## Endpoints\n\n| Method | Path |\n|---|---|\n| GET | /api/v1/devices |\n"
              "| POST | /api/v1/devices/register |\n| DELETE | /api/v1/devices/{id} |\n\n"
              "```bash\nBASE=http://127.0.0.1:8000/api/v1\n"
              "curl -s -X POST $BASE/devices/batt-1/connect\ncurl -s -X POST ${BASE}/devices/batt-1/poll\n```\n")
    seen = _visibility(served, [("README.md", readme)])
    assert [n for n, v in seen.items() if v == "internal"] == ["POST /api/v1/devices/{device_id}/reset"], seen
    # a variable the docs never set: the path as written, which names no route under /api/v1
    unset = readme.replace("BASE=http://127.0.0.1:8000/api/v1\n", "")
    assert _visibility(served, [("README.md", unset)])["POST /api/v1/devices/{device_id}/connect"] == "internal"


def test_a_path_then_bar_segments_lists_the_last_segments_siblings():
    """pyuploadx-server's summary: `POST /v1/uploads/{id}/refresh | /complete | /abort`; a table's
    cells stay cells."""
    entries, _ = endpoint_list([("README.md", (
        "```text\nGET  /healthz | /readyz\nPOST /v1/uploads/{id}/refresh | /complete | /abort\n```\n\n"
        "| Method | Path | Notes |\n|---|---|---|\n| GET | /v1/files | /legacy |\n"))])
    assert sorted(entries) == [("GET", "/healthz"), ("GET", "/legacy"), ("GET", "/readyz"), ("GET", "/v1/files"),
                               ("POST", "/v1/uploads/{id}/abort"), ("POST", "/v1/uploads/{id}/complete"),
                               ("POST", "/v1/uploads/{id}/refresh")], sorted(entries)
