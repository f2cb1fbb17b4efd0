"""Paired comparisons: the same games under two settings, and what the difference is.

``crdesk simulate ... --compare A B`` (:mod:`crdesk.cli.simulate`) asks whether one
setting plays differently from another: two enemy policies (``enemy=solo
enemy=plain``), two player policies (``player=tactical player=random``), two rules
options settings (``charge_missed_charger_tests=false charge_missed_charger_tests=true``)
two Bands (``band=military band=police``, ``band=a.crband band=b.crband``,
``enemy_band=...``) or two tables (``scenario=a.crdesk scenario=b.crdesk``,
``terrain=urban terrain=wooded``).  Each setting is
``KEY=VALUE`` (:func:`parse_setting`); the two name the same KEY.

**Paired games.**  Game *i* is played under A and under B with the same seed
(:func:`crdesk.simulate.game_seed`), hence the same table (``--generate``), the same
deployment and the same dice stream: as long as the two games agree they roll the
same dice, and they part only where the setting makes them part.  Much of what
decides a game is its table and its dice; the difference within a pair leaves them
out, so a paired comparison tells two settings apart with far fewer games than two
independent batches (the MegaMek and Bot Bowl way of judging an AI: the same
scenarios, bot against bot, many times).

**The interval.**  For each measure -- the player's win (1 or 0 per game), the
enemy's win, a draw, each side's casualties, the turns -- ``d_i = B_i - A_i`` over the
games both played; the mean difference with a paired Student t 95% interval, ``mean
± t(0.975, n - 1) · sd / √n``, the quantile from :func:`scipy.stats.t.ppf`
(:func:`paired_difference`).  On a win the differences are -1, 0 or 1 and the t
interval is the usual large-sample one; with a few dozen games or more it is close
to a bootstrap's.

**Games to settle it.**  When the interval still includes zero, the number of paired
games at which it would not, were the observed mean difference and spread to hold:
the smallest ``n`` with ``t(0.975, n - 1) · sd / √n < |mean|`` (:func:`games_to_settle`).
It is a planning figure, not a promise: the next games move the mean too.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from crdesk.model import BandType
from crdesk.simulate import (
    DRAW,
    ENEMY,
    ENEMY_POLICIES,
    PLAYER,
    PLAYER_POLICIES,
    GameResult,
    Member,
    Setup,
    default_band,
    rules_option_names,
    rules_setting,
)
from crdesk.tables import TableType

CONFIDENCE = 0.95
"""The two-sided level of every interval of a comparison."""
MAX_GAMES = 10**9
"""Past this many games a difference is reported as not to be settled by playing."""

POLICY_KEYS = {"enemy": ENEMY_POLICIES, "player": PLAYER_POLICIES}
BAND_KEYS = ("band", "enemy_band")
"""Keys whose value is a band type (``band``: the default Band of that type; ``band``
also takes a saved ``.crband`` file, :class:`BandValue`)."""
TABLE_KEYS = ("scenario", "terrain")
"""Keys that choose the table: a scenario file (:class:`ScenarioValue`), or the type of
the tables each game generates (9.2)."""
TERRAINS = (*(t.value for t in TableType), "roll")
"""The generator's table types (9.2; ``roll`` rolls for one)."""


@dataclass(frozen=True, slots=True)
class BandValue:
    """``band=FILE.crband``: a saved Band's members, as plain data (read by the caller)."""

    path: str
    band_type: str
    name: str
    members: tuple[Member, ...]


@dataclass(frozen=True, slots=True)
class ScenarioValue:
    """``scenario=FILE``: the scenario's document text (read and checked by the caller)."""

    path: str
    text: str = field(repr=False, compare=False, default="")


# --------------------------------------------------------------------------
# What is compared


@dataclass(frozen=True, slots=True)
class Setting:
    """One side of a comparison: ``key`` set to ``value`` (``enemy=plain``)."""

    key: str
    value: Any
    text: str
    """As it was written (``enemy=plain``), for the report."""

    def apply(self, setup: Setup) -> Setup:
        """The batch's set-up with this setting."""
        if self.key == "enemy":
            return replace(setup, enemy=self.value)
        if self.key == "player":
            return replace(setup, player=self.value)
        if self.key == "enemy_band":
            return replace(setup, enemy_band=self.value)
        if self.key == "band" and isinstance(self.value, BandValue):
            band = self.value
            return replace(setup, band=band.members, band_type=band.band_type, band_name=band.name)
        if self.key == "scenario":
            assert isinstance(self.value, ScenarioValue) and self.value.text, "read first"
            return replace(setup, terrain=None, scenario=self.value.text, source=self.value.path)
        if self.key == "terrain":
            return replace(setup, terrain=self.value, scenario=None, source="")
        if self.key == "band":
            return replace(
                setup,
                band=default_band(self.value),
                band_type=self.value,
                band_name=f"{self.value.title()} Band",
            )
        rules = tuple((k, v) for k, v in setup.rules if k != self.key)
        return replace(setup, rules=(*rules, (self.key, self.value)))


