"""Checkouts of exact commits, fetched with git under a fixed safety configuration and cached by commit.

A repository named by a document on the internet is untrusted: only https and ssh URLs are fetched
(file:// and local paths only when the caller allows them), checked here before git runs and again
by git itself (`protocol.allow=never` with one explicit allow per protocol, so a `url.*.insteadOf`
rewrite or a GIT_ALLOW_PROTOCOL in the environment cannot reach `ext::`). Hooks never run
(`core.hooksPath=/dev/null`, an empty init template), submodules are never fetched, git never prompts
(no terminal prompt, no askpass, no credential helpers, ssh in batch mode) and LFS smudge filters do
not download.

A checkout lives at `<cache_dir>/<host>/<path of the repository>/<commit>/` (a working tree with its
`.git`). It is built in a temporary directory beside that path and renamed into place only once HEAD
is verified to be the commit, so a present directory is complete; it is reused when its HEAD is still
the commit and its tree is clean, and otherwise replaced. A fetch asks for the one commit, shallow
and without blobs (they arrive with the checkout); a server that refuses a want by SHA (protocol v0
without `uploadpack.allowReachableSHA1InWant`) or a shallow or filtered fetch gets a full fetch of
its branches and tags instead.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

import git

from schemas.errors import CapindexError

from .urls import is_valid_ref_name

SHA1 = re.compile(r"[0-9a-f]{40}")
ALLOWED = ("https", "ssh")
FETCH_TIMEOUT = 600.0  # seconds for one git command (a fetch of a big repository included)
LOCAL_TIMEOUT = 60.0
_SCP_LIKE = re.compile(r"(?:(?P<user>[A-Za-z0-9._~+-]+)@)?(?P<host>[A-Za-z0-9][A-Za-z0-9.-]*):(?P<path>[^:]+)")
_HOST = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\]")
_SEGMENT_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")
# git's words for a repository it cannot reach at all, which no other way of fetching would change
_UNREACHABLE = re.compile(r"unable to access|could not resolve|does not appear to be a git repository|"
                          r"repository .*not found|permission denied|could not read from remote|timed? ?out",
                          re.IGNORECASE)


class GitCacheError(CapindexError):
    """A repository URL that is refused, or a commit that cannot be fetched or checked out; one line."""


@dataclass(frozen=True)
class GitUrl:
    url: str  # as git is given it (a local path became a file:// URL)
    scheme: str  # "https", "ssh" or "file"
    host: str  # lower-case, a port appended as "_port"; "localhost" for file URLs
    path: str  # the repository's path on that host, without a leading "/"
    display: str  # the URL without user name or password, for messages


def parse_git_url(url: str, *, allow_file: bool = False) -> GitUrl:
    """Check a repository URL before git sees it: https, ssh (`ssh://` or `user@host:path`) and, with
    `allow_file`, file:// URLs and local paths. Anything else (`ext::`, `fd::`, `git://`, plain http,
    option-like or multi-line strings) is a GitCacheError."""
    if not isinstance(url, str) or not url:
        raise GitCacheError("empty repository URL")
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in url) or url != url.strip():
        raise GitCacheError(f"{url!r}: control characters or surrounding spaces in a repository URL")
    if url.startswith("-"):
        raise GitCacheError(f"{url!r}: not a repository URL (starts with '-')")
    if "::" in url.split("/", 1)[0] or re.match(r"[A-Za-z][A-Za-z0-9+.-]*::", url):
        raise GitCacheError(f"{url!r}: remote helpers ('<transport>::') are not allowed")
    if "://" in url:
        scheme = url.split("://", 1)[0].lower()
        if scheme == "file":
            return _file_url(url, allow_file)
        if scheme not in ALLOWED:
            raise GitCacheError(f"{url!r}: protocol {scheme!r} is not allowed (only {', '.join(ALLOWED)})")
        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError as exc:
            raise GitCacheError(f"{url!r}: {exc}") from None
        host = parts.hostname or ""
        if not host or not _HOST.fullmatch(host if ":" not in host else f"[{host}]"):
            raise GitCacheError(f"{url!r}: no usable host")
        if (parts.username or "").startswith("-"):
            raise GitCacheError(f"{url!r}: a user name that looks like an option")
        if parts.query or parts.fragment:
            raise GitCacheError(f"{url!r}: a repository URL has no query or fragment")
        path = unquote(parts.path).strip("/")
        if not path:
            raise GitCacheError(f"{url!r}: no repository path")
        netloc = parts.netloc.rpartition("@")[2]
        return GitUrl(urlunsplit((scheme, parts.netloc, parts.path, "", "")), scheme,
                      host.lower() + (f"_{port}" if port else ""), path, f"{scheme}://{netloc}{parts.path}")
    scp = _SCP_LIKE.fullmatch(url)
    if scp and "/" not in url.split(":", 1)[0]:
        path = scp["path"].strip("/")
        if not path or path.startswith("-"):
            raise GitCacheError(f"{url!r}: no usable repository path")
        return GitUrl(url, "ssh", scp["host"].lower(), path, f"{scp['host']}:{scp['path']}")
    if not allow_file:
        raise GitCacheError(f"{url!r}: local repositories are not fetched (not an https or ssh URL)")
    return _file_url(Path(url).resolve().as_uri(), True)


def _file_url(url: str, allow_file: bool) -> GitUrl:
    if not allow_file:
        raise GitCacheError(f"{url}: file:// URLs are only fetched when local repositories are allowed")
    parts = urlsplit(url)
    if parts.netloc not in ("", "localhost"):
        raise GitCacheError(f"{url}: a file:// URL names no other host")
    path = unquote(parts.path)
    if not path.startswith("/"):
        raise GitCacheError(f"{url}: not an absolute file:// URL")
    return GitUrl(url, "file", "localhost", path.strip("/"), url)


def cache_path(clone_url: str, commit: str, cache_dir: str | os.PathLike[str], *, allow_file: bool = False) -> Path:
    """Where the checkout of `commit` from `clone_url` lives: `<cache_dir>/<host>/<path...>/<commit>`,
    each path segment reduced to `[A-Za-z0-9._-]` and a trailing `.git` dropped
    (https://github.com/o/r.git -> `github.com/o/r/<commit>`)."""
    return _cache_path(parse_git_url(clone_url, allow_file=allow_file), _commit(commit), Path(cache_dir))


def _cache_path(where: GitUrl, commit: str, cache_dir: Path) -> Path:
    segments = [s for s in where.path.split("/") if s]
    if segments and segments[-1].endswith(".git") and len(segments[-1]) > 4:
        segments[-1] = segments[-1][:-4]
    safe = []
    for segment in [where.host, *segments]:
        segment = _SEGMENT_UNSAFE.sub("_", segment)
        safe.append("_" + segment if segment.strip(".") == "" or segment.startswith(".") else segment)
    return cache_dir.joinpath(*safe, commit)


def _commit(commit: str) -> str:
    value = commit.strip().lower() if isinstance(commit, str) else ""
    if not SHA1.fullmatch(value):
        raise GitCacheError(f"{commit!r}: not a 40-hex commit")
    return value


def _git_config(scheme: str) -> list[str]:
    """`-c` settings for every git command: the protocol allow-list, no hooks, no submodules, no
    prompts, no credential helpers."""
    allowed = sorted({*ALLOWED, scheme})
    return [
        "protocol.allow=never",
        *(f"protocol.{name}.allow=always" for name in allowed),
        "core.hooksPath=/dev/null",
        "core.fsmonitor=false",
        "core.askPass=",
        "credential.helper=",
        "credential.interactive=never",
        "submodule.recurse=false",
        "fetch.recurseSubmodules=false",
        "fetch.writeCommitGraph=false",
        "gc.auto=0",
        "maintenance.auto=false",
        "advice.detachedHead=false",
    ]


def _git_env(scheme: str, git_dir: Path, work_tree: Path | None) -> dict[str, str]:
    """The environment of every git command: no prompts, the protocol allow-list (GIT_ALLOW_PROTOCOL
    would override protocol.allow, so it is set too), and git pinned to `git_dir` whatever GIT_DIR
    and its kind say in our own environment."""
    env = {
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_ASKPASS": "",
        "SSH_ASKPASS": "",
        "GCM_INTERACTIVE": "never",
        "GIT_ALLOW_PROTOCOL": ":".join(sorted({*ALLOWED, scheme})),
        "GIT_LFS_SKIP_SMUDGE": "1",
        "GIT_SSH_COMMAND": os.environ.get("GIT_SSH_COMMAND") or "ssh -o BatchMode=yes",
        "GIT_DIR": str(git_dir),
        "GIT_COMMON_DIR": str(git_dir),
        "GIT_OBJECT_DIRECTORY": str(git_dir / "objects"),
        "GIT_ALTERNATE_OBJECT_DIRECTORIES": "",
        "GIT_INDEX_FILE": str(git_dir / "index"),
        "LC_ALL": "C",
    }
    if work_tree is not None:
        env["GIT_WORK_TREE"] = str(work_tree)
    elif "GIT_WORK_TREE" in os.environ:
        env["GIT_WORK_TREE"] = str(git_dir)  # a bare scratch repository: nothing is checked out there
    return env


class _Git:
    """One repository's git commands, each run with the safety settings and raising GitCacheError."""

    def __init__(self, where: GitUrl, git_dir: Path, work_tree: Path | None):
        self.where = where
        self.cmd = git.Git(str(work_tree or git_dir))
        self.config = [arg for setting in _git_config(where.scheme) for arg in ("-c", setting)]
        self.env = _git_env(where.scheme, git_dir, work_tree)

    def execute(self, args: tuple[str, ...], timeout: float) -> tuple[int, str, str]:
        return self.cmd.execute(["git", *self.config, *args], with_extended_output=True, with_exceptions=False,
                                env=self.env, kill_after_timeout=timeout)

    def run(self, *args: str, timeout: float = LOCAL_TIMEOUT, what: str | None = None) -> str:
        status, out, err = self.execute(args, timeout)
        if status != 0:
            reason = _reason(err)
            raise _GitFailed(f"{what or 'git ' + args[0]} failed for {self.where.display}: {reason}", reason)
        return out

    def ok(self, *args: str) -> bool:
        status, _, _ = self.execute(args, LOCAL_TIMEOUT)
        return status == 0


def _reason(stderr: Any) -> str:
    """The line of git's stderr that says why, credentials in URLs blanked."""
    text = stderr.decode("utf-8", "replace") if isinstance(stderr, bytes) else str(stderr or "")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    lines = [line for line in lines if not line.startswith(("warning:", "hint:", "From ", " * "))] or lines
    picked = next((line for line in lines if line.startswith(("fatal:", "error:"))), lines[-1] if lines else "")
    picked = re.sub(r"(://)[^/@\s]*@", r"\1", picked)
    return picked or "no message"


class _GitFailed(GitCacheError):
    """A git command that failed; `reason` is what git said."""

    def __init__(self, message: str, reason: str):
        super().__init__(message)
        self.reason = reason


class _Missing(GitCacheError):
    """The repository's branches and tags do not reach the commit."""


def _reason_of(failure: GitCacheError) -> str:
    return failure.reason if isinstance(failure, _GitFailed) else str(failure)


def checkout_commit(clone_url: str, commit: str, cache_dir: str | os.PathLike[str], *,
                    allow_file: bool = False, timeout: float = FETCH_TIMEOUT) -> Path:
    """The working tree of `commit` (40 hex) from the repository at `clone_url`, fetched once and then
    served from `cache_dir`. GitCacheError for a refused URL, a commit the repository does not have,
    or any failure of git; a failure leaves nothing in the cache."""
    where = parse_git_url(clone_url, allow_file=allow_file)
    commit = _commit(commit)
    final = _cache_path(where, commit, Path(cache_dir).absolute())
    if final.exists():
        if _verified(where, final, commit):
            return final
        _discard(final)  # changed since it was checked out: fetched afresh below
    created = _makedirs(final.parent)
    try:
        first: GitCacheError | None = None
        for fetch in (_fetch_commit, _fetch_all):  # the second when a server refuses the first
            tmp = Path(tempfile.mkdtemp(prefix=f".{commit[:12]}.", suffix=".tmp", dir=final.parent))
            try:
                _build(where, commit, tmp, fetch, timeout)
            except BaseException as exc:
                shutil.rmtree(tmp, ignore_errors=True)
                if not isinstance(exc, GitCacheError) or _UNREACHABLE.search(_reason_of(exc)):
                    raise  # another way of asking cannot help
                if first is None:
                    first = exc
                    continue
                if _reason_of(exc) == _reason_of(first):
                    raise
                raise GitCacheError(f"{exc} (fetching the commit alone: {_reason_of(first)})") from None
            return _place(where, commit, tmp, final)
        raise AssertionError("unreachable")
    except BaseException:
        _remove_empty(final.parent, created)
        raise


def _build(where: GitUrl, commit: str, tmp: Path, fetch, timeout: float) -> None:
    repo = git.Repo.init(str(tmp), template="", allow_unsafe_options=True,
                         env=_git_env(where.scheme, tmp / ".git", tmp))
    try:
        with repo.config_writer() as config:  # kept for git commands run in the checkout later
            for setting in _git_config(where.scheme):
                key, _, value = setting.partition("=")
                section, _, option = key.rpartition(".")
                if "." in section:
                    head, _, sub = section.partition(".")
                    section = f'{head} "{sub}"'
                config.set_value(section, option, value)
            config.set_value('remote "origin"', "url", where.url)
    finally:
        repo.close()
    run = _Git(where, tmp / ".git", tmp)
    fetch(run, commit, timeout)
    run.run("checkout", "--quiet", "--no-recurse-submodules", "--detach", commit, timeout=timeout,
            what="git checkout")
    head = run.run("rev-parse", "--verify", "HEAD").strip()
    if head != commit:
        raise GitCacheError(f"checked out {head or 'nothing'} instead of {commit} from {where.display}")


def _fetch_commit(run: _Git, commit: str, timeout: float) -> None:
    """Only the commit, shallow and without blobs, from a server that accepts a want by SHA."""
    run.run("fetch", "--quiet", "--no-tags", "--no-recurse-submodules", "--no-write-fetch-head", "--depth=1",
            "--filter=blob:none", "origin", commit, timeout=timeout, what="git fetch")


def _fetch_all(run: _Git, commit: str, timeout: float) -> None:
    """Every branch and tag, whole: for servers that refuse what _fetch_commit asks."""
    run.run("fetch", "--quiet", "--no-recurse-submodules", "--no-write-fetch-head", "origin",
            "+refs/heads/*:refs/remotes/origin/*", "+refs/tags/*:refs/tags/*", timeout=timeout, what="git fetch")
    if not run.ok("cat-file", "-e", f"{commit}^{{commit}}"):
        raise _Missing(f"{run.where.display} has no commit {commit} on its branches or tags")


def _verified(where: GitUrl, path: Path, commit: str) -> bool:
    """A cached checkout is usable: its HEAD is the commit and nothing in its tree differs or was added."""
    if not (path / ".git").is_dir():
        return False
    run = _Git(where, path / ".git", path)
    try:
        head = run.run("rev-parse", "--verify", "--quiet", "HEAD").strip()
        if head != commit:
            return False
        status = run.run("status", "--porcelain=v1", "--untracked-files=all", "--ignore-submodules=none")
    except GitCacheError:
        return False
    return status.strip() == ""


def _place(where: GitUrl, commit: str, tmp: Path, final: Path) -> Path:
    """Rename the finished checkout into place; another process that got there first wins."""
    try:
        os.rename(tmp, final)
    except OSError:
        if final.exists() and _verified(where, final, commit):
            shutil.rmtree(tmp, ignore_errors=True)
            return final
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return final


def _discard(path: Path) -> None:
    trash = Path(tempfile.mkdtemp(prefix=f".{path.name[:12]}.", suffix=".trash", dir=path.parent))
    os.rename(path, trash / path.name)
    shutil.rmtree(trash, ignore_errors=True)


def _makedirs(path: Path) -> list[Path]:
    """Create `path` and its missing parents; the ones created, innermost first."""
    missing = []
    current = path
    while not current.exists():
        missing.append(current)
        current = current.parent
    path.mkdir(parents=True, exist_ok=True)
    return missing


def _remove_empty(path: Path, created: list[Path]) -> None:
    for directory in created:
        try:
            directory.rmdir()
        except OSError:
            return


def resolve_remote_ref(clone_url: str, ref: str | None = None, *, allow_file: bool = False) -> str:
    """The 40-hex commit that `ref` names in the repository at `clone_url`, by `git ls-remote`: None
    is the remote HEAD; a 40-hex string is returned as it is (checkout_commit verifies it); a name is
    tried as a branch, then as a tag (an annotated tag peeled to its commit); `refs/heads/X` and
    `refs/tags/X` are taken as they are written."""
    where = parse_git_url(clone_url, allow_file=allow_file)
    if ref is not None and SHA1.fullmatch(ref.strip().lower()):
        return ref.strip().lower()
    if ref is None:
        wanted = ["HEAD"]
    elif ref.startswith("refs/"):
        wanted = [_check_ref(ref)]
    else:
        name = _check_ref(ref)
        wanted = [f"refs/heads/{name}", f"refs/tags/{name}"]
    with tempfile.TemporaryDirectory(prefix="capindex-ls-remote.") as scratch:
        git_dir = Path(scratch)  # an empty repository, so no other one's remotes or config take part
        git.Repo.init(scratch, bare=True, template="", allow_unsafe_options=True,
                      env=_git_env(where.scheme, git_dir, None)).close()
        patterns = [p for name in wanted for p in ((name,) if name == "HEAD" else (name, f"{name}^{{}}"))]
        out = _Git(where, git_dir, None).run("ls-remote", "--", where.url, *patterns, what="git ls-remote")
    refs: dict[str, str] = {}
    for line in out.splitlines():
        sha, _, name = line.partition("\t")
        if SHA1.fullmatch(sha):
            refs[name] = sha
    for name in wanted:
        peeled = refs.get(f"{name}^{{}}")
        if peeled or name in refs:
            return peeled or refs[name]
    what = "no HEAD" if ref is None else f"no branch or tag named {ref!r}"
    raise GitCacheError(f"{where.display}: {what}")


def _check_ref(ref: str) -> str:
    if not is_valid_ref_name(ref):
        raise GitCacheError(f"{ref!r}: not a valid branch or tag name")
    return ref
