"""Where mined source comes from, and what it is: a git commit (read straight from the commit's
tree through gitpython: no checkout, no hooks, nothing from a working tree), an npm or PyPI
archive verified by the registry fetchers, or a plain directory (allowed for local use, reported
as unpinned). The identity goes into the mining report; a branch name alone is never it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from schemas.errors import CapindexError

_COMMIT = re.compile(r"^[0-9a-f]{40}$")


class SourceError(CapindexError, ValueError):
    pass


@dataclass
class Identity:
    kind: str  # "git", "npm", "pypi", "directory"
    locator: str
    rev: str | None = None
    commit: str | None = None
    artifact: str | None = None
    pinned: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "locator": self.locator, "rev": self.rev, "commit": self.commit,
                "artifact": self.artifact, "pinned": self.pinned}


class SourceTree:
    """Files of one source at one identity: (path, size) pairs and their bytes on demand."""

    identity: Identity
    forkable_reads = False  # read() works in a forked child while the parent reads too

    def files(self) -> Iterator[tuple[str, int]]:
        raise NotImplementedError

    def read(self, path: str) -> bytes:
        raise NotImplementedError


class DirectoryTree(SourceTree):
    forkable_reads = True  # plain files: each process opens its own

    def __init__(self, root: Path, identity: Identity):
        self.root = root.resolve()
        self.identity = identity
        self._base = str(self.root) + os.sep

    def files(self) -> Iterator[tuple[str, int]]:
        """Regular files in path order, .git and links left out (a link may point anywhere: not the
        package's own source). One scandir per directory: its entries know their type."""
        stack = [""]
        while stack:
            prefix = stack.pop()
            with os.scandir(self._base + prefix) as it:
                entries = sorted(it, key=lambda e: e.name)
            dirs = []
            for entry in entries:
                if entry.is_symlink():
                    continue
                if entry.is_dir():
                    if entry.name != ".git":
                        dirs.append(prefix + entry.name + "/")
                elif entry.is_file():
                    yield prefix + entry.name, entry.stat().st_size
            stack.extend(reversed(dirs))

    def read(self, path: str) -> bytes:
        fd = os.open(self._base + path, os.O_RDONLY)  # (half the cost of open(): no buffered file object)
        try:
            parts = []
            while block := os.read(fd, 1 << 20):
                parts.append(block)
            return b"".join(parts)
        finally:
            os.close(fd)


class GitTree(SourceTree):
    """A commit's tree, read from the object database."""

    def __init__(self, repo: Any, commit: Any, identity: Identity):
        self.repo, self.commit, self.identity = repo, commit, identity
        self._blobs: dict[str, Any] = {}

    def files(self) -> Iterator[tuple[str, int]]:
        for item in self.commit.tree.traverse():
            if item.type == "blob" and item.mode & 0o170000 == 0o100000:  # regular files: no links, no submodules
                self._blobs[item.path] = item
                yield item.path, item.size

    def read(self, path: str) -> bytes:
        return self._blobs[path].data_stream.read()


def open_git(location: str, rev: str | None, cache_dir: Path, allow_file: bool = True) -> GitTree:
    """A local repository (a path) or a remote one (a URL, fetched into the commit-keyed cache)."""
    import git

    from indexer.gitcache import checkout_commit, resolve_remote_ref

    if "://" in location or location.startswith("git@"):
        commit = resolve_remote_ref(location, rev, allow_file=allow_file)
        path = checkout_commit(location, commit, cache_dir / "git", allow_file=allow_file)
        repo = git.Repo(path)
    else:
        try:
            repo = git.Repo(location)
        except (git.InvalidGitRepositoryError, git.NoSuchPathError):
            raise SourceError(f"{location}: not a git repository") from None
    try:
        commit_obj = repo.commit(rev or "HEAD")
    except (git.BadName, ValueError) as exc:
        raise SourceError(f"{location}: no revision {rev or 'HEAD'!r} ({exc})") from None
    identity = Identity("git", location, rev, commit_obj.hexsha, None, True)
    return GitTree(repo, commit_obj, identity)


def open_directory(location: str) -> DirectoryTree:
    root = Path(location)
    if not root.is_dir():
        raise SourceError(f"{location}: not a directory")
    return DirectoryTree(root, Identity("directory", str(root.resolve()), pinned=False))


def is_git_repository(location: str) -> bool:
    return (Path(location) / ".git").exists() or (Path(location) / "HEAD").is_file() and (Path(location) / "objects").is_dir()


async def open_registry(locator: str, store: Any, client: Any, cache_dir: Path, npm_registry: str,
                        pypi_index: str) -> DirectoryTree:
    """`npm:NAME@VERSION` or `pypi:NAME==VERSION`: the verified, safely unpacked archive."""
    if locator.startswith("npm:"):
        from indexer import npm

        fetched = await npm.fetch_package(store, client, locator, cache_dir, npm_registry)
        import base64

        sri = "sha512-" + base64.b64encode(bytes.fromhex(fetched["sha512"])).decode()
        identity = Identity("npm", locator, fetched["requested"], None,
                            f"{fetched['name']}@{fetched['version']}#{sri}", True)
    elif locator.startswith("pypi:"):
        from indexer import pypi

        fetched = await pypi.fetch_project(store, client, locator, cache_dir, pypi_index)
        identity = Identity("pypi", locator, fetched["requested"], None,
                            f"{fetched['name']}@{fetched['version']}#sha256:{fetched['sha256']}", True)
    else:
        raise SourceError(f"{locator}: expected npm:NAME@VERSION or pypi:NAME==VERSION")
    return DirectoryTree(Path(fetched["path"]), identity)
