"""Search (`index.search`, `capindex search`): stores built through the real ingest, mining,
candidate and binding paths; ranking, explanations, every filter, errors."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys

import pytest

from conftest import EXAMPLES, index_doc, manifest, rows
from index import registry
from index.ingest import ingest_bytes
from index.search import SearchError, SearchFilters, search
from index.search_text import candidate_text, need_terms, normalise_need, stem, tokens
from index.store import Store
from indexer.cli import main

OPAQUE = "custom:external.opaque-effects"


# -- building stores the way capindex does ----------------------------------------------------------


def native(name: str, version: str, *manifests: dict, source: str = "npm") -> dict:
    return {"name": name, "version": version, "source": source,
            "capabilities": [{"manifest": m, "module": f"./dist/{m['id'].split('/')[-1]}.js"} for m in manifests]}


def ingest(store: Store, *packages: dict, where: str = "index.json") -> None:
    result = ingest_bytes(store, json.dumps(index_doc(*packages)).encode(), f"/tmp/search-tests/{where}")
    assert result.status == "stored"


def mined(name: str, description: str = "", kind: str = "function", confidence: float = 0.8, effects=(),
          visibility: str = "public", provenance: str = "mined", complete: bool = False, ident: str | None = None) -> dict:
    """A candidate record as the miner writes it (see miners/mine.py `_candidate`)."""
    effects = sorted(effects)
    return {
        "id": ident or f"cand-{abs(hash((name, description, kind))) % 10**20:020d}", "kind": kind, "name": name,
        "symbol": f"mod:{name}", "module": "mod", "visibility": visibility, "language": "python",
        "source": {"path": "mod.py", "line": 1, "end_line": 3, "commit": None}, "signature": f"def {name}(value)",
        "description": description, "provenance": provenance,
        "evidence": [{"kind": "declaration", "detail": f"def {name}(value)", "path": "mod.py", "line": 1}],
        "effects": effects, "confidence": confidence,
        "authority": {"complete": complete, "effects": effects if complete else [*effects, OPAQUE]},
        "executable": False, "draft_contract": {},
    }


def record(store: Store, package: str, candidate: dict, ecosystem: str = "mined:pypi") -> int:
    registry.record_candidate(store, ecosystem, package, None, candidate["kind"], candidate["id"], candidate)
    return store.conn.execute("SELECT id FROM candidates WHERE key = ?", [candidate["id"]]).fetchone()[0]


def bind(store: Store, candidate_id: str, artifact: str = "widgets@1.0.0#sha256:" + "a" * 64) -> None:
    """A binding as `capindex bind LOCATOR --candidate ID` stores it, checked at the registry boundary."""
    from binders.registry import check_binding

    binding = check_binding({
        "bindingVersion": "1.0", "binderId": "capindex.pypi", "substrate": "pypi", "locator": "pypi:widgets==1.0.0",
        "immutableArtifact": artifact, "createdAt": "2026-12-01T00:00:00.000Z",
        "authority": {"complete": False, "effects": [OPAQUE]}, "evidence": ["sha256 verified against PyPI"],
    })
    registry.store_binding(store, binding, candidate_id)


@pytest.fixture
def store(db_path):
    with Store(db_path) as s:
        yield s


@pytest.fixture
def examples(db_path):
    """The bundled example federation, ingested as `capindex ingest examples/federation` does."""
    assert main(["--db", str(db_path), "ingest", str(EXAMPLES)]) == 0
    with Store(db_path) as s:
        yield s


def refs(results) -> list[str]:
    return [r.ref for r in results]


# -- text ------------------------------------------------------------------------------------------


def test_python_tokens_and_stems_are_those_sqlite_indexes():
    """The re-ranker and the explanations stem in Python: word for word what FTS5's porter stores."""
    text = ("Parses CSV files; parsing, parser, parsers. Generalization relational conditional hopeful "
            "agreed caresses ponies ies sses ss running runs happy sky motoring flies dying caf\u00e9s "
            "na\u00efve \u2122 Stra\u00dfe \u00c5ngstr\u00f6m 1\u00b5s \u0131stanbul utilities utility JSON yaml "
            "readFileSync HTTPServer get_json v4 uuid \u65e5\u672c\u8a9es abilities formatter compressor")
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='porter')")
    conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, instance)")
    words = tokens(text)
    conn.executemany("INSERT INTO t (rowid, x) VALUES (?, ?)", list(enumerate(words, 1)))
    sqlite = dict(conn.execute("SELECT doc, term FROM v"))
    assert [sqlite[i] for i in range(1, len(words) + 1)] == [stem(w) for w in words]
    assert stem("parsing") == stem("parses") == "pars" and stem("ies") == "ie"


