"""The PyPI crawler, fetch and binder end to end: a loopback PyPI serving recorded real responses
and real files, and one live release from the real PyPI."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from conftest import registry_gateway, rows
from indexer.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "pypi"
WHEEL = "wheel-0.48.0-py3-none-any.whl"


@pytest.fixture
def pypi(web):
    """`wheel` as PyPI serves it, its 0.48.0 files moved to the loopback server."""
    project = json.loads((FIXTURES / "wheel.json").read_text())
    for entry in project["releases"]["0.48.0"]:
        path = f"/packages/{entry['filename']}"
        entry["url"] = web.url(path)
        web.raw(path, (FIXTURES / entry["filename"]).read_bytes())
    web.json("/pypi/wheel/json", project)
    return web


def cli(tmp_path, *args):
    return main(["--db", str(tmp_path / "store.db"), "--json", *args])


def test_crawl_records_the_exact_release_and_the_request(pypi, tmp_path, capsys):
    assert cli(tmp_path, "crawl", "pypi", "wheel", "wheel==0.47.0", "--pypi-index", pypi.base, "--allow-private") == 0
    out = json.loads(capsys.readouterr().out)["projects"]
    assert [(o["name"], o["version"]) for o in out] == [("wheel", "0.48.0"), ("wheel", "0.47.0")]
    db = tmp_path / "store.db"
    assert rows(db, "SELECT requested, version FROM registry_resolutions ORDER BY id") == [
        ("latest", "0.48.0"), ("0.47.0", "0.47.0")]
    record = json.loads(rows(db, "SELECT record FROM registry_releases WHERE version = '0.48.0'")[0][0])
    assert {f["filename"] for f in record["files"]} == {WHEEL, "wheel-0.48.0.tar.gz"}
    assert all(len(f["sha256"]) == 64 for f in record["files"])


def test_fetch_verifies_the_sha256_before_reading_and_reads_entry_points_as_text(pypi, tmp_path, capsys):
    assert cli(tmp_path, "fetch", "pypi", "wheel==0.48.0", "--pypi-index", pypi.base, "--allow-private",
               "--cache", str(tmp_path / "cache")) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["file"] == WHEEL
    assert result["sha256"] == hashlib.sha256((FIXTURES / WHEEL).read_bytes()).hexdigest()
    assert result["entry_points"]["console_scripts"] == {"wheel": "wheel._commands:main"}
    assert (Path(result["path"]) / "wheel" / "__init__.py").is_file()
    assert rows(tmp_path / "store.db", "SELECT filename, sha256 FROM artifacts") == [(WHEEL, result["sha256"])]


def test_a_tampered_file_fails_and_nothing_is_kept(pypi, tmp_path, capsys):
    pypi.raw(f"/packages/{WHEEL}", (FIXTURES / WHEEL).read_bytes()[:-10] + b"tampered!!")
    cache = tmp_path / "cache"
    assert cli(tmp_path, "fetch", "pypi", "wheel==0.48.0", "--pypi-index", pypi.base, "--allow-private",
               "--cache", str(cache)) == 1
    err = capsys.readouterr().err
    assert "sha256 mismatch" in err and "Traceback" not in err
    assert not cache.exists() or not any(p.is_file() for p in cache.rglob("*"))  # not even the download
    assert rows(tmp_path / "store.db", "SELECT COUNT(*) FROM artifacts") == [(0,)]


def test_bind_pins_the_observed_sha256_and_publish_writes_the_binding(pypi, tmp_path, capsys):
    assert cli(tmp_path, "bind", "pypi:wheel", "--pypi-index", pypi.base, "--allow-private",
               "--cache", str(tmp_path / "cache")) == 0
    binding = json.loads(capsys.readouterr().out)
    digest = hashlib.sha256((FIXTURES / WHEEL).read_bytes()).hexdigest()
    assert binding["immutableArtifact"] == f"wheel@0.48.0#sha256:{digest}"
    assert binding["locator"] == "pypi:wheel"  # the original locator is kept
    assert binding["authority"] == {"complete": False, "effects": ["custom:external.opaque-effects"],
                                    "note": binding["authority"]["note"]}
    assert any("sha256 matched" in e for e in binding["evidence"])
    assert cli(tmp_path, "publish", str(tmp_path / "public"), "--base-url", "https://example.org/") == 0
    listing = json.loads((tmp_path / "public" / "bindings" / "index.json").read_text())["bindings"]
    assert [b["immutableArtifact"] for b in listing] == [binding["immutableArtifact"]]
    published = json.loads((tmp_path / "public" / "bindings" / listing[0]["file"]).read_text())
    assert published == binding


@pytest.mark.skipif(os.environ.get("CAPINDEX_OFFLINE") == "1", reason="CAPINDEX_OFFLINE=1: no live registry tests")
def test_live_pypi_release_end_to_end(tmp_path, capsys):
    """The real PyPI (reachable from every machine of this project): one small wheel."""
    assert cli(tmp_path, "fetch", "pypi", "six==1.16.0", "--cache", str(tmp_path / "cache"),
               *registry_gateway("pypi.org", "files.pythonhosted.org")) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["file"] == "six-1.16.0-py2.py3-none-any.whl"
    assert result["sha256"] == "8abb2f1d86890a2dfb989f9a77cfcfd3e47c2a354b01111771326f8aa26e0254"
    assert (Path(result["path"]) / "six.py").is_file()


def test_an_sdist_is_unpacked_at_its_project_root_and_mined_from_there(web, tmp_path, capsys):
    """PyPI's only file of a release is its sdist, whose files sit in one top-level directory
    (`wheel-0.48.0/`): the cache holds the project's root, so its pyproject.toml is read."""
    project = json.loads((FIXTURES / "wheel.json").read_text())
    sdist = next(e for e in project["releases"]["0.48.0"] if e["packagetype"] == "sdist")
    sdist["url"] = web.url(f"/packages/{sdist['filename']}")
    web.raw(f"/packages/{sdist['filename']}", (FIXTURES / sdist["filename"]).read_bytes())
    project["releases"]["0.48.0"] = [sdist]
    project["urls"] = [sdist]
    web.json("/pypi/wheel/json", project)
    assert cli(tmp_path, "fetch", "pypi", "wheel==0.48.0", "--pypi-index", web.base, "--allow-private",
               "--cache", str(tmp_path / "cache")) == 0
    root = Path(json.loads(capsys.readouterr().out)["path"])
    assert (root / "pyproject.toml").is_file() and not (root / "wheel-0.48.0").exists()
    assert cli(tmp_path, "mine", "pypi:wheel==0.48.0", "--pypi-index", web.base, "--allow-private",
               "--cache", str(tmp_path / "cache")) == 0
    report = json.loads(capsys.readouterr().out)
    commands = {c["name"]: c for c in report["candidates"] if c["kind"] == "cli-command"}
    assert commands["wheel"]["evidence"][0]["path"] == "pyproject.toml"
    modules = {c["module"] for c in report["candidates"] if c["module"]}
    assert "wheel._commands" in modules and not any(m.startswith("wheel-0") for m in modules)  # src/wheel/...
    assert all(not c["source"]["path"].startswith("wheel-0.48.0/") for c in report["candidates"])
