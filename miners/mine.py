"""Mine a source tree into a mining report: evidence-backed candidate operations, never executable.

Files are planned (coverage.py), parsed once each with tree-sitter in two worker processes, and
their facts (declarations, surfaces, effects) assembled here: visibility from what the package
declares as its surface (package.json main/exports/types/bin, pyproject scripts, Python
`__all__` and underscores, `export` forms), evidence with path and line for every claim, effects
found in the candidate's own code and in the same-file functions it calls, and a draft contract
whose authority is always incomplete. Nothing from the repository is imported or run.
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import json
import os
import posixpath
import re
import threading
import tomllib
from collections.abc import Callable
from typing import Any

from schemas.ecma import utc_now

from . import declared_scan
from .assets import ASSET
from .backstage_plugin import apply_plugin_base, plugin_id
from .cherrypy_routes import add_cherrypy_routes
from .child_dispatch import add_child_routes
from .config_children import expand_config_children
from .coverage import MAX_BYTES, MINIFIED, content_problem, plan
from .datasette_routes import datasette_routes
from .declarations import extract_declarations
from .declared_routes import NOT_INFERRED, link_declared_routes
from .declared_scan import APP_ID_MARK, APP_MARK
from .deferred_paths import resolve_deferred_paths
from .dir_routes import expand_dir_routes
from .directus_endpoint import apply_directus_endpoints, directus_endpoint_routes
from .doc_mounts import DOCUMENTED_MOUNT, apply_documented_mounts
from .documented_routes import FRAMEWORK_PAGE, link_documented_routes
from .effects import extract_effects
from .facts import FileFacts, ParsedFile
from .file_routes import add_file_routes
from .imported_routers import apply_imported_router_prefixes
from .js_openapi import js_openapi_document, unplaced_dropped
from .json_server import json_server_routers, resolve_json_server_routes
from .method_path_routes import method_path_routes
from .mounts import apply_mounts
from .navigator_views import add_navigator_routes
from .nest_prefix import apply_global_prefix, global_prefix
from .netbox_plugin import apply_netbox_plugin
from .node_http_routes import node_http_routes
from .parallel import analyse_all, cycle_collection_paused
from .paste_deploy import apply_paste_prefixes
from .pecan_routes import pecan_controllers, resolve_pecan_routes
from .pixl_api import pixl_api_routes
from .py_http_handlers import py_http_handler_routes
from .py_path_dispatch import py_path_dispatch_routes
from .pyramid_routes import resolve_pyramid_routes
from .resource_routes import adds_resources_in_loop, handler_facts, resolve_resource_routes
from .route_classes import resolve_route_classes, route_classes
from .route_modules import route_module
from .router_wrappers import resolve_wrapped_routes, router_wrapper
from .rule_forms import expand_rule_forms, rule_forms
from .servlet_patterns import add_servlet_routes
from .sources import SourceTree
from .strapi_routes import apply_strapi_routes, strapi_route_groups, strapi_route_objects
from .surfaces import extract_surfaces_and_mounts
from .verb_modules import add_verb_module_routes
from .viewset_routes import resolve_viewset_routes
from .words import WORDS_ONLY

OPAQUE = "custom:external.opaque-effects"
MINIFIED_ENTRY_BYTES = MAX_BYTES  # a minified entry point is mined up to any source file's size (a service's bundle)
UNKNOWN_PREFIX = "served under a prefix set at run time ({}), not known here: the path as registered"
PER_FILE = ("one of the routes {file}:{line} makes at run time, one for each file of {dir}/: its path is this "
            "file's name ({handler_file}) as that code turns names into paths; a deployment's directory may hold others")
FROM_MINIFIED = "read from minified code: the package declares it as an entry point and ships no source for it"
JS = ("javascript", "typescript", "tsx")


# the Python files assembly passes read again, by the words their text has: CherryPy's object
# trees (cherrypy_routes), navigator-api's views and the modules that configure them (navigator_views)
REREAD = {"cherrypy": (b"cherrypy", b"expose"), "navigator": (b"navigator.views",), "configure": (b".configure(",)}

def analyse(path: str, language: str, data: bytes, minified_ok: bool = False) -> FileFacts | str:
    """One file's facts, or why it was skipped. Runs in a worker; never raises for bad input."""
    from . import parsing

    problem = content_problem(data, minified_ok)
    if problem:
        return problem
    try:
        tree = parsing.parse(language, data)
    except parsing.ParseTimeout as exc:
        return str(exc)
    except Exception as exc:  # noqa: BLE001 - a grammar failure is a coverage fact, not a crash
        return f"parse failed ({exc.__class__.__name__})"
    parsed = ParsedFile(path, language, data, tree)
    facts = FileFacts(path, language)
    facts.declares_app = language in ("javascript", "typescript", "tsx") and (APP_MARK in data or APP_ID_MARK in data)
    concern = "effects"
    try:
        facts.effects, facts.hazards = extract_effects(parsed)
        concern = "surfaces"
        facts.surfaces, facts.mounts, facts.viewsets = extract_surfaces_and_mounts(parsed)
        if language == "python":
            facts.reread = frozenset(mark for mark, words in REREAD.items() if all(w in data for w in words))
            facts.surfaces += py_http_handler_routes(parsed)  # http.server's do_GET comparing self.path
            facts.surfaces += py_path_dispatch_routes(parsed)  # a raw ASGI/WSGI app comparing scope["path"]
            facts.surfaces += datasette_routes(parsed)  # a Datasette plugin's register_routes hook
            facts.pecan, facts.pecan_roots, facts.pecan_injecting = pecan_controllers(parsed)  # Pecan's controllers, joined in assembly
            facts.adds_resources_in_loop = adds_resources_in_loop(parsed)  # flask-restful resources from a table
            facts.rule_forms = rule_forms(parsed)  # a Blueprint subclass whose route() registers other paths too
        if language == "javascript":
            facts.surfaces += route_module(parsed)  # a module that is a route's definition
        if language in JS:
            facts.surfaces += method_path_routes(parsed)  # "GET /x" strings a router or a route map takes
            facts.surfaces += node_http_routes(parsed)  # a handler that compares the request's path itself
            facts.surfaces += directus_endpoint_routes(parsed)  # a default export's routes on its router parameter
            facts.surfaces += pixl_api_routes(parsed)  # a pixl-server component's API namespace
            facts.router_wrapper = router_wrapper(parsed)  # a class that passes verbs on to a router it holds
            facts.json_servers = json_server_routers(parsed)  # json-server routers, routes from their database
            facts.route_classes = route_classes(parsed)  # classes whose fields declare a route
            facts.global_prefix = global_prefix(parsed)  # NestJS's app.setGlobalPrefix('api')
            facts.backstage_plugin = plugin_id(parsed)  # createBackendPlugin({ pluginId }) with an httpRouter
            facts.surfaces += strapi_route_objects(parsed)  # a Strapi plugin's route objects, served in assembly
            facts.strapi_groups = strapi_route_groups(parsed)  # modules whose route lists a typed group takes
            facts.openapi_literal = js_openapi_document(parsed)  # an OpenAPI document the module holds
        concern = "declarations"  # last: when neither other concern ran the query pass, it may do without
        facts.symbols, facts.module = extract_declarations(parsed, calls=bool(facts.effects),
                                                           effects_at=[h.start_byte for h in facts.effects])
    except RecursionError:
        return "too deeply nested to analyse"
    except Exception as exc:  # noqa: BLE001 - recorded, and mining goes on
        return f"analysis failed ({concern}: {exc.__class__.__name__}: {exc})"[:300]
    return facts


