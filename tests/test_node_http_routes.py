"""Routes of a handler that dispatches by itself (plain node:http): path comparisons, switches and
`{path, handler}` tables; not a browser's location, not a middleware's filter. Mined from real
trees through the CLI."""

from __future__ import annotations

from conftest import mined_routes


def test_a_plain_node_http_handlers_own_dispatch(tmp_path, capsys):
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "colors", "version": "1.0.0", "main": "src/server.js"}',
        "src/server.js": (
            "import http from 'http';\nconst base = 'v1/';\n"
            "const routes = [\n  { path: '/', handler: async () => meta() },\n"
            "  { path: `/${base}lists/`, handler: lists },\n  { path: '/upload', method: 'post', handler: up },\n];\n"
            "const server = http.createServer(async (req, res) => {\n  const url = new URL(req.url, 'http://x');\n"
            "  if (url.pathname === '/health') return ok(res);\n"
            "  if (req.method === 'DELETE' && req.url === '/cache') return clear(res);\n"
            "  if (req.method === 'POST') {\n    switch (url.pathname) {\n      case '/v1/names/': return names(res);\n"
            "      case '/v1/swatch': return swatch(res);\n    }\n  }\n});\n"),
        "src/wellKnown.js": (
            "export function build() {\n  return async function handleWellKnown(request, response) {\n"
            "    const u = new URL(request.url, 'http://localhost');\n"
            "    if (u.pathname === '/.well-known/security.txt') return text(response);\n  };\n}\n"),
        "src/middleware.js": (  # a filter that passes requests on: no route
            "module.exports = (req, res, next) => {\n  if (req.path === '/api/config') return next();\n"
            "  deny(res);\n};\n"),
        "web/app.js": (  # browser code: the page's own location, not a request's path
            "function route(req, res) {\n  if (window.location.pathname === '/login') show();\n}\n"),
        "src/table.js": (  # a table of a file that creates no server: a client's, maybe
            "module.exports = [{ path: '/a', handler: a }, { path: '/b', handler: b }];\n"),
    })
    assert sorted(routes) == ["ANY /", "ANY /.well-known/security.txt", "ANY /health", "ANY /v1/lists/",
                              "DELETE /cache", "POST /upload", "POST /v1/names/", "POST /v1/swatch"]
    assert routes["ANY /health"]["source"]["line"] == 10
    assert routes["ANY /v1/lists/"]["evidence"][0]["detail"] == "node:http route table: ANY /v1/lists/"


def test_a_request_parser_compares_the_path_of_the_urls_split_at_its_query(tmp_path, capsys):
    """bittorrent-tracker's `parseHttpRequest(req, opts)`: `const s = req.url.split('?')`, then
    `s[0] === '/announce'`; a function that passes requests on (`next`) is no route."""
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "tracker", "version": "1.0.0", "main": "server.js"}',
        "server.js": (
            "import http from 'http'\nimport parse from './parse-http.js'\n"
            "http.createServer((req, res) => parse(req, {})).listen(8000)\n"),
        "parse-http.js": (
            "export default function (req, opts) {\n  const s = req.url.split('?')\n"
            "  if (s[0] === '/announce') return 'announce'\n  else if (s[0] === '/scrape') return 'scrape'\n"
            "  const t = req.url.split('#')\n  if (t[0] === '/not-split-at-the-query') return 'x'\n}\n"),
        "filter.js": (
            "export function gate (req, next) {\n  const s = req.url.split('?')\n"
            "  if (s[0] === '/passes-on') return next()\n}\n"),
    })
    assert sorted(routes) == ["ANY /announce", "ANY /scrape"]


