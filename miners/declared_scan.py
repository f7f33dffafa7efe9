"""Declared contracts in a repository or a single document: which reader recognises a file, what it
declares, and the candidates and problems that makes.

Readers are tried in a fixed order and the first that recognises a file reads it: a file is one
kind of document. While mining, JSON and YAML files outside vendored, test and example folders are
offered to every reader, those in docs/ to the OpenAPI reader only (a service documents its
API there; any other declaration there is an example of one), and JS/TS sources that call `defineCapabilities` to the app reader; a
file nobody recognises is just data. A reader never raises: what it cannot read is a problem with
its file and line or JSON path, and the rest of the repository is still mined.
"""

from __future__ import annotations

import hashlib
import importlib
import posixpath
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from . import doc_lines
from .declared import Imported, Problem, candidate, sha256
from .formats import READERS

APP_MARK = b"defineCapabilities"
APP_ID_MARK = b"defineApp"


def reader(fmt: str) -> ModuleType:
    if fmt not in READERS:
        raise ValueError(f"unknown format {fmt!r} (known: {', '.join(READERS)})")
    return importlib.import_module(f"miners.{READERS[fmt]}")


def recognise(path: str, data: bytes) -> str | None:
    """The format of the first reader that recognises the file, or None."""
    for fmt in READERS:
        if reader(fmt).sniff(path, data):
            return fmt
    return None


def read_declaration(path: str, data: bytes, fmt: str | None = None, **options: Any) -> tuple[str | None, Imported]:
    """(format, what the file declares). With `fmt`, that reader reads it whether it sniffs it or
    not (its problems then say why it is not that format). `options` go to the reader (the app
    reader's `app_id`)."""
    fmt = fmt or recognise(path, data)
    if fmt is None:
        return None, Imported()
    try:
        return fmt, reader(fmt).read(path, data, **options)
    except RecursionError:
        return fmt, Imported(problems=[Problem(path, "line 1", "nested too deeply to read")])
    except Exception as exc:  # noqa: BLE001 - readers report bad input themselves; this is the backstop
        return fmt, Imported(problems=[Problem(path, "line 1", f"could not be read ({exc.__class__.__name__}: "
                                                               f"{str(exc)[:200]})")])


@dataclass
class Scan:
    files: list[dict[str, Any]] = field(default_factory=list)  # {path, format, operations, source_digest}
    imported: list[tuple[str, Imported]] = field(default_factory=list)  # (format, what one file declared)
    servers: dict[str, dict[str, Any]] = field(default_factory=dict)  # folder -> MCP registry server.json info
    problems: list[dict[str, Any]] = field(default_factory=list)  # {path, format, where, reason}

    def add(self, path: str, fmt: str, imported: Imported) -> None:
        self.imported.append((fmt, imported))
        digest = next((d.source_digest for d in imported.operations), None)
        self.files.append({"path": path, "format": fmt, "operations": len(imported.operations),
                           **({"source_digest": digest} if digest else {})})
        self.problems += [{"path": p.path, "format": fmt, "where": p.where, "reason": p.reason}
                          for p in imported.problems]

    def report(self) -> dict[str, Any]:
        return {"files": sorted(self.files, key=lambda f: f["path"]),
                "problems": sorted(self.problems, key=lambda p: (p["path"], p["where"]))}


def scan_file(scan: Scan, path: str, data: bytes, fmt: str | None = None, **options: Any) -> None:
    if fmt in (None, "mcp") and posixpath.basename(path) == "server.json":
        info = reader("mcp").server_info(path, data)
        if info is not None:
            scan.servers[posixpath.dirname(path)] = info
    found, imported = read_declaration(path, data, fmt, **options)
    if found is not None and (imported.operations or imported.problems):
        _bytes_digests(path, data, imported)
        scan.add(path, found, imported)


def scan_api_document(scan: Scan, path: str, data: bytes) -> None:
    """A data file in docs/: read only when it is an OpenAPI (or Swagger) document."""
    if reader("openapi").sniff(path, data):
        scan_file(scan, path, data, "openapi")


def _bytes_digests(path: str, data: bytes, imported: Imported) -> None:
    """Each declaration's digest over its exact bytes in the file: a reader's own digest may be of
    the declaration's meaning (canonical JSON, refs resolved); this one moves with its text."""
    spans = None
    for d in imported.operations:
        if d.digest_of == "bytes":
            d.bytes_digest = d.declaration_digest
            continue
        if spans is None:
            spans = doc_lines.spans(path, data) if doc_lines.DATA_FILE.search(path) else {}
        if d.pointer in spans:
            d.bytes_digest = sha256(spans[d.pointer])


def scan_app_sources(scan: Scan, sources: dict[str, bytes]) -> None:
    """The sources that call defineCapabilities, read by the app reader. An app's id is often
    declared in another file (the seed keeps `defineApp({ id })` in src/config.ts): a file without
    its own takes the one app id the repository declares, when there is exactly one."""
    app = reader("app")
    ids = {app_id for path, data in sources.items() for app_id in app.app_ids(path, data)}
    only = next(iter(ids)) if len(ids) == 1 else None
    for path, data in sorted(sources.items()):
        if APP_MARK in data:
            own = app.app_ids(path, data)
            scan_file(scan, path, data, "app", app_id=None if own or only is None else only)


def candidates(scan: Scan, repo_key: str, commit: str | None) -> list[dict[str, Any]]:
    """Report candidates of every declared operation; MCP tools carry the server.json of their
    folder (or the nearest folder above) as metadata."""
    out = []
    for fmt, imported in scan.imported:
        for d in imported.operations:
            if fmt == "mcp" and scan.servers:
                server = _nearest(scan.servers, posixpath.dirname(d.path))
                if server is not None:
                    d.metadata = {**d.metadata, "server": server}
                    d.namespace = d.namespace or str(server.get("name") or "")
            out.append(candidate(d, repo_key, commit))
    # (a document that uses one operationId twice, a problem it is reported with, still declares two
    # operations: the second's id takes its pointer too, so that storing one does not replace the other)
    seen: set[str] = set()
    for c in out:
        if c["id"] in seen:
            where = c["declared"].get("pointer") or str(c["source"]["line"])
            c["id"] = "cand-" + hashlib.sha256(f"{c['id']}\0{where}".encode()).hexdigest()[:20]
        seen.add(c["id"])
    return out


def _nearest(servers: dict[str, dict[str, Any]], folder: str) -> dict[str, Any] | None:
    while True:
        if folder in servers:
            return servers[folder]
        if not folder:
            return None
        folder = posixpath.dirname(folder)
