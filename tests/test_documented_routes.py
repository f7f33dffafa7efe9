"""Routes a package serves and its documentation names: the documentation is evidence, and a
wheel's METADATA (its README) is documentation."""

from __future__ import annotations

import json

from indexer.cli import main
from miners.documented_routes import link_documented_routes


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
