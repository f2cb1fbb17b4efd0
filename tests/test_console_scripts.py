"""Issue 16, item 3: ``crdesk`` is the one command a user gets on the PATH.

A stray generic ``render`` (it crashed when run) or ``crdesk-gui`` script would
shadow other programs; the GUI and the exporter are reached through ``crdesk``.
"""

from __future__ import annotations

import tomllib
from importlib.metadata import distribution
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_pyproject_declares_only_the_crdesk_command() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["scripts"] == {"crdesk": "crdesk.cli:main"}
    assert "gui-scripts" not in project


def test_the_installed_package_puts_only_crdesk_on_the_path() -> None:
    scripts = {
        ep.name: ep.value
        for ep in distribution("crdesk").entry_points
        if ep.group in ("console_scripts", "gui_scripts")
    }
    assert scripts == {"crdesk": "crdesk.cli:main"}