def test_normalise_need_drops_stop_words_and_stems():
    assert normalise_need("Convert the CSV files to JSON") == "convert csv file json"
    assert normalise_need("converting csv file into json, please") == "convert csv file json"
    assert normalise_need("  I need something to parse YAML  ") == "pars yaml"
    assert normalise_need("readFileSync") == "read file sync"
    assert normalise_need("the of and") == ""
    assert [s for _, s in need_terms("slugify slugify SLUGIFY")] == ["slugifi"]


def test_candidate_text_splits_code_names_and_keeps_its_package():
    name, description, package, context = candidate_text(
        "mined:npm", "lodash@4.17.21#sha512-QUJD", "function",
        mined("cloneDeep", "This method recursively clones value."))
    assert name == "clone Deep" and description == "This method recursively clones value."
    assert package.split()[0] == "lodash" and "sha512" not in package
    assert "def clone Deep(value)" in context


def test_identifier_words_splits_as_its_regex_does():
    import random

    from index.search_text import _CAMEL, identifier_words

    assert identifier_words("readFileSync") == "read File Sync" and identifier_words("HTTPServer") == "HTTP Server"
    assert identifier_words("def safe_load(stream)") == "def safe_load(stream)"
    rng = random.Random(3)
    for _ in range(20000):
        text = "".join(rng.choice("aZb0_ .É(é)") for _ in range(rng.randint(0, 10)))
        assert identifier_words(text) == _CAMEL.sub(" ", text), text


def test_a_reports_candidates_are_stored_whole_or_not_at_all(store):
    """registry.record_candidates (what `capindex mine` stores through) is one transaction: a
    failure part way leaves the store as it was, and a retry stores every candidate once."""
    first = [mined(f"op{i}", f"Operation number {i}.") for i in range(5)]

    def failing():
        yield from (("function", c["id"], c) for c in first[:3])
        raise ValueError("the report was cut short")

    with pytest.raises(ValueError, match="cut short"):
        registry.record_candidates(store, "mined:pypi", "widgets", None, failing())
    assert count(store, "SELECT count(*) FROM candidates") == 0
    assert count(store, "SELECT count(*) FROM candidates_fts") == 0
    assert registry.record_candidates(store, "mined:pypi", "widgets", None,
                                      (("function", c["id"], c) for c in first)) == 5
    assert count(store, "SELECT count(*) FROM candidates") == 5
    # stored again (a re-mine), each candidate is updated in place, and its search row with it
    again = [{**c, "description": "Renamed."} for c in first]
    registry.record_candidates(store, "mined:pypi", "widgets", None, (("function", c["id"], c) for c in again))
    assert count(store, "SELECT count(*) FROM candidates") == 5
    assert count(store, "SELECT count(*) FROM candidates_fts WHERE candidates_fts MATCH 'renamed'") == 5
    assert count(store, "SELECT count(*) FROM candidates_fts WHERE candidates_fts MATCH 'number'") == 0
    # a key given twice in one batch is one candidate and one search row, as last given
    twice = [("function", first[0]["id"], {**first[0], "description": "Frobnicates."}),
             ("function", first[0]["id"], {**first[0], "description": "Defenestrates."})]
    assert registry.record_candidates(store, "mined:pypi", "widgets", None, twice) == 2
    assert count(store, "SELECT count(*) FROM candidates") == 5
    assert count(store, "SELECT count(*) FROM candidates_fts") == 5
    assert count(store, "SELECT count(*) FROM candidates_fts WHERE candidates_fts MATCH 'defenestrates'") == 1
    assert count(store, "SELECT count(*) FROM candidates_fts WHERE candidates_fts MATCH 'frobnicates'") == 0
    stored = {c["key"]: c["record"]["description"] for c in registry.candidates(store)}
    assert stored[first[0]["id"]] == "Defenestrates." and stored[first[1]["id"]] == "Renamed."


