"""The PyPI binder: `pypi:NAME[==VERSION]` to `NAME@VERSION#sha256:…` of the verified file."""

from __future__ import annotations

from typing import Any

from schemas.ecma import utc_now

from .registry import BindContext, authority_for


class PypiBinder:
    binder_id = "capindex.pypi"
    substrate = "pypi"

    def accepts(self, locator: str) -> bool:
        return locator.startswith("pypi:")

    async def bind(self, locator: str, context: BindContext, candidate: dict[str, Any] | None = None) -> dict[str, Any]:
        from indexer import pypi

        fetched = await pypi.fetch_project(context.store, context.client, locator, context.cache_dir,
                                           context.pypi_index)
        entry_points = fetched["entry_points"]
        evidence = [
            f"resolved {fetched['requested'] or 'latest'} to {fetched['name']}=={fetched['version']} ({fetched['how']})",
            f"downloaded {fetched['url']}; its sha256 matched PyPI's: {fetched['sha256']}",
            f"entry points read as text from {entry_points['source']}: "
            + (", ".join(sorted(entry_points["console_scripts"])) or "no console scripts"),
        ]
        return {
            "bindingVersion": "1.0",
            "binderId": self.binder_id,
            "substrate": self.substrate,
            "locator": locator,
            "immutableArtifact": f"{fetched['name']}@{fetched['version']}#sha256:{fetched['sha256']}",
            "createdAt": utc_now(),
            "authority": authority_for(candidate),
            "evidence": evidence,
            "metadata": {"requested": fetched["requested"], "file": fetched["file"], "url": fetched["url"],
                         "consoleScripts": entry_points["console_scripts"]},
        }
