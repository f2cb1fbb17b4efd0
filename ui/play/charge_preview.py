"""What a Charge into Melee would be, before it is declared: the path, the reach and the odds.

No rule is decided here.  The reach, the Cover and the approach (front, flank or
rear) are read from the table by the adapter's
:func:`~crdesk.game.adapter.charge_spec`; whether the charge may be declared is
the controller's :meth:`~crdesk.game.Game.legal` of ``Charge(charger, target)``;
the odds of the test's three outcomes are :func:`crdesk.odds.charge_odds` for
exactly those circumstances (7.11.2).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from crdesk.game import Game, adapter
from crdesk.game.actions import Charge, Point2
from crdesk.game.melee import charge_cost, contact_point, target_in_cover
from crdesk.odds import ChargeOdds, charge_odds
from crdesk.tables import ChargeResult
from ui.play.fire_preview import pct, tip_html

Legal = Callable[[Charge], str | None]

OUTCOME_WORDS: dict[ChargeResult, str] = {
    ChargeResult.CHARGER_MOVES_IN: "{charger} moves in unshot",
    ChargeResult.TARGET_RUSH_SHOTS: "{target} Rush Shots",
    ChargeResult.TARGET_FIRES: "{target} fires",
}
"""The test's outcomes (7.11.2), best for the charger first."""


@dataclass(frozen=True, slots=True)
class ChargePreview:
    """A charge's preview from ``charger`` at ``target``."""

    charger: str
    target: str
    action: Charge | None
    """The charge a click declares, or None when it may not be declared now."""
    reason: str | None
    """Why not (the controller's words), when ``action`` is None."""
    spec: adapter.ChargeSpec
    odds: ChargeOdds
    target_can_fire: bool

    def lines(self, name: Callable[[str], str]) -> list[str]:
        """The tooltip, one line each, in a player's words."""
        spec = self.spec
        c, t = name(self.charger), name(self.target)
        out = [f"{c} charges {t}"]
        reach = "in reach" if spec.in_reach else "out of reach"
        out.append(
            f'{spec.distance:.1f}" away; needs {spec.needed:.1f}" of {spec.movement_left:.1f}" '
            f"movement left — {reach}"
        )
        approach = spec.approach.value
        cover = ", in Cover" if spec.in_cover else ""
        out.append(f"From the {approach}{cover}: {t} rolls {spec.target_dice}d6 (7.11.2)")
        for outcome, words in OUTCOME_WORDS.items():
            text = words.format(charger=c, target=t)
            if outcome is not ChargeResult.CHARGER_MOVES_IN and not self.target_can_fire:
                text += " (cannot: moves in)"
            out.append(f"{text}: {pct(self.odds.chance(outcome))}")
        out.append(
            "Click to charge" if self.action is not None else f"Cannot charge: {self.reason}"
        )
        return out

    def html(self, name: Callable[[str], str]) -> str:
        """The tooltip as rich text: the pair in bold, the odds stressed, a refusal in red."""
        return tip_html(self.lines(name), self.action is not None, bold_from=3)


def preview_charge(
    game: Game, charger: str, target: str, legal: Legal | None = None
) -> ChargePreview:
    """The preview of ``charger`` charging ``target`` now; ``legal`` defaults to the game's."""
    judge: Legal = legal or game.legal
    action = Charge(charger, target)
    reason = judge(action)
    fig, foe = game.fig(charger), game.fig(target)
    left = game.flags(charger).get("movement_left")
    spec = adapter.charge_spec(
        fig,
        foe,
        game.sight(),
        game.rules,
        movement_left=float(left) if isinstance(left, int | float) else 0.0,
        # as the test judges it: from 1" away (7.11.2)
        in_cover=target_in_cover(game, fig, foe, contact_point(fig, foe)),
        cost_of=charge_cost(game, fig, foe),  # the reach is movement: woods, doors (7.4)
    )
    odds = charge_odds(
        fig.rep, foe.rep, in_cover=spec.in_cover, approach=spec.approach, options=game.rules
    )
    return ChargePreview(
        charger=charger,
        target=target,
        action=action if reason is None else None,
        reason=reason,
        spec=spec,
        odds=odds,
        target_can_fire=adapter.can_fire(foe),
    )


def path_end(preview: ChargePreview) -> Point2:
    """Where the charger's base would come to touch the target's."""
    return preview.spec.contact