def count(store: Store, sql: str) -> int:
    return store.conn.execute(sql).fetchone()[0]


# -- ranking and explanations ----------------------------------------------------------------------


def test_native_results_say_what_they_are_and_why_they_matched(examples):
    results = search(examples, "parse CSV text")
    top = results[0]
    assert top.ref == "capability:csv/parse@1.0.0" and top.id == "csv/parse"
    assert (top.kind, top.provenance, top.executable, top.bound) == ("native", "native", True, False)
    assert top.package == {"name": "@acme/csv-tools", "version": "2.3.1", "source": "npm"}
    assert top.record["id"] == "csv/parse" and top.record["tags"] == ["csv", "parse", "table", "text"]
    assert top.effects == [] and top.confidence == 1.0
    assert set(top.matched["name"]) == {"parse", "csv"} and "text" in top.matched["description"]
    assert "csv" in top.matched["tags"]
    # the other CSV capability matches fewer words, so it ranks lower, and says so
    assert results[1].id == "csv/stringify" and "parse" not in results[1].matched.get("name", [])
    assert results[0].score > results[1].score


def test_a_native_capability_ranks_above_an_unbound_guess_of_the_same_relevance(store):
    ingest(store, native("@acme/widgets", "1.0.0", manifest(
        "acme/frob", name="Frobnicate Widgets", description="Frobnicate widgets in place.", tags=["acme"])))
    guess = mined("frobnicateWidgets", "Frobnicate widgets in place.", confidence=0.95)
    record(store, "widgets@1.0.0", guess)
    first, second = search(store, "frobnicate widgets")
    assert first.provenance == "native" and second.provenance == "mined"
    # the guess matches as well or better (its package says widgets too): what it is, not how it
    # matched, puts the native first
    assert second.relevance >= first.relevance
    assert first.strength == 1.0 > second.strength and first.score > second.score


def test_a_bound_candidate_ranks_above_the_same_candidate_unbound(store):
    same = "Frobnicate widgets in place."
    unbound = mined("frobnicateWidgets", same, ident="cand-aaaaaaaaaaaaaaaaaaaa")
    boundc = mined("frobnicateWidgets", same, ident="cand-bbbbbbbbbbbbbbbbbbbb")
    record(store, "widgets-a@1.0.0", unbound)
    record(store, "widgets-b@1.0.0", boundc)
    bind(store, boundc["id"])
    first, second = search(store, "frobnicate widgets")
    assert first.relevance == pytest.approx(second.relevance)
    assert (first.id, first.bound, first.executable) == (boundc["id"], True, True)
    assert (second.id, second.bound, second.executable) == (unbound["id"], False, False)
    assert first.kind == "mined function" and first.score > second.score


def test_a_better_fitting_guess_can_still_outrank_a_weak_native_match(store):
    ingest(store, native("@acme/misc", "1.0.0", manifest(
        "misc/tools", name="Misc Tools", description="Assorted helpers, one of which touches widgets.",
        tags=["misc"])))
    record(store, "widgets@1.0.0", mined("frobnicateWidgets", "Frobnicate widgets in place, quickly."))
    results = search(store, "frobnicate widgets quickly")
    assert results[0].provenance == "mined" and results[1].provenance == "native"


def test_a_word_finds_its_agent_noun_and_longer_code_names(store):
    record(store, "csvkit@1.0.0", mined("CsvParser", "Reads delimited rows.", kind="class"))
    record(store, "slugs@1.0.0", mined("slugify", ""))
    found = search(store, "parse csv")
    assert found[0].name == "CsvParser" and found[0].matched["name"] == ["parse", "csv"]
    assert search(store, "slug")[0].name == "slugify"


def test_the_same_operation_found_in_two_files_is_one_result(store):
    one = mined("frobnicate", "Frobnicate widgets.", ident="cand-0000000000000000000a")
    two = dict(mined("frobnicate", "Frobnicate widgets.", ident="cand-0000000000000000000b"),
               source={"path": "mod.pyi", "line": 1, "end_line": 1, "commit": None})
    record(store, "widgets@1.0.0", one)
    record(store, "widgets@1.0.0", two)
    assert len(search(store, "frobnicate")) == 1


