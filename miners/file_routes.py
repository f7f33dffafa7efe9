"""Routes that files are, by where they sit: the file-system routing of Next.js, SvelteKit and
Nuxt (Nitro). An app is a folder whose package.json depends on the framework (the repository's
root or a workspace's); its route files serve the path their location spells:

- Next.js pages router: `pages/api/users/[id].ts` is `/api/users/{id}`, for every method (the
  handler, the default export, reads `req.method`); `index` names its folder; `_app` and other
  `_` files are no routes.
- Next.js app router: `app/api/users/[id]/route.ts` serves each HTTP method it exports a handler
  for (`export async function GET`); `(group)` and `@slot` folders add nothing to the path, and a
  `_private` folder is not routed.
- SvelteKit: `src/routes/api/users/[id]/+server.ts`, the same way (`fallback` for every other
  method).
- Nuxt: `server/api/users/[id].get.ts` is `GET /api/users/{id}` (no method suffix: every method);
  `server/routes/` serves without `/api`.

- A Nuxt module (it imports `@nuxt/kit`) adds its own server folder to the host app's:
  `addServerScanDir(resolve("./runtime/server"))` serves that folder's `api/` and `routes/` as
  the app's `server/` (`dist/runtime/server/api/_commerce/cart/index.post.js` is
  `POST /api/_commerce/cart`), and `addServerHandler({ route: "/api/x", method: "get", handler })`
  serves the one route it names.

- Medusa (v2): `src/api/store/wishlists/[id]/route.ts` serves each HTTP method it exports a
  handler for at `/store/wishlists/{id}`; a plugin ships them built, under `.medusa/server/src/api/`.

- winterspec: each file under the routes directory its config names (`routesDirectory:
  "./routes"`, the default) is the route its path spells, `routes/files/upsert.ts` is
  `/files/upsert`, for the methods its `withRouteSpec({ methods: ["POST"] })` lists (every method
  when it lists none literally).

`[...slug]` (and `[[...slug]]`) catch the rest of the path: `{slug}`. The routes are added to the
route file's facts, so they become candidates like any other (the handler's effects included).
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable

from .facts import FileFacts, Surface

VERBS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
_SOURCE = (".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs")
_PARAM = re.compile(r"^\[{1,2}(?:\.\.\.)?([^\]]+)\]{1,2}$")  # [id], [...slug], [[...slug]]
_FRAMEWORKS = {"next": "nextjs", "@sveltejs/kit": "sveltekit", "nuxt": "nuxt", "nitropack": "nuxt",
               "winterspec": "winterspec", "@nuxt/kit": "nuxt-module", "@medusajs/medusa": "medusa",
               "@medusajs/framework": "medusa"}
_ROUTES_DIRECTORY = re.compile(rb"""routesDirectory\s*:\s*["'`](?:\./)?([^"'`]+?)/?["'`]""")
# a Nuxt module's `addServerScanDir(resolve("./runtime/server"))`, and `addServerHandler({ route, method, handler })`
_SCAN_DIR = re.compile(rb"""addServerScanDir\(\s*(?:[\w$]+\.)?resolve\(\s*["'`]([^"'`]+)["'`]\s*\)\s*\)""")
_SERVER_HANDLER = re.compile(rb"""addServerHandler\(\s*\{([^{}]{0,600})\}""")
_FIELD = re.compile(rb"""\b(route|method)\s*:\s*["'`]([^"'`\n]*)["'`]""")
_DECLARATION = re.compile(r"\.d\.[cm]?ts$")
_SPEC_METHODS = re.compile(rb"""\bmethods\s*:\s*\[([^\]]*)\]""")
_QUOTED = re.compile(rb"""["'`]([A-Za-z]+)["'`]""")


def add_file_routes(facts: dict[str, FileFacts], sizes: dict[str, int], read: Callable[[str], bytes]) -> None:
    """Add to `facts` the routes of every app's route files."""
    apps = _apps(sizes, read)
    _nuxt_modules(facts, read, [root for root, framework in apps if framework == "nuxt-module"])
    for root, framework in apps:
        if framework == "nuxt-module":
            continue
        prefix = f"{root}/" if root else ""
        if framework == "winterspec":
            _winterspec(facts, sizes, read, prefix)
            continue
        for path, f in facts.items():
            if path.startswith(prefix) and path.endswith(_SOURCE) and "/node_modules/" not in f"/{path}" and \
                    not _DECLARATION.search(path):
                f.surfaces += _routes(framework, path[len(prefix):], f)


def _winterspec(facts: dict[str, FileFacts], sizes: dict[str, int], read: Callable[[str], bytes],
                prefix: str) -> None:
    """A winterspec app's routes: its routes directory's files, each for the methods its spec lists."""
    directory = "routes"
    for name in ("winterspec.config.ts", "winterspec.config.js", "winterspec.config.mjs"):
        if prefix + name in sizes and sizes[prefix + name] <= 64 * 1024:
            found = _ROUTES_DIRECTORY.search(read(prefix + name))
            directory = found[1].decode("utf-8", "replace") if found else directory
            break
    under = f"{prefix}{directory}/"
    for path, f in facts.items():
        if not path.startswith(under) or not path.endswith(_SOURCE) or path.endswith(".d.ts"):
            continue
        parts = path[len(under):].split("/")
        stem = parts[-1].rpartition(".")[0]
        if any(p.startswith("_") for p in parts):
            continue
        listed = _SPEC_METHODS.search(read(path)) if sizes.get(path, 0) <= 1024 * 1024 else None
        methods = [m.decode().upper() for m in _QUOTED.findall(listed[1])] if listed else []
        methods = methods if all(m in VERBS for m in methods) else []  # (anything else listed: every method)
        segments = [*parts[:-1], *([] if stem == "index" else [stem])]
        f.surfaces += _surfaces(f, "winterspec", segments, methods or ["ANY"], f.module.default_export)


def _nuxt_modules(facts: dict[str, FileFacts], read: Callable[[str], bytes], roots: list[str]) -> None:
    """The routes a Nuxt module (a package depending on @nuxt/kit) adds to the app that installs
    it: its scanned server folders' files, and the handlers it adds one by one (on the line that
    adds them)."""
    folders: set[str] = set()
    for path, f in list(facts.items()) if roots else ():
        if not any(path.startswith(f"{root}/") or not root for root in roots) or not path.endswith(_SOURCE):
            continue
        source = read(path)
        if b"addServer" not in source:
            continue
        here = posixpath.dirname(path)
        for m in _SCAN_DIR.finditer(source):
            folders.add(posixpath.normpath(posixpath.join(here, m[1].decode("utf-8", "replace"))))
        for m in _SERVER_HANDLER.finditer(source):
            fields = dict(_FIELD.findall(m[1]))
            route = fields.get(b"route", b"").decode("utf-8", "replace")
            method = fields.get(b"method", b"").decode("ascii", "replace").upper() or "ANY"
            if route.startswith("/") and (method in VERBS or method == "ANY"):
                line = source.count(b"\n", 0, m.start()) + 1
                f.surfaces.append(Surface(kind="http-route", name=f"{method} {route}", line=line, end_line=line,
                                          framework="nuxt", detail={"method": method, "path": route}))
    for folder in sorted(folders):
        for path, f in facts.items():
            rel = path[len(folder) + 1:] if path.startswith(folder + "/") else None
            if rel and rel.startswith(("api/", "routes/")) and path.endswith(_SOURCE) and not _DECLARATION.search(path):
                f.surfaces += _routes("nuxt", "server/" + rel, f)


def _apps(sizes: dict[str, int], read: Callable[[str], bytes]) -> list[tuple[str, str]]:
    """(folder, framework) for each file-routing framework each package.json depends on."""
    out = []
    for path in sorted(sizes):
        if posixpath.basename(path) != "package.json" or "node_modules/" in path or sizes[path] > 1024 * 1024:
            continue
        try:
            pkg = json.loads(read(path))
        except (ValueError, UnicodeDecodeError):
            continue
        if not isinstance(pkg, dict):
            continue
        deps = {name for key in ("dependencies", "devDependencies", "peerDependencies")
                if isinstance(pkg.get(key), dict) for name in pkg[key]}
        for framework in dict.fromkeys(_FRAMEWORKS[d] for d in _FRAMEWORKS if d in deps):
            out.append((posixpath.dirname(path), framework))  # (each: a Next.js site may serve a winterspec API)
    return out


def _routes(framework: str, rel: str, f: FileFacts) -> list[Surface]:
    parts = rel.split("/")
    stem, _, _ = parts[-1].rpartition(".")
    exported = _exported(f)
    if framework == "nextjs":
        base = parts[1:] if parts[0] == "src" else parts
        if len(base) >= 3 and base[0] == "pages" and base[1] == "api":
            if any(p.startswith("_") for p in base[2:]):
                return []
            segments = ["api", *base[2:-1], *([] if stem == "index" else [stem])]
            return _surfaces(f, framework, segments, ["ANY"], f.module.default_export)
        if len(base) >= 2 and base[0] == "app" and stem == "route":
            if any(p.startswith("_") for p in base[1:-1]):
                return []
            return _verb_routes(f, framework, base[1:-1], exported)
    elif framework == "medusa":
        base = parts[3:] if parts[:3] == [".medusa", "server", "src"] else parts[1:] if parts[0] == "src" else []
        if len(base) >= 2 and base[0] == "api" and stem == "route":
            return _verb_routes(f, framework, base[1:-1], exported)
    elif framework == "sveltekit":
        if len(parts) >= 3 and parts[:2] == ["src", "routes"] and stem == "+server":
            return _verb_routes(f, framework, parts[2:-1], exported, fallback="fallback")
    elif framework == "nuxt":
        base = parts[1:] if parts[0] == "src" else parts
        if len(base) >= 3 and base[0] == "server" and base[1] in ("api", "routes"):
            name, _, verb = stem.rpartition(".")
            method = verb.upper() if name and verb.upper() in VERBS else None
            name = name if method else stem
            segments = [*(["api"] if base[1] == "api" else []), *base[2:-1], *([] if name == "index" else [name])]
            return _surfaces(f, framework, segments, [method or "ANY"], f.module.default_export)
    return []


def _exported(f: FileFacts) -> set[str]:
    names = set(f.module.names or ())
    return names | {s.name for s in f.symbols if s.exported and s.container is None}


def _verb_routes(f: FileFacts, framework: str, folders: list[str], exported: set[str],
                 fallback: str | None = None) -> list[Surface]:
    out = []
    for verb in VERBS:
        if verb in exported:
            out += _surfaces(f, framework, folders, [verb], verb)
    if fallback and fallback in exported:
        out += _surfaces(f, framework, folders, ["ANY"], fallback)
    return out


def _surfaces(f: FileFacts, framework: str, segments: list[str], methods: list[str],
              handler: str | None) -> list[Surface]:
    path = "/" + "/".join(_segment(s) for s in segments if not _silent(s))
    symbol = next((s for s in f.symbols if s.name == handler and s.container is None), None) if handler else None
    line, end = (symbol.line, symbol.end_line) if symbol else (1, 1)
    return [Surface(kind="http-route", name=f"{m} {path}", line=line, end_line=end, framework=framework,
                    handler=handler, description=symbol.doc if symbol else "",
                    detail={"method": m, "path": path, "file_route": True}) for m in methods]


def _silent(segment: str) -> bool:
    """A folder that adds nothing to the path: a route group `(admin)`, a parallel slot `@modal`."""
    return segment.startswith("(") and segment.endswith(")") or segment.startswith("@")


def _segment(segment: str) -> str:
    m = _PARAM.match(segment)
    return f"{{{m[1]}}}" if m else segment
