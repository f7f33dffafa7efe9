"""miners.effect_gate: a JS/TS file is skipped by the effect extractor only when nothing in it could
match the tables, so no row, hazard or load is ever hidden by the gate."""

from __future__ import annotations

import textwrap

import pytest

from miners.effects import _JS_GATE, JS_CALLS, JS_HAZARDS, JS_METHODS, extract_effects
from miners.facts import ParsedFile
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
    return _JS_GATE.nothing_to_find(pf.source, pf.tree.root_node)


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
