"""Mining a real git repository (built here) end to end through `capindex mine`: identity, coverage,
candidates with evidence, surfaces, effects, hazards, and a report that validates."""

from __future__ import annotations

import json
import subprocess
import textwrap

import pytest

from conftest import mined_routes, rows
from indexer.cli import main
from miners.coverage import MINIFIED
from miners.mine import FROM_MINIFIED, UNKNOWN_PREFIX
from schemas.documents import validate

FILES = {
    "package.json": json.dumps({"name": "slugkit", "version": "1.0.0", "main": "index.js",
                                "bin": {"slugkit": "bin/cli.js"}, "scripts": {"postinstall": "node setup.js"}}),
    "index.js": "function slugify(text) {\n  return text.toLowerCase();\n}\nfunction helper() {}\n"
                "module.exports = slugify;\n",
    "src/internal.js": "function hidden() { return require('fs').readFileSync('/etc/hosts'); }\n",
    "bin/cli.js": "const { program } = require('commander');\nprogram.command('make <text>').description('make a slug');\n"
                  "program.parse();\n",
    "test/index.test.js": "const slugify = require('..');\ntest('slugify', () => slugify('A'));\n",
    "README.md": "# slugkit\n\nCall `slugify(text)` to get a slug.\n",
    "pyproject.toml": "[project]\nname = \"pytool\"\nversion = \"0.1.0\"\n[project.scripts]\npytool = \"pytool.cli:main\"\n",
    "src/pytool/__init__.py": "from .core import normalize\n\n__all__ = [\"normalize\"]\n",
    "src/pytool/core.py": "def normalize(path):\n    \"\"\"Normalise the text in a file.\"\"\"\n"
                          "    return open(path).read().strip()\n\n\ndef _helper():\n    return 1\n",
    "src/pytool/server.py": "from fastapi import FastAPI\nfrom mcp.server.fastmcp import FastMCP\n\napp = FastAPI()\n"
                            "mcp = FastMCP('tools')\n\n\n@app.get('/items/{item_id}')\ndef read_item(item_id: int):\n"
                            "    return {'id': item_id}\n\n\n@mcp.tool()\ndef search(query: str) -> str:\n"
                            "    \"\"\"Search the catalogue.\"\"\"\n    return query\n",
    "src/pytool/_private.py": "def secret():\n    return eval('1 + 1')\n",
    "node_modules/dep/index.js": "module.exports = function vendored() {}\n",
    "assets/logo.xyz": "not code",
    "src/blob.py": "x = 1\n\0\0binary\n",
    "src/bundle.js": "var a=1;" * 1000 + "\n",
    "src/broken.py": "def ok():\n    return 1\n\ndef broken(:\n",
    "src/deep.py": "x = " + "[" * 3000 + "]" * 3000 + "\n",
    "src/latin1.py": "def caf\xe9():\n    return 1\n",
}


def git(*args, cwd):
    env = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_SYSTEM": "/dev/null", "HOME": "/tmp", "PATH": "/usr/bin:/bin",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.org"}
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, env=env).stdout.decode().strip()


@pytest.fixture
def repo(tmp_path):
    root = tmp_path / "repo"
    for path, text in FILES.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("latin-1") if path == "src/latin1.py" else text.encode())
    git("init", "-q", "-b", "main", cwd=root)
    git("add", "-A", cwd=root)
    git("commit", "-q", "-m", "first", cwd=root)
    return root, git("rev-parse", "HEAD", cwd=root)


def mine(tmp_path, capsys, *args):
    assert main(["--db", str(tmp_path / "s.db"), "--json", "mine", *args]) == 0
    report = json.loads(capsys.readouterr().out)
    validate("report", report, "report")
    return report


def test_a_branch_is_resolved_to_a_commit_and_the_working_tree_never_leaks(repo, tmp_path, capsys):
    root, commit = repo
    (root / "index.js").write_text("export function leaked() {}\n")  # uncommitted: not part of the commit
    report = mine(tmp_path, capsys, str(root), "--rev", "main")
    assert report["repository"]["kind"] == "git" and report["repository"]["pinned"] is True
    assert report["repository"]["commit"] == commit and report["repository"]["rev"] == "main"
    assert report["candidates"] and all(c["source"]["commit"] == commit for c in report["candidates"])
    assert not any("leaked" in c["name"] for c in report["candidates"])


def test_coverage_counts_every_file_and_says_why_each_was_skipped(repo, tmp_path, capsys):
    root, _ = repo
    coverage = mine(tmp_path, capsys, str(root))["coverage"]
    reasons = {s["path"]: s["reason"] for s in coverage["skipped"]}
    assert coverage["files_seen"] == len(FILES)
    assert reasons["node_modules/dep/index.js"] == "vendored"
    assert reasons["src/blob.py"] == "binary"
    assert reasons["src/bundle.js"].startswith("minified")
    assert coverage["complete"] is False  # a partial scan never passes as a complete one


def test_a_file_is_minified_by_a_long_line_among_its_first_200():
    from miners.coverage import MAX_LINE, content_problem

    short = b"x = 1\n"
    long = b"y" * (MAX_LINE + 1) + b"\n"
    assert content_problem(short * 199 + long + short * 5) == MINIFIED  # the 200th line
    assert content_problem(short * 199 + long.rstrip()) == MINIFIED  # the last line, with no newline
    assert content_problem(short * 200 + long) is None  # the 201st: not looked at
    assert content_problem(b"z" * (MAX_LINE - 1) + b"\n" + short * 10) is None
    assert content_problem(long, minified_ok=True) is None


def test_an_inline_source_map_is_not_minified_code():
    """Babel's output keeps readable code and ends with one long comment: its source map."""
    from miners.coverage import MAX_LINE, content_problem

    code = b"class Pages extends PromiseRouter {}\n" * 50
    inline = b"//# sourceMappingURL=data:application/json;charset=utf-8;base64," + b"A" * (MAX_LINE * 2) + b"\n"
    assert content_problem(code + inline) is None
    assert content_problem(code + b"  " + inline.replace(b"#", b"@", 1)) is None  # the older spelling
    # a long line of code beside it still marks the file minified, and so does a map given by address
    assert content_problem(code + b"x" * (MAX_LINE + 1) + b"\n" + inline) == MINIFIED
    assert content_problem(code + b"//# sourceMappingURL=" + b"a" * (MAX_LINE + 1) + b".map\n") == MINIFIED


def test_nbdevs_modules_are_the_packages_code_not_generated_output():
    """nbdev marks every module it exports from a notebook `AUTOGENERATED! DO NOT EDIT!`, naming the
    notebook to edit, which the package does not ship (fastai's and FastHTML's modules): those are
    mined. Other marks still skip the file."""
    from miners.coverage import content_problem

    code = b"def f(x):\n    return x\n"
    assert content_problem(b"# AUTOGENERATED! DO NOT EDIT! File to edit: ../nbs/02_serving.ipynb.\n" + code) is None
    assert content_problem(b"# Code generated by protoc-gen-go. DO NOT EDIT.\n" + code) == "generated (marked as such)"
    assert content_problem(b"# AUTOGENERATED! DO NOT EDIT! File to edit: schema.json\n" + code) == \
        "generated (marked as such)"


def test_unsupported_extensions_and_hazards_are_reported(repo, tmp_path, capsys):
    root, _ = repo
    report = mine(tmp_path, capsys, str(root))
    assert report["unsupported_extensions"].get(".xyz") == 1
    kinds = {(h["kind"], h.get("path")) for h in report["hazards"]}
    assert ("install-script", "package.json") in kinds


def test_declared_commands_are_candidates_never_executable(repo, tmp_path, capsys):
    root, _ = repo
    report = mine(tmp_path, capsys, str(root))
    commands = {c["name"]: c for c in report["candidates"] if c["kind"] == "cli-command"}
    assert {"slugkit", "pytool"} <= set(commands)
    for c in report["candidates"]:
        assert c["executable"] is False and c["authority"]["complete"] is False
        assert "custom:external.opaque-effects" in c["authority"]["effects"]
        assert c["evidence"] and all(e.get("path") for e in c["evidence"])


def test_a_plain_directory_is_reported_unpinned(repo, tmp_path, capsys):
    root, _ = repo
    import shutil

    shutil.rmtree(root / ".git")
    report = mine(tmp_path, capsys, str(root))
    assert report["repository"]["kind"] == "directory" and report["repository"]["pinned"] is False
    assert report["repository"]["commit"] is None


def test_candidates_are_stored_and_ids_are_stable(repo, tmp_path, capsys):
    root, _ = repo
    first = {c["id"] for c in mine(tmp_path, capsys, str(root))["candidates"]}
    second = {c["id"] for c in mine(tmp_path, capsys, str(root))["candidates"]}
    assert first == second and first
    assert rows(tmp_path / "s.db", "SELECT COUNT(*) FROM candidates WHERE ecosystem = 'mined:git'") == [(len(first),)]


def test_a_revision_that_does_not_exist_is_one_clear_error(repo, tmp_path, capsys):
    root, _ = repo
    assert main(["--db", str(tmp_path / "s.db"), "mine", str(root), "--rev", "nope"]) == 1
    err = capsys.readouterr().err
    assert "nope" in err and "Traceback" not in err


def test_rev_on_a_plain_directory_is_a_usage_error(tmp_path, capsys):
    (tmp_path / "d").mkdir()
    assert main(["--db", str(tmp_path / "s.db"), "mine", str(tmp_path / "d"), "--rev", "main"]) == 2


def by_name(report):
    return {(c["kind"], c["name"]): c for c in report["candidates"]}


def test_library_functions_are_public_only_when_the_package_declares_them(repo, tmp_path, capsys):
    root, _ = repo
    found = by_name(mine(tmp_path, capsys, str(root)))
    slugify = found[("function", "slugify")]  # `function x(){}` then `module.exports = x`
    assert slugify["visibility"] == "public" and slugify["module"] == "slugkit"
    assert slugify["source"]["path"] == "index.js" and slugify["source"]["line"] == 1
    assert {e["kind"] for e in slugify["evidence"]} >= {"declaration", "documentation", "test"}
    assert found[("function", "helper")]["visibility"] == "internal"
    assert found[("function", "hidden")]["visibility"] == "internal"  # not reachable from main
    normalize = found[("function", "normalize")]
    assert normalize["visibility"] == "public" and normalize["module"] == "pytool.core"
    assert normalize["description"] == "Normalise the text in a file."
    assert normalize["signature"] == "def normalize(path)"
    assert found[("function", "_helper")]["visibility"] == "internal"
    assert found[("function", "secret")]["visibility"] == "internal"  # in a _private module
    assert not any(c["source"]["path"].startswith(("test/", "node_modules/")) for c in found.values())
    assert found[("function", "ok")]["source"]["path"] == "src/broken.py"  # a file that fails to parse still yields


def test_surfaces_effects_and_hazards_come_with_their_evidence(repo, tmp_path, capsys):
    root, _ = repo
    report = mine(tmp_path, capsys, str(root))
    found = by_name(report)
    route = found[("http-route", "GET /items/{item_id}")]
    assert route["source"]["path"] == "src/pytool/server.py" and route["evidence"][0]["kind"] == "route"
    tool = found[("mcp-tool", "search")]
    assert tool["description"] == "Search the catalogue."
    assert ("cli-subcommand", "make") in found or ("cli-command", "make") in found
    normalize = found[("function", "normalize")]
    assert normalize["effects"] == ["filesystem.read"]
    assert normalize["authority"]["effects"] == ["filesystem.read", "custom:external.opaque-effects"]
    assert any(e["kind"] == "effect" and e["line"] == 3 for e in normalize["evidence"])
    assert found[("function", "hidden")]["effects"] == ["filesystem.read"]
    hazards = {(h["kind"], h.get("path")) for h in report["hazards"]}
    assert ("eval", "src/pytool/_private.py") in hazards


def test_an_npm_package_is_mined_from_its_verified_tarball(web, tmp_path, capsys):
    from test_npm import CAPABILITY, sri, tarball

    data = tarball({"name": "slugify-kit", "version": "1.1.0", "main": "index.js", "capability": CAPABILITY},
                   {"index.js": b"function slugify(s) { return s; }\nmodule.exports = slugify;\n"})
    web.raw("/slugify-kit/-/slugify-kit-1.1.0.tgz", data)
    web.json("/slugify-kit", {"name": "slugify-kit", "dist-tags": {"latest": "1.1.0"}, "versions": {"1.1.0": {
        "name": "slugify-kit", "version": "1.1.0",
        "dist": {"integrity": sri(data), "tarball": web.url("/slugify-kit/-/slugify-kit-1.1.0.tgz")}}}})
    report = mine(tmp_path, capsys, "npm:slugify-kit@latest", "--npm-registry", web.base, "--allow-private",
                  "--cache", str(tmp_path / "cache"))
    repo = report["repository"]
    assert repo["kind"] == "npm" and repo["pinned"] is True and repo["rev"] == "latest"
    assert repo["artifact"] == f"slugify-kit@1.1.0#{sri(data)}"  # the observed bytes, not the tag
    slugify = by_name(report)[("function", "slugify")]
    assert slugify["visibility"] == "public" and slugify["module"] == "slugify-kit"


def test_a_pypi_release_is_mined_from_its_verified_file(web, tmp_path, capsys):
    from test_pypi import FIXTURES

    project = json.loads((FIXTURES / "wheel.json").read_text())
    for entry in project["releases"]["0.48.0"]:
        entry["url"] = web.raw(f"/packages/{entry['filename']}", (FIXTURES / entry["filename"]).read_bytes())
    web.json("/pypi/wheel/json", project)
    report = mine(tmp_path, capsys, "pypi:wheel==0.48.0", "--pypi-index", web.base, "--allow-private",
                  "--cache", str(tmp_path / "cache"))
    assert report["repository"]["kind"] == "pypi"
    assert report["repository"]["artifact"].startswith("wheel@0.48.0#sha256:")
    assert any(c["source"]["path"].startswith("wheel/") for c in report["candidates"])


def test_an_anonymous_default_export_is_named_as_users_bind_it(tmp_path, capsys):
    root = tmp_path / "pkg"
    (root / "lib").mkdir(parents=True)
    (root / "package.json").write_text(json.dumps({"name": "is-number", "main": "index.js"}))
    (root / "index.js").write_text("module.exports = function(num) { return typeof num === 'number'; };\n")
    (root / "lib" / "to-slug.js").write_text("module.exports = function(s) { return s; };\n")
    found = by_name(mine(tmp_path, capsys, str(root)))
    assert found[("function", "isNumber")]["module"] == "is-number"
    assert found[("function", "toSlug")]["module"] == "is-number/lib/to-slug"


def test_a_private_module_re_exported_by_its_package_is_public_under_the_package(tmp_path, capsys):
    root = tmp_path / "pkg"
    (root / "src" / "webby").mkdir(parents=True)
    (root / "src" / "webby" / "__init__.py").write_text(
        "from ._api import get\nfrom ._client import Client\n\n__all__ = ['get', 'Client']\n")
    (root / "src" / "webby" / "_api.py").write_text("def get(url):\n    return url\n\n\ndef unlisted():\n    return 1\n")
    (root / "src" / "webby" / "_client.py").write_text("class Client:\n    def send(self, request):\n        return request\n")
    found = by_name(mine(tmp_path, capsys, str(root)))
    assert (found[("function", "get")]["visibility"], found[("function", "get")]["module"]) == ("public", "webby")
    assert found[("method", "Client.send")]["visibility"] == "public"
    assert found[("function", "unlisted")]["visibility"] == "internal"


def test_resource_classes_serve_a_route_per_http_method_they_define_even_from_another_module(tmp_path, capsys):
    root = tmp_path / "svc"
    (root / "svc" / "api").mkdir(parents=True)
    (root / "svc" / "__init__.py").write_text("")
    (root / "svc" / "api" / "__init__.py").write_text("from .watch import Watch\n")
    (root / "svc" / "api" / "watch.py").write_text(
        "from flask_restful import Resource\n\n\nclass Watch(Resource):\n"
        "    def get(self, uuid):\n        \"\"\"Get a watch.\"\"\"\n        return open(uuid).read()\n\n"
        "    def delete(self, uuid):\n        return None\n\n    def helper(self):\n        return 1\n")
    (root / "svc" / "app.py").write_text(
        "from flask import Flask\nfrom flask_restful import Api\nfrom svc.api import Watch\nfrom .nowhere import Gone\n\n"
        "app = Flask(__name__)\napi = Api(app)\n\n\nclass Local(Resource):\n    def post(self):\n        return 1\n\n\n"
        "def setup():\n    api.add_resource(Watch, '/api/watch/<uuid>', '/api/w/<uuid>')\n"
        "    api.add_resource(Local, '/local')\n    api.add_resource(Gone, '/gone')\n")
    (root / "svc" / "todos.py").write_text(
        "from flask_restx import Api, Resource\n\napi = Api()\nns = api.namespace('todos')\n\n\n"
        "@ns.route('/<int:id>')\nclass Todo(Resource):\n    def get(self, id):\n        return id\n\n"
        "    def put(self, id):\n        return id\n")
    report = mine(tmp_path, capsys, str(root))
    routes = {c["name"]: c for c in report["candidates"] if c["kind"] == "http-route"}
    assert set(routes) == {"GET /api/watch/<uuid>", "DELETE /api/watch/<uuid>", "GET /api/w/<uuid>",
                           "DELETE /api/w/<uuid>", "POST /local", "GET /todos/<int:id>", "PUT /todos/<int:id>"}
    get = routes["GET /api/watch/<uuid>"]
    assert get["source"]["path"] == "svc/app.py" and get["description"] == "Get a watch."
    assert get["effects"] == ["filesystem.read"]  # found in the handler, in the other file
    assert {"kind": "declaration", "detail": "handler Watch.get", "path": "svc/api/watch.py", "line": 5} in get["evidence"]
    assert not routes["DELETE /api/watch/<uuid>"]["effects"]


def test_a_console_script_and_the_click_group_it_runs_are_one_command(tmp_path, capsys):
    root = tmp_path / "tool"
    (root / "envtool").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "envtool"\n[project.scripts]\nenvtool = "envtool.cli:cli"\n')
    (root / "envtool" / "__init__.py").write_text("")
    (root / "envtool" / "cli.py").write_text(
        "import click\n\n\n@click.group()\ndef cli():\n    '''Manage .env files.'''\n\n\n"
        "@cli.command()\ndef show():\n    '''Show the values.'''\n")
    report = mine(tmp_path, capsys, str(root))
    commands = [c for c in report["candidates"] if c["kind"] == "cli-command"]
    assert [c["name"] for c in commands] == ["envtool"]
    kinds = [e["kind"] for e in commands[0]["evidence"]]
    assert kinds[0] == "manifest" and "declaration" in kinds  # pyproject's script and the click group
    assert [c["name"] for c in report["candidates"] if c["kind"] == "cli-subcommand"] == ["envtool show"]


def test_an_argparse_prog_that_spells_the_script_with_underscores_is_the_script(tmp_path, capsys):
    root = tmp_path / "tool"
    (root / "gpodder_router").mkdir(parents=True)
    (root / "pyproject.toml").write_text(
        '[project]\nname = "gr"\n[project.scripts]\ngpodder-router = "gpodder_router.__main__:main"\n')
    (root / "gpodder_router" / "__init__.py").write_text("")
    (root / "gpodder_router" / "__main__.py").write_text(
        "import argparse\n\ndef main():\n    parser = argparse.ArgumentParser(prog='gpodder_router')\n"
        "    sub = parser.add_subparsers(dest='command')\n    sub.add_parser('create-user', help='Create a user.')\n"
        "    parser.parse_args()\n")
    report = mine(tmp_path, capsys, str(root))
    assert sorted(c["name"] for c in report["candidates"] if c["kind"].startswith("cli")) == [
        "gpodder-router", "gpodder-router create-user"]


def test_js_constructors_underscored_names_and_constants_are_not_public_operations(tmp_path, capsys):
    root = tmp_path / "pkg"
    root.mkdir()
    (root / "package.json").write_text('{"name": "streamy", "version": "1.0.0", "main": "index.js"}')
    (root / "index.js").write_text(
        "const DEFAULT_SCHEMA = require('./schema');\n"
        "class Encoder {\n  constructor(opts) { this.opts = opts; }\n  encode(x) { return x; }\n"
        "  _transform(chunk) { return chunk; }\n}\n"
        "function _logFunc(msg) { return msg; }\nfunction send(msg) { return _logFunc(msg); }\n"
        "module.exports = { Encoder, send, _logFunc, DEFAULT_SCHEMA };\n")
    (root / "schema.js").write_text("module.exports = {};\n")
    report = mine(tmp_path, capsys, str(root))
    visibility = {c["name"]: c["visibility"] for c in report["candidates"]}
    assert visibility["Encoder"] == visibility["Encoder.encode"] == visibility["send"] == "public"
    assert visibility["Encoder.constructor"] == visibility["Encoder._transform"] == visibility["_logFunc"] == "internal"
    assert "DEFAULT_SCHEMA" not in visibility  # a constant by its name: not a callable


def test_a_git_tree_big_enough_for_two_processes_gives_the_one_process_report(tmp_path):
    from miners.mine import mine_tree
    from miners.parallel import PARALLEL_FROM
    from miners.sources import open_git

    root = tmp_path / "big"
    (root / "src").mkdir(parents=True)
    (root / "package.json").write_text('{"name": "big", "version": "1.0.0", "main": "src/index.js"}')
    exports = []
    for i in range(60):  # ~2 KiB each: well past the size from which mining forks
        body = "".join(f"  const v{j} = require('fs').readFileSync(p + '{j}');\n" for j in range(30))
        (root / "src" / f"m{i}.js").write_text(f"/** Module {i}. */\nfunction read{i}(p) {{\n{body}  return v0;\n}}\n"
                                              f"module.exports = read{i};\n")
        exports.append(f"read{i}: require('./m{i}')")
    (root / "src" / "index.js").write_text("module.exports = {" + ", ".join(exports) + "};\n")
    git("init", "-q", "-b", "main", cwd=root)
    git("add", "-A", cwd=root)
    git("commit", "-q", "-m", "first", cwd=root)
    assert sum(p.stat().st_size for p in (root / "src").iterdir()) > PARALLEL_FROM

    def report(workers: int) -> dict:
        out = mine_tree(open_git(str(root), "main", tmp_path / "cache"), workers=workers)
        out.pop("generated_at")
        return out

    one, two = report(1), report(2)
    assert one == two
    read7 = next(c for c in two["candidates"] if c["name"] == "read7")
    assert read7["effects"] == ["filesystem.read"] and read7["source"]["path"] == "src/m7.js"


def test_mining_a_registry_package_obeys_the_address_policy(web, tmp_path, capsys):
    from test_npm import sri, tarball

    data = tarball({"name": "tiny", "version": "1.0.0", "main": "index.js"},
                   {"index.js": b"function tiny(s) { return s; }\nmodule.exports = tiny;\n"})
    web.raw("/tiny/-/tiny-1.0.0.tgz", data)
    web.json("/tiny", {"name": "tiny", "dist-tags": {"latest": "1.0.0"}, "versions": {"1.0.0": {
        "name": "tiny", "version": "1.0.0",
        "dist": {"integrity": sri(data), "tarball": web.url("/tiny/-/tiny-1.0.0.tgz")}}}})
    args = ["npm:tiny@1.0.0", "--npm-registry", web.base, "--cache", str(tmp_path / "cache")]
    # loopback is refused by default...
    assert main(["--db", str(tmp_path / "s.db"), "mine", *args]) == 1
    err = capsys.readouterr().err
    assert "127.0.0.1" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    # ...and allowed by naming its network, as for every other command that fetches
    report = mine(tmp_path, capsys, *args, "--allow-network", "127.0.0.0/8")
    assert by_name(report)[("function", "tiny")]["visibility"] == "public"


def test_the_word_index_finds_a_names_first_mention_as_the_regex_tokenises():
    from miners.mine import WordIndex

    texts = {"README.md": "intro\nx9slugify and getter\n\n9slugify here\nslugify again\n", "docs/b.md": "get\nget"}
    index = WordIndex(texts)
    # `slugify` in `x9slugify` is inside a longer word; after the digit alone it is a word of its own
    assert index.mention("slugify", "documentation") == {
        "kind": "documentation", "detail": "README.md mentions slugify", "path": "README.md", "line": 4}
    assert index.mention("get", "documentation")["path"] == "docs/b.md"  # `getter` is another word
    assert index.mention("getter", "test")["line"] == 2
    assert index.mention("sl", "documentation") is None  # too short to count
    assert index.mention("absent", "documentation") is None
    long = "".join(f"word{i} " + "\n" * (i % 3) for i in range(20000)) + "needle"  # many pieces
    assert WordIndex({"CHANGES": long}).mention("needle", "documentation")["line"] == long.count("\n") + 1


def _many_small_modules(root):
    root.mkdir()
    for i in range(60):  # 60 files of about 2 KB: enough source for the second core
        (root / f"m{i}.js").write_text(f"function f{i}(a) {{ return a + {i}; }}\nmodule.exports = f{i};\n"
                                       + "// padding\n" * 200)
    return root


@pytest.mark.parametrize("workers", [1, 2])
def test_mining_tells_its_progress_in_source_bytes(tmp_path, workers):
    from miners.mine import mine_tree
    from miners.sources import open_directory

    root = _many_small_modules(tmp_path / "lib")
    calls = []
    report = mine_tree(open_directory(str(root)), workers=workers, progress=lambda done, total: calls.append((done, total)))
    total = report["coverage"]["bytes_parsed"]
    assert total > 96 * 1024 and len(report["candidates"]) == 60
    assert calls[0] == (0, total) and calls[-1] == (total, total) and len(calls) > 2
    assert all(a[0] < b[0] for a, b in zip(calls, calls[1:])) and {t for _, t in calls} == {total}


def test_capindex_mine_draws_a_progress_bar_on_a_terminal_and_none_with_json(tmp_path):
    import os
    import pty
    import sys
    from pathlib import Path

    root = _many_small_modules(tmp_path / "lib")

    def stderr_on_a_terminal(*args):
        master, slave = pty.openpty()
        out = subprocess.run([sys.executable, "-m", "indexer.cli", "--db", str(tmp_path / "s.db"), *args, "mine",
                              str(root)], stdout=subprocess.PIPE, stderr=slave, cwd=Path(__file__).parents[1],
                             env={**os.environ, "COLUMNS": "100"}, timeout=120)
        os.close(slave)
        seen = b""
        while True:
            try:
                block = os.read(master, 65536)
            except OSError:  # the terminal's other end is closed: all is read
                break
            if not block:
                break
            seen += block
        os.close(master)
        assert out.returncode == 0
        return out.stdout, seen

    stdout, terminal = stderr_on_a_terminal()
    assert b"60 candidates" in stdout and b"mine" in terminal and b"\x1b[" in terminal  # drawn, then cleared
    stdout, terminal = stderr_on_a_terminal("--json")
    assert json.loads(stdout)["coverage"]["files_parsed"] == 60 and terminal == b""


def test_routes_of_mounted_routers_are_served_under_their_prefixes_across_files(tmp_path, capsys):
    root = tmp_path / "svc"
    files = {
        "app.js": (  # only mounts here: no route of its own
            "const express = require('express');\nconst admin = require('./routes/admin');\n"
            "import items from './routes/items.js';\nconst app = express();\n"
            "app.use('/users', require('./routes/users'));\napp.use('/admin', auth, admin);\n"
            "app.use('/items', items);\napp.use('/v2/items', items);\napp.use('/ext', require('some-package'));\n"
            "app.use(express.json());\nmodule.exports = app;\n"),
        "routes/users.js": (
            "const router = require('express').Router();\nconst deep = require('./deep');\n"
            "router.get('/:id', (req, res) => res.send(req.params.id));\nrouter.post('/', (req, res) => res.end());\n"
            "router.use('/:id/deep', deep);\nmodule.exports = router;\n"),
        "routes/deep.js": "const r = require('express').Router();\nr.get('/leaf', (q, s) => s.end());\nmodule.exports = r;\n",
        "routes/admin.js": (
            "const express = require('express');\nconst r = express.Router();\nconst api = express.Router();\n"
            "api.get('/ping', (q, s) => s.end());\nr.use('/api', api);\nr.delete('/cache', (q, s) => s.end());\n"
            "module.exports = r;\n"),
        "routes/items.js": (
            "import { Router } from 'express';\nconst items = Router();\nitems.get('/', (q, s) => s.end());\n"
            "export default items;\n"),
    }
    (root / "routes").mkdir(parents=True)
    for name, text in files.items():
        (root / name).write_text(text)
    report = mine(tmp_path, capsys, str(root))
    routes = {c["name"] for c in report["candidates"] if c["kind"] == "http-route"}
    assert routes == {"GET /users/:id", "POST /users", "GET /users/:id/deep/leaf", "DELETE /admin/cache",
                      "GET /admin/api/ping", "GET /items", "GET /v2/items"}


