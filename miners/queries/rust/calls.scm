(call_expression function: (_) @callee)
; macros keep their "!": println!, include_str!, env!
(macro_invocation macro: (_) @callee "!" @callee.end)
