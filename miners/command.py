"""`capindex mine`: a few lines over miners.mine, with the store and the registries."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from index.canonical import pretty_json_bytes
from indexer.cli import AllowNetwork, AllowPrivate, Settings, app, emit
from indexer.progress import BytesProgress
from indexer.registry_cli import Cache, NpmRegistry, PypiIndex, _cache, _limits, run_in_store


def mine_location(settings: Settings, location: str, rev: str | None, cache: Path | None, npm_registry: str,
                  pypi_index: str, allow_private: bool, allow_network: list[str] | None = None,
                  progress: Callable[[int, int], Any] | None = None) -> dict[str, Any]:
    """The validated mining report of `location`; `progress(done, total)` as mine_tree tells it."""
    from schemas.documents import validate

    from .mine import mine_tree
    from .sources import is_git_repository, open_directory, open_git, open_registry

    if location.startswith(("npm:", "pypi:")):
        async def work(store: Any, client: Any) -> dict[str, Any]:
            tree = await open_registry(location, store, client, _cache(settings, cache), npm_registry, pypi_index)
            return mine_tree(tree, progress=progress)

        report = run_in_store(settings, _limits(allow_private, 120.0, 256 * 1024 * 1024, allow_network), work)
    elif "://" in location or location.startswith("git@") or is_git_repository(location):
        report = mine_tree(open_git(location, rev, _cache(settings, cache), allow_file=True), progress=progress)
    else:
        if rev:
            raise typer.BadParameter(f"{location} is a plain directory: --rev needs a git repository")
        report = mine_tree(open_directory(location), progress=progress)
    validate("report", report, f"mining report for {location}")
    return report


def store_candidates(settings: Settings, report: dict[str, Any]) -> None:
    """The report's candidates, all in one transaction: a failure leaves the store as it was."""
    from index import registry

    repo = report["repository"]
    with settings.store() as store:
        registry.record_candidates(store, f"mined:{repo['kind']}", repo.get("artifact") or repo["locator"],
                                   repo.get("commit"), ((c["kind"], c["id"], c) for c in report["candidates"]))


@app.command("mine")
def mine(
    ctx: typer.Context,
    location: Annotated[str, typer.Argument(help="A git repository (path or URL), npm:NAME@VERSION, pypi:NAME==VERSION "
                                                 "or a plain directory (unpinned).")],
    rev: Annotated[str | None, typer.Option("--rev", help="Branch, tag or commit (git); resolved to a commit.")] = None,
    out: Annotated[Path | None, typer.Option("--out", help="Also write the report here.")] = None,
    npm_registry: NpmRegistry = "https://registry.npmjs.org", pypi_index: PypiIndex = "https://pypi.org",
    cache: Cache = None, allow_private: AllowPrivate = False, allow_network: AllowNetwork = None,
) -> None:
    """Evidence-backed candidate operations of a repository or package: never executable."""
    from .parallel import cycle_collection_paused

    settings: Settings = ctx.obj
    # the report is a tree of a few million small objects and no cycles: a collector pass over it
    # (validating, storing and writing allocate plenty) costs more than the work itself
    with cycle_collection_paused(), BytesProgress("mine", enabled=not settings.json) as bar:
        report = mine_location(settings, location, rev, cache, npm_registry, pypi_index, allow_private, allow_network,
                               bar)
        store_candidates(settings, report)
        if out is not None:
            out.write_bytes(pretty_json_bytes(report) + b"\n")
    cov = report["coverage"]
    lines = [f"{location} @ {report['repository'].get('commit') or report['repository'].get('artifact') or 'unpinned'}: "
             f"{len(report['candidates'])} candidates from {cov['files_parsed']} of {cov['eligible_files']} source files"
             + ("" if cov["complete"] else " (partial: see skipped)")]
    lines += [f"  {c['visibility']:<8} {c['kind']:<14} {c['name']}  ({c['source']['path']}:{c['source']['line']})"
              for c in report["candidates"][:200]]
    emit(settings, report, "\n".join(lines))
