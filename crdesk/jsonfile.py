"""Strict reading of the JSON files crdesk shares (saved games, Bands): bytes in, one
JSON object out, or a sentence saying why the file cannot be one.

A file from a forum or a half-written download must never crash or hang the
program: the size is checked before parsing, binary and non-UTF-8 data are
named as such, NaN/Infinity and absurd integers are refused, numbers too large
for a float are kept as :class:`TooLarge` for the checks to name, and deep nesting
is refused both while parsing (Python's recursion limit) and after.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

Refuse = Callable[[str, str], Exception]
"""Makes the error for (source, sentence)."""


class TooLarge(float):
    """A JSON number beyond a float's range (``1e999``), kept to be reported with its path.

    It would load as infinity and then could never be saved (JSON has no infinity);
    the files' checks (:func:`crdesk.scenario._bad_texts`) name it where it stands.
    """

    text: str


def finite_float(text: str) -> float:
    """``parse_float`` of every crdesk file: a number too large for a float is a
    :class:`TooLarge` marker, not infinity."""
    value = float(text)
    if math.isfinite(value):
        return value
    marker = TooLarge(value)
    marker.text = text if len(text) <= 20 else text[:17] + "..."
    return marker


def too_deep(data: Any, limit: int) -> bool:
    """Whether the document nests more than ``limit`` levels (iteratively: no recursion)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
    return False


def parse_object(
    raw: bytes,
    source: str,
    *,
    files: str,
    file: str,
    what: str,
    max_bytes: int,
    max_depth: int,
    refuse: Refuse,
    not_object: Refuse | None = None,
) -> dict[str, Any]:
    """Decode and parse ``raw`` as one strict JSON object, not yet checked further.

    ``files`` names the kind in the plural ("game files"), ``file`` one of them
    ("a crdesk game file"), ``what`` what the object is ("a crdesk saved game");
    ``refuse`` makes the error, ``not_object`` the one for valid JSON that is no
    object (default ``refuse``).
    """
    other = f"not {file}"
    if len(raw) > max_bytes:
        raise refuse(
            source,
            f"{len(raw) / 1_048_576:.1f} MB of data; {files} over "
            f"{max_bytes // 1_048_576} MB are refused",
        )
    if b"\x00" in raw[:8192]:
        raise refuse(source, f"a binary file, {other}")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise refuse(source, f"not UTF-8 text (bad byte at offset {exc.start}); {other}") from None

    def reject(name: str) -> Any:
        raise ValueError(f"{name} is not allowed in {file.replace('crdesk ', '')}")

    try:
        data = json.loads(text, parse_constant=reject, parse_float=finite_float)
    except json.JSONDecodeError as exc:
        hint = " (the file looks cut short)" if exc.pos >= len(text.rstrip()) else ""
        raise refuse(
            source, f"not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}{hint}"
        ) from None
    except RecursionError:
        raise refuse(source, f"JSON nested too deeply; {other}") from None
    except ValueError as exc:  # NaN/Infinity, or integers with absurdly many digits
        raise refuse(source, f"invalid JSON value: {exc}") from None
    if not isinstance(data, dict):
        kind = "a list" if isinstance(data, list) else json.dumps(data)[:40]
        raise (not_object or refuse)(source, f"expected a JSON object ({what}), got {kind}")
    if too_deep(data, max_depth):
        raise refuse(source, f"JSON nested more than {max_depth} levels deep; {other}")
    return data


def read_file(
    path: str | os.PathLike[str], *, files: str, file: str, max_bytes: int, refuse: Refuse
) -> tuple[bytes, str]:
    """The bytes of a file that may be one of ``files``, and its name for messages:
    no folder, device or pipe (``/dev/zero`` never ends, a FIFO blocks the open), and
    nothing over ``max_bytes`` is read."""
    p = Path(path)
    source = str(p)
    try:
        size = p.stat().st_size
    except FileNotFoundError:
        raise refuse(source, "no such file") from None
    except OSError as exc:
        raise refuse(source, f"cannot read ({exc.strerror})") from None
    if p.is_dir():
        raise refuse(source, f"is a folder, not {file}")
    if not p.is_file():
        raise refuse(source, f"a device or pipe, not {file}")
    if size > max_bytes:
        raise refuse(
            source,
            f"the file is {size / 1_048_576:.1f} MB; {files} over "
            f"{max_bytes // 1_048_576} MB are refused",
        )
    try:
        return p.read_bytes(), source
    except OSError as exc:
        raise refuse(source, f"cannot read ({exc.strerror})") from None
