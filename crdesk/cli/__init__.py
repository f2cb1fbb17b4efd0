"""The ``crdesk`` command line: :mod:`crdesk.cli.app` builds the parser and dispatches,
:mod:`crdesk.cli.common` holds what the subcommands share (exit statuses, loading),
and each subcommand is a module of its own (``validate``, ``render``, ``resolve``,
``los``, ``generate``, ``game``, ``simulate``, ``band``, ``install_desktop``).
"""

from crdesk.cli.app import main

__all__ = ["main"]
