"""The hand-kept package list in pyproject.toml covers every package folder."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_folder_is_listed() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for top in ("crdesk", "ui")
        for init in (ROOT / top).rglob("__init__.py")
    }
    assert found <= listed, f"add to [tool.setuptools] packages: {sorted(found - listed)}"
    assert "crdesk_resources" in listed


def test_resources_are_found_through_the_package() -> None:
    from crdesk.resources import demo_scenario, sample_scenarios

    assert demo_scenario().is_file()
    assert {p.name for p in sample_scenarios()} >= {"demo-urban.crdesk", "demo-wooded.crdesk"}
