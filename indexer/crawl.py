"""Crawl federated capability indexes and /.well-known/capabilities sites into the store.

Fetching is concurrent (asyncio, one guarded client). On two or more cores a worker process
(worker.py) fetches, parses and validates, while this process keeps the frontier and writes:
serially, on the event loop's own thread, since each write is about a millisecond and a writer
thread would only contend with the loop for the GIL. Every URL is settled in the frontier in the same transaction
as its document, so a crawl killed at any moment and run again finishes the job. A bad or
unreachable document is recorded as its source's last error and the crawl goes on.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from index import frontier
from index.frontier import Task
from index.sources import IngestResult, document_links, origin_of
from index.store import Store
from schemas.ecma import iso_utc, utc_now
from schemas.errors import DocumentError

from .balance import IdleTimingSelector, ParseBalancer, timed_event_loop
from .fetching import FetchFailure, Limits, Response
from .urls import UrlError, normalize_url, site_documents
from .worker import Worker
from .worker_process import worker_wanted

if TYPE_CHECKING:
    from index.prepared import PreparedDocument

GROUP_DOCUMENTS = 50  # documents per commit
GROUP_SECONDS = 0.5  # and no group older than this: what is settled becomes durable soon
INITIAL_LOCAL_SHARE = 0.5  # of the first documents, parsed here (the balancer then takes over)


@dataclass(frozen=True)
class CrawlOptions:
    max_depth: int = 4
    max_indexes: int = 1000
    accept_rollback: bool = False
    revalidate: bool = False  # ask the server even while its last answer is still fresh
    limits: Limits = field(default_factory=Limits)
    worker: bool = True  # fetch and parse in a worker process when there is a second core


@dataclass
class CrawlSummary:
    crawl_id: int
    resumed: bool
    seconds: float
    documents: int  # fetched this run, including 304s and failures
    outcomes: dict[str, int]
    failures: list[dict[str, str]]
    flags: list[str]
    conflicts: list[str]
    queued: int

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class Crawler:
    def __init__(self, db_path: str | Path, options: CrawlOptions,
                 on_progress: Callable[[dict[str, int]], None] | None = None):
        self.db_path = db_path
        self.options = options
        self.on_progress = on_progress
        self._store: Store | None = None
        self._group_started: float | None = None
        self._client: Any = None
        self._worker: Worker | None = None
        self.balance = ParseBalancer()  # (given the event loop's selector in run())
        self._group_size = 0
        self.counts = {"fetched": 0, "failed": 0, "queued": 0}
        self.flags: list[str] = []
        self.conflicts: list[str] = []

    def _open(self) -> None:
        self._store = Store(self.db_path)
        # savepoint journals of documents capped at --max-bytes: keep them off the disk
        self._store.conn.execute("PRAGMA temp_store = MEMORY")

    def _close(self) -> None:
        if self._store is not None:
            self._store.commit_group()
            self._store.close()

    def _grouped(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run a write inside the current commit group; commit the group once
        it holds GROUP_DOCUMENTS documents or is GROUP_SECONDS old."""
        if self._group_started is None or not self.store.in_group:  # (a failed write may have rolled it back)
            self.store.begin_group()
            self._group_started, self._group_size = time.monotonic(), 0
        try:
            return fn(*args)
        finally:
            self._group_size += 1
            if self._group_size >= GROUP_DOCUMENTS or time.monotonic() - self._group_started >= GROUP_SECONDS:
                self._commit_group()

    def _commit_group(self) -> None:
        self.store.commit_group()
        self._group_started = None

    @property
    def store(self) -> Store:
        assert self._store is not None
        return self._store

    async def run(self, index_urls: list[str], site_origins: list[str]) -> CrawlSummary:
        started = time.monotonic()
        selector = getattr(asyncio.get_running_loop(), "_selector", None)
        if isinstance(selector, IdleTimingSelector):
            self.balance = ParseBalancer(selector)
        roots = [Task(normalize_url(u), "index", 0) for u in index_urls]
        roots += [Task(site_documents(o)[0], "site", 0) for o in site_origins]
        plan = {
            "roots": sorted({(t.kind, t.url) for t in roots}),
            "max_depth": self.options.max_depth,
            "max_indexes": self.options.max_indexes,
        }
        self._start_worker()
        if self._worker is not None:
            await self._worker.connect(self.options.limits)
        self._open()
        try:
            crawl_id, resumed = frontier.start_or_resume(self.store, plan, roots)
            self.crawl_id = crawl_id
            try:
                await self._drain()
            finally:
                if self._client is not None:
                    await self._client.aclose()
            self._commit_group()
            report = frontier.summary(self.store, crawl_id)
            if report["queued"] == 0:
                frontier.finish(self.store, crawl_id)
        finally:
            self._close()
            if self._worker is not None:
                await self._worker.aclose()
        return CrawlSummary(crawl_id, resumed, time.monotonic() - started, self.counts["fetched"],
                            report["outcomes"], report["failures"], self.flags, self.conflicts, report["queued"])

    async def _drain(self) -> None:
        in_flight: dict[asyncio.Task[None], str] = {}
        finished: list[asyncio.Task[None]] = []
        wake = asyncio.Event()

        def on_done(task: asyncio.Task[None]) -> None:
            finished.append(task)
            wake.set()

        slots = self.options.limits.concurrency
        # fresh documents can only be ones stored before this crawl (the queue never repeats a URL)
        fresh_possible = not self.options.revalidate and self._any_fresh()
        preloaded = False
        while True:
            if fresh_possible:
                self._settle_fresh()
            if len(in_flight) < slots:
                for task in frontier.queued(self.store, self.crawl_id, set(in_flight.values()),
                                            slots - len(in_flight)):
                    running = asyncio.create_task(self._process(task))
                    running.add_done_callback(on_done)
                    in_flight[running] = task.url
                    if not preloaded and self._worker is not None:
                        # runs once the first requests are out, while the worker answers them
                        asyncio.get_running_loop().call_soon(self._preload_parser)
                        preloaded = True
            if not in_flight:
                self._commit_group()
                return
            await wake.wait()
            wake.clear()
            done, finished[:] = list(finished), []
            for running in done:
                del in_flight[running]
                if running.exception() is not None:  # not a bad document (those are recorded): stop cleanly
                    for other in in_flight:
                        other.cancel()
                    await asyncio.gather(*in_flight, return_exceptions=True)
                    running.result()
            if self.on_progress:
                self.counts["queued"] = self._queued_count()
                self.on_progress(dict(self.counts))

    def _preload_parser(self) -> None:
        """Load the parser and the models here too, so this process can share the parsing from the
        first documents on: they come in a burst while the tree of indexes widens."""
        import index.package_stream  # noqa: F401

        self.balance.local_share = max(self.balance.local_share, INITIAL_LOCAL_SHARE)

    def _any_fresh(self) -> bool:
        return self.store.conn.execute(
            """SELECT 1 FROM sources WHERE fresh_until > ? AND current_document_id IS NOT NULL
               AND last_status = 'ok' LIMIT 1""", [utc_now()]).fetchone() is not None

    def _queued_count(self) -> int:
        return self.store.conn.execute(
            "SELECT COUNT(*) FROM crawl_queue WHERE crawl_id = ? AND state = 'queued'", [self.crawl_id]
        ).fetchone()[0]

    def _start_worker(self) -> None:
        """Forked first thing, before any thread exists, so the fork is clean (unless the console
        script started it earlier still)."""
        if not self.options.worker or not worker_wanted():
            return
        self._worker = Worker()
        self._worker.start()

    async def _fetch(self, url: str, kind: str, etag: str | None,
                     last_modified: str | None) -> tuple[Response, PreparedDocument | DocumentError | None]:
        """The response and, when the worker did it, the document prepared (else the writer prepares it)."""
        if self._worker is not None:
            response, prepared, worker_cpu = await self._worker.fetch(
                url, etag, last_modified, prepare=None if self.balance.parse_here() else kind)
            self.balance.worker_cpu(worker_cpu)
            return response, prepared
        if self._client is None:  # the HTTP stack loads only when a crawl has something to fetch
            from .client import GuardedClient

            self._client = GuardedClient(self.options.limits)
        return await self._client.fetch(url, etag, last_modified), None

    # -- one task ------------------------------------------------------------------------------

    async def _process(self, task: Task) -> None:
        if task.kind == "site":
            await self._process_site(task)
            return
        self.counts["fetched"] += 1
        try:
            validators = self._validators(task.url)
            response, prepared = await self._fetch(task.url, "index", *validators)
        except FetchFailure as exc:
            self.counts["failed"] += 1
            self._grouped(self._fail, task, task.url, str(exc))
            return
        if response.status == 304:
            self._grouped(self._not_modified, task, response)
            return
        error = self._grouped(self._ingest, task, task.url, response, "index", prepared)
        if error:
            self.counts["failed"] += 1

    async def _process_site(self, task: Task) -> None:
        """Try /.well-known/capabilities, then /.well-known/capabilities.json: the first valid one wins."""
        reasons = []
        for url in site_documents(task.url):
            self.counts["fetched"] += 1
            try:
                validators = self._validators(url)
                response, prepared = await self._fetch(url, "site", *validators)
            except FetchFailure as exc:
                reasons.append(f"{url}: {exc}")
                self._grouped(self._record_error, url, str(exc))
                continue
            if response.status == 304:
                self._grouped(self._not_modified, task, response, url)
                return
            error = self._grouped(self._ingest, task, url, response, "site", prepared)
            if error is None:
                return
            reasons.append(f"{url}: {error}")
        self.counts["failed"] += 1
        self._grouped(self._settle_failed, task, "; ".join(reasons))

    # -- writes (each document's own transaction, within a commit group) --------------------------------------------------------------------

    def _settle_fresh(self) -> None:
        """Settle, in bulk and without a request, every queued index whose stored copy the server
        said is still fresh; what they federate to joins the queue (and may be fresh too)."""
        now = utc_now()
        query = """SELECT q.url, q.depth, s.current_document_id FROM crawl_queue q JOIN sources s ON s.url = q.url
                   WHERE q.crawl_id = ? AND q.state = 'queued' AND q.kind = 'index'
                   AND s.fresh_until > ? AND s.current_document_id IS NOT NULL AND s.last_status = 'ok'
                   LIMIT 500"""
        while self.store.conn.execute(query, [self.crawl_id, now]).fetchone():  # a read: usually nothing to do
            with self.store.write_transaction():
                rows = self.store.conn.execute(query, [self.crawl_id, now]).fetchall()
                for url, depth, document_id in rows:
                    result = IngestResult(url, "index", "fresh", document_id, links=document_links(self.store, document_id))
                    self._advance(Task(url, "index", depth), result, "index")

    def _validators(self, url: str) -> tuple[str | None, str | None]:
        row = self.store.conn.execute(
            "SELECT etag, last_modified FROM sources WHERE url = ? AND current_document_id IS NOT NULL", [url]
        ).fetchone()
        return (row[0], row[1]) if row else (None, None)

    def _children(self, task: Task, links: list[str], kind_of_parent: str) -> list[Task]:
        depth = task.depth if kind_of_parent == "site" else task.depth + 1
        children = []
        for link in links:
            try:
                children.append(Task(normalize_url(link), "index", depth))
            except UrlError:
                continue  # validated documents hold only absolute http(s) links
        return children

    def _advance(self, task: Task, result: IngestResult, kind: str) -> None:
        """Inside the document's transaction: queue what it links to and settle its task."""
        frontier.enqueue(self.store, self.crawl_id, self._children(task, result.links, kind), task.url,
                         self.options.max_depth, self.options.max_indexes)
        frontier.settle(self.store, self.crawl_id, task.url, "done", result.status)
        self.flags += result.flags
        self.conflicts += result.conflicts

    def _ingest(self, task: Task, url: str, response: Response, kind: str,
                prepared: PreparedDocument | DocumentError | None = None) -> str | None:
        from index.ingest import ingest_file  # validation models load only when a document arrives

        assert response.body is not None
        try:
            if isinstance(prepared, DocumentError):
                response.body.close()
                raise prepared
            with response.body:
                ingest_file(
                    self.store, response.body, url, fetched_at=utc_now(), via=task.url if url != task.url else None,
                    etag=response.etag, last_modified=response.last_modified, fresh_until=_fresh_until(response),
                    expect=kind,
                    accept_rollback=self.options.accept_rollback,
                    then=lambda result: self._advance(task, result, kind), prepared=prepared,
                )
        except DocumentError as exc:
            reason = "; ".join(exc.problems[:3])
            if kind == "site":
                self._record_error(url, reason)
            else:
                self._fail(task, url, reason)
            return reason
        return None

    def _not_modified(self, task: Task, response: Response, url: str | None = None) -> None:
        url = url or task.url
        with self.store.write_transaction():
            row = self.store.conn.execute(
                "SELECT kind, current_document_id, fresh_until FROM sources WHERE url = ?", [url]
            ).fetchone()
            fresh_until = _fresh_until(response)
            if fresh_until != row[2]:
                self.store.conn.execute("UPDATE sources SET fresh_until = ? WHERE url = ?", [fresh_until, url])
            result = IngestResult(url, row[0], "not modified", row[1], links=document_links(self.store, row[1]))
            self._advance(task, result, row[0])

    def _record_error(self, url: str, reason: str) -> None:
        with self.store.write_transaction():
            self._source_error(url, reason)

    def _source_error(self, url: str, reason: str) -> None:
        self.store.conn.execute(
            """INSERT INTO sources (url, origin, kind, last_status, last_error, fetched_at) VALUES (?, ?, 'index', 'error', ?, ?)
               ON CONFLICT (url) DO UPDATE SET last_status = 'error', last_error = excluded.last_error,
               fetched_at = excluded.fetched_at""",
            [url, origin_of(url), reason, utc_now()],
        )

    def _fail(self, task: Task, url: str, reason: str) -> None:
        with self.store.write_transaction():
            self._source_error(url, reason)
            frontier.settle(self.store, self.crawl_id, task.url, "failed", "failed", reason)

    def _settle_failed(self, task: Task, reason: str) -> None:
        with self.store.write_transaction():
            frontier.settle(self.store, self.crawl_id, task.url, "failed", "failed", reason)


def _fresh_until(response: Response) -> str | None:
    if response.fresh_for <= 0:
        return None
    return iso_utc(datetime.now(timezone.utc) + timedelta(seconds=response.fresh_for))


def crawl(db_path: str | Path, index_urls: list[str], site_origins: list[str], options: CrawlOptions,
          on_progress: Callable[[dict[str, int]], None] | None = None) -> CrawlSummary:
    """Crawl from index roots and site origins until the frontier is empty or the limits are hit."""
    with asyncio.Runner(loop_factory=timed_event_loop) as runner:
        return runner.run(Crawler(db_path, options, on_progress).run(index_urls, site_origins))
