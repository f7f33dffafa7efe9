"""Resources a service names in its own configuration file: Scrapyd's `default_scrapyd.conf`
lists its web services,

    [services]
    schedule.json = scrapyd.webservice.Schedule

and its code mounts one child per entry (`for name, cls in config.items("services"):
self.putChild(name.encode(), load_object(cls)(self))`). The code names the section; the shipped
file gives the entries. Each placeholder surfaces.py left for such a loop becomes one resource
placeholder per entry, resolved like any other (miners/resource_routes.py): an entry whose class
the tree does not define gives nothing, and so does a section no shipped file has.
"""

from __future__ import annotations

import configparser
import re
from collections.abc import Callable

from .coverage import set_aside
from .facts import FileFacts, Surface

_SUFFIXES = (".conf", ".cfg", ".ini")
_MAX_BYTES = 256 * 1024
_DOTTED = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$")


def expand_config_children(facts: dict[str, FileFacts], sizes: dict[str, int], read: Callable[[str], bytes]) -> None:
    wanted = {s.detail["config_section"] for f in facts.values() for s in f.surfaces if "config_section" in s.detail}
    if not wanted:
        return
    entries = _entries(wanted, sizes, read)
    for f in facts.values():
        if not any("config_section" in s.detail for s in f.surfaces):
            continue
        out: list[Surface] = []
        for surface in f.surfaces:
            if "config_section" not in surface.detail:
                out.append(surface)
                continue
            for key, value, where in entries.get(surface.detail["config_section"], []):
                path = "/" + key
                out.append(Surface(kind="http-route", name=f"* {path}", line=surface.line, end_line=surface.end_line,
                                   framework=surface.framework, handler=value.rsplit(".", 1)[1],
                                   detail={"method": "*", "path": path, "resource": value.rsplit(".", 1)[1],
                                           "resource_import": value, "receiver": surface.detail["receiver"],
                                           "config_from": list(where)}))
        f.surfaces = out


def _entries(wanted: set[str], sizes: dict[str, int],
             read: Callable[[str], bytes]) -> dict[str, list[tuple[str, str, tuple[str, int]]]]:
    """{section: [(key, dotted class, (file, line))]} from the tree's configuration files, the first
    file (by path) that has the section giving it."""
    out: dict[str, list[tuple[str, str, tuple[str, int]]]] = {}
    for path in sorted(p for p, size in sizes.items()
                       if p.endswith(_SUFFIXES) and size <= _MAX_BYTES and not set_aside(p)):
        text = read(path).decode("utf-8", "replace")
        if not any(f"[{section}]" in text for section in wanted - set(out)):
            continue
        config = configparser.RawConfigParser(strict=False, interpolation=None)
        config.optionxform = str  # type: ignore[assignment,method-assign]
        try:
            config.read_string(text, source=path)
        except configparser.Error:
            continue
        lines = text.splitlines()
        for section in sorted(wanted - set(out)):
            if not config.has_section(section):
                continue
            start = next((n for n, line in enumerate(lines) if line.strip() == f"[{section}]"), 0)
            found = []
            for key, value in config.items(section):
                value = value.strip()
                if not _DOTTED.match(value) or "/" in key or not key.strip():
                    continue
                line = next((n + 1 for n in range(start, len(lines)) if lines[n].lstrip().startswith(key)), start + 1)
                found.append((key.strip(), value, (path, line)))
            out[section] = found
    return out
