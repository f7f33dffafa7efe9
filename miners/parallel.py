"""Analyse files on both cores: the miner forks one child, and the child and the parent take chunks
of files from a shared counter until none are left.

Why not a process pool: a pool's parent only waits, and starting one costs more than mining a
small package. Here the parent works too, the child is forked with the grammars and compiled
queries already loaded, and a claim is one locked increment, so a slow chunk never leaves a core
idle. The child streams each finished chunk's results down a pipe (a thread in the parent reads
and unpickles them as they come, so the child never blocks on a full pipe).

The child is kept: later calls in the same process send it their job (the file list and the
callables, pickled by name) instead of forking again, since each fork costs both processes a
few thousand copy-on-write page faults, as much as mining a small package. A job that cannot be
pickled (a closure) or is too big to send (bytes already read) gets a fork of its own.

A file that crashes the child (a grammar segfault, say) costs only itself: the chunk the child
was working on is re-run one file per forked child, and the file that kills its child is
recorded as skipped with the reason.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import io
import multiprocessing
import os
import pickle
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

Item = tuple[str, str, int]  # (path, language, size)
Result = tuple[str, Any]  # (path, facts or the reason it was skipped)

CHUNK_BYTES = 64 * 1024  # the first chunks' size; they shrink as the work left does
MIN_CHUNK_BYTES = 8 * 1024
PARALLEL_FROM = 96 * 1024  # below this much source a fork costs more than the second core saves
KEPT_FROM = 24 * 1024  # ...but a job for the child already forked costs well under a millisecond


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


Progress = Callable[[int], Any]  # told the source bytes of each batch of files analysed


def analyse_all(items: Sequence[Item], read: Callable[[str], bytes], analyse: Analyse, workers: int = 2,
                prepare: Callable[[str], Any] | None = None,
                meanwhile: Callable[[], Any] | None = None, progress: Progress | None = None) -> list[Result]:
    """[(path, analyse(path, language, read(path)))] in the order of `items`. Each file is read by
    the process that analyses it, so `read` must work in a forked child (a directory, or bytes
    already in memory). `prepare(language)` runs in the parent before any fork, for each language
    present: what it caches (a grammar, compiled queries) is then inherited by a child forked now,
    not built again there (a child kept from an earlier call builds what it lacks once). `meanwhile()` is the parent's own work (reading what assembly needs): it
    runs while the child already analyses, and the parent takes fewer chunks for it. `progress(n)`
    is told the bytes of each file or chunk done, from the parent (or its reader thread)."""
    chunks = chunked(items)
    with cycle_collection_paused():
        size = sum(i[2] for i in items)
        parallel = workers >= 2 and len(chunks) >= 2 and hasattr(os, "fork") and size >= KEPT_FROM
        sent = _job_bytes((items, chunks, read, analyse)) if parallel else None
        if parallel and size < PARALLEL_FROM and (sent is None or not _kept_usable()):
            parallel = False  # worth the kept worker, not a fork
        if not parallel:
            if meanwhile is not None:
                meanwhile()
            if progress is None:
                return [(path, analyse(path, language, read(path))) for path, language, _ in items]
            out = []
            for path, language, size in items:
                out.append((path, analyse(path, language, read(path))))
                progress(size)
            return out
        for language in sorted({language for _, language, _ in items}) if prepare else ():
            prepare(language)
        return _forked(items, chunks, read, analyse, meanwhile, sent, progress)


@contextlib.contextmanager
def cycle_collection_paused() -> Iterator[None]:
    """Mining allocates many small objects and makes no reference cycles worth collecting: the
    cycle collector's passes over a growing heap are pure cost while it runs (5-10% of assembly)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


JOB_LIMIT = 1 << 20  # a job that pickles bigger (bytes already in memory) goes to a fork of its own
_DONE = (0).to_bytes(8, "little")  # ends a job's frames: no frame is empty
# the highest descriptor a kept child closes: capped, as a system without close_range() closes them
# one by one, and the limit may be a billion
_MAX_FD = min(os.sysconf("SC_OPEN_MAX"), 1 << 20) if hasattr(os, "sysconf") else 65536


