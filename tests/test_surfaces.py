"""miners.surfaces: CLI commands, HTTP routes and MCP tools/resources from real-looking sources."""

from __future__ import annotations

import textwrap

import pytest

from miners.facts import ParsedFile
from miners.parsing import parse
from miners.surfaces import derived_name, extract_surfaces
from tests.conftest import mined_routes


def surfaces(language: str, source: str, path: str = "src/app"):
    data = textwrap.dedent(source).lstrip("\n").encode()
    return extract_surfaces(ParsedFile(path, language, data, parse(language, data)))


def by_name(found, kind: str | None = None):
    return {s.name: s for s in found if kind is None or s.kind == kind}


# --- Python CLIs ------------------------------------------------------------------------------------------


def test_click_groups_subcommands_add_command_and_derived_names():
    found = surfaces("python", '''
        import click

        @click.group()
        def cli():
            """Manage the tool."""

        @cli.command("init", help="Create a workspace")
        def init_cmd():
            pass

        @cli.group()
        def remote():
            """Manage remotes."""

        @remote.command()
        @click.argument("url")
        def add_url_command(url):
            """Add a remote by URL.

            Longer text."""

        @click.command()
        def standalone():
            pass

        cli.add_command(standalone, name="solo")
        ''')
    names = by_name(found)
    assert set(names) == {"cli", "cli init", "cli remote", "cli remote add-url", "cli solo"}
    assert names["cli"].kind == "cli-command" and names["cli"].description == "Manage the tool."
    assert names["cli init"].kind == "cli-subcommand" and names["cli init"].description == "Create a workspace"
    assert names["cli init"].handler == "init_cmd" and names["cli init"].line == 7
    assert names["cli remote add-url"].description == "Add a remote by URL."
    assert all(s.framework == "click" and s.detail["program_known"] for s in found)


def test_click_derived_names_follow_click():
    assert derived_name("hello_world") == "hello-world"
    assert derived_name("init_command") == "init"
    assert derived_name("Sync_Group") == "sync"
    assert derived_name("command") == "command"


def test_typer_commands_sub_apps_and_lone_command():
    found = surfaces("python", '''
        import typer

        app = typer.Typer()
        users = typer.Typer()
        app.add_typer(users, name="users")

        @app.command()
        def hello_world(name: str):
            """Say hello."""

        @users.command("create", help="Create a user")
        def create_user():
            pass
        ''')
    names = by_name(found)
    assert set(names) == {"hello-world", "users create"}
    assert names["hello-world"].kind == "cli-subcommand" and names["hello-world"].description == "Say hello."
    assert names["users create"].description == "Create a user" and names["users create"].handler == "create_user"
    assert not names["users create"].detail["program_known"]

    lone = surfaces("python", '''
        import typer

        app = typer.Typer()

        @app.command()
        def main(path: str):
            pass
        ''')
    assert [(s.kind, s.name, s.handler) for s in lone] == [("cli-command", "", "main")]


def test_argparse_subparsers_nested_with_prog_and_handlers():
    found = surfaces("python", '''
        import argparse

        def main():
            parser = argparse.ArgumentParser(prog="deploy", description="Deploy things")
            sub = parser.add_subparsers(dest="command")
            build = sub.add_parser("build", help="Build the site")
            build.set_defaults(func=run_build)
            targets = build.add_subparsers()
            targets.add_parser("docs", help="Only the docs")
            sub.add_parser("serve")
        ''')
    names = by_name(found)
    assert set(names) == {"deploy", "deploy build", "deploy build docs", "deploy serve"}
    assert names["deploy"].kind == "cli-command" and names["deploy"].description == "Deploy things"
    assert names["deploy build"].handler == "run_build" and names["deploy build"].line == 6
    assert names["deploy build docs"].description == "Only the docs"

    unnamed = surfaces("python", '''
        import argparse
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers()
        sub.add_parser("sync", help="Sync now")
        ''')
    assert [(s.kind, s.name, s.detail["program_known"]) for s in unnamed] == [("cli-subcommand", "sync", False)]


# --- Python HTTP ------------------------------------------------------------------------------------------


def test_fastapi_routes_with_router_prefix_and_api_route_methods():
    found = surfaces("python", '''
        from fastapi import APIRouter, FastAPI

        app = FastAPI()
        router = APIRouter(prefix="/items")

        @app.get("/health", summary="Liveness")
        async def health():
            return {"ok": True}

        @router.post("/")
        def create_item(item: dict):
            """Create an item."""

        @router.api_route("/{item_id}", methods=["GET", "DELETE"])
        def item(item_id: int):
            pass
        ''')
    names = by_name(found, "http-route")
    assert set(names) - {"GET /openapi.json", "GET /docs", "GET /docs/oauth2-redirect", "GET /redoc"} == {
        "GET /health", "POST /items/", "GET /items/{item_id}", "DELETE /items/{item_id}"}  # (FastAPI()'s own pages)
    assert names["GET /health"].framework == "fastapi" and names["GET /health"].description == "Liveness"
    assert names["POST /items/"].handler == "create_item" and names["POST /items/"].description == "Create an item."
    assert names["GET /health"].line == 6


def test_flask_routes_default_get_several_methods_blueprints_and_no_literal_path():
    found = surfaces("python", '''
        from flask import Blueprint, Flask

        app = Flask(__name__)
        bp = Blueprint("admin", __name__, url_prefix="/admin")
        PATH = compute_path()

        @app.route("/login", methods=["GET", "POST"])
        def login():
            pass

        @app.route("/about")
        def about():
            pass

        @bp.get("/users")
        def users():
            pass

        @app.route(PATH)
        def dynamic():
            pass

        app.add_url_rule("/legacy", "legacy", legacy_view, methods=["PUT"])
        ''')
    assert sorted(s.name for s in found) == ["GET /about", "GET /admin/users", "GET /login", "POST /login",
                                             "PUT /legacy"]
    assert {s.framework for s in found} == {"flask"}
    assert by_name(found)["PUT /legacy"].handler == "legacy_view"


def test_django_urlpatterns_only():
    found = surfaces("python", '''
        from django.urls import include, path, re_path

        from . import views

        urlpatterns = [
            path("", views.index, name="index"),
            path("articles/<int:year>/", views.YearArchive.as_view(), name="year"),
            re_path(r"^legacy/(?P<slug>[-\\w]+)/$", views.legacy),
            path("api/", include("api.urls")),
        ]
        urlpatterns += [path("extra/", views.extra)]
        helpers = [path("not-a-route/", views.other)]
        ''', path="site/urls.py")
    names = by_name(found)
    assert set(names) == {"ANY /", "ANY /articles/<int:year>/", "ANY /legacy/{slug}/", "ANY /extra/"}  # a regex read
    assert names["ANY /articles/<int:year>/"].handler == "views.YearArchive"
    assert names["ANY /"].detail["name"] == "index" and names["ANY /"].framework == "django"


# --- Python MCP -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("constructor, module", [("FastMCP", "mcp.server.fastmcp"), ("MCPServer", "mcp.server")])
def test_python_mcp_tools_and_resources_fastmcp_and_mcpserver(constructor, module):
    found = surfaces("python", f'''
        from enum import Enum

        from {module} import {constructor}

        server = {constructor}("demo")
        FETCH = "fetch_url"

        class Tools(str, Enum):
            SEARCH = "search"

        @server.tool()
        def add(a: int, b: int = 2) -> int:
            """Add two numbers.

            Returns the sum."""
            return a + b

        @server.tool(name=Tools.SEARCH, description="Search the index")
        def search_impl(query: str):
            pass

        @server.tool(name=FETCH)
        def fetch(url: str):
            pass

        @server.resource("config://app")
        def config() -> str:
            """The app configuration."""

        server.add_tool(helper, name="helper_tool")
        ''')
    tools = by_name(found, "mcp-tool")
    assert set(tools) == {"add", "search", "fetch_url", "helper_tool"}
    assert tools["add"].description == "Add two numbers.\n\nReturns the sum."
    assert tools["add"].detail["parameters"] == [{"name": "a", "type": "int", "required": True},
                                                 {"name": "b", "type": "int", "required": False}]
    assert tools["search"].description == "Search the index" and tools["search"].handler == "search_impl"
    assert tools["helper_tool"].handler == "helper"
    resources = by_name(found, "mcp-resource")
    assert resources["config"].detail["uri"] == "config://app"
    assert resources["config"].description == "The app configuration."


def test_python_lowlevel_mcp_tool_literal_schema():
    found = surfaces("python", '''
        from mcp import types
        from mcp.server.lowlevel import Server

        server = Server("low")

        @server.list_tools()
        async def list_tools():
            return [types.Tool(name="echo", description="Echo text",
                               inputSchema={"type": "object", "properties": {"text": {"type": "string"}}})]
        ''')
    assert [(s.kind, s.name, s.line) for s in found] == [("mcp-tool", "echo", 8)]
    assert found[0].input_schema == {"type": "object", "properties": {"text": {"type": "string"}}}


# --- JavaScript / TypeScript HTTP --------------------------------------------------------------------------


def test_express_routes_and_settings_calls_that_are_not_routes():
    found = surfaces("javascript", '''
        const express = require("express");
        const axios = require("axios");
        const app = express();
        const router = express.Router();

        app.set("etag", false);
        app.get("etag fn");
        app.enable("trust proxy");
        app.use("/api", router);
        app.all("/everything", logAll);
        app.get(routePath, handler);
        app.get("/users/:id", (req, res) => res.json({}));
        router.post("/items", auth, createItem);
        router.route("/book").get(getBook).put(putBook);
        axios.get("/users", { params: { page: 1 } });
        ''')
    assert [(s.name, s.line, s.handler) for s in found] == [
        ("ANY /everything", 10, "logAll"),  # app.all: a route of every method
        ("GET /users/:id", 12, None), ("POST /items", 13, "createItem"), ("GET /book", 14, "getBook"),
        ("PUT /book", 14, "putBook")]
    assert {s.framework for s in found} == {"express"}


