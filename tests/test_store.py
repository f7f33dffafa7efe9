"""The store: migrations, one transaction per document, idempotence, conflicts, search text."""

from __future__ import annotations

import json
import sqlite3

import pytest

from conftest import EXAMPLES, index_doc, package, write_json
from index.ingest import ingest_bytes
from index.migrations import LATEST
from index.package_stream import PARALLEL_FROM_BYTES
from index.store import Store, StoreError
from schemas.documents import DocumentError


def dump(db_path) -> list[str]:
    """Every row of every table, to compare whole-store states."""
    conn = sqlite3.connect(db_path)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def ingest_doc(store, doc, location) -> object:
    return ingest_bytes(store, json.dumps(doc).encode(), location)


def test_new_store_is_migrated_and_in_wal_mode(db_path):
    with Store(db_path) as store:
        assert store.schema_version == LATEST
        assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert {"sources", "documents", "packages", "capabilities", "conflicts", "capabilities_fts"} <= set(
            store.db.table_names()
        )
    # reopening applies nothing twice
    with Store(db_path) as store:
        assert store.db.execute("SELECT COUNT(*) FROM schema_version").fetchone()[0] == LATEST


def test_store_from_a_newer_capindex_is_refused(db_path):
    Store(db_path).close()
    conn = sqlite3.connect(db_path)
    conn.execute("INSERT INTO schema_version (version, description) VALUES (?, 'future')", [LATEST + 1])
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="newer than this capindex supports"):
        Store(db_path)


def test_a_file_that_is_not_a_database_is_refused(tmp_path):
    path = tmp_path / "notes.db"
    path.write_text("not sqlite at all, just text\n" * 100)
    with pytest.raises(StoreError, match="not a database"):
        Store(path)
    assert path.read_text().startswith("not sqlite")


def test_reference_examples_are_stored_with_search_text(db_path, reference):
    with Store(db_path) as store:
        raw = (reference / "examples" / "registry-index.json").read_bytes()
        result = ingest_bytes(store, raw, str(reference / "examples" / "registry-index.json"))
        assert (result.status, result.packages, result.new_capabilities) == ("stored", 1, 12)
        site = reference / "examples" / ".well-known" / "capabilities.json"
        assert ingest_bytes(store, site.read_bytes(), str(site)).kind == "site"
        counts = store.counts()
        assert counts["capabilities"] == 12 and counts["documents"] == 2 and counts["sources"] == 2
        # FTS5 over id, name, description and tags (porter stemming: "slugs" finds "slug")
        hits = store.db.execute(
            "SELECT cap_id FROM capabilities_fts WHERE capabilities_fts MATCH ? ORDER BY rank", ["slugs"]
        ).fetchall()
        assert ("text/slugify",) in hits
        row = store.db.execute(
            """SELECT source_id, digest, raw FROM documents JOIN document_bodies ON document_id = id
               WHERE kind = 'index'"""
        ).fetchone()
        assert row[2] == raw  # the raw document is kept byte for byte
        src = store.db.execute("SELECT url, origin, kind, last_status, content_digest FROM sources WHERE id = ?",
                               [row[0]]).fetchone()
        assert src[0].startswith("file:///") and src[2:] == ("index", "ok", row[1])


def test_identical_reingest_changes_nothing(db_path):
    doc = index_doc(package("pkg-a", "1.0.0", "text/a"), package("pkg-b", "2.0.0", "text/b", "text/c"))
    with Store(db_path) as store:
        ingest_doc(store, doc, "https://one.example/index.json")
    before = dump(db_path)
    with Store(db_path) as store:
        changes = store.db.conn.total_changes
        result = ingest_doc(store, doc, "https://one.example/index.json")
        assert result.status == "unchanged"
        assert store.db.conn.total_changes == changes
    assert dump(db_path) == before


