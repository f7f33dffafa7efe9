"""miners/directus_endpoint.py through `capindex mine`: a Directus endpoint extension's routes,
on the router its default export is handed, under its id or its name."""

from __future__ import annotations

import json

from tests.conftest import mined_routes

MINIFIED = ('var Ec=(e,t,n)=>n();var Tc=async(e,{database:t})=>{e.use(Ec),'
            'e.get("/table/:table",async(n,r)=>r.json([])),e.post("/table/:table",async(n,r)=>r.json({})),'
            't.get("/not/a/route",1)};export{Tc as default};\n')
OBJECT = ('import { defineEndpoint } from "@directus/extensions-sdk";\n'
          'export default defineEndpoint({ id: "greet", handler: (router) => {\n'
          '  router.get("/", (req, res) => res.send("Hello"));\n}});\n')


def _package(name: str, kind: str = "endpoint") -> str:
    return json.dumps({"name": name, "version": "1.0.0",
                       "directus:extension": {"type": kind, "path": "dist/index.js", "host": "^11.0.0"}})


def test_a_directus_endpoint_extensions_routes_are_served_under_its_id_or_name(tmp_path, capsys):
    routes = mined_routes(tmp_path, capsys, {"package.json": _package("directus-extension-sync"),
                                             "dist/index.js": MINIFIED})
    assert sorted(routes) == ["GET /directus-extension-sync/table/:table", "POST /directus-extension-sync/table/:table"]
    greet = mined_routes(tmp_path / "greet", capsys, {"package.json": _package("directus-extension-greet"),
                                                      "dist/index.js": OBJECT})
    assert sorted(greet) == ["GET /greet"]
    # a package that declares no endpoint extension: a default export's calls are no routes
    other = mined_routes(tmp_path / "other", capsys, {"package.json": _package("x", "hook"),
                                                      "dist/index.js": MINIFIED})
    assert other == {}
