"""Batch simulation for balance: many encounters played by the policies, and what they say.

``crdesk simulate`` (:mod:`crdesk.cli.simulate`) plays N games with both sides
automated -- the player's Band by :class:`~crdesk.ai.tactical.TacticalPolicy` by
default (the encounter's objective, Cover to Cover; ``--player objective``, ``book``
and ``random`` are the plainer players and the baseline, :data:`PLAYER_POLICIES`), the
non-player side by :class:`~crdesk.ai.enemy.SoloEnemyPolicy` in a solo game (PEFs,
table 11.4; ``--enemy plain`` and ``random`` are the baselines, :data:`ENEMY_POLICIES`),
else by the book policy too -- and sums them up: who wins (with Wilson 95%
intervals), the losses on each side, how many turns, why games end, and which rules
took the figures out (:func:`summarize`).  :func:`run_batches` plays the same games
under several set-ups, for the paired comparisons of :mod:`crdesk.compare`.

Reproducible whatever runs it: game *i* of a batch with seed *S* has its own
seed :func:`game_seed` (S, i), from which its table (with ``--generate``) and its
dice come, so a game's result depends only on S, i and the :class:`Setup` --
never on which process, how many jobs or which cluster played it.  Results are
put back in game order before anything is counted.

Everything that crosses to a worker process (or a Dask worker) is plain data:
the :class:`Setup` (a scenario as its document's text, a Band as its members),
a list of ``(index, seed)`` and :class:`GameResult` rows back.  Workers are
started with the ``spawn`` method, so nothing depends on a forked parent.

A game that raises is caught and reported with its index and seed (one bad game
never stops the batch); :func:`play_game` with that seed plays it again.

``--keep DIR``: the games a :class:`Keep` (a field of the set-up) asks for are written
as ``.crgame`` files by the process that played them (their documents never cross
back), named by :meth:`Keep.name` so that they sort in game order.
"""

from __future__ import annotations

import dataclasses
import gc
import hashlib
import json
import math
import os
import random
import re
import statistics
import traceback
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field, replace
from enum import StrEnum
from typing import Any

from crdesk.ai.baselines import PlainEnemyPolicy, RandomPolicy
from crdesk.ai.enemy import SoloEnemyPolicy
from crdesk.ai.objective import ObjectivePolicy
from crdesk.ai.policy import BookPolicy, Policy, play_policies
from crdesk.ai.tactical import TacticalPolicy
from crdesk.behaviour import Behaviour
from crdesk.behaviour import rates as behaviour_rates
from crdesk.dice import Dice
from crdesk.game.actions import Action
from crdesk.game.controller import Game
from crdesk.game.deployment import default_band as encounter_band
from crdesk.game.deployment import deploy
from crdesk.game.records import Decision, Event
from crdesk.game.settings import GameSettings
from crdesk.generator import generate
from crdesk.model import (
    BandType,
    Battlefield,
    EncounterType,
    Figure,
    Force,
    MeleeWeapon,
    Role,
    Scenario,
    Status,
    WeaponCode,
)
from crdesk.options import Interpretations, RulesOptions, Scale, Weather
from crdesk.scenario import from_document

PLAYER = "player"
ENEMY = "enemy"
DRAW = "draw"
OUTCOMES = (PLAYER, ENEMY, DRAW)

DEFAULT_MAX_TURNS = 20
"""Turns after which an encounter still going on is counted a draw (the book sets none)."""
MAX_STEPS = 20_000
"""Steps after which a game is given up as stuck (a real one takes a few hundred)."""
TABLE_SIZE = (36.0, 36.0)
"""Generated tables are the book's 3' x 3' (9.1)."""
HELD_OUT_SEED = 910_001
"""The first of the held-out batch seeds, 910001-919999 (issue 32): no test and no tuning
of a player may use them; ``benchmarks/bench_ai.py`` judges the players' gates on them,
so the figures say how they play on tables they were never fitted to."""
HELD_OUT_SEEDS = range(HELD_OUT_SEED, 920_000)
Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""

PLAYER_FORCE = "band"
NP_FORCE = "enemy"

