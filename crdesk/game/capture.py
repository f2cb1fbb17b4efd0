"""Auto-kill or capture (7.9.12): an active figure in contact with an Out of the
Fight enemy dispatches or captures it; captives are guarded.
"""

from __future__ import annotations

from crdesk.errors import CrdeskError, IllegalActionError
from crdesk.game.actions import Capture
from crdesk.game.table import Table
from crdesk.geometry.measure import base_distance
from crdesk.model import Figure, Status


def check_capture(t: Table, fig: Figure, act: Capture) -> None:
    try:
        target = t.fig(act.target)
    except CrdeskError:
        raise IllegalActionError(f"there is no figure {act.target!r}") from None
    if target.side == fig.side:
        raise IllegalActionError(f"{target.name} is a friend")
    if target.status is not Status.OUT_OF_THE_FIGHT:
        raise IllegalActionError(f"{target.name} is not Out of the Fight (7.9.12)")
    if target.id in t.state["captives"]:
        raise IllegalActionError(f"{target.name} is already a captive")
    if base_distance(fig, target) > 0.25:
        raise IllegalActionError(f"{fig.name} must be in base contact with {target.name} (7.9.12)")


def capture(t: Table, fig: Figure, target: Figure, dispatch: bool) -> None:
    if dispatch:
        t.battlefield.update_figure(target.id, status=Status.OBVIOUSLY_DEAD)
        text = f"{fig.name} dispatches {target.name} (7.9.12)."
    else:
        t.state["captives"][target.id] = fig.id
        text = (
            f"{fig.name} captures {target.name}: captives need at least one armed guard, "
            "one per six (7.9.12)."
        )
    t.emit("capture", text, section="7.9.12", figures=[fig.id, target.id])
