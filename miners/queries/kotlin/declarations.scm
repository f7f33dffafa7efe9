; Kotlin declarations (this grammar has no field names: children are matched by type).
; Companion objects are transparent: their functions are the enclosing class's.
(function_declaration (simple_identifier) @name (function_body)? @body) @function
; a secondary constructor's block has no node of its own: its statements are the body
(secondary_constructor (statements)? @body) @function
(class_declaration (type_identifier) @name [(class_body) (enum_class_body)]? @body) @class
(object_declaration (type_identifier) @name (class_body)? @body) @class
(object_literal) @opaque