def prepare(language: str) -> None:
    """Load the grammar and compile the queries of a language (cached for the process)."""
    from . import parsing

    parsing.parser(language)
    parsing.combined(language)


def mine_tree(tree: SourceTree, workers: int | None = None,
              progress: Callable[[int, int], Any] | None = None) -> dict[str, Any]:
    """The mining report (a dict that validates as a `report` document). `progress(done, total)`
    is told the source bytes analysed so far, out of those eligible, as files are done."""
    with cycle_collection_paused():
        return _mine_tree(tree, workers, progress)


def _mine_tree(tree: SourceTree, workers: int | None, progress: Callable[[int, int], Any] | None) -> dict[str, Any]:
    files = list(tree.files())
    sizes = dict(files)
    package = _package_surface(tree, sizes)
    work = plan(files, {path: "javascript" for path in package["bins"].values()})
    words: dict[str, WordIndex] = {}
    scan = declared_scan.Scan()

    def read_evidence() -> None:  # the parent's share while the child analyses: assembly needs these
        texts: dict[str, dict[str, str]] = {"documentation": {}, "test": {}}
        for path, role in work.evidence:
            if sizes.get(path, 0) <= 512 * 1024:
                texts["documentation" if role == "documentation" else "test"][path] = \
                    tree.read(path).decode("utf-8", "replace")
        words.update((role, WordIndex(by_path)) for role, by_path in texts.items())
        for path in work.declarations:
            declared_scan.scan_file(scan, path, tree.read(path))
        for path in work.api_documents:
            declared_scan.scan_api_document(scan, path, tree.read(path))

    items = [(path, language, sizes[path]) for path, language in work.source]
    if tree.forkable_reads:
        read = tree.read
    else:
        data = {path: tree.read(path) for path, _, _ in items}
        read = data.__getitem__
    told = None
    if progress is not None:
        total, done, lock = sum(size for _, _, size in items), [0], threading.Lock()
        progress(0, total)

        def told(size: int) -> None:  # called from the parent and from its reader thread
            with lock:
                done[0] += size
                progress(done[0], total)

    results = analyse_all(items, read, analyse, workers or min(2, os.cpu_count() or 1), prepare, read_evidence, told)
    facts: dict[str, FileFacts] = {}
    skipped = list(work.skipped)
    built = set()
    for path, result in results:
        if result == MINIFIED and path in package["entries"] and sizes[path] <= MINIFIED_ENTRY_BYTES:
            # the entry the package declares ships only minified (a bundle, no source beside it):
            # it is what runs, so its routes and commands are read all the same
            result = analyse(path, dict(work.source)[path], read(path), minified_ok=True)
            built.add(path)
        if isinstance(result, str):
            skipped.append({"path": path, "reason": result})
        else:
            facts[path] = result
    unplaced = set()  # module documents that name no servers of their own
    for path, f in facts.items():
        if f.openapi_literal is not None:  # read in the child; declared like a shipped openapi.json
            declared_scan.scan_file(scan, path, read(path), "openapi", loaded=f.openapi_literal)
            if not f.openapi_literal[0].get("servers"):
                unplaced.add(path)
            f.openapi_literal = None
    resolve_wrapped_routes(facts)  # routes on a package's own wrapper of a router, kept if it is one
    resolve_viewset_routes(facts)  # routes of the viewsets Django REST framework routers serve
    resolve_pyramid_routes(facts)  # Pyramid's named routes and the views registered for them
    resolve_pecan_routes(facts)  # Pecan's object dispatch: a controller tree's attributes and exposed methods
    expand_config_children(facts, sizes, tree.read)  # resources a section of the package's configuration lists
    resolve_resource_routes(facts, package["deps"])  # routes whose methods another file's class declares
    resolve_deferred_paths(facts, read)  # route paths with a constant another module holds
    add_servlet_routes(facts, read)  # servlets' PATTERNS regexes and on_<METHOD> methods (Synapse's)
    add_child_routes(facts, read)  # resource trees of @child() methods (Mailman's REST API)
    add_cherrypy_routes(facts, read)  # CherryPy's object trees: exposed methods under the attributes that hold them
    add_navigator_routes(facts, read)  # navigator-api's model views, configure()d at a path
    apply_imported_router_prefixes(facts, read)  # routes on a router another module makes, under its prefix
    resolve_json_server_routes(facts, read)  # a json-server router's resources: its database's keys
    resolve_route_classes(facts, read)  # routes route classes declare, with what they extend and import
    expand_rule_forms(facts)  # a route per path a Blueprint subclass's route() makes of the rule
    expand_dir_routes(facts, sizes)  # a route for each file of a directory a server reads at run time
    add_verb_module_routes(facts, tree.read)  # a folder of modules exporting verbs' handlers, which the server walks
    apply_mounts(facts)  # routes of routers mounted under a prefix, in their file or another
    apply_global_prefix(facts)  # NestJS routes under the prefix the bootstrap sets
    apply_plugin_base(facts)  # a Backstage backend plugin's routes under /api/<pluginId>
    apply_strapi_routes(facts, sizes, tree.read)  # a Strapi plugin's route objects under its name
    apply_netbox_plugin(facts, tree.read)  # a NetBox plugin's Django routes under /plugins/<base_url>
    apply_directus_endpoints(facts, package)  # a Directus endpoint extension's under /<id>, or none
    apply_paste_prefixes(facts, sizes, tree.read)  # routes of apps a Paste Deploy INI file serves under a prefix
    add_file_routes(facts, sizes, tree.read)  # Next.js, SvelteKit, Nuxt: routes by where their files sit
    # under the prefix the docs mount a file's routes at
    apply_documented_mounts(facts, words["documentation"].texts, package.get("npm_name"))
    candidates = _candidates(tree, facts, package, words["documentation"], words["test"], work.evidence)
    candidates = _one_per_id(candidates)  # (an operation a file shows twice is one mined candidate)
    for candidate in candidates if built else ():
        if candidate["source"]["path"] in built:
            candidate["unknowns"].append(FROM_MINIFIED)
    declared_scan.scan_app_sources(scan, {path: read(path) for path, f in facts.items() if f.declares_app})
    candidates += declared_scan.candidates(scan, _repo_key(package, tree.identity), tree.identity.commit)
    link_declared_routes(candidates)  # routes the code serves and an OpenAPI document it ships declares
    candidates = unplaced_dropped(candidates, scan, unplaced)  # a module's document served who knows where
    link_documented_routes(candidates, words["documentation"].texts)  # ... and its documentation lists
    hazards = [{"kind": h.kind, "detail": h.detail, "path": f.path, "line": h.line}
               for f in facts.values() for h in f.hazards] + package["hazards"]
    languages: dict[str, int] = {}
    for f in facts.values():
        languages[f.language] = languages.get(f.language, 0) + 1
    parsed_bytes = sum(sizes[p] for p in facts)
    eligible = len(work.source)
    return {
        "report_version": "0.1",
        "generated_at": utc_now(),
        "repository": tree.identity.as_dict(),
        "coverage": {
            "files_seen": work.files_seen, "files_parsed": len(facts), "languages": languages,
            "skipped": sorted(skipped, key=lambda s: s["path"]), "bytes_seen": work.bytes_seen,
            "eligible_files": eligible, "bytes_parsed": parsed_bytes, "evidence_files": len(work.evidence),
            "declaration_files_checked": len(work.declarations) + len(work.api_documents),
            "complete": len(facts) == eligible,
        },
        "candidates": candidates,
        "hazards": sorted(hazards, key=lambda h: (h.get("path") or "", h.get("line") or 0, h["kind"])),
        "unsupported_extensions": dict(sorted(work.unsupported.items())),
        "declared": scan.report(),
    }


