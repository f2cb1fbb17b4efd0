"""The rules engine: one module per rules area, pure functions over explicit inputs.

Every function takes the figures' numbers and circumstances, a
:class:`~crdesk.options.RulesOptions` where a reading matters, and a dice source
(:mod:`crdesk.dice`); it returns a frozen result object with ``section``,
``result`` (the book's words in snake_case), ``explain()`` and ``to_dict()``.
Nothing here imports Qt or touches the battlefield: geometry answers (who is in
Cover, who is in the blast circle) come in as flags.
"""
