"""The web app's errors: each is one line for the user and the HTTP status that carries it."""

from __future__ import annotations

__all__ = [
    "BadRequest",
    "Busy",
    "Conflict",
    "NotFound",
    "NotJson",
    "NotJsonType",
    "OverTime",
    "Stopped",
    "Stopping",
    "TooLarge",
    "WebError",
]


class WebError(Exception):
    """The root error of the web app: its message is the ``error`` of the JSON answer."""

    status = 400


class BadRequest(WebError):
    """A request that is not what the endpoint takes (not JSON, not an object, a bad field)."""

    status = 422


class Conflict(WebError):
    """A request that no longer fits what is kept: a move that answers a decision already
    answered, or one not yet asked."""

    status = 409


class NotJson(WebError):
    """A request body that is not JSON, or not JSON the server reads (nested too deep, a number
    too long: :func:`webapp.api.read_body`)."""

    status = 400


class NotJsonType(WebError):
    """A request body that does not say it is JSON (``Content-Type: application/json``)."""

    status = 415


class NotFound(WebError):
    """No such game, session or deck."""

    status = 404


class TooLarge(WebError):
    """A request body past the endpoint's size cap."""

    status = 413

    def __init__(self, limit: int) -> None:
        super().__init__(f"the request is larger than this server's limit of {limit:,} bytes")
        self.limit = limit

    def __reduce__(self) -> tuple[type[TooLarge], tuple[int]]:
        return (TooLarge, (self.limit,))


class Busy(WebError):
    """Every process slot for long answers is taken: try again in a moment."""

    status = 503

    def __reduce__(self) -> tuple[type[Busy], tuple[int]]:
        return (Busy, (self.slots,))

    def __init__(self, slots: int) -> None:
        self.slots = slots
        super().__init__(
            f"the server is busy with {slots} long answer{'s' if slots != 1 else ''}: "
            "try again in a moment"
        )


class Stopped(WebError):
    """A long answer's process ended without answering (the system stopped it, e.g. out of
    memory): a smaller question answers."""

    status = 422

    def __reduce__(self) -> tuple[type[Stopped], tuple[()]]:
        return (Stopped, ())

    def __init__(self) -> None:
        super().__init__(
            "the answer's process stopped before it answered (out of memory?): ask a smaller "
            "question"
        )


class Stopping(WebError):
    """The server is stopping (Ctrl-C): a long answer in progress was stopped with it."""

    status = 503

    def __reduce__(self) -> tuple[type[Stopping], tuple[()]]:
        return (Stopping, ())

    def __init__(self) -> None:
        super().__init__("the server is stopping: this answer was stopped; ask again once it runs")


class OverTime(WebError):
    """A long answer that did not finish within its endpoint's time limit (its work is
    stopped): a smaller question answers."""

    status = 422

    def __reduce__(self) -> tuple[type[OverTime], tuple[float]]:
        return (OverTime, (self.seconds,))

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        super().__init__(
            f"the answer took longer than this server's limit of {seconds:g} s and was stopped: "
            "ask a smaller question (a smaller truck or deck, fewer worlds, a --time-limit)"
        )
