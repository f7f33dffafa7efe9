"""miners/declarations.py: what Python, JavaScript, TypeScript (.d.ts) and TSX files declare and export."""

from __future__ import annotations

import textwrap

import pytest

from miners.declarations import extract_declarations
from miners.facts import ModuleSurface, ParsedFile, Symbol
from miners.parsing import language_of, parse


def declarations(path: str, source: str) -> tuple[dict[str, Symbol], ModuleSurface]:
    data = textwrap.dedent(source).lstrip("\n").encode()
    language = language_of(path)
    symbols, surface = extract_declarations(ParsedFile(path, language, data, parse(language, data)))
    by_name = {s.name: s for s in symbols}
    assert len(by_name) == len(symbols), [s.name for s in symbols]
    return by_name, surface


# --- Python -------------------------------------------------------------------------------------

PY_MODULE = '''
"""A module."""
__all__ = ["slugify", "Client"]
__all__ += ("extra",)


@cache
async def slugify(text: str,
                  sep: str = "-",  # separator
                  ) -> str:
    """Make a slug.

    Longer explanation."""
    cleaned = _clean(text)
    return re.sub(r"\\s+", sep, cleaned).lower()


def _clean(text):
    return text.strip()


def undeclared():
    pass


class Client(Base):
    """Talks to the API."""

    def __init__(self, url):
        self.url = url

    def __call__(self):
        return self.get("/")

    def get(self, path):
        """GET a path."""
        return self.session.get(self.url + path).json()

    def _retry(self):
        pass

    def __repr__(self):
        return "Client"


class _Internal:
    def run(self):
        pass
'''


def test_python_all_decides_exports_and_names():
    symbols, surface = declarations("pkg/text.py", PY_MODULE)
    assert surface.names == {"slugify", "Client", "extra"}
    assert symbols["slugify"].exported and symbols["Client"].exported
    assert not symbols["_clean"].exported
    assert not symbols["undeclared"].exported  # public-looking, but __all__ leaves it out
    assert symbols["_clean"].kind == "function" and symbols["Client"].kind == "class"


def test_python_signature_doc_span_and_calls():
    symbols, _ = declarations("pkg/text.py", PY_MODULE)
    slugify = symbols["slugify"]
    assert slugify.signature == 'async def slugify(text: str, sep: str = "-") -> str'
    assert slugify.doc == "Make a slug."
    assert (slugify.line, slugify.end_line) == (7, 14)  # the def, not its decorator on line 6
    assert slugify.calls == ["_clean", "re.sub"]
    data = textwrap.dedent(PY_MODULE).lstrip("\n").encode()
    assert data[slugify.start_byte:slugify.end_byte].startswith(b"async def slugify(")
    assert symbols["Client"].signature == "class Client(Base)"
    assert symbols["Client"].doc == "Talks to the API."
    assert symbols["Client.get"].calls == ["self.session.get"]  # `.json()` on a call result names nothing


def test_python_methods_public_private_and_dunders():
    symbols, _ = declarations("pkg/text.py", PY_MODULE)
    get = symbols["Client.get"]
    assert (get.kind, get.container, get.exported, get.doc) == ("method", "Client", True, "GET a path.")
    assert get.signature == "def get(self, path)"
    assert symbols["Client.__init__"].exported and symbols["Client.__call__"].exported
    assert not symbols["Client._retry"].exported
    assert not symbols["Client.__repr__"].exported
    assert not symbols["_Internal.run"].exported  # public name, private class


def test_python_without_all_underscore_rule():
    symbols, surface = declarations("pkg/util.py", """
        def public(a, b=1):
            return _private(a)

        def _private(a):
            def nested():
                pass
            return a
        """)
    assert surface.names is None
    assert symbols["public"].exported and not symbols["_private"].exported
    assert "nested" not in symbols and "_private.nested" not in symbols


def test_python_all_extend_and_computed_all():
    _, surface = declarations("pkg/a.py", '__all__ = ["a"]\n__all__.extend(["b"])\n__all__.append("c")\n')
    assert surface.names == {"a", "b", "c"}
    _, computed = declarations("pkg/b.py", '__all__ = [n for n in dir() if not n.startswith("_")]\n')
    assert computed.names is None  # unreadable: fall back to the underscore rule


