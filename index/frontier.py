"""The crawl frontier, kept in the store so that a killed crawl resumes where it stood.

A crawl is identified by its plan (roots and limits). Running the same plan again while an
earlier run of it is unfinished continues that run: done URLs stay done, queued ones (including
any that were in flight when the process died) are fetched. Each URL is recorded as done in the
same transaction that stores its document, so nothing is fetched-and-stored twice.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from schemas.ecma import utc_now

from .store import Store


@dataclass(frozen=True)
class Task:
    url: str
    kind: str  # "index", or "site" for an origin whose well-known documents are tried in turn
    depth: int


def start_or_resume(store: Store, plan: dict[str, Any], roots: list[Task]) -> tuple[int, bool]:
    """The id of the unfinished crawl with this plan, or of a new one seeded with `roots`."""
    key = json.dumps(plan, sort_keys=True)
    with store.write_transaction():
        row = store.conn.execute(
            "SELECT id FROM crawls WHERE plan = ? AND finished_at IS NULL ORDER BY id DESC LIMIT 1", [key]
        ).fetchone()
        if row:
            return row[0], True
        crawl_id = store.conn.execute("INSERT INTO crawls (plan, started_at) VALUES (?, ?)", [key, utc_now()]).lastrowid
        enqueue(store, crawl_id, roots, via=None, max_depth=None, max_documents=None)
    return crawl_id, False


def enqueue(store: Store, crawl_id: int, tasks: list[Task], via: str | None, max_depth: int | None,
            max_documents: int | None) -> None:
    """Add tasks not seen in this crawl; past the depth or count limit they are recorded as skipped."""
    db = store.conn
    # counters kept on the crawl row: no scan of the queue per document
    seq, admitted = db.execute("SELECT last_seq, admitted FROM crawls WHERE id = ?", [crawl_id]).fetchone()
    rows = []
    fresh: set[str] = set()
    for task in tasks:
        if task.url in fresh or db.execute("SELECT 1 FROM crawl_queue WHERE crawl_id = ? AND url = ?", [crawl_id, task.url]).fetchone():
            continue
        fresh.add(task.url)
        seq += 1
        state, outcome = "queued", None
        if max_depth is not None and task.depth > max_depth:
            state, outcome = "skipped", "depth limit"
        elif max_documents is not None and admitted >= max_documents:
            state, outcome = "skipped", "count limit"
        else:
            admitted += 1
        rows.append((crawl_id, task.url, task.kind, task.depth, via, state, outcome, seq))
    db.executemany(
        """INSERT OR IGNORE INTO crawl_queue (crawl_id, url, kind, depth, via, state, outcome, seq)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
        rows,
    )
    db.execute("UPDATE crawls SET last_seq = ?, admitted = ? WHERE id = ?", [seq, admitted, crawl_id])


def queued(store: Store, crawl_id: int, exclude: set[str], limit: int) -> list[Task]:
    rows = store.conn.execute(
        "SELECT url, kind, depth FROM crawl_queue WHERE crawl_id = ? AND state = 'queued' ORDER BY seq LIMIT ?",
        [crawl_id, limit + len(exclude)],
    ).fetchall()
    return [Task(*r) for r in rows if r[0] not in exclude][:limit]


def settle(store: Store, crawl_id: int, url: str, state: str, outcome: str | None, error: str | None = None) -> None:
    store.conn.execute(
        "UPDATE crawl_queue SET state = ?, outcome = ?, error = ? WHERE crawl_id = ? AND url = ?",
        [state, outcome, error, crawl_id, url],
    )


def finish(store: Store, crawl_id: int) -> None:
    with store.write_transaction():
        store.conn.execute("UPDATE crawls SET finished_at = ? WHERE id = ?", [utc_now(), crawl_id])


def summary(store: Store, crawl_id: int) -> dict[str, Any]:
    db = store.conn
    outcomes = dict(db.execute(
        "SELECT COALESCE(outcome, state), COUNT(*) FROM crawl_queue WHERE crawl_id = ? GROUP BY 1", [crawl_id]
    ).fetchall())
    failures = [
        {"url": url, "error": error}
        for url, error in db.execute(
            "SELECT url, error FROM crawl_queue WHERE crawl_id = ? AND state = 'failed' ORDER BY seq", [crawl_id]
        )
    ]
    queued_left = db.execute(
        "SELECT COUNT(*) FROM crawl_queue WHERE crawl_id = ? AND state = 'queued'", [crawl_id]
    ).fetchone()[0]
    return {"crawl_id": crawl_id, "outcomes": outcomes, "failures": failures, "queued": queued_left}