def test_fastapi_serves_its_own_document_and_pages_unless_told_not_to():
    default = surfaces("python", '''
        from fastapi import FastAPI
        app = FastAPI(title="x")
        ''')
    assert [s.name for s in default] == ["GET /docs", "GET /docs/oauth2-redirect", "GET /openapi.json", "GET /redoc"]
    assert {s.detail["receiver"] for s in default} == {"app"}  # (mounted with the app)
    moved = surfaces("python", '''
        from fastapi import FastAPI
        app = FastAPI(docs_url=None, redoc_url="/api/redoc")
        none = FastAPI(openapi_url=None)
        unknown = FastAPI(docs_url=settings.DOCS_URL)

        class Server:
            def __init__(self):
                self._app = FastAPI(redoc_url=None, docs_url="/api/docs")
        ''')
    # docs_url=None drops Swagger UI and its redirect; openapi_url=None drops every page; a
    # keyword that is not a literal leaves its page unknown, so it is not given
    assert [(s.name, s.detail["receiver"]) for s in moved] == [
        ("GET /api/redoc", "app"), ("GET /openapi.json", "app"), ("GET /openapi.json", "unknown"),
        ("GET /redoc", "unknown"), ("GET /api/docs", "self._app"), ("GET /docs/oauth2-redirect", "self._app"),
        ("GET /openapi.json", "self._app")]


def test_express_paths_of_a_loop_over_a_literal_list_one_route_per_value():
    found = surfaces("javascript", '''
        const express = require("express");
        const app = express();
        const VERSIONS = ["v2", "v3"];
        function config(app) {
          for (const idp of ["singPass", "corpPass"]) {
            app.get(`/${idp.toLowerCase()}/authorize`, (req, res) => res.end());
            app.post(`/${idp.toUpperCase()}/token/${idp}`, token);
          }
          VERSIONS.forEach((v) => app.get(`/myinfo/${v}/person`, person));
          for (const key in table) { app.get(`/t/${key}`, h); }
          [1, 2].map(function (n) { return app.get(`/n/${other(n)}`, h); });
        }
        module.exports = (version) => (app) => app.get(`/api/${version}/x`, h);
        ''')
    assert [s.name for s in found] == [  # (in line order, by name within a line)
        "GET /corppass/authorize", "GET /singpass/authorize", "POST /CORPPASS/token/corpPass",
        "POST /SINGPASS/token/singPass",  # a variable named twice takes one value at a time
        "GET /myinfo/v2/person", "GET /myinfo/v3/person",
    ]  # (the keys of an object, a call's result, a parameter given by a caller: not known, no route)


def test_a_loop_variable_as_the_path_itself_one_route_per_value():
    """javascript-solid-server's `for (const path of oidcPaths) fastify.route({url: path, ...})`
    over a function's own list; `app.get(p, h)` over a literal list or a module's const."""
    found = surfaces("javascript", '''
        const fastify = require("fastify")();
        const MORE = ["/z1", "/z2"];
        function idp(fastify) {
          const oidcPaths = ["/idp/auth", "/idp/reg"];
          for (const path of oidcPaths) {
            fastify.route({ method: ["GET", "POST"], url: path, handler: forward });
          }
          for (const p of ["/x1", "/x2"]) fastify.get(p, h);
          MORE.forEach(function (p) { fastify.delete(p, h); });
          ["/w1"].forEach(p => fastify.put(p, h));  // (an arrow's one unparenthesised parameter)
          for (const name of ["a", "b"]) fastify.get(name, h);
          for (const p of paths) fastify.get(p, h);
          fastify.get(unknown, h);
        }
        ''')
    assert [s.name for s in found] == [
        "GET /idp/auth", "GET /idp/reg", "POST /idp/auth", "POST /idp/reg", "GET /x1", "GET /x2",
        "DELETE /z1", "DELETE /z2", "PUT /w1",
    ]  # (values that are no path, a list not written here, a name no loop binds: no route)


def test_python_route_decorators_applied_by_a_call_and_tornado_handler_sets():
    found = surfaces("python", '''
        from fastapi import FastAPI
        app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)

        async def put_file(checksum: str):
            return "OK"

        if writable:
            put_file = app.put("/{checksum}")(put_file)
            other = app.get("/x")(make(), 1)
        ''')
    assert [(s.name, s.handler) for s in found] == [("PUT /{checksum}", "put_file")]
    tornado = surfaces("python", '''
        import tornado.web
        from tornado.web import RequestHandler

        def make_app():
            handlers = {
                (r"/channels/([\\w%-]+)", ChannelHandler),
                (r"/stats", StatsHandler),
            }
            return tornado.web.Application(handlers)
        ''')
    assert sorted((s.name, s.detail["resource"]) for s in tornado) == [
        ("* /channels/{arg1}", "ChannelHandler"), ("* /stats", "StatsHandler")]


def test_a_router_prefix_from_its_factorys_parameter_default_and_tornado_style_add_route():
    found = surfaces("python", '''
        from fastapi import APIRouter

        def build_dashboard_router(prefix: str = "/dashboard") -> APIRouter:
            router = APIRouter(prefix=prefix, include_in_schema=False)

            @router.get("/users")
            async def users():
                return []
            return router
        ''')
    assert [s.name for s in found] == ["GET /dashboard/users"]
    wrapped = surfaces("python", '''
        from rest_tools.server import RestHandler, RestServer
        from tornado.web import HTTPError

        def create(args):
            server = RestServer()
            server.add_route(r"/api/files", FilesHandler, args)
            server.add_route(r"/api/files/([^\\/]+)", SingleFileHandler, args)
            return server
        ''')
    assert sorted((s.name, s.detail["resource"]) for s in wrapped) == [
        ("* /api/files", "FilesHandler"), ("* /api/files/{arg1}", "SingleFileHandler")]


def test_a_blueprint_subclass_of_the_packages_own_serves_under_its_url_prefix():
    """blazar's `rest = api_utils.Rest('v1_0', __name__, url_prefix='/v1')`, a flask.Blueprint subclass
    with its own `get`/`post` decorators."""
    found = surfaces("python", '''
        from blazar.api.v1 import utils as api_utils

        rest = api_utils.Rest('v1_0', __name__, url_prefix='/v1')
        other = api_utils.Thing('x', prefix='/not-a-url-prefix')

        @rest.get('/leases', query=True)
        def leases_list(req, query):
            pass

        @rest.delete('/leases/<lease_id>')
        def leases_delete(req, lease_id):
            pass

        @other.get('/plain')
        def plain():
            pass
        ''')
    assert sorted(s.name for s in found) == ["DELETE /v1/leases/<lease_id>", "GET /plain", "GET /v1/leases"]


def test_a_js_path_prefix_from_a_local_variable_and_its_literal_default():
    """dns's `var context = config.store.context || '/dns/api/v1'` inside the routes function."""
    found = surfaces("javascript", '''
        module.exports = function () {
            function create(app, config) {
                var context = config.store.context || '/dns/api/v1',
                    fixed = '/fixed';
                app.get(context + '/status', function (req, res) {});
                app.put(`${fixed}/zone`, function (req, res) {});
                app.get(unknown + '/other', function (req, res) {});
            }
            return { create: create };
        };
        ''')
    assert sorted(s.name for s in found) == ["GET /dns/api/v1/status", "GET /other", "PUT /fixed/zone"]
    assert [s.detail.get("prefix_unknown") for s in found if s.name == "GET /other"] == ["unknown"]


def test_js_routers_that_take_the_method_first():
    """find-my-way's `router.on(method, path, h)` (and a list of methods), Hono's `app.on`, and
    parse-server's PromiseRouter subclasses, `this.route('GET', path, ...middleware, handler)` with
    a path built of a member whose literal default the constructor gives."""
    found = surfaces("javascript", '''
        const router = require("find-my-way")();
        router.on("GET", "/items", (req, res) => res.end());
        router.on(["PUT", "PATCH"], "/items/:id", update);
        class Pages extends PromiseRouter {
          constructor(pages = {}) {
            super();
            this.pagesEndpoint = pages.pagesEndpoint ? pages.pagesEndpoint : "apps";
            this.other = pages.other ? pages.another : "no";
          }
          mountRoutes() {
            this.route("POST", `/${this.pagesEndpoint}/:appId/reset`, mw.idempotent, req => this.reset(req));
            this.route("GET", `/${this.other}/x`, req => this.x(req));
          }
        }
        emitter.on("GET", "/not-a-handler", 3);
        source.on("data", "/tmp/x", (chunk) => chunk);
        ''')
    assert sorted(s.name for s in found) == ["GET /items", "PATCH /items/:id", "POST /apps/:appId/reset",
                                             "PUT /items/:id"]
    hono = surfaces("typescript", '''
        import { Hono } from "hono";
        const app = new Hono();
        app.on("PURGE", "/cache", (c) => c.text("no"));
        app.on(["GET", "DELETE"], "/posts/:id", (c) => c.json({}));
        ''')
    assert sorted((s.name, s.framework) for s in hono) == [("DELETE /posts/:id", "hono"), ("GET /posts/:id", "hono")]


def test_fedify_dispatchers_and_inboxes_and_the_discovery_it_answers():
    """Fedify (@rmdes/indiekit-endpoint-activitypub): an actor's path is served to GET, an object's
    after its class, the two inboxes take POST, and the federation answers WebFinger and NodeInfo
    itself; a path under a mount set at run time is the path as set, and said so. Without Fedify,
    a `setActorDispatcher` is nobody's."""
    source = '''
        import { createFederation } from "@fedify/fedify";
        export function setup({ mountPath }) {
          const federation = createFederation({ kv });
          federation.setActorDispatcher(`${mountPath}/users/{identifier}`, async (ctx, id) => null);
          federation.setObjectDispatcher(Note, "/objects/note/{+id}", async (ctx, v) => null);
          federation.setInboxListeners(`${mountPath}/users/{identifier}/inbox`, "/inbox");
          federation.setNodeInfoDispatcher("/nodeinfo/2.1", async () => ({}));
        }
        '''
    found = {s.name: s for s in surfaces("javascript", source)}
    assert sorted(found) == ["GET /.well-known/nodeinfo", "GET /.well-known/webfinger", "GET /nodeinfo/2.1",
                             "GET /objects/note/{id}", "GET /users/{identifier}", "POST /inbox",
                             "POST /users/{identifier}/inbox"]
    assert found["GET /users/{identifier}"].detail["prefix_unknown"] == "${mountPath}"
    assert surfaces("javascript", source.replace("@fedify/fedify", "./federation")) == []


