"""The table checks: what would make a table unplayable or wrong.

One set of checks serves the editor (its Issues dock and the markers on the
table) and ``crdesk validate``, so the two never disagree about a file.
Problems are flagged, never enforced: a player may save a half-finished table
and come back to it.  Each problem names the item (for the editor to select)
and the JSON path of the file field it concerns (for ``validate`` to print,
the same paths as the file-format problems), and may carry a one-step
:class:`Remedy` the editor can offer.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from enum import StrEnum

from shapely.geometry import Point, Polygon
from shapely.validation import explain_validity

from crdesk import limits
from crdesk.errors import Problem, ScenarioFormatError
from crdesk.model import (
    Battlefield,
    Building,
    Figure,
    Hill,
    Scenario,
    Table,
    TerrainFeature,
    TerrainKind,
)
from crdesk.shapes import ground

_MIN_OVERLAP = 1e-6
"""Square inches of overlap below which shared edges do not count."""


class Severity(StrEnum):
    WARNING = "warning"
    ERROR = "error"


@dataclass(frozen=True, slots=True)
class Remedy:
    """A one-step repair of an issue: put a figure at a spot the checks chose.

    The core decides where (it knows the table); the editor only offers the
    label and pushes the move as an undoable step.
    """

    label: str
    figure_id: str
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class TableIssue:
    """One problem on the table: the model id it concerns, and where it is in the file."""

    item_id: str
    severity: Severity
    message: str
    path: str = ""
    """JSON path of the file field, e.g. ``forces[0].figures[2].position``."""
    remedy: Remedy | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return f"{self.item_id}: {self.message}"


def onto_table(table: Table, figure: Figure) -> tuple[float, float]:
    """The spot on the table nearest the figure with its whole base on the cloth.

    >>> onto_table(Table(36, 36), Figure("a", "A", 4, x=-5, y=40))
    (0.5, 35.5)
    """
    r = figure.radius

    def clamp(value: float, size: float) -> float:
        return size / 2 if size < 2 * r else min(max(value, r), size - r)

    return clamp(figure.x, table.width), clamp(figure.y, table.height)


def check_battlefield(battlefield: Battlefield) -> list[TableIssue]:
    """Everything wrong with the table, in terrain then roster order.

    The paths count features and figures in the battlefield's own order, which
    is the order the file is written (and read) in.
    """
    issues: list[TableIssue] = []
    table = battlefield.table.bounds
    # Valid rock only, judged once: a table at the limits has hundreds of features,
    # and asking each rock's validity per building and per figure cost seconds.
    rocks = [
        f for f in battlefield.terrain if f.kind is TerrainKind.IMPASSABLE and f.outline.is_valid
    ]
    for i, feature in enumerate(battlefield.terrain):
        issues += _feature_issues(feature, f"terrain[{i}]", table, rocks)
    issues += _limit_issues(battlefield)
    for i, force in enumerate(battlefield.forces):
        for j, figure in enumerate(force.figures):
            issues += _figure_issues(
                battlefield, figure, f"forces[{i}].figures[{j}].position", rocks
            )
    issues += _star_power_issues(battlefield)
    return issues


def _star_power_issues(battlefield: Battlefield) -> list[TableIssue]:
    """A Star starts each encounter with 1d6 of Star Power per point of Rep (5.2.1):
    a scenario value that differs is kept by the game, so say so (left out, the game
    gives the Rep's worth)."""
    issues: list[TableIssue] = []
    for i, force in enumerate(battlefield.forces):
        for j, figure in enumerate(force.figures):
            sp = figure.star_power
            if figure.is_star and sp is not None and sp != figure.rep:
                issues.append(
                    TableIssue(
                        figure.id,
                        Severity.WARNING,
                        f"{figure.name or figure.id} starts with {sp} Star Power dice, not "
                        f"{figure.rep} (1d6 per point of Rep, 5.2.1)",
                        f"forces[{i}].figures[{j}].star_power",
                    )
                )
    return issues


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """Whether two (minx, miny, maxx, maxy) boxes share more than an edge."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _feature_issues(
    feature: TerrainFeature, at: str, table: Polygon, rocks: list[TerrainFeature]
) -> list[TableIssue]:
    name = feature.name or feature.id
    issues: list[TableIssue] = []

    def flag(severity: Severity, message: str, key: str = "outline") -> None:
        issues.append(TableIssue(feature.id, severity, message, f"{at}.{key}"))

    valid = feature.outline.is_valid
    if not valid and ground(feature.outline).area <= _MIN_OVERLAP:
        flag(Severity.ERROR, f"{name}: the outline encloses no ground (zero area)")
        return issues
    if not valid:
        reason = explain_validity(feature.outline)
        flag(Severity.ERROR, f"{name}: the outline crosses itself ({reason})")
        return issues
    if not feature.outline.within(table):
        flag(Severity.WARNING, f"{name} runs off the table")
    if isinstance(feature, Hill) and len(feature.crest.coords) < 2:
        flag(Severity.WARNING, f"{name} has no crest line", "crest")
    if isinstance(feature, Building):
        box = feature.outline.bounds
        for rock in rocks:
            if _overlap(box, rock.outline.bounds) and (
                feature.outline.intersection(rock.outline).area > _MIN_OVERLAP
            ):
                flag(Severity.ERROR, f"{name} overlaps impassable ground ({rock.name or rock.id})")
        if not any(o.kind.value == "door" for o in feature.openings):
            flag(Severity.WARNING, f"{name} has no door", "openings")
    return issues


def _figure_issues(
    battlefield: Battlefield, figure: Figure, at: str, rocks: list[TerrainFeature]
) -> list[TableIssue]:
    name = figure.name or figure.id
    centre = Point(figure.x, figure.y)
    if not centre.within(battlefield.table.bounds):
        x, y = onto_table(battlefield.table, figure)
        remedy = Remedy("Move onto the table", figure.id, x, y)
        where = f'at ({figure.x:.1f}", {figure.y:.1f}")'
        message = f"{name} is off the table {where}"
        return [TableIssue(figure.id, Severity.WARNING, message, at, remedy)]
    return [
        TableIssue(
            figure.id,
            Severity.ERROR,
            f"{name} stands inside impassable ground ({rock.name or rock.id})",
            at,
        )
        for rock in rocks
        if _inside(figure.x, figure.y, rock.outline.bounds) and rock.outline.contains(centre)
    ]


def _inside(x: float, y: float, box: tuple[float, ...]) -> bool:
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def _limit_issues(battlefield: Battlefield) -> list[TableIssue]:
    """What would make the saved file one crdesk refuses to open (:mod:`crdesk.limits`).

    The editor does not stop such an edit, but says at once that the file
    could not be opened again, so no work is lost unnoticed.
    """
    issues: list[TableIssue] = []
    w, h = battlefield.table.width, battlefield.table.height
    m = limits.COORD_MARGIN
    far = Polygon([(-m, -m), (w + m, -m), (w + m, h + m), (-m, h + m)])
    for i, feature in enumerate(battlefield.terrain):
        name = feature.name or feature.id
        at = f"terrain[{i}].outline"
        points = len(feature.outline.exterior.coords) - 1
        if points > limits.POINTS_PER_OUTLINE:
            too_many = limits.count_message(
                points, "outline points", limits.POINTS_PER_OUTLINE, "in a line"
            )
            message = f"{name}: {too_many}; crdesk would not open the saved file"
            issues.append(TableIssue(feature.id, Severity.ERROR, message, at))
        if not feature.outline.is_empty and not far.contains(feature.outline.envelope):
            message = (
                f'{name} reaches more than {m:g}" off the table; crdesk would not open '
                "the saved file"
            )
            issues.append(TableIssue(feature.id, Severity.ERROR, message, at))
    count = 0
    for i, force in enumerate(battlefield.forces):
        for j, figure in enumerate(force.figures):
            count += 1
            if not far.contains(Point(figure.x, figure.y)):
                message = (
                    f'{figure.name or figure.id} stands more than {m:g}" off the table; '
                    "crdesk would not open the saved file"
                )
                at = f"forces[{i}].figures[{j}].position"
                issues.append(TableIssue(figure.id, Severity.ERROR, message, at))
    if count > limits.FIGURES_PER_TABLE:
        message = (
            limits.count_message(count, "figures", limits.FIGURES_PER_TABLE, "on one table")
            + "; the saved file would not open"
        )
        issues.append(TableIssue("", Severity.ERROR, message, "forces"))
    return issues


@dataclass(frozen=True, slots=True)
class FileCheck:
    """What ``crdesk validate`` finds in one file: format problems, else the table's."""

    problems: list[Problem]
    """Breaks of the file format (the file does not open); empty when it opens."""
    table: list[TableIssue]
    """The table checks of the editor, run only on a file that opens."""


def check_file(path: str | os.PathLike[str]) -> FileCheck:
    """Check a scenario file as ``crdesk validate`` does: the format, then the table.

    Raises :class:`~crdesk.errors.UnreadableFileError` or
    :class:`~crdesk.errors.NewerFormatError` for files that are not scenarios.
    """
    from crdesk.scenario import from_document, read_document

    data = read_document(path)
    try:  # migrates, checks the format (every problem at once), builds the table
        scenario = from_document(data, str(path))
    except ScenarioFormatError as exc:
        return FileCheck(exc.problems, [])
    return FileCheck([], load_issues(scenario) + check_battlefield(scenario.battlefield))


def load_issues(scenario: Scenario) -> list[TableIssue]:
    """What reading the scenario's file repaired, as warnings (``crdesk validate`` and the
    app's Issues dock say it: the table opened is not quite the one written)."""
    return [TableIssue(n.item_id, Severity.WARNING, n.message, n.path) for n in scenario.load_notes]