def test_a_middleware_that_answers_a_path_itself_serves_it(tmp_path, capsys):
    """@react-native/dev-middleware's `processRequest(request, response, next)`: `pathname ===
    PAGES_LIST_JSON_URL || pathname === PAGES_LIST_JSON_URL_2` (same-file constants) answers with
    `this.#sendJsonResponse(response, ...)`; a test whose branch calls next(), or that only guards
    (the response used after the if), serves nothing."""
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "devmw", "version": "1.0.0", "main": "dist/proxy.js"}',
        "dist/proxy.js": (
            "const PAGES_LIST_JSON_URL = '/json';\nconst PAGES_LIST_JSON_URL_2 = '/json/list';\n"
            "const SKIPPED_URL = '/skipped';\n"
            "class Proxy {\n  processRequest(request, response, next) {\n"
            "    const pathname = new URL(request.url, 'http://example.com').pathname;\n"
            "    if (pathname === PAGES_LIST_JSON_URL || pathname === PAGES_LIST_JSON_URL_2) {\n"
            "      this.#sendJsonResponse(response, this.pages());\n"
            "    } else if (pathname === SKIPPED_URL) {\n      next();\n    } else {\n      next();\n    }\n  }\n"
            "  #sendJsonResponse(response, object) {\n    response.end(JSON.stringify(object));\n  }\n}\n"
            "module.exports = Proxy;\n"),
        "dist/guard.js": (
            "module.exports = (req, res, next) => {\n  if (req.path === '/admin') {\n    audit(req.path);\n  }\n"
            "  if (!req.user && req.path === '/private') return next(new Error('no'));\n"
            "  res.setHeader('x', 'y');\n  next();\n};\n"),
    })
    assert sorted(routes) == ["ANY /json", "ANY /json/list"], sorted(routes)
    assert routes["ANY /json/list"]["source"]["line"] == 7


def test_a_table_of_regexes_a_fetch_handler_tests_the_path_with(tmp_path, capsys):
    """@langgraph-js/pure-graph: `const routes = [{ method: "POST", pattern: /^\\/assistants\\/search$/,
    handler }, ...]` looked up by `route.pattern.test(pathname)`; `[^/]+` is a parameter, and a
    row no one path spells is none."""
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "graph", "version": "1.0.0", "main": "fetch.js"}',
        "fetch.js": (
            "const routes = [\n  // Assistants\n"
            "  { method: 'POST', pattern: /^\\/assistants\\/search$/, handler: search },\n"
            "  { method: 'GET', pattern: /^\\/assistants\\/[^/]+\\/graph$/, handler: graph },\n"
            "  { method: 'GET', pattern: /^\\/(a|b)+$/, handler: odd },\n];\n"
            "export async function handleRequest(req) {\n  const pathname = new URL(req.url).pathname;\n"
            "  for (const route of routes) {\n"
            "    if (route.method === req.method && route.pattern.test(pathname)) return route.handler(req);\n  }\n}\n"),
    })
    assert sorted(routes) == ["GET /assistants/{arg1}/graph", "POST /assistants/search"], sorted(routes)


def test_a_middleware_that_takes_its_prefix_off_and_hands_the_rest_on(tmp_path, capsys):
    """@nuasite/cms: `if (!url.startsWith('/_nua/cms/')) return next()`, then `const route =
    url.replace('/_nua/cms/', '').split('?')[0]` handed to a function of the file that compares it
    (`route === 'update' && req.method === 'POST'`, `case 'media/list':`). A rest no test of the
    prefix guards, or compared in a function nothing hands it to, is none."""
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "cms", "version": "1.0.0", "main": "src/dev.ts"}',
        "src/dev.ts": (
            "export function setup(server) {\n"
            "  server.middlewares.use((req, res, next) => {\n    const url = req.url || ''\n"
            "    if (!url.startsWith('/_nua/cms/')) { next(); return }\n"
            "    const route = url.replace('/_nua/cms/', '').split('?')[0]!\n"
            "    handleRoute(route, req, res).catch(() => {})\n  })\n"
            "  server.middlewares.use((req, res, next) => {\n"
            "    const rest = (req.url || '').replace('/other/', '')\n    handleRoute(rest, req, res)\n  })\n}\n"
            "async function handleRoute(route: string, req, res): Promise<void> {\n"
            "  if (route === 'update' && req.method === 'POST') { return send(res) }\n"
            "  switch (route) {\n    case 'media/list': return list(res)\n  }\n"
            "}\n"
            "function unused(route: string) { if (route === 'never') return 1 }\n"),
    })
    assert sorted(routes) == ["ANY /_nua/cms/media/list", "POST /_nua/cms/update"], sorted(routes)


