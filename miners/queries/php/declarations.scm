; PHP declarations. Functions declared inside `if (!function_exists(...))` are still top level.
(function_definition name: (name) @name body: (compound_statement) @body) @function
(method_declaration name: (name) @name body: (compound_statement)? @body) @function
(class_declaration name: (name) @name body: (declaration_list) @body) @class
(interface_declaration name: (name) @name body: (declaration_list) @body) @class
(trait_declaration name: (name) @name body: (declaration_list) @body) @class
(enum_declaration name: (name) @name body: (enum_declaration_list) @body) @class
(anonymous_class) @opaque
