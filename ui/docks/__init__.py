"""The editor's docks: properties of the selection, the roster palette, issues, history.

Each dock binds to one :class:`~ui.document.Document` (``set_document`` switches
it) and changes the model only through undo commands.
"""

from ui.docks.history_dock import HistoryDock
from ui.docks.issues_dock import IssuesDock
from ui.docks.properties_dock import PropertiesDock
from ui.docks.roster_dock import (
    FIGURE_MIME,
    FigureDropTarget,
    RosterDock,
    figure_from_mime,
    figure_mime,
    install_drop_target,
)

__all__ = [
    "FIGURE_MIME",
    "FigureDropTarget",
    "HistoryDock",
    "IssuesDock",
    "PropertiesDock",
    "RosterDock",
    "figure_from_mime",
    "figure_mime",
    "install_drop_target",
]
