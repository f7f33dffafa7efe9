; inherits: javascript
; TypeScript: the JavaScript effects patterns apply as they are.
