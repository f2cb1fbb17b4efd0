"""The game controller: a Chain Reaction encounter as an exact, replayable state machine.

One :class:`Game` per encounter.  It says which decision it awaits
(:meth:`Game.awaiting`), judges an action (:meth:`Game.legal`), applies it
(:meth:`Game.play`) and records what happened (:attr:`Game.events`).  A game
is its scenario, its dice seed and its list of steps, so :meth:`Game.replay`
rebuilds any game exactly and :meth:`Game.undo` goes back by replaying.

How it works inside (STYLE "Playing"):

* **Frames.**  A stack of plain records -- turn, side, activation, free move,
  In Sight, reaction, aftermath (damage, Star Power, Cheating Death), duck
  back, melee -- holds everything in progress.  After each action the game
  runs the top frame's automatic work (``_run_<kind>``) until a frame needs a
  decision from a side (``_decide_<kind>``); that is what :meth:`awaiting`
  returns, ``_check_<kind>`` judges a parametric action and ``_apply_<kind>``
  carries it out.  Nothing in a frame is a closure, so the game can be saved
  and compared mid-chain, and :meth:`Game.from_snapshot` can resume one.
* **The book's choices** are the decisions' :attr:`~Decision.default`; Grunts'
  In Sight actions (7.6.4), Return Fire at the cause and the Leader Die are
  automatic, as the book has them.
* **Dice.**  Every roll goes through one dice source per step.  Seeded games
  read die *k* from :func:`crdesk.dice.counter_face` (seed, k), so replays and
  undo give the same faces on any Python.  Manual-dice games stop with a
  ``"chance"`` decision when a rule needs dice the player has not typed yet;
  the step is then run again from its start with the faces given so far (a
  step's effect is a pure function of the state, the action and its faces).
* **The battlefield** is the game's own copy of the scenario's and changes
  only through :class:`~crdesk.model.Battlefield` methods, so the visibility
  service and cohesion (which listen to its change events) follow every step.
"""

from __future__ import annotations

import hashlib
import json
import marshal
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from crdesk import limits
from crdesk.cohesion import Cohesion
from crdesk.dice import DiceLog
from crdesk.errors import IllegalActionError
from crdesk.game import buildings as building_rules
from crdesk.game import group_moves, moving, snapshot, summary
from crdesk.game.actions import (
    Action,
    DiceFaces,
    MoveGroup,
    MoveTo,
    Pass,
    Point2,
    Start,
)
from crdesk.game.engine import Engine
from crdesk.game.preview import Preview, sightings_of
from crdesk.game.records import CHANCE, Decision, Event, Frame, Outcome, Step
from crdesk.game.settings import MANUAL, SEEDED, GameSettings
from crdesk.game.stepdice import NeedDice, StepDice
from crdesk.geometry import kernels, routing
from crdesk.model import (
    Battlefield,
    Scenario,
)
from crdesk.visibility import VisibilityService

CHECKPOINT_EVERY = 25
"""Steps between the snapshots :meth:`Game.undo` and :meth:`Game.fork` start from."""
HASH_EVERY = 10
"""Steps between the state hashes recorded while playing (a saved game's checks)."""


@dataclass(slots=True)
class _Checkpoint:
    steps: int
    battlefield: Any
    state: dict[str, Any]
    frames: list[tuple[str, dict[str, Any]]]
    events: int
    dice_log: int


# ----------------------------------------------------------------------------
# The game