# -- the package's declared surface ---------------------------------------------------------------


def _package_surface(tree: SourceTree, sizes: dict[str, int]) -> dict[str, Any]:
    """package.json / pyproject.toml / setup.cfg at the root: names, entry files, commands, hazards."""
    out: dict[str, Any] = {"npm_name": None, "entries": set(), "open_subpaths": False, "bins": {}, "scripts": {},
                           "py_name": None,
                           "hazards": [], "manifest_path": {}}
    manifests: dict[str, tuple[str, Any]] = {}  # read once: (text, the value its dependencies are in)
    if "package.json" in sizes:
        data = tree.read("package.json")
        try:
            pkg = json.loads(data)
        except ValueError:
            pkg = {}
        manifests["package.json"] = (data.decode("utf-8", "replace"), pkg)
        if isinstance(pkg, dict):
            out["npm_name"] = pkg.get("name") if isinstance(pkg.get("name"), str) else None
            extension = pkg.get("directus:extension")  # (a Directus endpoint extension: miners/directus_endpoint.py)
            out["directus_endpoint"] = isinstance(extension, dict) and extension.get("type") == "endpoint"
            if out["directus_endpoint"] and isinstance(extension.get("path"), str):
                out["entries"].add(_norm(extension["path"]))  # (the module Directus loads, a bundle often)
            for key in ("main", "module", "types", "typings", "browser"):
                if isinstance(pkg.get(key), str):
                    out["entries"].add(_norm(pkg[key]))
            out["entries"].update(_export_targets(pkg.get("exports")))
            # without an "exports" map Node resolves any file of the package: `require("pkg/sub")`
            out["open_subpaths"] = "exports" not in pkg
            bins = pkg.get("bin")
            if isinstance(bins, str) and out["npm_name"]:
                bins = {out["npm_name"].rsplit("/", 1)[-1]: bins}
            if isinstance(bins, dict):
                out["bins"] = {k: _norm(v) for k, v in bins.items() if isinstance(v, str)}
                out["entries"].update(out["bins"].values())
            for hook in ("preinstall", "install", "postinstall"):
                script = (pkg.get("scripts") or {}).get(hook) if isinstance(pkg.get("scripts"), dict) else None
                if isinstance(script, str):
                    out["hazards"].append({"kind": "install-script", "detail": f"{hook}: {script}"[:200],
                                           "path": "package.json"})
            out["manifest_path"]["npm"] = "package.json"
            if not out["entries"]:
                out["entries"].add("index.js")
    if "binding.gyp" in sizes:
        out["hazards"].append({"kind": "native-addon", "detail": "binding.gyp builds native code", "path": "binding.gyp"})
    if "pyproject.toml" in sizes:
        text = tree.read("pyproject.toml").decode("utf-8", "replace")
        try:
            project = tomllib.loads(text).get("project", {})
        except tomllib.TOMLDecodeError:
            project = {}
        manifests["pyproject.toml"] = (text, project)
        if isinstance(project, dict):
            out["py_name"] = project.get("name")
            scripts = project.get("scripts")
            if isinstance(scripts, dict):
                out["scripts"].update({k: v for k, v in scripts.items() if isinstance(v, str)})
            out["manifest_path"]["py"] = "pyproject.toml"
    if "setup.cfg" in sizes:
        text = tree.read("setup.cfg").decode("utf-8", "replace")
        block = re.search(r"console_scripts\s*=\s*\n((?:[ \t]+.+\n?)+)", text)
        for line in (block.group(1).splitlines() if block else []):
            name, _, target = line.strip().partition("=")
            if target.strip():
                out["scripts"].setdefault(name.strip(), target.strip())
        out["manifest_path"].setdefault("py", "setup.cfg")
    for path in sorted(sizes):  # a wheel's console scripts, or the ones setuptools wrote into an sdist's egg-info
        if path.endswith((".dist-info/entry_points.txt", ".egg-info/entry_points.txt")) and path.count("/") == 1:
            text = tree.read(path).decode("utf-8", "replace")
            # (indented when setup.py gave entry_points as one string: setuptools copies it as written)
            section = re.search(r"^[ \t]*\[console_scripts\][ \t]*\n((?:(?![ \t]*\[).*\n?)*)", text, re.MULTILINE)
            for line in (section.group(1).splitlines() if section else []):
                name, _, target = line.partition("=")
                if target.strip():
                    out["scripts"].setdefault(name.strip(), target.strip())
            out["manifest_path"].setdefault("py", path)
    if "setup.py" in sizes:
        out["hazards"].append({"kind": "install-script", "detail": "setup.py runs code at install (never run here)",
                               "path": "setup.py"})
    out["deps"] = _dependencies(tree, sizes, manifests)
    out["cargo_bins"] = _cargo_bins(tree, sizes) if "Cargo.toml" in sizes else {}
    if "build.rs" in sizes and "Cargo.toml" in sizes:
        out["hazards"].append({"kind": "install-script", "detail": "build.rs runs code at build (never run here)",
                               "path": "build.rs"})
    go_mod = tree.read("go.mod").decode("utf-8", "replace") if "go.mod" in sizes else ""
    module = re.search(r"^module\s+(\S+)", go_mod, re.MULTILINE)
    out["go_module"] = module[1].strip('"') if module else None
    return out


