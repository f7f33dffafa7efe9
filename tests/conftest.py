from __future__ import annotations

import functools
import json
import os
from pathlib import Path

import pytest

from schemas import SCHEMA_FILES
from schemas.jsonschema_validation import make_validator

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "federation"


# The interop kinds: the reference ships a schema of the same file name for each.
REFERENCE_FILES = {kind: SCHEMA_FILES[kind] for kind in ("manifest", "index", "site", "gap", "binding", "bridge")}


def reference_dir() -> Path:
    """The Capability reference schemas and examples: ../shared/reference beside the checkout, or $CAPINDEX_REFERENCE."""
    override = os.environ.get("CAPINDEX_REFERENCE")
    return Path(override) if override else ROOT.parent / "shared" / "reference" / "capability-1.x"


def reference_problem() -> str | None:
    where = reference_dir()
    wanted = [*REFERENCE_FILES.values(), "examples/registry-index.json", "examples/.well-known/capabilities.json"]
    missing = [name for name in wanted if not (where / name).is_file()]
    if missing:
        return (
            f"the Capability 1.x reference is missing from {where} (no {', '.join(missing)}); "
            "set CAPINDEX_REFERENCE to the directory that holds its schemas and examples/"
        )
    return None


def require_reference() -> Path:
    """The reference directory; the test fails (never skips) without it."""
    problem = reference_problem()
    if problem:
        pytest.fail(problem, pytrace=False)
    return reference_dir()


@functools.cache
def reference_schemas() -> dict[str, dict]:
    where = require_reference()
    return {kind: json.loads((where / name).read_text("utf-8")) for kind, name in REFERENCE_FILES.items()}


@functools.cache
def reference_validator(kind: str):
    """The reference schema for `kind`, evaluated with ECMAScript semantics as its JavaScript validators do."""
    schemas = reference_schemas()
    return make_validator(schemas[kind], [s for k, s in schemas.items() if k != kind])


@pytest.fixture
def reference() -> Path:
    return require_reference()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "capindex.db"


def manifest(cap_id: str, **extra) -> dict:
    doc = {
        "specVersion": "0.1",
        "id": cap_id,
        "version": "1.0.0",
        "name": cap_id.replace("/", " ").title(),
        "description": f"Does {cap_id} for tests.",
        "effects": [],
        "tags": [cap_id.split("/")[0]],
    }
    doc.update(extra)
    return doc


def package(name: str, version: str, *cap_ids: str, **extra) -> dict:
    pkg = {
        "name": name,
        "version": version,
        "source": "npm",
        "capabilities": [{"manifest": manifest(c), "module": f"./dist/{c.split('/')[-1]}.js"} for c in cap_ids],
    }
    pkg.update(extra)
    return pkg


def index_doc(*packages: dict, generated_at: str = "2026-05-01T12:00:00.000Z", **extra) -> dict:
    doc = {"indexVersion": "0.1", "generatedAt": generated_at, "packages": list(packages)}
    doc.update(extra)
    return doc


def write_json(path: Path, doc) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    return path


@pytest.fixture
def web():
    from webserver import Web

    server = Web()
    yield server
    server.close()


def rows(db_path, sql: str, *args) -> list[tuple]:
    """The rows a query returns from a store, read with a plain connection of its own."""
    import sqlite3

    conn = sqlite3.connect(db_path)
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


def registry_gateway(*hosts: str) -> list[str]:
    """--allow-network for the hosts' addresses when they are not public ones: on this project's
    machines the registries are reached through a gateway on a documentation range, which the
    address policy refuses by default (as it should)."""
    import socket

    from indexer.policy import address_problem

    return [arg for host in hosts for info in socket.getaddrinfo(host, 443, type=socket.SOCK_STREAM)
            if address_problem(info[4][0]) for arg in ("--allow-network", info[4][0])]


def mined_routes(tmp_path: Path, capsys, files: dict[str, str]) -> dict[str, dict]:
    """The http-route candidates, by name, of a tree of `files` ({path: text}) mined through the CLI
    (the report validated)."""
    from indexer.cli import main
    from schemas.documents import validate

    root = tmp_path / "tree"
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    assert main(["--db", str(tmp_path / "s.db"), "--json", "mine", str(root)]) == 0
    report = json.loads(capsys.readouterr().out)
    validate("report", report, "report")
    return {c["name"]: c for c in report["candidates"] if c["kind"] == "http-route"}
