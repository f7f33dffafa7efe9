"""`capindex resolve` and `capindex lock verify`: a few lines each over index/resolve.py and index/locks.py.

Where a selection comes from: `--index URL|FILE` (one index document; a file also needs
`--index-url`, the URL it is served at, for the lock to name), or else the store, as the root
index `capindex publish --base-url URL` writes (give the same `--base-url`, and the same
`--shard-size`, `--index-generated-at` and `--metadata` when publish was given them). `lock
verify` without `--index` checks each lock against the store published at the base URL its
`index.url` names. Exit codes: 0 resolved or nothing drifted; 1 bad input, unresolved entries or
drift; 2 usage.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from .cli import DEFAULT_SHARD_SIZE, AllowPrivate, Settings, app, emit

lock_app = typer.Typer(no_args_is_help=True, help="Check lockfiles and lock sets against an index.")
app.add_typer(lock_app, name="lock")

Index = Annotated[str | None, typer.Option("--index", help="Resolve against this index document (file or http(s) URL) "
                                                           "instead of the store.")]
IndexUrl = Annotated[str | None, typer.Option("--index-url", help="The http(s) URL the --index file is served at.")]
ShardSize = Annotated[int, typer.Option("--shard-size", help="As given to publish: packages per index file.")]
IndexGeneratedAt = Annotated[str | None, typer.Option("--index-generated-at",
                                                      help="As publish's --generated-at (default: newest source).")]
Metadata = Annotated[list[str] | None, typer.Option("--metadata", help="As publish's KEY=VALUE.")]


def _metadata(items: list[str] | None) -> dict[str, str]:
    from index.publish import PublishError

    pairs = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise PublishError(f"--metadata {item!r}: expected KEY=VALUE")
        pairs[key] = value
    return pairs


def _limits(allow_private: bool) -> Any:
    from .fetching import Limits

    return Limits(allow_private=allow_private)


def _csv(values: list[str] | None) -> frozenset[str] | None:
    if values is None:
        return None
    return frozenset(part.strip() for value in values for part in value.split(",") if part.strip())


@app.command("resolve")
def resolve_command(
    ctx: typer.Context,
    what: Annotated[str | None, typer.Argument(help="A capability id (ID, ID@VERSION, ID@RANGE) or a need in words.")] = None,
    need: Annotated[bool, typer.Option("--need", help="Read the argument as a need even if it looks like an id.")] = False,
    set_file: Annotated[Path | None, typer.Option("--set", help="Resolve every id or need in FILE (text or JSON) "
                                                                "into a lock set.")] = None,
    out: Annotated[Path | None, typer.Option("--out", help="Write the lock (set) here; default: standard output.")] = None,
    index: Index = None, index_url: IndexUrl = None,
    base_url: Annotated[str | None, typer.Option("--base-url", envvar="CAPINDEX_BASE_URL",
                                                 help="The URL the store is published at (publish's --base-url).")] = None,
    shard_size: ShardSize = DEFAULT_SHARD_SIZE, index_generated_at: IndexGeneratedAt = None, metadata: Metadata = None,
    effects_ceiling: Annotated[list[str] | None, typer.Option(
        "--effects-ceiling", help="Allowed effects, comma-separated or repeated ('' for none).")] = None,
    allow_opaque: Annotated[bool, typer.Option("--allow-opaque", help="Let opaque effects through the ceiling.")] = False,
    substrate: Annotated[list[str] | None, typer.Option("--substrate", help="Only these substrates (native, npm, ...).")] = None,
    executable_only: Annotated[bool, typer.Option("--executable-only", help="Only executable results.")] = False,
    min_confidence: Annotated[float, typer.Option("--min-confidence", help="Lowest confidence, 0 to 1.")] = 0.0,
    allow_private: AllowPrivate = False,
) -> None:
    """Lock an exact capability version in an exact package version (newest capability version,
    then newest package version containing it), with the index's URL and digest."""
    from index.locks import make_lock, make_lock_set, resolve_set, write_document
    from index.resolve import Filters, parse_request, resolve

    settings: Settings = ctx.obj
    if (what is None) == (set_file is None):
        raise typer.BadParameter("give one ID|NEED, or --set FILE")
    if need and set_file is not None:
        raise typer.BadParameter("--need applies to a single ID|NEED, not to --set")
    filters = Filters(effects_ceiling=_csv(effects_ceiling), allow_opaque=allow_opaque, substrates=_csv(substrate),
                      executable_only=executable_only, min_confidence=min_confidence
                      ).check(lambda name: {"substrates": "--substrate"}.get(name, "--" + name.replace("_", "-")))
    request = parse_request(what, force_need=need) if what is not None else None
    with _open_source(settings, index, index_url, base_url, shard_size, index_generated_at, metadata,
                      allow_private) as source:
        if request is not None:
            resolution = resolve(source, request, filters)
            doc = make_lock(resolution.selection, source)
            payload = {"out": str(out) if out else None, "lock": doc, "search": resolution.search}
            summary = f"locked {resolution.selection.label}"
        else:
            resolutions, problems = resolve_set(source, set_file, filters)
            if problems:
                emit(settings, {"out": None, "resolved": False, "errors": problems}, "")
                if not settings.json:
                    for problem in problems:
                        typer.echo(f"capindex: error: {problem}", err=True)
                    typer.echo(f"capindex: {len(problems)} entries of {set_file} did not resolve; nothing written",
                               err=True)
                raise typer.Exit(1)
            doc = make_lock_set([make_lock(r.selection, source) for r in resolutions])
            payload = {"out": str(out) if out else None, "lock_set": doc,
                       "entries": [{"request": r.request.text, "search": r.search} for r in resolutions]}
            summary = f"locked {len(resolutions)} capabilities: " + ", ".join(r.selection.label for r in resolutions)
        summary += f" from {source.url} (index digest {source.digest[:12]})"
    if out is not None:
        write_document(out, doc)
        emit(settings, payload, f"{summary} -> {out}")
    elif settings.json:
        emit(settings, payload, "")
    else:
        from index.locks import document_text

        typer.echo(document_text(doc), nl=False)


