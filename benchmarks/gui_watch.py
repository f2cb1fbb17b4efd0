"""Which handler kept the GUI thread busy: a stack sampler for the play benchmark.

A 5 ms timer's gaps say *how long* the event loop was kept busy, not by what.
:class:`StallWatch` samples the GUI thread's Python stack from a second thread
every 2 ms; after the run each long gap is matched with the samples
taken inside it, so the benchmark can name the slot the event loop was running
(the first Python frame under ``QEventLoop.exec``) and the innermost frame of
the project's own code.  A sample with no Python frame under ``exec`` is Qt's own
work (painting, layout) between two Python calls.

The sampler needs the GIL to look: a block spent in Python code is seen about
once per interpreter switch interval (5 ms), one spent in Qt's C++ with the GIL
released as often as the sampler wakes (2 ms).  The interval is left as it is,
so the sampler barely changes what it measures.
"""

from __future__ import annotations

import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

ROOT = Path(__file__).resolve().parents[1]
QT_WORK = "Qt (no Python frame: paint, layout or native work)"


@dataclass(frozen=True, slots=True)
class Sample:
    at: float
    handler: str
    inner: str


@dataclass(slots=True)
class Stall:
    """One long gap of the event loop and what the GUI thread was doing in it."""

    start: float
    ms: float
    when: str = ""
    """Where in the run it came (the caller's label of the tick that ended it)."""
    cpu_ms: float = 0.0
    """The GUI thread's CPU time in the gap (on a loaded machine, far below ``ms``)."""
    handlers: Counter[str] = field(default_factory=Counter)
    inners: Counter[str] = field(default_factory=Counter)
    events: Counter[str] = field(default_factory=Counter)

    def describe(self) -> str:
        total = sum(self.handlers.values())
        head = f"{self.cpu_ms:.0f} ms CPU in a {self.ms:.0f} ms gap"
        lines = [head + (f" ({self.when})" if self.when else "")]
        if self.events:
            ev = [f"{h} {n} ms" for h, n in self.events.most_common(4)]
            lines.append(f"events: {'; '.join(ev)}")
        if total:
            parts = [f"{h} {n * 100 // total}%" for h, n in self.handlers.most_common(3)]
            inner = [f"{h} {n * 100 // total}%" for h, n in self.inners.most_common(3)]
            lines.append(f"handler: {'; '.join(parts)}")
            lines.append(f"innermost: {'; '.join(inner)}")
        return "\n      ".join(lines)


def _where(frame: FrameType, line: bool = True) -> str:
    code = frame.f_code
    try:
        name = str(Path(code.co_filename).resolve().relative_to(ROOT))
    except ValueError:
        name = Path(code.co_filename).name
    return f"{name}:{frame.f_lineno} {code.co_qualname}" if line else f"{name} {code.co_qualname}"


def _own(frame: FrameType) -> bool:
    try:
        rel = Path(frame.f_code.co_filename).resolve().relative_to(ROOT)
    except ValueError:
        return False
    return rel.parts[0] in ("ui", "crdesk")


class StallWatch:
    """Samples the calling thread's stack from a helper thread until :meth:`stop`.

    ``anchor`` is the name of the function whose frame runs the event loop
    (``exec`` is C++, so the frame above it is the caller's): the handler of a
    sample is the first Python frame called from there.
    """

    def __init__(self, anchor: str, every_s: float = 0.002) -> None:
        self.anchor = anchor
        self.every_s = every_s
        self.samples: list[Sample] = []
        self._target = threading.get_ident()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="stall-watch", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.is_set():
            frame = sys._current_frames().get(self._target)
            if frame is not None:
                self.samples.append(self._sample(frame))
            time.sleep(self.every_s)

    def _sample(self, frame: FrameType) -> Sample:
        at = time.perf_counter()
        chain: list[FrameType] = []
        f: FrameType | None = frame
        while f is not None:
            chain.append(f)
            f = f.f_back
        chain.reverse()  # outermost first
        base = next((i for i, c in enumerate(chain) if c.f_code.co_name == self.anchor), len(chain))
        below = chain[base + 1 :]
        if not below:
            return Sample(at, QT_WORK, QT_WORK)
        handler = _where(below[0], line=False)
        own = [c for c in below if _own(c)]
        inner = _where(own[-1]) if own else _where(below[-1])
        return Sample(at, handler, inner)

    def stalls(
        self,
        ticks: list[tuple[float, float, float, str]],
        over_ms: float,
        dispatches: list[Dispatch] | None = None,
    ) -> list[Stall]:
        """The gaps longer than ``over_ms`` (``ticks`` are (end time on
        ``time.perf_counter``, gap ms, GUI-thread CPU ms, label)), the most CPU first,
        each with the samples (and the timed application's dispatches) inside it."""
        out = []
        samples = self.samples
        for end, gap, cpu, when in ticks:
            if gap <= over_ms:
                continue
            stall = Stall(start=end - gap / 1000.0, ms=gap, when=when, cpu_ms=cpu)
            for s in samples:
                if stall.start <= s.at <= end:
                    stall.handlers[s.handler] += 1
                    stall.inners[s.inner] += 1
            if dispatches:
                stall.events = dispatches_in(dispatches, stall.start, end)
            out.append(stall)
        out.sort(key=lambda s: (-s.cpu_ms, -s.ms))
        return out


@dataclass(frozen=True, slots=True)
class Dispatch:
    """One event the application delivered from the event loop (not a nested one)."""

    start: float
    ms: float
    what: str


def timed_application(argv: list[str]) -> tuple[object, list[Dispatch]]:
    """A QApplication that times every event it delivers at the top level (the event
    loop's own dispatches; events sent from inside a handler count in their caller),
    so a block of Qt's own work is named by its event: an UpdateRequest is a paint of
    a window, a LayoutRequest a relayout, a Timer event a QTimer's slot.

    A diagnosis tool only (the benchmark's ``--events``): PySide6 now and then hands a
    Python ``notify`` a stale wrapper for the receiver, and that event is lost."""
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QApplication

    log: list[Dispatch] = []
    depth = [0]

    class TimedApplication(QApplication):
        def notify(self, receiver: QObject, event: QEvent) -> bool:
            if depth[0]:
                return super().notify(receiver, event)
            depth[0] += 1
            try:  # named before: the receiver may be deleted by the event
                what = f"{event.type().name} -> {receiver.objectName() or type(receiver).__name__}"
            except (RuntimeError, AttributeError):
                what = "?"
            start = time.perf_counter()
            try:
                return super().notify(receiver, event)
            finally:
                depth[0] -= 1
                ms = (time.perf_counter() - start) * 1000.0
                if ms >= 1.0:
                    log.append(Dispatch(start, ms, what))

    return TimedApplication(argv), log


def dispatches_in(log: list[Dispatch], start: float, end: float) -> Counter[str]:
    """Milliseconds by event and receiver of the dispatches inside [start, end]."""
    out: Counter[str] = Counter()
    for d in log:
        if d.start >= start - 0.001 and d.start <= end:
            out[d.what] += round(d.ms)
    return out
