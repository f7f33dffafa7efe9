; Candidate nodes for HTTP routes, cobra commands and mcp-go tools (go).
; The query only collects; miners/surfaces.py resolves receivers, group prefixes and literals.

; http.HandleFunc("/x", h), r.GET("/x", h), v1 := r.Group("/v1"), mcp.NewTool("x", ...)
(call_expression) @call

; &cobra.Command{Use: "serve", Short: "..."}
(composite_literal) @composite

; v1 := r.Group("/v1"); var rootCmd = &cobra.Command{...}
(short_var_declaration) @declarator
(var_spec) @declarator
(assignment_statement) @declarator
(const_spec) @const

(import_spec) @import
