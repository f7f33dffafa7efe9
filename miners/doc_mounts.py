"""Routes served under the prefix the documentation writes them under, when the code leaves the
mount to whoever runs it: a reusable Django app's `urls.py` that its README tells you to include at
`path('auth/', ...)` and then lists as `/auth/login/`; a Tornado app whose handlers say `/api/users`
and whose docs, like its clients, call `/hub/api/users` (the prefix comes from a setting).

The code's paths are right but incomplete, and what a caller needs is the documented one. So when
the documentation names the routes of one file under one prefix (two of them at least, and at
least twice as many as it names bare or under any other prefix), every route of that file is
served under it, with the line that shows it as evidence and a note that the prefix is the
documentation's, not the code's. A route the docs name as the code writes it keeps its path.

A Django app's README that shows the include itself, `path("api/v1/", include("catalogue_server.api_urls"))`,
says outright where that module's routes go: they are served there whatever the votes say (its
`products/` is not the bare `/products/` the same README names as the other module's mount). So
does a FastAPI (or Flask) README that mounts a router one of the package's functions makes,
`comment_router = create_comment_router(...)` then `app.include_router(comment_router,
prefix="/api/comments")`: the routes registered in that function go there.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from typing import Any

from .declared_routes import route_key
from .documented_routes import HISTORY, SERVER, documented_paths, path_pattern, paths_by_segment
from .mounts import join
from .python_modules import module_files

DOCUMENTED_MOUNT = ("served under {prefix} as the documentation writes it ({where}:{line}); the code leaves the "
                    "mount to the application or deployment that serves it")
_NOT_A_PREFIX = re.compile(r"[^\w{}<>:.~@$+=!%,/-]|^/path/to(?:/|$)")  # what a mount's path cannot hold
# (prose, a glob; `/path/to/embetty-server`, the docs' placeholder for wherever a deployment puts it)


# `path("api/v1/", include("catalogue_server.api_urls"))`, `url(r'^auth/', include('authkit.urls'))`
_INCLUDE = re.compile(r"""\b(?:re_)?path\(\s*r?(['"])\^?([\w./-]*)\1\s*,\s*include\(\s*\(?\s*(['"])([\w.]+)\3"""
                      r"""|\burl\(\s*r?(['"])\^([\w./-]*)\5\s*,\s*include\(\s*\(?\s*(['"])([\w.]+)\7""")


_INCLUDE_OF_NAME = re.compile(r"""\b(?:re_)?path\(\s*r?(['"])\^?([\w./-]*)\1\s*,\s*include\(\s*([A-Za-z_]\w*)\s*\)""")
_NAMED_INCLUDE = re.compile(r"""\bpath\(\s*([A-Z_][A-Z0-9_]*)\s*,\s*include\(\s*\(?\s*(['"])([\w.]+)\2""")


def documented_includes(texts: list[tuple[str, str]]) -> dict[str, tuple[str, str, int]]:
    """{module: (prefix, file, line)} of the Django includes the documentation shows, each module
    at the first prefix shown (a changelog's are history)."""
    out: dict[str, tuple[str, str, int]] = {}
    for where, text in texts:
        if HISTORY.search(where) or "include(" not in text:
            continue
        for m in _INCLUDE.finditer(text):
            module, prefix = (m[4], m[2]) if m[4] else (m[8], m[6])
            out.setdefault(module, _shown(prefix, where, text, m.start()))
        for m in _NAMED_INCLUDE.finditer(text):  # `path(DASHBOARD_URL, include(...))`, `DASHBOARD_URL = 'insights/'`
            bound = list(re.finditer(r"(?m)^\s*" + m[1] + r"""\s*=\s*(['"])([\w./-]*)\1""", text[:m.start()]))
            if bound and bound[-1][2].strip("/"):
                out.setdefault(m[3], _shown(bound[-1][2], where, text, m.start()))
        for m in _INCLUDE_OF_NAME.finditer(text):  # `include(planner_urls)` of an import the README shows
            imported = re.search(r"(?m)^\s*from\s+([\w.]+)\s+import\s+(\w+)\s+as\s+" + m[3] + r"\b", text)
            if imported is not None:  # (`urlpatterns` is the module's list; another name, a module of it)
                module = imported[1] if imported[2] == "urlpatterns" else f"{imported[1]}.{imported[2]}"
                out.setdefault(module, _shown(m[2], where, text, m.start()))
    return out


def _shown(prefix: str, where: str, text: str, at: int) -> tuple[str, str, int]:
    """(the include's prefix from the root, "" for none; the file; the line at `at`)."""
    return ("/" + prefix.lstrip("/") if prefix.strip("/") else "", where, text.count("\n", 0, at) + 1)


# `app.include_router(comment_router, prefix="/api/comments")` of `comment_router = create_comment_router(...)`
# (Flask's `register_blueprint(make_bp(), url_prefix="/x")` alike)
_ROUTER_MOUNT = re.compile(r"""\.(?:include_router|register_blueprint)\(\s*([A-Za-z_][\w.]*)\s*(\(\s*\))?\s*,"""
                           r"""[^;()]*?\b(?:url_)?prefix\s*=\s*(['"])(/[\w./{}<>:-]*)\3""")


def documented_factory_mounts(texts: list[tuple[str, str]]) -> dict[str, Include]:
    """{router factory's name: (prefix, file, line)} of the mounts the documentation shows of a
    router a function makes: the function is the package's, the prefix the application's."""
    out: dict[str, Include] = {}
    for where, text in texts:
        if HISTORY.search(where) or ("include_router(" not in text and "register_blueprint(" not in text):
            continue
        for m in _ROUTER_MOUNT.finditer(text):
            given = m[1].rpartition(".")[2]
            if m[2] is None:  # a name: the factory it was bound to before
                bound = list(re.finditer(r"(?m)^\s*" + re.escape(m[1]) + r"\s*=\s*([A-Za-z_][\w.]*)\(",
                                         text[:m.start()]))
                if not bound:
                    continue
                given = bound[-1][1].rpartition(".")[2]
            if m[4].strip("/"):
                out.setdefault(given, (m[4].rstrip("/"), where, text.count("\n", 0, m.start()) + 1))
    return out


def _factory_mounts(facts: dict[str, Any], mounts: dict[str, Include]) -> None:
    """Serve the routes each documented router factory registers (by the function they are made
    in) under the prefix the documentation mounts its router at."""
    def placed(s: Any) -> Any:
        given = mounts.get(s.detail.get("within")) if s.kind == "http-route" and not s.detail.get("mounted_at") \
            and not s.detail.get("docs_mount") else None
        return s if given is None or _under(s.name.partition(" ")[2], given[0]) else _served_under(s, *given)

    for f in facts.values() if mounts else ():
        if f.language == "python":
            f.surfaces = [placed(s) for s in f.surfaces]


_JS_USE = re.compile(r"""\b\w+\.use\(\s*(['"`])(/[\w./-]*)\1\s*,\s*([A-Za-z_$][\w$]*)""")


def documented_use(texts: list[tuple[str, str]], package: str | None) -> tuple[str, str, int] | None:
    """(prefix, file, line) of the one Express mount the documentation shows of the package's own
    server, `app.use('/parse', server.app)` with `server = new ParseServer(...)` and ParseServer
    required from the package (or `app.use('/x', made)` of `made = pkg(...)`); None if none, or
    if it shows the package at two prefixes."""
    if not package:
        return None
    found: set[str] = set()
    first: tuple[str, str, int] | None = None
    quoted = re.escape(package)
    imported = re.compile(r"""(?:require\(\s*['"]""" + quoted + r"""['"]\s*\)|from\s+['"]""" + quoted + r"""['"])""")
    for where, text in texts:
        if HISTORY.search(where) or ".use(" not in text or imported.search(text) is None:
            continue
        names = _imported_names(text, quoted)
        for m in _JS_USE.finditer(text):
            bound = re.search(r"\b(?:const|let|var)\s+" + re.escape(m[3]) +
                              r"\s*=\s*(?:await\s+)?(?:new\s+)?([\w$.]+)\s*\(", text)
            if m[3] in names or bound is not None and bound[1].split(".")[0] in names:
                found.add(m[2])
                first = first or (m[2], where, text.count("\n", 0, m.start()) + 1)
    return first if len(found) == 1 else None


def _imported_names(text: str, quoted: str) -> set[str]:
    """The names a text binds to the package or its exports: `const ParseServer =
    require('parse-server').ParseServer`, `const { ParseServer } = require(...)`, `import X from`."""
    out = set()
    for m in re.finditer(r"""\b(?:const|let|var)\s+(\{[^}]*\}|[\w$]+)\s*=\s*require\(\s*['"]""" + quoted
                         + r"""['"]\s*\)""", text):
        out.update(re.findall(r"[A-Za-z_$][\w$]*", m[1].split(":")[-1] if "{" not in m[1] else m[1]))
    for m in re.finditer(r"""\bimport\s+([^;'"]+?)\s+from\s+['"]""" + quoted + r"""['"]""", text):
        out.update(re.findall(r"[A-Za-z_$][\w$]*", m[1].replace(" as ", " ")))
    out.discard("default")
    return out


def apply_documented_mounts(facts: dict[str, Any], texts: list[tuple[str, str]], package: str | None = None) -> None:
    """Rename, in place, each file's routes to the prefix its documentation serves them under."""
    if not texts or not any(sum(s.kind == "http-route" for s in f.surfaces) >= 2 for f in facts.values()):
        return  # (a library's documentation is not read for it)
    _factory_mounts(facts, documented_factory_mounts(texts))
    named = documented_paths(texts, files=lambda where: not HISTORY.search(where))
    included = _included_files(facts, documented_includes(texts))
    if not named and not included:
        return  # (an include shown places its module even when the docs list its routes relative: `charges/ (GET)`)
    by_segment = paths_by_segment(named)
    if _use_mounted(facts, documented_use(texts, package), by_segment):
        return
    served: set[tuple[str, str]] | None = None  # every route's (method, path) key, when one is asked for
    placed: dict[str, set[str]] = {}  # per directory, the prefixes its files' routes went under
    undecided: list[tuple[str, Any, list[Any]]] = []  # (file, facts, routes) the docs place under no one prefix
    for path, f in facts.items():
        # (not a route its framework mounts: a Strapi plugin's admin routes are under /<plugin>)
        routes = [s for s in f.surfaces if s.kind == "http-route" and not s.detail.get("framework_mount")]
        if len(routes) == 1 and path not in included:
            undecided.append((path, f, routes))
        if not routes or len(routes) < 2 and path not in included:
            continue
        votes: Counter[str] = Counter()
        bare: set[int] = set()
        written: list[set[str]] = []  # per route, the prefixes the docs write it under
        shown: dict[str, str] = {}
        for i, surface in enumerate(routes):
            prefixes = _prefixes(surface.name.partition(" ")[2], by_segment, shown)
            if any(prefixes):
                # (the docs' `/api/v1/recall` is another route the code serves, beside a legacy
                # `/recall` at the root: no vote to move this one)
                served = served if served is not None else _route_keys(facts)
                explained = {p for p in prefixes if p and _key_under(surface, p) in served}
                if explained:
                    prefixes = (prefixes - explained) | {""}
            written.append(prefixes)
            if surface.detail.get("prefix_unknown"):
                # under a prefix set at run time: the path the docs write it at under one is the
                # whole path, the bare one (langserve's "`/invoke`, `/batch` endpoints") a part
                prefixes.discard("")
            votes.update(prefixes)
            if "" in prefixes:
                bare.add(i)
        # (a mount the code makes at the root, the module's own `path("", include(router.urls))`, places nothing)
        if path in included and not any(s.detail.get("mounted_at", "").strip("/") for s in routes):
            prefix, where, line = included[path]
            written_under = _the_prefix(votes)
            if prefix and written_under and written_under != prefix.rstrip("/") and \
                    written_under.endswith(prefix.rstrip("/")):
                # the include shown, `path('paystack/', ...)`, in a project that serves it under more:
                # the endpoint list's `/api/v1/paystack/transaction/initiate`
                prefix, (where, line) = written_under, named[shown[written_under]]
            # the include shown, unless the docs name its routes bare, never under it, and call them
            # at a host so (`curl http://localhost:8000/health/`: where they are served, by the docs);
            # a table of bare paths after the include lists them relative to it (vq-django-auth)
            if prefix and (votes[prefix.rstrip("/")] or not bare or not _called_bare(texts, routes, bare)):
                # (every route of the module, one that begins with the same segment too: Django
                # serves a router's `affiliates` under the include's `affiliates/` as /affiliates/affiliates/)
                mounted = {id(s) for s in routes}
                f.surfaces = [_served_under(s, prefix, where, line) if id(s) in mounted else s for s in f.surfaces]
                continue
        if len(routes) < 2:
            continue
        prefix = _the_prefix(votes)
        unknown = [i for i, s in enumerate(routes) if s.detail.get("prefix_unknown")]
        if prefix is None and unknown:
            # routes under a prefix set at run time (Fedify's `${mountPath}/users/{identifier}`, beside
            # the `/.well-known/webfinger` it serves itself): one path the docs write under a prefix
            # says which, for those routes alone
            alone: Counter[str] = Counter()
            for i in unknown:
                alone.update(_prefixes(routes[i].name.partition(" ")[2], by_segment, shown))
            prefix = _the_prefix(alone, 1)
            bare |= set(range(len(routes))) - set(unknown)
            written = [set() for _ in routes]
        if prefix is None:
            if not unknown:
                undecided.append((path, f, routes))
            continue
        where, line = named[shown[prefix]]
        # (a route the docs write bare stays so, unless they write it under the prefix too and
        # nothing else serves it there: "`/me`" in a feature list, `GET /auth/me` in the table)
        served = served if served is not None else _route_keys(facts)
        mounted = {id(s) for i, s in enumerate(routes) if not _under(s.name.partition(" ")[2], prefix) and (
            i not in bare or prefix in written[i] and _key_under(s, prefix) not in served)}
        f.surfaces = [_served_under(s, prefix, where, line) if id(s) in mounted else s for s in f.surfaces]
        placed.setdefault(path.rpartition("/")[0], set()).add(prefix)
    if undecided and placed:
        _beside_placed(facts, undecided, placed, by_segment, named)


def _beside_placed(facts: dict[str, Any], undecided: list[tuple[str, Any, list[Any]]], placed: dict[str, set[str]],
                   by_segment: dict[str, list[str]], named: dict[str, tuple[str, int]]) -> None:
    """A module whose own routes do not decide (one route, `GET /stats`; or each written bare as
    well, "`/works` is open" after `GET /api/v1/works`) beside modules the docs place under a
    prefix: the routes the docs write under that prefix, and no other, go under it."""
    served: set[tuple[str, str]] | None = None
    for path, f, routes in undecided:
        shown: dict[str, str] = {}
        written = [_prefixes(s.name.partition(" ")[2], by_segment, shown) for s in routes]
        under = {p for w in written for p in w if p}
        prefix = next(iter(under)) if len(under) == 1 else ""
        if not prefix or prefix not in placed.get(path.rpartition("/")[0], ()):
            continue
        served = served if served is not None else _route_keys(facts)
        where, line = named[shown[prefix]]
        mounted = {id(s) for s, w in zip(routes, written, strict=True) if prefix in w
                   and not _under(s.name.partition(" ")[2], prefix) and _key_under(s, prefix) not in served}
        f.surfaces = [_served_under(s, prefix, where, line) if id(s) in mounted else s for s in f.surfaces]


def _called_bare(texts: list[tuple[str, str]], routes: list[Any], bare: set[int]) -> bool:
    """Whether the docs write one of the routes they name bare as a URL on a host."""
    for i in bare:
        path = routes[i].name.partition(" ")[2].rstrip("/")
        if not path:
            continue
        url = re.compile(SERVER + re.escape(path) + r"(?![\w-])")
        if any(not HISTORY.search(where) and url.search(text) for where, text in texts):
            return True
    return False


def _route_keys(facts: dict[str, Any]) -> set[tuple[str, str]]:
    """Every route's (method, path) key, as the package serves them now."""
    return {route_key(*s.name.split(" ", 1)) for f in facts.values() for s in f.surfaces if s.kind == "http-route"}


def _key_under(route: Any, prefix: str) -> tuple[str, str]:
    """The route's (method, path) key were it served under the prefix."""
    method, _, path = route.name.partition(" ")
    return route_key(method, join(prefix, path))


def _prefixes(path: str, by_segment: dict[str, list[str]], shown: dict[str, str]) -> set[str]:
    """The prefixes the documentation writes `path` under ("" where it writes the path as it is);
    `shown` keeps, per prefix, the first path written under it."""
    pattern = path_pattern(path)
    if pattern is None:  # the root, or parameters alone: every path would end so
        return set()
    own = len(route_key("GET", path)[1].rstrip("/").split("/"))
    out = set()
    for token in by_segment.get(pattern[0], ()):
        if not pattern[1].fullmatch(token):
            continue
        segments = token.split("?", 1)[0].rstrip("/").split("/")
        prefix = "/".join(segments[:len(segments) - own + 1]) if len(segments) > own else ""
        if not _NOT_A_PREFIX.search(prefix):
            out.add(prefix)
            shown.setdefault(prefix, token)
    return out


def _the_prefix(votes: Counter[str], least: int = 2) -> str | None:
    """The one prefix the documentation names the file's routes under (`least` times at least), if
    one clearly is."""
    ranked = votes.most_common()
    best = next(((p, n) for p, n in ranked if p), None)
    if best is None or best[1] < least:
        return None
    others = max((n for p, n in ranked if p != best[0]), default=0)
    return best[0] if best[1] >= 2 * others else None


def _under(path: str, prefix: str) -> bool:
    """Whether the path already begins with the prefix's segments."""
    return route_key("GET", path)[1].startswith(route_key("GET", prefix)[1].rstrip("/") + "/")


def _served_under(surface: Any, prefix: str, where: str, line: int) -> Any:
    method, _, path = surface.name.partition(" ")
    full = join(prefix, path)
    return replace(surface, name=f"{method} {full}",
                   detail={**surface.detail, "path": full,
                                                     "docs_mount": {"prefix": prefix, "where": where, "line": line,
                                                                    "written": surface.name}})


Include = tuple[str, str, int]  # (prefix, the file that shows it, its line)


def _included_files(facts: dict[str, Any], includes: dict[str, Include]) -> dict[str, Include]:
    """{file: its documented include} for the modules of `includes` the tree holds as a file; a
    package whose `__init__.py` registers no route (`from .main import router; urlpatterns =
    router.urls`) stands for the one module beside it that does."""
    modules = module_files(facts) if includes else {}
    out = {}
    for module, given in includes.items():
        path = modules.get(module)
        if path is None:
            continue
        if path.endswith("/__init__.py") and not _has_routes(facts[path]):
            folder = path.rpartition("/")[0] + "/"
            beside = [p for p, f in facts.items() if p.startswith(folder) and "/" not in p[len(folder):]
                      and _has_routes(f)]
            path = beside[0] if len(beside) == 1 else path
        out.setdefault(path, given)
    return out


def _has_routes(f: Any) -> bool:
    return any(s.kind == "http-route" for s in f.surfaces)


def _use_mounted(facts: dict[str, Any], use: tuple[str, str, int] | None, by_segment: dict[str, list[str]]) -> bool:
    """Serve every JS route the code leaves unmounted under the Express mount the docs show, when
    the docs name one of them under it at least (the mount shown is the deployment's fact; a path
    they name bare is often a link to elsewhere); whether it did."""
    if use is None:
        return False
    prefix, where, line = use
    routes = [s for f in facts.values() if f.language in ("javascript", "typescript", "tsx") for s in f.surfaces
              if s.kind == "http-route" and not s.detail.get("framework_mount") and "mounted_at" not in s.detail
              and not _under(s.name.partition(" ")[2], prefix)]
    votes: Counter[str] = Counter()
    for surface in routes:
        votes.update(_prefixes(surface.name.partition(" ")[2], by_segment, {}))
    if not votes[prefix.rstrip("/")]:
        return False
    mounted = {id(s) for s in routes}
    for f in facts.values():
        f.surfaces = [_served_under(s, prefix, where, line) if id(s) in mounted else s for s in f.surfaces]
    return True
