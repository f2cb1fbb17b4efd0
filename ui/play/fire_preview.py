"""What a shot would be, before it is fired: range, Cover, concealment and the exact odds.

No rule is decided here.  The shot a click plays is the first of these that
the controller's :meth:`~crdesk.game.Game.legal` accepts: when other enemies
stand in the arc of fire beside the hovered one (the adapter's
:func:`~crdesk.game.adapter.fire_choice`), the book's share of the dice among
them (7.9.8); all the shooter's dice at the hovered enemy
(``Fire(shooter, ((target, 0),))``, the default allocation); else the book's
shot for that shooter offered in the decision when it includes the enemy (the
arc rule of 7.9.8 may make the others illegal).  The odds are
:func:`crdesk.odds.fire_odds` for exactly that shot, with the targets read from
the table by the controller's adapter, as the controller reads them when it
fires.  When the volley may be shared, a click opens the fire dialog
(:mod:`ui.play.fire_dialog`) instead of firing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from html import escape

from crdesk.errors import CrdeskError
from crdesk.game import Decision, Game, adapter, firearms_view
from crdesk.game.actions import Fire
from crdesk.odds import FireOdds, fire_odds
from crdesk.tables import weapon_stats

Legal = Callable[[Fire], str | None]


@dataclass(frozen=True, slots=True)
class ShotPreview:
    """A shot's preview from ``shooter`` at ``target``."""

    shooter: str
    target: str
    action: Fire | None
    """The shot a click plays, or None when the shooter cannot fire at the target now."""
    reason: str | None
    """Why not (the controller's words), when ``action`` is None."""
    distance: float
    weapon: str
    range: float
    sees: bool
    in_cover: bool
    concealed: bool
    odds: FireOdds | None = None
    odds_note: str = ""
    """Why there are no odds (a blast weapon), when ``odds`` is None."""
    choice: adapter.FireChoice | None = None
    """Who a volley at the target may include (None for a blast weapon or no shot)."""
    grenade: bool = False
    """The shooter holds a grenade it may throw now: the tooltip says how (G)."""
    indirect: bool = False
    """The shooter's blast weapon does not see the target but may fire indirectly now
    (Firearms Detail, FD §10): the tooltip says how (I)."""

    @property
    def shared(self) -> bool:
        """Whether the dice may be shared among several targets: a click opens the dialog."""
        return self.action is not None and self.choice is not None and len(self.choice.targets) > 1

    @property
    def hit(self) -> Fraction | None:
        """The chance to hit the hovered target at least once."""
        if self.odds is None or self.action is None:
            return None
        ids = self.action.target_ids
        return self.odds.targets[ids.index(self.target)].hit if self.target in ids else None

    def lines(self, name: Callable[[str], str]) -> list[str]:
        """The tooltip, one line each, in a player's words."""
        out = [f"{name(self.shooter)} → {name(self.target)}"]
        rng = f'{self.distance:.1f}" — {self.weapon} range {self.range:g}"'
        out.append(f"Range {rng}" + ("" if self.distance <= self.range else " (out of range)"))
        if self.sees:
            cover = "in Cover" if self.in_cover else "not in Cover"
            hidden = "concealed" if self.concealed else "not concealed"
            out.append(f"{name(self.target)} is {cover}, {hidden}")
        else:
            out.append("No line of sight")
        if self.odds is not None and self.action is not None:
            counts = dict(self.action.targets)
            for t, odds in zip(self.action.target_ids, self.odds.targets, strict=True):
                dice = f" ({counts[t]}d)" if counts.get(t) else ""
                out.append(
                    f"{odds.name}{dice}: hit {pct(odds.hit)} · Out of the Fight "
                    f"{pct(odds.out_of_the_fight)} · Obviously Dead {pct(odds.obviously_dead)}"
                )
            out.append(
                f"Duck Back {pct(self.odds.targets[0].duck_back)} · out of ammo "
                f"{pct(self.odds.out_of_ammo)}"
                if len(self.odds.targets) == 1
                else f"Any hit {pct(self.odds.any_hit)} · out of ammo {pct(self.odds.out_of_ammo)}"
            )
        elif self.odds_note:
            out.append(self.odds_note)
        keys = "Ctrl: charge instead" + (" · G: throw the grenade" if self.grenade else "")
        if self.indirect:
            keys += " · I: fire indirectly at the spot (FD §10)"
        out.append(keys)
        if self.shared:
            assert self.choice is not None
            out.append(
                f"Click to share {self.choice.dice} dice among {len(self.choice.targets)} "
                "targets in the arc of fire (7.9.8)"
            )
        elif self.action is not None:
            others = [t for t in self.action.target_ids if t != self.target]
            also = f" (with {', '.join(name(t) for t in others)}: the arc of fire, 7.9.8)"
            out.append("Click to fire" + (also if others else ""))
        else:
            out.append(f"Cannot fire: {self.reason}")
        return out

    def html(self, name: Callable[[str], str]) -> str:
        """The tooltip as rich text: the pair in bold, the odds stressed, a refusal in red."""
        lines = [escape(line) for line in self.lines(name)]
        odds = len(self.odds.targets) if self.odds is not None and self.action else 0
        out = [f"<b>{lines[0]}</b>", *lines[1:3]]
        out += [f"<b>{line}</b>" for line in lines[3 : 3 + odds]]
        out += lines[3 + odds : -1]
        last = lines[-1]
        colour = "#1b7a36" if self.action is not None else "#b3261e"
        out.append(f'<span style="color:{colour}">{last}</span>')
        return "<p style='white-space:pre'>" + "<br>".join(out) + "</p>"


