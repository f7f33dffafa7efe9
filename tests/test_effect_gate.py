"""miners.effect_gate: a JS/TS or Python file is skipped by the effect extractor only when nothing in it could
match the tables, so no row, hazard or load is ever hidden by the gate."""

from __future__ import annotations

import textwrap

import pytest

from miners import parsing
from miners.effects import (
    _JS_GATE,
    _PY_GATE,
    JS_CALLS,
    JS_HAZARDS,
    JS_METHODS,
    PY_CALLS,
    PY_HAZARDS,
    PY_METHODS,
    extract_effects,
)
from miners.facts import ParsedFile
from miners.mine import analyse
from miners.parsing import parse

# a lodash-style module: relative requires, CommonJS export, heads only in comments and strings
INERT_PREAMBLE = """
var baseGetTag = require('./_baseGetTag'),
    isObjectLike = require("../isObjectLike");
/** Used to fetch `process` or `module` from a Function: eval(x), fs.readFileSync(p). */
var symbolTag = '[object Function]', note = "fetch(u) and require('fs')";
"""


def parsed(source: str, language: str = "javascript") -> ParsedFile:
    data = textwrap.dedent(source).lstrip("\n").encode()
    return ParsedFile("src/mod.js", language, data, parse(language, data))


def skipped(source: str, language: str = "javascript") -> bool:
    pf = parsed(source, language)
    return _JS_GATE.nothing_to_find(pf)


def found(source: str, language: str = "javascript") -> tuple[list, list]:
    return extract_effects(parsed(source, language))


def _call_of(row: str) -> str:
    """A call that matches `row` as written: `new X(a)`, `a.b.c(x)`, `child_process.*` -> `.run(x)`."""
    new = row.startswith("new ")
    name = row.removeprefix("new ").replace("*", "run")
    if name == "setTimeout" or name == "setInterval":
        return f'{name}("code()", 1);'
    if name == "sql":
        return "sql`SELECT 1`;"
    return f"{'new ' if new else ''}{name}(x, y);"


def _rows() -> list[str]:
    return sorted(name for name in {*JS_CALLS, *JS_HAZARDS} if "/" not in name.split(".")[0] and "-" not in name)


@pytest.mark.parametrize("row", _rows())
def test_every_row_called_in_an_otherwise_inert_file_is_still_found(row):
    source = INERT_PREAMBLE + "function f(x) {\n  " + _call_of(row) + "\n}\nmodule.exports = f;\n"
    effects, hazards = found(source)
    assert effects or hazards, row
    assert not skipped(source)


@pytest.mark.parametrize("method", sorted(m for m, rules in JS_METHODS.items() if any(not r.modules for r in rules)))
def test_ungated_methods_are_triggers(method):
    source = INERT_PREAMBLE + f"async function f(db) {{ return db.{method}('SELECT 1'); }}\nmodule.exports = f;\n"
    assert not skipped(source)
    effects, _ = found(source)
    assert effects


@pytest.mark.parametrize("load", [
    "require('ffi-napi')", "require('bindings')('x')", "require('./build/addon.node')", "require(name)",
    "require(`./${name}`)", "import(name)", "require('node:fs').readFileSync(p)",
])
def test_loads_that_matter_are_triggers(load):
    source = INERT_PREAMBLE + f"async function f(name, p) {{ return {load}; }}\n"
    assert not skipped(source)
    effects, hazards = found(source)
    assert effects or hazards


@pytest.mark.parametrize("load", ["import('child_process')", "require('dotenv/config')", "require('mongoose')"])
def test_loads_of_modules_the_tables_know_are_looked_at_even_when_they_find_nothing(load):
    assert not skipped(INERT_PREAMBLE + f"async function f() {{ return {load}; }}\n")


@pytest.mark.parametrize("statement", [
    'import fs from "fs";', 'import { exec } from "node:child_process";', 'import * as http from "http";',
    'import "dotenv/config";', 'import knex from "knex";', 'import fetch from "node-fetch";',
])
def test_imports_of_modules_the_tables_know_are_triggers(statement):
    assert not skipped(statement + "\nexport const x = 1;\n")


