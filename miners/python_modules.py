"""Which file a Python import names, in assembly where every file's facts are known: the index of
dotted module names to files, and relative imports made absolute (shared by the resolvers that
follow a name into another module: resource_routes.py, viewset_routes.py, mounts.py,
deferred_paths.py), and a name followed through the re-exports of a package's `__init__`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from .facts import FileFacts

T = TypeVar("T")
_HOPS = 4  # re-exports followed at most (a package re-exporting a package's re-export...)


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


def find_through_reexports(facts: dict[str, FileFacts], modules: dict[str, str], dotted: str,
                           lookup: Callable[[str, str], T | None], hops: int = _HOPS) -> T | None:
    """What `lookup(file, name)` finds of what `pkg.mod.Name` stands for: defined in pkg/mod.py
    (or pkg/mod/__init__.py), or re-exported there from where it is defined (by name, or by a
    local `from .x import *`)."""
    module, _, name = dotted.rpartition(".")
    path = modules.get(module)
    if path is None or not name:
        return None
    found = lookup(path, name)
    if found is not None or hops == 0:
        return found
    for bound, source in facts[path].module.reexports:  # (name, the module it is imported from)
        if bound == name and source:
            there = facts[path].module.renamed.get(name, name)  # (`from .system import router as system_router`)
            return find_through_reexports(facts, modules, absolute(f"{source}.{there}", path), lookup, hops - 1)
    for source in facts[path].module.export_all_from:  # `from .transaction import *` in a package's __init__
        found = find_through_reexports(facts, modules, absolute(f"{source}.{name}", path), lookup, hops - 1)
        if found is not None:
            return found
    return None
