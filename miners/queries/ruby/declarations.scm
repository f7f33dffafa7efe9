; Ruby declarations. `class << self` is transparent: its methods are the enclosing class's
; singleton methods. Visibility sections (private/protected/module_function) are read in Python.
(method name: (_) @name body: (_)? @body) @function
(singleton_method object: (_) @receiver name: (_) @name body: (_)? @body) @function
(class name: (_) @name body: (_)? @body) @class
(module name: (_) @name body: (_)? @body) @class