def test_express_routes_chained_on_a_router_with_handlers_looked_up_in_a_table():
    """auth0-simulator's `router.get("/health", f).get("/authorize", auth0["/authorize"]).post(...)`."""
    found = surfaces("javascript", '''
        import express, { Router } from "express";
        const extendRouter = (config) => (router, store) => {
            const auth0 = createAuth0Handlers(store);
            router.get("/health", (_, res) => res.send({})).get("/authorize", auth0["/authorize"])
                .post("/oauth/token", auth0["/oauth/token"]);
            cache.get("/not/a/route", defaults["x"]);
        };
        ''')
    assert sorted(s.name for s in found) == ["GET /authorize", "GET /health", "POST /oauth/token"]


def test_an_express_route_of_an_array_of_paths_serves_each():
    """blockchain-wallet-service's `v2API.all(['/create', '/create_wallet'], required(...), handler)`."""
    found = surfaces("javascript", '''
        const express = require("express");
        const v2API = express();
        const BASE = "/base";
        v2API.all(["/create", "/create_wallet"], required(["password"]), function (req, res) {});
        v2API.get([BASE, `${BASE}/x`], (req, res) => {});
        v2API.get([unknownPath, "/y"], (req, res) => {});
        ''')
    assert sorted(s.name for s in found) == ["ANY /create", "ANY /create_wallet", "GET /base", "GET /base/x"]


def test_a_table_of_routes_a_loop_registers_by_a_rows_method_field():
    """mockbin's `endpoints = [{ action: 'all', path: '/ip', route: h }, ...]` and
    `endpoints.forEach(function (endpoint) { router[endpoint.action].apply(router, [endpoint.path]) })`."""
    found = surfaces("javascript", '''
        var express = require('express')
        module.exports = function router (options) {
          var router = express.Router()
          var endpoints = [
            { action: 'get', path: '/', route: hello },
            { action: 'all', path: '/ip', route: ips },
            { action: 'all', path: '/delay/:ms?', route: delay },
            { action: 'frobnicate', path: '/nope', route: x },
            { action: 'get', path: 'no-slash', route: y }
          ]
          endpoints.forEach(function (endpoint) {
            router[endpoint.action].apply(router, [endpoint.path].concat(defaults))
          })
          for (const row of [{ method: 'post', path: '/posted' }]) {
            router[row.method](row.path, handler)
          }
          cache[item.action] = 1
          return router
        }
        ''')
    assert sorted(s.name for s in found) == ["ANY /delay/:ms?", "ANY /ip", "GET /", "POST /posted"]


def test_hapi_route_objects_a_plugin_function_holds_in_its_own_variables():
    """@hoodie/account-server: `var createSessionRoute = { method: 'PUT', path: '/session', ... }` in the
    plugin function, then `server.route([getSessionRoute, createSessionRoute])`."""
    found = surfaces("javascript", '''
        module.exports = sessionRoutes
        function sessionRoutes (server, options, next) {
          var createSessionRoute = { method: 'PUT', path: '/session', config: { auth: false }, handler: create }
          var getSessionRoute = { method: ['GET', 'HEAD'], path: '/session', handler: get }
          var notARoute = { method: 'GET' }
          server.route([getSessionRoute, createSessionRoute, notARoute, unknownRoute])
          next()
        }
        ''')
    assert sorted(s.name for s in found) == ["GET /session", "HEAD /session", "PUT /session"]


def test_express_5_optional_parts_give_the_route_without_them_and_with_them():
    found = surfaces("javascript", '''
        const express = require("express");
        const app = express();
        app.get("{/:tileSize}/index.json", list);
        app.get("/:id/sprite{/:spriteID}{@:scale}{.:format}", sprite);
        app.get("/plain/:id", plain);
        app.get("/escaped\\\\{x}", escaped);
        ''')
    assert [(s.name, s.detail.get("template")) for s in found] == [
        ("GET /:tileSize/index.json", "{/:tileSize}/index.json"), ("GET /index.json", "{/:tileSize}/index.json"),
        ("GET /:id/sprite", "/:id/sprite{/:spriteID}{@:scale}{.:format}"),
        ("GET /:id/sprite/:spriteID@:scale.:format", "/:id/sprite{/:spriteID}{@:scale}{.:format}"),
        ("GET /plain/:id", None), ("GET /escaped\\{x}", None)]  # JS's "\\{" is an escaped brace
    hono = surfaces("javascript", '''
        import { Hono } from "hono";
        const app = new Hono();
        app.get("/post/:id{[0-9]+}", (c) => c.text("x"));
        ''')
    assert [s.name for s in hono] == ["GET /post/:id{[0-9]+}"]  # a parameter's pattern, not an optional part


def test_koa_hono_fastify_routes_and_supertest_is_not_a_route():
    koa = surfaces("javascript", '''
        const Router = require("@koa/router");
        const router = new Router();
        router.get("/ping", async (ctx) => { ctx.body = "pong"; });
        ''')
    assert [(s.name, s.framework) for s in koa] == [("GET /ping", "koa-router")]

    hono = surfaces("typescript", '''
        import { Hono } from "hono";
        const app = new Hono().get("/h", (c) => c.text("hi"));
        app.post(`/p`, (c) => c.json({}));
        ''')
    assert [(s.name, s.framework) for s in hono] == [("GET /h", "hono"), ("POST /p", "hono")]

    fastify = surfaces("javascript", '''
        import Fastify from "fastify";
        const fastify = Fastify();
        fastify.route({ method: ["GET", "HEAD"], url: "/status", handler: status });
        fastify.get("/ping", { schema: {} }, async () => "pong");
        ''')
    assert [(s.name, s.handler) for s in fastify] == [("GET /status", "status"), ("HEAD /status", "status"),
                                                      ("GET /ping", None)]

    tests = surfaces("javascript", '''
        const request = require("supertest");
        request(app).get("/users").expect(200, done);
        ''')
    assert tests == []


# --- JavaScript / TypeScript CLIs -------------------------------------------------------------------------


def test_commander_program_commands_nested_and_descriptions():
    found = surfaces("javascript", '''
        const { Command } = require("commander");
        const program = new Command("gitlet");
        program
          .command("clone <source> [destination]")
          .description("Clone a repository")
          .action(clone);
        const remote = program.command("remote").description("Manage remotes");
        remote.command("add <name> <url>").description("Add a remote").action((n, u) => {});
        program.command("exec <cmd>", "Run an executable subcommand");
        program.parse();
        ''')
    names = by_name(found)
    assert set(names) == {"gitlet clone", "gitlet remote", "gitlet remote add", "gitlet exec"}
    assert names["gitlet clone"].description == "Clone a repository" and names["gitlet clone"].handler == "clone"
    assert names["gitlet clone"].line == 4 and names["gitlet clone"].detail["spec"] == "clone <source> [destination]"
    assert names["gitlet exec"].description == "Run an executable subcommand"

    unnamed = surfaces("typescript", '''
        import { program } from "commander";
        program.command("build").description("Build it");
        ''')
    assert [(s.name, s.detail["program_known"]) for s in unnamed] == [("build", False)]


def test_yargs_commands_string_object_alias_and_default_forms():
    found = surfaces("javascript", '''
        const yargs = require("yargs");
        yargs
          .scriptName("pirate")
          .command("serve [port]", "start the server", (y) => y, (argv) => serve(argv))
          .command({ command: "get <key>", describe: "get a key", handler: getKey })
          .command(["start", "s"], "start up", {}, startIt)
          .command("$0", "the default command", () => {}, () => {})
          .help().argv;
        ''')
    assert [(s.kind, s.name, s.line) for s in found] == [
        ("cli-subcommand", "pirate serve", 4), ("cli-subcommand", "pirate get", 5),
        ("cli-subcommand", "pirate start", 6), ("cli-command", "pirate", 7)]
    assert by_name(found)["pirate get"].handler == "getKey"
    assert by_name(found)["pirate serve"].description == "start the server"


# --- TypeScript MCP ---------------------------------------------------------------------------------------


def test_mcp_register_tool_and_legacy_tool_with_constant_and_enum_names():
    found = surfaces("typescript", '''
        import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
        import { z } from "zod";

        enum ToolName { ECHO = "echo" }
        const SEARCH = "search";
        const TOOLS = { FETCH: "fetch" } as const;

        const server = new McpServer({ name: "demo", version: "1.0.0" });
        server.registerTool(
          "add",
          { title: "Adder", description: "Add two numbers", inputSchema: { a: z.number(), b: z.number() } },
          async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
        );
        server.tool(SEARCH, "Search the web", { q: z.string() }, async ({ q }) => ({ content: [] }));
        server.tool(ToolName.ECHO, async () => ({ content: [] }));
        server.tool(TOOLS.FETCH, "Fetch a URL", fetchHandler);
        server.tool(dynamicName(), "unresolvable", async () => ({ content: [] }));
        server.registerResource("config", "config://app", { title: "Config", description: "App config" }, read);
        server.resource("user", new ResourceTemplate("users://{id}", { list: undefined }), readUser);
        ''', path="src/server.ts")
    tools = by_name(found, "mcp-tool")
    assert set(tools) == {"add", "search", "echo", "fetch"}
    assert tools["add"].description == "Add two numbers" and tools["add"].detail["title"] == "Adder"
    assert tools["add"].input_schema == {"zod": "{ a: z.number(), b: z.number() }"}
    assert tools["add"].detail["api"] == "registerTool" and tools["search"].detail["api"] == "tool"
    assert tools["search"].description == "Search the web" and tools["search"].line == 14
    assert tools["fetch"].handler == "fetchHandler" and tools["echo"].input_schema is None
    resources = by_name(found, "mcp-resource")
    assert resources["config"].detail["uri"] == "config://app" and resources["config"].description == "App config"
    assert resources["user"].detail["uri"] == "users://{id}"


