"""miners/parallel.py: the parent and one forked child share the files; results come back in order,
and a file that kills the child is skipped with the reason, not fatal."""

from __future__ import annotations

import os
import signal
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


def test_two_processes_give_the_serial_result_in_order():
    items = _items(40, 8 * 1024)
    assert sum(size for _, _, size in items) >= PARALLEL_FROM

    def tagged(path: str, language: str, data: bytes):
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
    taken = tmp_path / "boom-taken"
    SOURCES["slow.py"], SOURCES["boom.py"] = b"x = 1\n" * (CHUNK_BYTES // 6 + 1), b"y = 2\n"
    items = [("slow.py", "python", len(SOURCES["slow.py"])), ("boom.py", "python", 6), *_items(12, 8 * 1024)]

    def fragile(path: str, language: str, data: bytes):
        if os.getpid() == parent:
            # the parent holds its first chunk until the child has taken boom.py (the smallest file, so
            # in the last chunk), however loaded the machine: boom.py can only be the child's
            deadline = time.monotonic() + 60
            while not taken.exists() and time.monotonic() < deadline:
                time.sleep(0.01)
        if path == "boom.py" and os.getpid() != parent:
            taken.touch()
            os.kill(os.getpid(), signal.SIGKILL)  # as a segfault would, without faulthandler output
        return f"ok {len(data)}"

    results = dict(analyse_all(items, read, fragile, workers=2))
    assert results["boom.py"] == "analysis crashed its process (SIGKILL)"
    assert all(results[p] == f"ok {size}" for p, _, size in items if p != "boom.py")
    assert len(results) == len(items)


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
