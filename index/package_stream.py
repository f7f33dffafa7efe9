"""An index's packages as write-ready batches: validated, canonicalised, flattened to rows.

This is the CPU-heavy half of ingestion (JSON scanning, validation, canonical JSON). For a
big document it runs in a forked helper process that streams batches back over a pipe,
so it overlaps with the SQLite writes of the other half on a second core.
"""

from __future__ import annotations

import gc
import hashlib
import multiprocessing
import os
import sys
from collections.abc import Iterator
from typing import IO, Any

from schemas.documents import detect_kind, package_problems, validate
from schemas.ecma import iso_utc, parse_date_time
from schemas.errors import DocumentError
from schemas.stream import object_events, stream_object

from .canonical import canonical_json, sha256_hex, storable_text
from .prepared import Judged, Prepared, PreparedDocument
from .sources import kind_problem
from .workers import PARALLEL_FROM_BYTES, die_with_parent

BATCH = 1000  # packages per batch
MAX_PROBLEMS = 50


def prepare_package(package: dict[str, Any]) -> Prepared:
    entry = canonical_json(package)
    capabilities = []
    for position, cap in enumerate(package["capabilities"]):
        m = cap["manifest"]
        # validated effects are plain identifiers: no JSON escaping needed; a manifest that declares
        # no effects at all says nothing of them, which is not "none" (search treats it as opaque)
        effects = '["' + '","'.join(m["effects"]) + '"]' if m.get("effects") else ("[]" if "effects" in m else "null")
        capabilities.append((
            position, m["id"], m["version"], m["name"], m["description"], " ".join(m.get("tags") or ()), effects,
            cap["module"], cap.get("integrity"),
        ))
    prepared = (
        (package["name"], package["version"]), sha256_hex(entry), entry, package["source"],
        package.get("repository"), package.get("integrity"), capabilities,
    )
    # JSON may carry lone surrogates (as \udxxx escapes); SQLite text columns may not
    return _storable(prepared) if "\\ud" in entry else prepared


def _storable(prepared: Prepared) -> Prepared:
    """The free-text fields with lone surrogates replaced (ids, versions and effects are validated
    patterns, which exclude them)."""
    (name, version), digest, entry, source, repository, integrity, capabilities = prepared
    t = storable_text
    return (
        (t(name), t(version)), digest, entry, t(source), t(repository), t(integrity),
        [(pos, cid, cver, t(cname), t(desc), t(tags), effects, t(module), t(cint))
         for pos, cid, cver, cname, desc, tags, effects, module, cint in capabilities],
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


def judge(members: dict[str, Any], problems: list[str], where: str, expect: str | None = None) -> Judged:
    """Validate a document's other members, given its packages' problems; DocumentError if it
    cannot be ingested (where `expect`, "index" or "site", is wanted)."""
    kind = detect_kind(members)
    wrong_kind = kind_problem(kind, expect)
    if wrong_kind:
        raise DocumentError(where, [wrong_kind])
    if kind == "index" and problems:
        raise DocumentError(where, problems)
    model = validate(kind, members, where)
    if kind == "index":
        return Judged(kind, iso_utc(parse_date_time(model.generatedAt)), list(model.federates or []))
    return Judged(kind, None, list(model.indexes))


def _last_restart(events: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """A repeated "packages" key: JSON keeps the last, so only what follows the last restart counts."""
    restarts = [i for i, (event, _) in enumerate(events) if event == "restart"]
    return events[restarts[-1] + 1:] if restarts else events


def prepare_document(raw: bytes, where: str, expect: str | None = None) -> PreparedDocument:
    """prepare() and judge() over a whole small document held in memory; DocumentError if invalid."""
    gc.disable()  # parsed JSON holds no cycles; the worker only ever does this
    events = _last_restart(list(prepare(object_events(raw, where, "packages"))))
    members, count, problems = events[-1][1]
    judged = judge(members, problems, where, expect)
    batches = [value for event, value in events if event == "batch"]
    return PreparedDocument(hashlib.sha256(raw).hexdigest(), len(raw), batches, count, judged)


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