def test_mcp_lowlevel_list_tools_literal_schemas_and_const_tool_objects():
    found = surfaces("javascript", '''
        const { Server } = require("@modelcontextprotocol/sdk/server/index.js");
        const { ListToolsRequestSchema } = require("@modelcontextprotocol/sdk/types.js");
        const READ = "read_file";
        const readTool = {
          name: READ,
          description: "Read a file",
          inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
        };
        const server = new Server({ name: "fs" }, { capabilities: { tools: {} } });
        server.setRequestHandler(ListToolsRequestSchema, async () => ({
          tools: [
            { name: "list_dir", description: "List a directory", inputSchema: { type: "object", properties: {} } },
            readTool,
          ],
        }));
        ''')
    tools = by_name(found, "mcp-tool")
    assert set(tools) == {"list_dir", "read_file"}
    assert tools["read_file"].input_schema == {"type": "object", "properties": {"path": {"type": "string"}},
                                               "required": ["path"]}
    assert tools["list_dir"].line == 12 and tools["read_file"].line == 4


def test_tool_method_without_mcp_is_not_a_tool():
    assert surfaces("javascript", '''
        const chain = require("./chain");
        chain.tool("hammer", "hits things", hit);
        ''') == []


# --- Go ---------------------------------------------------------------------------------------------------


def test_go_net_http_gin_groups_cobra_and_mcp_go():
    found = surfaces("go", '''
        package main

        import (
            "net/http"

            "github.com/gin-gonic/gin"
            "github.com/mark3labs/mcp-go/mcp"
            "github.com/spf13/cobra"
        )

        const healthPath = "/healthz"

        var rootCmd = &cobra.Command{Use: "tool", Short: "The tool"}
        var serveCmd = &cobra.Command{Use: "serve [port]", Short: "Serve it"}

        func main() {
            http.HandleFunc("/hello", hello)
            http.HandleFunc(healthPath, health)
            mux := http.NewServeMux()
            mux.HandleFunc("POST /items/{id}", item)
            r := gin.Default()
            r.GET("/ping", ping)
            v1 := r.Group("/v1")
            v1.POST("/users", createUser)
            http.Get("https://example.com/")
            rootCmd.AddCommand(serveCmd)
            calc := mcp.NewTool("calc", mcp.WithDescription("Calculate"))
            _ = calc
        }
        ''', path="main.go")
    names = by_name(found)
    assert set(names) == {"tool", "tool serve", "ANY /hello", "ANY /healthz", "POST /items/{id}", "GET /ping",
                          "POST /v1/users", "calc"}
    assert names["ANY /hello"].framework == "net/http" and names["GET /ping"].framework == "gin"
    assert names["POST /v1/users"].handler == "createUser" and names["POST /v1/users"].line == 24
    assert names["tool serve"].kind == "cli-subcommand" and names["tool serve"].description == "Serve it"
    assert names["calc"].kind == "mcp-tool" and names["calc"].description == "Calculate"


def test_unsupported_language_gives_nothing():
    assert surfaces("rust", 'fn main() { println!("hi"); }') == []


def test_argparse_subcommands_made_from_a_nested_dict_by_a_function_of_the_file():
    # httpie's manager: a recursive function adds a subparser per key, groups are dicts
    source = '''
        from myapp.argparser import ManagerArgumentParser

        COMMANDS = {
            'cli': {
                'help': 'Manage the tool',
                'export-args': ['Export the options', {'flags': ['-f']}],
                'sessions': {'help': 'Manage sessions', 'upgrade': ['Upgrade one '
                                                                    'session']},
            }
        }
        COMMANDS['plugins'] = COMMANDS['cli']['plugins'] = {'help': 'Plugins.', 'install': ['Install them']}
        NOT_A_SPEC = {'x': ['y']}

        def generate_subparsers(root, parent_parser, definitions):
            actions = parent_parser.add_subparsers()
            for command, properties in definitions.items():
                command_parser = actions.add_parser(command)
                if isinstance(properties, dict):
                    generate_subparsers(root, command_parser, properties)

        parser = ManagerArgumentParser(prog='mytool')
        generate_subparsers(parser, parser, COMMANDS)
        '''
    names = by_name(surfaces("python", source))
    assert set(names) == {"mytool cli", "mytool cli export-args", "mytool cli sessions", "mytool cli sessions upgrade",
                          "mytool cli plugins", "mytool cli plugins install", "mytool plugins",
                          "mytool plugins install"}
    assert all(s.kind == "cli-subcommand" and s.detail["program_known"] for s in names.values())
    assert names["mytool cli sessions upgrade"].description == "Upgrade one session"
    assert names["mytool cli"].description == "Manage the tool" and names["mytool cli"].line == 4
    # without a program name the paths start at the first subcommand; called from main() all the same
    unnamed = source.replace("ManagerArgumentParser(prog='mytool')", "ManagerArgumentParser()")
    assert "cli export-args" in by_name(surfaces("python", unnamed))
    in_main = source.replace("generate_subparsers(parser, parser, COMMANDS)",
                             "def main():\n            generate_subparsers(parser, parser, COMMANDS)")
    assert set(by_name(surfaces("python", in_main))) == set(names)
    # a loop over something other than the function's parameter, or a dict that is not literal: nothing
    assert not surfaces("python", source.replace("in definitions.items()", "in OTHER.items()"))
    assert not surfaces("python", source.replace("generate_subparsers(parser, parser, COMMANDS)",
                                                 "generate_subparsers(parser, parser, load())"))


def test_decli_dict_specs_are_argparse_subcommands():
    """commitizen's CLI: argparse built from a dict by decli, with non-literal values inside."""
    found = surfaces("python", '''
        from decli import cli
        from commitizen import commands

        data = {
            "prog": "cz",
            "arguments": [{"name": "--debug", "action": "store_true"}],
            "subcommands": {
                "title": "commands",
                "commands": [
                    {"name": ["init"], "help": "init commitizen configuration", "func": commands.Init},
                    {"name": ["commit", "c"], "help": "create new commit", "func": commands.Commit},
                    {"name": "bump", "func": commands.Bump},
                ],
            },
        }
        ''')
    assert [(s.kind, s.name, s.description) for s in found] == [
        ("cli-subcommand", "cz init", "init commitizen configuration"),
        ("cli-subcommand", "cz commit", "create new commit"),
        ("cli-subcommand", "cz bump", "")]
    assert surfaces("python", 'data = {"prog": "x", "subcommands": {"commands": [{"name": ["a"]}]}}\n') == []


def test_tools_from_a_compiled_enum_and_a_local_list_returned_in_shorthand():
    """@modelcontextprotocol/server-everything as published: tsc's enum output, then
    `const tools = [...]; return { tools };` inside the ListTools handler."""
    found = surfaces("javascript", '''
        import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
        var ToolName;
        (function (ToolName) {
            ToolName["ECHO"] = "echo";
            ToolName["ADD"] = "add";
        })(ToolName || (ToolName = {}));
        export const createServer = () => {
            server.setRequestHandler(ListToolsRequestSchema, async () => {
                const tools = [
                    { name: ToolName.ECHO, description: "Echoes back the input", inputSchema: schema(Echo) },
                    { name: ToolName.ADD, description: "Adds two numbers", inputSchema: schema(Add) },
                ];
                return { tools };
            });
        };
        ''', path="dist/everything.js")
    assert [(s.kind, s.name, s.description) for s in found] == [
        ("mcp-tool", "echo", "Echoes back the input"), ("mcp-tool", "add", "Adds two numbers")]


# --- which files are read at all -----------------------------------------------------------------------------


def test_js_files_that_name_no_declaring_method_or_no_slash_path_are_not_read():
    from miners.surfaces import _js_may_declare

    assert not _js_may_declare(b"const v = cache.get(key); map.delete(k); export const x = v;")  # no "/" path
    assert not _js_may_declare(b"this.options.command = 1; const name = program.name;")
    assert not _js_may_declare(b"require('./a'); import b from '../b'; fetch('https://x/y');")
    assert _js_may_declare(b"app.get('/x', h)") and _js_may_declare(b'const P = "\\/x"; r.post(P, h)')
    assert _js_may_declare(b"program.command('sub')") and _js_may_declare(b"server.registerTool('t', s, h)")


def test_js_files_whose_declaring_names_are_no_declaring_call_are_not_read():
    from miners import parsing
    from miners.facts import ParsedFile
    from miners.surfaces import js_may_declare

    def may(source: str, language: str = "javascript") -> bool:
        data = source.encode()
        return js_may_declare(ParsedFile("src/x.js", language, data, parsing.parse(language, data)))

    # the words are there (and a quoted slash), but no call could declare a route or a command
    assert not may("const url = '/x'; // program.command('sub'), app.get('/x', h)\nconst s = \"server.tool(\";")
    assert not may("const p = '/a'; const v = cache.get(key); getMap(this, k).get(k); obj.get(k, { d: 1 });")
    assert not may("const p = '/a'; router.route('/x'); this.options.route(1);")
    # the calls that declare, in each shape the extractors read
    assert may("app.get('/x', (req, res) => res.end())") and may("const P = '/x'; r.post(P, handler)")
    assert may("router.route('/x').get(h).post(h)") and may("server.route({ method: 'GET', path: '/x' })")
    assert may("program.command('sub')") and may("server.registerTool<Args>('t', s, h)", "typescript")
    assert may("const a = '/'; app.get(`/users/${id}`, h)")
    # a command call counts where commander or yargs is loaded, or on program / yargs / cli: yargs's
    # own `this.usage.command(...)` declares nothing
    assert not may("class Y { usage() { this.usage.command(cmd, desc); } }")
    assert may("const { Command } = require('commander');\nconst c = new Command(); c.command('x')")
    assert may("import y from 'yargs/yargs';\ny(argv).command('serve', 'Serve', b, h)")
    assert may("cli.command('x')")
    # a route hanging from .route() through other verbs is still read as one
    found = surfaces("javascript", """
        const express = require("express");
        const router = express.Router();
        router.route("/items").get(list).post(create);
        """)
    assert set(by_name(found, "http-route")) == {"GET /items", "POST /items"}


