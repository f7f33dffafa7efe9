; Go declarations. @function: functions, methods (with @receiver) and interface method specs;
; @class: every named type except aliases (`type ID = string` is a type_alias, not a type_spec).
(function_declaration name: (identifier) @name body: (block)? @body) @function
(method_declaration receiver: (parameter_list) @receiver name: (field_identifier) @name body: (block)? @body) @function
(method_elem name: (field_identifier) @name) @function
(type_spec name: (type_identifier) @name) @class
; `package main` makes the file part of a program, not an importable package
(package_clause (package_identifier) @package)
