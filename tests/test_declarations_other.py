"""miners/declarations_other.py: declarations of Go, Rust, Java, Kotlin, C#, Ruby, PHP and Swift files,
parsed for real with the bundled tree-sitter grammars."""

from __future__ import annotations

import textwrap

import pytest

from miners.declarations_other import extract_declarations
from miners.facts import ModuleSurface, ParsedFile, Symbol
from miners.parsing import parse


def extract(language: str, path: str, source: str) -> tuple[dict[str, Symbol], ModuleSurface, str]:
    text = textwrap.dedent(source).lstrip("\n")
    data = text.encode()
    symbols, surface = extract_declarations(ParsedFile(path, language, data, parse(language, data)))
    names = [s.name for s in symbols]
    assert len(names) == len(set(names)), f"duplicate symbols: {names}"
    return {s.name: s for s in symbols}, surface, text


def line(text: str, needle: str) -> int:
    """1-based line of the first occurrence of needle in the sample."""
    assert needle in text, needle
    return text[:text.index(needle)].count("\n") + 1


# -- Go ---------------------------------------------------------------------------------------------

GO_LIB = """
package store

import "os"

// Open opens the store at path.
//
// It creates nothing.
func Open(path string) (*Store, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return newStore(f), nil
}

func newStore(f *os.File) *Store { return &Store{f: f} }

// Store keeps things.
type Store struct{ f *os.File }

type cursor struct{}

type ID = string

//go:generate stringer -type=Mode
// Mode is how a store opens.
type Mode int

// Get reads one key.
func (s *Store) Get(key string) ([]byte, error) {
	return s.read(key)
}

func (s *Store) read(key string) ([]byte, error) { return os.ReadFile(key) }

func (c cursor) Next() bool { return false }
"""


def test_go_capitalised_names_are_exported_and_methods_need_an_exported_receiver():
    symbols, surface, text = extract("go", "store/store.go", GO_LIB)
    assert set(symbols) == {"Open", "newStore", "Store", "cursor", "Mode", "Store.Get", "Store.read", "cursor.Next"}
    assert "ID" not in symbols  # a type alias is not a type of its own
    exported = {name for name, s in symbols.items() if s.exported}
    assert exported == {"Open", "Store", "Mode", "Store.Get"}  # cursor.Next: capitalised, on an unexported type
    assert surface.names == {"Open", "Store", "Mode"}

    open_ = symbols["Open"]
    assert open_.kind == "function"
    assert open_.signature == "func Open(path string) (*Store, error)"
    assert open_.doc == "Open opens the store at path."
    assert (open_.line, open_.end_line) == (line(text, "func Open"), line(text, "func newStore") - 2)
    assert text.encode()[open_.start_byte:open_.end_byte].startswith(b"{\n\tf, err := os.Open(path)")
    assert open_.calls == ["os.Open", "newStore"]

    get = symbols["Store.Get"]
    assert (get.kind, get.container) == ("method", "Store")
    assert get.signature == "func (s *Store) Get(key string) ([]byte, error)"
    assert get.doc == "Get reads one key."
    assert get.calls == ["Store.read"]  # through the receiver variable, named as the method is
    assert symbols["Store"].signature == "type Store struct"
    assert symbols["Store"].doc == "Store keeps things."
    assert symbols["Mode"].doc == "Mode is how a store opens."  # the //go: directive is not documentation
    assert symbols["Mode"].signature == "type Mode int"


def test_go_package_main_under_cmd_is_a_program():
    symbols, surface, _ = extract("go", "cmd/storectl/main.go", """
        package main

        import "fmt"

        func main() {
            run()
        }

        func run() { fmt.Println("hi") }
        """)
    assert surface.names is None
    assert symbols["main"].notes == ["main package"]
    assert symbols["main"].calls == ["run"]
    assert symbols["run"].notes == []
    assert symbols["run"].calls == ["fmt.Println"]


# -- Rust -------------------------------------------------------------------------------------------

