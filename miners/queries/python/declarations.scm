; Declarations and module surface of a Python file (miners/declarations.py reads the captures).
; Only module-level definitions and the methods of module-level classes are declarations: nested
; functions are implementation detail, reached only through their enclosing symbol.

; def / async def at module level, decorated or not
(module (function_definition name: (identifier) @name) @function)
(module (decorated_definition definition: (function_definition name: (identifier) @name) @function))

; class at module level, decorated or not
(module (class_definition name: (identifier) @name) @class)
(module (decorated_definition definition: (class_definition name: (identifier) @name) @class))

; methods (defs directly in the body of a module-level class) are read from the class's body by
; declarations.py: a pattern for them cost a quarter of the file's whole query pass

; calls anywhere: foo(...), obj.method(...); attributed to symbols by byte span
(call) @call  ; the same pattern as surfaces.scm: one match serves both

; __all__ = [...] / (...), __all__ += [...], __all__.extend([...]) / .append("x")
(module (assignment left: (identifier) @_target right: (_) @all.value) (#eq? @_target "__all__"))
(module (augmented_assignment left: (identifier) @_target right: (_) @all.value) (#eq? @_target "__all__"))
(module (call
  function: (attribute object: (identifier) @_target attribute: (identifier) @_method)
  arguments: (argument_list . (_) @all.value .))
  (#eq? @_target "__all__") (#any-of? @_method "extend" "append"))

; module-level imports: re-exports when the module's rules say so
(module (import_from_statement) @import)
(module (import_statement) @import)
