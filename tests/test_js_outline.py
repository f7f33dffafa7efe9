"""miners.js_outline: the declarations read from the module level down (no query pass over the
whole tree) are the ones the pass gives, for every shape the reader keeps or drops."""

from __future__ import annotations

import textwrap

import pytest

from miners import declarations, parsing
from miners.facts import ParsedFile
from miners.mine import analyse

SOURCES = {
    "commonjs": """
        var a = require('./a');
        /** Adds. */
        function add(x, y) { return x + y; }
        var sub = function (x, y) { return x - y; }, mul = (x, y) => x * y;
        const k = 3;
        function outer() { function inner() {} exports.hidden = inner; return inner; }
        if (typeof module == 'object') { module.exports = add; }
        module.exports.sub = sub;
        exports.mul = mul;
        exports.div = function div(x, y) { return x / y; };
        exports['quoted'] = 1;
        module.exports.deep.name = 2;
        var s = "module.exports = nope"; // exports.no = 1
        (function () { module.exports = { add, sub, pow: function () {}, sq() {} }; })();
    """,
    "esm": """
        export default function () {}
        export function f(a, b = 2) {}
        export const g = async (x) => x, h = 1;
        export class C extends Base {
          #secret() {}
          m(a) {}
          static s() {}
          field = () => 1;
          value = 2;
        }
        class D { n() {} }
        const E = class { o() {} };
        export { D, f as eff };
        export * from './all';
        export { x } from './x';
    """,
    "mixed-defaults": """
        export default class { m() {} }
        module.exports = other;
        exports.default = _default;
        var _default = function () {};
    """,
    "function-properties": """
        const pm = (glob, options) => glob;
        /** Tests. */
        pm.test = (input, regex) => regex.test(input);
        pm.isMatch = function isMatch(str, patterns) { return pm(patterns)(str); };
        pm.constants = constants;
        pm.nested.deep = () => 1;
        class K {}
        K.create = function () { return new K(); };
        obj.helper = () => 2;
        exports.named = () => 3;
        function outer() { outer.inner = () => 4; }
        if (x) { pm.inBlock = () => 5; }
        module.exports = pm;
    """,
    "broken": """
        function ok() {}
        function broken( { return
        class K { m() {} 
        module.exports = ok;
    """,
}

TS_SOURCES = {
    "namespaces": """
        export namespace N { export function f(): void {} function g() {} export namespace M { export class Z { z(): void {} } } }
        declare namespace D { function d(x: number): string; class Q { q(): void; } }
        declare module "ext" { export function e(): void; }
        declare global { function glob(): void; }
        module Legacy { export function l() {} }
        export abstract class A { abstract a(): void; protected p() {} private q = () => 1; public r = function () {}; }
        export function over(a: string): void;
        export function over(a: number): void;
        export function over(a: any) {}
        export = N;
    """,
    "function-properties": """
        export function mkdir(path: string): void {}
        mkdir.sync = (path: string): void => {};
        namespace N { export function g() {} g.h = () => 1; }
    """,
    "dts": """
        declare function top(a: string): number;
        declare class Top { method(): void; }
        interface I { i(): void }
        type T = () => void;
        export as namespace Lib;
    """,
}


def _both(source: str, language: str, path: str) -> tuple:
    data = textwrap.dedent(source).lstrip("\n").encode()
    tree = parsing.parse(language, data)
    with_pass = ParsedFile(path, language, data, tree)
    parsing.file_matches(with_pass, "declarations")  # the pass has run: the reader uses it
    outline = ParsedFile(path, language, data, tree)
    got = declarations.extract_declarations(outline, calls=False)
    assert not parsing.has_matches(outline), "the outline ran the query pass"
    return declarations.extract_declarations(with_pass, calls=False), got


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_javascript_outline_gives_what_the_pass_gives(name):
    want, got = _both(SOURCES[name], "javascript", "src/mod.js")
    assert got == want
    assert want[0], "the case declares something"


@pytest.mark.parametrize("name", sorted(TS_SOURCES))
@pytest.mark.parametrize("language", ["typescript", "tsx"])
def test_typescript_outline_gives_what_the_pass_gives(name, language):
    path = "types/index.d.ts" if name == "dts" else "src/mod.ts"
    want, got = _both(TS_SOURCES[name], language, path)
    assert got == want
    assert want[0]


def test_the_outline_finds_what_it_must():
    _, (symbols, surface) = _both(SOURCES["commonjs"], "javascript", "src/mod.js")
    names = {s.name for s in symbols}
    assert {"add", "sub", "mul", "div", "pow", "sq"} <= names
    assert "inner" not in names  # nested in a function: part of `outer`
    assert {"sub", "mul", "div", "pow", "sq", "add"} <= surface.names
    _, (symbols, _) = _both(SOURCES["function-properties"], "javascript", "src/mod.js")
    by_name = {s.name: s for s in symbols}
    assert {"pm.test", "pm.isMatch", "K.create", "named"} <= set(by_name)
    assert not {"pm.constants", "pm.deep", "pm.nested.deep", "obj.helper", "outer.inner", "pm.inBlock"} & set(by_name)
    assert by_name["pm.test"].kind == "function" and by_name["pm.test"].exported and by_name["pm.test"].doc == "Tests."
    assert by_name["K.create"].kind == "method" and by_name["K.create"].container == "K"
    assert not by_name["K.create"].exported  # K is not exported
    _, (symbols, _) = _both(TS_SOURCES["function-properties"], "typescript", "src/mod.ts")
    assert {"mkdir.sync", "N.g.h"} <= {s.name for s in symbols}
    _, (symbols, _) = _both(SOURCES["esm"], "javascript", "src/mod.js")
    names = {s.name for s in symbols}
    assert {"C.m", "C.s", "C.field", "D.n", "f", "g"} <= names and "E.o" not in names and "C.value" not in names


def test_a_file_with_nothing_for_the_other_concerns_is_mined_without_the_query_pass(monkeypatch):
    runs = []
    real = parsing._run_all
    monkeypatch.setattr(parsing, "_run_all", lambda parsed: runs.append(parsed.path) or real(parsed))
    lodash_like = b"var a = require('./a');\nfunction f(x) { return a(x); }\nmodule.exports = f;\n"
    facts = analyse("f.js", "javascript", lodash_like)
    assert [s.name for s in facts.symbols] == ["f"] and facts.symbols[0].exported
    assert runs == []
    # with effects too: the calls that carry them are found from their names (declarations.py)
    facts = analyse("g.js", "javascript", b"const fs = require('fs');\nexports.g = () => fs.readFileSync('x');\n")
    assert facts.effects and runs == []