def test_candidates_of_every_provenance_are_searched(db_path, capsys):
    with Store(db_path) as s:
        record(s, "widgets@1.0.0", mined("frobnicate", "Frobnicate widgets.", provenance="declared",
                                         kind="declared-operation", confidence=0.9), ecosystem="declared:openapi")
        registry.record_candidate(s, "npm", "frobnicator", "2.0.0", "search-result", "frobnicate widgets",
                                  {"name": "frobnicator", "version": "2.0.0", "description": "Frobnicate all widgets",
                                   "keywords": ["widgets"]})
        results = search(s, "frobnicate widgets")
    kinds = {r.kind for r in results}
    assert kinds == {"declared declared-operation", "discovered search-result"}
    discovered = next(r for r in results if r.provenance == "discovered")
    assert discovered.package == {"name": "frobnicator", "version": "2.0.0", "source": "npm"}
    assert discovered.effects == [OPAQUE] and not discovered.executable


# -- the candidate search index stays in step ------------------------------------------------------


def test_candidate_search_rows_follow_updates_and_deletes(store, db_path):
    cid = record(store, "widgets@1.0.0", mined("frobnicate", "Frobnicate widgets.", ident="cand-0000000000000000000c"))
    assert search(store, "frobnicate")[0].ref == f"candidate:{cid}"
    record(store, "widgets@1.0.0", mined("polish", "Polish widgets.", ident="cand-0000000000000000000c"))
    assert rows(db_path, "SELECT COUNT(*) FROM candidates_fts") == [(1,)]
    assert search(store, "polish")[0].ref == f"candidate:{cid}"
    assert search(store, "frobnicate") == []
    with store.write_transaction():
        store.conn.execute("DELETE FROM candidates WHERE id = ?", [cid])
    assert rows(db_path, "SELECT COUNT(*) FROM candidates_fts") == [(0,)]
    assert search(store, "polish") == []


def test_migration_4_indexes_the_candidates_a_store_already_holds(tmp_path):
    import sqlite_utils

    from index.migrations import MIGRATIONS

    path = tmp_path / "old.db"
    db = sqlite_utils.Database(path)
    db.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, description TEXT, applied_at TEXT)")
    for version, description, step in MIGRATIONS[:3]:
        step(db)
        db.execute("INSERT INTO schema_version VALUES (?, ?, 'then')", [version, description])
    candidate = mined("frobnicate", "Frobnicate widgets.")
    db.execute("INSERT INTO candidates (ecosystem, name, version, kind, key, record, found_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
               ["mined:pypi", "widgets@1.0.0", None, "function", candidate["id"], json.dumps(candidate), "then"])
    db.conn.commit()
    db.close()
    with Store(path) as s:
        assert s.schema_version >= 4
        assert [r.id for r in search(s, "frobnicate widgets")] == [candidate["id"]]


# -- filters ---------------------------------------------------------------------------------------


@pytest.fixture
def mixed(store):
    """Natives with and without effects, from npm and PyPI; mined candidates (opaque), one bound."""
    ingest(store,
           native("@acme/widgets", "1.0.0",
                  manifest("widgets/frobnicate", name="Frobnicate Widgets", description="Frobnicate widgets locally."),
                  manifest("widgets/fetch", name="Fetch Widgets", description="Frobnicate widgets from a server.",
                           effects=["network.connect"])),
           native("pywidgets", "2.0.0",
                  manifest("pywidgets/frob", name="Frob Widgets", description="Frobnicate widgets on disk.",
                           effects=["filesystem.write"]), source="pypi"))
    record(store, "widgets@1.0.0", mined("frobnicateWidgets", "Frobnicate widgets.", confidence=0.9,
                                         ident="cand-00000000000000000001"))
    record(store, "widgets@1.0.0", mined("frobnicateRemote", "Frobnicate widgets over http.", confidence=0.5,
                                         effects=["network.connect"], ident="cand-00000000000000000002"))
    record(store, "widgets@1.0.0", mined("frobnicate_tool", "Frobnicate widgets.", kind="mcp-tool", confidence=0.8,
                                         ident="cand-00000000000000000003"), ecosystem="mined:npm")
    bind(store, "cand-00000000000000000003")
    return store


def ids(results) -> set[str]:
    return {r.id for r in results}


