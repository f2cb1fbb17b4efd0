"""``crdesk install-desktop``: crdesk in the desktop's menu, file types, icons and thumbnails.

A desktop finds programs through files in ``share/`` folders (freedesktop.org
specs): a ``.desktop`` entry (menu, "Open with"), a shared-mime-info package
(``*.crdesk`` is "Chain Reaction scenario", not "JSON document"), icons in the
hicolor theme's sizes, and a thumbnailer entry that renders a scenario's map
with ``crdesk render``.  The templates live in ``resources/desktop/``; the icons
are drawn here from ``resources/icons/crdesk.svg`` with Qt, so no PNG copies
are kept in the repository.  Commands are written with the absolute path of
the program that ran the install (the venv's ``crdesk``, or the PyInstaller
bundle), since a file manager does not see a shell's PATH.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from crdesk.resources import resource_root

ICON_SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)
MIME_TYPES = ("application-x-crdesk", "application-x-crdesk-game", "application-x-crdesk-band")


def data_home(environ: Mapping[str, str] | None = None) -> Path:
    """The user's ``share`` folder: ``$XDG_DATA_HOME`` or ``~/.local/share``."""
    env = os.environ if environ is None else environ
    value = env.get("XDG_DATA_HOME", "")
    return Path(value) if value and Path(value).is_absolute() else Path.home() / ".local/share"


def program_command() -> list[str]:
    """How a file manager starts this crdesk: absolute, with no reliance on PATH."""
    if getattr(sys, "frozen", False):  # the PyInstaller bundle
        return [str(Path(sys.executable).resolve())]
    beside = Path(sys.executable).parent / ("crdesk.exe" if os.name == "nt" else "crdesk")
    if beside.is_file():
        return [str(beside.absolute())]
    found = shutil.which("crdesk")
    if found:
        return [str(Path(found).absolute())]
    return [str(Path(sys.executable).absolute()), "-m", "crdesk"]


def _exec_quote(word: str) -> str:
    """Quote one argument of a desktop entry's Exec key (the spec's rules, not a shell's)."""
    if not any(c in word for c in " \t\n\"'\\><~|&;$*?#()`"):
        return word
    escaped = word.replace("\\", "\\\\").replace('"', '\\"').replace("`", "\\`").replace("$", "\\$")
    return f'"{escaped}"'


def with_command(text: str, command: list[str]) -> str:
    """A template's ``Exec=crdesk ...`` and ``TryExec=crdesk`` lines with ``command``."""
    program = " ".join(_exec_quote(word) for word in command)
    lines = []
    for line in text.splitlines():
        if line.startswith("Exec=crdesk"):
            line = "Exec=" + program + line.removeprefix("Exec=crdesk")
        elif line == "TryExec=crdesk":
            line = "TryExec=" + command[0]
        lines.append(line)
    return "\n".join(lines) + "\n"


def render_icon(size: int) -> bytes:
    """The crdesk icon as a ``size`` x ``size`` PNG (needs a Qt GUI application object)."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    svg = (resource_root() / "icons" / "crdesk.svg").read_bytes()
    renderer = QSvgRenderer(QByteArray(svg))
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    buffer.close()
    return bytes(data.data())


def planned_files(share: Path, command: list[str]) -> dict[Path, bytes | None]:
    """Every file an install writes under ``share`` and its bytes (None: an icon to draw)."""
    templates = resource_root() / "desktop"
    desktop = with_command((templates / "crdesk.desktop").read_text(encoding="utf-8"), command)
    thumbnailer = with_command(
        (templates / "crdesk.thumbnailer").read_text(encoding="utf-8"), command
    )
    files: dict[Path, bytes | None] = {
        share / "applications" / "crdesk.desktop": desktop.encode("utf-8"),
        share / "mime" / "packages" / "crdesk.xml": (templates / "crdesk-mime.xml").read_bytes(),
        share / "thumbnailers" / "crdesk.thumbnailer": thumbnailer.encode("utf-8"),
    }
    svg = (resource_root() / "icons" / "crdesk.svg").read_bytes()
    hicolor = share / "icons" / "hicolor"
    files[hicolor / "scalable" / "apps" / "crdesk.svg"] = svg
    for name in MIME_TYPES:
        files[hicolor / "scalable" / "mimetypes" / f"{name}.svg"] = svg
    for size in ICON_SIZES:
        files[hicolor / f"{size}x{size}" / "apps" / "crdesk.png"] = None
        for name in MIME_TYPES:
            files[hicolor / f"{size}x{size}" / "mimetypes" / f"{name}.png"] = None
    return files


def _refresh(share: Path) -> list[str]:
    """Rebuild the desktop's caches under ``share``; the tools that are not there."""
    missing = []
    steps = [
        ("update-mime-database", [str(share / "mime")]),
        ("update-desktop-database", [str(share / "applications")]),
        ("gtk-update-icon-cache", ["-f", "-t", "-q", str(share / "icons" / "hicolor")]),
    ]
    for tool, arguments in steps:
        found = shutil.which(tool)
        if found is None:
            missing.append(tool)
            continue
        subprocess.run([found, *arguments], check=False, capture_output=True, timeout=60)
    return missing


def install(
    system: bool = False,
    prefix: str | os.PathLike[str] = "/usr/local",
    uninstall: bool = False,
    share: Path | None = None,
    command: list[str] | None = None,
    refresh: bool = True,
) -> int:
    """Install (or remove) the desktop files; print what was done; the exit status.

    ``share`` overrides the folder (the tests install into a temporary one).
    """
    target = share or (Path(prefix) / "share" if system else data_home())
    plan = planned_files(target, command or program_command())
    try:
        if uninstall:
            removed = [path for path in plan if path.exists()]
            for path in removed:
                path.unlink()
            print(f"removed {len(removed)} crdesk desktop files from {target}")
        else:
            from PySide6.QtGui import QGuiApplication

            if QGuiApplication.instance() is None:  # drawing icons needs one, not a screen
                app = QGuiApplication(["crdesk", "-platform", "offscreen"])  # noqa: F841
            drawn: dict[int, bytes] = {}
            for path, data in plan.items():
                if data is None:
                    size = int(path.parent.parent.name.split("x")[0])
                    if size not in drawn:
                        drawn[size] = render_icon(size)
                    data = drawn[size]
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
            print(f"installed {len(plan)} crdesk desktop files under {target}")
            print(f"  menu entry: {target / 'applications' / 'crdesk.desktop'}")
            print("  runs: " + " ".join(shlex.quote(w) for w in command or program_command()))
    except OSError as exc:
        where = exc.filename or target
        print(
            f"error: cannot write {where}: {exc.strerror or exc}"
            + (" (a --system install needs root)" if system else ""),
            file=sys.stderr,
        )
        return 2
    if refresh:
        missing = _refresh(target)
        if missing:
            print(f"  not refreshed (tools not found: {', '.join(missing)}); log out and in")
    return 0