def setting_keys() -> tuple[str, ...]:
    """Every KEY a setting may name: the policies, the Bands, the rules options."""
    return (*POLICY_KEYS, *BAND_KEYS, *TABLE_KEYS, *rules_option_names())


def parse_setting(text: str) -> Setting:
    """``KEY=VALUE`` as a :class:`Setting`; ValueError says what is wrong.

    >>> parse_setting("enemy=plain").value
    'plain'
    >>> parse_setting("charge_missed_charger_tests=true").value
    True
    """
    key, eq, value = text.partition("=")
    key, value = key.strip().lower(), value.strip()
    if not eq or not key or not value:
        raise ValueError(f"a setting is written KEY=VALUE (enemy=plain), got {text!r}")
    if key in POLICY_KEYS:
        choices = POLICY_KEYS[key]
        if value.lower() not in choices:
            raise ValueError(f"{key} is one of {', '.join(choices)}, got {value!r}")
        return Setting(key, value.lower(), f"{key}={value.lower()}")
    if key == "band" and value.lower() not in [b.value for b in BandType]:
        if not value.endswith(".crband"):
            kinds = ", ".join(b.value for b in BandType)
            raise ValueError(f"band is a band type ({kinds}) or a .crband file, got {value!r}")
        return Setting(key, value, f"band={value}")  # the caller reads the file
    if key in BAND_KEYS:
        types = [b.value for b in BandType]
        if value.lower() not in types:
            raise ValueError(f"{key} is a band type ({', '.join(types)}), got {value!r}")
        return Setting(key, value.lower(), f"{key}={value.lower()}")
    if key == "scenario":
        return Setting(key, ScenarioValue(value), f"scenario={value}")  # read by the caller
    if key == "terrain":
        if value.lower() not in TERRAINS:
            raise ValueError(f"terrain is one of {', '.join(TERRAINS)}, got {value!r}")
        return Setting(key, value.lower(), f"terrain={value.lower()}")
    if key not in rules_option_names():
        raise ValueError(
            f"no setting {key!r}: compare enemy, player, band, enemy_band, scenario, terrain "
            "or a rules option "
            "(an Interpretation's name, old_school, firearms_detail, night, weather, scale)"
        )
    name, parsed = rules_setting(key, value)
    if isinstance(parsed, bool):
        shown = "true" if parsed else "false"
    elif isinstance(parsed, float):
        shown = f"{parsed:g}"
    else:
        shown = str(parsed)
    return Setting(name, parsed, f"{name}={shown}")


def parse_pair(a: str, b: str) -> tuple[Setting, Setting]:
    """The two settings of ``--compare A B``: the same KEY, two different values."""
    first, second = parse_setting(a), parse_setting(b)
    if first.key != second.key:
        raise ValueError(
            f"compare two settings of one KEY ({first.key}=... {first.key}=...), "
            f"got {first.key} and {second.key}"
        )
    if first.value == second.value:
        raise ValueError(f"{first.text} twice; give two different values")
    return first, second


# --------------------------------------------------------------------------
# The statistics


@dataclass(frozen=True, slots=True)
class PairedDifference:
    """The mean of B - A over paired games, with its t interval (see the module)."""

    games: int
    mean_a: float
    mean_b: float
    mean: float
    """Mean of B - A (the same as mean_b - mean_a)."""
    sd: float
    """Standard deviation of the differences (n - 1 in the denominator)."""
    ci95: tuple[float, float] | None
    """The paired t interval; None with fewer than two games."""
    needed: int | None
    """Paired games for the interval to exclude zero at this mean and spread; None
    when no difference was seen or it cannot be settled by playing."""

    @property
    def settled(self) -> bool:
        """The interval excludes zero."""
        return self.ci95 is not None and (self.ci95[0] > 0 or self.ci95[1] < 0)

    @property
    def more(self) -> int | None:
        """Games still to play to settle it (0 when settled)."""
        if self.settled:
            return 0
        return None if self.needed is None else max(0, self.needed - self.games)

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "a": round(self.mean_a, 4),
            "b": round(self.mean_b, 4),
            "difference": round(self.mean, 4),
            "sd": round(self.sd, 4),
            "ci95": None if self.ci95 is None else [round(x, 4) for x in self.ci95],
            "settled": self.settled,
            "games_needed": self.needed,
            "more_games": self.more,
        }


