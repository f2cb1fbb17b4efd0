"""The bundled demo scenario, and its In Sight variant, as the tests open them."""

from __future__ import annotations

from crdesk.model import Scenario
from crdesk.resources import demo_scenario
from crdesk.scenario import load

KNUCKLES_APART = (4.1, 9.2)
"""Knuckles 4.9" from the Viper boss: out of cohesion (6.2), his own group."""


def demo() -> Scenario:
    """A fresh copy of the bundled demo scenario (Main Street)."""
    return load(str(demo_scenario()))


def in_sight_demo() -> Scenario:
    """Main Street with Knuckles a group of his own, out of everyone's sight at the start.

    In the demo he stands 3" from the Viper boss, whom Sgt. Mace sees from the start:
    one group, seen already, so Knuckles coming into Cpl. Diaz's sight triggers no In
    Sight test (7.6.2: "an opposing group ... not seen previously during this
    activation phase").  Apart from the boss, he is a group not seen before, and
    Diaz's walk north stops where he first sees him, as the In Sight tests want
    (about (18.1, 26.2), with seeds 1 and 4)."""
    scenario = demo()
    knuckles = scenario.battlefield.figure("e2")
    scenario.battlefield.move_figure("e2", *KNUCKLES_APART, knuckles.facing)
    return scenario
