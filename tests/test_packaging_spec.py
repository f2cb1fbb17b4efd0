"""The PyInstaller spec and its smoke test stay in step with the tree (no build here: slow).

``make dist`` builds and smoke-tests the real bundle (packaging/README.md);
these checks catch, in milliseconds, a spec that names a file that moved.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "packaging" / "crdesk.spec"


def test_the_spec_is_python_and_every_path_it_names_exists() -> None:
    source = SPEC.read_text(encoding="utf-8")
    ast.parse(source)
    named = re.findall(r'ROOT((?: / "[^"]+")+)', source)
    assert named, "the spec names its inputs relative to ROOT"
    for parts in named:
        path = ROOT.joinpath(*re.findall(r'"([^"]+)"', parts))
        if path.parts[-2:-1] == ("icons",) and path.parent.parent.name == "build":
            continue  # made by packaging/icons.py on Windows and macOS only
        assert path.exists(), f"packaging/crdesk.spec names {path.relative_to(ROOT)}"


def test_pyinstaller_is_a_dev_extra_not_a_dependency() -> None:
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert not [d for d in project["dependencies"] if d.lower().startswith("pyinstaller")]
    assert any(d.startswith("pyinstaller>=") for d in project["optional-dependencies"]["dist"])


def test_the_smoke_test_fails_on_a_folder_with_no_bundle(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    import importlib.util

    spec = importlib.util.spec_from_file_location("smoke", ROOT / "packaging" / "smoke.py")
    assert spec is not None and spec.loader is not None
    smoke = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(smoke)
    assert smoke.main(str(tmp_path)) == 1
    assert "no bundle" in capsys.readouterr().out


@pytest.mark.parametrize("target", ["dist", "install-desktop"])
def test_make_has_the_target(target: str) -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(rf"^{re.escape(target)}:", makefile, re.MULTILINE)