SECTION_TITLES: dict[str, str] = {
    "5.2": "Star Power and Cheating Death",
    "6.1.1": "Recruiting",
    "7.1": "Activation",
    "7.4": "Movement",
    "7.4.4": "Duck Back and leaving",
    "7.5": "Fast Move",
    "7.6": "In Sight (spotting)",
    "7.6.3": "In Sight test",
    "7.6.4": "In Sight actions",
    "7.7": "Reaction Tests",
    "7.8": "Status and Rep loss",
    "7.9": "Weapons",
    "7.9.2": "Out of Ammo and reloading",
    "7.9.8": "Target allocation",
    "7.9.10": "Ranged Combat",
    "7.9.11": "Ranged Combat Damage",
    "7.10": "Grenades",
    "7.10.1": "Ready a Grenade",
    "7.10.3": "Throw a Grenade",
    "7.11": "Melee",
    "7.11.2": "Charge into Melee",
    "7.11.4": "Melee Combat",
    "7.11.5": "Melee Damage",
    "7.12": "Retrieving wounded",
    "8": "Buildings",
    "8.4": "Firing at Buildings",
    "11": "PEF placement",
    "11.1": "Building PEFs",
    "11.2": "PEF Movement",
    "11.3": "PEF Resolution",
    "11.4": "NP Force Movement",
    "12": "The encounter's end",
}
"""Short names of the rules sections that events cite, for the report."""


def section_title(section: str) -> str:
    """The section with its short name, e.g. "7.7 Reaction Tests"."""
    title = SECTION_TITLES.get(section)
    return f"{section} {title}" if title else section


# --------------------------------------------------------------------------
# What a batch plays


@dataclass(frozen=True, slots=True)
class Member:
    """One figure of the player's Band, as plain data a worker can rebuild it from."""

    id: str
    name: str
    rep: int
    role: str = Role.GRUNT.value
    weapon: str = WeaponCode.AR.value
    melee: str = MeleeWeapon.NONE.value

    def figure(self) -> Figure:
        star = self.role == Role.STAR.value
        return Figure(
            id=self.id,
            name=self.name,
            rep=self.rep,
            role=Role(self.role),
            weapon=WeaponCode(self.weapon),
            melee=MeleeWeapon(self.melee),
            star_power=self.rep if star else None,
        )

    @classmethod
    def of(cls, fig: Figure) -> Member:
        return cls(fig.id, fig.name, fig.rep, fig.role.value, fig.weapon.value, fig.melee.value)


KEEP_WORDS = {PLAYER: "won", ENEMY: "lost", DRAW: "draw"}
"""A kept game's outcome in its file name, from the player's side."""

_KEPT_NAME = re.compile(r"game-([0-9]+)-seed-([0-9]+)-(?:won|lost|draw)\.crgame")


def parse_keep_only(text: str) -> tuple[tuple[str, ...], frozenset[int] | None]:
    """``--keep-only``: an outcome word (:data:`KEEP_WORDS`' values) or game numbers
    ``N,M,...`` counted from 0, as ``(outcomes, games)``; ValueError says what is wrong.

    >>> parse_keep_only("lost")
    (('lost',), None)
    >>> parse_keep_only("7, 0")
    (('won', 'lost', 'draw'), frozenset({0, 7}))
    """
    word = text.strip().lower()
    if word in KEEP_WORDS.values():
        return (word,), None
    parts = [part.strip() for part in word.split(",")]
    if not all(part.isdigit() and part.isascii() for part in parts):
        raise ValueError(
            f"lost, won, draw or game numbers such as 0,7,12 (counted from 0), got {text!r}"
        )
    return tuple(KEEP_WORDS.values()), frozenset(int(part) for part in parts)


