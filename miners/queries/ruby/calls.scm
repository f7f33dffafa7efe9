; receiver.method / method(args): the callee ends at the method name (never the block)
(call method: (_) @callee.end) @callee
; a bare name as a statement that is not the method's last (its value unused): a call with no arguments
(body_statement (identifier) @callee . (_))
