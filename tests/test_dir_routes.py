"""Routes a server makes at run time from the files of a directory it reads (miners/dir_routes.py),
mined through the CLI from real trees."""

from conftest import mined_routes

_PACKAGE = '{"name": "svc", "version": "1.0.0", "main": "server.js", "dependencies": {"express": "^4"}}'

# NeteaseCloudMusicApi's shape: a function reads the directory its caller names, each file's route
# made by a helper inside it, a table of file names with paths of their own, `app.use` per route
_NETEASE = """
const fs = require('fs')
const path = require('path')
const express = require('express')

async function getModulesDefinitions(modulesPath, specificRoute) {
  const files = await fs.promises.readdir(modulesPath)
  const parseRoute = (fileName) =>
    specificRoute && fileName in specificRoute
      ? specificRoute[fileName]
      : `/${fileName.replace(/\\.js$/i, '').replace(/_/g, '/')}`
  return files.filter((file) => file.endsWith('.js')).map((file) => {
    const route = parseRoute(file)
    return { route, module: require(path.join(modulesPath, file)) }
  })
}

async function serve() {
  const app = express()
  app.get('/health', (req, res) => res.send('ok'))
  const special = { 'daily_signin.js': '/daily_signin' }
  const defs = await getModulesDefinitions(path.join(__dirname, 'module'), special)
  for (const def of defs) {
    app.use(def.route, async (req, res) => {
      res.send(await def.module(req.query))
    })
  }
  app.listen(3000)
}
module.exports = { serve }
"""


def _netease(tmp_path, capsys, extra=None):
    files = {"package.json": _PACKAGE, "server.js": _NETEASE,
             "module/album_detail.js": "module.exports = (query, request) => request('/album', query)\n",
             "module/daily_signin.js": "module.exports = (query) => query\n",
             "module/search.js": "module.exports = function search(query) { return query }\n",
             "module/README.md": "not a module\n", **(extra or {})}
    return mined_routes(tmp_path, capsys, files)


def test_a_route_for_each_file_named_as_the_code_turns_names_into_paths(tmp_path, capsys):
    routes = _netease(tmp_path, capsys)
    assert sorted(routes) == ["ANY /album/detail", "ANY /daily_signin", "ANY /search", "GET /health"]
    route = routes["ANY /album/detail"]
    assert route["source"]["path"] == "server.js"
    notes = " ".join(route["unknowns"])
    assert "one for each file of module/" in notes and "module/album_detail.js" in notes
    kinds = [(e["kind"], e["path"]) for e in route["evidence"]]
    assert ("route", "server.js") in kinds
    assert any(path == "module/album_detail.js" for _, path in kinds)  # the file that is the route
    assert route["confidence"] < routes["GET /health"]["confidence"]  # the loading is not followed
    assert route["executable"] is False and route["draft_contract"]["effects"] == ["custom:external.opaque-effects"]


def test_files_in_subdirectories_are_routes_only_when_the_reader_recurses(tmp_path, capsys):
    routes = _netease(tmp_path, capsys, {"module/deep/song_url.js": "module.exports = (q) => q\n"})
    assert "ANY /deep/song/url" not in routes and "ANY /search" in routes


def test_a_transformation_that_is_not_literal_gives_no_routes(tmp_path, capsys):
    server = _NETEASE.replace(".replace(/_/g, '/')", ".replace(/_/g, SEPARATOR)")
    routes = mined_routes(tmp_path, capsys, {"package.json": _PACKAGE, "server.js": server,
                                             "module/album_detail.js": "module.exports = (q) => q\n"})
    assert sorted(routes) == ["GET /health"]


def test_a_directory_not_in_the_tree_gives_no_routes(tmp_path, capsys):
    server = _NETEASE.replace("'module'", "'modules'")
    routes = mined_routes(tmp_path, capsys, {"package.json": _PACKAGE, "server.js": server,
                                             "module/album_detail.js": "module.exports = (q) => q\n"})
    assert sorted(routes) == ["GET /health"]


# dailyhot-api's shape: a recursive reader of a constant's directory, hono's basePath per name,
# the export the loop imports from each file as the handler, a catch-all that is no route
_DAILYHOT = """
import { Hono } from "hono";
import path from "path";
import fs from "fs";
const app = new Hono();
const routersDirName = "routes";
const routersDirPath = path.join(__dirname, routersDirName);
const findFiles = (dirPath, allFiles = [], basePath = "") => {
    const items = fs.readdirSync(dirPath);
    items.forEach((item) => {
        const fullPath = path.join(dirPath, item);
        const relativePath = basePath ? path.posix.join(basePath, item) : item;
        if (fs.statSync(fullPath).isDirectory()) {
            findFiles(fullPath, allFiles, relativePath);
        } else if (!item.endsWith(".d.ts") && item !== "index.js") {
            allFiles.push(relativePath.replace(/\\.(ts|js)$/, ""));
        }
    });
    return allFiles;
};
const allRoutePath = findFiles(routersDirPath);
for (let index = 0; index < allRoutePath.length; index++) {
    const router = allRoutePath[index];
    const listApp = app.basePath(`/${router}`);
    listApp.get("/", async (c) => {
        const { handleRoute } = await import(`./routes/${router}.js`);
        return c.json(await handleRoute(c));
    });
    listApp.all("*", (c) => c.json({ code: 405 }, 405));
}
app.get("/all", (c) => c.json({ routes: allRoutePath }));
export default app;
"""


