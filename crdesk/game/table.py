"""The table every rules procedure plays on: the shared state of one encounter.

The controller (:class:`crdesk.game.Game`) runs the book's procedures -- the turn
(7.1), moving (7.4), In Sight (7.6), reactions (7.7), fire (7.9), grenades (7.10),
melee (7.11), the wounded (7.12), PEFs (11) -- one frame at a time.  Each procedure
module (``crdesk/game/wounded.py``, ...) is a set of functions of a :class:`Table`:
the battlefield, the frames in progress, the dice, the log of events, who sees whom
and the sides.  That is all a procedure may touch; ``Game`` is the one class that
has it, and is the facade the UI, the command line and the players use.

The table's names are the book's: a *frame* is one procedure under way (an
activation, an In Sight test, a reaction test...); an *event* is one line of the
game's log; *alive* means able to act (not Out of the Fight, dead, gone).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from crdesk.cohesion import Cohesion
    from crdesk.dice import DiceSource
    from crdesk.game.actions import Action
    from crdesk.game.adapter import Sight
    from crdesk.game.records import Decision, Frame
    from crdesk.game.settings import GameSettings
    from crdesk.model import Battlefield, Figure, Scenario
    from crdesk.options import RulesOptions
    from crdesk.rules.common import RuleResult
    from crdesk.tables import PefResolution
    from crdesk.visibility import VisibilityService


class Table(Protocol):
    """What the rules procedures share.  Everything here is part of the game's state
    or a question about it; a procedure changes the game only through these."""

    scenario: Scenario
    """The scenario being played (its rules, its user weapon cards, FD §2)."""
    battlefield: Battlefield
    """The game's own copy of the scenario's table, figures and terrain; the sight
    engine and cohesion follow every change made through its methods."""
    rules: RulesOptions
    """The scenario's rules options (Old School, night, every Interpretation)."""
    sides: tuple[str, str]
    """The two forces' ids, in the scenario's order."""
    vis: VisibilityService
    """Line of sight, Cover and concealment between the figures (7.9.4, 7.9.5)."""
    cohesion: Cohesion
    """Who forms a group with whom (6.2)."""
    state: dict[str, Any]
    """The encounter's bookkeeping as plain JSON data: turn, activation scores, who
    activated, ducked back, carries whom, readied grenades, PEFs... (hashed and saved
    with every snapshot)."""
    frame_stack: list[Frame]
    """The procedures under way, innermost last (see :meth:`push`)."""
    settings: GameSettings
    """How the encounter is played: solo (PEFs, 11), hot seat, the turn limit..."""
    memo: dict[str, Any]
    """The procedures' caches between steps, keyed by what they depend on; never
    part of the state (a fork starts without them)."""
    modules: tuple[RulesModule, ...]
    """The optional rules modules this game plays with (solo PEFs, an encounter's
    objectives, Firearms Detail), in the registry's order
    (:data:`crdesk.game.procedures.MODULES`)."""

    @property
    def turn(self) -> int:
        """The turn under way, from 1 (7.1)."""
        ...

    def fig(self, fid: str) -> Figure:
        """The figure with this id."""
        ...

    def enemy_of(self, side: str) -> str:
        """The other side."""
        ...

    def alive(self, side: str | None = None) -> list[Figure]:
        """The figures able to act (of one side, or all), in roster order."""
        ...

    def sight(self) -> Sight:
        """Who sees whom now, with Cover, concealment and distances."""
        ...

    def roll(self) -> DiceSource:
        """The dice of the step under way (seeded, or the faces the player typed)."""
        ...

    def emit(
        self,
        kind: str,
        text: str,
        *,
        section: str = "",
        figures: Iterable[str] = (),
        result: RuleResult | None = None,
        dice: Iterable[int] = (),
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        """Add a line to the game's log: what happened, in the book's words, with the
        section it applies and the rule's result (its dice and why); ``extra``: more
        data for the event (where a charger stood 1" off, for the table to show)."""
        ...

    def push(self, kind: str, **data: Any) -> Frame:
        """Start a procedure: it runs before the one under way goes on."""
        ...

    def pop(self, frame: Frame) -> None:
        """End the innermost procedure (``frame``)."""
        ...

    def movement_left(self, frame: Frame, fid: str) -> float:
        """Inches the figure may still move in the activation ``frame`` (7.4)."""
        ...

    def sync_moving(self) -> None:
        """Tell the sight engine who is moving in the activation under way (concealed,
        not in Cover, 7.9.5) and who ducked back out of whose sight (7.4.4)."""
        ...

    def members(self, frame: Frame) -> list[Figure]:
        """The figures of the group active in ``frame`` that can still act: able to
        act and not ducked back this turn (7.1, 7.4.4)."""
        ...

    def member(self, frame: Frame, fid: str) -> Figure:
        """The figure ``fid`` of the group active in ``frame``, able to act and not
        ducked back this turn (7.1, 7.4.4); else ``IllegalActionError`` saying why."""
        ...

    def player_side(self) -> str:
        """The side of the scenario's player force (the other is the non-player, 11)."""
        ...

    def np_side(self) -> str:
        """The non-player side, whose enemies PEFs may be (11)."""
        ...

    def check_over(self) -> bool:
        """Whether the encounter has just ended (a side has nobody left to fight, or
        its objectives are settled, 12); True when it ended now."""
        ...

    def pefs_left(self, side: str) -> bool:
        """Whether the side still has unresolved PEFs on the table (11)."""
        ...

    def end(self, winner: str | None, reason: str) -> None:
        """The encounter is over: ``winner`` (a side, or None for nobody) and why."""
        ...

    def sighted_by(self, fid: str) -> set[str]:
        """The enemies able to act in sight of the figure, either way (7.6)."""
        ...

    def not_now(self, decision: Decision | None = None) -> str:
        """Why an action is no choice now: the awaited decision and its legal choices."""
        ...

    # -- the procedures others set off (the chain reaction) -------------------------

    def blast(
        self,
        centre: tuple[float, float],
        cause: str,
        *,
        attacker_rep: int | None,
        weapon: str = ...,
        missed: bool = False,
        exclude: Iterable[str] = (),
    ) -> None:
        """A blast circle at ``centre`` set off by ``cause`` (7.10.5): damage, or
        Received Fire for those who escape it (7.10.6)."""
        ...

    def involuntary_watch(self, fid: str) -> set[str]:
        """The enemies whose coming into the figure's sight as it is moved against its
        will would trigger an In Sight test now (7.6.2)."""
        ...

    def involuntary_in_sight(self, fid: str, before: set[str], how: str) -> None:
        """The In Sight test a figure moved against its will sets off when it comes
        into the sight of an enemy not seen in this activation phase (7.6.2);
        ``before``: :meth:`sighted_by` before the move, ``how``: the move, in words."""
        ...


@dataclass(frozen=True, slots=True)
class Procedure:
    """The handlers of one kind of frame -- one of the book's procedures under way.

    ``run`` does its automatic work and says whether it went on (False: it waits for
    a decision); ``decide`` is the decision it waits for; ``check`` judges an action
    that is not one of the decision's options (raises ``IllegalActionError`` with the
    reason); ``apply`` carries an action out.  The controller dispatches every frame
    of this ``kind`` to them (:data:`crdesk.game.procedures.PROCEDURES`).
    """

    kind: str
    run: Callable[[Table, Frame], bool]
    decide: Callable[[Table, Frame], Decision] | None = None
    check: Callable[[Table, Frame, Action], None] | None = None
    apply: Callable[[Table, Frame, Action], None] | None = None


@dataclass(frozen=True, slots=True)
class RulesModule:
    """An optional part of the rules a game may play with -- the solo game's PEFs (11),
    an encounter's objectives (12), Firearms Detail -- as a plug-in of the procedures.

    ``plays`` says from the game's settings and rules options whether a game plays
    with it (fixed for the game).  The hooks, each optional, are called by the
    procedures at fixed points, for the modules in play only (:attr:`Table.modules`):
    ``start`` adds the module's part of the game state when the game is made (so a
    game without the module keeps its state, and its hash, as they were);
    ``watch`` does automatic work between frames (True when it did some);
    ``over`` decides whether the encounter has ended (instead of "a side has no
    figure left"); ``activation_end`` hears that a group ended its activation
    (side, members); ``pef_resolved`` that a PEF was resolved (the PEF, the
    outcome); ``time_up`` ends the encounter at the turn limit (the last turn).
    A module never reaches into the controller: it plays on the :class:`Table`.
    """

    name: str
    plays: Callable[[GameSettings, RulesOptions], bool]
    start: Callable[[Table], None] | None = None
    watch: Callable[[Table], bool] | None = None
    over: Callable[[Table], bool] | None = None
    activation_end: Callable[[Table, str, Sequence[str]], None] | None = None
    pef_resolved: Callable[[Table, dict[str, Any], PefResolution], None] | None = None
    time_up: Callable[[Table, int], None] | None = None
