"""The battle report: a game's event log as Markdown and HTML, with maps of the table.

Game ▸ Export Battle Report… writes ``NAME.md`` and ``NAME.html`` (the same
content) and two pictures next to them, ``NAME-start.png`` (the table as the
scenario deployed it) and ``NAME-end.png`` (the game's battlefield now), drawn
by the same renderer as File ▸ Export (:mod:`ui.render`).  Both documents link
the pictures by their bare file names, so the folder can be posted or zipped
as it is.  Events are grouped by turn (a turn ends with its ``turn_end``
event), each with its section of the book and the dice it rolled.
"""

from __future__ import annotations

import html
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from PySide6.QtGui import QColor

from crdesk.game import CHANCE, Event, Game
from crdesk.model import Battlefield
from ui.render import RenderOptions, save_png

PIXELS_PER_INCH = 14.0
"""Map pictures a forum shows without scaling (a 72" table is about 1000 px wide)."""
DIE_FACES = "⚀⚁⚂⚃⚄⚅"


@dataclass(frozen=True, slots=True)
class TurnEvents:
    """One turn of the encounter and what happened in it."""

    turn: int
    events: tuple[Event, ...]


@dataclass(slots=True)
class BattleReport:
    """What a report says, independent of its format."""

    title: str
    sides: list[tuple[str, str]]
    """(force name, who played it: "a person" / "the program")."""
    seed: int
    dice: str
    turns_played: int
    outcome: str | None
    """How it ended, or None while the encounter goes on."""
    turns: list[TurnEvents] = field(default_factory=list)
    start_image: str = ""
    end_image: str = ""


@dataclass(frozen=True, slots=True)
class ReportFiles:
    """Everything an export wrote."""

    markdown: Path
    html: Path
    start_image: Path
    end_image: Path


def side_name(game: Game, side: str | None) -> str:
    if side is None:
        return "nobody"
    if side == CHANCE:
        return "Dice"
    try:
        return game.battlefield.force(side).name
    except ValueError:
        return side


def group_by_turn(events: tuple[Event, ...] | list[Event]) -> list[TurnEvents]:
    """Events in turns: a ``turn_end`` event closes its turn."""
    out: list[TurnEvents] = []
    turn = 1
    current: list[Event] = []
    for event in events:
        current.append(event)
        if event.kind == "turn_end":
            out.append(TurnEvents(turn, tuple(current)))
            turn += 1
            current = []
    if current:
        out.append(TurnEvents(turn, tuple(current)))
    return out


def build_report(game: Game, program: frozenset[str] | set[str] = frozenset()) -> BattleReport:
    """The report's content for ``game`` as it stands (over or not)."""
    outcome = game.outcome
    ended: str | None = None
    if outcome is not None:
        if outcome.winner is None:
            ended = f"A draw on turn {outcome.turn}: {outcome.reason}"
        else:
            ended = (
                f"{side_name(game, outcome.winner)} won on turn {outcome.turn}: {outcome.reason}"
            )
    sides = [
        (side_name(game, s), "the program" if s in program else "a person") for s in game.sides
    ]
    return BattleReport(
        title=game.scenario.title,
        sides=sides,
        seed=game.seed,
        dice="seeded dice" if game.dice_mode == "seeded" else "dice rolled at the table",
        turns_played=outcome.turn if outcome is not None else game.turn,
        outcome=ended,
        turns=group_by_turn(game.events),
    )


# -- Markdown ----------------------------------------------------------------------

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|])")


def md_escape(text: str) -> str:
    """Text that Markdown shows as written (no emphasis, links or HTML from event text)."""
    return _MD_SPECIAL.sub(r"\\\1", text)


def _dice_text(faces: tuple[int, ...]) -> str:
    return " ".join(f"{DIE_FACES[f - 1]}{f}" if 1 <= f <= 6 else str(f) for f in faces)


def _event_heading(event: Event) -> str:
    parts = [f"step {event.step}"]
    if event.section:
        parts.append(f"§ {event.section}")
    return ", ".join(parts)


