"""The npm binder: `npm:NAME@VERSION|TAG|RANGE` to `NAME@VERSION#sha512-…` of the verified tarball."""

from __future__ import annotations

import base64
from typing import Any

from index import registry as store_registry
from schemas.ecma import utc_now

from .registry import BindContext, authority_for


class NpmBinder:
    binder_id = "capindex.npm"
    substrate = "npm"

    def accepts(self, locator: str) -> bool:
        return locator.startswith("npm:")

    async def bind(self, locator: str, context: BindContext, candidate: dict[str, Any] | None = None) -> dict[str, Any]:
        from indexer import npm

        fetched = await npm.fetch_package(context.store, context.client, locator, context.cache_dir,
                                          context.npm_registry)
        name, version = fetched["name"], fetched["version"]
        # the artifact is named by what was observed, never by what the registry claimed
        observed = "sha512-" + base64.b64encode(bytes.fromhex(fetched["sha512"])).decode()
        record = store_registry.release(context.store, "npm", name, version) or {}
        evidence = [
            f"resolved {fetched['requested'] or 'latest'} to {name}@{version} ({fetched['how']})",
            f"downloaded {fetched['tarball']}; it matched the registry's {fetched['verified']}",
            f"observed {observed}",
            f"observed sha256:{fetched['sha256']}",
        ]
        metadata: dict[str, Any] = {"requested": fetched["requested"], "tarball": fetched["tarball"],
                                    "manifestDifferences": fetched["manifest_differences"]}
        if record.get("gitHead"):
            evidence.append(f"the registry records gitHead {record['gitHead']}")
            metadata["gitHead"] = record["gitHead"]
        if record.get("repository"):
            metadata["repository"] = record["repository"]
        if fetched["manifest_differences"]:
            evidence.append("the tarball's inert manifests differ from the registry's: "
                            + "; ".join(fetched["manifest_differences"]))
        if context.verify_source:
            from .source_check import compare_with_source

            comparison = await compare_with_source(context, fetched["path"], context.verify_source,
                                                   record.get("gitHead"))
            metadata["sourceComparison"] = comparison
            evidence.append(comparison["summary"])
        return {
            "bindingVersion": "1.0",
            "binderId": self.binder_id,
            "substrate": self.substrate,
            "locator": locator,
            "immutableArtifact": f"{name}@{version}#{observed}",
            "createdAt": utc_now(),
            "authority": authority_for(candidate),
            "evidence": evidence,
            "metadata": metadata,
        }