@dataclass(frozen=True, slots=True)
class Keep:
    """Which games of a batch are written as ``.crgame`` files, and where (``--keep``):
    plain data the worker that plays a game writes it by.  A game that failed is never
    written."""

    dir: str
    """The folder, absolute (workers may run elsewhere); it exists before the batch."""
    width: int = 1
    """Digits of the game numbers in the names (the batch's last one's), so they sort."""
    outcomes: tuple[str, ...] = tuple(KEEP_WORDS.values())
    """The outcome words of :data:`KEEP_WORDS` whose games are kept."""
    games: frozenset[int] | None = None
    """The game numbers kept (from 0, as the report numbers them); None for every one."""

    def wants(self, index: int, winner: str) -> bool:
        return KEEP_WORDS[winner] in self.outcomes and (self.games is None or index in self.games)

    def name(self, index: int, seed: int, winner: str) -> str:
        """``game-0007-seed-123456789-won.crgame``."""
        return f"game-{index:0{self.width}d}-seed-{seed}-{KEEP_WORDS[winner]}.crgame"

    def kept(self, results: Iterable[GameResult]) -> int:
        """How many of the batch's games were written (those asked for that did not fail)."""
        return sum(1 for r in results if r.error is None and self.wants(r.index, r.winner))

    def clashes(self, games: int, seed: int) -> list[str]:
        """The files already in :attr:`dir` that are games this batch may keep (the same
        number and seed, whatever their outcome), which it would replace or sit beside;
        the folder is read once, whatever the size of the batch.  OSError when an
        existing folder cannot be read (then nobody can say nothing would be replaced)."""
        try:
            names = sorted(os.listdir(self.dir))
        except (FileNotFoundError, NotADirectoryError):
            return []  # made (or refused) before the batch
        found = []
        for name in names:
            m = _KEPT_NAME.fullmatch(name)
            if m is None or m[1] != f"{int(m[1]):0{self.width}d}":
                continue
            index = int(m[1])
            wanted = index < games and (self.games is None or index in self.games)
            if wanted and int(m[2]) == game_seed(seed, index):
                found.append(name)
        return found


@dataclass(frozen=True, slots=True)
class Setup:
    """What every game of a batch shares.

    Either ``terrain`` (``--generate``: each game generates its own table of that
    type) or ``scenario`` (a scenario document's JSON text, played as it stands,
    with ``band`` deployed on it when given).  ``encounter`` None keeps the
    scenario's own encounter; a solo game (PEFs, the solo enemy) is any encounter
    but free play."""

    terrain: str | None = None
    size: tuple[float, float] = TABLE_SIZE
    """The generated tables' width and height in inches (``--size``)."""
    scenario: str | None = None
    source: str = ""
    """The scenario's file name, for messages."""
    encounter: str | None = EncounterType.PATROL.value
    band: tuple[Member, ...] | None = None
    """The player's figures; None keeps the scenario's own (``--generate`` always has one)."""
    band_type: str = BandType.MILITARY.value
    band_name: str = "Military Band"
    enemy_band: str = BandType.MILITARY.value
    max_turns: int = DEFAULT_MAX_TURNS
    player: str = "tactical"
    """How the player's Band is played: one of :data:`PLAYER_POLICIES`."""
    enemy: str = "solo"
    """How the non-player side is played: one of :data:`ENEMY_POLICIES`."""
    rules: tuple[tuple[str, Any], ...] = ()
    """Rules options set for every game, over the scenario's own (:func:`with_rules`):
    ``(name, value)`` of an Interpretation or of :class:`~crdesk.options.RulesOptions`."""
    keep: Keep | None = None
    """The games to write as files (``--keep``); not part of what the games are."""

    def describe(self) -> dict[str, Any]:
        """The set-up as the report prints it (not the scenario's text)."""
        out: dict[str, Any] = {
            "table": (
                f'generated {self.terrain}, {self.size[0]:g}"x{self.size[1]:g}"'
                if self.terrain
                else self.source
            ),
            "encounter": self.encounter or "the scenario's",
            "max_turns": self.max_turns,
            "player": self.player,
            "enemy": self.enemy,
        }
        if self.rules:
            out["rules"] = dict(self.rules)
        if self.band is not None:
            out["band"] = {
                "name": self.band_name,
                "type": self.band_type,
                "figures": [f"{m.name} (Rep {m.rep} {m.role}, {m.weapon})" for m in self.band],
            }
        if self.solo_possible:
            out["enemy_band"] = self.enemy_band
        return out

    @property
    def solo_possible(self) -> bool:
        return self.encounter != EncounterType.FREE.value


def default_band(band_type: str = BandType.MILITARY.value) -> tuple[Member, ...]:
    """The default Band of ``--generate``: a Rep 5 Star and four Rep 4 Grunts with the
    band type's default weapons (:func:`crdesk.game.deployment.default_band`)."""
    return band_members(encounter_band(BandType(band_type)))


def band_members(figures: Iterable[Figure]) -> tuple[Member, ...]:
    """A Band's figures (:meth:`crdesk.band.Band.to_figures`) as plain data."""
    return tuple(Member.of(f) for f in figures)


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a batch seeded ``seed``: a hash, so neighbouring
    games are unrelated and no game's seed depends on how the batch is split."""
    return _hash_seed(f"crdesk-simulate:{seed}:{index}")


