"""The `capindex` command line: a few lines per command over the library."""

from __future__ import annotations

import json
import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from index.publish import DEFAULT_SHARD_SIZE, PublishError, publish
from index.store import Store, StoreError
from schemas.documents import DocumentError, load_document
from schemas.models import DOCUMENT_MODELS

from .http import FetchError
from .ingest import IngestFailure, expand_locations, ingest_locations
from .progress import Progress

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
        typer.echo(json.dumps(payload, indent=2, ensure_ascii=False))
    elif human:
        typer.echo(human)


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
) -> None:
    """Validate capability index and site documents and store them, one transaction each."""
    settings: Settings = ctx.obj
    todo = list(expand_locations(locations))
    with settings.store() as store, Progress("ingest", len(todo), enabled=not settings.json) as bar:
        def report(outcome):
            bar.advance(failed=isinstance(outcome, IngestFailure))
            if isinstance(outcome, IngestFailure):
                bar.echo(f"capindex: error: {outcome.location}: {outcome.error}", err=True)
            elif not settings.json:
                bar.echo(_describe(outcome))

        results, failures = ingest_locations(store, todo, report)
    emit(settings, {"ingested": [r.as_dict() for r in results], "failed": [f.as_dict() for f in failures]}, "")
    if failures:
        if not settings.json:
            typer.echo(f"capindex: {len(failures)} of {len(todo)} documents failed", err=True)
        raise typer.Exit(1)


def _describe(r) -> str:
    if r.status == "unchanged":
        return f"unchanged {r.kind} {r.url}"
    text = f"stored {r.kind} {r.url}"
    if r.kind == "index":
        text += f": {r.packages} packages ({r.new_packages} new), {r.new_capabilities} new capabilities"
        if r.conflicts:
            text += f", {len(r.conflicts)} conflicts ({', '.join(r.conflicts[:5])})"
    return text


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
    kind: Annotated[str, typer.Argument(help="One of: " + ", ".join(DOCUMENT_MODELS))],
    file: Annotated[Path, typer.Argument(help="The document to check ('-' for standard input).")],
) -> None:
    """Check one document against its format's rules; every problem is printed with its JSON path."""
    settings: Settings = ctx.obj
    if kind not in DOCUMENT_MODELS:
        raise typer.BadParameter(f"{kind!r} is not one of {', '.join(DOCUMENT_MODELS)}", param_hint="KIND")
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
USER_ERRORS = (DocumentError, StoreError, PublishError, FetchError, sqlite3.DatabaseError)


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


if __name__ == "__main__":
    entry_point()