def test_route_paths_from_a_constructors_configuration_object_and_spread_constants():
    found = surfaces("javascript", """
        import express from "express";
        const DEFAULT_ENDPOINTS = Object.freeze({ token: "/token", jwks: "/jwks" });
        const MORE = { ...DEFAULT_ENDPOINTS, userinfo: "/userinfo" };
        export class OAuth2Server {
          #endpoints;
          constructor(endpoints) {
            this.#endpoints = { ...DEFAULT_ENDPOINTS, ...endpoints };
            this.paths = Object.freeze({ health: "/health" });
          }
          get requestHandler() {
            const app = express();
            app.post(this.#endpoints.token, this.tokenHandler);
            app.get(this.#endpoints.jwks, this.jwksHandler);
            app.get(this.#endpoints.unknown, this.nothing);
            app.get(MORE.userinfo, this.userInfoHandler);
            app.get(this.paths.health, this.health);
            return app;
          }
        }
        """)
    assert set(by_name(found, "http-route")) == {"POST /token", "GET /jwks", "GET /userinfo", "GET /health"}


def test_route_paths_from_template_literals_and_concatenations_of_constants():
    found = surfaces("javascript", """
        const express = require("express");
        const app = express();
        const BASE = "/api/v1";
        const USERS = `${BASE}/users`;
        const cfg = { prefix: "/x" };
        app.get(`${BASE}/items`, (req, res) => res.end());
        app.get(BASE + "/health", (req, res) => res.end());
        app.get(USERS + "/:id", (req, res) => res.end());
        app.post(`${cfg.prefix}/p`, handler);
        app.get(`${unknown}/no`, handler);
        app.get(`/a\\n${BASE}`, handler);
        """)
    assert set(by_name(found, "http-route")) == {"GET /api/v1/items", "GET /api/v1/health", "GET /api/v1/users/:id",
                                                 "POST /x/p"}


def test_starlette_route_lists_and_mounts():
    found = surfaces("python", """
        from starlette.applications import Starlette
        from starlette.routing import Mount, Route
        API = "/api"

        async def homepage(request): ...

        routes = [
            Route("/", homepage),
            Route("/users", endpoint=users, methods=["GET", "POST"]),
            Mount(API, routes=[Route("/items", items), Mount("/v1", routes=[Route("/deep", deep)])]),
            Mount("/static", app=StaticFiles(directory="static")),
            Mount(settings.PREFIX, routes=[Route("/lost", lost)]),
        ]
        app = Starlette(routes=routes)
        """)
    routes = by_name(found, "http-route")
    assert set(routes) == {"GET /", "GET /users", "POST /users", "GET /api/items", "GET /api/v1/deep"}
    assert routes["GET /users"].handler == "users" and routes["GET /api/items"].framework == "starlette"
    # without Starlette (or FastAPI) imported, a Route() call is someone else's
    assert surfaces("python", 'from maps import Route\nr = Route("/a", b)\n') == []
    # harnesspatch's `app.add_route("/api/agents", list_agents, methods=["GET"])` on its Starlette app
    found = surfaces("python", """
        from starlette.applications import Starlette

        def create_app():
            app = Starlette()
            async def list_agents(request): ...
            app.add_route("/api/agents", list_agents, methods=["GET"])
            app.add_route("/api/shutdown", route=shutdown, methods=["POST"])
            app.add_route(name, other)
            return app
        """)
    assert set(by_name(found, "http-route")) == {"GET /api/agents", "POST /api/shutdown"}



def test_prometheus_instrumentators_metrics_endpoint():
    found = surfaces("python", """
        from fastapi import FastAPI
        from prometheus_fastapi_instrumentator import Instrumentator

        app = FastAPI(openapi_url=None)
        Instrumentator().instrument(app).expose(app, include_in_schema=False)
        Instrumentator().instrument(app).expose(app, endpoint="/internal/metrics")
        cache.expose(app)
        """)
    assert set(by_name(found, "http-route")) == {"GET /metrics", "GET /internal/metrics"}
    # another library's Instrumentator is not it
    assert surfaces("python", "from x import Instrumentator\nInstrumentator().expose(app)\n") == []


def test_each_router_factory_of_a_module_routes_under_its_own_routers_prefix():
    """epok-auth's google.py: `create_google_router(prefix="/auth/google")` and
    `create_google_admin_router(prefix="/auth/users")` each make their own `router = APIRouter(prefix=prefix)`."""
    found = surfaces("python", """
        from fastapi import APIRouter

        def create_google_router(prefix: str = "/auth/google"):
            router = APIRouter(prefix=prefix)

            @router.post("/login")
            def login():
                pass
            return router

        def create_google_admin_router(prefix: str = "/auth/users"):
            router = APIRouter(prefix=prefix)

            @router.post("/{user_id}/google/recover")
            def recover(user_id):
                pass
            return router
        """)
    assert set(by_name(found, "http-route")) == {"POST /auth/google/login", "POST /auth/users/{user_id}/google/recover"}


def test_prometheus_clients_app_mounted_at_a_path_serves_the_metrics_there():
    """clip-retrieval: `DispatcherMiddleware(app.wsgi_app, {"/metrics": make_wsgi_app()})`; FastAPI's
    `app.mount("/metrics", make_asgi_app())`, or of a name bound to it. Another app is not it."""
    found = surfaces("python", """
        from fastapi import FastAPI
        from prometheus_client import make_asgi_app, make_wsgi_app
        from werkzeug.middleware.dispatcher import DispatcherMiddleware

        app = FastAPI(openapi_url=None)
        app.mount("/metrics", make_asgi_app())
        metrics_app = make_asgi_app()
        app.mount("/internal/metrics", metrics_app)
        app.mount("/other", other_app())
        flask_app.wsgi_app = DispatcherMiddleware(flask_app.wsgi_app, {"/prom": make_wsgi_app(), "/x": other()})
        """)
    assert set(by_name(found, "http-route")) == {"GET /metrics", "GET /internal/metrics", "GET /prom"}
    assert surfaces("python", "from x import make_asgi_app\napp.mount('/metrics', make_asgi_app())\n") == []


def test_a_receiver_named_for_a_server_with_a_request_handler_serves_routes():
    """@objectstack/service-storage: `function registerStorageRoutes(httpServer, storage, opts = {})`
    with `httpServer.post(`${basePath}/upload/presigned`, async (req, res) => ...)`; a name that is
    no server's, or a handler of no request, is not read so."""
    found = surfaces("javascript", """
        function registerStorageRoutes(httpServer, storage, opts = {}) {
          const basePath = opts.basePath ?? "/api/v1/storage";
          httpServer.post(`${basePath}/upload/presigned`, async (req, res) => res.json({}));
          apiRouter.get("/files/:id", function (req, res) { res.end(); });
          httpServer.get("/cache", (key, value) => value);
          cacheStore.get("/x", async (req, res) => res.end());
        }
        """)
    assert set(by_name(found, "http-route")) == {"POST /api/v1/storage/upload/presigned", "GET /files/:id"}


def test_typescript_type_arguments_and_fastmcp_resources_are_still_declarations():
    found = surfaces("typescript", '''
        import express from "express";
        const app = express();
        app.get<{ id: string }>("/users/:id", (req, res) => res.send(req.params.id));
        ''')
    assert set(by_name(found, "http-route")) == {"GET /users/:id"}
    found = surfaces("typescript", '''
        import { FastMCP } from "fastmcp";
        const server = new FastMCP({ name: "logs", version: "1.0.0" });
        server.addResource({ uri: "file:///logs/app.log", name: "Application logs", load: async () => ({ text: "" }) });
        ''')
    assert [(s.kind, s.name) for s in found] == [("mcp-resource", "Application logs")]


def test_python_files_with_only_plumbing_decorators_are_not_read():
    from miners.surfaces import _py_may_declare
    from miners.words import WORDS_ONLY

    def may(source: bytes) -> bool:
        return _py_may_declare(source, set(source.translate(WORDS_ONLY).split()))

    plumbing = b"class A:\n    @property\n    def x(self): ...\n    @staticmethod\n    @functools.lru_cache(maxsize=None)\n    def y(): ...\n"
    assert not may(plumbing)
    assert not may(b"import asyncio\nasyncio.run(main())\n# mail me at a@b.c\n")
    assert not may(b"from x import prototyper, my_add_parser\nprototyper.go()\n")  # whole words only
    for declaring in (b"@app.get('/x')\n", b"@cli.command()\n", b"@mcp.tool()\n", b"@(\n  app.route('/x'))\n",
                      b"@app.\\\n  post('/x')\n", b"import typer\ntyper.run(main)\n", b"@click.group()\n",
                      b"@handler(\n    path='login/',\n)\n"):
        assert may(declaring), declaring


def test_python_files_whose_declaring_words_are_not_code_are_not_read():
    from miners import parsing
    from miners.facts import ParsedFile
    from miners.surfaces import py_may_declare

    def may(source: bytes) -> bool:
        return py_may_declare(ParsedFile("pkg/m.py", "python", source, parsing.parse("python", source)))

    docstring = b'def route(rule):\n    """Use it so:\n\n        @app.route("/x")\n        def index(): ...\n    """\n'
    assert not may(docstring)
    assert not may(b"renderable = Group(*items)\nx = ToolGroup(1)\n")  # no decorator, no add_command: no command
    assert not may(b"# parser.add_parser('x')\ns = 'cli.add_command(c)'\nhelp = 'subcommands: a, b'\n")
    assert not may(b"EMOJI = {':tornado:': '\\U0001f32a', 'rest_framework': 1}\n")  # a word, not an import
    # (a demo's `__main__` parser without a prog names no command: rich/syntax.py)
    assert not may(b"if __name__ == '__main__':\n    parser = argparse.ArgumentParser(description='demo')\n")
    for declaring in (b"@app.get('/x')\ndef f(): ...\n", b"parser.add_parser('x')\n", b"add_typer(app)\n",
                      b"tools = [types.Tool(name='t', inputSchema={})]\n", b"@(\n  app.route('/x'))\ndef f(): ...\n",
                      b"import decli\nspec = {'subcommands': {}}\n", b"p = argparse.ArgumentParser(prog='x')\n",
                      b"import tornado.web\nhandlers = [(r'/x', X)]\n", b"from rest_framework import viewsets\n",
                      b"class Users(generic.ListView):\n    pass\n",
                      # the first `@` is mid-line (an address, a matrix product): the decorator is still found
                      b'"""Mail me@example.com."""\nx = a @ b\n\n\ndef serve():\n    @server.tool(\n        name="t")\n'
                      b'    def f(): ...\n',
                      b"def serve():\n    @server.tool()\n    def f(): ...\n",  # the first `@`, indented
                      docstring + b"\n\n@app.get('/y')\ndef g(): ...\n"):
        assert may(declaring), declaring


