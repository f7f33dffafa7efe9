"""What the miner's extractors find in one source file: plain records the miner assembles into
candidates (miners/report.py). Every record carries its path and line span, so any claim can be
opened at its source.

Extractors are per concern and per language family: `declarations.py` (functions, classes,
methods, and what a module makes public), `surfaces.py` (CLI commands, HTTP routes, MCP tools
and resources), `effects.py` (calls that show an effect, and hazards that blind static
analysis). Each takes a `ParsedFile` and returns these records; none runs repository code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

SymbolKind = Literal["function", "class", "method"]
SurfaceKind = Literal["cli-command", "cli-subcommand", "http-route", "mcp-tool", "mcp-resource"]


@dataclass
class ParsedFile:
    path: str  # repository-relative, POSIX separators
    language: str  # a tree-sitter-language-pack name: "python", "javascript", "typescript", "tsx", "go", ...
    source: bytes
    tree: Any  # tree_sitter.Tree

    def text(self, node: Any) -> str:
        return self.source[node.start_byte:node.end_byte].decode("utf-8", "replace")


@dataclass
class Symbol:
    kind: SymbolKind
    name: str  # functions and classes: the identifier; methods: "Class.method"
    line: int  # 1-based, first line of the declaration
    end_line: int
    signature: str  # the declaration's head as written: "def slugify(text: str, sep: str = '-') -> str"
    doc: str = ""  # docstring / leading doc comment, first paragraph
    exported: bool = False  # public by the language's own rules (export, __all__, capitalised, pub, public...)
    container: str | None = None  # the class of a method
    start_byte: int = 0  # the body's span, for effect scanning
    end_byte: int = 0
    calls: list[str] = field(default_factory=list)  # names this symbol calls (same-file effect propagation)
    notes: list[str] = field(default_factory=list)


@dataclass
class ModuleSurface:
    """What a module makes reachable by name: `__all__`, `export` forms, `module.exports`,
    re-exports. `names` None means "every public-looking name" (no explicit list)."""

    names: set[str] | None = None
    reexports: list[tuple[str, str]] = field(default_factory=list)  # (exported name, "from" specifier or module)
    export_all_from: list[str] = field(default_factory=list)  # `export * from "x"`, `from x import *`
    default_export: str | None = None  # the local name `export default` / `module.exports =` points to
    renamed: dict[str, str] = field(default_factory=dict)  # a Python re-export's name -> its name where it comes from


@dataclass
class Surface:
    kind: SurfaceKind
    name: str  # CLI: the command path as typed ("mytool sub"); HTTP: "METHOD /path"; MCP: the tool name
    line: int
    end_line: int
    framework: str  # "click", "typer", "argparse", "commander", "yargs", "express", "fastapi", "mcp", ...
    handler: str | None = None  # the function that serves it, when known
    description: str = ""
    input_schema: dict[str, Any] | None = None  # MCP tools: when literal
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass
class EffectHit:
    effect: str  # a Capability effect: "filesystem.read", "network.connect", ...
    confidence: float
    line: int
    call: str  # the call as written, e.g. "fs.readFileSync"
    start_byte: int = 0  # to attribute it to the enclosing symbol


@dataclass
class HazardHit:
    kind: str  # "eval", "dynamic-import", "reflection", "native-addon", "ffi", "install-script"
    detail: str
    line: int


FACTORY = "()"  # a router factory's routers are (file, FACTORY + the function's name)


@dataclass
class Mount:
    """A router mounted under a path prefix (`app.use("/users", users)`, FastAPI's
    `include_router(r, prefix="/v1")`, Flask's `register_blueprint(bp, url_prefix=...)`): the
    routes registered on the mounted router are served under the prefix. The router may be the
    file's own (`module` None) or another module's: `module` is the import specifier as written
    (`./routes/users`, `app.routers.items`, `.routers`), `name` the router's name there
    ("default" for a JS default export)."""

    receiver: str  # the router (or app) it is mounted on, by its name in this file
    prefix: str
    name: str
    module: str | None
    line: int
    called: bool = False  # `name` is a router factory (a function) whose result is mounted
    within: str | None = None  # the function the mount is made in (a factory's router, mounted in turn)
    # a mount of every module of a directory (`router.use(`/${file}`, require(`./${file}`))` over
    # readdirSync): `prefix` and `module` hold "{}" for each module's name, these names left out
    each_except: tuple[str, ...] | None = None


@dataclass
class ViewSet:
    """A class of a Django REST framework module, as a router needs it (miners/viewset_routes.py):
    its bases as written with what their imports make of them, its lookup, its @action methods."""

    name: str
    line: int
    bases: list[tuple[str, str | None]]  # ("viewsets.ModelViewSet", "rest_framework.viewsets.ModelViewSet")
    lookup: str | None = None  # lookup_url_kwarg, else lookup_field, when a literal
    actions: list[dict[str, Any]] = field(default_factory=list)  # {method, detail, methods, url_path, line}


# a field's value as its file writes it: the text, or what it names in another module
# (the import specifier, the name there, and the member of it: `HTTPRoutes.content` -> ("./http", "HTTPRoutes", "content"))
FieldValue = str | tuple[str, str, str | None]


@dataclass
class RouteClass:
    """A class whose fields declare an HTTP route (browserless: `method = Methods.post;
    path = [HTTPRoutes.content]`), as its file writes it; miners/route_classes.py finishes it with
    what the classes it extends and the modules it imports hold."""

    name: str
    line: int
    end_line: int
    exported: bool
    base: tuple[str | None, str] | None  # (specifier, or None for this file; the name there, "default" too)
    names: list[str]  # its own name and its base's as written: what says it is a route
    fields: dict[str, list[FieldValue]]  # "path", "method": their values, in order


@dataclass
class PecanController:
    """A class of a Pecan application's controller tree, as its file writes it (miners/pecan_routes.py
    joins the tree in assembly): the controllers its attributes hold (`alarm = alarm.AlarmsController()`,
    each a path segment) and its exposed methods, with the positional parameters that take path
    segments."""

    name: str
    line: int
    bases: list[str]  # dotted through the file's imports when they say (`pecan.rest.RestController`), else as written
    children: list[tuple[str, str, int]]  # (attribute, the class as dotted or local name, line)
    exposed: list[tuple[str, list[str], int, str]]  # (method, parameters without defaults, line, HTTP method: ANY, GET...)
    custom_actions: dict[str, list[str]] = field(default_factory=dict)  # RestController's `_custom_actions`
    doc: str = ""
    dispatches: bool = False  # defines `_lookup`, `_default` or `_route`: a path's other segments go there
    decorators: dict[int, list[str]] = field(default_factory=dict)  # an exposed method's line: its other decorators, dotted
    verb_names: dict[str, str] = field(default_factory=dict)  # its _handle_<verb> routes that verb to these: {post_all: POST}


@dataclass
class FileFacts:
    path: str
    language: str
    symbols: list[Symbol] = field(default_factory=list)
    module: ModuleSurface = field(default_factory=ModuleSurface)
    surfaces: list[Surface] = field(default_factory=list)
    effects: list[EffectHit] = field(default_factory=list)
    hazards: list[HazardHit] = field(default_factory=list)
    imports: list[str] = field(default_factory=list)  # module specifiers this file imports
    declares_app: bool = False  # calls defineCapabilities or defineApp: read again by the app capability reader
    mounts: list[Mount] = field(default_factory=list)  # routers this file mounts under a prefix
    viewsets: list[ViewSet] = field(default_factory=list)  # Django REST framework classes a router may serve
    route_classes: list[RouteClass] = field(default_factory=list)  # classes whose fields declare a route
    global_prefix: tuple[str, tuple[str, ...]] | None = None  # NestJS's setGlobalPrefix: (prefix, excluded paths)
    strapi_groups: list[tuple[str, str]] = field(default_factory=list)  # Strapi route groups: (group, module)
    backstage_plugin: tuple[str, int] | None = None  # the Backstage backend plugin it declares: (pluginId, line)
    pecan: list[PecanController] = field(default_factory=list)  # Pecan controllers (object dispatch)
    # controllers named as an app's root: ('pkg.root.RootController', the module-level function naming it, or "")
    pecan_roots: list[tuple[str, str]] = field(default_factory=list)
    pecan_injecting: list[str] = field(default_factory=list)  # decorators that insert a method's first argument
    adds_resources_in_loop: bool = False  # add_resource(entry[0], entry[1]): flask-restful resources from a table
    json_servers: list[tuple[str, str, int]] = field(default_factory=list)  # json-server routers: (variable, database, line)
    rule_forms: dict[str, tuple[tuple[tuple[str, str], ...], int]] = field(default_factory=dict)  # Blueprint subclasses' route() paths
    openapi_literal: tuple[dict[str, Any], dict[str, int]] | None = None  # an OpenAPI document as a JS object literal
    router_wrapper: tuple[str, bool] | None = None  # passes verbs on to a router it holds (router package, mounts its base)
    # what of the file an assembly pass reads again needs (words its text has: miners/mine.py's REREAD),
    # so the pass reads no other file
    reread: frozenset[str] = frozenset()
