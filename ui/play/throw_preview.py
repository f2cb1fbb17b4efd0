"""What a grenade throw would be, before it is thrown: reach, LOS, the blast circle and the odds.

No rule is decided here.  The reach from the thrower's base, whether it sees the
spot and who stands in the blast circle are the adapter's
:func:`~crdesk.game.adapter.throw_spec`; whether the throw may be made is the
controller's :meth:`~crdesk.game.Game.legal` of ``Throw(thrower, spot)``; the
odds are :func:`crdesk.odds.throw_odds` (7.10.3).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from crdesk.game import Game, adapter
from crdesk.game.actions import Point2, Throw
from crdesk.odds import ThrowOdds, throw_odds
from crdesk.tables import GrenadeThrow
from ui.play.fire_preview import pct, tip_html

Legal = Callable[[Throw], str | None]


@dataclass(frozen=True, slots=True)
class ThrowPreview:
    """A throw's preview from ``thrower`` at ``point``."""

    thrower: str
    point: Point2
    action: Throw | None
    """The throw a click makes, or None when it may not be made now."""
    reason: str | None
    spec: adapter.ThrowSpec
    odds: ThrowOdds
    friends: tuple[str, ...]
    """The thrower's own side in the circle (the thrower included)."""

    def lines(self, name: Callable[[str], str]) -> list[str]:
        """The readout, one line each, in a player's words."""
        spec = self.spec
        out = [f'{name(self.thrower)} throws: {spec.reach:.1f}" of {spec.range:g}"']
        if not spec.in_range:
            out[0] += " — out of range"
        sight = "in sight" if spec.spot_in_los else "out of sight (one pass misses)"
        words = {GrenadeThrow.ON_SPOT: "on the spot", GrenadeThrow.MISS: "miss"}
        chances = [
            f"{words.get(o, 'Oops')} {pct(p)}" for o, p in self.odds.outcomes.items() if p
        ]  # an impossible outcome (a miss on a spot in sight) is left out
        out.append(f"Spot {sight}: " + " · ".join(chances))
        caught = [name(f) + (" (friend)" if f in self.friends else "") for f in spec.inside]
        out.append(f'Blast {2 * spec.blast_radius:g}": ' + (", ".join(caught) or "nobody"))
        out.append("Click to throw" if self.action is not None else f"Cannot throw: {self.reason}")
        return out

    def html(self, name: Callable[[str], str]) -> str:
        return tip_html(self.lines(name), self.action is not None)


def preview_throw(
    game: Game, thrower: str, point: Point2, legal: Legal | None = None
) -> ThrowPreview:
    """The preview of ``thrower`` throwing its readied grenade at ``point`` now."""
    judge: Legal = legal or game.legal
    spot = (round(point[0], 1), round(point[1], 1))  # a tenth of an inch: the tape's reading
    action = Throw(thrower, spot)
    reason = judge(action)
    fig = game.fig(thrower)
    spec = adapter.throw_spec(fig, spot, game.battlefield, game.rules, index=game.vis.index)
    side = fig.side
    friends = tuple(f for f in spec.inside if game.fig(f).side == side)
    return ThrowPreview(
        thrower=thrower,
        point=spot,
        action=action if reason is None else None,
        reason=reason,
        spec=spec,
        odds=throw_odds(fig.rep, spot_in_los=spec.spot_in_los),
        friends=friends,
    )
