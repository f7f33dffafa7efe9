"""The crawler's worker process: fetches and parses documents on the second core.

The crawler's own process keeps the frontier and the store (one writer, SQLite); this worker
does the rest of a document's work: the HTTP exchange through the one guarded client, and
parsing, validation and canonical JSON of what came back. Each side then has about half of the
CPU a document costs, and neither pays for threads (a writer or executor thread in the
crawler's process cost it about half a millisecond of GIL hand-offs per document). worker.py
is the crawler's side.

The worker spends its first 0.15 s loading asyncio, the HTTP stack and the validation models.
The console script forks it before loading anything else (see launch.py), so that happens
while the CLI loads: this module imports only what the fork needs.
"""

from __future__ import annotations

import multiprocessing
import os
import socket
import struct
import sys
import time
from typing import Any

FRAME = struct.Struct("!QI")  # request id, payload length; then the pickled payload


def spawn() -> tuple[Any, socket.socket]:
    """Fork the worker; its process and the crawler's end of the socket pair."""
    ours, theirs = socket.socketpair()
    ctx = multiprocessing.get_context("fork")
    process = ctx.Process(target=_serve, args=(theirs, ours, os.getpid()), daemon=True, name="capindex-worker")
    process.start()
    theirs.close()
    return process, ours


# -- in the worker ---------------------------------------------------------------------------------


def _serve(sock: socket.socket, theirs: socket.socket, parent_pid: int) -> None:
    import asyncio

    from index.workers import die_with_parent, warm_up

    die_with_parent(parent_pid)
    theirs.close()  # the fork copied the crawler's end too: keep only ours, so its close reaches us as EOF
    warm_up()  # the validation models and the HTTP stack load now, while the crawler starts
    from .client import ssl_context

    ssl_context()

    asyncio.run(_serve_async(sock))


async def _serve_async(sock: socket.socket) -> None:
    import asyncio
    import pickle

    from .client import GuardedClient

    reader, writer = await asyncio.open_connection(sock=sock, limit=1 << 22)
    running: set[asyncio.Task[None]] = set()
    try:
        _, length = FRAME.unpack(await reader.readexactly(FRAME.size))
        limits = pickle.loads(await reader.readexactly(length))
    except (asyncio.IncompleteReadError, ConnectionError):
        return  # started, never used
    async with GuardedClient(limits) as client:
        while True:
            try:
                request_id, length = FRAME.unpack(await reader.readexactly(FRAME.size))
                url, etag, last_modified, prepare = pickle.loads(await reader.readexactly(length))
            except (asyncio.IncompleteReadError, ConnectionError):
                break  # the crawler closed its end (or died)
            task = asyncio.create_task(_answer(writer, request_id, client, url, etag, last_modified, prepare))
            running.add(task)
            task.add_done_callback(running.discard)
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)


async def _answer(writer: Any, request_id: int, client: Any, url: str, etag: str | None,
                  last_modified: str | None, prepare: str | None) -> None:
    import pickle

    from .fetching import FetchFailure

    try:
        answer = await _fetch_and_prepare(client, url, etag, last_modified, prepare)
    except FetchFailure as exc:
        answer = ("failure", str(exc))
    except Exception as exc:  # noqa: BLE001 - a bug of ours: reported, and the crawler stops cleanly
        answer = ("crash", f"{exc.__class__.__name__}: {exc}")
    # with the worker's CPU seconds so far: the crawler balances the parsing by them
    payload = pickle.dumps((time.process_time(), answer), protocol=pickle.HIGHEST_PROTOCOL)
    writer.write(FRAME.pack(request_id, len(payload)) + payload)
    await writer.drain()


async def _fetch_and_prepare(client: Any, url: str, etag: str | None, last_modified: str | None,
                             prepare: str | None) -> tuple[Any, ...]:
    """`prepare`: the kind of document expected ("index" or "site"), or None to leave parsing to the writer."""
    from index.workers import PARALLEL_FROM_BYTES, prepare_document
    from schemas.errors import DocumentError

    response = await client.fetch(url, etag, last_modified)
    meta = (response.url, response.status, response.etag, response.last_modified, response.fresh_for)
    if response.body is None:  # 304
        return ("ok", meta, None, None)
    with response.body:
        raw = response.body.read()
    prepared: Any = None
    if prepare and len(raw) < PARALLEL_FROM_BYTES:  # bigger ones stream better in the writer (with their helper)
        try:
            prepared = prepare_document(raw, url, prepare)
        except DocumentError as exc:
            prepared = exc  # recorded by the writer, like any other invalid document
    return ("ok", meta, raw, prepared)



_early: tuple[Any, socket.socket] | None = None


def start_early() -> None:
    """Fork a worker now, for a crawl this process is about to run (see launch.py)."""
    global _early
    if _early is None and worker_wanted():
        _early = spawn()


def take_early() -> tuple[Any, socket.socket] | None:
    """The worker start_early() forked, handed over once; None if there is none."""
    global _early
    early, _early = _early, None
    return early


def worker_wanted() -> bool:
    """A second core to work on, and fork() to start the worker with."""
    return (os.cpu_count() or 1) >= 2 and sys.platform == "linux"
