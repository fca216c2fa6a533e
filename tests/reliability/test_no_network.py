"""No network connection is made unless the user configured a model: a socket guard wraps a
real run of import, memory, profile, ask and export in a fresh process."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

GUARD = textwrap.dedent(
    """
    import json, socket, sys
    attempts = []
    _connect = socket.socket.connect
    def guarded_connect(self, address):
        if self.family != socket.AF_UNIX:
            attempts.append(repr(address))
            raise OSError("network blocked by test guard")
        return _connect(self, address)
    socket.socket.connect = guarded_connect
    _cc = socket.create_connection
    def guarded_cc(address, *a, **k):
        attempts.append(repr(address))
        raise OSError("network blocked by test guard")
    socket.create_connection = guarded_cc
    _gai = socket.getaddrinfo
    def guarded_gai(host, *a, **k):
        if host not in (None, "localhost", "127.0.0.1", "::1"):
            attempts.append("dns:" + str(host))
            raise OSError("dns blocked by test guard")
        return _gai(host, *a, **k)
    socket.getaddrinfo = guarded_gai

    from filegram.cli import main
    home, fixtures, out = sys.argv[1:4]
    codes = []
    for args in (["import", fixtures], ["status"], ["profile", "--json"],
                 ["ask", "How does this user organise files?"], ["export", "--all", out]):
        codes.append(main(["--home", home, *args]))
    print("RESULT", json.dumps({"attempts": attempts, "codes": codes,
          "litellm_loaded": "litellm" in sys.modules}))
    """
)


def test_offline_run_makes_no_connection(tmp_path, fixtures_dir):
    pytest.importorskip("filegram.memory.core", reason="memory package not installed")
    proc = subprocess.run(
        [sys.executable, "-c", GUARD, str(tmp_path / "home"), str(fixtures_dir), str(tmp_path / "export")],
        capture_output=True, text=True, timeout=300,
    )
    line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")), None)
    assert line, proc.stdout + proc.stderr
    result = json.loads(line[len("RESULT "):])
    assert result["attempts"] == []
    assert result["codes"] == [0, 0, 0, 0, 0]
    assert result["litellm_loaded"] is False
