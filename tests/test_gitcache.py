"""Checkouts by commit, with real git repositories under tmp_path served over file://.

The source is a bare repository with two commits on `main`, an annotated tag `v1` and a lightweight
tag `light` on the first, and in it a submodule entry (a gitlink and .gitmodules naming a repository
that exists, so a recursive fetch would succeed). Git's global configuration (a file under tmp_path)
points core.hooksPath and init.templateDir at the source's hooks, which would leave a mark if any ran.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from indexer.gitcache import GitCacheError, cache_path, checkout_commit, resolve_remote_ref

HOOKS = ("post-checkout", "reference-transaction", "post-index-change", "pre-auto-gc", "post-merge")


def git(*args: str, cwd: Path | None = None, env: dict | None = None) -> str:
    done = subprocess.run(["git", *args], check=False, cwd=cwd, env={**os.environ, **(env or {})},
                          capture_output=True, text=True)
    assert done.returncode == 0, f"git {' '.join(args)}: {done.stderr}"
    return done.stdout.strip()


class Source:
    def __init__(self, root: Path):
        self.root = root
        self.marks = root / "hook-marks"
        sub = root / "sub-work"
        git("init", "-q", str(sub))
        (sub / "lib.txt").write_text("submodule content\n")
        git("add", ".", cwd=sub)
        git("commit", "-qm", "sub", cwd=sub)
        self.sub_bare = root / "sub.git"
        git("clone", "-q", "--bare", str(sub), str(self.sub_bare))
        sub_commit = git("rev-parse", "HEAD", cwd=sub)

        work = root / "work"
        git("init", "-q", str(work))
        (work / "README.md").write_text("one\n")
        (work / "capabilities").mkdir()
        (work / "capabilities" / "hello.json").write_text('{"id": "hello/greet"}\n')
        (work / ".gitmodules").write_text(
            f'[submodule "vendor/sub"]\n\tpath = vendor/sub\n\turl = {self.sub_bare.as_uri()}\n')
        git("add", ".", cwd=work)
        git("update-index", "--add", "--cacheinfo", f"160000,{sub_commit},vendor/sub", cwd=work)
        git("commit", "-qm", "first", cwd=work)
        self.first = git("rev-parse", "HEAD", cwd=work)
        git("tag", "-a", "v1", "-m", "release one", cwd=work)
        git("tag", "light", cwd=work)
        (work / "README.md").write_text("two\n")
        git("commit", "-qam", "second", cwd=work)
        self.second = git("rev-parse", "HEAD", cwd=work)

        self.bare = root / "src.git"
        git("clone", "-q", "--bare", str(work), str(self.bare))
        git("fetch", "-q", "origin", "refs/tags/*:refs/tags/*", cwd=self.bare)
        self.tag_object = git("rev-parse", "v1", cwd=self.bare)
        for hook in HOOKS:
            script = self.bare / "hooks" / hook
            script.write_text(f'#!/bin/sh\necho "{hook}" >> "{self.marks}"\n')
            script.chmod(0o755)
        self.url = self.bare.as_uri()

    def hooks_that_ran(self) -> list[str]:
        return self.marks.read_text().split() if self.marks.exists() else []


@pytest.fixture(autouse=True)
def git_config(tmp_path, monkeypatch) -> Path:
    """A global git configuration of our own (and no system one) for the test and the code under test."""
    config = tmp_path / "gitconfig"
    config.write_text("[user]\n\tname = Test\n\temail = test@example.invalid\n[init]\n\tdefaultBranch = main\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    return config


@pytest.fixture
def source(tmp_path, git_config) -> Source:
    src = Source(tmp_path / "source")
    template = tmp_path / "template"
    shutil.copytree(src.bare / "hooks", template / "hooks")
    with git_config.open("a") as fh:  # the source's hooks, wherever git would look for hooks
        fh.write(f"[core]\n\thooksPath = {src.bare / 'hooks'}\n[init]\n\ttemplateDir = {template}\n")
    return src


def entries(directory: Path) -> list[str]:
    return sorted(str(p.relative_to(directory)) for p in directory.rglob("*")) if directory.exists() else []


def test_a_commit_is_checked_out_without_hooks_or_submodules(tmp_path, source):
    git("clone", "-q", source.url, str(tmp_path / "plain"))  # plain git here does run the source's hooks
    assert "post-checkout" in source.hooks_that_ran()
    source.marks.unlink()

    cache = tmp_path / "cache"
    path = checkout_commit(source.url, source.first, cache, allow_file=True)

    assert path == cache.joinpath("localhost", *source.bare.parent.parts[1:], "src", source.first)
    assert path == cache_path(source.url, source.first, cache, allow_file=True)
    assert (path / "README.md").read_text() == "one\n"
    assert (path / "capabilities" / "hello.json").is_file()
    assert git("rev-parse", "HEAD", cwd=path) == source.first
    assert git("status", "--porcelain", "--untracked-files=all", cwd=path) == ""
    assert list((path / "vendor" / "sub").iterdir()) == []  # the gitlink's directory, empty
    assert not (path / ".git" / "modules").exists()
    assert source.hooks_that_ran() == []
    assert entries(path / ".git" / "hooks") == []  # the init template (the source's hooks) was not copied
    assert sorted(p.name for p in path.parent.iterdir()) == [source.first]  # no temporary directory left


@pytest.mark.parametrize("version, allow_sha_wants, shallow", [
    ("2", False, True),  # protocol v2 serves a want by SHA
    ("0", True, True),  # v0 does when the server allows it
    ("0", False, False),  # v0 refuses it: a full fetch instead
])
def test_a_shallow_fetch_of_the_commit_or_a_full_one_when_refused(tmp_path, source, git_config, version,
                                                                  allow_sha_wants, shallow):
    with git_config.open("a") as fh:
        fh.write(f"[protocol]\n\tversion = {version}\n")
    if allow_sha_wants:
        git("config", "uploadpack.allowReachableSHA1InWant", "true", cwd=source.bare)
    git("tag", "-d", "v1", "light", cwd=source.bare)  # no ref names the first commit: v0 does not advertise it

    path = checkout_commit(source.url, source.first, tmp_path / "cache", allow_file=True)

    assert git("rev-parse", "HEAD", cwd=path) == source.first
    assert (path / "README.md").read_text() == "one\n"
    assert (path / ".git" / "shallow").exists() == shallow
    commits = git("rev-list", "--all", "--count", cwd=path)
    assert commits == ("1" if shallow else "2")


def test_blobs_arrive_with_the_checkout_from_a_server_that_filters(tmp_path, source):
    git("config", "uploadpack.allowFilter", "true", cwd=source.bare)
    cache = tmp_path / "cache"
    path = checkout_commit(source.url, source.first, cache, allow_file=True)

    assert git("config", "remote.origin.partialclonefilter", cwd=path) == "blob:none"
    packs = list((path / ".git" / "objects" / "pack").glob("*.pack"))
    assert len(packs) == 2  # the commit and its trees, then the blobs the checkout asked for
    assert (path / "capabilities" / "hello.json").read_text() == '{"id": "hello/greet"}\n'
    source.bare.rename(tmp_path / "gone.git")  # checking the cached tree needs no blob from the source
    assert checkout_commit(source.url, source.first, cache, allow_file=True) == path


def test_a_cached_checkout_is_reused_without_fetching(tmp_path, source):
    cache = tmp_path / "cache"
    first = checkout_commit(source.url, source.first, cache, allow_file=True)
    source.bare.rename(tmp_path / "gone.git")  # the source is unavailable from here on

    started = time.monotonic()
    again = checkout_commit(source.url, source.first, cache, allow_file=True)
    assert again == first and (again / "README.md").read_text() == "one\n"
    assert time.monotonic() - started < 5
    with pytest.raises(GitCacheError):  # whereas anything not cached needs the source
        checkout_commit(source.url, source.second, cache, allow_file=True)


def test_a_cached_checkout_that_changed_is_fetched_again(tmp_path, source):
    cache = tmp_path / "cache"
    path = checkout_commit(source.url, source.first, cache, allow_file=True)
    (path / "README.md").write_text("edited\n")
    (path / "stray.txt").write_text("added\n")

    again = checkout_commit(source.url, source.first, cache, allow_file=True)
    assert again == path
    assert (path / "README.md").read_text() == "one\n" and not (path / "stray.txt").exists()

    (path / "README.md").write_text("edited again\n")
    source.bare.rename(tmp_path / "gone.git")
    with pytest.raises(GitCacheError):  # a changed checkout is not served; fetching it again fails
        checkout_commit(source.url, source.first, cache, allow_file=True)
    assert not path.exists()


@pytest.mark.parametrize("url", [
    "ext::sh -c touch% {marks}",
    "fd::17",
    "git://127.0.0.1/src.git",
    "http://127.0.0.1/src.git",
    "ftp://127.0.0.1/src.git",
    "{file_url}",  # file:// without allow_file
    "{path}",  # a local path without allow_file
    "-uhelp",
    "--upload-pack=touch {marks}",
    "https://example.org/a.git\nevil",
    "ssh://-oProxyCommand=touch%20{marks}/x.git",
    "ssh://-oProxyCommand=touch%20{marks}@example.org/x.git",
    "-oProxyCommand=touch {marks}:x.git",
])
def test_other_protocols_are_refused_before_git_runs(tmp_path, source, url):
    url = url.format(marks=source.marks, file_url=source.url, path=source.bare)
    cache = tmp_path / "cache"
    with pytest.raises(GitCacheError):
        checkout_commit(url, source.first, cache)
    with pytest.raises(GitCacheError):
        resolve_remote_ref(url, "main")
    assert not cache.exists()
    assert not source.marks.exists()


def test_git_itself_refuses_protocols_a_url_rewrite_would_reach(tmp_path, source, git_config, monkeypatch):
    with git_config.open("a") as fh:
        fh.write(f'[url "ext::sh -c touch% {source.marks}% #"]\n\tinsteadOf = https://mirror.example/\n')
    monkeypatch.setenv("GIT_ALLOW_PROTOCOL", "ext:https:ssh:file")
    subprocess.run(["git", "ls-remote", "https://mirror.example/src.git"], check=False, capture_output=True)
    assert source.marks.exists()  # the rewrite is live: plain git ran the ext:: command
    source.marks.unlink()

    cache = tmp_path / "cache"
    with pytest.raises(GitCacheError):
        checkout_commit("https://mirror.example/src.git", source.first, cache)
    with pytest.raises(GitCacheError):
        resolve_remote_ref("https://mirror.example/src.git", "main")
    assert not source.marks.exists()
    assert entries(cache) == []


def test_a_commit_the_repository_lacks_fails_and_leaves_nothing(tmp_path, source):
    cache = tmp_path / "cache"
    cache.mkdir()
    missing = "0123456789abcdef0123456789abcdef01234567"
    with pytest.raises(GitCacheError, match=missing):
        checkout_commit(source.url, missing, cache, allow_file=True)
    assert entries(cache) == []

    kept = checkout_commit(source.url, source.second, cache, allow_file=True)
    with pytest.raises(GitCacheError):
        checkout_commit(source.url, missing, cache, allow_file=True)
    assert sorted(p.name for p in kept.parent.iterdir()) == [source.second]
    for not_a_commit in ("main", source.first[:12], "g" * 40):
        with pytest.raises(GitCacheError, match="not a 40-hex commit"):
            checkout_commit(source.url, not_a_commit, cache, allow_file=True)


def test_credentials_in_a_url_stay_out_of_errors(tmp_path):
    with pytest.raises(GitCacheError) as failure:
        checkout_commit("https://someone:hunter2@127.0.0.1:9/o/r.git", "0" * 40, tmp_path / "cache", timeout=30)
    assert "hunter2" not in str(failure.value) and "127.0.0.1:9/o/r.git" in str(failure.value)
    assert entries(tmp_path / "cache") == []


def test_remote_refs_resolve_to_commits(source):
    assert resolve_remote_ref(source.url, None, allow_file=True) == source.second
    assert resolve_remote_ref(source.url, "main", allow_file=True) == source.second
    assert resolve_remote_ref(source.url, "refs/heads/main", allow_file=True) == source.second
    assert resolve_remote_ref(source.url, "light", allow_file=True) == source.first
    assert resolve_remote_ref(source.url, "v1", allow_file=True) == source.first != source.tag_object
    assert resolve_remote_ref(source.url, "refs/tags/v1", allow_file=True) == source.first
    assert resolve_remote_ref(source.url, source.first.upper(), allow_file=True) == source.first
    with pytest.raises(GitCacheError, match="no branch or tag named 'nope'"):
        resolve_remote_ref(source.url, "nope", allow_file=True)
    with pytest.raises(GitCacheError, match="not a valid branch or tag name"):
        resolve_remote_ref(source.url, "--upload-pack=x", allow_file=True)
    assert source.hooks_that_ran() == []


def test_cache_paths_are_host_and_repository_under_the_cache(tmp_path):
    sha = "a" * 40
    cache = tmp_path / "cache"
    for url, where in [
        ("https://github.com/octo-org/hello-capability.git", "github.com/octo-org/hello-capability"),
        ("https://GitHub.com/octo-org/hello-capability", "github.com/octo-org/hello-capability"),
        ("git@github.com:octo-org/hello-capability.git", "github.com/octo-org/hello-capability"),
        ("ssh://git@git.example:2222/team/tools/caps.git", "git.example_2222/team/tools/caps"),
        ("https://example.org/../../etc/.git", "example.org/_../_../etc/_.git"),
    ]:
        assert cache_path(url, sha.upper(), cache) == cache / where / sha
