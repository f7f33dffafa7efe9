(call_expression . (_) @callee (call_suffix))
