"""The command line: thin over the library, one clear line per bad input, never a traceback."""

from __future__ import annotations

import http.server
import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from conftest import EXAMPLES, index_doc, package, write_json
from indexer.cli import main


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """The real console entry point in a child process."""
    return subprocess.run(
        [sys.executable, "-c", "from indexer.cli import entry_point; entry_point()", *args],
        capture_output=True, text=True, cwd=cwd, timeout=60,
    )


def test_readme_main_job_ingests_and_publishes_the_examples(tmp_path):
    db = str(tmp_path / "capindex.db")
    ingest = run("--db", db, "ingest", str(EXAMPLES))
    assert ingest.returncode == 0, ingest.stderr
    assert ingest.stdout.count("stored index") == 3 and ingest.stdout.count("stored site") == 1
    pub = run("--db", db, "--json", "publish", str(tmp_path / "public"), "--base-url", "http://localhost:8000")
    assert pub.returncode == 0, pub.stderr
    summary = json.loads(pub.stdout)
    assert summary["packages"] == 6 and summary["capabilities"] == 18
    check = run("validate", "index", str(tmp_path / "public" / "index.json"))
    assert check.returncode == 0 and "valid index document" in check.stdout
    stats = run("--db", db, "--json", "stats")
    assert json.loads(stats.stdout)["capabilities"] == 18


def test_bad_inputs_get_one_line_and_exit_1_without_traceback(tmp_path):
    db = str(tmp_path / "capindex.db")
    bad = write_json(tmp_path / "bad.json", index_doc(package("a", "1.0.0", "Not An Id")))
    cases = [
        (("--db", db, "ingest", str(bad)), "$.packages[0].capabilities[0].manifest.id"),
        (("--db", db, "ingest", str(tmp_path / "missing.json")), "cannot read"),
        (("--db", db, "publish", str(tmp_path / "out"), "--base-url", "not-a-url"), "--base-url"),
        (("--db", str(tmp_path / "no" / "such" / "dir" / "x.db"), "stats"), "cannot use as a capindex database"),
        (("validate", "index", str(tmp_path / "missing.json")), "cannot read"),
    ]
    for args, expected in cases:
        proc = run(*args)
        assert proc.returncode == 1, (args, proc.stderr)
        assert "Traceback" not in proc.stderr
        error_lines = [line for line in proc.stderr.splitlines() if line.startswith("capindex: error:")]
        assert len(error_lines) == 1 and expected in error_lines[0], proc.stderr


def test_usage_errors_exit_2(tmp_path):
    for args in (("publish", str(tmp_path)), ("validate", "nonsense", "x.json"), ("no-such-command",)):
        proc = run(*args)
        assert proc.returncode == 2, args
        assert "Traceback" not in proc.stderr


def test_a_bad_document_among_good_ones_fails_alone(tmp_path, capsys):
    db = str(tmp_path / "capindex.db")
    good = write_json(tmp_path / "good.json", index_doc(package("a", "1.0.0", "x/a")))
    bad = tmp_path / "bad.json"
    bad.write_text('{"indexVersion": "0.1", ')
    assert main(["--db", db, "--json", "ingest", str(bad), str(good)]) == 1
    out = json.loads(capsys.readouterr().out)
    assert [r["status"] for r in out["ingested"]] == ["stored"]
    assert out["failed"][0]["location"] == str(bad) and "not JSON" in out["failed"][0]["error"]


