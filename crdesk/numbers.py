"""Numbers a person typed: ASCII digits only, of bounded length.

Python's ``int()`` and ``float()`` read far more than a player means, and fail on
some of what they accept at first sight: ``"²".isdigit()`` is true but ``int("²")``
raises, ``int("٣")`` is 3, ``int("1_0")`` is 10, and past 4,300 digits ``int()``
refuses the text.  Every number crdesk reads from text a person typed (an action's
words, ``--dice``, a command-line option) goes through :func:`whole` or
:func:`decimal`, so a number is read back from exactly the text it is written as.

>>> whole("12", "the floor")
12
>>> whole("²", "floor")
Traceback (most recent call last):
...
crdesk.numbers.NumberTextError: floor must be a whole number, got '²'; write it with the digits 0-9
>>> decimal("-1.5e2", "x")
-150.0
"""

from __future__ import annotations

import math
import re

MAX_DIGITS = 20
"""The most digits a whole number may have (a dice seed below 2**63 takes 19)."""
MAX_CHARS = 40
"""The longest text a number with a fraction or an exponent may take."""

_WHOLE = re.compile(r"-?[0-9]+", re.ASCII)
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)


_NOT_FINITE = ("nan", "inf", "infinity")


class NumberTextError(ValueError):
    """Text that is not a number crdesk reads; the message is for the player."""


class NotFiniteError(NumberTextError):
    """``nan``, ``inf`` or a number beyond a float's range."""


def shown(text: str, limit: int = 24) -> str:
    """``text`` quoted for a message, cut short when long (with its length)."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text):,} characters)"


def _hint(text: str) -> str:
    """A word for text holding digits of another kind (superscripts, circled, other
    scripts), which ``str.isdigit`` takes for digits."""
    if any(c.isnumeric() and not c.isascii() for c in text[:100]):
        return "; write it with the digits 0-9"
    return ""


def whole(text: str, what: str, *, signed: bool = False) -> int:
    """A whole number written with the ASCII digits 0-9 (``-`` first when ``signed``),
    at most :data:`MAX_DIGITS` of them; :class:`NumberTextError` names ``what``."""
    if not isinstance(text, str):
        raise NumberTextError(f"{what} must be a whole number, got {type(text).__name__}")
    if _WHOLE.fullmatch(text) is None or (text.startswith("-") and not signed):
        raise NumberTextError(f"{what} must be a whole number, got {shown(text)}{_hint(text)}")
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise NumberTextError(
            f"{what} must be a whole number of at most {MAX_DIGITS} digits, got {shown(text)}"
        )
    return int(text)


def decimal(text: str, what: str) -> float:
    """A finite number written with ASCII digits, an optional sign, point and exponent
    (``12``, ``-0.5``, ``1e3``), at most :data:`MAX_CHARS` characters."""
    if not isinstance(text, str):
        raise NumberTextError(f"{what} must be a number, got {type(text).__name__}")
    if text.lower().lstrip("+-") in _NOT_FINITE:
        raise NotFiniteError(f"{what} must be a finite number, got {shown(text)}")
    if _DECIMAL.fullmatch(text) is None:
        raise NumberTextError(f"{what} must be a number, got {shown(text)}{_hint(text)}")
    if len(text) > MAX_CHARS:
        raise NumberTextError(
            f"{what} must be a number of at most {MAX_CHARS} characters, got {shown(text)}"
        )
    value = float(text)
    if not math.isfinite(value):
        raise NotFiniteError(f"{what} must be a finite number, got {shown(text)}")
    return value