def test_python_package_init_reexports():
    symbols, surface = declarations("src/mypkg/__init__.py", """
        from .core import Engine, run as start, _secret
        from . import plugins
        from .helpers import *
        from mypkg.io import (
            read,
            write,
        )
        from typing import Any
        import os
        from json import dumps as dumps

        def version():
            return "1"
        """)
    assert surface.names is None
    assert surface.reexports == [("Engine", ".core"), ("start", ".core"), ("plugins", "."),
                                 ("read", "mypkg.io"), ("write", "mypkg.io"), ("dumps", "json")]
    assert surface.export_all_from == [".helpers"]
    assert symbols["version"].exported


def test_python_all_limits_reexports_outside_init():
    _, surface = declarations("src/mypkg/api.py", """
        from .core import Engine, Other
        from typing import Any
        __all__ = ["Engine", "Any"]
        """)
    assert surface.reexports == [("Engine", ".core"), ("Any", "typing")]


def test_python_module_functions_bound_to_a_module_level_instance():
    symbols, _ = declarations("jwt/api_jwt.py", '''
        class PyJWT:
            def encode(self, payload: dict, key: str) -> str:
                """Encode a token."""
                return sign(payload, key)

            def decode(self):
                return {}

        _inst = PyJWT()
        encode = _inst.encode  # the module's own function
        decode = _inst.decode
        missing = _inst.nowhere
        imported = other.thing
        text = """
        inside = _inst.encode
        """

        def build():
            local = PyJWT()
        ''')
    encode = symbols["encode"]
    assert encode.kind == "function" and encode.exported and encode.line == 10
    assert encode.signature == "def encode(payload: dict, key: str) -> str" and encode.doc == "Encode a token."
    assert encode.calls == ["PyJWT.encode"]  # the method's effects are the function's
    assert symbols["decode"].signature == "def decode()"
    assert not {"missing", "imported", "inside", "local"} & set(symbols)
    # an instance of a class the file does not define, or made inside a function: not followed
    symbols, _ = declarations("pkg/m.py", """
        from .core import Engine
        _e = Engine()
        run = _e.run
        def f():
            _g = Engine()
        go = _g.go
        """)
    assert set(symbols) == {"f"}


@pytest.mark.parametrize("path, source", [
    ("src/app.jsx", """
        const fs = require("fs");
        function read(p) { return fs.readFileSync(p); }
        class Store { static load(p) { return read(p); } save() { fs.writeFileSync("x", "y"); } }
        function Button() { return <b>{read("a")}</b>; }
        function view() { return <Button />; }
        function uses() { Store.load("a"); new Store(); this.read(); other.read(); read /* not a call */; }
        const arrow = () => read("b") + helper();
        function helper() { return 1; }
        """),
    ("pkg/mod.py", """
        import os
        def read(p):
            return open(p).read()
        class Store:
            @staticmethod
            def load(p):
                return read(p)
            def save(self):
                os.remove("x")
        def uses():
            Store.load("a")
            self.read()
            other.read()
            return read
        @decorate(read("cfg"))
        def decorated():
            helper()
        def helper():
            return 1
        """),
])
def test_the_calls_that_carry_effects_found_from_names_are_the_passs(path, source):
    data = textwrap.dedent(source).lstrip("\n").encode()
    language = language_of(path)
    tree = parse(language, data)
    from miners.effects import extract_effects

    effects, _ = extract_effects(ParsedFile(path, language, data, tree))
    assert effects
    full, _ = extract_declarations(ParsedFile(path, language, data, tree), calls=True)
    targeted, _ = extract_declarations(ParsedFile(path, language, data, tree), calls=True,
                                       effects_at=[h.start_byte for h in effects])
    starts = [h.start_byte for h in effects]
    effectful = {s.name for s in full if any(s.start_byte <= at < s.end_byte for at in starts)}
    assert [(s.name, [c for c in s.calls if c in effectful]) for s in full] == [(s.name, s.calls) for s in targeted]
    assert any(s.calls for s in targeted)


