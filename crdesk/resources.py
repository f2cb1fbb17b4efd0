"""Where the bundled resources (sample scenarios, themes, icons) live once installed."""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable


def resource_root() -> Traversable:
    """The ``resources/`` folder of the source tree, shipped as ``crdesk_resources``."""
    return files("crdesk_resources")


def sample_scenarios() -> list[Traversable]:
    """The bundled demo scenarios, sorted by file name."""
    folder = resource_root() / "scenarios"
    return sorted((p for p in folder.iterdir() if p.name.endswith(".crdesk")), key=lambda p: p.name)


def demo_scenario() -> Traversable:
    """The table the GUI opens when no file is given."""
    return resource_root() / "scenarios" / "demo-urban.crdesk"