def sub_seed(seed: int, what: str) -> int:
    """A game's seed for one use besides its dice ("table", "deploy"): the table's rolls
    (9.2's terrain type is its first die) must not mirror the game's first dice."""
    return _hash_seed(f"crdesk-{what}:{seed}")


def _hash_seed(text: str) -> int:
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 2


# --------------------------------------------------------------------------
# One game


@dataclass(frozen=True, slots=True)
class GameResult:
    """What one game gives the statistics; plain data, equal for equal games."""

    index: int
    seed: int
    winner: str = DRAW
    """:data:`PLAYER`, :data:`ENEMY` or :data:`DRAW` (also a game that failed)."""
    reason: str = ""
    turns: int = 0
    steps: int = 0
    losses: dict[str, dict[str, int]] = field(default_factory=dict)
    """Per side, figures by how they ended: Out of the Fight, Obviously Dead, left."""
    enemies: int = 0
    """Enemy figures that took part (PEF contacts included)."""
    loss_rules: tuple[tuple[str, str], ...] = ()
    """(side, section) for each loss and each rule in the chain of events that caused it."""
    sections: tuple[str, ...] = ()
    """The sections the game's events cite, each once."""
    behaviour: dict[str, dict[str, int]] = field(default_factory=dict)
    """Per side, the counts of :class:`crdesk.behaviour.Behaviour` (moves, safe moves,
    exposure, shuffles, shots possible and fired, objective reached)."""
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_LOSS_KINDS = {
    Status.OUT_OF_THE_FIGHT: "out_of_the_fight",
    Status.OBVIOUSLY_DEAD: "obviously_dead",
    Status.LEAVE_THE_BATTLEFIELD: "left",
}


def _deployed(scenario: Scenario, setup: Setup, seed: int) -> Scenario:
    """The scenario with the set-up's Band deployed by the encounter's rules
    (:func:`crdesk.game.deployment.deploy`, its 1d6 from the game's "deploy" seed) and
    an enemy force to hold what the PEFs bring; the scenario as it stands without a Band."""
    kind = EncounterType(setup.encounter or scenario.encounter.type.value)
    if setup.band is None:
        if scenario.encounter.type is kind:
            return scenario
        return replace(scenario, encounter=replace(scenario.encounter, type=kind))
    bf = scenario.battlefield
    if not any(not f.player for f in bf.forces):
        enemy = Force(NP_FORCE, "Enemy", BandType(setup.enemy_band))
        scenario = replace(scenario, battlefield=Battlefield(bf.table, list(bf.terrain), [enemy]))
    force = Force(
        PLAYER_FORCE,
        setup.band_name,
        BandType(setup.band_type),
        player=True,
        figures=[m.figure() for m in setup.band],
    )
    dice = Dice(random.Random(sub_seed(seed, "deploy")))
    return deploy(scenario, force, kind, dice)


def _scenario_for(setup: Setup, seed: int) -> Scenario:
    scenario = _table_for(setup, seed)
    if setup.rules:
        scenario = replace(scenario, rules=with_rules(scenario.rules, setup.rules))
    return scenario


def _table_for(setup: Setup, seed: int) -> Scenario:
    if setup.terrain is not None:
        width, height = setup.size
        table = generate(
            sub_seed(seed, "table"),
            width=width,
            height=height,
            terrain_type=setup.terrain,
            encounter=setup.encounter or "patrol",
        )
        return _deployed(table, setup, seed)
    assert setup.scenario is not None
    parsed = _PARSED.get(setup.scenario)
    if parsed is None:
        parsed = from_document(json.loads(setup.scenario), setup.source)
        _PARSED.clear()
        _PARSED[setup.scenario] = parsed
    return _deployed(parsed, setup, seed)


_PARSED: dict[str, Scenario] = {}
"""A worker's scenario, parsed once per batch (its text is the key); games copy it."""


def _side_of(game: Game, force_id: str | None) -> str:
    if force_id is None:
        return DRAW
    return PLAYER if game.battlefield.force(force_id).player else ENEMY


