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


def _items(count: int, size: int) -> list[tuple[str, str, bytes]]:
    return [(f"m{i}.py", "python", (f"def f{i}(x):\n    return open(x).read()\n" * (size // 40)).encode())
            for i in range(count)]


def test_two_processes_give_the_serial_result_in_order():
    items = _items(40, 8 * 1024)
    assert sum(len(d) for _, _, d in items) >= PARALLEL_FROM

    def tagged(path: str, language: str, data: bytes):
        return os.getpid(), analyse(path, language, data)

    both = analyse_all(items, tagged, workers=2)
    serial = analyse_all(items, analyse, workers=1)
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

    assert analyse_all(items, tagged, workers=2) == [(p, len(d)) for p, _, d in items]
    assert seen == {os.getpid()}


def test_a_file_that_kills_the_child_is_skipped_and_the_rest_analysed():
    parent = os.getpid()
    # chunk 0 is one big file, so the parent is busy with it while the child takes chunk 1
    items = [("slow.py", "python", b"x = 1\n" * (CHUNK_BYTES // 6 + 1)),
             ("boom.py", "python", b"y = 2\n"), *_items(12, 8 * 1024)]

    def fragile(path: str, language: str, data: bytes):
        if os.getpid() == parent and path == "slow.py":
            time.sleep(0.5)
        if path == "boom.py" and os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)  # as a segfault would, without faulthandler output
        return f"ok {len(data)}"

    results = dict(analyse_all(items, fragile, workers=2))
    assert results["boom.py"] == "analysis crashed its process (SIGKILL)"
    assert all(results[p] == f"ok {len(d)}" for p, _, d in items if p != "boom.py")
    assert len(results) == len(items)


def test_chunks_are_bounded_and_keep_every_item():
    items = _items(30, 10 * 1024)
    chunks = parallel.chunked(items)
    assert [i for c in chunks for i in c] == items
    assert all(sum(len(d) for _, _, d in c[:-1]) < CHUNK_BYTES for c in chunks)
