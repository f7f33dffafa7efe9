"""index/gaps.py and `capindex gap`: Capability gaps for needs nothing satisfies, stored with their demand
and published (fixtures in tests/fixtures/compose/, stored through the real ingest and candidate paths)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from test_compose import build_store

from conftest import index_doc, package, reference_validator, rows, write_json
from index.compose import OPAQUE
from index.gaps import GapError, GapRequest, gap_id, parse_effects, read_schema_file
from index.ingest import ingest_bytes
from index.publish import publish
from schemas.documents import validate

BASE = "https://caps.example.org/pub"
GAP_ID = re.compile(r"^gap/[a-z0-9._-]+$")


def run(*args: str) -> subprocess.CompletedProcess:
    """The real console entry point in a child process."""
    return subprocess.run([sys.executable, "-c", "from indexer.cli import entry_point; entry_point()", *args],
                          check=False, capture_output=True, text=True, timeout=60)


@pytest.fixture
def db(tmp_path) -> Path:
    path = tmp_path / "capindex.db"
    build_store(path).close()
    return path


def evaluate(db: Path, need: str, **request):
    from index.gaps import evaluate as run_evaluate
    from index.store import Store

    with Store(db) as store:
        return run_evaluate(store, GapRequest(need=need, **request))


def valid_gap(doc: dict) -> dict:
    """A gap document valid for capindex's model and for the reference schema."""
    validate("gap", doc, "gap")
    assert not list(reference_validator("gap").iter_errors(doc))
    return doc


# -- input ---------------------------------------------------------------------------------------


def test_effects_are_checked_and_may_be_comma_separated():
    assert parse_effects(["filesystem.read, network.connect", "custom:acme.thing"]) == {
        "filesystem.read", "network.connect", "custom:acme.thing"}
    assert parse_effects([]) == frozenset()
    for bad in ("shell", "custom:", "custom:Upper", "filesystem.READ"):
        with pytest.raises(GapError, match=re.escape(f"--ceiling {bad!r}: not a built-in effect")):
            parse_effects([bad])


def test_schema_files_are_read_or_refused_in_one_line(tmp_path):
    good = write_json(tmp_path / "in.json", {"type": "object"})
    assert read_schema_file(good, "--input-schema") == {"type": "object"}
    (tmp_path / "bad.json").write_text("{not json")
    (tmp_path / "list.json").write_text("[]")
    cases = [(tmp_path / "missing.json", "cannot read"), (tmp_path / "bad.json", "not JSON"),
             (tmp_path / "list.json", "a JSON Schema must be an object")]
    for path, why in cases:
        with pytest.raises(GapError) as raised:
            read_schema_file(path, "--output-schema")
        assert str(raised.value).startswith(f"--output-schema {path}: ") and why in str(raised.value)
        assert "\n" not in str(raised.value)


def test_gap_ids_are_valid_and_differ_per_ceiling():
    a = gap_id("resize images", '["filesystem.read"]')
    assert GAP_ID.match(a) and a.startswith("gap/resize-images-")
    assert a == gap_id("resize images", '["filesystem.read"]')
    assert a != gap_id("resize images", "[]")
    assert GAP_ID.match(gap_id("ÜBER §§ " + "x" * 200, "[]"))
    assert GAP_ID.match(gap_id("!!!", "[]")) and gap_id("!!!", "[]").startswith("gap/need-")


def test_bad_input_gets_one_line_and_a_non_zero_exit(tmp_path):
    db = str(tmp_path / "capindex.db")
    (tmp_path / "bad.json").write_text("{")
    cases = [
        (("gap", ""), "need: empty"),
        (("gap", "   "), "need: empty"),
        (("gap", "resize images", "--ceiling", "shell"), "--ceiling 'shell': not a built-in effect"),
        (("gap", "resize images", "--ceiling", "filesystem.read,nope"), "--ceiling 'nope'"),
        (("gap", "resize images", "--input-schema", str(tmp_path / "missing.json")), "--input-schema"),
        (("gap", "resize images", "--output-schema", str(tmp_path / "bad.json")), "not JSON"),
    ]
    for args, expected in cases:
        proc = run("--db", db, *args)
        assert proc.returncode == 1, (args, proc.stdout, proc.stderr)
        assert "Traceback" not in proc.stderr
        errors = [line for line in proc.stderr.splitlines() if line.startswith("capindex: error:")]
        assert len(errors) == 1 and expected in errors[0], proc.stderr
    usage = run("--db", db, "gap", "x", "--min-confidence", "2")
    assert usage.returncode == 2 and "Traceback" not in usage.stderr
    assert not Path(db).exists() or rows(db, "SELECT COUNT(*) FROM gaps") == [(0,)]


# -- evaluating (index.search) -------------------------------------------------------------------


