"""Firearms Detail: the optional detailed-firearms module (``rules/firearms-detail.md``).

Weapon cards (:mod:`.cards`, FD §2), counted ammunition and readiness
(:mod:`.ammo`, §3-§4), the fire modes, buckshot, supported and indirect fire
(:mod:`.fire`, §1, §5-§7, §10), knockdown, damage classes and explosive rings
(:mod:`.effects`, §8-§9), exact odds (:mod:`.odds`).  Pure and Qt-free like
the rest of :mod:`crdesk.rules`; every constant is in :mod:`.tables`.  Nothing
here runs unless the ``firearms_detail`` rules switch asks for it.
"""