def to_markdown(report: BattleReport) -> str:
    lines = [f"# Battle report: {md_escape(report.title)}", ""]
    for name, who in report.sides:
        lines.append(f"- **{md_escape(name)}**, played by {who}")
    lines.append(f"- Dice: {report.dice}, seed {report.seed}")
    lines.append(f"- Turns: {report.turns_played}")
    lines.append(
        f"- Outcome: {md_escape(report.outcome)}" if report.outcome else "- Outcome: still going"
    )
    lines += [
        "",
        "## The table at the start",
        "",
        f"![The table at the start]({report.start_image})",
    ]
    for turn in report.turns:
        lines += ["", f"## Turn {turn.turn}", ""]
        for event in turn.events:
            line = f"- *{md_escape(_event_heading(event))}* — {md_escape(event.text)}"
            if event.dice:
                line += f" (dice: {_dice_text(event.dice)})"
            lines.append(line)
    end = "at the end" if report.outcome else "now"
    lines += ["", f"## The table {end}", "", f"![The table {end}]({report.end_image})", ""]
    return "\n".join(lines)


# -- HTML --------------------------------------------------------------------------

_CSS = """
body { font-family: sans-serif; max-width: 60em; margin: 2em auto; line-height: 1.4; }
img { max-width: 100%; border: 1px solid #999; }
.ref { color: #666; font-size: 0.85em; }
.dice { font-family: monospace; white-space: nowrap; }
li { margin: 0.2em 0; }
"""


def to_html(report: BattleReport) -> str:
    e = html.escape
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>Battle report: {e(report.title)}</title>",
        f"<style>{_CSS}</style></head><body>",
        f"<h1>Battle report: {e(report.title)}</h1>",
        "<ul>",
    ]
    for name, who in report.sides:
        out.append(f"<li><strong>{e(name)}</strong>, played by {e(who)}</li>")
    out.append(f"<li>Dice: {e(report.dice)}, seed {report.seed}</li>")
    out.append(f"<li>Turns: {report.turns_played}</li>")
    out.append(f"<li>Outcome: {e(report.outcome) if report.outcome else 'still going'}</li>")
    out.append("</ul>")
    out.append("<h2>The table at the start</h2>")
    out.append(f'<p><img src="{e(report.start_image)}" alt="The table at the start"></p>')
    for turn in report.turns:
        out.append(f"<h2>Turn {turn.turn}</h2>")
        out.append("<ul>")
        for event in turn.events:
            item = f'<li><span class="ref">{e(_event_heading(event))}</span> — {e(event.text)}'
            if event.dice:
                item += f' <span class="dice">(dice: {e(_dice_text(event.dice))})</span>'
            out.append(item + "</li>")
        out.append("</ul>")
    end = "at the end" if report.outcome else "now"
    out.append(f"<h2>The table {end}</h2>")
    out.append(f'<p><img src="{e(report.end_image)}" alt="The table {end}"></p>')
    out.append("</body></html>")
    return "\n".join(out) + "\n"


# -- files ---------------------------------------------------------------------------


def start_battlefield(game: Game) -> Battlefield:
    """The table as the encounter began: the scenario's deployment (the game has a copy)."""
    return game.scenario.battlefield


def export_report(
    game: Game,
    path: str | os.PathLike[str],
    program: frozenset[str] | set[str] = frozenset(),
) -> ReportFiles:
    """Write the report next to ``path`` (its suffix is replaced by .md and .html)."""
    target = Path(path)
    stem = target.with_suffix("") if target.suffix.lower() in (".md", ".html", ".htm") else target
    folder = stem.parent
    folder.mkdir(parents=True, exist_ok=True)
    start_png = folder / f"{stem.name}-start.png"
    end_png = folder / f"{stem.name}-end.png"
    options = RenderOptions(
        pixels_per_inch=PIXELS_PER_INCH, background=QColor("white"), title=game.scenario.title
    )
    save_png(start_battlefield(game), start_png, options)
    save_png(game.battlefield, end_png, options)
    report = build_report(game, program)
    report.start_image = quote(start_png.name)
    report.end_image = quote(end_png.name)
    md = stem.with_name(stem.name + ".md")
    page = stem.with_name(stem.name + ".html")
    md.write_text(to_markdown(report), encoding="utf-8")
    page.write_text(to_html(report), encoding="utf-8")
    return ReportFiles(md, page, start_png, end_png)