RUST_LIB = """
//! The config crate.
pub use crate::parse::{parse_str, Error as ParseError};
pub use std::fs::read;
pub use self::formats::*;
pub(crate) use crate::cache::Cache;
use std::io;

/// Loads a config file.
///
/// Details that are not the summary.
#[inline]
pub fn load(path: &str) -> io::Result<Config> {
    let text = std::fs::read_to_string(path)?;
    println!("{}", text);
    Ok(Config::from_text(&text))
}

pub(crate) fn crate_only() {}

fn private_helper() {}

/// A parsed configuration.
pub struct Config {
    pub name: String,
}

struct Hidden;

impl Config {
    /// Builds one from text.
    pub fn from_text(text: &str) -> Config {
        Self::check(text);
        Config { name: text.to_owned() }
    }

    fn check(text: &str) {}
}

impl Hidden {
    pub fn visible_name_only() {}
}

impl std::fmt::Display for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result { write!(f, "{}", self.name) }
}

mod internal {
    pub fn unreachable() {}
}
"""


def test_rust_pub_items_impl_methods_and_reexports():
    symbols, surface, text = extract("rust", "src/lib.rs", RUST_LIB)
    exported = {name for name, s in symbols.items() if s.exported}
    assert exported == {"load", "Config", "Config.from_text", "Config.fmt"}
    assert not symbols["crate_only"].exported  # pub(crate) is not public
    assert not symbols["Hidden.visible_name_only"].exported  # pub fn on a private type
    assert not symbols["Config.check"].exported
    assert not symbols["unreachable"].exported  # pub inside a private inline module

    assert surface.reexports == [("parse_str", "crate::parse"), ("ParseError", "crate::parse"), ("read", "std::fs")]
    assert surface.export_all_from == ["self::formats"]
    assert surface.names == {"load", "Config", "parse_str", "ParseError", "read"}

    load = symbols["load"]
    assert load.signature == "pub fn load(path: &str) -> io::Result<Config>"
    assert load.doc == "Loads a config file."  # found above the #[inline] attribute
    assert (load.line, load.end_line) == (line(text, "pub fn load"), line(text, "pub(crate) fn") - 2)
    assert load.calls == ["std::fs::read_to_string", "println!", "Ok", "Config.from_text"]
    from_text = symbols["Config.from_text"]
    assert (from_text.kind, from_text.container, from_text.doc) == ("method", "Config", "Builds one from text.")
    assert from_text.calls == ["Config.check", "text.to_owned"]
    assert symbols["Config"].notes == ["struct"]
    assert symbols["Config"].signature == "pub struct Config"


# -- Java -------------------------------------------------------------------------------------------

JAVA = """
package com.acme.files;

import java.nio.file.Files;

/**
 * Reads files for the tools.
 *
 * <p>Thread-safe.
 */
@Deprecated
public class FileReader {
    private final String root;

    public FileReader(String root) { this.root = root; }

    /** Reads {@code path} under the root. */
    @Override
    public String read(String path) throws java.io.IOException {
        return new String(Files.readAllBytes(resolve(path)));
    }

    java.nio.file.Path resolve(String path) { return java.nio.file.Paths.get(root, path); }
}

class Helper {
    public void help() {}
}

public interface Source {
    String fetch(String key);
}
"""


def test_java_public_classes_and_their_public_methods():
    symbols, _, text = extract("java", "src/main/java/com/acme/files/FileReader.java", JAVA)
    exported = {name for name, s in symbols.items() if s.exported}
    assert exported == {"FileReader", "FileReader.FileReader", "FileReader.read", "Source", "Source.fetch"}
    assert not symbols["FileReader.resolve"].exported  # package-private
    assert not symbols["Helper.help"].exported  # public method of a package-private class

    cls = symbols["FileReader"]
    assert cls.doc == "Reads files for the tools."
    assert cls.signature == "public class FileReader"
    assert cls.line == line(text, "public class FileReader")
    read = symbols["FileReader.read"]
    assert read.signature == "public String read(String path) throws java.io.IOException"  # no @Override
    assert read.doc == "Reads path under the root."
    assert (read.line, read.end_line) == (line(text, "public String read"), line(text, "java.nio.file.Path") - 2)
    assert read.calls == ["String", "Files.readAllBytes", "FileReader.resolve"]
    assert symbols["FileReader.FileReader"].notes == ["constructor"]
    assert symbols["Source"].notes == ["interface"]
    assert symbols["Source.fetch"].signature == "String fetch(String key)"


