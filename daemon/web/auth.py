"""Who may ask: the API token, compared in constant time, and what the dashboard derives
from it (a browser cannot send a bearer header).

The session cookie holds an HMAC of the token, never the token itself, and the CSRF value
embedded in the dashboard's forms is another HMAC of it; a new daemon run makes a new token,
so old cookies and forms stop working."""

from __future__ import annotations

import contextlib
import hashlib
import hmac
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