class _Watcher:
    """Follows a game step by step to name the rules that took each figure out."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.up = self._able()
        self.loss_rules: list[tuple[str, str]] = []
        self.behaviour = Behaviour(game)

    def _able(self) -> set[str]:
        return {f.id for f in self.game.battlefield.figures() if f.status.can_act}

    def step(self, decision: Decision, action: Action, why: str, events: list[Event]) -> None:
        self.behaviour.step(decision, action, why, events)
        now = self._able()
        lost = self.up - now
        self.up = now
        for fid in sorted(lost):
            if self.game.flags(fid).get("exited"):
                continue  # left by an edge the encounter allows: not a loss
            last = max((i for i, e in enumerate(events) if fid in e.figures), default=None)
            chain = events if last is None else events[: last + 1]
            side = _side_of(self.game, self.game.fig(fid).side)
            for section in sorted({e.section for e in chain if e.section != "12"}):
                self.loss_rules.append((side, section))


PLAYER_POLICIES = ("tactical", "objective", "book", "random")
"""How the player's Band is played: ``tactical`` (the default) is
:class:`~crdesk.ai.tactical.TacticalPolicy`, which plays for the encounter's
objective Cover to Cover, fires when it has shots and leaves once it is done (never before);
``objective`` is the plainer :class:`~crdesk.ai.objective.ObjectivePolicy` (the book
policy that, with no enemy on the table, walks to the next objective); ``book`` is
:class:`~crdesk.ai.policy.BookPolicy` alone (it never walks to an objective, so it can
never win a Patrol); ``random`` is the baseline
:class:`~crdesk.ai.baselines.RandomPolicy` (uniformly among the legal choices)."""

ENEMY_POLICIES = ("solo", "plain", "random")
"""How the non-player side is played: ``solo`` (the default) is
:class:`~crdesk.ai.enemy.SoloEnemyPolicy` (table 11.4, spots chosen by the spot search);
``plain`` is the baseline :class:`~crdesk.ai.baselines.PlainEnemyPolicy` (the same 11.4
orders, the nearest Cover or the straight line); ``random`` is
:class:`~crdesk.ai.baselines.RandomPolicy`.  In free play (no PEFs, 11) ``solo`` keeps
the book policy it always had there."""


def player_policy(name: str) -> Policy:
    """A new policy for the player's Band by its :data:`PLAYER_POLICIES` name."""
    if name == "tactical":
        return TacticalPolicy()
    if name == "objective":
        return ObjectivePolicy()
    if name == "book":
        return BookPolicy()
    if name == "random":
        return RandomPolicy("player")
    raise ValueError(
        f"the player's policy must be one of {', '.join(PLAYER_POLICIES)}, got {name!r}"
    )


def enemy_policy(name: str, solo: bool = True) -> Policy:
    """A new policy for the non-player side by its :data:`ENEMY_POLICIES` name; ``solo``
    False (free play) keeps the book policy for ``solo``."""
    if name == "solo":
        return SoloEnemyPolicy() if solo else BookPolicy()
    if name == "plain":
        return PlainEnemyPolicy()
    if name == "random":
        return RandomPolicy("enemy")
    raise ValueError(f"the enemy's policy must be one of {', '.join(ENEMY_POLICIES)}, got {name!r}")


_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


def rules_option_names() -> tuple[str, ...]:
    """The rules options a batch may set: :class:`~crdesk.options.RulesOptions`' own
    (Old School, Firearms Detail, night, weather, scale) and every Interpretation."""
    top = [f.name for f in dataclasses.fields(RulesOptions) if f.name != "interpretations"]
    return (*top, *(f.name for f in dataclasses.fields(Interpretations)))


def rules_setting(name: str, text: str) -> tuple[str, Any]:
    """``(name, value)`` of the rules option ``name`` set to ``text`` ("true", "0.5",
    "15mm"...), checked against the option's type; ValueError says what is wrong."""
    base: Any = RulesOptions()
    if name not in {f.name for f in dataclasses.fields(RulesOptions)}:
        base = Interpretations()
    if name == "interpretations" or name not in {f.name for f in dataclasses.fields(base)}:
        raise ValueError(f"no rules option {name!r}")
    default = getattr(base, name)
    word = text.strip().lower()
    if isinstance(default, bool):
        if word not in (*_TRUE, *_FALSE):
            raise ValueError(f"{name} is true or false, got {text!r}")
        return name, word in _TRUE
    if isinstance(default, StrEnum):
        kinds = [k.value for k in type(default)]
        if word not in kinds:
            raise ValueError(f"{name} is one of {', '.join(kinds)}, got {text!r}")
        return name, word
    try:
        number = float(word)
    except ValueError:
        raise ValueError(f"{name} is a number, got {text!r}") from None
    if not math.isfinite(number) or number < 0:
        raise ValueError(f"{name} is a number of 0 or more, got {text!r}")
    return name, number


