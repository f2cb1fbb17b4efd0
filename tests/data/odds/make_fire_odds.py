"""Write fire_odds.json beside this file: crdesk.odds.fire_odds as it stood at f6ae7fe,
before its rolls were grouped by what they read, for tests/model/rules/test_odds.py.

Run from the repository root:
    python tests/data/odds/make_fire_odds.py tests/data/odds/fire_odds.json
"""

import itertools
import json
import sys
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, ".")

from crdesk.odds import fire_odds
from crdesk.options import RulesOptions
from crdesk.rules.shooting import TargetSpec
from crdesk.tables import OLD_SCHOOL_WEAPONS, WEAPONS

SPECS: list[dict[str, Any]] = [
    {"rep": 4},
    {"rep": 4, "in_cover": True},
    {"rep": 5, "prone": True},
    {"rep": 3, "fast_moving": True},
    {"rep": 4, "carried_rep": 3},
    {"rep": 6, "in_cover": True, "prone": True},
]


def cases() -> Iterator[dict[str, Any]]:
    for old in (False, True):
        table = OLD_SCHOOL_WEAPONS if old else WEAPONS
        for code, st in sorted(table.items()):
            if st.blast:
                continue
            for rep in (2, 3, 4, 5, 6):
                if rep in (2, 6) and st.rolls > 3:
                    continue
                for n in range(1, min(st.target, 3) + 1):
                    orders = itertools.permutations(range(len(SPECS)), n)
                    for combo in itertools.islice(orders, 0, None, 23 if n > 1 else 2):
                        for fast, rush in ((False, False), (True, False), (False, True)):
                            if (fast or rush) and rep not in (3, 5):
                                continue
                            yield {
                                "rep": rep,
                                "weapon": code,
                                "old_school": old,
                                "fast": fast,
                                "rush": rush,
                                "targets": [SPECS[i] for i in combo],
                            }


def frac(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def main() -> None:
    out = []
    for c in cases():
        ts = [TargetSpec(id=str(k), **t) for k, t in enumerate(c["targets"])]
        o = fire_odds(
            c["rep"],
            c["weapon"],
            ts,
            fast_moving=c["fast"],
            rush_shot=c["rush"],
            options=RulesOptions(old_school=c["old_school"]),
        )
        c["any_hit"], c["out_of_ammo"] = frac(o.any_hit), frac(o.out_of_ammo)
        c["odds"] = [
            [
                frac(t.hit),
                frac(t.duck_back),
                frac(t.out_of_the_fight),
                frac(t.obviously_dead),
                frac(t.expected_hits),
            ]
            for t in o.targets
        ]
        out.append(c)
    lines = ",\n".join(json.dumps(c, separators=(",", ":")) for c in out)
    Path(sys.argv[1]).write_text("[\n" + lines + "\n]\n", encoding="utf-8")
    print(len(out), "cases")


if __name__ == "__main__":
    main()
