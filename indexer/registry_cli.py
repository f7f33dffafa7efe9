"""The registry commands: `crawl npm|pypi|github`, `fetch npm|pypi`, `bind`, `conformance`.

A few lines each over indexer/npm.py, pypi.py, github.py and binders/; each runs one event loop
with one guarded client (the address policy, caps and retries apply to every request, tarball
and redirect URLs included).
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from .cli import AllowNetwork, AllowPrivate, MaxBytes, Settings, Timeout, app, crawl_app, emit
from .fetching import Limits

T = TypeVar("T")

fetch_app = typer.Typer(no_args_is_help=True, help="Download an exact release, verify it, unpack it safely.")
app.add_typer(fetch_app, name="fetch")

NpmRegistry = Annotated[str, typer.Option("--npm-registry", help="npm registry base URL.")]
PypiIndex = Annotated[str, typer.Option("--pypi-index", help="PyPI base URL (its JSON API).")]
Cache = Annotated[Path | None, typer.Option("--cache", help="Where artifacts are unpacked (default: next to the store).")]


def run_with_client(limits: Limits, work: Callable[[Any], Awaitable[T]]) -> T:
    import asyncio

    async def main() -> T:
        from .client import GuardedClient

        async with GuardedClient(limits) as client:
            return await work(client)

    return asyncio.run(main())


def run_in_store(settings: Settings, limits: Limits, work: Callable[[Any, Any], Awaitable[T]]) -> T:
    """`await work(store, client)` with the command's store open and one guarded client."""
    async def job(client: Any) -> T:
        with settings.store() as store:
            return await work(store, client)

    return run_with_client(limits, job)


def _limits(allow_private: bool, timeout: float, max_bytes: int, allow_network: list[str] | None = None) -> Limits:
    import ipaddress

    for cidr in allow_network or []:
        try:
            ipaddress.ip_network(cidr, strict=False)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--allow-network") from None
    return Limits(allow_private=allow_private, total_timeout=timeout, max_bytes=max_bytes, per_host=8,
                  allowed_networks=tuple(allow_network or ()))


def _cache(settings: Settings, cache: Path | None) -> Path:
    return cache if cache is not None else Path(str(settings.db) + ".artifacts")


@crawl_app.command("npm")
def crawl_npm(
    ctx: typer.Context,
    specs: Annotated[list[str] | None, typer.Argument(help="NAME, NAME@VERSION, NAME@TAG or NAME@RANGE.")] = None,
    search: Annotated[str | None, typer.Option("--search", help="Registry search; results are candidates.")] = None,
    npm_registry: NpmRegistry = "https://registry.npmjs.org",
    allow_private: AllowPrivate = False, allow_network: AllowNetwork = None, timeout: float = 60.0,
    max_bytes: MaxBytes = 64 * 1024 * 1024,
) -> None:
    """Record exact npm releases (and their declared capabilities) in the store."""
    from . import npm

    settings: Settings = ctx.obj
    if not specs and not search:
        raise typer.BadParameter("give at least one package, or --search TEXT")

    async def work(store: Any, client: Any) -> dict[str, Any]:
        outcomes = [await npm.crawl_package(store, client, spec, npm_registry) for spec in specs or []]
        found = await npm.search(store, client, search, npm_registry) if search else []
        return {"packages": [o.as_dict() for o in outcomes], "search": found}

    payload = run_in_store(settings, _limits(allow_private, timeout, max_bytes, allow_network), work)
    lines = []
    for o in payload["packages"]:
        if o["error"]:
            lines.append(f"failed  {o['requested']}: {o['error']}")
            continue
        lines.append(f"{o['name']}@{o['version']} ({o['how']} from {o['requested']!r}): "
                     f"{o['native_capabilities']} capabilities, {o['legacy_exports']} legacy exports")
        lines += [f"  rejected {p}" for p in o["problems"]]
    lines += [f"candidate {r['name']}@{r.get('version')}: {r.get('description') or ''}" for r in payload["search"]]
    emit(settings, payload, "\n".join(lines))
    if any(o["error"] for o in payload["packages"]):
        raise typer.Exit(1)


@fetch_app.command("npm")
def fetch_npm(
    ctx: typer.Context,
    spec: Annotated[str, typer.Argument(help="NAME@VERSION (a tag or range is resolved first).")],
    npm_registry: NpmRegistry = "https://registry.npmjs.org", cache: Cache = None,
    allow_private: AllowPrivate = False, allow_network: AllowNetwork = None, timeout: Timeout = 120.0,
    max_bytes: MaxBytes = 256 * 1024 * 1024,
) -> None:
    """Download a tarball, verify it against dist.integrity before unpacking, unpack it safely."""
    from . import npm

    settings: Settings = ctx.obj
    result = run_in_store(settings, _limits(allow_private, timeout, max_bytes, allow_network),
                          lambda store, client: npm.fetch_package(store, client, spec, _cache(settings, cache),
                                                                  npm_registry))
    text = f"{result['name']}@{result['version']}: verified {result['verified']}; {result['files']} files in {result['path']}"
    text += "".join(f"\n  flagged {d}" for d in result["manifest_differences"])
    emit(settings, result, text)


