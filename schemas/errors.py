"""Errors a user can cause and fix. Kept free of heavy imports: every command loads this."""

from __future__ import annotations


class CapindexError(Exception):
    """Bad input or an unusable resource: the CLI prints it as one line and exits 1."""


class DocumentError(CapindexError, ValueError):
    """A document that is not JSON or breaks its format's rules; `problems` lists each as 'path: rule'."""

    def __init__(self, where: str, problems: list[str]):
        self.where = where
        self.problems = problems
        first = problems[0] if problems else "invalid"
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        super().__init__(f"{where}: {first}{more}")

    def __reduce__(self):  # crosses process boundaries (the parsing helper) intact
        return (DocumentError, (self.where, self.problems))
