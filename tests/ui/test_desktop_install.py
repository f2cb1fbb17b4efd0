"""`crdesk install-desktop`: valid desktop files, icons in every hicolor size, a clean uninstall."""

from __future__ import annotations

import configparser
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from crdesk.cli import main as crdesk
from crdesk.resources import resource_root
from ui.desktop import ICON_SIZES, install, program_command, with_command

DESKTOP = Path(str(resource_root() / "desktop"))


def _tool(name: str) -> str:
    """The validator's path; without it the check skips, unless CI installed the tools
    (.ci/run sets CRDESK_REQUIRE_DESKTOP_TOOLS), where a missing one is a failure."""
    found = shutil.which(name)
    if found is None:
        why = f"{name} is not installed (apt install desktop-file-utils libxml2-utils)"
        if os.environ.get("CRDESK_REQUIRE_DESKTOP_TOOLS"):
            pytest.fail(why)
        pytest.skip(why)
    return found


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    share = tmp_path_factory.mktemp("share")
    command = ["/opt/crdesk app/crdesk"]  # a space: the Exec key must quote it
    assert install(share=share, command=command, refresh=False) == 0
    return share


def test_the_menu_entry_runs_this_crdesk_and_validates(installed: Path) -> None:
    entry = installed / "applications" / "crdesk.desktop"
    parser = configparser.RawConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(entry, encoding="utf-8")
    main = parser["Desktop Entry"]
    assert main["Exec"] == '"/opt/crdesk app/crdesk" %f'
    assert main["TryExec"] == "/opt/crdesk app/crdesk"
    assert set(main["MimeType"].strip(";").split(";")) == {
        "application/x-crdesk",
        "application/x-crdesk-game",
        "application/x-crdesk-band",
    }
    assert parser["Desktop Action new-window"]["Exec"] == '"/opt/crdesk app/crdesk" --new-window'
    validate = subprocess.run(
        [_tool("desktop-file-validate"), str(entry)], capture_output=True, text=True
    )
    assert validate.returncode == 0, validate.stdout + validate.stderr


def test_the_thumbnailer_renders_with_crdesk_render(installed: Path) -> None:
    text = (installed / "thumbnailers" / "crdesk.thumbnailer").read_text(encoding="utf-8")
    assert 'Exec="/opt/crdesk app/crdesk" render %i -o %o --dpi 10' in text
    assert "MimeType=application/x-crdesk;" in text


def test_the_thumbnail_command_really_writes_a_small_png(tmp_path: Path) -> None:
    """What a file manager runs for %i and %o (its %o ends in .png), done here directly."""
    out = tmp_path / "gnome-desktop-thumbnailer.png"
    assert crdesk(["render", str(resource_root() / "scenarios" / "demo-urban.crdesk"),
                   "-o", str(out), "--dpi", "10"]) == 0  # fmt: skip
    image = QImage(str(out))
    assert 300 <= image.width() <= 400 and 300 <= image.height() <= 400


def test_the_mime_package_is_well_formed_and_claims_the_three_suffixes(
    installed: Path, tmp_path: Path
) -> None:
    package = installed / "mime" / "packages" / "crdesk.xml"
    lint = subprocess.run([_tool("xmllint"), "--noout", str(package)], capture_output=True)
    assert lint.returncode == 0, lint.stderr
    database = tmp_path / "mime"
    (database / "packages").mkdir(parents=True)
    shutil.copy(package, database / "packages")
    built = subprocess.run(
        [_tool("update-mime-database"), str(database)], capture_output=True, text=True
    )
    assert "Unknown" not in built.stderr and "error" not in built.stderr.lower(), built.stderr
    globs = (database / "globs2").read_text(encoding="utf-8")
    for line in (
        "application/x-crdesk:*.crdesk",
        "application/x-crdesk-game:*.crgame",
        "application/x-crdesk-band:*.crband",
    ):
        assert line in globs


@pytest.mark.parametrize("size", ICON_SIZES)
def test_an_icon_of_each_hicolor_size(installed: Path, size: int) -> None:
    folder = installed / "icons" / "hicolor" / f"{size}x{size}"
    for png in (folder / "apps" / "crdesk.png", folder / "mimetypes" / "application-x-crdesk.png"):
        image = QImage(str(png))
        assert (image.width(), image.height()) == (size, size)
        assert image.pixelColor(size // 2, size // 2).alpha() == 255  # drawn, not blank
        assert image.pixelColor(0, 0).alpha() < 255  # rounded corner: transparent


def test_uninstall_removes_every_file_it_wrote(tmp_path: Path) -> None:
    assert install(share=tmp_path, command=["crdesk"], refresh=False) == 0
    written = {p for p in tmp_path.rglob("*") if p.is_file()}
    assert len(written) == 3 + 4 + len(ICON_SIZES) * 4
    assert install(share=tmp_path, command=["crdesk"], uninstall=True, refresh=False) == 0
    assert not [p for p in tmp_path.rglob("*") if p.is_file()]


def test_an_unwritable_place_is_exit_2_saying_where(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    blocker = tmp_path / "share"
    blocker.write_text("a file where the folder would go")
    assert install(share=blocker, command=["crdesk"], refresh=False) == 2
    assert "error: cannot write" in capsys.readouterr().err


def test_the_command_line_installs_for_the_user_into_xdg_data_home(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys,  # type: ignore[no-untyped-def]
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert crdesk(["install-desktop", "--user"]) == 0
    assert (tmp_path / "applications" / "crdesk.desktop").is_file()
    assert str(tmp_path) in capsys.readouterr().out
    assert crdesk(["install-desktop", "--uninstall"]) == 0
    assert not (tmp_path / "applications" / "crdesk.desktop").exists()


def test_exec_keeps_the_rest_of_the_line_and_the_program_is_absolute() -> None:
    assert with_command("Exec=crdesk %f\nTryExec=crdesk\n", ["/a/crdesk"]) == (
        "Exec=/a/crdesk %f\nTryExec=/a/crdesk\n"
    )
    assert Path(program_command()[0]).is_absolute()


def test_the_templates_validate_as_shipped() -> None:
    validate = subprocess.run(
        [_tool("desktop-file-validate"), str(DESKTOP / "crdesk.desktop")],
        capture_output=True,
        text=True,
    )
    assert validate.returncode == 0, validate.stdout
