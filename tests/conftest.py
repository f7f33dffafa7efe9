from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "federation"


def reference_dir() -> Path:
    """The Capability reference schemas and examples (../shared/reference beside the checkout)."""
    path = Path(os.environ.get("CAPINDEX_REFERENCE", ROOT.parent / "shared" / "reference" / "capability-1.x"))
    if not (path / "capability-index.schema.json").is_file():
        pytest.fail(f"reference schemas not found at {path}; set CAPINDEX_REFERENCE to shared/reference/capability-1.x")
    return path


@pytest.fixture
def reference() -> Path:
    return reference_dir()


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
