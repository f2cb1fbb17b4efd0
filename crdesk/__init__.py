"""crdesk: battlefield editor and rules-aware player for Chain Reaction 2015.

This package is the pure-Python core: it never imports Qt (see ``ui`` for the GUI).
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("crdesk")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.1.0"

__all__ = ["__version__"]
