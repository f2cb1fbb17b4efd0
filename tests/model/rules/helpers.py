"""Shared helpers for the rules tests."""

import dataclasses

from crdesk.options import Interpretations, RulesOptions


def opts(**interp: object) -> RulesOptions:
    """Default rules options with some interpretations switched."""
    return RulesOptions(interpretations=dataclasses.replace(Interpretations(), **interp))
