"""The binder registry: every binding is checked at its boundary.

A binder turns a locator (`npm:NAME@VERSION`, `pypi:NAME==VERSION`, `git+URL@REV`, which may
name a tag, a branch or a range) into a MetabolicBinding 1.0 that commits to exact, verified
bytes. The registry validates each binding right after `bind()` and again before it is stored
or published (`check`): the schema, the standard's rules (exact immutable artifact, non-empty
evidence, incomplete authority carrying `custom:external.opaque-effects`) and the substrate's
own artifact form. A binding that still names something mutable is rejected with the reason.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from schemas.errors import CapindexError, DocumentError

if TYPE_CHECKING:
    from index.store import Store

OPAQUE = "custom:external.opaque-effects"

# The exact-bytes form each substrate's immutableArtifact must take (../shared/reference/README.md).
ARTIFACT_FORMS = {
    "npm": re.compile(r"^(@[a-z0-9][\w.~-]*/)?[a-z0-9][\w.~-]*@\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?"
                      r"#sha512-[A-Za-z0-9+/]+={0,2}$"),
    "pypi": re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*@[^\s#@]+#sha256:[0-9a-f]{64}$"),
    "git": re.compile(r"^git\+(https|ssh|file)://[^\s@]+(@[^\s@]+)?@[0-9a-f]{40}$"),
}


class BindingRejected(CapindexError, ValueError):
    """A binding that fails the registry's checks; the message says which rule."""


class Binder(Protocol):
    binder_id: str
    substrate: str

    def accepts(self, locator: str) -> bool: ...

    async def bind(self, locator: str, context: Any, candidate: dict[str, Any] | None = None) -> dict[str, Any]: ...


class BinderRegistry:
    def __init__(self, binders: Iterable[Binder]):
        self.binders = list(binders)

    def binder_for(self, locator: str) -> Binder:
        for binder in self.binders:
            if binder.accepts(locator):
                return binder
        raise BindingRejected(f"{locator}: no binder accepts this locator (npm:NAME@VERSION, "
                              "pypi:NAME==VERSION, git+URL@REV)")

    async def bind(self, locator: str, context: Any, candidate: dict[str, Any] | None = None) -> dict[str, Any]:
        binder = self.binder_for(locator)
        binding = await binder.bind(locator, context, candidate)
        self.check(binding, binder)
        return binding

    def check(self, binding: dict[str, Any], binder: Binder | None = None) -> dict[str, Any]:
        """The binding if it satisfies every rule; BindingRejected naming the first that fails."""
        from schemas.documents import validate

        where = f"binding for {binding.get('locator', '?')}"
        try:
            validate("binding", binding, where)
        except DocumentError as exc:
            raise BindingRejected(str(exc)) from None
        substrate = binding["substrate"]
        if binder is not None and (substrate != binder.substrate or binding["binderId"] != binder.binder_id):
            raise BindingRejected(f"{where}: made by {binder.binder_id} ({binder.substrate}) but names "
                                  f"{binding['binderId']} ({substrate})")
        form = ARTIFACT_FORMS.get(substrate)
        if form is not None and not form.match(binding["immutableArtifact"]):
            raise BindingRejected(f"{where}: immutableArtifact {binding['immutableArtifact']!r} is not the exact "
                                  f"{substrate} form")
        authority = binding["authority"]
        if not authority["complete"] and OPAQUE not in authority["effects"]:
            raise BindingRejected(f"{where}: incomplete authority must list {OPAQUE}")
        return binding


def check_binding(binding: dict[str, Any]) -> dict[str, Any]:
    """The registry's checks, for a stored binding about to be published."""
    return BinderRegistry([]).check(binding)


def default_registry() -> BinderRegistry:
    from .git import GitBinder
    from .npm import NpmBinder
    from .pypi import PypiBinder

    return BinderRegistry([NpmBinder(), PypiBinder(), GitBinder()])


def authority_for(candidate: dict[str, Any] | None) -> dict[str, Any]:
    """Authority a binding can claim: never complete for software whose whole effect surface is not
    defensibly known; a candidate's declared or observed effects are listed beside the opaque one."""
    effects = [OPAQUE]
    for effect in (candidate or {}).get("effects") or []:
        if isinstance(effect, str) and effect not in effects:
            effects.append(effect)
    return {"complete": False, "effects": effects,
            "note": "external software: its complete effect surface is not known; declared effects are not authority"}


@dataclass
class BindContext:
    """What binders work with: the store, the guarded client, where artifacts are cached."""

    store: Store
    client: Any
    cache_dir: Path
    npm_registry: str = "https://registry.npmjs.org"
    pypi_index: str = "https://pypi.org"
    allow_file_git: bool = False  # file:// clones (local mirrors, tests), and git remotes on private addresses
    allowed_networks: tuple[str, ...] = ()  # CIDRs git remotes may resolve to despite the address policy
    verify_source: str | None = None  # npm: compare the tarball with this repository at gitHead
