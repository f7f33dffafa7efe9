"""miners/declared_routes.py through `capindex mine`: the routes a service's code serves, against the
operations of the OpenAPI or Swagger document it ships."""

from __future__ import annotations

import json

from indexer.cli import main
from schemas.documents import validate

# A Flask service: its API under /api/v1 (as its OpenAPI document's server says), web pages beside it,
# one of them on the API's path without the prefix.
APP = '''
from flask import Flask, render_template

app = Flask(__name__)


@app.route("/api/v1/watch", methods=["GET"])
def list_watches():
    return {}


@app.route("/api/v1/watch/<uuid_str:uuid>", methods=["DELETE"])
def delete_watch(uuid):
    """Forget a watch."""
    return ""


@app.route("/import", methods=["POST"])
def import_page():
    return render_template("import.html")


@app.route("/settings")
def settings_page():
    return render_template("settings.html")
'''

SPEC = '''openapi: 3.1.0
info:
  title: Watch API
  version: 1.0.0
servers:
  - url: http://localhost:5000/api/v1
paths:
  /watch:
    get:
      operationId: listWatches
      description: List every watch.
      parameters:
        - name: tag
          in: query
          schema: {type: string}
      responses:
        "200":
          description: the watches
          content:
            application/json:
              schema: {type: object}
  /watch/{uuid}:
    delete:
      operationId: deleteWatch
      description: Delete a watch.
      parameters:
        - {name: uuid, in: path, required: true, schema: {type: string}}
      responses:
        "204": {description: gone}
  /import:
    post:
      operationId: importWatches
      description: Import URLs.
      responses:
        "200": {description: imported}
'''


def mine(tmp_path, capsys, root) -> dict:
    assert main(["--db", str(tmp_path / "s.db"), "--json", "mine", str(root)]) == 0
    report = json.loads(capsys.readouterr().out)
    validate("report", report, "report")
    return report


