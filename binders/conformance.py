"""Executable structural conformance, in the spirit of the standard's runProtocolConformance()
and runBinderConformance(): each check builds documents (good and bad), runs them through the
same validators and binder registry the rest of capindex uses, and reports what held.

Passing proves structure only: not that an artifact is benign or an inference correct.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from schemas.errors import DocumentError

from .registry import OPAQUE, BinderRegistry, BindingRejected, check_binding

REFERENCE_EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "federation"


@dataclass
class Check:
    id: str
    description: str
    passed: bool
    detail: str = ""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _accepts(kind: str, doc: Any) -> str | None:
    """None when `doc` is a valid `kind` document, else the first problem."""
    from schemas.documents import validate

    try:
        validate(kind, doc, kind)
    except DocumentError as exc:
        return exc.problems[0]
    return None


def _binding_problem(binding: dict[str, Any]) -> str | None:
    try:
        check_binding(binding)
    except BindingRejected as exc:
        return str(exc)
    return None


MANIFEST = {
    "specVersion": "0.1", "id": "text/slugify", "version": "1.0.0", "name": "Slugify",
    "description": "Turn text into a URL slug.", "effects": [],
}
BINDING = {
    "bindingVersion": "1.0", "binderId": "capindex.npm", "substrate": "npm", "locator": "npm:left-pad@1.3.0",
    "immutableArtifact": "left-pad@1.3.0#sha512-" + "A" * 86 + "==", "createdAt": "2026-01-01T00:00:00.000Z",
    "authority": {"complete": False, "effects": [OPAQUE]}, "evidence": ["tarball matched dist.integrity"],
}


def _with(doc: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    change(out)
    return out


def protocol_checks() -> list[Check]:
    checks: list[Check] = []

    def expect(check_id: str, description: str, problem: str | None, should_pass: bool) -> None:
        ok = (problem is None) == should_pass
        detail = "" if ok else (f"unexpectedly rejected: {problem}" if should_pass else "unexpectedly accepted")
        checks.append(Check(check_id, description, ok, detail))

    # manifests
    expect("manifest.valid", "a minimal manifest validates", _accepts("manifest", MANIFEST), True)
    expect("manifest.id", "an id outside the namespaced pattern is rejected",
           _accepts("manifest", _with(MANIFEST, lambda d: d.update(id="Slugify"))), False)
    expect("manifest.version", "a non-semver version is rejected",
           _accepts("manifest", _with(MANIFEST, lambda d: d.update(version="1.0"))), False)
    expect("manifest.blank-name", "a blank name is rejected",
           _accepts("manifest", _with(MANIFEST, lambda d: d.update(name="   "))), False)
    expect("manifest.effects", "an effect that is neither built-in nor custom: is rejected",
           _accepts("manifest", _with(MANIFEST, lambda d: d.update(effects=["net"]))), False)
    expect("manifest.custom-effect", "a custom: effect is accepted",
           _accepts("manifest", _with(MANIFEST, lambda d: d.update(effects=["custom:acme.thing"]))), True)
    # indexes
    index = {"indexVersion": "0.1", "generatedAt": "2026-01-01T00:00:00Z", "packages": [
        {"name": "slugify-kit", "version": "1.0.0", "source": "npm",
         "capabilities": [{"module": "./dist/slugify.js", "manifest": MANIFEST}]}]}
    expect("index.valid", "an index with one package validates", _accepts("index", index), True)
    expect("index.module", "a module that is not package-relative is rejected",
           _accepts("index", _with(index, lambda d: d["packages"][0]["capabilities"][0].update(module="dist/x.js"))),
           False)
    expect("index.federates", "a relative federates entry invalidates the whole index",
           _accepts("index", _with(index, lambda d: d.update(federates=["./other.json"]))), False)
    expect("index.generated-at", "a generatedAt that is not a date is rejected",
           _accepts("index", _with(index, lambda d: d.update(generatedAt="yesterday"))), False)
    for path in sorted(REFERENCE_EXAMPLES.glob("*.json")):
        expect(f"index.example.{path.stem}", f"the bundled example {path.name} validates",
               _accepts("index", json.loads(path.read_text(encoding="utf-8"))), True)
    # sites
    site = {"capabilityDiscoveryVersion": "0.1", "indexes": ["https://example.org/index.json"]}
    expect("site.valid", "a site document validates", _accepts("site", site), True)
    expect("site.empty", "a site with no indexes is rejected", _accepts("site", _with(site, lambda d: d.update(indexes=[]))),
           False)
    expect("site.relative", "a relative index URL is rejected",
           _accepts("site", _with(site, lambda d: d.update(indexes=["/index.json"]))), False)
    # bindings and immutable artifacts
    expect("binding.valid", "a binding to exact bytes with evidence passes the registry", _binding_problem(BINDING), True)
    mutable = {
        "binding.npm-tag": "left-pad@latest",
        "binding.npm-range": "left-pad@^1.3.0",
        "binding.npm-no-integrity": "left-pad@1.3.0",
        "binding.image-tag": "ghcr.io/acme/tool:latest",
    }
    for check_id, artifact in mutable.items():
        expect(check_id, f"immutableArtifact {artifact!r} names something mutable: rejected",
               _binding_problem(_with(BINDING, lambda d, a=artifact: d.update(immutableArtifact=a))), False)
    git = _with(BINDING, lambda d: d.update(binderId="capindex.git", substrate="git", locator="git+https://example.org/r.git@main",
                                           immutableArtifact="git+https://example.org/r.git@" + "a" * 40))
    expect("binding.git-commit", "a git binding pinned to a 40-hex commit passes", _binding_problem(git), True)
    expect("binding.git-branch", "a git binding pinned to a branch is rejected",
           _binding_problem(_with(git, lambda d: d.update(immutableArtifact="git+https://example.org/r.git@main"))), False)
    pypi = _with(BINDING, lambda d: d.update(binderId="capindex.pypi", substrate="pypi", locator="pypi:six==1.16.0",
                                            immutableArtifact="six@1.16.0#sha256:" + "b" * 64))
    expect("binding.pypi", "a PyPI binding pinned to a file's sha256 passes", _binding_problem(pypi), True)
    expect("binding.evidence", "a binding without evidence is rejected",
           _binding_problem(_with(BINDING, lambda d: d.update(evidence=[]))), False)
    expect("binding.opaque-effects", "incomplete authority without custom:external.opaque-effects is rejected",
           _binding_problem(_with(BINDING, lambda d: d["authority"].update(effects=["network.connect"]))), False)
    expect("binding.complete", "complete authority may list only its effects",
           _binding_problem(_with(BINDING, lambda d: d["authority"].update(complete=True, effects=[]))), True)
    return checks


async def binder_checks(registry: BinderRegistry, locator: str, context: Any) -> list[Check]:
    """One binder, exercised through the registry boundary."""
    checks: list[Check] = []
    try:
        binder = registry.binder_for(locator)
        binding = await registry.bind(locator, context)
    except Exception as exc:  # noqa: BLE001 - reported as the failing check
        return [Check("binder.bind", f"{locator} binds through the registry", False, f"{exc.__class__.__name__}: {exc}")]
    checks.append(Check("binder.bind", f"{locator} binds through the registry and passes its checks", True))
    checks.append(Check("binder.locator", "the binding keeps the original locator", binding["locator"] == locator,
                        f"locator is {binding['locator']!r}"))
    checks.append(Check("binder.identity", "binderId and substrate name the binder that made it",
                        (binding["binderId"], binding["substrate"]) == (binder.binder_id, binder.substrate)))
    again = _binding_problem(binding)
    checks.append(Check("binder.recheck", "the binding passes the checks again before use", again is None, again or ""))
    checks.append(Check("binder.authority", "authority is incomplete and carries custom:external.opaque-effects",
                        not binding["authority"]["complete"] and OPAQUE in binding["authority"]["effects"]))
    second = await registry.bind(locator, context)
    checks.append(Check("binder.deterministic", "binding the same locator again names the same bytes",
                        second["immutableArtifact"] == binding["immutableArtifact"],
                        f"{binding['immutableArtifact']} then {second['immutableArtifact']}"))
    return checks
