; inherits: typescript
; TSX adds JSX to the TypeScript declarations patterns.
; --- TSX only: JSX components used (<Button/>), as calls ---
(jsx_opening_element name: [(identifier) (member_expression)] @call (#match? @call "^[A-Z]"))
(jsx_self_closing_element name: [(identifier) (member_expression)] @call (#match? @call "^[A-Z]"))
