"""What one Python import statement binds, read from its tree-sitter node (shared by the
extractors that resolve names through a file's imports)."""

from __future__ import annotations

from collections.abc import Callable
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


Loaded = dict[str, "tuple[ParsedFile, dict[str, str]] | None"]


def load_module(path: str, read: Callable[[str], bytes], loaded: Loaded) -> tuple[ParsedFile, dict[str, str]] | None:
    """A Python module parsed again in assembly, with {local name: dotted name} of its top-level
    imports; cached in `loaded` (None for a file that does not read or parse)."""
    from miners import parsing

    if path not in loaded:
        try:
            data = read(path)
            pf = ParsedFile(path, "python", data, parsing.parse("python", data))
        except Exception:  # noqa: BLE001 - a file analysed once already; failing here adds nothing
            loaded[path] = None
            return None
        names: dict[str, str] = {}
        for node in pf.tree.root_node.named_children:
            if node.type in ("import_statement", "import_from_statement"):
                names.update(python_imports(pf, node)[1])
        loaded[path] = (pf, names)
    return loaded[path]
