"""Does a published npm tarball match its source? Compare it with the repository at `gitHead`.

Published code that differs from its claimed source is evidence worth surfacing (built files
are expected to be missing from the repository; a file present in both that differs is not).
Nothing is executed: both trees are only read.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any


async def compare_with_source(context: Any, unpacked: str | Path, repository: str, git_head: str | None) -> dict[str, Any]:
    if not git_head:
        return {"compared": False, "repository": repository,
                "summary": "the registry records no gitHead: the tarball was not compared with its source"}
    from indexer.gitcache import checkout_commit

    checkout = Path(await asyncio.to_thread(checkout_commit, repository, git_head, context.cache_dir / "git",
                                            allow_file=context.allow_file_git))
    root = Path(unpacked)
    differ, only_in_tarball, same = [], [], 0
    for path in sorted(p for p in root.rglob("*") if p.is_file() and not p.is_symlink()):
        relative = path.relative_to(root).as_posix()
        source = checkout / relative
        if not source.is_file() or source.is_symlink():
            only_in_tarball.append(relative)
        elif source.read_bytes() != path.read_bytes():
            differ.append(relative)
        else:
            same += 1
    summary = (f"compared the tarball with {repository} at {git_head}: {same} files identical, "
               f"{len(differ)} differ" + (f" ({', '.join(differ[:5])})" if differ else "")
               + f", {len(only_in_tarball)} not in the repository")
    return {"compared": True, "repository": repository, "commit": git_head, "identical": same,
            "differ": differ, "onlyInTarball": only_in_tarball, "summary": summary}
