(call_expression function: (_) @callee)
