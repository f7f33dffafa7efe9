"""The crawler's side of its worker process (see worker_process.py): requests out, answers in.

The crawler's own process keeps the frontier and the store (one writer, SQLite); this worker
does the rest of a document's work: the HTTP exchange through the one guarded client, and
parsing, validation and canonical JSON of what came back. Each side then has about half of the
CPU a document costs, and neither pays for threads (a writer or executor thread in the
crawler's process cost it about half a millisecond of GIL hand-offs per document).

A forked process joined to the event loop by one socket pair, with length-prefixed pickled
frames. The first frame carries the crawl's Limits; then requests carry an id, and answers
come back in whatever order fetches finish.
"""

from __future__ import annotations

import asyncio
import io
import pickle
import socket
from typing import Any

from .fetching import FetchFailure, Limits, Response
from .worker_process import FRAME, spawn, take_early


class WorkerGone(RuntimeError):
    """The worker process ended while fetches were waiting on it."""


# -- in the crawler ------------------------------------------------------------------------------------


class Worker:
    """start() before any thread exists (the fork must be clean), then connect(limits) from the event loop.
    start() adopts the process the console script started early, if there is one."""

    def __init__(self) -> None:
        self._process: Any = None
        self._sock: socket.socket | None = None
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._waiting: dict[int, asyncio.Future[Any]] = {}
        self._next_id = 0
        self._receiving: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._process, self._sock = take_early() or spawn()

    async def connect(self, limits: Limits) -> None:
        """Join the worker to the running event loop; its fetches run under `limits`."""
        assert self._sock is not None and self._writer is None, "start() first, connect() once"
        self._reader, self._writer = await asyncio.open_connection(sock=self._sock, limit=1 << 22)
        self._receiving = asyncio.create_task(self._receive())
        payload = pickle.dumps(limits, protocol=pickle.HIGHEST_PROTOCOL)
        self._writer.write(FRAME.pack(0, len(payload)) + payload)

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
            self._writer.write(FRAME.pack(request_id, len(payload)) + payload)
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
                request_id, length = FRAME.unpack(await self._reader.readexactly(FRAME.size))
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
