"""A progress bar on a terminal, silence elsewhere."""

from __future__ import annotations

import sys

import typer

# rich loads only when a bar is drawn: --json and pipes never pay for it


class Progress:
    """Counts done and failed items; draws on stderr only when it is a terminal."""

    def __init__(self, label: str, total: int, enabled: bool = True):
        self.label = label
        self.total = total
        self.failed = 0
        self._rich = None
        if enabled and sys.stderr.isatty() and total > 1:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
            from rich.progress import Progress as RichProgress

            self._rich = RichProgress(
                TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                TextColumn("{task.fields[failed]} failed"), TimeElapsedColumn(),
                console=Console(stderr=True), transient=True,
            )

    def __enter__(self) -> Progress:
        if self._rich is not None:
            self._rich.start()
            self._task = self._rich.add_task(self.label, total=self.total, failed=0)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._rich is not None:
            self._rich.stop()

    def advance(self, failed: bool = False) -> None:
        self.failed += failed
        if self._rich is not None:
            self._rich.update(self._task, advance=1, failed=self.failed)

    def echo(self, text: str, err: bool = False) -> None:
        if self._rich is not None:
            self._rich.console.print(text, markup=False, highlight=False, style=None) if err else typer.echo(text)
        else:
            typer.echo(text, err=err)


class CrawlProgress:
    """Documents fetched, failed and queued, on stderr when it is a terminal."""

    def __init__(self, enabled: bool = True):
        self._rich = None
        if enabled and sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import Progress as RichProgress
            from rich.progress import TextColumn, TimeElapsedColumn

            self._rich = RichProgress(
                TextColumn("crawl"), TextColumn("{task.fields[fetched]} fetched"),
                TextColumn("{task.fields[failed]} failed"), TextColumn("{task.fields[queued]} queued"),
                TimeElapsedColumn(), console=Console(stderr=True), transient=True,
            )

    def __enter__(self) -> CrawlProgress:
        if self._rich is not None:
            self._rich.start()
            self._task = self._rich.add_task("crawl", total=None, fetched=0, failed=0, queued=0)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._rich is not None:
            self._rich.stop()

    def update(self, counts: dict[str, int]) -> None:
        if self._rich is not None:
            self._rich.update(self._task, **counts)


class BytesProgress:
    """A bar over bytes whose total is known only once the work starts (`capindex mine`: the
    source bytes to analyse), on stderr when it is a terminal. Call it with (done, total)."""

    def __init__(self, label: str, enabled: bool = True):
        self.label = label
        self._rich = None
        self._task = None
        self._enabled = enabled and sys.stderr.isatty()

    def __enter__(self) -> BytesProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._rich is not None:
            self._rich.stop()

    def __call__(self, done: int, total: int) -> None:
        if not self._enabled:
            return
        if self._rich is None:
            from rich.console import Console
            from rich.progress import BarColumn, DownloadColumn, TextColumn, TimeElapsedColumn
            from rich.progress import Progress as RichProgress

            self._rich = RichProgress(TextColumn(self.label), BarColumn(), DownloadColumn(), TimeElapsedColumn(),
                                      console=Console(stderr=True), transient=True)
            self._rich.start()
            self._task = self._rich.add_task(self.label, total=total)
        self._rich.update(self._task, completed=done, total=total)
