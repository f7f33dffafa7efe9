"""What the benchmarks share: running the real CLI in a child process and measuring it, and
describing the machine and the code measured."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def capindex_command() -> list[str]:
    exe = Path(sys.executable).with_name("capindex")
    if exe.exists():
        return [str(exe)]
    return [sys.executable, "-m", "indexer.cli"]


def run_child(args: list[str], log: Path, check: bool = True) -> dict[str, Any]:
    """Run one child; wall seconds, its own peak RSS (os.wait4 rusage of exactly this pid), stdout."""
    out_path = log.with_suffix(".out")
    with open(out_path, "wb") as out, open(log, "wb") as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(args, stdout=out, stderr=err, cwd=ROOT)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here; keep Popen from waiting again
    stdout = out_path.read_text()
    if check and proc.returncode != 0:
        raise SystemExit(f"bench: {' '.join(args)} exited {proc.returncode}; see {log}:\n"
                         f"{log.read_text()[-1500:]}\n{stdout[-1500:]}")
    return {
        "seconds": seconds,
        "peak_rss_bytes": usage.ru_maxrss * 1024,  # Linux reports KiB
        "user_seconds": usage.ru_utime,
        "system_seconds": usage.ru_stime,
        "returncode": proc.returncode,
        "stdout": stdout,
    }


def helper(script: str, argv: list[str]) -> dict[str, Any]:
    """Run `script` in a child (keeps the measuring parent small); returns its JSON answer."""
    proc = subprocess.run([sys.executable, str(Path(script).resolve()), *argv], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"bench: helper {argv[0]} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout)


def remove_db(db: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(str(db) + suffix).unlink(missing_ok=True)


def machine() -> dict[str, Any]:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem = int(line.split()[1]) * 1024
    except OSError:
        pass
    import sqlite3

    return {
        "nproc": os.cpu_count(),
        "cpu_model": cpu,
        "memory_bytes": mem,
        "python": platform.python_version(),
        "python_implementation": platform.python_implementation(),
        "sqlite": sqlite3.sqlite_version,
        "platform": platform.platform(),
    }


def code_version() -> dict[str, Any]:
    """The commit measured, and which library files differed from it (read-only git commands)."""
    def git(*a: str) -> str:
        try:
            return subprocess.run(["git", *a], cwd=ROOT, capture_output=True, text=True, timeout=10,
                                  check=False).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""

    changed = git("status", "--porcelain", "--", "index", "indexer", "schemas")
    return {"commit": git("rev-parse", "--short", "HEAD") or None,
            "uncommitted_library_files": [line[3:] for line in changed.splitlines()]}


def mb(n: float) -> float:
    return n / 1_000_000