def _open_source(settings: Settings, index: str | None, index_url: str | None, base_url: str | None,
                 shard_size: int, generated_at: str | None, metadata: list[str] | None, allow_private: bool) -> Any:
    from index.resolve import ResolveError, document_source, store_source

    if index is not None:  # --base-url (perhaps from $CAPINDEX_BASE_URL) names the store's publication: unused
        return document_source(index, index_url, _limits(allow_private))
    if index_url is not None:
        raise typer.BadParameter("--index-url goes with --index FILE; the store's URL comes from --base-url")
    if not base_url:
        raise ResolveError("resolving from the store needs --base-url URL (where `capindex publish` serves it), "
                           "or give --index URL|FILE")
    store = settings.store()
    try:
        source = store_source(store, base_url, shard_size=shard_size, generated_at=generated_at,
                              metadata=_metadata(metadata))
    except BaseException:
        store.close()
        raise
    source.owned = True
    return source


@lock_app.command("verify")
def verify_command(
    ctx: typer.Context,
    lock_file: Annotated[Path, typer.Argument(help="A lockfile (lockVersion 1) or a capindex lock set.")],
    index: Index = None, index_url: IndexUrl = None,
    shard_size: ShardSize = DEFAULT_SHARD_SIZE, index_generated_at: IndexGeneratedAt = None, metadata: Metadata = None,
    allow_private: AllowPrivate = False,
) -> None:
    """Re-resolve a lock (or each lock of a set) against the current index and report drift:
    package gone, capability gone, integrity changed, index digest changed. Exit 0 only when
    nothing drifted."""
    from index.locks import load_lock_file, lock_entries, published_base_url, verify_document
    from index.resolve import document_source, is_url, store_source

    settings: Settings = ctx.obj
    where = str(lock_file)
    kind, doc = load_lock_file(lock_file)
    entries = lock_entries(kind, doc)
    sources: dict[str, Any] = {}
    store = None
    try:
        if index is not None:
            if entries:
                url = index_url or (index if is_url(index) else entries[0][1]["index"]["url"])
                sources[""] = document_source(index, url, _limits(allow_private))

            def source_for(url: str) -> Any:
                return sources[""]
        else:
            if index_url is not None:
                raise typer.BadParameter("--index-url goes with --index FILE")
            pairs = _metadata(metadata)

            def source_for(url: str) -> Any:
                nonlocal store
                if url not in sources:
                    base = published_base_url(url, where)
                    if store is None:
                        store = settings.store()
                    sources[url] = store_source(store, base, shard_size=shard_size, generated_at=index_generated_at,
                                                metadata=pairs)
                return sources[url]

        report = verify_document(where, kind, doc, source_for)
    finally:
        for source in sources.values():
            source.close()
        if store is not None:
            store.close()
    lines = []
    for entry in report.entries:
        head = f"{where}{'' if entry.position == '$' else ' ' + entry.position}: {entry.capability} in {entry.package}"
        lines.append(f"{head}: {'DRIFTED' if entry.drift else 'ok'}")
        lines += [f"  drift {f.kind}: {f.detail}" for f in entry.drift]
        lines += [f"  info  {f.kind}: {f.detail}" for f in entry.info]
    if not report.entries:
        lines.append(f"{where}: an empty lock set, nothing to verify")
    emit(settings, report.as_dict(), "\n".join(lines))
    if report.drifted:
        raise typer.Exit(1)
