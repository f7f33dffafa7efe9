"""The `capindex` command line: a few lines per command over the library."""

from __future__ import annotations

import json
import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from index.canonical import pretty_json_bytes
from index.store import Store
from schemas import SCHEMA_FILES
from schemas.errors import CapindexError, DocumentError

from .fetching import FetchError, Limits
from .progress import CrawlProgress, Progress
from .urls import UrlError, normalize_url

# Commands import what they use when they run: start-up stays small (a re-crawl of fresh
# documents never needs the validation models or the HTTP stack).
DOCUMENT_KINDS = list(SCHEMA_FILES)
DEFAULT_SHARD_SIZE = 5000  # index.publish.DEFAULT_SHARD_SIZE; a test keeps the two equal

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Discovery indexer for the Capability 1.x ecosystem.",
)


@dataclass
class Settings:
    db: Path
    json: bool

    def store(self) -> Store:
        return Store(self.db)


def emit(settings: Settings, payload: dict[str, Any], human: str) -> None:
    if settings.json:
        write_json(payload)
    elif human:
        typer.echo(human)


def write_json(payload: Any) -> None:
    """`payload` as indented JSON on stdout, written as bytes when stdout has a byte buffer."""
    data = pretty_json_bytes(payload) + b"\n"
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:
        typer.echo(data.decode("utf-8"), nl=False)
        return
    sys.stdout.flush()  # what was written as text comes first
    buffer.write(data)
    buffer.flush()


