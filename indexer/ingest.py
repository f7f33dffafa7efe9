"""Ingest documents named on the command line: files, directories of files, or http(s) URLs."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from index.ingest import IngestResult, ingest_file
from index.store import Store
from schemas.errors import DocumentError

from .fetching import FetchError, Limits


@dataclass
class IngestFailure:
    location: str
    error: str

    def as_dict(self) -> dict[str, str]:
        return {"location": self.location, "error": self.error}


def expand_locations(locations: Iterable[str]) -> Iterator[str]:
    """URLs as given; a directory becomes its *.json files and .well-known/capabilities, sorted."""
    for location in locations:
        if urlsplit(location).scheme in ("http", "https"):
            yield location
            continue
        path = Path(location)
        if path.is_dir():
            found = [p for p in path.rglob("*") if p.is_file() and (p.suffix == ".json" or p.name == "capabilities")]
            yield from (str(p) for p in sorted(found))
        else:
            yield location


def ingest_location(store: Store, location: str, accept_rollback: bool = False,
                    limits: Limits | None = None) -> IngestResult:
    """Ingest one file (streamed from disk) or http(s) URL (through the crawler's guarded client,
    address policy included)."""
    if urlsplit(location).scheme in ("http", "https"):
        from .client import fetch_once

        fp = fetch_once(location, limits)
    else:
        try:
            fp = open(location, "rb")
        except OSError as exc:
            raise FetchError(f"{location}: cannot read ({exc.strerror or exc})") from None
    with fp:
        return ingest_file(store, fp, location, via="ingest", accept_rollback=accept_rollback)


def ingest_locations(
    store: Store, locations: list[str], on_done: Callable[[IngestResult | IngestFailure], None] | None = None,
    accept_rollback: bool = False, limits: Limits | None = None,
) -> tuple[list[IngestResult], list[IngestFailure]]:
    """Ingest every document; a bad one is reported and skipped, never stops the others. A document
    that integrity over time refused (older than what the store holds) counts as a failure."""
    results: list[IngestResult] = []
    failures: list[IngestFailure] = []
    for location in locations:
        outcome: IngestResult | IngestFailure
        try:
            result = ingest_location(store, location, accept_rollback, limits)
            if result.status == "rejected":
                outcome = IngestFailure(location, "not applied: " + "; ".join(result.flags))
                failures.append(outcome)
            else:
                outcome = result
                results.append(result)
        except DocumentError as exc:
            outcome = IngestFailure(location, "; ".join(exc.problems[:3]) + (" ..." if len(exc.problems) > 3 else ""))
            failures.append(outcome)
        except FetchError as exc:
            outcome = IngestFailure(location, str(exc).removeprefix(f"{location}: "))
            failures.append(outcome)
        if on_done:
            on_done(outcome)
    return results, failures
