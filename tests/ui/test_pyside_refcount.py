"""Regression guard: PySide6 6.12.0 on Python 3.11 aborts after many void calls.

Our dependency specifiers keep that combination out; this test proves that the
installed PySide6 survives 200,000 ``setPos`` calls in a fresh interpreter.
"""

import os
import subprocess
import sys

SCRIPT = """
from PySide6.QtWidgets import QApplication, QGraphicsEllipseItem, QGraphicsScene
app = QApplication([])
scene = QGraphicsScene()
item = QGraphicsEllipseItem(0, 0, 1, 1)
scene.addItem(item)
for i in range(200_000):
    item.setPos(i % 100, i % 37)
    if i % 50_000 == 0:
        item.setZValue(i)
print("done")
"""


def test_many_setpos_calls_exit_cleanly() -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120, env=env
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "done"
    assert "none_dealloc" not in result.stderr
