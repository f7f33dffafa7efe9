"""Routes registered on a FastAPI router another module of the package makes: a package that splits
one router's endpoints over several files,

    api/threads/__init__.py:   router = APIRouter(prefix="/threads")
    api/threads/create.py:     from komus_tasks_server.api.threads import router
                               @router.post("")                       POST /threads

serves them under the prefix that router was made with, wherever it is then included
(miners/mounts.py mounts it after). The file that makes the router is found among the tree's
Python modules and parsed; only a literal `prefix=` of an `APIRouter(...)` assigned at its module
level counts. A router from outside the tree, or made otherwise, leaves the routes as they are.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from . import parsing
from .facts import FileFacts, ParsedFile
from .mounts import join
from .python_modules import absolute, module_files
from .surfaces import _assigned, py_args, py_string


def apply_imported_router_prefixes(facts: dict[str, FileFacts], read: Callable[[str], bytes]) -> None:
    """Serve, in place, routes on a router another module makes under that router's own prefix."""
    modules: dict[str, str] | None = None
    known: dict[tuple[str, str], str] = {}  # (file, router name) -> its prefix ("" for none)
    for path, f in facts.items():
        if f.language != "python" or not any(s.kind == "http-route" and s.detail.get("receiver_from")
                                             and not s.detail.get("prefix") for s in f.surfaces):
            continue
        modules = modules if modules is not None else module_files(facts)
        surfaces = []
        for s in f.surfaces:
            dotted = s.detail.get("receiver_from") if s.kind == "http-route" and not s.detail.get("prefix") else None
            module, _, name = absolute(dotted, path).rpartition(".") if dotted else ("", "", "")
            there = modules.get(module)
            prefix = _router_prefix(there, name, read, known) if there is not None and there != path else ""
            if prefix:
                method, _, rest = s.name.partition(" ")
                full = join(prefix, rest) if rest.strip("/") else prefix
                s = replace(s, name=f"{method} {full}", detail={**s.detail, "path": full, "prefix": prefix})
            surfaces.append(s)
        f.surfaces = surfaces


def _router_prefix(path: str, name: str, read: Callable[[str], bytes], known: dict[tuple[str, str], str]) -> str:
    """The literal prefix of the `name = APIRouter(prefix=...)` at the module level of `path`, or ""."""
    if (path, name) in known:
        return known[path, name]
    known[path, name] = ""
    data = read(path)
    if name.encode() not in data or b"APIRouter" not in data:
        return ""
    try:
        parsed = ParsedFile(path, "python", data, parsing.parse("python", data))
    except parsing.ParseTimeout:
        return ""
    made = _assigned(parsed, parsed.tree.root_node, name, None)
    if made is None or made.type != "call" or \
            parsed.text(made.child_by_field_name("function")).rpartition(".")[2] != "APIRouter":
        return ""
    given = py_args(made.child_by_field_name("arguments"))[1].get("prefix")
    prefix = py_string(parsed, given) if given is not None else None
    if prefix and prefix.startswith("/"):
        known[path, name] = prefix.rstrip("/")
    return known[path, name]