def test_the_python_prefilter_searched_apart_agrees_with_its_regex():
    """surfaces._py_may_declare (what mining calls) searches this regex's alternatives one kind at a
    time: over pieces of each alternative, alone and mixed, the answers must be the regex's."""
    import itertools
    import random
    import re

    from miners.surfaces import _PY_DECORATOR_WORDS, _py_may_declare

    # (names are whole words: an identifier's bytes are [\w$] and any non-ASCII byte)
    word, end = rb"(?<![\w$\x80-\xff])", rb"(?![\w$\x80-\xff])"
    whole = re.compile(rb"(?m:^[ \t]*@(?:(?:[^\n]*\\\n)*[^\n]*?\b(?:" + _PY_DECORATOR_WORDS + rb")\b|\s*\())|" + word +
                       rb"(?:add_parser|add_typer|typer|add_url_rule|add_api_route|"
                       rb"urlpatterns|add_tool|add_resource|include_router|register_blueprint|"
                       rb"add_route|add_get|add_post|add_put|add_patch|add_delete|add_head|add_view|add_routes|"
                       rb"add_handlers|add_subapp|subcommands)" + end +
                       rb"|(?m:^[ \t]*(?:from|import)[ \t]+(?:tornado|rest_framework)\b)|" + word +
                       rb"(?:Tool|Resource|Group|Route)\s*\(|"
                       rb"(?m:^[ \t]*class[ \t]+\w+[ \t]*\([^)]{0,400}View)")
    tokens = __import__("miners.words", fromlist=["WORDS_ONLY"]).WORDS_ONLY

    pieces = [b"@", b"@ (", b"@app.", b"get", b"\\\n", b"\n", b" ", b"(", b"post", b"add_", b"add_tool", b"tool",
              b"ArgumentParser", b"prog", b"typer", b"Tool", b"Tool (", b"Resource(", b"Group\t(", b"subcommands", b"x",
              b"urlpatterns", b"add_url_rule", b"add_api_route", b"add_command", b"add_parser", b"add_typer", b"_",
              b"add_resource", b"include_router", b"register_blueprint", b"Route(", b"Route", b"add_get",
              b"add_route", b"add_routes", b"add_view", b"add_subapp", b"add_handlers", b"tornado", b"torn",
              b"rest_framework", b"import ", b"from ", b"\n", b" \t", b"class A(", b"class ", b"View", b"x, View)", b"ViewSet"]
    samples = [b"".join(combo) for n in (1, 2, 3) for combo in itertools.product(pieces, repeat=n)]
    rng = random.Random(5)
    samples += [b"".join(rng.choice(pieces) for _ in range(rng.randint(1, 12))) for _ in range(20000)]
    for sample in samples:
        words = set(sample.translate(tokens).split())
        expected = bool(whole.search(sample)) or b"ArgumentParser" in words and b"prog" in words
        assert _py_may_declare(sample, words) == expected, sample


@pytest.mark.parametrize(("pattern", "paths"), [
    (r"/api/kernels/(?P<kernel_id>\w+-\w+)", ["/api/kernels/{kernel_id}"]),
    (r"^/user/([^/]+)/?$", ["/user/{arg1}"]),
    (r"/files/(.*)/(\d+)", ["/files/{arg1}/{arg2}"]),
    (r"/a\.json", ["/a.json"]),
    (r"/(?:x|y)/(\d+)", ["/(?:x|y)/{arg1}"]),  # a non-capturing group is kept as written
    (r"/price\$$", ["/price$"]),  # an escaped `$` is no anchor, and the path has it
    (r"/broken/(unclosed", ["/broken/(unclosed"]),  # not a regex this can read: as written
    (r"/", ["/"]),
    (r"/?", ["/"]),  # the root, with its slash or without
    (r"^/?$", ["/"]),
    # optional trailing segments: `/?` and a group that may be empty
    (r"/tasks/?([^/]*)/?([^/]*)$", ["/tasks", "/tasks/{arg1}", "/tasks/{arg1}/{arg2}"]),
    (r"/status/?(.*)$", ["/status", "/status/{arg1}"]),
    (r"/a/?(.*)/b", ["/a/{arg1}/b"]),  # not trailing: required
    (r"/a/?(.*)/?(\d+)", ["/a/{arg1}/{arg2}"]),  # what follows may not be missing
    (r"/tasks/?(\d+)", ["/tasks/{arg1}"]),  # a group that cannot be empty
    # a last optional group: without it and with it (Django's re_path)
    (r"^social/jwt/(?:(?P<provider>[a-zA-Z0-9_-]+)/?)?$", ["social/jwt/", "social/jwt/{provider}"]),
    (r"^x/(?:y|z)?$", ["x/", "x/y", "x/z"]),  # a last part of literal choices: none, and each
    (r"^/api/chat/(\d+)(/messages|/read)$", ["/api/chat/{arg1}/messages", "/api/chat/{arg1}/read"]),
    (r"^x/(?:y|z+)?$", ["x/(?:y|z+)?"]),  # an alternation of patterns: as written
    (r"/endpoints/([^/]+)?", ["/endpoints", "/endpoints/{arg1}"]),  # a last group that may be missing
    (r"/files/(?P<name>.+)?$", ["/files", "/files/{name}"]),
    # mapit's optional parts in a row, a choice inside one, and a named group that is a word
    (r"^area/(?P<id>[0-9]+)(?:\.(?P<format>html|json))?$", ["area/{id}", "area/{id}.{format}"]),
    (r"^point/(?P<x>[0-9.]+)(?:/(?P<bb>box))?(?:\.(?P<f>json))?$",
     ["point/{x}", "point/{x}.json", "point/{x}/box", "point/{x}/box.json"]),
    (r"^a(?:/b)?/c$", ["a/c", "a/b/c"]),  # an optional part before what must follow
    (r"/users(?:/([^/]+))?(/token)?", ["/users(?:/([^/]+))?{arg1}?"]),  # what follows it not read: as before
])
def test_a_tornado_path_regex_is_read_as_the_route_paths_it_serves(pattern, paths):
    from miners.surfaces import _regex_paths

    assert _regex_paths(pattern) == paths


def test_the_python_prefilter_is_linear_on_hostile_text():
    """Bad input is bounded in time: a megabyte of unclosed `class A(` lines once made the view-class
    pattern rescan to the end from each line, and a megabyte of `@` lines the decorator pattern
    each line from each `@` (quadratic: minutes). A bound, not a speed target."""
    import time

    from miners.surfaces import _py_may_declare

    for hostile in (b"class A(\n" * 120_000 + b"View)\n",
                    (b"@" * 4000 + b"\n") * 250):  # `@` that start no decorator: each once rescanned its line
        started = time.perf_counter()
        _py_may_declare(hostile, set())
        assert time.perf_counter() - started < 5


def test_starlette_static_files_mounted_at_a_path_are_assets(tmp_path, capsys):
    """robotframework-realtimeresults' `app.mount("/dashboard", StaticFiles(directory="dashboard",
    html=True))`: its index page at the path and its files under it, handed out as they are:
    internal until the docs name them."""

    app = ('from fastapi import FastAPI\nfrom fastapi.staticfiles import StaticFiles\n\napp = FastAPI()\n'
           'app.mount("/dashboard", StaticFiles(directory="dashboard", html=True), name="dashboard")\n'
           'app.mount("/static/", StaticFiles(directory="static"))\napp.mount("/sub", other_app)\n'
           'app.mount(prefix, StaticFiles(directory="x"))\n')
    files = {"svc/__init__.py": "", "svc/main.py": app, "README.md": "Open the dashboard at /dashboard.\n"}
    routes = {name: route["visibility"] for name, route in mined_routes(tmp_path, capsys, files).items()
              if "/docs" not in name and "/redoc" not in name and "openapi" not in name}
    assert routes == {"GET /dashboard": "public", "GET /dashboard/{path}": "internal",
                      "GET /static/{path}": "internal"}


def test_a_route_decorator_a_function_defines_that_registers_by_a_call(tmp_path, capsys):
    """picamip: inside `create_app()`, `def try_route(r, methods=["GET", "POST"])` returns a decorator
    whose inner function calls `app.add_url_rule(r, methods=methods, view_func=fn)`; `@try_route("/x",
    methods=["GET"])` is GET /x, and without `methods=` the wrapper's default."""
    from tests.conftest import mined_routes

    server = ('import flask\n\n\ndef create_app():\n    app = flask.Flask(__name__)\n\n'
              '    def try_route(r, methods=["GET", "POST"]):\n        def wrap(fn):\n'
              '            app.add_url_rule(r, methods=methods, view_func=fn)\n        return wrap\n\n'
              '    @try_route("/files", methods=["GET"])\n    def files():\n        return "x"\n\n'
              '    @try_route("/picture")\n    def picture():\n        return "x"\n\n'
              '    @other_decorator("/nope")\n    def nope():\n        return "x"\n\n    return app\n')
    routes = mined_routes(tmp_path, capsys, {"cam/__init__.py": "", "cam/server.py": server})
    assert sorted(routes) == ["GET /files", "GET /picture", "POST /picture"], sorted(routes)


def test_static_files_mounted_at_a_parameter_are_served_where_its_callers_or_its_default_say(tmp_path, capsys):
    """fastapi-pulse: `def add_pulse(app, dashboard_path: str = "/pulse")` mounts
    `StaticFiles(directory=..., html=True)` at the parameter; no caller in the package: its default."""
    from tests.conftest import mined_routes

    lib = ('from fastapi import FastAPI\nfrom starlette.staticfiles import StaticFiles\n\n\n'
           'def add_pulse(app: FastAPI, dashboard_path: str = "/pulse"):\n'
           '    app.mount(dashboard_path, StaticFiles(directory="static", html=True), name="pulse")\n')
    files = {"pulse/__init__.py": lib, "README.md": "The dashboard is at `/pulse`.\n"}
    routes = {name: route["visibility"] for name, route in mined_routes(tmp_path, capsys, files).items()}
    assert routes == {"GET /pulse": "public", "GET /pulse/{path}": "internal"}, routes
    called = {**files, "pulse/app.py": "from fastapi import FastAPI\nfrom pulse import add_pulse\n\n"
              "app = FastAPI(openapi_url=None)\nadd_pulse(app, dashboard_path='/status')\n"}
    assert set(mined_routes(tmp_path / "called", capsys, called)) == {"GET /status", "GET /status/{path}"}


