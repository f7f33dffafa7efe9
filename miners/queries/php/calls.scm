(function_call_expression function: (_) @callee)
(member_call_expression name: (_) @callee.end) @callee
(nullsafe_member_call_expression name: (_) @callee.end) @callee
(scoped_call_expression name: (_) @callee.end) @callee
(object_creation_expression [(name) (qualified_name)] @callee)
