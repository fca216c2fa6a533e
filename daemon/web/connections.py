"""The daemon's TCP side of HTTP: how many connections it holds, for how long, and on which
threads, so that no local process can starve the API (and through it the recorder) by
opening connections and sending nothing.

http.server's ThreadingHTTPServer gives every connection a thread of its own, with no
limit and no timeout: 1,012 idle connections held 1,012 threads and 1,012 descriptors,
`/api/health` timed out and the recorder could no longer open the files it had to read.
Here:

- A connection that has sent nothing waits in one selector thread, costing a descriptor
  and no thread. Only a connection with bytes to read goes to one of a fixed pool of
  worker threads.
- At most `max_connections` connections are held (a quarter of the process's descriptor
  limit, at most 256); past that the longest-idle one is closed to make room, so a flood of
  idle connections never locks out a client that has something to say.
- Every read of a request waits at most `read_timeout` seconds, and the whole request
  (line, headers, body) must arrive within `request_deadline` seconds: a slow client costs
  one worker for a few seconds, and a body shorter than its Content-Length times out.
- A keep-alive connection goes back to the selector between requests; one idle longer than
  `idle_timeout` seconds is closed.
- TCP_NODELAY on every connection: a response in two writes (headers, body) would
  otherwise wait for the client's delayed ACK (44 ms per keep-alive request, not 0.7 ms).
- The listen backlog takes bursts of 1,024 connections.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import queue
import resource
import selectors
import socket
import threading
import time
from collections import OrderedDict
from typing import Any, Protocol

log = logging.getLogger(__name__)

BACKLOG = 1024
WORKERS = 16
READ_TIMEOUT_S = 5.0
REQUEST_DEADLINE_S = 10.0
IDLE_TIMEOUT_S = 15.0
MAX_CONNECTIONS_CAP = 256
RESOURCE_ERRNOS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})


def default_max_connections() -> int:
    """A quarter of this process's descriptor limit (the recorder needs the rest), at most 256."""
    try:
        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (OSError, ValueError):
        soft = 1024
    if soft == resource.RLIM_INFINITY:
        soft = 4 * MAX_CONNECTIONS_CAP
    return max(8, min(MAX_CONNECTIONS_CAP, int(soft) // 4))


class DeadlineReader:
    """The read side of one connection, buffered, with every read bounded by the read
    timeout and by the deadline of the request being read. It outlives one request, so a
    pipelined request already read into the buffer is not lost, and `buffered` says so."""

    def __init__(self, sock: socket.socket, read_timeout: float):
        self.sock = sock
        self.read_timeout = read_timeout
        self.buf = bytearray()
        self.deadline: float | None = None

    @property
    def buffered(self) -> int:
        return len(self.buf)

    def start_request(self, seconds: float) -> None:
        self.deadline = time.monotonic() + seconds

    def _fill(self) -> bool:
        wait = self.read_timeout
        if self.deadline is not None:
            wait = min(wait, self.deadline - time.monotonic())
            if wait <= 0:
                raise TimeoutError("the request took too long to arrive")
        self.sock.settimeout(wait)
        data = self.sock.recv(65536)
        if not data:
            return False
        self.buf += data
        return True

    def readline(self, limit: int = -1) -> bytes:
        while True:
            i = self.buf.find(b"\n")
            if i >= 0 and (limit < 0 or i < limit):
                n = i + 1
                break
            if 0 <= limit <= len(self.buf):
                n = limit
                break
            if not self._fill():
                n = len(self.buf)
                break
        out = bytes(self.buf[:n])
        del self.buf[:n]
        return out

    def read(self, n: int = -1) -> bytes:
        if n is None or n < 0:
            raise ValueError("read() needs a length on a keep-alive connection")
        while len(self.buf) < n:
            if not self._fill():
                break
        out = bytes(self.buf[:n])
        del self.buf[:n]
        return out

    def close(self) -> None:
        self.buf.clear()


class BufferedWriter:
    """The write side: collects one response and sends it in one call (`flush`)."""

    def __init__(self, sock: socket.socket):
        self.sock = sock
        self.buf = bytearray()

    def write(self, data: bytes) -> int:
        self.buf += data
        return len(data)

    def flush(self) -> None:
        if self.buf:
            data, self.buf = bytes(self.buf), bytearray()
            self.sock.sendall(data)

    def close(self) -> None:
        self.buf.clear()


class Connection:
    """One client connection: its socket, reader and writer."""

    def __init__(self, sock: socket.socket, address: Any, read_timeout: float):
        self.sock = sock
        self.address = address
        self.reader = DeadlineReader(sock, read_timeout)
        self.writer = BufferedWriter(sock)
        self.closed = False

    def fileno(self) -> int:
        return self.sock.fileno()

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(OSError):
            self.sock.close()


class OneRequest(Protocol):
    """Answers one request read from a Connection; True to keep the connection open."""

    def __call__(self, conn: Connection) -> bool: ...


class ConnectionServer:
    """Accepts connections on (host, port) and hands each request to `answer` on a worker."""

    def __init__(self, address: tuple[str, int], answer: OneRequest, *, workers: int = WORKERS,
                 max_connections: int | None = None, read_timeout: float = READ_TIMEOUT_S,
                 request_deadline: float = REQUEST_DEADLINE_S, idle_timeout: float = IDLE_TIMEOUT_S,
                 name: str = "local-api"):
        self.answer = answer
        self.workers = workers
        self.max_connections = max_connections or default_max_connections()
        self.read_timeout = read_timeout
        self.request_deadline = request_deadline
        self.idle_timeout = idle_timeout
        self.name = name
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            self.sock.bind(address)
            self.sock.listen(BACKLOG)
        except OSError:
            self.sock.close()
            raise
        self.sock.setblocking(False)
        self.server_address = self.sock.getsockname()
        self._selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._selector.register(self.sock, selectors.EVENT_READ, "listen")
        self._selector.register(self._wake_r, selectors.EVENT_READ, "wake")
        self._idle: OrderedDict[Connection, float] = OrderedDict()  # parked, oldest first
        self._returning: queue.SimpleQueue[Connection] = queue.SimpleQueue()
        self._ready: queue.Queue[Connection | None] = queue.Queue()
        self._lock = threading.Lock()
        self._open = 0  # connections held: parked, queued or being answered
        self._busy: set[Connection] = set()
        self._stopping = threading.Event()
        self._stopped = threading.Event()
        self._serving = False
        self._accept_paused_until = 0.0
        self.refused = 0  # connections closed at once because every slot was taken
        self.evicted = 0  # idle connections closed to make room
        self.timed_out = 0  # idle connections closed after idle_timeout
        self._threads = [threading.Thread(target=self._work, name=f"{name}-worker-{i}", daemon=True)
                         for i in range(workers)]
        for t in self._threads:  # all at once: a pool that grows would look like a leak
            t.start()

    # -- the selector thread ---------------------------------------------------------------

    def serve_forever(self, poll_interval: float = 1.0) -> None:
        self._serving = True
        try:
            while not self._stopping.is_set():
                for key, _events in self._selector.select(timeout=poll_interval):
                    if key.data == "listen":
                        self._accept()
                    elif key.data == "wake":
                        with contextlib.suppress(OSError):
                            while self._wake_r.recv(4096):
                                pass
                    else:
                        self._dispatch(key.data)
                self._take_back()
                self._expire()
                if self._accept_paused_until and time.monotonic() >= self._accept_paused_until:
                    self._accept_paused_until = 0.0
                    with contextlib.suppress(KeyError, ValueError):
                        self._selector.register(self.sock, selectors.EVENT_READ, "listen")
        finally:
            self._stopped.set()

    def _accept(self) -> None:
        while True:
            try:
                sock, address = self.sock.accept()
            except BlockingIOError:
                return
            except OSError as exc:
                if exc.errno in RESOURCE_ERRNOS:
                    # Out of descriptors: make room, and stop accepting for a moment so
                    # the readable listening socket does not spin this loop.
                    if not self._evict_oldest():
                        self._pause_accepting()
                    log.warning("local API: cannot accept a connection: %s", exc.strerror)
                    return
                if exc.errno in (errno.ECONNABORTED, errno.EINTR, errno.EPROTO):
                    continue
                raise
            with self._lock:
                full = self._open >= self.max_connections
            if full and not self._evict_oldest():
                self.refused += 1
                with contextlib.suppress(OSError):
                    sock.close()
                continue
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self._lock:
                self._open += 1
            self._park(Connection(sock, address, self.read_timeout))

    def _pause_accepting(self) -> None:
        with contextlib.suppress(KeyError, ValueError):
            self._selector.unregister(self.sock)
        self._accept_paused_until = time.monotonic() + 0.2

    def _park(self, conn: Connection) -> None:
        try:
            self._selector.register(conn.sock, selectors.EVENT_READ, conn)
        except (OSError, ValueError, KeyError):
            self._close(conn)
            return
        self._idle[conn] = time.monotonic()

    def _unpark(self, conn: Connection) -> None:
        self._idle.pop(conn, None)
        with contextlib.suppress(KeyError, ValueError, OSError):
            self._selector.unregister(conn.sock)

    def _dispatch(self, conn: Connection) -> None:
        self._unpark(conn)
        self._ready.put(conn)

    def _evict_oldest(self) -> bool:
        if not self._idle:
            return False
        conn = next(iter(self._idle))
        self._unpark(conn)
        self._close(conn)
        self.evicted += 1
        return True

    def _take_back(self) -> None:
        while True:
            try:
                conn = self._returning.get_nowait()
            except queue.Empty:
                return
            if self._stopping.is_set():
                self._close(conn)
            else:
                self._park(conn)

    def _expire(self) -> None:
        now = time.monotonic()
        while self._idle:
            conn, since = next(iter(self._idle.items()))
            if now - since < self.idle_timeout:
                return
            self._unpark(conn)
            self._close(conn)
            self.timed_out += 1

    def _close(self, conn: Connection) -> None:
        if conn.closed:
            return
        conn.close()
        with self._lock:
            self._open -= 1

    # -- the workers -------------------------------------------------------------------------

    def _work(self) -> None:
        while True:
            conn = self._ready.get()
            if conn is None:
                return
            with self._lock:
                self._busy.add(conn)
            keep = False
            try:
                conn.reader.start_request(self.request_deadline)
                keep = bool(self.answer(conn))
            except Exception:
                log.exception("local API: a connection failed")
            finally:
                with self._lock:
                    self._busy.discard(conn)
            if not keep or conn.closed or self._stopping.is_set():
                self._close(conn)
            elif conn.reader.buffered:
                self._ready.put(conn)  # the next request is already here
            else:
                self._returning.put(conn)
                with contextlib.suppress(OSError):
                    self._wake_w.send(b"\0")

    # -- life ----------------------------------------------------------------------------------

    @property
    def open_connections(self) -> int:
        with self._lock:
            return self._open

    def stats(self) -> dict[str, int]:
        with self._lock:
            return {"open": self._open, "busy": len(self._busy), "idle": len(self._idle),
                    "max": self.max_connections, "refused": self.refused, "evicted": self.evicted,
                    "timed_out": self.timed_out}

    def shutdown(self, timeout: float = 5.0) -> None:
        """Stop accepting, close every connection, end the threads."""
        self._stopping.set()
        with contextlib.suppress(OSError):
            self._wake_w.send(b"\0")
        if self._serving:
            self._stopped.wait(timeout)
        for conn in list(self._idle):
            self._unpark(conn)
            self._close(conn)
        with self._lock:
            busy = list(self._busy)
        for conn in busy:  # unblock a worker waiting on a slow client
            with contextlib.suppress(OSError):
                conn.sock.shutdown(socket.SHUT_RDWR)
        for _ in self._threads:
            self._ready.put(None)
        deadline = time.monotonic() + timeout
        for t in self._threads:
            t.join(max(0.1, deadline - time.monotonic()))
        while True:
            try:
                conn = self._ready.get_nowait()
            except queue.Empty:
                break
            if conn is not None:
                self._close(conn)
        self._take_back()
        for closer in (self._selector.close, self.sock.close, self._wake_r.close, self._wake_w.close):
            with contextlib.suppress(OSError):
                closer()
