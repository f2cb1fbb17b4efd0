"""The core never imports Qt: checked by import-linter and by importing it without PySide6."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

BLOCK_QT = r"""
import importlib, pkgutil, sys

class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {"PySide6", "shiboken6", "ui"}:
            raise ImportError(f"blocked: {name}")
        return None

sys.meta_path.insert(0, Block())
import crdesk
names = [m.name for m in pkgutil.walk_packages(crdesk.__path__, "crdesk.")]
names = [n for n in names if not n.endswith("__main__")]
for name in names:
    importlib.import_module(name)
print(len(names))
"""


def test_every_core_module_imports_without_qt() -> None:
    result = subprocess.run(
        [sys.executable, "-c", BLOCK_QT], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert int(result.stdout.strip()) >= 8


def test_import_linter_contracts_hold() -> None:
    exe = Path(sys.executable).with_name("lint-imports")
    command = [str(exe)] if exe.exists() else [shutil.which("lint-imports") or "lint-imports"]
    result = subprocess.run(
        [*command, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 4 kept, 0 broken." in result.stdout


def test_no_import_circle_inside_the_core() -> None:
    """Imports flow one way (STYLE.md, issue 29): no crdesk module imports, even late
    inside a function, a module that imports it back.  Imports for type checking only
    are not imports at run time and may point up."""
    import grimp
    import networkx as nx

    graph = grimp.build_graph("crdesk", exclude_type_checking_imports=True, cache_dir=None)
    edges = nx.DiGraph()
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            if imported.startswith("crdesk"):
                edges.add_edge(module, imported)
    circles = [sorted(c) for c in nx.strongly_connected_components(edges) if len(c) > 1]
    assert not circles, f"modules importing each other: {circles}"