def test_an_invalid_document_writes_nothing(db_path):
    good = index_doc(package("pkg-a", "1.0.0", "text/a"))
    with Store(db_path) as store:
        ingest_doc(store, good, "https://one.example/index.json")
    before = dump(db_path)
    bad = index_doc(package("pkg-a", "1.0.0", "text/a"), package("pkg-z", "1.0.0", "text/z"))
    bad["packages"][1]["capabilities"][0]["module"] = "dist/z.js"  # not package-relative
    with Store(db_path) as store:
        with pytest.raises(DocumentError) as err:
            ingest_doc(store, bad, "https://one.example/index.json")
        assert "$.packages[1].capabilities[0].module" in err.value.problems[0]
        for broken in (b"{not json", b'{"indexVersion": "0.1", "generatedAt": NaN, "packages": []}', b"[]",
                       json.dumps({"gapVersion": "0.1"}).encode()):
            with pytest.raises(DocumentError):
                ingest_bytes(store, broken, "https://two.example/index.json")
    assert dump(db_path) == before


def test_a_failure_late_in_a_big_document_rolls_back_everything(db_path):
    packages = [package(f"pkg-{i}", "1.0.0", f"bulk/op-{i}") for i in range(500)]
    doc = index_doc(*packages)
    with Store(db_path) as store:
        ingest_doc(store, doc, "https://one.example/index.json")
    before = dump(db_path)
    doc2 = index_doc(*packages, package("pkg-new", "1.0.0", "bulk/new"), package("pkg-bad", "1.0.0", "Bad/Id"))
    with Store(db_path) as store, pytest.raises(DocumentError, match=r"\$\.packages\[501\]\.capabilities\[0\]\.manifest\.id"):
        ingest_doc(store, doc2, "https://one.example/index.json")
    assert dump(db_path) == before


def test_same_package_from_two_sources_with_different_content_is_a_conflict(db_path):
    first = package("left-pad", "1.3.0", "text/pad", integrity="sha512-first")
    second = package("left-pad", "1.3.0", "text/pad", integrity="sha512-second")
    with Store(db_path) as store:
        a = ingest_doc(store, index_doc(first), "https://a.example/index.json")
        b = ingest_doc(store, index_doc(second, generated_at="2026-06-01T00:00:00Z"), "https://b.example/index.json")
        assert a.conflicts == [] and b.conflicts == ["left-pad@1.3.0"]
        versions = store.package_versions("left-pad", "1.3.0")
        assert [json.loads(v["entry"])["integrity"] for v in versions] == ["sha512-first", "sha512-second"]
        assert [v["listed_by"] for v in versions] == [["https://a.example/index.json"], ["https://b.example/index.json"]]
        [conflict] = store.conflicts()
        assert conflict.established["first_source"] == "https://a.example/index.json"
        assert conflict.other["first_source"] == "https://b.example/index.json"
        # the same conflicting content arriving again records nothing new
        c = ingest_doc(store, index_doc(second), "https://c.example/index.json")
        assert c.conflicts == [] and len(store.conflicts()) == 1
        # identical content from another source is no conflict: one package, two listings
        d = ingest_doc(store, index_doc(package("other", "1.0.0", "text/other")), "https://a2.example/i.json")
        e = ingest_doc(store, index_doc(package("other", "1.0.0", "text/other")), "https://b2.example/i.json")
        assert d.new_packages == 1 and e.new_packages == 0 and e.conflicts == []
        assert store.package_versions("other", "1.0.0")[0]["listed_by"] == [
            "https://a2.example/i.json", "https://b2.example/i.json"]


def test_key_order_and_whitespace_do_not_make_a_conflict(db_path):
    pkg = package("fmt", "1.0.0", "text/fmt")
    reordered = {k: pkg[k] for k in reversed(list(pkg))}
    with Store(db_path) as store:
        ingest_bytes(store, json.dumps(index_doc(pkg)).encode(), "https://a.example/i.json")
        result = ingest_bytes(store, json.dumps(index_doc(reordered), indent=4).encode(), "https://b.example/i.json")
        assert result.conflicts == [] and result.new_packages == 0


def test_a_new_document_from_a_source_replaces_its_listing_but_keeps_history(db_path):
    with Store(db_path) as store:
        ingest_doc(store, index_doc(package("a", "1.0.0", "x/a"), package("b", "1.0.0", "x/b")), "https://s.example/i.json")
        ingest_doc(store, index_doc(package("a", "1.0.0", "x/a"), generated_at="2026-06-01T00:00:00Z"),
                   "https://s.example/i.json")
        counts = store.counts()
        assert counts["packages"] == 2 and counts["packages_listed"] == 1 and counts["documents"] == 2


