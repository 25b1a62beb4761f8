"""The root error of ``arena``: bad requests to play or run tournaments."""

from __future__ import annotations


class ArenaError(ValueError):
    """Root of every error ``arena`` raises on bad input (a ``ValueError``)."""