def test_process_env_and_bound_heads_are_triggers():
    assert not skipped("module.exports = () => process.env.HOME;")
    assert not skipped("module.exports = () => process . env . HOME;")
    assert not skipped("const { env } = process; module.exports = () => process['env'] && process.env;")
    assert found("module.exports = () => process.env.HOME;")[0]


def test_gated_methods_need_their_module_and_are_found_with_it():
    source = 'const mongoose = require("mongoose");\nasync function f(M) { return M.find({}); }\n'
    assert not skipped(source)
    assert found(source)[0]
    assert skipped("async function f(items) { return items.find((i) => i.ok); }\nmodule.exports = f;\n")


def test_lodash_style_modules_are_skipped():
    assert skipped(INERT_PREAMBLE + """
    function isSymbol(value) {
      return typeof value == 'symbol' || (isObjectLike(value) && baseGetTag(value) == symbolTag);
    }
    module.exports = isSymbol;
    module.exports.default = isSymbol;
    """)
    assert found(INERT_PREAMBLE + "module.exports = 1;") == ([], [])


def test_references_types_and_properties_named_like_heads_are_not_triggers():
    assert skipped("""
    var freeProcess = freeGlobal.process, argv = process.argv;
    function f(fs, fetch) { return [fs, fetch, obj.fetch(), this.fs.readFileSync]; }
    const g = { fetch, module: 1 };
    setTimeout(() => f(), 10);
    setTimeout(f, 10);
    if (typeof module == 'object' && module && !module.nodeType) {}
    module.exports = f;
    """)
    assert skipped("import type { Foo } from './foo';\nexport function f(cb: Function): WebSocket | null { return null; }\n",
                   "typescript")
    assert skipped("import { a } from 'lodash';\nimport * as React from \"react\";\nexport default () => import('./lazy');\n")


def test_head_calls_in_unusual_shapes_are_triggers():
    for source in ("fs?.readFileSync(p);", "new WebSocket(u);", "x = fs.promises.readFile(p);",
                   "setTimeout(('code'), 1);", "setTimeout(`code`, 1);", "module.createRequire(u)('x');",
                   "Reflect.get(o, k);", "eval(s);"):
        assert not skipped(INERT_PREAMBLE + source), source
    assert found("x = fs.promises.readFile(p);")[0]


@pytest.mark.parametrize("source", [
    "fetch.call(null, u);", "new WebSocket.Server(o);", "module.exports.f = () => 1;", "process.argv.slice(2);",
    "x = require('./a').b(c);", "import.meta.url;", "const {a} = require('lodash'); a(fs);",
])
def test_what_the_gate_skips_the_extractor_finds_nothing_in(source):
    assert skipped(INERT_PREAMBLE + source), source
    from miners.effects import _JsEffects  # the extractor itself, without the gate in front of it

    assert _JsEffects(parsed(INERT_PREAMBLE + source)).run() == ([], [])


def test_the_gate_refuses_tables_its_reasoning_does_not_cover():
    from miners.effect_gate import JsGate

    with pytest.raises(ValueError):
        JsGate({"./local.read": None}, {}, {}, lambda spec: False)
    with pytest.raises(ValueError):
        JsGate({}, {}, {}, lambda spec: spec.startswith("."))


# --- Python --------------------------------------------------------------------------------------------------

PY_INERT_PREAMBLE = '''
"""Opens nothing: open(p), os.remove(p), subprocess.run(x) and eval(s) are only words here."""
import os
import os.path
from . import sibling
from .compat import helper  # getattr(obj, name) in a comment

NOTE = "exec(code) and requests.get(url)"
'''


def py_skipped(source: str) -> bool:
    return _PY_GATE.nothing_to_find(parsed(source, "python"))


def py_found(source: str) -> tuple[list, list]:
    return extract_effects(parsed(source, "python"))


def _py_call_of(row: str) -> str:
    return f"{row.replace('*', 'run')}(x, y)"


