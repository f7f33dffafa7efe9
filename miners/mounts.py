"""Routers mounted under a path prefix, across files: `app.use("/users", require("./routes/users"))`,
FastAPI's `app.include_router(items.router, prefix="/api/v1")`, Flask's
`app.register_blueprint(bp, url_prefix="/admin")`, Django's `path("shop/", include("shop.urls"))`. Each file's extractor records the routes it
registers with the router they are registered on (detail["receiver"]) and the routers it mounts
(facts.Mount); here, in assembly, where every file's facts are known, each mount is followed to
the router it names (the file's own, or the one another module exports, through its package's
re-exports), and that router's routes are served under the prefix, through every mount above it
(a router mounted twice serves its routes twice). A router factory's result
(`app.use("/data", serve_data.init(opts))`, `app.register_blueprint(create_blueprint(store),
url_prefix="/settings")`) stands for the routes registered in that function, and for the routers
mounted in it. A route whose router is mounted nowhere keeps its path. A mount whose router
cannot be found changes nothing: nothing is guessed.
"""

from __future__ import annotations

from dataclasses import replace

from .facts import FACTORY, FileFacts, Mount, Surface
from .js_modules import js_module_file
from .python_modules import absolute, find_through_reexports, module_files

Router = tuple[str, str]  # (file, the router's name there)
_DEPTH = 8  # mounts followed upwards at most (a cycle, or an absurd nesting, stops there)


def apply_mounts(facts: dict[str, FileFacts]) -> None:
    """Rewrite the routes of mounted routers in `facts` to their served paths."""
    mounts = [(path, m) for path, f in facts.items() for m in f.mounts]
    if not mounts:
        return
    if any(m.each_except is not None for _, m in mounts):
        mounts = [(path, each) for path, m in mounts for each in _each_module(facts, path, m)]
    modules: dict[str, str] | None = None
    targets: list[tuple[str, Mount, list[Router]]] = []
    for path, mount in mounts:
        if facts[path].language == "python" and modules is None:
            modules = module_files(facts)
        targets.append((path, mount, _targets(facts, modules or {}, path, mount)))
    factories = {target for _, _, found in targets for target in found if target[1].startswith(FACTORY)}
    above: dict[Router, list[tuple[Router, str]]] = {}  # router -> [(the router it is mounted on, prefix)]
    for path, mount, found in targets:
        # a mount made in a factory whose result is mounted is made on the factory's router (in a
        # bundle every factory's router may be a `const router` of its own: one name, many routers)
        parent = (path, FACTORY + mount.within) if mount.within and (path, FACTORY + mount.within) in factories \
            else (path, mount.receiver)
        for target in found:
            if target != parent:  # (a router mounted on itself serves nothing more)
                above.setdefault(target, []).append((parent, mount.prefix))
    if not above:
        return
    if any("receiver_from" in s.detail for f in facts.values() for s in f.surfaces):
        modules = modules if modules is not None else module_files(facts)
    for path, f in facts.items():
        if not any(s.kind == "http-route" and _router(above, path, s, modules) is not None for s in f.surfaces):
            continue
        routes: list[Surface] = []
        for surface in f.surfaces:
            router = _router(above, path, surface, modules) if surface.kind == "http-route" else None
            if router is None:
                routes.append(surface)
                continue
            for prefix in dict.fromkeys(_prefixes(above, router, ())):  # each distinct served path once
                routes.append(under(surface, prefix))
        f.surfaces = sorted(routes, key=lambda s: (s.line, s.name))


_JS_SOURCES = (".js", ".cjs", ".mjs", ".ts")


def _each_module(facts: dict[str, FileFacts], path: str, mount: Mount) -> list[Mount]:
    """A mount of every module of a directory, as one mount per module there (by its name without
    the extension; not the mounting file, nor the names the loop leaves out); another mount as it is."""
    if mount.each_except is None or mount.module is None:
        return [mount]
    here = path.rpartition("/")[0]
    folder = "/".join(p for p in [*here.split("/"), *mount.module.split("/")[:-1]] if p and p != ".")
    if ".." in folder.split("/"):
        return []  # (a parent's directory: not followed)
    out = []
    for other in sorted(facts):
        directory, _, file = other.rpartition("/")
        stem, _, extension = file.partition(".")
        if directory != folder or other == path or "." + extension not in _JS_SOURCES or stem in mount.each_except:
            continue
        out.append(replace(mount, prefix=mount.prefix.replace("{}", stem), module=mount.module.replace("{}", stem),
                           each_except=None))
    return out


