; inherits: javascript
; TypeScript adds enums to the JavaScript surfaces patterns.
; enum Tools { SEARCH = "search" }: tool names are often enum members
(enum_declaration) @enum
