"""Strict reading of the JSON files crdesk shares (saved games, Bands): bytes in, one
JSON object out, or a sentence saying why the file cannot be one; and atomic writing
(:func:`write_atomic`) of every file crdesk saves, whose killed saves' temps are
removed when the file is saved or opened again (:func:`remove_stale_temps`).

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
import re
import stat
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

Refuse = Callable[[str, str], Exception]
"""Makes the error for (source, sentence)."""


class TooLarge(float):
    """A JSON number beyond a float's range (``1e999``), kept to be reported with its path.

    It would load as infinity and then could never be saved (JSON has no infinity);
    the files' checks (:func:`crdesk.scenario.bad_texts`) name it where it stands.
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
    remove_stale_temps(p)  # a killed save's temp, beside a file that may only be read again
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


# --------------------------------------------------------------------------
# Writing


@contextmanager
def written_atomically(path: str | os.PathLike[str]) -> Iterator[Path]:
    """A temp path beside ``path`` to write in the block; renamed onto ``path`` (with the
    old file's permissions, or the umask's) when the block ends well, removed when it
    raises, so readers see either the old file or the whole new one.

    A symbolic link is followed: its target is replaced and the link kept (the temp is
    made beside the target, so the rename never crosses file systems).  Temp files a
    killed save left beside the target are removed first.
    """
    real = Path(os.path.realpath(path))
    try:
        mode = real.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    remove_stale_temps(real)
    fd, name = tempfile.mkstemp(
        prefix=f".{real.name}.{os.getpid()}-", suffix=_TEMP_SUFFIX, dir=real.parent
    )
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        os.chmod(tmp, mode)  # mkstemp makes 0600; a scenario or a map is meant to be shared
        os.replace(tmp, real)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    try:
        dir_fd = os.open(real.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def write_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` so that readers see either the old or the new file
    (:func:`written_atomically`)."""
    with written_atomically(path) as tmp, open(tmp, "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())


_TEMP_SUFFIX = ".tmp"
_STALE_AFTER_S = 3600.0
"""A temp file older than this is a killed save, whoever wrote it."""
_DEAD_AFTER_S = 0.0
"""A temp file of a process that no longer runs is removed once this old.  (A save
on another machine sharing the folder under the same process id would then fail
and say so; the old file is never touched.)"""


def remove_stale_temps(path: str | os.PathLike[str]) -> None:
    """Delete the temp files a killed save of ``path`` left beside it.

    Called by every save and every open: a file that is only read again would
    otherwise keep a killed save's temp for good.  Only this file's temps, by
    their exact name (``.NAME.PID-XXXXXXXX.tmp``, :func:`write_atomic`'s), and
    only those whose writing process is gone (or that are an hour old): another
    process may be saving the same file now.
    """
    real = Path(os.path.realpath(path))
    folder, name = real.parent, real.name
    pattern = re.compile(rf"\.{re.escape(name)}\.(\d+)-[a-z0-9_]{{8}}{re.escape(_TEMP_SUFFIX)}")
    try:
        candidates = list(folder.glob(f".{glob_escape(name)}.*{_TEMP_SUFFIX}"))
    except OSError:
        return
    now = time.time()
    for tmp in candidates:
        found = pattern.fullmatch(tmp.name)
        if found is None:
            continue
        try:
            info = tmp.lstat()
            if not stat.S_ISREG(info.st_mode):
                continue
            age = now - info.st_mtime
            dead = not _process_alive(int(found.group(1)))
            if age > _STALE_AFTER_S or (dead and age > _DEAD_AFTER_S):
                tmp.unlink()
        except OSError:
            pass


def _process_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True
    return True


def glob_escape(name: str) -> str:
    """``name`` with glob wildcards escaped."""
    return re.sub(r"([*?\[])", r"[\1]", name)