def test_python_syntax_error_yields_what_parses():
    symbols, _ = declarations("pkg/broken.py", """
        def good(a):
            return helper(a)

        def broken(a):
            x = = 1
            return a

        def after():
            pass
        """)
    assert symbols["good"].signature == "def good(a)" and symbols["good"].calls == ["helper"]
    assert symbols["broken"].notes == ["parse-error"] and not symbols["good"].notes
    assert (symbols["after"].line, symbols["after"].end_line) == (8, 9)


# --- JavaScript ---------------------------------------------------------------------------------

JS_ESM = """
/**
 * Turn text into a slug.
 *
 * Lower-cases and joins words.
 * @param {string} text
 */
export function slugify(text, options = {}) {
  return normalize(text).split(/\\s+/).join(options.sep);
}
export async function fetchAll(urls) { return Promise.all(urls.map(u => fetch(u))); }
// A client.
export class Client extends Base {
  constructor(url) { super(); this.url = url; }
  get(path) { return this.#send("GET", path); }
  static create() { return new Client("x"); }
  #send(method, path) {}
  onEvent = (e) => { log(e); }
}
export const add = (a, b) => a + b, sub = function minus(a, b) { return a - b; }, VERSION = "1";
export default function (req) { handle(req); }
function normalize(text) { return text.trim(); }
function local() {}
const internal = () => {};
export { local, internal as exposed };
export { parse, format as fmt } from "./format.js";
export * from "./extra.js";
export * as utils from "./utils.js";
"""


def test_js_esm_export_forms():
    symbols, surface = declarations("src/index.js", JS_ESM)
    assert surface.names == {"slugify", "fetchAll", "Client", "add", "sub", "VERSION", "local", "exposed"}
    assert surface.reexports == [("parse", "./format.js"), ("fmt", "./format.js"), ("utils", "./utils.js")]
    assert surface.export_all_from == ["./extra.js"]
    assert surface.default_export == "default"
    for name in ("slugify", "fetchAll", "Client", "add", "sub", "default", "local", "exposed"):
        assert symbols[name].exported, name
    assert "internal" not in symbols  # `export { internal as exposed }`: known by the name it is exported as
    assert "declared as internal" in symbols["exposed"].notes
    assert not symbols["normalize"].exported
    assert symbols["default"].calls == ["handle"]


def test_js_signatures_docs_spans_and_calls():
    symbols, _ = declarations("src/index.js", JS_ESM)
    slugify = symbols["slugify"]
    assert slugify.signature == "function slugify(text, options = {})"
    assert slugify.doc == "Turn text into a slug."
    assert (slugify.line, slugify.end_line) == (7, 9)
    assert slugify.calls == ["normalize"]  # .split()/.join() on call results name nothing
    assert symbols["fetchAll"].signature == "async function fetchAll(urls)"
    assert symbols["fetchAll"].calls == ["Promise.all", "urls.map", "fetch"]
    assert symbols["add"].signature == "const add = (a, b) =>"
    assert symbols["sub"].signature == "const sub = function minus(a, b)"
    assert symbols["Client"].signature == "class Client extends Base"
    assert symbols["Client"].doc == "A client."
    assert (symbols["Client"].line, symbols["Client"].end_line) == (12, 18)


def test_js_a_jsdoc_block_one_blank_line_above_still_documents_but_a_file_header_does_not():
    symbols, _ = declarations("src/index.js", """
        /**
         * The file's header.
         */

        function first() {}

        /**
         * Tests a glob.
         *
         * @param {String} glob
         */

        function test(glob) {}

        /**
         * Loads imposters.
         * @module
         */

        function repeats() {}

        // a line comment one blank line above

        function plain() {}

        /** Two blank lines above. */


        function far() {}
        module.exports = { first, test, repeats, plain, far };
        """)
    assert symbols["test"].doc == "Tests a glob."
    assert {name: symbols[name].doc for name in ("first", "repeats", "plain", "far")} == dict.fromkeys(
        ("first", "repeats", "plain", "far"), "")


