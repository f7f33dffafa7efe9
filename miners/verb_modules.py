"""Routes of a folder of modules named for their paths, each exporting its methods' handlers: a
server that walks the folder (`fs.readdirSync`) and serves `src/www/api/user/account.js`, whose
`module.exports = { get: async (req) => ... }`, as `GET /api/user/account` (@userdashboard/dashboard;
the same convention as express-file-routing's or a Next.js-like router of one's own).

Two things make it a route, found in different files: code of the package reads a folder its
string literal names (`path.join(root, '/src/www')`), and at least MIN_MODULES modules there
export no function but HTTP verbs' handlers (and `before`/`after` hooks; a setting beside
them, `auth: false`, is data). The path is the module's
place in the folder, without its extension, `index` naming its folder. A module that exports
anything else is no route, and nothing is said of the folder's other files.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

from .facts import FileFacts, Surface
from .surfaces import HTTP_VERBS

MIN_MODULES = 3
_HOOKS = frozenset({"before", "after"})
_READS = ("readdir", "readdirSync")
_SOURCE = (".js", ".cjs", ".mjs", ".ts")
_LITERAL = re.compile(rb"""['"`](\.{0,2}/?[\w@.-]+(?:/[\w@.-]+)*)/?['"`]""")


def add_verb_module_routes(facts: dict[str, FileFacts], read: Callable[[str], bytes]) -> None:
    readers = [path for path, f in facts.items() if path.endswith(_SOURCE) and
               any(hit.call.rsplit(".", 1)[-1] in _READS for hit in f.effects)]
    if not readers:
        return
    dirs = {parent for path in facts for parent in _parents(path)}
    folders: dict[str, list[str]] = {}  # folder -> its verb modules
    for path in readers:
        for folder in _named_folders(path, read(path), dirs):
            if folder not in folders:
                folders[folder] = [p for p in facts if p.startswith(f"{folder}/") and _verb_module(facts[p])]
    for folder, modules in folders.items():
        if len(modules) < MIN_MODULES or any(other.startswith(f"{folder}/") for other in folders
                                             if len(folders[other]) >= MIN_MODULES):
            continue  # (too few to be the convention; or the folder holds the one named: `src`, `src/www`)
        for path in modules:
            f = facts[path]
            rel = path[len(folder) + 1:].rsplit(".", 1)[0]
            rel = "" if rel == "index" else rel.removesuffix("/index")
            route = "/" + rel
            for verb in HTTP_VERBS:
                if verb in f.module.names:
                    symbol = next((s for s in f.symbols if s.name == verb and s.container is None), None)
                    line, end = (symbol.line, symbol.end_line) if symbol else (1, 1)
                    f.surfaces.append(Surface(
                        kind="http-route", name=f"{verb.upper()} {route}", line=line, end_line=end,
                        framework="file-modules", handler=verb, description=symbol.doc if symbol else "",
                        detail={"method": verb.upper(), "path": route, "file_route": True, "read_from": folder}))


def _named_folders(path: str, source: bytes, dirs: set[str]) -> set[str]:
    """The folders of the tree a file's string literals name, from the root or from its own folder."""
    here = posixpath.dirname(path)
    out = set()
    for m in _LITERAL.finditer(source):
        literal = m[1].decode("utf-8", "replace")
        for base in ("", here):
            folder = posixpath.normpath(posixpath.join(base, literal.lstrip("/") if not base else literal))
            if folder in dirs:
                out.add(folder)
    return out


def _parents(path: str) -> list[str]:
    parts = path.split("/")[:-1]
    return ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]


def _verb_module(f: FileFacts) -> bool:
    """Whether a module exports verbs' handlers and no other function (a setting beside them,
    `auth: false`, is data)."""
    names = set(f.module.names or ())
    functions = {s.name for s in f.symbols if s.container is None and s.kind in ("function", "class")}
    return not f.path.endswith(".test.js") and any(verb in names for verb in HTTP_VERBS) and \
        (names & functions) <= {*HTTP_VERBS, *_HOOKS}