def test_a_satisfied_need_writes_no_gap(db, tmp_path):
    outcome = evaluate(db, "slugify a phrase")
    assert outcome.satisfied and [s.id for s in outcome.results][:1] == ["words/slugify"]
    assert outcome.gap is None
    assert rows(db, "SELECT COUNT(*) FROM gaps") == [(0,)]
    proc = run("--db", str(db), "--json", "gap", "slugify a phrase")
    assert proc.returncode == 0, proc.stderr
    shown = json.loads(proc.stdout)
    assert shown["satisfied"] is True and "gap" not in shown
    assert shown["results"][0]["id"] == "words/slugify" and shown["results"][0]["authority"]["complete"] is True
    human = run("--db", str(db), "gap", "slugify a phrase")
    assert human.returncode == 0 and human.stdout.startswith("satisfied: 'slugify a phrase' under no effects")
    assert "words/slugify@1.0.0" in human.stdout
    assert rows(db, "SELECT COUNT(*) FROM gaps") == [(0,)]
    publish_dir = tmp_path / "out"
    from index.store import Store

    with Store(db) as store:
        result = publish(store, publish_dir, BASE)
    assert not any(f.startswith("gaps/") for f in result.files) and not (publish_dir / "gaps").exists()


def test_a_need_met_only_by_composition_is_satisfied_by_the_pipeline(db):
    outcome = evaluate(db, "normalize unicode then slugify a phrase")
    assert outcome.satisfied and outcome.results == []  # neither alone covers both parts
    assert [s.id for s in outcome.pipelines[0].steps] == ["words/normalize", "words/slugify"]
    assert rows(db, "SELECT COUNT(*) FROM gaps") == [(0,)]


def test_the_gap_document_validates_and_explains_each_near_miss(db):
    outcome = evaluate(db, "fetch a web page's words")  # docs/fetch-page needs network.connect
    assert not outcome.satisfied
    gap = valid_gap(outcome.gap)
    assert GAP_ID.match(gap["id"]) and gap["intent"] == "fetch a web page's words" and gap["status"] == "unresolved"
    assert gap["required"]["effectsCeiling"] == []
    assert gap["required"]["verification"][0] == "effects observed at run time stay within the ceiling (none)"
    assert "native" in gap["searched"] and "repository" in gap["searched"] and "gap" in gap["searched"]
    native = gap["evidence"]["nativeCandidates"]
    assert any(line.startswith("docs/fetch-page@1.0.0 (") and "over the effects ceiling: network.connect" in line
               for line in native), native
    assert outcome.demand == 1 and outcome.first_asked == gap["createdAt"]


def test_external_near_misses_say_opaque_and_not_bound(db):
    closed = evaluate(db, "detect anomalous events")
    assert not closed.satisfied
    external = valid_gap(closed.gap)["evidence"]["externalCandidates"]
    detect = [line for line in external if " &time.anomaly#detect (candidate:" in line]
    assert detect and detect[0].endswith(" declared, in compose-fixtures): opaque effects: authority incomplete; "
                                         "not bound to an exact artifact")
    assert "opaque effects: authority incomplete" in detect[0] and "not bound to an exact artifact" in detect[0]
    opened = evaluate(db, "detect anomalous events", ceiling=frozenset({OPAQUE}))
    assert not opened.satisfied  # a declared candidate is still unbound
    assert opened.gap["id"] != closed.gap["id"]  # another ceiling, another gap
    line = next(x for x in opened.gap["evidence"]["externalCandidates"] if " &time.anomaly#detect " in x)
    assert line.endswith(": not bound to an exact artifact")
    assert opened.gap["required"]["effectsCeiling"] == [OPAQUE]


def test_schema_mismatch_and_composition_attempts_are_evidence(db, tmp_path):
    wants_number = {"type": "object", "properties": {"slug": {"type": "integer"}}, "required": ["slug"]}
    outcome = evaluate(db, "slugify a phrase", output_schema=wants_number, input_schema={"type": "object"})
    assert not outcome.satisfied
    gap = valid_gap(outcome.gap)
    assert gap["required"]["output"] == wants_number and gap["required"]["input"] == {"type": "object"}
    assert "every output validates against the required output schema" in gap["required"]["verification"]
    slugify = next(x for x in gap["evidence"]["nativeCandidates"] if x.startswith("words/slugify@1.0.0"))
    assert "schema mismatch, required output (contradiction: $.slug: output type string but input requires integer)" in slugify

    composed = evaluate(db, "count the words then square an integer count")
    assert not composed.satisfied
    attempts = valid_gap(composed.gap)["evidence"]["compositionAttempts"]
    assert ("words/count@1.0.0 -> numbers/square@1.0.0: rejected: "
            "$.count: output type string but input requires integer") in attempts
    assert "composition" in composed.gap["searched"]
    count = next(x for x in composed.gap["evidence"]["nativeCandidates"] if x.startswith("words/count@1.0.0"))
    assert "covers only part of the need (nothing for 'square an integer count')" in count


