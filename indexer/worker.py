"""The crawler's worker process: fetches and parses documents on the second core.

The crawler's own process keeps the frontier and the store (one writer, SQLite); this worker
does the rest of a document's work: the HTTP exchange through the one guarded client, and
parsing, validation and canonical JSON of what came back. Each side then has about half of the
CPU a document costs, and neither pays for threads (a writer or executor thread in the
crawler's process cost it about half a millisecond of GIL hand-offs per document).

A forked process joined to the event loop by one socket pair, with length-prefixed pickled
frames. The first frame carries the crawl's Limits; then requests carry an id, and answers
come back in whatever order fetches finish.

The worker spends its first 0.15 s loading the HTTP stack and the validation models. The console
script starts it before loading the CLI (see launch.py), so that happens while the CLI loads.
"""

from __future__ import annotations

import asyncio
import io
import multiprocessing
import os
import pickle
import socket
import struct
import sys
import time
from typing import Any

from index.workers import PARALLEL_FROM_BYTES, die_with_parent, prepare_document, warm_up
from schemas.errors import DocumentError

from .fetching import FetchFailure, Limits, Response

_FRAME = struct.Struct("!QI")  # request id, payload length; then the pickled payload


class WorkerGone(RuntimeError):
    """The worker process ended while fetches were waiting on it."""


# -- in the worker ---------------------------------------------------------------------------------


def _serve(sock: socket.socket, theirs: socket.socket, parent_pid: int) -> None:
    die_with_parent(parent_pid)
    theirs.close()  # the fork copied the crawler's end too: keep only ours, so its close reaches us as EOF
    warm_up()  # the validation models and the HTTP stack load now, while the crawler starts
    from .client import ssl_context

    ssl_context()

    asyncio.run(_serve_async(sock))


async def _serve_async(sock: socket.socket) -> None:
    from .client import GuardedClient

    reader, writer = await asyncio.open_connection(sock=sock, limit=1 << 22)
    running: set[asyncio.Task[None]] = set()
    try:
        _, length = _FRAME.unpack(await reader.readexactly(_FRAME.size))
        limits = pickle.loads(await reader.readexactly(length))
    except (asyncio.IncompleteReadError, ConnectionError):
        return  # started, never used
    async with GuardedClient(limits) as client:
        while True:
            try:
                request_id, length = _FRAME.unpack(await reader.readexactly(_FRAME.size))
                url, etag, last_modified, prepare = pickle.loads(await reader.readexactly(length))
            except (asyncio.IncompleteReadError, ConnectionError):
                break  # the crawler closed its end (or died)
            task = asyncio.create_task(_answer(writer, request_id, client, url, etag, last_modified, prepare))
            running.add(task)
            task.add_done_callback(running.discard)
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)


async def _answer(writer: asyncio.StreamWriter, request_id: int, client: Any, url: str, etag: str | None,
                  last_modified: str | None, prepare: str | None) -> None:
    try:
        answer = await _fetch_and_prepare(client, url, etag, last_modified, prepare)
    except FetchFailure as exc:
        answer = ("failure", str(exc))
    except Exception as exc:  # noqa: BLE001 - a bug of ours: reported, and the crawler stops cleanly
        answer = ("crash", f"{exc.__class__.__name__}: {exc}")
    # with the worker's CPU seconds so far: the crawler balances the parsing by them
    payload = pickle.dumps((time.process_time(), answer), protocol=pickle.HIGHEST_PROTOCOL)
    writer.write(_FRAME.pack(request_id, len(payload)) + payload)
    await writer.drain()


async def _fetch_and_prepare(client: Any, url: str, etag: str | None, last_modified: str | None,
                             prepare: str | None) -> tuple[Any, ...]:
    """`prepare`: the kind of document expected ("index" or "site"), or None to leave parsing to the writer."""
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


# -- in the crawler ------------------------------------------------------------------------------------


