"""Analyse files on both cores: the miner forks one child, and the child and the parent take chunks
of files from a shared counter until none are left.

Why not a process pool: a pool's parent only waits, and starting one costs more than mining a
small package. Here the parent works too, the child is forked with the grammars and compiled
queries already loaded, and a claim is one locked increment, so a slow chunk never leaves a core
idle. The child streams each finished chunk's results down a pipe (a thread in the parent reads
and unpickles them as they come, so the child never blocks on a full pipe).

A file that crashes the child (a grammar segfault, say) costs only itself: the chunk the child
was working on is re-run one file per forked child, and the file that kills its child is
recorded as skipped with the reason.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import pickle
import signal
import threading
from collections.abc import Callable, Sequence
from typing import Any

Item = tuple[str, str, int]  # (path, language, size)
Result = tuple[str, Any]  # (path, facts or the reason it was skipped)

CHUNK_BYTES = 64 * 1024  # the first chunks' size; they shrink as the work left does
MIN_CHUNK_BYTES = 8 * 1024
PARALLEL_FROM = 96 * 1024  # below this much source a fork costs more than the second core saves


def chunked(items: Sequence[Item], size: int = CHUNK_BYTES) -> list[list[int]]:
    """Positions of `items` in chunks: the largest files first, and each chunk about a quarter of
    the bytes left (between MIN_CHUNK_BYTES and `size`), so the last chunks are small and
    whichever process finishes first waits little for the other."""
    order = sorted(range(len(items)), key=lambda i: -items[i][2])
    left = sum(item[2] for item in items)
    chunks: list[list[int]] = []
    current: list[int] = []
    filled = 0
    for i in order:
        current.append(i)
        filled += items[i][2]
        if filled >= max(MIN_CHUNK_BYTES, min(size, left // 4)):
            chunks.append(current)
            left -= filled
            current, filled = [], 0
    if current:
        chunks.append(current)
    return chunks


Analyse = Callable[[str, str, bytes], Any]


def analyse_all(items: Sequence[Item], read: Callable[[str], bytes], analyse: Analyse, workers: int = 2,
                prepare: Callable[[str], Any] | None = None,
                meanwhile: Callable[[], Any] | None = None) -> list[Result]:
    """[(path, analyse(path, language, read(path)))] in the order of `items`. Each file is read by
    the process that analyses it, so `read` must work in a forked child (a directory, or bytes
    already in memory). `prepare(language)` runs in the parent before the fork, for each language
    present: what it caches (a grammar, compiled queries) is then built once, not again in the
    child on every run. `meanwhile()` is the parent's own work (reading what assembly needs): it
    runs while the child already analyses, and the parent takes fewer chunks for it."""
    chunks = chunked(items)
    # Analysis allocates many small objects and makes no reference cycles worth collecting: the
    # cycle collector's passes over a growing heap are pure cost while it runs.
    collecting = gc.isenabled()
    gc.disable()
    try:
        if workers < 2 or len(chunks) < 2 or not hasattr(os, "fork") or sum(i[2] for i in items) < PARALLEL_FROM:
            if meanwhile is not None:
                meanwhile()
            return [(path, analyse(path, language, read(path))) for path, language, _ in items]
        for language in sorted({language for _, language, _ in items}) if prepare else ():
            prepare(language)
        return _forked(items, chunks, read, analyse, meanwhile)
    finally:
        if collecting:
            gc.enable()


def _forked(items: Sequence[Item], chunks: list[list[int]], read: Callable[[str], bytes], analyse: Analyse,
            meanwhile: Callable[[], Any] | None) -> list[Result]:
    ctx = multiprocessing.get_context("fork")
    counter = ctx.RawValue("l", 0)
    lock = ctx.Lock()

    def claim() -> int | None:
        with lock:
            index = counter.value
            if index >= len(chunks):
                return None
            counter.value = index + 1
        return index

    def run(chunk: list[int]) -> list[Any]:
        return [analyse(items[i][0], items[i][1], read(items[i][0])) for i in chunk]

    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns, never runs the parent's exit handlers
        code = 0
        try:
            os.close(read_end)
            with os.fdopen(write_end, "wb") as out:
                while (index := claim()) is not None:
                    frame = pickle.dumps((index, run(chunks[index])), 5)
                    out.write(len(frame).to_bytes(8, "little"))
                    out.write(frame)
                    out.flush()
        except BaseException:  # noqa: BLE001 - the parent sees the missing chunk and re-runs it
            code = 1
        finally:
            os._exit(code)
    os.close(write_end)
    done: dict[int, list[Any]] = {}
    # the child's chunks are unpickled as they arrive, while both still work, not all at the end
    receiver = threading.Thread(target=_receive, args=(read_end, done), daemon=True)
    receiver.start()
    try:
        if meanwhile is not None:
            meanwhile()
        while (index := claim()) is not None:
            done[index] = run(chunks[index])
    finally:
        receiver.join()
        os.waitpid(pid, 0)
    results: list[Any] = [None] * len(items)
    for index, chunk in enumerate(chunks):
        if index not in done:  # the child died while analysing it
            done[index] = [_isolated(items[i][0], items[i][1], read(items[i][0]), analyse) for i in chunk]
        for i, result in zip(chunk, done[index], strict=True):
            results[i] = result
    return [(item[0], result) for item, result in zip(items, results, strict=True)]


def _receive(fd: int, done: dict[int, list[Any]]) -> None:
    """The child's frames (8-byte length, then a pickled (chunk index, results)) into `done`; a
    frame cut short (the child died writing it) is dropped, and its chunk re-run."""
    with os.fdopen(fd, "rb") as stream:
        while len(header := stream.read(8)) == 8:
            size = int.from_bytes(header, "little")
            frame = stream.read(size)
            if len(frame) < size:
                break
            index, results = pickle.loads(frame)
            done[index] = results


def _drain(fd: int, into: bytearray) -> None:
    with os.fdopen(fd, "rb", buffering=0) as stream:
        while block := stream.read(1 << 20):
            into += block


def _isolated(path: str, language: str, data: bytes, analyse: Callable[[str, str, bytes], Any]) -> Any:
    """analyse() in a child of its own, so a file that crashes the process is skipped, not fatal."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read_end)
            with os.fdopen(write_end, "wb") as out:
                out.write(pickle.dumps(analyse(path, language, data), 5))
        finally:
            os._exit(0)
    os.close(write_end)
    received = bytearray()
    _drain(read_end, received)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        name = signal.Signals(sig).name if sig in signal.Signals._value2member_map_ else str(sig)
        return f"analysis crashed its process ({name})"
    try:
        return pickle.loads(received)
    except Exception:  # noqa: BLE001 - an incomplete result is a coverage fact
        return f"analysis crashed its process (exit status {os.waitstatus_to_exitcode(status)})"