class _Worker:
    """A forked child that takes chunks from a counter it shares with the parent and streams each
    finished chunk's results back (an 8-byte length, then the pickled (chunk index, results)).

    A kept worker (`job` None) reads one job after another from a pipe and serves every later
    call of the process, so the fork's copy-on-write faults (a few thousand pages, both sides) are
    paid once, not on every tree. A one-off worker is forked with its job already in memory
    (closures, bytes too big to send) and exits after it."""

    def __init__(self, job: tuple[Any, ...] | None = None):
        ctx = multiprocessing.get_context("fork")
        self.counter, self.lock = ctx.RawValue("l", 0), ctx.Lock()
        self.count = 0  # chunks in the current job
        jobs_in, jobs_out = os.pipe() if job is None else (-1, -1)
        results_in, results_out = os.pipe()
        _widen(results_out)
        self.pid = os.fork()
        if self.pid == 0:  # the child: never returns, never runs the parent's exit handlers
            os.close(results_in)
            if jobs_out >= 0:
                os.close(jobs_out)
            if job is None:
                # a kept child outlives this call: it must not hold what the parent opened (a
                # socket it closes, a pipe whose reader waits for the end, a store's file)
                low, high = sorted((jobs_in, results_out))
                os.closerange(3, low)
                os.closerange(low + 1, high)
                os.closerange(high + 1, _MAX_FD)
            self._serve(job, jobs_in, results_out)
        os.close(results_out)
        if jobs_in >= 0:
            os.close(jobs_in)
        self.jobs = os.fdopen(jobs_out, "wb") if jobs_out >= 0 else None
        self.results = os.fdopen(results_in, "rb")
        self.alive = True

    def claim(self) -> int | None:
        with self.lock:
            index = self.counter.value
            if index >= self.count:
                return None
            self.counter.value = index + 1
        return index

    def _serve(self, job: tuple[Any, ...] | None, jobs_in: int, results_out: int) -> None:
        code, served = 0, 0
        try:
            jobs = os.fdopen(jobs_in, "rb") if jobs_in >= 0 else None
            if jobs is not None:
                job = _read_job(jobs)
            with os.fdopen(results_out, "wb") as out:
                while job is not None:
                    items, chunks, read, analyse = job
                    self.count = len(chunks)
                    while (index := self.claim()) is not None:
                        frame = pickle.dumps((index, _run(items, chunks[index], read, analyse)), 5)
                        out.write(len(frame).to_bytes(8, "little"))
                        out.write(frame)
                        out.flush()
                    out.write(_DONE)
                    out.flush()
                    served += 1
                    if served % 16 == 0:  # the fork left the cycle collector off: run it now and then
                        gc.collect()
                    job = None if jobs is None else _read_job(jobs)
        except BaseException:  # noqa: BLE001 - the parent sees the missing chunks and re-runs them
            code = 1
        finally:
            os._exit(code)

    def run(self, items: Sequence[Item], chunks: list[list[int]], read: Callable[[str], bytes], analyse: Analyse,
            meanwhile: Callable[[], Any] | None, job: bytes | None,
            progress: Progress | None = None) -> dict[int, list[Any]]:
        """The results of the chunks that were analysed, by chunk index (the parent's, and the
        child's until it finished or died)."""
        self.count = len(chunks)
        if self.jobs is not None:
            # a kept child is idle between jobs: the count starts again for this one. (A child forked
            # with its job started at 0 and may have claimed chunks already: resetting its count
            # would hand them to the parent again, a file that kills the child among them.)
            self.counter.value = 0
        if self.jobs is not None and job is not None:
            try:
                self.jobs.write(len(job).to_bytes(8, "little"))
                self.jobs.write(job)
                self.jobs.flush()
            except OSError:  # the child is gone: the parent does the whole job
                self.alive = False
        done: dict[int, list[Any]] = {}
        finished: list[bool] = []
        # the child's chunks are unpickled as they arrive, while both still work, not all at the end
        told = _told(items, chunks, progress)
        receiver = threading.Thread(target=self._receive, args=(done, finished, told), daemon=True)
        if self.alive:
            receiver.start()
        try:
            if meanwhile is not None:
                meanwhile()
            while (index := self.claim()) is not None:
                done[index] = _run(items, chunks[index], read, analyse)
                told(index)
        finally:
            if self.alive:
                receiver.join()
            if not finished or self.jobs is None:
                self.close()
        return done

    def _receive(self, done: dict[int, list[Any]], finished: list[bool], told: Callable[[int], None]) -> None:
        """Frames into `done` until the job's end; a frame cut short (the child died writing it)
        is dropped, and its chunk re-run."""
        stream = self.results
        while len(header := stream.read(8)) == 8:
            if header == _DONE:
                finished.append(True)
                return
            size = int.from_bytes(header, "little")
            frame = stream.read(size)
            if len(frame) < size:
                return
            index, results = pickle.loads(frame)
            done[index] = results
            told(index)

    def running(self) -> bool:
        try:
            return self.alive and os.waitpid(self.pid, os.WNOHANG) == (0, 0)
        except ChildProcessError:
            return False

    def let_go(self) -> None:
        """Close this process's ends of the pipes."""
        for stream in (self.jobs, self.results):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass

    def close(self) -> None:
        if self.alive or self.pid:
            self.alive = False
            self.let_go()
            try:
                os.waitpid(self.pid, 0)
            except ChildProcessError:
                pass
            self.pid = 0