@pytest.mark.parametrize("row", sorted({*PY_CALLS, *PY_HAZARDS}))
def test_every_python_row_called_in_an_otherwise_inert_file_is_still_found(row):
    head = row.split(".", 1)[0]
    imports = f"import {head}\n" if "." in row else ""
    source = PY_INERT_PREAMBLE + imports + f"def f(x, y):\n    return {_py_call_of(row)}\n"
    effects, hazards = py_found(source)
    assert effects or hazards, row
    assert not py_skipped(source)


@pytest.mark.parametrize("row", sorted(r for r in PY_CALLS if r.count(".") == 1 and "*" not in r))
def test_python_rows_reached_through_from_imports_are_found(row):
    module, name = row.split(".")
    source = PY_INERT_PREAMBLE + f"from {module} import {name} as local\n\ndef f(x, y):\n    return local(x, y)\n"
    assert not py_skipped(source)
    assert py_found(source)[0] or py_found(source)[1], row


@pytest.mark.parametrize("method", sorted(PY_METHODS))
def test_python_methods_are_triggers_where_they_may_apply(method):
    modules = {m for rule in PY_METHODS[method] for m in rule.modules}
    imports = "".join(f"import {m}\n" for m in sorted(modules))
    source = PY_INERT_PREAMBLE + imports + f"def f(db):\n    return db.{method}('SELECT 1')\n"
    assert not py_skipped(source)
    if method in ("execute", "read_text", "write_bytes", "sendmail", "get_password"):
        assert py_found(source)[0], method  # (others need a receiver or a session the snippet lacks)


def test_python_inert_files_are_skipped_and_the_extractor_agrees():
    from miners.effects import _PyEffects

    for body in ("os.path.join(a, b)", "getattr(obj, 'name', None)", "setattr(self, 'x', 1)",
                 "importlib.import_module('json')", "db.execute(sql)", "items.add(x)", "p.open()",
                 "re.compile(r'x')", "io.StringIO()", "asyncio.run(main())", "self.open(x)", "f(open=1)",
                 "exec_(code)"):
        source = PY_INERT_PREAMBLE + f"import importlib, asyncio, io, re\n\ndef f(obj, sql, self, db, items, p):\n    {body}\n"
        assert py_skipped(source), body
        assert _PyEffects(parsed(source, "python")).run() == ([], []), body


def test_python_triggers_in_unusual_shapes():
    for body in ("getattr(obj, name)", "os.environ.get('HOME')", "environ['X']", "open(p).read()",
                 "os.exec_x(a)", "os.spawnv(a)", "subprocess.check_output(c)", "Path(p).read_text()"):
        assert not py_skipped(PY_INERT_PREAMBLE + f"def f(p, c, a, obj, name):\n    return {body}\n"), body
    for imports in ("import ctypes\n", "import ctypes.util\n", "from cffi import FFI\n", "import subprocess as sp\n",
                    "from os import environ\n", "import shutil as sh_\n"):
        assert not py_skipped(PY_INERT_PREAMBLE + imports + "x = 1\n"), imports
    assert py_found(PY_INERT_PREAMBLE + "import ctypes\n")[1]
    assert py_skipped(PY_INERT_PREAMBLE + "import os.path as osp, shutil\nx = osp.join(a, b)\n")  # os.path heads no row


def test_python_files_with_nothing_for_the_other_concerns_are_mined_without_the_query_pass(monkeypatch):
    runs = []
    real = parsing._run_all
    monkeypatch.setattr(parsing, "_run_all", lambda parsed: runs.append(parsed.path) or real(parsed))
    source = PY_INERT_PREAMBLE + '''
__all__ = ["Point"]


class Point:
    """A point."""

    @property
    def norm(self) -> float:
        return abs(self.x) + helper(self.y)

    @staticmethod
    def origin() -> "Point":
        return Point()
'''
    facts = analyse("pkg/point.py", "python", source.encode())
    assert {s.name for s in facts.symbols} == {"Point", "Point.norm", "Point.origin"}
    assert facts.module.names == {"Point"} and not facts.effects and not facts.surfaces
    assert runs == []
    facts = analyse("pkg/cli.py", "python", b"import click\n\n@click.command()\ndef main():\n    pass\n")
    assert facts.surfaces and runs == ["pkg/cli.py"]
