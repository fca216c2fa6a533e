"""Shared test fixtures: every test gets its own FileGram home (never the user's), and no test
may leave a thread or a child process running behind it (watchdog's conftest is the model):
a leak in one test shows up as flakiness in another, so it fails where it starts."""

from __future__ import annotations

import signal
import socketserver
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

FIXTURES = Path(__file__).parent / "fixtures"
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"

# How long a test's threads and processes get to finish after it returns.
LEAK_GRACE_S = 5.0
# Threads that libraries keep for the life of the process, started on first use.
PROCESS_LIFETIME_THREADS = (
    "asyncio_", "ThreadPoolExecutor-", "pydevd", "Dummy-", "QueueFeederThread", "litellm-",
)


def _sigterm_is_an_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def pytest_configure(config: pytest.Config) -> None:
    # A run ended with SIGTERM (CI's timeout, `kill`) still runs every fixture's teardown,
    # as Ctrl-C does: daemons, Xvfb and browsers the tests started are stopped, not orphaned.
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _sigterm_is_an_interrupt)
        # A suite started in the background by a script (`cmd &` without job control, as CI
        # runners and nohup wrappers do) inherits SIGINT ignored, and an ignored signal stays
        # ignored in every program the tests start: `filegram record` would never see the
        # SIGINT (Ctrl-C) the tests stop it with. A handler of our own gives children the default.
        if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
            signal.signal(signal.SIGINT, signal.default_int_handler)
    config.addinivalue_line(
        "markers",
        "allow_leaks(reason): the test knowingly leaves threads or processes running "
        "(long-lived fixtures of a wider scope are allowed without it)",
    )


# Folders whose conftest holds a session-scoped fixture that is expensive to build (a
# simulated user set, trajectories): under pytest-xdist (`make test`: -n 3 --dist loadfile)
# all of such a folder goes to one worker, so it is built once; every other test file goes to
# one worker as a whole (its module-scoped daemon, Xvfb or recorded suite is built once).
SESSION_FIXTURE_FOLDERS = ("assist", "bench", "memory", "simulator")


# Units that take minutes on their own go first, longest first, so the other worker runs
# everything else beside them (xdist's own order puts the largest units first by test count,
# which left the one-test quick start, 230 s, alone at the end of the run: ~100 s of one idle
# core; the recorded-workflow suites, 70-80 s in their fixtures and a few tests each, did the
# same after the tool zoo doubled them). Durations from `make test --durations` (2026-12-02).
# The quick start is two files, its `make demo` half and its install half (155 s as one test
# on a loaded machine in 2026-12-03's run), one to each worker at the start.
LONG_UNITS = ("tests/test_quickstart.py", "tests/test_quickstart_install.py", "tests/recorder/test_workflows_ordinary_user.py",
              "tests/recorder/test_workflows.py", "tests/core/test_import_untrusted.py",
              "tests/recorder/test_references.py")


# Files that join another file's unit, so that they never run beside it: the event storm
# (8,000 files, a git checkout of 800, rm -rf) is the heaviest disk load the suite makes
# itself, and the recorded-workflow suite without the process connector is the test most
# sensitive to load (CI, 2026-12-02: both failed in the same run). Load from outside still
# comes; the suite does not add its own worst to its most sensitive.
JOINS = {"tests/reliability/test_event_storm.py": "tests/recorder/test_workflows_ordinary_user.py"}


def _unit_of(nodeid: str) -> str:
    path = nodeid.split("::", 1)[0]
    parts = path.split("/")
    if len(parts) > 2 and parts[0] == "tests" and parts[1] in SESSION_FIXTURE_FOLDERS:
        return f"tests/{parts[1]}"
    return JOINS.get(path, path)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Long units first, then the rest by size (tests per unit), each unit's tests in their
    own order: the order every xdist worker collects, and the order units are handed out."""
    units: dict[str, list[pytest.Item]] = {}
    for item in items:
        units.setdefault(_unit_of(item.nodeid), []).append(item)
    order = sorted(units, key=lambda u: (LONG_UNITS.index(u) if u in LONG_UNITS else len(LONG_UNITS), -len(units[u])))
    items[:] = [item for u in order for item in units[u]]


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist: unused when it is not installed
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    """`--dist loadfile`, with the folders above kept whole, handed out in the collection's
    order (see pytest_collection_modifyitems). (Not `--dist loadgroup` with xdist_group
    marks: on pytest 9.2 it silently stops grouping, pytest-xdist issue 1386.)"""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    config.option.loadscopereorder = False

    class FileOrFolderScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return _unit_of(nodeid)

    return FileOrFolderScheduling(config, log)


@pytest.fixture
def fixtures_dir() -> Path:
    return FIXTURES


@pytest.fixture
def artifacts_dir() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def fg_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "fghome"
    monkeypatch.setenv("FILEGRAM_HOME", str(home))
    return home


def _served_before(thread: threading.Thread, before: set[threading.Thread]) -> bool:
    """A request thread of a server that a wider-scoped fixture started (a keep-alive
    connection of a module's browser outlives one test, not the module)."""
    server = getattr(getattr(thread, "_target", None), "__self__", None)
    if not isinstance(server, socketserver.BaseServer):
        return False
    return any(getattr(t, "_target", None) == server.serve_forever for t in before if t.is_alive())


def _children() -> dict[int, psutil.Process]:
    try:
        kids = psutil.Process().children(recursive=True)
    except psutil.Error:
        return {}
    alive = {}
    for p in kids:
        try:
            if p.status() != psutil.STATUS_ZOMBIE:
                alive[p.pid] = p
        except psutil.Error:
            pass
    return alive


def _describe(p: psutil.Process) -> str:
    try:
        return f"pid {p.pid} {' '.join(p.cmdline())[:120] or p.name()}"
    except psutil.Error:
        return f"pid {p.pid}"


@pytest.fixture(autouse=True)
def no_leaked_threads_or_processes(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail the test if threads or child processes it started are still alive a few
    seconds after it ends. Fixtures of a wider scope (module, session) start theirs before
    this snapshot, so long-lived servers and displays are not counted (nor the request
    threads of such a server); library threads that live as long as the process are named
    in PROCESS_LIFETIME_THREADS; a test that must leave something running says so with
    @pytest.mark.allow_leaks(reason)."""
    threads_before = set(threading.enumerate())
    procs_before = set(_children())
    yield
    if request.node.get_closest_marker("allow_leaks"):
        return
    deadline = time.monotonic() + LEAK_GRACE_S
    while True:
        threads = [
            t for t in threading.enumerate()
            if t not in threads_before and t.is_alive() and not t.name.startswith(PROCESS_LIFETIME_THREADS)
            and not _served_before(t, threads_before)
        ]
        procs = {pid: p for pid, p in _children().items() if pid not in procs_before}
        if (not threads and not procs) or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    if not threads and not procs:
        return
    for p in procs.values():  # do not let one leak break the tests after it
        try:
            p.kill()
        except psutil.Error:
            pass
    what = [f"thread {t.name!r} ({getattr(t, '_target', None) or type(t).__name__})" for t in threads]
    what += [_describe(p) for p in procs.values()]
    pytest.fail(f"test leaked {len(what)} thread(s)/process(es) still running {LEAK_GRACE_S:.0f} s after it: " + "; ".join(what), pytrace=False)