def test_js_class_methods():
    symbols, _ = declarations("src/index.js", JS_ESM)
    assert symbols["Client.get"].exported and symbols["Client.get"].container == "Client"
    assert symbols["Client.get"].calls == ["this.#send"]
    assert symbols["Client.create"].signature == "static create()" and symbols["Client.create"].calls == ["Client"]
    assert symbols["Client.constructor"].exported
    assert not symbols["Client.#send"].exported
    assert symbols["Client.onEvent"].exported and symbols["Client.onEvent"].calls == ["log"]


def test_js_non_exported_class_methods_are_not_exported():
    symbols, surface = declarations("src/a.js", "class Hidden { run() {} }\nfunction f() { function inner() {} }\n")
    assert surface.names == set() and surface.default_export is None
    assert not symbols["Hidden"].exported and not symbols["Hidden.run"].exported
    assert "inner" not in symbols


def test_commonjs_object_literal_and_exports_names():
    symbols, surface = declarations("lib/index.js", """
        function parse(s) { return JSON.parse(s); }
        function stringify(v) {}
        function hidden() {}
        module.exports = {
          parse,
          format: stringify,
          /** Checks it. */
          check(x) { return parse(x); },
          plugins: require("./plugins"),
        };
        module.exports.version = function (long) { return "1"; };
        exports.helper = (a) => a;
        """)
    assert surface.names == {"parse", "format", "check", "plugins", "version", "helper"}
    assert surface.reexports == [("plugins", "./plugins")]
    assert surface.default_export is None
    assert symbols["parse"].exported and symbols["format"].exported  # `format: stringify`
    assert "stringify" not in symbols and "declared as stringify" in symbols["format"].notes
    assert not symbols["hidden"].exported
    assert symbols["check"].doc == "Checks it." and symbols["check"].calls == ["parse"]
    assert symbols["version"].signature == "module.exports.version = function (long)"
    assert symbols["helper"].signature == "exports.helper = (a) =>" and symbols["helper"].exported


def test_commonjs_lodash_pattern_and_default_function():
    symbols, surface = declarations("lodash.chunk/index.js", """
        /**
         * Creates an array of elements split into groups.
         */
        function chunk(array, size) {
          return baseSlice(array, 0, size);
        }

        function baseSlice(array, start, end) {}

        module.exports = chunk;
        """)
    assert surface.default_export == "chunk"
    assert symbols["chunk"].exported and not symbols["baseSlice"].exported
    assert symbols["chunk"].doc == "Creates an array of elements split into groups."
    assert (symbols["chunk"].line, symbols["chunk"].end_line) == (4, 6)
    assert symbols["chunk"].calls == ["baseSlice"]

    symbols, surface = declarations("lib/main.js", "module.exports = function main(argv) { run(argv); };\n")
    assert surface.default_export == "main"
    assert symbols["main"].signature == "module.exports = function main(argv)" and symbols["main"].exported

    _, surface = declarations("lib/proxy.js", "module.exports = require('./impl');\n")
    assert surface.export_all_from == ["./impl"]


# --- TypeScript / .d.ts / TSX -------------------------------------------------------------------

def test_ts_class_members_and_types():
    symbols, surface = declarations("src/client.ts", """
        import { Base } from "./base";
        export interface Options { retries: number }
        export type Id = string;
        /** An API client. */
        export class Client<T> extends Base implements Options {
          retries = 3;
          constructor(private readonly url: string) { super(); }
          /** Fetch one. */
          public async get(id: Id,
                           opts?: Partial<Options>): Promise<T> { return this.send(id); }
          private send(id: Id): Promise<T> { return fetch(this.url + id); }
          protected hook(): void {}
          #secret() {}
          static of<T>(url: string): Client<T> { return new Client<T>(url); }
        }
        export abstract class Store { abstract load(key: string): Promise<unknown>; }
        export function pick(a: string): string;
        export function pick(a: number): number;
        export function pick(a: any): any { return choose(a); }
        export default Client;
        """)
    assert surface.names >= {"Options", "Id", "Client", "Store", "pick"} and surface.default_export == "Client"
    assert "Options" not in symbols and "Id" not in symbols  # interfaces and type aliases are not callables
    get = symbols["Client.get"]
    assert get.exported and get.signature == "public async get(id: Id, opts?: Partial<Options>): Promise<T>"
    assert get.doc == "Fetch one." and get.calls == ["this.send"]
    assert not symbols["Client.send"].exported and not symbols["Client.hook"].exported
    assert not symbols["Client.#secret"].exported
    assert symbols["Client.constructor"].signature == "constructor(private readonly url: string)"
    assert symbols["Client.of"].exported
    assert symbols["Client"].signature == "class Client<T> extends Base implements Options"
    assert symbols["Store.load"].signature == "abstract load(key: string): Promise<unknown>"
    pick = symbols["pick"]  # overloads merge into one symbol spanning them all
    assert pick.signature == "function pick(a: string): string" and "overloaded" in pick.notes
    assert (pick.line, pick.end_line) == (17, 19) and pick.calls == ["choose"]