def test_a_router_factorys_result_is_mounted_with_the_routes_its_body_registers(tmp_path, capsys):
    root = tmp_path / "tiles"
    _write_tree(root, {
        "src/server.js": (
            "import express from 'express';\nimport { serve_data } from './serve_data.js';\n"
            "import makeFonts from './fonts.js';\nconst app = express();\n"
            "app.use('/data/', serve_data.init(options, repo));\napp.use('/fonts', makeFonts());\n"
            "app.use('/api', require('./api')(config));\napp.use('/local', local());\n"
            "const { serve_rendered } = await import('./rendered.js');\n"
            "serve_rendered.init(options).then((sub) => {\n  app.use('/styles/', sub);\n});\n"
            "function local() {\n  const r = express.Router();\n  r.get('/x', (q, s) => s.end());\n  return r;\n}\n"
            "app.get('/health', (q, s) => s.end());\n"),
        "src/serve_data.js": (
            "import express from 'express';\nexport const serve_data = {\n  init: function (options, repo) {\n"
            "    const app = express();\n    app.get('/:id.json', (q, s) => s.end());\n"
            "    ['a', 'b'].forEach((k) => app.get(`/${k}`, (q, s) => s.end()));\n"
            "    app.post('/:id/elevation', (q, s) => s.end());\n    return app;\n  },\n  other() {},\n};\n"),
        "src/fonts.js": (
            "import express from 'express';\nexport default function fonts() {\n  const app = express();\n"
            "  app.get('/fonts.json', (q, s) => s.end());\n  return app;\n}\n"),
        "src/rendered.js": (
            "import express from 'express';\nexport const serve_rendered = {\n  init: async (options) => {\n"
            "    const app = express();\n    app.get('/:id/:z.png', (q, s) => s.end());\n    return app;\n  },\n};\n"),
        "src/api.js": (
            "const express = require('express');\nmodule.exports = (config) => {\n  const router = express.Router();\n"
            "  router.get('/status', (q, s) => s.end());\n  return router;\n};\n"),
    })
    report = mine(tmp_path, capsys, str(root))
    routes = {c["name"] for c in report["candidates"] if c["kind"] == "http-route"}
    assert routes == {"GET /data/:id.json", "POST /data/:id/elevation", "GET /fonts/fonts.json", "GET /api/status",
                      "GET /local/x", "GET /health", "GET /data/a", "GET /data/b",  # (a loop over a literal list)
                      "GET /styles/:id/:z.png"}  # a promised router (`.then((sub) => ...)`), dynamically imported

    koa = tmp_path / "koa"
    _write_tree(koa, {
        "app.js": ("const Router = require('@koa/router');\nconst users = require('./users');\n"
                   "const api = new Router();\napi.use('/users', users.routes(), users.allowedMethods());\n"
                   "api.get('/ping', (ctx) => {});\n"),
        "users.js": ("const Router = require('@koa/router');\nconst router = new Router();\n"
                     "router.get('/:id', (ctx) => {});\nmodule.exports = router;\n"),
    })
    koa_routes = {c["name"] for c in mine(tmp_path, capsys, str(koa))["candidates"] if c["kind"] == "http-route"}
    assert koa_routes == {"GET /users/:id", "GET /ping"}  # `users.routes()` hands over the router itself


def test_a_bundles_factories_each_with_a_router_of_the_same_name(tmp_path, capsys):
    """@elizaos/server's dist/index.js: every factory makes its own `const router`, mounts the
    others' results on it (`router.use("/system", systemRouter())`), and a server class mounts
    the top one with an error handler after it (`this.app.use("/api", apiRouter, onError)`). One
    name, many routers: each is its factory's, and no router is taken to be mounted on itself."""
    bundle = (
        'import express from "express";\n'
        "function systemRouter() {\n  const router = express.Router();\n"
        '  router.get("/config", (req, res) => res.json({}));\n  router.use("/env", envRouter());\n'
        "  return router;\n}\n"
        'function envRouter() {\n  const router = express.Router();\n  router.get("/", (req, res) => res.json({}));\n'
        "  return router;\n}\n"
        "function agentsRouter() {\n  const router = express.Router();\n"
        '  router.get("/:id", (req, res) => res.json({}));\n  return router;\n}\n'
        "function createApiRouter() {\n  const router = express.Router();\n"
        '  router.use("/system", systemRouter());\n  router.use("/agents", agentsRouter());\n  return router;\n}\n'
        "class Server {\n  start() {\n    this.app = express();\n    const apiRouter = createApiRouter();\n"
        '    this.app.use("/api", apiRouter, (err, req, res, next) => res.end());\n'
        '    this.app.get("/healthz", (req, res) => res.end());\n  }\n}\nexport { Server };\n')
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "srv", "version": "1.0.0", "main": "dist/index.js", "dependencies": {"express": "5"}}',
        "dist/index.js": bundle})
    assert sorted(routes) == ["GET /api/agents/:id", "GET /api/system/config", "GET /api/system/env", "GET /healthz"]


def test_a_router_a_method_kept_on_the_instance_from_require_is_mounted(tmp_path, capsys):
    """tiledesk's modules manager: `init()` keeps `this.events = require('./events')` (or a module's
    export, `require('./canned').router`, or one a module re-exports: `module.exports = {tagsRoute:
    tagsRoute}` of `const tagsRoute = require('./route')`), and `use(app)` mounts `this.events` under
    a prefix after middleware. A member nothing sets from a require (`this.unknown`) mounts nothing."""
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "desk", "version": "1.0.0", "main": "app.js", "dependencies": {"express": "4"}}',
        "app.js": ("var express = require('express');\nvar app = express();\nvar manager = require('./modules');\n"
                   "manager.init();\nmanager.use(app);\nmodule.exports = app;\n"),
        "modules/index.js": (
            "class Manager {\n  init() {\n    this.events = require('./events');\n"
            "    this.canned = require('./canned').router;\n    this.tags = require('./tags').tagsRoute;\n  }\n"
            "  use(app) {\n    if (this.events) {\n      app.use('/:projectid/events', [auth, check], this.events);\n    }\n"
            "    app.use('/:projectid/canned', auth, this.canned);\n    app.use('/:projectid/other', auth, this.unknown);\n"
            "    app.use('/:projectid/tags', this.tags);\n"
            "  }\n}\nmodule.exports = new Manager();\n"),
        "modules/events.js": ("var express = require('express');\nvar router = express.Router();\n"
                              "router.get('/', function (req, res) { res.json([]); });\nmodule.exports = router;\n"),
        "modules/canned.js": ("var express = require('express');\nvar router = express.Router();\n"
                              "router.post('/:id', function (req, res) { res.json({}); });\n"
                              "module.exports = { router };\n"),
        # a module that re-exports another's router by name
        "modules/tags/index.js": "const tagsRoute = require('./route');\n\nmodule.exports = {tagsRoute: tagsRoute};\n",
        "modules/tags/route.js": ("var express = require('express');\nvar router = express.Router();\n"
                                  "router.delete('/:tag', function (req, res) { res.end(); });\nmodule.exports = router;\n"),
    })
    assert sorted(routes) == ["DELETE /:projectid/tags/:tag", "GET /:projectid/events", "POST /:projectid/canned/:id"]


def test_a_router_an_instance_holds_is_mounted_where_the_instance_is(tmp_path, capsys):
    """node-media-server: `class ApiRouter { constructor() { this.router = express.Router();
    this.setupRoutes(); } setupRoutes() { this.router.post("/login", ...) } }`, exported as the
    module, and `app.use("/api/v1", apiRouter.router)` with `const apiRouter = new ApiRouter()`; a
    class exported by name the same. Another member of the instance mounts nothing."""
    routes = mined_routes(tmp_path, capsys, {
        "package.json": ('{"name": "nms", "version": "1.0.0", "main": "src/server.js",'
                         ' "dependencies": {"express": "4"}}'),
        "src/server.js": (
            "const express = require('express');\nconst Api = require('./routers/api.js');\n"
            "const { Admin } = require('./routers/admin.js');\n"
            "class Server {\n  constructor() {\n    const app = express();\n    const apiRouter = new Api();\n"
            "    app.use('/api/v1', auth, apiRouter.router);\n    const admin = new Admin();\n"
            "    app.use('/admin', admin.router);\n    app.use('/other', admin.other);\n  }\n}\n"
            "module.exports = Server;\n"),
        "src/routers/api.js": (
            "const express = require('express');\nclass ApiRouter {\n  constructor() {\n"
            "    this.router = express.Router();\n    this.setupRoutes();\n  }\n  setupRoutes() {\n"
            "    this.router.post('/login', login);\n    this.router.get('/streams/:app', streams);\n  }\n}\n"
            "module.exports = ApiRouter;\n"),
        "src/routers/admin.js": (
            "const express = require('express');\nclass Admin {\n  constructor() {\n"
            "    this.router = express.Router();\n    this.router.delete('/sessions/:id', drop);\n  }\n}\n"
            "module.exports = { Admin };\n"),
    })
    assert sorted(routes) == ["DELETE /admin/sessions/:id", "GET /api/v1/streams/:app", "POST /api/v1/login"]


def test_a_factorys_app_mounted_by_its_bound_result_serves_the_routers_it_dispatches_to(tmp_path, capsys):
    """nightscout: `var api = require('./lib/api/')(env)` is mounted at /api/v1 after a middleware;
    that factory's own app hands paths to routers other factories make (`app.all('/entries*', r)`),
    which see the path whole: their routes are served under /api/v1 too."""
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "ns", "version": "1.0.0", "main": "server.js"}',
        "server.js": (
            "const express = require('express');\nfunction create(env) {\n  const app = express();\n"
            "  var api = require('./lib/api/')(env);\n  app.use('/api/v1', bodyParser({limit: 5}), api);\n"
            "  app.get('/', (q, s) => s.end());\n  return app;\n}\nmodule.exports = create;\n"),
        "lib/api/index.js": (
            "function create(env) {\n  const express = require('express'), app = express();\n"
            "  var entries = require('./entries/')(app, env);\n  app.all('/entries*', entries);\n"
            "  app.all('/status*', require('./status')(app));\n  app.get('/x', handler(env));\n  return app;\n}\n"
            "module.exports = create;\n"),
        "lib/api/entries/index.js": (
            "function configure(app, env) {\n  const express = require('express'), api = express.Router();\n"
            "  api.get('/entries/:spec', (q, s) => s.end());\n  api.post('/entries/', (q, s) => s.end());\n"
            "  return api;\n}\nmodule.exports = configure;\n"),
        "lib/api/status.js": (
            "module.exports = function status(app) {\n  const r = require('express').Router();\n"
            "  r.get('/status', (q, s) => s.end());\n  return r;\n};\n"),
    })
    assert sorted(routes) == ["ANY /api/v1/entries*", "ANY /api/v1/status*", "GET /", "GET /api/v1/entries/:spec",
                              "GET /api/v1/status", "GET /api/v1/x", "POST /api/v1/entries/"]


def test_a_handler_wrapper_handed_a_function_is_no_router_factory(tmp_path, capsys):
    """@terreno/api: `app.post(route.path, asyncHandler(async (req, res) => {...}))`, with
    `asyncHandler` another module's: a wrapper of the function written in place, not a factory
    whose router the route hands the path to (`app.all('/status*', require('./status')(app))` is
    one). What the wrapper's module registers stays where it is."""
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "tr", "version": "1.0.0", "main": "server.js"}',
        "server.js": (
            "const express = require('express');\nconst asyncHandler = require('./wrap');\n"
            "const app = express();\nconst api = express.Router();\n"
            "api.post('/hooks', asyncHandler(async (q, s) => s.end()));\n"
            "api.all('/status*', require('./status')(app));\napp.use('/api', api);\nmodule.exports = app;\n"),
        "wrap.js": ("module.exports = function asyncHandler(fn) {\n  const r = require('express').Router();\n"
                    "  r.get('/inner', fn);\n  return r;\n};\n"),
        "status.js": ("module.exports = function status(app) {\n  const r = require('express').Router();\n"
                      "  r.get('/status', (q, s) => s.end());\n  return r;\n};\n"),
    })
    assert sorted(routes) == ["ANY /api/status*", "GET /api/status", "GET /inner", "POST /api/hooks"], sorted(routes)


def test_an_app_factorys_default_prefix_serves_a_same_file_factorys_router(tmp_path, capsys):
    """@neaps/api: `function createApp({ prefix = "/tides" } = {})` mounts `createRoutes()`'s router."""
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "tides", "version": "1.0.0", "main": "dist/index.mjs"}',
        "dist/index.mjs": (
            "import express, { Router } from 'express';\n"
            "function createRoutes({ middleware = [] } = {}) {\n  const router = Router();\n"
            "  router.get('/extremes', (q, s) => s.end());\n  return router;\n}\n"
            "function createApp({ prefix = '/tides', compress = true } = {}) {\n"
            "  const routes = createRoutes({});\n  const app = express();\n  app.use(prefix, routes);\n  return app;\n}\n"
            "function mount(app, base = '/v2') {\n  app.use(base, createRoutes());\n}\n"
            "export { createApp, mount };\n"),
    })
    assert sorted(routes) == ["GET /tides/extremes", "GET /v2/extremes"]


def test_a_blueprint_mounted_at_a_functions_parameter_is_served_where_its_callers_say(tmp_path, capsys):
    """sahara: `def register_blueprints(app, url_prefix)` registers each blueprint at url_prefix,
    and the app builder calls `api_v2.register_blueprints(app, url_prefix='/v2')`."""
    blueprint = "import flask\nrest = flask.Blueprint('{0}', __name__)\n\n@rest.get('/{0}')\ndef listing():\n    pass\n"
    routes = mined_routes(tmp_path, capsys, {
        "svc/__init__.py": "", "svc/api/__init__.py": "",
        "svc/api/v2/__init__.py": (
            "from svc.api.v2 import clusters, jobs\n\n\ndef register_blueprints(app, url_prefix):\n"
            "    app.register_blueprint(clusters.rest, url_prefix=url_prefix)\n"
            "    app.register_blueprint(jobs.rest, url_prefix=url_prefix)\n"),
        "svc/api/v2/clusters.py": blueprint.format("clusters"), "svc/api/v2/jobs.py": blueprint.format("jobs"),
        "svc/api/v3.py": blueprint.format("nodes") + (
            "\n\ndef attach(app, *, prefix='/v3'):\n    app.register_blueprint(rest, url_prefix=prefix)\n"),
        "svc/api/v4.py": blueprint.format("tasks") + (
            "\n\ndef attach(app, prefix):\n    app.register_blueprint(rest, url_prefix=prefix)\n"),
        "svc/app.py": (
            "import flask\nfrom svc.api import v2 as api_v2\nfrom svc.api.v4 import attach\n\n\ndef build():\n"
            "    app = flask.Flask(__name__)\n    api_v2.register_blueprints(app, url_prefix='/v2')\n"
            "    attach(app, '/v4')\n    attach(app, '/v5')\n    return app\n"),
    })
    # v3's attach is called by no one here: its default; v4's callers disagree: not followed
    assert sorted(routes) == ["GET /tasks", "GET /v2/clusters", "GET /v2/jobs", "GET /v3/nodes"], sorted(routes)


def test_a_django_include_of_a_list_of_the_same_module_under_a_settings_prefix(tmp_path, capsys):
    """entirius-django-returns: `api_paths = [path("returns/", ...)]`, then `urlpatterns =
    [path(f"{settings.BASE_URL}/returns/<str:version>/", include(api_paths))]`, the package's own
    settings module giving `BASE_URL = getattr(settings, "API_BASE_URL", "api").strip("/")`."""
    routes = mined_routes(tmp_path, capsys, {
        "shop/__init__.py": "",
        "shop/settings.py": ("from django.conf import settings\n\n"
                             "BASE_URL = getattr(settings, 'API_BASE_URL', '/api/').strip('/')\n"),
        "shop/urls.py": ("from django.urls import include, path\n\n"
                         "from shop import settings\nfrom shop import views\n\n"
                         "api_paths = [\n    path('returns/', views.create),\n"
                         "    path('returns/<str:return_id>', views.detail),\n]\n\n"
                         "other = [path('never/', views.never)]\n\n"
                         "urlpatterns = [\n"
                         "    path(f'{settings.BASE_URL}/returns/<str:version>/', include(api_paths)),\n]\n"),
    })
    assert sorted(routes) == ["ANY /api/returns/<str:version>/returns/",
                              "ANY /api/returns/<str:version>/returns/<str:return_id>"], sorted(routes)


def test_routes_on_a_router_another_module_makes_are_under_its_prefix(tmp_path, capsys):
    """ko-tasks-server: `router = APIRouter(prefix="/threads")` in api/threads/__init__.py, its endpoints
    in create.py and lifecycle.py (`from svc.api.threads import router`), the app including it; a
    router made without a prefix, or by a module outside the tree, leaves the paths as written."""
    routes = mined_routes(tmp_path, capsys, {
        "svc/__init__.py": "", "svc/api/__init__.py": "",
        "svc/api/threads/__init__.py": "from fastapi import APIRouter\n\nrouter = APIRouter(prefix='/threads')\n",
        "svc/api/threads/create.py": ("from fastapi import status\nfrom svc.api.threads import router\n\n\n"
                                      "@router.post('')\ndef create():\n    pass\n\n\n"
                                      "@router.post('/{thread_id}:pause')\ndef pause(thread_id):\n    pass\n"),
        "svc/api/plain.py": "from fastapi import APIRouter\n\nrouter = APIRouter()\n",
        "svc/api/more.py": ("from .plain import router\nfrom elsewhere import router as other\n\n\n"
                            "@router.get('/health')\ndef health():\n    pass\n\n\n"
                            "@other.get('/x')\ndef x():\n    pass\n"),
        "svc/app.py": ("from fastapi import FastAPI\nfrom svc.api import threads\n\napp = FastAPI(openapi_url=None)\n"
                       "app.include_router(threads.router, prefix='/v1')\n"),
    })
    assert sorted(routes) == ["GET /health", "GET /x", "POST /v1/threads", "POST /v1/threads/{thread_id}:pause"], \
        sorted(routes)


def test_a_router_included_at_each_prefix_a_loop_gives_is_served_at_each(tmp_path, capsys):
    """api-model-proxy: `for prefix in ("", "/v1"): app.include_router(chat_router, prefix=prefix)`,
    so OpenAI clients with either base URL reach it. A loop over names that are not literals
    leaves the prefix unknown: the routes stay as registered."""
    files = {
        "proxy/__init__.py": "",
        "proxy/chat.py": "from fastapi import APIRouter\n\nrouter = APIRouter()\n\n\n"
                         "@router.post('/chat/completions')\ndef chat():\n    pass\n",
        "proxy/server.py": ("from fastapi import FastAPI\nfrom proxy.chat import router as chat_router\n\n"
                            "app = FastAPI(openapi_url=None)\nfor prefix in ('', '/v1'):\n"
                            "    app.include_router(chat_router, prefix=prefix)\n"),
    }
    assert sorted(mined_routes(tmp_path, capsys, files)) == ["POST /chat/completions", "POST /v1/chat/completions"]
    unknown = {**files, "proxy/server.py": files["proxy/server.py"].replace("('', '/v1')", "(A, B)")}
    assert sorted(mined_routes(tmp_path / "unknown", capsys, unknown)) == ["POST /chat/completions"]


def test_a_router_a_cli_command_mounts_at_its_option_is_served_at_the_options_default(tmp_path, capsys):
    """lattice-meetbot-admin: its `dev-server` command, `prefix: str = typer.Option("/api/meetbot-admin",
    "--prefix")`, serves `create_router(cfg)` at the prefix; the factory's routers (made by other
    factories) are served there too, and where the package's own sub-application mounts it."""
    routes = mined_routes(tmp_path, capsys, {
        "svc/__init__.py": "from svc.router import create_router\n",
        "svc/items.py": ("from fastapi import APIRouter\n\n\ndef make_router():\n"
                         "    router = APIRouter(prefix='/items')\n\n    @router.get('')\n"
                         "    def listing():\n        return []\n\n    return router\n"),
        "svc/router.py": ("from fastapi import APIRouter, FastAPI\nfrom svc import items\n\n\ndef create_router():\n"
                          "    root = APIRouter()\n    root.include_router(items.make_router())\n    return root\n\n\n"
                          "def create_app():\n    app = FastAPI(openapi_url=None)\n"
                          "    app.include_router(create_router())\n    return app\n"),
        "svc/cli.py": ("import typer\n\napp = typer.Typer()\n\n\n@app.command()\n"
                       "def dev_server(port: int = typer.Option(5557),\n"
                       "               prefix: str = typer.Option('/api/x', '--prefix')):\n"
                       "    from fastapi import FastAPI\n    from svc import create_router\n"
                       "    server = FastAPI(openapi_url=None)\n"
                       "    server.include_router(create_router(), prefix=prefix)\n"),
    })
    assert sorted(routes) == ["GET /api/x/items", "GET /items"], sorted(routes)


def test_a_route_path_made_of_a_functions_parameter_is_served_at_each_callers_literal(tmp_path, capsys):
    """kiapi: `def register_capability_endpoints(router, *, name, base_path)` registers
    `@router.get(f"{base_path}/models")`, and each capability's router module calls it with its own
    `base_path="/v1/web"`, importing it from the package's `__init__`, which imports it (under
    `if TYPE_CHECKING:`, for a lazy `__getattr__`) from the defining module. A caller that passes
    something other than a literal leaves the path unknown: no route."""
    caller = ("from fastapi import APIRouter\n\nfrom svc.api import register_tail\n\nrouter = APIRouter()\n"
              "register_tail(router, name='{0}', base_path={1})\n")
    files = {
        "pyproject.toml": '[project]\nname = "svc"\nversion = "1.0"\ndependencies = ["fastapi"]\n',
        "svc/__init__.py": "",
        "svc/api/__init__.py": (
            "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
            "    from ._helpers.tail import register_tail\n\n__all__ = ['register_tail']\n"),
        "svc/api/_helpers/__init__.py": "",
        "svc/api/_helpers/tail.py": (
            "from fastapi import APIRouter\n\n\ndef register_tail(router: APIRouter, *, name: str, base_path: str):\n"
            "    @router.get(f'{base_path}/models')\n    async def list_models():\n        return []\n"),
        "svc/web.py": caller.format("web", "'/v1/web'"),
        "svc/image.py": caller.format("qwen", "'/v1/image/qwen'"),
    }
    routes = mined_routes(tmp_path / "literal", capsys, files)
    assert sorted(routes) == ["GET /v1/image/qwen/models", "GET /v1/web/models"], sorted(routes)
    assert routes["GET /v1/web/models"]["source"] == {**routes["GET /v1/web/models"]["source"],
                                                      "path": "svc/api/_helpers/tail.py", "line": 5}
    unknown = {**files, "svc/other.py": caller.format("x", "BASE")}
    assert mined_routes(tmp_path / "unknown", capsys, unknown) == {}


def test_a_callers_loop_over_run_time_values_makes_the_parameter_a_path_parameter(tmp_path, capsys):
    """fastapi-mongo-admin: `for collection, model_admin in site.get_registered_models().items():
    _register_model_routes(router, collection, model_admin)`, whose routes are
    `@router.get(f"/{collection}/")`: one route per registered collection, `{collection}`. A loop
    over a literal table is not run time (its rows are not read: no route), and a run-time value
    that is only part of a segment gives no route."""
    files = {
        "pyproject.toml": '[project]\nname = "adm"\nversion = "1.0"\ndependencies = ["fastapi"]\n',
        "adm/__init__.py": "",
        "adm/router.py": (
            "from fastapi import APIRouter\n\n\ndef _register_model_routes(router, collection, admin):\n"
            "    @router.get(f'/{collection}/')\n    async def changelist():\n        return []\n\n"
            "    @router.post(f'/x-{collection}/')\n    async def odd():\n        return []\n\n\n"
            "def create_admin_router(site, prefix='/admin'):\n    router = APIRouter(prefix=prefix)\n"
            "    for collection, model_admin in site.get_registered_models().items():\n"
            "        _register_model_routes(router, collection, model_admin)\n"
            "    return router\n"),
    }
    routes = mined_routes(tmp_path / "run-time", capsys, files)
    assert sorted(routes) == ["GET /admin/{collection}/"], sorted(routes)
    literal = {**files, "adm/more.py": (
        "from adm.router import _register_model_routes\n\n\ndef more(router):\n"
        "    for api in ['v1', 'v2']:\n        _register_model_routes(router, api, None)\n")}
    assert mined_routes(tmp_path / "literal", capsys, literal) == {}


def test_fastify_plugins_registered_under_a_prefix_and_a_decorator_applied_by_a_call(tmp_path, capsys):
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "meta", "version": "1.0.0", "main": "dist/server/app.js"}',
        "dist/server/routes/index.js": (
            "import ColumnRoute from './columns.js';\n"
            "export default async (fastify) => {\n  fastify.register(ColumnRoute, { prefix: '/columns' });\n"
            "  fastify.register(require('./query.js'), { prefix: '/query' });\n};\n"),
        "dist/server/routes/columns.js": (
            "const route = async (fastify) => {\n  fastify.get('/', async (request, reply) => []);\n"
            "  fastify.delete('/:id', async (request, reply) => ({}));\n};\nexport default route;\n"),
        "dist/server/routes/query.js": (
            "module.exports = async function (fastify) {\n  fastify.post('/format', async (q, r) => '');\n};\n"),
        "dist/server/app.js": (
            "import Fastify from 'fastify';\nimport routes from './routes/index.js';\nconst app = Fastify();\n"
            "app.register(routes, { prefix: '/v1' });\n"),
        "wes/backend.py": (  # no decorator, no other route: the call that applies one is seen all the same
            "def create_backend(app, opts):\n"
            "    app.app.route('/runs/<run_id>/logs')(\n        dynamic_logs\n    )\n    return opts\n"),
    })
    assert sorted(routes) == ["DELETE /v1/columns/:id", "GET /runs/<run_id>/logs", "GET /v1/columns",
                              "POST /v1/query/format"]


def test_a_routers_empty_path_is_the_root_of_where_it_is_included(tmp_path, capsys):
    routes = mined_routes(tmp_path, capsys, {
        "pyproject.toml": '[project]\nname = "semware"\nversion = "1"\ndependencies = ["fastapi"]\n',
        "semware/__init__.py": "",
        "semware/tables.py": ("from fastapi import APIRouter\nrouter = APIRouter()\n\n"
                              '@router.post("")\ndef create():\n    return {}\n\n'
                              '@router.get("/{name}")\ndef one(name: str):\n    return {}\n'),
        "semware/main.py": ("from fastapi import FastAPI\nfrom .tables import router as tables_router\n"
                            "app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)\n"
                            'app.include_router(tables_router, prefix="/tables")\n'),
    })
    assert sorted(routes) == ["GET /tables/{name}", "POST /tables"]


def test_routes_on_this_express_through_an_es5_alias_and_django_patterns_inserted_by_slice(tmp_path, capsys):
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "echo", "version": "1.0.0", "main": "dist/index.js"}',
        "dist/api/http-api.js": (  # TypeScript's ES5 output of a class that keeps the express app
            "var HttpApi = (function () {\n  function HttpApi(io, express) { this.express = express; }\n"
            "  HttpApi.prototype.init = function () {\n    var _this = this;\n"
            "    this.express.get('/apps/:appId/status', function (req, res) { return _this.status(req, res); });\n"
            "    _this.express.post('/apps/:appId/events', function (req, res) { return res.end(); });\n  };\n"
            "  return HttpApi;\n}());\nexports.HttpApi = HttpApi;\n"),
        "auth/urls.py": (
            "from django.urls import path\nfrom .views import Login, Verify\n\n"
            "urlpatterns = [\n    path('login/', Login.as_view()),\n]\n\n"
            "if verification_is_required():\n    urlpatterns[1:1] = [\n        path('email/verify/', Verify.as_view()),\n    ]\n"),
        "auth/views.py": ("from django.views import View\n\n"
                          "class Login(View):\n    def post(self, request):\n        pass\n\n"
                          "class Verify(View):\n    def post(self, request):\n        pass\n"),
    })
    assert sorted(routes) == ["GET /apps/:appId/status", "POST /apps/:appId/events", "POST /email/verify/",
                              "POST /login/"]


