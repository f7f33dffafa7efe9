"""`capindex crawl github` against the loopback GitHub API, and the git binder on a local repository."""

from __future__ import annotations

import json
import sqlite3
import subprocess

import pytest
from test_github import FEATURE, MAIN, V110, GitHubReplay

from indexer.cli import main


def rows(db, sql):
    conn = sqlite3.connect(db)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


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