# the packages a surface's framework comes from, by ecosystem name (PyPI names normalised)
FRAMEWORK_PACKAGES = {
    "express": ("express",), "fastify": ("fastify",), "koa-router": ("@koa/router", "koa-router"),
    "hono": ("hono",), "hapi": ("@hapi/hapi", "hapi"), "nestjs": ("@nestjs/core", "@nestjs/common"),
    "loopback": ("@loopback/rest", "@loopback/core"),
    "nextjs": ("next",), "sveltekit": ("@sveltejs/kit",), "nuxt": ("nuxt", "nitropack"),
    "medusa": ("@medusajs/medusa", "@medusajs/framework"),
    "strapi": ("@strapi/strapi", "@strapi/utils"),
    "commander": ("commander",), "yargs": ("yargs",),
    "fastapi": ("fastapi",), "flask": ("flask",), "flask-restful": ("flask-restful", "flask-restx", "flask-smorest"),
    "quart": ("quart",), "starlette": ("starlette",), "litestar": ("litestar",), "sanic": ("sanic",),
    "django": ("django",), "django-rest-framework": ("djangorestframework",), "django-ninja": ("django-ninja",),
    "aiohttp": ("aiohttp",),
    "tornado": ("tornado",), "falcon": ("falcon",), "twisted": ("twisted",), "bottle": ("bottle",),
    "pyramid": ("pyramid",),
    "cornice": ("cornice",), "click": ("click", "asyncclick", "rich-click", "cloup"), "typer": ("typer",),
    "decli": ("decli",), "mcp": ("mcp", "fastmcp", "@modelcontextprotocol/sdk"), "fastmcp": ("fastmcp",),
    "gin": ("github.com/gin-gonic/gin",), "echo": ("github.com/labstack/echo", "github.com/labstack/echo/v4"),
    "chi": ("github.com/go-chi/chi", "github.com/go-chi/chi/v5"), "fiber": ("github.com/gofiber/fiber/v2",),
    "gorilla": ("github.com/gorilla/mux",), "cobra": ("github.com/spf13/cobra",),
    "mcp-go": ("github.com/mark3labs/mcp-go",),
}
_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def _pypi_name(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _dependencies(tree: SourceTree, sizes: dict[str, int],
                  manifests: dict[str, tuple[str, Any]]) -> dict[str, tuple[str, int]]:
    """{package: (manifest, line)} of what the package depends on, from the manifests at its root:
    package.json and pyproject.toml (as _package_surface read them), a wheel's METADATA, an
    sdist's egg-info requires.txt, go.mod."""
    out: dict[str, tuple[str, int]] = {}

    def text(path: str) -> str:
        return tree.read(path).decode("utf-8", "replace") if sizes.get(path, 1 << 30) <= 1024 * 1024 else ""

    def add(name: str, path: str, body: str, at: int) -> None:
        out.setdefault(name, (path, body.count("\n", 0, max(at, 0)) + 1))

    if "package.json" in manifests:
        body, pkg = manifests["package.json"]
        for key in ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies"):
            table = pkg.get(key) if isinstance(pkg, dict) else None
            for name in table if isinstance(table, dict) else ():
                add(name, "package.json", body, body.find(f'"{name}"'))
    if "pyproject.toml" in manifests:
        body, project = manifests["pyproject.toml"]
        requirements = project.get("dependencies") if isinstance(project, dict) else None
        for requirement in requirements if isinstance(requirements, list) else ():
            m = _REQUIREMENT.match(requirement) if isinstance(requirement, str) else None
            if m:
                add(_pypi_name(m[1]), "pyproject.toml", body, body.find(requirement))
    for path in sorted(sizes):
        if path.count("/") != 1:
            continue
        if path.endswith(".dist-info/METADATA"):
            body = text(path)
            for m in re.finditer(r"^Requires-Dist:\s*([A-Za-z0-9][A-Za-z0-9._-]*)", body, re.MULTILINE):
                add(_pypi_name(m[1]), path, body, m.start())
        elif path.endswith(".egg-info/requires.txt"):
            body = text(path)
            section = body.split("\n[", 1)[0]  # what follows [extra] sections is optional
            for m in re.finditer(r"^([A-Za-z0-9][A-Za-z0-9._-]*)", section, re.MULTILINE):
                add(_pypi_name(m[1]), path, body, m.start())
    if "go.mod" in sizes:
        body = text("go.mod")
        for m in re.finditer(r"^(?:require\s+|\t)([\w.-]+\.[\w./-]+)\s+v", body, re.MULTILINE):
            add(m[1], "go.mod", body, m.start())
    return out


def _cargo_bins(tree: SourceTree, sizes: dict[str, int]) -> dict[str, str]:
    """A crate's binaries: its [[bin]] tables, and what Cargo finds itself (src/main.rs named after
    the package, src/bin/x.rs and src/bin/x/main.rs named x) unless `autobins = false`."""
    try:
        cargo = tomllib.loads(tree.read("Cargo.toml").decode("utf-8", "replace"))
    except tomllib.TOMLDecodeError:
        return {}
    package = cargo.get("package") if isinstance(cargo.get("package"), dict) else {}
    name = package.get("name") if isinstance(package.get("name"), str) else None
    bins: dict[str, str] = {}
    for entry in cargo.get("bin") or [] if isinstance(cargo.get("bin"), list) else []:
        if isinstance(entry, dict) and isinstance(entry.get("name"), str):
            bins[entry["name"]] = entry["path"] if isinstance(entry.get("path"), str) else f"src/bin/{entry['name']}.rs"
    if package.get("autobins") is not False:
        if name and "src/main.rs" in sizes:
            bins.setdefault(name, "src/main.rs")
        for path in sorted(sizes):
            m = re.fullmatch(r"src/bin/([^/]+)\.rs|src/bin/([^/]+)/main\.rs", path)
            if m:
                bins.setdefault(m[1] or m[2], path)
    return bins


def _norm(path: str) -> str:
    path = path.strip()
    while path.startswith("./"):
        path = path[2:]
    return path


def _export_targets(exports: Any) -> set[str]:
    out: set[str] = set()
    if isinstance(exports, str):
        out.add(_norm(exports))
    elif isinstance(exports, dict):
        for value in exports.values():
            out |= _export_targets(value)
    elif isinstance(exports, list):
        for value in exports:
            out |= _export_targets(value)
    return out


# -- candidates -----------------------------------------------------------------------------------


def _candidates(tree: SourceTree, facts: dict[str, FileFacts], package: dict[str, Any], doc_words: WordIndex,
                test_words: WordIndex, plan_evidence: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """`doc_words` index the documentation, `test_words` the tests and examples."""
    examples = {path for path, role in plan_evidence if role == "example"}
    identity = tree.identity
    repo_key = _repo_key(package, identity)
    reachable = _reachable_js(facts, package)
    promoted = _python_reexports(facts)
    entry_stems = _entry_stems(package)
    out: list[dict[str, Any]] = []
    for path in sorted(facts):
        f = facts[path]
        js, py = f.language in JS, f.language == "python"
        by_name = {s.name: s for s in f.symbols}
        file_module = _module(path, f.language, package, entry_stems) if f.symbols or f.surfaces else None
        file_public = _public_module(path, f.language, reachable, f) if f.symbols else False
        starts = [h.start_byte for h in f.effects]  # sorted: effects come in source order
        for symbol in f.symbols:
            method = symbol.kind == "method"
            if method and symbol.container and not by_name.get(symbol.container, symbol).exported:
                exported = False
            else:
                exported = symbol.exported
            last = symbol.name.rsplit(".", 1)[-1]
            if method and (last.startswith("__") or last == "constructor" and js):
                exported = False  # __init__, __call__, constructor: how a class is used, not an operation of its own
            elif js and len(last) > 1 and last.startswith("_"):
                exported = False  # `_logFunc`, `_baseClone`: exported for the package's own modules, by convention
            module = file_module
            public = exported and file_public
            if exported and not public and py and symbol.container is None:
                # a private module's name that a package re-exports (httpx's `from ._api import get`)
                owner = _reexporting_package(path, symbol.name, promoted)
                if owner is not None:
                    public, module = True, _module(owner + "/__init__.py", "python", package, entry_stems)
            elif method and symbol.container and py and exported and not public:
                owner = _reexporting_package(path, symbol.container, promoted)
                if owner is not None:
                    public, module = True, _module(owner + "/__init__.py", "python", package, entry_stems)
            name = symbol.name
            if name == "default" and js:
                name = _default_name(path, module, package)
            if starts:
                hits = _within(f.effects, starts, symbol) + [
                    h for callee in symbol.calls if (target := by_name.get(callee)) and target is not symbol
                    for h in _within(f.effects, starts, target)]
            else:
                hits = []
            evidence = [{"kind": "declaration", "detail": symbol.signature or symbol.name, "path": path,
                         "line": symbol.line}]
            doc = doc_words.mention(last, "documentation")
            if doc is not None:
                evidence.append(doc)
            test = test_words.mention(last, "test")
            if test is not None:
                if test["path"] in examples:  # the tests' index holds the examples too
                    test["kind"] = "example"
                evidence.append(test)
            if hits:
                evidence += _effect_evidence(hits, path)
            confidence = _CONFIDENCE[bool(public), bool(symbol.doc), doc is not None or test is not None]
            out.append(_candidate(repo_key, identity, symbol.kind, name, f"{module}:{symbol.name}", module,
                                  "public" if public else "internal", f.language, path, symbol.line, symbol.end_line,
                                  symbol.signature, symbol.doc, evidence, hits, confidence, symbol.notes))
        for surface in f.surfaces:
            name = surface.name
            if surface.kind in ("cli-command", "cli-subcommand"):
                name = _program(surface, package)
            mount = surface.detail.get("docs_mount")  # the documentation's prefix, where the code sets none
            evidence = [{"kind": "route" if surface.kind == "http-route" else "declaration",
                         "detail": f"{surface.framework}: {mount['written'] if mount else surface.name}", "path": path,
                         "line": surface.line}]
            if "template" in surface.detail:  # the path as written, when it serves more than one
                evidence[0]["template"] = surface.detail["template"]
            if surface.detail.get("mounted_at"):  # the prefix its router is mounted under here
                evidence[0]["mounted_at"] = surface.detail["mounted_at"]
            if mount:  # the path as the code writes it, which an endpoint list may name too
                evidence[0]["written"] = mount["written"].partition(" ")[2]
            needed = next((d for d in FRAMEWORK_PACKAGES.get(surface.framework, ()) if d in package["deps"]), None)
            if needed is not None:  # the package's manifest names the framework: independent of the code
                manifest, line = package["deps"][needed]
                evidence.append({"kind": "dependency", "detail": f"{manifest} depends on {needed}", "path": manifest,
                                 "line": line})
            if "prefix_from" in surface.detail:  # the deployment file that serves it under a prefix
                where, line = surface.detail["prefix_from"]
                served = f"Paste Deploy serves it under {surface.detail['mounted_at']}"
                evidence.append({"kind": "manifest", "detail": served, "path": where, "line": line})
            if mount:
                evidence.append({"kind": "documentation", "detail": f"{mount['where']} writes its routes under "
                                 f"{mount['prefix']}", "path": mount["where"], "line": mount["line"]})
            for step in surface.detail.get("via", ()):  # the controllers that hold it, from its root down
                evidence.append({"kind": "route", **step})
            if "config_from" in surface.detail:  # the configuration file that names its resource
                where, line = surface.detail["config_from"]
                evidence.append({"kind": "manifest", "detail": f"{where} names {surface.detail['resource']} for it",
                                 "path": where, "line": line})
            if "handler_path" in surface.detail:  # a resource route whose class is in another file
                owner, handler = handler_facts(facts, surface, f)
                effects = _within(owner.effects, [h.start_byte for h in owner.effects], handler) if handler else []
                evidence.append({"kind": "declaration", "detail": f"handler {surface.handler}",
                                 "path": surface.detail["handler_path"], "line": surface.detail["handler_line"]})
                evidence += _effect_evidence(effects, surface.detail["handler_path"])
            else:
                handler = by_name.get(surface.handler) if surface.handler and starts else None
                effects = _within(f.effects, starts, handler) if handler is not None else []
                evidence += _effect_evidence(effects, path)  # the handler's call sites
            confidence = _SURFACE_CONFIDENCE[needed is not None]
            if surface.detail.get("table"):  # listed, but the call that registers the table is not followed
                evidence[0]["detail"] = f"{surface.framework} route table: {surface.name}"
            elif surface.detail.get("module_route"):  # (the server registers it at run time, by module type)
                what = "class" if "route_class" in surface.detail else "module"
                evidence[0]["detail"] = f"a {what} that defines the route {surface.name}"
            elif surface.detail.get("loaded_table"):  # (a server loads the module and registers its table)
                evidence[0]["detail"] = f"{surface.framework} route table a module returns: {surface.name}"
            if "per_file_from" in surface.detail:  # the directory read, and the file that is the route
                made = surface.detail["per_file_from"]
                evidence.append({"kind": "route", "detail": f"reads the directory {made['dir']}/ and registers a "
                                 "route for each file", "path": path, "line": made["line"]})
                if "handler_path" not in surface.detail:
                    evidence.append({"kind": "declaration", "detail": f"the file {made['file']}",
                                     "path": made["file"], "line": 1})
            formed = surface.detail.get("rule_form")
            if formed:  # the package's own route() that registers the rule at this path
                evidence.append({"kind": "route", "detail": formed["note"], "path": formed["path"], "line": formed["line"]})
            if surface.detail.get("table") or surface.detail.get("module_route") or "config_from" in surface.detail \
                    or "per_file_from" in surface.detail or surface.detail.get("loaded_table"):
                confidence -= 0.1  # (a deployment may list others; the loading is not followed)
            unknown = surface.detail.get("prefix_unknown")
            notes = [UNKNOWN_PREFIX.format(unknown)] if unknown else []
            if "unmounted" in surface.detail:
                notes.append(surface.detail["unmounted"])
            if mount:
                notes.append(DOCUMENTED_MOUNT.format(**mount))
            if "methods_unknown" in surface.detail:
                notes.append(surface.detail["methods_unknown"])
            made = surface.detail.get("per_file_from")
            if made:
                notes.append(PER_FILE.format(file=path, line=made["line"], dir=made["dir"], handler_file=made["file"]))
            if formed and "also" in formed:
                notes.append(formed["also"])
            if "builtin" in surface.detail:
                notes.append(FRAMEWORK_PAGE.format(surface.detail["builtin"]))
            if surface.detail.get("asset"):
                notes.append(ASSET)
            # (a framework's page or a file handed out as it is: public only when the docs name it)
            hidden = "builtin" in surface.detail or surface.detail.get("asset")
            candidate = _candidate(repo_key, identity, surface.kind, name, surface.handler or name, file_module,
                                   "internal" if hidden else "public", f.language, path, surface.line, surface.end_line, name,
                                   surface.description, evidence, effects, round(confidence, 2), notes)
            if surface.input_schema is not None:
                candidate["draft_contract"]["input"] = surface.input_schema
                read_from = _SCHEMA_FROM.get(surface.detail.get("input_from"), _SCHEMA_FROM[None])
                candidate["unknowns"] = [read_from if u == NOT_INFERRED else u for u in candidate["unknowns"]]
            out.append(candidate)
    commands = {c["name"]: c for c in out if c["kind"] == "cli-command"}
    declared = [_declared_command(repo_key, identity, name, target, package["manifest_path"].get("npm", "package.json"),
                                  "javascript") for name, target in sorted(package["bins"].items())]
    declared += [_declared_command(repo_key, identity, name, target, package["manifest_path"].get("py", "pyproject.toml"),
                                   "python") for name, target in sorted(package["scripts"].items())]
    declared += [_declared_command(repo_key, identity, name, target, "Cargo.toml", "rust")
                 for name, target in sorted(package["cargo_bins"].items())]
    declared += _go_commands(repo_key, identity, facts, package)
    for command in declared:
        found = commands.get(command["name"])
        if found is None:
            out.append(command)
            commands[command["name"]] = command
        else:  # the command the manifest names is the one its code defines (a click group): one candidate
            found["evidence"] = command["evidence"] + found["evidence"]
            found["confidence"] = max(found["confidence"], command["confidence"])
    return out


def _effect_evidence(hits: list[Any], path: str) -> list[dict[str, Any]]:
    """Each effect's call site, with how sure the table is that the call has it."""
    return [{"kind": "effect", "detail": f"{h.call} -> {h.effect}", "path": path, "line": h.line,
             "confidence": h.confidence} for h in hits]


def _within(effects: list[Any], starts: list[int], symbol: Any) -> list[Any]:
    """The effect hits inside a symbol's span (`starts`: their start bytes, in order)."""
    return effects[bisect.bisect_left(starts, symbol.start_byte):bisect.bisect_left(starts, symbol.end_byte)]


def _repo_key(package: dict[str, Any], identity: Any) -> str:
    return package["npm_name"] or package["py_name"] or identity.locator


def _python_reexports(facts: dict[str, FileFacts]) -> dict[str, set[str]]:
    """For each Python package directory, the names its `__init__` makes public: `__all__`, and what
    it imports to re-export."""
    out: dict[str, set[str]] = {}
    for path, f in facts.items():
        if f.language == "python" and path.rsplit("/", 1)[-1] == "__init__.py":
            names = set(f.module.names or ()) | {name for name, _ in f.module.reexports}
            out[path.rsplit("/", 1)[0] if "/" in path else ""] = names
    return out


def _reexporting_package(path: str, name: str, promoted: dict[str, set[str]]) -> str | None:
    """The nearest public package above `path` that re-exports `name`, or None."""
    parts = path.split("/")[:-1]
    for end in range(len(parts), 0, -1):
        directory = "/".join(parts[:end])
        if any(p.startswith("_") for p in parts[:end] if p not in ("src", "lib")):
            continue  # a private package re-exporting is not the public surface yet
        if name in promoted.get(directory, ()):
            return directory
    return None


def _default_name(path: str, module: str | None, package: dict[str, Any]) -> str:
    """An anonymous default export is called what a user binds it to: the package's name for its
    entry file (`const isNumber = require("is-number")`), else the file's."""
    base = (package["npm_name"] or "").rsplit("/", 1)[-1] if module == package["npm_name"] else ""
    base = base or path.rsplit("/", 1)[-1].split(".", 1)[0]
    if base == "index" and "/" in path:
        base = path.rsplit("/", 2)[-2]
    head, *rest = [part for part in re.split(r"[-_.\s]+", base) if part] or ["default"]
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def _program(surface: Any, package: dict[str, Any]) -> str:
    """The command path as a user types it: the package's program name first when it has one."""
    programs = list(package["bins"]) + list(package["scripts"])
    targets = set(package["bins"].values()) | set(package["scripts"].values())
    if len(programs) > 1 and len(targets) == 1:  # aliases of one program: the shortest is its name
        programs = [min(programs, key=lambda p: (len(p), p))]
    name = surface.name
    if len(programs) == 1:
        program = programs[0]
        if not name:
            return program
        if not surface.detail.get("program_known", True):
            return f"{program} {name}"
        if surface.framework in ("click", "typer"):  # the root is a function name; the program is what is typed
            return f"{program} {name.partition(' ')[2]}".strip()
        first, _, rest = name.partition(" ")
        if first != program and first.replace("_", "-") == program.replace("_", "-"):
            # `prog="gpodder_router"` (the module's name, for `python -m`) of the script gpodder-router
            return f"{program} {rest}".strip()
    return name or surface.handler or "(the program)"


def _go_commands(repo_key: str, identity: Any, facts: dict[str, FileFacts], package: dict[str, Any]) -> list[dict]:
    """Go's commands: a `package main` with `func main` in cmd/<name>/ builds <name> (what `go
    install` names it), one at the module's root builds the module's last path segment."""
    out = {}
    for path, f in sorted(facts.items()):
        main = next((s for s in f.symbols if s.name == "main" and "main package" in s.notes), None)
        if f.language != "go" or main is None:
            continue
        folder = posixpath.dirname(path)
        name = folder.split("/")[1] if folder.startswith("cmd/") and folder.count("/") == 1 else \
            package["go_module"].rsplit("/", 1)[-1] if not folder and package["go_module"] else None
        if name and name not in out:
            out[name] = _declared_command(repo_key, identity, name, f"{path}: func main", path, "go",
                                          f"{path} is package main: it builds the command {name}", main.line)
    return list(out.values())


def _declared_command(repo_key: str, identity: Any, name: str, target: str, manifest: str, language: str,
                      detail: str | None = None, line: int = 1) -> dict:
    evidence = [{"kind": "manifest", "detail": detail or f"{manifest} declares the command {name} -> {target}",
                 "path": manifest, "line": line}]
    return _candidate(repo_key, identity, "cli-command", name, target, None, "public", language, manifest, line,
                      line, name, f"the {name} command", evidence, [], 0.9, [])


def _candidate(repo_key: str, identity: Any, kind: str, name: str, symbol: str, module: str | None, visibility: str,
               language: str, path: str, line: int, end_line: int, signature: str, description: str,
               evidence: list[dict[str, Any]], hits: list[Any], confidence: float, notes: list[str]) -> dict[str, Any]:
    """`confidence` is as the report shows it (rounded to 2 places)."""
    effects = sorted({h.effect for h in hits}) if hits else []
    ident = "cand-" + hashlib.sha256(f"{repo_key}\0{path}\0{kind}\0{name}".encode()).hexdigest()[:20]
    text = description.strip() if description else ""
    return {
        "id": ident, "kind": kind, "name": name, "symbol": symbol, "module": module, "visibility": visibility,
        "language": language,
        "source": {"path": path, "line": max(1, line), "end_line": max(1, end_line, line), "commit": identity.commit},
        "signature": signature, "description": text, "provenance": "mined",
        "evidence": evidence, "effects": effects, "confidence": confidence,
        "authority": {"complete": False, "effects": [*effects, OPAQUE],
                      "note": "mined: absence of evidence is not absence of effect"},
        "executable": False, "unknowns": [*_UNKNOWNS, *notes],
        "draft_contract": {"specVersion": "0.1", "id": f"{_namespace(str(repo_key))}/{_slug(name)}",
                           "version": "0.0.0", "name": name,
                           "description": text if description else f"{kind} {name}".strip(),
                           "effects": [*effects, OPAQUE]},
    }


def _one_per_id(candidates: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One mined candidate per id: an id names an operation of a file (its kind and name), and a file may
    show one twice (`GET /health` registered on two branches, a function defined twice, a
    resource mounted twice at one path). The first stays, with the others' evidence, effects and
    unknowns added, the higher confidence, and public when either is."""
    first: dict[str, dict[str, Any]] = {}
    out = []
    for candidate in candidates:
        kept = first.get(candidate["id"])
        if kept is None:
            first[candidate["id"]] = candidate
            out.append(candidate)
            continue
        kept["evidence"] += [e for e in candidate["evidence"] if e not in kept["evidence"]]
        kept["unknowns"] += [u for u in candidate["unknowns"] if u not in kept["unknowns"]]
        kept["confidence"] = max(kept["confidence"], candidate["confidence"])
        if candidate["visibility"] == "public":
            kept["visibility"] = "public"
        effects = sorted(set(kept["effects"]) | set(candidate["effects"]))
        if effects != kept["effects"]:
            kept["effects"] = effects
            kept["authority"]["effects"] = [*effects, OPAQUE]
            if kept.get("draft_contract"):
                kept["draft_contract"]["effects"] = [*effects, OPAQUE]
    return out


# a surface's confidence: read from code, and more so when the manifest also names its framework
_SURFACE_CONFIDENCE = {False: 0.8, True: 0.85}
# what a surface's input schema was read from, for its unknowns (in place of NOT_INFERRED)
_SCHEMA_FROM = {None: "input schema read from the code where it is literal; output schema not inferred",
                "annotations": "input schema inferred from the function's type annotations (as FastMCP derives it); "
                               "output schema not inferred"}
_UNKNOWNS = (NOT_INFERRED, "effects are those seen statically; others may exist")

# a symbol's confidence by (public, documented, mentioned in documentation or tests), as the report rounds it:
# 8 values, worked out once rather than per candidate
_CONFIDENCE = {(p, d, m): round(min(0.45 + 0.25 * p + 0.1 * d + 0.1 * m, 0.95), 2)
               for p in (False, True) for d in (False, True) for m in (False, True)}

_SLUG = re.compile(r"[^a-z0-9._-]+")


@functools.lru_cache(maxsize=64)
def _namespace(repo_key: str) -> str:
    return _SLUG.sub("-", repo_key.lower().rsplit("/", 1)[-1]).strip("-._") or "repo"


def _slug(name: str) -> str:
    low = name.lower()
    if not (low.isascii() and low.replace(".", "_").isidentifier()):  # else all [a-z0-9_.]: the regex is a no-op
        low = _SLUG.sub("-", low)
    return low.strip("-._") or "op"


_WORD = re.compile(r"[A-Za-z_$][\w$]*")  # a word starts at the first of these in a run of [\w$] characters
_LEAD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$")
_CHUNK = 8192  # texts are indexed in pieces of about this size, so that finding a word's line scans one piece


class WordIndex:
    """Where each word first appears in a set of texts (documentation, tests): the first text, in
    order, that has it, and the line of its first occurrence there. Up front only which piece of
    which text first has each word is recorded; the line is worked out for the few names symbols ask
    for, by a search of that piece (placing every word up front made a match object per word: 5 ms
    for express's History.md, now 3 for the words and little for the lookups)."""

    def __init__(self, texts: dict[str, str]):
        self.texts = list(texts.items())
        self.where: dict[str, tuple[int, int, int]] = {}  # word -> (text, start of its first piece, line there)
        for i, (_, text) in enumerate(self.texts):
            start, line = 0, 1
            while start < len(text):  # pieces end after a newline: no word spans two
                end = text.find("\n", start + _CHUNK) + 1 or len(text)
                self.where.update(dict.fromkeys(_words(text[start:end]).difference(self.where), (i, start, line)))
                line += text.count("\n", start, end)
                start = end
        self.first: dict[str, tuple[str, int]] = {}  # word -> (path, line), once asked for

    def mention(self, name: str, kind: str) -> dict[str, Any] | None:
        """The evidence that the texts mention `name`, or None."""
        at = self.where.get(name)  # most names are in none of the texts
        if at is None or len(name) < 3:
            return None
        found = self.first.get(name)
        if found is None:
            i, start, line = at
            path, text = self.texts[i]
            found = self.first[name] = (path, line + text.count("\n", start, _first_word(text, name, start)))
        path, line = found
        return {"kind": kind, "detail": f"{path} mentions {name}", "path": path, "line": line}


def _words(text: str) -> set[str]:
    """The words `_WORD.finditer` finds in a text, found faster: the runs between ASCII non-word
    characters and whitespace (neither is ever in a word) are split out in C, with no match object
    per word; an ASCII run's word starts after its leading digits, runs with other characters are
    left to `_WORD`."""
    runs = set(text.encode("utf-8", "surrogatepass").translate(WORDS_ONLY).decode("utf-8", "surrogatepass").split())
    words = {run.lstrip("0123456789") for run in runs if run.isascii()}
    words.update(_WORD.findall(" ".join(run for run in runs if not run.isascii())))
    words.discard("")
    return words


def _first_word(text: str, word: str, start: int) -> int:
    """Where `word`, a word of the text from `start` on, first occurs there as a word: not inside a
    longer one (`get` in `getter` or `target`; `abc` in `x9abc`, whose word starts at x)."""
    start = text.find(word, start)
    while start >= 0:
        end = start + len(word)
        if end == len(text) or not _word_char(text[end]):
            i = start - 1
            while i >= 0 and _word_char(text[i]) and text[i] not in _LEAD:
                i -= 1
            if i < 0 or text[i] not in _LEAD:  # the run of [\w$] has no earlier word start
                return start
        start = text.find(word, start + 1)
    # (never reached: the two tokenisations agree; the regex is the rule should they not)
    return next((m.start() for m in _WORD.finditer(text) if m.group() == word), 0)


def _word_char(c: str) -> bool:
    """Whether `c` is one of `[\\w$]`, as `re` matches them in str patterns."""
    return c.isalnum() or c == "_" or c == "$"


def _entry_stems(package: dict[str, Any]) -> set[str]:
    """The package's entry files without their extensions (once per package, for `_module`)."""
    return {e.rsplit(".", 1)[0] for e in package["entries"]}


def _module(path: str, language: str, package: dict[str, Any], entry_stems: set[str]) -> str | None:
    stem = path.rsplit(".", 1)[0]
    if language == "python":
        parts = stem.split("/")
        if parts and parts[0] in ("src", "lib"):
            parts = parts[1:]
        if parts and parts[-1] == "__init__":
            parts = parts[:-1]
        return ".".join(parts) or None
    if language in ("javascript", "typescript", "tsx"):
        name = package["npm_name"]
        if not name:
            return "./" + path
        if path in package["entries"] or stem in entry_stems:
            return name
        return f"{name}/{stem}"
    return stem.replace("/", ".")


def _public_module(path: str, language: str, reachable: set[str], facts: FileFacts) -> bool:
    if language == "python":
        parts = path.rsplit(".", 1)[0].split("/")
        # __main__ is what `python -m` runs, not something to import
        return not any(p.startswith("_") and p != "__init__" for p in parts)
    if language in ("javascript", "typescript", "tsx"):
        return path in reachable
    return True


def _reachable_js(facts: dict[str, FileFacts], package: dict[str, Any]) -> set[str]:
    """JS/TS files reachable from the package's entry files through re-exports (and their sources:
    a dist/ entry's src/ twin, a .d.ts beside its .js)."""
    paths = set(facts)
    if package["open_subpaths"] and package["npm_name"]:
        # every module is importable by its subpath; `_name` files are the package's own helpers
        return {p for p in paths if facts[p].language in ("javascript", "typescript", "tsx")
                and not p.rsplit("/", 1)[-1].startswith("_")}
    stems: dict[str, list[str]] = {}
    for p in paths:
        stems.setdefault(p.rsplit(".", 1)[0].removesuffix(".d"), []).append(p)
    todo = []
    for entry in package["entries"] or {"index.js"}:
        stem = entry.rsplit(".", 1)[0].removesuffix(".d")
        todo += stems.get(stem, []) + stems.get(stem + "/index", [])
        for prefix in ("dist/", "build/", "lib/"):  # published output's source twin
            if stem.startswith(prefix):
                twin = "src/" + stem[len(prefix):]
                todo += stems.get(twin, []) + stems.get(twin + "/index", [])
    seen: set[str] = set()
    while todo:
        path = todo.pop()
        if path in seen or path not in facts:
            continue
        seen.add(path)
        module = facts[path].module
        base = path.rsplit("/", 1)[0] if "/" in path else ""
        for spec in [s for _, s in module.reexports] + list(module.export_all_from) + list(facts[path].imports):
            if spec.startswith("."):
                target = os.path.normpath(os.path.join(base, spec)).replace(os.sep, "/")
                target = target.rsplit(".", 1)[0] if target.endswith((".js", ".ts", ".mjs", ".cjs")) else target
                todo += stems.get(target, []) + stems.get(target + "/index", [])
    return seen