class Game(Engine):
    """One encounter being played.  Build with :meth:`new` or :meth:`replay`."""

    def __init__(
        self,
        scenario: Scenario,
        *,
        seed: int,
        dice: str,
        settings: GameSettings,
        start: bool = True,
    ) -> None:
        super().__init__(scenario, seed=seed, dice=dice, settings=settings)
        self._steps: list[Step] = []
        self._events: list[Event] = []
        self._pending: dict[str, Any] | None = None
        """Manual dice: the action waiting for faces and the faces typed so far."""
        self._checkpoints: list[_Checkpoint] = []
        self._hashes: dict[int, str] = {}
        self._version = 0
        """Bumped whenever the state changes: the awaited decision is cached on it."""
        self._legal_memo: tuple[int, dict[Action, str | None]] | None = None
        """:meth:`legal`'s answers at ``_version``."""
        self._awaited: tuple[int, Decision | None] | None = None
        self._checkpoint()
        if start:
            self._run_step(Start(), CHANCE, [], "")

    # -- construction -------------------------------------------------------

    @classmethod
    def new(
        cls,
        scenario: Scenario,
        *,
        seed: int = 0,
        dice: str = SEEDED,
        settings: GameSettings | None = None,
    ) -> Game:
        """A new game of the scenario; its battlefield is the game's own copy.

        With ``dice="manual"`` the game waits for the faces of real dice
        (a ``"chance"`` decision) whenever a rule rolls.
        """
        return cls(scenario, seed=seed, dice=dice, settings=settings or GameSettings())

    @classmethod
    def replay(
        cls,
        scenario: Scenario,
        steps: Iterable[Step],
        *,
        seed: int = 0,
        dice: str = SEEDED,
        settings: GameSettings | None = None,
        check: Callable[[int, Game], None] | None = None,
    ) -> Game:
        """Rebuild a game from its steps; ``check(n, game)`` runs after step n (1-based).

        Raises :class:`ReplayError` naming the first step that cannot be played.
        """
        game = cls(scenario, seed=seed, dice=dice, settings=settings or GameSettings(), start=False)
        for n, step in enumerate(steps, 1):
            game._replay_step(n, step)
            if check is not None:
                check(n, game)
        return game

    @classmethod
    def from_snapshot(
        cls,
        scenario: Scenario,
        state: dict[str, Any],
        steps: Iterable[Step],
        *,
        seed: int = 0,
        dice: str = SEEDED,
        settings: GameSettings | None = None,
    ) -> Game:
        """A game put straight into a saved :meth:`state_document`, its history taken as
        recorded (unchecked): for a saved game whose steps no longer replay.  Undo
        cannot go back before the snapshot.  Raises IllegalActionError when the
        snapshot does not fit the scenario or cannot be played on."""
        game = cls(scenario, seed=seed, dice=dice, settings=settings or GameSettings(), start=False)
        try:
            game._load_state(state, list(steps))
            game.awaiting()
        except IllegalActionError:
            raise
        except Exception as exc:  # a hostile or broken snapshot
            raise IllegalActionError(f"the saved snapshot cannot be played on ({exc})") from None
        return game

    def _load_state(self, doc: dict[str, Any], steps: list[Step]) -> None:
        rows, frames = snapshot.fitting(self, doc, len(steps))
        self.battlefield.update_figures(
            {r["id"]: {k: v for k, v in r.items() if k not in ("id", "side")} for r in rows}
        )
        self.state = _plain(doc["game"])
        self.frame_stack = frames
        self._pending = _plain(doc["pending"])
        self._steps = list(steps)
        self._checkpoints = [self._mark()]
        self._hashes = {}
        self._version += 1
        self.sync_moving()

    def _replay_step(self, n: int, step: Step) -> None:
        typed = list(step.faces) if self.dice_mode == MANUAL else []
        try:
            if step.action == Start.word:
                if self._steps:
                    raise IllegalActionError("a game starts only once, at step 1")
                self._run_step(Start(), CHANCE, typed, step.why)
            elif not self._steps:
                raise IllegalActionError("a game's first step is 'start'")
            else:
                self.play(step.action, faces=typed, why=step.why)
        except IllegalActionError as exc:
            raise ReplayError(n, f"step {n} ({step.action!r}) cannot be played: {exc}") from None
        if self._pending is not None:
            raise ReplayError(n, f"step {n} ({step.action!r}) needs more dice than recorded")
        last = self._steps[-1]
        if step.faces and last.faces != step.faces:
            raise ReplayError(
                n,
                f"step {n} ({step.action!r}) rolled {_faces(last.faces)} but the file "
                f"recorded {_faces(step.faces)}",
            )

    # -- queries ------------------------------------------------------------

    @property
    def history(self) -> tuple[Step, ...]:
        """Every step played, in order (the game is its scenario, seed and this list)."""
        return tuple(self._steps)

    def next_step(self) -> int:
        """The number the step being played has (the history's length + 1)."""
        return len(self._steps) + 1

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    @property
    def outcome(self) -> Outcome | None:
        out = self.state["outcome"]
        if out is None:
            return None
        turn = out["turn"]
        limit = self.settings.max_turns
        if limit is not None and turn > limit:
            # The turn limit ends the game once its last turn has ended (7.1), when the
            # state's turn counter has moved on: the outcome names the last turn played.
            # Said here, not stored, so games saved before replay to their hashes.
            turn = limit
        return Outcome(
            out["winner"], out["reason"], turn, out.get("won"), out.get("next_encounter")
        )

    @property
    def frames(self) -> tuple[Frame, ...]:
        return tuple(self.frame_stack)

    def flags(self, fid: str) -> dict[str, Any]:
        """What the table should show on a figure besides its model fields
        (:func:`crdesk.game.summary.flags`)."""
        return summary.flags(self, fid)

    def behind(self, fid: str, within: float = summary.WATCH_INCHES) -> list[dict[str, Any]]:
        """The enemies and PEFs near the figure that stand behind its 180° front, so it
        cannot see them (7.9.4; :func:`crdesk.game.summary.behind`)."""
        return summary.behind(self, fid, within)

    @property
    def pending_faces(self) -> tuple[int, ...]:
        """Faces typed so far for a manual-dice step that waits for more."""
        return () if self._pending is None else tuple(self._pending["faces"])

    @property
    def die_position(self) -> int:
        """How many dice the game has rolled (die k of a seeded game is (seed, k))."""
        return int(self.state["die"])

    def awaiting(self) -> Decision | None:
        """The one decision the game waits for, or None when the encounter is over."""
        if self._awaited is not None and self._awaited[0] == self._version:
            return self._awaited[1]
        with kernels.pinned(self.sight_route):
            decision = self._awaiting()
        self._awaited = (self._version, decision)
        return decision

    def recorded_hashes(self) -> dict[int, str]:
        """State hashes after every tenth step, recorded while the steps were played."""
        return dict(self._hashes)

    def _awaiting(self) -> Decision | None:
        if self.state["outcome"] is not None or not self.frame_stack:
            return None
        if self._pending is not None:
            need = self._pending["need"]
            return Decision(
                step=len(self._steps) + 1,
                actor=CHANCE,
                kind="dice",
                prompt=f"Roll {need['count']}d6 for {need['context']} and enter the faces.",
                section="4.1",
                accepts=("dice",),
                frames=self.frame_path(),
                dice=int(need["count"]),
            )
        return self.decision_of(self.frame_stack[-1])

    def legal(self, action: Action | str) -> str | None:
        """None if the action may be played now, else why not, in a player's words."""
        try:
            act = Action.parse(action) if isinstance(action, str) else action
        except IllegalActionError as exc:
            return str(exc)
        # remembered until the game changes: a policy asks about the action it then
        # plays, and play() asks again (a move's path and cost are worked out once)
        memo = self._legal_memo
        if memo is None or memo[0] != self._version:
            memo = self._legal_memo = (self._version, {})
        if act in memo[1]:
            return memo[1][act]
        reason = memo[1][act] = self._legal(act)
        return reason

    def plan_move(self, figure: str, goal: Point2, facing: float | None = None) -> moving.RoutePlan:
        """What moving ``figure`` to ``goal`` now would do (7.4, 8.2; issue 31): the move
        along the straight run or the cheapest legal route, or why not and how far along
        the route it gets (:func:`crdesk.game.moving.plan_route`)."""
        return self._plan(MoveTo(figure, goal, facing))

    def _plan(self, act: MoveTo, *, search: moving.Search = "table") -> moving.RoutePlan:
        decision = self.awaiting()
        if decision is None:
            return moving.RoutePlan(None, "the encounter is over")
        if "move" not in decision.accepts or not self.frame_stack:
            return moving.RoutePlan(None, self.not_now(decision))
        frame = self.frame_stack[-1]
        try:
            if frame.kind == "activation":
                fig = self.member(frame, act.figure)
            else:
                if act.figure not in frame.data.get("movers", ()):
                    raise IllegalActionError(f"{act.figure} is not in the moving group")
                fig = self.fig(act.figure)
            with kernels.pinned(self.sight_route):
                return moving.plan_route(self, frame, fig, act, search=search)
        except IllegalActionError as exc:
            return moving.RoutePlan(None, str(exc))

    def reach(self, figure: str) -> routing.ReachArea | None:
        """Where ``figure`` can get with the movement it has left this activation, by
        any route (issue 31, Deliver 2), or None when it has none.  Upstairs (8.2) it is
        its building's floor."""
        left = self.flags(figure).get("movement_left")
        if not isinstance(left, int | float) or left <= 0:
            return None
        fig = self.fig(figure)
        with kernels.pinned(self.sight_route):
            reach = routing.reach_area(
                self.battlefield,
                (fig.x, fig.y),
                float(left),
                self.rules,
                radius=fig.radius,
                index=self.vis.index,
                bases=moving.standing_bases(self.battlefield, figure),
            )
        if building_rules.floor_of(self, fig) > 1:
            building = building_rules.building_of(self, fig)
            if building is not None:
                inside = building.outline
                reach = routing.ReachArea(
                    reach.area.intersection(inside),
                    reach.near.intersection(inside),
                    reach.allowance,
                )
        return reach

    def concrete(self, act: Action) -> Action:
        """The action as it is played and kept: a move "to" a spot becomes the
        :class:`~crdesk.game.actions.Move` along its way (replays walk that path)."""
        if not isinstance(act, MoveTo):
            return act
        plan = self._plan(act)
        if plan.move is None:
            raise IllegalActionError(plan.why or self.not_now())
        return plan.move

    def plan_group_move(self, leader: str, goal: Point2) -> group_moves.GroupMovePlan:
        """What moving the group led by ``leader`` to ``goal`` would do, member by member
        (:func:`crdesk.game.group_moves.plan_group_move`); raises when it cannot move."""
        return group_moves.plan_group_move(self, leader, goal)

    def _legal(self, act: Action) -> str | None:
        if isinstance(act, MoveGroup):
            try:
                group = self.plan_group_move(act.leader, act.goal)
            except IllegalActionError as exc:
                return str(exc)
            if not group.moves():
                name = self.battlefield.figure
                return "no member can move: " + "; ".join(group.lines(lambda f: name(f).name))
            return None
        if isinstance(act, MoveTo):
            plan = self._plan(act)
            return plan.why if plan.move is None else self._legal(plan.move)
        decision = self.awaiting()
        if decision is None:
            return "the encounter is over"
        if isinstance(act, DiceFaces) != (decision.actor == CHANCE):
            if decision.actor == CHANCE:
                return f"the game waits for dice: {decision.prompt}"
            return "no dice are awaited: this game rolls its own"
        if isinstance(act, DiceFaces):
            if len(act.faces) < decision.dice:
                return f"{decision.prompt} ({len(act.faces)} given)"
            return None
        if act in decision.options:
            return None
        try:
            with kernels.pinned(self.sight_route):
                self.check_action(self.frame_stack[-1], act)
        except IllegalActionError as exc:
            return str(exc)
        if act.word not in decision.accepts:
            return self.not_now(decision)
        return None

    # -- playing ------------------------------------------------------------

    def play(
        self, action: Action | str, *, why: str = "", faces: Sequence[int] = ()
    ) -> list[Event]:
        """Apply a legal action; returns the events it caused.

        Raises :class:`IllegalActionError` with the reason when it is not legal.
        ``faces`` gives a manual-dice game all the dice of the step at once.
        """
        act = Action.parse(action) if isinstance(action, str) else action
        if isinstance(act, MoveGroup):  # the members' moves, each its own step
            reason = self.legal(act)
            if reason is not None:
                raise IllegalActionError(reason)
            start = len(self.events)
            group_moves.play_group_move(self, self.plan_group_move(act.leader, act.goal))
            return list(self.events)[start:]
        act = self.concrete(act)
        reason = self.legal(act)
        if reason is not None:
            raise IllegalActionError(reason)
        if isinstance(act, DiceFaces):
            assert self._pending is not None
            pending = self._pending
            typed = [*pending["faces"], *act.faces]
            return self._run_step(
                Action.parse(pending["action"]), pending["actor"], typed, pending["why"]
            )
        decision = self.awaiting()
        assert decision is not None
        return self._run_step(act, decision.actor, list(faces), why)

    def _run_step(self, act: Action, actor: str, typed: list[int], why: str) -> list[Event]:
        if len(typed) > limits.STEP_FACES:  # a saved game could not hold the step
            raise IllegalActionError(
                f"{len(typed):,} dice for one step; a step takes at most {limits.STEP_FACES:,}"
            )
        self._version += 1
        mark = self._mark()
        before = self._pending
        dice = StepDice(self, typed)
        self.step_dice = dice
        self.step_events = []
        self._pending = None
        try:
            with kernels.pinned(self.sight_route):
                self.apply_action(self.frame_stack[-1], act)
                self.run_automatic()
        except NeedDice as need:
            self._rewind(mark)
            self._pending = {
                "action": str(act),
                "actor": actor,
                "faces": typed,
                "why": why,
                "need": {"count": need.count, "context": need.context},
            }
            return []
        except BaseException:
            self._rewind(mark)
            self._pending = before  # a step waiting for dice keeps waiting
            raise
        finally:
            self.step_dice = None
        if dice.unused:
            self._rewind(mark)
            self._pending = before
            raise IllegalActionError(
                f"{len(typed)} dice given but the step used only {len(typed) - dice.unused}"
            )
        self._steps.append(Step(actor, str(act), tuple(dice.faces), why))
        self._version += 1
        if len(self._steps) % HASH_EVERY == 0:
            self._hashes[len(self._steps)] = self.state_hash()
        events = self.step_events
        self._events.extend(events)
        self.step_events = []
        if len(self._steps) % CHECKPOINT_EVERY == 0:
            self._checkpoint()
        return events

    # -- undo and fork ----------------------------------------------------

    def undo(self) -> Step:
        """Take back the last step: the game is exactly as it was before it.

        A step whose dice were seen cannot be taken back (no re-rolling bad
        luck) unless the ``practice_undo`` setting is on.
        """
        if self._pending is not None:
            self._pending = None
            self._version += 1
            return Step(CHANCE, "dice")
        reason = self.can_undo()
        if reason is not None:
            raise IllegalActionError(reason)
        last = self._steps[-1]
        self._goto(len(self._steps) - 1)
        return last

    def can_undo(self, count: int = 1) -> str | None:
        """None if the last ``count`` steps can be taken back, else why not."""
        if self._pending is not None and count == 1:
            return None
        if count < 1:
            return "undo takes back at least one step"
        if len(self._steps) - count < self._checkpoints[0].steps:
            return "undo cannot go back before the saved snapshot this game was opened from"
        if len(self._steps) <= count:
            if len(self._steps) <= 1:
                return "the opening activation roll cannot be taken back"
            return f"only {len(self._steps) - 1} step(s) can be taken back"
        if not self.settings.practice_undo:
            for n in range(len(self._steps), len(self._steps) - count, -1):
                step = self._steps[n - 1]
                if step.faces:
                    return (
                        f"step {n} ({step.action}) rolled dice ({_faces(step.faces)}); undo "
                        "stops at dice that were seen (switch on practice undo to go back)"
                    )
        return None

    def undo_steps(self, count: int) -> list[Step]:
        """Take back the last ``count`` steps at once (a person's step and the program's
        answers to it); refused as a whole, with the reason, if any of them cannot be."""
        reason = self.can_undo(count)
        if reason is not None:
            raise IllegalActionError(reason)
        taken = self._steps[len(self._steps) - count :]
        self._goto(len(self._steps) - count)
        return taken

    def fork(self) -> Game:
        """An independent copy of this game, for what-if questions and look-ahead."""
        twin = Game.__new__(Game)
        twin.scenario = self.scenario
        twin.seed = self.seed
        twin.dice_mode = self.dice_mode
        twin.settings = self.settings
        twin.rules = self.rules
        twin.sight_route = self.sight_route
        twin.battlefield = _copy_battlefield(self.battlefield)
        twin.sides = self.sides
        twin.modules = self.modules
        # the copy shares the terrain: its terrain index (~70 ms to build) is shared too
        twin.vis = VisibilityService(twin.battlefield, twin.rules, index=self.vis.index)
        with kernels.pinned(twin.sight_route):
            twin.cohesion = Cohesion(twin.vis)
        twin.dice_log = DiceLog()
        for entry in self.dice_log:
            twin.dice_log.append(entry)
        twin._steps = list(self._steps)
        twin._events = list(self._events)
        twin.frame_stack = [
            Frame(kind, data) for kind, data in _plain([(f.kind, f.data) for f in self.frame_stack])
        ]
        twin.state = _plain(self.state)
        twin._pending = _plain(self._pending)
        twin._hashes = dict(self._hashes)
        twin._version = 0
        twin._legal_memo = None
        twin._awaited = None
        twin.memo = {}
        twin._checkpoints = list(self._checkpoints)
        twin.forget_sight()
        twin.step_events = []
        twin.step_dice = None
        twin.sync_moving()
        return twin

    @property
    def earliest_step(self) -> int:
        """The first position :meth:`at_step` can give: 1 (after the opening roll), or for
        a game opened from its saved snapshot the snapshot's step."""
        return max(1, self._checkpoints[0].steps)

    def at_step(self, count: int) -> Game:
        """A new game positioned just after step ``count`` of this one's history, as it
        stood then (its history the first ``count`` steps), this game unchanged: a replay
        viewer's position, or a game to play on from there.  Quick: it starts from the
        nearest checkpoint before the step (one every :data:`CHECKPOINT_EVERY` steps) and
        replays at most that many steps.  Raises IllegalActionError for a step outside
        :attr:`earliest_step` .. the history's length."""
        if not self.earliest_step <= count <= len(self._steps):
            raise IllegalActionError(
                f"step {count} is not in the game: it can be shown at steps "
                f"{self.earliest_step}-{len(self._steps)}"
            )
        twin = self.fork()
        if count < len(self._steps) or self._pending is not None:
            twin._goto(count)
        return twin

    def preview(self, action: Action | str) -> Preview:
        """What ``action`` would do now -- its events, where its figure ends and why it
        stopped -- without playing it: the game is put back exactly as it was and no
        die is rolled (a step that needs dice stops there and says so)."""
        return self.preview_all([action])[0]

    def preview_all(
        self,
        actions: Sequence[Action | str],
        *,
        skip_refused: bool = False,
        first_legal_from: int | None = None,
        search: moving.Search = "table",
    ) -> list[Preview]:
        """Previews of ``actions`` played one after another (a group's moves, say).

        The list stops after the first action that is refused (unless
        ``skip_refused``: a refused one is listed and the next is tried, as a
        group moves on without the member that cannot), needs dice, or leads to
        another frame (an In Sight interrupt): what follows it would not be
        played by the same decision.  ``first_legal_from``: also stop after the first
        legal action at or after that index (alternatives tried in turn, the first that
        goes is the one taken).  ``search``: how far beyond reach a move "to" a spot
        looks for its way (:func:`crdesk.game.moving.plan_route`).  Read-only, like
        :meth:`preview`: the battlefield's other listeners (the table on the
        screen) hear nothing of the moves tried and taken back.
        """
        acts: list[Action] = []
        for given in actions:
            try:
                acts.append(Action.parse(given) if isinstance(given, str) else given)
            except IllegalActionError as exc:
                return [Preview(Pass(), reason=str(exc))]
        if not acts:
            return []
        kind = self.frame_stack[-1].kind if self.frame_stack else None
        out: list[Preview] = []
        with self.trying() as trial:
            for act in acts:
                one = trial.play(act, search=search)
                out.append(one)
                if not one.legal:
                    if skip_refused:
                        continue
                    break
                if one.needs_dice is not None or one.next_frame != kind:
                    break
                if first_legal_from is not None and len(out) > first_legal_from:
                    break
        return out

    @contextmanager
    def trying(self) -> Iterator[Trial]:
        """Actions tried one after another, each on the state the ones before left, and
        all taken back at the end (:meth:`preview_all`; a group's move planned member by
        member, :mod:`crdesk.game.group_moves`).  Read-only: the battlefield's other
        listeners (the table on the screen) hear nothing of the moves tried."""
        version, awaited, pending = self._version, self._awaited, self._pending
        bf = self.battlefield
        listeners = bf._listeners
        own = (self.vis, self.cohesion)
        bf._listeners = [cb for cb in listeners if getattr(cb, "__self__", None) in own]
        mark = self._mark()
        try:
            with kernels.pinned(self.sight_route):
                yield Trial(self)
        finally:
            self.step_dice = None
            self._rewind(mark)
            bf._listeners = listeners
            self._version, self._awaited, self._pending = version, awaited, pending
            self._legal_memo = None  # judged on the previewed states

    def _preview_step(self, act: Action) -> Preview:
        """Apply ``act`` for a preview (the caller rewinds): dice stop it, never roll."""
        places = {f.id: (f.x, f.y) for f in self.battlefield.figures()}
        mode, self.dice_mode = self.dice_mode, MANUAL  # no typed faces: any roll stops
        self.step_dice = StepDice(self, [])
        self.step_events = []
        needs: str | None = None
        try:
            self.apply_action(self.frame_stack[-1], act)
            self.run_automatic()
        except NeedDice as need:
            needs = f"{need.context} needs {need.count} d6"
        finally:
            self.dice_mode = mode
            self.step_dice = None
        events = tuple(self.step_events)
        self.step_events = []
        self._version += 1  # the next action is judged against the state after this one
        moved = {
            f.id: (f.x, f.y)
            for f in self.battlefield.figures()
            if f.id in places and places[f.id] != (f.x, f.y)
        }
        over = needs is not None or self.state["outcome"] is not None or not self.frame_stack
        return Preview(
            act,
            events=events,
            moved=moved,
            sightings=sightings_of(self, events),
            needs_dice=needs,
            next_frame=None if over else self.frame_stack[-1].kind,
        )

    def _checkpoint(self) -> None:
        self._checkpoints.append(self._mark())

    def _goto(self, count: int) -> None:
        """Put the game back to just after step ``count`` (restore, then replay)."""
        steps = self._steps[:count]
        while self._checkpoints and self._checkpoints[-1].steps > count:
            self._checkpoints.pop()
        cp = self._checkpoints[-1]
        self._restore(cp)
        self._steps = self._steps[: cp.steps]
        for n, step in enumerate(steps[cp.steps :], cp.steps + 1):
            self._replay_step(n, step)

    def _restore(self, cp: _Checkpoint) -> None:
        self._version += 1
        self.battlefield.restore(cp.battlefield)
        self.state = _plain(cp.state)
        self.frame_stack = [Frame(kind, data) for kind, data in _plain(cp.frames)]
        self._hashes = {k: h for k, h in self._hashes.items() if k <= cp.steps}
        del self._events[cp.events :]
        self.dice_log.truncate(cp.dice_log)
        self._pending = None
        self.forget_sight()
        self.sync_moving()

    def _mark(self) -> _Checkpoint:
        return _Checkpoint(
            len(self._steps),
            self.battlefield.snapshot(),
            _plain(self.state),
            _plain([(f.kind, f.data) for f in self.frame_stack]),
            len(self._events),
            len(self.dice_log),
        )

    def _rewind(self, mark: _Checkpoint) -> None:
        self._restore(mark)
        self.step_events = []

    # -- canonical state ------------------------------------------------------

    def state_document(self) -> dict[str, Any]:
        """Everything that decides what happens next, as plain JSON data."""
        return {
            "battlefield": self.battlefield.state_document(),
            "game": self.state,
            "frames": [f.to_dict() for f in self.frame_stack],
            "pending": self._pending,
            "steps": len(self._steps),
        }

    def state_hash(self, document: dict[str, Any] | None = None) -> str:
        """SHA-256 of the canonical state (sorted keys, no titles or generator text);
        ``document`` is the :meth:`state_document` when the caller has just made it."""
        doc = self.state_document() if document is None else document
        text = json.dumps(doc, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def pending_step(self) -> dict[str, Any] | None:
        """A manual-dice step waiting for faces: its action, actor, faces so far, why."""
        return None if self._pending is None else _plain(self._pending)

    def summary(self) -> dict[str, Any]:
        """The state a player asks for: turn, active side, every figure's place and
        flags (:func:`crdesk.game.summary.summary`)."""
        return summary.summary(self)


class ReplayError(IllegalActionError):
    """A saved game's steps do not replay: names the first step that fails."""

    def __init__(self, step: int, message: str) -> None:
        super().__init__(message)
        self.step = step


# ----------------------------------------------------------------------------
# helpers


def _copy_battlefield(bf: Battlefield) -> Battlefield:
    return bf.copy()


def _plain(data: Any) -> Any:
    """A deep copy of plain JSON-like data (dicts, lists, str, numbers, None); marshal is
    the fastest exact copier for it (internal state only, never a file)."""
    return marshal.loads(marshal.dumps(data))


def _faces(faces: Sequence[int]) -> str:
    return ",".join(map(str, faces)) or "no dice"


class Trial:
    """Actions tried within :meth:`Game.trying`: each legal one stays played (previewed:
    no die is rolled) for the next; a refused one changes nothing."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def play(self, given: Action, *, search: moving.Search = "table") -> Preview:
        """The preview of ``given`` on the state now; a move "to" a spot becomes its
        route's move, sought as far as ``search`` says (:func:`moving.plan_route`)."""
        game = self.game
        act, farthest, reason = given, None, None
        if isinstance(act, MoveTo):  # its way, in the state the moves before left
            plan = game._plan(act, search=search)
            act, farthest, reason = plan.move or act, plan.farthest, plan.why
        if reason is None:  # (a refused plan is not planned again)
            reason = game.legal(act)
        if reason is None and isinstance(act, DiceFaces):
            reason = "dice are entered, not previewed"
        if reason is not None:
            return Preview(act, reason=reason, farthest=farthest)
        return game._preview_step(act)