# -- Kotlin -----------------------------------------------------------------------------------------

KOTLIN = """
package com.acme.http

import java.net.URL

/**
 * Fetches a page.
 *
 * @param url where from
 */
fun fetch(url: String): String = URL(url).readText()

private fun log(message: String) { println(message) }

internal fun moduleOnly() {}

/** A small HTTP client. */
class Client(private val base: String) {
    fun get(path: String): String {
        log(path)
        return fetch(base + path)
    }

    protected fun retry() {}

    companion object {
        fun default(): Client = Client("https://example.com")
    }
}

internal class Pool { fun take() {} }

object Registry { fun register(client: Client) {} }
"""


def test_kotlin_public_by_default():
    symbols, surface, text = extract("kotlin", "src/main/kotlin/Client.kt", KOTLIN)
    exported = {name for name, s in symbols.items() if s.exported}
    assert exported == {"fetch", "Client", "Client.get", "Client.default", "Registry", "Registry.register"}
    assert {"log", "moduleOnly", "Client.retry", "Pool", "Pool.take"} <= set(symbols)
    assert surface.names == {"fetch", "Client", "Registry"}

    fetch = symbols["fetch"]
    # the grammar files this KDoc inside the import list: it is still the function's doc
    assert fetch.doc == "Fetches a page."
    assert fetch.signature == "fun fetch(url: String): String"
    assert fetch.line == line(text, "fun fetch")
    assert fetch.calls == ["URL", "URL().readText"]
    assert symbols["Client"].doc == "A small HTTP client."
    assert symbols["Client"].signature == "class Client(private val base: String)"
    assert symbols["Client.default"].container == "Client"  # a companion object's function
    assert symbols["Client.get"].calls == ["log", "fetch"]
    assert symbols["Registry"].notes == ["object"]


# -- C# ---------------------------------------------------------------------------------------------

CSHARP = """
using System.IO;

namespace Acme.Tools
{
    /// <summary>
    /// Reads text files.
    /// </summary>
    [Serializable]
    public class TextReader : IReader
    {
        /// <summary>Reads all of <paramref name="path"/>.</summary>
        /// <param name="path">The file.</param>
        public static string ReadAll(string path) => File.ReadAllText(path);

        internal void Reset() { }

        void Log(string line) { Console.WriteLine(line); }

        public TextReader() { this.Log("new"); }
    }

    class Internal { public void Run() { } }

    public interface IReader { string Read(); }

    public struct Span { public int Length() { return 0; } }
}
"""


def test_csharp_public_types_and_members():
    symbols, _, text = extract("csharp", "src/TextReader.cs", CSHARP)
    exported = {name for name, s in symbols.items() if s.exported}
    assert exported == {"TextReader", "TextReader.ReadAll", "TextReader.TextReader", "IReader", "IReader.Read",
                        "Span", "Span.Length"}
    assert not symbols["TextReader.Log"].exported  # members default to private
    assert not symbols["Internal.Run"].exported  # types default to internal

    cls = symbols["TextReader"]
    assert cls.doc == "Reads text files."
    assert cls.signature == "public class TextReader : IReader"  # without [Serializable]
    assert cls.line == line(text, "public class TextReader")
    read_all = symbols["TextReader.ReadAll"]
    assert read_all.signature == "public static string ReadAll(string path)"
    assert read_all.doc == "Reads all of path."  # <paramref name="path"/> read as path
    assert read_all.calls == ["File.ReadAllText"]
    assert symbols["TextReader.TextReader"].calls == ["TextReader.Log"]
    assert symbols["Span"].notes == ["struct"]


