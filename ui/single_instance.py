"""One running crdesk per user: a second ``crdesk FILE`` hands FILE to the first.

Double-clicking files in a file manager starts ``crdesk FILE`` once per file;
without this each would be a new process with its own windows, settings
writes and a second compile of the sight kernels.  The first instance listens
on a local socket (:class:`InstanceServer`, a named pipe on Windows); a later
start with files connects (:func:`hand_over`), sends the absolute paths as one
JSON line, waits for ``ok`` and exits.  ``crdesk --new-window FILE`` skips the
hand-over and starts a process of its own.

The message is a single line of JSON, ``{"open": [paths]}``; the server
answers ``ok`` or ``error: why``.  Nothing in it is executed; paths are only
ever opened as crdesk files, with the usual checks.
"""

from __future__ import annotations

import getpass
import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QByteArray, QEventLoop, QObject, QTimer, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

MAX_MESSAGE = 1 << 20
"""A message longer than this (a megabyte of paths) is refused: no caller sends it."""


def server_name() -> str:
    """The socket name, one per user (and per user's ``XDG_RUNTIME_DIR`` on Linux).

    Hashed so the name is short and free of path characters whatever the user
    name holds; Qt puts it in the temporary folder (Unix) or the pipe namespace.
    """
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = str(os.getuid()) if hasattr(os, "getuid") else "user"
    key = f"{user}:{os.environ.get('XDG_RUNTIME_DIR', '')}"
    return "crdesk-" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]


def encode(paths: Sequence[str | os.PathLike[str]]) -> bytes:
    """The hand-over message for ``paths`` (made absolute: the server's cwd differs)."""
    absolute = [str(Path(p).expanduser().absolute()) for p in paths]
    return json.dumps({"open": absolute}).encode("utf-8") + b"\n"


def decode(message: bytes) -> list[str]:
    """The paths of a hand-over message; ValueError naming what is wrong with it."""
    try:
        data = json.loads(message.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"not a crdesk hand-over message: {exc}") from None
    paths = data.get("open") if isinstance(data, dict) else None
    if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
        raise ValueError('not a crdesk hand-over message: expected {"open": [paths]}')
    return list(paths)


class InstanceServer(QObject):
    """The first instance's listener: each message received becomes ``files_received``."""

    files_received = Signal(list)
    """The absolute paths another ``crdesk`` start asked this one to open."""

    def __init__(self, name: str | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.name = name or server_name()
        self.server = QLocalServer(self)
        self.server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        self.server.newConnection.connect(self._accept)
        self._buffers: dict[QLocalSocket, bytearray] = {}

    def listen(self) -> bool:
        """Start listening; False when another live instance already holds the name.

        Asked first, by connecting: Qt's ``listen`` with access options would
        silently take the name over from a live instance.  A socket file left by
        a crashed instance (nobody answers on it) is removed, so a crash never
        blocks the next start.
        """
        probe = QLocalSocket()
        probe.connectToServer(self.name)
        alive = probe.waitForConnected(300)
        probe.abort()
        if alive:
            return False
        if self.server.listen(self.name):
            return True
        QLocalServer.removeServer(self.name)
        return self.server.listen(self.name)

    def close(self) -> None:
        self.server.close()

    def _accept(self) -> None:
        while self.server.hasPendingConnections():
            socket = self.server.nextPendingConnection()
            self._buffers[socket] = bytearray()
            socket.readyRead.connect(lambda s=socket: self._read(s))
            socket.disconnected.connect(lambda s=socket: self._forget(s))

    def _forget(self, socket: QLocalSocket) -> None:
        # no deleteLater: the socket is the server's child and goes with it (deleting
        # it here as well crashed in ~QLocalSocket at the next event loop run)
        self._buffers.pop(socket, None)

    def _read(self, socket: QLocalSocket) -> None:
        buffer = self._buffers.get(socket)
        if buffer is None:
            return
        buffer += bytes(socket.readAll().data())
        if len(buffer) > MAX_MESSAGE:
            self._reply(socket, "error: message too long")
            return
        if b"\n" not in buffer:
            return
        line = bytes(buffer).split(b"\n", 1)[0]
        try:
            paths = decode(line)
        except ValueError as exc:
            self._reply(socket, f"error: {exc}")
            return
        self._reply(socket, "ok")
        self.files_received.emit(paths)

    def _reply(self, socket: QLocalSocket, text: str) -> None:
        self._buffers.pop(socket, None)
        socket.write(QByteArray((text + "\n").encode("utf-8")))
        socket.flush()
        socket.disconnectFromServer()


class HandOver(QObject):
    """The second start's side, without blocking: connect, send, wait for the answer.

    ``finished`` carries True when the running instance said ``ok``; False when
    nobody listens, it answered an error, or it did not answer within the time.
    """

    finished = Signal(bool)

    def __init__(
        self,
        paths: Sequence[str | os.PathLike[str]],
        name: str | None = None,
        timeout_ms: int = 3000,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.message = encode(paths)
        self.name = name or server_name()
        self.answer = ""
        self.done = False
        self.socket = QLocalSocket(self)
        self.socket.connected.connect(self._send)
        self.socket.readyRead.connect(self._read)
        self.socket.errorOccurred.connect(lambda _error: self._end(False))
        self.socket.disconnected.connect(lambda: self._end(self.answer == "ok"))
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(lambda: self._end(False))
        self.timeout_ms = timeout_ms

    def start(self) -> None:
        self.timer.start(self.timeout_ms)
        self.socket.connectToServer(self.name)

    def _send(self) -> None:
        self.socket.write(QByteArray(self.message))

    def _read(self) -> None:
        self.answer += bytes(self.socket.readAll().data()).decode("utf-8", "replace")
        if "\n" in self.answer:
            self.answer = self.answer.split("\n", 1)[0]
            self._end(self.answer == "ok")

    def _end(self, ok: bool) -> None:
        if self.done:
            return
        self.done = True
        self.timer.stop()
        self.socket.abort()
        self.finished.emit(ok)


def hand_over(
    paths: Sequence[str | os.PathLike[str]], name: str | None = None, timeout_ms: int = 3000
) -> bool:
    """Ask a running crdesk to open ``paths``; True when it took them.

    Runs a local event loop until the answer (so it also works against a server
    in this same thread, as the tests do).  Needs a Qt application object.
    """
    client = HandOver(paths, name, timeout_ms)
    result: list[bool] = []
    loop = QEventLoop()
    client.finished.connect(lambda ok: (result.append(ok), loop.quit()))
    client.start()
    if not client.done:
        loop.exec()
    return bool(result and result[0])
