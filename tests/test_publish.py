"""Publishing: conformant, deterministic, sharded through federation, atomic."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import EXAMPLES, index_doc, package, reference_validator
from index.ingest import ingest_bytes
from index.publish import PublishError, publish
from index.store import Store
from schemas.documents import validate, validate_index

BASE = "https://caps.example.org/pub"


def read_files(outdir: Path) -> dict[str, bytes]:
    return {str(p.relative_to(outdir)): p.read_bytes() for p in sorted(outdir.rglob("*")) if p.is_file()}


def load_published(outdir: Path) -> list[dict]:
    """Every package reachable from index.json, following federation into shards."""
    root = json.loads((outdir / "index.json").read_text())
    packages = list(root["packages"])
    for url in root.get("federates", []):
        assert url.startswith(BASE + "/")
        shard = json.loads((outdir / url[len(BASE) + 1:]).read_text())
        assert shard.get("federates") == []
        packages += shard["packages"]
    return packages


def test_reference_examples_republish_valid_for_the_reference_schemas(tmp_path, reference):
    with Store(tmp_path / "db") as store:
        for doc in (reference / "examples" / "registry-index.json", reference / "examples" / ".well-known" / "capabilities.json"):
            ingest_bytes(store, doc.read_bytes(), str(doc))
        result = publish(store, tmp_path / "out", BASE + "/")
    out = tmp_path / "out"
    index = json.loads((out / "index.json").read_text())
    original = json.loads((reference / "examples" / "registry-index.json").read_text())
    assert index["packages"] == original["packages"]  # same content, nothing lost or invented
    assert index["generatedAt"] == original["generatedAt"]  # from the newest source, not the clock
    assert not list(reference_validator("index").iter_errors(index))
    validate_index(index, "index.json")
    for name in ("capabilities", "capabilities.json"):
        site = json.loads((out / ".well-known" / name).read_text())
        assert site == {"capabilityDiscoveryVersion": "0.1", "indexes": [f"{BASE}/index.json"]}
        assert not list(reference_validator("site").iter_errors(site))
        validate("site", site, name)
    assert result.packages == 1 and result.capabilities == 12
    assert result.files == [".well-known/capabilities", ".well-known/capabilities.json", "index.json"]


def _ingest_all(store: Store, paths: list[Path]) -> None:
    for path in paths:
        ingest_bytes(store, path.read_bytes(), str(path))


def test_republishing_is_byte_stable_and_independent_of_ingest_order(tmp_path):
    paths = sorted(EXAMPLES.rglob("*.json"))
    with Store(tmp_path / "a.db") as store:
        _ingest_all(store, paths)
        publish(store, tmp_path / "one", BASE)
        publish(store, tmp_path / "two", BASE)
    with Store(tmp_path / "b.db") as store:
        _ingest_all(store, list(reversed(paths)))
        publish(store, tmp_path / "three", BASE)
    one, two, three = (read_files(tmp_path / d) for d in ("one", "two", "three"))
    assert one == two == three
    index = json.loads(one["index.json"])
    assert index["generatedAt"] == "2026-10-02T09:00:00.000Z"  # the newest of the three indexes
    names = [(p["name"], p["version"]) for p in index["packages"]]
    assert names == sorted(names) and len(names) == 6


def test_generated_at_option_is_normalised_and_checked(tmp_path):
    with Store(tmp_path / "db") as store:
        ingest_bytes(store, json.dumps(index_doc(package("a", "1.0.0", "x/a"))).encode(), "https://s.example/i.json")
        result = publish(store, tmp_path / "out", BASE, generated_at="2026-01-02T03:04:05+01:00")
        assert result.generated_at == "2026-01-02T02:04:05.000Z"
        with pytest.raises(PublishError, match="--generated-at"):
            publish(store, tmp_path / "out", BASE, generated_at="yesterday")
        for bad in ("caps.example.org", "ftp://caps.example.org/", "https://caps.example.org/?v=1"):
            with pytest.raises(PublishError, match="--base-url"):
                publish(store, tmp_path / "out", bad)


def test_sharding_federates_to_stream_written_shards(tmp_path, reference):
    packages = [package(f"pkg-{i:03d}", "1.0.0", f"shard/op-{i}", f"shard/alt-{i}") for i in range(11)]
    with Store(tmp_path / "db") as store:
        ingest_bytes(store, json.dumps(index_doc(*packages)).encode(), "https://s.example/i.json")
        result = publish(store, tmp_path / "out", BASE, shard_size=4, metadata={"name": "Test"})
        out = tmp_path / "out"
        root = json.loads((out / "index.json").read_text())
        assert root["packages"] == [] and root["metadata"] == {"name": "Test"}
        assert root["federates"] == [f"{BASE}/shards/index-{i:05d}.json" for i in (1, 2, 3)]
        ref = reference_validator("index")
        for url in root["federates"]:
            shard = json.loads((out / url[len(BASE) + 1:]).read_text())
            assert len(shard["packages"]) <= 4
            assert not list(ref.iter_errors(shard))
        published = load_published(out)
        assert [p["name"] for p in published] == [f"pkg-{i:03d}" for i in range(11)]
        assert result.packages == 11 and result.capabilities == 22

        # fewer packages later: the stale shard files go away
        ingest_bytes(store, json.dumps(index_doc(*packages[:5], generated_at="2026-06-01T00:00:00Z")).encode(),
                     "https://s.example/i.json")
        publish(store, out, BASE, shard_size=4)
        assert sorted(p.name for p in (out / "shards").iterdir()) == ["index-00001.json", "index-00002.json"]
        assert len(load_published(out)) == 5


def test_a_conflicting_package_is_published_with_its_first_content(tmp_path):
    with Store(tmp_path / "db") as store:
        ingest_bytes(store, json.dumps(index_doc(package("p", "1.0.0", "x/p", integrity="sha512-A"))).encode(),
                     "https://a.example/i.json")
        ingest_bytes(store, json.dumps(index_doc(package("p", "1.0.0", "x/p", integrity="sha512-B"))).encode(),
                     "https://b.example/i.json")
        publish(store, tmp_path / "out", BASE)
    [pkg] = json.loads((tmp_path / "out" / "index.json").read_text())["packages"]
    assert pkg["integrity"] == "sha512-A"


def test_an_empty_store_publishes_a_valid_empty_index(tmp_path):
    with Store(tmp_path / "db") as store:
        publish(store, tmp_path / "out", BASE)
    index = json.loads((tmp_path / "out" / "index.json").read_text())
    assert index == {"indexVersion": "0.1", "generatedAt": "1970-01-01T00:00:00.000Z", "federates": [], "packages": []}


def test_a_failed_publication_leaves_the_previous_one_intact(tmp_path):
    with Store(tmp_path / "db") as store:
        ingest_bytes(store, json.dumps(index_doc(package("a", "1.0.0", "x/a"))).encode(), "https://s.example/i.json")
        out = tmp_path / "out"
        publish(store, out, BASE)
        before = read_files(out)
        # make one target unwritable: .well-known/capabilities becomes a directory
        (out / ".well-known" / "capabilities").unlink()
        (out / ".well-known" / "capabilities").mkdir()
        ingest_bytes(store, json.dumps(index_doc(package("b", "1.0.0", "x/b"))).encode(), "https://t.example/i.json")
        with pytest.raises(PublishError, match="not a regular file"):
            publish(store, out, BASE)
        after = read_files(out)
        assert after["index.json"] == before["index.json"]
        assert not [p for p in out.rglob("*capindex-tmp*")]
