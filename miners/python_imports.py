"""What one Python import statement binds, read from its tree-sitter node (shared by the
extractors that resolve names through a file's imports)."""

from __future__ import annotations

from typing import Any

from miners.facts import ParsedFile


def python_imports(pf: ParsedFile, node: Any) -> tuple[list[str], dict[str, str]]:
    """(modules the statement names, {local name: the dotted name it stands for}).

    `import a.b` names a.b and binds nothing new by alias; `import numpy as np` binds np to numpy;
    `from m import x as y` names m and binds y to m.x."""
    text = pf.text
    if node.type == "import_statement":
        modules, names = [], {}
        for child in node.named_children:
            target = child.child_by_field_name("name") if child.type == "aliased_import" else child
            module = text(target)
            modules.append(module)
            if child.type == "aliased_import":
                names[text(child.child_by_field_name("alias"))] = module
        return modules, names
    module_node = node.child_by_field_name("module_name")
    module = text(module_node) if module_node is not None else ""
    names = {}
    for child in node.children_by_field_name("name"):
        target = child.child_by_field_name("name") if child.type == "aliased_import" else child
        local = text(child.child_by_field_name("alias")) if child.type == "aliased_import" else text(target)
        # `from . import x` is `.x` (the dots are the module; no separator after them)
        names[local] = f"{module}{text(target)}" if module.strip(".") == "" and module else f"{module}.{text(target)}"
    return [module], names
