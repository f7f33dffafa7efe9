; App capability declarations (miners/app_capabilities.py reads the captures). Compiled on its own
; for the TypeScript, TSX and JavaScript grammars: it is not part of the miner's combined pass, so
; it costs nothing for files that never mention defineCapabilities.

; defineCapabilities({...}), defineApp({...}), cloud.defineCapabilities<T>({...}): the first argument
(call_expression
  function: [(identifier) @callee (member_expression property: (property_identifier) @callee)]
  arguments: (arguments . (_) @argument)
  (#any-of? @callee "defineCapabilities" "defineApp")) @call

; module-level `const X = ...` and `export const X = ...`: Zod schemas, entries and ids named once
(program (lexical_declaration "const" (variable_declarator name: (identifier) @const.name value: (_) @const.value)))
(program (export_statement declaration: (lexical_declaration "const"
  (variable_declarator name: (identifier) @const.name value: (_) @const.value))))

; import { a, b as c } from "m" / import d from "m" / import * as z from "m": where a name comes from
(import_statement (import_clause (named_imports (import_specifier name: (identifier) @import.name
  !alias))) source: (string) @import.source)
(import_statement (import_clause (named_imports (import_specifier alias: (identifier) @import.name)))
  source: (string) @import.source)
(import_statement (import_clause (identifier) @import.name) source: (string) @import.source)
(import_statement (import_clause (namespace_import (identifier) @import.name)) source: (string) @import.source)
