"""Secrets planted under a watched root never reach the database, the blob store or the logs:
not their bytes, not their names. Secrets inside ordinary files are redacted before storage."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest
from filegram.bench.faults import start_recorder

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="inotify recorder")

PRIVATE_KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAABlwAAAAdzc2gtcn\n-----END OPENSSH PRIVATE KEY-----\n"
ENV_TOKEN = "ghp_Zq8v3LmN4pQ7rS2tU5wX9yA1bC6dE0fG3hJk"
OPENAI_KEY = "sk-proj-4f9Kq2LmX8vB7nR3tY6wZ1aC5dE0gH2jKlMn"
NAMES = ("id_ed25519", ".env", "keyrings", "vault.kdbx", "private-notes", "login.keychain-db")


def _everything_stored(home: Path) -> bytes:
    parts = []
    for f in home.rglob("*"):
        if f.is_file() and f.name != "config.toml":  # the user's own exclusion rules name them
            parts.append(f.read_bytes())
    conn = sqlite3.connect(home / "filegram.db")
    for (content,) in conn.execute("SELECT content FROM blobs"):
        parts.append(zlib.decompress(content))
    conn.close()
    return b"\n".join(parts)


def test_planted_secrets_are_not_stored(tmp_path):
    home, root = tmp_path / "home", tmp_path / "root"
    root.mkdir()
    home.mkdir()
    (home / "config.toml").write_text('[recorder]\nexclude = ["private-notes"]\n')
    proc = start_recorder(home, root)
    try:
        (root / ".ssh").mkdir()
        (root / ".ssh" / "id_ed25519").write_text(PRIVATE_KEY)
        (root / "project").mkdir()
        (root / "project" / ".env").write_text(f"GITHUB_TOKEN={ENV_TOKEN}\nDB_PASSWORD=hunter2hunter2\n")
        (root / ".local" / "share" / "keyrings").mkdir(parents=True)
        (root / ".local" / "share" / "keyrings" / "login.keyring").write_bytes(b"KEYRING\x00secret-bytes-1234")
        (root / "vault.kdbx").write_bytes(b"\x03\xd9\xa2\x9a" + b"kdbx-secret-payload")
        (root / "private-notes").mkdir()
        (root / "private-notes" / "diary.md").write_text("my private diary entry 7781\n")
        (root / "login.keychain-db").write_bytes(b"keychain-secret-5531")
        # an ordinary file that happens to contain secrets: stored, but redacted
        (root / "project" / "setup.md").write_text(f"# Setup\n\nexport OPENAI_API_KEY={OPENAI_KEY}\nrun the tool\n")
        for p in (root / ".ssh" / "id_ed25519", root / "project" / ".env", root / "private-notes" / "diary.md", root / "project" / "setup.md"):
            subprocess.run(["cat", str(p)], capture_output=True, check=True)
        subprocess.run(["ls", "-la", str(root / ".ssh"), str(root / "private-notes")], capture_output=True, check=True)
        subprocess.run(["grep", "-r", "TOKEN", str(root)], capture_output=True)
        (root / "project" / ".env").write_text(f"GITHUB_TOKEN={ENV_TOKEN}\nDB_PASSWORD=changed-pass-42\n")
        (root / "private-notes" / "diary.md").rename(root / "private-notes" / "diary-2.md")
        time.sleep(2.5)
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
    stored = _everything_stored(home)
    conn = sqlite3.connect(home / "filegram.db")
    paths = [p for (p,) in conn.execute("SELECT path FROM paths")]
    conn.close()
    assert any(p.endswith("setup.md") for p in paths), "the ordinary file must be recorded"
    for secret in (PRIVATE_KEY.splitlines()[1], ENV_TOKEN, "hunter2hunter2", "secret-bytes-1234", "kdbx-secret-payload",
                   "my private diary entry 7781", "keychain-secret-5531", OPENAI_KEY, "changed-pass-42"):
        assert secret.encode() not in stored, f"secret bytes stored: {secret[:12]}..."
    for name in NAMES + ("diary", ".ssh"):
        assert name.encode() not in stored, f"a denied name reached the store: {name}"
    assert b"[REDACTED" in stored  # setup.md's snapshot kept its text with the key removed