def with_rules(rules: RulesOptions, settings: Iterable[tuple[str, Any]]) -> RulesOptions:
    """``rules`` with the settings of :func:`rules_setting` applied."""
    top: dict[str, Any] = {}
    inner: dict[str, Any] = {}
    names = {f.name for f in dataclasses.fields(RulesOptions)}
    for name, value in settings:
        (top if name in names else inner)[name] = value
    if "scale" in top:
        top["scale"] = Scale(top["scale"])
    if "weather" in top:
        top["weather"] = Weather(top["weather"])
    if inner:
        top["interpretations"] = replace(rules.interpretations, **inner)
    return replace(rules, **top)


def play_game(setup: Setup, index: int, seed: int) -> GameResult:
    """Play one game of the batch to its end; an error is caught and returned."""
    game: Any = None
    try:
        scenario = _scenario_for(setup, seed)
        solo = scenario.encounter.type is not EncounterType.FREE
        settings = GameSettings(
            max_turns=setup.max_turns,
            solo=solo,
            encounter=scenario.encounter.type.value if solo else "",
        )
        game = Game.new(scenario, seed=seed, settings=settings)
        mine = player_policy(setup.player)
        enemy = enemy_policy(setup.enemy, solo)
        policies = {f.id: (mine if f.player else enemy) for f in game.battlefield.forces}
        watcher = _Watcher(game)
        while game.awaiting() is not None:
            if len(game.history) >= MAX_STEPS:
                raise RuntimeError(f"no end after {MAX_STEPS} steps")
            if play_policies(game, policies, max_steps=500, on_step=watcher.step) == 0:
                decision = game.awaiting()
                who = decision.actor if decision is not None else "nobody"
                raise RuntimeError(f"the game waits for {who}, whom no policy plays")
        result = _result(game, index, seed, watcher)
    except Exception as exc:
        where = "" if game is None else f" at step {len(game.history) + 1}"
        frame = traceback.extract_tb(exc.__traceback__)[-1]
        place = f" ({frame.filename.rsplit('/', 1)[-1]}:{frame.lineno})"
        return GameResult(
            index,
            seed,
            reason="error",
            error=f"{type(exc).__name__}{where}: {exc}{place}",
        )
    if setup.keep is not None and setup.keep.wants(index, result.winner):
        return _kept(game, setup.keep, result)
    return result


def _kept(game: Game, keep: Keep, result: GameResult) -> GameResult:
    """Write a finished game in the keep folder; a game that cannot be written is
    reported as failed (nothing is written then), as a game that raised is."""
    from crdesk.game.savefile import GameFileError, save_game

    path = os.path.join(keep.dir, keep.name(result.index, result.seed, result.winner))
    try:
        save_game(game, path)
    except (OSError, GameFileError) as exc:
        why = exc.one_line() if isinstance(exc, GameFileError) else (exc.strerror or str(exc))
        return GameResult(
            result.index, result.seed, reason="error", error=f"cannot keep {path}: {why}"
        )
    return result


def _result(game: Game, index: int, seed: int, watcher: _Watcher) -> GameResult:
    outcome = game.outcome
    assert outcome is not None  # played until nothing was awaited
    losses: dict[str, dict[str, int]] = {PLAYER: {}, ENEMY: {}}
    enemies = 0
    for fig in game.battlefield.figures():
        side = _side_of(game, fig.side)
        if side == ENEMY:
            enemies += 1
        kind = _LOSS_KINDS.get(fig.status)
        if kind is None or game.flags(fig.id).get("exited"):
            continue
        losses[side][kind] = losses[side].get(kind, 0) + 1
    sections = sorted({e.section for e in game.events if e.section})
    return GameResult(
        index=index,
        seed=seed,
        winner=_side_of(game, outcome.winner),
        reason=outcome.reason,
        turns=sum(1 for e in game.events if e.kind == "activation_roll"),
        steps=len(game.history),
        losses={side: dict(sorted(kinds.items())) for side, kinds in losses.items()},
        enemies=enemies,
        loss_rules=tuple(watcher.loss_rules),
        sections=tuple(sections),
        behaviour={
            _side_of(game, side): counts for side, counts in watcher.behaviour.finish().items()
        },
    )


