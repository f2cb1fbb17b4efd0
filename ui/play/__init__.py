"""The play mode: play an encounter on the table while the game controller runs the rules.

:class:`~ui.play.mode.PlayMode` adds the Game menu to the main window and
switches between the editor and a game; :class:`~ui.play.session.PlaySession`
is the only part that talks to the :class:`~crdesk.game.Game`.  The docks show
the awaited decision (:mod:`ui.play.decision_dock`) and the events
(:mod:`ui.play.log_dock`); :mod:`ui.play.move_tool` moves figures with the mouse.
:mod:`ui.play.viewer` watches a saved game step by step, with the program's "why"
drawn at its moves (:mod:`ui.play.why_marks`), and plays on from any step.
No rule is decided here: the GUI shows ``awaiting()``, offers the legal
options, sends the choice and shows the events.
"""

from ui.play.mode import PlayMode
from ui.play.session import PlaySession

__all__ = ["PlayMode", "PlaySession"]