def test_a_python_route_path_with_an_imported_modules_constant(tmp_path, capsys):
    routes = mined_routes(tmp_path, capsys, {
        "pyproject.toml": '[project]\nname = "svc"\nversion = "1"\ndependencies = ["fastapi"]\n',
        "svc/__init__.py": "",
        "svc/app.py": 'API_PREFIX = "/api/v1/svc"\n',
        "svc/api.py": (
            "from fastapi import FastAPI\nfrom svc import app\nPREFIX = app.API_PREFIX\n\n"
            "def create_app():\n    api = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)\n\n"
            '    @api.get(f"{PREFIX}/tools")\n    async def tools():\n        return []\n\n'
            '    @api.post(f"{app.API_PREFIX}/tools/{{name}}")\n    async def call(name: str):\n        return {}\n\n'
            '    @api.get(f"{app.MISSING}/gone")\n    async def gone():\n        return {}\n    return api\n'),
    })
    assert sorted(routes) == ["GET /api/v1/svc/tools", "POST /api/v1/svc/tools/{name}"]  # an unread part: no route


def test_a_route_path_from_an_enum_member_another_module_defines_and_a_package_re_exports(tmp_path, capsys):
    """tiny-ca-gateway's `@router.get(Routes.GET_PUBLIC_CERT)`, `Routes` a StrEnum of core/routes.py
    that `from .routes import Routes` re-exports in core/__init__.py."""
    routes = mined_routes(tmp_path, capsys, {
        "pyproject.toml": '[project]\nname = "gw"\nversion = "1"\ndependencies = ["fastapi"]\n',
        "gw/__init__.py": "",
        "gw/core/__init__.py": "from gw.core.routes import Routes\n",
        "gw/core/routes.py": ('from enum import StrEnum\n\nclass Routes(StrEnum):\n    CERT = "/cert"\n'
                              '    ISSUE = "/issue"\n'),
        "gw/api.py": ("from fastapi import APIRouter\nfrom gw.core import Routes\nfrom gw.core.routes import Routes as R\n\n"
                      'router = APIRouter(prefix="/ca")\n\n@router.get(Routes.CERT)\ndef cert():\n    return ""\n\n'
                      "@router.post(R.ISSUE)\ndef issue():\n    return {}\n\n"
                      "@router.post(Routes.MISSING)\ndef missing():\n    return {}\n"),
    })
    assert sorted(routes) == ["GET /ca/cert", "POST /ca/issue"]  # (a member nobody defines: no route)


def test_route_paths_from_a_config_file_the_module_loads(tmp_path, capsys):
    """ltp-server's `@self._app.post(config["route_path"]["seg"])`, `config` loaded from the
    config.yml beside the module; a JSON one too; a key the file lacks gives no route."""
    routes = mined_routes(tmp_path, capsys, {
        "pyproject.toml": '[project]\nname = "ltp"\nversion = "1"\ndependencies = ["fastapi"]\n',
        "ltp/__init__.py": "",
        "ltp/config.yml": "route_path:\n  seg: /seg\n  pos: /pos\ndefault_port: 8000\n",
        "ltp/routes.json": '{"health": "/healthz"}',
        "ltp/server.py": (
            "import json\nimport os\nimport yaml\nfrom fastapi import FastAPI\n\nCONFIG_PATH = 'config.yml'\n\n"
            "with open(os.path.join(os.path.dirname(__file__), CONFIG_PATH)) as file:\n"
            "    config = yaml.safe_load(file.read())\n"
            "routes = json.load(open(os.path.join(os.path.dirname(__file__), 'routes.json')))\n\n"
            "app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)\n\n"
            "@app.post(config['route_path']['seg'])\ndef seg():\n    return []\n\n"
            "@app.post(config['route_path']['ner'])\ndef ner():\n    return []\n\n"
            "@app.get(routes['health'])\ndef health():\n    return 'ok'\n"),
    })
    assert sorted(routes) == ["GET /healthz", "POST /seg"]


def test_a_declared_entry_that_ships_only_minified_is_mined_and_says_so(tmp_path, capsys):
    root = tmp_path / "svc"
    (root / "dist").mkdir(parents=True)
    (root / "package.json").write_text('{"name": "svc", "version": "1.0.0", "main": "./dist/index.js"}')
    pad = "var " + ",".join(f"v{i}={i}" for i in range(1200)) + ";"  # one line of over 5000 characters
    (root / "dist" / "index.js").write_text(
        pad + 'const R=require("koa-router"),g=new R;g.get("/api/job",async(e,t)=>{}),'
        'g.del("/api/job/:name",async(e,t)=>{});module.exports=g;\n')
    (root / "dist" / "other.js").write_text(pad + 'const R=require("koa-router"),h=new R;h.get("/x",(e)=>{});\n')
    report = mine(tmp_path, capsys, str(root))
    routes = {c["name"]: c for c in report["candidates"] if c["kind"] == "http-route"}
    assert sorted(routes) == ["DELETE /api/job/:name", "GET /api/job"]  # koa-router's del() is DELETE
    assert all(FROM_MINIFIED in c["unknowns"] for c in routes.values())
    assert report["coverage"]["skipped"] == [{"path": "dist/other.js", "reason": MINIFIED}]  # not an entry point


def test_koa_route_middlewares_in_typescripts_output(tmp_path, capsys):
    """rendertron's build: `const koa_route_1 = __importDefault(require("koa-route"))`, then
    `app.use(koa_route_1.default.get("/render/:url(.*)", this.handle.bind(this)))`."""
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "rt", "version": "1.0.0", "main": "build/index.js"}',
        "build/index.js": (
            '"use strict";\nconst koa_1 = __importDefault(require("koa"));\n'
            'const koa_route_1 = __importDefault(require("koa-route"));\nconst cache = require("./cache");\n'
            "class Server {\n  start() {\n    this.app = new koa_1.default();\n"
            "    this.app.use(koa_route_1.default.get('/render/:url(.*)', this.handle.bind(this)));\n"
            "    this.app.use(koa_route_1.default.post('/screenshot/:url(.*)', this.shot.bind(this)));\n"
            "    cache.get('/not/a/route', fallback());\n  }\n}\nexports.Server = Server;\n"),
    })
    assert set(routes) == {"GET /render/:url(.*)", "POST /screenshot/:url(.*)"}


def test_tornado_handlers_of_an_application_subclass_under_a_configured_prefix(tmp_path, capsys):
    """tabpy's `TabPyTornadoApp([(route_prefix + r"/status", StatusHandler), ...])`, route_prefix set at run time."""
    routes = mined_routes(tmp_path, capsys, {"tp/__init__.py": "", "tp/app.py": (
        "import re\nimport tornado.web\n\n\nclass StatusHandler(tornado.web.RequestHandler):\n"
        "    def get(self):\n        pass\n\n\nclass EndpointHandler(tornado.web.RequestHandler):\n"
        "    def delete(self, name):\n        pass\n\n\nclass TpApp(tornado.web.Application):\n    pass\n\n\n"
        "def make(subdirectory):\n    route_prefix = re.escape(subdirectory)\n    return TpApp([\n"
        "        (route_prefix + r'/status', StatusHandler),\n"
        "        (route_prefix + r'/endpoints/([^/]+)?', EndpointHandler),\n    ])\n")})
    assert sorted(routes) == ["DELETE /endpoints", "DELETE /endpoints/{arg1}", "GET /status"]
    assert UNKNOWN_PREFIX.format("route_prefix") in routes["GET /status"]["unknowns"]


def test_routes_on_self_attributes_and_websockets(tmp_path, capsys):
    """celery-fastapi's `@router.get(f"{self.prefix}/tasks")` with `self.prefix = prefix.rstrip("/")` from
    `__init__(self, prefix: str = "")`, and `@router.websocket(...)`; xmysql's `this.app.get("/", h)` and
    `this.app.route("/x").get(h)` in a server class; mongodb-rest's prefix its configuration sets."""
    routes = mined_routes(tmp_path, capsys, {
        "svc/__init__.py": "",
        "svc/bridge.py": (
            "from fastapi import APIRouter, FastAPI\n\n\nclass Bridge:\n"
            "    def __init__(self, app: FastAPI, prefix: str = '/jobs/'):\n        self.prefix = prefix.rstrip('/')\n\n"
            "    def install(self):\n        router = APIRouter()\n\n        @router.get(f'{self.prefix}/tasks')\n"
            "        def tasks():\n            return []\n\n        @router.websocket(f'{self.prefix}/ws')\n"
            "        async def ws(socket):\n            pass\n"),
        "package.json": '{"name": "svc", "version": "1.0.0", "main": "lib/api.js"}',
        "lib/api.js": (
            "class Xapi {\n  constructor(app) { this.app = app; this.cache = new Map(); }\n  setup() {\n"
            "    this.app.get('/', this.root.bind(this));\n    this.app.route('/tables').get(this.tables.bind(this));\n"
            "    this.cache.get('/not/a/route', (x) => x);\n  }\n}\nmodule.exports = Xapi;\n"),
        "lib/rest.js": ("module.exports = function (app, config) {\n  const urlPrefix = config.urlPrefix;\n"
                        "  app.get(urlPrefix + '/dbs', function (req, res) {});\n};\n"),
    })
    assert sorted(routes) == ["GET /", "GET /dbs", "GET /jobs/tasks", "GET /jobs/ws", "GET /tables"]
    assert UNKNOWN_PREFIX.format("urlPrefix") in routes["GET /dbs"]["unknowns"]


def test_a_django_path_prefixed_by_a_setting_an_objects_defaults_dict_gives(tmp_path, capsys):
    """drfpasswordless: `path(api_settings.PASSWORDLESS_AUTH_PREFIX + 'email/', View.as_view())`, with
    `api_settings = APISettings(USER_SETTINGS, DEFAULTS)` and `DEFAULTS = {'PASSWORDLESS_AUTH_PREFIX': 'auth/'}`."""
    routes = mined_routes(tmp_path, capsys, {
        "pyproject.toml": '[project]\nname = "pwless"\nversion = "1.0"\n',
        "pwless/__init__.py": "",
        "pwless/settings.py": ("from django.conf import settings\nfrom rest_framework.settings import APISettings\n\n"
                               "USER_SETTINGS = getattr(settings, 'PWLESS', None)\n"
                               "DEFAULTS = {\n    'PASSWORDLESS_AUTH_PREFIX': 'auth/',\n    'TIMEOUT': 900,\n}\n"
                               "api_settings = APISettings(USER_SETTINGS, DEFAULTS)\n"),
        "pwless/urls.py": ("from django.urls import path\nfrom pwless.settings import api_settings\n"
                           "from pwless.views import ObtainEmail, Other\n\nurlpatterns = [\n"
                           "    path(api_settings.PASSWORDLESS_AUTH_PREFIX + 'email/', ObtainEmail.as_view()),\n"
                           "    path(api_settings.UNKNOWN_PREFIX + 'other/', Other.as_view()),\n]\n"),
        "pwless/views.py": ("from rest_framework.views import APIView\n\n\nclass ObtainEmail(APIView):\n"
                            "    def post(self, request):\n        pass\n\n\nclass Other(APIView):\n"
                            "    def get(self, request):\n        pass\n"),
    })
    assert sorted(routes) == ["POST /auth/email/"]  # (a part nobody can read: the route is dropped)


def test_a_django_include_under_a_setting_a_table_of_declaration_calls_gives(tmp_path, capsys):
    """django-fingerprint-attendance: `path(settings.API_URL_PREFIX, include(...))` with `from .conf
    import settings`, an object whose class reads `_S("API_URL_PREFIX", "api/fingerprint/", T.STR,
    ...)` rows: the declared default. A setting no row declares leaves the path unknown."""
    routes = mined_routes(tmp_path, capsys, {
        "pyproject.toml": '[project]\nname = "fpa"\nversion = "1.0"\n',
        "fpa/__init__.py": "",
        "fpa/conf.py": ("class _Settings:\n    def __getattr__(self, name):\n        return lookup(name)\n\n\n"
                        "SPECS = [\n    _S(\"API_URL_PREFIX\", \"api/fingerprint/\", T.STR,\n"
                        "       \"The API's prefix.\"),\n"
                        "    _S('TIMEOUT', 900, T.INT, 'seconds'),\n]\nsettings = _Settings()\n"),
        "fpa/urls.py": ("from django.urls import include, path\n\nfrom .conf import settings\n\nurlpatterns = [\n"
                        "    path(settings.API_URL_PREFIX, include('fpa.api_urls')),\n"
                        "    path(settings.OTHER_PREFIX, include('fpa.api_urls')),\n]\n"),
        "fpa/api_urls.py": ("from django.urls import path\n\nfrom . import views\n\nurlpatterns = [\n"
                            "    path('v1/health/', views.health),\n]\n"),
        "fpa/views.py": "def health(request):\n    pass\n",
    })
    assert sorted(routes) == ["ANY /api/fingerprint/v1/health/"], sorted(routes)


def test_a_router_mounted_through_a_packages_renaming_reexport(tmp_path, capsys):
    """liwancai-tdxapi: `from .routes import system_router`, where routes/__init__.py has
    `from .system import router as system_router`; `app.include_router(system_router, prefix="/tdx")`."""
    routes = mined_routes(tmp_path, capsys, {
        "pyproject.toml": '[project]\nname = "tdx"\nversion = "1.0"\n',
        "tdx/__init__.py": ("from fastapi import FastAPI\nfrom .routes import system_router\n\n\ndef create_app():\n"
                            "    app = FastAPI()\n    app.include_router(system_router, prefix='/tdx')\n    return app\n"),
        "tdx/routes/__init__.py": "from .system import router as system_router\n\n__all__ = ['system_router']\n",
        "tdx/routes/system.py": ("from fastapi import APIRouter\n\nrouter = APIRouter()\n\n\n@router.get('/health')\n"
                                 "def health():\n    return {}\n"),
    })
    assert sorted(name for name in routes if not name.startswith(("GET /docs", "GET /redoc", "GET /openapi"))) == \
        ["GET /tdx/health"]


def test_a_router_a_factory_returns_in_an_object_mounted_by_its_member(tmp_path, capsys):
    """nodebb-plugin-write-api: `var routes = require('./routes')(mw); data.router.use('/api/v1', routes.v1)`,
    where routes/index.js returns `{ v1: v1 }` with `var v1 = require('./v1')(express.Router(), mw)`."""
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "plugin", "version": "1.0.0", "main": "index.js"}',
        "index.js": ("var API = {};\nAPI.init = function (data, callback) {\n"
                     "  var routes = require('./routes')(data.middleware);\n"
                     "  data.router.use('/api/v1', routes.v1);\n  data.router.use('/api/v9', routes.missing);\n"
                     "  callback();\n};\nmodule.exports = API;\n"),
        "routes/index.js": ("var express = require('express');\nmodule.exports = function (middleware) {\n"
                            "  var v1 = require('./v1')(express.Router(), middleware);\n  return { v1: v1 };\n};\n"),
        "routes/v1/index.js": ("module.exports = function (app, middleware) {\n"
                               "  app.use('/users', require('./users')(middleware));\n"
                               "  app.get('/ping', function (req, res) {});\n  return app;\n};\n"),
        "routes/v1/users.js": ("module.exports = function () {\n  var app = require('express').Router();\n"
                               "  app.get('/:uid', function (req, res) {});\n  return app;\n};\n"),
    })
    assert sorted(routes) == ["GET /api/v1/ping", "GET /api/v1/users/:uid"]


def test_every_module_of_a_directory_mounted_under_its_name_in_a_readdir_loop(tmp_path, capsys):
    """node-express-mongodb-jwt-rest-api-skeleton's routes/index.js: `router.use(`/${routeFile}`,
    require(`./${routeFile}`))` for each file readdirSync lists, but index and auth."""
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "skel", "version": "1.0.0", "main": "server.js"}',
        "server.js": "const app = require('express')();\napp.use(require('./app/routes'));\napp.listen(3000);\n",
        "app/routes/index.js": (
            "const express = require('express')\nconst router = express.Router()\nconst fs = require('fs')\n"
            "router.use('/', require('./auth'))\n"
            "fs.readdirSync(`${__dirname}/`).filter((file) => {\n  const routeFile = file.split('.')[0]\n"
            "  return routeFile !== 'index' && routeFile !== 'auth'\n"
            "    ? router.use(`/${routeFile}`, require(`./${routeFile}`))\n    : ''\n})\n"
            "module.exports = router\n"),
        "app/routes/auth.js": ("const router = require('express').Router()\nrouter.post('/login', (req, res) => {})\n"
                               "module.exports = router\n"),
        "app/routes/users.js": ("const router = require('express').Router()\nrouter.get('/', (req, res) => {})\n"
                                "router.get('/:id', (req, res) => {})\nmodule.exports = router\n"),
        "app/routes/cities.ts": ("import { Router } from 'express'\nconst router = Router()\n"
                                 "router.get('/all', (req, res) => {})\nexport default router\n"),
        "app/routes/cities.d.ts": "export {}\n",
        "app/other/loose.js": ("const router = require('express').Router()\nrouter.get('/loose', (req, res) => {})\n"
                               "module.exports = router\n"),  # not in the directory: mounted nowhere
    })
    assert sorted(routes) == ["GET /cities/all", "GET /loose", "GET /users", "GET /users/:id", "POST /login"]


def test_a_module_route_decorator_that_wraps_flasks_route(tmp_path, capsys):
    """ironic-inspector's `def api(path, rule=None, **flask_kwargs)`, which applies `@_app.route(path, **flask_kwargs)`."""
    routes = mined_routes(tmp_path, capsys, {"insp/__init__.py": "", "insp/main.py": (
        "import flask\n\n_app = flask.Flask(__name__)\n\n\ndef api(path, rule=None, **flask_kwargs):\n"
        "    def outer(func):\n        @_app.route(path, **flask_kwargs)\n        def wrapper(*a, **k):\n"
        "            return func(*a, **k)\n        return wrapper\n    return outer\n\n\n"
        "@api('/v1/rules', rule='rules', methods=['GET', 'POST'])\ndef rules():\n    pass\n\n\n"
        "@api(path='/v1/continue')\ndef cont():\n    pass\n\n\ndef other(x):\n    return x\n\n\n"
        "@other('/not/a/route')\ndef nothing():\n    pass\n")})
    assert set(routes) == {"GET /v1/rules", "POST /v1/rules", "GET /v1/continue"}


def test_a_route_decorator_with_typed_parameters_that_takes_the_app(tmp_path, capsys):
    """tahoe-lafs's `def _authorized_route(klein_app: Klein, required_secrets: set, url: str,
    *route_args, **route_kwargs)`, which applies `@klein_app.route(url, *route_args, **route_kwargs)`,
    used on methods as `@_authorized_route(_app, set(), "/storage/v1/version", methods=["GET"])`."""
    routes = mined_routes(tmp_path, capsys, {"srv/__init__.py": "", "srv/http.py": (
        "from klein import Klein\n\n\ndef _authorized_route(klein_app: Klein, required_secrets: set, url: str,\n"
        "                      *route_args, branch: bool = False, **route_kwargs):\n"
        "    def decorator(f):\n        @klein_app.route(url, *route_args, branch=branch, **route_kwargs)\n"
        "        def handle_route(app, request, *args, **kwargs):\n            return f(app, request, *args, **kwargs)\n"
        "        return handle_route\n    return decorator\n\n\nclass HTTPServer:\n    _app = Klein()\n\n"
        '    @_authorized_route(_app, set(), "/storage/v1/version", methods=["GET"])\n'
        "    def version(self, request, authorization):\n        return b''\n\n"
        '    @_authorized_route(_app, set(), "/storage/v1/immutable/<storage_index>", methods=["POST"])\n'
        "    def allocate(self, request, authorization, storage_index):\n        return b''\n")})
    assert sorted(routes) == ["GET /storage/v1/version", "POST /storage/v1/immutable/<storage_index>"]


def test_flask_restx_namespaces_added_to_an_api_under_its_prefix(tmp_path, capsys):
    """mini-atlas-monitor: `api = Api(app, prefix="/api/v1")`, `api.add_namespace(runs_ns)`, and a namespace's
    `@ns.route("/<run_id>")` resources in another module."""
    routes = mined_routes(tmp_path, capsys, {
        "atlas/__init__.py": (
            "from flask import Flask\nfrom flask_restx import Api\nfrom atlas.runs import ns as runs_ns\n"
            "from atlas.meta import ns as meta_ns\n\n\ndef create_app():\n    app = Flask(__name__)\n"
            "    api = Api(app, doc='/swagger/', prefix='/api/v1')\n    api.add_namespace(runs_ns)\n"
            "    api.add_namespace(meta_ns, path='/info')\n    return app\n"),
        "atlas/runs.py": (
            "from flask_restx import Namespace, Resource\n\nns = Namespace('runs', path='/runs')\n\n\n"
            "@ns.route('/<run_id>')\nclass Run(Resource):\n    def get(self, run_id):\n        return {}\n"),
        "atlas/meta.py": (
            "from flask_restx import Namespace, Resource\n\nns = Namespace('meta', path='/')\n\n\n"
            "@ns.route('/build')\nclass Build(Resource):\n    def get(self):\n        return {}\n"),
    })
    # `path=` replaces the namespace's own path, which its module holds: that mount is not followed
    assert set(routes) == {"GET /api/v1/runs/<run_id>", "GET /build"}


def test_fastapi_and_flask_routers_included_under_a_prefix(tmp_path, capsys):
    root = tmp_path / "py"
    (root / "app" / "routers").mkdir(parents=True)
    (root / "app" / "__init__.py").write_text("")
    (root / "app" / "routers" / "__init__.py").write_text("")
    (root / "app" / "main.py").write_text(
        "from fastapi import FastAPI\nfrom app.routers import items\nfrom .routers.users import router as users_router\n"
        "from . import admin\n\napp = FastAPI()\napp.include_router(items.router, prefix='/api/v1')\n"
        "app.include_router(users_router)\napp.include_router(admin.bp_router, prefix=settings.PREFIX)\n\n\n"
        "@app.get('/health')\ndef health():\n    return 'ok'\n")
    (root / "app" / "routers" / "items.py").write_text(
        "from fastapi import APIRouter\nrouter = APIRouter(prefix='/items')\n\n\n"
        "@router.get('/{item_id}')\ndef read_item(item_id: int):\n    return item_id\n")
    (root / "app" / "routers" / "users.py").write_text(
        "from fastapi import APIRouter\nrouter = APIRouter()\n\n\n@router.post('/users')\ndef make():\n    return 1\n")
    (root / "app" / "admin.py").write_text(
        "from fastapi import APIRouter\nbp_router = APIRouter()\n\n\n@bp_router.get('/stats')\ndef stats():\n    return 1\n")
    (root / "web.py").write_text(
        "from flask import Flask, Blueprint\napp = Flask(__name__)\nbp = Blueprint('admin', __name__)\n\n\n"
        "@bp.route('/users')\ndef users():\n    return 'u'\n\n\napp.register_blueprint(bp, url_prefix='/admin')\n")
    report = mine(tmp_path, capsys, str(root))
    routes = {c["name"] for c in report["candidates"] if c["kind"] == "http-route"}
    # an unknown prefix (settings.PREFIX) leaves the router's routes as registered
    assert routes == {"GET /api/v1/items/{item_id}", "POST /users", "GET /stats", "GET /health", "GET /admin/users",
                      # FastAPI()'s own pages
                      "GET /openapi.json", "GET /docs", "GET /docs/oauth2-redirect", "GET /redoc"}


def test_python_router_factories_mounted_under_a_configured_default_prefix(tmp_path, capsys):
    """`bp = create_auth_blueprint(...)` (a factory a package's __init__ re-exports) registered under
    `self.url_prefix or app.config.get("AUTH_PREFIX", "/api/auth")`; FastAPI's
    `app.include_router(make_coqui_router(engine))` of a router its factory builds with a prefix."""
    root = tmp_path / "auth"
    (root / "auth" / "routes").mkdir(parents=True)
    (root / "auth" / "__init__.py").write_text("")
    (root / "auth" / "routes" / "__init__.py").write_text(
        "from .login import create_auth_blueprint\n\n__all__ = ['create_auth_blueprint']\n")
    (root / "auth" / "routes" / "login.py").write_text(
        "from flask import Blueprint\n\n\ndef create_auth_blueprint(name):\n    bp = Blueprint(name, __name__)\n\n"
        "    @bp.route('/login', methods=['POST'])\n    def login():\n        return ''\n\n    return bp\n")
    (root / "auth" / "core.py").write_text(
        "class AuthSvc:\n    def __init__(self, url_prefix=None):\n        self.url_prefix = url_prefix\n\n"
        "    def init_app(self, app):\n        from auth.routes import create_auth_blueprint\n"
        "        url_prefix = self.url_prefix or app.config.get('AUTH_PREFIX', '/api/auth')\n"
        "        bp = create_auth_blueprint('auth')\n        app.register_blueprint(bp, url_prefix=url_prefix)\n"
        "        app.register_blueprint(create_auth_blueprint('v2'), url_prefix=app.config.get('V2'))\n"
        "        import auth.settings as settings\n"
        "        app.register_blueprint(settings.construct_blueprint(), url_prefix='/settings')\n")
    (root / "auth" / "settings.py").write_text(  # a factory whose blueprint mounts another factory's
        "from flask import Blueprint\n\n\ndef llm_blueprint():\n    llm = Blueprint('llm', __name__)\n\n"
        "    @llm.route('/models')\n    def models():\n        return ''\n\n    return llm\n\n\n"
        "def construct_blueprint():\n    bp = Blueprint('settings', __name__)\n"
        "    bp.register_blueprint(llm_blueprint(), url_prefix='/llm')\n    return bp\n")
    (root / "auth" / "tts.py").write_text(
        "from fastapi import APIRouter, FastAPI\n\n\ndef make_coqui_router(engine):\n"
        "    router = APIRouter(prefix='/coqui')\n\n    @router.get('/api/tts')\n    def tts():\n        return 1\n\n"
        "    return router\n\n\ndef unmounted():\n    other = APIRouter()\n\n    @other.get('/alone')\n"
        "    def alone():\n        return 1\n\n    return other\n\n\napp = FastAPI(docs_url=None, redoc_url=None, "
        "openapi_url=None)\napp.include_router(make_coqui_router(None))\n")
    routes = {c["name"] for c in mine(tmp_path, capsys, str(root))["candidates"] if c["kind"] == "http-route"}
    # the second mount's prefix has no default: that mount is not followed (nothing is guessed)
    assert routes == {"POST /api/auth/login", "GET /coqui/api/tts", "GET /alone", "GET /settings/llm/models"}


def test_django_url_patterns_a_function_returns_are_served_where_its_result_is_included(tmp_path, capsys):
    """openwisp's `def get_api_urls(views): return [path("subnet/", views.subnet), ...]`, included as
    `path("api/v1/ipam/", include((get_api_urls(views), "ipam")))` in a function whose own result the
    module's urlpatterns include."""
    root = tmp_path / "ipam"
    (root / "ipam" / "api").mkdir(parents=True)
    for package in ("ipam", "ipam/api"):
        (root / package / "__init__.py").write_text("")
    (root / "ipam" / "api" / "urls.py").write_text(
        "from django.urls import path\n\n\ndef get_api_urls(api_views):\n    return [\n"
        "        path('subnet/', api_views.subnet_list),\n        path('subnet/<str:pk>/', api_views.subnet),\n    ]\n")
    (root / "ipam" / "urls.py").write_text(
        "from django.urls import include, path\n\nfrom .api import views\nfrom .api.urls import get_api_urls\n\n\n"
        "def get_urls(api_views):\n    return [path('api/v1/ipam/', include((get_api_urls(api_views), 'ipam')))]\n\n\n"
        "urlpatterns = [path('', include(get_urls(views)))]\n")
    (root / "ipam" / "inline.py").write_text(  # patterns listed inside include(), nested, and added under an if
        "from django.urls import include, path\n\nfrom . import views\n\nurlpatterns = []\nif views.API:\n"
        "    urlpatterns += [path('fw/', include([path('build/', views.b), path('cat/', include(([\n"
        "        path('<uuid:pk>/', views.c)], 'cat')))]))]\n")
    (root / "ipam" / "utils.py").write_text(  # a local list the function returns, a module's urlpatterns made of it
        "from django.urls import path\n\n\ndef topology_urls(views):\n    urls = [path('topology/', views.t)]\n"
        "    return urls\n")
    (root / "ipam" / "topo.py").write_text("from .utils import topology_urls\nfrom . import views\n\n"
                                           "urlpatterns = topology_urls(views)\n")
    (root / "ipam" / "root.py").write_text("from django.urls import include, path\n\n"
                                           "urlpatterns = [path('net/', include('ipam.topo'))]\n")
    routes = {c["name"] for c in mine(tmp_path, capsys, str(root))["candidates"] if c["kind"] == "http-route"}
    assert routes == {"ANY /api/v1/ipam/subnet/", "ANY /api/v1/ipam/subnet/<str:pk>/", "ANY /fw/build/",
                      "ANY /fw/cat/<uuid:pk>/", "ANY /net/topology/"}