def test_validate_reports_every_problem_with_its_path(tmp_path, capsys):
    doc = index_doc(package("a", "1.0.0", "x/a"), federates=["./relative.json"])
    doc["packages"][0]["capabilities"][0]["manifest"]["effects"] = ["network.connect", "teleport"]
    path = write_json(tmp_path / "i.json", doc)
    assert main(["--json", "validate", "index", str(path)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["valid"] is False
    joined = "\n".join(report["problems"])
    assert "$.federates[0]" in joined and "$.packages[0].capabilities[0].manifest.effects[1]" in joined
    # a valid document of another kind is invalid as this kind
    site = write_json(tmp_path / "site.json", {"capabilityDiscoveryVersion": "0.1", "indexes": ["https://x.example/i.json"]})
    assert main(["validate", "site", str(site)]) == 0
    assert main(["validate", "index", str(site)]) == 1


def test_conflicts_command_shows_both_provenances(tmp_path, capsys):
    db = str(tmp_path / "capindex.db")
    a = write_json(tmp_path / "a" / "index.json", index_doc(package("p", "1.0.0", "x/p", integrity="sha512-A")))
    b = write_json(tmp_path / "b" / "index.json", index_doc(package("p", "1.0.0", "x/p", integrity="sha512-B")))
    assert main(["--db", db, "ingest", str(a), str(b)]) == 0
    capsys.readouterr()
    assert main(["--db", db, "--json", "conflicts"]) == 0
    [conflict] = json.loads(capsys.readouterr().out)["conflicts"]
    assert conflict["package"] == "p@1.0.0"
    assert conflict["established"]["entry"]["integrity"] == "sha512-A"
    assert conflict["other"]["entry"]["integrity"] == "sha512-B"
    assert conflict["established"]["first_source"].endswith("/a/index.json")
    assert conflict["other"]["first_source"].endswith("/b/index.json")


class _Handler(http.server.BaseHTTPRequestHandler):
    routes: dict[str, tuple[int, bytes]] = {}

    def do_GET(self):
        status, body = self.routes.get(self.path, (404, b"not found"))
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", _Handler.routes
    httpd.shutdown()
    _Handler.routes.clear()


def test_ingest_from_an_http_url(tmp_path, server, capsys):
    base, routes = server
    routes["/index.json"] = (200, json.dumps(index_doc(package("remote", "1.0.0", "net/remote"))).encode())
    routes["/broken.json"] = (500, b"oops")
    db = str(tmp_path / "capindex.db")
    # the address policy applies to ingest too: loopback is refused unless allowed
    assert main(["--db", db, "--json", "ingest", f"{base}/index.json"]) == 1
    assert "refused" in json.loads(capsys.readouterr().out)["failed"][0]["error"]
    assert main(["--db", db, "--json", "ingest", "--allow-private", f"{base}/index.json", f"{base}/broken.json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["ingested"][0]["url"] == f"{base}/index.json" and out["ingested"][0]["new_capabilities"] == 1
    assert out["failed"] == [{"location": f"{base}/broken.json", "error": "HTTP 500"}]


def test_cli_defaults_match_the_library():
    from index.publish import DEFAULT_SHARD_SIZE
    from indexer import cli
    from schemas.models import DOCUMENT_MODELS

    assert cli.DEFAULT_SHARD_SIZE == DEFAULT_SHARD_SIZE
    assert cli.DOCUMENT_KINDS == list(DOCUMENT_MODELS)


HEAVY = ("schemas.models", "pydantic", "httpx", "httpcore", "sqlite_utils")


def test_start_up_does_not_load_the_models_or_the_http_stack():
    """Neither the CLI nor the crawler loads them up front."""
    code = ("import sys, indexer.cli, indexer.crawl;"
            f" heavy = [m for m in {HEAVY!r} if m in sys.modules]; print(','.join(heavy))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == "", out.stdout + out.stderr


def test_a_re_crawl_of_fresh_documents_loads_none_of_them(web, tmp_path):
    """Such a crawl only reads the store: the parser, the models, the HTTP stack and sqlite-utils
    stay unloaded in the crawler's process (the worker it forked loads them, and is stopped)."""
    for i in range(3):
        nxt = [web.url(f"/{i + 1}.json")] if i < 2 else []
        web.json(f"/{i}.json", index_doc(federates=nxt), headers={"Cache-Control": "max-age=600"})
    db = tmp_path / "fresh.db"
    crawl_args = ["--db", str(db), "--json", "crawl", "federation", web.url("/0.json"), "--allow-private"]
    assert run(*crawl_args).returncode == 0
    code = ("import sys; from indexer.launch import main; sys.argv = ['capindex', *sys.argv[1:]]\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            f"print('HEAVY=' + ','.join(m for m in {HEAVY!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code, *crawl_args], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.rsplit("HEAVY=", 1)[0])["outcomes"] == {"fresh": 3}
    assert out.stdout.rsplit("HEAVY=", 1)[1].strip() == ""


def test_ingesting_an_older_document_for_the_same_source_is_refused(tmp_path, capsys):
    db = str(tmp_path / "capindex.db")
    path = write_json(tmp_path / "index.json", index_doc(package("a", "1.0.0", "x/a"), generated_at="2026-05-01T00:00:00Z"))
    assert main(["--db", db, "ingest", str(path)]) == 0
    write_json(path, index_doc(package("b", "1.0.0", "x/b"), generated_at="2026-04-01T00:00:00Z"))
    capsys.readouterr()
    assert main(["--db", db, "ingest", str(path)]) == 1
    assert "not applied: rollback: generatedAt 2026-04-01T00:00:00.000Z is older" in capsys.readouterr().err
    assert main(["--db", db, "ingest", "--accept-rollback", str(path)]) == 0
    from index.store import Store

    with Store(db) as store:
        listed = store.db.execute(
            "SELECT p.name FROM packages p JOIN package_sightings s ON s.package_id = p.id").fetchall()
        assert listed == [("b",)]