def test_ts_namespaces():
    symbols, surface = declarations("src/ns.ts", """
        export namespace Api { export function call(): void {} function helper() {} }
        namespace Private { export function hidden() {} }
        """)
    assert symbols["Api.call"].exported and symbols["Api.call"].container == "Api"
    assert not symbols["Api.helper"].exported and not symbols["Private.hidden"].exported
    assert surface.names == {"Api"}


def test_dts_declaration_file():
    symbols, surface = declarations("types/index.d.ts", """
        /** Parses a document. */
        export declare function parse(text: string, opts?: ParseOptions): Document;
        declare function internalHelper(): void;
        export declare class Document { toString(): string; private cache(): void; }
        export declare namespace parse { function strict(text: string): Document; }
        declare module "plugin" { export function register(name: string): void; }
        export interface ParseOptions { strict?: boolean }
        export {};
        """)
    assert symbols["parse"].exported and symbols["parse"].signature == (
        "function parse(text: string, opts?: ParseOptions): Document")
    assert symbols["parse"].doc == "Parses a document."
    assert not symbols["internalHelper"].exported  # `export {}` turns implicit .d.ts exports off
    assert symbols["Document.toString"].exported and not symbols["Document.cache"].exported
    assert symbols["parse.strict"].exported and symbols["parse.strict"].container == "parse"
    assert symbols["register"].exported and symbols["register"].container == "plugin"
    assert "ParseOptions" not in symbols and "ParseOptions" in surface.names
    assert {"parse", "Document", "register"} <= surface.names


def test_dts_without_export_declaration_exports_everything():
    symbols, surface = declarations("types/legacy.d.ts", """
        declare function legacy(a: number): string;
        declare namespace Legacy { function run(): void; }
        """)
    assert symbols["legacy"].exported and symbols["Legacy.run"].exported
    assert surface.names == {"legacy", "Legacy"}


def test_tsx_component_export():
    symbols, surface = declarations("src/Button.tsx", """
        import React from "react";

        type Props = { label: string; onClick?: () => void };

        /** A clickable button. */
        export const Button = ({ label, onClick }: Props) => (
          <button className="btn" onClick={() => track(label)}>{label}</button>
        );

        export default function App(): JSX.Element {
          return <Layout.Main><Button label="Go" /></Layout.Main>;
        }
        """)
    button = symbols["Button"]
    assert button.exported and button.signature == "const Button = ({ label, onClick }: Props) =>"
    assert button.doc == "A clickable button." and button.calls == ["track"]
    assert (button.line, button.end_line) == (6, 8)
    assert surface.names == {"Button"} and surface.default_export == "App"
    assert symbols["App"].exported and symbols["App"].calls == ["Layout.Main", "Button"]


def test_js_syntax_error_yields_what_parses():
    symbols, surface = declarations("src/broken.js", """
        export function ok(a) { return a; }
        function broken( { return ; ]
        export const later = () => go();
        """)
    assert symbols["ok"].exported and symbols["ok"].signature == "function ok(a)"
    assert "ok" in surface.names


# --- dispatch and query files -------------------------------------------------------------------

