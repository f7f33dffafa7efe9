"""The git binder: `git+URL@REV` (a branch, a tag or a commit) to `git+URL@<40-hex commit>`,
with the commit fetched and checked out (hooks off, no submodules) to prove it exists."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from schemas.ecma import utc_now
from schemas.errors import CapindexError

from .registry import BindContext, authority_for

_COMMIT = re.compile(r"^[0-9a-f]{40}$")


class GitLocatorError(CapindexError, ValueError):
    pass


def parse_locator(locator: str) -> tuple[str, str | None]:
    """`git+URL@REV` -> (URL, REV or None); the last @ that follows the path separates the revision."""
    if not locator.startswith("git+"):
        raise GitLocatorError(f"{locator}: expected git+URL@REV")
    rest = locator[4:]
    scheme, sep, tail = rest.partition("://")
    if not sep:
        raise GitLocatorError(f"{locator}: expected git+https://, git+ssh:// or git+file:// URL")
    path_start = tail.find("/")
    at = tail.rfind("@")
    if at > max(path_start, 0):
        return f"{scheme}://{tail[:at]}", tail[at + 1:] or None
    return rest, None


class GitBinder:
    binder_id = "capindex.git"
    substrate = "git"

    def accepts(self, locator: str) -> bool:
        return locator.startswith("git+")

    async def bind(self, locator: str, context: BindContext, candidate: dict[str, Any] | None = None) -> dict[str, Any]:
        from indexer.gitcache import checkout_commit, resolve_remote_ref
        from indexer.policy import AddressRefused, check_git_remote

        url, rev = parse_locator(locator)
        allow_file = context.allow_file_git or url.startswith("file://")
        try:
            await asyncio.to_thread(check_git_remote, url, context.allow_file_git, context.allowed_networks)
        except AddressRefused as exc:
            raise GitLocatorError(f"{locator}: refused: {exc}") from None
        evidence = []
        if rev is not None and _COMMIT.match(rev):
            commit = rev
        else:
            commit = await asyncio.to_thread(resolve_remote_ref, url, rev, allow_file=allow_file)
            evidence.append(f"git ls-remote resolved {rev or 'HEAD'} to {commit}")
        path = await asyncio.to_thread(checkout_commit, url, commit, context.cache_dir / "git", allow_file=allow_file)
        evidence.append(f"fetched and checked out {commit} (hooks disabled, no submodules); HEAD verified")
        return {
            "bindingVersion": "1.0",
            "binderId": self.binder_id,
            "substrate": self.substrate,
            "locator": locator,
            "immutableArtifact": f"git+{url}@{commit}",
            "createdAt": utc_now(),
            "authority": authority_for(candidate),
            "evidence": evidence,
            "metadata": {"requested": rev, "commit": commit, "checkout": str(path)},
        }
