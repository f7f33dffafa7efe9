; Java declarations. Anonymous classes (@opaque) hide their methods: they belong to no named type.
(method_declaration name: (identifier) @name body: (block)? @body) @function
(constructor_declaration name: (identifier) @name body: (constructor_body) @body) @function
(compact_constructor_declaration name: (identifier) @name body: (block) @body) @function
(class_declaration name: (identifier) @name body: (class_body) @body) @class
(interface_declaration name: (identifier) @name body: (interface_body) @body) @class
(enum_declaration name: (identifier) @name body: (enum_body) @body) @class
(record_declaration name: (identifier) @name body: (class_body) @body) @class
(object_creation_expression (class_body)) @opaque
