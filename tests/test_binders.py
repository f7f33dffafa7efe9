"""The binder registry boundary, the conformance suite, and bindings checked again at publication."""

from __future__ import annotations

import copy
import json
import sqlite3

import pytest

from binders.conformance import BINDING, protocol_checks
from binders.registry import BinderRegistry, BindingRejected, check_binding
from indexer.cli import main


class FakeSubstrateBinder:
    """A third-party binder (not one of ours): whatever it returns must cross the registry's checks."""

    binder_id = "acme.tool"
    substrate = "npm"

    def __init__(self, binding):
        self.binding = binding

    def accepts(self, locator):
        return locator.startswith("npm:")

    async def bind(self, locator, context, candidate=None):
        return copy.deepcopy(self.binding)


def bound(change):
    import asyncio

    binding = copy.deepcopy(BINDING) | {"binderId": "acme.tool"}
    change(binding)
    return asyncio.run(BinderRegistry([FakeSubstrateBinder(binding)]).bind("npm:left-pad@1.3.0", None))


def test_a_good_binding_crosses_the_boundary():
    assert bound(lambda b: None)["immutableArtifact"].startswith("left-pad@1.3.0#sha512-")


@pytest.mark.parametrize("change, reason", [
    (lambda b: b.update(immutableArtifact="left-pad@latest"), "mutable"),
    (lambda b: b.update(immutableArtifact="left-pad@^1.3.0"), "mutable"),
    (lambda b: b.update(immutableArtifact="left-pad@1.3.0"), "names no exact bytes"),
    (lambda b: b.update(immutableArtifact="left-pad@1.3.0#sha256:" + "a" * 64), "exact npm form"),
    (lambda b: b.update(evidence=[]), "evidence"),
    (lambda b: b["authority"].update(effects=["network.connect"]), "opaque-effects"),
    (lambda b: b.update(substrate="pypi"), "made by acme.tool"),
    (lambda b: b.update(createdAt="yesterday"), "createdAt"),
])
def test_the_registry_rejects_what_breaks_a_rule(change, reason):
    with pytest.raises(BindingRejected, match=reason):
        bound(change)


def test_a_locator_no_binder_accepts_is_rejected():
    with pytest.raises(BindingRejected, match="no binder accepts"):
        BinderRegistry([]).binder_for("oci:ghcr.io/acme/tool:latest")


def test_every_protocol_check_holds():
    failed = [c for c in protocol_checks() if not c.passed]
    assert failed == []


def test_the_conformance_command_reports_each_check(tmp_path, capsys):
    assert main(["--db", str(tmp_path / "s.db"), "--json", "conformance"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["passed"] is True
    ids = {c["id"] for c in report["checks"]}
    assert {"binding.npm-tag", "binding.opaque-effects", "binding.git-branch", "index.federates"} <= ids


def test_a_stored_binding_is_checked_again_before_it_is_published(tmp_path, capsys):
    db = tmp_path / "s.db"
    assert main(["--db", str(db), "stats"]) == 0
    from index import registry
    from index.store import Store

    with Store(db) as store:
        registry.store_binding(store, check_binding(copy.deepcopy(BINDING)))
    out = tmp_path / "public"
    assert main(["--db", str(db), "publish", str(out), "--base-url", "https://example.org/"]) == 0
    published = sorted(p.name for p in (out / "bindings").iterdir())
    assert len(published) == 2 and "index.json" in published
    capsys.readouterr()
    # a binding altered in the store after it was made (it now names a tag) must not be published
    conn = sqlite3.connect(db)
    tampered = json.dumps(BINDING | {"immutableArtifact": "left-pad@latest"})
    conn.execute("UPDATE bindings SET binding = ?", [tampered])
    conn.commit()
    conn.close()
    assert main(["--db", str(db), "publish", str(out), "--base-url", "https://example.org/"]) == 1
    err = capsys.readouterr().err
    assert "left-pad@latest" in err and "Traceback" not in err
    assert sorted(p.name for p in (out / "bindings").iterdir()) == published  # the previous files stay
