"""Who may ask: the API token, compared in constant time, and what the dashboard derives
from it (a browser cannot send a bearer header).

The session cookie holds an HMAC of the token, never the token itself, and the CSRF value
embedded in the dashboard's forms is another HMAC of it; a new daemon run makes a new token,
so old cookies and forms stop working.

A browser is signed in with a one-time code (`SigninCodes`), never the token: `filegram open`
asks the daemon for a code (POST /api/signin-code, with the token) and opens
`/?code=<code>`. The code works once, within a minute, so the URL that `xdg-open` shows in
the process list, the browser history or a proxy log signs nobody in afterwards."""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import secrets
import threading
import time
from http.cookies import SimpleCookie

SESSION_COOKIE = "filegram_session"


def _derive(token: str, purpose: bytes) -> str:
    return hmac.new(token.encode(), purpose, hashlib.sha256).hexdigest()


def same(given: str, expected: str) -> bool:
    """Constant-time equality of two secrets."""
    return hmac.compare_digest(given.encode("utf-8", "replace"), expected.encode("utf-8"))


class TokenAuth:
    """The daemon's API token and the keys derived from it."""

    def __init__(self, token: str):
        self.token = token
        self.session_key = _derive(token, b"filegram-dashboard-session")
        self.csrf = _derive(token, b"filegram-dashboard-csrf")[:32]

    def token_ok(self, given: str) -> bool:
        return same(given, self.token)

    def bearer_ok(self, authorization: str | None) -> bool:
        """An `Authorization: Bearer <token>` header with this token."""
        if not authorization or not authorization.startswith("Bearer "):
            return False
        return self.token_ok(authorization[len("Bearer "):].strip())

    def session_ok(self, cookie_header: str | None) -> bool:
        """A Cookie header with the dashboard's session key."""
        cookie: SimpleCookie = SimpleCookie()
        with contextlib.suppress(Exception):
            cookie.load(cookie_header or "")
        morsel = cookie.get(SESSION_COOKIE)
        return morsel is not None and bool(morsel.value) and same(morsel.value, self.session_key)

    def session_cookie(self) -> str:
        """The Set-Cookie value that signs a browser in."""
        return f"{SESSION_COOKIE}={self.session_key}; Path=/; HttpOnly; SameSite=Strict"

    def csrf_ok(self, given: str) -> bool:
        return same(given, self.csrf)


SIGNIN_CODE_SECONDS = 60.0
MAX_LIVE_CODES = 32


class SigninCodes:
    """One-time, short-lived sign-in codes for the dashboard."""

    def __init__(self, ttl_seconds: float = SIGNIN_CODE_SECONDS):
        self.ttl = ttl_seconds
        self._codes: dict[str, float] = {}  # sha256 of the code -> expiry (monotonic)
        self._lock = threading.Lock()

    @staticmethod
    def _key(code: str) -> str:
        return hashlib.sha256(code.encode("utf-8", "replace")).hexdigest()

    def issue(self) -> str:
        code = secrets.token_urlsafe(24)
        now = time.monotonic()
        with self._lock:
            self._codes = {k: t for k, t in self._codes.items() if t > now}
            while len(self._codes) >= MAX_LIVE_CODES:  # the oldest goes first
                self._codes.pop(min(self._codes, key=self._codes.__getitem__))
            self._codes[self._key(code)] = now + self.ttl
        return code

    def redeem(self, code: str) -> bool:
        """True once for a code issued less than ttl seconds ago; it is spent either way."""
        if not code:
            return False
        with self._lock:
            expiry = self._codes.pop(self._key(code), None)
        return expiry is not None and time.monotonic() <= expiry