def test_asking_again_in_other_words_raises_demand_not_a_new_gap(db):
    from index.search import normalise_need

    first_words, second_words = "Fetch a web page's words", "fetch  a WEB page's words!"
    assert normalise_need(first_words) == normalise_need(second_words)
    first = evaluate(db, first_words)
    second = evaluate(db, second_words)
    assert second.gap["id"] == first.gap["id"] and second.demand == 2
    assert second.gap["intent"] == first_words and second.gap["createdAt"] == first.gap["createdAt"]
    assert second.last_asked >= first.last_asked
    third = evaluate(db, first_words, ceiling=frozenset({"filesystem.read"}))
    assert third.gap["id"] != first.gap["id"] and third.demand == 1
    assert rows(db, "SELECT gap_id, demand FROM gaps ORDER BY demand DESC, gap_id") == [
        (first.gap["id"], 2), (third.gap["id"], 1)]
    stored = json.loads(rows(db, "SELECT document FROM gaps WHERE gap_id = ?", first.gap["id"])[0][0])
    assert valid_gap(stored) == second.gap


def test_publish_writes_each_gap_and_a_listing_ranked_by_demand(db, tmp_path, capsys):
    from index.store import Store
    from indexer.cli import main

    for need in ("detect anomalous events", "fetch a web page's words", "Fetch a web page's words.",
                 "fetch a web page's words", "count the words then square an integer count"):
        assert main(["--db", str(db), "--json", "gap", need]) == 0
        assert json.loads(capsys.readouterr().out)["satisfied"] is False
    out = tmp_path / "public"
    with Store(db) as store:
        result = publish(store, out, BASE)
    listing = json.loads((out / "gaps" / "index.json").read_text())
    validate("gaplisting", listing, "gaps/index.json")
    assert [g["demand"] for g in listing["gaps"]] == [3, 1, 1]
    assert listing["gaps"][0]["intent"] == "fetch a web page's words"
    assert listing["generatedAt"] == result.generated_at
    files = sorted(f for f in result.files if f.startswith("gaps/"))
    assert files == sorted(["gaps/index.json", *(f"gaps/{g['file']}" for g in listing["gaps"])])
    for entry in listing["gaps"]:
        doc = valid_gap(json.loads((out / "gaps" / entry["file"]).read_text()))
        assert doc["id"] == entry["id"] and doc["intent"] == entry["intent"]
        assert doc["createdAt"] == entry["firstAsked"]
    before = {p.name: p.read_bytes() for p in (out / "gaps").iterdir()}
    with Store(db) as store:
        publish(store, out, BASE)
    assert {p.name: p.read_bytes() for p in (out / "gaps").iterdir()} == before  # deterministic
    assert not list(out.rglob("*.capindex-tmp"))


def test_a_gap_satisfied_later_is_no_longer_published(db, tmp_path):
    from index.store import Store

    gap = evaluate(db, "fetch a web page's words").gap
    out = tmp_path / "public"
    with Store(db) as store:
        publish(store, out, BASE)
    assert (out / "gaps" / (gap["id"].split("/", 1)[1] + ".json")).is_file()
    # a page reader that needs no effect arrives
    reader = package("page-words", "1.0.0", "pages/page-words")
    reader["capabilities"][0]["manifest"]["description"] = "Fetch a web page's words from the local cache."
    with Store(db) as store:
        ingest_bytes(store, json.dumps(index_doc(reader)).encode(), "https://pages.example/index.json")
    again = evaluate(db, "fetch a web page's words")
    assert again.satisfied and again.gap is None
    assert rows(db, "SELECT demand, satisfied_at IS NOT NULL FROM gaps") == [(1, 1)]
    with Store(db) as store:
        result = publish(store, out, BASE)
    assert not any(f.startswith("gaps/") for f in result.files)
    assert not list((out / "gaps").glob("*.json"))  # the stale gap and listing are gone


def test_cli_prints_the_gap_and_its_evidence(db):
    proc = run("--db", str(db), "gap", "fetch a web page's words", "--verify", "returns the page's words")
    assert proc.returncode == 0, proc.stderr
    first = proc.stdout.splitlines()[0]
    assert re.match(r"gap gap/[a-z0-9._-]+ \(demand 1\): nothing satisfies \"fetch a web page's words\" under no effects",
                    first), proc.stdout
    assert "  native: docs/fetch-page@1.0.0" in proc.stdout
    document = json.loads(rows(db, "SELECT document FROM gaps")[0][0])
    assert document["required"]["verification"] == ["returns the page's words"]
