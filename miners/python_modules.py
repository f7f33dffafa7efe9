"""Which file a Python import names, in assembly where every file's facts are known: the index of
dotted module names to files, and relative imports made absolute (shared by the resolvers that
follow a name into another module: resource_routes.py, mounts.py, deferred_paths.py)."""

from __future__ import annotations

from .facts import FileFacts


def module_files(facts: dict[str, FileFacts]) -> dict[str, str]:
    """Dotted module name -> its file, for every Python file (`a/b/__init__.py` is `a.b`; a file
    under `src/` is known by its name with and without that directory)."""
    out: dict[str, str] = {}
    for path, f in facts.items():
        if f.language != "python" or not path.endswith(".py"):
            continue
        parts = path[:-3].split("/")
        if parts[-1] == "__init__":
            parts.pop()
        for start in range(len(parts)):
            out.setdefault(".".join(parts[start:]), path)
    return out


def absolute(dotted: str, importer: str) -> str:
    """`.api.Watch` imported by `pkg/app.py` is `pkg.api.Watch` (one dot: the importer's package)."""
    if not dotted.startswith("."):
        return dotted
    level = len(dotted) - len(dotted.lstrip("."))
    package = importer.split("/")[:-1]
    if level > 1:
        package = package[:len(package) - (level - 1)]
    rest = dotted[level:]
    return ".".join([*package, rest] if rest else package)
