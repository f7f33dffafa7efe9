"""`capindex import FILE|URL`: the declared operations of one document (a Capability manifest or
package.json, OpenAPI, an MCP tool listing, AIP contracts, app capability declarations or their
catalog, an ampersand contract), read statically, stored as candidates, never run.

A few lines over `import_document`, which anyone can call with the bytes in hand.
"""

from __future__ import annotations

import posixpath
from typing import Annotated, Any
from urllib.parse import urlsplit

import typer

from indexer.cli import AllowNetwork, AllowPrivate, MaxBytes, Settings, Timeout, app, emit
from schemas.ecma import utc_now
from schemas.errors import CapindexError

from .formats import READERS  # (the readers themselves load only when the command runs)


class ImportFailure(CapindexError):
    pass


def _reading_name(location: str, data: bytes) -> str:
    """The name readers see: the location, or for a URL without a telling extension (an app's
    `/api/capabilities/v1/catalog`) its last segment plus the extension its content shows."""
    if urlsplit(location).scheme not in ("http", "https"):
        return location
    name = posixpath.basename(urlsplit(location).path) or "document"
    if name.lower().endswith((".json", ".yaml", ".yml", ".ts", ".tsx", ".js", ".mjs", ".mts")):
        return name
    return name + (".json" if data.lstrip()[:1] in (b"{", b"[") else ".yaml")


def import_document(location: str, data: bytes, fmt: str | None = None) -> dict[str, Any]:
    """{source, candidates, problems} of one document. Raises ImportFailure when no reader
    recognises it (and no format was given)."""
    from .declared import sha256
    from .declared_scan import Scan, candidates, scan_file

    if fmt is not None and fmt not in READERS:
        raise ImportFailure(f"--format {fmt}: unknown (known: {', '.join(READERS)})")
    name = _reading_name(location, data)
    scan = Scan()
    scan_file(scan, name, data, fmt)
    if not scan.files:
        raise ImportFailure(f"{location}: no reader recognises this document as any of {', '.join(READERS)} "
                            "(give --format to read it as one)")
    found = scan.files[0]["format"]
    for _, imported in scan.imported:  # what the readers saw as `name` is the location the user gave
        for d in imported.operations:
            d.path = location
    problems = [{**p, "path": location} for p in scan.problems]
    return {"generated_at": utc_now(),
            "source": {"location": location, "format": found, "digest": sha256(data), "bytes": len(data)},
            "candidates": candidates(scan, location, None), "problems": problems}


@app.command("import")
def import_(
    ctx: typer.Context,
    location: Annotated[str, typer.Argument(help="A file or an http(s) URL.")],
    fmt: Annotated[str | None, typer.Option("--format", help=f"Read as this format: {', '.join(READERS)}.")] = None,
    allow_private: AllowPrivate = False, allow_network: AllowNetwork = None,
    timeout: Timeout = 60.0, max_bytes: MaxBytes = 32 * 1024 * 1024,
) -> None:
    """Declared operations of one document, stored as candidates (provenance declared, never executable).
    Exits 1 when the document has problems (each printed as path: where: reason); what it declares
    validly is still stored."""
    from index import registry
    from indexer.fetching import read_location
    from indexer.registry_cli import _limits
    from schemas.documents import validate

    settings: Settings = ctx.obj
    data = read_location(location, _limits(allow_private, timeout, max_bytes, allow_network))
    report = import_document(location, data, fmt)
    for cand in report["candidates"]:
        validate("candidate", cand, f"{location}: {cand['name']}")
    source = report["source"]
    with settings.store() as store:  # one transaction: the document's operations are stored together
        registry.record_candidates(store, f"declared:{source['format']}", location, source["digest"],
                                   ((c["kind"], c["id"], c) for c in report["candidates"]))
    lines = [f"{location}: {source['format']}, {len(report['candidates'])} declared operations"
             + (f", {len(report['problems'])} problems" if report["problems"] else "")]
    lines += [f"  {c['declared']['capability_id']:<48} {c['name']}" for c in report["candidates"][:200]]
    emit(settings, report, "\n".join(lines))
    for p in report["problems"]:
        typer.echo(f"capindex: {p['path']}: {p['where']}: {p['reason']}", err=True)
    if report["problems"]:
        raise typer.Exit(1)
