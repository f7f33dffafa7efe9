(invocation_expression function: (_) @callee)
(object_creation_expression type: (_) @callee)
