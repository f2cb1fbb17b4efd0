"""Write build/icons/crdesk.ico and crdesk.icns for the Windows and macOS bundles.

PyInstaller wants the program icon in the platform's own format; Qt's image
plugins write both from the same drawing ``crdesk install-desktop`` uses, so
the repository keeps only resources/icons/crdesk.svg.  Run it before the
spec: ``python packaging/icons.py`` (the spec picks the files up when present).
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtGui import QGuiApplication, QImage

from ui.desktop import render_icon

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    app = QGuiApplication(["crdesk", "-platform", "offscreen"])  # noqa: F841 (Qt needs one)
    folder = ROOT / "build" / "icons"
    folder.mkdir(parents=True, exist_ok=True)
    image = QImage.fromData(render_icon(256))  # both formats take a 256-pixel image
    for name in ("crdesk.ico", "crdesk.icns"):
        if not image.save(str(folder / name)):
            print(f"error: Qt could not write {folder / name}", file=sys.stderr)
            return 1
        print(f"wrote {folder / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