def _t(games: int) -> float:
    """The two-sided :data:`CONFIDENCE` quantile of Student's t with ``games - 1`` df."""
    from scipy.stats import t  # a second's import, only when comparing

    return float(t.ppf(0.5 + CONFIDENCE / 2, games - 1))


def games_to_settle(mean: float, sd: float) -> int | None:
    """The smallest number of paired games ``n`` with ``t(n - 1) · sd / √n < |mean|``;
    None when ``mean`` is 0 or that takes more than :data:`MAX_GAMES`.

    >>> games_to_settle(0.4, math.sqrt(0.3))
    10
    """
    if mean == 0:
        return None
    if sd == 0:
        return 2

    def enough(n: int) -> bool:
        return _t(n) * sd / math.sqrt(n) < abs(mean)

    hi = 2
    while not enough(hi):
        if hi >= MAX_GAMES:
            return None
        hi = min(MAX_GAMES, hi * 2)
    lo = hi // 2  # not enough (or 1)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if enough(mid):
            hi = mid
        else:
            lo = mid
    return max(2, hi)


def paired_difference(
    a: Sequence[float], b: Sequence[float], bounds: tuple[float, float] | None = None
) -> PairedDifference:
    """Mean of ``b[i] - a[i]`` with its paired t interval and the games to settle it;
    ``bounds`` clips the interval to the differences possible (-1 to 1 for a rate).

    >>> d = paired_difference([0, 0, 1, 0, 1], [1, 0, 1, 1, 1])
    >>> round(d.mean, 3), [round(x, 3) for x in d.ci95], d.needed
    (0.4, [-0.28, 1.08], 10)
    """
    if len(a) != len(b):
        raise ValueError("paired measures need as many values under A as under B")
    n = len(a)
    if n == 0:
        return PairedDifference(0, 0.0, 0.0, 0.0, 0.0, None, None)
    diffs = [y - x for x, y in zip(a, b, strict=True)]
    mean = math.fsum(diffs) / n
    mean_a, mean_b = math.fsum(a) / n, math.fsum(b) / n
    if n < 2:
        return PairedDifference(n, mean_a, mean_b, mean, 0.0, None, None)
    sd = math.sqrt(math.fsum((d - mean) ** 2 for d in diffs) / (n - 1))
    half = _t(n) * sd / math.sqrt(n)
    lo, hi = mean - half, mean + half
    if bounds is not None:
        lo, hi = max(lo, bounds[0]), min(hi, bounds[1])
    return PairedDifference(n, mean_a, mean_b, mean, sd, (lo, hi), games_to_settle(mean, sd))


def _lost(r: GameResult, side: str) -> float:
    return float(sum(r.losses.get(side, {}).values()))


MEASURES: tuple[tuple[str, str, Callable[[GameResult], float]], ...] = (
    ("player_win", "player win rate", lambda r: float(r.winner == PLAYER)),
    ("enemy_win", "enemy win rate", lambda r: float(r.winner == ENEMY)),
    ("draw", "draws", lambda r: float(r.winner == DRAW)),
    ("player_casualties", "player casualties", lambda r: _lost(r, PLAYER)),
    ("enemy_casualties", "enemy casualties", lambda r: _lost(r, ENEMY)),
    ("turns", "turns", lambda r: float(r.turns)),
)
"""What a comparison measures per game: (key, words, the game's value)."""
RATES = ("player_win", "enemy_win", "draw")
"""The measures that are shares of games (printed in percent and points)."""


def compare(a: Sequence[GameResult], b: Sequence[GameResult]) -> dict[str, Any]:
    """The paired differences of every measure over the games both batches played
    (paired by game index: the same seed), as ``--json`` writes them."""
    mine = {r.index: r for r in a if r.error is None}
    theirs = {r.index: r for r in b if r.error is None}
    both = sorted(mine.keys() & theirs.keys())
    measures = {}
    for key, _words, value in MEASURES:
        diff = paired_difference(
            [value(mine[i]) for i in both],
            [value(theirs[i]) for i in both],
            (-1.0, 1.0) if key in RATES else None,
        )
        measures[key] = diff.to_dict()
    return {
        "games": len(both),
        "dropped": max(len(a), len(b)) - len(both),
        "confidence": CONFIDENCE,
        "method": "paired t (Student's t quantile from scipy.stats.t)",
        "differ": sum(_outcome(mine[i]) != _outcome(theirs[i]) for i in both),
        "measures": measures,
    }


def _outcome(r: GameResult) -> tuple[str, int, dict[str, dict[str, int]]]:
    return (r.winner, r.turns, r.losses)
