; C# declarations. Namespaces are transparent; local functions are part of their method.
(method_declaration name: (identifier) @name body: (_)? @body) @function
(constructor_declaration name: (identifier) @name body: (_)? @body) @function
(class_declaration name: (identifier) @name body: (declaration_list)? @body) @class
(struct_declaration name: (identifier) @name body: (declaration_list)? @body) @class
(interface_declaration name: (identifier) @name body: (declaration_list)? @body) @class
(record_declaration name: (identifier) @name body: (declaration_list)? @body) @class
(enum_declaration name: (identifier) @name body: (enum_member_declaration_list)? @body) @class