def test_a_mount_prefix_from_a_settings_objects_default(tmp_path, capsys):
    """FastAPI's `include_router(api_router, prefix=settings.API_V1_STR)` with `class Settings(BaseSettings):
    API_V1_STR: str = "/api/v1"` in another module; `cfg: ApiConfiguration` whose `__init__` keeps
    `prefix="/api/v2"`; a settings object made here with the attribute given."""
    root = tmp_path / "svc"
    (root / "app" / "core").mkdir(parents=True)
    for package in ("app", "app/core"):
        (root / package / "__init__.py").write_text("")
    (root / "app" / "core" / "config.py").write_text(
        "from pydantic_settings import BaseSettings\n\n\nclass Settings(BaseSettings):\n    API_V1_STR: str = '/api/v1'\n\n\n"
        "settings = Settings()\n\n\nclass ApiConfiguration:\n    def __init__(self, host='h', prefix: str = '/api/v2'):\n"
        "        self.prefix = prefix\n")
    (root / "app" / "routes.py").write_text(
        "from fastapi import APIRouter\n\nitems = APIRouter(prefix='/items')\nusers = APIRouter(prefix='/users')\n"
        "other = APIRouter(prefix='/other')\n\n\n@items.get('/')\ndef list_items():\n    return []\n\n\n"
        "@users.get('/me')\ndef me():\n    return 1\n\n\n@other.get('/x')\ndef x():\n    return 1\n")
    (root / "app" / "main.py").write_text(
        "from fastapi import FastAPI\nfrom app.core.config import settings, ApiConfiguration\n"
        "from app.routes import items, users, other\n\n"
        "app = FastAPI(openapi_url=None, docs_url=None, redoc_url=None)\n"
        "app.include_router(items, prefix=settings.API_V1_STR)\n\n\n"
        "def install(app: FastAPI, cfg: ApiConfiguration) -> None:\n    app.include_router(users, prefix=cfg.prefix)\n\n\n"
        "class Local:\n    PREFIX = '/unused'\n\n\nlocal = Local(PREFIX='/local')\napp.include_router(other, prefix=local.PREFIX)\n")
    routes = {c["name"] for c in mine(tmp_path, capsys, str(root))["candidates"] if c["kind"] == "http-route"}
    assert routes == {"GET /api/v1/items/", "GET /api/v2/users/me", "GET /local/other/x"}
    # account-kit's `def mount_account(app, get_db, config)`, an untyped `config`: the default the
    # package's settings class gives the field (`api_prefix: str = "/api/auth"` in its config module)
    (root / "app" / "core" / "config.py").write_text(
        "from dataclasses import dataclass\n\n\n@dataclass\nclass KitConfig:\n    api_prefix: str = '/api/auth'\n")
    (root / "app" / "main.py").write_text(
        "from app.routes import items\n\n\ndef mount(app, config) -> None:\n"
        "    app.include_router(items, prefix=config.api_prefix)\n")
    (tmp_path / "kit").mkdir()
    routes = {c["name"] for c in mine(tmp_path / "kit", capsys, str(root))["candidates"] if c["kind"] == "http-route"}
    assert "GET /api/auth/items/" in routes, routes


def test_a_route_path_from_a_settings_field_the_packages_own_calls_give(tmp_path, capsys):
    """testbench-ai-service: `@router.post(config.endpoint_path)` in `def create_agent_router(key,
    config: AgentConfig)`, the field without a default, and the package's table of default agents
    `AgentConfig(enabled=True, endpoint_path="/test-case-set-reviews")`: a route per path given. A
    call that gives something other than a literal leaves the path unknown; another class's call
    with a keyword of that name gives nothing."""
    files = {
        "pyproject.toml": '[project]\nname = "tb"\nversion = "1.0"\ndependencies = ["fastapi"]\n',
        "tb/__init__.py": "",
        "tb/models.py": "from pydantic import BaseModel\n\n\nclass AgentConfig(BaseModel):\n    endpoint_path: str\n",
        "tb/config.py": ("from tb.models import AgentConfig\n\nDEFAULT_AGENTS = {\n"
                         "    'a': AgentConfig(\n        enabled=True,\n        endpoint_path='/reviews',\n    ),\n"
                         "    'b': AgentConfig(enabled=True, endpoint_path=\"/descriptions\"),\n}\n"),
        "tb/routes.py": ("from fastapi import APIRouter\n\n\ndef create_agent_router(key, config):\n"
                         "    router = APIRouter()\n\n    @router.post(config.endpoint_path)\n"
                         "    async def trigger():\n        return {}\n\n    return router\n"),
    }
    assert sorted(mined_routes(tmp_path / "given", capsys, files)) == ["POST /descriptions", "POST /reviews"]
    other = {**files, "tb/more.py": "from tb.models import AgentConfig\n\nX = AgentConfig(endpoint_path=PATH)\n"}
    assert mined_routes(tmp_path / "other", capsys, other) == {}
    # (another class's keyword of the same name is no value of this field)
    unrelated = {**files, "tb/more.py": "from x import Hook\n\nY = Hook(name='h', endpoint_path='/hooks')\n"}
    assert sorted(mined_routes(tmp_path / "unrelated", capsys, unrelated)) == ["POST /descriptions", "POST /reviews"]


def test_a_route_path_from_another_modules_fstring_constant(tmp_path, capsys):
    """gcplocal: `api_prefix = COMPUTE_API_PREFIX`, that module's `f"/compute/{COMPUTE_API_VERSION}"`."""
    root = tmp_path / "gl"
    (root / "gl").mkdir(parents=True)
    (root / "gl" / "__init__.py").write_text("")
    (root / "gl" / "constants.py").write_text(
        "VERSION = 'v1'\nCOMPUTE_API_PREFIX = f'/compute/{VERSION}'\nBAD = f'/x/{VERSION!r}'\n")
    (root / "gl" / "compute.py").write_text(
        "from flask import Blueprint\nfrom gl.constants import COMPUTE_API_PREFIX, BAD\n\n\nclass Compute:\n"
        "    api_prefix = COMPUTE_API_PREFIX\n    other = BAD\n\n    def register_routes(self, bp: Blueprint):\n"
        "        p = self.api_prefix\n        bp.add_url_rule(f'{p}/instances', 'list', self.list, methods=['GET'])\n"
        "        q = self.other\n        bp.add_url_rule(f'{q}/lost', 'lost', self.lost)\n")
    routes = {c["name"] for c in mine(tmp_path, capsys, str(root))["candidates"] if c["kind"] == "http-route"}
    assert routes == {"GET /compute/v1/instances"}  # a conversion (`!r`) is not read: that route is dropped


def test_route_paths_built_from_fstrings_locals_class_attributes_loops_and_other_modules_constants(tmp_path, capsys):
    root = tmp_path / "mon"
    (root / "mon" / "outputs").mkdir(parents=True)
    (root / "mon" / "__init__.py").write_text("from .version import __apiversion__\n")
    (root / "mon" / "version.py").write_text("__apiversion__ = '4'\n")
    (root / "mon" / "outputs" / "__init__.py").write_text("")
    (root / "mon" / "outputs" / "api.py").write_text('''
from fastapi import APIRouter, FastAPI
from mon import __apiversion__
from elsewhere import UNKNOWN

PREFIX = "/ui"
app = FastAPI()


@app.get(f"{PREFIX}/index")
def index():
    return 1


class RestfulApi:
    API_VERSION = __apiversion__

    def _router(self):
        base_path = f"/api/{self.API_VERSION}"
        plugin_path = f"{base_path}/{{plugin}}"
        router = APIRouter()
        router.add_api_route(f"{base_path}/status", self._status, methods=["HEAD"])
        router.add_api_route(f"{UNKNOWN}/lost", self._lost)
        route_mapping = {
            f"{base_path}/config": self._config,
            f"{plugin_path}/history/{{nb}}": self._history,
        }
        for path, endpoint in route_mapping.items():
            router.add_api_route(path, endpoint)
        return router
'''.lstrip())
    report = mine(tmp_path, capsys, str(root))
    routes = {c["name"]: c for c in report["candidates"] if c["kind"] == "http-route"}
    assert set(routes) - {"GET /openapi.json", "GET /docs", "GET /docs/oauth2-redirect", "GET /redoc"} == {
        "GET /ui/index", "HEAD /api/4/status", "GET /api/4/config",
        "GET /api/4/{plugin}/history/{nb}"}  # UNKNOWN's module is not in the tree: dropped (FastAPI()'s pages apart)
    assert routes["GET /api/4/config"]["symbol"] == "self._config"


def test_django_includes_serve_the_included_urlpatterns_under_their_prefix(tmp_path, capsys):
    root = tmp_path / "site"
    files = {
        "proj/__init__.py": "", "shop/__init__.py": "", "shop/api/__init__.py": "",
        "proj/urls.py": ("from django.urls import include, path\nfrom shop import views\nimport shop.api.urls\n"
                         "urlpatterns = [\n    path('shop/', include('shop.urls')),\n"
                         "    path('api/', include(shop.api.urls)),\n    path('about/', views.about),\n]\n"),
        "shop/urls.py": ("from django.urls import path\nfrom . import views\nurlpatterns = [\n"
                         "    path('', views.index),\n    path('items/<int:pk>/', views.item),\n]\n"),
        "shop/api/urls.py": "from django.urls import path\nurlpatterns = [path('v1/ping/', ping)]\n",
        "shop/views.py": "def index(r): ...\ndef item(r, pk): ...\ndef about(r): ...\n",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    report = mine(tmp_path, capsys, str(root))
    routes = {c["name"] for c in report["candidates"] if c["kind"] == "http-route"}
    assert routes == {"ANY /shop/", "ANY /shop/items/<int:pk>/", "ANY /api/v1/ping/", "ANY /about/"}



def _write_tree(root, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def test_tornado_handlers_given_to_an_application_subclass_of_any_name(tmp_path, capsys):
    """web-monitoring-diff: `class DiffServer(tornado.web.Application)`, built with `DiffServer([...])`
    in make_app(); a class of another name that is no Application takes no handler list."""
    routes = mined_routes(tmp_path, capsys, {
        "svc/__init__.py": "",
        "svc/server.py": (
            "import tornado.web\n\n\nclass DiffServer(tornado.web.Application):\n    pass\n\n\n"
            "class Registry:\n    pass\n\n\n"
            "class HealthCheckHandler(tornado.web.RequestHandler):\n"
            "    async def get(self):\n        self.write({})\n\n\n"
            "class IndexHandler(tornado.web.RequestHandler):\n    async def get(self):\n        self.write({})\n\n\n"
            "def make_app():\n    Registry([(r'/not-a-route', IndexHandler)])\n"
            "    return DiffServer([(r'/healthcheck', HealthCheckHandler), (r'/', IndexHandler)], debug=False)\n"),
    })
    assert sorted(routes) == ["GET /", "GET /healthcheck"], sorted(routes)


def test_tornado_handler_lists_serve_each_method_their_handler_classes_define(tmp_path, capsys):
    root = tmp_path / "tornado-svc"
    files = {
     "svc/__init__.py": "",
     "svc/handlers.py": textwrap.dedent('''
        import tornado.web
        from tornado.websocket import WebSocketHandler
    
        _task_regex = r"(?P<task_id>[\\w-]+)"
    
    
        class StatusHandler(tornado.web.RequestHandler):
            def get(self):
                """The server's status."""
                self.write({})
    
    
        class TaskHandler(tornado.web.RequestHandler):
            def get(self, task_id):
                self.write({})
    
            def post(self, task_id):
                self.write({})
    
    
        class RunHandler(tornado.web.RequestHandler):
            def get(self, task_id, run_id):
                pass
    
    
        class EventsSocket(WebSocketHandler):
            def open(self):
                pass
    
            def on_message(self, message):
                pass
    
    
        default_handlers = [
            (r"/status", StatusHandler),
            (r"/tasks/%s" % _task_regex, TaskHandler),
            (r"/tasks/%s/runs/(\\d+)/?$" % _task_regex, RunHandler),
            (r"/static/(.*)", tornado.web.StaticFileHandler, {"path": "static"}),
        ]
        '''),
     "svc/app.py": textwrap.dedent('''
        import tornado.web
        from tornado.web import url
        from svc.handlers import default_handlers, EventsSocket
        from svc import handlers
    
    
        class App(tornado.web.Application):
            def __init__(self):
                handlers_ = [url(r"/events", EventsSocket, name="events")]
                super().__init__(handlers_ + default_handlers)
    
    
        def make_app():
            return tornado.web.Application([(r"/", handlers.StatusHandler)], debug=True)
        '''),
    }
    _write_tree(root, files)
    report = mine(tmp_path, capsys, str(root))
    routes = {c["name"]: c for c in report["candidates"] if c["kind"] == "http-route"}
    # the StaticFileHandler is tornado's own class: nothing in the package says what it answers
    assert set(routes) == {"GET /events", "GET /", "GET /status", "GET /tasks/{task_id}", "POST /tasks/{task_id}",
                           "GET /tasks/{task_id}/runs/{arg1}"}
    assert routes["GET /status"]["symbol"].endswith("StatusHandler.get")
    assert routes["GET /status"]["description"] == "The server's status."
    assert routes["GET /"]["source"]["path"] == "svc/app.py"  # registered there, handled in svc/handlers.py
    assert routes["GET /events"]["symbol"].endswith("EventsSocket.on_message")  # a WebSocket opens with a GET


def test_aiohttp_route_tables_router_calls_views_and_subapps(tmp_path, capsys):
    root = tmp_path / "aiohttp-svc"
    files = {
     "svc/__init__.py": "",
     "svc/views.py": textwrap.dedent('''
        from aiohttp import web
    
        routes = web.RouteTableDef()
    
    
        @routes.get("/api/items/{id:\\d+}")
        async def get_item(request):
            """One item."""
            return web.json_response({})
    
    
        @routes.route("DELETE", "/api/items/{id}")
        async def delete_item(request):
            return web.Response()
    
    
        @routes.view("/api/users")
        class Users(web.View):
            async def get(self):
                return web.json_response([])
    
            async def post(self):
                return web.json_response({})
    
    
        async def health(request):
            return web.Response(text="ok")
    
    
        async def ping(request):
            return web.Response(text="pong")
        '''),
     "svc/admin.py": textwrap.dedent('''
        from aiohttp import web
    
        async def stats(request):
            return web.json_response({})
    
        admin = web.Application()
        admin.router.add_get("/stats", stats)
        '''),
     "svc/app.py": textwrap.dedent('''
        from aiohttp import web
        from aiohttp.web import get
        from svc.views import routes, health, ping
        from svc.admin import admin
    
    
        def make_app():
            app = web.Application()
            app.add_routes(routes)
            app.add_routes([web.get("/health", health), web.route("*", "/ping", ping), web.static("/static", "st")])
            app.router.add_route("POST", "/hook", ping)
        app.add_routes([get("/version", ping)])
            app.router.add_post("/upload", ping)
            app.add_subapp("/admin/", admin)
            return app
        '''),
    }
    _write_tree(root, files)
    report = mine(tmp_path, capsys, str(root))
    routes = {c["name"]: c for c in report["candidates"] if c["kind"] == "http-route"}
    assert set(routes) == {"GET /admin/stats", "ANY /ping", "GET /health", "POST /hook", "POST /upload", "GET /version",
                           "GET /api/items/{id}", "DELETE /api/items/{id}", "GET /api/users", "POST /api/users"}
    assert routes["GET /api/items/{id}"]["description"] == "One item."
    assert routes["POST /api/users"]["symbol"].endswith("Users.post")


def test_strings_with_invalid_escapes_are_read_without_a_warning(tmp_path):
    import warnings

    from miners.mine import mine_tree
    from miners.sources import open_directory

    (tmp_path / "web.py").write_text('from flask import Flask\napp = Flask(__name__)\n\n\n'
                                     '@app.route("/items/\\d+")\ndef items():\n    """Items: \\d+ of them.\n\n    More."""\n')
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # Python 3.12+ prints a SyntaxWarning for "\d" by default
        report = mine_tree(open_directory(str(tmp_path)), workers=1)
    routes = {c["name"]: c for c in report["candidates"] if c["kind"] == "http-route"}
    assert routes["GET /items/\\d+"]["description"] == "Items: \\d+ of them."


def test_an_sdists_console_scripts_are_read_from_the_egg_info_setuptools_wrote(tmp_path, capsys):
    root = tmp_path / "demo-1.0"
    _write_tree(root, {
        "setup.py": "from setuptools import setup\nsetup(name='demo', entry_points='''\n[console_scripts]\n"
                    "demo = demo.cli:main\n''')\n",
        # setuptools copies a string's indentation: `entry_points="""\n    [console_scripts]..."""`
        "demo.egg-info/entry_points.txt": "\n    [console_scripts]\n    demo = demo.cli:main\n    demo-admin = demo.cli:admin\n"
                                          "\n    [demo.plugins]\n    x = demo.x\n    ",
        "demo/__init__.py": "", "demo/cli.py": "def main():\n    pass\n\n\ndef admin():\n    pass\n",
    })
    report = mine(tmp_path, capsys, str(root))
    commands = {c["name"]: c for c in report["candidates"] if c["kind"] == "cli-command"}
    assert set(commands) == {"demo", "demo-admin"}  # a plugin group's entries are not commands
    assert commands["demo-admin"]["evidence"][0]["path"] == "demo.egg-info/entry_points.txt"


def test_falcon_resources_and_bottle_routes(tmp_path, capsys):
    root = tmp_path / "falcon-bottle"
    files = {
     "svc/__init__.py": "",
     "svc/resources.py": textwrap.dedent('''
        import falcon
    
    
        class Things:
            def on_get(self, req, resp):
                """List the things."""
    
            def on_post(self, req, resp):
                pass
    
            def on_get_detail(self, req, resp, thing_id):
                pass
    
            def on_delete_detail(self, req, resp, thing_id):
                pass
    
            def helper(self):
                pass
        '''),
     "svc/app.py": textwrap.dedent('''
        import falcon
        from svc.resources import Things
    
        app = falcon.App()
        things = Things()
        app.add_route("/things", things)
        app.add_route("/things/{thing_id}", things, suffix="detail")
        # a resource whose class the configuration names (monasca-api): the path, by unknown methods
        metrics = simport.load(CONF.dispatcher.metrics)()
        app.add_route("/v2.0/metrics", metrics)
        app.add_route(CONF.path, metrics)  # (no literal path: no route)
        '''),
     "web.py": textwrap.dedent('''
        from bottle import Bottle, route, post, run
    
        app = Bottle()
    
    
        @route("/hello/<name>")
        def hello(name):
            """Greets."""
            return name
    
    
        @post("/login")
        def login():
            return ""
    
    
        @app.route("/upload", method=["POST", "PUT"])
        def upload():
            return ""
    
    
        @app.get("/status")
        def status():
            return ""
        '''),
    }
    _write_tree(root, files)
    report = mine(tmp_path, capsys, str(root))
    routes = {c["name"]: c for c in report["candidates"] if c["kind"] == "http-route"}
    assert set(routes) == {"GET /things", "POST /things", "GET /things/{thing_id}", "DELETE /things/{thing_id}",
                           "ANY /v2.0/metrics", "GET /hello/<name>", "POST /login", "POST /upload", "PUT /upload", "GET /status"}
    assert routes["GET /things/{thing_id}"]["symbol"].endswith("Things.on_get_detail")  # suffix="detail"
    assert routes["GET /things"]["description"] == "List the things."
    assert "the resource (simport.load(CONF.dispatcher.metrics)()) is made at run time: which methods it answers " \
        "is not known" in routes["ANY /v2.0/metrics"]["unknowns"]
    assert routes["GET /hello/<name>"]["description"] == "Greets."  # bottle's own route(), imported by name


def test_django_ninja_routers_mounted_on_an_api_and_the_api_in_urlpatterns(tmp_path, capsys):
    root = tmp_path / "ninja-svc"
    _write_tree(root, {
        "shop/__init__.py": "",
        "shop/auth.py": textwrap.dedent('''
            from ninja import Router

            router = Router(tags=["auth"])


            @router.post("login/", summary="Obtain a token")
            def login(request):
                pass


            @router.delete("sessions/{session_id}/")
            def revoke(request, session_id: int):
                """Revoke a session."""
            '''),
        "shop/api.py": textwrap.dedent('''
            from ninja import NinjaAPI

            from shop.auth import router as auth_router

            api = NinjaAPI()
            api.add_router("auth/", auth_router)


            @api.get("/health")
            def health(request):
                pass
            '''),
        "shop/urls.py": textwrap.dedent('''
            from django.urls import path

            from shop.api import api

            urlpatterns = [path("api/", api.urls)]
            '''),
    })
    report = mine(tmp_path, capsys, str(root))
    routes = {c["name"]: c for c in report["candidates"] if c["kind"] == "http-route"}
    # Ninja's paths join with a slash ("login/" under "auth/"); api.urls is a mount, not a view
    assert set(routes) == {"POST /api/auth/login/", "DELETE /api/auth/sessions/{session_id}/", "GET /api/health"}
    assert routes["POST /api/auth/login/"]["description"] == "Obtain a token"
    assert routes["DELETE /api/auth/sessions/{session_id}/"]["description"] == "Revoke a session."


def test_drf_routers_serve_each_action_their_viewsets_define_or_inherit(tmp_path, capsys):
    root = tmp_path / "drf"
    files = {
     "proj/__init__.py": "",
     "proj/urls.py": textwrap.dedent('''
        from django.urls import include, path
    
        urlpatterns = [
            path("api/", include("accounts.urls")),
        ]
        '''),
     "accounts/__init__.py": "",
     "accounts/base.py": textwrap.dedent('''
        from rest_framework import mixins, viewsets
    
    
        class ListRetrieveViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
            lookup_field = "uuid"
        '''),
     "accounts/views.py": textwrap.dedent('''
        from rest_framework import viewsets
        from rest_framework.decorators import action
    
        from .base import ListRetrieveViewSet
    
    
        class UserViewSet(viewsets.ModelViewSet):
            """Users of the service."""
    
            def create(self, request):
                """Sign a user up."""
    
            @action(detail=True, methods=["post"], url_path="set-password")
            def set_password(self, request, pk=None):
                """Change a user's password."""
    
            @action(detail=False)
            def me(self, request):
                pass

            @action(detail=False, methods=["post"], url_path=r"category/(?P<category>[^/.]+)/read/(?P<n>\\d+)")
            def read(self, request, category=None, n=None):  # a url_path is a regex
                pass
    
            @conditional_action(condition=settings.SOFT_DELETE, detail=True)  # the package's own @action
            def archive(self, request, pk=None):
                pass
    
            @cached_action(timeout=5)  # no `detail`: not read as an action
            def cached(self, request):
                pass
    
    
        class TokenViewSet(viewsets.ViewSet):
            def list(self, request):
                pass
    
            def destroy(self, request, pk=None):
                pass

            def bulk_destroy(self, request):  # DRF's routers route no bulk operation (NetBox's do)
                pass
    
    
        class GroupViewSet(ListRetrieveViewSet):
            pass
        '''),
     "accounts/urls.py": textwrap.dedent('''
        from django.urls import include, path
        from rest_framework import routers
    
        from accounts import views
    
        router = routers.DefaultRouter()
        router.register(r"users", views.UserViewSet)
        router.register(r"tokens", views.TokenViewSet, basename="token")
        router.register(r"groups", views.GroupViewSet)
    
        plain = routers.SimpleRouter(trailing_slash=False)
        plain.register("flat", views.TokenViewSet)
    
        urlpatterns = [
            path("", include(router.urls)),
            path("v2/", include(plain.urls)),
        ]
        '''),
    }
    _write_tree(root, files)
    report = mine(tmp_path, capsys, str(root))
    routes = {c["name"]: c for c in report["candidates"] if c["kind"] == "http-route"}
    assert set(routes) == {
        "GET /api/",  # DefaultRouter's API root
        "GET /api/users/", "POST /api/users/", "GET /api/users/{pk}/", "PUT /api/users/{pk}/",
        "PATCH /api/users/{pk}/", "DELETE /api/users/{pk}/", "POST /api/users/{pk}/set-password/",
        "GET /api/users/me/",  # @action(detail=False): GET unless told
        "POST /api/users/category/{category}/read/{n}/",
        "GET /api/users/{pk}/archive/",
        "GET /api/tokens/", "DELETE /api/tokens/{pk}/",  # a plain ViewSet: the methods it defines
        "GET /api/groups/", "GET /api/groups/{uuid}/",  # mixins of a package base class, its lookup_field
        "GET /api/v2/flat", "DELETE /api/v2/flat/{pk}",  # SimpleRouter(trailing_slash=False)
    }
    assert routes["POST /api/users/"]["description"] == "Sign a user up."
    assert routes["POST /api/users/{pk}/set-password/"]["symbol"].endswith("UserViewSet.set_password")
    assert routes["GET /api/users/"]["description"] == "Users of the service."  # inherited: the class's doc


def test_a_drf_router_registering_a_table_of_default_viewsets_in_a_loop(tmp_path, capsys):
    """django-fingerprint-attendance: `DEFAULT_VIEWSETS = {"devices": views.DeviceViewSet, ...}` and
    `for prefix, viewset in DEFAULT_VIEWSETS.items(): chosen = overrides.get(prefix) or viewset;
    router.register(prefix, import_object(chosen))`: each default at its prefix. A loop that
    registers something not made from the table's viewset registers nothing known."""
    files = {
        "pyproject.toml": '[project]\nname = "fpa"\nversion = "1.0"\ndependencies = ["djangorestframework"]\n',
        "fpa/__init__.py": "",
        "fpa/views.py": ("from rest_framework import viewsets\n\n\nclass DeviceViewSet(viewsets.ModelViewSet):\n"
                         "    pass\n\n\nclass PunchViewSet(viewsets.ReadOnlyModelViewSet):\n    pass\n"),
        "fpa/urls.py": ("from django.urls import include, path\nfrom rest_framework.routers import SimpleRouter\n\n"
                        "from . import views\n\nDEFAULT_VIEWSETS = {\n    'devices': views.DeviceViewSet,\n"
                        "    'punches': views.PunchViewSet,\n}\n\n\ndef build_router():\n    router = SimpleRouter()\n"
                        "    for prefix, viewset in DEFAULT_VIEWSETS.items():\n"
                        "        chosen = OVERRIDES.get(prefix) or viewset\n"
                        "        router.register(prefix, import_object(chosen), basename=prefix)\n"
                        "    for prefix, viewset in DEFAULT_VIEWSETS.items():\n"
                        "        router.register(prefix + '-x', other(prefix))\n"
                        "    return router\n\n\nrouter = build_router()\n"
                        "urlpatterns = [path('', include(router.urls))]\n"),
    }
    routes = mined_routes(tmp_path, capsys, files)
    assert sorted(routes) == ["DELETE /devices/{pk}/", "GET /devices/", "GET /devices/{pk}/", "GET /punches/",
                              "GET /punches/{pk}/", "PATCH /devices/{pk}/", "POST /devices/",
                              "PUT /devices/{pk}/"], sorted(routes)


def test_viewsets_defined_under_an_optional_import_guard(tmp_path, capsys):
    """django-acquisitions: `try: from rest_framework import viewsets ... class CampaignViewSet(
    viewsets.ModelViewSet)` (DRF an optional extra), registered by a router the same way."""
    files = {
        "pyproject.toml": '[project]\nname = "acq"\nversion = "1.0"\ndependencies = ["djangorestframework"]\n',
        "acq/__init__.py": "",
        "acq/viewsets.py": ("try:\n    from rest_framework import viewsets\n\n"
                            "    class CampaignViewSet(viewsets.ReadOnlyModelViewSet):\n        pass\n"
                            "except ImportError:\n    pass\n"),
        "acq/urls.py": ("try:\n    from django.urls import include, path\n"
                        "    from rest_framework.routers import SimpleRouter\n\n"
                        "    from .viewsets import CampaignViewSet\n\n    router = SimpleRouter()\n"
                        "    router.register(r'campaigns', CampaignViewSet)\n"
                        "    urlpatterns = [path('', include(router.urls))]\n"
                        "except ImportError:\n    urlpatterns = []\n"),
    }
    assert sorted(mined_routes(tmp_path, capsys, files)) == ["GET /campaigns/", "GET /campaigns/{pk}/"]


def test_a_urlconfs_router_of_the_packages_own_class_and_an_aliased_drf_base(tmp_path, capsys):
    """nautobot: dcim/api/urls.py imports no rest_framework, only the package's own
    `OrderedDefaultRouter(DefaultRouter)`, and `urlpatterns = router.urls`; its viewsets reach DRF's
    ModelViewSet through the package's `ModelViewSet(..., ModelViewSet_)`, imported `as
    ModelViewSet_`. A Router class of another library, or one of the package's whose name is not a
    DRF router's, is not taken for DRF's."""
    files = {
        "nb/__init__.py": "", "nb/core/__init__.py": "", "nb/dcim/__init__.py": "",
        "nb/urls.py": "from django.urls import include, path\n\nurlpatterns = [path('api/dcim/', include('nb.dcim.urls'))]\n",
        "nb/core/routers.py": ("from rest_framework.routers import DefaultRouter\n\n\n"
                               "class OrderedDefaultRouter(DefaultRouter):\n    pass\n"),
        "nb/core/views.py": ("from rest_framework.viewsets import ModelViewSet as ModelViewSet_\n\n\n"
                             "class ModelViewSet(ModelViewSet_):\n    pass\n"),
        "nb/dcim/views.py": ("from rest_framework.decorators import action\n\nfrom nb.core.views import ModelViewSet\n\n\n"
                             "class DeviceViewSet(ModelViewSet):\n    pass\n"),
        "nb/dcim/urls.py": ("from nb.core.routers import OrderedDefaultRouter\n\nfrom . import views\n\n"
                            "router = OrderedDefaultRouter()\nrouter.register('devices', views.DeviceViewSet)\n"
                            "urlpatterns = router.urls\n"),
        "nb/other/urls.py": ("from thirdparty import TaskRouter\n\nrouter = TaskRouter()\n"
                             "router.register('tasks', object)\nurlpatterns = []\n"),
        # the package's own UI router (nautobot's NautobotUIViewSetRouter) routes pages its own way
        "nb/ui/urls.py": ("from nb.core.routers import UIViewSetRouter\n\nfrom nb.dcim import views\n\n"
                          "router = UIViewSetRouter()\nrouter.register('devices', views.DeviceViewSet)\n"
                          "urlpatterns = router.urls\n"),
    }
    routes = mined_routes(tmp_path, capsys, files)
    assert sorted(routes) == [
        "DELETE /api/dcim/devices/{pk}/", "GET /api/dcim/", "GET /api/dcim/devices/", "GET /api/dcim/devices/{pk}/",
        "PATCH /api/dcim/devices/{pk}/", "POST /api/dcim/devices/", "PUT /api/dcim/devices/{pk}/"], sorted(routes)


def test_django_includes_a_list_comprehension_makes_from_a_literal_table(tmp_path, capsys):
    """django-authkit-api: `MODULE_ROUTES = (("users/", "kit.users.urls"), ...)` and `urlpatterns =
    [path("", Info.as_view()), *[path(route, include(urlconf)) for route, urlconf in MODULE_ROUTES]]`:
    each row's module under its route. A comprehension with a condition is not read."""
    files = {
        "kit/__init__.py": "", "kit/users/__init__.py": "", "kit/roles/__init__.py": "",
        "kit/users/urls.py": "from django.urls import path\n\nurlpatterns = [path('me/', views.me)]\n",
        "kit/roles/urls.py": "from django.urls import path\n\nurlpatterns = [path('<int:pk>/', views.role)]\n",
        "kit/urls.py": (
            "from django.urls import include, path\n\nMODULE_ROUTES = (\n    ('users/', 'kit.users.urls'),\n"
            "    ('roles/', 'kit.roles.urls'),\n)\n\nurlpatterns = [\n    path('', views.info),\n"
            "    *[path(route, include(urlconf)) for route, urlconf in MODULE_ROUTES],\n]\n"),
    }
    routes = mined_routes(tmp_path / "table", capsys, files)
    assert sorted(routes) == ["ANY /", "ANY /roles/<int:pk>/", "ANY /users/me/"], sorted(routes)
    filtered = {**files, "kit/urls.py": files["kit/urls.py"].replace(" in MODULE_ROUTES]", " in MODULE_ROUTES if on]")}
    assert sorted(mined_routes(tmp_path / "filtered", capsys, filtered)) == ["ANY /", "ANY /<int:pk>/", "ANY /me/"]


def test_django_include_of_a_namespaced_module_and_of_another_modules_drf_router(tmp_path, capsys):
    """argus-server: include(("argus.site.api_v2_urls", "api"), namespace="v2"); squad:
    include(rest.router.urls) with the router made in `squad/api/rest.py`."""
    routes = mined_routes(tmp_path, capsys, {
        "svc/__init__.py": "", "svc/api/__init__.py": "",
        "svc/urls.py": ("from django.urls import include, path\n\nurlpatterns = [\n"
                        "    path('api/v2/', include(('svc.api_v2_urls', 'api'), namespace='v2')),\n"
                        "    path('api/', include('svc.api.urls')),\n]\n"),
        "svc/api_v2_urls.py": ("from django.urls import path\nfrom svc import views\n\n"
                               "urlpatterns = [path('incidents/', views.incidents)]\n"),
        "svc/views.py": "def incidents(request):\n    pass\n",
        "svc/api/urls.py": ("from django.urls import include, re_path as url\nfrom . import rest\n\n"
                            "urlpatterns = [url(r'^', include(rest.router.urls))]\n"),
        "svc/api/rest.py": ("from rest_framework import routers, viewsets\n\n\nclass ProjectViewSet(viewsets.ViewSet):\n"
                            "    def list(self, request):\n        pass\n\n\nrouter = routers.SimpleRouter()\n"
                            "router.register(r'projects', ProjectViewSet)\n"),
    })
    assert set(routes) == {"ANY /api/v2/incidents/", "GET /api/projects/"}


def test_django_class_based_views_serve_the_methods_their_classes_answer(tmp_path, capsys):
    root = tmp_path / "cbv"
    _write_tree(root, {
        "auth/__init__.py": "",
        "auth/utils.py": ("from rest_framework import response\n\n\nclass ActionViewMixin(object):\n"
                          "    def post(self, request):\n        \"\"\"Run the action.\"\"\"\n"
                          "        return response.Response()\n"),
        "auth/views.py": ("from django.views.generic import TemplateView\nfrom rest_framework import generics, views\n"
                          "from . import utils\n\n\nclass MeView(generics.RetrieveUpdateAPIView):\n    pass\n\n\n"
                          "class LoginView(utils.ActionViewMixin, generics.GenericAPIView):\n    pass\n\n\n"
                          "class LogoutView(views.APIView):\n    def post(self, request):\n        pass\n\n\n"
                          "class Home(TemplateView):\n    template_name = 'home.html'\n"),
        "auth/urls.py": ("from django.conf.urls import url\nfrom auth import views\nfrom elsewhere import Unknown\n\n"
                         "base_urlpatterns = (\n    url(r'^me/$', views.MeView.as_view(), name='me'),\n"
                         "    url(r'^login/$', views.LoginView.as_view()),\n)\n\n"
                         "urlpatterns = base_urlpatterns + (\n    url(r'^logout/$', views.LogoutView.as_view()),\n"
                         "    url(r'^$', views.Home.as_view()),\n    url(r'^other/$', Unknown.as_view()),\n)\n"),
    })
    report = mine(tmp_path, capsys, str(root))
    routes = {c["name"]: c for c in report["candidates"] if c["kind"] == "http-route"}
    assert set(routes) == {"GET /me/", "PUT /me/", "PATCH /me/", "POST /login/", "POST /logout/", "GET /",
                           "ANY /other/"}  # a class not in the package: every method, as Django routes it
    assert routes["POST /login/"]["symbol"].endswith("ActionViewMixin.post")
    assert routes["POST /login/"]["description"] == "Run the action."


def test_nestjs_controllers_serve_their_decorated_methods(tmp_path, capsys):
    root = tmp_path / "nest"
    files = {
     "src/cats.controller.ts": """import { Controller, Get, Post, Body, Param, HttpCode, Delete, All } from '@nestjs/common';
    
    const ROOT = 'cats';
    
    @Controller(ROOT)
    export class CatsController {
      /** List the cats.
       *
       * More words.
       * @returns the cats
       */
      @Get()
      findAll(): string { return 'x'; }
    
      @Get(':id')
      findOne(@Param('id') id: string) { return id; }
    
      @Post()
      @HttpCode(204)
      create(@Body() dto: unknown) {}
    
      @Delete([':id', 'by-id/:id'])
      remove() {}
    
      helper() {}
    }
    
    @Controller({ path: 'admin', host: 'admin.example.com' })
    export class AdminController {
      @All('*')
      any() {}
    }
    
    @Controller()
    class RootController {
      @Get('health')
      health() {}
    }
    """,
     "src/not-nest.ts": "export class Plain { @Get() x() {} }\n",
    }
    _write_tree(root, files)
    report = mine(tmp_path, capsys, str(root))
    routes = {c["name"]: c for c in report["candidates"] if c["kind"] == "http-route"}
    assert set(routes) == {"GET /cats", "GET /cats/:id", "POST /cats", "DELETE /cats/:id", "DELETE /cats/by-id/:id",
                           "ANY /admin/*", "GET /health"}  # not-nest.ts imports no @nestjs/common: no route
    assert routes["GET /cats"]["description"] == "List the cats."  # its JSDoc, @tags left out
    assert routes["POST /cats"]["symbol"].endswith("CatsController.create")
    assert routes["GET /cats/:id"]["source"]["line"] == 15


def test_loopback_4_controllers_serve_their_decorated_methods(tmp_path, capsys):
    routes = mined_routes(tmp_path, capsys, {
        "package.json": ('{"name": "mail", "version": "1.0.0", "main": "dist/index.js",'
                         ' "dependencies": {"@loopback/rest": "^14"}}'),
        "src/controllers/mail.controller.ts": (
            "import {patch, put} from '@loopback/openapi-v3';\nimport {api, del, get, operation} from '@loopback/rest';\n\n"
            "export class CollectorController {\n  @get('/threads/{threadId}', {responses: {}})\n  async thread() {}\n\n"
            "  @put('/mails/{messageId}')\n  async update() {}\n\n  @del('/mails/{messageId}')\n  async remove() {}\n\n"
            "  @operation('patch', '/mails/bulk/restore')\n  async restore() {}\n}\n\n"
            "@api({basePath: '/admin'})\nexport class AdminController {\n  @patch('/settings')\n  async settings() {}\n}\n"),
        "src/other.ts": (  # decorators of the same names from elsewhere: no route
            "import {get} from './cache';\nimport {x} from '@loopback/core';\n"
            "export class Cached {\n  @get('/not/a/route')\n  value() {}\n}\n"),
    })
    assert sorted(routes) == ["DELETE /mails/{messageId}", "GET /threads/{threadId}", "PATCH /admin/settings",
                              "PATCH /mails/bulk/restore", "PUT /mails/{messageId}"]
    assert routes["PUT /mails/{messageId}"]["symbol"].endswith("CollectorController.update")
    assert any(e["kind"] == "dependency" for e in routes["PUT /mails/{messageId}"]["evidence"])


def test_nestjs_controllers_as_typescript_compiles_them(tmp_path, capsys):
    """What an npm tarball ships: tsc's `__decorate([(0, common_1.Post)('register')],
    AuthController.prototype, "register", null)` and `AuthController = __decorate([(0,
    common_1.Controller)('auth')], AuthController)` (tslib's and SWC's helpers alike); a class no
    @Controller decorates, or a file without @nestjs/common, gives nothing."""
    compiled = (
        '"use strict";\nconst tslib_1 = require("tslib");\nconst common_1 = require("@nestjs/common");\n'
        "let AuthController = class AuthController {\n  register(dto) {}\n  me(req) {}\n};\n"
        "exports.AuthController = AuthController;\n"
        "tslib_1.__decorate([\n    (0, common_1.Post)('register'),\n    (0, common_1.HttpCode)(201),\n"
        '    tslib_1.__metadata("design:type", Function)\n], AuthController.prototype, "register", null);\n'
        "tslib_1.__decorate([\n    common_1.Get(['me', 'profile'])\n], AuthController.prototype, \"me\", null);\n"
        "exports.AuthController = AuthController = tslib_1.__decorate([\n    (0, common_1.Controller)('auth')\n"
        "], AuthController);\n"
        "let Helper = class Helper {\n  run() {}\n};\n"
        '__decorate([(0, common_1.Get)("run")], Helper.prototype, "run", null);\n')
    swc = ('import { Controller, Get } from "@nestjs/common";\nlet FormController = class FormController {\n'
           "  byId() {}\n};\n_ts_decorate([\n    (0,common_.Get)(':id')\n"
           "], FormController.prototype, \"byId\", null);\n"
           "FormController = _ts_decorate([\n    (0,common_.Controller)({ path: 'form-builder/form' })\n"
           "], FormController);\n")
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "auth", "version": "1.0.0", "main": "dist/index.js"}',
        "dist/auth.controller.js": compiled, "dist/form.controller.js": swc,
        "dist/plain.js": compiled.replace("@nestjs/common", "./common"),
    })
    assert sorted(routes) == ["GET /auth/me", "GET /auth/profile", "GET /form-builder/form/:id", "POST /auth/register"]
    assert routes["POST /auth/register"]["symbol"].endswith("AuthController.register")
    source = routes["POST /auth/register"]["source"]  # (the decorator's line)
    assert (source["path"], source["line"]) == ("dist/auth.controller.js", 10)