@app.command("bind")
def bind(
    ctx: typer.Context,
    locator: Annotated[str, typer.Argument(help="npm:NAME@VERSION, pypi:NAME==VERSION or git+URL@REV.")],
    candidate: Annotated[str | None, typer.Option("--candidate", help="Candidate id this binding is for.")] = None,
    verify_source: Annotated[
        str | None, typer.Option("--verify-source", help="npm: compare the tarball with REPO at gitHead.")
    ] = None,
    npm_registry: NpmRegistry = "https://registry.npmjs.org", pypi_index: PypiIndex = "https://pypi.org",
    cache: Cache = None, allow_private: AllowPrivate = False, allow_network: AllowNetwork = None, timeout: Timeout = 120.0,
    max_bytes: MaxBytes = 256 * 1024 * 1024,
) -> None:
    """Tie a locator to exact, verified bytes: a MetabolicBinding 1.0, checked, stored and printed."""
    from binders.registry import BindContext, default_registry
    from index import registry as store_registry

    settings: Settings = ctx.obj
    binders = default_registry()

    async def work(client: Any) -> dict[str, Any]:
        with settings.store() as store:
            context = BindContext(store, client, _cache(settings, cache), npm_registry, pypi_index,
                                  allow_file_git=allow_private, allowed_networks=tuple(allow_network or ()),
                                  verify_source=verify_source)
            binding = await binders.bind(locator, context, {"id": candidate} if candidate else None)
            binders.check(binding)  # again, before it is stored
            store_registry.store_binding(store, binding, candidate)
            return binding

    binding = run_with_client(_limits(allow_private, timeout, max_bytes, allow_network), work)
    emit(settings, binding, f"bound {locator} to {binding['immutableArtifact']}\n"
         + "\n".join(f"  evidence: {e}" for e in binding["evidence"]))


def github_token() -> str | None:
    return os.environ.get("GITHUB_TOKEN") or None


@app.command("conformance")
def conformance(
    ctx: typer.Context,
    binder: Annotated[
        str | None, typer.Option("--binder", help="Also exercise the binder for LOCATOR through the registry.")
    ] = None,
    npm_registry: NpmRegistry = "https://registry.npmjs.org", pypi_index: PypiIndex = "https://pypi.org",
    cache: Cache = None, allow_private: AllowPrivate = False, allow_network: AllowNetwork = None, timeout: Timeout = 120.0,
    max_bytes: MaxBytes = 256 * 1024 * 1024,
) -> None:
    """Structural conformance checks (manifest, index, site, bindings, immutable artifacts, opaque effects)."""
    from binders.conformance import binder_checks, protocol_checks
    from binders.registry import BindContext, default_registry

    settings: Settings = ctx.obj
    checks = protocol_checks()
    if binder:
        async def work(client: Any) -> list[Any]:
            with settings.store() as store:
                context = BindContext(store, client, _cache(settings, cache), npm_registry, pypi_index,
                                      allow_file_git=allow_private)
                return await binder_checks(default_registry(), binder, context)

        checks += run_with_client(_limits(allow_private, timeout, max_bytes, allow_network), work)
    failed = [c for c in checks if not c.passed]
    emit(settings, {"passed": not failed, "checks": [c.as_dict() for c in checks]},
         "\n".join(f"{'PASS' if c.passed else 'FAIL'}  {c.id}: {c.description}" + (f" ({c.detail})" if c.detail else "")
                   for c in checks) + f"\n{len(checks) - len(failed)} of {len(checks)} checks passed")
    if failed:
        raise typer.Exit(1)


@crawl_app.command("pypi")
def crawl_pypi(
    ctx: typer.Context,
    specs: Annotated[list[str], typer.Argument(help="NAME or NAME==VERSION.")],
    pypi_index: PypiIndex = "https://pypi.org",
    allow_private: AllowPrivate = False, allow_network: AllowNetwork = None, timeout: float = 60.0,
    max_bytes: MaxBytes = 64 * 1024 * 1024,
) -> None:
    """Record exact PyPI releases (every file's sha256, requires-python, project URLs) in the store."""
    from . import pypi

    settings: Settings = ctx.obj

    async def work(store: Any, client: Any) -> list[dict[str, Any]]:
        return [(await pypi.crawl_project(store, client, spec, pypi_index)).as_dict() for spec in specs]

    outcomes = run_in_store(settings, _limits(allow_private, timeout, max_bytes, allow_network), work)
    emit(settings, {"projects": outcomes}, "\n".join(
        f"failed  {o['requested']}: {o['error']}" if o["error"]
        else f"{o['name']}=={o['version']} ({o['how']}): {o['files']} files" for o in outcomes))
    if any(o["error"] for o in outcomes):
        raise typer.Exit(1)


