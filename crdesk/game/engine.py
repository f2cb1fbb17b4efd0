"""The table the procedures play on, made: one encounter's state and the primitives
every procedure uses (the :class:`~crdesk.game.table.Table` protocol).

:class:`Engine` holds what the book's procedures share -- the battlefield, the
sides, who sees whom, the frames under way, the game's bookkeeping, the dice
of the step being played and its events -- and runs the frames
(:meth:`Engine.run_automatic`: each frame's kind is handed to its procedure,
:data:`crdesk.game.procedures.PROCEDURES`).  The facade the UI, the command line
and the players use, with the history, undo, replay, fork and previews, is
:class:`crdesk.game.controller.Game`, which is an Engine.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from crdesk.cohesion import Cohesion
from crdesk.dice import DiceLog
from crdesk.errors import IllegalActionError
from crdesk.game import buildings as building_rules
from crdesk.game import grenades
from crdesk.game import in_sight as sighting
from crdesk.game.actions import Action, Point2, book_default
from crdesk.game.adapter import Sight
from crdesk.game.procedures import MODULES, PROCEDURES
from crdesk.game.records import Decision, Event, Frame
from crdesk.game.settings import MANUAL, SEEDED, GameSettings
from crdesk.game.stepdice import StepDice
from crdesk.geometry import kernels
from crdesk.model import Battlefield, Figure, Scenario
from crdesk.options import RulesOptions
from crdesk.rules.common import RuleResult, words
from crdesk.tables import GRENADE
from crdesk.visibility import VisibilityService


class Engine:
    """One encounter's shared state and the procedures' primitives (the Table)."""

    def __init__(self, scenario: Scenario, *, seed: int, dice: str, settings: GameSettings) -> None:
        if dice not in (SEEDED, MANUAL):
            raise IllegalActionError(f"dice must be 'seeded' or 'manual', got {dice!r}")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise IllegalActionError(f"the seed must be a whole number 0 or more, got {seed!r}")
        self.scenario = scenario
        self.seed = seed
        self.dice_mode = dice
        self.settings = settings
        self.rules: RulesOptions = scenario.rules
        self.battlefield: Battlefield = scenario.battlefield.copy()
        sides = [f.id for f in self.battlefield.forces]
        if len(sides) != 2:
            raise IllegalActionError(
                f"a game is played by two sides; this scenario has {len(sides)} forces"
            )
        self.sides: tuple[str, str] = (sides[0], sides[1])
        self.sight_route = kernels.usable()
        """The sight engine's route this game keeps (compiled kernels or numpy)."""
        self.vis = VisibilityService(self.battlefield, self.rules)
        with kernels.pinned(self.sight_route):
            self.cohesion = Cohesion(self.vis)
        self.dice_log = DiceLog()
        self.frame_stack: list[Frame] = [Frame("turn", {"turn": 1, "phase": "roll"})]
        self.state: dict[str, Any] = {
            "turn": 1,
            "die": 0,
            "scores": {},
            "activated": [],
            "ducked": [],
            "rep_lost": {},
            "outcome": None,
            "volleys": 0,
            "activations": 0,
            "grenades": {},
            "thrown": [],
            "floors": {},
            "carrying": {},
            "collapsed": [],
            "captives": {},
            "exited": [],
            "fired_from": {},
        }
        self.modules = tuple(m for m in MODULES if m.plays(settings, self.rules))
        """The optional rules modules this game plays with (solo PEFs, an encounter,
        Firearms Detail)."""
        for module in self.modules:
            if module.start is not None:
                module.start(self)
        self.memo: dict[str, Any] = {}
        """The procedures' caches between steps (never part of the state)."""
        self.step_dice: StepDice | None = None
        """The dice of the step being played (None between steps)."""
        self.step_events: list[Event] = []
        """The events of the step being played, in order."""
        self._sight: Sight | None = None

    def next_step(self) -> int:
        """The number the step being played has (the history's length + 1)."""
        raise NotImplementedError

    def awaiting(self) -> Decision | None:
        """The one decision the game waits for, or None when the encounter is over."""
        raise NotImplementedError

    def forget_sight(self) -> None:
        """Drop the indexed sight matrix (the battlefield was put back)."""
        self._sight = None

    @property
    def turn(self) -> int:
        return int(self.state["turn"])

    def blast(
        self,
        centre: Point2,
        cause: str,
        *,
        attacker_rep: int | None,
        weapon: str = GRENADE,
        missed: bool = False,
        exclude: Iterable[str] = (),
    ) -> None:
        """A blast circle (7.10.5), for the procedures that set one off: the Table's
        way to :func:`crdesk.game.grenades.blast` (the aftermath's dropped grenade)."""
        grenades.blast(
            self,
            centre,
            cause,
            attacker_rep=attacker_rep,
            weapon=weapon,
            missed=missed,
            exclude=exclude,
        )

    def sighted_by(self, fid: str) -> set[str]:
        """The enemies able to act in sight of the figure, either way (7.6)."""
        return sighting.sighted_by(self, fid)

    def involuntary_watch(self, fid: str) -> set[str]:
        """The Table's way to :func:`crdesk.game.in_sight.involuntary_watch` (7.6.2)."""
        return sighting.involuntary_watch(self, fid)

    def involuntary_in_sight(self, fid: str, before: set[str], how: str) -> None:
        """The Table's way to :func:`crdesk.game.in_sight.involuntary_in_sight` (7.6.2)."""
        sighting.involuntary_in_sight(self, fid, before, how)

    def not_now(self, decision: Decision | None = None) -> str:
        """The prompt and the legal choices, for an action that is no choice now."""
        decision = decision or self.awaiting()
        assert decision is not None
        allowed = [str(o) for o in decision.options[:8]] + [f"{w} ..." for w in decision.accepts]
        return f"{decision.prompt} Legal now: {', '.join(allowed) or 'nothing'}"

    def sync_moving(self) -> None:
        """Tell the sight engine who is moving (concealed, not in Cover, 7.9.5): the
        figures that moved in the activation under way, as the frames record them,
        and the chargers of a charge under way (7.11.2); and who ducked back out of
        whose sight (7.4.4)."""
        moving: set[str] = set()
        for frame in self.frame_stack:
            if frame.kind in ("activation", "free_move"):
                still = frame.data.get("still", ())  # turned in place only (7.9.5)
                moving.update(m for m in frame.data["moved"] if m not in still)
            elif frame.kind == "melee":  # chargers, an In Sight's too (7.11.2)
                moving.update(frame.data["chargers"])
        self.vis.set_moving(moving)
        self.vis.set_hidden((f, c) for f, c in self.state.get("hidden", []))

    def frame_path(self) -> tuple[str, ...]:
        """The procedures under way, outermost first, in words (a decision's context)."""
        return tuple(f.label() for f in self.frame_stack)

    def roll(self) -> StepDice:
        """The dice of the step being played (4.1): every roll of a procedure."""
        assert self.step_dice is not None, "dice are rolled only inside a step"
        return self.step_dice

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
        data: dict[str, Any] = result.to_dict() if result is not None else {}
        if extra:
            data.update(extra)
        faces = tuple(dice)
        if self.step_dice is not None:
            rolled = self.step_dice.faces
            faces = faces or tuple(rolled[self.step_dice.emitted :])
            self.step_dice.emitted = len(rolled)
        self.step_events.append(
            Event(
                step=self.next_step(),
                kind=kind,
                section=section or str(data.get("section", "")),
                text=text,
                figures=tuple(figures),
                dice=faces,
                data=data,
            )
        )

    def run_automatic(self) -> None:
        """Run frames until one needs a decision (or the encounter ends)."""
        for _ in range(100_000):
            if self.state["outcome"] is not None or not self.frame_stack:
                break
            if self._watch():
                continue
            frame = self.frame_stack[-1]
            if not self.run_frame(frame) and not self._watch():
                break
        else:  # pragma: no cover - a bug guard
            raise RuntimeError("the game did not reach a decision")

    def _watch(self) -> bool:
        """The modules' work between frames (PEFs coming into sight, 11.3); True if any."""
        did = False
        for module in self.modules:
            if module.watch is not None and module.watch(self):
                did = True
        return did

    def run_frame(self, frame: Frame) -> bool:
        """Do the frame's automatic work; False when it waits for a decision."""
        return bool(PROCEDURES[frame.kind].run(self, frame))

    def decision_of(self, frame: Frame) -> Decision:
        """The decision the frame waits for, with the book's choice as its default."""
        decide = PROCEDURES[frame.kind].decide
        assert decide is not None, f"a {frame.kind} frame never waits for a decision"
        d = decide(self, frame)
        default = d.default or (book_default(d.options) if d.options else None)
        return replace(d, step=self.next_step(), frames=self.frame_path(), default=default)

    def check_action(self, frame: Frame, act: Action) -> None:
        """Judge an action that is not one of the decision's options (IllegalActionError
        with the reason, in a player's words)."""
        check = PROCEDURES[frame.kind].check
        if check is None:
            raise IllegalActionError(self.not_now())
        check(self, frame, act)

    def apply_action(self, frame: Frame, act: Action) -> None:
        """Carry out a legal action by the procedure of the frame on top."""
        apply = PROCEDURES[frame.kind].apply
        assert apply is not None, f"a {frame.kind} frame takes no action"
        apply(self, frame, act)

    def push(self, kind: str, **data: Any) -> Frame:
        frame = Frame(kind, data)
        self.frame_stack.append(frame)
        return frame

    def pop(self, frame: Frame) -> None:
        assert self.frame_stack and self.frame_stack[-1] is frame, "popping a frame not on top"
        self.frame_stack.pop()

    def sight(self) -> Sight:
        """The sight matrix now, with its ids indexed (figures a floor parts see
        nothing of each other, 8.3)."""
        self.vis.set_apart(building_rules.floors_apart(self))
        m = self.vis.matrix()
        if self._sight is None or self._sight.matrix is not m:
            self._sight = Sight.of(m)
        return self._sight

    def fig(self, fid: str) -> Figure:
        return self.battlefield.figure(fid)

    def enemy_of(self, side: str) -> str:
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    def alive(self, side: str | None = None) -> list[Figure]:
        return [
            f
            for f in self.battlefield.figures()
            if f.status.can_act and (side is None or f.side == side)
        ]

    def check_over(self) -> bool:
        for module in self.modules:  # an encounter ends by its objectives (12)
            if module.over is not None:
                return module.over(self)
        for side in self.sides:
            if not self.alive(side) and not self.pefs_left(side):
                other = self.enemy_of(side)
                name = self.battlefield.force(side).name
                self.end(other, f"{name} has no figure left that can fight")
                return True
        return False

    def end(self, winner: str | None, reason: str) -> None:
        self.state["outcome"] = {"winner": winner, "reason": reason, "turn": self.turn}
        self.emit("game_over", f"The encounter is over: {reason}.", section="12")
        self.frame_stack.clear()

    def members(self, frame: Frame) -> list[Figure]:
        return [
            self.fig(m)
            for m in frame.data["members"]
            if self.fig(m).status.can_act and m not in self.state["ducked"]
        ]

    def movement_left(self, frame: Frame, fid: str) -> float:
        d = frame.data
        if fid not in d["allow"]:
            return 0.0
        return max(0.0, float(d["allow"][fid]) - float(d["used"][fid]))

    def member(self, frame: Frame, fid: str) -> Figure:
        if fid not in frame.data["members"]:
            raise IllegalActionError(f"{fid} is not in the active group")
        fig = self.fig(fid)
        if not fig.status.can_act:
            raise IllegalActionError(f"{fig.name} is {words(fig.status)} and cannot act")
        if fid in self.state["ducked"]:
            raise IllegalActionError(f"{fig.name} ducked back this turn and cannot act (7.4.4)")
        return fig

    def player_side(self) -> str:
        """The player's side in a solo game: the first force marked as the player's."""
        return next((f.id for f in self.battlefield.forces if f.player), self.sides[0])

    def np_side(self) -> str:
        return self.enemy_of(self.player_side())

    def pefs_left(self, side: str) -> bool:
        """Whether the side still has enemies hidden as PEFs (so it is not destroyed)."""
        if not self.settings.solo or side != self.np_side():
            return False
        if not self.state["pef"]["placed"]:
            return True
        return any(not p["resolved"] for p in self.state["pefs"])