def test_nestjs_routes_are_served_under_the_global_prefix_the_bootstrap_sets(tmp_path, capsys):
    controller = ("import { Controller, Get, Post } from '@nestjs/common';\n\n@Controller('profiles')\n"
                  "export class ProfilesController {\n  @Get()\n  list() {}\n\n  @Post(':id/servers')\n  add() {}\n}\n\n"
                  "@Controller('health')\nexport class HealthController {\n  @Get()\n  ok() {}\n}\n")
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "api", "version": "1.0.0", "main": "dist/main.js"}',
        "src/app.controller.ts": controller,
        "src/main.ts": ("import { NestFactory } from '@nestjs/core';\nasync function bootstrap() {\n"
                        "  const app = await NestFactory.create(AppModule);\n"
                        "  app.setGlobalPrefix('api', { exclude: ['health'] });\n  await app.listen(3000);\n}\n"),
    })
    assert sorted(routes) == ["GET /api/profiles", "GET /health", "POST /api/profiles/:id/servers"]


def test_a_backstage_backend_plugins_routes_are_served_under_its_plugin_base(tmp_path, capsys):
    """@backstage-community/plugin-rbac-backend: `createBackendModule({ pluginId: "permission", ...
    deps: { http: coreServices.httpRouter } ... http.use(router) })` in dist/plugin.cjs.js, the
    routes on Express routers in other files (one named `router$1` by the bundler, whose
    `router` an import took): Backstage serves them under /api/permission. Without the plugin
    declaration, or with two plugin ids in one package, the routes stay as registered."""
    files = {
        "package.json": '{"name": "rbac", "version": "1.0.0", "main": "dist/index.cjs.js", "dependencies": {"express": "4"}}',
        "dist/index.cjs.js": "var plugin = require('./plugin.cjs.js');\nexports.default = plugin.rbacPlugin;\n",
        "dist/router.cjs.js": ("var express = require('express');\nasync function createRouter() {\n"
                               "  const router = express.Router();\n"
                               "  router.get('/health', (_, response) => response.json({}));\n  return router;\n}\n"
                               "exports.createRouter = createRouter;\n"),
        "dist/api.cjs.js": ("var router = require('./router.cjs.js');\nclass Server {\n  async serve() {\n"
                            "    const router$1 = await router.createRouter(this.options);\n"
                            "    router$1.get('/policies', async (request, response) => response.json([]));\n"
                            "    return router$1;\n  }\n}\nexports.Server = Server;\n"),
        "dist/plugin.cjs.js": ("var backendPluginApi = require('@backstage/backend-plugin-api');\n"
                               "var api = require('./api.cjs.js');\n"
                               "const rbacPlugin = backendPluginApi.createBackendModule({\n  pluginId: 'permission',\n"
                               "  moduleId: 'rbac',\n  register(env) {\n    env.registerInit({\n"
                               "      deps: { http: backendPluginApi.coreServices.httpRouter },\n"
                               "      async init({ http }) {\n        http.use(await new api.Server().serve());\n"
                               "      },\n    });\n  },\n});\nexports.rbacPlugin = rbacPlugin;\n"),
    }
    routes = mined_routes(tmp_path / "plugin", capsys, files)
    assert sorted(routes) == ["GET /api/permission/health", "GET /api/permission/policies"], sorted(routes)
    assert {"kind": "route", "detail": "Backstage serves backend plugin 'permission' under /api/permission",
            "path": "dist/plugin.cjs.js", "line": 3} in routes["GET /api/permission/policies"]["evidence"]
    undeclared = {k: v for k, v in files.items() if k != "dist/plugin.cjs.js"}
    assert sorted(mined_routes(tmp_path / "bare", capsys, undeclared)) == ["GET /health", "GET /policies"]
    two = {**files, "dist/other.cjs.js": files["dist/plugin.cjs.js"].replace("'permission'", "'catalog'")}
    assert sorted(mined_routes(tmp_path / "two", capsys, two)) == ["GET /health", "GET /policies"]
    renamed_client = {**files, "dist/api.cjs.js": files["dist/api.cjs.js"].replace("router$1", "request$1")}
    assert sorted(mined_routes(tmp_path / "client", capsys, renamed_client)) == ["GET /api/permission/health"]


def test_routes_registered_through_a_files_own_wrapper_and_a_router_mounted_on_an_unknown_app(tmp_path, capsys):
    """mcp-hub's bundle: `function At(r, e, t, i) { hp[r.toLowerCase()](e, ...) }`, then
    `At("POST", "/servers/info", "...", handler)`; the app is made by bundled code nobody can name,
    but what takes a router under a prefix is an app."""
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "hub", "version": "1.0.0", "main": "dist/cli.js"}',
        "dist/cli.js": (
            "var OL = [], hp = p6.default.Router();\n"
            "function At(r, e, t, i) { OL.push({method: r, path: e}); hp[r.toLowerCase()](e, (a, n, s) => i(a, n, s)); }\n"
            "function get(p, h) { hp.get(p, h); }\n"
            "At('POST', '/servers/info', 'Get status', async (r, e) => {});\nAt('GET', '/health', 'Health', h);\n"
            "At(method, '/dynamic', 'x', h);\nget('/events', h);\n"
            "var yc = (0, E0.default)();\nyc.use('/api', hp);\n"),
    })
    assert sorted(routes) == ["GET /api/events", "GET /api/health", "POST /api/servers/info"]


def test_a_flask_method_view_serves_the_methods_its_class_defines(tmp_path, capsys):
    root = tmp_path / "mv"
    root.mkdir()
    (root / "app.py").write_text(textwrap.dedent('''
        from flask import Flask
        from flask.views import MethodView, View

        app = Flask(__name__)


        class UserAPI(MethodView):
            def get(self, user_id=None):
                """A user, or all of them."""

            def post(self):
                pass

            def delete(self, user_id):
                pass


        class Plain(View):
            def dispatch_request(self):
                return "x"


        user_view = UserAPI.as_view("users")
        app.add_url_rule("/users/", view_func=user_view, methods=["GET", "POST"])
        app.add_url_rule("/users/<int:user_id>", view_func=UserAPI.as_view("user"))
        app.add_url_rule("/plain", view_func=Plain.as_view("plain"))
        '''))
    report = mine(tmp_path, capsys, str(root))
    routes = {c["name"]: c for c in report["candidates"] if c["kind"] == "http-route"}
    assert set(routes) == {"GET /users/", "POST /users/",  # methods=[...] given: those, as Flask serves them
                           "GET /users/<int:user_id>", "POST /users/<int:user_id>", "DELETE /users/<int:user_id>",
                           "GET /plain"}  # a View with no verb method: the rule's own default
    assert routes["GET /users/<int:user_id>"]["description"] == "A user, or all of them."


def test_python_mcp_tools_take_their_input_schema_from_the_signature(tmp_path, capsys):
    root = tmp_path / "mcp-py"
    _write_tree(root, {"server.py": (
        "from typing import Annotated\nfrom pydantic import Field\nfrom mcp.server.fastmcp import FastMCP, Context\n\n"
        "mcp = FastMCP('demo')\n\n\n@mcp.tool()\ndef add(a: int, b: Annotated[int, Field(description='the other')] = 1,"
        " ctx: Context = None) -> int:\n    \"\"\"Add two numbers.\"\"\"\n    return a + b\n\n\n"
        "def mul(a: float, b: float) -> float:\n    \"\"\"Multiply.\"\"\"\n    return a * b\n\n\nmcp.add_tool(mul)\n")})
    report = mine(tmp_path, capsys, str(root))
    tools = {c["name"]: c for c in report["candidates"] if c["kind"] == "mcp-tool"}
    assert tools["add"]["draft_contract"]["input"] == {  # the request context is the server's, not an input
        "type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer", "description": "the other"}},
        "required": ["a"]}
    assert tools["add"]["unknowns"][0].startswith("input schema inferred from the function's type annotations")
    assert tools["mul"]["description"] == "Multiply."  # add_tool(fn): fn's own doc and signature
    assert tools["mul"]["draft_contract"]["input"]["required"] == ["a", "b"]


def test_file_system_routes_of_next_sveltekit_and_nuxt_apps(tmp_path, capsys):
    root = tmp_path / "mono"
    files = {
     "package.json": json.dumps({"name": "mono", "private": True, "workspaces": ["apps/*"]}),
     "apps/web/package.json": json.dumps({"name": "web", "dependencies": {"next": "14.2.0", "react": "18"}}),
     "apps/web/pages/api/hello.ts": "/** Say hello. */\nexport default function handler(req, res) {\n  res.status(200).json({ hi: 1 });\n}\n",
     "apps/web/pages/api/users/[id].ts": "export default async function user(req, res) {}\n",
     "apps/web/pages/api/users/index.ts": "export default async (req, res) => {};\n",
     "apps/web/pages/api/_util.ts": "export default function x() {}\n",
     "apps/web/pages/index.tsx": "export default function Home() { return null; }\n",
     "apps/web/src/app/api/items/[...slug]/route.ts": "export async function GET(request: Request) { return new Response('x'); }\nexport const POST = async () => new Response('');\nexport function helper() {}\n",
     "apps/web/src/app/(shop)/cart/route.ts": "export function DELETE() {}\n",
     "apps/web/src/app/_lib/route.ts": "export function GET() {}\n",
     "apps/kit/package.json": json.dumps({"name": "kit", "devDependencies": {"@sveltejs/kit": "2"}}),
     "apps/kit/src/routes/api/todos/[id]/+server.ts": "export async function PATCH({ params }) {}\nexport const fallback = async () => {};\n",
     "apps/nuxt/package.json": json.dumps({"name": "nx", "dependencies": {"nuxt": "3"}}),
     "apps/nuxt/server/api/users/[id].get.ts": "export default defineEventHandler(() => 1);\n",
     "apps/nuxt/server/api/login.post.ts": "export default defineEventHandler(() => 1);\n",
     "apps/nuxt/server/routes/health.ts": "export default defineEventHandler(() => 'ok');\n",
     "other/pages/api/nope.ts": "export default function nope() {}\n",
    }
    _write_tree(root, files)
    report = mine(tmp_path, capsys, str(root))
    routes = {c["name"]: c for c in report["candidates"] if c["kind"] == "http-route"}
    assert set(routes) == {
        "ANY /api/hello", "ANY /api/users", "ANY /api/users/{id}",  # pages/api: every method; _util is no route
        "GET /api/items/{slug}", "POST /api/items/{slug}", "DELETE /cart",  # app/: the verbs exported; (shop) silent
        "PATCH /api/todos/{id}", "ANY /api/todos/{id}",  # SvelteKit's +server, its fallback
        "GET /api/users/{id}", "POST /api/login", "ANY /health",  # Nuxt's server/api and server/routes
    }  # other/ is no app (no framework in a package.json above it); _lib is private
    assert routes["ANY /api/hello"]["description"] == "Say hello."
    assert routes["ANY /api/hello"]["source"] == {"path": "apps/web/pages/api/hello.ts", "line": 2, "end_line": 4,
                                                  "commit": None}


def test_pyramid_routes_join_their_views_by_name_and_cornice_services_route(tmp_path, capsys):
    root = tmp_path / "pyr"
    files = {
     "app/__init__.py": textwrap.dedent('''
        from pyramid.config import Configurator
        from .views import health
    
    
        def main(global_config, **settings):
            config = Configurator(settings=settings)
            config.add_route("home", "/")
            config.add_route("user", "/users/{id}")
            config.add_route("users", "users")
            config.add_route("upload", "/upload", request_method="POST")
            config.add_route("health", "/health")
            config.add_view(health, route_name="health", request_method="GET")
            config.scan()
            return config.make_wsgi_app()
        '''),
     "app/views.py": textwrap.dedent('''
        from pyramid.view import view_config, view_defaults
    
    
        @view_config(route_name="home", renderer="json")
        def home(request):
            """The home page."""
            return {}
    
    
        @view_defaults(route_name="user", renderer="json")
        class UserViews:
            def __init__(self, request):
                self.request = request
    
            @view_config(request_method="GET")
            def get(self):
                """One user."""
                return {}
    
            @view_config(request_method=("PUT", "PATCH"))
            def update(self):
                return {}
    
    
        @view_config(route_name="users", request_method="GET")
        def list_users(request):
            return []
    
    
        @view_config(route_name="nowhere")
        def orphan(request):
            return {}
    
    
        def health(request):
            return "ok"
        '''),
     "api/services.py": textwrap.dedent('''
        from cornice import Service
    
        values = Service(name="values", path="/values/{key}", description="Stored values")
    
    
        @values.get()
        def get_value(request):
            """Read a value."""
            return {}
    
    
        @values.put()
        def set_value(request):
            return {}
        '''),
    }
    _write_tree(root, files)
    report = mine(tmp_path, capsys, str(root))
    routes = {c["name"]: c for c in report["candidates"] if c["kind"] == "http-route"}
    assert set(routes) == {
        "ANY /",  # a view naming no request method answers every one
        "GET /users/{id}", "PUT /users/{id}", "PATCH /users/{id}",  # a class's @view_defaults and its methods
        "GET /users",  # the pattern's missing slash is Pyramid's to add
        "POST /upload",  # no view in the tree: the route's own request_method
        "GET /health",  # config.add_view
        "GET /values/{key}", "PUT /values/{key}",  # cornice
    }  # the view of a route added nowhere gives nothing
    assert routes["GET /users/{id}"]["symbol"].endswith("UserViews.get")
    assert routes["GET /users/{id}"]["description"] == "One user."
    assert routes["GET /users/{id}"]["source"]["path"] == "app/__init__.py"  # where the route is added
    assert routes["GET /values/{key}"]["description"] == "Read a value."


def test_every_language_is_analysed_and_declares_what_it_declares(tmp_path, capsys):
    """One public function per supported language: each file is analysed, none skipped as failed."""
    root = tmp_path / "polyglot"
    _write_tree(root, {
        "a.py": "def py_fn():\n    pass\n", "b.js": "export function jsFn() {}\n", "c.ts": "export function tsFn() {}\n",
        "d.tsx": "export function TsxFn() { return null; }\n", "e.go": "package e\n\nfunc GoFn() {}\n",
        "f.rs": "pub fn rs_fn() {}\n", "G.java": "public class G {\n  public void javaFn() {}\n}\n",
        "h.kt": "fun ktFn() {}\n", "I.cs": "public class I {\n  public void CsFn() {}\n}\n",
        "j.rb": "def rb_fn\nend\n", "k.php": "<?php\nfunction php_fn() {}\n", "l.swift": "public func swiftFn() {}\n",
    })
    report = mine(tmp_path, capsys, str(root))
    assert report["coverage"]["skipped"] == [] and report["coverage"]["files_parsed"] == 12
    names = {c["name"].rsplit(".", 1)[-1] for c in report["candidates"]}
    assert {"py_fn", "jsFn", "tsFn", "TsxFn", "GoFn", "rs_fn", "javaFn", "ktFn", "CsFn", "rb_fn", "php_fn",
            "swiftFn"} <= names