def test_a_base_path_per_file_through_a_recursive_reader(tmp_path, capsys):
    files = {"package.json": '{"name": "hot", "version": "1.0.0", "type": "module", "main": "dist/registry.js", '
                             '"dependencies": {"hono": "^4"}}',
             "dist/registry.js": _DAILYHOT,
             "dist/routes/bilibili.js": "/** The hot list. */\nexport const handleRoute = async (c) => ({ ok: 1 });\n",
             "dist/routes/bilibili.d.ts": "export declare const handleRoute: any;\n",
             "dist/routes/index.js": "export const x = 1;\n",
             "dist/routes/douban/movie.js": "export const handleRoute = async (c) => ({});\n"}
    routes = mined_routes(tmp_path, capsys, files)
    assert sorted(routes) == ["GET /all", "GET /bilibili", "GET /douban/movie"]  # not `GET /`, nor index.js
    route = routes["GET /bilibili"]
    assert route["symbol"] == "handleRoute"
    assert {"kind": "declaration", "detail": "handler handleRoute", "path": "dist/routes/bilibili.js",
            "line": 2} in route["evidence"]


def test_a_router_mounted_per_file_is_not_a_route_of_its_own(tmp_path, capsys):
    server = """
const fs = require('fs')
const express = require('express')
const app = express()
for (const file of fs.readdirSync(__dirname + '/routes')) {
  const name = file.replace('.js', '')
  app.use(`/${name}`, require(`./routes/${name}`))
}
app.listen(3000)
"""
    routes = mined_routes(tmp_path, capsys, {"package.json": _PACKAGE, "server.js": server,
                                             "routes/users.js": "const r = require('express').Router()\n"
                                                                "r.get('/list', (req, res) => res.send([]))\n"
                                                                "module.exports = r\n"})
    assert sorted(routes) == ["GET /users/list"]


def test_a_path_the_loop_does_not_give_is_not_made_per_file(tmp_path, capsys):
    server = """
const fs = require('fs')
const express = require('express')
const app = express()
const MOUNT = process.env.MOUNT
const files = fs.readdirSync(__dirname + '/module')
for (const file of files) {
  app.use(MOUNT, (req, res) => res.send(file))
}
app.get('/health', (req, res) => res.send('ok'))
"""
    routes = mined_routes(tmp_path, capsys, {"package.json": _PACKAGE, "server.js": server,
                                             "module/album.js": "module.exports = (q) => q\n"})
    assert sorted(routes) == ["GET /health"]


def test_a_folder_of_modules_exporting_verbs_handlers_that_the_server_walks(tmp_path, capsys):
    """@userdashboard/dashboard: its sitemap walks `src/www` (`fs.readdirSync`) and serves each
    module there by its place, `src/www/api/user/account.js` exporting `{ get }` as `GET
    /api/user/account`, `index` its folder. A module that exports anything else is none, nor is a
    folder of verb modules nothing reads, nor are two such modules alone."""
    def page(exported: str) -> str:
        return f"module.exports = {{ {exported} }}\n" + "".join(
            f"async function {v} (req, res) {{ return res.end() }}\n" for v in ("get", "post", "patch", "before"))

    files = {
        "package.json": '{"name": "dash", "version": "1.0.0", "main": "index.js"}',
        "index.js": "module.exports = require('./src/sitemap.js')\n",
        "src/sitemap.js": (
            "const fs = require('fs')\nconst path = require('path')\n"
            "function scan (dir, list) {\n  for (const f of fs.readdirSync(dir)) list.push(path.join(dir, f))\n}\n"
            "module.exports = { generate () { const l = []; scan(path.join(global.root, '/src/www'), l); return l } }\n"),
        "src/www/index.js": page("get"),
        "src/www/account/change-password.js": page("get, post"),
        "src/www/api/user/account.js": page("before, patch"),
        "src/www/api/user/create.js": "module.exports = {\n  auth: false,\n  post: async (req) => ({})\n}\n",
        "src/www/account/navbar.js": "module.exports = { setup (doc) {} }\n",
        "other/a.js": page("get"), "other/b.js": page("get"), "other/c.js": page("get"),
    }
    routes = mined_routes(tmp_path / "dash", capsys, files)
    assert sorted(routes) == ["GET /", "GET /account/change-password", "PATCH /api/user/account",
                              "POST /account/change-password", "POST /api/user/create"], sorted(routes)
    two = {k: v for k, v in files.items() if k not in ("src/www/index.js", "src/www/api/user/create.js")}
    assert mined_routes(tmp_path / "two", capsys, two) == {}
