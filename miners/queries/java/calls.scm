(method_invocation name: (identifier) @callee.end) @callee
(object_creation_expression type: (_) @callee)