def test_ingesting_the_bundled_examples(db_path):
    with Store(db_path) as store:
        for path in sorted(EXAMPLES.rglob("*.json")):
            ingest_bytes(store, path.read_bytes(), str(path))
        assert store.counts()["capabilities"] == 18


def test_lone_surrogates_survive_storage(db_path):
    doc = index_doc(package("odd", "1.0.0", "text/odd"))
    text = json.dumps(doc).replace("Does text/odd", "Does \\ud800 text/odd")
    with Store(db_path) as store:
        ingest_bytes(store, text.encode(), "https://s.example/i.json")
        entry = store.db.execute("SELECT entry FROM packages").fetchone()[0]
        assert "\\ud800" in entry
        assert json.loads(entry)["capabilities"][0]["manifest"]["description"].startswith("Does \ud800")


def test_write_json_helper_roundtrip(tmp_path):
    path = write_json(tmp_path / "x" / "doc.json", {"a": 1})
    assert json.loads(path.read_text()) == {"a": 1}


def test_a_repeated_packages_key_keeps_only_the_last_as_json_does(db_path):
    first = json.dumps(package("first", "1.0.0", "x/first"))
    last = json.dumps(package("last", "1.0.0", "x/last"))
    text = f'{{"packages": [{first}], "indexVersion": "0.1", "generatedAt": "2026-01-01T00:00:00Z", "packages": [{last}]}}'
    with Store(db_path) as store:
        result = ingest_bytes(store, text.encode(), "https://s.example/i.json")
        assert (result.packages, result.new_packages, result.new_capabilities) == (1, 1, 1)
        assert [r[0] for r in store.db.execute("SELECT name FROM packages")] == ["last"]
        assert [r[0] for r in store.db.execute("SELECT cap_id FROM capabilities_fts")] == ["x/last"]


def test_manifests_are_readable_per_capability(db_path):
    with Store(db_path) as store:
        ingest_bytes(store, json.dumps(index_doc(package("p", "1.0.0", "x/one", "x/two"))).encode(), "https://s.example/i.json")
        rows = store.db.execute("SELECT cap_id, manifest FROM capability_manifests ORDER BY id").fetchall()
        assert [(cap_id, json.loads(m)["id"]) for cap_id, m in rows] == [("x/one", "x/one"), ("x/two", "x/two")]


def _big_index(count: int, bad_at: int | None = None) -> bytes:
    """An index past package_stream.PARALLEL_FROM_BYTES, so a helper process parses it."""
    filler = "word " * 400
    packages = []
    for i in range(count):
        pkg = package(f"big-{i:05d}", "1.0.0", f"big/op-{i}")
        pkg["capabilities"][0]["manifest"]["description"] = f"Operation {i}: {filler}"
        packages.append(pkg)
    if bad_at is not None:
        packages[bad_at]["capabilities"][0]["manifest"]["effects"] = ["telepathy"]
    raw = json.dumps(index_doc(*packages)).encode()
    assert len(raw) >= PARALLEL_FROM_BYTES
    return raw


def test_a_big_index_is_parsed_by_a_helper_process_with_the_same_result(db_path):
    raw = _big_index(2600)
    with Store(db_path) as store:
        result = ingest_bytes(store, raw, "https://big.example/index.json")
        assert (result.packages, result.new_packages, result.new_capabilities) == (2600, 2600, 2600)
        assert store.db.execute("SELECT COUNT(*) FROM capabilities_fts WHERE capabilities_fts MATCH 'operation'").fetchone()[0] == 2600
        assert ingest_bytes(store, raw, "https://big.example/index.json").status == "unchanged"


def test_a_big_index_with_one_bad_package_writes_nothing(db_path):
    with Store(db_path) as store:
        ingest_doc(store, index_doc(package("before", "1.0.0", "x/before")), "https://big.example/index.json")
    before = dump(db_path)
    with Store(db_path) as store, pytest.raises(DocumentError) as err:
        ingest_bytes(store, _big_index(2600, bad_at=2345), "https://big.example/index.json")
    assert err.value.problems[0].startswith("$.packages[2345].capabilities[0].manifest.effects[0]:")
    assert dump(db_path) == before
    with Store(db_path) as store, pytest.raises(DocumentError, match="not JSON"):
        ingest_bytes(store, _big_index(2600)[:-10], "https://big.example/index.json")
    assert dump(db_path) == before


