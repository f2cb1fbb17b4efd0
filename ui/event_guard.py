"""Event filters that never let an error out.

PySide crashes (a segfault in ``storePythonOverrideErrorOrPrint``) when it reports an
exception raised in a Python ``eventFilter`` that runs under another Python override,
as a key press does, passing the view's own ``keyPressEvent`` first (monkey seed
1072).  A tool's filter wrapped in :func:`guarded_filter` reports its error as any
uncaught error is reported (``sys.excepthook``), drops the gesture under way and
takes the event, so a bug in a tool costs a gesture, not the user's work.
"""

from __future__ import annotations

import contextlib
import functools
import sys
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., bool])


def guarded_filter(method: F) -> F:
    """Wrap an ``eventFilter(self, watched, event)``; on an error, call ``self.cancel()``
    when the object has one."""

    @functools.wraps(method)
    def wrapper(self: Any, watched: Any, event: Any) -> bool:
        try:
            return method(self, watched, event)
        except Exception:
            sys.excepthook(*sys.exc_info())
            cancel = getattr(self, "cancel", None)
            if callable(cancel):
                with contextlib.suppress(Exception):
                    cancel()
            return True

    return wrapper  # type: ignore[return-value]
