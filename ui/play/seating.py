"""Who at the screen is asked: the words the turn panel, the decision panel and the
hand-over banner share ("Alice (Red Vipers) to decide").

The seats themselves and who decides are :mod:`crdesk.game.seats`; this module
only puts them into words, so that the three places say the same thing.
"""

from __future__ import annotations

from crdesk.game import CHANCE, Decision
from crdesk.game.seats import Seat, deciders, seat_of, seats_of
from ui.play.session import PlaySession


def seats_for(session: PlaySession, decision: Decision | None) -> tuple[Seat, ...]:
    """The players asked for ``decision`` (none: the side is one person's, or the program's,
    or dice are awaited)."""
    if decision is None or decision.actor == CHANCE or decision.actor in session.program:
        return ()
    return deciders(session.game, decision)


def who(session: PlaySession, decision: Decision) -> str:
    """ "Alice (Red Vipers)", "Alice or Bob (Red Vipers)", or the side's name alone."""
    side = session.side_name(decision.actor)
    seats = seats_for(session, decision)
    if not seats:
        return side
    names = [s.name for s in seats]
    joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" or {names[-1]}"
    return f"{joined} ({side})"


def seat_key(session: PlaySession, decision: Decision | None) -> tuple[str, ...]:
    """Whom the banner hands over to: the seats' names (empty: the side as a whole)."""
    return tuple(s.name for s in seats_for(session, decision))


def player_of_group(session: PlaySession, side: str, leader: str) -> str | None:
    """The name of the player whose group ``leader`` leads, when the side has several."""
    seats = [s for s in seats_of(session.game.settings) if s.side == side]
    if len(seats) < 2 or side in session.program:
        return None
    seat = seat_of(tuple(seats), side, leader)
    return seat.name if seat is not None else None