# -- Ruby -------------------------------------------------------------------------------------------

RUBY = """
require "json"

# Loads settings from a file.
#
# Returns a Hash.
def load_settings(path)
  JSON.parse(File.read(path))
end

module Acme
  module Util
    module_function

    # Turns text into a slug.
    def slugify(text) = text.downcase

    def helper_too; end
  end

  class Runner < Base
    attr_reader :name

    def initialize(name)
      @name = name
    end

    def self.build(opts = {})
      new(opts.fetch(:name))
    end

    def run
      prepare
      system("make")
    end

    private

    def prepare; end

    protected

    def compare(other)
      other.name
    end

    public

    def status; end

    def legacy; end
    private :legacy

    # Cleans up.
    private def cleanup
      FileUtils.rm_rf(@name)
    end

    def self.hidden_factory; end
    private_class_method :hidden_factory

    class << self
      def configure; end

      private

      def secret_config; end
    end
  end
end
"""


def test_ruby_private_sections_and_module_function():
    symbols, surface, text = extract("ruby", "lib/acme/runner.rb", RUBY)
    exported = {name for name, s in symbols.items() if s.exported}
    private = {name for name, s in symbols.items() if not s.exported}
    assert private == {"Runner.prepare", "Runner.compare", "Runner.legacy", "Runner.cleanup",
                       "Runner.hidden_factory", "Runner.secret_config"}
    assert {"load_settings", "Acme", "Util", "Util.slugify", "Util.helper_too", "Runner", "Runner.initialize",
            "Runner.build", "Runner.run", "Runner.status", "Runner.configure"} == exported
    assert symbols["load_settings"].kind == "function"
    assert surface.names == {"load_settings", "Acme"}

    assert symbols["load_settings"].doc == "Loads settings from a file."
    assert symbols["load_settings"].signature == "def load_settings(path)"
    assert (symbols["load_settings"].line, symbols["load_settings"].end_line) == (
        line(text, "def load_settings"), line(text, "def load_settings") + 2)
    assert symbols["load_settings"].calls == ["JSON.parse", "File.read"]
    assert symbols["Util.slugify"].notes == ["module_function"]
    assert symbols["Util.slugify"].signature == "def slugify(text)"
    assert symbols["Util.slugify"].doc == "Turns text into a slug."
    assert symbols["Runner.prepare"].signature == "def prepare"
    assert symbols["Runner.build"].notes == ["singleton"]
    assert symbols["Runner.configure"].notes == ["singleton"]
    assert symbols["Runner.cleanup"].doc == "Cleans up."
    assert symbols["Runner.run"].calls == ["Runner.prepare", "system"]  # a bare name is a call too
    assert symbols["Runner"].calls == []  # attr_reader, private, private_class_method declare


# -- PHP --------------------------------------------------------------------------------------------

PHP = """
<?php
namespace App\\Http;

/**
 * Fetches a URL.
 *
 * @param string $url
 */
function fetch(string $url): string
{
    return file_get_contents($url);
}

#[Service]
final class Client
{
    /**
     * Creates a client.
     * @param string $base the API root
     */
    public function __construct(private string $base) {}

    function get(string $path): string
    {
        return $this->send('GET', $path);
    }

    private function send(string $method, string $path): string
    {
        return \\curl_exec(self::handle());
    }

    protected static function handle() { return curl_init(); }
}
"""


def test_php_functions_and_methods_public_unless_private_or_protected():
    symbols, surface, text = extract("php", "src/Http/Client.php", PHP)
    exported = {name for name, s in symbols.items() if s.exported}
    assert exported == {"fetch", "Client", "Client.__construct", "Client.get"}
    assert surface.names == {"fetch", "Client"}
    fetch = symbols["fetch"]
    assert fetch.doc == "Fetches a URL."
    assert fetch.signature == "function fetch(string $url): string"
    assert (fetch.line, fetch.end_line) == (line(text, "function fetch"), line(text, "function fetch") + 3)
    assert symbols["Client"].signature == "final class Client"  # without #[Service]
    assert symbols["Client.__construct"].doc == "Creates a client."
    assert symbols["Client.__construct"].notes == ["constructor"]
    assert symbols["Client.get"].signature == "function get(string $path): string"
    assert symbols["Client.get"].calls == ["Client.send"]
    assert symbols["Client.send"].calls == ["curl_exec", "Client.handle"]