def test_other_languages_go_elsewhere():
    data = b"package main\nfunc Main() {}\n"
    symbols, surface = extract_declarations(ParsedFile("main.go", "go", data, parse("go", data)))
    assert [(s.name, s.exported) for s in symbols] == [("Main", True)]  # declarations_other.py's rules
    assert surface.names is None  # package main: a program, not a library


def test_tsx_query_is_typescript_query_plus_jsx():
    from miners.parsing import query_source

    ts = query_source("typescript", "declarations")
    tsx = query_source("tsx", "declarations")  # `; inherits: typescript`, then its own JSX patterns
    assert tsx.startswith(ts) and "jsx_self_closing_element" in tsx[len(ts):]


def test_an_exported_name_bound_to_a_call_is_a_function_of_unknown_shape():
    """lodash: `var add = createMathOperation(...)` then `module.exports = add`."""
    from miners.declarations import extract_declarations
    from miners.facts import ParsedFile
    from miners.parsing import parse

    source = (b"var createMathOperation = require('./_createMathOperation');\n"
              b"/** Adds two numbers. */\n"
              b"var add = createMathOperation(function(a, b) { return a + b; }, 0);\n"
              b"var other = createMathOperation(null, 1);\n"
              b"module.exports = add;\n")
    symbols, surface = extract_declarations(ParsedFile("add.js", "javascript", source, parse("javascript", source)))
    found = {s.name: s for s in symbols}
    assert found["add"].kind == "function" and found["add"].exported and found["add"].line == 3
    assert found["add"].doc == "Adds two numbers." and "parameters are not known" in found["add"].notes[0]
    assert "other" not in found  # not exported: not a candidate of its own
    assert surface.default_export == "add"


def test_js_a_name_exported_under_another_is_known_by_the_exported_one():
    # a bundle's export list (marked, rollup output): users import Renderer, not _Renderer
    syms, surface = declarations("lib/marked.esm.js", """
        class _Renderer {
          code(text) { return text; }
        }
        function _getDefaults() { return {}; }
        function parse(src) { return src; }
        export { _Renderer as Renderer, _getDefaults as getDefaults, parse };
    """)
    assert {"Renderer", "Renderer.code", "getDefaults", "parse"} <= set(syms)
    assert "_Renderer" not in syms and syms["Renderer"].exported and syms["Renderer.code"].exported
    assert "declared as _Renderer" in syms["Renderer"].notes
    assert surface.names >= {"Renderer", "getDefaults", "parse"}


def test_js_commonjs_aliases_and_babels_default_placeholder():
    syms, _ = declarations("lib/api.js", """
        function makeDir(p) { return p; }
        function keep(p) { return p; }
        module.exports = { mkdirs: makeDir, keep };
    """)
    assert "mkdirs" in syms and "makeDir" not in syms and syms["mkdirs"].exported
    assert syms["keep"].exported
    # Babel's `var _default = ...; exports.default = _default`: the default export, named by the default's rule
    syms, surface = declarations("dist/md5.js", """
        function md5(bytes) { return bytes; }
        var _default = md5;
        exports.default = _default;
    """)
    assert "default" in syms and "_default" not in syms and "default" in surface.names
    # a named class exported as the default keeps its own name
    syms, _ = declarations("dist/2019.js", """
        class Ajv2019 {}
        module.exports = exports = Ajv2019;
        exports.default = Ajv2019;
    """)
    assert "Ajv2019" in syms and "default" not in syms