def test_spring_and_jax_rs_controllers_serve_their_annotated_methods(tmp_path, capsys):
    root = tmp_path / "jvm"
    _write_tree(root, {
        "src/main/java/app/UserController.java": (
            "package app;\nimport org.springframework.web.bind.annotation.*;\n\n@RestController\n"
            "@RequestMapping(\"/api/users\")\npublic class UserController {\n"
            "    private static final String BY_ID = \"/{id:\\\\d+}\";\n"
            "    /** One user.\n     * @param id its id\n     */\n    @GetMapping(BY_ID)\n"
            "    public User get(@PathVariable Long id) { return null; }\n\n"
            "    @PostMapping\n    public User create(@RequestBody User u) { return u; }\n\n"
            "    @RequestMapping(value = {\"/search\", \"/find\"}, method = {RequestMethod.GET, RequestMethod.POST})\n"
            "    public Object search() { return null; }\n\n"
            "    @DeleteMapping(path = BY_ID + \"/avatar\")\n    public void dropAvatar() {}\n\n"
            "    @RequestMapping(\"/any\")\n    public void any() {}\n\n    public void helper() {}\n}\n"),
        "src/main/kotlin/app/Items.kt": (
            "package app\nimport org.springframework.web.bind.annotation.*\n\nconst val ITEMS = \"/items\"\n\n"
            "@RestController\n@RequestMapping(\"/api\")\nclass ItemController {\n"
            "    @GetMapping(ITEMS + \"/{id}\")\n    fun get(@PathVariable id: Long): String = \"x\"\n\n"
            "    @RequestMapping(value = [\"/items\"], method = [RequestMethod.PUT])\n    fun put() {}\n}\n"),
        "src/main/java/app/Orders.java": (
            "package app;\nimport jakarta.ws.rs.*;\n\n@Path(\"/orders\")\npublic class Orders {\n"
            "    @GET\n    public String list() { return \"\"; }\n\n"
            "    @POST\n    @Path(\"/{id}/cancel\")\n    public void cancel() {}\n\n"
            "    @Path(\"/{id}/lines\")\n    public Lines lines() { return null; }\n}\n"),  # a sub-resource locator
        "src/main/java/app/Plain.java": "package app;\npublic class Plain {\n  @GetMapping(\"/x\") void x() {}\n}\n",
    })
    report = mine(tmp_path, capsys, str(root))
    routes = {c["name"]: c for c in report["candidates"] if c["kind"] == "http-route"}
    assert set(routes) == {
        "GET /api/users/{id}", "POST /api/users", "GET /api/users/search", "POST /api/users/search",
        "GET /api/users/find", "POST /api/users/find", "DELETE /api/users/{id}/avatar", "ANY /api/users/any",
        "GET /api/items/{id}", "PUT /api/items",  # Kotlin
        "GET /orders", "POST /orders/{id}/cancel",  # JAX-RS
    }  # Plain.java imports no Spring: its annotation is no route
    assert routes["GET /api/users/{id}"]["description"] == "One user."
    assert routes["GET /api/users/{id}"]["symbol"].endswith("UserController.get")
    assert routes["POST /api/users"]["source"]["line"] == 14


def test_cargo_binaries_and_go_main_packages_are_declared_commands(tmp_path, capsys):
    root = tmp_path / "bins"
    files = {
     "Cargo.toml": '[package]\nname = "ripper"\nversion = "0.1.0"\n\n[[bin]]\nname = "rip-admin"\npath = "tools/admin.rs"\n',
     "src/main.rs": "fn main() {}\n", "src/bin/rip-stats.rs": "fn main() {}\n", "tools/admin.rs": "fn main() {}\n",
     "build.rs": "fn main() {}\n",
     "go.mod": "module github.com/acme/gotool\n\ngo 1.22\n",
     "main.go": "package main\n\nfunc main() {}\n",
     "cmd/gotool-server/main.go": "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(1) }\n",
     "cmd/notmain/lib.go": "package notmain\n\nfunc main() {}\n",
     "internal/x.go": "package x\n\nfunc Helper() {}\n",
    }
    _write_tree(root, files)
    report = mine(tmp_path, capsys, str(root))
    commands = {c["name"]: c for c in report["candidates"] if c["kind"] == "cli-command"}
    # [[bin]], src/main.rs (the package's name), src/bin/*.rs; cmd/<name>/ and the module root's main
    assert set(commands) == {"rip-admin", "ripper", "rip-stats", "gotool-server", "gotool"}
    assert commands["ripper"]["evidence"][0]["detail"] == "Cargo.toml declares the command ripper -> src/main.rs"
    assert commands["gotool-server"]["source"] == {"path": "cmd/gotool-server/main.go", "line": 5, "end_line": 5,
                                                   "commit": None}
    assert any(h["kind"] == "install-script" and h["path"] == "build.rs" for h in report["hazards"])  # runs at build


def test_dependency_and_example_evidence(tmp_path, capsys):
    root = tmp_path / "deps"
    _write_tree(root, {
        "package.json": '{\n  "name": "svc",\n  "main": "index.js",\n  "dependencies": {\n    "express": "^4.19.2"\n  }\n}\n',
        "index.js": ("const express = require('express');\nconst app = express();\n"
                     "app.get('/ping', (req, res) => res.send('pong'));\nfunction greet(name) { return name; }\n"
                     "module.exports = { app, greet };\n"),
        "examples/hello.js": "const { greet } = require('..');\nconsole.log(greet('x'));\n",
        "tests/greet.test.js": "// nothing about the function here\n",
        "pyproject.toml": '[project]\nname = "tool"\ndependencies = [\n  "Click>=8",\n]\n',
        "tool/__init__.py": "", "tool/cli.py": "import click\n\n\n@click.command()\ndef main():\n    pass\n",
    })
    report = mine(tmp_path, capsys, str(root))
    by_name = {c["name"]: c for c in report["candidates"]}
    assert {"kind": "dependency", "detail": "package.json depends on express", "path": "package.json",
            "line": 5} in by_name["GET /ping"]["evidence"]
    assert by_name["GET /ping"]["confidence"] == 0.85  # two independent sources: the code and the manifest
    # PyPI names compare normalised: Click is click
    assert any(e["kind"] == "dependency" and e["detail"] == "pyproject.toml depends on click" and e["line"] == 4
               for c in report["candidates"] if c["kind"] == "cli-command" for e in c["evidence"])
    mentions = [e for e in by_name["greet"]["evidence"] if e["kind"] in ("example", "test")]
    assert mentions == [{"kind": "example", "detail": "examples/hello.js mentions greet", "path": "examples/hello.js",
                         "line": 1}]


def test_effects_carry_their_call_site_and_confidence_on_symbols_and_routes(tmp_path, capsys):
    root = tmp_path / "fx"
    _write_tree(root, {"web.py": ("import subprocess\nfrom flask import Flask\n\napp = Flask(__name__)\n\n\n"
                                  "@app.route('/run', methods=['POST'])\ndef run():\n"
                                  "    subprocess.run(['ls'])\n    return ''\n")})
    report = mine(tmp_path, capsys, str(root))
    by = {(c["kind"], c["name"]): c for c in report["candidates"]}
    for key in (("http-route", "POST /run"), ("function", "run")):
        effects = [e for e in by[key]["evidence"] if e["kind"] == "effect"]
        assert [(e["detail"], e["path"], e["line"]) for e in effects] == [
            ("subprocess.run -> process.spawn", "web.py", 9)], key
        assert 0 < effects[0]["confidence"] <= 1
        assert "process.spawn" in by[key]["effects"]


def test_a_parse_past_its_time_is_recorded_as_a_timeout_and_mining_goes_on(tmp_path, monkeypatch):
    from miners import parsing
    from miners.mine import mine_tree
    from miners.sources import open_directory

    slow = b"var a = " + b"[\n" * 20_000 + b"]\n" * 20_000 + b";\n"  # (short lines: no minified file)
    with pytest.raises(parsing.ParseTimeout, match=r"parse timeout \(over 0 s\)"):
        parsing.parse("javascript", slow, seconds=0.0)
    assert parsing.parse("javascript", b"var x = 1;\n").root_node.child_count == 1  # the parser starts afresh

    (tmp_path / "slow.js").write_bytes(slow)
    (tmp_path / "ok.py").write_text("def fine():\n    pass\n")
    monkeypatch.setattr(parsing, "PARSE_SECONDS", 0.0)  # every parse that reports progress runs out of time
    report = mine_tree(open_directory(str(tmp_path)), workers=1)
    skipped = {s["path"]: s["reason"] for s in report["coverage"]["skipped"]}
    assert skipped["slow.js"] == "parse timeout (over 0 s)"
    assert report["coverage"]["complete"] is False


def test_a_json_server_router_serves_a_resource_per_key_of_its_database(tmp_path, capsys):
    """jsonplaceholder: `jsonServer.router(clone(data))` of `const data = require('../data.json')`,
    mounted under /api: a list is a collection (`/posts`, `/posts/:id`), an object a singular
    resource, and a list whose items hold `postId` is nested under posts. A router whose database
    the package does not ship serves nothing known."""
    db = '{"posts": [{"id": 1}], "comments": [{"id": 1, "postId": 1}], "profile": {"name": "x"}, "n": 3}'
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "jp", "version": "1.0.0", "main": "src/app.js", "dependencies": {"json-server": "0.8"}}',
        "data.json": db,
        "src/app.js": ("const jsonServer = require('json-server')\nconst clone = require('clone')\n"
                       "const data = require('../data.json')\nconst app = jsonServer.create()\n"
                       "const router = jsonServer.router(clone(data))\nconst other = jsonServer.router('missing.json')\n"
                       "app.use('/api', router)\napp.use(other)\nmodule.exports = app\n"),
    })
    assert sorted(routes) == [
        "DELETE /api/comments/:id", "DELETE /api/posts/:id", "GET /api/comments", "GET /api/comments/:id",
        "GET /api/posts", "GET /api/posts/:id", "GET /api/posts/:id/comments", "GET /api/profile",
        "PATCH /api/comments/:id", "PATCH /api/posts/:id", "PATCH /api/profile", "POST /api/comments",
        "POST /api/posts", "POST /api/posts/:id/comments", "PUT /api/comments/:id", "PUT /api/posts/:id",
        "PUT /api/profile"]
    assert routes["GET /api/posts"]["source"] == {**routes["GET /api/posts"]["source"], "path": "src/app.js", "line": 5}


def test_a_table_of_flask_restful_resources_a_loop_registers(tmp_path, capsys):
    """brapi-proxy: `"resources": [(CoreStudies, "/studies"), (CoreStudiesId, "/studies/<id>")]` in a
    module that imports flask-restx, registered by `ns.add_resource(resource[0], resource[1])` in a
    loop elsewhere: each entry is its class's routes. Without such a loop a table of pairs is data."""
    files = {
        "pyproject.toml": '[project]\nname = "bp"\nversion = "1.0"\ndependencies = ["flask-restx"]\n',
        "bp/__init__.py": "",
        "bp/core/__init__.py": (
            "from flask_restx import Namespace\n\nns = Namespace('core', path='/')\n\n"
            "from .studies import CoreStudies, CoreStudiesId\n\n"
            "calls = {\n    'studies': {\n        'resources': [(CoreStudies, '/studies'),\n"
            "                      (CoreStudiesId, '/studies/<studyDbId>')],\n    },\n}\n"),
        "bp/core/studies.py": (
            "from flask_restx import Resource\n\n\nclass CoreStudies(Resource):\n    def get(self):\n        return []\n\n"
            "    def post(self):\n        return {}\n\n\nclass CoreStudiesId(Resource):\n"
            "    def get(self, studyDbId):\n        return {}\n"),
        "bp/app.py": (
            "from bp.core import calls, ns\n\n\ndef register(api):\n    for call in calls.values():\n"
            "        for resource in call['resources']:\n            ns.add_resource(resource[0], resource[1])\n"),
    }
    routes = mined_routes(tmp_path / "looped", capsys, files)
    assert sorted(routes) == ["GET /studies", "GET /studies/<studyDbId>", "POST /studies"]
    assert routes["GET /studies/<studyDbId>"]["symbol"].endswith("CoreStudiesId.get")
    data_only = {**files, "bp/app.py": "from bp.core import calls\n\n\ndef names():\n    return list(calls)\n"}
    assert mined_routes(tmp_path / "data", capsys, data_only) == {}


def test_a_blueprint_made_in_a_package_and_routed_in_its_module_is_served_under_its_mount(tmp_path, capsys):
    """gisflask: `auth_bp = Blueprint('auth', __name__)` in app/auth/__init__.py, its routes in
    app/auth/routes.py (`from app.auth import auth_bp`), and `app.register_blueprint(auth_bp,
    url_prefix='/auth')` in the factory. verlihub: `api_router = APIRouter(prefix="/api/v1")`
    includes the others under its own prefix too."""
    routes = mined_routes(tmp_path, capsys, {
        "pyproject.toml": '[project]\nname = "gis"\nversion = "1.0"\ndependencies = ["flask", "fastapi"]\n',
        "app/__init__.py": ("from flask import Flask\n\n\ndef create_app():\n    app = Flask(__name__)\n"
                            "    from app.auth import auth_bp\n    app.register_blueprint(auth_bp, url_prefix='/auth')\n"
                            "    return app\n"),
        "app/auth/__init__.py": "from flask import Blueprint\n\nauth_bp = Blueprint('auth', __name__)\n\nfrom app.auth import routes\n",
        "app/auth/routes.py": ("from app.auth import auth_bp\n\n\n@auth_bp.route('/login', methods=['POST'])\n"
                               "def login():\n    return {}\n"),
        "api/__init__.py": ("from fastapi import APIRouter\n\nfrom api import users\n\n"
                            "api_router = APIRouter(prefix='/api/v1')\napi_router.include_router(users.router, prefix='/users')\n"),
        "api/users.py": ("from fastapi import APIRouter\n\nrouter = APIRouter()\n\n\n@router.get('/online')\n"
                         "def online():\n    return []\n"),
        "api/main.py": "from fastapi import FastAPI\n\nfrom api import api_router\n\napp = FastAPI()\napp.include_router(api_router)\n",
    })
    served = sorted(name for name, route in routes.items() if route["visibility"] == "public")
    assert served == ["GET /api/v1/users/online", "POST /auth/login"]  # (FastAPI's own /docs pages: internal)


def test_flask_add_url_rule_with_the_rule_by_name_under_another_modules_version(tmp_path, capsys):
    """octavia's amphora agent: `self.app.add_url_rule(rule=PATH_PREFIX + '/config', view_func=...,
    methods=['PUT'])` with `PATH_PREFIX = '/' + api_server.VERSION` and VERSION in the package."""
    routes = mined_routes(tmp_path, capsys, {
        "pyproject.toml": '[project]\nname = "agent"\nversion = "1.0"\ndependencies = ["flask"]\n',
        "agent/__init__.py": "",
        "agent/api_server/__init__.py": "VERSION = '1.0'\n",
        "agent/api_server/server.py": (
            "import flask\n\nfrom agent import api_server\n\nPATH_PREFIX = '/' + api_server.VERSION\n\n\n"
            "class Server:\n    def __init__(self):\n        self.app = flask.Flask(__name__)\n"
            "        self.app.add_url_rule(rule=PATH_PREFIX + '/config', view_func=self.config, methods=['PUT'])\n\n"
            "    def config(self):\n        return ''\n"),
    })
    assert sorted(routes) == ["PUT /1.0/config"]


def test_a_route_table_by_path_and_method_that_its_module_registers(tmp_path, capsys):
    """openstack-placement: `ROUTE_DECLARATIONS = {'/traits': {'GET': trait.list_traits}, ...}`,
    registered by the module's own loop (`mapper.connect(route, action=targets[method], ...)`).
    A version history in the docs is history, not the list of what is served: it hides no route."""
    handler = (
        "import routes\n\nfrom svc import trait\n\nROUTE_DECLARATIONS = {\n    '/': {'GET': trait.home},\n"
        "    '': {'GET': trait.home},\n    '/traits': {'GET': trait.list_traits},\n"
        "    '/traits/{name}': {'GET': trait.get_trait, 'PUT': trait.put_trait},\n}\n"
        "NOT_ROUTES = {'/etc/x': {'mode': 1}, '/etc/y': {'mode': 2}}\n\n\n"
        "def make_map(declarations):\n    mapper = routes.Mapper()\n"
        "    for route, targets in declarations.items():\n        for method in targets:\n"
        "            mapper.connect(route, action=targets[method], conditions=dict(method=[method]))\n"
        "    return mapper\n")
    routes = mined_routes(tmp_path, capsys, {
        "pyproject.toml": '[project]\nname = "svc"\nversion = "1.0"\n',
        "svc/__init__.py": "", "svc/trait.py": "def home(req):\n    return ''\n",
        "svc/handler.py": handler,
        "svc/rest_api_version_history.rst": ("1.6\n---\n\n- ``GET /traits``\n- ``PUT /traits/{name}``\n"
                                             "- ``DELETE /traits/{name}``\n"),
    })
    assert sorted(routes) == ["GET /", "GET /traits", "GET /traits/{name}", "PUT /traits/{name}"]
    assert all(route["visibility"] == "public" for route in routes.values())
    assert routes["GET /traits"]["symbol"] == "trait.list_traits"


def test_a_tornado_route_table_a_module_returns_for_its_server_to_load(tmp_path, capsys):
    from conftest import mined_routes

    handlers = textwrap.dedent('''
        import tornado.web

        from ..base_handler import APIBase


        def setup(handler_cfg):
            """Routes, for the server that imports this module by name."""
            return {
                'routes': [
                    (r'/datasets', MultiDatasetHandler, handler_cfg),
                    (r'/datasets/(?P<dataset_id>\\w+)', DatasetHandler, handler_cfg),
                ],
                'database': 'datasets',
            }


        class MultiDatasetHandler(APIBase):
            async def get(self):
                pass

            async def post(self):
                pass


        class DatasetHandler(APIBase):
            async def get(self, dataset_id):
                pass
    ''')
    settings = "OPTIONS = {'handlers': ['not', 'routes']}\n"  # a list under such a key, not of routes
    routes = mined_routes(tmp_path, capsys, {"svc/__init__.py": "", "svc/rest/__init__.py": "",
                                             "svc/rest/base_handler.py": "import tornado.web\n\n\n"
                                             "class APIBase(tornado.web.RequestHandler):\n    pass\n",
                                             "svc/rest/handlers/__init__.py": "",
                                             "svc/rest/handlers/datasets.py": handlers,
                                             "svc/rest/settings.py": "import tornado\n" + settings})
    assert sorted(routes) == ["GET /datasets", "GET /datasets/{dataset_id}", "POST /datasets"]
    route = routes["GET /datasets/{dataset_id}"]
    assert route["evidence"][0]["detail"] == "tornado route table a module returns: GET /datasets/{dataset_id}"
    assert route["confidence"] == 0.7


def test_a_jupyter_server_extensions_handlers_extended_with_f_string_paths(tmp_path, capsys):
    from conftest import mined_routes

    app = textwrap.dedent('''
        from jupyter_server.extension.application import ExtensionApp

        from ext.handlers import MetadataHandler, SchemaHandler


        class ExtApp(ExtensionApp):
            name = "ext"

            def initialize_handlers(self):
                space = r"(?P<schemaspace>[\\w\\.\\-]+)"
                self.handlers.extend([
                    (f"/{self.name}/metadata/{space}", MetadataHandler),
                    (f"/{self.name}/schema", SchemaHandler),
                ])
                self.handlers.append((r"/?", SchemaHandler))
    ''')
    handlers = textwrap.dedent('''
        from jupyter_server.base.handlers import APIHandler


        class MetadataHandler(APIHandler):
            async def get(self, schemaspace):
                pass

            async def post(self, schemaspace):
                pass


        class SchemaHandler(APIHandler):
            async def get(self):
                pass
    ''')
    routes = mined_routes(tmp_path, capsys, {"ext/__init__.py": "", "ext/app.py": app, "ext/handlers.py": handlers})
    assert sorted(routes) == ["GET /", "GET /ext/metadata/{schemaspace}", "GET /ext/schema",
                              "POST /ext/metadata/{schemaspace}"]


def test_jupyter_server_extension_handlers_under_the_base_url(tmp_path, capsys):
    """jupyterlab-cli: an ExtensionApp's `self.handlers.extend([("jupyterlab-cli/healthz", H)])`,
    relative, is served under the server's base URL, `/` by default; jupyter-openbis-server's
    `web_app.add_handlers(host, [(url_path_join(base_url, "/openbis/conns"), H)])` too. The file
    imports nothing of Tornado's, only jupyter_server."""
    handlers = ("from jupyter_server.base.handlers import APIHandler\n\n\nclass Health(APIHandler):\n"
                "    def get(self):\n        pass\n\n\nclass Conns(APIHandler):\n    def get(self):\n        pass\n\n"
                "    def post(self):\n        pass\n")
    routes = mined_routes(tmp_path, capsys, {
        "jx/__init__.py": "", "jx/handlers.py": handlers,
        "jx/app.py": ("from jupyter_server.extension.application import ExtensionApp\n\nfrom jx.handlers import Health\n\n\n"
                      "class App(ExtensionApp):\n    def initialize_handlers(self):\n"
                      "        self.handlers.extend([(\"jx/healthz\", Health)])\n"),
        "jx/server.py": ("from jupyter_server.utils import url_path_join\n\nfrom jx.handlers import Conns\n\n\n"
                         "def _load_jupyter_server_extension(server_app):\n    web_app = server_app.web_app\n"
                         "    base_url = web_app.settings['base_url']\n"
                         "    web_app.add_handlers('.*$', [(url_path_join(base_url, '/openbis/conns'), Conns)])\n"
                         "    web_app.add_handlers('.*$', [(url_path_join(other, '/not/known'), Conns)])\n"),
    })
    assert sorted(routes) == ["GET /jx/healthz", "GET /openbis/conns", "POST /openbis/conns"], sorted(routes)


def test_a_packages_own_router_that_takes_the_method_first(tmp_path, capsys):
    """fauxbus: `server.add_route("POST", TOKEN_PATH, token)` and `add = server.add_route` then
    `add("POST", "/_fauxbus/transfer/tasks/([^/]+)", f)` (a regex); localqpu: `routes = [("GET",
    "/_localqpu/health", get_health), ...]` looped into `router.add(method, pattern, h)`. A call
    whose first argument is no HTTP verb, or whose path is no path, is none."""
    routes = mined_routes(tmp_path, capsys, {
        "svc/__init__.py": "",
        "svc/auth.py": ("TOKEN_PATH = '/v2/oauth2/token'\n\n\ndef install(server):\n"
                        "    server.add_route('POST', TOKEN_PATH, token, auth=False)\n"
                        "    add = server.add_route\n    add('POST', '/_fauxbus/transfer/tasks/([^/]+)', finish)\n"
                        "    server.add_route('FETCH', '/not/a/verb', other)\n"
                        "    registry.register('GET', 'not a path', other)\n"),
        "svc/control.py": ("def register_control_routes(router, context):\n    routes = [\n"
                           "        ('GET', '/_localqpu/health', get_health),\n        ('PUT', '/_localqpu/scenario', put),\n"
                           "    ]\n    for method, pattern, handler in routes:\n"
                           "        router.add(method, pattern, partial(handler, context))\n"),
    })
    assert sorted(routes) == ["GET /_localqpu/health", "POST /_fauxbus/transfer/tasks/{arg1}", "POST /v2/oauth2/token",
                              "PUT /_localqpu/scenario"], sorted(routes)
    assert routes["GET /_localqpu/health"]["source"]["line"] == 3


def test_a_route_prefix_set_on_an_imported_settings_module_at_module_level(tmp_path, capsys):
    """clam: `import clam.config.defaults as settings`, then `settings.INTERNALURLPREFIX = ''` at
    module level, and `add_url_rule(settings.INTERNALURLPREFIX + '/porch', ...)` in the service."""
    routes = mined_routes(tmp_path, capsys, {
        "svc/__init__.py": "", "svc/defaults.py": "PORT = 80\n",
        "svc/service.py": ("import flask\nimport svc.defaults as settings\nsettings.INTERNALURLPREFIX = ''\n\n\n"
                           "class Service:\n    def __init__(self):\n        self.service = flask.Flask('svc')\n"
                           "        self.service.add_url_rule(settings.INTERNALURLPREFIX + '/porch', 'porch', porch,"
                           " methods=['GET'])\n"),
    })
    assert sorted(routes) == ["GET /porch"], sorted(routes)


def test_an_api_made_over_a_blueprint_serves_its_resources_where_the_blueprint_is_registered(tmp_path, capsys):
    """waiverdb: `api_v1 = (Blueprint('api_v1', __name__))`, `api = Api(api_v1)`, and the app
    registers api_v1 at /api/v1.0 in another module."""
    routes = mined_routes(tmp_path, capsys, {
        "wdb/__init__.py": "",
        "wdb/api_v1.py": (
            "from flask import Blueprint\nfrom flask_restful import Api, Resource\n\n"
            "api_v1 = (Blueprint('api_v1', __name__))\napi = Api(api_v1)\n\n\n"
            "class Waivers(Resource):\n    def get(self):\n        return []\n\n    def post(self):\n        return {}\n\n\n"
            "class About(Resource):\n    def get(self):\n        return {}\n\n\n"
            "api.add_resource(Waivers, '/waivers/')\napi.add_resource(About, '/about', strict_slashes=False)\n"),
        "wdb/app.py": (
            "from flask import Flask\nfrom wdb.api_v1 import api_v1\n\n\ndef create_app():\n"
            "    app = Flask(__name__)\n    app.register_blueprint(api_v1, url_prefix='/api/v1.0')\n    return app\n"),
    })
    assert sorted(routes) == ["GET /api/v1.0/about", "GET /api/v1.0/waivers/", "POST /api/v1.0/waivers/"], sorted(routes)


def test_a_packages_own_route_decorator_takes_its_methods_by_place(tmp_path, capsys):
    """roundup: `@Routing.route("/data/<:class_name>", 'POST')`, its own router's (rule, methods)."""
    routes = mined_routes(tmp_path, capsys, {"tracker/rest.py": (
        "from tracker.routing import Routing\n\n\nclass Rest:\n"
        "    @Routing.route('/data/<:class_name>', 'POST')\n    def post_collection(self, class_name):\n        pass\n\n"
        "    @Routing.route('/data/<:class_name>/<:item_id>', ('PUT', 'PATCH'))\n    def put_element(self, class_name, item_id):\n        pass\n\n"
        "    @Routing.route('/summary')\n    def summary(self):\n        pass\n\n"
        "    @Routing.route('/named', 'summary')\n    def named(self):\n        pass\n")})
    assert sorted(routes) == ["GET /named", "GET /summary", "PATCH /data/<:class_name>/<:item_id>",
                              "POST /data/<:class_name>", "PUT /data/<:class_name>/<:item_id>"], sorted(routes)


def test_an_express_path_of_alternatives_is_each_path_and_a_regex_count_is_no_optional_part(tmp_path, capsys):
    """json-server-auth: `.post('/users|register|signup', ...)` serves each (Express's path is a
    regex); `'/[640]{3}/users'` repeats a class three times, it has no optional part."""
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "auth", "version": "1.0.0", "main": "users.js"}',
        "users.js": ("const express = require('express');\n"
                     "module.exports = express.Router()\n"
                     "  .post('/users|register|signup', (req, res) => res.end())\n"
                     "  .post('/login|signin', (req, res) => res.end())\n"
                     "  .post('/[640]{3}/users', (req, res) => res.end())\n"
                     "  .get('/a|b(c)', (req, res) => res.end())\n"
                     "  .get('/items{/:id}', (req, res) => res.end());\n"),
    })
    assert sorted(routes) == ["GET /a|b(c)", "GET /items", "GET /items/:id", "POST /[640]{3}/users", "POST /login",
                              "POST /register", "POST /signin", "POST /signup", "POST /users"], sorted(routes)