# -- Swift ------------------------------------------------------------------------------------------

SWIFT = """
import Foundation

/// Downloads data.
///
/// Blocks the caller.
public func download(from url: URL) throws -> Data {
    return try Data(contentsOf: url)
}

func internalHelper() {}

/// A cache of pages.
@available(macOS 12, *)
open class PageCache {
    public init(limit: Int) {}
    open func page(_ key: String) -> Data? { return lookup(key) }
    func lookup(_ key: String) -> Data? { nil }
    private func evict() {}
}

struct Internal { public func run() {} }

public protocol Store { func save() }

public extension PageCache {
    func clear() {}
}
"""


def test_swift_public_and_open_are_exported():
    symbols, surface, text = extract("swift", "Sources/Cache/PageCache.swift", SWIFT)
    exported = {name for name, s in symbols.items() if s.exported}
    assert exported == {"download", "PageCache", "PageCache.init", "PageCache.page", "Store", "Store.save",
                        "PageCache.clear"}
    assert not symbols["internalHelper"].exported  # internal by default
    assert not symbols["Internal.run"].exported  # public member of an internal type
    assert surface.names == {"download", "PageCache", "Store"}
    download = symbols["download"]
    assert download.doc == "Downloads data."
    assert download.signature == "public func download(from url: URL) throws -> Data"
    assert download.line == line(text, "public func download")
    assert download.end_line == line(text, "func internalHelper") - 2
    assert download.calls == ["Data"]
    cache = symbols["PageCache"]
    assert cache.doc == "A cache of pages."
    assert cache.signature == "open class PageCache"
    assert cache.line == line(text, "open class")
    assert symbols["PageCache.page"].calls == ["PageCache.lookup"]
    assert symbols["PageCache.init"].notes == ["constructor"]


# -- robustness -------------------------------------------------------------------------------------

BROKEN = {
    "go": ("x.go", "package x\n\nfunc Good() int { return 1 }\n\nfunc Bad( {\n", "Good"),
    "rust": ("x.rs", "pub fn good() -> u8 { 1 }\n\npub fn bad(x: { let = ; }\n", "good"),
    "java": ("X.java", "public class X {\n  public void good() {}\n  public void bad( {\n}\n", "good"),
    "kotlin": ("x.kt", "fun good() = 1\n\nfun bad(: Int {\n", "good"),
    "csharp": ("x.cs", "public class X {\n  public void Good() {}\n  public void Bad( {\n}\n", "Good"),
    "ruby": ("x.rb", "def good\n  1\nend\n\ndef bad(\n  x +\n", "good"),
    "php": ("x.php", "<?php\nfunction good() { return 1; }\nfunction bad( { \n", "good"),
    "swift": ("x.swift", "public func good() -> Int { 1 }\n\nfunc bad( {\n", "good"),
}


@pytest.mark.parametrize("language", sorted(BROKEN))
def test_a_syntax_error_still_yields_the_declarations_before_it(language: str):
    path, source, good = BROKEN[language]
    data = source.encode()
    tree = parse(language, data)
    assert tree.root_node.has_error
    symbols, _ = extract_declarations(ParsedFile(path, language, data, tree))
    # error recovery may lose the enclosing class (C#): the method is still there, by its own name
    found = {s.name.split(".")[-1]: s for s in symbols}
    assert good in found
    assert found[good].line == 1 + source[:source.index(good)].count("\n")


def test_other_languages_are_left_to_other_extractors():
    data = b"def f():\n    pass\n"
    assert extract_declarations(ParsedFile("f.py", "python", data, parse("python", data))) == ([], ModuleSurface())
