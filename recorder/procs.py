"""Seeing processes: which search tool or program of the table (see programs) ran, when,
from which folder, and when it ended.

inotify says a file was opened, never by whom, so searches and the provenance of every
action come from the process table. Two sources, best first: the kernel's process
connector (a netlink socket that announces every exec and exit the moment it happens;
needs root or CAP_NET_ADMIN) and, without it, a scan of /proc for new process ids every
few milliseconds (cheap: only new pids are looked at, and only their 16-byte name at
first). A grep that lives shorter than the scan interval can be missed by the scan; the
interpreter then infers the search from the access pattern (a burst of folder opens and
reads), without a query. A tool whose command line could not be read in time is still
reported by its name (an "anonymous" run: its time, no folder).

Each process is reported with its real start time (from /proc/<pid>/stat, not when it
was noticed) and its parent, so a compiler run by make counts as make's. The helper also says
how far it has looked ("seen up to", on_seen): every program of interest alive at that
time has been reported. On a busy machine the helper can fall a second behind the file
events; the recorder keeps their provenance open until the helper has looked past them. Resident
indexers (tracker, baloo) run all day: for them the helper also reports when their I/O
counters move, which is when their reads happen.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass

from .interpreters import is_interpreter, script_of
from .programs import BUILD_KIND, DOWNLOAD_KIND, PYTHONS, ProgramTable, browser_family
from .searchspec import SEARCH_TOOLS

ACTIVITY_POLL_S = 0.1  # how often a resident indexer's I/O counters are looked at
SEEN_EVERY_MS = 20.0  # "seen up to" at most this often (a build's thousands of execs a second)
CONNECTOR_WAIT_S = 0.2  # the connector loop's longest sleep: an idle helper's "seen up to" lags by this
MAX_EXIT_FDS = 256  # live programs whose exit a pidfd reports at once (the rest: the next scan)


@dataclass
class ProcInfo:
    """One process of interest: a search tool or a program of the table."""

    pid: int
    ppid: int
    comm: str
    argv: list[str]  # empty when the process was gone before it could be read
    cwd: str
    t_start: float  # epoch ms of its exec (from /proc/<pid>/stat), else when it was seen
    ancestors: list[int] | None = None  # parent, grandparent ... (a shell between pip and its tools)


def _read_proc(pid: int) -> tuple[list[str], str] | None:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            raw = f.read()
        cwd = os.readlink(f"/proc/{pid}/cwd")
    except OSError:
        return None
    argv = [a.decode("utf-8", "replace") for a in raw.split(b"\0") if a]
    return argv, cwd


def _runs_interpreter(pid: int) -> bool:
    """Is the process an interpreter by its program file (/proc/<pid>/exe)? `./build.py`
    run through its shebang line has the script's name as its kernel name, so only the
    file it runs says it is python (or sh ...). One readlink, no open; another user's
    process cannot be read (False)."""
    try:
        exe = os.readlink(f"/proc/{pid}/exe")
    except OSError:
        return False
    return is_interpreter(os.path.basename(exe).removesuffix(" (deleted)"))


def _comm(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/comm", "rb") as f:
            return f.read().strip().decode("utf-8", "replace")
    except OSError:
        return None


_CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, start time in epoch ms) from /proc/<pid>/stat."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            raw = f.read().decode("utf-8", "replace")
        fields = raw[raw.rindex(")") + 2 :].split()
        ppid, ticks = int(fields[1]), int(fields[19])
        boot = time.time() - time.clock_gettime(time.CLOCK_BOOTTIME)
    except (OSError, ValueError, IndexError, AttributeError):
        return None
    return ppid, (boot + ticks / _CLK_TCK) * 1000.0


MAX_ANCESTORS = 6


def _ancestors(ppid: int, limit: int = MAX_ANCESTORS) -> list[int]:
    """The parent chain above a process, nearest first (stops at init)."""
    out = []
    pid = ppid
    while pid > 1 and len(out) < limit:
        out.append(pid)
        st = _stat(pid)
        if st is None:
            break
        pid = st[0]
    return out


def _rchar(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/io", "rb") as f:
            for line in f:
                if line.startswith(b"rchar:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        return None
    return None


_SEARCH_COMM = set(SEARCH_TOOLS)


def _exec_names(table: ProgramTable) -> dict[str, set[str]]:
    """Program files whose exec is worth waking for: the real file's name (what inotify
    reports: /usr/bin/vim is a link to vim.basic, fdfind to fd) -> the kernel names the
    process can have (what it was started as, 15 bytes)."""
    import shutil

    names = set(SEARCH_TOOLS)
    for r in table.rules:
        # tools (their work is summarised), recursive cp / rm, editors and downloaders
        # (curl -o: a few ms, and its file is not the person's writing): worth a wake-up on
        # every exec; readers and other utilities only name a program, and the periodic
        # scan finds those that live long enough
        if r.summarised or r.recursive_flags or r.kind in ("editor", DOWNLOAD_KIND) or r.quiet_reads:
            names.update(n for n in r.names if not any(ch in n for ch in "*?["))
    out: dict[str, set[str]] = {}
    for n in names:
        p = shutil.which(n)
        if p is None:
            continue
        out.setdefault(os.path.basename(os.path.realpath(p)), set()).add(n[:15])
        out.setdefault(n, set()).add(n[:15])
    for p in _python_files():
        out.setdefault(os.path.basename(p), set()).add(PYTHON_EXEC)
    return out


PYTHON_EXEC = "<python>"  # an exec_names value: a Python interpreter's file was opened


def _python_files() -> set[str]:
    """The Python interpreters a person's script likely runs on (python3 and python on the
    PATH, /usr/bin/python3, the recorder's own), as links and as the files they point to.
    A script that lives less than the periodic scan (200 ms with the exec watch) was seen
    by nobody: its read of itself and its modules went to the person. Waking on the exec
    of its interpreter finds it while it starts (polling only; the connector sees every
    exec). Shells are left out: they start all the time (every `sh -c`)."""
    import shutil

    out: set[str] = set()
    for p in (shutil.which("python3"), shutil.which("python"), "/usr/bin/python3", sys.executable):
        if p and os.path.isfile(p):
            out.update((os.path.abspath(p), os.path.realpath(p)))
    return out


def _fresh_python(pid: int) -> bool:
    """A process that exec'd a Python interpreter just now: its program file is python and
    its command line is not its parent's (a Python program's fork that has not exec'd yet
    shares both; taking it would mark the pid known before it runs what it forked for)."""
    try:
        exe = os.path.basename(os.readlink(f"/proc/{pid}/exe"))
    except OSError:
        return False
    if not PYTHONS.match(exe):
        return False
    st = _stat(pid)
    own, parent = _read_proc(pid), (_read_proc(st[0]) if st else None)
    return own is not None and bool(own[0]) and (parent is None or own[0] != parent[0])


def _exec_watch(names: dict[str, set[str]]) -> int | None:
    """An inotify descriptor reporting opens in the folders that hold the programs."""
    import ctypes
    import shutil

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
    except (OSError, AttributeError):
        return None
    if fd < 0:
        return None
    folders = {os.path.dirname(os.path.realpath(p)) for t in names if (p := shutil.which(t))}
    folders.update(os.path.dirname(p) for p in _python_files())
    added = 0
    for folder in folders:
        if libc.inotify_add_watch(fd, os.fsencode(folder), 0x00000020) >= 0:  # IN_OPEN
            added += 1
    if not added:
        os.close(fd)
        return None
    return fd


def _read_exec(fd: int, names: dict[str, set[str]]) -> set[str]:
    """Kernel names of watched programs opened (exec'd), from a ready exec watch."""
    try:
        buf = os.read(fd, 65536)
    except BlockingIOError:
        return set()
    seen: set[str] = set()
    off = 0
    while off + 16 <= len(buf):
        _wd, _mask, _cookie, ln = struct.unpack_from("iIII", buf, off)
        name = buf[off + 16 : off + 16 + ln].rstrip(b"\0").decode("utf-8", "replace")
        off += 16 + ln
        seen.update(names.get(name, ()))
    return seen


class _Scanner:
    """Finds processes of interest; calls on_start(ProcInfo), on_end(pid, t_ms) and, for
    resident indexers, on_activity(pid, t_ms) when their I/O counters move."""

    def __init__(self, on_start: Callable[[ProcInfo], None], on_end: Callable[[int, float], None], poll_ms: float,
                 table: ProgramTable | None = None, on_activity: Callable[[int, float], None] | None = None,
                 roots: list[str] | None = None):
        self.roots = [r.rstrip(os.sep) for r in roots or []]
        self.on_start = on_start
        self.on_end = on_end
        self.on_activity = on_activity or (lambda pid, t: None)
        self.table = table or ProgramTable()
        self.exec_names = _exec_names(self.table)
        self.poll_s = max(poll_ms, 1.0) / 1000.0
        self.sock = self._open_connector()
        self.mode = "proc_connector" if self.sock is not None else "polling+exec_watch"
        self._live: dict[int, float] = {}
        # pid -> a pidfd of a live process (polling only): readable the moment it exits, so an
        # exit is known at once, not at the next scan (a fifth of a second, seconds on a busy
        # machine). A curl still "running" when the person appended to what it saved took the
        # append (a clean clone's `make test` under load).
        self._exit_fds: dict[int, int] = {}
        self._resident: dict[int, int] = {}  # pid -> last rchar
        self._lock = threading.Lock()
        self._me = os.getpid()
        # The recorder itself, its parent, and a build tool above it (the `make` of `make demo`,
        # a tox or nox session): they run as long as it does, so they did none of the changes
        # it sees. A `make` above the recorder had claimed all of them as a build's. Other
        # ancestors stay watched: a shell or terminal above it may run the person's cargo.
        self._ignored: set[int] = {self._me, os.getppid(),
                                   *(a for a in _ancestors(os.getppid(), limit=64) if self._builds(_comm(a)))}
        # sync requests (see ProcessWatcher.sync): answered once what came before is reported
        self.on_sync: Callable[[str], None] = lambda token: None
        self._sync_r, self._sync_w = os.pipe()
        os.set_blocking(self._sync_r, False)
        self._sync_tokens: list[str] = []
        self.on_seen: Callable[[float], None] = lambda t: None
        self._seen_sent = 0.0

    def _seen(self, t_look: float) -> None:
        """Say that every program of interest running at t_look (epoch ms) is reported."""
        if t_look - self._seen_sent >= SEEN_EVERY_MS:
            self._seen_sent = t_look
            self.on_seen(t_look)

    def _builds(self, comm: str | None) -> bool:
        """Is comm a build tool of the program table (make, ninja, tox ...)?"""
        c = self.table.classify([], comm) if comm else None
        return c is not None and c.rule.kind == BUILD_KIND

    def request_sync(self, token: str) -> None:
        with self._lock:
            self._sync_tokens.append(token)
        with contextlib.suppress(OSError):
            os.write(self._sync_w, b"x")

    def _relevant(self, argv: list[str], cwd: str) -> bool:
        """Can the process touch a root? Its folder lies in one or holds one, or its
        command line names a path in one (tar xf x.tar -C ~/Documents)."""
        if not self.roots:
            return True

        def overlaps(p: str) -> bool:
            return any(p == r or p.startswith(r + os.sep) or r.startswith(p.rstrip(os.sep) + os.sep) for r in self.roots)

        if overlaps(cwd):
            return True
        for a in argv[1:]:
            for part in (a, a.split("=", 1)[-1]):
                if part and (os.sep in part or part.startswith("~")):
                    if overlaps(os.path.normpath(os.path.join(cwd, os.path.expanduser(part)))):
                        return True
        return False

    def _script_in_root(self, argv: list[str], cwd: str) -> bool:
        """Does an interpreter run a script file that lies in a root (`bash backup.sh`)?
        Only then is its read of the script one the recorder sees (see interpreters)."""
        script = script_of(argv, cwd)
        if script is None:
            return False
        return not self.roots or any(script.startswith(r.rstrip(os.sep) + os.sep) for r in self.roots)

    def _answer_syncs(self) -> None:
        with contextlib.suppress(OSError):
            while os.read(self._sync_r, 4096):
                pass
        with self._lock:
            tokens, self._sync_tokens = self._sync_tokens, []
        for token in tokens:
            self.on_sync(token)

    def close(self) -> None:
        if self.sock is not None:
            with contextlib.suppress(OSError):
                self.sock.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                self.sock.close()

    def run(self, stop: threading.Event, on_ready: Callable[[], None] | None = None) -> None:
        """Watch until stop is set. on_ready is called once everything is in place (the
        exec watch set, the running processes reported): a program started after that
        is seen."""
        exec_fd = None if self.sock is not None else _exec_watch(self.exec_names)
        t_look = time.time() * 1000.0
        known = set(self._pids())
        for pid in known:  # already running: editors, indexers, a long build
            self._check(pid, existing=True)
        threading.Thread(target=self._follow_residents, args=(stop,), name="filegram-procs-io", daemon=True).start()
        # before "ready": a helper stalled before its first loop holds the recorder's events too
        self._seen(t_look)
        if on_ready is not None:
            on_ready()
        if self.sock is not None:
            self._netlink_loop(stop)
        else:
            self._poll_loop(stop, known, exec_fd)

    def _follow_residents(self, stop: threading.Event) -> None:
        """Report when a resident indexer's read counter moves (that is when it reads)."""
        while not stop.wait(ACTIVITY_POLL_S):
            with self._lock:
                pids = list(self._resident.items())
            for pid, last in pids:
                now = _rchar(pid)
                if now is None:
                    continue
                if now != last:
                    with self._lock:
                        if pid in self._resident:
                            self._resident[pid] = now
                    if last >= 0:
                        self.on_activity(pid, time.time() * 1000.0)

    def _ended(self, pid: int, t: float) -> None:
        with self._lock:
            self._resident.pop(pid, None)
        self.on_end(pid, t)

    @staticmethod
    def _open_connector() -> socket.socket | None:
        netlink_connector, cn_idx_proc, cn_val_proc = 11, 1, 1
        if os.environ.get("FILEGRAM_NO_PROC_CONNECTOR"):
            return None
        try:
            sock = socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, netlink_connector)
        except (OSError, AttributeError):
            return None
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
        except OSError:
            pass
        try:
            sock.bind((0, cn_idx_proc))
            op = struct.pack("=I", 1)  # PROC_CN_MCAST_LISTEN
            cn = struct.pack("=IIIIHH", cn_idx_proc, cn_val_proc, 0, 0, len(op), 0) + op
            sock.send(struct.pack("=IHHII", 16 + len(cn), 3, 0, 0, 0) + cn)
            sock.settimeout(0.5)
            return sock
        except OSError:
            sock.close()
            return None

    def _netlink_loop(self, stop: threading.Event) -> None:
        import select

        sock = self.sock
        assert sock is not None
        sock.setblocking(False)
        while not stop.is_set():
            try:
                ready, _, _ = select.select([sock, self._sync_r], [], [], CONNECTOR_WAIT_S)
            except (OSError, ValueError):
                return
            # the kernel queues an exec's notice as it happens: once the socket is drained,
            # every exec before t_look has been looked at
            t_look = time.time() * 1000.0
            while True:  # everything announced so far, before any sync is answered
                try:
                    data = sock.recv(65536)
                except (BlockingIOError, InterruptedError):
                    break
                except OSError:
                    return
                off = 0
                while off + 16 <= len(data):
                    (msg_len,) = struct.unpack_from("=I", data, off)
                    if msg_len < 16:
                        break
                    self._netlink_message(data, off)
                    off += (msg_len + 3) & ~3
            if self._sync_r in ready:
                self._answer_syncs()
            self._seen(t_look)

    def _netlink_message(self, data: bytes, off: int) -> None:
        base = off + 16 + 20  # nlmsghdr + cn_msg
        if base + 24 > len(data):
            return
        (what,) = struct.unpack_from("=I", data, base)
        if what == 0x00000002:  # PROC_EVENT_EXEC
            _pid, tgid = struct.unpack_from("=II", data, base + 16)
            self._check(tgid)
        elif what == 0x80000000:  # PROC_EVENT_EXIT
            pid, tgid = struct.unpack_from("=II", data, base + 16)
            if pid == tgid and tgid in self._live:
                del self._live[tgid]
                self._ended(tgid, time.time() * 1000.0)

    def _poll_loop(self, stop: threading.Event, known: set[int], exec_fd: int | None) -> None:
        """Scan /proc for new pids; and wake at once when a watched program's file is
        opened for exec (inotify IN_OPEN on its folder, allowed for any user), then look
        for that program among the processes while it is still starting."""
        # With the exec watch the scan is only a safety net (and notices exits): a tenth of
        # the rate keeps an idle recorder near 0% CPU.
        interval = self.poll_s * (10 if exec_fd is not None else 1)
        import select

        base_fds = [self._sync_r] + ([exec_fd] if exec_fd is not None else [])
        fresh: dict[int, str] = {}  # pids first seen at the last scan -> their name then
        try:
            next_poll = time.monotonic() + interval
            while not stop.is_set():
                wait = max(next_poll - time.monotonic(), 0.0)
                exit_pids = {fd: pid for pid, fd in self._exit_fds.items()}
                try:
                    ready, _, _ = select.select(base_fds + list(exit_pids), [], [], wait)
                except (OSError, ValueError):
                    return
                t_look = time.time() * 1000.0
                for fd in ready:
                    if fd in exit_pids:
                        self._exited(exit_pids[fd])
                if exec_fd is not None:  # read even when select said nothing: an exec since
                    names = _read_exec(exec_fd, self.exec_names)
                    if names:
                        self._catch_starting(names, known)
                if self._sync_r in ready:
                    for pid in set(self._pids()) - known:  # started before the request
                        known.add(pid)
                        self._check(pid)
                    self._answer_syncs()
                if time.monotonic() < next_poll:
                    if exec_fd is not None:  # the exec watch has looked at every watched start
                        self._seen(t_look)
                    continue
                next_poll = time.monotonic() + interval
                now = set(self._pids())
                # a process seen between fork and exec still had its parent's name: look again
                for pid, comm in list(fresh.items()):
                    del fresh[pid]
                    if pid in now and pid not in self._live and _comm(pid) not in (None, comm):
                        self._check(pid)
                for pid in now - known:
                    comm = _comm(pid)
                    if comm is not None:
                        fresh[pid] = comm
                    self._check(pid)
                for pid in list(self._live):
                    if pid not in now:
                        self._exited(pid)
                known = now
                self._seen(t_look)
        finally:
            if exec_fd is not None:
                os.close(exec_fd)
            for fd in self._exit_fds.values():
                os.close(fd)
            self._exit_fds.clear()

    def _watch_exit(self, pid: int) -> None:
        if self.sock is not None or pid in self._exit_fds or not hasattr(os, "pidfd_open"):
            return  # the connector announces exits itself; without pidfds the scan notices them
        if len(self._exit_fds) >= MAX_EXIT_FDS:
            return  # select() takes descriptors below 1024 only: past this, the scan notices exits
        try:
            self._exit_fds[pid] = os.pidfd_open(pid)
        except OSError:
            pass  # gone already (the next scan says so) or a kernel before 5.3

    def _exited(self, pid: int) -> None:
        fd = self._exit_fds.pop(pid, None)
        if fd is not None:
            os.close(fd)
        if self._live.pop(pid, None) is not None:
            self._ended(pid, time.time() * 1000.0)

    def _catch_starting(self, names: set[str], known: set[int]) -> None:
        t_exec = time.time() * 1000.0
        # The 40 ms budget is the scanner's own CPU time, not the wall clock: on a busy machine
        # the wall clock ran out while the new process (or the scanner) waited for a CPU, and
        # the search was stored without its query. The wall-clock cap bounds the wait. The
        # pause between looks grows (0.2 ms to 5 ms), so a program whose exec is slow to finish
        # (a starved, niced one) does not use the budget up on looks that cannot find it yet.
        cpu_deadline = time.thread_time() + 0.040
        pause = 0.0002
        deadline = time.monotonic() + 0.5
        pending: set[int] = set()
        caught = False
        found: set[str] = set()
        python = PYTHON_EXEC in names
        while True:
            for pid in self._pids():
                if pid in known or pid in self._live or pid in pending:
                    continue
                if _comm(pid) in names or (python and _fresh_python(pid)):
                    pending.add(pid)
            for pid in list(pending):
                info = _read_proc(pid)
                if info is None:
                    pending.discard(pid)
                    known.add(pid)
                elif info[0]:  # the command line exists once exec has finished
                    pending.discard(pid)
                    known.add(pid)
                    c = _comm(pid)
                    self._check(pid)
                    if c:
                        found.add(c)
                    caught = True
            # until exec has finished, the new process still bears its parent's name
            if (caught and not pending) or time.thread_time() > cpu_deadline or time.monotonic() > deadline:
                break
            time.sleep(pause)
            pause = min(pause * 1.5, 0.005)
        if not found:
            for name in sorted(names - {PYTHON_EXEC}):
                # exec'd and gone before it could be read: still say which program ran, and when
                self._anonymous(name, t_exec)
                break

    def _anonymous(self, comm: str, t_exec: float) -> None:
        if comm not in _SEARCH_COMM and self.table.classify([], comm) is None:
            return
        self.on_start(ProcInfo(-1, 0, comm, [], "", t_exec - 5.0))
        self.on_end(-1, time.time() * 1000.0)

    @staticmethod
    def _pids() -> list[int]:
        try:
            return [int(n) for n in os.listdir("/proc") if n.isdigit()]
        except OSError:
            return []

    def _check(self, pid: int, *, existing: bool = False) -> None:
        if pid in self._ignored:
            return
        comm = _comm(pid)
        if comm is None:
            return
        # `./build.py` (a shebang line): an interpreter under its script's name
        shebang = not (comm in _SEARCH_COMM or self.table.watches(comm) or browser_family(comm))
        if shebang and not _runs_interpreter(pid):
            return
        t = time.time() * 1000.0
        st = _stat(pid)
        info = _read_proc(pid)
        if info is None or not info[0]:
            if not existing and (comm in _SEARCH_COMM or self.table.classify([], comm) is not None):
                # gone (or not readable) already: say which tool ran, and when
                self.on_start(ProcInfo(pid, st[0] if st else 0, comm, [], "", min(t, st[1]) if st else t))
                self.on_end(pid, time.time() * 1000.0)
            return
        argv, cwd = info
        c = self.table.classify(argv, comm)
        # An interpreter running a script the table does not list is reported too (when it
        # works in a root): a burst of new files it writes is named after it, and its read of
        # its own script is its, not the person's (interpreters); and a browser
        # (wherever it was started), which names the downloads it finishes (tools.Unlisted).
        browser = c is None and browser_family(comm) is not None
        python = PYTHONS.match(os.path.basename(argv[0]) if shebang else comm) is not None
        if c is None and comm not in _SEARCH_COMM and not python and not browser \
                and not self._script_in_root(argv, cwd):
            return  # a shell (or node, ruby ...) running no script of a root: `sh -c CMD`, a terminal's bash
        if browser and any(a.startswith("--type=") for a in argv[1:]):
            return  # a Chromium browser's renderer, GPU or utility process: not the browser
        if not browser and not (c is not None and c.rule.scope == "all") and not self._relevant(argv, cwd):
            return  # works elsewhere: someone's build in another folder
        if c is not None and c.rule.resident:
            with self._lock:
                self._resident[pid] = -1 if existing else (_rchar(pid) or 0)
        t_start = st[1] if st and st[1] <= t + 1.0 else t
        self._live[pid] = t
        self._watch_exit(pid)
        ppid = st[0] if st else 0
        self.on_start(ProcInfo(pid, ppid, comm, argv, cwd, t_start, _ancestors(ppid)))


