"""The exceptions of ``packing``: one root, small subclasses whose messages quote the input."""

from __future__ import annotations


class PackingError(ValueError):
    """Root of every error this package raises on purpose."""


class ParseError(PackingError):
    """Text or values that do not describe a roll, cargo, truck, placement or deck."""


class DeckError(ParseError):
    """A deck file that cannot be read; the message names the file and line."""


class InvalidPlan(PackingError):
    """A load plan that breaks a loading rule or misstates its own score."""