WARM_UP_GAMES = 40
"""Games a process must play before compiling the sight kernels pays (about 2 s to load
them; they judge sight some 15% faster than the numpy route, with the same verdicts)."""


def warm_up(games: int) -> None:
    """Ready the compiled sight kernels for a process about to play ``games`` games, and
    take what is loaded by then out of the garbage collector's sight: a game makes
    garbage cycles, and each collection would otherwise scan every module, table and
    compiled kernel again (about 4% of a long batch's time)."""
    if games >= WARM_UP_GAMES:
        from crdesk.geometry import warmup

        warmup.warm_up()
        gc.collect()
        gc.freeze()


def play_chunk(
    setup: Setup, games: Sequence[tuple[int, int]], planned: int = 0
) -> list[GameResult]:
    """Play some games of a batch; what a worker process or a Dask task runs.
    ``planned`` is how many games the whole batch plays (for :func:`warm_up`): every
    worker then plays on the route one process playing them all would, so the results
    cannot depend on the number of jobs (the compiled straight-move walk agrees with
    GEOS only to rounding)."""
    warm_up(planned or len(games))
    return [play_game(setup, index, seed) for index, seed in games]


# --------------------------------------------------------------------------
# A batch


class SchedulerUnavailable(RuntimeError):
    """``--scheduler`` was asked for but Dask's distributed client is not installed."""


CHUNK_GAMES = 4
"""Games a chunk of a batch holds (at least eight chunks a worker): a worker that ends
its last chunk while the other still plays one leaves a core idle, for a chunk's time."""