def test_a_handler_that_turns_away_every_other_path_serves_the_one_it_keeps(tmp_path, capsys):
    """clawdbot's gateway: `if (url.pathname !== "/tools/invoke") return false;` then `if
    (req.method !== "POST") {...; return true}`: the rest of the function serves POST /tools/invoke.
    A `!==` test that does not return, or one with an else, guards nothing."""
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "gateway", "version": "1.0.0", "main": "dist/server.js"}',
        "dist/server.js": (
            "export async function handleToolsInvoke(req, res, opts) {\n"
            "    const url = new URL(req.url ?? '/', 'http://localhost');\n"
            "    if (url.pathname !== '/tools/invoke')\n        return false;\n"
            "    if (req.method !== 'POST') {\n        sendMethodNotAllowed(res);\n        return true;\n    }\n"
            "    return invoke(req, res);\n}\n"
            "export function handleHealth(req, res) {\n  if (req.url !== '/healthz') { return; }\n  ok(res);\n}\n"
            "export function logOthers(req, res) {\n  if (req.url !== '/quiet') log(req);\n  ok(res);\n}\n"
            "export function either(req, res) {\n  if (req.url !== '/a') return a(res); else return b(res);\n}\n"),
    })
    assert sorted(routes) == ["ANY /healthz", "POST /tools/invoke"]
    assert routes["POST /tools/invoke"]["source"]["line"] == 3


def test_a_bun_fetch_handler_matching_regexes_and_looking_pages_up_by_path(tmp_path, capsys):
    """ove's Bun server: `const m = path.match(/^\\/api\\/trace\\/([^/]+)$/); if (m && req.method ===
    "GET")`, `/^\\/api\\/tasks\\/[^/]+\\/cancel$/.test(path)` in an `if` with POST, and `self.htmlPages[path]`
    over `this.htmlPages = {"/": ..., "/trace": ...}`. A regex not anchored at the start, a match of
    something other than the request's path, and a table whose keys are not paths give nothing."""
    server = r'''export class HttpAdapter {
  constructor() {
    this.htmlPages = { "/": "index.html", "/trace": "trace.html" };
    this.labels = { ok: "fine" };
  }
  start() {
    const self = this;
    Bun.serve({
      async fetch(req) {
        const url = new URL(req.url);
        const path = url.pathname;
        const page = self.htmlPages[path];
        if (page) return new Response(page);
        const label = self.labels[path];
        const traceMatch = path.match(/^\/api\/trace\/([^/]+)$/);
        if (traceMatch && req.method === "GET") {
          return Response.json([]);
        }
        if (req.method === "POST" && /^\/api\/tasks\/[^/]+\/cancel$/.test(path)) {
          return Response.json({});
        }
        const loose = path.match(/\/anywhere\//);
        const other = req.headers.get("x").match(/^\/header$/);
        return new Response("no", { status: 404 });
      },
    });
  }
}
'''
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "ove", "version": "1.0.0", "main": "src/http.ts"}', "src/http.ts": server})
    assert sorted(routes) == ["ANY /", "ANY /trace", "GET /api/trace/{arg1}", "POST /api/tasks/{arg1}/cancel"], \
        sorted(routes)


def test_regex_matches_anchored_at_both_ends_with_flags_and_a_table_looked_up_twice(tmp_path, capsys):
    """A regex with flags (`/^\\/health$/i.test(path)`, `/.../g.exec(path)`) is matched as one without,
    and so is one on the next line (`path.match(\\n /.../)`), its segments and groups numbered in turn;
    one anchored only at the start (`/^\\/api\\//.test(path)`, a prefix the handler proxies) is no route;
    a page table looked up twice gives each page once."""
    from indexer.cli import main

    server = r'''const http = require("http");
const pages = { "/": "index.html", "/about": "about.html" };
http.createServer((req, res) => {
  const path = req.url;
  if (/^\/api\//.test(path)) return proxy(req, res);
  if (/^\/static/.test(path)) return serve(req, res);
  if (/^\/health$/i.test(path)) return res.end("ok");
  const m = /^\/items\/(\d+)$/g.exec(path);
  const scoped = path.match(
    /^\/v1\/assistants\/[^/]+\/(\w+)$/,
  );
  if (scoped) return forward(req, res, scoped[1]);
  if (m && req.method === "GET") return res.end(m[1]);
  if (pages[path]) return res.end(pages[path]);
  const page = pages[path];
  res.end(page);
}).listen(3000);
'''
    files = {"package.json": '{"name": "srv", "version": "1.0.0", "main": "server.js"}', "server.js": server}
    routes = mined_routes(tmp_path, capsys, files)
    assert sorted(routes) == ["ANY /", "ANY /about", "ANY /health", "ANY /v1/assistants/{arg1}/{arg2}",
                              "GET /items/{arg1}"], sorted(routes)
    assert main(["--db", str(tmp_path / "again.db"), "--json", "mine", str(tmp_path / "tree")]) == 0
    import json

    ids = [c["id"] for c in json.loads(capsys.readouterr().out)["candidates"] if c["kind"] == "http-route"]
    assert len(ids) == len(set(ids)) == 5, ids