@pytest.mark.parametrize(("language", "source"), [
    ("python", (b"import os\nfrom a import b as c\n__all__ = ['f']\n__all__ += ['C']\n\n@dec\ndef f(x):\n    g(x)\n\n"
               b"class C(B):\n    def m(self):\n        if x:\n            def inner(): pass\n\nif True:\n"
               b"    def conditional(): pass\n")),
    ("javascript", (b"export const a = 1;\nexport default foo;\nexport { x as y };\nexport * from './m';\n"
                   b"export { z } from './z';\nfunction f() { if (q) { exports.k = 1; } g(); }\n"
                   b"module.exports = { a };\nclass K { m() {} }\n")),
    ("typescript", (b"export declare function f(): void;\nexport = g;\ndeclare module 'x' { export function h(): void; }\n"
                   b"export { T as U } from './t';\nnamespace N { export const v = 1; }\n")),
    ("rust", b"pub use crate::a::{B, C as D};\npub fn f() { g(); }\nmod m { pub use super::x; }\n"),
])
def test_the_split_query_pass_finds_each_concerns_own_matches(language, source):
    """Root-anchored patterns run as their own query, limited to start at the root (tree-sitter tries
    them at every node otherwise): each concern still gets exactly the matches of its own query."""
    from miners import parsing

    parsed = ParsedFile("x", language, source, parse(language, source))
    _deep, rooted, _ = parsing.combined(language)
    assert rooted is not None and rooted.pattern_count > 0  # the split is in force for this language
    for concern in parsing.concerns(language):
        own = parsing.matches(language, concern, parsed.tree.root_node)
        shared = parsing.file_matches(parsed, concern)

        def key(match):
            return sorted((name, [(n.start_byte, n.end_byte, n.type) for n in nodes]) for name, nodes in match[1].items())
        assert sorted(map(key, shared)) == sorted(map(key, own)), concern
        assert len(shared) == len(own) > 0


def test_every_language_with_queries_runs_them_as_one_combined_pass():
    """combined() compiles only the merged queries and gives up (one query per concern, slower but
    right) when a piece is not exactly one pattern: every shipped language must stay combined."""
    from miners import parsing

    for language in sorted(p.name for p in parsing.QUERIES.iterdir() if p.is_dir() and p.name != "declared"):
        found = parsing.combined(language)
        assert found is not None, language
        deep, rooted, owners = found
        assert deep.query is not None and deep.query.pattern_count == deep.pattern_count, language
        assert deep.pattern_count + (rooted.pattern_count if rooted else 0) == len(owners) > 0, language
        # every pattern of every concern's file has its place in the merged queries
        mine = {(concern, i) for pattern in owners for concern, i in pattern}
        for concern in parsing.concerns(language):
            assert {i for c, i in mine if c == concern} == set(range(parsing.query(language, concern).pattern_count))


def test_a_merged_query_that_does_not_compile_to_its_patterns_is_not_used():
    from miners import parsing

    assert parsing._Deep("python", "((call) @c", 1).query is None  # does not compile
    assert parsing._Deep("python", "(call) @c (string) @s", 1).query is None  # two patterns, not one
    assert parsing._Deep("python", "(call) @c", 1).query.pattern_count == 1


def test_block_comment_ends_come_off_as_the_regex_took_them():
    import itertools
    import re

    from miners.declarations import _comment_body

    ends = re.compile(r"^/\*+|\*+/$")
    for n in range(7):
        for chars in itertools.product("/*a \n", repeat=n):
            text = "".join(chars)
            assert _comment_body(text) == ends.sub("", text), repr(text)


def test_a_docstrings_first_paragraph_is_cleandocs():
    import inspect
    import random

    from miners.declarations import _first_paragraph

    def reference(text: str) -> str:
        para = inspect.cleandoc(text).strip().split("\n\n", 1)[0]
        return " ".join(line.strip() for line in para.splitlines()).strip()

    rng = random.Random(5)
    pieces = ["word", " ", "  ", "\n", "\n\n", "\n    ", "\n  \n", "\t", "\r", "é", "\u2028", "\x0c", "\xa0",
              "\x85", "Args:", "-"]
    for _ in range(50000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        assert _first_paragraph(text) == reference(text), repr(text)



@pytest.mark.parametrize("path", ["box.js", "box.ts"])
def test_js_class_members_are_named_as_code_calls_them(path):
    symbols, _ = declarations(path, """
        export class Box {
          get(k) { return k; }
          'has-key'(k) { return true; }
          ["drop"](k) {}
          [Symbol.iterator]() {}
          [(_a = new WeakMap(), _b = new WeakMap(), kX)](argv) {}
          run = () => 1;
        }
        """)
    # computed names (a symbol, a bundler's WeakMap initialisers) are no name a caller writes
    assert sorted(n for n, s in symbols.items() if s.kind == "method") == ["Box.drop", "Box.get", "Box.has-key",
                                                                          "Box.run"]
