"""The start-up check for Qt's X11 libraries, with the library lookup mocked (no display)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ui.platform_check import (
    NO_DISPLAY,
    XCB_LIBRARIES,
    can_load,
    check_platform,
    install_advice,
    missing_libraries,
    uses_apt,
    uses_xcb,
)

FRESH_DEBIAN = {"libxcb-cursor.so.0", "libxcb-icccm.so.4", "libxcb-keysyms.so.1"}


def loader_without(absent: set[str]):  # type: ignore[no-untyped-def]
    return lambda name: name not in absent


def test_a_fresh_debian_is_told_the_one_apt_line() -> None:
    message = check_platform(
        environ={"DISPLAY": ":0"}, load=loader_without(FRESH_DEBIAN), apt=True, platform="linux"
    )
    assert message is not None
    assert "sudo apt install libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1\n" in message
    for soname in FRESH_DEBIAN:
        assert soname in message
    assert "libxcb-image0" not in message  # only what is missing


def test_nothing_is_said_when_every_library_loads() -> None:
    display = {"DISPLAY": ":0"}
    assert check_platform(environ=display, load=lambda n: True, apt=True, platform="linux") is None


def test_no_display_is_said_before_any_library() -> None:
    """Qt with no X server aborts blaming xcb-cursor0 (issue 31): crdesk says why instead."""
    for environ in ({}, {"DISPLAY": ""}, {"QT_QPA_PLATFORM": "xcb"}):
        message = check_platform(environ=environ, load=lambda n: True, apt=True, platform="linux")
        assert message == NO_DISPLAY
    assert "no display" in NO_DISPLAY and "QT_QPA_PLATFORM=offscreen" in NO_DISPLAY
    wayland = {"WAYLAND_DISPLAY": "wayland-0"}
    assert check_platform(environ=wayland, load=lambda n: True, apt=True, platform="linux") is None


@pytest.mark.parametrize(
    ("environ", "platform", "expected"),
    [
        ({}, "linux", True),
        ({"QT_QPA_PLATFORM": "xcb"}, "linux", True),
        ({"QT_QPA_PLATFORM": "offscreen"}, "linux", False),
        ({"QT_QPA_PLATFORM": "wayland;xcb"}, "linux", False),
        ({"QT_QPA_PLATFORM": "xcb:nocursor"}, "linux", True),
        ({"WAYLAND_DISPLAY": "wayland-0"}, "linux", False),
        ({"XDG_SESSION_TYPE": "wayland"}, "linux", False),
        ({"XDG_SESSION_TYPE": "x11"}, "linux", True),
        ({}, "win32", False),
        ({}, "darwin", False),
    ],
)
def test_only_an_xcb_start_is_checked(
    environ: dict[str, str], platform: str, expected: bool
) -> None:
    assert uses_xcb(environ, platform) is expected
    never = loader_without(set(XCB_LIBRARIES))
    shown = {"DISPLAY": ":0", **environ}
    found = check_platform(environ=shown, load=never, apt=True, platform=platform)
    assert (found is not None) is expected


def test_packages_are_named_once_each_in_table_order() -> None:
    missing = missing_libraries(loader_without({"libxcb-keysyms.so.1", "libxcb.so.1"}))
    assert missing == ["libxcb.so.1", "libxcb-keysyms.so.1"]
    assert "sudo apt install libxcb1 libxcb-keysyms1\n" in install_advice(missing, apt=True)


def test_without_apt_the_libraries_are_named_but_no_apt_line() -> None:
    text = install_advice(["libxcb-cursor.so.0"], apt=False)
    assert "libxcb-cursor.so.0" in text and "apt install" not in text


def test_debian_is_recognised_by_its_version_file(tmp_path: Path) -> None:
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc" / "debian_version").write_text("12.8\n")
    assert uses_apt(tmp_path)


def test_the_real_lookup_finds_the_c_library_and_not_a_made_up_one() -> None:
    assert can_load("libc.so.6") if sys.platform.startswith("linux") else True
    assert not can_load("libcrdesk-does-not-exist.so.7")


def test_every_library_the_xcb_plugin_links_is_in_the_table() -> None:
    """The table follows the installed Qt: ldd of its xcb plugin names nothing else."""
    import PySide6

    qt = Path(PySide6.__file__).parent / "Qt"
    plugin = qt / "plugins" / "platforms" / "libqxcb.so"
    if not sys.platform.startswith("linux") or not plugin.exists():
        pytest.skip("no xcb plugin in this Qt")
    needed = set()
    for binary in (plugin, qt / "lib" / "libQt6XcbQpa.so.6"):
        dump = subprocess.run(
            ["objdump", "-p", str(binary)], capture_output=True, text=True, check=False
        )
        if dump.returncode != 0:
            pytest.skip("objdump is not installed")
        needed |= {
            line.split()[1]
            for line in dump.stdout.splitlines()
            if line.strip().startswith("NEEDED")
        }
    outside_qt = {
        n for n in needed if "xcb" in n or "xkb" in n or n.startswith(("libX11", "libEGL", "libGL"))
    }
    assert outside_qt <= set(XCB_LIBRARIES), sorted(outside_qt - set(XCB_LIBRARIES))


def test_gui_start_prints_the_advice_and_exits_1_before_qt(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    """ui.app.main refuses before it makes the application (a fresh process has none)."""
    import ui.app

    made: list[object] = []

    class NoApplicationYet:
        @staticmethod
        def instance() -> None:
            return None

        def __init__(self, *args: object) -> None:
            made.append(args)

    monkeypatch.setattr(ui.app, "QApplication", NoApplicationYet)
    monkeypatch.setattr(ui.app, "check_platform", lambda: "crdesk cannot open its window: X")
    assert ui.app.main(["x.crdesk"]) == 1
    assert made == []
    assert "crdesk cannot open its window: X" in capsys.readouterr().err
