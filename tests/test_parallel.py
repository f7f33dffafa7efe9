"""miners/parallel.py: the parent and one forked child share the files; results come back in order,
and a file that kills the child is skipped with the reason, not fatal."""

from __future__ import annotations

import json
import os
import signal
import threading
import time

import pytest

from miners import parallel
from miners.mine import analyse
from miners.parallel import CHUNK_BYTES, PARALLEL_FROM, analyse_all

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")


SOURCES: dict[str, bytes] = {}


def _items(count: int, size: int) -> list[tuple[str, str, int]]:
    out = []
    for i in range(count):
        data = (f"def f{i}(x):\n    return open(x).read()\n" * (size // 40)).encode()
        SOURCES[f"m{i}.py"] = data
        out.append((f"m{i}.py", "python", len(data)))
    return out


read = SOURCES.__getitem__


def test_two_processes_give_the_serial_result_in_order(tmp_path):
    items = _items(40, 8 * 1024)
    assert sum(size for _, _, size in items) >= PARALLEL_FROM
    parent, child_started = os.getpid(), tmp_path / "child-started"

    def tagged(path: str, language: str, data: bytes):
        if os.getpid() != parent:
            child_started.touch()
        else:  # on a loaded machine the parent could take every chunk before the child is scheduled
            deadline = time.monotonic() + 30
            while not child_started.exists() and time.monotonic() < deadline:
                time.sleep(0.005)
        return os.getpid(), analyse(path, language, data)

    both = analyse_all(items, read, tagged, workers=2)
    serial = analyse_all(items, read, analyse, workers=1)
    assert [p for p, _ in both] == [p for p, _, _ in items]
    assert [(p, [s.name for s in f.symbols], [e.effect for e in f.effects]) for p, (_, f) in both] == \
        [(p, [s.name for s in f.symbols], [e.effect for e in f.effects]) for p, f in serial]
    # the parent analysed some chunks itself and the forked child the others
    pids = {pid for _, (pid, _) in both}
    assert os.getpid() in pids and len(pids) == 2


def test_small_input_stays_in_process():
    items = _items(3, 1024)
    seen: set[int] = set()

    def tagged(path: str, language: str, data: bytes):
        seen.add(os.getpid())
        return len(data)

    assert analyse_all(items, read, tagged, workers=2) == [(p, size) for p, _, size in items]
    assert seen == {os.getpid()}


def test_a_file_that_kills_the_child_is_skipped_and_the_rest_analysed(tmp_path):
    parent = os.getpid()
    taken, started = tmp_path / "boom-taken", tmp_path / "parent-started"
    SOURCES["slow.py"], SOURCES["boom.py"] = b"x = 1\n" * (CHUNK_BYTES // 6 + 1), b"y = 2\n"
    items = [("slow.py", "python", len(SOURCES["slow.py"])), ("boom.py", "python", 6), *_items(12, 8 * 1024)]

    def fragile(path: str, language: str, data: bytes):
        # boom.py (the smallest file, so the last chunk) must be the child's, however loaded the
        # machine: the child holds its first chunk until the parent has claimed one (else it could
        # claim every other chunk before the parent runs, and leave boom.py to the parent), and the
        # parent then holds that chunk until the child has taken boom.py
        deadline = time.monotonic() + 60
        if os.getpid() == parent:
            started.touch()
            while not taken.exists() and time.monotonic() < deadline:
                time.sleep(0.01)
        elif path != "boom.py":
            while not started.exists() and time.monotonic() < deadline:
                time.sleep(0.01)
        if path == "boom.py" and os.getpid() != parent:
            taken.touch()
            os.kill(os.getpid(), signal.SIGKILL)  # as a segfault would, without faulthandler output
        return f"ok {len(data)}"

    results = dict(analyse_all(items, read, fragile, workers=2))
    assert results["boom.py"] == "analysis crashed its process (SIGKILL)"
    assert all(results[p] == f"ok {size}" for p, _, size in items if p != "boom.py")
    assert len(results) == len(items)


def test_a_child_forked_with_its_job_keeps_the_chunks_it_claimed_before_the_parent_starts(tmp_path):
    # under load the parent may run again only after the child has claimed every chunk: those stay
    # the child's (they were once handed to the parent again, a file that kills the child among them)
    items = _items(12, 8 * 1024)
    chunks = parallel.chunked(items)
    marks = tmp_path / "analysed"
    marks.mkdir()

    def tagged(path: str, language: str, data: bytes) -> int:
        (marks / path).touch()
        return os.getpid()

    worker = parallel._Worker((items, chunks, read, tagged))
    child = worker.pid
    deadline = time.monotonic() + 60
    while len(list(marks.iterdir())) < len(items) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(list(marks.iterdir())) == len(items)  # the child has done them all
    done = worker.run(items, chunks, read, tagged, None, None)
    assert sorted(done) == list(range(len(chunks)))
    assert {pid for results in done.values() for pid in results} == {child}


def test_chunks_take_the_largest_files_first_and_shrink():
    items = _items(30, 10 * 1024) + _items(2, 100 * 1024)[::-1]
    chunks = parallel.chunked(items)
    assert sorted(i for c in chunks for i in c) == list(range(len(items)))  # every file once
    sizes = [sum(items[i][2] for i in c) for c in chunks]
    assert chunks[0] == [0] or items[chunks[0][0]][2] == max(size for _, _, size in items)
    assert all(size - items[c[-1]][2] < CHUNK_BYTES for size, c in zip(sizes, chunks, strict=True))
    assert sizes[-1] <= sizes[len(sizes) // 2] <= max(sizes)


def test_the_parents_own_work_runs_while_the_child_analyses():
    items = _items(40, 8 * 1024)
    ran: list[int] = []

    def tagged(path: str, language: str, data: bytes):
        return os.getpid()

    results = analyse_all(items, read, tagged, workers=2, meanwhile=lambda: (ran.append(1), time.sleep(0.3)))
    assert ran == [1]
    # the child kept working while the parent was busy: it took most of the chunks
    child = sum(1 for _, pid in results if pid != os.getpid())
    assert child > len(items) // 2
    assert [p for p, _ in results] == [p for p, _, _ in items]


# -- the kept worker: forked once, reused by later calls ---------------------------------------------
# Functions at module level pickle by name, so their jobs go down the kept worker's pipe (the
# closures above go to a fork of their own). The worker was forked before a test sets anything
# up: everything a job needs travels in it (here, in the data that `read` returns).

PARENT = os.getpid()


def pid_of(path: str, language: str, data: bytes) -> int:
    time.sleep(0.004)  # long enough that the child always gets chunks too
    return os.getpid()


def fragile_kept(path: str, language: str, data: bytes) -> str:
    marker = data.split(b"\n", 1)[0][1:].decode()  # every file's first line: "#<marker path>"
    if os.getpid() == PARENT:
        deadline = time.monotonic() + 60  # hold the parent until the child has taken boom.py
        while not os.path.exists(marker) and time.monotonic() < deadline:
            time.sleep(0.01)
    elif path == "boom.py":
        open(marker, "w").close()
        os.kill(os.getpid(), signal.SIGKILL)
    return f"ok {len(data)}"


def _job(count: int, size: int, first_line: bytes = b"#\n") -> tuple[list[tuple[str, str, int]], dict[str, bytes]]:
    data = {f"k{i}.py": first_line + b"x = 1\n" * (size // 6) for i in range(count)}
    return [(p, "python", len(d)) for p, d in data.items()], data


def _children(results) -> set[int]:
    return {pid for _, pid in results} - {os.getpid()}


def _kept_pids() -> set[int]:
    """The child processes that analysed a small job (the kept worker's pid)."""
    items, data = _job(40, 8 * 1024)
    return _children(analyse_all(items, data.__getitem__, pid_of, workers=2))


def test_the_kept_worker_serves_call_after_call():
    items, data = _job(40, 8 * 1024)
    first = analyse_all(items, data.__getitem__, pid_of, workers=2)
    second = analyse_all(items, data.__getitem__, pid_of, workers=2)
    assert [p for p, _ in first] == [p for p, _ in second] == [p for p, _, _ in items]
    assert len(_children(first)) == 1 and _children(first) == _children(second)  # one child, both times
    assert os.getpid() in {pid for _, pid in first}


def test_a_job_too_big_to_send_gets_a_fork_of_its_own():
    items, data = _job(12, parallel.JOB_LIMIT // 8)
    first = analyse_all(items, data.__getitem__, pid_of, workers=2)
    second = analyse_all(items, data.__getitem__, pid_of, workers=2)
    assert _children(first) and _children(second) and _children(first) != _children(second)
    kept = parallel._kept
    assert kept is None or kept.pid not in _children(first) | _children(second)


def test_a_kept_worker_that_died_between_calls_is_replaced():
    items, data = _job(40, 8 * 1024)
    (dead,) = _kept_pids()
    os.kill(dead, signal.SIGKILL)
    time.sleep(0.1)
    results = analyse_all(items, data.__getitem__, pid_of, workers=2)
    assert [p for p, _ in results] == [p for p, _, _ in items]
    assert len(_children(results)) == 1 and dead not in _children(results)  # a new worker, at once
    assert _kept_pids() == _children(results)


def test_a_file_that_kills_the_kept_worker_is_skipped_and_the_next_call_gets_a_new_one(tmp_path):
    marker = tmp_path / "boom-taken"
    items, data = _job(12, 8 * 1024, f"#{marker}\n".encode())
    data["slow.py"] = data["boom.py"] = f"#{marker}\n".encode()
    data["slow.py"] += b"x = 1\n" * (CHUNK_BYTES // 6 + 1)
    items = [("slow.py", "python", len(data["slow.py"])), ("boom.py", "python", len(data["boom.py"])), *items]
    before = _kept_pids()

    results = dict(analyse_all(items, data.__getitem__, fragile_kept, workers=2))
    assert results["boom.py"] == "analysis crashed its process (SIGKILL)"
    assert all(results[p] == f"ok {size}" for p, _, size in items if p != "boom.py")
    after = _kept_pids()
    assert len(after) == 1 and after != before


def test_a_fork_of_this_process_does_not_use_its_kept_worker():
    items, data = _job(40, 8 * 1024)
    kept = _kept_pids()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            results = analyse_all(items, data.__getitem__, pid_of, workers=2)
            os.write(write_end, json.dumps(sorted(_children(results))).encode())
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end) as stream:
        theirs = set(json.loads(stream.read()))
    os.waitpid(pid, 0)
    assert theirs and not theirs & kept  # the fork forked a worker of its own
    assert _kept_pids() == kept  # ours is intact


def test_a_small_job_goes_to_the_kept_worker_but_never_forks_one():
    items, data = _job(8, 6 * 1024)  # 48 KiB: between KEPT_FROM and PARALLEL_FROM
    size = sum(s for _, _, s in items)
    assert parallel.KEPT_FROM <= size < PARALLEL_FROM
    parallel.stop_kept_worker()
    assert _children(analyse_all(items, data.__getitem__, pid_of, workers=2)) == set()  # no fork for this
    kept = _kept_pids()  # a big job forks the worker...
    assert _children(analyse_all(items, data.__getitem__, pid_of, workers=2)) == kept  # ...which small ones use


def test_the_kept_worker_holds_none_of_the_parents_files(tmp_path):
    """A kept child outlives the call that forked it: a pipe the parent had open when it forked
    must end when the parent closes it, a socket must close, a store's file must not stay open."""
    parallel.stop_kept_worker()
    read_end, write_end = os.pipe()
    with open(tmp_path / "store.db", "wb"):
        try:
            (pid,) = _kept_pids()  # forks the kept worker while both are open
            os.close(write_end)
            os.set_blocking(read_end, False)
            assert os.read(read_end, 1) == b""  # the end of the pipe: nobody else holds its write end
            opened = {os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")}
            assert str(tmp_path / "store.db") not in opened
        finally:
            os.close(read_end)


def test_the_results_pipe_is_widened_so_the_child_never_waits_for_the_reader():
    fcntl = pytest.importorskip("fcntl")
    read_end, write_end = os.pipe()
    try:
        parallel._widen(write_end)
        wanted = min(1 << 20, parallel._pipe_max_size() or 1 << 20)
        assert fcntl.fcntl(write_end, getattr(fcntl, "F_GETPIPE_SZ", 1032)) >= wanted
    finally:
        os.close(read_end)
        os.close(write_end)


def test_a_fork_that_outlives_the_call_does_not_keep_the_worker_alive():
    """stop_kept_worker (run at exit) closes the job pipe and waits for the worker: a fork of this
    process that is still running must not hold that pipe open, or the wait would last as long as it."""
    _kept_pids()
    release_read, release_write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.read(release_read, 1)  # lives until the test lets it go
        os._exit(0)
    os.close(release_read)
    try:
        stopper = threading.Thread(target=parallel.stop_kept_worker, daemon=True)
        stopper.start()
        stopper.join(timeout=20)
        assert not stopper.is_alive()
    finally:
        os.write(release_write, b"x")
        os.close(release_write)
        os.waitpid(pid, 0)