def test_a_packages_own_route_decorator_with_a_path_and_methods():
    """django-nets-core's `@request_handler(path="getProfile/", methods=["GET", "POST"])`: a literal
    path and literal HTTP methods make the view a route (its URL configuration builds patterns from
    the decorator's registry, which is not followed, and the route says so)."""
    found = surfaces("python", '''
        from .decorators import request_handler

        @request_handler(path="logout/", name="logout", method="POST")
        def logout(request):
            """Log the user out."""

        @request_handler(
            path="getProfile/",
            methods=["GET", "POST"],
        )
        def profile(request): ...

        @cache(path="/tmp/x", method="lru")
        def cached(): ...

        @mirror(path="https://example.com/a", method="GET")
        def mirrored(): ...

        @router.handler(path="/other", method="GET")
        def on_a_receiver(): ...
        ''')
    routes = by_name(found, "http-route")
    assert sorted(routes) == ["GET /getProfile/", "POST /getProfile/", "POST /logout/"]
    # a framework's own decorator keeps its framework's reading (the router's prefix too)
    fastapi = surfaces("python", '''
        from fastapi import APIRouter
        router = APIRouter(prefix="/v1")

        @router.api_route(path="/items", methods=["GET", "POST"])
        def items(): ...
        ''')
    assert sorted((s.name, s.framework) for s in fastapi) == [("GET /v1/items", "fastapi"), ("POST /v1/items", "fastapi")]
    assert routes["POST /logout/"].handler == "logout" and routes["POST /logout/"].description == "Log the user out."
    assert "@request_handler" in routes["GET /getProfile/"].detail["unmounted"]


def test_microrouter_verb_functions_and_their_namespace():
    """@nexrender/server's `ns(post('/jobs', require('./routes/jobs-create')))` with `ns =
    withNamespace('/api/v1')`, and a route outside any namespace; another module's `get` is not
    microrouter's."""
    found = surfaces("javascript", '''
        const { router, withNamespace } = require('microrouter')
        const { get, post, del } = require('microrouter')
        const { get: fetchIt } = require('./client')
        const ns = withNamespace('/api/v1')
        module.exports = router(
            ns(post('/jobs', require('./routes/jobs-create'))),
            ns(del('/jobs/:uid', remove)),
            get('/health', (req, res) => 'ok'),
            get('not-a-path', h),
        )
        fetchIt('/users', cb)
        ''')
    assert [(s.name, s.framework) for s in found] == [
        ("POST /api/v1/jobs", "microrouter"), ("DELETE /api/v1/jobs/:uid", "microrouter"),
        ("GET /health", "microrouter")]


def test_a_js_path_from_a_destructured_default_or_a_parameters_default():
    """scenario-mock-server's `const { scenariosPath = "/scenarios" } = options` before
    `app.get(scenariosPath, h)`: the path unless the caller configures another; a parameter's
    default too (`function routes(app, base = '/api')`, `({ prefix = '/v1' })`)."""
    found = surfaces("javascript", '''
        const express = require("express");
        function createExpressApp({ options = {} }) {
          const app = express();
          const { uiPath = "/", scenariosPath = "/scenarios", other } = options;
          app.get(scenariosPath, (req, res) => res.json([]));
          app.put(uiPath, (req, res) => res.end());
          app.get(other, h);
          return app;
        }
        function more(app, base = "/api", { prefix = "/v1" } = {}) {
          app.get(base, h);
          app.post(prefix, h);
        }
        ''')
    assert sorted(s.name for s in found) == ["GET /api", "GET /scenarios", "POST /v1", "PUT /"]


def test_classy_fastapi_routes_of_a_routables_methods():
    """classy-fastapi (madsci's managers): `@get("/events")` imported from classy_fastapi on a
    Routable's method is a route (its router's prefix is the caller's); a `get` of elsewhere is not."""
    found = by_name(surfaces("python", '''
        from classy_fastapi import Routable, get, post
        from cache import get as cached

        class EventManager(Routable):
            @post("/event")
            def log_event(self, event):
                """Log an event."""

            @get("/event/{event_id}")
            def get_event(self, event_id: str):
                pass

            @cached("/not/a/route")
            def other(self):
                pass
    ''', "madsci/event_server.py"), "http-route")
    assert sorted(found) == ["GET /event/{event_id}", "POST /event"]
    assert found["POST /event"].description == "Log an event."


def test_django_pattern_lists_urlpatterns_is_made_of_wherever_it_is_assigned():
    """escalated: `customer_patterns = [path(...)]`, and `urlpatterns = customer_patterns + ...`
    under an `if` of a setting; a list urlpatterns is never made of gives no route."""
    found = by_name(surfaces("python", '''
        from django.urls import path
        from escalated.ticket_access import path as access_path
        from . import views

        customer_patterns = [
            path("tickets/", views.ticket_list),
        ]
        agent_patterns = [
            path("agent/", views.dashboard),
        ]
        unused_patterns = [
            path("unused/", views.unused),
        ]
        urlpatterns = [path("health/", views.health)]
        if get_setting("UI_ENABLED"):
            urlpatterns = customer_patterns + list(agent_patterns) + urlpatterns
    ''', "escalated/urls.py"), "http-route")
    assert sorted(found) == ["ANY /agent/", "ANY /health/", "ANY /tickets/"]


def test_a_segment_a_loop_over_run_time_values_fills_is_a_parameter():
    """sqlite2rest: `for table_name in tables: app.add_url_rule(f'/{table_name}/<id>', ...)`, the
    tables of a database: each route stands for every table (so does fastapi-mongo-admin's `for
    collection, admin in site.get_registered_models().items()`); a name no loop binds gives nothing,
    nor does a loop over a call given a literal (a table it may look up)."""
    found = by_name(surfaces("python", '''
        from flask import Flask

        def setup_routes(app, tables, view):
            for table_name in tables:
                app.add_url_rule(f'/{table_name}/<id>', 'get_' + table_name, view, methods=['GET'])
                app.add_url_rule(f'/{table_name}', 'list_' + table_name, view, methods=['GET'])
                app.add_url_rule(f'/x{table_name}', 'odd_' + table_name, view, methods=['GET'])
            app.add_url_rule(f'/{unknown}/y', 'unknown', view, methods=['GET'])
            for collection, admin in site.get_registered_models().items():
                app.add_url_rule(f'/api/{collection}/', 'c_' + collection, view, methods=['POST'])
            for name, kind in lookup('x').items():
                app.add_url_rule(f'/named/{name}/', 'n_' + name, view, methods=['POST'])
            for name, kind in TABLE.items():
                app.add_url_rule(f'/table/{name}/', 't_' + name, view, methods=['POST'])

        TABLE = {'a': 1}
    ''', "sqlite2rest/routes.py"), "http-route")
    assert sorted(found) == ["GET /{table_name}", "GET /{table_name}/<id>", "POST /api/{collection}/"]


def test_an_objects_own_property_and_a_literal_default_after_or_as_a_path():
    """lockit-login: `this.loginRoute = config.login.route || '/login'` in the constructor, then
    `router.get(this.loginRoute, ...)`; `this.twoFactorRoute = this.loginRoute +
    (config.twoFactorRoute || '/two-factor')`. A prefix a branch puts before it (`if (config.rest)`)
    serves the route there too, not in place of it."""
    found = by_name(surfaces("javascript", '''
        var express = require('express');

        var Login = module.exports = function(config) {
          this.loginRoute = config.login.route || '/login';
          if (config.rest) {
            this.loginRoute = '/rest' + this.loginRoute;
          }
          this.twoFactorRoute = this.loginRoute + (config.login.twoFactorRoute || '/two-factor');
          var router = new express.Router();
          router.get(this.loginRoute, this.getLogin.bind(this));
          router.post(this.twoFactorRoute, this.postTwoFactor.bind(this));
          router.get(this.unset, this.other.bind(this));
          this.router = router;
        };
    ''', "index.js"), "http-route")
    assert sorted(found) == ["GET /login", "GET /rest/login", "POST /login/two-factor"]


def test_a_starlette_mount_of_a_route_list_another_module_makes(tmp_path, capsys):
    """arq-http: `dashboard_routes = [Route('/{queue_name:str}', ...)]` in dashboard.py, mounted by
    server.py's `Mount(path="/dashboard", routes=dashboard_routes)` (imported), and a list of the
    same module mounted inside another Mount: each list's routes under the joined paths."""
    from tests.conftest import mined_routes

    dashboard = ("from starlette.routing import Route\n\n\ndashboard_routes = [\n"
                 "    Route(path='/{queue_name:str}', endpoint=get_dashboard, methods=['GET']),\n]\n")
    server = ("from starlette.applications import Starlette\nfrom starlette.routing import Mount, Route\n"
              "from .dashboard import dashboard_routes\n\nadmin_routes = [Route('/users', users)]\n\n"
              "routes = [\n    Route('/', home),\n    Mount(path='/dashboard', routes=dashboard_routes),\n"
              "    Mount('/api', routes=[Mount('/admin', routes=admin_routes)]),\n]\n"
              "app = Starlette(routes=routes)\n")
    files = {"arq_http/__init__.py": "", "arq_http/dashboard.py": dashboard, "arq_http/server.py": server}
    assert set(mined_routes(tmp_path, capsys, files)) == {"GET /", "GET /dashboard/{queue_name:str}",
                                                          "GET /api/admin/users"}