def test_without_filters_everything_that_matches_is_found(mixed):
    assert ids(search(mixed, "frobnicate widgets")) == {
        "widgets/frobnicate", "widgets/fetch", "pywidgets/frob",
        "cand-00000000000000000001", "cand-00000000000000000002", "cand-00000000000000000003"}


def test_an_effects_ceiling_excludes_whatever_may_need_more(mixed):
    none = search(mixed, "frobnicate widgets", SearchFilters(effects_ceiling=frozenset()))
    assert ids(none) == {"widgets/frobnicate"}  # every candidate is opaque; the others need effects
    network = search(mixed, "frobnicate widgets", SearchFilters(effects_ceiling=frozenset({"network.connect"})))
    assert ids(network) == {"widgets/frobnicate", "widgets/fetch"}
    for r in network:
        assert set(r.effects) <= {"network.connect"}


def test_opaque_effects_pass_a_ceiling_only_when_allowed(mixed):
    allowed = search(mixed, "frobnicate widgets", SearchFilters(effects_ceiling=frozenset(), allow_opaque=True))
    assert ids(allowed) == {"widgets/frobnicate", "cand-00000000000000000001", "cand-00000000000000000003"}
    assert all(r.effects in ([], [OPAQUE]) for r in allowed)
    # naming the opaque effect in the ceiling allows it too
    named = search(mixed, "frobnicate widgets",
                   SearchFilters(effects_ceiling=frozenset({OPAQUE, "network.connect"})))
    assert "cand-00000000000000000002" in ids(named) and "pywidgets/frob" not in ids(named)


def test_kinds_select_natives_provenances_and_candidate_kinds(mixed):
    def kinds(*k):
        return ids(search(mixed, "frobnicate widgets", SearchFilters(kinds=frozenset(k))))

    assert kinds("native") == {"widgets/frobnicate", "widgets/fetch", "pywidgets/frob"}
    assert kinds("mined") == {"cand-00000000000000000001", "cand-00000000000000000002", "cand-00000000000000000003"}
    assert kinds("mcp-tool") == {"cand-00000000000000000003"}
    assert kinds("mined", "function") == {"cand-00000000000000000001", "cand-00000000000000000002"}
    assert kinds("native", "mcp-tool") == {"widgets/frobnicate", "widgets/fetch", "pywidgets/frob",
                                           "cand-00000000000000000003"}
    assert kinds("declared") == set()


def test_substrates_say_where_results_come_from(mixed):
    def where(*s):
        return ids(search(mixed, "frobnicate widgets", SearchFilters(substrates=frozenset(s))))

    assert where("pypi") == {"pywidgets/frob", "cand-00000000000000000001", "cand-00000000000000000002"}
    assert where("npm") == {"widgets/frobnicate", "widgets/fetch", "cand-00000000000000000003"}
    assert where("index") == {"widgets/frobnicate", "widgets/fetch", "pywidgets/frob"}
    assert where("git") == set()


def test_executable_only_keeps_natives_and_bound_candidates(mixed):
    found = search(mixed, "frobnicate widgets", SearchFilters(executable_only=True))
    assert ids(found) == {"widgets/frobnicate", "widgets/fetch", "pywidgets/frob", "cand-00000000000000000003"}
    assert all(r.executable for r in found)


def test_min_confidence_and_limit(mixed):
    confident = search(mixed, "frobnicate widgets", SearchFilters(min_confidence=0.85))
    assert "cand-00000000000000000002" not in ids(confident) and "cand-00000000000000000001" in ids(confident)
    assert len(search(mixed, "frobnicate widgets", SearchFilters(limit=2))) == 2


# -- errors ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("need, filters, message", [
    ("", SearchFilters(), "need: empty"),
    ("   \t", SearchFilters(), "need: empty"),
    ("the and of to", SearchFilters(), "nothing to search for"),
    ("parse csv", SearchFilters(effects_ceiling=frozenset({"network.open"})), "unknown effect 'network.open'"),
    ("parse csv", SearchFilters(effects_ceiling=frozenset({"custom:Bad Name"})), "unknown effect"),
    ("parse csv", SearchFilters(kinds=frozenset({"plugin"})), "kind 'plugin': unknown"),
    ("parse csv", SearchFilters(substrates=frozenset({"NPM!"})), "substrate 'NPM!'"),
    ("parse csv", SearchFilters(min_confidence=1.5), "min confidence"),
    ("parse csv", SearchFilters(limit=0), "limit 0"),
])
def test_bad_requests_are_one_clear_error(store, need, filters, message):
    with pytest.raises(SearchError, match=message):
        search(store, need, filters)


