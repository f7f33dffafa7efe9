"""A NetBox plugin's mount (a Nautobot app's too): NetBox serves a plugin's `urls.py` patterns under
`/plugins/<base_url>/` and its `api/urls.py` patterns under `/api/plugins/<base_url>/`, the
`base_url` its PluginConfig gives (its `name` without one),

    from netbox.plugins import PluginConfig

    class CertificatesConfig(PluginConfig):
        name = "netbox_certificates"
        base_url = "ssl-certificates"

so assembly serves the Django routes of the plugin's package there: those of its `api/` package
under the API's base, the others under the UI's. A package with no such config, or with two,
keeps its routes as written.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from typing import Any

from .facts import FileFacts
from .mounts import under

_CONFIG = re.compile(rb"^class\s+\w+\s*\(\s*(?:[\w.]+\.)?(?:PluginConfig|NautobotAppConfig)\s*\)\s*:", re.MULTILINE)
# (Nautobot's apps, `from nautobot.apps import NautobotAppConfig`, are served the same way)
_IMPORT = re.compile(rb"^\s*from\s+(?:(?:netbox|extras|nautobot\.extras)\.plugins\s+import\b[^\n]*\bPluginConfig|"
                     rb"nautobot\.apps\s+import\b[^\n]*\bNautobotAppConfig)\b", re.MULTILINE)
_FIELD = re.compile(rb"^[ \t]+(name|base_url)[ \t]*=[ \t]*(['\"])([\w.-]+)\2", re.MULTILINE)
_DJANGO = ("django", "django-rest-framework")


def apply_netbox_plugin(facts: dict[str, FileFacts], read: Callable[[str], bytes]) -> None:
    """Serve a NetBox plugin package's Django routes under NetBox's plugin paths."""
    if not any(s.kind == "http-route" and s.framework in _DJANGO for f in facts.values() for s in f.surfaces):
        return
    configs = [found for path in facts if path.endswith("__init__.py") and (found := _config(path, read))]
    if len(configs) != 1:
        return
    where, line, package, base = configs[0]
    for path, f in facts.items():
        if not path.startswith(package + "/"):
            continue
        api = path.startswith(package + "/api/")
        prefix = f"/api/plugins/{base}" if api else f"/plugins/{base}"
        step = {"detail": f"NetBox serves plugin '{base}'{' API' if api else ''} under {prefix}/",
                "path": where, "line": line}
        out: list[Any] = []
        for surface in f.surfaces:
            path_of = surface.name.partition(" ")[2]
            if surface.kind != "http-route" or surface.framework not in _DJANGO or path_of.startswith(prefix + "/"):
                out.append(surface)
                continue
            served = under(surface, prefix)
            served.detail["via"] = [step, *served.detail.get("via", ())]
            served.detail["framework_mount"] = True
            out.append(served)
        f.surfaces = out


def _config(path: str, read: Callable[[str], bytes]) -> tuple[str, int, str, str] | None:
    """(file, line, plugin package directory, base_url) of the PluginConfig an `__init__.py` declares."""
    data = read(path)
    if b"PluginConfig" not in data and b"NautobotAppConfig" not in data or _IMPORT.search(data) is None:
        return None
    head = _CONFIG.search(data)
    if head is None:
        return None
    body = data[head.end():]
    end = re.search(rb"^\S", body, re.MULTILINE)  # the class body: up to the next unindented line
    fields = {m[1].decode(): m[3].decode() for m in _FIELD.finditer(body[:end.start() if end else len(body)])}
    base = fields.get("base_url") or fields.get("name")
    if not base:
        return None
    return path, data[:head.start()].count(b"\n") + 1, posixpath.dirname(path), base
