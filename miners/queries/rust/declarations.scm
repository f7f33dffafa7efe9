; Rust declarations. impl blocks only lend their type's name to the methods inside (@container);
; `pub use` is read in Python (@use) for ModuleSurface.reexports.
(function_item name: (identifier) @name body: (block) @body) @function
(function_signature_item name: (identifier) @name) @function
(struct_item name: (type_identifier) @name body: (_)? @body) @class
(enum_item name: (type_identifier) @name body: (_) @body) @class
(union_item name: (type_identifier) @name body: (_) @body) @class
(trait_item name: (type_identifier) @name body: (declaration_list) @body) @class
(impl_item type: (_) @name body: (declaration_list)? @body) @container
(source_file (use_declaration (visibility_modifier) argument: (_) @use) @reexport)
