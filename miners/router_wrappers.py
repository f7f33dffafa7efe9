"""Routes registered on a package's own wrapper of a router. toxy's admin server is `new Admin(opts)`,
whose `get`, `post`... pass their arguments to the `router` it holds (`this.router[method].apply(
this.router, arguments)`); private-bower's controllers are `new Controller('/packages')`, whose verbs
call `this.router.get(path, ...)` and whose `bind(app)` mounts that router at the path it was
made with (`app.use(this.basePath, this.router)`).

surfaces.py gives a verb call on an instance of another module's class a route, marked with the
class (detail["wrapper"]). Here, where every file is known, the route stays only when that
module loads a router package and passes verbs on to a router it holds; and it is served under
the constructor's path when the module mounts the router at a path the instance holds. Any
other class's `get('/x', cb)` (a client, a cache) is dropped: nothing is guessed.
"""

from __future__ import annotations

import re

from .facts import FileFacts, ParsedFile
from .js_modules import js_module_file
from .mounts import under

# a router package the module loads (require or import)
_ROUTER_PACKAGE = re.compile(rb"""(?:require\(\s*|from\s+)['"](express|router|@koa/router|koa-router|find-my-way)['"]""")
# a verb passed on to a router the instance holds: `this.router[method](...)`, `this.router.get(path`
_DELEGATES = re.compile(rb"this\.(\w+)(?:\[\w+\]|\.(?:get|post|put|patch|delete|all))(?:\.apply|\.call)?\(")
# a router made and held by the instance: `this.router = router(opts)`, `this.router = Router()`
_HOLDS_ROUTER = re.compile(rb"this\.(\w+)\s*=\s*(?:new\s+)?[\w$.]*[Rr]outer\s*\(")
# the router mounted at a path the instance holds: `app.use(this.basePath, this.router)`
_MOUNTS_BASE = re.compile(rb"\.use\(\s*this\.\w+\s*,\s*this\.(\w+)\s*\)")


def router_wrapper(parsed: ParsedFile) -> tuple[str, bool] | None:
    """(the router package, whether it mounts the router at the constructor's path) when the JS
    file passes verbs on to a router it makes and holds, else None (cheap: words first)."""
    source = parsed.source
    if b"this." not in source or b"outer" not in source:  # (a router it makes: `Router(`, `router(`)
        return None
    package = _ROUTER_PACKAGE.search(source)
    if package is None:
        return None
    held = {m[1] for m in _DELEGATES.finditer(source)} & {m[1] for m in _HOLDS_ROUTER.finditer(source)}
    if not held:
        return None  # (`this.cache.get(key)` beside an express import is no router's verb)
    mounted = any(m[1] in held for m in _MOUNTS_BASE.finditer(source))
    return package[1].decode(), mounted


def resolve_wrapped_routes(facts: dict[str, FileFacts]) -> None:
    """Keep, in place, the routes on wrappers that pass verbs to a router (under the path the
    wrapper mounts its router at), and drop the others."""
    for f in facts.values():
        if not any("wrapper" in s.detail for s in f.surfaces):
            continue
        kept = []
        for surface in f.surfaces:
            wrapper = surface.detail.get("wrapper")
            if wrapper is None:
                kept.append(surface)
                continue
            target = js_module_file(facts, f.path, wrapper["module"])
            wraps = facts[target].router_wrapper if target is not None else None
            if wraps is None:
                continue
            package, mounted = wraps
            surface.framework = package
            kept.append(under(surface, wrapper["base"]) if mounted and wrapper.get("base") else surface)
        f.surfaces = kept