def _widen(fd: int) -> None:
    """Give the results pipe 1 MiB (Linux; 64 KiB by default): the parent's reader thread waits for
    the GIL before it drains the pipe, and until it does a full pipe would stall the child's
    next write (up to 20 ms each, measured: ~2% of the child's time)."""
    try:
        import fcntl
    except ImportError:
        return
    for size in (1 << 20, _pipe_max_size()):
        try:
            fcntl.fcntl(fd, getattr(fcntl, "F_SETPIPE_SZ", 1031), size)
            return
        except OSError:
            continue  # above an unprivileged user's pipe-max-size: try that; else the default works too


def _pipe_max_size() -> int:
    try:
        with open("/proc/sys/fs/pipe-max-size") as limit:
            return min(1 << 20, int(limit.read()))
    except (OSError, ValueError):
        return 0


class _TooBig(Exception):
    pass


class _Capped(io.BytesIO):
    def write(self, data: Any) -> int:
        if self.tell() + len(data) > JOB_LIMIT:
            raise _TooBig
        return super().write(data)


def _job_bytes(job: tuple[Any, ...]) -> bytes | None:
    """The job pickled for the kept worker, or None when it cannot go down a pipe (a closure, a
    bound method of something unpicklable) or is too big to be worth sending."""
    out = _Capped()
    try:
        pickle.Pickler(out, 5).dump(job)
    except Exception:  # noqa: BLE001 - PicklingError, AttributeError ("local object"), _TooBig...
        return None
    return out.getvalue()


def _read_job(stream: Any) -> tuple[Any, ...] | None:
    header = stream.read(8)
    if len(header) < 8:
        return None  # the parent is gone, or closed the pipe
    return pickle.loads(stream.read(int.from_bytes(header, "little")))


def _told(items: Sequence[Item], chunks: list[list[int]], progress: Progress | None) -> Callable[[int], None]:
    """What to call with a chunk's index once it is done: tells `progress` its bytes."""
    if progress is None:
        return lambda index: None
    return lambda index: progress(sum(items[i][2] for i in chunks[index]))


def _run(items: Sequence[Item], chunk: list[int], read: Callable[[str], bytes], analyse: Analyse) -> list[Any]:
    return [analyse(items[i][0], items[i][1], read(items[i][0])) for i in chunk]


_kept: _Worker | None = None
_kept_lock = threading.Lock()


def _kept_usable() -> bool:
    return _kept is not None and _kept.alive


def _forked(items: Sequence[Item], chunks: list[list[int]], read: Callable[[str], bytes], analyse: Analyse,
            meanwhile: Callable[[], Any] | None, sent: bytes | None, progress: Progress | None = None) -> list[Result]:
    """`sent`: the job pickled for the kept worker, or None when it needs a fork of its own."""
    global _kept
    job = (items, chunks, read, analyse)
    if sent is not None and _kept_lock.acquire(blocking=False):  # another thread's job: a one-off fork
        try:
            if _kept is not None and not _kept.running():
                _kept.close()  # it died since the last call (killed, say): fork another
                _kept = None
            if _kept is None:  # (a fork of this process starts with none: _forget_kept)
                _kept = _Worker()
            done = _kept.run(items, chunks, read, analyse, meanwhile, sent, progress)
            if not _kept.alive:
                _kept = None
        finally:
            _kept_lock.release()
    else:
        done = _Worker(job).run(items, chunks, read, analyse, meanwhile, None, progress)
    results: list[Any] = [None] * len(items)
    for index, chunk in enumerate(chunks):
        if index not in done:  # the child died while analysing it
            done[index] = [_isolated(items[i][0], items[i][1], read(items[i][0]), analyse) for i in chunk]
            if progress is not None:
                progress(sum(items[i][2] for i in chunk))
        for i, result in zip(chunk, done[index], strict=True):
            results[i] = result
    return [(item[0], result) for item, result in zip(items, results, strict=True)]


def stop_kept_worker() -> None:
    """End the kept worker (it also ends by itself when this process exits)."""
    global _kept
    with _kept_lock:
        if _kept is not None:
            _kept.close()
        _kept = None


def _forget_kept() -> None:
    """In a forked child of this process: let go of the kept worker's pipes. The child cannot use
    that worker, and holding the job pipe's write end would keep the worker from seeing its end
    when this process closes it (stop_kept_worker would then wait for the child to exit). The lock
    is made anew: another thread may have held it when the process forked."""
    global _kept, _kept_lock
    _kept_lock = threading.Lock()
    if _kept is not None:
        _kept.let_go()
        _kept = None


atexit.register(stop_kept_worker)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_kept)


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
