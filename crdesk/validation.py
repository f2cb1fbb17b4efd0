"""Rules-model checks while editing: what would make a table unplayable or wrong.

Problems are flagged, never enforced: a player may save a half-finished table
and come back to it.  The editor shows these in place and in its issues dock.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from shapely.geometry import Point, Polygon
from shapely.validation import explain_validity, make_valid

from crdesk import limits
from crdesk.model import Battlefield, Building, Hill, TerrainKind

_MIN_OVERLAP = 1e-6
"""Square inches of overlap below which shared edges do not count."""


class Severity(StrEnum):
    WARNING = "warning"
    ERROR = "error"


@dataclass(frozen=True, slots=True)
class TableIssue:
    """One problem on the table, tied to the model id it concerns."""

    item_id: str
    severity: Severity
    message: str

    def __str__(self) -> str:
        return f"{self.item_id}: {self.message}"


def check_battlefield(battlefield: Battlefield) -> list[TableIssue]:
    """Everything wrong with the table, in terrain then roster order."""
    issues: list[TableIssue] = []
    table = battlefield.table.bounds
    impassable = [f for f in battlefield.terrain if f.kind is TerrainKind.IMPASSABLE]
    for feature in battlefield.terrain:
        name = feature.name or feature.id
        if not feature.outline.is_valid and make_valid(feature.outline).area <= _MIN_OVERLAP:
            issues.append(
                TableIssue(
                    feature.id,
                    Severity.ERROR,
                    f"{name}: the outline encloses no ground (zero area)",
                )
            )
            continue
        if not feature.outline.is_valid:
            reason = explain_validity(feature.outline)
            issues.append(
                TableIssue(
                    feature.id,
                    Severity.ERROR,
                    f"{name}: the outline crosses itself ({reason})",
                )
            )
            continue
        if not feature.outline.within(table):
            issues.append(TableIssue(feature.id, Severity.WARNING, f"{name} runs off the table"))
        if isinstance(feature, Hill) and len(feature.crest.coords) < 2:
            issues.append(TableIssue(feature.id, Severity.WARNING, f"{name} has no crest line"))
        if isinstance(feature, Building):
            for rock in impassable:
                if rock.outline.is_valid and (
                    feature.outline.intersection(rock.outline).area > _MIN_OVERLAP
                ):
                    issues.append(
                        TableIssue(
                            feature.id,
                            Severity.ERROR,
                            f"{name} overlaps impassable ground ({rock.name or rock.id})",
                        )
                    )
            if not any(o.kind.value == "door" for o in feature.openings):
                issues.append(TableIssue(feature.id, Severity.WARNING, f"{name} has no door"))
    issues += _limit_issues(battlefield)
    for figure in battlefield.figures():
        name = figure.name or figure.id
        centre = Point(figure.x, figure.y)
        if not centre.within(table):
            issues.append(TableIssue(figure.id, Severity.WARNING, f"{name} is off the table"))
            continue
        for rock in impassable:
            if rock.outline.is_valid and rock.outline.contains(centre):
                issues.append(
                    TableIssue(
                        figure.id,
                        Severity.ERROR,
                        f"{name} stands inside impassable ground ({rock.name or rock.id})",
                    )
                )
    return issues


def _limit_issues(battlefield: Battlefield) -> list[TableIssue]:
    """What would make the saved file one crdesk refuses to open (:mod:`crdesk.limits`).

    The editor does not stop such an edit, but says at once that the file
    could not be opened again, so no work is lost unnoticed.
    """
    issues: list[TableIssue] = []
    w, h = battlefield.table.width, battlefield.table.height
    m = limits.COORD_MARGIN
    far = Polygon([(-m, -m), (w + m, -m), (w + m, h + m), (-m, h + m)])
    for feature in battlefield.terrain:
        points = len(feature.outline.exterior.coords) - 1
        if points > limits.POINTS_PER_OUTLINE:
            issues.append(
                TableIssue(
                    feature.id,
                    Severity.ERROR,
                    f"{feature.name or feature.id}: "
                    + limits.count_message(
                        points, "outline points", limits.POINTS_PER_OUTLINE, "in a line"
                    )
                    + "; crdesk would not open the saved file",
                )
            )
        if not feature.outline.is_empty and not far.contains(feature.outline.envelope):
            issues.append(
                TableIssue(
                    feature.id,
                    Severity.ERROR,
                    f'{feature.name or feature.id} reaches more than {m:g}" off the table; '
                    "crdesk would not open the saved file",
                )
            )
    for figure in battlefield.figures():
        if not far.contains(Point(figure.x, figure.y)):
            issues.append(
                TableIssue(
                    figure.id,
                    Severity.ERROR,
                    f'{figure.name or figure.id} stands more than {m:g}" off the table; '
                    "crdesk would not open the saved file",
                )
            )
    count = sum(1 for _ in battlefield.figures())
    if count > limits.FIGURES_PER_TABLE:
        issues.append(
            TableIssue(
                "",
                Severity.ERROR,
                limits.count_message(count, "figures", limits.FIGURES_PER_TABLE, "on one table")
                + "; the saved file would not open",
            )
        )
    return issues
