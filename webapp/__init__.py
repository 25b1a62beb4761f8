"""The web companion: both games in a browser, on the command line's contract.

``tabletop-web`` (or ``python -m webapp``) serves it on ``http://127.0.0.1:8000``; the pages
study a position, practise against the bots with every decision graded, review and design
decks, and keep what the user does in a SQLite file. The JSON API under ``/api/`` answers
exactly what the commands print with ``--json``.

The package is the top floor of the house: it imports both games and ``arena``, and nothing
imports it. It needs the ``web`` extra (FastAPI, uvicorn, segno): :func:`create_app` imports
it on use, and a missing one is :class:`arena.extras.MissingExtraError`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = ["create_app"]


def create_app(**options: Any) -> FastAPI:
    """The web companion's ASGI application (:func:`webapp.app.create_app`)."""
    from arena.extras import import_extra

    import_extra("fastapi", "web")
    from webapp.app import create_app as make

    return make(**options)
