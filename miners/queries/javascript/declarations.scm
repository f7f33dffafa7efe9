; Declarations and module surface of a JavaScript file (miners/declarations.py reads the captures).
; Definitions are matched wherever they are; the Python side keeps those at module level (walking
; up through export/declaration wrappers) and decides what each export form makes public.

; function f() {}, function* g() {}, export [default] function f() {}
[(function_declaration name: (identifier) @name)
 (generator_function_declaration name: (identifier) @name)] @function

; const f = (...) => ..., var g = function () {}: declarations.py keeps the declarators whose value
; is a function (the same pattern as surfaces, so one match serves both; a pattern
; with the value's type in it cost a fifth of the file's query pass)
(variable_declarator) @declarator

; export default function () {} / async () => {} (anonymous: named "default")
(export_statement value: [(function_expression) (generator_function) (arrow_function)] @function)

; class C {}, export default class {}
(class_declaration name: (identifier) @name) @class
(export_statement value: (class) @class)

; members of a class body that can be called: methods, and fields holding functions (handle = () => {})
(class_body [
  (method_definition name: (_) @name)
  (field_definition property: (_) @name value: [(arrow_function) (function_expression)])
] @method)

; calls, `new`, and JSX components used (<Button/>): attributed to symbols by byte span
; (the same patterns as surfaces: one match serves both)
(call_expression) @call
(new_expression) @new
(jsx_opening_element name: [(identifier) (member_expression)] @call (#match? @call "^[A-Z]"))
(jsx_self_closing_element name: [(identifier) (member_expression)] @call (#match? @call "^[A-Z]"))

; --- ESM surface (module level only) ---
; export const a = 1, export function f, export class C: the declared names
(program (export_statement declaration: (_ name: (_) @export.name)))
(program (export_statement declaration: [(lexical_declaration (variable_declarator name: (identifier) @export.name))
                                         (variable_declaration (variable_declarator name: (identifier) @export.name))]))
; export default foo
(program (export_statement value: (identifier) @export.default))
; export { a, b as c } (local bindings)
(program (export_statement (export_clause (export_specifier) @export.local) !source))
; export { x, y as z } from './m'; export * as ns from './m'
(program (export_statement (export_clause (export_specifier) @export.from) source: (string (string_fragment) @source)))
(program (export_statement (namespace_export (_) @export.from) source: (string (string_fragment) @source)))
; export * from './m'
(program (export_statement "*" source: (string (string_fragment) @export.all)))

; f.name = () => ...: a property of a module-level function (picomatch.isMatch, mkdirp.sync) or class
; (a static); declarations.py keeps those at module level whose owner the file defines
(expression_statement (assignment_expression
  left: (member_expression object: (identifier) @member.owner property: (property_identifier) @member.name)
  right: [(function_expression) (arrow_function) (generator_function)] @member.value))

; --- CommonJS surface (anywhere: UMD wrappers assign inside `if`) ---
; module.exports = x | { a, b: c } | function name() {} | require('./m')
(assignment_expression
  left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
  right: (_) @cjs.default
  (#eq? @_module "module") (#eq? @_exports "exports"))
; module.exports.x = ...
(assignment_expression
  left: (member_expression
    object: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
    property: (property_identifier) @cjs.name)
  right: (_) @cjs.value
  (#eq? @_module "module") (#eq? @_exports "exports"))
; exports.x = ...
(assignment_expression
  left: (member_expression object: (identifier) @_exports property: (property_identifier) @cjs.name)
  right: (_) @cjs.value
  (#eq? @_exports "exports"))