@app.callback()
def root(
    ctx: typer.Context,
    db: Annotated[Path, typer.Option("--db", envvar="CAPINDEX_DB", help="SQLite store.")] = Path("capindex.db"),
    json_output: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    ctx.obj = Settings(db=db, json=json_output)


@app.command()
def ingest(
    ctx: typer.Context,
    locations: Annotated[list[str], typer.Argument(help="Index or site documents: files, directories, http(s) URLs.")],
    accept_rollback: AcceptRollback = False,
    allow_private: AllowPrivate = False,
) -> None:
    """Validate capability index and site documents and store them, one transaction each."""
    from .ingest import IngestFailure, expand_locations, ingest_locations

    settings: Settings = ctx.obj
    todo = list(expand_locations(locations))
    with settings.store() as store, Progress("ingest", len(todo), enabled=not settings.json) as bar:
        def report(outcome):
            bar.advance(failed=isinstance(outcome, IngestFailure))
            if isinstance(outcome, IngestFailure):
                bar.echo(f"capindex: error: {outcome.location}: {outcome.error}", err=True)
            elif not settings.json:
                bar.echo(_describe(outcome))

        results, failures = ingest_locations(store, todo, report, accept_rollback,
                                             Limits(allow_private=allow_private))
    emit(settings, {"ingested": [r.as_dict() for r in results], "failed": [f.as_dict() for f in failures]}, "")
    if failures:
        if not settings.json:
            typer.echo(f"capindex: {len(failures)} of {len(todo)} documents failed", err=True)
        raise typer.Exit(1)


def _describe(r) -> str:
    if r.status == "unchanged":
        return f"unchanged {r.kind} {r.url}"
    text = f"stored {r.kind} {r.url}"
    if r.flags:
        text += f" (kept the earlier state of: {'; '.join(r.flags[:5])})"
    if r.kind == "index":
        text += f": {r.packages} packages ({r.new_packages} new), {r.new_capabilities} new capabilities"
        if r.conflicts:
            text += f", {len(r.conflicts)} conflicts ({', '.join(r.conflicts[:5])})"
    return text


crawl_app = typer.Typer(no_args_is_help=True, help="Walk capability indexes and sites into the store.")
app.add_typer(crawl_app, name="crawl")

MaxDepth = Annotated[int, typer.Option("--max-depth", min=0, help="Federation hops to follow from a root.")]
MaxIndexes = Annotated[int, typer.Option("--max-indexes", min=1, help="Documents to fetch at most.")]
FromFile = Annotated[Path | None, typer.Option("--from", help="Read more roots from FILE, one per line.")]
AllowPrivate = Annotated[bool, typer.Option("--allow-private", help="Allow loopback and private addresses.")]
AllowNetwork = Annotated[list[str] | None, typer.Option("--allow-network", help="Allow this CIDR (repeatable), e.g. a mirror.")]
AcceptRollback = Annotated[bool, typer.Option("--accept-rollback", help="Apply older or changed documents this once.")]
Revalidate = Annotated[bool, typer.Option("--revalidate", help="Ask servers again even while their answers are fresh.")]
Concurrency = Annotated[int, typer.Option("--concurrency", min=1, help="Fetches at once.")]
PerHost = Annotated[int, typer.Option("--per-host", min=1, help="Fetches at once per host.")]
Timeout = Annotated[float, typer.Option("--timeout", min=0.1, help="Seconds for one whole fetch.")]
MaxBytes = Annotated[int, typer.Option("--max-bytes", min=1, help="Largest document accepted.")]


def _roots(given: list[str] | None, from_file: Path | None) -> list[str]:
    roots = list(given or [])
    if from_file is not None:
        try:
            lines = from_file.read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise FetchError(f"{from_file}: cannot read ({exc.strerror or exc})") from None
        roots += [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]
    if not roots:
        raise typer.BadParameter("give at least one URL, or --from FILE")
    return roots


def _run_crawl(settings: Settings, indexes: list[str], sites: list[str], max_depth: int, max_indexes: int,
               allow_private: bool, allow_network: list[str] | None, accept_rollback: bool, revalidate: bool,
               concurrency: int, per_host: int, timeout: float, max_bytes: int) -> None:
    import ipaddress

    for cidr in allow_network or []:
        try:
            ipaddress.ip_network(cidr, strict=False)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--allow-network") from None
    for url in [*indexes, *sites]:
        try:
            normalize_url(url)
        except UrlError as exc:
            raise typer.BadParameter(str(exc)) from None
    from .crawl import CrawlOptions, crawl

    limits = Limits(concurrency=concurrency, per_host=per_host, total_timeout=timeout, max_bytes=max_bytes,
                    allow_private=allow_private, allowed_networks=tuple(allow_network or ()))
    options = CrawlOptions(max_depth=max_depth, max_indexes=max_indexes, accept_rollback=accept_rollback,
                           revalidate=revalidate, limits=limits)
    with CrawlProgress(enabled=not settings.json) as progress:
        summary = crawl(settings.db, indexes, sites, options, on_progress=progress.update)
    payload = summary.as_dict()
    lines = [
        f"crawl {summary.crawl_id}{' (resumed)' if summary.resumed else ''}: {summary.documents} documents in "
        f"{summary.seconds:.1f} s; " + ", ".join(f"{n} {k}" for k, n in sorted(summary.outcomes.items())),
    ]
    lines += [f"  failed  {f['url']}: {f['error']}" for f in summary.failures]
    lines += [f"  flagged {flag}" for flag in summary.flags]
    lines += [f"  conflict {c}" for c in summary.conflicts]
    emit(settings, payload, "\n".join(lines))
    if summary.failures:
        raise typer.Exit(1)


@crawl_app.command("federation")
def crawl_federation(
    ctx: typer.Context,
    urls: Annotated[list[str] | None, typer.Argument(help="Index URLs to start from.")] = None,
    from_file: FromFile = None, max_depth: MaxDepth = 4, max_indexes: MaxIndexes = 1000,
    allow_private: AllowPrivate = False, allow_network: AllowNetwork = None,
    accept_rollback: AcceptRollback = False, revalidate: Revalidate = False,
    concurrency: Concurrency = 32, per_host: PerHost = 4, timeout: Timeout = 60.0,
    max_bytes: MaxBytes = 32 * 1024 * 1024,
) -> None:
    """Fetch index documents and everything they federate to, validated, into the store."""
    _run_crawl(ctx.obj, _roots(urls, from_file), [], max_depth, max_indexes, allow_private, allow_network,
               accept_rollback, revalidate, concurrency, per_host, timeout, max_bytes)


@crawl_app.command("site")
def crawl_site(
    ctx: typer.Context,
    origins: Annotated[list[str] | None, typer.Argument(help="Site origins, e.g. https://example.org.")] = None,
    from_file: FromFile = None, max_depth: MaxDepth = 4, max_indexes: MaxIndexes = 1000,
    allow_private: AllowPrivate = False, allow_network: AllowNetwork = None,
    accept_rollback: AcceptRollback = False, revalidate: Revalidate = False,
    concurrency: Concurrency = 32, per_host: PerHost = 4, timeout: Timeout = 60.0,
    max_bytes: MaxBytes = 32 * 1024 * 1024,
) -> None:
    """Read each site's /.well-known/capabilities and crawl the indexes it names."""
    _run_crawl(ctx.obj, [], _roots(origins, from_file), max_depth, max_indexes, allow_private, allow_network,
               accept_rollback, revalidate, concurrency, per_host, timeout, max_bytes)


@app.command("publish")
def publish_command(
    ctx: typer.Context,
    outdir: Annotated[Path, typer.Argument(help="Directory to write index.json and .well-known/ into.")],
    base_url: Annotated[str, typer.Option("--base-url", help="Public URL OUTDIR will be served at.")],
    shard_size: Annotated[int, typer.Option("--shard-size", help="Packages per index file.")] = DEFAULT_SHARD_SIZE,
    generated_at: Annotated[
        str | None, typer.Option("--generated-at", help="RFC 3339 time; default: newest source.")
    ] = None,
    metadata: Annotated[list[str] | None, typer.Option("--metadata", help="KEY=VALUE for the root index.")] = None,
) -> None:
    """Write a static Capability index (sharded past --shard-size) and its site documents."""
    from index.publish import PublishError, publish

    settings: Settings = ctx.obj
    pairs = {}
    for item in metadata or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise PublishError(f"--metadata {item!r}: expected KEY=VALUE")
        pairs[key] = value
    with settings.store() as store:
        result = publish(store, outdir, base_url, shard_size=shard_size, generated_at=generated_at, metadata=pairs)
    emit(
        settings,
        result.as_dict(),
        f"published {result.packages} packages, {result.capabilities} capabilities to {result.outdir} "
        f"({len(result.files)} files); index at {result.index_url}",
    )


@app.command("validate")
def validate_command(
    ctx: typer.Context,
    kind: Annotated[str, typer.Argument(help="One of: " + ", ".join(DOCUMENT_KINDS))],
    file: Annotated[Path, typer.Argument(help="The document to check ('-' for standard input).")],
) -> None:
    """Check one document against its format's rules; every problem is printed with its JSON path."""
    from schemas.documents import load_document

    settings: Settings = ctx.obj
    if kind not in DOCUMENT_KINDS:
        raise typer.BadParameter(f"{kind!r} is not one of {', '.join(DOCUMENT_KINDS)}", param_hint="KIND")
    where = str(file)
    try:
        raw = sys.stdin.buffer.read() if where == "-" else file.read_bytes()
    except OSError as exc:
        raise FetchError(f"{where}: cannot read ({exc.strerror or exc})") from None
    try:
        load_document(raw, where, kind)
    except DocumentError as exc:
        emit(settings, {"file": where, "kind": kind, "valid": False, "problems": exc.problems},
             "\n".join(f"{where}: {p}" for p in exc.problems))
        raise typer.Exit(1)
    emit(settings, {"file": where, "kind": kind, "valid": True, "problems": []}, f"{where}: valid {kind} document")


@app.command()
def stats(ctx: typer.Context) -> None:
    """Counts of what the store holds."""
    settings: Settings = ctx.obj
    with settings.store() as store:
        counts = store.counts()
        counts["schema_version"] = store.schema_version
    emit(settings, counts, "\n".join(f"{k:>18}  {v}" for k, v in counts.items()))


@app.command()
def conflicts(ctx: typer.Context) -> None:
    """Packages whose name@version arrived with different content, with both provenances."""
    settings: Settings = ctx.obj
    with settings.store() as store:
        found = store.conflicts()
    payload = {"conflicts": [
        {"package": f"{c.name}@{c.version}", "detected_at": c.detected_at,
         "established": _version(c.established), "other": _version(c.other)} for c in found
    ]}
    lines = []
    for c in found:
        lines.append(f"{c.name}@{c.version}: {c.established['digest'][:12]} first from {c.established['first_source']}, "
                     f"{c.other['digest'][:12]} from {c.other['first_source']} (detected {c.detected_at})")
    emit(settings, payload, "\n".join(lines) or "no conflicts")


def _version(row: dict[str, Any]) -> dict[str, Any]:
    return {"digest": row["digest"], "first_source": row["first_source"], "first_seen": row["first_seen"],
            "listed_by": row["listed_by"], "entry": json.loads(row["entry"])}


# Errors a user can cause and fix: one line, exit 1.
USER_ERRORS = (CapindexError, sqlite3.DatabaseError)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit code. Usage errors exit 2, bad input 1, never with a traceback."""
    try:
        app(args=argv, prog_name="capindex")  # standalone: usage errors print and raise SystemExit(2)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except USER_ERRORS as exc:
        typer.echo(f"capindex: error: {exc}", err=True)
        return 1
    except Exception as exc:  # a bug of ours: still one line, never a traceback
        typer.echo(f"capindex: internal error: {exc.__class__.__name__}: {exc}", err=True)
        return 1
    return 0


def entry_point() -> None:
    sys.exit(main())


if __name__ == "__main__":  # python -m indexer.cli: run the imported module, whose app has every command
    from indexer.launch import main as _main

    _main()


from miners import command as _mine_command  # noqa: E402,F401  (registers `mine`)
from miners import import_command as _import_command  # noqa: E402,F401  (registers `import`)

from . import registry_cli  # noqa: E402,F401  (registers the registry commands on `app`)
from . import lock_cli  # noqa: E402,F401  (registers `resolve` and `lock`)
from . import gap_cli  # noqa: E402,F401  (registers `gap`)
from . import search_cli  # noqa: E402,F401  (registers `search`)