def test_two_writers_take_turns(db_path):
    """A second store waits for the first one's transaction instead of reading stale ids."""
    import threading

    Store(db_path).close()
    docs = [index_doc(*[package(f"w{w}-{i}", "1.0.0", f"w{w}/op-{i}") for i in range(300)]) for w in range(2)]
    errors = []

    def work(w):
        try:
            with Store(db_path) as store:
                for n in range(3):
                    doc = dict(docs[w], generatedAt=f"2026-0{n + 1}-01T00:00:00Z")
                    ingest_doc(store, doc, f"https://w{w}.example/i.json")
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(w,)) for w in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    with Store(db_path) as store:
        assert store.counts()["packages"] == 600 and store.counts()["capabilities"] == 600


def test_reading_while_another_process_writes(db_path):
    """Opening and reading an up-to-date store needs no write lock (WAL readers never wait)."""
    with Store(db_path) as writer:
        writer.db.conn.execute("BEGIN IMMEDIATE")
        try:
            reader = Store(db_path)
            reader.db.execute("PRAGMA busy_timeout = 0")
            assert reader.counts()["packages"] == 0
            reader.close()
        finally:
            writer.db.conn.execute("ROLLBACK")


def test_commit_groups_keep_each_document_whole(db_path):
    docs = [index_doc(package(f"g{i}", "1.0.0", f"g/op-{i}")) for i in range(3)]
    with Store(db_path) as store:
        store.begin_group()
        ingest_doc(store, docs[0], "https://g.example/0.json")
        with pytest.raises(DocumentError):  # an invalid document inside a group: only it is undone
            ingest_bytes(store, b'{"indexVersion": "0.1"}', "https://g.example/bad.json")
        ingest_doc(store, docs[1], "https://g.example/1.json")
        assert store.in_group
        store.commit_group()
        assert store.counts()["packages"] == 2
        # a write that skipped its savepoint and failed after changing something takes the group with it
        store.begin_group()
        ingest_doc(store, docs[2], "https://g.example/2.json")
        with pytest.raises(RuntimeError), store.write_transaction(savepoint=False):
            store.db.execute("INSERT INTO sources (url, origin, kind) VALUES ('https://x.example/', 'https://x.example', 'index')")
            raise RuntimeError("boom")
        assert not store.in_group
        assert store.counts()["packages"] == 2 and store.counts()["sources"] == 2
        # ...while one that failed before writing anything leaves the group alone
        store.begin_group()
        ingest_doc(store, docs[2], "https://g.example/2.json")
        with pytest.raises(RuntimeError), store.write_transaction(savepoint=False):
            raise RuntimeError("judged bad before writing")
        store.commit_group()
        assert store.counts()["packages"] == 3


def test_pretty_json_writes_what_the_json_module_would():
    """`--json` and `--out` are written by orjson (index.canonical.pretty_json_bytes); the text is the
    json module's indent=2 text, and what orjson refuses still comes out, through json."""
    from index.canonical import pretty_json_bytes

    def pretty_json(value):
        return pretty_json_bytes(value).decode("utf-8")  # the bytes must be UTF-8

    doc = {"name": "zürich ☃", "nested": {"empty": {}, "list": [], "n": [1, 2.5, 0.1, -3, True, None]},
           "confidence": 0.85, "tab\t": "line\nbreak \"quoted\" \\ \u0001", 3: "int key"}
    assert pretty_json(doc) == json.dumps(doc, indent=2, ensure_ascii=False)
    assert pretty_json({"big": 2**70}) == json.dumps({"big": 2**70}, indent=2)
    # a lone surrogate (JavaScript strings may hold one) is escaped: the text is valid UTF-8
    lone = {"lone": "a\ud800b"}
    assert pretty_json(lone) == '{\n  "lone": "a\\ud800b"\n}' and json.loads(pretty_json(lone)) == lone
