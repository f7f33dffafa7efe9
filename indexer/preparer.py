"""The crawler's worker process: parses and validates fetched documents on the second core.

A forked process joined to the event loop by one socket pair, with length-prefixed frames:
the loop sends a document's bytes and awaits its prepared form, with no executor threads in
the crawler's process (they cost it about half a millisecond of GIL hand-offs per document).
The worker answers in the order it was asked, so the loop keeps a queue of waiting futures.
"""

from __future__ import annotations

import asyncio
import collections
import multiprocessing
import os
import pickle
import socket
import struct
from typing import Any

from index.workers import die_with_parent, prepare_document, warm_up
from schemas.errors import DocumentError

_FRAME = struct.Struct("!I")  # payload length
_ASK = struct.Struct("!IH")  # payload length, url length; then the url and the document's bytes


class WorkerGone(RuntimeError):
    """The worker process ended while documents were waiting on it."""


def _read_exactly(sock: socket.socket, n: int) -> bytes | None:
    parts, left = [], n
    while left:
        chunk = sock.recv(min(left, 1 << 20))
        if not chunk:
            return None
        parts.append(chunk)
        left -= len(chunk)
    return b"".join(parts)


def _serve(sock: socket.socket, theirs: socket.socket, parent_pid: int) -> None:
    """In the worker: answer requests until the crawler closes its end."""
    die_with_parent(parent_pid)
    theirs.close()  # the fork copied the crawler's end too: keep only ours, so its close reaches us as EOF
    warm_up()  # load the validation models now, while the crawler starts fetching
    while True:
        head = _read_exactly(sock, _ASK.size)
        if head is None:
            return
        length, url_length = _ASK.unpack(head)
        body = _read_exactly(sock, length)
        if body is None:
            return
        url, raw = body[:url_length].decode(), body[url_length:]
        try:
            answer: tuple[str, Any] = ("ok", prepare_document(raw, url))
        except DocumentError as exc:
            answer = ("invalid", exc)
        except Exception as exc:  # noqa: BLE001 - reported to the crawler, which stops cleanly
            answer = ("crash", f"{exc.__class__.__name__}: {exc}")
        payload = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        sock.sendall(_FRAME.pack(len(payload)) + payload)


class Preparer:
    """Start with start() before any thread exists (the fork must be clean); use from one event loop."""

    def __init__(self) -> None:
        self._process: Any = None
        self._sock: socket.socket | None = None
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._waiting: collections.deque[asyncio.Future[Any]] = collections.deque()
        self._receiving: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Fork the worker (call before any thread exists, and before connect())."""
        ours, theirs = socket.socketpair()
        ctx = multiprocessing.get_context("fork")
        self._process = ctx.Process(target=_serve, args=(theirs, ours, os.getpid()), daemon=True,
                                    name="capindex-preparer")
        self._process.start()
        theirs.close()
        self._sock = ours

    async def connect(self) -> None:
        """Join the worker's socket to the running event loop (once, before the first prepare())."""
        assert self._sock is not None and self._writer is None, "start() first, connect() once"
        self._reader, self._writer = await asyncio.open_connection(sock=self._sock, limit=1 << 22)
        self._receiving = asyncio.create_task(self._receive())

    async def prepare(self, raw: bytes, url: str) -> Any:
        """The worker's prepare_document(raw, url); DocumentError when the document is invalid."""
        assert self._writer is not None and self._receiving is not None, "connect() first"
        if self._receiving.done():
            raise WorkerGone("the parsing worker process has ended")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting.append(future)
        encoded = url.encode()
        self._writer.write(_ASK.pack(len(encoded) + len(raw), len(encoded)) + encoded)
        self._writer.write(raw)
        await self._writer.drain()
        kind, value = await future
        if kind == "ok":
            return value
        if kind == "invalid":
            raise value
        raise RuntimeError(f"the parsing worker process failed: {value}")

    async def _receive(self) -> None:
        assert self._reader is not None
        try:
            while True:
                (length,) = _FRAME.unpack(await self._reader.readexactly(_FRAME.size))
                answer = pickle.loads(await self._reader.readexactly(length))
                future = self._waiting.popleft()
                if not future.done():  # (its task may have been cancelled)
                    future.set_result(answer)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        while self._waiting:
            future = self._waiting.popleft()
            if not future.done():
                future.set_exception(WorkerGone("the parsing worker process ended unexpectedly"))

    async def aclose(self) -> None:
        if self._process is not None and self._process.is_alive() and not self._waiting:
            # nothing is asked of it: stop it now rather than wait for it to finish loading the
            # models (a re-crawl of fresh documents never asks it anything); it holds no state
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
