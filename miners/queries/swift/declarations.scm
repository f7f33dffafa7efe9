; Swift declarations. One node type, class_declaration, covers class/struct/enum/actor/extension:
; an extension only lends its type's name to the methods inside (@container).
(function_declaration name: (simple_identifier) @name body: (function_body)? @body) @function
(init_declaration body: (function_body)? @body) @function
(protocol_function_declaration name: (simple_identifier) @name) @function
(class_declaration "extension" name: (_) @name body: (_)? @body) @container
(class_declaration ["class" "struct" "enum" "actor"] name: (type_identifier) @name body: (_)? @body) @class
(protocol_declaration name: (type_identifier) @name body: (protocol_body) @body) @class
