"""Typed errors of the daemon's web layer, with no HTTP in them: the API object and the
dashboard raise them, and daemon/web/http.py maps each to its status code in one table.

They are FileGramErrors: the message is one line meant for the client (or the user)."""

from __future__ import annotations

from filegram.errors import FileGramError


class RequestError(FileGramError):
    """A request the daemon refuses; the message is shown to the client."""


class BadRequest(RequestError):
    """Malformed input: bad JSON, a wrong field type, an unknown field, a bad query value."""


class Unauthorized(RequestError):
    """No or a wrong API token (or dashboard session)."""


class Forbidden(RequestError):
    """Refused whatever the token: a foreign Host, a cross-site form, an expired form."""


class NotFound(RequestError):
    """No such endpoint, page or frame."""


class MethodNotAllowed(RequestError):
    """The path exists, for another method."""


class LengthRequired(RequestError):
    """A chunked body: bodies must come with a Content-Length."""


class RequestTimeout(RequestError):
    """A body that did not arrive within the read timeout (shorter than its Content-Length)."""


class PayloadTooLarge(RequestError):
    """A body over the limit of the part of the site it was sent to."""


class UnsupportedMediaType(RequestError):
    """A body in another format than the endpoint reads."""


class Busy(RequestError):
    """The resource is held by a long job (memory consolidating); try again shortly."""