def write(root, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def by_kind(report: dict, kind: str) -> dict[str, dict]:
    return {c["name"]: c for c in report["candidates"] if c["kind"] == kind}


def test_routes_a_shipped_openapi_document_declares_are_linked_and_the_rest_are_internal(tmp_path, capsys):
    root = tmp_path / "svc"
    write(root, {"svc/app.py": APP, "svc/docs/api-spec.yaml": SPEC})
    report = mine(tmp_path, capsys, root)
    routes, ops = by_kind(report, "http-route"), by_kind(report, "declared-operation")
    assert set(ops) == {"listWatches", "deleteWatch", "importWatches"}  # docs/ is read for OpenAPI documents
    assert {n for n, c in routes.items() if c["visibility"] == "public"} == \
        {"GET /api/v1/watch", "DELETE /api/v1/watch/<uuid_str:uuid>"}

    listing = routes["GET /api/v1/watch"]
    declared = listing["evidence"][-1]
    assert declared["kind"] == "declaration" and declared["path"] == "svc/docs/api-spec.yaml"
    assert declared["line"] == SPEC.splitlines().index("    get:") + 1
    assert declared["candidate"] == ops["listWatches"]["id"] and declared["pointer"] == "/paths/~1watch/get"
    assert listing["confidence"] == 0.95
    assert listing["description"] == "List every watch."  # the code gave none
    assert listing["draft_contract"]["input"]["properties"]["tag"]["x-openapi-in"] == "query"
    assert listing["draft_contract"]["output"] == {"type": "object"}
    assert "input and output schemas are the OpenAPI document's, not the code's" in listing["unknowns"]
    assert routes["DELETE /api/v1/watch/<uuid_str:uuid>"]["description"] == "Forget a watch."  # the code's own

    served = ops["deleteWatch"]["evidence"][-1]
    assert served["kind"] == "route" and served["path"] == "svc/app.py"
    assert served["line"] == APP.splitlines().index('@app.route("/api/v1/watch/<uuid_str:uuid>", methods=["DELETE"])') + 1
    assert ops["deleteWatch"]["confidence"] == 0.95
    # declared, but not served where the document says: the web page on its bare path is another route
    assert all(e["kind"] != "route" for e in ops["importWatches"]["evidence"])
    assert ops["importWatches"]["confidence"] == 0.9

    for page in ("POST /import", "GET /settings"):
        assert routes[page]["visibility"] == "internal"
        assert "served, but not among the operations of the package's OpenAPI document (svc/docs/api-spec.yaml)" \
            in routes[page]["unknowns"]
        assert routes[page]["confidence"] == 0.8


def test_swagger_2_base_path_and_routes_of_every_method(tmp_path, capsys):
    root = tmp_path / "gw"
    swagger = {"swagger": "2.0", "info": {"title": "Gateway", "version": "1"}, "basePath": "/api/",
               "paths": {"/kernels": {"get": {"responses": {"200": {"description": "ok"}}}},
                         "/kernels/{id}": {"delete": {"responses": {"204": {"description": "gone"}}}},
                         "/status": {"get": {"responses": {"200": {"description": "ok"}}}}}}
    write(root, {
        "server.js": ("const express = require('express');\nconst app = express();\n"
                      "app.get('/api/kernels', (req, res) => res.json([]));\n"
                      "app.delete('/api/kernels/:id', (req, res) => res.end());\n"
                      "app.all('/api/status', (req, res) => res.end());\n"
                      "app.get('/metrics', (req, res) => res.end());\nmodule.exports = app;\n"),
        "swagger.json": json.dumps(swagger, indent=1),
    })
    routes = by_kind(mine(tmp_path, capsys, root), "http-route")
    assert {n: c["visibility"] for n, c in routes.items()} == {
        "GET /api/kernels": "public", "DELETE /api/kernels/:id": "public", "ANY /api/status": "public",
        "GET /metrics": "internal"}
    assert routes["DELETE /api/kernels/:id"]["evidence"][-1]["detail"] == \
        "openapi: DELETE /kernels/{id} declares DELETE /kernels/{id}"


def test_a_document_that_describes_no_route_of_the_code_changes_nothing(tmp_path, capsys):
    # a service that ships another API's document (a client of it, a fixture): its own routes stay public
    root = tmp_path / "other"
    write(root, {"svc/app.py": APP, "svc/petstore.yaml": SPEC.replace("/api/v1", "/store").replace("/watch", "/pets")
                 .replace("/import", "/orders"),
                 # docs/ holds an OpenAPI document of the API, and examples of anything else
                 "docs/capability.json": json.dumps({"specVersion": "0.1", "id": "acme/x", "version": "1.0.0",
                                                     "name": "x", "description": "x", "effects": []}),
                 "examples/api.yaml": SPEC})
    report = mine(tmp_path, capsys, root)
    routes = by_kind(report, "http-route")
    assert all(c["visibility"] == "public" and c["confidence"] == 0.8 for c in routes.values())
    assert {f["path"] for f in report["declared"]["files"]} == {"svc/petstore.yaml"}
    assert all(e["kind"] != "route" for c in by_kind(report, "declared-operation").values() for e in c["evidence"])


def test_an_api_document_in_a_spec_directory_is_read_and_a_test_fixture_there_is_not(tmp_path, capsys):
    # `spec/` is where JS packages keep their tests, and as often their API specification
    # (@xen-orchestra/rest-api ships open-api/spec/swagger.json beside no test at all)
    root = tmp_path / "svc"
    fixture = SPEC.replace("/watch", "/pets").replace("listWatches", "listPets").replace("deleteWatch", "deletePet") \
        .replace("importWatches", "importPets")
    write(root, {"svc/app.py": APP, "open-api/spec/openapi.yaml": SPEC, "docs/spec/extra.yaml": SPEC.replace(
        "/import", "/export").replace("importWatches", "exportWatches"),
        "spec/fixtures/petstore.yaml": fixture, "test/spec/other.yaml": fixture, "spec/support/jasmine.json": "{}"})
    report = mine(tmp_path, capsys, root)
    assert {f["path"] for f in report["declared"]["files"]} == {"open-api/spec/openapi.yaml", "docs/spec/extra.yaml"}
    assert set(by_kind(report, "declared-operation")) == {"listWatches", "deleteWatch", "importWatches",
                                                         "exportWatches"}
    assert by_kind(report, "http-route")["GET /settings"]["visibility"] == "internal"


def test_a_route_key_reads_any_parameter_syntax_as_one_parameter():
    from miners.declared_routes import route_key

    assert {route_key("get", p) for p in ("/render/:url(.*)", "/render/{url}", "/render/<path:url>", "/render/:u?",
                                          "/render/:url(.*)/")} == {("GET", "/render/{}")}
