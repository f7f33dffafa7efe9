"""Lockfiles: resolution by the standard's rule, the reference's index digest, lock sets, drift.

Stores are real SQLite files filled through the real ingest path from the fixture index documents
in fixtures/locks/; `--index URL` goes to a real loopback HTTP server; the CLI runs for real (in
process through `main`, and once as a child process for the one-line error contract).
"""

from __future__ import annotations

import copy
import hashlib
import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import reference_validator
from index.ingest import ingest_bytes
from index.publish import publish
from index.resolve import (
    Filters,
    ResolveError,
    index_digest,
    js_number,
    parse_request,
    published_root_index,
    resolve,
    stable_stringify,
    stable_stringify_bytes,
    store_source,
)
from index.store import Store
from indexer.cli import main
from schemas.documents import validate
from schemas.jsonschema_validation import schema_errors

FIXTURES = Path(__file__).parent / "fixtures" / "locks"
NETWORK = FIXTURES / "network.json"
EDGE = FIXTURES / "digest-edge.json"
SOURCE_URL = "https://caps.example.org/network.json"  # where the store "fetched" the fixture from
BASE = "https://caps.example.org/pub"
OPAQUE = "custom:external.opaque-effects"

# sha256 of the reference's stableStringify of each document, computed with Node's JSON.stringify
# when these tests were written (test_digest_agrees_with_node recomputes them when node is here)
REFERENCE_EXAMPLE_DIGEST = "2d1a5422df1f9ac542e91b03dcbe58024a041678e007a75c3cd91ba618f40001"
EDGE_DIGEST = "9e559fa6a1f1d589db5f968eb2f18bba34f14f46685b44dc6cb67164e94f8213"

NODE_STABLE_DIGEST = r"""
const {createHash} = require('crypto');
function stableStringify(value) {
  const normalize = (input) => {
    if (input === null || typeof input !== 'object') return input;
    if (Array.isArray(input)) return input.map(normalize);
    return Object.keys(input).sort().reduce((out, key) => { out[key] = normalize(input[key]); return out; }, {});
  };
  return JSON.stringify(normalize(value));
}
for (const f of process.argv.slice(1)) {
  const text = require('fs').readFileSync(f, 'utf8');
  console.log(createHash('sha256').update(stableStringify(JSON.parse(text))).digest('hex'));
}
"""


def network() -> dict:
    return json.loads(NETWORK.read_text("utf-8"))


def write(path: Path, doc: dict) -> Path:
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False), encoding="utf-8")
    return path


def make_store(db: Path, *docs: tuple[str, dict | Path], **options) -> Path:
    with Store(db) as store:
        for location, doc in docs:
            raw = doc.read_bytes() if isinstance(doc, Path) else json.dumps(doc).encode()
            result = ingest_bytes(store, raw, location, **options)
            assert result.status in ("stored", "unchanged"), result
    return db


@pytest.fixture
def network_db(tmp_path) -> Path:
    return make_store(tmp_path / "capindex.db", (SOURCE_URL, NETWORK))


def pick(db: Path, text: str, filters: Filters | None = None) -> str:
    with Store(db) as store, store_source(store, BASE) as source:
        s = resolve(source, parse_request(text), filters or Filters()).selection
    return f"{s.cap_id}@{s.cap_version} in {s.package_name}@{s.package_version}"


@dataclass
class Run:
    code: int
    out: str
    err: str

    def json(self):
        return json.loads(self.out)

    @property
    def error_lines(self) -> list[str]:
        return [line for line in self.err.splitlines() if line.startswith("capindex: error:")]


@pytest.fixture
def cli(capsys):
    def run(*args: str) -> Run:
        code = main([str(a) for a in args])
        out, err = capsys.readouterr()
        return Run(code, out, err)

    return run


# -- the index digest -------------------------------------------------------------------------------