def tip_html(lines: Sequence[str], ok: bool, *, bold_from: int | None = None) -> str:
    """A spot tool's tooltip as rich text: the first line in bold, the lines from
    ``bold_from`` (the odds) stressed, the last (click to act, or why not) green or red."""
    esc = [escape(line) for line in lines]
    middle = esc[1:-1]
    if bold_from is not None:
        middle = [*esc[1:bold_from], *(f"<b>{line}</b>" for line in esc[bold_from:-1])]
    colour = "#1b7a36" if ok else "#b3261e"
    body = [f"<b>{esc[0]}</b>", *middle, f'<span style="color:{colour}">{esc[-1]}</span>']
    return "<p style='white-space:pre'>" + "<br>".join(body) + "</p>"


def pct(p: Fraction) -> str:
    """A chance as a percentage, never rounding a possible outcome to 0 or a sure one to 100."""
    value = float(p) * 100
    if 0 < value < 0.5:
        return "<1%"
    if 99.5 <= value < 100:
        return ">99%"
    return f"{value:.0f}%"


def candidates(
    decision: Decision | None,
    shooter: str,
    target: str,
    choice: adapter.FireChoice | None = None,
) -> list[Fire]:
    """The shots a click may play, in order: the book's share when others stand in the arc,
    all dice at the target, then the book's shot offered in the decision."""
    out = [Fire(shooter, ((target, 0),))]
    if choice is not None and len(choice.targets) > 1:
        out.insert(0, Fire(shooter, choice.default))
    if decision is not None:
        for option in decision.options:
            if (
                isinstance(option, Fire)
                and option.figure == shooter
                and target in option.target_ids
                and option not in out
            ):
                out.append(option)
    return out


def preview_shot(game: Game, shooter: str, target: str, legal: Legal | None = None) -> ShotPreview:
    """The preview of ``shooter`` firing at ``target`` now; ``legal`` defaults to the game's."""
    judge: Legal = legal or game.legal
    decision = game.awaiting()
    fig = game.fig(shooter)
    sight = game.sight()
    stats = weapon_stats(fig.weapon, game.rules.old_school)
    choice = (
        None
        if stats.blast
        else adapter.fire_choice(
            fig, game.fig(target), game.battlefield.figures(), sight, game.rules
        )
    )
    action: Fire | None = None
    reason: str | None = None
    for shot in candidates(decision, shooter, target, choice):
        why = judge(shot)
        if why is None:
            action = shot
            break
        reason = reason or why
    sees = sight.sees(shooter, target)
    odds: FireOdds | None = None
    note = ""
    if action is not None:
        if stats.blast:
            note = f"{stats.name}: a blast weapon (no per-target odds)"
        elif game.rules.firearms_detail:  # the odds depend on the mode chosen (FD §11)
            panel = firearms_view.weapon_panel(game, shooter)
            rounds = f" — {panel.summary}" if panel is not None else ""
            note = f"Firearms Detail{rounds}: click to choose the mode; the odds per die are there"
        else:
            specs = [adapter.target_spec(game.fig(t), fig, sight) for t in action.target_ids]
            counts = [n for _, n in action.targets]
            try:
                odds = fire_odds(
                    fig.rep,
                    fig.weapon,
                    specs,
                    allocation=counts if any(counts) else None,
                    fast_moving=fig.fast_moving,
                    options=game.rules,
                    star_power=[adapter.star_power_dice(game.fig(t)) for t in action.target_ids],
                )
            except CrdeskError as exc:
                note = f"No odds: {exc}"
    return ShotPreview(
        shooter=shooter,
        target=target,
        action=action,
        reason=reason,
        distance=sight.distance(shooter, target),
        weapon=stats.name,
        range=adapter.weapon_range(fig, game.rules),
        sees=sees,
        in_cover=sees and sight.in_cover(shooter, target),
        concealed=sees and sight.concealed(shooter, target),
        odds=odds,
        odds_note=note,
        choice=choice if action is not None else None,
        grenade=game.flags(shooter).get("grenade") == "ready",
        indirect=(
            bool(game.rules.firearms_detail)
            and stats.blast
            and not sees
            and firearms_view.indirect_problem(game, shooter) is None
        ),
    )