class Worker:
    """start() before any thread exists (the fork must be clean), then connect(limits) from the event loop."""

    def __init__(self) -> None:
        self._process: Any = None
        self._sock: socket.socket | None = None
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._waiting: dict[int, asyncio.Future[Any]] = {}
        self._next_id = 0
        self._receiving: asyncio.Task[None] | None = None

    def start(self) -> None:
        ours, theirs = socket.socketpair()
        ctx = multiprocessing.get_context("fork")
        self._process = ctx.Process(target=_serve, args=(theirs, ours, os.getpid()), daemon=True,
                                    name="capindex-worker")
        self._process.start()
        theirs.close()
        self._sock = ours

    @property
    def started(self) -> bool:
        return self._process is not None

    async def connect(self, limits: Limits) -> None:
        """Join the worker to the running event loop; its fetches run under `limits`."""
        assert self._sock is not None and self._writer is None, "start() first, connect() once"
        self._reader, self._writer = await asyncio.open_connection(sock=self._sock, limit=1 << 22)
        self._receiving = asyncio.create_task(self._receive())
        payload = pickle.dumps(limits, protocol=pickle.HIGHEST_PROTOCOL)
        self._writer.write(_FRAME.pack(0, len(payload)) + payload)

    async def fetch(self, url: str, etag: str | None, last_modified: str | None,
                    prepare: str | None = None) -> tuple[Response, Any, float]:
        """GET `url` in the worker (FetchFailure as the guarded client raises it) and, for a 200 under
        PARALLEL_FROM_BYTES when `prepare` names the kind expected ("index" or "site"), its
        PreparedDocument (or the DocumentError saying why it is invalid); else None, and the writer
        prepares it. Also the worker's CPU seconds so far."""
        assert self._writer is not None and self._receiving is not None, "connect() first"
        if self._receiving.done():
            raise WorkerGone("the crawler's worker process has ended")
        self._next_id += 1
        request_id = self._next_id
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = future
        try:
            payload = pickle.dumps((url, etag, last_modified, prepare), protocol=pickle.HIGHEST_PROTOCOL)
            self._writer.write(_FRAME.pack(request_id, len(payload)) + payload)
            await self._writer.drain()
            worker_cpu, answer = await future
        finally:
            self._waiting.pop(request_id, None)
        if answer[0] == "failure":
            raise FetchFailure(answer[1])
        if answer[0] == "crash":
            raise RuntimeError(f"the crawler's worker process failed: {answer[1]}")
        _, (final_url, status, etag, last_modified, fresh_for), raw, prepared = answer
        body = io.BytesIO(raw) if raw is not None else None
        return Response(final_url, status, body, etag, last_modified, fresh_for), prepared, worker_cpu

    async def _receive(self) -> None:
        assert self._reader is not None
        try:
            while True:
                request_id, length = _FRAME.unpack(await self._reader.readexactly(_FRAME.size))
                answer = pickle.loads(await self._reader.readexactly(length))
                future = self._waiting.get(request_id)
                if future is not None and not future.done():  # (its task may have been cancelled)
                    future.set_result(answer)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(WorkerGone("the crawler's worker process ended unexpectedly"))

    async def aclose(self) -> None:
        if self._process is not None and self._process.is_alive() and not self._next_id:
            # never asked anything: stop it now rather than wait for it to finish loading the
            # models (a re-crawl of fresh documents never needs it); it holds no state
            self._process.kill()
        if self._writer is not None:
            self._writer.close()
            try:
                await self._writer.wait_closed()
            except OSError:
                pass
        elif self._sock is not None:
            self._sock.close()
        if self._receiving is not None:
            await self._receiving
        if self._process is not None:
            self._process.join(timeout=5)
            if self._process.is_alive():
                self._process.kill()
                self._process.join()


_early: Worker | None = None


def start_early() -> None:
    """Start a worker now, for a crawl this process is about to run (see launch.py)."""
    global _early
    if _early is None and worker_wanted():
        _early = Worker()
        _early.start()


def take_early() -> Worker | None:
    """The worker start_early() started, handed over once; None if there is none."""
    global _early
    early, _early = _early, None
    return early


def worker_wanted() -> bool:
    """A second core to work on, and fork() to start the worker with."""
    return (os.cpu_count() or 1) >= 2 and sys.platform == "linux"