class ProcessWatcher:
    """Reports processes of interest to on_start(ProcInfo) / on_end(pid, t_ms) /
    on_activity(pid, t_ms).

    The scanning runs in a small child process of its own: a search lives a few
    milliseconds, and in the recorder's process the scanner would wait for the GIL while
    the observer threads digest that very search's inotify events. The child only reads
    /proc and the netlink socket and writes one line per search tool it sees.
    """

    def __init__(self, on_start: Callable[[ProcInfo], None], on_end: Callable[[int, float], None], *, poll_ms: float = 20.0,
                 extra_programs: list[str] | None = None, on_activity: Callable[[int, float], None] | None = None,
                 roots: list[str] | None = None, on_seen: Callable[[float], None] | None = None):
        self.roots = [str(r) for r in roots or []]
        self.on_start = on_start
        self.on_end = on_end
        self.on_activity = on_activity or (lambda pid, t: None)
        self.on_seen = on_seen or (lambda t: None)
        self.poll_ms = poll_ms
        self.extra_programs = list(extra_programs or [])
        self.mode = "none"
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._child: subprocess.Popen[str] | None = None
        self._scanner: _Scanner | None = None
        self._sync_lock = threading.Lock()
        self._sync_n = 0
        self._sync_waiting: dict[str, threading.Event] = {}

    def start(self) -> None:
        if not os.path.isdir("/proc/self"):
            self.mode = "unavailable"
            return
        try:
            self._child = subprocess.Popen(
                [sys.executable, "-m", "filegram.recorder.procs", "--serve", str(self.poll_ms),
                 json.dumps(self.extra_programs), json.dumps(self.roots)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
            assert self._child.stdout is not None
            while True:  # the processes already running come first, then "M <mode>"
                line = self._child.stdout.readline()
                if not line:
                    raise OSError("process watcher did not start")
                if line.startswith("M "):
                    break
                self._dispatch(line)
            self.mode = line.split()[1] + " (helper process)"
            target = self._read_child
        except (OSError, AssertionError):
            self._kill_child()
            self._scanner = _Scanner(self.on_start, self.on_end, self.poll_ms,
                                     ProgramTable.with_extra(self.extra_programs), self.on_activity, self.roots)
            self._scanner.on_seen = self.on_seen
            self.mode = self._scanner.mode
            target = self._run_inline
        self._thread = threading.Thread(target=target, name="filegram-procs", daemon=True)
        self._thread.start()

    def sync(self, timeout: float) -> bool:
        """Return once the processes that started before the call have been reported
        (True), or after timeout seconds (False). What flush() needs to be exact."""
        child = self._child
        if child is None or child.stdin is None:
            return True
        with self._sync_lock:
            self._sync_n += 1
            token = str(self._sync_n)
            done = self._sync_waiting[token] = threading.Event()
        try:
            child.stdin.write(f"sync {token}\n")
            child.stdin.flush()
        except (OSError, ValueError):
            return False
        ok = done.wait(timeout)
        with self._sync_lock:
            self._sync_waiting.pop(token, None)
        return ok

    def _run_inline(self) -> None:
        assert self._scanner is not None
        self._scanner.run(self._stop)

    def _read_child(self) -> None:
        child = self._child
        assert child is not None and child.stdout is not None
        for line in child.stdout:
            self._dispatch(line)

    def _dispatch(self, line: str) -> None:
        kind, _, rest = line.rstrip("\n").partition(" ")
        try:
            if kind == "P":
                self.on_start(ProcInfo(**json.loads(rest)))
            elif kind == "E":
                pid, t = rest.split()
                self.on_end(int(pid), float(t))
            elif kind == "A":
                pid, t = rest.split()
                self.on_activity(int(pid), float(t))
            elif kind == "S":
                self.on_seen(float(rest))
            elif kind == "Y":
                with self._sync_lock:
                    done = self._sync_waiting.get(rest.strip())
                if done is not None:
                    done.set()
        except (ValueError, TypeError):
            pass

    def _kill_child(self) -> None:
        child, self._child = self._child, None
        if child is None:
            return
        with contextlib.suppress(OSError):
            if child.stdin is not None:
                child.stdin.close()
        with contextlib.suppress(OSError):
            child.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.wait(timeout=2)

    def stop(self) -> None:
        self._stop.set()
        self._kill_child()
        if self._scanner is not None:
            self._scanner.close()
        if self._thread is not None:
            self._thread.join(timeout=2)


def _serve(poll_ms: float, extra: list[str], roots: list[str]) -> int:
    """The helper process: report processes of interest on stdout until stdin closes."""
    with contextlib.suppress(Exception):  # die with the parent (Linux)
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    # A search lives a few milliseconds: the helper must run the moment the kernel wakes
    # it. It only ever blocks in recv() and does microseconds of work per exec, so a
    # real-time priority (when allowed, e.g. as root) costs nothing and catches short greps.
    with contextlib.suppress(Exception):
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
    out = sys.stdout
    lock = threading.Lock()

    def emit(line: str) -> None:
        with lock:
            try:
                out.write(line + "\n")
                out.flush()
            except (OSError, ValueError):
                os._exit(0)

    scanner = _Scanner(
        lambda info: emit("P " + json.dumps(asdict(info), ensure_ascii=False)),
        lambda pid, t: emit(f"E {pid} {t}"),
        poll_ms,
        ProgramTable.with_extra(extra),
        lambda pid, t: emit(f"A {pid} {t}"),
        roots,
    )
    if scanner.sock is not None:
        # The connector needs privileges (root or CAP_NET_ADMIN); with them the scanner also
        # asks for a better CPU share: a 3 ms `tar x` on a busy machine must still find its
        # /proc entry read before it exits (a stress run lost one to two CPU hogs). Without
        # CAP_SYS_NICE this fails and nothing changes.
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, 0, -10)
    stop = threading.Event()
    scanner.on_sync = lambda token: emit(f"Y {token}")
    scanner.on_seen = lambda t: emit(f"S {t}")

    def watch_parent() -> None:
        """Sync requests from the recorder; end of input: the recorder is gone."""
        with contextlib.suppress(Exception):
            for line in sys.stdin:
                word, _, token = line.strip().partition(" ")
                if word == "sync":
                    scanner.request_sync(token)
        stop.set()
        scanner.close()
        os._exit(0)

    threading.Thread(target=watch_parent, daemon=True).start()
    scanner.run(stop, on_ready=lambda: emit(f"M {scanner.mode}"))
    return 0


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "--serve":
        sys.exit(_serve(float(sys.argv[2]), json.loads(sys.argv[3]) if len(sys.argv) > 3 else [],
                        json.loads(sys.argv[4]) if len(sys.argv) > 4 else []))
    sys.exit(2)
