"""`capindex crawl github` against the loopback GitHub API, and the git binder on a local repository."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from test_github import FEATURE, MAIN, V110, GitHubReplay

from conftest import rows
from indexer.cli import main


@pytest.fixture
def api():
    server = GitHubReplay()
    yield server
    server.close()


def test_crawl_github_records_each_ref_as_an_exact_commit(api, tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)
    db = tmp_path / "s.db"
    code = main(["--db", str(db), "--json", "crawl", "github", "octo-org/hello-capability",
                 "octo-org/hello-capability@feature/caps", "octo-org/hello-capability@v1.1.0",
                 "octo-org/no-such-repo", "--github-api", api.base, "--allow-private"])
    out = json.loads(capsys.readouterr().out)["repositories"]
    assert code == 1  # one repository does not exist; the others are recorded
    assert [(o["commit"], o["how"]) for o in out[:3]] == [(MAIN, "default"), (FEATURE, "branch"), (V110, "tag")]
    assert "not found" in out[3]["error"]
    assert rows(db, "SELECT requested, version, how FROM registry_resolutions ORDER BY id") == [
        ("(default branch)", MAIN, "default"), ("feature/caps", FEATURE, "branch"), ("v1.1.0", V110, "tag")]
    record = json.loads(rows(db, f"SELECT record FROM registry_releases WHERE version = '{MAIN}'")[0][0])
    assert record["full_name"] == "octo-org/hello-capability" and record["commit"] == MAIN


def test_a_token_comes_from_the_environment(api, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_example")
    assert main(["--db", str(tmp_path / "s.db"), "crawl", "github", "octo-org/hello-capability",
                 "--github-api", api.base, "--allow-private"]) == 0
    assert all(headers.get("authorization") == "Bearer ghp_example" for _, headers in api.requests)
    assert "ghp_example" not in capsys.readouterr().out


def git(*args, cwd=None):
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True,
                          env={"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_SYSTEM": "/dev/null", "HOME": "/tmp",
                               "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
                               "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org",
                               "PATH": "/usr/bin:/bin"}).stdout.strip()


@pytest.fixture
def bare_repo(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    git("init", "-q", "-b", "main", cwd=work)
    (work / "tool.py").write_text("print('hello')\n")
    git("add", ".", cwd=work)
    git("commit", "-q", "-m", "first", cwd=work)
    git("tag", "-a", "v1.0.0", "-m", "release", cwd=work)
    first = git("rev-parse", "HEAD", cwd=work)
    (work / "tool.py").write_text("print('hello, again')\n")
    git("commit", "-q", "-am", "second", cwd=work)
    second = git("rev-parse", "HEAD", cwd=work)
    bare = tmp_path / "repo.git"
    git("clone", "-q", "--bare", str(work), str(bare))
    return bare, first, second


def test_the_git_binder_resolves_a_branch_or_tag_and_pins_the_commit(bare_repo, tmp_path, capsys):
    bare, first, second = bare_repo
    db, cache = tmp_path / "s.db", tmp_path / "cache"
    url = f"file://{bare}"
    for rev, commit in (("main", second), ("v1.0.0", first)):
        assert main(["--db", str(db), "--json", "bind", f"git+{url}@{rev}", "--cache", str(cache)]) == 0
        binding = json.loads(capsys.readouterr().out)
        assert binding["locator"] == f"git+{url}@{rev}"  # the mutable locator is kept as asked
        assert binding["immutableArtifact"] == f"git+{url}@{commit}"
        assert any(commit in e for e in binding["evidence"])
        checkout = binding["metadata"]["checkout"]
        assert git("rev-parse", "HEAD", cwd=checkout) == commit
    assert len(rows(db, "SELECT id FROM bindings")) == 2


def test_an_unknown_revision_is_one_clear_error(bare_repo, tmp_path, capsys):
    bare, _, _ = bare_repo
    assert main(["--db", str(tmp_path / "s.db"), "bind", f"git+file://{bare}@no-such-branch",
                 "--cache", str(tmp_path / "cache")]) == 1
    err = capsys.readouterr().err
    assert "no-such-branch" in err and "Traceback" not in err


def test_fetch_github_checks_out_the_resolved_commit(api, bare_repo, tmp_path, capsys, monkeypatch):
    """The API says which commit; the clone (here a local mirror) must have it, and it is checked out."""
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)
    bare, first, second = bare_repo
    # the loopback API's default branch is MAIN; make the mirror's commit that one by asking for it exactly
    assert main(["--db", str(tmp_path / "s.db"), "--json", "fetch", "github", f"octo-org/hello-capability@{MAIN}",
                 "--github-api", api.base, "--clone-url", f"file://{bare}", "--allow-private",
                 "--cache", str(tmp_path / "cache")]) == 1
    err = capsys.readouterr().err
    assert MAIN in err and "Traceback" not in err  # the mirror does not have the API's commit: refused
    assert not list((tmp_path / "cache").rglob(MAIN))
    # a commit both the API and the mirror know is checked out
    from webserver import Route

    api.routes[f"/repos/octo-org/hello-capability/commits/{second}"] = Route(body=json.dumps({"sha": second}).encode())
    assert main(["--db", str(tmp_path / "s.db"), "--json", "fetch", "github", f"octo-org/hello-capability@{second}",
                 "--github-api", api.base, "--clone-url", f"file://{bare}", "--allow-private",
                 "--cache", str(tmp_path / "cache")]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["commit"] == second and result["how"] == "commit"
    assert git("rev-parse", "HEAD", cwd=result["path"]) == second
    assert (Path(result["path"]) / "tool.py").read_text() == "print('hello, again')\n"


def test_a_git_remote_on_a_private_address_is_refused_without_allow_private(tmp_path, capsys):
    assert main(["--db", str(tmp_path / "s.db"), "bind", "git+https://127.0.0.1/acme/tool.git@main",
                 "--cache", str(tmp_path / "cache")]) == 1
    err = capsys.readouterr().err
    assert "loopback" in err and "refused" in err


def test_conformance_exercises_the_git_binder_through_the_registry(bare_repo, tmp_path, capsys):
    bare, _, second = bare_repo
    assert main(["--db", str(tmp_path / "s.db"), "--json", "conformance", "--binder", f"git+file://{bare}@main",
                 "--cache", str(tmp_path / "cache")]) == 0
    report = json.loads(capsys.readouterr().out)
    binder = {c["id"]: c["passed"] for c in report["checks"] if c["id"].startswith("binder.")}
    assert binder == {"binder.bind": True, "binder.locator": True, "binder.identity": True, "binder.recheck": True,
                      "binder.authority": True, "binder.deterministic": True}


def test_verify_source_compares_an_npm_tarball_with_its_repository_at_git_head(web, bare_repo, tmp_path, capsys):
    from test_npm import sri, tarball

    bare, first, _ = bare_repo  # at `first`, tool.py prints 'hello'
    package = {"name": "tool", "version": "1.0.0", "gitHead": first}
    data = tarball(package, {"tool.py": b"print('hello')\n", "extra.js": b"// built\n"})
    web.raw("/tool/-/tool-1.0.0.tgz", data)
    web.json("/tool", {"name": "tool", "dist-tags": {"latest": "1.0.0"}, "versions": {"1.0.0": {
        **package, "dist": {"integrity": sri(data), "tarball": web.url("/tool/-/tool-1.0.0.tgz")}}}})
    assert main(["--db", str(tmp_path / "s.db"), "--json", "bind", "npm:tool@1.0.0", "--npm-registry", web.base,
                 "--verify-source", f"file://{bare}", "--allow-private", "--cache", str(tmp_path / "cache")]) == 0
    comparison = json.loads(capsys.readouterr().out)["metadata"]["sourceComparison"]
    assert comparison["commit"] == first and comparison["differ"] == []
    assert set(comparison["onlyInTarball"]) == {"package.json", "extra.js"}
    # the same tarball against a later commit of the source: tool.py differs
    data2 = tarball({**package, "version": "1.0.1"}, {"tool.py": b"print('goodbye')\n"})
    web.raw("/tool/-/tool-1.0.1.tgz", data2)
    doc = json.loads(web.routes["/tool"].body)
    doc["versions"]["1.0.1"] = {**package, "version": "1.0.1",
                                "dist": {"integrity": sri(data2), "tarball": web.url("/tool/-/tool-1.0.1.tgz")}}
    web.json("/tool", doc)
    assert main(["--db", str(tmp_path / "s.db"), "--json", "bind", "npm:tool@1.0.1", "--npm-registry", web.base,
                 "--verify-source", f"file://{bare}", "--allow-private", "--cache", str(tmp_path / "cache")]) == 0
    binding = json.loads(capsys.readouterr().out)
    assert binding["metadata"]["sourceComparison"]["differ"] == ["tool.py"]
    assert any("1 differ" in e for e in binding["evidence"])
