"""The npm crawler, fetch and binder end to end: a loopback registry serving packuments (recorded
real ones and one written here) and tarballs built here, and one live package from the real
registry."""

from __future__ import annotations

import base64
import copy
import hashlib
import io
import json
import os
import tarfile
from pathlib import Path

import pytest

from conftest import registry_gateway, rows
from indexer.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "npm"
MANIFEST = {
    "specVersion": "0.1", "id": "text/slugify", "version": "1.0.0", "name": "Slugify",
    "description": "Turn text into a URL slug.", "effects": [], "tags": ["text", "slug"],
}
CAPABILITY = {"specVersion": "0.1", "exports": {
    "text/slugify": {"module": "./dist/slugify.js", "manifest": MANIFEST},
    "text/legacy-upper": "./dist/upper.js",
}}


def tarball(package_json: dict, files: dict[str, bytes] | None = None) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for name, data in {"package.json": json.dumps(package_json).encode(), **(files or {})}.items():
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


def sri(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


@pytest.fixture
def registry(web):
    """`slugify-kit`: 1.0.0 (no capability), 1.1.0 (a descriptor and a legacy export; latest),
    2.0.0-beta.1 (next; its tarball's manifest differs from the registry's)."""
    versions, tarballs = {}, {}
    for version, capability, inside in [("1.0.0", None, None), ("1.1.0", CAPABILITY, CAPABILITY),
                                        ("2.0.0-beta.1", CAPABILITY, {**CAPABILITY, "exports": {
                                            "text/slugify": {"module": "./dist/slugify.js",
                                                             "manifest": {**MANIFEST, "effects": ["network.connect"]}}}})]:
        doc = {"name": "slugify-kit", "version": version, "main": "dist/index.js",
               "repository": {"type": "git", "url": "git+https://github.com/acme/slugify-kit.git"}}
        if capability:
            doc["capability"] = capability
        inner = {**doc, **({"capability": inside} if inside else {})}
        data = tarball(inner, {"dist/slugify.js": b"export default s => s\n"})
        path = f"/slugify-kit/-/slugify-kit-{version}.tgz"
        web.raw(path, data)
        tarballs[version] = data
        doc["dist"] = {"integrity": sri(data), "shasum": hashlib.sha1(data).hexdigest(), "tarball": web.url(path)}
        versions[version] = doc
    packument = {"name": "slugify-kit", "dist-tags": {"latest": "1.1.0", "next": "2.0.0-beta.1"},
                 "versions": versions, "time": {v: "2026-01-01T00:00:00.000Z" for v in versions}}
    web.json("/slugify-kit", packument)
    web.json("/is-number", json.loads((FIXTURES / "packument-is-number.json").read_text()))
    web.json("/-/v1/search?text=slugify&size=20", json.loads((FIXTURES / "search-slugify.synthetic.json").read_text()))
    web.packument, web.tarballs = packument, tarballs
    return web


def cli(tmp_path, *args):
    return main(["--db", str(tmp_path / "store.db"), "--json", *args])


def test_crawl_resolves_tags_and_ranges_and_stores_declared_capabilities(registry, tmp_path, capsys):
    assert cli(tmp_path, "crawl", "npm", "slugify-kit@^1.0.0", "slugify-kit@next", "is-number",
               "--npm-registry", registry.base, "--allow-private") == 0
    out = json.loads(capsys.readouterr().out)["packages"]
    assert [(o["version"], o["how"]) for o in out] == [("1.1.0", "range"), ("2.0.0-beta.1", "tag"), ("7.0.0", "tag")]
    assert out[0]["native_capabilities"] == 1 and out[0]["legacy_exports"] == 1
    db = tmp_path / "store.db"
    assert rows(db, "SELECT requested, version, how FROM registry_resolutions WHERE name = 'slugify-kit' ORDER BY id") \
        == [("^1.0.0", "1.1.0", "range"), ("next", "2.0.0-beta.1", "tag")]
    # the descriptor export is a native capability of an npm package; the string-only one a candidate
    assert rows(db, "SELECT p.name, p.version, c.cap_id, c.module FROM capabilities c JOIN packages p "
                    "ON p.id = c.package_id ORDER BY p.version") == [
        ("slugify-kit", "1.1.0", "text/slugify", "./dist/slugify.js"),
        ("slugify-kit", "2.0.0-beta.1", "text/slugify", "./dist/slugify.js")]
    legacy = rows(db, "SELECT key, record FROM candidates WHERE kind = 'legacy-export' AND version = '1.1.0'")
    assert [k for k, _ in legacy] == ["text/legacy-upper@1.1.0"] and json.loads(legacy[0][1])["acquirable"] is False
    record = json.loads(rows(db, "SELECT record FROM registry_releases WHERE name = 'is-number'")[0][0])
    assert record["integrity"].startswith("sha512-") and record["version"] == "7.0.0"
    # published like any index package, with the registry's integrity
    assert cli(tmp_path, "publish", str(tmp_path / "public"), "--base-url", "https://example.org/") == 0
    index = json.loads((tmp_path / "public" / "index.json").read_text())
    kit = [p for p in index["packages"] if p["name"] == "slugify-kit" and p["version"] == "1.1.0"][0]
    assert kit["source"] == "npm" and kit["integrity"] == registry.packument["versions"]["1.1.0"]["dist"]["integrity"]
    assert kit["repository"] == "https://github.com/acme/slugify-kit"


def test_a_bad_export_is_refused_and_reported_not_stored(registry, tmp_path, capsys):
    bad = copy.deepcopy(registry.packument)
    bad["versions"]["1.1.0"]["capability"]["exports"]["text/other"] = {"module": "../outside.js", "manifest": MANIFEST}
    registry.json("/slugify-kit", bad)
    assert cli(tmp_path, "crawl", "npm", "slugify-kit", "--npm-registry", registry.base, "--allow-private") == 0
    out = json.loads(capsys.readouterr().out)["packages"][0]
    assert out["native_capabilities"] == 1
    assert any("text/other" in p and "module" in p for p in out["problems"])
    assert any("differs from the export key" in p for p in out["problems"])


def test_fetch_verifies_the_tarball_before_unpacking_and_compares_manifests(registry, tmp_path, capsys):
    cache = tmp_path / "cache"
    assert cli(tmp_path, "fetch", "npm", "slugify-kit@1.1.0", "--npm-registry", registry.base, "--allow-private",
               "--cache", str(cache)) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["verified"] == registry.packument["versions"]["1.1.0"]["dist"]["integrity"]
    assert (Path(result["path"]) / "dist" / "slugify.js").read_bytes() == b"export default s => s\n"
    assert result["manifest_differences"] == []
    assert cli(tmp_path, "fetch", "npm", "slugify-kit@next", "--npm-registry", registry.base, "--allow-private",
               "--cache", str(cache)) == 0
    flagged = json.loads(capsys.readouterr().out)["manifest_differences"]
    assert flagged == ["text/slugify: the inert manifests differ"]
    assert rows(tmp_path / "store.db", "SELECT kind, subject, detail FROM flags") == [
        ("manifest-mismatch", "slugify-kit@2.0.0-beta.1", "text/slugify: the inert manifests differ")]


def test_a_tampered_tarball_fails_and_nothing_is_kept(registry, tmp_path, capsys):
    registry.raw("/slugify-kit/-/slugify-kit-1.1.0.tgz", tarball({"name": "slugify-kit", "version": "1.1.0"}))
    cache = tmp_path / "cache"
    assert cli(tmp_path, "fetch", "npm", "slugify-kit@1.1.0", "--npm-registry", registry.base, "--allow-private",
               "--cache", str(cache)) == 1
    err = capsys.readouterr().err
    assert "integrity mismatch" in err and "Traceback" not in err
    assert not cache.exists() or not any(p.is_file() for p in cache.rglob("*"))
    assert rows(tmp_path / "store.db", "SELECT COUNT(*) FROM artifacts") == [(0,)]


def test_bind_names_the_observed_bytes_and_keeps_the_tag_locator(registry, tmp_path, capsys):
    assert cli(tmp_path, "bind", "npm:slugify-kit@latest", "--npm-registry", registry.base, "--allow-private",
               "--cache", str(tmp_path / "cache")) == 0
    binding = json.loads(capsys.readouterr().out)
    assert binding["locator"] == "npm:slugify-kit@latest"
    assert binding["immutableArtifact"] == f"slugify-kit@1.1.0#{sri(registry.tarballs['1.1.0'])}"
    assert binding["authority"]["complete"] is False
    assert "custom:external.opaque-effects" in binding["authority"]["effects"]
    assert rows(tmp_path / "store.db", "SELECT immutable_artifact FROM bindings") == [(binding["immutableArtifact"],)]


def test_search_results_are_candidates_never_capabilities(registry, tmp_path, capsys):
    assert cli(tmp_path, "crawl", "npm", "--search", "slugify", "--npm-registry", registry.base, "--allow-private") == 0
    found = json.loads(capsys.readouterr().out)["search"]
    assert found and all("name" in r for r in found)
    db = tmp_path / "store.db"
    assert rows(db, "SELECT COUNT(*) FROM candidates WHERE kind = 'search-result'") == [(len(found),)]
    assert rows(db, "SELECT COUNT(*) FROM capabilities") == [(0,)]


def test_an_unknown_package_or_tag_is_one_clear_error(registry, tmp_path, capsys):
    assert cli(tmp_path, "crawl", "npm", "no-such-package", "slugify-kit@nightly",
               "--npm-registry", registry.base, "--allow-private") == 1
    out = json.loads(capsys.readouterr().out)["packages"]
    assert "not found" in out[0]["error"] and "nightly" in out[1]["error"]


@pytest.mark.skipif(os.environ.get("CAPINDEX_OFFLINE") == "1", reason="CAPINDEX_OFFLINE=1: no live registry tests")
def test_live_npm_package_end_to_end(tmp_path, capsys):
    """The real registry (reachable from every machine of this project): one small package."""
    assert cli(tmp_path, "bind", "npm:is-number@7.0.0", "--cache", str(tmp_path / "cache"),
               *registry_gateway("registry.npmjs.org")) == 0
    binding = json.loads(capsys.readouterr().out)
    assert binding["immutableArtifact"] == ("is-number@7.0.0#sha512-41Cifkg6e8TylSpdtTpeLVMqvSBEVzTttHvERD741"
                                            "+pnZ8ANv0004MRL43QKPDlK9cGvNp6NZWZUBlbGXYxxng==")


def test_a_verified_tarball_that_escapes_its_directory_is_refused_and_nothing_is_kept(registry, tmp_path, capsys):
    """Integrity proves which bytes were published, not that they are safe to unpack."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for name, data in (("package/package.json", b'{"name": "slugify-kit", "version": "1.1.0"}'),
                           ("package/../../escaped.txt", b"outside")):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        link = tarfile.TarInfo("package/passwd")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        tar.addfile(link)
    evil = out.getvalue()
    doc = copy.deepcopy(registry.packument)
    doc["versions"]["1.1.0"]["dist"].update(integrity=sri(evil), shasum=hashlib.sha1(evil).hexdigest())
    registry.json("/slugify-kit", doc)
    registry.raw("/slugify-kit/-/slugify-kit-1.1.0.tgz", evil)
    cache = tmp_path / "cache"
    assert cli(tmp_path, "fetch", "npm", "slugify-kit@1.1.0", "--npm-registry", registry.base, "--allow-private",
               "--cache", str(cache)) == 1
    err = capsys.readouterr().err
    assert "escapes" in err and "Traceback" not in err
    assert not any(p.is_file() or p.is_symlink() for p in tmp_path.rglob("*") if "cache" in p.parts)
    assert not (tmp_path / "escaped.txt").exists() and not (cache.parent / "escaped.txt").exists()
    assert rows(tmp_path / "store.db", "SELECT COUNT(*) FROM artifacts") == [(0,)]