def _chunks(items: list[tuple[int, int]], parts: int) -> list[list[tuple[int, int]]]:
    """Small chunks, dealt round-robin so slow and fast games spread evenly; order is
    restored afterwards."""
    count = max(1, min(len(items), max(parts * 8, -(-len(items) // CHUNK_GAMES))))
    return [items[k::count] for k in range(count) if items[k::count]]


def run_batch(
    setup: Setup,
    games: int,
    seed: int,
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[GameResult]:
    """Play ``games`` games seeded from ``seed``, in order of game index whatever ran them.

    ``jobs`` > 1 uses that many local worker processes (spawned); ``scheduler``
    is the address of a Dask distributed scheduler (``tcp://host:8786``), whose
    workers need crdesk installed."""
    return run_batches([setup], games, seed, jobs=jobs, scheduler=scheduler, progress=progress)[0]


def run_batches(
    setups: Sequence[Setup],
    games: int,
    seed: int,
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[list[GameResult]]:
    """The batch of :func:`run_batch` under each set-up, on one pool of workers: the same
    ``games`` seeds under each (the paired games of :mod:`crdesk.compare`).  Each batch's
    results are those :func:`run_batch` gives it alone (a worker warms up for ``games``
    games whatever else it plays)."""
    items = [(i, game_seed(seed, i)) for i in range(games)]
    results: list[list[GameResult]] = [[] for _ in setups]
    total = games * len(setups)
    done = 0

    def collect(k: int, part: Iterable[GameResult]) -> None:
        nonlocal done
        part = list(part)
        results[k].extend(part)
        done += len(part)
        if progress is not None:
            progress(done, total)

    if scheduler is not None:
        for k, part in _on_dask(setups, items, scheduler):
            collect(k, part)
    elif jobs <= 1 or total <= 1:
        warm_up(games)
        for k, setup in enumerate(setups):
            for item in items:
                collect(k, [play_game(setup, *item)])
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor, as_completed

        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
            futures = [
                pool.submit(_play_tagged, k, setup, chunk, games)
                for k, setup in enumerate(setups)
                for chunk in _chunks(items, jobs)
            ]
            for future in as_completed(futures):
                collect(*future.result())
    return [sorted(batch, key=lambda r: r.index) for batch in results]


def _play_tagged(
    k: int, setup: Setup, games: Sequence[tuple[int, int]], planned: int
) -> tuple[int, list[GameResult]]:
    """:func:`play_chunk`, its results tagged with the set-up's place in the list."""
    return k, play_chunk(setup, games, planned)


def _on_dask(
    setups: Sequence[Setup], items: list[tuple[int, int]], address: str
) -> Iterator[tuple[int, list[GameResult]]]:
    import importlib

    try:  # optional (the "cluster" extra), hence untyped here
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        raise SchedulerUnavailable(
            "--scheduler needs Dask's distributed client: pip install 'crdesk[cluster]' "
            "(or 'dask[distributed]')"
        ) from None
    with distributed.Client(address, timeout="20s") as client:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        chunks = _chunks(items, workers)
        tags = [k for k in range(len(setups)) for _ in chunks]
        futures = client.map(
            _play_tagged,
            tags,
            [setups[k] for k in tags],
            chunks * len(setups),
            [len(items)] * len(tags),
            pure=False,
        )
        for future in distributed.as_completed(futures):
            yield future.result()


# --------------------------------------------------------------------------
# Statistics


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion: unlike p +- z*se it stays inside [0, 1]
    and is honest for small batches and rates near 0 or 1.

    >>> [round(x, 3) for x in wilson(7, 10)]
    [0.397, 0.892]
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _spread(values: Sequence[float]) -> dict[str, Any]:
    """Mean with a normal 95% interval, standard deviation, min, median and max."""
    if not values:
        return {"mean": 0.0, "ci95": [0.0, 0.0], "sd": 0.0, "min": 0, "median": 0.0, "max": 0}
    mean = statistics.fmean(values)
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    half = Z95 * sd / math.sqrt(len(values))
    return {
        "mean": round(mean, 4),
        "ci95": [round(max(min(values), mean - half), 4), round(mean + half, 4)],
        "sd": round(sd, 4),
        "min": min(values),
        "median": statistics.median(values),
        "max": max(values),
    }


def summarize(results: Sequence[GameResult], top: int = 8) -> dict[str, Any]:
    """The statistics of a batch, as the report prints them and ``--json`` writes them.

    ``decisive_rules.loss_rules``: for every figure taken out (Out of the Fight,
    Obviously Dead or leaving the table), the rules cited by the chain of events of
    the step that took it out, up to the event naming it -- the share of each side's
    losses each rule took part in.  It says what kills: fire, a failed Man Down, a
    charge.  Whether a rule changes who wins is a question for a paired comparison
    (:mod:`crdesk.compare`: the same games with the rules option one way and the
    other), not for the games a rule happened to come up in.
    """
    played = [r for r in results if r.error is None]
    failed = [r for r in results if r.error is not None]
    n = len(played)
    wins = Counter(r.winner for r in played)
    rates = {}
    for outcome in OUTCOMES:
        lo, hi = wilson(wins[outcome], n)
        rates[outcome] = {
            "games": wins[outcome],
            "rate": round(wins[outcome] / n, 4) if n else 0.0,
            "ci95": [round(lo, 4), round(hi, 4)],
        }
    casualties: dict[str, Any] = {}
    for side in (PLAYER, ENEMY):
        per_game = [sum(r.losses.get(side, {}).values()) for r in played]
        kinds: Counter[str] = Counter()
        for r in played:
            kinds.update(r.losses.get(side, {}))
        casualties[side] = {"per_game": _spread(per_game), "total": dict(sorted(kinds.items()))}
    casualties["enemy_figures"] = _spread([r.enemies for r in played])
    reasons = Counter(r.reason for r in played)
    return {
        "games": len(results),
        "played": n,
        "errors": [{"game": r.index, "seed": r.seed, "error": r.error} for r in failed],
        "win_rates": rates,
        "casualties": casualties,
        "turns": _spread([r.turns for r in played]),
        "steps": _spread([r.steps for r in played]),
        "reasons": [
            {"reason": reason, "games": count}
            for reason, count in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))
        ],
        "behaviour": {
            side: behaviour_rates(
                [r.behaviour.get(side, {}) for r in played],
                n,
                sum(sum(r.losses.get(side, {}).values()) for r in played),
                sum(sum(r.losses.get(other, {}).values()) for r in played),
            )
            for side, other in ((PLAYER, ENEMY), (ENEMY, PLAYER))
        },
        "decisive_rules": {
            "loss_rules": _loss_rules(played, top),
        },
    }


def _loss_rules(played: Sequence[GameResult], top: int) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for side in (PLAYER, ENEMY):
        total = sum(sum(r.losses.get(side, {}).values()) for r in played)
        counts = Counter(s for r in played for who, s in r.loss_rules if who == side)
        rows = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:top]
        out[side] = [
            {
                "section": section,
                "rule": section_title(section),
                "losses": count,
                "share": round(count / total, 4) if total else 0.0,
            }
            for section, count in rows
        ]
    return out
