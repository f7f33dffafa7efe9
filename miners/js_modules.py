"""Where a relative JavaScript/TypeScript import lands among the tree's files, as Node and
TypeScript resolve it: the path as written, with an extension added, as a folder's index file,
and, for TypeScript's ESM style (`import x from "./http.js"` in `http.ts`), the source file of the
output the specifier names."""

from __future__ import annotations

import posixpath
from collections.abc import Container

EXTENSIONS = ("", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".tsx", ".jsx")
_SOURCE_OF = {".js": (".ts", ".tsx"), ".mjs": (".mts",), ".cjs": (".cts",), ".jsx": (".tsx",)}


def js_module_file(files: Container[str], importer: str, specifier: str) -> str | None:
    """The file `specifier` (relative: "./x", "../y/z.js") names from `importer`, or None (a
    package's module, or a file the tree does not have)."""
    if not specifier.startswith("."):
        return None
    base = posixpath.normpath(posixpath.join(posixpath.dirname(importer), specifier))
    for path in [base + ext for ext in EXTENSIONS] + [f"{base}/index{ext}" for ext in EXTENSIONS[1:]]:
        if path in files:
            return path
    stem, ext = posixpath.splitext(base)
    return next((stem + source for source in _SOURCE_OF.get(ext, ()) if stem + source in files), None)