def test_a_prefix_a_branch_puts_before_a_routes_base_serves_it_there_too():
    """lockit-signup: `var route = config.signup.route || '/signup'; if (config.rest) {route = '/rest'
    + route; }`, then `router.get(route + '/:token', ...)`: served at /signup/:token and, with the
    setting, /rest/signup/:token. A branch that sets the base otherwise, or one after the route,
    adds nothing."""
    found = by_name(surfaces("javascript", '''
        var express = require('express');

        var Signup = module.exports = function(config) {
          var route = config.signup.route || '/signup';
          var other = '/other';
          if (config.rest) {route = '/rest' + route; }
          if (config.odd) {other = lookup(other); }
          var router = new express.Router();
          router.get(route, this.getSignup.bind(this));
          router.get(route + '/:token', this.getToken.bind(this));
          router.get(other, this.getOther.bind(this));
          if (config.late) {other = '/late' + other; }
          this.router = router;
        };
    ''', "index.js"), "http-route")
    assert sorted(found) == ["GET /other", "GET /rest/signup", "GET /rest/signup/:token", "GET /signup",
                             "GET /signup/:token"]


def test_a_prefix_from_an_unset_setting_or_empty_is_served_at_the_root():
    """scout: `prefix = app.config.get('URL_PREFIX') or ''`, normalised only `if prefix:`, then
    `app.add_url_rule('%s/attachments/' % prefix, ...)`: with nothing configured the routes are at
    /attachments/. A branch that rebinds the prefix whatever it holds, a lookup with a default
    that is not a literal, or a constant's `BASE or ''` (the `if` then runs) leaves the route
    unknown (no guess)."""
    found = by_name(surfaces("python", '''
        from flask import Flask

        def register_views(app):
            prefix = app.config.get('URL_PREFIX') or ''
            if prefix:
                prefix = '/%s' % prefix.strip('/')
            app.add_url_rule('%s/attachments/' % prefix, 'attachment_list', view_func=listing, methods=['GET'])
            app.add_url_rule(prefix + '/health', 'health', view_func=health)

        def register_other(app):
            base = app.config.get('BASE') or ''
            if app.debug:
                base = '/debug' + base
            app.add_url_rule(base + '/other', 'other', view_func=other)
            mount = app.config.get('MOUNT', compute()) or ''
            app.add_url_rule(mount + '/mounted', 'mounted', view_func=other)
            env = os.environ.get('PREFIX') or ''
            app.add_url_rule(env + '/env', 'env', view_func=other)

        BASE = '/api'

        def register_constant(app):
            known = BASE or ''
            if known:
                known = '/v1' + known
            app.add_url_rule(known + '/items', 'items', view_func=other)
        '''), "http-route")
    assert sorted(found) == ["GET /attachments/", "GET /env", "GET /health"]


def test_a_method_that_registers_the_path_it_is_given_serves_each_callers_path():
    """scout's ScoutView: `def register(self, name, url, pk_type=None)` adds `url` for the methods of a
    literal table a loop walks and `url + '<pk>/'` (or `'<%s:pk>/' % pk_type`, by an `if pk_type is
    None` the caller's argument decides); `DocumentView(app).register('doc', '%s/documents/' % prefix)`
    on a subclass serves /documents/ with the caller's prefix. A call of a same-named method on
    anything else is not a caller."""
    found = by_name(surfaces("python", '''
        from flask import Flask

        class View(object):
            def __init__(self, app):
                self.app = app

            def register(self, name, url, pk_type=None):
                base_views = ((self.list_view, 'GET', name), (self.create, 'POST', name + '_create'))
                for view, method, view_name in base_views:
                    self.app.add_url_rule(url, view_name, view_func=view, methods=[method])
                if pk_type is None:
                    detail_url = url + '<pk>/'
                else:
                    detail_url = url + '<%s:pk>/' % pk_type
                for view, methods in ((self.detail, ['GET']), (self.update, ('POST', 'PUT'))):
                    self.app.add_url_rule(detail_url, name + '_detail', view_func=view, methods=methods)

        class DocumentView(View):
            pass

        class AttachmentView(DocumentView):
            pass

        def register_views(app):
            prefix = '/api'
            documents = DocumentView(app)
            documents.register('document_view', '%s/documents/' % prefix)
            AttachmentView(app).register('attachments', prefix + '/files/', pk_type='path')
            client.register('other', '/not-a-route/')
        '''), "http-route")
    assert sorted(found) == [
        "GET /api/documents/", "GET /api/documents/<pk>/", "GET /api/files/", "GET /api/files/<path:pk>/",
        "POST /api/documents/", "POST /api/documents/<pk>/", "POST /api/files/", "POST /api/files/<path:pk>/",
        "PUT /api/documents/<pk>/", "PUT /api/files/<path:pk>/"]


def test_an_instances_router_under_its_init_default_and_a_segment_from_what_a_method_is_given():
    """aegis-admin: `self.router = APIRouter(prefix=self.base_path)` keeps `__init__`'s `base_path:
    str = "/admin"`; `def _create_list_endpoint(self, model)` registers `f"/{table_name}/"` with
    `table_name = model.__tablename__`: a route per model it is given. An attribute of `self`, or of
    something no parameter names, is not a parameter."""
    found = by_name(surfaces("python", '''
        from fastapi import APIRouter, FastAPI

        class Admin:
            def __init__(self, app: FastAPI, base_path: str = "/admin") -> None:
                self.base_path = base_path
                self.router = APIRouter(prefix=self.base_path)
                app.include_router(self.router)

            def _create_list_endpoint(self, model, database: str) -> None:
                table_name = model.__tablename__

                @self.router.get(f"/{table_name}/")
                async def list_view():
                    return []

                @self.router.post(f"/ui/{model.__tablename__}/create/")
                async def create():
                    return []

                @self.router.get(f"/{self.title}/")
                async def titled():
                    return []

                @self.router.get(f"/{other.name}/")
                async def other_view():
                    return []
        '''), "http-route")
    assert sorted(found) == ["GET /admin/{table_name}/", "POST /admin/ui/{__tablename__}/create/"]


def test_bottle_routes_registered_by_a_call_with_their_callback(tmp_path, capsys):
    """Bottle's `app.route("/x", "GET", handler)`, `route(path, method=[...], callback=h)`,
    `app.post("/y", callback=h)`, and a Bottle subclass's own `self.route(...)` (bottler). A call
    with no callback is a decorator made but not applied here: no route, and neither is another
    object's `.get(path, x)` or `.post(path, data)` (a dict's, an HTTP client's)."""
    app = '''from bottle import Bottle

app = Bottle()
app.route("/plain", "GET", handler)
app.route("/kw", method=["POST", "PUT"], callback=handler)
app.post("/posted", callback=handler)
made = app.route("/later")
STATIC = {"/favicon.ico": "static/favicon.ico"}
target = STATIC.get("/favicon.ico", None)
upstream = requests.get("/upstream/status", timeout)
session.post("/login", data)


class Bottler(Bottle):
    def __init__(self):
        super().__init__()
        self.route("/token", "GET", self.auth)
'''
    assert sorted(mined_routes(tmp_path, capsys, {"svc/__init__.py": "", "svc/app.py": app})) == [
        "GET /plain", "GET /token", "POST /kw", "POST /posted", "PUT /kw"]


def test_a_dict_keyed_by_method_and_path_is_a_route_table():
    """mockallan: `self._api_endpoints = {('GET', '/config'): self._get_config, # a comment
    ('PUT', '/config'): ...}`, looked up by `(request.method.upper(), request.path)`. A dict with a
    key that is not a (method, path) pair, one of two entries, or one whose values are no handlers (an
    HTTP client's rate limits) is no table."""
    found = by_name(surfaces("python", '''
        class AppHandler:
            def __init__(self):
                self._api_endpoints = {
                    # Stub configuration
                    ('GET', '/config'): self._get_config,
                    ('PUT', '/config'): self._put_config,
                    ('POST', '/assert-called-with'): self._assert_called_with,
                }
                self.mixed = {('GET', '/a'): self.a, ('GET', '/b'): self.b, ('FETCH', '/c'): self.c}
                self.short = {('GET', '/x'): self.x, ('POST', '/y'): self.y}
                self.limits = {('GET', '/users'): 10, ('POST', '/users'): 5, ('GET', '/orders'): 20}
        '''), "http-route")
    assert sorted(found) == ["GET /config", "POST /assert-called-with", "PUT /config"]
    assert found["PUT /config"].handler == "self._put_config"


def test_a_callers_argument_is_read_with_the_callers_names_not_the_methods_parameters():
    """`v.register(prefix + "/docs")` with the caller's `prefix = "/api"`, into `def register(self,
    url, prefix="")`: the caller's prefix, not the method's default of the same name."""
    found = by_name(surfaces("python", '''
        from flask import Flask

        app = Flask(__name__)

        class View:
            def __init__(self, app):
                self.app = app

            def register(self, url, prefix=""):
                self.app.add_url_rule(prefix + url, "v", self.dispatch)

        def setup():
            prefix = "/api"
            v = View(app)
            v.register(prefix + "/docs")
        '''), "http-route")
    assert sorted(found) == ["GET /api/docs"], sorted(found)


def test_parameter_names_leave_out_splats_typed_or_not():
    from miners.surfaces import py_parameter_names

    source = b"def f(self, a, *args: int, b: str = '', c=1, **kw: int):\n    pass\n"
    pf = ParsedFile("m.py", "python", source, parse("python", source))
    function = pf.tree.root_node.named_children[0]
    assert py_parameter_names(pf, function) == ["self", "a", "b", "c"]


def test_a_registration_in_a_loop_over_a_literal_list_serves_each_row():
    """wechat-cli: `for path, filename, mime in [("/", "index.html", ...), ("/app.js", ...)]:
    app.add_api_route(path, asset(filename, mime))`; also through `sorted()` and `enumerate()`. A loop
    over what only run time knows keeps its path a parameter."""
    found = by_name(surfaces("python", '''
        from fastapi import FastAPI

        app = FastAPI(openapi_url=None)
        PAGES = ["about", "contact"]

        for path, filename in [("/", "index.html"), ("/app.js", "app.js")]:
            app.add_api_route(path, asset(filename), methods=["GET"])
        for name in sorted(PAGES):
            app.add_api_route(f"/{name}", page)
        for i, name in enumerate(PAGES):
            app.add_api_route(f"/enum/{name}", page)
        for table in load_tables():
            app.add_api_route(f"/tables/{table}", page)
        '''), "http-route")
    assert sorted(found) == ["GET /", "GET /about", "GET /app.js", "GET /contact", "GET /enum/about",
                             "GET /enum/contact", "GET /tables/{table}"], sorted(found)
