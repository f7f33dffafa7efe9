"""An OpenAPI document a JS module holds as an object literal (miners/js_openapi.py), read as the
package's declared HTTP surface like a shipped openapi.json (signalk-server's one per sub-API)."""

from __future__ import annotations

import json

from indexer.cli import main
from miners import parsing
from miners.facts import ParsedFile
from miners.js_openapi import js_openapi_document
from schemas.documents import validate

DOC = """"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const schemas_1 = require("../schemas");
const GATEWAY_BASE = '/signalk/v2/api/ble';
const autopilotApiDoc = {
    openapi: '3.0.0',
    info: { version: '2.0.0', title: 'Autopilot API' },
    servers: [{ url: '/signalk/v2/api/vessels/self/autopilots' }],
    paths: {
        '/': {
            get: { summary: 'List autopilots', responses: { default: schemas_1.DefaultResponse } }
        },
        '/{id}/engage': {
            post: { summary: 'Engage the autopilot', responses: { '200': { description: 'ok' } } }
        },
        '/gateways': {
            get: { servers: [{ url: GATEWAY_BASE }], summary: 'Gateways', responses: {} }
        },
        ...schemas_1.morePaths
    }
};
exports.autopilotApiRecord = { name: 'autopilot', apiDoc: autopilotApiDoc };
"""

SERVER = """const express = require('express');
const app = express();
const AUTOPILOT_API_PATH = `/signalk/v2/api/vessels/self/autopilots`;
app.get(`${AUTOPILOT_API_PATH}`, (req, res) => res.json([]));
app.post(`${AUTOPILOT_API_PATH}/:id/engage`, (req, res) => res.end());
app.get(`${AUTOPILOT_API_PATH}/:id/debug`, (req, res) => res.end());
module.exports = app;
"""


def _doc(source: str):
    data = source.encode()
    return js_openapi_document(ParsedFile("openApi.js", "javascript", data, parsing.parse("javascript", data)))


def test_only_literal_values_are_read_and_a_constant_string_is_its_value():
    doc, lines = _doc(DOC)
    assert doc["openapi"] == "3.0.0" and doc["servers"] == [{"url": "/signalk/v2/api/vessels/self/autopilots"}]
    assert sorted(doc["paths"]) == ["/", "/gateways", "/{id}/engage"]  # the spread is no literal
    assert doc["paths"]["/"]["get"] == {"summary": "List autopilots", "responses": {}}  # nor is another module's schema
    assert doc["paths"]["/gateways"]["get"]["servers"] == [{"url": "/signalk/v2/api/ble"}]
    assert lines["/paths/~1{id}~1engage/post"] == DOC.splitlines().index("            post: { summary: 'Engage the autopilot', responses: { '200': { description: 'ok' } } }") + 1


def test_no_document_without_a_3x_version_and_paths():
    assert _doc("const api = { openapi: '2.0', paths: {} };\n") is None
    assert _doc("const api = { openapi: '3.0.0', info: {} };\n") is None
    assert _doc("// see the openapi: 3.0 document\nconst x = 1;\n") is None


def test_a_modules_document_declares_the_routes_the_code_serves(tmp_path, capsys):
    root = tmp_path / "sk"
    for name, text in {"package.json": '{"name": "sk", "version": "1.0.0", "main": "server.js"}',
                       "server.js": SERVER, "api/autopilot/openApi.js": DOC}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    assert main(["--db", str(tmp_path / "s.db"), "--json", "mine", str(root)]) == 0
    report = json.loads(capsys.readouterr().out)
    validate("report", report, "report")
    ops = {c["name"]: c for c in report["candidates"] if c["kind"] == "declared-operation"}
    assert len(ops) == 3 and all(c["source"]["path"] == "api/autopilot/openApi.js" for c in ops.values())
    assert all(c["executable"] is False for c in ops.values())
    routes = {c["name"]: c for c in report["candidates"] if c["kind"] == "http-route"}
    engage = routes["POST /signalk/v2/api/vessels/self/autopilots/:id/engage"]
    assert engage["visibility"] == "public" and engage["description"] == "Engage the autopilot"
    assert any(e["kind"] == "declaration" and e["path"] == "api/autopilot/openApi.js" for e in engage["evidence"])
    assert routes["GET /signalk/v2/api/vessels/self/autopilots/:id/debug"]["visibility"] == "internal"
    assert any(f["path"] == "api/autopilot/openApi.js" and f["format"] == "openapi" for f in report["declared"]["files"])


def test_a_modules_document_without_servers_is_kept_only_when_the_code_serves_it_as_written(tmp_path, capsys):
    """@neaps/api builds its document with `servers: [{ url: req.baseUrl }]` where it serves it:
    its paths are served under a mount the host picks, and its operations are not taken as routes."""
    unplaced = DOC.replace("    servers: [{ url: '/signalk/v2/api/vessels/self/autopilots' }],\n", "")

    def declared(server: str) -> tuple[list[str], list[str]]:
        root = tmp_path / ("at" + server.replace("/", "_"))
        for name, text in {"package.json": '{"name": "t", "version": "1.0.0", "main": "server.js"}',
                           "server.js": SERVER.replace("`${AUTOPILOT_API_PATH}/", f"`{server}/"),
                           "openApi.js": unplaced}.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)
        assert main(["--db", str(tmp_path / "s.db"), "--json", "mine", str(root)]) == 0
        report = json.loads(capsys.readouterr().out)
        validate("report", report, "report")
        files = [f["path"] for f in report["declared"]["files"]]
        return sorted(c["name"] for c in report["candidates"] if c["kind"] == "declared-operation"), files

    assert declared("/tides") == ([], [])  # mounted where the host says: the code serves none as written
    names, files = declared("")  # served as written: the code's routes are its operations
    assert len(names) == 3 and files == ["openApi.js"]