def test_a_function_that_mounts_its_router_at_its_path_mounts_each_call_at_each_form(tmp_path, capsys):
    """terriajs-server: `function endpoint(path, router) { app.use("/api/v1" + path, router);
    app.use(path, router); }`, called with a literal path and a required router or router factory."""
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "ts", "version": "1.0.0", "main": "lib/makeserver.js"}',
        "lib/makeserver.js": (
            "var express = require('express');\n"
            "module.exports = function (options) {\n"
            "  function endpoint(path, router) {\n"
            "    app.use('/api/v1' + path, router);\n"
            "    app.use(path, router);\n"
            "  }\n"
            "  var app = express();\n"
            "  endpoint('/serverconfig', require('./controllers/serverconfig')(options));\n"
            "  endpoint('/share', require('./controllers/share'));\n"
            "  endpoint(options.dynamic, require('./controllers/share'));\n"
            "  return app;\n};\n"),
        "lib/controllers/serverconfig.js": (
            "var express = require('express');\nmodule.exports = function (options) {\n"
            "  var router = express.Router();\n  router.get('/', function (req, res) { res.json({}); });\n"
            "  return router;\n};\n"),
        "lib/controllers/share.js": (
            "var express = require('express');\nvar router = express.Router();\n"
            "router.post('/', function (req, res) { res.end(); });\n"
            "router.get('/:id', function (req, res) { res.end(); });\nmodule.exports = router;\n"),
    })
    assert sorted(routes) == ["GET /api/v1/serverconfig", "GET /api/v1/share/:id", "GET /serverconfig",
                              "GET /share/:id", "POST /api/v1/share", "POST /share"], sorted(routes)


def test_a_template_path_of_a_name_bound_to_a_choice_of_two_literals_is_each_path(tmp_path, capsys):
    """stremio-addon-sdk: `const configPrefix = hasConfig ? '/:config?' : ''` then
    router.get(`${configPrefix}/manifest.json`, h); a choice that is not literal gives no path."""
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "sdk", "version": "1.0.0", "main": "router.js"}',
        "router.js": ("const Router = require('express').Router;\n"
                      "function getRouter(manifest) {\n  const router = new Router();\n"
                      "  const hasConfig = (manifest.config || []).length;\n"
                      "  const configPrefix = hasConfig ? '/:config?' : '';\n"
                      "  const other = hasConfig ? manifest.prefix : '/x';\n"
                      "  router.get(`${configPrefix}/manifest.json`, (req, res) => res.end());\n"
                      "  router.get(`${other}/configure`, (req, res) => res.end());\n"
                      "  return router;\n}\nmodule.exports = getRouter;\n"),
    })
    assert sorted(routes) == ["GET /:config?/manifest.json", "GET /manifest.json"], sorted(routes)


def test_tornado_handler_lists_of_other_modules_under_a_prefix_a_function_joins(tmp_path, capsys):
    """jupyterhub: each API module's `default_handlers`, gathered by its package's loop, extended
    into the app's list, which `add_url_prefix(self.hub_prefix, h)` puts under the trait's default."""
    handler = "from tornado import web\n\n\nclass {0}(web.RequestHandler):\n    def get(self):\n        pass\n\n"
    routes = mined_routes(tmp_path, capsys, {
        "hub/__init__.py": "",
        "hub/apihandlers/__init__.py": (
            "from . import users, groups\n\ndefault_handlers = []\nfor mod in (users, groups):\n"
            "    default_handlers.extend(mod.default_handlers)\n"),
        "hub/apihandlers/users.py": handler.format("UserList") + "default_handlers = [(r'/api/users', UserList)]\n",
        "hub/apihandlers/groups.py": handler.format("GroupList") + "default_handlers = [(r'/api/groups', GroupList)]\n",
        "hub/pages.py": handler.format("Home") + "default_handlers = [(r'/home', Home)]\n",
        "hub/other.py": handler.format("Lone") + "default_handlers = [(r'/lone', Lone)]\n",
        "hub/app.py": (
            "from tornado import web\nfrom traitlets import Unicode\nfrom . import apihandlers, pages\n"
            "from .utils import url_path_join\n\n\nclass Hub:\n    hub_prefix = Unicode('/hub/', help='prefix')\n\n"
            "    @staticmethod\n    def add_url_prefix(prefix, handlers):\n"
            "        for i, tup in enumerate(handlers):\n            lis = list(tup)\n"
            "            lis[0] = url_path_join(prefix, tup[0])\n            handlers[i] = tuple(lis)\n"
            "        return handlers\n\n"
            "    def init_handlers(self):\n        h = []\n        h.extend(pages.default_handlers)\n"
            "        h.extend(apihandlers.default_handlers)\n"
            "        self.handlers = self.add_url_prefix(self.hub_prefix, h)\n"),
    })
    assert sorted(routes) == ["GET /hub/api/groups", "GET /hub/api/users", "GET /hub/home", "GET /lone"], sorted(routes)


def test_winterspec_routes_are_its_routes_directorys_files_beside_a_next_site(tmp_path, capsys):
    """@tscircuit/file-server: `winterspec.config.ts` names `./routes`; `routes/files/upsert.ts`
    exports `withRouteSpec({ methods: ["POST"] })(...)`; the package also depends on next."""
    spec = "import {{ withRouteSpec }} from 'lib/spec'\nexport default withRouteSpec({{ {0} }})(async () => null)\n"
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "fs", "version": "1.0.0", "dependencies": {"winterspec": "0.0.86", "next": "14"}}',
        "winterspec.config.ts": 'import { defineConfig } from "winterspec"\nexport default defineConfig({ routesDirectory: "./api-routes" })\n',
        "api-routes/files/upsert.ts": spec.format('methods: ["POST"]'),
        "api-routes/files/get.ts": spec.format("methods: ['GET', 'HEAD']"),
        "api-routes/index.ts": spec.format("auth: 'none'"),  # no methods listed: every one
        "api-routes/files/static/[[...file_path]].ts": spec.format('methods: ["GET"]'),
        "api-routes/_helpers/x.ts": spec.format('methods: ["GET"]'),
        "routes/elsewhere.ts": spec.format('methods: ["GET"]'),  # not the configured directory
        "pages/api/ping.ts": "export default function handler(req, res) { res.end() }\n",
    })
    assert sorted(routes) == ["ANY /", "ANY /api/ping", "GET /files/get", "GET /files/static/{file_path}",
                              "HEAD /files/get", "POST /files/upsert"], sorted(routes)


def test_medusa_api_routes_are_the_route_files_of_its_api_folder(tmp_path, capsys):
    """@alphabite/medusa-wishlist, a Medusa v2 plugin, ships its routes built under
    `.medusa/server/src/api/`: `store/wishlists/[id]/items/route.js` exporting `GET` (CommonJS) is
    `GET /store/wishlists/{id}/items`; an app's `src/api/.../route.ts` the same. A route.js outside
    `api/`, or in a package that depends on no Medusa, is no route."""
    handler = "Object.defineProperty(exports, '__esModule', {{ value: true }});\nexports.{0} = {0};\nasync function {0}(req, res) {{ res.json({{}}) }}\n"
    files = {
        "package.json": '{"name": "wishlist", "version": "1.0.0", "peerDependencies": {"@medusajs/framework": "^2.13.6"}}',
        ".medusa/server/src/api/store/wishlists/[id]/items/route.js": handler.format("GET"),
        ".medusa/server/src/api/admin/wishlists/settings/route.js": handler.format("PUT"),
        ".medusa/server/src/workflows/route.js": handler.format("GET"),
        "src/api/store/ping/route.ts": "export async function POST(req, res) { res.json({}) }\n",
    }
    routes = mined_routes(tmp_path / "plugin", capsys, files)
    assert sorted(routes) == ["GET /store/wishlists/{id}/items", "POST /store/ping", "PUT /admin/wishlists/settings"], \
        sorted(routes)
    assert routes["GET /store/wishlists/{id}/items"]["symbol"].endswith("GET")
    none = {**files, "package.json": '{"name": "wishlist", "version": "1.0.0"}'}
    assert mined_routes(tmp_path / "none", capsys, none) == {}


def test_a_nuxt_modules_scanned_server_folder_and_handlers_it_adds(tmp_path, capsys):
    """@commercejs/nuxt: a module (it depends on @nuxt/kit) that calls
    `addServerScanDir(resolve("./runtime/server"))` serves that folder's `api/` files in the host
    app as a Nuxt app's own `server/api/`; `addServerHandler({ route, method })` serves its one
    route. A declaration file is no route, and without @nuxt/kit nothing is."""
    handler = "export default defineEventHandler(async () => ({}));\n"
    files = {
        "package.json": '{"name": "@x/nuxt", "version": "1.0.0", "main": "dist/module.mjs", '
                        '"dependencies": {"@nuxt/kit": "^3.0.0"}}',
        "dist/module.mjs": (
            "import { defineNuxtModule, createResolver, addServerScanDir, addServerHandler } from '@nuxt/kit';\n"
            "export default defineNuxtModule({ setup(options, nuxt) {\n"
            "  const { resolve } = createResolver(import.meta.url);\n"
            "  if (options.apiRoutes) addServerScanDir(resolve('./runtime/server'));\n"
            "  addServerHandler({ route: '/api/_x/health', method: 'get', handler: resolve('./runtime/health') });\n"
            "} });\n"),
        "dist/runtime/server/api/_x/cart/index.post.js": handler,
        "dist/runtime/server/api/_x/cart/index.post.d.ts": "declare const _default: any;\nexport default _default;\n",
        "dist/runtime/server/api/_x/products/[id].get.js": handler,
        "dist/runtime/server/routes/feed.xml.js": handler,
        "dist/runtime/server/utils/adapter.js": handler,
    }
    routes = mined_routes(tmp_path / "module", capsys, files)
    assert sorted(routes) == ["ANY /feed.xml", "GET /api/_x/health", "GET /api/_x/products/{id}",
                              "POST /api/_x/cart"], sorted(routes)
    plain = {**files, "package.json": '{"name": "@x/nuxt", "version": "1.0.0", "main": "dist/module.mjs"}'}
    assert mined_routes(tmp_path / "plain", capsys, plain) == {}


def test_a_use_of_a_function_that_answers_serves_its_path(tmp_path, capsys):
    """viagen's Vite plugin, `server.middlewares.use("/via/health", (_req, res) => res.end(...))`:
    connect's use() of a function that answers and never calls next() serves that path, for every
    method; a function that passes the request on, and a static folder, serve no route."""
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "viagen", "version": "1.0.0", "main": "index.js", "type": "module"}',
        "index.js": (
            "export default function viagen() {\n  return { name: 'viagen', configureServer(server) {\n"
            "    server.middlewares.use('/via/health', (_req, res) => { res.end('{}'); });\n"
            "    const chat = async (req, res) => { res.statusCode = 200; res.end('x'); };\n"
            "    server.middlewares.use('/via/chat', chat);\n"
            "    server.middlewares.use('/via/log', (req, res, next) => { log(req); next(); });\n"
            "    server.middlewares.use('/via/static', sirv('public'));\n"
            "    server.middlewares.use('/via/none', (req, res) => { count(); });\n"
            "  } };\n}\n"),
    })
    assert sorted(routes) == ["ANY /via/chat", "ANY /via/health"], sorted(routes)


def test_pyramid_routes_under_a_base_a_call_gives_and_names_two_calls_compute_alike(tmp_path, capsys):
    """c2cwsgiutils: `config.add_route("c2c_debug_" + name, config_utils.get_base_path(config) +
    r"/debug/" + path)` in a helper its callers pass literals to: a route per call, under a base set
    at run time (and said so); a base a local name holds the same."""
    routes = mined_routes(tmp_path, capsys, {
        "setup.py": "from setuptools import setup\nsetup(name='c2c', packages=['c2c'])\n",
        "c2c/__init__.py": "",
        "c2c/debug.py": (
            "import pyramid.config\nfrom c2c import config_utils\n\n"
            "def _add_view(config, name, path, view):\n"
            "    config.add_route(\"c2c_debug_\" + name, config_utils.get_base_path(config) + r\"/debug/\" + path,\n"
            "                     request_method=\"GET\")\n"
            "    config.add_view(view, route_name=\"c2c_debug_\" + name, renderer=\"json\")\n\n"
            "def includeme(config):\n"
            "    _add_view(config, \"stacks\", \"stacks\", _stacks)\n"
            "    _add_view(config, \"sleep\", \"sleep\", _sleep)\n"
            "    base_path = config_utils.get_base_path(config)\n"
            "    config.add_route(\"c2c_login\", base_path + \"/login\", request_method=(\"GET\",))\n"
            "    config.add_route(\"unknown\", mystery + \"/x\")\n"
            "    if enabled(config):\n"  # (twitcher: a base bound inside an if)
            "        protected = config_utils.get_base_path(config)\n"
            "        config.add_route(\"proxy\", protected + \"/proxy/{name}\", request_method=\"GET\")\n\n"
            "def _stacks(request):\n    return {}\n\ndef _sleep(request):\n    return {}\n"),
    })
    assert sorted(routes) == ["GET /debug/sleep", "GET /debug/stacks", "GET /login", "GET /proxy/{name}"], \
        sorted(routes)
    base = UNKNOWN_PREFIX.format("config_utils.get_base_path(config)")
    assert base in routes["GET /debug/stacks"]["unknowns"] and base in routes["GET /login"]["unknowns"]


def test_pyramid_routes_a_packages_own_add_route_wrapper_adds(tmp_path, capsys):
    """crabpy_pyramid: `def add_route(config, name, pattern)` calls `config.add_route(name, pattern)`;
    its route modules import only the package (`crabpy_pyramid.add_route(config, "get_gemeente",
    "/capakey/gemeenten/{gemeente_id}")`), the views with `@view_config(route_name=...)` elsewhere.
    A call whose first argument is not the Configurator is no wrapper's."""
    routes = mined_routes(tmp_path, capsys, {
        "setup.py": "from setuptools import setup\nsetup(name='crab', packages=['crab'])\n",
        "crab/__init__.py": ("from pyramid.config import Configurator\n\n\n"
                             "def add_route(config, name, pattern, **kw):\n"
                             "    config.add_route(name, pattern, **kw)\n"),
        "crab/routes.py": ("import crab\n\n\ndef includeme(config):\n"
                           "    crab.add_route(config, 'list_gemeenten', '/capakey/gemeenten')\n"
                           "    crab.add_route(config, 'get_gemeente', '/capakey/gemeenten/{gemeente_id}')\n"
                           "    registry.add_route(request, 'other', '/not/a/route')\n"),
        "crab/views.py": ("from pyramid.view import view_config\n\n\n"
                          "@view_config(route_name='get_gemeente', request_method='GET', renderer='json')\n"
                          "def get_gemeente(request):\n    return {}\n"),
    })
    assert sorted(routes) == ["ANY /capakey/gemeenten", "GET /capakey/gemeenten/{gemeente_id}"], sorted(routes)
    assert routes["GET /capakey/gemeenten/{gemeente_id}"]["symbol"].endswith("get_gemeente")


def test_pyramid_routes_of_an_include_hook_that_imports_nothing_of_pyramids(tmp_path, capsys):
    """atramhasis: routes.py's `def includeme(config): config.add_route("sitemap", "/sitemap_index.xml")`
    imports only os; Pyramid hands the hook its Configurator. Another object's add_route there is not one."""
    routes = mined_routes(tmp_path, capsys, {
        "setup.py": "from setuptools import setup\nsetup(name='atr', packages=['atr'])\n",
        "atr/__init__.py": "",
        "atr/routes.py": ("import os\n\n\ndef includeme(config):\n"
                          "    config.add_route('sitemap', '/sitemap_index.xml')\n"
                          "    registry.add_route('other', '/not/a/route')\n"),
        "atr/views.py": ("from pyramid.view import view_config\n\n\n"
                         "@view_config(route_name='sitemap', request_method='GET')\n"
                         "def sitemap(request):\n    return {}\n"),
    })
    assert sorted(routes) == ["GET /sitemap_index.xml"], sorted(routes)


def test_node_red_nodes_register_routes_on_its_admin_and_node_apps(tmp_path, capsys):
    """A Node-RED node's module gets `RED`: `RED.httpAdmin.get("/x/list", ...)` and
    `RED.httpNode.post(...)` are routes on Node-RED's Express apps; `RED.nodes.registerType` and
    another object's `httpAdmin` are not."""
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "node-red-contrib-x", "version": "1.0.0", "node-red": {"nodes": {"x": "x.js"}}}',
        "x.js": ("module.exports = function (RED) {\n"
                 "  RED.httpAdmin.get('/x/list', RED.auth.needsPermission('x.read'), function (req, res) { res.json([]); });\n"
                 "  RED.httpNode.post('/x/hook', function (req, res) { res.end(); });\n"
                 "  this.RED.httpAdmin.delete('/x/:id', (req, res) => res.end());\n"
                 "  client.httpAdmin.get('/not/red', (req, res) => res.end());\n"
                 "  RED.nodes.registerType('x', function X(config) {});\n};\n"),
    })
    assert sorted(routes) == ["DELETE /x/:id", "GET /x/list", "POST /x/hook"], sorted(routes)


def test_a_strapi_plugins_route_objects_under_its_name(tmp_path, capsys):
    """strapi-plugin-comments: `{method: "GET", path: "/:relation", handler: "client.findAll"}`
    objects; the list a `type: "content-api"` group takes (by name) is served under
    /api/comments, the admin group's (a spread of two lists) under /comments; the name from
    package.json's `strapi` section. The same objects in a package that is no Strapi plugin are
    data: no routes."""
    server = (
        "const clientRoutes = [{ method: 'GET', path: '/:relation', handler: 'client.findAll', config: { policies: [] } },\n"
        "  { method: 'POST', path: '/:relation', handler: 'client.post' }];\n"
        "const moderation = [{ method: 'PUT', path: '/moderate/single/:id/block', handler: 'admin.block' }];\n"
        "const settings = [{ method: 'GET', path: '/settings/config', handler: 'settings.get' }];\n"
        "const notRoutes = [{ method: 'GET', path: '/x', handler: someFunction }];\n"
        "module.exports = { routes: { 'content-api': { type: 'content-api', routes: clientRoutes },\n"
        "  admin: { type: 'admin', routes: [...moderation, ...settings] } } };\n")
    files = {
        "package.json": ('{"name": "strapi-plugin-comments", "version": "3.2.4", "main": "dist/server/index.js",'
                         ' "strapi": {"kind": "plugin", "name": "comments"}}'),
        "dist/server/index.js": server,
    }
    routes = mined_routes(tmp_path / "plugin", capsys, files)
    assert sorted(routes) == ["GET /api/comments/:relation", "GET /comments/settings/config",
                              "POST /api/comments/:relation", "PUT /comments/moderate/single/:id/block"], sorted(routes)
    plain = {**files, "package.json": '{"name": "x", "version": "1.0.0", "main": "dist/server/index.js"}'}
    assert mined_routes(tmp_path / "plain", capsys, plain) == {}


def test_a_strapi_plugins_route_lists_in_modules_their_typed_group_spreads(tmp_path, capsys):
    """strapi-plugin-menus: each routes file exports a bare list (handlers `plugin::menus.menu.find`),
    and `routes/content-api/index.js` gives its group, `{type: 'content-api', routes: [...menu]}`
    of `const menu = require('./menu')`: served under /api/menus, the admin group's under /menus
    even where the README writes every path under /api/menus; a list no group takes is admin's."""
    listed = lambda *rows: "module.exports = [\n" + "".join(  # noqa: E731
        f"  {{ method: '{m}', path: '{p}', handler: 'plugin::menus.menu.{h}' }},\n" for m, p, h in rows) + "];\n"
    routes = mined_routes(tmp_path, capsys, {
        "package.json": ('{"name": "strapi-plugin-menus", "version": "1.6.1",'
                         ' "strapi": {"kind": "plugin", "name": "menus"}}'),
        "strapi-server.js": "module.exports = require('./server');\n",
        "server/index.js": "const routes = require('./routes');\nmodule.exports = { routes };\n",
        "server/routes/index.js": ("const admin = require('./admin-api');\nconst content = require('./content-api');\n"
                                   "module.exports = { 'admin-api': admin, 'content-api': content };\n"),
        "server/routes/content-api/index.js": ("'use strict';\nconst menu = require('./menu');\n"
                                               "module.exports = { type: 'content-api', routes: [...menu] };\n"),
        "server/routes/content-api/menu.js": listed(("GET", "/", "find"), ("GET", "/:id", "findOne")),
        "server/routes/admin-api/index.js": ("import menu from './menu';\n"
                                             "export default { type: 'admin', routes: [...menu] };\n"),
        "server/routes/admin-api/menu.js": listed(("GET", "/config", "config"), ("PUT", "/:id", "update")),
        "server/routes/loose.js": listed(("GET", "/loose", "loose")),
        "README.md": "| `GET` | `/api/menus/config` | Config. |\n| `PUT` | `/api/menus/:id` | Update. |\n",
    })
    assert sorted(routes) == ["GET /api/menus", "GET /api/menus/:id", "GET /menus/config", "GET /menus/loose",
                              "PUT /menus/:id"], sorted(routes)


def test_fasthtml_routes_by_rt_and_by_the_handlers_name(tmp_path, capsys):
    """FastHTML (dhrishti, nbdev-exported): `rt = app.route` and `app, rt = fast_app()`; `@rt(path)`
    serves the method the handler is named for (`def post()`), else GET and POST; `@rt` alone
    serves /<handler name> (`index` is /); `@app.get(path)` serves GET."""
    routes = mined_routes(tmp_path, capsys, {
        "pkg/__init__.py": "",
        "pkg/serving.py": (
            "# AUTOGENERATED! DO NOT EDIT! File to edit: ../nbs/02_serving.ipynb.\n"
            "from fasthtml.common import *\n\napp = FastHTML(default_hdrs=False)\nrt = app.route\n\n"
            "@rt('/api/rows')\ndef api_rows(profile: str = None):\n    return {}\n\n"
            "@rt('/api/upload')\ndef post(data: str):\n    return {}\n\n"
            "@app.get('/health')\ndef health():\n    return 'ok'\n"),
        "pkg/pages.py": (
            "from fasthtml.common import *\n\napp, rt = fast_app()\n\n"
            "@rt\ndef index():\n    return P('hi')\n\n@rt\ndef about():\n    return P('about')\n\n"
            "route = other.route\n\n@route('/not-fasthtml')\ndef x():\n    pass\n"),
    })
    assert sorted(routes) == ["GET /", "GET /about", "GET /api/rows", "GET /health", "POST /", "POST /about",
                              "POST /api/rows", "POST /api/upload"], sorted(routes)


def test_chanfanas_router_over_a_hono_app_and_a_bundlers_renamed_class(tmp_path, capsys):
    """r2-explorer ships Hono inlined in its bundle (`var Hono2 = class ...`, `new Hono2()`) and
    registers its API on chanfana's `fromHono(app)`; `new Client2()` is no router."""
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "r2", "version": "1.0.0", "main": "dist/index.js"}',
        "dist/index.js": (
            "import { fromHono } from 'chanfana';\nvar Hono2 = class { get() {} };\nvar Client2 = class { get() {} };\n"
            "export function R2Explorer() {\n  const app = new Hono2();\n"
            "  const openapi = fromHono(app, { schema: {} });\n"
            "  openapi.get('/api/buckets/:bucket', ListObjects);\n  openapi.post('/api/emails/send', SendEmail);\n"
            "  app.get('/health', (c) => c.text('ok'));\n"
            "  const client = new Client2();\n  client.get('/remote', (r) => r);\n  return app;\n}\n"),
    })
    assert sorted(routes) == ["GET /api/buckets/:bucket", "GET /health", "POST /api/emails/send"], sorted(routes)


def test_drf_nested_routers_in_a_module_of_old_style_url_patterns(tmp_path, capsys):
    """django-portmaster: `NestedSimpleRouter(portmaster_v1, r'services', lookup='service')`
    serves its viewsets under /services/{service_pk}/, in a module that imports
    rest_framework_nested and django.conf.urls' url (it names no urlpatterns)."""
    routes = mined_routes(tmp_path, capsys, {
        "pm/__init__.py": "",
        "pm/api.py": (
            "from rest_framework import viewsets\nfrom rest_framework.decorators import detail_route\n\n\n"
            "class ServiceViewSet(viewsets.ReadOnlyModelViewSet):\n    pass\n\n\n"
            "class OfferViewSet(viewsets.GenericViewSet):\n    def create(self, request, service_pk):\n        pass\n\n"
            "    @detail_route(methods=['post'])\n    def accept(self, request, service_pk, pk):\n        pass\n"),
        "pm/urls.py": (
            "from django.conf.urls import url, include\nfrom rest_framework_nested import routers\n"
            "from pm import api\n\nv1 = routers.SimpleRouter(trailing_slash=False)\n"
            "v1.register('services', api.ServiceViewSet)\n"
            "nested = routers.NestedSimpleRouter(v1, r'services', trailing_slash=False, lookup='service')\n"
            "nested.register(r'offers', api.OfferViewSet)\n\n"
            "portmaster_urlpatterns = [url(r'^v1/', include(v1.urls)), url(r'^v1/', include(nested.urls))]\n"),
    })
    assert sorted(routes) == ["GET /v1/services", "GET /v1/services/{pk}", "POST /v1/services/{service_pk}/offers",
                              "POST /v1/services/{service_pk}/offers/{pk}/accept"], sorted(routes)


def test_tornado_lists_added_to_with_plus_equals_and_path_regexes_with_a_fragment(tmp_path, capsys):
    """pinnwand: `pages: List[Any] = [...]`, then `pages += [...]`, then Application(pages); a path
    regex's optional `(?:#.+)?` is a fragment no request has, and `\\+` is a literal plus."""
    routes = mined_routes(tmp_path, capsys, {
        "pw/__init__.py": "",
        "pw/http.py": (
            "import tornado.web\nfrom typing import Any, List\nfrom pw import handler\n\n\n"
            "def make_application():\n    pages: List[Any] = [\n"
            "        (r'/', handler.Create),\n        (r'/\\+(.*)', handler.Create),\n"
            "        (r'/raw/([A-Z2-7]+)(?:#.+)?', handler.Raw),\n        (r'/([A-Z2-7]+)(?:#.+)?/hex', handler.Hex),\n    ]\n"
            "    pages += [(r'/api/v1/paste', handler.Paste)]\n"
            "    later = []\n    app = tornado.web.Application(pages)\n"
            "    pages += [(r'/after', handler.Paste)]  # after the app took its list\n    return app\n"),
        "pw/handler.py": (
            "import tornado.web\n\n\nclass Create(tornado.web.RequestHandler):\n    def get(self, *a):\n        pass\n\n\n"
            "class Raw(Create):\n    pass\n\n\nclass Hex(Create):\n    pass\n\n\n"
            "class Paste(tornado.web.RequestHandler):\n    def post(self):\n        pass\n"),
    })
    assert sorted(routes) == ["GET /", "GET /+{arg1}", "GET /raw/{arg1}", "GET /{arg1}/hex", "POST /api/v1/paste"], \
        sorted(routes)


def test_routes_registered_through_a_class_method_that_takes_the_path(tmp_path, capsys):
    """@agentdeskai/browser-tools-server: `this.setupAuditEndpoint(AuditCategory.SEO, "/seo-audit",
    runSEOAudit)`, a method whose body registers `this.app.post(endpoint, ...)`."""
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "bt", "version": "1.0.0", "main": "dist/server.js", "dependencies": {"express": "4"}}',
        "dist/server.js": (
            "import express from 'express';\nclass Connector {\n  constructor(app) {\n    this.app = app;\n"
            "    this.setupAuditEndpoint('a11y', '/accessibility-audit', run);\n"
            "    this.setupAuditEndpoint('seo', '/seo-audit', run);\n    this.setupAuditEndpoint('x', dynamicPath, run);\n  }\n"
            "  setupAuditEndpoint(auditType, endpoint, auditFunction) {\n"
            "    this.app.post(endpoint, async (req, res) => res.json(await auditFunction(req.body)));\n  }\n}\n"
            "const app = express();\nnew Connector(app);\n"),
    })
    assert sorted(routes) == ["POST /accessibility-audit", "POST /seo-audit"], sorted(routes)


