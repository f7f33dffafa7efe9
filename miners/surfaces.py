"""Surfaces: what a file declares that a user or a client reaches by name. CLI commands (click,
typer, argparse, commander, yargs, cobra), HTTP routes (Express, Koa-router, Hono, Fastify, hapi,
NestJS; FastAPI, Flask, flask-restful/restx, Starlette, Django and DRF, aiohttp, Tornado, Falcon,
Bottle, Pyramid/cornice; net/http, gin, echo, chi, fiber, gorilla; Spring and JAX-RS in
miners/jvm_routes.py; mounts under a prefix are recorded for assembly, miners/mounts.py) and MCP
tools/resources (TypeScript SDK, Python FastMCP/MCPServer and low-level servers, fastmcp, mcp-go).

Queries in miners/queries/<language>/surfaces.scm only collect candidate nodes (calls,
decorators, bindings); this module decides what each declares, because a receiver (`app`,
`router`, `mcp`), a name held in a constant or an enum, and a router prefix all need the file's
own bindings. Nothing is guessed from another file: a route needs a literal path, a tool a name
that is literal or a same-file constant.

CLI names: `Surface.name` is the command path as typed. When the program name is known from
the file (a click group, `prog=`, `new Command("tool")`, `.scriptName()`, cobra's root `Use`),
it starts the path and `detail["program_known"]` is True; otherwise the path starts at the first
subcommand (an empty name for the program itself) and the miner prefixes the package's bin or
console script name.
"""

from __future__ import annotations

import inspect
import itertools
import math
import operator
import re
from collections.abc import Callable, Iterator
from collections.abc import Set as AbstractSet
from typing import Any, TypeVar

from miners import jvm_routes
from miners.assets import js_serves_file, py_serves_file
from miners.doc_comments import doc_comment_text
from miners.facts import FACTORY, Mount, ParsedFile, Surface, ViewSet
from miners.parsing import captures, descendants, fast_text, file_captures, python_definitions
from miners.py_annotations import parameters_schema
from miners.py_literals import literal_eval
from miners.python_imports import python_imports
from miners.python_modules import absolute
from miners.words import positions, present

T = TypeVar("T")

UNRESOLVED: Any = object()
# Every JS/TS surface is declared by a call of a method named one of these (`app.get`, `program.command`,
# `server.registerTool`...: see _Js.http, mcp and cli), so a file that names none declares none. A route
# also needs its path, a string starting with "/" (a literal, or a same-file constant's or enum's), so
# a route verb counts only in a file with a quote followed by "/" (or by an escape that may be one).
_JS_MAY_DECLARE = re.compile(rb"\.\s*(command|addCommand|tool|resource|registerTool|registerResource|"
                             rb"setRequestHandler|addTool|addResource)\s*[(<]")  # `<`: TypeScript's type arguments
_JS_MAY_ROUTE = re.compile(rb"\.\s*(get|post|put|delete|del|patch|head|options|all|route|use|register)\s*[(<]")
# (use, register: a mount)
_JS_CLI_LOAD = re.compile(rb"""(?:require\(\s*|from\s+|import\(\s*)['"](?:commander|yargs)(?:/[^'"\n]*)?['"]""")
_JS_QUOTED_SLASH = re.compile(rb"""['"`](?:/|\\/|\\x2[fF]|\\u002[fF]|\\u\{0*2[fF]\})|`\$\{[\w$.]+\}/""")  # (or `${BASE}/x`)
# a router that takes the method first: find-my-way's `router.on('GET', '/x', h)` (or a list of
# methods), Hono's `app.on('PURGE', '/cache', h)`, parse-server's `this.route('GET', '/installations', h)`
_JS_VERB_FIRST = re.compile(rb"""\.\s*(?:on|route|add|addRoute|register|handle)\(\s*\[?\s*"""
                            rb"""['"](?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)['"]\s*[,\]]""")
# Fedify's dispatchers that serve a path to GET, and where the path is among their arguments
_FEDIFY_DISPATCHERS = {"setActorDispatcher": 0, "setObjectDispatcher": 1, "setOutboxDispatcher": 0,
                       "setFollowersDispatcher": 0, "setFollowingDispatcher": 0, "setLikedDispatcher": 0,
                       "setFeaturedDispatcher": 0, "setFeaturedTagsDispatcher": 0, "setNodeInfoDispatcher": 0}
_FEDIFY_EXPANSION = re.compile(r"\{[+#]([A-Za-z_][\w]*)\}")
_JS_VERB_FIRST_CALLS = ("on", "route", "add", "addRoute", "register", "handle")


# a handler registered with an options object naming its method and path (Flink's addHandler)
_OPTION_CALLS = ("addHandler", "registerHandler")
_OPTION_ROUTE = re.compile(rb"\.(?:addHandler|registerHandler)\(")


def _option_route(source: bytes) -> bool:
    return b"Handler(" in source and _OPTION_ROUTE.search(source) is not None  # (the plain find first)


def _js_may_declare(source: bytes) -> bool:
    # the route verb first: quotes are everywhere, `.get(` is not (half the time of the other order)
    return bool(_JS_MAY_DECLARE.search(source) or _JS_MAY_ROUTE.search(source) and _JS_QUOTED_SLASH.search(source)
                or _NEST in source or _LOOPBACK in source or _MICROROUTER in source or _returns_routers(source)
                or _table_verb(source) or _JS_VERB_FIRST.search(source) is not None or _FEDIFY in source
                or _option_route(source))


def _returns_routers(source: bytes) -> bool:
    """Whether the file may return routers other modules' factories make (_Js.returned_routers):
    it makes a router and calls a required module's export."""
    return b"Router()" in source and b"return" in source and _JS_REQUIRED_CALL.search(source) is not None


def _table_verb(source: bytes) -> bool:
    """Whether a router's method may be looked up by a table row's field (_Js.table_loop_routes)."""
    return (b".action" in source or b".method" in source or b".verb" in source) and \
        _JS_TABLE_VERB.search(source) is not None


# a router's method looked up by a table row's field, `router[endpoint.action]`
_JS_TABLE_VERB = re.compile(rb"\[\s*[A-Za-z_$][\w$]*\.(?:action|method|verb)\s*\]")
_JS_REQUIRED_CALL = re.compile(rb"""require\(\s*['"]\.[^'"\n]*['"]\s*\)\s*\(""")


_MICROROUTER = b"microrouter"  # micro's router: its verbs are plain functions, which no member call pattern finds
_MICROROUTER_MODULES = ("microrouter",)
# Routes' requirement in a path, `{artifact_path:.*?/*.*?}`: the parameter a client fills is `{artifact_path}`
_ROUTES_REQUIREMENT = re.compile(r"\{(\w+):[^{}]*\}")
_PYRAMID_CONFIGS = ("config", "configurator", "cfg")
_PYRAMID_WRAPPED = re.compile(rb"\.add_route\(\s*(?:config|configurator|cfg)\s*,")  # a wrapper's call
_PYRAMID_INCLUDEME = re.compile(rb"^def includeme\(\s*config\b", re.MULTILINE)
_NEST = b"@nestjs/common"  # NestJS: routes are decorators (@Controller, @Get), which no call pattern finds
_FEDIFY = b"@fedify/fedify"  # Fedify: its federation serves the paths its dispatchers are set with (_Js.fedify)
_LOOPBACK = b"@loopback/"  # LoopBack 4: so are its (@get('/mails'), @del(...)), from rest or openapi-v3
_LOOPBACK_MODULES = ("@loopback/rest", "@loopback/openapi-v3")


def js_may_declare(parsed: ParsedFile) -> bool:
    """Whether a JS/TS file may declare a surface: its text names a declaring call
    (`_js_may_declare`), and one of those names is a call's method that could declare one. A name in
    a comment or a string is no call, and `cache.get(key)` is no route: a route call ends with its
    handler after the path (or hangs from `.route(path)`), and `.route()` alone takes an object or
    an array. Most large library files name `.get(` only so, and skip the query pass their
    extraction would cost (lodash.js: 40 ms)."""
    source = parsed.source
    if not _js_may_declare(source):
        return False
    if _NEST in source or _LOOPBACK in source or _MICROROUTER in source or _returns_routers(source) or \
            _table_verb(source) or _JS_VERB_FIRST.search(source) is not None or _FEDIFY in source or \
            _option_route(source):
        return True
    root, slash, cli_loaded = parsed.tree.root_node, None, None
    for regex in (_JS_MAY_DECLARE, _JS_MAY_ROUTE):
        for m in regex.finditer(source):
            call = _method_call(root, *m.span(1))
            if call is None:
                continue
            if regex is _JS_MAY_DECLARE:
                if m[1] in (b"command", b"addCommand"):
                    if cli_loaded is None:  # (searched once per file)
                        cli_loaded = _JS_CLI_LOAD.search(source) is not None
                    if not cli_loaded and not _cli_root(call):
                        continue  # yargs's own `this.usage.command(...)`: the library, not a CLI on it
                return True  # CLI and MCP declarations: every such call is read
            if slash is None:
                slash = _JS_QUOTED_SLASH.search(source) is not None
                if not slash:
                    return False  # no path anywhere for a route
            args = js_args(call.child_by_field_name("arguments"))
            if m[1] == b"route":
                if len(args) == 1 and _unwrap_js(args[0]).type in ("object", "array") or len(args) == 2:
                    return True  # fastify/hapi route objects; Hono's app.route("/books", books) mount
            elif m[1] == b"use":
                if len(args) >= 2:
                    return True  # app.use("/users", users): a mount (_Js.mounts)
            elif m[1] == b"register":
                if len(args) >= 2 and getattr(_unwrap_js(args[1]), "type", None) == "object":
                    return True  # fastify.register(plugin, { prefix: "/columns" }): a mount
            elif len(args) >= (1 if _on_route(call) else 2) and js_handler(parsed, args[-1]):
                return True  # (the rules _Js.verb_route reads a route by)
    return False


def _cli_root(call: Any) -> bool:
    """Whether a `.command(...)` call hangs from `program`, `yargs` or `cli`: in a file that loads
    neither commander nor yargs, the only commands _Js.cli reads."""
    node = call.child_by_field_name("function")
    while node is not None and node.type in ("member_expression", "call_expression"):
        node = node.child_by_field_name("object") if node.type == "member_expression" else \
            node.child_by_field_name("function")
    return node is not None and node.type == "identifier" and node.text in (b"program", b"yargs", b"cli")


def _on_route(call: Any) -> bool:
    """Whether a verb call hangs from `.route(...)` through other verbs: `r.route("/x").get(h).post(h)`."""
    node = call.child_by_field_name("function").child_by_field_name("object")
    while node is not None and node.type == "call_expression":
        function = node.child_by_field_name("function")
        prop = function.child_by_field_name("property") if function is not None and \
            function.type == "member_expression" else None
        name = prop.text if prop is not None else b""
        if name == b"route":
            return True
        if name.decode() not in HTTP_VERBS and name != b"all":
            return False
        node = function.child_by_field_name("object")
    return False


def _method_call(root: Any, start: int, end: int) -> Any:
    """The call `x.name(...)` whose method name spans exactly [start, end), else None."""
    node = root.descendant_for_byte_range(start, end)
    if node is None or node.type != "property_identifier" or node.start_byte != start or node.end_byte != end:
        return None
    member = node.parent
    call = member.parent if member is not None and member.type == "member_expression" else None
    if call is None or call.type != "call_expression" or call.child_by_field_name("function") != member or \
            member.child_by_field_name("property") != node:
        return None
    return call


# Every Python surface is a decorator named by one of the words the extractor looks for (click's and
# typer's command/group/callback, a route verb, MCP's tool/resource; `@property` declares nothing),
# or one of these calls (argparse, typer/click registration, typer.run, Flask/FastAPI rules, Django
# urlpatterns, MCP add_tool and low-level Tool, decli specs). Searched one kind at a time: a regex
# alternation of plain words is tried at every position, a bytes `in` is a C substring search (a
# test checks the answers against the one regex these were split from).
_PY_DECORATOR_WORDS = (rb"command|group|callback|get|post|put|delete|patch|head|options|route|api_route|tool|resource|"
                       rb"view_config|view_defaults|websocket|path")  # path: a package's own `@handler(path=...)`
# a decorator starts its line (after indentation): anchoring there keeps the search linear on
# hostile text (a line of 4,000 `@` once cost 4,000 scans of the line)
_PY_DECORATOR = re.compile(rb"^[ \t]*(@)(?:(?:[^\n]*\\\n)*[^\n]*?\b(?:" + _PY_DECORATOR_WORDS + rb")\b|\s*\(|"
                           rb"[\w.]+\([ \t]*\n[ \t]*path[ \t]*=)",  # (its keywords on the lines after)
                           re.MULTILINE)
# (not add_command: it only re-parents commands a decorator declared, which the decorator finds:
# click's own core.py calls it, and declares nothing)
_PY_ADD_CALLS = (b"add_parser", b"add_typer", b"add_router", b"add_url_rule", b"add_api_route",
                 b"add_tool", b"add_resource", b"add_route", b"add_get", b"add_post", b"add_put", b"add_patch",
                 b"add_delete", b"add_head", b"add_view", b"add_routes", b"add_handlers")
_PY_MOUNT_CALLS = (b"include_router", b"register_blueprint", b"add_subapp", b"putChild",
                   b"add_namespace")  # mounts: no surface
# of their own; `tornado`: its handler lists are data (`[(r"/x", XHandler)]`), not calls a word names
# (an ArgumentParser declares a command only with its `prog` (_Python.argparse; add_parser is a call word)
_PY_WORDS = (b"typer", b"urlpatterns", b"subcommands", b"FastAPI(",  # FastAPI(): its own pages
             b"StaticFiles(",  # Starlette's files mounted at a path
             b"FastHTML(", b"fast_app(",  # FastHTML routes with `@rt("/x")` of `rt = app.route`
             b"route_handlers")  # Litestar's Router(path=..., route_handlers=[...]) mounts
# frameworks whose routes are data, not calls a word names (Tornado's handler lists, DRF's classes): an
# import of one is the reason to read a file (the word alone is in rich's emoji table: ":tornado:")
_PY_FRAMEWORK_IMPORT = re.compile(rb"^[ \t]*(?:(?:from|import)[ \t]+(?:tornado|rest_framework(?:_nested)?|jupyter_server|"
                                  rb"notebook\.(?:base|utils))\b|"
                                  rb"from[ \t]+django(?:\.conf)?\.urls[ \t]+import[^\n]*\b(?:(?:re_)?path|url)\b)",
                                  re.MULTILINE)
# (django.urls' path, or the old django.conf.urls' url: a module of url patterns may name no urlpatterns)
_PY_CONSTRUCTORS = re.compile(rb"(?<![\w$\x80-\xff])(?:Tool|Resource|Group|Route)\s*\(")  # Route: Starlette's route lists
# a class-based view (Django's, DRF's): what its route serves is the methods its class has
_PY_VIEW_CLASS = re.compile(rb"^[ \t]*class[ \t]+\w+[ \t]*\([^)]{0,400}View", re.MULTILINE)  # bounded: no rescan to EOF
# a route table's entry, `("/things/{id}", things.ThingResource(db))`: a path literal paired with
# a class (capitalised, as classes are), Falcon's resources listed apart from the add_route loop
# that registers them
# a version catalog's entry, `("/v2", v2_0.public_endpoints(self, conf))`: a prefix and a function's result
_PY_FACTORY_TUPLE = re.compile(rb"\(\s*[rRuU]?(['\"])/[^'\"\n]{0,300}\1\s*,\s*(?:[A-Za-z_]\w*\.){0,4}[a-z_]\w*\s*\(")
_PY_ROUTE_TUPLE = re.compile(rb"\(\s*(?:[rRuU]|[fF][rR]?|[rR][fF])?(['\"])/[^'\"\n]{0,300}\1\s*,\s*(?:[A-Za-z_]\w*\.){0,4}[A-Z]\w*\s*[(),]")
# a flask-restful table's entry, `(CoreStudies, "/studies")`: a class, then a path
_PY_RESOURCE_TUPLE = re.compile(rb"\(\s*(?:[A-Za-z_]\w*\.){0,4}[A-Z]\w*\s*,\s*[rRuU]?(['\"])/[^'\"\n]{0,300}\1\s*\)")
# a Routes mapper's route, `mapper.connect("profile_index", "/profiles", conditions={'method': 'GET'})`
_PY_MAPPER_CONNECT = re.compile(rb"""\.connect\(\s*(?:[rRuU]?['"][^'"\n]*['"]\s*,\s*)?[rRuU]?['"]/""")
# a table's row of a route, `{'name': 'stack_index', 'url': '/stacks', 'method': 'GET'}`
_PY_ROW_PATH = re.compile(rb"""['"](?:url|path)['"]\s*:\s*[rRuU]?['"]/""")
# a connect whose method a name holds, `conditions={'method': [method]}` (a wrapper's loop over its methods)
_PY_CONDITION_NAME = re.compile(rb"""conditions\s*=\s*\{\s*['"]method['"]\s*:\s*\[?\s*[A-Za-z_]""")
# a Routes mapper's REST collection, `mapper.resource("plan", "plans", controller=...)`
_PY_MAPPER_RESOURCE = re.compile(rb"""mapper\.resource\(\s*[rRuU]?['"]\w+['"]\s*,\s*[rRuU]?['"][\w-]+['"]""")
# another module's handler list taken into this one's, `default_handlers.extend(mod.default_handlers)`
_PY_LIST_EXTEND = re.compile(rb"\.extend\(\s*[A-Za-z_]\w*\.\w*(?:handlers|routes)\s*\)", re.IGNORECASE)
# a route decorator applied by a call, `put_file = app.put("/{checksum}")(put_file)`
# a registration that takes the method first, `server.add_route("POST", TOKEN_PATH, token)`, and a
# table row for one, `("GET", "/_localqpu/health", get_health)`
_PY_VERB_FIRST = re.compile(rb"""\.(?:add|add_route|route|register|add_handler|on|map)\(\s*['"](?:GET|POST|PUT|PATCH|DELETE)['"]\s*,""")
_PY_VERB_ROW = re.compile(rb"""\(\s*['"](?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)['"]\s*,\s*[rRuU]?['"]/""")
_VERB_FIRST_CALLS = ("add", "add_route", "route", "register", "add_handler", "on", "map")
_PY_APPLIED = re.compile(rb"\.(?:route|api_route|get|post|put|delete|patch|head|options|websocket)\([^()\n]*\)\(")
# a mapper's own method called with a path and a method (cinder's `mapper.create_route('/x', 'GET', ...)`),
# or a table of (path, {method: ...}) rows (nova's ROUTE_LIST) a loop hands to one
_PY_MAPPER_METHOD = re.compile(rb"""mapper\.\w+\(\s*['"]/[^'"\n]*['"]\s*,\s*"""
                               rb"""['"](?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)['"]"""
                               rb"""|\(\s*['"]/[^'"\n]*['"]\s*,\s*\{\s*['"](?:GET|POST|PUT|PATCH|DELETE)['"]\s*:""")


def _mapper_method_shaped(source: bytes) -> bool:
    """Whether the source calls a mapper's method with a path and a method, or holds a table of
    (path, {method: ...}) rows (the search only where its cheap words are)."""
    return (b"mapper." in source or b"', {" in source or b'", {' in source) and \
        _PY_MAPPER_METHOD.search(source) is not None


def _py_decorator(source: bytes, at: int = 0) -> re.Match[bytes] | None:
    """The first _PY_DECORATOR match from `at`: tried only at the lines where an `@` follows
    indentation alone (a search of the whole text tries the pattern at every byte)."""
    at = source.find(b"@", at)
    while at >= 0:
        start = source.rfind(b"\n", 0, at) + 1
        if not source[start:at].strip(b" \t"):
            m = _PY_DECORATOR.match(source, start)
            if m is not None:
                return m
        at = source.find(b"@", at + 1)
    return None


def _py_applied(source: bytes) -> bool:
    """Whether a line applies a route decorator by a call: only the lines with `)(` are searched
    (a search of the whole file stops at every `.`); a call over several lines or with calls in
    its arguments (`bp.route(\n cv("LOGIN_URL", app),\n methods=[...])(login)`) by the name before
    its opening parenthesis."""
    at = source.find(b")(")
    while at >= 0:
        if _PY_APPLIED.search(source, source.rfind(b"\n", 0, at) + 1, at + 2):
            return True
        if _PY_APPLIED_CALL.search(source, max(0, at - _PAREN_REACH), at):  # (only then is the call found)
            opening = _opening_paren(source, at)
            if opening > 0 and _PY_APPLIED_NAME.search(source, max(0, opening - 12), opening + 1):
                return True
        at = source.find(b")(", at + 2)
    return False


_PY_APPLIED_CALL = re.compile(rb"\.(?:route|api_route|get|post|put|delete|patch|head|options|websocket)\(")
_PY_APPLIED_NAME = re.compile(rb"\.(?:route|api_route|get|post|put|delete|patch|head|options|websocket)\($")
_PAREN_REACH = 2000  # bytes looked back for a call's opening parenthesis


def _opening_paren(source: bytes, close: int, depth: int = 0) -> int:
    """Where the `(` that the `)` at `close` closes is, looking back at most _PAREN_REACH bytes
    (parentheses in strings are counted too; bench/check_skips.py checks the prefilter on real
    packages); -1 when not found. With `depth` 1, the `(` that the position `close` is inside of
    (or is)."""
    for i in range(close, max(-1, close - _PAREN_REACH), -1):
        c = source[i]
        if c == 0x29:  # )
            depth += 1
        elif c == 0x28:  # (
            depth -= 1
            if depth == 0:
                return i
    return -1


def _py_may_declare(source: bytes, tokens: AbstractSet[bytes]) -> bool:
    """Whether the file may declare a Python surface (no, when it names none of the above).
    `tokens`: the words of the source (a name is looked up, not searched for)."""
    return _py_named(source, tokens) or _py_shaped(source, tokens)


def _py_named(source: bytes, tokens: AbstractSet[bytes]) -> bool:
    """A decorator, a call word or a constructor that may declare a surface, or a word that does."""
    return (_py_decorator(source) is not None
            or not tokens.isdisjoint(_PY_CALL_WORDS)
            or not tokens.isdisjoint(_PY_WORD_SET)
            or not tokens.isdisjoint(_PY_CONSTRUCTOR_WORDS) and _PY_CONSTRUCTORS.search(source) is not None)


def _py_shaped(source: bytes, tokens: AbstractSet[bytes]) -> bool:
    """What declares a surface by its shape alone, wherever it is (py_may_declare keeps these files
    without checking that a name is called): an ArgumentParser with its prog, a class-based view,
    a route table, a decorator applied by a call, an import of a framework whose routes are data."""
    return (b"ArgumentParser" in tokens and b"prog" in tokens
            or b"View" in source and _PY_VIEW_CLASS.search(source) is not None
            or b"/" in source and _PY_ROUTE_TUPLE.search(source) is not None
            or _py_resource_table(source, tokens)
            or _py_method_table(source)
            or _py_applied(source)
            or not tokens.isdisjoint(_VERB_WORDS) and (_PY_VERB_FIRST.search(source) is not None
                                                       or _PY_VERB_ROW.search(source) is not None)
            or b".extend(" in source and _PY_LIST_EXTEND.search(source) is not None
            or (b"Mapper" in source or b"RoutesDispatcher" in source or b"mapper.connect(" in source)
            and _PY_MAPPER_CONNECT.search(source) is not None
            or b"mapper.resource(" in source and _PY_MAPPER_RESOURCE.search(source) is not None
            or _mapper_method_shaped(source)
            or b"ResourceExtension" in tokens and b"ResourceExtension(" in source  # _Python.resource_extensions
            or b"connect(" in source and _PY_ROW_PATH.search(source) is not None  # heat's (miners/dict_tables.py)
            or b"connect(" in source and _PY_CONDITION_NAME.search(source) is not None  # tacker's _setup_route
            or not tokens.isdisjoint(_PY_FRAMEWORK_WORDS) and _PY_FRAMEWORK_IMPORT.search(source) is not None
            # a module-level table of handlers of a package's own RequestHandler (dask's `routes = [...]`)
            or b"RequestHandler" in tokens and b"routes" in tokens
            or b"werkzeug" in tokens and b"Rule" in tokens  # Werkzeug's routing, Rules (miners/werkzeug_routes.py)
            or b"router.register(" in source  # a DRF router handed to a function (_Python.handed_routers)
            or b"Instrumentator" in tokens and b"expose" in tokens  # _Python.prometheus_metrics
            or (b"make_wsgi_app" in tokens or b"make_asgi_app" in tokens) and b"prometheus_client" in source
            or b"Bokeh" in source and b"/" in source  # a Bokeh server's documents, by path (_Python.bokeh)
            or b"/" in source and not tokens.isdisjoint(_VERB_WORDS)  # _Python.verb_path_tables
            and _PY_VERB_PATH_KEY.search(source) is not None
            # a module of handlers a server loads by name (_Python.handler_loader_lists)
            or (b"def get_handlers(" in source or b"def get_routes(" in source) and b"Handler" in source
            # Bottle's route registered by a call with its callback (_Python.callback_route)
            or b"bottle" in tokens and _PY_BOTTLE_CALL.search(source) is not None)


# a dict keyed by (method, path): `('GET', '/config'): self._get_config` (_Python.verb_path_tables)
_PY_VERB_PATH_KEY = re.compile(rb"""\(\s*['"](?:GET|POST|PUT|PATCH|DELETE)['"]\s*,\s*['"]/[^'"\n]*['"]\s*\)\s*:""")
# `app.route("/x", "GET", handler)`, `self.route(rule, method="POST", callback=cb)`, `app.get("/x", callback=h)`
_PY_BOTTLE_CALL = re.compile(rb"\.route\(\s*[^\n()]*,|\bcallback\s*=")


def _py_resource_table(source: bytes, tokens: AbstractSet[bytes]) -> bool:
    """A flask-restful module with a `(Resource, "/path")` entry (_Python.resource_tables)."""
    return not tokens.isdisjoint(_RESTFUL_MODULES) and b"/" in source and _PY_RESOURCE_TUPLE.search(source) is not None


_RESTFUL_MODULES = frozenset((b"flask_restful", b"flask_restx"))
# a route table keyed by path, then by HTTP method: `'/traits': {'GET': trait.list_traits, ...}`
_PY_METHOD_TABLE = re.compile(rb"""['"]/[^'"\n]*['"]\s*:\s*\{\s*['"](?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)['"]\s*:""")
# what registers a table's routes, in a loop over its items (Routes' mapper.connect, and the like)
_PY_TABLE_REGISTERS = re.compile(rb"\.(?:connect|add_route|add_url_rule|add_api_route)\(")


def _py_method_table(source: bytes) -> bool:
    """A module with a route table by path and method that a loop of its own registers
    (_Python.method_tables)."""
    return b".items()" in source and _PY_METHOD_TABLE.search(source) is not None and \
        _PY_TABLE_REGISTERS.search(source) is not None


_PY_CALL_WORDS = frozenset(_PY_ADD_CALLS + _PY_MOUNT_CALLS)
_PY_WORD_SET = frozenset(w.rstrip(b"(") for w in _PY_WORDS)
_PY_CONSTRUCTOR_WORDS = frozenset((b"Tool", b"Resource", b"Group", b"Route"))
# modules whose importers may define DRF viewsets (NetBox's and Nautobot's API viewsets are DRF's)
_PY_VIEWSET_MODULES = frozenset(("rest_framework", "django", "flask", "netbox", "nautobot"))
_PY_FRAMEWORK_WORDS = frozenset((b"tornado", b"rest_framework", b"rest_framework_nested", b"django", b"jupyter_server",
                                 b"notebook"))
_PY_KEPT_WORDS = frozenset((b"typer", b"urlpatterns", b"decli", b"FastAPI", b"StaticFiles", b"FastHTML", b"fast_app",
                            b"route_handlers"))


def py_may_declare(parsed: ParsedFile) -> bool:
    """Whether a Python file may declare a surface: its text passes `_py_may_declare`, and what it
    matched is code. A decorator's `@` is a decorator's (not a docstring's example), an `add_*`
    name is called, `Tool(`/`Resource(` is a call. `Group(` alone declares nothing (a click.Group
    only parents commands its decorators or add_command calls declare), nor does `subcommands`
    without an import of decli (_Python.decli reads nothing else); the other words stand for
    themselves."""
    source, tokens = parsed.source, present(parsed)
    if not _py_named(source, tokens):
        return _py_shaped(source, tokens)  # (each shape is checked once)
    if not tokens.isdisjoint(_PY_KEPT_WORDS) or _py_shaped(source, tokens):
        return True
    root = parsed.tree.root_node
    at = 0
    while at >= 0:
        m = _py_decorator(source, at)
        if m is None:
            break
        node = root.descendant_for_byte_range(m.start(1), m.start(1) + 1)
        if node is not None and node.start_byte == m.start(1) and node.parent is not None and \
                node.parent.type == "decorator":
            return True
        # the next line: a match that starts in a string must not hide a decorator it overlaps
        at = source.find(b"\n", m.start(1))
        at = at + 1 if at >= 0 else -1
    for word in _PY_ADD_CALLS + _PY_MOUNT_CALLS:
        if word in tokens and any(_py_called(root, at, at + len(word)) is not None for at in positions(source, word)):
            return True
    for m in _PY_CONSTRUCTORS.finditer(source):
        word = m[0].rstrip(b"( \t\n\r\f\v")
        if word != b"Group" and _py_called(root, m.start(), m.start() + len(word)) is not None:
            return True
    return False


_PROJECT_MAPPER = re.compile(rb"\nclass ProjectMapper\b[^\n]*:\n(?:[ \t]+[^\n]*\n|[ \t]*\n)*")


def project_mapper_twice(source: bytes) -> bool:
    """Whether the module's `class ProjectMapper` maps each resource twice, under `{project_id}/`
    and without it (cinder's, masakari's: `routes.Mapper.resource(...)` called twice), not once."""
    found = _PROJECT_MAPPER.search(b"\n" + source) if b"class ProjectMapper" in source else None
    return found is not None and found[0].count(b"Mapper.resource(") >= 2


def _py_called(root: Any, start: int, end: int) -> Any:
    """The call whose callee is the name spanning exactly [start, end) (`f(...)`, `x.f(...)`), else None."""
    node = root.descendant_for_byte_range(start, end)
    if node is None or node.type != "identifier" or node.start_byte != start or node.end_byte != end:
        return None
    callee = node
    parent = node.parent
    if parent is not None and parent.type == "attribute" and parent.child_by_field_name("attribute") == node:
        callee, parent = parent, parent.parent
    if parent is None or parent.type != "call" or parent.child_by_field_name("function") != callee:
        return None
    return parent


_THIS_OBJECT = re.compile(rb"\bthis\s*\.\s*(#?[A-Za-z_$][\w$]*)\s*=\s*(?:Object\.freeze\(\s*)?\{")
# `this.pagesEndpoint = pages.pagesEndpoint ? pages.pagesEndpoint : 'apps'`: a member a path is built of
_THIS_STRING = re.compile(rb"\bthis\s*\.\s*(#?[A-Za-z_$][\w$]*)\s*=(?!=)")
_COMPILED_ENUM = re.compile(r'\b([A-Za-z_$][\w$]*)\["([A-Za-z_$][\w$]*)"\]\s*=\s*"([^"\\\n]*)"')
_JS_SUBSCRIPT = re.compile(r"\[['\"`]([^'\"`]+)['\"`]\]")
_ZOD = re.compile(r"\bz\s*\.")
_SERVERISH = re.compile(r"(server|mcp)$", re.IGNORECASE)  # a value that is not a literal (or a same-file constant)

HTTP_VERBS = ("get", "post", "put", "delete", "patch", "head", "options")
_VERB_WORDS = frozenset(v.upper().encode() for v in HTTP_VERBS)  # (looked up before a method-first pattern searches)
METHODS_UNKNOWN = "the resource ({}) is made at run time: which methods it answers is not known"
LOOPBACK_VERBS = {"get": "GET", "post": "POST", "put": "PUT", "patch": "PATCH", "del": "DELETE", "head": "HEAD",
                  "options": "OPTIONS"}  # @loopback/rest's route decorators
NEST_VERBS = {"Get": "GET", "Post": "POST", "Put": "PUT", "Delete": "DELETE", "Patch": "PATCH", "Head": "HEAD",
              "Options": "OPTIONS", "All": "ANY"}  # @nestjs/common's route decorators


def extract_surfaces(parsed: ParsedFile) -> list[Surface]:
    """Every surface `parsed` declares, in source order. Languages without an extractor give []."""
    return extract_surfaces_and_mounts(parsed)[0]


def extract_surfaces_and_mounts(parsed: ParsedFile) -> tuple[list[Surface], list[Mount], list[ViewSet]]:
    """(the surfaces, in source order; the routers it mounts under a prefix; the Django REST
    framework classes a router may serve)."""
    fast_text(parsed)
    if parsed.language in ("java", "kotlin") and parsed.tree is not None:  # Spring MVC, JAX-RS (jvm_routes.py)
        return sorted(jvm_routes.extract(parsed), key=lambda s: (s.line, s.name)), [], []
    extractor = {"python": _Python, "javascript": _Js, "typescript": _Js, "tsx": _Js, "go": _Go}.get(parsed.language)
    if extractor is None or parsed.tree is None:
        return [], [], []
    if extractor is _Js and not js_may_declare(parsed):
        return [], [], []  # none of the calls every JS/TS surface is made with: most library files end here
    if extractor is _Python and not py_may_declare(parsed):
        return [], [], []  # no decorator and none of the registration calls: no surface
    reader = extractor(parsed)
    surfaces = reader.run()
    surfaces.sort(key=lambda s: (s.line, s.name))
    return surfaces, getattr(reader, "found_mounts", []), getattr(reader, "found_viewsets", [])


# --- shared helpers ---------------------------------------------------------------------------------------


def line_of(node: Any) -> int:
    return node.start_point[0] + 1


def end_line_of(node: Any) -> int:
    return node.end_point[0] + 1


def collect(language: str, concern: str, root: Any) -> dict[str, list[Any]]:
    """The query's captures, each list in source order."""
    found = captures(language, concern, root)
    return {name: sorted(nodes, key=lambda n: n.start_byte) for name, nodes in found.items()}


_source_order = operator.attrgetter("start_byte", "end_byte")  # (start, end): C-level, no Python frame per node


def collect_file(pf: ParsedFile, concern: str) -> dict[str, list[Any]]:
    """The captures of the file's `concern` query (from the file's one shared query pass), each list
    in source order; nodes that start together come innermost first."""
    found = file_captures(pf, concern)
    return {name: sorted(nodes, key=_source_order) if len(nodes) > 1 else nodes for name, nodes in found.items()}


def first_paragraph(doc: str) -> str:
    return doc.strip().split("\n\n", 1)[0].replace("\n", " ").strip() if doc else ""


def derived_name(function: str) -> str:
    """click 8.2's command name for a function: lower case, `_` -> `-`, a trailing `-command`/`-cmd`/
    `-group`/`-grp` dropped."""
    name = function.lower().replace("_", "-")
    left, sep, suffix = name.rpartition("-")
    return left if sep and left and suffix in ("command", "cmd", "group", "grp") else name


def _unwrap_js(node: Any) -> Any:
    # (x), x as const, x satisfies T, x!, <T>x: the value is the inner expression
    while node is not None and node.type in (
        "parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression", "type_assertion",
    ):
        inner = [c for c in node.named_children if c.type != "comment"]
        node = inner[0] if node.type != "type_assertion" else inner[-1]
    return node


_JS_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "b": "\b", "f": "\f", "v": "\v"}


def js_string(pf: ParsedFile, node: Any) -> str | None:
    """The value of a JS/TS string or substitution-free template literal, else None."""
    node = _unwrap_js(node)
    if node is None or node.type not in ("string", "template_string"):
        return None
    out = []
    for child in node.children:
        if child.type == "template_substitution":
            return None
        if child.type == "string_fragment":
            out.append(pf.text(child))
        elif child.type == "escape_sequence":
            esc = pf.text(child)[1:]
            if esc[:1] == "u" and esc[1:2] == "{":
                out.append(chr(int(esc[2:-1], 16)))
            elif esc[:1] in ("u", "x") and len(esc) > 1:
                out.append(chr(int(esc[1:], 16)))
            else:
                out.append(_JS_ESCAPES.get(esc, esc))
    return "".join(out)


def py_string(pf: ParsedFile, node: Any) -> str | None:
    """The value of a Python str literal (implicit concatenation included; f-strings are not literal)."""
    while node is not None and node.type == "parenthesized_expression":
        node = node.named_child(0) if node.named_child_count else None
    if node is None or node.type not in ("string", "concatenated_string"):
        return None
    if node.type == "concatenated_string":  # its pieces may sit on several lines: not one expression's text
        parts = [py_string(pf, piece) for piece in node.named_children if piece.type == "string"]
        return "".join(parts) if parts and all(isinstance(part, str) for part in parts) else None  # type: ignore[arg-type]
    try:
        value = literal_eval(pf.text(node))
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    return value if isinstance(value, str) else None


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_jsonable(v) for v in value]
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return value


def py_literal(pf: ParsedFile, node: Any) -> Any:
    """A Python literal (dict/list/str/number/bool/None) as a JSON-like value, else UNRESOLVED."""
    try:
        return _jsonable(literal_eval(pf.text(node)))
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return UNRESOLVED


DEFERRED = "\0"  # around an imported name in a route path: assembly reads it in its module (or drops the route)
# a deferred part its function's callers give: "arg:" + file, function, positional index (-1: by keyword only),
# parameter, default and whether it has one, joined by "#"
CALL_ARGUMENT = "arg:"
CONFIG_FILE = "file:"  # a deferred part read from a config file: "file:" + path + "#" + keys joined by \x1f
SETTING = "setting:"  # a deferred part that is a settings object's field, by name: its class default in the package
_CONFIG_LOADERS = ("yaml.safe_load", "yaml.load", "json.load", "json.loads")
_CONFIG_SUFFIXES = (".yml", ".yaml", ".json")


# Express 5 (path-to-regexp 8) writes an optional part in braces: `{/:tileSize}/:id.json`,
# `/sprite{@:scale}{.:format}`; a brace right after a parameter is not one (Hono's `:id{[0-9]+}`)
_OPTIONAL_PART = re.compile(r"\{([^{}]*)\}")
_PARAMETER_END = re.compile(r":\w+$")
_QUANTIFIER = re.compile(r"\d+(?:,\d*)?")


def _optional_forms(path: str) -> list[str]:
    """The path without its optional parts and with all of them (one form when it has none)."""
    if "{" not in path:
        return [path]
    shortest, full, at = [], [], 0
    for m in _OPTIONAL_PART.finditer(path):
        if path[m.start() - 1:m.start()] == "\\" or m[1][:1] not in ("/", ".", "@", "-", "") and \
                _PARAMETER_END.search(path, max(0, m.start() - 64), m.start()) or _QUANTIFIER.fullmatch(m[1]):
            continue  # escaped, a parameter's pattern (Hono's `:id{[0-9]+}`), a regex's count (`[640]{3}`)
        shortest += [path[at:m.start()]]
        full += [path[at:m.start()], m[1]]
        at = m.end()
    if not full:
        return [path]
    return list(dict.fromkeys(["".join([*shortest, path[at:]]) or "/", "".join([*full, path[at:]])]))


_ALTERNATIVE = re.compile(r"/?[\w\-.:]+(?:/[\w\-.:]+)*")


def _alternatives(path: str) -> list[str]:
    """Express's `'/users|register|signup'` (its path is a regex: `|` between plain paths) as each
    path it serves, every one from the root; any other path as itself."""
    if "|" not in path or "(" in path:
        return [path]
    parts = path.split("|")
    if not all(_ALTERNATIVE.fullmatch(part) for part in parts):
        return [path]
    return list(dict.fromkeys(part if part.startswith("/") else "/" + part for part in parts))


_JS_FUNCTIONS = ("function_declaration", "function_expression", "function", "arrow_function", "method_definition",
                 "generator_function_declaration")


def js_parameter_names(pf: ParsedFile, function: Any) -> list[str]:
    """A JS/TS function's parameters as written, in order (a TypeScript parameter by its pattern;
    an arrow function's one unparenthesised parameter, `endpoint => ...`, too)."""
    params = function.child_by_field_name("parameters")
    if params is None:
        single = function.child_by_field_name("parameter")
        return [pf.text(single)] if single is not None else []
    return [pf.text(p.child_by_field_name("pattern") or p) for p in params.named_children]


def _cased(pf: ParsedFile, node: Any) -> tuple[Any, str | None]:
    """(x, "toLowerCase") for `x.toLowerCase()` (or toUpperCase), else (node, None)."""
    if node is not None and node.type == "call_expression" and not js_args(node.child_by_field_name("arguments")):
        function = node.child_by_field_name("function")
        if function.type == "member_expression" and \
                pf.text(function.child_by_field_name("property")) in ("toLowerCase", "toUpperCase"):
            return function.child_by_field_name("object"), pf.text(function.child_by_field_name("property"))
    return node, None


def _js_function_name(pf: ParsedFile, node: Any) -> str | None:
    """The name of the nearest named function `node` sits in: `f` (a declaration, `const f = () =>`),
    `X.m` (a method of object or class X), "default" (`export default function`, `module.exports =`)."""
    node = node.parent if node is not None else None
    while node is not None:
        if node.type in _JS_FUNCTIONS:
            named = node.child_by_field_name("name")
            parent = node.parent
            if node.type == "method_definition" or parent is not None and parent.type == "pair":
                key = node.child_by_field_name("name") if node.type == "method_definition" else \
                    parent.child_by_field_name("key")
                holder = parent if node.type == "method_definition" else parent.parent
                owner = _js_holder_name(pf, holder)
                if key is not None and owner:
                    return f"{owner}.{pf.text(key)}"
            elif named is not None and node.type in ("function_declaration", "generator_function_declaration"):
                return "default" if parent is not None and parent.type == "export_statement" and \
                    any(c.type == "default" for c in parent.children) else pf.text(named)
            elif parent is not None and parent.type == "variable_declarator":
                return pf.text(parent.child_by_field_name("name"))
            elif parent is not None and parent.type == "export_statement" or parent is not None and \
                    parent.type == "assignment_expression" and pf.text(parent.child_by_field_name("left")) in (
                        "module.exports", "exports.default"):
                return "default"
        node = node.parent
    return None


def _js_holder_name(pf: ParsedFile, holder: Any) -> str | None:
    """X of `const X = {...}` / `class X {...}` (a method's object or class body)."""
    if holder is None:
        return None
    if holder.type == "class_body":
        cls = holder.parent
        name = cls.child_by_field_name("name") if cls is not None else None
        return pf.text(name) if name is not None else None
    parent = holder.parent
    if holder.type == "object" and parent is not None and parent.type == "variable_declarator":
        return pf.text(parent.child_by_field_name("name"))
    return None


def _py_function_name(pf: ParsedFile, node: Any) -> str | None:
    """The name of the function a route is registered in (not the handler it decorates)."""
    function = _enclosing(node, "function_definition")
    name = function.child_by_field_name("name") if function is not None else None
    return pf.text(name) if name is not None else None


def _inline_patterns(patterns: Any) -> str:
    """The name an `include([...])` list of url patterns is mounted by (its place in the file)."""
    return f"include@{patterns.start_byte}"


def class_attribute_default(pf: ParsedFile, cls: Any, attr: str) -> str | None:
    """The string an instance's `attr` is by default: the class body's `attr: str = "/api/v1"`, or
    the default of `__init__`'s parameter that `self.attr = param` keeps."""
    body = cls.child_by_field_name("body")
    if body is None:
        return None
    value = _assigned(pf, body, attr, None)
    if value is not None:
        return py_string(pf, value)
    for statement in body.named_children:
        function = statement.child_by_field_name("definition") if statement.type == "decorated_definition" \
            else statement
        if function is None or function.type != "function_definition" or \
                pf.text(function.child_by_field_name("name")) != "__init__":
            continue
        defaults = {pf.text(param.child_by_field_name("name")): param.child_by_field_name("value")
                    for param in function.child_by_field_name("parameters").named_children
                    if param.type in ("default_parameter", "typed_default_parameter")}
        for node in function.child_by_field_name("body").named_children:
            node = node.named_child(0) if node.type == "expression_statement" and node.named_child_count else node
            left = node.child_by_field_name("left") if node.type == "assignment" else None
            right = node.child_by_field_name("right") if left is not None else None
            if left is None or right is None or pf.text(left) != f"self.{attr}":
                continue
            strip = None  # `self.prefix = prefix.rstrip("/")`
            method = right.child_by_field_name("function") if right.type == "call" else None
            if method is not None and method.type == "attribute":
                args = right.child_by_field_name("arguments").named_children
                if pf.text(method.child_by_field_name("attribute")) in ("strip", "rstrip", "lstrip") and \
                        len(args) <= 1 and all(py_string(pf, a) is not None for a in args):
                    strip = (pf.text(method.child_by_field_name("attribute")), py_string(pf, args[0]) if args else None)
                    right = method.child_by_field_name("object")
            if right.type == "identifier" and pf.text(right) in defaults:
                value = py_string(pf, defaults[pf.text(right)])
                return getattr(value, strip[0])(strip[1]) if value is not None and strip else value
            if strip is None and method is not None and method.type == "attribute" and \
                    pf.text(method.child_by_field_name("attribute")) == "get" and \
                    _CONFIG_OWNER.search(pf.text(method.child_by_field_name("object")).rsplit(".", 1)[-1]):
                # `self.cdx_api_endpoint = config.get('cdx_api_endpoint', '/cdx')`: what nothing configured gives
                args = py_args(right.child_by_field_name("arguments"))[0]
                return py_string(pf, args[1]) if len(args) == 2 and py_string(pf, args[0]) is not None else None
    return None


_CONFIG_OWNER = re.compile(r"(?i)conf|settings|options")  # a mapping of configuration, by its name


def _enclosing(node: Any, kind: str) -> Any:
    node = node.parent if node is not None else None
    while node is not None and node.type != kind:
        node = node.parent
    return node


def _assigned(pf: ParsedFile, block: Any, name: str, before: int | None) -> Any:
    """The value of the last `name = value` statement directly in `block` (before byte `before`),
    or None; None too when `name` is also assigned deeper in the block (a branch may differ)."""
    found, text = None, name.encode()
    for statement in block.named_children:
        if before is not None and statement.start_byte >= before:
            break
        node = statement.named_child(0) if statement.type == "expression_statement" and \
            statement.named_child_count else statement
        if node.type == "assignment":
            left = node.child_by_field_name("left")
            if left is not None and left.type == "identifier" and pf.text(left) == name:
                found = node.child_by_field_name("right")
                continue
        if text in pf.source[statement.start_byte:statement.end_byte] and statement.type in (
                "if_statement", "for_statement", "while_statement", "try_statement", "with_statement",
                "match_statement") and re.search(rb"(?<![\w.])" + re.escape(text) + rb"\s*=(?!=)",
                                                 pf.source[statement.start_byte:statement.end_byte]):
            if _skipped_when_empty(pf, statement, name, found):
                continue
            return None
    return found


def _skipped_when_empty(pf: ParsedFile, statement: Any, name: str, value: Any) -> bool:
    """Whether `statement` is `if name:` (no else) and `name` holds "" by default (`""`, or a
    lookup's `config.get("PREFIX") or ""`): scout's `if prefix: prefix = '/%s' % prefix.strip('/')`
    does not run then."""
    condition = statement.child_by_field_name("condition") if statement.type == "if_statement" else None
    if condition is None or condition.type != "identifier" or pf.text(condition) != name or value is None or \
            statement.child_by_field_name("alternative") is not None:
        return False
    if value.type == "boolean_operator" and pf.text(value.child_by_field_name("operator")) == "or":
        left = value.child_by_field_name("left")
        if left is None or left.type != "call":
            return False  # (`BASE or ""` of a constant is that constant: only a lookup's may be unset)
        value = value.child_by_field_name("right")
    return value is not None and py_string(pf, value) == ""


class _Group(dict):  # type: ignore[type-arg]
    """A dict literal of a command spec, read: key -> value node, or a _Group for a nested dict."""

    node: Any = None


def _statement_of(node: Any) -> Any:
    """The statement `node` (a call or an assignment) is, in grammars with or without the
    expression_statement around it."""
    parent = node.parent
    return parent if parent is not None and parent.type == "expression_statement" else node


def py_args(node: Any) -> tuple[list[Any], dict[str, Any]]:
    """(positional nodes, {keyword: value node}) of a Python argument_list."""
    positional, keywords = [], {}
    if node is None:
        return positional, keywords
    for child in node.named_children:
        if child.type == "keyword_argument":
            name, value = child.child_by_field_name("name"), child.child_by_field_name("value")
            if name is not None and value is not None:
                keywords[name.text.decode()] = value
        elif child.type not in ("comment", "list_splat", "dictionary_splat"):
            positional.append(child)
    return positional, keywords


def js_args(node: Any) -> list[Any]:
    if node is None:
        return []
    return [c for c in node.named_children if c.type != "comment"]


def _first_word(spec: str) -> str:
    return spec.strip().split()[0] if spec.strip() else ""


def _anchor(node: Any) -> Any:
    """Where a chained call `a.b(...).c(...)` shows itself: the line of `.c`, not of `a`."""
    function = node.child_by_field_name("function") if node.type in ("call_expression", "call") else None
    if function is not None and function.type in ("member_expression", "attribute", "selector_expression"):
        prop = function.child_by_field_name("property") or function.child_by_field_name(
            "attribute") or function.child_by_field_name("field")
        if prop is not None:
            return prop
    return node


def _surface(kind: str, name: str, node: Any, framework: str, **more: Any) -> Surface:
    return Surface(kind=kind, name=name, line=line_of(_anchor(node)), end_line=end_line_of(node),  # type: ignore[arg-type]
                   framework=framework, **more)


def _wraps_function(call: Any) -> bool:
    """Whether a JS call is handed a function written in place (a handler's wrapper)."""
    args = call.child_by_field_name("arguments") if call is not None and call.type == "call_expression" else None
    return args is not None and any(a.type in ("arrow_function", "function_expression", "function")
                                    for a in args.named_children)


def _guarded_statements(root: Any) -> Iterator[Any]:
    """The module's top-level statements, and those of a top-level `try:` or `if ...:` body
    (django-acquisitions' viewsets, defined under `try: from rest_framework import viewsets`)."""
    for stmt in root.named_children:
        yield stmt
        body = stmt.child_by_field_name("body") if stmt.type == "try_statement" else \
            stmt.child_by_field_name("consequence") if stmt.type == "if_statement" else None
        yield from body.named_children if body is not None else ()


def _module_level(node: Any) -> bool:
    """Whether an assignment sits at a module's top level (its statement node shown by the grammar or not)."""
    parent = node.parent
    if parent is not None and parent.type == "expression_statement":
        parent = parent.parent
    return parent is not None and parent.type == "module"


def _py_verbs(pf: ParsedFile, node: Any) -> bool:
    """Whether a Python literal is an HTTP method or a list or tuple of them."""
    value = py_literal(pf, node)
    values = [value] if isinstance(value, str) else value if isinstance(value, (list, tuple)) else []
    return bool(values) and all(isinstance(v, str) and v.lower() in HTTP_VERBS for v in values)


def _route_name(method: str, path: str) -> str:
    return f"{method.upper()} {path}"


_AIOHTTP_PARAM = re.compile(r"\{([A-Za-z_]\w*):[^{}]*(?:\{[^{}]*\}[^{}]*)*\}")  # {id:\d+}, {p:[a-z]{2}}
_REGEX_ESCAPED = set("./-_~:@!$&'=,;+")  # escaped only to be literal in a regex


def _regex_paths(pattern: str) -> list[str]:
    """The route paths a path regex (Tornado's) serves: anchors and a last optional slash dropped,
    `(?P<name>...)` as `{name}`, other groups as `{arg1}`, `{arg2}`... (passed positionally), the
    escapes of literal characters undone; what is left of the regex stays as written. Optional
    trailing segments, `/?` before a group that may match nothing (`/tasks/?([^/]*)/?([^/]*)$`),
    give a path with each and without: /tasks, /tasks/{arg1}, /tasks/{arg1}/{arg2}; so does a last
    optional group, `(?:...)?`."""
    p = pattern.removeprefix("^")
    p = p[:-1] if p.endswith("$") and not p.endswith("\\$") else p
    if p.endswith("/?"):
        p = p[:-2] or "/"  # (`/?` alone: the root, with its slash or without)
    out: list[str] = []
    cuts: list[int] = []  # where an optional segment starts: its "/" in `out`, its group next
    i, groups = 0, 0
    while i < len(p):
        c = p[i]
        if c == "/" and p.startswith("?(", i + 1):  # `/?` before a group
            end = _group_end(p, i + 2)
            inner = p[i + 3:end] if end > 0 else ""
            if end > 0 and not inner.startswith("?") and inner.endswith(("*", "?")) and inner[-2:-1] != "\\":
                cuts.append(len(out))  # ...that may be empty: the segment may be missing
            out.append("/")
            i += 2
        elif c == "\\" and i + 1 < len(p):
            out.append(p[i + 1] if p[i + 1] in _REGEX_ESCAPED else p[i:i + 2])
            i += 2
        elif c == "(":
            end = _group_end(p, i)
            if end < 0:
                return [pattern]
            inner = p[i + 1:end]
            alternatives = _literal_alternatives(inner) if p[end + 1:] in ("", "?") and not cuts else None
            if alternatives:  # a last part of literal choices, `(/messages|/members|/read)?`: each (and none)
                before = "".join(out)
                return [*([before or "/"] if p[end + 1:] == "?" else []), *(before + a for a in alternatives)]
            if inner.startswith("?:") and "#" in inner and p[end + 1:end + 2] == "?":
                i = end + 2  # an optional fragment, `(?:#.+)?`: a browser never sends it, no path has it
                continue
            if inner.startswith("?P<") and ">" in inner:
                body = inner[inner.index(">") + 1:]  # (`(?P<bb>box)` matches the word alone: it is the word)
                out.append(body if re.fullmatch(r"[A-Za-z][\w-]*", body) else "{" + inner[3:inner.index(">")] + "}")
            elif inner.startswith("?:") and p[end + 1:end + 2] == "?" and not cuts and not _top_level_bar(inner) \
                    and (after := _rest_paths(p[end + 2:])) is not None:
                # an optional part (`social/(?:(?P<provider>\w+)/?)?`, mapit's `(?:/(?P<bb>box))?(?:\.
                # (?P<format>html|json))?`): the path without it, and with it, each with what follows
                before = "".join(out)
                return [before + rest if before + rest else "/" for rest in after] + \
                    [before + middle + rest for middle in _regex_paths(inner[2:]) for rest in after]
            elif inner.startswith("?"):
                out.append(p[i:end + 1])  # (?:...), a lookahead: kept as written
            else:
                groups += 1
                out.append(f"{{arg{groups}}}")
            if p[end + 1:] == "?" and not cuts and len(out) > 1 and out[-2] == "/" and \
                    (not inner.startswith("?") or inner.startswith("?P<")):
                # a last segment that may be missing (`/endpoints/([^/]+)?`): the path without it, and with it
                return ["".join(out[:-2]) or "/", "".join(out)]
            i = end + 1
        else:
            out.append(c)
            i += 1
    optional = {at for cut in cuts for at in (cut, cut + 1)}
    # a segment is missing only with all after it: what follows an optional one must be optional too
    kept = [cut for cut in cuts if all(at in optional for at in range(cut, len(out)))]
    return [*("".join(out[:cut]) or "/" for cut in kept), "".join(out)]


def _rest_paths(rest: str) -> list[str] | None:
    """What the rest of a path regex after an optional part spells, as parts ("" where it may match
    nothing, not the root); None when a part of it is left a regex (`(/token)?` after one)."""
    if not rest:
        return [""]
    found = [r if r != "/" or rest.startswith("/") else "" for r in _regex_paths(rest)]
    return None if any(_REGEX_LEFTOVER.search(r) for r in found) else found


_REGEX_LEFTOVER = re.compile(r"[()\[\]?*+|\\]|\{arg\d+\}")  # (a group counted from 1 again: not this path's)


def _top_level_bar(inner: str) -> bool:
    """Whether a group's pattern chooses at its own level (`a|b`), not only inside a group it holds
    (mapit's `(?P<format>html|json)` after its dot)."""
    depth, i = 0, 0
    while i < len(inner):
        c = inner[i]
        if c == "\\":
            i += 2
            continue
        depth += c == "("
        depth -= c == ")"
        if c == "|" and depth == 0:
            return True
        i += 1
    return False


_LITERAL_PART = re.compile(r"(?:[\w~-]|\\[./-]|/)+")


def _literal_alternatives(inner: str) -> list[str] | None:
    """The choices of a group of literal alternatives, `/messages|/members` (or `?:` one), else None."""
    inner = inner.removeprefix("?:")
    parts = inner.split("|")
    if len(parts) < 2 or not all(_LITERAL_PART.fullmatch(part) for part in parts):
        return None
    return [part.replace("\\", "") for part in parts]


def _group_end(p: str, start: int) -> int:
    """The index of the `)` closing the group opened at `start`, or -1."""
    depth, i, in_class = 0, start, False
    while i < len(p):
        c = p[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def _join_paths(prefix: str, path: str) -> str:
    if not prefix:
        return path
    return prefix.rstrip("/") + ("/" + path.lstrip("/") if path else "")


# --- Python -----------------------------------------------------------------------------------------------

# constructors whose result a decorator or a call then registers on: last name -> (role, framework)
PY_CONSTRUCTORS = {
    "Typer": ("typer", "typer"),
    "FastAPI": ("http", "fastapi"), "APIRouter": ("http", "fastapi"),
    "Flask": ("http", "flask"), "Blueprint": ("http", "flask"), "Quart": ("http", "quart"),
    "FastMCP": ("mcp", "mcp"), "MCPServer": ("mcp", "mcp"),  # mcp 2.x renamed FastMCP to MCPServer
    "ArgumentParser": ("argparse", "argparse"),
    "Group": ("click-group", "click"),
    "RouteTableDef": ("http", "aiohttp"),
    "Bottle": ("http", "bottle"),
    "FastHTML": ("http", "fasthtml"),
}
PY_CLICK_MODULES = ("click", "asyncclick", "rich_click", "cloup")  # all decorate with command()/group()
PY_HTTP_MODULES = {"fastapi": "fastapi", "flask": "flask", "quart": "quart", "starlette": "starlette",
                   "litestar": "litestar", "sanic": "sanic", "aiohttp": "aiohttp", "bottle": "bottle"}
AIOHTTP_ADD = {"add_get": "GET", "add_post": "POST", "add_put": "PUT", "add_patch": "PATCH", "add_delete": "DELETE",
               "add_head": "HEAD", "add_options": "OPTIONS"}  # app.router.add_get(path, handler), ...
PY_DJANGO_ROUTES = ("path", "re_path", "url")
_FRAMEWORK_DECORATORS = ("route", "api_route", "view", "websocket")  # besides the verbs (a websocket opens with a GET)
# a package's own route decorator: where it registers the view is not followed
OWN_DECORATOR = ("registered by the package's own decorator @{}, whose registry is not followed: "
                 "served where the package's URL configuration puts it")


class _Python:
    def __init__(self, pf: ParsedFile) -> None:
        self.pf = pf
        caps = collect_file(pf, "surfaces")
        self.decorated = caps.get("decorated", [])
        self.calls = caps.get("call", [])
        self._call_info: list[tuple[Any, str | None, str]] | None = None
        self.assignments = caps.get("assignment", [])
        self.modules: set[str] = set()  # imported modules, dotted and top-level
        self.names: dict[str, str] = {}  # local name -> "module.name" it was imported as
        for node in caps.get("import", []):
            self._import(node)
        self.strings: dict[str, str] = {}
        self._constants()
        self._bound: dict[str, Any] = {}  # a loop's names while its body's paths are read once per row
        self._subclasses: dict[str, list[str]] | None = None  # (subclasses_here's, made once)
        self._instances: dict[str, set[str]] | None = None  # class -> names bound to an instance (paths_over_callers)
        self._calls_by_attr: dict[tuple[str, str], list[Any]] | None = None
        self.vars: dict[str, tuple[str, str, Any]] = {}  # var -> (role, framework, constructor call)
        self._route_aliases: dict[str, str] = {}  # a name for an app's route() (FastHTML's rt) -> the app
        for node in self.assignments:
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            while right is not None and right.type == "parenthesized_expression" and right.named_child_count == 1:
                right = right.named_children[0]  # `api_v1 = (Blueprint('api_v1', __name__))`
            if left is not None and right is not None and right.type == "call" and (left.type == "identifier" or (
                    # (an instance's own: aegis's `self.router = APIRouter(prefix=self.base_path)`)
                    left.type == "attribute" and self.pf.text(left.child_by_field_name("object")) == "self"
                    and self.callee_last(right) in PY_CONSTRUCTORS)):
                known = PY_CONSTRUCTORS.get(self.callee_last(right))
                if known is None and self.callee_last(right) == "Service" and "cornice" in self.modules:
                    known = ("http", "cornice")  # cornice.Service(name=..., path="/users"): its decorators route
                elif known is None and self.callee_last(right) in ("NinjaAPI", "Router") and "ninja" in self.modules:
                    known = ("http", "django-ninja")  # Django Ninja: @router.get("items/") as FastAPI's
                elif known is None and b"url_prefix" in pf.source and self._url_prefixed(right):
                    # a Blueprint subclass of the package's own, `api_utils.Rest('v1_0', __name__,
                    # url_prefix='/v1')`: what it routes is served under that prefix
                    known = ("http", next((f for m, f in PY_HTTP_MODULES.items() if m in self.modules), "python-web"))
                if known:
                    self.vars[pf.text(left)] = (known[0], known[1], right)
            elif left is not None and right is not None and left.type in ("pattern_list", "tuple_pattern") and \
                    right.type == "call" and self.callee_last(right) == "fast_app" and left.named_children and \
                    left.named_children[0].type == "identifier":
                # FastHTML's `app, rt = fast_app()`: the app, and its route() by another name
                self.vars[pf.text(left.named_children[0])] = ("http", "fasthtml", right)
                if len(left.named_children) > 1 and left.named_children[1].type == "identifier":
                    self._route_aliases[pf.text(left.named_children[1])] = pf.text(left.named_children[0])
            elif left is not None and right is not None and left.type == "identifier" and right.type == "attribute" \
                    and pf.text(right.child_by_field_name("attribute")) == "route" and \
                    self.vars.get(pf.text(right.child_by_field_name("object")), ("",))[1:2] == ("fasthtml",):
                # FastHTML's `rt = app.route`, after the app it names (assignments come in source order)
                self._route_aliases[pf.text(left)] = pf.text(right.child_by_field_name("object"))
        self.out: list[Surface] = []
        self.found_mounts: list[Mount] = []
        self.found_viewsets: list[ViewSet] = []
        self._routers: dict[str, tuple[bool, bool]] | None = None
        self._nested: dict[str, str] = {}  # a nested DRF router -> the path its routes sit under
        self._handed: dict[str, str] = {}  # a router parameter -> the function it is handed to
        self._config_files: dict[str, str] | None = None
        self._wrappers: dict[str, tuple[int, str, str, str, Any]] | None = None
        self._included: set[str] | None = None  # module-level pattern lists an include() here mounts
        self._parts: set[str] | None = None  # the names urlpatterns is made of (urlpatterns_parts)
        self._local_calls: dict[tuple[int, str], Any] | None = None  # calls assigned to a function's names
        self._class_calls: dict[tuple[int, str], Any] | None = None  # calls assigned to a class's `self.x`
        self._constructed: dict[str, str] | None = None
        self._classes: set[str] | None = None

    def own_classes(self) -> set[str]:
        """The classes this module defines at its top level."""
        if self._classes is None:
            self._classes = {self.pf.text(c.child_by_field_name("name")) for stmt in self.pf.tree.root_node.named_children
                             if (c := stmt.child_by_field_name("definition") if stmt.type == "decorated_definition"
                                 else stmt) is not None and c.type == "class_definition"}
        return self._classes

    def constructed_by(self) -> dict[str, str]:
        """Module-level name -> the class it is an instance of, as imported (`rest = u.Rest('v11',
        __name__)` with `import sahara.utils.api as u`: sahara.utils.api.Rest) or defined here (a
        plain name), for the framework's classes' subclasses: rule_forms.py reads their route()."""
        if self._constructed is None:
            self._constructed = {}
            for node in self.assignments:
                left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
                if left is None or right is None or left.type != "identifier" or right.type != "call" or \
                        not _module_level(node):
                    continue
                function = right.child_by_field_name("function")
                if function is None or function.type not in ("identifier", "attribute") or \
                        self.callee_last(right) in PY_CONSTRUCTORS:
                    continue
                text = "".join(self.pf.text(function).split())
                self._constructed[self.pf.text(left)] = self.imported_as(text) or text
        return self._constructed

    def _url_prefixed(self, call: Any) -> bool:
        """Whether a call passes `url_prefix=` a path literal."""
        _, keywords = py_args(call.child_by_field_name("arguments"))
        return (py_string(self.pf, keywords.get("url_prefix")) or "").startswith("/")

    # bindings
    def _import(self, node: Any) -> None:
        modules, names = python_imports(self.pf, node)
        for module in modules:
            self.modules.update({module, module.split(".")[0]})
        self.names.update(names)

    def _constants(self) -> None:
        """NAME = "x" at module level; class members (enums and plain namespaces) as "Cls.NAME"."""
        root = self.pf.tree.root_node
        for stmt in root.named_children:
            if stmt.type in ("expression_statement", "assignment"):
                self._constant(stmt, "")
            elif stmt.type in ("class_definition", "decorated_definition"):
                cls = stmt if stmt.type == "class_definition" else stmt.child_by_field_name("definition")
                if cls is None or cls.type != "class_definition":
                    continue
                name = self.pf.text(cls.child_by_field_name("name"))
                for member in cls.child_by_field_name("body").named_children:
                    if member.type in ("expression_statement", "assignment"):
                        self._constant(member, name + ".")

    def _constant(self, stmt: Any, prefix: str) -> None:
        # grammar versions differ: an assignment statement may or may not be wrapped in expression_statement
        node = stmt if stmt.type == "assignment" else (stmt.named_child(0) if stmt.named_child_count else None)
        if node is None or node.type != "assignment":
            return
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        value = py_string(self.pf, right)
        if left is not None and left.type == "identifier" and value is not None:
            self.strings[prefix + self.pf.text(left)] = value
            if prefix:
                self.strings[prefix + self.pf.text(left) + ".value"] = value  # Tools.SEARCH.value
        elif not prefix and left is not None and left.type == "attribute" and value is not None and \
                left.child_by_field_name("object").type == "identifier":
            # `settings.INTERNALURLPREFIX = ''` on an imported settings module: its value from here on
            self.strings["".join(self.pf.text(left).split())] = value

    def resolve(self, node: Any) -> str | None:
        """A str literal, or a same-file constant/enum member it names."""
        if node is None:
            return None
        value = py_string(self.pf, node)
        if value is None and node.type in ("identifier", "attribute"):
            value = self.strings.get("".join(self.pf.text(node).split()))
        return value

    def callee_last(self, call: Any) -> str:
        function = call.child_by_field_name("function")
        if function is None:
            return ""
        if function.type == "attribute":
            return self.pf.text(function.child_by_field_name("attribute"))
        name = self.pf.text(function)
        return self.names.get(name, name).rsplit(".", 1)[-1]

    def callee(self, call: Any) -> tuple[str | None, str]:
        """(receiver text or None, attribute or function name)."""
        function = call.child_by_field_name("function") if call.type == "call" else call
        if function is None:
            return None, ""
        if function.type == "attribute":
            return self.pf.text(function.child_by_field_name("object")), self.pf.text(
                function.child_by_field_name("attribute"))
        return None, self.pf.text(function)

    def call_info(self) -> list[tuple[Any, str | None, str]]:
        """(call, receiver, attribute) of every call: computed once, read by each concern."""
        if self._call_info is None:
            self._call_info = [(call, *self.callee(call)) for call in self.calls]
        return self._call_info

    def docstring(self, definition: Any) -> str:
        body = definition.child_by_field_name("body")
        if body is None or not body.named_children:
            return ""
        first = body.named_children[0]
        if first.type == "expression_statement" and first.named_children:
            first = first.named_children[0]
        if first.type in ("string", "concatenated_string"):
            value = py_string(self.pf, first)
            if value:
                return inspect.cleandoc(value)
        return ""

    def role(self, receiver: str | None) -> tuple[str, str] | None:
        known = self.vars.get(receiver or "")
        return (known[0], known[1]) if known else None

    def assigned_to(self, call: Any) -> str | None:
        parent = call.parent
        if parent is not None and parent.type == "assignment" and parent.child_by_field_name("right") == call:
            left = parent.child_by_field_name("left")
            if left is not None and left.type == "identifier":
                return self.pf.text(left)
        return None

    def is_module(self, name: str | None, modules: tuple[str, ...]) -> bool:
        return name is not None and (name in modules or self.names.get(name, "") in modules)

    def imported_as(self, text: str) -> str | None:
        """The dotted name a name of this file stands for through its imports: `items.router` with
        `from app.routers import items` is app.routers.items.router, `.api.Watch` for a relative
        import; None when its first part is not imported."""
        head, _, rest = text.partition(".")
        imported = self.names.get(head)
        return None if imported is None else f"{imported}.{rest}" if rest else imported

    # decorators
    def decorators(self, node: Any) -> list[tuple[Any, str | None, str, list[Any], dict[str, Any], bool]]:
        """(decorator node, receiver, attribute, positional, keywords, called) per decorator."""
        out = []
        for dec in node.children:
            if dec.type != "decorator" or not dec.named_children:
                continue
            expr = dec.named_children[0]
            called = expr.type == "call"
            function = expr.child_by_field_name("function") if called else expr
            receiver, attr = self.callee(function)
            positional, keywords = py_args(expr.child_by_field_name("arguments")) if called else ([], {})
            out.append((dec, receiver, attr, positional, keywords, called))
        return out

    def run(self) -> list[Surface]:
        self.click()
        self.typer()
        self.argparse()
        self.argparse_from_spec()
        self.decli()
        self.http()
        self.fastapi_builtin()
        self.prometheus_metrics()
        self.resources()
        self.verb_path_tables()
        self.mounts()
        self.starlette()
        self.aiohttp()
        self.tornado()
        self.handler_lists()
        self.routes_mapper()
        self.resource_extensions()
        self.falcon()
        self.method_tables()
        self.twisted()
        self.pyramid()
        self.drf()
        self.django()
        self.urlpatterns_factories()
        self.verb_first()
        self.bokeh()
        self.werkzeug()
        self.mcp_http()
        self.mcp()
        return self.out

    def werkzeug(self) -> None:
        if b"Rule" in self.pf.source and b"werkzeug" in self.pf.source:
            from .werkzeug_routes import werkzeug_rules  # (it reads paths with this extractor)

            self.out += werkzeug_rules(self)

    def mcp_http(self) -> None:
        if b"mcp" in self.pf.source or b"MCP" in self.pf.source:
            from .mcp_http import mcp_http_routes  # (it reads paths with this extractor)

            self.out += mcp_http_routes(self)

    def bokeh(self) -> None:
        """A Bokeh server's documents, `{"/status": status_doc, ...}` given to bokeh's `Server(...)`,
        `BokehTornado(...)` or a function of the package named for it (dask's `BokehApplication(
        applications, ...)`): each key is a page the server serves (GET)."""
        if b"Bokeh" not in self.pf.source and b"bokeh" not in self.pf.source:
            return
        for call, _, attr in self.call_info():
            named = attr in ("Server", "BokehTornado") and "bokeh" in self.names.get(attr, "")
            if not named and "Bokeh" not in attr:
                continue
            positional, keywords = py_args(call.child_by_field_name("arguments"))
            given = positional[0] if positional else keywords.get("applications")
            table = self.value_of(given, call) if given is not None and given.type == "identifier" else given
            if table is None or table.type != "dictionary":
                continue
            for pair in table.named_children:
                key = pair.child_by_field_name("key") if pair.type == "pair" else None
                path = py_string(self.pf, key) if key is not None and key.type == "string" else None
                if path is not None and path.startswith("/") and " " not in path:
                    value = pair.child_by_field_name("value")
                    handler = self.pf.text(value) if value is not None and value.type == "identifier" else None
                    self.out.append(_surface("http-route", _route_name("GET", path), pair, "bokeh", handler=handler,
                                             detail={"method": "GET", "path": path}))

    def verb_first(self) -> None:
        """A package's own router taking the method first: `server.add_route("POST", TOKEN_PATH,
        token)`, `router.add(method, pattern, h)` in a loop over a literal table of `("GET",
        "/_localqpu/health", get_health)` rows. The literal verb before a path is what makes it a
        route; a call another reader already took (aiohttp's add_route) is not read again."""
        if present(self.pf).isdisjoint(_VERB_WORDS) or _PY_VERB_FIRST.search(self.pf.source) is None and \
                _PY_VERB_ROW.search(self.pf.source) is None:
            return
        taken = {s.line for s in self.out if s.kind == "http-route"}
        for call, receiver, attr in self.call_info():
            if receiver is None and attr and call.child_by_field_name("function").type == "identifier":
                bound = self.value_of(call.child_by_field_name("function"), call)  # `add = server.add_route`
                if bound is not None and bound.type == "attribute":
                    receiver, attr = self.callee(bound)
            if receiver is None or attr not in _VERB_FIRST_CALLS or line_of(call) in taken:
                continue
            positional, _ = py_args(call.child_by_field_name("arguments"))
            if len(positional) < 3:
                continue
            rows: list[dict[str, Any]] | None = [{}]
            loop = _enclosing(call, "for_statement") if positional[0].type == "identifier" else None
            if loop is not None:  # `for method, pattern, handler in routes: router.add(method, pattern, ...)`
                rows = self.table_rows(loop.child_by_field_name("left"), loop.child_by_field_name("right"))
            for row in rows or ():
                verb, path = (self.resolve(row.get(self.pf.text(n), n)) for n in positional[:2])
                if verb is None or verb.lower() not in HTTP_VERBS or path is None or not path.startswith("/") or \
                        " " in path:
                    continue
                at = row.get(self.pf.text(positional[0]), call)
                handler = row.get(self.pf.text(positional[2]), positional[2])
                # (a router that matches a regex: `/_fauxbus/transfer/tasks/([^/]+)`, its groups as parameters)
                for each in _regex_paths(path) if "(" in path or path.endswith("$") else [path]:
                    self.out.append(_surface("http-route", _route_name(verb.upper(), each), at, "python",
                                             handler="".join(self.pf.text(handler).split()),
                                             detail={"method": verb.upper(), "path": each, "receiver": receiver}))

    # decli: argparse from a dict spec, {"prog": ..., "subcommands": {"commands": [{"name": [...]}, ...]}}
    def decli(self) -> None:
        if "decli" not in self.modules:
            return
        for node in self.assignments:
            spec = node.child_by_field_name("right")
            if spec is not None and spec.type == "dictionary":
                self._decli_spec(spec)

    def _decli_spec(self, spec: Any) -> None:
        pairs = self._pairs(spec)
        prog = py_string(self.pf, pairs["prog"]) if "prog" in pairs else None
        sub = pairs.get("subcommands")
        commands = self._pairs(sub).get("commands") if sub is not None and sub.type == "dictionary" else None
        if commands is None or commands.type != "list":
            return
        for item in commands.named_children:
            if item.type != "dictionary":
                continue
            fields = self._pairs(item)
            name_node = fields.get("name")
            if name_node is None:
                continue
            first = name_node.named_children[0] if name_node.type == "list" and name_node.named_children else name_node
            name = py_string(self.pf, first)
            if not name:
                continue
            help_node = fields.get("help")
            self.out.append(_surface("cli-subcommand", f"{prog} {name}" if prog else name, item, "decli",
                                     description=(py_string(self.pf, help_node) or "") if help_node else "",
                                     detail={"program_known": bool(prog)}))

    def _pairs(self, dictionary: Any) -> dict[str, Any]:
        out = {}
        for pair in dictionary.named_children:
            if pair.type == "pair":
                key = py_string(self.pf, pair.child_by_field_name("key"))
                if key is not None:
                    out[key] = pair.child_by_field_name("value")
        return out

    # click
    def click(self) -> None:
        candidates: dict[str, dict[str, Any]] = {}
        groups: set[str] = {v for v, (role, _, _) in self.vars.items() if role == "click-group"}
        for node in self.decorated:
            definition = node.child_by_field_name("definition")
            if definition is None or definition.type != "function_definition":
                continue
            for dec, receiver, attr, positional, keywords, _ in self.decorators(node):
                from_click = self.names.get(attr, "").rsplit(".", 1)[0] in PY_CLICK_MODULES and receiver is None
                if attr not in ("command", "group") or (receiver is None and not from_click):
                    continue
                if receiver is not None and self.role(receiver) is not None and self.role(receiver)[0] != "click-group":
                    continue  # typer's @app.command(), ...
                function = self.pf.text(definition.child_by_field_name("name"))
                explicit = self.resolve(positional[0]) if positional else self.resolve(keywords.get("name"))
                candidates[function] = {
                    "root": receiver is None or self.is_module(receiver, PY_CLICK_MODULES),
                    "parent": None if receiver is None or self.is_module(receiver, PY_CLICK_MODULES) else receiver,
                    "group": attr == "group", "name": explicit or derived_name(function), "node": node,
                    "help": self.resolve(keywords.get("help")) or first_paragraph(self.docstring(definition)),
                }
                break
        changed = True
        while changed:  # a group's subcommands may be declared through groups declared under other groups
            changed = False
            for function, c in candidates.items():
                if c["group"] and function not in groups and (c["root"] or c["parent"] in groups):
                    groups.add(function)
                    changed = True
        accepted = {f: c for f, c in candidates.items() if c["root"] or c["parent"] in groups}
        for var in groups - set(accepted):  # cli = click.Group(name=...)
            call = self.vars[var][2]
            _, keywords = py_args(call.child_by_field_name("arguments"))
            accepted[var] = {"root": True, "parent": None, "group": True, "node": call, "help": "",
                             "name": self.resolve(keywords.get("name")) or var, "virtual": True}
        for call, receiver, attr in self.call_info():
            if attr != "add_command" or receiver not in accepted:
                continue
            positional, keywords = py_args(call.child_by_field_name("arguments"))
            if positional and self.pf.text(positional[0]) in accepted:
                child = accepted[self.pf.text(positional[0])]
                child["root"], child["parent"] = False, receiver
                alias = self.resolve(positional[1]) if len(positional) > 1 else self.resolve(keywords.get("name"))
                if alias:
                    child["name"] = alias

        def path(function: str, depth: int = 0) -> list[str]:
            c = accepted[function]
            if c["parent"] is None or c["parent"] not in accepted or depth > 20:
                return [c["name"]]
            return path(c["parent"], depth + 1) + [c["name"]]

        for function, c in accepted.items():
            if c.get("virtual"):
                continue
            self.out.append(_surface(
                "cli-command" if c["parent"] is None else "cli-subcommand", " ".join(path(function)), c["node"],
                "click", handler=function, description=c["help"],
                detail={"group": c["group"], "program_known": True}))

    # typer
    def typer(self) -> None:
        apps = {v: {"name": None, "callback": False, "commands": [], "parent": None, "children": 0}
                for v, (role, _, _) in self.vars.items() if role == "typer"}
        for var, app in apps.items():
            _, keywords = py_args(self.vars[var][2].child_by_field_name("arguments"))
            app["name"] = self.resolve(keywords.get("name"))
        for call, receiver, attr in self.call_info():
            if attr != "add_typer" and attr != "run":
                continue
            positional, keywords = py_args(call.child_by_field_name("arguments"))
            if attr == "add_typer" and receiver in apps and positional and self.pf.text(positional[0]) in apps:
                child = apps[self.pf.text(positional[0])]
                child["parent"] = receiver
                child["name"] = self.resolve(keywords.get("name")) or child["name"]
                apps[receiver]["children"] += 1
            elif attr == "run" and self.is_module(receiver, ("typer",)) and positional:
                handler = self.pf.text(positional[0])
                self.out.append(_surface("cli-command", "", call, "typer", handler=handler,
                                         detail={"program_known": False}))
        for node in self.decorated:
            definition = node.child_by_field_name("definition")
            for dec, receiver, attr, positional, keywords, _ in self.decorators(node):
                if receiver in apps and attr == "callback":
                    apps[receiver]["callback"] = True
                if receiver in apps and attr == "command" and definition is not None:
                    function = self.pf.text(definition.child_by_field_name("name"))
                    explicit = self.resolve(positional[0]) if positional else self.resolve(keywords.get("name"))
                    help_text = self.resolve(keywords.get("help")) or first_paragraph(self.docstring(definition))
                    apps[receiver]["commands"].append(
                        (node, function, explicit or function.lower().replace("_", "-"), help_text))

        def path(var: str, depth: int = 0) -> list[str]:
            app = apps[var]
            if app["parent"] is None or depth > 20:
                return []
            return path(app["parent"], depth + 1) + ([app["name"]] if app["name"] else [])

        for var, app in apps.items():
            # typer runs a lone command of a root app without a callback as the program itself
            lone = app["parent"] is None and len(app["commands"]) == 1 and not app["callback"] and not app["children"]
            for node, function, name, help_text in app["commands"]:
                self.out.append(_surface(
                    "cli-command" if lone else "cli-subcommand", "" if lone else " ".join(path(var) + [name]), node,
                    "typer", handler=function, description=help_text,
                    detail={"app": var, "program_known": False, "command": name}))

    # argparse
    def argparse(self) -> None:
        if "argparse" not in self.modules and not any(r == "argparse" for r, _, _ in self.vars.values()):
            return
        parsers: dict[str, tuple[bool, list[str]]] = {}  # parser var -> (program known, command path)
        subparsers: dict[str, tuple[bool, list[str]]] = {}
        by_var: dict[str, Surface] = {}
        for call, receiver, attr in self.call_info():
            target = self.assigned_to(call)
            positional, keywords = py_args(call.child_by_field_name("arguments"))
            if attr == "ArgumentParser" or self.callee_last(call) == "ArgumentParser":
                prog = self.resolve(keywords.get("prog"))
                if target:
                    parsers[target] = (prog is not None, [prog] if prog else [])
                if prog:
                    surface = _surface("cli-command", prog, call, "argparse",
                                       description=self.resolve(keywords.get("description")) or "",
                                       detail={"program_known": True})
                    self.out.append(surface)
                    if target:
                        by_var[target] = surface
            elif attr == "add_subparsers" and receiver is not None:
                if target:
                    subparsers[target] = parsers.get(receiver, (False, []))
            elif attr == "add_parser" and receiver is not None and positional:
                name = self.resolve(positional[0])
                if name is None:
                    continue
                known, prefix = subparsers.get(receiver, (False, []))
                help_text = self.resolve(keywords.get("help")) or self.resolve(keywords.get("description")) or ""
                aliases = py_literal(self.pf, keywords["aliases"]) if "aliases" in keywords else []
                surface = _surface("cli-subcommand", " ".join(prefix + [name]), call, "argparse",
                                   description=help_text, detail={"program_known": known})
                if isinstance(aliases, list) and aliases:
                    surface.detail["aliases"] = aliases
                self.out.append(surface)
                if target:
                    parsers[target] = (known, prefix + [name])
                    by_var[target] = surface
            elif attr == "set_defaults" and receiver in by_var and "func" in keywords:
                by_var[receiver].handler = self.pf.text(keywords["func"])

    # argparse subcommands a function of the file makes from a nested dict (httpie's manager):
    # `for name, spec in definitions.items(): actions.add_parser(name, ...)`, recursing into the
    # dict values, called with a module-level dict literal
    def argparse_from_spec(self) -> None:
        walkers: dict[str, tuple[int, int | None]] = {}  # function -> (its dict parameter, its parser parameter)
        for call, _, attr in self.call_info():
            if attr == "add_parser":
                found = self._spec_walker(call)
                if found is not None:
                    walkers[found[0]] = found[1:]
        if not walkers:
            return
        for call, receiver, attr in self.call_info():
            if receiver is not None or attr not in walkers:
                continue
            spec_at, parser_at = walkers[attr]
            positional, _ = py_args(call.child_by_field_name("arguments"))
            if spec_at >= len(positional) or positional[spec_at].type != "identifier":
                continue
            spec = self.pf.text(positional[spec_at])
            parser = positional[parser_at] if parser_at is not None and parser_at < len(positional) else None
            prog = self._parser_prog(self.pf.text(parser)) if parser is not None and parser.type == "identifier" else None
            tree = self._module_dict(spec)
            if tree is not None:
                self._spec_commands(tree, [prog] if prog else [], prog is not None)

    def _spec_walker(self, add_parser: Any) -> tuple[str, int, int | None] | None:
        """(function, dict parameter, parser parameter) when `add_parser(name, ...)` names the key
        of a `for name, _ in param.items()` loop of a module-level function."""
        positional, _ = py_args(add_parser.child_by_field_name("arguments"))
        if not positional or positional[0].type != "identifier":
            return None
        key = self.pf.text(positional[0])
        node, loop = add_parser.parent, None
        while node is not None and node.type != "function_definition":
            if loop is None and node.type == "for_statement":
                left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
                targets = left.named_children if left is not None and left.type in ("pattern_list", "tuple_pattern") else []
                if targets and self.pf.text(targets[0]) == key and right is not None and right.type == "call":
                    loop = right.child_by_field_name("function")
            node = node.parent
        if node is None or loop is None or loop.type != "attribute" or self.pf.text(loop.child_by_field_name("attribute")) != "items":
            return None
        params = [self.pf.text(p) for p in node.child_by_field_name("parameters").named_children if p.type == "identifier"]
        iterated = self.pf.text(loop.child_by_field_name("object"))
        if iterated not in params:
            return None
        body = self.pf.text(node.child_by_field_name("body"))
        parser_at = next((i for i, p in enumerate(params) if f"{p}.add_subparsers(" in body), None)
        return self.pf.text(node.child_by_field_name("name")), params.index(iterated), parser_at

    def _parser_prog(self, var: str) -> str | None:
        for node in self.assignments:
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is not None and right is not None and right.type == "call" and self.pf.text(left) == var and \
                    self.callee_last(right).endswith("ArgumentParser"):
                return self.resolve(py_args(right.child_by_field_name("arguments"))[1].get("prog"))
        return None

    def _module_dict(self, var: str) -> _Group | None:
        """A module-level dict literal as {key: value node, or the same for a nested dict literal},
        with what module-level `var["a"]["b"] = {...}` statements add (chained ones too)."""
        root = self.pf.tree.root_node
        tree: _Group | None = None
        for node in self.assignments:
            statement = _statement_of(node)
            if statement is None or statement.parent != root:
                continue
            value = node
            while value is not None and value.type == "assignment":  # a = b = {...}: every target gets it
                value = value.child_by_field_name("right")
            if value is None or value.type != "dictionary":
                continue
            target = node
            while target is not None and target.type == "assignment":
                path = self._subscript_path(target.child_by_field_name("left"), var)
                if path == [] and tree is None:
                    tree = self._dict_tree(value)
                elif path and tree is not None:
                    into = tree
                    for key in path[:-1]:
                        into = into.get(key) if isinstance(into.get(key), dict) else None
                        if into is None:
                            break
                    if into is not None:
                        into[path[-1]] = self._dict_tree(value)
                target = target.child_by_field_name("right")
        return tree

    def _subscript_path(self, node: Any, var: str) -> list[str] | None:
        """["a", "b"] for `var["a"]["b"]`, [] for `var` itself, None for anything else."""
        keys: list[str] = []
        while node is not None and node.type == "subscript":
            key = py_string(self.pf, node.child_by_field_name("subscript"))
            if key is None:
                return None
            keys.insert(0, key)
            node = node.child_by_field_name("value")
        return keys if node is not None and node.type == "identifier" and self.pf.text(node) == var else None

    def _dict_tree(self, dictionary: Any) -> _Group:
        group = _Group((key, self._dict_tree(value) if value is not None and value.type == "dictionary" else value)
                       for key, value in self._pairs(dictionary).items())
        group.node = dictionary
        return group

    def _spec_commands(self, tree: _Group, prefix: list[str], known: bool) -> None:
        """A dict value is a group of commands (its "help" string describes it), a list one command
        (its first string describes it); other values (a group's own help) are no command."""
        for name, value in tree.items():
            if isinstance(value, _Group):
                help_node = value.get("help")
                description = py_string(self.pf, help_node) or "" if not isinstance(help_node, (_Group, type(None))) else ""
                node = value.node
            elif value is not None and value.type in ("list", "tuple"):
                first = value.named_children[0] if value.named_children else None
                description, node = (py_string(self.pf, first) or "") if first is not None else "", value
            else:
                continue
            self.out.append(_surface("cli-subcommand", " ".join([*prefix, name]), node, "argparse",
                                     description=description, detail={"program_known": known}))
            if isinstance(value, _Group):
                self._spec_commands(value, [*prefix, name], known)

    # FastAPI / Flask / Quart / Starlette-style decorators and registration calls
    def http_framework(self, receiver: str | None, at: Any = None) -> tuple[str, str] | None:
        """(framework, router prefix) when `receiver` plausibly routes HTTP, else None; the router
        the function around `at` makes by that name, when it makes one (a module of router
        factories, each its own `router = APIRouter(prefix=prefix)`)."""
        role = self.vars.get(receiver or "")
        if role is not None and at is not None:
            local = self._local_router(receiver, at)  # type: ignore[arg-type]
            if local is None and receiver.startswith("self."):  # type: ignore[union-attr]
                local = self._class_router(receiver, at)  # type: ignore[arg-type]  # (each class its own)
            role = (role[0], role[1], local) if local is not None else role
        if role is not None:
            if role[0] != "http":
                return None
            _, keywords = py_args(role[2].child_by_field_name("arguments"))
            given = keywords.get("prefix") or keywords.get("url_prefix")
            prefix = self.resolve(given) or self.parameter_default(given) or self.instance_default(given, role[2]) or (
                self.path_of(keywords.get("path")) if role[1] == "cornice" else None) or ""
            return role[1], prefix
        if receiver is None:
            return None
        for module, framework in PY_HTTP_MODULES.items():
            if module in self.modules:
                return framework, ""
        return "python-web", ""  # a router bound in another module: @app.get("/x") is still a route

    def instance_default(self, node: Any, at: Any) -> str | None:
        """`self.base_path` where the class keeps it from `__init__`'s `base_path: str = "/admin"`
        (aegis's `self.router = APIRouter(prefix=self.base_path)`): that default; else None."""
        obj = node.child_by_field_name("object") if node is not None and node.type == "attribute" else None
        cls = _enclosing(at, "class_definition") if obj is not None and self.pf.text(obj) == "self" else None
        return class_attribute_default(self.pf, cls, self.pf.text(node.child_by_field_name("attribute"))) \
            if cls is not None else None

    def _class_router(self, receiver: str, at: Any) -> Any:
        """The constructor call the class around `at` assigns to `receiver` (`self.router =
        APIRouter(...)`), if it assigns one: two classes' `self.router` are two routers."""
        cls = _enclosing(at, "class_definition")
        if cls is None:
            return None
        if self._class_calls is None:  # (class's start, `self.x`) -> the first call assigned to it there
            self._class_calls = {}
            for node in self.assignments:
                left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
                owner = _enclosing(node, "class_definition") if left is not None and left.type == "attribute" \
                    and right is not None and right.type == "call" else None
                if owner is not None:
                    self._class_calls.setdefault((owner.start_byte, self.pf.text(left)), right)
        return self._class_calls.get((cls.start_byte, receiver))

    def _local_router(self, receiver: str, at: Any) -> Any:
        """The constructor call the function around `at` assigns to `receiver`, if it assigns one."""
        function = _enclosing(at, "function_definition")
        if function is None:
            return None
        if self._local_calls is None:  # (function's start, name) -> the first call assigned to it there
            self._local_calls = {}
            for node in self.assignments:
                left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
                owner = _enclosing(node, "function_definition") if left is not None and left.type == "identifier" \
                    and right is not None and right.type == "call" else None
                if owner is not None:
                    self._local_calls.setdefault((owner.start_byte, self.pf.text(left)), right)
        return self._local_calls.get((function.start_byte, receiver))

    def config_key(self, call: Any) -> str | None:
        """The key of a package's config accessor called with a setting's name, Flask-Security's
        `cv("LOGIN_URL", app=app)` (`from .utils import config_value as cv`): its default is the
        package's (a defaults table's `"LOGIN_URL": "/login"`, miners/deferred_paths.py); else None."""
        function = call.child_by_field_name("function")
        written = self.pf.text(function) if function is not None and function.type in ("identifier", "attribute") \
            else ""
        called = self.names.get(written, written).rpartition(".")[2].lower()
        args = py_args(call.child_by_field_name("arguments"))[0]
        key = py_string(self.pf, args[0]) if args and ("config" in called or "setting" in called) else None
        return key if key is not None and re.fullmatch(r"[A-Z][A-Z0-9_]*[A-Z0-9]", key) else None

    def unset_lookup(self, node: Any) -> bool:
        """Whether `node` reads a named setting with no default: `app.config.get('URL_PREFIX')`,
        `os.environ.get("PREFIX")`, `settings.get("prefix")` (one literal key, nothing else)."""
        function = node.child_by_field_name("function") if node is not None and node.type == "call" else None
        if function is None or function.type != "attribute" or \
                self.pf.text(function.child_by_field_name("attribute")) != "get":
            return False
        owner = self.pf.text(function.child_by_field_name("object")).rsplit(".", 1)[-1].lower()
        positional, keywords = py_args(node.child_by_field_name("arguments"))
        return ("config" in owner or "setting" in owner or owner == "environ") and not keywords and \
            len(positional) == 1 and py_string(self.pf, positional[0]) is not None

    def setting_field(self, node: Any) -> str | None:
        """`self.config.auth_path`, `settings.api_prefix`: a field of a settings or config object,
        left DEFERRED for assembly to read as the default its class in the package gives
        (miners/deferred_paths.py); else None."""
        if node is None or node.type != "attribute":
            return None
        obj, attr = node.child_by_field_name("object"), self.pf.text(node.child_by_field_name("attribute"))
        owner = self.pf.text(obj).rsplit(".", 1)[-1].lower() if obj is not None else ""
        if not ("config" in owner or "settings" in owner) or not re.fullmatch(r"[A-Za-z_]\w*", attr):
            return None
        return f"{DEFERRED}{SETTING}{attr}{DEFERRED}"

    def litestar_controller(self, node: Any) -> tuple[str, str]:
        """("litestar", the prefix) of a handler: its Controller class's `path = "/users"` ("" for
        a function outside one, or a path that is not a literal)."""
        cls = _enclosing(node, "class_definition")
        prefix = class_attribute_default(self.pf, cls, "path") if cls is not None else None
        return "litestar", (prefix or "").rstrip("/")

    def parameter_default(self, node: Any) -> str | None:
        """The literal default of the enclosing function's parameter `node` names: a router
        factory's `def build_dashboard_router(prefix: str = "/dashboard")`."""
        if node is None or node.type != "identifier":
            return None
        function = _enclosing(node, "function_definition")
        params = function.child_by_field_name("parameters") if function is not None else None
        for param in params.named_children if params is not None else ():
            if param.type in ("default_parameter", "typed_default_parameter") and \
                    self.pf.text(param.child_by_field_name("name")) == self.pf.text(node):
                return self.default_value(param.child_by_field_name("value"))
        return None

    def default_value(self, value: Any) -> str | None:
        """A parameter's literal default, or the one a typer option stands for: a dev-server command's
        `prefix: str = typer.Option("/api/meetbot-admin", "--prefix")`."""
        called = self.pf.text(value.child_by_field_name("function")) \
            if value is not None and value.type == "call" else ""
        full = self.imported_as(called) or (called if called.partition(".")[0] in self.modules else "")
        if called.rpartition(".")[2] in ("Option", "Argument") and full.startswith("typer."):
            positional, keywords = py_args(value.child_by_field_name("arguments"))
            value = keywords.get("default", positional[0] if positional else None)
        return self.resolve(value)

    def http(self) -> None:
        for node in self.decorated:
            definition = node.child_by_field_name("definition")
            function = self.pf.text(definition.child_by_field_name("name")) if definition is not None else None
            doc = first_paragraph(self.docstring(definition)) if definition is not None else ""
            for dec, receiver, attr, positional, keywords, called in self.decorators(node):
                if receiver is None and attr in self._route_aliases:  # FastHTML's @rt("/x"), or @rt alone
                    receiver, attr = self._route_aliases[attr], "route"
                    if not called and function:  # the path from the function's name: `def index()` is /
                        self.route(node, ("fasthtml", ""), "/" + ("" if function == "index" else function), "route",
                                   None, function, doc, receiver)
                        continue
                if called and receiver is None and attr in self.route_wrappers():  # @api("/v1/rules", methods=[...])
                    at, name, inner, inner_receiver, default = self.route_wrappers()[attr]
                    given = positional[at] if len(positional) > at else keywords.get(name)
                    known = self.http_framework(inner_receiver)
                    if known is not None and given is not None:
                        self.route(node, known, self.path_of(given), inner, keywords.get("methods", default),
                                   function, doc, inner_receiver)
                    continue
                if called and receiver is None and attr not in HTTP_VERBS and "path" in keywords and \
                        ("method" in keywords or "methods" in keywords) and attr not in _FRAMEWORK_DECORATORS:
                    # (a plain name, `@request_handler(...)`: a framework's `@app.api_route(path=...)` is read below)
                    self.own_route_decorator(node, attr, keywords, function, doc)
                    continue
                if called and receiver is None and len(positional) >= 2 and attr not in HTTP_VERBS and \
                        (verb := py_string(self.pf, positional[0])) is not None and verb.lower() in HTTP_VERBS and \
                        (self.path_of(positional[1]) or "").startswith("/"):
                    # the package's own `@route("GET", "/_mock/accounts/<id>")` (mock-bank's table)
                    self.own_route_decorator(node, attr, {"path": positional[1], "method": positional[0]}, function,
                                             doc)
                    continue
                if not called or (attr not in HTTP_VERBS and attr not in _FRAMEWORK_DECORATORS):
                    continue  # (a websocket is opened by a GET: FastAPI's, Starlette's, Quart's @app.websocket)
                known = self.http_framework(receiver, node) if receiver is not None else \
                    ("bottle", "") if self.names.get(attr, "").startswith("bottle.") else \
                    self.litestar_controller(node) if self.names.get(attr, "").startswith(("litestar.", "starlite.")) \
                    else ("fastapi", "") if self.names.get(attr, "").startswith("classy_fastapi.") \
                    else None  # @route("/x"); Litestar's @post("/login") in a Controller, under its `path`;
                # classy-fastapi's @get("/events") on a Routable's method (its router's prefix is the caller's)
                if known is None or attr == "view" and known[0] != "aiohttp":
                    continue
                if known[0] == "aiohttp" and attr in ("route", "view"):  # route(method, path), view(path): a class
                    self.aiohttp_route(node, receiver, attr, positional, keywords, function, doc)
                    continue
                path = self.path_of(positional[0] if positional else keywords.get("path") or keywords.get("rule"))
                if known[0] == "cornice":
                    path = ""  # @users.get(): the service's own path
                if definition is not None and definition.type == "class_definition":
                    if attr == "route" and path is not None and function:  # flask-restx, flask-smorest
                        prefix = known[1] or self.namespace_prefix(receiver)
                        # (the receiver: an Api's add_namespace mounts it)
                        self.resource(node, function, _join_paths(prefix, path), known[0],
                                      **({"receiver": receiver} if receiver else {}))
                    continue
                description = self.resolve(keywords.get("summary")) or self.resolve(
                    keywords.get("description")) or doc
                methods = keywords.get("methods") or keywords.get("method")  # Bottle's is `method`
                if methods is None and attr == "route" and len(positional) > 1 and _py_verbs(self.pf, positional[1]):
                    methods = positional[1]  # a package's own `@Routing.route("/data/<:cls>", 'POST')`
                asset = {"asset": True} if py_serves_file(self.pf, definition) else None
                if known[0] == "litestar" and receiver is None:  # what a Router's route_handlers names it by
                    cls = _enclosing(node, "class_definition")
                    receiver = self.pf.text(cls.child_by_field_name("name")) if cls is not None else function
                self.route(node, known, path, attr, methods, function, description, receiver, asset)
        for call, receiver, attr in self.call_info():
            if attr in HTTP_VERBS or attr in ("route", "api_route"):
                self.applied_decorator(call, receiver, attr)
                if attr != "api_route" and "bottle" in self.modules:
                    self.callback_route(call, receiver, attr)
                continue
            if attr == "mount":
                self.static_mount(call, receiver)
                continue
            if attr not in ("add_url_rule", "add_api_route"):
                continue
            known = self.http_framework(receiver)
            positional, keywords = py_args(call.child_by_field_name("arguments"))
            # the path by place or by name: Flask's `add_url_rule(rule=...)`, FastAPI's `path=`
            first = positional[0] if positional else keywords.get("rule" if attr == "add_url_rule" else "path")
            if known is None or first is None:
                continue
            if attr == "add_url_rule":
                view = keywords.get("view_func") or (positional[2] if len(positional) > 2 else None)
            else:
                view = keywords.get("endpoint") or (positional[1] if len(positional) > 1 else None)
            named = self.pf.text(view) if view is not None else None
            cls = self.as_view_class(view, call) if view is not None and "methods" not in keywords else None
            extra = {"view_class": cls, "view_import": self.imported_as(cls)} if cls else None  # a MethodView
            for path, handler in self.paths_of(call, first, view, named):
                self.route(call, known, path, "route", keywords.get("methods"), handler, "", receiver, extra)

    def own_route_decorator(self, node: Any, attr: str, keywords: dict[str, Any], function: str | None,
                            doc: str) -> None:
        """A package's own route decorator, `@request_handler(path="getProfile/", methods=["GET",
        "POST"])` (django-nets-core's, which a URL configuration builds its patterns from): a path
        and HTTP methods, both literal, make the view a route; the decorator's registry is not
        followed, and the route says so."""
        path = self.path_of(keywords["path"])
        value = py_literal(self.pf, keywords.get("methods") or keywords["method"])
        methods = [value] if isinstance(value, str) else value if isinstance(value, list) else []
        if path is None or "://" in path or " " in path or not methods or \
                any(not isinstance(m, str) or m.lower() not in HTTP_VERBS for m in methods):
            return
        path = path if path.startswith("/") else "/" + path  # (Django's patterns are written without it)
        for method in dict.fromkeys(m.upper() for m in methods):
            self.out.append(_surface("http-route", _route_name(method, path), node, "python-web", handler=function,
                                     description=doc, detail={"method": method, "path": path, "decorator": attr,
                                                              "unmounted": OWN_DECORATOR.format(attr)}))

    def static_mount(self, call: Any, receiver: str | None) -> None:
        """`app.mount("/dashboard", StaticFiles(directory="dashboard", html=True))`: the files under
        the path, handed out as they are (public only when the docs name it), and with `html=True`
        the directory's index page at the path itself."""
        positional, keywords = py_args(call.child_by_field_name("arguments"))
        files = positional[1] if len(positional) > 1 else keywords.get("app")
        known = self.http_framework(receiver) if files is not None and files.type == "call" and \
            self.callee_last(files) == "StaticFiles" else None
        path = self.path_of(positional[0] if positional else keywords.get("path")) if known else None
        # (or what the callers pass: `def add_pulse(app, dashboard_path: str = "/pulse")`, read at assembly)
        if known is None or path is None or not path.startswith(("/", DEFERRED)):
            return
        html = py_args(files.child_by_field_name("arguments"))[1].get("html")
        html = html is not None and py_literal(self.pf, html) is True
        base = path.rstrip("/")
        for served in ([base or "/"] if html else []) + [base + "/{path}"]:
            self.route(call, known, served, "get", None, None, "", receiver, {"asset": True})

    def callback_route(self, call: Any, receiver: str | None, attr: str) -> None:
        """Bottle's route registered by a call with its callback: `app.route("/x", "GET", handler)`,
        `app.route(path, method=["GET", "POST"], callback=h)`, `app.get("/x", callback=h)`, and a
        Bottle subclass's own `self.route(...)` (bottler's `class Bottler(Bottle)`)."""
        parent = call.parent
        if receiver is None or parent is None or parent.type == "decorator" or \
                parent.type == "call" and parent.child_by_field_name("function") == call:
            return  # (a decorator, or one applied by a call: applied_decorator's)
        positional, keywords = py_args(call.child_by_field_name("arguments"))
        path_node = positional[0] if positional else keywords.get("path")
        if attr == "route":
            methods = positional[1] if len(positional) > 1 else keywords.get("method")
            callback = positional[2] if len(positional) > 2 else keywords.get("callback")
        else:
            methods, callback = None, positional[1] if len(positional) > 1 else keywords.get("callback")
        # (only a Bottle's, or a Bottle subclass's own: `requests.get("/x", timeout)` and a dict's
        # `.get("/favicon.ico", None)` are no registrations; the callback a function's name or a lambda)
        bottle = self.vars.get(receiver, ("", "", None))[1] == "bottle" or receiver == "bottle" or \
            receiver == "self" and any(self.pf.text(base).rpartition(".")[2] == "Bottle"
                                       for base in _class_bases(_enclosing(call, "class_definition")))
        known = self.http_framework(receiver) if bottle else None
        if callback is None or path_node is None or known is None or \
                callback.type not in ("identifier", "attribute", "lambda"):
            return
        handler = self.pf.text(callback) if callback.type in ("identifier", "attribute") else None
        self.route(call, known, self.path_of(path_node), attr, methods, handler, "", receiver)

    def applied_decorator(self, call: Any, receiver: str | None, attr: str) -> None:
        """A route decorator applied by a call, `put_file = app.put("/{checksum}")(put_file)`."""
        outer = call.parent
        if receiver is None or outer is None or outer.type != "call" or \
                outer.child_by_field_name("function").start_byte != call.start_byte:
            return
        known = self.http_framework(receiver)
        handlers = py_args(outer.child_by_field_name("arguments"))[0]
        if known is None or len(handlers) != 1 or handlers[0].type not in ("identifier", "attribute"):
            return  # (langserve's `app.get(namespace + "/playground/{file_path:path}")(api_handler.playground)`)
        positional, keywords = py_args(call.child_by_field_name("arguments"))
        path = self.path_of(positional[0] if positional else keywords.get("path") or keywords.get("rule"))
        methods = keywords.get("methods") or keywords.get("method")
        self.route(call, known, path, attr, methods, self.pf.text(handlers[0]), "", receiver)

    # FastAPI serves its own pages unless told not to: the OpenAPI document (openapi_url, default
    # /openapi.json) and, with it, Swagger UI (docs_url, /docs, with its OAuth2 redirect) and ReDoc
    # (redoc_url, /redoc). A keyword that is not a literal leaves its page unknown: none is given
    _FASTAPI_PAGES = (("openapi_url", "/openapi.json", "The OpenAPI document FastAPI generates"),
                      ("docs_url", "/docs", "FastAPI's Swagger UI page"),
                      ("swagger_ui_oauth2_redirect_url", "/docs/oauth2-redirect", "Swagger UI's OAuth2 redirect"),
                      ("redoc_url", "/redoc", "FastAPI's ReDoc page"))

    def fastapi_builtin(self) -> None:
        if "fastapi" not in self.modules:
            return
        for node in self.assignments:  # app = FastAPI(...), self._app = FastAPI(...)
            left, call = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is None or call is None or call.type != "call" or left.type not in ("identifier", "attribute") \
                    or self.callee_last(call) != "FastAPI":
                continue
            var = "".join(self.pf.text(left).split())
            _, keywords = py_args(call.child_by_field_name("arguments"))
            given: dict[str, str | None] = {}
            for keyword, default, _ in self._FASTAPI_PAGES:
                node = keywords.get(keyword)
                given[keyword] = default if node is None else None if self.pf.text(node) == "None" else \
                    self.resolve(node) or None
            if given["openapi_url"] is None:
                continue  # no document: no page that shows it
            if given["docs_url"] is None:
                given["swagger_ui_oauth2_redirect_url"] = None
            for keyword, _, description in self._FASTAPI_PAGES:
                path = given[keyword]
                if path is not None and path.startswith("/"):
                    self.out.append(_surface("http-route", _route_name("GET", path), call, "fastapi",
                                             description=description,
                                             detail={"method": "GET", "path": path, "receiver": var,
                                                     "builtin": keyword}))

    def prometheus_metrics(self) -> None:
        """prometheus-fastapi-instrumentator's `Instrumentator().instrument(app).expose(app)`: the
        app serves its metrics at GET `endpoint` ("/metrics" by default); prometheus_client's app
        mounted at a path, `app.mount("/metrics", make_asgi_app())` or WSGI's
        `DispatcherMiddleware(app.wsgi_app, {"/metrics": make_wsgi_app()})`, serves them there."""
        self.prometheus_app_mounts()
        if "Instrumentator" not in self.names or not self.names["Instrumentator"].startswith(
                "prometheus_fastapi_instrumentator"):
            return
        for call, receiver, attr in self.call_info():
            if attr != "expose" or receiver is None or "Instrumentator" not in receiver:
                continue
            positional, keywords = py_args(call.child_by_field_name("arguments"))
            path = self.resolve(keywords["endpoint"]) if "endpoint" in keywords else "/metrics"
            app = positional[0] if positional else keywords.get("app")
            if path is None or not path.startswith("/") or app is None:
                continue
            self.out.append(_surface("http-route", _route_name("GET", path), call, "fastapi",
                                     description="Prometheus metrics (prometheus-fastapi-instrumentator)",
                                     detail={"method": "GET", "path": path,
                                             "receiver": "".join(self.pf.text(app).split())}))

    def prometheus_app_mounts(self) -> None:
        makers = {n for n, full in self.names.items()
                  if full in ("prometheus_client.make_wsgi_app", "prometheus_client.make_asgi_app")}
        if not makers:
            return

        def made(node: Any, at: Any) -> bool:  # prometheus_client's app, called here or bound to a name
            if node is not None and node.type == "identifier":
                node = self.value_of(node, at)
            return node is not None and node.type == "call" and self.pf.text(node.child_by_field_name("function")) \
                in makers

        for call, receiver, attr in self.call_info():
            positional, keywords = py_args(call.child_by_field_name("arguments"))
            served: list[tuple[Any, str | None]] = []
            if attr == "mount" and receiver is not None and len(positional) > 1 and made(positional[1], call):
                served.append((positional[0], receiver))
            elif attr == "DispatcherMiddleware" and len(positional) > 1 and positional[1].type == "dictionary":
                served += [(pair.child_by_field_name("key"), None) for pair in positional[1].named_children
                           if pair.type == "pair" and made(pair.child_by_field_name("value"), call)]
            for key, on in served:
                path = self.resolve(key)
                if path is not None and path.startswith("/"):
                    self.out.append(_surface("http-route", _route_name("GET", path), call, "python-web",
                                             description="Prometheus metrics (prometheus_client)",
                                             detail={"method": "GET", "path": path, **({"receiver": on} if on else {})}))

    # route paths that are not one literal: f"{BASE}/items", f"/api/{self.VERSION}", a local variable,
    # the keys of a dict a loop registers (`for path, view in routes.items(): add_api_route(path, view)`);
    # a part only another module knows (an imported constant) is left as DEFERRED + name + DEFERRED,
    # for assembly to read there (miners/deferred_paths.py)
    def path_of(self, node: Any) -> str | None:
        value = self.resolve(node)
        if value is not None or node is None:
            return value
        parts = self.text_value(node, node, 0)
        return "".join(parts) if parts is not None else None

    def paths_over_loop(self, call: Any, node: Any) -> list[str | None]:
        """The path `node` makes, or one per row of a literal table a loop around `call` walks when
        it is made from the loop's names (manila's `for path_prefix in ['/{project_id}', '']:` before
        `mapper.connect(..., "%s/shares" % path_prefix, ...)`)."""
        path = self.path_of(node)
        loop = _enclosing(call, "for_statement") if path is None and node is not None else None
        rows = self.table_rows(loop.child_by_field_name("left"), loop.child_by_field_name("right")) \
            if loop is not None else None
        used = {self.pf.text(n) for n in descendants(node, "identifier")} if rows else set()
        if not rows or not any(name in used for name in rows[0]):
            return [path]
        out: list[str | None] = []
        for row in rows:
            self._bound = row
            try:
                out.append(self.path_of(node))
            finally:
                self._bound = {}
        return list(dict.fromkeys(out))

    def paths_over_callers(self, call: Any, node: Any) -> list[str]:
        """The paths `node` makes from parameters of the method around `call`, one per call of that
        method in this module on an instance of its class or a subclass here (scout's `def
        register(self, name, url)` calling `self.app.add_url_rule(url, ...)`, then
        `document_view = DocumentView(app)` and `document_view.register('document_view', '%s/documents/'
        % prefix)`); what each caller passes is read where it is written. None known: []."""
        function = _enclosing(call, "function_definition")
        cls = _enclosing(function, "class_definition") if function is not None else None
        outer = cls.parent if cls is not None else None
        outer = outer.parent if outer is not None and outer.type == "decorated_definition" else outer
        if outer is None or outer.type != "module":
            return []
        params = py_named_parameters(function)
        names = py_parameter_names(self.pf, function)
        # (a parameter the path names directly must be what the caller passed; one it names through
        # a local, `detail_url = url + '<pk>/'`, is read through that local's binding)
        used = {self.pf.text(n) for n in descendants(node, "identifier")} & set(names[1:])
        if len(names) < 2 or any(self.rebinds(name, node) for name in used):
            return []
        defaults = {name: p.child_by_field_name("value") for name, p in zip(names, params, strict=True)
                    if p.type in ("default_parameter", "typed_default_parameter")}
        method = self.pf.text(function.child_by_field_name("name"))
        family = self.subclasses_here(self.pf.text(cls.child_by_field_name("name")))
        if self._instances is None:  # (once per file: a module of many registrations stays linear)
            self._instances, self._calls_by_attr = {}, {}
            for a in self.assignments:
                left, right = a.child_by_field_name("left"), a.child_by_field_name("right")
                if left is not None and left.type == "identifier" and right is not None and right.type == "call":
                    self._instances.setdefault(self.callee_last(right), set()).add(self.pf.text(left))
            for caller, receiver, attr in self.call_info():  # (by the instance, and by the class it is made of)
                if receiver is not None:
                    self._calls_by_attr.setdefault((attr, receiver), []).append(caller)
                    if "(" in receiver:
                        self._calls_by_attr.setdefault((attr, receiver.partition("(")[0]), []).append(caller)
        instances = set().union(*(self._instances.get(c, ()) for c in family))
        callers = {c.start_byte: c for name in instances | family
                   for c in self._calls_by_attr.get((method, name), ())}  # type: ignore[union-attr]
        out: list[str] = []
        for caller in (callers[start] for start in sorted(callers)):
            positional, keywords = py_args(caller.child_by_field_name("arguments"))
            bound = {name: defaults[name] for name in names[1:] if name in defaults}
            bound.update(zip(names[1:], positional, strict=False))
            bound.update((k, v) for k, v in keywords.items() if k in names)
            self._bound = bound
            try:
                path = self.path_of(node)
            finally:
                self._bound = {}
            if path is not None:
                out.append(path)
        return list(dict.fromkeys(out))

    def rebinds(self, name: str, at: Any) -> bool:
        """Whether the function around `at` rebinds `name` (then a parameter is not what its caller
        passed)."""
        function = _enclosing(at, "function_definition")
        return function is not None and re.search(
            rb"(?<![\w.])" + re.escape(name.encode()) + rb"\s*=(?!=)",
            self.pf.source[function.child_by_field_name("body").start_byte:at.start_byte]) is not None

    def subclasses_here(self, name: str) -> set[str]:
        """`name` and the classes this module defines that derive from it, however deep."""
        if self._subclasses is None:  # base's last name -> the names of the classes here that derive from it
            self._subclasses = {}
            for c in python_definitions(self.pf.tree.root_node, "class_definition"):
                for base in _class_bases(c):
                    self._subclasses.setdefault(self.pf.text(base).rpartition(".")[2], []).append(
                        self.pf.text(c.child_by_field_name("name")))
        family, todo = {name}, [name]
        while todo:
            for child in self._subclasses.get(todo.pop(), ()):
                if child not in family:
                    family.add(child)
                    todo.append(child)
        return family

    def paths_of(self, call: Any, node: Any, view: Any, handler: str | None) -> list[tuple[str | None, str | None]]:
        """(path, handler) pairs of one registration: one, or one per key of the dict a loop walks."""
        if node.type == "identifier" and view is not None and view.type == "identifier":
            loop = _enclosing(call, "for_statement")
            left = loop.child_by_field_name("left") if loop is not None else None
            right = loop.child_by_field_name("right") if loop is not None else None
            names = [self.pf.text(n) for n in left.named_children] if left is not None and left.type in (
                "pattern_list", "tuple_pattern") else []
            if names == [self.pf.text(node), self.pf.text(view)] and right is not None and right.type == "call":
                function = right.child_by_field_name("function")
                if function is not None and function.type == "attribute" and \
                        self.pf.text(function.child_by_field_name("attribute")) == "items":
                    table = self.value_of(function.child_by_field_name("object"), loop)
                    if table is not None and table.type == "dictionary":
                        out = []
                        for pair in table.named_children:
                            if pair.type != "pair":
                                continue
                            parts = self.text_value(pair.child_by_field_name("key"), pair, 0)
                            value = pair.child_by_field_name("value")
                            out.append(("".join(parts) if parts is not None else None,
                                        self.pf.text(value) if value is not None else None))
                        return out
        path = self.path_of(node)
        if path is None:  # (a loop's rows of a literal table, `for name in PAGES:`; else the callers')
            looped = [found for found in self.paths_over_loop(call, node) if found is not None]
            return [(found, handler) for found in looped or self.paths_over_callers(call, node)] or [(None, handler)]
        return [(path, handler)]

    def run_time_segment(self, name: Any) -> bool:
        """Whether `name` is the variable of a loop around it over what only run time knows
        (sqlite2rest's `for table_name in tables: app.add_url_rule(f'/{table_name}/<id>', ...)`,
        the tables of a database): a path segment it fills stands for each of its values."""
        loop = _enclosing(name, "for_statement")
        left = loop.child_by_field_name("left") if loop is not None else None
        right = loop.child_by_field_name("right") if loop is not None else None
        names = [left] if left is not None and left.type == "identifier" else list(left.named_children) \
            if left is not None and left.type in ("pattern_list", "tuple_pattern") else []
        # (or `for collection, admin in site.get_registered_models().items()`: a call's rows, not a
        # literal's: `ROUTES.items()` of `ROUTES = {...}` here)
        function = right.child_by_field_name("function") if right is not None and right.type == "call" else None
        owner = function.child_by_field_name("object") if function is not None and function.type == "attribute" \
            else None
        if owner is not None and owner.type == "identifier" and (
                (bound := self.value_of(owner, right)) is not None and bound.type in ("dictionary", "list", "tuple")):
            return False
        return self.pf.text(name) in {self.pf.text(n) for n in names if n.type == "identifier"} and \
            right is not None and (right.type == "identifier" or right.type in ("call", "attribute") and not any(
                True for _ in descendants(right, "string"))) and self.table_rows(left, right) is None

    def given_attribute(self, node: Any, at: Any) -> bool:
        """Whether `node` is an attribute of what the function around it is given, or a name bound
        to one (aegis's `table_name = model.__tablename__` in `def _create_list_endpoint(self, model)`,
        before `@self.router.get(f"/{table_name}/")`): each object it is given has its own, a route
        per call."""
        if node.type == "identifier":
            bound = self.value_of(node, at)
            node = bound if bound is not None and bound.type == "attribute" else None
        obj = node.child_by_field_name("object") if node is not None and node.type == "attribute" else None
        function = _enclosing(at, "function_definition") if obj is not None and obj.type == "identifier" and \
            self.pf.text(obj) not in ("self", "cls") else None
        return function is not None and self.pf.text(obj) in py_parameter_names(self.pf, function)

    def text_value(self, node: Any, at: Any, depth: int) -> list[str] | None:
        """The text `node` evaluates to, as parts (an imported name's part deferred), or None."""
        if node is None or depth > 8:
            return None
        kind = node.type
        if kind == "parenthesized_expression" and node.named_child_count == 1:
            return self.text_value(node.named_child(0), at, depth + 1)
        if kind == "string":
            start = node.child(0)
            if start is None or "f" not in self.pf.text(start).lower():
                value = py_string(self.pf, node)
                return [value] if value is not None else None
            parts: list[str] = []
            children = node.children
            for i, child in enumerate(children):
                if child.type == "string_content":
                    text = self.pf.text(child)
                    if "\\" in text:
                        return None  # an escape: not worth interpreting for a path
                    parts.append(text.replace("{{", "{").replace("}}", "}"))
                elif child.type == "interpolation":
                    inner = [c for c in child.named_children if c.type not in ("comment",)]
                    if len(inner) != 1:
                        return None  # a conversion or a format: not a plain value
                    value = self.text_value(inner[0], at, depth + 1)
                    if value is None and "".join(parts).endswith("/") and (
                            self.run_time_segment(inner[0]) or self.given_attribute(inner[0], at)) and (
                            i + 1 >= len(children) or children[i + 1].type != "string_content"
                            or self.pf.text(children[i + 1]).startswith("/")):
                        name = inner[0] if inner[0].type == "identifier" else inner[0].child_by_field_name("attribute")
                        value = ["{" + self.pf.text(name) + "}"]  # one route per value: a parameter
                    if value is None:
                        return None
                    parts += value
            return parts
        if kind == "concatenated_string" or kind == "binary_operator" and \
                self.pf.text(node.child_by_field_name("operator")) == "+":
            pieces = node.named_children if kind == "concatenated_string" else [
                node.child_by_field_name("left"), node.child_by_field_name("right")]
            out: list[str] = []
            for piece in pieces:
                value = self.text_value(piece, at, depth + 1)
                if value is None:
                    return None
                out += value
            return out
        if kind == "binary_operator" and self.pf.text(node.child_by_field_name("operator")) == "%":
            return self.formatted(node, at, depth)  # r"/api/kernels/%s" % _kernel_id_regex
        if kind == "call" and self.callee(node)[1] == "cast" and \
                len(args := py_args(node.child_by_field_name("arguments"))[0]) == 2:
            return self.text_value(args[1], at, depth + 1)  # `cast(str, context.config.HEALTHCHECK_ROUTE)`: the value
        if kind == "call" and self.callee(node)[1] == "format":
            return self.str_format(node, at, depth)  # r'^{0}/{1}/(?P<key>\w+)/?$'.format(API_BASE_URL, ACCEPT)
        if kind == "call" and self.callee(node)[1] == "join":
            return self.str_join(node, at)  # f"({'|'.join(ROUTES)})" of `ROUTES = ("terminal", "rich")`
        if kind == "boolean_operator" and self.pf.text(node.child_by_field_name("operator")) == "or" and \
                py_string(self.pf, node.child_by_field_name("right")) == "":
            # langserve's `namespace = path or ""`: the left's value, whatever it is ("" either way when it is empty)
            left = node.child_by_field_name("left")
            value = self.text_value(left, at, depth + 1)
            # scout's `prefix = app.config.get('URL_PREFIX') or ''`: a setting nothing in the package
            # sets falls back to "", where the routes are served unless a deployment says otherwise
            return value if value is not None or not self.unset_lookup(left) else [""]
        if kind == "subscript":  # config["route_path"]["seg"] of a config file the module loads
            keys: list[str] = []
            while node is not None and node.type == "subscript":
                key = py_string(self.pf, node.child_by_field_name("subscript"))
                if key is None or "\x1f" in key:
                    return None
                keys.insert(0, key)
                node = node.child_by_field_name("value")
            loaded = self.config_file(self.pf.text(node)) if node is not None and node.type == "identifier" else None
            return [DEFERRED + CONFIG_FILE + loaded + "#" + "\x1f".join(keys) + DEFERRED] if loaded else None
        if kind in ("identifier", "attribute"):
            if kind == "identifier" and self.pf.text(node) in self._bound:
                # (read where it is written, a caller's argument, with the caller's names, not these)
                bound, saved, self._bound = self._bound[self.pf.text(node)], self._bound, {}
                try:
                    return self.text_value(bound, bound, depth + 1)
                finally:
                    self._bound = saved
            known = self.resolve(node)
            if known is not None:
                return [known]
            value = self.value_of(node, at)
            if value is not None:
                return self.text_value(value, value, depth + 1)
            if kind == "identifier" and self.pf.text(node) in self.names:  # another module's constant
                return [DEFERRED + self.names[self.pf.text(node)] + DEFERRED]
            obj = node.child_by_field_name("object") if kind == "attribute" else None
            if obj is not None and obj.type == "identifier" and self.pf.text(obj) in self.names:
                # `app.API_PREFIX` of `from pkg import app`: that module's constant (or an object's attribute)
                attr = self.pf.text(node.child_by_field_name("attribute"))
                return [DEFERRED + f"{self.names[self.pf.text(obj)]}.{attr}" + DEFERRED]
            if kind == "identifier":  # `def register(router, *, base_path)`: what its callers pass, each
                given = self.parameter_prefix(node, at)
                if given is not None:
                    return [given]
            cls = _enclosing(at, "class_definition") if obj is not None and self.pf.text(obj) == "self" else None
            if cls is not None:  # `self.prefix`, kept by __init__ from its parameter's default ("")
                default = class_attribute_default(self.pf, cls, self.pf.text(node.child_by_field_name("attribute")))
                return [default] if default is not None else None
            field = self.setting_field(node)  # `auth.config.base_path`: its settings class's default
            return [field] if field is not None else None
        if kind == "call" and (key := self.config_key(node)) is not None:
            return [f"{DEFERRED}{SETTING}{key}{DEFERRED}"]  # its default, read in assembly
        function = node.child_by_field_name("function") if kind == "call" else None
        if function is not None and function.type == "attribute" and \
                self.pf.text(function.child_by_field_name("attribute")) == "rstrip":
            # `auth.config.base_path.rstrip("/")` before `f"{base_path}/signup"` (a part read in assembly
            # is joined to what follows it without the doubled slash: miners/deferred_paths.py)
            args = py_args(node.child_by_field_name("arguments"))[0]
            value = self.text_value(function.child_by_field_name("object"), at, depth + 1) \
                if len(args) == 1 and py_string(self.pf, args[0]) == "/" else None
            return value if value is None or any(DEFERRED in part for part in value) else ["".join(value).rstrip("/")]
        return None

    def config_file(self, name: str) -> str | None:
        """The file a module-level name is loaded from (`config = yaml.safe_load(f.read())` in
        `with open(os.path.join(os.path.dirname(__file__), CONFIG_PATH)) as f`, json.load too), as
        a path beside this module; None for anything else."""
        if self._config_files is None:
            self._config_files = {}
            for stmt in self.pf.tree.root_node.named_children:
                body = stmt.child_by_field_name("body") if stmt.type == "with_statement" else None
                for inner in ([stmt] if body is None else [stmt, *body.named_children]):
                    node = inner.named_child(0) if inner.type == "expression_statement" and inner.named_child_count \
                        else inner
                    if node is None or node.type != "assignment":
                        continue
                    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
                    if left is None or left.type != "identifier" or right is None or right.type != "call" or \
                            self.pf.text(right.child_by_field_name("function")) not in _CONFIG_LOADERS:
                        continue
                    file = self.config_name(stmt if body is not None else right)
                    if file:
                        self._config_files[self.pf.text(left)] = file
        found = self._config_files.get(name)
        if found is None:
            return None
        here = self.pf.path.rpartition("/")[0]
        return f"{here}/{found}" if here else found

    def config_name(self, node: Any) -> str | None:
        """The config file's name a `with open(...)` statement or a loader call writes: a literal
        (or a module constant) ending in .yml, .yaml or .json."""
        for sub in descendants(node, ("string", "identifier")):
            value = py_string(self.pf, sub) if sub.type == "string" else self.strings.get(self.pf.text(sub))
            if value and value.endswith(_CONFIG_SUFFIXES) and ".." not in value and not value.startswith("/"):
                return value
        return None

    def formatted(self, node: Any, at: Any, depth: int) -> list[str] | None:
        """`"...%s..." % value` or `% (a, b)`: a template of plain `%s` only, every value known."""
        template = self.text_value(node.child_by_field_name("left"), at, depth + 1)
        if template is not None and not any(DEFERRED in part for part in template):
            template = ["".join(template)]  # `"%s/shares/{share_id}" "/export_locations" % prefix`
        right = node.child_by_field_name("right")
        if template is None or len(template) != 1 or right is None:
            return None
        items = right.named_children if right.type == "tuple" else [right]
        values = [self.text_value(item, at, depth + 1) for item in items]
        pieces = template[0].replace("%%", "\x01").split("%s")
        if any(v is None for v in values) or len(pieces) != len(values) + 1 or "%" in "".join(pieces):
            return None
        out = [pieces[0].replace("\x01", "%")]
        for value, piece in zip(values, pieces[1:]):
            out += [*value, piece.replace("\x01", "%")]  # type: ignore[misc]
        return ["".join(out)]

    def str_join(self, node: Any, at: Any) -> list[str] | None:
        """`"|".join(ROUTES)`: a literal separator joining a tuple or list of literals (a name bound
        to one here, or one written in place)."""
        function = node.child_by_field_name("function")
        separator = py_string(self.pf, function.child_by_field_name("object")) if function.type == "attribute" else None
        args = py_args(node.child_by_field_name("arguments"))[0]
        items = args[0] if separator is not None and len(args) == 1 else None
        items = self.value_of(items, at) if items is not None and items.type == "identifier" else items
        if items is None or items.type not in ("tuple", "list"):
            return None
        values = [self.resolve(item) for item in items.named_children if item.type != "comment"]
        return [separator.join(values)] if values and all(v is not None for v in values) else None  # type: ignore

    def str_format(self, node: Any, at: Any, depth: int) -> list[str] | None:
        """`"...{0}/{1}...".format(a, b)` (or `{}`s in turn): a literal template of positional fields
        alone, every value known (another module's constant left DEFERRED, as text_value leaves it)."""
        function = node.child_by_field_name("function")
        template = py_string(self.pf, function.child_by_field_name("object")) if function.type == "attribute" else None
        positional, keywords = py_args(node.child_by_field_name("arguments"))
        if template is None or keywords:
            return None
        values = [self.text_value(item, at, depth + 1) for item in positional]
        out: list[str] = []
        pieces = re.split(r"(\{\d*\})", template.replace("{{", "\x01").replace("}}", "\x02"))
        turn = 0
        for piece in pieces:
            if re.fullmatch(r"\{\d*\}", piece):
                index = int(piece[1:-1]) if piece[1:-1] else turn
                turn += 1
                if index >= len(values) or values[index] is None:
                    return None
                out += values[index]  # type: ignore[misc]
            elif "{" in piece or "}" in piece:
                return None  # a named or formatted field: not read
            else:
                out.append(piece.replace("\x01", "{").replace("\x02", "}"))
        return out

    def value_of(self, node: Any, at: Any) -> Any:
        """The node a name is bound to where `at` is: the last plain assignment before it in the
        enclosing function, else at module level; `self.X` / `Cls.X`: the class body's `X = ...`."""
        if node is None:
            return None
        if node.type == "attribute":
            obj, attr = node.child_by_field_name("object"), node.child_by_field_name("attribute")
            if obj is None or attr is None or obj.type != "identifier":
                return None
            owner = self.pf.text(obj)
            cls = _enclosing(at, "class_definition") if owner in ("self", "cls") else next(
                (c for c in self.pf.tree.root_node.named_children if c.type == "class_definition"
                 and self.pf.text(c.child_by_field_name("name")) == owner), None)
            body = cls.child_by_field_name("body") if cls is not None else None
            return _assigned(self.pf, body, self.pf.text(attr), None) if body is not None else None
        if node.type != "identifier":
            return None
        name = self.pf.text(node)
        function = _enclosing(at, "function_definition")
        if function is not None:
            body = function.child_by_field_name("body")
            block = at.parent
            while block is not None and block != body and block != function:  # the nearest block's binding first
                if block.type == "block":  # (Flask-Security's `reset_url = cv(...)` in the `if` it is used in)
                    value = _assigned(self.pf, block, name, at.start_byte)
                    if value is not None:
                        return value
                block = block.parent
            value = _assigned(self.pf, body, name, at.start_byte)
            if value is None and self._bound:
                value = self.branch_assigned(body, name, at.start_byte)
            if value is not None:
                return value
        return _assigned(self.pf, self.pf.tree.root_node, name, None)

    def branch_assigned(self, body: Any, name: str, before: int) -> Any:
        """While a caller's arguments are bound: the value `name` takes from the last statement
        before `before` that binds it, when that is `if P is None: name = a else: name = b` (or
        `if P:`, `if not P:`, `is not None`) over a bound parameter P (scout's `if pk_type is None:
        detail_url = url + '<pk>/' else: detail_url = url + '<%s:pk>/' % pk_type`); else None."""
        last = None
        for statement in body.named_children:
            if statement.start_byte >= before:
                break
            if re.search(rb"(?<![\w.])" + re.escape(name.encode()) + rb"\s*=(?!=)",
                         self.pf.source[statement.start_byte:statement.end_byte]):
                last = statement
        alternative = last.child_by_field_name("alternative") if last is not None and \
            last.type == "if_statement" else None
        if alternative is None or alternative.type != "else_clause":
            return None
        taken = self.bound_truth(last.child_by_field_name("condition"))
        branch = last.child_by_field_name("consequence") if taken else alternative.child_by_field_name("body")
        return _assigned(self.pf, branch, name, None) if taken is not None and branch is not None else None

    def bound_truth(self, condition: Any) -> bool | None:
        """Whether `P`, `not P`, `P is None` or `P is not None` holds for a bound parameter P whose
        value is a literal (None, a string, a number, a boolean); None when not known."""
        negate = False
        if condition is not None and condition.type == "not_operator":
            negate, condition = True, condition.child_by_field_name("argument")
        test, subject = "truth", condition
        if condition is not None and condition.type == "comparison_operator" and condition.named_child_count == 2:
            operators = " ".join(self.pf.text(c) for c in condition.children if not c.is_named)
            if operators in ("is", "is not") and condition.named_child(1).type == "none":
                test, subject = operators, condition.named_child(0)
        if subject is None or subject.type != "identifier" or self.pf.text(subject) not in self._bound:
            return None
        value = py_literal(self.pf, self._bound[self.pf.text(subject)])
        if value is UNRESOLVED:
            return None
        held = bool(value) if test == "truth" else (value is None) == (test == "is")
        return held != negate

    # routers mounted under a prefix: FastAPI's include_router(router, prefix=...), Flask's
    # register_blueprint(bp, url_prefix=...)
    def litestar_mounts(self) -> None:
        """Litestar's `Router(path="/api", route_handlers=[UserController, health])` (and the app's
        `Litestar(route_handlers=[...])`): each handler, a Controller or a handler function of this
        module or imported, is served under the router's path."""
        for call, receiver, attr in self.call_info():
            if attr not in ("Router", "Litestar") or not self.names.get(attr, "").startswith(("litestar", "starlite")):
                continue
            _, keywords = py_args(call.child_by_field_name("arguments"))
            handlers = keywords.get("route_handlers")
            prefix = (self.resolve(keywords.get("path")) or self.setting_field(keywords.get("path"))) \
                if attr == "Router" else ""
            if handlers is None or handlers.type != "list" or prefix is None or \
                    prefix and not prefix.startswith(("/", DEFERRED)):
                continue  # (a path set at run time: the handlers stay at theirs)
            owner = self.assigned_to(call) or attr
            for node in handlers.named_children:
                if node.type != "identifier":
                    continue
                name = self.pf.text(node)
                full = self.imported_as(name)
                module, _, there = full.rpartition(".") if full is not None else (None, "", name)
                self.found_mounts.append(Mount(owner, prefix.rstrip("/"), there, module or None, line_of(call)))

    def mounts(self) -> None:
        self.litestar_mounts()
        for call, receiver, attr in self.call_info():
            if attr not in ("include_router", "register_blueprint", "add_subapp", "add_router", "add_namespace") or \
                    receiver is None:
                continue
            positional, keywords = py_args(call.child_by_field_name("arguments"))
            if attr == "add_router" and (self.http_framework(receiver) or ("",))[0] != "django-ninja":
                continue
            if attr in ("add_subapp", "add_router"):  # app.add_subapp("/admin/", admin), api.add_router("auth/", r)
                positional = positional[1:]
                given = (py_args(call.child_by_field_name("arguments"))[0] or [None])[0]
            else:
                given = keywords.get("prefix" if attr == "include_router" else "url_prefix")
                if attr == "add_namespace" and "path" in keywords:
                    continue  # it replaces the namespace's own path, which another module may hold: not followed
            if not positional or positional[0].type not in ("identifier", "attribute", "call"):
                continue
            for prefix in self.looped_strings(given, call) or [
                    self.configured_prefix(given, call) if given is not None else ""]:
                self.mount_at(call, receiver, attr, positional, given, prefix)

    def looped_strings(self, name: Any, at: Any) -> list[str] | None:
        """The literals a `for` variable around `at` takes, `for prefix in ("", "/v1"):` (a router
        included at each); None when the name is no such loop's or an item is no literal."""
        if name is None or name.type != "identifier":
            return None
        rows = self.loop_rows(at)
        wanted = self.pf.text(name)
        values = [self.resolve(row.get(wanted)) for row in rows or ()]
        return values if values and None not in values else None  # type: ignore[return-value]

    def loop_rows(self, at: Any) -> list[dict[str, Any]] | None:
        """The rows the `for` loop around `at` (in its function) walks over a literal table, or None."""
        loop = at.parent
        while loop is not None and loop.type not in ("for_statement", "function_definition", "module"):
            loop = loop.parent
        if loop is None or loop.type != "for_statement":
            return None
        return self.table_rows(loop.child_by_field_name("left"), loop.child_by_field_name("right"))

    def mount_at(self, call: Any, receiver: str, attr: str, positional: list[Any], given: Any,
                 prefix: str | None) -> None:
        """Record the mount `call` makes of its router under `prefix` (None: not known yet)."""
        if prefix is None and given is not None:
            prefix = self.parameter_prefix(given, call)  # `def register(app, url_prefix)`: what callers pass
        if attr == "add_namespace" and prefix is not None:  # flask-restx: under the Api's own prefix too
            api = self.value_of(call.child_by_field_name("function").child_by_field_name("object"), call)
            outer = self.resolve(py_args(api.child_by_field_name("arguments"))[1].get("prefix")) \
                if api is not None and api.type == "call" and self.callee_last(api) == "Api" else None
            prefix = _join_paths(outer, prefix) if outer else prefix
        if attr == "add_subapp" and prefix:
            prefix = prefix.rstrip("/")
        if attr == "add_router" and prefix is not None and not prefix.startswith("/"):
            prefix = "/" + prefix
        if prefix is None or prefix and not prefix.startswith(("/", DEFERRED)):
            return  # an unknown prefix: the routes stay as registered
        if attr in ("include_router", "register_blueprint"):  # under the router's own prefix too:
            own = self.http_framework(receiver)  # `APIRouter(prefix="/api/v1").include_router(r, prefix="/auth")`
            if own is not None and own[1].startswith("/"):
                prefix = _join_paths(own[1], prefix)
        factory = self.factory_call(positional[0], call)
        if factory is not None:  # a router factory's result: the routes its body registers
            module, name = self.factory_target(factory)
            self.found_mounts.append(Mount(receiver, prefix, name, module, line_of(call), called=True,
                                           within=_py_function_name(self.pf, call)))
            return
        if positional[0].type == "call":
            return
        given_router, attribute = positional[0], ""
        if given_router.type == "attribute" and given_router.child_by_field_name("object").type == "identifier":
            given_router = given_router.child_by_field_name("object")  # `for area in AREAS: ...(area.router)`
            attribute = "." + self.pf.text(positional[0].child_by_field_name("attribute"))
        looped = self.looped_nodes(given_router, call) if given_router.type == "identifier" else None
        if looped is None:
            attribute = ""
        for node in looped if looped is not None else [positional[0]]:
            target = "".join(self.pf.text(node).split()) + attribute
            full = self.imported_as(target)
            if full is not None:
                module, _, name = full.rpartition(".")
                self.found_mounts.append(Mount(receiver, prefix, name, module or ".", line_of(call)))
            elif "." not in target:
                self.found_mounts.append(Mount(receiver, prefix, target, None, line_of(call)))

    def looped_nodes(self, name: Any, at: Any) -> list[Any] | None:
        """What a `for` variable around `at` takes over a literal tuple or list: its items, or the
        item at its place in each tuple (`for router, errors in ((users.router, E), ...)`); None
        when the name is no such loop's."""
        rows = self.loop_rows(at)
        wanted = self.pf.text(name)
        if rows is None or any(wanted not in row or row[wanted].type not in ("identifier", "attribute")
                               for row in rows):
            return None
        return [row[wanted] for row in rows]

    def table_rows(self, left: Any, items: Any) -> list[dict[str, Any]] | None:
        """The rows a loop's names take over a literal table, `for a, b in ((x, y), ...)` or a
        name bound to one where the loop is (`for area in AREAS`), also in order or counted
        (`sorted(AREAS)`, `enumerate(AREAS)`, whose count is no row's): {name: node} each; None otherwise."""
        counted = False
        if items is not None and items.type == "call" and self.callee_last(items) in _ORDERINGS and \
                items.child_by_field_name("function").type == "identifier":
            positional, keywords = py_args(items.child_by_field_name("arguments"))
            counted = self.callee_last(items) == "enumerate"
            items = positional[0] if len(positional) == 1 and not keywords else None
        if items is not None and items.type == "identifier":
            items = self.value_of(items, items)
        if left is None or items is None or items.type not in ("tuple", "list"):
            return None
        names = [self.pf.text(c) for c in left.named_children] if left.type in ("pattern_list", "tuple_pattern") \
            else [self.pf.text(left)]
        if counted:  # (`for i, name in enumerate(PAGES)`: the rows are PAGES's, bound to the second name)
            if len(names) != 2:
                return None
            return [{names[1]: item} for item in items.named_children if item.type != "comment"]
        rows = []
        for item in items.named_children:
            if item.type == "comment":
                continue
            values = item.named_children if len(names) > 1 else [item]
            if len(names) > 1 and (item.type != "tuple" or len(values) != len(names)):
                return None
            rows.append(dict(zip(names, values)))
        return rows

    def loop_methods(self, node: Any) -> list[str] | None:
        """The methods `methods=[method]` (or `methods=methods`) takes over the rows of a literal
        table a loop around it walks (scout's `for view, method, view_name in ((self.list_view,
        'GET', name), (self.create, 'POST', ...))`): all of them, in order; else None."""
        names = node.named_children if node.type == "list" else [node]
        loop = _enclosing(node, "for_statement") if names and all(n.type == "identifier" for n in names) else None
        rows = self.table_rows(loop.child_by_field_name("left"), loop.child_by_field_name("right")) \
            if loop is not None else None
        out: list[str] = []
        for row in rows or ():
            for name in names:
                value = py_literal(self.pf, row[self.pf.text(name)]) if self.pf.text(name) in row else None
                value = [value] if isinstance(value, str) else list(value) if isinstance(value, (list, tuple)) \
                    else None
                if not value or not all(isinstance(m, str) and m.lower() in HTTP_VERBS for m in value):
                    return None
                out += value
        return list(dict.fromkeys(out)) or None

    def factory_call(self, node: Any, at: Any) -> Any:
        """The call to a plain function (or an imported module's) whose result `node` is
        (`make_router(engine)`, or a name bound to one where `at` is: `bp = create_blueprint(...)`),
        else None. Not a router's constructor."""
        if node.type == "identifier":
            node = self.value_of(node, at)
        if node is None or node.type != "call":
            return None
        function = node.child_by_field_name("function")
        if function is None or self.callee_last(node) in PY_CONSTRUCTORS or \
                self.callee_last(node) in ("Router", "NinjaAPI"):
            return None
        if function.type == "attribute" and self.imported_as(self.pf.text(function)) is not None:
            return node  # `settings.construct_blueprint(store)`: an imported module's function
        return node if function.type == "identifier" else None

    def factory_target(self, factory: Any) -> tuple[str | None, str]:
        """(module as imported, or None for this file's; the function's name there) of a factory call."""
        written = "".join(self.pf.text(factory.child_by_field_name("function")).split())
        full = self.imported_as(written)
        return (full.rpartition(".")[0] or ".", full.rpartition(".")[2]) if full else (None, written)

    def parameter_prefix(self, node: Any, at: Any) -> str | None:
        """A mount's prefix that is a parameter of the module-level function it is made in
        (sahara's `def register_blueprints(app, url_prefix)`), left DEFERRED for assembly to read
        from the function's callers (miners/deferred_paths.py); else None."""
        function = _enclosing(at, "function_definition")
        outer = function.parent if function is not None else None
        if outer is not None and outer.type == "decorated_definition":
            outer = outer.parent  # (a CLI command's: `@app.command() def dev_server(prefix=typer.Option(...))`)
        if node.type != "identifier" or outer is None or outer.type != "module":
            return None
        params = function.child_by_field_name("parameters")
        name, index, default, positional = self.pf.text(node), -1, None, True
        for param in params.named_children if params is not None else ():
            if param.type in ("keyword_separator", "list_splat_pattern", "dictionary_splat_pattern"):
                positional = False  # (what follows `*` or `*args` is passed by keyword only)
                continue
            named = param if param.type == "identifier" else param.child_by_field_name("name") or next(
                (c for c in param.named_children if c.type == "identifier"), None)
            index += positional
            if named is not None and self.pf.text(named) == name:
                value = param.child_by_field_name("value")
                default = self.default_value(value) if value is not None else None
                break
        else:
            return None
        if self.value_of(node, at) is not None:
            return None  # (rebound in the body)
        function_name = self.pf.text(function.child_by_field_name("name"))
        at_index = index if positional else -1
        return f"{DEFERRED}{CALL_ARGUMENT}{self.pf.path}#{function_name}#{at_index}#{name}#{default or ''}" \
            f"#{int(default is not None)}{DEFERRED}"

    def configured_prefix(self, node: Any, at: Any) -> str | None:
        """A mount's prefix: a literal or a constant; else the default it falls back to when
        nothing is configured (`self.prefix or app.config.get("PREFIX", "/api/auth")`)."""
        value = self.resolve(node)
        if value is not None:
            return value
        if node.type == "identifier":
            bound = self.value_of(node, at)
            node = bound if bound is not None else node
        if node.type == "boolean_operator" and self.pf.text(node.child_by_field_name("operator")) == "or":
            return self.configured_prefix(node.child_by_field_name("right"), at)
        if node.type == "call" and self.callee(node)[1] in ("get", "getenv"):
            positional, keywords = py_args(node.child_by_field_name("arguments"))
            default = positional[1] if len(positional) > 1 else keywords.get("default")
            return self.resolve(default) if default is not None else None
        if node.type == "attribute" and node.child_by_field_name("object").type == "identifier":
            # (`config.api_prefix` of an untyped `config` parameter: the default the package's settings class gives)
            return self.settings_default(node.child_by_field_name("object"), self.pf.text(
                node.child_by_field_name("attribute")), at) or self.setting_field(node)
        if node.type == "identifier" and self.pf.text(node) in self.names:  # `from .session import PATH`
            return DEFERRED + self.names[self.pf.text(node)] + DEFERRED
        return None

    def settings_default(self, obj: Any, attr: str, at: Any) -> str | None:
        """`settings.API_V1_STR`, `cfg.prefix`: the default of an attribute of a settings object,
        made here (`settings = Settings()`), a parameter of its class (`cfg: ApiConfiguration`) or
        imported (`from app.core.config import settings`). Another module's is left DEFERRED for
        assembly to read (miners/deferred_paths.py)."""
        name = self.pf.text(obj)
        made = self.value_of(obj, at)
        made = made if made is not None and made.type == "call" else None
        given = py_args(made.child_by_field_name("arguments"))[1] if made is not None else {}
        if attr in given:
            return self.resolve(given[attr])  # Settings(PREFIX="/v2")
        cls = self.pf.text(made.child_by_field_name("function")) if made is not None and \
            made.child_by_field_name("function").type == "identifier" else None
        if cls is None:
            function = _enclosing(at, "function_definition")
            params = function.child_by_field_name("parameters").named_children if function is not None else []
            cls = next((self.pf.text(p.child_by_field_name("type")) for p in params
                        if p.type in ("typed_parameter", "typed_default_parameter") and p.child_by_field_name("type")
                        and (p.named_child(0) is not None and self.pf.text(p.named_child(0)) == name)), None)
        if cls is not None and cls.isidentifier():
            local = next((c for c in self.pf.tree.root_node.named_children if c.type == "class_definition"
                          and self.pf.text(c.child_by_field_name("name")) == cls), None)
            if local is not None:
                return class_attribute_default(self.pf, local, attr)
            imported = self.imported_as(cls)
            return DEFERRED + f"{imported}().{attr}" + DEFERRED if imported else None
        if made is None and name in self.names:
            return DEFERRED + f"{self.names[name]}.{attr}" + DEFERRED
        return None

    # flask-restful / flask-restx: `api.add_resource(Watch, "/watch/<id>", ...)` serves each HTTP
    # method the class has a method for; the class is often another module's, so the routes are
    # worked out in assembly (miners/resource_routes.py) from this placeholder
    def resources(self) -> None:
        for call, receiver, attr in self.call_info():
            if attr != "add_resource" or receiver is None:
                continue
            positional, _ = py_args(call.child_by_field_name("arguments"))
            if not positional or positional[0].type not in ("identifier", "attribute"):
                continue
            known = self.http_framework(receiver)
            over = self.api_over(receiver)
            for node in positional[1:]:
                path = self.resolve(node)
                if path is not None and path.startswith("/"):
                    self.resource(call, "".join(self.pf.text(positional[0]).split()),
                                  _join_paths(known[1], path) if known else path, "flask-restful",
                                  **({"receiver": over} if over else {}))
        if _py_resource_table(self.pf.source, present(self.pf)):
            self.resource_tables()

    def api_over(self, receiver: str) -> str | None:
        """The blueprint an Api is made over (`api = Api(api_v1)`, `Api(blueprint=bp)`): its
        resources are the blueprint's routes, served where the blueprint is registered."""
        for node in self.assignments:
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is None or right is None or right.type != "call" or self.pf.text(left) != receiver:
                continue
            positional, keywords = py_args(right.child_by_field_name("arguments"))
            given = positional[0] if positional else keywords.get("app") or keywords.get("blueprint")
            name = self.pf.text(given) if given is not None and given.type == "identifier" else None
            return name if name in self.vars and self.vars[name][0] == "http" and \
                self.vars[name][1] == "flask" and self.callee_last(self.vars[name][2]) == "Blueprint" else None
        return None

    def method_tables(self) -> None:
        """openstack-placement's ROUTE_DECLARATIONS: a module-level dict of path -> {HTTP method:
        handler}, which the module's own loop registers (`for route, targets in
        declarations.items(): mapper.connect(route, action=targets[method], conditions=...)`)."""
        if not _py_method_table(self.pf.source):
            return
        for node in self.assignments:
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is None or right is None or left.type != "identifier" or right.type != "dictionary" or \
                    not _module_level(node):
                continue
            rows = self.method_table_rows(right)
            for pair, path, methods in rows if len(rows) >= 2 else ():
                for method, handler in methods:
                    self.out.append(_surface("http-route", _route_name(method.upper(), path), pair, "routes",
                                             handler="".join(self.pf.text(handler).split()) if handler else None,
                                             detail={"method": method.upper(), "path": path, "table": True}))

    def verb_path_tables(self) -> None:
        """mockallan's `self._api_endpoints = {('GET', '/config'): self._get_config, ('PUT', '/config'):
        ...}`, looked up by `(request.method.upper(), request.path)`: a dict whose every key is a
        (method, path) pair of literals and every value a handler (a name, an attribute, a lambda),
        three or more, a route each (an HTTP client's `{("GET", "/users"): 10}` of rate limits is none)."""
        if _PY_VERB_PATH_KEY.search(self.pf.source) is None:
            return
        for node in self.assignments:
            right = node.child_by_field_name("right")
            rows = []
            for pair in right.named_children if right is not None and right.type == "dictionary" else ():
                if pair.type == "comment":
                    continue
                key = pair.child_by_field_name("key") if pair.type == "pair" else None
                items = key.named_children if key is not None and key.type == "tuple" else []
                method = py_string(self.pf, items[0]) if len(items) == 2 else None
                path = py_string(self.pf, items[1]) if method is not None else None
                value = pair.child_by_field_name("value")
                if method is None or method.lower() not in HTTP_VERBS or path is None or not path.startswith("/") \
                        or value is None or value.type not in ("identifier", "attribute", "lambda"):
                    rows = []
                    break
                rows.append((pair, method.upper(), path, value))
            for pair, method, path, handler in rows if len(rows) >= 3 else ():
                self.out.append(_surface("http-route", _route_name(method, path), pair, "python-web",
                                         handler="".join(self.pf.text(handler).split()) if handler else None,
                                         detail={"method": method, "path": path, "table": True}))

    def method_table_rows(self, table: Any) -> list[tuple[Any, str, list[tuple[str, Any]]]]:
        """(pair, path, [(method, handler)]) per entry of a dict whose every key is a path and every
        value a dict keyed by HTTP methods alone; [] when it is not such a table."""
        rows = []
        for pair in table.named_children:
            if pair.type == "comment":
                continue
            key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
            path = self.resolve(key) if pair.type == "pair" and key is not None and key.type == "string" else None
            if path is None or path and not path.startswith("/") or value is None or value.type != "dictionary":
                return []
            methods = [(self.resolve(p.child_by_field_name("key")), p.child_by_field_name("value"))
                       for p in value.named_children if p.type == "pair"]
            if not methods or any(m is None or m.lower() not in HTTP_VERBS for m, _ in methods):
                return []
            if path:  # ('': the same root again, for a service mounted under a prefix)
                rows.append((pair, path, methods))
        return rows

    def table_entries(self, pattern: re.Pattern[bytes]) -> Iterator[Any]:
        """The tuples of two or more items, each an entry of a list or tuple, where `pattern`
        matches the source (a route table's rows: `("/things", Things)`, `(Things, "/things")`)."""
        root = self.pf.tree.root_node
        for m in pattern.finditer(self.pf.source):
            entry = root.descendant_for_byte_range(m.start(), m.start() + 1)
            entry = entry.parent if entry is not None and entry.type == "(" else None
            if entry is not None and entry.type == "tuple" and entry.parent is not None and \
                    entry.parent.type in ("list", "tuple") and len(entry.named_children) >= 2:
                yield entry

    def resource_tables(self) -> None:
        """The entries of a table of `(Resource, "/path")` pairs in a module that imports
        flask-restful or flask-restx (brapi-proxy's `"resources": [(CoreStudies, "/studies")]`):
        placeholders kept in assembly only where the package registers resources in a loop
        (`add_resource(resource[0], resource[1])`, resource_routes.py)."""
        for entry in self.table_entries(_PY_RESOURCE_TUPLE):
            if len(entry.named_children) != 2:
                continue
            target, path = entry.named_children[0], self.path_of(entry.named_children[1])
            if target.type in ("identifier", "attribute") and path is not None and path.startswith("/"):
                self.resource(entry, "".join(self.pf.text(target).split()), path, "flask-restful", table=True)

    # aiohttp: app.router.add_get(path, handler), add_route(method, path, handler), add_view(path, View);
    # app.add_routes([web.get(path, handler), web.route(method, path, handler), web.view(path, View)]);
    # RouteTableDef's @routes.get(path) decorators are read by http(). A view class answers the
    # methods it defines (a resource route). Paths' `{name:regex}` parameters are kept as `{name}`.
    def aiohttp(self) -> None:
        if "aiohttp" not in self.modules:
            return
        web = {"web", "aiohttp.web"} | {name for name, full in self.names.items() if full == "aiohttp.web"}
        for call, receiver, attr in self.call_info():
            verb = AIOHTTP_ADD.get(attr)
            if verb is None and attr not in ("add_route", "add_view"):
                imported = receiver is None and self.names.get(attr, "").startswith("aiohttp.web.")  # get(path, h)
                if (receiver in web or imported) and (attr in HTTP_VERBS or attr in ("route", "view")):
                    positional, keywords = py_args(call.child_by_field_name("arguments"))
                    self.aiohttp_route(call, None, attr, positional, keywords, None, "")
                continue
            if receiver is None:
                continue
            positional, keywords = py_args(call.child_by_field_name("arguments"))
            if verb is not None:
                self.aiohttp_route(call, receiver, verb.lower(), positional, keywords, None, "")
            else:
                self.aiohttp_route(call, receiver, "route" if attr == "add_route" else "view", positional, keywords,
                                   None, "")

    def aiohttp_route(self, node: Any, receiver: str | None, attr: str, positional: list[Any],
                      keywords: dict[str, Any], function: str | None, doc: str) -> None:
        """One aiohttp registration: `attr` is a verb, "route" (method, path, handler) or "view" (path, class)."""
        if attr == "route":
            method = self.resolve(positional[0] if positional else keywords.get("method"))
            rest = positional[1:]
        else:
            method, rest = attr.upper(), positional
        path = self.path_of(rest[0] if rest else keywords.get("path"))
        handler = rest[1] if len(rest) > 1 else keywords.get("handler")
        named = function or (self.pf.text(handler) if handler is not None and handler.type in (
            "identifier", "attribute") else None)
        if path is None or method is None or not path.startswith("/"):
            return
        path = _AIOHTTP_PARAM.sub(r"{\1}", path)
        base = receiver[:-len(".router")] if receiver and receiver.endswith(".router") else receiver
        if attr == "view":
            if named:
                self.resource(node, named, path, "aiohttp")
            return
        method = "ANY" if method == "*" else method.upper()
        self.out.append(_surface("http-route", _route_name(method, path), node, "aiohttp", handler=named,
                                 description=doc, detail={"method": method, "path": path,
                                                          **({"receiver": base} if base else {})}))

    # Tornado: Application([(r"/x", XHandler), url(r"/y", YHandler, name="y")]), add_handlers(host,
    # [...]), and the handler lists built apart (`handlers = [...]` passed on, a module's
    # `default_handlers` another module joins): each entry is a path regex and a RequestHandler
    # class, which answers the methods it defines (a resource route, resolved in assembly)
    def tornado(self) -> None:
        loader_lists = self.handler_loader_lists()
        if "tornado" not in self.modules and "jupyter_server" not in self.modules and not any(
                imported.endswith(".RequestHandler") for imported in self.names.values()) and not loader_lists:
            return  # (a Jupyter server extension's; a package's own RequestHandler, dask's, is Tornado's)
        lists: list[Any] = []
        entries: list[Any] = []
        subclasses = self.application_subclasses()
        for call, receiver, attr in self.call_info():  # (a subclass of Application too: TabPyTornadoApp([...]))
            if attr in ("extend", "append") and receiver is not None and \
                    receiver.lower().rsplit(".", 1)[-1].endswith("handlers"):
                # `self.handlers.extend([(f"/{self.name}/metadata", MetadataHandler), ...])` (a Jupyter
                # ExtensionApp's initialize_handlers), `handlers.append((r"/x", XHandler))`
                positional, _ = py_args(call.child_by_field_name("arguments"))
                if len(positional) == 1 and attr == "extend":
                    lists += self.tornado_lists(positional[0], call, 0)
                elif len(positional) == 1 and positional[0].type == "tuple":
                    entries.append(positional[0])
            elif attr in ("add_handlers", "__init__") or attr.endswith(("Application", "App")) or attr in subclasses:
                positional, keywords = py_args(call.child_by_field_name("arguments"))
                at = 1 if attr == "add_handlers" else 0
                given = positional[at] if len(positional) > at else keywords.get(
                    "host_handlers" if attr == "add_handlers" else "handlers")
                lists += self.tornado_lists(given, call, 0)
            elif attr in ("url", "URLSpec"):
                entries.append(call)
            elif attr == "add_route" and "falcon" not in self.modules:
                entries.append(call)  # a server that wraps Tornado's: `server.add_route(r"/api/files", FilesHandler, args)`
        named: dict[int, str] = {}  # a module-level list -> its name: another module may take its entries
        relative: set[int] = set()  # module-level `routes` lists, whose loader joins them to its prefix
        for node in self.assignments:
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            last = self.pf.text(left).rsplit(".", 1)[-1].lower() if left is not None else ""
            table = last == "routes" or last.endswith("_routes")
            if right is not None and right.type in ("list", "set", "tuple") and (last.endswith("handlers") or (
                    table and left.type == "identifier" and _module_level(node))):
                lists.append(right)
                if left.type == "identifier" and _module_level(node):
                    named[right.start_byte] = self.pf.text(left)
                if not last.endswith("handlers"):
                    relative.add(right.start_byte)
        called = {self.callee_last(call) for call, _, _ in self.call_info()}
        for function in python_definitions(self.pf.tree.root_node, "function_definition") \
                if any(c.endswith("Application") for c in called) else ():
            # `def get_routes(self): return [(self.prefix + "/profiler", ProfilerHandler), ...]`: the
            # list a function named for it hands the application this file makes (tornado-profile's
            # `Application([] + TornadoProfiler().get_routes())`; a hook another module calls, as
            # jupyterhub's Authenticator.get_handlers(), is served under what that module adds)
            name = self.pf.text(function.child_by_field_name("name"))
            if name in called and (
                    name.lower() in ("get_routes", "get_handlers") or name.lower().endswith(("_routes", "_handlers"))):
                lists += [r.named_children[0] for r in descendants(function, "return_statement")
                          if r.named_children and r.named_children[0].type == "list"]
        tables = {listed.start_byte for listed in loader_lists}
        lists += loader_lists
        if b"routes" in self.pf.source or b"handlers" in self.pf.source:
            # `return {'routes': [(r'/datasets', DatasetsHandler, cfg), ...]}`: a module's table for a
            # server that loads it at run time (iceprod's setup()); listed, the loading not followed
            for pair in descendants(self.pf.tree.root_node, "pair"):
                key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
                name = py_string(self.pf, key) if key is not None and key.type == "string" else None
                if name and name.lower().endswith(("routes", "handlers")) and value is not None and \
                        value.type == "list":
                    lists.append(value)
                    tables.add(value.start_byte)
        for listed in lists:
            entries += [e for e in listed.named_children if e.type in ("tuple", "list", "call")]
        done: set[int] = set()
        for entry in sorted(entries, key=lambda e: e.start_byte):
            if entry.start_byte in done:
                continue
            done.add(entry.start_byte)
            if entry.type == "call":
                if self.callee_last(entry) not in ("url", "URLSpec", "add_route"):
                    continue
                items, _ = py_args(entry.child_by_field_name("arguments"))
            else:
                items = entry.named_children
            if len(items) < 2 or items[1].type not in ("identifier", "attribute"):
                continue
            pattern, unknown = self.path_of(items[0]), None
            joined = self.value_of(items[0], entry) if items[0].type == "identifier" else items[0]
            if pattern is None and joined is not None and joined.type == "call" and \
                    self.callee_last(joined) == "url_path_join":  # (`route_pattern = url_path_join(...)` too)
                pattern = self.base_url_joined(joined)
            elif pattern is not None and not pattern.startswith(("/", "^", DEFERRED)) and \
                    "jupyter_server" in self.modules and entry.parent is not None and \
                    entry.parent.parent is not None and entry.parent.parent.type == "argument_list":
                pattern = "/" + pattern  # an ExtensionApp's `self.handlers.extend([("x/y", H)])`: under base_url
            elif pattern is not None and not pattern.startswith(("/", "^", DEFERRED)) and \
                    entry.parent.start_byte in relative:
                # dask's `routes = [(r"info/main/workers.html", Workers, {})]`, which get_handlers()
                # joins to the server's prefix ("/" by default)
                pattern, unknown = "/" + pattern, f"the prefix the `{named[entry.parent.start_byte]}` list is joined to"
            if pattern is None and items[0].type == "binary_operator" and \
                    self.pf.text(items[0].child_by_field_name("operator")) == "+":
                # `route_prefix + r"/status"`: a prefix the configuration sets; the path as registered
                pattern, unknown = self.path_of(items[0].child_by_field_name("right")), self.pf.text(
                    items[0].child_by_field_name("left"))
            handler = "".join(self.pf.text(items[1]).split())
            handler = self.local_class_base(entry, handler) or handler
            for path in _regex_paths(pattern) if pattern is not None else ():
                if path.startswith(("/", DEFERRED)):
                    self.resource(entry, handler, path, "tornado",
                                  **({"prefix_unknown": unknown} if unknown else {}),
                                  **({"loaded_table": True} if entry.parent.start_byte in tables else {}),
                                  **({"receiver": named[entry.parent.start_byte]}
                                     if entry.parent.start_byte in named else {}))

    def handler_loader_lists(self) -> list[Any]:
        """The lists a module-level `def get_handlers(context)` (or `get_routes`) returns, of
        `(r"/image", ImageUploadHandler, {...})` entries: a module of handlers a server loads at run
        time by its name (thumbor's handler_lists, which its configuration names); listed, the
        loading not followed."""
        if b"def get_handlers" not in self.pf.source and b"def get_routes" not in self.pf.source:
            return []
        out = []
        for stmt in self.pf.tree.root_node.named_children:
            function = stmt.child_by_field_name("definition") if stmt.type == "decorated_definition" else stmt
            if function is None or function.type != "function_definition" or \
                    self.pf.text(function.child_by_field_name("name")) not in ("get_handlers", "get_routes"):
                continue
            for ret in descendants(function, "return_statement"):
                listed = ret.named_children[0] if ret.named_children else None
                rows = [e for e in listed.named_children if e.type == "tuple"] if listed is not None and \
                    listed.type == "list" else []
                if rows and all(len(r.named_children) >= 2 and r.named_children[1].type in ("identifier", "attribute")
                                and self.pf.text(r.named_children[1]).endswith("Handler") for r in rows):
                    out.append(listed)
        return out

    def local_class_base(self, at: Any, name: str) -> str | None:
        """The first base of a class the function around `at` defines as `name`
        (`class UpdatedProfilerHandler(YappiProfilerHandler, self.handler_base_class): pass`): the
        module's class whose methods answer for it; else None."""
        function = _enclosing(at, "function_definition")
        for cls in python_definitions(function, "class_definition") if function is not None and name.isidentifier() else ():
            if self.pf.text(cls.child_by_field_name("name")) == name:
                bases = cls.child_by_field_name("superclasses")
                first = bases.named_children[0] if bases is not None and bases.named_children else None
                return self.pf.text(first) if first is not None and first.type == "identifier" else None
        return None

    def base_url_joined(self, call: Any) -> str | None:
        """`url_path_join(base_url, "/openbis/conn")` of a Jupyter server extension: the path under
        the server's base URL, whose default is `/` (the setting, not the code, may move it)."""
        args, _ = py_args(call.child_by_field_name("arguments"))
        if len(args) < 2 or "base_url" not in self.pf.text(args[0]) or \
                not {"jupyter_server", "notebook"} & self.modules:
            return None
        parts = [self.path_of(a) for a in args[1:]]
        if any(p is None for p in parts):
            return None
        return "/" + "/".join(p.strip("/") for p in parts if p.strip("/"))

    def routes_mapper(self) -> None:
        """The Routes library's mapper (OpenStack's senlin, CherryPy's RoutesDispatcher):
        `mapper.connect("name", "/profiles/{profile_id}", action="get", conditions={'method': 'GET'})`,
        also on a `submapper(...)`; the methods its conditions name (every one without)."""
        source = self.pf.source
        shaped = _mapper_method_shaped(source)  # (nova's routes.py imports no routes either)
        if (b".connect(" not in source and b"mapper.resource(" not in source and not shaped) or \
                "routes" not in self.modules and "cherrypy" not in self.modules and b"mapper.connect(" not in \
                source and not shaped:
            return  # (a router's _setup_routes(self, mapper) is handed the mapper: venus imports no routes)
        mappers = set()  # names bound to a mapper: `mapper = routes.Mapper()`, `with m.submapper(...) as sub`
        prefixes: dict[str, str] = {}  # a submapper's `path_prefix="/{tenant_id}/services"`
        for call, _, _ in self.call_info():
            if self.callee_last(call) not in ("Mapper", "RoutesDispatcher", "submapper"):
                continue
            alias = call.parent.child_by_field_name("alias") if call.parent is not None and \
                call.parent.type == "as_pattern" else None
            bound = self.pf.text(alias.named_children[0] if alias.named_children else alias) if alias is not None \
                else self.assigned_to(call)
            if bound:
                mappers.add(bound)
                given = self.resolve(py_args(call.child_by_field_name("arguments"))[1].get("path_prefix")) \
                    if self.callee_last(call) == "submapper" else None
                if given and given.startswith("/"):
                    prefixes[bound] = given.rstrip("/")
        for call, receiver, attr in self.call_info():
            last = receiver.lower().rsplit(".", 1)[-1] if receiver is not None else ""
            if receiver is None or receiver not in mappers and "mapper" not in last and last != "map":
                continue  # (a database's or a socket's connect: no route; `self.map`: the Router's mapper)
            positional, keywords = py_args(call.child_by_field_name("arguments"))
            if attr not in ("connect", "resource"):
                self.mapper_method(call, attr, positional)
                continue
            if attr == "resource":
                self.mapper_resource(call, positional, keywords)
                continue
            # (a name the function binds, maybe more than once: trove's `path = '/{tenant_id}/...'`, `path + '/x'`)
            first = self.path_of(positional[0]) if positional else None
            second = self.paths_over_loop(call, positional[1]) if len(positional) > 1 else [None]
            paths = second if second != [None] else [first]
            if paths == [None] and positional:
                self.mapper_table(call, positional[1] if len(positional) > 1 else positional[0], keywords)
                continue
            for path in paths:
                self.mapper_connect(call, receiver, path, keywords, prefixes)

    def mapper_method(self, call: Any, attr: str, positional: list[Any]) -> None:
        """A mapper's own method called with a path and a method (cinder's APIMapper
        `mapper.create_route('/clusters', 'GET', controller, 'index')`, which connects the path for
        that method): a route; called in loops over a table of (path, {method: ...}) rows (nova's
        ROUTE_LIST, miners/dict_tables.py), a route per row and method."""
        from .dict_tables import path_method_routes

        if len(positional) < 2:
            return
        path, verb = self.resolve(positional[0]), self.resolve(positional[1])
        rows = [(call, path, [verb])] if path is not None and verb is not None else \
            path_method_routes(self.pf, call, positional[0], positional[1])
        within = _py_function_name(self.pf, call)
        for at, full, verbs in rows:
            if full is None or not full.startswith("/") or " " in full:
                continue
            for method in dict.fromkeys(v.upper() for v in verbs or () if v and v.lower() in HTTP_VERBS):
                self.out.append(_surface("http-route", _route_name(method, full), at, "routes",
                                         detail={"method": method, "path": full, "mapper_method": attr,
                                                 **({"within": within} if within else {})}))

    def mapper_connect(self, call: Any, receiver: str, path: str | None, keywords: dict[str, Any],
                       prefixes: dict[str, str]) -> None:
        """One `mapper.connect(name, path, conditions=...)`: a route per method its conditions name."""
        if path is not None and receiver in prefixes and (path == "" or path.startswith("/")):
            path = prefixes[receiver] + path  # (its connect's "" is the prefix itself)
        if path is None or not path.startswith("/") or " " in path:
            return
        given = keywords.get("conditions")
        if given is not None and given.type == "dictionary":
            conditions = py_literal(self.pf, given)
            value = conditions.get("method") if isinstance(conditions, dict) else None
        elif given is not None and given.type == "call" and self.callee_last(given) == "dict":
            value = py_literal(self.pf, py_args(given.child_by_field_name("arguments"))[1].get("method"))
        else:
            value = None
        value = [value] if isinstance(value, str) else value
        if given is not None and not (isinstance(value, list) and value and
                                      all(isinstance(v, str) and v.lower() in HTTP_VERBS for v in value)):
            return  # conditions it does not spell: not guessed
        methods = [v.upper() for v in value] if value else ["ANY"]
        path = _ROUTES_REQUIREMENT.sub(r"{\1}", path)
        for method in dict.fromkeys(methods):
            self.out.append(_surface("http-route", _route_name(method, path), call, "routes",
                                     detail={"method": method, "path": path,
                                             **({"within": w} if (w := _py_function_name(self.pf, call)) else {})}))

    def mapper_table(self, call: Any, path: Any, keywords: dict[str, Any]) -> None:
        """`mapper.connect(r['name'], path_prefix + r['url'], conditions={'method': ...})` in a loop over
        a table of dicts (heat): each row a route, with the row's method; `mapper.connect(url, ...)` of
        a wrapper's parameter, per key of its methods dict (tacker's `_setup_route`): each call of the
        wrapper a route per method (miners/dict_tables.py)."""
        from .dict_tables import table_routes, wrapper_routes  # (they read this module's helpers: imported here)

        within = _py_function_name(self.pf, call)
        for row, full, methods in table_routes(self.pf, call, path) or wrapper_routes(
                self.pf, call, path, keywords.get("conditions")):
            if methods is None and "conditions" in keywords or " " in full:
                continue  # a condition the row does not spell: not guessed
            full = _ROUTES_REQUIREMENT.sub(r"{\1}", full)
            known = [m.upper() for m in methods or ["ANY"] if m.lower() in (*HTTP_VERBS, "any")]
            for method in dict.fromkeys(known):
                where = _py_function_name(self.pf, row)
                self.out.append(_surface("http-route", _route_name(method, full), row, "routes",
                                         detail={"method": method, "path": full, "table": True,
                                                 **({"within": where or within} if where or within else {})}))

    # what Routes' mapper.resource() maps a collection to (its `new` and `edit` forms are left out:
    # a REST controller seldom has those actions, and the mapper answers them with its error)
    _RESOURCE_ROUTES = (("GET", ""), ("POST", ""), ("GET", "/{id}"), ("PUT", "/{id}"), ("DELETE", "/{id}"))
    _RESOURCE_ACTIONS = ("index", "create", "show", "update", "delete")  # what each of those calls

    def resource_extensions(self) -> None:
        """OpenStack's API extensions (nova's heritage: cinder, masakari): an extension's
        `get_resources()` returns `ResourceExtension('os-volume-transfer', Controller(),
        collection_actions={'detail': 'GET'}, member_actions={'accept': 'POST'})`, or with
        `parent=dict(member_name='type', collection_name='types')`, and the router that loads the
        extensions maps each with `mapper.resource(collection, collection, ...)`: the same routes,
        marked so that assembly serves them where that router is (miners/paste_deploy.py)."""
        if b"ResourceExtension(" not in self.pf.source:
            return
        for call, _, attr in self.call_info():
            if attr != "ResourceExtension":
                continue
            positional, keywords = py_args(call.child_by_field_name("arguments"))
            collection = positional[0] if positional else keywords.get("collection")
            given = {key: positional[i] if len(positional) > i else keywords.get(name)
                     for key, (name, i) in self._EXTENSION_ARGUMENTS.items()}
            self.mapper_resource(call, [collection, collection], {k: v for k, v in given.items() if v is not None},
                                 {"extension": True})

    # mapper_resource's keyword: ResourceExtension's own (keyword, position)
    _EXTENSION_ARGUMENTS = {"controller": ("controller", 1), "parent_resource": ("parent", 2),
                            "collection": ("collection_actions", 3), "member": ("member_actions", 4)}

    def mapper_resource(self, call: Any, positional: list[Any], keywords: dict[str, Any],
                        marked: dict[str, Any] | None = None) -> None:
        """Routes' `mapper.resource("datastore", "datastores", path_prefix="/{tenant_id}",
        collection={"detail": "GET"}, member={"action": "POST"})`: the collection's index and create,
        the member's show, update and delete, and the extra actions the keywords name."""
        collection = self.resolve(positional[1] if len(positional) > 1 else keywords.get("collection_name"))
        if not collection or " " in collection:
            return
        given = self.resolve(keywords.get("path_prefix"))
        parent = self.parent_resource(keywords.get("parent_resource"), call)
        if given is None and "parent_resource" in keywords:
            if parent is None:
                return  # a parent it does not spell: not guessed
            given = parent
        # OpenStack's ProjectMapper (nova, cinder, karbor): its resource() maps each collection (and
        # each parent's) under `{project_id}/` when the router is made with one (and again without it
        # where this file's ProjectMapper does that too: cinder's)
        projected = (given is None or given == parent) and self.project_mapper()
        forms = ["/{project_id}" + (given or "")] + ([given or ""] if project_mapper_twice(self.pf.source) else []) \
            if projected else [given or ""]
        bases = [_join_paths(prefix, "/" + collection.lstrip("/")) for prefix in forms]
        actions = self.controller_actions(keywords.get("controller"))
        routes = [r for r, action in zip(self._RESOURCE_ROUTES, self._RESOURCE_ACTIONS, strict=True)
                  if actions is None or action in actions]
        for key, under in (("collection", ""), ("member", "/{id}")):
            extra = py_literal(self.pf, keywords[key]) if keywords.get(key) is not None else None
            for action, method in (extra.items() if isinstance(extra, dict) else ()):
                if isinstance(action, str) and isinstance(method, str) and method.lower() in (*HTTP_VERBS, "any"):
                    routes.append((method.upper(), f"{under}/{action}"))
        within = _py_function_name(self.pf, call)
        for base in bases:
            for method, rest in dict.fromkeys(routes):
                path = base + rest
                self.out.append(_surface("http-route", _route_name(method, path), call, "routes",
                                         detail={"method": method, "path": path, "resource_of": collection,
                                                 **({"within": within} if within else {}), **(marked or {})}))

    def controller_actions(self, node: Any) -> set[str] | None:
        """The methods of a Routes resource's controller made here (`SegmentsController()`, a class of
        this file whose bases are this file's or a framework's `Controller`): what its standard
        routes can call; None when the controller is made elsewhere (`self.resources["shares"]`)."""
        name = self.pf.text(node.child_by_field_name("function")) if node is not None and node.type == "call" else ""
        methods: set[str] = set()
        todo, seen = [name], set()
        while todo:
            current = todo.pop()
            cls = next((c for c in self.pf.tree.root_node.named_children if c.type == "class_definition"
                        and self.pf.text(c.child_by_field_name("name")) == current), None)
            if cls is None or current in seen:
                return None
            seen.add(current)
            body = cls.child_by_field_name("body")
            for stmt in body.named_children if body is not None else ():
                fn = stmt.child_by_field_name("definition") if stmt.type == "decorated_definition" else stmt
                if fn is not None and fn.type == "function_definition":
                    methods.add(self.pf.text(fn.child_by_field_name("name")))
            bases = cls.child_by_field_name("superclasses")
            for base in bases.named_children if bases is not None else ():
                written = self.pf.text(base)
                if written != "object" and not ("." in written and written.endswith("Controller")):
                    todo.append(written)  # (this file's own base; a framework's `wsgi.Controller` adds none)
        return methods

    def parent_resource(self, node: Any, at: Any) -> str | None:
        """The path Routes puts a child resource under, `/types/{type_id}` of
        `parent_resource=dict(member_name="type", collection_name="types")` (or a dict literal, or a
        name bound to one)."""
        if node is not None and node.type == "identifier":
            node = self.value_of(node, at)
        if node is not None and node.type == "call" and self.callee_last(node) == "dict":
            named = py_args(node.child_by_field_name("arguments"))[1]
            values = {k: self.resolve(v) for k, v in named.items()}
        else:
            literal = py_literal(self.pf, node) if node is not None and node.type == "dictionary" else None
            values = literal if isinstance(literal, dict) else {}
        member, collection = values.get("member_name"), values.get("collection_name")
        if not isinstance(member, str) or not isinstance(collection, str) or not member or not collection.strip("/") \
                or "/" in member or " " in member + collection:
            return None
        return f"/{collection.strip('/')}/{{{member}_id}}"  # (trove's parent collection `{tenant_id}/instances`)

    def project_mapper(self) -> bool:
        """Whether this file makes the router's mapper as OpenStack's `ProjectMapper()`."""
        return b"ProjectMapper(" in self.pf.source and any(
            attr == "ProjectMapper" for _, _, attr in self.call_info())

    def handler_lists(self) -> None:
        """Handler lists made of other modules' (jupyterhub): `h.extend(handlers.default_handlers)`,
        `for mod in (auth, users): default_handlers.extend(mod.default_handlers)`, are mounts of those
        modules' lists on this one (a module-level list's routes name it as their receiver); and
        `self.handlers = self.add_url_prefix(self.hub_prefix, h)`, a function of this file that joins
        its first parameter to each entry's path (`url_path_join(prefix, tup[0])`), mounts the list
        under that prefix: a literal, or the literal default of the class's trait (`hub_prefix =
        URLPrefix('/hub/')`)."""
        if b".extend(" not in self.pf.source or b"handlers" not in self.pf.source:
            return
        joiners = self.prefix_joiners()
        for call, receiver, attr in self.call_info():
            positional, _ = py_args(call.child_by_field_name("arguments"))
            if attr == "extend" and receiver is not None and "." not in receiver and len(positional) == 1 and \
                    positional[0].type == "attribute":
                module = positional[0].child_by_field_name("object")
                listed = self.pf.text(positional[0].child_by_field_name("attribute"))
                if module is None or module.type != "identifier" or not listed.lower().endswith(("handlers", "routes")):
                    continue
                looped = self.looped_nodes(module, call)
                names = [self.pf.text(n) for n in looped] if looped and all(n.type == "identifier" for n in looped) \
                    else [self.pf.text(module)]
                for name in names:
                    if name in self.names:
                        self.found_mounts.append(Mount(receiver, "", listed, self.names[name], line_of(call)))
            elif attr in joiners and len(positional) == 2 and positional[1].type == "identifier":
                given = positional[0]
                prefix = self.resolve(given)
                if prefix is None and given.type == "attribute":  # a trait's literal default
                    made = self.value_of(given, call)
                    args = py_args(made.child_by_field_name("arguments"))[0] if made is not None and \
                        made.type == "call" else []
                    prefix = self.resolve(args[0]) if args else None
                if prefix is not None and prefix.startswith("/"):
                    self.found_mounts.append(Mount(f"{attr}()", prefix, self.pf.text(positional[1]), None,
                                                   line_of(call)))

    def prefix_joiners(self) -> set[str]:
        """The functions of this file that join their first parameter to each entry of their second
        (`def add_url_prefix(prefix, handlers): for i, tup in enumerate(handlers): ...
        url_path_join(prefix, tup[0])`)."""
        out = set()
        for fn in python_definitions(self.pf.tree.root_node, "function_definition"):
            params = [p for p in fn.child_by_field_name("parameters").named_children if p.type == "identifier"]
            params = params[1:] if params and self.pf.text(params[0]) in ("self", "cls") else params
            if len(params) != 2:
                continue
            prefix, listed = self.pf.text(params[0]), self.pf.text(params[1])
            loops = any(self.pf.text(loop.child_by_field_name("right")) in (listed, f"enumerate({listed})")
                        for loop in descendants(fn, "for_statement"))
            joins = any(self.callee_last(c) == "url_path_join" and py_args(c.child_by_field_name("arguments"))[0]
                        and self.pf.text(py_args(c.child_by_field_name("arguments"))[0][0]) == prefix
                        for c in descendants(fn, "call"))
            if loops and joins:
                out.add(self.pf.text(fn.child_by_field_name("name")))
        return out

    def application_subclasses(self) -> set[str]:
        """The classes this module defines on Tornado's Application (`class DiffServer(tornado.web.Application)`),
        whatever their names: constructing one takes the handler list as Application's does."""
        out = set()
        for stmt in self.pf.tree.root_node.named_children:
            cls = stmt.child_by_field_name("definition") if stmt.type == "decorated_definition" else stmt
            bases = cls.child_by_field_name("superclasses") if cls is not None and cls.type == "class_definition" \
                else None
            if bases is not None and any(self.pf.text(b).rsplit(".", 1)[-1] == "Application"
                                         for b in bases.named_children):
                out.add(self.pf.text(cls.child_by_field_name("name")))
        return out

    def tornado_lists(self, node: Any, at: Any, depth: int) -> list[Any]:
        """The list literals a handlers argument is made of: itself, a name bound to one, `a + b`."""
        if node is None or depth > 4:
            return []
        if node.type in ("list", "set", "tuple"):  # (a set or a tuple of entries serves as well)
            return [node]
        if node.type == "binary_operator" and self.pf.text(node.child_by_field_name("operator")) == "+":
            return self.tornado_lists(node.child_by_field_name("left"), at, depth + 1) + \
                self.tornado_lists(node.child_by_field_name("right"), at, depth + 1)
        if node.type in ("identifier", "attribute"):
            found = self.tornado_lists(self.value_of(node, at), at, depth + 1)
            if node.type == "identifier":  # `pages += [(r"/api/v1/paste", Paste), ...]` before it, in its scope
                scope = _enclosing(at, "function_definition") or self.pf.tree.root_node
                name = self.pf.text(node)
                for added in descendants(scope, "augmented_assignment"):
                    right = added.child_by_field_name("right")
                    if added.start_byte < at.start_byte and right is not None and right.type in ("list", "tuple") \
                            and self.pf.text(added.child_by_field_name("left")) == name and \
                            self.pf.text(added.child_by_field_name("operator")) == "+=":
                        found.append(right)
            return found
        return []

    # Falcon: app.add_route("/things/{id}", ThingsResource(), suffix="detail") serves each on_get,
    # on_post... (on_get_detail with the suffix) the resource's class defines; so does each entry
    # of a route table, `[("/things", ThingsResource(db)), ...]`, that a loop of add_route calls reads
    def falcon(self) -> None:
        for call, receiver, attr in self.call_info() if "falcon" in self.modules else ():
            if attr != "add_route" or receiver is None:
                continue
            positional, keywords = py_args(call.child_by_field_name("arguments"))
            suffix = self.resolve(keywords.get("suffix"))
            rows = self.dict_loop_rows(call, positional[0], positional[1]) if len(positional) > 1 else None
            for path, resource in rows or ():  # `for route, ctrl in controllers.items(): app.add_route(route, ctrl)`
                if path is not None and path.startswith("/") and resource is not None:
                    self.resource(call, resource, path, "falcon", **({"suffix": suffix} if suffix else {}))
            if rows is not None:
                continue
            path = self.path_of(positional[0]) if positional else None
            resource = self.instance_class(positional[1], call) if len(positional) > 1 else None
            if path is not None and path.startswith(("/", DEFERRED)) and resource is not None:
                self.resource(call, resource, path, "falcon", **({"suffix": suffix} if suffix else {}))
            elif path is not None and path.startswith("/") and len(positional) > 1 and not suffix:
                # a resource made at run time (monasca-api's `simport.load(CONF.dispatcher.metrics)()`):
                # the path is served, by whichever methods that class answers
                made = positional[1]
                if made.type == "identifier" and (value := self.value_of(made, call)) is not None:
                    made = value  # what the name was bound to
                unknown = METHODS_UNKNOWN.format(" ".join(self.pf.text(made).split()))
                self.out.append(_surface("http-route", _route_name("ANY", path), call, "falcon", detail={
                    "method": "ANY", "path": path, "methods_unknown": unknown}))
        if "tornado" in self.modules or b"/" not in self.pf.source:
            return  # (a Tornado handler list is read as Tornado's)
        for entry in self.table_entries(_PY_ROUTE_TUPLE):
            path = self.path_of(entry.named_children[0])
            target = entry.named_children[1]
            resource = self.instance_class(target, entry) or (
                "".join(self.pf.text(target).split()) if target.type in ("identifier", "attribute") else None)
            if path is not None and path.startswith("/") and resource is not None:
                # resolved only as a Falcon resource (on_get...) of a package that uses Falcon; a table
                # a function returns is served where a version catalog mounts its result (below)
                within = _py_function_name(self.pf, entry)
                self.resource(entry, resource, path, "falcon", table=True, **({"within": within} if within else {}))
        self.falcon_catalog()

    def falcon_catalog(self) -> None:
        """A version catalog, `catalog = [("/v2", v2_0.public_endpoints(self, conf))]`, that a loop
        registers as `app.add_route(version_path + route, resource)`: each function's table of routes
        is served under its version's prefix."""
        if "falcon" not in self.modules or not any(
                attr == "add_route" and (args := py_args(call.child_by_field_name("arguments"))[0])
                and args[0].type == "binary_operator" for call, _, attr in self.call_info()):
            return
        root = self.pf.tree.root_node
        for m in _PY_FACTORY_TUPLE.finditer(self.pf.source):
            entry = root.descendant_for_byte_range(m.start(), m.start() + 1)
            entry = entry.parent if entry is not None and entry.type == "(" else None
            if entry is None or entry.type != "tuple" or entry.parent is None or entry.parent.type != "list" or \
                    len(entry.named_children) != 2:
                continue
            prefix = self.resolve(entry.named_children[0])
            factory = self.factory_call(entry.named_children[1], entry)
            if prefix is None or not prefix.startswith("/") or factory is None:
                continue
            module, name = self.factory_target(factory)
            self.found_mounts.append(Mount("catalog", prefix, name, module, line_of(entry), called=True))

    # Twisted: parent.putChild(b"jobs", Jobs(self)) serves what Jobs answers (render_GET...) at
    # /jobs under the parent (a class's `self`, or a resource by its name); the child's own children
    # sit under it (a mount). A child named from a section of the package's configuration,
    # `for name, cls in config.items("services"): self.putChild(name.encode(), load(cls)(self))`,
    # is one per entry of that section: a placeholder expanded in assembly (miners/config_children.py)
    def twisted(self) -> None:
        if "twisted" not in self.modules:
            return
        for call, receiver, attr in self.call_info():
            if attr != "putChild" or receiver is None:
                continue
            positional, _ = py_args(call.child_by_field_name("arguments"))
            if len(positional) < 2:
                continue
            owner = receiver
            if receiver == "self":
                cls = _enclosing(call, "class_definition")
                if cls is None:
                    continue
                owner = self.pf.text(cls.child_by_field_name("name"))
            segment = py_literal(self.pf, positional[0]) if positional[0].type == "string" else UNRESOLVED
            if isinstance(segment, str) and "/" not in segment:
                resource = self.instance_class(positional[1], call)
                if resource is not None:
                    self.resource(call, resource, "/" + segment, "twisted", receiver=owner)
                    imported = self.imported_as(resource)
                    module, _, name = (imported or resource).rpartition(".")
                    self.found_mounts.append(Mount(owner, "/" + segment, name, module or None, call.start_point[0] + 1))
            elif (section := self.config_section(call, positional[0])) is not None:
                self.out.append(_surface("http-route", f"* [{section}]", call, "twisted",
                                         detail={"method": "*", "path": "", "config_section": section,
                                                 "receiver": owner}))

    def config_section(self, call: Any, named: Any) -> str | None:
        """The section `X.items("services")` names when `named` is made from the key of a loop over it."""
        loop = _enclosing(call, "for_statement")
        left = loop.child_by_field_name("left") if loop is not None else None
        right = loop.child_by_field_name("right") if loop is not None else None
        if left is None or right is None or right.type != "call" or self.callee_last(right) != "items" or \
                left.type not in ("pattern_list", "tuple_pattern") or not left.named_children:
            return None
        key = self.pf.text(left.named_children[0])
        positional, keywords = py_args(right.child_by_field_name("arguments"))
        section = self.resolve(positional[0] if positional else keywords.get("section"))
        used = {self.pf.text(n) for n in descendants(named, "identifier")}
        return section if section and key in used else None

    # Django REST framework: router.register(prefix, ViewSet) serves the actions the viewset defines
    # or inherits (list, create, retrieve... and its @action methods), worked out in assembly
    # (miners/viewset_routes.py) from a placeholder and from what this file records of its classes
    def drf_routers(self) -> dict[str, tuple[bool, bool]]:
        """{router variable: (trailing slash, a DefaultRouter with its API root)}; a nested router's
        (drf-nested-routers' `NestedSimpleRouter(parent, r'services', lookup='service')`) path
        under its parent's in self._nested."""
        if self._routers is None:
            self._routers, self._nested = {}, {}
            # (NetBox's NetBoxRouter, a DefaultRouter its plugins' api/urls.py make)
            drf = "rest_framework" in self.modules or "rest_framework_nested" in self.modules or any(
                name.endswith(("NetBoxRouter", "DefaultRouter")) and target.startswith(("netbox.", "nautobot."))
                for name, target in self.names.items())
            # a URLconf's router of the package's own class (nautobot's `OrderedDefaultRouter(DefaultRouter)`)
            own = not drf and b"urlpatterns" in self.pf.source and b"Router(" in self.pf.source
            if drf or own:
                for node in self.assignments:
                    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
                    if left is None or right is None or left.type != "identifier" or right.type != "call":
                        continue
                    last = self.callee_last(right)
                    imported = self.imported_as(self.pf.text(right.child_by_field_name("function"))) or ""
                    if own and not (last.endswith(("DefaultRouter", "SimpleRouter")) and (
                            imported.startswith(".") or imported.partition(".")[0] == self.pf.path.partition("/")[0])):
                        # (only the package's own subclass of DRF's, as its name keeps: another library's
                        # router, or nautobot's NautobotUIViewSetRouter, routes its own way)
                        continue
                    if last.endswith("Router"):
                        _, keywords = py_args(right.child_by_field_name("arguments"))
                        slash = keywords.get("trailing_slash")
                        self._routers[self.pf.text(left)] = (
                            slash is None or self.pf.text(slash) != "False", last.endswith(("DefaultRouter",
                                                                                             "NetBoxRouter")))
                        # (NetBox's NetBoxRouter and Nautobot's OrderedDefaultRouter: DRF's DefaultRouter)
                        positional = py_args(right.child_by_field_name("arguments"))[0]
                        parent = self.resolve(positional[1]) if last.startswith("Nested") and \
                            len(positional) > 1 else None
                        lookup = self.resolve(keywords.get("lookup")) if "lookup" in keywords else None
                        if parent is not None and lookup:  # /services/{service_pk}: the nested routes' base
                            self._nested[self.pf.text(left)] = f"/{parent.strip('^$/')}/{{{lookup}_pk}}"
            if b".register(" in self.pf.source:
                self.handed_routers()
        return self._routers

    def handed_routers(self) -> None:
        """`def register_v1_routes(router): router.register("groups", GroupViewSet)`: a router a
        module-level function is handed registers viewsets as one the module makes does; its
        routes are the function's, which a caller's `register_v1_routes(router)` mounts on its own."""
        for function in self.pf.tree.root_node.named_children:
            function = function.child_by_field_name("definition") if function.type == "decorated_definition" \
                else function
            if function is None or function.type != "function_definition":
                continue
            params = function.child_by_field_name("parameters")
            for param in params.named_children if params is not None else ():
                name = self.pf.text(param)
                if param.type == "identifier" and name.endswith("router") and name not in self._routers and \
                        f"{name}.register(".encode() in self.pf.source[function.start_byte:function.end_byte]:
                    self._routers[name] = (True, False)
                    self._handed[name] = self.pf.text(function.child_by_field_name("name"))

    def drf(self) -> None:
        routers = self.drf_routers()
        if not routers and not self.modules & _PY_VIEWSET_MODULES:
            return
        served = {name: self.urlpatterns_take(name) for name in routers}
        for call, receiver, attr in self.call_info():
            if attr != "register" or receiver not in routers:
                continue
            positional, keywords = py_args(call.child_by_field_name("arguments"))
            # (`r'{0}'.format(API_BASE_URL)`, a setting of the app's read in assembly: miners/deferred_paths.py)
            prefix = self.path_of(positional[0] if positional else keywords.get("prefix"))
            view = positional[1] if len(positional) > 1 else keywords.get("viewset")
            owner = FACTORY + self._handed[receiver] if receiver in self._handed else \
                "urlpatterns" if served[receiver] else receiver
            rows = [(prefix, "".join(self.pf.text(view).split()))] if prefix is not None and view is not None and \
                view.type in ("identifier", "attribute") else \
                self.viewset_table_rows(call, positional[0], view) if len(positional) > 1 else []
            for prefix, viewset in rows:
                path = self._nested.get(receiver, "") + "/" + prefix.strip("^$/")
                self.resource(call, viewset, path, "django-rest-framework",
                              viewset=True, slash=routers[receiver][0], receiver=owner)
        for call, receiver, attr in self.call_info() if routers else ():
            # `register_v1_routes(router)` of `from .v1_urls import register_v1_routes`: that function's routes on ours
            args = py_args(call.child_by_field_name("arguments"))[0]
            imported = self.names.get(attr, "") if receiver is None else ""
            if "." in imported and len(args) == 1 and self.pf.text(args[0]) in routers and \
                    self.pf.text(args[0]) not in self._handed:
                module, _, name = imported.rpartition(".")
                given = self.pf.text(args[0])
                self.found_mounts.append(Mount("urlpatterns" if served[given] else given, "", name, module,
                                               line_of(call), called=True))
        for name, (_, api_root) in routers.items():
            if api_root:  # DefaultRouter serves a root view linking to every list
                node = next(n for n in self.assignments if (left := n.child_by_field_name("left")) is not None
                            and self.pf.text(left) == name)
                self.out.append(_surface("http-route", "GET /", node, "django-rest-framework",
                                         description="the API root: a link to each list the router serves",
                                         detail={"method": "GET", "path": "/",
                                                 "receiver": "urlpatterns" if served[name] else name}))
        if self.modules & _PY_VIEWSET_MODULES:
            self.viewsets()  # (a Django or Flask view class's methods serve its route as a viewset's do)

    def viewset_table_rows(self, call: Any, key: Any, view: Any) -> list[tuple[str, str]]:
        """(prefix, viewset) per entry of a dict literal of viewsets a loop around `call` registers,
        `for prefix, viewset in DEFAULT_VIEWSETS.items(): router.register(prefix, import_object(chosen))`
        with `chosen = overrides.get(prefix) or viewset` (django-fingerprint-attendance): the table's
        defaults, when what is registered is made from the loop's viewset; else []."""
        loop = _enclosing(call, "for_statement") if key.type == "identifier" else None
        left = loop.child_by_field_name("left") if loop is not None else None
        right = loop.child_by_field_name("right") if loop is not None else None
        names = [self.pf.text(n) for n in left.named_children] if left is not None and \
            left.type in ("pattern_list", "tuple_pattern") else []
        if len(names) != 2 or names[0] != self.pf.text(key) or right is None or right.type != "call" or \
                self.callee(right)[1] != "items":
            return []
        obj = right.child_by_field_name("function").child_by_field_name("object")
        table = self.value_of(obj, loop) if obj is not None and obj.type == "identifier" else None
        made = {self.pf.text(n) for n in descendants(view, "identifier")}
        body = loop.child_by_field_name("body")
        for statement in body.named_children if body is not None else ():  # (a name the body binds from it)
            node = statement.named_child(0) if statement.type == "expression_statement" else statement
            if node is not None and node.type == "assignment" and node.start_byte < call.start_byte and \
                    self.pf.text(node.child_by_field_name("left")) in made and \
                    (value := node.child_by_field_name("right")) is not None:  # (not `chosen: object`)
                made |= {self.pf.text(n) for n in descendants(value, "identifier")}
        if table is None or table.type != "dictionary" or names[1] not in made:
            return []
        out = []
        for pair in table.named_children:
            value = pair.child_by_field_name("value") if pair.type == "pair" else None
            prefix = py_string(self.pf, pair.child_by_field_name("key")) if value is not None else None
            if prefix is not None and value.type in ("identifier", "attribute"):
                out.append((prefix, "".join(self.pf.text(value).split())))
        return out

    def urlpatterns_take(self, router: str) -> bool:
        """Whether this module's urlpatterns are the router's urls (`urlpatterns = router.urls`, `+=`)."""
        for node in self.assignments:
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is not None and right is not None and self.pf.text(left) == "urlpatterns":
                text = "".join(self.pf.text(right).split())
                if f"{router}.urls" in text and f"include({router}.urls" not in text:
                    return True
        for call, receiver, attr in self.call_info():
            if receiver == "urlpatterns" and attr in ("extend", "append") and \
                    "".join(self.pf.text(call.child_by_field_name("arguments")).split()) == f"({router}.urls)":
                return True
        root = self.pf.tree.root_node
        for stmt in root.named_children:  # urlpatterns += router.urls
            node = stmt.named_child(0) if stmt.type == "expression_statement" and stmt.named_child_count else stmt
            if node.type == "augmented_assignment" and self.pf.text(node.child_by_field_name("left")) == "urlpatterns" \
                    and "".join(self.pf.text(node.child_by_field_name("right")).split()) == f"{router}.urls":
                return True
        return False

    def imported_constant(self, node: Any) -> str | None:
        """A name another module of the package defines (`url_path=SEND_URL` of `from
        .app_settings import SEND_URL`), left DEFERRED by its absolute dotted name for assembly to
        read wherever the route it is part of ends up (miners/deferred_paths.py); else None."""
        name = self.pf.text(node) if node is not None and node.type == "identifier" else ""
        if name not in self.names or not self.names[name].startswith("."):
            return None
        return DEFERRED + absolute(self.names[name], self.pf.path) + DEFERRED

    def viewsets(self) -> None:
        """What a router needs of each class with bases: the bases, the lookup, the @action methods."""
        for stmt in _guarded_statements(self.pf.tree.root_node):
            cls = stmt.child_by_field_name("definition") if stmt.type == "decorated_definition" else stmt
            if cls is None or cls.type != "class_definition":
                continue
            supers = cls.child_by_field_name("superclasses")
            bases = ["".join(self.pf.text(b).split()) for b in supers.named_children
                     if b.type in ("identifier", "attribute")] if supers is not None else []
            body = cls.child_by_field_name("body")
            if not bases and (body is None or b"action(" not in self.pf.source[body.start_byte:body.end_byte]):
                continue  # (a mixin of no base with an @action, `class MetadataExportMixin:`, lends it)
            lookup = None
            for name in ("lookup_url_kwarg", "lookup_field"):
                value = _assigned(self.pf, body, name, None) if body is not None else None
                lookup = lookup or (self.resolve(value) if value is not None else None)
            actions = []
            for member in body.named_children if body is not None else []:
                if member.type != "decorated_definition":
                    continue
                function = member.child_by_field_name("definition")
                method = self.pf.text(function.child_by_field_name("name")) if function is not None else ""
                for _, _, attr, _, keywords, called in self.decorators(member):
                    # (a package's own wrapper of @action, dj-notification-api's
                    # `@conditional_action(condition=..., detail=False)`, takes action's `detail`)
                    wrapped = attr.endswith("_action") and "detail" in keywords
                    if attr not in ("action", "detail_route", "list_route") and not wrapped:
                        continue
                    detail = attr == "detail_route" or attr != "list_route" and keywords.get("detail") is not None \
                        and self.pf.text(keywords["detail"]) == "True"
                    verbs = py_literal(self.pf, keywords["methods"]) if "methods" in keywords else ["get"]
                    url_path = self.resolve(keywords.get("url_path")) or self.imported_constant(
                        keywords.get("url_path")) or method
                    if isinstance(verbs, list) and all(isinstance(v, str) for v in verbs) and method:
                        # (a url_path is a regex: `category/(?P<category>[^/.]+)` serves category/{category})
                        for served in _regex_paths(url_path) if "(" in url_path or "\\" in url_path else [url_path]:
                            actions.append({"method": method, "detail": detail, "methods": [v.upper() for v in verbs],
                                            "url_path": served, "line": line_of(member)})
                for _, receiver, attr, _, _, called in self.decorators(member):
                    # `@application.mapping.patch` under an @action `application`: one more method at its path
                    owner, _, mapping = (receiver or "").partition(".")
                    if mapping == "mapping" and not called and attr.lower() in HTTP_VERBS:
                        for action in [a for a in actions if a["method"] == owner]:
                            actions.append({**action, "method": method, "methods": [attr.upper()],
                                            "line": line_of(member)})
            self.found_viewsets.append(ViewSet(self.pf.text(cls.child_by_field_name("name")), line_of(cls),
                                               [(b, self.imported_as(b)) for b in bases], lookup, actions))

    # Pyramid: config.add_route("user", "/users/{id}") names a route; @view_config(route_name="user",
    # request_method="GET") (or config.add_view(view, route_name=...)) is a view of it, in this file or
    # another: both are left as placeholders and joined by name in assembly (miners/pyramid_routes.py)
    def pyramid(self) -> None:
        wrapped = _PYRAMID_WRAPPED.search(self.pf.source) is not None
        # Pyramid's include hook, `def includeme(config)`, is handed the Configurator: its module
        # need import nothing of Pyramid's (atramhasis's routes.py imports only os)
        hooked = b"includeme" in self.pf.source and _PYRAMID_INCLUDEME.search(self.pf.source) is not None
        if "pyramid" not in self.modules and not wrapped and not hooked:
            return
        for call, receiver, attr in self.call_info():
            if receiver is None or attr not in ("add_route", "add_view"):
                continue
            positional, keywords = py_args(call.child_by_field_name("arguments"))
            if attr == "add_route" and len(positional) >= 3 and positional[0].type == "identifier" and \
                    self.pf.text(positional[0]) in _PYRAMID_CONFIGS:
                positional = positional[1:]  # a package's wrapper handed the Configurator first (crabpy's
                # `crabpy_pyramid.add_route(config, "get_gemeente", "/capakey/gemeenten/{gemeente_id}")`)
            elif "pyramid" not in self.modules and not (hooked and receiver == "config"):
                continue
            methods = self.request_methods(keywords.get("request_method"))
            if attr == "add_route":
                name = self.route_name(positional[0] if positional else keywords.get("name"))
                node = positional[1] if len(positional) > 1 else keywords.get("pattern")
                pattern, unknown = self.path_of(node), None
                if pattern is None and node is not None:
                    pattern, unknown = self.after_base(node, call)
                if name is not None and pattern is not None:
                    path = pattern if pattern.startswith(("/", DEFERRED)) else "/" + pattern
                    self.out.append(_surface("http-route", f"* {path}", call, "pyramid",
                                             detail={"method": "*", "path": path, "pyramid_route": name,
                                                     **({"methods": methods} if methods else {}),
                                                     **({"prefix_unknown": unknown} if unknown else {})}))
            else:
                route = self.route_name(keywords.get("route_name"))
                view = positional[0] if positional else keywords.get("view")
                if route is not None and view is not None and view.type in ("identifier", "attribute"):
                    self.pyramid_view(call, route, methods, self.pf.text(view), "")
        for node in self.decorated:
            definition = node.child_by_field_name("definition")
            if definition is None:
                continue
            defaults = self.pyramid_config(node, "view_defaults") if definition.type == "class_definition" else None
            if defaults is not None:  # a class's views: its methods' @view_config, the class's defaults
                cls = self.pf.text(definition.child_by_field_name("name"))
                for member in definition.child_by_field_name("body").named_children:
                    method = member.child_by_field_name("definition") if member.type == "decorated_definition" else None
                    config = self.pyramid_config(member, "view_config") if method is not None else None
                    if config is not None:
                        route = config[0] or defaults[0]
                        if route:
                            self.pyramid_view(member, route, config[1] or defaults[1],
                                              f"{cls}.{self.pf.text(method.child_by_field_name('name'))}",
                                              first_paragraph(self.docstring(method)))
                continue
            config = self.pyramid_config(node, "view_config") if definition.type == "function_definition" else None
            if config is not None and config[0]:
                self.pyramid_view(node, config[0], config[1], self.pf.text(definition.child_by_field_name("name")),
                                  first_paragraph(self.docstring(definition)))

    def route_name(self, node: Any) -> str | None:
        """A Pyramid route's name: a literal, or a name both calls compute alike (`"c2c_debug_" +
        name` in a helper that adds the route and its view), known by its text."""
        if node is None:
            return None
        value = self.resolve(node)
        return value if value is not None or node.type != "binary_operator" else " ".join(self.pf.text(node).split())

    def after_base(self, node: Any, at: Any) -> tuple[str | None, str | None]:
        """(path, base) of `config_utils.get_base_path(config) + r"/debug/" + path`: a base a call
        gives at run time, then a path this code spells (its parameters' parts what callers pass):
        the path as registered under that base, and the base's text; else (None, None)."""
        pieces: list[Any] = []
        while node is not None and node.type == "binary_operator" and \
                self.pf.text(node.child_by_field_name("operator")) == "+":
            pieces.insert(0, node.child_by_field_name("right"))
            node = node.child_by_field_name("left")
        base = self.value_of(node, at) if node is not None and node.type == "identifier" else node
        if base is None and node is not None and node.type == "identifier":
            base = self.assigned_call(node, at)  # (bound inside an `if` before it: twitcher's protected_path)
        if not pieces or base is None or base.type != "call":  # (`base_path = get_base_path(config)`, too)
            return None, None
        parts: list[str] = []
        for piece in pieces:
            value = self.text_value(piece, at, 0)
            if value is None:
                return None, None
            parts += value
        path = "".join(parts)
        return (path, self.pf.text(base)) if path.startswith("/") else (None, None)

    def assigned_call(self, name: Any, at: Any) -> Any:
        """The call a name is bound to before `at` in the enclosing function, at any depth of its
        blocks (`if enabled: base = base_path(settings)`), when that is its one binding there."""
        function = _enclosing(at, "function_definition")
        if function is None:
            return None
        wanted = self.pf.text(name)
        bound = [a for a in descendants(function, "assignment") if a.start_byte < at.start_byte
                 and self.pf.text(a.child_by_field_name("left")) == wanted]
        right = bound[0].child_by_field_name("right") if len(bound) == 1 else None
        return right if right is not None and right.type == "call" else None

    def pyramid_config(self, node: Any, decorator: str) -> tuple[str | None, list[str]] | None:
        """(route_name, request methods) of a @view_config / @view_defaults decorator, or None."""
        for _, _, attr, _, keywords, called in self.decorators(node):
            if attr == decorator:
                return self.resolve(keywords.get("route_name")), self.request_methods(keywords.get("request_method"))
        return None

    def request_methods(self, node: Any) -> list[str]:
        value = py_literal(self.pf, node) if node is not None else None
        values = [value] if isinstance(value, str) else value if isinstance(value, list) else []
        return [str(v).upper() for v in values if isinstance(v, str)]

    def pyramid_view(self, node: Any, route: str, methods: list[str], handler: str, doc: str) -> None:
        self.out.append(_surface("http-route", f"* {route}", node, "pyramid", handler=handler, description=doc,
                                 detail={"method": "*", "path": "", "pyramid_view": route, "methods": methods}))

    def dict_loop_rows(self, call: Any, key: Any, value: Any) -> list[tuple[str | None, str | None]] | None:
        """(path, the class of the instance) of each entry of a dict literal a loop around `call`
        walks with `for key, value in table.items()` (monasca-log-api's `controllers = {'/': ctrl,
        '/version': ctrl}`, `ctrl = versions.Versions()`); None when the loop is not such a walk."""
        loop = _enclosing(call, "for_statement") if key.type == "identifier" and value.type == "identifier" else None
        left = loop.child_by_field_name("left") if loop is not None else None
        right = loop.child_by_field_name("right") if loop is not None else None
        if left is None or left.type not in ("pattern_list", "tuple_pattern") or right is None or \
                [self.pf.text(n) for n in left.named_children] != [self.pf.text(key), self.pf.text(value)] or \
                right.type != "call" or self.callee(right)[1] != "items":
            return None
        obj = right.child_by_field_name("function").child_by_field_name("object")
        table = self.value_of(obj, loop) if obj is not None and obj.type == "identifier" else None
        if table is None or table.type != "dictionary":
            return None
        return [(self.path_of(pair.child_by_field_name("key")), self.instance_class(pair.child_by_field_name("value"),
                                                                                     pair))
                for pair in table.named_children if pair.type == "pair"]

    def instance_class(self, node: Any, at: Any) -> str | None:
        """The class `node` is an instance of: `Things()`, or a name bound to such a call."""
        if node.type in ("identifier", "attribute") and (value := self.value_of(node, at)) is not None:
            node = value
        if node.type != "call":
            return None
        function = node.child_by_field_name("function")
        return "".join(self.pf.text(function).split()) if function is not None and function.type in (
            "identifier", "attribute") else None

    def resource(self, node: Any, cls: str, path: str, framework: str, **more: Any) -> None:
        self.out.append(_surface("http-route", f"* {path}", node, framework, handler=cls,  # (None: the file's own class)
                                 detail={"method": "*", "path": path, "resource": cls,
                                         "resource_import": self.imported_as(cls), **more}))

    def namespace_prefix(self, var: str | None) -> str:
        """flask-restx: the path of `ns = api.namespace("todos")` (/todos) or `Namespace("x", path="/y")`."""
        for node in self.assignments:
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if var and left is not None and right is not None and right.type == "call" and self.pf.text(left) == var \
                    and self.callee_last(right) in ("namespace", "Namespace"):
                positional, keywords = py_args(right.child_by_field_name("arguments"))
                name = self.resolve(positional[0]) if positional else self.resolve(keywords.get("name"))
                return self.resolve(keywords.get("path")) or (f"/{name}" if name else "")
        return ""

    def as_view_class(self, view: Any, at: Any) -> str | None:
        """The class of `X.as_view(...)` (or of a name bound to it): its methods serve the route."""
        if view.type == "identifier" and (value := self.value_of(view, at)) is not None:
            view = value
        if view.type != "call":
            return None
        receiver, attr = self.callee(view)
        return "".join(receiver.split()) if attr == "as_view" and receiver else None

    def route(self, node: Any, known: tuple[str, str], path: str | None, attr: str, methods_node: Any,
              handler: str | None, description: str, receiver: str | None = None,
              extra: dict[str, Any] | None = None) -> None:
        framework, prefix = known
        if framework == "django-ninja" and path is not None and not path.startswith(("/", DEFERRED)):
            path = "/" + path  # Ninja joins a router's paths to its prefix with a slash: "items/" is /items/
        if path == "" and not prefix and receiver and framework in ("fastapi", "flask", "quart"):
            path = "/"  # `@router.get("")`: the root of wherever the router is included (its prefix)
        if path is None or not path.startswith(("/", DEFERRED)) and not (prefix and path == ""):
            return  # a route needs a literal path (or one assembly can finish: DEFERRED)
        if framework == "aiohttp":
            path = _AIOHTTP_PARAM.sub(r"{\1}", path)
        if attr in HTTP_VERBS:
            methods = [attr.upper()]
        elif methods_node is None and framework == "fasthtml":
            # FastHTML's route(): the method a handler's name is (`def post()`), else GET and POST
            methods = [handler.upper()] if handler in HTTP_VERBS else ["GET", "POST"]
        elif methods_node is None:
            methods = ["GET"]  # Flask's route() and FastAPI's api_route() default to GET
        else:
            value = py_literal(self.pf, methods_node)
            value = [value] if isinstance(value, str) else list(value) if isinstance(value, tuple) else value
            value = self.loop_methods(methods_node) if value is UNRESOLVED else value
            methods = [str(m).upper() for m in value] if isinstance(value, list) and value else ["ANY"]  # (Bottle's method="POST")
        full = _join_paths(prefix, path)
        within = _py_function_name(self.pf, node)  # (a router factory's routes: miners/mounts.py)
        # a blueprint another module of the package makes (`from app.auth import auth_bp` in
        # app/auth/routes.py): mounted where that module's is (miners/mounts.py)
        made_in = self.imported_as(receiver) if receiver and "." not in receiver else None
        made_by = (self.constructed_by().get(receiver) or (receiver if receiver in self.own_classes() else None)) \
            if receiver and not made_in else None  # (an instance of a class, or the class: `@Routing.route(...)`)
        for method in methods:
            self.out.append(_surface("http-route", _route_name(method, full), node, framework, handler=handler,
                                     description=description, detail={"method": method, "path": full,
                                                                      **({"prefix": prefix} if prefix else {}),
                                                                      **({"receiver": receiver} if receiver else {}),
                                                                      **({"receiver_from": made_in} if made_in else {}),
                                                                      **({"receiver_class": made_by} if made_by else {}),
                                                                      **({"within": within} if within else {}),
                                                                      **(extra or {})}))

    # Starlette (and FastAPI's underlying router): routes=[Route("/users", users, methods=[...]),
    # Mount("/api", routes=[...])]; a Mount of another application (app=...) is opaque
    def starlette(self) -> None:
        if not {"starlette", "fastapi"} & self.modules:
            return
        for call, receiver, attr in self.call_info():
            # (Starlette's own `app.add_route("/api/agents", list_agents, methods=["GET"])`, not
            # aiohttp's, which takes the method first)
            added = attr == "add_route" and receiver is not None and "aiohttp" not in self.modules
            if (attr != "Route" or receiver not in (None, "routing", "starlette.routing")) and not added:
                continue
            positional, keywords = py_args(call.child_by_field_name("arguments"))
            path = self.path_of(positional[0] if positional else keywords.get("path"))
            endpoint = positional[1] if len(positional) > 1 else keywords.get("endpoint") or keywords.get("route")
            if path is None or endpoint is None or added and not path.startswith("/"):
                continue
            prefix = self.mount_prefix(call) if not added else ""
            if prefix is None:
                continue  # inside a Mount whose path is not known
            self.route(call, ("starlette", prefix), path, "route", keywords.get("methods"), self.pf.text(endpoint), "",
                       self.route_list(call) if not added and not prefix else None)
        for call, receiver, attr in self.call_info() if b"Mount(" in self.pf.source else ():
            # `Mount(path="/dashboard", routes=dashboard_routes)` of a list this module or another makes:
            # that list's routes (named by it, route_list) under the mount's path
            if attr != "Mount" or receiver not in (None, "routing", "starlette.routing"):
                continue
            positional, keywords = py_args(call.child_by_field_name("arguments"))
            listed = keywords.get("routes")
            path = self.resolve(positional[0] if positional else keywords.get("path"))
            outer = self.mount_prefix(call)
            if listed is None or listed.type != "identifier" or path is None or outer is None:
                continue
            name = self.pf.text(listed)
            imported = self.imported_as(name)
            module, name = (imported.rpartition(".")[0], imported.rpartition(".")[2]) if imported else (None, name)
            self.found_mounts.append(Mount(self.route_list(call) or "", _join_paths(outer, path), name, module,
                                           line_of(call)))

    def route_list(self, call: Any) -> str | None:
        """The module-level list a Starlette Route (or Mount) call is an item of: `api_routes = [Route(...)]`."""
        parent = call.parent
        if parent is None or parent.type != "list" or parent.parent is None or parent.parent.type != "assignment":
            return None
        left = parent.parent.child_by_field_name("left")
        up = parent.parent.parent
        up = up.parent if up is not None and up.type == "expression_statement" else up
        return self.pf.text(left) if left is not None and left.type == "identifier" and up is not None and \
            up.type == "module" else None

    def mount_prefix(self, call: Any) -> str | None:
        """The joined paths of the Mount(path, routes=[...]) calls a Route sits in ("" for none)."""
        prefix, node = "", call.parent
        while node is not None:
            if node.type == "call" and self.callee_last(node) == "Mount":
                positional, keywords = py_args(node.child_by_field_name("arguments"))
                path = self.resolve(positional[0] if positional else keywords.get("path"))
                if path is None:
                    return None
                prefix = _join_paths(path, prefix)
            node = node.parent
        return prefix

    # Django
    def django(self) -> None:
        for call, receiver, attr in self.call_info():
            name = self.names.get(attr, attr) if receiver is None else f"{receiver}.{attr}"
            if name.rsplit(".", 1)[-1] not in PY_DJANGO_ROUTES or (receiver is not None and "urls" not in receiver):
                continue
            positional, keywords = py_args(call.child_by_field_name("arguments"))
            view = positional[1] if len(positional) > 1 else keywords.get("view")
            rows = self.comprehension_rows(call) if positional and positional[0].type == "identifier" else None
            if rows is not None and view is not None and view.type == "call" and self.callee(view)[1] == "include":
                # `*[path(route, include(urlconf)) for route, urlconf in MODULE_ROUTES]`: a mount per row
                owner = self.urlpatterns_of(call.parent.parent if call.parent.parent.type == "list_splat"
                                            else call.parent)
                target = py_args(view.child_by_field_name("arguments"))[0]
                for row in rows if owner is not None and target and target[0].type == "identifier" else ():
                    route = self.resolve(row.get(self.pf.text(positional[0])))
                    module = self.resolve(row.get(self.pf.text(target[0])))
                    if route is not None and module is not None:
                        self.found_mounts.append(Mount(owner, "/" + route.lstrip("/"), "urlpatterns", module,
                                                       line_of(call)))
                continue
            # (a part another module holds, `api_settings.AUTH_PREFIX + 'email/'`, is read in assembly)
            route = self.path_of(positional[0]) if positional else None
            owner = self.urlpatterns_of(call) if route is not None and view is not None else None
            if owner is None:
                continue
            if attr in ("re_path", "url"):  # a regex: its groups as parameters, optional segments apart
                paths = ["/" + p.lstrip("/") for p in _regex_paths(route.removeprefix("^"))]
            else:
                paths = ["/" + route.lstrip("/")]
            if view.type == "call" and self.callee(view)[1] == "include":
                self.django_include(view, paths[-1], call, owner)  # a mount point, not a route
                continue
            if view.type == "attribute" and self.pf.text(view.child_by_field_name("attribute")) == "urls" and \
                    self.ninja_api(view.child_by_field_name("object"), paths[-1], call, owner):
                continue  # path("api/", api.urls): a Django Ninja API's routes, under /api/
            handler = self.pf.text(view)
            detail = {"method": "ANY", "route": route}
            if view.type == "call" and self.callee(view)[1] == "as_view":
                handler = self.callee(view)[0] or handler
                cls = "".join(handler.split())  # the methods its class has serve it (miners/viewset_routes.py)
                detail.update(view_class=cls, view_import=self.imported_as(cls))
            if "name" in keywords and self.resolve(keywords["name"]):
                detail["name"] = self.resolve(keywords["name"])
            detail["receiver"] = owner  # (what an include() of this module or function mounts: miners/mounts.py)
            if len(paths) > 1:
                detail["template"] = route  # one regex, the paths with its optional part and without
            for path in paths:
                self.out.append(_surface("http-route", _route_name("ANY", path), call, "django", handler=handler,
                                         detail={**detail, "path": path}))

    def comprehension_rows(self, call: Any) -> list[dict[str, Any]] | None:
        """Each row a list comprehension's loop takes `call`'s names from, when `call` is its body
        and the loop walks a literal table (or a module-level name bound to one): {name: node}."""
        comprehension = call.parent
        if comprehension is None or comprehension.type != "list_comprehension" or \
                comprehension.child_by_field_name("body") != call:
            return None
        loops = [c for c in comprehension.named_children if c.type == "for_in_clause"]
        if len(loops) != 1 or any(c.type == "if_clause" for c in comprehension.named_children):
            return None
        return self.table_rows(loops[0].child_by_field_name("left"), loops[0].child_by_field_name("right"))

    def urlpatterns_factories(self) -> None:
        """`urlpatterns = get_api_urls(views)`: the module's patterns are those the function returns."""
        for node in self.assignments:
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is None or right is None or right.type != "call" or not self.pf.text(left).endswith("urlpatterns"):
                continue
            factory = self.factory_call(right, node)
            if factory is not None and self.callee_last(factory) not in ("path", "re_path", "include", "list"):
                module, name = self.factory_target(factory)
                self.found_mounts.append(Mount("urlpatterns", "", name, module, line_of(node), called=True))

    def ninja_api(self, api: Any, prefix: str, call: Any, owner: str = "urlpatterns") -> bool:
        """Mount a NinjaAPI (this file's, or one it imports) under `prefix`, when `api` names one."""
        name = self.pf.text(api) if api is not None and api.type == "identifier" else ""
        if (self.role(name) or ("",))[0] == "http" and self.vars[name][1] == "django-ninja":
            self.found_mounts.append(Mount(owner, prefix, name, None, line_of(call)))
            return True
        imported = self.imported_as(name) if name else None
        if imported is not None and "." in imported:
            module, _, there = imported.rpartition(".")
            self.found_mounts.append(Mount(owner, prefix, there, module, line_of(call)))
            return True
        return False

    def django_include(self, include: Any, prefix: str, call: Any, owner: str = "urlpatterns") -> None:
        """path("shop/", include("shop.urls")): the included module's urlpatterns, under /shop/;
        include(get_api_urls(views)): the patterns that function returns."""
        args, _ = py_args(include.child_by_field_name("arguments"))
        if not args:
            return
        target = args[0].named_children[0] if args[0].type == "tuple" and args[0].named_children else args[0]
        routed = "".join(self.pf.text(target).split())
        if routed.endswith(".urls") and routed[:-5] in self.drf_routers():  # include(router.urls): a DRF router
            self.found_mounts.append(Mount(owner, prefix, routed[:-5], None, line_of(call)))
            return
        module_of, _, router = routed[:-5].rpartition(".")
        if routed.endswith(".urls") and module_of and "." not in module_of and module_of in self.names:
            # include(rest.router.urls): the router another module of the package makes (`from . import rest`)
            self.found_mounts.append(Mount(owner, prefix, router, self.imported_as(module_of), line_of(call)))
            return
        if target.type == "list":  # include([path("build/", views.build_list), ...])
            self.found_mounts.append(Mount(owner, prefix, _inline_patterns(target), None, line_of(call)))
            return
        if target.type == "identifier" and routed in self.included_lists():  # include(api_paths), a list here
            self.found_mounts.append(Mount(owner, prefix, routed, None, line_of(call)))
            return
        factory = self.factory_call(target, call) if target.type == "call" else None
        if factory is not None:
            module, name = self.factory_target(factory)
            self.found_mounts.append(Mount(owner, prefix, name, module, line_of(call), called=True))
            return
        module = self.resolve(target)  # include("shop.urls"), include(("shop.urls", "shop"), namespace=...)
        if module is None and target.type in ("identifier", "attribute"):  # include(shop.urls), imported
            text = "".join(self.pf.text(target).split())
            if text.endswith(".urlpatterns") and text.count(".") == 1:
                text = text.rpartition(".")[0]  # include(totp_urls.urlpatterns): that module's patterns
            module = self.imported_as(text) or (text if text in self.modules else None)  # (import shop.api.urls)
        if module is not None:
            self.found_mounts.append(Mount(owner, prefix, "urlpatterns", module, line_of(call)))

    def included_lists(self) -> set[str]:
        """The module-level lists of this file that an `include(NAME)` here mounts (entirius's
        `api_paths = [path(...)]` under `path(f"{BASE_URL}/returns/<str:version>/", include(api_paths))`)."""
        if self._included is None:
            firsts = [(py_args(call.child_by_field_name("arguments"))[0] or [None])[0]
                      for call, receiver, attr in self.call_info() if attr == "include" and receiver is None] \
                if b"include(" in self.pf.source else []
            named = {self.pf.text(node) for node in firsts if node is not None and node.type == "identifier"}
            root = self.pf.tree.root_node
            self._included = {name for name in named
                              if (value := _assigned(self.pf, root, name, None)) is not None and value.type == "list"}
        return self._included

    def urlpatterns_parts(self) -> set[str]:
        """The names `urlpatterns` is made of, wherever the module assigns it (escalated's
        `urlpatterns = customer_patterns + agent_patterns + list(admin_patterns) + urlpatterns`,
        under an `if` of a setting)."""
        if self._parts is None:
            self._parts = set()
            for node in descendants(self.pf.tree.root_node, "assignment") if b"urlpatterns" in self.pf.source else ():
                left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
                if left is None or right is None or self.pf.text(left) != "urlpatterns":
                    continue
                todo = [right]
                while todo:
                    part = todo.pop()
                    if part.type == "identifier":
                        self._parts.add(self.pf.text(part))
                    elif part.type in ("binary_operator", "parenthesized_expression"):
                        todo.extend(part.named_children)
                    elif part.type == "call" and self.pf.text(part.child_by_field_name("function")) in (
                            "list", "tuple"):
                        todo.extend(py_args(part.child_by_field_name("arguments"))[0][:1])
            self._parts.discard("urlpatterns")
        return self._parts

    def urlpatterns_of(self, node: Any) -> str | None:
        """What a path() call's list is: "urlpatterns" (or a part it is made of), FACTORY + the
        function's name for a list a function returns (`def get_urls(views): return [path(...)]`),
        else None."""
        parent, child = node.parent, node
        while parent is not None and parent.type in (
            "list", "tuple", "binary_operator", "parenthesized_expression", "expression_list", "argument_list",
        ):
            if parent.type == "argument_list":
                call = parent.parent
                receiver, attr = self.callee(call) if call is not None and call.type == "call" else (None, "")
                if attr == "include" and child.type == "tuple" and child.named_child_count:
                    child = child.named_children[0]  # include(([...], "namespace"))
                if attr == "include" and child.type == "list":
                    return _inline_patterns(child)  # include([path(...), ...]): under the path that includes it
                if attr == "format_suffix_patterns" and receiver is None and call.parent is not None:
                    # DRF's: the same patterns (and each with a `.json`-style suffix), wherever they go
                    parent, child = call.parent, call
                    continue
                return "urlpatterns" if receiver is not None and receiver.endswith("urlpatterns") and attr in (
                    "append", "extend", "insert") else None
            parent, child = parent.parent, parent
        if parent is not None and parent.type in ("assignment", "augmented_assignment"):
            left = parent.child_by_field_name("left")  # urlpatterns, or a part it is made of (base_urlpatterns)
            if left is not None and left.type == "subscript" and \
                    self.pf.text(left.child_by_field_name("value")).endswith("urlpatterns"):
                return "urlpatterns"  # urlpatterns[1:1] = [path(...)]: inserted into the module's patterns
            if left is None or left.type != "identifier":
                return None
            if self.pf.text(left).endswith("urlpatterns"):
                return "urlpatterns"
            up = parent.parent
            up = up.parent if up is not None and up.type == "expression_statement" else up
            if up is not None and up.type == "module" and self.pf.text(left) in self.included_lists():
                return self.pf.text(left)  # `api_paths = [path(...)]`, which `include(api_paths)` mounts
            if up is not None and up.type == "module" and self.pf.text(left) in self.urlpatterns_parts():
                return "urlpatterns"  # `customer_patterns = [...]`, `urlpatterns = customer_patterns + ...`
            function = self.patterns_function(parent)  # `urls = [path(...)]` ... `return urls`
            return FACTORY + function if function and self.returns(parent, self.pf.text(left)) else None
        if parent is not None and parent.type == "return_statement":
            function = self.patterns_function(parent)
            return FACTORY + function if function else None
        return None

    def route_wrappers(self) -> dict[str, tuple[int, str, str, str, Any]]:
        """{function: (its path parameter's position, its name, the route decorator it applies, on
        what, the default of the methods it passes or None)} of this module's route decorators:
        `def api(path, rule=None, **kwargs)` whose body decorates with `@_app.route(path, **kwargs)`
        (ironic-inspector), or one a function defines whose inner function registers the view,
        `def try_route(r, methods=["GET", "POST"]): def wrap(fn): app.add_url_rule(r, methods=methods,
        view_func=fn)` (picamip)."""
        if self._wrappers is not None:
            return self._wrappers
        self._wrappers = {}
        # (a view registered by a call, and wrappers a function defines, only where a call can register one)
        calls = b"add_url_rule(" in self.pf.source or b"add_api_route(" in self.pf.source
        root = self.pf.tree.root_node
        kinds = ("decorator", "call") if calls else ("decorator",)
        for function in python_definitions(root, "function_definition") if calls else root.named_children:
            name_of = function.child_by_field_name("name") if function.type == "function_definition" else None
            if name_of is None or self.pf.text(name_of) in self._wrappers:
                continue
            params = {self.pf.text(_parameter_name(p)): p
                      for p in function.child_by_field_name("parameters").named_children
                      if p.type in ("identifier", "default_parameter", "typed_parameter", "typed_default_parameter")}
            names = list(params)
            for node in descendants(function.child_by_field_name("body"), kinds):
                expr = (node.named_children[0] if node.named_children else None) if node.type == "decorator" else node
                if expr is None or expr.type != "call":
                    continue
                receiver, attr = self.callee(expr.child_by_field_name("function"))
                args, keywords = py_args(expr.child_by_field_name("arguments"))
                registers = attr == "route" or attr in HTTP_VERBS if node.type == "decorator" else \
                    attr in ("add_url_rule", "add_api_route")
                if receiver and registers and args and args[0].type == "identifier" and self.pf.text(args[0]) in params:
                    name = self.pf.text(args[0])
                    given = keywords.get("methods")
                    passed = params.get(self.pf.text(given)) if given is not None and given.type == "identifier" \
                        else None
                    default = passed.child_by_field_name("value") if passed is not None else None
                    self._wrappers[self.pf.text(name_of)] = (
                        names.index(name), name, "route" if node.type == "call" else attr, receiver, default)
                    break
        return self._wrappers

    def patterns_function(self, node: Any) -> str | None:
        """The module-level function `node` is in (a method's patterns are an instance's: Django
        admin's get_urls(), mounted per model under a path made at run time)."""
        function = _enclosing(node, "function_definition")
        owner = function.parent if function is not None else None
        if owner is not None and owner.type == "decorated_definition":
            owner = owner.parent
        return self.pf.text(function.child_by_field_name("name")) if owner is not None and owner.type == "module" \
            else None

    def returns(self, node: Any, name: str) -> bool:
        """Whether the function `node` is in ends by returning `name`."""
        body = _enclosing(node, "function_definition").child_by_field_name("body")
        last = body.named_children[-1] if body is not None and body.named_child_count else None
        value = last.named_child(0) if last is not None and last.type == "return_statement" and \
            last.named_child_count else None
        return value is not None and value.type == "identifier" and self.pf.text(value) == name

    # MCP
    def mcp_receiver(self, receiver: str | None) -> bool:
        role = self.vars.get(receiver or "")
        if role is not None:
            return role[0] == "mcp"
        return receiver in ("mcp", "server", "app") and bool({"mcp", "fastmcp"} & self.modules)

    def parameters(self, definition: Any) -> list[dict[str, Any]]:
        out = []
        params = definition.child_by_field_name("parameters")
        for p in params.named_children if params is not None else []:
            if p.type == "identifier":
                name, annotation, default = self.pf.text(p), None, False
            elif p.type in ("typed_parameter", "default_parameter", "typed_default_parameter"):
                name_node = p.child_by_field_name("name") or (p.named_child(0) if p.named_child_count else None)
                if name_node is None or name_node.type != "identifier":
                    continue
                type_node = p.child_by_field_name("type")
                name, annotation = self.pf.text(name_node), self.pf.text(type_node) if type_node is not None else None
                default = p.type != "typed_parameter"
            else:
                continue
            if name in ("self", "cls") or (annotation or "").split("[")[0].rsplit(".", 1)[-1] == "Context":
                continue  # the server injects the request context
            out.append({"name": name, "type": annotation, "required": not default})
        return out

    def function_named(self, name: str) -> Any:
        """The module-level `def name(...)` of this file (decorated or not), or None."""
        for stmt in self.pf.tree.root_node.named_children:
            node = stmt.child_by_field_name("definition") if stmt.type == "decorated_definition" else stmt
            if node is not None and node.type == "function_definition" and \
                    self.pf.text(node.child_by_field_name("name")) == name:
                return node
        return None

    def mcp(self) -> None:
        for node in self.decorated:
            definition = node.child_by_field_name("definition")
            if definition is None or definition.type != "function_definition":
                continue
            function = self.pf.text(definition.child_by_field_name("name"))
            for dec, receiver, attr, positional, keywords, _ in self.decorators(node):
                if attr not in ("tool", "resource") or not self.mcp_receiver(receiver):
                    continue
                description = self.resolve(keywords.get("description")) or self.docstring(definition)
                if attr == "tool":
                    name = (self.resolve(positional[0]) if positional else None) or self.resolve(keywords.get("name"))
                    parameters = self.parameters(definition)
                    self.out.append(_surface("mcp-tool", name or function, node, "mcp", handler=function,
                                             description=description, input_schema=parameters_schema(parameters),
                                             detail={"server": receiver, "parameters": parameters,
                                                     "input_from": "annotations"}))
                else:
                    uri = self.resolve(positional[0]) if positional else self.resolve(keywords.get("uri"))
                    if uri is None:
                        continue
                    self.out.append(_surface("mcp-resource", self.resolve(keywords.get("name")) or function, node,
                                             "mcp", handler=function, description=description,
                                             detail={"server": receiver, "uri": uri}))
        mcp_imported = bool({"mcp", "fastmcp"} & self.modules)
        for call, receiver, attr in self.call_info():
            if attr != "add_tool" and attr != "Tool" and attr != "Resource":
                continue
            positional, keywords = py_args(call.child_by_field_name("arguments"))
            if attr == "add_tool" and self.mcp_receiver(receiver) and positional:
                function = self.pf.text(positional[0])
                definition = self.function_named(function)  # mcp.add_tool(fn): fn's doc and signature
                parameters = self.parameters(definition) if definition is not None else None
                self.out.append(_surface(
                    "mcp-tool", self.resolve(keywords.get("name")) or function, call, "mcp", handler=function,
                    description=self.resolve(keywords.get("description")) or (
                        self.docstring(definition) if definition is not None else ""),
                    input_schema=parameters_schema(parameters) if parameters is not None else None,
                    detail={"server": receiver, **({"parameters": parameters, "input_from": "annotations"}
                                                   if parameters is not None else {})}))
            elif attr in ("Tool", "Resource") and mcp_imported and receiver in (None, "types", "mcp.types"):
                # the low-level server: list_tools() returns types.Tool(name=..., inputSchema={...})
                name = self.resolve(keywords.get("name"))
                if name is None:
                    continue
                description = self.resolve(keywords.get("description")) or ""
                if attr == "Tool":
                    schema = py_literal(self.pf, keywords["inputSchema"]) if "inputSchema" in keywords else UNRESOLVED
                    self.out.append(_surface("mcp-tool", name, call, "mcp", description=description,
                                             input_schema=schema if isinstance(schema, dict) else None,
                                             detail={"lowlevel": True}))
                else:
                    uri = self.resolve(keywords.get("uri"))
                    self.out.append(_surface("mcp-resource", name, call, "mcp", description=description,
                                             detail={"lowlevel": True, **({"uri": uri} if uri else {})}))


# --- JavaScript / TypeScript ------------------------------------------------------------------------------

JS_SERVER_CONSTRUCTORS = {  # callee / constructor last name -> framework of the routes registered on it
    "express": "express", "Router": "express", "Hono": "hono", "Fastify": "fastify", "fastify": "fastify",
    "KoaRouter": "koa-router", "polka": "polka",
    "fromHono": "hono", "fromIttyRouter": "itty-router",  # chanfana's OpenAPI routers over an app
}
JS_SERVER_MODULES = {"express": "express", "koa-router": "koa-router", "@koa/router": "koa-router",
                     "hono": "hono", "fastify": "fastify", "polka": "polka", "restify": "restify",
                     "@hapi/hapi": "hapi"}
_THIS_ALIASES = ("_this", "self", "that")  # `var _this = this;` (TypeScript's ES5 output), by hand too
JS_ROUTER_NAMES = {"app", "router", "server", "api", "routes", "route", "fastify", "r", "express"}
_NAMED_SERVER = re.compile(r"[a-z][A-Za-z0-9]*(?:Server|Router|App)")  # httpServer, apiRouter, expressApp
_NODE_RED_APPS = ("httpAdmin", "httpNode")  # the Express apps a Node-RED node registers routes on
_BUNDLER_RENAME = re.compile(r"([A-Za-z_]\w*)\$\d+$")
_JS_INTEROP = ("__importDefault", "__importStar", "_interopRequireDefault", "_interopRequireWildcard", "__toESM")
JS_CLIENT_NAMES = re.compile(r"(axios|client|fetch|http|request|superagent|got|ky|agent|\$)", re.IGNORECASE)
JS_MCP_CONSTRUCTORS = ("McpServer", "Server", "FastMCP")
JS_HANDLER_TYPES = ("arrow_function", "function_expression", "function", "identifier", "member_expression",
                    "call_expression", "array", "async_arrow_function")


def _js_function_around(node: Any) -> Any:
    """The innermost JavaScript function (of any form) `node` is in, else None."""
    node = node.parent
    while node is not None and node.type not in _JS_FUNCTIONS:
        node = node.parent
    return node


_NAMED_PARAMETERS = ("identifier", "default_parameter", "typed_parameter", "typed_default_parameter")


_ORDERINGS = ("sorted", "list", "tuple", "reversed", "enumerate")  # builtins a loop walks a table through


def _class_bases(cls: Any) -> list[Any]:
    """The base class expressions of a class definition (none for None)."""
    bases = cls.child_by_field_name("superclasses") if cls is not None else None
    return [b for b in bases.named_children if b.type != "keyword_argument"] if bases is not None else []


def py_named_parameters(function: Any) -> list[Any]:
    """A Python function's named parameter nodes in order (`self` too; not `*args`, `**kw` or `*`,
    typed or not)."""
    params = function.child_by_field_name("parameters")
    return [p for p in params.named_children if p.type in _NAMED_PARAMETERS and not (
        p.type == "typed_parameter" and p.named_child(0) is not None
        and p.named_child(0).type in ("list_splat_pattern", "dictionary_splat_pattern"))] if params is not None else []


def py_parameter_names(pf: ParsedFile, function: Any) -> list[str]:
    """The names of py_named_parameters(function)."""
    return [pf.text(_parameter_name(p)) for p in py_named_parameters(function)]


def _parameter_name(param: Any) -> Any:
    """A Python parameter's name node: `url` of `url`, `url=None`, `url: str`, `url: str = ""` (a
    typed parameter has no name field: its name is its first child)."""
    if param.type == "typed_parameter":
        return next((c for c in param.named_children if c.type == "identifier"), param)
    return param.child_by_field_name("name") or param


def _pattern_default(pf: ParsedFile, pattern: Any, wanted: str) -> Any:
    """The default a destructuring pattern or a parameter gives `wanted` (`{ base = '/' }`,
    `base = '/'`), else None: what it is unless the caller says otherwise."""
    if pattern.type == "assignment_pattern":  # `base = '/'`, or `{ prefix = '/v1' } = {}`
        left = pattern.child_by_field_name("left")
        if left is not None and left.type == "object_pattern":
            return _pattern_default(pf, left, wanted)
        return _unwrap_js(pattern.child_by_field_name("right")) if left is not None and \
            left.type == "identifier" and pf.text(left) == wanted else None
    if pattern.type != "object_pattern":
        return None
    for part in pattern.named_children:
        if part.type == "object_assignment_pattern":
            left = part.child_by_field_name("left")
            if left is not None and pf.text(left) == wanted:
                return _unwrap_js(part.child_by_field_name("right"))
    return None


def js_handler(pf: ParsedFile, node: Any) -> bool:
    """Whether a route call's last argument can be its handler: a function, a name of one, or one
    looked up in a table by a path (`auth0["/authorize"]`; `defaults["x"]` is a value)."""
    node = _unwrap_js(node)
    if node is None:
        return False
    if node.type == "subscript_expression":
        return (js_string(pf, node.child_by_field_name("index")) or "").startswith("/")
    return node.type in JS_HANDLER_TYPES


def js_key(pf: ParsedFile, node: Any) -> str | None:
    """An object key as written: a name, a number or a string (a computed one is not read here)."""
    if node is None:
        return None
    if node.type in ("property_identifier", "identifier", "number"):
        return pf.text(node)
    return js_string(pf, node)


def js_object_fields(pf: ParsedFile, node: Any, key: Callable[[Any], str | None]) -> dict[str, Any]:
    """{key: value node} of an object literal; a shorthand property and a method are their own nodes."""
    out = {}
    for child in node.named_children:
        if child.type == "pair":
            k = key(child.child_by_field_name("key"))
            if k is not None:
                out[k] = child.child_by_field_name("value")
        elif child.type == "shorthand_property_identifier":
            out[pf.text(child)] = child
        elif child.type == "method_definition":
            k = key(child.child_by_field_name("name"))
            if k is not None:
                out[k] = child
    return out


class _Js:
    def __init__(self, pf: ParsedFile) -> None:
        self.pf = pf
        self.lang = pf.language
        caps = collect_file(pf, "surfaces")
        self.calls = caps.get("call", [])
        self._member_info: list[tuple[Any, Any, str]] | None = None
        self._route_modules: dict[str, bool] = {}
        self._functions: set[str] | None = None
        self.news = caps.get("new", [])
        self.declarators = caps.get("declarator", [])
        self.modules: set[str] = set()
        self.imports = caps.get("import", [])
        self.found_mounts: list[Mount] = []
        for node in self.imports:
            source = node.child_by_field_name("source")
            if source is not None and js_string(pf, source):
                self.modules.add(js_string(pf, source))
        for call in self.calls:
            spec = self.require_of(call)
            if spec:
                self.modules.add(spec)
        self.nodes: dict[str, Any] = {}  # top-level const name -> value node
        self.strings: dict[str, str] = {}  # "NAME", "OBJ.KEY", "Enum.MEMBER" -> string
        for node in self.declarators:
            self._declarator(node)
        for node in caps.get("enum", []):
            self._enum(node)
        if b'"] = "' in pf.source:  # a TypeScript enum as tsc emits it: `(function (E) { E["A"] = "a"; })(E || ...)`
            for match in _COMPILED_ENUM.finditer(pf.source.decode("utf-8", "replace")):
                self.strings.setdefault(f"{match[1]}.{match[2]}", match[3])
        if b"this." in pf.source:
            self._this_objects()
        if b"${this." in pf.source or b"+ this." in pf.source:
            self._this_strings()
        self.vars: dict[str, tuple[str, str, Any]] = {}  # var -> (role, framework, initialiser)
        for node in self.declarators:
            name, value = node.child_by_field_name("name"), _unwrap_js(node.child_by_field_name("value"))
            if name is not None and name.type == "identifier" and value is not None:
                role = self.role_of(value)
                if role:
                    self.vars[pf.text(name)] = (role[0], role[1], value)
        self.out: list[Surface] = []

    # bindings and literals
    def _declarator(self, node: Any) -> None:
        decl = node.parent
        top = decl is not None and decl.parent is not None and (
            decl.parent.type == "program"
            or decl.parent.type == "export_statement" and decl.parent.parent is not None
            and decl.parent.parent.type == "program")
        name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
        if not top or name is None or name.type != "identifier" or value is None:
            return
        value = _unwrap_js(value)
        if value.type == "call_expression" and self.pf.text(value.child_by_field_name("function")) == "Object.freeze":
            args = js_args(value.child_by_field_name("arguments"))
            value = _unwrap_js(args[0]) if args else value
        key = self.pf.text(name)
        self.nodes[key] = value
        self._flatten(key, value, 0)

    def _flatten(self, key: str, value: Any, depth: int) -> None:
        text = js_string(self.pf, value)
        if text is None and value.type in ("template_string", "binary_expression"):
            text = self.resolve(value)  # const API = `${BASE}/v1` (BASE declared above it)
        if text is not None:
            self.strings[key] = text
        elif value.type == "object" and depth < 3:
            for pair in value.named_children:
                if pair.type == "pair":
                    k = self.key(pair.child_by_field_name("key"))
                    v = pair.child_by_field_name("value")
                    if k is not None and v is not None:
                        self._flatten(f"{key}.{k}", _unwrap_js(v), depth + 1)
                elif pair.type == "spread_element" and pair.named_children and \
                        pair.named_children[0].type == "identifier":
                    # { ...DEFAULTS, ...options }: the same-file constant's members, as defaults (an
                    # unknown spread after them may override them; the defaults are what is declared)
                    prefix = self.pf.text(pair.named_children[0]) + "."
                    for k, v in [(k, v) for k, v in self.strings.items() if k.startswith(prefix)]:
                        self.strings.setdefault(f"{key}.{k[len(prefix):]}", v)

    def _this_objects(self) -> None:
        """`this.endpoints = { ...DEFAULT_ENDPOINTS }` (a constructor's configuration object): its
        members as `this.endpoints.token`, for the routes registered with them."""
        root = self.pf.tree.root_node
        for m in _THIS_OBJECT.finditer(self.pf.source):
            value = self._this_assigned(root, m.start())
            if value is not None and value.type == "call_expression":  # Object.freeze({...})
                args = js_args(value.child_by_field_name("arguments"))
                value = _unwrap_js(args[0]) if args and self.pf.text(value.child_by_field_name("function")) == \
                    "Object.freeze" else None
            if value is not None and value.type == "object":
                self._flatten("this." + m[1].decode("utf-8", "replace"), value, 1)

    def _this_assigned(self, root: Any, at: int) -> Any:
        """The value of the `this.x = value` assignment whose `this` starts at byte `at`, else None."""
        node = root.descendant_for_byte_range(at, at + 4)
        member = node.parent if node is not None and node.type == "this" else None
        assignment = member.parent if member is not None and member.type == "member_expression" else None
        if assignment is None or assignment.type != "assignment_expression" or \
                assignment.child_by_field_name("left") != member:
            return None
        return _unwrap_js(assignment.child_by_field_name("right"))

    def _this_strings(self) -> None:
        """`this.pagesEndpoint = pages.pagesEndpoint ? pages.pagesEndpoint : 'apps'` (or `|| 'apps'`,
        or `'apps'`): the member's literal, what it is unless configured otherwise, as `this.pagesEndpoint`
        for the paths built of it. A member given two values is neither."""
        root = self.pf.tree.root_node
        seen: dict[str, str | None] = {}
        for m in _THIS_STRING.finditer(self.pf.source):
            value = self._this_assigned(root, m.start())
            if value is not None and value.type == "binary_expression" and \
                    self.pf.text(value.child_by_field_name("operator")) in ("||", "??"):
                value = value.child_by_field_name("right")
            elif value is not None and value.type == "ternary_expression" and \
                    self.pf.text(value.child_by_field_name("condition")) == \
                    self.pf.text(value.child_by_field_name("consequence")):
                value = value.child_by_field_name("alternative")
            text = js_string(self.pf, value) if value is not None else None
            key = "this." + m[1].decode("utf-8", "replace")
            seen[key] = text if seen.get(key, text) == text else None
        for key, text in seen.items():
            if text is not None:
                self.strings.setdefault(key, text)

    def _enum(self, node: Any) -> None:
        name = self.pf.text(node.child_by_field_name("name"))
        body = node.child_by_field_name("body")
        for member in body.named_children if body is not None else []:
            if member.type == "enum_assignment":
                value = js_string(self.pf, member.child_by_field_name("value"))
                if value is not None:
                    self.strings[f"{name}.{self.key(member.child_by_field_name('name'))}"] = value

    def key(self, node: Any) -> str | None:
        if node is not None and node.type == "computed_property_name" and node.named_children:
            return self.resolve(node.named_children[0])
        return js_key(self.pf, node)

    def resolve(self, node: Any, depth: int = 0) -> str | None:
        """A string literal, or a same-file const / object member / enum member it names, or a
        template literal or `+` of those (`${BASE}/users`, BASE + "/items")."""
        node = _unwrap_js(node)
        if node is None:
            return None
        value = js_string(self.pf, node)
        if value is None and node.type in ("identifier", "member_expression", "subscript_expression"):
            text = "".join(self.pf.text(node).split())
            text = _JS_SUBSCRIPT.sub(r".\1", text) if "[" in text else text  # TOOLS["search"] -> TOOLS.search
            value = self.strings.get(text)
            if value is None and node.type == "identifier" and depth < 8:
                value = self._local_string(node, depth)
            if value is None and node.type == "member_expression" and text.startswith("this.") and depth < 8:
                value = self._this_string(node, depth)
        elif value is None and depth < 8 and node.type == "binary_expression" and \
                self.pf.text(node.child_by_field_name("operator")) in ("||", "??"):
            # `config.login.route || '/login'`: the literal default, what it is unless configured otherwise
            value = self.resolve(node.child_by_field_name("left"), depth + 1) or \
                self.resolve(node.child_by_field_name("right"), depth + 1)
        elif value is None and depth < 8 and node.type == "template_string":
            parts = []
            for child in node.children:
                if child.type == "escape_sequence":
                    return None  # (an escape beside a substitution: not worth reading for a name)
                if child.type == "string_fragment":
                    parts.append(self.pf.text(child))
                elif child.type == "template_substitution":
                    inner = [c for c in child.named_children if c.type != "comment"]
                    part = self.resolve(inner[0], depth + 1) if len(inner) == 1 else None
                    if part is None:
                        return None
                    parts.append(part)
            value = "".join(parts)
        elif value is None and depth < 8 and node.type == "binary_expression" and \
                self.pf.text(node.child_by_field_name("operator")) == "+":
            left = self.resolve(node.child_by_field_name("left"), depth + 1)
            right = self.resolve(node.child_by_field_name("right"), depth + 1) if left is not None else None
            value = left + right if right is not None else None
        return value

    def _this_string(self, member: Any, depth: int) -> str | None:
        """The string an object's own property holds where it is read: the last `this.loginRoute =
        config.login.route || '/login'` of the function around, before the read, in its body
        itself (not one a branch makes, lockit's `if (config.rest) this.loginRoute = '/rest' + ...`)."""
        wanted = "".join(self.pf.text(member).split())
        function = _js_function_around(member)
        body = function.child_by_field_name("body") if function is not None else None
        found = None
        for stmt in body.named_children if body is not None and body.type == "statement_block" else ():
            if stmt.start_byte >= member.start_byte:
                break
            assigned = stmt.named_children[0] if stmt.type == "expression_statement" and stmt.named_children else None
            if assigned is not None and assigned.type == "assignment_expression" and \
                    "".join(self.pf.text(assigned.child_by_field_name("left")).split()) == wanted:
                found = assigned.child_by_field_name("right")
        return self.resolve(found, depth + 1) if found is not None else None

    def _local_string(self, name: Any, depth: int) -> str | None:
        """The string a function's own variable holds, `var context = config.context || '/dns/api/v1'`:
        its literal value, or the literal default after `||` or `??` (what it is unless configured
        otherwise)."""
        value = self.local_value(name, top=False)  # (the module's own constants are in self.strings)
        if value is not None and value.type == "binary_expression" and \
                self.pf.text(value.child_by_field_name("operator")) in ("||", "??"):
            value = value.child_by_field_name("right")
        return self.resolve(value, depth + 1) if value is not None else None

    def literal(self, node: Any, depth: int = 0) -> Any:
        """A JSON-like literal (same-file consts followed), else UNRESOLVED."""
        node = _unwrap_js(node)
        if node is None or depth > 20:
            return UNRESOLVED
        t = node.type
        if t in ("string", "template_string"):
            value = js_string(self.pf, node)
            return UNRESOLVED if value is None else value
        if t == "number":
            text = self.pf.text(node).replace("_", "")
            try:
                return int(text, 0)
            except ValueError:
                try:
                    return float(text)
                except ValueError:
                    return UNRESOLVED
        if t in ("true", "false"):
            return t == "true"
        if t in ("null", "undefined"):
            return None
        if t == "unary_expression" and self.pf.text(node).startswith("-"):
            value = self.literal(node.named_children[-1], depth + 1)
            return -value if isinstance(value, (int, float)) else UNRESOLVED
        if t == "array":
            items = [self.literal(c, depth + 1) for c in node.named_children if c.type != "comment"]
            return UNRESOLVED if any(i is UNRESOLVED for i in items) else items
        if t == "object":
            out = {}
            for child in node.named_children:
                if child.type == "comment":
                    continue
                if child.type == "pair":
                    k = self.key(child.child_by_field_name("key"))
                    v = self.literal(child.child_by_field_name("value"), depth + 1)
                elif child.type == "shorthand_property_identifier":
                    k = self.pf.text(child)
                    v = self.literal(self.nodes.get(k), depth + 1) if k in self.nodes else UNRESOLVED
                else:
                    return UNRESOLVED
                if k is None or v is UNRESOLVED:
                    return UNRESOLVED
                out[k] = v
            return out
        if t == "identifier" and self.pf.text(node) in self.nodes:
            return self.literal(self.nodes[self.pf.text(node)], depth + 1)
        if t == "member_expression" and self.resolve(node) is not None:
            return self.resolve(node)
        return UNRESOLVED

    def schema(self, node: Any) -> dict[str, Any] | None:
        """inputSchema: a literal JSON Schema, or a zod shape / schema kept as source text."""
        node = _unwrap_js(node)
        if node is None:
            return None
        if node.type == "identifier" and self.pf.text(node) in self.nodes:
            node = self.nodes[self.pf.text(node)]
        text = self.pf.text(node)
        if _ZOD.search(text):
            return {"zod": text}
        value = self.literal(node)
        return value if isinstance(value, dict) else None

    def object_fields(self, node: Any) -> dict[str, Any]:
        """{key: value node} of an object literal (same-file const followed)."""
        node = _unwrap_js(node)
        if node is not None and node.type == "identifier" and self.pf.text(node) in self.nodes:
            node = self.nodes[self.pf.text(node)]
        return js_object_fields(self.pf, node, self.key) if node is not None and node.type == "object" else {}

    def role_of(self, value: Any) -> tuple[str, str] | None:
        """What a const is bound to: an HTTP router/app, an MCP server, a commander program."""
        if value.type == "new_expression":
            constructor = self.pf.text(value.child_by_field_name("constructor")).rsplit(".", 1)[-1]
        elif value.type == "call_expression":
            function = value.child_by_field_name("function")
            constructor = self.pf.text(function).rsplit(".", 1)[-1] if function is not None else ""
            if function is not None and function.type == "member_expression" and constructor in HTTP_VERBS:
                return None
        else:
            return None
        if constructor not in JS_SERVER_CONSTRUCTORS and constructor.rstrip("0123456789") in JS_SERVER_CONSTRUCTORS:
            constructor = constructor.rstrip("0123456789")  # a bundler's rename of an inlined class (`new Hono2()`)
        if constructor in JS_SERVER_CONSTRUCTORS:
            if constructor == "Router" and ({"koa-router", "@koa/router"} & self.modules):
                return "http", "koa-router"
            return "http", JS_SERVER_CONSTRUCTORS[constructor]
        if constructor in JS_MCP_CONSTRUCTORS and value.type == "new_expression" and (
                constructor != "Server" or any("modelcontextprotocol" in m for m in self.modules)):
            return "mcp", "fastmcp" if constructor == "FastMCP" else "mcp"
        if constructor == "Command" and value.type == "new_expression":
            return "commander", "commander"
        return None

    def member(self, call: Any) -> tuple[Any, str]:
        """(receiver node, property name) of `a.b(...)`, else (None, "")."""
        function = call.child_by_field_name("function")
        if function is None or function.type != "member_expression":
            return None, ""
        prop = function.child_by_field_name("property")
        return function.child_by_field_name("object"), self.pf.text(prop) if prop is not None else ""

    def member_info(self) -> list[tuple[Any, Any, str]]:
        """(call, receiver node, property) of every call: computed once, read by each concern."""
        if self._member_info is None:
            self._member_info = [(call, *self.member(call)) for call in self.calls]
        return self._member_info

    def chain_root(self, node: Any) -> Any:
        """The start of `a.b(...).c(...)`: the identifier, `new X()` or plain call it hangs from."""
        while node is not None:
            if node.type == "call_expression":
                function = node.child_by_field_name("function")
                if function is None or function.type != "member_expression":
                    return node
                node = function.child_by_field_name("object")
            elif node.type == "member_expression":
                node = node.child_by_field_name("object")
            elif node.type in ("parenthesized_expression", "as_expression", "non_null_expression"):
                node = _unwrap_js(node)
            else:
                return node
        return node

    def chain_up(self, call: Any) -> list[tuple[str, Any]]:
        """[(method, call)] of the calls chained onto `call`: `x.command('a').description('d').action(f)`."""
        out = []
        node = call
        while True:
            parent = node.parent
            if parent is None or parent.type != "member_expression" or parent.child_by_field_name("object") != node:
                return out
            outer = parent.parent
            if outer is None or outer.type != "call_expression":
                return out
            out.append((self.pf.text(parent.child_by_field_name("property")), outer))
            node = outer

    def after_prefix(self, node: Any) -> tuple[str | None, str | None]:
        """(path, prefix) of `urlPrefix + '/dbs'`: a prefix set at run time, then a path this code
        spells (the path as registered, and that said); else (None, None)."""
        if node.type != "binary_expression" or self.pf.text(node.child_by_field_name("operator")) != "+":
            return None, None
        path = self.resolve(node.child_by_field_name("right"))
        return (path, self.pf.text(node.child_by_field_name("left"))) if path is not None else (None, None)

    def option_routes(self) -> None:
        """Flink's `app.addHandler(handler, { method: HttpMethod.post, path: options.baseUrl + "/create" })`:
        a handler registered with an options object that gives its method (a verb, or an enum's
        member named for one) and its path."""
        for call in self.calls:
            function = call.child_by_field_name("function")
            prop = self.pf.text(function.child_by_field_name("property")) if function is not None and \
                function.type == "member_expression" else ""
            if prop not in _OPTION_CALLS:
                continue
            args = js_args(call.child_by_field_name("arguments"))
            options = _unwrap_js(args[1]) if len(args) == 2 else None
            if options is None or options.type != "object" or args[0].type not in ("identifier", "member_expression"):
                continue
            fields = self.object_fields(options)
            given = fields.get("method")
            verb = self.resolve(given) if given is not None else None
            if verb is None and given is not None and given.type == "member_expression":
                verb = self.pf.text(given.child_by_field_name("property"))  # HttpMethod.post
            given_path = _unwrap_js(fields.get("path"))
            path, unknown = self.resolve(given_path) if given_path is not None else None, None
            if path is None and given_path is not None:
                path, unknown = self.after_prefix(given_path)  # `options.baseUrl + "/create"`
            if verb is None or verb.lower() not in HTTP_VERBS or path is None or not path.startswith("/"):
                continue
            method = verb.upper()
            self.out.append(_surface("http-route", _route_name(method, path), call, "js-handler-options",
                                     handler=self.pf.text(args[0]),
                                     detail={"method": method, "path": path,
                                             **({"prefix_unknown": unknown} if unknown else {})}))

    def run(self) -> list[Surface]:
        self.http()
        if b"readdir" in self.pf.source:  # a route for each file of a directory the server reads
            from miners.dir_routes import find_dir_routes  # (it builds on this module's helpers)

            find_dir_routes(self)
        self.wrapper_routes()
        if _JS_VERB_FIRST.search(self.pf.source) is not None:
            self.verb_first()
        if _table_verb(self.pf.source):
            self.table_loop_routes()
        self.mounts()
        if _returns_routers(self.pf.source):
            self.returned_routers()
        self.mcp()
        self.cli()
        self.nest()
        if _NEST in self.pf.source:
            self.nest_compiled()
        if _FEDIFY in self.pf.source:
            self.fedify()
        if _option_route(self.pf.source):
            self.option_routes()
        if _MICROROUTER in self.pf.source:
            self.microrouter()
        return self.out

    def fedify(self) -> None:
        """Fedify's ActivityPub federation (`createFederation()` from @fedify/fedify): each
        dispatcher serves its path (`setActorDispatcher("/users/{identifier}", ...)`, an object's
        after its class, `setNodeInfoDispatcher("/nodeinfo/2.1", ...)`) to GET, inbox listeners
        (the personal and the shared inbox) take POST, and the federation answers WebFinger and
        NodeInfo discovery under /.well-known itself."""
        if not any(module == "@fedify/fedify" or module.startswith("@fedify/fedify/") for module in self.modules):
            return
        for call in self.calls:
            function = call.child_by_field_name("function")
            args = js_args(call.child_by_field_name("arguments"))
            if function is not None and function.type == "identifier" and self.pf.text(function) == "createFederation":
                for path in ("/.well-known/webfinger", "/.well-known/nodeinfo"):
                    self.out.append(_surface("http-route", f"GET {path}", call, "fedify",
                                             detail={"method": "GET", "path": path, "implied": "createFederation"}))
                continue
            prop = self.pf.text(function.child_by_field_name("property")) if function is not None and \
                function.type == "member_expression" else ""
            if prop == "setInboxListeners":
                method, nodes = "POST", args[:2]
            elif prop in _FEDIFY_DISPATCHERS:
                method, nodes = "GET", args[_FEDIFY_DISPATCHERS[prop]:_FEDIFY_DISPATCHERS[prop] + 1]
            else:
                continue
            for node in nodes:
                path, unknown = self.resolve(node), None
                if path is None:
                    path, unknown = self.after_unknown(node)
                if path is not None and path.startswith("/"):
                    path = _FEDIFY_EXPANSION.sub(r"{\1}", path)  # `{+id}`: the URI template's reserved expansion
                    self.out.append(_surface("http-route", f"{method} {path}", call, "fedify",
                                             detail={"method": method, "path": path,
                                                     **({"prefix_unknown": unknown} if unknown else {})}))

    def after_unknown(self, node: Any) -> tuple[str | None, str | None]:
        """(path, prefix) of `${mountPath}/users/{identifier}`: a template whose first part is set
        at run time, then a path this code spells; else (None, None)."""
        node = _unwrap_js(node)
        if node is None or node.type != "template_string":
            return None, None
        parts = [c for c in node.children if c.type in ("string_fragment", "template_substitution", "escape_sequence")]
        if not parts or parts[0].type != "template_substitution" or self.resolve(
                next(iter(parts[0].named_children), None)) is not None:
            return None, None
        rest = []
        for part in parts[1:]:
            if part.type != "string_fragment":
                value = self.resolve(next(iter(part.named_children), None)) if part.type == "template_substitution" \
                    else None
                if value is None:
                    return None, None
                rest.append(value)
            else:
                rest.append(self.pf.text(part))
        return "".join(rest), self.pf.text(parts[0])

    def microrouter(self) -> None:
        """micro's router: verb functions imported from microrouter, `get('/jobs', handler)`, maybe
        under a namespace (`ns(post('/jobs', h))` with `ns = withNamespace('/api/v1')`)."""
        for call in self.calls:
            function = call.child_by_field_name("function")
            if function is None or function.type != "identifier":
                continue
            module, verb = self.import_of(self.pf.text(function))
            if module not in _MICROROUTER_MODULES or verb not in (*HTTP_VERBS, "del"):
                continue
            args = js_args(call.child_by_field_name("arguments"))
            path = self.resolve(args[0]) if len(args) == 2 and js_handler(self.pf, args[1]) else None
            if path is None or not path.startswith("/"):
                continue
            prefix = ""
            outer = call.parent.parent if call.parent is not None and call.parent.type == "arguments" else None
            wrapper = outer.child_by_field_name("function") if outer is not None and \
                outer.type == "call_expression" else None
            if wrapper is not None and wrapper.type == "identifier":
                made = self.local_value(wrapper)  # ns = withNamespace('/api/v1')
                made_by = made.child_by_field_name("function") if made is not None and \
                    made.type == "call_expression" else None
                if made_by is not None and made_by.type == "identifier" and \
                        self.import_of(self.pf.text(made_by)) == (module, "withNamespace"):
                    given = js_args(made.child_by_field_name("arguments"))
                    prefix = (self.resolve(given[0]) or "") if given else ""
            method = "DELETE" if verb == "del" else verb.upper()
            full = _join_paths(prefix, path) if prefix else path
            handler = args[1]
            self.out.append(_surface("http-route", _route_name(method, full), call, "microrouter",
                                     handler=self.pf.text(handler) if handler.type in ("identifier",
                                                                                       "member_expression") else None,
                                     detail={"method": method, "path": full}))

    # NestJS: @Controller("cats") on a class, @Get(":id") / @Post() ... on its methods; the route is
    # the controller's path joined with the method's (either may be absent, a string, or a list)
    def nest(self) -> None:
        loopback = _LOOPBACK in self.pf.source and _NEST not in self.pf.source
        if _NEST not in self.pf.source and not loopback:
            return
        for stmt in self.pf.tree.root_node.named_children:
            cls = stmt.child_by_field_name("declaration") if stmt.type == "export_statement" else stmt
            if cls is None or cls.type not in ("class_declaration", "abstract_class_declaration"):
                continue
            decorators = [c for c in (*stmt.named_children, *cls.named_children) if c.type == "decorator"]
            if loopback:  # LoopBack 4: a controller needs no decorator; @api({ basePath }) sets a prefix
                prefixes = next((self.nest_paths(d, "basePath") for d in decorators
                                 if self.nest_call(d)[0] == "api"), [""])
            else:
                prefixes = next((self.nest_paths(d, "path") for d in decorators
                                 if self.nest_call(d)[0] == "Controller"), None)
            body = cls.child_by_field_name("body")
            if prefixes is None or body is None:
                continue
            name = self.pf.text(cls.child_by_field_name("name"))
            pending: list[Any] = []
            doc = ""
            for member in body.named_children:
                if member.type == "comment":
                    doc = doc_comment_text(self.pf.text(member)) if not pending else doc
                elif member.type == "decorator":
                    pending.append(member)
                elif member.type == "method_definition":
                    method = self.pf.text(member.child_by_field_name("name"))
                    for dec in pending:
                        verb, paths = self.loopback_route(dec) if loopback else (
                            NEST_VERBS.get(self.nest_call(dec)[0]), None)
                        if verb is None:
                            continue
                        for prefix in prefixes:
                            for path in paths if paths is not None else self.nest_paths(dec, None):
                                full = "/" + "/".join(p.strip("/") for p in (prefix, path) if p.strip("/"))
                                self.out.append(_surface("http-route", _route_name(verb, full), dec,
                                                         "loopback" if loopback else "nestjs",
                                                         handler=f"{name}.{method}", description=doc,
                                                         detail={"method": verb, "path": full}))
                    pending, doc = [], ""
                else:
                    pending, doc = [], ""

    def nest_compiled(self) -> None:
        """A NestJS controller as TypeScript compiles it (what an npm tarball ships): the decorators
        are calls, `__decorate([(0, common_1.Post)('login'), ...], AuthController.prototype, "login",
        null)` per method and `AuthController = __decorate([(0, common_1.Controller)('auth')],
        AuthController)` per class (tslib's `tslib_1.__decorate`, SWC's `_ts_decorate` alike)."""
        if b"decorate(" not in self.pf.source:
            return
        prefixes: dict[str, list[str]] = {}  # class -> its @Controller paths
        methods: list[tuple[str, str, Any, str, list[str]]] = []  # (class, method, decorator call, verb, paths)
        for call in self.calls:
            function = call.child_by_field_name("function")
            if function is not None and function.type == "member_expression":
                function = function.child_by_field_name("property")
            if function is None or not self.pf.text(function).endswith("decorate"):
                continue
            args = js_args(call.child_by_field_name("arguments"))
            if len(args) < 2 or args[0].type != "array":
                continue
            target = args[1]
            for item in args[0].named_children:
                decorator, given = self.compiled_decorator(item)
                if len(args) == 2 and target.type == "identifier" and decorator == "Controller":
                    prefixes[self.pf.text(target)] = self.nest_arg_paths(given, "path")
                elif len(args) >= 3 and decorator in NEST_VERBS and target.type == "member_expression" and \
                        self.pf.text(target.child_by_field_name("property")) == "prototype":
                    owner = target.child_by_field_name("object")
                    method = js_string(self.pf, args[2])
                    if owner is not None and owner.type == "identifier" and method:
                        methods.append((self.pf.text(owner), method, item, NEST_VERBS[decorator],
                                        self.nest_arg_paths(given, None)))
        for owner, method, item, verb, paths in methods:
            for prefix in prefixes.get(owner, ()):
                for path in paths:
                    full = "/" + "/".join(p.strip("/") for p in (prefix, path) if p.strip("/"))
                    self.out.append(_surface("http-route", _route_name(verb, full), item, "nestjs",
                                             handler=f"{owner}.{method}", detail={"method": verb, "path": full}))

    def compiled_decorator(self, node: Any) -> tuple[str, list[Any]]:
        """(name, arguments) of a decorator call as compiled: `(0, common_1.Post)('x')`, `common_1.Post('x')`
        or `Post('x')`; ("", []) for anything else."""
        if node.type != "call_expression":
            return "", []
        function = _unwrap_js(node.child_by_field_name("function"))
        if function is not None and function.type == "sequence_expression" and function.named_children:
            function = function.named_children[-1]  # `(0, f)`: f called without its object as `this`
        if function is not None and function.type == "member_expression":
            function = function.child_by_field_name("property")
        if function is None or function.type not in ("identifier", "property_identifier"):
            return "", []
        return self.pf.text(function), js_args(node.child_by_field_name("arguments"))

    def nest_arg_paths(self, args: list[Any], key: str | None) -> list[str]:
        """The paths a route decorator's arguments give: none (""), a string, a list of them, or (for
        @Controller) an options object's `path`."""
        if not args:
            return [""]
        first = _unwrap_js(args[0])
        if key and first.type == "object":
            first = self.object_fields(first).get(key)
            if first is None:
                return [""]
        if first.type == "array":
            values = [self.resolve(item) for item in first.named_children]
            return [v for v in values if v is not None] or [""]
        value = self.resolve(first)
        return [value] if value is not None else []

    def loopback_route(self, decorator: Any) -> tuple[str | None, list[str]]:
        """(method, [path]) of LoopBack 4's `@get('/mails')`, `@del(...)`, `@operation('get', '/x')`,
        each imported from @loopback/rest or @loopback/openapi-v3; (None, []) for another decorator."""
        name, args = self.nest_call(decorator)
        if not name or self.import_of(name)[0] not in _LOOPBACK_MODULES:
            return None, []
        if name == "operation" and len(args) >= 2:
            verb, path = self.resolve(args[0]), self.resolve(args[1])
        elif name in LOOPBACK_VERBS and args:
            verb, path = LOOPBACK_VERBS[name], self.resolve(args[0])
        else:
            return None, []
        if verb is None or path is None or verb.lower() not in HTTP_VERBS:
            return None, []
        return verb.upper(), [path]

    def nest_call(self, decorator: Any) -> tuple[str, list[Any]]:
        """(the decorator's function name, its arguments) for `@Name(...)`, else ("", [])."""
        call = decorator.named_children[0] if decorator.named_children else None
        if call is None or call.type != "call_expression":
            return "", []
        function = call.child_by_field_name("function")
        return (self.pf.text(function) if function is not None and function.type == "identifier" else "",
                js_args(call.child_by_field_name("arguments")))

    def nest_paths(self, decorator: Any, key: str | None) -> list[str]:
        """The paths a decorator's arguments give (nest_arg_paths)."""
        return self.nest_arg_paths(self.nest_call(decorator)[1], key)

    def receiver_detail(self, receiver: Any) -> dict[str, str]:
        """{"receiver": name} of the router a route is registered on, when it has a plain name, and
        {"within": name} of the named function it is registered in (a router factory's routes are
        mounted where the factory's result is: `app.use("/data", serve_data.init(opts))`)."""
        root = self.chain_root(receiver)
        out = {"receiver": self.pf.text(root)} if root is not None and root.type == "identifier" else {}
        within = _js_function_name(self.pf, receiver)
        if within:
            out["within"] = within
        prop = receiver.child_by_field_name("property") if receiver.type == "member_expression" else None
        if within and "." in within and prop is not None and receiver.child_by_field_name("object").type == "this":
            # a router an instance holds (node-media-server's `this.router = express.Router()` in
            # class ApiRouter): mounted as `app.use("/api/v1", new ApiRouter().router)` (miners/mounts.py)
            out["instance_router"] = f"{within.partition('.')[0]}.{self.pf.text(prop)}"
        return out

    # routers mounted under a prefix: app.use("/users", users), router.use("/x", sub.routes()) (Koa),
    # app.route("/books", books) (Hono); and, with no prefix of its own, a router a factory of
    # another module makes, the handler of `app.all("/entries*", ...)` (which passes the whole path
    # on): its routes are served wherever this app is
    def mounts(self) -> None:
        wrappers: dict[str, tuple[Any, list[str], int, int]] = {}
        for call, receiver, prop in self.member_info():
            if prop == "register" and receiver is not None:
                self.fastify_plugin(call, receiver)
                continue
            if receiver is None or prop not in ("use", "route", "all", *HTTP_VERBS):
                continue
            args = js_args(call.child_by_field_name("arguments"))
            if not args or prop == "route" and len(args) != 2:
                continue
            if prop == "use" and len(args) == 2 and self.mount_wrapper(call, receiver, args, wrappers):
                continue
            if prop == "use" and len(args) >= 2 and self.answering_use(call, receiver, args):
                continue
            self.mount(call, receiver, prop, args)
        if wrappers:
            self.wrapped_mounts(wrappers)

    def answering_use(self, call: Any, receiver: Any, args: list[Any]) -> bool:
        """`server.middlewares.use("/via/health", (_req, res) => res.end(...))`: connect's (and
        Express's) use() of a function that answers the request itself and never passes it on serves
        that path (and what is below it) for every method: a route, where a router's use() is a mount."""
        from miners.node_http_routes import REQUESTS, RESPONSES  # (it builds on this module's helpers)

        handler = _unwrap_js(args[-1])
        if handler is not None and handler.type == "identifier":
            handler = _unwrap_js(self.local_value(handler))  # `const health = (req, res) => ...`
        if handler is None or handler.type not in ("arrow_function", "function_expression", "function"):
            return False
        names = js_parameter_names(self.pf, handler)
        if len(names) < 2 or names[0].lstrip("_") not in REQUESTS or names[1] not in RESPONSES:
            return False
        path = self.resolve(args[0])
        framework = self.http_receiver(receiver) if path is not None and path.startswith("/") else None
        body = self.pf.source[handler.start_byte:handler.end_byte]
        if framework is None or len(re.findall(rb"(?<![\w$.])" + re.escape(names[1].encode()) + rb"\b", body)) < 2 \
                or re.search(rb"(?<![\w$.])next\s*\(", body) is not None:
            return False
        self.out.append(_surface("http-route", _route_name("ANY", path), call, framework,
                                 detail={"method": "ANY", "path": path, "answers": True,
                                         **self.receiver_detail(receiver)}))
        return True

    def mount_wrapper(self, call: Any, receiver: Any, args: list[Any],
                      wrappers: dict[str, tuple[Any, list[str], int, int]]) -> bool:
        """terriajs-server's `function endpoint(path, router) { app.use("/api/v1" + path, router);
        app.use(path, router); }`: a function of this file that mounts its router parameter at its
        path parameter (alone or after a literal) is a mount wrapper; each form is noted under its
        name, (the app, the prefixes before the path, the path's and the router's places)."""
        path, router = _unwrap_js(args[0]), _unwrap_js(args[1])
        if router is None or router.type != "identifier" or path is None:
            return False
        head = ""
        if path.type == "binary_expression" and self.pf.text(path.child_by_field_name("operator")) == "+":
            head = self.resolve(path.child_by_field_name("left")) or ""
            path = _unwrap_js(path.child_by_field_name("right"))
            if not head.startswith("/"):
                return False
        if path is None or path.type != "identifier":
            return False
        outer = _js_function_around(call)
        names = js_parameter_names(self.pf, outer) if outer is not None else []
        name = _js_function_name(self.pf, call) if outer is not None else None
        if self.pf.text(path) not in names or self.pf.text(router) not in names or not name or "." in name:
            return False
        at, via = names.index(self.pf.text(path)), names.index(self.pf.text(router))
        known = wrappers.get(name)
        if known is not None and (known[2], known[3]) != (at, via):
            return True  # (its forms disagree on the places: nothing is mounted through it)
        wrappers[name] = (receiver, [*(known[1] if known else []), head], at, via)
        return True

    def calls_of(self, functions: dict[str, T]) -> Iterator[tuple[Any, T]]:
        """(call, what is known of the function) for each call of one of this file's functions by name
        (a class's method by `this.` and its name)."""
        for call in self.calls:
            function = call.child_by_field_name("function")
            if function is None:
                continue
            if function.type == "identifier":
                known = functions.get(self.pf.text(function))
            elif function.type == "member_expression" and function.child_by_field_name("object").type == "this":
                known = functions.get("this." + self.pf.text(function.child_by_field_name("property")))  # a method
            else:
                continue
            if known is not None:
                yield call, known

    def wrapped_mounts(self, wrappers: dict[str, tuple[Any, list[str], int, int]]) -> None:
        """The mounts each call of a mount wrapper with a literal path makes, one per form."""
        for call, (receiver, heads, at, via) in self.calls_of(wrappers):
            args = js_args(call.child_by_field_name("arguments"))
            path = self.resolve(args[at]) if len(args) > max(at, via) else None
            if path is None or not path.startswith("/"):
                continue
            for head in dict.fromkeys(heads):
                self.mount(call, receiver, "use", [args[at], args[via]], prefix=head + path,
                           within=_js_function_name(self.pf, call))

    def mount(self, call: Any, receiver: Any, prop: str, args: list[Any], prefix: str | None = None,
              within: str | None = None) -> None:
        """The mount one call makes: `app.use("/users", users)`, a router factory's result, a
        directory's modules; `prefix` (and `within`) when a mount wrapper's call gives them."""
        target = _unwrap_js(args[-1])
        if prop == "use" and len(args) > 2:  # app.use("/api", apiRouter, onError): the router among them
            target = next((made for arg in args[1:] if (made := self.mounted_value(arg, call)) is not None and
                           made.type == "call_expression"), target)
        if target is not None and target.type == "identifier":  # .then((sub) => app.use("/x", sub))
            target = self.promised_by(target) or self.made_by(target, call) or target
        if prefix is None:
            prefix = (self.resolve(args[0]) or self.parameter_default(args[0])) if len(args) > 1 else None
        if prop == "use" and prefix is not None and target is not None and target.type == "member_expression":
            member = self.factory_member(target, call)  # `routes.v1` of `routes = require('./routes')(mw)`
            kept = self.required_member(target) if member is None else None  # `this.events`, set from a require
            kept = kept or (self.instance_member(target, call) if member is None else None)
            root = self.chain_root(receiver)
            if (member or kept) is not None and root is not None and root.type == "identifier" and \
                    prefix.startswith("/"):
                module, name = member or kept
                self.found_mounts.append(Mount(self.pf.text(root), prefix, name, module, line_of(call),
                                               called=member is not None,
                                               within=_js_function_name(self.pf, receiver)))
                return
        if prefix is None and prop == "use" and len(args) == 2 and b"readdir" in self.pf.source:
            each = self.directory_mount(call, receiver, args)
            if each is not None:
                self.found_mounts.append(each)
                return
        if prop not in ("use", "route") or prefix is None:
            if prop in ("use", "route") or len(args) < 2 or not self.required_factory(target) or \
                    _wraps_function(target):
                return  # (`asyncHandler(async (req, res) => ...)` wraps a handler: no router it makes)
            prefix = ""  # (a verb's or all()'s path is matched, not taken off: the router sees it whole)
        root = self.chain_root(receiver)
        router = target is not None and target.type == "identifier" and \
            self.vars.get(self.pf.text(target), ("",))[0] == "http"  # what takes a router is an app
        if prefix and not prefix.startswith("/") or root is None or root.type not in ("identifier", "this") or \
                self.http_receiver(receiver) is None and not router:
            return
        if root.type == "this":  # this.app.use("/api", apiRouter) in a server class: the app by its member
            root = receiver
        if within is None:
            within = _js_function_name(self.pf, receiver)  # (a factory's app: served where its result is)
        if target is not None and target.type == "call_expression":  # sub.routes() (Koa), require("./x")
            function = target.child_by_field_name("function")
            spec = self.require_of(target)
            if spec is not None:
                self.found_mounts.append(Mount(self.pf.text(root), prefix, "default", spec, line_of(call),
                                               within=within))
                return
            factory = self.factory_of(target)
            if factory is not None:  # a router factory's result: the routes its body registers
                module, name = factory
                self.found_mounts.append(Mount(self.pf.text(root), prefix, name, module, line_of(call),
                                               called=True, within=within))
            target = function.child_by_field_name("object") if function is not None and \
                function.type == "member_expression" else None  # (and the object's own routes: `sub.routes()`)
        if target is None or target.type != "identifier":
            return
        name = self.pf.text(target)
        module, imported = self.import_of(name)
        self.found_mounts.append(Mount(self.pf.text(root), prefix, imported or name, module, line_of(call),
                                       within=within))

    def mounted_value(self, arg: Any, at: Any) -> Any:
        """What a mount's argument is: a call (`require('./x')`, `makeRouter()`), or the call of
        another module's or this file's router factory a name was bound to; else None."""
        node = _unwrap_js(arg)
        if node is not None and node.type == "identifier":
            return self.made_by(node, at)
        # (this tree's: `bodyParser({...})`, a package's middleware, mounts nothing of it)
        return node if node is not None and node.type == "call_expression" and (
            (self.require_of(node) or "").startswith(".") or self.required_factory(node, here=True)) else None

    def table_loop_routes(self) -> None:
        """Routes of a table of `{ action: 'get', path: '/ip', route: h }` objects that a loop
        registers, `router[endpoint.action].apply(router, [endpoint.path, ...])` (mockbin): one route
        per row whose method field names a verb and whose path field is a literal path."""
        root = self.pf.tree.root_node
        for m in _JS_TABLE_VERB.finditer(self.pf.source):
            node = root.descendant_for_byte_range(m.start(), m.end())
            while node is not None and node.type != "subscript_expression":
                node = node.parent
            index = node.child_by_field_name("index") if node is not None else None
            receiver = node.child_by_field_name("object") if node is not None else None
            if index is None or index.type != "member_expression" or receiver is None or \
                    self.http_receiver(receiver) is None:
                continue
            row, field = index.child_by_field_name("object"), self.pf.text(index.child_by_field_name("property"))
            table = self.looped_table(row) if row is not None and row.type == "identifier" else None
            if table is None:
                continue
            for item in table.named_children:
                fields = self.object_fields(item) if item.type == "object" else {}
                method = self.resolve(fields.get(field))
                path = next((p for key in ("path", "url", "route", "pattern")
                             if (p := self.resolve(fields.get(key))) is not None and p.startswith("/")), None)
                if method is None or path is None or method.lower() not in (*HTTP_VERBS, "all"):
                    continue
                verb = "ANY" if method.lower() == "all" else method.upper()
                for form in _optional_forms(path):
                    self.out.append(_surface("http-route", _route_name(verb, form), item, "express",
                                             detail={"method": verb, "path": form, "table": True,
                                                     **self.receiver_detail(receiver)}))

    def looped_table(self, row: Any) -> Any:
        """The array literal a loop's variable `row` takes its values from: `endpoints.forEach(function
        (endpoint) {...})` (or `.map`), `for (const endpoint of endpoints)`, the array a name in this
        file holds; None for anything else (`for (k in o)`: the keys of an object)."""
        name, scope, items = self.pf.text(row), row.parent, None
        while scope is not None and items is None:
            if scope.type == "for_in_statement" and self.pf.text(scope.child_by_field_name("left")).split()[-1:] == [name]:
                items = scope.child_by_field_name("right") if any(c.type == "of" for c in scope.children) else None
                break
            if scope.type in ("arrow_function", "function_expression", "function") and \
                    js_parameter_names(self.pf, scope)[:1] == [name]:
                call = scope.parent.parent if scope.parent is not None and scope.parent.type == "arguments" else None
                function = call.child_by_field_name("function") if call is not None and \
                    call.type == "call_expression" else None
                if function is not None and function.type == "member_expression" and \
                        self.pf.text(function.child_by_field_name("property")) in ("forEach", "map"):
                    items = function.child_by_field_name("object")
                break
            scope = scope.parent
        items = _unwrap_js(items)
        if items is not None and items.type == "identifier":
            items = self.local_value(items)
        return items if items is not None and items.type == "array" else None

    def local_value(self, name: Any, top: bool = True) -> Any:
        """The value a name is declared with before it, in the function bodies around it (the
        nearest first), else (with `top`) at the module's top level."""
        wanted = self.pf.text(name)
        scope = name.parent
        while scope is not None and scope.type != "program":
            if scope.type == "statement_block":
                for stmt in scope.named_children:
                    if stmt.type not in ("lexical_declaration", "variable_declaration") or \
                            stmt.start_byte > name.start_byte:
                        continue
                    for declarator in stmt.named_children:
                        binding = declarator.child_by_field_name("name") if declarator.type == "variable_declarator" \
                            else None
                        if binding is not None and binding.type == "identifier" and self.pf.text(binding) == wanted:
                            return _unwrap_js(declarator.child_by_field_name("value"))
                        default = _pattern_default(self.pf, binding, wanted) if binding is not None else None
                        if default is not None:  # const { scenariosPath = "/scenarios" } = options
                            return default
            elif scope.type in _JS_FUNCTIONS:  # a parameter's default: `function MapsRouter({ base = '/' })`
                params = scope.child_by_field_name("parameters")
                for param in params.named_children if params is not None else ():
                    default = _pattern_default(self.pf, param, wanted)
                    if default is not None:
                        return default
            scope = scope.parent
        return self.nodes.get(wanted) if top else None

    def factory_member(self, target: Any, at: Any) -> tuple[str | None, str] | None:
        """(module, "factory.member") of `routes.v1` where `routes` holds another module's router
        factory's result (`var routes = require('./routes')(middleware)`): the router that member
        of the object the factory returns is (returned_routers, in that module)."""
        obj, prop = target.child_by_field_name("object"), target.child_by_field_name("property")
        if obj is None or prop is None or obj.type != "identifier" or prop.type != "property_identifier":
            return None
        made = self.made_by(obj, at)
        factory = self.factory_of(made) if made is not None else None
        if factory is None or factory[0] is None:
            return None
        return factory[0], f"{factory[1]}.{self.pf.text(prop)}"

    def instance_member(self, target: Any, at: Any) -> tuple[str | None, str] | None:
        """(module, "Class.prop") of `apiRouter.router` where `apiRouter = new ApiRouter()` was bound
        before `at`, the class imported (its module's specifier) or this file's (None)."""
        obj, prop = target.child_by_field_name("object"), target.child_by_field_name("property")
        if obj is None or obj.type != "identifier" or prop is None:
            return None
        made = None
        for node in self.declarators:
            if node.start_byte > at.start_byte:
                break
            binding = node.child_by_field_name("name")
            if binding is not None and binding.type == "identifier" and self.pf.text(binding) == self.pf.text(obj):
                made = _unwrap_js(node.child_by_field_name("value"))
        cls = made.child_by_field_name("constructor") if made is not None and made.type == "new_expression" else None
        if cls is None or cls.type != "identifier":
            return None
        module, imported = self.import_of(self.pf.text(cls))
        if module is not None and not module.startswith("."):
            return None  # (a package's class: not in this tree)
        return module, f"{imported or self.pf.text(cls)}.{self.pf.text(prop)}"  # ("default.router": mounts.py)

    def required_member(self, target: Any) -> tuple[str | None, str] | None:
        """(module, export) of `this.route` where a method of the file set `this.route =
        require('./canned').cannedResponseRoute` (or `= require('./canned')`): a module loaded on
        demand and kept on the instance (tiledesk's modules manager)."""
        obj, prop = target.child_by_field_name("object"), target.child_by_field_name("property")
        if obj is None or obj.type != "this" or prop is None:
            return None
        key = b"this." + self.pf.source[prop.start_byte:prop.end_byte]
        for at in positions(self.pf.source, key):
            node = self.pf.tree.root_node.descendant_for_byte_range(at, at + len(key))
            while node is not None and node.type != "member_expression":
                node = node.parent
            parent = node.parent if node is not None else None
            if parent is None or parent.type != "assignment_expression" or parent.child_by_field_name("left") != node:
                continue
            value = _unwrap_js(parent.child_by_field_name("right"))
            export = "default"
            if value is not None and value.type == "member_expression":
                export = self.pf.text(value.child_by_field_name("property"))
                value = _unwrap_js(value.child_by_field_name("object"))
            spec = self.require_of(value) if value is not None and value.type == "call_expression" else None
            if spec is not None and spec.startswith("."):
                return spec, export
        return None

    def returned_routers(self) -> None:
        """The routers a factory returns in an object, `return { v1: v1 }` with `var v1 =
        require('./v1')(express.Router(), mw)`: each member is that other factory's router, mounted
        as `FACTORY + "default.v1"` (what factory_member names) with no prefix of its own."""
        for node in descendants(self.pf.tree.root_node, "return_statement"):
            value = _unwrap_js(node.named_children[0]) if node.named_children else None
            if value is None or value.type != "object":
                continue
            function = _js_function_name(self.pf, node)
            if not function:
                continue
            for key, member in self.object_fields(value).items():
                member = _unwrap_js(member)
                if member is not None and member.type == "identifier":
                    member = self.made_by(member, node)
                factory = self.factory_of(member) if member is not None and member.type == "call_expression" and \
                    self.required_factory(member) else None
                if factory is not None:
                    self.found_mounts.append(Mount(f"{FACTORY}{function}.{key}", "", factory[1], factory[0],
                                                   line_of(member), called=True))

    def directory_mount(self, call: Any, receiver: Any, args: list[Any]) -> Mount | None:
        """`router.use(`/${routeFile}`, require(`./${routeFile}`))` in a loop over a directory's files
        (node-express-mongodb-jwt-rest-api-skeleton): every module there, under its name, but those
        the loop leaves out (`routeFile !== 'auth'`)."""
        prefix, name = self.substituted(args[0])
        target = _unwrap_js(args[1])
        function = target.child_by_field_name("function") if target.type == "call_expression" else None
        if prefix is None or function is None or self.pf.text(function) != "require":
            return None
        spec_args = js_args(target.child_by_field_name("arguments"))
        module, same = self.substituted(spec_args[0]) if len(spec_args) == 1 else (None, None)
        root = self.chain_root(receiver)
        if module is None or same != name or not module.startswith(".") or not module.endswith("/{}") or \
                not prefix.startswith("/") or root is None or root.type != "identifier" or \
                self.http_receiver(receiver) is None:
            return None
        scope = _js_function_around(call)
        left_out = []
        for node in descendants(scope, "binary_expression") if scope is not None else ():
            if self.pf.text(node.child_by_field_name("operator")) in ("!==", "!="):
                sides = [node.child_by_field_name("left"), node.child_by_field_name("right")]
                texts = [self.pf.text(side) for side in sides]
                if name in texts:
                    value = js_string(self.pf, sides[1 - texts.index(name)])
                    if value is not None:
                        left_out.append(value)
        return Mount(self.pf.text(root), prefix, "default", module, line_of(call), each_except=tuple(left_out))

    def substituted(self, node: Any) -> tuple[str | None, str | None]:
        """("/api/{}", "file") of a template literal with one substitution, a name (`/api/${file}`)."""
        node = _unwrap_js(node)
        if node is None or node.type != "template_string":
            return None, None
        parts, name = [], None
        for child in node.children:
            if child.type == "string_fragment":
                parts.append(self.pf.text(child))
            elif child.type == "template_substitution":
                inner = [c for c in child.named_children if c.type != "comment"]
                if name is not None or len(inner) != 1 or inner[0].type != "identifier":
                    return None, None
                name = self.pf.text(inner[0])
                parts.append("{}")
            elif child.type == "escape_sequence":
                return None, None
        return ("".join(parts), name) if name is not None else (None, None)

    def fastify_plugin(self, call: Any, receiver: Any) -> None:
        """`fastify.register(ColumnRoute, { prefix: '/columns' })`: the plugin function's routes are
        served under the prefix (a plugin is a router factory whose result is the plugin itself)."""
        args = js_args(call.child_by_field_name("arguments"))
        options = _unwrap_js(args[1]) if len(args) >= 2 else None
        root = self.chain_root(receiver)
        if options is None or options.type != "object" or root is None or root.type != "identifier":
            return
        prefix = self.resolve(self.object_fields(options).get("prefix"))
        plugin = _unwrap_js(args[0])
        if prefix is None or not prefix.startswith("/") or plugin is None or self.http_receiver(receiver) is None:
            return
        within = _js_function_name(self.pf, receiver)
        if plugin.type == "call_expression":  # register(require('./x'), ...), register(import('./x'), ...)
            spec = self.require_of(plugin) or self.dynamic_import_of(plugin)
            module, name = (spec, "default") if spec else (None, None)
        elif plugin.type == "identifier":
            module, imported = self.import_of(self.pf.text(plugin))
            name = imported or self.pf.text(plugin)
        else:
            return
        if name is not None:
            self.found_mounts.append(Mount(self.pf.text(root), prefix, name, module, line_of(call), called=True,
                                           within=within))

    def made_by(self, name: Any, before: Any) -> Any:
        """The call of another module's router factory a name was last bound to before `before`
        (`var api = require('./lib/api/')(env, ctx)`), or None."""
        text, value = self.pf.text(name), None
        for node in self.declarators:
            if node.start_byte > before.start_byte:
                break
            binding = node.child_by_field_name("name")
            if binding is not None and binding.type == "identifier" and self.pf.text(binding) == text:
                value = _unwrap_js(node.child_by_field_name("value"))
        return value if self.required_factory(value, here=True) else None

    def required_factory(self, call: Any, here: bool = False) -> bool:
        """Whether `call` calls a function another module of this tree exports: `require('./x')(opts)`,
        `makeRouter(opts)` of `import { makeRouter } from './routes'`; or, with `here`, one this
        file declares (`const routes = createRoutes(opts)`)."""
        function = call.child_by_field_name("function") if call is not None and call.type == "call_expression" \
            else None
        if function is not None and function.type == "call_expression":
            return (self.require_of(function) or "").startswith(".")
        if function is None or function.type != "identifier":
            return False
        if here and self.pf.text(function) in self.functions():
            return True
        return (self.import_of(self.pf.text(function))[0] or "").startswith(".")

    def functions(self) -> set[str]:
        """The names of the functions this file declares at its top level."""
        if self._functions is None:
            self._functions = set()
            for statement in self.pf.tree.root_node.named_children:
                node = statement.named_children[0] if statement.type == "export_statement" and \
                    statement.named_children else statement
                if node.type == "function_declaration" and node.child_by_field_name("name") is not None:
                    self._functions.add(self.pf.text(node.child_by_field_name("name")))
        return self._functions

    def parameter_default(self, node: Any) -> str | None:
        """The literal default of the enclosing function's parameter `node` names: `function
        createApp({ prefix = "/tides" } = {})`, `function mount(app, prefix = "/api")`."""
        node = _unwrap_js(node)
        if node is None or node.type != "identifier":
            return None
        name, scope = self.pf.text(node), _js_function_around(node)
        params = scope.child_by_field_name("parameters") if scope is not None else None
        todo = list(params.named_children) if params is not None else []
        while todo:
            param = todo.pop()
            if param.type in ("required_parameter", "optional_parameter"):  # TypeScript's wrappers
                todo += [c for c in (param.child_by_field_name("pattern"), param.child_by_field_name("value")) if c]
            elif param.type in ("assignment_pattern", "object_assignment_pattern"):
                left = param.child_by_field_name("left")
                if left is not None and left.type in ("identifier", "shorthand_property_identifier_pattern") and \
                        self.pf.text(left) == name:
                    return self.resolve(param.child_by_field_name("right"))
                todo += [c for c in (left,) if c is not None]
            elif param.type == "object_pattern":
                todo += param.named_children
        return None

    def factory_of(self, call: Any) -> tuple[str | None, str] | None:
        """(module specifier or None, the function's name there) of a call to a router factory:
        `makeRouter(opts)`, `serve_data.init(opts)` (an imported object's method), `require("./r")(opts)`.
        Not Koa's `router.routes()` / `middleware()`, which hand over the router itself."""
        function = call.child_by_field_name("function")
        if function is None:
            return None
        if function.type == "call_expression" and (spec := self.require_of(function)) is not None:
            return spec, "default"
        if function.type == "member_expression":
            obj, prop = function.child_by_field_name("object"), function.child_by_field_name("property")
            if obj is None or prop is None or obj.type != "identifier" or \
                    self.pf.text(prop) in ("routes", "middleware", "allowedMethods", "callback"):
                return None
            module, imported = self.import_of(self.pf.text(obj))
            holder = imported if imported and imported != "default" else self.pf.text(obj)
            return module, f"{holder}.{self.pf.text(prop)}"
        if function.type != "identifier":
            return None
        module, imported = self.import_of(self.pf.text(function))
        return module, imported or self.pf.text(function)

    def promised_by(self, name: Any) -> Any:
        """The call whose promise a `.then((sub) => ...)` callback's parameter `name` is the result of."""
        node = name.parent
        while node is not None and node.type not in ("arrow_function", "function_expression", "function"):
            node = node.parent
        if node is None:
            return None
        params = node.child_by_field_name("parameters") or node.child_by_field_name("parameter")
        first = params if params is not None and params.type == "identifier" else (
            params.named_children[0] if params is not None and params.named_children else None)
        if first is None or self.pf.text(first) != self.pf.text(name):
            return None
        args = node.parent
        then = args.parent if args is not None and args.type == "arguments" else None
        function = then.child_by_field_name("function") if then is not None and then.type == "call_expression" else None
        if function is None or function.type != "member_expression" or \
                self.pf.text(function.child_by_field_name("property")) != "then":
            return None
        promised = _unwrap_js(function.child_by_field_name("object"))
        return promised if promised is not None and promised.type == "call_expression" else None

    def dynamic_import_of(self, call: Any) -> str | None:
        """'./x.js' of `import('./x.js')`."""
        function = call.child_by_field_name("function")
        if function is None or function.type != "import":
            return None
        args = js_args(call.child_by_field_name("arguments"))
        return js_string(self.pf, args[0]) if args else None

    def require_of(self, call: Any) -> str | None:
        """'./x' of `require('./x')` (the callee's length first: most calls are not require), also
        as TypeScript's and Babel's output wraps it: `__importDefault(require('./x'))`."""
        function = call.child_by_field_name("function")
        if function is None:
            return None
        if function.end_byte - function.start_byte != 7 or self.pf.text(function) != "require":
            if self.pf.text(function) not in _JS_INTEROP:
                return None
            args = js_args(call.child_by_field_name("arguments"))
            inner = _unwrap_js(args[0]) if len(args) == 1 else None
            return self.require_of(inner) if inner is not None and inner.type == "call_expression" else None
        args = js_args(call.child_by_field_name("arguments"))
        return js_string(self.pf, args[0]) if args else None

    def route_module(self, name: str) -> bool:
        """Whether `name` is the koa-route module (its get/post... make a route's middleware)."""
        if name not in self._route_modules:
            self._route_modules[name] = self.import_of(name)[0] == "koa-route"
        return self._route_modules[name]

    def import_of(self, name: str) -> tuple[str | None, str | None]:
        """(specifier, name there) when `name` is bound by an import or a require of a module
        (a default import is "default"), else (None, None): the file's own binding."""
        for node in self.declarators:  # const users = require('./users'); const { users } = require('./x')
            value = _unwrap_js(node.child_by_field_name("value"))
            binding = node.child_by_field_name("name")
            if value is not None and value.type == "await_expression" and value.named_children:
                value = _unwrap_js(value.named_children[0])  # const { x } = await import('./x.js')
            if value is None or binding is None or value.type != "call_expression":
                continue
            spec = self.require_of(value) or self.dynamic_import_of(value)
            if spec is None:
                continue
            if binding.type == "identifier" and self.pf.text(binding) == name:
                return spec, "default"
            if binding.type == "object_pattern":
                for part in binding.named_children:
                    if part.type == "shorthand_property_identifier_pattern" and self.pf.text(part) == name:
                        return spec, name
                    if part.type == "pair_pattern" and self.pf.text(part.child_by_field_name("value")) == name:
                        return spec, self.key(part.child_by_field_name("key"))
        for node in self.imports:
            source = node.child_by_field_name("source")
            spec = js_string(self.pf, source) if source is not None else None
            clause = next((c for c in node.named_children if c.type == "import_clause"), None)
            if spec is None or clause is None:
                continue
            for part in clause.named_children:
                if part.type == "identifier" and self.pf.text(part) == name:
                    return spec, "default"
                if part.type == "named_imports":
                    for specifier in part.named_children:
                        imported, alias = specifier.child_by_field_name("name"), specifier.child_by_field_name("alias")
                        if self.pf.text(alias if alias is not None else imported) == name:
                            return spec, self.pf.text(imported)
        return None, None

    # HTTP
    def server_framework(self) -> str | None:
        for module, framework in JS_SERVER_MODULES.items():
            if module in self.modules:
                return framework
        return None

    def http_receiver(self, receiver: Any) -> str | None:
        """The framework when routes registered on `receiver` are served, else None."""
        root = self.chain_root(receiver)
        if root is None:
            return None
        if receiver.type == "member_expression" and self.pf.text(receiver.child_by_field_name("property")) in \
                _NODE_RED_APPS and self.pf.text(receiver.child_by_field_name("object")).endswith("RED"):
            return "express"  # Node-RED's `RED.httpAdmin.get("/mynode/list", ...)`: its Express apps
        if root.type in ("new_expression", "call_expression"):
            role = self.role_of(root)
            return role[1] if role and role[0] == "http" else None  # request(app).get('/x') is supertest
        name = self.pf.text(root)
        if name in self.vars:
            role = self.vars[name]
            return role[1] if role[0] == "http" else None
        renamed = _BUNDLER_RENAME.match(name)  # `router$1`: a bundler's, where an import took `router`
        name = renamed[1] if renamed else name
        if root.type not in ("identifier", "this") or JS_CLIENT_NAMES.search(name):
            return None
        if root.type == "identifier" and self.route_module(name):
            return "koa-route"  # route.get("/x", fn), a middleware app.use() serves
        if root.type == "this" or name in _THIS_ALIASES:  # this.app.get("/", h) in a server class
            held = receiver
            while held is not None and held.type == "call_expression":  # this.app.route("/x").get(h)
                held = held.child_by_field_name("function").child_by_field_name("object") if \
                    held.child_by_field_name("function").type == "member_expression" else None
            owner = held.child_by_field_name("object") if held is not None and held.type == "member_expression" \
                else None
            prop = held.child_by_field_name("property") if owner is not None and (
                owner.type == "this" or self.pf.text(owner) in _THIS_ALIASES) else None
            if prop is not None and self.pf.text(prop) in JS_ROUTER_NAMES:
                return self.server_framework() or "express"
        framework = self.server_framework()
        if framework:
            return framework
        return "express" if name in JS_ROUTER_NAMES else None

    def http(self) -> None:
        for call, receiver, prop in self.member_info():
            if receiver is None or prop not in HTTP_VERBS and prop not in ("route", "all", "del"):
                continue
            args = js_args(call.child_by_field_name("arguments"))
            if prop in HTTP_VERBS or prop in ("all", "del"):  # app.all('/x', h): every method, as Django's path() is
                self.verb_route(call, receiver, prop, args)
            elif prop == "route" and len(args) == 1 and _unwrap_js(args[0]).type in ("object", "array"):
                framework = self.http_receiver(receiver)
                if framework is None:
                    continue
                items = _unwrap_js(args[0])
                for item in (items.named_children if items.type == "array" else [items]):
                    if item.type == "identifier":  # server.route([getSessionRoute, ...]), objects a function holds
                        item = self.local_value(item) or item
                    self.route_object(call, item, framework)

    def wrapper_routes(self) -> None:
        """Routes registered through a function of this file that takes the method and the path
        (`function At(r, e, t, i) { router[r.toLowerCase()](e, ...) }`, or a fixed verb,
        `router.get(e, ...)`): each call of it with a literal path is a route on that router."""
        wrappers: dict[str, tuple[Any, str | int, int, Any]] = {}  # name -> (router, verb or index, path index, fn)
        for call in self.calls:
            function = call.child_by_field_name("function")
            if function is None or function.type != "subscript_expression" and (
                    function.type != "member_expression" or
                    self.pf.text(function.child_by_field_name("property")) not in HTTP_VERBS):
                continue  # (most calls: decided before their arguments are read)
            args = js_args(call.child_by_field_name("arguments"))
            first = _unwrap_js(args[0]) if len(args) >= 2 else None
            if first is None or first.type != "identifier":
                continue
            outer = _js_function_around(call)
            names = js_parameter_names(self.pf, outer) if outer is not None else []
            if self.pf.text(first) not in names:
                continue
            receiver = function.child_by_field_name("object")
            if function.type == "member_expression":
                verb: str | int = self.pf.text(function.child_by_field_name("property"))
            else:
                index = _cased(self.pf, _unwrap_js(function.child_by_field_name("index")))[0]
                if index is None or index.type != "identifier" or self.pf.text(index) not in names:
                    continue
                verb = names.index(self.pf.text(index))
            name = _js_function_name(self.pf, call)
            if outer.type == "method_definition":  # a class's own, called as `this.setupAuditEndpoint(...)`
                name = "this." + self.pf.text(outer.child_by_field_name("name"))
            if name and "." not in name.removeprefix("this.") and name != "default" and \
                    self.http_receiver(receiver) is not None:
                wrappers[name] = (receiver, verb, names.index(self.pf.text(first)), outer)
        if not wrappers:
            return
        for call, (receiver, verb, at, outer) in self.calls_of(wrappers):
            if outer.start_byte <= call.start_byte < outer.end_byte:
                continue  # (the wrapper calling itself)
            args = js_args(call.child_by_field_name("arguments"))
            method = verb.upper() if isinstance(verb, str) else (
                self.resolve(args[verb]) if len(args) > verb else None)
            path = self.resolve(args[at]) if len(args) > at else None
            if method is None or method.lower() not in HTTP_VERBS or path is None or not path.startswith("/"):
                continue
            framework = self.http_receiver(receiver) or "express"
            self.out.append(_surface("http-route", _route_name(method, path), call, framework,
                                     detail={"method": method.upper(), "path": path,
                                             **self.receiver_detail(receiver)}))

    def verb_route(self, call: Any, receiver: Any, prop: str, args: list[Any]) -> None:
        # router.route('/x').get(h).post(h): the path is on the route() call the verb is chained to
        node, path, unknown = receiver, None, None
        while node is not None and node.type == "call_expression":
            inner_receiver, inner_prop = self.member(node)
            if inner_prop == "route":
                inner_args = js_args(node.child_by_field_name("arguments"))
                path = self.resolve(inner_args[0]) if len(inner_args) == 1 else None
                break
            if inner_prop not in HTTP_VERBS and inner_prop != "all":
                break
            node = inner_receiver
        if path is not None:
            if not args or not js_handler(self.pf, args[-1]):
                return
            handler_node = args[-1]
        else:
            if len(args) < 2 or not js_handler(self.pf, args[-1]):
                return  # app.get('etag fn'), axios.get('/x', {params}): not a route
            path = self.resolve(args[0])
            handler_node = args[-1]
            first = _unwrap_js(args[0])
            if path is None:  # `${constants_1.SERVERROUTESPREFIX}/loginStatus`: another module's constant
                path = self.deferred_path(first)
            if path is None:
                path, unknown = self.after_prefix(first)
            if path is None and first.type == "array":  # app.all(['/create', '/create_wallet'], h): each path
                listed = [self.resolve(item) for item in first.named_children if item.type != "comment"]
                if listed and all(p is not None for p in listed):
                    for each in dict.fromkeys(listed):
                        self.verb_route_at(call, receiver, prop, handler_node, each, None)
                    return
            looped = self.looped_paths(first) if path is None else None
            if looped:  # `for (const p of ['/a', '/b']) app.get(p, h)`, `/${idp}/authorize` for each idp
                for each in dict.fromkeys(looped):
                    self.verb_route_at(call, receiver, prop, handler_node, each, None)
                return
            branch = self.branch_prefix(first, call) if path is not None and unknown is None else None
            if branch is not None:  # served under the branch's prefix too, when its condition holds
                self.verb_route_at(call, receiver, prop, handler_node, branch + path, None)
        self.verb_route_at(call, receiver, prop, handler_node, path, unknown)

    def branch_prefix(self, first: Any, call: Any) -> str | None:
        """The prefix an `if` of the function puts before the path's base, ahead of the route:
        lockit's `var route = config.signup.route || '/signup'; if (config.rest) {route = '/rest' +
        route; }` serves `/signup` and, with that setting, `/rest/signup` (and `route + '/:token'`
        under both). A prefix set any other way is not read."""
        root = _unwrap_js(first)
        while root is not None and root.type == "binary_expression" and \
                self.pf.text(root.child_by_field_name("operator")) == "+":
            root = _unwrap_js(root.child_by_field_name("left"))
        if root is None or root.type not in ("identifier", "member_expression"):
            return None
        written = "".join(self.pf.text(root).split())
        function = _js_function_around(call)
        body = function.child_by_field_name("body") if function is not None else None
        for stmt in body.named_children if body is not None and body.type == "statement_block" else ():
            if stmt.start_byte >= call.start_byte:
                break
            branch = stmt.child_by_field_name("consequence") if stmt.type == "if_statement" else None
            for inner in (branch.named_children if branch is not None and branch.type == "statement_block"
                          else [branch] if branch is not None else []):
                assigned = inner.named_children[0] if inner.type == "expression_statement" and \
                    inner.named_children else None
                right = assigned.child_by_field_name("right") if assigned is not None and \
                    assigned.type == "assignment_expression" else None
                if right is None or "".join(self.pf.text(assigned.child_by_field_name("left")).split()) != written \
                        or right.type != "binary_expression" or self.pf.text(right.child_by_field_name("operator")) \
                        != "+" or "".join(self.pf.text(right.child_by_field_name("right")).split()) != written:
                    continue
                prefix = js_string(self.pf, right.child_by_field_name("left"))
                if prefix and prefix.startswith("/") and not prefix.endswith("/") and " " not in prefix:
                    return prefix
        return None

    def verb_first(self) -> None:
        """Routes registered with the method first: `router.on(['GET', 'HEAD'], '/x', h)`,
        `this.route('POST', '/login', mw, req => ...)`. A literal verb, then a path, then a handler is
        what makes a call a route, whatever its receiver (parse-server's PromiseRouter subclasses
        register on `this`, which no framework names)."""
        taken = {s.line for s in self.out if s.kind == "http-route"}
        for call, receiver, prop in self.member_info():
            if receiver is None or prop not in _JS_VERB_FIRST_CALLS or line_of(call) in taken:
                continue
            args = js_args(call.child_by_field_name("arguments"))
            if len(args) < 3 or not js_handler(self.pf, args[-1]):
                continue
            first = _unwrap_js(args[0])
            verbs = [self.resolve(item) for item in first.named_children if item.type != "comment"] \
                if first.type == "array" else [self.resolve(first)]
            if not verbs or any(verb is None or verb.lower() not in HTTP_VERBS for verb in verbs):
                continue
            path = self.resolve(args[1]) or self.deferred_path(_unwrap_js(args[1]))
            framework = self.http_receiver(receiver) or "express"
            for verb in dict.fromkeys(verb.lower() for verb in verbs):
                self.verb_route_at(call, receiver, verb, args[-1], path, None, framework)

    def deferred_path(self, node: Any) -> str | None:
        """A template literal or `+` whose unknown parts are constants of modules of the package it
        imports (`constants_1.SERVERROUTESPREFIX` of `require("./constants")`, a named import):
        those parts left as DEFERRED + "js:<specifier>#<name>" + DEFERRED for assembly to read
        (deferred_paths.py); None when any other part is unknown, or none is another module's."""
        pieces: list[Any] = []
        if node is not None and node.type == "template_string":
            for child in node.children:
                if child.type == "escape_sequence":
                    return None
                if child.type == "string_fragment":
                    pieces.append(self.pf.text(child))
                elif child.type == "template_substitution":
                    inner = [c for c in child.named_children if c.type != "comment"]
                    pieces.append(inner[0] if len(inner) == 1 else None)
        elif node is not None and node.type == "binary_expression" and \
                self.pf.text(node.child_by_field_name("operator")) == "+":
            pieces = [node.child_by_field_name("left"), node.child_by_field_name("right")]
        else:
            return None
        out, deferred = [], False
        for piece in pieces:
            if isinstance(piece, str):
                out.append(piece)
                continue
            value = self.resolve(piece) if piece is not None else None
            if value is None and piece is not None:
                value = self.imported_constant(_unwrap_js(piece))
                deferred = deferred or value is not None
            if value is None:
                return None
            out.append(value)
        return "".join(out) if deferred else None

    def imported_constant(self, node: Any) -> str | None:
        """DEFERRED + "js:<specifier>#<name>" + DEFERRED for a constant of a relative module this
        file imports (`constants_1.PREFIX`, `C.PREFIX` of `import * as C`, a named import), else None."""
        if node is None:
            return None
        if node.type == "member_expression" and node.child_by_field_name("object").type == "identifier":
            module = self.pf.text(node.child_by_field_name("object"))
            spec, there = self.import_of(module)
            if spec is None:
                spec, there = self.namespace_import(module), "*"
            name = self.pf.text(node.child_by_field_name("property"))
            if there not in ("default", "*"):
                return None
        elif node.type == "identifier":
            spec, name = self.import_of(self.pf.text(node))
            if name in (None, "default", "*"):
                return None
        else:
            return None
        if spec is None or not spec.startswith("."):
            return None
        return f"{DEFERRED}js:{spec}#{name}{DEFERRED}"

    def namespace_import(self, name: str) -> str | None:
        """The specifier of `import * as name from '...'`, else None."""
        for node in self.imports:
            source = node.child_by_field_name("source")
            clause = next((c for c in node.named_children if c.type == "import_clause"), None)
            for part in clause.named_children if clause is not None else ():
                if part.type == "namespace_import" and any(
                        c.type == "identifier" and self.pf.text(c) == name for c in part.named_children):
                    return js_string(self.pf, source) if source is not None else None
        return None

    def verb_route_at(self, call: Any, receiver: Any, prop: str, handler_node: Any, path: str | None,
                      unknown: str | None, framework: str | None = None) -> None:
        if path is None or not path.startswith(("/", "{/", DEFERRED)):
            return
        framework = framework or self.http_receiver(receiver)
        wrapped = self.wrapper_of(receiver) if framework is None else None
        if wrapped is not None:  # kept in assembly only if that class passes its verbs to a router
            framework = "express"
        elif framework is None and self.named_server(receiver, handler_node):
            framework = "express"
        elif framework is None:
            return
        handler = self.pf.text(handler_node) if _unwrap_js(handler_node).type in (
            "identifier", "member_expression") else None
        method = "ANY" if prop == "all" else "DELETE" if prop == "del" else prop.upper()  # del: koa-router's alias
        forms = [each for alternative in _alternatives(path) for each in _optional_forms(alternative)] \
            if framework == "express" else [path]
        for form in forms:
            if form.startswith(("/", DEFERRED)):  # (another module's constant: read in assembly)
                self.out.append(_surface("http-route", _route_name(method, form), call, framework, handler=handler,
                                         detail={"method": method, "path": form, **self.receiver_detail(receiver),
                                                 **({"template": path} if form != path else {}),
                                                 **({"prefix_unknown": unknown} if unknown else {}),
                                                 **({"wrapper": wrapped} if wrapped else {}),
                                                 **({"asset": True} if js_serves_file(self.pf, handler_node) else {})}))

    def named_server(self, receiver: Any, handler: Any) -> bool:
        """`httpServer.post(`${basePath}/upload`, async (req, res) => ...)`: a receiver named for a
        server, router or app (`httpServer`, `apiRouter`) given a handler of a request and a response."""
        if receiver is None or receiver.type != "identifier" or \
                _NAMED_SERVER.fullmatch(self.pf.text(receiver)) is None:
            return False
        function = _unwrap_js(handler)
        names = js_parameter_names(self.pf, function) if function is not None and function.type in _JS_FUNCTIONS \
            else []
        return len(names) >= 2 and names[0] in ("req", "request") and names[1] in ("res", "reply", "response")

    def wrapper_of(self, receiver: Any) -> dict[str, Any] | None:
        """{"module", "class", "base"} when `receiver` is a name bound to an instance of a class
        another module of this tree exports (`const admin = new Admin(opts)`, `var c =
        module.exports = new Controller('/packages')`): a package's own wrapper of a router, maybe
        (miners/router_wrappers.py decides, in assembly); `base`: the constructor's literal path."""
        if receiver is None or receiver.type != "identifier":
            return None
        text, value = self.pf.text(receiver), None
        for node in self.declarators:
            binding = node.child_by_field_name("name")
            if binding is not None and binding.type == "identifier" and self.pf.text(binding) == text:
                value = _unwrap_js(node.child_by_field_name("value"))
        while value is not None and value.type == "assignment_expression":
            value = _unwrap_js(value.child_by_field_name("right"))
        made = value.child_by_field_name("constructor") if value is not None and value.type == "new_expression" \
            else None
        spec = self.import_of(self.pf.text(made))[0] if made is not None and made.type == "identifier" else None
        if spec is None or not spec.startswith("."):
            return None
        args = js_args(value.child_by_field_name("arguments"))
        base = self.resolve(args[0]) if args else None
        return {"module": spec, "class": self.pf.text(made),
                **({"base": base} if base is not None and base.startswith("/") else {})}

    def looped_paths(self, node: Any) -> list[str] | None:
        """The paths a loop variable takes over a literal list, as a route's path (`for (const path of
        oidcPaths) fastify.route({url: path, ...})`, `['/a', '/b'].forEach((p) => app.get(p, h))`),
        or a template literal of one (loop_paths); None when they are not known."""
        node = _unwrap_js(node)
        if node is None:
            return None
        if node.type == "template_string":
            return self.loop_paths(node)
        looped = self.loop_variable(node)
        if looped is None:
            return None
        (_, taken), case = looped
        return [v.lower() if case == "toLowerCase" else v.upper() if case == "toUpperCase" else v for v in taken]

    def loop_paths(self, template: Any) -> list[str] | None:
        """The paths a template literal gives, one per value of the loop variable it names
        (`for (const idp of ['singPass', 'corpPass'])`, `['a', 'b'].forEach((k) => ...)`), also
        lower- or upper-cased; None when a part is not known."""
        parts: list[str | tuple[str, str | None]] = []  # text, or (a loop variable, its case)
        values: dict[str, list[str]] = {}
        for child in template.children:
            if child.type == "string_fragment":
                parts.append(self.pf.text(child))
            elif child.type == "escape_sequence":
                return None
            elif child.type == "template_substitution":
                inner = [c for c in child.named_children if c.type != "comment"]
                if len(inner) != 1:
                    return None
                known = self.resolve(inner[0])
                if known is not None:
                    parts.append(known)
                    continue
                looped = self.loop_variable(inner[0])
                if looped is None:
                    return None
                (name, taken), case = looped
                values[name] = taken
                parts.append((name, case))
        if not values or math.prod(len(v) for v in values.values()) > 64:
            return None
        out = []
        for chosen in itertools.product(*values.values()):  # one value of each variable at a time
            value = dict(zip(values, chosen))
            out.append("".join(p if isinstance(p, str) else
                               value[p[0]].lower() if p[1] == "toLowerCase" else
                               value[p[0]].upper() if p[1] == "toUpperCase" else value[p[0]] for p in parts))
        return out

    def loop_variable(self, node: Any) -> tuple[tuple[str, list[str]], str | None] | None:
        """((a loop variable, the strings it takes over a literal list, or a name the two literals of
        a conditional it is bound to), the case it is turned to: `idp`, `idp.toLowerCase()`), or None."""
        node, case = _cased(self.pf, node)
        if node is None or node.type != "identifier":
            return None
        items = self.looped_table(node)
        if items is None:  # a name bound to a choice of two literals: `hasConfig ? '/:config?' : ''`
            value = self.local_value(node)
            if value is None or value.type != "ternary_expression":
                return None
            taken = [self.resolve(value.child_by_field_name(side)) for side in ("consequence", "alternative")]
            return None if any(v is None for v in taken) else ((self.pf.text(node), taken), case)  # type: ignore[misc]
        if not 0 < items.named_child_count <= 32:
            return None
        taken = [self.resolve(item) for item in items.named_children]
        return None if any(v is None for v in taken) else ((self.pf.text(node), taken), case)  # type: ignore[misc]

    def route_object(self, call: Any, item: Any, framework: str) -> None:
        """fastify.route({method, url, handler}), hapi server.route({method, path, handler})."""
        fields = self.object_fields(item)
        given = fields.get("url") or fields.get("path")
        path = self.resolve(given)
        paths = [path] if path is not None else self.looped_paths(given) or []
        methods = self.literal(fields["method"]) if "method" in fields else UNRESOLVED
        if methods is UNRESOLVED:
            return
        if "path" in fields and "url" not in fields and framework == "express":
            framework = "hapi"
        handler = fields.get("handler")
        for path in dict.fromkeys(p for p in paths if p.startswith("/")):
            for method in methods if isinstance(methods, list) else [methods]:
                method = "ANY" if str(method) == "*" else str(method).upper()
                self.out.append(_surface("http-route", _route_name(method, path), item, framework,
                                         handler=self.pf.text(handler) if handler is not None and handler.type in (
                                             "identifier", "member_expression") else None,
                                         detail={"method": method, "path": path,
                                                 **self.receiver_detail(call.child_by_field_name("function")
                                                                        .child_by_field_name("object"))}))

    # MCP
    def mcp_receiver(self, receiver: Any) -> bool:
        root = self.chain_root(receiver)
        if root is None:
            return False
        name = self.pf.text(root)
        if name in self.vars:
            return self.vars[name][0] == "mcp"
        if root.type == "member_expression" or root.type == "this":
            name = self.pf.text(receiver)
        mcp_imported = any("modelcontextprotocol" in m or "mcp" in m.lower() for m in self.modules)
        return mcp_imported or bool(_SERVERISH.search(name))

    def mcp(self) -> None:
        for call, receiver, prop in self.member_info():
            if prop not in ("registerTool", "tool", "registerResource", "resource", "setRequestHandler",
                            "addTool", "addResource"):
                continue
            if not self.mcp_receiver(receiver):
                continue
            args = js_args(call.child_by_field_name("arguments"))
            if prop == "setRequestHandler":
                self.request_handler(call, args)
            elif prop in ("addTool", "addResource"):
                self.fastmcp_object(call, prop, args)
            elif len(args) >= 2:
                name = self.resolve(args[0])
                if name is None:
                    continue
                if prop in ("registerTool", "tool"):
                    self.tool(call, prop, name, args)
                else:
                    self.resource(call, prop, name, args)

    def handler_of(self, node: Any) -> str | None:
        node = _unwrap_js(node)
        return self.pf.text(node) if node is not None and node.type in ("identifier", "member_expression") else None

    def tool(self, call: Any, prop: str, name: str, args: list[Any]) -> None:
        description, schema, detail = "", None, {"api": prop}
        if prop == "registerTool":
            config = self.object_fields(args[1])
            description = self.resolve(config.get("description")) or ""
            title = self.resolve(config.get("title"))
            if title:
                detail["title"] = title
            schema = self.schema(config.get("inputSchema"))
            if config.get("outputSchema") is not None:
                detail["output_schema"] = self.schema(config["outputSchema"])
            if config.get("annotations") is not None:
                annotations = self.literal(config["annotations"])
                detail["annotations"] = annotations if annotations is not UNRESOLVED else None
        else:
            # tool(name, [description], [paramsSchema], [annotations], callback)
            rest, objects = args[1:-1], []
            for arg in rest:
                text = self.resolve(arg)
                if text is not None and not description:
                    description = text
                else:
                    objects.append(arg)
            if objects:
                schema = self.schema(objects[0])
            if len(objects) > 1:
                annotations = self.literal(objects[1])
                detail["annotations"] = annotations if annotations is not UNRESOLVED else None
        self.out.append(_surface("mcp-tool", name, call, "mcp", handler=self.handler_of(args[-1]),
                                 description=description, input_schema=schema, detail=detail))

    def resource(self, call: Any, prop: str, name: str, args: list[Any]) -> None:
        # registerResource(name, uriOrTemplate, metadata, cb) / resource(name, uriOrTemplate, [metadata], cb)
        target = _unwrap_js(args[1])
        uri = self.resolve(target)
        if uri is None and target.type == "new_expression":  # new ResourceTemplate("x://{id}", {...})
            template_args = js_args(target.child_by_field_name("arguments"))
            uri = self.resolve(template_args[0]) if template_args else None
        metadata = self.object_fields(args[2]) if len(args) > 3 else {}
        description = self.resolve(metadata.get("description")) or ""
        self.out.append(_surface("mcp-resource", name, call, "mcp", handler=self.handler_of(args[-1]),
                                 description=description, detail={"api": prop, **({"uri": uri} if uri else {})}))

    def fastmcp_object(self, call: Any, prop: str, args: list[Any]) -> None:
        """fastmcp (TypeScript): server.addTool({name, description, parameters, execute})."""
        if not args:
            return
        fields = self.object_fields(args[0])
        name = self.resolve(fields.get("name"))
        if name is None:
            return
        description = self.resolve(fields.get("description")) or ""
        if prop == "addTool":
            self.out.append(_surface("mcp-tool", name, call, "fastmcp", description=description,
                                     input_schema=self.schema(fields.get("parameters")),
                                     handler=self.handler_of(fields.get("execute")), detail={"api": prop}))
        else:
            uri = self.resolve(fields.get("uri"))
            self.out.append(_surface("mcp-resource", name, call, "fastmcp", description=description,
                                     detail={"api": prop, **({"uri": uri} if uri else {})}))

    def request_handler(self, call: Any, args: list[Any]) -> None:
        """setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{name, description, inputSchema}] }))."""
        if len(args) < 2:
            return
        schema_name = self.pf.text(args[0]).rsplit(".", 1)[-1]
        key, kind = {"ListToolsRequestSchema": ("tools", "mcp-tool"),
                     "ListResourcesRequestSchema": ("resources", "mcp-resource")}.get(schema_name, (None, None))
        if key is None:
            return
        local = {}  # `const tools = [...]` inside the handler, then `return { tools }`
        for declarator in descendants(args[1], "variable_declarator"):
            name_node, value_node = declarator.child_by_field_name("name"), declarator.child_by_field_name("value")
            if name_node is not None and value_node is not None and name_node.type == "identifier":
                local[self.pf.text(name_node)] = _unwrap_js(value_node)
        found = [_unwrap_js(pair.child_by_field_name("value")) for pair in descendants(args[1], "pair")
                 if self.key(pair.child_by_field_name("key")) == key]
        found += [local.get(key) for short in descendants(args[1], "shorthand_property_identifier")
                  if self.pf.text(short) == key]
        for items in found:
            if items is not None and items.type == "identifier":
                name_text = self.pf.text(items)
                items = local.get(name_text) or self.nodes.get(name_text)
            if items is None or items.type != "array":
                continue
            for item in items.named_children:
                fields = self.object_fields(item)
                name = self.resolve(fields.get("name"))
                if name is None:
                    continue
                description = self.resolve(fields.get("description")) or ""
                item_node = item if item.type == "object" else self.nodes.get(self.pf.text(item), item)
                if kind == "mcp-tool":
                    self.out.append(_surface(kind, name, item_node, "mcp", description=description,
                                             input_schema=self.schema(fields.get("inputSchema")),
                                             detail={"api": "setRequestHandler"}))
                else:
                    uri = self.resolve(fields.get("uri"))
                    self.out.append(_surface(kind, name, item_node, "mcp", description=description,
                                             detail={"api": "setRequestHandler", **({"uri": uri} if uri else {})}))

    # CLI: commander, yargs
    def cli(self) -> None:
        commander = "commander" in self.modules or any(v[0] == "commander" for v in self.vars.values())
        yargs = any(m == "yargs" or m.startswith("yargs/") for m in self.modules)
        program: dict[str, str] = {}  # commander program var -> name
        for var, (role, _, value) in self.vars.items():
            if role == "commander":
                args = js_args(value.child_by_field_name("arguments"))
                if args and self.resolve(args[0]):
                    program[var] = self.resolve(args[0])
        script_name = None
        for call, receiver, prop in self.member_info():
            if prop != "name" and prop != "scriptName":
                continue
            args = js_args(call.child_by_field_name("arguments"))
            if prop == "name" and args and self.resolve(args[0]) and receiver is not None:
                root = self.pf.text(self.chain_root(receiver))
                if root in program or root == "program":
                    program.setdefault(root, self.resolve(args[0]))
            if prop == "scriptName" and args and self.resolve(args[0]):
                script_name = self.resolve(args[0])
        paths: dict[int, tuple[bool, list[str]]] = {}  # command call id -> (program known, path)
        var_paths: dict[str, tuple[bool, list[str]]] = {v: (True, [n]) for v, n in program.items()}
        for call, receiver, prop in self.member_info():
            if prop not in ("command", "addCommand") or receiver is None:
                continue
            root = self.chain_root(receiver)
            root_name = self.pf.text(root) if root is not None else ""
            if not (commander or yargs or root_name in ("program", "yargs", "cli")):
                continue
            args = js_args(call.child_by_field_name("arguments"))
            if not args:
                continue
            is_yargs = _unwrap_js(args[0]).type == "object" or (yargs and not commander) or (
                yargs == commander and len(args) >= 3)
            if prop == "addCommand":
                added = self.pf.text(args[0])
                if added in self.vars and self.vars[added][0] == "commander" and added in program:
                    known, prefix = self.commander_prefix(receiver, paths, var_paths)
                    self.out.append(_surface("cli-subcommand", " ".join(prefix + [program[added]]), call,
                                             "commander", detail={"program_known": known}))
                continue
            if is_yargs:
                self.yargs_command(call, args, script_name)
                continue
            spec = self.resolve(args[0])
            if spec is None:
                continue
            known, prefix = self.commander_prefix(receiver, paths, var_paths)
            path = prefix + [_first_word(spec)]
            paths[call.id] = (known, path)
            description = self.resolve(args[1]) if len(args) > 1 else None
            handler = None
            top = call
            for method, outer in self.chain_up(call):
                outer_args = js_args(outer.child_by_field_name("arguments"))
                if method in ("description", "summary") and outer_args and not description:
                    description = self.resolve(outer_args[0])
                elif method == "action" and outer_args:
                    handler = self.handler_of(outer_args[0])
                elif method == "command":
                    break
                top = outer
            declarator = top.parent
            if declarator is not None and declarator.type == "variable_declarator":
                var_paths[self.pf.text(declarator.child_by_field_name("name"))] = (known, path)
            self.out.append(_surface("cli-subcommand", " ".join(path), call, "commander", handler=handler,
                                     description=description or "",
                                     detail={"program_known": known, "spec": spec}))

    def commander_prefix(self, receiver: Any, paths: dict[int, tuple[bool, list[str]]],
                         var_paths: dict[str, tuple[bool, list[str]]]) -> tuple[bool, list[str]]:
        node = receiver
        while node is not None and node.type == "call_expression":
            if node.id in paths:
                return paths[node.id]
            node, _ = self.member(node)
        root = self.chain_root(receiver)
        return var_paths.get(self.pf.text(root) if root is not None else "", (False, []))

    def yargs_command(self, call: Any, args: list[Any], script_name: str | None) -> None:
        first = _unwrap_js(args[0])
        handler = None
        if first.type == "object":  # .command({command, describe, builder, handler})
            fields = self.object_fields(first)
            spec_node, description = fields.get("command"), self.resolve(
                fields.get("describe") or fields.get("description") or fields.get("desc"))
            handler = self.handler_of(fields.get("handler"))
        else:
            spec_node = first
            description = self.resolve(args[1]) if len(args) > 1 else None
            handler = self.handler_of(args[3]) if len(args) > 3 else None
        spec_node = _unwrap_js(spec_node)
        if spec_node is not None and spec_node.type == "array":  # ['serve', 's']: name and aliases
            spec_node = spec_node.named_child(0) if spec_node.named_child_count else None
        spec = self.resolve(spec_node)
        if spec is None:
            return
        word = _first_word(spec)
        prefix = [script_name] if script_name else []
        if word in ("$0", "*"):  # the default command: the program itself
            path, kind = prefix, "cli-command"
        else:
            path, kind = prefix + [word], "cli-subcommand"
        self.out.append(_surface(kind, " ".join(path), call, "yargs", handler=handler, description=description or "",
                                 detail={"program_known": script_name is not None, "spec": spec}))


# --- Go ---------------------------------------------------------------------------------------------------

GO_FRAMEWORKS = {"github.com/gin-gonic/gin": "gin", "github.com/labstack/echo": "echo", "github.com/go-chi/chi": "chi",
                 "github.com/gofiber/fiber": "fiber", "github.com/gorilla/mux": "gorilla"}
GO_VERBS = {v.upper(): v.upper() for v in HTTP_VERBS} | {v.title(): v.upper() for v in HTTP_VERBS}


def go_string(pf: ParsedFile, node: Any) -> str | None:
    if node is None:
        return None
    if node.type == "raw_string_literal":
        return pf.text(node)[1:-1]
    if node.type == "interpreted_string_literal":
        try:
            return literal_eval(pf.text(node))
        except (ValueError, SyntaxError):
            return None
    return None


class _Go:
    def __init__(self, pf: ParsedFile) -> None:
        self.pf = pf
        caps = collect_file(pf, "surfaces")
        self.calls = caps.get("call", [])
        self.composites = caps.get("composite", [])
        self.framework = "net/http"
        for node in caps.get("import", []):
            path = go_string(pf, node.child_by_field_name("path")) or ""
            for prefix, framework in GO_FRAMEWORKS.items():
                if path.startswith(prefix):
                    self.framework = framework
        self.strings: dict[str, str] = {}
        for node in caps.get("const", []):
            names, value = node.children_by_field_name("name"), node.child_by_field_name("value")
            values = value.named_children if value is not None else []
            for name, v in zip(names, values):
                if go_string(pf, v) is not None:
                    self.strings[pf.text(name)] = go_string(pf, v)
        self.bindings: dict[str, Any] = {}  # var -> value node (v1 := r.Group("/v1"), rootCmd = &cobra.Command{})
        for node in caps.get("declarator", []):
            left = node.child_by_field_name("left") or node.child_by_field_name("name")
            right = node.child_by_field_name("right") or node.child_by_field_name("value")
            if left is None or right is None:
                continue
            lefts = left.named_children if left.type == "expression_list" else [left]
            rights = right.named_children if right.type == "expression_list" else [right]
            for name, value in zip(lefts, rights):
                self.bindings[pf.text(name)] = value
        self.out: list[Surface] = []

    def resolve(self, node: Any) -> str | None:
        if node is None:
            return None
        return go_string(self.pf, node) if node.type != "identifier" else self.strings.get(self.pf.text(node))

    def selector(self, call: Any) -> tuple[Any, str]:
        function = call.child_by_field_name("function")
        if function is None or function.type != "selector_expression":
            return None, ""
        return function.child_by_field_name("operand"), self.pf.text(function.child_by_field_name("field"))

    def prefix(self, receiver: Any, depth: int = 0) -> str:
        """The Group("/v1") prefixes a receiver was made from."""
        if receiver is None or depth > 10:
            return ""
        if receiver.type == "identifier" and self.pf.text(receiver) in self.bindings:
            receiver = self.bindings[self.pf.text(receiver)]
        if receiver.type == "call_expression":
            inner, field = self.selector(receiver)
            args = js_args(receiver.child_by_field_name("arguments"))
            if field in ("Group", "PathPrefix") and args and self.resolve(args[0]) is not None:
                return _join_paths(self.prefix(inner, depth + 1), self.resolve(args[0]))
        return ""

    def run(self) -> list[Surface]:
        self.http()
        self.cobra()
        self.mcp()
        return self.out

    def http(self) -> None:
        for call in self.calls:
            receiver, field = self.selector(call)
            args = js_args(call.child_by_field_name("arguments"))
            if receiver is None or len(args) < 2:
                continue
            methods: list[str]
            if field in ("HandleFunc", "Handle") and self.resolve(args[0]) is not None:
                pattern = self.resolve(args[0])
                method, _, rest = pattern.partition(" ")  # Go 1.22 patterns: "GET /items/{id}"
                if rest and method.isupper():
                    methods, path = [method], rest.strip()
                else:
                    methods, path = ["ANY"], pattern
                parent = call.parent  # gorilla: r.HandleFunc("/x", h).Methods("GET", "POST")
                if parent is not None and parent.type == "selector_expression" and self.pf.text(
                        parent.child_by_field_name("field")) == "Methods" and parent.parent.type == "call_expression":
                    listed = [self.resolve(a) for a in js_args(parent.parent.child_by_field_name("arguments"))]
                    methods = [m.upper() for m in listed if m] or methods
                framework = self.framework if self.framework in ("gorilla", "chi") else "net/http"
            elif field in GO_VERBS and self.resolve(args[0]) is not None:
                methods, path, framework = [GO_VERBS[field]], self.resolve(args[0]), self.framework
            elif field in ("Handle", "Method", "Any") and len(args) >= 3 and self.resolve(args[1]) is not None:
                method = self.resolve(args[0]) if field != "Any" else "ANY"  # gin Handle("GET", "/x", h)
                methods, path, framework = [(method or "ANY").upper()], self.resolve(args[1]), self.framework
            else:
                continue
            if not path.startswith("/"):
                continue
            full = _join_paths(self.prefix(receiver), path)
            handler = args[-1]
            for method in methods:
                self.out.append(_surface(
                    "http-route", _route_name(method, full), call, framework,
                    handler=self.pf.text(handler) if handler.type in ("identifier", "selector_expression") else None,
                    detail={"method": method, "path": full}))

    def fields(self, literal: Any) -> dict[str, Any]:
        body = literal.child_by_field_name("body")
        out = {}
        for element in body.named_children if body is not None else []:
            if element.type == "keyed_element" and len(element.named_children) == 2:
                key, value = element.named_children
                key = key.named_children[0] if key.type == "literal_element" and key.named_children else key
                value = value.named_children[0] if value.type == "literal_element" and value.named_children else value
                out[self.pf.text(key)] = value
        return out

    def cobra(self) -> None:
        commands: dict[str, tuple[Any, str, str]] = {}  # var -> (literal, name, short)
        for literal in self.composites:
            if self.pf.text(literal.child_by_field_name("type")) != "cobra.Command":
                continue
            fields = self.fields(literal)
            use = self.resolve(fields.get("Use"))
            if use is None:
                continue
            var = None
            for name, value in self.bindings.items():
                if value == literal or value == literal.parent:
                    var = name
            commands[var or f"#{literal.id}"] = (literal, _first_word(use), self.resolve(fields.get("Short")) or "")
        parents: dict[str, str] = {}
        for call in self.calls:
            receiver, field = self.selector(call)
            if field == "AddCommand" and receiver is not None and self.pf.text(receiver) in commands:
                for arg in js_args(call.child_by_field_name("arguments")):
                    parents[self.pf.text(arg)] = self.pf.text(receiver)

        def path(var: str, depth: int = 0) -> list[str]:
            parent = parents.get(var)
            return ([] if parent is None or depth > 20 else path(parent, depth + 1)) + [commands[var][1]]

        for var, (literal, name, short) in commands.items():
            self.out.append(_surface("cli-subcommand" if var in parents else "cli-command", " ".join(path(var)),
                                     literal, "cobra", description=short, detail={"program_known": True}))

    def mcp(self) -> None:
        """mcp-go: mcp.NewTool("name", mcp.WithDescription("..."), ...)."""
        for call in self.calls:
            receiver, field = self.selector(call)
            if field not in ("NewTool", "NewResource") or receiver is None:
                continue
            args = js_args(call.child_by_field_name("arguments"))
            name = self.resolve(args[0]) if args else None
            if name is None:
                continue
            description, uri = "", None
            for arg in args[1:]:
                if arg.type == "call_expression" and self.selector(arg)[1] == "WithDescription":
                    inner = js_args(arg.child_by_field_name("arguments"))
                    description = self.resolve(inner[0]) if inner else ""
            if field == "NewResource":  # mcp.NewResource(uri, name, ...)
                uri, name = name, self.resolve(args[1]) if len(args) > 1 else name
            self.out.append(_surface("mcp-tool" if field == "NewTool" else "mcp-resource", name or uri, call, "mcp-go",
                                     description=description or "", detail={"uri": uri} if uri else {}))
