"""What an indirect shot would be, before it is fired: reach, spotter, the odds and the rings.

No rule is decided here.  The reach, the spotter who counts, the steps, the exact
chance on the spot and who stands in which ring of FD §9 are the adapter's
:func:`~crdesk.game.firearms_view.indirect_plan`; whether the shot may be fired is the
controller's :meth:`~crdesk.game.Game.legal` of ``Indirect(shooter, spot)``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from crdesk.game import Game, firearms_view
from crdesk.game.actions import Indirect, Point2
from crdesk.game.firearms import IndirectPlan
from ui.play.fire_preview import pct, tip_html

Legal = Callable[[Indirect], str | None]


@dataclass(frozen=True, slots=True)
class IndirectPreview:
    """``shooter``'s indirect shot at ``point`` as the spot tool shows it."""

    shooter: str
    point: Point2
    action: Indirect | None
    """The shot a click fires, or None when it may not be fired now."""
    reason: str | None
    plan: IndirectPlan
    friends: tuple[str, ...]
    """The shooter's own side within the rings' reach (the shooter included)."""

    def lines(self, name: Callable[[str], str]) -> list[str]:
        """The readout, one line each, in a player's words."""
        plan = self.plan
        head = f'{name(self.shooter)}: {plan.weapon}, {plan.reach:.1f}" of {plan.range:g}"'
        if plan.reach > plan.range:
            head += " — out of range"
        if plan.spotter is not None:
            spot = f"{name(plan.spotter)} spots: {plan.steps} steps"
        else:
            spot = f"no spotter: {plan.steps} steps"
        out = [head, f"Indirect fire (FD §10), {spot} · on the spot {pct(plan.on_spot)}"]
        odds = {o.id: o for o in plan.damage}
        out.append("On the spot, rings (FD §9):" + ("" if odds else " nobody"))
        for f, ring, _d, saved in plan.rings:
            if ring == "Received Fire":
                continue
            who = f"  {name(f)}{' (friend)' if f in self.friends else ''} {ring}"
            o = odds.get(f)
            if saved or o is None or not o.hit:
                out.append(who + " (saved: Cover or prone, 7.10.6)")
            else:  # the chance it lands on the spot times the ring's damage
                oof, dead = plan.on_spot * o.out_of_the_fight, plan.on_spot * o.obviously_dead
                out.append(f"{who}: Out of the Fight {pct(oof)} · Obviously Dead {pct(dead)}")
        shaken = [name(f) for f, ring, _d, _s in plan.rings if ring == "Received Fire"]
        if shaken:
            out.append("Received Fire only: " + ", ".join(shaken))
        out.append("Click to fire" if self.action is not None else f"Cannot fire: {self.reason}")
        return out

    def html(self, name: Callable[[str], str]) -> str:
        return tip_html(self.lines(name), self.action is not None)


def preview_indirect(
    game: Game, shooter: str, point: Point2, legal: Legal | None = None
) -> IndirectPreview:
    """The preview of ``shooter`` firing indirectly at ``point`` now."""
    judge: Legal = legal or game.legal
    spot = (round(point[0], 1), round(point[1], 1))  # a tenth of an inch: the tape's reading
    action = Indirect(shooter, spot)
    reason = judge(action)
    plan = firearms_view.indirect_plan(game, shooter, spot)
    side = game.fig(shooter).side
    friends = tuple(f for f, *_ in plan.rings if game.fig(f).side == side)
    return IndirectPreview(
        shooter=shooter,
        point=spot,
        action=action if reason is None else None,
        reason=reason,
        plan=plan,
        friends=friends,
    )