def test_a_custom_effect_is_a_valid_ceiling(examples):
    found = search(examples, "slugify text", SearchFilters(effects_ceiling=frozenset({"custom:acme.audit"})))
    assert found[0].id == "text/slugify"


# -- the command line ------------------------------------------------------------------------------


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from indexer.cli import entry_point; entry_point()", *args],
                          capture_output=True, text=True, timeout=60, check=False)


def test_cli_search_prints_results_and_json(examples, db_path, capsys):
    assert main(["--db", str(db_path), "--json", "search", "slugify text", "--limit", "2"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["need"] == "slugify text" and len(payload["results"]) == 2
    top = payload["results"][0]
    assert top["ref"] == "capability:text/slugify@1.0.0" and top["matched"]["name"] == ["slugify", "text"]
    assert main(["--db", str(db_path), "search", "fetch json over http", "--effects-ceiling", "network.connect",
                 "--kind", "native", "--substrate", "npm", "--executable-only", "--min-confidence", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "capability:http/get-json@1.0.0" in out and "matched" in out and "network.connect" in out
    assert main(["--db", str(db_path), "search", "fetch json over http", "--effects-ceiling", ""]) == 0
    assert "http/get-json" not in capsys.readouterr().out


def test_cli_bad_input_is_one_line_and_exit_1(tmp_path):
    db = str(tmp_path / "s.db")
    cases = [
        (("--db", db, "search", " "), "need: empty"),
        (("--db", db, "search", "parse csv", "--effects-ceiling", "filesystem.read,disk.write"), "unknown effect 'disk.write'"),
        (("--db", db, "search", "parse csv", "--kind", "widget"), "kind 'widget': unknown"),
        (("--db", db, "search", "parse csv", "--limit", "0"), "limit 0"),
    ]
    for args, expected in cases:
        proc = run(*args)
        assert proc.returncode == 1, (args, proc.stderr)
        assert "Traceback" not in proc.stderr
        lines = [line for line in proc.stderr.splitlines() if line.startswith("capindex: error:")]
        assert len(lines) == 1 and expected in lines[0], proc.stderr


def test_mined_and_bound_for_real_then_found(tmp_path, capsys):
    """`capindex mine` a git repository, `capindex bind --candidate` one operation, then search."""
    from test_mine import git

    work = tmp_path / "textkit"
    (work / "textkit").mkdir(parents=True)
    (work / "pyproject.toml").write_text('[project]\nname = "textkit"\nversion = "1.0.0"\n')
    (work / "textkit" / "__init__.py").write_text("from .slugs import make_slug, shout\n\n__all__ = ['make_slug', 'shout']\n")
    (work / "textkit" / "slugs.py").write_text(
        'def make_slug(title):\n    """Turn a title into a URL slug."""\n    return title.lower().replace(" ", "-")\n\n\n'
        'def shout(text):\n    """Upper-case the text."""\n    return text.upper()\n')
    git("init", "-q", "-b", "main", cwd=work)
    git("add", "-A", cwd=work)
    git("commit", "-q", "-m", "first", cwd=work)
    db = str(tmp_path / "s.db")
    assert main(["--db", db, "--json", "mine", str(work)]) == 0
    report = json.loads(capsys.readouterr().out)
    slug = next(c for c in report["candidates"] if c["name"] == "make_slug")
    assert main(["--db", db, "--json", "search", "make a url slug from a title"]) == 0
    before = json.loads(capsys.readouterr().out)["results"][0]
    assert before["id"] == slug["id"] and before["bound"] is False and before["kind"] == "mined function"
    assert set(before["matched"]["name"]) == {"make", "slug"} and "title" in before["matched"]["description"]
    assert main(["--db", db, "--json", "bind", f"git+file://{work}@main", "--candidate", slug["id"],
                 "--allow-private", "--cache", str(tmp_path / "cache")]) == 0
    capsys.readouterr()
    assert main(["--db", db, "--json", "search", "make a url slug from a title", "--executable-only"]) == 0
    after = json.loads(capsys.readouterr().out)["results"]
    assert [r["id"] for r in after] == [slug["id"]] and after[0]["bound"] and after[0]["executable"]
    assert after[0]["package"]["source"] == "mined:git" and after[0]["substrate"] == "git"


def test_what_the_registry_says_of_the_package_counts_too(store):
    """`capindex mine npm:NAME@VERSION` fetches the release first, and its record (description,
    keywords) is in the store: a need that speaks of what the package is for finds its operations."""
    registry.record_release(store, "npm", "cookie", "0.6.0",
                            {"name": "cookie", "version": "0.6.0", "description": "HTTP server cookie parsing and "
                             "serialization", "keywords": ["cookie", "cookies"]}, "https://registry.npmjs.org/cookie")
    record(store, "cookie@0.6.0#sha512-QUJD", mined("serialize", "", ident="cand-0000000000000000000d"),
           ecosystem="mined:npm")
    record(store, "jar@1.0.0#sha512-QUJD", mined("serializeJar", "", ident="cand-0000000000000000000e"),
           ecosystem="mined:npm")
    first, second = search(store, "serialize an http cookie")
    assert first.id == "cand-0000000000000000000d" and first.matched["package description"] == ["serialize", "http",
                                                                                                "cookie"]
    assert first.package == {"name": "cookie", "version": "0.6.0", "source": "mined:npm"}
    assert "package description" not in second.matched


def test_filters_that_exclude_every_full_match_still_find_partial_ones(store):
    """Retrieval asks for partial matches only when full ones are few; when filters leave too few
    results it is widened, and partial matches that pass are found."""
    ingest(store, native("@acme/remote", "1.0.0", *(
        manifest(f"remote/frob-{i}", name=f"Frobnicate Widgets {i}", description="Frobnicate widgets remotely.",
                 effects=["network.connect"]) for i in range(30))))
    ingest(store, native("@acme/local", "1.0.0", manifest("local/frob", name="Frobnicate",
                                                          description="Frobnicate anything in place.")),
           where="local.json")
    assert len(search(store, "frobnicate widgets", SearchFilters(limit=40))) == 31
    found = search(store, "frobnicate widgets", SearchFilters(effects_ceiling=frozenset()))
    assert [r.id for r in found] == ["local/frob"] and found[0].matched == {"name": ["frobnicate"],
                                                                            "description": ["frobnicate"]}


def test_a_manifest_that_declares_no_effects_is_opaque_under_a_ceiling(store):
    undeclared = manifest("widgets/polish", name="Polish Widgets", description="Polish widgets.")
    del undeclared["effects"]  # optional in a manifest: nothing is said of its effects
    ingest(store, native("@acme/polish", "1.0.0", undeclared,
                         manifest("widgets/shine", name="Shine Widgets", description="Polish and shine widgets.")))
    found = {r.id: r for r in search(store, "polish widgets")}
    assert found["widgets/polish"].effects == [OPAQUE] and found["widgets/shine"].effects == []
    assert ids(search(store, "polish widgets", SearchFilters(effects_ceiling=frozenset()))) == {"widgets/shine"}
    assert ids(search(store, "polish widgets", SearchFilters(effects_ceiling=frozenset(), allow_opaque=True))) == {
        "widgets/polish", "widgets/shine"}


def test_migration_6_marks_stored_manifests_without_effects(tmp_path):
    from index.migrations import MIGRATIONS

    path = tmp_path / "old.db"
    with Store(path) as s:
        undeclared = manifest("widgets/polish")
        del undeclared["effects"]
        ingest(s, native("@acme/polish", "1.0.0", undeclared, manifest("widgets/shine")))
        # as a store written before migration 6 has it: "[]" for both
        s.conn.execute("UPDATE capabilities SET effects = '[]'")
        s.conn.execute("DELETE FROM schema_version WHERE version = 6")
        s.conn.commit()
    assert MIGRATIONS[5][0] == 6
    with Store(path) as s:
        assert s.schema_version == 6
    assert rows(path, "SELECT cap_id, effects FROM capabilities ORDER BY cap_id") == [
        ("widgets/polish", "null"), ("widgets/shine", "[]")]
