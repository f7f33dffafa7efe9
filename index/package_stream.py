"""An index's packages as write-ready batches: validated, canonicalised, flattened to rows.

This is the CPU-heavy half of ingestion (JSON scanning, validation, canonical JSON). For a
big document it runs in a forked helper process that streams batches back over a pipe,
so it overlaps with the SQLite writes of the other half on a second core.
"""

from __future__ import annotations

import gc
import hashlib
import io
import multiprocessing
import os
import sys
from collections.abc import Iterator
from typing import IO, Any, NamedTuple

from schemas.documents import package_problems
from schemas.errors import DocumentError
from schemas.stream import stream_object

from .canonical import canonical_json, sha256_hex, storable_text
from .workers import PARALLEL_FROM_BYTES, die_with_parent

BATCH = 1000  # packages per batch
MAX_PROBLEMS = 50

# One package ready to write: ((name, version), digest, entry, source, repository, integrity, capability rows)
# where a capability row is (position, id, version, name, description, tags, effects, module, integrity).
Prepared = tuple[tuple[str, str], str, str, str, Any, Any, list[tuple[Any, ...]]]


def _same(value: Any) -> Any:
    return value


def prepare_package(package: dict[str, Any]) -> Prepared:
    entry = canonical_json(package)
    # JSON may carry lone surrogates (as \udxxx escapes); SQLite text columns may not
    clean = storable_text if "\\ud" in entry else _same
    capabilities = []
    for position, cap in enumerate(package["capabilities"]):
        m = cap["manifest"]
        # validated effects are plain identifiers: no JSON escaping needed
        effects = '["' + '","'.join(m["effects"]) + '"]' if m.get("effects") else "[]"
        capabilities.append((
            position, m["id"], m["version"], clean(m["name"]), clean(m["description"]),
            clean(" ".join(m.get("tags") or ())), effects, clean(cap["module"]), clean(cap.get("integrity")),
        ))
    return (
        (clean(package["name"]), clean(package["version"])), sha256_hex(entry), entry, clean(package["source"]),
        clean(package.get("repository")), clean(package.get("integrity")), capabilities,
    )


def prepare(events: Iterator[tuple[str, Any]]) -> Iterator[tuple[str, Any]]:
    """('batch', [Prepared]) while packages are valid, ('restart', None) when "packages" repeats,
    then ('object', (members, package count, problems))."""
    batch: list[Prepared] = []
    problems: list[str] = []
    count = 0
    for event, value in events:
        if event == "item":
            index = count
            count += 1
            if problems:  # already invalid: only collect more problems
                if len(problems) < MAX_PROBLEMS:
                    problems += package_problems(index, value)
                continue
            problems = package_problems(index, value)
            if problems:
                batch = []
                continue
            batch.append(prepare_package(value))
            if len(batch) >= BATCH:
                yield "batch", batch
                batch = []
        elif event == "restart":
            batch, problems, count = [], [], 0
            yield "restart", None
        else:
            if batch:
                yield "batch", batch
            yield "object", (value, count, problems[:MAX_PROBLEMS])


class PreparedDocument(NamedTuple):
    """A whole document prepared in one go (picklable, for a worker process): its bytes' sha256 and
    size, so the writer need not hash them again, and prepare()'s events."""

    digest: str
    size: int
    events: list[tuple[str, Any]]


def prepare_document(raw: bytes, where: str) -> PreparedDocument:
    """prepare() over a whole small document held in memory."""
    gc.disable()  # parsed JSON holds no cycles; the worker only ever does this
    events = list(prepare(stream_object(io.BytesIO(raw), where, "packages")))
    return PreparedDocument(hashlib.sha256(raw).hexdigest(), len(raw), events)


def prepared_events(fp: IO[bytes], where: str, size: int) -> Iterator[tuple[str, Any]]:
    """prepare() over the document in `fp`, in a helper process when it is big and a core is free."""
    parallel = size >= PARALLEL_FROM_BYTES and (os.cpu_count() or 1) > 1 and sys.platform == "linux"
    if not parallel:
        yield from prepare(stream_object(fp, where, "packages"))
        return
    # fork: the child inherits fp and the imported modules; it never touches the store.
    ctx = multiprocessing.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_helper, args=(fp, where, send, receive, os.getpid()), daemon=True)
    child.start()
    send.close()
    try:
        while True:
            try:
                event, value = receive.recv()
            except EOFError:
                raise RuntimeError("the parsing helper process ended unexpectedly") from None
            if event == "error":
                raise DocumentError(*value)
            if event == "crash":
                raise RuntimeError(f"the parsing helper process failed: {value}")
            yield event, value
            if event == "object":
                return
    finally:
        receive.close()
        child.join(timeout=5)
        if child.is_alive():
            child.terminate()
            child.join()


def _helper(fp: IO[bytes], where: str, send: Any, receive: Any, parent_pid: int) -> None:
    receive.close()  # the parent's end: holding it would keep a dead parent's pipe open
    die_with_parent(parent_pid)
    gc.disable()  # parsed JSON holds no cycles
    try:
        for event in prepare(stream_object(fp, where, "packages")):
            send.send(event)
    except DocumentError as exc:
        send.send(("error", (exc.where, exc.problems)))
    except BaseException as exc:  # reported to the parent as one line
        send.send(("crash", f"{exc.__class__.__name__}: {exc}"))
    finally:
        send.close()