def test_reference_example_index_digest_is_pinned(reference):
    raw = (reference / "examples" / "registry-index.json").read_bytes()
    doc = json.loads(raw)
    # the reference's algorithm, independently: for a document with no fractional or huge numbers
    # and no integer-like keys, stableStringify is sorted keys, no whitespace, non-ASCII as itself
    independent = hashlib.sha256(
        json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")).hexdigest()
    assert independent == REFERENCE_EXAMPLE_DIGEST
    assert index_digest(doc) == REFERENCE_EXAMPLE_DIGEST
    assert hashlib.sha256(raw).hexdigest() != REFERENCE_EXAMPLE_DIGEST  # the digest is not of the bytes


def test_digest_uses_javascript_number_string_and_key_order():
    doc = json.loads(EDGE.read_text("utf-8"))
    assert index_digest(doc) == EDGE_DIGEST
    text = stable_stringify(doc)
    assert '"minimum":1,' in text and '"maximum":1e+21' in text and '"multipleOf":0.000001' in text
    assert '"enum":[100,0,12345678901234567000,0.1,1e+300]' in text
    assert '"default":"Café ☕ 𝄞\u2028\\u001f"' in text  # non-ASCII as itself, controls escaped
    assert '"metadata":{"0":"first","name":"Índice de prueba","zz":"last"}' in text
    # integer-like keys first (numerically), then UTF-16 order (U+1F600 is a surrogate pair, before U+FFFF);
    # a "__proto__" key is lost when the reference re-inserts keys into a fresh object
    assert '"properties":{"9":{' in text and '},"10":{' in text and '"😀":{},"\uffff":{}}' in text
    assert "__proto__" not in text
    # the orjson writer and the pure Python one agree (a lone surrogate takes the latter)
    for value in (doc, network(), {"\ud800": ["\udc00", 1.5, 2**60], "b": {"10": 1, "9": 2.0}}):
        assert stable_stringify_bytes(value) == stable_stringify(value).encode("utf-8", "surrogatepass")
    assert [js_number(v) for v in (1.0, -0.0, 1e21, 1e20, 1.5e-7, 1e-6, 2**53 + 1, 10**400, 0.1 + 0.2)] == [
        "1", "0", "1e+21", "100000000000000000000", "1.5e-7", "0.000001", "9007199254740992", "null",
        "0.30000000000000004"]


def test_digest_agrees_with_node(reference):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the pinned digests stand for it")
    files = [reference / "examples" / "registry-index.json", EDGE, NETWORK]
    out = subprocess.run([node, "-e", NODE_STABLE_DIGEST, *map(str, files)], capture_output=True, text=True,
                         timeout=30, check=True).stdout.split()
    assert out[:2] == [REFERENCE_EXAMPLE_DIGEST, EDGE_DIGEST]
    assert out == [index_digest(json.loads(f.read_text("utf-8"))) for f in files]


def test_store_digest_is_that_of_the_published_root_index(tmp_path, network_db):
    edge_db = make_store(tmp_path / "edge.db", ("https://x.example/edge.json", EDGE))
    for db, shard_size in ((network_db, 5000), (network_db, 4), (edge_db, 5000)):
        out = tmp_path / f"pub-{db.stem}-{shard_size}"
        with Store(db) as store:
            result = publish(store, out, BASE + "/", shard_size=shard_size, metadata={"owner": "tests"})
            url, text = published_root_index(store, BASE, shard_size=shard_size, metadata={"owner": "tests"})
            source = store_source(store, BASE, shard_size=shard_size, metadata={"owner": "tests"})
        written = (out / "index.json").read_bytes()
        assert text.encode("utf-8") == written  # the very bytes publish writes
        assert url == source.url == result.index_url == f"{BASE}/index.json"
        assert source.digest == index_digest(json.loads(written))
        assert (shard_size == 4) == bool(source.federates)


# -- the selection rule and the filters -------------------------------------------------------------


def test_newest_capability_version_then_newest_package_version(network_db):
    # 1.1.0 beats 1.0.0 although @other/slug@3.0.0 is the newest package; among the packages with
    # 1.1.0, 1.10.0 beats 1.9.0 and 1.1.0 (semantic, not string, order)
    assert pick(network_db, "text/slugify") == "text/slugify@1.1.0 in @t/text@1.10.0"
    # the capability's version decides before the package's: 1.10.0 lives in the older package
    assert pick(network_db, "text/upper") == "text/upper@1.10.0 in @t/upper@0.1.0"
    assert pick(network_db, "text/slugify@1.0.0") == "text/slugify@1.0.0 in @other/slug@3.0.0"
    assert pick(network_db, "text/slugify@~1.0") == "text/slugify@1.0.0 in @other/slug@3.0.0"
    # semantic precedence counts a prerelease above older releases; a range follows npm's rules
    assert pick(network_db, "pre/cap") == "pre/cap@2.0.0-beta.1 in @t/pre@2.0.0-beta.1"
    assert pick(network_db, "pre/cap@^1") == "pre/cap@1.0.0 in @t/pre@1.0.0"
    # a package version that is not semver ranks below those that are
    assert pick(network_db, "odd/cap") == "odd/cap@1.0.0 in @t/odd@0.0.1"


def test_filters_select_the_newest_version_that_fits(network_db):
    ceiling = lambda *effects, **kw: Filters(effects_ceiling=frozenset(effects), **kw)
    assert pick(network_db, "net/fetch") == "net/fetch@2.0.0 in @t/net@2.0.0"
    assert pick(network_db, "net/fetch", ceiling("network.connect")) == "net/fetch@1.5.0 in @t/net@1.5.0"
    assert pick(network_db, "net/fetch", ceiling()) == "net/fetch@1.0.0 in @t/net@1.0.0"
    # the opaque marker passes a ceiling only when opaque effects are allowed
    assert pick(network_db, "ext/tool", ceiling("network.connect")) == "ext/tool@1.0.0 in @t/ext@1.0.0"
    assert pick(network_db, "ext/tool", ceiling("network.connect", allow_opaque=True)) == "ext/tool@2.0.0 in @t/ext@2.0.0"
    assert pick(network_db, "ext/tool", ceiling("network.connect", OPAQUE)) == "ext/tool@2.0.0 in @t/ext@2.0.0"
    # a manifest without `effects` says nothing of what it does: opaque under a ceiling
    assert pick(network_db, "misc/thing") == "misc/thing@1.1.0 in @t/misc@1.1.0"
    assert pick(network_db, "misc/thing", ceiling()) == "misc/thing@1.0.0 in @t/misc@1.0.0"
    assert pick(network_db, "misc/thing", ceiling(allow_opaque=True)) == "misc/thing@1.1.0 in @t/misc@1.1.0"
    # substrates: the package's source, and "native" for every native capability
    assert pick(network_db, "py/tool") == "py/tool@2.0.0 in py-tool@2.0.0"
    assert pick(network_db, "py/tool", Filters(substrates=frozenset({"npm"}))) == "py/tool@1.0.0 in @t/py-tool@1.0.0"
    assert pick(network_db, "py/tool", Filters(substrates=frozenset({"native"}))) == "py/tool@2.0.0 in py-tool@2.0.0"
    assert pick(network_db, "py/tool", Filters(substrates=frozenset({"index"}))) == "py/tool@2.0.0 in py-tool@2.0.0"
    # a native capability in a package is executable, with full confidence
    assert pick(network_db, "py/tool", Filters(executable_only=True, min_confidence=1.0)) == "py/tool@2.0.0 in py-tool@2.0.0"
    with pytest.raises(ResolveError, match=r"ext/tool: no version fits the filters \(ext/tool@2\.0\.0 .*network\.connect"):
        pick(network_db, "ext/tool", ceiling("filesystem.read"))
    with pytest.raises(ResolveError, match="no version fits"):
        pick(network_db, "py/tool", Filters(substrates=frozenset({"oci"})))


def test_requests_and_filters_are_checked():
    assert parse_request("text/slugify").id == "text/slugify"
    assert parse_request("text/slugify@^1.2").range == "^1.2"
    assert parse_request("slugify some text").need == "slugify some text"
    assert parse_request("text/slugify", force_need=True).need == "text/slugify"
    for bad, message in (("", "empty need"), ("   ", "empty need"), ("text/slugify@>>1", "invalid range")):
        with pytest.raises(ResolveError, match=message):
            parse_request(bad)
    where = "--{}".format
    with pytest.raises(ResolveError, match=r"--effects_ceiling: 'filesystem\.rea' is neither"):
        Filters(effects_ceiling=frozenset({"filesystem.rea"})).check(where)
    with pytest.raises(ResolveError, match="--min_confidence: 1.5"):
        Filters(min_confidence=1.5).check(where)
    with pytest.raises(ResolveError, match="--substrates: 'NPM' is not a lower-case name"):
        Filters(substrates=frozenset({"NPM"})).check(where)
    with pytest.raises(ResolveError, match="--substrates: empty"):
        Filters(substrates=frozenset()).check(where)


def test_only_published_content_is_resolved(tmp_path):
    """What a source no longer lists, and a conflicting second content, are never selected."""
    first = network()
    db = make_store(tmp_path / "db", (SOURCE_URL, first))
    later = copy.deepcopy(first)
    later["generatedAt"] = "2026-07-01T00:00:00.000Z"
    later["packages"] = [p for p in later["packages"] if (p["name"], p["version"]) != ("@t/text", "1.10.0")]
    make_store(db, (SOURCE_URL, later))
    assert pick(db, "text/slugify") == "text/slugify@1.1.0 in @t/text@1.9.0"
    # another source's different content for @t/text@1.9.0 is a conflict, stored but not published
    rival = {"indexVersion": "0.1", "generatedAt": "2026-07-01T00:00:00.000Z", "packages": [
        {**p, "capabilities": [{**p["capabilities"][0], "module": "./rival.js"}]}
        for p in later["packages"] if (p["name"], p["version"]) == ("@t/text", "1.9.0")]}
    make_store(db, ("https://rival.example/index.json", rival))
    with Store(db) as store, store_source(store, BASE) as source:
        assert resolve(source, parse_request("text/slugify"), Filters()).selection.module == "./dist/slugify-1.1.0.js"


# -- the CLI: resolve ------------------------------------------------------------------------------


def lock_schema_problems(doc: dict, kind: str = "lock") -> list[str]:
    validate(kind, doc, "test")  # the model
    return schema_errors(kind, doc)  # the shipped JSON Schema


def test_resolve_from_the_store_writes_a_valid_lock(tmp_path, network_db, cli):
    out = tmp_path / "capability.lock.json"
    run = cli("--db", network_db, "resolve", "text/slugify", "--base-url", BASE, "--out", out)
    assert run.code == 0, run.err
    assert run.out.startswith("locked text/slugify@1.1.0 in @t/text@1.10.0 from https://caps.example.org/pub/index.json")
    lock = json.loads(out.read_text("utf-8"))
    assert list(lock) == ["lockVersion", "generatedAt", "index", "package", "capability"]
    assert lock_schema_problems(lock) == []
    fixture = network()["packages"][3]
    assert lock["package"] == {"name": "@t/text", "version": "1.10.0", "integrity": fixture["integrity"]}
    assert lock["capability"] == {"id": "text/slugify", "version": "1.1.0", "module": "./dist/slugify-1.1.0.js",
                                  "integrity": fixture["capabilities"][0]["integrity"]}
    publish_run = cli("--db", network_db, "publish", tmp_path / "pub", "--base-url", BASE)
    assert publish_run.code == 0, publish_run.err
    published = json.loads((tmp_path / "pub" / "index.json").read_text("utf-8"))
    assert lock["index"] == {"url": f"{BASE}/index.json", "digest": index_digest(published)}
    # no --out: the lock itself on standard output, as the reference writes it
    run = cli("--db", network_db, "resolve", "net/fetch", "--base-url", BASE, "--effects-ceiling", "")
    assert run.code == 0 and run.out.endswith("}\n")
    printed = json.loads(run.out)
    assert printed["capability"]["version"] == "1.0.0" and "integrity" not in printed["package"]
    run = cli("--db", network_db, "--json", "resolve", "ext/tool", "--base-url", BASE,
              "--effects-ceiling", "network.connect,filesystem.read", "--allow-opaque")
    assert run.json()["lock"]["capability"]["version"] == "2.0.0" and run.json()["out"] is None


def test_resolve_against_an_index_file_and_url(tmp_path, web, cli):
    edge_url = web.raw("/edge/index.json", EDGE.read_bytes())
    run = cli("--json", "resolve", "edge/numbers", "--index", edge_url, "--allow-private")
    assert run.code == 0, run.err
    lock = run.json()["lock"]
    assert lock["index"] == {"url": edge_url, "digest": EDGE_DIGEST}
    assert lock["package"] == {"name": "edge", "version": "1.0.0"} and lock_schema_problems(lock) == []
    # the guarded client refuses loopback unless told otherwise
    refused = cli("resolve", "edge/numbers", "--index", edge_url)
    assert refused.code == 1 and len(refused.error_lines) == 1 and edge_url in refused.error_lines[0]
    run = cli("--json", "resolve", "text/upper", "--index", NETWORK, "--index-url", SOURCE_URL)
    assert run.code == 0, run.err
    assert run.json()["lock"]["index"] == {"url": SOURCE_URL, "digest": index_digest(network())}
    assert run.json()["lock"]["capability"]["version"] == "1.10.0"
    needs_url = cli("resolve", "text/upper", "--index", NETWORK)
    assert needs_url.code == 1 and "--index-url" in needs_url.error_lines[0]
    federating = write(tmp_path / "federating.json", {**network(), "federates": ["https://other.example/index.json"]})
    unknown = cli("resolve", "csv/parse", "--index", federating, "--index-url", SOURCE_URL)
    assert unknown.code == 1 and "federates to 1 more indexes, which --index does not follow" in unknown.error_lines[0]
    site = write(tmp_path / "site.json", {"capabilityDiscoveryVersion": "0.1", "indexes": [SOURCE_URL]})
    wrong_kind = cli("resolve", "text/upper", "--index", site, "--index-url", SOURCE_URL)
    assert wrong_kind.code == 1 and str(site) in wrong_kind.error_lines[0]


def test_resolve_bad_input_is_one_line(tmp_path, network_db, cli):
    cases = [
        (("resolve", "nope/missing", "--base-url", BASE), "unknown capability id 'nope/missing'"),
        (("resolve", "  ", "--base-url", BASE), "empty need"),
        (("resolve", "net/fetch", "--base-url", BASE, "--effects-ceiling", "network.connect,net.conect"),
         "--effects-ceiling: 'net.conect' is neither a built-in effect nor custom:<namespace>"),
        (("resolve", "net/fetch", "--base-url", BASE, "--min-confidence", "2"), "--min-confidence: 2.0 is not"),
        (("resolve", "net/fetch", "--base-url", BASE, "--substrate", "Npm"), "--substrate: 'Npm' is not"),
        (("resolve", "net/fetch"), "needs --base-url"),
        (("resolve", "text/slugify@^9", "--base-url", BASE), "no version satisfies it"),
        (("resolve", "text/slugify", "--base-url", "ftp://x"), "--base-url"),
        (("resolve", "edge/numbers", "--index", tmp_path / "missing.json", "--index-url", SOURCE_URL), "cannot read"),
    ]
    for args, expected in cases:
        run = cli("--db", network_db, *args)
        assert run.code == 1, (args, run.err)
        assert len(run.error_lines) == 1 and expected in run.error_lines[0], (args, run.err)
        assert "Traceback" not in run.err
    assert cli("--db", network_db, "resolve").code == 2
    assert cli("--db", network_db, "resolve", "x/y", "--set", tmp_path / "s.txt").code == 2


# -- lock sets ------------------------------------------------------------------------------------


def test_lock_set_from_text_and_json(tmp_path, network_db, cli):
    text_set = tmp_path / "needs.txt"
    text_set.write_text("# what the host needs\ntext/slugify\n\nnet/fetch@~1.0\npre/cap@^1\n", encoding="utf-8")
    out = tmp_path / "capability.lockset.json"
    run = cli("--db", network_db, "resolve", "--set", text_set, "--base-url", BASE, "--out", out)
    assert run.code == 0, run.err
    lock_set = json.loads(out.read_text("utf-8"))
    assert lock_schema_problems(lock_set, "lockset") == []
    assert [(lk["capability"]["id"], lk["capability"]["version"]) for lk in lock_set["locks"]] == [
        ("text/slugify", "1.1.0"), ("net/fetch", "1.0.0"), ("pre/cap", "1.0.0")]
    for lock in lock_set["locks"]:  # each entry is a lock on its own
        assert lock_schema_problems(lock) == []
    json_set = write(tmp_path / "needs.json", [
        "text/upper",
        {"id": "net/fetch", "effects_ceiling": ["network.connect"]},
        {"id": "misc/thing", "effects_ceiling": [], "allow_opaque": True},
        {"id": "py/tool", "substrates": ["npm"]},
    ])
    run = cli("--db", network_db, "--json", "resolve", "--set", json_set, "--base-url", BASE,
              "--effects-ceiling", "filesystem.read")
    assert run.code == 0, run.err
    locks = run.json()["lock_set"]["locks"]
    # per-entry filters replace the command line's; text/upper keeps the command line's ceiling
    assert [(lk["capability"]["id"], lk["capability"]["version"], lk["package"]["name"]) for lk in locks] == [
        ("text/upper", "1.10.0", "@t/upper"), ("net/fetch", "1.5.0", "@t/net"), ("misc/thing", "1.1.0", "@t/misc"),
        ("py/tool", "1.0.0", "@t/py-tool")]


def test_lock_set_errors_name_each_entry_and_nothing_is_written(tmp_path, network_db, cli):
    out = tmp_path / "set.lock.json"
    text_set = tmp_path / "needs.txt"
    text_set.write_text("text/slugify\nnope/missing\n# fine\nnet/fetch@>>1\n", encoding="utf-8")
    run = cli("--db", network_db, "resolve", "--set", text_set, "--base-url", BASE, "--out", out)
    assert run.code == 1 and not out.exists()
    assert [line.split(": ")[2:4] for line in run.error_lines] == [
        [str(text_set), "line 2"], [str(text_set), "line 4"]]
    assert "unknown capability id 'nope/missing'" in run.error_lines[0] and "invalid range" in run.error_lines[1]
    json_set = write(tmp_path / "needs.json", [
        "text/slugify", {"id": "net/fetch", "effects_ceiling": ["network.conect"]}, {"id": "x/y", "need": "both"},
        {"need": ""}, 7, {"id": "net/fetch", "ceiling": []}, {"id": "ext/tool", "effects_ceiling": ["filesystem.read"]},
    ])
    run = cli("--db", network_db, "--json", "resolve", "--set", json_set, "--base-url", BASE, "--out", out)
    assert run.code == 1 and not out.exists()
    errors = run.json()["errors"]
    assert [e.split(": ")[1] for e in errors] == [
        "$[1].effects_ceiling", "$[2]", "$[3].need", "$[4]", "$[5].ceiling", "$[6]"]
    assert "no version fits the filters" in errors[-1] and "empty need" in errors[2]
    for content, expected in (("[1, 2", "not JSON"), ('{"id": "x/y"}', "a set file is a JSON array"), ("\n# nothing\n", "lists nothing")):
        bad = tmp_path / "bad-set"
        bad.write_text(content, encoding="utf-8")
        run = cli("--db", network_db, "resolve", "--set", bad, "--base-url", BASE, "--out", out)
        assert run.code == 1 and len(run.error_lines) == 1 and str(bad) in run.error_lines[0], run.err
        assert expected in run.error_lines[0]
    assert not out.exists()


# -- verify and drift ------------------------------------------------------------------------------


def kinds(report: dict, field: str = "drift") -> list[list[str]]:
    return [[f["kind"] for f in entry[field]] for entry in report["entries"]]


def test_verify_reports_each_kind_of_drift_against_an_index_file(tmp_path, cli):
    index = write(tmp_path / "index.json", network())
    lock = tmp_path / "capability.lock.json"
    run = cli("resolve", "text/slugify", "--index", index, "--index-url", SOURCE_URL, "--out", lock)
    assert run.code == 0, run.err
    verify = lambda: cli("--json", "lock", "verify", lock, "--index", index, "--index-url", SOURCE_URL)

    ok = verify()
    assert ok.code == 0 and ok.json()["drifted"] is False and kinds(ok.json()) == [[]], ok.out
    assert kinds(ok.json(), "info") == [[]]

    changed = network()
    changed["generatedAt"] = "2026-06-02T00:00:00.000Z"  # the same packages, another document
    write(index, changed)
    run = verify()
    assert run.code == 1 and kinds(run.json()) == [["index-digest-changed"]]
    assert run.json()["entries"][0]["drift"][0]["current"] == index_digest(changed)

    pkg_changed = network()
    pkg_changed["packages"][3]["integrity"] = "sha512-b3RoZXIgYnl0ZXM="
    write(index, pkg_changed)
    assert kinds(verify().json()) == [["index-digest-changed", "integrity-changed"]]
    cap_changed = network()
    cap_changed["packages"][3]["capabilities"][0]["integrity"] = "sha256-b3RoZXIgbW9kdWxl"
    write(index, cap_changed)
    drift = verify().json()["entries"][0]["drift"]
    assert [f["kind"] for f in drift] == ["index-digest-changed", "integrity-changed"]
    assert drift[1]["detail"].startswith("capability text/slugify@1.1.0") and drift[1]["current"] == "sha256-b3RoZXIgbW9kdWxl"
    dropped = network()
    del dropped["packages"][3]["integrity"]
    write(index, dropped)
    assert verify().json()["entries"][0]["drift"][1]["current"] is None  # no longer stated: drift too

    cap_gone = network()
    cap_gone["packages"][3]["capabilities"][0]["module"] = "./dist/moved.js"
    write(index, cap_gone)
    run = verify()
    assert kinds(run.json()) == [["index-digest-changed", "capability-gone"]]
    assert "it lists text/slugify 1.1.0 at ./dist/moved.js" in run.json()["entries"][0]["drift"][1]["detail"]

    pkg_gone = network()
    del pkg_gone["packages"][3]
    write(index, pkg_gone)
    run = verify()
    assert kinds(run.json()) == [["index-digest-changed", "package-gone"]]

    newer = network()
    newer["packages"].append({**newer["packages"][3], "version": "1.11.0"})
    write(index, newer)
    run = verify()
    assert kinds(run.json()) == [["index-digest-changed"]]  # a newer selection is information, not drift
    assert kinds(run.json(), "info") == [["newer-version"]]
    assert run.json()["entries"][0]["info"][0]["current"] == "text/slugify@1.1.0 in @t/text@1.11.0"

    human = cli("lock", "verify", lock, "--index", index, "--index-url", "https://mirror.example/index.json")
    assert human.code == 1
    assert "text/slugify@1.1.0 in @t/text@1.10.0: DRIFTED" in human.out
    assert "info  index-url-differs" in human.out and "info  newer-version" in human.out


def test_verify_against_the_store_and_over_http(tmp_path, web, cli):
    db = make_store(tmp_path / "capindex.db", (SOURCE_URL, NETWORK))
    lock = tmp_path / "capability.lock.json"
    lock_set = tmp_path / "capability.lockset.json"
    needs = tmp_path / "needs.txt"
    needs.write_text("text/slugify\nnet/fetch\n", encoding="utf-8")
    assert cli("--db", db, "resolve", "text/slugify", "--base-url", BASE, "--out", lock).code == 0
    assert cli("--db", db, "resolve", "--set", needs, "--base-url", BASE, "--out", lock_set).code == 0
    for path in (lock, lock_set):
        run = cli("--db", db, "--json", "lock", "verify", path)
        assert run.code == 0 and not run.json()["drifted"], run.out
    assert kinds(cli("--db", db, "--json", "lock", "verify", lock_set).json()) == [[], []]
    # publish options change the root index the lock names
    run = cli("--db", db, "--json", "lock", "verify", lock, "--metadata", "owner=someone")
    assert run.code == 1 and kinds(run.json()) == [["index-digest-changed"]]

    # the source drops net/fetch's newest package: the set drifts entry by entry
    later = network()
    later["generatedAt"] = "2026-07-01T00:00:00.000Z"
    later["packages"] = [p for p in later["packages"] if (p["name"], p["version"]) != ("@t/net", "2.0.0")]
    make_store(db, (SOURCE_URL, later))
    run = cli("--db", db, "--json", "lock", "verify", lock_set)
    assert run.code == 1
    assert kinds(run.json()) == [["index-digest-changed"], ["index-digest-changed", "package-gone"]]
    assert [e["position"] for e in run.json()["entries"]] == ["$.locks[0]", "$.locks[1]"]
    human = cli("--db", db, "lock", "verify", lock_set)
    assert f"{lock_set} $.locks[1]: net/fetch@2.0.0 in @t/net@2.0.0: DRIFTED" in human.out

    # the same lock checked over HTTP against the document the lock came from, then a changed one
    served = web.raw("/network.json", NETWORK.read_bytes())
    http_lock = tmp_path / "http.lock.json"
    assert cli("resolve", "net/fetch", "--index", served, "--allow-private", "--out", http_lock).code == 0
    run = cli("--json", "lock", "verify", http_lock, "--index", served, "--allow-private")
    assert run.code == 0 and kinds(run.json()) == [[]]
    web.json("/network.json", later)
    run = cli("--json", "lock", "verify", http_lock, "--index", served, "--allow-private")
    assert kinds(run.json()) == [["index-digest-changed", "package-gone"]]
    # a lock that does not name a store publication needs --index
    run = cli("--db", db, "lock", "verify", http_lock)
    assert run.code == 1 and "not a store publication" in run.error_lines[0]


def test_corrupt_lockfiles_get_one_line_naming_file_and_path(tmp_path, network_db, cli):
    good = tmp_path / "good.lock.json"
    assert cli("--db", network_db, "resolve", "text/slugify", "--base-url", BASE, "--out", good).code == 0
    lock = json.loads(good.read_text("utf-8"))
    cases = {
        "not-json": (b'{"lockVersion": "1",', "$: not JSON"),
        "nan": (b'{"lockVersion": NaN}', "$: not JSON"),
        "version": (json.dumps({**lock, "lockVersion": "2"}).encode(), "$.lockVersion:"),
        "module": (json.dumps({**lock, "capability": {**lock["capability"], "module": "dist/x.js"}}).encode(),
                   "$.capability.module:"),
        "digest": (json.dumps({**lock, "index": {**lock["index"], "digest": "sha256:abc"}}).encode(), "$.index.digest:"),
        "extra": (json.dumps({**lock, "resolved": True}).encode(), "$.resolved:"),
        "set": (json.dumps({"lock_set_version": "1", "generated_at": lock["generatedAt"],
                            "locks": [lock, {**lock, "package": {"name": "x"}}]}).encode(), "$.locks[1].package.version:"),
        "no-version": (json.dumps({"index": lock["index"]}).encode(), "$: not a lock"),
        "index": (NETWORK.read_bytes(), "$: a index document, not a lock"),
    }
    for name, (raw, expected) in cases.items():
        path = tmp_path / f"{name}.json"
        path.write_bytes(raw)
        run = cli("--db", network_db, "lock", "verify", path)
        assert run.code == 1, (name, run.err)
        assert len(run.error_lines) == 1 and run.error_lines[0].startswith(f"capindex: error: {path}: {expected}"), (
            name, run.err)
    missing = cli("--db", network_db, "lock", "verify", tmp_path / "missing.json")
    assert missing.code == 1 and "cannot read" in missing.error_lines[0]
    # the real console entry point: one line on stderr, no traceback
    proc = subprocess.run([sys.executable, "-c", "from indexer.cli import entry_point; entry_point()",
                           "--db", str(network_db), "lock", "verify", str(tmp_path / "version.json")],
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.splitlines() == [proc.stderr.strip()] and "$.lockVersion" in proc.stderr


def test_reference_example_republished_lock_names_its_capability(tmp_path, reference, cli):
    """A lock resolved from the reference's own index resolves back the way the reference host does."""
    example = reference / "examples" / "registry-index.json"
    run = cli("--json", "resolve", "text/slugify", "--index", example,
              "--index-url", "https://registry.capability.dev/index.json")
    assert run.code == 0, run.err
    lock = run.json()["lock"]
    assert lock["index"]["digest"] == REFERENCE_EXAMPLE_DIGEST
    index = json.loads(example.read_text("utf-8"))
    assert not list(reference_validator("index").iter_errors(index))
    # resolveCapabilityLock: exact name@version, then exact id + version + module
    pkg = next(p for p in index["packages"] if (p["name"], p["version"]) == (lock["package"]["name"], lock["package"]["version"]))
    assert any(c["manifest"]["id"] == lock["capability"]["id"] and c["manifest"]["version"] == lock["capability"]["version"]
               and c["module"] == lock["capability"]["module"] for c in pkg["capabilities"])


# -- needs (through index.search) ------------------------------------------------------------------




def test_need_resolves_to_the_best_native_capability(network_db, cli):
    run = cli("--db", network_db, "--json", "resolve", "slugify", "--base-url", BASE)
    assert run.code == 0, run.err
    assert run.json()["lock"]["capability"] == {
        "id": "text/slugify", "version": "1.1.0", "module": "./dist/slugify-1.1.0.js",
        "integrity": network()["packages"][3]["capabilities"][0]["integrity"]}
    assert run.json()["search"]["provenance"] == "native"
    forced = cli("--db", network_db, "--json", "resolve", "--need", "text/slugify", "--base-url", BASE)
    assert forced.code == 0 and forced.json()["lock"]["capability"]["id"] == "text/slugify"


def test_a_mined_candidate_cannot_be_locked(tmp_path, cli):
    from index import registry

    db = make_store(tmp_path / "db", (SOURCE_URL, {"indexVersion": "0.1", "generatedAt": "2026-06-01T00:00:00.000Z",
                                                   "packages": [network()["packages"][6]]}))
    candidate = {
        "id": "npm:frobnicate@1.0.0#frobnicateWidgets", "kind": "function", "name": "frobnicateWidgets",
        "symbol": "frobnicateWidgets", "visibility": "public", "language": "javascript",
        "source": {"path": "index.js", "line": 1, "end_line": 3, "commit": None},
        "signature": "frobnicateWidgets(widgets)", "description": "Frobnicate widgets.", "provenance": "mined",
        "evidence": [{"kind": "export", "detail": "module.exports.frobnicateWidgets"}],
        "effects": [OPAQUE], "confidence": 0.9, "authority": {"complete": False, "effects": [OPAQUE]},
        "executable": False, "draft_contract": {},
    }
    validate("candidate", candidate, "test candidate")
    with Store(db) as store:
        registry.record_candidate(store, "mined:npm", "frobnicate", "1.0.0", "function", candidate["id"], candidate)
    run = cli("--db", db, "resolve", "--need", "frobnicate widgets", "--base-url", BASE, "--allow-opaque")
    assert run.code == 1 and len(run.error_lines) == 1
    assert "cannot be locked" in run.error_lines[0] and "native capability" in run.error_lines[0]
