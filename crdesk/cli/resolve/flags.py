"""The flags of ``crdesk resolve``: argparse types that refuse a bad value in one line
naming the flag, and the dice flags every subcommand shares."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from crdesk import numbers
from crdesk.cli.common import OneLineParser, int_in
from crdesk.model import REP_MAX, Status

REP_RANGE = (1, REP_MAX)
"""Reps a player may type: the scenario format's (the book has no maximum), and 1
for a Rep lowered in melee."""

# --------------------------------------------------------------------------
# Argument parsing with one-line errors


class ResolveParser(OneLineParser):
    """An argparse parser whose errors are one line on stderr (exit 2), no usage dump."""

    choice_metavar = "WHAT"
    command = "resolve"


def _die_faces(text: str) -> list[int]:
    """``--dice 3,5`` (or one face of ``--dice 3 5``): d6 faces, each 1-6."""
    faces: list[int] = []
    for part in text.replace(",", " ").split():
        try:
            face = numbers.whole(part, "a die face")
        except numbers.NumberTextError:
            raise argparse.ArgumentTypeError(f"{part!r} is not a die face (1-6)") from None
        if not 1 <= face <= 6:
            raise argparse.ArgumentTypeError(f"{face} is not a die face (1-6)")
        faces.append(face)
    if not faces:
        raise argparse.ArgumentTypeError(f"no die faces in {text!r}")
    return faces


rep_type = int_in(*REP_RANGE, "Rep")
count_type = int_in(0, 99, "a count")
size_type = int_in(1, 99, "a number of figures")


def int_list(text: str) -> list[int]:
    try:
        return [numbers.whole(p, "a number", signed=True) for p in text.replace(",", " ").split()]
    except numbers.NumberTextError:
        raise argparse.ArgumentTypeError(f"expected whole numbers like 2,1, got {text!r}") from None


def choice_of(*names: str) -> Callable[[str], str]:
    """Case-insensitive choice that also takes - for _ (received-fire, one_hand)."""

    def convert(text: str) -> str:
        key = text.strip().lower().replace("_", "-")
        for name in names:
            if key == name.lower():
                return name
        raise argparse.ArgumentTypeError(
            f"invalid choice: {text!r} (choose from {', '.join(names)})"
        )

    return convert


def weapon_choice(names: Sequence[str]) -> Callable[[str], str]:
    def convert(text: str) -> str:
        key = text.strip().upper()
        if key not in names:
            raise argparse.ArgumentTypeError(
                f"invalid choice: {text!r} (choose from {', '.join(names)})"
            )
        return key

    return convert


@dataclass(frozen=True, slots=True)
class FigureSpec:
    """A ``--target``/``--figure`` value: ``rep=4[,cover][,prone][,fast][,name=Bob]``."""

    rep: int
    name: str | None = None
    cover: bool = False
    prone: bool = False
    fast: bool = False
    carrying: int | None = None
    at: float | None = None
    """Firearms Detail ``--near``: inches from the target it stands near."""
    of: int | None = None
    """Firearms Detail ``--near``: which ``--target`` it stands near (1 = the first)."""

    def text(self) -> str:
        """The spec as typed: ``rep=4,cover,name=Bob``."""
        parts = [f"rep={self.rep}"]
        parts += [w for w, on in (("cover", self.cover), ("prone", self.prone)) if on]
        parts += ["fast"] if self.fast else []
        parts += [f"carrying={self.carrying}"] if self.carrying is not None else []
        parts += [f"at={self.at:g}"] if self.at is not None else []
        parts += [f"of={self.of}"] if self.of is not None else []
        parts += [f"name={self.name}"] if self.name else []
        return ",".join(parts)


SPEC_HELP = "rep=N[,cover][,prone][,fast][,carrying=N][,name=X]"
NEAR_HELP = "rep=N,at=INCHES[,of=N][,cover][,prone][,fast][,name=X]"


def _inches(key: str, value: str, text: str) -> float:
    try:
        number = numbers.decimal(value.strip(), key)
    except numbers.NumberTextError:
        number = float("nan")
    if not 0 <= number <= 10_000:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(
            f"{key}= in {text!r}: expected inches (0 or more), got {value.strip()!r}"
        )
    return number


def range_inches(text: str) -> float:
    try:
        number = float(text)
    except ValueError:
        number = float("nan")
    if not 0 <= number <= 10_000:
        raise argparse.ArgumentTypeError(f"expected inches (0 or more), got {text.strip()!r}")
    return number


def figure_spec(text: str) -> FigureSpec:
    rep: int | None = None
    name: str | None = None
    carrying: int | None = None
    at: float | None = None
    of: int | None = None
    flags = {"cover": False, "prone": False, "fast": False}
    for raw in text.split(","):
        part = raw.strip()
        if not part:
            continue
        key, eq, value = part.partition("=")
        key = key.strip().lower()
        if eq and key in ("rep", "carrying"):
            try:
                number = rep_type(value.strip())
            except argparse.ArgumentTypeError as exc:
                raise argparse.ArgumentTypeError(f"{key}= in {text!r}: {exc}") from None
            if key == "rep":
                rep = number
            else:
                carrying = number
        elif eq and key == "name":
            name = value.strip() or None
        elif eq and key == "at":
            at = _inches(key, value, text)
        elif eq and key == "of":
            try:
                of = int_in(1, 99, "a target number")(value.strip())
            except argparse.ArgumentTypeError as exc:
                raise argparse.ArgumentTypeError(f"of= in {text!r}: {exc}") from None
        elif not eq and key in flags:
            flags[key] = True
        else:
            raise argparse.ArgumentTypeError(f"unknown {part!r} in {text!r} (use {SPEC_HELP})")
    if rep is None:
        raise argparse.ArgumentTypeError(f"{text!r} has no rep=N (use {SPEC_HELP})")
    return FigureSpec(rep, name, flags["cover"], flags["prone"], flags["fast"], carrying, at, of)


def status_choice(text: str) -> Status:
    """``duck-back``, ``Duck_Back``: a status by its code, case and dashes aside."""
    key = text.strip().lower().replace("-", "_").replace(" ", "_")
    try:
        return Status(key)
    except ValueError:
        names = ", ".join(s.value.replace("_", "-") for s in Status)
        raise argparse.ArgumentTypeError(f"{text!r} is not a status ({names})") from None


def damage_results(text: str) -> list[Status]:
    out: list[Status] = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        try:
            out.append(Status(part.lower().replace("-", "_")))
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{part!r} is not a damage result (obviously_dead, out_of_the_fight, "
                "duck_back, minus_one_rep)"
            ) from None
    if not out:
        raise argparse.ArgumentTypeError("name at least one damage result")
    return out


def dice_arg(p: argparse.ArgumentParser, flag: str, help_text: str, **kw: Any) -> None:
    p.add_argument(
        flag,
        type=_die_faces,
        nargs="+",
        action="extend",
        metavar="D",
        help=help_text,
        **kw,
    )
