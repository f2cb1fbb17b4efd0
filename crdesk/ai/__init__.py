"""The program's players (STYLE.md's ``ai/``): each is a
:class:`~crdesk.ai.policy.Policy` the controller asks like a player, through
:class:`~crdesk.game.controller.Game`'s public API only, and whose choices are
recorded as steps (a replay never asks a player again).

* :mod:`crdesk.ai.policy`: the protocol, the book's default choices
  (:class:`~crdesk.ai.policy.BookPolicy`) and the loop that lets policies play;
* :mod:`crdesk.ai.objective` and :mod:`crdesk.ai.tactical`: the player's Band in
  batch simulation, playing for the encounter's objective (12);
* :mod:`crdesk.ai.enemy`: the solo enemy (11, table 11.4 NP Force Movement), whose
  figures choose their spots by :mod:`crdesk.ai.spots`.

>>> from crdesk.ai.enemy import table_row
>>> from crdesk.tables import NpMove
>>> table_row(2, outnumbers=True) is NpMove.SPLIT_AND_ENCIRCLE
True
>>> table_row(1, outnumbers=False) is NpMove.HOLD_OR_NEAREST_COVER
True
"""
