"""Send real QMouseEvents to a view's viewport at table positions (inches).

QTest.mouseMove carries no pressed buttons, so drags are built here from the
same QMouseEvent objects a real mouse produces.
"""

from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent, QWheelEvent
from PySide6.QtWidgets import QApplication

from ui.scene.view import BattlefieldView

LEFT = Qt.MouseButton.LeftButton
NONE = Qt.MouseButton.NoButton
NOMOD = Qt.KeyboardModifier.NoModifier


def at(view: BattlefieldView, x: float, y: float) -> QPointF:
    return QPointF(view.mapFromScene(QPointF(x, y)))


def send(view, kind, x, y, button=LEFT, buttons=LEFT, modifiers=NOMOD) -> None:
    pos = at(view, x, y)
    glob = QPointF(view.viewport().mapToGlobal(pos.toPoint()))
    event = QMouseEvent(kind, pos, glob, button, buttons, modifiers)
    QApplication.sendEvent(view.viewport(), event)


def click(view, x, y, modifiers=NOMOD, button=LEFT) -> None:
    send(view, QEvent.Type.MouseButtonPress, x, y, button, button, modifiers)
    send(view, QEvent.Type.MouseButtonRelease, x, y, button, NONE, modifiers)


def double_click(view, x, y) -> None:
    click(view, x, y)
    send(view, QEvent.Type.MouseButtonDblClick, x, y)
    send(view, QEvent.Type.MouseButtonRelease, x, y, LEFT, NONE)


def drag(view, points, modifiers=NOMOD, wheel_steps: int = 0) -> None:
    (x0, y0), *rest = points
    send(view, QEvent.Type.MouseButtonPress, x0, y0, LEFT, LEFT, modifiers)
    for x, y in rest:
        send(view, QEvent.Type.MouseMove, x, y, NONE, LEFT, modifiers)
    if wheel_steps:
        x, y = points[-1]
        pos = at(view, x, y)
        wheel = QWheelEvent(
            pos,
            QPointF(view.viewport().mapToGlobal(pos.toPoint())),
            QPoint(0, 0),
            QPoint(0, 120 * wheel_steps),
            LEFT,
            modifiers,
            Qt.ScrollPhase.NoScrollPhase,
            False,
        )
        QApplication.sendEvent(view.viewport(), wheel)
    x, y = points[-1]
    send(view, QEvent.Type.MouseButtonRelease, x, y, LEFT, NONE, modifiers)
