"""Before Qt starts on Linux: are the X11 (xcb) libraries its window system plugin needs here?

Qt's wheels carry Qt itself but not the X11 helper libraries of the xcb
platform plugin.  On a fresh Debian or Ubuntu some are missing
(``libxcb-cursor0``, ``libxcb-icccm4``, ``libxcb-keysyms1`` were, on a fresh
Debian 12), and Qt then aborts with a long message about "no Qt platform plugin
could be initialized" that does not say what to install.  Checking first costs
a few milliseconds of ``dlopen`` and lets crdesk say the one command that fixes
it.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

XCB_LIBRARIES: dict[str, str] = {
    # soname -> Debian/Ubuntu package; what `ldd` lists for PySide6's libqxcb.so
    # and libQt6XcbQpa.so.6 outside Qt itself
    "libxcb.so.1": "libxcb1",
    "libX11.so.6": "libx11-6",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libfontconfig.so.1": "libfontconfig1",
    "libdbus-1.so.3": "libdbus-1-3",
}

Loader = Callable[[str], bool]

NO_DISPLAY = (
    "crdesk cannot open its window: there is no display (DISPLAY is not set).\n"
    "Start it from a desktop session (or over ssh -X). Without a screen the command line "
    "works in full (crdesk --help: render, game, simulate, ...), and the app itself runs "
    "headless with QT_QPA_PLATFORM=offscreen."
)
"""Said instead of starting Qt's X11 plugin with no X server: Qt would abort with a core
dump and a message about xcb-cursor0 although the library is there."""


def can_load(soname: str) -> bool:
    """Whether the dynamic loader finds ``soname`` (the same search Qt's loader makes)."""
    try:
        ctypes.CDLL(soname)
    except OSError:
        return False
    return True


def uses_xcb(environ: Mapping[str, str], platform: str = sys.platform) -> bool:
    """Whether Qt will start its xcb (X11) plugin: on Linux, unless told otherwise.

    An explicit ``QT_QPA_PLATFORM`` wins (``offscreen``, ``wayland``, a list
    such as ``wayland;xcb`` tries the first); without it Qt 6 picks Wayland in a
    Wayland session and xcb everywhere else.
    """
    if not platform.startswith("linux"):
        return False
    chosen = environ.get("QT_QPA_PLATFORM", "").strip()
    if chosen:
        return chosen.split(";")[0].split(":")[0].strip() == "xcb"
    wayland = environ.get("WAYLAND_DISPLAY") or environ.get("XDG_SESSION_TYPE") == "wayland"
    return not wayland


def missing_libraries(load: Loader = can_load) -> list[str]:
    """The sonames of :data:`XCB_LIBRARIES` the loader cannot find, in table order."""
    return [name for name in XCB_LIBRARIES if not load(name)]


def uses_apt(root: Path = Path("/")) -> bool:
    """A Debian or Ubuntu (or derived) system, where ``apt`` installs the packages."""
    return (root / "etc" / "debian_version").exists() or shutil.which("apt-get") is not None


def install_advice(missing: list[str], apt: bool) -> str:
    """The message: what is missing, and the one command that installs it."""
    names = ", ".join(missing)
    text = f"crdesk cannot open its window: Qt's X11 (xcb) plugin needs {names}, not found."
    if apt:
        packages = " ".join(dict.fromkeys(XCB_LIBRARIES[name] for name in missing))
        text += f"\nInstall them with:\n\n    sudo apt install {packages}\n"
    else:
        text += (
            "\nInstall the package that provides each of them with your system's "
            "package manager (on Fedora: dnf install xcb-util-cursor xcb-util-wm "
            "xcb-util-keysyms).\n"
        )
    text += "(Without a screen, QT_QPA_PLATFORM=offscreen runs crdesk headless.)"
    return text


def check_platform(
    environ: Mapping[str, str] | None = None,
    load: Loader = can_load,
    apt: bool | None = None,
    platform: str = sys.platform,
) -> str | None:
    """Why the GUI cannot start on this machine, in words with the fix; None when it can."""
    env = os.environ if environ is None else environ
    if not uses_xcb(env, platform):
        return None
    if not env.get("DISPLAY", "").strip():  # Qt would abort blaming a library (issue 31)
        return NO_DISPLAY
    missing = missing_libraries(load)
    if not missing:
        return None
    return install_advice(missing, uses_apt() if apt is None else apt)
