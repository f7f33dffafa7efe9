"""Declared contracts end to end: a repository mixing all six formats with ordinary code, mined from
a real git commit, and `capindex import FILE|URL` on real files and a loopback server."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from pydantic import ValidationError
from test_mine import git

from conftest import rows
from indexer.cli import main
from miners.declared import capability_id, id_segment
from schemas.documents import validate
from schemas.models import Candidate

FIXTURES = Path(__file__).parent / "fixtures" / "declared"
MIXED = FIXTURES / "mixed_repo"


@pytest.fixture
def mixed_repo(tmp_path):
    root = tmp_path / "mixed"
    shutil.copytree(MIXED, root)
    git("init", "-q", "-b", "main", cwd=root)
    git("add", "-A", cwd=root)
    git("commit", "-q", "-m", "first", cwd=root)
    return root, git("rev-parse", "HEAD", cwd=root)


def _mine(tmp_path, capsys, *args) -> dict:
    assert main(["--db", str(tmp_path / "s.db"), "--json", "mine", *args]) == 0
    report = json.loads(capsys.readouterr().out)
    validate("report", report, "report")
    return report


def _declared(report: dict) -> dict[str, dict]:
    return {c["declared"]["capability_id"]: c for c in report["candidates"] if c["kind"] == "declared-operation"}


def test_a_repository_mixing_every_format_is_mined_end_to_end(mixed_repo, tmp_path, capsys):
    root, commit = mixed_repo
    report = _mine(tmp_path, capsys, str(root), "--rev", "main")
    declared = _declared(report)
    formats = {c["declared"]["format"] for c in declared.values()}
    assert formats == {"capability", "openapi", "mcp", "aip", "app", "ampersand"}
    assert {"text/slugify", "text/legacy-upper", "notes-api/list-notes", "notes-api/create-note",
            "io.github.acme/notes-mcp/append_note", "notes/export/send", "acme-notes/note.search",
            "acme-notes/note.delete", "acme/reason.summarize/summarize"} <= set(declared)
    for cand in declared.values():
        assert cand["provenance"] == "declared" and cand["executable"] is False
        assert cand["source"]["commit"] == commit
        data = (root / cand["source"]["path"]).read_bytes()
        assert cand["declared"]["source_digest"] == "sha256:" + hashlib.sha256(data).hexdigest()
        assert cand["evidence"][0]["path"] == cand["source"]["path"]
    # ordinary code is still mined beside them, with its effects
    load = next(c for c in report["candidates"] if c["name"] == "loadSettings")
    assert load["provenance"] == "mined" and "filesystem.read" in load["effects"]
    # a test fixture's tool listing is evidence, never a candidate
    assert not any(c["name"] == "fixture_only" for c in report["candidates"])


def test_only_a_complete_capability_manifest_has_complete_authority(mixed_repo, tmp_path, capsys):
    root, _ = mixed_repo
    declared = _declared(_mine(tmp_path, capsys, str(root), "--rev", "main"))
    native = declared["text/slugify"]
    assert native["authority"] == {"complete": True, "effects": [], "note": "a complete Capability manifest"}
    assert native["draft_contract"]["id"] == "text/slugify" and native["draft_contract"]["input"]["required"] == ["text"]
    legacy = declared["text/legacy-upper"]  # a string-only export: a module, no contract
    assert legacy["authority"]["complete"] is False and legacy["confidence"] < native["confidence"]
    for cap_id, cand in declared.items():
        if cap_id != "text/slugify":
            assert cand["authority"]["complete"] is False
            assert "custom:external.opaque-effects" in cand["authority"]["effects"], cap_id
            assert "custom:external.opaque-effects" in cand["draft_contract"]["effects"], cap_id


def test_declared_effects_and_hints_are_kept_apart(mixed_repo, tmp_path, capsys):
    root, _ = mixed_repo
    declared = _declared(_mine(tmp_path, capsys, str(root), "--rev", "main"))
    tool = declared["io.github.acme/notes-mcp/append_note"]
    assert tool["declared"]["hints"]["openWorldHint"] is True  # a publisher hint...
    assert tool["declared"]["read_only"] is None  # ...never a fact
    assert tool["declared"]["metadata"]["server"]["name"] == "io.github.acme/notes-mcp"  # the folder's server.json
    assert declared["notes-api/list-notes"]["declared"]["read_only"] is True
    assert declared["notes-api/create-note"]["declared"]["read_only"] is False
    assert declared["notes-api/create-note"]["effects"] == ["network.connect"]
    assert declared["notes/export/send"]["effects"] == ["email.send", "network.connect"]
    assert declared["acme/reason.summarize/summarize"]["declared"]["metadata"]["in"] == "text"
    assert declared["acme-notes/note.delete"]["declared"]["hints"]["destructive"] is True


def test_a_malformed_declaration_is_reported_and_the_rest_still_mined(mixed_repo, tmp_path, capsys):
    root, _ = mixed_repo
    report = _mine(tmp_path, capsys, str(root), "--rev", "main")
    problems = [p for p in report["declared"]["problems"] if p["path"] == "contracts/broken.aip.json"]
    assert {"path": "contracts/broken.aip.json", "format": "aip", "where": "$.contract.side_effects",
            "reason": 'expected an array of side effects, found string "everything"'} in problems
    assert not [p for p in report["declared"]["problems"] if p["path"] != "contracts/broken.aip.json"]
    files = {f["path"]: f for f in report["declared"]["files"]}
    assert files["openapi/notes.yaml"] == {"path": "openapi/notes.yaml", "format": "openapi", "operations": 2,
                                           "source_digest": files["openapi/notes.yaml"]["source_digest"]}
    assert "tsconfig.json" not in files  # data nobody declares anything in


def test_a_changed_declaration_changes_its_digest_and_no_other(tmp_path, capsys):
    root = tmp_path / "repo"
    shutil.copytree(MIXED, root)
    before = _declared(_mine(tmp_path, capsys, str(root)))
    api = root / "openapi" / "notes.yaml"
    api.write_text(api.read_text().replace("summary: Create a note", "summary: Create one note"))
    after = _declared(_mine(tmp_path, capsys, str(root)))
    changed = {k for k in before if before[k]["declared"]["declaration_digest"] != after[k]["declared"]["declaration_digest"]}
    assert changed == {"notes-api/create-note"}
    assert before["notes-api/list-notes"]["declared"]["source_digest"] != after["notes-api/list-notes"]["declared"]["source_digest"]
    assert before["notes-api/create-note"]["id"] == after["notes-api/create-note"]["id"]  # the id is stable


def test_import_stores_the_operations_of_one_file(tmp_path, capsys):
    db = tmp_path / "s.db"
    assert main(["--db", str(db), "--json", "import", str(MIXED / "openapi" / "notes.yaml")]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["source"]["format"] == "openapi" and report["problems"] == []
    assert [c["declared"]["capability_id"] for c in report["candidates"]] == ["notes-api/list-notes",
                                                                                "notes-api/create-note"]
    for cand in report["candidates"]:
        Candidate.model_validate(cand)
    stored = rows(db, "SELECT ecosystem, kind, json_extract(record, '$.declared.original_id') FROM candidates ORDER BY id")
    assert stored == [("declared:openapi", "declared-operation", "listNotes"),
                      ("declared:openapi", "declared-operation", "createNote")]
    # importing the same document again changes nothing
    assert main(["--db", str(db), "import", str(MIXED / "openapi" / "notes.yaml")]) == 0
    assert rows(db, "SELECT COUNT(*) FROM candidates") == [(2,)]


def test_an_operation_id_used_twice_is_a_problem_and_both_operations_are_stored(tmp_path, capsys):
    """nightscout's swagger.json uses `remove` for DELETE /entries and DELETE /treatments: the
    document has a problem (exit 1), and each operation is still its own candidate (two ids, two rows)."""
    doc = tmp_path / "api.json"
    doc.write_text(json.dumps({"openapi": "3.0.0", "info": {"title": "t", "version": "1"}, "paths": {
        "/entries": {"delete": {"operationId": "remove", "responses": {"200": {"description": "ok"}}}},
        "/treatments": {"delete": {"operationId": "remove", "responses": {"200": {"description": "ok"}}}}}}))
    db = tmp_path / "s.db"
    assert main(["--db", str(db), "--json", "import", str(doc)]) == 1
    out = capsys.readouterr()
    assert "operationId 'remove' is already used at $.paths['/entries'].delete" in out.err
    report = json.loads(out.out)
    ids = [c["id"] for c in report["candidates"]]
    assert len(ids) == len(set(ids)) == 2
    assert sorted(r[0] for r in rows(db, "SELECT json_extract(record, '$.declared.pointer') FROM candidates")) == [
        "/paths/~1entries/delete", "/paths/~1treatments/delete"]


def test_import_reports_each_problem_and_exits_1(tmp_path, capsys):
    db = tmp_path / "s.db"
    assert main(["--db", str(db), "import", str(MIXED / "contracts" / "broken.aip.json")]) == 1
    err = capsys.readouterr().err
    assert f"{MIXED / 'contracts' / 'broken.aip.json'}: $.contract.side_effects: expected an array" in err
    assert "Traceback" not in err


def test_import_of_an_unrecognised_or_missing_document_is_one_line(tmp_path, capsys):
    db = tmp_path / "s.db"
    assert main(["--db", str(db), "import", str(MIXED / "tsconfig.json")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no reader recognises this document" in err[0]
    assert main(["--db", str(db), "import", str(tmp_path / "nope.json")]) == 1
    assert "cannot read" in capsys.readouterr().err
    assert main(["--db", str(db), "import", "--format", "soap", str(MIXED / "tsconfig.json")]) == 1
    assert "--format soap: unknown" in capsys.readouterr().err
    assert not db.exists() or rows(db, "SELECT COUNT(*) FROM candidates") == [(0,)]


def test_import_by_url_reads_an_app_catalog_without_extension(web, tmp_path, capsys):
    catalog = (FIXTURES / "app" / "catalog.json").read_bytes()
    url = web.raw("/api/capabilities/v1/catalog", catalog, headers={"Content-Type": "application/json"})
    db = tmp_path / "s.db"
    code = main(["--db", str(db), "--json", "import", "--allow-private", url])
    report = json.loads(capsys.readouterr().out)
    assert code == (1 if report["problems"] else 0)
    assert report["source"] == {"location": url, "format": "app",
                                "digest": "sha256:" + hashlib.sha256(catalog).hexdigest(), "bytes": len(catalog)}
    assert report["candidates"] and all(c["source"]["path"] == url for c in report["candidates"])


def test_one_rule_makes_capability_ids():
    assert capability_id("Swagger Petstore", "GET /pets/{petId}") == "swagger-petstore/get-pets-pet-id"
    assert capability_id("acme-notes", "acme-notes.note.search") == "acme-notes/note.search"
    assert capability_id("", "listPets") == "declared/list-pets"
    assert capability_id("calendar/booking", "create") == "calendar/booking/create"
    assert id_segment("Ünïcode  Tool!") == "unicode-tool" and id_segment("***") == "x"


def test_complete_authority_is_refused_to_anything_but_a_declared_manifest(mixed_repo, tmp_path, capsys):
    root, _ = mixed_repo
    declared = _declared(_mine(tmp_path, capsys, str(root), "--rev", "main"))
    forged = json.loads(json.dumps(declared["notes-api/list-notes"]))
    forged["authority"] = {"complete": True, "effects": ["network.connect"]}
    with pytest.raises(ValidationError, match="only a declared Capability manifest"):
        Candidate.model_validate(forged)
    with pytest.raises(Exception, match="complete"):
        validate("candidate", forged, "forged")


def test_an_app_id_declared_in_another_file_qualifies_the_capabilities(tmp_path, capsys):
    # the seed's layout: defineApp({ id: "inventory" }) in src/config.ts, defineCapabilities in src/capabilities.ts
    root = tmp_path / "inventory"
    shutil.copytree(FIXTURES / "app" / "src", root / "src")
    declared = _declared(_mine(tmp_path, capsys, str(root)))
    assert {"inventory/item.read", "inventory/item.rename"} <= set(declared)
    assert declared["inventory/item.read"]["name"] == "inventory.item.read"
    assert declared["inventory/item.read"]["declared"]["read_only"] is True
    assert declared["inventory/item.rename"]["source"]["path"] == "src/capabilities.ts"


def test_each_declaration_keeps_the_digest_of_its_exact_bytes(tmp_path, capsys):
    root = tmp_path / "repo"
    shutil.copytree(MIXED, root)
    before = _declared(_mine(tmp_path, capsys, str(root)))
    api = root / "openapi" / "notes.yaml"
    text = api.read_text()
    # spacing only: the meaning (declaration_digest) stays, the exact bytes' digest moves
    api.write_text(text.replace("summary: Create a note", "summary:   Create a note"))
    after = _declared(_mine(tmp_path, capsys, str(root)))
    create_before, create_after = before["notes-api/create-note"]["declared"], after["notes-api/create-note"]["declared"]
    assert create_before["declaration_digest"] == create_after["declaration_digest"]
    assert create_before["bytes_digest"] != create_after["bytes_digest"]
    assert before["notes-api/list-notes"]["declared"]["bytes_digest"] == after["notes-api/list-notes"]["declared"]["bytes_digest"]
    # a JSON declaration's bytes digest is the digest of its text in the file
    tools = (root / "mcp" / "tools.json").read_text()
    obj = tools[tools.index('{\n        "name": "append_note"'):tools.rindex("}\n    ]")+1]
    assert after["io.github.acme/notes-mcp/append_note"]["declared"]["bytes_digest"] == \
        "sha256:" + hashlib.sha256(obj.encode()).hexdigest()
    # a source declaration's digest already is of its exact bytes
    app = after["acme-notes/note.search"]["declared"]
    assert app["digest_of"] == "bytes" and app["bytes_digest"] == app["declaration_digest"]