@fetch_app.command("pypi")
def fetch_pypi(
    ctx: typer.Context,
    spec: Annotated[str, typer.Argument(help="NAME==VERSION (or NAME for the latest release).")],
    pypi_index: PypiIndex = "https://pypi.org", cache: Cache = None,
    allow_private: AllowPrivate = False, allow_network: AllowNetwork = None, timeout: Timeout = 120.0,
    max_bytes: MaxBytes = 256 * 1024 * 1024,
) -> None:
    """Download a release's wheel (or sdist), verify its sha256, unpack it safely, read its entry points."""
    from . import pypi

    settings: Settings = ctx.obj
    result = run_in_store(settings, _limits(allow_private, timeout, max_bytes, allow_network),
                          lambda store, client: pypi.fetch_project(store, client, spec, _cache(settings, cache),
                                                                   pypi_index))
    scripts = ", ".join(f"{k} = {v}" for k, v in result["entry_points"]["console_scripts"].items()) or "none"
    emit(settings, result, f"{result['name']}=={result['version']}: verified sha256 {result['sha256']} of "
         f"{result['file']}; {result['files']} files in {result['path']}; console scripts: {scripts}")


@crawl_app.command("github")
def crawl_github(
    ctx: typer.Context,
    specs: Annotated[list[str] | None, typer.Argument(help="OWNER/REPO or OWNER/REPO@REF (branch, tag, commit).")] = None,
    search: Annotated[str | None, typer.Option("--search", help="Repository search; results are candidates.")] = None,
    github_api: Annotated[str, typer.Option("--github-api", help="GitHub REST API base URL.")] = "https://api.github.com",
    max_wait: Annotated[float, typer.Option("--max-wait", help="Seconds to wait for a rate limit to reset.")] = 60.0,
    allow_private: AllowPrivate = False, allow_network: AllowNetwork = None, timeout: float = 60.0,
    max_bytes: MaxBytes = 64 * 1024 * 1024,
) -> None:
    """Resolve repositories' refs to exact commits and record them (token from GITHUB_TOKEN)."""
    from . import github_crawl
    from .github import GitHub

    settings: Settings = ctx.obj
    if not specs and not search:
        raise typer.BadParameter("give at least one OWNER/REPO, or --search TEXT")

    async def work(client: Any) -> dict[str, Any]:
        api = GitHub(client, github_api, github_token(), max_wait=max_wait)
        with settings.store() as store:
            outcomes = [(await github_crawl.crawl_repo(store, api, spec)).as_dict() for spec in specs or []]
            found = await github_crawl.search(store, api, search) if search else []
        return {"repositories": outcomes, "search": found}

    payload = run_with_client(_limits(allow_private, timeout, max_bytes, allow_network), work)
    lines = [f"failed  {o['requested']}: {o['error']}" if o["error"]
             else f"{o['name']} @ {o['commit']} ({o['how']}{', ' + o['ref'] if o['ref'] else ''})"
             for o in payload["repositories"]]
    lines += [f"candidate {r.get('full_name')}: {r.get('description') or ''}" for r in payload["search"]]
    emit(settings, payload, "\n".join(lines))
    if any(o["error"] for o in payload["repositories"]):
        raise typer.Exit(1)


@fetch_app.command("github")
def fetch_github(
    ctx: typer.Context,
    spec: Annotated[str, typer.Argument(help="OWNER/REPO or OWNER/REPO@REF.")],
    github_api: Annotated[str, typer.Option("--github-api", help="GitHub REST API base URL.")] = "https://api.github.com",
    clone_url: Annotated[
        str | None, typer.Option("--clone-url", help="Clone from here instead (a mirror; file:// needs --allow-private).")
    ] = None,
    cache: Cache = None, allow_private: AllowPrivate = False, allow_network: AllowNetwork = None,
    timeout: Timeout = 60.0, max_bytes: MaxBytes = 64 * 1024 * 1024,
) -> None:
    """Resolve a ref to its commit through the API, then check that commit out into the cache."""
    import asyncio

    from . import github_crawl
    from .gitcache import checkout_commit
    from .github import GitHub
    from .policy import check_git_remote

    settings: Settings = ctx.obj

    async def work(client: Any) -> dict[str, Any]:
        api = GitHub(client, github_api, github_token())
        with settings.store() as store:
            outcome = await github_crawl.crawl_repo(store, api, spec)
            if outcome.error:
                raise github_crawl.GithubFailure(outcome.error)
            owner, repo, _ = github_crawl.parse_spec(spec)
            source = clone_url or (await api.repo(owner, repo))["clone_url"]
            await asyncio.to_thread(check_git_remote, source, allow_private, allow_network or ())
            path = await asyncio.to_thread(checkout_commit, source, outcome.commit,
                                           _cache(settings, cache) / "git", allow_file=allow_private)
        return {**outcome.as_dict(), "clone_url": source, "path": str(path)}

    result = run_with_client(_limits(allow_private, timeout, max_bytes, allow_network), work)
    emit(settings, result, f"{result['name']} @ {result['commit']} ({result['how']}) checked out in {result['path']}")