def _router(above: dict[Router, list[tuple[Router, str]]], path: str, route: Surface,
            modules: dict[str, str] | None = None) -> Router | None:
    """The mounted router a route is registered on: the router factory it is registered in
    (FACTORY + the function's name) when that factory's result is mounted, else its router by name,
    in this file or, for a name it imports (`from app.auth import auth_bp`), in the module it is from."""
    for router in ((path, FACTORY + route.detail.get("within", "")), (path, route.detail.get("receiver")),
                   (path, route.detail.get("instance_router"))):
        if router in above:
            return router
    made_in = route.detail.get("receiver_from")
    if made_in and modules:
        module, _, name = absolute(made_in, path).rpartition(".")
        there = modules.get(module)
        if there is not None and (there, name) in above:
            return there, name
    return None


def _prefixes(above: dict[Router, list[tuple[Router, str]]], router: Router, seen: tuple[Router, ...]) -> list[str]:
    """Every prefix the router is served under (its own mounts', and theirs above them); a mount
    that leads back to a router on the way is not followed (a cycle serves nothing)."""
    if router not in above or len(seen) >= _DEPTH:
        return [""]
    seen = (*seen, router)
    found = [join(outer, prefix) for parent, prefix in above[router] if parent not in seen
             for outer in _prefixes(above, parent, seen)]
    return found or [""]


def under(route: Surface, prefix: str) -> Surface:
    if not prefix:
        return route
    method, _, path = route.name.partition(" ")
    full = join(prefix, path)
    return replace(route, name=f"{method} {full}", detail={**route.detail, "path": full, "mounted_at": prefix})


def join(prefix: str, path: str) -> str:
    if not prefix:
        return path
    if not path.strip("/"):
        return prefix  # the mounted router's root: the prefix as written (Django's "shop/" stays /shop/)
    return prefix.rstrip("/") + "/" + path.lstrip("/")


def _targets(facts: dict[str, FileFacts], modules: dict[str, str], path: str, mount: Mount) -> list[Router]:
    """The routers a mount names: one, or for a factory's result the factory by each name its
    routes may know it by (a default export's local name too)."""
    target = _target(facts, modules, path, mount)
    if target is None or not mount.called:
        return [target] if target is not None else []
    there, name = target
    out = [(there, FACTORY + name)]
    local = facts[there].module.default_export if name == "default" else None
    return out + [(there, FACTORY + local)] if local else out


def _target(facts: dict[str, FileFacts], modules: dict[str, str], path: str, mount: Mount) -> Router | None:
    """The (file, name) of the router a mount names, or None when it is not found."""
    if mount.module is None:
        return path, mount.name
    if facts[path].language == "python":  # (a name a package's __init__ re-exports: where it comes from)
        base = absolute(mount.module, path)
        def defined(there: str, name: str) -> Router | None:
            return None if any(n == name for n, _ in facts[there].module.reexports) else (there, name)
        return find_through_reexports(facts, modules, f"{base}.{mount.name}" if base else mount.name, defined)
    found = js_module_file(facts, path, mount.module)
    if found is None:
        return None  # a package's router, or a file not in this tree
    if mount.name == "default" and not mount.called:
        local = facts[found].module.default_export
        return (found, local) if local else None
    holder, _, member = mount.name.partition(".")
    there = facts[found]
    if holder == "default" and member and not mount.called:  # a default-exported class's instance router
        local = there.module.default_export
        return (found, f"{local}.{member}") if local else None
    if mount.called and member and "." not in member and holder not in there.module.names and not any(
            s.name == holder or s.name.startswith(holder + ".") for s in there.symbols) and not any(
            str(s.detail.get("within", "")).startswith(holder + ".") for s in there.surfaces):
        # `chatRoutes.createChatRoutes(deps)` of `var chatRoutes = require('./chatRoutes.cjs.js')`:
        # the name is the module's own binding, the factory the module's export
        return found, member
    spec = next((spec for bound, spec in facts[found].module.reexports if bound == mount.name), None)
    if spec is not None and not mount.called and not _registers(facts[found], mount.name):
        # `module.exports = { canned }` of `const canned = require('./canned')`: that module's router
        there = js_module_file(facts, found, spec)
        local = facts[there].module.default_export if there is not None and there != found else None
        return (there, local) if local else None
    return found, mount.name


def _registers(f: FileFacts, name: str) -> bool:
    """Whether a file registers routes on a router by that name itself."""
    return any(s.kind == "http-route" and s.detail.get("receiver") == name for s in f.surfaces)