def test_routes_of_a_routes_library_mapper(tmp_path, capsys):
    """senlin: `mapper.connect("profile_index", "/profiles", action="index", conditions={'method':
    'GET'})` on a `submapper`, zuul's CherryPy RoutesDispatcher without conditions (every method);
    conditions it cannot read give nothing, and sqlite3.connect('/tmp/x.db') is no route."""
    routes = mined_routes(tmp_path, capsys, {
        "svc/__init__.py": "",
        "svc/router.py": (
            "import routes\nimport sqlite3\n\n\nclass API:\n    def __init__(self, conf):\n"
            "        mapper = routes.Mapper()\n        with mapper.submapper(controller=conf) as sub:\n"
            "            sub.connect('profile_index', '/profiles', action='index', conditions={'method': 'GET'})\n"
            "            sub.connect('profile_create', '/profiles', action='create', conditions={'method': ['POST']})\n"
            "            sub.connect('profile_get', '/profiles/{profile_id}', action='get',\n"
            "                        conditions=dict(method=['GET', 'HEAD']))\n"
            "            sub.connect('odd', '/odd', action='x', conditions={'function': check})\n"
            "        mapper.connect('/info', controller=conf, action='info')\n"
            "        sqlite3.connect('/tmp/x.db')\n"
            # trove: a path the function binds, then binds again, and joins to more
            "        path = '/{tenant_id}/versions/{version}/parameters'\n"
            "        mapper.connect(path, controller=conf, action='index', conditions={'method': ['GET']})\n"
            "        path = '/{tenant_id}/datastores/{datastore}/versions/{id}'\n"
            "        mapper.connect(path + '/parameters/{name}', controller=conf, action='show',\n"
            "                       conditions={'method': ['GET']})\n"),
    })
    assert sorted(routes) == ["ANY /info", "GET /profiles", "GET /profiles/{profile_id}",
                              "GET /{tenant_id}/datastores/{datastore}/versions/{id}/parameters/{name}",
                              "GET /{tenant_id}/versions/{version}/parameters",
                              "HEAD /profiles/{profile_id}", "POST /profiles"], sorted(routes)


def test_a_routes_mapper_resource_and_the_paste_prefix_of_a_router_class(tmp_path, capsys):
    """trove: `[app:troveapp] paste.app_factory = trove.common.api:app_factory` under `/v1.0` of a
    `call:` composite; the factory returns `API()`, whose __init__ hands the mapper to its own
    methods (`self._datastore_router(mapper)`), and `mapper.resource("datastore",
    "/{tenant_id}/datastores", collection={"detail": "GET"})` maps index, create, show, update,
    delete and the extra action."""
    routes = mined_routes(tmp_path, capsys, {
        "trove/__init__.py": "", "trove/common/__init__.py": "",
        "trove/common/api.py": (
            "import routes\n\n\nclass API(object):\n    def __init__(self):\n        mapper = routes.Mapper()\n"
            "        self._datastore_router(mapper)\n\n    def _datastore_router(self, mapper):\n"
            "        mapper.resource('datastore', '/{tenant_id}/datastores', controller=c,\n"
            "                        collection={'detail': 'GET'})\n"
            "        mapper.connect('/{tenant_id}/datastores/{datastore}/versions', controller=c,\n"
            "                       action='version_index', conditions={'method': ['GET']})\n\n\n"
            "def app_factory(global_conf, **local_conf):\n    return API()\n"),
        "trove-26.0.0.data/data/etc/trove/api-paste.ini": (
            "[composite:trove]\nuse = call:trove.common.wsgi:versioned_urlmap\n/: versions\n/v1.0: troveapi\n\n"
            "[app:versions]\npaste.app_factory = trove.versions:app_factory\n\n"
            "[pipeline:troveapi]\npipeline = authtoken troveapp\n\n"
            "[app:troveapp]\npaste.app_factory = trove.common.api:app_factory\n"),
    })
    assert sorted(routes) == [
        "DELETE /v1.0/{tenant_id}/datastores/{id}", "GET /v1.0/{tenant_id}/datastores",
        "GET /v1.0/{tenant_id}/datastores/detail", "GET /v1.0/{tenant_id}/datastores/{datastore}/versions",
        "GET /v1.0/{tenant_id}/datastores/{id}", "POST /v1.0/{tenant_id}/datastores",
        "PUT /v1.0/{tenant_id}/datastores/{id}"], sorted(routes)


def test_tornado_route_tables_of_a_packages_own_request_handler_and_bokeh_documents(tmp_path, capsys):
    """dask: `routes: list[tuple] = [(r"json/counts.json", CountsJSON, {})]` of handlers on the
    package's own RequestHandler (the module imports no Tornado), joined to the server's prefix by
    get_handlers() ("/" by default, and said so); `applications = {"/status": status_doc}` given to
    `BokehApplication(applications, ...)` serves each document (GET). A dict given elsewhere is data."""
    routes = mined_routes(tmp_path, capsys, {
        "distributed/__init__.py": "",
        "distributed/http/utils.py": ("from tornado import web\n\n\n"
                                      "class RequestHandler(web.RequestHandler):\n    pass\n"),
        "distributed/http/json.py": (
            "from distributed.http.utils import RequestHandler\n\n\nclass CountsJSON(RequestHandler):\n"
            "    def get(self):\n        self.write({})\n\n\n"
            "routes: list[tuple] = [\n    (r'json/counts.json', CountsJSON, {}),\n]\n"),
        "distributed/dashboard/scheduler.py": (
            "from distributed.dashboard.core import BokehApplication\n\n\ndef status_doc(s, extra, doc):\n"
            "    pass\n\n\napplications = {\n    '/status': status_doc,\n    '/workers': status_doc,\n}\n"
            "colors = {'/not-a-page': status_doc}\n\n\n"
            "def connect(application, scheduler, prefix=''):\n"
            "    app = BokehApplication(applications, scheduler, prefix=prefix)\n    print(colors)\n"),
    })
    assert sorted(routes) == ["GET /json/counts.json", "GET /status", "GET /workers"], sorted(routes)
    assert any("the prefix the `routes` list is joined to" in u for u in routes["GET /json/counts.json"]["unknowns"])


def test_a_routes_mapper_a_router_class_is_handed_and_a_factory_called_on_a_required_module(tmp_path, capsys):
    """openstack-venus: `def _setup_routes(self, mapper, ext_mgr): mapper.connect("get_custom_config",
    "/custom_config", ..., conditions={'method': ['GET']})` in a module that imports no Routes.
    backstage's mcp-chat: `router.use("/chat", chatRoutes.createChatRoutes(deps))` of
    `var chatRoutes = require('./routes/chatRoutes.cjs.js')`: the module's export, not an object of it."""
    routes = mined_routes(tmp_path / "py", capsys, {
        "venus/__init__.py": "",
        "venus/router.py": (
            "from venus.api import openstack\n\n\nclass APIRouter(openstack.APIRouter):\n"
            "    def _setup_routes(self, mapper, ext_mgr):\n"
            "        mapper.connect('get_custom_config', '/custom_config', controller=c, action='get',\n"
            "                       conditions={'method': ['GET']})\n"),
    })
    assert sorted(routes) == ["GET /custom_config"], sorted(routes)
    routes = mined_routes(tmp_path / "js", capsys, {
        "package.json": '{"name": "mcp-chat", "version": "1.0.0", "main": "dist/router.cjs.js"}',
        "dist/router.cjs.js": (
            "'use strict';\nvar express = require('express');\n"
            "var chatRoutes = require('./routes/chatRoutes.cjs.js');\n"
            "function createRouter(options) {\n  const router = express.Router();\n"
            "  router.use('/chat', chatRoutes.createChatRoutes({ logger: options.logger }));\n  return router;\n}\n"
            "exports.createRouter = createRouter;\n"),
        "dist/routes/chatRoutes.cjs.js": (
            "'use strict';\nvar express = require('express');\nfunction createChatRoutes(deps) {\n"
            "  const router = express.Router();\n  router.post('/', async (req, res) => res.json({}));\n"
            "  router.get('/history', async (req, res) => res.json([]));\n  return router;\n}\n"
            "exports.createChatRoutes = createChatRoutes;\n"),
    })
    assert sorted(routes) == ["GET /chat/history", "POST /chat"], sorted(routes)


CONTROLLER = (
    "from litestar import Controller, get, post\nfrom other import post as other_post\n\n\n"
    "class UserController(Controller):\n    path = '/users/'\n\n"
    "    @post('/login', status_code=200)\n    async def login(self) -> dict:\n        return {}\n\n"
    "    @get('/{user_id:int}')\n    async def one(self, user_id: int) -> dict:\n        return {}\n\n\n"
    "@get('/health')\nasync def health() -> str:\n    return 'ok'\n\n\n"
    "@other_post('/not-litestar')\ndef x():\n    pass\n")


def test_litestar_handlers_under_their_controllers_path(tmp_path, capsys):
    """Litestar: `@post("/login")` imported from litestar, on a method of a Controller whose `path =
    "/users"`; a function outside a controller serves its own path; a `post` of another module is
    not Litestar's."""
    routes = mined_routes(tmp_path, capsys, {"svc/__init__.py": "", "svc/controller.py": CONTROLLER})
    assert sorted(routes) == ["GET /health", "GET /users/{user_id:int}", "POST /users/login"], sorted(routes)
    # a Router of another module serves them under its path, and the app serves that Router
    app = ("from litestar import Litestar, Router\nfrom svc.controller import UserController, health\n\n"
           "api = Router(path='/api/v1', route_handlers=[UserController, health])\n"
           "app = Litestar(route_handlers=[api])\nother = Router(path=settings.prefix, route_handlers=[health])\n")
    routes = mined_routes(tmp_path / "routed", capsys, {
        "svc/__init__.py": "", "svc/controller.py": CONTROLLER, "svc/app.py": app})
    assert sorted(routes) == ["GET /api/v1/health", "GET /api/v1/users/{user_id:int}", "POST /api/v1/users/login"], \
        sorted(routes)
    # litestar-keycloak-admin: `Router(path=self.config.auth_path, ...)`, the field's default in the
    # package's config dataclass (`auth_path: str = "/auth"`); two defaults that differ say nothing
    plugin = ("from litestar import Router\nfrom svc.controller import UserController\n\n\nclass Plugin:\n"
              "    def on_app_init(self, app_config):\n"
              "        app_config.route_handlers.append(Router(path=self.config.auth_path,"
              " route_handlers=[UserController]))\n")
    config = "from dataclasses import dataclass\n\n\n@dataclass\nclass Config:\n    auth_path: str = \"/auth\"\n"
    files = {"svc/__init__.py": "", "svc/controller.py": CONTROLLER, "svc/plugin.py": plugin, "svc/config.py": config}
    assert "POST /auth/users/login" in mined_routes(tmp_path / "configured", capsys, files)
    other = {**files, "svc/other.py": "class Other:\n    auth_path = '/elsewhere'\n"}
    assert "POST /users/login" in mined_routes(tmp_path / "ambiguous", capsys, other)


def test_a_handler_registered_with_an_options_object_of_its_method_and_path(tmp_path, capsys):
    """Flink plugins: `app.addHandler(userLogin, { method: HttpMethod.post, path: options.baseUrl +
    "/login" })` (the base a plugin option, said to be set at run time) and `{ path: "/health",
    method: "get" }`; an options object without a verb, or a call of another name, is no route."""
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "auth-plugin", "version": "1.0.0", "main": "src/init.ts"}',
        "src/init.ts": (
            "import { HttpMethod } from '@flink-app/flink';\n"
            "export function init(app, options) {\n"
            "  app.addHandler(userLogin, { method: HttpMethod.post, path: options.baseUrl + '/login', docs: 'x' });\n"
            "  app.addHandler(health, { path: '/health', method: 'get' });\n"
            "  app.addHandler(other, { path: '/nope', method: HttpMethod.websocket });\n"
            "  app.addThing(thing, { path: '/thing', method: 'get' });\n}\n"),
    })
    assert sorted(routes) == ["GET /health", "POST /login"], sorted(routes)
    assert any("options.baseUrl" in u for u in routes["POST /login"]["unknowns"])


def test_a_js_route_path_with_another_modules_constant(tmp_path, capsys):
    """signalk-server (tsc's output): app.get(`${constants_1.SERVERROUTESPREFIX}/loginStatus`, h)
    with `exports.SERVERROUTESPREFIX = '/skServer'` in ./constants; a named import and a
    namespace import read the same way, through a re-export; a constant no module holds drops the route."""
    routes = mined_routes(tmp_path, capsys, {
        "package.json": '{"name": "sk", "version": "1.0.0", "main": "dist/server.js", "dependencies": {"express": "4"}}',
        "dist/constants.js": ("\"use strict\";\nexports.SERVERROUTESPREFIX = void 0;\n"
                              "exports.SERVERROUTESPREFIX = '/skServer';\n"),
        "dist/paths.mjs": "export const API = '/signalk/v1/api';\nexport const RUNTIME = computeIt();\n",
        "dist/index.mjs": "export { API } from './paths.mjs';\n",
        "dist/server.js": ("const express = require('express');\nconst constants_1 = require('./constants');\n"
                           "const app = express();\n"
                           "app.get(`${constants_1.SERVERROUTESPREFIX}/loginStatus`, (req, res) => res.end());\n"
                           "app.put(constants_1.SERVERROUTESPREFIX + '/restart', (req, res) => res.end());\n"
                           "app.get(`${constants_1.MISSING}/gone`, (req, res) => res.end());\n"
                           "module.exports = app;\n"),
        "dist/esm.mjs": ("import express from 'express';\nimport { API } from './index.mjs';\nimport * as P from './paths.mjs';\n"
                         "const app = express();\napp.get(`${API}/self`, (req, res) => res.end());\n"
                         "app.get(`${P.RUNTIME}/x`, (req, res) => res.end());\nexport default app;\n"),
    })
    assert sorted(routes) == ["GET /signalk/v1/api/self", "GET /skServer/loginStatus", "PUT /skServer/restart"], \
        sorted(routes)


def test_fastapi_routers_included_in_a_loop_over_a_literal_table(tmp_path, capsys):
    """benethos-mailbox-service: `for router, errors in ((users.router, E), # comment\\n (changes.router, E)):
    app.include_router(router, prefix=PREFIX)`; a loop over something else mounts nothing."""
    router = "from fastapi import APIRouter\n\nrouter = APIRouter()\n\n\n@router.get('/{0}')\ndef listing():\n    return []\n"
    routes = mined_routes(tmp_path, capsys, {
        "svc/__init__.py": "", "svc/routes/__init__.py": "",
        "svc/routes/users.py": router.format("users"), "svc/routes/changes.py": router.format("changes"),
        "svc/routes/other.py": router.format("other"),
        "svc/api.py": (
            "from fastapi import FastAPI\nfrom svc.routes import changes, other, users\n\nPREFIX = '/v1'\n\n\n"
            "def install(app: FastAPI) -> None:\n    for router, errors in (\n        (users.router, {}),\n"
            "        # the changes, last\n        (changes.router, {}),\n    ):\n"
            "        for route in router.routes:\n            pass\n"
            "        app.include_router(router, prefix=PREFIX, responses=errors)\n"
            "    for router in load_plugins():\n        app.include_router(router, prefix='/plugins')\n"
            "    app.include_router(other.router)\n"),
    })
    assert sorted(routes) == ["GET /other", "GET /v1/changes", "GET /v1/users"], sorted(routes)


def test_fastapi_routers_of_a_module_tuple_included_under_an_imported_prefix(tmp_path, capsys):
    """benethos-mailbox-service's pages: `AREAS = (login, home)` of imported route modules, and
    `for area in AREAS: app.include_router(area.router, prefix=PATH)` with `from .session import
    PATH`: each module's router under the prefix that module holds. A name bound to something other
    than a tuple or list mounts nothing."""
    router = "from fastapi import APIRouter\n\nrouter = APIRouter()\n\n\n@router.get('/{0}')\ndef page():\n    return ''\n"
    files = {
        "svc/__init__.py": "", "svc/pages/routes/__init__.py": "",
        "svc/pages/routes/login.py": router.format("password"), "svc/pages/routes/home.py": router.format("home"),
        "svc/pages/session.py": "PATH = '/ui'\n",
        "svc/pages/__init__.py": (
            "from fastapi import FastAPI\n\nfrom .routes import home, login\nfrom .session import PATH\n\n"
            "AREAS = (\n    login,\n    home,\n)\n\n\ndef install(app: FastAPI) -> None:\n"
            "    for area in AREAS:\n        app.include_router(area.router, prefix=PATH)\n"),
    }
    routes = mined_routes(tmp_path / "tuple", capsys, files)
    assert sorted(routes) == ["GET /ui/home", "GET /ui/password"], sorted(routes)
    assert routes["GET /ui/password"]["source"]["path"] == "svc/pages/routes/login.py"
    loaded = {**files, "svc/pages/__init__.py": files["svc/pages/__init__.py"].replace(
        "AREAS = (\n    login,\n    home,\n)", "AREAS = load_areas()")}
    assert sorted(mined_routes(tmp_path / "loaded", capsys, loaded)) == ["GET /home", "GET /password"]


def test_tornado_routes_a_get_routes_function_returns_for_classes_it_makes(tmp_path, capsys):
    """tornado-profile: `def get_routes(self)` returns `[(self.prefix + "/profiler",
    UpdatedProfilerHandler), ...]`, each handler a class it makes from one of the module's
    (`class UpdatedProfilerHandler(YappiProfilerHandler, self.base): pass`), whose methods serve it."""
    from tests.conftest import mined_routes

    source = '''import tornado.web


class ProfilerHandler(tornado.web.RequestHandler):
    def post(self): ...
    def delete(self): ...


class StatsHandler(tornado.web.RequestHandler):
    def get(self): ...


class Profiler:
    def __init__(self, prefix="", base=object):
        self.prefix, self.base = prefix, base

    def get_routes(self):
        class Updated(ProfilerHandler, self.base):
            pass
        return [(self.prefix + "/profiler", Updated), (self.prefix + "/profiler/stats", StatsHandler)]


def main():
    tornado.web.Application([] + Profiler().get_routes()).listen(8888)
'''
    routes = mined_routes(tmp_path, capsys, {"tornado_profile.py": source})
    assert sorted(routes) == ["DELETE /profiler", "GET /profiler/stats", "POST /profiler"]
    # a hook another module calls (jupyterhub's Authenticator.get_handlers()) is served under what it adds
    hook = source.replace("tornado.web.Application([] + Profiler().get_routes()).listen(8888)", "pass")
    assert mined_routes(tmp_path / "hook", capsys, {"tornado_profile.py": hook}) == {}


def test_a_route_path_from_a_settings_field_of_an_object_handed_in(tmp_path, capsys):
    """authfast: `base_path = auth.config.base_path.rstrip("/")`, then `@router.post(f"{base_path}/signup")`,
    the field's default in the package's config class (`base_path: str = "/auth/"`, its slash not doubled)."""
    routing = ('from fastapi import APIRouter\n\n\ndef create_auth_router(auth):\n    router = APIRouter()\n'
               '    base_path = auth.config.base_path.rstrip("/")\n\n'
               '    @router.post(f"{base_path}/signup")\n    async def signup(): ...\n\n'
               '    @router.get(f"{base_path}/me")\n    async def me(): ...\n\n    return router\n')
    config = "from pydantic import BaseModel\n\n\nclass AuthConfig(BaseModel):\n    base_path: str = '/auth/'\n"
    routes = mined_routes(tmp_path, capsys, {"authfast/__init__.py": "", "authfast/routing.py": routing,
                                             "authfast/config.py": config})
    assert sorted(routes) == ["GET /auth/me", "POST /auth/signup"]


def test_route_paths_a_config_accessor_reads_with_their_defaults_table(tmp_path, capsys):
    """Flask-Security: `bp.route(cv("LOGIN_URL", app=app), ...)(login)` with `from .utils import
    config_value as cv`, the defaults in another module's `_default_config = {"LOGIN_URL": "/login"}`;
    a name bound in the `if` it is used in (`reset_url = cv("RESET_URL")`) is that block's. A key no
    table gives, or two tables that disagree on, is no route."""
    views = ('from flask import Blueprint\n\nfrom .utils import config_value as cv\n\n\n'
             'def create_blueprint(app, state):\n    bp = Blueprint("security", __name__)\n'
             '    bp.route(cv("LOGIN_URL", app=app), methods=["GET", "POST"], endpoint="login")(login)\n'
             '    if state.recoverable:\n        reset_url = cv("RESET_URL", app=app)\n'
             '        bp.route(reset_url, methods=["POST"], endpoint="reset")(reset)\n'
             '    bp.route(cv("UNKNOWN_URL", app=app), methods=["GET"])(unknown)\n'
             '    bp.route(cv("SPLIT_URL", app=app), methods=["GET"])(split)\n    return bp\n')
    core = ('_default_config = {\n    "LOGIN_URL": "/login",\n    "RESET_URL": "/reset",\n'
            '    "SPLIT_URL": "/one",\n}\n')
    other = '_other_defaults = {\n    "SPLIT_URL": "/two",\n}\n'
    utils = "def config_value(key, app=None, default=None):\n    return default\n"
    # a module whose only route is applied by a call over several lines, a call in its arguments
    plugin = ('from .utils import config_value as cv\n\n\ndef create_blueprint(app, bp):\n    bp.route(\n'
              '        cv("SELECT_URL", app),\n        methods=["GET"],\n    )(tf_select)\n')
    routes = mined_routes(tmp_path, capsys, {"fs/__init__.py": "", "fs/views.py": views,
                                             "fs/core.py": core.replace("}", '    "SELECT_URL": "/tf-select",\n}'),
                                             "fs/other.py": other, "fs/utils.py": utils, "fs/tf_plugin.py": plugin})
    assert sorted(routes) == ["GET /login", "GET /tf-select", "POST /login", "POST /reset"], sorted(routes)


def test_django_patterns_wrapped_in_drf_format_suffix_patterns(tmp_path, capsys):
    """swh-deposit: `urlpatterns = format_suffix_patterns([url(r"^1/", include("svc.api.urls")), ...])`,
    DRF's wrapper that returns the same patterns (each with a format suffix too): they are the module's."""
    root = ('from django.conf.urls import include\nfrom django.urls import re_path as url\n'
            'from rest_framework.urlpatterns import format_suffix_patterns\n\n'
            'urlpatterns = format_suffix_patterns(\n    [\n        url(r"^1/", include("svc.api.urls")),\n'
            '        url(r"^$", home, name="home"),\n    ]\n)\n')
    api = ('from django.urls import re_path as url\n\nurlpatterns = [\n'
           '    url(r"^servicedocument/", ServiceDocumentAPI.as_view(), name="sd"),\n'
           '    url(r"^(?P<collection_name>[^/]+)/$", CollectionAPI.as_view(), name="col"),\n]\n')
    routes = mined_routes(tmp_path, capsys, {"svc/__init__.py": "", "svc/urls.py": root, "svc/api/__init__.py": "",
                                             "svc/api/urls.py": api})
    assert sorted(routes) == ["ANY /", "ANY /1/servicedocument/", "ANY /1/{collection_name}/"], sorted(routes)


def test_drf_routes_from_a_django_apps_settings_with_their_defaults(tmp_path, capsys):
    """django-rest-invitations: `router.register(r'{0}'.format(API_BASE_URL), InvitationViewSet)`,
    `@action(detail=False, url_path=CREATE_AND_SEND_URL)`, the names set in app_settings.py as
    `getattr(settings, 'INVITATION_API_BASE_URL', 'invitations')`: their defaults."""
    routes = mined_routes(tmp_path, capsys, {
        "rest_invitations/__init__.py": "",
        "rest_invitations/app_settings.py": (
            "from django.conf import settings\n\nAPI_BASE_URL = getattr(\n"
            "    settings, 'INVITATION_API_BASE_URL', 'invitations'\n)\n"
            "CREATE_AND_SEND_URL = getattr(settings, 'INVITATION_CREATE_AND_SEND_URL', 'create-and-send')\n"),
        "rest_invitations/views.py": (
            "from rest_framework import viewsets\nfrom rest_framework.decorators import action\n"
            "from .app_settings import CREATE_AND_SEND_URL\n\n\n"
            "class InvitationViewSet(viewsets.ReadOnlyModelViewSet):\n"
            "    @action(detail=False, methods=['post'], url_path=CREATE_AND_SEND_URL)\n"
            "    def create_and_send(self, request): ...\n"),
        "rest_invitations/urls.py": (
            "from rest_framework import routers\nfrom .app_settings import API_BASE_URL\n"
            "from .views import InvitationViewSet\n\nrouter = routers.SimpleRouter()\n"
            "router.register(r'{0}'.format(API_BASE_URL), InvitationViewSet)\nurlpatterns = router.urls\n"),
    })
    assert {"GET /invitations/", "GET /invitations/{pk}/", "POST /invitations/create-and-send/"} <= set(routes), \
        sorted(routes)


def test_a_jupyter_extensions_handlers_under_a_joined_pattern_of_alternatives(tmp_path, capsys):
    """jupyterlab-galaxahub-motd-extension: `route_pattern = url_path_join(base_url, NAMESPACE,
    f"({'|'.join(ROUTES)})")` with `ROUTES = ("terminal", "rich")`, handed to add_handlers."""
    routes_py = ('from jupyter_server.base.handlers import APIHandler\nfrom jupyter_server.utils import url_path_join\n'
                 'import tornado\n\nNAMESPACE = "motd"\nROUTES = ("terminal", "rich")\n\n\n'
                 'class Proxy(APIHandler):\n    @tornado.web.authenticated\n    def get(self, route): ...\n\n\n'
                 'def setup_route_handlers(web_app):\n    base_url = web_app.settings["base_url"]\n'
                 '    route_pattern = url_path_join(base_url, NAMESPACE, f"({\'|\'.join(ROUTES)})")\n'
                 '    web_app.add_handlers(".*$", [(route_pattern, Proxy)])\n')
    routes = mined_routes(tmp_path, capsys, {"motd/__init__.py": "", "motd/routes.py": routes_py})
    assert sorted(routes) == ["GET /motd/rich", "GET /motd/terminal"]


def test_drf_an_actions_extra_methods_and_generic_views_as_a_viewsets_bases(tmp_path, capsys):
    """drf-localize: `@application.mapping.patch` answers PATCH at the `application` action's
    path; `class Keys(ListAPIView, CreateAPIView, GenericViewSet)` (through a base of the
    package's) has the list and create actions the generic views' mixins give."""
    views = ('from rest_framework.decorators import action\nfrom rest_framework.generics import CreateAPIView, '
             'ListAPIView\nfrom rest_framework.viewsets import GenericViewSet, ViewSet\n\n\n'
             'class Listing(ListAPIView, GenericViewSet):\n    pass\n\n\n'
             'class Keys(Listing, CreateAPIView):\n    pass\n\n\n'
             'class Application(ViewSet):\n    @action(detail=False, methods=["GET"], url_path="application")\n'
             '    def application(self, request):\n        pass\n\n    @application.mapping.patch\n'
             '    def application_update(self, request):\n        pass\n\n    @other.mapping.delete\n'
             '    def stray(self, request):\n        pass\n')
    urls = ('from rest_framework import routers\nfrom loc.views import Application, Keys\n\n'
            'router = routers.SimpleRouter(trailing_slash=False)\nrouter.register(r"keys", Keys)\n'
            'router.register(r"localize", Application, basename="app")\nurlpatterns = router.urls\n')
    routes = mined_routes(tmp_path, capsys, {"loc/__init__.py": "", "loc/views.py": views, "loc/urls.py": urls})
    assert sorted(routes) == ["GET /keys", "GET /localize/application", "PATCH /localize/application",
                              "POST /keys"], sorted(routes)
    assert routes["PATCH /localize/application"]["symbol"].endswith("application_update")


def test_an_operation_a_file_shows_twice_is_one_candidate_with_the_evidence_of_both(tmp_path, capsys):
    """`GET /health` registered on two branches of one module, and a function defined twice: one
    candidate each (ids are unique in a report), with both places as evidence."""
    root = tmp_path / "svc"
    (root / "svc").mkdir(parents=True)
    (root / "svc" / "__init__.py").write_text("")
    (root / "svc" / "app.py").write_text(
        "import sys\nfrom flask import Flask\n\napp = Flask(__name__)\n\n"
        "if sys.platform == 'win32':\n    @app.route('/health')\n    def health():\n        return 'win'\n"
        "else:\n    @app.route('/health')\n    def health():\n        return 'posix'\n\n"
        "def handle():\n    return 1\n\n\ndef handle():\n    return 2\n")
    report = mine(tmp_path, capsys, str(root))
    ids = [c["id"] for c in report["candidates"]]
    assert len(ids) == len(set(ids))
    health = [c for c in report["candidates"] if c["name"] == "GET /health"]
    assert len(health) == 1
    assert sorted(e["line"] for e in health[0]["evidence"] if e["kind"] == "route") == [7, 11], health[0]["evidence"]
    assert len([c for c in report["candidates"] if c["name"] == "handle"]) == 1
